"""What the math red-team rounds that prefix `The answer is ` share (rounds 8, 10, 12): the
question most of their cases ask, the prefix, and the scores of completions against one gold
(the default `MathReward` they score with is conftest's `reward` fixture)."""

from __future__ import annotations

from collections.abc import Sequence

from rewards import Sample
from rewards.math import MathReward

APPLES = "How many apples?"
ANSWER = "The answer is "


def values(reward: MathReward, gold: object, completions: Sequence[str],
           question: str = APPLES) -> list[float | None]:
    """The scores of `The answer is ` + each completion against `gold`."""
    return [s.value for s in reward.score([Sample(question, ANSWER + c, reference=gold)
                                           for c in completions])]
