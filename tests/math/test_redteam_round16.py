"""Red team, round 16 of issue #33 (rt20): the fixes that landed after round 15, attacked from
outside, as merged at main f678273 (1d9b1ef, the merge of h-m23, and f678273).

The rules attacked (docs/math.md, "What follows a box" and the table of what may be dropped):

- `rewards/math/_normalize.py`: `_TWO_VALUES` and `_EQUAL_SIGNS` (`7 \\approx 8`, `7 ≈ 8`,
  `7 \\approxeq 8` are uncertain; `8 \\approx 8` is 8);
- `rewards/math/_extract.py`: `_unread_after_box` (`\\boxed{\\sqrt2} \\approx 1.414` keeps the
  box by `_approximates`), `_remark_length` (distinct words), `_explains` with `_OWN_WORK`
  anywhere before the story verb, `_states_another_result`, `_leaves_another_value`, and the
  sign-off words added to `_REMARK_WORDS` (`esto`, `explanation`, `clarifies`, `things`,
  `studying`, `clear`, `希望这对你有帮助`, `希望能帮到你`; `clear` also on `_AFFIRMING`).

How: every probe goes through the reward as users call it (`MathReward.score`): a box alone
(round 9's `_boxed`), a whole ending after `The answer is $\\boxed{7}$. ` (`_after`), an ending
glued to a box of any content (`_tail`), or with round 9's yes-saying judge (`YesEngine`,
`_judged`). Three directions (/work/shared/ATTACK-CLASSES.md): buy credit (hedging, meaning
dropped by normalization, invisible and look-alike text, no committed answer, other scripts
and languages), false loss (honest endings in ordinary layouts), and what the judge is shown.
Each held probe asserts the verdict the docs promise; each hole is a strict xfail.

Open at the time of writing, by suspected root:

- `_normalize._TWO_VALUES` (its sign list and its bare-numeral sides): `7 ≃ 8`, `7 ≅ 8`, `7 ≊ 8`,
  `7 ≋ 8` read by the left side; `7 \\sim 8`, `7 \\simeq 8`, `7 \\thickapprox 8`, `7 \\doteq 8`,
  `7 ≒ 8`, `7 \\approx{} 8` read by the right side; `7 \\approx \\frac{16}{2}`, `7 \\approx
  8\\%`, `7 \\approx (8)`, chains (`7 \\approx 8 \\approx 7`); and grouped thousands of one value
  (`1000 \\approx 1{,}000`) lose;
- `_extract._unread_after_box` (the box's own clause): a sign other than `≈`/`\\approx` before
  another value (`≃ 8`, `≅ 8`, `∼ 8`, `~= 8`, `⩰ 8`), a value after `≈` that is no numeral
  (`\\frac{16}{2}`, `\\sqrt{64}`, `eight`), `approx 8`, `= 8`; and, as false loss, `≈` of the
  box in grouped thousands, powers, percent or a repeating decimal;
- `_extract._after_box` (`sentence_key` reads `。`/`！` as `.`/`!` glued to what follows):
  `\\boxed{7}。8` and `以上。8` keep the box;
- `_extract._OWN_WORK` (three pronouns, a deny-list) and `_explains` (`_ACTING` with no
  subject or after a hedge): `Let's take 8.`, `So one takes 8.`, `So y'all took 8.`, `Maybe
  take 8.`, `Probably ate 8.`; as false loss, first-person story problems (`So you ate 3.`,
  `Tom and I ate 3.`) and story verbs in other languages (`Ella comió 3.`);
- `_extract._leaves_another_value` (`_LEAVES`, six words): `kept 8`, `8 leftover`, `8 stayed`,
  `8 still`, `has 8`, `8 remained`, `eight left`;
- `_extract._states_another_result` (two sides, a bare numeral result, any operand the box's
  value exempts) and `_other_value` (a number after `=` is an operand): `(3 + 5 = 8 apples)`,
  `(3 + 5 = 8 = 8)`, `(3 + 5 == 8)`, `3 + 5 = 8 ✓`, `(x = 8)`, `(7 − 0 = 8)`; as false loss
  (regressions of b15a7de) a step of the working with another result (`Since 5 × 2 = 10.`,
  `Step 1: 5 × 2 = 10.`, `Bob has 2 + 3 = 5.`);
- `_extract._remark_length` / `_SHORT_REMARK`: distinct spellings pad a sentence past five
  words (`Also alsoo alsooo alsoooo alsooooo 8.`, `Also, 8, 8.0, 8.00, 8.000, 8.0000.`, `A b c
  d e 8.`, combining marks, fillers), as does a sign-off before a value (`Espero que esto te
  ayude: 8.`, `I hope this is clear: 8.`);
- `_extract._harmless_remark` / `_REMARK_WORDS`: doubts spelled in allow-listed words (`Is
  it?`, `If so.`, `If correct.`, `If clear.`, `Clear if true.`); as false loss, sign-offs off
  the list (`Hope this clears things up!`, `希望对您有帮助！`, `Crystal clear.`);
- `_judge.judgeable` with `_TWO_VALUES` read as a qualifier: `7 \\approx 8`, `7 \\simeq 8`,
  `7 \\sim 8`, `7 \\cong 8` are shown to the judge; and the judge is shown the box's value
  alone when the rules leave a doubt after it uncertain (`IDK.`, `Not clear.`, `❌`), so any
  judge credits a doubted box.

Held attacks are plain tests; each hole left open is `xfail(strict=True)` whose reason names its
class and the function suspected at its root. The verifier is not changed here. Deterministic;
no timing.
"""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from tests.math.redteam_helpers import APPLES, BOX, OPTIONS
from tests.math.redteam_helpers import after_box as _after
from tests.math.redteam_helpers import boxed_value as _one
from tests.math.redteam_helpers import judge_prompts as _judge
from tests.math.redteam_helpers import xfail as _xfail

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
FIRST_PERSON = "I had 10 apples and ate 3. How many apples do I have now?"


