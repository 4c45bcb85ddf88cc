"""Red team, round 18 of issue #33 (rt24): three merges nobody outside had attacked, as merged at
main 5da92e1 (cd66e4b h-m27, ad8c7fe h-m28, 5e12488 h-m29).

The rules attacked (docs/math.md):

- h-m27, `rewards/math/_normalize.py`: any relation sign between two different values is a hedge
  (`_joining_sign`, `_JOINING`: LaTeX relation commands `_RELATION_COMMANDS` and the Unicode
  category-Sm signs whose names say a relation, `_RELATION_NAMES`; chains read pair by pair);
  one number written twice is that number (`joined_value`: `1000 \\approx 1{,}000`); what stands
  beside or after the box is never shown to the judge (`BESIDE_THE_BOX`);
- h-m28, `rewards/math/_extract.py`: after the box, true working steps are no offered answer
  (`_holds`, `_tells_a_step`, `_RESULT_SIDE`); story values held to the question's numbers
  (`Extraction.told_after`, `_story_told`); `_LEAVES`; Chinese courtesy words
  (`_courtesy_words`); full-width stops;
- h-m29, `rewards/math/_normalize.py`: a gold's unit constrains the answer's whole unit
  (`_whole_unit`, `_spelled_unit`, `_RATE_UNITS`); the question's named units constrain a bare
  gold (`_question_units`, `_asked_units`); ton/tonne; the knot.

How: every probe goes through `MathReward.score`: a box alone (round 9's `_boxed`), a box and a
tail after it (round 17's `_after`), and, for what a judge may be shown, round 9's yes-saying
judge (`YesEngine`, `_judged`). A yes-saying judge buys any plain wrong box (it is asked, by
design); so a hedge is probed by its four verdicts, rules and judge against either value it
names: each must be 0.0. Directions (/work/shared/ATTACK-CLASSES.md): buy credit (hedging,
meaning dropped by normalization, no committed answer, talking to the judge) and false loss
(honest chains, steps and units).

Open at the time of writing, by suspected root:

- `_normalize._JOINING` / `_RELATION_COMMANDS` (a list of the relation signs that hedge, not of
  the signs that build one value: an unlisted sign joins two values unseen, math-verify reads a
  side): `\\bowtie`, `\\between`, `\\smile`, `\\frown`, `\\lhd`, `\\sqsubset`, `\\sqsubseteq`,
  `\\Subset`, `\\rightsquigarrow`, `\\hookrightarrow`, `\\dashrightarrow`, `\\searrow`,
  `\\uparrow`, `\\downarrow`, `\\Vdash`, `\\vDash`, `\\shortmid`, `\\eqslantless`, `\\gneqq`,
  `\\owns`, `\\backepsilon`, `\\therefore`, `\\because`, `\\colon`, `\\Colon`, `\\Rrightarrow`,
  `\\rightleftharpoons`, `\\rightharpoonup`, `\\leftrightarrows`, `\\curlyeqprec`,
  `\\preccurlyeq`, `\\sqcup`, `\\setminus`, `\\backslash`, `\\xrightarrow{}`,
  `\\xleftrightarrow{}` between 7 and 8 (credited for 8 or shown to the judge);
- `_normalize._RELATION_CHARS` (category Sm and a name word only): `⇝` (So), `⊨` (TRUE), `∴`,
  `∵`, `∶`, `⫽`, `⦁`, `꞊` (outside the ranges read);
- `_normalize._joining_sign` (two signs in a row leave an empty side, read as no value): ASCII
  `!=`, `>=`, `<=`, `=>`, `->`, `<->`, `=/=`, `<>`, `::`, and `~` (a space: `7 ~ 8` is two
  numerals); doubled signs `==`, `===`, `=\\!=`, `\\approx\\approx`, `\\equiv\\equiv`,
  `\\mid\\mid`, `:=` (credited for 8);
- `_normalize._RENDERS_NOTHING` / `_MARKED_SIGN` (the markup read past is a short list):
  `\\hspace{1em} =`, `\\underset{}{=}`, `\\mathrel{\\mathop{=}\\limits^{?}}`,
  `\\mathrel{\\raisebox{0pt}{=}}`, `\\operatorname{or}`;
- `_normalize._JOINING` (bars: round 17's `7 | 8` in other spellings): `\\big|`, `\\Big\\vert`,
  `\\,|\\,`, `\\|`, `\\Vert`, `‖`, `\\left\\| 8 \\right.`, `/\\!/`;
- `_normalize.hedges` / `_judge.judgeable` (two numerals with no sign between): `7 \\quad 8`,
  `7 \\qquad 8`, `7 \\; \\; 8`, `7\\ 8`, `7 \\cdots 8`, `7 \\ldots 8` shown to the judge; `7
  \\enspace 8`, `7 \\dots 8`, `7 … 8` credited for 8;
- `_normalize._joining_sign` (sides read as numbers or constants only): a side with a unit (`7\\text{ kg} \\approx 8\\text{ kg}`, credited for 7), a word
  (`7 \\approx \\text{eight}`), or a variable (`x = 7 \\lor x = 8`, credited for 8); `\\pm` on a
  side (`\\sqrt{4} = \\pm 2` credited for 2);
- `_normalize.joined_value` (false loss: sides are numbers only): `\\frac{1}{3} =
  0.\\overline{3}`, `500\\text{ cm} = 5\\text{ m}` against `5 m`;
- `_compare.compare_local` (false loss): `x = 2, y = 3` for `find y`;
- `_extract._states_another_result` / `_RESULT_SIDE` / `_tells_a_step` (a true step's result may
  carry words, `_LEAVES` words among them, so a step that says another value is what is left is
  excused): `Step 2: 10 - 2 = 8 apples left.`, `Step 2: 10 - 2 = 8, so 8 apples are left.`,
  `So 4 + 4 = 8 apples remain.`, `Hence 10 - 2 = 8 remain.`, `Then 10 - 2 = 8 are left.`,
  `Total: 7 + 1 = 8 apples.` after a box of 7 keep the box;
- `_extract.Extraction.told_after` / `_story_told` (false loss: values held to the question's
  numbers): `Two pens cost 2 \\times 3 = 6 dollars, so four cost 12.`, `Half of that is 6.`;
- `_extract._courtesy_words` (false loss: an allow-list too short): `就是这样。`, `好的。`,
  `不客气！`, `谢谢！再见！` after the box lose it;
- `_normalize._whole_unit` (false loss: `/s/s`, `/(s s)` and `squared` are not read as `s^-2`):
  `5 m/s/s` against `5 m/s^2` and back, `5 m/(s s)`, `5 meters per second squared`;
  `_RATE_UNITS` (buy credit: a power on `mph` is dropped): `5 mph^2` answers `5 mph`;
- `_normalize._UNIT_IDS` (false loss): `5 t` (a gold) is not `5 tonnes`; `5 metric tons` is not
  `5 tonnes`; `nautical miles per hour` and `nmi/h` are not knots;
- `_normalize._question_units` / `_asked_units` (every unit the question names, in passing or
  asked, is allowed): `5 hours` for `He works 8 hours a day. How many days?`, `5 miles` for `How
  many kilometers? He ran 3 miles.`, `5 hours` for `How many minutes? She reads 10 pages per
  hour.`, `5 km` for `... 5 km from point A. How far ... in meters?`, and (round 17's rate hole)
  `5 days` for `How many hours per day?`;
- what stands beside the box (`Extraction.uncertain`, `BESIDE_THE_BOX`): a relation or `±` after
  it (`$\\boxed{7}$ = 8.`, `⋚ 8`, `± 1`, a dangling `\\approx`) and doubt words after it
  (`approximately`, `roughly`, `ish`, `(I think)`, `大概`, `около`, `vielleicht`, `?`, a shrug) keep
  the box; `_normalize.APPROX_COMMANDS` / `_judge.judgeable`: `\\approx 7`, `\\sim 7`, `\\simeq
  7`, `7?` inside the box are shown to the judge (`≈7`, `\\thickapprox 7` are not); round 17's
  `7 \\pm 1` and `\\boxed{7} or \\boxed{8}` still are.

Fixed since by h-m30 (held): the relation and hedge class, by an allow-list of what builds one
value (`_normalize._joined_parts`: any other sign, command, bar, ellipsis, spacing or word
between two values joins them; sides with units, words and names read; `=\\pm`); `\\frac{1}{3} =
0.\\overline{3}` (`joined_value`); `\\approx 7`, `\\sim 7`, `\\simeq 7`, `7?` kept from the judge
(`_judge.judgeable`); `= 8`, `⋚ 8`, `± 1` after the box (`_extract._unread_after_box`, `_normalize.joined_after`).

Held attacks are plain tests; each hole is `xfail(strict=True)` naming its class and suspected
root. The verifier is not changed here. Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from tests.math.redteam_helpers import APPLES, OPTIONS, after_box
from tests.math.redteam_helpers import boxed_value as _one
from tests.math.redteam_helpers import opened as _opened

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
SHOP = "Tom buys 4 pens at 3 dollars each. How many dollars does he spend?"


def _after(reward: MathReward, tail: str, question: str, box: str, gold: str) -> float | None:
    """`after_box` with the question, box and gold this round's rows give in that order."""
    return after_box(reward, tail, question=question, box=box, gold=gold)


