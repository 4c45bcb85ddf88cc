"""The layout of the code, read from the source (ast, nothing imported): imports point one way
(down the floors of `FLOORS`) without circles, lazy imports inside functions included, no
package reaches into another's private modules, the sandbox stands alone, every package's
`__all__` is sorted, complete and true, and library code raises only errors of the documented
tree (docs/errors.md)."""

from __future__ import annotations

import ast
import builtins
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FLOORS = (("sandbox",), ("rewards",), ("genrm", "prompt_filter"), ("rl",), ("integrations",),
          ("rewards_cli",))
"""The one statement of which package stands on which (docs/development.md says it in words),
ground floor first. A package imports only its own modules and packages on floors below its
own: the core knows nothing of what is built on it, `genrm` and `prompt_filter` stand side by
side and know nothing of each other, the RL loops use the prompt filter, the adapters may use
any of them, and the `rewards` command (`rewards_cli`, run also by `python -m rewards`) is the
top floor, which nothing imports. `rewards/__main__.py`, the module `python -m rewards` runs,
is Python's door to that top floor: it lives in the core's folder because Python looks for it
there, nothing imports it, and it hands over to `rewards_cli` by name (as the `rewards`
console script does), so it is a program on the top floor, not a module of the core."""
PACKAGES = tuple(package for floor in FLOORS for package in floor)
DOORS = {"rewards.__main__": "rewards_cli"}
"""Modules that Python runs as programs (`python -m PACKAGE`) and that therefore live in a
lower package's folder: the package whose floor they stand on."""
ROOT_ERROR = ("rewards.errors", "RewardsError")
SANDBOX_ERRORS = "sandbox._errors"

# In-jail modules (`sandbox._in_jail`): staged into the jail and run there by the jail's own
# interpreter, as the package `_in_jail`, never imported as part of the library. They import
# nothing of ours but each other, and their exceptions (a TypeError when a test compares a
# program's object, a KeyError from a namespace lookup) are the Python protocol the tests see.
IN_JAIL = frozenset({"sandbox._in_jail", "sandbox._in_jail.harness",
                     "sandbox._in_jail.harness_io", "sandbox._in_jail.harness_program",
                     "sandbox._in_jail.harness_wire", "sandbox._in_jail.init",
                     "sandbox._in_jail.warm_server"})

BUILTIN_EXCEPTIONS = frozenset(name for name, value in vars(builtins).items()
                               if isinstance(value, type) and issubclass(value, BaseException))
PROTOCOL_RAISES = {"__getattr__": {"AttributeError"}, "__missing__": {"KeyError"},
                   "__getitem__": {"KeyError", "IndexError"}, "__next__": {"StopIteration"}}
"""Builtin exceptions a special method must raise for Python to work (a module `__getattr__`
that does not know a name raises AttributeError)."""
ALWAYS_ALLOWED = frozenset({"SystemExit", "KeyboardInterrupt"})
"""Not errors: how a process's main function exits, how an interrupt goes on."""


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    tree: ast.Module

    @property
    def is_package(self) -> bool:
        return self.path.name == "__init__.py"

    @property
    def package(self) -> str:
        """The package this module is in (a package `__init__` is in itself)."""
        return self.name if self.is_package else self.name.rpartition(".")[0]


@dataclass(frozen=True)
class Import:
    importer: str
    target: str
    """The module imported: `a.b` for `from a.b import c` unless `a.b.c` is a module."""
    names: tuple[tuple[str, str], ...]
    """(name imported, name bound) of a `from` import; () for `import a.b` or by name."""
    line: int


@functools.cache
def modules() -> dict[str, Module]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = Module(name, path, ast.parse(path.read_text(), str(path)))
    return found


BY_NAME = frozenset({"import_module", "run_module"})
"""Calls that import a module named by a string (`importlib.import_module`, `runpy.run_module`):
one whose name is written out whole is an import like any other."""


