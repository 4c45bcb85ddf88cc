"""Round 21's value-word, asked-unit and judge probes, closed at their roots (h-m44): the
classes around each probe, and the controls each fix must keep (rules through
`MathReward.score`; the judge's filter through `judgeable`)."""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from rewards.math._judge import judgeable
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS


@pytest.mark.parametrize(("question", "answer", "gold", "expected"), [
    # a sign set as text, in any wrapper, or bare: no value of its own
    ("How many apples?", "5\\mathrm{+}", "5", 0.0),
    ("How many apples?", "5\\text{ -}", "5", 0.0),
    ("How many apples?", "5 \\cdot", "5", 0.0),
    # the question's own value word, and only it
    ("How many more cookies did she eat?", "5\\text{ more}", "5", 1.0),
    ("How many more cookies did she eat?", "5\\text{ or more}", "5", 0.0),
    ("How many more cookies did she eat?", "5\\text{ fewer}", "5", 0.0),
    ("How many cookies did she eat?", "5\\text{ more}", "5", 0.0),
    # pounds paid are sterling; pounds weighed are weight
    ("How many pounds does it cost?", "5\\text{ pounds}", "5", 1.0),
    ("How many pounds does it cost?", "5\\text{ lb}", "5", 0.0),
    ("How many pounds does it weigh?", "5\\text{ lb}", "5", 1.0),
    # one quantity in two units
    ("How tall is he?", "5 \\text{ feet } 8 \\text{ inches}", "5", 0.0),
    ("How much does it cost?", "\\$5 \\text{ } 50 \\text{ cents}", "5", 0.0),
    ("How much does it cost?", "5 \\text{ dollars } 50 \\text{ cents}", "5.5", 1.0),
    # the sum asked
    ("How many apples are there?", "12\\text{ apples in all}", "12", 1.0),
    ("How many apples are there?", "12\\text{ altogether}", "12", 1.0),
    ("How many apples are there?", "12\\text{ totally}", "12", 0.0),
    # money asked by its noun; the kind asked
    ("What was his total salary?", "7 \\text{ hours}", "7", 0.0),
    ("What was his total salary?", "\\$7", "7", 1.0),
    ("How much money did she save?", "7 \\text{ days}", "7", 0.0),
    ("How much flour does she need?", "\\$7", "7", 0.0),
    ("How much cheaper is the pen?", "\\$7", "7", 1.0),
    ("How many pens can he buy?", "\\$7", "\\$7", 1.0),
    ("How many dollars can he save?", "\\$7", "7", 1.0),
    # a counted group's content
    ("How many crates of 20 bottles?", "7 \\text{ bottles}", "7", 0.0),
    ("How many crates of 20 bottles?", "7 \\text{ crates}", "7", 1.0),
])
def test_round21_classes(reward: MathReward, question: str, answer: str, gold: str,
                         expected: float) -> None:
    assert _one(reward, gold, answer, question=question) == expected


@pytest.mark.parametrize("answer", [
    "8 no", "8 ne", "8 Si", "8 (O)(K)", "8 \\{Y\\}\\{E\\}\\{S\\}", "8 Y*E\\cdot S", "8 Y^{2}E^{2}S^{2}",
    "8 \\mathbf{Y}(E)\\hat{S}", "8 \\sigma\\iota", "8 \\omega\\kappa", "8 %4F%4B", "8 %4f",
])
def test_words_spelled_as_products_are_not_shown(answer: str) -> None:
    assert not judgeable(answer)


# (round 22, h-m47: a run or product of letters is shown only where something names its letters
# as variables, `known_letters`; round 23, h-m50: the gold alone names them, never the question)
@pytest.mark.parametrize(("answer", "gold"), [
    ("2xy", "2yx"), ("ab + bc + ca", "ca + ab + bc"), ("\\frac{b}{a}", "7"),
    ("x e^{x}", "7"), ("2\\pi r", "7"), ("\\alpha\\beta", "\\beta\\alpha"),
    ("\\omega t", "t\\omega"),
    ("50\\%", "7"), ("50 \\% + 20\\%", "7"),
])
def test_products_of_variables_are_still_shown(answer: str, gold: str) -> None:
    assert judgeable(answer, gold=gold)


# h-m55 (docs/math.md "Round 25 (h-m55)"): a run holding a vowel in an order the gold does not write
# is the rules' to decide (a product of symbols is a polynomial), never shown: `_letters_as_the_gold_writes`
@pytest.mark.parametrize(("answer", "gold"), [
    ("(x-a)(x-b)", "x^2 - (a+b)x + ab"), ("p^a q^b r^c", "(pqr)^{abc}"),
    ("\\vec{u} \\times \\vec{v}", "-\\vec{v} \\times \\vec{u}"),
])
def test_products_in_another_order_are_the_rules_to_decide(answer: str, gold: str) -> None:
    assert not judgeable(answer, gold=gold)


@pytest.mark.parametrize("answer", [
    "2xy", "ab + bc + ca", "\\alpha\\beta", "\\omega t", "(x-a)(x-b)", "p^a q^b r^c",
    "\\vec{u} \\times \\vec{v}",
])
def test_products_of_letters_nothing_names_are_not_shown(answer: str) -> None:
    assert not judgeable(answer, gold="7")