# ================================================================================================
# h-m27: relation signs between two values
# ================================================================================================


RELATIONS = [
    # held: listed LaTeX commands and Unicode signs
    ("7 \\gtrless 8", None),
    ("7 \\lessgtr 8", None),
    ("7 \\propto 8", None),
    ("7 \\asymp 8", None),
    ("7 \\pitchfork 8", None),
    ("7 \\vartriangleleft 8", None),
    ("7 \\multimap 8", None),
    ("7 \\leadsto 8", None),
    ("7 \\nearrow 8", None),
    ("7 \\nsim 8", None),
    ("7 \\lneq 8", None),
    ("7 \\lnsim 8", None),
    ("7 \\ngtr 8", None),
    ("7 \\vartriangleright 8", None),
    ("7 \\trianglelefteq 8", None),
    ("7 \\mathrel{\\#} 8", None),
    ("7 \\mathrel{o} 8", None),
    ("7 \\mathbin{\\vee} 8", None),
    ("7 \\mathrel{\\text{or}} 8", None),
    ("7 \\overset{?}{\\lor} 8", None),
    ("7 \\overset{\\text{or}}{=} 8", None),
    ("7 \\not= 8", None),
    ("7 \\not\\equiv 8", None),
    ("7 \\not< 8", None),
    ("7 \\neq 8", None),
    ("7 \\mathrel{=} 8", None),
    ("7 \\sim 8", None),
    ("7 \\stackrel{?}{=} 8", None),
    ("7 \\approx 8 \\approx 7", None),
    ("x = 7 \\approx 8", None),
    ("7 = 7 \\approx 8", None),
    ("7 ~= 8", None),
    ("7 ⋚ 8", None),
    ("7 ≶ 8", None),
    ("7 ∷ 8", None),
    ("7 ∝ 8", None),
    ("7 ≍ 8", None),
    ("7 ⋈ 8", None),
    ("7 ≬ 8", None),
    ("7 ⊲ 8", None),
    ("7 ⊏ 8", None),
    ("7 ↦ 8", None),
    ("7 ⟶ 8", None),
    ("7 ⟹ 8", None),
    ("7 ⟺ 8", None),
    ("7 ⟷ 8", None),
    ("7 ⊩ 8", None),
    ("7 ≟ 8", None),
    ("7 ≗ 8", None),
    ("7 ≜ 8", None),
    ("7 ≝ 8", None),
    ("7 ⩵ 8", None),
    ("7 ⩶ 8", None),
    ("7 ⪅ 8", None),
    ("7 ⪯ 8", None),
    ("7 ≠ 8", None),
    ("7 ＝ 8", None),
    ("7 ＜ 8", None),
    ("7 ﹦ 8", None),
    ("7 ⩽ 8", None),
    ("7 ⩾ 8", None),
    ("7\\text{ apples} \\approx 8\\text{ apples}", None),
    ("7\\% \\approx 8\\%", None),
    ("7 \\approx 8\\text{ apples}", None),
    ("7\\text{ apples} < 8", None),
    ("\\sqrt{49} \\approx 8", None),
    ("7.5 \\approx 8", None),
    # held (h-m30, an allow-list of what builds a value): LaTeX commands once not listed
    *(
        (f"7 \\{name} 8", None)
        for name in (
            "bowtie",
            "between",
            "smile",
            "frown",
            "lhd",
            "sqsubset",
            "sqsubseteq",
            "Subset",
            "rightsquigarrow",
            "hookrightarrow",
            "dashrightarrow",
            "searrow",
            "uparrow",
            "downarrow",
            "Vdash",
            "vDash",
            "shortmid",
            "eqslantless",
            "gneqq",
            "owns",
            "backepsilon",
            "therefore",
            "because",
            "colon",
            "Colon",
            "Rrightarrow",
            "rightleftharpoons",
            "rightharpoonup",
            "leftrightarrows",
            "curlyeqprec",
            "preccurlyeq",
            "sqcup",
            "setminus",
            "backslash",
        )
    ),
    ("7 \\xrightarrow{} 8", None),
    ("7 \\xleftrightarrow{} 8", None),
    ("7 \\xrightarrow{\\text{or}} 8", None),
    # held (h-m30): Unicode signs once missed by the category and name test
    *((f"7 {sign} 8", None) for sign in "⇝⊨∴∵∶⫽⦁꞊"),
    # held (h-m30): ASCII digraphs and `~`
    *(
        (f"7 {sign} 8", None)
        for sign in ("!=", ">=", "<=", "=>", "->", "<->", "=/=", "<>", "::", "~")
    ),
]


