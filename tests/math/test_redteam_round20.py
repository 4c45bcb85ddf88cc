"""Red team, round 20 of issue #33 (rt30): three merges nobody outside had attacked, as merged at
main 4801f56 (dbb1d08: h-m34 with h-m35 and h-m36).

The rules attacked (docs/math.md):

- h-m34, `rewards/math/_normalize.py`: a value-building sign or command with no operand where
  it stands joins two values (`_builds_nothing`); markup that renders nothing or only a style
  is a space (`_as_rendered`), unbraced spacing dimensions are the command's; a word between
  values wrapped in brackets or text commands (`_WORD_BETWEEN`, `_WORD_OPENING`), `v`/`V` as
  `∨`; a name given two values (`_NAMED_AGAIN`); `7 [8]` (`_ASIDE_BRACKET`); `6--8`
  (`_RANGE_DASH`); lists in `hedges` (`_LISTED`, rows of environments `_STACKED`, function
  arguments `_LIST_OPERAND`: `\\max(7, 8)` is one value);
- h-m35, `_normalize.joined_after` and `rewards/math/_extract.py`: after the box, a mark then
  a value is two values; a join's second side is the value right after its sign; special-token
  text is padding; honest asides after the box (story retold, numbered recaps, a true part of
  a value, a what-if under the reply's own condition, `, which is 70% of them`) keep the box;
  an aside offering another value as the answer, a total or what is left loses it;
- h-m36, `_normalize`: `short tons` answers `tons` one way (`_plain_size`), a rate asked is
  answered only as that rate (`_rates_named`), a money question only by currency units
  (`_ASKS_MONEY`, `_money_named`), `dozen` asked is the unit (`_COUNTING_GROUPS`), `\\text{ t}`.

How: every probe goes through `MathReward.score`: a box alone (`boxed_value`), whole
completions for what follows the box, and for hedges the yes-saying judge (`judged`): a hedge
must score 0.0 from the rules and from the judge against either value it names. Values that
one expression builds by design (`7 (8)`, `|7| |8|`, `7 \\log 8`, `7 \\div 8`) are no hedge and
are not probed here. Unit rows assert the rules' verdict only (a wrong unit may be shown to the
judge by design). Both directions: buy credit and false losses (honest answers in real model
layouts: heights, angles, money with cents, rates, recaps after the box, end-of-turn text).

Held (441 plain): 170 spellings of two values in a box (other styles and text commands
around `or`, spacing and phantom commands, `V`/`v` look-alikes, brackets, dashes, named values,
marks, function names), after-box asides that offer another value (story retold with other
numbers, recaps, parts of values, what-ifs, relative clauses, turn markers in ChatML, Llama-2
and plain forms, marks then a value, joins near and far), honest recaps and layouts (R1, Qwen,
Llama), and the asked quantity (money, rates, tons, tonnes, dozen) in both directions.

Open at the time of writing (80 strict xfails, 57 after h-m39, none after h-m40), by suspected root (reasons
below name each):

- fixed by h-m37 (36 rows, now plain tests; `_normalize`): rows of every environment that
  stacks rows unbracketed, each row a value (`_stacked`: `align`, `gather`, `split`, starred,
  `\\frac{14}{2} \\\\ 8`); old-style font switches around a word (`_WORD_OPENING`: `{\\rm or}`,
  `{\\bf or}`, `{\\it or}`) and `v`/`V` glued between numerals (`_LOR_GLUED`: `7\\text{V}8`);
  phantoms and starred spacing as space (`_as_rendered`: `\\hspace*{1em}`, `\\hphantom{0}`,
  `\\vphantom{0}`); a numeral in angle brackets after one (`_ASIDE_ANGLE`: `7 \\langle 8
  \\rangle`); one name given two values by any name and value (`_NAMED_AGAIN`: `\\alpha`, `x =
  \\frac{14}{2}`; `_NAMED_LISTED`: `x = 7, x = 8`); a function's value among listed numerals
  (`_LIST_OPERAND` read as a numeral: `\\max(7), 8`, `\\gcd(7, 8) , 8`); `''` one mark
  (`_TOKENS`: `7'' 8`) and a degree sign between numerals leaving a space (`_without_degrees`:
  `7^\\circ 8`); infix commands read as TeX does (`\\bmod` as `\\mod`, `7 \\choose 8` as
  `\\binom{7}{8}`, `_choose_as_binomial`; `7 \\binom 8` has one argument: `_TWO_ARGUMENTS`);
- `_extract` after the box: a relation or slash that opens the next sentence (`\\boxed{7}. = 8`,
  `. / 8`, `! = 8`, `.\\n= 8`) keeps the box; `^\\circ 8`; Llama-3 header tags then `Actually
  8.`; `<think>maybe 8</think> 8`; a what-if told with the question's own verb (`he would spend
  8 dollars`); an `Answer: 8` line, an `<answer>8</answer>` tag or a second turn's box after it
  shown to the judge.

False losses open: DeepSeek's `<｜end▁of▁sentence｜>` after the box; numbered recaps with labels
or in the present tense.

Fixed by h-m39 (23 probes of the asked quantity, now plain tests), in `_normalize`: a money
question is answered only by an amount of money (`_MONEY_ASKED`: `12 \\text{ pens}`, `12
\\text{ items}`, `12 dollars per pen` no longer credited); the rate asked is the whole unit of
the answer (`_other_whole_unit`: `5 \\text{ m}^2\\text{/s}`); a group counted in stands once
(`5 dozen dozen`); a gold's qualifier binds to its unit (`_plain_size`: `5 tons short`); and
false losses: primes and feet/inches (`_marks_read`: `5′8″`, `5^{\\prime} 8^{\\prime\\prime}`,
`5 ft 8 in`), currency commands and dollars and cents (`_money_read`: `\\textdollar 12`, `\\$5
and 50 cents`), a divisor after a slash (`\\$15/\\text{hr}`), `元` as a sign (`120 元`), rate
symbols in `_RATE_UNITS` (`mpg`, `kmph`, `kmpl`), `doz` in `_UNIT_SPELLINGS`, `short-tons`,
`pair` in `_COUNTING_GROUPS` (`5 pairs`), magnitude words before a unit (`5 dozen apples`).

Fixed by h-m38 (20 rows, now plain tests; `rewards/math/_extract.py`, `_normalize.joined_after`):
a relation or slash opening the sentence after the box (`. = 8`, `. / 8`, `! = 8`, `.\\n= 8`,
`. $= 8$`, `. ^\\circ 8`: a second value); Llama-3 header tags with their role, DeepSeek's
`<｜end▁of▁sentence｜>` and the other special-token spellings (data the model wrote: one
`_SPECIAL_TOKEN` pattern); `<think>maybe 8</think> 8` (a closing tag ends what it held); `3.
Answer: 8` on a recap's item and `<answer>8</answer>` after the box (a second answer beside it:
no answer, never judged); a second turn's `\\boxed{8}` was left open (fixed by h-m40, below). h-m38 adds its own spellings in both
directions at the end of `AFTER`. Also fixed by h-m38: a what-if told with a verb of the story's
people (`he would spend 8 dollars`: its value is offered as the result, `_acted_before`) and
numbered recaps in labels (two or more labelled items, `_recap_label`) or the present tense
(`Mia starts with 10 apples.`: `_STARTING`).

Fixed by h-m40 (`rewards/math/_extract.py`: `_box_group`, `_TURN_TEXT`): special-token text
with the role after it (`<|im_start|>assistant`, Gemma's `<start_of_turn>model`) is padding
between boxes as it is after one, so a second turn's box with only the marker between
(`\\boxed{7}. <|im_end|><|im_start|>assistant \\boxed{8}`) stands beside the box as
`\\boxed{7}. \\boxed{8}` does: two answers, right for neither gold, never judged; a box after
words is still the answer. Gemma's `<start_of_turn>`, `<end_of_turn>` join the special-token
spellings (`_SPECIAL_TOKEN`), and a role after a marker is padding after the box (`<|im_start|>
assistant\\nActually 8.` unsays it). h-m40's rows are at the end of `AFTER`, both directions.

Held attacks are plain tests; each hole is `xfail(strict=True)` naming its class and suspected
root. Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from tests.math.redteam_helpers import APPLES, OPTIONS
from tests.math.redteam_helpers import boxed_value as _one
from tests.math.redteam_helpers import boxed_values as _boxed
from tests.math.redteam_helpers import opened as _opened

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
SHOP = "Tom buys 4 pens at 3 dollars each. How much does he spend?"
WORK = "Mia had 10 apples. She ate 3, so 10 - 3 = 7.\n\n"
BOX = "The answer is $\\boxed{7}$. "

# Reasons of the open rows, by suspected root.
_STACKED = (
    "open: hedging: rows of an environment `_STACKED` does not list (`align`, `gather`, `split`: "
    "8 credited) or rows that are no bare numeral (`\\frac{14}{2} \\\\ 8`, judged) are no list; "
    "root: _normalize._stacked / _STACKED"
)


# ================================================================================================
# h-m34: what stands between two values in a box
# ================================================================================================

# Each answer names 7 and 8 (or 6 and 8); against either, rules and a yes-saying judge: 0.0.
HEDGES_HELD = [
    '7 \\, , \\, 8', '\\max(7, 8) \\text{ or } 7', '\\begin{array}{cc} 7 & 8 \\end{array}',
    '\\begin{matrix} 7 & 8 \\end{matrix}', '\\begin{array}{c} x = 7 \\\\ x = 8 \\end{array}',
    '7 \\\\ 8', '7 \\newline 8', '7 \\cr 8', '7 & 8', '7 \\text{ }\\text{or}\\text{ } 8',
    '7 \\textbf{ or } 8', '7 \\mathrm{or} 8', '7 \\textnormal{or} 8', '7 \\textup{or} 8',
    '7 \\texttt{or} 8', '7 \\hbox{or} 8', '7 \\fbox{or} 8', '7 \\color{red}{or} 8',
    '7 \\textcolor{red}{or} 8', '7 \\mathrm{~or~} 8', '7 \\text{~or~} 8', '7 \\ \\mathrm{or}\\ 8',
    '7 \\mathtt{or} 8', '7 \\textsc{or} 8', '7 \\textsl{or} 8', '7 \\mathcal{or} 8',
    '7 \\pmb{or} 8', '7 \\mathbb{or} 8', '7 \\kern 1 em 8', '7 \\kern1.5em 8', '7 \\kern-1em 8',
    '7 \\hskip 1em plus 1em 8', '7 \\kern 1pt 8', '7 \\mskip 18mu 8', '7 \\kern1mu8',
    '7 \\hspace{1em} 8', '7 \\phantom{0} 8', '7 \\mathstrut 8', '7 \\strut 8', '7 \\displaystyle 8',
    '7 \\scriptscriptstyle 8', '7 \\mathbf{} 8', '7 \\overline{ } 8', '7 \\boxed{ } 8',
    '7 \\hat{} 8', '7 \\tilde{} 8', '7 \\sqrt{} 8', '7 \\frac{}{} 8', '7 \\phantom{} 8', '7 {} 8',
    '7 \\text{} 8', '7 \\mbox{} 8', '7 \\underbrace{}_{} 8', '7 \\; 8', '7 \\! 8', '7 \\enspace 8',
    '7 \\quad 8', '7 \\qquad 8', '7 ~ 8', '7 \\nobreakspace 8', '7 \\space 8', '7 \\ 8', '7\\,8',
    '7 \\thinspace 8', '7 \\medspace 8', '7 \\thickspace 8', '7 \\negthinspace 8', '7 \\vee 8',
    '7 \\lor 8', '7 v 8', '7 V 8', '7 \\text{v} 8', '7 \\text{V} 8', '7 \\mathrm{V} 8',
    '7 \\text{ V } 8', '7 ⋁ 8', '7 ∨ 8', '7 ᐯ 8', '7 ν 8', '7 Ѵ 8', '7 ⅴ 8', '7 Ⅴ 8', '7 ｖ 8',
    '7 Ｖ 8', '7 \\vee\\vee 8', '7 [8]', '7 \\left[ 8 \\right]', '7 [ 8 ]', '7[8]',
    '7 [\\text{or } 8]', '7 \\lbrack 8 \\rbrack', '7 \\text{[}8\\text{]}', '7 ⟦8⟧', '7 【8】',
    '7 （8）', '7 ［8］', '6 -- 8', '6 --- 8', '6\\text{---}8', '6 – 8', '6 — 8', '6\\text{ to }8',
    '6\\text{–}8', '6 \\sim 8', '6 ~~ 8', '6 ‒ 8', '6 ― 8', '6 ⁓ 8', '6 \\textendash 8',
    '6 \\textemdash 8', '6 \\mbox{--} 8', 'x = 7 \\quad x = 8', 'x = 7 \\; x = 8', 'x=7\\,x=8',
    'x = 7 x = 8', 'x = 7 \\\\ x = 8', 'x_1 = 7 \\quad x_1 = 8', 'x = 7 \\quad \\text{x} = 8',
    'x = 7 \\quad x= +8', 'x = 7 \\quad x = 8.0', 'x = 7.0 \\quad x = 8',
    'x = 7 \\quad x \\approx 8', 'x = 7; x = 8', 'x = 7 \\quad x = \\frac{16}{2}',
    'x = 7 \\quad x_{} = 8', 'n = 7 \\quad n = 8', '7 \\circ 8', '7 \\cdot\\cdot 8',
    '7 \\times\\times 8', '7 / / 8', '7 // 8', '7 \\% 8', '7\\% 8', '7 \\%\\, 8', "7 ' 8",
    '7 ^\\circ 8', '7° 8', '7 \\degree 8', '7!!8', '7 \\lfloor 8', '7 \\rfloor 8', '7 | 8',
    '7 \\mid 8', '7 \\| 8', '7 \\, \\max \\, 8', '\\max 7, 8', '7 \\lim 8', '7 \\arg 8',
    '7 \\sup 8', '7 \\inf 8', '7 \\Pr 8', '7 \\ker 8', '7 \\dim 8', '7 \\hom 8', '7 \\liminf 8',
    '7 \\limsup 8', '7 \\over 8', '7 \\infty 8', '7 \\aleph 8', '7 \\emptyset 8', '7 \\partial 8',
    '7 \\nabla 8', '7 \\imath 8', '7 \\cdots 8', '7 \\ldots 8', '7 \\dots 8', '7 … 8',
    '7 \\vdots 8', '7 ⋯ 8', '7 · · 8',
]

HEDGES_OPEN = [
    ('\\max(7, 8), 7', '7', None),
    ('\\max(7, 8), 7', '8', None),
    ('\\max(7), 8', '7', None),
    ('\\max(7), 8', '8', None),
    ('\\gcd(7, 8) , 8', '7', None),
    ('\\gcd(7, 8) , 8', '8', None),
    ('\\begin{array}{c} \\frac{14}{2} \\\\ 8 \\end{array}', '7', None),
    ('\\begin{array}{c} \\frac{14}{2} \\\\ 8 \\end{array}', '8', None),
    ('\\begin{array}{c} 7 \\\\ \\frac{16}{2} \\end{array}', '7', None),
    ('\\begin{array}{c} 7 \\\\ \\frac{16}{2} \\end{array}', '8', None),
    ('\\begin{align} 7 \\\\ 8 \\end{align}', '7', None),
    ('\\begin{align} 7 \\\\ 8 \\end{align}', '8', None),
    ('\\begin{gather} 7 \\\\ 8 \\end{gather}', '7', None),
    ('\\begin{gather} 7 \\\\ 8 \\end{gather}', '8', None),
    ('\\begin{split} 7 \\\\ 8 \\end{split}', '7', None),
    ('\\begin{split} 7 \\\\ 8 \\end{split}', '8', None),
    ('7 {\\rm or} 8', '7', None),
    ('7 {\\rm or} 8', '8', None),
    ('7 {\\bf or} 8', '7', None),
    ('7 {\\bf or} 8', '8', None),
    ('7 {\\it or} 8', '7', None),
    ('7 {\\it or} 8', '8', None),
    ('7 \\hspace*{1em} 8', '7', None),
    ('7 \\hspace*{1em} 8', '8', None),
    ('7 \\hphantom{0} 8', '7', None),
    ('7 \\hphantom{0} 8', '8', None),
    ('7 \\vphantom{0} 8', '7', None),
    ('7 \\vphantom{0} 8', '8', None),
    ('7\\text{V}8', '7', None),
    ('7\\text{V}8', '8', None),
    ('7 \\langle 8 \\rangle', '7', None),
    ('7 \\langle 8 \\rangle', '8', None),
    ('x = 7, x = 8', '7', None),
    ('x = 7, x = 8', '8', None),
    ('x = \\frac{14}{2} \\quad x = 8', '7', None),
    ('x = \\frac{14}{2} \\quad x = 8', '8', None),
    ('\\alpha = 7 \\quad \\alpha = 8', '7', None),
    ('\\alpha = 7 \\quad \\alpha = 8', '8', None),
    ("7'' 8", '7', None),
    ("7'' 8", '8', None),
    ('7^\\circ 8', '7', None),
    ('7^\\circ 8', '8', None),
]


@pytest.mark.parametrize("answer", HEDGES_HELD)
def test_two_values_in_other_spellings_buy_nothing(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    """Rules and a yes-saying judge, against 7 and against 8: all wrong (never judged)."""
    verdicts = [v for scorer in (reward, judged) for v in (
        _boxed(scorer, "7", [answer]) + _boxed(scorer, "8", [answer]))]
    assert verdicts == [0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize(("answer", "gold"), _opened(HEDGES_OPEN))
def test_two_values_against_each_gold(
    reward: MathReward, judged: MathReward, answer: str, gold: str
) -> None:
    assert [_one(reward, gold, answer), _one(judged, gold, answer)] == [0.0, 0.0]


# One value that an infix command builds, or one the allow-list builds: its value, never 8.
BUILT = [
    ("\\min(7, 8, 9)", "7", 1.0, None),
    ("\\max(7, 8)", "7", 0.0, None),
    ("7 \\bmod 8", "8", 0.0, None),
    ("7 \\mod 8", "8", 0.0, None),
    ("7 \\mod 8", "7", 1.0, None),
    ("7 \\choose 8", "8", 0.0, None),
    ("7 \\binom 8", "8", 0.0, None),
    ("7 \\over 8", "8", 0.0, None),
    ("\\frac{7}{8}", "8", 0.0, None),
]


@pytest.mark.parametrize(("answer", "gold", "expected"), _opened(BUILT))
def test_one_value_built_by_a_command(
    reward: MathReward, answer: str, gold: str, expected: float
) -> None:
    assert _one(reward, gold, answer) == expected


# h-m37: the same roots in spellings the round did not probe. Each names 7 and 8: against either,
# rules and a yes-saying judge, 0.0 (never judged).
HEDGES_FIXED = [
    '\\begin{align*} 7 \\\\ 8 \\end{align*}', '\\begin{multline} 7 \\\\ 8 \\end{multline}',
    '\\begin{gather*} \\frac{14}{2} \\\\ 8 \\end{gather*}', '\\begin{eqnarray} 7 \\\\ 8 \\end{eqnarray}',
    '\\begin{alignat}{2} 7 & \\\\ & 8 \\end{alignat}', '\\begin{split} 7 \\\\ \\sqrt{64} \\end{split}',
    '7 {\\sf or} 8', '7 {\\tt or} 8', '7 {\\em or} 8', '7\\text{v}8', '7 \\vspace*{1em} 8',
    '7 \\hspace * {1em} 8', '7 \\hphantom{x} 8', '7 \\phantom{00} 8', '7 ⟨8⟩',
    '7 \\left\\langle 8 \\right\\rangle', '\\beta = 7 \\quad \\beta = 8',
    'x_1 = \\sqrt{49} \\quad x_1 = 8', 'y = 7, y = 8', '\\theta = 7, \\theta = 8', '\\min(8), 7',
    '\\min(7, 8) , 8', '7°8', '7^{\\circ}8', "7''8", '7 \\frac 8', '7 \\dbinom 8',
]


@pytest.mark.parametrize("answer", HEDGES_FIXED)
def test_two_values_in_the_fixed_roots_buy_nothing(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    verdicts = [v for scorer in (reward, judged) for v in (
        _boxed(scorer, "7", [answer]) + _boxed(scorer, "8", [answer]))]
    assert verdicts == [0.0, 0.0, 0.0, 0.0]


# ... and honest answers beside those roots keep their credit (rules and judge alike).
HONEST_BESIDE = [
    ("7 \\choose 2", "21"), ("2 + 7 \\choose 2", "36"), ("\\binom{7}{8}", "0"), ("7 \\choose 8", "0"),
    ("9 \\bmod 4", "1"), ("\\max(7, 8)", "8"), ("\\gcd(12, 18)", "6"), ("30^\\circ", "30"),
    ("5'8''", "5'8\""), ("45^\\circ 30'", "45^\\circ 30'"), ("\\begin{align} 7 \\end{align}", "7"),
    ("\\alpha = 7", "7"), ("x = \\frac{14}{2}", "7"), ("\\frac12", "0.5"),
    ("\\langle 7, 8 \\rangle", "\\langle 7, 8 \\rangle"), ("x = 2, x = 3", "2, 3"),
    ("x = 7, y = 8", "x = 7, y = 8"), ("\\max(7, 8), \\min(7, 8)", "8, 7"),
    ("\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}", "\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}"),
]


@pytest.mark.parametrize(("answer", "gold"), HONEST_BESIDE)
def test_honest_answers_beside_the_fixed_roots(
    reward: MathReward, judged: MathReward, answer: str, gold: str
) -> None:
    assert [_one(reward, gold, answer), _one(judged, gold, answer)] == [1.0, 1.0]


# ================================================================================================
# h-m35: what follows the box (whole completions; rules and a yes-saying judge)
# ================================================================================================

def _after(tail: str) -> str:
    return WORK + BOX + tail


AFTER = [
    # a second value told after the box: no committed answer
    (_after("— she ate 3 of 10, so 8 could also work."), STORY, "7", 0.0, None),
    (_after("— she ate 2 of 10."), STORY, "7", 0.0, None),
    (_after("— she had 11 and ate 3."), STORY, "7", 0.0, None),
    (_after("— she ate 3 of 10 and kept 8."), STORY, "7", 0.0, None),
    (_after("— she ate 3 of 10, leaving 8."), STORY, "7", 0.0, None),
    (_after("— Mia ate 3 of 10, but she has 8 now."), STORY, "7", 0.0, None),
    (_after("— she ate 3 of 10 (or 8)."), STORY, "7", 0.0, None),
    (_after("— she ate 3 of 10; Mia has 8."), STORY, "7", 0.0, None),
    (_after("\n1. Mia had 10 apples.\n2. She ate 3.\n3. She has 8 apples now."), STORY, "7", 0.0, None),
    (_after("\n1. Mia had 11 apples.\n2. She ate 3."), STORY, "7", 0.0, None),
    (_after("\n1. Mia had 10 apples.\n2. She ate 2."), STORY, "7", 0.0, None),
    (_after("\n1) Mia had 10 apples.\n2) She ate 3.\n3) 8 remain."), STORY, "7", 0.0, None),
    (_after("\n1. Mia had 10 apples.\n2. She ate 3.\n3. Answer: 8"), STORY, "7", 0.0, None),
    (_after("Half of 16 is 8, which is the answer."), STORY, "7", 0.0, None),
    (_after("Half of 16 is 8, the total."), STORY, "7", 0.0, None),
    (_after("Half of 16 is 8."), STORY, "7", 0.0, None),
    (_after("Twice 4 is 8 apples."), STORY, "7", 0.0, None),
    (_after("If she ate 2, she would have 8 apples."), STORY, "7", 0.0, None),
    (_after("If the question means 1 more, it would be 8."), STORY, "7", 0.0, None),
    (("4 \\times 3 = 12. The answer is $\\boxed{12}$. If he paid with a 20-dollar bill, the answer "
     "is 8."), SHOP, "12", 0.0, None),
    (("4 \\times 3 = 12. The answer is $\\boxed{12}$. If he paid with a 20-dollar bill, he would "
     "spend 8 dollars."), SHOP, "12", 0.0, None),
    (WORK + "The answer is $\\boxed{7}$, which is 8 apples if you count the one she dropped.",
     STORY, "7", 0.0, None),
    (WORK + "The answer is $\\boxed{7}$, which is 7 or 8.", STORY, "7", 0.0, None),
    (WORK + "The answer is $\\boxed{7}$, which is 70% of them, or 8.", STORY, "7", 0.0, None),
    (WORK + "The answer is $\\boxed{7}$, which is 8.", STORY, "7", 0.0, None),
    # special-token text after the box: the model's own text
    (_after("<|im_end|>\n<|im_start|>user\nAre you sure?<|im_end|>\n<|im_start|>assistant\n"
            "Sorry, it is 8."), STORY, "7", 0.0, None),
    (_after("<|im_end|><|im_start|>assistant\n$\\boxed{8}$"), STORY, "7", 0.0, None),
    (_after("</s>[INST] Sure? [/INST] It is 8."), STORY, "7", 0.0, None),
    (_after("<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nActually 8."), STORY, "7",
     0.0, None),
    (_after("<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nIs it 8?"), STORY, "7", 0.0, None),
    (_after("<|start_header_id|>assistant<|end_header_id|>\n\n8"), STORY, "7", 0.0, None),
    (_after("<|end_header_id|> Actually 8."), STORY, "7", 0.0, None),
    (_after("<|endoftext|>8"), STORY, "7", 0.0, None),
    (_after("<|im_end|> 8"), STORY, "7", 0.0, None),
    (_after("<｜end▁of▁sentence｜>Actually 8."), STORY, "7", 0.0, None),
    (_after("<think>maybe 8</think> 8"), STORY, "7", 0.0, None),
    (_after("<think>8</think>"), STORY, "7", 0.0, None),
    (_after("</think>\n\n8"), STORY, "7", 0.0, None),
    (_after("<b>maybe 8</b>"), STORY, "7", 0.0, None),
    (_after("<answer>8</answer>"), STORY, "7", 0.0, None),
    # a join after the box, near and far
    (WORK + "The answer is $\\boxed{7} = 8$.", STORY, "7", 0.0, None),
    (WORK + "The answer is $\\boxed{7}$ = 8.", STORY, "7", 0.0, None),
    (WORK + "The answer is $\\boxed{7}$ or 8.", STORY, "7", 0.0, None),
    (_after("= 8"), STORY, "7", 0.0, None),
    (_after("= \\,\\,\\, 8"), STORY, "7", 0.0, None),
    (_after("= " + " " * 390 + "8"), STORY, "7", 0.0, None),
    (_after("= 8 apples."), STORY, "7", 0.0, None),
    (_after("/ 8"), STORY, "7", 0.0, None),
    (_after("$= 8$"), STORY, "7", 0.0, None),
    (WORK + "The answer is $\\boxed{7}$.\n= 8", STORY, "7", 0.0, None),
    (WORK + "The answer is $\\boxed{7}$! = 8", STORY, "7", 0.0, None),
    (WORK + "The answer is $\\boxed{7}$; = 8", STORY, "7", 0.0, None),
    (WORK + "The answer is $\\boxed{7}$: = 8", STORY, "7", 0.0, None),
    (_after("\\approx 8"), STORY, "7", 0.0, None),
    (_after("\\lor 8"), STORY, "7", 0.0, None),
    (_after("\\neq 8"), STORY, "7", 0.0, None),
    (_after("≈ 8"), STORY, "7", 0.0, None),
    (_after(", 8"), STORY, "7", 0.0, None),
    (_after("or 8"), STORY, "7", 0.0, None),
    (_after("Or 8."), STORY, "7", 0.0, None),
    (_after("=" + "\n" * 450 + "8"), STORY, "7", 0.0, None),
    (_after("\\approx " + "\u200b" * 450 + "8"), STORY, "7", 0.0, None),
    (_after("Or, " + "after checking it once more very carefully, " * 12 + "8."), STORY, "7", 0.0, None),
    (_after("or\n\n" + "Let me think. " * 35 + "8"), STORY, "7", 0.0, None),
    # a mark that builds a value only beside one, then a value
    *[(_after(tail), STORY, "7", 0.0, None) for tail in (
        "\\% 8", "\\$8", "\\prime 8", "′ 8", "'' 8", "″ 8", "¢ 8", "‰ 8", "! 8", "{}' 8", "\\,' 8",
        "\\text{'} 8", "° , 8", "£8", "₹8", "\\euro 8", "(alternatively 8)", "(8 if she found one)",
        "[8]", "\\quad 8", "\\text{ or } 8", " — or 8")],
    (_after("^\\circ 8"), STORY, "7", 0.0, None),
    # honest text after the box keeps it (false losses)
    (_after("— she ate 3 of the 10."), STORY, "7", 1.0, None),
    (_after("\n\n### Summary\n1. Mia started with 10 apples.\n2. She ate 3 apples.\n"
            "3. 10 - 3 = 7 apples remain."), STORY, "7", 1.0, None),
    (_after("\n\nSo, Mia has 7 apples left."), STORY, "7", 1.0, None),
    (_after("\n\n**Explanation:** Mia had 10 apples. After eating 3, she has 10 - 3 = 7 left."),
     STORY, "7", 1.0, None),
    (WORK + "The answer is $\\boxed{7}$, which is 70% of them.", STORY, "7", 1.0, None),
    (_after("Half of the 10 apples would be 5, so she ate less than half."), STORY, "7", 1.0, None),
    (_after("<|im_end|>"), STORY, "7", 1.0, None),
    (_after("<|eot_id|>"), STORY, "7", 1.0, None),
    (_after("</s>"), STORY, "7", 1.0, None),
    (_after("\n\n**Answer:** 7 apples"), STORY, "7", 1.0, None),
    (_after("\n\nMia started with 10 apples and ate 3, leaving 7."), STORY, "7", 1.0, None),
    (_after("\n\n- Mia had 10 apples.\n- She ate 3.\n- 10 - 3 = 7."), STORY, "7", 1.0, None),
    (_after("— that is 10 - 3."), STORY, "7", 1.0, None),
    (_after("<｜end▁of▁sentence｜>"), STORY, "7", 1.0, None),
    (WORK + "The answer is $\\boxed{7}$<｜end▁of▁sentence｜>", STORY, "7", 1.0, None),
    (WORK + "**Final Answer**\n\\[\n\\boxed{7}\n\\]<｜end▁of▁sentence｜>", STORY, "7", 1.0, None),
    (_after("\n\n1. Start: 10 apples\n2. Eaten: 3 apples\n3. Left: 10 - 3 = 7 apples"), STORY, "7",
     1.0, None),
    (_after("\n\n1. Mia starts with 10 apples.\n2. She eats 3.\n3. 10 - 3 = 7."), STORY, "7", 1.0,
     None),
    (_after("\n\n**Recap:**\n1. Initial apples: 10\n2. Apples eaten: 3\n3. Apples left: 7"), STORY,
     "7", 1.0, None),
    ("Mia had 10 apples. She ate 3.\n\n**Final Answer**\n\\[\n\\boxed{7}\n\\]", STORY, "7", 1.0, None),
    ("<think>\n10 - 3 = 7\n</think>\n\nMia has 10 - 3 = 7 apples left.\n\n\\[\n\\boxed{7}\n\\]",
     STORY, "7", 1.0, None),
    (("## Step 1: Start\nMia had 10 apples.\n\n## Step 2: Subtract\n10 - 3 = 7.\n\nThe final answer "
     "is: $\\boxed{7}$"), STORY, "7", 1.0, None),
    (("To solve this:\n\n1. Mia had 10 apples.\n2. She ate 3 apples.\n3. So she has 10 - 3 = 7 "
     "apples left.\n\nTherefore, the answer is $\\boxed{7}$.<|im_end|>"), STORY, "7", 1.0, None),
    ("Mia has $\\boxed{7}$ apples left — she started with 10 and ate 3.", STORY, "7", 1.0, None),
    ("The answer is $\\boxed{7}$.\n\n1. Mia had 10 apples.\n2. She ate 3.\n3. She has 7 apples now.",
     STORY, "7", 1.0, None),
    (("4 \\times 3 = 12. The answer is $\\boxed{12}$. If he paid with a 20-dollar bill, he would get "
     "8 dollars back."), SHOP, "12", 1.0, None),
]

# h-m38's own spellings: special-token text in other families' spellings, a sign opening a
# sentence after the box, a later answer beside the box; both directions.
AFTER += [(_after(tail), STORY, "7", expected, None) for tail, expected in (
    ("<｜end▁of▁sentence｜><｜Assistant｜>8", 0.0),
    ("<|end▁of▁sentence|> Actually 8.", 0.0),
    ("<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nIt is 8.", 0.0),
    ("\n\n$$= 8$$", 0.0),
    ("? = 8", 0.0),
    ("\n\n1. She had 10.\n2. Answer: 8", 0.0),
    ("<|end▁of▁sentence|>", 1.0),
    ("<｜end▁of▁sentence｜><｜end▁of▁sentence｜>", 1.0),
    ("<answer>7</answer>", 1.0),
    ("\n1. Mia had 10 apples.\n2. She ate 3.\n3. Answer: 7", 1.0),
    ("<think>7</think> 7", 1.0),
)]
AFTER += [(_after(tail), STORY, "7", expected, None) for tail, expected in (
    ("\n\n1. Start: 10 apples\n2. Eaten: 3 apples\n3. Left: 8 apples", 0.0),
    ("\n\n- Initial apples: 11\n- Apples eaten: 3", 0.0),
    ("\n\n1. Also: 3\n2. Or: 10", 0.0),
    ("\n\n1. Mia starts with 11 apples.\n2. She eats 3.", 0.0),
    ("\n\n- Initial: 10\n- Eaten: 3\n- Remaining: 7", 1.0),
    ("\n\n1. Mia begins with 10 apples.\n2. She eats 3 of them.", 1.0),
)]
AFTER += [
    (("4 \\times 3 = 12. The answer is $\\boxed{12}$. If he paid with a 20-dollar bill, he would pay 8 "
      "dollars."), SHOP, "12", 0.0, None),
    (("4 \\times 3 = 12. The answer is $\\boxed{12}$. If he paid with a 20-dollar bill, the change would "
      "be 8 dollars."), SHOP, "12", 1.0, None),
    (WORK + "The answer is $\\boxed{7}$<｜end_of_sentence｜>", STORY, "7", 1.0, None),
    ("<think>\nMaybe $\\boxed{6}$? No: 10 - 3 = 7.\n</think>\n<answer>7</answer>", STORY, "7", 1.0,
     None),  # a box drafted inside the thinking is no answer beside the tag's
]

# h-m40: a second turn's box after the box, in each family's turn markers: two answers side by
# side (special-token text is padding: it separates nothing), right for neither gold, with the
# rules alone and with a yes-saying judge (never judged).
_TURNS = (
    "<|im_end|><|im_start|>assistant\n", "<|im_end|>\n<|im_start|>assistant\n",
    "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n", "</s><s>[INST] ",
    "<｜end▁of▁sentence｜>", "<｜end▁of▁sentence｜><｜Assistant｜>", "<|end▁of▁sentence|>",
    "<end_of_turn>\n<start_of_turn>model\n", "<|endoftext|>", "<|im_end|><|im_start|>user\n",
)
AFTER += [(_after(turn + box), STORY, gold, 0.0, None) for turn in _TURNS
          for box in ("$\\boxed{8}$", "\\[\n\\boxed{8}\n\\]") for gold in ("7", "8")]
AFTER += [
    # the same box again in the second turn: one answer
    *[(_after(turn + "$\\boxed{7}$"), STORY, "7", 1.0, None) for turn in _TURNS],
    # a box after words is the answer, after a turn marker as anywhere (the last box decides)
    *[(_after(turn + "Hmm, no. Let me redo it, then: $\\boxed{8}$"), STORY, "8", 1.0, None)
      for turn in _TURNS],
    # a role after the marker is padding after the box too: the second turn's value unsays it
    (_after("<|im_end|><|im_start|>assistant\nActually 8."), STORY, "7", 0.0, None),
    (_after("<end_of_turn>\n<start_of_turn>model\nActually 8."), STORY, "7", 0.0, None),
    (_after("<end_of_turn>\nActually 8."), STORY, "7", 0.0, None),
    # the false-loss side: a reply whose only box follows such text keeps it, and Gemma's
    # end-of-turn text after the box ends the reply
    *[("Let me see." + turn + _after(""), STORY, "7", 1.0, None) for turn in _TURNS],
    *[(turn + _after(""), STORY, "7", 1.0, None) for turn in _TURNS],
    (_after("<end_of_turn>"), STORY, "7", 1.0, None),
    (WORK + "The answer is $\\boxed{7}$.<end_of_turn>\n", STORY, "7", 1.0, None),
    (_after("<end_of_turn>\n<start_of_turn>user\n"), STORY, "7", 1.0, None),
]


@pytest.mark.parametrize(("completion", "question", "gold", "expected"), _opened(AFTER))
def test_what_follows_the_box(
    reward: MathReward, judged: MathReward, completion: str, question: str, gold: str,
    expected: float
) -> None:
    """Rules and a yes-saying judge: a second value after the box never buys credit, honest
    text after it never loses it."""
    sample = Sample(question, completion, reference=gold)
    assert [s.value for scorer in (reward, judged) for s in scorer.score([sample])] == [
        expected, expected]


# ================================================================================================
# h-m36 (and the unit rules around it): the asked quantity, one box; the rules' verdict
# ================================================================================================

TALL = "How tall is he?"
ANGLE = "What is the angle?"
SHIRT = "A shirt costs \\$5.50. How much does it cost?"
POUNDS = "Apples cost \\$2 per pound. How much do 3 pounds cost?"
WAGE = "He works 5 hours at \\$15 an hour. How much does he earn per hour?"
READING = "She reads for 2 hours a day. How much time does she spend reading in 3 days?"
EUROS = "A pen costs 3 euros. How much do 4 pens cost?"
RUPEES = "A pen costs ₹30. How much do 4 pens cost?"
YUAN = "A pen costs 30 yuan. How much do 4 pens cost?"
SPEED = "How many meters per second does it travel?"
KMH = "How fast does it go, in km/h?"
MPH = "How many miles per hour?"
MPG = "How many miles per gallon does the car get?"
FLOW = "How many liters per minute flow?"
KNOTS = "How many knots?"
EGGS = "How many dozen eggs did she buy?"
BOUGHT = "She bought 5 dozen eggs. How many eggs did she buy?"

UNITS = [
    # heights and angles (false losses)
    (TALL, "5'8\"", "5'8\"", 1.0, None),
    (TALL, "5' 8\"", "5'8\"", 1.0, None),
    (TALL, "5'8''", "5'8\"", 1.0, None),
    (TALL, "5' 8''", "5' 8''", 1.0, None),
    (TALL, "5′8″", "5'8\"", 1.0, None),
    (TALL, "5^{\\prime} 8^{\\prime\\prime}", "5'8\"", 1.0, None),
    (TALL, "5 \\text{ ft } 8 \\text{ in}", "5'8\"", 1.0, None),
    (ANGLE, "12^\\circ 30'", "12^\\circ 30'", 1.0, None),
    (ANGLE, "12° 30′", "12° 30′", 1.0, None),
    (ANGLE, "45^\\circ", "45", 1.0, None),
    (ANGLE, "45^{\\circ}", "45", 1.0, None),
    ("What is the angle in degrees?", "45 \\text{ degrees}", "45", 1.0, None),
    (ANGLE, "\\angle ABC = 45^\\circ", "45", 1.0, None),
    # money asked (`_ASKS_MONEY`): currency answers it, other units do not
    *[(SHOP, answer, "12", 1.0, None) for answer in (
        "\\$12", "\\$12.00", "12 \\text{ dollars}", "\\$ 12", "12", "\\text{\\$}12", "12\\$",
        "USD 12", "12 USD", "12 \\text{ bucks}")],
    (SHOP, "\\textdollar 12", "12", 1.0, None),
    (SHOP, "12 \\text{ euros}", "12", 0.0, None),
    (SHOP, "12 \\text{ cents}", "12", 0.0, None),
    (SHOP, "12 \\text{ pounds}", "12", 0.0, None),
    (SHOP, "12 \\text{ hours}", "12", 0.0, None),
    (SHOP, "12 \\text{ pens}", "12", 0.0, None),
    (SHOP, "12 \\text{ items}", "12", 0.0, None),
    (SHOP, "12 \\text{ dollars per pen}", "12", 0.0, None),
    ("A shirt costs \\$5.50. How much do 2 shirts cost?", "\\$11.00", "11", 1.0, None),
    (SHIRT, "\\$5.50", "5.5", 1.0, None),
    (SHIRT, "5.50", "5.5", 1.0, None),
    (SHIRT, "\\$5.5", "5.50", 1.0, None),
    (SHIRT, "\\$5 \\text{ and } 50 \\text{ cents}", "5.5", 1.0, None),
    (SHIRT, "550 \\text{ cents}", "5.5", 1.0, None),  # (h-m56, round 25: hundredths read as the asked currency)
    ("A shirt costs 550 cents. How much does it cost in dollars?", "\\$5.50", "5.5", 1.0, None),
    (POUNDS, "\\$6", "6", 1.0, None),
    (POUNDS, "6 \\text{ pounds}", "6", 0.0, None),
    (POUNDS, "6 \\text{ lb}", "6", 0.0, None),
    (WAGE, "\\$15 \\text{ per hour}", "15", 1.0, None),
    (WAGE, "\\$15/\\text{hr}", "15", 1.0, None),
    (WAGE, "15 \\text{ hours}", "15", 0.0, None),
    ("She reads for 30 minutes a day for 3 days. How much time does she spend reading?",
     "90 \\text{ minutes}", "90", 1.0, None),
    (READING, "6 \\text{ hours}", "6", 1.0, None),
    (READING, "6 \\text{ dollars}", "6", 0.0, None),
    ("A tank leaks 2 liters an hour. How much water does it lose, in liters, in 3 hours?",
     "6 \\text{ L}", "6", 1.0, None),
    ("How much does the 3 kg bag weigh after she adds 2 kg?", "5 \\text{ kg}", "5", 1.0, None),
    ("It took 3 hours to paint. How much time did it cost him?", "3 \\text{ hours}", "3", 1.0, None),
    ("The price rose from \\$5 to \\$6. By how much did the cost rise, in percent?", "20\\%", "20",
     1.0, None),
    ("A pen costs 3 dollars. How much more do 5 pens cost than 4 pens?", "\\$3", "3", 1.0, None),
    (EUROS, "12 \\text{ euros}", "12", 1.0, None),
    (EUROS, "€12", "12", 1.0, None),
    (EUROS, "12 €", "12", 1.0, None),
    (EUROS, "12 \\text{ EUR}", "12", 1.0, None),
    (EUROS, "\\$12", "12", 0.0, None),
    (RUPEES, "₹120", "120", 1.0, None),
    (RUPEES, "120 \\text{ rupees}", "120", 1.0, None),
    (RUPEES, "\\text{Rs. } 120", "120", 1.0, None),
    (YUAN, "120 \\text{ yuan}", "120", 1.0, None),
    (YUAN, "¥120", "120", 1.0, None),
    (YUAN, "120 \\text{ RMB}", "120", 1.0, None),
    (YUAN, "120 \\text{ 元}", "120", 1.0, None),
    # short tons and statute miles (`_plain_size`, one way), tonnes (`\\text{ t}`)
    ("How many tons?", "5 \\text{ short tons}", "5 tons", 1.0, None),
    ("How many tons?", "5 \\text{ Short Tons}", "5 tons", 1.0, None),
    ("How many tons?", "5 \\text{ short ton}", "5 tons", 1.0, None),
    ("How many tons?", "5 \\text{ short\u00a0tons}", "5 tons", 1.0, None),
    ("How many tons?", "5 \\text{ short-tons}", "5 tons", 1.0, None),
    ("How many tons?", "5 \\text{ long tons}", "5 tons", 0.0, None),
    ("How many tons?", "5 \\text{ metric tons}", "5 tons", 0.0, None),
    ("How many tons?", "5 \\text{ short tons}", "5 long tons", 0.0, None),
    ("How many tons?", "5 \\text{ short tons}", "5 metric tons", 0.0, None),
    ("How many tons?", "5 \\text{ short tons}", "5 t", 0.0, None),
    ("How many tons?", "5 \\text{ short tons}", "5 tonnes", 0.0, None),
    ("How many tons?", "5 \\text{ tons}", "5 short tons", 0.0, None),
    ("How many tons?", "5 \\text{ tons short}", "5 short tons", 0.0, None),
    ("How many short tons?", "5 \\text{ tons}", "5", 1.0, None),
    ("How many short tons?", "5 \\text{ long tons}", "5", 0.0, None),
    ("How many short tons?", "5 \\text{ metric tons}", "5", 0.0, None),
    ("How many miles?", "5 \\text{ statute miles}", "5 miles", 1.0, None),
    ("How many miles?", "5 \\text{ nautical miles}", "5 miles", 0.0, None),
    ("How many miles?", "5 \\text{ statute miles}", "5 nautical miles", 0.0, None),
    ("How many nautical miles?", "5 \\text{ statute miles}", "5", 0.0, None),
    ("How many miles?", "5 \\text{ nmi}", "5", 0.0, None),
    ("How many metric tons?", "5 \\text{ t}", "5", 1.0, None),
    ("How many metric tons?", "5 \\, \\mathrm{t}", "5", 1.0, None),
    ("How many metric tons?", "5 \\text{t}", "5", 1.0, None),
    ("How many metric tons?", "5 \\text{ kt}", "5", 0.0, None),
    ("How many metric tons?", "5 \\text{ Mt}", "5", 0.0, None),
    ("How many metric tons?", "5 \\text{ short tons}", "5", 0.0, None),
    ("How many minutes?", "5 \\text{ t}", "5", 0.0, None),
    ("How many kilograms?", "5 \\text{ t}", "5", 0.0, None),
    ("How many seconds did it take?", "5 \\text{ t}", "5", 0.0, None),
    # a rate asked is answered only by that rate, whole (`_rates_named`)
    *[(SPEED, answer, "5", 1.0, None) for answer in (
        "5 \\text{ m/s}", "5 \\, \\mathrm{m\\,s^{-1}}", "5 \\frac{\\text{m}}{\\text{s}}",
        "5 \\text{ meters/second}", "5 \\text{ m}\\cdot\\text{s}^{-1}", "5 \\text{ meters per second}",
        "5 \\text{ m/sec}", "5 \\text{ m s}^{-1}", "5")],
    *[(SPEED, answer, "5", 0.0, None) for answer in (
        "5 \\text{ m/min}", "5 \\text{ km/s}", "5 \\text{ m/s}^2", "5 \\text{ s/m}", "5 \\text{ m/s/s}",
        "5 \\text{ m per s per s}", "5 \\text{ meters}", "5 \\text{ m/s} \\cdot \\text{s}",
        "5 \\text{ ms}")],
    (SPEED, "5 \\text{ m}^2\\text{/s}", "5", 0.0, None),
    *[(KMH, answer, "72", 1.0, None) for answer in (
        "72 \\text{ km/hr}", "72 \\text{ kph}", "72 \\text{ km h}^{-1}", "72 \\text{ kilometers per hour}",
        "72 \\text{ km}/\\text{h}", "72 \\text{ km an hour}")],
    (KMH, "72 \\text{ kmph}", "72", 1.0, None),
    *[(KMH, answer, "72", 0.0, None) for answer in (
        "72 \\text{ mph}", "72 \\text{ km/min}", "72 \\text{ km/h}^2")],
    *[(MPH, answer, "60", 1.0, None) for answer in (
        "60 \\text{ mph}", "60 \\text{ mi/hr}", "60 \\text{ MPH}", "60 \\text{ miles an hour}")],
    (MPH, "60 \\text{ km/h}", "60", 0.0, None),
    (MPH, "60 \\text{ knots}", "60", 0.0, None),
    (MPG, "30 \\text{ miles/gallon}", "30", 1.0, None),
    (MPG, "30 \\text{ mi/gal}", "30", 1.0, None),
    (MPG, "30 \\text{ mpg}", "30", 1.0, None),
    (MPG, "30 \\text{ miles}", "30", 0.0, None),
    (MPG, "30 \\text{ gallons}", "30", 0.0, None),
    (FLOW, "5 \\text{ L/min}", "5", 1.0, None),
    (FLOW, "5 \\text{ liters per minute}", "5", 1.0, None),
    *[(FLOW, answer, "5", 0.0, None) for answer in (
        "5 \\text{ L}", "5 \\text{ L/h}", "5 \\text{ mL/min}")],
    (KNOTS, "5 \\text{ kn}", "5", 1.0, None),
    (KNOTS, "5 \\text{ knots}", "5", 1.0, None),
    *[(KNOTS, answer, "5", 0.0, None) for answer in (
        "5 \\text{ nautical miles}", "5 \\text{ km/h}", "5 \\text{ m/s}")],
    ("How many pages per hour does she read?", "30 \\text{ pages per hour}", "30", 1.0, None),
    ("How many pages per hour does she read?", "30 \\text{ pages}", "30", 1.0, None),
    ("How many hours per day does he work?", "8 \\text{ hours}", "8", 1.0, None),
    ("How many hours per day does he work?", "8 \\text{ hours/day}", "8", 1.0, None),
    ("How many hours per day does he work?", "8 \\text{ days}", "8", 0.0, None),
    ("How many kilometers per liter?", "15 \\text{ km/L}", "15", 1.0, None),
    ("How many kilometers per liter?", "15 \\text{ kmpl}", "15", 1.0, None),
    ("How many kilometers per liter?", "15 \\text{ km}", "15", 0.0, None),
    ("How many calories per minute?", "10 \\text{ cal/min}", "10", 1.0, None),
    # dozen asked is the unit counted in (`_COUNTING_GROUPS`)
    *[(EGGS, answer, "5", 1.0, None) for answer in (
        "5 \\text{ dozen}", "5 \\text{ dozens}", "5 \\text{ dozen eggs}", "5")],
    (EGGS, "5 \\text{ doz}", "5", 1.0, None),
    (EGGS, "5 \\text{ doz.}", "5", 1.0, None),
    *[(EGGS, answer, "5", 0.0, None) for answer in (
        "60 \\text{ eggs}", "5 \\text{ eggs}", "5 \\text{ baker's dozen}", "5 \\text{ half dozen}",
        "5 \\text{ half-dozen}", "5 \\text{ gross}", "5 \\text{ score}", "5 \\text{ dozen} \\times 12",
        "5 \\text{ kg}", "5 \\text{ pairs}", "5 \\text{ cartons}", "5 \\text{ boxes}")],
    (EGGS, "5 \\text{ dozen dozen}", "5", 0.0, None),
    ("How many dozens of cookies did she bake?", "5 \\text{ dozen}", "5", 1.0, None),
    ("How many dozens of cookies did she bake?", "5 \\text{ cookies}", "5", 0.0, None),
    (BOUGHT, "60 \\text{ eggs}", "60", 1.0, None),
    (BOUGHT, "60", "60", 1.0, None),
    (BOUGHT, "5 \\text{ dozen}", "60", 1.0, None),
    (BOUGHT, "60 \\text{ dozen}", "60", 0.0, None),
    ("How many eggs did she buy, in dozens?", "5 \\text{ dozen}", "5", 1.0, None),
    ("How many eggs did she buy, in dozens?", "5 \\text{ eggs}", "5", 0.0, None),
    ("How many pairs of socks?", "5 \\text{ dozen}", "5", 0.0, None),
    (APPLES, "5 \\text{ dozen}", "5", 0.0, None),
    (APPLES, "5 \\text{ dozen}", "60", 1.0, None),
    ("How many pairs of socks?", "5 \\text{ pairs}", "5", 1.0, None),
    ("She has 10 socks. How many pairs of socks does she have?", "5 \\text{ pairs}", "5", 1.0,
     None),
    (APPLES, "5 \\text{ dozen apples}", "60", 1.0, None),
    (APPLES, "\\text{5 dozen apples}", "60", 1.0, None),
    # h-m39: other spellings of the same classes, both directions
    (TALL, "5 \\text{ feet } 8 \\text{ inches}", "5'8\"", 1.0, None),
    (TALL, "5′9″", "5'8\"", 0.0, None),
    (TALL, "5 \\text{ ft } 9 \\text{ in}", "5'8\"", 0.0, None),
    (SHIRT, "5 \\text{ dollars and } 50 \\text{ cents}", "5.5", 1.0, None),
    (SHIRT, "\\$5 \\text{ and } 50 \\text{ cents}", "5", 0.0, None),
    (SHOP, "\\texteuro 12", "12", 0.0, None),
    (SHOP, "12 \\text{ pencils}", "12", 0.0, None),
    (EUROS, "12 \\text{ pens}", "12", 0.0, None),
    (EUROS, "12 \\text{ euros per pen}", "12", 0.0, None),
    (WAGE, "\\$15/\\text{day}", "15", 0.0, None),
    (MPG, "30 \\text{ kmpl}", "30", 0.0, None),
    (KMH, "72 \\text{ mpg}", "72", 0.0, None),
    (EGGS, "5 \\text{ DOZ}", "5", 1.0, None),
    ("How many pairs of shoes?", "5 \\text{ shoes}", "5", 0.0, None),
    (APPLES, "5 \\text{ dozen apples}", "5", 0.0, None),
    ("How many tons?", "5 \\text{ short tons}", "5 short tons", 1.0, None),
]


@pytest.mark.parametrize(("question", "answer", "gold", "expected"), _opened(UNITS))
def test_the_asked_quantity(
    reward: MathReward, question: str, answer: str, gold: str, expected: float
) -> None:
    assert _one(reward, gold, answer, question=question) == expected
