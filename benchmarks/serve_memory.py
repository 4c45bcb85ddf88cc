"""Memory of `rewards serve` under requests that wait: 16 concurrent 15 MB `/get_reward`
bodies against a reward that takes 1 s a sample, scored one request at a time
(`--no-batching --max-inflight 1`, so 15 wait), then one small request. Prints the server's
resident memory before and at its peak (VmHWM), the status codes and the small request's
reward.

    python benchmarks/serve_memory.py
    python benchmarks/serve_memory.py --bodies 8 --body-mb 8   # quicker

The peer is the same command on the tree before the bound (`--max-held-mb`): run both from
a folder outside the trees (the server's `python -m` puts the current folder first on
sys.path), with PYTHONPATH pointing at the tree measured."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from _report import Report
from _servers import memory_mb, start_serve

SLOW = """import time
from rewards import Sample, reward

@reward
def slow(sample: Sample) -> float:
    time.sleep(1.0)
    return float(len(sample.completion) > 0)
"""
CONFIG = 'domains:\n  default: {rewards: [{use: "slow_reward:slow", name: slow}]}\n'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=16)
    parser.add_argument("--body-mb", type=int, default=15)
    args = parser.parse_args()
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "slow_reward.py").write_text(SLOW)
        Path(tmp, "slow.yaml").write_text(CONFIG)
        proc, url = start_serve(tmp, "slow.yaml", "--no-batching", "--max-inflight", "1")
        try:
            before = memory_mb(proc.pid, "VmRSS")
            # encoded once: 16 clients encoding 15 MB each would pace the requests instead
            body = json.dumps({"query": ["x" * (args.body_mb << 20)]}).encode()

            def big(_: int) -> int:
                return httpx.post(f"{url}/get_reward", content=body, timeout=600,
                                  headers={"Content-Type": "application/json"}).status_code

            with ThreadPoolExecutor(args.bodies) as pool:
                codes = sorted(pool.map(big, range(args.bodies)))
            small = httpx.post(f"{url}/get_reward", json={"query": ["hi"]}, timeout=60)
            print(f"{args.bodies} x {args.body_mb} MB bodies: RSS {before} MB before, peak "
                  f"{memory_mb(proc.pid, 'VmHWM')} MB; status codes {codes}; a small "
                  f"request after them: {small.status_code} {small.json().get('rewards')}")
            report.verdict("the small request after the bodies answered", int(
                small.status_code == 200 and small.json().get("rewards") == [1.0]), 1)
        finally:
            proc.terminate()
            proc.wait()
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
