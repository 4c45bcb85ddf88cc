"""Red team (rt8) on a session's episode CPU budget (`sandbox/_cpu_watch.py`, the cpuacct and v2
meters of `sandbox/_cgroup.py`, `sandbox/_session.py`; docs/sandbox.md#the-episodes-cpu-of-a-session).

What: can a session's processes spend more than `episode_cpu_s` plus the documented overshoot
(0.1 s of wall time times the CPUs they run on): threads that release the GIL, a setsid
double-forked daemon left running between calls, thousands of short processes that exit
before a reading, a fork sibling whose replay diverges from its parent's cells; does one
session's spending or its killed jail change another session's verdict or budget (one
watcher thread serves all); does anything of a stopped jail outlive the kill (its cgroup is
removed only once no process is left in it); and does `SANDBOX_NO_CGROUP=1` still bound what
the docs' table says (each process <= `episode_cpu_s`, together <= `Limits.processes` x
`episode_cpu_s`).
How: real sessions with budgets of 1 to 2 CPU seconds, read through `Session.cpu_seconds()`
(the cgroup's own count) with a margin of a whole CPU second (no machine-speed threshold: on
a loaded host a spinner gets less CPU and takes longer, never more); waits are wall-clock
deadlines of tens of seconds that only a broken bound reaches. Held attacks are plain tests;
open holes are strict xfails naming the function at fault."""

from __future__ import annotations

import os
import threading
import time

import pytest

from sandbox import Limits, SessionOptions, _session, open_session

pytestmark = pytest.mark.usefixtures("sandbox_ready")

SPIN = Limits(wall_s=60.0, cpu_s=60.0, memory_bytes=256 << 20, processes=64,
              output_bytes=1 << 16)
MARGIN_S = 1.0
"""CPU seconds past the budget a stopped session may have spent (the docs' overshoot, 0.1 s
times the host's CPUs, plus the watcher's wake-up), generous."""
WAIT_S = 45.0
"""Wall seconds a probe waits for the watcher to stop a session spinning between calls."""

SPINNER = "while True:\n    pass"
THREADS = ("import threading, hashlib\nb = bytes(1 << 20)\n"
           "def f():\n    while True:\n        hashlib.sha256(b).digest()\n"  # GIL released
           "ts = [threading.Thread(target=f, daemon=True) for _ in range(4)]\n"
           "[t.start() for t in ts]\nprint('go', flush=True)\n[t.join() for t in ts]")
DAEMON = ("import os\nfor _ in range(3):\n    if os.fork() == 0:\n        os.setsid()\n"
          "        if os.fork() == 0:\n            while True:\n                pass\n"
          "        os._exit(0)\n    os.wait()\nprint('left')")
"""Three daemons (each its own RLIMIT_CPU, the whole budget) left spinning by one cell."""
SHORT_LIVED = ("import os, time\nwhile True:\n    pid = os.fork()\n    if pid == 0:\n"
               "        t = time.process_time()\n        while time.process_time() - t < 0.02:\n"
               "            pass\n        os._exit(0)\n    os.waitpid(pid, 0)")


def session(cpu_s: float, limits: Limits = SPIN) -> _session.Session:
    return open_session(limits=limits, options=SessionOptions(episode_cpu_s=cpu_s,
                                                              episode_wall_s=600))


def metered(s: _session.Session) -> _session.Session:
    if s.cpu_seconds() is None:
        pytest.skip("no cgroup counts CPU on this host: RLIMIT_CPU bounds each process")
    return s


def used(s: _session.Session) -> float:
    """What the session's cgroup counted (`metered` sessions only)."""
    seconds = s.cpu_seconds()
    assert seconds is not None
    return seconds


def spin_until_spent(s: _session.Session, cell: str = SPINNER) -> None:
    """Spin call after call until the session is spent: the interpreter's own RLIMIT_CPU
    may end a call first (a reset, the budget not yet spent by the cgroup's count)."""
    for _ in range(10):
        out = s.run(cell)
        assert out.status == "timeout", out
        if out.stderr.endswith((_session.CPU_SPENT, "(episode_cpu_s): stopped\n")):
            return
    raise AssertionError(f"not spent after 10 spinning calls: {used(s)}")


def spent(s: _session.Session) -> None:
    """The next call does not run: the session's CPU is spent."""
    after = s.run("print('ran')")
    assert after.status == "timeout" and after.stdout == "", after
    assert after.stderr.endswith(_session.CPU_SPENT), after


