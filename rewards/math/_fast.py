"""The cheap path, run in the caller's process: decide the easy pairs of normalized answers
(same string, numbers, multiple-choice letters, plain words, numeric sequences, exact algebra)
without sympy, or say that sympy must decide (`None`)."""

from __future__ import annotations

import re
from fractions import Fraction

from rewards.math._config import MathConfig, Verdict
from rewards.math._evaluate import evaluate, evaluate_exact
from rewards.math._judge import judgeable
from rewards.math._normalize import (
    _VALUE_WORDS,
    APPROXIMATIONS,
    UNCERTAIN,
    Number,
    changes_value,
    choice_letter,
    is_prose,
    parse_number,
    qualifiers,
    unread_gold_word,
)

__all__ = ["fast_compare"]

# A choice letter: `B`, `(B)`, `B.`, `B) 42`, `(b)`; not the article of "A number greater".
_CHOICE = re.compile(r"^(?:\(([A-Ea-e])\)|([A-E])(?:$|[.:)]))")
_FIRST_WORD = re.compile(r"[^\W\d_]+")
def fast_compare(pred: str, gold: str, config: MathConfig, *, question: str | None = None
                 ) -> Verdict | None:
    """Decide a pair of normalized answers cheaply, or `None` when sympy must decide.
    `question`, the prompt, names what a gold's words after its number may count
    (`unread_gold_word`)."""
    if pred == gold or pred.replace(" ", "") == gold.replace(" ", ""):
        return Verdict("ok", "exact")
    if len(pred) > config.max_answer_chars or len(gold) > config.max_answer_chars:
        return None  # too long to parse here; the structural limits decide
    clock = _clock_verdict(pred, gold)
    if clock is not None:
        return clock
    choice = choice_letter(gold)
    if choice:
        letter = _CHOICE.match(pred)
        same = letter is not None and (letter.group(1) or letter.group(2)).upper() == choice
        if same:  # what follows the letter is the option's text, unless it opens with a word
            # that changes or withdraws the answer (`(B). Or 123457`, `(B). Not`: a hedge)
            assert letter is not None
            first = _FIRST_WORD.search(pred[letter.end():])
            same = first is None or first.group().lower() not in _VALUE_WORDS
        return Verdict("ok" if same else "wrong", "choice")
    ordering = _ordering_verdict(pred, gold) or _names_verdict(pred, gold)
    if ordering is not None:
        return ordering
    product = _product_verdict(pred, gold)
    if product is not None:
        return product
    pred_words, gold_words = qualifiers(pred), qualifiers(gold)
    # the gold's own value words count too (`10\\text{ or more}`, `5\\text{万}` for 10, 5), and
    # its words after its number unless known to name what it counts (`17 balloons` for 17)
    extra = pred_words - gold_words | {word for word in gold_words - pred_words
                                       if word not in APPROXIMATIONS and (
                                           changes_value(word.replace(".", ""))
                                           or not word.replace(".", "").isalpha()
                                           or unread_gold_word(word, gold, question))}
    if extra and not is_prose(gold) and not is_prose(pred):
        # `10 or more`, `3 halves`, `\neg 5` for 10, 3, 5: words the unit allow-list kept,
        # which the gold does not carry; wrong by default, the judge's where one is configured
        return Verdict("wrong", f"{UNCERTAIN} not read as a unit, not in the gold: "
                                f"{', '.join(sorted(extra))}")
    gold_number = parse_number(gold)
    if gold_number is not None:
        pred_number = parse_number(pred)
        if pred_number is not None:
            same = _numbers_equal(pred_number, gold_number, config.float_rel_tol)
            return Verdict("ok" if same else "wrong", "numeric")
    assignment = _assignment_verdict(pred, gold, config)
    if assignment is not None:
        return assignment
    sequences = _sequence_verdict(pred, gold, config)
    if sequences is not None:
        return sequences
    if is_prose(gold):
        if is_prose(pred) or pred.strip() == "":
            same = pred.lower().split() == gold.lower().split()
            return Verdict("ok" if same else "wrong", "text")
        return None
    if gold_number is not None and is_prose(pred):
        # words against a number: number and unit words the judge may read (`\text{seven}`,
        # `three halves`: `judgeable`) are undecided, the judge's where one is configured;
        # any other prose is wrong (no judge is ever shown it)
        shown = judgeable(pred, gold=gold)
        return Verdict("wrong", f"{UNCERTAIN} words not read as a number" if shown else "text")
    pred_number = parse_number(pred)
    return (_decimal_verdict(pred_number, gold, config) or _exact_verdict(pred, gold)
            or _value_verdict(pred, gold, config))


