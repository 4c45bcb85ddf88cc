"""Red team (rt32) round sb14: the process and memory budget without a cgroup, the cold
init and its nonce through spare jails, the import zygotes' reaping, and sessions.

The rule under attack: a program's verdict (status, exit code, signal, output) is what
`python3 -E -s -S main.py` gives on a host under the same limits, and cold (a fresh jail
or a spare), warm (the server's child or a zygote's) and a session read alike; the
processes the sandbox adds (a cold run's init, a test harness, its zygote and worker) are
ours, on top of the program's budget: the program neither pays for them nor uses their
share.

How. (A) Without a cgroup (`SANDBOX_NO_CGROUP=1`; `_jail.process_budget`, its
`extra_processes`, and `_tests.run_tests`'s `ours`): one program that starts threads until
RLIMIT_NPROC refuses one (small stacks: the count decides, not the address space), as a
plain run, as the function of an assert test and as a stdin/stdout test, cold (twice
fresh, then a spare) and warm, at three budgets: 32 processes of 256 MiB (the memory caps the
count at 4), 4 of 1 GiB (the count caps it) and 1 of 256 MiB. python3 under RLIMIT_NPROC
N in a pid namespace of its own starts N - 1 threads (the warm plain run's count, and
the cold one's, read alike: sb13). The same at 4 of 1 GiB on this host's cgroup (v1
memory). Then 160 MiB held by one process of a 1-process 256 MiB budget, in each kind
and mode (python3 under RLIMIT_AS 256 MiB holds it). (B) The cold init
(`_in_jail/init.py`, `_runner.from_init`) twice fresh, then through the spare the second
run started (`_spare`, `{secret}`), against a warm run: signal deaths with stdout and
stderr non-blocking, closed, at the cap, after half a report; exit 137 and a forged
report; `killpg(0)`; an orphan in a session of its own writing after the program's end;
blocked signals; execs of a shell that kills itself and of python3; a program stopped by
itself or its child; a wall timeout's record. (C) Import zygotes
(`warm_server.zygote_main`, `serve_one`, `zygote_reaper`): programs that leave zombies,
stopped children, children ending out of order, an orphan left running, stop and continue
themselves, exec python3, stop for good, change gc and interpreter settings, ctypes'
errno and pointer types, each against cold and followed by a probe of the state the next
program starts from (sb13's, with gc's and the interpreter's settings); ctypes' module
state and the interpreter's settings of a zygote's 2nd and 3rd children. (D) Sessions,
without a cgroup and on this host's: the thread count and one process's memory, in a
session and in a fork sibling.

60 probes: 60 held (49 at the round, 11 strict xfails closed by h-sb15).

Closed by h-sb15, by root:
- `_tests.run_tests`, warm (6: the function test at 4 of 1 GiB, with and without a
  cgroup, and at 1 of 256 MiB; the stdin/stdout test at 32 of 256 MiB; 160 MiB in a
  function test and in a stdin/stdout test). It handed `run_warm` limits whose `processes`
  included the harness's own, and `_warm.WarmServer._header`'s `process_budget` counted
  them as the program's: without a cgroup `memory_bytes` was split over `processes + ours`
  (160 MiB of a 1-process 256 MiB budget: `MemoryError` warm, a pass cold), an
  assert/check worker's RLIMIT_NPROC was `processes + 3` (6 threads where python3 starts
  3, with a cgroup too), and a stdin/stdout test's count was cut by the memory cap before
  the harness was taken off (`warm_server.child`'s `PROGRAM_NPROC = processes - 1`: 2
  threads where python3 starts 3). Now the host sends the program's own budget
  (`process_budget` of the program's limits; the server and the harnesses are another
  uid) and every process that runs program code takes it as it is.
- `_tests.run_tests`, cold (4: the function test at every budget, and with a cgroup):
  `extra_processes=3` for assert/check counted the first worker as ours, though it runs
  the program's code; its threads took the slot left for a restarted worker. Now
  `_tests.HARNESS_PROCESSES`: the harness and its zygote (2), what is alive beside the
  program (a restarted worker replaces one the zygote reaped first).
- `_process.collect` (1): a cold jail killed at its wall limit was read without nsjail's
  log (`Execution.signal` None), where a warm server reports the SIGKILL it sent (9).
  Now a jail the host killed at its deadline or on a cancel reads (no exit code, SIGKILL)
  in every mode: the program ended by that SIGKILL (nsjail's of pid 1, the kernel's of the
  rest).

Noise, not probed: which of a program's SIGTERM and the host's SIGKILL at an output
overflow lands first (`output_limit` either way, the signal 15 or 9): it races the host's
reader.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from sandbox_probes import SHORT
from test_redteam_round_sb5 import LIMITS
from test_redteam_round_sb11 import cold, served
from test_spare import Taken

import sandbox
from sandbox import _spare, _warm
from sandbox._in_jail.init import SIGNAL_REPORT
from sandbox._runner import Mode

pytestmark = pytest.mark.usefixtures("sandbox_ready")

MODES: tuple[Mode, ...] = ("cold", "warm")


COLD_THRICE: tuple[Mode, ...] = ("cold", "cold", "cold")
"""Three cold runs of one shape: two fresh jails (the first of a shape starts no spare, the
second starts one), then the spare the second started."""


# --- A. the process and memory budget without a cgroup ----------------------------------------

FUNCTION = (
    "import threading\n"
    "def started():\n"
    "    threading.stack_size(256 * 1024)\n"
    "    ev = threading.Event()\n"
    "    n = 0\n"
    "    try:\n"
    "        for _ in range(20):\n"
    "            threading.Thread(target=ev.wait).start()\n"
    "            n += 1\n"
    "    except RuntimeError:\n"
    "        pass\n"
    "    ev.set()\n"
    "    return n\n"
)
"""Threads until RLIMIT_NPROC refuses one (small stacks: the count decides)."""
PROGRAM = FUNCTION + "print(started())\n"

BUDGETS = {
    "32 processes of 256 MiB": (dataclasses.replace(LIMITS, processes=32), 3),
    "4 processes of 1 GiB": (dataclasses.replace(LIMITS, processes=4, memory_bytes=1 << 30), 3),
    "1 process of 256 MiB": (dataclasses.replace(LIMITS, processes=1), 0),
}
"""Limits, and the threads python3 starts under them (RLIMIT_NPROC N: N - 1; the memory
caps N at 4 from 512 MiB down, `process_budget`)."""

def _cases(kinds: tuple[str, ...], budgets: tuple[str, ...]) -> list[object]:
    return [pytest.param(kind, mode, budget, id=f"{kind}-{mode}-{budget}")
            for kind in kinds for mode in MODES for budget in budgets]


def verdicts(kind: str, mode: Mode, code: str, expected: str, limits: sandbox.Limits,
             call: str) -> list[tuple[object, ...]]:
    """`code` run as `kind` in `mode` (cold: twice fresh, then a spare; warm: twice on a
    fresh server), each as (status, what the program printed) or the tests' (outcome,
    message)."""
    runs = 3 if mode == "cold" else 2
    if mode == "warm":
        _warm.shutdown()
    else:
        _spare.spares.close()
    seen: list[tuple[object, ...]] = []
    for _ in range(runs):
        if kind == "plain":
            ran = sandbox.run(code, limits=limits, mode=mode)
            seen.append((ran.status, ran.stdout))
            continue
        if kind == "function":
            report = sandbox.run_tests(code, [f"assert {call} == {expected}"], limits=limits,
                                       mode=mode)
        else:
            report = sandbox.run_tests(code + f"print({call})\n",
                                       [{"input": "", "output": f"{expected}\n"}],
                                       limits=limits, mode=mode)
        seen.append(tuple((r.outcome, r.message) for r in report.results))
    return seen


@pytest.mark.parametrize(("kind", "mode", "budget"), _cases(
    ("plain", "function", "stdin/stdout"), tuple(BUDGETS)))
def test_without_cgroups_a_program_starts_the_threads_python3_starts(
        no_cgroup: None, kind: str, mode: Mode, budget: str) -> None:
    limits, threads = BUDGETS[budget]
    code = FUNCTION if kind != "plain" else PROGRAM
    if kind == "plain":
        want: tuple[object, ...] = ("ok", f"{threads}\n")
    else:
        want = (("pass", ""),)
    assert verdicts(kind, mode, code, str(threads), limits, "started()") == [want] * (
        3 if mode == "cold" else 2)


@pytest.mark.parametrize(("kind", "mode", "budget"), _cases(
    ("plain", "function", "stdin/stdout"), ("4 processes of 1 GiB",)))
def test_with_the_hosts_cgroup_a_program_starts_the_threads_python3_starts(
        kind: str, mode: Mode, budget: str) -> None:
    """The same count where the host's cgroup holds memory (process_budget's cgroup
    branch: every process may use all of it, RLIMIT_NPROC processes + ours)."""
    _warm.shutdown()
    limits, threads = BUDGETS[budget]
    code = FUNCTION if kind != "plain" else PROGRAM
    want: tuple[object, ...] = ("ok", f"{threads}\n") if kind == "plain" else (("pass", ""),)
    try:
        got = verdicts(kind, mode, code, str(threads), limits, "started()")
    finally:
        _warm.shutdown()
    assert got == [want] * (3 if mode == "cold" else 2)


HOLDS = "def held():\n    x = b'x' * (160 << 20)\n    return len(x) >> 20\n"
"""160 MiB in one block: python3 holds it under RLIMIT_AS 256 MiB."""
ONE_PROCESS = dataclasses.replace(LIMITS, processes=1)
@pytest.mark.parametrize(("kind", "mode", "budget"), _cases(
    ("plain", "function", "stdin/stdout"), ("1 process of 256 MiB",)))
def test_without_cgroups_one_process_holds_what_python3_holds(
        no_cgroup: None, kind: str, mode: Mode, budget: str) -> None:
    code = HOLDS if kind != "plain" else HOLDS + "print(held())\n"
    want: tuple[object, ...] = ("ok", "160\n") if kind == "plain" else (("pass", ""),)
    assert verdicts(kind, mode, code, "160", ONE_PROCESS, "held()") == [want] * (
        3 if mode == "cold" else 2)


# --- B. the cold init's endings and its nonce, fresh and spare, against warm -------------------

ENDINGS = {
    "stdout and stderr non-blocking, a flood, then SIGKILL": (
        ("import os, sys\nos.set_blocking(2, False)\nos.set_blocking(1, False)\n"
        "sys.stderr.write('e' * 4000)\nsys.stderr.flush()\nos.kill(os.getpid(), 9)\n"),
        ("runtime_error", None, 9, "", "e" * 4000)),
    "stderr at its cap, then SIGTERM": (
        ("import os, sys\nsys.stderr.write('e' * 4096)\nsys.stderr.flush()\n"
        "os.kill(os.getpid(), 15)\n"),
        ("runtime_error", None, 15, "", "e" * 4096)),
    "stderr closed, then SIGTERM": (
        "import os\nos.close(2)\nos.kill(os.getpid(), 15)\n",
        ("runtime_error", None, 15, "", "")),
    "fds 0 to 2 closed, then SIGUSR1": (
        "import os\nfor fd in (0, 1, 2):\n    os.close(fd)\nos.kill(os.getpid(), 10)\n",
        ("runtime_error", None, 10, "", "")),
    "half a report, then SIGTERM": (
        (f"import os, sys\nsys.stderr.buffer.write({SIGNAL_REPORT!r} + b'00')\n"
        "sys.stderr.flush()\nos.kill(os.getpid(), 15)\n"),
        ("runtime_error", None, 15, "", SIGNAL_REPORT.decode() + "00")),
    "exit 137": ("import sys\nsys.exit(137)\n", ("runtime_error", 137, None, "", "")),
    "a forged report, exit 137": (
        (f"import os, sys\nsys.stderr.buffer.write({SIGNAL_REPORT!r} + b'0123456789abcdef 9\\n')\n"
        "sys.stderr.flush()\nos._exit(137)\n"),
        ("runtime_error", 137, None, "", SIGNAL_REPORT.decode() + "0123456789abcdef 9\n")),
    "killpg of its own group": (
        "import os, signal\nprint('a', flush=True)\nos.killpg(0, signal.SIGKILL)\n",
        ("runtime_error", None, 9, "a\n", "")),
    "an orphan in a session of its own writes after the end": (
        ("import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        "        time.sleep(0.3)\n        os.write(1, b'late\\n')\n        os._exit(0)\n"
        "    os._exit(0)\nos.wait()\nprint('early')\n"),
        ("ok", 0, None, "early\n", "")),
    "SIGINT blocked, sent to itself": (
        ("import os, signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])\n"
        "os.kill(os.getpid(), signal.SIGINT)\nprint('survived')\n"),
        ("ok", 0, None, "survived\n", "")),
    "every signal blocked, a child's SIGTERM unblocked": (
        ("import os, signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, range(1, 32))\n"
        "if os.fork() == 0:\n    os.kill(os.getppid(), signal.SIGTERM)\n    os._exit(0)\n"
        "os.wait()\nsignal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])\n"
        "print('never')\n"),
        ("runtime_error", None, 15, "", "")),
    "exit 3 with a SIGCONT handler": (
        ("import os, signal\nprint('a', flush=True)\n"
        "signal.signal(signal.SIGCONT, lambda *a: None)\nos._exit(3)\n"),
        ("runtime_error", 3, None, "a\n", "")),
    "execs a shell that SIGTERMs itself": (
        "import os\nprint('a', flush=True)\nos.execv('/bin/sh', ['sh', '-c', 'kill -TERM $$'])\n",
        ("runtime_error", None, 15, "a\n", "")),
    "execs python3, which prints and exits 0": (
        "import os\nos.execv('/usr/bin/python3', ['python3', '-c', 'print(7)'])\n",
        ("ok", 0, None, "7\n", "")),
}
"""Programs, and (status, exit code, signal, stdout, stderr) as python3 main.py ends."""
ENDING_LIMITS = dataclasses.replace(LIMITS, wall_s=2.0, output_bytes=4096)


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> Iterator[Taken]:
    _spare.spares.close()
    yield Taken(monkeypatch)
    _spare.spares.close()


@pytest.mark.parametrize("name", list(ENDINGS))
def test_an_ending_reads_as_python3s_fresh_spare_and_warm(taken: Taken, name: str) -> None:
    code, want = ENDINGS[name]
    runs = [sandbox.run(code, limits=ENDING_LIMITS, mode=mode) for mode in (*COLD_THRICE, "warm")]
    assert taken.hits == 1  # the third cold run went through the spare the second started
    assert [(r.status, r.exit_code, r.signal, r.stdout, r.stderr) for r in runs] == [want] * 4


STOPPED = {
    "by its child": ("import os, signal, time\nif os.fork() == 0:\n"
                     "    os.kill(os.getppid(), signal.SIGSTOP)\n    os._exit(0)\n"
                     "time.sleep(0.5)\nprint('not stopped')\n"),
    "by itself": "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)\nprint('not stopped')\n",
}


@pytest.mark.parametrize("name", list(STOPPED))
def test_a_stopped_program_times_out_fresh_spare_and_warm(taken: Taken, name: str) -> None:
    """python3 main.py stopped stays stopped: the wall limit ends it (the init and the
    zygote wait without WUNTRACED)."""
    code = STOPPED[name]
    limits = dataclasses.replace(SHORT, wall_s=1.0)
    runs = [sandbox.run(code, limits=limits, mode=mode) for mode in (*COLD_THRICE, "warm")]
    assert taken.hits == 1
    assert [(r.status, r.stdout) for r in runs] == [("timeout", "")] * 4


def test_a_wall_timeout_reads_alike_fresh_spare_and_warm(taken: Taken) -> None:
    limits = dataclasses.replace(SHORT, wall_s=1.0, cpu_s=5.0)
    code = "import time\ntime.sleep(5)\n"
    runs = [sandbox.run(code, limits=limits, mode=mode) for mode in (*COLD_THRICE, "warm")]
    assert taken.hits == 1
    assert [(r.status, r.exit_code, r.signal) for r in runs] == [
        (runs[-1].status, runs[-1].exit_code, runs[-1].signal)] * 4, runs


# --- C. what a zygote's child leaves for the next, and its reaping -----------------------------

STATE = (
    "import typing\nimport gc, os, signal, sys, resource\n"
    "print(os.getppid() != 1)\n"  # the zygote's child (cold: the init, pid 1)
    "print(list(sys.modules)[-4:], sorted(sys.path_importer_cache), os.listdir('/work'),"
    " os.listdir('/tmp'), oct(os.umask(0o22)), [signal.getsignal(s) for s in range(1, 32)"
    " if s not in (9, 19)], sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])),"
    " resource.getrlimit(resource.RLIMIT_NOFILE), os.getcwd(), sorted(os.environ.items()),"
    " os.getsid(0) == os.getpid(), os.get_blocking(1), os.isatty(0), gc.isenabled(),"
    " gc.get_threshold(), sys.getrecursionlimit(), sys.getswitchinterval(),"
    " sys.get_int_max_str_digits())\n"
)
"""The state a program of the typing key starts from (sb13's, with gc's and the
interpreter's settings; not `gc.get_freeze_count()`, a known difference: the server
freezes its objects): the first line says who forked it, the rest must read as cold's."""


