"""Honest clients of `rewards serve` beside a trickling client and four 15 MB bodies.

64 honest clients post small `/get_reward` requests back to back for `--seconds`, alone (the
baseline), then again while, from another process, one client declares a large body and
sends a byte a second (reconnecting whenever it is cut off) and four clients post a 15 MB body
each, at once (`--repeat`: over and over, for the whole phase). Prints the honest clients' p99 latency in both phases and their ratio, the
server's peak memory growth under the four bodies against twice their size, and whether both
targets are met (p99 ratio < 2, growth < 2x); report and exit status as every benchmark's
(benchmarks/_report.py: 3 when a target is missed, 1 when an honest request was not answered
200).

    python benchmarks/serve_slow_clients.py                    # 10 s a phase
    python benchmarks/serve_slow_clients.py --seconds 5 --kind text

`--kind values` (the default) sends bodies of 7.5 million small values (`[0,0,...]`, what
grew the server by 670 MB and stalled it for seconds); `--kind text` one 15 MB string each
(an honest large body, scored). Run it from a folder outside the tree with PYTHONPATH
pointing at the tree measured (the server's `python -m` puts the current folder first)."""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

from _report import Report
from _servers import memory_mb, start_serve

LENGTH = """from rewards import Sample, reward

@reward
def length(sample: Sample) -> float:
    return float(len(sample.completion) > 0)
"""
CONFIG = 'domains:\n  default: {rewards: [{use: "length_reward:length", name: length}]}\n'
HONEST = json.dumps({"query": ["The answer is 4."], "labels": ["4"]}).encode()


def request(port: int, body: bytes, *, length: int | None = None) -> bytes:
    """The head of a POST /get_reward carrying `body` (its length declared as `length`)."""
    return (f"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: "
            f"{len(body) if length is None else length}\r\n\r\n").encode()


async def read_reply(reader: asyncio.StreamReader) -> int:
    """Read one HTTP reply; its status."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = next(int(line.split(":", 1)[1]) for line in lines
                  if line.lower().startswith("content-length:"))
    await reader.readexactly(length)
    return int(lines[0].split()[1])


async def honest(port: int, until: float, latencies: list[float], statuses: list[int]) -> None:
    """One honest client: small requests back to back on one connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    message = request(port, HONEST) + HONEST
    try:
        while time.monotonic() < until:
            start = time.monotonic()
            writer.write(message)
            await writer.drain()
            statuses.append(await read_reply(reader))
            latencies.append(time.monotonic() - start)
    finally:
        writer.close()


async def honest_phase(port: int, clients: int, seconds: float) -> tuple[list[float], list[int]]:
    latencies: list[float] = []
    statuses: list[int] = []
    until = time.monotonic() + seconds
    await asyncio.gather(*(honest(port, until, latencies, statuses) for _ in range(clients)))
    return latencies, statuses