def _tail(reward: MathReward, box: str, tail: str, gold: str) -> float | None:
    """The score of `The answer is $\\boxed{box}` + `tail` (the tail closes the math itself)."""
    completion = f"The answer is $\\boxed{{{box}}}" + tail
    [score] = reward.score([Sample("Compute it.", completion, reference=gold)])
    return score.value


# === approximation signs in the box: buy credit ================================================


@pytest.mark.parametrize(
    "answer",
    [
        "7 \\thickapprox 8",
        "7 ~= 8",
        "7 ≒ 8",
        "7 \\fallingdotseq 8",
        "7 \\risingdotseq 8",
        "7 \\eqsim 8",
        "7 \\backsim 8",
        "7 ∼ 8",
        "7 ≈ 8.0",
        "7\\approx8",
        "7 \\,\\approx\\, 8",
        "7 \\approx \\,8",
        "7 {\\approx} 8",
        "7 \\mathrel{\\approx} 8",
        "7 \\approx 7.4",
        "7.4 \\approx 7",
        "7 \\approx +8",
        "7 ≈ -7",
        "-7 ≈ 7",
        "7≈\u200b8",
        "7 ⩰ 8",
        "7 ⪅ 8",
        "7 \\lessapprox 8",
        "7 \\gtrapprox 8",
        "7 ≆ 8",
        "7 \\approx\\approx 8",
        "7 \\napprox 8",
        "7 \\approx 8 \\text{ apples}",
        "7 \\text{ apples} \\approx 8",
        "7\\ \\approx\\ 8",
        "7 \\approx{} 8",
        "7 \\approx 8^{}",
        "7 \\approx 8.00",
    ],
)
def test_held_two_values_approximately_buy_nothing_against_the_left(
    reward: MathReward, answer: str
) -> None:
    assert _one(reward, "7", answer) == 0.0


@pytest.mark.parametrize(
    "answer",
    [
        "7 \\approx 8",
        "7 ≈ 8",
        "7 ≃ 8",
        "7 ≅ 8",
        "7 ≊ 8",
        "7 ≋ 8",
        "7 ~= 8",
        "7 ~ 8",
        "7 \\cong 8",
        "7 = 8 = 7",
        "7 \\approx 8 \\approx 7",
        "7 \\approx 8\\%",
        "7 \\approx \\frac{16}{2}",
        "7 \\approx 2^3",
        "7 \\approx \\sqrt{64}",
        "7 \\approx 8 \\text{ apples}",
        "7\\ \\approx\\ 8",
        "7 \\approx (8)",
        "(7) \\approx 8",
        "7\\approx 8.00",
    ],
)
def test_held_two_values_approximately_buy_nothing_against_the_right(
    reward: MathReward, answer: str
) -> None:
    assert _one(reward, "8", answer) == 0.0


@pytest.mark.parametrize("answer", ["7 ≃ 8", "7 ≅ 8", "7 ≊ 8", "7 ≋ 8"])
def test_held_unicode_approximation_sign_read_by_the_left(reward: MathReward, answer: str) -> None:
    """Fixed by h-m27 (`_normalize._joining_sign`: any relation sign between two values of different value is a hedge, `HEDGED`)."""
    assert _one(reward, "7", answer) == 0.0


@pytest.mark.parametrize(
    "answer",
    [
        "7 \\approx \\frac{16}{2}",
        "7 \\approx 2^3",
        "7 \\approx \\sqrt{64}",
        "7 \\approx 8\\%",
        "7 \\approx (8)",
        "(7) \\approx 8",
        "7 \\approx 8 \\approx 7",
        "7 ≈ 8 ≈ 7",
        "7 = 8 = 7",
    ],
)
def test_held_approximation_with_a_side_that_is_no_numeral(reward: MathReward, answer: str) -> None:
    """Fixed by h-m27 (`_normalize._joining_sign`: each side read as one value, `_side_value`; a chain is read pair by pair)."""
    assert _one(reward, "7", answer) == 0.0


@pytest.mark.parametrize(
    "answer",
    [
        "7 \\sim 8",
        "7 \\simeq 8",
        "7 \\thickapprox 8",
        "7 \\thicksim 8",
        "7 ∼ 8",
        "7 \\doteq 8",
        "7 ≐ 8",
        "7 \\eqsim 8",
        "7 ≒ 8",
        "7 ≓ 8",
        "7 \\approx{} 8",
        "7 \\approx 8^{}",
    ],
)
def test_held_approximation_sign_read_by_the_right(reward: MathReward, answer: str) -> None:
    """Fixed by h-m27 (`_normalize._JOINING`: LaTeX relations and the Unicode relation signs; empty groups are nothing)."""
    assert _one(reward, "8", answer) == 0.0


# === approximation signs in the box: false loss =================================================


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("\\frac{2}{3} \\approx 0.667", "\\frac{2}{3}"),
        ("\\sqrt{2} \\approx 1.414", "\\sqrt{2}"),
        ("\\pi \\approx 3.14", "\\pi"),
        ("7 \\approx 7.00", "7"),
        ("\\frac{14}{2} \\approx 7", "7"),
        ("7.0 \\approx 7", "7"),
        ("7 ≈ 7", "7"),
        ("7 \\approx 7.0", "7"),
        ("0.5 \\approx \\frac12", "\\frac12"),
        ("50\\% \\approx 0.5", "50\\%"),
        ("7 \\simeq 7", "7"),
        ("7 ≃ 7", "7"),
        ("7 \\sim 7", "7"),
        ("8 \\approx 8", "8"),
        ("8 \\approx 8.0", "8"),
        ("8.00 ≈ 8", "8"),
        ("8 \\thickapprox 8", "8"),
        ("1000 ≈ 1\\,000", "1000"),
    ],
)
def test_held_one_value_approximately_keeps_credit(
    reward: MathReward, answer: str, gold: str
) -> None:
    assert _one(reward, gold, answer, "Compute it.") == 1.0


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("1000 \\approx 1{,}000", "1000"),
        ("1000 \\approx 1,000", "1000"),
        ("2500 \\approx 2{,}500", "2500"),
    ],
)
def test_held_grouped_thousands_approximately(reward: MathReward, answer: str, gold: str) -> None:
    """Fixed by h-m27 (`_normalize.joined_value`: one number written twice is read as the number)."""
    assert _one(reward, gold, answer, "Compute it.") == 1.0


