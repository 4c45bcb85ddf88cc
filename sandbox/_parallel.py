"""Parallelism: how many jails run at once by default (the workers of `run_many` and
`run_tests_many`, and, with one spare, the size of each warm pool, `_warm.py`), and one program's many
stdin/stdout tests spread over them in chunks (`SplitProgram`), merged back into the report
one run would give; a chunk that can no longer count is stopped through its `Cancel`."""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from sandbox._errors import ArgumentError
from sandbox._types import Execution, Limits, Status, TestReport, TestResult

__all__ = ["AFTER_TIMEOUT", "BUDGET_SPENT", "CANCEL_GRACE_S", "Cancel", "SplitProgram",
           "chunk_bounds", "default_workers", "merge_reports", "not_run"]

AFTER_TIMEOUT = "not run: an earlier test timed out"
"""The message of a test that never started because one before it timed out (the in-jail
harness's `Budget` writes the same)."""
BUDGET_SPENT = "not run: the program's budget of {:g} s was spent"
"""The message of a test that never started because the program's budget was spent (the
in-jail `Budget` writes the same), formatted with the budget in seconds."""

CANCEL_GRACE_S = 0.2
"""Seconds past what was left of a split program's budget when its chunk started in a
server after which that chunk, still running, is stopped from the host. Its harness, whose
clock started with the chunk, normally ends its tests at the budget first."""

