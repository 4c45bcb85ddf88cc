"""Pass rates, band selection, buckets and the curriculum, with hand-computed numbers."""

import math
import random

import pytest

from prompt_filter import (
    Band,
    MixingSchedule,
    PassRate,
    assign_buckets,
    curriculum,
    pass_rate,
    pass_rates,
    quantile,
    resolve_mode,
    select_band,
)
from prompt_filter._report import histogram
from rewards.errors import ConfigError


def test_pass_rate_binary_hand_computed():
    rate = pass_rate([1.0, 0.0, 1.0, 1.0])
    assert rate == PassRate(0.75, pytest.approx(math.sqrt(0.75 * 0.25)), 4, 4)  # std 0.4330


def test_pass_rate_threshold_is_inclusive():
    # 0.8 passes at threshold 0.8 (at or above), 0.4 and 0.79 do not: 1 of 3
    rate = pass_rate([0.8, 0.4, 0.79], threshold=0.8)
    assert rate.pass_rate == pytest.approx(1 / 3)
    assert rate.std == pytest.approx(math.sqrt((1 / 3) * (2 / 3)))


def test_pass_rate_continuous_is_mean_and_std():
    rate = pass_rate([0.2, 0.4, 0.9], mode="continuous")
    # mean 0.5; deviations -0.3, -0.1, 0.4 -> var (0.09 + 0.01 + 0.16) / 3
    assert rate.pass_rate == pytest.approx(0.5)
    assert rate.std == pytest.approx(math.sqrt(0.26 / 3))


def test_pass_rate_abstentions_not_counted():
    assert pass_rate([1.0, None, 0.0, None]) == PassRate(0.5, 0.5, 4, 2)
    assert pass_rate([None, None]) == PassRate(None, None, 2, 0)
    assert pass_rate([]) == PassRate(None, None, 0, 0)


def test_pass_rates_uses_first_n_and_auto_mode():
    rollouts = {"a": [1.0] * 16 + [0.0] * 4, "b": [0.0, 1.0, None]}
    rates = pass_rates(rollouts)  # n=16: a's four trailing failures are ignored
    assert rates["a"] == PassRate(1.0, 0.0, 16, 16)
    assert rates["b"] == PassRate(0.5, 0.5, 3, 2)
    assert pass_rates(rollouts, n=None)["a"].pass_rate == pytest.approx(16 / 20)
    # one non-0/1 value anywhere makes auto continuous for every prompt
    cont = pass_rates({"a": [1.0, 0.0], "b": [0.6, 0.6]}, threshold=0.5)
    assert cont["b"] == PassRate(0.6, 0.0, 2, 2)
    binary = pass_rates({"a": [1.0, 0.0], "b": [0.6, 0.6]}, mode="binary", threshold=0.5)
    assert binary["b"] == PassRate(1.0, 0.0, 2, 2)
    with pytest.raises(ConfigError):
        pass_rates(rollouts, n=0)


def test_resolve_mode():
    assert resolve_mode([1.0, 0.0, None]) == "binary"
    assert resolve_mode([1.0, 0.5]) == "continuous"
    assert resolve_mode([0.5], "binary") == "binary"


def test_band_selection_reasons_and_inclusive_bounds():
    rates = {
        "hard": PassRate(0.0625, 0.24, 16, 16),   # 1/16 < 0.1
        "low_edge": PassRate(0.1, 0.3, 10, 10),   # kept: bounds are inclusive
        "mid": PassRate(0.5, 0.5, 16, 16),
        "high_edge": PassRate(0.9, 0.3, 10, 10),
        "easy": PassRate(0.9375, 0.24, 16, 16),   # 15/16 > 0.9
        "nothing": PassRate(None, None, 16, 0),
    }
    selection = select_band(rates)
    assert list(selection.kept) == ["low_edge", "mid", "high_edge"]
    assert {k: reason for k, (_, reason) in selection.dropped.items()} == {
        "hard": "too_hard", "easy": "too_easy", "nothing": "unscorable"}


