"""Round 25b's grouped-sign, sign-at-the-end, starred-matrix and letter-run rows, closed at their
roots (h-m55; docs/math.md "Round 25 (h-m55)"): the classes around each row, through
`MathReward.score` with the rules (conftest's `reward`) and a judge that says yes to everything
(conftest's `judged`): an attack scores what its bare form scores (0 from the rules), an honest
form scores 1. The readings (`_as_rendered`, `_ends_in_sign`) and the judge's filter
(`judgeable`, with the gold it is shown with) are also read alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rewards.math import MathReward
from rewards.math._compare import _as_rendered, _ends_in_sign
from rewards.math._judge import _letters_as_the_gold_writes, _rendered, judgeable
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS
BOTH_ONE = [1.0, 1.0]
BOTH_ZERO = [0.0, 0.0]


def _both(reward: MathReward, judged: MathReward, gold: str, answer: str) -> list[float | None]:
    """The rules' score and the yes-saying judge's of `\\boxed{answer}` against `gold`."""
    return [_one(scorer, gold, answer) for scorer in (reward, judged)]


# ================================================================================================
# A group renders its content: a group that opens with a sign is read as that sign beside what
# follows (GROUPED_SIGN: `_compare._as_rendered`, `_groups_read`)
# ================================================================================================

@pytest.mark.parametrize(("text", "read"), [
    ("{-}7", "-7"), ("{-} 7", "- 7"), ("{{-}}7", "-7"), ("{{-}7}", "-7"), ("{\\le 7}", "\\le 7"),
    ("{{\\approx 7}}", "\\approx 7"), ("x = {\\ne 7}", "x = \\ne 7"), ("{$-$} 7", "- 7"),
    ("{\\(-\\)}7", "-7"), ("{\\,-7}", "\\,-7"), ("{\\le}x", "\\le x"), ("2{\\cdot}3", "2\\cdot3"),
    ("\\begin{pmatrix*}[r]1\\\\2\\end{pmatrix*}", "\\begin{pmatrix}1\\\\2\\end{pmatrix}"),
    ("\\begin{bmatrix*} [l] 1&2\\end{bmatrix*}", "\\begin{bmatrix} 1&2\\end{bmatrix}"),
    ("\\begin{Vmatrix*}5\\end{Vmatrix*}", "\\begin{Vmatrix}5\\end{Vmatrix}"),
])
def test_a_group_that_opens_with_a_sign_reads_as_its_content(text: str, read: str) -> None:
    assert _as_rendered(text) == read


@pytest.mark.parametrize("text", [
    # a script, a script's base, a factorial's operand, a command's argument, a fraction's group
    "10^{-3}", "x_{-1}", "{-2}^2", "{-2} ^{2}", "{-1}_n", "{-3}!", "{-3}'", "\\frac{-1}{2}",
    "\\sqrt[3]{-8}", "\\text{-}7", "\\mathrm{-}7", "{-a \\over b}", "{-1 \\choose 2}", "{7}",
    "{x - 1}", "\\overline{-7}", "\\begin{pmatrix}1\\end{pmatrix}", "\\_{}", "x^{7}",
])
def test_a_group_whose_braces_mean_something_stays(text: str) -> None:
    assert _as_rendered(text) == text


@pytest.mark.parametrize(("grouped", "bare"), [
    ("{-}7", "-7"), ("{{-}}7", "-7"), ("{-} 7", "-7"), ("{\\le 7}", "\\le 7"), ("{\\le} 7", "\\le 7"),
    ("{\\geq 7}", "\\geq 7"), ("{< 7}", "< 7"), ("{{\\ne 7}}", "\\ne 7"), ("{\\approx} 7", "\\approx 7"),
    ("{\\sim 7}", "\\sim 7"), ("x = {\\approx 7}", "x = \\approx 7"), ("{\\lessapprox 7}", "\\lessapprox 7"),
    ("{\\simeq 7}", "\\simeq 7"), ("\\mbox{$-$}7", "-7"), ("{+}{-}7", "+-7"), ("{\\pm 7}", "\\pm 7"), ("{\\mp} 7", "\\mp 7"),
])
def test_a_grouped_sign_scores_as_the_bare_sign(reward: MathReward, judged: MathReward,
                                                grouped: str, bare: str) -> None:
    scores = _both(reward, judged, "7", grouped)
    assert scores[0] == 0.0
    assert scores == _both(reward, judged, "7", bare)


@pytest.mark.parametrize("answer", [
    "\\hbox{$-$}7", "\\hbox{\\(-\\)} 7", "\\ensuremath{-} 7", "\\rlap{$-$}7",
    "\\hbox{$\\le$}7", "\\smash{\\geq 7}", "\\ensuremath{\\approx} 7", "\\llap{\\ne}7", "\\hbox{$\\pm$}7",
])
def test_a_sign_in_a_pass_through_box_stands(reward: MathReward, judged: MathReward, answer: str) -> None:
    assert _both(reward, judged, "7", answer) == BOTH_ZERO


@pytest.mark.parametrize(("gold", "answer"), [
    ("-7", "{-}7"), ("-7", "{-} 7"), ("-7", "{{-}}7"), ("-7", "\\hbox{-}7"), ("-7", "\\hbox{$-$}7"),
    ("-7", "\\mbox{-}7"), ("-7", "{-7}"), ("-7", "{{-7}}"), ("-7", "\\ensuremath{-}7"), ("4", "{-2}^2"),
    ("-\\frac{1}{2}", "\\frac{-1}{2}"), ("-\\frac{1}{2}", "{-\\frac{1}{2}}"), ("0.001", "10^{-3}"),
    ("7", "{7}"), ("6", "2{\\cdot}3"),
])
def test_honest_groups_keep_their_value(reward: MathReward, judged: MathReward, gold: str,
                                        answer: str) -> None:
    assert _both(reward, judged, gold, answer) == BOTH_ONE


# ================================================================================================
# What renders nothing after a sign is read through, however much of it there is
# (SIGN_BEFORE_EMPTY_SCRIPT, SIGN_BEYOND_WINDOW: `_compare._ends_in_sign`)
# ================================================================================================

@pytest.mark.parametrize("text", [
    "(5+)^{}", "(5+)_{ }", "5+^{}", "5+_{}^{}", "{5+}^{\\,}_{\\;}", "(5+)^{{}}", "(5+)^{\\hphantom{x}}",
    "5+" + "^{}" * 400, "5+" + "{}" * 2000, "(5+" + ")" * 3000, "{" * 1500 + "5+" + "}" * 1500,
    "5 \\geq" + "{ }" * 900, "5+" + "\\," * 900, "\\left(5+" + "{}" * 500 + "\\right)" + "^{}" * 300,
    "5 \\ne" + "\\relax" * 500, "[5 \\le" + "]" * 700 + "_{}",
])
def test_a_sign_before_what_renders_nothing_is_at_the_end(text: str) -> None:
    assert _ends_in_sign(text)


@pytest.mark.parametrize("text", [
    "x^{+}", "x^{+}{}", "x^{+}^{}", "Fe^{2+}", "(5)^{}", "5^{+}_{}", "{5}^{\\circ}", "10^{-}", "f(0^+)",
    "(0, 1]" + "{}" * 300, "5" + "^{}" * 400, "x^{+" + "{}" * 300 + "}", "5 \\\\", "5}" + "{}" * 10,
])
def test_a_script_s_mark_or_a_value_is_no_sign_at_the_end(text: str) -> None:
    assert not _ends_in_sign(text)


@pytest.mark.parametrize("answer", [
    "(5+)^{}", "5+^{}", "{5+}_{\\,}", "5 \\geq^{}", "5+" + "{}" * 400, "(5+" + ")" * 600, "5+" + "^{}" * 200,
])
def test_a_sign_before_what_renders_nothing_scores_zero(reward: MathReward, judged: MathReward,
                                                        answer: str) -> None:
    assert _both(reward, judged, "5", answer) == BOTH_ZERO


# ================================================================================================
# A starred matrix is its plain matrix (STARRED_MATRIX: `_compare._STARRED_MATRIX`)
# ================================================================================================

COLUMN = "\\begin{pmatrix}1\\\\2\\end{pmatrix}"


@pytest.mark.parametrize(("gold", "answer"), [
    (COLUMN, "\\begin{pmatrix*}1\\\\2\\end{pmatrix*}"), (COLUMN, "\\begin{pmatrix*}[l]1\\\\2\\end{pmatrix*}"),
    (COLUMN, "\\begin{bmatrix*}[c]1\\\\2\\end{bmatrix*}"), (COLUMN, "\\begin{pmatrix*} [r] 1 \\\\ 2 \\end{pmatrix*}"),
    ("\\begin{bmatrix}1&-2\\\\3&4\\end{bmatrix}", "\\begin{bmatrix*}[r]1&-2\\\\3&4\\end{bmatrix*}"),
    ("\\begin{pmatrix*}[r]1\\\\2\\end{pmatrix*}", COLUMN),
])
def test_a_starred_matrix_is_its_matrix(reward: MathReward, judged: MathReward, gold: str,
                                        answer: str) -> None:
    assert _both(reward, judged, gold, answer) == BOTH_ONE


@pytest.mark.parametrize("answer", [
    "\\begin{pmatrix*}[r]1\\\\3\\end{pmatrix*}", "\\begin{pmatrix*}[r]2\\\\1\\end{pmatrix*}",
    "\\begin{pmatrix*}[r]1&2\\end{pmatrix*}", "\\begin{pmatrix*}[r]1\\\\2\\\\3\\end{pmatrix*}",
])
def test_a_starred_matrix_of_other_entries_is_wrong(reward: MathReward, answer: str) -> None:
    assert _one(reward, COLUMN, answer) == 0.0


# ================================================================================================
# Letters reach the judge only as the gold writes them, in its order (JUDGEMENT_WORDS_MISSING,
# TWO_LETTER_WORD_IN_RUN, WORD_IN_SCRIPTS: `_judge._letters_as_the_gold_writes`)
# ================================================================================================

@pytest.mark.parametrize(("answer", "gold"), [
    # a word the gold's letters make in another order, in any spelling: never shown
    ("8 \\; aye", "aey"), ("8 \\; eya", "aey"), ("8 \\; a-y-e", "aey"), ("8 \\; a.y.e", "aey"),
    ("8 \\; (a)(y)(e)", "aey"), ("8 \\; a \\cdot y \\cdot e", "aey"), ("8 \\; a^y e", "aey"),
    ("8 \\; \\mathbf{a}\\mathbf{y}\\mathbf{e}", "aey"), ("8 \\; a, y, e", "aey"), ("8 \\; a/y/e", "aey"),
    ("8 \\; y^e s", "sy"), ("8 \\; y_{e} s", "sy"), ("8 \\; okk", "ko"), ("8 \\; kok", "ko"), ("8 \\; oke", "eko"),
    ("8 \\; gut", "tug"), ("8 \\; bien", "bein"), ("8 \\; yay", "ays"), ("8 \\; naw", "awn"),
    ("8 \\; si", "is"), ("8 \\; ydy", "dyy"), ("aye", "aey"), ("ba + 1", "ab + 1"), ("8 \\; ka", "ak"),
    ("8 \\; \\kappa o", "o\\kappa"), ("8 \\; ab + ba", "ab"), ("8 \\; aa", "a"),
])
def test_letters_in_another_order_are_not_shown(answer: str, gold: str) -> None:
    assert not judgeable(answer, gold=gold)


@pytest.mark.parametrize(("answer", "gold"), [
    # letters as the gold writes them, runs with no vowel, single letters, constants: shown
    ("8 \\; ab", "ab"), ("8 \\; ys", "\\frac{y}{s}"), ("8 \\; o\\kappa", "o \\kappa"), ("(x-a)(x-c)", "(x-a)(x-c)"),
    ("x^2 + 2x + 1", "(x+1)^2"), ("1 + 2x", "2x + 1"), ("2\\pi r h", "2\\pi rh"), ("e^{i\\pi}", "-1"),
    ("\\frac{\\pi}{2} + n\\pi", "\\frac{\\pi}{2} + k\\pi"), ("x = 7", "7"), ("3", "7"), ("x + y", "y + x"),
    ("2xy", "4xy"), ("\\sqrt{ab}", "a b"), ("yx", "xy"), ("8 \\; yx", "xy"), ("mgh", "gmh"),
    ("\\omega t", "t\\omega"), ("2\\pi h r", "2\\pi rh"), ("\\beta\\alpha", "\\alpha\\beta"),
])
def test_letters_as_the_gold_writes_them_are_shown(answer: str, gold: str) -> None:
    assert judgeable(answer, gold=gold)


@pytest.mark.parametrize(("gold", "answer", "expected"), [
    # the rules decide a product of symbols with certainty: equal, or not
    ("xy", "yx", BOTH_ONE), ("2xy", "2yx", BOTH_ONE), ("\\pi r^2 h", "\\pi h r^2", BOTH_ONE),
    ("2xyz", "2zyx", BOTH_ONE), ("ab + 1", "ba + 1", BOTH_ONE), ("x^2 - (a+b)x + ab", "(x-a)(x-b)", BOTH_ONE),
    ("aey", "8 \\; aye", BOTH_ZERO), ("aey", "8 \\; a-y-e", BOTH_ZERO), ("aey", "8 \\; a.y.e", BOTH_ZERO),
    ("ko", "8 \\; okk", BOTH_ZERO), ("sy", "8 \\; y^e s", BOTH_ZERO), ("tug", "8 \\; gut", BOTH_ZERO),
])
def test_letter_products_are_the_rules_to_decide(reward: MathReward, judged: MathReward, gold: str,
                                                 answer: str, expected: list[float]) -> None:
    assert _both(reward, judged, gold, answer) == expected


def test_every_real_gold_writes_its_own_letters() -> None:
    """The allow-list never keeps a gold from the judge against itself (30,427 golds of 21
    datasets: the count docs/math.md records, 2,665, does not move)."""
    data = json.loads((Path(__file__).parent / "data" / "real_golds.json").read_text())
    golds = [str(gold) for dataset in data["datasets"] for _, gold in dataset["golds"]]
    assert len(golds) > 30_000
    assert [gold for gold in golds if not _letters_as_the_gold_writes(_rendered(gold), gold)] == []
