"""Code references in the formats datasets ship them, normalized to one `CodeTask`.

Accepted (also as a JSON string of any of these):

- explicit: `{"language", "public": [...], "hidden": [...], "entry_point"}`; items are assert
  snippets (str) or stdin cases `{"input", "output"}`;
- HumanEval: `{"prompt", "test", "entry_point"}`: `check(candidate)` is split into one test
  per assert statement that calls the candidate;
- MBPP: `{"test_list", "challenge_test_list", "test_setup_code" | "test_imports"}`, or a bare
  list of assert strings, or a string of assert statements;
- APPS: `{"input_output": <json>}` or `{"inputs", "outputs"[, "fn_name"]}` (with `fn_name`
  the cases are calls, not stdin);
- CodeContests: `{"public_tests", "private_tests", "generated_tests"}` with `input`/`output`
  lists;
- LiveCodeBench: `{"public_test_cases", "private_test_cases", "metadata"}` (JSON strings or
  lists of `{"input", "output", "testtype"}`; `functional` cases call `metadata.func_name`),
  or a bare list of `{"input", "output"}`.

Public/hidden split: explicit, MBPP challenge tests, CodeContests and LiveCodeBench carry
their own. Formats without one (HumanEval, MBPP without challenge tests, APPS, bare lists)
hold back the last `hidden_share` of their tests as hidden, keeping at least one public.

Checkers (`CodeTask.checker`, a `sandbox.Checker` judging stdin/stdout tests with more than
one right output): `checker` beside any stdin format, as source (C++ when it has an
`#include`, else Python; testlib's convention) or `{"source", "language", "args", "score"}`
(the `sandbox.Checker` fields); open-r1/codeforces' `generated_checker` (Python, `input
answer output`, printing 1 or 0).

Reference solutions (`CodeTask.solution`, timed by the reward's `reference_time`): explicit
`solution`, HumanEval `prompt` + `canonical_solution`, MBPP `code`, APPS `solutions` (the
first), CodeContests `solutions` (the first in the task's language: 3 is Python 3, 2 C++).
"""

from __future__ import annotations

import ast
import builtins
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from rewards.code._cases import LiteralCase, cases_from_asserts
from rewards.code._rules import canonical_language
from rewards.errors import BadReference

__all__ = ["BadReference", "CodeTask", "TestSet", "parse_reference"]


@dataclass(frozen=True)
class TestSet:
    """Tests in the form `sandbox.run_tests` takes."""

    kind: Literal["asserts", "stdin"]
    """asserts: Python snippets run after the program; stdin: input/output cases."""
    tests: tuple[Any, ...] = ()
    """Assert snippets (str), or `{"input": str, "output": str}` cases."""
    cases: tuple[LiteralCase, ...] = ()
    """Their literal (input, output) pairs, for hard-coding detection."""

    def payload(self) -> list[Any]:
        return [dict(t) if isinstance(t, Mapping) else t for t in self.tests]


@dataclass(frozen=True)
class CodeTask:
    """One problem's tests, whatever format they came in."""

    language: str
    """Language the program must be written in."""
    public: TestSet
    """Tests the model may have seen (Test layer)."""
    hidden: TestSet
    """Held-back tests (Verifier layer); may be empty."""
    entry_point: str | None = None
    """Function under test, for function-style tests."""
    prompt: str | None = None
    """HumanEval prompt: prepended to a completion that only writes the function body, and
    the context the tests run in (its imports and helpers, as the task defined them)."""
    setup: str | None = None
    """Code run in the program's namespace after the program, before the tests (MBPP's
    `test_setup_code`: objects the tests pass to the program)."""
    checker: Any = None
    """The task's `sandbox.Checker` for its stdin/stdout tests, or None (the reward's
    `compare` decides)."""
    solution: str | None = None
    """A known-good program in `language`, when the reference carries one: run to time the
    task's tests (`CodeRewardConfig.reference_time`), never scored."""

    @property
    def style(self) -> Literal["function", "stdin"]:
        return "stdin" if self.public.kind == "stdin" else "function"


_NOT_ENTRY = frozenset(vars(builtins)) | {"isclose", "set", "sorted"}

