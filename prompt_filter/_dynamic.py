"""DAPO dynamic sampling (Yu et al., 2025, "DAPO", section 3.2): a group whose rollouts all
got the same reward has zero advantage everywhere and teaches GRPO nothing, so it is dropped
and the batch is refilled with groups from further prompts, for a bounded number of
generation rounds."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rewards.errors import ConfigError

__all__ = ["DynamicBatch", "DynamicSampler", "group_drop_reason"]

P = TypeVar("P")
G = TypeVar("G")


def _default_rewards(group: Any) -> Sequence[float | None]:
    return group.rewards if hasattr(group, "rewards") else group


def group_drop_reason(rewards: Sequence[float | None], *, eps: float = 1e-6,
                      pass_threshold: float | None = None) -> str | None:
    """Why a group is useless for GRPO, or None if it is kept.

    unscorable: fewer than two rewards that are not `None`. Zero variance (population std
    below `eps`): reported as all_pass / all_fail when `pass_threshold` says which, else
    zero_variance."""
    scored = [float(r) for r in rewards if r is not None]
    if len(scored) < 2:
        return "unscorable"
    mean = sum(scored) / len(scored)
    if math.sqrt(sum((r - mean) ** 2 for r in scored) / len(scored)) >= eps:
        return None
    if pass_threshold is None:
        return "zero_variance"
    return "all_pass" if mean >= pass_threshold else "all_fail"


@dataclass
class DynamicBatch(Generic[G]):
    """One training batch of groups, and what it cost."""

    groups: list[G]
    """The kept groups, at most `batch_size` (fewer when `complete` is False)."""
    rounds: int
    """Generation rounds run for this batch."""
    prompts_used: int
    """Prompts drawn from the source for this batch."""
    dropped: Counter[str] = field(default_factory=Counter)
    """Dropped groups by reason (zero_variance or all_pass/all_fail, unscorable)."""
    complete: bool = True
    """False when the round limit or the end of the prompts left the batch short."""


class DynamicSampler(Generic[P, G]):
    """Batches of `batch_size` groups that each carry a learning signal.

    `rollout(prompts) -> groups` generates and scores one group per prompt (list in, list
    out, same order); `rewards_of(group)` gives a group's rewards (default: its `rewards`
    attribute, or the group itself if it is a sequence). Each round draws `round_size`
    prompts (default `batch_size`) from `prompts`; groups with no reward variance are dropped;
    after at most `max_rounds` rounds the batch is returned even if short. Surplus kept
    groups are carried into the next batch, not wasted. Iterate it, or call `next_batch()`.
    """

    def __init__(self, prompts: Iterable[P], rollout: Callable[[list[P]], Sequence[G]], *,
                 batch_size: int, max_rounds: int = 3, round_size: int | None = None,
                 rewards_of: Callable[[G], Sequence[float | None]] = _default_rewards,
                 eps: float = 1e-6, pass_threshold: float | None = None) -> None:
        if batch_size < 1 or max_rounds < 1 or (round_size is not None and round_size < 1):
            raise ConfigError("batch_size, max_rounds and round_size must be >= 1")
        self._prompts = iter(prompts)
        self._exhausted = False
        self.rollout = rollout
        self.batch_size = batch_size
        self.max_rounds = max_rounds
        self.round_size = round_size or batch_size
        self.rewards_of = rewards_of
        self.eps = eps
        self.pass_threshold = pass_threshold
        self._carry: list[G] = []
        self.total_dropped: Counter[str] = Counter()
        """Dropped groups by reason over the sampler's whole life."""

    def __iter__(self) -> Iterator[DynamicBatch[G]]:
        while True:
            batch = self.next_batch()
            if not batch.groups:
                return
            yield batch

    def next_batch(self) -> DynamicBatch[G]:
        """Generate until `batch_size` groups are kept or `max_rounds` rounds have run."""
        kept, self._carry = self._carry[:self.batch_size], self._carry[self.batch_size:]
        batch: DynamicBatch[G] = DynamicBatch([], 0, 0)
        while len(kept) < self.batch_size and batch.rounds < self.max_rounds:
            prompts = self._draw(self.round_size)
            if not prompts:
                break
            groups = list(self.rollout(prompts))
            if len(groups) != len(prompts):
                raise ConfigError(f"rollout returned {len(groups)} groups for {len(prompts)} "
                                 "prompts")
            batch.rounds += 1
            batch.prompts_used += len(prompts)
            for group in groups:
                reason = group_drop_reason(self.rewards_of(group), eps=self.eps,
                                           pass_threshold=self.pass_threshold)
                if reason is None:
                    kept.append(group)
                else:
                    batch.dropped[reason] += 1
        self._carry = self._carry + kept[self.batch_size:]
        batch.groups = kept[:self.batch_size]
        batch.complete = len(batch.groups) == self.batch_size
        self.total_dropped.update(batch.dropped)
        return batch

    def _draw(self, count: int) -> list[P]:
        drawn: list[P] = []
        while not self._exhausted and len(drawn) < count:
            try:
                drawn.append(next(self._prompts))
            except StopIteration:
                self._exhausted = True
        return drawn
