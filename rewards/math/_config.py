"""`MathConfig`: the options of the math verifier, validated once, frozen and hashable so a
config is part of every cache key."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from rewards.errors import ConfigError

__all__ = ["MathConfig", "Reason", "Verdict"]

Reason = Literal["ok", "wrong", "no_answer", "timeout", "bad_reference"]
_REASONS = ("ok", "wrong", "no_answer", "timeout", "bad_reference")


@dataclass(frozen=True)
class MathConfig:
    """Options of the math verifier (`MathReward(**options)` builds one)."""

    timeout: float = 5.0
    """Hard wall-clock bound, in seconds, on one symbolic comparison; enforced by killing the
    worker process that runs it. The answer then scores 0 with reason `timeout`."""
    strict: bool = False
    """Strict extraction: no last-number fallback, an answer must be marked (boxed, tags,
    `####`, "the answer is")."""
    tail_chars: int = 4000
    """Only the last `tail_chars` characters of a completion are searched for the answer, so a
    100k-character completion costs the same as a short one."""
    workers: int | None = None
    """Worker processes for symbolic comparisons; `None` means one per CPU core."""
    cache_size: int = 100_000
    """Verdicts kept per `MathReward`, keyed by (extracted answer, gold, config); 0 disables."""
    max_answer_chars: int = 1000
    """An extracted answer (or gold) longer than this is not handed to sympy (reason `timeout`)."""
    max_nesting: int = 12
    """Deepest bracket nesting (`( [ {`) handed to sympy; deeper is rejected as pathological.
    (latex2sympy's parser slows down by about 0.1 s per nested parenthesis level.)"""
    max_power_depth: int = 2
    """Deepest tower of exponents (`a^{b^{c}}` has depth 2) handed to sympy."""
    max_exponent: int = 100_000
    """Largest integer exponent (also estimated for `a^{b}` inside an exponent) and largest
    factorial operand handed to sympy; beyond it the value is astronomically large."""
    float_rel_tol: float = 1e-6
    """Relative tolerance when either side is a decimal approximation (`0.333333` vs `1/3`);
    exact numbers on both sides must be exactly equal."""
    worker_start_timeout: float = 120.0
    """Seconds a new worker process may take to import sympy and report ready; beyond it the
    pool raises `WorkerError` (broken infrastructure, not a bad answer)."""

    def __post_init__(self) -> None:
        _check_number(self, "timeout", float, low=0.01)
        _check_bool(self, "strict")
        _check_number(self, "tail_chars", int, low=64)
        if self.workers is not None:
            _check_number(self, "workers", int, low=1)
        _check_number(self, "cache_size", int, low=0)
        _check_number(self, "max_answer_chars", int, low=8)
        _check_number(self, "max_nesting", int, low=1)
        _check_number(self, "max_power_depth", int, low=1)
        _check_number(self, "max_exponent", int, low=2)
        _check_number(self, "float_rel_tol", float, low=0.0)
        _check_number(self, "worker_start_timeout", float, low=1.0)

    @classmethod
    def from_options(cls, **options: Any) -> MathConfig:
        """Build from keyword options (a reward config's extra keys); unknown keys raise."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ConfigError(f"math reward: unknown option(s) {unknown}; "
                              f"valid options are {sorted(known)}")
        return cls(**options)

    @property
    def worker_count(self) -> int:
        """Number of worker processes: `workers`, or the CPU count."""
        return self.workers or os.cpu_count() or 1

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Verdict:
    """The outcome of comparing one extracted answer with one gold answer."""

    reason: Reason
    """ok | wrong | no_answer | timeout | bad_reference."""
    detail: str = ""
    """Why, for people: which path decided (`exact`, `numeric`, `symbolic`, a structural limit)."""

    def __post_init__(self) -> None:
        if self.reason not in _REASONS:
            raise ValueError(f"unknown verdict reason {self.reason!r}")

    @property
    def correct(self) -> bool:
        return self.reason == "ok"

    @property
    def value(self) -> float | None:
        """The reward: 1.0 when correct, `None` (abstain) on a bad reference, else 0.0."""
        if self.reason == "bad_reference":
            return None
        return 1.0 if self.reason == "ok" else 0.0


def _check_number(config: MathConfig, name: str, kind: type, *, low: float) -> None:
    value = getattr(config, name)
    ok_type = isinstance(value, (int, float)) if kind is float else isinstance(value, int)
    if isinstance(value, bool) or not ok_type:
        raise ConfigError(f"math reward: option {name!r} must be {kind.__name__}, got {value!r}")
    if value < low:
        raise ConfigError(f"math reward: option {name!r} must be >= {low}, got {value!r}")
    if kind is float:
        object.__setattr__(config, name, float(value))


def _check_bool(config: MathConfig, name: str) -> None:
    value = getattr(config, name)
    if not isinstance(value, bool):
        raise ConfigError(f"math reward: option {name!r} must be true or false, got {value!r}")
