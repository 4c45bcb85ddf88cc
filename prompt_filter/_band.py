"""Band selection: keep the prompts whose pass rate is in [low, high]; every other prompt
gets a reason. Prompts every rollout solves (or none does) give GRPO no signal. A pass rate
over too few scored rollouts is no verdict: 1 scored of 16 says nothing about a prompt."""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from prompt_filter._pass_rate import PassRate
from rewards.errors import ConfigError

__all__ = ["Band", "BandSelection", "DropReason", "drop_reason", "select_band"]

DropReason = Literal["too_easy", "too_hard", "unscorable", "low_std"]


@dataclass(frozen=True)
class Band:
    """Which pass rates are kept."""

    low: float = 0.1
    """Lowest pass rate kept; below it a prompt is too_hard."""
    high: float = 0.9
    """Highest pass rate kept; above it a prompt is too_easy."""
    min_std: float | None = None
    """If set, also drop kept prompts whose reward std is below it (low_std): for continuous
    rewards, where a mid-range mean can still come with no spread between rollouts."""
    min_scored: int | None = None
    """Fewest scored (not abstained) rollouts a verdict needs; with fewer a prompt is
    unscorable. None: half of the prompt's rollouts, rounded up (`needed_scored`)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.low <= self.high <= 1.0:
            raise ConfigError(f"need 0 <= low <= high <= 1, got low={self.low} high={self.high}")
        if self.min_std is not None and self.min_std < 0:
            raise ConfigError(f"min_std must be >= 0, got {self.min_std}")
        if self.min_scored is not None and self.min_scored < 1:
            raise ConfigError(f"min_scored must be >= 1, got {self.min_scored}")

    def needed_scored(self, n_rollouts: int) -> int:
        """Scored rollouts a prompt with `n_rollouts` rollouts needs for a verdict."""
        if self.min_scored is not None:
            return self.min_scored
        return max(1, math.ceil(n_rollouts / 2))


K = TypeVar("K", bound=Hashable)
"""A prompt's key: whatever the caller's `rates` are keyed by."""


@dataclass(frozen=True)
class BandSelection(Generic[K]):
    """The outcome of a band selection, both in the input's order."""

    kept: dict[K, PassRate]
    """Prompts inside the band."""
    dropped: dict[K, tuple[PassRate, DropReason]]
    """Prompts outside it, with why."""


def select_band(rates: Mapping[K, PassRate], band: Band = Band()) -> BandSelection[K]:
    """Split prompts into kept and dropped (too_easy, too_hard, unscorable, low_std)."""
    kept: dict[K, PassRate] = {}
    dropped: dict[K, tuple[PassRate, DropReason]] = {}
    for key, rate in rates.items():
        reason = drop_reason(rate, band)
        if reason is None:
            kept[key] = rate
        else:
            dropped[key] = (rate, reason)
    return BandSelection(kept, dropped)


def drop_reason(rate: PassRate, band: Band) -> DropReason | None:
    """Why a prompt is dropped, or None if it is kept."""
    if rate.pass_rate is None or rate.n_scored < band.needed_scored(rate.n_rollouts):
        return "unscorable"
    if rate.pass_rate > band.high:
        return "too_easy"
    if rate.pass_rate < band.low:
        return "too_hard"
    if band.min_std is not None and (rate.std or 0.0) < band.min_std:
        return "low_std"
    return None