_RELATION = re.compile(r"(>=|<=|\\geq?\b|\\leq?\b|\\gt\b|\\lt\b|>|<|≥|≤)")
_ORDERED_TERM = re.compile(r"[A-Za-z](?:_\{?\w{1,3}\}?)?'?|-?\d+(?:\.\d+)?")
_DOWNWARD = {">": ">", ">=": ">=", "\\geq": ">=", "\\ge": ">=", "\\gt": ">", "≥": ">="}
_UPWARD = {"<": ">", "<=": ">=", "\\leq": ">=", "\\le": ">=", "\\lt": ">", "≤": ">="}


def _ordering(text: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """An ordering of three or more names or numbers (`b > a > c`, `c < a \\le b`) as its
    terms from largest to smallest and the relations between them; None for anything else."""
    pieces = _RELATION.split(text.strip())
    terms, relations = pieces[0::2], pieces[1::2]
    if len(terms) < 3 or not all(_ORDERED_TERM.fullmatch(term.strip()) for term in terms):
        return None
    terms = [term.strip().replace("{", "").replace("}", "") for term in terms]
    if all(r in _DOWNWARD for r in relations):
        return tuple(terms), tuple(_DOWNWARD[r] for r in relations)
    if all(r in _UPWARD for r in relations):
        return tuple(reversed(terms)), tuple(_UPWARD[r] for r in reversed(relations))
    return None


def _ordering_verdict(pred: str, gold: str) -> Verdict | None:
    """A gold that orders names (`b > a > c`, which math-verify does not read): the same
    order, written either way, is equal; another order of the same names is wrong."""
    gold_order = _ordering(gold)
    if gold_order is None:
        return None
    pred_order = _ordering(pred)
    if pred_order is None:
        return None
    return Verdict("ok" if pred_order == gold_order else "wrong", "ordering")


_NAME = re.compile(r"[A-Za-z](?:_\{?\w{1,3}\}?)?'?")


def _names(text: str) -> frozenset[str] | None:
    """The names of a list of two or more (`E_{1},E_{2}`, `A, C`) without subscript braces;
    None for anything else."""
    parts = [part.strip().replace("{", "").replace("}", "") for part in text.split(",")]
    if len(parts) < 2 or not all(_NAME.fullmatch(part) for part in parts):
        return None
    return frozenset(parts) if len(set(parts)) == len(parts) else None


def _names_verdict(pred: str, gold: str) -> Verdict | None:
    """A gold listing names (`E_{1},E_{2}`, which math-verify does not read as a set): the
    same names in any order are equal, other names are wrong."""
    gold_names = _names(gold)
    pred_names = _names(pred) if gold_names is not None else None
    if pred_names is None:
        return None
    return Verdict("ok" if pred_names == gold_names else "wrong", "names")


_CLOCK = re.compile(r"(\d{1,2}):(\d{2})(?:\s?([aApP])\.?\s?[mM]\.?)?")


def _clock_verdict(pred: str, gold: str) -> Verdict | None:
    """Times of day when at least one side says a.m. or p.m. (`4:30 p.m.`, `4:30pm`, `16:30`;
    without either, `1:20` may be a ratio): equal when they name the same minute of the day.
    A side without a.m./p.m. and an hour of 1 to 12 names one of two times: the same hour and
    minute as the other side is left undecided (the question may say which half), another
    is wrong."""
    g, p = _CLOCK.fullmatch(gold), _CLOCK.fullmatch(pred)
    if g is None or p is None or (g.group(3) is None and p.group(3) is None):
        return None
    g_time, p_time = _minute_of_day(g), _minute_of_day(p)
    if g_time is None or p_time is None:
        return None  # `4:75 p.m.`, `13:30 p.m.`: not a time read here
    (g_minute, g_sure), (p_minute, p_sure) = g_time, p_time
    if g_sure and p_sure:
        return Verdict("ok" if g_minute == p_minute else "wrong", "time of day")
    if g_minute % 720 == p_minute % 720:
        return None
    return Verdict("wrong", "time of day")


def _minute_of_day(m: re.Match[str]) -> tuple[int, bool] | None:
    """(minute of the day, whether that is certain) of a `_CLOCK` match, or None."""
    hour, minute, half = int(m.group(1)), int(m.group(2)), m.group(3)
    if minute > 59 or hour > 23 or (half is not None and not 1 <= hour <= 12):
        return None
    if half is not None:
        return (hour % 12 + (12 if half in "pP" else 0)) * 60 + minute, True
    return hour * 60 + minute, hour == 0 or hour > 12


_LETTER_PRODUCT = re.compile(r"(?:[0-9]{1,12}[ ]?)?(?:[A-Za-z](?:\^(?:[0-9]|\{[0-9]{1,3}\}))?[ ]?){2,40}")
"""A product of single-letter symbols with a whole coefficient and whole powers (`2xyz`,
`3 a^2 b c`, no command): a polynomial, never a word's letters where neither side is prose."""
_BETWEEN_LETTERS = re.compile(r"(?<=[A-Za-z])(?=[A-Za-z])")


def _product_verdict(pred: str, gold: str) -> Verdict | None:
    """Two products of single-letter symbols (`_LETTER_PRODUCT`: `2zyx` against `2xyz`), neither
    of them prose (`is_prose`: `yes`, a word gold, is the text rule's), decided in exact algebra
    with each letter a symbol: equal or not with certainty, so a run of letters is never left
    to a judge (which may read `aye`, `okk` as a verdict)."""
    if not (_LETTER_PRODUCT.fullmatch(pred) and _LETTER_PRODUCT.fullmatch(gold)) \
            or is_prose(pred) or is_prose(gold):
        return None
    return _exact_verdict(_BETWEEN_LETTERS.sub(" ", pred), _BETWEEN_LETTERS.sub(" ", gold))


_POINTS = (None, {c: 0.5 + (ord(c) % 7) * 0.731 for c in "abcdfghjklmnpqrstuvwxyz"})


def _exact_verdict(pred: str, gold: str) -> Verdict | None:
    """Both answers in exact arithmetic (`_algebra`: rationals, `\\pi`, square roots,
    polynomials): equal forms are a proof of equality, different ones of difference. Decimals
    are left to the tolerance rules, anything outside the exact form to sympy."""
    if "." in pred or "." in gold:
        return None
    g = evaluate_exact(gold)
    if g is None:
        return None
    p = evaluate_exact(pred)
    if p is None:
        return None
    return Verdict("ok" if p == g else "wrong", "exact algebra")


def _decimal_verdict(pred: Number | None, gold: str, config: MathConfig) -> Verdict | None:
    """A decimal answer against a constant written otherwise (`1.7321` for `\\sqrt{3}`):
    `_numbers_equal`'s rule, on the gold's float value. A value within a relative 1e-9 of
    either bound of the rule is left to sympy (float error cannot decide it)."""
    if pred is None or not pred.decimal or pred.percent:
        return None
    found = evaluate(gold)
    if found is None or found[1]:
        return None
    if abs(pred.value) >= 10 ** 250:
        return None  # beyond a float (`2.5 \times 10^{399}`): the magnitude bounds decide
    gold_value, p = found[0], float(pred.value)
    scale = max(abs(gold_value), abs(p))
    if not 1e-250 < scale < 1e250:
        return None
    diff = abs(gold_value - p)
    bounds = (float(pred.half_unit), config.float_rel_tol * scale)
    if any(abs(diff - bound) <= 1e-9 * scale for bound in bounds):
        return None
    return Verdict("ok" if diff <= min(bounds) else "wrong", "decimal")


def _value_verdict(pred: str, gold: str, config: MathConfig) -> Verdict | None:
    """Everyday expressions evaluated as floats (`_evaluate`): values that differ beyond the
    tolerance at a test point prove a wrong answer. Floats never prove two answers equal
    (`2^{100}` and `2^{100}-1` agree to 30 digits): equality is sympy's to decide."""
    inexact = "." in pred or "." in gold
    for point in _POINTS:
        g, p = evaluate(gold, point), evaluate(pred, point)
        if g is None or p is None:
            return None
        (g_value, g_vars), (p_value, p_vars) = g, p
        scale = max(abs(g_value), abs(p_value))
        if not 1e-250 < scale < 1e250:
            return None  # underflow or overflow: floats cannot tell
        diff = abs(g_value - p_value) / scale
        if diff > (config.float_rel_tol * 1.000000001 if inexact else 1e-9):
            return Verdict("wrong", "value")
        if not (g_vars or p_vars):
            return None
    return None


def _numbers_equal(pred: Number, gold: Number, rel_tol: float) -> bool:
    """Equal values. A percent means the value / 100 (`25\\%` is `0.25`); between two whole
    values the sign may also be dropped (`25\\%` against `25`, as math-verify allows; `50.0\\%`
    against `50`, as a program prints it), not between fractional ones (`0.5\\%` is not
    `0.5`). Exact numbers compare exactly; a decimal is
    accepted within `rel_tol` and never beyond the rounding of the printed digits (the
    gold's when the gold is a decimal, else the answer's), so `1000000007.0` is not
    `1000000009` and `12345.7` is not `12345.67`."""
    p_value = pred.value / 100 if pred.percent else pred.value
    g_value = gold.value / 100 if gold.percent else gold.value
    if p_value == g_value:
        return True
    if pred.percent != gold.percent and pred.value == gold.value and pred.value.denominator == 1:
        return True
    if not (pred.decimal or gold.decimal):
        return False  # two exact numbers: exactly equal or not at all
    # A decimal gold states its precision: an answer must match it to the gold's printed
    # digits (`12345.7` is not `12345.67`); against an exact gold, to the answer's own.
    rounding = gold.half_unit if gold.decimal else pred.half_unit
    diff = abs(p_value - g_value)
    # (1 + 1e-9): `rel_tol` is a float, so 0.333333 vs 1/3 at 1e-6 must not fail on rounding.
    return (diff <= rounding and
            diff <= Fraction(rel_tol) * Fraction(1 + 1e-9) * max(abs(p_value), abs(g_value)))


_MATRIX = re.compile(r"^\\begin\{([pb]matrix)\}(.*)\\end\{\1\}$", re.DOTALL)
_BRACKETED = re.compile(r"^([(\[])([^()\[\]{}]*)([)\]])$")
_SET = re.compile(r"^\\\{([^{}]*)\\\}$")
# Numbers joined by commas: `14,16`, `-5,0`, `2500, 7500` (a list, as golds write pairs),
# unless the commas are thousands separators (`1,234`: `parse_number` reads that one).
# (Possessive runs that start only where a run starts: linear under `search` too.)
_BARE_LIST = re.compile(r"(?<![-+\d./ ,])[-+\d./ ]++(?:,[-+\d./ ]++)+")


def _numbers(items: list[str]) -> list[Number] | None:
    numbers = [n for n in map(parse_number, items) if n is not None]
    return numbers if len(numbers) == len(items) else None


def _sequence(s: str) -> tuple[str, tuple[str, ...], list[Number]] | None:
    """Numbers in a matrix, a set `\\{..\\}`, a bracketed tuple or interval, or a bare list:
    (kind, shape, numbers); `None` when anything in it is not a plain number."""
    matrix = _MATRIX.match(s)
    if matrix:
        rows = [row.split("&") for row in matrix.group(2).split("\\\\")]
        numbers = _numbers([entry for row in rows for entry in row])
        shape = tuple(str(len(row)) for row in rows)
        return ("matrix", shape, numbers) if numbers else None
    found = _SET.match(s)
    if found:
        numbers = _numbers(found.group(1).split(","))
        return ("set", (), numbers) if numbers else None
    found = _BRACKETED.match(s)
    if found and "," in found.group(2):
        numbers = _numbers(found.group(2).split(","))
        return ("bracket", (found.group(1), found.group(3)), numbers) if numbers else None
    if "," in s and _BARE_LIST.fullmatch(s) and parse_number(s) is None:
        numbers = _numbers(s.split(","))
        return ("set", (), numbers) if numbers else None  # math-verify reads "2, 3" as a set
    return None


def _sequence_verdict(pred: str, gold: str, config: MathConfig) -> Verdict | None:
    """Matrices, tuples, intervals and sets of plain numbers, compared entry by entry."""
    gold_seq = _sequence(gold)
    if gold_seq is None:
        return None
    pred_seq = _sequence(pred)
    if pred_seq is None:
        single = parse_number(pred)
        if single is None or gold_seq[0] != "set":
            return None
        pred_seq = ("set", (), [single])  # "3" against "3, 4"
    (gold_kind, gold_shape, gold_nums), (pred_kind, pred_shape, pred_nums) = gold_seq, pred_seq
    tol = config.float_rel_tol
    if gold_kind != pred_kind:
        return None  # a tuple against a set or an interval: sympy decides
    if gold_kind == "set":
        same = (all(any(_numbers_equal(p, g, tol) for g in gold_nums) for p in pred_nums)
                and all(any(_numbers_equal(p, g, tol) for p in pred_nums) for g in gold_nums))
        return Verdict("ok" if same else "wrong", "numeric set")
    same_values = len(gold_nums) == len(pred_nums) and all(
        _numbers_equal(p, g, tol) for p, g in zip(pred_nums, gold_nums))
    if gold_shape == pred_shape:
        return Verdict("ok" if same_values else "wrong", f"numeric {gold_kind}")
    plain = {("(", ")"), ("[", "]")}
    if gold_kind == "bracket" and same_values and {gold_shape, pred_shape} <= plain:
        return None  # (1, 2) against [1, 2]: a point or an interval? sympy decides
    return Verdict("wrong", f"numeric {gold_kind}")


_ASSIGNMENT = re.compile(r"^([a-zA-Z])\s*=\s*([^=<>]+)$")


def _assignment_verdict(pred: str, gold: str, config: MathConfig) -> Verdict | None:
    """`x = 5` against `5`, `k = 7` against `k = 8`, `n = 2,3,4` against `n = 1,2,3`: compare
    the right-hand sides (math-verify's rule for assignments); a proof of equality between
    expressions with variables is still left to sympy."""
    gold_match, pred_match = _ASSIGNMENT.match(gold), _ASSIGNMENT.match(pred)
    if gold_match is None and pred_match is None:
        worked = _worked_equation(pred) if "=" not in gold else None
        if worked is None:
            return None
        verdict = fast_compare(worked, gold, config)  # "45 + 26 = 71": its result, 71
        return None if verdict is None else Verdict(verdict.reason, f"result, {verdict.detail}")
    if gold_match and pred_match and gold_match.group(1) != pred_match.group(1):
        return None  # x = 5 against y = 5: sympy decides
    if (gold_match is None and "=" in gold) or (pred_match is None and "=" in pred):
        return None  # one side is a general equation
    gold_rhs = gold_match.group(2).strip() if gold_match else gold
    pred_rhs = pred_match.group(2).strip() if pred_match else pred
    verdict = fast_compare(pred_rhs, gold_rhs, config)
    if verdict is None:
        return None
    return Verdict(verdict.reason, f"assignment, {verdict.detail}")


def _worked_equation(pred: str) -> str | None:
    """The last side of `45 + 26 = 71` (a chain of constants that are all equal), which is what
    math-verify compares with the gold; None for anything else (a false equation `3 = 71`, a
    side with a variable)."""
    if "<" in pred or ">" in pred or len(pred) > 200:
        return None
    sides = [side.strip() for side in pred.split("=")]
    if len(sides) < 2 or not all(sides):
        return None
    evaluated = [evaluate(side) for side in sides]
    values = [v[0] for v in evaluated if v is not None and not v[1]]
    if len(values) < len(evaluated):
        return None
    first = values[0]
    if any(abs(v - first) > 1e-12 * max(abs(first), 1.0) for v in values):
        return None
    return sides[-1]
