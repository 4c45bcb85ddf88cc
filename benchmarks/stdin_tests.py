"""stdin/stdout tests at RL scale: tasks/s of the sandbox's test runner against running the
same tests one subprocess each (issue 17), in the form ScaleBox and SandboxFusion publish
(tasks/s at a given task count, workers and cores; the peer's ratio in parentheses).

Tasks (`benchmarks/_code_corpus.py`): small arithmetic and string problems (sum, reverse,
vowels, max, fizzbuzz, gcd, sort, palindrome, factorial mod p, word count), each with 20-50
stdin/stdout tests whose expected output comes from a reference function, judged against
either the right program or a wrong one (wrong on some inputs, crashing on others); half and
half. Outputs are compared token by token (`compare: whitespace`) on every side.

- `sandbox.run_tests_many`: one job per task, all its tests in one jail, --workers jobs in
  parallel (each test an exec of `python3 main.py` in the jail, each under --timeout);
- `CodeReward (use: rtv)`: the same tasks as a reference `{"public": first 3, "hidden":
  the rest}`, as a dataset with a public/hidden split gives them; a task passes when both
  layers are 1;
- peer: `python3 main.py` with the test's input on stdin, one subprocess per test, --workers
  in parallel over all (task, test) pairs, each under --timeout; pass = exit 0 and the same
  tokens.

The three take turns over 4 blocks of the tasks (times summed), so that drifting load from
other jobs weighs on each alike.

Target (set here; the issue names none): each of ours >= 2x the peer's tasks/s. Report and
exit status as every benchmark's (benchmarks/_report.py): 3 when the target is missed, 1 when
a verdict is wrong or unexplained:
a test whose verdict differs between `run_tests_many` and the peer, a task whose rtv verdict
differs from the peer's, a right program failing a test or a wrong one passing them all.

    python benchmarks/stdin_tests.py            # 200 tasks, ~7,000 tests
    python benchmarks/stdin_tests.py --quick    # 40 tasks
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from _code_corpus import StdinTask, stdin_tasks
from _report import Report

import sandbox
from rewards import Sample
from rewards.registry import resolve

PYTHON = "/usr/bin/python3"  # the interpreter the sandbox runs
TARGET = 2.0
PUBLIC = 3
ROUNDS = 4


def ours_runner(tasks: list[StdinTask], workers: int,
                timeout: float) -> tuple[list[list[bool]], float]:
    """Per task, per test: passed, from `sandbox.run_tests_many`."""
    jobs = [{"code": t.program, "tests": list(t.tests), "compare": "whitespace",
             "limits": sandbox.Limits(test_wall_s=timeout, wall_s=timeout * len(t.tests) + 10,
                                      cpu_s=timeout * len(t.tests) + 10)} for t in tasks]
    start = time.perf_counter()
    reports = sandbox.run_tests_many(jobs, max_workers=workers)
    elapsed = time.perf_counter() - start
    return [[r.passed for r in report.results] for report in reports], elapsed


def ours_rtv(reward: Any, tasks: list[StdinTask]) -> tuple[list[dict[str, Any]], float]:
    """Per task: passed (both layers 1) and the reason, from CodeReward."""
    samples = [Sample(prompt=t.name, completion=f"```python\n{t.program}```", domain="code",
                      reference={"public": list(t.tests[:PUBLIC]),
                                 "hidden": list(t.tests[PUBLIC:])}) for t in tasks]
    start = time.perf_counter()
    scores = reward.score(samples)
    elapsed = time.perf_counter() - start
    return [{"passed": s.parts.get("tests") == 1.0 and s.parts.get("hidden") == 1.0,
             "reason": s.reason} for s in scores], elapsed


def peer(tasks: list[StdinTask], workers: int,
         timeout: float) -> tuple[list[list[bool]], float]:
    """Per task, per test: passed, one bare subprocess per test."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k, task in enumerate(tasks):
            folder = os.path.join(tmp, str(k))
            os.mkdir(folder)
            paths.append(os.path.join(folder, "main.py"))
            with open(paths[-1], "w") as fh:
                fh.write(task.program)

        def one(job: tuple[int, int]) -> bool:
            k, i = job
            case = tasks[k].tests[i]
            try:
                proc = subprocess.run([PYTHON, paths[k]], input=case["input"],
                                      capture_output=True, text=True, timeout=timeout,
                                      cwd=os.path.dirname(paths[k]), check=False)
            except subprocess.TimeoutExpired:
                return False
            return proc.returncode == 0 and proc.stdout.split() == case["output"].split()

        jobs = [(k, i) for k, t in enumerate(tasks) for i in range(len(t.tests))]
        with ThreadPoolExecutor(workers) as pool:
            flat = list(pool.map(one, jobs))
    elapsed = time.perf_counter() - start
    out: list[list[bool]] = [[] for _ in tasks]
    for (k, _), passed in zip(jobs, flat):
        out[k].append(passed)
    return out, elapsed


