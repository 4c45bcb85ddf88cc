"""One program's many stdin/stdout tests in parallel chunks (`run_tests_many(chunk_tests=)`,
issue #17): the same verdicts as one run, and the program's budget across its chunks."""

from __future__ import annotations

import dataclasses
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sandbox_probes import SHORT

import sandbox
from sandbox import _batch, _warm
from sandbox._parallel import (
    AFTER_TIMEOUT,
    CANCEL_GRACE_S,
    SplitProgram,
    chunk_bounds,
    merge_reports,
)

LIMITS = dataclasses.replace(SHORT, test_wall_s=1.0, wall_s=20.0, cpu_s=20.0)

# passes, fails, crashes and prints to stderr depending on its input
MIXED = ("import sys\nx = input().strip()\nprint('seen', x, file=sys.stderr)\n"
         "if x.startswith('crash'):\n    raise SystemExit(3)\n"
         "print(x if not x.startswith('bad') else 'nope')\n")
WORDS = ["a", "bad1", "b", "crash1", "c", "d", "e", "bad2", "f", "g", "h", "crash2", "i", "j",
         "k", "l", "bad3", "m", "n", "o"]


def cases(words: list[str]) -> list[dict[str, str]]:
    return [{"input": f"{w}\n", "output": f"{w}\n"} for w in words]


def verdicts(report: sandbox.TestReport) -> list[tuple[int, str, str, bool]]:
    return [(r.index, r.outcome, r.message, r.ran) for r in report.results]


def serial_and_chunked(code: str, tests: list[dict[str, str]],
                       limits: sandbox.Limits = LIMITS) -> tuple[sandbox.TestReport, ...]:
    job = {"code": code, "tests": tests, "compare": "whitespace", "limits": limits,
           "mode": "warm"}
    [serial] = sandbox.run_tests_many([job], max_workers=4)
    [chunked] = sandbox.run_tests_many([job], max_workers=4, chunk_tests=5)
    return serial, chunked


# --- through the sandbox --------------------------------------------------------------------


def test_chunked_verdicts_equal_one_run() -> None:
    serial, chunked = serial_and_chunked(MIXED, cases(WORDS))
    outcomes = [r.outcome for r in serial.results]
    assert outcomes.count("pass") == 15 and outcomes.count("fail") == 3, serial
    assert outcomes.count("error") == 2
    assert verdicts(chunked) == verdicts(serial)
    assert chunked.status == serial.status == "runtime_error"
    assert sorted(chunked.execution.stderr.splitlines()) == \
        sorted(serial.execution.stderr.splitlines())


def test_chunked_run_of_a_passing_program_is_one_run() -> None:
    # no test here is meant to time out: limits no loaded machine reaches (a python3 start
    # per test passed the 1 s test limit once at load 7-10 on 2 cores)
    roomy = dataclasses.replace(LIMITS, test_wall_s=10.0, wall_s=120.0)
    serial, chunked = serial_and_chunked("print(input())", cases([str(i) for i in range(23)]),
                                         roomy)
    assert serial.passed == chunked.passed == 23
    assert verdicts(chunked) == verdicts(serial) and chunked.status == "ok"


def test_a_timeout_in_one_chunk_ends_the_program_as_in_one_run() -> None:
    """Test 7 loops: in one run tests 8.. never start; chunked, the tests after it that
    other chunks ran count as not run all the same, and later chunks need not start."""
    code = "x = input()\nif x == '7':\n    while True:\n        pass\nprint(x)\n"
    serial, chunked = serial_and_chunked(code, cases([str(i) for i in range(20)]))
    assert [r.outcome for r in serial.results] == ["pass"] * 7 + ["timeout"] * 13
    assert verdicts(chunked) == verdicts(serial)
    assert chunked.status == serial.status == "timeout"
    assert all(r.message == AFTER_TIMEOUT and not r.ran for r in chunked.results[8:])


