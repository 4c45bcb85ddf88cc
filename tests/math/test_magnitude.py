"""Magnitude bounds (`rewards.math._magnitude`): sizes that cannot be equal are `wrong` without
a worker; equal pairs are never decided here; every bound holds the true value."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from rewards import Sample
from rewards.math import MathConfig, Verdict, normalize
from rewards.math._compare import compare_local
from rewards.math._magnitude import BIG, magnitude_verdict, size_of

CONFIG = MathConfig()

# (answer, gold): each class of absurd size, against an ordinary number, in both directions
# (the answer far above the gold, and far below it).
CANNOT_BE_EQUAL = [
    ("9^{9^{9^{9}}}", "42"),                      # power tower beyond any float
    ("2^{2^{2^{2^{20}}}}", "65536"),
    ("9^{9^9}", "387420489"),                     # one-token exponent
    ("10^{10^{10}}", "100"),
    ("10^{10^{10}}-1", "99"),                    # a difference that cannot cancel
    ("-10^{10^{10}}", "-5"),
    ("10^{-10^{10}}", "0.5"),                     # far below
    ("10^{-10^{10}}", "0"),                       # nonzero against zero
    ("(10^{7})!", "3628800"),                     # factorial of a power
    ("(10^7)!", "5040"),
    ("1000000!", "720"),
    ("\\frac{1}{(10^{7})!}", "\\frac{1}{2}"),
    ("\\sum_{k=1}^{10^{9}} k", "5050"),           # sum over a huge range
    ("\\sum_{i=1}^{10^{100}} i^{2}", "385"),
    ("\\prod_{k=1}^{10^{9}} k", "3628800"),        # product over a huge range
    ("\\prod_{k=2}^{10^{9}} \\frac{1}{k}", "\\frac{1}{2}"),
    ("9" * 3000, "999"),                          # a long literal
    ("2^{100000}", "\\frac{3}{4}"),
    ("3.5 \\times 10^{8000}", "35"),
    ("x = 10^{10^{10}}", "7"),                    # an assignment: its right-hand side
    ("\\sqrt{10^{10^{10}}}", "\\sqrt{2}"),
    ("\\frac{1}{2006!}", "\\frac{1}{2004!}"),     # math-verify rounds both to 0
    ("1", "100!"),                                # the gold far above the answer
    ("0", "10^{-50}"),
    ("25", "250000\\%"),                          # a percent gold: 2500 or 250000
]

# Equal values: never decided by size, nor wrong by any cheap path.
EQUAL = [
    ("2^{10}", "1024"), ("10!", "3628800"), ("(10^7)!", "(10^{7})!"),
    ("\\sum_{k=1}^{100} k", "5050"), ("\\prod_{k=1}^{10} k", "3628800"),
    ("1.5 \\times 10^{3}", "1500"), ("x = 1024", "2^{10}"), ("2^{2^{2^{2}}}", "65536"),
    ("10^{10^{10}}", "10^{10^{10}}"), ("\\frac{10^{10^{10}}}{10^{10^{10}}}", "1"),
    ("10^{10^{10}} - 10^{10^{10}}", "0"), ("0.333333", "\\frac{1}{3}"), ("25", "25\\%"),
    ("0.25", "25\\%"), ("25", "2500\\%"), ("\\sum_{k=0}^{10} k", "55"),
    ("(-2)^{101}", "-2^{101}"), ("\\sqrt[3]{10^{300}}", "10^{100}"),
]
# Different values within a factor of ten (or so) of each other: not for sizes to decide.
NEAR = [("0.3", "\\frac{1}{3}"), ("2\\pi", "6"), ("9", "90"), ("-1024", "2^{10}"),
        ("\\frac{1}{2006!}", "\\frac{2}{2006!}")]

# Outside what sizes can say: variables, sets, functions, complex values, unbalanced input.
NO_SIZE = ["x^{10^{10}}", "10^{10}!", "\\{1, 10^{10^{10}}\\}", "e^{10^{10}}", "i^{10^{10}}",
           "(-2)^{1/2}", "\\sqrt{-10^{10^{10}}}", "\\sum_{k=5}^{4} k", "\\sum_{k=1}^{10} k + 1",
           "\\sum_{k=1}^{n} k", "\\frac{1}{0}", "\\frac{1}{10^{10^{10}} - 10^{10^{10}}}",
           "10^{10^{10}} \\text{ apples}", "1,000", "50\\%", "\\infty", "2^{", "\\sin(10^{10})",
           "10^{10^{10}} \\text{ or more}", "10^{1 000}", "2 \\cdot 10^{10 000 000}"]


@pytest.mark.parametrize("pred,gold", CANNOT_BE_EQUAL)
def test_sizes_that_cannot_be_equal_are_wrong_in_process(pred, gold):
    by_size = magnitude_verdict(normalize(pred), normalize(gold), CONFIG.float_rel_tol)
    assert by_size is not None and by_size.reason == "wrong", by_size
    verdict = compare_local(pred, gold, CONFIG)  # (the exact algebra may decide first)
    assert isinstance(verdict, Verdict), verdict  # never handed to a worker
    assert verdict.reason == "wrong", verdict


@pytest.mark.parametrize("pred,gold", EQUAL + NEAR)
def test_equal_or_near_values_are_never_decided_by_size(pred, gold):
    pred, gold = normalize(pred), normalize(gold)
    assert magnitude_verdict(pred, gold, CONFIG.float_rel_tol) is None
    assert magnitude_verdict(gold, pred, CONFIG.float_rel_tol) is None


@pytest.mark.parametrize("pred,gold", EQUAL)
def test_equal_values_are_not_wrong(pred, gold):
    for a, b in ((pred, gold), (gold, pred)):
        verdict = compare_local(a, b, CONFIG)
        assert not (isinstance(verdict, Verdict) and verdict.reason == "wrong"), verdict


@pytest.mark.parametrize("answer", NO_SIZE)
def test_no_size_outside_the_grammar(answer):
    assert size_of(answer) is None
    assert magnitude_verdict(answer, "42", CONFIG.float_rel_tol) is None


def test_a_wide_tolerance_widens_the_margin():
    # 0.4 vs 1: a factor 2.5 apart; decided only under no tolerance wider than the margin.
    assert magnitude_verdict("10^{3}", "1", 1e-6) is not None
    assert magnitude_verdict("10^{3}", "1", 0.49) is not None
    assert magnitude_verdict("10", "1", 0.49) is None       # 1 + 0.29 > 1
    assert magnitude_verdict("10^{100}", "1", 0.9) is None  # no margin holds: never decided


def test_an_unsettled_answer_is_left_to_the_worker():
    # `9^{9^{9^{9}}}` next to an operator: math-verify may read another span of the text,
    # so no cheap path decides it (the structural limit still does, as before).
    from rewards.math._extract import Extraction

    extraction = Extraction("9^{9^{9^{9}}}", "number", settled=False)
    verdict = compare_local(extraction, "42", CONFIG)
    assert isinstance(verdict, Verdict) and verdict.reason == "timeout"


@pytest.mark.parametrize("pred,gold,reason", [
    ("\\boxed{9^{9^{9^{9}}}}", "42", "wrong"), ("\\boxed{(10^{7})!}", "5040", "wrong"),
    ("The answer is $10^{10^{10}}$.", "10", "wrong"), ("\\boxed{2^{10}}", "1024", "ok"),
    # a gold beyond the structural limits abstains whatever the reply, a copy of it too (the
    # gold is judged first: a group of rollouts gets one signal, never 1.0 beside masks)
    ("\\boxed{(10^7)!}", "(10^7)!", "bad_reference"), ("no answer", "(10^7)!", "bad_reference"),
])
def test_through_the_reward(math_reward, pred, gold, reason):
    [score] = math_reward.score([Sample("p", pred, reference=gold)])
    assert score.reason == reason


def test_an_astronomical_constant_against_an_expression_is_a_structural_limit():
    # Nothing proves `(10^{7})!` unequal to `x+1`: no worker spends its timeout on it either.
    verdict = compare_local("(10^{7})!", "x+1", CONFIG)
    assert isinstance(verdict, Verdict) and verdict.reason == "timeout"
    assert "beyond max_exponent!" in verdict.detail
    gold = compare_local("5", "\\frac{1}{(10^{7})!}", CONFIG)
    assert isinstance(gold, Verdict) and gold.reason == "bad_reference"


# --- soundness: every bound holds the true value --------------------------------------------

def _log10(q: Fraction) -> float:
    return math.log10(abs(q.numerator)) - math.log10(q.denominator)


def _random_expression(rng: random.Random, depth: int) -> tuple[str, Fraction]:
    """A random constant expression in the reader's grammar and its exact value."""
    if depth == 0 or rng.random() < 0.25:
        kind = rng.random()
        if kind < 0.5:
            n = rng.randint(0, 999)
        elif kind < 0.8:
            n = rng.randint(1, 10 ** rng.randint(3, 90))  # long literals take another path
        else:
            whole, frac = rng.randint(0, 99), rng.randint(0, 9999)
            return f"{whole}.{frac:04d}", Fraction(f"{whole}.{frac:04d}")
        return str(n), Fraction(n)
    op = rng.choice("+-*/^!FS")
    if op == "!":
        n = rng.randint(0, 80)
        return f"{n}!", Fraction(math.factorial(n))
    if op == "S":  # a sum or product over a small range of a body in k
        low, count = rng.randint(1, 20), rng.randint(1, 12)
        power = rng.randint(1, 3)
        if rng.random() < 0.5:
            value = sum(Fraction(k) ** power for k in range(low, low + count))
            return (f"\\sum_{{k={low}}}^{{{low + count - 1}}} k^{{{power}}}", value)
        value = math.prod(Fraction(k + 1) for k in range(low, low + count))
        return f"\\prod_{{k={low}}}^{{{low + count - 1}}} (k+1)", Fraction(value)
    left, a = _random_expression(rng, depth - 1)
    if op == "^":
        e = rng.randint(-6, 6)
        if a == 0 and e <= 0:
            e = 1
        return f"({left})^{{{e}}}", a ** e
    right, b = _random_expression(rng, depth - 1)
    if op == "F":
        if b == 0:
            return left, a
        return f"\\frac{{{left}}}{{{right}}}", a / b
    if op == "/":
        if b == 0:
            return left, a
        return f"({left}) / ({right})", a / b
    value = {"+": a + b, "-": a - b, "*": a * b}[op]
    return f"({left}) {op} ({right})", value


