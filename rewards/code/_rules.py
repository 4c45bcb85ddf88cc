"""The Rule layer of the code reward: find the program in a completion, then check it without
running it: syntax, length, forbidden patterns and hard-coded answers.

Two pure steps, each tested alone: `extract_program(completion)` then
`check_program(program, ...)`. Nothing here executes model code.

The built-in forbidden patterns are Python AST rules (no false hits inside strings or
comments); `ForbiddenRule(name, regex=...)` adds a regular expression for any language,
matched against the program with Python comments removed, line by line in bounded windows.

Every pattern here that runs on model text runs in linear time on input capped first: the
completion at MAX_COMPLETION_CHARS, the program at `max_chars`; custom patterns that could
backtrack without bound are refused when made (`check_pattern`).
"""

from __future__ import annotations

import ast
import io
import re
import sys
import threading
import tokenize
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from rewards.cache import byte_cache
from rewards.code._cases import LiteralCase, dotted_name
from rewards.code._hardcoding import find_hardcoding
from rewards.code._unfenced import unfenced_program
from rewards.errors import ConfigError

__all__ = [
    "BUILTIN_RULES", "Extraction", "ForbiddenRule", "RuleConfig", "RuleResult",
    "canonical_language", "check_pattern", "check_program", "extract_program", "find_forbidden",
    "prompt_helpers", "task_helpers",
]

BlockChoice = Literal["last", "first", "longest", "concat"]
TestStyle = Literal["function", "stdin"]
Scope = Literal["all", "function", "stdin"]

LANGUAGE_TAGS: dict[str, frozenset[str]] = {
    "python": frozenset({"python", "py", "python3", "py3", "python 3"}),
    "cpp": frozenset({"cpp", "c++", "cc", "cxx"}),
    "c": frozenset({"c"}),
    "javascript": frozenset({"javascript", "js", "node", "nodejs"}),
    "bash": frozenset({"bash", "sh", "shell"}),
}


def canonical_language(name: str) -> str | None:
    """`python`, `cpp`, `c`, `javascript` or `bash` for a language name or alias (`py`,
    `c++`, `js`, `sh` ...); None for a language the sandbox does not run."""
    key = str(name).strip().lower()
    return next((lang for lang, tags in LANGUAGE_TAGS.items() if key == lang or key in tags),
                None)


# --- extraction ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Extraction:
    """Where the program came from."""

    program: str | None
    """The program text, None when the completion holds none."""
    fenced: bool
    """True when it came from a fenced block (``` or ~~~), False for the bare completion."""


MAX_COMPLETION_CHARS = 400_000
"""A longer completion is read as if generation had stopped there (the head is kept)."""


_FENCE = re.compile(r" {0,3}(?:(`{3,})(?!`)|(~{3,})(?!~))([^`]*)\Z")
"""A line that opens or closes a fenced block: up to three spaces, three or more backticks
or tildes, then an info string holding no backtick. Linear in the line: the lookaheads make
the fence run maximal, so the run and the info string never compete for characters (the
pattern this replaced, with a lazy info string between blank runs, backtracked
quadratically on a long run of fence characters or blanks)."""


def _fence(line: str) -> tuple[str, str] | None:
    """(fence, info) when the line opens or closes a fenced block, else None."""
    found = _FENCE.match(line)
    if found is None:
        return None
    return found[1] or found[2], found[3].strip(" \t")


