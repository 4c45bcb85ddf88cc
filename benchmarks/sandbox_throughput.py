"""Sandbox throughput against bare, unsandboxed `subprocess.run` of the same interpreter.

For a trivial program (`print(1)`), a 10-assert test program and a check calling the program
1,000 times, measures in one run:
- the median latency of one run, sequentially, and
- runs per second with --workers (default 2) in parallel,
for four ways of running it: `bare` (`python3 main.py` in a fresh temp dir via
`subprocess.run`, no isolation), `cold` (a fresh jail per run), `warm` (the default for
Python: a run forked from a jailed warm interpreter) and `fork` (the floor, for reference: a
fork of an unjailed interpreter that has already started, one per worker, running the
program in the child and collecting its output through a pipe; no jail, no limits, no harness).
The ways take turns, so that load from other jobs weighs on each alike.

Then a batch of --batch (default 200) trivial programs through `sandbox.run_many` with
--workers, timed from the call to its last result, its start and tail counted: first with
no warm server started (the pool's start is inside the call: `fresh`), then with the pool
an earlier batch left (`reused`), against the same programs each run by `subprocess.run` of
the same interpreter in a fresh temp dir on a pool of --workers threads (`bare`), the ways
taking turns batch by batch; medians over --batches rounds. Beside the wall times, the CPU
per program of each side (this process and every process it started: the jails, servers
and programs, or the bare interpreters), steadier than wall time on a loaded machine.

Targets (issue 17), on the trivial program: warm runs/s >= 4x bare's; a cold run's latency
<= 1.3x a bare run's. Issue 39: the batch, its pool started in the call, >= 5x bare's
batch time. The 10-assert and 1,000-call rows are reported beside them with no
target (their bare peer checks the asserts in-process, with no defence against forged
results). Report and exit status as every benchmark's (benchmarks/_report.py): 1 when a run
fails (a way that does not print 1, or a test that does not pass), 3 when a target is missed.

    python benchmarks/sandbox_throughput.py           # ~1-2 minutes on 2 cores
    python benchmarks/sandbox_throughput.py --quick   # ~30 s
    python benchmarks/sandbox_throughput.py --only-batch --batches 9   # the batch alone
"""

from __future__ import annotations

import argparse
import os
import queue
import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import Report

import sandbox

PYTHON = "/usr/bin/python3"
TRIVIAL = "print(1)\n"
FUNCTION = "def add(a, b):\n    return a + b\n"
ASSERTS = [f"assert add({i}, {i}) == {2 * i}" for i in range(10)]
CALLS = ("def check(candidate):\n    for i in range(1000):\n"
         "        assert candidate(i, i) == 2 * i\n")
"""A HumanEval-style check calling the program 1,000 times (HumanEval/32 and /38 call it
100 times per check): in the sandbox each call crosses from the harness to the program's
process and back."""


def bare(code: str) -> Callable[[], object]:
    """A bare, unsandboxed `python3 main.py` in a fresh temp dir, as a naive harness would."""
    def run() -> object:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "main.py")
            with open(path, "w") as fh:
                fh.write(code)
            proc = subprocess.run([PYTHON, path], capture_output=True, timeout=10, cwd=tmp,
                                  check=False)
            assert proc.returncode == 0, proc.stderr
    return run


FORK_SERVER = r"""
import os, struct, sys
requests, replies = sys.stdin.buffer, sys.stdout.buffer
while True:
    head = requests.read(4)
    if len(head) < 4:
        break
    code = requests.read(struct.unpack("!I", head)[0])
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: stdout and stderr into the pipe, run the program, exit
        os.close(r)
        os.dup2(w, 1)
        os.dup2(w, 2)
        status = 0
        try:
            exec(compile(code, "main.py", "exec"), {"__name__": "__main__"})
        except BaseException:
            status = 1
        sys.stdout.flush()
        os._exit(status)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 65536):
        chunks.append(chunk)
    os.close(r)
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    out = b"".join(chunks)
    replies.write(struct.pack("!iI", status, len(out)) + out)
    replies.flush()
"""


class ForkServers:
    """The floor: unjailed interpreters started once, each forking a child per run. One
    server per concurrent caller (a pool of them), so that `workers` runs overlap."""

    def __init__(self, count: int) -> None:
        self.procs = [subprocess.Popen([PYTHON, "-c", FORK_SERVER], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE) for _ in range(count)]
        self.free: queue.SimpleQueue[subprocess.Popen[bytes]] = queue.SimpleQueue()
        for proc in self.procs:
            self.free.put(proc)

    def run(self, code: str) -> tuple[int, bytes]:
        proc = self.free.get()
        try:
            assert proc.stdin is not None and proc.stdout is not None
            data = code.encode()
            proc.stdin.write(struct.pack("!I", len(data)) + data)
            proc.stdin.flush()
            status, size = struct.unpack("!iI", proc.stdout.read(8))
            return status, proc.stdout.read(size)
        finally:
            self.free.put(proc)

    def close(self) -> None:
        for proc in self.procs:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout=10)


