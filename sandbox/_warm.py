"""Warm mode for Python: a pool of pre-started jailed interpreters (`_warm_server.py`), each
forking a fresh, equally isolated child per program. A fork costs about a millisecond where
a cold jail plus interpreter start costs ten or more.

Host side: one server per pool slot, one program per server at a time. For each run the host
hands the server, over a unix socket, the run's stdin/stdout/stderr pipes and a pipe carrying
the program; the server reports exit status, rusage and whether it hit the wall limit.
"""

from __future__ import annotations

import atexit
import json
import marshal
import os
import queue
import selectors
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import asdict, replace

from sandbox._classify import to_execution
from sandbox._errors import ArgumentError, SandboxError
from sandbox._jail import cgroup_v2_root, check_nsjail, jail_argv, memory_group, process_budget
from sandbox._languages import PYTHON, PYTHON_FLAGS, LanguageSpec, language_spec
from sandbox._parallel import default_workers
from sandbox._process import RawRun, jail_host_env
from sandbox._staging import IN_JAIL, LAUNCHER, staged_dir
from sandbox._types import Execution, Limits
from sandbox._workspace import safe_name

__all__ = ["WarmPool", "run_warm", "shutdown", "use_warm", "warm_enabled"]

WARM_SERVER_BYTES = 16 << 20
"""Memory of a warm server's jail on top of one run's `memory_bytes` where the cgroup's
limit is set once, at start (cgroup v2): the server itself (a few MiB of its own; its
interpreter's pages are charged where first read) and slack. On cgroup v1 each run's
limit is exact: what the idle server holds plus `memory_bytes`."""

_pools: dict[tuple[int, int, int], WarmPool] = {}
_pools_lock = threading.Lock()


def warm_enabled() -> bool:
    """Warm mode is the default for Python unless SANDBOX_WARM=0."""
    return os.environ.get("SANDBOX_WARM", "1") != "0"


def use_warm(spec: LanguageSpec, mode: str) -> bool:
    if mode == "warm":
        if spec.name != "python":
            raise ArgumentError(f"warm mode is for Python only, not {spec.name}")
        return True
    if mode not in ("auto", "cold"):
        raise ArgumentError(f"mode must be auto, cold or warm, not {mode!r}")
    return mode == "auto" and spec.name == "python" and warm_enabled()


class WarmServer:
    """One jailed interpreter and the control socket to it."""

    def __init__(self, key: tuple[int, int, int]) -> None:
        check_nsjail()
        disk_bytes, disk_files, memory_bytes = key
        # rlimits of the server are loose; each child sets the run's own, lower, limits.
        # The jail's memory cgroup, if any, holds the server and the one run it serves.
        limits = Limits(disk_bytes=disk_bytes, disk_files=disk_files, processes=4096,
                        open_files=4096, file_size_bytes=1 << 40,
                        memory_bytes=memory_bytes + WARM_SERVER_BYTES)
        self.group = memory_group(limits.memory_bytes)
        self.cgroup = self.group is not None or bool(cgroup_v2_root())
        self.control, inside = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        fd = inside.fileno()
        argv = jail_argv([PYTHON, *PYTHON_FLAGS, LAUNCHER, "warm-server", str(fd)], limits,
                         binds=[(staged_dir(), IN_JAIL)], group=self.group,
                         pass_fds=[fd], persistent=True)
        argv = [a if a != "{log_fd}" else "2" for a in argv]
        # nsjail's log and the server's own stderr (never a program's) go to a private file,
        # quoted if the server dies
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  (lives as long as the server)
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.log,
                                     pass_fds=[fd], start_new_session=True,
                                     env=jail_host_env())
        inside.close()
        self.retired = False

    def died(self) -> SandboxError:
        """The error for a server that stopped answering, quoting its last log lines."""
        try:
            self.proc.wait(1)
        except subprocess.TimeoutExpired:
            pass
        self.log.seek(0)
        lines = [line for line in self.log.read().decode(errors="replace").splitlines()
                 if not line.startswith("[I]")]
        return SandboxError("the warm sandbox server died: "
                            + (" | ".join(lines[-5:]) or f"exit code {self.proc.returncode}"))

    def alive(self) -> bool:
        return not self.retired and self.proc.poll() is None

    def close(self) -> None:
        self.control.close()
        self.log.close()
        try:
            self.proc.wait(2)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        if self.group is not None:
            self.group.close()

    def execute(self, code: str, stdin: bytes, files: Mapping[str, str | bytes],
                limits: Limits, harness: str | None) -> RawRun:
        fds = [os.pipe() for _ in range(4)]  # stdin, stdout, stderr, payload
        (in_r, in_w), (out_r, out_w), (err_r, err_w), (pay_r, pay_w) = fds
        processes, address_space = process_budget(limits, cgroup=self.cgroup)
        header = {"limits": asdict(limits), "wall_s": limits.wall_s, "harness": harness,
                  "processes": processes, "address_space": address_space}
        if self.group is not None:
            # the run gets `memory_bytes` on top of what the idle server holds (pages the
            # forked child shares with it are charged to the server once)
            self.group.set_limit(self.group.usage_bytes() + limits.memory_bytes)
            self.group.oom_killed()  # forget anything before this run
        try:
            socket.send_fds(self.control, [marshal.dumps(header)],
                            [in_r, out_w, err_w, pay_r])
        finally:
            for fd in (in_r, out_w, err_w, pay_r):
                os.close(fd)
        payload = marshal.dumps({"code": code, "files": dict(files)})
        try:
            raw = self._collect(payload, pay_w, stdin, in_w, out_r, err_r, limits)
        except SandboxError:
            if self.group is None or not self.group.oom_killed():
                raise
            # the OOM killer took the server itself (the largest process of the jail):
            # the run went over its memory; the pool replaces the server
            self.retired = True
            return RawRun(exit_code=None, signal=signal.SIGKILL, stdout=b"", stderr=b"",
                          overflow=False, timed_out=False, wall_s=0.0, cpu_s=0.0,
                          peak_memory_bytes=0, oom=True)
        if self.group is not None:
            raw.oom = self.group.oom_killed()
        return raw

    def _collect(self, payload: bytes, pay_w: int, stdin: bytes, in_w: int, out_r: int,
                 err_r: int, limits: Limits) -> RawRun:
        start = time.monotonic()
        sel = selectors.DefaultSelector()
        writes = {pay_w: memoryview(payload), in_w: memoryview(stdin)}
        for fd, data in writes.items():
            os.set_blocking(fd, False)
            if data:
                sel.register(fd, selectors.EVENT_WRITE)
            else:
                os.close(fd)
        out, err = bytearray(), bytearray()
        buffers = {out_r: out, err_r: err}
        for fd in buffers:
            sel.register(fd, selectors.EVENT_READ)
        sel.register(self.control, selectors.EVENT_READ)
        overflow = False
        reply = None
        deadline = start + limits.wall_s + 10  # the server enforces wall_s; this is for a hung server
        try:
            while reply is None or len(sel.get_map()) > 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SandboxError("the warm sandbox server stopped answering")
                for key, _ in sel.select(left):
                    fd = key.fd
                    if key.fileobj is self.control:
                        reply = self.control.recv(1 << 16)
                        sel.unregister(self.control)
                        if not reply:
                            raise self.died()
                    elif fd in writes:
                        try:
                            sent = os.write(fd, writes[fd][:1 << 16])
                        except BlockingIOError:
                            continue
                        except BrokenPipeError:
                            sent = len(writes[fd])
                        writes[fd] = writes[fd][sent:]
                        if not writes[fd]:
                            sel.unregister(fd)
                            os.close(fd)
                    else:
                        chunk = os.read(fd, 1 << 16)
                        if not chunk:
                            sel.unregister(fd)
                            os.close(fd)
                            continue
                        buf = buffers[fd]
                        room = limits.output_bytes - len(buf)
                        buf += chunk[:max(room, 0)]
                        if len(chunk) > room and not overflow:
                            overflow = True
                            self.control.send(b"kill")
                if reply is not None and overflow:
                    break
        finally:
            for key in list(sel.get_map().values()):
                if key.fileobj is not self.control:
                    sel.unregister(key.fileobj)
                    os.close(key.fd)
            sel.close()
        if reply is None:  # overflow: the kill is on its way; wait for the verdict
            reply = self.control.recv(1 << 16)
            if not reply:
                raise self.died()
        result = json.loads(reply)
        self.retired = result["retire"]
        return RawRun(exit_code=result["exit_code"], signal=result["signal"],
                      stdout=bytes(out), stderr=bytes(err), overflow=overflow,
                      timed_out=result["timed_out"], wall_s=time.monotonic() - start,
                      cpu_s=result["cpu_s"], peak_memory_bytes=result["maxrss"])


