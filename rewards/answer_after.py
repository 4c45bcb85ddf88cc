"""`answer_after`: a component scores only the text after the reasoning. Any component of a
reward config takes it (`{use: math, answer_after: "</think>"}`); `rewards.build` wraps the
built component in `AnswerAfter`. It stands below the builder and the components (the reasoning
rewards re-export it), so the builder imports no component. Plain string operations only
(`str.rfind`): linear in the completion, so no completion can make it slow."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rewards.errors import ConfigError
from rewards.types import (
    Reward,
    Sample,
    Score,
    ScoresReady,
    ready_for_part,
    score_progressively,
    with_completion,
)

__all__ = ["AnswerAfter", "markers_option", "text_after"]


def text_after(text: str, markers: Sequence[str]) -> str | None:
    """The text after the last occurrence of any of `markers`, or `None` when none occurs.
    (With several markers the latest end wins: `a</think>b</reasoning>c` -> `c`.)"""
    end = -1
    for marker in markers:
        at = text.rfind(marker)
        if at >= 0:
            end = max(end, at + len(marker))
    return None if end < 0 else text[end:]


def markers_option(value: Any, *, what: str, name: str = "answer_after") -> tuple[str, ...]:
    """A marker option: one non-empty string, or a non-empty list of them."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not items \
            or not all(isinstance(m, str) and m for m in items):
        raise ConfigError(f"{what}: option {name!r} must be a non-empty string (such as "
                          f"'</think>') or a list of them, got {value!r}")
    return tuple(items)


class AnswerAfter:
    """`reward` seeing only the text after the last `marker` (one string or a list: the latest
    end of any). A completion without the marker has no answer: 0.0 with reason `no_answer`,
    and `reward` never sees it, so an answer inside an unclosed `<think>` earns nothing (TRL's
    `reasoning_accuracy_reward` does the same with its `reasoning_delimiters`)."""

    def __init__(self, reward: Reward, marker: str | Sequence[str]) -> None:
        self.markers = markers_option(marker, what=f"reward {getattr(reward, 'name', reward)!r}")
        self.reward = reward
        self.name = reward.name
        self.kind = getattr(reward, "kind", "verifiable")

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return self.score_progressively(samples, None)

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        """`score`, telling `ready` the scores as `reward` decides them (those without the
        marker at once; `rewards.types.Progressive`)."""
        answers = [text_after(s.completion, self.markers) if isinstance(s.completion, str)
                   else None for s in samples]
        kept = {i: answer for i, answer in enumerate(answers) if answer is not None}
        results = [Score(0.0, "no_answer") for _ in samples]
        if ready is not None and len(kept) < len(samples):
            unmarked = [i for i in range(len(samples)) if i not in kept]
            ready(unmarked, [results[i] for i in unmarked])
        if kept:
            inner = [with_completion(samples[i], answer) for i, answer in kept.items()]
            positions = list(kept)
            scores = score_progressively(self.reward, inner, ready_for_part(ready, positions))
            for i, score in zip(positions, scores):
                results[i] = score
        return results

    def __repr__(self) -> str:
        return f"AnswerAfter({self.reward!r}, {list(self.markers)!r})"
