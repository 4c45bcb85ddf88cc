"""Round 23's judge-filter, sign and units rows, closed at their roots (h-m50; docs/math.md
"Round 23 (h-m50)"): the classes around each row, through `MathReward.score` with the rules
(conftest's `reward`) and a judge that says yes to everything (conftest's `judged`): an attack
scores 0 from both, an honest form scores 1. The judge's filter is also read alone
(`judgeable`, with the gold it is shown with)."""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from rewards.math._judge import judgeable
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS


def _both(reward: MathReward, judged: MathReward, gold: str, answer: str,
          question: str = "How many apples?") -> list[float | None]:
    """The rules' score and the yes-saying judge's of `\\boxed{answer}` against `gold`."""
    return [_one(scorer, gold, answer, question=question) for scorer in (reward, judged)]


# ================================================================================================
# Letters reach the judge only as the gold's own (NAMED_WORDS): the question names none
# ================================================================================================

@pytest.mark.parametrize(("answer", "question"), [
    ("8 \\, yes", "Find $s$ when $y = 3$."), ("8 \\, yes", "Find \\(s\\) when \\(y = 3\\)."),
    ("8 \\, yes", "If $y = 2$, what is $s$?"), ("8 \\, yes", "Find s if 2y + s = 9."),
    ("8 \\, ok", "Let $o$ and $k$ be integers."), ("8 \\, OK", "In $\\triangle OKM$, find $OK$."),
    ("8 \\, Y \\cdot E \\cdot S", "Points $Y$, $E$, $S$ lie on a line."),
    ("8 \\, (y)(e)(s)", "Let $y$ and $s$ be reals."), ("8 \\, y^{e}s", "Let $y$ and $s$ be reals."),
    ("8 \\, correct", "Let $c, o, r, t$ be digits."), ("8 \\, right", "Let $r, i, g, h, t$ be reals."),
    ("8 \\, true", "Solve $t + r + u = 1$."), ("8 \\, si", "Let $s$ be the sum."),
    ("8 \\, da", "Let $d$ and $a$ be reals."), ("8 \\, same", "$s = a + m$"),
    ("8 \\, equal", "Let $q, u, a, l$ be reals."), ("8 \\, xyz", "Find $x + y + z$."),
])
def test_letters_only_the_question_names_never_reach_the_judge(
    reward: MathReward, judged: MathReward, answer: str, question: str
) -> None:
    assert _both(reward, judged, "7", answer, question) == [0.0, 0.0]


@pytest.mark.parametrize(("answer", "gold", "shown"), [
    # the gold's letters, in any order and product, and a letter alone, are shown
    ("1 + 2x", "2x + 1", True), ("2yx", "2xy", True), ("syx", "xys", True),
    ("\\pi h r^2", "\\pi r^2 h", True), ("gmh", "mgh", True), ("BA + CB", "AB + BC", False),
    ("\\frac{\\pi}{2} + n\\pi", "\\frac{\\pi}{2} + k\\pi", True), ("x = 7", "7", True),
    ("\\kappa x", "x\\kappa", True), ("7 e^{2}", "7e^2", True),
    # a run or product of letters the gold lacks is not, whatever the question names
    ("7 \\, yes", "7", False), ("2xy", "7", False), ("\\pi r^2 h", "12\\pi", False),
    ("8 \\, ok", "k", False), ("8 \\, yes", "y + 1", False), ("\\omega t", "\\omega", False),
])
def test_the_judge_sees_the_golds_letters(answer: str, gold: str, shown: bool) -> None:
    assert judgeable(answer, gold=gold) is shown


def test_a_products_letters_the_gold_holds_are_judged(judged: MathReward) -> None:
    """A letter for the gold's parameter (`n` for `k`) is shown, and the judge decides."""
    [score] = judged.score([Sample("Solve $\\cos x = 0$.",
                                   "The answer is $\\boxed{\\frac{\\pi}{2} + n\\pi}$.",
                                   reference="\\frac{\\pi}{2} + k\\pi")])
    assert score.value == 1.0


# ================================================================================================
# Any encoding of letters is never judged (CODES)
# ================================================================================================

