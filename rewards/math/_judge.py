"""The math judge: a language model asked whether an extracted answer and the gold are
equivalent, where the rules say `wrong` or cannot decide (`MathJudgeConfig`).

Each pair is asked twice, the answer shown first and then the gold shown first, and each
verdict is read from the judge's next-token log-probs, P(equal) = P(yes) / (P(yes) + P(no))
over every single-token spelling of the two labels (`rewards.engines.label_probability`), so
it is a number whatever the judge would have written. Credit needs both orders at or above the
threshold. A judge that fails while judging (the engine raises, or gives neither label any
probability) abstains with a reason; a judge that cannot be built (no such model, a label that
is not one token) is a configuration error and raises."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rewards.errors import ConfigError, EngineError
from rewards.math._config import MathJudgeConfig, Verdict
from rewards.math._normalize import UNCERTAIN
from rewards.types import Sample, Score

__all__ = ["JudgeRead", "MathJudge", "judged_scores"]

MAX_JUDGED_WORDS = 3
"""An answer with more words of prose than this is never shown to the judge (the rule's
verdict stands): a final answer states a value ("three halves", "5 thousand"), and prose
beyond that is text the policy could address to the judge ("note to the grader: ...")."""
_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}")  # a word, not a LaTeX command (\frac)


@dataclass(frozen=True)
class JudgeRead:
    """The judge's two reads of one (answer, gold) pair."""

    forward: float | None
    """P(equal) with the answer shown first; None when the judge failed."""
    swapped: float | None
    """P(equal) with the gold shown first; None when the judge failed."""
    error: str = ""
    """Why there is no verdict (empty when there is one)."""

    def equal(self, threshold: float) -> bool:
        """Both orders say equal with P(equal) >= threshold."""
        return (self.forward is not None and self.swapped is not None
                and self.forward >= threshold and self.swapped >= threshold)


class MathJudge:
    """Reads P(equal) for (question, answer, gold) triples from one engine."""

    def __init__(self, config: MathJudgeConfig, engine: Any | None = None) -> None:
        if engine is None and config.model is None and config.url is None:
            raise ConfigError("math judge: give model (a model folder or name) or url (a vLLM "
                              "server), or pass an engine")
        self.config = config
        self._engine = engine
        self._labels: tuple[list[str], list[str]] | None = None

    @property
    def engine(self) -> Any:
        """The engine, loaded on first use and shared with every reward on the same model."""
        if self._engine is None:
            from rewards.engines import shared_engine

            cfg = self.config
            backend = "vllm-server" if cfg.url and cfg.backend == "auto" else cfg.backend
            self._engine = shared_engine(str(cfg.url or cfg.model), backend,
                                         dict(cfg.engine_options or {}))
        return self._engine

    @property
    def labels(self) -> tuple[list[str], list[str]]:
        """The single-token spellings of the "equal" and "not equal" labels."""
        if self._labels is None:
            from rewards.engines import label_variants

            yes, no = self.config.labels
            self._labels = (label_variants(self.engine, yes), label_variants(self.engine, no))
        return self._labels

    def read(self, items: Sequence[tuple[str, str, str]]) -> list[JudgeRead]:
        """Both reads of each (question, answer, gold), batched in one engine call."""
        if not items:
            return []
        from rewards.engines import label_probability

        engine, (yes, no) = self.engine, self.labels  # cannot be built: ConfigError raises
        try:
            prompts = [self._prompt(engine, question, first, second)
                       for question, answer, gold in items
                       for first, second in ((answer, gold), (gold, answer))]
            rows = engine.next_token_logprobs(prompts, [*yes, *no])
            if len(rows) != len(prompts):
                raise EngineError(f"{len(rows)} log-prob rows for {len(prompts)} prompts")
            probabilities = [label_probability(row, yes, no) for row in rows]
        except ConfigError:
            raise
        except Exception as exc:  # noqa: BLE001 (a judge failure abstains, whatever it is)
            why = f"judge failed: {type(exc).__name__}: {exc}"[:300]
            return [JudgeRead(None, None, why) for _ in items]
        reads = []
        for forward, swapped in zip(probabilities[0::2], probabilities[1::2]):
            if math.isnan(forward) or math.isnan(swapped):
                reads.append(JudgeRead(None, None, "judge gave neither label any probability"))
            else:
                reads.append(JudgeRead(forward, swapped))
        return reads

    def _prompt(self, engine: Any, question: str, first: str, second: str) -> list[int]:
        cfg = self.config
        text = cfg.template.format(question=question[:cfg.max_chars], first=first,
                                   second=second)
        ids = engine.tokenize([{"role": "user", "content": text}] if cfg.chat else text)
        if cfg.answer_prefix:
            ids = [*ids, *engine.tokenize(cfg.answer_prefix, add_special_tokens=False)]
        return list(ids)

    def should_ask(self, verdict: Verdict, answer: str | None, gold: str | None) -> bool:
        """Whether the judge is asked about a pair the rules gave `verdict`."""
        asked = ("timeout",) if self.config.ask == "undecided" else ("wrong", "timeout")
        undecided = verdict.reason == "wrong" and verdict.detail.startswith(UNCERTAIN)
        return ((verdict.reason in asked or undecided)
                and not verdict.detail.startswith("magnitude")
                and answer is not None and gold is not None
                and 0 < len(answer.strip()) and len(answer) <= self.config.max_chars
                and len(_WORD.findall(answer)) <= MAX_JUDGED_WORDS
                and 0 < len(gold.strip()) and len(gold) <= self.config.max_chars)


def judged_scores(judge: MathJudge, samples: Sequence[Sample], answers: Sequence[str | None],
                  golds: Sequence[str | None], verdicts: Sequence[Verdict]) -> list[Score]:
    """The scores of a batch with the judge asked where it may be: each distinct (question,
    answer, gold) once. `parts` hold the rule's verdict (`math/rule`) and, where asked, the
    judge's (`math/judge`: 1 or 0; `math/judge_forward`, `math/judge_swapped`: P(equal))."""
    keys: dict[tuple[str, str, str], int] = {}
    asked: list[int | None] = []
    for sample, answer, gold, verdict in zip(samples, answers, golds, verdicts):
        if judge.should_ask(verdict, answer, gold):
            key = (_question(sample.prompt), answer, gold)
            asked.append(keys.setdefault(key, len(keys)))  # type: ignore[arg-type]
        else:
            asked.append(None)
    reads = judge.read(list(keys))
    scores = []
    for verdict, slot in zip(verdicts, asked):
        rule = {"math/rule": verdict.value} if verdict.value is not None else {}
        if slot is None:
            scores.append(Score(verdict.value, verdict.reason, rule))
            continue
        read = reads[slot]
        if read.error:
            scores.append(Score(None, "judge_error", rule))
            continue
        equal = read.equal(judge.config.threshold)
        parts = {**rule, "math/judge": 1.0 if equal else 0.0,
                 "math/judge_forward": read.forward, "math/judge_swapped": read.swapped}
        scores.append(Score(1.0, "judge_equal", parts) if equal
                      else Score(verdict.value, verdict.reason, parts))
    return scores


def _question(prompt: str | Sequence[Mapping[str, Any]]) -> str:
    """The problem as text: the prompt, or the last user message of a chat prompt."""
    if isinstance(prompt, str):
        return prompt
    users = [m for m in prompt if isinstance(m, Mapping) and m.get("role") == "user"]
    return str(users[-1].get("content", "")) if users else ""
