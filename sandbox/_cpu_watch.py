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

Where no cgroup counts a jail's CPU, `ProcMeter` reads the host's /proc instead (the jail
has none): the CPU of every living process of the jail and of the children each waited
for, and what the jail's pid 1 reaped. It misses only processes reaped unseen (a parent that
ignores SIGCHLD), whose CPU no count keeps.
"""

from __future__ import annotations

import os
import select
import threading
import time
from typing import Protocol

__all__ = ["CPU_POLL_S", "CpuWatch", "ProcMeter", "jail_init"]

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


class ProcMeter:
    """CPU seconds of a jail's processes from the host's /proc, for a jail no cgroup
    counts: what its pid 1 reaped (its `cutime` + `cstime`: the kernel's RUSAGE_CHILDREN)
    plus, for each living descendant, its own CPU and its waited-for children's. Read
    parents first: a process reaped during a reading is counted in its own line or its
    parent's, never both (it may be missed once; the next reading has it). Once pid 1 is
    gone it keeps its last reading.

    /proc names processes by number, and a number is free again once its process is
    reaped: the meter holds a pidfd of pid 1 and keeps a reading only when pid 1 was still
    alive after it was taken (a process's life is one span, so then it was alive, and its
    number its own, all through the reading). A reading begun after pid 1 ended, or during
    which it ended, is dropped, so a process that later takes the number (another
    session's, the host's) is never read as the jail's."""

    def __init__(self, init: int, pidfd: int) -> None:
        self.init = init
        self.last = 0.0
        self._tick = float(os.sysconf("SC_CLK_TCK"))
        self._pidfd = pidfd
        self._lock = threading.Lock()
        self.last = self.seconds()

    @staticmethod
    def open(init: int) -> ProcMeter | None:
        """The meter of the jail whose pid 1 is `init`; None where /proc cannot say it (a
        kernel without /proc/PID/task/TID/children) or `init` is already gone."""
        if not os.path.exists(f"/proc/{init}/task/{init}/children"):
            return None
        try:
            pidfd = os.pidfd_open(init)
        except OSError:
            return None
        return ProcMeter(init, pidfd)

    def _alive(self) -> bool:
        """Whether pid 1 has not ended (its pidfd turns readable when it does)."""
        return self._pidfd >= 0 and not select.select([self._pidfd], [], [], 0)[0]

    def seconds(self) -> float:
        with self._lock:
            if not self._alive():  # pid 1 is gone: the jail ended, its number may be reused
                return self.last
            ticks = _stat_ticks(self.init, own=False)
            if ticks is None:
                return self.last
            stack = _children(self.init)
            while stack:
                pid = stack.pop()
                mine = _stat_ticks(pid, own=True)
                if mine is not None:
                    ticks += mine
                    stack += _children(pid)
            if not self._alive():  # it ended during the reading: the reading may be another's
                return self.last
            self.last = max(self.last, ticks / self._tick)
            return self.last

    def close(self) -> None:
        with self._lock:
            if self._pidfd >= 0:
                os.close(self._pidfd)
                self._pidfd = -1


def _stat_ticks(pid: int, *, own: bool) -> int | None:
    """Clock ticks of `pid`'s waited-for children (`cutime` + `cstime`), and with `own` its
    own (`utime` + `stime`) too; None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rpartition(b")")[2].split()
        utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    except (OSError, ValueError):
        return None
    return cutime + cstime + (utime + stime if own else 0)


def _children(pid: int) -> list[int]:
    """`pid`'s children, those of each of its threads."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                found += (int(child) for child in fh.read().split())
        except (OSError, ValueError):
            continue
    return found


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
