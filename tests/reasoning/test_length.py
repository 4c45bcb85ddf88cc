"""`overlong`, `cosine` and `length`.

Cases marked TRL are from huggingface/trl tests/test_rewards.py (TestSoftOverlongPunishmentReward,
TestCosineScaledReward); cases marked open-r1 from huggingface/open-r1 tests/test_rewards.py
(test_cosine_scaled_reward, the len_reward tests, the soft overlong tests). Apache-2.0, used
as data."""

import pytest

from rewards import ConfigError, Sample, Score
from rewards.reasoning import (
    CosineReward,
    LengthReward,
    OverlongReward,
    cosine_scaled,
    kimi_length,
    soft_overlong,
)
from rewards.registry import register

GOLD = r"\frac{63}{400}"
RIGHT = r"\boxed{\frac{63}{400}}"
WRONG = r"\boxed{\frac{64}{400}}"


@register("reasoning-test-verdict")
class Verdict:
    """A stand-in correctness component: the value (and part `tests`) in `sample.meta`."""

    name = "verdict"

    def score(self, samples):
        return [Score(s.meta.get("value"), s.meta.get("reason", "ok"),
                      parts={"tests": s.meta["tests"]} if "tests" in s.meta else {})
                for s in samples]


def judged(completion, value, group=None, **meta):
    return Sample("p", completion, group=group, meta={"value": value, **meta})


def values(reward, samples):
    return [s.value for s in reward.score(samples)]


@pytest.mark.parametrize("length, expected", [(50, 0.0), (80, 0.0), (90, -0.5), (100, 0.0 - 1.0),
                                              (110, -1.0), (0, 0.0)])
def test_soft_overlong_matches_trl_and_open_r1(length, expected):
    # max 100, cache 20: free up to 80, then linear to -1 at 100 (TRL and open-r1 cases:
    # 50 -> 0, 90 -> -0.5, 110 -> -1)
    assert soft_overlong(length, 100, 20) == pytest.approx(expected)


def test_overlong_reward_in_characters_and_tokens(tiny_tokenizer_dir):
    reward = OverlongReward(max_length=100, cache_length=20)
    scores = reward.score([Sample("p", "x" * n) for n in (50, 90, 110)])
    assert [s.value for s in scores] == [0.0, pytest.approx(-0.5), -1.0]
    assert scores[1].parts == {"chars": 90.0}
    assert values(OverlongReward(max_length=10, cache_length=0), [Sample("p", "x" * 10),
                                                                  Sample("p", "x" * 11)]) \
        == [0.0, -1.0]  # no cache: a hard cut, no division by zero
    tokens = OverlongReward(max_length=8, cache_length=4, tokenizer=str(tiny_tokenizer_dir))
    text = "这个" * 5  # 10 characters, many more byte-level tokens
    score = tokens.score([Sample("p", text)])[0]
    assert score.parts["tokens"] > 10 and score.value == -1.0


@pytest.mark.parametrize("length, correct, expected", [  # TRL, max_len 100, default values
    (25, True, 0.92678), (75, True, 0.57322), (25, False, -0.92678), (75, False, -0.57322),
    (50, True, 0.75), (50, False, -0.75), (0, True, 1.0), (100, True, 0.5), (0, False, -1.0),
    (100, False, -0.5), (200, True, 0.5), (200, False, -0.5),  # clamped past max_len
])
def test_cosine_scaled_matches_trl(length, correct, expected):
    value = cosine_scaled(length, correct, max_len=100, min_value_wrong=-1.0,
                          max_value_wrong=-0.5, min_value_correct=0.5, max_value_correct=1.0)
    assert value == pytest.approx(expected, abs=1e-4)


def test_cosine_custom_bounds():  # TRL test_custom_value_bounds
    reward = CosineReward(of="reasoning-test-verdict", max_len=100, min_value_correct=0.0,
                          max_value_correct=2.0)
    assert values(reward, [judged("x" * 50, 1.0)]) == [pytest.approx(1.0)]


def test_cosine_with_math_matches_open_r1_cases():
    # open-r1 pads each answer to 20 or 80 characters; the 22-character answer stays 22
    reward = CosineReward(max_len=100)  # of: math, open-r1's default correctness
    samples = [Sample("p", text.ljust(n), reference=GOLD)
               for text, n in [(RIGHT, 20), (RIGHT, 80), (WRONG, 20), (WRONG, 80)]]
    scores = reward.score(samples)
    assert [round(s.value, 3) for s in scores] == [0.943, 0.548, -0.943, -0.548]
    assert [s.reason for s in scores] == ["ok", "ok", "wrong", "wrong"]
    assert scores[0].parts == {"correct": 1.0, "chars": 22.0}


def test_cosine_abstains_when_correctness_abstains():
    reward = CosineReward()
    score = reward.score([Sample("p", r"\boxed{42}", reference=r"\frac{")])[0]
    assert (score.value, score.reason) == (None, "bad_reference")  # TRL: None; open-r1: 1.0


def test_cosine_threshold_on_a_part():
    reward = CosineReward(of={"use": "reasoning-test-verdict"}, part="tests", correct_at=0.5,
                          max_len=10)
    samples = [judged("", 0.2, tests=0.5), judged("", 1.0, tests=0.0)]
    assert values(reward, samples) == [1.0, -1.0]
    with pytest.raises(ConfigError, match="cosine reward: part: .*no part 'tests'"):
        reward.score([judged("", 1.0)])


