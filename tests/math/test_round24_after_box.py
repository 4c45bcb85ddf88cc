"""After the box, round 24 (h-m51): class probes of the rules that closed round 24a's
`_extract` rows (`test_redteam_round24a.py`: a hedge in a restatement, corrections by arrow or
verb, what follows a `####` line, look-alike dashes in ASCII arrows, result heads and lists,
negating pronouns, hedged and lost what-ifs, `####` units that hedge or change the value,
numerals past `_LONG_SENTENCE`, Roman-looking abbreviations, arrows from the working).
Rules in docs/math.md ("After the box, round 24 (h-m51)").

Each class is probed whole: attacks that must score 0 (from the rules and from a yes-saying
judge) and honest forms that must score 1. `WORK + BOX + tail` against 7; deterministic, no
timing (linear time is test_redteam_round24a's, under test_adversarial's budget).
"""

from __future__ import annotations

import unicodedata

import pytest

from rewards import Sample
from rewards.math import MathReward
from rewards.math._extract import _ARROW, _numerals_read
from tests.math.redteam_helpers import OPTIONS

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
WORK = "Mia had 10 apples. She ate 3, so 10 - 3 = 7.\n\n"
BOX = "The answer is $\\boxed{7}$. "
VERY = "Alternatively it could" + " very" * 420 + " well be "

# every dash and minus Unicode draws (category Pd, or a MINUS SIGN that is no other operation)
DASHES = [chr(code) for code in range(0x21, 0x10000) if unicodedata.category(chr(code)) == "Pd" or (
    unicodedata.name(chr(code), "").endswith("MINUS SIGN") and "PLUS" not in unicodedata.name(chr(code))
    and "WITH" not in unicodedata.name(chr(code)))]

HEDGES = ["not sure", "unsure", "maybe", "perhaps", "probably", "a guess", "I guess", "or not", "uncertain",
          "possibly", "not certain", "doubtful"]

ATTACKS = [
    # a restatement of the box's value read by the rule that reads what follows the box itself
    *(f"It is 7 ({hedge})." for hedge in HEDGES), *(f"7, {hedge}." for hedge in HEDGES),
    *(f"So 7 — {hedge}." for hedge in HEDGES), "That is 7 (?)", "It's 7, maybe.", "Thus 7 (unsure).",
    # a correction that leads the box's value to another, by arrow or by verb
    "Correction: 7 -> 8.", "Wait, 7 => 8.", "Oops: 7 \\Rightarrow 8.", "Hmm, 7 ⟶ 8.", "So 7 becomes 8.",
    "Actually 7 is now 8.", "Correction: 7 is actually 8.",
    # a short last line is read, not passed as a title (nothing follows it)
    "\nMaybe.", "\n\nNot sure.", "\nOr 8.",
    # look-alike shafts of an ASCII arrow
    *(f"Total {dash}> 8" for dash in DASHES if dash not in "\u2e3a\u2e3b\u301c\u3030"),
    "Total ->> 8", "Total −−> 8",
    # a head that names a result, by any of its names or separators
    *(f"{head} apples = 8" for head in ("Outcome:", "Conclusion:", "Verdict:", "Output:", "Results:",
                                        "Therefore:", "Hence:", "Thus:", "Ergebnis:", "Resultado:",
                                        "Result —", "Result –", "Result,")),
    "Result: eaten = 3, apples = 8.",
    # a negating pronoun negates the judgement of its clause, wherever it stands before it
    "nothing's wrong with 8.", "Nobody would call 8 wrong.", "Neither is wrong: 8.", "Ningún error en 8.",
    "Nessuno è wrong: 8.", "Aucun error: 8.", "None of us thinks 8 is wrong.",
    # a what-if whose story is hedged rejects nothing
    *(f"If she had eaten 2, she would have 8; but {story}." for story in (
        "perhaps she ate 3", "maybe she ate 3", "she probably ate 3", "I'm not sure she ate 3",
        "she possibly ate 3")),
]

HONEST = [
    "It is 7 (apples).", "It is 7 (not 8).", "It is 7, not 8.", "So 7 apples.", "It is 7 (rounded).",
    "Correction: 8 -> 7.", "So 8 becomes 7.", "So: 10 - 3 -> 7.",
    # an arrow from the working's values to the box's is a step
    "10 → 7.", "10 -> 7.", "Apples: 10 → 7.", "Start 10 ⟶ end 7.", "10 − 3 → 7.", "10 → 10 - 3 → 7.",
    # a list under a result head offers the label that names the result
    "Result: eaten = 3, left = 7.", "Result: left = 7, eaten = 3.", "Outcome: apples = 7.", "Hence: left = 7.",
    # what-ifs rejected in every placement
    "If she had eaten 2, she would have 8; but she ate 3, so she has 7.",
    "If she had eaten 2, she would have 8. But she ate 3.",
    "If she had eaten 2, she would have 8. Yet she ate 3.",
    "Had she eaten 2, she would have 8; but she ate 3.",
    "If she had eaten 2 she would have 8; but she ate 3.",
    "If she had eaten 2 she'd have 8; but she ate 3.",
    "If she had eaten 2, she would have 8 – but she ate 3.",
    "If she had eaten 2, she would have 8 (but she ate 3).",
    "If she had eaten 2, she would have 8: but she ate 3.",
]


