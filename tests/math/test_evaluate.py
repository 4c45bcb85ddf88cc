"""The in-process float evaluator agrees with math-verify's own LaTeX parser (latex2sympy via
`math_verify.parse`) wherever it gives a value, and declines what it does not read."""

from __future__ import annotations

import math

import pytest

from rewards.math._evaluate import evaluate, evaluate_exact
from rewards.math._symbolic import _parse

POINT = {"x": 1.7, "y": -0.6, "a": 2.0, "b": 3.0, "c": 5.0, "r": 0.9, "t": 1.3, "n": 4.0}

EXPRESSIONS = [
    "2\\sqrt{3}", "\\sqrt{12}", "\\frac{3\\pi}{4}", "3\\pi/4", "(x+3)^2", "x^2+6x+9", "2^10",
    "x^10", "2x/3", "a/bc", "1/2x", "\\frac12", "\\frac{1}{2}x", "-x^2", "-2^2", "2^{-1}",
    "\\sqrt[3]{27}", "\\sqrt2", "4\\sqrt{2}\\pi", "1.5 \\times 10^{3}", "3 \\cdot 10^5", "5!",
    "\\frac{x+1}{x-1}", "(1+\\sqrt{5})/2", "10\\sqrt{2}+5", "2\\pi r", "\\frac{\\sqrt{3}}{2}",
    "x(x+1)", "(a+b)(a-b)", "t^{2}-4t+4", "3x^2y", "\\sqrt{x^2+1}",
    "\\frac{1}{\\sqrt{2}}", "0.25x", "\\frac{2}{3}\\pi", "n^2+n", "\\frac{n(n+1)}{2}",
]


@pytest.mark.parametrize("latex", EXPRESSIONS)
def test_evaluator_agrees_with_latex2sympy(latex):
    ours = evaluate(latex, POINT)
    assert ours is not None, latex
    parsed = _parse(f"${latex}$")
    assert len(parsed) == 1
    expr = parsed[0]
    reference = float(expr.subs({s: POINT[s.name] for s in expr.free_symbols}).evalf(30))
    assert math.isclose(ours[0], reference, rel_tol=1e-9), (latex, ours, reference)
    assert ours[1] == bool(expr.free_symbols)


@pytest.mark.parametrize("latex", [
    "e^2", "\\sin x", "\\log 2", "x=1", "1,2", "[1,2)", "2i", "\\infty",
    "\\sqrt{-4}", "(-8)^{1/3}", "200!", "x^{1000}", "\\frac{1}{0}", "5%", "\\text{cm}",
])
def test_evaluator_declines(latex):
    assert evaluate(latex, POINT) is None


# --- exact algebra (`evaluate_exact`) ---------------------------------------------------------

@pytest.mark.parametrize("a,b", [
    ("2\\sqrt{3}", "\\sqrt{12}"), ("\\sqrt{50}", "5\\sqrt{2}"), ("\\frac{1}{\\sqrt{2}}", "\\frac{\\sqrt{2}}{2}"),
    ("\\frac{3\\pi}{4}", "\\frac{3}{4}\\pi"), ("(x+2)(x+5)", "x^2+7x+10"), ("(a+b)(a-b)", "a^2-b^2"),
    ("(1+\\sqrt{2})^2", "3+2\\sqrt{2}"), ("\\sqrt{2}\\sqrt{3}", "\\sqrt{6}"), ("5!", "120"),
    ("2\\frac{1}{4}", "\\frac{9}{4}"), ("\\frac{x}{2}", "0+\\frac{1}{2}x"), ("2^{-1}", "\\frac12"),
    ("\\pi^2/\\pi", "\\pi"), ("\\sqrt{\\frac{1}{4}}", "\\frac{1}{2}"),
])
def test_exact_equal(a, b):
    assert evaluate_exact(a) is not None and evaluate_exact(a) == evaluate_exact(b)


@pytest.mark.parametrize("a,b", [
    ("2^{100}", "2^{100}-1"), ("100!", "100!+1"), ("\\sqrt{2}", "\\sqrt{3}"), ("\\pi", "3"),
    ("x^2", "t^2"), ("(x+1)^2", "x^2+1"), ("\\frac{1}{2^{99}}", "\\frac{1}{2^{98}}"),
])
def test_exact_different(a, b):
    assert None not in (evaluate_exact(a), evaluate_exact(b))
    assert evaluate_exact(a) != evaluate_exact(b)


@pytest.mark.parametrize("latex", [
    "0.5", "\\sqrt[3]{2}", "2^{1/2}", "\\frac{1}{x+1}", "\\frac{1}{x}", "\\sqrt{x}", "\\sqrt{-4}", "\\sqrt{1000003}",
    "\\sqrt{\\sqrt{2}}", "200!", "10^{1000}", "(x+1)^{40}", "\\sin x", "e^2", "\\sqrt{99999999977}",
])
def test_exact_declines(latex):
    # decimals (rounding rules), other roots, rational functions, huge values: left to sympy
    assert evaluate_exact(latex) is None
