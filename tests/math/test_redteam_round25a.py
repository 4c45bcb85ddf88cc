"""Red team, round 25a (rt43): h-m51's reading after the box (`rewards/math/_extract.py`, diff
6ceea11..beb6330; docs/math.md "After the box, round 24 (h-m51)"), attacked by someone who did
not write it: `_said_of_restatement` (a restatement read by the after-box rule), what follows a
`####` line (`_final_answer`, `_GSM8K_NUMBER`), dash arrow shafts (`_ARROW`), arrows from the
working to the box (`_arrow_to_the_box`), negating pronouns at any distance (`_unnegated`),
what-ifs (`_CONDITION`, `_REJECTED_CONDITION`, `_derived_values`), `####` units (`_gsm8k_unit`,
`_MONEY_PARTS`, `_LARGER_MONEY`), numerals past `_LONG_SENTENCE` (`_numerals_read`:
`_OTHER_NUMBERS`, `_CJK_NUMERAL` / `_cjk_value`, `_LOWER_ROMAN`, `_BEFORE_ABBREVIATION`).

How: every probe goes through `MathReward.score` with `OPTIONS` (conftest's `reward`) and a
judge that says yes to everything (conftest's `judged`), against a gold of 7 (the story: 10
apples, 3 eaten). A hedge, a correction, a second value must score [0, 0]; an honest GSM8K/MATH
ending must score [1, 1] (false losses). Huge inputs assert a verdict only (no timing).

Counts at main eeed2af: 375 probes, 247 held (plain tests), 128 open (strict xfails) under
26 roots, one reason constant each (below):
- false wins, 17 roots, 96 rows: ARROW_STEP_UNREAD 14, RESTATED_HEDGE_WORDS 9,
  RESTATED_LONG_HEDGE 3, RESTATED_FORM 3, CORRECTION_FORMS 4, RESTATED_OTHER_NUMERAL 4,
  GSM8K_LINE_FORMS 6, GSM8K_SECOND_LINE_JUDGED 3 (the yes-saying judge's 1), LONG_OTHER_WORDS_UNREAD 17,
  LONG_CJK_FORMAL_UNREAD 5, LONG_ROMAN_AFTER_PREPOSITION 4, LONG_LOWER_ROMAN_UNREAD 7,
  WHATIF_HEDGE_WORDS 3, NEGATING_PRONOUN_LANGUAGES 2, GSM8K_MONEY_PARTS 9, GSM8K_VALUE_WORDS 1,
  CJK_VALUE_OVERFLOW 2 (a ValueError raised out of `MathReward.score`);
- false losses, 9 roots, 32 rows: LONG_NUMBER_WORD_COLLISION 11, LONG_CJK_WORD_COLLISION 3,
  LONG_PLACEHOLDER_ROMAN 2, NEGATING_PRONOUN_DISTANCE 3, WHATIF_NEGATED_STORY 5,
  RESTATED_DENIED_LIST 4, RESTATED_COMPARISON_LOSS 2, GSM8K_CENTS_LOSS 1, GSM8K_LETTER_UNIT_LOSS 1.

h-m57 closed 73 rows (rewards/math/_extract.py; docs/math.md "After the box, round 25"): every row of
ARROW_STEP_UNREAD, RESTATED_HEDGE_WORDS, RESTATED_FORM, CORRECTION_FORMS, RESTATED_OTHER_NUMERAL,
LONG_CJK_FORMAL_UNREAD, LONG_ROMAN_AFTER_PREPOSITION, LONG_LOWER_ROMAN_UNREAD, WHATIF_HEDGE_WORDS,
CJK_VALUE_OVERFLOW, LONG_CJK_WORD_COLLISION, LONG_PLACEHOLDER_ROMAN, RESTATED_DENIED_LIST,
RESTATED_COMPARISON_LOSS, and all but one of GSM8K_LINE_FORMS and GSM8K_SECOND_LINE_JUDGED; 55 stay open.
h-m58 closed 19 more (rewards/math/_extract.py; docs/math.md "After the box, round 25 (h-m58)"): the last
rows of GSM8K_LINE_FORMS and GSM8K_SECOND_LINE_JUDGED, and every row of GSM8K_MONEY_PARTS, GSM8K_VALUE_WORDS,
GSM8K_CENTS_LOSS, GSM8K_LETTER_UNIT_LOSS and WHATIF_NEGATED_STORY; 36 stay open.

Held attacks are plain tests; each hole is `xfail(strict=True)` naming its class
(/work/shared/ATTACK-CLASSES.md) and its root (file, function, rule). Deterministic.
"""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from tests.math.redteam_helpers import OPTIONS, xfail

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
PRICE = "How much did the book cost?"
WORK = "Mia had 10 apples. She ate 3, so 10 - 3 = 7.\n\n"
BOX = "The answer is $\\boxed{7}$. "
# past `_LONG_SENTENCE` (2,000 characters): read by `_numerals_read`
VERY = "Alternatively it could" + " very" * 420 + " well be "

