"""Sandbox sessions: state that outlives a call, resets that touch one session only, forks
whose siblings start from the parent's state and share nothing after, and the attacks a
session must resist (a sibling or a later session reading what another left, fork bombs,
signals at the server, output floods, sessions never closed)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

import sandbox
from sandbox import Limits, SessionOptions, _session, open_session

pytestmark = pytest.mark.usefixtures("sandbox_ready")

FAST = Limits(wall_s=3.0, cpu_s=3.0, memory_bytes=256 << 20, processes=16,
              output_bytes=1 << 16)


def session(**options):
    return open_session(limits=FAST, options=SessionOptions(**options))


def test_variables_imports_and_files_outlive_a_call():
    with session() as s:
        assert s.run("import math\nx = 41\nopen('notes.txt', 'w').write('kept')\n"
                     "open('/tmp/t', 'w').write('tmp')").ok
        out = s.run("x += 1\nprint(x, math.floor(2.5), open('notes.txt').read(), "
                    "open('/tmp/t').read())")
        assert out.ok and out.stdout == "42 2 kept tmp\n", out
        failed = s.run("y = 1\nraise ValueError('boom')")
        assert failed.status == "runtime_error" and "ValueError: boom" in failed.stderr
        assert "<cell" in failed.stderr and "_session" not in failed.stderr
        assert s.run("print(x + y)").stdout == "43\n"  # a failing cell keeps the state


def test_a_timeout_resets_only_its_own_session_and_the_next_call_says_so():
    with session() as victim, session() as looper:
        victim.run("v = 'alive'")
        looper.run("w = 1")
        assert looper.run("while True:\n    pass").status == "timeout"
        after = looper.run("print(w)")
        assert after.stderr.startswith("[sandbox: the session was reset")
        assert "NameError" in after.stderr and looper.resets == 1
        assert looper.run("print(2)").stderr == ""  # the note comes once
        assert victim.run("print(v)").stdout == "alive\n" and victim.resets == 0


@pytest.mark.parametrize("code", ["import os\nos._exit(3)",
                                  "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"])
def test_an_interpreter_that_dies_resets_the_session(code):
    with session() as s:
        s.run("open('f', 'w').write('x')\nz = 1")
        died = s.run(code)
        assert died.status in ("runtime_error", "memory_limit")
        assert "the interpreter ended" in died.stderr
        again = s.run("import os\nprint(os.listdir('.'), 'z' in globals())")
        assert again.stdout == "[] False\n" and "reset" in again.stderr


def test_a_new_session_finds_nothing_another_left():
    with session() as first:
        first.run("open('left.txt', 'w').write('secret')\nopen('/tmp/left', 'w').write('s')\n"
                  "import os\nos.mkdir('d')\nsecret = 7")
    with session() as second:
        out = second.run("import os\nprint(sorted(os.listdir('.')), os.listdir('/tmp'), "
                         "'secret' in globals())")
        assert out.stdout == "[] [] False\n", out


def test_fork_siblings_start_from_the_state_and_share_nothing_after():
    with session(seed=5) as parent:
        parent.run("import random\nbase = [1, 2]\nopen('shared.txt', 'w').write('from parent')\n"
                   "random.random()")
        siblings = parent.fork(2)
        try:
            draws = {s.run("print(random.random())").stdout for s in [parent, *siblings]}
            assert len(draws) == 1  # the random state is the parent's, in each sibling
            a, b = siblings
            assert a.run("base.append(3)\nopen('shared.txt', 'w').write('a wrote')\n"
                         "open('only_a', 'w').write('a')").ok
            out = b.run("import os\nprint(base, open('shared.txt').read(), "
                        "os.path.exists('only_a'))")
            assert out.stdout == "[1, 2] from parent False\n", out
            assert parent.run("print(base, open('shared.txt').read())").stdout == \
                "[1, 2] from parent\n"
            assert a.run("print(base)").stdout == "[1, 2, 3]\n"
            b.run("while True:\n    pass")  # a sibling's reset is its own
            assert a.run("print(len(base))").stdout == "3\n"
        finally:
            for sibling in siblings:
                sibling.close()


def test_programs_cannot_reach_the_server_or_the_jail():
    with session() as s:
        s.run("k = 1")
        out = s.run("import os, signal\ntry:\n    os.kill(1, signal.SIGKILL)\n"
                    "except PermissionError:\n    print('refused')\n"
                    "try:\n    os.kill(-1, signal.SIGKILL)\nexcept ProcessLookupError:\n"
                    "    pass\nprint('still here')")
        assert out.stdout == "refused\nstill here\n", out
        limits = s.run("import resource\nfor kind in (resource.RLIMIT_CPU, resource.RLIMIT_NPROC,"
                       " resource.RLIMIT_AS):\n    soft, hard = resource.getrlimit(kind)\n"
                       "    try:\n        resource.setrlimit(kind, (hard + 1, hard + 1))\n"
                       "        print('raised')\n    except (ValueError, OSError):\n"
                       "        print('kept')")
        assert limits.stdout == "kept\nkept\nkept\n", limits
        assert s.run("print(k)").stdout == "1\n"


def test_a_fork_bomb_is_bounded_and_stays_in_its_session():
    with session() as bystander, session() as bomber:
        bystander.run("b = 'fine'")
        bomb = bomber.run("import os\nwhile True:\n    os.fork()")
        assert bomb.status in ("timeout", "runtime_error")
        assert bystander.run("print(b)").stdout == "fine\n"
        assert bomber.run("print(1 + 1)").stdout == "2\n"


def test_processes_a_cell_forks_end_with_the_cell_and_never_answer_for_it():
    with session() as s:
        out = s.run("import os, time\nif os.fork() == 0:\n    time.sleep(0.3)\n"
                    "print('cell', os.getpid() == 1)")
        assert out.ok and "cell" in out.stdout
        time.sleep(0.5)  # the child ran off the cell's end meanwhile: it ended there
        for i in range(3):
            assert s.run(f"print({i})").stdout == f"{i}\n"


def test_huge_output_is_cut_and_the_session_lives_on():
    with session() as s:
        s.run("n = 5")
        flood = s.run("print('9' * 10 ** 7)")
        assert flood.status == "output_limit" and flood.truncated
        assert len(flood.stdout_bytes) <= FAST.output_bytes
        assert s.run("print(n)").stdout == "5\n"


def test_memory_past_the_limit_is_data():
    with session() as s:
        s.run("m = 1")
        out = s.run("x = bytearray(4 << 30)")
        assert out.status == "memory_limit", out
        assert s.run("print(m)").stdout in ("1\n", "")  # kept, or reset (OOM killer)


def test_the_episode_budget_and_the_session_count_are_bounded(monkeypatch):
    # the episode's CPU well above its wall time: the wall budget is what ends it (with both
    # at about 1 s, the host's CPU watch could stop the spinning cell first: another message)
    with session(episode_wall_s=1.0, episode_cpu_s=30) as s:
        start = time.monotonic()
        assert s.run("while True:\n    pass").status == "timeout"
        assert time.monotonic() - start < 1.0 + 5.0
        spent = s.run("print(1)")
        assert spent.status == "timeout" and "episode time is spent" in spent.stderr
    monkeypatch.setenv("SANDBOX_MAX_SESSIONS", "2")
    first, second = session(), session()
    try:
        with pytest.raises(sandbox.SandboxError, match="sessions are open"):
            session()
        first.close()
        session().close()
    finally:
        first.close()
        second.close()


def test_an_idle_session_ends_itself_and_close_ends_its_jail():
    with session(idle_s=0.5) as s:
        s.run("gone = 1")
        time.sleep(1.5)  # its jail ended itself: the session comes back reset
        again = s.run("print(1)")
        assert again.status == "runtime_error" and "did not run" in again.stderr
        assert s.run("print('gone' in globals())").stdout == "False\n" and s.resets == 1
    with session() as t:
        t.run("import subprocess\np = subprocess.Popen(['/bin/sleep', '60'])")
        proc = t._jail.proc
    assert proc.wait(5) is not None  # the jail, the sleep with it, is gone


def test_no_leak_while_attacks_run_beside():
    attacks = ["import os, signal\nos.kill(-1, signal.SIGKILL)",
               "import os\nwhile True:\n    os.fork()",
               "x = bytearray(10 ** 10)", "print('9' * 10 ** 8)",
               "open('/tmp/answer', 'w').write('13')\nimport builtins\nbuiltins.print = None"]
    errors = []

    def attack(code):
        try:
            with session() as s:
                s.run(code)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    with session() as victim:
        victim.run("secret = 42\nopen('mine', 'w').write('42')")
        threads = [threading.Thread(target=attack, args=(code,)) for code in attacks]
        for thread in threads:
            thread.start()
        outs = [victim.run("import os\nprint(secret, open('mine').read(), os.listdir('/tmp'))")
                for _ in range(5)]
        for thread in threads:
            thread.join()
    assert not errors
    assert all(out.stdout == "42 42 []\n" for out in outs), outs


@pytest.fixture(scope="module")
def bystander():
    """A session holding state while the escape suite runs in others beside it."""
    with open_session(limits=FAST, options=SessionOptions(episode_wall_s=600)) as s:
        assert s.run("secret = 42\nopen('mine', 'w').write('42')").ok
        yield s


def escape_attacks():
    from test_security import ATTACKS  # the jail's escape suite (tests/sandbox/test_security.py)

    return ATTACKS


def status_ok_and_thread_lives_on(ex, host):
    assert ex.status == "ok" and ex.stdout == "main done\n", ex


SESSION_CHECKS = {
    # the interpreter's socket to its server is the one fd a session adds: over it a cell
    # reaches its own server only, which reads a status word from it and nothing else
    "leaked_file_descriptors": lambda ex, host: (
        ex.stdout.strip().startswith("[0, 1, 2, ") and ex.stdout.count(",") == 3
        or pytest.fail(ex.stdout)),
    # a session's threads may outlive the call (bounded by the episode's CPU rlimit and the
    # session's life): the call ends when its cell does
    "non_daemon_thread_outlives_main": status_ok_and_thread_lives_on,
}


@pytest.mark.parametrize("name", sorted(escape_attacks()))
def test_the_escape_suite_holds_in_a_session(name, host, bystander, monkeypatch):
    """Each attack of the escape suite as a session's call: contained as in a run (its own
    check, the host unchanged), then its session still answers, and a session beside it
    keeps its state and sees nothing of it."""
    import test_security

    attack = escape_attacks()[name]
    check = SESSION_CHECKS.get(name, attack.check)
    monkeypatch.setenv("SANDBOX_TEST_SECRET", host.token)
    sentinel = subprocess.Popen(["sleep", "30"])  # a host process no jail may kill
    test_security._SENTINEL.append(sentinel)
    code = (attack.code.replace("{canary}", str(host.canary))
            .replace("{canary_dir}", str(host.canary.parent)).replace("{token}", host.token))
    try:
        with open_session(limits=attack.limits,
                          options=SessionOptions(episode_wall_s=600)) as s:
            execution = s.run(code)
            check(execution, host)
            assert sentinel.poll() is None
            assert s.run("print(6 * 7)").stdout == "42\n"
    finally:
        sentinel.kill()
        sentinel.wait()
        test_security._SENTINEL.clear()
    seen = bystander.run("import os\nprint(secret, open('mine').read(), sorted(os.listdir('.')),"
                         " os.listdir('/tmp'))")
    assert seen.stdout == "42 42 ['mine'] []\n", seen


def test_a_cancel_stops_the_call_and_resets_only_it():
    with session() as s:
        s.run("kept_until_cancel = 1")
        cancel = sandbox.Cancel(after_s=0.3)
        try:
            out = s.run("while True:\n    pass", cancel=cancel)
        finally:
            cancel.close()
        assert out.status == "timeout" and out.wall_s < FAST.wall_s
        assert "reset" in s.run("print(1)").stderr


def test_notebook_cells_display_their_last_expression_and_name_their_error():
    with session() as s:
        assert s.run_cell("a = 123").display is None
        assert s.run_cell("a").display == "123"
        assert s.run_cell("print(a)\nNone").display is None
        raised = s.run_cell("raise KeyError('k')")
        assert raised.error == ("KeyError", "'k'") and raised.execution.status == "runtime_error"
        assert "File \"<cell" in raised.execution.stderr and "session_server" not in \
            raised.execution.stderr
        assert s.run("a").stdout == ""  # run() displays nothing


def test_a_reset_hands_out_no_fresh_cpu_budget():
    """The session's CPU (episode_cpu_s) holds across resets: the interpreter after a reset
    gets what is left, at least a second."""
    with open_session(limits=Limits(wall_s=30, cpu_s=30, memory_bytes=256 << 20),
                      options=SessionOptions(episode_cpu_s=3, episode_wall_s=120)) as s:
        burn = s.run("import os, time\nwhile time.process_time() < 1.2:\n    pass\n"
                     "os.kill(os.getpid(), 9)")  # 1.2 CPU seconds, then a crash: a reset
        assert "the interpreter ended" in burn.stderr, burn
        soft = s.run("import resource\nprint(resource.getrlimit(resource.RLIMIT_CPU)[0])")
        assert int(soft.stdout) <= 2, soft  # 3 - 1.2, rounded up


# --- the episode's CPU: every process of the session together ----------------------------

SPIN = Limits(wall_s=60.0, cpu_s=60.0, memory_bytes=256 << 20, processes=16,
              output_bytes=1 << 16)
CPU_MARGIN_S = 1.0
"""CPU seconds past the episode's before the host stops a session (see
test_redteam_sessions.CPU_MARGIN_S)."""
SPIN_WITH_CHILDREN = ("import os\nfor _ in range(3):\n    if os.fork() == 0:\n        break\n"
                      "print('spinning', flush=True)\nwhile True:\n    pass")


def metered(s):
    if s.cpu_seconds() is None:
        pytest.skip("no cgroup counts CPU on this host: RLIMIT_CPU bounds each process")
    return s


def test_a_cell_and_its_children_are_stopped_at_the_episode_cpu_and_keep_their_output():
    with open_session(limits=SPIN, options=SessionOptions(episode_cpu_s=2,
                                                          episode_wall_s=600)) as s:
        metered(s).run("x = 1")
        out = s.run(SPIN_WITH_CHILDREN)
        assert out.status == "timeout" and out.stdout == "spinning\n" * 4, out
        assert out.stderr.endswith("sandbox: the session's processes spent its episode CPU "
                                   "time (episode_cpu_s): stopped\n"), out
        assert 2 <= s.cpu_seconds() <= 2 + CPU_MARGIN_S
        after = s.run("print(x)")
        assert after.status == "timeout" and after.stdout == "", after
        assert "episode CPU time" in after.stderr and s.resets == 1, after
        (sibling,) = s.fork(1)  # nothing left to hand on
        with sibling:
            assert sibling.run("print(1)").stderr.endswith(_session.CPU_SPENT)


def test_a_sibling_has_what_is_left_of_its_parents_cpu_and_the_parent_keeps_its_own():
    with open_session(limits=SPIN, options=SessionOptions(episode_cpu_s=3,
                                                          episode_wall_s=600)) as parent:
        metered(parent).run("import time\nwhile time.process_time() < 1.0:\n    pass\n"
                            "x = 7")
        used = parent.cpu_seconds()
        assert 0.9 <= used < 3, used  # (the interpreter started before the meter did)
        (sibling,) = parent.fork(1)
        with sibling:
            # its replay (about the parent's second) is not counted: it has 3 - used left
            assert sibling.cpu_seconds() < 1.0, sibling.cpu_seconds()
            assert sibling.run("print(x)").stdout == "7\n"
            out = sibling.run(SPIN_WITH_CHILDREN)
            assert out.status == "timeout", out
            assert 3 - used <= sibling.cpu_seconds() <= 3 - used + CPU_MARGIN_S
        assert parent.run("print(x)").stdout == "7\n"  # the sibling spent its own
        assert parent.cpu_seconds() < 3


def test_a_sessions_cpu_group_goes_with_it_and_a_killed_callers_is_swept(tmp_path):
    from sandbox import _cgroup

    host = _cgroup.cgroup_v1()
    if host is None or host.cpuacct_mount is None:
        pytest.skip("no writable cgroup v1 cpuacct hierarchy here (cgroup v2: nsjail "
                    "makes and removes the jail's group)")
    with session() as s:
        path = s._jail.group.cpu_path
        assert os.path.isdir(path) and s.cpu_seconds() is not None
    assert not os.path.exists(path)
    # a caller killed with its session open: its groups go at the next sweep
    script = tmp_path / "caller.py"
    script.write_text("import sandbox, sys, time\n"
                      "s = sandbox.open_session()\n"
                      "print(s._jail.group.cpu_path, s._jail.group.path, flush=True)\n"
                      "time.sleep(600)\n")
    caller = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": os.getcwd()}, text=True)
    try:
        left = caller.stdout.readline().split()
    finally:
        caller.kill()
        caller.wait()
    assert len(left) == 2 and all(os.path.isdir(p) for p in left), left
    deadline = time.monotonic() + 60  # its jails end once their control sockets close
    while any(os.path.exists(p) for p in left) and time.monotonic() < deadline:
        _cgroup.sweep(host)
        time.sleep(0.2)
    assert not any(os.path.exists(p) for p in left)


def test_without_cgroups_the_episode_cpu_is_the_rlimit_of_each_process(no_cgroup):
    """SANDBOX_NO_CGROUP=1 (or a host without a CPU cgroup): no meter; the interpreter's
    RLIMIT_CPU is the episode's, rounded up to a second: past it the interpreter is killed
    (SIGXCPU), and its server, which counted what it spent, starts no other: the episode
    is spent, and later calls say so without running."""
    with open_session(limits=SPIN, options=SessionOptions(episode_cpu_s=0.5,
                                                          episode_wall_s=600)) as s:
        assert s.cpu_seconds() is None
        limit = s.run("import resource\nprint(resource.getrlimit(resource.RLIMIT_CPU)[0])")
        assert limit.stdout == "1\n", limit
        out = s.run("while True:\n    pass")
        assert out.status == "timeout" and "killed by signal 24" in out.stderr, out
        assert out.stderr.endswith("(episode_cpu_s): stopped\n"), out
        after = s.run("print('fresh')")
        assert after.status == "timeout" and after.stdout == "", after
        assert after.stderr.endswith(_session.CPU_SPENT) and "reset" in after.stderr, after


def test_a_v2_group_meter_counts_every_process_it_held_those_that_exited_included(
        monkeypatch):
    """The cgroup v2 meter (`cpu.stat` of the jail's group) read as a session reads it,
    on a cgroup2 mount of this host (a hybrid host's too): two children that burned CPU
    and exited still count."""
    from sandbox import _cgroup

    with open("/proc/self/mounts") as fh:
        mount = next((f[1] for f in map(str.split, fh) if len(f) > 2 and f[2] == "cgroup2"),
                     None)
    if mount is None or not os.access(mount, os.W_OK):
        pytest.skip("no writable cgroup2 mount on this host")
    group = os.path.join(mount, f"sandbox-meter-test-{os.getpid()}")
    os.mkdir(group)
    burn = ("import os, sys, time\n"
            "for _ in range(2):\n"
            "    if os.fork() == 0:\n"
            "        while time.process_time() < 0.3:\n            pass\n"
            "        os._exit(0)\n"
            "os.wait()\nos.wait()\nprint('done', flush=True)\nsys.stdin.read()")
    proc = subprocess.Popen(["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"',
                             os.path.join(group, "cgroup.procs"), sys.executable, "-c", burn],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "done\n"
        monkeypatch.setattr(_cgroup, "cgroup_v2_root", lambda: mount)
        meter = _cgroup.v2_cpu_meter(proc.pid)
        assert meter is not None and meter.path == os.path.join(group, "cpu.stat")
        assert meter.seconds() >= 0.6, meter.seconds()
        meter.close()
        assert _cgroup.v2_cpu_meter(os.getpid()) is None  # our own group: never a jail's
    finally:
        proc.stdin.close()
        proc.wait()
        os.rmdir(group)