def test_only_warm_stdin_tests_are_split(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[int] = []
    real = _batch.run_tests

    def counting(**job: object) -> sandbox.TestReport:
        runs.append(len(job["tests"]))  # type: ignore[arg-type]
        return real(**job)  # type: ignore[arg-type]

    monkeypatch.setattr(_batch, "run_tests", counting)
    asserts = [f"assert f({i}) == {i}" for i in range(12)]
    jobs = [{"code": "def f(x):\n    return x\n", "tests": asserts, "limits": LIMITS},
            {"code": "print(input())", "tests": cases(list("abcdefghijkl")), "limits": LIMITS,
             "mode": "warm"},
            {"code": "print(input())", "tests": cases(list("abc")), "limits": LIMITS},
            {"code": 'read x\necho "$x"\n', "tests": cases(list("abcdefghijkl")),
             "language": "bash", "limits": LIMITS}]
    reports = sandbox.run_tests_many(jobs, max_workers=3, chunk_tests=4)
    assert [r.passed for r in reports] == [12, 12, 3, 12], reports
    assert sorted(runs) == [3, 4, 4, 4, 12, 12]  # the 12 stdin cases of Python: 3 chunks


# --- the parts, without a sandbox -----------------------------------------------------------


def report(*results: sandbox.TestResult, status: str = "ok") -> sandbox.TestReport:
    return sandbox.TestReport(results, sandbox.Execution(status=status))  # type: ignore[arg-type]


def test_chunk_bounds_cover_the_tests_in_order() -> None:
    assert chunk_bounds(10, 3) == [(0, 4), (4, 7), (7, 10)]
    assert chunk_bounds(4, 8) == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert chunk_bounds(5, 1) == [(0, 5)]


def test_merge_makes_every_test_after_the_first_timeout_not_run() -> None:
    passed = sandbox.TestResult(0, "pass")
    first = report(passed, sandbox.TestResult(1, "timeout", "test exceeded 1 s", 1.0))
    second = report(passed, sandbox.TestResult(1, "fail", "line 1"), status="runtime_error")
    merged = merge_reports([(0, 2, first), (2, 2, second)])
    assert [(r.index, r.outcome, r.ran) for r in merged.results] == [
        (0, "pass", True), (1, "timeout", True), (2, "timeout", False), (3, "timeout", False)]
    assert merged.results[3].message == AFTER_TIMEOUT
    assert merged.status == "timeout"  # the chunk after the timeout does not count


def test_merge_keeps_a_budget_message_and_fills_refused_chunks() -> None:
    spent = "not run: the program's budget of 2 s was spent"
    first = report(sandbox.TestResult(0, "pass"), sandbox.TestResult(1, "timeout", spent, 0.0,
                                                                       False))
    merged = merge_reports([(0, 2, first), (2, 1, report(status="timeout"))])
    assert [r.message for r in merged.results][1:] == [spent, spent]
    refused = merge_reports([(0, 1, report(sandbox.TestResult(0, "pass"))),
                             (1, 2, report(status="sandbox_error"))])
    assert [r.outcome for r in refused.results] == ["pass", "error", "error"]
    assert refused.status == "sandbox_error"


def test_a_chunk_after_a_timeout_does_not_start_and_the_budget_is_shared() -> None:
    job = {"code": "", "tests": cases(list("abcdef")),
           "limits": dataclasses.replace(LIMITS, program_wall_s=30.0)}
    plan = SplitProgram(job, chunk_bounds(6, 3))
    arguments = plan.start(0)
    assert arguments is not None and len(arguments["tests"]) == 2
    assert 29.0 < arguments["limits"].program_wall_s <= 30.0
    plan.finish(0, report(sandbox.TestResult(0, "timeout", "test exceeded 1 s", 1.0),
                          sandbox.TestResult(1, "timeout", AFTER_TIMEOUT, 0.0, False),
                          status="timeout"))
    assert plan.start(1) is None and plan.start(2) is None  # never started
    merged = plan.merged()
    assert [r.ran for r in merged.results] == [True] + [False] * 5
    spent = SplitProgram({**job, "limits": dataclasses.replace(LIMITS, program_wall_s=1e-9)},
                         chunk_bounds(6, 3))
    first = spent.start(0)
    assert first is not None
    assert spent.start(1) is not None  # chunk 0 has not started in a server: nothing spent
    first["cancel"].started()  # now it has
    time.sleep(0.01)
    assert spent.start(2) is None
    assert spent.reports[2].results[0].message.startswith("not run: the program's budget")


def test_the_budget_of_a_split_program_counts_only_while_a_chunk_runs() -> None:
    """Waiting for a warm server (another batch holds them all) spends none of it; each
    chunk's host-side deadline counts from its own start in a server."""
    job = {"code": "", "tests": cases(list("abcdef")),
           "limits": dataclasses.replace(LIMITS, program_wall_s=5.0)}
    plan = SplitProgram(job, chunk_bounds(6, 3))
    first = plan.start(0)
    assert first is not None and first["cancel"].deadline is None
    time.sleep(0.2)  # waiting for a server
    second = plan.start(1)
    assert second is not None and second["limits"].program_wall_s == 5.0
    first["cancel"].started()
    assert first["cancel"].deadline == pytest.approx(time.monotonic() + 5.0 + CANCEL_GRACE_S,
                                                     abs=0.1)
    time.sleep(0.2)  # chunk 0 runs
    plan.finish(0, report(*(sandbox.TestResult(i, "pass") for i in range(2))))
    time.sleep(0.2)  # nothing runs
    third = plan.start(2)
    assert third is not None and 4.5 < third["limits"].program_wall_s < 4.9


def test_chunks_waiting_for_servers_held_by_another_batch_keep_their_budget() -> None:
    """Another batch holds every server of the pool for 1.5 s; a split program with a budget
    of 1 s waits for them, then passes: its clock starts in a server."""
    limits = dataclasses.replace(LIMITS, memory_bytes=LIMITS.memory_bytes + (70 << 20),
                                 program_wall_s=1.0, test_wall_s=1.0)
    size = len(_warm._pool(limits).idle.queue)
    with ThreadPoolExecutor(size + 1) as pool:
        holders = [pool.submit(sandbox.run, "import time\ntime.sleep(1.5)", limits=limits,
                               mode="warm") for _ in range(size)]
        time.sleep(0.5)  # every server of the pool is taken
        job = {"code": "print(input())", "tests": cases(list("abcdefgh")), "mode": "warm",
               "limits": limits}
        [chunked] = sandbox.run_tests_many([job], max_workers=size, chunk_tests=2)
        assert all(h.result().status == "ok" for h in holders)
    assert [r.outcome for r in chunked.results] == ["pass"] * 8, chunked


def test_chunks_take_their_slice_of_the_per_test_limits() -> None:
    """Every test sleeps 0.6 s; test 3 alone has 0.3 s (a timeout on any machine), the others
    2 s (a pass on any machine), all under a `test_wall_s` of 0.5 s. Chunk 1 holds tests 2
    and 3: only with its own slice of the limits do 0-2 pass and 3 time out."""
    code = "import time\nx = input()\ntime.sleep(0.6)\nprint(x)\n"
    own = [2.0, 2.0, 2.0, 0.3, 2.0, 2.0, 2.0, 2.0]
    job = {"code": code, "tests": cases([str(i) for i in range(8)]), "mode": "warm",
           "limits": dataclasses.replace(LIMITS, test_wall_s=0.5), "test_limits": own}
    [serial] = sandbox.run_tests_many([job], max_workers=4)
    [chunked] = sandbox.run_tests_many([job], max_workers=4, chunk_tests=2)
    assert [(r.outcome, r.ran) for r in serial.results] == [("pass", True)] * 3 + [
        ("timeout", True)] + [("timeout", False)] * 4, serial
    assert serial.results[3].message == "test exceeded 0.3 s"
    assert verdicts(chunked) == verdicts(serial)


def test_a_split_program_slices_its_limits_with_its_chunks() -> None:
    job = {"code": "", "tests": cases(list("abcde")), "test_limits": [1, 2, 3, 4, 5]}
    plan = SplitProgram(job, chunk_bounds(5, 2))
    chunks = [plan.start(k) for k in range(2)]
    assert [c["test_limits"] for c in chunks if c is not None] == [[1, 2, 3], [4, 5]]
    plain = SplitProgram({**job, "test_limits": None}, chunk_bounds(5, 2)).start(1)
    assert plain is not None and plain["test_limits"] is None


def test_a_job_whose_limits_do_not_fit_its_tests_is_refused_whole() -> None:
    """Not split (its slices would misname the problem): run_tests refuses it in its slot."""
    job = {"code": "print(input())", "tests": cases(list("abcdef")), "mode": "warm",
           "limits": LIMITS, "test_limits": [1.0] * 5}
    [report] = sandbox.run_tests_many([job], max_workers=3, chunk_tests=2)
    assert report.status == "sandbox_error" and report.results == ()
    assert "gives 5 limits for 6 tests" in report.execution.stderr


# --- a timeout stops the chunks after it (a hard cancel) -------------------------------------


def test_a_timeout_kills_the_running_chunks_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunk 0's first test loops (0.3 s allowed); chunk 1's four tests sleep 3 s each (5 s
    allowed): run on, chunk 1 would take 12 s. Killed when chunk 0 reports its timeout, its
    first test never ends: every one of its tests is a timeout that did not run, and the job
    ends long before 12 s. The verdicts are the serial run's."""
    runs: list[tuple[list[Any], sandbox.TestReport]] = []
    real = _batch.run_tests

    def recording(**job: Any) -> sandbox.TestReport:
        report = real(**job)
        runs.append((job["tests"], report))
        return report

    code = ("import time\nx = input()\nwhile x == 'loop':\n    pass\n"
            "if x == 'slow':\n    time.sleep(3.0)\nprint(x)\n")
    words = ["loop", "a", "b", "c", "slow", "slow", "slow", "slow"]
    job = {"code": code, "tests": cases(words), "mode": "warm", "test_limits": [0.3] + [5.0] * 7,
           "limits": dataclasses.replace(LIMITS, test_wall_s=5.0, wall_s=30.0, cpu_s=30.0)}
    [serial] = sandbox.run_tests_many([job], max_workers=2)
    monkeypatch.setattr(_batch, "run_tests", recording)
    begin = time.monotonic()
    [chunked] = sandbox.run_tests_many([job], max_workers=2, chunk_tests=4)
    took = time.monotonic() - begin
    assert verdicts(chunked) == verdicts(serial)
    assert [(r.outcome, r.ran) for r in chunked.results] == [("timeout", True)] + [
        ("timeout", False)] * 7, chunked
    [slow] = [report for tests, report in runs if tests == cases(words[4:])]
    assert [(r.outcome, r.message, r.ran) for r in slow.results] == [
        ("timeout", AFTER_TIMEOUT, False)] * 4, slow
    assert slow.status == "timeout"
    assert took < 8.0, took  # uncancelled: at least 12 s of sleeps in chunk 1


def test_a_chunk_is_stopped_only_by_a_timeout_before_it() -> None:
    """Chunk 1 times out at its first test (test 2): chunk 2 (tests 4-5) is stopped, chunk 0
    (tests 0-1) runs on; a later timeout (chunk 2's) stops nothing before it."""
    job = {"code": "", "tests": cases(list("abcdef")),
           "limits": dataclasses.replace(LIMITS, program_wall_s=30.0)}
    plan = SplitProgram(job, chunk_bounds(6, 3))
    started = [plan.start(k) for k in range(3)]
    cancels = [arguments["cancel"] for arguments in started if arguments is not None]
    assert len(cancels) == 3 and not any(c.is_set() for c in cancels)
    assert cancels[0].expired == "not run: the program's budget of 30 s was spent"
    for cancel in cancels:  # each chunk's deadline counts from its start in a server
        assert cancel.deadline is None
        cancel.started()
        assert cancel.deadline == pytest.approx(time.monotonic() + 30.0 + CANCEL_GRACE_S,
                                                abs=1.0)
    unbounded = SplitProgram({**job, "limits": LIMITS}, chunk_bounds(6, 2)).start(0)
    assert unbounded is not None
    unbounded["cancel"].started()
    assert unbounded["cancel"].deadline is None
    plan.finish(1, report(sandbox.TestResult(0, "timeout", "test exceeded 1 s", 1.0),
                          sandbox.TestResult(1, "timeout", AFTER_TIMEOUT, 0.0, False),
                          status="timeout"))
    assert [c.reason for c in cancels] == ["", "", AFTER_TIMEOUT]
    plan.finish(2, report(status="timeout"))
    plan.finish(0, report(sandbox.TestResult(0, "pass"), sandbox.TestResult(1, "pass")))
    assert not cancels[0].is_set()
    assert [r.outcome for r in plan.merged().results] == ["pass"] * 2 + ["timeout"] * 4
