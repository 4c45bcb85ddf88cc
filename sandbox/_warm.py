"""Warm mode for Python: a pool of pre-started jailed interpreters
(`_in_jail/warm_server.py`), each forking a fresh, equally isolated child per program. A fork
costs about a millisecond where a cold jail plus interpreter start costs ten or more.

Host side: one server per pool slot, one program per server at a time. For each run the host
hands the server, over a unix socket, the run's stdin/stdout/stderr pipes and a pipe carrying
the program; the server reports exit status, rusage and whether it hit the wall limit as soon
as the run's processes are reaped, then, in a second message, its verdict on its jail after
emptying and checking it (`WarmServer.settle`), which the host reads before it hands that
server another run. While the run is going, the host may ask the server for a kill on the
same socket (output over the cap, or the run's `Cancel` set from another thread).
"""

from __future__ import annotations

import atexit
import json
import marshal
import os
import queue
import select
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from typing import IO

from sandbox._cgroup import MemoryGroup
from sandbox._classify import to_execution
from sandbox._errors import ArgumentError, SandboxError
from sandbox._first_import import first_imports, zygotes_enabled
from sandbox._in_jail.harness_wire import pack_inputs
from sandbox._jail import (
    PROGRAM_UID,
    cgroup_v2_root,
    check_nsjail,
    cpu_rlimit_s,
    jail_argv,
    memory_group,
    process_budget,
)
from sandbox._languages import PYTHON, PYTHON_FLAGS, LanguageSpec, language_spec
from sandbox._parallel import Cancel, default_workers
from sandbox._process import FORKING, RawRun, jail_host_env
from sandbox._staging import IN_JAIL, LAUNCHER, staged_dir
from sandbox._types import Execution, Limits
from sandbox._workspace import as_bytes, safe_name

__all__ = ["WarmPool", "run_warm", "shutdown", "use_warm", "warm_enabled"]

WARM_SERVER_BYTES = 48 << 20
"""Memory of a warm server's jail on top of one run's `memory_bytes` where the cgroup's
limit is set once, at start (cgroup v2): the server and its long-lived harness (a few MiB
of their own each, the harness retiring past 16 MiB of growth; their interpreter's pages
are charged where first read) and slack. On cgroup v1 each run's
limit is exact: what the idle server holds plus `memory_bytes`."""

ZYGOTES_BYTES = 16 << 20
"""With import zygotes (`_first_import.zygotes_enabled`): the memory of a server's two
zygotes (each a few MiB of its own) on top of WARM_SERVER_BYTES."""

READY_S = 60.0
"""Seconds a new warm server may take to start (nsjail, the interpreter, its warm-up)."""
SETTLE_S = 10.0
"""Seconds a warm server may take, after a run's result, to clean its jail and check it
(`WarmServer.settle`); past them it is replaced."""
_CHUNK = 1 << 16
"""Bytes read from a run's stdout or stderr at a time."""

_pools: dict[tuple[int, int, int], WarmPool] = {}
_pools_lock = threading.Lock()


def warm_enabled() -> bool:
    """Warm mode is the default for Python unless SANDBOX_WARM=0."""
    return os.environ.get("SANDBOX_WARM", "1") != "0"


def hold_runs() -> bool:
    """Whether each warm run of tests is held on one CPU with its harness (an assert/check
    run's worker, a stdin/stdout run's programs; see `harness_wire.hold_here`): on unless
    SANDBOX_PIN_RUNS=0, and where this process may use more than one CPU."""
    return os.environ.get("SANDBOX_PIN_RUNS", "1") != "0" and len(os.sched_getaffinity(0)) > 1


def use_warm(spec: LanguageSpec, mode: str) -> bool:
    if mode == "warm":
        if spec.name != "python":
            raise ArgumentError(f"warm mode is for Python only, not {spec.name}")
        return True
    if mode not in ("auto", "cold"):
        raise ArgumentError(f"mode must be auto, cold or warm, not {mode!r}")
    return mode == "auto" and spec.name == "python" and warm_enabled()


def server_ended(what: str, proc: subprocess.Popen[bytes], log: IO[bytes]) -> SandboxError:
    """The error for an in-jail server (`start_jailed_server`) that stopped answering: `what`,
    then its log's last five lines past nsjail's own `[I]` lines, or its exit code."""
    try:
        proc.wait(1)
    except subprocess.TimeoutExpired:
        pass
    log.seek(0)
    lines = [line for line in log.read().decode(errors="replace").splitlines()
             if not line.startswith("[I]")]
    return SandboxError(f"{what}: " + (" | ".join(lines[-5:]) or f"exit code {proc.returncode}"))


