"""DAPO dynamic sampling: zero-variance groups are dropped, the batch is refilled from
further prompts for at most `max_rounds` generation rounds, drops are counted by reason."""

from dataclasses import dataclass

import pytest

from prompt_filter import DynamicSampler, group_drop_reason
from rewards.errors import ConfigError

# Rewards of each prompt's group (4 rollouts). Signal: 1, 3, 4, 6, 8. No signal: the rest.
GROUPS = {
    0: [1.0, 1.0, 1.0, 1.0],   # all pass
    1: [1.0, 0.0, 0.0, 1.0],
    2: [0.0, 0.0, 0.0, 0.0],   # all fail
    3: [0.0, 0.0, 1.0, 0.0],
    4: [0.5, 0.25, 0.5, 0.5],
    5: [None, None, 1.0, None],  # one scored reward: unscorable
    6: [1.0, None, 0.0, 0.0],
    7: [0.3, 0.3, 0.3, 0.3],
    8: [0.0, 1.0, 1.0, 1.0],
}


@dataclass
class Group:
    prompt: int
    rewards: list


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, prompts):
        self.calls.append(list(prompts))
        return [Group(p, GROUPS[p]) for p in prompts]


def test_group_drop_reason():
    assert group_drop_reason([1.0, 0.0]) is None
    assert group_drop_reason([1.0, 1.0]) == "zero_variance"
    assert group_drop_reason([1.0, 1.0], pass_threshold=0.5) == "all_pass"
    assert group_drop_reason([0.0, 0.0], pass_threshold=0.5) == "all_fail"
    assert group_drop_reason([1.0, None]) == "unscorable"
    assert group_drop_reason([0.5, 0.5000001]) == "zero_variance"  # std 5e-8 < eps 1e-6
    assert group_drop_reason([0.5, 0.5000001], eps=1e-9) is None


def test_refills_until_full_and_counts_drops():
    rollout = Recorder()
    sampler = DynamicSampler(range(9), rollout, batch_size=3, max_rounds=3,
                             pass_threshold=0.5)
    batch = sampler.next_batch()
    # round 1: prompts 0, 1, 2 -> keeps 1; round 2: 3, 4, 5 -> keeps 3, 4: full after 2 rounds
    assert rollout.calls == [[0, 1, 2], [3, 4, 5]]
    assert [g.prompt for g in batch.groups] == [1, 3, 4]
    assert (batch.rounds, batch.prompts_used, batch.complete) == (2, 6, True)
    assert batch.dropped == {"all_pass": 1, "all_fail": 1, "unscorable": 1}
    # next batch: 6, 7, 8 keeps 6 and 8, then the prompts run out: a short batch
    second = sampler.next_batch()
    assert [g.prompt for g in second.groups] == [6, 8]
    assert (second.rounds, second.complete) == (1, False)
    assert second.dropped == {"all_fail": 1}  # group 7 is 0.3 everywhere, below 0.5
    assert sampler.total_dropped == {"all_pass": 1, "all_fail": 2, "unscorable": 1}
    assert sampler.next_batch().groups == []


def test_round_limit_returns_a_short_batch():
    rollout = Recorder()
    sampler = DynamicSampler([0, 2, 0, 2, 1, 3], rollout, batch_size=2, max_rounds=2,
                             round_size=2)
    batch = sampler.next_batch()
    assert rollout.calls == [[0, 2], [0, 2]]  # two rounds, nothing kept: stop anyway
    assert (batch.groups, batch.rounds, batch.complete) == ([], 2, False)
    assert batch.dropped == {"zero_variance": 4}


def test_surplus_groups_carry_over_to_the_next_batch():
    rollout = Recorder()
    sampler = DynamicSampler([1, 3, 4, 6, 8], rollout, batch_size=2, round_size=3,
                             rewards_of=lambda g: g.rewards)
    batches = list(sampler)
    assert rollout.calls == [[1, 3, 4], [6, 8]]
    assert [[g.prompt for g in b.groups] for b in batches] == [[1, 3], [4, 6], [8]]
    assert [b.rounds for b in batches] == [1, 1, 0]  # the third batch is all carried over


def test_plain_sequences_and_bad_arguments():
    sampler = DynamicSampler(["x"], lambda prompts: [[0.0, 1.0] for _ in prompts], batch_size=1)
    assert sampler.next_batch().groups == [[0.0, 1.0]]
    with pytest.raises(ConfigError):
        DynamicSampler([], lambda p: p, batch_size=0)
    broken = DynamicSampler([1, 2], lambda prompts: [], batch_size=1)
    with pytest.raises(ConfigError, match="0 groups for 1 prompts"):
        broken.next_batch()
