"""The batch of `sandbox_throughput.py` (issue 39) for two or more checkouts of the sandbox,
back to back: before and after a change, on the same machine and load.

Each checkout runs in a long-lived process of its own (its own warm pools, its `sandbox`
imported from that checkout), which runs one `fresh` batch (no warm server before the call)
then one `reused` batch (the pool the fresh one left) when asked; this process runs the
bare batch. Each round runs the bare batch, then each checkout's pair, the checkouts' order
alternating round by round, so that a load that drifts weighs on each alike. Prints each
way's median wall time and its x bare (the median of the per-round ratios), and each
checkout's CPU per program (its process and every process it started, fresh and reused
batches together, pool starts included) against bare's. A measurement: no target (the
target of #39 is `sandbox_throughput.py`'s).

    git worktree add /tmp/before HEAD~3
    python benchmarks/sandbox_batch_ab.py --rounds 10 before=/tmp/before after=.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import Report
from sandbox_throughput import TRIVIAL, bare_batch, cpu_seconds, no_warm_servers, sandbox_batch


def serve(size: int, workers: int) -> None:
    """A checkout's process: for each line `fresh` or `reused` on stdin, that batch; one
    JSON line back with its wall seconds and the CPU seconds spent since the last answer
    (a pool's CPU counts once it is closed: after `reused`)."""
    batch = sandbox_batch(TRIVIAL, size, workers)
    batch()  # warm-up: caches, the staged harness
    no_warm_servers()
    for line in sys.stdin:
        way = line.strip()
        before = cpu_seconds()
        if way == "fresh":
            no_warm_servers()
        start = time.perf_counter()
        batch()
        wall = time.perf_counter() - start
        if way == "reused":
            no_warm_servers()
        print(json.dumps({"wall": wall, "cpu": cpu_seconds() - before}), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="*", metavar="NAME=PATH",
                        help="a name and the root of a checkout holding sandbox/")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--batch", type=int, default=200, help="programs per batch")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.batch, args.workers)
        return 0
    if not args.checkouts or not all("=" in item for item in args.checkouts):
        parser.error("give each checkout as NAME=PATH")
    report = Report()
    checkouts = dict(item.split("=", 1) for item in args.checkouts)
    procs = {name: subprocess.Popen(
        [sys.executable, __file__, "--serve", "--batch", str(args.batch), "--workers",
         str(args.workers)], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True, env={**os.environ, "PYTHONPATH": str(Path(root).resolve())})
        for name, root in checkouts.items()}

    def ask(name: str, way: str) -> dict[str, float]:
        proc = procs[name]
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(way + "\n")
        proc.stdin.flush()
        answer: dict[str, float] = json.loads(proc.stdout.readline())
        return answer

    bare = bare_batch(TRIVIAL, args.batch, args.workers)
    wall: dict[str, list[float]] = {"bare": []}
    cpu = dict.fromkeys(["bare", *checkouts], 0.0)
    loads = []
    for k in range(args.rounds):
        loads.append(os.getloadavg()[0])
        before = cpu_seconds()
        start = time.perf_counter()
        bare()
        wall["bare"].append(time.perf_counter() - start)
        cpu["bare"] += cpu_seconds() - before
        for name in list(checkouts)[::1 if k % 2 == 0 else -1]:
            for way in ("fresh", "reused"):
                answer = ask(name, way)
                wall.setdefault(f"{name} {way}", []).append(answer["wall"])
                cpu[name] += answer["cpu"]
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(60)
    print(f"batch of {args.batch} trivial programs, {args.workers} workers, {args.rounds} "
          f"rounds; load (1-minute average) median {statistics.median(loads):.1f}, "
          f"{min(loads):.1f}-{max(loads):.1f}")
    print(f"{'way':<20} {'median s':>9} {'x bare':>7}   each round (s)")
    for way, took in wall.items():
        ratio = statistics.median(b / t for b, t in zip(wall["bare"], took))
        print(f"{way:<20} {statistics.median(took):>9.3f} {ratio:>7.2f}   "
              + " ".join(f"{t:.3f}" for t in took))
    per_program = {name: 1000 * c / (args.rounds * args.batch * (1 if name == "bare" else 2))
                   for name, c in cpu.items()}
    print("CPU per program (ms): " + ", ".join(
        f"{name} {ms:.2f}" + ("" if name == "bare" else f" ({per_program['bare'] / ms:.2f}x)")
        for name, ms in per_program.items()))
    return report.finish()


if __name__ == "__main__":
    raise SystemExit(main())
