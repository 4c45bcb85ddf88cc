"""`number_guess`: the toy environment. The secret is the sample's reference (an integer in
[low, high]); each turn the policy names a number and hears "Higher.", "Lower." or "Correct!",
and every turn costs `step_penalty` (a turn that names no number in range costs
`invalid_penalty` more). The final answer is the last guess, so a final reward of
`{use: math}` scores 1 when the game was won. A tiny model learns it in minutes on a CPU
(examples/multiturn/).

```yaml
environment: {use: number_guess, max_turns: 4, low: 1, high: 8, step_penalty: 0.1}
```
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass

from rewards.envs._types import StepResult
from rewards.errors import ConfigError, InputError
from rewards.options import check_fields
from rewards.types import Sample

__all__ = ["NumberGuessEnv", "NumberGuessOptions", "first_integer", "secret_of"]

_INTEGER = re.compile(r"-?\d{1,9}")  # linear: bounded repetition, no nesting


def first_integer(text: str, *, limit: int = 4096) -> int | None:
    """The first integer in the first `limit` characters of `text`, or None."""
    match = _INTEGER.search(text[:limit])
    return int(match.group()) if match else None


def secret_of(reference: object) -> int | None:
    """The secret a reference names, or None: an int, a float or a string whose value is a
    whole number (`7`, `7.0`, `" 7 "`; never a bool). A reference with a fractional part
    (`7.9`) names no secret: the game would be played for another number, so the episode
    abstains rather than truncate it."""
    if isinstance(reference, bool):
        return None
    if isinstance(reference, numbers.Integral):  # int, numpy's integers (a Parquet column)
        return int(reference)
    if isinstance(reference, str) and len(reference) <= 64:
        text = reference.strip()
        if _WHOLE.fullmatch(text):
            return int(text)
        try:
            reference = float(text)
        except ValueError:
            return None
    if isinstance(reference, numbers.Real) and math.isfinite(reference) \
            and float(reference).is_integer():
        return int(float(reference))
    return None


_WHOLE = re.compile(r"[-+]?\d{1,18}")


@dataclass(frozen=True)
class NumberGuessOptions:
    """Options of `number_guess`."""

    low: int = 1
    """Smallest secret."""
    high: int = 8
    """Largest secret."""
    step_penalty: float = 0.1
    """Reward of every turn: minus this (fewer turns, higher return)."""
    invalid_penalty: float = 0.2
    """Further penalty of a turn that names no number in [low, high]: the step reward that
    teaches the format before the first win does."""

    def __post_init__(self) -> None:
        check_fields(self)
        if self.high < self.low:
            raise ConfigError(f"high: must be >= low ({self.low}), not {self.high}")


class NumberGuessEnv:
    """One game of number guessing (see the module docstring)."""

    name = "number_guess"
    Options = NumberGuessOptions

    def __init__(self, options: NumberGuessOptions | None = None) -> None:
        self.options = options or NumberGuessOptions()
        self.secret: int | None = None
        self.last_guess: int | None = None

    def reset(self, sample: Sample) -> str:
        secret = secret_of(sample.reference)
        if secret is None or not self.options.low <= secret <= self.options.high:
            # the data's fault, not the policy's: the episode abstains (Episode catches it)
            raise InputError(f"number_guess: the reference {sample.reference!r} of sample "
                             f"{sample.group!r} is not an integer in [{self.options.low}, "
                             f"{self.options.high}]", field="reference")
        self.secret = secret
        self.last_guess = None
        return ""

    def step(self, action: str) -> StepResult:
        low, high = self.options.low, self.options.high
        penalty = -self.options.step_penalty
        guess = first_integer(action)
        if guess is None or not low <= guess <= high:
            return StepResult(f"\nSay a number from {low} to {high}.\n",
                              penalty - self.options.invalid_penalty, info={"invalid": 1})
        self.last_guess = guess
        if guess == self.secret:
            return StepResult("\nCorrect!\n", penalty, done=True)
        hint = "Higher." if self.secret is not None and guess < self.secret else "Lower."
        return StepResult(f"\n{hint}\n", penalty)

    def final_answer(self) -> str:
        return "" if self.last_guess is None else str(self.last_guess)
