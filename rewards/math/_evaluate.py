"""A small, bounded evaluator for the LaTeX of everyday answers (`2\\sqrt{3}`, `\\frac{3\\pi}{4}`,
`(x+3)^2`), so that many pairs are decided in the caller's process without sympy.

It reads numbers, `+ - * /`, `\\cdot`, `\\times`, implicit products, `^`, `!`, `\\frac`,
`\\sqrt`, `\\sqrt[n]`, `\\binom`, `\\Gamma`, `\\pi`, parentheses and single-letter
variables; anything else (other functions, `e`, `i`, relations, sets) makes it decline. An
operation an arithmetic does not have (`binomial`) makes it decline too. One parser, two
arithmetics:
`evaluate` computes floats at a test point (which can prove two answers *different*, never
equal), `evaluate_exact` computes `_algebra.Exact` values (which prove equality too)."""

from __future__ import annotations

import math
import re
from typing import Any

from rewards.math._algebra import Decline, Exact, ExactArithmetic

__all__ = ["evaluate", "evaluate_exact", "evaluate_with"]

_TOKEN = re.compile(r"\d+(?:\.\d*)?|\.\d+|\\[a-zA-Z]+|[a-zA-Z]|[-+*/^(){}\[\]!_=]")
_VARIABLES = frozenset("abcdfghjklmnpqrstuvwxyz")  # not e, i: Euler's number, the imaginary unit
_MAX_EXPONENT = 400.0
_MAX_BINOMIAL_N = 2000  # math.comb's cost grows with n; a float overflows long before
_MAX_TOKENS = 200


_Decline = Decline  # not an expression this evaluator reads (or a value it will not compute)


class _FloatArithmetic:
    """The parser's operations on floats, variables set from a test point."""

    def __init__(self, point: dict[str, float]) -> None:
        self.point = point

    def number(self, token: str) -> float:
        return float(token)

    def pi(self) -> float:
        return math.pi

    def variable(self, name: str) -> float:
        return self.point.get(name, 1.0 + (ord(name) - 96) * 0.1234567)

    def factorial(self, value: float) -> float:
        if value != int(value) or not 0 <= value <= 170:
            raise _Decline
        return float(math.factorial(int(value)))

    def power(self, base: float, exponent: float) -> float:
        if abs(exponent) > _MAX_EXPONENT:
            raise _Decline
        if base < 0 and exponent != int(exponent):
            raise _Decline  # a complex value
        return base ** exponent

    def root(self, radicand: float, degree: float) -> float:
        if radicand < 0 or degree <= 0:
            raise _Decline
        return radicand ** (1.0 / degree)

    def binomial(self, n: float, k: float) -> float:
        if n != int(n) or k != int(k) or not 0 <= n <= _MAX_BINOMIAL_N:
            raise _Decline  # sympy's binomial of anything else is not an everyday value
        return float(math.comb(int(n), int(k))) if k >= 0 else 0.0


def evaluate(latex: str, point: dict[str, float] | None = None) -> tuple[float, bool] | None:
    """(value, has_variables) of `latex` with variables set from `point` (default 1.37...),
    or `None` when the text is outside the small grammar or the value is not a finite real."""
    parsed = _run(latex, _FloatArithmetic(point or {}))
    if parsed is None or not math.isfinite(parsed[0]):
        return None
    return parsed


def evaluate_exact(latex: str) -> Exact | None:
    """The exact value of `latex` (see `_algebra`), or `None` when it is outside the grammar
    or the exact form (a decimal, a sum in a denominator, a cube root ...)."""
    parsed = _run(latex, ExactArithmetic())
    return parsed[0] if parsed is not None else None


def evaluate_with(latex: str, arithmetic: Any, max_tokens: int = _MAX_TOKENS) -> Any | None:
    """The value of `latex` in another arithmetic (`_magnitude.SizeArithmetic`), by the same
    reading as `evaluate`; `None` outside the grammar, past `max_tokens` tokens, or when the
    arithmetic declines."""
    parsed = _run(latex, arithmetic, max_tokens)
    return parsed[0] if parsed is not None else None


