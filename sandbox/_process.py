"""Run one jail (or, for the unsafe backend, one bare process) to completion: feed stdin,
read stdout/stderr up to a cap, kill at the wall deadline, reap with rusage."""

from __future__ import annotations

import os
import re
import resource
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sandbox._parallel import Cancel

__all__ = ["FORKING", "RawRun", "Started", "collect", "jail_host_env", "run_process",
           "spawn_process"]

FORKING = threading.Lock()
"""Held around every fork of this package (`spawn_process`, a warm server's start) and
while it writes a file a jail may execute (a spare jail's placeholders, the binary cache):
a process forked meanwhile by another thread would hold that file open for writing until
its own exec, and a jail executing the file then fails with "Text file busy" (ETXTBSY)."""

_EXITED = re.compile(r"exited with status: (\d+)")
_SIGNALED = re.compile(r"terminated with signal: \w+ \((\d+)\)")


@dataclass
class RawRun:
    """Unclassified result of one process tree."""

    exit_code: int | None
    signal: int | None
    stdout: bytes
    stderr: bytes
    overflow: bool  # a stream went past the cap: the run was killed
    timed_out: bool  # we killed it at the wall deadline
    wall_s: float
    cpu_s: float
    peak_memory_bytes: int
    jail_log: str = ""
    jail_failed: bool = False  # nsjail itself could not start the program
    oom: bool | None = None  # the run's memory cgroup OOM-killed a process (None: unknown)


@dataclass
class Started:
    """A process started by `spawn_process`, not yet fed or read (`collect` does both)."""

    proc: subprocess.Popen[bytes]
    log_r: int  # the read end of nsjail's log pipe; -1 without a jail log
    with_jail_log: bool


def run_process(argv: Sequence[str], *, stdin: bytes, wall_s: float, output_bytes: int,
                with_jail_log: bool, stderr_extra: int = 0, pass_fds: Sequence[int] = (),
                preexec_fn: Callable[[], None] | None = None,
                cwd: str | None = None, env: dict[str, str] | None = None,
                cancel: Cancel | None = None) -> RawRun:
    """Run `argv` to completion (or until `cancel` is set, see `collect`). With
    `with_jail_log`, argv is an nsjail command line whose "{log_fd}" placeholder becomes the
    write end of a pipe created here: nsjail's log tells how the jailed program ended
    (nsjail's own exit code does not)."""
    started = spawn_process(argv, with_jail_log=with_jail_log, pass_fds=pass_fds,
                            preexec_fn=preexec_fn, cwd=cwd, env=env)
    return collect(started, stdin=stdin, wall_s=wall_s, output_bytes=output_bytes,
                   stderr_extra=stderr_extra, cancel=cancel)


def spawn_process(argv: Sequence[str], *, with_jail_log: bool, pass_fds: Sequence[int] = (),
                  preexec_fn: Callable[[], None] | None = None, cwd: str | None = None,
                  env: dict[str, str] | None = None) -> Started:
    """Start `argv` (see `run_process`) with piped stdin, stdout and stderr; nothing is
    written or read until `collect`."""
    log_r = log_w = -1
    fds = list(pass_fds)
    if with_jail_log:
        log_r, log_w = os.pipe()
        argv = [a if a != "{log_fd}" else str(log_w) for a in argv]
        fds.append(log_w)
    if with_jail_log and env is None:
        env = jail_host_env()
    try:
        with FORKING:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, pass_fds=fds, cwd=cwd, env=env,
                                    preexec_fn=preexec_fn,  # noqa: PLW1509 (unsafe backend)
                                    start_new_session=True)
    except OSError:
        if with_jail_log:
            os.close(log_r)
            os.close(log_w)
        raise
    if with_jail_log:
        os.close(log_w)
    return Started(proc, log_r, with_jail_log)