def _blocks(text: str) -> tuple[list[tuple[str, str]], str | None]:
    """Complete fenced blocks as (tag, body), plus the body of a trailing unclosed block."""
    blocks: list[tuple[str, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = _fence(lines[i])
        if not opening:
            i += 1
            continue
        fence, info = opening
        tag = info.split(" ")[0].lower() if info else ""
        for j in range(i + 1, len(lines)):
            closing = _fence(lines[j])
            if closing and closing[0][0] == fence[0] \
                    and len(closing[0]) >= len(fence) and not closing[1]:
                blocks.append((tag, "\n".join(lines[i + 1:j])))
                i = j + 1
                break
        else:  # never closed: a truncated completion
            return blocks, "\n".join(lines[i + 1:])
    return blocks, None


def extract_program(completion: str, *, language: str = "python", block: BlockChoice = "last",
                    unfenced: Literal["code", "reject"] = "code") -> Extraction:
    """The program in a completion.

    Fenced blocks tagged with the language win over untagged ones (so an untagged output
    block after the code is not taken); blocks tagged with another language are ignored.
    Among the candidates `block` picks the last complete one (default), the first, the
    longest, or all of them concatenated. With no complete block: a trailing unclosed block
    (a truncated completion) is taken; else, when `unfenced="code"`, the program as a reader
    finds it between lines of prose (`rewards.code._unfenced`), or the whole completion.
    Only the first MAX_COMPLETION_CHARS characters are read.
    """
    completion = completion[:MAX_COMPLETION_CHARS]
    blocks, unclosed = _blocks(completion)
    tags = LANGUAGE_TAGS.get(language, frozenset({language}))
    tagged = [body for tag, body in blocks if tag in tags]
    candidates = tagged or [body for tag, body in blocks if not tag]
    candidates = [c for c in candidates if c.strip()]
    if candidates:
        if block == "first":
            chosen = candidates[0]
        elif block == "longest":
            chosen = max(candidates, key=len)
        elif block == "concat":
            chosen = "\n\n".join(candidates)
        else:
            chosen = candidates[-1]
        return Extraction(chosen.strip("\n") + "\n", True)
    if blocks:  # only blocks of other languages: no program in ours
        return Extraction(None, True)
    if unclosed is not None and unclosed.strip():
        return Extraction(unclosed.strip("\n") + "\n", True)
    if unfenced == "code" and completion.strip():  # prose lines around it are left out
        return Extraction(unfenced_program(completion, language).strip("\n") + "\n", False)
    return Extraction(None, False)


# --- forbidden patterns --------------------------------------------------------------------


@dataclass(frozen=True)
class ForbiddenRule:
    """One forbidden pattern: a built-in AST check, or a custom regular expression."""

    name: str
    """Reported in the score's reason detail and used to enable/disable it by name."""
    description: str = ""
    """What it catches, for people reading a config."""
    scope: Scope = "all"
    """Applies to function-style tests (asserts, check(candidate)), stdin tests, or all."""
    regex: str | None = None
    """For a custom rule: a regular expression searched in the program (comments removed)."""
    check: Callable[[ast.AST], int | None] | None = None
    """For a built-in Python rule: returns the offending line, or None."""

    def __post_init__(self) -> None:
        if self.regex is not None:
            check_pattern(self.regex)  # ConfigError: it could not run in linear time

    def applies(self, style: TestStyle) -> bool:
        return self.scope == "all" or self.scope == style


_walked = threading.local()
"""`tree`: (the tree `find_forbidden` is checking, its nodes), walked once for all rules."""


def _nodes(tree: ast.AST) -> list[ast.AST]:
    """`ast.walk(tree)` as a list: the walk `find_forbidden` made for all its rules when it
    checks this tree (every built-in rule reads each node, some twice), else a new one."""
    walked = getattr(_walked, "tree", None)
    if walked is not None and walked[0] is tree:
        return walked[1]
    return list(ast.walk(tree))


def _calls(tree: ast.AST) -> list[tuple[str, ast.Call]]:
    return [(dotted_name(n.func), n) for n in _nodes(tree) if isinstance(n, ast.Call)]


_EXIT_CALLS = {"sys.exit", "exit", "quit", "os._exit", "os.abort", "os.kill", "os.killpg",
               "_exit", "posix._exit"}


def _early_exit(tree: ast.AST) -> int | None:
    """The line of an exit that runs whenever its code does: a statement of the module body
    (not under `if __name__ == "__main__"`, which never runs under test) or of a function's
    body, including the straight-line blocks inside them (`with`, the body and `finally` of
    `try`). An exit in a branch the program takes only on some inputs (`if x < 0: exit()`)
    is left to the tests: the harness reports any exit it reaches as that test's failure, and
    an MBPP reference solution that exits on invalid input keeps its rule credit."""
    bodies = [tree.body] if isinstance(tree, ast.Module) else []
    bodies += [n.body for n in _nodes(tree)
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for body in bodies:
        for stmt in _straight_line(body):
            line = _exit_in(stmt)
            if line is not None:
                return line
    return None


if sys.version_info >= (3, 11):
    _TRY_BLOCKS: tuple[type[ast.Try | ast.TryStar], ...] = (ast.Try, ast.TryStar)
else:  # pragma: no cover  (3.10: no `try ... except*`)
    _TRY_BLOCKS = (ast.Try,)


def _straight_line(body: Sequence[ast.stmt]) -> Iterable[ast.stmt]:
    """The statements of `body` that run whenever `body` runs to its end, and those of the
    blocks that run with it (with, try and finally), not of branches, loops or handlers."""
    for stmt in body:
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from _straight_line(stmt.body)
        elif isinstance(stmt, _TRY_BLOCKS):
            yield from _straight_line(stmt.body)
            yield from _straight_line(stmt.finalbody)
        else:
            yield stmt


def _exit_in(stmt: ast.stmt) -> int | None:
    """The line of an exit call or `raise SystemExit` that `stmt` itself makes (an exit in
    the expression of a statement runs with it: `x = f() or sys.exit(0)` aside)."""
    if isinstance(stmt, ast.Raise) and stmt.exc is not None:
        exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        if dotted_name(exc) in ("SystemExit", "KeyboardInterrupt", "GeneratorExit"):
            return stmt.lineno
    if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)) \
            and stmt.value is not None:
        stack: list[ast.AST] = [stmt.value]
        while stack:  # what the statement's expression surely evaluates
            node = stack.pop()
            if isinstance(node, ast.Call) and dotted_name(node.func) in _EXIT_CALLS:
                return node.lineno
            if isinstance(node, ast.Lambda):
                continue  # a function of its own
            if isinstance(node, ast.IfExp):
                stack.append(node.test)  # one branch or the other: conditional
            elif isinstance(node, ast.BoolOp):
                stack.append(node.values[0])  # the others short-circuit
            else:
                stack.extend(ast.iter_child_nodes(node))
    return None


_INTROSPECTION_CALLS = {
    "sys._getframe", "inspect.stack", "inspect.currentframe", "inspect.getsource",
    "inspect.getsourcelines", "inspect.getfile", "inspect.getouterframes", "inspect.trace",
    "inspect.getframeinfo", "traceback.extract_stack", "traceback.walk_stack",
    "gc.get_objects", "gc.get_referrers", "os.listdir", "os.scandir", "os.walk", "glob.glob",
    "glob.iglob",
}
_FRAME_ATTRS = {"f_back", "f_globals", "f_locals", "f_code", "tb_frame", "gi_frame"}


_TEST_FILE = re.compile(r"test|check|\.py$|/proc/self", re.IGNORECASE)  # literals: linear


def _test_file_access(tree: ast.AST) -> int | None:
    for name, call in _calls(tree):
        if name in _INTROSPECTION_CALLS:
            return call.lineno
        if name in ("open", "io.open", "pathlib.Path", "Path") and call.args:
            arg = call.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and \
                    _TEST_FILE.search(arg.value):
                return call.lineno
    for node in _nodes(tree):
        if isinstance(node, ast.Name) and node.id == "__file__":
            return node.lineno
        if isinstance(node, ast.Attribute) and (node.attr in _FRAME_ATTRS or
                                                dotted_name(node) == "sys.argv"):
            return node.lineno
        if isinstance(node, ast.Import) and any(a.name == "__main__" for a in node.names):
            return node.lineno
        if isinstance(node, ast.Constant) and node.value == "__main__" and \
                not _is_main_guard(tree, node):
            return node.lineno
    return None


def _is_main_guard(tree: ast.AST, constant: ast.Constant) -> bool:
    """`if __name__ == "__main__":` is the honest use of the string "__main__"."""
    for node in _nodes(tree):
        if isinstance(node, ast.Compare) and dotted_name(node.left) == "__name__" and \
                constant in node.comparators:
            return True
    return False


def _mock_patching(tree: ast.AST) -> int | None:
    for node in _nodes(tree):
        if isinstance(node, ast.Import):
            if any(a.name in ("mock", "unittest.mock", "builtins") for a in node.names):
                return node.lineno
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module in ("mock", "unittest.mock", "builtins") or \
                    (module == "unittest" and any(a.name == "mock" for a in node.names)):
                return node.lineno
        elif isinstance(node, ast.Name) and node.id == "__builtins__":
            return node.lineno
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                name = dotted_name(target.value if isinstance(target, ast.Subscript) else target)
                if name in ("AssertionError", "sys.modules", "sys.excepthook") or \
                        name.startswith("builtins."):
                    return node.lineno
        elif isinstance(node, ast.ClassDef) and node.name == "AssertionError":
            return node.lineno
    for name, call in _calls(tree):
        if name in ("sys.settrace", "sys.setprofile", "threading.settrace"):
            return call.lineno
    return None


def _always_equal(tree: ast.AST) -> int | None:
    """A class whose `__eq__` returns True whatever it is compared to (or `__ne__` False):
    its instances pass every `assert result == expected`."""
    for node in _nodes(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name in ("__eq__", "__ne__"):
                body = [s for s in item.body if not (isinstance(s, ast.Expr) and
                                                      isinstance(s.value, ast.Constant))]
                constant = item.name == "__eq__"
                if len(body) == 1 and isinstance(body[0], ast.Return) and \
                        isinstance(body[0].value, ast.Constant) and \
                        body[0].value.value is constant:
                    return item.lineno
            elif isinstance(item, ast.Assign) and \
                    any(dotted_name(t) in ("__eq__", "__ne__") for t in item.targets) and \
                    isinstance(item.value, ast.Lambda) and \
                    isinstance(item.value.body, ast.Constant):
                return item.lineno
    return None


BUILTIN_RULES: dict[str, ForbiddenRule] = {r.name: r for r in (
    ForbiddenRule("early_exit", "sys.exit, exit(), quit(), os._exit, raise SystemExit: ending "
                  "the process before the asserts run", "function", check=_early_exit),
    ForbiddenRule("test_file_access", "reading the test file or the caller's frames: "
                  "__file__, sys.argv, open('test...'), inspect/sys._getframe, gc, listing "
                  "directories", "all", check=_test_file_access),
    ForbiddenRule("mock_patching", "unittest.mock, patching builtins, AssertionError, "
                  "sys.modules or sys.excepthook, tracing hooks", "all",
                  check=_mock_patching),
    ForbiddenRule("always_equal", "objects whose __eq__ always returns True", "all",
                  check=_always_equal),
)}


def _strip_comments(program: str) -> str:
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(program).readline)
                  if t.type != tokenize.COMMENT]
        return tokenize.untokenize(tokens)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return program


