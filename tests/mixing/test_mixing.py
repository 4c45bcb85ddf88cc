"""Mixing with hand-computed numbers: alpha, weights, z-score per domain (with and without
running EMA statistics), GRPO group normalization (with and without std scaling)."""

import math

import pytest

from rewards import Sample, Score
from rewards.errors import ConfigError
from rewards.mixing import (
    DomainRouter,
    Mixture,
    RunningStats,
    WeightedComponent,
    group_normalize,
    zscore_by_domain,
)


class Fixed:
    """A reward returning preset values in order (None = abstain)."""

    def __init__(self, name, values, kind="verifiable"):
        self.name, self.values, self.kind = name, list(values), kind

    def score(self, samples):
        return [Score(v, "ok" if v is not None else "abstain")
                for v, _ in zip(self.values, samples)]


def _samples(k, domain="d"):
    return [Sample("p", str(i), domain=domain) for i in range(k)]


def test_weighted_sum_without_alpha_and_weight_zero_is_logged_only():
    mix = Mixture([WeightedComponent(Fixed("a", [1.0]), 2.0),
                   WeightedComponent(Fixed("b", [0.4]), 0.5),
                   WeightedComponent(Fixed("log", [100.0]), 0.0)])
    (score,) = mix.score(_samples(1))
    assert score.value == pytest.approx(2.0 * 1.0 + 0.5 * 0.4)  # 2.2; the 100 is not added
    assert dict(score.parts) == {"a": 1.0, "b": 0.4, "log": 100.0}


@pytest.mark.parametrize("alpha, expected", [
    (1.0, 1.0),                  # math, code: verifiable only
    (0.0, 0.6),                  # chat: learned only
    (0.25, 0.25 * 1.0 + 0.75 * 0.6),  # 0.7
    (0.5, 0.5 * 1.0 + 0.5 * 0.6),    # 0.8
])
def test_alpha_mixes_verifiable_and_learned(alpha, expected):
    mix = Mixture([WeightedComponent(Fixed("v", [1.0]), 1.0, "verifiable"),
                   WeightedComponent(Fixed("g", [0.6]), 1.0, "learned")], alpha=alpha)
    assert mix.score(_samples(1))[0].value == pytest.approx(expected)


def test_alpha_side_weights_sum_within_side():
    # verifiable side: 0.5 * 1.0 + 0.5 * 0.0 = 0.5; learned side 0.8; alpha 0.4:
    # 0.4 * 0.5 + 0.6 * 0.8 = 0.68
    mix = Mixture([WeightedComponent(Fixed("v1", [1.0]), 0.5, "verifiable"),
                   WeightedComponent(Fixed("v2", [0.0]), 0.5, "verifiable"),
                   WeightedComponent(Fixed("g", [0.8]), 1.0, "learned")], alpha=0.4)
    assert mix.score(_samples(1))[0].value == pytest.approx(0.68)


def test_alpha_abstaining_side_leaves_the_other_unscaled_and_all_abstain_is_none():
    mix = Mixture([WeightedComponent(Fixed("v", [1.0, None]), 1.0, "verifiable"),
                   WeightedComponent(Fixed("g", [None, None]), 1.0, "learned")], alpha=0.3)
    first, second = mix.score(_samples(2))
    assert first.value == 1.0  # not 0.3 * 1.0: an abstaining judge is not a zero
    assert second.value is None


def test_zscore_by_domain_hand_computed():
    scores = [1.0, 2.0, None, 3.0, 10.0, 5.0, 5.0]
    domains = ["a", "a", "a", "a", "b", "c", "c"]
    # a: 1, 2, 3 -> mean 2, population std sqrt(2/3) = 0.816497; b: one sample; c: no spread
    s = math.sqrt(2 / 3)
    assert zscore_by_domain(scores, domains) == pytest.approx(
        [-1 / s, 0.0, None, 1 / s, 0.0, 0.0, 0.0])
    assert zscore_by_domain(scores, domains)[2] is None


def test_zscore_never_nan_and_eps_is_configurable():
    # spread 0.01: std 0.005 is below eps=0.1, so 0; with the default eps it is scaled
    assert zscore_by_domain([0.0, 0.01], ["d", "d"], eps=0.1) == [0.0, 0.0]
    assert zscore_by_domain([0.0, 0.01], ["d", "d"]) == pytest.approx([-1.0, 1.0])
    assert zscore_by_domain([None, None], ["d", "d"]) == [None, None]