LEAVERS = {
    "a zombie child, the parent exits": (
        "import typing\nimport os\nif os.fork() == 0:\n    os._exit(5)\nprint('p')\n", "p\n"),
    "a stopped child left": (
        ("import typing\nimport os, signal\npid = os.fork()\nif pid == 0:\n"
        "    os.kill(os.getpid(), signal.SIGSTOP)\n    os._exit(0)\n"
        "os.waitpid(pid, os.WUNTRACED)\nprint('p')\n"), "p\n"),
    "a child and a grandchild ending out of order": (
        ("import typing\nimport os, time\npid = os.fork()\nif pid == 0:\n"
        "    if os.fork() == 0:\n        time.sleep(0.05)\n        os._exit(7)\n    os._exit(3)\n"
        "print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n"), "3\n"),
    "stops itself, a child continues it": (
        ("import typing\nimport os, signal, time\nme = os.getpid()\nif os.fork() == 0:\n"
        "    time.sleep(0.1)\n    os.kill(me, signal.SIGCONT)\n    os._exit(0)\n"
        "os.kill(me, signal.SIGSTOP)\nprint('continued')\n"), "continued\n"),
    "gc and interpreter settings changed": (
        ("import typing\nimport gc, sys\ngc.disable()\ngc.set_threshold(1, 1, 1)\ngc.freeze()\n"
        "sys.setswitchinterval(1.0)\nsys.set_int_max_str_digits(640)\nsys.setrecursionlimit(50)\n"
        "print('set')\n"), "set\n"),
    "ctypes' errno and pointer types": (
        ("import typing\nimport ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.close(12345)\nctypes.POINTER(ctypes.c_double)\nprint(ctypes.get_errno())\n"), "9\n"),
    "execs python3": (
        "import typing\nimport os\nos.execv('/usr/bin/python3', ['python3', '-c', 'print(7)'])\n",
        "7\n"),
    "an orphan in a session of its own left running": (
        ("import typing\nimport os, time\nif os.fork() == 0:\n    os.setsid()\n"
        "    if os.fork() == 0:\n        time.sleep(30)\n    os._exit(0)\nos.wait()\nprint('p')\n"),
        "p\n"),
}
"""Programs of the typing key (a zygote's children), and what python3 prints."""
ZYGOTE_LIMITS = dataclasses.replace(LIMITS, cpu_s=1.0, wall_s=2.0)


