"""Red team (rt17) of merge 96bb857 (h-sb2): a session's CPU without a cgroup
(`SANDBOX_NO_CGROUP=1`) bounded by the host's /proc backstop (`sandbox/_cpu_watch.py`:
`ProcMeter`, read every 0.1 s by the `CpuWatch` thread; past `episode_cpu_s` + 2 s
`_session._Jail.check_cpu` kills the jail), the idle server's last words (`idle <spent_s>`,
`_Jail.last_words`), fork siblings' budget without a cgroup (`Session._cpu_left`,
`_replay_counts`), and warm runs' RLIMIT_CPU (cpu, cpu) with `_classify.classify` telling a
warm SIGKILL's cause from the CPU the child spent (docs/sandbox.md: the CPU table, sessions,
fork).

What: can a cell's processes spend past the backstop unseen (double-forked daemons
reparented to the jail's pid 1, zombies never waited for); can anything else's CPU be read
as a session's (a dead jail's pid 1 number taken by another process); can the watcher kill
another process; can a cell forge the idle server's last words; do fork siblings get more
than the docs say (the parent's waited-for children); does a warm program's signal to itself
read as in a cold run.
How: real sessions with budgets of 0.2 to 3 CPU seconds; CPU is read by the processes
themselves (`time.process_time`: the kernel's count, no machine-speed threshold: a loaded
host gives a spinner less CPU per wall second, never more) with whole seconds of margin; wall
deadlines of tens of seconds that only a broken bound reaches. Held attacks are plain tests;
open holes are strict xfails naming the function at their root."""

from __future__ import annotations

import dataclasses
import functools
import os
import platform
import subprocess
import sys
import time
from typing import NamedTuple

import pytest
from sandbox_probes import SHORT, burn, reached

import sandbox
from sandbox import Limits, SessionOptions, _session, open_session

pytestmark = pytest.mark.usefixtures("sandbox_ready")

SLACK_S = 2.0
"""CPU seconds past `episode_cpu_s` the docs allow without a cgroup before the backstop
kills (`_session.BACKSTOP_S`)."""
OVERSHOOT_S = 1.5
"""The backstop's own overshoot: it reads every 0.1 s (the jail's processes run on at most
the host's 2 CPUs meanwhile) and its thread wakes late on a loaded host; generous."""
LIMITS = Limits(wall_s=60.0, cpu_s=60.0, memory_bytes=1 << 30, processes=8,
                output_bytes=1 << 16)
STOPPED = "(episode_cpu_s): stopped\n"


def session(cpu_s: float, idle_s: float = 600.0) -> _session.Session:
    return open_session(limits=LIMITS, options=SessionOptions(
        episode_cpu_s=cpu_s, episode_wall_s=600, idle_s=idle_s))


def backstopped(s: _session.Session) -> _session.Session:
    assert s.cpu_seconds() is None  # (no cgroup counts its CPU)
    jail = s._jail
    if jail is None or jail.backstop is None:
        pytest.skip("this kernel has no /proc/PID/task/TID/children: no backstop")
    return s


# --- 1. processes the backstop must see ------------------------------------------------------


