"""Round 24's TeX readings, closed at their roots (h-m53, docs/math.md "Round 24 (h-m53)"): the
classes around each root of `test_redteam_round24b.py` (rt41), each read so that an allow-list
fails closed: boxes that pass their argument on unwrapped everywhere, a tag dropped only as an
equation number (`\\eqno`, `\\leqno`, `\\label`, `\\tag *` too), an unknown command splitting no
joining word, wide spaces parting factors, bars by any spelling at a join's edge and around a
column, chain labels an allow-list, comment braces unread, `\\noalign` rules and arguments,
`\\halign` templates; and the controls each rule must keep. Rules through `MathReward.score`;
hedges with a yes-saying judge too."""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from rewards.math._normalize import normalize
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS


@pytest.mark.parametrize("answer", [
    # boxes that pass their argument on, wherever they stand
    "7 \\clap{\\text{ or } 8}", "7 \\mathllap{\\text{ or } 8}", "\\hbox{7 \\text{ or } 8}",
    "7 \\smash[t]{\\text{ or } 8}", "7 \\makebox[0pt][l]{\\text{ or } 8}", "7 \\raisebox{1pt}{\\text{ or } 8}",
    "\\rlap{7} \\text{ or } \\llap{8}", "7 \\vtop{\\hbox{or 8}}",
    # an unknown command inside a joining word splits nothing
    "7 o\\foo r 8", "7 o\\selectfont r 8", "7 \\text{o\\footnotesize r} 8", "7 o\\relax\\bgroup r 8",
    "7 o\\mathchoice{}{}{}{} r 8", "7 O\\egroup R 8",
    # a tag of words is text beside the value
    "7 \\tag{maybe 8}", "7 \\tag*{\\text{or } 9}", "7 \\tag{\\text{or}} 8", "7 \\tag{$\\lor 8$}",
    # `\\eqno` of words
    "7 \\eqno{\\rm or}\\ 8", "7 \\leqno \\text{or } 8",
    # bars and braces by any spelling around a column or at a join's edge
    "\\left\\lvert\\begin{matrix} 7 \\\\ 8\\end{matrix}\\right\\rvert",
    "\\bigl\\{\\begin{array}{c} 7 \\\\ 8\\end{array}\\bigr\\}", "\\lbrace\\begin{gathered} 7 \\\\ 8\\end{gathered}\\rbrace",
    "\\left\\| 7 \\text{ or } 8 \\right\\|", "\\Vert 7 \\text{ or } 8 \\Vert", "\\big| 7 \\text{ or } 8 \\big|",
    # a comment's braces open no group
    "7 \\phantom{% }\n} \\text{ or } 8", "7 \\tag{% {\n1} \\text{ or } 8",
    # an `\\halign` template that sets glyphs
    "\\halign{#\\ or 8\\cr 7\\cr}",
])
def test_round24_hedge_classes(reward: MathReward, judged: MathReward, answer: str) -> None:
    verdicts = [_one(scorer, gold, answer) for scorer in (reward, judged) for gold in ("7", "8")]
    assert verdicts == [0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("answer", [
    # chain labels outside the allow-list keep the chain unread
    "\\begin{aligned}\\text{Perhaps} &= 10 - 3 \\\\ &= 7\\end{aligned}",
    "\\begin{aligned}\\text{Guess} &= 10 - 3 \\\\ &= 7\\end{aligned}",
    "\\begin{aligned}\\text{nine} &= 10 - 3 \\\\ &= 7\\end{aligned}",
    "\\begin{aligned}\\text{Total maybe} &= 10 - 3 \\\\ &= 7\\end{aligned}",
    "\\begin{aligned}\\text{Upper bound} &= 10 - 3 \\\\ &= 7\\end{aligned}",
    # wide spaces part factors: a list
    "\\gcd(7)\\quad\\gcd(1)", "\\max(7)\\hspace{2em}\\max(1)", "\\max(7)\\ \\max(1)",
    "\\max(7)\\kern 1em\\max(1)", "\\max(7)\\makebox[3em]{}\\max(1)",
    # a tag of a sign or a word beside the value
    "7 \\tag{$\\pm 1$}", "7 \\tag*{approx.}",
])
def test_round24_not_seven(reward: MathReward, judged: MathReward, answer: str) -> None:
    assert [_one(scorer, "7", answer) for scorer in (reward, judged)] == [0.0, 0.0]


@pytest.mark.parametrize(("answer", "gold"), [
    # boxes that pass their argument on
    ("\\clap{7}", "7"), ("\\mathllap{7}", "7"), ("\\smash[t]{7}", "7"), ("\\makebox[0pt][l]{7}", "7"),
    ("\\raisebox{1pt}{7}", "7"), ("\\vbox{\\hbox{7}}", "7"), ("\\frac{\\hbox{7}}{8}", "\\frac{7}{8}"),
    # equation numbers of any shape
    ("7 \\tag{1.2}", "7"), ("7 \\tag{A1}", "7"), ("7 \\tag{$\\star$}", "7"), ("7 \\tag{2'}", "7"),
    ("7 \\tag{\\ast}", "7"), ("7 \\tag*{(3b)}", "7"), ("7 \\eqno(2a)", "7"), ("7 \\leqno(\\ast)", "7"),
    ("7 \\label{eq:main}", "7"), ("7 \\tag {1}", "7"), ("7 \\eqno{(1)}", "7"),
    ("\\begin{aligned} x &= 10 - 3 \\eqno(1) \\\\ &= 7 \\end{aligned}", "7"),
    # chain labels on the allow-list, number words as their numeral
    ("\\begin{aligned}\\text{Total apples} &= 10 - 3 \\\\ &= 7\\end{aligned}", "7"),
    ("\\begin{aligned}\\text{Answer} &= 10 - 3 \\\\ &= 7\\end{aligned}", "7"),
    ("\\begin{aligned}\\text{Number of eggs} &= 10 - 3 \\\\ &= 7\\end{aligned}", "7"),
    ("\\begin{aligned}\\text{Seven} &= 10 - 3 \\\\ &= 7\\end{aligned}", "7"),
    # thin spaces between factors stay a product
    ("\\max(7)\\!\\max(8)", "56"), ("\\max(7)\\:\\max(8)", "56"), ("\\max(7) \\max(8)", "56"),
    ("\\max(7)\\hspace{0pt}\\max(8)", "56"),
    # a command's brace argument after a space is its argument
    ("\\tfrac {7}{\\max(8)}", "\\frac{7}{8}"), ("\\frac {\\max(14)} {\\min(2, 3)}", "7"),
    # bars that pair: absolute values
    ("|7| |8|", "56"), ("|-7|", "7"),
    # `\\noalign` rules and arguments of any shape
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\vspace{1em}\\smallskip} &= 7 \\end{aligned}", "7"),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\hrule depth 1pt width 2cm} &= 7 \\end{aligned}", "7"),
    ("\\begin{aligned} x &= 10 - 3 \\\\ \\noalign{\\nobreak} &= 7 \\end{aligned}", "7"),
    # `\\halign` templates of space only
    ("\\left(\\halign{\\hfil#\\hfil\\cr 7\\cr 8\\cr}\\right)", "\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}"),
    ("\\left(\\halign{\\quad#\\cr 7\\cr 8\\cr}\\right)", "\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}"),
    # a `%` with no line after it is a percent sign
    ("50%", "50\\%"),
])
def test_round24_values(reward: MathReward, answer: str, gold: str) -> None:
    assert _one(reward, gold, answer) == 1.0


