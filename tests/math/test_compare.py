"""Comparison alone: `normalize`, the in-process fast path and `compare` on already
extracted answers."""

from __future__ import annotations

import pytest

from rewards.math import MathConfig, Verdict, compare, compare_batch, normalize
from rewards.math._compare import compare_local
from rewards.math._normalize import parse_number


@pytest.mark.parametrize("raw,expected", [
    ("$\\dfrac{1}{2}$", "\\frac{1}{2}"), ("\\tfrac34", "\\frac34"), ("90^\\circ", "90"),
    ("90^{\\circ}", "90"), ("45°", "45"), ("\\$1,000", "1,000"), ("5\\%", "5%"),
    ("5 \\text{ cm}", "5"), ("12 dollars", "12"), ("\\left( 1, 2 \\right)", "( 1, 2 )"),
    ("x.", "x"), ("1{,}000", "1,000"), ("\\text{Monday}", "Monday"), ("2 pi", "2 pi"),
    ("a \\\\ b", "a \\\\ b"), ("\\(x\\)", "x"),
])
def test_normalize(raw, expected):
    assert normalize(raw) == expected


@pytest.mark.parametrize("text,value,percent", [
    ("12", 12, False), ("-3", -3, False), ("1,234,567", 1234567, False), ("0.25", 0.25, False),
    ("3/4", 0.75, False), ("\\frac{3}{4}", 0.75, False), ("-\\frac{1}{2}", -0.5, False),
    ("\\frac34", 0.75, False), ("25%", 25, True), (".5", 0.5, False),
])
def test_parse_number(text, value, percent):
    number = parse_number(text)
    assert number is not None and float(number.value) == value and number.percent == percent


@pytest.mark.parametrize("text", ["x", "1,2", "\\frac{1}{0}", "2^{10}", "1e5", "", "1" * 500])
def test_parse_number_declines(text):
    assert parse_number(text) is None


# Decided in the caller's process, without a worker: (pred, gold, reason, path).
LOCAL = [
    ("42", "42", "ok", "exact"), ("0.5", "\\frac12", "ok", "numeric"),
    ("1,000", "1000", "ok", "numeric"), ("25%", "0.25", "ok", "numeric"),
    ("24", "25", "wrong", "numeric"), ("(B)", "B", "ok", "choice"), ("42", "C", "wrong", "choice"),
    ("Monday", "monday", "ok", "text"), ("Tuesday", "Monday", "wrong", "text"),
    ("seven", "7", "wrong", "uncertain: words not read as a number"),  # the judge's (#33)
    ("0.333333", "\\frac{1}{3}", "ok", "numeric"),
    ("0.33", "\\frac{1}{3}", "wrong", "numeric"),
    # A decimal against an exact value: it rounds to the value at its printed precision and
    # is within a relative 1e-4 (`float_rel_tol`).
    ("1.7321", "\\sqrt{3}", "ok", "decimal"), ("1.7320", "\\sqrt{3}", "wrong", "decimal"),
    ("1.73", "\\sqrt{3}", "wrong", "decimal"), ("3.1416", "\\pi", "ok", "decimal"),
    ("3.14", "\\pi", "wrong", "decimal"), ("-0.166667", "-\\frac{1}{6}", "ok", "numeric"),
    ("0.17", "\\frac{1}{6}", "wrong", "numeric"), ("0.1667", "\\frac{1}{6}", "wrong", "numeric"),
    ("1.732051", "\\sqrt{3}", "ok", "decimal"), ("10^{-400}", "10^{-399}", "wrong", "numeric"),
    # A decimal gold states its precision: an answer matches it to the gold's digits.
    ("12345.7", "12345.67", "wrong", "numeric"), ("12345.670", "12345.67", "ok", "numeric"),
    ("0.5", "0.50", "ok", "numeric"), ("27", "27.0", "ok", "numeric"),
    # Exact algebra (rationals, pi, square roots, polynomials): a proof both ways.
    ("3\\sqrt{2}", "2\\sqrt{3}", "wrong", "exact algebra"),
    ("(x-3)^2", "x^2+6x+9", "wrong", "exact algebra"), ("t^2", "x^2", "wrong", "exact algebra"),
    ("x+1", "1+x", "ok", "exact algebra"), ("2\\sqrt{3}", "\\sqrt{12}", "ok", "exact algebra"),
    ("\\frac{3\\pi}{4}", "3\\pi/4", "ok", "exact algebra"),
    ("2\\frac{1}{4}", "\\frac{9}{4}", "ok", "exact algebra"),
    ("2^{100}", "2^{100}-1", "wrong", "exact algebra"),
    ("(x+2)(x+5)", "x^2+7x+10", "ok", "exact algebra"),
    ("\\frac{1}{\\sqrt{2}}", "\\frac{\\sqrt{2}}{2}", "ok", "exact algebra"),
    ("45 + 26 = 71", "71", "ok", "result, exact"), ("45 + 26 = 71", "70", "wrong", "result, numeric"),
    # Exact values compare exactly; a decimal within the tolerance and its printed rounding.
    ("1000000007.0", "1000000009", "wrong", "numeric"), ("0.5%", "0.5", "wrong", "numeric"),
    ("0.5%", "0.005", "ok", "numeric"), ("25%", "25", "ok", "numeric"),
    ("A number greater than 5", "A", "wrong", "choice"), ("B. 42", "B", "ok", "choice"),
    ("(1, 2)", "(2, 1)", "wrong", "numeric bracket"), ("5, -9", "-9, 5", "ok", "numeric set"),
    ("3", "3, 4", "wrong", "numeric set"), ("(4, 13]", "[4, 13]", "wrong", "numeric bracket"),
    ("\\begin{bmatrix}1&0\\\\0&1\\end{bmatrix}", "\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}",
     "ok", "numeric matrix"),
]


