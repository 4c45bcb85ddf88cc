"""Pathological inputs: cheap structural rejection, and the hard wall-clock bound enforced by
killing the worker (which is then replaced)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from rewards import Sample
from rewards.math import MathConfig, compare, shared_pool, structural_problem

LIMITS = MathConfig()


@pytest.mark.parametrize("answer,why", [
    ("2^{2^{2^{2^{20}}}}", "power tower"),
    ("10^{10^{10}}", "exponent"),
    ("2^{100000000}", "exponent"),
    ("9^{9^{9}}", "exponent"),
    ("(" * 50_000 + "1" + ")" * 50_000, "chars"),
    ("(" * 13 + "1" + ")" * 13, "nesting"),
    ("99999999!", "factorial"),
    ("x" * 1001, "chars"),
])
def test_structural_limits_reject(answer, why):
    problem = structural_problem(answer, LIMITS)
    assert problem is not None and why in problem


@pytest.mark.parametrize("answer", [
    "2^{10}", "e^{x^2}", "\\frac{1}{2004!}", "2^{2023}", "(x+1)^{2}", "\\sqrt{(((1)))}",
    "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}", "10^{-10}", "a^{b^{c}}",
])
def test_structural_limits_accept_ordinary_answers(answer):
    assert structural_problem(answer, LIMITS) is None


@pytest.mark.parametrize("pred", ["2^{2^{2^{2^{20}}}}", "(" * 50_000 + "1" + ")" * 50_000,
                                  "10^{10^{10}}-1"])
def test_pathological_prediction_is_a_cheap_timeout(pred):
    # Against a number, a size that cannot be the gold's is `wrong` (test_magnitude.py); against
    # an expression in x, nothing proves it: a structural limit, without a worker.
    start = time.monotonic()
    verdict = compare(pred, "x+1", LIMITS)
    assert verdict.reason == "timeout" and "structural limit" in verdict.detail
    assert time.monotonic() - start < 0.5  # never reached a worker


def test_pathological_gold_abstains():
    verdict = compare("1", "2^{2^{2^{2^{20}}}}", LIMITS)
    assert verdict.reason == "bad_reference" and verdict.value is None


def test_slow_sympy_input_times_out_within_the_bound_and_the_worker_is_replaced(warm_pool):
    config = MathConfig(timeout=1.0, workers=2)
    # Within every structural limit, but sympy expands both 2000th powers: many seconds.
    pred, gold = "(x+1)^{2000}", "(x+2)^{2000}"
    assert structural_problem(pred, config) is None
    pool = shared_pool(config.worker_count)
    kills = pool.kills
    start = time.monotonic()
    verdict = compare(pred, gold, config)
    elapsed = time.monotonic() - start
    assert verdict.reason == "timeout" and "killed" in verdict.detail
    assert elapsed < config.timeout + 0.5
    assert pool.kills == kills + 1
    # The pool keeps working: the replacement answers ordinary comparisons.
    assert compare("x+1", "1+x", config).reason == "ok"


def test_timeouts_score_zero_through_the_reward(math_reward):
    samples = [Sample("p", "\\boxed{2^{2^{2^{2^{20}}}}}", reference="4x"),
               Sample("p", "\\boxed{" + "(" * 3 + "2" + ")" * 3 + "}", reference="2")]
    scores = math_reward.score(samples)
    assert [(s.value, s.reason) for s in scores] == [(0.0, "timeout"), (1.0, "ok")]


def test_a_worker_killed_from_outside_is_replaced(math_config, warm_pool):
    # trigonometric identities: beyond the exact in-process algebra, so a worker answers
    assert compare("\\sin^2 x+\\cos^2 x", "1", math_config).reason == "ok"
    before = warm_pool.worker_pids()
    assert before
    for pid in before:
        os.kill(pid, signal.SIGKILL)
    # Every worker is dead; the next comparisons start fresh ones and still answer right.
    patient = MathConfig(timeout=30.0, workers=2)  # about replacement, not speed
    verdicts = [compare("2\\sin x \\cos x", "\\sin 2x", patient),
                compare("\\sin 2x", "2\\sin x", patient)]
    assert [v.reason for v in verdicts] == ["ok", "wrong"], verdicts
    after = warm_pool.worker_pids()
    assert after and not set(after) & set(before)
