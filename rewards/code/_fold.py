"""Constant folding for the hard-coding detector: the value a program's expression computes
when it depends on nothing but literals, whatever its syntax (`50 + 5`, `2 ** 10`,
`dict(zip([10, 20], [55, 6765]))`, `{k: v for k, v in zip(KEYS, VALUES)}`, a name bound once
to such a value, a table written as text and parsed: `json.loads('{"10": 55}')`,
`ast.literal_eval(...)`). A program that remembers test answers can write them in any of these
forms; the detector judges what they compute, not how they are spelled.

Every step is bounded (containers, strings and integers by size, the whole fold by a step
budget), so folding a hostile program costs at most a few milliseconds; past a bound the
expression is simply not a constant (`NO_VALUE`)."""

from __future__ import annotations

import ast
import json
import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rewards.code._cases import NO_VALUE, dotted_name

__all__ = ["Folder"]

MAX_ITEMS = 10_000
"""Largest container (or range) a fold builds."""
MAX_CHARS = 100_000
"""Longest string or bytes a fold builds."""
MAX_BITS = 10_000
"""Largest integer a fold builds, in bits (2 ** 1100 is well inside; about 3,000 digits)."""
MAX_LOOP = 1_000
"""Most items a comprehension folds its element for (a table of test cases is a few
hundred at most; a longer loop over literals is not folded, at the cost of one step)."""
MAX_STEPS = 100_000
"""Nodes folded per program: each node once, a comprehension's element once per item. A
program past it computes a great deal from literals alone (the detector says so)."""

