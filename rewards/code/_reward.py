"""The three-layer code reward (RTV): Rule + Test + Verifier, on the sandbox.

```yaml
domains:
  code: {rewards: [{use: rtv, weights: {rule: 0.1, tests: 0.5, hidden: 0.3, judge: 0.1}}]}
```

- Rule (`rewards.code._rules`): the program is found in the completion and checked without running
  it: syntax, length, forbidden patterns, hard-coded answers. 1 if every rule holds, else 0.
- Test: pass fraction on the public tests (or, with `pass_mode: all`, 1 when they all
  pass), via `sandbox.run_tests_many` (one batch, in parallel; identical (program, tests)
  pairs run once).
- Verifier: the same on the hidden tests, plus an optional judge (any `Reward` or
  callable, e.g. a GenRM scoring correctness/style/efficiency with a rubric).

A program runs once against its public then its hidden tests: a test that times out ends
that run (the tests after it count as timeouts), `program_time_limit_s` bounds the whole
run, and `reference_time` derives each test's own limit from the task's reference solution.

The score is the weighted sum of the layers that apply to the sample. A layer that does not
apply (no judge configured or the judge abstained, a reference without hidden tests) has its
weight redistributed over the others in proportion; `parts` shows every layer's value (None
when absent) and the effective weight under `weight/<layer>`. No code or a syntax error
scores 0; with `gate: true` so does a rule violation or hard-coding.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rewards.cache import byte_cache
from rewards.code._config import LAYERS, CodeRewardConfig, parse_options, resolve_judge
from rewards.code._reference import BadReference, CodeTask, TestSet, parse_reference
from rewards.code._rules import RuleResult, check_program, extract_program, task_helpers
from rewards.errors import ConfigError, sandbox_errors
from rewards.types import Sample, SampleCheck, Score

__all__ = ["CodeReward"]

log = logging.getLogger("rewards.code")

MAX_REMEMBERED_LIMITS = 100_000
"""Tasks whose reference-derived per-test limits a `CodeReward` remembers (oldest dropped)."""


# --- scoring -------------------------------------------------------------------------------


@dataclass
class _Item:
    """One sample on its way through the layers."""

    sample: Sample
    task: CodeTask | None = None
    program: str | None = None
    rule: RuleResult | None = None
    done: Score | None = None
    reports: dict[str, Any] = field(default_factory=dict)
    judge: float | None = None


class CodeReward:
    """The RTV code reward: `CodeReward(**options)`, options as in `CodeRewardConfig`."""

    name = "rtv"
    kind = "verifiable"

    def __init__(self, **options: Any) -> None:
        self.config = parse_options(options)
        self.rules = self.config.rule_config()
        self.judge = resolve_judge(self.config)
        # task digest -> seconds each test may take, public then hidden
        self._reference_limits: dict[str, tuple[float, ...]] = {}

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        tasks: dict[Hashable, CodeTask | BadReference] = {}  # a batch's G samples per prompt
        items = [_Item(s) for s in samples]
        # the Rule layer runs item by item as the sandbox takes the programs it passed: the
        # runs of the first programs overlap the Rule layer of the later ones
        self._test_layers(self._rule_layer(item, tasks) for item in items)
        self._judge_layer(items)
        return [item.done or self._combine(item) for item in items]

    def check(self, samples: Sequence[Sample]) -> list[SampleCheck]:
        """What `score` will do before anything runs (`rewards check`): the Rule layer's own
        steps (the reference parsed, the program found and checked), nothing in the
        sandbox. `answer` is the program's first line, None when the Rule layer found no
        program (`no_code`), with the reason in `detail`."""
        tasks: dict[Hashable, CodeTask | BadReference] = {}
        checks = []
        for sample in samples:
            item = self._rule_layer(_Item(sample), tasks)
            if item.task is None:
                bad = self._task(sample.reference, tasks)
                checks.append(SampleCheck(None, None, "bad_reference", str(bad)))
                continue
            task = item.task
            tests = (f"{len(task.public.tests)} public + {len(task.hidden.tests)} hidden "
                     f"{(task.public if task.public.tests else task.hidden).kind} tests "
                     f"({task.language})")
            found = item.program is not None and item.rule is not None \
                and item.rule.reason != "no_code"
            why = "" if item.rule is None else "; ".join(item.rule.violations)
            if not found:
                why = f"no program taken ({why or 'no code in the completion'})"
            checks.append(SampleCheck(tests, _first_line(item.program) if found else None,
                                      None, why))
        return checks

    # Rule layer ----------------------------------------------------------------------------

    def _rule_layer(self, item: _Item, tasks: dict[Hashable, CodeTask | BadReference]) -> _Item:
        sample = item.sample
        task = self._task(sample.reference, tasks)
        if isinstance(task, BadReference):
            log.debug("rtv: bad reference: %s", task)
            item.done = Score(None, "bad_reference", self._parts({}))
            return item
        item.task = task
        if not isinstance(sample.completion, str):
            item.done = self._failed(item, "no_code")
            return item
        extraction = extract_program(sample.completion, language=task.language,
                                     block=self.config.block, unfenced=self.config.unfenced)
        if extraction.program is None:
            item.rule = RuleResult("no_code")
            item.done = self._failed(item, "no_code")
            return item
        item.program = _complete_humaneval(extraction.program, task)
        item.rule = check_program(item.program, config=self.rules, language=task.language,
                                  style=task.style, fenced=extraction.fenced,
                                  public=task.public.cases, hidden=task.hidden.cases,
                                  prompt=task.prompt, entry_point=task.entry_point)
        if item.rule.reason in ("no_code", "syntax_error"):
            item.done = self._failed(item, item.rule.reason)
        return item

    def _task(self, reference: Any,
              tasks: dict[Hashable, CodeTask | BadReference]) -> CodeTask | BadReference:
        """The reference parsed, once per distinct reference of a `score` call (its samples
        share the `CodeTask`, which is frozen)."""
        key = _reference_key(reference)
        found = tasks.get(key) if key is not None else None
        if found is None:
            try:
                found = parse_reference(reference, language=self.config.language,
                                        hidden_share=self.config.hidden_share)
            except BadReference as exc:
                found = exc
            if key is not None:
                tasks[key] = found
        return found

    def _failed(self, item: _Item, reason: str) -> Score:
        """No runnable program: every layer that applies scores 0."""
        assert item.task is not None
        values = {"rule": 0.0, "tests": 0.0 if item.task.public.tests else None,
                  "hidden": 0.0 if item.task.hidden.tests else None,
                  "judge": 0.0 if self.judge is not None else None}
        return Score(0.0, reason, self._parts(values))

    # Test and Verifier layers --------------------------------------------------------------

    def _test_layers(self, items: Iterable[_Item]) -> None:
        """Run each distinct program once against its public and hidden tests together (a
        timeout in the public tests ends the run before the hidden ones), all in parallel,
        each as soon as `items` yields it."""
        if self.config.reference_time is not None:  # every limit known before the first run
            items = list(items)
            self._time_references([i.task for i in items
                                   if _runnable(i) and i.task is not None])
        jobs: dict[str, int] = {}
        wanted: list[tuple[_Item, int]] = []

        def specs() -> Iterator[dict[str, Any]]:
            for item in items:
                if not _runnable(item):
                    continue
                assert item.task is not None and item.program is not None
                key = _job_key(item.program, item.task)
                if key not in jobs:
                    jobs[key] = len(jobs)
                    yield self._spec(item.program, item.task)
                wanted.append((item, jobs[key]))

        reports = self._run_specs(specs())
        for item, key in wanted:
            assert item.task is not None
            public, hidden = _split_report(reports[key], len(item.task.public.tests))
            if item.task.public.tests:
                item.reports["tests"] = public
            if item.task.hidden.tests:
                item.reports["hidden"] = hidden

    def _time_references(self, tasks: Sequence[CodeTask]) -> None:
        """With `reference_time`: run the reference solution of each task not timed before,
        once, and remember the limit of each test its times give (`ReferenceTime.limits`):
        a test it passed gets `max(floor_s, factor x its time)`, at most `time_limit_s`; a
        test it failed or did not run (or every test, if it does not compile) gets
        `time_limit_s`."""
        rule = self.config.reference_time
        if rule is None:
            return
        todo = {_task_digest(t): (t.solution, t) for t in tasks if t.solution is not None}
        todo = {k: job for k, job in todo.items() if k not in self._reference_limits}
        if not todo:
            return
        for key, report in self._run(todo).items():
            if report.status == "sandbox_error":  # infrastructure for this run: try again later
                continue
            times: list[float | None] = [None] * len(_all_tests(todo[key][1]).tests)
            if report.status != "compile_error":
                for result in report.results:
                    if result.passed and result.index < len(times):
                        times[result.index] = result.wall_s
            if report.status == "compile_error" or report.passed < report.total:
                log.debug("rtv: reference solution %s: %s, %d/%d tests pass", key[:12],
                          report.status, report.passed, report.total)
            while len(self._reference_limits) >= MAX_REMEMBERED_LIMITS:
                del self._reference_limits[next(iter(self._reference_limits))]
            self._reference_limits[key] = rule.limits(times, self.config.time_limit_s)

    def test_limits(self, task: CodeTask) -> tuple[float, ...] | None:
        """Seconds each test of `task` may take (public then hidden), derived from its
        reference solution when `reference_time` is set and it was timed; None otherwise
        (every test then gets `time_limit_s`)."""
        if self.config.reference_time is None or task.solution is None:
            return None
        return self._reference_limits.get(_task_digest(task))

    def per_test_limit(self, task: CodeTask) -> float:
        """The most seconds a test of `task` may take: the largest of `test_limits`, else
        `time_limit_s`."""
        return max(self.test_limits(task) or (self.config.time_limit_s,))

    def _run(self, jobs: Mapping[str, tuple[str, CodeTask]]) -> dict[str, Any]:
        if not jobs:
            return {}
        reports = self._run_specs(self._spec(program, task) for program, task in jobs.values())
        return dict(zip(jobs, reports))

    def _spec(self, program: str, task: CodeTask) -> dict[str, Any]:
        """The `sandbox.run_tests` arguments of one program's run of all its tests."""
        tests = _all_tests(task)
        own = self.test_limits(task)
        limits = _limits(self.config, own or (self.config.time_limit_s,) * len(tests.tests))
        spec = {"code": program, "tests": tests.payload(), "language": task.language,
                "entry_point": task.entry_point, "limits": limits,
                "compare": self.config.compare, "float_tol": self.config.float_tol,
                "checker": task.checker, **_test_context(task, tests)}
        if own is not None:
            spec["test_limits"] = list(own)
        return spec

    def _run_specs(self, specs: Iterable[dict[str, Any]]) -> list[Any]:
        """The reports of `specs`, run in parallel, each started as soon as it is produced."""
        import sandbox

        with sandbox_errors("rtv: the sandbox cannot run programs"):
            return sandbox.run_tests_many(specs, max_workers=self.config.max_workers,
                                          chunk_tests=self.config.chunk_tests)

    def _judge_layer(self, items: list[_Item]) -> None:
        if self.judge is None:
            return
        todo = [item for item in items if item.done is None and item.program is not None]
        if not todo:
            return
        meta_extra = {"rubric": self.config.rubric} if self.config.rubric else {}
        judged = [replace(i.sample, meta={**i.sample.meta, **meta_extra, "program": i.program})
                  for i in todo]
        scores = self.judge.score(judged)
        if len(scores) != len(todo):
            raise ConfigError(f"rtv: judge returned {len(scores)} scores for {len(todo)} samples")
        for item, s in zip(todo, scores):
            item.judge = s.value

    # Combination ---------------------------------------------------------------------------

    def _combine(self, item: _Item) -> Score:
        assert item.rule is not None
        public, hidden = item.reports.get("tests"), item.reports.get("hidden")
        fractions = {"tests": None if public is None else float(public.pass_fraction),
                     "hidden": None if hidden is None else float(hidden.pass_fraction)}
        values: dict[str, float | None] = {
            "rule": 1.0 if item.rule.passed else 0.0,
            "tests": self._layer_value(public),
            "hidden": self._layer_value(hidden),
            "judge": item.judge,
        }
        reason = _reason(item.rule, [r for r in (public, hidden) if r is not None])
        parts = self._parts(values, fractions)
        if reason == "sandbox_error":
            return Score(None, reason, parts)
        if reason == "syntax_error":  # a compiled language's compiler refused the program
            return self._failed(item, reason)
        if self.config.gate and not item.rule.passed:
            return Score(0.0, reason, parts)
        if self.config.pass_mode == "all":  # 1 only when every layer that applies passes
            return Score(1.0 if _all_pass(values) else 0.0, reason, parts)
        value = sum((parts[f"weight/{k}"] or 0.0) * v for k, v in values.items() if v is not None)
        return Score(float(value), reason, parts)

    def _layer_value(self, report: Any) -> float | None:
        """A test layer's value by `pass_mode`: its pass fraction, or 1/0 for all passing."""
        if report is None:
            return None
        if self.config.pass_mode == "all":
            return 1.0 if report.total and report.passed == report.total else 0.0
        return float(report.pass_fraction)

    def _parts(self, values: Mapping[str, float | None],
               fractions: Mapping[str, float | None] | None = None) -> dict[str, float | None]:
        """Layer values plus effective weights: absent layers' weight goes to the others.
        With `pass_mode: all` also the test layers' pass fractions (`fractions`, else the
        values: a program that never ran has 0 or None either way)."""
        raw = {k: getattr(self.config.weights, k) for k in LAYERS}
        total = sum(raw[k] for k in LAYERS if values.get(k) is not None)
        parts: dict[str, float | None] = {k: values.get(k) for k in LAYERS}
        for k in LAYERS:
            present = values.get(k) is not None and total > 0
            parts[f"weight/{k}"] = raw[k] / total if present else 0.0
        if self.config.pass_mode == "all":
            fractions = values if fractions is None else fractions
            parts["tests_fraction"] = fractions.get("tests")
            parts["hidden_fraction"] = fractions.get("hidden")
        return parts