def test_cosine_sees_answer_after_inside_of():
    reward = CosineReward(of={"use": "math", "answer_after": "</think>"}, max_len=100)
    scores = reward.score([Sample("p", r"<think> \boxed{4}", reference="4"),
                           Sample("p", r"<think> x </think> \boxed{4}", reference="4")])
    assert [(s.reason, s.parts["correct"]) for s in scores] == [("no_answer", 0.0), ("ok", 1.0)]
    assert scores[0].value < -0.5 and scores[1].value > 0.5


def test_length_matches_open_r1_cases():
    reward = LengthReward()  # of: math, as open-r1's len_reward
    same = [Sample("p", RIGHT, reference=GOLD), Sample("p", WRONG, reference=GOLD)]
    assert values(reward, same) == [0.0, 0.0]  # equal lengths
    longer = "  " + "x" * 10
    right = values(reward, [Sample("p", RIGHT, reference=GOLD),
                            Sample("p", RIGHT + longer, reference=GOLD)])
    assert right[0] == pytest.approx(0.5) and right[0] > right[1]
    wrong = values(reward, [Sample("p", WRONG, reference=GOLD),
                            Sample("p", WRONG + longer, reference=GOLD)])
    assert wrong[0] <= 0.0 and wrong[1] <= 0.0 and wrong[0] > wrong[1]
    mixed = values(reward, [Sample("p", t, reference=GOLD)
                            for t in (RIGHT, RIGHT + longer, WRONG, WRONG + longer)])
    assert mixed[0] > 0.0 and mixed[2] > mixed[1] >= mixed[3]
    assert mixed[2] <= 0.0 and mixed[3] <= 0.0


def test_kimi_length_values():
    assert kimi_length(10, 10, 30, True) == 0.5
    assert kimi_length(20, 10, 30, True) == 0.0
    assert kimi_length(30, 10, 30, True) == -0.5
    assert kimi_length(10, 10, 30, False) == 0.0
    assert kimi_length(30, 10, 30, False) == -0.5
    assert kimi_length(7, 7, 7, True) == 0.0


def test_length_ranges_per_group_and_passes_abstentions_on():
    reward = LengthReward(of="reasoning-test-verdict")
    samples = [judged("x" * 10, 1.0, "a"), judged("x" * 30, 1.0, "a"),
               judged("x" * 100, 1.0, "b"), judged("x" * 200, None, "b", reason="bad_reference"),
               judged("x" * 300, 0.0, "b")]
    scores = reward.score(samples)
    assert [s.value for s in scores] == [0.5, -0.5, 0.5, None, -0.5]
    assert [s.reason for s in scores] == ["ok", "ok", "ok", "bad_reference", "wrong"]
    assert scores[0].parts == {"chars": 10.0}


def test_length_without_correctness_is_a_plain_length_reward():
    reward = LengthReward(of=None)
    assert values(reward, [Sample("p", "x" * n) for n in (0, 50, 100)]) == [0.5, 0.0, -0.5]
    assert values(reward, [Sample("p", "")]) == [0.0]  # empty completion, alone in its group


@pytest.mark.parametrize("factory, options, option", [
    (OverlongReward, {"cache_length": 10}, "max_length"),  # required
    (OverlongReward, {"max_length": 100}, "cache_length"),
    (OverlongReward, {"max_length": 0, "cache_length": 0}, "max_length"),
    (OverlongReward, {"max_length": 10, "cache_length": 20}, "cache_length"),
    (OverlongReward, {"max_length": 10.5, "cache_length": 2}, "max_length"),
    (OverlongReward, {"max_length": 10, "cache_length": 2, "max_len": 3}, "max_len"),
    (CosineReward, {"max_len": 0}, "max_len"),
    (CosineReward, {"min_value_wrong": "low"}, "min_value_wrong"),
    (CosineReward, {"max_value_correct": float("nan")}, "max_value_correct"),
    (CosineReward, {"of": None}, "of"),
    (CosineReward, {"of": {"weight": 1}}, "of"),
    (CosineReward, {"of": {"use": "math", "weight": 2}}, "of"),
    (CosineReward, {"correct_at": "yes"}, "correct_at"),
    (CosineReward, {"part": ""}, "part"),
    (LengthReward, {"of": 3}, "of"),
    (LengthReward, {"tokenizer": 7}, "tokenizer"),
])
def test_options_are_checked(factory, options, option):
    with pytest.raises(ConfigError, match=rf"^{factory.name} reward: .*\b{option}\b"):
        factory(**options)


def test_bad_inner_component_is_a_config_error_naming_it():
    with pytest.raises(ConfigError, match="cosine.of.*no_such_reward"):
        CosineReward(of="no_such_reward")
    with pytest.raises(ConfigError, match="cosine.of: .*math reward: unknown key 'timeuot'"):
        CosineReward(of={"use": "math", "timeuot": 3})


def test_cosine_invisible_padding_buys_no_length():
    """A wrong answer earns more the longer it is: 3,000 zero-width characters after it
    scored -0.5 against -0.999 (`rewards stress`: invisible); what a reader sees counts."""
    from rewards import Sample
    from rewards.reasoning import CosineReward

    wrong = "The answer is \\boxed{3}."
    reward = CosineReward(of="math")
    plain, padded = reward.score([Sample("q", wrong, reference="4"),
                                  Sample("q", wrong + "\u200b" * 3000, reference="4")])
    assert padded.value == plain.value
