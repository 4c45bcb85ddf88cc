"""Structural limits: recognize pathological answers (power towers, huge exponents, deep
nesting, huge factorials, very long strings, values whose bounded size is astronomical) by
scanning the string, before sympy sees them. One linear pass per rule; every rule is cheap on
any input. (Against a gold that is a number, a size that cannot be the gold's is decided
`wrong` first, in `_magnitude`; these limits keep the rest from costing a timeout.)"""

from __future__ import annotations

import math
import re

from rewards.math._config import MathConfig
from rewards.math._magnitude import largest_part, log10_factorial_bounds, size_of

__all__ = ["structural_problem"]

_OPEN = "([{"
_CLOSE = ")]}"
_FACTORIAL = re.compile(r"(?<!\d)(\d+)[\s}]*!")
_LITERAL_POWER = re.compile(r"^\{?\s*(\d+)\s*\}?\s*\^\s*\{?\s*(\d+)\s*\}?$")


def structural_problem(answer: str, config: MathConfig) -> str | None:
    """Why `answer` is too costly to hand to sympy, or `None` when it is within limits."""
    if len(answer) > config.max_answer_chars:
        return f"answer has {len(answer)} chars > max_answer_chars={config.max_answer_chars}"
    depth = _bracket_depth(answer)
    if depth > config.max_nesting:
        return f"bracket nesting {depth} > max_nesting={config.max_nesting}"
    power_depth, log10_exponent = _powers(answer)
    if power_depth > config.max_power_depth:
        return f"power tower of depth {power_depth} > max_power_depth={config.max_power_depth}"
    if log10_exponent > math.log10(config.max_exponent):
        return f"exponent about 10^{log10_exponent:.0f} > max_exponent={config.max_exponent}"
    for match in _FACTORIAL.finditer(answer):
        digits = match.group(1)
        if len(digits) > 12 or int(digits) > config.max_exponent:
            return f"factorial of {digits[:20]} > max_exponent={config.max_exponent}"
    return _astronomical(answer, config)


def _astronomical(answer: str, config: MathConfig) -> str | None:
    """A part whose size (`_magnitude.largest_part`, a bound over every operator of the parsed
    answer: factorials, binomials, powers, sums and products over ranges) is beyond that of
    `max_exponent!`, the largest value the rules above let through (`(10^{7})!`,
    `\\binom{10^{7}}{5000000}`, `\\prod_{k=1}^{10^{9}} k`, whose size no literal shows),
    or a constant too small for it (`10^{-10^{10}}`)."""
    limit = log10_factorial_bounds(config.max_exponent)[1]
    largest = largest_part(answer, max_tokens=config.max_answer_chars)
    if largest > limit:
        return f"a part of about 10^{largest:.3g} beyond max_exponent!={config.max_exponent}!"
    size = size_of(answer)
    if size is not None and size.sign != 0 and size.hi < -limit:  # (0 is exact and small)
        return f"value of about 10^{size.hi:.3g} beyond max_exponent!={config.max_exponent}!"
    return None


def _bracket_depth(s: str) -> int:
    depth = deepest = 0
    for ch in s:
        if ch in _OPEN:
            depth += 1
            deepest = max(deepest, depth)
        elif ch in _CLOSE:
            depth = max(depth - 1, 0)
    return deepest


def _powers(s: str) -> tuple[int, float]:
    """(deepest tower of `^`, largest log10 of a literal exponent) in one pass.

    Each `^` opens an exponent: a braced group `{...}` or one token. A stack holds, per open
    group, whether it is an exponent, so the tower depth is the count of exponent groups open."""
    stack: list[tuple[bool, int]] = []  # (is_exponent, start index of the group's content)
    exponent_pending = False
    open_exponents = deepest = 0
    biggest = 0.0
    i = 0
    n = len(s)
    while i < n:
        ch = s[i]
        if ch == "^":
            exponent_pending = True
            i += 1
            while i < n and s[i] == " ":
                i += 1
            if i < n and s[i] != "{":
                # one-token exponent: a digit run or one symbol
                j = i + 1
                if s[i].isdigit():
                    while j < n and s[j].isdigit():
                        j += 1
                    biggest = max(biggest, _log10_literal(s[i:j]))
                deepest = max(deepest, open_exponents + 1)
                exponent_pending = False
                i = j
            continue
        if ch == "{":
            stack.append((exponent_pending, i + 1))
            if exponent_pending:
                open_exponents += 1
                deepest = max(deepest, open_exponents)
            exponent_pending = False
        elif ch == "}" and stack:
            is_exponent, start = stack.pop()
            if is_exponent:
                open_exponents -= 1
                biggest = max(biggest, _log10_literal(s[start:i]))
        i += 1
    return deepest, biggest


def _log10_literal(exponent: str) -> float:
    """log10 of an exponent that is an integer literal or `a^{b}` of literals; 0 otherwise."""
    text = exponent.strip()
    if text.isdigit():
        text = text.lstrip("0")
        if not text:
            return 0.0  # `x^{0}`: log10 of 0 is no number (math.log10 raises), and 0 is small
        return len(text) - 1 + math.log10(int(text[:15]) / 10 ** (min(len(text), 15) - 1))
    power = _LITERAL_POWER.match(text)
    if power:
        base, exp = power.group(1), power.group(2)
        if len(exp) > 12:
            return float("inf")
        return int(exp) * math.log10(max(int(base[:15]), 1)) + max(len(base) - 15, 0)
    return 0.0
