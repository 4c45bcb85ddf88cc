"""`number_guess`: the toy environment. The secret is the sample's reference (an integer in
[low, high]); each turn the policy names a number and hears "Higher.", "Lower." or "Correct!",
and every turn costs `step_penalty` (a turn that names no number in range costs
`invalid_penalty` more). The guess is the turn's first number, and it must be a whole number
as written (`first_integer`): a number written otherwise (`3.7`, `3e5`, `3/2`, `3,000`) is a
wrong guess ("Not a whole number.", the step penalty, never a win), so no prefix of another
number can hit the secret. The final answer is the last whole-number guess, so a final reward
of `{use: math}` scores 1 when the game was won. A tiny model learns it in minutes on a CPU
(examples/multiturn/).

```yaml
environment: {use: number_guess, max_turns: 4, low: 1, high: 8, step_penalty: 0.1}
```
"""

from __future__ import annotations

import math
import numbers
import re
import unicodedata
from dataclasses import dataclass

from rewards.envs._types import StepResult
from rewards.errors import ConfigError, InputError
from rewards.math import NUMBER_WORDS
from rewards.options import check_fields
from rewards.text import read_text
from rewards.types import Sample

__all__ = ["NOT_WHOLE", "NumberGuessEnv", "NumberGuessOptions", "first_integer", "secret_of"]

_DIGITS = re.compile(r"-?\d+")  # linear: one run, no nesting
_OPENS_A_NUMBER = frozenset(" \t\r\n([{\"'*_`$:=#")
_ENDS_A_NUMBER = frozenset(" \t\r\n.,;:!?)]}\"'*_`$")
"""What may stand right before and right after the digits (and `-`) of a whole number as
written (allow-lists): the text's start or end, a space, brackets, quotes, Markdown and
LaTeX delimiters, a label's `:`, `=` or `#`, closing punctuation; after it `.` and `,` only
where no digit follows them (a sentence's full stop, not a decimal point or a thousands
separator), and a word glued after it (`_word_after`). Anything else (`3.7`, `3e5`, `3/2`,
`−3` with a Unicode minus, `x3`) goes on as another number or word."""
_READ_LIMIT = 4096
"""Characters of a turn searched for the guess, counted after `read_text`."""
_TURN_LIMIT = 16 * _READ_LIMIT
"""Characters of a turn read at all (a cost bound): a turn cut there ends in a cut, which
no number runs into (`_CUT`), so the cut never makes a number's prefix the guess."""
_CUT = "\ufffd"  # not in _ENDS_A_NUMBER: a number that reaches the cut is not whole
NOT_WHOLE = "not_whole"
"""`first_integer`'s answer for a first number that is not a whole number as written."""


def first_integer(text: str, *, limit: int = 4096) -> int | str | None:
    """The guess a turn names: the first number in the first `limit` characters of `text`
    when it is a whole number as written (an optional `-` and digits, with only
    `_OPENS_A_NUMBER` before and `_ENDS_A_NUMBER` after them); `NOT_WHOLE` when the first
    number is written otherwise (`3.7`, `3e5`, `3/2`, `3,000`, `0x3`, `.5`); a word
    glued after it ends it (`3rd`, `9fore`: `_word_after`); None when
    there is no number. Never the integer prefix of another number. `text` is read as
    written: `NumberGuessEnv.step` reads a turn with `rewards.text.read_text` first."""
    match = _DIGITS.search(text[:limit])
    if match is None:
        return None
    start, end = match.span()  # the first run and maximal: no digit precedes it
    before, after = text[start - 1:start], text[end:end + 1]  # past `limit`: a cut number
    if (before and before not in _OPENS_A_NUMBER) \
            or (after and after not in _ENDS_A_NUMBER and not _word_after(match.group(), text,
                                                                         end)) \
            or (after in (".", ",", ":") and text[end + 1:end + 2].isdigit()) \
            or not _one_script(match.group().lstrip("-")):
        return NOT_WHOLE
    return int(match.group())


_EXPONENT = re.compile(r"[eE](?:[-+]|\d)")
_RADIX = frozenset("xXbBoO")
_LETTERS = re.compile(r"[^\W\d_]+")
_NUMBER_WORD_ABBREVIATIONS = ("mn", "bn", "tn")  # with NUMBER_WORDS: 3mn, 3bn (magnitudes)


def _word_after(number: str, text: str, end: int) -> bool:
    """Whether a word glued after the digits of `number` (ending at `end`) ends the number
    (`9fore`, `3rd`: 9 and 3) rather than goes on writing it, as an exponent (`3e5`, `3e+`),
    a radix prefix after a lone 0 (`0x1F`), a lone Latin or Greek letter (a unit, a variable,
    a constant or a magnitude: `3k`, `3M`, `3x`, `3π`, `3i`) or a number word or magnitude
    (`rewards.math.NUMBER_WORDS`: `3eight`, `3thousand`, `3tenth`) does."""
    if not text[end:end + 1].isalpha() or _EXPONENT.match(text, end):
        return False
    if text[end] in _RADIX and number.lstrip("-") == "0":
        return False
    word = _LETTERS.match(text, end)
    glued = word.group().casefold() if word is not None else ""
    if len(glued) == 1:  # a Latin or Greek letter names a unit, a variable or a constant;
        # another script's glued letter is a word of its own (`3つ`, `3은`: 3 and a particle)
        return not unicodedata.name(glued, "").startswith(("LATIN", "GREEK"))
    return not glued.startswith((*NUMBER_WORDS, *_NUMBER_WORD_ABBREVIATIONS))


def _one_script(digits: str) -> bool:
    """Whether every digit of one number is of the same script: Unicode encodes each
    script's decimal digits as one run 0-9, so a digit's script is its run's zero
    (`ord(c) - unicodedata.decimal(c)`), read from the data, no list of scripts. `1\u0663`
    (an ASCII 1, an Arabic-Indic 3) is no number (UTS #39's mixed-number confusable)."""
    return len({ord(c) - unicodedata.decimal(c) for c in digits}) == 1


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
        # read first, then bound: invisible characters never count toward the bound, so
        # padding cannot move the bound into a number and make its prefix the guess
        text = read_text(action[:_TURN_LIMIT]) + (_CUT if len(action) > _TURN_LIMIT else "")
        guess = first_integer(text, limit=_READ_LIMIT)
        if guess == NOT_WHOLE:  # a wrong guess: it names no whole number, so not the secret
            return StepResult("\nNot a whole number.\n", penalty, info={"not_whole": 1})
        if not isinstance(guess, int) or not low <= guess <= high:
            return StepResult(f"\nSay a number from {low} to {high}.\n",
                              penalty - self.options.invalid_penalty, info={"invalid": 1})
        self.last_guess = guess
        if guess == self.secret:
            return StepResult("\nCorrect!\n", penalty, done=True)
        hint = "Higher." if self.secret is not None and guess < self.secret else "Lower."
        return StepResult(f"\n{hint}\n", penalty)

    def final_answer(self) -> str:
        return "" if self.last_guess is None else str(self.last_guess)
