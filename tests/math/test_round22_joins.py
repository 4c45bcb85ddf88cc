"""Round 22's joins and TeX readings, closed at their roots (h-m45): the classes around each
probe of `test_redteam_round22.py` (other spellings of the same gap, size, environment,
delimiter, skip, name and colour) and the controls each fix must keep. Rules through
`MathReward.score`; hedges with a yes-saying judge too."""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS


@pytest.mark.parametrize("answer", [
    # a joining word's letters apart by any mark or by what renders nothing
    "7 o--r 8", "7 o\\,-\\,r 8", "7 \\text{o}\\nobreak\\text{r} 8", "7 a-n-d 8", "7 o\\hspace*{0pt}r 8",
    # primes as a superscript, in any spelling
    "7^{‴} 8", "7 ^ { ' ' ' } 8",
    # bars of any size, with or without space between
    "7 \\Big| \\Big| 8", "7 \\bigg\\vert \\bigg\\vert 8", "7 \\left\\| \\right\\| 8",
    # sets of one numeral in any spelling, joined by anything
    "\\big\\{7\\big\\} \\cup \\big\\{8\\big\\}", "\\lbrace 7\\rbrace, \\lbrace 8\\rbrace", "\\{7\\} ; \\{8\\}",
    # a row break's skip: any glue
    "7 \\\\[\\jot] 8", "7 \\\\[2\\jot] 8", "7 \\\\[1ex plus 1pt] 8",
    # any environment that stacks rows, its arguments read
    "\\begin{NiceTabular}{c} 7 \\\\ 8 \\end{NiceTabular}", "\\begin{drcases} 7 \\\\ 8 \\end{drcases}",
    "\\begin{subarray}{c} 7 \\\\ 8 \\end{subarray}", "\\begin{gathered} x = 7 \\\\ x = 8 \\end{gathered}",
    "\\begin{tabular*}{\\linewidth}{c} 7 \\\\ 8 \\end{tabular*}",
    # infix commands with delimiters, a side that joins
    "7 \\atopwithdelims[] 8", "{7 \\text{ or } 8} \\over 9",
    # a restated value that goes on past its point
    "x = 7; x = 7. 8",
])
def test_round22_hedge_classes(reward: MathReward, judged: MathReward, answer: str) -> None:
    verdicts = [_one(scorer, gold, answer) for scorer in (reward, judged) for gold in ("7", "8")]
    assert verdicts == [0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize(("answer", "gold", "expected"), [
    # aligned chains after any row break, in `alignat` and `array` (`& =`)
    ("\\begin{aligned} x &= 10 - 3 \\\\[\\jot] &= 7 \\end{aligned}", "7", 1.0),
    ("\\begin{alignat}{1} x &= 10-3 \\\\ &= 7 \\end{alignat}", "7", 1.0),
    ("\\begin{array}{rl} x &= 10-3 \\\\ & = 7 \\end{array}", "7", 1.0),
    ("\\begin{array}{cc} 7 & 8 \\end{array}", "7", 0.0),
    # a function of a set in any spelling of its name and braces
    ("\\text{max}\\{7, 6\\}", "7", 1.0), ("\\operatorname*{max}\\{7, 6\\}", "7", 1.0),
    ("\\max\\big\\{7, 6\\big\\}", "7", 1.0), ("\\min\\Bigl\\{7, 9\\Bigr\\}", "7", 1.0),
    # a colour in any model
    ("\\textcolor[HTML]{FF0000}{7}", "7", 1.0), ("\\color[gray]{0.5} 7", "7", 1.0),
    # a fraction between its delimiters, as they set it
    ("7 \\overwithdelims[] 8", "7/8", 1.0), ("7 \\overwithdelims|| 8", "7/8", 1.0),
    ("-7 \\overwithdelims|| 8", "7/8", 1.0), ("-7 \\overwithdelims|| 8", "-7/8", 0.0),
    ("7 \\abovewithdelims.. 1pt 8", "7/8", 1.0),
    # controls: a product of absolute values, a vector, a restatement that is one
    ("|7| |8|", "56", 1.0),
    ("\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}", "\\begin{pmatrix} 7 \\\\ 8 \\end{pmatrix}", 1.0),
    ("x = 7, x = 7.", "7", 1.0),
    # a later value that only opens like the first is another (was read as `x = 7.5`)
    ("x = 7, x = 7.5", "7.5", 0.0),
])
def test_round22_built_classes(reward: MathReward, answer: str, gold: str, expected: float) -> None:
    assert _one(reward, gold, answer) == expected
