"""Spare jails: the jail of the next cold run, started before that run asks for it.

A cold run pays for nsjail's start before its program can start: the user namespace and
the others, about twenty mounts, the seccomp filter, nsjail's own loading (~8 ms on the
2-core machine of docs/benchmarks.md, half of what a bare `python3 main.py` costs). So
each cold run of a given shape (command, limits, mounts, the names of its files) starts a
spare jail of the same shape as soon as its own program is on its way: the spare builds
its namespaces, mounts and limits while the run in hand goes on, then waits in `/bin/sh`
for one line on its stdin before it execs the command. The next run of that shape writes
its files into the spare's placeholders (host files made for this spare alone and bound
read-only into its /work, as a fresh jail binds the run's own files), sends the line and
its stdin, and its program starts at once.

Every spare serves exactly one run: fresh namespaces, a fresh tmpfs, its own memory group,
its wall limit counted from the moment its program starts. The jail's CPU cost is the same
as a fresh jail's (a little more: the waiting shell); it moves off the run's path. A spare
idle for `IDLE_S` is thrown away; at most `per_shape()` wait per shape and `MAX_SPARES` in
all; the first run of a shape starts none (a shape that never comes back would pay for two
jails a run); SANDBOX_SPARE_JAILS=0 turns them off. This module keeps the spares; `_jail.run_jail`
starts and uses them.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from sandbox._cache import FOLDER, remove_tree
from sandbox._cgroup import MemoryGroup
from sandbox._errors import SandboxError
from sandbox._parallel import default_workers
from sandbox._process import FORKING, Started

__all__ = ["IDLE_S", "MAX_SPARES", "SECRET", "SEEN_SHAPES", "WAITER", "Spare", "SpareJails",
           "per_shape", "spares", "spares_enabled"]

IDLE_S = 30.0
"""Seconds a spare may wait for its run; an older one is discarded, never used."""
MAX_SPARES = 16
"""Spare jails waiting at once, over every shape."""
SEEN_SHAPES = 256
"""Shapes remembered as run before: a spare is started after a miss only for one of these."""
SECRET = "{secret}"
"""The argument of a command that stands for the run's secret (`_jail.run_jail`'s `secret`):
a spare is started before its run's secret is drawn, so its argv holds this and its waiting
shell puts the secret in its place."""
WAITER = ("/bin/sh", "-c",
          ('read -r s && unset PWD && c="$0" && for a in "$@"; do shift; '
           f'[ "$a" = "{SECRET}" ] && a="$s"; set -- "$@" "$a"; done && exec "$c" "$@"'))
"""The spare's first process: reads one line of stdin (a byte at a time: the rest is the
program's), the run's secret, then becomes the command with the secret in place of each
`SECRET` argument (argv and environment as a fresh jail gives them; the shell's own PWD
removed; its variables are not exported). At end of file (the host is gone) it exits
without running it."""


def spares_enabled() -> bool:
    """Spare jails are on unless SANDBOX_SPARE_JAILS=0."""
    return os.environ.get("SANDBOX_SPARE_JAILS", "1") != "0"


def per_shape() -> int:
    """Spares of one shape that may wait: one per CPU this process may use, so that parallel
    cold runs of one shape each find one."""
    return default_workers()


@dataclass
class Spare:
    """One started, waiting jail and what its run needs to fill in."""

    started: Started
    root: str
    """The host folder holding the placeholders (removed with the spare)."""
    placeholders: dict[str, str]
    """Path in the jail -> the host file bound there read-only, empty until `fill`."""
    group: MemoryGroup | None
    born: float = field(default_factory=time.monotonic)
    staging: str | None = None
    """The host folder bound whole at the init's staging folder (a cold Python run's:
    `_workspace.workspace`'s `staging_bind`), empty until `fill_staging`."""

    def fill(self, files: Iterable[tuple[str, str]]) -> None:
        """Copy each (host file, path in the jail) into its placeholder: the same inode, so
        the jail's read-only bind shows the new content and mode."""
        for host, inside in files:
            placeholder = self.placeholders[inside]
            with FORKING:  # no fork meanwhile may inherit the placeholder open for writing
                shutil.copyfile(host, placeholder)
            os.chmod(placeholder, os.stat(host).st_mode & 0o777)

    def fill_staging(self, source: str) -> None:
        """The tree of the run's staging folder `source` into this spare's: its folders
        made, its files hard-linked (the same bytes, no copy; copied where a link fails).
        By directory descriptors, never by a host path below either folder (a name the
        workspace wrote may be longer than PATH_MAX allows under this spare's longer
        root: red team sb22), with a list, not a recursion (a task folder may be deeper
        than Python's recursion limit): the walk holds one descriptor of each tree, goes
        down by name and back up by `..`, checked against the folder it came from (as
        `_cache.remove_tree`). The jail's bind of the folder shows them at once."""
        assert self.staging is not None
        here = (os.open(source, FOLDER), os.open(self.staging, FOLDER))
        pending = [_fill_folder(*here)]  # by level: the subfolders still to fill
        above: list[tuple[tuple[int, int], tuple[int, int]]] = []
        try:
            while pending:
                if pending[-1]:
                    name = pending[-1].pop()
                    came_from = (_identity(here[0]), _identity(here[1]))
                    here = _down(here, name)
                    above.append(came_from)
                    pending.append(_fill_folder(*here))
                    continue
                pending.pop()
                if above:
                    here = _up(here, above.pop())
        finally:
            for fd in here:
                os.close(fd)

    def close_pipes(self) -> None:
        """Close this process's ends of the jail's stdin, stdout, stderr and log pipes."""
        proc = self.started.proc
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None and not stream.closed:
                stream.close()
        if self.started.log_r >= 0:
            os.close(self.started.log_r)
            self.started.log_r = -1

    def close(self) -> None:
        """Stop the jail if it still waits or runs (its shell reads end of file and exits;
        SIGKILL to the session after a grace), release its memory group and placeholders."""
        proc = self.started.proc
        self.close_pipes()
        try:
            proc.wait(2)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        self.release()

    def release(self) -> None:
        """The memory group and placeholders of a spare whose process has been reaped."""
        if self.group is not None:
            self.group.close()
            self.group = None
        remove_tree(self.root)


