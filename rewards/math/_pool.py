"""A pool of killable worker processes, one per core, shared by everything in this process.

Each comparison runs in a worker with a hard wall-clock bound: when the bound passes, the
worker is killed (SIGKILL) and a fresh one takes its place on the next request. Workers are
forked from one warm template process, the zygote (`rewards.math._zygote`), which imports
sympy and warms it up once, so a new worker is ready in milliseconds; they speak JSON lines
over pipes. The zygote is a plain `subprocess.Popen` child, so the pool works from threads,
from asyncio (via threads) and from daemonic processes such as Celery prefork children, where
`multiprocessing` refuses to start children. No signals in this process."""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from rewards.errors import WorkerError

__all__ = ["WorkerError", "WorkerPool", "shared_pool"]  # WorkerError: of rewards.errors

_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding `rewards/`


class _WorkerGone(Exception):
    """The worker was dead before the request reached it (not the input's fault)."""


@dataclass
class Outcome:
    """What one request to a worker came back with."""

    reason: str
    detail: str
    seconds: float  # wall-clock from sending the request to the answer (or the kill)


class _Worker:
    """One worker forked by the zygote: its pid (and a pidfd, where the system has them),
    the pipes to it and the file it writes its stderr to."""

    def __init__(self, pid: int, pidfd: int | None, requests: int, answers: int,
                 stderr: IO[bytes]) -> None:
        self.pid = pid
        self.pidfd = pidfd  # not our child (the zygote's): signalled and watched through it
        self.requests = os.fdopen(requests, "wb")
        self.answers = answers
        self.stderr = stderr
        self.buffer = b""
        self.eof = False
        self.closed = False
        self.next_id = 0

    def wait_ready(self, timeout: float) -> None:
        line = self._read_line(time.monotonic() + timeout)
        if line is None or not json.loads(line).get("ready"):
            self.kill()
            raise WorkerError(f"math worker did not start within {timeout:.0f}s: "
                              f"{self._stderr_tail()}")

    def request(self, pred: str, gold: str, rel_tol: float, timeout: float,
                pred_raw: bool = False) -> Outcome:
        self.next_id += 1
        message = json.dumps({"id": self.next_id, "pred": pred, "gold": gold,
                              "rel_tol": rel_tol, "pred_raw": pred_raw}) + "\n"
        start = time.monotonic()
        try:
            self.requests.write(message.encode())
            self.requests.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise _WorkerGone(self.pid) from exc
        line = self._read_line(start + timeout)
        seconds = time.monotonic() - start
        if line is None:
            if self.eof or self.exited():
                # Died on this input (out of memory, a C-level crash): the input is to blame,
                # so it is data like a timeout; the pool replaces the worker.
                return Outcome("timeout", "worker died while comparing", seconds)
            return Outcome("timeout", f"no answer within {timeout:g}s, worker killed", seconds)
        answer = json.loads(line)
        if answer.get("id") != self.next_id:
            raise WorkerError(f"math worker {self.pid} answered out of turn: {answer}")
        return Outcome(answer["reason"], answer.get("detail", ""), seconds)

    def _read_line(self, deadline: float) -> bytes | None:
        """One line from the worker, or `None` if the deadline passes or the worker dies."""
        while b"\n" not in self.buffer:
            if self.closed or not _readable(self.answers, deadline - time.monotonic()):
                return None
            chunk = os.read(self.answers, 65536)
            if not chunk:
                self.eof = True  # the worker exited
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def exited(self) -> bool:
        if self.pidfd is not None:
            return _readable(self.pidfd, 0)  # a pidfd turns readable when its process exits
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return True
        return False

    def alive(self) -> bool:
        return not (self.closed or self.eof or self.exited())

    def kill(self) -> None:
        """SIGKILL the worker and wait until it has exited (the zygote reaps it)."""
        if self.closed:
            return
        try:
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        deadline = time.monotonic() + 5
        if self.pidfd is not None:
            _readable(self.pidfd, 5)
        else:  # its answer pipe reaches EOF when it is gone (nothing else holds that end)
            while not self.eof and self._read_line(deadline) is not None:
                pass
        self._close()

    def forget(self) -> None:
        """In a forked child: drop the parent's worker without touching it."""
        self._close()

    def _close(self) -> None:
        self.closed = True
        for stream in (self.requests, self.stderr):
            try:
                stream.close()
            except OSError:
                pass  # a request still buffered for a dead worker
        for fd in (self.answers, self.pidfd):
            if fd is not None:
                os.close(fd)

    def _stderr_tail(self) -> str:
        return _file_tail(self.stderr)


