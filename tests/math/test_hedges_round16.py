"""Round 16 of issue #33 (h-m27): two values joined by any relation, and a doubt after the box
shown to the judge, both directions.

- `rewards/math/_normalize._joining_sign`: an answer split at every relation (`_JOINING`:
  LaTeX's relation commands and the Unicode relation signs of category Sm) whose two sides
  next to a sign are each one value (`_side_value`: a number as `_read_number` reads it, or a
  constant expression `evaluate` reads) of different values is a hedge (`HEDGED`: `wrong`,
  never the judge's); equal sides read as one value only across the allow-list
  `_ONE_VALUE_SIGNS` (`=`, approximation, `or`), to the printed places (`_same_number`). A
  side of `=` that is no numeral is the working (`\\frac{6}{2} = 3`); a side that is no value
  (`x = 8`) joins nothing. `joined_value`: one number written twice (`1000 \\approx 1{,}000`)
  reads as the number.
- `rewards/math/_normalize.BESIDE_THE_BOX`: what stands after a box and is not read (`IDK.`,
  `\\boxed{7}th`) leaves the pair `wrong` and never shown to a judge, which would be shown
  the box alone.

Every probe goes through the reward as users call it (`MathReward.score`), behind
`The answer is $\\boxed{...}$.`, or with a judge that says yes to everything (`YesEngine`).
Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from tests.math.redteam_helpers import APPLES, OPTIONS, boxed_value
from tests.math.redteam_helpers import judge_sees as _judge_sees

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`


def _one(reward: MathReward, gold: str, answer: str, question: str = "Compute it.") -> float | None:
    """`boxed_value`, asking `Compute it.` unless told."""
    return boxed_value(reward, gold, answer, question)


# === two different values joined by a relation: wrong against either, never judged ==============

HEDGES = [
    # relation commands and Unicode relation signs off the old list
    "7 \\lessapprox 8",
    "7 \\asymp 8",
    "7 \\propto 8",
    "7 \\le 8",
    "7 < 8",
    "7 \\backsimeq 8",
    "7 \\risingdotseq 8",
    "7 \\Doteq 8",
    "7 \\bumpeq 8",
    "7 \\coloneqq 8",
    "7 \u2a70 8",  # ⩰
    "7 \u2259 8",  # ≙
    "7 \u2258 8",  # ≘
    "7 \u225f 8",  # ≟
    "7 \u22cd 8",  # ⋍
    "7 \u224c 8",  # ≌
    "7 \u2242 8",  # ≂
    "7 \u21d2 8",  # ⇒
    "7 \ufe66 8",  # ﹦ (a small form)
    # sides that are values of any form
    "7 \\approx 2 \\cdot 4",
    "\\frac{14}{2} \\approx 8",
    "7 \\approx (((8)))",
    "\\sqrt{49} \\simeq 8",
    "7 \\approx 8.0\\%",
    # chains, and a value beside an equation
    "7 \\approx 7 \\approx 8",
    "7 = 7 = 8",
    "x = 7 \\approx 8",
    # markup that renders nothing: empty groups, grouping braces, `\\left.`, a line break; a
    # sign with a mark over it
    "{7 \\sim 8}",
    "7 {\\sim} 8",
    "{7} = {8}",
    "\\left. 7 \\right. \\sim 8",
    "7 \\sim 8 \\\\",
    "7 \\stackrel{?}{=} 8",
    "7 \\overset{?}{=} 8",
    "7 \\approx{}{} 8",
    "7 \\approx_{} 8",
    "7^{} \\simeq 8",
]


@pytest.mark.parametrize("gold", ["7", "8"])
@pytest.mark.parametrize("answer", HEDGES)
def test_two_different_values_are_wrong_against_either(
    reward: MathReward, answer: str, gold: str
) -> None:
    assert _one(reward, gold, answer, APPLES) == 0.0


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("7 \\simeq 8", "8"),
        ("7 \\sim 8", "8"),
        ("7 \\approx 2^3", "8"),
        ("7 \\approx 2^3", "7"),
        ("\\frac{14}{2} \\approx 8", "7"),
        ("7 \\approx 8 \\approx 7", "7"),
        ("7 \u2252 8", "8"),
    ],
)
def test_two_different_values_never_shown_to_the_judge(answer: str, gold: str) -> None:
    value, reason, prompts = _judge_sees(f"So the answer is $\\boxed{{{answer}}}$.", gold)
    assert (value, reason, prompts) == (0.0, "wrong", 0)


def test_the_same_value_joined_by_a_statement_is_no_value(reward: MathReward) -> None:
    """Only equality, approximation and `or` join a value to itself: `7 \\ne 7` and `7 < 7` are
    (false) statements about two values."""
    assert [_one(reward, "7", answer, APPLES) for answer in ("7 \\ne 7", "7 < 7")] == [0.0, 0.0]


# === one value written twice, worked sides, equations: read as before ==========================


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("8 \\simeq 8.0", "8"),
        ("8 \u2245 8", "8"),
        ("8 \\doteq 8", "8"),
        ("\\frac{16}{2} \\approx 8", "8"),
        ("\\sqrt{64} \\approx 8", "8"),
        ("2^3 = 8", "8"),
        ("\\frac{6}{2} = 3", "3"),
        ("8 \\approx 8 \\approx 8.0", "8"),
        ("1000 = 1{,}000", "1000"),
        ("2{,}500 \\approx 2500", "2500"),
        ("1{,}000 \\approx 1000", "1000"),
        ("8\\% \\approx 0.08", "8\\%"),
        ("\\sqrt{2} \\approx 1.41", "\\sqrt{2}"),
        ("\\frac{1}{3} \\approx 0.333", "\\frac{1}{3}"),
        ("\\frac{1}{2} \\lor 0.5", "0.5"),
        ("8 \\approx{} 8", "8"),
        ("\\frac {16}{2} \\approx 8", "8"),
        ("\\dfrac {16} {2} \\simeq 8", "8"),
        ("2^ {3} \\approx 8", "8"),
        ("{8} = {8}", "8"),
        ("\\left. 8 \\right. \\approx 8", "8"),
        ("8 \\approx 8 \\\\", "8"),
    ],
)
def test_one_value_keeps_its_credit(reward: MathReward, answer: str, gold: str) -> None:
    assert _one(reward, gold, answer) == 1.0


@pytest.mark.parametrize(
    ("answer", "gold", "question"),
    [
        ("x = 8", "8", "Solve $x - 1 = 7$ for $x$."),
        ("C(h)=4h+4", "4h+4", "Find $C(h)$ if $C(h) - 4h = 4$."),
        ("1 < x < 3", "(1, 3)", "Solve $(x - 1)(x - 3) < 0$."),
    ],
)
def test_an_answering_equation_is_read_as_before(
    reward: MathReward, answer: str, gold: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 1.0


@pytest.mark.parametrize(
    "answer",
    [
        "7 \\approx",
        "\\approx 8 \\approx",
        "{}\\approx{}",
        "7 \\approx " + "8 \\approx " * 25 + "8",
        "= = =",
    ],
)
def test_malformed_relations_score(reward: MathReward, answer: str) -> None:
    assert _one(reward, "7", answer, APPLES) == 0.0


# === what stands unread after the box: wrong, never the judge's ================================


@pytest.mark.parametrize(
    "completion",
    [
        "So the answer is $\\boxed{7}$. IDK.",
        "So the answer is $\\boxed{7}$. Scratch that.",
        "So the answer is $\\boxed{7}$. Low confidence.",
        "So the answer is $\\boxed{7}$ \U0001f914",
        "So the answer is $\\boxed{7}th$.",
        "So the answer is $\\boxed{7}\u01c3$",
    ],
)
def test_unread_after_the_box_is_never_judged(completion: str) -> None:
    assert _judge_sees(completion, "7") == (0.0, "wrong", 0)


@pytest.mark.parametrize(
    "completion",
    [
        "So the answer is $\\boxed{7}$. Hope this helps!",
        "So the answer is $\\boxed{7}$. \u2705",
        "So the answer is $\\boxed{7}$.",
    ],
)
def test_a_box_that_stands_keeps_its_credit_with_a_judge(completion: str) -> None:
    assert _judge_sees(completion, "7") == (1.0, "ok", 0)


def test_uncertain_words_in_the_answer_stay_the_judges() -> None:
    """What the judge may see is unchanged: words in the answer the rules cannot read
    (`3\\text{ halves}`) are shown, the judge's yes credits them."""
    value, reason, prompts = _judge_sees(
        "So the answer is $\\boxed{3\\text{ halves}}$.", "\\frac{3}{2}", "Compute it."
    )
    assert (value, reason, prompts) == (1.0, "judge_equal", 2)
