"""A curriculum over difficulty buckets: all of one bucket after another (easy to hard), or
a mixing schedule whose bucket weights move linearly from a start mix to an end mix.

Draws under a schedule are deterministic: each draw takes from the bucket whose share of
the draws so far lags its target share the most (smooth weighted round-robin), so a 3:1
mix yields exactly three of one bucket for each of the other, and the sequence can be
checked by hand."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rewards.errors import ConfigError

__all__ = ["MixingSchedule", "curriculum"]

T = TypeVar("T")


@dataclass(frozen=True)
class MixingSchedule:
    """Bucket weights over the course of a curriculum."""

    start: Mapping[str, float]
    """Bucket -> weight at the first draw (unlisted buckets weigh 0)."""
    end: Mapping[str, float] | None = None
    """Bucket -> weight from draw `steps` on; None: `start` throughout."""
    steps: int = 1
    """Draws over which the weights move linearly from `start` to `end`."""

    def __post_init__(self) -> None:
        if self.steps < 1:
            raise ConfigError(f"steps must be >= 1, got {self.steps}")
        for weights in (self.start, self.end or {}):
            if any(w < 0 for w in weights.values()):
                raise ConfigError(f"bucket weights must be >= 0, got {dict(weights)}")

    def weights(self, draw: int) -> dict[str, float]:
        """The (unnormalized) bucket weights at draw number `draw` (0-based)."""
        end = self.start if self.end is None else self.end
        t = min(draw / self.steps, 1.0)
        names = list(dict.fromkeys([*self.start, *end]))
        return {b: (1 - t) * self.start.get(b, 0.0) + t * end.get(b, 0.0) for b in names}


def curriculum(buckets: Mapping[str, Sequence[T]], *, order: Sequence[str] | None = None,
               schedule: MixingSchedule | None = None,
               shuffle_seed: int | None = None) -> Iterator[T]:
    """Yield every item of the buckets once.

    Without `schedule`: bucket after bucket in `order` (default: the mapping's order, e.g.
    `Buckets.order`, easy to hard). With `schedule`: one item per draw from the bucket that
    lags its scheduled share most; a bucket that runs dry leaves the others to share its
    weight, and when every bucket with weight is dry, the rest follow in `order`.
    `shuffle_seed` shuffles within each bucket first (None keeps each bucket's order).
    """
    names = list(order) if order is not None else list(buckets)
    missing = [b for b in names if b not in buckets]
    if missing:
        raise ConfigError(f"order names buckets that do not exist: {missing}")
    names += [b for b in buckets if b not in names]
    queues = {b: list(buckets[b]) for b in names}
    if shuffle_seed is not None:
        rng = random.Random(shuffle_seed)
        for items in queues.values():
            rng.shuffle(items)
    if schedule is None:
        for b in names:
            yield from queues[b]
        return
    taken = {b: 0 for b in names}
    target = {b: 0.0 for b in names}
    draw = 0
    while True:
        weights = schedule.weights(draw)
        live = {b: weights.get(b, 0.0) for b in names if taken[b] < len(queues[b])}
        total = sum(live.values())
        if total <= 0:
            break
        for b, w in live.items():
            target[b] += w / total
        pick = max(live, key=lambda b: (target[b] - taken[b], -names.index(b)))
        yield queues[pick][taken[pick]]
        taken[pick] += 1
        draw += 1
    for b in names:
        yield from queues[b][taken[b]:]
