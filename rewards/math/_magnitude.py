"""Magnitude bounds: a guaranteed interval for log10|value| of a constant answer, computed in
microseconds from its LaTeX, so that an answer whose size cannot be the gold's
(`9^{9^{9^{9}}}`, `(10^{7})!`, `10^{10^{10}}`, `\\sum_{k=1}^{10^{9}} k` against `42`) is
decided `wrong` before any exact or symbolic work, instead of costing a timeout.

The answer is read by the one reader of everyday LaTeX (`_evaluate`'s parser, the same reading
as the fast paths) with an arithmetic of `Size`s: intervals of log10|v| with a sign, an
"is an integer" flag and, while it is small, the exact value. Every float result is rounded
outward (`_down`, `_up`), and an endpoint too large for a float is replaced by a weaker bound
(`BIG`), so the interval always holds the true value. A pair is `wrong` only when the two
intervals lie more than a factor of ten apart (`_margin`), far beyond any tolerance the
comparison grants, so an equal pair (`2^{10}` and `1024`, `(10^7)!` and `(10^{7})!`) can
never be decided here: their intervals overlap. Anything outside the reader's grammar
(variables, functions, sets, `e`, `i`, percent ...) has no size and is left to the rest."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rewards.math._algebra import Decline
from rewards.math._config import Verdict
from rewards.math._evaluate import evaluate_with
from rewards.math._fast import _ASSIGNMENT as ASSIGNMENT  # one reading of `x = ...`
from rewards.math._normalize import parse_number

__all__ = ["BIG", "UNKNOWN", "Size", "SizeArithmetic", "largest_part", "log10_factorial_bounds",
           "magnitude_verdict", "size_of"]

BIG = 1e300
"""log10 endpoints beyond +-BIG are replaced by +-BIG (a weaker bound that a float holds)."""
_REL = 1e-9
"""Outward rounding per operation: each float primitive errs by a few ulps (< 1e-15) of its
result, so widening every result by 1e-9 relative plus 1e-9 absolute keeps the bound."""
_EXACT_BITS = 200
"""Exact values are kept while numerator and denominator stay below 2^200 (about 60 digits)."""
_MAX_CHARS = 20_000
_LN10 = math.log(10.0)
_SPACED_DIGITS = re.compile(r"\d\s+\.?\d")
_NEG_INF, _INF = -math.inf, math.inf


def _down(x: float) -> float:
    """A lower bound just below `x` (a float result that may be off by a few ulps)."""
    if math.isnan(x):  # an inf - inf corner: no bound
        return _NEG_INF
    if x > BIG:
        return BIG
    return x - (abs(x) * _REL + _REL)


def _up(x: float) -> float:
    if math.isnan(x):
        return _INF
    if x < -BIG:
        return -BIG
    return x + (abs(x) * _REL + _REL)


def _times(a: float, b: float) -> float:
    """a * b for interval corners: 0 times an unbounded end is 0 (the values are finite)."""
    return 0.0 if a == 0.0 or b == 0.0 else a * b


def _product(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """[lo, hi] of x * y for x in `a`, y in `b` (outward rounded)."""
    corners = [_times(x, y) for x in a for y in b]
    return _down(min(corners)), _up(max(corners))


def _small(q: Fraction) -> bool:
    return (abs(q.numerator).bit_length() <= _EXACT_BITS
            and q.denominator.bit_length() <= _EXACT_BITS)


_SIGNS: dict[int, Literal[-1, 0, 1]] = {-1: -1, 0: 0, 1: 1}
"""A product of signs as the sign it is."""


@dataclass(frozen=True)
class Size:
    """What is known of a real value v: lo <= log10|v| <= hi, its sign, whether it is an
    integer, and v itself while it is small."""

    lo: float
    """Lower bound of log10|v|; -inf when v may be 0."""
    hi: float
    """Upper bound of log10|v|; inf when unbounded; -inf only when v is exactly 0."""
    sign: Literal[-1, 0, 1] | None
    """1: v > 0, -1: v < 0, 0: v == 0, None: unknown (v may be 0)."""
    integer: bool = False
    """v is known to be an integer."""
    exact: Fraction | None = None
    """v, while numerator and denominator have at most about 60 digits."""

    @classmethod
    def of(cls, q: Fraction) -> Size:
        """The size of an exact rational."""
        if q == 0:
            return ZERO
        log = math.log10(abs(q.numerator)) - math.log10(q.denominator)
        return cls(_down(log), _up(log), 1 if q > 0 else -1, q.denominator == 1,
                   q if _small(q) else None)

    def values(self) -> tuple[float, float]:
        """[lo, hi] bounds of v itself (floats; an end may be infinite)."""
        if self.exact is not None:
            v = float(self.exact)
            return v - abs(v) * _REL, v + abs(v) * _REL
        if self.sign == 0:
            return 0.0, 0.0
        least = 0.0 if self.lo < -300.0 else 10.0 ** min(self.lo, 300.0) * (1 - _REL)
        most = _INF if self.hi > 300.0 else (
            1e-300 if self.hi < -300.0 else 10.0 ** self.hi * (1 + _REL))
        if self.sign == 1:
            return least, most
        if self.sign == -1:
            return -most, -least
        return -most, most

    def __neg__(self) -> Size:
        sign = None if self.sign is None else -self.sign
        exact = None if self.exact is None else -self.exact
        return Size(self.lo, self.hi, sign, self.integer, exact)

    def __add__(self, other: Size) -> Size:
        if self.exact is not None and other.exact is not None:
            return Size.of(self.exact + other.exact)
        if self.sign == 0:
            return other
        if other.sign == 0:
            return self
        integer = self.integer and other.integer
        big, small = (self, other) if self.hi >= other.hi else (other, self)
        if self.sign is not None and other.sign is not None and self.sign != other.sign:
            hi = big.hi  # opposite signs: |a + b| <= max(|a|, |b|)
        else:  # |a + b| <= |a| + |b| <= 10^big.hi * (1 + 10^(small.hi - big.hi))
            hi = _up(big.hi + math.log1p(10.0 ** (small.hi - big.hi)) / _LN10
                     if big.hi < _INF else _INF)
        if self.sign is not None and self.sign == other.sign:
            return Size(_down(max(self.lo, other.lo)), hi, self.sign, integer)
        for a, b in ((self, other), (other, self)):
            if a.lo > b.hi:  # |a| > |b|: |a + b| >= |a| - |b| = |a| (1 - 10^(b.hi - a.lo))
                gap = -math.expm1((b.hi - a.lo) * _LN10)  # accurate when the gap is small
                lo = _down(a.lo + math.log10(gap)) if gap > 0 else _NEG_INF
                return Size(lo, hi, a.sign, integer)
        return Size(_NEG_INF, hi, None, integer)

    def __sub__(self, other: Size) -> Size:
        return self + -other

    def __mul__(self, other: Size) -> Size:
        if self.exact is not None and other.exact is not None:
            return Size.of(self.exact * other.exact)
        if self.sign == 0 or other.sign == 0:
            return ZERO
        sign = None if self.sign is None or other.sign is None else _SIGNS[self.sign * other.sign]
        return Size(_down(self.lo + other.lo), _up(self.hi + other.hi), sign,
                    self.integer and other.integer)

    def __truediv__(self, other: Size) -> Size:
        if other.sign == 0 or other.lo == _NEG_INF:
            raise Decline  # the divisor may be 0
        if self.exact is not None and other.exact is not None:
            return Size.of(self.exact / other.exact)
        if self.sign == 0:
            return ZERO
        sign = None if self.sign is None or other.sign is None else _SIGNS[self.sign * other.sign]
        return Size(_down(self.lo - other.hi), _up(self.hi - other.lo), sign)


ZERO = Size(_NEG_INF, _NEG_INF, 0, True, Fraction(0))


UNKNOWN = Size(_NEG_INF, _INF, None)
"""A value nothing is known of (a free variable, read by `largest_part`)."""


class SizeArithmetic:
    """The parser's operations (see `_evaluate`) on `Size`s. No free variables (unless
    `free_variables`: then each is `UNKNOWN`); the index of a `\\sum` / `\\prod` is bound to
    the interval of its range. `peak` is the largest lower bound of log10|v| over the values
    sympy would compute exactly when it reads the answer (factorials, binomials, powers of
    rationals, sums and products over ranges)."""

    def __init__(self, free_variables: bool = False) -> None:
        self.bindings: dict[str, Size] = {}
        self.free_variables = free_variables
        self.peak = _NEG_INF

    def _built(self, size: Size) -> Size:
        """`size`, a value sympy builds in full: it raises `peak`."""
        self.peak = max(self.peak, size.lo)
        return size

    def number(self, token: str) -> Size:
        if len(token) <= 60:
            return Size.of(Fraction(token))
        return _long_number(token)

    def pi(self) -> Size:
        log = math.log10(math.pi)
        return Size(_down(log), _up(log), 1)

    def variable(self, name: str) -> Size:
        if name in self.bindings:
            return self.bindings[name]
        if self.free_variables:
            return UNKNOWN
        raise Decline  # a free variable: no size

    def factorial(self, n: Size) -> Size:
        if not n.integer or n.sign not in (0, 1):
            raise Decline  # sympy's factorial of anything else is not an everyday value
        if n.exact is not None and n.exact <= 60:
            return Size.of(Fraction(math.factorial(int(n.exact))))
        n_lo, n_hi = n.values()
        return self._built(Size(_log10_factorial_lower(n_lo), _log10_factorial_upper(n_hi), 1,
                                True))

    def binomial(self, n: Size, k: Size) -> Size:
        """C(n, k) of integers n, k >= 0 (0 when k > n, as sympy has it): exact while n is
        small, else from the factorial bounds, C(n, k) = n! / (k! (n - k)!), or at most 2^n."""
        if not (n.integer and k.integer) or n.sign not in (0, 1) or k.sign not in (0, 1):
            raise Decline
        if n.exact is not None and k.exact is not None:
            big_n, small_k = int(n.exact), int(k.exact)
            if small_k > big_n:
                return ZERO
            small_k = min(small_k, big_n - small_k)
            if big_n <= 300:
                return Size.of(Fraction(math.comb(big_n, small_k)))
            lo = (_log10_factorial_lower(big_n) - _log10_factorial_upper(small_k)
                  - _log10_factorial_upper(big_n - small_k))
            hi = (_log10_factorial_upper(big_n) - _log10_factorial_lower(small_k)
                  - _log10_factorial_lower(big_n - small_k))
            return self._built(Size(max(_down(lo), 0.0), _up(hi), 1, True))
        n_least, n_most = n.values()  # C(n, k) <= 2^n; it may be 0 (k > n)
        hi = _up(n_most * math.log10(2.0)) if n_most < _INF else _INF
        k_least, k_most = k.values()
        if k.sign == 1 and k_least >= 1 and k_most * math.e <= n_least:
            # 1 <= k <= n/e: C(n, k) grows with n and with k, and C(n, k) >= (n/k)^k, which
            # grows with k too, so C(n, k) >= (n_least / k_least)^k_least
            # (`\binom{10^{100}}{10^{50}}`, whose size no exact bound reads)
            lo = _down(k_least * (math.log10(n_least) - math.log10(k_least)))
            return self._built(Size(max(lo, 0.0), max(hi, lo), 1, True))
        return Size(_NEG_INF, hi, None, True)

    def power(self, base: Size, exponent: Size) -> Size:
        if exponent.sign == 0:
            return Size.of(Fraction(1))  # x^0 = 1, as sympy has it (0^0 too)
        if base.sign == 0:
            if exponent.sign == 1:
                return ZERO
            raise Decline
        exact = _exact_power(base, exponent)
        if exact is not None:
            return exact
        if base.lo == _NEG_INF:
            raise Decline  # the base may be 0
        sign: Literal[-1, 1] | None = 1
        if base.sign != 1:
            if not exponent.integer:
                raise Decline  # a negative base to a fractional power is not real
            odd = (exponent.exact.numerator % 2 == 1) if exponent.exact is not None else None
            sign = None if base.sign is None or odd is None else (-1 if odd else 1)
        lo, hi = _product((base.lo, base.hi), exponent.values())
        integer = base.integer and exponent.integer and exponent.sign == 1
        power = Size(lo, hi, sign, integer)
        return self._built(power) if integer else power

    def root(self, radicand: Size, degree: Size) -> Size:
        d_lo, d_hi = degree.values()
        if radicand.sign == 0 and d_lo > 0:
            return ZERO
        if radicand.sign != 1 or not d_lo > 0:
            raise Decline  # a root of a negative (or unknown-sign) value, or a degree <= 0
        corners = [x / d for x in (radicand.lo, radicand.hi) for d in (d_lo, d_hi)]
        return Size(_down(min(corners)), _up(max(corners)), 1)

    def series(self, kind: str, index: str, low: Size, high: Size,
               read_body: Callable[[], Size]) -> Size:
        """`\\sum_{index=low}^{high} body` or `\\prod`: the body read with `index` bound to
        the interval [low, high] (`read_body` reads it from its start each call); at least
        one term (sympy's sums over an empty or reversed range follow a convention, not a
        count)."""
        if not (low.integer and high.integer):
            raise Decline
        count = _count(low, high)
        upper_half = _upper_half_bound(kind, low, high, lambda k: self._read(index, k, read_body))
        body = self._read(index, _between(low, high), read_body)  # last: leaves the parser
        if body.sign == 0:                                       # after the body
            return ZERO
        if kind == "sum":  # N terms, each within [10^body.lo, 10^body.hi] in size
            hi = _up(body.hi + count.hi)
            if body.sign is None:
                return Size(_NEG_INF, hi, None, body.integer)
            return self._built(Size(_down(body.lo + count.lo), hi, body.sign, body.integer))
        lo, hi = _product(count.values(), (body.lo, body.hi))
        if upper_half is not None and (body.lo >= 0 or (body.integer and body.lo > _NEG_INF)):
            lo = max(lo, upper_half)  # every factor has |t| >= 1: the upper half's product
        return self._built(Size(lo, hi, 1 if body.sign == 1 else None, body.integer))

    def _read(self, index: str, value: Size, read_body: Callable[[], Size]) -> Size:
        self.bindings[index] = value
        try:
            return read_body()
        finally:
            del self.bindings[index]


def _upper_half_bound(kind: str, low: Size, high: Size,
                      read_at: Callable[[Size], Size]) -> float | None:
    """For a product over k = low..high of factors with |t| >= 1: a lower bound of log10 of
    the product of the factors with k in [high/2, high] alone, each read with k bound to that
    half (interval arithmetic over the whole range only proves |product| >= 1). None when it
    does not apply."""
    if kind != "prod" or low.sign != 1:
        return None
    top = high.values()[0]
    middle = top / 2
    if not middle > low.values()[1] + 1:
        return None
    half = Size(_down(math.log10(middle)), high.hi, 1, True)
    try:
        factor = read_at(half)
    except (Decline, OverflowError, ZeroDivisionError, ValueError):
        return None
    if factor.lo < 0:
        return None
    terms = math.floor(top - middle)  # integers k in [middle, top]: at least floor(top - middle)
    return _down(_times(float(terms), factor.lo))


def _count(low: Size, high: Size) -> Size:
    """The size of high - low + 1, the number of terms; at least one, or Decline."""
    if low.exact is not None and high.exact is not None:
        count = high.exact - low.exact + 1
        if count < 1:
            raise Decline
        return Size.of(count)
    (low_least, low_most), (high_least, high_most) = low.values(), high.values()
    least = high_least - low_most + 1
    least -= (abs(high_least) + abs(low_most) + 1) * _REL  # the subtraction's rounding
    if not least > 0:  # an integer count > 0 is >= 1
        raise Decline
    most = high_most - low_least + 1
    return Size(max(_down(math.log10(max(least, 1.0))), 0.0),
                _up(math.log10(most)) if most < _INF else _INF, 1, True)


def _between(low: Size, high: Size) -> Size:
    """The size of an integer k with low <= k <= high."""
    if low.sign == 1:
        return Size(low.lo, high.hi, 1, True)
    if high.sign == -1:
        return Size(high.lo, low.hi, -1, True)
    return Size(_NEG_INF, max(low.hi, high.hi), None, True)


def _long_number(token: str) -> Size:
    """The size of a literal too long to keep exactly: from its leading digits and length."""
    whole, _, fraction = token.partition(".")
    digits = whole + fraction
    significant = digits.lstrip("0")
    if not significant:
        return ZERO
    leading = len(whole) - (len(digits) - len(significant)) - 1  # power of 10 of the first digit
    head = significant[:17]
    log = leading + math.log10(int(head)) - (len(head) - 1)
    # The digits after the 17th raise the value by less than 1 in 10^16: inside the slack.
    return Size(_down(log), _up(log), 1, "." not in token)


def _exact_power(base: Size, exponent: Size) -> Size | None:
    """base^exponent exactly when both are exact, the exponent an integer and the result
    small; else None."""
    if base.exact is None or exponent.exact is None or exponent.exact.denominator != 1:
        return None
    e = exponent.exact.numerator
    size = max(abs(base.exact.numerator).bit_length(), base.exact.denominator.bit_length())
    if abs(e) * size > _EXACT_BITS:
        return None
    return Size.of(base.exact ** e)


def _log10_factorial_lower(n: float) -> float:
    """A lower bound of log10(n!) for every integer >= n: ln n! >= n ln n - n + ln(2 pi n)/2
    (Robbins 1955), which increases for n >= 1."""
    if n < 1:
        return 0.0
    if n > BIG:
        return BIG
    return _down((n * math.log(n) - n + 0.5 * math.log(2 * math.pi * n)) / _LN10)


def _log10_factorial_upper(n: float) -> float:
    """An upper bound of log10(m!) for every integer m <= n: ln m! <= m ln m - m +
    ln(2 pi m)/2 + 1/(12m) (Robbins 1955), increasing in m."""
    if n < 1:
        return _up(0.0)
    if n == _INF:
        return _INF
    return _up((n * math.log(n) - n + 0.5 * math.log(2 * math.pi * n) + 1 / (12 * n)) / _LN10)


def log10_factorial_bounds(n: int) -> tuple[float, float]:
    """[lo, hi] bounds of log10(n!)."""
    return _log10_factorial_lower(n), _log10_factorial_upper(n)


def size_of(latex: str) -> Size | None:
    """The size of a constant real answer (normalized LaTeX), or None when it is outside the
    reader's grammar, has a free variable, or may not be real."""
    if len(latex) > _MAX_CHARS or _SPACED_DIGITS.search(latex):
        return None  # `1 000 000`: thousands, or a product of 1, 0 and 0? Not for sizes to say
    size = evaluate_with(latex, SizeArithmetic())
    return size if isinstance(size, Size) else None


