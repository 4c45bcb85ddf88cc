"""Bounds on what a program can make the judging side hold or do (issue #26): every message
the jail sends is capped, every walk over program data is linear in its size, and the
host keeps a checker's outputs once, as bytes."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from sandbox_probes import MODES, SHORT

import sandbox
from sandbox import _tests, _warm
from sandbox._in_jail.harness_wire import (
    MAX_ITEMS,
    MAX_VERDICT_TEXT,
    TooLarge,
    check_plain,
    is_plain,
)

HUGE_NAME = ("class Boom(Exception):\n    pass\n"
             "Boom.__name__ = Boom.__qualname__ = 'B' * (3 << 20)\n")


@pytest.mark.parametrize("mode", MODES)
def test_a_huge_exception_name_at_load_is_a_capped_verdict(mode: str) -> None:
    code = HUGE_NAME + "raise Boom('x' * (3 << 20))\n"
    report = sandbox.run_tests(code, ["assert f(1) == 1", "assert f(2) == 2"], limits=SHORT,
                               mode=mode)
    assert [r.outcome for r in report.results] == ["error", "error"], report
    for result in report.results:
        assert len(result.message) <= MAX_VERDICT_TEXT + 6, len(result.message)
        assert result.message.endswith(" [...]") and "BBBB" in result.message


@pytest.mark.parametrize("mode", MODES)
def test_a_huge_exception_raised_by_a_call_is_a_capped_verdict(mode: str) -> None:
    code = HUGE_NAME + "def f(n):\n    raise Boom('y' * (3 << 20))\n"
    report = sandbox.run_tests(code, ["assert f(1) == 1"], limits=SHORT, mode=mode)
    assert report.results[0].outcome == "error", report
    assert len(report.results[0].message) <= MAX_VERDICT_TEXT + 6


def test_records_that_do_not_parse_are_no_verdict_never_an_exception() -> None:
    nonce = "n" * 32
    good = {"test": 0, "verdict": ["pass", "", 0.1]}
    lines = [nonce + json.dumps(good),
             nonce + '{"test": 1, "verdict": ["pass", "', # cut by the output cap
             nonce + json.dumps({"test": 2, "verdict": "pass"}),
             nonce + json.dumps({"test": 7, "verdict": ["pass", ""]}),  # no such test
             nonce + json.dumps({"test": True, "verdict": ["pass", ""]}),
             nonce + "[1, 2]", "x" + nonce + json.dumps({"test": 3, "verdict": ["pass", ""]}),
             nonce + b"\xff".decode("latin-1")]
    stdout = "\n".join(lines).encode("latin-1")
    execution = sandbox.Execution(status="ok", exit_code=0, stdout_bytes=stdout)
    report, outputs = _tests._report(execution, nonce, 4)
    assert [r.outcome for r in report.results] == ["pass", "error", "error", "error"], report
    assert outputs == {}


def test_outputs_for_the_checker_are_kept_once_as_bytes() -> None:
    nonce = "n" * 32
    stdout = "\n".join([nonce + json.dumps({"test": 0, "verdict": ["checker", b"12\n".hex(),
                                                                   0.1]}),
                        nonce + json.dumps({"test": 1, "verdict": ["checker", "zz", 0.1]})])
    execution = sandbox.Execution(status="ok", exit_code=0, stdout_bytes=stdout.encode())
    report, outputs = _tests._report(execution, nonce, 2)
    assert outputs == {0: b"12\n", 1: None}
    assert [r.message for r in report.results] == ["", ""]


SHARED = ("import collections\ndef f(kind, n):\n    x = 1\n    for _ in range(n):\n"
          "        x = kind([x, x])\n    return x\n")


@pytest.mark.parametrize("mode", MODES)
def test_shared_data_is_walked_once_and_bounded_as_it_expands(mode: str) -> None:
    """`x = [x, x]` n times over: n + 1 lists, 2**(n+1) items once each shared part is
    counted where it appears. The plain-data checks (worker and harness) walk each list
    once: 20 levels (2**21 items) cross; 48 levels (2**49 items, which every comparison or
    repr would walk) are refused at once, an error of that test, not seconds of walking
    past the test's limit as before."""
    tests = ["r = f(list, 20)\nassert len(r) == 2 and r[0] is r[1]",
             "r = f(tuple, 20)\nassert r[0][0][0] is r[1][0][1] and r == f(tuple, 20)",
             "r = f(collections.deque, 20)\nassert len(r) == 2 and r[0] == r[1]",
             "assert f(list, 48)", "assert f(tuple, 48)",
             "assert [[0] * 3] * 3 == [[0, 0, 0]] * 3"]
    report = sandbox.run_tests(SHARED, tests, limits=SHORT, mode=mode,
                               context="import collections")
    assert [r.outcome for r in report.results] == ["pass"] * 3 + ["error"] * 2 + ["pass"], \
        report
    for result in report.results[3:5]:
        assert f"more than {MAX_ITEMS} items" in result.message, report