def start_jailed_server(role: str, limits: Limits, group: MemoryGroup | None,
                        zygotes: bool = False, *, shm_bytes: int
                        ) -> tuple[socket.socket, subprocess.Popen[bytes], IO[bytes]]:
    """Start the in-jail server `role` (`warm-server`, `session-server`: `run.py ROLE FD
    UID`) as pid 1 of a persistent jail under `limits` and memory `group`: (the control
    socket to it, its process, the private file that takes nsjail's log and the server's own
    stderr, never a program's, quoted if the server dies). `shm_bytes`: the size of its
    /dev/shm, one run's (or call's) memory limit, not the jail's (`jail_argv`)."""
    control, inside = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    fd = inside.fileno()
    command = [PYTHON, *PYTHON_FLAGS, LAUNCHER, role, str(fd), str(PROGRAM_UID)]
    if zygotes:  # a warm server with import zygotes (not enabled by default)
        command.append("1")
    argv = jail_argv(command, limits, binds=[(staged_dir(), IN_JAIL)], group=group,
                     pass_fds=[fd], persistent=True, shm_bytes=shm_bytes)
    argv = [a if a != "{log_fd}" else "2" for a in argv]
    if group is not None:  # a session's cpuacct group, which nsjail joins before the jail starts
        argv = group.enter_argv(argv)
    log = tempfile.TemporaryFile()  # noqa: SIM115  (lives as long as the server)
    with FORKING:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=log, pass_fds=[fd], start_new_session=True,
                                env=jail_host_env())
    inside.close()
    return control, proc, log


