"""`rewards.completion`: the one reading of a completion (text or chat messages) that every
reward and entry point shares. The answer is the content of the last assistant turn; the
tool calls are those of every assistant turn; a `Sample` reads messages once, when it is
made."""

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
    ([{"role": "assistant", "content": None, "tool_calls": [CALL]}], "", (TAG,)),  # no answer
    ([{"role": "assistant", "content": "x", "function_call": CALL["function"]}], "x",
     ("x" + TAG,)),
    ([{"role": "assistant", "content": [{"type": "output_text", "text": "a"},
                                        {"type": "tool_use", "name": "delete_all",
                                         "input": "{}"}]}], "a", ("a" + TAG,)),
    ([{"role": " Assistant\u200b", "content": "a"}, {"role": "USER", "content": "u"}], "a",
     ("a",)),
    ([{"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "image"}]}],
     "a", ("a",)),
    ([{"content": "no"}, {"content": "roles"}], "", ()),  # nobody's turns: no model text
    ([{"role": "user", "content": "\\boxed{4}"}, {"role": "tool", "content": TAG}], "", ()),
    ([], "", ()),
])
def test_read_completion_table(completion, answer, turns):
    assert read_completion(completion) == (answer, turns)
    assert completion_text(completion) == answer
    assert assistant_turns(completion) == ([completion] if isinstance(completion, str)
                                           else list(turns))


@pytest.mark.parametrize("bad", [
    3, None, b"bytes", ["text", {"role": "assistant"}],
    [{"role": "gpt", "content": "x"}],  # a role off the allow-list: whose text is it?
    [{"role": 3, "content": "x"}],
    [{"role": "assistant", "content": [{"type": "server_tool_use", "name": "x"}]}],  # may hide a call
    [{"role": "assistant", "content": [3]}],
    [{"role": "assistant", "content": 3.5}],
])
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


def test_a_call_too_deep_or_cyclic_is_a_malformed_call_not_a_crash():
    deep: dict = {}
    for _ in range(5000):
        deep = {"a": deep}
    cyclic: list = []
    cyclic.append(cyclic)
    for arguments in (deep, cyclic):
        messages = [{"role": "assistant", "content": None, "tool_calls": [
            {"function": {"name": "delete_all", "arguments": arguments}}]}]
        (turn,) = assistant_turns(messages)
        assert parse_tool_calls(turn)[0].name != "delete_all"
        score = ToolCallReward().score([Sample("p", messages, [])])[0]  # type: ignore[arg-type]
        assert (score.value, score.parts["format"]) == (0.0, 0.0)


def test_with_completion_keeps_every_turns_calls():
    from rewards.types import with_completion
    sample = Sample("p", CONVERSATION, [])  # type: ignore[arg-type]
    after = with_completion(sample, "\\boxed{4}.")
    assert after.turns == ("Let me see." + TAG, "\\boxed{4}.")
    assert completion_turns(after) == list(after.turns)
    cut = Sample("p", [CONVERSATION[0]], [])  # type: ignore[arg-type]
    assert cut.completion == "Let me see."
    # the answer after a marker is empty: the turn's call is still a call the rollout made
    assert completion_turns(with_completion(cut, "")) == [TAG]
    # turns that are not the completion's are dropped, never revived
    stale = replace(sample, completion="other")
    assert with_completion(stale, "x").turns == ()