REGEX_WINDOW = 128
"""A custom pattern is searched in windows of this many characters of one line..."""
REGEX_OVERLAP = 64
"""...overlapping by this many, so a match up to this long is never split."""
MAX_PATTERN_PATHS = 2 * (REGEX_WINDOW + 1)
"""Most ways a custom pattern may try to match from one position (see `check_pattern`)."""


def _search_lines(regex: str, text: str) -> int | None:
    """The first line (1-based) where a custom pattern matches, searched line by line in
    bounded windows. With the paths from one position bounded (`check_pattern`), a search
    costs at most a constant per character: linear in the program however it is written."""
    pattern = re.compile(regex)
    step = REGEX_WINDOW - REGEX_OVERLAP
    for number, line in enumerate(text.splitlines(), 1):
        for start in range(0, max(len(line) - REGEX_OVERLAP, 1), step):
            if pattern.search(line[start:start + REGEX_WINDOW]):
                return number
    return None


def check_pattern(regex: str) -> None:
    """Raise ConfigError for a custom pattern that does not compile, or whose backtracking
    is not bounded by a constant per position: a backreference, a lookaround, a repeat of
    anything but a fixed-width piece (`(a+)+`, `(a|aa)*`), or more than MAX_PATTERN_PATHS
    ways to match from one position (each unbounded repeat counts as REGEX_WINDOW + 1, so
    one `\\s*` is fine and two are not: write `\\s{0,8}`)."""
    try:
        parsed = _sre_parser().parse(regex)
    except re.error as exc:
        raise ConfigError(f"bad pattern {regex!r}: {exc}") from exc
    paths = _paths(parsed, regex)
    if paths > MAX_PATTERN_PATHS:
        raise ConfigError(f"pattern {regex!r} can backtrack {paths} ways from one position "
                         f"(at most {MAX_PATTERN_PATHS}): bound its repeats, e.g. \\s{{0,8}} "
                         "instead of \\s*")