def workers(kind: str, n: int) -> str:
    """A cell that starts `n` workers, each spinning (SIGXCPU ignored: each runs to its
    hard RLIMIT_CPU, the interpreter's grant + 1 s) and writing `i cpu` on the call's
    stdout every 0.05 CPU s; the cell itself waits (never wait()s for them) until the
    last worker's end closes a pipe. `orphans`: each worker is double-forked, its middle
    process reaped at once: the worker is reparented to the jail's pid 1 (a daemon).
    `zombies`: each worker is a child of the interpreter that exits at 1.9 s, below its
    hard limit, and is never waited for. `clone_parent`: each worker was a child of the
    jail's pid 1 from its start (clone with CLONE_PARENT), which reaps it only at a reset;
    seccomp refuses that clone since h-sb21 (`_jail.SECCOMP_POLICY`): no worker starts."""
    stop = "t >= 1.9" if kind == "zombies" else "False"
    start = ("        if os.fork() == 0:\n            worker(i)\n        os._exit(0)\n"
             "    os.waitpid(pid, 0)\n") if kind == "orphans" else \
        "        worker(i)\n"
    fork = "libc.syscall(56, 0x8000 | 17, 0, 0, 0, 0)" if kind == "clone_parent" else \
        "os.fork()"  # (x86_64 clone: CLONE_PARENT | SIGCHLD, a fork whose parent is ours)
    return (
        "import ctypes, os, select, signal, time\nr, w = os.pipe()\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "def worker(i):\n    os.close(r)\n    signal.signal(signal.SIGXCPU, signal.SIG_IGN)\n"
        "    last = 0.0\n    while True:\n        t = time.process_time()\n"
        f"        if {stop}:\n            os.write(1, f'{{i}} {{t:.3f}}\\n'.encode())\n"
        "            os._exit(0)\n"
        "        if t - last >= 0.05:\n            os.write(1, f'{i} {t:.3f}\\n'.encode())\n"
        "            last = t\n"
        f"for i in range({n}):\n    pid = {fork}\n    if pid == 0:\n{start}"
        "os.close(w)\nend = time.monotonic() + 50\n"
        "while time.monotonic() < end:\n"
        "    if select.select([r], [], [], 1.0)[0] and not os.read(r, 64):\n        break\n"
        "print('done', flush=True)\n")


def workers_spent(out: sandbox.Execution) -> float:
    """CPU seconds the workers reported, each its last line."""
    last: dict[str, float] = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            last[parts[0]] = float(parts[1])
    return sum(last.values())


def test_without_cgroups_clone_parent_workers_are_refused(no_cgroup: None) -> None:
    """The `clone_parent` kind of the probe below until h-sb21, whose seccomp rule
    refuses clone(CLONE_PARENT): no worker starts, the cell ends at once."""
    if platform.machine() != "x86_64":
        pytest.skip("clone's number here is x86_64's")
    with session(1) as s:
        out = s.run(workers("clone_parent", 4))
        assert (out.status, out.stdout) == ("ok", "done\n"), out


@pytest.mark.parametrize("kind", ["orphans", "zombies"])
def test_without_cgroups_the_backstop_stops_processes_no_server_count_sees(
        no_cgroup: None, kind: str) -> None:
    """4 workers (each ≤ 2 s by its own RLIMIT_CPU: 8 s, 7.6 s for zombies; 8 processes
    without a cgroup, 1 GiB // 128 MiB) in a session of 1 CPU second: the server reaps none
    of them during the call; the backstop must stop the jail near 1 + 2 s, all processes
    together."""
    with session(1) as s:
        backstopped(s)
        out = s.run(workers(kind, 4))
        spent = workers_spent(out)
        assert spent <= 1 + SLACK_S + OVERSHOOT_S, (spent, out)
        assert out.status == "timeout" and out.stderr.endswith(STOPPED), out
        after = s.run("print('ran')")
        assert after.status == "timeout" and after.stderr.endswith(_session.CPU_SPENT), after


# --- 1b. a dead jail's pid 1 number taken by another process --------------------------------

HOLDER = r"""
import os, sys, threading, time
target = int(sys.argv[1])
child = os.fork()
if child == 0:  # spins and is waited for: this process's cutime, the kernel's count
    while time.process_time() < 3.0:
        pass
    os._exit(0)
os.waitpid(child, 0)
hold, got = threading.Event(), []
def probe(checked):
    mine = threading.get_native_id() == target
    if mine:
        got.append(1)
    checked.set()
    if mine:
        hold.wait()
deadline = time.monotonic() + 60
while not got and time.monotonic() < deadline:
    try:  # root: the pid counter just below the target (else threads cycle the counter)
        with open("/proc/sys/kernel/ns_last_pid", "w") as fh:
            fh.write(str(target - 1))
    except OSError:
        pass
    checked = threading.Event()
    thread = threading.Thread(target=probe, args=(checked,))
    thread.start()
    checked.wait()
    if not got:
        thread.join()
print("got" if got else "miss", flush=True)
sys.stdin.read()
hold.set()
"""


