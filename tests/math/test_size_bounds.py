"""Costs bounded before evaluation: no answer or gold makes the local steps raise (a math
domain error is data, never a crash), and a constant's size is bounded over its whole parsed
tree, so a huge binomial is decided at once instead of costing a worker's timeout."""

from __future__ import annotations

import pytest

from rewards.math import MathConfig, structural_problem
from rewards.math._compare import compare_local

LIMITS = MathConfig()


@pytest.mark.parametrize("text", ["x^{0}", "x^0", "a^{00} + b", "2^{0}", "x^{000}y"])
def test_a_zero_exponent_is_within_limits_not_a_math_domain_error(text):
    assert structural_problem(text, LIMITS) is None


@pytest.mark.parametrize("pred,gold", [("x", "x^{0}+y"), ("x^{0}", "1"), ("5", "10^{0}x")])
def test_a_zero_exponent_on_either_side_is_a_verdict(pred, gold):
    for p, g in ((pred, gold), (gold, pred)):
        compare_local(p, g, LIMITS)  # a verdict or a worker's job, never an exception