@pytest.mark.parametrize("pred,gold,reason,path", LOCAL)
def test_fast_path_decides_without_workers(pred, gold, reason, path):
    verdict = compare_local(pred, gold, MathConfig())
    assert verdict == Verdict(reason, path)


# Floats never prove two answers equal (`2^{100}` agrees with `2^{100}-1` to 30 digits), and
# what the exact algebra cannot hold (functions, sets, equations, huge factorials, a decimal
# against an irrational) goes to sympy. An answer string alone is parsed as `$answer$`.
# (`\\frac{1}{2006!}` against `\\frac{1}{2004!}` is now decided by their sizes, 10^6 apart:
# tests/math/test_magnitude.py; within a factor of ten, as here, sympy decides.)
@pytest.mark.parametrize("pred,gold", [("\\frac{1}{2006!}", "\\frac{2}{2006!}"),
                                       ("\\sin^2 x+\\cos^2 x", "1"),
                                       ("\\{1,x\\}", "\\{x,1\\}"), ("2x-y+1=0", "y=2x+1"),
                                       ("0.5\\pi", "\\frac{\\pi}{2}"), ("\\sqrt[3]{2}", "2^{1/3}"),
                                       ("\\frac{1}{x+1}", "(x+1)^{-1}")])
def test_symbolic_pairs_go_to_a_worker(pred, gold):
    assert compare_local(pred, gold, MathConfig()) == (f"${pred}$", f"${gold}$", False)


