"""Red team (rt39) of h-sb19 and h-sb20 as merged on main at fec3e0e (commits since 6d7190b):
`harness_wire.Channel.send` under the test's deadline and `Channel._wait`, `kill_others`
(one `kill(-1)`), `reap_left` / `reap_exited` (REAP_S: the jail's pid 1 reaps while it
waits, `Channel.reaper`), `harness.end_left` and the cold zygote's `check`,
`warm_server.fork_worker`'s `reap`, `wait_run(result, spare)`, `ServerForker.wait`
answering `check`, reaped processes' CPU and memory in a run's result; and
`_cache.remove_tree`'s descriptor walk.

Rules under attack: a replacement worker starts with the process count the first worker and
python3 main.py start with, whatever the dead one left; what a run leaves is ended and
reaped in bounded time, never a hang to the wall limit; an exited orphan takes no process
(reaped as python3 main.py's init reaps it); the reaping steals no status the judge reads;
a program cannot reach the check socket; honest programs (threads, subprocess, many short
children, backgrounded commands) get the same verdicts cold and warm; remove_tree never
removes or chmods anything outside its root.

Classes: Resources (fork floods, processes held, loops that hold a batch's tail), Reaching
another run (kill(-1), signals, state left), Exit and output forgery (a forged `check`, a
stolen exit status), Tampering with the judge (half a request read), false losses.

99 probes: 89 held, 10 open (strict xfails, all closed after the round: below) under 5
roots, 3 reachable by a program:
- ZYGOTE_SIBLING (cold, reachable; 3 xfails): `harness_program.zygote_main` reaps only the
  worker it forked last (`os.waitpid(worker, 0)`), while seccomp allows clone(CLONE_PARENT)
  (0x8000 is outside the filter's CLONE_NEW* mask). A replacement worker's CLONE_PARENT
  child is the zygote's child: exited, a zombie no one reaps (a process of the program
  uid's RLIMIT_NPROC: 2 threads at 4 processes where warm and python3 main.py start 3);
  alive, killed by the zygote's own `kill(-1)` into a zombie its next `kill(-1)` counts for
  ever, so `harness.end_left`'s `reap_left` hears b"busy" and waits on pid 1's children
  for ever: the run hangs to its wall limit (8 s here, not the test's 3 s), the next test
  reads 'timeout: no verdict: the run ended with timeout' (ran) where warm judges it, or
  reads 'not run' after a timeout.
- REAPER_STARVED (cold, reachable; 1 xfail, a false loss): `harness_wire.Channel._wait`
  runs the reaper only when select times out with nothing ready; every wake-up to drain
  the worker's output restarts REAP_S. A thread writing on and on keeps pid 1 from reaping
  the call's exited orphan: 1 thread at 4 processes where warm (the server's ticks do not
  watch the outputs) and python3 main.py start 2.
- IO_ORPHAN (both modes, reachable; 4 xfails, a false loss): REAP_S reaping covers
  assert/check workers and the warm server's own children, not a stdin/stdout test: a test
  process's exited orphan (a daemonized grandchild) or CLONE_PARENT sibling is the io
  harness's child (cold its pid 1, warm its subreaper) and is reaped only at the test's
  end (`harness_io.run_case`, `end_processes`): 2 threads at 4 processes where python3
  main.py (a plain run, both modes) starts 3.
- REMOVE_SLASH (host, latent: every caller passes a mkdtemp path): `_cache._open_root`
  opens `root` with O_NOFOLLOW, which a trailing slash defeats: remove_tree("link/")
  empties the folder the link names.
- REMOVE_CHMOD (host, latent: nothing of a program lives at removal): `_cache._open_folder`
  makes a refused folder 0o700 with `os.chmod(name, 0o700, dir_fd=fd)`, which follows a
  link: a folder swapped for a link between the refused open and the chmod has the link's
  target outside the root chmodded (simulated deterministically by a hook on the chmod).

Held: kill(-1) and reap_left end and reap what a dead worker leaves (a kill(-1) looper, a
stopped process group, a stopped child deaf to every catchable signal, a CLONE_PARENT fork
chain, a flood to RLIMIT_NPROC) and the replacement starts 3; what a replacement's or a
plain run's sibling leaves takes nothing from the next run; the worker holds fds 0-4 only,
no socket (no `check` to forge), first and replacement; `check`'s words framed as a reply
are that test's protocol error; a request a child takes (half read then the worker
killed; half read then nothing; trickled; drained, by a live or a dead worker's child; a
reply pipe flooded with garbage) is that test's verdict at its own limit; a CLONE_PARENT
sibling of the first worker (cold pid 1's child) and of a warm worker (the server's) is
reaped; a run's exit status is its own while 20 siblings exit 7 beside it; an orphan's CPU
and peak memory count cold as warm (a self-SIGKILL past 0.7 of the CPU rlimit reads
timeout in both); honest programs (many short children, a backgrounded command, a thread
pool, a shell pipeline, posix_spawn) pass across a replacement, with 3 threads at 4
processes; io tests' live siblings and sibling chains are ended before the next test;
remove_tree of odd names (newlines, non-UTF-8 bytes, '-rf', '*', 255 bytes), link loops
(the root one too), 20,000 siblings, folders held by live processes (a cwd, an open
descriptor, a fifo with both ends open, a listening socket), a folder swapped for a link
before its open (O_NOFOLLOW refuses it), a bind mount inside (left, not entered).

Closed after the round (h-sb21), all 10 now plain probes (99 held), the roots:
- ZYGOTE_SIBLING: seccomp refuses clone with CLONE_PARENT (`_jail.SECCOMP_POLICY`, mask
  0x7e028000; clone3 already answered ENOSYS, so libc falls back to the checked clone): no
  program process makes a process the child of a judging process; `sib()` here now gets
  EPERM. The zygote also reaps any exited child of its at each request (`reap_exited`).
  Honest fork, vfork, posix_spawn, threads, subprocess and multiprocessing still pass, cold
  and warm (tests/sandbox/test_sb19_fixes.py).
- REAPER_STARVED: `Channel._wait` reaps on a clock (`reap_at`), every REAP_S whatever
  wakes select.
- IO_ORPHAN: `harness_io.run_case`'s wait loop reaps the test's exited orphans every
  REAP_S (`harness_wire.reap_exited`, keeping the test's process; `end_processes` uses it
  too, its own copy gone).
- REMOVE_SLASH: `_cache._open_root` strips trailing slashes and opens the last name in the
  folder above with O_NOFOLLOW ("/", "." and ".." are not walked).
- REMOVE_CHMOD: `_cache._make_enterable` pins the folder with O_PATH|O_NOFOLLOW|O_DIRECTORY
  and chmods it through /proc/self/fd (the racer now swaps at that chmod, whatever it
  names: the moved folder is chmodded, never the link's target).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest
from sandbox_probes import DIED, PASS, SHORT, Outcome, ok_stdout, raced_removal
from sandbox_probes import outcomes as probe_outcomes

import sandbox
from sandbox._cache import remove_tree
from sandbox._runner import Mode

MODES: tuple[Mode, ...] = ("cold", "warm")
LIMITS = dataclasses.replace(SHORT, wall_s=8.0, test_wall_s=3.0)
FOUR = dataclasses.replace(LIMITS, processes=4)
ONE_S = dataclasses.replace(LIMITS, test_wall_s=1.0)
TIMED_OUT: Outcome = ("timeout", "test exceeded 1 s", True)
NOT_RUN: Outcome = ("timeout", "not run: an earlier test timed out", False)

outcomes = functools.partial(probe_outcomes, limits=LIMITS)

ZYGOTE_SIBLING = (
    "Resources / Reaching another run (cold): harness_program.zygote_main reaps only the "
    "worker it forked last, and seccomp allows clone(CLONE_PARENT): a replacement worker's "
    "CLONE_PARENT child is the zygote's, a zombie no one reaps; its next kill(-1) counts it "
    "for ever, so harness.end_left's reap_left waits on pid 1's children until the wall limit")
IO_ORPHAN = (
    "Resources, a false loss (both modes): REAP_S reaping (Channel.reaper, wait_run) covers "
    "assert/check workers and the warm server's children, not stdin/stdout tests: a test "
    "process's exited orphan or CLONE_PARENT sibling, the io harness's child (cold its pid 1, "
    "warm its subreaper), is reaped only at the test's end (harness_io.run_case's wait loop, "
    "end_processes): 2 threads at 4 processes where python3 main.py starts 3")
REAPER_STARVED = (
    "Resources, a false loss (cold): harness_wire.Channel._wait runs the reaper only when "
    "select times out with nothing ready, and each wake-up to drain the worker's output "
    "restarts REAP_S: a worker whose thread writes on and on keeps pid 1 from reaping its "
    "exited orphan for the whole call (1 thread left at 4 processes; warm's server and "
    "python3 main.py's init reap it: 2)")
REMOVE_SLASH = (
    "Reaching the host (latent: callers pass mkdtemp paths): _cache._open_root's O_NOFOLLOW "
    "does not hold for a root with a trailing slash: remove_tree('link/') empties the folder "
    "the link names")
REMOVE_CHMOD = (
    "Reaching the host (latent: nothing of a program lives at removal): "
    "_cache._open_folder's os.chmod(name, 0o700, dir_fd=fd) follows a link: a refused folder "
    "swapped for a link before the chmod chmods the link's target outside the root")

pytestmark = pytest.mark.usefixtures("sandbox_ready")


BASE = (
    "import os, sys, time, signal, threading, ctypes, subprocess\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "def one():\n    return 1\n"
    "def crash():\n    os._exit(3)\n"
    "def sib(body=None):\n"
    "    pid = libc.syscall(56, 0x8000 | 17, 0, 0, 0, 0)\n"
    "    if pid == 0:\n        try:\n            if body:\n                body()\n"
    "        finally:\n            os._exit(0)\n"
    "    return pid\n"
    "def child(body, setsid=False, close=True):\n"
    "    if os.fork() == 0:\n"
    "        try:\n            if setsid:\n                os.setsid()\n"
    "            if close:\n                os.closerange(0, 64)\n"
    "            body()\n"
    "        finally:\n            os._exit(0)\n"
    "def nap():\n    time.sleep(30)\n"
    "def started():\n    threading.stack_size(256 * 1024)\n    ev = threading.Event()\n"
    "    n, ts = 0, []\n    try:\n        for _ in range(20):\n"
    "            t = threading.Thread(target=ev.wait)\n            t.start()\n"
    "            ts.append(t)\n            n += 1\n    except RuntimeError:\n        pass\n"
    "    ev.set()\n    [t.join() for t in ts]\n    return n\n"
)
"""`sib(body)`: clone(CLONE_PARENT | SIGCHLD), a sibling of the caller (its parent's child)
running `body`; `child(body)`: a child of the caller; `started()`: threads until
RLIMIT_NPROC refuses one (3 at 4 processes, as python3 main.py)."""

# --- (1) a CLONE_PARENT sibling: the zygote's child, cold -----------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_replacements_live_sibling_does_not_hang_the_run(mode: Mode) -> None:
    """The second worker (cold the zygote's child) leaves a sibling asleep and dies: it is
    ended and the third worker judges the last test."""
    code = BASE + "def leave():\n    sib(nap)\n    crash()\n"
    assert outcomes(code, ["crash()", "leave()", "assert one() == 1"], mode) == [
        DIED, DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_a_replacements_live_sibling_then_a_timeout_ends_the_run_at_once(mode: Mode) -> None:
    code = BASE + "def leave():\n    sib(nap)\n    while True:\n        pass\n"
    assert outcomes(code, ["crash()", "leave()", "assert one() == 1"], mode,
                    limits=ONE_S) == [DIED, TIMED_OUT, NOT_RUN]


@pytest.mark.parametrize("mode", MODES)
def test_a_replacements_exited_sibling_takes_no_process(mode: Mode) -> None:
    code = BASE + "def leave():\n    sib()\n    time.sleep(0.3)\n    return 1\n"
    tests = ["crash()", "assert leave() == 1", "assert started() == 3, started()"]
    assert outcomes(code, tests, mode, limits=FOUR) == [DIED, PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_the_first_workers_exited_sibling_takes_no_process(mode: Mode) -> None:
    """The first worker's sibling is pid 1's child (cold the harness, warm the server)."""
    code = BASE + "def leave():\n    sib()\n    time.sleep(0.3)\n    return 1\n"
    tests = ["assert leave() == 1", "assert started() == 3, started()"]
    assert outcomes(code, tests, mode, limits=FOUR) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_the_first_workers_live_sibling_is_ended_before_the_replacement(mode: Mode) -> None:
    code = BASE + "def leave():\n    sib(nap)\n    crash()\n"
    tests = ["leave()", "assert started() == 3, started()"]
    assert outcomes(code, tests, mode, limits=FOUR) == [DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_a_plain_runs_exited_sibling_takes_no_process(mode: Mode) -> None:
    code = BASE + "sib()\ntime.sleep(0.3)\nprint(started())\n"
    assert ok_stdout(code, mode, limits=FOUR) == "3\n"


@pytest.mark.parametrize("mode", MODES)
def test_a_sibling_chain_left_by_the_first_worker_is_ended(mode: Mode) -> None:
    """A child that clones CLONE_PARENT siblings on and on, each parent exiting (a new pid
    each time, each the previous one's parent's child)."""
    code = BASE + (
        "def hop():\n    while True:\n        try:\n            if sib():\n"
        "                os._exit(0)\n        except OSError:\n            pass\n"
        "def leave():\n    child(hop, setsid=True)\n    time.sleep(0.1)\n    os._exit(3)\n")
    tests = ["assert one() == 1", "leave()", "assert started() == 3, started()",
             "assert one() == 1"]
    assert outcomes(code, tests, mode, limits=FOUR) == [PASS, DIED, PASS, PASS]


CHATTY = (
    "def daemonize():\n    r, w = os.pipe()\n    pid = os.fork()\n    if pid == 0:\n"
    "        if os.fork() == 0:\n            os.close(r)\n            time.sleep(0.1)\n"
    "            os._exit(0)\n        os._exit(0)\n"
    "    os.close(w)\n    os.waitpid(pid, 0)\n    os.read(r, 1)\n    time.sleep(0.3)\n"
    "def chatty(fd=2):\n    stop = threading.Event()\n    def run():\n"
    "        while not stop.is_set():\n            os.write(fd, b'.' * 512)\n"
    "    t = threading.Thread(target=run)\n    t.start()\n    daemonize()\n    n = started()\n"
    "    stop.set()\n    t.join()\n    return n\n")
"""`chatty()`: a thread writes to stderr without a pause while the main thread daemonizes a
grandchild (it exits; the pipe's EOF seen, then 0.3 s) and counts the threads it can start
(the writer holds one of the 4 processes: 2 where the orphan is reaped)."""


@pytest.mark.parametrize("mode", MODES)
def test_an_exited_orphan_is_reaped_while_the_worker_writes(mode: Mode) -> None:
    assert outcomes(BASE + CHATTY, ["n = chatty()\nassert n == 2, n"], mode,
                    limits=FOUR) == [PASS]


@pytest.mark.parametrize("mode", MODES)
def test_the_chatty_program_plain_starts_two(mode: Mode) -> None:
    """The baseline: python3 main.py's init reaps the orphan (the writer writes to
    /dev/null here: a plain run's output cap is 64 KiB)."""
    code = BASE + CHATTY + "print(chatty(os.open(os.devnull, os.O_WRONLY)))\n"
    assert ok_stdout(code, mode, limits=FOUR) == "2\n"


# --- (2) stdin/stdout tests: exited orphans until the test's end -----------------------------

DAEMON = (
    "def daemonize():\n    r, w = os.pipe()\n    pid = os.fork()\n    if pid == 0:\n"
    "        if os.fork() == 0:\n            os.close(r)\n            time.sleep(0.1)\n"
    "            os._exit(0)\n        os._exit(0)\n"
    "    os.close(w)\n    os.waitpid(pid, 0)\n    os.read(r, 1)\n    time.sleep(0.3)\n"
)
IO_TESTS = [{"input": "a\n", "output": "3\n"}, {"input": "b\n", "output": "3\n"}]


@pytest.mark.parametrize("mode", MODES)
def test_an_io_tests_exited_orphan_takes_no_process(mode: Mode) -> None:
    code = BASE + DAEMON + "if sys.stdin.readline().strip() == 'a':\n    daemonize()\n" \
        "print(started())\n"
    assert outcomes(code, IO_TESTS, mode, limits=FOUR) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_an_io_tests_exited_sibling_takes_no_process(mode: Mode) -> None:
    code = BASE + "if sys.stdin.readline().strip() == 'a':\n    sib()\n    time.sleep(0.3)\n" \
        "print(started())\n"
    assert outcomes(code, IO_TESTS, mode, limits=FOUR) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_the_same_program_plain_starts_three(mode: Mode) -> None:
    """The baseline of (2): python3 main.py's init reaps the orphan, cold as warm."""
    code = BASE + DAEMON + "daemonize()\nprint(started())\n"
    assert ok_stdout(code, mode, limits=FOUR) == "3\n"


# --- (3) what kill_others / reap_left must end ------------------------------------------------

LEFT = {
    "a child that kill(-1)s on and on": (
        "def killer():\n    while True:\n        try:\n            os.kill(-1, 9)\n"
        "        except OSError:\n            pass\n        time.sleep(0.001)\n"
        "def leave():\n    child(killer, setsid=True)\n    time.sleep(0.1)\n    os._exit(3)\n"),
    "a stopped process group": (
        "def group():\n    os.setpgid(0, 0)\n    for _ in range(2):\n"
        "        if os.fork() == 0:\n            nap()\n"
        "    time.sleep(0.1)\n    os.killpg(0, signal.SIGSTOP)\n    nap()\n"
        "def leave():\n    child(group)\n    time.sleep(0.4)\n    os._exit(3)\n"),
    "children forked to RLIMIT_NPROC, each asleep": (
        "def leave():\n    while True:\n        try:\n            pid = os.fork()\n"
        "        except OSError:\n            break\n        if pid == 0:\n            nap()\n"
        "    os._exit(3)\n"),
    "a child that ignores every signal it can, stopped by its sibling": (
        "def deaf():\n    for s in signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}:\n"
        "        try:\n            signal.signal(s, signal.SIG_IGN)\n"
        "        except (OSError, ValueError):\n            pass\n    nap()\n"
        "def leave():\n    pid = os.fork()\n    if pid == 0:\n        deaf()\n"
        "    time.sleep(0.1)\n    os.kill(pid, signal.SIGSTOP)\n    os._exit(3)\n"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(LEFT))
def test_what_a_dead_worker_left_is_ended_and_the_replacement_starts_three(name: str,
                                                                           mode: Mode) -> None:
    tests = ["assert one() == 1", "leave()", "assert started() == 3, started()",
             "assert one() == 1"]
    assert outcomes(BASE + LEFT[name], tests, mode, limits=FOUR) == [PASS, DIED, PASS, PASS]


FDS = (
    "def fds():\n    import stat\n    out = []\n    for fd in range(4096):\n        try:\n"
    "            mode = os.fstat(fd).st_mode\n        except OSError:\n            continue\n"
    "        out.append((fd, stat.S_ISSOCK(mode)))\n    return out\n")
ONLY_PIPES = [(0, False), (1, False), (2, False), (3, False), (4, False)]


@pytest.mark.parametrize("mode", MODES)
def test_no_worker_holds_a_socket_to_forge_a_check_answer(mode: Mode) -> None:
    """The `check` socket (cold the zygote's, warm the run's service socket) is the
    harness's alone: the first worker and a replacement hold fds 0-4, pipes."""
    test = f"assert fds() == {ONLY_PIPES!r}, fds()"
    assert outcomes(BASE + FDS, [test, "crash()", test], mode) == [PASS, DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_half_a_request_read_by_a_child_then_the_worker_killed(mode: Mode) -> None:
    """The worker puts an empty pipe over its request pipe; a child reads the first 10
    bytes of the next request and kills the worker: that test's error, a replacement
    judges the next."""
    code = BASE + (
        "def grab():\n    r, w = os.pipe()\n    if os.fork() == 0:\n        os.read(3, 10)\n"
        "        os.kill(os.getppid(), 9)\n        os._exit(0)\n    os.dup2(r, 3)\n"
        "    return 1\n")
    assert outcomes(code, ["assert grab() == 1", "assert one() == 1", "assert one() == 1"],
                    mode) == [PASS, DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_half_a_request_read_then_nothing_is_a_timeout_at_the_tests_limit(mode: Mode) -> None:
    code = BASE + (
        "def grab():\n    r, w = os.pipe()\n    if os.fork() == 0:\n        os.read(3, 10)\n"
        "        nap()\n    os.dup2(r, 3)\n    return 1\n")
    assert outcomes(code, ["assert grab() == 1", "assert one() == 1", "assert one() == 1"],
                    mode, limits=ONE_S) == [PASS, TIMED_OUT, NOT_RUN]


PIPES = (
    "import marshal\n"
    "def frame(obj):\n    data = marshal.dumps(obj)\n    return len(data).to_bytes(4, 'big') + data\n"
    "def take(x):\n    return len(x)\n")
BIG = "assert take(list(range(200000))) == 200000"
"""A request of ~1 MB (past a pipe's 64 KiB)."""

SENDS = {
    # a live worker reads from an empty pipe put over fd 3; a child reads the real one a
    # byte a millisecond: the big request's send never stops moving, the test's limit holds
    "a live worker's child trickles the request pipe": (
        ("def grab():\n    r, w = os.pipe()\n    if os.fork() == 0:\n        while True:\n"
        "            os.read(3, 1)\n            time.sleep(0.001)\n    os.dup2(r, 3)\n"
        "    return 1\n"),
        ["assert grab() == 1", BIG, "assert one() == 1"], ONE_S, [PASS, TIMED_OUT, NOT_RUN]),
    # the same, the child reading it all at once and answering nothing
    "a live worker's child drains the request pipe": (
        ("def grab():\n    r, w = os.pipe()\n    if os.fork() == 0:\n"
        "        while os.read(3, 65536):\n            pass\n        nap()\n    os.dup2(r, 3)\n"
        "    return 1\n"),
        ["assert grab() == 1", BIG, "assert one() == 1"], ONE_S, [PASS, TIMED_OUT, NOT_RUN]),
    # the worker exits between tests; its child drains every request and answers nothing
    "a dead worker's child drains the request pipe": (
        ("def grab():\n    if os.fork() == 0:\n        while os.read(3, 65536):\n"
        "            pass\n        nap()\n"
        "    threading.Thread(target=lambda: (time.sleep(0.2), os._exit(0)), daemon=True)"
        ".start()\n    return 1\n"),
        ["assert grab() == 1", "import time\ntime.sleep(0.6)", BIG, BIG], LIMITS,
        [PASS, PASS, DIED, PASS]),
    # a child fills the reply pipe with a reply, then garbage: the next test reads it
    "a child floods the reply pipe with garbage": (
        ("def flood():\n    if os.fork() == 0:\n        for _ in range(200):\n"
        "            os.write(4, frame(('ok', ('v', 1))) + b'\\xff' * 1000)\n        nap()\n"
        "    time.sleep(0.3)\n    return 1\n"),
        ["assert flood() == 1", "assert one() == 1", "assert one() == 1"], LIMITS,
        [PASS, ("error", "the program died during the test: message too large", True), PASS]),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(SENDS))
def test_a_request_a_child_takes_is_that_tests_verdict(name: str, mode: Mode) -> None:
    body, tests, limits, want = SENDS[name]
    assert outcomes(BASE + PIPES + body, tests, mode, limits=limits) == want


CHECK_WORDS = {
    "b'check'": "the program broke the protocol: not a reply",
    "b'clean'": "the program broke the protocol: not a reply",
    "'busy'": "the program broke the protocol: not a reply",
    "('ok', b'clean')": "the program broke the protocol: not a value or a handle",
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("word", list(CHECK_WORDS))
def test_the_words_of_check_as_a_reply_are_that_tests_error(word: str, mode: Mode) -> None:
    """A worker that answers a call with the `check` protocol's words (framed as a reply):
    its own test's error, read by the harness as any reply; a replacement judges the next."""
    code = BASE + PIPES + f"def f():\n    os.write(4, frame({word}))\n    time.sleep(1)\n" \
        "    return 1\n"
    assert outcomes(code, ["assert f() == 1", "assert one() == 1"], mode) == [
        ("error", f"the program died during the test: {CHECK_WORDS[word]}", True), PASS]


IO_LEFT = {
    "a live sibling": "sib(nap)\n",
    "a sibling chain": (
        "def hop():\n    while True:\n        try:\n            if sib():\n"
        "                os._exit(0)\n        except OSError:\n            pass\n"
        "child(hop, setsid=True)\n"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(IO_LEFT))
def test_what_an_io_test_leaves_is_ended_before_the_next(name: str, mode: Mode) -> None:
    code = BASE + "if sys.stdin.readline().strip() == 'a':\n" + "".join(
        "    " + line + "\n" for line in IO_LEFT[name].splitlines()) + \
        "    print('x')\nelse:\n    print(started())\n"
    tests = [{"input": "a\n", "output": "x\n"}, {"input": "b\n", "output": "3\n"}]
    assert outcomes(code, tests, mode, limits=FOUR) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_what_a_replacements_sibling_left_takes_nothing_from_the_next_run(mode: Mode) -> None:
    """A replacement worker leaves a live sibling (warm the server's child) and passes; the
    next run (warm: the same server) starts 3 threads."""
    code = BASE + "def leave():\n    sib(nap)\n    return 1\n"
    assert outcomes(code, ["crash()", "assert leave() == 1"], mode) == [DIED, PASS]
    assert outcomes(BASE, ["assert started() == 3, started()"], mode, limits=FOUR) == [PASS]


@pytest.mark.parametrize("mode", MODES)
def test_what_a_plain_runs_sibling_left_takes_nothing_from_the_next_run(mode: Mode) -> None:
    assert ok_stdout(BASE + "sib(nap)\nprint(1)\n", mode, limits=LIMITS) == "1\n"
    assert ok_stdout(BASE + "print(started())\n", mode, limits=FOUR) == "3\n"


# --- (4) the reaping and the run's own status and accounting ---------------------------------


@pytest.mark.parametrize("status", [0, 5])
@pytest.mark.parametrize("mode", MODES)
def test_siblings_exiting_beside_the_run_leave_it_its_own_status(mode: Mode, status: int
                                                                 ) -> None:
    """20 CLONE_PARENT siblings (warm the server's children, reaped by its REAP_S ticks)
    exit 7 around the run's own exit: its status stays its own."""
    code = BASE + (
        "def late():\n    time.sleep(0.05)\n    os._exit(7)\n"
        "for _ in range(20):\n    sib(late)\n"
        f"time.sleep(0.05)\nprint('done', flush=True)\nos._exit({status})\n")
    ex = sandbox.run(code, limits=LIMITS, mode=mode)
    assert (ex.status, ex.exit_code, ex.stdout) == (
        "ok" if status == 0 else "runtime_error", status, "done\n")


CPU_LIMITS = dataclasses.replace(SHORT, wall_s=10.0, cpu_s=1.0)
ORPHAN_BURNS = (
    "import os, time\nr, w = os.pipe()\nif os.fork() == 0:\n    if os.fork() == 0:\n"
    "        os.close(r)\n        while time.process_time() < 0.9:\n            pass\n"
    "        os._exit(0)\n    os._exit(0)\n"
    "os.close(w)\nos.wait()\nos.read(r, 1)\ntime.sleep(0.3)\n")


@pytest.mark.parametrize("mode", MODES)
def test_an_orphans_cpu_counts_cold_as_warm(mode: Mode) -> None:
    """An orphan burns 0.9 s (of a 1 s CPU rlimit) and exits; the program then SIGKILLs
    itself: with the orphan's CPU counted (cold the jail's rusage, warm the reaped
    orphan's), a timeout in both modes."""
    ex = sandbox.run(ORPHAN_BURNS + "os.kill(os.getpid(), 9)\n", limits=CPU_LIMITS, mode=mode)
    assert (ex.status, ex.signal) == ("timeout", 9)


@pytest.mark.parametrize("mode", MODES)
def test_an_orphans_cpu_does_not_fail_an_honest_exit(mode: Mode) -> None:
    ex = sandbox.run(ORPHAN_BURNS + "print('ok')\n", limits=CPU_LIMITS, mode=mode)
    assert (ex.status, ex.exit_code, ex.stdout) == ("ok", 0, "ok\n")


@pytest.mark.parametrize("mode", MODES)
def test_an_orphans_peak_memory_counts_cold_as_warm(mode: Mode) -> None:
    """An orphan touches 120 MiB and exits; the run's peak memory holds it in both modes
    (cold the jail's rusage, warm the reaped orphan's)."""
    code = ("import os, time\nr, w = os.pipe()\nif os.fork() == 0:\n    if os.fork() == 0:\n"
            "        os.close(r)\n        b = bytearray(120 << 20)\n        os._exit(0)\n"
            "    os._exit(0)\nos.close(w)\nos.wait()\nos.read(r, 1)\ntime.sleep(0.3)\n"
            "print('ok')\n")
    ex = sandbox.run(code, limits=LIMITS, mode=mode)
    assert (ex.status, ex.stdout) == ("ok", "ok\n")
    assert ex.peak_memory_bytes >= 120 << 20


# --- (5) honest programs across a replacement --------------------------------------------------

HONEST = {
    "many short children": (
        ("def f():\n    for i in range(60):\n        pid = os.fork()\n        if pid == 0:\n"
        "            os._exit(i % 7)\n        assert os.waitpid(pid, 0)[1] >> 8 == i % 7\n"
        "    return 60\n"), "assert f() == 60"),
    "a backgrounded command": (
        "def f():\n    return os.system('true & sleep 0.2')\n", "assert f() == 0"),
    "a thread pool": (
        ("def f():\n    import concurrent.futures as cf\n"
        "    with cf.ThreadPoolExecutor(2) as ex:\n        return sum(ex.map(abs, range(-50, 50)))\n"),
        "assert f() == 2500"),
    "a shell pipeline": (
        ("def f():\n    return subprocess.run('echo 5 | cat', shell=True,\n"
        "                          capture_output=True, text=True).stdout\n"),
        "assert f() == '5\\n'"),
    "posix_spawn": (
        ("def f():\n    pid = os.posix_spawn(sys.executable, [sys.executable, '-c', 'pass'],\n"
        "                         dict(os.environ))\n    return os.waitpid(pid, 0)[1]\n"),
        "assert f() == 0"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(HONEST))
def test_an_honest_program_passes_before_and_after_a_replacement(name: str, mode: Mode
                                                                 ) -> None:
    body, test = HONEST[name]
    tests = [test, "assert started() == 3, started()", "crash()", test,
             "assert started() == 3, started()"]
    assert outcomes(BASE + body, tests, mode, limits=FOUR) == [PASS, PASS, DIED, PASS, PASS]


# --- (6) remove_tree: host folders of program shapes ---------------------------------------------


def _outside(tmp: Path) -> Path:
    outside = tmp / "outside"
    (outside / "keep").mkdir(parents=True)
    (outside / "keep" / "f").write_text("f")
    os.chmod(outside / "keep", 0o500)
    return outside


def _kept(outside: Path) -> None:
    assert sorted(os.listdir(outside)) == ["keep"]
    assert (outside / "keep" / "f").read_text() == "f"
    assert (outside / "keep").stat().st_mode & 0o777 == 0o500


def test_a_link_root_with_a_trailing_slash_goes_alone(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    os.symlink(outside / "keep", tmp_path / "link")
    remove_tree(str(tmp_path / "link") + "/")
    assert (outside / "keep" / "f").read_text() == "f"



class _Swap:
    """`os` for `_cache`, but the first call of `hook_name` on the name `sub` (a chmod: the
    first, whatever it names, by name or through a descriptor: the refused folder's, the
    root being enterable) first moves the folder `root`/sub away and puts a link to
    `target` in its place (a racer, deterministic)."""

    def __init__(self, hook_name: str, target: str, root: str) -> None:
        self.hook_name, self.target, self.root, self.done = hook_name, target, root, False

    def __getattr__(self, name: str) -> Any:
        real = getattr(os, name)
        if name != self.hook_name:
            return real

        def hooked(path: Any, *args: Any, dir_fd: int | None = None, **kwargs: Any) -> Any:
            ours = path == "sub" and dir_fd is not None
            if (ours or self.hook_name == "chmod") and not self.done:
                self.done = True
                sub = os.path.join(self.root, "sub")
                os.rename(sub, os.path.join(self.root, "moved"))
                os.symlink(self.target, sub)
            return real(path, *args, dir_fd=dir_fd, **kwargs)

        return hooked


def _swapped_removal(hook_name: str, sub_mode: int) -> tuple[int, bool]:
    """As nobody: root/sub of `sub_mode`, swapped for a link to a 0o500 folder outside when
    `_cache` calls `hook_name` on it (the swap must happen); (the outside folder's mode
    after, whether its file is there)."""
    mode, there, done = raced_removal(
        lambda outside, home: _Swap(hook_name, outside, os.path.join(home, "root")), sub_mode)
    assert done
    return mode, there


def test_a_refused_folder_swapped_for_a_link_before_its_chmod_chmods_nothing_outside() -> None:
    assert _swapped_removal("chmod", 0) == (0o500, True)


def test_a_folder_swapped_for_a_link_before_its_open_is_not_followed() -> None:
    """The open is O_NOFOLLOW: the link is refused, the folder outside untouched."""
    assert _swapped_removal("open", 0o755) == (0o500, True)


NAMES = ["new\nline", "tab\there", "\udcff\udcfe bytes", "-rf", " ", "x" * 255, ".hidden",
         "*", "..."]


@pytest.mark.parametrize("name", NAMES, ids=[repr(n)[:20] for n in NAMES])
def test_odd_names_go_and_nothing_outside(tmp_path: Path, name: str) -> None:
    outside = _outside(tmp_path)
    root = tmp_path / "root"
    (root / name / name).mkdir(parents=True)
    (root / name / name / name).symlink_to(outside / "keep")
    (root / name / "f").write_text("x")
    remove_tree(str(root))
    assert not os.path.lexists(root)
    _kept(outside)


def test_link_loops_go(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    root = tmp_path / "root"
    (root / "d").mkdir(parents=True)
    os.symlink("self", root / "self")
    os.symlink("d/../loop", root / "loop")
    os.symlink("..", root / "d" / "up")
    os.symlink(root, root / "d" / "root")
    remove_tree(str(root))
    assert not os.path.lexists(root)
    _kept(outside)


def test_a_root_that_is_a_link_loop_goes_alone(tmp_path: Path) -> None:
    os.symlink("loop", tmp_path / "loop")
    remove_tree(str(tmp_path / "loop"))
    assert not os.path.lexists(tmp_path / "loop")


def test_twenty_thousand_siblings_go(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for i in range(20_000):
            os.mkdir(f"d{i}", dir_fd=fd)
    finally:
        os.close(fd)
    remove_tree(str(root))
    assert not os.path.lexists(root)


def test_folders_held_by_live_processes_go(tmp_path: Path) -> None:
    """A folder that is a live process's cwd, one it holds open, a fifo with a live
    reader and writer, a listening socket."""
    outside = _outside(tmp_path)
    root = tmp_path / "root"
    (root / "cwd").mkdir(parents=True)
    (root / "open").mkdir()
    os.mkfifo(root / "fifo")
    held = os.open(root / "open", os.O_RDONLY | os.O_DIRECTORY)
    fifo = os.open(root / "fifo", os.O_RDWR)
    sleeper = subprocess.Popen(["sleep", "30"], cwd=root / "cwd")
    with contextlib.closing(socket.socket(socket.AF_UNIX)) as sock:
        sock.bind(str(root / "sock"))
        sock.listen()
        try:
            remove_tree(str(root))
        finally:
            sleeper.kill()
            sleeper.wait()
            os.close(held)
            os.close(fifo)
    assert not os.path.lexists(root)
    _kept(outside)


def test_a_mount_point_inside_is_left_not_entered(tmp_path: Path) -> None:
    """A folder mounted inside the tree (a bind of a folder outside): its content stays."""
    outside = _outside(tmp_path)
    root = tmp_path / "root"
    (root / "mnt").mkdir(parents=True)
    (root / "f").write_text("x")
    if subprocess.run(["mount", "--bind", str(outside), str(root / "mnt")],
                      check=False, capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here")
    try:
        remove_tree(str(root))
        _kept(outside)
        assert sorted(os.listdir(root)) == ["mnt"]
    finally:
        subprocess.run(["umount", str(root / "mnt")], check=True)
    remove_tree(str(root))
    assert not os.path.lexists(root)