class WarmServer:
    """One jailed interpreter and the control socket to it."""

    def __init__(self, key: tuple[int, int, int]) -> None:
        check_nsjail()
        disk_bytes, disk_files, memory_bytes = key
        # rlimits of the server are loose; each child sets the run's own, lower, limits.
        # The jail's memory cgroup, if any, holds the server and the one run it serves.
        self.zygotes = zygotes_enabled()
        limits = Limits(disk_bytes=disk_bytes, disk_files=disk_files, processes=4096,
                        open_files=4096, file_size_bytes=1 << 40,
                        memory_bytes=memory_bytes + WARM_SERVER_BYTES
                        + (ZYGOTES_BYTES if self.zygotes else 0))
        self.group = memory_group(limits.memory_bytes)
        self.cgroup = self.group is not None or bool(cgroup_v2_root())
        self.control, self.proc, self.log = start_jailed_server(
            "warm-server", limits, self.group, self.zygotes, shm_bytes=memory_bytes)
        self.ready = False  # until the server says so (`wait_ready`)
        self.retired = False
        self.settling = False  # a run's result came, the server's checks after it not yet
        self.headers: dict[tuple[Limits, str | None], bytes] = {}
        self.hold = hold_runs()

    def died(self) -> SandboxError:
        """The error for a server that stopped answering, quoting its last log lines."""
        return server_ended("the warm sandbox server died", self.proc, self.log)

    def wait_ready(self) -> None:
        """Wait (once) until the server has started and warmed up: a run's clock (its
        `Cancel.started`) never counts a server's start."""
        if self.ready:
            return
        if not select.select([self.control], [], [], READY_S)[0]:
            raise SandboxError(f"the warm sandbox server did not start within {READY_S:g} s")
        if self.control.recv(64) != b"ready":
            raise self.died()
        self.ready = True

    def alive(self) -> bool:
        """Whether this server may take another run: its checks after the last run found
        its jail as it started (`settle`), and it runs."""
        self.settle()
        return not self.retired and self.proc.poll() is None

    def settled(self) -> bool:
        """Whether its check after the last run is done (read or waiting to be): it may
        take a run without waiting."""
        return not self.settling or bool(select.select([self.control], [], [], 0)[0])

    def settle(self) -> None:
        """Read the server's verdict on its jail after the last run, `clean` or `retire`,
        which it sends after the run's result (the result comes as soon as every process
        of the run is reaped; emptying the work folders and checking the jail's counters
        then overlap the host's work). Anything else, or nothing within `SETTLE_S`, retires
        it too."""
        if not self.settling:
            return
        self.settling = False
        verdict = b""
        try:
            if select.select([self.control], [], [], SETTLE_S)[0]:
                verdict = self.control.recv(64)
        except OSError:
            pass
        if verdict != b"clean":
            self.retired = True

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
                limits: Limits, harness: str | None, cancel: Cancel | None = None) -> RawRun:
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        pay_r, pay_w = os.pipe()
        if self.group is not None:
            # the run gets `memory_bytes` on top of what the idle server holds (pages the
            # forked child shares with it are charged to the server once)
            self.group.set_limit(self.group.usage_bytes() + limits.memory_bytes)
            self.group.oom_killed()  # forget anything before this run
        # the payload and stdin go into their pipes first, as far as they fit: the run's
        # child finds its program there instead of waiting for this process to write it
        # the program and its files as a stream the child writes file by file
        # (`harness_wire.pack_inputs`): the inputs count once in the run's memory
        writes = _start_writes({pay_w: pack_inputs(code, [(name, as_bytes(content))
                                                          for name, content in files.items()]),
                                in_w: stdin})
        try:
            header = self._header(limits, harness)
            if self.zygotes and harness in (None, "python") and not files and \
                    (imports := first_imports(code)) is not None:
                header = marshal.dumps({**marshal.loads(header), "imports": imports})
            socket.send_fds(self.control, [header], [in_r, out_w, err_w, pay_r])
        except OSError:
            for fd in (*writes, out_r, err_r):
                os.close(fd)
            raise
        finally:
            for fd in (in_r, out_w, err_w, pay_r):
                os.close(fd)
        try:
            raw = self._collect(writes, out_r, err_r, limits, cancel)
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

    def _header(self, limits: Limits, harness: str | None) -> bytes:
        """What the server and the forked child need of a run, marshalled (cached: a pool
        sees the same few limits again and again). `processes` and `address_space` are the
        program's own budget (`process_budget`, computed here and nowhere in the jail):
        every process that runs program code (a plain run's child, an assert/check worker, a
        stdin/stdout test's process) takes that count and share, as `python3 main.py`
        alone would; the server and the harnesses are another uid, outside the count, and
        take no share (red team sb14: limits that counted them split the memory thinner
        and gave a worker their slots)."""
        key = (limits, harness)
        header = self.headers.get(key)
        if header is None:
            processes, address_space = process_budget(limits, cgroup=self.cgroup)
            header = marshal.dumps({
                "wall_s": limits.wall_s, "cpu_s": cpu_rlimit_s(limits),
                "file_size_bytes": limits.file_size_bytes, "open_files": limits.open_files,
                "processes": processes, "address_space": address_space, "harness": harness,
                "hold": self.hold, "cgroup": self.cgroup,
                # without a memory cgroup the long-lived harness, which decodes what the
                # program sends, takes one process's share of the run's memory at most
                "harness_bytes": None if self.cgroup else address_space})
            if len(self.headers) >= 64:
                self.headers.clear()
            self.headers[key] = header
        return header

    def _collect(self, writes: dict[int, memoryview], out_r: int, err_r: int, limits: Limits,
                 cancel: Cancel | None = None) -> RawRun:
        """Feed what is left of the payload and stdin (`writes`, by fd: `_start_writes`),
        read stdout and stderr up to the cap and wait for the server's verdict, one poll()
        per wake-up. Past the cap, or once `cancel` is set (its
        fd wakes the poll at once), the server is asked for a kill; a cancelled run is a
        timeout. A stream is done at its end of file (an empty read: a short read after its
        writers hung up may be one packet of a pipe in packet mode, red team sb15)."""
        start = time.monotonic()
        poller = select.poll()
        for fd in writes:
            poller.register(fd, select.POLLOUT)
        outputs = {out_r: bytearray(), err_r: bytearray()}
        reading = set(outputs)
        for fd in reading:
            poller.register(fd, select.POLLIN)
        control = self.control.fileno()
        poller.register(control, select.POLLIN)
        stop = -1 if cancel is None else cancel.fileno()  # watched until the cancel is seen
        if cancel is not None:
            poller.register(stop, select.POLLIN)
        overflow = cancelled = asked = False  # asked: a kill was sent to the server
        reply = None
        deadline = start + limits.wall_s + 10  # the server enforces wall_s; this is for a hung server
        try:
            while reply is None or reading:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SandboxError("the warm sandbox server stopped answering")
                if stop >= 0 and cancel is not None:
                    left = cancel.wait_s(left)
                events = poller.poll(left * 1000 + 1)
                if stop >= 0 and cancel is not None and cancel.is_set():
                    poller.unregister(stop)
                    stop = -1
                    if reply is None and not asked:  # still running: stop it
                        cancelled = asked = True
                        self.control.send(b"kill")
                for fd, event in events:
                    if fd == control:
                        reply = self.control.recv(1 << 16)
                        if not reply:
                            raise self.died()
                        poller.unregister(control)
                    elif fd in writes:
                        view = _write_some(fd, writes[fd])
                        if view:
                            writes[fd] = view
                            continue
                        del writes[fd]
                        poller.unregister(fd)
                        os.close(fd)
                    elif fd in reading:
                        chunk = os.read(fd, _CHUNK)
                        buf = outputs[fd]
                        room = limits.output_bytes - len(buf)
                        buf += chunk[:max(room, 0)]
                        if len(chunk) > room and not overflow:
                            overflow = True
                            if reply is None and not asked:
                                asked = True
                                self.control.send(b"kill")
                        if not chunk:  # only an empty read ends a stream: a pipe in
                            # packet mode (O_DIRECT, the program's to set) gives one packet a read
                            reading.discard(fd)
                            poller.unregister(fd)
                            os.close(fd)
                if reply is not None and (overflow or cancelled):
                    break
        finally:
            for fd in (*writes, *reading):
                os.close(fd)
        if reply is None:  # overflow: the kill is on its way; wait for the verdict
            reply = self.control.recv(1 << 16)
            if not reply:
                raise self.died()
        result = json.loads(reply)
        # a kill the server did not take (the run ended first, or at its own wall limit)
        # stays queued; the server skips it before the next run's header. The server's own
        # kill leaves SIGKILL and no timeout; otherwise the run ended by itself and its
        # result stands
        if asked and (result["timed_out"] or result["signal"] != signal.SIGKILL):
            cancelled = False
        self.settling = True  # its verdict on the jail follows (`settle`)
        return RawRun(exit_code=result["exit_code"], signal=result["signal"],
                      stdout=bytes(outputs[out_r]), stderr=bytes(outputs[err_r]),
                      overflow=overflow, timed_out=result["timed_out"] or cancelled,
                      wall_s=time.monotonic() - start, cpu_s=result["cpu_s"],
                      peak_memory_bytes=result["maxrss"])


