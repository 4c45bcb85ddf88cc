"""Checkers (special judges) for stdin/stdout tests with more than one right output: the task's
own program reads the test's input, the solution's output and the expected answer as files
and gives the verdict.

Conventions followed:
- testlib (Codeforces/Polygon, and the judges built on it, e.g. DMOJ's `testlib` contrib
  module): `checker <input> <output> <answer>`, where output is the contestant's and answer
  the jury's; the exit code is the verdict: 0 OK, 1 WA, 2 PE, 3 FAIL (the checker itself or
  the jury's answer is broken), 7 points (`quitp`), with `points <x>` on stderr.
- open-r1/codeforces' `generated_checker`: `python checker.py input.txt correct_output.txt
  solution_output.txt` (answer before output) printing its score on stdout (`1` accepted,
  `0` not): `Checker(args="input answer output", score=True)`.

Isolation: the solution's run (one jail, `run_tests`) never holds the expected outputs: it
only reports each test's output through the harness's nonce-framed stream. Each test's
check is then a fresh jail of its own holding that test's three files, read-only, and the
checker: it sees no other test's answer, and nothing of the solution's run outlives its jail,
so the solution reaches the checker only through its output file. A C/C++ checker is compiled
once, before the solution runs (cached by its source's hash, like programs), not per test.

Verdicts, never a pass by default: exit 0 (or a score of 1) passes; 1 and 2 (or a score below
1) fail; anything else, a crash, a timeout, or a score that is missing or outside [0, 1] is a
checker failure: an `error` saying "checker failed". A Python checker that raises exits with
1 too: its traceback on stderr tells that crash from a wrong answer. A partial score is a `fail` whose
message gives it: `TestResult` has no partial credit, so a test passes iff its score is 1.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from sandbox._cache import remove_tree
from sandbox._classify import to_execution
from sandbox._errors import ArgumentError
from sandbox._jail import check_nsjail, run_jail
from sandbox._languages import language_spec
from sandbox._parallel import default_workers
from sandbox._types import Execution, Limits, TestReport, TestResult
from sandbox._workspace import compile_program, workspace

__all__ = ["CHECKED", "Checker", "CheckerArgs", "PreparedChecker", "checker_output_room",
           "judged", "prepare_checker"]

CheckerArgs = Literal["input output answer", "input answer output"]
"""The order of the checker's three file arguments: testlib's (input, the solution's output,
the expected answer) or open-r1/codeforces' `generated_checker` (input, answer, output)."""

CHECKED = "checker"
"""The outcome the harness reports for a test whose output awaits the checker (its message
the output, hex-encoded). Not a `TestOutcome`: never a pass until the checker says so."""

_FILES = {"input": "input.txt", "output": "output.txt", "answer": "answer.txt"}
_VERDICTS = {1: "wrong answer", 2: "presentation error"}
_FAIL = "checker failed"
_TRACEBACK = "Traceback (most recent call last):"


@dataclass(frozen=True)
class Checker:
    """A task's checker program: `run_tests(..., checker=Checker(source, "cpp"))`."""

    source: str
    """The checker's source code."""
    language: str = "python"
    """Any language the sandbox runs (`python`, `cpp`, `c`, ...); compiled ones are
    compiled once per source (cached by hash)."""
    args: CheckerArgs = "input output answer"
    """Order of the three file paths it gets on its command line (`CheckerArgs`)."""
    score: bool = False
    """False: the verdict is the exit code (testlib's). True: the checker prints a score in
    [0, 1] as the last token of its stdout (open-r1's generated checkers print 1 or 0)."""
    wall_s: float = 10.0
    """Wall-clock (and CPU) seconds of one check; past it, the check is a checker failure."""
    files: Mapping[str, str | bytes] = field(default_factory=dict)
    """Extra files beside the source (a `testlib.h` the checker includes, if you have it)."""

    def __post_init__(self) -> None:
        if not isinstance(self.source, str) or not self.source.strip():
            raise ArgumentError("Checker.source must be the checker's (non-empty) code")
        language_spec(self.language)
        if self.args not in get_args(CheckerArgs):
            raise ArgumentError(f"Checker.args must be one of "
                                f"{', '.join(map(repr, get_args(CheckerArgs)))}, not "
                                f"{self.args!r}")
        if not isinstance(self.score, bool):
            raise ArgumentError(f"Checker.score must be true or false, got {self.score!r}")
        if not isinstance(self.wall_s, (int, float)) or self.wall_s <= 0:
            raise ArgumentError(f"Checker.wall_s must be positive, got {self.wall_s!r}")


def checker_output_room(prepared: PreparedChecker | None, limits: Limits, count: int) -> int:
    """Extra bytes of the harness's stream when it carries every test's output to the
    checker (hex: twice each output, which `limits.output_bytes` caps, plus framing)."""
    return 0 if prepared is None else count * (2 * limits.output_bytes + 128)


def prepare_checker(checker: Checker | None, style: str, cases: Sequence[Mapping[str, str]],
                    limits: Limits) -> PreparedChecker | None:
    """None without a checker; else the checker ready to judge `cases` (compiled now, once,
    before the solution runs: a checker that does not compile raises ArgumentError)."""
    if checker is None:
        return None
    if not isinstance(checker, Checker):
        raise ArgumentError(f"checker must be a sandbox.Checker, not {type(checker).__name__}")
    if style != "io":
        raise ArgumentError("a checker judges stdin/stdout tests, not assert or check tests")
    return PreparedChecker(checker, cases, limits)