def largest_part(latex: str, max_tokens: int) -> float:
    """A lower bound of log10 of the largest value sympy would compute in full to read
    `latex` (a factorial, a binomial, a power of integers, a sum or product over a range, or
    the whole constant), over every part the reader reads, free variables included (`x +
    \\binom{10^{7}}{5000000}`); -inf when it reads none. One rule for every operator, by
    the size arithmetic, in one pass over at most `max_tokens` tokens."""
    if len(latex) > _MAX_CHARS or _SPACED_DIGITS.search(latex):
        return _NEG_INF
    arithmetic = SizeArithmetic(free_variables=True)
    whole = evaluate_with(latex, arithmetic, max_tokens)  # a part read before a decline counts
    if isinstance(whole, Size) and whole.lo > arithmetic.peak:
        return whole.lo
    return arithmetic.peak


def _gold_size(gold: str) -> Size | None:
    """The gold's size: a number as `parse_number` reads it (thousands separators; a percent
    may be written as its number or its value, `25\\%` is 25 or 0.25, so both are covered), or
    a constant expression."""
    number = parse_number(gold)
    if number is None:
        return size_of(gold)
    value = Size.of(number.value)
    if not number.percent:
        return value
    if number.value == 0:
        return ZERO
    hundredth = Size.of(number.value / 100)
    return Size(min(value.lo, hundredth.lo), max(value.hi, hundredth.hi), value.sign)


