"""Red team (rt36) of h-sb16 (c84722d, merge 8325082): the cold test harness (the jail's pid 1,
`harness.apart`, `harness_wire.judge_apart`) keeps the jail's uid 99999 and only
CAP_KILL/SETUID/SETGID (CAP_FOWNER too for stdin/stdout tests, for `harness_io.restore`),
opens the input folders 0o1777 (`init.open_folders`), and every process that runs the
program (a test's process, the first assert worker, a zygote's replacement, a spawned one)
takes PROGRAM_UID 99998, no capability and the jail's RLIMIT_NPROC less the harness's own
(`enter_program`, `init.less_own`).

The rule under attack: no test's program can regain the harness's uid or capabilities,
reach the harness or its zygote, or forge a verdict; what one test leaves (files, modes,
links, processes, zombies) changes no later test's verdict; each test's process and each
worker (first or replacement) reads and may use what `python3 main.py` reads in a plain
run of the same mode; honest programs pass every test; cold equals warm.

How. Every probe runs cold and warm, stdin/stdout tests (`io`) and assert tests (`fn`, a
first worker, then the replacement after a crash, where the probe is about the worker),
and compares with the plain run of the same mode where the answer is about equivalence.
(A) Regaining privileges: setuid/setresuid/setgid/setgroups to the harness's ids,
setfsuid, capset (all, CAP_SETUID, CAP_FOWNER), ambient raise, PR_SET_KEEPCAPS, securebits,
unshare and clone of a user namespace, setns into the harness's, chown to the harness's
uid, a file capability, the system's setuid-root mount and su. (B) Reaching the harness,
its zygote and the warm server (every other-uid process among pid 1, 2, 3 and the parent):
kill (SIGSTOP, SIGKILL, SIGINT), pidfd_send_signal, prlimit (NPROC, CPU), renice (process
and the harness's uid), affinity, scheduler, io priority, ptrace, process_vm_readv; then
the next test is judged (a test's process, a worker, a replacement); a harness SIGSTOPped
by a looping test still times it out; SIGCONT, which a worker may send its harness (same
session), changes nothing. (C) Forgery: exit codes 70 and 127 (the harness's and its
child's own), a self-SIGKILL after the answer, an answer lost in a buffer at os._exit, the
harness's report framing printed, a worker that exits or floods its pipes mid-call.
(D) State for the next test in the 0o1777 input folders under FOWNER restore: files,
fifos, sockets, hard and symbolic links (to task folders, /usr, out of /work), a mode-0
folder of its own holding links, sticky and setgid folders, attempts to re-mode, re-own,
rename, xattr and touch the task's folders and files, a deep chain of its own folders; a
helper left to answer the next test through a fifo: every test reads what python3 main.py
reads in a fresh jail. (E) Process budget: a test
that leaves its whole count alive, or zombies, or lowers its own RLIMIT_NPROC, before the
next; an assert worker that crashes (with and without a dead child, at its full count
with children that keep or close its descriptors) before a test that counts its threads;
a 1-process budget. (F) False losses: ids, capabilities, limits, signal dispositions and
folder modes; threads, subprocesses, files beside the inputs, inputs read, tempfile,
renames: io and fn (first worker and replacement) equal to the plain run, every test
passed, cold through a spare too. (G) A harness that cannot set itself apart.

100 probes: 93 held, 7 open as strict xfails under 4 roots at the round; all 4 closed after
it (the last, 2 xfails, by h-sb19), none open.

Roots (strict xfails while open):
- Closed after the round (the first worker is reaped before the first replacement is
  forked: `wait_run`'s `worker`; since h-sb19 `fork_worker` reaps every exited process
  the dead worker left): `warm_server.wait_run` / `fork_worker` (warm; Resources, a false
  loss): the first
  replacement of a run is forked with `last` None, so the first worker (the server's
  child, killed by the harness through its pidfd) is not reaped before it: its zombie
  holds one of the program uid's RLIMIT_NPROC slots for the rest of the run. At 4
  processes a replacement worker starts 2 threads where the first one and python3 main.py
  start 3 (cold, whose harness reaps its first worker itself, 3).
- Closed after the round (h-sb19: `harness_wire.reap_left` before each replacement, the
  jail's pid 1 reaping every exited child while the zygote, cold, or the long-lived
  harness, warm, `kill(-1)`s what is left: `harness.end_left`, `warm_server.fork_worker`): `harness.run_python_tests` / `Worker.kill` (cold: the harness is pid 1 and reaps only
  its workers' pids, where `harness_io.end_processes` waits for every orphan) and
  `warm_server.wait_run` (warm, until the run's end) (Resources, a false loss): a dead
  worker's exited child is never waited for in an assert run: its zombie holds a slot of
  the program's count for every later test, 2 threads where python3 main.py starts 3
  (warm 1, both roots); three such crashes leave a replacement no thread at all.
- Closed after the round (the harness watches each worker's pidfd beside its reply pipe,
  `Channel.ended`: a worker gone with nothing left to read is the test's error):
  `harness_wire.Channel._fill` (both modes; Exit and output forgery, a false loss): the
  harness learns of a worker's end only from EOF on its reply pipe (no pidfd or SIGCHLD
  watched; a cold first worker has no pidfd at all), so a forked child of the worker that
  keeps fd 4 turns the worker's death into that test's timeout and every later test into
  'not run' (a closed-fds child: the death is seen, a replacement judges the rest).
- Closed after the round: `harness.apart` exiting 70, read by `_tests.run_tests` / `_classify.classify` as the
  program's runtime_error (Verdicts lost by masking, inverted: infrastructure scored as
  the program): a jail that keeps the harness fewer capabilities than it needs (simulated
  with `_tests.HARNESS_CAPABILITIES` = CAP_KILL alone) gives every test 'error: no verdict:
  the run ended with runtime_error', never sandbox_error, which a code reward would
  abstain on and retry. Now `run_tests` raises SandboxError for a test jail whose harness
  exits `init.FAILED` (only `apart` does, before any program code runs).

Held: everything else (A)-(F), both modes, io and fn (first worker and replacement), and
cold through a spare. Seen, no verdict: a worker shares its harness's session (a test's
process has its own), so its SIGCONT reaches the cold harness and zygote, and the warm
server and long-lived harness; nothing else does.

Not probed: the pid and inode counters and the folders' change times a test reads (sb10's
open roots); the bounding set (PR_CAPBSET_READ, unusable under no_new_privs); the
zygote-less `Worker.spawn` path (no program can end a cold zygote of another uid).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from typing import Any

import pytest
from sandbox_probes import DIED, PASS, SHORT, ok_stdout, outcomes
from test_cold_inputs import OPEN_HARNESS
from test_spare import Taken

import sandbox
from sandbox import _spare
from sandbox._runner import Mode

pytestmark = pytest.mark.usefixtures("sandbox_ready")

MODES: tuple[Mode, ...] = ("cold", "warm")
LIMITS = dataclasses.replace(SHORT, wall_s=8.0, test_wall_s=3.0)
FILES = {"d/a.txt": "x\n", "d/e/b.txt": "y\n", "top.txt": "z\n"}
"""A task's files: an input folder, one inside it, a file at the top."""


