"""Workers are forks of one warm zygote: a worker killed after a timeout is replaced by a fork
of the same zygote (not a fresh interpreter), a dead zygote is replaced, a forked caller gets
its own, and nothing outlives the pool or its caller."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from rewards.math import WorkerError, WorkerPool, shared_pool

SLOW = ("$(x+1)^{2000}$", "$(x+2)^{2000}$")  # sympy expands both: many seconds
TRIG = ("$2\\sin x \\cos x$", "$\\sin 2x$")  # beyond the in-process algebra: a worker's job


@pytest.fixture(scope="module")
def pool():
    """A pool of its own: these tests kill its zygote."""
    pool = WorkerPool(2, start_timeout=120)
    pool.start()
    yield pool
    pool.close()


def _ask(pool: WorkerPool, pair: tuple[str, str], timeout: float = 30.0) -> str:
    return pool.run(*pair, rel_tol=1e-6, timeout=timeout).reason


def _parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as fh:
        return int(fh.read().rpartition(")")[2].split()[1])


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:  # a zombie waiting to be reaped is gone for us
            return fh.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _still_alive(pids: list[int], seconds: float = 15.0) -> list[int]:
    """The pids among `pids` still alive after waiting up to `seconds` for them to go."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
        time.sleep(0.1)
    return [pid for pid in pids if _alive(pid)]


def test_the_zygote_runs_one_thread(pool):
    zygote = pool.zygote_pid()
    assert zygote is not None
    assert os.listdir(f"/proc/{zygote}/task") == [str(zygote)]  # forks copy one thread only


def test_replacements_after_timeouts_are_forks_of_the_same_zygote(pool):
    zygote = pool.zygote_pid()
    before = set(pool.worker_pids())
    assert before and all(_parent_of(pid) == zygote for pid in before)
    kills = pool.kills
    for _ in range(3):
        assert _ask(pool, SLOW, timeout=0.5) == "timeout"
        assert _ask(pool, TRIG) == "ok"  # the pool keeps answering
    assert pool.kills == kills + 3
    assert pool.zygote_pid() == zygote  # never restarted: each replacement is a fork
    replacements = set(pool.worker_pids()) - before
    assert replacements
    assert all(_parent_of(pid) == zygote for pid in replacements)


def test_workers_killed_mid_comparison_leave_the_zygote_alone(pool):
    # As if an input crashed its worker (a C-level crash, out of memory): every worker dies
    # while one compares. The request goes on a fresh fork (the idle worker it had may have
    # died for another reason), which times out on this input; the zygote never notices.
    zygote = pool.zygote_pid()
    outcome = {}
    comparing = threading.Thread(target=lambda: outcome.update(
        reason=_ask(pool, SLOW, timeout=3.0)))
    comparing.start()
    time.sleep(0.5)
    workers = pool.worker_pids()
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    comparing.join(60)
    assert outcome == {"reason": "timeout"}
    assert pool.zygote_pid() == zygote
    assert _ask(pool, TRIG) == "ok"
    assert not set(pool.worker_pids()) & set(workers)
    assert all(_parent_of(pid) == zygote for pid in pool.worker_pids())


def test_a_killed_zygote_is_replaced(pool):
    old = pool.zygote_pid()
    workers = pool.worker_pids()
    for pid in (old, *workers):
        os.kill(pid, signal.SIGKILL)
    assert _still_alive([old, *workers]) == []
    assert _ask(pool, TRIG) == "ok"  # a new worker, so a new zygote
    new = pool.zygote_pid()
    assert new is not None and new != old
    assert pool.worker_pids() and all(_parent_of(pid) == new for pid in pool.worker_pids())
    # and a timeout's replacement comes from the new zygote as well
    assert _ask(pool, SLOW, timeout=0.5) == "timeout"
    assert _ask(pool, TRIG) == "ok"
    assert pool.zygote_pid() == new


def test_nothing_outlives_a_closed_pool():
    pool = WorkerPool(2, start_timeout=120)
    assert _ask(pool, TRIG) == "ok"
    pids = [pool.zygote_pid(), *pool.worker_pids()]
    assert len(pids) == 2 and None not in pids
    pool.close()
    # gone, and reaped: the zygote collects its workers before it exits, none is left as a
    # zombie for init (which, as pid 1 of a container, may never collect it)
    assert [pid for pid in pids if os.path.exists(f"/proc/{pid}")] == []
    assert pool.zygote_pid() is None
    with pytest.raises(WorkerError, match="closed"):
        _ask(pool, TRIG)


