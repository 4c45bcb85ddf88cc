"""Literal test cases: the (inputs, expected output) pairs a test suite states literally, read
from assert statements (`cases_from_asserts`) or built by the reference parsers. Hard-coding
detection compares a program's constants against them."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

__all__ = ["NO_VALUE", "LiteralCase", "cases_from_asserts", "dotted_name", "literal"]

NO_VALUE = object()
"""What `literal` returns for a node that is not a literal."""


@dataclass(frozen=True)
class LiteralCase:
    """One test with literal input and output: a call `f(*inputs) == output`, or a stdin run
    (`inputs == (stdin_text,)`, `output` the expected stdout text)."""

    inputs: tuple[Any, ...]
    """Literal call arguments, or the whole stdin text for a stdin case."""
    output: Any
    """Literal expected return value, or the expected stdout text."""
    stdin: bool = False
    """True for a stdin/stdout case."""


def cases_from_asserts(code: str, entry_point: str | None = None) -> list[LiteralCase]:
    """Literal (args, expected) pairs from assert statements: `assert f(1, 2) == 3`,
    `assert candidate("a") == "b"`, `assert f(x)`, `assert not f(x)`, `assert f(x) is True`,
    `assert math.isclose(f(x), y)`, `assert abs(f(x) - y) < 1e-6`. Asserts that are not of
    these shapes or hold non-literal values are skipped; unparsable code gives no cases."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    names = {entry_point, "candidate"} if entry_point else None
    cases = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            case = _case_from_test(node.test, names)
            if case is not None:
                cases.append(case)
    return cases


def _case_from_test(test: ast.expr, names: set[str] | None) -> LiteralCase | None:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        args = _call_args(test.operand, names)
        return None if args is None else LiteralCase(args, False)
    if isinstance(test, ast.Call) and dotted_name(test.func) in ("math.isclose", "isclose") \
            and len(test.args) >= 2:
        return _pair(test.args[0], test.args[1], names)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right, op = test.left, test.comparators[0], test.ops[0]
        if isinstance(op, (ast.Eq, ast.Is)):
            return _pair(left, right, names)
        if isinstance(op, ast.Lt) and isinstance(left, ast.Call) and dotted_name(left.func) == "abs" \
                and left.args and isinstance(left.args[0], ast.BinOp) \
                and isinstance(left.args[0].op, ast.Sub):
            return _pair(left.args[0].left, left.args[0].right, names)
        return None
    args = _call_args(test, names)
    return None if args is None else LiteralCase(args, True)


def _pair(a: ast.expr, b: ast.expr, names: set[str] | None) -> LiteralCase | None:
    for call, expected in ((a, b), (b, a)):
        args = _call_args(call, names)
        value = literal(expected)
        if args is not None and value is not NO_VALUE:
            return LiteralCase(args, value)
    return None


def _call_args(node: ast.expr, names: set[str] | None) -> tuple[Any, ...] | None:
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return None
    if names is not None and node.func.id not in names:
        return None
    values = [literal(a) for a in [*node.args, *(k.value for k in node.keywords)]]
    if any(v is NO_VALUE for v in values):
        return None
    return tuple(values)


def literal(node: ast.expr) -> Any:
    """The value of a literal node (`ast.literal_eval`), or NO_VALUE."""
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return NO_VALUE


def dotted_name(node: ast.expr) -> str:
    """`a.b.c` for a name or attribute chain, "" for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted_name(node.value)}.{node.attr}"
    return ""


# --- value comparison ----------------------------------------------------------------------
