"""`MathReward` as a `Reward`: options, registry, config files, long completions."""

from __future__ import annotations

import time
from dataclasses import FrozenInstanceError

import pytest

from rewards import ConfigError, Reward, Sample, Score, parse_config
from rewards.build import build_reward
from rewards.math import MathConfig, MathReward, extract_answer


def test_is_a_reward_with_name_and_kind():
    reward = MathReward()
    assert isinstance(reward, Reward)
    assert (reward.name, reward.kind) == ("math", "verifiable")


def test_config_is_frozen_hashable_and_validated():
    config = MathConfig(timeout=3, strict=True)
    assert config.timeout == 3.0 and isinstance(config.timeout, float)
    assert hash(config) == hash(MathConfig(timeout=3.0, strict=True))
    with pytest.raises(FrozenInstanceError):
        config.timeout = 1.0  # type: ignore[misc]


@pytest.mark.parametrize("options", [
    {"timeout": 0}, {"timeout": "5"}, {"strict": "yes"}, {"workers": 0}, {"tail_chars": 10},
    {"cache_size": -1}, {"max_nesting": 0}, {"float_rel_tol": -1.0}, {"no_such_option": 1},
    {"workers": 2.5}, {"timeout": True},
])
def test_bad_options_raise_config_error(options):
    with pytest.raises(ConfigError):
        MathReward(**options)


def test_built_from_a_reward_config(math_config):
    config = parse_config({"domains": {"math": {"rewards": [
        {"use": "math", "timeout": math_config.timeout, "workers": 2, "strict": True}]}},
        "normalize": "none"})
    reward = build_reward(config)
    scores = reward.score([
        Sample("p", "so \\boxed{4}", reference="4", domain="math"),
        Sample("p", "so 4", reference="4", domain="math"),  # strict: no last-number fallback
    ])
    assert [s.value for s in scores] == [1.0, 0.0]


def test_bad_option_in_a_reward_config_is_a_config_error():
    config = parse_config({"domains": {"math": {"rewards": [{"use": "math", "timeout": -1}]}}})
    with pytest.raises(ConfigError):
        build_reward(config)


def test_scores_map_reasons_to_values(math_reward):
    samples = [Sample("p", "\\boxed{3}", reference="3"), Sample("p", "\\boxed{2}", reference="3"),
               Sample("p", "I give up", reference="3"), Sample("p", "\\boxed{3}", reference="")]
    assert math_reward.score(samples) == [Score(1.0, "ok"), Score(0.0, "wrong"),
                                          Score(0.0, "no_answer"), Score(None, "bad_reference")]


def test_empty_batch(math_reward):
    assert math_reward.score([]) == []


def test_100k_character_completion_costs_about_the_same_as_a_short_one(math_reward):
    filler = "We consider another case and check it carefully. " * 2100  # ~105k chars
    long_text = filler + "Therefore \\boxed{\\frac{3}{4}}."
    short_text = filler[:3000] + "Therefore \\boxed{\\frac{3}{4}}."  # a typical 3k answer
    assert len(long_text) > 100_000

    def cost(text: str) -> float:
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(20):
                extract_answer(text, math_reward.config)
            best = min(best, time.perf_counter() - start)
        return best / 20

    # Only the tail is searched: the long text costs what a 3k one does (plus a slice),
    # not 35x more as a full regex scan would.
    assert cost(long_text) < 3 * cost(short_text) + 2e-4
    scores = math_reward.score([Sample("p", long_text, reference="0.75"),
                                Sample("p", short_text, reference="0.75")])
    assert [s.value for s in scores] == [1.0, 1.0]


def test_scores_told_as_decided_are_those_returned_the_local_ones_first():
    """`score_progressively` (a server hands each request its scores as they are decided):
    every sample told once, with the score `score` returns; those decided without sympy
    together once the batch is read, a symbolic pair's duplicate with it."""
    reward = MathReward(workers=2)
    symbolic = r"so $\boxed{\sin^2 x+\cos^2 x}$"
    samples = [Sample("q", symbolic, reference="1"), Sample("q", r"$\boxed{4}$", reference="4"),
               Sample("q", r"$\boxed{5}$", reference="4"), Sample("q", symbolic, reference="1"),
               Sample("q", "no answer here", reference="4")]
    calls: list[dict[int, Score]] = []
    scores = reward.score_progressively(samples, lambda ix, sc: calls.append(dict(zip(ix, sc))))
    told = [i for call in calls for i in call]
    assert sorted(told) == list(range(len(samples)))
    assert {i: s for call in calls for i, s in call.items()} == dict(enumerate(scores))
    assert scores == MathReward(workers=2).score(samples)
    assert [s.value for s in scores] == [1.0, 1.0, 0.0, 1.0, 0.0]
    assert {1, 2} <= set(calls[0])  # (a symbolic job may have finished by then)
    assert any({0, 3} <= set(call) for call in calls)  # the duplicate with it
