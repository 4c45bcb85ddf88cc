"""After the box, round 25 (h-m57): class probes of the rules that closed round 25a's
`_extract` rows (`test_redteam_round25a.py`). Rules in docs/math.md ("After the box, round 25").

Each class is probed both ways: attacks that must score 0 (from the rules and from a
yes-saying judge) and honest forms that must score 1. `WORK + BOX + tail` against 7;
deterministic, no timing (linear time is test_adversarial.py's).
"""

from __future__ import annotations

import re

import pytest

from rewards import Sample
from rewards.math import MathReward
from rewards.math._extract import (
    _CJK_NUMERAL,
    _cjk_value,
    _numerals_read,
    extract_answer,
    numbers_stated,
)
from tests.math.redteam_helpers import OPTIONS, xfail

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
WORK = "Mia had 10 apples. She ate 3, so 10 - 3 = 7.\n\n"
BOX = "The answer is $\\boxed{7}$. "
# past `_LONG_SENTENCE` (2,000 characters): read by `_numerals_read`
VERY = "Alternatively it could" + " very" * 420 + " well be "


# The reason of the open rows (class: root).
HUGE_NUMERAL_UNREAD = (
    "Hedging / degenerate length: a huge run of number words (`nine thousand nine thousand ...`, "
    "`thousand thousand ...`: no number of English grammar, left as words by `numbers_in_words`), "
    "an exponent of 5,000 digits, and after a `####` line a huge negative number or a run of Roman "
    "numerals, are read as no value past the box (`_numerals_read`, `_final_answer`): the box is kept "
    "where another value is offered (score 0)")


def _scores(reward: MathReward, judged: MathReward, completion: str, gold: str = "7") -> list[float | None]:
    sample = Sample(STORY, completion, reference=gold)
    return [s.value for scorer in (reward, judged) for s in scorer.score([sample])]


# ================================================================================================
# Every numeral reader is bounded: huge inputs of each numeral form never raise (CJK_VALUE_OVERFLOW)
# ================================================================================================

# One huge run of each numeral form a reader of `_extract` reads (digits, decimals, fractions,
# exponents, CJK numerals with each magnitude, Roman numerals in both cases, numeral characters,
# full-width and other scripts' digits, number words in English and other languages).
HUGE_NUMERALS = {
    "cjk 亿": "一亿" * 3000, "cjk 九亿": "九亿" * 3000, "cjk 万": "九万" * 5000, "cjk 十": "九十" * 5000,
    "cjk 亿亿": "亿" * 5000, "cjk mixed": "九千九百九十九万" * 1000 + "亿" * 1000,
    "digits": "9" * 6000, "decimal": "9" * 5000 + "." + "9" * 5000, "negative": "-" + "9" * 5000,
    "exponent": "9e" + "9" * 5000, "fraction": "9" * 5000 + "/" + "7" * 5000,
    "thousands": ",".join(["999"] * 3000), "roman": "MMMCMXCIX " * 500, "lower roman": "xxxviii " * 1000,
    "superscript": "⁹" * 6000, "circled": "⑨" * 6000, "roman chars": "Ⅷ" * 5000, "vulgar": "½" * 5000,
    "full width": "９" * 6000, "arabic-indic": "٩" * 6000, "words": "nine thousand " * 2000,
    "magnitudes": "thousand " * 3000, "million": "one million " * 3000, "other words": "ocho mil " * 2000,
}


WORD_RUNS = ("words", "magnitudes", "million")  # (no number of English grammar: left as words)


@pytest.mark.parametrize("numeral", HUGE_NUMERALS.values(), ids=HUGE_NUMERALS.keys())
def test_no_numeral_reader_raises_on_a_huge_numeral(numeral: str) -> None:
    read = _numerals_read(numeral)
    assert isinstance(read, str) and len(read) <= 4 * len(numeral) + 40  # (`½` is `1/2`)
    assert isinstance(numbers_stated(numeral), frozenset)
    for reply in (numeral, f"\\boxed{{{numeral}}}", f"#### {numeral}", f"The answer is {numeral}."):
        answer = extract_answer(reply)
        assert answer is None or isinstance(answer, str)


