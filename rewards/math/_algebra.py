"""Exact arithmetic for everyday answers, so that equal answers are *proved* equal in the
caller's process: `2\\sqrt{3}` = `\\sqrt{12}`, `\\frac{3\\pi}{4}` = `\\frac{3}{4}\\pi`,
`(x+2)(x+5)` = `x^2+7x+10`, and `2^{100}` is not `2^{100}-1`.

A value is a polynomial in the answer's variables whose coefficients are rational
combinations of `\\pi^k \\sqrt{n}` (n square-free). That form is canonical: square roots of
distinct square-free integers are linearly independent over the rationals, pi is transcendental
(so its powers are independent of every algebraic number), and two polynomials with different
coefficients differ as functions. So two values are equal exactly when their terms are. What
the form cannot hold (a division by anything but a single constant term, a root other than a
square root of a positive rational constant, a fractional exponent, a decimal) is declined
and left to sympy. Sizes are bounded so that no input costs more than a small constant."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from fractions import Fraction

__all__ = ["Exact", "ExactArithmetic"]

Monomial = tuple[tuple[str, int], ...]  # ((variable, power), ...), sorted by variable
Key = tuple[int, int, Monomial]  # (power of pi, square-free radicand, monomial)

MAX_TERMS = 64
MAX_DEGREE = 12
MAX_RADICAND = 10 ** 6  # trial division up to 10^3, cached: a product of terms stays cheap
MAX_DIGITS = 400  # of a numerator or denominator


class Decline(Exception):
    """A value this exact form does not hold (or one too large to compute)."""


class Exact:
    """An exact value: `{(pi power, radicand, monomial): rational coefficient}`, no zeros."""

    __slots__ = ("terms",)

    def __init__(self, terms: Mapping[Key, Fraction]) -> None:
        clean = {key: c for key, c in terms.items() if c != 0}
        if len(clean) > MAX_TERMS:
            raise Decline
        for c in clean.values():
            if max(len(str(c.numerator)), len(str(c.denominator))) > MAX_DIGITS:
                raise Decline
        self.terms = clean

    @classmethod
    def rational(cls, value: Fraction) -> Exact:
        return cls({(0, 1, ()): value})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Exact) and self.terms == other.terms

    def __hash__(self) -> int:
        return hash(frozenset(self.terms.items()))

    def __repr__(self) -> str:
        return f"Exact({self.terms})"

    @property
    def constant(self) -> bool:
        return all(not monomial for _, _, monomial in self.terms)

    def as_rational(self) -> Fraction | None:
        """The value when it is a rational number, else None."""
        if not self.terms:
            return Fraction(0)
        if len(self.terms) == 1 and (0, 1, ()) in self.terms:
            return self.terms[(0, 1, ())]
        return None

    def __neg__(self) -> Exact:
        return Exact({key: -c for key, c in self.terms.items()})

    def __add__(self, other: Exact) -> Exact:
        terms = dict(self.terms)
        for key, c in other.terms.items():
            terms[key] = terms.get(key, Fraction(0)) + c
        return Exact(terms)

    def __sub__(self, other: Exact) -> Exact:
        return self + (-other)

    def __mul__(self, other: Exact) -> Exact:
        terms: dict[Key, Fraction] = {}
        for (pi_a, root_a, mono_a), c_a in self.terms.items():
            for (pi_b, root_b, mono_b), c_b in other.terms.items():
                square, radicand = _split_square(root_a * root_b)
                monomial = _multiply(mono_a, mono_b)
                key = (pi_a + pi_b, radicand, monomial)
                terms[key] = terms.get(key, Fraction(0)) + c_a * c_b * square
        return Exact(terms)

    def __truediv__(self, other: Exact) -> Exact:
        return self * other.inverse()

    def inverse(self) -> Exact:
        """1 / a single constant term: `1/(c \\pi^k \\sqrt{r}) = \\sqrt{r} / (c r \\pi^k)`."""
        if len(self.terms) != 1:
            raise Decline  # a sum in a denominator: sympy's
        ((pi, radicand, monomial), c), = self.terms.items()
        if monomial:
            raise Decline  # a variable in a denominator: a rational function
        return Exact({(-pi, radicand, ()): 1 / (c * radicand)})

    def power(self, exponent: int) -> Exact:
        if exponent < 0:
            return self.inverse().power(-exponent)
        degree = max((sum(p for _, p in mono) for _, _, mono in self.terms), default=0)
        if exponent > 400 or degree * exponent > MAX_DEGREE and not self.constant:
            raise Decline
        result, base = Exact.rational(Fraction(1)), self
        while exponent:  # square and multiply: at most ~18 products for 2^{400}
            if exponent & 1:
                result = result * base
            exponent >>= 1
            if exponent:
                base = base * base
        return result


class ExactArithmetic:
    """The operations `_evaluate`'s parser needs, on `Exact` values."""

    def number(self, token: str) -> Exact:
        if "." in token:
            raise Decline  # a decimal may be rounded: the tolerance rules decide
        return Exact.rational(Fraction(int(token)))

    def pi(self) -> Exact:
        return Exact({(1, 1, ()): Fraction(1)})

    def variable(self, name: str) -> Exact:
        return Exact({(0, 1, ((name, 1),)): Fraction(1)})

    def factorial(self, value: Exact) -> Exact:
        n = value.as_rational()
        if n is None or n.denominator != 1 or not 0 <= n <= 170:
            raise Decline
        result = 1
        for k in range(2, int(n) + 1):
            result *= k
        return Exact.rational(Fraction(result))

    def power(self, base: Exact, exponent: Exact) -> Exact:
        e = exponent.as_rational()
        if e is None or e.denominator != 1:
            raise Decline  # a fractional or symbolic exponent
        return base.power(int(e))

    def root(self, radicand: Exact, degree: Exact) -> Exact:
        if degree.as_rational() != 2:
            raise Decline
        value = radicand.as_rational()
        if value is None or value < 0:
            raise Decline  # the root of an irrational or a variable, or a complex number
        # sqrt(p/q) = sqrt(p q) / q
        numerator = value.numerator * value.denominator
        if numerator > MAX_RADICAND:
            raise Decline
        square, rest = _split_square(numerator)
        return Exact({(0, rest, ()): Fraction(square, value.denominator)})


@functools.lru_cache(maxsize=4096)
def _split_square(n: int) -> tuple[int, int]:
    """(s, r) with n = s^2 r and r square-free."""
    if n > MAX_RADICAND:
        raise Decline
    square, rest, p = 1, n, 2
    while p * p <= rest:
        while rest % (p * p) == 0:
            rest //= p * p
            square *= p
        p += 1 if p == 2 else 2
    return square, rest


def _multiply(a: Monomial, b: Monomial) -> Monomial:
    powers = dict(a)
    for name, p in b:
        powers[name] = powers.get(name, 0) + p
    return tuple(sorted(powers.items()))
