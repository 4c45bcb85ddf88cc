"""The host-side bound on a session's CPU: one thread per process reads the CPU meter (a
cgroup's, see `_cgroup.CpuMeter`) of every session jail it watches each `CPU_POLL_S`, and
stops a jail whose processes together spent its allowance, during a call as between
calls (children a cell left running burn the episode's CPU too). Stopping a jail kills its
pid 1 (the session server) by a pidfd, and the kernel then kills every process of the
jail's pid namespace: no program can outlive it, delay it or hide from the meter.

What bounds the overshoot: the meter is read every CPU_POLL_S seconds of wall time, and
the kill lands within a scheduler tick of the read, so a jail spends at most its allowance
plus CPU_POLL_S (and the watcher's own wake-up latency) times the CPUs its processes run on
at once (at most the host's CPUs, at most the session's `Limits.processes`).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Protocol

__all__ = ["CPU_POLL_S", "CpuWatch", "jail_init"]

CPU_POLL_S = 0.1
"""Seconds between two readings of a watched jail's CPU meter."""


class Watched(Protocol):
    def check_cpu(self) -> bool:
        """Stop the jail if it spent its allowance; whether it is stopped."""
        ...


class CpuWatch:
    """The thread reading the watched jails' meters; it runs while there is one to watch."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.jails: set[Watched] = set()
        self.thread: threading.Thread | None = None

    def add(self, jail: Watched) -> None:
        with self.lock:
            self.jails.add(jail)
            if self.thread is None:
                self.thread = threading.Thread(target=self._loop, daemon=True,
                                               name="sandbox-session-cpu")
                self.thread.start()

    def discard(self, jail: Watched) -> None:
        with self.lock:
            self.jails.discard(jail)

    def _loop(self) -> None:
        while True:
            time.sleep(CPU_POLL_S)
            with self.lock:
                jails = list(self.jails)
                if not jails:
                    self.thread = None
                    return
            for jail in jails:
                jail.check_cpu()

    def forget(self) -> None:
        """In a forked copy of this process: the parent's jails and thread are not ours."""
        self.lock = threading.Lock()
        self.jails = set()
        self.thread = None


def jail_init(nsjail_pid: int) -> int | None:
    """The host pid of the jail's pid 1: the one child of its nsjail process."""
    try:
        with open(f"/proc/{nsjail_pid}/task/{nsjail_pid}/children") as fh:
            children = fh.read().split()
        return int(children[0]) if len(children) == 1 else None
    except (OSError, ValueError):
        pass
    # a kernel without /proc/PID/task/TID/children: the process whose parent nsjail is
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat") as fh:
                    stat = fh.read()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == nsjail_pid:
                found.append(int(entry.name))
    return found[0] if len(found) == 1 else None