def test_every_bound_holds_the_exact_value():
    rng = random.Random(20261202)
    checked = 0
    for _ in range(3000):
        latex, value = _random_expression(rng, 4)
        size = size_of(latex)
        if size is None:  # all of it is in the grammar, but a divisor may not be provably
            continue      # nonzero (a series minus a number: the bounds overlap 0)
        if value == 0:
            assert size.sign in (0, None) and size.lo == -math.inf, (latex, size)
            continue
        true = _log10(value)
        assert size.lo <= true <= size.hi, (latex, float(value), size)
        assert size.sign in (None, 1 if value > 0 else -1), (latex, size)
        if size.integer:
            assert value.denominator == 1, (latex, size)
        checked += 1
    assert checked > 2500


@pytest.mark.parametrize("latex,true_log10,width", [
    ("(10^{7})!", math.lgamma(10 ** 7 + 1) / math.log(10), 1.0),
    ("1000000!", math.lgamma(10 ** 6 + 1) / math.log(10), 0.1),
    ("9^{9^9}", 9 ** 9 * math.log10(9), 10.0),
    ("10^{10^{10}}", 1e10, 100.0),
    ("\\sqrt{2}", math.log10(2) / 2, 1e-6), ("\\pi^{100}", 100 * math.log10(math.pi), 1e-6),
    # interval bounds, not tight: a series' terms, and a difference bounded by its larger side
    ("\\sum_{k=1}^{10^{9}} k", math.log10(10 ** 9 * (10 ** 9 + 1) // 2), 9.1),
    ("\\prod_{k=1}^{10^{9}} k", math.lgamma(10 ** 9 + 1) / math.log(10), 5e9),
    ("2^{1000} - 2^{999}", 999 * math.log10(2), 0.31),
])
def test_bounds_of_known_sizes(latex, true_log10, width):
    size = size_of(latex)
    assert size is not None and size.lo <= true_log10 <= size.hi
    assert size.hi - size.lo <= width


def test_sizes_beyond_a_float_are_bounds_not_values():
    tower = size_of("9^{9^{9^{9}}}")
    assert tower is not None and tower.lo >= 0.9 * BIG and tower.hi == math.inf
    tiny = size_of("10^{-9^{9^{9}}}")
    assert tiny is not None and tiny.hi <= -0.9 * BIG and tiny.lo == -math.inf
    # Two towers too large to tell apart are not told apart.
    assert magnitude_verdict("9^{9^{9^{9}}}", "8^{8^{8^{8}}}", 1e-6) is None