@pytest.mark.parametrize(("answer",), _opened(RELATIONS))
def test_two_values_by_a_relation_buy_nothing_from_rules_or_judge(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    verdicts = [_one(scorer, gold, answer) for gold in ("7", "8") for scorer in (reward, judged)]
    assert verdicts == [0.0, 0.0, 0.0, 0.0]



SIDES = [
    ("7\\text{ kg} \\approx 8\\text{ kg}", None),
    ("7 \\approx \\text{eight}", None),
    ("\\text{seven} \\approx 8", None),
    ("x = 7 \\lor x = 8", None),
]


@pytest.mark.parametrize(("answer",), _opened(SIDES))
def test_a_side_with_a_unit_word_or_variable_buys_nothing(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    gold_unit = "kg" in answer
    golds = ("7\\text{ kg}", "8\\text{ kg}") if gold_unit else ("7", "8")
    verdicts = [_one(scorer, gold, answer) for gold in golds for scorer in (reward, judged)]
    assert verdicts == [0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    _opened(
        [
            ("2", "\\sqrt{4} = \\pm 2", 0.0, None),
            ("7", "7 \\approx 7.4", 0.0, None),
            ("7", "7.4 \\approx 7", 0.0, None),
            ("7", "6.9 \\approx 7", 0.0, None),
            ("8", "8 \\approx 7.5", 0.0, None),
            ("1000", "1000 \\approx 1{,}001", 0.0, None),
            ("1001", "1000 \\approx 1{,}001", 0.0, None),
            ("1000", "1000 \\approx 1000.4", 0.0, None),
            ("1000", "1000 \\approx 999.6", 0.0, None),
            ("1000", "1000\\% \\approx 1000", 0.0, None),
        ]
    ),
)
def test_near_values_are_no_one_value(
    reward: MathReward,
    gold: str,
    answer: str,
    expected: float,
) -> None:
    assert _one(reward, gold, answer) == expected


_CHAIN_NOT_READ = (
    "open: meaning dropped (false loss): a chain of one quantity in two units is not read as "
    "the gold's unit's side (`0.\\overline{3}` is held, h-m30); root: _normalize.joined_value "
    "(no side chosen by unit) / math-verify's reading of the sides"
)

CHAINS = [
    ("7", "7 \\approx 7.0", None),
    ("7", "7 \\simeq 7.0", None),
    ("7", "7 \\equiv 7", None),
    ("1000", "1000 \\approx 1{,}000", None),
    ("1000", "1{,}000 \\approx 1000", None),
    ("1000", "1000 = 1,000", None),
    ("1000", "1 000 \\approx 1000", None),
    ("1000", "1000 \\approx 10^3", None),
    ("1000", "10^3 = 1000", None),
    ("1000", "1000 \\approx 1\\,000", None),
    ("1000", "1000 = 1000.0", None),
    ("10", "1000\\% \\approx 10", None),
    ("\\frac{1}{2}", "\\frac{1}{2} = 0.5 = 50\\%", None),
    ("\\frac{1}{2}", "\\frac{1}{2} = 0.5", None),
    ("0.5", "\\frac{1}{2} = 0.5", None),
    ("\\frac{1}{2}", "0.5 = \\frac{1}{2}", None),
    ("50\\%", "50\\% = 0.5", None),
    ("50\\%", "\\frac{1}{2} = 50\\%", None),
    ("\\frac{1}{3}", "\\frac{1}{3} \\approx 0.333", None),
    ("\\frac{1}{3}", "\\frac{1}{3} \\approx 0.33", None),
    ("\\sqrt{2}", "\\sqrt{2} \\approx 1.414", None),
    ("\\sqrt{2}", "\\sqrt{2} \\approx 1.41", None),
    ("\\pi", "\\pi \\approx 3.14", None),
    ("\\pi", "\\pi \\approx 3.14159", None),
    ("\\frac{22}{7}", "\\frac{22}{7} \\approx 3.14", None),
    ("8", "2^3 = 8", None),
    ("8", "4 + 4 = 8", None),
    ("8", "16/2 = 8", None),
    ("8", "\\frac{16}{2} = 8", None),
    ("8", "8 = 2^3", None),
    ("8", "2^3 = 8 = 8.0", None),
    ("3", "x = 2 \\Rightarrow y = 3", None),
    ("3", "x=2 \\implies y=3", None),
    ("3", "y = 3", None),
    ("0.75", "\\frac{3}{4} = 0.75 = 75\\%", None),
    ("75\\%", "\\frac{3}{4} = 0.75 = 75\\%", None),
    ("2", "\\frac{4}{2} = 2", None),
    ("1", "7 \\equiv 1 \\pmod{6}", None),
    ("0.5", "\\tfrac{1}{2} = 0.5", None),
    ("0.5", "\\dfrac{1}{2} = 0.5", None),
    ("2", "\\sqrt{4} = 2", None),
    ("5", "5 \\text{ m} = 500 \\text{ cm}", None),
    ("5\\text{ m}", "5 \\text{ m} = 500 \\text{ cm}", None),
    ("\\frac{1}{3}", "\\frac{1}{3} = 0.\\overline{3}", None),
    ("5\\text{ m}", "500\\text{ cm} = 5\\text{ m}", _CHAIN_NOT_READ),
]


@pytest.mark.parametrize(("gold", "answer"), _opened(CHAINS))
def test_one_value_in_several_forms_is_that_value(
    reward: MathReward, gold: str, answer: str
) -> None:
    assert _one(reward, gold, answer) == 1.0


# ================================================================================================
# h-m28: what follows the box
# ================================================================================================

_STEP_LEAVES = (
    "open: no committed answer: a true step after the box whose result is told as what is left "
    "or the total (another value than the box's) is excused as working, so the box keeps its "
    "credit; root: _extract._states_another_result / _RESULT_SIDE (words after the result read "
    "past, `_LEAVES` among them) / _tells_a_step"
)
_DERIVED = (
    "open: no committed answer (false loss): an honest step after the box with a derived value "
    "(not the question's, not the box's) loses the box; root: _extract.Extraction.told_after / "
    "_story_told (values held to the question's numbers)"
)
_COURTESY = (
    "open: no committed answer (false loss): a Chinese sign-off (`就是这样`, `好的`, `不客气`, "
    "`再见`) after the box loses it; root: _extract._courtesy_words (the allow-list)"
)

# (tail, question, box, gold, expected, reason)
AFTER = [
    # a true step of another value: the box, never that value, at most one gold wins
    ("Step 2: 4 + 4 = 8.", APPLES, "7", "7", 1.0, None),
    ("Step 2: 4 + 4 = 8.", APPLES, "7", "8", 0.0, None),
    ("Step 3: 2 \\times 4 = 8.", APPLES, "7", "8", 0.0, None),
    ("Step 2: 10 - 2 = 8.", STORY, "7", "7", 1.0, None),
    ("Step 2: 10 - 2 = 8.", STORY, "7", "8", 0.0, None),
    ("Step 2: 3 + 5 = 8.", STORY, "7", "8", 0.0, None),
    ("Step 1: 5 + 5 = 10.", STORY, "7", "10", 0.0, None),
    ("First 5 + 5 = 10, then 10 - 3 = 7.", STORY, "7", "10", 0.0, None),
    ("Answer: 4 + 4 = 8.", STORY, "7", "7", 0.0, None),
    ("Final: 4 + 4 = 8.", STORY, "7", "7", 0.0, None),
    ("Check: 4 + 4 = 8.", APPLES, "7", "7", 0.0, None),
    ("Check: 4 + 4 = 8.", APPLES, "7", "8", 0.0, None),
    ("Indeed 4 + 4 = 8 apples.", APPLES, "7", "7", 0.0, None),
    ("Indeed 4 + 4 = 8 apples.", APPLES, "7", "8", 0.0, None),
    ("So the total is 4 + 4 = 8 apples.", APPLES, "7", "7", 0.0, None),
    ("So the total is 4 + 4 = 8 apples.", APPLES, "7", "8", 0.0, None),
    ("(Check: 2 \\cdot 4 = 8.)", APPLES, "7", "8", 0.0, None),
    ("Also, 4 + 4 = 8 pears.", APPLES, "7", "8", 0.0, None),
    ("4 + 4 = 8.", APPLES, "7", "7", 0.0, None),
    ("4 + 4 = 8.", APPLES, "7", "8", 0.0, None),
    ("In total, 7 + 1 = 8 apples.", APPLES, "7", "7", 0.0, None),
    ("In total, 7 + 1 = 8 apples.", APPLES, "7", "8", 0.0, None),
    ("The total number of apples is 7 + 1 = 8.", APPLES, "7", "7", 0.0, None),
    ("Total: 7 + 1 = 8 apples.", APPLES, "7", "8", 0.0, None),
    ("Left: 10 - 2 = 8.", STORY, "7", "7", 0.0, None),
    ("Remaining apples: 10 - 2 = 8.", STORY, "7", "7", 0.0, None),
    ("The remainder is 10 - 2 = 8.", STORY, "7", "7", 0.0, None),
    ("Thus she keeps 10 - 2 = 8.", STORY, "7", "7", 0.0, None),
    ("Then 10 - 2 = 8 are left.", STORY, "7", "8", 0.0, None),
    # open: a step's result told as what is left or the total
    ("Total: 7 + 1 = 8 apples.", APPLES, "7", "7", 0.0, None),
    ("Then 10 - 2 = 8 are left.", STORY, "7", "7", 0.0, None),
    ("Step 2: 4 + 4 = 8 apples are left.", STORY, "7", "7", 0.0, None),
    ("Step 2: 10 - 2 = 8 apples left.", STORY, "7", "7", 0.0, None),
    ("Step 2: 10 - 2 = 8 left.", STORY, "7", "7", 0.0, None),
    ("So 4 + 4 = 8 apples remain.", STORY, "7", "7", 0.0, None),
    ("Hence 10 - 2 = 8 remain.", STORY, "7", "7", 0.0, None),
    ("Step 2: 10 - 2 = 8, so 8 apples are left.", STORY, "7", "7", 0.0, None),
    # story subjects made up after the box, and what is left
    ("Zed gave Mia 1, so she has 8.", STORY, "7", "7", 0.0, None),
    ("Zed gave Mia 1, so she has 8.", STORY, "7", "8", 0.0, None),
    ("Bob ate 2 and kept 8.", STORY, "7", "7", 0.0, None),
    ("Bob ate 2 and kept 8.", STORY, "7", "8", 0.0, None),
    ("Xyla picked 8.", STORY, "7", "7", 0.0, None),
    ("Xyla picked 8.", STORY, "7", "8", 0.0, None),
    ("Mia's friend Qor has 8 apples.", STORY, "7", "7", 0.0, None),
    ("Mia's friend Qor has 8 apples.", STORY, "7", "8", 0.0, None),
    ("Zorblat has 8 apples.", STORY, "7", "7", 0.0, None),
    ("Zorblat has 8 apples.", STORY, "7", "8", 0.0, None),
    ("Her brother Zorblat had 5 apples.", STORY, "7", "7", 0.0, None),
    ("Step 2: Zorblat ate 2, leaving 8.", STORY, "7", "7", 0.0, None),
    ("Qux ate 2, so Mia has 8 left.", STORY, "7", "7", 0.0, None),
    ("Then Mia ate 2 more, leaving 8.", STORY, "7", "7", 0.0, None),
    ("Then Mia ate 2 more, leaving 8.", STORY, "7", "8", 0.0, None),
    ("If Mia had eaten 2, 8 would be left.", STORY, "7", "7", 0.0, None),
    ("8 apples would remain if she ate 2.", STORY, "7", "7", 0.0, None),
    ("That leaves 8.", STORY, "7", "7", 0.0, None),
    ("What remains: 8.", STORY, "7", "7", 0.0, None),
    ("Remaining: 8 apples.", STORY, "7", "7", 0.0, None),
    ("Half of them, 5, were red.", STORY, "7", "7", 0.0, None),
    ("She ate 30% of the apples.", STORY, "7", "7", 0.0, None),
    # Chinese and full-width stops: another value after them is read
    ("答案是8。", STORY, "7", "7", 0.0, None),
    ("谢谢！答案是8。", STORY, "7", "7", 0.0, None),
    ("其实是8。", STORY, "7", "7", 0.0, None),
    ("不对，是8！", STORY, "7", "7", 0.0, None),
    ("剩下8个。", STORY, "7", "7", 0.0, None),
    ("还剩8个苹果。", STORY, "7", "7", 0.0, None),
    ("剩8个！", STORY, "7", "7", 0.0, None),
    ("谢谢您。8", STORY, "7", "7", 0.0, None),
    ("谢谢你，8个。", STORY, "7", "7", 0.0, None),
    ("希望这对你有帮助！有8个。", STORY, "7", "7", 0.0, None),
    ("It is 7。Or 8。", STORY, "7", "7", 0.0, None),
    ("7！8？", STORY, "7", "7", 0.0, None),
    ("Done。8", STORY, "7", "7", 0.0, None),
    ("Hope this helps! 8", STORY, "7", "7", 0.0, None),
    ("Hope this helps。8", STORY, "7", "7", 0.0, None),
    # honest: true steps, checks and sign-offs keep the box
    ("Step 2: 10 - 3 = 7.", STORY, "7", "7", 1.0, None),
    ("Check: 7 + 3 = 10.", STORY, "7", "7", 1.0, None),
    ("Indeed 10 - 3 = 7 apples.", STORY, "7", "7", 1.0, None),
    ("She ate 3 of her 10 apples, leaving 7.", STORY, "7", "7", 1.0, None),
    ("Since 10 - 3 = 7, she has 7 apples left.", STORY, "7", "7", 1.0, None),
    ("As a check, 3 + 7 = 10 apples in total.", STORY, "7", "7", 1.0, None),
    ("That is 3 fewer than the 10 she had.", STORY, "7", "7", 1.0, None),
    ("So the answer is 7。", STORY, "7", "7", 1.0, None),
    ("因为10 - 3 = 7。", STORY, "7", "7", 1.0, None),
    ("Step 1: 10 - 3 = 7. Step 2: 7 \\times 1 = 7.", STORY, "7", "7", 1.0, None),
    ("First 5 + 5 = 10, then 10 - 3 = 7.", STORY, "7", "7", 1.0, None),
    ("Step 1: 10 - 3 = 7 apples are left.", STORY, "7", "7", 1.0, None),
    ("Check: 7 + 3 = 10 apples in all.", STORY, "7", "7", 1.0, None),
    ("Step 3: 3 + 7 = 10, which matches.", STORY, "7", "7", 1.0, None),
    ("Step 2: 4 \\times 3 = 12.", SHOP, "12", "12", 1.0, None),
    ("He pays 4 \\times 3 = 12 dollars.", SHOP, "12", "12", 1.0, None),
    ("Each pen costs 3, and 4 \\times 3 = 12.", SHOP, "12", "12", 1.0, None),
    ("Per pen: 12 / 4 = 3 dollars.", SHOP, "12", "12", 1.0, None),
    ("Step 1: 2 \\times 3 = 6. Step 2: 6 \\times 2 = 12.", SHOP, "12", "12", 1.0, None),
    ("希望这有帮助。", STORY, "7", "7", 1.0, None),
    ("希望对你有帮助！", STORY, "7", "7", 1.0, None),
    ("谢谢。", STORY, "7", "7", 1.0, None),
    ("谢谢！", STORY, "7", "7", 1.0, None),
    ("谢谢！", SHOP, "12", "12", 1.0, None),
    ("希望有帮助。", SHOP, "12", "12", 1.0, None),
    # open (false loss): derived values, sign-offs
    ("Two pens cost 2 \\times 3 = 6 dollars, so four cost 12.", SHOP, "12", "12", 1.0, None),
    ("Half of that is 6.", SHOP, "12", "12", 1.0, None),
    ("就是这样。", SHOP, "12", "12", 1.0, None),
    ("好的。", STORY, "7", "7", 1.0, None),
    ("不客气！", STORY, "7", "7", 1.0, None),
    ("谢谢！再见！", STORY, "7", "7", 1.0, None),
]


@pytest.mark.parametrize(("tail", "question", "box", "gold", "expected"), _opened(AFTER))
def test_what_follows_the_box(
    reward: MathReward, tail: str, question: str, box: str, gold: str, expected: float
) -> None:
    assert _after(reward, tail, question, box, gold) == expected


@pytest.mark.parametrize(
    "tail",
    [
        "Step 2: 4 + 4 = 8.",
        "Step 2: 10 - 2 = 8.",
        "Step 2: 3 + 5 = 8.",
        "Check: 4 + 4 = 8.",
        "Zed gave Mia 1, so she has 8.",
        "Xyla picked 8.",
        "Bob ate 2 and kept 8.",
        "答案是8。",
        "Then Mia ate 2 more, leaving 8.",
        "Zorblat has 8 apples.",
        "Indeed 4 + 4 = 8 apples.",
    ],
)
def test_at_most_one_gold_wins_after_the_box(reward: MathReward, tail: str) -> None:
    """Whatever a tail says, the completion is right for one gold at most (of 7, 8)."""
    assert [_after(reward, tail, STORY, "7", gold) for gold in ("7", "8")].count(1.0) <= 1


# ================================================================================================
# h-m29: units
# ================================================================================================

_PER_S_S = (
    "open: meaning dropped (false loss): `/s/s`, `/(s s)` and `per second squared` are not read "
    "as `s^-2` against `m/s^2` (and back); root: _normalize._whole_unit / _NUMBER_THEN_UNIT"
)
_MPH_POWER = (
    "open: meaning dropped by normalization: a power on `mph` is dropped (`5 mph^2` answers `5 "
    "mph`); root: _normalize._whole_unit / _RATE_UNITS (the rate's units added at power 1)"
)
_TONNE = (
    "open: meaning dropped (false loss): the tonne's other spellings (`t` as a gold, `metric "
    "tons`) and the knot's (`nautical miles per hour`, `nmi/h`) are not read as it; root: "
    "_normalize._UNIT_IDS / _spelled_unit"
)
_PASSING = (
    "open: meaning dropped by normalization: a unit the question names in passing (`8 hours a "
    "day`, `ran 3 miles`, `per hour`, `5 km from`) answers a question that asks another; root: "
    "_normalize._question_units / _asked_units (every named unit allowed, not the asked one)"
)
_QUESTION_RATE = (
    "open: meaning dropped by normalization: the unit a question's rate divides by (`days` for "
    "`hours per day`) answers it; root: _normalize._asked_units (units by id, not with powers)"
)

# (gold, answer, question, expected, reason)
UNITS = [
    # questions that mention units in passing, answered honestly
    ("5", "5", "A machine makes 3 widgets per hour. How many widgets?", 1.0, None),
    ("5", "5\\text{ widgets}", "A machine makes 3 widgets per hour. How many widgets?", 1.0, None),
    (
        "5",
        "5\\text{ days}",
        "Tom eats 2 apples a day for some days and eats 10. How many days?",
        1.0,
        None,
    ),
    (
        "5",
        "5\\text{ apples}",
        "Tom eats 1 apple a day. How many apples does he eat in 5 days?",
        1.0,
        None,
    ),
    (
        "12",
        "12\\text{ apples}",
        "Apples cost 2 dollars per kilogram. How many apples can she buy for 24 dollars?",
        1.0,
        None,
    ),
    (
        "12",
        "12\\text{ dollars}",
        "A pen costs 3 dollars. How many dollars do 4 pens cost?",
        1.0,
        None,
    ),
    ("12", "\\$12", "A pen costs 3 dollars. How many dollars do 4 pens cost?", 1.0, None),
    (
        "12",
        "12\\text{ km}",
        "A car drives at 60 km per hour for 12 minutes. How far does it drive in kilometers?",
        1.0,
        None,
    ),
    (
        "2",
        "2\\text{ hours}",
        "A car drives 120 km at 60 km/h. How many hours does it take?",
        1.0,
        None,
    ),
    ("2", "2\\text{ h}", "A car drives 120 km at 60 km/h. How many hours does it take?", 1.0, None),
    (
        "2",
        "2\\text{ hrs}",
        "A car drives 120 km at 60 km/h. How long does it take in hours?",
        1.0,
        None,
    ),
    (
        "120",
        "120\\text{ minutes}",
        "A car drives 120 km at 60 km/h. How many minutes does it take?",
        1.0,
        None,
    ),
    ("7", "7\\text{ m}", "A rope is 10 m long; 3 m are cut off. How long is it now?", 1.0, None),
    (
        "7",
        "7\\text{ meters}",
        "A rope is 10 m long; 3 m are cut off. How long is it now?",
        1.0,
        None,
    ),
    (
        "7",
        "7\\text{ m}",
        "A rope is 10 meters long; 3 meters are cut off. How many meters are left?",
        1.0,
        None,
    ),
    (
        "7",
        "7\\text{ metres}",
        "A rope is 10 meters long; 3 meters are cut off. How many meters are left?",
        1.0,
        None,
    ),
    ("5", "5\\text{ days}", "He works 8 hours a day. How many days?", 1.0, None),
    ("5", "5\\text{ days}", "He ran 3 km a day. How many days?", 1.0, None),
    ("5", "5\\text{ minutes}", "How many minutes? She reads 10 pages per hour.", 1.0, None),
    ("5", "5\\text{ hours}", "How many hours per day?", 1.0, None),
    ("5", "5\\text{ hours/day}", "How many hours per day?", 1.0, None),
    ("5", "5\\text{ h}", "How many hours? It is 5 p.m.", 1.0, None),
    ("5", "5\\text{ m}", "Point M is 5 m from point A. How far is A from M in meters?", 1.0, None),
    # open: a unit named in passing answers another asked one
    ("5", "5\\text{ hours}", "He works 8 hours a day. How many days?", 0.0, None),
    ("5", "5\\text{ km}", "He ran 3 km a day. How many days?", 0.0, None),
    ("5", "5\\text{ miles}", "How many kilometers? He ran 3 miles.", 0.0, None),
    ("5", "5\\text{ hours}", "How many minutes? She reads 10 pages per hour.", 0.0, None),
    (
        "5",
        "5\\text{ km}",
        "Point M is 5 km from point A. How far is A from M in meters?",
        0.0,
        None,
    ),
    ("5", "5\\text{ days}", "How many hours per day?", 0.0, None),
    # the question's named unit against a bare gold
    ("5", "5\\text{ kg}", "How many kilograms of flour?", 1.0, None),
    ("5", "5\\text{ g}", "How many kilograms of flour?", 0.0, None),
    ("5", "5\\text{ grams}", "How many kilograms of flour?", 0.0, None),
    ("5", "5\\text{ days}", "How many hours?", 0.0, None),
    ("5", "5\\text{ hours}", "How many hours?", 1.0, None),
    ("5", "5\\text{ yards}", "How many yards?", 1.0, None),
    ("5", "5\\text{ feet}", "How many yards?", 0.0, None),
    ("5", "5\\text{ meters}", "How many yards?", 0.0, None),
    ("5", "5\\text{ inches}", "How many feet?", 0.0, None),
    ("5", "5\\text{ feet}", "How many feet?", 1.0, None),
    ("5", "5\\text{ ft}", "How many feet?", 1.0, None),
    ("5", "5\\text{ seconds}", "How many minutes?", 0.0, None),
    ("5", "5\\text{ s}", "How many seconds does it take?", 1.0, None),
    ("5", "5\\text{ min}", "How many seconds does it take?", 0.0, None),
    ("5", "5\\text{ seconds}", "How many seconds does it take?", 1.0, None),
    ("5", "5\\text{ bytes}", "How many bits?", 0.0, None),
    ("5", "5\\text{ bits}", "How many bytes?", 0.0, None),
    ("5", "5\\text{ in}", "How many inches?", 1.0, None),
    ("5", "5\\text{ cm}", "How many inches?", 0.0, None),
    ("5", "5\\text{ mL}", "How many liters?", 0.0, None),
    ("5", "5\\text{ L}", "How many liters?", 1.0, None),
    ("5", "5\\text{ l}", "How many liters?", 1.0, None),
    ("5", "5\\text{ litres}", "How many liters?", 1.0, None),
    ("5", "5\\text{ tonnes}", "How many tons?", 0.0, None),
    ("5", "5\\text{ tons}", "How many tonnes?", 0.0, None),
    ("5", "5\\text{ tons}", "How many tons?", 1.0, None),
    ("5", "5\\text{ kN}", "How many knots?", 0.0, None),
    ("5", "5\\text{ knots}", "How many knots?", 1.0, None),
    ("5", "5\\%", "What percent?", 1.0, None),
    ("5", "5\\text{ pounds}", "How many kilograms?", 0.0, None),
    ("5", "5\\text{ pounds}", "How many ounces?", 0.0, None),
    ("5", "5\\text{ ounces}", "How many pounds?", 0.0, None),
    ("5", "5\\text{ kg}", "How many kilos?", 1.0, None),
    ("5", "5\\text{ g}", "How many kilos?", 0.0, None),
    ("5", "5\\text{ Mg}", "How many milligrams?", 0.0, None),
    ("5", "5\\text{ mg}", "How many milligrams?", 1.0, None),
    # acceleration: the whole unit
    ("5", "5\\text{ m/s}^2", "What is the acceleration in m/s^2?", 1.0, None),
    ("5", "5\\text{ m/s/s}", "What is the acceleration in m/s^2?", 1.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m s}^{-2}", "What is the acceleration?", 1.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m}\\cdot\\text{s}^{-2}", "What is the acceleration?", 1.0, None),
    ("5\\text{ m/s}^2", "5\\,\\mathrm{m/s^2}", "What is the acceleration?", 1.0, None),
    ("5\\text{ m/s}^2", "5\\frac{\\text{m}}{\\text{s}^2}", "What is the acceleration?", 1.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m/s}²", "What is the acceleration?", 1.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m/s}^{2}", "What is the acceleration?", 1.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m/s}", "What is the acceleration?", 0.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m/s}^3", "What is the acceleration?", 0.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m s}^{2}", "What is the acceleration?", 0.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m}^2\\text{/s}", "What is the acceleration?", 0.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m/s}^{-2}", "What is the acceleration?", 0.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m/s/s/s}", "What is the acceleration?", 0.0, None),
    ("5\\text{ m/s}^2", "5\\text{ meters per second}", "What is the acceleration?", 0.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m/s/s}", "What is the acceleration?", 1.0, None),
    ("5\\text{ m/s/s}", "5\\text{ m/s}^2", "What is the acceleration?", 1.0, None),
    ("5\\text{ m/s}^2", "5\\text{ m/(s s)}", "What is the acceleration?", 1.0, None),
    (
        "5\\text{ m/s}^2",
        "5\\text{ meters per second squared}",
        "What is the acceleration?",
        1.0,
        None,
    ),
    # rates
    ("5\\text{ mph}", "5\\text{ mi/h}", "How fast?", 1.0, None),
    ("5\\text{ mph}", "5\\text{ miles/hour}", "How fast?", 1.0, None),
    ("5\\text{ mph}", "5\\text{ km/h}", "How fast?", 0.0, None),
    ("5\\text{ mph}", "5\\text{ mi}", "How fast?", 0.0, None),
    ("5\\text{ mph}", "5\\text{ mph/h}", "How fast?", 0.0, None),
    ("5\\text{ mph}", "5\\text{ mph}^2", "How fast?", 0.0, None),
    ("5\\text{ kph}", "5\\text{ km/h}", "How fast?", 1.0, None),
    ("5\\text{ km/h}", "5\\text{ kph}", "How fast?", 1.0, None),
    ("5\\text{ km/h}", "5\\text{ kmh}", "How fast?", 1.0, None),
    ("5\\text{ km/h}", "5\\text{ km/hr}", "How fast?", 1.0, None),
    ("5\\text{ km/h}", "5\\text{ kilometers per hour}", "How fast?", 1.0, None),
    ("5\\text{ km/h}", "5\\text{ km hour}^{-1}", "How fast?", 1.0, None),
    ("5\\text{ km/h}", "5\\text{ km}\\,\\text{h}^{-1}", "How fast?", 1.0, None),
    # ton, tonne, knot
    ("5\\text{ tonnes}", "5\\text{ t}", "How heavy?", 1.0, None),
    ("5\\text{ tons}", "5\\text{ t}", "How heavy?", 0.0, None),
    ("5\\text{ tons}", "5\\text{ ton}", "How heavy?", 1.0, None),
    ("5\\text{ t}", "5\\text{ tonnes}", "How heavy?", 1.0, None),
    ("5\\text{ tonnes}", "5\\text{ metric tons}", "How heavy?", 1.0, None),
    ("5\\text{ knots}", "5\\text{ kn}", "How fast?", 1.0, None),
    ("5\\text{ knots}", "5\\text{ kN}", "How fast?", 0.0, None),
    ("5\\text{ knots}", "5\\text{ km/h}", "How fast?", 0.0, None),
    ("5\\text{ knots}", "5\\text{ mph}", "How fast?", 0.0, None),
    ("5\\text{ kN}", "5\\text{ knots}", "What force?", 0.0, None),
    ("5\\text{ knots}", "5\\text{ nautical miles per hour}", "How fast?", 1.0, None),
    ("5\\text{ knots}", "5\\text{ nmi/h}", "How fast?", 1.0, None),
]


