"""A pool of killable worker processes, one per core, shared by everything in this process.

Each comparison runs in a worker with a hard wall-clock bound: when the bound passes, the
worker is killed (SIGKILL) and a fresh one takes its place on the next request. Workers are
plain `subprocess.Popen` children speaking JSON lines over pipes, so the pool works from
threads, from asyncio (via threads) and from daemonic processes such as Celery prefork
children, where `multiprocessing` refuses to start children. No signals in this process."""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

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
    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p)
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the worker)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rewards.math._worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.stderr, env=env, close_fds=True)
        self.buffer = b""
        self.eof = False
        self.next_id = 0

    @property
    def pid(self) -> int:
        return self.proc.pid

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
            assert self.proc.stdin is not None
            self.proc.stdin.write(message.encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise _WorkerGone(self.pid) from exc
        line = self._read_line(start + timeout)
        seconds = time.monotonic() - start
        if line is None:
            if self.eof or self.proc.poll() is not None:
                # Died on this input (out of memory, a C-level crash): the input is to blame,
                # so it is data like a timeout; the pool replaces the worker.
                try:
                    code: int | None = self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    code = None
                return Outcome("timeout", f"worker died (exit {code}) while comparing", seconds)
            return Outcome("timeout", f"no answer within {timeout:g}s, worker killed", seconds)
        answer = json.loads(line)
        if answer.get("id") != self.next_id:
            raise WorkerError(f"math worker {self.pid} answered out of turn: {answer}")
        return Outcome(answer["reason"], answer.get("detail", ""), seconds)

    def _read_line(self, deadline: float) -> bytes | None:
        """One line from the worker, or `None` if the deadline passes or the worker dies."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                self.eof = True  # the worker exited (poll() may not know yet)
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass

    def forget(self) -> None:
        """In a forked child: drop the parent's worker without touching it."""
        for stream in (self.proc.stdin, self.proc.stdout, self.stderr):
            try:
                os.close(stream.fileno())  # type: ignore[union-attr]
            except (OSError, ValueError):
                pass
        self.proc.returncode = 0  # not ours to wait for

    def _stderr_tail(self) -> str:
        try:
            self.stderr.seek(0)
            return self.stderr.read()[-2000:].decode(errors="replace").strip() or "(no stderr)"
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
                fresh.append(_Worker())
            for worker in fresh:
                worker.wait_ready(self.start_timeout)
        except BaseException:
            for worker in fresh:
                worker.kill()
            with self._cond:
                self._count -= missing
                self._cond.notify_all()
            raise
        for worker in fresh:
            self._release(worker, new=True)

    def worker_pids(self) -> list[int]:
        with self._cond:
            return sorted(w.pid for w in self._all if w.alive())

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
        try:  # start outside the lock: importing sympy takes a second or more
            worker = _Worker()
            worker.wait_ready(self.start_timeout)
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
        """Kill `worker`; with `replace`, start its successor in the background so the next
        request does not wait for sympy to import."""
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
            worker = _Worker()
            worker.wait_ready(self.start_timeout)
        except (WorkerError, OSError):
            with self._cond:  # give the slot back: the next request starts (and reports) one
                self._count -= 1
                self._cond.notify()
            return
        self._release(worker, new=True)

    def _forget_after_fork(self) -> None:
        for worker in list(self._all):
            worker.forget()


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
