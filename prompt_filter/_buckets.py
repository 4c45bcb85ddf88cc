"""Difficulty buckets over pass rates: easy (>= 0.5) and hard (< 0.5) by default, or k
quantile buckets. Every bucketing also gives its order from easy to hard, for a curriculum."""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from rewards.errors import ConfigError

__all__ = ["Buckets", "assign_buckets", "quantile"]


K = TypeVar("K", bound=Hashable)
"""A prompt's key: whatever the caller's `rates` are keyed by."""


@dataclass(frozen=True)
class Buckets(Generic[K]):
    """Which bucket each prompt is in."""

    labels: dict[K, str]
    """Prompt id -> bucket name, in the input's order."""
    order: tuple[str, ...]
    """Bucket names from easiest to hardest."""
    edges: tuple[float, ...]
    """Pass-rate boundaries between buckets, ascending; a rate equal to an edge goes up."""

    def members(self) -> dict[str, list[K]]:
        """Bucket -> its prompt ids (input order), buckets easy to hard: what `curriculum`
        takes."""
        grouped: dict[str, list[K]] = {name: [] for name in self.order}
        for key, label in self.labels.items():
            grouped[label].append(key)
        return grouped


def quantile(sorted_values: list[float], q: float) -> float:
    """Linear-interpolation quantile of ascending values (numpy's default method)."""
    if not sorted_values:
        raise ConfigError("quantile of no values")
    position = q * (len(sorted_values) - 1)
    lower = int(position)
    upper = min(lower + 1, len(sorted_values) - 1)
    return sorted_values[lower] + (sorted_values[upper] - sorted_values[lower]) * (position - lower)


def assign_buckets(rates: Mapping[K, float], *, k: int | None = None,
                   easy_at: float = 0.5) -> Buckets[K]:
    """Bucket prompts by pass rate.

    Without `k`: `easy` when the rate is at least `easy_at`, else `hard`. With `k`: quantile
    buckets `q1` (lowest pass rates, hardest) to `qk` (easiest), edges at the j/k quantiles
    of the rates. Equal rates always share a bucket, so with many ties some quantile
    buckets hold more prompts than others, or none.
    """
    if k is None:
        labels = {key: "easy" if rate >= easy_at else "hard" for key, rate in rates.items()}
        return Buckets(labels, ("easy", "hard"), (easy_at,))
    if k < 1:
        raise ConfigError(f"k must be >= 1, got {k}")
    ordered = sorted(rates.values())
    edges = tuple(quantile(ordered, j / k) for j in range(1, k)) if ordered else ()
    labels = {key: f"q{bisect.bisect_right(edges, rate) + 1}" for key, rate in rates.items()}
    return Buckets(labels, tuple(f"q{j}" for j in range(k, 0, -1)), edges)
