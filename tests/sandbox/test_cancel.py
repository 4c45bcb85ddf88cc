"""`run_tests(cancel=)`: a stop signal raised from another thread (or by its deadline) kills a
warm run at once; its unfinished tests are timeouts that did not run, never passes (issue
#17's hard cancel across the chunks of one program, `SplitProgram`)."""

from __future__ import annotations

import dataclasses
import json
import os
import select
import socket
import threading
import time
from collections.abc import Callable

import pytest
from sandbox_probes import MODES, SHORT

import sandbox
from sandbox import Cancel, _warm
from sandbox._process import RawRun

LIMITS = dataclasses.replace(SHORT, test_wall_s=5.0, wall_s=30.0, cpu_s=30.0)
# each test sleeps 3 s: run on, the four take 12 s
SLOW = "import time\nx = input()\ntime.sleep(3.0)\nprint(x)\n"
CASES = [{"input": f"{i}\n", "output": f"{i}\n"} for i in range(4)]


def readable(cancel: Cancel) -> bool:
    return bool(select.select([cancel.fileno()], [], [], 0)[0])


def test_the_signal_wakes_a_poll_once_set_and_keeps_its_first_reason() -> None:
    cancel = Cancel()
    assert not cancel.is_set() and not readable(cancel)
    cancel.set("first")
    cancel.set("second")
    assert cancel.is_set() and cancel.reason == "first" and readable(cancel)
    cancel.close()
    cancel.set("after close")  # harmless: nothing is written to a closed fd
    with pytest.raises(sandbox.ArgumentError, match="closed"):
        cancel.fileno()
    early = Cancel()
    early.set("before any fd")
    assert readable(early)  # made readable from the start
    early.close()


def test_a_deadline_sets_it_with_its_own_reason() -> None:
    passed = Cancel(time.monotonic() - 1, "budget spent")
    assert passed.is_set() and passed.reason == "budget spent"
    assert not Cancel(time.monotonic() + 3600, "later").is_set()


@pytest.mark.parametrize("how", ["deadline", "thread"])
@pytest.mark.parametrize("mode", MODES)
def test_a_run_is_killed_at_its_cancel_and_the_sandbox_serves_on(mode: str, how: str) -> None:
    """Cancelled 0.3 s in (by its deadline, or set by another thread), the first 3 s test
    never ends: all four are timeouts that did not run, with the cancel's reason, and the
    run ends long before the 12 s it needs. The sandbox then runs the next program as usual
    (the kill left nothing behind: the same warm pool, the next cold jails)."""
    begin = time.monotonic()
    if how == "deadline":
        cancel = Cancel(time.monotonic() + 0.3, "stopped by the host")
    else:
        cancel = Cancel()
        threading.Timer(0.3, cancel.set, ["stopped by the host"]).start()
    report = sandbox.run_tests(SLOW, CASES, limits=LIMITS, mode=mode, cancel=cancel)
    took = time.monotonic() - begin
    cancel.close()
    assert [(r.outcome, r.message, r.ran) for r in report.results] == [
        ("timeout", "stopped by the host", False)] * 4, report
    assert report.status == "timeout"
    assert took < 8.0, took
    for _ in range(3):
        again = sandbox.run_tests("print(input())", CASES, limits=LIMITS, mode=mode)
        assert again.passed == 4 and again.status == "ok", again


@pytest.mark.parametrize("mode", MODES)
def test_a_run_cancelled_before_it_starts_never_starts(mode: str) -> None:
    cancel = Cancel()
    cancel.set("not run: an earlier test timed out")
    report = sandbox.run_tests("print(input())", CASES, limits=LIMITS, mode=mode,
                               cancel=cancel)
    assert [(r.outcome, r.ran) for r in report.results] == [("timeout", False)] * 4, report
    assert all(r.message == "not run: an earlier test timed out" for r in report.results)
    cancel.close()


@pytest.mark.parametrize("mode", MODES)
def test_a_cancel_that_never_comes_changes_nothing(mode: str) -> None:
    cancel = Cancel()
    report = sandbox.run_tests("print(input())", CASES, limits=LIMITS, mode=mode,
                               cancel=cancel)
    cancel.set("too late")  # after the run: its verdicts stand
    assert report.passed == 4 and report.status == "ok", report
    cancel.close()


# --- the kill the host asks for, against a stand-in for the warm server ----------------------


def collect(server_side: Callable[[socket.socket, int, int], None],
            cancel: Cancel) -> tuple[_warm.WarmServer, RawRun, bytes]:
    """`WarmServer._collect` of one run, the server played by `server_side(sock, out_w,
    err_w)` in a thread; also what the stand-in had left unread on its socket."""
    server = object.__new__(_warm.WarmServer)
    server.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    server.retired = False
    (pay_r, pay_w), (in_r, in_w), (out_r, out_w), (err_r, err_w) = (os.pipe() for _ in range(4))
    thread = threading.Thread(target=server_side, args=(theirs, out_w, err_w))
    thread.start()
    try:
        writes = _warm._start_writes({pay_w: b"payload", in_w: b""})
        raw = server._collect(writes, out_r, err_r, LIMITS, cancel)
    finally:
        thread.join()
        for fd in (pay_r, in_r):
            os.close(fd)
    theirs.setblocking(False)
    try:
        left = theirs.recv(64)
    except BlockingIOError:
        left = b""
    theirs.close()
    server.control.close()
    return server, raw, left


def verdict(**fields: object) -> bytes:
    return json.dumps({"exit_code": None, "signal": None, "timed_out": False, "cpu_s": 0.0,
                       "maxrss": 0, **fields}).encode()


def test_a_kill_the_server_takes_makes_the_run_a_timeout() -> None:
    def server_side(sock: socket.socket, out_w: int, err_w: int) -> None:
        assert sock.recv(64) == b"kill"  # supervise reads it and SIGKILLs the run
        os.close(out_w)
        os.close(err_w)
        sock.send(verdict(signal=9))

    cancel = Cancel()
    cancel.set("stop")
    server, raw, left = collect(server_side, cancel)
    assert raw.timed_out and raw.signal == 9 and not server.retired and left == b""
    cancel.close()


def test_a_kill_that_comes_after_the_run_ended_leaves_the_result_standing() -> None:
    """The run ended (exit 0) before the kill was read: the kill stays queued (the server
    skips it before the next header, see the test below) and the run's own result stands."""
    cancel = Cancel()
    cancel.set("stop")

    def server_side(sock: socket.socket, out_w: int, err_w: int) -> None:
        os.close(out_w)
        os.close(err_w)
        sock.send(verdict(exit_code=0))  # before the host looks at its cancel

    server, raw, left = collect(server_side, cancel)
    assert not raw.timed_out and raw.exit_code == 0
    assert not server.retired and left == b"kill"
    cancel.close()


def test_a_real_server_skips_a_kill_queued_between_runs() -> None:
    first = sandbox.run("print(1)", limits=LIMITS, mode="warm")
    assert first.stdout == "1\n"
    pool = _warm._pool(LIMITS)
    servers = list(pool.servers)
    for server in servers:  # a kill that reached each server after its run had ended
        server.control.send(b"kill")
    for _ in range(2 * len(servers)):  # every server serves on, the same servers
        assert sandbox.run("print(2)", limits=LIMITS, mode="warm").stdout == "2\n"
    assert pool.servers == servers and all(s.alive() for s in servers)
