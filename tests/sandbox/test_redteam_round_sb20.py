"""Red team (rt42) of h-sb21 as merged on main at 91f6ad9 (06d8e42, 02889a0, 5c90e3a):
`_jail.SECCOMP_POLICY`'s clone mask 0x7e028000 (CLONE_NEW* and CLONE_PARENT refused, clone3
ENOSYS); reaping on a clock (`harness_wire.Channel._wait`'s `reap_at`, `REAP_S`),
`harness_io.run_case`'s `wire.reap_exited((pid,))`, the cold zygote's `reap_exited()` at
each request; `_cache._open_root` (trailing slashes, the last name opened in its parent
without following links) and `_cache._make_enterable` (O_PATH|O_NOFOLLOW|O_DIRECTORY, then
chmod through /proc/self/fd/N).

Rules under attack: no program process makes a process that is not its own descendant, by
any ABI, flag position or call (i386 `int 0x80`, x32 numbers, clone's other arguments,
unshare/setns, ptrace, exit signals other than SIGCHLD, a program subreaper, a parent-death
signal); honest programs (threads, subprocess, posix_spawn, multiprocessing's fork, spawn
and forkserver contexts, ProcessPoolExecutor, os.fork in a thread) pass cold and warm,
plain and across a replacement; the reaping steals no exit status the judge or the program
reads (an io test's own process, a worker's or a replacement worker's child) and holds no
process; remove_tree walks no root without a last name, never follows a link at any step
a racer can reach, and ignores errors as shutil.rmtree(ignore_errors=True) does.

Classes: Reaching another run (processes outside one's tree, seccomp ABIs, ptrace, signals),
Resources (orphan and zombie floods, stopped processes), Exit and output forgery (a stolen
or forged exit status), Reaching the host (remove_tree races and odd roots), false losses.

90 probes: 83 held, 7 open (strict xfails) under 2 roots at the round; both roots (7
xfails) closed after it:
- Closed by h-sb22: NO_SHM (both modes, a false loss of honest programs, not new in
  h-sb21): the jail had no /dev/shm, so multiprocessing's SemLock (sem_open) raised
  FileNotFoundError: ProcessPoolExecutor (every context) and multiprocessing.Queue/Lock
  failed plain and as assert tests, cold and warm, where python3 on a host runs them (6
  xfails). Every jail now mounts a private /dev/shm tmpfs (`_jail.jail_argv`), which a
  warm server empties after every run (tests/sandbox/test_dev_shm.py).
- Closed after the round: REMOVE_NUL (host, latent: callers pass mkdtemp paths):
  `_cache._open_root` let os.open's ValueError (a root holding a NUL) out of remove_tree,
  whose docstring promises errors ignored as shutil.rmtree(root, ignore_errors=True). A
  root holding a NUL names no file and is not walked.

Held: i386 `int 0x80` (getpid, clone(CLONE_PARENT)) kills the program by SIGSYS (kafel's
architecture check), x32 clone answers ENOSYS; CLONE_PARENT is refused with any other
flag (CLONE_VM|CLONE_VFORK, exit signal 0 or SIGKILL, bits past 32), 0x8000 in clone's
other arguments (ptid, ctid, tls) makes a plain fork, unshare/setns/ptrace are EPERM;
children with exit signal 0 (waitable only with __WCLONE), a program subreaper's zombies, a
PR_SET_PDEATHSIG(SIGSTOP) child left stopped, hopping orphan chains, orphan floods: each
ended and reaped, the replacement or next io test starts 3 threads at 4 processes; orphans
made for ever leave an assert or io test its timeout at its own limit (the reaping neither
spins nor blocks past it); an io
test's own exit status is its own while 20 orphans exit beside it (0 with 7s, 3 with 0s); a
program's and a replacement worker's children keep their statuses for the program's
waitpid; honest programs (spawn and forkserver contexts, os.fork in a thread, subprocess
in a new session, posix_spawn with setsid, statuses read late) pass; remove_tree of "",
"/", ".", "..", "x/.", "x/.//" walks nothing; a relative root goes; roots that are files,
fifos, links to files or dangling links with slashes stay or go alone; a racer swapping a
refused folder (or the root) for a link at its second (O_PATH pin) or third open reaches
nothing outside; no /proc: nothing outside is chmodded.

Not probed here, already held elsewhere: clone(CLONE_PARENT) itself, fork, vfork
(subprocess), posix_spawn, threads and the fork context (tests/sandbox/test_sb19_fixes.py),
a chmod-time swap (test_redteam_round_sb19.py). A program's own child may answer the
worker's call (a forked copy of the worker): its own verdict, as held in sb19.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path
from typing import Any

import pytest
from sandbox_probes import DIED, PASS, SHORT, Outcome, ok_stdout, raced_removal
from sandbox_probes import outcomes as probe_outcomes

import sandbox
from sandbox import _cache
from sandbox._cache import remove_tree
from sandbox._runner import Mode

MODES: tuple[Mode, ...] = ("cold", "warm")
LIMITS = dataclasses.replace(SHORT, wall_s=20.0, test_wall_s=8.0, cpu_s=10.0)
FOUR = dataclasses.replace(LIMITS, processes=4)

outcomes = functools.partial(probe_outcomes, limits=LIMITS)

pytestmark = pytest.mark.usefixtures("sandbox_ready")

BASE = (
    "import os, sys, time, signal, threading, ctypes, mmap\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "def sc(*a):\n    r = libc.syscall(*a)\n    return r if r >= 0 else -ctypes.get_errno()\n"
    "def clone(flags, *rest):\n"  # x86_64 clone(flags, stack, ptid, ctid, tls)
    "    rest = (tuple(rest) + (0, 0, 0, 0))[:4]\n"
    "    pid = sc(56, flags, *rest)\n"
    "    if pid == 0:\n        os._exit(4)\n"
    "    if pid < 0:\n        return pid\n"
    "    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])\n"
    "def crash():\n    os._exit(3)\n"
    "def started():\n    threading.stack_size(256 * 1024)\n    ev = threading.Event()\n"
    "    n, ts = 0, []\n    try:\n        for _ in range(20):\n"
    "            t = threading.Thread(target=ev.wait)\n            t.start()\n"
    "            ts.append(t)\n            n += 1\n    except RuntimeError:\n        pass\n"
    "    ev.set()\n    [t.join() for t in ts]\n    return n\n"
    "def orphan(body=None, wait=True):\n"
    "    r, w = os.pipe()\n    pid = os.fork()\n    if pid == 0:\n        try:\n"
    "            if os.fork() == 0:\n                os.close(r)\n                try:\n"
    "                    if body:\n                        body()\n"
    "                finally:\n                    os._exit(7)\n"
    "        finally:\n            os._exit(0)\n"
    "    os.close(w)\n    os.waitpid(pid, 0)\n    if wait:\n        os.read(r, 1)\n"
    "    os.close(r)\n"
)
"""`clone(flags, ...)`: a raw clone whose child exits 4 (4 once waited for, -errno when
refused); `started()`: threads until RLIMIT_NPROC refuses one (3 at 4 processes);
`orphan(body)`: a grandchild run `body` and exit 7 after its parent exited (an orphan, the
reaper's child), waited for by its pipe's EOF."""

INT80 = (
    "code = bytes([0x53, 0x89, 0xf8, 0x89, 0xf3, 0x89, 0xd1, 0x31, 0xd2, 0xcd, 0x80, 0x5b,"
    " 0xc3])\n"
    "m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
    "m.write(code)\n"
    "i386 = ctypes.CFUNCTYPE(ctypes.c_long, ctypes.c_long, ctypes.c_long, ctypes.c_long)("
    "ctypes.addressof(ctypes.c_char.from_buffer(m)))\n"
)
"""`i386(nr, ebx, ecx)`: a syscall by `int 0x80`, the i386 ABI (nr 20 getpid, 120 clone
whose flags are in ebx: seccomp's args[0], which the filter would read under x86_64's
number 120, getresgid, were the architecture not checked)."""


# --- (1) seccomp: other ABIs, other flag positions, other calls -----------------------------


@pytest.mark.parametrize("mode", MODES)
def test_an_i386_syscall_kills_the_program(mode: Mode) -> None:
    code = BASE + INT80 + "print('a', flush=True)\ni386(20, 0, 0)\nprint('b')\n"
    ex = sandbox.run(code, limits=LIMITS, mode=mode)
    assert (ex.status, ex.signal, ex.stdout) == ("runtime_error", 31, "a\n")


@pytest.mark.parametrize("mode", MODES)
def test_an_i386_clone_parent_kills_the_program_and_makes_nothing(mode: Mode) -> None:
    code = BASE + INT80 + (
        "print('a', flush=True)\npid = i386(120, 0x8000 | 17, 0)\n"
        "if pid == 0:\n    os._exit(0)\nprint('b', pid)\n")
    ex = sandbox.run(code, limits=LIMITS, mode=mode)
    assert (ex.status, ex.signal, ex.stdout) == ("runtime_error", 31, "a\n")


@pytest.mark.parametrize("mode", MODES)
def test_an_x32_clone_parent_makes_nothing(mode: Mode) -> None:
    """x32 numbers (nr | 0x40000000): ENOSYS where the kernel has no x32 ABI, EPERM where
    the filter refuses them; never a process."""
    code = BASE + (
        "pid = sc(0x40000000 | 56, 0x8000 | 17, 0, 0, 0, 0)\n"
        "if pid == 0:\n    os._exit(0)\nprint(pid in (-1, -38), pid)\n")
    assert ok_stdout(code, mode, limits=LIMITS).split()[0] == "True"


@pytest.mark.parametrize("mode", MODES)
def test_clone_parent_is_refused_with_any_other_flag(mode: Mode) -> None:
    """CLONE_VFORK, CLONE_VM|CLONE_VFORK, exit signal 0 or SIGKILL, CLONE_DETACHED, a bit
    past 32 (the kernel reads the low 32)."""
    flags = [0x8000 | 0x4000 | 17, 0x8000 | 0x4100 | 17, 0x8000, 0x8000 | 9,
             0x8000 | 0x400000 | 17, (1 << 32) | 0x8000 | 17, (1 << 63) | 0x8000 | 17]
    code = BASE + f"print([clone(f) for f in {flags!r}])\n"
    assert ok_stdout(code, mode, limits=LIMITS) == f"{[-1] * len(flags)}\n"


@pytest.mark.parametrize("mode", MODES)
def test_clone_parent_in_other_argument_positions_is_a_plain_fork(mode: Mode) -> None:
    """clone(flags, stack, ptid, ctid, tls): 0x8000 as ptid, ctid, tls (unused without
    their flags) is a plain fork, the caller's child (exit 4 waited for); a bit past 32
    alone changes nothing."""
    code = BASE + "print(clone(17, 0, 0x8000, 0x8000, 0x8000), clone((1 << 32) | 17))\n"
    assert ok_stdout(code, mode, limits=LIMITS) == "4 4\n"


@pytest.mark.parametrize("mode", MODES)
def test_unshare_setns_ptrace_are_refused(mode: Mode) -> None:
    code = BASE + ("print(sc(272, 0x8000), sc(272, 0), sc(308, 0, 0x8000), sc(101, 0, 0, 0, 0),"
                   " sc(101, 16, os.getppid(), 0, 0))\n")
    assert ok_stdout(code, mode, limits=LIMITS) == "-1 -1 -1 -1 -1\n"


@pytest.mark.parametrize("mode", MODES)
def test_clone3_answers_enosys(mode: Mode) -> None:
    code = BASE + "print(sc(435, 0, 0))\n"
    assert ok_stdout(code, mode, limits=LIMITS) == "-38\n"


SILENT = (
    "def silent(n, body=None):\n"  # children whose exit signal is 0: no SIGCHLD, no wait
    "    for _ in range(n):\n        pid = sc(56, 0, 0, 0, 0, 0)\n        if pid == 0:\n"
    "            try:\n                if body:\n                    body()\n"
    "            finally:\n                os._exit(0)\n"
    "    time.sleep(0.3)\n")
"""`silent(n)`: n children with exit signal 0, which waitpid(-1) without __WCLONE never
sees: zombies of the caller until it dies (then reparented with SIGCHLD)."""


@pytest.mark.parametrize("mode", MODES)
def test_a_workers_silent_children_are_reaped_after_it(mode: Mode) -> None:
    code = BASE + SILENT + "def leave():\n    silent(2)\n    crash()\n"
    tests = ["leave()", "assert started() == 3, started()"]
    assert outcomes(code, tests, mode, limits=FOUR) == [DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_an_io_tests_silent_children_are_reaped_after_it(mode: Mode) -> None:
    code = BASE + SILENT + "if sys.stdin.readline().strip() == 'a':\n    silent(2)\n" \
        "    print('x')\nelse:\n    print(started())\n"
    tests = [{"input": "a\n", "output": "x\n"}, {"input": "b\n", "output": "3\n"}]
    assert outcomes(code, tests, mode, limits=FOUR) == [PASS, PASS]


SUBREAPER = (
    "def hold():\n    libc.prctl(36, 1, 0, 0, 0)\n    for _ in range(2):\n"
    "        orphan()\n    time.sleep(0.2)\n")
"""`hold()`: the caller becomes a child subreaper (PR_SET_CHILD_SUBREAPER) and leaves two
exited orphans, its own zombies now, never reaped."""


@pytest.mark.parametrize("mode", MODES)
def test_a_subreaper_workers_zombies_are_reaped_after_it(mode: Mode) -> None:
    code = BASE + SUBREAPER + "def leave():\n    hold()\n    crash()\n"
    tests = ["leave()", "assert started() == 3, started()", "assert started() == 3"]
    assert outcomes(code, tests, mode, limits=FOUR) == [DIED, PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_a_subreaper_replacement_leaves_nothing(mode: Mode) -> None:
    code = BASE + SUBREAPER + "def leave():\n    hold()\n    crash()\n"
    tests = ["crash()", "leave()", "assert started() == 3, started()"]
    assert outcomes(code, tests, mode, limits=FOUR) == [DIED, DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_a_subreaper_io_test_leaves_nothing(mode: Mode) -> None:
    code = BASE + SUBREAPER + "if sys.stdin.readline().strip() == 'a':\n    hold()\n" \
        "    print('x')\nelse:\n    print(started())\n"
    tests = [{"input": "a\n", "output": "x\n"}, {"input": "b\n", "output": "3\n"}]
    assert outcomes(code, tests, mode, limits=FOUR) == [PASS, PASS]


PDEATH = (
    "def stopped_on_death():\n    libc.prctl(1, int(signal.SIGSTOP), 0, 0, 0)\n"
    "    time.sleep(30)\n"
    "def leave():\n    if os.fork() == 0:\n        stopped_on_death()\n"
    "    time.sleep(0.2)\n    crash()\n")
"""`leave()`: a child asks for SIGSTOP at its parent's death (PR_SET_PDEATHSIG), then the
worker dies: the child is stopped where the kill of what it left runs."""


@pytest.mark.parametrize("mode", MODES)
def test_a_child_stopped_by_its_parents_death_is_ended(mode: Mode) -> None:
    tests = ["leave()", "assert started() == 3, started()"]
    assert outcomes(BASE + PDEATH, tests, mode, limits=FOUR) == [DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_a_replacements_child_stopped_by_its_death_is_ended(mode: Mode) -> None:
    tests = ["crash()", "leave()", "assert started() == 3, started()"]
    assert outcomes(BASE + PDEATH, tests, mode, limits=FOUR) == [DIED, DIED, PASS]


# --- (2) honest programs ------------------------------------------------------------------

HONEST = {
    "spawn context": (
        ("import multiprocessing as mp\ndef put(w):\n    w.send(5)\n"
        "def f():\n    ctx = mp.get_context('spawn')\n    r, w = ctx.Pipe(False)\n"
        "    p = ctx.Process(target=put, args=(w,))\n    p.start()\n"
        "    got = r.recv()\n    p.join()\n    return (got, p.exitcode)\n"), "(5, 0)"),
    "forkserver context": (
        ("import multiprocessing as mp\ndef put(w):\n    w.send(5)\n"
        "def f():\n    ctx = mp.get_context('forkserver')\n    r, w = ctx.Pipe(False)\n"
        "    p = ctx.Process(target=put, args=(w,))\n    p.start()\n"
        "    got = r.recv()\n    p.join()\n    return (got, p.exitcode)\n"), "(5, 0)"),
    "os.fork in a thread": (
        ("import os, threading\ndef f():\n    out = []\n    def t():\n"
        "        pid = os.fork()\n        if pid == 0:\n            os._exit(6)\n"
        "        out.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n"
        "    th = threading.Thread(target=t)\n    th.start()\n    th.join()\n"
        "    return out\n"), "[6]"),
    "subprocess in a new session": (
        ("import subprocess\ndef f():\n    return subprocess.run(['/bin/sh', '-c', 'exit 9'],"
        " start_new_session=True).returncode\n"), "9"),
    "posix_spawn with setsid": (
        ("import os\ndef f():\n    pid = os.posix_spawn('/bin/sh', ['sh', '-c', 'exit 5'],"
        " dict(os.environ), setsid=True)\n"
        "    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])\n"), "5"),
    "a child's exit status read late": (
        ("import os, time\ndef f():\n    pids = []\n    for i in range(8):\n"
        "        pid = os.fork()\n        if pid == 0:\n            os._exit(10 + i)\n"
        "        pids.append(pid)\n    time.sleep(0.3)\n"
        "    return [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in pids]\n"),
        repr([10 + i for i in range(8)])),
}
SHM = {
    "ProcessPoolExecutor": (
        ("import concurrent.futures as cf\ndef f():\n"
        "    with cf.ProcessPoolExecutor(2) as ex:\n        return sum(ex.map(abs, range(-5, 5)))\n"),
        "25"),
    "a multiprocessing Queue": (
        ("import multiprocessing as mp\ndef put(q):\n    q.put(5)\n"
        "def f():\n    ctx = mp.get_context('fork')\n    q = ctx.Queue()\n"
        "    p = ctx.Process(target=put, args=(q,))\n    p.start()\n"
        "    got = q.get()\n    p.join()\n    return got\n"), "5"),
}
GUARD = "if __name__ == '__main__':\n    print(repr(f()))\n"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(HONEST))
def test_an_honest_program_runs_plain(name: str, mode: Mode) -> None:
    code, expected = HONEST[name]
    assert ok_stdout(code + GUARD, mode, limits=LIMITS) == expected + "\n"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["os.fork in a thread", "a child's exit status read late"])
def test_an_honest_program_passes_before_and_after_a_replacement(name: str, mode: Mode
                                                                 ) -> None:
    code, expected = HONEST[name]
    code += "def crash():\n    import os\n    os._exit(3)\n"
    check = f"assert repr(f()) == {expected!r}, f()"
    assert outcomes(code, [check, "crash()", check], mode) == [PASS, DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(SHM))
def test_an_honest_program_that_needs_a_semaphore_runs_plain(name: str, mode: Mode) -> None:
    code, expected = SHM[name]
    assert ok_stdout(code + GUARD, mode, limits=LIMITS) == expected + "\n"


@pytest.mark.parametrize("mode", MODES)
def test_a_process_pool_passes_as_an_assert_test(mode: Mode) -> None:
    code, expected = SHM["ProcessPoolExecutor"]
    assert outcomes(code, [f"assert repr(f()) == {expected!r}"], mode) == [PASS]


# --- (3) the reaping: statuses it must not take, processes it must not hold ------------------


@pytest.mark.parametrize("status", [0, 3])
@pytest.mark.parametrize("mode", MODES)
def test_an_io_tests_status_is_its_own_among_exiting_orphans(mode: Mode, status: int) -> None:
    """20 orphans (the harness's children, reaped every REAP_S) exit 7 around the test's
    own exit 0, or exit 0 around its exit 3: its own status is its verdict."""
    exit_code = 0 if status else 7
    code = BASE + (
        f"def late():\n    time.sleep(0.05)\n    os._exit({exit_code})\n"
        "for _ in range(20):\n    orphan(late, wait=False)\n"
        f"time.sleep(0.05)\nprint('3', flush=True)\nos._exit({status})\n")
    want = PASS if status == 0 else ("error", "exit code 3", True)
    assert outcomes(code, [{"input": "", "output": "3\n"}], mode) == [want]


@pytest.mark.parametrize("mode", MODES)
def test_an_io_tests_children_keep_their_statuses(mode: Mode) -> None:
    """The test's process forks 20 children and reads each one's status late, while its
    orphans exit beside them: the reaping (REAP_S, its children only) takes none."""
    code = BASE + (
        "orphan(wait=False)\npids = []\nfor i in range(20):\n    pid = os.fork()\n"
        "    if pid == 0:\n        os._exit(i % 7)\n    pids.append(pid)\n"
        "    if i % 10 == 0:\n        orphan()\n"
        "time.sleep(0.2)\n"
        "got = [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in pids]\n"
        "print(got == [i % 7 for i in range(20)])\n")
    assert outcomes(code, [{"input": "", "output": "True\n"}] * 2, mode) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_a_replacements_childrens_statuses_are_its_own(mode: Mode) -> None:
    """Cold the replacement is the zygote's child, which reaps at each request: the
    worker's own children (not the zygote's) keep their statuses, read late."""
    code = BASE + (
        "def f():\n    pids = []\n    for i in range(8):\n        pid = os.fork()\n"
        "        if pid == 0:\n            os._exit(20 + i)\n        pids.append(pid)\n"
        "    orphan(wait=False)\n    time.sleep(0.3)\n"
        "    return [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in pids]\n")
    check = f"assert f() == {[20 + i for i in range(8)]!r}, f()"
    assert outcomes(code, [check, "crash()", check, "crash()", check], mode) == [
        PASS, DIED, PASS, DIED, PASS]


HOP = (
    "def hop():\n    end = time.monotonic() + 0.5\n    while time.monotonic() < end:\n"
    "        try:\n            if os.fork():\n                os._exit(0)\n"
    "        except OSError:\n            pass\n    os._exit(0)\n"
    "def hoppers(n):\n    pid = os.fork()\n    if pid == 0:\n        for _ in range(n):\n"
    "            if os.fork() == 0:\n                hop()\n        os._exit(0)\n"
    "    os.waitpid(pid, 0)\n    time.sleep(0.8)\n    return 1\n")
"""`hoppers(n)`: n chains (begun by a child the caller reaps), each forking and exiting for
0.5 s: an exited orphan of the reaper's at every fork, the next fork refused (EAGAIN, then
tried again) until the reaper has taken it at 4 processes."""


@pytest.mark.parametrize("mode", MODES)
def test_orphans_made_on_and_on_leave_an_assert_test_its_verdict(mode: Mode) -> None:
    tests = ["assert hoppers(1) == 1", "assert started() == 3, started()"]
    assert outcomes(BASE + HOP, tests, mode, limits=FOUR) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_orphans_made_on_and_on_by_a_replacement(mode: Mode) -> None:
    tests = ["crash()", "assert hoppers(1) == 1", "assert started() == 3, started()"]
    assert outcomes(BASE + HOP, tests, mode, limits=FOUR) == [DIED, PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_orphans_made_on_and_on_leave_an_io_test_its_verdict(mode: Mode) -> None:
    code = BASE + HOP + "if sys.stdin.readline().strip() == 'a':\n    print(hoppers(1))\n" \
        "else:\n    print(started())\n"
    tests = [{"input": "a\n", "output": "1\n"}, {"input": "b\n", "output": "3\n"}]
    assert outcomes(code, tests, mode, limits=FOUR) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_an_orphan_flood_then_an_honest_exit_in_an_io_test(mode: Mode) -> None:
    """The test's process makes exited orphans to RLIMIT_NPROC's edge (each reaped at
    REAP_S), then prints: its verdict, and the next test starts 3."""
    code = BASE + (
        "if sys.stdin.readline().strip() == 'a':\n    for _ in range(40):\n"
        "        try:\n            orphan()\n        except OSError:\n"
        "            time.sleep(0.06)\n    print('x')\nelse:\n    print(started())\n")
    tests = [{"input": "a\n", "output": "x\n"}, {"input": "b\n", "output": "3\n"}]
    assert outcomes(code, tests, mode, limits=FOUR) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_orphans_exiting_while_a_big_reply_is_read(mode: Mode) -> None:
    """Orphans exit during a call (reaped on the harness's clock) whose reply is ~2 MB
    (many wake-ups of the wait): the verdict, and 3 threads next."""
    code = BASE + (
        "def f():\n    for _ in range(3):\n        orphan()\n        time.sleep(0.2)\n"
        "    return list(range(200000))\n")
    tests = ["assert len(f()) == 200000", "assert started() == 3, started()"]
    assert outcomes(code, tests, mode, limits=FOUR) == [PASS, PASS]


FOREVER = (
    "def hop():\n    while True:\n        try:\n            if os.fork():\n"
    "                os._exit(0)\n        except OSError:\n            pass\n"
    "def forever():\n    pid = os.fork()\n    if pid == 0:\n        try:\n"
    "            for _ in range(2):\n                if os.fork() == 0:\n"
    "                    hop()\n        finally:\n            os._exit(0)\n"
    "    os.waitpid(pid, 0)\n    time.sleep(30)\n")
"""`forever()`: two chains forking and exiting for ever (each fork an exited orphan for
the reaper, each refused fork tried again at once), the caller asleep: the reaping loop
runs as long as the test does."""
ONE_S = dataclasses.replace(FOUR, test_wall_s=1.0)
TIMED_OUT: Outcome = ("timeout", "test exceeded 1 s", True)
NOT_RUN: Outcome = ("timeout", "not run: an earlier test timed out", False)


@pytest.mark.parametrize("mode", MODES)
def test_orphans_made_for_ever_leave_an_assert_tests_timeout_on_time(mode: Mode) -> None:
    """The reaping neither spins nor blocks past the test's limit: its timeout verdict."""
    assert outcomes(BASE + FOREVER, ["forever()", "assert started() == 3"], mode,
                    limits=ONE_S) == [TIMED_OUT, NOT_RUN]


@pytest.mark.parametrize("mode", MODES)
def test_orphans_made_for_ever_leave_an_io_tests_timeout_on_time(mode: Mode) -> None:
    code = BASE + FOREVER + "if sys.stdin.readline().strip() == 'a':\n    forever()\n" \
        "print(started())\n"
    tests = [{"input": "a\n", "output": "x\n"}, {"input": "b\n", "output": "3\n"}]
    assert outcomes(code, tests, mode, limits=ONE_S) == [TIMED_OUT, NOT_RUN]


# --- (4) remove_tree: odd roots, races, no /proc (host) --------------------------------------


def _tree(root: Path) -> Path:
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f").write_text("f")
    return root


@pytest.mark.parametrize("root", ["", "/", ".", "..", "x/.", "x/.//"])
def test_a_root_without_a_last_name_walks_nothing(tmp_path: Path, root: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Run in a folder x/ of a tree: the cwd, x and the tree above stay whole."""
    _tree(tmp_path / "top" / "x")
    monkeypatch.chdir(tmp_path / "top" / "x")
    remove_tree(root if not root.startswith("x") else f"{tmp_path}/top/{root}")
    assert (tmp_path / "top" / "x" / "a" / "b" / "f").read_text() == "f"


@pytest.mark.parametrize("root", ["./x//"])
def test_a_relative_root_goes(tmp_path: Path, root: str,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path / "x")
    monkeypatch.chdir(tmp_path)
    remove_tree(root)
    assert not os.path.lexists(tmp_path / "x")


def test_a_root_that_is_a_file_or_a_fifo_stays(tmp_path: Path) -> None:
    """No folder: nothing is walked (a fifo's open would block: it is never opened)."""
    (tmp_path / "file").write_text("f")
    os.mkfifo(tmp_path / "fifo")
    remove_tree(str(tmp_path / "file"))
    remove_tree(str(tmp_path / "fifo") + "/")
    assert (tmp_path / "file").read_text() == "f"
    assert sorted(os.listdir(tmp_path)) == ["fifo", "file"]


@pytest.mark.parametrize("tail", ["", "//"])
def test_a_link_to_a_file_goes_alone(tmp_path: Path, tail: str) -> None:
    (tmp_path / "file").write_text("f")
    os.symlink(tmp_path / "file", tmp_path / "link")
    remove_tree(str(tmp_path / "link") + tail)
    assert not os.path.lexists(tmp_path / "link")
    assert (tmp_path / "file").read_text() == "f"


def test_a_dangling_link_with_a_slash_goes(tmp_path: Path) -> None:
    os.symlink(tmp_path / "nowhere", tmp_path / "link")
    remove_tree(str(tmp_path / "link") + "/")
    assert not os.path.lexists(tmp_path / "link")


def test_a_root_with_a_nul_is_an_error_ignored(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    remove_tree(str(tmp_path) + "/a\0b")
    remove_tree(str(tmp_path / "a") + "\0")
    assert (tmp_path / "a").is_dir()



class _Swap:
    """`os` for `_cache`, but the `nth` call (from 1) of `hook_name` on the name `name`
    (with a dir_fd) first moves `folder`/`name` to `folder`/moved and puts a link to
    `target` in its place (a racer at that very step, deterministic). `fail_proc`: every
    chmod of a /proc path raises ENOENT (a host without /proc)."""

    def __init__(self, hook_name: str, nth: int, target: str, folder: str,
                 name: str = "sub", fail_proc: bool = False) -> None:
        self.hook_name, self.nth, self.target, self.folder = hook_name, nth, target, folder
        self.name, self.fail_proc, self.calls, self.done = name, fail_proc, 0, False

    def __getattr__(self, attr: str) -> Any:
        real = getattr(os, attr)
        if attr == "chmod" and self.fail_proc:
            def no_proc(path: Any, *args: Any, **kwargs: Any) -> Any:
                if str(path).startswith("/proc/"):
                    raise FileNotFoundError(2, "no /proc", path)
                return real(path, *args, **kwargs)
            return no_proc
        if attr != self.hook_name:
            return real

        def hooked(path: Any, *args: Any, dir_fd: int | None = None, **kwargs: Any) -> Any:
            if path == self.name and dir_fd is not None and not self.done:
                self.calls += 1
                if self.calls == self.nth:
                    self.done = True
                    here = os.path.join(self.folder, self.name)
                    os.rename(here, os.path.join(self.folder, "moved"))
                    os.symlink(self.target, here)
            return real(path, *args, dir_fd=dir_fd, **kwargs)

        return hooked


@pytest.mark.parametrize("nth", [2, 3])
def test_a_refused_folder_swapped_for_a_link_at_its_pin_or_reopen(nth: int) -> None:
    """sub of mode 0: its first open is refused; the racer swaps it for a link at the
    O_PATH pin (2nd open: O_NOFOLLOW|O_DIRECTORY refuses a link) or at the open after the
    chmod (3rd): nothing outside is chmodded or entered."""
    got = raced_removal(lambda outside, home: _Swap(
        "open", nth, outside, os.path.join(home, "root")), 0)
    assert got == (0o500, True, True)


@pytest.mark.parametrize("nth", [2, 3])
def test_a_refused_root_swapped_for_a_link(nth: int) -> None:
    """The root itself of mode 0, swapped at its pin (then refused: the link alone goes)
    or at its open after the chmod, in the folder above (`_open_root`)."""
    got = raced_removal(lambda outside, home: _Swap("open", nth, outside, home, name="root"),
                 0o755, root_mode=0)
    assert got == (0o500, True, True)


def test_no_proc_chmods_nothing_outside() -> None:
    """A host without /proc: `_make_enterable` chmods nothing; the racer at the pin finds
    a link refused; nothing outside changes."""
    got = raced_removal(lambda outside, home: _Swap(
        "open", 2, outside, os.path.join(home, "root"), fail_proc=True), 0)
    assert got == (0o500, True, True)


def test_no_proc_removes_what_needs_no_chmod(tmp_path: Path) -> None:
    """Without /proc (and as root, to whom no mode refuses) the tree goes whole."""
    root = _tree(tmp_path / "root")
    os.chmod(root / "a", 0)
    vars(_cache)["os"] = _Swap("open", 0, "", str(tmp_path), fail_proc=True)
    try:
        remove_tree(str(root))
    finally:
        vars(_cache)["os"] = os
    if os.getuid() == 0:
        assert not os.path.lexists(root)
    else:
        assert os.path.isdir(root / "a")