def p99(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


async def trickle(port: int, declared: int, until: float, cut: list[int]) -> None:
    """Declare `declared` bytes and send one a second; reconnect when cut off."""
    while time.monotonic() < until:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        reply = asyncio.ensure_future(read_reply(reader))
        try:
            writer.write(request(port, b"", length=declared) + b"[")
            await writer.drain()
            while time.monotonic() < until and not reply.done():
                await asyncio.wait({reply}, timeout=1.0)
                if not reply.done():
                    writer.write(b"0")
                    await writer.drain()
            if reply.done():
                cut.append(reply.result())
        except (ConnectionError, asyncio.IncompleteReadError):
            cut.append(0)
        finally:
            reply.cancel()
            writer.close()


async def big(port: int, body: bytes, until: float, statuses: list[int],
              repeat: bool) -> None:
    """Post `body` once, or (`repeat`) over and over until `until`."""
    first = True
    while first or (repeat and time.monotonic() < until):
        first = False
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(request(port, body))
            writer.write(body)
            await writer.drain()
            statuses.append(await read_reply(reader))
        except (ConnectionError, asyncio.IncompleteReadError):
            statuses.append(0)
        finally:
            writer.close()


def attackers(port: int, body_mb: int, kind: str, trickle_mb: int, seconds: float,
              repeat: bool, out: multiprocessing.Queue) -> None:
    """The trickler and the four large-body clients (in their own process)."""
    if kind == "values":
        body = b'{"query": [' + b"0," * ((body_mb * 10**6) // 2 - 8) + b'0]}'
    else:
        body = json.dumps({"query": ["x" * (body_mb * 10**6 - 20)]}).encode()
    cut: list[int] = []
    statuses: list[int] = []

    async def main() -> None:
        until = time.monotonic() + seconds
        trickler = [trickle(port, trickle_mb << 20, until, cut)] if trickle_mb else []
        await asyncio.gather(*trickler,
                             *(big(port, body, until, statuses, repeat) for _ in range(4)))

    out.put(len(body))
    asyncio.run(main())  # the trickler connects first: it finds the server idle
    out.put((sorted(cut), sorted(statuses)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--body-mb", type=int, default=15)
    parser.add_argument("--kind", choices=("values", "text"), default="values")
    parser.add_argument("--repeat", action="store_true",
                        help="the four clients post their bodies over and over")
    parser.add_argument("--trickle-mb", type=int, default=64,
                        help="what the trickler declares, in MiB (default: 64, the server's "
                             "whole bound on held bodies; 0: no trickler)")
    args = parser.parse_args()
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "length_reward.py").write_text(LENGTH)
        Path(tmp, "length.yaml").write_text(CONFIG)
        proc, url = start_serve(tmp, "length.yaml", quiet=True)
        port = int(url.rsplit(":", 1)[1])
        try:
            asyncio.run(honest_phase(port, args.clients, 1.0))  # warm the connections
            base, base_status = asyncio.run(honest_phase(port, args.clients, args.seconds))
            before = memory_mb(proc.pid, "VmRSS")
            with open(f"/proc/{proc.pid}/clear_refs", "w") as fh:
                fh.write("5")  # VmHWM starts again from the current RSS
            out: multiprocessing.Queue = multiprocessing.Queue()
            attack = multiprocessing.Process(target=attackers, args=(
                port, args.body_mb, args.kind, args.trickle_mb, args.seconds + 1.0, args.repeat,
                out))
            attack.start()
            body_size = out.get(timeout=120)
            time.sleep(0.5)  # the trickler and the bodies are in before the honest clients
            hit, hit_status = asyncio.run(honest_phase(port, args.clients, args.seconds))
            peak = memory_mb(proc.pid, "VmHWM")
            cut, bodies = out.get(timeout=120)
            attack.join(30)
        finally:
            proc.terminate()
            proc.wait()
    ratio = p99(hit) / p99(base)
    growth = peak - before
    allowed = 2 * 4 * body_size / 1e6
    print(f"honest clients: {args.clients}, {args.seconds:g} s a phase; baseline {len(base)} "
          f"requests, p99 {p99(base) * 1e3:.1f} ms; beside "
          f"{'a trickler and ' if args.trickle_mb else ''}four {args.body_mb} "
          f"MB bodies ({args.kind}{', repeated' if args.repeat else ''}) {len(hit)} requests, "
          f"p99 {p99(hit) * 1e3:.1f} ms")
    print(f"honest statuses: baseline {sorted(set(base_status))}, beside "
          f"{sorted(set(hit_status))}; large bodies answered {dict(_count(bodies))}; trickler "
          f"cut off with {dict(_count(cut))}")
    report.target("honest p99 beside the attack / alone", ratio, 2.0, higher_is_better=False)
    report.target(f"peak memory growth under 4 x {body_size / 1e6:.0f} MB bodies (MB)", growth,
                  allowed, unit=" MB", higher_is_better=False)
    honest = base_status + hit_status
    report.verdict("honest requests answered 200", sum(s == 200 for s in honest), len(honest))
    return report.finish()


def _count(values: list[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return counts


if __name__ == "__main__":
    sys.exit(main())