def _base(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    anchor = module.package.split(".")
    anchor = anchor[:len(anchor) - node.level + 1]
    return ".".join([*anchor, *([node.module] if node.module else [])])


def _by_name(node: ast.Call) -> str | None:
    """`x` of `importlib.import_module("x")` or `runpy.run_module("x", ...)`, else None."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called in BY_NAME and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


@functools.cache
def imports() -> tuple[Import, ...]:
    """Every import of our modules by our modules, wherever it stands: at module level, under
    `if TYPE_CHECKING:` (a circle of types is a circle too), or inside a function (lazy)."""
    known = modules()
    found = []
    for module in known.values():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found.append(Import(module.name, alias.name, (), node.lineno))
            elif isinstance(node, ast.ImportFrom):
                base = _base(module, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    found.append(Import(module.name, sub if sub in known else base,
                                        ((alias.name, alias.asname or alias.name),),
                                        node.lineno))
            elif isinstance(node, ast.Call) and (target := _by_name(node)) is not None:
                found.append(Import(module.name, target, (), node.lineno))
    return tuple(i for i in found if i.target.split(".")[0] in PACKAGES)


# --- imports ---------------------------------------------------------------------------------


def test_the_import_reader_sees_lazy_and_by_name_imports() -> None:
    source = ("import runpy\nfrom rewards.errors import ConfigError\n"
              "def f():\n    from genrm import GenRMJudge\n"
              "    runpy.run_module('rl', run_name='__main__')\n"
              "    importlib.import_module(f'rewards.{x}')\n")
    fake = Module("rewards._fake", ROOT / "rewards" / "_fake.py", ast.parse(source))
    modules()[fake.name] = fake
    imports.cache_clear()
    try:
        seen = {(i.target, i.line) for i in imports() if i.importer == fake.name}
    finally:
        del modules()[fake.name]
        imports.cache_clear()
    assert seen == {("rewards.errors", 2), ("genrm", 4), ("rl", 5)}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(components)


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert _cycles(graph) == [["a", "b", "c"], ["e"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    """Imports form no circle, lazy imports inside functions included: a module that needs
    another's piece gets it from a module below both. (A lazy import hides a circle from the
    interpreter, not from the reader: the two modules still cannot be understood, or moved,
    one without the other.)"""
    graph: dict[str, set[str]] = {name: set() for name in modules()}
    for i in imports():
        if i.target in graph and i.target != i.importer:
            graph[i.importer].add(i.target)
    cycles = _cycles(graph)
    assert not cycles, "import circles: " + "; ".join(" <-> ".join(c) for c in cycles)


def package_of(module: str) -> str:
    """The top-level package a module belongs to (a door: the package it opens onto)."""
    return DOORS.get(module, module.split(".")[0])


def floor_of(module: str) -> int:
    """The floor (index into `FLOORS`) a module stands on."""
    return next(k for k, floor in enumerate(FLOORS) if package_of(module) in floor)


def upward(importer: str, target: str) -> bool:
    """Whether `importer` importing `target` runs sideways or up the floors: a module of
    another package on the importer's floor or above it."""
    if package_of(importer) == package_of(target):
        return False
    return floor_of(target) >= floor_of(importer)


def test_the_floor_rule_sees_what_it_should() -> None:
    assert not upward("genrm.generative", "rewards.engines")
    assert not upward("rewards.math._fast", "rewards.errors")
    assert not upward("rewards_cli.serve", "integrations.server")
    assert not upward("integrations.trl", "rl.grpo")
    assert upward("rewards.build", "genrm.generative")
    assert upward("genrm.label", "prompt_filter")
    assert upward("rl.grpo", "integrations.server")
    assert upward("sandbox._jail", "rewards.errors")
    assert not upward("rewards.__main__", "rewards_cli")  # the door, on the top floor
    assert upward("rewards.build", "rewards.__main__")
    assert upward("rewards.cli", "integrations")  # a CLI inside the core would be caught


def test_every_package_is_on_a_floor() -> None:
    """Every top-level package of the distribution is on one floor of `FLOORS`, once."""
    assert len(set(PACKAGES)) == len(PACKAGES)
    found = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert found == set(PACKAGES), (f"packages on no floor: {sorted(found - set(PACKAGES))}; "
                                    f"floors without a package: {sorted(set(PACKAGES) - found)}")


def test_the_development_page_states_the_floors() -> None:
    """docs/development.md lists the floors in words, one numbered line each (its packages in
    backticks, then what they are in parentheses), as `FLOORS` does."""
    layout = (ROOT / "docs" / "development.md").read_text().split("## Layout", 1)[1]
    lines = re.findall(r"^\d+\. (.+)$", layout.split("\n|", 1)[0], re.MULTILINE)
    stated = tuple(tuple(re.findall(r"`(\w+)`", line.split("(")[0])) for line in lines)
    assert stated == FLOORS, f"docs/development.md says {stated}, FLOORS {FLOORS}"


