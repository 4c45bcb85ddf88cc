"""Round 23's TeX readings, closed at their roots (h-m48, docs/math.md "Round 23 (h-m48)"): the
classes around each probe of `test_redteam_round23.py` that `_normalize` reads (phantoms at any
depth, functions of numerals side by side, what renders nothing inside a joining word, `vs.`,
plain TeX's row macros and `\\cr`, matrices in braces or bars of one column, skip expressions,
TeX delimiters of `\\atopwithdelims`, tags and `\\noalign` in aligned chains, chain labels,
`\\lbrace`, colour boxes) and the controls each rule must keep. Rules through `MathReward.score`;
hedges with a yes-saying judge too. Huge and deeply nested inputs read in one pass: their
readings are asserted, never their time."""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from rewards.math._normalize import normalize
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS


@pytest.mark.parametrize("answer", [
    # a joining word's letters apart by what renders no glyph of its own: boxes, breaks,
    # penalties, wrappers, combining marks, an abbreviation point
    "7 o\\mbox{}r 8", "7 o\\vbox{}r 8", "7 o\\makebox[0pt]{}r 8", "7 o\\raisebox{0pt}{}r 8",
    "7 o\\mathclap{}r 8", "7 o\\smash[b]{}r 8", "7 o\\hbox to 0pt{}r 8", "7 o\\hbox{{}}r 8",
    "7 o\\nolinebreak[3]r 8", "7 o\\penalty10000 r 8", "7 o\\ignorespaces r 8", "7 o\\mathord{}r 8",
    "7 a\\hbox{}n\\smash{}d 8", "7 \\text{o\\protect r} 8", "7 o\u0301r 8", "7 or\u0332 8",
    "7 \\text{ VS. } 8", "7\\ \\text{vs.}\\ 8",
    # plain TeX's row macros and `\\cr`, at any depth and spacing
    "\\eqalignno{7 \\cr 8}", "\\cases{7 & x > 0 \\cr 8 & \\text{else}}", "\\halign{#\\cr 7\\cr 8\\cr}",
    "\\displaylines{7\\crcr 8}", "\\matrix{\\matrix{7 \\cr 8}}", "\\displaylines {7 \\cr 8}",
    "\\begin{aligned} 7 \\cr 8 \\end{aligned}", "\\eqalign{x &= 7 \\cr x &= 8}",
    # `\\noalign` material that is text between rows
    "\\begin{aligned} x &= 7 \\\\ \\noalign{\\hbox{or}} &= 8 \\end{aligned}",
    # skips of any expression
    "7 \\\\[\\glueexpr 2pt plus 1pt\\relax] 8", "7 \\\\*[\\dimexpr\\jot*2\\relax] 8",
    # `...withdelims` with any TeX delimiter
    "7 \\atopwithdelims\\lbrace\\rbrace 8", "7 \\atopwithdelims\\lfloor\\rfloor 8",
    "7 \\atopwithdelims\\lceil\\rceil 8",
    # sets in any spelling, colour boxes side by side
    "\\lbrace 7 \\rbrace \\lbrace 8 \\rbrace", "\\colorbox{yellow}{7} \\colorbox{yellow}{8}",
    "7 \\phantom{x} 8",
])
def test_round23_hedge_classes(reward: MathReward, judged: MathReward, answer: str) -> None:
    verdicts = [_one(scorer, gold, answer) for scorer in (reward, judged) for gold in ("7", "8")]
    assert verdicts == [0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("answer", [
    # a matrix in braces or bars of one column: a list, never either entry (rules)
    "\\begin{Vmatrix} 7 \\\\ 8 \\end{Vmatrix}", "\\begin{vsmallmatrix} 7 \\\\ 8 \\end{vsmallmatrix}",
    "\\begin{Bmatrix*} 7 \\\\ 8 \\end{Bmatrix*}", "\\pmatrix{7 \\cr 8}",
])
def test_one_column_matrices_of_any_spelling(reward: MathReward, answer: str) -> None:
    assert [_one(reward, gold, answer) for gold in ("7", "8")] == [0.0, 0.0]


@pytest.mark.parametrize(("answer", "gold", "expected"), [
    # a phantom renders nothing, whatever it holds and however deep
    ("\\{7\\}\\phantom{{\\{8\\}}}", "15", 0.0), ("\\{7\\}\\vphantom{\\{8\\}}", "15", 0.0),
    ("\\{7\\}\\phantom {\\{8\\}}", "15", 0.0), ("\\max(7)\\hphantom{\\max(8)}", "15", 0.0),
    ("\\{7\\}\\phantom{\\phantom{\\{8\\}}}", "15", 0.0), ("\\{7\\}\\phantom{{\\{8\\}}}", "7", 1.0),
    ("7\\vphantom{\\frac{1}{2}}", "7", 1.0), ("\\phantom{\\{0\\}}7", "7", 1.0),
    ("\\phantom{-}10", "10", 1.0), ("\\phantom{-}10", "-10", 0.0), ("\\hphantom{+}10", "10", 1.0),
    # functions of numerals side by side with a value: a product, never a sum
    ("\\max(7)\\quad\\max(8)", "15", 0.0), ("\\max(7)~\\max(8)", "15", 0.0),
    ("\\gcd(14, 21)\\max(8)", "15", 0.0), ("\\gcd(14, 21)\\max(8)", "56", 1.0),
    ("7\\max(8)", "15", 0.0), ("7\\max(8)", "56", 1.0), ("\\max(7)\\{8\\}", "15", 0.0),
    ("\\max(7) 8", "15", 0.0), ("\\max\\left(7\\right)\\max\\left(8\\right)", "15", 0.0),
    ("\\max\\left(7\\right)\\max\\left(8\\right)", "56", 1.0), ("2\\max(3, 4)", "8", 1.0),
    ("\\max(7, 6)", "7", 1.0), ("\\max(7), 8", "56", 0.0),
    ("\\max(7)\\hspace{1em}\\max(8)", "15", 0.0), ("\\max(7)\\displaystyle\\max(8)", "15", 0.0),
    ("{\\max(7)}{\\max(8)}", "15", 0.0), ("{\\max(7)}{\\max(8)}", "56", 1.0), ("\\max(7){8}", "15", 0.0),
    ("\\frac{\\max(4)}{\\max(2)}", "2", 1.0),
    # two sets of one numeral side by side are a list, no product
    ("\\{7\\}\\{8\\}", "56", 0.0), ("\\{7\\}\\{8\\}", "7", 0.0),
    # the same glyph in any spelling
    ("\\left\\lbrace 7 \\right\\rbrace", "7", 1.0), ("\\lbrace7\\rbrace", "7", 1.0),
    ("\\big\\lbrace 7 \\big\\rbrace", "7", 1.0),
    # a tag is the equation's number, never its value
    ("7 \\tag{8}", "8", 0.0), ("\\begin{aligned} x &= 7 \\tag{8} \\end{aligned}", "8", 0.0),
    # a label that changes the value is no label
    ("\\begin{aligned} \\text{not} &= 10 - 2 \\\\ &= 8 \\end{aligned}", "8", 0.0),
])
def test_round23_values(reward: MathReward, answer: str, gold: str, expected: float) -> None:
    assert _one(reward, gold, answer) == expected


@pytest.mark.parametrize("answer", [
    # aligned chains through what renders nothing between rows, any row break, a label
    "\\begin{align*} x &= 10 - 3 \\nonumber\\\\ &= 7 \\notag \\end{align*}",
    "\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\vskip 2pt} &= 7 \\end{aligned}",
    "\\begin{aligned} x &= 10 - 3 \\\\ &= 7 \\tag*{(a)} \\end{aligned}",
    "\\begin{aligned} \\text{Apples left} &= 10 - 3 \\\\ &= 7 \\end{aligned}",
    "\\begin{aligned} x &= 10 - 3 \\\\[\\dimexpr 2pt\\relax] &= 7 \\end{aligned}",
    "\\eqalign{x &= 10 - 3 \\cr &= 7}", "\\displaylines{7}",
    # colour boxes and colours in any model or expression
    "\\colorbox[rgb]{1,1,0}{7}", "\\fcolorbox[HTML]{FF0000}{FFFFFF}{7}", "\\color{red!50!blue}{7}",
    "\\textcolor{rgb:red,1;green,2}{7}",
    # controls: a word after the value, a vector's own gold, a one-row determinant
    "7 \\text{ apples}", "\\begin{vmatrix} 7 \\end{vmatrix}",
])
def test_round23_honest_forms(reward: MathReward, answer: str) -> None:
    assert _one(reward, "7", answer) == 1.0


def test_deep_markup_reads_in_one_pass() -> None:
    """A phantom's group at any depth, many of them, row macros nested, groups never closed."""
    assert normalize("7" + "\\phantom{" * 3000 + "8" + "}" * 3000) == "7"
    assert normalize("\\{7\\}" + "\\phantom{\\{8\\}}" * 500) == "\\{7\\}"
    nested = normalize("\\displaylines{" * 40 + "7 \\cr 8" + "}" * 40)
    assert (nested.count("\\begin{gathered}"), nested.count("\\end{gathered}"), "\\displaylines" in nested) == (
        40, 40, False)
    unclosed = "7" + "\\phantom{" * 3000
    assert normalize(unclosed) == unclosed  # (TeX's error: left as written)
    assert "\\begin" not in normalize("\\displaylines{7 \\cr 8")
