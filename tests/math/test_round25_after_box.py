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
from tests.math.redteam_helpers import OPTIONS

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
WORK = "Mia had 10 apples. She ate 3, so 10 - 3 = 7.\n\n"
BOX = "The answer is $\\boxed{7}$. "
# past `_LONG_SENTENCE` (2,000 characters): read by `_numerals_read`
VERY = "Alternatively it could" + " very" * 420 + " well be "


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


@pytest.mark.parametrize("numeral", HUGE_NUMERALS.values(), ids=HUGE_NUMERALS.keys())
def test_no_numeral_reader_raises_on_a_huge_numeral(numeral: str) -> None:
    read = _numerals_read(numeral)
    assert isinstance(read, str) and re.search(r"\d", read)
    assert isinstance(numbers_stated(numeral), frozenset)
    for reply in (numeral, f"\\boxed{{{numeral}}}", f"#### {numeral}", f"The answer is {numeral}."):
        assert extract_answer(reply) is None or isinstance(extract_answer(reply), str)


def test_a_huge_cjk_numeral_reads_as_a_bounded_value() -> None:
    assert _numerals_read("一亿" * 600) == _numerals_read("九亿" * 1000)  # one value past the bound
    assert len(_numerals_read("一亿" * 600)) < 40
    # exact below the bound
    assert [_cjk_value(m) for m in _CJK_NUMERAL.finditer("十二 三百零五 两万 一亿 亿亿")] == [
        "12", "305", "20000", "100000000", "10000000000000000"]


@pytest.mark.parametrize("numeral", HUGE_NUMERALS.values(), ids=HUGE_NUMERALS.keys())
@pytest.mark.parametrize("where", ["long", "restated", "gsm8k"])
def test_a_huge_numeral_after_the_box_scores_nothing(
    reward: MathReward, judged: MathReward, numeral: str, where: str
) -> None:
    tail = {"long": VERY + numeral + ".", "restated": f"It is 7 ({numeral}).",
            "gsm8k": f"\n\n#### 7\n{numeral}"}[where]
    assert _scores(reward, judged, WORK + BOX + tail) == [0.0, 0.0]