# ================================================================================================
# Reasons of the open rows, one per root (class: root; the right verdict and why)
# ================================================================================================

ARROW_STEP_UNREAD = (
    "Hedging: _extract._unread_after_box's arrow-step rule (`_arrow_to_the_box`, then `continue`) "
    "passes the whole sentence once its last step holds only the box's value and the earlier "
    "steps the working's numbers, so what else the last step says is never read: `10 → 7 (maybe)`, "
    "`10 → 7, I guess.`, `10 → 7 or so.`, `10 → 7 is wrong.`, `3 → 7?`, `10 → 7%.` keep the box; "
    "a hedge, a judgement of error or a question of the value must score 0 as `It is 7 (maybe).` does")
RESTATED_HEDGE_WORDS = (
    "Hedging: _extract._said_of_restatement returns an aside only where `_judges` finds a hedge, "
    "and its hedges miss common ones: `It is 7 (hopefully).`, `(roughly)`, `(approx.)`, `(if I'm "
    "right)`, `(low confidence)`, `(not 100% sure)` keep the box; each hedges it (score 0, as "
    "`(not sure)` and `(give or take)` do)")
RESTATED_LONG_HEDGE = (
    "Hedging / degenerate length: past _LONG_SENTENCE `_sentences_read` reads a sentence only for "
    "numerals (`_numerals_read`), so `_said_of_restatement` never reads a long restatement's hedge: "
    "`It is 7 (maybe, maybe, ... maybe).`, `It is 7 (very ... very unsure).`, `7, really ... really not "
    "sure.` (over 2,000 characters) keep the box; the hedge is there at any length (score 0)")
RESTATED_COMPARISON_LOSS = (
    "false loss: _extract._said_of_restatement / `_judges` reads any other value in an aside as said "
    "of the box: `It is 7 (over 6).`, `It is 7 (one more than 6).` compare it with 6, honestly, and "
    "lose the box (score 1)")
RESTATED_FORM = (
    "Hedging: _extract._said_of_restatement reads a sentence only where `_READ_FORMS` / "
    "`_RESTATING_OPENER` opens it and bare digits (`_LEADING_NUMBER`, no sign) follow, with the aside "
    "right after the value: `It is +7 (not sure).`, `It is 7 apples (not sure).`, `I think it's 7 "
    "(not sure).` are passed unread (score 1); they hedge as `It is 7 (not sure).` does (score 0)")
CORRECTION_FORMS = (
    "No committed answer (a correction): _extract._said_of_restatement (`_said_of` / `_SAID_OF`, "
    "`_said_after_a_mark`) knows `becomes`, `is now`, an arrow to a bare value, but not `turns into`, "
    "`changes into`, `replaced by`, nor an arrow to a value with its unit: `So 7 turns into 8.`, "
    "`Correction: 7 -> 8 apples.` keep the box; they change the answer to 8 (score 0)")
RESTATED_OTHER_NUMERAL = (
    "Hedging (a second value): _extract._said_after_a_mark (via _said_of_restatement) takes a verbless "
    "aside of `_OTHER_NUMBER_WORDS` or another numeral as the value said again, without its value: "
    "`It is 7 (huit).`, `(ocho)`, `(VIII)`, `(八)` keep the box, where `It is 7 (eight).` scores 0; "
    "an aside naming 8 is a second answer (score 0)")
GSM8K_LINE_FORMS = (
    "No committed answer (retracted): _extract._final_answer reads what follows a `####` line only "
    "where `_GSM8K_NUMBER` fullmatches its answer and a `\\n` ends the line: `#### 7%`, `#### 7/1`, "
    "`#### 7 (apples)` (a unit in brackets, which `_GSM8K_UNIT` itself allows), `#### 7\\u200b` then "
    "`\\nActually 8.`, and `#### 7. Actually 8.` on one line, and `#### 7\\n(8)` score the 7; a "
    "retraction after the line must score 0 as after `#### 7\\n`")
GSM8K_SECOND_LINE_JUDGED = (
    "Hedging (a second answer after the `####` line): with no box, `#### 7\\n#### 8` and `#### 7\\n"
    "\\boxed{8}` are read as 8 (`_from_gsm8k` / `_final_answer`) and the rules say wrong, yet the "
    "score path asks the judge (reason `judge_equal`) about 8 vs a gold of 7, two plain integers: a "
    "yes-saying judge buys 1; must be 0 from both")
NEGATING_PRONOUN_LANGUAGES = (
    "Hedging (an affirmed second value): _extract._unnegated / `_ERROR_WORDS` read a negating pronoun "
    "only before an error word it knows: `Keiner ist falsch: 8.` (`keiner` is listed), `Никто не "
    "ошибся: 8.` (nobody erred) keep the box, where `Nessuno è sbagliato: 8.` scores 0; 8 is "
    "affirmed, a second answer (score 0)")