def test_threads_that_release_the_gil_count_together() -> None:
    """Four hashing threads in the interpreter: whichever stops them first (the
    interpreter's RLIMIT_CPU, a reset, or the watcher), the session's processes together
    spend the budget once."""
    with session(2) as s:
        metered(s).run("x = 1")
        spin_until_spent(s, THREADS)
        assert used(s) <= 2 + MARGIN_S, used(s)
        spent(s)


def test_a_setsid_double_forked_daemon_is_stopped_between_calls_and_nothing_outlives_it(
        ) -> None:
    """A cell leaves three daemons (each in a new session, orphaned to the jail's pid 1,
    each with its own RLIMIT_CPU of the whole budget) spinning and returns: the watcher stops the jail between calls; the jail's cgroups are removed while
    the session is still open, which the kernel allows only once no process is left in
    them (the pid-1 kill took every process of the jail)."""
    with session(1) as s:
        metered(s)
        jail = s._jail
        assert jail is not None
        group = jail.group
        paths = [p for p in (group.cpu_path, group.path) if p] if group else []
        out = s.run(DAEMON)
        assert out.status == "ok" and out.stdout == "left\n", out
        deadline = time.monotonic() + WAIT_S
        while not jail.cpu_spent and time.monotonic() < deadline:
            time.sleep(0.1)
        assert jail.cpu_spent, used(s)
        assert used(s) <= 1 + MARGIN_S, used(s)
        spent(s)
        assert not any(os.path.exists(p) for p in paths), paths


def test_thousands_of_short_processes_count_after_they_exit() -> None:
    """Children that burn 20 ms and exit between two readings are counted by the group
    (exited processes included): the cell is stopped at the budget."""
    with session(1.5) as s:
        metered(s).run("x = 1")
        spin_until_spent(s, SHORT_LIVED)
        assert used(s) <= 1.5 + MARGIN_S, used(s)
        spent(s)


def test_a_session_stopped_for_cpu_changes_no_other_sessions_verdict_or_budget() -> None:
    """Session A spins to its budget while session B runs short cells and session C sits
    idle with its own spinner-free state: B's cells all answer, neither B nor C is charged
    A's CPU, and both keep their state after A's jail is killed."""
    with session(1) as a, session(5) as b, session(5) as c:
        metered(a).run("x = 1")
        b.run("y = 2")
        c.run("z = 3")
        worker = threading.Thread(target=spin_until_spent, args=(a,))
        worker.start()
        answers = []
        deadline = time.monotonic() + WAIT_S
        while worker.is_alive() and time.monotonic() < deadline:
            answers.append(b.run("print(sum(range(1000)) + y)"))
        worker.join(WAIT_S)
        assert not worker.is_alive()
        assert used(a) <= 1 + MARGIN_S, used(a)
        assert answers and all(r.status == "ok" and r.stdout == "499502\n" for r in answers)
        # B's short cells cost it far less than A's spinning; C spent almost nothing
        assert used(b) < 5 and used(c) < 1, (used(b), used(c))
        assert c.run("print(z)").stdout == "3\n" and b.run("print(y)").stdout == "2\n"
        spent(a)


def test_many_sessions_spinning_at_once_each_stop_at_their_own_budget() -> None:
    """Five sessions spin at once on a host with fewer CPUs (one watcher thread reads all):
    each is stopped within its own budget plus the overshoot, never charged another's."""
    sessions = [session(1) for _ in range(5)]
    try:
        for s in sessions:
            metered(s).run("x = 1")
        workers = [threading.Thread(target=spin_until_spent, args=(s,)) for s in sessions]
        for w in workers:
            w.start()
        for w in workers:
            w.join(WAIT_S)
        assert all(not w.is_alive() for w in workers)
        counted = [used(s) for s in sessions]
        assert all(u <= 1 + MARGIN_S for u in counted), counted
        for s in sessions:
            spent(s)
    finally:
        for s in sessions:
            s.close()


