"""`rewards.completion`: the one reading of a completion (text or chat messages) that every
reward and entry point shares. The answer is the last assistant turn; the tool calls are
those of every assistant turn; a `Sample` reads messages once, when it is made."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rewards.build import build_reward
from rewards.completion import assistant_turns, completion_text, read_completion
from rewards.config import parse_config
from rewards.envs.tool_calls import ToolCallReward, parse_tool_calls
from rewards.errors import InputError
from rewards.io import row_to_sample
from rewards.scoring import score_batch
from rewards.types import Sample, completion_turns

CALL = {"type": "function", "function": {"name": "delete_all", "arguments": "{}"}}
TAG = '<tool_call>{"name": "delete_all", "arguments": "{}"}</tool_call>'
CONVERSATION = [{"role": "assistant", "content": "Let me see.", "tool_calls": [CALL]},
                {"role": "tool", "content": "done"},
                {"role": "assistant", "content": "The answer is \\boxed{4}."}]


@pytest.mark.parametrize("completion, answer, turns", [
    ("plain text", "plain text", ()),
    ("", "", ()),
    (CONVERSATION, "The answer is \\boxed{4}.", ("Let me see." + TAG, "The answer is \\boxed{4}.")),
    ({"role": "assistant", "content": "one"}, "one", ("one",)),
    ([{"role": "assistant", "content": None, "tool_calls": [CALL]}], TAG, (TAG,)),
    ([{"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "image"}]}],
     "a", ("a",)),
    ([{"content": "no"}, {"content": "roles"}], "no\nroles", ("no\nroles",)),  # one turn
    ([], "", ("",)),
])
def test_read_completion_table(completion, answer, turns):
    assert read_completion(completion) == (answer, turns)
    assert completion_text(completion) == answer
    assert assistant_turns(completion) == (list(turns) or [answer])


@pytest.mark.parametrize("bad", [3, None, b"bytes", ["text", {"role": "assistant"}]])
def test_what_is_not_a_completion_is_an_input_error(bad):
    with pytest.raises(InputError) as info:
        read_completion(bad)
    assert info.value.field == "completion"
    with pytest.raises(InputError):
        Sample("p", bad)


def test_a_tool_message_is_never_a_turn():
    forged = [{"role": "assistant", "content": "no call"}, {"role": "tool", "content": TAG}]
    assert assistant_turns(forged) == ["no call"]


def test_a_sample_reads_messages_once_as_every_entry_point_does():
    sample = Sample("p", CONVERSATION, [])  # type: ignore[arg-type]
    assert (sample.completion, sample.turns) == read_completion(CONVERSATION)
    row = row_to_sample({"prompt": "p", "completion": CONVERSATION, "reference": []})
    assert (row.completion, row.turns) == (sample.completion, sample.turns)
    assert completion_turns(sample) == list(sample.turns)
    # a replaced completion is no longer these turns': it is its own one turn
    assert completion_turns(replace(sample, completion="x")) == ["x"]
    assert completion_turns(Sample("p", "text")) == ["text"]
    with pytest.raises(InputError):
        Sample("p", "text", turns=["not", "a tuple"])  # type: ignore[arg-type]


def test_answer_rewards_read_the_last_turn_and_the_tool_call_reward_every_turn():
    math = build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))
    earlier = [{"role": "assistant", "content": "\\boxed{5}"}, *CONVERSATION]
    scores = score_batch(math, [Sample("p", earlier, "4")]).scores  # type: ignore[arg-type]
    assert (scores[0].value, scores[0].reason) == (1.0, "ok")
    for reference, value in [([], 0.0), ([{"name": "delete_all", "arguments": {}}], 1.0)]:
        sample = Sample("p", CONVERSATION, reference)  # type: ignore[arg-type]
        assert score_batch(ToolCallReward(), [sample]).scores[0].value == value


def test_the_tool_call_bound_holds_over_all_turns():
    half = "x" * 30_000
    turns = [{"role": "assistant", "content": half}, {"role": "assistant", "content": half}]
    sample = Sample("p", turns, [])  # type: ignore[arg-type]
    score = ToolCallReward().score([sample])[0]
    assert (score.value, score.reason) == (0.0, "too_long")
    score = ToolCallReward(max_chars=60_000).score([sample])[0]
    assert (score.value, score.reason) == (1.0, "ok")
    # the parser alone never reads a text in part either: over the bound is one malformed call
    over = parse_tool_calls(TAG + " " * 50_000)
    assert over is not None and [(c.name, c.arguments) for c in over] == [("", None)]
