"""Warm runs of tests held on one CPU (`harness_wire.hold_here`): an assert/check run's
long-lived harness and a stdin/stdout run's harness are held on the CPU the kernel put them
on; the program's processes (a worker, a test's process) are not: they see the CPUs a cold
run's program sees (red team sb5). Nothing a program does to the affinity of the jail's
processes outlives its run."""

from __future__ import annotations

import ast
import dataclasses
import os
import re

import pytest
from sandbox_probes import SHORT

import sandbox

CPUS = sorted(os.sched_getaffinity(0))
several = pytest.mark.skipif(len(CPUS) < 2, reason="one CPU: there is nothing to choose")

# the affinity of the test's own process (the harness), of the worker and of the server
WHERE = ("import os\ndef where():\n"
         "    return [sorted(os.sched_getaffinity(0)), sorted(os.sched_getaffinity(1))]\n")
WHERE_TEST = "assert False, [sorted(__import__('os').sched_getaffinity(0)), *where()]"
CRASH_THEN_WHERE = ("import os\ndef where():\n    if not os.path.exists('/tmp/x'):\n"
                    "        open('/tmp/x', 'w').close()\n        os._exit(1)\n"
                    "    return sorted(os.sched_getaffinity(0))\n")


def limits(mib: int) -> sandbox.Limits:
    """Limits of a pool of their own (the pool key is disk, files and memory)."""
    return dataclasses.replace(SHORT, memory_bytes=(256 << 20) + (mib << 20))


def where(limits: sandbox.Limits, code: str = WHERE) -> list[list[int]]:
    """[harness, worker, server] affinities seen during one warm assert run."""
    report = sandbox.run_tests(code, [WHERE_TEST], limits=limits, mode="warm")
    found = re.search(r"\((\[.*\])\)$", report.results[0].message)
    assert found, report
    return ast.literal_eval(found.group(1))


@several
def test_a_run_is_held_on_one_cpu_with_its_harness_and_the_worker_is_not() -> None:
    own = limits(11)
    for _ in range(4):
        harness, worker, server = where(own)
        assert len(harness) == 1 and worker == CPUS, (harness, worker)
        assert server == CPUS  # the server is not held: it forks the next run's worker


@several
def test_a_replacement_worker_is_not_held_either() -> None:
    """The first test's worker dies; the second's, forked by the server, sees the CPUs a
    cold worker sees, as the first did."""
    tests = ["assert where() == 0",
             "assert False, [sorted(__import__('os').sched_getaffinity(0)), where()]"]
    report = sandbox.run_tests(CRASH_THEN_WHERE, tests, limits=limits(12), mode="warm")
    assert report.results[0].outcome == "error", report
    found = re.search(r"\((\[.*\])\)$", report.results[1].message)
    assert found, report
    harness, worker = ast.literal_eval(found.group(1))
    assert len(harness) == 1 and worker == CPUS, report


@several
def test_neither_a_stdin_runs_program_nor_a_plain_run_is_held() -> None:
    program = "import os\nprint(len(os.sched_getaffinity(0)), len(os.sched_getaffinity(1)))"
    report = sandbox.run_tests(program, [{"input": "", "output": f"{len(CPUS)} {len(CPUS)}"}],
                               limits=limits(16), mode="warm")
    assert report.passed == 1, report  # the program (the harness's child) and the server
    run = sandbox.run(program, mode="warm", limits=limits(16))
    assert run.stdout.split() == [str(len(CPUS))] * 2, run  # nothing hands over: not held


@several
def test_without_holding_a_run_may_use_every_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_PIN_RUNS", "0")  # read when a server starts: a new pool here
    assert where(limits(13)) == [CPUS, CPUS, CPUS]


@several
def test_what_a_program_does_to_the_affinity_of_the_jail_ends_with_its_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A program narrows the affinity of every process of the jail (the harness and the
    server among them); the next run sees the harness and the server as before it."""
    narrow = ("import os\ndef add(a, b):\n"
              f"    for pid in range(1, 1 << 15):\n        try:\n"
              f"            os.sched_setaffinity(pid, {{{CPUS[-1]}}})\n"
              "        except OSError:\n            pass\n    return a + b\n")
    for held, own in ((True, limits(14)), (False, limits(15))):
        monkeypatch.setenv("SANDBOX_PIN_RUNS", "1" if held else "0")
        first = where(own)  # the pool and its harness exist before the attack
        report = sandbox.run_tests(narrow, ["assert add(1, 1) == 2"], limits=own, mode="warm")
        assert report.passed == 1, report
        after = where(own)
        assert after[2] == CPUS, after  # the server
        if held:
            assert len(after[0]) == 1 and after[1] == CPUS, after
        else:
            assert after == first == [CPUS, CPUS, CPUS], after
