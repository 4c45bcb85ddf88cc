"""The three-layer code reward (RTV): Rule + Test + Verifier, on the sandbox.

```yaml
domains:
  code: {rewards: [{use: rtv, weights: {rule: 0.1, tests: 0.5, hidden: 0.3, judge: 0.1}}]}
```

- Rule (`rewards.code._rules`): the program is found in the completion and checked without running
  it: syntax, length, forbidden patterns, hard-coded answers. 1 if every rule holds, else 0.
- Test: pass fraction on the public tests, via `sandbox.run_tests_many` (one batch, in
  parallel; identical (program, tests) pairs run once).
- Verifier: pass fraction on the hidden tests, plus an optional judge (any `Reward` or
  callable, e.g. a GenRM scoring correctness/style/efficiency with a rubric).

The score is the weighted sum of the layers that apply to the sample. A layer that does not
apply (no judge configured or the judge abstained, a reference without hidden tests) has its
weight redistributed over the others in proportion; `parts` shows every layer's value (None
when absent) and the effective weight under `weight/<layer>`. No code or a syntax error
scores 0; with `gate: true` so does a rule violation or hard-coding.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rewards.code._config import LAYERS, parse_options, resolve_judge
from rewards.code._reference import BadReference, CodeTask, TestSet, parse_reference
from rewards.code._rules import RuleResult, check_program, extract_program, prompt_helpers
from rewards.errors import ConfigError, sandbox_errors
from rewards.types import Sample, Score

__all__ = ["CodeReward"]

log = logging.getLogger("rewards.code")


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

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        items = [self._rule_layer(s) for s in samples]
        self._test_layers(items)
        self._judge_layer(items)
        return [item.done or self._combine(item) for item in items]

    # Rule layer ----------------------------------------------------------------------------

    def _rule_layer(self, sample: Sample) -> _Item:
        item = _Item(sample)
        try:
            item.task = parse_reference(sample.reference, language=self.config.language,
                                        hidden_share=self.config.hidden_share)
        except BadReference as exc:
            log.debug("rtv: bad reference: %s", exc)
            item.done = Score(None, "bad_reference", self._parts({}))
            return item
        task = item.task
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

    def _failed(self, item: _Item, reason: str) -> Score:
        """No runnable program: every layer that applies scores 0."""
        assert item.task is not None
        values = {"rule": 0.0, "tests": 0.0 if item.task.public.tests else None,
                  "hidden": 0.0 if item.task.hidden.tests else None,
                  "judge": 0.0 if self.judge is not None else None}
        return Score(0.0, reason, self._parts(values))

    # Test and Verifier layers --------------------------------------------------------------

    def _test_layers(self, items: list[_Item]) -> None:
        """Run every (program, tests) pair once, all in parallel."""
        jobs: dict[str, tuple[str, CodeTask, TestSet]] = {}
        wanted: list[tuple[_Item, str, str]] = []
        for item in items:
            if item.done is not None or item.task is None or item.program is None:
                continue
            for layer, tests in (("tests", item.task.public), ("hidden", item.task.hidden)):
                if tests.tests:
                    key = _job_key(item.program, item.task, tests)
                    jobs.setdefault(key, (item.program, item.task, tests))
                    wanted.append((item, layer, key))
        reports = self._run(jobs)
        for item, layer, key in wanted:
            item.reports[layer] = reports[key]

    def _run(self, jobs: Mapping[str, tuple[str, CodeTask, TestSet]]) -> dict[str, Any]:
        if not jobs:
            return {}
        import sandbox

        specs = []
        for program, task, tests in jobs.values():
            n = len(tests.tests)
            limits = sandbox.Limits(test_wall_s=self.config.time_limit_s,
                                    wall_s=self.config.time_limit_s * n + 10.0,
                                    cpu_s=self.config.time_limit_s * n + 10.0,
                                    memory_bytes=int(self.config.memory_mb) << 20)
            specs.append({"code": program, "tests": tests.payload(), "language": task.language,
                          "entry_point": task.entry_point, "limits": limits,
                          "compare": self.config.compare, "float_tol": self.config.float_tol,
                          "checker": task.checker, **_test_context(task, tests)})
        with sandbox_errors("rtv: the sandbox cannot run programs"):
            reports = sandbox.run_tests_many(specs, max_workers=self.config.max_workers)
        return dict(zip(jobs, reports))

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
        values: dict[str, float | None] = {
            "rule": 1.0 if item.rule.passed else 0.0,
            "tests": None if public is None else float(public.pass_fraction),
            "hidden": None if hidden is None else float(hidden.pass_fraction),
            "judge": item.judge,
        }
        reason = _reason(item.rule, [r for r in (public, hidden) if r is not None])
        parts = self._parts(values)
        if reason == "sandbox_error":
            return Score(None, reason, parts)
        if reason == "syntax_error":  # a compiled language's compiler refused the program
            return self._failed(item, reason)
        if self.config.gate and not item.rule.passed:
            return Score(0.0, reason, parts)
        value = sum(parts[f"weight/{k}"] * v for k, v in values.items() if v is not None)
        return Score(float(value), reason, parts)

    def _parts(self, values: Mapping[str, float | None]) -> dict[str, float | None]:
        """Layer values plus effective weights: absent layers' weight goes to the others."""
        raw = {k: getattr(self.config.weights, k) for k in LAYERS}
        total = sum(raw[k] for k in LAYERS if values.get(k) is not None)
        parts: dict[str, float | None] = {k: values.get(k) for k in LAYERS}
        for k in LAYERS:
            present = values.get(k) is not None and total > 0
            parts[f"weight/{k}"] = raw[k] / total if present else 0.0
        return parts


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
    try:
        prompt = ast.parse(task.prompt)
    except SyntaxError:
        return program
    helpers = prompt_helpers(task.prompt, task.entry_point)
    context = [ast.unparse(n) for n in prompt.body
               if isinstance(n, (ast.Import, ast.ImportFrom)) or
               (isinstance(n, definitions) and n.name in helpers and n.name not in defined)]
    return "\n\n".join([*context, program]) if context else program


def _job_key(program: str, task: CodeTask, tests: TestSet) -> str:
    return json.dumps([program, task.language, task.entry_point, tests.kind,
                       tests.payload(), _test_context(task, tests), repr(task.checker)],
                      sort_keys=True, default=repr)
