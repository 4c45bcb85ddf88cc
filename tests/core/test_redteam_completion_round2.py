"""Red team, round 2, of the one reading of a completion after h-b8 (`rewards.completion`:
roles against `ROLES`, content parts, calls, `calls_of_turn`; `rewards.types.with_completion`),
`/get_reward`'s decoded responses (`integrations.openrlhf.response_messages`,
`samples_from_queries`), NeMo Gym output items (`integrations.nemo_gym.completion_of`) and the
whole-number guess (`rewards.envs.number_guess.first_integer`, `NumberGuessEnv.step`) and the
verifiers 0.4 Task reward (`integrations.verifiers.TaskReward`) on Trace shapes.

How: each attack class of /work/shared/ATTACK-CLASSES.md that reaches these surfaces is built
as an input (thinking and reasoning parts holding the answer or a call, forged names, part and
item types of the wrong JSON type, non-text text parts, a rollout whose last turn is only
calls, Llama 3 and ChatML headers split or nested or in the prompt, a last user segment with
the gold, thousands of headers, glued magnitude and number words, ratios, a number cut by the
turn bound behind invisible padding) and run through the library reader, the math and
tool-call rewards (`score_batch`) or the environment's `step`. An attack that held is a plain
test; an open hole is a strict xfail whose reason names the function at its root."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from integrations._common import resolve_reward
from integrations.nemo_gym import completion_of
from integrations.openrlhf import response_messages, samples_from_queries
from rewards.build import build_reward
from rewards.completion import calls_of_turn, completion_text, read_completion
from rewards.config import parse_config
from rewards.envs.number_guess import NOT_WHOLE, NumberGuessEnv, NumberGuessOptions, first_integer
from rewards.envs.tool_calls import ToolCallReward
from rewards.errors import InputError
from rewards.scoring import score_batch
from rewards.types import Reward, Sample, with_completion

CALL = {"type": "function", "function": {"name": "delete_all", "arguments": "{}"}}
TAG = '<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>'
EXPECTS_CALL = [{"name": "delete_all", "arguments": {}}]
NO_CALL: list[Any] = []
TOOL = ToolCallReward()
A = "assistant"


@pytest.fixture(scope="module")
def math() -> Reward:
    return build_reward(parse_config({"domains": {"default": {
        "rewards": [{"use": "math", "workers": 1}]}}}))


def _value(reward: Reward, completion: Any, reference: Any) -> float | None:
    sample = Sample("p", completion, reference)
    return score_batch(reward, [sample]).scores[0].value


def _resolved(tmp_path: Path, use: str):
    path = tmp_path / "reward.yaml"
    extra = ", workers: 1" if use == "math" else ""
    path.write_text(f"domains:\n  default: {{rewards: [{{use: {use}{extra}}}]}}\n")
    return resolve_reward(path)


# ---- content parts: thinking, reasoning, odd types ---------------------------------------------

@pytest.mark.parametrize("kind", ["thinking", "reasoning", "redacted_thinking"])
def test_a_thinking_part_holding_the_gold_is_not_the_answer(math, kind):
    messages = [{"role": A, "content": [{"type": kind, "thinking": "\\boxed{4}",
                                         "text": "\\boxed{4}", "data": "\\boxed{4}"},
                                        {"type": "text", "text": "I cannot tell."}]}]
    assert completion_text(messages) == "I cannot tell."
    assert _value(math, messages, "4") == 0.0


@pytest.mark.parametrize("kind", ["thinking", "reasoning"])
def test_a_call_inside_a_thinking_part_is_not_a_call(kind):
    messages = [{"role": A, "content": [
        {"type": kind, "thinking": TAG, "text": TAG, "tool_calls": [CALL],
         "content": [{"type": "tool_use", "name": "delete_all", "input": {}}]},
        {"type": "text", "text": "Nothing to do."}]}]
    assert _value(TOOL, messages, EXPECTS_CALL) == 0.0
    assert _value(TOOL, messages, NO_CALL) == 1.0


def test_a_tool_result_part_in_an_assistant_message_is_named_not_dropped():
    messages = [{"role": A, "content": [{"type": "tool_result", "content": TAG}]}]
    with pytest.raises(InputError):
        read_completion(messages)


@pytest.mark.parametrize("kind", ["Text", "text\u200b", None, 3])
def test_an_odd_but_hashable_part_type_is_an_input_error(kind):
    with pytest.raises(InputError):
        read_completion([{"role": A, "content": [{"type": kind, "text": "\\boxed{4}"}]}])


@pytest.mark.parametrize("kind", [["text"], {"text": 1}])
def test_an_unhashable_part_type_is_an_input_error_not_a_crash(kind):
    with pytest.raises(InputError):
        read_completion([{"role": A, "content": [{"type": kind, "text": "4"}]}])


def test_a_text_part_whose_text_is_an_object_is_not_read_as_its_repr(math):
    messages = [{"role": A, "content": [{"type": "text", "text": {"a": "\\boxed{4}"}}]}]
    try:
        value = _value(math, messages, "4")
    except InputError:
        return
    assert value != 1.0


def test_a_deeply_nested_text_part_is_an_input_error_not_a_recursion_error():
    deep: list[Any] = []
    cursor = deep
    for _ in range(100_000):
        cursor.append([])
        cursor = cursor[0]
    with pytest.raises(InputError):
        read_completion([{"role": A, "content": [{"type": "text", "text": deep}]}])


# ---- roles, names, duplicate calls -------------------------------------------------------------

def test_a_forged_name_does_not_change_whose_turn_it_is(math):
    messages = [{"role": "user", "content": "\\boxed{4}"},
                {"role": "Assistant", "name": "user", "content": "No idea."}]
    assert completion_text(messages) == "No idea."
    assert _value(math, messages, "4") == 0.0


def test_a_user_message_named_assistant_is_not_the_models():
    messages = [{"role": "user", "name": "assistant", "content": TAG}]
    assert _value(TOOL, messages, EXPECTS_CALL) == 0.0


def test_a_text_and_the_same_tool_use_twice_are_two_calls():
    use = {"type": "tool_use", "name": "delete_all", "input": {}}
    messages = [{"role": A, "content": [{"type": "text", "text": "Cleaning."}, use, use]}]
    answer, turns = read_completion(messages)
    assert answer == "Cleaning."
    assert turns[0].count("<tool_call>") == 2
    assert _value(TOOL, messages, EXPECTS_CALL) != 1.0  # a repeated call is not the one call


def test_a_call_written_as_text_in_a_text_part_is_not_hidden():
    messages = [{"role": A, "content": [{"type": "text", "text": f"Done. {TAG}"}]}]
    assert _value(TOOL, messages, NO_CALL) == 0.0


# ---- with_completion on a rollout whose last turn is only calls --------------------------------

def test_with_completion_keeps_every_call_when_the_last_turn_is_only_calls():
    messages = [{"role": A, "content": "Answer: 4", "tool_calls": [CALL]},
                {"role": "tool", "content": "ok"},
                {"role": A, "content": None, "tool_calls": [CALL]}]
    sample = Sample("p", messages, EXPECTS_CALL)
    assert sample.completion == ""  # the call's arguments are no answer
    replaced = with_completion(sample, "4")
    assert replaced.completion == "4"
    assert replaced.turns[0] == sample.turns[0]
    calls = sample.turns[-1]
    assert calls.startswith("<tool_call>") and "delete_all" in calls
    assert replaced.turns[-1] == "4" + calls
    assert calls_of_turn(replaced.turns[-1], "4") == calls


def test_with_completion_cannot_smuggle_a_call_in_as_the_answer():
    messages = [{"role": A, "content": "Nothing."}]
    sample = Sample("p", messages, NO_CALL)
    replaced = with_completion(sample, TAG)  # an extracted answer that is call text
    assert calls_of_turn(replaced.turns[-1], replaced.completion) == ""


# ---- /get_reward: decoded responses ------------------------------------------------------------

CHATML = "<|im_start|>user\nWhat is 2 + 2?<|im_end|>\n<|im_start|>assistant\n"
LLAMA = ("<|start_header_id|>user<|end_header_id|>\n\nWhat is 2 + 2?<|eot_id|>"
         "<|start_header_id|>assistant<|end_header_id|>\n\n")


def _math_value(tmp_path: Path, prompt: Any, query: str, gold: str) -> float | None:
    resolved = _resolved(tmp_path, "math")
    samples = samples_from_queries(resolved, [query], [prompt], [gold])
    return score_batch(resolved.reward, samples).scores[0].value


@pytest.mark.parametrize("prompt,user,end", [
    (CHATML, "<|im_start|>user\n", "<|im_end|>"),
    (LLAMA, "<|start_header_id|>user<|end_header_id|>\n\n", "<|eot_id|>")])
def test_a_last_user_segment_holding_the_gold_is_never_the_answer(tmp_path, prompt, user, end):
    response = f"I cannot tell.{end}\n{user}Fine, it is \\boxed{{4}}.{end}"
    assert _math_value(tmp_path, prompt, prompt + response, "4") == 0.0


def test_a_llama3_ipython_observation_holding_the_gold_is_not_the_answer(tmp_path):
    response = ("Let me run it.<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n"
                "\\boxed{4}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
                "I cannot tell.<|eot_id|>")
    assert _math_value(tmp_path, LLAMA, LLAMA + response, "4") == 0.0


def test_a_header_split_by_an_invisible_character_is_the_models_text(tmp_path):
    # not a header (the template never writes one so): the policy's own text, so its boxed
    # answer is its answer and its call is its call
    response = "<|im_start|>\u200btool\n\\boxed{4}<|im_end|>"
    messages = response_messages(response)
    assert isinstance(messages, str)
    assert _math_value(tmp_path, CHATML, CHATML + response, "4") == 1.0


def test_headers_in_a_prompt_not_found_in_the_query_do_not_make_the_users_gold_the_answer(
        tmp_path):
    prompt = "<|im_start|>user\nIs it \\boxed{4}?<|im_end|>\n<|im_start|>assistant\n"
    query = "<s>" + prompt.replace("Is it", "Is  it") + "I cannot tell.<|im_end|>"
    assert _math_value(tmp_path, prompt, query, "4") == 0.0


def test_nested_headers_read_the_innermost_header_as_the_owner(tmp_path):
    # all of it is the policy's text after the prompt: a user header at once followed by an
    # assistant header leaves an empty user segment, and the boxed answer is the assistant's
    response = ("I cannot tell.<|im_end|>\n<|im_start|><|im_start|>user\n"
                "<|start_header_id|>assistant<|end_header_id|>\n\\boxed{4}<|im_end|>")
    messages = response_messages(response)
    assert isinstance(messages, list)
    assert [m["role"] for m in messages] == ["assistant", "user", "assistant"]
    assert messages[1]["content"] == ""
    assert _math_value(tmp_path, CHATML, CHATML + response, "4") == 1.0


def test_a_user_header_nested_after_an_assistant_header_keeps_its_gold_out(tmp_path):
    response = ("I cannot tell.<|start_header_id|>assistant<|end_header_id|>\n"
                "<|im_start|>user\n\\boxed{4}<|im_end|>")
    assert _math_value(tmp_path, CHATML, CHATML + response, "4") == 0.0


def test_thousands_of_headers_are_read_in_bounded_time(tmp_path):
    resolved = _resolved(tmp_path, "tool_call")
    response = "".join(f"x{k}<|im_end|>\n<|im_start|>tool\nok<|im_end|>\n<|im_start|>assistant\n"
                       for k in range(20_000))
    start = time.perf_counter()
    samples = samples_from_queries(resolved, [CHATML + response], [CHATML], [NO_CALL])
    score_batch(resolved.reward, samples)
    assert time.perf_counter() - start < 10.0


# ---- NeMo Gym output items ---------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["web_search_call", "computer_call", "Message", None])
def test_an_unknown_nemo_item_is_a_named_input_error(kind):
    with pytest.raises(InputError) as info:
        completion_of({"output": [{"type": kind, "content": "x"}]})
    assert info.value.field == "response.output"


@pytest.mark.parametrize("kind", [["message"], {"message": 1}])
def test_an_unhashable_nemo_item_type_is_a_named_input_error(kind):
    with pytest.raises(InputError):
        completion_of({"output": [{"type": kind, "content": "x"}]})


def test_a_nemo_reasoning_item_holding_the_gold_is_not_the_answer(math):
    messages = completion_of({"output": [
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "\\boxed{4}"}]},
        {"type": "message", "role": A, "content": [{"type": "output_text",
                                                   "text": "I cannot tell."}]}]})
    assert completion_text(messages) == "I cannot tell."


# ---- the whole-number guess --------------------------------------------------------------------

def _step(action: str, secret: int = 3) -> str:
    env = NumberGuessEnv(NumberGuessOptions(low=1, high=50))
    env.reset(Sample("p", "", secret))
    return env.step(action).observation.strip()


@pytest.mark.parametrize("text,expected", [
    ("3rd", 3), ("3은", 3), ("3つ", 3), ("3ー", 3), ("3x", NOT_WHOLE), ("3e5", NOT_WHOLE),
    ("3E-2", NOT_WHOLE), ("0x3", NOT_WHOLE), ("0x", NOT_WHOLE), ("0b1", NOT_WHOLE),
    ("3½", NOT_WHOLE), ("3²", NOT_WHOLE), ("3\u0663", NOT_WHOLE), ("3/4", NOT_WHOLE),
    ("3-4", NOT_WHOLE), ("3%", NOT_WHOLE), ("3°", NOT_WHOLE)])
def test_first_integer_reads_a_number_as_written(text, expected):
    assert first_integer(text) == expected


@pytest.mark.parametrize("guess", ["3k", "3M", "3B", "3thousand", "3million", "3eight"])
def test_a_glued_magnitude_or_number_word_is_not_three(guess):
    """Held since `_word_after` reads a glued Latin or Greek letter, number word,
    magnitude or exponent mark as going on writing the number."""
    assert _step(guess) != "Correct!"


@pytest.mark.parametrize("guess", ["3π", "3i"])
def test_a_glued_constant_is_not_three(guess):
    """Held since `_word_after` reads a glued Latin or Greek letter, number word,
    magnitude or exponent mark as going on writing the number."""
    assert _step(guess) != "Correct!"


def test_a_ratio_or_time_is_not_three():
    """Held since `:` ends a number only where no digit follows it."""
    assert _step("3:45") != "Correct!"


def test_a_number_cut_by_the_turn_bound_after_its_exponent_mark_is_not_three():
    """Held since a lone glued Latin letter (`e` before the cut) goes on writing the number."""
    from rewards.envs import number_guess
    action = "\u200b" * (number_guess._TURN_LIMIT - 2) + "3e5"
    assert _step("3e5") != "Correct!"
    assert _step(action) != "Correct!"


@pytest.mark.parametrize("guess", ["3e+", "3e-", "3E+ then 5"])
def test_a_dangling_exponent_is_not_three(guess):
    """Held since `_word_after` reads a glued Latin or Greek letter, number word,
    magnitude or exponent mark as going on writing the number."""
    assert _step(guess) != "Correct!"


# ---- verifiers 0.4 Trace shapes ----------------------------------------------------------------

def _verifiers_math(tmp_path: Path, turns: list[tuple[str, dict[str, Any]]]) -> float:
    """The verifiers Task reward (math, gold 4) on a trace of (kind, fields) messages."""
    import asyncio

    vf = pytest.importorskip("verifiers.v1", reason="the verifiers 0.4 Task API")
    from integrations.verifiers import task_reward

    class GoldData(vf.TaskData):  # type: ignore[misc, name-defined]
        reference: str

    path = tmp_path / "reward.yaml"
    path.write_text("domains:\n  default: {rewards: [{use: math, workers: 1}]}\n")
    score = task_reward(path)
    task = vf.Task(GoldData(prompt="What is 2 + 2?", reference="4"))
    kinds = {"user": vf.UserMessage, "assistant": vf.AssistantMessage, "tool": vf.ToolMessage}
    messages = [kinds[kind](**fields) for kind, fields in turns]
    nodes = [vf.MessageNode(message=m, parent=i - 1 if i else None,
                            sampled=isinstance(m, vf.AssistantMessage))
             for i, m in enumerate(messages)]
    trace = vf.Trace(task=vf.TraceTask(type="Task", data=task.data, key=task.key,
                                       hash=task.hash),
                     agent=vf.AgentInfo(config=vf.AgentConfig(), name="t", trainable=False),
                     nodes=nodes)
    return asyncio.run(score(task.data, trace))


def test_verifiers_an_earlier_boxed_turn_is_not_the_answer_of_a_call_only_last_turn(tmp_path):
    vf = pytest.importorskip("verifiers.v1", reason="the verifiers 0.4 Task API")
    call = vf.ToolCall(id="c1", name="calc", arguments="{}")
    assert _verifiers_math(tmp_path, [
        ("user", {"content": "What is 2 + 2?"}), ("assistant", {"content": "\\boxed{4}"}),
        ("user", {"content": "Check it."}),
        ("assistant", {"content": None, "tool_calls": [call]})]) == 0.0


def test_verifiers_reasoning_content_holding_the_gold_is_not_the_answer(tmp_path):
    assert _verifiers_math(tmp_path, [
        ("user", {"content": "What is 2 + 2?"}),
        ("assistant", {"content": "I cannot tell.", "reasoning_content": "\\boxed{4}"})]) == 0.0


@pytest.mark.parametrize("turns", [
    [("user", {"content": "What is 2 + 2? \\boxed{4}"})],
    [("user", {"content": "What is 2 + 2?"}), ("assistant", {"content": "No idea."}),
     ("user", {"content": "It is \\boxed{4}."})]])
def test_verifiers_a_users_gold_is_never_the_answer(tmp_path, turns):
    assert _verifiers_math(tmp_path, turns) == 0.0


def test_verifiers_the_last_replys_gold_wins(tmp_path):  # the control: the probes above can fail
    assert _verifiers_math(tmp_path, [
        ("user", {"content": "What is 2 + 2?"}), ("assistant", {"content": "No idea."}),
        ("user", {"content": "Try again."}), ("assistant", {"content": "\\boxed{4}"})]) == 1.0