@pytest.mark.parametrize("zygote_killed_first", [False, True])
def test_nothing_outlives_a_caller_killed_with_sigkill(zygote_killed_first):
    # One worker is busy with a comparison of minutes when its caller dies: it must notice
    # the caller (not only its own parent, the zygote) and leave.
    code = textwrap.dedent("""
        import threading, time
        from rewards.math import WorkerPool
        pool = WorkerPool(2)
        pool.start()
        threading.Thread(target=pool.run, args=("$(x+1)^{2000}$", "$(x+2)^{2000}$"),
                         kwargs={"rel_tol": 1e-6, "timeout": 300}, daemon=True).start()
        time.sleep(0.5)
        print(pool.zygote_pid(), *pool.worker_pids(), flush=True)
        time.sleep(300)
    """)
    caller = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        zygote, *workers = [int(pid) for pid in caller.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(pid) for pid in (zygote, *workers))
        if zygote_killed_first:
            os.kill(zygote, signal.SIGKILL)
            assert _still_alive([zygote]) == []
    finally:
        caller.kill()
        caller.wait()
    assert _still_alive([zygote, *workers]) == []


def test_prestart_starts_the_zygote_alone_and_workers_fork_from_it():
    pool = WorkerPool(2, start_timeout=120)
    try:
        pool.prestart()
        deadline = time.monotonic() + 120
        while pool.zygote_pid() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        zygote = pool.zygote_pid()
        assert zygote is not None and pool.worker_pids() == []  # no worker before a request
        pool.prestart()  # already running: nothing new
        assert _ask(pool, TRIG) == "ok"
        assert pool.zygote_pid() == zygote
        assert [_parent_of(pid) for pid in pool.worker_pids()] == [zygote]
    finally:
        pool.close()


def test_a_zygote_that_cannot_start_raises_worker_error(monkeypatch):
    monkeypatch.setattr(sys, "executable", "/bin/false")  # exits at once, says nothing
    pool = WorkerPool(1, start_timeout=60)
    with pytest.raises(WorkerError, match="zygote did not start"):
        _ask(pool, TRIG)
    pool.close()


def _zygote_of_child(queue) -> None:  # runs in a forked child
    pool = shared_pool(1)
    reason = _ask(pool, TRIG)
    zygote = pool.zygote_pid()
    queue.put((reason, os.getpid(), zygote, zygote and _parent_of(zygote),
               [_parent_of(pid) for pid in pool.worker_pids()]))


def test_a_forked_caller_gets_its_own_zygote(warm_pool):
    ours = warm_pool.zygote_pid()
    assert ours is not None
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_zygote_of_child, args=(queue,), daemon=True)
    child.start()
    reason, child_pid, zygote, zygote_parent, parents = queue.get(timeout=120)
    child.join(30)
    assert reason == "ok"
    assert zygote not in (None, ours) and zygote_parent == child_pid
    assert parents and set(parents) == {zygote}
    assert child.exitcode == 0
    assert warm_pool.zygote_pid() == ours  # the parent's pool is untouched


def _soft_address_space_limit(pid: int) -> str:
    with open(f"/proc/{pid}/limits") as fh:
        line = next(line for line in fh if line.startswith("Max address space"))
    return line.split()[3]  # "Max address space  <soft>  <hard>  bytes"


def test_a_worker_s_address_space_is_bounded_and_the_zygote_s_is_not(pool):
    """A worker may grow by `MEMORY_BUDGET` beyond what it shares with the zygote, no more: an
    answer that makes sympy allocate without end fails in that worker (MemoryError) before the
    machine's OOM killer picks a process."""
    from rewards.math._worker import MEMORY_BUDGET

    assert _ask(pool, TRIG) == "ok"
    workers = pool.worker_pids()
    assert workers
    for pid in workers:
        soft = _soft_address_space_limit(pid)
        assert soft != "unlimited"
        with open(f"/proc/{pid}/statm") as fh:
            size = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        assert size < int(soft) <= size + MEMORY_BUDGET + (64 << 20)
    assert _soft_address_space_limit(pool.zygote_pid()) == "unlimited"


def test_a_comparison_out_of_memory_is_a_timeout_and_the_worker_serves_on(monkeypatch):
    """`serve` answers a MemoryError as the time bound's `timeout` (the input's fault), and
    the next request is answered."""
    import io
    import json

    from rewards.math import _symbolic, _worker

    calls = []

    def compare(pred, gold, rel_tol, *, pred_raw=False):
        calls.append(pred)
        if len(calls) == 1:
            raise MemoryError
        return "ok", ""

    monkeypatch.setattr(_symbolic, "symbolic_compare", compare)
    requests = io.StringIO("".join(json.dumps({"id": i, "pred": "$1$", "gold": "$1$",
                                               "rel_tol": 1e-6}) + "\n" for i in (1, 2)))
    answers = io.StringIO()
    _worker.serve(requests, answers)
    lines = [json.loads(line) for line in answers.getvalue().splitlines()]
    assert lines[1] == {"id": 1, "reason": "timeout",
                        "detail": "memory limit of the comparison process"}
    assert lines[2] == {"id": 2, "reason": "ok", "detail": ""}
