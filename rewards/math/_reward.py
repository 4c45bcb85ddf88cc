"""`MathReward`: extract, then compare, over a batch of samples."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from rewards.math._compare import VerdictCache, compare_batch, read_reference
from rewards.math._config import MathConfig, Verdict
from rewards.math._extract import Extraction, find_answer
from rewards.math._judge import MathJudge, judged_scores
from rewards.math._pool import shared_pool
from rewards.types import Sample, Score, ScoresReady

__all__ = ["MathReward"]


class MathReward:
    """Verifiable math reward: 1.0 when the completion's final answer equals the gold
    (`sample.reference`), 0.0 otherwise (reasons wrong, no_answer, timeout), `None` with reason
    bad_reference when the gold cannot be parsed or is no answer at all (an instruction). A
    gold stated in words around math is read whole (`read_reference`). Options: the fields
    of `MathConfig`.

    With `judge` set (`MathJudgeConfig`), a language model is asked about the pairs the rules
    reject or cannot decide: 1.0 with reason judge_equal when it says equivalent in both
    orders, `None` with reason judge_error when it fails; `parts` then record the rule's and
    the judge's verdicts. `judge_engine` gives the judge an engine directly (any object with
    `tokenize` and `next_token_logprobs`, see `rewards.engines.Engine`)."""

    name = "math"
    kind = "verifiable"

    def __init__(self, *, judge_engine: Any | None = None, **options: Any) -> None:
        self.config = MathConfig.from_options(**options)
        self.cache = VerdictCache(self.config.cache_size)
        self.judge = (MathJudge(self.config.judge, judge_engine)
                      if self.config.judge is not None else None)

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return self.score_progressively(samples, None)

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        """`score`, telling `ready` each sample's score as soon as it is decided (without a
        judge: those decided without sympy at once, the others as their comparison ends;
        `rewards.types.Progressive`)."""
        # Most batches hold a few answers only sympy decides: the worker processes' zygote
        # warms up (seconds) while this process extracts the answers.
        shared_pool(self.config.worker_count,
                    start_timeout=self.config.worker_start_timeout).prestart()
        texts = [s.completion if isinstance(s.completion, str) else None for s in samples]
        answers: list[Extraction | None] = []

        def pairs() -> Iterator[tuple[Extraction | None, object]]:
            """Each answer extracted as `compare_batch` reaches its pair: a pair that needs
            sympy is on a worker while the rest of the batch is read."""
            for text, sample in zip(texts, samples):
                answers.append(find_answer(text, self.config) if text is not None else None)
                yield answers[-1], sample.reference

        questions = [_question_text(s.prompt) for s in samples]
        told: Callable[[Sequence[int], Sequence[Verdict]], None] | None = None
        if ready is not None and self.judge is None:
            def tell(indices: Sequence[int], decided: Sequence[Verdict]) -> None:
                ready(indices, [Score(v.value, v.reason) for v in decided])
            told = tell
        verdicts = compare_batch(pairs(), self.config, self.cache, texts, questions, ready=told)
        if self.judge is None:
            return [Score(v.value, v.reason) for v in verdicts]
        # (a gold the rules used, as they read it: its answer, or its text when read whole;
        # never one too long to read or not an answer, which is bad_reference)
        golds = [read_reference(s.reference, q).text if v.reason in ("wrong", "timeout")
                 else None for s, q, v in zip(samples, questions, verdicts)]
        # (an unmarked number is shown with the words of its clause, as the rule read it:
        # never `7` where the reply wrote `Not 7.`)
        scores = judged_scores(self.judge, samples,
                               [(a.words or a.answer) if a and not a.beside_box else None
                                for a in answers],  # (two answers: never the judge's)
                               golds, verdicts)
        if ready is not None:  # the judge asks about a batch at once
            ready(range(len(scores)), scores)
        return scores

    async def ascore(self, samples: Sequence[Sample]) -> list[Score]:
        """`score` for asyncio code: runs in a thread, the event loop stays free."""
        return await asyncio.to_thread(self.score, samples)

    def warm_up(self) -> None:
        """Start all worker processes now rather than on the first symbolic comparison."""
        shared_pool(self.config.worker_count,
                    start_timeout=self.config.worker_start_timeout).start()

    def __repr__(self) -> str:
        return f"MathReward({self.config})"


def _question_text(prompt: object) -> str | None:
    """The question's text: the prompt, or its chat messages' text contents joined."""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, list):
        return "\n".join(m["content"] for m in prompt
                         if isinstance(m, dict) and isinstance(m.get("content"), str))
    return None