class Reuse(NamedTuple):
    holder_lived: bool
    """The process holding the dead jail's pid 1 number lived through the watcher's reads."""
    after: sandbox.Execution
    """The session's next call."""
    again: sandbox.Execution
    """The call after it."""


@functools.cache
def dead_jail_pid_reused() -> Reuse:
    """A session of 0.2 CPU seconds runs one cell and sits idle past `idle_s`: its jail ends
    itself (its server, the jail's pid 1, exits) and stays watched until the session's next
    call. Another process (here a helper on the host, standing for any process: another
    session's, the trainer's) takes the dead pid 1's number, as a thread whose process
    waited for 3 CPU seconds of children (past the 0.2 + 2 s the backstop allows); the
    watcher reads /proc by that number."""
    s = session(0.2, idle_s=1.0)
    try:
        backstopped(s)
        assert s.run("x = 1").status == "ok"
        jail = s._jail
        assert jail is not None and jail.backstop is not None
        init = jail.backstop.init
        end = time.monotonic() + 30
        while (jail.proc.poll() is None or os.path.exists(f"/proc/{init}")) and \
                time.monotonic() < end:
            time.sleep(0.2)
        assert not os.path.exists(f"/proc/{init}"), "the idle jail did not end"
        holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(init)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert holder.stdout is not None and holder.stdin is not None
        try:
            if holder.stdout.readline() != b"got\n":
                pytest.skip("no process could take the dead jail's pid in time")
            time.sleep(2.0)  # 20 readings of the watcher
            lived = holder.poll() is None
        finally:
            holder.stdin.close()
            holder.wait(30)
        return Reuse(lived, s.run("print('ran')"), s.run("print('ran')"))
    finally:
        s.close()


def test_without_cgroups_the_backstop_kills_no_process_that_took_a_dead_jails_pid(
        no_cgroup: None) -> None:
    """`_Jail.check_cpu` kills by the pidfd it opened on the jail's pid 1, never by number:
    whatever the backstop read, the process now holding that number lives."""
    assert dead_jail_pid_reused().holder_lived


def test_without_cgroups_a_dead_jails_pid_taken_by_another_process_does_not_spend_it(
        no_cgroup: None) -> None:
    reuse = dead_jail_pid_reused()
    # the session's jail ended idle: this call did not run (a fresh jail), the next one does
    assert not reuse.after.stderr.endswith(_session.CPU_SPENT), reuse.after
    assert (reuse.again.status, reuse.again.stdout) == ("ok", "ran\n"), reuse.again


# --- 2. the idle server's last words -------------------------------------------------------

FORGE = (
    "import os, time\n"
    "for fd in range(1024):\n"
    "    try:\n        os.write(fd, b'idle 0')\n    except OSError:\n        pass\n"
    "while time.process_time() < 2.5:\n    pass\n"
    "print(round(time.process_time(), 3))\n")


def test_without_cgroups_a_cell_cannot_forge_the_idle_servers_last_words(no_cgroup: None
                                                                          ) -> None:
    """A cell writes `idle 0` (the last words' form, a count of nothing) on every fd it
    holds, spins 2.5 of the episode's 3 CPU seconds and ends;
    the jail ends idle. Its successor's interpreter has what is left: 1 s (0.5 rounded up),
    not a fresh 3."""
    with session(3, idle_s=1.0) as s:
        backstopped(s)
        out = s.run(FORGE)
        assert out.status == "ok" and float(out.stdout.split()[-1]) >= 2.5, out
        time.sleep(4.0)  # past idle_s: the jail ends itself, leaving its last words
        restarted = s.run("pass")
        assert "did not run" in restarted.stderr, restarted
        limit = s.run("import resource\nprint(resource.getrlimit(resource.RLIMIT_CPU)[0])")
        assert limit.status == "ok" and int(limit.stdout) <= 1, limit


# --- 3. fork siblings without a cgroup -----------------------------------------------------