def test_a_sibling_whose_replay_diverges_spends_at_most_an_episode() -> None:
    """A cell that was cheap in its parent spins when the sibling replays it (it reads the
    wall clock): the replay (not counted, docs) is stopped at the episode's CPU, the sibling
    then has what is left of its parent's and no more, and the parent's own budget is
    untouched."""
    start = time.time() + 1.0
    with session(1) as parent:
        metered(parent).run(f"import time\nT = {start!r}")
        cheap = parent.run("import time\nif time.time() > T:\n    while True:\n        pass\n"
                           "x = 7")
        assert cheap.status == "ok", cheap  # ran before T
        time.sleep(max(0.0, start - time.time()) + 0.2)
        left = 1 - used(parent)
        (sibling,) = parent.fork(1)
        with sibling:
            assert sibling._jail is not None
            meter = sibling._jail.meter
            assert meter is not None
            replayed = meter.seconds()  # the whole jail's count, its start and replay included
            assert replayed <= 1 + MARGIN_S + 0.5, replayed
            if not sibling._cpu_spent:
                spin_until_spent(sibling)
            assert used(sibling) <= left + MARGIN_S, used(sibling)
            assert meter.seconds() - replayed <= left + MARGIN_S
            spent(sibling)
        assert parent.run("print(x)").stdout == "7\n"
        assert used(parent) < 1


def test_each_fork_sibling_has_what_is_left_of_its_parents_cpu() -> None:
    """Documented (docs/sandbox.md, forks): each sibling has what is left of its parent's
    episode CPU, its own from then on; so a family of n siblings may spend n times what the
    parent had left, each of them no more than that."""
    with session(1.5) as parent:
        metered(parent).run("import time\nwhile time.process_time() < 0.5:\n    pass")
        left = 1.5 - used(parent)
        siblings = parent.fork(2)
        try:
            for sibling in siblings:
                spin_until_spent(sibling)
                assert left <= used(sibling) <= left + MARGIN_S, used(sibling)
                spent(sibling)
        finally:
            for sibling in siblings:
                sibling.close()
        assert used(parent) < 1.5 and parent.run("print(1)").stdout == "1\n"


# --- without a CPU cgroup (SANDBOX_NO_CGROUP=1): RLIMIT_CPU --------------------------------


def test_without_cgroups_the_threads_of_the_interpreter_share_its_rlimit(no_cgroup: None
                                                                          ) -> None:
    """RLIMIT_CPU counts every thread of the interpreter: two GIL-free threads are killed
    (SIGXCPU) once they spent the budget together; the last CPU reading the cell printed is
    within it."""
    # (without a cgroup each process's address space is its share of the memory: room for
    # the threads' stacks)
    limits = Limits(wall_s=60.0, cpu_s=60.0, memory_bytes=1 << 30, processes=4,
                    output_bytes=1 << 16)
    cell = ("import threading, hashlib, time\nthreading.stack_size(1 << 20)\n"
            "b = bytes(1 << 20)\n"
            "def f():\n    while True:\n        hashlib.sha256(b).digest()\n"
            "for _ in range(2):\n    threading.Thread(target=f, daemon=True).start()\n"
            "while True:\n    print(time.process_time(), flush=True)\n    time.sleep(0.05)")
    with session(1, limits) as s:
        assert s.cpu_seconds() is None
        out = s.run(cell)
        assert out.status == "timeout" and "killed by signal 24" in out.stderr, out
        assert float(out.stdout.split()[-1]) <= 1 + MARGIN_S, out.stdout[-200:]


def test_without_cgroups_resets_hand_out_no_cpu_past_the_documented_bound(no_cgroup: None
                                                                            ) -> None:
    """A cell that spins to SIGXCPU on every call: the server counts each killed
    interpreter's CPU (what it reaped) and the next one gets only what is left; with nothing
    left the episode ends, named. Together they were granted the episode rounded up to a
    whole second (one grant: each burned to its RLIMIT_CPU)."""
    limits = Limits(wall_s=60.0, cpu_s=60.0, memory_bytes=256 << 20, processes=2,
                    output_bytes=1 << 16)
    cell = ("import resource\nprint(resource.getrlimit(resource.RLIMIT_CPU)[0], flush=True)\n"
            + SPINNER)
    granted = 0
    with session(1.5, limits) as s:
        for _ in range(limits.processes + 1):
            out = s.run(cell)
            assert out.status == "timeout", out
            if "killed by signal 24" in out.stderr or "(episode_cpu_s): stopped" in out.stderr:
                granted += int(out.stdout.split()[0])  # burned to its RLIMIT_CPU
            if out.stderr.endswith("(episode_cpu_s): stopped\n"):
                break
        else:
            raise AssertionError("the episode's CPU never ran out")
        assert granted == 2, granted  # ceil(1.5): one interpreter, never a second
        spent(s)
        assert s.run("print('ran')").stdout == ""