JUDGE_PASS = 0.5
"""Under `pass_mode: all`, the judge layer passes at this value or above."""


def _all_pass(values: Mapping[str, float | None]) -> bool:
    """Every layer that applies passes: the rule layer and the test layers at 1, the judge
    at `JUDGE_PASS` or above."""
    return all(v >= (JUDGE_PASS if k == "judge" else 1.0) for k, v in values.items()
               if v is not None)


def _first_line(program: str | None) -> str | None:
    """A program's first non-blank line (cut at 60 characters) and its size, for people."""
    lines = [line for line in (program or "").splitlines() if line.strip()]
    if not lines:
        return None
    first = lines[0].strip()
    size = "1 line" if len(lines) == 1 else f"{len(lines)} lines"
    return (first[:60] + "...") if len(first) > 60 else f"{first} ({size})"


def _runnable(item: _Item) -> bool:
    """The Rule layer left the item a program and its task has tests to run."""
    return item.done is None and item.task is not None and item.program is not None and \
        bool(item.task.public.tests or item.task.hidden.tests)


_STATUS_REASONS = ("sandbox_error", "timeout", "memory_limit", "output_limit")


def _reason(rule: RuleResult, reports: Sequence[Any]) -> str:
    """Why, in order: rule failures, then infrastructure, then limits, then failed tests."""
    statuses = {r.status for r in reports}
    if "compile_error" in statuses:
        return "syntax_error"
    if rule.reason != "ok":
        return rule.reason
    for status in _STATUS_REASONS:
        if status in statuses:
            return status
    outcomes = {t.outcome for r in reports for t in r.results}
    if all(r.passed == r.total for r in reports):
        return "ok"
    if "timeout" in outcomes:
        return "timeout"
    if outcomes == {"error"}:
        return "runtime_error"
    return "tests_failed"