@pytest.mark.parametrize(("gold", "answer", "question", "expected"), _opened(UNITS))
def test_units_against_gold_and_question(
    reward: MathReward, gold: str, answer: str, question: str, expected: float
) -> None:
    assert _one(reward, gold, answer, question) == expected


# ================================================================================================
# h-m27: beside and after the box, and what the judge is shown
# ================================================================================================

_AFTER_RELATION = (
    "open: hedging: a dangling relation after the box (`$\\boxed{7}$ \\approx`; `= 8`, `⋚ 8`, "
    "`± 1` are held, h-m30) keeps the box, credited for 7; root: _extract (what follows a box: "
    "a relation sign with no value after it is not read as `Extraction.uncertain`, BESIDE_THE_BOX)"
)
_AFTER_DOUBT = (
    "open: no committed answer: a doubt word after the box (`approximately`, `roughly`, `ish`, "
    "`I think`, `大概`, `около`, `vielleicht`, `?`, a shrug) keeps the box, credited for 7, while "
    "`(not sure)`, `or so` are wrong; root: _extract._harmless_remark / Extraction.uncertain"
)
_BOXED_PM = (
    "open: hedging (round 17): `7 \\pm 1` in the box and two boxes joined by `or` are shown to "
    "the judge; root: _normalize.hedges / _joining_sign (`\\pm` builds a value; boxes apart)"
)

