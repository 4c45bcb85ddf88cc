"""The slow path, run only inside worker processes: math-verify `parse` + `verify` (its own
signal-based timeouts disabled; the pool's kill is the bound) and sympy, with vetoes for
math-verify's known false positives."""

from __future__ import annotations

import logging
import math
import re
from typing import Any

from rewards.cache import byte_cache

__all__ = ["symbolic_compare", "warm_up"]

# math-verify warns once that its timeouts are off; that is on purpose here.
logging.getLogger("math_verify").setLevel(logging.ERROR)


def warm_up() -> None:
    """Import sympy and math-verify and build the LaTeX parser, so that a worker's first real
    comparison does not spend its time budget on start-up."""
    # One pair per kind of sympy work (simplify, solve, relations, sets, matrices, complex):
    # their first use in a process imports and caches a lot.
    for pred, gold in [("\\frac{1}{2}+x^2", "x^{2}+0.5"), ("\\{1,2\\}", "[1,2)"),
                       ("(x+1)^2", "x^2+2x+1"), ("2x-y+1=0", "y=2x+1"),
                       ("x \\le 2", "(-\\infty, 2]"), ("\\{1,x\\}", "\\{x,1\\}"),
                       ("\\sin^2 x+\\cos^2 x", "1"), ("\\frac{1}{2006!}", "\\frac{1}{2004!}"),
                       ("\\begin{pmatrix}1\\\\x\\end{pmatrix}",
                        "\\begin{pmatrix}1\\\\x\\end{pmatrix}"),
                       ("1+2i", "2i+1"), ("x = 2 \\text{ or } x = 3", "2, 3"), ("3x", "x+2x"),
                       # The answer shapes sympy most often meets in math rollouts: the LaTeX
                       # parser (ANTLR) learns its predictions per shape, lazily, 20-60 ms
                       # a new shape; learnt here, once, every forked worker has them
                       # (measured 2026-12-06 on the server benchmark mix's 10 symbolic jobs,
                       # other values of these shapes: a fresh worker's CPU 277-288 ms without
                       # these, 144-154 ms with them; the zygote starts 0.3 s later). A cache
                       # of parser decisions: no verdict changes.
                       ("\\left[\\frac{1}{3}, \\frac{7}{3}\\right)", "[0.25, 1.5)"),
                       ("[\\frac{1}{3}, 2 )", "(0.25, 1.5]"), ("\\pm\\sqrt{5}", "\\pm\\sqrt{7}"),
                       ("-\\sqrt{7}, \\sqrt{7}", "\\pm\\sqrt{7}"), ("\\{8, 2, 5\\}", "(2, 5, 8)"),
                       ("\\{3, -1, 4, 0\\}", "\\{0, 3, 4, -1\\}"),
                       ("2 - \\frac{3}{y+1}", "\\frac{2y-1}{y+1}")]:
        symbolic_compare(f"${pred}$", f"${gold}$", 1e-6)
    for text, gold in [("So the answer is $\\{4, 2\\}$. I hope it is correct.", "(2, 4)"),
                       ("We are not done yet", "\\frac{5}{3}")]:  # a completion's text
        symbolic_compare(text, f"${gold}$", 1e-6, pred_raw=True)