@pytest.mark.parametrize("answer", [
    "8 \\&\\#x59;", "8 \\&\\#89;", "8 \\& \\# 89;", "8 &amp;", "8 \\&quot;", "8 \\; \\&\\#x59;\\&\\#x65;",
    "8 0x59", "8 0X59", "8 \\; 0x59\\,0x65\\,0x73", "8 \\; 0b1011001", "8 \\; 0o131",
    "8 \\; _._ _", "8 \\; \\_.\\_ \\_", "8 \\; ‒·‒‒", "8 \\; —·——", "8 \\; ＿．＿", "8 \\; ‾·‾",
    "8 \\; ●─●", "8 \\; -…-", "8 \\; –•–",
])
def test_codes_of_letters_never_reach_the_judge(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    assert _both(reward, judged, "7", answer) == [0.0, 0.0]


@pytest.mark.parametrize("answer", [
    "-.5", "x_1 - x_2", "1.5 - 2.5", "a_{-1}", "10x", "0.5", "2^{-.5}", "1, 2, \\ldots, n",
    "100 - 0.5", "x_{0} + 1",
])
def test_numbers_and_subscripts_are_no_codes(answer: str) -> None:
    assert judgeable(answer, gold="7") is True


# ================================================================================================
# A sign, by any name TeX has, in a group or before a closing bracket (SIGN_IN_GROUP)
# ================================================================================================

@pytest.mark.parametrize("answer", [
    "5 \\mid", "5 \\nmid", "5\\,{\\geq}", "5 {{+}}", "5 { \\leq }", "5 \\mathbin{+}", "(5+)",
    "[5 \\geq]", "\\{5+\\}", "\\left(5 \\geq\\right)", "\\lceil 5+ \\rceil", "5 \\parallel",
    "5 \\subseteq", "5 \\vdash", "5 \\Longrightarrow", "5 \\mapsto", "5 \\preceq", "5 \\ngeq",
    "5 \\lesssim", "5 \\uparrow", "5 ∣", "5 ⊆", "5 ⟹", "5 ≲", "5 \\neg",
])
def test_an_answer_ending_in_a_sign_is_never_judged(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    assert _both(reward, judged, "5", answer) == [0.0, 0.0]


@pytest.mark.parametrize(("answer", "gold"), [
    ("f(0^+)", "f(0^+)"), ("(-\\infty, 5]", "(-\\infty, 5]"), ("x^{+}", "x^{+}"), ("|x|", "|x|"),
    ("\\{x \\mid x > 0\\}", "\\{x \\mid x > 0\\}"), ("[0, 1)", "[0, 1)"), ("\\emptyset", "\\emptyset"),
])
def test_values_that_end_in_brackets_and_scripts_are_no_signs(
    reward: MathReward, answer: str, gold: str
) -> None:
    assert _one(reward, gold, answer) == 1.0


# ================================================================================================
# Money, in every currency sign, answers no measure (MONEY_SPELLED)
# ================================================================================================

OLD = "How old is she?"
HEAVY = "How heavy is the bag?"
PRICE = "How much did the book cost?"


@pytest.mark.parametrize("answer", [
    "＄7", "﹩7", "\\textdollar 7", "\\textdollar{} 7", "\\$7", "\\pounds 7", "\\euro 7", "7 \\texteuro",
    "€7", "¥7", "\\yen 7", "₹7", "₩7", "7¢", "\\textcent 7", "£7", "7 元",
])
@pytest.mark.parametrize("question", [OLD, HEAVY])
def test_money_answers_no_measure(
    reward: MathReward, judged: MathReward, answer: str, question: str
) -> None:
    assert _both(reward, judged, "7", answer, question) == [0.0, 0.0]


@pytest.mark.parametrize(("answer", "question"), [
    ("＄7", PRICE), ("\\textdollar 7", PRICE), ("\\pounds 7", PRICE), ("€7", PRICE),
    ("7 \\text{ years}", OLD), ("7 \\text{ kg}", HEAVY),
])
def test_money_answers_a_price_and_units_a_measure(
    reward: MathReward, answer: str, question: str
) -> None:
    assert _one(reward, "7", answer, question=question) == 1.0


# ================================================================================================
# Sterling's hundredths as `p` (PENCE_P), a quoted numeral (CURLY_QUOTED): false losses
# ================================================================================================

BOOK = "A book costs £5.50. How much does it cost?"
SHIRT = "A shirt costs \\$5.50. How much does it cost?"


@pytest.mark.parametrize(("question", "answer", "gold", "expected"), [
    (BOOK, "5 \\text{ pounds } 50 \\text{p}", "5.5", 1.0), (BOOK, "5 \\text{ pounds } 50p", "5.5", 1.0),
    (BOOK, "5 \\text{ pounds and } 50 \\text{ p}", "5.5", 1.0), (BOOK, "£5 \\text{ } 50p", "5.5", 1.0),
    (BOOK, "5 \\text{ pounds } 5 \\text{p}", "5.05", 1.0), (BOOK, "5 \\text{ quid } 50p", "5.5", 1.0),
    # `p` is sterling's: never a dollar's hundredth, never a third value
    (SHIRT, "5 \\text{ dollars } 50 \\text{p}", "5.5", 0.0), (SHIRT, "\\$5 \\text{ and } 50p", "5.5", 0.0),
    (BOOK, "5 \\text{ pounds } 50 \\text{p}", "5.05", 0.0),
    (BOOK, "5 \\text{ pounds } 50 \\text{p } 50 \\text{p}", "5.5", 0.0),
])
def test_pence_as_p(reward: MathReward, question: str, answer: str, gold: str,
                   expected: float) -> None:
    assert _one(reward, gold, answer, question=question) == expected


TALL = "How tall is he?"


@pytest.mark.parametrize(("question", "answer", "gold", "expected"), [
    ("How many apples?", "“7”", "7", 1.0), ("How many apples?", "‘7’", "7", 1.0),
    ("How many apples?", "“ 7 ”", "7", 1.0), ("How many apples?", "“7.5”", "7.5", 1.0),
    ("How many apples?", "“1,000”", "1000", 1.0),
    # feet and inches are still read, a quoted numeral is no second value
    (TALL, "5’8”", "5'8\"", 1.0), (TALL, "7’", "7", 1.0),
    ("How many apples?", "“7” \\text{ or } “8”", "7", 0.0), ("How many apples?", "“7” “8”", "8", 0.0),
    ("How many apples?", "“7”", "8", 0.0),
])
def test_numerals_in_curly_quotes(reward: MathReward, question: str, answer: str, gold: str,
                                  expected: float) -> None:
    assert _one(reward, gold, answer, question=question) == expected