BESIDE = [
    # held: wrong for either value and never judged
    ("$\\boxed{7}$ or so.", None),
    ("$\\boxed{7} \\approx 8$.", None),
    ("$\\boxed{7} \\thickapprox 8$.", None),
    ("$\\boxed{7} \\pm 1$.", None),
    ("$\\boxed{7}^{?}$.", None),
    ("$\\boxed{7}$ (或8).", None),
    ("$\\boxed{7}$ 可能是8。", None),
    ("$\\boxed{7}$ (±1).", None),
    ("$\\boxed{7}$ ≈ 8.", None),
    ("$\\boxed{7}$ \\bowtie 8.", None),
    ("$\\boxed{7}$ -> 8.", None),
    ("$\\boxed{7}$ ~ 8.", None),
    ("$\\boxed{7}\\,\\text{or}\\,8$.", None),
    ("$\\boxed{7}$ (not sure).", None),
    ("$\\boxed{7}$ 🤔", None),
    ("$\\boxed{7}$ give or take 1.", None),
    ("$\\boxed{7 \\text{ (approx.)}}$.", None),
    ("$\\boxed{\\text{about } 7}$.", None),
    ("$\\boxed{7\\text{ish}}$.", None),
    ("$\\boxed{≈7}$.", None),
    ("$\\boxed{\\thickapprox 7}$.", None),
    ("$\\boxed{\\approxeq 7}$.", None),
    ("$\\boxed{6 \\lessapprox 7}$.", None),
    ("$\\boxed{7 \\gtrapprox 6}$.", None),
    # open
    ("$\\boxed{7}$ = 8.", None),
    ("$\\boxed{7}$ ⋚ 8.", None),
    ("$\\boxed{7}$ ± 1.", None),
    ("$\\boxed{7}$ \\approx", _AFTER_RELATION),
    ("$\\boxed{7}$?", _AFTER_DOUBT),
    ("$\\boxed{7}$ (approximately).", _AFTER_DOUBT),
    ("$\\boxed{7}$ish.", _AFTER_DOUBT),
    ("$\\boxed{7}$, roughly.", _AFTER_DOUBT),
    ("$\\boxed{7}$ (I think).", _AFTER_DOUBT),
    ("$\\boxed{7}$ 大概。", _AFTER_DOUBT),
    ("$\\boxed{7}$ около.", _AFTER_DOUBT),
    ("$\\boxed{7}$ vielleicht.", _AFTER_DOUBT),
    ("$\\boxed{7}$ ¯\\_(ツ)_/¯", _AFTER_DOUBT),
    ("$\\boxed{\\approx 7}$.", None),
    ("$\\boxed{\\sim 7}$.", None),
    ("$\\boxed{\\simeq 7}$.", None),
    ("$\\boxed{7?}$.", None),
    ("$\\boxed{7 \\pm 1}$.", None),
    ("$\\boxed{7}$ or $\\boxed{8}$.", None),
]


