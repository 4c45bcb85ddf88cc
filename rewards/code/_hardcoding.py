"""Hard-coded answer detection: AST analysis of a Python program against the tests' literals.

A program that passes its tests by remembering them rather than computing shows one of three
shapes, each found here against the literal (input, output) pairs of the tests:

- a lookup table: a dict (or a list of pairs) whose entries map test inputs to test outputs;
- a chain of special cases: `if x == <test input>: return/print <test output>` (also `elif`,
  `match`/`case` and `a if x == <input> else b`);
- printing or returning an expected output unconditionally, with no computation behind it.

A table or chain may also be keyed on any function of the input (`{3: 6}[len(xs)]`,
`if sum(xs) == 12`): then its values carry the evidence (distinctive expected outputs,
at least two of them, most of its entries).

Honest programs hold literal constants too (base cases, roman numeral tables, `print(-1)`), so
a match only counts as evidence when it is *distinctive*: its input and its output are not
trivial values (small numbers, booleans, empty or one-character values, single words), or the
pattern covers nearly all of the public tests. A table or chain must also be mostly made of
test cases (precision): a full roman-numeral table that happens to contain some test inputs is
a legitimate constant, a table of nothing but test cases is not.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rewards.code._cases import NO_VALUE, LiteralCase, dotted_name
from rewards.code._fold import MAX_STEPS, Folder

Fold = Callable[[ast.AST], Any]
"""`Folder(tree).fold`: the constant value of an expression, or NO_VALUE."""

__all__ = ["Hardcoding", "find_hardcoding"]

MIN_PRECISION = 0.6
"""A table or chain whose entries are less than this share of test cases is a constant table."""
MIN_COVERAGE = 0.8
"""Trivial-valued matches count when they cover at least this share of the public cases..."""
MIN_COVERED = 3
"""...and at least this many of them."""
MAX_CASES = 200
"""Public and hidden cases each considered (generated test suites can hold thousands)."""


@dataclass(frozen=True)
class Hardcoding:
    """Evidence that a program remembers test answers instead of computing them."""

    kind: str
    """lookup_table | special_cases | printed_output | returned_output | constant_budget
    (the program computes more from literals alone than the detector folds: what it hides
    there cannot be checked, so it is not given the benefit of the doubt)"""
    line: int
    """Line of the offending construct in the program."""
    matched: int
    """How many test cases the construct reproduces."""

    def describe(self) -> str:
        if self.kind == "constant_budget":
            return (f"{self.kind} at line {self.line}: constants computed from literals alone "
                    f"take over {MAX_STEPS:,} steps")
        return f"{self.kind} at line {self.line} reproduces {self.matched} test case(s)"


def _norm(value: Any) -> Any:
    """A hashable form under which equal literals meet: numbers by value (1 == 1.0),
    strings with whitespace runs collapsed, lists and tuples alike."""
    if value is None or isinstance(value, bool):
        return ("const", value)
    if isinstance(value, int):
        return ("num", value)  # exactly: an expected 2 ** 1100 is no float
    if isinstance(value, float):
        if not math.isfinite(value):
            return ("num", repr(value))
        if value.is_integer():
            return ("num", int(value))  # 1.0 meets 1
        return ("num", round(value, 9))
    if isinstance(value, str):
        return ("str", " ".join(value.split()))
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(_norm(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(_norm(v) for v in value))
    if isinstance(value, dict):
        return ("dict", frozenset((_norm(k), _norm(v)) for k, v in value.items()))
    return ("other", repr(value))


def _number(text: str) -> Any:
    """The number a token spells, or NO_VALUE (integers past Python's digit limit too)."""
    if len(text) > 4000:
        return NO_VALUE
    for parse in (int, float):
        try:
            return parse(text)
        except ValueError:
            pass
    return NO_VALUE


def _trivial(value: Any) -> bool:
    """Values an honest program writes as constants all the time."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, (int, float)):
        return abs(value) <= 2
    if isinstance(value, str):
        text = value.strip()
        number = _number(text)
        if number is not NO_VALUE:  # "7" is as telling as 7
            return _trivial(number)
        return len(text) <= 1 or (text.isalpha() and len(text) <= 12)
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        return len(value) == 0 or (len(value) == 1 and all(_trivial(v) for v in value))
    return False


MAX_TOKENS = 500
"""Tokens (and lines) of one stdin input considered as comparison targets; the whole text
is too, up to MAX_CHARS. Programs that special-case a test compare small inputs."""
MAX_CHARS = 20_000
"""Only this head of a long stdin input is split into lines and tokens."""


class _Targets:
    """What a program may compare a test's input against, and write as its output, in
    `_norm` form: each argument and the argument tuple; for stdin the whole text, each line
    and each token (as text and as a number); the output as text and as a number. The
    inputs are computed only for cases whose output the program holds as a literal."""

    def __init__(self, case: LiteralCase) -> None:
        self.case = case
        self._inputs: frozenset[Any] | None = None
        if not case.stdin:
            self.outputs = frozenset([_norm(case.output)])
            return
        expected = str(case.output)
        outputs = [expected] if expected.strip() else []
        number = _number(expected.strip())
        if number is not NO_VALUE:
            outputs.append(number)
        self.outputs = frozenset(map(_norm, outputs))

    @property
    def inputs(self) -> frozenset[Any]:
        if self._inputs is None:
            case = self.case
            if not case.stdin:
                atoms = [*case.inputs, case.inputs] if len(case.inputs) > 1 \
                    else list(case.inputs)
                atoms += [str(a) for a in case.inputs  # `if str(n) == "10"`
                          if isinstance(a, int) and not isinstance(a, bool)
                          and a.bit_length() < 1000]
            else:
                text = str(case.inputs[0])
                head = text[:MAX_CHARS]
                atoms = [text] if len(text) <= MAX_CHARS else []
                atoms += [ln for ln in head.splitlines() if ln.strip()][:MAX_TOKENS]
                for token in head.split()[:MAX_TOKENS]:
                    atoms.append(token)
                    number = _number(token)
                    if number is not NO_VALUE:
                        atoms.append(number)
            self._inputs = frozenset(map(_norm, atoms))
        return self._inputs

    def keys_match(self, keys: Sequence[Any]) -> bool:
        if len(keys) > 1 and _norm(keys) in self.inputs:
            return True  # a tuple key against one list or tuple argument
        return bool(keys) and all(_norm(k) in self.inputs for k in keys)


def _distinctive(keys: Sequence[Any], case: LiteralCase) -> bool:
    return not all(_trivial(k) for k in keys) and not _trivial(case.output)


# --- program patterns ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    keys: tuple[tuple[Any, ...], ...]
    """The alternatives that select the entry, each a conjunction of keys: `if n == 10`
    ((10,),); `if n in (10, 20)` or `if n == 10 or n == 20` ((10,), (20,));
    `if a == 1 and b == 2` ((1, 2),)."""
    value: Any
    line: int


def find_hardcoding(tree: ast.AST, public: Sequence[LiteralCase],
                    hidden: Sequence[LiteralCase] = ()) -> Hardcoding | None:
    """The first hard-coding pattern found in a parsed program, or None.

    `public` are the cases the model could see; `hidden` cases add evidence (a program that
    reproduces a hidden answer from a table remembered it) but do not count for coverage.
    Values are what the program's expressions compute from literals (`Folder`), so
    `{10: 50 + 5}`, `dict(zip(KEYS, VALUES))` and `if n in (10,)` are found as their plain
    forms are."""
    cases = [*public[:MAX_CASES], *hidden[:MAX_CASES]]
    if not cases:
        return None
    targets = [_Targets(c) for c in cases]
    nodes = list(ast.walk(tree))
    folder = Folder(tree, nodes)
    fold = folder.fold
    groups: list[tuple[str, list[_Entry]]] = []
    for node in nodes:
        table = _table_entries(node, fold)
        if table:
            groups.append(("lookup_table", table))
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            chain = list(_conditional_emits(node, fold))
            if chain:
                groups.append(("special_cases", chain))
    for kind, entries in groups:
        found = _judge_group(kind, entries, cases, targets, len(public))
        if found is not None:
            return found
    found = _unconditional_emit(tree, cases, targets, fold)
    if found is None and folder.exhausted is not None:  # junk first, then a hidden table
        return Hardcoding("constant_budget", getattr(folder.exhausted, "lineno", 1), 0)
    return found


def _judge_group(kind: str, entries: list[_Entry], cases: Sequence[LiteralCase],
                 targets: Sequence[_Targets], n_public: int) -> Hardcoding | None:
    """Evidence when the entries reproduce test cases: keyed on the test inputs themselves
    (`{10: 55}[n]`, `if n == 10`), or on any function of them (`{3: 6}[len(xs)]`,
    `if sum(xs) == 12`), which the keys alone cannot show: see `_keyed_on_anything`."""
    matched: set[int] = set()
    entries_hit = 0
    distinctive = False
    for entry in entries:
        hit = False
        value = _norm(entry.value)
        for i, (case, target) in enumerate(zip(cases, targets)):
            if value not in target.outputs:
                continue
            for keys in entry.keys:
                if target.keys_match(keys):
                    matched.add(i)
                    hit = True
                    distinctive = distinctive or _distinctive(keys, case)
        entries_hit += hit
    if matched and entries_hit / len(entries) >= MIN_PRECISION:
        covered_public = sum(1 for i in matched if i < n_public)
        broad = covered_public >= MIN_COVERED and covered_public >= MIN_COVERAGE * n_public
        if distinctive or broad:
            return Hardcoding(kind, entries[0].line, len(matched))
    return _keyed_on_anything(kind, entries, cases, targets)


def _keyed_on_anything(kind: str, entries: list[_Entry], cases: Sequence[LiteralCase],
                       targets: Sequence[_Targets]) -> Hardcoding | None:
    """A table or chain whose values are the tests' expected outputs, whatever it is keyed
    on: the key may be any function of the input (its length, its sum, a hash), which no
    list of functions covers, so the values carry the evidence. They must be distinctive
    (no small numbers, booleans or single words), at least two entries must reproduce a
    case, and most entries must (a constant table that holds one answer is not a lookup)."""
    matched: set[int] = set()
    entries_hit = 0
    for entry in entries:
        value = _norm(entry.value)
        hits = {i for i, (case, target) in enumerate(zip(cases, targets))
                if value in target.outputs and not _trivial(case.output)}
        matched |= hits
        entries_hit += bool(hits)
    if entries_hit >= 2 and entries_hit / len(entries) >= MIN_PRECISION:
        return Hardcoding(kind, entries[0].line, len(matched))
    return None


_TABLES = (ast.Dict, ast.DictComp, ast.Call, ast.List, ast.Tuple, ast.Set, ast.ListComp,
           ast.BinOp)
"""Nodes that build a table (a name bound to one is judged where the table is built)."""


def _table_entries(node: ast.AST, fold: Fold) -> list[_Entry]:
    """A dict's items, or a sequence of (key, value) pairs, whatever expression builds
    them (`{10: 50 + 5}`, `dict(zip(KEYS, VALUES))`, a comprehension over literals)."""
    if not isinstance(node, _TABLES):
        return []
    value = fold(node)
    if isinstance(value, dict):
        return [_Entry((_as_keys(k),), v, node.lineno) for k, v in value.items()]
    if isinstance(value, (list, tuple, set)) and len(value) >= 1 and \
            all(isinstance(item, (list, tuple)) and len(item) == 2 for item in value):
        return [_Entry((_as_keys(k),), v, node.lineno) for k, v in value]
    return []


def _as_keys(key: Any) -> tuple[Any, ...]:
    return tuple(key) if isinstance(key, tuple) else (key,)


def _conditional_emits(scope: ast.AST, fold: Fold) -> Iterable[_Entry]:
    """(compared values -> emitted value) for every special case in one function or the
    module body, not descending into nested functions (they are their own scope)."""
    for node in _walk_scope(scope):
        if isinstance(node, ast.If):
            keys = _condition_keys(node.test, fold)
            value = _first_emit(node.body, fold)
            if keys and value is not NO_VALUE:
                yield _Entry(keys, value, node.lineno)
        elif isinstance(node, ast.IfExp):
            keys, value = _condition_keys(node.test, fold), fold(node.body)
            if keys and value is not NO_VALUE:
                yield _Entry(keys, value, node.lineno)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                keys = _pattern_keys(case.pattern, fold)
                value = _first_emit(case.body, fold)
                if keys and case.guard is None and value is not NO_VALUE:
                    yield _Entry(keys, value, case.pattern.lineno)


def _pattern_keys(pattern: ast.pattern, fold: Fold) -> tuple[tuple[Any, ...], ...]:
    """`case 10:` and `case 10 | 20:`, as alternatives."""
    if isinstance(pattern, ast.MatchValue):
        key = fold(pattern.value)
        return () if key is NO_VALUE else ((key,),)
    if isinstance(pattern, ast.MatchOr):
        alternatives = [_pattern_keys(p, fold) for p in pattern.patterns]
        return () if not all(alternatives) else tuple(k for a in alternatives for k in a)
    return ()


def _walk_scope(scope: ast.AST) -> Iterable[ast.AST]:
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                 ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


MAX_ALTERNATIVES = 64
"""Most alternatives one condition is read as (`a in (...) and b in (...)` multiplies)."""


def _condition_keys(test: ast.expr, fold: Fold) -> tuple[tuple[Any, ...], ...]:
    """The values a condition compares something against, as alternatives of conjunctions:
    `x == 5`, `5 == x`, `x is 5`, `(a, b) == (1, 2)`, `s.strip() == "1 2"` give ((5,),) or
    ((1, 2),); `x in (5, 7)` and `x == 5 or x == 7` give ((5,), (7,)); `a == 1 and b == 2`
    gives ((1, 2),). Whatever computes the literal side (`x == 2 * 5`, `x in KEYS`)."""
    if isinstance(test, ast.BoolOp):
        parts = [_condition_keys(value, fold) for value in test.values]
        if not all(parts):
            return ()
        if isinstance(test.op, ast.Or):
            return tuple(k for part in parts for k in part)[:MAX_ALTERNATIVES]
        combined: list[tuple[Any, ...]] = [()]
        for part in parts:
            combined = [c + k for c in combined for k in part][:MAX_ALTERNATIVES]
        return tuple(combined)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = test.ops[0]
        left, right = fold(test.left), fold(test.comparators[0])
        if isinstance(op, (ast.Eq, ast.Is)):
            if (left is NO_VALUE) == (right is NO_VALUE):
                return ()
            return (_as_keys(right if left is NO_VALUE else left),)
        if isinstance(op, ast.In) and left is NO_VALUE and \
                isinstance(right, (list, tuple, set, frozenset, dict)) and right:
            return tuple(_as_keys(k) for k in right)[:MAX_ALTERNATIVES]
    return ()


def _first_emit(body: Sequence[ast.stmt], fold: Fold) -> Any:
    """The value a branch returns, prints or assigns first, if it does so before anything
    else (`if n == 10: return 55`, `if n == 10: ans = 55`)."""
    for stmt in body[:2]:
        value = _emitted(stmt, fold)
        if value is NO_VALUE and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name):
            value = fold(stmt.value)
        if value is not NO_VALUE:
            return value
    return NO_VALUE


def _emitted(stmt: ast.stmt, fold: Fold) -> Any:
    """The value a `return` or a one-argument `print` gives, when it is a constant."""
    if isinstance(stmt, ast.Return) and stmt.value is not None:
        return fold(stmt.value)
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        if dotted_name(call.func) in ("print", "sys.stdout.write") and len(call.args) == 1:
            return fold(call.args[0])
    return NO_VALUE


def _unconditional_emit(tree: ast.AST, cases: Sequence[LiteralCase],
                        targets: Sequence[_Targets], fold: Fold) -> Hardcoding | None:
    """A distinctive expected output printed or returned straight from a function or the
    module body before anything else is: the program's one answer. Only when the tests
    expect at least two different outputs: then a constant cannot be the computation they
    ask for. A constant after other returns or prints is a fallback (`return "No solution"`
    after a search loop), not hard-coding by itself."""
    outputs = {repr(c.output) for c in cases}
    if len(outputs) < 2:
        return None
    scopes: list[ast.Module | ast.FunctionDef | ast.AsyncFunctionDef] = \
        [tree] if isinstance(tree, ast.Module) else []
    scopes += [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef,
                                                             ast.AsyncFunctionDef))]
    for scope in scopes:
        first = min(_emits(scope), key=lambda n: (n.lineno, n.col_offset), default=None)
        if first is None or first not in scope.body:
            continue
        value = _emitted(first, fold)
        if value is NO_VALUE:
            continue
        key = _norm(value)
        hits = [c for c, t in zip(cases, targets) if key in t.outputs and not _trivial(c.output)]
        if hits:
            kind = "returned_output" if isinstance(first, ast.Return) else "printed_output"
            return Hardcoding(kind, first.lineno, len(hits))
    return None


def _emits(scope: ast.AST) -> list[ast.stmt]:
    """The statements of one scope that return a value or print."""
    return [n for n in _walk_scope(scope)
            if (isinstance(n, ast.Return) and n.value is not None) or
            (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and
             dotted_name(n.value.func) in ("print", "sys.stdout.write"))]