# stdin/stdout and assert tests go through the one runner (`sandbox_probes.outcomes`)
io = fn = functools.partial(outcomes, files=FILES, limits=LIMITS)
plain = functools.partial(ok_stdout, files=FILES, limits=LIMITS)


CRASH = "\ndef crash():\n    import os\n    os._exit(3)\n"
"""Appended to an assert program: `crash()` ends the worker, the next test gets a
replacement (cold: forked by the harness's zygote; warm: by the server)."""


def as_function(body: str) -> str:
    """A program whose `answer()` returns what `body` prints (one run of it per call)."""
    return (f"BODY = {body!r}\n"
            "def answer():\n    import contextlib, io\n    buf = io.StringIO()\n"
            "    with contextlib.redirect_stdout(buf):\n        exec(BODY, {'__name__': 'b'})\n"
            "    return buf.getvalue()\n" + CRASH)


def judged_alike(body: str, mode: Mode, want: str) -> None:
    """`body` prints `want` as each of 2 stdin/stdout tests, and as the answer of a first
    worker (twice) and of its replacement."""
    assert io(body, [{"input": "", "output": want}] * 2, mode) == [PASS, PASS]
    tests = [f"assert answer() == {want!r}, answer()"] * 2 + [
        "crash()", f"assert answer() == {want!r}, answer()"]
    assert fn(as_function(body), tests, mode) == [PASS, PASS, DIED, PASS]


PRE = ("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
       "def e(f):\n    try:\n        f()\n        return 'did'\n"
       "    except OSError as x:\n        return x.errno\n"
       "def c(r):\n    return (r, ctypes.get_errno()) if r == -1 else r\n"
       "hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)\n")
"""`e` an OSError's errno, `c` a libc call's (-1, errno), `hdr` a capability header."""


# --- (A) regaining the harness's uid or capabilities ------------------------------------------

