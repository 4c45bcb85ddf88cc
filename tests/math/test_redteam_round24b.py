"""Red team, round 24b (rt41): h-m48's TeX readings in `rewards/math/_normalize.py` (docs/math.md
"Round 23 (h-m48)"), as merged at main 4750860, attacked by someone who did not write them:
`_markup_read` (phantoms, `\\tag`/`\\tag*`/`\\nonumber`/`\\notag`, `\\noalign`, plain TeX's row
macros and their templates, `\\cr`), `\\lbrace`/`\\rbrace`, `_side_by_side` and `_NO_SIGN`,
`_IN_WORD_NOTHING` (what renders no glyph inside a joining word), one-column brace and bar
matrices, skip expressions, TeX delimiters at a join side's edge, chain labels, colour boxes,
`_group_ends`. rt40 attacks `_extract` and the judge filter at the same time; not here.

How: every probe goes through `MathReward.score` with `OPTIONS` (conftest's `reward`) and, where
a hedge or a dropped word is at stake, conftest's `judged` (a `YesEngine`: yes to everything):
a hedge, a second answer or a word that changes the value must score 0 from both. Where the
rules say `wrong` of mathematics only, the judge is asked by design, so value rows read the
rules alone. Honest forms (aligned chains with tags and labels, `\\cases` piecewise golds,
matrix golds, colour boxes) are probed for false losses against the golds' shapes.

Counts at main 4750860: 317 probes, 234 held (plain tests), 83 open (strict xfails) under 13
roots, one reason constant each (below):
- PASS_THROUGH (18): `\\hbox`, `\\rlap`, `\\llap`, `\\smash`, `\\makebox`, `\\raisebox{0pt}`,
  `\\ensuremath` pass their argument on only inside a word's gap: `7 \\hbox{\\text{ or } 8}`
  scores 1 against 8; `\\hbox{7}` and `\\colorbox{yellow}{\\ensuremath{7}}` score 0 against 7.
- IN_WORD_GAP (12): `_IN_WORD_NOTHING` is an allow-list that fails open: a command outside it
  that renders nothing (`\\bgroup\\egroup`, `\\rule{0pt}{0pt}`, `\\small`, `\\itshape`, `\\par` in
  a box, `\\mathchoice{}{}{}{}`, `\\discretionary{}{}{}`, `\\label{a}`, `\\normalfont`) splits the
  word and the pieces join nothing: `7 o\\bgroup\\egroup r 8` scores 1 against 8.
- TAG_TEXT (8): a tag's argument is dropped whatever it holds, though TeX sets it in the margin:
  `7 \\tag{or 8}` (shows `7 (or 8)`) scores 1 against 7; `7 \\tag{not}` and `7
  \\tag{\\text{approx.}}` score 1 where `7 \\text{ (approx.)}` scores 0.
- WIDE_SPACE_PRODUCT (8): `_NO_SIGN` takes any width of space as no sign: `\\max(7)\\quad\\max(1)`
  is the product 7 (scores 1 against 7) where `7\\quad 1` is a list (0).
- BRACED_COLUMN (7): a one-column matrix in braces is a list only by its environment's name:
  `\\Bigl\\{\\begin{smallmatrix} 7 \\\\ 8\\end{smallmatrix}\\Bigr\\}` scores 1 against 8 (its
  last row), `\\left\\{\\begin{matrix} 7 \\\\ 8\\end{matrix}\\right\\}` 1 against both from the judge.
- BAR_EDGE (6): bars at a join side's edge (`|`, `\\|`, `\\left|`, `\\lvert`, `\\lVert`,
  `\\atopwithdelims\\lvert\\rvert`) are not in `_unbracketed`'s delimiters: `|7 \\text{ or } 8|`
  scores 1 against 8.
- CHAIN_LABEL (5): `_CHAIN_LABEL` drops any label words but those `changes_value` or `_OR_WORDS`
  names: `\\text{eight} &= 10 - 3 \\\\ &= 7` scores 1 where `8 &= 10 - 3 \\\\ &= 7` scores 0;
  `Maybe`, `Wrong`, `Neither`, `Lower bound` alike.
- SIDE_FACTOR_ARGUMENT (5): `_SIDE_FACTOR` reads a command's brace argument after a space as a
  factor: `\\frac {7}{\\max(8)}` becomes `\\frac {7} \\cdot {\\max(8)}` (0 against 7/8).
- EQ_NUMBERS (5): `\\eqno`, `\\leqno`, `\\label` and `\\tag *{..}` are not read as margin markup:
  `7 \\eqno(1)` and an aligned chain with `\\label{a}` lose (false losses).
- COMMENT_BRACES (3): `_group_ends` counts braces after `%`, which TeX never reads: `7
  \\phantom{x % {` newline `} \\text{ or } 8 % }` shows `7 or 8` and scores 1 against 7.
- NOALIGN_BRACES (3): `\\noalign`'s argument is stripped of its braces with `.strip("{}")`,
  which eats its last command's closing brace: `\\noalign{\\vspace{2mm}}` is text between rows.
- NOALIGN_RULE (2): `_VERTICAL_ONLY` reads `\\hrule height 0.4pt` and `\\allowbreak` as text
  between rows: an honest chain loses.
- HALIGN_TEMPLATE (1): `\\halign`'s template row is dropped whatever glyphs it sets in each row:
  `\\left(\\halign{-#\\cr 7\\cr 8\\cr}\\right)` scores 1 against `(7, 8)`.
Not counted as holes (by the rules' design): `7 \\tag{8}` is 7; a white minus
(`\\color{white}-\\color{black}7`) is read as the source writes it, -7. Seen, outside this file's
paths: a `\\begin{cases}` gold with `x \\le 0` is `bad_reference` for every answer that is not
its own spelling (`\\left\\{\\matrix{7 & x > 0 \\cr 8 & x \\le 0}\\right.` scores None).

Closed after the round: all 83 (h-m53, docs/math.md "Round 24 (h-m53)"; class probes in
`test_round24_tex.py`): 0 open. `7 \\eqno(8)`, held as a hedge while `\\eqno` was read as text, is
now read as `7 \\tag{8}` is (the margin's number, 7) and moved to the values.

Held attacks are plain tests; each hole is `xfail(strict=True)` naming its class
(/work/shared/ATTACK-CLASSES.md) and its root (file, function, rule). Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from rewards.math._normalize import normalize
from tests.math.redteam_helpers import APPLES, OPTIONS
from tests.math.redteam_helpers import boxed_value as _one
from tests.math.redteam_helpers import opened as _opened

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`

TAG_TEXT = (
    "Hedging / meaning dropped by normalization: rewards/math/_normalize.py `_markup_read` drops "
    "`\\tag`/`\\tag*`'s argument whatever it holds, but TeX sets the tag's text in the margin "
    "(`7 \\tag{or 8}` shows `7 (or 8)`): a joining word, a second value or a value word there is "
    "dropped unread")
PASS_THROUGH = (
    "Hedging / false loss: rewards/math/_normalize.py: the boxes that only pass their argument on "
    "(`\\hbox`, `\\rlap`, `\\llap`, `\\smash`, `\\makebox`, `\\raisebox{0pt}`, `\\ensuremath`) are "
    "read so only in a joining word's gap (`_IN_WORD_NOTHING`); `_read_as_tex` never unwraps them "
    "around a value, so `7 \\hbox{\\text{ or } 8}` scores as 8 and `\\hbox{7}` is no 7")
IN_WORD_GAP = (
    "Hedging (invisible markup inside a word): rewards/math/_normalize.py `_IN_WORD_NOTHING` is an "
    "allow-list that fails open: a command outside it that renders nothing (`\\bgroup\\egroup`, "
    "`\\begingroup\\endgroup`, `\\rule{0pt}{0pt}`, size and font switches, `\\par` in a box, "
    "`\\mathchoice`, `\\discretionary`, `\\xspace`, `\\label`) ends the word, and its pieces join "
    "nothing (`_SPELLED_BETWEEN`): `7 o\\bgroup\\egroup r 8` scores as 8")
BAR_EDGE = (
    "Hedging: rewards/math/_normalize.py `_unbracketed` (`_TEX_DELIMITERS`, `_PAIRED`): bars at a "
    "join side's edge (`|`, `\\|`, `\\left|`, `\\lvert`, `\\lVert`) are not stripped, so the side "
    "`8|` is no value and `|7 \\text{ or } 8|` scores as 8 (`\\atopwithdelims\\lvert\\rvert` alike)")
WIDE_SPACE_PRODUCT = (
    "Hedging (a list read as one value): rewards/math/_normalize.py `_side_by_side`/`_NO_SIGN`: "
    "any width of space (`\\quad`, `\\qquad`, `\\enspace`, `\\hfill`, `\\kern5em`, `\\hbox to "
    "5em{}`, `\\linebreak`, `~~`) between a function of numerals and a value is read as a "
    "product, where the same space between two numerals is a list: `\\max(7)\\quad\\max(1)` "
    "scores as 7 while `7\\quad 1` scores 0")
SIDE_FACTOR_ARGUMENT = (
    "False loss: rewards/math/_normalize.py `_side_by_side`/`_SIDE_FACTOR`: a command's brace "
    "argument after a space (`\\frac {7}{\\max(8)}`, `\\binom {\\max(7)}{2}`) is read as a factor "
    "of its own (the look-behind sees only a letter), and the `\\cdot` written between two "
    "arguments breaks the command")
CHAIN_LABEL = (
    "Meaning dropped by normalization: rewards/math/_normalize.py `_one_row`/`_CHAIN_LABEL`: a "
    "chain's text label is dropped unless `changes_value` or `_OR_WORDS` names a word (a "
    "deny-list): a number word (`\\text{eight} &= 10 - 3 \\\\ &= 7`, the chain 8 = 7), "
    "uncertainty and retraction words (`Maybe`, `Wrong`, `Neither`) and bounds (`Lower bound`) "
    "are dropped unread")
HALIGN_TEMPLATE = (
    "Meaning dropped by normalization: rewards/math/_normalize.py `_markup_read`/`_TEMPLATE_ROW`: "
    "`\\halign`'s template row is dropped whatever glyphs it holds, but TeX sets them around every "
    "entry (`\\halign{-#\\cr 7\\cr 8\\cr}` sets -7 and -8)")
EQ_NUMBERS = (
    "False loss: rewards/math/_normalize.py `_MARKUP`: only `\\tag`, `\\tag*` (no space before "
    "the star), `\\nonumber` and `\\notag` are read as margin markup; plain TeX's `\\eqno`/"
    "`\\leqno`, `\\label` (renders nothing) and `\\tag *{..}` are not, so `7 \\eqno(1)` loses")
BRACED_COLUMN = (
    "Hedging (a list shown to the judge as one value): rewards/math/_normalize.py `_OF_COLUMNS` "
    "reads a one-column matrix in braces or bars as a list only by its environment's name "
    "(`Bmatrix`, `vmatrix`, `Vmatrix`); the same column between `\\left\\{ ... \\right\\}` or "
    "bars (`matrix`, `smallmatrix`, `array{c}`, `gathered`) is read as one value (in braces of "
    "`smallmatrix` or `gathered`, its last row: 8) and a yes-saying judge credits `\\left\\{\\begin{matrix} 7 \\\\ 8\\end{matrix}\\right\\}` for 7 and 8")
NOALIGN_BRACES = (
    "False loss: rewards/math/_normalize.py `_markup_read`: `\\noalign`'s argument is tested by "
    "`_VERTICAL_ONLY` after `.strip(\"{}\")`, which also strips the closing brace of its last "
    "command's argument (`\\noalign{\\vspace{2mm}}` is tested as `\\vspace{2mm`): read as text "
    "between rows, an honest aligned chain loses")
COMMENT_BRACES = (
    "Meaning dropped by normalization: rewards/math/_normalize.py `_group_ends` counts the braces "
    "of a TeX comment (`%` to the end of its line, which TeX never reads), so a phantom's or a "
    "tag's group is read to a later brace than TeX's and drops what TeX sets: `7 \\phantom{x % "
    "{` newline `} \\text{ or } 8 % }` shows `7 or 8` and scores as 7")
NOALIGN_RULE = (
    "False loss: rewards/math/_normalize.py `_VERTICAL_ONLY`: a rule with its dimensions "
    "(`\\hrule height 0.4pt`) and `\\allowbreak` in `\\noalign` are read as text between rows "
    "(`\\intertext`), so an honest aligned chain loses")


def _single(rows: list[tuple[str, str | None]]) -> list[object]:
    """One-answer rows (`answer`, reason or None) as params, each hole a strict xfail."""
    return [answer if reason is None else pytest.param(answer, marks=pytest.mark.xfail(
        strict=True, reason=reason)) for answer, reason in rows]


def _both(reward: MathReward, judged: MathReward, golds: tuple[str, ...], answer: str) -> list[float | None]:
    return [_one(scorer, gold, answer) for scorer in (reward, judged) for gold in golds]


# ================================================================================================
# Hedges of 7 and 8: 0 from the rules and from a yes-saying judge, against either value
# ================================================================================================

HEDGES = [
    # tags: the margin's text is visible
    ("7 \\tag{or 8}", None), ("7 \\tag*{or 8}", None), ("7 \\tag*{\\text{or } 8}", None),
    ("7 \\tag{\\text{or } 8}", None), ("x = 7 \\tag{$x = 8$}", None),
    ("\\begin{aligned} x &= 7 \\tag{8} \\\\ x &= 8 \\end{aligned}", None),
    ("\\begin{gather} 7 \\tag{a} \\\\ 8 \\tag{b} \\end{gather}", None),
    ("7 o\\tag*{}r 8", None),
    # phantoms hide nothing that is shown, and show nothing they hide
    ("7 \\phantom{\\text{ or }} 8", None), ("7 \\vphantom{x}\\text{ or } 8", None),
    ("7 \\phantom{-} \\text{ or } \\phantom{x} 8", None), ("\\{7\\}\\phantom{x}\\{8\\}", None),
    ("7 o\\hphantom{}r 8", None), ("7 o\\vphantom{x}r 8", None), ("7 o\\phantom{}r 8", None),
    # boxes that pass their argument on
    ("7 \\smash{\\text{ or } 8}", None), ("7\\rlap{\\text{ or } 8}", None),
    ("7 \\hbox{\\text{ or } 8}", None), ("7 \\rlap{ or 8}", None),
    ("7\\llap{\\text{ or } 8}", None), ("7 \\makebox[0pt]{\\text{ or } 8}", None),
    ("7 \\raisebox{0pt}{\\text{ or } 8}", None), ("7 \\ensuremath{\\text{ or } 8}", None),
    ("7 \\smash[b]{\\text{ or } 8}", None), ("7 \\vbox{\\hbox{or 8}}", None),
    ("7 \\mathrlap{\\text{ or } 8}", None), ("7 \\mathord{\\text{ or } 8}", None),
    # a joining word apart by what renders nothing
    ("7 o\\bgroup\\egroup r 8", None), ("7 o\\begingroup\\endgroup r 8", None),
    ("7 o\\rule{0pt}{0pt}r 8", None), ("7 \\text{o\\small r} 8", None),
    ("7 \\text{o\\itshape r} 8", None), ("7 \\text{o\\par r} 8", None),
    ("7 o\\mathchoice{}{}{}{}r 8", None), ("7 o\\discretionary{}{}{}r 8", None),
    ("7 o\\xspace r 8", None), ("7 o\\label{a}r 8", None),
    ("7 o\\unboldmath r 8", None), ("7 o\\normalfont r 8", None),
    ("7 o\\vrule width0pt r 8", None), ("7 o\\underline{}r 8", None),
    ("7 o\\hskip 0pt plus 1fil r 8", None), ("7 o\u0336r 8", None), ("7 o\ufe0fr 8", None),
    ("7 o\\kern0pt r 8", None), ("7 o\\mkern0mu r 8", None), ("7 o\\/r 8", None), ("7 o\\-r 8", None),
    ("7 o\\color{red}r 8", None), ("7 o\\textcolor{red}{r} 8", None), ("7 o\\null r 8", None),
    ("7 o\\hbox to 0pt{}r 8", None), ("7 o\\strut r 8", None), ("7 o{}r 8", None),
    ("7 \\textsl{or} 8", None), ("7 \\textsc{or} 8", None), ("7 \\textnormal{or} 8", None),
    ("7 \\textup{or} 8", None), ("7 \\mathtt{or} 8", None), ("7 \\fbox{or} 8", None),
    ("7 \\framebox{or} 8", None),
    # abbreviations and worded joins
    ("7 \\text{ v. } 8", None), ("7 \\text{ resp. } 8", None), ("7 \\text{ or/and } 8", None),
    ("7\\ \\mathrm{vs}\\ 8", None), ("7 \\text{ o.r. } 8", None), ("7 \\text{ vs } 8", None),
    ("7 \\text{ Vs. } 8", None),
    # `\\noalign` text between rows
    ("\\begin{aligned} x &= 7 \\\\ \\noalign{\\kern2pt or} &= 8 \\end{aligned}", None),
    ("\\begin{aligned} x &= 7 \\\\ \\noalign{\\hbox{\\text{or}}} &= 8 \\end{aligned}", None),
    ("\\begin{aligned} x &= 7 \\\\ \\noalign{\\vskip 2pt\\hbox{or}} &= 8 \\end{aligned}", None),
    ("\\begin{aligned} x &= 7 \\\\ \\noalign\\bgroup\\hbox{or}\\egroup &= 8 \\end{aligned}", None),
    ("\\begin{aligned} x &= 7 \\\\ \\noalign{\\vskip 2pt} \\text{or} &= 8 \\end{aligned}", None),
    ("\\begin{aligned} x &= 7 \\\\ \\noalign{\\smallskip} x &= 8 \\end{aligned}", None),
    ("\\begin{aligned} x &= 7 \\\\ \\noalign{\\hrule} &= 8 \\end{aligned}", None),
    # plain TeX's row macros stack values
    ("\\matrix{7 \\cr 8}", None), ("\\left(\\matrix{7 \\cr 8}\\right)", None),
    ("\\boxed{\\matrix{7 \\cr 8}}", None), ("\\left\\lbrace\\matrix{7\\cr 8}\\right\\rbrace", None),
    ("\\left\\vert\\matrix{7\\cr 8}\\right\\vert", None),
    ("\\cases{7 & \\text{if } x > 0 \\cr 8 & \\text{otherwise}}", None),
    ("\\halign{#\\ or 8\\cr 7\\cr}", None), ("\\halign{8 or #\\cr 7\\cr}", None),
    ("\\displaylines{7 \\crcr 8 \\crcr}", None), ("\\eqalign{7 \\cr\\cr 8}", None),
    ("\\pmatrix{7 \\cr 8}", None), ("7 \\cr 8", None), ("\\vcenter{\\halign{#\\cr 7\\cr 8\\cr}}", None),
    # brace and bar matrices of one column
    ("\\begin{vmatrix} 7 \\\\ 8 \\\\ \\end{vmatrix}", None), ("\\begin{Vmatrix} 7 \\\\[2pt] 8 \\end{Vmatrix}", None),
    ("\\begin{vmatrix} 7 \\cr 8 \\end{vmatrix}", None),
    ("\\left\\{\\begin{matrix} 7 \\\\ 8\\end{matrix}\\right\\}", None),
    ("\\left|\\begin{matrix} 7 \\\\ 8\\end{matrix}\\right|", None),
    ("\\left\\{\\begin{array}{c} 7 \\\\ 8\\end{array}\\right\\}", None),
    ("\\left|\\begin{array}{c} 7 \\\\ 8\\end{array}\\right|", None),
    ("\\begin{vmatrix} 7 & \\\\ 8 & \\end{vmatrix}", None), ("\\begin{Bmatrix} 7 & \\\\ 8 & \\end{Bmatrix}", None),
    ("\\begin{vmatrix} \\begin{matrix} 7 \\\\ 8 \\end{matrix} \\end{vmatrix}", None),
    ("\\left\\lbrace\\begin{matrix} 7 \\\\ 8\\end{matrix}\\right\\rbrace", None),
    ("\\left\\Vert\\begin{matrix} 7 \\\\ 8\\end{matrix}\\right\\Vert", None),
    ("\\Bigl\\{\\begin{smallmatrix} 7 \\\\ 8\\end{smallmatrix}\\Bigr\\}", None),
    ("\\left\\{\\begin{gathered} 7 \\\\ 8\\end{gathered}\\right\\}", None),
    ("\\left\\{\\begin{matrix} 7 \\\\ 8\\end{matrix}\\right.", None),
    ("\\begin{Bmatrix} 7 \\\\ 8 \\end{Bmatrix}", None),
    # skips of any expression keep the rows apart
    ("7 \\\\[\\muexpr 2mu\\relax] 8", None), ("7 \\\\*[\\glueexpr\\baselineskip\\relax] 8", None),
    ("\\begin{aligned} x &= 7 \\\\[\\dimexpr 1pt\\relax] x &= 8 \\end{aligned}", None),
    # delimiters at a join side's edge
    ("\\lceil 7 \\text{ or } 8 \\rceil", None), ("\\langle 7 \\text{ or } 8 \\rangle", None),
    ("\\left\\lfloor 7 \\text{ or } 8 \\right\\rfloor", None), ("\\lgroup 7 \\text{ or } 8 \\rgroup", None),
    ("\\lbrack 7 \\text{ or } 8 \\rbrack", None), ("[7 \\text{ or } 8]", None),
    ("\\left\\{ 7 \\text{ or } 8 \\right\\}", None), ("\\vert 7 \\text{ or } 8 \\vert", None),
    ("\\lvert 7 \\rvert \\text{ or } \\lvert 8 \\rvert", None),
    ("|7 \\text{ or } 8|", None), ("\\left| 7 \\text{ or } 8 \\right|", None),
    ("\\| 7 \\text{ or } 8 \\|", None), ("\\lvert 7 \\text{ or } 8 \\rvert", None),
    ("\\lVert 7 \\text{ or } 8 \\rVert", None), ("7 \\atopwithdelims\\lvert\\rvert 8", None),
    ("7 \\atopwithdelims\\langle\\rangle 8", None), ("7 \\atopwithdelims\\lgroup\\rgroup 8", None),
    ("7 \\atopwithdelims\\lmoustache\\rmoustache 8", None), ("7 \\atopwithdelims\\backslash/ 8", None),
    ("7 \\atopwithdelims<> 8", None), ("7 \\abovewithdelims\\lbrace\\rbrace 0pt 8", None),
    # sets in any spelling, colour boxes
    ("\\lbrace 7, 8 \\rbrace", None), ("\\lbrace 7 \\rbrace, \\lbrace 8 \\rbrace", None),
    ("\\colorbox{yellow}{7}\\colorbox{yellow}{8}", None), ("\\colorbox{yellow}{7 \\text{ or } 8}", None),
    ("\\fcolorbox{red}{white}{7}\\,\\fcolorbox{red}{white}{8}", None),
    ("7\\colorbox{white}{\\color{white}8}", None), ("7\\textcolor{white}{8}", None),
    ("\\textcolor{red}{7}\\textcolor{blue}{8}", None), ("7 \\textcolor{white}{\\text{ or } 8}", None),
    ("\\colorbox[gray]{1}{7} \\text{ or } \\colorbox[gray]{1}{8}", None),
    # functions of numerals joined by words
    ("\\max(7) \\text{ or } \\max(8)", None), ("\\max(7), \\max(8)", None), ("\\max(7); 8", None),
    ("\\gcd(7, 14) \\text{ or } \\lcm(8)", None),
]


@pytest.mark.parametrize("answer", _single(HEDGES))
def test_hedges_score_nothing(reward: MathReward, judged: MathReward, answer: str) -> None:
    assert _both(reward, judged, ("7", "8"), answer) == [0.0, 0.0, 0.0, 0.0]


# ================================================================================================
# A word or a second value beside 7 that changes what is committed: 0 from both, against 7
# ================================================================================================

NOT_SEVEN = [
    ("7 \\tag{not}", None), ("7 \\tag{\\text{approx.}}", None), ("7 \\tag{\\pm 1}", None),
    ("7 \\text{ (approx.)}", None), ("7 \\text{ (not)}", None),
    ("\\max(7)\\quad\\max(1)", None), ("\\max(7)\\qquad 1", None),
    ("\\max(7)\\hfill\\max(1)", None), ("\\max(7)\\linebreak\\max(1)", None),
    ("\\max(7)\\hbox to 5em{}\\max(1)", None), ("\\max(7)\\kern5em 1", None),
    ("\\max(7)\\enspace 1", None), ("\\max(7)~~\\max(1)", None),
    ("7\\quad 1", None), ("7\\qquad 1", None), ("7\\enspace 1", None), ("7 \\hfill 1", None),
    ("\\{7\\}\\quad\\{1\\}", None), ("\\max(7), \\max(1)", None),
    ("\\begin{aligned}\\text{eight} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\text{Maybe} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\text{Wrong} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\text{Neither} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\text{Lower bound} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}8 &= 10 - 3 \\\\ &= 7\\end{aligned}", None), ("\\text{maybe } 7", None),
    ("\\begin{aligned}\\text{Not sure} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\text{Approximately} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\text{Left} = 8 &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\text{Left} &= 8 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\text{not} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\text{Either} &= 7 \\\\ &= 8\\end{aligned}", None),
    ("7 \\smash{\\text{ or more}}", None), ("7 \\phantom{x}\\text{ or more}", None),
    ("7 \\tag{1} \\text{ or more}", None), ("\\textcolor{red}{7 \\text{ or more}}", None),
    ("\\lbrace 7 \\rbrace^{c}", None), ("\\lbrace 7 \\rbrace \\cup \\lbrace 1 \\rbrace", None),
]


@pytest.mark.parametrize("answer", _single(NOT_SEVEN))
def test_words_and_second_values_beside_seven(reward: MathReward, judged: MathReward,
                                              answer: str) -> None:
    assert _both(reward, judged, ("7",), answer) == [0.0, 0.0]


# ================================================================================================
# Values: the rules alone (the judge is asked of mathematics by design)
# ================================================================================================

VALUES = [
    # phantoms at the edge and inside
    ("\\phantom{x} 8", "8", 1.0, None), ("\\phantom{8} 7", "7", 1.0, None), ("\\vphantom{\\int} 7", "7", 1.0, None),
    ("7 \\hphantom{\\text{ or } 8}", "7", 1.0, None), ("-\\phantom{0}7", "-7", 1.0, None),
    ("-\\phantom{0}7", "7", 0.0, None), ("7\\phantom{}8", "78", 1.0, None), ("7\\phantom{}8", "7", 0.0, None),
    ("\\smash{8}", "8", 1.0, None), ("\\hbox{7}", "7", 1.0, None),
    ("\\rlap{7}", "7", 1.0, None), ("\\mathclap{7}", "7", 1.0, None),
    ("\\ensuremath{7}", "7", 1.0, None), ("\\raisebox{0pt}{7}", "7", 1.0, None),
    ("\\makebox[0pt]{7}", "7", 1.0, None), ("\\colorbox{yellow}{\\ensuremath{7}}", "7", 1.0, None),
    ("\\mbox{7}", "7", 1.0, None), ("\\colorbox{yellow}{$7$}", "7", 1.0, None),
    # tags, numbers and labels
    ("7 \\tag{8}", "8", 0.0, None), ("7 \\tag*{8}", "8", 0.0, None), ("x = 7 \\tag{$x = 8$}", "8", 0.0, None),
    ("7 \\eqno(1)", "7", 1.0, None), ("7 \\leqno(1)", "7", 1.0, None),
    ("7 \\label{eq:1}", "7", 1.0, None), ("7 \\tag *{1}", "7", 1.0, None),
    ("\\begin{align} x &= 10 - 3 \\label{a} \\\\ &= 7 \\end{align}", "7", 1.0, None),
    ("7 \\label{8}", "8", 0.0, None), ("x = 7 \\eqno(8)", "8", 0.0, None),
    # (an `\\eqno`'s number is the margin's, as a tag's: `7 \\eqno(8)` is 7, as `7 \\tag{8}` is; h-m53
    # moved it here from the hedges, where it was held only while `\\eqno` was read as text)
    ("7 \\eqno(8)", "7", 1.0, None), ("7 \\eqno(8)", "8", 0.0, None),
    # functions of numerals side by side
    ("\\max(7) + \\max(8)", "15", 1.0, None), ("\\max(7) + \\max(8)", "56", 0.0, None),
    ("\\max(7)\\,-8", "-1", 1.0, None), ("\\max(7)\\,-8", "-56", 0.0, None),
    ("\\max(7)\\;\\max(8)", "56", 1.0, None), ("\\max(7)\\;\\max(8)", "15", 0.0, None),
    ("\\min(7)\\min(8)", "56", 1.0, None), ("\\gcd(7)\\{8\\}", "56", 1.0, None),
    ("\\max(7)\\max(-8)", "-56", 1.0, None), ("\\max\\{7\\}\\max\\{8\\}", "56", 1.0, None),
    ("\\max\\{7\\}\\max\\{8\\}", "15", 0.0, None), ("\\max(7)^{\\max(2)}", "49", 1.0, None),
    ("\\max(7)\\,\\max(8)", "56", 1.0, None), ("\\max(7)\\,\\phantom{x}\\max(8)", "56", 1.0, None),
    ("\\max(7)\\mathbin{}\\max(8)", "56", 1.0, None), ("\\max(7)-\\max(8)", "-1", 1.0, None),
    ("\\max(7)\\cdot\\max(8)", "56", 1.0, None), ("\\max(7)\\times 8", "56", 1.0, None),
    ("\\lcm(2, 3)\\max(7)", "42", 1.0, None), ("\\max(7, 8)\\min(2, 3)", "16", 1.0, None),
    ("\\frac{7}{\\max(8)}", "\\frac{7}{8}", 1.0, None), ("\\frac{\\max(4)}{2}", "2", 1.0, None),
    ("\\frac {7}{\\max(8)}", "\\frac{7}{8}", 1.0, None),
    ("\\frac {\\max(4)}{2}", "2", 1.0, None),
    ("\\frac {\\max(4)} {\\max(2)}", "2", 1.0, None),
    ("\\dfrac {14}{\\max(2)}", "7", 1.0, None),
    ("\\binom {\\max(7)}{2}", "21", 1.0, None),
    # plain TeX's rows and templates
    ("\\left(\\halign{-#\\cr 7\\cr 8\\cr}\\right)", "\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}", 0.0, None),
    ("\\halign{-#\\cr 7\\cr}", "7", 0.0, None), ("\\valign{-#\\cr 7\\cr}", "7", 0.0, None),
    ("\\cases{7 & x > 0 \\cr 8 & x \\le 0}", "\\begin{cases} 7 & x > 0 \\\\ 8 & x \\le 0 \\end{cases}", 1.0, None),
    ("\\cases{7 & \\text{if } x > 0 \\cr 8 & \\text{otherwise}}",
     "\\begin{cases} 7 & \\text{if } x > 0 \\\\ 8 & \\text{otherwise} \\end{cases}", 1.0, None),
    ("\\pmatrix{7 \\cr 8}", "\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}", 1.0, None),
    ("\\left(\\matrix{7 \\cr 8}\\right)", "\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}", 1.0, None),
    ("\\pmatrix{1 & 2 \\cr 3 & 4}", "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}", 1.0, None),
    ("\\left[\\matrix{1 & 2 \\cr 3 & 4}\\right]", "\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}", 1.0, None),
    ("\\pmatrix{7 \\cr 8}", "\\begin{pmatrix} 8 \\\\ 7 \\end{pmatrix}", 0.0, None),
    ("\\pmatrix{-7 \\cr 8}", "\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}", 0.0, None),
    ("\\cases{7 \\cr}", "7", 1.0, None),
    ("\\left(\\begin{matrix} 7 \\\\ 8\\end{matrix}\\right)", "7", 0.0, None),
    ("\\left(\\begin{matrix} 7 \\\\ 8\\end{matrix}\\right)", "\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}", 1.0, None),
    # sets in any spelling
    ("\\lbrace\\lbrace 7 \\rbrace\\rbrace", "7", 1.0, None), ("\\left\\lbrace 7 \\right.", "7", 1.0, None),
    ("\\lbrace 7, 8 \\rbrace", "\\{7, 8\\}", 1.0, None), ("\\lbrace 8, 7 \\rbrace", "\\{7, 8\\}", 1.0, None),
    ("\\lbrace 7, 9 \\rbrace", "\\{7, 8\\}", 0.0, None), ("\\Bigl\\lbrace 7 \\Bigr\\rbrace", "7", 1.0, None),
    # colour boxes: a white minus is still a minus to the rules (they read the source)
    ("\\color{white}-\\color{black}7", "-7", 1.0, None), ("\\color{white}-\\color{black}7", "7", 0.0, None),
    ("\\colorbox{white}{\\textcolor{white}{-}}7", "7", 0.0, None),
    ("\\textcolor{red}{7}\\textcolor{blue}{8}", "78", 0.0, None),
    ("\\colorbox{yellow}{7}\\colorbox{yellow}{8}", "78", 0.0, None),
]


@pytest.mark.parametrize(("answer", "gold", "expected"), _opened(VALUES))
def test_values(reward: MathReward, answer: str, gold: str, expected: float) -> None:
    assert _one(reward, gold, answer) == expected


# ================================================================================================
# Honest forms of 7: each must score 1 (false losses)
# ================================================================================================

HONEST_SEVENS = [
    ("\\begin{aligned} x &= 10 - 3 \\tag{1} \\\\ &= 7 \\tag{2} \\end{aligned}", None),
    ("\\begin{align} x &= 10 - 3 \\nonumber \\\\ &= 7 \\tag{$\\ast$} \\end{align}", None),
    ("\\begin{aligned}\\text{Apples left} &= 10 - 3 \\\\ &= 7 \\tag{1}\\end{aligned}", None),
    ("\\begin{aligned}\\textbf{Answer} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\mathrm{Total} &= 4 + 3 \\\\ &= 7 \\nonumber\\end{aligned}", None),
    ("\\begin{align*}\\text{Left} &= 10 - 3 \\notag \\\\ &= 7\\end{align*}", None),
    ("\\begin{aligned}\\text{Remaining apples} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned}\\text{seven} &= 10 - 3 \\\\ &= 7\\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\vskip\\baselineskip} &= 7 \\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\medskip\\hrule\\medskip} &= 7 \\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\vspace{2mm}} &= 7 \\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\vspace*{1ex}} &= 7 \\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\vskip 2pt\\vspace{1pt}} &= 7 \\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\vspace{2mm}\\hrule} &= 7 \\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\penalty 0} &= 7 \\end{aligned}", None),
    ("\\begin{aligned} x &= 7 \\\\ \\noalign{\\smallskip} \\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\hrule height 0.4pt} &= 7 \\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\allowbreak} &= 7 \\end{aligned}", None),
    ("\\eqalign{x &= 10 - 3 \\cr &= 7 \\cr}", None), ("\\displaylines{x = 7}", None),
    ("\\eqalignno{x &= 10 - 3 \\cr &= 7}", None), ("\\displaylines{7\\crcr}", None),
    ("\\begin{aligned} x &= 10 - 3 \\cr &= 7 \\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\[\\glueexpr 1pt plus 1pt\\relax] &= 7 \\end{aligned}", None),
    ("\\begin{aligned} x &= 10 - 3 \\\\*[\\muexpr 3mu\\relax] &= 7 \\end{aligned}", None),
    ("\\begin{Bmatrix} 7 \\\\ \\end{Bmatrix}", None), ("\\begin{vmatrix} 7 \\end{vmatrix}", None),
    ("\\begin{Vmatrix*} 7 \\end{Vmatrix*}", None),
    ("\\phantom{-}7", None), ("7\\vphantom{\\frac{1}{2}}", None), ("\\hphantom{00}7", None),
    ("\\phantom{\\phantom{x}}7", None), ("7 \\tag{1}", None), ("7 \\tag*{(a)}", None), ("7 \\nonumber", None),
    ("\\lbrace 7 \\rbrace", None), ("\\left\\lbrace 7 \\right\\rbrace", None),
    ("\\colorbox{yellow}{7}", None), ("\\fcolorbox{red}{yellow}{7}", None),
    ("\\colorbox[HTML]{FFFF00}{7}", None), ("\\textcolor{blue!60!black}{7}", None),
    ("{\\color{red} 7}", None), ("\\color[rgb]{0,0,1} 7", None),
    ("\\max(3, 7)", None), ("\\max\\lbrace 3, 7 \\rbrace", None), ("\\gcd(14, 21)", None),
    ("\\max(7)\\min(1)", None), ("\\lcm(7)", None),
    ("7 \\text{ apples}", None), ("7\\text{ apples} \\tag{1}", None),
]


@pytest.mark.parametrize("answer", _single(HONEST_SEVENS))
def test_honest_sevens(reward: MathReward, answer: str) -> None:
    assert _one(reward, "7", answer) == 1.0


# ================================================================================================
# TeX comments inside a dropped group: TeX reads no brace after `%` on its line
# ================================================================================================

COMMENTED = [
    ("7 \\phantom{x % {\n} \\text{ or } 8 % }\n", None),
    ("7 \\tag{1 % {\n} \\text{ or } 8 % }\n", None),
    ("7 \\vphantom{% {\n} \\text{ or } 8 %}\n", None),
    ("7 \\text{ or } 8 % a comment\n", None),
    ("7 % or 8\n", None),
]


@pytest.mark.parametrize("body", _single(COMMENTED))
def test_comment_braces_in_dropped_groups(reward: MathReward, judged: MathReward, body: str) -> None:
    completion = f"The answer is $$\\boxed{{{body}}}$$."
    verdicts = [score.value for scorer in (reward, judged) for score in scorer.score(
        [Sample(APPLES, completion, reference=gold) for gold in ("7", "8")])]
    assert verdicts == [0.0, 0.0, 0.0, 0.0]


# ================================================================================================
# Deep and unclosed groups: one pass, linear, TeX's error left as written
# ================================================================================================

def test_groups_deep_and_unclosed() -> None:
    assert normalize("7 \\tag{" + "{" * 2000 + "8" + "}" * 2000 + "}") == "7"
    assert normalize("7" + "\\vphantom{" * 2000 + "8" + "}" * 2000) == "7"
    unclosed = "7 \\tag{or 8"
    assert normalize(unclosed) != "7"  # (never closed: nothing dropped)
    assert "\\begin" not in normalize("\\matrix{7 \\cr 8")
    assert "8" in normalize("7\\noalign{or 8")
    assert normalize("\\{7\\}\\phantom{\\}8}") == "\\{7\\}"  # (a printed brace opens no group)
    deep = normalize("\\pmatrix{" * 30 + "7" + "}" * 30)
    assert (deep.count("\\begin{pmatrix}"), deep.count("\\end{pmatrix}")) == (30, 30)
