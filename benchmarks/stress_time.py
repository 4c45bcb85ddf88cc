"""`rewards stress` on the bundled configs and rows: how long a user waits for the attack
report before a run (target: under two minutes on a 2-core machine), and that it passes.

    python benchmarks/stress_time.py                 # --all-builtins, then the default config
    python benchmarks/stress_time.py --only all      # one of: all, default

Each run is the command as a user types it, a fresh process timed from start to exit; the
report's own failures count as wrong verdicts (exit 1), a run over the target as a missed
target (exit 3), as every benchmark here (benchmarks/_report.py). No peer: no other tool
attacks a reward config; the figure is the wait itself."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import Report

RUNS = {"all": ["--all-builtins"], "default": []}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(RUNS), default=None)
    parser.add_argument("--target-s", type=float, default=120.0)
    args = parser.parse_args()
    report = Report()
    for name, extra in RUNS.items():
        if args.only and name != args.only:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "stress.json"
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "rewards", "stress", *extra,
                                   "--report", str(out)], capture_output=True, text=True,
                                  check=False, cwd=tmp)
            seconds = time.perf_counter() - start
        summary = next((line for line in done.stdout.splitlines() if " probes on " in line), "")
        print(f"rewards stress {' '.join(extra) or '(default config)'}: {seconds:.1f} s, "
              f"exit {done.returncode}; {summary}")
        for line in done.stdout.splitlines():
            if line.startswith("FAIL "):
                print(f"  {line}")
        if done.returncode not in (0, 1):
            print(done.stderr[-2000:])
        report.target(f"{name}: seconds to the report", seconds, args.target_s, unit=" s",
                      higher_is_better=False)
        report.verdict(f"{name}: rewards stress passes", int(done.returncode == 0), 1)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