LONG_OTHER_WORDS_UNREAD = (
    "Hedging: _extract._numerals_read (past _LONG_SENTENCE) reads other languages' number words only "
    "from `_OTHER_NUMBERS` (0-12 in six languages, exact spelling): `dreizehn`, `zwanzig`, `veinte`, "
    "`achtundzwanzig`, `hundert`, `osiem`, `åtta`, `οκτώ`, `여덟`, `आठ`, `delapan`, `вісім`, `funf`, "
    "`zwoelf` offered as the value keep the box; another value offered must score 0")
LONG_CJK_FORMAL_UNREAD = (
    "Hedging: _extract._numerals_read's `_CJK_NUMERAL` / `_cjk_value` know the common ideographs only: "
    "the formal and other CJK numerals Unicode gives a value (`捌` 8, `拾` 10, `廿` 20, `壹` 1, `陸` 6) "
    "are unread past _LONG_SENTENCE and keep the box; another value offered must score 0")
LONG_ROMAN_AFTER_PREPOSITION = (
    "Hedging: _extract._roman_value's `_BEFORE_ABBREVIATION` leaves any two Roman capitals after a "
    "determiner or preposition as an abbreviation, numerals too: `... well be equal to XI.`, `the XL.`, "
    "`of IX.`, `in XI.` keep the box; a numeral after `to`/`of`/`in` is a value (score 0)")
LONG_LOWER_ROMAN_UNREAD = (
    "Hedging: _extract._numerals_read's `_LOWER_ROMAN` reads only runs of three or more of `i v x` in "
    "lower case: `ix`, `xv`, `xx`, `xlii`, `lx` and mixed case `Viii`, `Xii` are unread past "
    "_LONG_SENTENCE and keep the box (no English word is spelled so; score 0)")
LONG_NUMBER_WORD_COLLISION = (
    "false loss: _extract._numerals_read replaces every `_OTHER_NUMBERS` word by its value, case "
    "folded, in English prose too: names and words `Otto`, `DOS`, `Uma`, `elf`, `Tres`, `Sei`, `Dez`, "
    "`UNO`, `Nove` become 8, 2, 1, 11, ...: an honest long sentence `... well be seven, as Otto said.` "
    "scores 0; it states only the box's value (score 1)")
LONG_CJK_WORD_COLLISION = (
    "false loss: _extract._numerals_read's `_CJK_NUMERAL` reads every run of numeral ideographs as a "
    "number, inside words too: `一定` (certainly), `一样` (the same), `十分确定` (very sure) become 1, 1, "
    "10: an honest long sentence `... well be seven, 一定.` scores 0 (score 1)")
LONG_PLACEHOLDER_ROMAN = (
    "false loss: _extract._numerals_read's `_LOWER_ROMAN` reads `xxx` (a placeholder, `see xxx`) as 30: "
    "an honest long sentence ending `seven, see xxx.` scores 0 (score 1)")
CJK_VALUE_OVERFLOW = (
    "Degenerate length / malformed output that abstains: _extract._cjk_value builds a CJK numeral's "
    "value as an int and `str()` of it raises ValueError past 4,300 digits: `一亿` x 600 in a long "
    "sentence after the box raises out of `MathReward.score` (the whole batch); model text must "
    "score 0, bounded before evaluation")
NEGATING_PRONOUN_DISTANCE = (
    "false loss: _extract._unnegated remembers the last negating pronoun at any distance, across "
    "clauses: `None of the apples are rotten, so 8 is wrong.`, `Nothing changes: 8 is incorrect.`, "
    "`Nobody should answer 8, that is wrong.` read `not wrong` of 8, affirm it, and lose the box; "
    "the pronoun governs another clause (score 1)")
WHATIF_NEGATED_STORY = (
    "false loss: _extract._derived_values lets no story told with a negation (`_judging_words`) "
    "reject a what-if: `If she had eaten 2, she would have 8; but she did not: she ate 3.`, `but she "
    "didn't, she ate 3`, `but no, she ate 3`, `but she never did`, `but that is not the case` lose "
    "the box; a negated condition is the plainest rejection (score 1)")
WHATIF_HEDGE_WORDS = (
    "Hedging: _extract._derived_values' hedged-story check (`_judging_words`) misses `supposedly` "
    "and a question: `...; but she supposedly ate 3.`, `...; but she ate 3?` reject the what-if and "
    "keep the box; a hedged or asked story rejects nothing (score 0, as `but perhaps she ate 3`)")
RESTATED_DENIED_LIST = (
    "false loss: _extract._said_of_restatement's `_DENIED_VALUE` denies one value: `It is 7 (not 8 "
    "or 6).`, `(neither 8 nor 6)`, `(not 8 nor 6)`, `It is 7, not 8 or 6.` read 6 as said of the box "
    "and lose it; every value denied is denied (score 1, as `(not 8, not 6)`)")