def test_zscore_running_ema_hand_computed():
    stats = RunningStats(decay=0.5)
    # batch 1: [1, 3] -> mean 2, var 1: plain batch z-scores
    assert zscore_by_domain([1.0, 3.0], ["m", "m"], running=stats) == pytest.approx([-1.0, 1.0])
    # batch 2: [5] -> mean 0.5 * 2 + 0.5 * 5 = 3.5; var 0.5 * 1 + 0.5 * 0 + 0.25 * 9 = 2.75
    (z,) = zscore_by_domain([5.0], ["m"], running=stats)
    assert z == pytest.approx(1.5 / math.sqrt(2.75))  # 0.904534; batch-only would give 0
    assert stats.mean["m"] == 3.5 and stats.var["m"] == pytest.approx(2.75)
    # batch 3: [3, 4] -> m 3.5, v 0.25: mean 3.5, var 0.5 * 2.75 + 0.5 * 0.25 + 0 = 1.5
    assert zscore_by_domain([3.0, 4.0], ["m", "m"], running=stats) == pytest.approx(
        [-0.5 / math.sqrt(1.5), 0.5 / math.sqrt(1.5)])


def test_zscore_running_zero_spread_then_shift():
    stats = RunningStats(decay=0.5)
    assert zscore_by_domain([2.0, 2.0], ["d", "d"], running=stats) == [0.0, 0.0]  # std 0
    # [4]: mean 0.5 * 2 + 0.5 * 4 = 3, var 0 + 0 + 0.25 * (4 - 2)^2 = 1 -> z = 1
    assert zscore_by_domain([4.0], ["d"], running=stats) == pytest.approx([1.0])


def test_running_stats_per_domain_state_round_trip_and_bad_decay():
    stats = RunningStats(decay=0.9)
    zscore_by_domain([1.0, 3.0, 10.0, 20.0], ["a", "a", "b", "b"], running=stats)
    assert stats.mean == {"a": 2.0, "b": 15.0} and stats.var == {"a": 1.0, "b": 25.0}
    copy = RunningStats()
    copy.load_state_dict(stats.state_dict())
    assert (copy.decay, copy.mean, copy.var, dict(copy.batches)) == \
        (0.9, stats.mean, stats.var, {"a": 1, "b": 1})
    with pytest.raises(ConfigError):
        RunningStats(decay=1.0)


def test_group_normalize_with_and_without_std_scaling():
    scores = [1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    groups = ["g1"] * 4 + ["g2"] * 4
    # g1: mean 0.5 std 0.5; g2: mean 0.25, std sqrt(0.1875) = 0.4330127
    std2 = math.sqrt(0.1875)
    assert group_normalize(scores, groups, eps=0.0) == pytest.approx(
        [1, -1, -1, 1, 0.75 / std2, -0.25 / std2, -0.25 / std2, -0.25 / std2])
    # default eps 1e-4 is added to the std: 0.5 / 0.5001
    assert group_normalize(scores, groups)[0] == pytest.approx(0.5 / 0.5001)
    # Dr. GRPO: no std scaling, just the mean removed
    assert group_normalize(scores, groups, scale=False) == pytest.approx(
        [0.5, -0.5, -0.5, 0.5, 0.75, -0.25, -0.25, -0.25])


def test_group_normalize_excludes_none_and_handles_degenerate_groups():
    out = group_normalize([1.0, None, 0.0, 1.0, 1.0, 7.0], ["a", "a", "a", "b", "b", "c"],
                          eps=1e-4)
    # a: [1, 0] mean 0.5 std 0.5; b: no spread -> 0 / eps = 0; c: one sample -> 0
    assert out == pytest.approx([0.5 / 0.5001, None, -0.5 / 0.5001, 0.0, 0.0, 0.0])
    assert out[1] is None
    assert not any(isinstance(v, float) and math.isnan(v) for v in out)


def test_domain_router_zscore_with_ema_and_eps():
    router = DomainRouter({"d": Fixed("v", [1.0, 3.0, 5.0])}, normalize="zscore_by_domain",
                          ema_decay=0.5)
    first = router.score(_samples(2))
    assert [s.value for s in first] == pytest.approx([-1.0, 1.0])
    assert first[0].parts["raw"] == 1.0
    router.domains["d"] = Fixed("v", [5.0])
    (second,) = router.score(_samples(1))
    assert second.value == pytest.approx(1.5 / math.sqrt(2.75))
    grouped = DomainRouter({"d": Fixed("v", [1.0, 0.0])}, normalize="group", eps=0.0)
    samples = [Sample("p", "x", domain="d", group="g"), Sample("p", "y", domain="d", group="g")]
    assert [s.value for s in grouped.score(samples)] == pytest.approx([1.0, -1.0])


def test_normalize_refuses_a_bad_mode_and_a_count_mismatch():
    from rewards.errors import ConfigError
    from rewards.mixing import BatchNormalizer, normalize

    samples = [Sample("p", "c", domain="math")]
    with pytest.raises(ConfigError, match="unknown normalization"):
        BatchNormalizer("zscore")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="unknown normalization"):
        normalize([Score(1.0)], samples, "zscore")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="2 scores for 1 samples"):
        normalize([Score(1.0), Score(0.0)], samples, "none")