WAITED_CHILD = ("import os, time\nif time.monotonic() - T0 > 2:\n"  # (a replay: at once)
                "    pid = os.fork()\n    if pid == 0:\n"
                "        while time.process_time() < 2.6:\n            pass\n"
                "        os._exit(0)\n    os.waitpid(pid, 0)\n"
                "    t = os.times()\n    print(round(t.children_user + t.children_system, 3))\n")


def test_without_cgroups_a_sibling_has_not_what_the_parents_waited_for_children_spent(
        no_cgroup: None) -> None:
    """The parent (3 CPU s) spends 2.6 s in a child its interpreter waits for (a cell the
    replay does not repeat: it spins only when run long after the cell before it), so its
    siblings have 0.4 s: an interpreter under RLIMIT_CPU 1 (hard 2). The sibling spins 3.2 s,
    SIGXCPU ignored."""
    with session(3) as parent:
        backstopped(parent)
        parent.run("import time\nT0 = time.monotonic()")
        time.sleep(3.0)
        waited = parent.run(WAITED_CHILD)
        assert waited.status == "ok" and float(waited.stdout) >= 2.5, waited
        (sibling,) = parent.fork(1)
        with sibling:
            out = sibling.run(burn(3.2, ignore_xcpu=True))
    assert reached(out) <= 0.4 + SLACK_S, out


DAEMONS = ("import os, signal, time\nif time.monotonic() - T0 > 2:\n"  # (a replay: at once)
           "    for _ in range(3):\n        pid = os.fork()\n        if pid == 0:\n"
           "            if os.fork() == 0:\n"
           "                signal.signal(signal.SIGXCPU, signal.SIG_IGN)\n"
           "                while True:\n                    pass\n"
           "            os._exit(0)\n        os.waitpid(pid, 0)\n")


def test_without_cgroups_a_parent_its_backstop_stopped_forks_spent_siblings(
        no_cgroup: None) -> None:
    """The parent (1 CPU s) leaves 3 daemons spinning (a cell the replay does not repeat);
    the backstop stops its jail between calls; it forks before its next call."""
    with session(1) as parent:
        backstopped(parent)
        parent.run("import time\nT0 = time.monotonic()")
        time.sleep(3.0)
        assert parent.run(DAEMONS).status == "ok"
        jail = parent._jail
        assert jail is not None
        end = time.monotonic() + 50
        while jail.proc.poll() is None and time.monotonic() < end:
            time.sleep(0.2)
        assert jail.proc.poll() is not None and jail.cpu_spent, "the backstop did not stop them"
        (sibling,) = parent.fork(1)
        with sibling:
            out = sibling.run("print('ran')")
    assert out.status == "timeout" and out.stderr.endswith(_session.CPU_SPENT), out


# --- 4. warm runs' CPU limit and the verdict of a SIGKILL ------------------------------------

CPU_KILLS = {
    # soft = hard: the kernel SIGKILLs at the limit, no SIGXCPU to catch first
    "a SIGXCPU handler that exits 0": (
        "import os, signal, time\nsignal.signal(signal.SIGXCPU, lambda *a: os._exit(0))\n"
        "while True:\n    pass\n"),
    "spinning threads": (
        "import threading\ndef spin():\n    while True:\n        pass\n"
        "for _ in range(3):\n    threading.Thread(target=spin, daemon=True).start()\n"
        "spin()\n"),
}


@pytest.mark.parametrize("name", sorted(CPU_KILLS))
def test_a_cpu_limit_kill_reads_as_a_timeout_warm_and_cold(name: str) -> None:
    limits = dataclasses.replace(SHORT, wall_s=30.0, cpu_s=1.0)
    for mode in ("cold", "warm"):
        out = sandbox.run(CPU_KILLS[name], limits=limits, mode=mode)
        assert (out.status, out.exit_code) == ("timeout", None), (mode, out)