_CALL_HELPERS = '''
def _rtv_resolve(name):
    g = globals()
    if name in g:
        return g[name]
    if "Solution" in g:
        return getattr(g["Solution"](), name)
    raise NameError(f"the program defines no function {name!r}")

def _rtv_same(got, want):
    # exact values compare exactly (an int by value: 6.0 passes for 6, 5e17 for 5*10**17 + 3
    # does not); only an expected float allows 1e-6, relative or absolute; lists item by item
    if isinstance(got, tuple):
        got = list(got)
    if isinstance(want, float) and isinstance(got, (int, float)) and \
            not isinstance(got, bool):
        try:
            return got == want or abs(got - want) <= 1e-6 * max(1.0, abs(want))
        except OverflowError:
            return False
    if isinstance(want, list) and isinstance(got, list) and len(got) == len(want) and \
            any(isinstance(w, (float, list)) for w in want):
        return all(_rtv_same(g, w) for g, w in zip(got, want))
    if got == want:
        return True
    return isinstance(want, list) and len(want) == 1 and _rtv_same(got, want[0])
'''


def parse_reference(reference: Any, *, language: str = "python",
                    hidden_share: float = 0.5) -> CodeTask:
    """Normalize a reference; raises `BadReference` when it cannot be understood, names a
    language the sandbox does not run, or pairs assert tests with a language but Python."""
    task = _parse(reference, language, hidden_share)
    task = replace(task, checker=_checker(reference, task))
    canonical = canonical_language(task.language)
    if canonical is None:
        raise BadReference(f"language {task.language!r} is not one the sandbox runs")
    if canonical != "python" and task.public.kind == "asserts":
        raise BadReference(f"assert tests are Python-only; use stdin cases for {canonical}")
    solution = _solution(reference, canonical) if isinstance(reference, Mapping) else None
    return replace(task, language=canonical, solution=solution)


# CodeContests' `solutions.language` codes (its Problem.Solution.Language enum) we can run
_CODECONTESTS_LANGUAGES = {3: "python", 2: "cpp"}


def _solution(ref: Mapping[str, Any], language: str) -> str | None:
    """The reference solution a row carries (see the module docstring), else None."""
    explicit = ref.get("solution")
    if isinstance(explicit, str) and explicit.strip():
        return explicit
    body = ref.get("canonical_solution")
    if isinstance(body, str) and body.strip() and isinstance(ref.get("prompt"), str):
        return ref["prompt"] + body
    code = ref.get("code")
    if "test_list" in ref and isinstance(code, str) and code.strip():
        return code
    solutions = ref.get("solutions")
    if isinstance(solutions, str):  # APPS ships them as a JSON list
        try:
            solutions = json.loads(solutions)
        except json.JSONDecodeError:
            return None
    if isinstance(solutions, list):
        return next((s for s in solutions if isinstance(s, str) and s.strip()), None)
    if isinstance(solutions, Mapping):  # CodeContests: parallel lists of language and source
        pairs = zip(solutions.get("language") or [], solutions.get("solution") or [])
        return next((s for lang, s in pairs if isinstance(s, str) and s.strip()
                     and _CODECONTESTS_LANGUAGES.get(lang) == language), None)
    return None


def _parse(reference: Any, language: str, hidden_share: float) -> CodeTask:
    if isinstance(reference, (bytes, bytearray)):
        reference = reference.decode("utf-8", "replace")
    if isinstance(reference, str):
        stripped = reference.strip()
        if stripped[:1] in ("{", "["):
            try:
                reference = json.loads(stripped)
            except json.JSONDecodeError as exc:
                raise BadReference(f"reference looks like JSON but is not: {exc}") from exc
        elif "assert" in stripped:
            return _split_asserts(_assert_statements(stripped), language, hidden_share)
        else:
            raise BadReference("a string reference must be JSON or assert statements")
    if isinstance(reference, Sequence) and not isinstance(reference, str):
        return _from_list(list(reference), language, hidden_share)
    if not isinstance(reference, Mapping):
        raise BadReference(f"unsupported reference type {type(reference).__name__}")
    language = str(reference.get("language") or language)
    if "public" in reference or "hidden" in reference:
        return _explicit(reference, language)
    if "test" in reference and "entry_point" in reference:
        return _humaneval(reference, language, hidden_share)
    if "test_list" in reference:
        return _mbpp(reference, language, hidden_share)
    if "input_output" in reference:
        inner = reference["input_output"]
        inner = _json(inner, "input_output") if isinstance(inner, str) else inner
        if not isinstance(inner, Mapping):
            raise BadReference("input_output must hold an object with inputs and outputs")
        return _apps({**inner, **{k: v for k, v in reference.items() if k == "fn_name"}},
                     language, hidden_share)
    if "inputs" in reference and "outputs" in reference:
        return _apps(reference, language, hidden_share)
    if "public_tests" in reference:
        return _codecontests(reference, language)
    if "public_test_cases" in reference:
        return _livecodebench(reference, language)
    raise BadReference(f"unrecognized reference keys {sorted(map(str, reference))}")