def forked(servers: ForkServers, code: str) -> Callable[[], object]:
    def run() -> object:
        status, out = servers.run(code)
        assert status == 0, out
    return run


def sandboxed(code: str, mode: str, tests: list[str] | str | None = None) -> Callable[[], object]:
    def run() -> object:
        if tests is None:
            ex = sandbox.run(code, mode=mode)
            assert ex.status == "ok", ex
        else:
            report = sandbox.run_tests(code, tests, mode=mode, entry_point="add")
            assert report.passed == report.total == (1 if isinstance(tests, str) else
                                                     len(tests)), report
    return run


def median_ms(ways: dict[str, Callable[[], object]], n: int) -> dict[str, float]:
    """Median latency per way; the ways take turns run by run, so that a machine whose load
    drifts (other jobs on the 2 cores) weighs on every way alike."""
    times: dict[str, list[float]] = {way: [] for way in ways}
    for fn in ways.values():
        fn()  # warm-up (starts the warm pool, fills caches)
    for _ in range(n):
        for way, fn in ways.items():
            start = time.perf_counter()
            fn()
            times[way].append(time.perf_counter() - start)
    return {way: statistics.median(t) * 1000 for way, t in times.items()}


def back_to_back(fn: Callable[[], object], workers: int, seconds: float) -> tuple[int, float]:
    """(runs, seconds spent): `workers` threads each running `fn` one run after another for
    `seconds`, then finishing the run it is in."""
    counts = [0] * workers
    start = time.perf_counter()
    end = start + seconds

    def loop(slot: int) -> None:
        while time.perf_counter() < end:
            fn()
            counts[slot] += 1

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(loop, range(workers)))
    return sum(counts), time.perf_counter() - start


def runs_per_s(ways: dict[str, Callable[[], object]], seconds: float, workers: int,
               rounds: int = 4) -> dict[str, float]:
    """Runs per second with `workers` in parallel, in `rounds` alternating blocks per way,
    each `back_to_back` for `seconds`: every way is timed in its steady state (a block of a
    fixed few runs would mostly time its start and its tail, where one worker waits for the
    other)."""
    runs = {way: 0 for way in ways}
    spent = {way: 0.0 for way in ways}
    for _ in range(rounds):
        for way, fn in ways.items():
            count, took = back_to_back(fn, workers, seconds)
            runs[way] += count
            spent[way] += took
    return {way: runs[way] / spent[way] for way in ways}


def cpu_seconds() -> float:
    """CPU seconds of this process and of its reaped descendants (a warm server's, and its
    children's, once the server is closed and reaped)."""
    own, reaped = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime


def batch_seconds(ways: dict[str, tuple[Callable[[], object], Callable[[], object]]],
                  rounds: int) -> tuple[dict[str, list[float]], dict[str, float]]:
    """The wall seconds of each way's batch in each of `rounds`, the ways taking turns;
    each way is (its set-up, untimed; its batch, timed). Also each way's CPU seconds over
    all rounds, set-ups included: a warm pool's CPU is counted when a set-up closes it (so
    `fresh` holds the `reused` batches' too; `no_warm_servers` closes the last pool)."""
    times: dict[str, list[float]] = {way: [] for way in ways}
    cpu = dict.fromkeys(ways, 0.0)
    for _ in range(rounds):
        for way, (setup, fn) in ways.items():
            before = cpu_seconds()
            setup()
            start = time.perf_counter()
            fn()
            times[way].append(time.perf_counter() - start)
            cpu[way] += cpu_seconds() - before
    return times, cpu


def bare_batch(code: str, size: int, workers: int) -> Callable[[], object]:
    """`size` bare runs of `code` on `workers` threads, from the call to the last end."""
    one = bare(code)

    def run() -> object:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(lambda _: one(), range(size)))
        return None
    return run


def sandbox_batch(code: str, size: int, workers: int) -> Callable[[], object]:
    """`sandbox.run_many` of `size` jobs running `code`, every result checked (untimed)."""
    def run() -> object:
        results = sandbox.run_many([{"code": code}] * size, max_workers=workers)
        bad = [r for r in results if r.status != "ok" or r.stdout != "1\n"]
        assert not bad, bad[0]
        return None
    return run


def no_warm_servers() -> None:
    """Stop every warm server, so that the next batch starts its pool inside its call (the
    sandbox's own `shutdown`, which the tests use too; its pools come back on demand)."""
    from sandbox import _warm
    _warm.shutdown()


