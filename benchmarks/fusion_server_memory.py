"""Memory of `rewards sandbox serve` under requests that wait: 16 concurrent 15 MB bodies
against one worker (each program sleeps 1 s, so 15 wait), then 60 requests each with its own
`memory_limit_MB`. Prints the server's resident memory before and at its peak (VmHWM), the
status codes, and the server's child processes after the 60 limits (its warm pools' jails).

    python benchmarks/fusion_server_memory.py
    python benchmarks/fusion_server_memory.py --bodies 8 --body-mb 8 --limits 20   # quicker

The peer is the same command on the tree before the bound (held bodies and the pool LRU):
run it with PYTHONPATH pointing there."""

from __future__ import annotations

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import httpx
from _report import Report
from _servers import free_port, memory_mb, wait_ready


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=int, default=16)
    parser.add_argument("--body-mb", type=int, default=15)
    parser.add_argument("--limits", type=int, default=60)
    args = parser.parse_args()
    report = Report()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "rewards", "sandbox", "serve", "--workers",
                             "1", "--port", str(port), "--log-level", "warning"])
    try:
        wait_ready(proc, f"{url}/v1/ping")
        before = memory_mb(proc.pid, "VmRSS")
        code = "#" * (args.body_mb << 20) + "\nimport time\ntime.sleep(1)\nprint('ok')\n"

        def big(_: int) -> int:
            return httpx.post(f"{url}/run_code", json={"code": code, "language": "python"},
                              timeout=600).status_code

        with ThreadPoolExecutor(args.bodies) as pool:
            codes = sorted(pool.map(big, range(args.bodies)))
        print(f"{args.bodies} x {args.body_mb} MB bodies: RSS {before} MB before, peak "
              f"{memory_mb(proc.pid, 'VmHWM')} MB; status codes {codes}")
        limits = [httpx.post(f"{url}/run_code", timeout=60, json={
            "code": "print(1)", "language": "python", "memory_limit_MB": 200 + i}).status_code
            for i in range(args.limits)]
        children = subprocess.run(["pgrep", "-c", "-P", str(proc.pid)], capture_output=True,
                                  text=True, check=False).stdout.strip()
        print(f"{args.limits} memory limits: status codes {sorted(set(limits))}; the server's "
              f"child processes after them: {children}")
        report.verdict("requests with their own memory limit answered 200",
                       sum(code == 200 for code in limits), len(limits))
    finally:
        proc.terminate()
        proc.wait()
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
