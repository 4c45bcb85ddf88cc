"""Open rows of rounds 23 and 24, closed at their roots (h-m54; docs/math.md "Round 25
(h-m54)"): a relation in brackets after a value is a second value (`_normalize.
_BRACKETED_RELATION`), a what-if whose condition a statement of fact after it contradicts is
no second answer, with or without a contrast word (`_extract._clauses`), a number in words
that a word offering another value governs is read in a sentence the window cuts
(`_extract._OTHER_VALUE_FRAME`), the gold's terms are read with their brackets multiplied out for the
judge's filter (`_judge._expanded_terms`), and a low single quote that opens a quotation is a
quotation mark, not a comma (`rewards.text._OPENED_QUOTE`). Through `MathReward.score` with the
rules (conftest's `reward`) and a judge that says yes to everything (conftest's `judged`)."""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from rewards.math._judge import _gold_terms, judgeable
from rewards.text import read_text
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS


def _both(reward: MathReward, judged: MathReward, gold: str, answer: str) -> list[float | None]:
    return [_one(scorer, gold, answer) for scorer in (reward, judged)]


# A relation in brackets after a value gives a second value: a hedge, never judged.
@pytest.mark.parametrize("gold", ["7", "8"])
@pytest.mark.parametrize("answer", [
    "x = 7 (x = 8)", "x = 7\\ (x = 8)", "x = 7 \\left(x = 8\\right)", "x = 7 [x = 8]", "7 (= 8)",
    "x = \\frac{14}{2} (x = 8)", "x = 7 \\bigl(x = 8\\bigr)", "x = 7 (y = 8)", "x = 7 (x \\approx 8)",
])
def test_a_relation_in_brackets_after_a_value_is_a_second_answer(
        reward: MathReward, judged: MathReward, gold: str, answer: str) -> None:
    assert _both(reward, judged, gold, answer) == [0.0, 0.0]


# Honest forms keep the verdicts they had: a bracket after a name, one with no relation, a
# condition (which gives no value), the same value again.
@pytest.mark.parametrize(("gold", "answer", "scores"), [
    ("7", "f(x) = 7", [1.0, 1.0]), ("(1,2)", "(x, y) = (1, 2)", [1.0, 1.0]),
    ("(1,2)", "x \\in (1, 2)", [1.0, 1.0]), ("7", "x = 7 (x = 7)", [1.0, 1.0]),
    # a condition is no second value: never a hedge (the rules cannot read it; the judge may)
    ("7", "x = 7 (x > 0)", [0.0, 1.0]), ("7", "x = 7 (\\text{cm})", [0.0, 1.0]),
])
def test_honest_brackets_keep_their_verdicts(reward: MathReward, judged: MathReward, gold: str,
                                             answer: str, scores: list[float]) -> None:
    assert _both(reward, judged, gold, answer) == scores


# The judge sees a product of letters only where a product of the gold, its brackets
# multiplied out, holds them all.
@pytest.mark.parametrize(("answer", "gold"), [
    ("8 \\; sy", "x(y+s)"), ("8 \\; ys", "x(y + s)"), ("8 \\; ab", "(a+b)x"), ("8 \\; sy", "x\\left(y+s\\right)"),
    ("8 \\; ab", "\\frac{a+b}{c}"), ("8 \\; ok", "x(k, o)"), ("8 \\; yz", "x(y+z)+w"),
    # a product term holds them, but a run with a vowel must also stand in the gold's letters as
    # the gold writes them (h-m55's `_letters_as_the_gold_writes`): the rules decide these
    ("8 \\; ax", "(a+b)x"), ("8 \\; ac", "\\frac{a+b}{c}"),
])
def test_letters_no_expanded_product_holds_are_not_judged(
        reward: MathReward, judged: MathReward, answer: str, gold: str) -> None:
    assert not judgeable(answer, gold=gold)
    assert _both(reward, judged, gold, answer) == [0.0, 0.0]


@pytest.mark.parametrize(("answer", "gold"), [
    ("8 \\; xy", "x(y+s)"), ("8 \\; sx", "x(y+s)"), ("8 \\; ab", "(a+b)^2"),
    ("8 \\; ab", "x^2 - (a+b)x + ab"), ("8 \\; yx", "xy"),
])
def test_letters_an_expanded_product_holds_are_judged(answer: str, gold: str) -> None:
    assert judgeable(answer, gold=gold)


