"""The in-process float evaluator agrees with math-verify's own LaTeX parser (latex2sympy via
`math_verify.parse`) wherever it gives a value, and declines what it does not read."""

from __future__ import annotations

import math

import pytest

from rewards.math._evaluate import evaluate
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