# === approximately after the box: buy credit ====================================================


@pytest.mark.parametrize(
    ("box", "tail"),
    [
        ("7", "$ \\simeq 8."),
        ("7", " \\sim 8$."),
        ("7", " ~ 8$."),
        ("7", "$ ~ 8."),
        ("7", " \\thickapprox 8$."),
        ("7", " \\cong 8$."),
        ("7", " \\doteq 8$."),
        ("7", " \\approx 8$."),
        ("7", " \\approx 8.0$."),
        ("7", " \\approx 2^3$."),
        ("7", " (\\approx 8)$."),
        ("7", "$ (≈ 8)."),
        ("7", "$, ≈ 8."),
        ("7", "$ $\\approx$ $8$."),
        ("7", " \\approx\\!8$."),
        ("7", "\\ \\approx\\ 8$."),
        ("7", " \\approx 8\\%$."),
        ("7", " \\approx 8 \\text{ apples}$."),
        ("7", "$ ≈8 apples."),
        ("7", " \\approx 7.4$."),
        ("7", " \\approx 7.0 \\text{ or } 8$."),
        ("7", "$ ≈ 7.0 or 8."),
        ("7", "$ ≈ 7.5."),
        ("7", " \\approx 6.5$."),
        ("7", "$ ~8."),
        ("7", "$ approx. 8."),
        ("7", "$ ca. 8."),
        ("7", "$ (about 8)."),
        ("7", "$ ≈ 8 ≈ 7."),
        ("7", "$ ≈ 8 (rounded)."),
        ("7", "$ ≈ 8‰."),
        ("7", "$ ≈ ８."),
        ("7", "$ ≈ ٨."),
        ("\\sqrt{2}", " \\approx 1.5$."),
        ("\\pi", " \\approx 3.15$."),
    ],
)
def test_held_another_value_approximately_after_the_box(
    reward: MathReward, box: str, tail: str
) -> None:
    gold = {"7": "7", "\\sqrt{2}": "\\sqrt{2}", "\\pi": "\\pi"}[box]
    assert _tail(reward, box, tail, gold) == 0.0


_AFTER_SIGN = (
    "open: hedging: after the box, a sign other than `≈`/`\\approx` before another value "
    "(`≃ 8`, `≅ 8`, `∼ 8`, `~= 8`, `≐ 8`, `≒ 8`, `≊ 8`, `⩰ 8`; `That's ≃ 8.`) keeps the box's "
    "1.0: the sign is neither a symbol nor a value, so the box's own clause offers nothing; "
    "root: _extract._unread_after_box (only `_APPROX_SIGN` and `_SIDE_BY_SIDE` read a value "
    "beside the box; `_LATEX_WORD` drops `\\simeq` but the Unicode signs stay)"
)


@pytest.mark.parametrize(
    "tail",
    ["$ ≃ 8.", " ≃ 8$.", " ≅ 8$.", "$ ≅ 8.", "$ ~= 8.", "$ ≐ 8.", "$ ≒ 8.", " ≊ 8$.", "$ ∼ 8.", "$ ⩰ 8."],
)
def test_held_other_approximation_sign_after_the_box(reward: MathReward, tail: str) -> None:
    """Fixed by h-m30 (`_normalize.joined_after`, read by `_extract._unread_after_box`: a sign
    that builds no value, right after the box, joins another value to it)."""
    assert _tail(reward, "7", tail, "7") == 0.0


@_xfail(_AFTER_SIGN)
@pytest.mark.parametrize("tail", ["$. That's ≃ 8."])
def test_open_other_approximation_sign_after_the_box(reward: MathReward, tail: str) -> None:
    assert _tail(reward, "7", tail, "7") == 0.0


_AFTER_VALUE = (
    "open: hedging: after the box, another value that is no numeral after `≈` "
    "(`\\approx \\frac{16}{2}`, `\\approx \\sqrt{64}`, `≈ eight`), the word `approx` "
    "without its dot, or `= 8` in the box's own math keeps the box's 1.0; root: "
    "_extract._unread_after_box (`_SIDE_BY_SIDE`'s value is digits, number words are read "
    "only in later sentences, and any `=` in the first clause skips the side-by-side reading)"
)


@pytest.mark.parametrize(
    "tail", [" \\approx \\frac{16}{2}$.", " \\approx \\sqrt{64}$.", "$ ≈ eight.", " = 8$."]
)
def test_held_approximately_another_value_not_a_numeral(reward: MathReward, tail: str) -> None:
    """Fixed by h-m30 (`_normalize.joined_after`: the sides read as values, a constant
    expression or a number in words)."""
    assert _tail(reward, "7", tail, "7") == 0.0


@_xfail(_AFTER_VALUE)
@pytest.mark.parametrize("tail", ["$ approx 8."])
def test_open_approximately_another_value_not_a_numeral(reward: MathReward, tail: str) -> None:
    assert _tail(reward, "7", tail, "7") == 0.0


# === approximately after the box: false loss ====================================================