def _checker(reference: Any, task: CodeTask) -> Any:
    """The reference's checker as a `sandbox.Checker` (see the module docstring), or None."""
    if isinstance(reference, (str, bytes, bytearray)):
        text = reference.decode("utf-8", "replace") if isinstance(reference, (bytes, bytearray)) \
            else reference
        if "checker" not in text or text.strip()[:1] != "{":
            return None
        reference = _json(text, "reference")
    if not isinstance(reference, Mapping):
        return None
    spec: Any = reference.get("checker")
    options: dict[str, Any] = {}
    if spec is None and reference.get("generated_checker") is not None:
        spec = reference["generated_checker"]
        options = {"language": "python", "args": "input answer output", "score": True}
    if spec is None:
        return None
    if isinstance(spec, str):
        options = options or {"language": "cpp" if "#include" in spec else "python"}
        spec = {"source": spec, **options}
    if not isinstance(spec, Mapping) or not isinstance(spec.get("source"), str):
        raise BadReference("checker must be its source code or {'source': ..., 'language': "
                           "..., 'args': ..., 'score': ...}")
    if task.public.kind != "stdin":
        raise BadReference("a checker judges stdin/stdout tests, not assert tests")
    unknown = sorted(set(spec) - {"source", "language", "args", "score"})
    if unknown:
        raise BadReference(f"unknown checker key {unknown[0]!r}; the keys are source, "
                           "language, args and score")
    import sandbox  # here: parsing a reference without a checker never loads the sandbox

    try:
        return sandbox.Checker(**spec)
    except (sandbox.ArgumentError, TypeError) as exc:
        raise BadReference(f"bad checker: {exc}") from exc


def _json(text: Any, what: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise BadReference(f"{what} is not valid JSON: {exc}") from exc


def _split(items: list[Any], share: float) -> tuple[list[Any], list[Any]]:
    hidden = min(math.floor(len(items) * share), len(items) - 1) if items else 0
    return items[:len(items) - hidden], items[len(items) - hidden:]


def _asserts(tests: Sequence[str], entry_point: str | None) -> TestSet:
    cases = tuple(c for t in tests for c in cases_from_asserts(t, entry_point))
    return TestSet("asserts", tuple(tests), cases)


def _stdin(cases: Sequence[Mapping[str, Any]]) -> TestSet:
    tests = tuple({"input": _text(c.get("input", "")), "output": _text(c.get("output", ""))}
                  for c in cases)
    literal = tuple(LiteralCase((t["input"],), t["output"], stdin=True) for t in tests)
    return TestSet("stdin", tests, literal)


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value) + ("\n" if value else "")
    raise BadReference(f"stdin/stdout values must be text, got {type(value).__name__}")


def _entry_from(tests: Sequence[str]) -> str | None:
    """The function the asserts test: the first one they call that is not a builtin, else
    the first one they call (MBPP 126 names its function `sum`: `assert sum(10, 15) == 6`).
    The sandbox gives the tests the program's entry point even over a builtin's name."""
    called = []
    for test in tests:
        try:
            tree = ast.parse(test)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert):
                called += [call.func.id for call in ast.walk(node.test)
                           if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)]
    return next((name for name in called if name not in _NOT_ENTRY), called[0] if called else None)


