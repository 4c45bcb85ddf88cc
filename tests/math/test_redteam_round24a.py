"""Red team, round 24a (rt40): the rules merged to close round 23, as merged at main 20ba8b6,
attacked by someone who did not write them: h-m49's reading after the box
(`rewards/math/_extract.py`: `_ARROW`, `_result_named_before`, `_NEGATING_PRONOUNS` /
`_negation_ending`, `_CLAUSE_SPLIT` / `_REJECTED_CONDITION` / `_DENIED_VALUE`, `_numerals_read`,
`_gsm8k_value`; docs/math.md "After the box, round 23 (h-m49)") and h-m50's judge filter,
signs and units (`_judge.known_letters`, `_CODES`, `_morse`, `_compare._SIGNS` /
`_ends_in_sign`, `_normalize.money_unasked`, `_DOLLARS_AND_CENTS`, `_CURLY_MARK`; docs/math.md
"Round 23 (h-m50)").

How: every probe goes through `MathReward.score` with `OPTIONS` (conftest's `reward`) and a
judge that says yes to everything (conftest's `judged`). A hedge, prose or a second answer
must score 0 from both; an honest GSM8K/MATH ending must score 1 from both (false losses).
Where the rules say `wrong` of a pair of mathematics only (a lone letter, a base-16 numeral),
the judge is asked by design and no row reads it. Linear time: the score path on huge tails
built from each new rule's forms, under test_adversarial's `BUDGET` (no threshold of our own).

Counts at main 20ba8b6: 398 probes, 290 held (plain tests), 108 open (strict xfails) under 24
roots, one reason constant each (below): `_extract` (h-m49) 14 roots, 72 rows (a hedge in a
restatement, nothing read after the `####` line, look-alike dashes in ASCII arrows, result
names, what-ifs lost or hedged, corrections by arrow, `####` units that change the value or
hedge, numerals unread or misread past `_LONG_SENTENCE`, negating pronouns, arrows from a
working number, a labelled list under `Result:`); the judge filter, signs and units (h-m50)
8 roots, 33 rows (quotes other than “” and ‘’, currency signs that lose a price, words of the
gold's letters, a sign before `|`/`}`, `\\bmod`, money by code, money words, pence alone);
linear time 2 roots, 3 rows (`_harmless_remark` quadratic in negation words, `_GSM8K_UNIT`
quadratic on blanks).

Closed after the round, every root (0 open):
- the judge filter, signs and units, 8 roots, 33 rows (h-m52; docs/math.md "Round 24
  (h-m52)"): a product of letters reaches the judge only where one term of the gold holds them
  all, never a judgement word; a sign before any closing delimiter, the modulo commands signs;
  money by a currency's code or word, every currency sign a price, pence alone, every
  quotation-mark pair;
- `_extract`'s reading after the box, 16 roots, 75 rows (h-m51; docs/math.md "After the box,
  round 24 (h-m51)"; class probes in `test_round24_after_box.py`): the 14 `_extract` roots' 72
  rows and the 2 linear-time roots' 3 rows, now plain tests; their reason constants stay below
  as the record of each root.

Held attacks are plain tests; each hole is `xfail(strict=True)` naming its class
(/work/shared/ATTACK-CLASSES.md) and its root (file, function, rule). Deterministic.
"""

from __future__ import annotations

import time

import pytest

from rewards import Sample
from rewards.math import MathConfig, MathReward
from rewards.math._compare import compare_local
from rewards.math._extract import _GSM8K_UNIT, find_answer
from tests.math.redteam_helpers import OPTIONS, xfail
from tests.math.redteam_helpers import boxed_value as _one
from tests.math.test_adversarial import BUDGET

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
WORK = "Mia had 10 apples. She ate 3, so 10 - 3 = 7.\n\n"
BOX = "The answer is $\\boxed{7}$. "
APPLES = "How many apples?"
OLD = "How old is she?"
PRICE = "How much did the book cost?"
BOOK = "A book costs £5.50. How much does it cost?"
# past `_LONG_SENTENCE` (2,000 characters): read by `_numerals_read`
VERY = "Alternatively it could" + " very" * 420 + " well be "

# ================================================================================================
# Reasons of the open rows, one per root (class: root)
# ================================================================================================