def _sre_parser() -> Any:
    """The standard library's regex parser (private: its result is read as plain tuples)."""
    if sys.version_info >= (3, 11):
        from re import _parser
    else:  # pragma: no cover  (3.10)
        import sre_parse as _parser
    return _parser


_FIXED = ("LITERAL", "NOT_LITERAL", "IN", "ANY", "AT", "CATEGORY")
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _paths(items: Iterable[tuple[object, Any]], regex: str) -> int:
    """Upper bound on the ways `items` (a parsed pattern) can match from one position."""
    total = 1
    for op, value in items:
        name = str(op)
        if name in _FIXED:
            continue
        if name == "SUBPATTERN":
            total *= _paths(value[-1], regex)
        elif name == "ATOMIC_GROUP":
            total *= _paths(value, regex)
        elif name == "BRANCH":
            total *= sum(_paths(branch, regex) for branch in value[1])
        elif name in _REPEATS:
            low, high, body = value
            if high > 1 and _paths(body, regex) > 1:
                raise ConfigError(f"pattern {regex!r}: a repeated piece that can itself match "
                                 "in several ways backtracks exponentially")
            total *= min(high, REGEX_WINDOW) - low + 1
        else:
            raise ConfigError(f"pattern {regex!r}: {name.lower()} is refused (backreferences "
                             "and lookarounds can backtrack without bound)")
    return total