@pytest.mark.parametrize("name", list(LEAVERS))
def test_what_a_zygote_child_does_reads_as_cold_and_leaves_nothing(
        zygotes: None, name: str) -> None:
    code, printed = LEAVERS[name]
    reference = cold(STATE, ZYGOTE_LIMITS)
    assert reference.status == "ok", reference
    want = reference.stdout.split("\n", 1)[1]
    runs = served(STATE, 2, ZYGOTE_LIMITS)  # the server's child, then the zygote's
    ran = [sandbox.run(code, limits=ZYGOTE_LIMITS, mode=mode) for mode in MODES]
    after = sandbox.run(STATE, limits=ZYGOTE_LIMITS, mode="warm")
    assert [(r.status, r.exit_code, r.signal, r.stdout) for r in ran] == [
        ("ok", 0, None, printed)] * 2
    assert runs[1].stdout.startswith("True\n")  # the leaver ran in the zygote's child
    assert [r.stdout.split("\n", 1)[1] for r in (*runs, after)] == [want] * 3


SETTINGS = (
    "import typing\nimport ctypes, faulthandler, gc, sys\n"
    "print(ctypes.get_errno(), sorted(map(str, ctypes._pointer_type_cache)), gc.isenabled(),"
    " gc.get_threshold(), gc.get_debug(), sys.getswitchinterval(), sys.getrecursionlimit(),"
    " sys.get_int_max_str_digits(), faulthandler.is_enabled(), sys.gettrace(),"
    " sys.getprofile(), sys.getdlopenflags(), sys.flags)\n"
)
"""Interpreter settings and ctypes' module state (its pointer-type cache is the C module's,
kept across a re-import of `ctypes`) a program starts from."""


