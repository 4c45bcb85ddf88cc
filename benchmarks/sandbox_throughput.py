"""Sandbox throughput against bare, unsandboxed `subprocess.run` of the same interpreter.

For a trivial program and for a 10-assert test program, measures in one run:
- the median latency of one run, sequentially (bare subprocess, cold jail, warm mode), and
- runs per second with 2 parallel workers.
Targets (issue 3): a cold jail costs at most 1.5x a bare subprocess per run; warm mode
reaches at least 2x bare subprocess's runs/s.

    python benchmarks/sandbox_throughput.py           # ~1-2 minutes on 2 cores
    python benchmarks/sandbox_throughput.py --quick   # ~30 s
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import sandbox

PYTHON = "/usr/bin/python3"
TRIVIAL = "print(1)\n"
FUNCTION = "def add(a, b):\n    return a + b\n"
ASSERTS = [f"assert add({i}, {i}) == {2 * i}" for i in range(10)]


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


def sandboxed(code: str, mode: str, tests: list[str] | None = None) -> Callable[[], object]:
    def run() -> object:
        if tests is None:
            ex = sandbox.run(code, mode=mode)
            assert ex.status == "ok", ex
        else:
            report = sandbox.run_tests(code, tests, mode=mode)
            assert report.passed == len(tests), report
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


def runs_per_s(ways: dict[str, Callable[[], object]], n: int, workers: int,
               rounds: int = 4) -> dict[str, float]:
    """Runs per second with `workers` in parallel, in `rounds` alternating blocks per way."""
    spent = {way: 0.0 for way in ways}
    per_block = max(1, n // rounds)
    with ThreadPoolExecutor(workers) as pool:
        for _ in range(rounds):
            for way, fn in ways.items():
                start = time.perf_counter()
                list(pool.map(lambda _, fn=fn: fn(), range(per_block)))
                spent[way] += time.perf_counter() - start
    return {way: per_block * rounds / spent[way] for way in ways}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--workers", type=int, default=2, help="parallel workers (default 2)")
    args = parser.parse_args()
    n_seq, n_par = (20, 48) if args.quick else (60, 160)
    test_program = FUNCTION + "".join(a + "\n" for a in ASSERTS)
    cases = {
        "trivial": {"bare": bare(TRIVIAL), "cold": sandboxed(TRIVIAL, "cold"),
                    "warm": sandboxed(TRIVIAL, "warm")},
        "10 asserts": {"bare": bare(test_program), "cold": sandboxed(FUNCTION, "cold", ASSERTS),
                       "warm": sandboxed(FUNCTION, "warm", ASSERTS)},
    }
    print(f"cpus available: {len(os.sched_getaffinity(0))}, load average: "
          f"{os.getloadavg()[0]:.1f}; bare = `{PYTHON} main.py` via subprocess.run")
    print(f"{'program':<12} {'way':<6} {'median ms/run':>14} {'x bare':>8} "
          f"{f'runs/s ({args.workers} workers)':>20} {'x bare':>8}")
    verdicts = []
    for name, ways in cases.items():
        latency = median_ms(ways, n_seq)
        rate = runs_per_s(ways, n_par, args.workers)
        for way in ways:
            print(f"{name:<12} {way:<6} {latency[way]:>14.2f} "
                  f"{latency[way] / latency['bare']:>8.2f} {rate[way]:>20.1f} "
                  f"{rate[way] / rate['bare']:>8.2f}")
        verdicts.append((f"{name}: cold latency <= 1.5x bare",
                         latency["cold"] / latency["bare"] <= 1.5))
        verdicts.append((f"{name}: warm runs/s >= 2x bare", rate["warm"] / rate["bare"] >= 2))
    print()
    for label, met in verdicts:
        print(f"{'MET ' if met else 'MISS'} {label}")


if __name__ == "__main__":
    main()
