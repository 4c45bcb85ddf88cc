"""`MathReward`: extract, then compare, over a batch of samples."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from rewards.math._compare import VerdictCache, compare_batch
from rewards.math._config import MathConfig
from rewards.math._extract import find_answer
from rewards.math._pool import shared_pool
from rewards.types import Sample, Score

__all__ = ["MathReward"]


class MathReward:
    """Verifiable math reward: 1.0 when the completion's final answer equals the gold
    (`sample.reference`), 0.0 otherwise (reasons wrong, no_answer, timeout), `None` with reason
    bad_reference when the gold cannot be parsed. Options: the fields of `MathConfig`."""

    name = "math"
    kind = "verifiable"

    def __init__(self, **options: Any) -> None:
        self.config = MathConfig.from_options(**options)
        self.cache = VerdictCache(self.config.cache_size)

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        texts = [s.completion if isinstance(s.completion, str) else None for s in samples]
        answers = [find_answer(text, self.config) if text is not None else None
                   for text in texts]
        pairs = [(answer, s.reference) for answer, s in zip(answers, samples)]
        verdicts = compare_batch(pairs, self.config, self.cache, texts)
        return [Score(v.value, v.reason) for v in verdicts]

    async def ascore(self, samples: Sequence[Sample]) -> list[Score]:
        """`score` for asyncio code: runs in a thread, the event loop stays free."""
        return await asyncio.to_thread(self.score, samples)

    def warm_up(self) -> None:
        """Start all worker processes now rather than on the first symbolic comparison."""
        shared_pool(self.config.worker_count,
                    start_timeout=self.config.worker_start_timeout).start()

    def __repr__(self) -> str:
        return f"MathReward({self.config})"
