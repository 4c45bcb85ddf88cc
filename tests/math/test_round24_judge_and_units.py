"""Round 24a's judge-filter, sign and units rows, closed at their roots (h-m52; docs/math.md
"Round 24 (h-m52)"): the classes around each row, through `MathReward.score` with the rules
(conftest's `reward`) and a judge that says yes to everything (conftest's `judged`): an attack
scores 0 from both, an honest form scores 1. The judge's filter (`judgeable`, with the gold it
is shown with) and the sign rule (`_ends_in_sign`) are also read alone."""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from rewards.math._compare import _ends_in_sign
from rewards.math._judge import judgeable
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS


def _both(reward: MathReward, judged: MathReward, gold: str, answer: str,
          question: str = "How many apples?") -> list[float | None]:
    """The rules' score and the yes-saying judge's of `\\boxed{answer}` against `gold`."""
    return [_one(scorer, gold, answer, question=question) for scorer in (reward, judged)]


# ================================================================================================
# A product of letters reaches the judge only where one term of the gold holds them all
# (GOLD_LETTER_WORDS: `_judge._gold_terms`), and never a judgement word (`_JUDGEMENT_WORDS`)
# ================================================================================================

@pytest.mark.parametrize(("answer", "gold"), [
    # the gold holds the letters as separate symbols (terms, items of a list)
    ("8 \\; ys", "xy+s"), ("8 \\; sy", "s + y"), ("8 \\; ok", "(k, o)"), ("8 \\; ko", "k = o"),
    ("8 \\; y e s", "\\{y, e, s\\}"), ("8 \\; y^{e}s", "xy+s"), ("8 \\; (y)(e)(s)", "x y + s"),
    ("8 \\; y \\cdot e \\cdot s", "y - s"), ("8 \\; tru", "t+r+u"), ("8 \\; ok", "k \\le o"),
    # a judgement word, whatever the gold holds, spelled or in any language the judge reads
    ("8 \\; yes", "sy"), ("8 \\; yes", "yes"), ("8 \\; Yes", "2sy"), ("8 \\; ok", "ko"),
    ("8 \\; y-e-s", "xy+s"), ("8 \\; oui", "iou"), ("8 \\; ja", "aj"), ("8 \\; xyes", "xys"),
    ("8 \\; true", "ture"), ("8 \\; sim", "ims"),
])
def test_words_of_the_golds_letters_are_not_judgeable(answer: str, gold: str) -> None:
    assert not judgeable(answer, gold=gold)


@pytest.mark.parametrize(("answer", "gold"), [
    ("8 \\; ys", "xy+s"), ("8 \\; sy", "s + y"), ("8 \\; y^{e}s", "xy+s"), ("8 \\; tru", "t+r+u"),
    ("8 \\; yes", "sy"), ("8 \\; Yes", "2sy"), ("8 \\; y-e-s", "xy+s"), ("8 \\; oui", "iou"),
    ("8 \\; xyes", "xys"), ("8 \\; true", "ture"),
])
def test_words_of_the_golds_letters_never_buy_the_judge(
    reward: MathReward, judged: MathReward, answer: str, gold: str
) -> None:
    assert _both(reward, judged, gold, answer) == [0.0, 0.0]


@pytest.mark.parametrize(("answer", "gold"), [
    # products the gold holds in one term, in any order (reorderings are products, not words)
    ("yx", "xy"), ("2yx", "2xy"), ("hr", "\\pi r^2 h"), ("\\pi h r^2", "\\pi r^2 h"),
    ("n(n-1)", "\\frac{n^2-n}{2}"), ("\\kappa x", "x\\kappa"),
    ("\\frac{1}{2} ab \\sin C", "\\frac{ab \\sin C}{2}"), ("t m", "2t \\mathrm{~m}"),
    ("\\sigma \\mu", "\\Phi(\\mu \\sigma)"), ("n I X", "n^{-1} I_{(-1,1)} X"),
])
def test_products_one_term_of_the_gold_holds_are_shown(answer: str, gold: str) -> None:
    assert judgeable(answer, gold=gold)


# h-m55 (docs/math.md "Round 25 (h-m55)"): a run holding a vowel in an order the gold does not write
# is the rules' to decide (a product of symbols is a polynomial), never shown: `_letters_as_the_gold_writes`
@pytest.mark.parametrize(("answer", "gold"), [
    ("(x-a)(x-b)", "x^2 - (a+b)x + ab"), ("ax + b", "b + xa"), ("BA + CB", "AB + BC"),
    ("p^a q^b r^c", "(pqr)^{abc}"),
])
def test_products_in_another_order_are_the_rules_to_decide(answer: str, gold: str) -> None:
    assert not judgeable(answer, gold=gold)


def test_the_judges_own_labels_are_judgement_words() -> None:
    """Labels configured for the judge (`MathJudgeConfig.labels`) are never shown either."""
    assert judgeable("8 \\; ab", gold="ab")
    assert not judgeable("8 \\; ab", gold="ab", labels=("AB", "CD"))
    assert not judgeable("8 \\; c d", gold="cd", labels=("AB", "CD"))


def test_a_judgement_word_the_rules_read_as_the_gold_still_scores(reward: MathReward) -> None:
    """Kept from the judge, the gold's own words are the rules' to match (real golds `Yes`,
    `True`; `OK \\cdot 2` for `2 \\cdot OK`)."""
    assert [_one(reward, gold, answer) for answer, gold in (
        ("Yes", "Yes"), ("\\text{yes}", "Yes"), ("True", "True"), ("OK \\cdot 2", "2 \\cdot OK"),
    )] == [1.0, 1.0, 1.0, 1.0]