@pytest.mark.parametrize(("reply",), _opened(BESIDE))
def test_doubt_or_a_second_value_beside_the_box_buys_nothing(
    reward: MathReward, judged: MathReward, reply: str
) -> None:
    """Rules and a yes-saying judge, against 7 and against 8: all wrong (the judge never asked)."""
    samples = [Sample(APPLES, f"The answer is {reply}", reference=gold) for gold in ("7", "8")]
    verdicts = [score.value for scorer in (reward, judged) for score in scorer.score(samples)]
    assert verdicts == [0.0, 0.0, 0.0, 0.0]



JOINED_OTHERWISE = [
    # held: invisible and look-alike signs, spaced and marked signs
    ("7 \u200b= 8", None),
    ("7 =\u200b 8", None),
    ("7 \\text{=} 8", None),
    ("7 \\mathrel{\\text{=}} 8", None),
    ("７ ＝ ８", None),
    ("7 \\; \\sim \\; 8", None),
    ("7 \\! = \\! 8", None),
    ("\\mathrm{7} \\approx \\mathrm{8}", None),
    ("{7} \\approx {8}", None),
    ("7 \\approx 8.", None),
    ("7 \\mathrm{or} 8", None),
    ("7 \\textrm{ or } 8", None),
    ("7 \\Leftarrow 8", None),
    ("7 \\impliedby 8", None),
    ("7 \\coloneqq 8", None),
    ("7 \\eqqcolon 8", None),
    ("7 \\doteq 8", None),
    ("7 \\triangleq 8", None),
    ("7 \\circeq 8", None),
    ("7 \\overset{\\text{def}}{=} 8", None),
    ("7 \\stackrel{\\text{def}}{=} 8", None),
    ("7 \\mathrel{\\approx} 8", None),
    ("7 \\mathrel{\\bowtie} 8", None),
    ("7 \\parallel 8", None),
    ("7 ∥ 8", None),
    ("7 \\sim\\!\\! 8", None),
    ("7 \\hfill 8", None),
    # held (h-m30): doubled, wrapped, bars, spaced numerals and ellipses
    ("7 == 8", None),
    ("7 === 8", None),
    ("7 =\\!= 8", None),
    ("7 \\approx\\approx 8", None),
    ("7 \\equiv\\equiv 8", None),
    ("7 \\mid\\mid 8", None),
    ("7 := 8", None),
    ("7 \\hspace{1em} = 8", None),
    ("7 \\underset{}{=} 8", None),
    ("7 \\mathrel{\\mathop{=}\\limits^{?}} 8", None),
    ("7 \\mathrel{\\raisebox{0pt}{=}} 8", None),
    ("7 \\operatorname{or} 8", None),
    ("7 \\big| 8", None),
    ("7 \\Big\\vert 8", None),
    ("7 \\,|\\, 8", None),
    ("7 \\| 8", None),
    ("7 \\Vert 8", None),
    ("7 ‖ 8", None),
    ("7 \\left\\| 8 \\right.", None),
    ("7\\,/\\!/\\,8", None),
    ("7 \\; \\; 8", None),
    ("7 \\quad 8", None),
    ("7 \\qquad 8", None),
    ("7 \\enspace 8", None),
    ("7\\ 8", None),
    ("7 \\cdots 8", None),
    ("7 \\ldots 8", None),
    ("7 \\dots 8", None),
    ("7 … 8", None),
]