@pytest.mark.parametrize("depth, plain", [(49, True), (50, True), (51, False)])
def test_the_depth_bound_holds_for_shared_data_too(depth: int, plain: bool) -> None:
    x: object = 1
    for level in range(depth):
        x = [x, x] if level % 10 == 0 else [x]  # shared at some levels
    assert is_plain(x) is plain
    assert is_plain([x, [[x]]]) is (depth <= 47)


def test_the_item_bound_counts_shared_parts_each_time() -> None:
    x: object = list(range(1 << 12))
    assert is_plain([x] * (1 << 11))  # 2**23 items
    assert not is_plain([x] * (1 << 13))  # 2**25
    with pytest.raises(TooLarge):
        check_plain([x] * (1 << 13))


def _jail_rss(root: int) -> int:
    """Resident bytes of every process under host pid `root` (a warm server's nsjail)."""
    parents, rss = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = dict(line.split(":", 1) for line in
                          (entry / "status").read_text().splitlines() if ":" in line)
        except OSError:
            continue
        parents[int(entry.name)] = int(fields["PPid"])
        rss[int(entry.name)] = int(fields.get("VmRSS", "0 kB").split()[0]) << 10
    total = 0
    for pid, size in rss.items():
        ancestor = pid
        while ancestor > 1 and ancestor != root:
            ancestor = parents.get(ancestor, 0)
        total += size if ancestor == root else 0
    return total


def test_without_cgroups_the_harness_holds_replies_within_the_runs_memory(
        no_cgroup: None) -> None:
    """A test keeping 40 replies of ~20 MiB each: the long-lived harness decodes them, and
    without a cgroup it used to reach ~700 MiB against a 256 MiB limit. Its address space
    now grows by one process's share of the run's memory at most: a MemoryError verdict."""
    limits = dataclasses.replace(SHORT, memory_bytes=256 << 20, wall_s=60.0, cpu_s=60.0,
                                 test_wall_s=50.0)
    code = "def f(i):\n    return [str(j) for j in range(300_000)]\n"
    assert sandbox.run_tests(code, ["assert f(0)"], limits=limits, mode="warm").passed == 1
    [server] = [s for s in _warm._pool(limits).servers if s.alive()]
    peak, done = [0], threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _jail_rss(server.proc.pid))
            time.sleep(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        report = sandbox.run_tests(code, ["keep = [f(i) for i in range(40)]\nassert keep"],
                                   limits=limits, mode="warm")
    finally:
        done.set()
        watcher.join()
    assert report.results[0].outcome == "error" and "MemoryError" in report.results[0].message
    assert report.execution.status == "memory_limit", report
    # the run's 256 MiB, the server's and the harness's own interpreters, nsjail: < 400 MiB
    assert peak[0] < 400 << 20, peak[0] >> 20
    assert sandbox.run_tests(code, ["assert f(0)"], limits=limits, mode="warm").passed == 1


@pytest.mark.parametrize("mode", MODES)
def test_the_host_holds_checker_outputs_a_few_times_at_most(mode: str) -> None:
    """8 tests printing 1 MiB each for the checker: the host's stream carries them as hex
    (16 MiB), parsed a line at a time into the outputs as bytes (8 MiB); it used to peak at
    about 8x the outputs (decoded text, split lines and hex messages all at once)."""
    limits = dataclasses.replace(SHORT, output_bytes=1 << 20, memory_bytes=512 << 20,
                                 wall_s=30.0, cpu_s=30.0, test_wall_s=10.0)
    cases = [{"input": str(i), "output": "x"} for i in range(8)]
    checker = sandbox.Checker("import sys\nsys.exit(0)\n")
    code = "import sys\nsys.stdout.write('ab' * ((1 << 19) - 8))\n"
    tracemalloc.start()
    try:
        report = sandbox.run_tests(code, cases, limits=limits, checker=checker, mode=mode)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.passed == 8, report
    assert peak < 5 * (8 << 20), peak >> 20