def _scores(reward: MathReward, judged: MathReward, completion: str) -> list[float | None]:
    sample = Sample(STORY, completion, reference="7")
    return [s.value for scorer in (reward, judged) for s in scorer.score([sample])]


@pytest.mark.parametrize("tail", ATTACKS)
def test_a_hedge_or_second_value_after_the_box_scores_nothing(
    reward: MathReward, judged: MathReward, tail: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", HONEST)
def test_honest_text_after_the_box_keeps_it(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [1.0, 1.0]


@pytest.mark.parametrize("dash", DASHES)
def test_every_dash_is_an_arrow_shaft(dash: str) -> None:
    assert _ARROW.fullmatch(f"{dash}>") is not None


@pytest.mark.parametrize("tail", [
    # what follows a `####` line is read as what follows a box, with a box before or none
    *(prefix + "#### 7\n" + after for prefix in (BOX + "\n\n", "") for after in (
        "Actually 8.", "No, 8.", "Maybe.", "Or 8.", "It could also be 8.", "Total -> 8", "I'm not sure.",
        "Wait, it is 8.")),
])
def test_what_follows_a_gsm8k_line_is_read(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", ["#### 7", "#### 7\n", "#### 7 apples\n\nDone.", "#### 7\nThe answer is 7.",
                                  "#### 7\n\nHope this helps!"])
def test_an_honest_gsm8k_ending_keeps_it(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + "\n\n" + tail) == [1.0, 1.0]


@pytest.mark.parametrize(("working", "value"), [
    # a `####` unit that hedges, judges, is a letter, a percent's spelling or a part of larger money
    *((f"Mia had 10 apples, 3 {word}; 10 - 3 = 7.\n\n", f"7 {word}") for word in (
        "maybe", "perhaps", "probably", "wrong", "ish", "about", "pct", "percents", "M", "x", "n")),
    ("The pen costs 50 cents and the book 7 dollars, so 7.\n\n", "7 cents"),
    ("The pen costs 50 pence and the book £7, so 7.\n\n", "7 pence"),
])
def test_a_gsm8k_unit_that_changes_or_hedges_unsays_the_box(
    reward: MathReward, judged: MathReward, working: str, value: str
) -> None:
    assert _scores(reward, judged, working + BOX + "\n\n#### " + value) == [0.0, 0.0]


def test_cents_alone_are_a_unit(reward: MathReward, judged: MathReward) -> None:
    working = "Mia had 10 cents and spent 3 cents, so 10 - 3 = 7 cents.\n\n"
    assert _scores(reward, judged, working + BOX + "\n\n#### 7 cents") == [1.0, 1.0]


@pytest.mark.parametrize(("text", "read"), [
    ("八", "8"), ("十二", "12"), ("三百零五", "305"), ("两万", "20000"), ("一亿两千万", "120000000"),
    ("viii", "8"), ("xii", "12"), ("iii", "3"), ("ocho", "8"), ("acht", "8"), ("huit", "8"), ("sieben", "7"),
    ("восемь", "8"), ("VIII", "8"), ("be XI", "be 11"),
    # left as words: English words of Roman letters, two Roman capitals after a determiner or preposition
    ("mix", "mix"), ("civil", "civil"), ("vi", "vi"), ("the CD", "the CD"), ("in DC", "in DC"),
    ("a CV", "a CV"), ("the MD", "the MD"),
])
def test_numerals_read_past_the_long_sentence(text: str, read: str) -> None:
    assert _numerals_read(text) == read


@pytest.mark.parametrize("numeral", ["八.", "十二.", "viii.", "xii.", "ocho.", "acht.", "huit.", "otto.", "восемь.",
                                     "VIII.", "CD."])
def test_a_long_sentence_offering_another_numeral_is_not_passed(
    reward: MathReward, judged: MathReward, numeral: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + VERY + numeral) == [0.0, 0.0]


@pytest.mark.parametrize("ending", ["seven, as the CD said.", "seven, in DC.", "seven; see the CV.",
                                    "seven, said the MD.", "seven, with the DC motor.", "seven, by mix."])
def test_a_long_honest_sentence_keeps_the_box(reward: MathReward, judged: MathReward, ending: str) -> None:
    assert _scores(reward, judged, WORK + BOX + VERY + ending) == [1.0, 1.0]