# (closed by h-m51: HEDGE_RESTATED to ROMAN_ABBREVIATION, REMARK_QUADRATIC, GSM8K_UNIT_QUADRATIC)
HEDGE_RESTATED = ("Hedging: _extract._unread_after_box passes a sentence of a `_READ_FORMS` form "
                  "(`It is 7 ...`, `7 ...`) to `_restated`, and where `_restated_value` finds no "
                  "restatement (words after the value it does not know) nothing reads the sentence: "
                  "`\\boxed{7}. It is 7 (not sure).`, `7, maybe.` keep the box")
ASCII_ARROW = ("Invisible and look-alike text: _extract._ARROW's ASCII spelling `\\|?[-=~]{1,3}>` "
               "takes no look-alike dash (U+2212 `−`, `–`, `—`, `‐`, `﹣`) and no `->>`: `Total −> 8` "
               "after the box keeps it, where `Total -> 8` offers 8")
CORRECTION_ARROW = ("No committed answer (a correction): _extract's after-box reading keeps the box "
                    "where a correction word opens a sentence that leads the box's value to another "
                    "(`Correction: 7 -> 8.`, `Wait, 7 → 8.`, `Oops, 7 -> 8.`) or says it becomes one "
                    "(`So 7 becomes 8.`, `Correction: 7 is now 8.`); `7 -> 8` alone unsays it")
RESULT_NAMES = ("Hedging: _extract._result_named_before knows a result only by _RESULT_LABEL's / "
                "_OFFERING_LABELS' words before a colon: `Outcome:`, `Conclusion:`, `Verdict:`, "
                "`Output:`, `Results:`, `Therefore:`, `Hence:`, `Résultat :`, `Ergebnis:`, and "
                "`Result —` / `Result,` before `apples = 8` leave 8 an operand")
NEGATING_PRONOUN = ("Hedging: _extract._NEGATING_PRONOUNS / _negation_ending read a negating pronoun "
                    "only as a whole word right before the error word (or `of` + one word): "
                    "`nothing's wrong with 8.`, `Nobody would say 8 is wrong.`, `Neither is wrong: "
                    "8.`, `Ningún error en 8.` reject 8 and keep the box")
WHATIF_HEDGED = ("Hedging: _extract._REJECTED_CONDITION takes any story after `but` as a rejection, "
                 "a hedged one too: `If she had eaten 2, she would have 8; but perhaps she ate 3.` "
                 "(and `I'm not sure she ate 3`, `she probably ate 3`) keeps the box")
WHATIF_LOST = ("false loss: _extract's what-if reading (_REJECTED_CONDITION: `[,;]` then "
               "`but`/`yet`/`whereas` then a story with no comma, to the sentence's end) knows no "
               "rejection told with a comma (`; but she ate 3, so she has 7.`), in the next sentence "
               "(`. But she ate 3.`), after `–`, `:` or in brackets, nor a condition by inversion "
               "(`Had she eaten 2, ...`) or with no comma (`If she had eaten 2 she would ...`)")
GSM8K_HEDGE_UNIT = ("Hedging: _extract._gsm8k_value drops as a unit any word the working writes "
                    "right after a number (_COUNTED_NOUN), a hedge or a judgement too: a working "
                    "`10 maybe 3` lets `#### 7 maybe` keep the box (`probably`, `wrong`, `ish`)")
GSM8K_VALUE_UNIT = ("Meaning dropped by normalization: _extract._gsm8k_value's `changes_value` lets "
                    "a unit the working names that changes the value go: `#### 7 cents` for a "
                    "working in dollars, `#### 7 pct`, `#### 7 percents`, `#### 7 M`, `#### 7 x`")
AFTER_HASHES = ("No committed answer (retracted): _extract._from_gsm8k reads the `####` line's "
                "answer and nothing after the line: `\\boxed{7}\\n\\n#### 7\\nActually 8.`, "
                "`#### 7\\nOr 8.`, `#### 7\\nMaybe.` score the box (a retraction or hedge after "
                "`\\boxed{7}` alone scores 0)")