_BINARY: Mapping[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_UNARY: Mapping[type, Callable[[Any], Any]] = {
    ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_,
    ast.Invert: operator.invert}
_CONVERSIONS: Mapping[str, Callable[[Any], Any]] = {
    "list": list, "tuple": tuple, "set": set, "frozenset": frozenset, "sorted": sorted,
    "reversed": lambda x: list(reversed(x)), "str": str, "int": int, "float": float,
    "abs": abs, "len": len, "sum": sum, "min": min, "max": max, "bool": bool}
_ATOMS = (int, float, complex, str, bytes, bool, type(None))


class _NotConstant(Exception):  # control flow inside this module, never out of it
    """The expression is not one this module folds (a parameter, an unknown call ...)."""


class _TooBig(_NotConstant):
    """A fold past one of the bounds: the expression is not treated as a constant."""


_FOLD_ERRORS = (_NotConstant, ArithmeticError, ValueError, TypeError, IndexError, KeyError,
                RecursionError, MemoryError, AttributeError)
"""What folding an expression that is not a (bounded) constant raises."""


class Folder:
    """Folds the expressions of one program. Names assigned exactly once in the whole
    program, to a foldable value, fold to that value (module constants, a table built in a
    local variable); a name bound any other way (a parameter, a loop variable, twice) never
    folds."""

    def __init__(self, tree: ast.AST, nodes: list[ast.AST] | None = None) -> None:
        """`nodes`: `list(ast.walk(tree))` where the caller has it already."""
        self._steps = 0
        self._exhausted: ast.AST | None = None
        self._memo: dict[int, Any] = {}
        self._bound: dict[str, ast.expr | None] = {}
        self._constants: dict[str, Any] = {}
        self._folding: set[str] = set()
        self._tree, self._nodes = tree, nodes
        self._bound_ready = False

    def _binding(self, name: str) -> ast.expr | None:
        """The value `name` is bound to once, by `name = value`, else None (the bindings are
        read on the first name folded: a program that folds none never pays for them)."""
        if not self._bound_ready:
            self._bound_ready = True
            nodes = list(ast.walk(self._tree)) if self._nodes is None else self._nodes
            plain: set[int] = set()  # walk order: an assignment comes before its target
            for node in nodes:
                for name_, value, target in _bindings(node):
                    if id(node) in plain:
                        continue  # the target of a plain assignment: bound there
                    if target is not None:
                        plain.add(id(target))
                    self._bound[name_] = value if name_ not in self._bound else None
        return self._bound.get(name)

    def _is_bound(self, name: str) -> bool:
        """Whether the program binds `name` anywhere (then it is not the builtin)."""
        self._binding(name)
        return name in self._bound

    def fold(self, node: ast.AST | None) -> Any:
        """The value `node` computes from literals alone, or NO_VALUE."""
        if node is None:
            return NO_VALUE
        try:
            return self._value(node, {})
        except _FOLD_ERRORS:
            return NO_VALUE

    @property
    def exhausted(self) -> ast.AST | None:
        """The node at which the step budget ran out, or None: past it nothing more was
        folded (a program can only get there by computing a great deal from literals)."""
        return self._exhausted

    # --- one node ---------------------------------------------------------------------

    def _value(self, node: ast.AST, env: Mapping[str, Any]) -> Any:
        """The value of `node`, each node folded once (memo) outside comprehension scopes:
        the whole walk costs steps linear in the program's size."""
        if env:
            return self._compute(node, env)
        key = id(node)
        if key in self._memo:
            if self._memo[key] is NO_VALUE:
                raise _NotConstant
            return self._memo[key]
        try:
            value = self._compute(node, env)
        except _FOLD_ERRORS:
            self._memo[key] = NO_VALUE
            raise
        self._memo[key] = value
        return value

    def _compute(self, node: ast.AST, env: Mapping[str, Any]) -> Any:
        self._steps += 1
        if self._steps > MAX_STEPS:
            if self._exhausted is None:
                self._exhausted = node
            raise _TooBig
        if isinstance(node, ast.Constant):
            if node.value is Ellipsis:
                raise _NotConstant
            return _bounded(node.value)
        if isinstance(node, ast.Name):
            return self._name(node.id, env)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = self._items(node.elts, env)
            kind = {ast.Tuple: tuple, ast.List: list, ast.Set: set}[type(node)]
            return _bounded(kind(items))
        if isinstance(node, ast.Dict):
            out: dict[Any, Any] = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    out.update(self._value(v, env))
                else:
                    out[self._value(k, env)] = self._value(v, env)
            return _bounded(out)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = self._value(node.left, env), self._value(node.right, env)
            _check_binary(node.op, left, right)
            return _bounded(_BINARY[type(node.op)](left, right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _bounded(_UNARY[type(node.op)](self._value(node.operand, env)))
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            return _bounded(self._value(node.value, env)[self._value(node.slice, env)])
        if isinstance(node, ast.Call):
            return self._call(node, env)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return self._comprehension(node, env)
        raise _NotConstant

    def _name(self, name: str, env: Mapping[str, Any]) -> Any:
        if name in env:
            return env[name]
        if name in self._constants:
            return self._constants[name]
        value = self._binding(name)
        if value is None or name in self._folding:
            raise _NotConstant
        self._folding.add(name)  # `a = a + 1` once: not a constant, not a loop
        try:
            self._constants[name] = self._value(value, {})
        except _TooBig:
            raise
        except Exception:
            self._bound[name] = None  # not a constant: never folded again
            raise
        finally:
            self._folding.discard(name)
        return self._constants[name]

    def _items(self, nodes: Iterable[ast.expr], env: Mapping[str, Any]) -> list[Any]:
        out: list[Any] = []
        for node in nodes:
            if isinstance(node, ast.Starred):
                out.extend(self._value(node.value, env))
            else:
                out.append(self._value(node, env))
            if len(out) > MAX_ITEMS:
                raise _TooBig
        return out

    def _call(self, node: ast.Call, env: Mapping[str, Any]) -> Any:
        if isinstance(node.func, ast.Attribute) and \
                dotted_name(node.func) in ("json.loads", "ast.literal_eval") and \
                len(node.args) == 1 and not node.keywords:
            text = self._value(node.args[0], env)  # a table written as text
            if not isinstance(text, str) or len(text) > MAX_CHARS:
                raise _NotConstant
            return _bounded(json.loads(text) if node.func.attr == "loads"
                            else ast.literal_eval(text))
        if not isinstance(node.func, ast.Name) or node.func.id in env or \
                self._is_bound(node.func.id):  # the program's own `dict`: not the builtin
            raise _NotConstant
        name = node.func.id
        args = self._items(node.args, env)
        keywords = {k.arg: self._value(k.value, env) for k in node.keywords if k.arg}
        if len(keywords) != len(node.keywords):
            raise _NotConstant
        if name == "dict":
            return _bounded(dict(*args, **keywords))
        if keywords:
            raise _NotConstant
        if name == "zip":
            return _bounded(list(zip(*(_sized(a) for a in args))))
        if name == "enumerate" and len(args) == 1:
            return _bounded(list(enumerate(_sized(args[0]))))
        if name == "range":
            numbers = range(*args)
            if len(numbers) > MAX_ITEMS:
                raise _TooBig
            return list(numbers)
        if name in _CONVERSIONS and len(args) == 1:
            if name == "str" and isinstance(args[0], int) and args[0].bit_length() > 10_000:
                raise _TooBig  # int -> str is quadratic
            return _bounded(_CONVERSIONS[name](_sized(args[0])))
        raise _NotConstant

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.DictComp |
                       ast.GeneratorExp, env: Mapping[str, Any]) -> Any:
        if len(node.generators) != 1 or node.generators[0].is_async:
            raise _NotConstant
        loop = node.generators[0]
        out: list[Any] = []
        items = _sized(self._value(loop.iter, env))
        if len(items) > MAX_LOOP:
            raise _TooBig
        for item in items:
            scope = {**env, **_unpack(loop.target, item)}
            if all(self._value(test, scope) for test in loop.ifs):
                if isinstance(node, ast.DictComp):
                    out.append((self._value(node.key, scope), self._value(node.value, scope)))
                else:
                    out.append(self._value(node.elt, scope))
        if isinstance(node, ast.DictComp):
            return _bounded(dict(out))
        return _bounded(set(out) if isinstance(node, ast.SetComp) else out)


def _bindings(node: ast.AST) -> Iterable[tuple[str, ast.expr | None, ast.Name | None]]:
    """(name, the value it is bound to or None, the target Name of a plain assignment or
    None) for each binding `node` makes; only `name = value` (or `name: T = value`) binds a
    value: the one binding a constant may have."""
    # exact types (`type(node) is`), as the walk dispatches; mypy narrows on them too
    if type(node) is ast.Assign:
        targets = node.targets
        if len(targets) == 1 and type(targets[0]) is ast.Name:
            yield targets[0].id, node.value, targets[0]
    elif type(node) is ast.AnnAssign:
        target = node.target
        if type(target) is ast.Name:
            plain = node.value is not None
            yield target.id, node.value, target if plain else None
    elif type(node) is ast.Name:
        if type(node.ctx) is not ast.Load:
            # every other store (tuple targets, loops, `with ... as`, augmented, walrus, del)
            yield node.id, None, None
    elif type(node) is ast.arg:
        yield node.arg, None, None
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name, None, None
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            yield (alias.asname or alias.name).partition(".")[0], None, None
    elif isinstance(node, (ast.Global, ast.Nonlocal)):
        for name in node.names:
            yield name, None, None
    elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
        yield node.name, None, None


def _unpack(target: ast.expr, item: Any) -> dict[str, Any]:
    if isinstance(target, ast.Name):
        return {target.id: item}
    if isinstance(target, (ast.Tuple, ast.List)):
        values = list(_sized(item))
        if len(values) != len(target.elts):
            raise _NotConstant
        out: dict[str, Any] = {}
        for sub, value in zip(target.elts, values):
            out.update(_unpack(sub, value))
        return out
    raise _NotConstant


def _sized(value: Any) -> Any:
    """`value` if it is a bounded container (never an iterator a fold did not build)."""
    if not isinstance(value, (list, tuple, set, frozenset, dict, str, bytes)):
        raise _NotConstant
    return value


def _check_binary(op: ast.operator, left: Any, right: Any) -> None:
    """Refuse, before computing it, an operation whose result would pass the bounds."""
    if isinstance(left, int) and isinstance(right, int):
        if isinstance(op, (ast.Pow, ast.LShift)) and (right > MAX_BITS or (
                isinstance(op, ast.Pow) and right * max(1, abs(left).bit_length()) > MAX_BITS)):
            raise _TooBig
        if isinstance(op, ast.Mult) and left.bit_length() + right.bit_length() > MAX_BITS:
            raise _TooBig
    if isinstance(op, ast.Mult):
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, (str, bytes, list, tuple)) and isinstance(count, int) and \
                    len(seq) * count > MAX_CHARS:
                raise _TooBig
    if isinstance(op, ast.Mod) and isinstance(left, (str, bytes)):
        raise _NotConstant  # printf-style formatting: not folded


def _bounded(value: Any) -> Any:
    """`value`, or _TooBig past the size bounds (nested containers: their top level)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if value.bit_length() > MAX_BITS:
            raise _TooBig
        return value
    if isinstance(value, (str, bytes)):
        if len(value) > MAX_CHARS:
            raise _TooBig
        return value
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        if len(value) > MAX_ITEMS:
            raise _TooBig
        return value
    if isinstance(value, _ATOMS):
        return value
    raise _NotConstant  # an iterator, a range, a function: not a literal value
