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
import os
import threading
from collections import OrderedDict, deque

from rewards.errors import WorkerError
from rewards.math._processes import Outcome, Worker, WorkerGone, Zygote

__all__ = ["WorkerError", "WorkerPool", "shared_pool"]  # WorkerError: of rewards.errors


class WorkerPool:
    """Up to `size` workers, started lazily, handed to one caller thread at a time."""

    def __init__(self, size: int, *, start_timeout: float = 120.0) -> None:
        self.size = size
        self.start_timeout = start_timeout
        self.pid = os.getpid()
        self._idle: list[Worker] = []
        self._count = 0  # started or starting, idle or busy
        self._all: set[Worker] = set()
        self._cond = threading.Condition()
        # callers waiting for a worker, by owner (a batch): the owners take turns, the first
        # owner's first caller is served next; each owner's callers in the order they asked
        self._owners: OrderedDict[object, deque[object]] = OrderedDict()
        self._zygote = Zygote(start_timeout)
        self._closed = False
        self.kills = 0  # workers killed after a timeout (for tests and benchmarks)
        self.slowest = 0.0  # longest request, seconds (for benchmarks)

    def run(self, pred: str, gold: str, *, rel_tol: float, timeout: float,
            pred_raw: bool = False, owner: object = None) -> Outcome:
        """Compare on a worker; reason `timeout` (and the worker replaced) past `timeout`.
        `pred_raw`: `pred` is a completion's text for math-verify to extract from, not an
        answer. `owner`: whose job it is (a batch): owners take turns for the workers
        (`_acquire`); None, the caller's own turn.

        A worker found dead before it read the request (killed while idle) is replaced and the
        request retried. One that dies under the request may have been killed while idle (the
        request still in its pipe): the request is retried once on a worker started for it;
        a worker started for this request dying is the input's: `timeout` (data, never an
        infrastructure error that would fail its batch-mates)."""
        retried = False
        for _ in range(self.size + 2):
            worker, fresh = self._acquire(owner, fresh=retried)
            try:
                outcome = worker.request(pred, gold, rel_tol, timeout, pred_raw)
            except WorkerGone:
                self._discard(worker)
                if fresh:
                    raise WorkerError(f"math worker died before its first request: "
                                      f"{worker.stderr_tail()}") from None
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
                retried = True
                continue  # killed while idle, perhaps: on a fresh worker, this input's then
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

    def _new_worker(self) -> Worker:
        worker = self._zygote.fork_worker()
        worker.wait_ready(self.start_timeout)
        return worker

    @property
    def _queue(self) -> list[object]:
        """The callers waiting for a worker, in the order they will be served (for tests)."""
        lines = [list(turns) for turns in self._owners.values()]
        return [line[k] for k in range(max(map(len, lines), default=0))
                for line in lines if k < len(line)]

    def _acquire(self, owner: object = None, fresh: bool = False) -> tuple[Worker, bool]:
        """A worker for one request, and whether it was started just for it. The owners of
        waiting callers (a batch each; a caller with none is its own) take turns, one worker
        each, so one batch of many jobs never holds another's single job behind all of its
        own; an owner's callers are served in the order they asked, and a thread that has
        just released a worker and asks again waits behind those already waiting. `fresh`: a
        worker started for this request (an idle one is stopped to make room if need be)."""
        with self._cond:
            turn = object()
            owner = turn if owner is None else owner
            self._owners.setdefault(owner, deque()).append(turn)
            served = False
            try:
                while True:
                    if self._closed:
                        raise WorkerError("math worker pool is closed")
                    if next(iter(self._owners.values()))[0] is turn:
                        if fresh and self._idle and self._count >= self.size:
                            spare = self._idle.pop()  # room for a worker of its own
                            spare.kill()
                            self._all.discard(spare)
                            self._count -= 1
                        while self._idle and not fresh:
                            worker = self._idle.pop()
                            if worker.alive():
                                served = True
                                return worker, False
                            self._all.discard(worker)
                            self._count -= 1
                        if self._count < self.size:
                            self._count += 1
                            served = True
                            break
                    self._cond.wait()
            finally:
                turns = self._owners[owner]
                turns.remove(turn)
                if not turns:
                    del self._owners[owner]
                elif served:
                    self._owners.move_to_end(owner)  # the next owner's turn
                self._cond.notify_all()  # the next in line may take an idle worker now
        try:  # start outside the lock: the first start imports sympy (seconds)
            worker = self._new_worker()
        except BaseException:
            with self._cond:
                self._count -= 1
                self._cond.notify_all()  # the head of `_queue` must wake
            raise
        with self._cond:
            self._all.add(worker)
        return worker, True

    def _release(self, worker: Worker, *, new: bool = False) -> None:
        with self._cond:
            if new:
                self._all.add(worker)
            if self._closed:
                worker.kill()
                return
            self._idle.append(worker)
            self._cond.notify_all()  # the head of `_queue`, whichever thread it is

    def _discard(self, worker: Worker, *, replace: bool = False) -> None:
        """Kill `worker`; with `replace`, fork its successor in the background, so that the
        caller has its answer at once."""
        worker.kill()
        with self._cond:
            self._all.discard(worker)
            if not replace or self._closed:
                self._count -= 1
                self._cond.notify_all()  # the head of `_queue` must wake
                return
        threading.Thread(target=self._start_replacement, name="math-worker-start",
                         daemon=True).start()

    def _start_replacement(self) -> None:
        try:
            worker = self._new_worker()
        except (WorkerError, OSError):
            with self._cond:  # give the slot back: the next request starts (and reports) one
                self._count -= 1
                self._cond.notify_all()  # the head of `_queue` must wake
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
