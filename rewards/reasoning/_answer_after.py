"""`answer_after`: a component scores only the text after the reasoning. Any component of a
reward config takes it (`{use: math, answer_after: "</think>"}`); `rewards.build` wraps the
built component in `AnswerAfter`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rewards.reasoning._text import markers_option, text_after
from rewards.types import Reward, Sample, Score, check_scores

__all__ = ["AnswerAfter"]


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
        answers = [text_after(s.completion, self.markers) if isinstance(s.completion, str)
                   else None for s in samples]
        kept = [i for i, answer in enumerate(answers) if answer is not None]
        results = [Score(0.0, "no_answer") for _ in samples]
        if kept:
            inner = [replace(samples[i], completion=answers[i]) for i in kept]
            scores = check_scores(self.reward, self.reward.score(inner), len(inner))
            for i, score in zip(kept, scores):
                results[i] = score
        return results

    def __repr__(self) -> str:
        return f"AnswerAfter({self.reward!r}, {list(self.markers)!r})"