SELF_SIGNALS = {
    # a program's own signal, as `python3 main.py` on a host takes it (h-sb15): the program
    # is no jail's pid 1 cold (the jail's init, `_in_jail/init.py`, is) nor warm (a forked
    # child), so its own signals end it in both modes; `_classify` reads a SIGXCPU or
    # SIGKILL as a timeout only where the run's CPU reached its rlimit
    "SIGKILL to itself": "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n",
    "SIGXCPU to itself (no CPU spent)": "import os, signal\nos.kill(os.getpid(), signal.SIGXCPU)\n",
    "SIGTERM to itself": "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n",
    "SIGKILL from its child (no CPU spent)": (
        "import os, signal\nif os.fork() == 0:\n    os.kill(os.getppid(), signal.SIGKILL)\n"
        "    os._exit(0)\nos.wait()\n"),
    "SIGKILL from its child after most of its CPU": (
        "import os, signal, time\nwhile time.process_time() < 0.8:\n    pass\n"
        "if os.fork() == 0:\n    os.kill(os.getppid(), signal.SIGKILL)\n    os._exit(0)\n"
        "os.wait()\n"),
}
SELF_SIGNAL_STATUS = {
    "SIGKILL to itself": "runtime_error", "SIGXCPU to itself (no CPU spent)": "runtime_error",
    "SIGTERM to itself": "runtime_error", "SIGKILL from its child (no CPU spent)": "runtime_error",
    # rusage cannot tell it from the CPU rlimit's SIGKILL (`_classify.RLIMIT_CLOCK_SHARE`)
    "SIGKILL from its child after most of its CPU": "timeout"}


@pytest.mark.parametrize("name", sorted(SELF_SIGNALS))
def test_a_signal_a_program_sends_itself_reads_as_in_a_cold_run(name: str) -> None:
    """The reference is `python3 main.py` as a plain process (not a jail's pid 1): the
    signal ends it, nothing after it is printed, and the verdict is the same in both modes."""
    code = SELF_SIGNALS[name] + "print('after')\n"
    limits = dataclasses.replace(SHORT, wall_s=30.0, cpu_s=1.0)
    cold = sandbox.run(code, limits=limits, mode="cold")
    warm = sandbox.run(code, limits=limits, mode="warm")
    assert (warm.status, warm.stdout) == (cold.status, cold.stdout), (warm, cold)
    assert (cold.status, cold.stdout) == (SELF_SIGNAL_STATUS[name], ""), cold


# h-sb15: the cold jail's init (`_in_jail/init.py`) is the program's parent; since h-uid of
# another uid, so each aim may be refused (EPERM, as in a warm run), and the run goes on
AT_THE_INIT = {
    "signals": ("import os, signal\nfor s in (signal.SIGSTOP, signal.SIGTERM, signal.SIGINT,"
                " signal.SIGKILL):\n    try:\n        os.kill(os.getppid(), s)\n"
                "    except PermissionError:\n        pass\n"),
    "kill(-1)": ("import os, signal\nfor s in (signal.SIGSTOP, signal.SIGKILL):\n    try:\n"
                 "        os.kill(-1, s)\n    except ProcessLookupError:\n        pass\n"),
    "its CPU and file limits": (
        "import os, resource\nfor r, v in ((resource.RLIMIT_CPU, 1), (resource.RLIMIT_NOFILE, 3),"
        " (resource.RLIMIT_FSIZE, 0)):\n    try:\n        resource.prlimit(os.getppid(), r, (v, v))\n"
        "    except PermissionError:\n        pass\n"),
}


@pytest.mark.parametrize("ending", ["exit 3", "SIGSEGV"])
@pytest.mark.parametrize("name", sorted(AT_THE_INIT))
def test_a_program_cannot_change_how_its_init_reports_its_end(name: str, ending: str) -> None:
    """Whatever the program aims at its parent (the jail's pid 1), the run reads as the
    program ended: its exit code, or the signal it died of, and its own output only."""
    end = ("raise SystemExit(3)\n" if ending == "exit 3" else
           "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    code = ("import os\nprint(os.getppid(), flush=True)\n" + AT_THE_INIT[name]
            + "print('after', flush=True)\n" + end)
    cold = sandbox.run(code, limits=dataclasses.replace(SHORT, wall_s=30.0), mode="cold")
    assert (cold.status, cold.stdout, cold.stderr) == ("runtime_error", "1\nafter\n", ""), cold
    assert (cold.exit_code, cold.signal) == ((3, None) if ending == "exit 3" else (None, 11))