def _test_context(task: CodeTask, tests: TestSet) -> dict[str, str]:
    """What the sandbox runs around function-style tests: the prompt in the tests' namespace
    (its helpers and imports as the task defined them) and the setup code in the program's."""
    if tests.kind != "asserts":
        return {}
    context = {"setup": task.setup} if task.setup else {}
    if task.prompt and task.language == "python" and _parses(task.prompt):
        context["context"] = task.prompt
    return context


@byte_cache(16 << 20)  # a task's prompt, once per task instead of per program
def _parses(source: str) -> bool:
    import ast

    try:
        ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _complete_humaneval(program: str, task: CodeTask) -> str:
    """HumanEval completions may write only the function body: then the prompt goes first.
    A full program gets what the prompt gives it and it may rely on: the prompt's imports
    (`from typing import List`) and helper functions (`is_palindrome` in HumanEval/10)."""
    if not task.prompt or not task.entry_point or task.language != "python":
        return program
    import ast

    try:
        tree = ast.parse(program)
    except SyntaxError:  # a body-only continuation does not parse on its own
        return task.prompt + program
    definitions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    defined = {n.name for n in tree.body if isinstance(n, definitions)}
    if task.entry_point not in defined:
        return task.prompt + program
    given = _prompt_gives(task.prompt, task.entry_point)
    if given is None:
        return program
    context = [source for name, source in given if name is None or name not in defined]
    return "\n\n".join([*context, program]) if context else program