def symbolic_compare(pred: str, gold: str, rel_tol: float, *,
                     pred_raw: bool = False) -> tuple[str, str]:
    """(reason, detail) for `pred` and `gold`, each text that math-verify parses (an answer
    wrapped in `$...$`, or a whole text): reason is ok, wrong, no_answer or bad_reference.
    `pred_raw`: `pred` is a completion's text, so finding nothing in it means no answer.
    Runs sympy without any time bound: call it in a killable process."""
    gold_parsed = _parse_gold(gold)
    if not gold_parsed:
        return "bad_reference", "gold does not parse (or only a part of it does)"
    pred_parsed = _parse(pred)
    if not pred_parsed:
        if pred_raw:
            return "no_answer", "no final answer found"
        return "wrong", "answer does not parse"
    from math_verify import verify

    gold_parsed, pred_parsed = _imaginary_unit(gold_parsed, pred_parsed)
    numeric = _numeric_verdict(gold_parsed, pred_parsed, rel_tol)
    if numeric is not None:
        return numeric
    # allow_set_relation_comp: `x >= 2` answers the gold `[2, \infty)` and vice versa.
    # float_rounding: decimals kept when math-verify rounds floats. Never coarser than its
    # default 6 places at our default tolerance (1e-4 is a relative bound, checked by the veto
    # below; 4 absolute places inside an expression would accept 0.00001x for 0.00002x); a
    # tolerance looser than 1e-4 asks for coarser rounding (1e-2 -> 2 places).
    places = round(-math.log10(rel_tol)) if rel_tol > 0 else 15
    rounding = max(1, places) if rel_tol > 1e-4 else max(6, places)
    if not verify(list(gold_parsed), list(pred_parsed), timeout_seconds=None,
                  float_rounding=rounding, allow_set_relation_comp=True):
        if _hyperbolic_equal(gold_parsed[0], pred_parsed[0]):
            return "ok", "symbolic (hyperbolic functions as exponentials)"
        return "wrong", "symbolic"
    try:
        veto = _false_positive(gold_parsed[0], pred_parsed[0], rel_tol)
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        veto = None  # the veto could not be computed: math-verify's verdict stands
    if veto:
        return "wrong", veto
    return "ok", "symbolic"


_STANDALONE_LETTER = re.compile(r"(?<![A-Za-z\\])([A-Za-z])(?![A-Za-z])")
_TRAILING_LETTER = re.compile(r"(\d)\s*([A-Za-z])(?=\s*(?:\$|\}|\\\)|\\\]|$))")


def _trailing_variables_kept(text: str) -> str:
    """math-verify drops a letter after the last number of an answer as a unit (`4+4h` is
    4+4, `x=4+4s` is x=4+4); where that letter is a variable elsewhere in the text
    (`C(h)=4+4h`), it is written `{h}`, which math-verify keeps. Only in one answer (`$...$`
    or a box), not in a completion's text."""
    if len(text) > 1_000 or not text.startswith(("$", "\\boxed")) or not _TRAILING_LETTER.search(
            text):
        return text  # a whole completion's text: math-verify reads it as it would
    counts: dict[str, int] = {}
    for letter in _STANDALONE_LETTER.findall(text):  # one pass
        counts[letter] = counts.get(letter, 0) + 1

    def keep(match: re.Match[str]) -> str:
        letter = match.group(2)
        return f"{match.group(1)}{{{letter}}}" if counts.get(letter, 0) > 1 else match.group(0)

    return _TRAILING_LETTER.sub(keep, text)


