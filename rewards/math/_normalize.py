"""Answer strings made comparable: `normalize` (spacing, aliases, units), numbers as exact
fractions (`parse_number`), choice letters, prose, and "x < a or x > b" read as a union.
The decisions on a pair of them are in `_fast`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from rewards.math._evaluate import evaluate

__all__ = [
    "Number", "choice_letter", "disjunction_as_union", "inequality_as_interval", "is_choice",
    "is_prose", "normalize", "parse_number",
]

# `\\\\` (a LaTeX row break) is matched first so its second backslash is never read as `\\ `.
_SPACING = re.compile(r"\\\\|\\[!,;:> ]|\\q?quad|~|\\left(?![a-z])|\\right(?![a-z])"
                      r"|\\displaystyle")
_FRAC_ALIASES = re.compile(r"\\[dt]frac")
_DEGREES = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|°|\\degree")
_TEXT_CMD = re.compile(r"\\(?:text|textbf|textrm|mathrm|mbox|mathbf|operatorname)\s*\{([^{}]*)\}")
# A unit at the end: `\text{ cm}`, `\mbox{m}^2` (the prefix before it is checked apart, so no
# pattern here backtracks over the answer: see `_strip_trailing_unit`).
_UNIT_AT_END = re.compile(r"\\(?:text|mbox|mathrm)\s*\{\s*[a-zA-Z][a-zA-Z .\-/^0-9]*\}"
                          r"(?:\^\{?\d\}?)?$")
_PLAIN_UNIT = re.compile(r"^(-?[\d.,/]+)\s+([a-zA-Z][a-zA-Z\- ]*)$")
_THOUSANDS = re.compile(r"^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_DECIMAL = re.compile(r"^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$")
_SLASH = re.compile(r"^([-+]?\d+)\s*/\s*([-+]?\d+)$")
_FRAC = re.compile(r"^([-+]?)\\frac\s*(?:\{\s*([-+]?\d+)\s*\}|(\d))"
                   r"\s*(?:\{\s*([-+]?\d+)\s*\}|(\d))$")
_WORDS = re.compile(r"^[A-Za-z][A-Za-z '\-]*$")
# Words that are mathematics, not prose: sympy must see them (`pi` vs `\pi`, `i`, `e` ...).
_MATH_WORDS = frozenset({"pi", "e", "i", "infty", "infinity", "inf", "sqrt", "sin", "cos",
                         "tan", "log", "ln", "exp", "and", "or", "x", "y", "z", "n", "k"})
_NOT_UNITS = _MATH_WORDS | {"a", "b", "c", "d"}
_PUNCT = " \t\n.;,"  # not "!": 5! is a factorial


def normalize(answer: str) -> str:
    """Canonical string form: spacing macros, `\\left`/`\\right`, `$`, degrees, dollar signs,
    `\\dfrac`/`\\tfrac`, trailing unit text and trailing punctuation removed."""
    s = answer.strip().strip("$").strip()
    if s.startswith("\\(") and s.endswith("\\)") or s.startswith("\\[") and s.endswith("\\]"):
        s = s[2:-2].strip()
    s = _SPACING.sub(lambda m: m.group(0) if m.group(0) == "\\\\" else " ", s)
    s = _FRAC_ALIASES.sub(r"\\frac", s)
    s = _DEGREES.sub("", s)
    s = s.replace("\\$", "").replace("\\%", "%").replace("{,}", ",")
    s = _strip_trailing_unit(s)
    s = _TEXT_CMD.sub(r"\1", s)
    s = re.sub(r"\s+", " ", s).strip().rstrip(_PUNCT)  # rstrip: keep the point of .5
    plain_unit = _PLAIN_UNIT.match(s)
    if plain_unit and plain_unit.group(2).split()[0].lower() not in _NOT_UNITS:
        s = plain_unit.group(1).rstrip(_PUNCT)
    return s


@dataclass(frozen=True)
class Number:
    """A number read from an answer string."""

    value: Fraction
    decimal: bool  # written with a decimal point, i.e. possibly rounded
    percent: bool  # written with a percent sign
    half_unit: Fraction = Fraction(0)  # half of the last printed digit of a decimal (as a value)


def parse_number(s: str) -> Number | None:
    """Integers, decimals, thousands separators, `a/b`, `\\frac{a}{b}`, percent; else `None`."""
    s = s.strip()
    while _wrapped(s) and "," not in s:
        s = s[1:-1].strip()  # (((2))) is 2; (1)(2) is not wrapped
    percent = s.endswith("%")
    if percent:
        s = s[:-1].strip()
    if re.search(r",\s", s):
        return None  # "1, 100" is a list of two numbers, not 1100
    s = s.replace(" ", "")
    if _THOUSANDS.match(s):
        s = s.replace(",", "")
    if len(s) > 400:  # int() refuses more than 4300 digits; long numbers go to sympy limits
        return None
    if _DECIMAL.match(s):
        digits = len(s.split(".", 1)[1]) if "." in s else 0
        half_unit = Fraction(1, 2 * 10 ** digits) / (100 if percent else 1)
        return Number(Fraction(s), "." in s, percent, half_unit)
    slash = _SLASH.match(s) or _FRAC.match(s)
    if slash is None:
        return None
    if slash.re is _SLASH:
        num, den = slash.group(1), slash.group(2)
    else:
        num = slash.group(1) + (slash.group(2) or slash.group(3))
        den = slash.group(4) or slash.group(5)
    if int(den) == 0:
        return None
    return Number(Fraction(int(num), int(den)), False, percent)


def _wrapped(s: str) -> bool:
    """True when the first `(` of `s` closes at its last character."""
    if not (s.startswith("(") and s.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(s):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i == len(s) - 1
    return False


def _strip_trailing_unit(s: str) -> str:
    """`12 \\text{ cm}` -> `12`: a unit text at the end after a number (linear: the unit is
    matched at the end only, the prefix checked by plain string tests)."""
    if not s.endswith("}") and not s[-1:].isdigit():
        return s
    start = max(s.rfind("\\text"), s.rfind("\\mbox"), s.rfind("\\mathrm"))
    if start <= 0 or not _UNIT_AT_END.match(s, start):
        return s
    prefix = s[:start].rstrip()
    if not any(ch.isdigit() for ch in prefix) or prefix[-1:].isalpha() or prefix.endswith("\\"):
        return s
    return prefix


def is_choice(answer: str) -> bool:
    """True for a multiple-choice letter: `C`, `(C)`."""
    return choice_letter(answer) is not None


def choice_letter(gold: str) -> str | None:
    """The letter when the gold is a multiple-choice answer: `C` or `(C)`."""
    if re.fullmatch(r"[A-E]|\([A-Ea-e]\)", gold):
        return gold.strip("()").upper()
    return None


def is_prose(s: str) -> bool:
    words = s.lower().split()
    # Two-letter tokens are more often products of variables (`xy`) than words, except "no".
    return (bool(_WORDS.match(s)) and any(len(w) > 2 or w == "no" for w in words)
            and not any(w in _MATH_WORDS for w in words))


# --- "x < a or x > b" is the set (-inf, a) U (b, inf) -----------------------------------------

_OR = re.compile(r"\s(?:or|\\lor|\\vee)\s")
_RELATION = re.compile(r"(<=|>=|\\leq?|\\geq?|\\lt|\\gt|[<>≤≥])")
_LESS = {"<": "<", "\\lt": "<", "<=": "<=", "\\le": "<=", "\\leq": "<=", "≤": "<="}
_GREATER = {">": ">", "\\gt": ">", ">=": ">=", "\\ge": ">=", "\\geq": ">=", "≥": ">="}
_VARIABLE = re.compile(r"[a-zA-Z]")


def disjunction_as_union(answer: str) -> str | None:
    """`x < -6 or x > -2` (inequalities in one variable joined by "or") written as the union
    of intervals it means, `(-\\infty, -6) \\cup (-2, \\infty)`, or None. latex2sympy reads
    "or" and "and" alike (a set of relations), so the connective is read here, from the text."""
    if len(answer) > 400 or _OR.search(answer) is None or " and " in answer:
        return None
    intervals = []
    variables = set()
    for part in _OR.split(answer):
        interval = _interval(part.strip())
        if interval is None:
            return None
        variable, low, high = interval
        variables.add(variable)
        intervals.append((low, high))
    if len(variables) != 1 or len(intervals) < 2:
        return None
    intervals.sort(key=lambda bounds: bounds[0][0])
    return " \\cup ".join(_write(low, high) for low, high in intervals)


def inequality_as_interval(answer: str) -> str | None:
    """`0.5 \\le x < 4` (one inequality, or a chain, in one variable) written as the interval
    it means, `[0.5, 4)`, or None (read as `disjunction_as_union` reads each of its parts)."""
    if len(answer) > 400 or _OR.search(answer) is not None or " and " in answer:
        return None
    interval = _interval(answer.strip())
    return None if interval is None else _write(interval[1], interval[2])


Bound = tuple[float, str, bool]  # (value for sorting, text, closed)


def _interval(part: str) -> tuple[str, Bound, Bound] | None:
    """(variable, low, high) for `x < a`, `a \\le x`, `a < x \\le b`; None otherwise."""
    pieces = _RELATION.split(part)
    if len(pieces) not in (3, 5):
        return None
    terms = [p.strip() for p in pieces[0::2]]
    ops = pieces[1::2]
    if len(terms) == 3:  # a < x < b
        if not (_is_variable(terms[1]) and all(op in _LESS for op in ops)):
            return None
        low, high = _bound(terms[0], _LESS[ops[0]]), _bound(terms[2], _LESS[ops[1]])
        return (terms[1], low, high) if low and high else None
    left, op, right = terms[0], ops[0], terms[1]
    if _is_variable(right):  # a < x is x > a
        left, right = right, left
        op = {**{k: ">" + v[1:] for k, v in _LESS.items()},
              **{k: "<" + v[1:] for k, v in _GREATER.items()}}[op]
    if not _is_variable(left):
        return None
    kind = _LESS.get(op) or _GREATER.get(op)
    bound = _bound(right, kind) if kind else None
    if bound is None:
        return None
    infinite_low, infinite_high = (float("-inf"), "-\\infty", False), (float("inf"), "\\infty", False)
    return (left, infinite_low, bound) if kind.startswith("<") else (left, bound, infinite_high)


def _is_variable(term: str) -> bool:
    return len(term) == 1 and _VARIABLE.fullmatch(term) is not None


def _bound(term: str, op: str) -> Bound | None:
    value = evaluate(term)
    if value is None or value[1]:
        return None  # not a constant
    return value[0], term, op.endswith("=")


def _write(low: Bound, high: Bound) -> str:
    return f"{'[' if low[2] else '('}{low[1]}, {high[1]}{']' if high[2] else ')'}"