def test_no_import_runs_up_the_floors() -> None:
    """No module imports a package on its own floor or above it, lazy imports included."""
    wrong = sorted({f"{i.importer}:{i.line} imports {i.target}" for i in imports()
                    if upward(i.importer, i.target)})
    assert not wrong, "imports that run up the floors of FLOORS:\n" + "\n".join(wrong)


def _private_owner(target: str) -> str | None:
    """For `a.b._c.d`: `a.b`, the package whose private module it is; None if all public."""
    parts = target.split(".")
    for k, part in enumerate(parts):
        if part.startswith("_") and not (part.startswith("__") and part.endswith("__")):
            return ".".join(parts[:k])
    return None


def test_the_private_owner_of_a_module() -> None:
    assert _private_owner("sandbox._errors") == "sandbox"
    assert _private_owner("rewards.code._reference") == "rewards.code"
    assert _private_owner("rewards.math._pool") == "rewards.math"
    assert _private_owner("rewards.errors") is None


def test_no_package_imports_another_packages_private_module() -> None:
    """`a.b._c` is imported only from inside package `a.b`; what another package needs is
    public in an `__init__` or a public module (lazy imports included)."""
    wrong = []
    for i in imports():
        owner = _private_owner(i.target)
        package = modules()[i.importer].package
        if owner is not None and package != owner and not package.startswith(owner + "."):
            wrong.append(f"{i.importer}:{i.line} imports {i.target}")
    assert not wrong, "\n".join(wrong)


def test_the_sandbox_imports_nothing_of_ours() -> None:
    wrong = [f"{i.importer}:{i.line} imports {i.target}" for i in imports()
             if i.importer.split(".")[0] == "sandbox" and i.target.split(".")[0] != "sandbox"]
    assert not wrong, "\n".join(wrong)


# --- __all__ ---------------------------------------------------------------------------------


def _isort_key(name: str) -> tuple[int, list[tuple[int, int | str]]]:
    """ruff's RUF022 order: SCREAMING_SNAKE_CASE, then CamelCase, then the rest; within each,
    a natural sort (digit runs compared as numbers)."""
    if len(name) > 1 and name.upper() == name and name.lower() != name:
        category = 0
    elif name[:1].isupper():
        category = 1
    else:
        category = 2
    natural = [(0, int(part)) if part.isdigit() else (1, part)
               for part in re.split(r"(\d+)", name) if part]
    return category, natural


def test_the_isort_order() -> None:
    names = ["run", "Limits", "MAX_DEPTH", "A", "b2", "b10", "_private", "Backend", "CONFIG_ENV"]
    assert sorted(names, key=_isort_key) == ["CONFIG_ENV", "MAX_DEPTH", "A", "Backend", "Limits",
                                            "_private", "b2", "b10", "run"]


def _module_level(tree: ast.Module) -> Iterator[ast.stmt]:
    """Statements that run at import time, into `if` and `try` blocks."""
    for node in tree.body:
        yield node
        if isinstance(node, (ast.If, ast.Try)):
            for block in (node.body, node.orelse, *(h.body for h in getattr(node, "handlers", ())),
                          getattr(node, "finalbody", [])):
                yield from _module_level(ast.Module(body=block, type_ignores=[]))


def _targets(node: ast.expr) -> Iterator[str]:
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, (ast.Tuple, ast.List)):
        for element in node.elts:
            yield from _targets(element)


@dataclass(frozen=True)
class Namespace:
    defined: frozenset[str]
    """Names the module binds by def, class or assignment."""
    imported_ours: frozenset[str]
    """Names bound by `from <one of our packages> import ...`."""
    bound: frozenset[str]
    """Every name bound at module level (imports of anything included)."""
    lazy: frozenset[str]
    """Names a module `__getattr__` answers for."""