@pytest.mark.parametrize(("answer", "gold"), [
    ("\\halign{#\\%\\cr 7\\cr}", "7"), ("\\halign{-#\\cr 7\\cr 8\\cr}", "\\begin{matrix} 7 \\\\ 8 \\end{matrix}"),
    ("7 \\eqno(8)", "8"), ("7 \\label{8}", "8"),
])
def test_round24_not_values(reward: MathReward, answer: str, gold: str) -> None:
    assert _one(reward, gold, answer) == 0.0


def test_round24_readings_in_one_pass() -> None:
    assert normalize("\\hbox{" * 300 + "7" + "}" * 300).replace("{", "").replace("}", "").strip() == "7"
    assert normalize("7 \\tag{" + "{" * 500 + "1" + "}" * 500 + "}") == "7"
    assert "or" in normalize("7 o" + "\\foo" * 500 + "r 8")
    assert normalize("7 \\eqno" + " (1)" * 500).startswith("7")


# Found by h-m53 beside its roots, not yet closed (the lead's row; the next builder's):
@pytest.mark.parametrize("answer", ["x = 7 (x = 8)", "x = 7\\ (x = 8)", "x = 7 \\left(x = 8\\right)"])
def test_a_relation_in_brackets_is_a_second_answer(reward: MathReward, answer: str) -> None:
    assert _one(reward, "8", answer) == 0.0  # (closed by h-m54: `_normalize._BRACKETED_RELATION`)