def test_a_zygotes_children_start_from_cold_settings(zygotes: None) -> None:
    reference = cold(SETTINGS)
    assert reference.status == "ok", reference
    assert [r.stdout for r in served(SETTINGS, 3)] == [reference.stdout] * 3


def test_a_stopped_zygote_child_times_out_and_leaves_nothing(zygotes: None) -> None:
    """The zygote waits for its child without WUNTRACED (`zygote_reaper`): a child that
    stops itself is a timeout, as python3 main.py stopped, and the zygote serves on."""
    code = "import typing\nimport os, signal\nos.kill(os.getpid(), signal.SIGSTOP)\nprint(1)\n"
    limits = dataclasses.replace(ZYGOTE_LIMITS, wall_s=1.0)
    reference = cold(STATE, limits)
    runs = served(STATE, 2, limits)
    stopped = [sandbox.run(code, limits=limits, mode=mode) for mode in MODES]
    after = sandbox.run(STATE, limits=limits, mode="warm")
    assert [(r.status, r.stdout) for r in stopped] == [("timeout", "")] * 2
    assert runs[1].stdout.startswith("True\n")
    want = reference.stdout.split("\n", 1)[1]
    assert [r.stdout.split("\n", 1)[1] for r in (*runs, after)] == [want] * 3


# --- D. sessions without a cgroup --------------------------------------------------------------

def _session_and_sibling_threads() -> None:
    """A session's program and its fork sibling each start as many threads as python3."""
    limits, threads = BUDGETS["4 processes of 1 GiB"]
    with sandbox.open_session(limits=limits) as session:
        first = session.run(PROGRAM)
        (sibling,) = session.fork(1)
        with sibling:
            second = sibling.run("print(started())\n")
    assert [(r.status, r.stdout) for r in (first, second)] == [("ok", f"{threads}\n")] * 2


def test_without_cgroups_a_session_and_its_sibling_start_python3s_threads(no_cgroup: None) -> None:
    _session_and_sibling_threads()


def test_with_the_hosts_cgroup_a_session_and_its_sibling_start_python3s_threads() -> None:
    _session_and_sibling_threads()


def test_without_cgroups_a_session_holds_what_python3_holds(no_cgroup: None) -> None:
    with sandbox.open_session(limits=ONE_PROCESS) as session:
        ran = session.run(HOLDS + "print(held())\n")
        (sibling,) = session.fork(1)
        with sibling:
            again = sibling.run("print(held())\n")
    assert [(r.status, r.stdout) for r in (ran, again)] == [("ok", "160\n")] * 2