def test_without_cgroups_interpreters_stopped_by_their_wall_time_count_together(
        no_cgroup: None) -> None:
    """Calls that spin until their wall limit (a reset each, the interpreter killed before
    its RLIMIT_CPU): each fresh interpreter's RLIMIT_CPU is what the earlier ones left,
    rounded up, never a fresh budget; the episode ends once they spent it together."""
    limits = Limits(wall_s=0.5, cpu_s=60.0, memory_bytes=256 << 20, processes=2,
                    output_bytes=1 << 16)
    cell = ("import resource\nprint(resource.getrlimit(resource.RLIMIT_CPU)[0], flush=True)\n"
            + SPINNER)
    grants = []
    with session(1.5, limits) as s:
        for _ in range(60):  # 30 s of spinning: far more than 1.5 CPU seconds, even loaded
            out = s.run(cell)
            assert out.status == "timeout", out
            grants += [int(out.stdout.split()[0])] if out.stdout else []
            if out.stderr.endswith(("(episode_cpu_s): stopped\n", _session.CPU_SPENT)):
                break
        else:
            raise AssertionError(f"the episode's CPU never ran out: {grants}")
        assert grants[0] == 2 and grants == sorted(grants, reverse=True), grants
        assert grants[-1] == 1, grants  # what was left, rounded up to a second
        spent(s)


def test_without_cgroups_a_jail_that_retires_hands_its_successor_only_what_is_left(
        no_cgroup: None) -> None:
    """A cell burns a CPU second, leaves a folder tree too deep for its server to clean and
    crashes: the server counts what the interpreter spent, says so in its reply and retires;
    the jail that replaces it starts with what is left of the episode (1.5 of 2.5 seconds at
    most: RLIMIT_CPU 2), never a fresh budget (3)."""
    limits = Limits(wall_s=60.0, cpu_s=60.0, memory_bytes=256 << 20, processes=4,
                    output_bytes=1 << 16)
    with session(2.5, limits) as s:
        first = s._jail
        out = s.run("import os, time\nfor _ in range(3500):\n    os.mkdir('a')\n"
                    "    os.chdir('a')\nos.chdir('/work')\n"
                    "while time.process_time() < 1.0:\n    pass\nos._exit(3)")
        assert out.status == "runtime_error" and "exit code 3" in out.stderr, out
        assert s._jail is not first, "the server cleaned the tree: nothing retired"
        after = s.run("import os, resource\n"
                      "print(resource.getrlimit(resource.RLIMIT_CPU)[0], os.listdir('.'))")
        assert after.stdout == "2 []\n", after
        assert after.stderr.startswith("[sandbox: the session was reset"), after


@pytest.mark.xfail(strict=True, reason=(
    "open: without a CPU cgroup nothing counts processes the kernel reaps unseen: a cell "
    "that ignores SIGCHLD forks children one after another (each under its own RLIMIT_CPU), "
    "which no wait4 reports (sandbox/_in_jail/session_server.py reset counts what the "
    "server reaps, RUSAGE_CHILDREN) and the host's /proc backstop (_cpu_watch.ProcMeter) "
    "sees each only while it lives; together they are bounded only by the session's wall "
    "time (and idle_s between calls). The cgroup meters (_cgroup.CpuMeter) count them"))
def test_without_cgroups_children_reaped_unseen_count_too(no_cgroup: None) -> None:
    limits = Limits(wall_s=60.0, cpu_s=60.0, memory_bytes=256 << 20, processes=4,
                    output_bytes=1 << 16)
    # each child measures its own 0.25 CPU seconds; the cell stops once they spent more
    # than the documented bound (or after 40 s of wall time)
    cell = ("import os, signal, time\nsignal.signal(signal.SIGCHLD, signal.SIG_IGN)\n"
            "r, w = os.pipe()\nspent, end = 0.0, time.monotonic() + 40\n"
            "while spent <= 6 and time.monotonic() < end:\n"
            "    try:\n        pid = os.fork()\n    except OSError:\n"
            "        time.sleep(0.01)\n        continue\n"
            "    if pid == 0:\n        t = time.process_time()\n"
            "        while time.process_time() - t < 0.25:\n            pass\n"
            "        os.write(w, b'x')\n        os._exit(0)\n"
            "    os.read(r, 1)\n    spent += 0.25\nprint(spent)")
    with session(1, limits) as s:
        out = s.run(cell)
        assert out.status == "ok", out
        assert float(out.stdout) <= limits.processes * 1 + MARGIN_S, out.stdout