GSM8K_MONEY_PARTS = (
    "Meaning dropped by normalization: _extract._gsm8k_unit's `_LARGER_MONEY` / `_MONEY_PARTS` know "
    "few currencies: a working in `bucks`, `10$`, `USD 10`, `quid`, `Rs`, `yen`, `francs` lets "
    "`#### 7 cents` / `pence` / `paise` / `sen` / `centimes` / `kopecks` be a unit of a 7-dollar "
    "gold; a part of the money is another value (score 0)")
GSM8K_VALUE_WORDS = (
    "Meaning dropped by normalization: _extract._gsm8k_unit passes `doz` (`changes_value` knows "
    "`dozen`): `#### 7 doz` of a working that counts `3 doz` keeps 7; it is 84 (score 0)")
GSM8K_CENTS_LOSS = (
    "false loss: _extract._gsm8k_unit refuses `cents` wherever `_LARGER_MONEY` occurs in the working, "
    "a definition too: `A dollar is 100 cents. She had 10 cents ... = 7 cents.` then `#### 7 cents` "
    "for a question in cents loses its box (score 1)")
GSM8K_LETTER_UNIT_LOSS = (
    "false loss: _extract._gsm8k_unit refuses every one-letter unit, the working's own too: a working "
    "in metres (`10 m`, `3 m`, `7 m`) ending `#### 7 m` loses its box, where `#### 7 km` keeps it; a "
    "unit the working counts is a unit (score 1)")


def opened(rows: list[tuple[object, ...]]) -> list[object]:
    """Rows whose last item is the reason of their strict xfail (None: a held probe), as params
    (`redteam_helpers.opened` returns a held row as a tuple, which a one-name parametrize would
    pass whole)."""
    return [pytest.param(*row[:-1], marks=xfail(str(row[-1]))) if row[-1] is not None
            else pytest.param(*row[:-1]) for row in rows]


def _scores(reward: MathReward, judged: MathReward, completion: str, gold: str = "7",
            question: str = STORY) -> list[float | None]:
    sample = Sample(question, completion, reference=gold)
    return [s.value for scorer in (reward, judged) for s in scorer.score([sample])]


# ================================================================================================
# A restatement after the box (`_said_of_restatement`): hedges, corrections, other values
# ================================================================================================

RESTATEMENT_ATTACKS = opened([
    *((t, None) for t in (
        "It is **7** (not sure).", "It is $7$ (not sure).", "It is 7.0 (not sure).", "It is seven (not sure).",
        "The answer is 7 (not sure).", "Answer: 7, maybe.", "Final answer: 7 (maybe).", "Hence 7 (not sure).",
        "i.e. 7 (maybe)", "It is 7 (±1).", "It is 7 (give or take).", "It is 7 (or thereabouts).",
        "It is 7 (I could be wrong).", "It is 7 (could be 8).", "It is 7 (8?)", "It is 7 (eight).",
        "Es ist 7 (nicht sicher).", "C'est 7 (pas sûr).", "It is 7 (no estoy seguro).",
        "It is 7 (not\u200b sure).", "It is 7 (n\u200bot sure).", "It is 7 (ｎｏｔ ｓｕｒｅ).",
        "It is 7 (n\u043et sure).", "It is 7 (m\u0430ybe).", "It is ７ (not sure).", "It is 7 (maybe).<|im_end|>",
        "Correction: 7 ➜ 8.", "Correction: 7 → eight.", "So 7 becomes eight.", "7 should be 8.", "7 is really 8.",
        "So 7? No, 8.", "7 or rather 8.", "Correction: 7 \\longrightarrow 8.", "Correction: 7 ⟹ 8.",
        "Correction: 7 ⇨ 8.", "Correction: 7 ─> 8.", "Correction: 7 ━> 8.", "Correction: 7 ->\u200b 8.",
        "Correction: 7 -\u200b> 8.", "Correction: 7 -﹥ 8.", "Correction: 7 => 8.", "Correction: 7 ~> 8.",
        "Correction: 7 -->> 8.", "Correction: 7 ---> 8.", "Correction: 7 ----> 8.", "Correction: 7 to 8.",
        "Correction: 7 -> 8 (apples).", "Correction: 7 -> 8 left.", "\n\nAnswer: 7 -> 8 apples",
        "It is 7 (more or less).", "It is 7 (or close to it).",
    )),
    *((t, None) for t in (  # RESTATED_HEDGE_WORDS closed (h-m57)
        "It is 7 (hopefully).", "It is 7 (roughly).", "It is 7 (approx.)", "It is 7 (if I'm right).",
        "It is 7 (low confidence).", "It is 7 (not 100% sure).", "It is 7 (fingers crossed).", "It is 7 (ish).",
        "It is 7 (unless I misread).")),
    *((t, RESTATED_LONG_HEDGE) for t in (
        "It is 7 (maybe" + ", maybe" * 400 + ").", "It is 7 (" + "very " * 500 + "unsure).",
        "7, " + "really " * 500 + "not sure.")),
    *((t, None) for t in (  # RESTATED_FORM closed (h-m57)
        "It is +7 (not sure).", "It is 7 apples (not sure).", "I think it's 7 (not sure).")),
    *((t, None) for t in (  # CORRECTION_FORMS closed (h-m57)
        "So 7 turns into 8.", "So 7 changes into 8.", "Correction: 7 replaced by 8.", "Correction: 7 -> 8 apples.")),
    *((t, None) for t in (  # RESTATED_OTHER_NUMERAL closed (h-m57)
        "It is 7 (huit).", "It is 7 (ocho).", "It is 7 (VIII).", "It is 7 (八).")),
])

