"""Pass rate of a prompt over its N rollouts: the fraction that pass (binary rewards) or the
mean reward (continuous rewards), with its standard deviation. Abstentions (`None`) are not
counted; a prompt with no scored rollout has no pass rate."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rewards.errors import ConfigError

__all__ = ["DEFAULT_N", "Mode", "PassRate", "pass_rate", "pass_rates", "resolve_mode"]

DEFAULT_N = 16
"""Rollouts per prompt unless told otherwise."""

Mode = Literal["auto", "binary", "continuous"]


@dataclass(frozen=True)
class PassRate:
    """A prompt's pass rate over its rollouts."""

    pass_rate: float | None
    """Fraction of scored rollouts at or above the threshold (binary) or their mean
    (continuous); None when no rollout was scored."""
    std: float | None
    """Population std of the pass indicators (binary: sqrt(p * (1 - p))) or of the values."""
    n_rollouts: int
    """Rollouts seen, scored or not."""
    n_scored: int
    """Rollouts with a score (not `None`)."""


def pass_rate(values: Sequence[float | None], *, mode: Literal["binary", "continuous"] = "binary",
              threshold: float = 0.5) -> PassRate:
    """One prompt's pass rate from the rewards of its rollouts (`None` = abstained)."""
    scored = [float(v) for v in values if v is not None]
    if not scored:
        return PassRate(None, None, len(values), 0)
    points = [1.0 if v >= threshold else 0.0 for v in scored] if mode == "binary" else scored
    mean = sum(points) / len(points)
    std = math.sqrt(sum((p - mean) ** 2 for p in points) / len(points))
    return PassRate(mean, std, len(values), len(scored))


def resolve_mode(values: Iterable[float | None], mode: Mode = "auto"
                 ) -> Literal["binary", "continuous"]:
    """`auto` is binary when every scored value is exactly 0 or 1, continuous otherwise."""
    if mode != "auto":
        return mode
    return "binary" if all(v in (0.0, 1.0) for v in values if v is not None) else "continuous"


def pass_rates(rollouts: Mapping[Hashable, Sequence[float | None]], *, mode: Mode = "auto",
               threshold: float = 0.5, n: int | None = DEFAULT_N) -> dict[Hashable, PassRate]:
    """Pass rate per prompt id from each prompt's rollout rewards, in the mapping's order.

    `n`: use at most the first `n` rollouts of each prompt (None: all of them).
    `mode`: binary (pass = value >= `threshold`), continuous (the mean), or auto (binary
    when all scored values of all prompts are 0 or 1)."""
    if n is not None and n < 1:
        raise ConfigError(f"n must be >= 1, got {n}")
    used = {key: list(values)[:n] if n is not None else list(values)
            for key, values in rollouts.items()}
    resolved = resolve_mode((v for values in used.values() for v in values), mode)
    return {key: pass_rate(values, mode=resolved, threshold=threshold)
            for key, values in used.items()}