def test_band_min_std_for_continuous_rewards():
    rates = {"flat": PassRate(0.5, 0.01, 4, 4), "spread": PassRate(0.5, 0.3, 4, 4)}
    selection = select_band(rates, Band(min_std=0.05))
    assert list(selection.kept) == ["spread"]
    assert selection.dropped["flat"][1] == "low_std"
    with pytest.raises(ConfigError):
        Band(low=0.6, high=0.4)


def test_default_buckets_easy_hard():
    buckets = assign_buckets({"a": 0.5, "b": 0.4375, "c": 0.875})
    assert buckets.labels == {"a": "easy", "b": "hard", "c": "easy"}
    assert buckets.order == ("easy", "hard")
    assert buckets.members() == {"easy": ["a", "c"], "hard": ["b"]}
    assert list(curriculum(buckets.members())) == ["a", "c", "b"]  # easy first


def test_quantile_buckets_hand_computed():
    # edges at the 1/4, 2/4, 3/4 quantiles of [0.1, 0.2, 0.3, 0.4]: 0.175, 0.25, 0.325
    buckets = assign_buckets({"a": 0.3, "b": 0.1, "c": 0.4, "d": 0.2}, k=4)
    assert buckets.edges == pytest.approx((0.175, 0.25, 0.325))
    assert buckets.labels == {"a": "q3", "b": "q1", "c": "q4", "d": "q2"}
    assert buckets.order == ("q4", "q3", "q2", "q1")
    # ties share a bucket: median of [0.25, 0.25, 0.25, 0.75] is 0.25, a rate on an edge goes up
    tied = assign_buckets({"a": 0.25, "b": 0.25, "c": 0.25, "d": 0.75}, k=2)
    assert tied.edges == (0.25,)
    assert tied.labels == {"a": "q2", "b": "q2", "c": "q2", "d": "q2"}


def test_quantile_interpolates():
    assert quantile([1.0, 2.0, 4.0], 0.75) == pytest.approx(3.0)  # position 1.5: 2 + 0.5 * 2
    assert quantile([5.0], 0.3) == 5.0


def test_curriculum_easy_to_hard_in_order():
    items = list(curriculum({"hard": [3, 4], "easy": [1, 2]}, order=("easy", "hard")))
    assert items == [1, 2, 3, 4]
    shuffled = list(curriculum({"easy": list(range(10)), "hard": [10, 11]},
                               order=("easy", "hard"), shuffle_seed=0))
    rng = random.Random(0)  # one generator, buckets shuffled in curriculum order
    easy, hard = list(range(10)), [10, 11]
    rng.shuffle(easy)
    rng.shuffle(hard)
    assert easy != list(range(10))
    assert shuffled == easy + hard
    with pytest.raises(ConfigError):
        list(curriculum({"easy": [1]}, order=("easy", "medium")))


def test_curriculum_constant_mix_three_to_one():
    # targets grow by 0.75 / 0.25 per draw; the most-lagging bucket is drawn (ties: order)
    items = list(curriculum({"e": "abcdef", "h": "123"}, schedule=MixingSchedule({"e": 3, "h": 1})))
    assert "".join(items) == "ab1cde2f3"


def test_curriculum_linear_schedule_easy_to_hard():
    # weights (e, h) by draw: (1, 0), (.75, .25), (.5, .5), (.25, .75), then (0, 1)
    schedule = MixingSchedule({"e": 1.0}, {"h": 1.0}, steps=4)
    assert schedule.weights(2) == {"e": 0.5, "h": 0.5}
    items = "".join(curriculum({"e": "abcdef", "h": "123456"}, schedule=schedule))
    # e lags at draws 0, 1, 3; once e's weight is 0 only h is drawn; the rest of e comes last
    assert items == "ab1c23456def"


def test_histogram_bins_hand_computed():
    edges, counts = histogram([0.0, 0.25, 0.5, 1.0, 1.0], bins=4)
    assert edges == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert counts == [1, 1, 1, 2]  # 0.25 counts in the bin above its edge; 1.0 in the last
