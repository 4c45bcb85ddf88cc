"""Warm pools are a small LRU: runs with ever new memory limits (60 requests to
`rewards sandbox serve`, each with its own `memory_limit_MB`) keep at most `max_pools()`
pools; the least recently used is evicted and its servers closed, idle ones at once, a busy
one when its run ends; a later run with an evicted limit starts a fresh pool and runs."""

from __future__ import annotations

import socket
import threading

import pytest

import sandbox
from sandbox import _warm

LIMITS = [sandbox.Limits(wall_s=10, memory_bytes=(200 + 10 * i) << 20) for i in range(5)]


@pytest.fixture
def two_pools(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_WARM_POOLS", "2")
    _warm.shutdown()  # start from no pool (earlier tests' come back on demand)
    yield
    _warm.shutdown()


def test_new_memory_limits_evict_the_least_recently_used_pool(two_pools: None) -> None:
    seen: dict[int, _warm.WarmPool] = {}
    for i, limits in enumerate(LIMITS):
        ex = sandbox.run(f"print({i})", limits=limits, mode="warm")
        assert (ex.status, ex.stdout) == ("ok", f"{i}\n"), ex
        seen[i] = _warm._pools[(limits.disk_bytes, limits.disk_files, limits.memory_bytes)]
        assert len(_warm._pools) <= 2
    kept = set(map(id, _warm._pools.values()))
    for i, pool in seen.items():
        if id(pool) in kept:
            assert not pool.evicted and any(s.alive() for s in pool.servers)
        else:  # evicted: every server it started has exited, none is kept
            assert pool.evicted and pool.servers == []
    # a limit used again moves to the front: the other one is evicted next, not it
    sandbox.run("print('again')", limits=LIMITS[3], mode="warm")
    sandbox.run("print('new')", limits=LIMITS[0], mode="warm")
    keys = [key[2] for key in _warm._pools]
    assert keys == [LIMITS[3].memory_bytes, LIMITS[0].memory_bytes]
    # an evicted limit runs again, on a fresh pool
    ex = sandbox.run("print('back')", limits=LIMITS[1], mode="warm")
    assert (ex.status, ex.stdout) == ("ok", "back\n"), ex


def test_a_busy_pool_is_closed_when_its_run_ends(two_pools: None) -> None:
    """Eviction never kills a run: the evicted pool's busy server finishes the run it holds,
    then closes."""
    slow = "import time\ntime.sleep(1.5)\nprint('finished')\n"
    result: dict[str, sandbox.Execution] = {}
    runner = threading.Thread(target=lambda: result.update(
        ex=sandbox.run(slow, limits=LIMITS[0], mode="warm")))
    runner.start()
    key = (LIMITS[0].disk_bytes, LIMITS[0].disk_files, LIMITS[0].memory_bytes)
    while key not in _warm._pools or not _warm._pools[key].servers:
        threading.Event().wait(0.01)
    busy = _warm._pools[key]
    for limits in LIMITS[1:3]:  # two newer pools: the busy one is evicted
        assert sandbox.run("print(1)", limits=limits, mode="warm").status == "ok"
    assert busy.evicted
    runner.join(30)
    assert (result["ex"].status, result["ex"].stdout) == ("ok", "finished\n"), result
    assert busy.servers == []


# --- a server still checking its jail after a run (`WarmServer.settle`) ----------------------


def stand_in(verdict: bytes | None) -> tuple[_warm.WarmServer, socket.socket]:
    """A server whose last run's result came, its verdict on its jail `verdict` (None: not
    yet sent); also the server's end of its control socket."""
    server = object.__new__(_warm.WarmServer)
    server.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    server.retired = False
    server.settling = True
    if verdict is not None:
        theirs.send(verdict)
    return server, theirs


@pytest.mark.parametrize(("verdict", "retired"), [(b"clean", False), (b"retire", True),
                                                  (b"", True), (b"ready", True)])
def test_only_a_clean_verdict_lets_a_server_take_another_run(verdict: bytes,
                                                             retired: bool) -> None:
    server, theirs = stand_in(None)
    if verdict:
        theirs.send(verdict)
    else:
        theirs.close()  # the server died after the result
    server.settle()
    assert server.retired is retired and not server.settling
    server.control.close()
    theirs.close()


def test_a_server_still_checking_is_passed_over_for_one_that_is_done(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pool = _warm.WarmPool(0, (1, 1, 1))
    pool.size = 3
    checking, checking_end = stand_in(None)
    done, done_end = stand_in(b"clean")
    pool.servers = [checking, done]
    spares: list[int] = []
    monkeypatch.setattr(pool, "_start_spare", lambda: spares.append(1))
    pool.idle.put(done)
    pool.idle.put(checking)  # on top: the one a LIFO pool would hand out
    assert pool._take() is done
    assert pool.idle.get_nowait() is checking and spares == []
    for sock in (checking.control, checking_end, done.control, done_end):
        sock.close()


def test_the_spare_starts_only_once_the_other_servers_run() -> None:
    pool = _warm.WarmPool(0, (1, 1, 1))
    pool.size = 3
    checking, checking_end = stand_in(None)
    started = threading.Event()
    pool._start_spare = started.set  # type: ignore[method-assign]
    pool.servers = [checking]  # one caller so far: it waits for its own server's check
    pool.idle.put(None)
    pool.idle.put(checking)
    assert pool._take() is checking and not started.wait(0.2)
    assert pool.idle.get_nowait() is None
    other, other_end = stand_in(None)  # a second server, busy checking too
    pool.servers = [checking, other]
    pool.idle.put(None)
    pool.idle.put(checking)
    assert pool._take() is checking and started.wait(10)
    assert pool.idle.empty()  # the spare's slot is taken until the spare is ready
    for sock in (checking.control, checking_end, other.control, other_end):
        sock.close()


def test_a_spare_closed_while_it_starts_gives_its_slot_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`shutdown` (at exit, between a benchmark's batches) may close a pool whose spare is
    still starting: the spare's start ends there, quietly, and its slot goes back."""
    pool = _warm.WarmPool(0, (1, 1, 1))
    closes: list[_warm.WarmServer] = []

    class ClosedWhileStarting(_warm.WarmServer):
        def __init__(self, key: tuple[int, int, int]) -> None:
            self.ready = False
            self.control, self.theirs = socket.socketpair(socket.AF_UNIX,
                                                          socket.SOCK_SEQPACKET)

        def wait_ready(self) -> None:
            pool.close()  # as `shutdown` does from another thread
            super().wait_ready()  # on the socket the close took away

        def close(self) -> None:
            closes.append(self)
            self.control.close()
            self.theirs.close()

    monkeypatch.setattr(_warm, "WarmServer", ClosedWhileStarting)
    pool._start_spare()
    assert pool.servers == [] and len(closes) == 2  # by the pool, then by the spare
    assert pool.idle.get_nowait() is None