@pytest.mark.parametrize(
    ("box", "tail"),
    [
        ("\\frac{2}{3}", " \\approx 0.667$."),
        ("\\frac{2}{3}", "$ ≈ 0.667."),
        ("\\frac{2}{3}", " \\approx 0.67$."),
        ("\\frac{2}{3}", "$ (≈ 0.667)."),
        ("\\frac{2}{3}", " \\approx 0.6667$."),
        ("\\frac{2}{3}", "$, which is approximately $0.667$."),
        ("\\frac{2}{3}", "$ (approximately 0.667)."),
        ("\\frac{2}{3}", " \\simeq 0.667$."),
        ("\\frac{2}{3}", "$ ≃ 0.667."),
        ("\\frac{2}{3}", "$ ~0.667."),
        ("\\frac{2}{3}", " \\approx 0.667$ (rounded to three decimal places)."),
        ("\\frac{2}{3}", "$\n\n(≈ 0.667)"),
        ("\\sqrt{2}", " \\approx 1.414$."),
        ("\\sqrt{2}", " \\approx 1.41421$."),
        ("\\sqrt{2}", "$ ≈ 1.41."),
        ("\\sqrt{2}", " \\approx 1.4$."),
        ("\\sqrt{2}", "$. That is about 1.414."),
        ("\\sqrt{2}", "$. Approximately 1.414."),
        ("\\sqrt{2}", "$ (about 1.414)."),
        ("\\pi", " \\approx 3.14$."),
        ("\\pi", " \\approx 3.14159$."),
        ("\\pi", " \\approx 3.1416$."),
        ("\\pi", "$. Roughly 3.14."),
        ("7", " \\approx 7.0$."),
        ("7", " \\approx 7.00$."),
        ("7", "$ ≈ 7.0."),
        ("7", " \\approx 7$."),
        ("7", " \\approx 07$."),
        ("\\frac{1}{8}", " \\approx 0.125$."),
        ("1000", "$ ≈ 1,000."),
        ("1000", " = 1{,}000$."),
    ],
)
def test_held_the_box_approximately_keeps_credit(reward: MathReward, box: str, tail: str) -> None:
    assert _tail(reward, box, tail, box) == 1.0


_SAME_VALUE_AFTER = (
    "open: false loss: the box's own value after `≈` in another honest spelling (grouped "
    "thousands `1{,}000`, `1\\,000`, `1 000`, a power `10^3`, a percent `12.5\\%` of 1/8, a "
    "repeating decimal `0.\\overline{6}`, `or about 0.667`, `Numerically, $\\sqrt{2} \\approx "
    "1.414$.`) costs the right box its 1.0, though `(12.5%)` and `≈ 1,000` keep it; root: "
    "_extract._unread_after_box (`_SIDE_BY_SIDE` takes the first digits as the value, "
    "`_approximates` reads only a plain decimal)"
)


@_xfail(_SAME_VALUE_AFTER)
@pytest.mark.parametrize(
    ("box", "tail"),
    [
        ("1000", " \\approx 1{,}000$."),
        ("1000", " \\approx 1\\,000$."),
        ("1000", "$ ≈ 1 000."),
        ("1000", " \\approx 10^3$."),
        ("\\frac{1}{8}", " \\approx 12.5\\%$."),
        ("\\frac{2}{3}", " \\approx 0.\\overline{6}$."),
        ("\\frac{2}{3}", "$, or about 0.667."),
        ("\\sqrt{2}", "$. Numerically, $\\sqrt{2} \\approx 1.414$."),
    ],
)
def test_open_the_box_approximately_in_another_spelling(
    reward: MathReward, box: str, tail: str
) -> None:
    assert _tail(reward, box, tail, box) == 1.0


# === own work and story verbs after the box: buy credit =========================================