class SpareJails:
    """The waiting spares, by shape. Thread-safe: parallel cold runs take and add spares."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting: dict[Hashable, list[Spare]] = {}
        self.seen: dict[Hashable, None] = {}  # shapes run before, oldest first
        # spares being started outside the lock, by shape, counted against the caps
        self.starting: dict[Hashable, int] = {}

    def take(self, key: Hashable) -> Spare | None:
        """A spare of shape `key` ready for its run, or None. Stale ones are discarded."""
        stale: list[Spare] = []
        found = None
        with self.lock:
            queue = self.waiting.get(key, [])
            while queue:
                spare = queue.pop()
                if time.monotonic() - spare.born < IDLE_S and spare.started.proc.poll() is None:
                    found = spare
                    break
                stale.append(spare)
            if not queue:
                self.waiting.pop(key, None)
        for spare in stale:
            spare.close()
        return found

    def offer(self, key: Hashable, start: Callable[[], Spare], *, taken: bool) -> None:
        """Start a spare of shape `key` with `start` if the caps leave room (an old spare of
        another shape makes room when all slots are taken). After a miss (`taken` False) only
        for a shape seen before: a shape that never comes back (limits of its own, say) must
        not cost a second jail per run."""
        evicted = None
        with self.lock:
            if not taken and key not in self.seen:
                self.seen[key] = None
                while len(self.seen) > SEEN_SHAPES:
                    del self.seen[next(iter(self.seen))]
                return
            if len(self.waiting.get(key, ())) + self.starting.get(key, 0) >= per_shape():
                return
            if self._count() + sum(self.starting.values()) >= MAX_SPARES:
                evicted = self._oldest()
                if evicted is None:
                    return
            self.starting[key] = self.starting.get(key, 0) + 1
        if evicted is not None:
            evicted.close()
        try:
            spare = start()
        except Exception:  # noqa: BLE001  (no spare: the next run starts its own jail)
            spare = None
        with self.lock:
            self.starting[key] -= 1
            if not self.starting[key]:
                del self.starting[key]
            if spare is not None:
                self.waiting.setdefault(key, []).append(spare)

    def close(self) -> None:
        """Stop every waiting spare and forget the shapes seen."""
        with self.lock:
            every = [s for queue in self.waiting.values() for s in queue]
            self.waiting.clear()
            self.seen.clear()
        for spare in every:
            spare.close()

    def forget(self) -> None:
        """In a forked copy of this process: drop the parent's spares, closing only this
        copy's ends of their pipes (the parent still owns and uses them)."""
        self.lock = threading.Lock()
        for queue in self.waiting.values():
            for spare in queue:
                spare.close_pipes()
        self.waiting.clear()
        self.seen.clear()
        self.starting.clear()

    def _count(self) -> int:
        return sum(len(queue) for queue in self.waiting.values())

    def _oldest(self) -> Spare | None:
        """Remove and return the longest-waiting spare (called with the lock held)."""
        oldest_key, oldest = None, None
        for key, queue in self.waiting.items():
            for spare in queue:
                if oldest is None or spare.born < oldest.born:
                    oldest_key, oldest = key, spare
        if oldest is not None:
            queue = self.waiting[oldest_key]
            queue.remove(oldest)
            if not queue:
                del self.waiting[oldest_key]
        return oldest