@byte_cache(64 << 20)
def _parse(text: str) -> tuple[Any, ...]:
    """Parsed sympy objects for one text; cached because the gold of a prompt comes back
    once per rollout (sympy objects are immutable, so sharing them is safe). The boxed answer
    comes first (math-verify's `boxed_match_priority=0`), as a model marks its final answer."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

    found = parse(_trailing_variables_kept(text),
                  extraction_config=[LatexExtractionConfig(boxed_match_priority=0),
                                     ExprExtractionConfig()],
                  fallback_mode="no_fallback", parsing_timeout=None)
    return tuple(item for item in found if not isinstance(item, str))


def _imaginary_unit(gold: tuple[Any, ...],
                    pred: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """A gold whose only symbol is `i` (`1+2i`, `-i`, `1 \\pm 2i` as a set, `z = 3-4i`) is
    complex, so `i` is the imaginary unit in it and in the answer: `i^2+2i+2` is `1+2i`,
    `(1+i)^2` is `2i`. math-verify reads `i` as a symbol, where `i^2` is not -1. A gold with
    another symbol (`a_i`, `x+i`) or none (`-1`) keeps `i` a symbol."""
    import sympy

    g = gold[0]
    if not isinstance(g, sympy.Basic):
        return gold, pred
    names = {s.name for s in g.free_symbols}
    if isinstance(g, sympy.Eq) and isinstance(g.lhs, sympy.Symbol) and g.lhs.name != "i":
        names.discard(g.lhs.name)  # `z = 3-4i`: the value is complex
    if names != {"i"}:
        return gold, pred

    def unit(item: Any) -> Any:
        """`i` the unit; other symbols complex too (math-verify makes them real, and a real
        `z` is never `3-4I`, so `z = 3-4I` and `z = 3+4I` would both be empty and equal)."""
        if not isinstance(item, sympy.Basic):
            return item
        if isinstance(item, sympy.Eq):
            return sympy.Eq(unit(item.lhs), unit(item.rhs), evaluate=False)
        return item.subs({s: sympy.I if s.name == "i" else sympy.Symbol(s.name)
                          for s in item.free_symbols})

    return tuple(map(unit, gold)), tuple(map(unit, pred))


@byte_cache(64 << 20)
def _parse_gold(text: str) -> tuple[Any, ...]:
    """The gold as one answer: its LaTeX, or else a number math-verify finds in it only where
    nothing else in the gold carries meaning (`\\approx 8.24`, `5,305,028,517 \\mathrm{~N}`).
    math-verify's number fallback takes a part: `x \\neq \\pm 5` is not 5, `4:30 p.m` not 4,
    `\\{x|-2\\leq x < 1\\}` not 1; such a gold abstains."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

    text = _trailing_variables_kept(text)
    latex = parse(text, extraction_config=[LatexExtractionConfig(boxed_match_priority=0)],
                  fallback_mode="no_fallback", parsing_timeout=None)
    if latex:
        return tuple(item for item in latex if not isinstance(item, str))
    found = parse(text, extraction_config=[ExprExtractionConfig()], fallback_mode="first_match",
                  parsing_timeout=None)  # first_match: with the text it read
    matched = [item for item in found if isinstance(item, str)]
    if not matched or not _only_annotation(text.replace(matched[0], " ", 1)):
        return ()
    return tuple(item for item in found if not isinstance(item, str))


_ANNOTATION_COMMANDS = ("\\approx", "\\sim", "\\mathrm", "\\text", "\\mbox", "\\,", "\\;",
                        "\\!", "\\quad", "\\boxed", "\\$")


def _only_annotation(rest: str) -> bool:
    """True when what is left of a gold beside its number is an annotation: `\\approx`, a unit
    in words or `\\mathrm{}`, spacing, delimiters. No digit, no other command, no relation."""
    for command in _ANNOTATION_COMMANDS:
        rest = rest.replace(command, " ")
    return not any(ch.isdigit() or ch in "\\=<>|^_&:" for ch in rest)


def _numeric_verdict(gold: tuple[Any, ...], pred: tuple[Any, ...],
                     rel_tol: float) -> tuple[str, str] | None:
    """Two real constants (`51` vs `9\\sqrt{6}`): compare their values at 60 digits instead of
    letting `verify` try symbolic simplification. `None` for anything else."""
    import sympy

    g, p = gold[0], pred[0]
    if len(gold) != 1 or len(pred) != 1:
        return None
    if not (isinstance(g, sympy.Expr) and isinstance(p, sympy.Expr)):
        return None
    if not (g.is_number and p.is_number) or g.has(sympy.Float) or p.has(sympy.Float):
        return None  # rounding conventions of decimals: math-verify decides
    try:
        same = _constants_equal(g, p)
    except (TypeError, ValueError, ArithmeticError):
        return None
    if same is None:
        return None
    return ("ok" if same else "wrong"), "numeric (exact or 200 digits)"


def _constants_equal(g: Any, p: Any) -> bool | None:
    """Two exact real constants: equal rationals exactly (`100!` is not `100!+1`), other values
    to 60 digits and, when they agree there, to 200 (`None`: not both finite reals)."""
    import sympy

    if g.has(sympy.UnevaluatedExpr) or p.has(sympy.UnevaluatedExpr):
        return None  # a percent (`25\\%` is 25 * 1/100 unevaluated): math-verify's convention
    g_exact, p_exact = g.doit(), p.doit()
    if g_exact.is_Rational and p_exact.is_Rational:
        return bool(g_exact == p_exact)
    for digits, tolerance in ((60, "1e-40"), (200, "1e-180")):
        gv, pv = g_exact.evalf(digits), p_exact.evalf(digits)
        if not (gv.is_real and pv.is_real and gv.is_finite and pv.is_finite):
            return None
        scale = max(abs(gv), abs(pv))
        if scale != 0 and abs(gv - pv) > sympy.Float(tolerance, digits) * scale:
            return False
    return True


