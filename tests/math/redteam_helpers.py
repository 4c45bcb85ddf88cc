"""What the math red-team rounds share: the question most of their cases ask, the `MathReward`
options they score with, the completions they build around an answer, a judge engine that
says yes to everything, and the strict-xfail marks of their open rows.

Each round imports these under the names its cases call them by (`boxed_values as _boxed`,
...). A module that sets `REWARD_OPTIONS = OPTIONS` gets a `MathReward(**OPTIONS)` from
conftest's `reward` fixture; one that sets none (the rounds that prefix `The answer is `:
8, 10, 12, 13) scores with the default one. conftest's `judged` is `judged_reward(YesEngine())`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

from rewards import Sample, Score
from rewards.math import MathReward

APPLES = "How many apples?"
ANSWER = "The answer is "
BOX = "The answer is $\\boxed{7}$. "
# A generous worker bound: a slow machine must not turn a symbolic verdict into `timeout`
# (0.0), which would pass a buy-credit test for the wrong reason.
OPTIONS: dict[str, Any] = {"timeout": 10.0, "workers": 2}


def xfail(reason: str) -> pytest.MarkDecorator:
    """The mark of a hole found and not fixed: strict, so a fix must remove it."""
    return pytest.mark.xfail(strict=True, reason=reason)


def opened(rows: Sequence[tuple[object, ...]]) -> list[object]:
    """Rows whose last item is the reason of their strict xfail, as marked params (a reason
    of None: a hole fixed since, a plain param)."""
    return [
        pytest.param(*row[:-1], marks=xfail(str(row[-1]))) if row[-1] is not None else row[:-1]
        for row in rows
    ]


def values(reward: MathReward, gold: object, completions: Sequence[str],
           question: str = APPLES) -> list[float | None]:
    """The scores of `The answer is ` + each completion against `gold`."""
    return [s.value for s in reward.score([Sample(question, ANSWER + c, reference=gold)
                                           for c in completions])]


def boxed_values(reward: MathReward, gold: object, answers: Sequence[str],
                 question: str = APPLES) -> list[float | None]:
    """Scores of `The answer is $\\boxed{answer}$.` for each answer."""
    return [s.value for s in reward.score([
        Sample(question, f"The answer is $\\boxed{{{a}}}$.", reference=gold) for a in answers])]


def boxed_value(reward: MathReward, gold: str, answer: str,
                question: str = APPLES) -> float | None:
    """The score of `The answer is $\\boxed{answer}$.` against `gold`."""
    [value] = boxed_values(reward, gold, [answer], question=question)
    return value


def after_box(
    reward: MathReward,
    tail: str,
    *,
    question: str = APPLES,
    working: str = "",
    box: str = "7",
    gold: str = "7",
) -> float | None:
    """The score of `working` + `The answer is $\\boxed{box}$. ` + `tail` against `gold`."""
    completion = f"{working}The answer is $\\boxed{{{box}}}$. {tail}"
    [score] = reward.score([Sample(question, completion, reference=gold)])
    return score.value


class YesEngine:
    """A judge engine that answers P(yes) = `p` for every prompt and records each prompt's text.
    Tokens are characters (offset past the label ids), so a prompt is read back exactly."""

    model = "yes"
    YES, NO = 1, 2

    def __init__(self, p: float = 0.99) -> None:
        self.p = p
        self.prompts: list[str] = []

    def tokenize(self, prompt: Any, *, add_special_tokens: bool = True) -> list[int]:
        if prompt in ("Yes", " Yes"):
            return [self.YES]
        if prompt in ("No", " No"):
            return [self.NO]
        if not isinstance(prompt, str):
            prompt = "\n".join(m["content"] for m in prompt)
        return [ord(c) + 10 for c in prompt]

    def next_token_logprobs(self, prompts: Sequence[list[int]],
                            candidates: Sequence[str]) -> list[dict[str, float]]:
        self.prompts += ["".join(chr(i - 10) for i in ids) for ids in prompts]
        yes, no = math.log(self.p), math.log(1 - self.p)
        return [{c: yes if c.strip() == "Yes" else no for c in candidates} for _ in prompts]


def judged_reward(engine: Any, **judge: Any) -> MathReward:
    """A `MathReward(**OPTIONS)` whose judge is `engine` (a scripted model)."""
    return MathReward(judge={"model": "scripted", **judge}, judge_engine=engine, **OPTIONS)


def _yes_judged(completion: str, gold: str, question: str,
                **judge: Any) -> tuple[Score, list[str]]:
    engine = YesEngine()
    [score] = judged_reward(engine, **judge).score([Sample(question, completion, reference=gold)])
    return score, engine.prompts


def judge_prompts(completion: str, gold: str) -> tuple[float | None, list[str]]:
    """(score, the prompts a yes-saying judge saw) for `completion` against `gold`."""
    score, prompts = _yes_judged(completion, gold, APPLES)
    return score.value, prompts


def judge_sees(completion: str, gold: str, question: str = APPLES,
               **judge: Any) -> tuple[float | None, str, int]:
    """(score, reason, prompts a yes-saying judge saw) for `completion` against `gold`."""
    score, prompts = _yes_judged(completion, gold, question, **judge)
    return score.value, score.reason, len(prompts)


def said_boxed(answer: str) -> str:
    """`So the answer is $\\boxed{answer}$.`, the completion the judge rounds show."""
    return f"So the answer is $\\boxed{{{answer}}}$."
