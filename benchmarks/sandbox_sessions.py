"""Sandbox sessions (`sandbox.open_session`) against the peer that keeps no state: replaying
the whole context per call (a fresh `sandbox.run`, warm, of every earlier cell and the new
one), measured in the same run, the two taking turns.

Measures:
- the latency of one call in a live session (a cell that updates a variable), p50 and p99,
  against the replay peer's call at the same point of the same episode;
- `Session.fork(1)` of a session holding 200 MB (a bytes object built by its first cell),
  p50 and p99, with the replay peer's cost of one call in that context beside it; and of a
  session as an agent's calls leave it (imports, a table, a helper, a file), no target.
  A fork replays the parent's cells in a jail of its own (see sandbox/_session.py for why
  not an os.fork): its cost is the cells' own time, on a jail started ahead.

Targets (issue 38): a session call's p50 <= 5 ms; a fork of a 200 MB session p99 <= 20 ms.
Verdicts: every call prints what the replay peer prints for the same episode, and every
sibling holds the parent's 200 MB and its next random draw. Report and exit status as every
benchmark's (benchmarks/_report.py).

    python benchmarks/sandbox_sessions.py           # ~1-2 minutes on 2 cores
    python benchmarks/sandbox_sessions.py --quick
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import Report

import sandbox

BIG = "import random\nrandom.random()\ndata = bytes(range(256)) * (200 << 12)  # 200 MiB\n"
SMALL = ["import json, math, re", "rows = [{'i': i, 'sq': i * i} for i in range(100)]",
         "def mean(xs):\n    return sum(xs) / len(xs)", "m = mean([r['sq'] for r in rows])",
         "open('rows.json', 'w').write(json.dumps(rows))"]
"""A session as an agent's calls leave it: imports, a table, a helper, a file."""
LIMITS = sandbox.Limits(wall_s=20.0, cpu_s=20.0, memory_bytes=1 << 30)


def cells(turns: int) -> list[str]:
    """An episode whose every call uses what the one before set."""
    return ["x = 1\nprint(x)"] + [f"x = x * 3 % 1000 + {i}\nprint(x)" for i in range(1, turns)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def calls(report: Report, episodes: int, turns: int) -> None:
    ours, peer, right, total = [], [], 0, 0
    for _ in range(episodes):
        episode = cells(turns)
        with sandbox.open_session(limits=LIMITS) as session:
            for turn, code in enumerate(episode):
                start = time.perf_counter()
                mine = session.run(code)
                ours.append(time.perf_counter() - start)
                start = time.perf_counter()
                replayed = sandbox.run("\n".join(episode[:turn + 1]), limits=LIMITS)
                peer.append(time.perf_counter() - start)
                total += 1
                right += mine.ok and mine.stdout == replayed.stdout.splitlines(True)[-1]
    print(f"calls ({episodes} episodes x {turns} turns)      p50 ms   p99 ms")
    print(f"  session (sandbox.open_session)  {1e3 * percentile(ours, .5):8.2f} "
          f"{1e3 * percentile(ours, .99):8.2f}")
    print(f"  replay per call (sandbox.run)   {1e3 * percentile(peer, .5):8.2f} "
          f"{1e3 * percentile(peer, .99):8.2f}")
    report.target("session call p50 (ms)", 1e3 * percentile(ours, .5), 5, unit=" ms",
                  higher_is_better=False)
    report.verdict("session calls print what the replay peer prints", right, total)


def forks(report: Report, rounds: int) -> None:
    ours, peer, right, draws = [], [], 0, set()
    with sandbox.open_session(limits=LIMITS, options=sandbox.SessionOptions(seed=7)) as parent:
        assert parent.run(BIG).ok
        parent.fork(1)[0].close()  # the first fork sets the spares of this shape going
        for _ in range(rounds):
            time.sleep(0.5)  # as between an RL step's forks: the next spare jail is up
            start = time.perf_counter()
            sibling, = parent.fork(1)
            ours.append(time.perf_counter() - start)
            with sibling:
                size, draw = sibling.run("print(len(data), random.random())").stdout.split()
                right += size == str(200 << 20)
                draws.add(draw)
            start = time.perf_counter()
            sandbox.run(BIG + "print(len(data))", limits=LIMITS)
            peer.append(time.perf_counter() - start)
        # every sibling's next draw is the parent's next draw
        right += draws == {parent.run("print(random.random())").stdout.strip()}
    small = []
    with sandbox.open_session(limits=LIMITS) as parent:
        for code in SMALL:
            assert parent.run(code).ok
        parent.fork(1)[0].close()
        for _ in range(rounds):
            time.sleep(0.5)
            start = time.perf_counter()
            sibling, = parent.fork(1)
            small.append(time.perf_counter() - start)
            with sibling:
                right += sibling.run("print(len(rows))").stdout == "100\n"
    print(f"\nfork of a 200 MB session ({rounds} forks)       p50 ms   p99 ms")
    print(f"  Session.fork(1)                 {1e3 * percentile(ours, .5):8.1f} "
          f"{1e3 * percentile(ours, .99):8.1f}")
    print(f"  replay per call (sandbox.run)   {1e3 * percentile(peer, .5):8.1f} "
          f"{1e3 * percentile(peer, .99):8.1f}")
    print(f"  (mean fork {1e3 * statistics.mean(ours):.1f} ms)")
    print(f"fork of an agent-sized session ({len(SMALL)} cells, no target)")
    print(f"  Session.fork(1)                 {1e3 * percentile(small, .5):8.1f} "
          f"{1e3 * percentile(small, .99):8.1f}")
    report.target("fork of a 200 MB session p99 (ms)", 1e3 * percentile(ours, .99), 20,
                  unit=" ms", higher_is_better=False)
    report.verdict("siblings hold the parent's data and random state", right, 2 * rounds + 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer episodes and forks")
    args = parser.parse_args()
    report = Report()
    calls(report, episodes=3 if args.quick else 10, turns=10)
    forks(report, rounds=5 if args.quick else 20)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
