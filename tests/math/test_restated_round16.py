"""Round 16 of issue #33 (h-m26): restated questions and two-value hedges, both directions.

- `rewards/math/_normalize.restates_question` compares an answer with the question as
  canonical tokens (`_grouped`, `_bound_renamed`): spacing, sizes, `\\left`, wrappers and math
  delimiters dropped, one spelling of `\\dbinom`/`{n \\choose k}`/`\\rightarrow`, a bracket
  around one item unwrapped, bound variables renamed. A restatement is `wrong` before sympy
  and never shown to a judge; one that is the answer (worked to a value, or the gold is one
  of the question's own expressions) keeps its credit.
- `rewards/math/_normalize.hedges`: two numerals joined by a relation or a connective
  (`7 \\lor 8`, `7 = 8`) against a gold that is one number commit to no value: `wrong`,
  never the judge's. One value (`8 = 8`), an equation that is the answer (`x = 8`) and a
  gold of several values (`2, 3`, the judge's) are read as before.

Every probe goes through the reward as users call it (`MathReward.score`), behind
`The answer is $\\boxed{...}$.`, or with a judge that says yes to everything (`YesEngine`).
Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from tests.math.redteam_helpers import APPLES, OPTIONS, judge_sees, said_boxed
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`

SUM = "Compute $\\sum_{k=1}^{100} k$."
INTEGRAL = "Evaluate $\\int_0^1 x^2\\,dx$."
LIMIT = "Find $\\lim_{x \\to 0} \\frac{\\sin x}{x}$."
CHOOSE = "Compute ${5 \\choose 2}$."
BINOM = "Compute $\\binom{5}{2}$."
WHICH = "Which is larger: $\\int_0^1 x^2\\,dx$ or $\\int_0^1 x^3\\,dx$?"


def _judge_sees(answer: str, gold: str, question: str = APPLES) -> tuple[float | None, str, int]:
    """`judge_sees` for `So the answer is $\\boxed{answer}$.`"""
    return judge_sees(said_boxed(answer), gold, question)


# === restatements in other text: wrong, never judged ============================================

RESTATED = [
    # bound variable renamed, in each binder
    ("\\sum_{i=1}^{100} i", "5050", SUM),
    ("\\sum\\limits_{n=1}^{100} n", "5050", SUM),
    ("\\prod_{j=1}^{5} j", "120", "Evaluate $\\prod_{k=1}^{5} k$."),
    ("\\lim_{t \\to 0} \\frac{\\sin t}{t}", "1", LIMIT),
    ("\\int_0^1 u^2 \\, du", "\\frac{1}{3}", INTEGRAL),
    ("\\int_{0}^{\\pi} \\sin\\theta \\, d\\theta", "2", "Evaluate $\\int_0^\\pi \\sin x\\,dx$."),
    ("\\sum_{i=1}^{3}\\sum_{j=1}^{i} j", "10", "Compute $\\sum_{a=1}^{3}\\sum_{b=1}^{a} b$."),
    # grouping, sizes and spacing
    ("\\sum_{k = 1}^{100}{(k)}", "5050", SUM),
    ("\\Big(\\sum_{k=1}^{100} k\\Big)", "5050", SUM),
    ("\\int\\limits_{0}^{1} {x}^{2} \\, \\mathrm{d}x", "\\frac{1}{3}", INTEGRAL),
    ("f\\big(2\\big)", "5", "Let $f(x)=2x+1$. Find $f(2)$."),
    # another notation: both ways between `\\binom` and `\\choose`, `\\longrightarrow`
    ("\\tbinom{5}{2}", "10", CHOOSE),
    ("{5 \\choose 2}", "10", BINOM),
    ("\\lim_{x \\longrightarrow 0} \\frac{\\sin x}{x}", "1", LIMIT),
]


@pytest.mark.parametrize(("answer", "gold", "question"), RESTATED)
def test_restatement_in_other_text_is_wrong(
    reward: MathReward, answer: str, gold: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 0.0


@pytest.mark.parametrize(("answer", "gold", "question"), RESTATED[:6] + RESTATED[11:])
def test_restatement_in_other_text_never_shown_to_the_judge(
    answer: str, gold: str, question: str
) -> None:
    assert _judge_sees(answer, gold, question) == (0.0, "wrong", 0)


# === restatements that are the answer, and expressions that are not the question's ===============


@pytest.mark.parametrize(
    ("answer", "gold", "question"),
    [
        # worked to a value
        ("\\sum_{j=1}^{100} j = 5050", "5050", SUM),
        ("\\int_0^1 t^2\\,dt = \\frac{1}{3}", "\\frac{1}{3}", INTEGRAL),
        ("{5 \\choose 2} = 10", "10", BINOM),
        ("\\frac{5!}{2!\\,3!}", "10", CHOOSE),
        # the question names expressions and the gold is one of them: the answer picks one
        ("\\int_0^1 t^3\\,dt", "\\int_0^1 x^3\\,dx", WHICH),
        ("\\int_{0}^{1} x^{3}\\, dx", "\\int_0^1 x^3\\,dx", WHICH),
        ("{10 \\choose 4}", "\\binom{10}{4}", "Which is larger, $\\binom{10}{3}$ or $\\binom{10}{4}$?"),
        # an expression of its own that the question does not write (free variables differ)
        ("\\frac{100 \\cdot 101}{2}", "5050", SUM),
        ("\\sum_{k=1}^{n} k", "\\sum_{k=1}^{n} k", "Compute $\\sum_{k=1}^{m} k$ for $m = n$."),
    ],
)
def test_restatement_that_is_the_answer_keeps_its_credit(
    reward: MathReward, answer: str, gold: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 1.0


@pytest.mark.parametrize(
    ("answer", "gold", "question"),
    [
        # the other expression of a question that names two: wrong by its value, not unread
        ("\\int_0^1 t^2\\,dt", "\\int_0^1 x^3\\,dx", WHICH),
        # a free variable is not renamed: another expression, read by its value
        ("\\sum_{k=1}^{100} k^2", "5050", SUM),
    ],
)
def test_another_expression_is_read_by_its_value(
    reward: MathReward, answer: str, gold: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 0.0


# === two values joined by a relation or a connective ============================================


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("7 \\lor 8", "8"),
        ("8 \\lor 7", "8"),
        ("7 \\vee 8", "7"),
        ("7 = 8", "8"),
        ("8 = 7", "8"),
        ("7 \\approx 8", "8"),
        ("7 \\to 8", "8"),
        ("7 \\iff 8", "8"),
        ("7 \\land 8", "8"),
        ("7 \\mid 8", "8"),
        ("7.5 = 8", "7.5"),
        # values of any form joined by a connective, and more than two
        ("\\frac{1}{2} \\lor 1", "1"),
        ("1 \\lor \\sqrt{2}", "\\sqrt{2}"),
        ("7 \\lor 8 \\lor 9", "8"),
        ("-7 \\lor 8", "8"),
    ],
)
def test_hedge_of_two_values_is_wrong_before_any_judge(answer: str, gold: str) -> None:
    assert _judge_sees(answer, gold) == (0.0, "wrong", 0)


@pytest.mark.parametrize(
    ("answer", "gold", "question"),
    [
        ("8 = 8", "8", APPLES),
        ("8 \\approx 8", "8", APPLES),
        ("8.0 = 8", "8", APPLES),
        ("\\frac{1}{2} \\lor 0.5", "0.5", APPLES),
        ("\\frac{6}{2} = 3", "3", APPLES),
        ("x = 8", "8", "Solve $x - 1 = 7$ for $x$."),
        ("C(h)=4h+4", "4h+4", "Find $C(h)$ if $C(h) - 4h = 4$."),
    ],
)
def test_one_value_or_an_answering_equation_reads_as_its_value(
    reward: MathReward, answer: str, gold: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 1.0


def test_two_values_against_a_gold_of_two_stay_the_judges() -> None:
    """Against a gold that lists two values, a connective between two values lists them too:
    uncertain (not a hedge), the judge's where one is configured."""
    assert _judge_sees("2 \\lor 3", "2, 3", "Solve $x^2-5x+6=0$.") == (1.0, "judge_equal", 2)


@pytest.mark.parametrize(
    "answer",
    ["\\sum_{k=1}^{100} k}", "{{\\sum_{k=1}^{100} k", "\\choose 2", "{5 \\choose}", "f(2", "7 \\lor"],
)
def test_malformed_restatement_scores(reward: MathReward, answer: str) -> None:
    assert _one(reward, "5050", answer, SUM) == 0.0