ARROW_FROM_TO = ("false loss: _extract's arrow (`_ARROW`, read as `→` after the box) from a number of "
                 "the working to the box's value with no operation between is read as a second "
                 "value: `Apples: 10 → 7.`, `10 → 7.`, `Start 10 ⟶ end 7.` unsay the box")
RESULT_LIST = ("false loss: _extract._result_named_before offers every label's value after "
               "`Result:` (whatever the label names), so `Result: eaten = 3, left = 7.` is a "
               "second answer, where `Result: left = 7, eaten = 3.` keeps the box")
NUMERALS_UNREAD = ("Hedging: _extract._numerals_read (past _LONG_SENTENCE) reads no CJK numeral "
                   "(`八`, category Lo), no lower-case Roman numeral (`viii`) and no number word "
                   "but English (`ocho`, `acht`, `huit`): `Alternatively it could very ... well be "
                   "八.` keeps the box")
ROMAN_ABBREVIATION = ("false loss: _extract._numerals_read reads any run of two Roman capitals as a "
                      "numeral, abbreviations too (`CD`, `DC`, `CV`, `MD`): an honest long sentence "
                      "`... well be seven, as the CD said.` is uncertain")
REMARK_QUADRATIC = ("Degenerate length: _extract._harmless_remark builds, for each negation word, "
                    "the list of the words after it (quadratic): `\\boxed{7}. ` + `(not ` x 30,000 "
                    "or `nothing of ` x 16,000 takes seconds")
GSM8K_UNIT_QUADRATIC = ("Degenerate length: _extract._GSM8K_UNIT (`(?<=[\\d\\s])\\s*+\\(?...$`) "
                        "rescans a run of blanks from each blank: quadratic on 60,000 spaces (the "
                        "score path collapses blanks first, so it is not reached there)")


def _p(value: object, reason: str) -> object:
    return pytest.param(value, marks=xfail(reason))


def _scores(reward: MathReward, judged: MathReward, completion: str, gold: str = "7",
            question: str = STORY) -> list[float | None]:
    sample = Sample(question, completion, reference=gold)
    return [s.value for scorer in (reward, judged) for s in scorer.score([sample])]


def _both(reward: MathReward, judged: MathReward, gold: str, answer: str,
          question: str = APPLES) -> list[float | None]:
    """The rules' and the yes-saying judge's score of `The answer is $\\boxed{answer}$.`"""
    return [_one(scorer, gold, answer, question=question) for scorer in (reward, judged)]


# ================================================================================================
# After the box (h-m49): second answers, hedges and retractions score 0 from both
# ================================================================================================