@byte_cache(16 << 20)  # once per task, not per program
def _prompt_gives(prompt: str, entry_point: str) -> tuple[tuple[str | None, str], ...] | None:
    """What a full program gets from the prompt, in the prompt's order, as (name, source):
    its imports (name None) and its helper definitions (by name: the program's own
    definition of that name wins); None when the prompt does not parse."""
    import ast

    try:
        tree = ast.parse(prompt)
    except SyntaxError:
        return None
    definitions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    helpers = task_helpers(prompt, entry_point)
    return tuple((None, ast.unparse(n)) if isinstance(n, (ast.Import, ast.ImportFrom)) else
                 (n.name, ast.unparse(n)) for n in tree.body
                 if isinstance(n, (ast.Import, ast.ImportFrom)) or
                 (isinstance(n, definitions) and n.name in helpers))


def _all_tests(task: CodeTask) -> TestSet:
    """The public then the hidden tests, as one run takes them (both are of one kind)."""
    kind = task.public.kind if task.public.tests else task.hidden.kind
    return TestSet(kind, task.public.tests + task.hidden.tests,
                   task.public.cases + task.hidden.cases)


def _split_report(report: Any, public: int) -> tuple[Any, Any]:
    """The public and the hidden tests' parts of one run's report (indices from 0 in each;
    the run's execution in both)."""
    import sandbox

    results = report.results
    if not results:  # a job the sandbox refused: both layers carry its execution
        return report, report
    return (sandbox.TestReport(results[:public], report.execution),
            sandbox.TestReport(tuple(replace(r, index=r.index - public)
                                     for r in results[public:]), report.execution))