def _run(latex: str, arithmetic: Any, max_tokens: int = _MAX_TOKENS) -> tuple[Any, bool] | None:
    tokens = _tokenize(latex, max_tokens)
    if tokens is None:
        return None
    parser = _Parser(tokens, arithmetic)
    try:
        value = parser.expr()
        if parser.pos != len(tokens):
            return None
    except (_Decline, OverflowError, ZeroDivisionError, ValueError, RecursionError):
        return None
    return value, parser.used_variables


def _tokenize(text: str, max_tokens: int = _MAX_TOKENS) -> list[str] | None:
    tokens, pos = [], 0
    text = text.strip()
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        match = _TOKEN.match(text, pos)
        if match is None:
            return None
        tokens.append(match.group(0))
        pos = match.end()
        if len(tokens) > max_tokens:
            return None
    return tokens


class _Parser:
    """Recursive descent over the tokens; values come from `arithmetic` (floats or exact)."""

    def __init__(self, tokens: list[str], arithmetic: Any) -> None:
        self.tokens = tokens
        self.pos = 0
        self.arithmetic = arithmetic
        self.used_variables = False
        self.bound: set[str] = set()  # index variables of the `\\sum` / `\\prod` being read

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise _Decline
        self.pos += 1
        return token

    def expr(self) -> Any:
        value = self.term()
        while self.peek() in ("+", "-"):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self) -> Any:
        value = self.factor()
        while True:
            token = self.peek()
            if token in ("*", "\\cdot", "\\times"):
                self.take()
                value *= self.factor()
            elif token in ("/", "\\div"):
                self.take()
                value /= self.implicit_product()  # 1/2x is 1/(2x), as latex2sympy reads it
            elif self._starts_factor(token):
                mixed = self._mixed_number(value)
                value = mixed if mixed is not None else value * self.factor()
            else:
                return value

    def implicit_product(self) -> Any:
        value = self.factor()
        while self._starts_factor(self.peek()):
            value *= self.factor()
        return value

    @staticmethod
    def _starts_factor(token: str | None) -> bool:
        return token is not None and (token[0].isdigit() or token in _VARIABLES
                                      or token in ("(", "{", "\\pi", "\\frac", "\\sqrt", ".",
                                                   "\\binom", "\\Gamma"))

    def _mixed_number(self, whole: Any) -> Any:
        """`2\\frac{1}{4}` is 2 1/4 (how answers write mixed numbers), not 2 * 1/4, and
        `-2\\frac{1}{4}` is -(2 1/4) = -9/4, not -1/2."""
        previous = self.tokens[self.pos - 1]
        negative = self.pos == 2 and self.tokens[0] == "-"
        if self.peek() != "\\frac" or not previous.isdigit() or not (self.pos == 1 or negative):
            return None
        rest = self.tokens[self.pos:self.pos + 7]
        if (len(rest) == 7 and rest[1] == "{" and rest[2].isdigit() and rest[3] == "}"
                and rest[4] == "{" and rest[5].isdigit() and rest[6] == "}"
                and self.pos + 7 == len(self.tokens)):
            top, bottom, width = rest[2], rest[5], 7
        elif (len(rest) == 2 and len(rest[1]) == 2 and rest[1].isdigit()
              and self.pos + 2 == len(self.tokens)):
            top, bottom, width = rest[1][0], rest[1][1], 2  # 2\frac14
        else:
            return None
        self.pos += width
        number = self.arithmetic.number
        fraction = number(top) / number(bottom)
        return whole - fraction if negative else whole + fraction

    def factor(self) -> Any:
        token = self.peek()
        if token == "-":
            self.take()
            return -self.factor()
        if token == "+":
            self.take()
            return self.factor()
        return self.power()

    def power(self) -> Any:
        value = self.atom()
        while self.peek() == "!":
            self.take()
            value = self.arithmetic.factorial(value)
        if self.peek() == "^":
            self.take()
            token = self.peek()  # 2^10 is 2**10 for latex2sympy (a digit run is one exponent)
            exponent = (self.arithmetic.number(self.take()) if token and token.isdigit()
                        else self.group_or_token())
            value = self.arithmetic.power(value, exponent)
        return value

    def group_or_token(self) -> Any:
        token = self.peek()
        if token == "{":
            return self.atom()
        if token is not None and token.isdigit():  # \frac123 is \frac{1}{2}3
            self.take()
            if len(token) > 1:
                self.tokens[self.pos:self.pos] = [token[1:]]
            return self.arithmetic.number(token[0])
        return self.atom()

    def atom(self) -> Any:
        token = self.take()
        if token[0].isdigit() or token[0] == ".":
            return self.arithmetic.number(token)
        if token in ("(", "{"):
            value = self.expr()
            if token == "{" and self.peek() == "\\choose":  # `{n \choose k}` is `\binom{n}{k}`
                self.take()
                value = self._operation("binomial", value, self.expr())
            self.take(")" if token == "(" else "}")
            return value
        if token == "\\pi":
            return self.arithmetic.pi()
        if token == "\\frac":
            numerator = self.group_or_token()
            return numerator / self.group_or_token()
        if token == "\\sqrt":
            degree = self.arithmetic.number("2")
            if self.peek() == "[":
                self.take()
                degree = self.expr()
                self.take("]")
            return self.arithmetic.root(self.group_or_token(), degree)
        if token == "\\binom":  # sympy computes binomial(n, k) of integers at once
            n = self.group_or_token()
            return self._operation("binomial", n, self.group_or_token())
        if token == "\\Gamma" and self.peek() in ("(", "{"):  # Gamma(n) = (n - 1)!
            argument = self.atom()
            return self.arithmetic.factorial(argument - self.arithmetic.number("1"))
        if token in self.bound:
            return self.arithmetic.variable(token)
        if token in _VARIABLES:
            self.used_variables = True
            return self.arithmetic.variable(token)
        if token in ("\\sum", "\\prod"):
            return self.series(token[1:])
        raise _Decline

    def _operation(self, name: str, *operands: Any) -> Any:
        """`arithmetic.<name>(*operands)`; an arithmetic without it declines."""
        operation = getattr(self.arithmetic, name, None)
        if operation is None:
            raise _Decline
        return operation(*operands)

    def series(self, kind: str) -> Any:
        """`\\sum_{k=a}^{b} body` (or `\\prod`), for an arithmetic that has `series`: the
        body is read once, as latex2sympy reads it (a product: `\\sum_{k=1}^{n} k + 1` is
        `1 + \\sum k`), and only where it ends the expression or its group, so that no
        reading of where the body ends can differ from latex2sympy's."""
        series = getattr(self.arithmetic, "series", None)
        if series is None:
            raise _Decline
        self.take("_")
        self.take("{")
        index = self.take()
        if len(index) != 1 or not index.isalpha() or index in self.bound:
            raise _Decline
        self.take("=")
        low = self.expr()
        self.take("}")
        self.take("^")
        token = self.peek()
        high = (self.arithmetic.number(self.take()) if token and token.isdigit()
                else self.group_or_token())
        value = series(kind, index, low, high, self._body_reader(index))
        if self.peek() not in (None, ")", "}"):
            raise _Decline
        return value

    def _body_reader(self, index: str) -> Any:
        """A function that reads the body (from its start each time it is called)."""
        start = self.pos

        def read() -> Any:
            self.pos = start
            self.bound.add(index)
            try:
                return self.term()
            finally:
                self.bound.discard(index)
        return read
