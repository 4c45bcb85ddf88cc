"""`reasoning_steps` and `repetition`: counts over the reasoning text, on a completion cut to
`max_chars` first."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rewards.options import check_fields, check_range, load_options
from rewards.reasoning._measure import load_tokenizer, token_ids
from rewards.reasoning._text import DEFAULT_MAX_SCAN_CHARS, completion_text
from rewards.text import read_text
from rewards.types import Sample, Score

__all__ = ["ReasoningStepsConfig", "ReasoningStepsReward", "RepetitionConfig",
           "RepetitionReward", "count_steps", "repetition_penalty"]

# open-r1's step markers. Every branch starts with a literal or a line start, and `\d+` only
# runs over the digits right after one, so a scan is linear in the text.
_STEP = re.compile(r"Step \d+:|^\d+\.|\n-|\n\*|First,|Second,|Next,|Finally,", re.MULTILINE)


def count_steps(text: str) -> int:
    """Step markers in `text`: `Step N:`, `N.` at a line start, `-` or `*` bullets after a line
    break, and `First,` `Second,` `Next,` `Finally,` (open-r1 `reasoning_steps_reward`).

    open-r1 compiles its pattern without re.MULTILINE, so its `^\\d+\\.` only matches at the
    very start of the completion; its docstring says "at start of line", which is what this
    counts. One more difference: a marker counts only when a letter or digit follows it
    before the next marker (a step with something in it): open-r1 gives full credit to
    `Step 1:\\nStep 2:\\nStep 3:` alone, which `rewards stress` reports as tag spam."""
    marks = [(m.start(), m.end()) for m in _STEP.finditer(text)]
    ends = [start for start, _ in marks[1:]] + [len(text)]
    return sum(1 for (_, end), stop in zip(marks, ends)
               if any(ch.isalnum() for ch in text[end:stop]))


def repetition_penalty(units: Sequence[Any], ngram_size: int, max_penalty: float) -> float:
    """(1 - unique n-grams / all n-grams) * max_penalty; 0.0 when there are fewer than
    `ngram_size` units (open-r1 `get_repetition_penalty_reward`, TRL's on token ids; Appendix
    C.2 of "Demystifying Long Chain-of-Thought Reasoning", arXiv 2502.03373)."""
    if len(units) < ngram_size:
        return 0.0
    ngrams = list(zip(*(units[i:] for i in range(ngram_size))))
    scaling = 1.0 - len(set(ngrams)) / len(ngrams)
    return scaling * max_penalty if scaling else 0.0


@dataclass(frozen=True)
class ReasoningStepsConfig:
    """Options of the `reasoning_steps` reward."""

    min_steps: int = 3
    """Steps for full credit: the value is min(1, steps / min_steps) (open-r1's "magic number 3")."""
    max_chars: int = DEFAULT_MAX_SCAN_CHARS
    """Only the first `max_chars` characters are scanned."""

    def __post_init__(self) -> None:
        check_fields(self, where="reasoning_steps reward")
        check_range("min_steps", self.min_steps, ge=1)
        check_range("max_chars", self.max_chars, ge=1)


class ReasoningStepsReward:
    """min(1, step markers / min_steps): rewards visible step-by-step reasoning (open-r1
    `reasoning_steps_reward`). `parts` holds the count as `steps`."""

    name = "reasoning_steps"
    kind = "verifiable"

    def __init__(self, **options: Any) -> None:
        self.config = load_options(ReasoningStepsConfig, options,
                                   where="reasoning_steps reward")

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        scores = []
        for sample in samples:
            steps = count_steps(completion_text(sample)[:self.config.max_chars])
            scores.append(Score(min(1.0, steps / self.config.min_steps),
                                parts={"steps": float(steps)}))
        return scores


@dataclass(frozen=True)
class RepetitionConfig:
    """Options of the `repetition` reward."""

    ngram_size: int = 3
    """Length of the n-grams compared (open-r1 `repetition_n_grams`, TRL `ngram_size`: 3)."""
    max_penalty: float = -1.0
    """The value of a completion made of one n-gram repeated; must be <= 0."""
    tokenizer: str | None = None
    """A local tokenizer folder: n-grams of token ids (TRL). None: n-grams of lowercased
    whitespace-separated words (open-r1's `language: en`)."""
    max_chars: int = DEFAULT_MAX_SCAN_CHARS
    """Only the first `max_chars` characters are split into n-grams."""

    def __post_init__(self) -> None:
        check_fields(self, where="repetition reward")
        check_range("ngram_size", self.ngram_size, ge=1)
        check_range("max_penalty", self.max_penalty, le=0.0)  # a penalty; NaN fails too
        check_range("max_chars", self.max_chars, ge=1)


class RepetitionReward:
    """An n-gram repetition penalty in [max_penalty, 0]: 0 for text without a repeated
    n-gram, near max_penalty for a loop. Follows open-r1 `get_repetition_penalty_reward`
    (words) and TRL `get_repetition_penalty_reward` (token ids, with `tokenizer`)."""

    name = "repetition"
    kind = "verifiable"

    def __init__(self, **options: Any) -> None:
        self.config = load_options(RepetitionConfig, options, where="repetition reward")
        self.tokenizer = (None if self.config.tokenizer is None
                          else load_tokenizer(self.config.tokenizer, what="repetition"))

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        c = self.config
        texts = [completion_text(s)[:c.max_chars] for s in samples]
        if self.tokenizer is None:
            # words as a reader reads them: zero-width characters sprinkled into a loop's
            # words would make every repeat a new n-gram (`rewards.text.read_text`)
            units: list[Sequence[Any]] = [read_text(text).lower().split() for text in texts]
        else:
            units = list(token_ids(self.tokenizer, texts))
        return [Score(repetition_penalty(u, c.ngram_size, c.max_penalty)) for u in units]