def check_verdicts(tasks: list[StdinTask], runner: list[list[bool]], rtv: list[dict[str, Any]],
                   bare: list[list[bool]]) -> list[str]:
    """The unexplained verdicts, one line each."""
    problems = []
    for task, ours, r, theirs in zip(tasks, runner, rtv, bare):
        for i, (a, b) in enumerate(zip(ours, theirs)):
            if a != b:
                problems.append(f"{task.name} test {i}: run_tests_many "
                                f"{'pass' if a else 'fail'}, peer {'pass' if b else 'fail'}")
        if len(ours) != len(task.tests):
            problems.append(f"{task.name}: run_tests_many gave {len(ours)} verdicts for "
                            f"{len(task.tests)} tests")
        if r["passed"] != all(theirs):
            problems.append(f"{task.name}: rtv {'pass' if r['passed'] else 'fail'} "
                            f"({r['reason']}), peer {'pass' if all(theirs) else 'fail'}")
        for name, verdicts in (("run_tests_many", ours), ("peer", theirs)):
            if task.right and not all(verdicts):
                problems.append(f"{task.name}: {name} fails the right program on "
                                f"{verdicts.count(False)} tests")
            if not task.right and all(verdicts):
                problems.append(f"{task.name}: {name} passes every test of the wrong program")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 tasks")
    parser.add_argument("--tasks", type=int, default=None, help="number of tasks (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the tests")
    parser.add_argument("--workers", type=int, default=2,
                        help="parallel runs on each side (default 2)")
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds per test on each side (default 5)")
    args = parser.parse_args(argv)
    report = Report()
    count = args.tasks or (40 if args.quick else 200)
    tasks = stdin_tasks(count, seed=args.seed)
    tests = sum(len(t.tests) for t in tasks)
    cores = len(os.sched_getaffinity(0))
    reward = resolve("rtv")(max_workers=args.workers, time_limit_s=args.timeout)
    print(f"{count} tasks, {tests} stdin/stdout tests ({tests / count:.1f} per task, "
          f"{sum(t.right for t in tasks)} right programs), {args.workers} workers, {cores} "
          f"cpus, load average {os.getloadavg()[0]:.1f}, timeout {args.timeout:g} s per test")

    warm = tasks[:2]  # start-up (warm sandbox, zygote, imports) out of the timing
    ours_runner(warm, args.workers, args.timeout)
    ours_rtv(reward, warm)
    peer(warm, args.workers, args.timeout)
    # the three take turns over ROUNDS blocks of tasks, so that drifting load from other jobs
    # on the machine weighs on each alike; times are summed over the blocks
    runner: list[list[bool]] = []
    rtv: list[dict[str, Any]] = []
    bare: list[list[bool]] = []
    runner_s = rtv_s = bare_s = 0.0
    size = -(-count // ROUNDS)
    for block in (tasks[k:k + size] for k in range(0, count, size)):
        verdicts, seconds = ours_runner(block, args.workers, args.timeout)
        runner += verdicts
        runner_s += seconds
        scored, seconds = ours_rtv(reward, block)
        rtv += scored
        rtv_s += seconds
        verdicts, seconds = peer(block, args.workers, args.timeout)
        bare += verdicts
        bare_s += seconds

    rows = [("one subprocess per test (peer)", bare_s), ("sandbox.run_tests_many", runner_s),
            ("CodeReward (use: rtv)", rtv_s)]
    print(f"\n| {'Method':<30} | Tasks | Tests/task | Time (s) | {'Throughput (tasks/s)':<20} "
          f"| Tests/s | Workers | CPU |")
    print(f"|{'-' * 32}|-------|------------|----------|{'-' * 22}|---------|---------|-----|")
    for name, seconds in rows:
        rate = f"{count / seconds:.2f} ({bare_s / seconds:.2f}x)"
        print(f"| {name:<30} | {count:>5} | {tests / count:>10.1f} | {seconds:>8.2f} | "
              f"{rate:<20} | {tests / seconds:>7.1f} | {args.workers:>7} | {cores:>3} |")
    for name, seconds in rows[1:]:
        report.target(f"{name} tasks/s / peer", bare_s / seconds, TARGET)

    unexplained = check_verdicts(tasks, runner, rtv, bare)
    agree = sum(a == b for ours, theirs in zip(runner, bare) for a, b in zip(ours, theirs))
    print(f"\nper-test verdicts: run_tests_many and peer agree on {agree}/{tests}; rtv and peer "
          f"agree on {sum(r['passed'] == all(b) for r, b in zip(rtv, bare))}/{count} tasks")
    print(f"unexplained verdicts: {len(unexplained)}")
    for line in unexplained[:50]:
        print(f"  {line}")
    report.verdict("test verdicts explained", tests - len(unexplained), tests)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