# which status a merged report takes when its chunks differ: the jail's own failures first,
# then the limits, in the order a single run's report (`_tests._report`) decides them
_STATUS_ORDER: tuple[Status, ...] = ("sandbox_error", "compile_error", "output_limit", "timeout", "memory_limit",
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


class Cancel:
    """A stop signal raised in one thread for a run going on in another (`run_tests`'s
    `cancel`). Once `set`, a warm run still going is killed within milliseconds (its poll
    loop watches `fileno()`, an eventfd left readable) and its unfinished tests are timeouts
    that did not run, `reason` their message; a run not yet started does not start.
    `deadline` (a `time.monotonic()` time), if given, sets it by itself, with `expired`;
    `after_s` instead: the deadline comes that many seconds after the run starts in a warm
    server (`started`, which also calls `on_start`), not counting the wait for one.
    The owner closes it once the run it was given to has returned."""

    def __init__(self, deadline: float | None = None, expired: str = "cancelled", *,
                 after_s: float | None = None,
                 on_start: Callable[[], None] | None = None) -> None:
        self.deadline = deadline
        self.after_s = after_s
        self.on_start = on_start
        self.expired = expired
        self.reason = ""  # empty until set
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._closed = False

    def set(self, reason: str) -> None:
        """Stop the run (the first reason given stays)."""
        with self._lock:
            if self.reason:
                return
            self.reason = reason
            if self._fd is not None:
                os.eventfd_write(self._fd, 1)

    def started(self) -> None:
        """The run this can stop has started (a warm server took it): `after_s` counts from
        now."""
        if self.after_s is not None:
            self.deadline = time.monotonic() + self.after_s
        if self.on_start is not None:
            self.on_start()

    def wait_s(self, left: float) -> float:
        """How long a poll may wait, at most `left` seconds: less when the deadline comes
        first (never below 0)."""
        if self.deadline is None:
            return left
        return max(0.0, min(left, self.deadline - time.monotonic()))

    def is_set(self) -> bool:
        if not self.reason and self.deadline is not None and time.monotonic() >= self.deadline:
            self.set(self.expired)
        return bool(self.reason)

    def fileno(self) -> int:
        """An fd that is readable once this is set (made on first use)."""
        with self._lock:
            if self._closed:
                raise ArgumentError("this Cancel is closed: give each run a new one")
            if self._fd is None:
                self._fd = os.eventfd(1 if self.reason else 0, os.EFD_CLOEXEC)
            return self._fd

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def __del__(self) -> None:
        if self._fd is not None:
            os.close(self._fd)


def not_run(count: int, why: str) -> TestReport:
    """The report of a run that did not start: every test a timeout that did not run."""
    return TestReport(results=tuple(TestResult(i, "timeout", why, 0.0, False)
                                    for i in range(count)),
                      execution=Execution(status="timeout"))


class SplitProgram:
    """One `run_tests` job whose tests run as several jails in parallel, chunk by chunk.

    The program's budget holds across its chunks: `Limits.program_wall_s` counts the time
    during which at least one of its chunks runs in a warm server (never the wait for a
    server while none of them runs, as when another batch holds the servers), each chunk
    getting what is left of it when it is handed to a worker (and its slice of the job's
    `test_limits`, where it gives one limit per test), counted from its own start in a
    server. A chunk that would start after a timeout in an earlier chunk (in test order),
    or once the budget is spent, does not start; one already running is stopped (its
    `Cancel`): when a chunk reports a timeout at test i, every running chunk whose first
    test comes after i is killed at once, and past what it was left (plus `CANCEL_GRACE_S`)
    so is a chunk still running. The chunks before i
    run on: their verdicts count. `merged` then gives the report one run of all the tests
    gives: the verdicts in order, every test after the first timeout a timeout that never
    ran."""

    def __init__(self, job: Mapping[str, Any], bounds: list[tuple[int, int]]) -> None:
        self.job = job
        self.bounds = bounds
        self.tests = list(job["tests"])
        self.limits: Limits = job.get("limits") or Limits()
        self.test_limits = job.get("test_limits")  # one per test, sliced with the chunks
        self.reports: dict[int, TestReport] = {}
        self._lock = threading.Lock()
        self._in_server: set[int] = set()  # the chunks running in a server now
        self._since = 0.0  # when the current stretch with a chunk running began
        self._spent = 0.0  # seconds of the budget spent in stretches that ended
        self._timeout_at: int | None = None  # first test index seen timing out
        self._running: dict[int, Cancel] = {}  # part -> the stop signal of its run

    def start(self, part: int) -> Mapping[str, Any] | None:
        """The `run_tests` arguments of chunk `part`, or None when it must not start (its
        report is then recorded here)."""
        first, stop = self.bounds[part]
        with self._lock:
            budget = self.limits.program_wall_s
            left = None if budget is None else budget - self._clock()
            spent = "" if budget is None else BUDGET_SPENT.format(budget)
            if self._timeout_at is not None and self._timeout_at < first:
                why = AFTER_TIMEOUT
            elif left is not None and left <= 0:
                why = spent
            else:
                limits = self.limits if left is None else \
                    dataclasses.replace(self.limits, program_wall_s=left)
                cancel = Cancel(None, spent, on_start=functools.partial(self._began, part),
                                after_s=None if left is None else left + CANCEL_GRACE_S)
                self._running[part] = cancel
                arguments = {**self.job, "tests": self.tests[first:stop], "limits": limits,
                             "cancel": cancel}
                if self.test_limits is not None:
                    arguments["test_limits"] = list(self.test_limits[first:stop])
                return arguments
        self.finish(part, not_run(stop - first, why))
        return None

    def _clock(self) -> float:
        """Seconds of the program's budget spent so far (the lock held)."""
        return self._spent + (time.monotonic() - self._since if self._in_server else 0.0)

    def _began(self, part: int) -> None:
        """Chunk `part` started in a server (its `Cancel.started`)."""
        with self._lock:
            if not self._in_server:
                self._since = time.monotonic()
            self._in_server.add(part)

    def finish(self, part: int, report: TestReport) -> None:
        """Record chunk `part`'s report (its indices local to the chunk); after a timeout in
        it, stop the running chunks that come after it."""
        first = self.bounds[part][0]
        timed_out = [r.index for r in report.results if r.outcome == "timeout"]
        with self._lock:
            self.reports[part] = report
            cancel = self._running.pop(part, None)
            if part in self._in_server:
                self._in_server.discard(part)
                if not self._in_server:
                    self._spent += time.monotonic() - self._since
            if timed_out and (self._timeout_at is None or first + timed_out[0] <
                              self._timeout_at):
                self._timeout_at = first + timed_out[0]
                for other, running in self._running.items():
                    if self.bounds[other][0] > self._timeout_at:
                        running.set(AFTER_TIMEOUT)
        if cancel is not None:
            cancel.close()  # its run has returned: nothing polls it any more

    def merged(self) -> TestReport:
        with self._lock:
            for cancel in self._running.values():  # a run that raised instead of returning
                cancel.close()
            self._running.clear()
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
