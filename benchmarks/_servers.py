"""What the server benchmarks share: a free local port, and a process's memory from /proc."""

from __future__ import annotations

import socket

__all__ = ["free_port", "memory_mb"]


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
