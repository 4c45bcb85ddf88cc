"""Length shaping: `length` (Kimi 1.5, as open-r1's `len_reward`), `overlong` (DAPO's soft
overlong punishment) and `cosine` (length scaled by correctness, open-r1 and TRL). Lengths are
in characters, or in tokens with `tokenizer` (see `LengthMeter`)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rewards.errors import ConfigError
from rewards.options import check_fields, check_range, load_options
from rewards.reasoning._correctness import Correctness, check_of
from rewards.reasoning._measure import LengthMeter
from rewards.reasoning._text import completion_text
from rewards.types import Reward, Sample, Score

__all__ = ["CosineConfig", "CosineReward", "LengthConfig", "LengthReward", "OverlongConfig",
           "OverlongReward", "cosine_scaled", "kimi_length", "soft_overlong"]


def soft_overlong(length: int, max_length: int, cache_length: int) -> float:
    """DAPO Eq. 13 (arXiv 2503.14476): 0 up to max_length - cache_length, then falling
    linearly to -1 at max_length, and -1 beyond."""
    free = max_length - cache_length
    if length <= free:
        return 0.0
    if length <= max_length:
        return (free - length) / cache_length
    return -1.0


def cosine_scaled(length: int, correct: bool, *, max_len: int, min_value_wrong: float,
                  max_value_wrong: float, min_value_correct: float,
                  max_value_correct: float) -> float:
    """open-r1 / TRL `get_cosine_scaled_reward` ("Demystifying Long Chain-of-Thought
    Reasoning", arXiv 2502.03373): v_min + (v_max - v_min) (1 + cos(pi L / max_len)) / 2, with
    (v_min, v_max) = (min_value_correct, max_value_correct) when correct and (max_value_wrong,
    min_value_wrong) when wrong: short correct answers earn most, short wrong ones lose most.
    L / max_len is clamped to 1 as TRL does (open-r1 does not, so its reward climbs back up
    past max_len, cos being periodic)."""
    progress = min(length / max_len, 1.0)
    cosine = math.cos(progress * math.pi)
    low, high = ((min_value_correct, max_value_correct) if correct
                 else (max_value_wrong, min_value_wrong))
    return low + 0.5 * (high - low) * (1.0 + cosine)


def kimi_length(length: int, shortest: int, longest: int, correct: bool) -> float:
    """Kimi 1.5's length reward (arXiv 2501.12599, open-r1 `len_reward`): lambda = 0.5 -
    (L - shortest) / (longest - shortest) over a group; lambda when correct, min(0, lambda)
    when wrong; 0 when every length in the group is equal."""
    if longest == shortest:
        return 0.0
    lam = 0.5 - (length - shortest) / (longest - shortest)
    return lam if correct else min(0.0, lam)


@dataclass(frozen=True)
class OverlongConfig:
    """Options of the `overlong` reward (DAPO's L_max and L_cache; no defaults: they must
    match the trainer's maximum completion length)."""

    max_length: int
    """L_max: the longest completion the trainer generates; longer (or cut off) scores -1."""
    cache_length: int
    """L_cache: the soft punishment zone before max_length (DAPO: 4096 of 20480 tokens)."""
    tokenizer: str | None = None
    """A local tokenizer folder: lengths in tokens, as DAPO counts. None: characters."""

    def __post_init__(self) -> None:
        check_fields(self, where="overlong reward")
        check_range("max_length", self.max_length, ge=1)
        check_range("cache_length", self.cache_length, ge=0, le=self.max_length)


class OverlongReward:
    """DAPO's soft overlong punishment: 0 for completions up to max_length - cache_length,
    a linear penalty down to -1 at max_length, -1 beyond. Follows TRL and open-r1
    `get_soft_overlong_punishment`. `parts` holds the length (`chars` or `tokens`)."""

    name = "overlong"
    kind = "verifiable"

    def __init__(self, **options: Any) -> None:
        self.config = load_options(OverlongConfig, options, where="overlong reward")
        self.meter = LengthMeter(self.config.tokenizer, what="overlong")

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        c = self.config
        lengths = self.meter.lengths([completion_text(s) for s in samples])
        return [Score(soft_overlong(n, c.max_length, c.cache_length),
                      parts={self.meter.unit: float(n)}) for n in lengths]


@dataclass(frozen=True)
class CosineConfig:
    """Options of the `cosine` reward (defaults: open-r1's and TRL's function defaults)."""

    of: str | Mapping[str, Any] | Reward | None = "math"
    """The component deciding correctness, as a `rewards` list entry: `math`, or
    `{use: math, answer_after: "</think>"}`."""
    correct_at: float = 1.0
    """Correct when that component's value (or its `part`) is at least this."""
    part: str | None = None
    """Read this part of its score instead of its value (e.g. `tests` of `rtv`)."""
    max_len: int = 1000
    """Length at which the schedule reaches its long end (open-r1 `cosine_max_len`)."""
    min_value_wrong: float = -1.0
    """Value of a wrong completion of length 0."""
    max_value_wrong: float = -0.5
    """Value of a wrong completion of length max_len or more."""
    min_value_correct: float = 0.5
    """Value of a correct completion of length max_len or more."""
    max_value_correct: float = 1.0
    """Value of a correct completion of length 0."""
    tokenizer: str | None = None
    """A local tokenizer folder: lengths in tokens (TRL). None: characters (open-r1)."""

    def __post_init__(self) -> None:
        check_fields(self, where="cosine reward")
        _check_correctness_options(self, optional=False)
        check_range("max_len", self.max_len, ge=1)
        for name in ("min_value_wrong", "max_value_wrong", "min_value_correct",
                     "max_value_correct"):
            if not math.isfinite(getattr(self, name)):
                raise ConfigError(f"{name}: must be a finite number, not {getattr(self, name)}")


class CosineReward:
    """Length scaled by correctness along a cosine (open-r1 and TRL `get_cosine_scaled_reward`,
    see `cosine_scaled`). Correctness comes from the component `of`; when it abstains this
    abstains too (its reason). `parts`: `correct` (1/0) and the length (`chars` or `tokens`)."""

    name = "cosine"
    kind = "verifiable"
    nested_components = ("of",)

    def __init__(self, **options: Any) -> None:
        self.config = load_options(CosineConfig, options, where="cosine reward")
        self.meter = LengthMeter(self.config.tokenizer, what="cosine")
        self.correctness = Correctness(self.config.of, correct_at=self.config.correct_at,
                                       part=self.config.part, what="cosine")

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        c = self.config
        texts = [completion_text(s) for s in samples]
        # a wrong answer earns more the longer it is: its length is what a reader sees, so
        # invisible padding buys nothing; a right one earns more the shorter it is: all of it
        lengths = self.meter.lengths(texts)
        visible = self.meter.visible_lengths(texts)
        scores = []
        for n, seen, (correct, reason) in zip(lengths, visible, self.correctness.judge(samples)):
            if correct is None:
                scores.append(Score(None, reason))
                continue
            n = n if correct else min(n, seen)
            value = cosine_scaled(n, correct, max_len=c.max_len,
                                  min_value_wrong=c.min_value_wrong,
                                  max_value_wrong=c.max_value_wrong,
                                  min_value_correct=c.min_value_correct,
                                  max_value_correct=c.max_value_correct)
            scores.append(Score(value, reason,
                                parts={"correct": float(correct), self.meter.unit: float(n)}))
        return scores


@dataclass(frozen=True)
class LengthConfig:
    """Options of the `length` reward."""

    of: str | Mapping[str, Any] | Reward | None = "math"
    """The component deciding correctness (as for `cosine`); null: every completion counts
    as correct, a plain group-relative length reward (shortest +0.5, longest -0.5)."""
    correct_at: float = 1.0
    """Correct when that component's value (or its `part`) is at least this."""
    part: str | None = None
    """Read this part of its score instead of its value."""
    tokenizer: str | None = None
    """A local tokenizer folder: lengths in tokens. None: characters (open-r1)."""

    def __post_init__(self) -> None:
        check_fields(self, where="length reward")
        _check_correctness_options(self, optional=True)


class LengthReward:
    """Kimi 1.5's length reward over each group of rollouts (samples sharing `group`; those
    without one form one group, as open-r1 `len_reward` takes its whole batch), see
    `kimi_length`. Correctness comes from `of`; a sample it abstains on abstains here (its
    length still counts in its group's range)."""

    name = "length"
    kind = "verifiable"
    nested_components = ("of",)

    def __init__(self, **options: Any) -> None:
        self.config = load_options(LengthConfig, options, where="length reward")
        self.meter = LengthMeter(self.config.tokenizer, what="length")
        self.correctness = (None if self.config.of is None else
                            Correctness(self.config.of, correct_at=self.config.correct_at,
                                        part=self.config.part, what="length"))

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        lengths = self.meter.lengths([completion_text(s) for s in samples])
        verdicts: list[tuple[bool | None, str]] = (
            [(True, "ok")] * len(samples) if self.correctness is None
            else self.correctness.judge(samples))
        groups: dict[str | None, list[int]] = defaultdict(list)
        for i, sample in enumerate(samples):
            groups[sample.group].append(i)
        scores: list[Score] = [Score(None)] * len(samples)
        for members in groups.values():
            shortest = min(lengths[i] for i in members)
            longest = max(lengths[i] for i in members)
            for i in members:
                correct, reason = verdicts[i]
                if correct is None:
                    scores[i] = Score(None, reason)
                else:
                    scores[i] = Score(kimi_length(lengths[i], shortest, longest, correct),
                                      reason, parts={self.meter.unit: float(lengths[i])})
        return scores


def _check_correctness_options(config: CosineConfig | LengthConfig, *, optional: bool) -> None:
    check_of(config.of, optional=optional)
    if not math.isfinite(config.correct_at):
        raise ConfigError(f"correct_at: must be a finite number, not {config.correct_at}")
    if config.part == "":
        raise ConfigError("part: must be the name of a part, not ''")