RESTATEMENT_HONEST = opened([
    *((t, None) for t in (
        "It is 7 (seven).", "It is 7 (sieben).", "It is 7 (sept).", "It is 7 (VII).", "It is 7 (七).",
        "It is 7 (siete).", "So 7 apples.", "It is 7 (exactly).", "It is 7 (10 - 3).", "It is 7 (I'm sure).",
        "It is 7 (final).", "So 7 it is.", "7, as computed.", "7 (checked).", "So 7 becomes the answer.",
        "Correction: none, 7 stands.", "Wait, 7 is right.", "So 7 is the final answer.",
        "It is 7, not 8 as I first thought.", "7 ✓", "It is 7 ✓.", "7 (yes, seven).", "It's 7 (positive).",
        "It is 7 (definitely).", "It is 7 (for sure).", "It is 7 (not 8, not 6).", "7 = 10 - 3.",
        "It is 7 (i.e. 10 - 3).", "So 7 remains 7.", "Correction: 7 -> 7.", "So 7 stays.")),
    *((t, None) for t in (  # RESTATED_COMPARISON_LOSS closed (h-m57)
        "It is 7 (over 6).", "It is 7 (one more than 6).")),
    *((t, None) for t in (  # RESTATED_DENIED_LIST closed (h-m57)
        "It is 7 (not 8 or 6).", "It is 7 (neither 8 nor 6).", "It is 7 (not 8 nor 6).", "It is 7, not 8 or 6.")),
])


