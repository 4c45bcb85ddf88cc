"""Parallelism: how many jails run at once by default (the workers of `run_many` and
`run_tests_many`, and the size of each warm pool, `_warm.py`), and one program's many
stdin/stdout tests spread over them in chunks (`SplitProgram`), merged back into the report
one run would give."""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Mapping
from typing import Any

from sandbox._types import Execution, Limits, TestReport, TestResult

__all__ = ["AFTER_TIMEOUT", "SplitProgram", "chunk_bounds", "default_workers", "merge_reports"]

AFTER_TIMEOUT = "not run: an earlier test timed out"
"""The message of a test that never started because one before it timed out (the in-jail
harness's `Budget` writes the same)."""

# which status a merged report takes when its chunks differ: the jail's own failures first,
# then the limits, in the order a single run's report (`_tests._report`) decides them
_STATUS_ORDER = ("sandbox_error", "compile_error", "output_limit", "timeout", "memory_limit",
                 "runtime_error", "ok")


def default_workers() -> int:
    """Parallel jails by default: the CPUs this process may use (at least 1)."""
    return max(1, len(os.sched_getaffinity(0)))


def chunk_bounds(count: int, pieces: int) -> list[tuple[int, int]]:
    """`pieces` contiguous (start, stop) ranges covering range(count), in order, their sizes
    within one of each other (the first ones the larger)."""
    pieces = max(1, min(pieces, count))
    size, extra = divmod(count, pieces)
    bounds, start = [], 0
    for k in range(pieces):
        stop = start + size + (k < extra)
        bounds.append((start, stop))
        start = stop
    return bounds


class SplitProgram:
    """One `run_tests` job whose tests run as several jails in parallel, chunk by chunk.

    The program's budget holds across its chunks: `Limits.program_wall_s` counts from the
    start of its first chunk, each chunk getting what is left of it (and its slice of the
    job's `test_limits`, where it gives one limit per test); a chunk that would
    start after a timeout in an earlier chunk (in test order), or once the budget is spent,
    does not start. `merged` then gives the report one run of all the tests gives: the
    verdicts in order, every test after the first timeout a timeout that never ran."""

    def __init__(self, job: Mapping[str, Any], bounds: list[tuple[int, int]]) -> None:
        self.job = job
        self.bounds = bounds
        self.tests = list(job["tests"])
        self.limits: Limits = job.get("limits") or Limits()
        self.test_limits = job.get("test_limits")  # one per test, sliced with the chunks
        self.reports: dict[int, TestReport] = {}
        self._lock = threading.Lock()
        self._started: float | None = None
        self._timeout_at: int | None = None  # first test index seen timing out

    def start(self, part: int) -> Mapping[str, Any] | None:
        """The `run_tests` arguments of chunk `part`, or None when it must not start (its
        report is then recorded here)."""
        first, stop = self.bounds[part]
        with self._lock:
            now = time.monotonic()
            if self._started is None:
                self._started = now
            budget = self.limits.program_wall_s
            left = None if budget is None else budget - (now - self._started)
            if self._timeout_at is not None and self._timeout_at < first:
                why = AFTER_TIMEOUT
            elif left is not None and left <= 0:
                why = f"not run: the program's budget of {budget:g} s was spent"
            else:
                limits = self.limits if left is None else \
                    dataclasses.replace(self.limits, program_wall_s=left)
                arguments = {**self.job, "tests": self.tests[first:stop], "limits": limits}
                if self.test_limits is not None:
                    arguments["test_limits"] = list(self.test_limits[first:stop])
                return arguments
        self.finish(part, TestReport(
            results=tuple(TestResult(i, "timeout", why, 0.0, False)
                          for i in range(stop - first)),
            execution=Execution(status="timeout")))
        return None

    def finish(self, part: int, report: TestReport) -> None:
        """Record chunk `part`'s report (its indices local to the chunk)."""
        first = self.bounds[part][0]
        timed_out = [r.index for r in report.results if r.outcome == "timeout"]
        with self._lock:
            self.reports[part] = report
            if timed_out and (self._timeout_at is None or first + timed_out[0] <
                              self._timeout_at):
                self._timeout_at = first + timed_out[0]

    def merged(self) -> TestReport:
        return merge_reports([(self.bounds[k][0], self.bounds[k][1] - self.bounds[k][0],
                               self.reports[k]) for k in range(len(self.bounds))])


def merge_reports(parts: list[tuple[int, int, TestReport]]) -> TestReport:
    """One report from chunk reports, each given as (offset, number of tests, report), in
    test order: indices made global, and every test after the first timeout a timeout that
    did not run, as in one serial run (so a verdict never depends on how tests were split).
    A chunk with fewer verdicts than tests (a job the sandbox refused) errs on the rest."""
    results: list[TestResult] = []
    for offset, count, report in parts:
        own = {r.index: r for r in report.results}
        why = f"no verdict: the run ended with {report.status}"
        results += [dataclasses.replace(own[i], index=offset + i) if i in own
                    else TestResult(offset + i, "error", why) for i in range(count)]
    first = next((r.index for r in results if r.outcome == "timeout"), None)
    if first is not None:
        cut = results[first]
        why = AFTER_TIMEOUT if cut.ran else cut.message
        results[first + 1:] = [TestResult(r.index, "timeout", why, 0.0, False)
                               for r in results[first + 1:]]
    counted = [report for offset, _, report in parts if first is None or offset <= first]
    statuses = {report.status for report in counted}
    status = next(s for s in _STATUS_ORDER if s in statuses or s == "ok")
    if status == "ok" and first is not None:
        status = "timeout"
    leader = next((r for r in counted if r.status == status), counted[0])
    executions = [report.execution for report in counted]
    execution = Execution(
        status=status, exit_code=leader.execution.exit_code, signal=leader.execution.signal,
        stdout="".join(e.stdout for e in executions),
        stderr="".join(e.stderr for e in executions),
        truncated=any(e.truncated for e in executions),
        wall_s=max(e.wall_s for e in executions),
        cpu_s=sum(e.cpu_s for e in executions),
        peak_memory_bytes=max(e.peak_memory_bytes for e in executions))
    return TestReport(results=tuple(results), execution=execution)