def _start_writes(data: Mapping[int, bytes]) -> dict[int, memoryview]:
    """Write what fits of each fd's data at once; what is left of each, by fd (an fd whose
    data went whole is closed: its reader sees the end)."""
    left = {}
    for fd, content in data.items():
        if len(content) > select.PIPE_BUF:  # more than one write that cannot block
            os.set_blocking(fd, False)
        view = _write_some(fd, memoryview(content))
        if view:
            left[fd] = view
        else:
            os.close(fd)
    return left


def _write_some(fd: int, view: memoryview) -> memoryview:
    """What is left of `view` after one write to a pipe (all of it when the reader is
    gone: the program need not read its stdin)."""
    if not view:
        return view
    try:
        return view[os.write(fd, view):]
    except BlockingIOError:
        return view
    except BrokenPipeError:
        return view[:0]


class WarmPool:
    """`size` warm servers handed out one run at a time; a broken server is replaced. Once
    evicted (`evict`), its servers are closed: the idle ones at once, the busy ones as their
    runs end.

    A server still checking its jail after its last run (`WarmServer.settle`) is passed
    over for one that is done, when one is idle; once `size - 1` servers run and a run
    finds none done, the last slot's server (the spare) starts in the background, so that
    `size - 1` callers at a time rarely wait for a check."""

    def __init__(self, size: int, key: tuple[int, int, int]) -> None:
        self.key = key
        self.size = size
        self.idle: queue.LifoQueue[WarmServer | None] = queue.LifoQueue()
        for _ in range(size):
            self.idle.put(None)  # started on first use
        self.servers: list[WarmServer] = []
        self.evicted = False
        self._evicting = threading.Lock()

    def _take(self) -> WarmServer | None:
        """An idle server, one whose check is done first; None: a slot to start one in."""
        server = self.idle.get()
        if server is None or server.settled():
            return server
        passed = []
        taken = server
        while True:
            try:
                other = self.idle.get_nowait()
            except queue.Empty:
                break
            if other is not None and other.settled():
                taken = other
                break
            passed.append(other)
        if taken is not server:
            passed.append(server)
        elif None in passed and len(self.servers) >= self.size - 1:
            passed.remove(None)  # the spare's slot: it goes back once the spare is ready
            threading.Thread(target=self._start_spare, daemon=True,
                             name="sandbox-warm-spare").start()
        for other in passed:
            self.idle.put(other)
        return taken

    def _start_spare(self) -> None:
        try:
            server = WarmServer(self.key)
        except SandboxError:
            self.idle.put(None)  # the next run that needs it tries again, and says why
            return
        self.servers.append(server)
        try:
            server.wait_ready()
        except (SandboxError, OSError, ValueError):  # also: the pool closed it meanwhile
            server.close()
            if server in self.servers:  # not after the pool's `close`
                self.servers.remove(server)
            self.idle.put(None)
            return
        self._give_back(server)

    def execute(self, code: str, stdin: bytes, files: Mapping[str, str | bytes],
                limits: Limits, harness: str | None, cancel: Cancel | None = None) -> RawRun:
        server = self._take()
        try:
            if server is not None and not server.alive():
                server.close()
                self.servers.remove(server)
                server = None
            if server is None:
                server = WarmServer(self.key)
                self.servers.append(server)
            server.wait_ready()
            if cancel is not None:  # a run's own clock starts here, not while it waited
                cancel.started()
            result = server.execute(code, stdin, files, limits, harness, cancel=cancel)
        except (SandboxError, OSError) as exc:
            error = exc if isinstance(exc, SandboxError) or server is None else server.died()
            if server is not None:
                server.close()
                self.servers.remove(server)
            self.idle.put(None)
            if error is exc:
                raise
            raise error from exc
        self._give_back(server)
        return result

    def _give_back(self, server: WarmServer) -> None:
        with self._evicting:
            if not self.evicted:
                self.idle.put(server)
                return
        server.close()
        if server in self.servers:  # not after `close`
            self.servers.remove(server)
        self.idle.put(None)  # a run that took this pool before its eviction still gets a turn

    def evict(self) -> None:
        """Close the idle servers now and each busy one when its run ends."""
        with self._evicting:
            self.evicted = True
        drained = []
        while True:
            try:
                drained.append(self.idle.get_nowait())
            except queue.Empty:
                break
        for server in drained:
            if server is not None:
                server.close()
                self.servers.remove(server)
            self.idle.put(None)

    def close(self) -> None:
        with self._evicting:
            self.evicted = True  # a spare still starting is closed when ready
        for server in list(self.servers):
            server.close()
        self.servers.clear()