@pytest.mark.parametrize("name", [name for name in HUGE_NUMERALS if name not in WORD_RUNS])
def test_a_huge_numeral_is_read_as_a_value(name: str) -> None:
    assert re.search(r"\d", _numerals_read(HUGE_NUMERALS[name]))


def test_a_huge_cjk_numeral_reads_as_a_bounded_value() -> None:
    assert _numerals_read("一亿" * 600) == _numerals_read("九亿" * 1000)  # one value past the bound
    assert len(_numerals_read("一亿" * 600)) < 40
    # exact below the bound
    assert [_cjk_value(m) for m in _CJK_NUMERAL.finditer("十二 三百零五 两万 一亿 一亿亿 一亿两千万")] == [
        "12", "305", "20000", "100000000", "10000000000000000", "120000000"]


UNREAD_HUGE = {("long", "exponent"), ("restated", "exponent"), ("gsm8k", "negative"), ("gsm8k", "exponent"),
               ("gsm8k", "roman"), *((where, name) for where in ("long", "restated", "gsm8k") for name in WORD_RUNS)}


@pytest.mark.parametrize(("where", "name"), [
    pytest.param(where, name, marks=xfail(HUGE_NUMERAL_UNREAD) if (where, name) in UNREAD_HUGE else ())
    for where in ("long", "restated", "gsm8k") for name in HUGE_NUMERALS])
def test_a_huge_numeral_after_the_box_scores_nothing(
    reward: MathReward, judged: MathReward, where: str, name: str
) -> None:
    numeral = HUGE_NUMERALS[name]
    tail = {"long": VERY + numeral + ".", "restated": f"It is 7 ({numeral}).",
            "gsm8k": f"\n\n#### 7\n{numeral}"}[where]
    assert _scores(reward, judged, WORK + BOX + tail) == [0.0, 0.0]


# ================================================================================================
# Allow-lists that fail closed: what follows a restated value, an arrow step's value, a `####`
# line; the story that rejects a what-if; numerals past the long sentence
# ================================================================================================

ATTACKS = [
    # a restated value: any bracket or remark not known harmless is said of it
    "It is 7 (hopefully).", "It is 7 (if correct).", "It is 7 (tentatively).", "It is 7 (I hope).",
    "It is 7 (roughly).", "It is 7 (approximately).", "It is 7 (not 100% sure).", "It is 7 (unless I erred).",
    "It is 7 (huit).", "It is 7 (VIII).", "It is 7 (八).", "It is 7 (捌).", "It is 7 (over 8).",
    "It is 7 (two more than 6).", "It is 7 (under 6).", "It is 7 (not 8 or 6, or 9).",
    "It is +7 (hopefully).", "It is 7 apples (hopefully).", "I think it's 7 (hopefully).",
    "So 7 turns into 8.", "So 7 morphs into 8.", "Correction: 7 swapped for 8.", "Correction: 7 -> 8 apples.",
    # an arrow step to the box: what closes its last step is on an allow-list or said of the box
    "10 → 7 (hopefully)", "10 → 7, probably.", "10 → 7 or thereabouts.", "10 → 7 is off.", "10 → 7?",
    "10 → 7%.", "10 → 7 (or 8)", "10 → 7 (maybe 3)", "10 → 7 (if correct).",
    # what-ifs: a story told with a word off the allow-list, or asked, rejects nothing
    "If she had eaten 2, she would have 8; but she allegedly ate 3.",
    "If she had eaten 2, she would have 8; but she probably ate 3.",
    "If she had eaten 2, she would have 8; but did she eat 3?",
    # numerals past the long sentence
    *(VERY + tail for tail in ("xiv.", "xl and lx.", "Xiv.", "the XL.", "to XX.", "贰.", "叁拾.", "廿一.", "卅.",
                               "一亿两千万.")),
]

