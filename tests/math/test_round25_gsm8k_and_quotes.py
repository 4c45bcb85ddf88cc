"""Round 25's `####` units, lines and what-ifs (round 25a) and quotation pairs (round 25b),
closed at their roots (h-m58; docs/math.md "After the box, round 25 (h-m58)"): the classes
around each row, through `MathReward.score` with the rules (conftest's `reward`) and a judge
that says yes to everything (conftest's `judged`), against a gold of 7 (10 apples, 3 eaten):
an attack scores 0 from both, an honest form 1."""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from rewards.math._extract import _gsm8k_unit, _money_part_counted
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
PRICE = "How much did the book cost?"
WORK = "Mia had 10 apples. She ate 3, so 10 - 3 = 7.\n\n"
BOX = "The answer is $\\boxed{7}$. "


def _scores(reward: MathReward, judged: MathReward, completion: str, question: str = STORY) -> list[float | None]:
    sample = Sample(question, completion, reference="7")
    return [s.value for scorer in (reward, judged) for s in scorer.score([sample])]


def _money(working: str, value: str) -> str:
    return f"The book cost {working}, so 10 - 3 = 7.\n\n" + BOX + "\n\n#### " + value


# ================================================================================================
# A hundredth of money after `####` (`_gsm8k_unit`, `_money_part_counted`, `_SUB_UNITS`)
# ================================================================================================

@pytest.mark.parametrize(("working", "value"), [
    ("10 euros and a stamp 50 cents", "7 cents"), ("€10 and a stamp 50 cents", "7 cents"),
    ("\\$10 and a stamp 50 cents", "7 cents"), ("10 \\$ and a stamp 50 cents", "7 cents"),
    ("EUR 10, a stamp 50 cents", "7 cents"), ("10 rupees, a stamp 50 paise", "7 paise"),
    ("Rs. 10, a stamp 50 paise", "7 paise"), ("₹10, a stamp 50 paise", "7 paise"),
    ("10 pesos, a stamp 50 centavos", "7 centavos"), ("10 rubles, a stamp 50 kopeks", "7 kopeks"),
    ("¥10, a stamp 50 sen", "7 sen"), ("10 bucks, a stamp 1 penny", "7 penny"),
    ("10 smackers, a stamp 50 cents", "7 cents"), ("ten dollars (10), a stamp 50 cents", "7 cents"),
    ("10 dollars, a stamp 50 cent", "7 Cents"), ("10 CHF, a stamp 50 centimes", "7 centime"),
])
def test_a_hundredth_beside_a_whole_currency_is_another_value(
    reward: MathReward, judged: MathReward, working: str, value: str
) -> None:
    assert _scores(reward, judged, _money(working, value), PRICE) == [0.0, 0.0]


@pytest.mark.parametrize(("completion", "question"), [
    ("She had 10 cents and spent 3 cents, so 10 - 3 = 7 cents.\n\n" + BOX + "\n\n#### 7 cents",
     "How many cents are left?"),
    ("A pound is 100 pence. She had 10 pence, spent 3 pence: 10 - 3 = 7 pence.\n\n" + BOX + "\n\n#### 7 pence",
     "How many pence are left?"),
    ("She had 10 paise and spent 3 paise; (10 - 3) = 7 paise.\n\n" + BOX + "\n\n#### 7 paise", "How many paise?"),
    ("10 cents - 3 cents = 7 cents.\n\n" + BOX + "\n\n#### 7 (cents)", "How many cents are left?"),
])
def test_a_working_in_hundredths_alone_keeps_the_box(
    reward: MathReward, judged: MathReward, completion: str, question: str
) -> None:
    assert _scores(reward, judged, completion, question) == [1.0, 1.0]


def test_the_money_part_rule_reads_every_number() -> None:
    assert _money_part_counted("cents", "10 cents - 3 cents = 7 cents, $\\boxed{7}$")
    assert not _money_part_counted("cents", "10 cents - 3 cents = 7 cents, 2 apples")
    assert not _money_part_counted("cents", "10 pence - 3 cents = 7 cents")  # another hundredth
    assert not _money_part_counted("cents", "£1 is 100 cents")
    assert not _money_part_counted("cents", "1 cents " * 20_000)  # past the bound: fails closed


# ================================================================================================
# Magnitude abbreviations and one-letter units after `####` (`_MAGNITUDE_PREFIXES`, `_LETTER_UNITS`)
# ================================================================================================

@pytest.mark.parametrize("word", ["doz", "hund", "thous", "bill", "mill", "milli", "trill", "dutz"])
def test_a_magnitude_abbreviation_is_no_unit(reward: MathReward, judged: MathReward, word: str) -> None:
    completion = f"Mia had 10 apples, 3 {word}; 10 - 3 = 7.\n\n" + BOX + f"\n\n#### 7 {word}"
    assert _scores(reward, judged, completion) == [0.0, 0.0]
    assert not _gsm8k_unit(word, "")