class _Zygote:
    """The parent's end of the zygote (`rewards.math._zygote`), the warm process every worker
    is forked from: started on first use, started afresh when found dead."""

    def __init__(self, start_timeout: float) -> None:
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.control: socket.socket | None = None
        self.stderr: IO[bytes] | None = None
        self.closed = False
        self.serving = False  # warmed up and answering fork requests
        self._lock = threading.Lock()  # one fork request at a time on the control socket

    @property
    def pid(self) -> int | None:
        proc = self.proc
        return None if proc is None or proc.poll() is not None else proc.pid

    def fork_worker(self) -> _Worker:
        """A new worker (not yet ready: `wait_ready`); raises `WorkerError` if the zygote
        cannot be started or dies twice in a row."""
        with self._lock:
            for _ in range(2):
                if self.closed:
                    raise WorkerError("math worker pool is closed")
                if self.pid is None:
                    self._stop()
                    self._start()
                try:
                    return self._fork()
                except _WorkerGone:
                    tail = _file_tail(self.stderr)
                    self._stop()
            raise WorkerError(f"the math worker zygote died while forking a worker: {tail}")

    def start_in_background(self) -> None:
        """Start the zygote in a thread of its own unless it runs or is starting; a failure is
        left for the next `fork_worker` to meet again and report."""
        if self.closed or self.pid is not None or self._lock.locked():
            return
        threading.Thread(target=self._start_if_needed, name="math-zygote-start",
                         daemon=True).start()

    def _start_if_needed(self) -> None:
        with self._lock:
            if self.closed or self.pid is not None:
                return
            self._stop()
            try:
                self._start()
            except WorkerError:
                pass

    def close(self) -> None:
        """Stop the zygote: a serving one is asked to (it reaps the workers it forked, then
        exits); one still warming up is killed at once, even while a thread waits for it."""
        self.closed = True
        proc = self.proc
        if proc is not None and not self.serving and proc.poll() is None:
            proc.kill()
        with self._lock:
            self._stop(grace=2.0)

    def forget(self) -> None:
        """In a forked child: drop the parent's zygote without touching it (its lock may have
        been held by a thread that the child does not have)."""
        for stream in (self.control, self.stderr):
            if stream is not None:
                stream.close()
        if self.proc is not None:
            self.proc.returncode = 0  # not ours to wait for
        self.proc = self.control = self.stderr = None
        self.serving = False

    def _start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the zygote)
        self.control = ours
        try:
            self.proc = proc = subprocess.Popen(
                [sys.executable, "-m", "rewards.math._zygote", str(theirs.fileno()),
                 str(os.getpid())], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=self.stderr, env=env, close_fds=True, pass_fds=(theirs.fileno(),))
        except OSError as exc:
            self._stop()
            raise WorkerError(f"could not start the math worker zygote: {exc}") from exc
        finally:
            theirs.close()
        if self.closed:  # closed while starting (`close` may have missed this process)
            self._stop()
            raise WorkerError("math worker pool is closed")
        reply = self._receive(time.monotonic() + self.start_timeout)
        if reply is None or not reply[0] or not json.loads(reply[0]).get("ready"):
            how = (f"within {self.start_timeout:.0f}s" if reply is None
                   else f"(exit {proc.wait()})" if not reply[0] else f"({reply[0]!r})")
            tail = _file_tail(self.stderr)
            self._stop()
            raise WorkerError(f"math worker zygote did not start {how}: {tail}")
        self.serving = True

    def _fork(self) -> _Worker:
        assert self.control is not None
        requests_r, requests_w = os.pipe()
        answers_r, answers_w = os.pipe()
        stderr = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the worker)
        try:
            socket.send_fds(self.control, [b"fork"], [requests_r, answers_w, stderr.fileno()])
            reply = self._receive(time.monotonic() + self.start_timeout)
            if reply is None or not reply[0]:
                raise _WorkerGone("the zygote did not answer")
            message, fds = reply
            answer = json.loads(message)
            if "pid" not in answer:
                raise WorkerError(f"the math worker zygote could not fork a worker: "
                                  f"{answer.get('error', answer)}")
            return _Worker(answer["pid"], fds[0] if fds else None, requests_w, answers_r,
                           stderr)
        except BaseException as exc:
            for fd in (requests_w, answers_r):
                os.close(fd)
            stderr.close()
            if isinstance(exc, OSError):
                raise _WorkerGone("the zygote is gone") from exc
            raise
        finally:
            os.close(requests_r)
            os.close(answers_w)

    def _receive(self, deadline: float) -> tuple[bytes, list[int]] | None:
        """One message from the zygote (b"" if it is gone), or `None` past the deadline."""
        assert self.control is not None
        if not _readable(self.control.fileno(), deadline - time.monotonic()):
            return None
        message, fds, _, _ = socket.recv_fds(self.control, 256, 1, socket.MSG_CMSG_CLOEXEC)
        return message, fds

    def _stop(self, grace: float = 0.0) -> None:
        """Kill the zygote, or with `grace` (and a zygote that serves) close its control
        socket and give it that long to reap its workers and exit."""
        if self.control is not None:
            self.control.close()  # EOF for the zygote
        if self.proc is not None:
            if grace and self.serving:
                try:
                    self.proc.wait(grace)
                except subprocess.TimeoutExpired:
                    pass
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
        if self.stderr is not None:
            self.stderr.close()
        self.proc = self.control = self.stderr = None
        self.serving = False


