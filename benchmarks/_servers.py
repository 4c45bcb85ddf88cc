"""What the server benchmarks share: a free local port, starting `rewards serve` on a config
in a folder of plugins, waiting for a started server to answer, and a process's memory from
/proc (its memory, and the CPU time of it and the processes it started)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

__all__ = ["cpu_seconds", "free_port", "memory_mb", "start_serve", "wait_ready"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def memory_mb(pid: int, field: str) -> int:
    """`field` of /proc/PID/status (`VmRSS`, `VmHWM` ...) in MiB."""
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith(field):
                return int(line.split()[1]) // 1024
    raise RuntimeError(f"no {field} for pid {pid}")


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of `pid` and of every live process below it (a server's
    worker pools: the math reward's zygote and the workers forked from it), with those of
    their children already reaped (a worker killed and replaced), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:  # gone since the listing
                continue
            stats[int(entry)] = (int(fields[1]), sum(map(int, fields[11:15])) / tick)
    below = {pid}
    grew = True
    while grew:  # pids are reused: a child's pid may be lower than its parent's
        grew = False
        for child, (parent, _) in stats.items():
            if parent in below and child not in below:
                below.add(child)
                grew = True
    return sum(stats[member][1] for member in below if member in stats)


def wait_ready(proc: subprocess.Popen, url: str, *, seconds: float = 120.0) -> None:
    """Return once GET `url` answers 200; `SystemExit` (the server killed) if `proc` exits
    first or `seconds` pass."""
    import httpx

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server did not answer {url} within {seconds:g} s")


def start_serve(folder: str, config: str, *options: str,
                quiet: bool = False) -> tuple[subprocess.Popen, str]:
    """`rewards serve --config FOLDER/CONFIG OPTIONS` on a free port, with FOLDER (its
    plugins) on PYTHONPATH after the caller's; returns (process, base URL) once /health
    answers. `quiet`: the server's stderr is discarded."""
    path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), folder) if p)
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rewards", "serve", "--config", f"{folder}/{config}", *options,
         "--port", str(port), "--log-level", "warning"],
        env={**os.environ, "PYTHONPATH": path},
        stderr=subprocess.DEVNULL if quiet else None)
    url = f"http://127.0.0.1:{port}"
    wait_ready(proc, f"{url}/health")
    return proc, url