@pytest.mark.parametrize("letter", ["x", "n", "k", "K", "M", "B", "b", "y", "t"])
def test_another_letter_is_no_unit(reward: MathReward, judged: MathReward, letter: str) -> None:
    completion = f"Mia had 10 {letter}, 3 {letter}; 10 - 3 = 7 {letter}.\n\n" + BOX + f"\n\n#### 7 {letter}"
    assert _scores(reward, judged, completion) == [0.0, 0.0]


@pytest.mark.parametrize(("letter", "question"), [
    ("m", "How long is the wall?"), ("g", "How heavy is it?"), ("s", "How long did it take?"),
    ("L", "How much water is left?"), ("h", "How long did it take?"),
])
def test_a_letter_unit_the_working_counts_keeps_the_box(
    reward: MathReward, judged: MathReward, letter: str, question: str
) -> None:
    completion = f"It was 10 {letter}; 3 {letter} went, so 10 - 3 = 7 {letter}.\n\n" + BOX + f"\n\n#### 7 {letter}"
    assert _scores(reward, judged, completion, question) == [1.0, 1.0]


def test_a_letter_unit_the_working_does_not_count_is_still_no_unit(reward: MathReward, judged: MathReward) -> None:
    assert _scores(reward, judged, WORK + BOX + "\n\n#### 7 m") == [0.0, 0.0]


# ================================================================================================
# A line after the `####` line, and a `####` line before a box (`_LINE_AFTER_BOX`, `_final_answer`)
# ================================================================================================

@pytest.mark.parametrize("tail", [
    "#### 7\n(8)", "#### 7\r\n(8)", "#### 7\n[8]", "#### 7\n(8 apples)", "#### 7\n(= 8)", "#### 7 \n(8)",
    "\\boxed{7}\n(8)", "#### 7\n\\boxed{8}", "#### 7\n\nThe answer is $\\boxed{8}$.", "#### 8\n\\boxed{7}",
    "#### 8 apples\n\\boxed{7}", "#### 8\n#### 8\n\\boxed{7}", "#### 7\n\n**Answer:** $\\boxed{8}$",
])
def test_a_second_answer_on_its_own_line_scores_nothing(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", [
    "#### 7\n(10 - 3 = 7)", "#### 7\n(7 apples)", "#### 7\n(seven)", "#### 7\n\\boxed{7}", "#### 7 apples\n\\boxed{7}",
    "#### 7\n\nThe answer is $\\boxed{7}$.", "#### +7\n\\boxed{7}", "\\boxed{7}\n(10 - 3 = 7)",
])
def test_the_same_answer_on_its_own_line_keeps_it(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + tail) == [1.0, 1.0]


# ================================================================================================
# A what-if rejected with a negation (`_story_rejects`, `_NEGATED_CONDITION`)
# ================================================================================================

WHATIF = "If she had eaten 2, she would have 8; but "


@pytest.mark.parametrize("tail", [
    "she did not.", "she didn’t.", "he never did, he ate 3.", "that is not the case: she ate 3.",
    "that's not the case.", "that did not happen.", "nope, she ate 3.", "she had not — she ate 3.",
])
def test_a_negated_condition_rejects_the_what_if(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + WHATIF + tail) == [1.0, 1.0]


@pytest.mark.parametrize("tail", [
    "she did not: she ate 2.", "she did not: perhaps she ate 3.", "she did not: she ate 3 or 2.",
    "no, she would have 8.", "she did not, or did she?", "she did not: who knows.", "I'm not sure she ate 3.",
    "she did not: she ate 3?", "not really.", "she did not: 8 is right.",
])
def test_a_negation_that_hedges_rejects_nothing(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + WHATIF + tail) == [0.0, 0.0]


# ================================================================================================
# Quotation pairs (`_normalize._SAME_QUOTES`, `_QUOTE_SPACE`)
# ================================================================================================

@pytest.mark.parametrize("answer", [
    "”7”", "’7’", "»7»", "«\\,7\\,»", "«\\;7\\;»", "«~7~»", "«\\thinspace 7\\thinspace»", "«\u202f7\u202f»",
    "«\u20097\u2009»", "«\\ 7\\ »", "‹\\,7\\,›", "” 7 ”",
])
def test_a_quoted_numeral_in_any_pair_is_the_numeral(reward: MathReward, judged: MathReward, answer: str) -> None:
    assert [_one(scorer, "7", answer) for scorer in (reward, judged)] == [1.0, 1.0]


@pytest.mark.parametrize("answer", [
    "”7” ”8”", "”7 or 8”", "»7» or »8»", "«\\,7\\,» «\\,8\\,»", "”8”", "«\\,8\\,»", "”-7”", "’7’’8’",
])
def test_quoted_numerals_that_hedge_or_differ_score_nothing(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    assert [_one(scorer, "7", answer) for scorer in (reward, judged)] == [0.0, 0.0]


def test_a_length_is_no_quote(reward: MathReward) -> None:
    assert _one(reward, "5'7\"", "5’7”") == 1.0
    assert _one(reward, "7", "5’7’") == 0.0
