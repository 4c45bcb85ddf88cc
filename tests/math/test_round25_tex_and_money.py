"""Round 25 (h-m56): TeX readings and money in `rewards/math/_normalize.py`, closing the roots
MARGIN_HEDGE, ROMAN_TAG, PASS_THROUGH_DIMENSION, CENTS_SIGN, PENCE_ASKED and PENCE_PERIOD of
tests/math/test_redteam_round25b.py for their class, both ways: the false wins each reading must
not buy (a hedge beside a bracketed numeral, text in a box's dimension, hundredths of another
currency) and the honest forms that must keep scoring 1 (roman equation numbers, TeX's box
dimensions, every form of a currency's hundredths, real dataset gold styles).

Every row goes through `MathReward.score` twice, `\\boxed{answer}` against `gold`: with the rules
alone (conftest's `reward`, `OPTIONS`) and with a judge that says yes to everything (conftest's
`judged`). Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from rewards.math._normalize import _EQUATION_NUMBER, _sub_unit_read, carried_words, question_words
from tests.math.redteam_helpers import APPLES, OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`

PEN = "A pen costs \\$0.55. How much does it cost?"
BOOK = "A book costs £5.50. How much does it cost?"
PENCE = "How many pence does it cost?"
MUCH = "How much?"
PRICE = "How much did the book cost?"
BOTH_ONE = (1.0, 1.0)
BOTH_ZERO = (0.0, 0.0)


def _both(reward: MathReward, judged: MathReward, gold: str, answer: str,
          question: str) -> tuple[float | None, float | None]:
    return _one(reward, gold, answer, question=question), _one(judged, gold, answer, question=question)


HONEST = [
    # roman equation numbers, either case (`_EQUATION_NUMBER`)
    *[("7", text, APPLES) for text in (
        "7 \\tag{ii}", "7 \\tag{iv}", "7 \\eqno(iii)", "7 \\tag{IV}", "7 \\tag{xii}", "7 \\leqno(vii)",
        "7 \\tag*{(iii)}", "7 \\tag{i}", "7 \\tag{1}", "7 \\eqno(1)")],
    # TeX's box dimensions in `\\raisebox` (`_BOX_DIMENSION`), its optional arguments too
    *[("7", text, APPLES) for text in (
        "\\raisebox{\\depth}{7}", "\\raisebox{0.5\\height}{7}", "\\raisebox{-\\totalheight}[0pt]{7}",
        "\\raisebox{.3\\width}{7}", "\\raisebox{\\baselineskip}{7}", "\\raisebox{1pt}[\\height][\\depth]{7}",
        "\\raisebox{-1.5\\depth}{$7$}", "\\raisebox{1pt}{7}")],
    # a bracketed numeral after a numeral is a product, one value
    ("6", "2(3)", APPLES), ("6", "2 (3) = 6", APPLES),
    # a currency's hundredths, in every form, where the currency is asked or the gold's
    *[("0.55", text, PEN) for text in (
        "55¢", "55 ¢", "55\\text{¢}", "55 \\text{ cents}", "55 \\text{ cents}.", "55 pennies", "\\$0.55")],
    *[("5.5", text, BOOK) for text in ("550p", "550p.", "550 \\text{ pence}", "550 \\text{ pence}.", "0550p", "£5.50")],
    *[("550", text, PENCE) for text in ("550p", "550\\,\\mathrm{p}", "550 \\text{ pence}", "550 pence")],
    ("55", "55¢", "How many cents does it cost?"), ("7", "7 paise", "How many paise does it cost?"),
    ("0.07", "7 sen", "A sweet costs ¥0.07. How much does it cost?"),
    ("0.07", "7 kopecks", "A stamp costs 0.07 rubles. How much does it cost?"),
    ("0.07", "7 centimes", "A stamp costs 0.07 francs. How much does it cost?"),
    ("0.07", "7 \\text{ paise}", "A stamp costs 0.07 rupees. How much does it cost?"),
    ("\\$0.55", "55¢", MUCH), ("\\$18", "1800¢", MUCH),
    # real dataset gold styles
    ("\\$18", "18 \\text{ dollars}", MUCH), ("\\$18", "\\$18", PRICE), ("\\$18", "18", PRICE),
    ("\\text{(B)}", "(B)", APPLES), ("\\text{(B)}", "\\text{(B)}", APPLES), ("\\frac{1}{2}\\%", "0.5\\%", APPLES),
    ("\\frac{1}{2}\\%", "\\frac{1}{2}\\%", APPLES),
]

FALSE_WINS = [
    # two values joined by `or` or a comma, a bracketed numeral between them: a hedge
    *[(gold, text, APPLES) for gold in ("7", "8") for text in (
        "7 (1) \\text{ or } 8", "7(1) or 8", "7 (1), 8", "7 [1] \\text{ or } 8", "7 [1], 8", "(7) (1) \\text{ or } 8",
        "\\frac{14}{2} (1) \\text{ or } 8", "7 \\eqno(1) \\text{ or } 8", "7 \\eqno(1), 8", "7 \\eqno(1) \\lor 8",
        "7 \\leqno(1) \\text{ or } 8", "7 \\eqno(2), 8", "7 \\; (1) \\text{ or } 8", "x = 7 (1) \\text{ or } 8")],
    ("8", "(7), 8", APPLES), ("8", "(7) or 8", APPLES),
    # words and mixed case are no roman equation number: text beside the value
    *[("7", text, APPLES) for text in ("7 \\tag{dix}", "7 \\tag{mix}", "7 \\tag{xxxx}", "7 \\tag{Ii}",
                                       "7 \\tag{ii or 8}")],
    ("8", "7 \\tag{vi} \\text{ or } 8", APPLES),
    # a box's dimension of anything else is no dimension (the box is left as a command)
    *[("7", text, APPLES) for text in ("\\raisebox{8}{7}", "\\raisebox{\\foo}{7}", "\\raisebox{1pt}[or 8]{7}")],
    ("8", "\\raisebox{\\depth}{7 \\text{ or } 8}", APPLES),
    # hundredths of another amount, or read where no money is asked
    ("\\$55", "55¢", MUCH), ("\\$7", "7¢", MUCH), ("55", "55¢", APPLES), ("7", "7 \\text{ cents}", "How old is she?"),
    ("5.5", "550 \\text{ pence} \\text{ or } 8", BOOK), ("0.55", "55¢ \\text{ or } 8", PEN), ("0.55", "55¢, 8", PEN),
]


@pytest.mark.parametrize(("gold", "answer", "question"), HONEST)
def test_honest_forms_keep_their_score(reward: MathReward, judged: MathReward, gold: str, answer: str,
                                       question: str) -> None:
    assert _both(reward, judged, gold, answer, question) == BOTH_ONE


@pytest.mark.parametrize(("gold", "answer", "question"), FALSE_WINS)
def test_false_wins_score_zero(reward: MathReward, judged: MathReward, gold: str, answer: str,
                               question: str) -> None:
    assert _both(reward, judged, gold, answer, question) == BOTH_ZERO


@pytest.mark.parametrize(("gold", "answer", "question"), [
    ("5.5", "550p", APPLES), ("5.5", "5.5p", BOOK), ("5.5", "55p", BOOK), ("550", "550p", BOOK),
    ("\\$5.50", "550p", MUCH),  # (pence are no hundredths of a dollar)
    ("0.55", "55¢", PRICE),  # (any money asked: cents or dollars, not read)
])
def test_hundredths_not_read_are_no_win_of_the_rules(reward: MathReward, gold: str, answer: str,
                                                     question: str) -> None:
    assert _one(reward, gold, answer, question=question) == 0.0


@pytest.mark.parametrize(("text", "number"), [
    *[(text, True) for text in ("ii", "iii", "iv", "vi", "ix", "xiv", "xxxix", "IV", "XII", "(ii)", "$iv$", "vii.2")],
    *[(text, False) for text in ("mix", "dix", "did", "xxxx", "iiii", "Ii", "vV", "or 8", "ii or 8", "xl")],
])
def test_roman_equation_numbers(text: str, number: bool) -> None:
    assert (_EQUATION_NUMBER.fullmatch(text) is not None) is number


@pytest.mark.parametrize(("answer", "gold", "question", "read"), [
    ("55¢", "0.55", PEN, "\\$0.55"), ("550p", "5.5", BOOK, "£5.50"), ("550 \\text{ pence}.", "5.5", BOOK, "£5.50"),
    ("550p", "550", PENCE, "550 \\text{ pence}"), ("7 kopecks", "0.07", "It costs 0.07 rubles. How much?",
                                                   "0.07\\text{ rubles}"),
    ("55¢", "0.55", PRICE, "55 \\text{ cents}"), ("55¢", "55", APPLES, "55¢"), ("550p", "\\$5.50", MUCH, "550p"),
])
def test_sub_unit_read(answer: str, gold: str, question: str, read: str) -> None:
    assert _sub_unit_read(answer, carried_words(gold) | question_words(question)) == read
