"""The slow path, run only inside worker processes: math-verify `parse` + `verify` (its own
signal-based timeouts disabled; the pool's kill is the bound) and sympy, with vetoes for
math-verify's known false positives."""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["symbolic_compare", "warm_up"]

# math-verify warns once that its timeouts are off; that is on purpose here.
logging.getLogger("math_verify").setLevel(logging.ERROR)


def warm_up() -> None:
    """Import sympy and math-verify and build the LaTeX parser, so that a worker's first real
    comparison does not spend its time budget on start-up."""
    symbolic_compare("\\frac{1}{2}+x^2", "x^{2}+0.5", 1e-6)
    symbolic_compare("\\{1,2\\}", "[1,2)", 1e-6)


def symbolic_compare(pred: str, gold: str, rel_tol: float) -> tuple[str, str]:
    """(reason, detail) for normalized answers `pred` and `gold`: reason is ok, wrong or
    bad_reference. Runs sympy without any time bound: call it in a killable process."""
    gold_parsed = _parse(gold)
    if not gold_parsed:
        return "bad_reference", "gold does not parse"
    pred_parsed = _parse(pred)
    if not pred_parsed:
        return "wrong", "answer does not parse"
    from math_verify import verify

    # allow_set_relation_comp: `x >= 2` answers the gold `[2, \infty)` and vice versa.
    if not verify(gold_parsed, pred_parsed, timeout_seconds=None, allow_set_relation_comp=True):
        return "wrong", "symbolic"
    try:
        veto = _false_positive(gold_parsed[0], pred_parsed[0], rel_tol)
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        veto = None  # the veto could not be computed: math-verify's verdict stands
    if veto:
        return "wrong", veto
    return "ok", "symbolic"


def _parse(answer: str) -> list[Any]:
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

    found = parse(f"${answer}$", extraction_config=[LatexExtractionConfig(),
                                                   ExprExtractionConfig()],
                  fallback_mode="no_fallback", parsing_timeout=None)
    return [item for item in found if not isinstance(item, str)]


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

    inexact = gold.has(sympy.Float) or pred.has(sympy.Float)
    g, p = gold.evalf(60), pred.evalf(60)
    if not (g.is_finite and p.is_finite and g.is_real and p.is_real):
        return None  # infinities, complex values: math-verify's comparison stands
    scale = max(abs(g), abs(p))
    if scale == 0:
        return None
    tol = rel_tol * 1.000000001 if inexact else sympy.Float("1e-40")
    if abs(g - p) > tol * scale:
        return "numbers differ beyond relative tolerance (math-verify rounds to 6 decimals)"
    return None


def _equations_differ(gold: Any, pred: Any) -> str | None:
    """Two equations over symbols are the same only if lhs - rhs are proportional."""
    import sympy

    g = gold.lhs - gold.rhs
    p = pred.lhs - pred.rhs
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