# ================================================================================================
# A sign before any closing delimiter is a sign; the modulo commands are signs
# (SIGN_BEFORE_BAR, BMOD_SIGN: `_compare._CLOSER_AT_END`, `_unwrapped_group`, `_SIGNS`)
# ================================================================================================

@pytest.mark.parametrize("answer", [
    "|5 \\geq|", "\\lvert 5+\\rvert", "\\left|5+\\right|", "\\lVert 5+ \\rVert", "「5+」", "（5+）",
    "⟨5+⟩", "\\{5 \\bmod\\}", "5 \\mod", "(5 \\pmod)", "{5 \\bmod}", "5 \\sum", "(5 \\int)",
    "\\text{{5+}}", "\\mathbf{5+}", "5 \\therefore", "(5 \\dashrightarrow)", "5 \\nequiv",
    "\\begin{pmatrix} 5+ \\end{pmatrix}", "\\begin{Vmatrix*} 5 \\geq \\end{Vmatrix*}",
])
def test_a_sign_before_any_closing_delimiter_buys_nothing(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    assert _both(reward, judged, "5", answer) == [0.0, 0.0]


@pytest.mark.parametrize("text", [
    "|x|", "\\|x\\|", "Fe^{2+}", "x^{+}", "\\mathbb{R}^{+}", "f(0^+)", "\\frac{1}{2}",
    "x \\equiv 3 \\pmod{5}", "\\{1, 2\\}", "\\lvert -5 \\rvert", "(-\\infty, 5]", "e^{x+1}",
    "\\begin{Vmatrix*} 7 \\end{Vmatrix*}", "\\begin{bmatrix*}[r] 7 \\end{bmatrix*}",
])
def test_values_that_close_a_delimiter_end_in_no_sign(text: str) -> None:
    assert not _ends_in_sign(text)


# ================================================================================================
# Money: a currency's code or word is money (MONEY_CODES, MONEY_WORDS: `_CURRENCY_WORDS`,
# `_ISO_4217`); every currency sign answers a price (CURRENCY_LOST); pence alone (PENCE_ALONE)
# ================================================================================================

OLD = "How old is she?"
HEAVY = "How heavy is the bag?"
PRICE = "How much did the book cost?"


@pytest.mark.parametrize("answer", [
    "KRW 7", "7 JPY", "\\text{CHF } 7", "7 \\text{ rupees}", "7 \\text{ pesos}", "7 \\text{ euros}",
    "7 \\text{ baht}", "7 \\text{ naira}", "7 \\text{ yuan}", "\\text{Rs } 7", "7 \\text{ dollar}",
])
def test_a_currencys_code_or_word_answers_no_age(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    assert _both(reward, judged, "7", answer, OLD) == [0.0, 0.0]


@pytest.mark.parametrize(("answer", "question"), [
    ("7 \\text{ years}", OLD), ("7 \\text{ pounds}", HEAVY), ("7 \\text{ lbs}", HEAVY),
    ("₺7", PRICE), ("₫7", PRICE), ("₱7", PRICE), ("฿7", PRICE), ("￦7", PRICE), ("₹7", PRICE),
    ("\\officialeuro 7", PRICE), ("\\mathsterling 7", PRICE), ("7 \\text{ dollars}", PRICE),
])
def test_money_answers_a_price_and_units_a_measure(
    reward: MathReward, answer: str, question: str
) -> None:
    assert _one(reward, "7", answer, question=question) == 1.0


BOOK = "A book costs £5.50. How much does it cost?"
SHIRT = "A shirt costs \\$5.50. How much does it cost?"


@pytest.mark.parametrize(("question", "answer", "gold", "expected"), [
    (BOOK, "550 \\text{ pence}", "5.5", 1.0), (BOOK, "55p", "0.55", 1.0), (BOOK, "505p", "5.05", 1.0),
    (BOOK, "550p", "5.05", 0.0), (SHIRT, "550p", "5.5", 0.0), (BOOK, "550p \\text{ or } 5", "5.5", 0.0),
])
def test_pence_alone_where_pounds_are_asked(reward: MathReward, question: str, answer: str,
                                           gold: str, expected: float) -> None:
    assert _one(reward, gold, answer, question=question) == expected


# ================================================================================================
# Every quotation-mark pair quotes a numeral (OTHER_QUOTES: `_normalize._CURLY_MARK`)
# ================================================================================================

TALL = "How tall is he?"


@pytest.mark.parametrize(("question", "answer", "gold", "expected"), [
    ("How many apples?", "『7』", "7", 1.0), ("How many apples?", "﹁7﹂", "7", 1.0),
    ("How many apples?", "»7«", "7", 1.0), ("How many apples?", "`7'", "7", 1.0),
    ("How many apples?", "“\\dfrac{1}{2}”", "1/2", 1.0), ("How many apples?", "«7.5»", "7.5", 1.0),
    # still one value, and feet and inches are still read
    ("How many apples?", "«7» «8»", "7", 0.0), ("How many apples?", "«7 or 8»", "7", 0.0),
    ("How many apples?", "„7“", "8", 0.0), (TALL, "5’8”", "5'8\"", 1.0),
])
def test_every_quotation_mark_pair_quotes(reward: MathReward, question: str, answer: str,
                                         gold: str, expected: float) -> None:
    assert _one(reward, gold, answer, question=question) == expected