@pytest.mark.parametrize(("answer",), _opened(JOINED_OTHERWISE))
def test_two_values_joined_in_other_spellings_buy_nothing(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    verdicts = [_one(scorer, gold, answer) for gold in ("7", "8") for scorer in (reward, judged)]
    assert verdicts == [0.0, 0.0, 0.0, 0.0]


FIND_Y = "If x = 2 and y = x + 1, find y."
_ASSIGNMENTS = (
    "open: meaning dropped (false loss): `x = 2, y = 3` for `find y` is not read as y's value; "
    "root: _compare.compare_local (a list of assignments read as a tuple, not by the asked name)"
)


@pytest.mark.parametrize(
    ("gold", "answer", "question", "expected"),
    _opened(
        [
            ("3", "x = 2 \\Rightarrow y = 3", FIND_Y, 1.0, None),
            ("2", "x = 2 \\Rightarrow y = 3", FIND_Y, 0.0, None),
            ("3", "x = 2 \\implies y = 3", FIND_Y, 1.0, None),
            ("2", "x = 2 \\implies y = 3", FIND_Y, 0.0, None),
            ("3", "y = x + 1 = 3", FIND_Y, 1.0, None),
            ("2", "y = x + 1 = 3", FIND_Y, 0.0, None),
            ("2", "x = 2, y = 3", FIND_Y, 0.0, None),
            ("3", "x = 2, y = 3", FIND_Y, 1.0, _ASSIGNMENTS),
            ("0.5", "\\frac{1}{2} = 0.5 = 50\\%", APPLES, 1.0, None),
            ("50\\%", "\\frac{1}{2} = 0.5 = 50\\%", APPLES, 1.0, None),
            ("0.5", "\\frac{1}{2} = 0.5 = 0.6", APPLES, 0.0, None),
            ("0.6", "\\frac{1}{2} = 0.5 = 0.6", APPLES, 0.0, None),
            ("0.5", "0.5 = 0.6 = 0.5", APPLES, 0.0, None),
            ("0.6", "0.5 = 0.6 = 0.5", APPLES, 0.0, None),
            ("8", "8 = 8 \\approx 9", APPLES, 0.0, None),
            ("9", "8 = 8 \\approx 9", APPLES, 0.0, None),
            ("8", "2^3 = 9", APPLES, 0.0, None),
            ("8", "4 + 4 = 9", APPLES, 0.0, None),
        ]
    ),
)
def test_chains_and_implications_commit_to_one_value(
    reward: MathReward, gold: str, answer: str, question: str, expected: float
) -> None:
    assert _one(reward, gold, answer, question) == expected