def _hyperbolic_equal(gold: Any, pred: Any) -> bool:
    """`\\frac{1}{a}\\sinh(at)` is `\\frac{1}{2a}(e^{at}-e^{-at})`: math-verify's simplify
    does not rewrite hyperbolic functions, so where one side has them both are compared as
    exponentials (exactly: their difference simplifies to 0)."""
    import sympy

    hyperbolic = (sympy.sinh, sympy.cosh, sympy.tanh, sympy.coth, sympy.sech, sympy.csch)
    if not (isinstance(gold, sympy.Expr) and isinstance(pred, sympy.Expr)) or not (
            gold.has(*hyperbolic) or pred.has(*hyperbolic)):
        return False
    try:
        return sympy.simplify((gold - pred).rewrite(sympy.exp)) == 0
    except (TypeError, ValueError, ArithmeticError, RecursionError, AttributeError):
        return False


def _false_positive(gold: Any, pred: Any, rel_tol: float) -> str | None:
    """Why math-verify's `True` is wrong here, or `None`. math-verify rounds numbers to 6
    decimals (so 1/2004! == 1/2006!) and can match equations too loosely."""
    import sympy

    if isinstance(gold, sympy.Expr) and isinstance(pred, sympy.Expr):
        if gold.is_number and pred.is_number:
            return _numbers_differ(gold, pred, rel_tol)
        return None
    if isinstance(gold, sympy.Eq) and isinstance(pred, sympy.Eq):
        return _equations_differ(gold, pred)
    return None


def _numbers_differ(gold: Any, pred: Any, rel_tol: float) -> str | None:
    import sympy

    if not (gold.has(sympy.Float) or pred.has(sympy.Float)):
        same = _constants_equal(gold, pred)
        return "numbers differ (exactly, or beyond 200 digits)" if same is False else None
    g, p = gold.evalf(60), pred.evalf(60)
    if not (g.is_finite and p.is_finite and g.is_real and p.is_real):
        return None  # infinities, complex values: math-verify's comparison stands
    scale = max(abs(g), abs(p))
    if scale == 0:
        return None
    if abs(g - p) > rel_tol * 1.000000001 * scale:
        return "numbers differ beyond relative tolerance (math-verify rounds to 6 decimals)"
    return None


def _derivatives_as_unknowns(expression: Any) -> Any:
    """`\\frac{dM}{dt}` parses as the derivative of a symbol, which sympy evaluates to 0, so
    `dM/dt = kM` and `dM/dt = -kM` would both be `0 = ±kM`, the same equation: each
    derivative is an unknown of its own instead."""
    import sympy

    if not isinstance(expression, sympy.Basic) or not expression.has(sympy.Derivative):
        return expression
    return expression.subs({d: sympy.Symbol(f"_d{i}") for i, d in enumerate(
        sorted(expression.atoms(sympy.Derivative), key=str))})


def _equations_differ(gold: Any, pred: Any) -> str | None:
    """Two equations over symbols are the same only if lhs - rhs are proportional."""
    import sympy

    g = _derivatives_as_unknowns(gold.lhs - gold.rhs)
    p = _derivatives_as_unknowns(pred.lhs - pred.rhs)
    if not all(isinstance(e, sympy.Expr) for e in (g, p)) or not (g.free_symbols or p.free_symbols):
        return None
    if len(gold.free_symbols) <= 1 and len(pred.free_symbols) <= 1:
        return None  # x = 3 vs 3 = x vs 2x = 6: math-verify solves these itself
    if p == 0:
        return "degenerate equation"
    ratio = sympy.simplify(g / p)
    if ratio.free_symbols:
        return "equations are not proportional"
    return None
