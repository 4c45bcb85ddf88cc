"""Warm runs held on one CPU (`sandbox._warm.CpuTurns`): a run's server, long-lived harness
and worker take turns, so each run is held on one CPU; runs spread over the CPUs; nothing a
program does to the affinity of the jail's processes outlives its run."""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import threading

import pytest
from sandbox_probes import SHORT

import sandbox
from sandbox._warm import CpuTurns

CPUS = sorted(os.sched_getaffinity(0))
several = pytest.mark.skipif(len(CPUS) < 2, reason="one CPU: there is nothing to choose")

# the affinity of the test's own process (the harness), of the worker and of the server
WHERE = ("import os\ndef where():\n"
         "    return [sorted(os.sched_getaffinity(0)), sorted(os.sched_getaffinity(1))]\n")
WHERE_TEST = "assert False, [sorted(__import__('os').sched_getaffinity(0)), *where()]"


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
def test_a_run_is_held_on_one_cpu_with_its_harness_and_server() -> None:
    own = limits(11)
    seen = set()
    for _ in range(4):
        harness, worker, server = where(own)
        assert len(harness) == 1 and harness == worker == server, (harness, worker, server)
        seen.add(harness[0])
    assert len(seen) >= 2  # one run after another: they take turns


@several
def test_plain_and_stdin_runs_are_held_too() -> None:
    run = sandbox.run("import os\nprint(sorted(os.sched_getaffinity(0)))", mode="warm",
                      limits=limits(12))
    assert len(ast.literal_eval(run.stdout.strip())) == 1, run
    report = sandbox.run_tests("import os\nprint(len(os.sched_getaffinity(0)))",
                               [{"input": "", "output": "1"}], limits=limits(12), mode="warm")
    assert report.passed == 1, report


@several
def test_without_pinning_a_run_may_use_every_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_PIN_RUNS", "0")  # read when a pool is made: a new one here
    assert where(limits(13)) == [CPUS, CPUS, CPUS]


@several
def test_what_a_program_does_to_the_affinity_of_the_jail_ends_with_its_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A program narrows the affinity of every process of the jail (the harness and the
    server among them); the next run is placed as if it had not."""
    narrow = ("import os\ndef add(a, b):\n"
              f"    for pid in range(1, 1 << 15):\n        try:\n"
              f"            os.sched_setaffinity(pid, {{{CPUS[-1]}}})\n"
              "        except OSError:\n            pass\n    return a + b\n")
    for pinned, own in ((True, limits(14)), (False, limits(15))):
        monkeypatch.setenv("SANDBOX_PIN_RUNS", "1" if pinned else "0")
        where(own)  # the pool and its harness exist before the attack
        report = sandbox.run_tests(narrow, ["assert add(1, 1) == 2"], limits=own, mode="warm")
        assert report.passed == 1, report
        if pinned:
            seen = {tuple(where(own)[0]) for _ in range(4)}
            assert len(seen) >= 2, seen  # not all held on the CPU the program chose
        else:
            assert where(own) == [CPUS, CPUS, CPUS]


def test_parallel_runs_go_to_different_cpus_and_serial_ones_take_turns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2})
    turns = CpuTurns()
    held = [turns.take() for _ in range(3)]
    assert sorted(turns.cpu(i) for i in held) == [0, 1, 2]  # each its own CPU
    fourth = turns.take()  # all busy: shares one
    turns.give(held[1])
    assert turns.take() == held[1]  # the freed CPU holds the fewest runs
    for index in (*held, fourth):
        turns.give(index)
    serial = []
    for _ in range(6):
        index = turns.take()
        serial.append(turns.cpu(index))
        turns.give(index)
    assert sorted(serial) == [0, 0, 1, 1, 2, 2]


def test_one_cpu_or_pinning_off_leaves_placement_to_the_kernel(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3})
    assert CpuTurns().take() is None
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setenv("SANDBOX_PIN_RUNS", "0")
    assert CpuTurns().take() is None


def test_turns_are_counted_under_a_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    turns = CpuTurns()

    def churn() -> None:
        for _ in range(2000):
            turns.give(turns.take())

    threads = [threading.Thread(target=churn) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert turns.running == [0, 0]