spares = SpareJails()
"""This process's spare jails."""
os.register_at_fork(after_in_child=spares.forget)
atexit.register(spares.close)


def _fill_folder(source: int, staging: int) -> list[str]:
    """One folder of `Spare.fill_staging`: the files of `source` (a descriptor) linked (or
    copied) into `staging`, its subfolders made there (0o755); their names."""
    folders = []
    with os.scandir(source) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                os.mkdir(entry.name, 0o755, dir_fd=staging)
                folders.append(entry.name)
                continue
            try:
                os.link(entry.name, entry.name, src_dir_fd=source, dst_dir_fd=staging,
                        follow_symlinks=False)
            except OSError:
                with FORKING:
                    _copy_file(source, staging, entry.name)
    return folders


def _copy_file(source: int, staging: int, name: str) -> None:
    """The file `name` of the folder `source` copied into the folder `staging` (0o644)."""
    src = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=source)
    try:
        dst = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                      os.O_CLOEXEC, 0o644, dir_fd=staging)
        with open(dst, "wb") as out, open(src, "rb", closefd=False) as data:
            shutil.copyfileobj(data, out)
    finally:
        os.close(src)


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def _down(here: tuple[int, int], name: str) -> tuple[int, int]:
    """The folder `name` below each of `here` (both trees' descriptors), opened by name."""
    source = os.open(name, FOLDER, dir_fd=here[0])
    try:
        staging = os.open(name, FOLDER, dir_fd=here[1])
    except BaseException:
        os.close(source)
        raise
    for fd in here:
        os.close(fd)
    return source, staging


def _up(here: tuple[int, int], came_from: tuple[tuple[int, int], tuple[int, int]]
        ) -> tuple[int, int]:
    """Each of `here`'s `..`, checked to be the folder the walk came down from."""
    ups = []
    try:
        for fd, identity in zip(here, came_from):
            ups.append(os.open("..", FOLDER, dir_fd=fd))
            if _identity(ups[-1]) != identity:
                raise SandboxError(f"a staging folder moved during the walk: {identity}")  # (the host's)
    except BaseException:
        for fd in ups:
            os.close(fd)
        raise
    for fd in here:
        os.close(fd)
    return ups[0], ups[1]