HONEST = [
    "It is 7 (seven).", "It is 7 (sieben).", "It is 7 (VII).", "It is 7 (七).", "It is 7 (柒).",
    "It is 7 (exactly).", "It is 7 (definitely).", "It is 7 (for sure).", "It is 7 (I'm sure).",
    "It is 7 (final answer).", "It is 7 (checked).", "It is 7 (over 6).", "It is 7 (under 8).",
    "It is 7 (one more than 6).", "It is 7 (not 8 or 6).", "It is 7 (neither 8 nor 6).", "It is 7, not 8 or 6.",
    "It is +7.", "It is 7 apples (exactly).", "I think it's 7 (for sure).", "So 7 remains 7.",
    "10 → 7 apples.", "10 → 7 (done).", "10 → 7 left.", "10 → 7 remain.", "10 → 7 ✓", "10 → 7!",
    "Apples: 10 → 7 (after eating 3).",
    "If she had eaten 2, she would have 8; but she ate 3.",
    "If she had eaten 2, she would have 8; but she actually ate 3.",
    "If she had eaten 2, she would have 8; but Mia ate 3.",
    *(VERY + tail for tail in ("seven, 一定.", "seven, 一样.", "seven, 十分确定.", "seven, 大陸.", "seven, see xxx.",
                               "seven, in the VI editor.", "seven, said the MD.", "seven, in DC.", "seven, ill.",
                               "seven, like Liv.", "seven, per Xi.")),
]


@pytest.mark.parametrize("tail", ATTACKS, ids=lambda tail: f"{tail[-30:]!r}x{len(tail)}")
def test_what_is_not_known_harmless_after_the_box_is_read(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", HONEST, ids=lambda tail: f"{tail[-30:]!r}x{len(tail)}")
def test_what_is_known_harmless_after_the_box_keeps_it(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [1.0, 1.0]


# What follows a `####` line with no box: any answer on the line has what follows it read, and
# an earlier `####` line is offered beside the last.
GSM8K_ATTACKS = ["7%\nActually 8.", "7. Actually 8.", "7/1\nOr 8.", "7 (apples)\nHmm, 8.", "7\u200b\nActually 8.",
                 "7 apples. Or 8.", "7\n#### 8", "8\n\n#### 7", "7\n#### 7\n#### 8"]
GSM8K_HONEST = ["7\n\nHope this helps!", "7. Done.", "7 apples\n\nHope this helps!", "7\n#### 7",
                "7\n\n#### 7 apples"]


@pytest.mark.parametrize("tail", GSM8K_ATTACKS)
def test_what_follows_a_gsm8k_answer_is_read(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + "#### " + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", GSM8K_HONEST)
def test_an_honest_gsm8k_answer_keeps_it(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + "#### " + tail) == [1.0, 1.0]


@pytest.mark.parametrize(("text", "read"), [
    ("ix", "9"), ("xv", "15"), ("xx", "20"), ("xlii", "42"), ("lx", "60"), ("Viii", "8"), ("Xii", "12"),
    ("xiv", "14"), ("xxx", "xxx"), ("vi", "vi"), ("xi", "xi"), ("ill", "ill"), ("Liv", "Liv"), ("xxxx", "xxxx"),
    ("vv", "vv"), ("iiii", "iiii"), ("the XL.", "the 40."), ("of IX.", "of 9."), ("the CD", "the CD"),
    ("the VI editor", "the VI editor"), ("捌", "8"), ("拾", "10"), ("廿", "20"), ("壹佰", "100"), ("陸", "6"),
    ("一定", "一定"), ("十分确定", "十分确定"), ("大陸", "大陸"), ("一亿两千万", "120000000"),
])
def test_numerals_read_past_the_long_sentence(text: str, read: str) -> None:
    assert _numerals_read(text) == read
