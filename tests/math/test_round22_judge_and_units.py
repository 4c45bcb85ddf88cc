"""Round 22's sign, judge-filter and units probes, closed at their roots (h-m47): the classes
around each probe and the controls each fix must keep (rules through `MathReward.score`; the
judge's filter through `judgeable` with the gold and question it is shown with)."""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from rewards.math._judge import judgeable, known_letters
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS

@pytest.mark.parametrize(("gold", "letters"), [
    ("\\pi r^2 h", {"r", "h"}), ("AB + BC", {"A", "B", "C"}), ("xy + 3z", {"x", "y", "z"}),
    ("2\\kappa", {"kappa"}), ("\\int_0^1 x^2\\,dx", {"x"}),  # (a differential's d: no name)
    ("\\text{A, C}", {"A", "C"}),
    # prose names nothing but its mathematics: a gold read whole, its `$...$` spans
    ("5000 pens should be produced for a cost of $\\$ 200$.", set()),
    ("The side is $AB = 5$ long.", {"A", "B"}), ("7", set()),
])
def test_the_letters_a_gold_names(gold: str, letters: set[str]) -> None:
    """(h-m50: only the gold names letters; round 23's NAMED_WORDS, a question that names
    `$s$` and `$y$`, showed the judge `8 \\, yes`.)"""
    assert known_letters(gold) - {"e", "i"} == letters


@pytest.mark.parametrize(("answer", "gold", "shown"), [
    ("\\pi r^2 h", "\\pi r h^2", True), ("\\pi r^2 h", "7", False),
    ("mgh", "gmh", True), ("mgh", "7", False), ("n(n-1)", "\\frac{n^2-n}{2}", True),
    ("8 ok", "7", False), ("8 \\, o\\kappa", "\\kappa", False),
    ("\\omega t", "t\\omega", True), ("\\Sigma_{k=1}^{n} k", "7", True),
    ("8 %4f", "7", False), ("8 \\\\u0059", "7", False), ("8\\; \\% 59", "7", False),
    ("8 \\; -.-", "7", False), ("8 − · −", "7", False), ("-.5", "7", True),
    ("50\\% + 20\\%", "7", True), ("1, 2, \\ldots, n", "7", True),
])
def test_the_judge_sees_named_letters_only(answer: str, gold: str, shown: bool) -> None:
    assert judgeable(answer, gold=gold) is shown


@pytest.mark.parametrize(("question", "answer", "gold", "expected"), [
    # a measure asked is answered by its units, never money
    ("How far did she run?", "7 \\text{ km}", "7", 1.0),
    ("How far did she run?", "7 \\text{ kg}", "7", 0.0),
    ("How long is the rope?", "7 \\text{ m}", "7", 1.0),
    ("How long did the trip take?", "7 \\text{ hours}", "7", 1.0),
    ("How old is she?", "7 \\text{ years}", "7", 1.0),
    ("How old is she?", "7 \\text{ km}", "7", 0.0),
    ("What is the volume of the tank?", "7 \\text{ L}", "7", 1.0),
    ("What is the volume of the tank?", "\\$7", "7", 0.0),
    ("What is the total area of the two rooms?", "7 \\text{ square feet}", "7", 1.0),
    ("What is the temperature now?", "\\$7", "7", 0.0),
    ("How much higher is the price now?", "\\$7", "7", 1.0),  # a price goes higher
    ("What is the cost of the area rug?", "\\$7", "7", 1.0),
    ("How far did she run? How much did the shoes cost?", "\\$7", "7", 1.0),  # the last asks
    # a currency and its hundredths
    ("A book costs £5.50. How much does it cost?", "5 \\text{ pounds } 50 \\text{ pence}", "5.5", 1.0),
    ("A book costs £5.50. How much does it cost?", "5 \\text{ pounds } 50 \\text{ cents}", "5.5", 0.0),
    ("A shirt costs \\$5.50. How much does it cost?", "\\$5 \\text{ euros } 50 \\text{ cents}", "5.5", 0.0),
    # typographic marks
    ("How tall is he?", "5’ 8”", "5'8\"", 1.0),
    ("How tall is he?", "5’’8", "5'8\"", 0.0),
])
def test_round22_units(reward: MathReward, question: str, answer: str, gold: str,
                       expected: float) -> None:
    assert _one(reward, gold, answer, question=question) == expected


@pytest.mark.parametrize("answer", ["5 \\leqslant", "5 \\iff", "5 ⇒", "5 \\cup", "5+\\hspace{1em}"])
def test_signs_by_name_are_never_judged(reward: MathReward, judged: MathReward, answer: str) -> None:
    assert [_one(reward, "5", answer), _one(judged, "5", answer)] == [0.0, 0.0]


@pytest.mark.parametrize(("answer", "gold"), [("\\infty", "\\infty"), ("|x|", "|x|"),
                                              ("0^+", "0^+"), ("\\emptyset", "\\emptyset")])
def test_values_that_end_in_symbols_are_no_signs(reward: MathReward, answer: str, gold: str) -> None:
    assert _one(reward, gold, answer) == 1.0