PRIVILEGES = {
    "setuid to the harness's uid": ("print(e(lambda: os.setuid(99999)))", "1"),
    "setresuid, saved only": ("print(e(lambda: os.setresuid(-1, -1, 99999)))", "1"),
    "setgid and setgroups to the harness's gid": (
        "print(e(lambda: os.setgid(99999)), e(lambda: os.setgroups([99999])))", "1 1"),
    "setfsuid to the harness's uid": (
        "print(libc.setfsuid(99999), libc.setfsuid(-1))", "99998 99998"),
    "capset of every capability, of CAP_FOWNER": (
        ("print(c(libc.capset(hdr, (ctypes.c_uint32 * 6)(*[0xffffffff] * 6))),"
        " c(libc.capset(hdr, (ctypes.c_uint32 * 6)(8, 8, 8, 0, 0, 0))))"), "(-1, 1) (-1, 1)"),
    "ambient raise of CAP_KILL, CAP_SETUID, CAP_FOWNER": (
        "print([c(libc.prctl(47, 2, n, 0, 0)) for n in (5, 7, 3)])",
        "[(-1, 1), (-1, 1), (-1, 1)]"),
    "PR_SET_KEEPCAPS, then setuid; securebits": (
        ("print(libc.prctl(8, 1, 0, 0, 0), e(lambda: os.setuid(99999)),"
        " c(libc.prctl(28, 0x2f, 0, 0, 0)))"), "0 1 (-1, 1)"),
    "a user namespace: unshare, clone, setns into the harness's": (
        ("r = libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0)\nif r == 0:\n    os._exit(0)\n"
        "print(c(libc.unshare(0x10000000)), c(r), c(libc.setns(os.pidfd_open(os.getppid()),"
        " 0)))"), "(-1, 1) (-1, 1) (-1, 1)"),
    "chown of its own file to the harness; a file capability": (
        ("open('/tmp/f', 'w').close()\nprint(e(lambda: os.chown('/tmp/f', 99999, -1)),"
        " e(lambda: os.setxattr('/tmp/f', 'security.capability', b'\\x01\\x00\\x00\\x02'"
        " + b'\\xff' * 16)))\nos.unlink('/tmp/f')"), "1 1"),
    "the system's setuid-root mount and su": (
        ("import subprocess\nfor argv in (['/usr/bin/mount', '-t', 'proc', 'proc', '/tmp'],"
        " ['/usr/bin/su', '-c', 'kill -9 1']):\n"
        "    print(subprocess.run(argv, capture_output=True).returncode, end=' ')\n"
        "print(os.listdir('/tmp'))"), "32 1 []"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(PRIVILEGES))
def test_no_test_process_regains_the_harness_privileges(name: str, mode: Mode) -> None:
    """The plain run's answer (sb16's, the init's child), in each test's process, in a
    first worker and in its replacement: refused, every test judged."""
    body, line = PRIVILEGES[name]
    want = line + "\n"
    assert plain(PRE + body + "\n", mode) == want
    judged_alike(PRE + body + "\n", mode, want)


# --- (B) reaching the harness, its zygote, the warm server ------------------------------------

TARGETS = (
    "def others():\n    found = []\n"
    "    for p in sorted({1, 2, 3, os.getppid()} - {os.getpid()}):\n"
    "        try:\n            os.kill(p, 0)\n        except PermissionError:\n"
    "            found.append(p)\n        except ProcessLookupError:\n            pass\n"
    "    return found\n"
    "def at_all(op):\n    return sorted({op(p) for p in others()})\n"
)
"""`others()`: every process among pids 1-3 and the parent that is not the program's (the
cold harness and its zygote, the warm server and harness); `at_all(op)` the distinct
results of `op` on them."""

REACH = {
    "SIGSTOP": "print(at_all(lambda p: e(lambda: os.kill(p, 19))))",
    "SIGKILL": "print(at_all(lambda p: e(lambda: os.kill(p, 9))))",
    "SIGINT": "print(at_all(lambda p: e(lambda: os.kill(p, 2))))",
    "pidfd_send_signal SIGKILL": (
        "import signal\nprint(at_all(lambda p: e(lambda: signal.pidfd_send_signal("
        "os.pidfd_open(p), 9))))"),
    "prlimit of RLIMIT_NPROC and RLIMIT_CPU to 0": (
        "import resource\nprint(at_all(lambda p: (e(lambda: resource.prlimit(p, "
        "resource.RLIMIT_NPROC, (0, 0))), e(lambda: resource.prlimit(p, resource.RLIMIT_CPU,"
        " (0, 0))))))"),
    "renice, affinity, scheduler, io priority": (
        "print(at_all(lambda p: (e(lambda: os.setpriority(os.PRIO_PROCESS, p, 19)),"
        " e(lambda: os.sched_setaffinity(p, {0})), e(lambda: os.sched_setscheduler(p,"
        " os.SCHED_IDLE, os.sched_param(0))), c(libc.syscall(251, 1, p, 3 << 13)))))"),
    "ptrace and process_vm_readv": (
        "print(at_all(lambda p: (c(libc.ptrace(16, p, 0, 0)),"
        " c(libc.process_vm_readv(p, None, 0, None, 0, 0)))))"),
    "renice of the harness's uid": (
        "print(e(lambda: os.setpriority(os.PRIO_USER, 99999, 19)))"),
}
REACHED = {
    "SIGSTOP": "[1]", "SIGKILL": "[1]", "SIGINT": "[1]", "pidfd_send_signal SIGKILL": "[1]",
    "prlimit of RLIMIT_NPROC and RLIMIT_CPU to 0": "[(1, 1)]",
    "renice, affinity, scheduler, io priority": "[(1, 1, 1, (-1, 1))]",
    "ptrace and process_vm_readv": "[((-1, 1), (-1, 1))]",
    "renice of the harness's uid": "1",
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(REACH))
def test_nothing_reaches_the_harness(name: str, mode: Mode) -> None:
    """EPERM on every process of another uid, from each test's process, a first worker and
    a replacement; the next test is judged (the harness and its zygote live on)."""
    judged_alike(PRE + TARGETS + REACH[name] + "\n", mode, REACHED[name] + "\n")


SPIN = PRE + TARGETS + (
    "import sys\nat_all(lambda p: e(lambda: os.kill(p, 19)))\nprint('stopped?', flush=True)\n"
    "while True:\n    pass\n")


@pytest.mark.parametrize("mode", MODES)
def test_a_harness_stopped_by_its_test_still_times_it_out(mode: Mode) -> None:
    """A test's process that SIGSTOPs every other uid's process, then loops: its own
    timeout, later tests not run; in an assert run the same from the worker."""
    timed_out = [("timeout", "test exceeded 3 s", True),
                 ("timeout", "not run: an earlier test timed out", False)]
    # a CPU limit far past the test's 3 s: the spin ends at its wall limit on any machine
    # (at SHORT's 2 s of CPU a quiet machine ended it there first, sb12's open root)
    roomy = dataclasses.replace(LIMITS, cpu_s=30.0)
    assert io(SPIN, [{"input": "", "output": ""}] * 2, mode, limits=roomy) == timed_out
    code = f"def spin():\n    exec({SPIN!r}, {{}})\n"
    assert fn(code, ["spin()", "assert True"], mode, limits=roomy) == timed_out


CONT = PRE + TARGETS + (
    "def cont():\n    return [e(lambda: os.kill(p, 18)) for p in others()], os.getsid(0) == "
    "os.getpid()\ndef one():\n    return 1\n")


@pytest.mark.parametrize("mode", MODES)
def test_a_workers_sigcont_to_its_harness_changes_nothing(mode: Mode) -> None:
    """A worker shares its harness's session (a test's process has its own, `setsid`), so
    the kernel lets it send SIGCONT there (cold the harness and the zygote, warm the
    server and the long-lived harness): a signal that only continues a stopped process,
    which none is; every test is judged."""
    tests = ["assert cont()[0] and set(cont()[0]) == {'did'}, cont()",
             "for _ in range(50):\n    cont()\nassert one() == 1", "assert not cont()[1]"]
    assert fn(CONT, tests, mode) == [PASS, PASS, PASS]


# --- (C) forged endings and verdicts --------------------------------------------------------

FORGED = {
    "the answer, then exit 70 (the harness's own failure code)": (
        "import sys\nprint(42)\nsys.exit(70)\n", ("error", "exit code 70", True)),
    "the answer, then exit 127 (a test's process that could not start)": (
        "import os, sys\nprint(42, flush=True)\nos._exit(127)\n",
        ("error", "exit code 127", True)),
    "the answer, then SIGKILL of itself": (
        "import os\nprint(42, flush=True)\nos.kill(os.getpid(), 9)\n",
        ("error", "killed by signal 9", True)),
    "the answer in a buffer lost at os._exit(0)": (
        "import os\nprint(42)\nos._exit(0)\n",
        ("fail", "line 1: expected '42', got '<missing>'", True)),
    "the harness's report framing printed": (
        ("print('0' * 32 + '{\"done\": 1, \"stdout\": \"\", \"stderr\": \"\"}')\n"
        "print('[\"pass\", \"\", 0.0]')\n"),
        ("fail", ("line 1: expected '42', got '00000000000000000000000000000000{\"done\": 1, "
                 "\"stdout\": \"\", \"stderr\": \"\"}'"), True)),
    "the answer, then a flood past the output cap": (
        "import sys\nprint(42, flush=True)\nsys.stdout.write('x' * (1 << 20))\n",
        ("error", f"output exceeded {LIMITS.output_bytes} bytes", True)),
    "the answer, and a child that holds stdout and stderr open": (
        ("import os, time\nprint(42, flush=True)\nif os.fork() == 0:\n    os.setsid()\n"
        "    time.sleep(60)\n"), PASS),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(FORGED))
def test_a_forged_ending_is_the_programs_verdict(name: str, mode: Mode) -> None:
    code, want = FORGED[name]
    honest = {"input": "", "output": "42\n"}
    assert io(code, [honest, honest], mode) == [want, want]
    assert io("print(42)", [honest], mode) == [PASS]


WORKER_ENDS = (
    "import os, sys\n"
    "def exits():\n    print('pass', flush=True)\n    os._exit(0)\n"
    "def system_exit():\n    sys.exit(0)\n"
    "def floods():\n    sys.stdout.write('x' * (4 << 20))\n    sys.stderr.write('y' * (4 << 20))\n"
    "    sys.stdout.flush()\n    return 1\n"
    "def closes():\n    os.close(1)\n    os.close(2)\n    return 2\n"
)


@pytest.mark.parametrize("mode", MODES)
def test_a_worker_that_exits_or_floods_gets_its_own_verdict(mode: Mode) -> None:
    """A worker that prints 'pass' and exits mid-call: an error (then a replacement);
    sys.exit inside a call: that test's error; a flood of both pipes: the call's value,
    judged; its stdout and stderr closed, then written: the worker ends, an error."""
    tests = ["assert exits() is None", "assert floods() == 1", "assert system_exit() is None",
             "assert closes() == 2", "assert floods() == 2"]
    assert fn(WORKER_ENDS, tests, mode) == [
        DIED, PASS, ("error", "ProgramError: SystemExit: 0", True), PASS,
        ("error", "the program died during the test: OSError: [Errno 9] Bad file descriptor",
         True)]


# --- (D) what one stdin/stdout test leaves in the 0o1777 folders -----------------------------

FOUND = (
    "import os\n"
    "for top in ('/work', '/work/d', '/work/d/e', '/tmp'):\n    s = os.stat(top)\n"
    "    print(top, sorted(os.listdir(top)), oct(s.st_mode), s.st_uid, s.st_gid,"
    " os.listxattr(top))\n"
    "for f in ('/work/d/a.txt', '/work/d/e/b.txt', '/work/top.txt'):\n"
    "    s = os.stat(f)\n    print(f, oct(s.st_mode), s.st_size, open(f).read()[:2])\n"
    "print([oct(os.stat(f).st_mode) for f in ('/usr/bin/env', '/usr', '/')])\n"
)
"""What each state probe prints first: the work folders as the task gave them."""

RE_MODED = "the task's folders and files re-moded, re-owned, renamed, xattr'd, touched"

LEFT = {
    "files, fifos, sockets and hard links in every input folder": (
        "import socket\nfor d in ('/work', '/work/d', '/work/d/e', '/tmp'):\n"
        "    open(d + '/own', 'w').write('1')\n    os.mkfifo(d + '/fifo')\n"
        "    socket.socket(socket.AF_UNIX).bind(d + '/sock')\n"
        "    os.link(d + '/own', d + '/hard')\n"
    ),
    "symlinks to task folders, to /usr, out of /work, named as task entries": (
        "os.symlink('/work/d/e', '/work/d/e2')\nos.symlink('/usr/bin/env', '/work/d/e/env')\n"
        "os.symlink('/work/d', '/tmp/d')\nos.symlink('/', '/work/d/root')\n"
        "os.symlink('../../top.txt', '/work/d/e/top.txt')\nos.symlink('a.txt', '/tmp/a.txt')\n"
        "os.symlink('/harness', '/work/h')\n"
    ),
    "a mode-0 folder of its own holding links to the task's folders": (
        "os.makedirs('/work/d/e/m/n')\nos.symlink('/work/d', '/work/d/e/m/n/up')\n"
        "os.symlink('/etc', '/work/d/e/m/etc')\nos.chmod('/work/d/e/m/n', 0)\n"
        "os.chmod('/work/d/e/m', 0)\n"
    ),
    "sticky, setgid and mode-0 entries of its own": (
        "os.mkdir('/work/d/s', 0o777)\nos.chmod('/work/d/s', 0o3777)\n"
        "open('/work/d/s/f', 'w').close()\nos.chmod('/work/d/s/f', 0o6000)\n"
        "os.mkdir('/tmp/t')\nos.chmod('/tmp/t', 0o1000)\n"
    ),
    RE_MODED: (
        "for p in ('/work/d', '/work/d/e', '/work/d/a.txt', '/work/d/e/b.txt', '/work'):\n"
        "    print(p, e(lambda: os.chmod(p, 0o700)), e(lambda: os.chown(p, 99998, 99998)),"
        " e(lambda: os.setxattr(p, 'user.x', b'1')), e(lambda: os.rename(p, p + '.x')),"
        " e(lambda: os.unlink(p)) if '.' in p else e(lambda: os.rmdir(p)))\n"
        "    try:\n        os.utime(p)\n    except OSError:\n        pass\n"
    ),
    "a chain of its own folders 200 deep under the inner input folder": (
        "fd = os.open('/work/d/e', os.O_RDONLY)\nfor i in range(200):\n"
        "    os.mkdir('n' * 200, dir_fd=fd)\n"
        "    inner = os.open('n' * 200, os.O_RDONLY, dir_fd=fd)\n    os.close(fd)\n"
        "    fd = inner\nos.symlink('/work/d', 'up', dir_fd=fd)\nos.fchmod(fd, 0)\n"
    ),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(LEFT))
def test_each_test_finds_the_input_folders_as_a_fresh_jail_gives_them(
        name: str, mode: Mode, request: pytest.FixtureRequest) -> None:
    """Every test prints what the plain run of the same mode prints (errnos of its
    attempts included), though the test before left the entries of `name` for the
    harness's FOWNER restore."""
    if mode == "cold" and name == RE_MODED:  # a cold plain run's inputs are the init's copy
        request.applymarker(pytest.mark.xfail(strict=True, reason=OPEN_HARNESS))
    code = PRE + FOUND + LEFT[name]
    want = plain(code, mode)
    assert want.startswith("/work ['d', 'main.py', 'top.txt'] 0o41777 99999 99999 []\n"), want
    assert io(code, [{"input": "", "output": want}] * 3, mode) == [PASS] * 3


HELPER = (
    "import os, select, time\nif os.path.exists('/tmp/ans'):\n"
    "    fd = os.open('/tmp/ans', os.O_RDONLY | os.O_NONBLOCK)\n"
    "    ready = select.select([fd], [], [], 2)[0]\n"
    "    print(os.read(fd, 16).decode() if ready else 'stale fifo')\nelse:\n"
    "    os.mkfifo('/tmp/ans')\n    print(input(), flush=True)\n    if os.fork() == 0:\n"
    "        os.setsid()\n        fd = os.open('/tmp/ans', os.O_WRONLY)\n"
    "        os.write(fd, b'helped')\n        time.sleep(30)\n"
)
"""Answers its input, leaving a helper that would answer the next test through a fifo."""


@pytest.mark.parametrize("mode", MODES)
def test_a_helper_left_by_a_passing_test_answers_no_later_one(mode: Mode) -> None:
    """Every test finds no fifo and no helper (killed, its fifo removed): each answers its
    own input, as python3 main.py in a fresh jail."""
    tests = [{"input": f"{i}\n", "output": f"{i}\n"} for i in range(3)]
    assert io(HELPER, tests, mode) == [PASS] * 3


# --- (E) the process budget between tests ---------------------------------------------------

THREADS = (
    "import os, resource, threading\n"
    "def started():\n    threading.stack_size(256 * 1024)\n    ev = threading.Event()\n"
    "    n, ts = 0, []\n    try:\n        for _ in range(20):\n"
    "            t = threading.Thread(target=ev.wait)\n            t.start()\n"
    "            ts.append(t)\n            n += 1\n    except RuntimeError:\n        pass\n"
    "    ev.set()\n    [t.join() for t in ts]\n    return n\n"
)
"""Threads until RLIMIT_NPROC refuses one (small stacks: the count decides)."""
FOUR = dataclasses.replace(LIMITS, processes=4)
"""4 processes: python3 main.py starts 3 threads."""

LEAVES = {
    "its whole count alive, each in a session of its own": (
        "import time\nfor _ in range(8):\n    try:\n        if os.fork() == 0:\n"
        "            os.setsid()\n            time.sleep(30)\n            os._exit(0)\n"
        "    except OSError:\n        break\n"
    ),
    "zombies: children that exit unwaited for": (
        "for _ in range(2):\n    if os.fork() == 0:\n        os._exit(0)\n"
    ),
    "its own RLIMIT_NPROC lowered to 0": (
        "resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))\n"
    ),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(LEAVES))
def test_what_a_test_leaves_takes_no_process_from_the_next(name: str, mode: Mode) -> None:
    """Each test prints the threads it could start, then leaves `name`: every test prints
    3, as python3 main.py at 4 processes (the harness forks each next test's process)."""
    code = THREADS + "print(started(), flush=True)\n" + LEAVES[name]
    assert plain(code, mode, limits=FOUR) == "3\n"
    assert io(code, [{"input": "", "output": "3\n"}] * 3, mode, limits=FOUR) == [PASS] * 3


ORPHAN = (
    "\ndef orphan():\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n"
    "    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)\n    os._exit(3)\n"
)
"""`orphan()`: the worker ends, leaving a child that has exited (never waited for)."""


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_replacement_worker_starts_as_many_threads_as_the_first(mode: Mode) -> None:
    """The first worker starts 3 threads at 4 processes; after it crashes, its
    replacement (which the zygote or the server forks) starts 3 as well."""
    tests = ["assert started() == 3, started()", "crash()", "assert started() == 3, started()"]
    assert fn(THREADS + CRASH, tests, mode, limits=FOUR) == [PASS, DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_a_dead_workers_dead_child_takes_no_process_from_the_next_worker(mode: Mode) -> None:
    """A worker that dies leaving an exited child: the replacement starts 3 threads, as
    python3 main.py (its dead children are reaped by the jail's init)."""
    tests = ["orphan()", "assert started() == 3, started()"]
    assert fn(THREADS + ORPHAN, tests, mode, limits=FOUR) == [DIED, PASS]


ONE = dataclasses.replace(LIMITS, processes=1)


@pytest.mark.parametrize("mode", MODES)
def test_a_one_process_budget_reads_as_python3s(mode: Mode) -> None:
    """At 1 process python3 main.py starts no thread: nor does a test's process, a first
    worker or its replacement (the harness's own processes are not the program's)."""
    code = THREADS + "print(started())\n"
    assert plain(code, mode, limits=ONE) == "0\n"
    assert io(code, [{"input": "", "output": "0\n"}] * 2, mode, limits=ONE) == [PASS, PASS]
    tests = ["assert started() == 0, started()", "crash()", "assert started() == 0, started()"]
    assert fn(THREADS + CRASH, tests, mode, limits=ONE) == [PASS, DIED, PASS]


FILL = THREADS + CRASH + (
    "import time\ndef fill(keep):\n    n = 0\n    for _ in range(8):\n        try:\n"
    "            if os.fork() == 0:\n                os.setsid()\n"
    "                if not keep:\n                    os.closerange(0, 64)\n"
    "                time.sleep(30)\n                os._exit(0)\n"
    "            n += 1\n        except OSError:\n            break\n    return n\n"
    "def one():\n    return 1\n")
"""`fill(keep)`: children until the count is full, alive; `keep`: holding the worker's
descriptors (its channel and pipes), as a plain fork leaves them."""


@pytest.mark.parametrize("keep", [False, True])
@pytest.mark.parametrize("mode", MODES)
def test_a_worker_at_its_process_count_is_replaced_and_judged(mode: Mode, keep: bool) -> None:
    """A worker that starts its whole count of children (alive, sessions of their own) and
    then crashes: that test an error, the next gets a replacement worker (the harness's
    zygote is another uid: its fork is not the program's count) and is judged, never an
    abstention; the same where the children hold the worker's descriptors."""
    tests = [f"assert fill({keep}) == 3, fill()", "crash()", "assert one() == 1",
             "assert one() == 2"]
    assert fn(FILL, tests, mode, limits=FOUR) == [
        PASS, DIED, PASS, ("fail", "AssertionError: assert one() == 2", True)]


# --- (F) honest programs: every test passes, cold and warm, as the plain run ---------------

HONEST = {
    "ids, capabilities, limits, folders": PRE + (
        "import resource, stat\ndata = (ctypes.c_uint32 * 6)()\nlibc.capget(hdr, data)\n"
        "print(os.getresuid(), os.getresgid(), os.getgroups(), list(data),"
        " libc.prctl(39, 0, 0, 0, 0), [resource.getrlimit(getattr(resource, 'RLIMIT_' + k))"
        " for k in ('NPROC', 'NOFILE', 'CPU', 'FSIZE')], oct(os.umask(0o22)), os.getcwd(),"
        " [oct(os.stat(p).st_mode) for p in ('/work', '/work/d', '/work/d/e', '/tmp')],"
        " os.access('/work/d/e', os.W_OK), os.getpriority(os.PRIO_PROCESS, 0))\n"
    ),
    "signal dispositions and mask": (
        "import os, signal\nnames = {}\nfor n in signal.valid_signals():\n"
        "    try:\n        h = signal.getsignal(n)\n    except ValueError:\n        continue\n"
        "    if h is not None and h != signal.SIG_DFL:\n        names[int(n)] = str(h)[:40]\n"
        "print(names, sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])))\n"
    ),
    "threads and subprocesses": (
        "import subprocess, sys, threading\nout = []\n"
        "ts = [threading.Thread(target=lambda i=i: out.append(i * i)) for i in range(5)]\n"
        "[t.start() for t in ts]\n[t.join() for t in ts]\n"
        "r = subprocess.run(['sh', '-c', 'id -u; echo $HOME; cat /work/d/e/b.txt'],"
        " capture_output=True, text=True)\n"
        "p = subprocess.run([sys.executable, '-c', 'import os; print(os.getuid())'],"
        " capture_output=True, text=True)\n"
        "print(sorted(out), r.stdout.split(), p.stdout.strip(), r.returncode)\n"
    ),
    "files written beside the inputs and read back": (
        "import os, shutil\nopen('/work/d/e/out.txt', 'w').write(open('/work/d/e/b.txt')"
        ".read() * 2)\nos.makedirs('/work/d/res/x')\nos.rename('/work/d/e/out.txt',"
        " '/work/d/res/x/out.txt')\nprint(repr(open('d/res/x/out.txt').read()),"
        " sorted(os.listdir('/work/d')))\nshutil.rmtree('/work/d/res')\n"
        "open('/work/new.txt', 'w').write('n')\nos.chmod('/work/new.txt', 0o600)\n"
        "print(oct(os.stat('/work/new.txt').st_mode), open('/work/top.txt').read().strip())\n"
    ),
    "tempfile, a module of its own, pathlib globbing": (
        "import os, pathlib, sys, tempfile\nsys.path.insert(0, '/work/d')\n"
        "open('/work/d/mine.py', 'w').write('def f():\\n    return 7\\n')\nimport mine\n"
        "with tempfile.TemporaryDirectory() as t:\n    open(t + '/x', 'w').close()\n"
        "    print(mine.f(), t.startswith('/tmp/'), os.listdir(t))\n"
        "print(sorted(str(p) for p in pathlib.Path('/work').rglob('*.txt')))\n"
    ),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(HONEST))
def test_an_honest_program_passes_every_test_as_its_plain_run(name: str, mode: Mode) -> None:
    """The plain run's output, from each stdin/stdout test, a first worker (twice) and
    its replacement: every test passes."""
    body = HONEST[name]
    want = plain(body, mode)
    judged_alike(body, mode, want)


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> Iterator[Taken]:
    _spare.spares.close()
    yield Taken(monkeypatch)
    _spare.spares.close()


@pytest.mark.parametrize("kind", ["io", "fn"])
def test_a_spare_jails_harness_is_apart_too(taken: Taken, kind: str) -> None:
    """Three cold runs of one shape, the third through the spare the second started (the
    harness's capabilities are part of its key): each test reads the plain run's ids,
    capabilities, limits and folder modes, and writes beside its inputs."""
    body = HONEST["ids, capabilities, limits, folders"] + HONEST[
        "files written beside the inputs and read back"]
    want = plain(body, "cold")
    _spare.spares.close()
    taken.hits = taken.misses = 0
    for _ in range(3):
        if kind == "io":
            assert io(body, [{"input": "", "output": want}] * 2, "cold") == [PASS, PASS]
        else:
            assert fn(as_function(body), [f"assert answer() == {want!r}, answer()"] * 2,
                      "cold") == [PASS, PASS]
    assert taken.hits == 1


@pytest.mark.parametrize("kind", ["io", "fn"])
def test_a_harness_that_cannot_set_itself_apart_is_the_sandboxs_failure(
        monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """A host whose jail keeps the harness fewer capabilities than it needs (here CAP_KILL
    alone, `_tests.HARNESS_CAPABILITIES`): the harness stops before any program runs; that
    run is the sandbox's failure, not the program's: `run_tests` raises SandboxError (as for
    a jail nsjail cannot start), and so does a batch of such runs (`run_tests_many`, what the
    code reward runs: it raises where every job meets the sandbox's failure; one job among
    good ones is that job's sandbox_error, on which the reward abstains). (Found open by this round: it read
    as the program's runtime_error, each test an error; fixed after it.)"""
    from sandbox import _tests

    monkeypatch.setattr(_tests, "HARNESS_CAPABILITIES", {"python": ("CAP_KILL",),
                                                         "io": ("CAP_KILL",)})
    spec: dict[str, Any]
    if kind == "io":
        spec = {"code": "print(input())", "tests": [{"input": "a\n", "output": "a\n"}]}
    else:
        spec = {"code": "def f():\n    return 1\n", "tests": ["assert f() == 1"]}
    _spare.spares.close()
    try:
        with pytest.raises(sandbox.SandboxError, match="could not keep apart"):
            sandbox.run_tests(**spec, limits=LIMITS, mode="cold")
        with pytest.raises(sandbox.SandboxError, match="could not keep apart"):
            sandbox.run_tests_many([{**spec, "limits": LIMITS, "mode": "cold"}] * 2)
    finally:
        _spare.spares.close()