def _readable(fd: int, timeout: float) -> bool:
    """Whether `fd` is readable (or at EOF, or a pidfd whose process exited) within
    `timeout` seconds. `poll`, not `select`: a descriptor above 1023 is fine."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(max(0, timeout) * 1000))


def _file_tail(stream: IO[bytes] | None) -> str:
    if stream is None:
        return "(stderr unavailable)"
    try:
        stream.seek(0)
        return stream.read()[-2000:].decode(errors="replace").strip() or "(no stderr)"
    except (OSError, ValueError):
        return "(stderr unavailable)"


class WorkerPool:
    """Up to `size` workers, started lazily, handed to one caller thread at a time."""

    def __init__(self, size: int, *, start_timeout: float = 120.0) -> None:
        self.size = size
        self.start_timeout = start_timeout
        self.pid = os.getpid()
        self._idle: list[_Worker] = []
        self._count = 0  # started or starting, idle or busy
        self._all: set[_Worker] = set()
        self._cond = threading.Condition()
        self._zygote = _Zygote(start_timeout)
        self._closed = False
        self.kills = 0  # workers killed after a timeout (for tests and benchmarks)
        self.slowest = 0.0  # longest request, seconds (for benchmarks)

    def run(self, pred: str, gold: str, *, rel_tol: float, timeout: float,
            pred_raw: bool = False) -> Outcome:
        """Compare on a worker; reason `timeout` (and the worker replaced) past `timeout`.
        `pred_raw`: `pred` is a completion's text for math-verify to extract from, not an
        answer.

        A worker that had been idle and turns out dead (killed from outside) is replaced and
        the request retried; only a worker started for this request dying blames the input."""
        for _ in range(self.size + 2):
            worker, fresh = self._acquire()
            try:
                outcome = worker.request(pred, gold, rel_tol, timeout, pred_raw)
            except _WorkerGone:
                self._discard(worker)
                if fresh:
                    raise WorkerError(f"math worker died before its first request: "
                                      f"{worker._stderr_tail()}") from None
                continue
            except BaseException:
                self._discard(worker)
                raise
            self.slowest = max(self.slowest, outcome.seconds)
            if outcome.reason != "timeout":
                self._release(worker)
                return outcome
            died = outcome.detail.startswith("worker died")
            self._discard(worker, replace=not died)
            if died and not fresh:
                continue  # killed while idle, most likely: not this input's fault
            self.kills += 1
            return outcome
        raise WorkerError("math workers keep dying; see the worker stderr")

    def start(self) -> None:
        """Start all workers now (in parallel) instead of on first use."""
        with self._cond:
            missing = self.size - self._count
            self._count += missing
        fresh = []
        try:
            for _ in range(missing):
                fresh.append(self._new_worker())
        except BaseException:
            for worker in fresh:
                worker.kill()
            with self._cond:
                self._count -= missing
                self._cond.notify_all()
            raise
        for worker in fresh:
            self._release(worker, new=True)

    def prestart(self) -> None:
        """Start the zygote now, in the background, and return at once: its seconds of
        warm-up then overlap the caller's own work (extracting a batch's answers) instead of
        delaying the first comparison that needs a worker."""
        self._zygote.start_in_background()

    def worker_pids(self) -> list[int]:
        with self._cond:
            return sorted(w.pid for w in self._all if w.alive())

    def zygote_pid(self) -> int | None:
        """The pid of the process the workers are forked from (`None` before the first)."""
        return self._zygote.pid

    def close(self) -> None:
        """Kill every worker (called at interpreter exit for the shared pool)."""
        with self._cond:
            self._closed = True
            workers = list(self._all)
            self._all.clear()
            self._idle.clear()
            self._count = 0
            self._cond.notify_all()
        for worker in workers:
            worker.kill()
        self._zygote.close()

    def _new_worker(self) -> _Worker:
        worker = self._zygote.fork_worker()
        worker.wait_ready(self.start_timeout)
        return worker

    def _acquire(self) -> tuple[_Worker, bool]:
        """A worker for one request, and whether it was started just for it."""
        with self._cond:
            while True:
                if self._closed:
                    raise WorkerError("math worker pool is closed")
                while self._idle:
                    worker = self._idle.pop()
                    if worker.alive():
                        return worker, False
                    self._all.discard(worker)
                    self._count -= 1
                if self._count < self.size:
                    self._count += 1
                    break
                self._cond.wait()
        try:  # start outside the lock: the first start imports sympy (seconds)
            worker = self._new_worker()
        except BaseException:
            with self._cond:
                self._count -= 1
                self._cond.notify()
            raise
        with self._cond:
            self._all.add(worker)
        return worker, True

    def _release(self, worker: _Worker, *, new: bool = False) -> None:
        with self._cond:
            if new:
                self._all.add(worker)
            if self._closed:
                worker.kill()
                return
            self._idle.append(worker)
            self._cond.notify()

    def _discard(self, worker: _Worker, *, replace: bool = False) -> None:
        """Kill `worker`; with `replace`, fork its successor in the background, so that the
        caller has its answer at once."""
        worker.kill()
        with self._cond:
            self._all.discard(worker)
            if not replace or self._closed:
                self._count -= 1
                self._cond.notify()
                return
        threading.Thread(target=self._start_replacement, name="math-worker-start",
                         daemon=True).start()

    def _start_replacement(self) -> None:
        try:
            worker = self._new_worker()
        except (WorkerError, OSError):
            with self._cond:  # give the slot back: the next request starts (and reports) one
                self._count -= 1
                self._cond.notify()
            return
        self._release(worker, new=True)

    def _forget_after_fork(self) -> None:
        for worker in list(self._all):
            worker.forget()
        self._zygote.forget()


_SHARED: dict[int, WorkerPool] = {}
_SHARED_LOCK = threading.Lock()


def shared_pool(size: int, *, start_timeout: float = 120.0) -> WorkerPool:
    """The process-wide pool with at least `size` workers (grown if a caller asks for more)."""
    with _SHARED_LOCK:
        pool = _SHARED.get(os.getpid())
        if pool is None:
            pool = WorkerPool(size, start_timeout=start_timeout)
            _SHARED[os.getpid()] = pool
        elif pool.size < size:
            with pool._cond:
                pool.size = size
                pool._cond.notify_all()
        return pool


def _close_shared() -> None:
    pool = _SHARED.pop(os.getpid(), None)
    if pool is not None:
        pool.close()


def _after_fork_in_child() -> None:
    """A forked child (Celery prefork, multiprocessing fork) must not share the parent's
    workers or locks: forget them; the child starts its own pool on first use."""
    global _SHARED_LOCK
    _SHARED_LOCK = threading.Lock()
    for pool in list(_SHARED.values()):
        pool._forget_after_fork()
    _SHARED.clear()


atexit.register(_close_shared)
os.register_at_fork(after_in_child=_after_fork_in_child)
