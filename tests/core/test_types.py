import dataclasses

import pytest

from rewards import Reward, Sample, Score, reward
from rewards.types import as_score


def test_sample_defaults_and_frozen():
    s = Sample(prompt="p", completion="c")
    assert (s.reference, s.domain, s.group, dict(s.meta)) == (None, "default", None, {})
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.completion = "x"  # type: ignore[misc]


@pytest.mark.parametrize("result, expected", [
    (1, Score(1.0, "ok")),
    (0.25, Score(0.25, "ok")),
    (None, Score(None, "abstain")),
    (True, Score(1.0, "ok")),
    (False, Score(0.0, "wrong")),
    (Score(0.0, "timeout"), Score(0.0, "timeout")),
])
def test_as_score(result, expected):
    assert as_score(result) == expected


def test_reward_decorator_lifts_to_batch():
    @reward
    def is_long(sample):
        return len(sample.completion) > 3

    assert isinstance(is_long, Reward)
    assert is_long.name == "is_long"
    scores = is_long.score([Sample("p", "abcd"), Sample("p", "ab")])
    assert [s.value for s in scores] == [1.0, 0.0]
    assert [s.reason for s in scores] == ["ok", "wrong"]
    assert is_long(Sample("p", "abcdef")) is True


def test_reward_decorator_with_name():
    @reward(name="custom")
    def f(sample):
        return 0.5

    assert f.name == "custom"
    assert f.score([Sample("p", "c")]) == [Score(0.5)]