def namespace(module: Module) -> Namespace:
    defined, ours, bound, lazy = set(), set(), set(), set()
    for node in _module_level(module.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
            if node.name == "__getattr__":
                lazy |= {c.value for n in ast.walk(node) if isinstance(n, ast.Compare)
                         for c in n.comparators
                         if isinstance(c, ast.Constant) and isinstance(c.value, str)}
        elif isinstance(node, ast.Assign):
            defined |= {t for target in node.targets for t in _targets(target)}
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            defined |= set(_targets(node.target))
        elif isinstance(node, ast.Import):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            names = {a.asname or a.name for a in node.names}
            bound |= names
            if node.level or (node.module or "").split(".")[0] in PACKAGES:
                ours |= names
    return Namespace(frozenset(defined), frozenset(ours), frozenset(bound | defined),
                     frozenset(lazy))


def declared_all(module: Module) -> list[str] | None:
    for node in _module_level(module.tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            value = node.value
            assert isinstance(value, (ast.List, ast.Tuple)), f"{module.name}: __all__ literal"
            names = [e.value for e in value.elts if isinstance(e, ast.Constant)]
            assert len(names) == len(value.elts), f"{module.name}: __all__ holds only strings"
            return names
    return None


PACKAGE_INITS = sorted(name for name, module in modules().items() if module.is_package)


@pytest.mark.parametrize("package", PACKAGE_INITS)
def test_every_package_has_a_sorted_complete_and_true_all(package: str) -> None:
    """`__all__` lists, in RUF022 order and once each, every public name the `__init__`
    defines or imports from our packages (what it re-exports), and only names that exist
    (bound at module level, answered by a module `__getattr__`, or a submodule)."""
    module = modules()[package]
    listed = declared_all(module)
    assert listed is not None, f"{package}/__init__.py has no __all__"
    assert listed == sorted(listed, key=_isort_key), f"{package}: __all__ is not in RUF022 order"
    assert len(set(listed)) == len(listed), f"{package}: a name is listed twice"
    names = namespace(module)
    public = {n for n in names.defined | names.imported_ours
              if not n.startswith("_")} - {"__all__"}
    missing = sorted(public - set(listed))
    assert not missing, f"{package}: public but not in __all__: {missing}"
    submodules = {n.rpartition(".")[2] for n in modules() if n.rpartition(".")[0] == package}
    exists = names.bound | names.lazy | submodules
    unknown = sorted(set(listed) - exists)
    assert not unknown, f"{package}: listed but not defined: {unknown}"


def test_the_all_check_sees_what_it_should() -> None:
    tree = ast.parse("from rewards.errors import ConfigError\nfrom typing import Any\n"
                     "import os\nX = 1\ndef f(): pass\ndef _g(): pass\n"
                     "def __getattr__(name):\n    if name == 'app':\n        return 1\n"
                     "__all__ = ['X', 'app', 'f']\n")
    names = namespace(Module("pkg", ROOT / "pkg" / "__init__.py", tree))
    assert {n for n in names.defined | names.imported_ours if not n.startswith("_")} \
        == {"ConfigError", "X", "f"}
    assert names.lazy == {"app"} and {"Any", "os", "f", "X"} <= names.bound


# --- raises ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassRef:
    module: str
    name: str


@functools.cache
def _classes() -> dict[ClassRef, ast.ClassDef]:
    return {ClassRef(m.name, node.name): node for m in modules().values()
            for node in _module_level(m.tree) if isinstance(node, ast.ClassDef)}


def _resolve(module: str, dotted: str, depth: int = 0) -> ClassRef | str | None:
    """What `dotted` (`Name` or `alias.Name`) means in `module`: one of our classes, the name
    of a builtin exception (str), or None (a variable, a function, another library's class)."""
    known = modules()
    if depth > 20 or module not in known:
        return None
    head, _, rest = dotted.partition(".")
    if not rest and ClassRef(module, head) in _classes():
        return ClassRef(module, head)
    for node in _module_level(known[module].tree):
        if isinstance(node, ast.ImportFrom):
            base = _base(known[module], node)
            for alias in node.names:
                if (alias.asname or alias.name) != head:
                    continue
                sub = f"{base}.{alias.name}"
                if sub in known:  # `from rewards import errors`: errors.ConfigError
                    return _resolve(sub, rest, depth + 1) if rest else None
                return None if rest else _resolve(base, alias.name, depth + 1)
        elif isinstance(node, ast.Import) and rest:
            for alias in node.names:
                if (alias.asname or alias.name.split(".")[0]) == head:
                    target = alias.name if alias.asname else head
                    owner, _, name = f"{target}.{rest}".rpartition(".")
                    return _resolve(owner, name, depth + 1)
        elif isinstance(node, (ast.Assign, ast.FunctionDef)) and not rest and head in (
                node.name if isinstance(node, ast.FunctionDef) else
                [t for target in node.targets for t in _targets(target)]):
            return None
    if not rest and head in BUILTIN_EXCEPTIONS:
        return head
    return None


def _ancestors(ref: ClassRef, depth: int = 0) -> Iterator[ClassRef | str]:
    yield ref
    node = _classes().get(ref)
    if node is None or depth > 20:
        return
    for base in node.bases:
        resolved = _resolve(ref.module, ast.unparse(base))
        if isinstance(resolved, ClassRef):
            yield from _ancestors(resolved, depth + 1)
        elif resolved is not None:
            yield resolved


def _raises(module: Module) -> Iterator[tuple[ast.Raise, str | None]]:
    """Every `raise` of the module with the name of the function it is in."""
    def visit(node: ast.AST, function: str | None) -> Iterator[tuple[ast.Raise, str | None]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Raise):
                yield child, function
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                else function
            yield from visit(child, inner)
    yield from visit(module.tree, None)


def _exported(ref: ClassRef) -> bool:
    """Whether a class is public API: a public name of a public module, or re-exported by
    its package's `__init__`."""
    if ref.name.startswith("_"):
        return False
    if _private_owner(ref.module) is None:
        return True
    package = modules()[ref.module].package
    listed = declared_all(modules()[package]) or []
    return ref.name in listed


def raise_problems(module: Module) -> list[str]:
    """The raises of `module` that are not of the tree: a builtin exception (but for the
    protocol ones), or a public class of ours outside `RewardsError` (outside the sandbox's
    own classes, in the sandbox). Re-raises (`raise`, `raise exc`) and calls that build an
    error (`raise self.died()`) are not classes: nothing to check. A private exception class
    (`_Decline`, one a private module does not export) is control flow inside one part."""
    in_sandbox = module.name.split(".")[0] == "sandbox"
    problems = []
    for node, function in _raises(module):
        if node.exc is None:
            continue
        callee = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if not isinstance(callee, (ast.Name, ast.Attribute)):
            continue
        dotted = ast.unparse(callee)
        resolved = _resolve(module.name, dotted)
        where = f"{module.name}:{node.lineno} raises {dotted}"
        if isinstance(resolved, str):
            allowed = ALWAYS_ALLOWED | PROTOCOL_RAISES.get(function or "", set())
            if resolved not in allowed:
                problems.append(where)
        elif isinstance(resolved, ClassRef):
            lineage = list(_ancestors(resolved))
            if in_sandbox:
                ok = any(isinstance(a, ClassRef) and a.module == SANDBOX_ERRORS for a in lineage)
            else:
                ok = ClassRef(*ROOT_ERROR) in lineage or not _exported(resolved)
            if not ok:
                problems.append(where)
    return problems


def test_the_raise_check_sees_what_it_should() -> None:
    """Fabricated modules through the real check: a bare ValueError is found, a tree error, a
    protocol AttributeError and a re-raise are not."""
    source = ("from rewards.errors import ConfigError\n"
              "def f(x):\n    if x:\n        raise ValueError('no')\n"
              "    raise ConfigError('fine')\n"
              "def g():\n    try:\n        pass\n    except OSError as exc:\n        raise exc\n"
              "def __getattr__(name):\n    raise AttributeError(name)\n"
              "def h():\n    raise TypeError\n")
    fake = Module("rewards._fake", ROOT / "rewards" / "_fake.py", ast.parse(source))
    modules()[fake.name] = fake
    try:
        assert raise_problems(fake) == ["rewards._fake:4 raises ValueError",
                                        "rewards._fake:14 raises TypeError"]
    finally:
        del modules()[fake.name]


LIBRARY = sorted(name for name in modules() if name not in IN_JAIL)


def test_library_code_raises_only_tree_errors() -> None:
    """No `raise ValueError/RuntimeError/TypeError/Exception(...)` (or any other builtin
    error) in the six packages: every error they raise is of the `rewards.errors` tree (in the
    sandbox: of the sandbox's own `sandbox._errors`)."""
    problems = [p for name in LIBRARY for p in raise_problems(modules()[name])]
    assert not problems, "\n".join(problems)


def test_every_tree_class_descends_from_the_root() -> None:
    """The classes `rewards.errors` exports are the tree: each is `RewardsError` or below it."""
    errors = modules()["rewards.errors"]
    listed = declared_all(errors) or []
    classes = [n for n in listed if ClassRef("rewards.errors", n) in _classes()]
    assert {"ConfigError", "EngineError", "InputError", "RewardsError", "SandboxError",
            "WorkerError"} <= set(classes)
    for name in classes:
        assert ClassRef(*ROOT_ERROR) in _ancestors(ClassRef("rewards.errors", name)), name
