"""Costs bounded before evaluation: no answer or gold makes the local steps raise (a math
domain error is data, never a crash), and a constant's size is bounded over its whole parsed
tree, so a huge binomial is decided at once instead of costing a worker's timeout."""

from __future__ import annotations

import time

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


# Parts whose size is beyond max_exponent! (log10 about 456,574), whatever operator builds
# them and wherever they sit (beside a variable, inside a difference that cancels).
@pytest.mark.parametrize("answer", [
    "\\binom{10^{7}}{5000000}", "\\binom{10000000}{5000000}", "x + \\binom{10^{7}}{5000000}",
    "\\binom{10^{7}}{5000000} - \\binom{10^{7}}{5000000}", "\\Gamma(10^{7})", "(10^{7})! y",
    "\\frac{(10^{7})!}{x}",
])
def test_a_huge_part_is_beyond_the_limits_by_its_size(answer):
    problem = structural_problem(answer, LIMITS)
    assert problem is not None and "beyond max_exponent" in problem


@pytest.mark.parametrize("answer", ["\\binom{10}{3}", "\\binom{1000}{500}", "x\\binom{n}{2}",
                                    "\\Gamma(5)", "0", "2^{100000}", "\\frac{1}{2004!}"])
def test_an_ordinary_size_is_within_the_limits(answer):
    assert structural_problem(answer, LIMITS) is None


@pytest.mark.parametrize("pred,gold,reason", [
    ("\\binom{10^{7}}{5000000}", "5", "wrong"),  # by magnitude, in the caller's process
    ("\\binom{10^{7}}{5000000}", "x + 1", "timeout"),  # structural: no worker is asked
    ("\\dbinom{10}{3}", "121", "wrong"), ("\\Gamma(10^{7})", "5", "wrong"),
    ("\\Gamma(5)", "24", "ok"),
])
def test_binomials_and_gamma_are_decided_without_a_worker(pred, gold, reason):
    verdict = compare_local(pred, gold, LIMITS)
    assert not isinstance(verdict, tuple) and verdict.reason == reason, verdict


def test_a_huge_binomial_costs_no_timeout():
    start = time.perf_counter()
    for gold in ("5", "x + 1", "\\binom{n}{k}"):
        compare_local("\\binom{10^{7}}{5000000}", gold, LIMITS)
    assert time.perf_counter() - start < 2.0  # the timeout it cost was 5 s


@pytest.mark.parametrize("pred,gold", [
    ("1" + "0" * 350 + ".5", "\\sqrt{2}"), ("2.5 \\times 10^{399}", "\\sqrt{2}"),
    ("1.5 \\times 10^{400}", "\\pi"),
])
def test_a_decimal_beyond_a_float_is_decided_by_its_size_not_an_overflow(pred, gold):
    for p, g in ((pred, gold), (gold, pred)):
        verdict = compare_local(p, g, LIMITS)
        assert not isinstance(verdict, tuple) and verdict.reason == "wrong", verdict


def test_an_arithmetic_error_in_a_local_step_is_a_verdict_not_a_failed_batch(monkeypatch):
    """A bug of the `math domain error` kind fails one pair, never the batch it is in."""
    import rewards.math._compare as compare_module

    def domain_error(answer, config):
        if "7" in answer:
            raise ValueError("math domain error")

    monkeypatch.setattr(compare_module, "structural_problem", domain_error)
    verdicts = compare_module.compare_batch([("\\sin(7)", "\\cos(1)"), ("1", "1")], LIMITS)
    assert verdicts[0].reason == "wrong" and "math domain error" in verdicts[0].detail
    assert verdicts[1].reason == "ok"