class WarmPool:
    """`size` warm servers handed out one run at a time; a broken server is replaced."""

    def __init__(self, size: int, key: tuple[int, int, int]) -> None:
        self.key = key
        self.idle: queue.LifoQueue[WarmServer | None] = queue.LifoQueue()
        for _ in range(size):
            self.idle.put(None)  # started on first use
        self.servers: list[WarmServer] = []

    def execute(self, *args: object) -> RawRun:
        server = self.idle.get()
        try:
            if server is not None and not server.alive():
                server.close()
                self.servers.remove(server)
                server = None
            if server is None:
                server = WarmServer(self.key)
                self.servers.append(server)
            result = server.execute(*args)  # type: ignore[arg-type]
        except (SandboxError, OSError) as exc:
            error = exc if isinstance(exc, SandboxError) or server is None else server.died()
            if server is not None:
                server.close()
                self.servers.remove(server)
            self.idle.put(None)
            if error is exc:
                raise
            raise error from exc
        self.idle.put(server)
        return result

    def close(self) -> None:
        for server in self.servers:
            server.close()
        self.servers.clear()


def _pool(limits: Limits) -> WarmPool:
    """The pool of servers whose jail fits `limits`: its tmpfs size and file cap, and the
    memory cgroup holding a run's `memory_bytes`."""
    key = (limits.disk_bytes, limits.disk_files, limits.memory_bytes)
    with _pools_lock:
        if key not in _pools:
            _pools[key] = WarmPool(max(2, default_workers()), key)
        return _pools[key]


def _forget_after_fork() -> None:
    """A forked copy of this process (Celery prefork, multiprocessing) must not share the
    parent's servers: it drops its copies of their sockets and starts its own on demand."""
    global _pools_lock
    _pools_lock = threading.Lock()
    for pool in _pools.values():
        for server in pool.servers:
            server.control.close()  # this process's copy only; the parent keeps its own
    _pools.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


@atexit.register
def shutdown() -> None:
    """Stop every warm server (they also exit on their own when this process dies)."""
    with _pools_lock:
        for pool in _pools.values():
            pool.close()
        _pools.clear()


def run_warm(code: str, *, stdin: bytes, files: Mapping[str, str | bytes], limits: Limits,
             harness: str | None = None) -> Execution:
    """Run Python `code` in a warm server: same isolation and limits as a cold jail."""
    spec = language_spec("python")
    clean = {safe_name(name, spec): content for name, content in files.items()}
    raw = _pool(limits).execute(code, stdin, clean, replace(limits), harness)
    return to_execution(raw, limits, cgroup=bool(cgroup_v2_root()), warm=True)