MAX_POOLS = 4
"""Warm pools kept (one per distinct jail: memory limit, tmpfs size and file cap), the most
recently used last; past it the least recently used is evicted (`WarmPool.evict`), so
requests with ever new memory limits (`rewards sandbox serve`) cannot keep idle servers
without bound. `SANDBOX_WARM_POOLS` sets another number (at least 1)."""


def max_pools() -> int:
    """`MAX_POOLS`, or `SANDBOX_WARM_POOLS` when set."""
    try:
        return max(1, int(os.environ.get("SANDBOX_WARM_POOLS", MAX_POOLS)))
    except ValueError:
        return MAX_POOLS


def _pool(limits: Limits) -> WarmPool:
    """The pool of servers whose jail fits `limits`: its tmpfs size and file cap, and the
    memory cgroup holding a run's `memory_bytes`. The `max_pools()` most recently used are
    kept; an older one is evicted once the lock is free (closing servers takes ms)."""
    key = (limits.disk_bytes, limits.disk_files, limits.memory_bytes)
    evicted = []
    with _pools_lock:
        pool = _pools.pop(key, None) or WarmPool(max(2, default_workers()) + 1, key)
        _pools[key] = pool  # the dict's order is the order of use, most recent last
        while len(_pools) > max_pools():
            evicted.append(_pools.pop(next(iter(_pools))))
    for old in evicted:
        old.evict()
    return pool


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
             harness: str | None = None, cancel: Cancel | None = None,
             decode_stdout: bool = True) -> Execution:
    """Run Python `code` in a warm server: same isolation and limits as a cold jail. Once
    `cancel` is set (from another thread) the run is killed and is a timeout.
    `decode_stdout`: as `to_execution` takes it."""
    spec = language_spec("python")
    clean = {safe_name(name, spec): content for name, content in files.items()}
    raw = _pool(limits).execute(code, stdin, clean, limits, harness, cancel=cancel)
    return to_execution(raw, limits, cgroup=bool(cgroup_v2_root()),
                        decode_stdout=decode_stdout)