@pytest.mark.parametrize(
    "tail",
    [
        "Me, I took 8.",
        "Then, me? I'd take 8.",
        "So I'll take 8.",
        "So we'd take 8.",
        "So we've sold 8.",
        "Ok we took 8.",
        "So Wе took 8.",  # Cyrillic е
        "So Ｗｅ took 8.",
        "So w\u200be took 8.",
        "Or take 8.",
        "Or sell 8.",
        "Or give 8.",
        "Or she ate 8.",
        "Or, say, 8 were taken.",
    ],
)
def test_held_own_work_with_another_value(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


_OTHER_SUBJECTS = (
    "held since h-m28 (a story action explains a value only when its subject is a known one of the story, `_story_told`, or the question states the value); was open: no committed answer: the reply's or the reader's own work under a subject other "
    "than I/we/you (`Let's take 8.`, `Let us ...`, `one`, `us`, `me`, `y'all`, `ya`, `u`, "
    "`thou`, `ourselves`, `yourself`, a pronoun in another language, `W e`, `I` with a "
    "combining dot) reads as the problem's story, so another value after the box keeps its "
    "1.0; root: _extract._OWN_WORK (a deny-list of three pronouns; the subjects that make a "
    "story sentence are what is known)"
)


@pytest.mark.parametrize(
    "tail",
    [
        "So let's take 8.",
        "Let's take 8.",
        "Let us take 8.",
        "So us took 8.",
        "So one takes 8.",
        "Then one took 8.",
        "So y'all took 8.",
        "So y’all took 8.",
        "So ya took 8.",
        "So u took 8.",
        "So me took 8.",
        "So ourselves took 8.",
        "So yourself took 8.",
        "So thou took 8.",
        "So W e took 8.",
        "So I\u0307 took 8.",
        "So nosotros took 8.",
        "So wir took 8.",
    ],
)
def test_held_own_work_under_another_subject(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


_NO_SUBJECT = (
    "held since h-m28 (a story verb with no known subject is the reply's own work, whose values only the question explains); was open: hedging: a story verb with no subject, after a hedge or an adverb (`Maybe take "
    "8.`, `Just take 8.`, `Instead take 8.`, `Probably ate 8.`, `Perhaps sold 8.`, `Hmm, took "
    "8?`) reads as what a problem's people do, so another value keeps the box's 1.0; root: "
    "_extract._explains (any word before a verb of `_ACTING` is taken for its subject)"
)


@pytest.mark.parametrize(
    "tail",
    [
        "Just take 8.",
        "Rather, take 8.",
        "Better take 8.",
        "Instead take 8.",
        "Maybe take 8.",
        "Alternatively, take 8.",
        "Probably ate 8.",
        "Perhaps sold 8.",
        "Hmm, took 8?",
    ],
)
def test_held_story_verb_with_no_subject(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


# === story results after the box: buy credit ===================================================


@pytest.mark.parametrize(
    "tail",
    [
        "She ate 3 — 8 remain.",
        "She ate 3 (8 remain).",
        "She ate 3 → 8 remain.",
        "She ate 3 & 8 remain.",
        "She ate 3, 8 remaın.",
        "She ate 3, 8 rеmain.",  # Cyrillic е
        "She ate 3, 8 REMAIN.",
        "She ate 3, 8 lеft.",  # Cyrillic е
        "She ate 3, 8.0 left.",
        "She ate 7, 8 left.",
    ],
)
def test_held_story_result_with_another_value(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


_OTHER_LEAVES = (
    "open: no committed answer: a short story sentence whose result is another value said "
    "with a word other than the six of `_LEAVES` (`kept 8`, `8 leftover`, `8 stayed`, `8 "
    "still`, `8 rest`, `has 8`, `8 remained`) or in words (`eight left`) is an explanation, "
    "so the box keeps 1.0; root: _extract._leaves_another_value (`_LEAVES` lists six "
    "spellings, and digits only)"
)


@pytest.mark.parametrize(
    "tail",
    [
        "She ate 3, kept 8.",
        "He sold 3, 8 leftover.",
        "She ate 3: 8 stayed.",
        "They ate 3, 8 still.",
        "She ate 3, 8 rest.",
        "She ate 3, 8 remained.",
        "She ate 3, eight left.",
    ],
)
def test_held_story_result_in_other_words(reward: MathReward, tail: str) -> None:
    """Held since h-m28 (`_LEAVES` reads `kept`, `leftover`, `stayed`, `still`, `rest`,
    `remained`; a number in words after a comma is read)."""
    assert _after(reward, tail) == 0.0


@_xfail(_OTHER_LEAVES)
def test_open_story_result_has_another_value(reward: MathReward) -> None:
    assert _after(reward, "She gave 3, has 8.") == 0.0


# === equations after the box: buy credit =======================================================


@pytest.mark.parametrize(
    "tail",
    [
        "3+5=8!",
        "(3 + 5 ＝ 8)",
        "(3 + 5 = 8.)",
        "(3 + 5 = eight)",
        "(3 + 5 = \\text{8})",
        "(3 + 5 = {8})",
        "(3 + 5 = 8; 3 + 4 = 7)",
        "Check: 1 × 8 = 8.",
        "Check: 8 ÷ 1 = 8.",
        "Check: 8 + 0 = 8.",
        "(8 − 0 = 8)",
        "(8 × 1 = 8)",
        "(4 + 4 = 8)",
        "4 \\cdot 2 = 8.",
        "2^3 = 8.",
        "\\sqrt{64} = 8.",
        "(3 + 5 \\approx 8)",
        "(3.4 + 4.6 = 8)",
        "(16/2 = 8)",
    ],
)
def test_held_equation_with_another_result(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


_EQUATION_FORM = (
    "open: hedging: an equation after the box whose result is another value, written with a "
    "word or sign beside the result (`(3 + 5 = 8 apples)`, `(3 + 5 = +8)`, `(3+5=8,)`, `3 + "
    "5 = 8 ✓`), as a chain (`(3 + 5 = 8 = 8)`, `(x = 3 + 5 = 8)`), with `==`, or naming a "
    "variable (`(x = 8)`, `(8 = 8)`) keeps the box's 1.0; root: "
    "_extract._states_another_result (two sides, a result with no word or sign) and "
    "_extract._other_value (a number after `=` is taken for an operand)"
)


@pytest.mark.parametrize(
    "tail", ["(3 + 5 = 8 apples)", "3 + 4 = 8 apples.", "(3+5=8,)", "(3 + 5 = 8) ✓", "3 + 5 = 8 ✓"]
)
def test_held_equation_with_another_result_and_a_word_or_mark(
    reward: MathReward, tail: str
) -> None:
    """Held since h-m28 (`_RESULT_SIDE`: a result side may carry what it counts and a closing
    mark)."""
    assert _after(reward, tail) == 0.0


@pytest.mark.parametrize(
    "tail",
    [
        "(3 + 5 = 8 = 8)",
        "(3 + 5 == 8)",
        pytest.param("(3 + 5 = +8)", marks=_xfail(_EQUATION_FORM)),
        "(5 = 3 + 2, 8 = 3 + 5)",
        "Check: 3 + 5 = 8 = 8.",
        "(3 + 5 = 8 = x)",
        "(x = 3 + 5 = 8)",
        pytest.param("(8 = 8)", marks=_xfail(_EQUATION_FORM)),
    ],
)
def test_open_equation_with_another_result_in_another_form(reward: MathReward, tail: str) -> None:
    """Six closed by h-m46 (round 22: a chain's result is a result, `==` reads as `=`); `+8`
    and a bare `8 = 8` still open."""
    assert _after(reward, tail) == 0.0


@pytest.mark.parametrize("tail", ["(x = 8)", "(n = 8)"])
def test_held_label_and_value_after_the_box(reward: MathReward, tail: str) -> None:
    """Held since h-m43 (an aside that is only a label and a value states the value:
    `_extract._result_label`); was open under `_EQUATION_FORM`."""
    assert _after(reward, tail) == 0.0


_FALSE_CHECK = (
    "held since h-m28 (an operand equal to the box exempts only a true equation, `_holds`); was open: hedging: a false equation whose operand is the box's value and whose result is "
    "another (`(7 − 0 = 8)`, `(0 + 7 = 8)`, `(7 × 1 = 8)`) passes as a check of the box "
    "and keeps its 1.0; root: _extract._states_another_result (any operand equal to the box "
    "exempts the equation, true or not)"
)


@pytest.mark.parametrize("tail", ["(7 − 0 = 8)", "(0 + 7 = 8)", "(7 × 1 = 8)"])
def test_held_false_equation_on_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


# === distinct-word counting: buy credit ========================================================


@pytest.mark.parametrize(
    "tail",
    [
        "Also 8, 08, 008, 0008, 00008.",
        "Also: 8, 8.0, 8.00, 8.000.",
        "Or: 8, 9, 10, 11, 12.",
        "Or 8, 9, 10, 11, 12.",
        "Maybe 8, 9, 10, 11, 12.",
        "Thanks, Thanks, THANKS, thanks, tHaNkS, 8.",
        "Thanks, thаnks, thanks, 8.",
        "Thanks thаnks thanκs tһanks 8 then.",
        "Hmm hmm hmmm hmmmm hmmmmm 8.",
        "Also-also-also-also-also 8.",
        "Al\u0301so al\u0302so al\u0303so 8.",
        "Also\u034f also\u034f also 8.",
        "Also — — — — — 8.",
        "Also ... ... ... 8.",
        "Also 8 8 8 8 8 8.",
        "Also, 8 apples apples apples apples.",
        "Also 8 (8 8 8 8 8).",
        "Also ８.",
        "Also ٨.",
        "Also eight.",
        "Also 8½.",
        "Also 8 ½.",
        "Also VIII.",
        "Also Ⅷ.",
        "Also 𝟖.",
        "Also ⑧.",
        "Also 8️⃣.",
        "Also 八.",
    ],
)
def test_held_padded_or_spelled_value_after_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


_PADDING = (
    "held since h-m25 (a sentence after the box is read for values whatever its length); "
    "was open: hedging / degenerate length: distinct spellings of nothing pad a sentence with "
    "another value past `_SHORT_REMARK`, so it goes unread and the box keeps 1.0: "
    "elongations (`alsoo alsooo`), single letters (`A b c d e 8.`), combining marks (`a\u0301 "
    "b\u0301`), one number in several decimal spellings (`8, 8.0, 8.00, 8.000, 8.0000`), "
    "fillers (`well, um, er, like`); root: _extract._remark_length (counts distinct "
    "spellings, not distinct words or values) and _unread_after_box's `_SHORT_REMARK`"
)


@pytest.mark.parametrize(
    "tail",
    [
        "Also alsoo alsooo alsoooo alsooooo 8.",
        "Also, 8, 8.0, 8.00, 8.000, 8.0000.",
        "A b c d e 8.",
        "Also a\u0301 b\u0301 c\u0301 d\u0301 8.",
        "Also, well, um, er, like, 8.",
        "Ok so yeah, honestly, like 8.",
    ],
)
def test_held_padding_past_the_short_remark(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


# === sign-offs followed by values: buy credit ==================================================


@pytest.mark.parametrize(
    "tail",
    [
        "Hope this helps! 8.",
        "Esto es 8.",
        "希望这对你有帮助：8。",
        "希望能帮到你！答案是8。",
        "希望这对你有帮助8",
        "Hope this clarifies things: 8.",
        "Happy studying, 8.",
        "Clear: 8.",
        "Explanation: 8.",
        "Explanation: 3 + 5 = 8.",
        "Clear? 8.",
        "Things: 8.",
        "Esto: 8.",
        "Studying 8.",
        "Espero que esto te ayude. 8.",
        "Hope this helps 8",
        "Hope this helps (8)",
        "Hope this helps\n\n8",
        "Hope this helps!\n\n**8**",
        "Надеюсь, это поможет! 8.",
        "Надеюсь, это поможет: 8.",
        "Good luck! 8.",
        "Thanks! Also 8.",
        "Hope this helps, 8.",
        "Hope this helps or 8.",
        "I hope this helps — 8.",
        "Esto es todo: 8.",
        "Things: 8 and 9.",
        "以上。Also 8.",
        "以上です。答えは8です。",
        "お役に立てれば幸いです。答えは8です。",
        "希望能帮到你！8",
        "希望能帮到你！也可能是8。",
        "도움이 되었기를 바랍니다. 8.",
        "도움이 되었기를 바랍니다. 답은 8입니다.",
    ],
)
def test_held_sign_off_then_another_value(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


_SIGN_OFF_PADS = (
    "held since h-m25 (a sentence after the box is read for values whatever its length); "
    "was open: hedging: a sign-off of five words in the sentence of another value (`Espero que "
    "esto te ayude: 8.`, `I hope this is clear: 8.`) makes it six words, an unread "
    "explanation, so the box keeps 1.0 (`Hope this helps, 8.` is read); root: "
    "_extract._unread_after_box (`_SHORT_REMARK` counts the allow-listed words too)"
)


@pytest.mark.parametrize(
    "tail",
    ["Espero que esto te ayude: 8.", "Espero que esto te ayude, 8.", "I hope this is clear: 8."],
)
def test_held_sign_off_pads_a_value_out_of_reach(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


_FULL_WIDTH_STOP = (
    "held since h-m28 (a full-width stop ends its sentence, `_FULL_WIDTH_STOP`); was open: other scripts: a bare value after a full-width sentence mark (`\\boxed{7}$。8`, "
    "`$！8`, `以上。8`) is not read, so the box keeps 1.0 (`$. 8。` is read); root: "
    "_extract._after_box (`sentence_key` reads `。` as a `.` glued to the value, `.8`, a "
    "number `_SENTENCE_NUMBER` refuses after a point)"
)


@pytest.mark.parametrize(
    ("box", "tail"),
    [
        ("答案是 $\\boxed{7}$。", "8"),
        ("答案是 $\\boxed{7}$。", "8 apples."),
        ("The answer is $\\boxed{7}$。", "8。"),
        ("The answer is $\\boxed{7}$！", "8"),
        (BOX, "以上。8"),
        (BOX, "以上です。8"),
        (BOX, "以上。8。"),
        (BOX, "お役に立てれば幸いです。8"),
    ],
)
def test_held_value_after_a_full_width_stop(reward: MathReward, box: str, tail: str) -> None:
    [score] = reward.score([Sample(APPLES, box + tail, reference="7")])
    assert score.value == 0.0


def test_held_value_after_a_full_width_stop_spaced(reward: MathReward) -> None:
    assert _after(reward, "8。") == 0.0


# === doubts in allow-listed words: buy credit ==================================================


@pytest.mark.parametrize(
    "tail",
    [
        "Or is it?",
        "Is the answer?",
        "Clear enough?",
        "Is it clear?",
        "Things are not clear.",
        "Not clear at all.",
        "Unclear.",
    ],
)
def test_held_doubt_after_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


_ALLOWED_DOUBT = (
    "open: no committed answer: a doubt spelled only in allow-listed words, a question with "
    "no affirming word (`Is it?`, `Is that so?`, `Is this it?`) or a condition on the box "
    "(`If so.`, `If correct.`, `If clear.`, `Clear if true.`, `If this is the answer.`), "
    "keeps the box's 1.0 though `Is that right?` and `Not clear.` doubt it; root: "
    "_extract._harmless_remark (`if` is on `_REMARK_WORDS` for `Let me know if ...`, and a "
    "question is read as doubt only by an affirming word)"
)


@_xfail(_ALLOWED_DOUBT)
@pytest.mark.parametrize(
    "tail",
    [
        "Is it?",
        "Was it?",
        "Is that so?",
        "Is this it?",
        "The answer is it?",
        "If so.",
        "If that is the answer.",
        "If this is the answer.",
        "If it is right.",
        "If correct.",
        "If clear.",
        "If it's clear.",
        "Clear if true.",
        "It is the answer if it is.",
    ],
)
def test_open_doubt_in_allow_listed_words(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


# === explanations after the box: false loss ====================================================


@pytest.mark.parametrize(
    "tail",
    [
        "Check: 7 + 3 = 10.",
        "Check: 10 − 3 = 7 ✓",
        "Check: 7 × 2 = 14.",
        "(7 × 2 = 14 halves)",
        "Verification: 3 + 4 = 7.",
        "Indeed, 10 - 3 = 7.",
        "So 10 - 3 = 7.",
        "Total: 10 − 3 = 7.",
        "That is, 10 − 3 = 7.",
        "I.e., 10 − 3 = 7.",
        "She ate 3 and kept 7.",
        "She ate 3, leaving 7.",
        "He sold 3, so 7 remain.",
        "She ate 3; 7 remain.",
        "Tom ate 3 of 10.",
        "Tom ate 3, Mia 2.",
        "Mia gave away 3.",
        "Mia sold 3 for $6.",
    ],
)
def test_held_explanation_keeps_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


_WORKING_STEP = (
    "held since h-m28 (a true equation told as a step of the working, `_tells_a_step`, states no other answer); was open: false loss (a regression of b15a7de): a step of the working after the box whose "
    "result is an intermediate value (`Since 5 × 2 = 10.`, `Note that 5 × 2 = 10.`, `Step 1: "
    "5 × 2 = 10.`, `Bob has 2 + 3 = 5.`) now costs the right box its 1.0 (all kept it at "
    "d782962); root: _extract._states_another_result (run before the explanation opener and "
    "the step labels: every equation with another result is read as an offered value)"
)


@pytest.mark.parametrize(
    "tail",
    [
        "Since 5 × 2 = 10.",
        "Since 5 \\times 2 = 10.",
        "(Since 5 × 2 = 10.)",
        "Note that 5 × 2 = 10.",
        "Because 2 × 5 = 10.",
        "First, 5 × 2 = 10.",
        "Step 1: 5 × 2 = 10.",
        "Step 1: 5 × 2 = 10. Step 2: 10 - 3 = 7.",
        "\n\nStep 1: 5 × 2 = 10\nStep 2: 10 − 3 = 7",
        "Bob has 2 + 3 = 5.",
        "(She bought 5 × 2 = 10.)",
    ],
)
def test_held_working_step_after_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


_FIRST_PERSON_STORY = (
    "held since h-m28 (the story's own values, those the question states, are excused whatever the subject); was open: false loss (a regression of b15a7de): in a story told in the first person "
    "(`I had 10 apples and ate 3.`), an explanation that tells it back (`So you ate 3.`, "
    "`Then you ate 3.`, `Tom and I ate 3.`) is read as the reply's own work, so the right "
    "box loses (kept at d782962); root: _extract._OWN_WORK (the pronoun decides, not whether "
    "the value is the story's own)"
)


@pytest.mark.parametrize("tail", ["So you ate 3.", "Then you ate 3.", "Tom and I ate 3."])
def test_held_first_person_story_told_back(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail, question=FIRST_PERSON) == 1.0


_OTHER_LANGUAGE_STORY = (
    "held since h-m28 (`_ACTING` and `_STORY_PRONOUNS` list the story verbs and subjects of the languages replies are written in); was open: false loss: a story sentence in another language (`Ella comió 3.`, `Sie aß 3.`, "
    "`Elle a mangé 3.`, `Она съела 3.`) is no explanation, so its operand unsays the right "
    "box (`She ate 3.` keeps it); root: _extract._ACTING (English verbs only)"
)


@pytest.mark.parametrize("tail", ["Ella comió 3.", "Sie aß 3.", "Elle a mangé 3.", "Она съела 3."])
def test_held_story_sentence_in_another_language(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


# === sign-offs: false loss ====================================================================


@pytest.mark.parametrize(
    "tail",
    [
        "Hope this explanation helps!",
        "I hope this is clear!",
        "Hope that makes things clear.",
        "Hope this makes it clear!",
        "Hope this clarifies.",
        "Hope that clarifies!",
        "I hope my explanation was clear.",
        "Hope this was clear and helpful!",
        "Let me know if anything is unclear.",
        "Let me know if you need clarification.",
        "Let me know if you need further clarification!",
        "Feel free to ask for clarification.",
        "Happy studying! 😊",
        "Keep studying!",
        "Good luck studying!",
        "Espero que esto te ayude 😊",
        "¡Espero que te sirva!",
        "Espero que esto aclare tus dudas.",
        "Espero que esta explicación te ayude.",
        "希望这对你有帮助！😊",
        "希望能帮到你。",
        "Hope this helps you!",
        "I hope this answers your question.",
        "Hope that's clear!",
        "Clear as day.",
        "All clear!",
        "Let me know if that's clear.",
        "以上です。",
        "お役に立てれば幸いです。",
    ],
)
def test_held_sign_off_keeps_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


_SIGN_OFF_GAPS = (
    "held since h-m28 (a remark is read by its courtesy words, a Chinese run cut into the listed words, `_courtesy_words`); was open: false loss: sign-offs as models write them but off the allow-list (`Hope this "
    "clears things up!`, `¡Espero haberte ayudado!`, `希望对您有帮助！` with the polite "
    "`您`, `希望这个解答对你有帮助！`, `如有疑问，请随时提问。`, `Hope this helps you "
    "understand!`, `Hope this answers your question!`, `Crystal clear.`) make the right box "
    "uncertain; root: _extract._harmless_remark (`_REMARK_WORDS` lists whole Chinese "
    "phrases and single spellings, so each variant must be listed)"
)


@pytest.mark.parametrize(
    "tail",
    [
        "Hope this clears things up!",
        "¡Espero haberte ayudado!",
        "希望对您有帮助！",
        "希望这个解答对你有帮助！",
        "如有疑问，请随时提问。",
        "Hope this helps you understand!",
        "Hope this answers your question!",
        "Crystal clear.",
    ],
)
def test_held_sign_off_off_the_list(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


# === the judge: what a yes-saying judge is shown ================================================


@pytest.mark.parametrize("answer", ["7 ≈ 8", "7 \\approxeq 8"])
@pytest.mark.parametrize("gold", ["7", "8"])
def test_held_approximation_hedge_never_reaches_the_judge(answer: str, gold: str) -> None:
    value, prompts = _judge(f"So the answer is $\\boxed{{{answer}}}$.", gold)
    assert (value, len(prompts)) == (0.0, 0)


@pytest.mark.parametrize(
    "tail",
    [
        "$ \\approx 8.",
        "$ ≈ 8.",
        " \\approx 8$.",
        "$. Also 8.",
        "$. So we ate 8.",
        "$. (3 + 4 = 8)",
        "$. They sold 3, leaving 8.",
    ],
)
@pytest.mark.parametrize("gold", ["7", "8"])
def test_held_another_value_after_the_box_never_reaches_the_judge(tail: str, gold: str) -> None:
    value, prompts = _judge("So the answer is $\\boxed{7}" + tail, gold)
    assert (value, len(prompts)) == (0.0, 0)


@pytest.mark.parametrize(
    ("answer", "gold"),
    [("7 \\approx 8", "7"), ("7 \\approx 8", "8"), ("7 \\cong 8", "7"), ("7 \\cong 8", "8")],
)
def test_held_approximation_hedge_never_shown_to_the_judge(answer: str, gold: str) -> None:
    """Fixed by h-m26 (`_normalize._joining_sign`: a hedge of two values is wrong, `HEDGED`)."""
    value, prompts = _judge(f"So the answer is $\\boxed{{{answer}}}$.", gold)
    assert (value, len(prompts)) == (0.0, 0)


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("7 \\simeq 8", "7"),
        ("7 \\sim 8", "7"),
        ("7 \\approx \\frac{16}{2}", "8"),
        ("7 \\approx 8\\%", "8"),
    ],
)
def test_held_approximation_hedge_of_any_sides_never_shown_to_the_judge(
    answer: str, gold: str
) -> None:
    """Fixed by h-m27 (`_normalize._joining_sign`: `HEDGED`, never shown to the judge)."""
    value, prompts = _judge(f"So the answer is $\\boxed{{{answer}}}$.", gold)
    assert (value, len(prompts)) == (0.0, 0)


@pytest.mark.parametrize(
    "tail", ["$. IDK.", "$. Jk.", "$. Scratch that.", "$. Not clear.", "$. Is this clear?", "$ ❌"]
)
def test_held_doubt_after_the_box_never_judged_on_the_box_alone(tail: str) -> None:
    """Fixed by h-m27 (`_normalize.BESIDE_THE_BOX`: what stands after the box unread is `wrong`, never the judge's)."""
    value, _ = _judge("So the answer is $\\boxed{7}" + tail, "7")
    assert value == 0.0