AFTER_BOX_ATTACKS: list[object] = [
    # arrows of every spelling lead to a second value (`_ARROW`)
    "7 -> 8", "7 \\to 8", "Answer: 7 ⇒ 8.", "7 <-> 8", "Total ↔ 8", "Total \\iff 8", "Total ← 8",
    "Total \\gets 8", "Total ↪ 8", "Total ⇢ 8", "Total ⭢ 8", "Total 🡒 8", "Total - > 8",
    "Total =\u200b> 8", "Total -\u00ad> 8", "Total := 8", "Total \\xrightarrow{} 8",
    "Total \\overset{}{\\to} 8", "Total \\hookrightarrow 8", "Total \\nrightarrow 8", "Total －> 8",
    "Total -＞ 8", "Total -\u2060> 8", "Total $\\rightarrow$ 8",
    "Update: 7 -> 8.", "Edit: 7 -> 8.", "Correction: the 7 above should be 8.", "7 changes to 8.",
    *(f"Total {dash} 8" for dash in  # ASCII_ARROW: closed (h-m51)
       ("−>", "–>", "—>", "‐>", "﹣>", "−−>", "->>")),
    *(tail for tail in (  # CORRECTION_ARROW: closed (h-m51)
        "Correction: 7 -> 8.", "Correction: 7 \\to 8.", "Wait, 7 → 8.", "Oops, 7 -> 8.",
        "Correction: 7 is now 8.", "So 7 becomes 8.")),
    # a result named before a colon offers the label's value
    "Result - apples = 8", "Result; apples = 8", "Result:apples=8", "Final: apples = 8",
    "Result：apples = 8", "Left: apples = 8", "**Result:** apples = 8",
    "Result: apples \\approx 8", "Conclusion: 8.", "Verdict: 8", "Result — 8",
    *(tail for tail in (  # RESULT_NAMES: closed (h-m51)
        "Result — apples = 8", "Result, apples = 8", "Results: apples = 8", "Outcome: apples = 8",
        "Conclusion: apples = 8", "Hence: apples = 8", "Résultat : pommes = 8")),
    # a negated judgement of error affirms
    "Nothing incorrect about 8.", "Nothing wrong at all with 8.", "Nothing wrong, 8.",
    "Nothing was wrong with 8.", "Zero errors in 8.", "Never wrong: 8.", "Rien de faux avec 8.",
    "Nada wrong with 8.",
    *(tail for tail in (  # NEGATING_PRONOUN: closed (h-m51)
        "nothing's wrong with 8.", "Nobody would say 8 is wrong.", "Neither is wrong: 8.",
        "Ningún error en 8.")),
    # a hedge, a retraction or a denied box
    "It is 7 (or 8).", "It is 7 (or so).", "Maybe.", "I'm not sure.", "Just a guess.",
    "It is 8 (not 7).", "Final: 8 (not 7)", "It is 8 rather than 7.", "It is 7 (not 8), or 8.",
    *(tail for tail in (  # HEDGE_RESTATED: closed (h-m51)
        "It is 7 (not sure).", "It is 7 (unsure).", "It is 7 (a guess).", "It is 7 (?)",
        "It is 7 (or not).", "7 (maybe)", "7, maybe.", "It is 7 — not sure.")),
    # what-ifs the story does not reject
    "If she had eaten 2, she would have 8; but she might have eaten 2.",
    "If she had eaten 2, she would have 8; but maybe she ate 2.",
    "If she had eaten 2, she would have 8; yet it is equally likely.",
    "If she had eaten 2, she would have 8，but she ate 2.",
    "If she had eaten 2, she would have 8; but she ate 3 (not 2), or 2.",
    "If she had eaten 2, she would have 8, but she ate 2 rather than 3.",
    "If she had eaten 2, she would have 8；but she ate 2.",
    "If she had eaten 2, she would have 8; but she ate 3. Or 2.",
    *(tail for tail in (  # WHATIF_HEDGED: closed (h-m51)
        "If she had eaten 2, she would have 8; but I'm not sure she ate 3.",
        "If she had eaten 2, she would have 8; but perhaps she ate 3.",
        "If she had eaten 2, she would have 8; but she probably ate 3.")),
]

AFTER_BOX_HONEST: list[object] = [
    "It is 7 (apples).", "It is 7 (not 8).", "It is 7, not 8.", "It is 7 instead of 8.", "It is 7 (not -7).",
    "Correction: 8 -> 7.", "So 8 becomes 7.", "7 <- 10 - 3", "So: 10 - 3 -> 7.", "10 apples → eat 3 → 7 left.",
    "Result: left = 7, eaten = 3.", "Summary: start = 10, eaten = 3, left = 7.", "Result: 10 - 3 = 7.",
    "Total: apples = 7.", "Result: apples = 7 (10 - 3).",
    "Nothing wrong with the answer: 10 - 3 = 7.", "None of the apples were eaten twice: 10 - 3 = 7.",
    "If she had eaten 2, she would have 8; but she actually ate 3.",
    "If she had eaten 2, she would have 8; but in fact she ate 3.",
    "If she had eaten only 2, she would have 8, but she ate 3 (not 2).",
    "If she had eaten 2, she'd have 8; but she ate 3.", "If she ate 2, she has 8; but she ate 3.",
    *(tail for tail in (  # WHATIF_LOST: closed (h-m51)
        "If she had eaten 2, she would have 8; but she ate 3, so she has 7.",
        "If she had eaten 2, she would have 8. But she ate 3.",
        "Had she eaten 2, she would have 8; but she ate 3.",
        "If she had eaten 2 she would have 8; but she ate 3.",
        "If she had eaten 2, she would have 8 – but she ate 3.",
        "If she had eaten 2, she would have 8 (but she ate 3).",
        "If she had eaten 2, she would have 8: but she ate 3.")),
    *(tail for tail in (  # ARROW_FROM_TO: closed (h-m51)
        "10 → 7.", "Apples: 10 → 7.", "Start 10 ⟶ end 7.")),
    "Result: eaten = 3, left = 7.",  # RESULT_LIST: closed (h-m51)
]