def test_expanded_terms() -> None:
    assert {"".join(sorted(term)) for term in _gold_terms("x(y+s)")} == {"xy", "sx"}
    assert {"".join(sorted(term)) for term in _gold_terms("(x-a)(x-b)")} == {"x", "ax", "bx", "ab"}
    assert {"".join(sorted(term)) for term in _gold_terms("I_{(-1,1)}X")} == {"IX"}


# A low single quote that opens a quotation (German `‚7‘`) is a quotation mark, as `„7“` is;
# anywhere else it is drawn as a comma.
@pytest.mark.parametrize(("answer", "gold", "score"), [
    ("‚7‘", "7", 1.0), ("‚7’", "7", 1.0), ("„7“", "7", 1.0), ("‚8‘", "7", 0.0),
    ("1‚000", "1000", 1.0), ("7‚ 8‘", "7", 0.0), ("7‚8", "7", 0.0),
])
def test_low_quotes(reward: MathReward, answer: str, gold: str, score: float) -> None:
    assert _one(reward, gold, answer) == score


@pytest.mark.parametrize(("text", "read"), [
    ("‚7‘", "‚7‘"), ("ein ‚Wort‘ hier", "ein ‚Wort‘ hier"), ("1‚000", "1,000"), ("a‚b‘", "a,b‘"),
    ("‚7 ‘", ",7 ‘"), ("‚7‘x", ",7‘x"),
])
def test_low_quote_read(text: str, read: str) -> None:
    assert read_text(text) == read == read_text(read)


# A what-if after the box whose condition the story then contradicts, told as a fact after a
# semicolon or in the next sentence with no contrast word, is a what-if (the box is kept); a
# statement that confirms the condition, doubts, negates, or states another result is not.
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
WORK = "Mia had 10 apples. She ate 3, so 10 - 3 = 7.\n\nThe answer is $\\boxed{7}$. "


@pytest.mark.parametrize(("tail", "score"), [
    ("If she had eaten 2, she would have 8; she ate 3.", 1.0),
    ("If she had eaten 2, she would have 8. She ate 3.", 1.0),
    ("Had she eaten 2, she would have 8; she ate 3.", 1.0),
    ("If she had eaten 2, she would have 8; she ate 3 (not 2).", 1.0),
    ("If she had eaten 2, she would have 8; she ate 2.", 0.0),
    ("If she had eaten 2, she would have 8. She ate 2.", 0.0),
    ("If she had eaten 2, she would have 8; she ate 1 + 1.", 0.0),
    ("If she had eaten 2, she would have 8; maybe she ate 3.", 0.0),
    ("If she had eaten 2, she would have 8; she did not eat 3.", 0.0),
    ("If she had eaten 2, she would have 8; she ate 3, so 8 are left.", 0.0),
    ("If she had eaten 2, she would have 8; she ate 3 and 8 remain.", 0.0),
    ("If she had eaten 2, she would have 8; she has 8.", 0.0),
])
def test_a_what_if_the_story_contradicts(reward: MathReward, judged: MathReward, tail: str,
                                         score: float) -> None:
    sample = Sample(STORY, WORK + tail, reference="7")
    assert [s.value for scorer in (reward, judged) for s in scorer.score([sample])] == [score, score]


# A sentence the window cuts (within `_LONG_SENTENCE`): a number in words or Roman capitals
# that a word offering another value governs is read, as a numeral is; a story told in words
# is not.
_CUT = " very" * 200
_FRIENDS = ("Each of the three friends took one apple from the basket, and then the two remaining friends each "
            "put back the apples they had borrowed earlier" + _CUT + " in the week, so the basket ends where it "
            "was after the first day.")


@pytest.mark.parametrize(("tail", "score"), [
    ("Alternatively it could" + _CUT + " well be eight.", 0.0),
    ("Alternatively it could" + _CUT + " well be VIII.", 0.0),
    ("It" + _CUT + " could be eight or nine.", 0.0),
    ("Or maybe" + _CUT + " it is nine.", 0.0),
    ("Alternatively it could" + _CUT + " well be seven.", 1.0),
    ("Alternatively it could" + _CUT + " well be VII.", 1.0),
    ("So" + _CUT + " the answer stays seven, not eight.", 1.0),
    (_FRIENDS, 1.0),
])
def test_a_number_in_words_in_a_cut_sentence(reward: MathReward, judged: MathReward, tail: str,
                                             score: float) -> None:
    sample = Sample(STORY, WORK + tail, reference="7")
    assert [s.value for scorer in (reward, judged) for s in scorer.score([sample])] == [score, score]
