"""The warm server reaps a run's orphans on a clock (`warm_server.wait_run`'s `reap_at`, as
`harness_wire.Channel._wait` does since h-sb21): every REAP_S, whatever wakes its wait.
Before, it reaped only when its select timed out, so a wait woken again and again (requests
on the run's service socket one after another) put the reaping off for as long. Probes: that
clock alone (the server's function, run here with what wakes it stubbed), and programs,
cold and warm, plain and as assert tests, that make short-lived orphans in a tight loop
while writing steady output under a small process limit: the orphans are reaped as the
program runs, and the verdict is the program's."""

from __future__ import annotations

import dataclasses
import os
import socket
import time
from typing import Any

import pytest
from sandbox_probes import PASS, SHORT, ok_stdout, outcomes

from sandbox._in_jail import harness_wire, warm_server
from sandbox._runner import Mode

MODES: tuple[Mode, ...] = ("cold", "warm")
LIMITS = dataclasses.replace(SHORT, wall_s=20.0, cpu_s=10.0, test_wall_s=8.0, processes=16)


def test_wait_run_reaps_on_a_clock_whatever_wakes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The service socket is readable at every wait (a request the stubbed `fork_worker`
    never takes): the select never times out. The first reaping makes the run's end
    readable, so `wait_run` returns it; without a clock it would return None at the
    deadline, never having reaped."""
    end_r, end_w = os.pipe()
    control, control_theirs = socket.socketpair()
    service, service_theirs = socket.socketpair()
    service_theirs.send(b"worker")
    requests: list[Any] = []

    def fork_worker(sock: socket.socket, header: Any, result: Any) -> bool:
        requests.append(sock)
        return True

    def reap_exited(keep: tuple[int, ...] = (), usage: Any = None) -> None:
        os.write(end_w, b"r")

    monkeypatch.setattr(warm_server, "fork_worker", fork_worker)
    monkeypatch.setattr(harness_wire, "reap_exited", reap_exited)
    try:
        ended = warm_server.wait_run(time.monotonic() + 10.0, control, [end_r], {}, {},
                                     service)
        assert ended == end_r
        assert len(requests) > 1  # woken by the service socket, again and again
    finally:
        for fd in (end_r, end_w):
            os.close(fd)
        for sock in (control, control_theirs, service, service_theirs):
            sock.close()


ORPHANS = ("import os, sys, time\n"
           "def fork():\n"  # a fork that waits for a process of the count to be free
           "    while True:\n"
           "        try:\n            return os.fork()\n"
           "        except BlockingIOError:\n            time.sleep(0.001)\n"
           "def f():\n"
           "    for _ in range(200):\n"
           "        r, w = os.pipe()\n"
           "        pid = fork()\n"
           "        if pid == 0:\n"
           "            if fork() == 0:\n"  # the orphan: the reaper's child once its parent
           "                os._exit(0)\n"  # exited; it holds `w` until its own exit
           "            os._exit(0)\n"
           "        os.close(w)\n"
           "        os.waitpid(pid, 0)\n"
           "        os.read(r, 1)\n"  # EOF: the orphan has exited, it waits to be reaped
           "        os.close(r)\n"
           "        sys.stdout.write('.')\n"  # steady output
           "        sys.stdout.flush()\n"
           "    return True\n")
"""`f()`: 200 orphans, one after another, each waited for until it has exited (its pipe's
EOF), a dot written for each; a fork refused (RLIMIT_NPROC: orphans not yet reaped) is
tried again a millisecond later. How many forks a loop this tight has refused depends on
when the reaper gets a CPU (cold's init, which waits in waitpid, too, on a loaded machine):
not checked. What is checked is that the reaping goes on, so the loop ends."""


@pytest.mark.usefixtures("sandbox_ready")
@pytest.mark.parametrize("mode", MODES)
def test_orphans_made_in_a_tight_loop_are_reaped_as_the_program_runs(mode: Mode) -> None:
    """At 16 processes, 200 orphans made one after another while the program writes on:
    each is reaped, so the program's forks go on and the run is ok."""
    out = ok_stdout(ORPHANS + "print(f())\n", mode, limits=LIMITS)
    assert out == "." * 200 + "True\n", out[-200:]


@pytest.mark.usefixtures("sandbox_ready")
@pytest.mark.parametrize("mode", MODES)
def test_orphans_made_in_a_tight_loop_leave_assert_tests_their_verdicts(mode: Mode) -> None:
    assert outcomes(ORPHANS, ["assert f()", "assert f()"], mode, limits=LIMITS) == [PASS, PASS]
