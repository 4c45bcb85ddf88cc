"""Which cgroup holds a jail's memory as a whole: the host's cgroup v2 (through nsjail), a
cgroup v1 memory group made here for each run (or warm server), or none (then rlimits split
the budget among processes, see `_jail.process_budget`).

On cgroup v1 the limit sits on a group this module creates under the caller's own cgroup;
nsjail's own group for the jail, made inside it with a looser limit, only places the jail's
processes there. So the kernel's OOM killer runs for *this* group, and an eventfd on its
`memory.oom_control` says whether it ran: a forked child killed for memory makes the run a
`memory_limit` even when the program's main process exits 0. Nothing is left behind: each
group is removed when its run (or warm server) ends.

A session's jail also needs the CPU its processes spent together (those that exited
included), counted by something no program can touch: on cgroup v1 a `cpuacct` group made
beside the memory one (same name, under our own cpuacct cgroup: `MemoryGroup(cpu=True)`,
which the jail's nsjail process joins before it starts the jail, see `enter_argv`), on
cgroup v2 the `cpu.stat` of the group nsjail makes for the jail (`v2_cpu_meter`). Either is
read through a `CpuMeter`.
"""

from __future__ import annotations

import functools
import logging
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CgroupV1", "CpuMeter", "MemoryGroup", "cgroup_v1", "cgroup_v2_root", "sweep",
           "v2_cpu_meter"]

log = logging.getLogger("sandbox")

CGROUP_ROOT = "/sys/fs/cgroup"
"""Where the host's cgroup v2 hierarchy is mounted, if it has one."""
PROC = "/proc"
"""The host's process information (`PROC/PID/cgroup`: which groups a process is in)."""


@functools.cache
def cgroup_v2_root() -> str | None:
    """CGROUP_ROOT when it is a cgroup v2 hierarchy offering memory and pids, else None."""
    root = Path(CGROUP_ROOT)
    try:
        controllers = (root / "cgroup.controllers").read_text().split()
    except OSError:
        return None
    if os.environ.get("SANDBOX_NO_CGROUP") or not {"memory", "pids"} <= set(controllers):
        return None
    return str(root)


@dataclass(frozen=True)
class CgroupV1:
    """This process's place in the host's cgroup v1 memory (and pids) hierarchies."""

    memory_mount: str
    """Mount point of the v1 memory hierarchy (e.g. /sys/fs/cgroup/memory)."""
    memory_parent: str
    """Our own memory cgroup, relative to the mount: run groups are made inside it."""
    pids_mount: str | None = None
    """Mount point of the v1 pids hierarchy, when our pids cgroup there is writable."""
    pids_parent: str = ""
    """Our own pids cgroup, relative to `pids_mount` (nsjail makes the jail's inside it)."""
    cpuacct_mount: str | None = None
    """Mount point of the v1 cpuacct hierarchy, when our cpuacct cgroup there is writable."""
    cpuacct_parent: str = ""
    """Our own cpuacct cgroup, relative to `cpuacct_mount`: session groups are made in it."""

    def parents(self) -> list[str]:
        """The folders our groups are made in (memory, and cpuacct where we have it)."""
        folders = [os.path.join(self.memory_mount, self.memory_parent)]
        if self.cpuacct_mount is not None:
            folders.append(os.path.join(self.cpuacct_mount, self.cpuacct_parent))
        return folders


@functools.cache
def cgroup_v1() -> CgroupV1 | None:
    """The v1 memory hierarchy when the host has one and our cgroup in it is writable
    (root, or a delegated cgroup) and no cgroup v2 serves instead; else None."""
    if os.environ.get("SANDBOX_NO_CGROUP") or cgroup_v2_root():
        return None
    memory = _own_v1_cgroup("memory")
    if memory is None:
        return None
    pids = _own_v1_cgroup("pids")
    cpuacct = _own_v1_cgroup("cpuacct")
    return CgroupV1(*memory, *(pids or (None, "")), *(cpuacct or (None, "")))


