"""`answer_after`, the option every component takes, and reasoning components mixed with
weights like any other. The TRL cases are from huggingface/trl tests/test_rewards.py
(TestReasoningAccuracyReward, Apache-2.0), used as data."""

import pytest

from rewards import ConfigError, Sample, Score, build_reward, load_config, parse_config, reward
from rewards.build import build_component_spec
from rewards.reasoning import AnswerAfter, text_after
from rewards.registry import register

SEEN: list[str] = []


@register("reasoning-test-recorder")
def recorder():
    @reward(name="recorder")
    def record(sample):
        SEEN.append(sample.completion)
        return Score(1.0, parts={"chars": float(len(sample.completion))})

    return record


def one(rewards, completion, reference="4"):
    config = parse_config({"domains": {"default": {"rewards": rewards}}})
    return build_reward(config).score([Sample("p", completion, reference=reference)])[0]


def test_unclosed_think_has_no_answer():
    unclosed = r"<think> 2 + 2 = \boxed{4}, so let me check it"
    closed = r"<think> 2 + 2 is small </think> The answer is \boxed{4}."
    assert one(["math"], unclosed).value == 1.0  # without the option the inner text counts
    score = one([{"use": "math", "answer_after": "</think>"}], unclosed)
    assert (score.value, score.reason) == (0.0, "no_answer")
    assert one([{"use": "math", "answer_after": "</think>"}], closed).value == 1.0


@pytest.mark.parametrize("completion, expected", [  # TRL reasoning_accuracy_reward
    (r"<think> Reasoning content </think> \boxed{\frac{63}{400}}", 1.0),
    (r"Reasoning content </think> \boxed{\frac{63}{400}}", 1.0),  # the prompt opened <think>
    (r"<think> Reasoning content </think> \boxed{\frac{64}{400}}", 0.0),
    (r"<think> My answer is \boxed{\frac{63}{400}} </think> Some other text.", 0.0),
    (r"<think> The answer is \boxed{\frac{63}{400}} </think> A wrong answer: \boxed{43}.", 0.0),
    (r"<think> Incomplete reasoning without closing tag \boxed{\frac{63}{400}}", 0.0),
])
def test_trl_reasoning_accuracy_cases(completion, expected):
    component = {"use": "math", "answer_after": "</think>"}
    assert one([component], completion, reference=r"\frac{63}{400}").value == expected


def test_custom_delimiters_and_lists():  # TRL test_correct_answer_with_custom_tags
    text = r"<REASONING_START> Reasoning content </REASONING_END> \boxed{\frac{63}{400}}"
    component = {"use": "math", "answer_after": ["</think>", "</REASONING_END>"]}
    assert one([component], text, reference=r"\frac{63}{400}").value == 1.0
    assert text_after("a</think>b</reasoning>c", ["</reasoning>", "</think>"]) == "c"
    assert text_after("a</reasoning>b</think>c</reasoning>", ["</think>", "</reasoning>"]) == ""
    assert text_after("no marker", ["</think>"]) is None


def test_every_component_sees_only_the_text_after_the_last_marker():
    SEEN.clear()
    config = parse_config({"domains": {"default": {"rewards": [
        {"use": "reasoning-test-recorder", "answer_after": "</think>"}]}}})
    samples = [Sample("p", "<think>a</think>b</think> answer"), Sample("p", "<think>unclosed"),
               Sample("p", "</think>"), Sample("p", "")]
    scores = build_reward(config).score(samples)
    assert SEEN == [" answer", ""]  # the marker-less completions never reach the component
    assert [(s.value, s.reason) for s in scores] == [(1.0, "ok"), (0.0, "no_answer"),
                                                     (1.0, "ok"), (0.0, "no_answer")]
    assert scores[0].parts == {"reasoning-test-recorder": 1.0,
                               "reasoning-test-recorder/chars": 7.0}


def test_answer_after_keeps_name_kind_and_order():
    wrapped = build_component_spec({"use": "reasoning-test-recorder", "name": "r",
                                    "answer_after": "</think>"}, where="test")
    assert wrapped.name == "r"
    overlong = build_component_spec({"use": "overlong", "max_length": 4, "cache_length": 0},
                                    where="test")
    direct = AnswerAfter(overlong, "</think>")
    assert (direct.name, direct.kind) == ("overlong", "verifiable")
    texts = ["r</think>12345", "none", "r</think>1234", "r</think>"]  # scored in order
    assert [(s.value, s.reason) for s in direct.score([Sample("p", t) for t in texts])] \
        == [(-1.0, "ok"), (0.0, "no_answer"), (0.0, "ok"), (0.0, "ok")]


def test_answer_after_null_is_the_whole_completion():
    assert one([{"use": "math", "answer_after": None}], r"<think> \boxed{4}").value == 1.0


@pytest.mark.parametrize("marker", ["", [], [""], 3, ["</think>", 4]])
def test_bad_marker_is_a_config_error_naming_the_option(marker):
    with pytest.raises(ConfigError, match="'answer_after'"):
        one([{"use": "math", "answer_after": marker}], "x")


def test_a_ready_reward_takes_answer_after():
    @reward(name="ready")
    def ready(sample):
        return float(sample.completion == "4")

    register("reasoning-test-ready")(ready)
    component = {"use": "reasoning-test-ready", "answer_after": "</think>"}
    assert one([component], "<think>4").value == 0.0
    assert one([component], "<think>x</think>4").value == 1.0
    with pytest.raises(ConfigError, match="takes no options"):
        one([{"use": "reasoning-test-ready", "answer_after": "</think>", "x": 1}], "4")


def test_math_format_and_overlong_mix_with_weights(tmp_path):
    path = tmp_path / "reward.yaml"
    path.write_text(
        "domains:\n"
        "  math:\n"
        "    rewards:\n"
        "      - {use: math, answer_after: </think>}\n"
        "      - {use: format, weight: 0.5}\n"
        "      - {use: overlong, weight: 2.0, max_length: 100, cache_length: 20}\n"
        "      - {use: repetition, weight: 0}\n")
    mix = build_reward(load_config(path))
    samples = [Sample("p", text, reference="4", domain="math") for text in (
        r"<think>short</think> \boxed{4}",  # right, formatted, short
        r"<think>2+2</think> \boxed{5}" + " pad" * 15,  # wrong, formatted, 89 chars
        r"<think> \boxed{4}" + "x" * 100,  # unclosed: no answer, no format, too long
    )]
    scores = mix.score(samples)
    overlong_1 = (80 - len(samples[1].completion)) / 20
    assert scores[0].value == pytest.approx(1.0 + 0.5 * 1.0 + 2.0 * 0.0)
    assert scores[1].value == pytest.approx(0.0 + 0.5 * 1.0 + 2.0 * overlong_1)
    assert scores[2].value == pytest.approx(0.0 + 0.5 * 0.0 + 2.0 * -1.0)
    assert [s.reason for s in scores] == ["ok", "wrong", "no_answer"]
    assert scores[0].parts == {"math": 1.0, "format": 1.0, "overlong": 0.0,
                               "overlong/chars": float(len(samples[0].completion)),
                               "repetition": 0.0}
    assert scores[2].parts["math"] == 0.0 and scores[2].parts["overlong"] == -1.0
    assert scores[1].parts["repetition"] < 0  # weight 0: logged, not summed