def _margin(rel_tol: float) -> float:
    """How far apart (in log10) the two sizes must be: a factor of ten, plus the widest
    relative difference the comparison may still call equal."""
    return 1.0 - math.log10(1.0 - min(rel_tol, 0.5)) if rel_tol < 0.5 else _INF


def magnitude_verdict(pred: str, gold: str, rel_tol: float) -> Verdict | None:
    """`wrong` when the sizes of the (normalized) answer and gold are disjoint by more than
    `_margin`; None (no decision) otherwise, or when either has no size."""
    pred, gold = _right_hand_sides(pred, gold)
    gold_size = _gold_size(gold)
    if gold_size is None:
        return None
    pred_size = size_of(pred)
    if pred_size is None:
        return None
    margin = _margin(rel_tol)
    if pred_size.lo - gold_size.hi > margin or gold_size.lo - pred_size.hi > margin:
        return Verdict("wrong", f"magnitude: answer 10^[{_show(pred_size.lo)}, "
                                f"{_show(pred_size.hi)}], gold 10^[{_show(gold_size.lo)}, "
                                f"{_show(gold_size.hi)}]")
    return None


def _right_hand_sides(pred: str, gold: str) -> tuple[str, str]:
    """`x = 10^{10^{10}}` against `5`: the value is the right-hand side (math-verify's rule for
    assignments, as in `_fast`); two assignments to different variables are left alone."""
    pred_match, gold_match = ASSIGNMENT.match(pred), ASSIGNMENT.match(gold)
    if pred_match and gold_match and pred_match.group(1) != gold_match.group(1):
        return pred, gold
    return (pred_match.group(2).strip() if pred_match else pred,
            gold_match.group(2).strip() if gold_match else gold)


def _show(x: float) -> str:
    return f"{x:.4g}"