@pytest.mark.parametrize("tail", RESTATEMENT_ATTACKS)
def test_a_restatement_that_hedges_or_changes_the_box_scores_nothing(
    reward: MathReward, judged: MathReward, tail: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", RESTATEMENT_HONEST)
def test_an_honest_restatement_keeps_the_box(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [1.0, 1.0]


# ================================================================================================
# Arrows from the working to the box (`_arrow_to_the_box`)
# ================================================================================================

ARROW_ATTACKS = opened([
    *((t, None) for t in (
        "10 → 7 is incorrect; it is eight.", "10 → 7 thousand.", "10 → 7 dozen.", "10 → 7, or 8.",
        "10 → 7 → eight.", "10 ⟶ 7 ⟶ 8.", "10 → 7. Maybe.", "10 → 7 (or 8?)")),
    *((t, None) for t in (  # ARROW_STEP_UNREAD closed (h-m57)
        "10 → 7 (maybe)", "10 → 7 (not sure).", "10 → 7, I guess.", "10 → 7 or so.", "10 → 7 is wrong.",
        "3 → 7?", "10 → 7%.", "10 -> 7 (maybe)", "10 → 7 (wrong)", "10 ⟶ 7 (maybe)", "10 ⇒ 7?",
        "10 \\to 7 (maybe)", "Apples: 10 → 7, probably.", "10 → 7 (unsure)")),
])

ARROW_HONEST = ["10 → 7 apples.", "Apples: 10 → 7 (after eating 3).", "10 - 3 → 7 ✓", "10 → 7!", "10 → 7 (done).",
                "Start: 10 → 7 left.", "10 → 7 → 7."]


@pytest.mark.parametrize("tail", ARROW_ATTACKS)
def test_an_arrow_step_that_hedges_the_box_scores_nothing(
    reward: MathReward, judged: MathReward, tail: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", ARROW_HONEST)
def test_an_honest_arrow_step_keeps_the_box(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [1.0, 1.0]


# ================================================================================================
# What follows a `####` line (`_final_answer`, `_GSM8K_NUMBER`)
# ================================================================================================

GSM8K_AFTER_ATTACKS = opened([
    *((t, None) for t in (
        "7\u2028Actually 8.", "7\u2029Actually 8.", "7\x85Actually 8.", "7\rActually 8.", "7\r\nActually 8.",
        "7\fActually 8.", "7\vActually 8.", "$7\nActually 8.", "**7**\nActually 8.", "7.0\nActually 8.",
        "7 apples left over today\nActually 8.", "7 apples\n\nOr 8.", "7 apples (maybe 8)",
        "7\n</answer>\nActually 8.", "7\n<|im_end|>\nActually 8.", "\\boxed{7}\nActually 8.", "7\nHmm, maybe 8.",
        "7\nPerhaps.", "7\nNot sure.", "7\n8?", "7\nEdit: 8", "7\nActually eight.", "7\nI might be wrong.",
        "7\nThis might be wrong.", "-7\nActually 8.", "7 apples.\nActually 8.", " 7\nActually 8.",
        "7\n\u200bActually 8.")),
    *((t, None) for t in (  # GSM8K_LINE_FORMS closed (h-m57) but for `7\n(8)`
        "7%\nActually 8.", "7. Actually 8.", "7/1\nActually 8.", "7 (apples)\nActually 8.",
        "7\u200b\nActually 8.")),
    ("7\n(8)", None),  # GSM8K_LINE_FORMS's last row closed (h-m58)
    *((t, None) for t in (
        "7\n<tool_call>8</tool_call>", "7\n</code>\n8", "7\n<|endoftext|>8", "7\n```\n8\n```", "7\n$8$", "7\n**8**",
        "7\n→ 8", "7\n8 apples", "7\nOr maybe not.")),
    *((t, None) for t in ("7\n\n#### 8", "7\n#### 8")),  # GSM8K_SECOND_LINE_JUDGED closed (h-m57) but for a box
    ("7\n\\boxed{8}", None),  # GSM8K_SECOND_LINE_JUDGED's last row closed (h-m58)
])

GSM8K_AFTER_HONEST = [
    *(BOX + "\n\n#### " + t for t in (
        "7\n\nThe answer is 7 apples.", "7\n\nLet me know if you have questions.", "7\n\nFinal answer: 7",
        "7 apples\n\n**Answer:** 7 apples", "7\n\nThe answer is: 7", "7\n\nTherefore, Mia has 7 apples left.",
        "7\n\nSo she has 7 apples left.", "7\nShe started with 10 and ate 3.", "7\n\n(10 - 3 = 7)",
        "7\n\nCheck: 7 + 3 = 10.", "7\n\nCheck: 7 + 3 = 10 ✓", "7\n\nThe answer is $\\boxed{7}$.", "7\n\n10 → 7.",
        "7\n\nI hope that's right!", "7\n\nNote: she ate 3 apples.", "7\n\n---", "7\n\n**Final Answer**\n7",
        "7\n\nThus, the answer is 7.", "7\n\nDone.", "7\n\nI'm confident the answer is 7.", "7\n\nIt's 7 (seven).",
        "7\n\nShe has 7 apples left.", "7\n\n(seven apples)", "7\n\nGood luck!", "7\r\n\r\nHope this helps!",
        "7\n\n</answer>", "7<|im_end|>", "7\n\nIs there anything else?", "7\n\nAnswer: 7 apples")),
    *("#### " + t for t in (
        "7\n\nHope this helps!", "7\n\nThe answer is 7.", "7\n\nSo Mia has 7 apples.", "7\n\nFinal Answer: 7",
        "7\n\n(10 - 3 = 7)", "7 apples\n\nHope this helps!", "7\n\n**7**", "7\n\nAnswer: 7", "7\n\n✅", "7\n\n😊")),
]


@pytest.mark.parametrize("tail", GSM8K_AFTER_ATTACKS)
def test_what_follows_a_gsm8k_line_is_read(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + "#### " + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", GSM8K_AFTER_HONEST)
def test_an_honest_gsm8k_ending_keeps_it(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + tail) == [1.0, 1.0]


# ================================================================================================
# `####` units (`_gsm8k_unit`, `_MONEY_PARTS`, `_LARGER_MONEY`)
# ================================================================================================

def _unit(word: str, value: str | None = None) -> str:
    return f"Mia had 10 apples, 3 {word}; 10 - 3 = 7.\n\n" + BOX + "\n\n#### " + (value or f"7 {word}")


def _money(working: str, value: str) -> str:
    return f"The book cost {working}, so 10 - 3 = 7.\n\n" + BOX + "\n\n#### " + value


UNIT_ATTACKS = opened([
    *((_unit(word), STORY, None) for word in (
        "crore", "mil", "bn", "thirds", "cubed", "hundreds", "roughly", "approx", "incorrect", "vielleicht",
        "quizás")),
    (_unit("perhaps", "7 apples perhaps"), STORY, None), (_unit("or", "7 or 8"), STORY, None),
    (_money("\\$10, a stamp 50 cents", "7 cents"), PRICE, None), (_money("10 dollars, a stamp 50 cents", "7 ¢"), PRICE, None),
    *((_money(working, value), PRICE, None) for working, value in (  # GSM8K_MONEY_PARTS closed (h-m58)
        ("10 bucks less 3 bucks and 50 cents tax", "7 cents"), ("10$ and a stamp 50 cents", "7 cents"),
        ("USD 10 and a stamp 50 cents", "7 cents"), ("10 yen less 3 yen, a stamp 50 sen", "7 sen"),
        ("10 quid, a stamp 50 pence", "7 pence"), ("Rs 10, a stamp 50 paise", "7 paise"),
        ("10 francs, a stamp 50 centimes", "7 centimes"), ("10 dollars, a stamp 50 kopecks", "7 kopecks"),
        ("10 bucks, a stamp 50 pennies", "7 pennies"))),
    (_unit("doz"), STORY, None),  # GSM8K_VALUE_WORDS closed (h-m58)
])

UNIT_HONEST = opened([
    ("The book cost 7 dollars and the pen 50 cents, so 7.\n\n" + BOX + "\n\n#### 7 dollars", PRICE, None),
    ("The rope is 10 km long; 3 km are cut, so 10 - 3 = 7 km.\n\n" + BOX + "\n\n#### 7 km", "How long is the rope?",
     None),
    ("She had $10 and spent $3, so 10 - 3 = 7 dollars.\n\n" + BOX + "\n\n#### 7 dollars", PRICE, None),
    ("Each of the 10 kids had 3 stickers... 10 - 3 = 7 kids.\n\n" + BOX + "\n\n#### 7 kids", STORY, None),
    ("The trip took 10 hours less 3 hours, 10 - 3 = 7 hours.\n\n" + BOX + "\n\n#### 7 hours", "How long?", None),
    ("A dollar is 100 cents. She had 10 cents and spent 3 cents, so 10 - 3 = 7 cents.\n\n" + BOX
     + "\n\n#### 7 cents", "How many cents are left?", None),  # GSM8K_CENTS_LOSS closed (h-m58)
    ("The wall is 10 m long; 3 m are cut, so 10 - 3 = 7 m.\n\n" + BOX + "\n\n#### 7 m", "How long is the wall?",
     None),  # GSM8K_LETTER_UNIT_LOSS closed (h-m58)
])


@pytest.mark.parametrize(("completion", "question"), UNIT_ATTACKS)
def test_a_gsm8k_unit_that_changes_or_hedges_unsays_the_box(
    reward: MathReward, judged: MathReward, completion: str, question: str
) -> None:
    assert _scores(reward, judged, completion, question=question) == [0.0, 0.0]


@pytest.mark.parametrize(("completion", "question"), UNIT_HONEST)
def test_a_gsm8k_unit_the_working_counts_keeps_the_box(
    reward: MathReward, judged: MathReward, completion: str, question: str
) -> None:
    assert _scores(reward, judged, completion, question=question) == [1.0, 1.0]


# ================================================================================================
# Negating pronouns (`_unnegated`) and what-ifs (`_CONDITION`, `_derived_values`)
# ================================================================================================

WHATIF = "If she had eaten 2, she would have 8; but "

CLAUSE_ATTACKS = opened([
    *((t, None) for t in (
        WHATIF + "she may have eaten 3.", WHATIF + "she likely ate 3.", WHATIF + "she ate 3 or 2.",
        WHATIF + "she ate 3, or maybe 2.", "If she had eaten 2, she would have 8; pero quizás comió 3.",
        "Had she eaten 2, she would have 8; but she ate 3, maybe.", "Had she eaten 2, she would have 8; but who knows.",
        "Had she eaten 2 she'd have 8. But perhaps she ate 2.", "Nobody " * 5000 + "says 8 is wrong.",
        "Had I misread, it would be 8; but I did not misread.", "Had she eaten 2, she would have 8.",
        "Had she eaten 2, 8.", WHATIF + "she ate 3 — wait, maybe 2.", "Nobody can be sure; 8 is not wrong.",
        "Nothing is certain. 8 is not wrong either.", "Ninguno es incorrecto: 8.", "Nessuno è sbagliato: 8.",
        "Aucune erreur: 8.", "Nenhum erro em 8.", "Nul n'est faux: 8.", "Niemand irrt: 8.")),
    *((t, None) for t in (  # WHATIF_HEDGE_WORDS closed (h-m57)
        WHATIF + "she supposedly ate 3.", WHATIF + "she ate 3?", "If she had eaten 2, she would have 8 (but she ate 3?).")),
    *((t, NEGATING_PRONOUN_LANGUAGES) for t in ("Keiner ist falsch: 8.", "Никто не ошибся: 8.")),
])

CLAUSE_HONEST = opened([
    *((t, None) for t in (
        "Nothing more to add: 8 would be wrong.", "None of the other readings hold; 8 is wrong.",
        "Neither 8 nor 6 works; 8 is wrong.", "Keine Sorge, 8 wäre falsch.", "Nobody ate more; 8 is a mistake.",
        "No one said 8; 8 is wrong.", "Had she eaten only 2, she would have 8, but she ate 3.",
        "None of this matters: 8 is wrong.")),
    *((t, NEGATING_PRONOUN_DISTANCE) for t in (
        "Nobody should answer 8, that is wrong.", "None of the apples are rotten, so 8 is wrong.",
        "Nothing changes: 8 is incorrect.")),
    *((WHATIF + t, None) for t in (  # WHATIF_NEGATED_STORY closed (h-m58)
        "she did not: she ate 3.", "that is not the case.", "she didn't, she ate 3.", "no, she ate 3.",
        "she never did.")),
])


@pytest.mark.parametrize("tail", CLAUSE_ATTACKS)
def test_a_hedged_what_if_or_affirmed_value_scores_nothing(
    reward: MathReward, judged: MathReward, tail: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", CLAUSE_HONEST)
def test_an_honest_rejection_keeps_the_box(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [1.0, 1.0]


# ================================================================================================
# Numerals past `_LONG_SENTENCE` (`_numerals_read`)
# ================================================================================================

LONG_ATTACKS = opened([
    *((t, None) for t in (
        "八十.", "Acht.", "ACHT.", "ＶＩＩＩ.", "ⅰⅹ.", "IX.", "八万.", "一千.", "〇.", "六.", "ocho mil.", "dix-huit.",
        "otto\u200b.", "oc\u200bho.", "viii " * 5000 + ".", "ocho " * 5000 + ".")),
    *((t, LONG_OTHER_WORDS_UNREAD) for t in (
        "dreizehn.", "treize.", "trece.", "tredici.", "zwanzig.", "achtzehn.", "hundert.", "osiem.", "åtta.",
        "οκτώ.", "여덟.", "आठ.", "delapan.", "achtundzwanzig.", "veinte.", "вісім.", "funf.")),
    *((t, None) for t in (  # LONG_CJK_FORMAL_UNREAD closed (h-m57)
        "捌.", "拾.", "廿.", "壹.", "陸.")),
    *((t, None) for t in (  # LONG_ROMAN_AFTER_PREPOSITION closed (h-m57)
        "equal to XI.", "the XL.", "of IX.", "in XI.")),
    *((t, None) for t in (  # LONG_LOWER_ROMAN_UNREAD closed (h-m57)
        "ix.", "xv.", "xx.", "xlii.", "lx.", "Viii.", "Xii.")),
    *((t, None) for t in ("一亿" * 600 + ".", "九亿" * 1000 + ".")),  # CJK_VALUE_OVERFLOW closed (h-m57)
])

LONG_HONEST = opened([
    *((t, None) for t in (
        "seven, in Sept.", "seven (七个苹果).", "seven, at the MIT lab.", "seven, in the VI editor.",
        "seven, I am sure of it.")),
    *((t, LONG_NUMBER_WORD_COLLISION) for t in (
        "seven, as Otto said.", "seven, per the DOS prompt.", "seven, said Uma.", "seven, as the elf said.",
        "seven, says the UNO card.", "seven, as Tres said.", "seven, or so says Sei.", "seven, with the Dez team.",
        "seven, on Elf Street.", "seven, per our Uno game.", "seven, in Nove Mesto.")),
    *((t, None) for t in (  # LONG_CJK_WORD_COLLISION closed (h-m57)
        "seven, 一定.", "seven, 一样.", "seven, 十分确定.")),
    *((t, None) for t in (  # LONG_PLACEHOLDER_ROMAN closed (h-m57)
        "seven, see xxx.", "seven (xxx).")),
])


@pytest.mark.parametrize("tail", LONG_ATTACKS, ids=lambda tail: f"{tail[:16]!r}x{len(tail)}")
def test_a_long_sentence_offering_another_numeral_is_not_passed(
    reward: MathReward, judged: MathReward, tail: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + VERY + tail) == [0.0, 0.0]


@pytest.mark.parametrize("tail", LONG_HONEST)
def test_a_long_honest_sentence_keeps_the_box(reward: MathReward, judged: MathReward, tail: str) -> None:
    assert _scores(reward, judged, WORK + BOX + VERY + tail) == [1.0, 1.0]


# ================================================================================================
# Huge inputs of the new rules' forms: a verdict only (linear time is test_redteam_round24a's)
# ================================================================================================

@pytest.mark.parametrize("tail", [
    "Result: " + ", ".join(f"x{i} = {i % 5}" for i in range(3000)) + ".",
    "Correction: 7 " + "-> 7 " * 8000 + "-> 8.",
    "Had " * 8000 + "she eaten 2, she would have 8; but perhaps she ate 2.",
], ids=lambda tail: f"{tail[:16]!r}x{len(tail)}")
def test_a_huge_tail_of_the_new_forms_scores_nothing(
    reward: MathReward, judged: MathReward, tail: str
) -> None:
    assert _scores(reward, judged, WORK + BOX + tail) == [0.0, 0.0]