def find_forbidden(program: str, rules: Sequence[ForbiddenRule], *, style: TestStyle,
                   tree: ast.AST | None = None, language: str = "python") -> list[str]:
    """Names (with line) of the rules a program breaks, e.g. `['early_exit:3']`. AST rules
    need `tree` (Python); regex rules run on any language."""
    hits = []
    text: str | None = None  # comments stripped on first need: the built-in rules need none
    _walked.tree = None if tree is None else (tree, list(ast.walk(tree)))
    try:
        for rule in rules:
            if not rule.applies(style):
                continue
            line: int | None = None
            if rule.check is not None and tree is not None:
                line = rule.check(tree)
            elif rule.regex is not None:
                if text is None:
                    text = _strip_comments(program) if language == "python" else program
                line = _search_lines(rule.regex, text)
            if line is not None:
                hits.append(f"{rule.name}:{line}")
    finally:
        _walked.tree = None
    return hits


# --- prompt helpers ------------------------------------------------------------------------

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def prompt_helpers(prompt: str | None, entry_point: str | None) -> dict[str, ast.stmt]:
    """The functions and classes a task's prompt defines for the program and the tests
    (`poly` in HumanEval/32, `encode_cyclic` in HumanEval/38), by name; the stub of the
    function under test is not one. Empty when there is no prompt or it does not parse."""
    if not prompt:
        return {}
    try:
        tree = ast.parse(prompt)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    return {n.name: n for n in tree.body if isinstance(n, _DEFINITIONS) and n.name != entry_point}


@byte_cache(32 << 20)  # a task's prompt, parsed once per task, not per program
def task_helpers(prompt: str | None, entry_point: str | None) -> Mapping[str, ast.stmt]:
    """`prompt_helpers`, remembered for the task's later programs: read it, never change
    it (nor the definitions in it)."""
    return MappingProxyType(prompt_helpers(prompt, entry_point))


