"""A small, bounded evaluator for the LaTeX of everyday answers (`2\\sqrt{3}`, `\\frac{3\\pi}{4}`,
`(x+3)^2`), so that many pairs are decided in the caller's process without sympy.

It reads numbers, `+ - * /`, `\\cdot`, `\\times`, implicit products, `^`, `!`, `\\frac`,
`\\sqrt`, `\\sqrt[n]`, `\\pi`, parentheses and single-letter variables; anything else
(functions, `e`, `i`, relations, sets) makes it decline. Values are floats: used to prove two
answers *different* at a test point, and to accept two constants equal to 12 digits."""

from __future__ import annotations

import math
import re

__all__ = ["evaluate"]

_TOKEN = re.compile(r"\d+(?:\.\d*)?|\.\d+|\\[a-zA-Z]+|[a-zA-Z]|[-+*/^(){}\[\]!]")
_VARIABLES = frozenset("abcdfghjklmnpqrstuvwxyz")  # not e, i: Euler's number, the imaginary unit
_MAX_EXPONENT = 400.0


class _Decline(Exception):
    """Not an expression this evaluator reads (or a value it will not compute)."""


def evaluate(latex: str, point: dict[str, float] | None = None) -> tuple[float, bool] | None:
    """(value, has_variables) of `latex` with variables set from `point` (default 1.37...),
    or `None` when the text is outside the small grammar or the value is not a finite real."""
    tokens = _tokenize(latex)
    if tokens is None:
        return None
    parser = _Parser(tokens, point or {})
    try:
        value = parser.expr()
        if parser.pos != len(tokens):
            return None
    except (_Decline, OverflowError, ZeroDivisionError, ValueError, RecursionError):
        return None
    if not math.isfinite(value):
        return None
    return value, parser.used_variables


def _tokenize(text: str) -> list[str] | None:
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
        if len(tokens) > 200:
            return None
    return tokens


class _Parser:
    def __init__(self, tokens: list[str], point: dict[str, float]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.point = point
        self.used_variables = False

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise _Decline
        self.pos += 1
        return token

    def expr(self) -> float:
        value = self.term()
        while self.peek() in ("+", "-"):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self) -> float:
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

    def implicit_product(self) -> float:
        value = self.factor()
        while self._starts_factor(self.peek()):
            value *= self.factor()
        return value

    @staticmethod
    def _starts_factor(token: str | None) -> bool:
        return token is not None and (token[0].isdigit() or token in _VARIABLES
                                      or token in ("(", "{", "\\pi", "\\frac", "\\sqrt", "."))

    def _mixed_number(self, whole: float) -> float | None:
        """`2\\frac{1}{4}` is 2 1/4 (how answers write mixed numbers), not 2 * 1/4."""
        previous = self.tokens[self.pos - 1]
        if self.peek() != "\\frac" or not previous.isdigit() or self.pos != 1:
            return None
        rest = self.tokens[self.pos:self.pos + 7]
        if (len(rest) == 7 and rest[1] == "{" and rest[2].isdigit() and rest[3] == "}"
                and rest[4] == "{" and rest[5].isdigit() and rest[6] == "}"
                and self.pos + 7 == len(self.tokens)):
            self.pos += 7
            return whole + int(rest[2]) / int(rest[5])
        return None

    def factor(self) -> float:
        token = self.peek()
        if token == "-":
            self.take()
            return -self.factor()
        if token == "+":
            self.take()
            return self.factor()
        return self.power()

    def power(self) -> float:
        value = self.atom()
        while self.peek() == "!":
            self.take()
            if value != int(value) or not 0 <= value <= 170:
                raise _Decline
            value = float(math.factorial(int(value)))
        if self.peek() == "^":
            self.take()
            token = self.peek()  # 2^10 is 2**10 for latex2sympy (a digit run is one exponent)
            exponent = float(self.take()) if token and token.isdigit() else self.group_or_token()
            if abs(exponent) > _MAX_EXPONENT:
                raise _Decline
            if value < 0 and exponent != int(exponent):
                raise _Decline  # a complex value
            value = value ** exponent
        return value

    def group_or_token(self) -> float:
        token = self.peek()
        if token == "{":
            return self.atom()
        if token is not None and token.isdigit():  # \frac123 is \frac{1}{2}3
            self.take()
            if len(token) > 1:
                self.tokens[self.pos:self.pos] = [token[1:]]
            return float(token[0])
        return self.atom()

    def atom(self) -> float:
        token = self.take()
        if token[0].isdigit() or token[0] == ".":
            return float(token)
        if token in ("(", "{"):
            value = self.expr()
            self.take(")" if token == "(" else "}")
            return value
        if token == "\\pi":
            return math.pi
        if token == "\\frac":
            numerator = self.group_or_token()
            return numerator / self.group_or_token()
        if token == "\\sqrt":
            root = 2.0
            if self.peek() == "[":
                self.take()
                root = self.expr()
                self.take("]")
            radicand = self.group_or_token()
            if radicand < 0 or root <= 0:
                raise _Decline
            return radicand ** (1.0 / root)
        if token in _VARIABLES:
            self.used_variables = True
            return self.point.get(token, 1.0 + (ord(token) - 96) * 0.1234567)
        raise _Decline