def _assert_statements(code: str, prelude: str = "") -> list[str]:
    """One test per top-level statement holding an assert; other statements (imports,
    helpers, variables) run before every later test."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise BadReference(f"test code does not parse: {exc}") from exc
    setup, tests = [prelude] if prelude else [], []
    for stmt in tree.body:
        source = ast.unparse(stmt)
        if any(isinstance(n, ast.Assert) for n in ast.walk(stmt)):
            tests.append("\n".join([*setup, source]))
        else:
            setup.append(source)
    if not tests:
        raise BadReference("the test code holds no assert statement")
    return tests


def _split_asserts(tests: list[str], language: str, share: float,
                   entry_point: str | None = None) -> CodeTask:
    entry_point = entry_point or _entry_from(tests)
    public, hidden = _split(tests, share)
    return CodeTask(language, _asserts(public, entry_point), _asserts(hidden, entry_point),
                    entry_point)


def _from_list(items: list[Any], language: str, share: float) -> CodeTask:
    if not items:
        raise BadReference("empty list of tests")
    if all(isinstance(t, str) for t in items):
        return _split_asserts(items, language, share)
    if all(isinstance(t, Mapping) and "input" in t and "output" in t for t in items):
        functional = [t for t in items if t.get("testtype") == "functional"]
        if functional:
            raise BadReference("functional test cases need metadata.func_name: pass the "
                               "LiveCodeBench row, not the bare list")
        public, hidden = _split(items, share)
        return CodeTask(language, _stdin(public), _stdin(hidden))
    raise BadReference("a list reference must hold assert strings or {input, output} cases")


def _explicit(ref: Mapping[str, Any], language: str) -> CodeTask:
    entry_point = ref.get("entry_point")
    sets = []
    for key in ("public", "hidden"):
        items = ref.get(key) or []
        if not isinstance(items, list):
            raise BadReference(f"{key!r} must be a list of tests")
        if all(isinstance(t, str) for t in items):
            sets.append(_asserts(items, entry_point))
        elif all(isinstance(t, Mapping) and "input" in t and "output" in t for t in items):
            sets.append(_stdin(items))
        else:
            raise BadReference(f"{key!r} must hold assert strings or {{input, output}} cases")
    public, hidden = sets
    if not public.tests and not hidden.tests:
        raise BadReference("no tests in 'public' or 'hidden'")
    if public.tests and hidden.tests and public.kind != hidden.kind:
        raise BadReference("public and hidden tests must be of the same kind")
    if not public.tests:
        public = TestSet(hidden.kind)
    elif not hidden.tests:
        hidden = TestSet(public.kind)
    if entry_point is None and public.kind == "asserts":
        entry_point = _entry_from([*public.tests, *hidden.tests])
    return CodeTask(language, public, hidden, entry_point)


def _humaneval(ref: Mapping[str, Any], language: str, share: float) -> CodeTask:
    entry_point, test = ref["entry_point"], ref["test"]
    if not isinstance(entry_point, str) or not isinstance(test, str):
        raise BadReference("HumanEval 'test' and 'entry_point' must be strings")
    try:
        tree = ast.parse(test)
    except SyntaxError as exc:
        raise BadReference(f"HumanEval test does not parse: {exc}") from exc
    prelude = [ast.unparse(s) for s in tree.body if not (isinstance(s, ast.FunctionDef)
                                                           and s.name == "check")]
    check = next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == "check"),
                 None)
    if check is None or not check.args.args:
        raise BadReference("HumanEval test has no check(candidate) function")
    param = check.args.args[0].arg
    setup = [*prelude, f"{param} = {entry_point}"]
    tests = []
    for stmt in check.body:
        source = ast.unparse(stmt)
        calls_candidate = any(isinstance(n, ast.Name) and n.id == param for n in ast.walk(stmt))
        if calls_candidate and any(isinstance(n, ast.Assert) for n in ast.walk(stmt)):
            tests.append("\n".join([*setup, source]))
        else:
            setup.append(source)
    if not tests:
        raise BadReference("HumanEval check() holds no assert on the candidate")
    prompt = ref.get("prompt") if isinstance(ref.get("prompt"), str) else None
    task = _split_asserts(tests, language, share, entry_point)
    return CodeTask(language, task.public, task.hidden, entry_point, prompt)


def _mbpp(ref: Mapping[str, Any], language: str, share: float) -> CodeTask:
    """test_imports go before each test (in the tests' namespace); test_setup_code runs in the
    program's, after it, as MBPP's own harness runs it (it builds the trees and objects the
    tests hand to the program)."""
    setup = ref.get("test_setup_code") or ""
    if not isinstance(setup, str):
        raise BadReference("MBPP test_setup_code must be a string")
    imports = "\n".join(i for i in ref.get("test_imports") or [] if isinstance(i, str))
    public = [t for t in ref.get("test_list") or [] if isinstance(t, str)]
    challenge = [t for t in ref.get("challenge_test_list") or [] if isinstance(t, str)]
    if not public:
        raise BadReference("MBPP test_list holds no assert strings")
    public = [f"{imports}\n{t}" if imports else t for t in public]
    challenge = [f"{imports}\n{t}" if imports else t for t in challenge]
    if challenge:
        entry_point = _entry_from(public)
        task = CodeTask(language, _asserts(public, entry_point),
                        _asserts(challenge, entry_point), entry_point)
    else:
        task = _split_asserts(public, language, share)
    return replace(task, setup=setup) if setup.strip() else task


def _calls(fn_name: str, args_list: Sequence[Any], expected: Sequence[Any]) -> TestSet:
    tests, cases = [], []
    for args, want in zip(args_list, expected):
        args = list(args) if isinstance(args, (list, tuple)) else [args]
        tests.append(f"{_CALL_HELPERS}\nassert _rtv_same(_rtv_resolve({fn_name!r})"
                     f"(*{args!r}), {want!r})")
        unwrapped = want[0] if isinstance(want, list) and len(want) == 1 else want
        cases.append(LiteralCase(tuple(args), unwrapped))
    return TestSet("asserts", tuple(tests), tuple(cases))


def _apps(ref: Mapping[str, Any], language: str, share: float) -> CodeTask:
    inputs, outputs = ref.get("inputs"), ref.get("outputs")
    if not isinstance(inputs, list) or not isinstance(outputs, list) or \
            len(inputs) != len(outputs) or not inputs:
        raise BadReference("inputs and outputs must be non-empty lists of the same length")
    fn_name = ref.get("fn_name")
    pairs = list(zip(inputs, outputs))
    public, hidden = _split(pairs, share)
    if fn_name:
        return CodeTask(language, _calls(fn_name, *zip(*public)),
                        _calls(fn_name, *zip(*hidden)) if hidden else TestSet("asserts"),
                        str(fn_name))
    return CodeTask(language, _stdin([{"input": i, "output": o} for i, o in public]),
                    _stdin([{"input": i, "output": o} for i, o in hidden]))


def _columns(block: Any, what: str) -> list[dict[str, Any]]:
    if not block:
        return []
    if not isinstance(block, Mapping) or not isinstance(block.get("input"), list) or \
            not isinstance(block.get("output"), list):
        raise BadReference(f"{what} must be {{'input': [...], 'output': [...]}}")
    return [{"input": i, "output": o} for i, o in zip(block["input"], block["output"])]


def _codecontests(ref: Mapping[str, Any], language: str) -> CodeTask:
    public = _columns(ref.get("public_tests"), "public_tests")
    hidden = _columns(ref.get("private_tests"), "private_tests") + \
        _columns(ref.get("generated_tests"), "generated_tests")
    if not public and not hidden:
        raise BadReference("CodeContests reference holds no tests")
    return CodeTask(language, _stdin(public), _stdin(hidden))


def _livecodebench(ref: Mapping[str, Any], language: str) -> CodeTask:
    lists = []
    for key in ("public_test_cases", "private_test_cases"):
        value = ref.get(key) or []
        if isinstance(value, str):  # LiveCodeBench ships JSON; compressed rows are not decoded
            value = _json(value, key)
        if not isinstance(value, list):
            raise BadReference(f"{key} must be a list of cases")
        lists.append(value)
    metadata = ref.get("metadata") or {}
    metadata = _json(metadata, "metadata") if isinstance(metadata, str) else metadata
    public, hidden = lists
    if any(c.get("testtype") == "functional" for c in public + hidden):
        fn_name = metadata.get("func_name") if isinstance(metadata, Mapping) else None
        if not fn_name:
            raise BadReference("functional LiveCodeBench cases need metadata.func_name")

        def calls(cases: list[Mapping[str, Any]]) -> TestSet:
            args = [[_json(line, "functional input") for line in str(c["input"]).splitlines()]
                    for c in cases]
            return _calls(fn_name, args, [_json(c["output"], "functional output") for c in cases])

        return CodeTask(language, calls(public), calls(hidden), fn_name)
    if not public and not hidden:
        raise BadReference("LiveCodeBench reference holds no tests")
    return CodeTask(language, _stdin(public), _stdin(hidden))