def _redefined_helpers(tree: ast.Module, helpers: Mapping[str, ast.stmt]) -> list[str]:
    """`redefines_helper:LINE` for each top-level binding of a prompt helper's name that is
    not the prompt's own definition (a verbatim copy, docstrings aside, is fine). The tests
    see the prompt's version whatever the program does; a program that writes its own has
    tried to change what they check."""
    hits = []
    for node in tree.body:
        if isinstance(node, _DEFINITIONS):
            names = [node.name] if node.name in helpers and \
                _shape(node) != _shape(helpers[node.name]) else []
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Import,
                               ast.ImportFrom)):
            names = [n for n in _bound_names(node) if n in helpers]
        else:
            names = []
        hits += [f"redefines_helper:{node.lineno} ({name})" for name in names]
    return hits


def _bound_names(node: ast.Assign | ast.AnnAssign | ast.AugAssign | ast.Import
                 | ast.ImportFrom) -> list[str]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).partition(".")[0] for a in node.names]
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def _shape(node: ast.stmt) -> str:
    """A definition's AST without docstrings, positions or comments."""
    copy = ast.parse(ast.unparse(node)).body[0]
    for inner in ast.walk(copy):
        body = getattr(inner, "body", None)
        if isinstance(inner, _DEFINITIONS) and body and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            inner.body = body[1:] or [ast.Pass()]
    return ast.dump(copy, annotate_fields=False)


# --- the layer -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleConfig:
    """How the Rule layer judges a program."""

    max_chars: int = 20_000
    """Longest program accepted, in characters."""
    max_lines: int = 1_000
    """Longest program accepted, in lines."""
    forbidden: tuple[ForbiddenRule, ...] = tuple(BUILTIN_RULES.values())
    """The forbidden patterns checked (built-in by default, plus any custom ones)."""
    detect_hardcoding: bool = True
    """Look for answers remembered from the tests (Python programs only)."""


@dataclass(frozen=True)
class RuleResult:
    """The Rule layer's verdict on one program."""

    reason: Literal["ok", "no_code", "syntax_error", "rule_violation", "hardcoded"]
    """ok when every rule holds; else the first failure, in that order of precedence."""
    violations: tuple[str, ...] = ()
    """What was broken: `too_long`, `early_exit:3`, `lookup_table at line 2 ...`."""
    tree: ast.Module | None = field(default=None, repr=False, compare=False)
    """The parsed Python program, when it parsed."""

    @property
    def passed(self) -> bool:
        return self.reason == "ok"


def check_program(program: str, *, config: RuleConfig = RuleConfig(),
                  language: str = "python", style: TestStyle = "function", fenced: bool = True,
                  public: Sequence[LiteralCase] = (),
                  hidden: Sequence[LiteralCase] = (), prompt: str | None = None,
                  entry_point: str | None = None) -> RuleResult:
    """Judge a program without running it. An unfenced completion that is not valid Python is
    prose, not code (`no_code`); a fenced one that does not parse is a `syntax_error`.
    Length, forbidden patterns and redefining a helper of the task's `prompt` (other than
    `entry_point`) give `rule_violation`; remembered answers `hardcoded`."""
    tree = None
    if len(program) > config.max_chars:  # not even parsed: analysis time stays bounded
        return RuleResult("rule_violation",
                          (f"too_long: {len(program)} chars > {config.max_chars}",))
    if language == "python":
        try:
            tree = ast.parse(program)
            compile(tree, "<program>", "exec")
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            return RuleResult("syntax_error" if fenced else "no_code",
                              (f"{type(exc).__name__}: {exc}",))
    violations: list[str] = []
    lines = len(program.splitlines())
    if lines > config.max_lines:
        violations.append(f"too_long: {lines} lines > {config.max_lines}")
    violations += find_forbidden(program, config.forbidden, style=style, tree=tree,
                                 language=language)
    if tree is not None:
        violations += _redefined_helpers(tree, task_helpers(prompt, entry_point))
    if tree is not None and config.detect_hardcoding:
        found = find_hardcoding(tree, public, hidden)
        if found is not None:
            return RuleResult("hardcoded", (found.describe(), *violations), tree)
    if violations:
        return RuleResult("rule_violation", tuple(violations), tree)
    return RuleResult("ok", (), tree)