def collect(started: Started, *, stdin: bytes, wall_s: float, output_bytes: int,
            stderr_extra: int = 0, since: float | None = None,
            cancel: Cancel | None = None) -> RawRun:
    """Feed `stdin` to a started process, read its stdout and stderr up to `output_bytes`
    each (stderr `stderr_extra` more: room for a cold init's report, which only stderr
    carries), kill it `wall_s` seconds after `since` (a `time.monotonic()`; default now), past
    the cap or once `cancel` is set (a stop is a `timed_out` run), reap it with its rusage."""
    proc, log_r, with_jail_log = started.proc, started.log_r, started.with_jail_log
    start = time.monotonic() if since is None else since
    out, err, log = bytearray(), bytearray(), bytearray()
    overflow = timed_out = False
    sel = selectors.DefaultSelector()
    assert proc.stdin and proc.stdout and proc.stderr
    pending = memoryview(stdin)
    if pending:
        os.set_blocking(proc.stdin.fileno(), False)
        sel.register(proc.stdin, selectors.EVENT_WRITE, "in")
    else:
        proc.stdin.close()
    sel.register(proc.stdout, selectors.EVENT_READ, out)
    sel.register(proc.stderr, selectors.EVENT_READ, err)
    log_file = None
    if with_jail_log:
        log_file = os.fdopen(log_r, "rb", buffering=0)
        started.log_r = -1  # the file owns the fd now
        sel.register(log_file, selectors.EVENT_READ, log)
    deadline = start + wall_s
    watched = 0  # the cancel's fd, which never ends the loop by itself
    if cancel is not None:
        sel.register(cancel.fileno(), selectors.EVENT_READ, "cancel")
        watched = 1
    finished = False
    try:
        while len(sel.get_map()) > watched:
            remaining = deadline - time.monotonic()
            if cancel is not None:
                remaining = cancel.wait_s(remaining)
            if remaining <= 0 or (cancel is not None and cancel.is_set()):
                timed_out = True
                break
            for key, _ in sel.select(remaining):
                if key.data == "cancel":
                    continue  # seen at the top of the loop
                if key.data == "in":
                    try:
                        sent = os.write(key.fd, pending[:65536])
                    except (BrokenPipeError, BlockingIOError) as exc:
                        sent = 0 if isinstance(exc, BlockingIOError) else len(pending)
                    pending = pending[sent:]
                    if not pending:
                        sel.unregister(key.fileobj)
                        proc.stdin.close()  # the one writer registered ("in")
                    continue
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                buf = key.data
                cap = output_bytes + stderr_extra if buf is err else output_bytes
                if buf is not log and len(buf) + len(chunk) > cap:
                    buf += chunk[: cap - len(buf)]
                    overflow = True
                    break
                buf += chunk
            if overflow:
                break
        finished = True
    finally:
        # killed at the deadline, past the output cap, or on our own error (KeyboardInterrupt)
        reaped = _kill(proc, jail=with_jail_log) if timed_out or overflow or not finished \
            else None
        for key in list(sel.get_map().values()):
            sel.unregister(key.fileobj)
        sel.close()
        _, status, usage = reaped or os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if not stream.closed:
                stream.close()
    if log_file is not None:
        if not (timed_out or overflow):
            log += log_file.read()
        log_file.close()
    exit_code, sig = _exit_status(status, log.decode(errors="replace") if with_jail_log else None)
    if timed_out and with_jail_log:
        # the jail killed at its deadline (or on a cancel): nsjail, on our SIGTERM, SIGKILLs
        # its pid 1 and the kernel every other process of the jail (`_kill`), its log unread.
        # The program ended by that SIGKILL, as a warm server (which sends it itself) and the
        # unsafe backend (killpg) report it: one record in every mode (red team sb14)
        exit_code, sig = None, signal.SIGKILL
    jail_log = log.decode(errors="replace")
    launch_failed = "Couldn't launch the child process" in jail_log \
        or "Launching child process failed" in jail_log
    jail_failed = with_jail_log and not timed_out and not overflow and (
        launch_failed or (exit_code is None and sig is None))
    return RawRun(exit_code=exit_code, signal=sig, stdout=bytes(out), stderr=bytes(err),
                  overflow=overflow, timed_out=timed_out, wall_s=wall,
                  cpu_s=usage.ru_utime + usage.ru_stime,
                  peak_memory_bytes=usage.ru_maxrss * 1024, jail_log=jail_log,
                  jail_failed=jail_failed)


def jail_host_env() -> dict[str, str]:
    """nsjail's own environment (the jail's is set by nsjail): nothing of the caller's, so
    that e.g. an LD_PRELOAD left by an inference engine never reaches the supervisor."""
    return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}


def _kill(proc: subprocess.Popen[bytes], *, jail: bool
          ) -> tuple[int, int, resource.struct_rusage] | None:
    """Kill a run. nsjail, on SIGTERM, SIGKILLs the jail's pid 1 and reaps it; pid 1's exit
    completes only once the kernel has killed every other process of its pid namespace, so
    when nsjail is gone nothing of the jail is left (a plain SIGKILL of nsjail would leave the
    teardown running after we return). SIGKILL follows if nsjail does not exit in time. For
    the unsafe backend the whole session is killed."""
    try:
        if jail:
            os.kill(proc.pid, signal.SIGTERM)
            give_up = time.monotonic() + 5
            while time.monotonic() < give_up:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    return pid, status, usage
                time.sleep(0.002)
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return None


def _exit_status(status: int, jail_log: str | None) -> tuple[int | None, int | None]:
    if jail_log is None:
        if os.WIFSIGNALED(status):
            return None, os.WTERMSIG(status)
        return os.WEXITSTATUS(status), None
    # nsjail's own exit code folds signals and launch failures together: read its log
    signaled = _SIGNALED.findall(jail_log)
    exited = _EXITED.findall(jail_log)
    if signaled:
        return None, int(signaled[-1])
    if exited:
        return int(exited[-1]), None
    return None, None