def _limits(config: CodeRewardConfig, per_test: Sequence[float]) -> Any:
    """The sandbox limits of one program's run of its tests, `per_test` giving each one's
    seconds: the jail's wall (and CPU) limit covers them all, or the program's budget."""
    import sandbox

    budget = config.program_time_limit_s
    whole = (budget if budget is not None else sum(per_test)) + 10.0
    return sandbox.Limits(test_wall_s=max(per_test, default=config.time_limit_s),
                          program_wall_s=budget, wall_s=whole, cpu_s=whole,
                          memory_bytes=int(config.memory_mb) << 20)


def _job_key(program: str, task: CodeTask) -> str:
    tests = _all_tests(task)
    return json.dumps([program, task.language, task.entry_point, tests.kind,
                       tests.payload(), _test_context(task, tests), repr(task.checker)],
                      sort_keys=True, default=repr)


_EXACT = (str, bytes, int, bool, type(None))
_MAX_KEY_DEPTH = 32


def _reference_key(value: Any, depth: int = 0) -> Hashable | None:
    """A hashable stand-in for a reference: two references share one only when they are
    the same data, type for type (`True` is not `1`, `1.0` not `1`, a tuple not a list),
    so that `parse_reference` reads them alike. None for anything else (a Mapping that is
    not a dict, an object of its own): such a reference is parsed for each sample."""
    kind = type(value)
    if kind in _EXACT:
        return kind, value
    if kind is float:
        return kind, repr(value)  # -0.0 and 0.0 are equal, but not the same test
    if depth >= _MAX_KEY_DEPTH or kind not in (dict, list, tuple):
        return None
    if kind is dict:
        pairs = [(_reference_key(k, depth + 1), _reference_key(v, depth + 1))
                 for k, v in value.items()]
        if any(k is None or v is None for k, v in pairs):
            return None
        return kind, tuple(pairs)
    items = [_reference_key(v, depth + 1) for v in value]
    return None if any(v is None for v in items) else (kind, tuple(items))


def _task_digest(task: CodeTask) -> str:
    """Names a task's tests (not its program): the key of its reference-derived limit."""
    return hashlib.sha256(_job_key(task.solution or "", task).encode()).hexdigest()