def nothing() -> None:
    pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--workers", type=int, default=2, help="parallel workers (default 2)")
    parser.add_argument("--batch", type=int, default=200, help="programs per batch (default 200)")
    parser.add_argument("--batches", type=int, default=0,
                        help="rounds of batches (default 5, --quick 3)")
    parser.add_argument("--only-batch", action="store_true",
                        help="the batch rows alone (not the per-run tables)")
    args = parser.parse_args()
    report = Report()
    n_seq, block_s = (20, 0.4) if args.quick else (60, 1.5)
    test_program = FUNCTION + "".join(a + "\n" for a in ASSERTS)
    servers = ForkServers(args.workers)
    cases = {
        "trivial": {"bare": bare(TRIVIAL), "cold": sandboxed(TRIVIAL, "cold"),
                    "warm": sandboxed(TRIVIAL, "warm"), "fork": forked(servers, TRIVIAL)},
        "10 asserts": {"bare": bare(test_program), "cold": sandboxed(FUNCTION, "cold", ASSERTS),
                       "warm": sandboxed(FUNCTION, "warm", ASSERTS),
                       "fork": forked(servers, test_program)},
        "1,000 calls": {"bare": bare(FUNCTION + CALLS + "check(add)\n"),
                        "cold": sandboxed(FUNCTION, "cold", CALLS),
                        "warm": sandboxed(FUNCTION, "warm", CALLS),
                        "fork": forked(servers, FUNCTION + CALLS + "check(add)\n")},
    }
    print(f"cpus available: {len(os.sched_getaffinity(0))}, load average: "
          f"{os.getloadavg()[0]:.1f}; bare = `{PYTHON} main.py` via subprocess.run; "
          f"fork = a fork of a started `{PYTHON}` (no jail: the floor)")
    print(f"{'program':<12} {'way':<6} {'median ms/run':>14} {'x bare':>8} "
          f"{f'runs/s ({args.workers} workers)':>20} {'x bare':>8}")
    try:
        for name, ways in ({} if args.only_batch else cases).items():
            latency = median_ms(ways, n_seq)
            rate = runs_per_s(ways, block_s, args.workers)
            for way in ways:
                print(f"{name:<12} {way:<6} {latency[way]:>14.2f} "
                      f"{latency[way] / latency['bare']:>8.2f} {rate[way]:>20.1f} "
                      f"{rate[way] / rate['bare']:>8.2f}")
            if name == "trivial":
                cold, warm = latency["cold"] / latency["bare"], rate["warm"] / rate["bare"]
                floor = rate["fork"] / rate["bare"]
                print(f"(fork floor, no jail: {floor:.2f}x bare runs/s; a reference, not a "
                      "target)")
                report.target(f"{name}: cold latency / bare", cold, 1.3, higher_is_better=False)
                report.target(f"{name}: warm runs/s / bare", warm, 4.0)
        batch(report, args)
    finally:
        servers.close()
    return report.finish()


def batch(report: Report, args: argparse.Namespace) -> None:
    """The batch rows (issue 39) and their target."""
    rounds = args.batches or (3 if args.quick else 5)
    size, workers = args.batch, args.workers
    warm = sandbox_batch(TRIVIAL, size, workers)
    warm()  # warm-up: caches, the staged harness
    no_warm_servers()  # its pool's CPU is not the rounds'
    times, cpu = batch_seconds({"bare": (nothing, bare_batch(TRIVIAL, size, workers)),
                                "fresh": (no_warm_servers, warm), "reused": (nothing, warm)},
                               rounds)
    before = cpu_seconds()
    no_warm_servers()  # the last pool's CPU
    sandboxed_cpu = cpu["fresh"] + cpu["reused"] + cpu_seconds() - before
    median = {way: statistics.median(t) for way, t in times.items()}
    print(f"\nbatch of {size} trivial programs, {workers} workers, {rounds} rounds (load "
          f"average {os.getloadavg()[0]:.1f}): from the call to the last result")
    print(f"{'way':<8} {'median s':>9} {'runs/s':>8} {'x bare':>7}   each round (s)")
    for way, took in median.items():
        print(f"{way:<8} {took:>9.3f} {size / took:>8.1f} {median['bare'] / took:>7.2f}   "
              + " ".join(f"{t:.3f}" for t in times[way]))
    print("(fresh: no warm server before the call, the pool's start counted; reused: the "
          "pool an earlier batch left)")
    bare_ms, sandboxed_ms = (1000 * c / (rounds * size) for c in (cpu["bare"], sandboxed_cpu / 2))
    print(f"CPU per program, this process and every process it started: bare {bare_ms:.2f} "
          f"ms, run_many {sandboxed_ms:.2f} ms (fresh and reused together, pool starts "
          f"included): {bare_ms / sandboxed_ms:.2f}x")
    report.target(f"batch of {size}, pool started in the call: bare s / run_many s",
                  median["bare"] / median["fresh"], 5.0)


if __name__ == "__main__":
    raise SystemExit(main())