@pytest.mark.parametrize("pred,gold,reason", [
    ("x+1", "1+x", "ok"), ("x+2", "1+x", "wrong"), ("\\sqrt{12}", "2\\sqrt{3}", "ok"),
    ("\\{1,2\\}", "\\{2,1\\}", "ok"), ("[0,1]", "[0,1)", "wrong"),
    ("\\frac{\\pi}{2}", "\\frac{\\pi}{2}", "ok"), ("\\sqrt{2}", "\\sqrt{", "bad_reference"),
    (None, "5", "no_answer"), ("5", None, "bad_reference"), ("5", 5, "ok"),
    ("\\frac{1}{", "1", "wrong"), ("2\\sqrt{3}", "\\sqrt{12}", "ok"), ("1.732051", "\\sqrt{3}", "ok"),
    ("2^{100}", "2^{100}-1", "wrong"), ("100!", "100!+1", "wrong"), ("n!", "n!+1", "wrong"),
    ("2\\frac{1}{4}", "\\frac{9}{4}", "ok"), ("5", float("nan"), "bad_reference"),
    ("5", "nan", "bad_reference"), ("5", float("inf"), "bad_reference"),
    # two numerals in a false equation state no value (round 14, h-m22): not its right side
    ("3 = 71", "71", "wrong"), ("71 = 71", "71", "ok"), ("1 + 3 = 4", "4", "ok"),
])
def test_compare(math_config, warm_pool, pred, gold, reason):
    assert compare(pred, gold, math_config).reason == reason


def test_batch_matches_one_by_one_and_uses_the_cache(math_config, warm_pool):
    from rewards.math import VerdictCache

    pairs = [("\\sin^2 x+\\cos^2 x", "1"), ("\\cos^2 x", "1-\\sin^2 x"),
             ("\\sin^2 x+\\cos^2 x", "1"), ("3", "4"), (None, "1"),
             ("\\tan x", "\\frac{\\sin x}{\\cos x}")] * 3
    cache = VerdictCache(100)
    batch = compare_batch(pairs, math_config, cache)
    assert [v.reason for v in batch] == [compare(p, g, math_config).reason for p, g in pairs]
    assert len(cache) == 3  # three distinct symbolic pairs, each compared once
    again = compare_batch(pairs, math_config, cache)
    assert again == batch and cache.hits >= 3


@pytest.mark.parametrize("text,union", [
    ("x < -6 or x > -2", "(-\\infty, -6) \\cup (-2, \\infty)"),
    ("x \\le -\\frac{1}{2} or x \\geq 3", "(-\\infty, -\\frac{1}{2}] \\cup [3, \\infty)"),
    ("-2 < x < 1 or x \\ge 5", "(-2, 1) \\cup [5, \\infty)"),
    ("x > 3 or x < -1", "(-\\infty, -1) \\cup (3, \\infty)"),
    ("2 > x or x >= 7", "(-\\infty, 2) \\cup [7, \\infty)"),
    ("x < 1 or y > 2", None), ("x < 1", None), ("x < 1 and x > 3", None), ("x < a or x > b", None),
])
def test_disjunction_as_union(text, union):
    from rewards.math._normalize import disjunction_as_union

    assert disjunction_as_union(text) == union


# An inequality against an interval gold with a closed or infinite end is read as the interval
# it means, in process (`allow_set_relation_comp`, as the worker compares them); an open
# `(a, b)` may be a point, so the worker decides.
@pytest.mark.parametrize("pred,gold,reason", [
    ("1.5 \\le x < 2.5", "[1.5, 2.5)", "ok"), ("-2.5 \\le x < -0.5", "[-2.5, -0.5)", "ok"),
    ("x \\ge 2", "[2, \\infty)", "ok"), ("1.5 \\le x \\le 2.5", "[1.5, 2.5)", "wrong"),
    ("1.5 < x \\le 2.5", "[1.5, 2.5)", "wrong"), ("0.5 \\le x < 4", "[0.5, 3)", "wrong"),
])
def test_inequality_against_an_interval_in_process(pred, gold, reason):
    verdict = compare_local(pred, gold, MathConfig())
    assert isinstance(verdict, Verdict) and verdict.reason == reason, verdict


@pytest.mark.parametrize("pred,gold", [("1.5 < x < 2.5", "(1.5, 2.5)"),
                                       ("x > 2", "[2, \\infty)")])
def test_inequality_left_to_the_worker(math_config, warm_pool, pred, gold):
    assert not isinstance(compare_local(pred, gold, MathConfig()), Verdict)
    assert compare(pred, gold, math_config).reason == ("ok" if "(" in gold[:1] else "wrong")
