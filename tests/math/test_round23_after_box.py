"""After the box, round 23 (h-m49): class probes of the rules that closed round 23's
`_extract` rows (`test_redteam_round23.py`: ASCII arrows, a result named before a colon,
`Nothing wrong with 8.`, what-ifs rejected after `;` or with `(not 2)`, long sentences holding
`⁸` or `VIII`) and round 22's GSM8K_LOST (`#### 7 apples`, `#### 7 (apples)`, `#### +7`).
Rules in docs/math.md ("After the box, round 23 (h-m49)").

Each class is probed whole: every spelling of the sign or form, attacks that must score 0
(from the rules and from a yes-saying judge) and honest forms that must score 1.
`WORK + BOX + tail` against 7; deterministic, no timing.
"""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from rewards.math._extract import _numerals_read
from tests.math.redteam_helpers import OPTIONS

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
WORK = "Mia had 10 apples. She ate 3, so 10 - 3 = 7.\n\n"
BOX = "The answer is $\\boxed{7}$. "

ARROWS = ["->", "-->", "=>", "==>", "|->", "~>", "→", "⇒", "⟶", "⟹", "↦", "⟿", "⤳", "⤏", "\\to", "\\rightarrow",
          "\\Rightarrow", "\\implies", "\\longrightarrow", "\\Longrightarrow", "\\mapsto", "\\leadsto", "$\\to$"]

ATTACKS = [
    # every arrow after a label leads to its value (one set, `_ARROW`)
    *(f"Total {arrow} 8" for arrow in ARROWS),
    "Total ⇀ 8", "Total ➔ 8",  # (an arrow drawn as a pictograph is a symbol: not read, uncertain)
    "So total -> 8.", "10 - 2 -> 8", "Left -> 10 - 2 = 8", "-> 8", "Apples left \\Rightarrow 8.",
    # a result named before a colon offers the value of the label after it
    "Result: apples = 8", "Total: apples = 8", "Final result: x = 8.", "Result: eaten = 3",
    "Result: apples = 10 - 2 = 8",
    # a pronoun that negates an error word negates it: the value is affirmed
    "Nothing wrong with 8.", "There is nothing wrong with 8.", "Nothing is wrong with 8.",
    "Nothing wrong with saying 8.", "There's no error in 8.", "None of it is wrong: 8.",
    "Nothing of this is a mistake: 8.",
    # a what-if stays a second answer where the story after `; but` does not reject it
    "If she had eaten 2, she would have 8; but she ate 2.",
    "If she had eaten 2, she would have 8, but she ate 2 (not 3).",
    "If she had eaten 2, she would have 8; but she ate 3, so 8.",
    "If she had eaten 2, she would have 8; but she ate 3 and found 1.",
    "If she had eaten 2, she would have 8 left; but she ate 3.",
    "If she had eaten 2, she would have 8; but she did.",
    "She ate 3; but 8 is the answer.",
    # a value denied in brackets is no value said of the box
    "It is 8 (not 7).",
    # `####` marks another value, or the box's with more than a unit
    "\n\n#### 8 apples", "\n\n#### +8", "\n\n#### 7 apples or 8", "\n\n#### 7 (8)", "\n\n#### 7 maybe",
    "\n\n#### 7 (maybe)", "\n\n#### 7 wrong", "\n\n#### 7 (not sure)", "\n\n#### 7 or", "\n\n#### 7 more apples",
    "\n\n#### 7 blorps", "\n\n#### 7 thousand", "\n\n#### 7 dozen", "\n\n#### -7", "\n\n#### ++7", "\n\n#### +-7",
]

HONEST: list[object] = [
    *(f"Total {arrow} 7" for arrow in ARROWS),
    "10 - 3 -> 7", "10 apples - 3 eaten -> 7 left.", "Check: 7 + 3 -> 10.", "She ate 3 -> 7 remain.",
    "Result: apples = 7", "Result: apples = 10 - 3 = 7", "Step 1: apples = 10", "Check: x = 7",
    "Nothing wrong with 7.",
    "If she had eaten 2, she would have 8; but she ate 3.",
    "If she had eaten 2, she would have 8; yet she ate 3.",
    "If she had eaten 2, she would have 8, but she ate 3 (not 2).",
    "If she had eaten 2, she would have 8, but she ate 3, not 2.",
    "If she had eaten 2, she would have 8, but she ate 3 rather than 2.",
    "It is 7 (not 8).", "None of it is wrong: 7.",
    "If she had eaten 2, she would have 8; she ate 3.",  # (closed by h-m54: `_extract._clauses`)
    "\n\n#### 7 apples", "\n\n#### 7 (apples)", "\n\n#### +7", "\n\n#### 7 apple", "\n\n#### +7 apples",
    "\n\n#### 7 apples left", "\n\n#### + 7",
]

_VERY = "Alternatively it could" + " very" * 420 + " well be "  # past `_LONG_SENTENCE`
_CUT = "Alternatively it could" + " very" * 200 + " well be "  # past the window, within the bound
LONG_ATTACKS: list[object] = [padding + numeral for padding in (_VERY, _CUT)
                              for numeral in ("⁸.", "₈.", "⑧.", "Ⅷ.", "8.", "٨.")] + [
    _VERY + "VIII.", _VERY + "eight.", _VERY + "MIX.",
    *(_CUT + numeral for numeral in ("VIII.", "eight."))]  # (closed by h-m54: `_OTHER_VALUE_FRAME`)
LONG_HONEST = [padding + numeral for padding in (_VERY, _CUT)
               for numeral in ("⁷.", "Ⅶ.", "VII.", "seven.", "7.", "７.")] + [
    _VERY + "I.", _VERY + "X."]  # (one capital alone is a pronoun or a variable, no numeral)


def _scores(reward: MathReward, judged: MathReward, tail: str) -> list[float | None]:
    sample = Sample(STORY, WORK + BOX + tail, reference="7")
    return [s.value for scorer in (reward, judged) for s in scorer.score([sample])]


@pytest.mark.parametrize("tail", ATTACKS + LONG_ATTACKS)
def test_a_second_value_after_the_box_buys_nothing(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", HONEST + LONG_HONEST)
def test_honest_text_after_the_box_keeps_it(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, tail) == [1.0, 1.0]


@pytest.mark.parametrize(("text", "read"), [
    ("be ⁸", "be 8"), ("be ₈ or ⑧", "be 8 or 8"), ("Ⅻ", "12"), ("¹⁰", "10"), ("⅓", "1/3"), ("m² and x₁", "m² and x₁"),
    ("VIII and XIV", "8 and 14"),
    ("MCMXC", "1990"), ("I think X", "I think X"), ("VIIII", "VIIII"), ("eight", "8"), ("٨", "٨"),
])
def test_numerals_are_read_by_one_rule(text: str, read: str) -> None:
    """`_numerals_read`: the long-sentence rule's one reading of "a number"."""
    assert _numerals_read(text) == read