def _own_v1_cgroup(controller: str) -> tuple[str, str] | None:
    """(mount, our cgroup relative to it) of one v1 controller, if we may write there."""
    mount = None
    try:
        with open("/proc/self/mounts") as fh:
            for line in fh:
                fields = line.split()
                if len(fields) > 3 and fields[2] == "cgroup" and \
                        controller in fields[3].split(","):
                    mount = fields[1]
        with open("/proc/self/cgroup") as fh:
            own = next((line.rstrip("\n").split(":", 2)[2] for line in fh
                        if controller in line.split(":", 2)[1].split(",")), None)
    except (OSError, IndexError):
        return None
    if mount is None or own is None:
        return None
    relative = own.strip("/")
    folder = os.path.join(mount, relative)
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):
        return None
    return mount, relative


class MemoryGroup:
    """One cgroup v1 memory group holding `limit_bytes` for every process placed in it
    (swap included where the kernel accounts it), and with `cpu` (where the host's cpuacct
    hierarchy is ours) a cpuacct group of the same name counting their CPU; removed by
    `close`."""

    def __init__(self, host: CgroupV1, limit_bytes: int, *, cpu: bool = False) -> None:
        # the creator's pid in the name: `sweep` removes the groups of processes that
        # died without closing theirs (a forked worker's warm servers, a killed caller)
        name = f"sandbox-{os.getpid()}-{secrets.token_hex(6)}"
        self.relative = os.path.join(host.memory_parent, name)
        self.path = os.path.join(host.memory_mount, self.relative)
        self.cpu_path: str | None = None
        """The cpuacct group (None: not asked for, or the host has none of ours)."""
        if cpu and host.cpuacct_mount is not None:
            self.cpu_path = os.path.join(host.cpuacct_mount, host.cpuacct_parent, name)
            os.mkdir(self.cpu_path, 0o755)
        try:
            os.mkdir(self.path, 0o755)
        except OSError:
            if self.cpu_path is not None:
                _remove(self.cpu_path)
            raise
        self._event = self._control = -1
        self._swap = os.path.exists(os.path.join(self.path, "memory.memsw.limit_in_bytes"))
        # kept open: a warm server's group is read and set before every run (pread/pwrite
        # at offset 0 read a fresh value and write a whole one)
        self._files: dict[str, int] = {}
        self.limit_bytes = 1 << 62
        try:
            self.set_limit(limit_bytes)
            self._event = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
            self._control = os.open(os.path.join(self.path, "memory.oom_control"),
                                    os.O_RDONLY | os.O_CLOEXEC)
            self._write("cgroup.event_control", f"{self._event} {self._control}")
        except OSError:
            self.close()
            raise

    def _file(self, name: str, flags: int) -> int:
        fd = self._files.get(name)
        if fd is None:
            fd = self._files[name] = os.open(os.path.join(self.path, name), flags | os.O_CLOEXEC)
        return fd

    def _write(self, name: str, value: object) -> None:
        os.pwrite(self._file(name, os.O_WRONLY), str(value).encode(), 0)

    def set_limit(self, limit_bytes: int) -> None:
        """Hold the group's memory (and memory + swap) at `limit_bytes`; the memory limit
        may never exceed the memory + swap one, hence the order."""
        if limit_bytes == self.limit_bytes:
            return
        names = ["memory.limit_in_bytes"] + (["memory.memsw.limit_in_bytes"] if self._swap
                                             else [])
        for name in names if limit_bytes < self.limit_bytes else reversed(names):
            self._write(name, limit_bytes)
        self.limit_bytes = limit_bytes

    def usage_bytes(self) -> int:
        """Memory the group's processes use now."""
        return self._read("memory.usage_in_bytes")

    def _read(self, name: str) -> int:
        try:
            return int(os.pread(self._file(name, os.O_RDONLY), 64, 0))
        except (OSError, ValueError):
            return 0

    def oom_killed(self) -> bool:
        """True when the OOM killer ran in this group since the last call (the group's
        limit was reached and reclaim could not make room)."""
        try:
            return os.eventfd_read(self._event) > 0
        except BlockingIOError:
            return False

    def peak_bytes(self) -> int:
        """Highest memory use of the group so far (all its processes together)."""
        return self._read("memory.max_usage_in_bytes")

    def enter_argv(self, argv: list[str]) -> list[str]:
        """`argv` started so that its process joins the cpuacct group before it runs: its
        children (the jail) are born there and cannot leave it (no cgroupfs in a jail)."""
        if self.cpu_path is None:
            return argv
        procs = os.path.join(self.cpu_path, "cgroup.procs")
        return ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', procs, *argv]

    def cpu_meter(self) -> CpuMeter | None:
        """A reader of the cpuacct group's CPU (None without one)."""
        if self.cpu_path is None:
            return None
        return CpuMeter(os.path.join(self.cpu_path, "cpuacct.usage"), scale=1e-9)

    def close(self) -> None:
        """Remove the group (and a jail group nsjail could not remove, if it was killed)."""
        for fd in (self._event, self._control, *self._files.values()):
            if fd >= 0:
                os.close(fd)
        self._event = self._control = -1
        self._files.clear()
        for path in (self.path, self.cpu_path):
            if path is None:
                continue
            for attempt in range(50):  # a killed jail's last processes may still be exiting
                if _remove(path):
                    break
                time.sleep(0.002 * (attempt + 1))
            else:
                log.warning("could not remove the sandbox cgroup %s", path)

    def __enter__(self) -> MemoryGroup:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _remove(path: str) -> bool:
    """rmdir a group and the jail groups inside it; False while one still has processes."""
    try:
        for inner in os.scandir(path):
            if inner.is_dir(follow_symlinks=False):
                os.rmdir(inner.path)
        os.rmdir(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


class CpuMeter:
    """CPU seconds of every process a cgroup has held, those that exited included: v1's
    `cpuacct.usage` (nanoseconds) or v2's `cpu.stat` (`usage_usec`). Once the group is
    gone (v2: nsjail removes the jail's group when the jail ends) it keeps its last
    reading."""

    def __init__(self, path: str, *, scale: float, key: bytes | None = None) -> None:
        self.path = path
        self._fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        self._scale, self._key = scale, key
        self.last = 0.0
        self.last = self.seconds()

    def seconds(self) -> float:
        """The group's CPU seconds now (its last reading if it cannot be read)."""
        if self._fd < 0:
            return self.last
        try:
            data = os.pread(self._fd, 4096, 0)
            if self._key is not None:
                data = next(line.split()[1] for line in data.splitlines()
                            if line.startswith(self._key + b" "))
            self.last = max(self.last, int(data) * self._scale)
        except (OSError, ValueError, StopIteration, IndexError):
            pass
        return self.last

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def v2_cpu_meter(pid: int) -> CpuMeter | None:
    """The CPU meter of the cgroup v2 group process `pid` (a jail's pid 1) is in, when
    that is a group of its own: not ours (which holds this process too), not the root."""
    root = cgroup_v2_root()
    if root is None:
        return None
    try:
        theirs, ours = v2_group(str(pid)), v2_group("self")
    except OSError:
        return None
    if not theirs or theirs in ("/", ours):
        return None
    try:
        return CpuMeter(os.path.join(root, theirs.lstrip("/"), "cpu.stat"), scale=1e-6,
                        key=b"usage_usec")
    except OSError:
        return None


def v2_group(pid: str) -> str | None:
    """The cgroup v2 group of process `pid` (or `self`): the `0::` line of its
    PROC/PID/cgroup (a hybrid host lists its v1 groups before it), None without one."""
    with open(os.path.join(PROC, pid, "cgroup")) as fh:
        return next((line[3:].strip() for line in fh if line.startswith("0::")), None)


def sweep(host: CgroupV1) -> None:
    """Remove the groups left by processes of this host that died without closing them."""
    entries = []
    for parent in host.parents():
        try:
            entries += list(os.scandir(parent))
        except OSError:
            continue
    for entry in entries:
        parts = entry.name.split("-")
        if len(parts) != 3 or parts[0] != "sandbox" or not parts[1].isdigit():
            continue
        try:
            os.kill(int(parts[1]), 0)
            continue  # its creator lives: its groups are its own to close
        except ProcessLookupError:
            _remove(entry.path)
        except OSError:  # alive under another user (EPERM)
            continue