class PreparedChecker:
    """One task's checker, compiled, with the expected answers its tests are judged by."""

    def __init__(self, checker: Checker, cases: Sequence[Mapping[str, str]],
                 limits: Limits) -> None:
        self.checker = checker
        self.spec = language_spec(checker.language)
        self.inputs = [str(c["input"]) for c in cases]
        self.answers = [str(c["output"]) for c in cases]
        self.limits = dataclasses.replace(limits, wall_s=checker.wall_s, cpu_s=checker.wall_s,
                                          output_bytes=64 << 10)
        self.binds: list[tuple[str, str]] = []
        check_nsjail()
        box = workspace(checker.source, self.spec, checker.files)
        # the compiled binary may live in this folder (no cache): it goes with this object
        self._cleanup = weakref.finalize(self, remove_tree, box.root)
        failed = compile_program(box, self.spec, limits)
        if failed is not None:
            self._cleanup()
            raise ArgumentError(f"the checker does not compile: "
                                f"{failed.stderr.strip()[-2000:]}")
        self.binds = [b for b in box.binds if b[1] == "/work/prog"]

    def blind(self, cases: Sequence[Mapping[str, str]]) -> list[dict[str, str]]:
        """The cases the solution's jail gets: inputs only (it never holds the answers)."""
        return [{"input": str(c["input"]), "output": ""} for c in cases]

    def judge(self, report: TestReport, outputs: Mapping[int, bytes | None]) -> TestReport:
        """`report` with each test that ran cleanly judged by the checker (in parallel, a
        jail per test); the other verdicts (errors, timeouts) stay as the run gave them."""
        try:
            todo = [r for r in report.results if r.outcome == CHECKED]
            if not todo:
                return report
            workers = max(1, min(default_workers(), len(todo)))
            with ThreadPoolExecutor(workers, thread_name_prefix="sandbox-checker") as pool:
                judged = dict(zip((r.index for r in todo),
                                  pool.map(self._check, todo, [outputs.get(r.index) for r in todo])))
            results = tuple(judged.get(r.index, r) for r in report.results)
            return dataclasses.replace(report, results=results)
        finally:
            self._cleanup()

    def _check(self, result: TestResult, output: bytes | None) -> TestResult:
        if output is None:
            return dataclasses.replace(result, outcome="error",
                                       message="no output reached the checker")
        index = result.index
        files = {_FILES["input"]: self.inputs[index], _FILES["output"]: output,
                 _FILES["answer"]: self.answers[index], **self.checker.files}
        argv = [*self.spec.run_argv(self.limits.memory_bytes),
                *(f"/work/{_FILES[name]}" for name in self.checker.args.split())]
        with workspace(self.checker.source, self.spec, {}, extra=files) as box:
            raw = run_jail(argv, self.limits, stdin=b"", output_bytes=self.limits.output_bytes,
                           binds=[*box.binds, *self.binds],
                           address_space_extra=self.spec.address_space_extra)
        outcome, message = checker_verdict(to_execution(raw, self.limits), self.checker)
        return dataclasses.replace(result, outcome=outcome, message=message)


def checker_verdict(run: Execution, checker: Checker) -> tuple[Any, str]:
    """(outcome, message) from one finished check (see the module docstring)."""
    said = _last_line(run.stderr) or _last_line(run.stdout)
    if run.status == "timeout":
        return "error", f"{_FAIL}: it ran past {checker.wall_s:g} s"
    if run.status not in ("ok", "runtime_error") or run.exit_code is None:
        why = f"killed by signal {run.signal}" if run.signal else run.status
        return "error", f"{_FAIL}: {why}" + (f" ({said})" if said else "")
    code = run.exit_code
    if code == 1 and language_spec(checker.language).name == "python" \
            and _TRACEBACK in run.stderr:
        return "error", f"{_FAIL}: it raised {said}"  # Python's exit code 1, not testlib's WA
    if checker.score:
        if code in _VERDICTS:
            return "fail", f"checker: {_VERDICTS[code]}" + (f": {said}" if said else "")
        if code != 0:
            return "error", f"{_FAIL}: exit code {code}" + (f" ({said})" if said else "")
        tokens = run.stdout.split()
        return _scored(tokens[-1] if tokens else "", "the last token of its stdout")
    if code == 0:
        return "pass", ""
    if code in _VERDICTS:
        return "fail", f"checker: {_VERDICTS[code]}" + (f": {said}" if said else "")
    if code == 7:  # testlib's quitp: "points <x>" on stderr
        points = [line.split()[1] for line in run.stderr.splitlines()
                  if line.startswith("points ") and len(line.split()) > 1]
        return _scored(points[0] if points else "", "its 'points' line")
    why = "FAIL (exit code 3)" if code == 3 else f"exit code {code}"
    return "error", f"{_FAIL}: {why}" + (f": {said}" if said else "")


def _scored(token: str, where: str) -> tuple[Any, str]:
    try:
        score = float(token)
    except ValueError:
        return "error", f"{_FAIL}: no score in {where} ({token[:50]!r})"
    if not 0.0 <= score <= 1.0:  # NaN fails this too
        return "error", f"{_FAIL}: score {token[:50]} is outside [0, 1]"
    if score >= 1.0:
        return "pass", ""
    return "fail", f"checker: score {score:g} (a test passes at 1)"


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1].strip()[:500] if lines else ""


def judged(prepared: PreparedChecker | None, report: TestReport,
           outputs: Mapping[int, bytes | None]) -> TestReport:
    """`report` as the checker judges it (unchanged without one); `outputs`: the output of
    each test awaiting the checker (None: none came)."""
    return report if prepared is None else prepared.judge(report, outputs)
