"""Reward server throughput: `POST /get_reward` of `rewards serve` (math reward) on loopback,
one rollout per request as OpenRLHF sends them, at 1, 8 and 64 concurrent clients; the
micro-batching server against the same server with `--no-batching`, in one run.

    python benchmarks/server_throughput.py            # up to 600 requests / 30 s per row
    python benchmarks/server_throughput.py --quick    # up to 200 requests / 12 s per row
    python benchmarks/server_throughput.py --config my_reward.yaml   # your own reward config

With `--config`, the same math rollouts are scored by your config (labels are not checked).

Prints requests/s, p50 and p99 latency, the mean batch the server scored and the CPU
milliseconds a request cost the server (its worker processes included) and the clients, per
level and mode, and the speedup of batching over one-at-a-time scoring. The rollouts are the math
benchmark's labeled mix (`benchmarks/math_throughput.py`): the same ones at every level and for
both servers, so that levels compare (a mix of 200 holds 25 prompts, and how many of them need
sympy, 100-160 ms each, moves the work per mix by 4x from one seed to the next); every level
runs on freshly started servers, since the math reward caches verdicts. Each client has its
own keep-alive connection, as each OpenRLHF worker process has, written by a small hand-made
HTTP/1.1 client (`Connection`) whose cost per request does not grow with the clients; every
reply is checked against its label."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import Report
from _servers import cpu_seconds, free_port, wait_ready
from math_throughput import Pair, make_mix

PROMPT = "<|im_start|>user\nSolve the problem.<|im_end|>\n<|im_start|>assistant\n"
MATH_CONFIG = "domains:\n  math:\n    rewards:\n      - use: math\nnormalize: none\n"


@dataclass
class Level:
    mode: str
    clients: int
    requests: int
    seconds: float
    latencies: list[float]
    batches: int
    wrong: int
    server_cpu: float
    """CPU seconds of the server and its worker processes during the level."""
    client_cpu: float
    """CPU seconds of this process (the clients) during the level."""

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def merge(parts: list[Level]) -> Level:
    """One row from the rounds of one level and mode."""
    return Level(parts[0].mode, parts[0].clients, sum(p.requests for p in parts),
                 sum(p.seconds for p in parts), [t for p in parts for t in p.latencies],
                 sum(p.batches for p in parts), sum(p.wrong for p in parts),
                 sum(p.server_cpu for p in parts), sum(p.client_cpu for p in parts))


def start_server(config: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get(
        "PYTHONPATH", "")])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "rewards", "serve", "--config", str(config), "--port", str(port),
         "--log-level", "warning", *extra], env=env)
    url = f"http://127.0.0.1:{port}"
    wait_ready(proc, f"{url}/health", seconds=60)
    return proc, url


class Connection:
    """One client's keep-alive HTTP/1.1 connection, written by hand: a request costs this
    process a few syscalls and a JSON dump. httpx spent 0.7 ms of CPU a request at one client
    and 2.2 ms at 64 (one client object shared by 64 coroutines, most of a core, in its
    connection pool), on the 2 cores the server runs on: the benchmark measured itself."""

    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("http://").rsplit(":", 1)
        self.host, self.port = host, int(port)
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, body: object = None) -> tuple[int, object]:
        """(status, parsed JSON reply)."""
        if self.streams is None:
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        data = b"" if body is None else json.dumps(body).encode()
        writer.write(f"{method} {path} HTTP/1.1\r\nhost: {self.host}:{self.port}\r\n"
                     f"content-type: application/json\r\ncontent-length: {len(data)}\r\n"
                     f"\r\n".encode() + data)
        status = int((await reader.readline()).split()[1])
        headers = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        reply = json.loads(await reader.readexactly(int(headers[b"content-length"])))
        if headers.get(b"connection") == b"close":
            await self.close()
        return status, reply

    async def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


async def run_level(url: str, pid: int, mode: str, clients: int, pairs: list[Pair],
                    time_limit: float, *, check: bool = True) -> Level:
    """`clients` clients sending `pairs` to the server at `url` (process `pid`) until all
    are sent or `time_limit` seconds passed."""
    latencies: list[float] = []
    wrong = 0
    next_index = 0

    async def client(connection: Connection) -> None:
        nonlocal next_index, wrong
        while next_index < len(pairs) and time.perf_counter() - start < time_limit:
            pair = pairs[next_index]
            next_index += 1
            body = {"query": [PROMPT + pair.completion + "<|im_end|>"], "prompts": [PROMPT],
                    "labels": [pair.gold]}
            sent = time.perf_counter()
            status, reply = await connection.request("POST", "/get_reward", body)
            latencies.append(time.perf_counter() - sent)
            if status != 200:
                raise SystemExit(f"/get_reward answered {status}: {reply}")
            if check and (reply["rewards"][0] == 1.0) != pair.correct:
                wrong += 1

    connections = [Connection(url) for _ in range(clients)]
    try:
        # every client's connection open before the clock starts, as a trainer's are
        await asyncio.gather(*(c.request("GET", "/health") for c in connections))
        before = (await connections[0].request("GET", "/health"))[1]["stats"]
        server_cpu, client_cpu = cpu_seconds(pid), time.process_time()
        start = time.perf_counter()
        await asyncio.gather(*(client(c) for c in connections))
        seconds = time.perf_counter() - start
        server_cpu, client_cpu = cpu_seconds(pid) - server_cpu, time.process_time() - client_cpu
        after = (await connections[0].request("GET", "/health"))[1]["stats"]
    finally:
        for c in connections:
            await c.close()
    return Level(mode, clients, len(latencies), seconds, latencies,
                 after["batches"] - before["batches"], wrong, server_cpu, client_cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer requests, shorter levels")
    parser.add_argument("--requests", type=int, default=None,
                        help="most requests per level and mode (default 600; --quick 200)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="time limit per level and mode (default 30; --quick 12)")
    parser.add_argument("--clients", default="1,8,64", help="concurrency levels (default 1,8,64)")
    parser.add_argument("--config", default=None,
                        help="a reward config to serve instead of the math reward")
    parser.add_argument("--rounds", type=int, default=3,
                        help="each level runs in this many rounds, alternating the two servers, "
                             "so that load drifting on a shared machine hits both (default 3)")
    parser.add_argument("--max-wait-ms", default="5",
                        help="the batched server's --max-wait-ms (default 5)")
    args = parser.parse_args()
    report = Report()
    count = args.requests or (200 if args.quick else 600)
    limit = args.seconds or (12.0 if args.quick else 30.0)
    levels = [int(c) for c in args.clients.split(",")]

    with tempfile.TemporaryDirectory() as tmp:
        config = Path(args.config) if args.config else Path(tmp) / "math.yaml"
        if not args.config:
            config.write_text(MATH_CONFIG)
        check = args.config is None  # the labels are the math verifier's
        modes = {"batched": ("--max-wait-ms", args.max_wait_ms),
                 "one-at-a-time": ("--no-batching",)}
        # the same rollouts at every level: `--rounds` mixes, each level's rounds alternating
        # the two servers so that load drifting on a shared machine hits both
        rounds = [make_mix(max(1, count // args.rounds), seed=1000 + k)
                  for k in range(args.rounds)]
        warm = make_mix(8, seed=99)
        results: list[Level] = []
        for clients in levels:
            servers = {}  # fresh for every level: no verdict cached by an earlier one
            try:
                for mode, extra in modes.items():
                    servers[mode] = start_server(config, *extra)
                for proc, url in servers.values():
                    asyncio.run(run_level(url, proc.pid, "warm", 1, warm, 5.0, check=check))
                parts: dict[str, list[Level]] = {mode: [] for mode in servers}
                for k, pairs in enumerate(rounds):
                    order = list(servers.items())[:: 1 if k % 2 == 0 else -1]
                    for mode, (proc, url) in order:
                        parts[mode].append(asyncio.run(run_level(
                            url, proc.pid, mode, clients, pairs, limit / args.rounds,
                            check=check)))
                results += [merge(levels_of_mode) for levels_of_mode in parts.values()]
            finally:
                for proc, _ in servers.values():
                    proc.terminate()
                    proc.wait(timeout=10)

    print(f"\n/get_reward, {args.config or 'math'} reward, one rollout per request, loopback "
          f"({os.cpu_count()} CPUs; up to {count} requests or {limit:.0f} s per row)\n")
    print(f"{'clients':>7} {'mode':<14} {'requests':>8} {'req/s':>8} {'p50 ms':>8} "
          f"{'p99 ms':>8} {'mean batch':>10} {'server CPU':>10} {'client CPU':>10} "
          f"{'mismatch':>8}")
    for r in results:
        batch = r.requests / r.batches if r.batches else 0.0
        print(f"{r.clients:>7} {r.mode:<14} {r.requests:>8} {r.rps:>8.1f} "
              f"{r.percentile(0.5):>8.1f} {r.percentile(0.99):>8.1f} {batch:>10.1f} "
              f"{r.server_cpu / r.requests * 1000:>10.2f} "
              f"{r.client_cpu / r.requests * 1000:>10.2f} {r.wrong:>8}")
    print()
    for clients in levels:
        on = next(r for r in results if r.clients == clients and r.mode == "batched")
        off = next(r for r in results if r.clients == clients and r.mode == "one-at-a-time")
        print(f"{clients:>3} clients: micro-batching {on.rps / off.rps:.2f}x the requests/s of "
              f"one-at-a-time scoring (p50 {statistics.median(on.latencies) * 1000:.1f} ms vs "
              f"{statistics.median(off.latencies) * 1000:.1f} ms)")
    batched = {r.clients: r for r in results if r.mode == "batched"}
    most, least = max(levels), min(levels)
    if not args.config and most > least:
        report.target(f"req/s at {most} clients / at {least}", batched[most].rps
                      / batched[least].rps, 1.0)
        report.target(f"p99 at {most} clients (ms)", batched[most].percentile(0.99), 100.0,
                      unit=" ms", higher_is_better=False)
    if check:
        answered = sum(r.requests for r in results)
        report.verdict("rewards equal to the labels", answered - sum(r.wrong for r in results),
                       answered)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