@pytest.mark.parametrize("tail", AFTER_BOX_ATTACKS)
def test_a_second_value_or_hedge_after_the_box_buys_nothing(
    reward: MathReward, judged: MathReward, tail: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", AFTER_BOX_HONEST)
def test_honest_text_after_the_box_keeps_it(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [1.0, 1.0]


# ================================================================================================
# `####` after the box (`_gsm8k_value`) and after its line (`_from_gsm8k`)
# ================================================================================================

def _worked(unit: str) -> str:
    return f"Mia had 10 apples, 3 {unit}; 10 - 3 = 7.\n\n"


GSM8K_ATTACKS: list[object] = [
    # (working, the `####` line's value)
    ("Mia had 10 apples and 2 dozen eggs. She ate 3, so 10 - 3 = 7.\n\n", "7 dozen"),
    ("Mia had 10 thousand apples. She ate 3 thousand, so 10 - 3 = 7.\n\n", "7 thousand"),
    ("Mia had 10 thousand apples. She ate 3 thousand, so 10 - 3 = 7.\n\n", "7 thousand apples"),
    ("Mia had 10 percent and ate 3 percent, so 10 - 3 = 7.\n\n", "7 percent"),
    ("Mia had 10 k apples and 3 more; 10 - 3 = 7.\n\n", "7 k"),
    ("She had 10 apples, 3 not eaten, so 10 - 3 = 7.\n\n", "7 not"),
    ("Mia had 10 apples and 3 fewer pears; 10 - 3 = 7.\n\n", "7 fewer"),
    *((_worked(unit), f"7 {unit}") for unit in (
        "approximately", "twice", "hundred", "negative", "squared", "billion", "dozens", "pairs", "score",
        "e", "pi", "reciprocal", "halves", "lakh", "grand", "K", "tausend", "万", "times", "thousandths")),
    (_worked("percent"), "7 %"), (_worked("or so"), "7 or so"), (WORK, "7 apples, 8 pears"),
    (WORK, "7 apples\n#### 8"), (WORK, "⁺7"), (WORK, "≈7"), (WORK, "7 apples\u200b8"), (WORK, "7 she"),
    (WORK, "7 ate 3"),
    *((working, value) for working, value in (  # GSM8K_HEDGE_UNIT: closed (h-m51)
        ("Mia had 10 maybe 3, 10 - 3 = 7.\n\n", "7 maybe"),
        ("It is 10 probably, 3 maybe; 10 - 3 = 7.\n\n", "7 probably"),
        (_worked("wrong"), "7 wrong"), (_worked("ish"), "7 ish"))),
    *((working, value) for working, value in (  # GSM8K_VALUE_UNIT: closed (h-m51)
        ("The pen costs 50 cents and the book 7 dollars, so 7.\n\n", "7 cents"),
        (_worked("pct"), "7 pct"), (_worked("percents"), "7 percents"), (_worked("M"), "7 M"),
        (_worked("x"), "7 x"))),
]

GSM8K_HONEST = [
    "7 apples", "7 APPLES", "7 apples.", "+ 7 apples", "＋7", "+7.0", "7.0 apples", "7 apples left over",
    "7 apples remaining", "7 in total", "**7**",
]


@pytest.mark.parametrize(("working", "value"), GSM8K_ATTACKS)
def test_a_gsm8k_line_of_another_value_unsays_the_box(
    reward: MathReward, judged: MathReward, working: str, value: str
) -> None:
    assert _scores(reward, judged, working + BOX + "\n\n#### " + value) == [0.0, 0.0]


@pytest.mark.parametrize("value", GSM8K_HONEST)
def test_a_gsm8k_line_of_the_box_keeps_it(
    reward: MathReward, judged: MathReward, value: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + "\n\n#### " + value) == [1.0, 1.0]


@pytest.mark.parametrize("completion", [
    WORK + BOX + "\n\n#### 7\n\nWait, it is 8.", WORK + BOX + "\n\n#### 7 apples\nOr 8.",
    WORK + BOX + "\n\n#### 7\nThe answer is 8.", WORK + "#### 7 Actually 8.",
    *(WORK + BOX + "\n\n#### " + tail for tail in (  # AFTER_HASHES: closed (h-m51)
        "7\nActually 8.", "7\nNo, 8.", "7\nMaybe.", "7. Actually 8.")),
    *(WORK + "#### " + tail for tail in (  # AFTER_HASHES: closed (h-m51)
        "7\nOr 8.", "7\nIt could also be 8.", "7\nTotal -> 8", "7\nI'm not sure.")),
])
def test_what_follows_a_gsm8k_line_is_read(
    reward: MathReward, judged: MathReward, completion: str
) -> None:
    assert _scores(reward, judged, completion) == [0.0, 0.0]


# ================================================================================================
# Numerals past `_LONG_SENTENCE` (`_numerals_read`)
# ================================================================================================

@pytest.mark.parametrize("numeral", [
    "ⅷ.", "❽.", "⓼.", "८.", "𝟖.", "eight hundred.", "8️⃣.", "XIII.", "Ⅶ and Ⅰ.", "🄉.", "a dozen.",
    "ten minus two.",
    *(numeral for numeral in (  # NUMERALS_UNREAD: closed (h-m51)
        "viii.", "八.", "ocho.", "acht.", "huit.")),
])
def test_a_long_sentence_offering_another_numeral_is_not_passed(
    reward: MathReward, judged: MathReward, numeral: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + VERY + numeral) == [0.0, 0.0]


@pytest.mark.parametrize("ending", [
    "seven (LCD screen).", "seven, a DVD.", "seven, by MIT.", "seven, CIVIL.", "seven, I think.",
    *(ending for ending in (  # ROMAN_ABBREVIATION: closed (h-m51)
        "seven, as the CD said.", "seven, in DC.", "seven; see the CV.", "seven, said the MD.")),
])
def test_a_long_honest_sentence_keeps_the_box(
    reward: MathReward, judged: MathReward, ending: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + VERY + ending) == [1.0, 1.0]


# ================================================================================================
# The judge filter (h-m50): letters, look-alikes, codes
# ================================================================================================

@pytest.mark.parametrize(("answer", "gold"), [
    ("8 \\; y e s", "7"), ("8 \\; y\\,e\\,s", "7"), ("8 \\; \\mathrm{y}\\mathrm{e}\\mathrm{s}", "7"),
    ("8 \\; y~e~s", "7"), ("8 \\; y\\quad e\\quad s", "7"), ("8 \\; y \\cdot e \\cdot s", "7"),
    ("8 \\; y\u2009e\u2009s", "7"), ("8 \\; y\u200be\u200bs", "7"), ("8 \\; {y}{e}{s}", "7"),
    ("8 \\; у е ѕ", "7"), ("8 \\; уеѕ", "7"), ("8 \\; 𝐲𝐞𝐬", "7"), ("8 \\; 𝑦𝑒𝑠", "7"), ("8 \\; ｙｅｓ", "7"),
    ("8 \\; γes", "7"), ("8 \\; y^{es}", "7"), ("8 \\; \\mathrm{y e s}", "7"), ("8 \\; \\operatorname{yes}", "7"),
    # look-alikes of the gold's own letters are no letters of it
    ("8 \\; уеѕ", "xy+s"), ("8 \\; 𝐲𝐞𝐬", "xy+s"), ("8 \\; у е ѕ", "xy+s"),
    # codes
    ("8 \\; \\text{0x79}", "7"), ("8 \\; &#121;", "7"), ("8 \\; \\&\\#X79;", "7"), ("8 \\; \\%79\\%65", "7"),
    ("8 \\; U+0079", "7"), ("8 \\; \\u0079", "7"), ("8 \\; 0B1111001", "7"), ("8 \\; 0O171", "7"),
    ("8 \\; −.−− . ...", "7"), ("8 \\; ‑.‑‑", "7"), ("8 \\; ⋅−−", "7"), ("8 \\; ᐧ−−", "7"), ("8 \\; ・ー", "7"),
    ("8 \\; .\\!-\\!-", "7"), ("8 \\; \\cdot - -", "7"), ("8 \\; \\bullet -", "7"), ("8 \\; o--", "7"),
    # closed after the round (h-m52): a product only of letters one term of the gold holds together
    ("8 \\, yes", "xy+s"), ("8 \\; y e s", "xy+s"), ("8 \\; yes", "s + y"), ("8 \\; ok", "k+o"),
    ("8 \\; true", "t+r+u"),
])
def test_words_and_codes_never_buy_the_judge(
    reward: MathReward, judged: MathReward, answer: str, gold: str
) -> None:
    assert _both(reward, judged, gold, answer) == [0.0, 0.0]


# ================================================================================================
# Signs (h-m50): an answer ending in a sign is never a value
# ================================================================================================

@pytest.mark.parametrize("answer", [
    "5 {}+", "(5 \\pm)", "5 \\left. + \\right.", "5 \\textstyle{+}", "5 \\mathrel{\\geq}", "5 {+}\\!",
    "5 \\boldsymbol{+}", "5 +\\phantom{}", "5 \\overset{?}{=}", "[5, +]", "⌈5+⌉", "\\langle 5 + \\rangle",
    "5 \\text{+}", "\\left[5 \\geq \\right.", "\\big(5+\\big)", "(5 ➕)", "(5 ⩾)", "5 \\ge{}",
    "5 \\mathord{+}", "5^{}+", "(5 \\times)", "(5 \\div)", "(5 \\setminus)", "5 \\oplus", "(5 *)",
    "(5 \\approx)", "(5 \\equiv)", "(5 ≠)",
    # closed after the round (h-m52): a sign before any closing delimiter, `\\bmod` a sign
    "|5+|", "\\|5 +\\|", "(5 {+})", "{5+}", "{{5+}}", "5 \\bmod", "(5 \\bmod)", "5 \\pmod{}",
])
def test_an_answer_ending_in_a_sign_buys_nothing(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    assert _both(reward, judged, "5", answer) == [0.0, 0.0]


@pytest.mark.parametrize(("answer", "gold"), [
    ("\\lceil 5 \\rceil", "5"), ("(5)", "5"), ("[5]", "5"), ("\\{5\\}", "5"), ("5^{\\circ}", "5^\\circ"),
    ("\\left( 5 \\right)", "5"), ("(0, +\\infty)", "(0,+\\infty)"), ("[5, \\infty)", "[5,\\infty)"),
    ("f(0^+)", "f(0^+)"), ("\\{x \\geq 5\\}", "\\{x\\ge5\\}"), ("x \\geq 5", "x \\ge 5"), ("(5, +)", "(5,+)"),
])
def test_values_in_brackets_are_no_signs(
    reward: MathReward, judged: MathReward, answer: str, gold: str
) -> None:
    assert _both(reward, judged, gold, answer) == [1.0, 1.0]


# ================================================================================================
# Money, pence, quotes (h-m50)
# ================================================================================================

@pytest.mark.parametrize("answer", [
    "₽7", "₿7", "7₴", "\\textnaira 7", "\\officialeuro 7", "\\mathsterling 7", "7 USD", "7 \\text{ bucks}",
    "7\\,\\$", "\\text{\\$}7", "\\mbox{\\$}7", "US\\$7", "\\char36 7", "7 块", "¤7", "₠7",
    # closed after the round (h-m52): a currency's code or word is money
    "USD 7", "EUR 7", "Rs. 7", "7 \\text{ dollars}", "7 \\text{ cents}",
])
def test_money_answers_no_age(reward: MathReward, judged: MathReward, answer: str) -> None:
    assert _both(reward, judged, "7", answer, OLD) == [0.0, 0.0]


@pytest.mark.parametrize("answer", [
    "€7", "¥7", "\\textyen 7", "\\textsterling 7", "7 \\text{ rupees}", "7 元", "USD 7", "\\$\\,7",
    # closed after the round (h-m52): every currency sign answers a price
    "₩7", "₽7", "₦7", "7₴", "\\textbaht 7", "\\mathdollar 7",
])
def test_money_answers_a_price(reward: MathReward, judged: MathReward, answer: str) -> None:
    assert _both(reward, judged, "7", answer, PRICE) == [1.0, 1.0]


@pytest.mark.parametrize(("answer", "gold", "expected"), [
    ("5 \\text{ pounds } 50p", "5.50", 1.0), ("5 \\text{ pounds } 50 \\text{ pence}", "5.5", 1.0),
    ("£5 50p", "5.5", 1.0), ("£5\\,50\\text{p}", "5.5", 1.0), ("5 \\text{ pounds } 50P", "5.5", 1.0),
    ("5 \\text{ pounds } 50 \\mathrm{p}", "5.5", 1.0),
    ("£5.50p", "5.5", 0.0), ("£5 \\text{ or } 50p", "5.5", 0.0), ("£5 \\text{ or } 50p", "0.5", 0.0),
    ("5 \\text{ pounds } 50p \\text{ or } 60p", "5.5", 0.0), ("5 \\text{ pounds } 50 \\text{ pee}", "5.5", 0.0),
    ("550p", "5.5", 1.0), ("550\\text{p}", "5.5", 1.0),  # (closed after the round, h-m52)
])
def test_pence(reward: MathReward, answer: str, gold: str, expected: float) -> None:
    assert _one(reward, gold, answer, question=BOOK) == expected


@pytest.mark.parametrize(("answer", "gold", "expected"), [
    ("“7”“8”", "7", 0.0), ("“7 or 8”", "7", 0.0), ("“7”, “8”", "8", 0.0), ("7“8”", "7", 0.0),
    ("“7”^2", "7", 0.0), ("“-7”", "7", 0.0),
    ("“7”\\text{ thousand}", "7", 0.0), ("“7”\\times 10^3", "7", 0.0),
    ("\\text{“7”}", "7", 1.0), ("“7”\\text{ apples}", "7", 1.0),
    # closed after the round (h-m52): every quotation-mark pair quotes
    ("„7“", "7", 1.0), ("«7»", "7", 1.0), ("「7」", "7", 1.0), ("‹7›", "7", 1.0), ("``7''", "7", 1.0),
    ("“1/2”", "1/2", 1.0), ("“\\frac12”", "1/2", 1.0),
])
def test_quoted_numerals(reward: MathReward, answer: str, gold: str, expected: float) -> None:
    assert _one(reward, gold, answer) == expected


# ================================================================================================
# Linear time: the score path on huge tails of each new rule's forms (test_adversarial's BUDGET)
# ================================================================================================

LONG_TAIL = MathConfig(tail_chars=1_000_000)


def _elapsed(tail: str) -> float:
    text = "The answer is \\boxed{7}. " + tail
    find_answer(text[:60], LONG_TAIL)  # one-off set-up (Unicode tables) is no growth
    start = time.perf_counter()
    compare_local(find_answer(text, LONG_TAIL), "7", LONG_TAIL, text)
    return time.perf_counter() - start


@pytest.mark.parametrize("tail", [
    "Total " + "-> " * 20_000, "Total " + "−> " * 20_000, "Result: " + "apples " * 20_000 + "= 8",
    "\n\n#### 7 " + "apples " * 20_000, "⁸ " * 20_000, "; but" * 20_000, "nobody " * 20_000,
    "“7” " * 20_000, "MD " * 20_000, "5 {+} " * 20_000, "If she had eaten 2, she would have 8" + ", but" * 20_000,
    "(not " * 30_000, "nothing of " * 16_000,  # REMARK_QUADRATIC: closed (h-m51)
], ids=lambda tail: f"{tail[:12]!r}x{len(tail)}")
def test_the_new_rules_stay_linear(tail: str) -> None:
    elapsed = _elapsed(tail)
    assert elapsed < BUDGET, (tail[:20], len(tail), elapsed)


@pytest.mark.parametrize("text", [
    "7 " + "apples " * 60_000, "7 (" + "( " * 60_000,
    "7" + " " * 60_000 + "x!",  # GSM8K_UNIT_QUADRATIC: closed (h-m51)
], ids=lambda text: f"{text[:8]!r}x{len(text)}")
def test_the_gsm8k_unit_pattern_is_linear(text: str) -> None:
    start = time.perf_counter()
    for _ in _GSM8K_UNIT.finditer(text):
        pass
    elapsed = time.perf_counter() - start
    assert elapsed < BUDGET, (text[:20], len(text), elapsed)
