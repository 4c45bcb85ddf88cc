"""Red team (rt21) of merge e0f88f2 (h-sb10, commits 5fbd5e9 and d7254e5, issue #38): a Python
stdin/stdout test's process is an exec of `python3 -E -s -S main.py` itself, warm and cold
(`harness_io.run_case`: fork, `setsid`, the test's pipes on 0/1/2, `closerange(3, 4096)`,
`chdir('/work')`, `enter_program`, `execv` of the task's command).

The rule under attack: a stdin/stdout test's verdict is what `python3 main.py`, run alone in
a cold jail (`sandbox.run(..., mode="cold")`, the child of the jail's init since h-sb15,
as on a host), gives on that input, warm
and cold alike, and no program changes another test's or run's verdict.

What: (1) what an exec inherits that a fresh `python3 main.py` started by the jail does not:
signal dispositions and mask, descriptors (modes, flags, pipe sizes), environment, cwd,
umask, uids, rlimits one by one, prctl state (dumpable, no_new_privs, seccomp, securebits,
capabilities, bounding set, parent-death signal, timer slack), scheduling, itimers,
`sys.executable`/argv/flags/path, session and process group, pid and parent, what
`kill(-1, 0)` reaches, stdin bytes; (2) endings whose verdict the harness reads from the
exec'd process: exit codes past 255, `os._exit` with and without a flush, signals a program
sends itself, orphans it waits for, children that write after it exits or keep its stdout;
(3) state one test leaves for the next in the same run (files, zombies, a daemon) and
processes an io run leaves for the next run on its warm server; (4) the harness itself:
every signal a test may send its parent, its group and pid 1, `prlimit`, priority and
affinity of the parent, ptrace, process_vm_readv, pidfd_getfd and /proc or /dev/fd paths to
it, verdict lines written on every descriptor with magic exit codes; (5) the code reward on a
stdin/stdout task, warm and cold; a bash program's background job.
How: each program runs as a cold plain run (the reference, `python3 main.py`) and as a
stdin/stdout test cold and warm; held attacks are plain tests, open holes strict xfails
naming the class and the function suspected at the root. Probes of rounds sb5 and sb7 are
not repeated here.

Open holes, by root (h-sb12 closed: output after exit, a child keeping stdout open, the
process count forked, every cross-test state, the cold harness's SIGINT; see
`harness_io.run_case`, `end_processes`, `restore`):
- Closed by h-sb15 (the reference was its jail's pid 1; now the jail's init,
  `_in_jail/init.py`, is, and `python3 main.py` is its child, as a plain process on a host):
  `os.getpid()`/`getppid()` (probed as a host gives them: neither 1 nor 0), the
  parent-death signal, a signal a program sends itself or its group, a SIGSTOP to itself,
  orphans reparented to the program.
- Closed when the cold harness took a uid of its own (`harness.apart`, as warm: each
  test's process takes PROGRAM_UID, no capability and the program's own count,
  `enter_program`): the run's process count (RLIMIT_NPROC read processes + 1, 33, where
  python3 reads 32), the uid and gid (99999 where python3 reads 99998), and
  `prlimit(getppid(), ...)` of RLIMIT_NOFILE, RLIMIT_AS or RLIMIT_NPROC, which left the
  cold harness no pipe, memory or fork for the next test (now EPERM, as warm).
- The bounding set: nsjail's `--cap` leaves what each jail keeps (a cold plain run's
  CAP_KILL/SETGID/SETUID; a warm jail's and a cold stdin/stdout test jail's those and
  CAP_FOWNER, which its harness keeps for `restore`).
- Warm only: `kill(-1, 0)` succeeds (the warm harness is not pid 1 and counts), ESRCH
  cold.
"""

from __future__ import annotations

import pytest
from test_redteam_round_sb5 import DOUBLE, LIMITS, MODES, code_reward_values, io_passed

import sandbox


def python3(code: str, stdin: str = "") -> sandbox.Execution:
    """The reference: `python3 -E -s -S main.py` alone in a cold jail."""
    return sandbox.run(code, stdin=stdin, limits=LIMITS, mode="cold")


def python_passes(code: str, stdin: str, expected: str) -> int:
    """1 where python3 main.py, on `stdin`, ends `ok` with `expected` (exact comparison)."""
    ran = python3(code, stdin)
    return int(ran.status == "ok" and ran.stdout.rstrip("\n") == expected.rstrip("\n"))


def outcomes(code: str, tests: list[dict[str, str]]) -> list[list[str]]:
    """Each test's outcome, cold then warm."""
    return [[r.outcome for r in sandbox.run_tests(code, tests, limits=LIMITS,
                                                  mode=mode).results] for mode in MODES]


def cases(table: dict[str, object], open_: dict[str, str]) -> list[object]:
    """The names of `table`, those in `open_` strict xfails naming their class and root."""
    return [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=f"open: {open_[name]}"))
            if name in open_ else name for name in sorted(table)]


# --- 1. what a test's process inherits: each aspect as python3 main.py prints it ------------

PRCTL = r'''import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                       ctypes.c_ulong]
def ptr(v):
    return ctypes.cast(ctypes.pointer(v), ctypes.c_void_p).value
out = {}
for name, opt in [("dumpable", 3), ("keepcaps", 7), ("timerslack", 30), ("seccomp", 21),
                  ("nnp", 39), ("securebits", 27), ("thp", 42)]:
    out[name] = libc.prctl(opt, 0, 0, 0, 0)
v = ctypes.c_int(-5)
out["subreaper"] = (libc.prctl(37, ptr(v), 0, 0, 0), v.value)
out["ambient"] = [libc.prctl(47, 1, c, 0, 0) for c in range(41)]
hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)
data = (ctypes.c_uint32 * 6)()
libc.capget(hdr, data)
out["caps"] = list(data)
out["sched"] = (os.sched_getscheduler(0), os.sched_getparam(0).sched_priority,
                os.getpriority(os.PRIO_PROCESS, 0))
out["ioprio"] = libc.syscall(252, 1, 0)
out["personality"] = libc.syscall(135, 0xffffffff)
name = ctypes.create_string_buffer(32)
libc.prctl(16, ctypes.cast(name, ctypes.c_void_p).value, 0, 0, 0)
out["comm"] = name.value.decode()
'''

RLIMITS = ("import resource\nprint([(n, resource.getrlimit(getattr(resource, n))) for n in"
           " sorted(dir(resource)) if n.startswith('RLIMIT_') and n != 'RLIMIT_NPROC'])\n")

ASPECTS = {
    "signal dispositions and mask": (
        "import signal\nprint([(int(s), str(signal.getsignal(s))) for s in"
        " sorted(signal.valid_signals()) if s not in (9, 19)],"
        " sorted(map(int, signal.pthread_sigmask(signal.SIG_BLOCK, []))),"
        " sorted(map(int, signal.sigpending())))\n"),
    "descriptors, their modes and flags": (
        "import os, stat, fcntl\nfds = []\nfor fd in range(4200):\n    try:\n"
        "        s = os.fstat(fd)\n    except OSError:\n        continue\n"
        "    fds.append((fd, oct(s.st_mode), os.get_inheritable(fd),"
        " fcntl.fcntl(fd, fcntl.F_GETFL), fcntl.fcntl(fd, fcntl.F_GETFD)))\nprint(fds)\n"),
    "pipe sizes of the standard streams": (
        "import fcntl\nprint([fcntl.fcntl(fd, 1032) for fd in (0, 1, 2)])\n"),
    "environment, umask, folder, groups": (
        "import os\nu = os.umask(0)\nprint(oct(u), sorted(os.environ.items()), os.getcwd(),"
        " os.getgroups(), sorted(os.listdir('/work')), sorted(os.listdir('/tmp')))\n"),
    "rlimits but the process count": RLIMITS,
    "prctl state, capabilities, scheduling": PRCTL + "print(sorted(out.items()))\n",
    "itimers, alarm, children's usage": (
        "import signal, resource\nprint([signal.getitimer(t) for t in (signal.ITIMER_REAL,"
        " signal.ITIMER_VIRTUAL, signal.ITIMER_PROF)], signal.alarm(0),"
        " resource.getrusage(resource.RUSAGE_CHILDREN))\n"),
    "the interpreter's command line and settings": (
        "import sys\nprint(sys.executable, sys.argv, sys.orig_argv, sys.flags, sys.path,"
        " sys.getrecursionlimit(), sys.prefix, sys.base_prefix, __file__)\n"),
    "session, process group, terminal": (
        "import os\ntry:\n    os.open('/dev/tty', os.O_RDWR)\n    tty = 'tty'\n"
        "except OSError as e:\n    tty = e.errno\n"
        "print(os.getsid(0) == os.getpid(), os.getpgrp() == os.getpid(), tty,"
        " os.isatty(0), os.tcgetpgrp(0) if os.isatty(0) else None)\n"),
    "the process count": (
        "import resource\nprint(resource.getrlimit(resource.RLIMIT_NPROC))\n"),
    "uid and gid": "import os\nprint(os.getresuid(), os.getresgid())\n",
    # as a plain process on a host (no pid number is fixed there): not pid 1, a parent
    "pid and parent": "import os\nprint(os.getpid() > 1, os.getppid() > 0)\n",
    "the parent-death signal": (
        "import ctypes\nlibc = ctypes.CDLL(None)\nv = ctypes.c_int(-5)\n"
        "libc.prctl(2, ctypes.byref(v), 0, 0, 0)\nprint(v.value)\n"),
    "the capability bounding set": (
        "import ctypes\nlibc = ctypes.CDLL(None)\n"
        "print([libc.prctl(23, c, 0, 0, 0) for c in range(41)])\n"),
    "what kill(-1, 0) reaches": (
        "import os\ntry:\n    os.kill(-1, 0)\n    print('reached')\nexcept OSError as e:\n"
        "    print(e.errno)\n"),
    # small stacks: with the default 8 MiB ones the address-space limit decides, and where
    # the kernel places them makes python3's own count vary (14 or 22) from run to run; with
    # these the process limit decides, the same number every run (31 here)
    "threads a program may start": (
        "import threading\nthreading.stack_size(256 * 1024)\nev = threading.Event()\nn = 0\n"
        "try:\n    for _ in range(100):\n"
        "        threading.Thread(target=ev.wait).start()\n        n += 1\n"
        "except RuntimeError:\n    pass\nev.set()\nprint(n)\n"),
}

OPEN_ASPECTS = {
    "the capability bounding set": (
        "warm/cold: nsjail --cap leaves what each jail keeps in every process's bounding set "
        "(no process can drop it without CAP_SETPCAP): a cold plain run's CAP_KILL, "
        "CAP_SETGID, CAP_SETUID (_jail.COLD_INIT_CAPABILITIES, since h-uid), a warm one's "
        "and a cold io test's those and CAP_FOWNER (WARM_CAPABILITIES; "
        "_tests.HARNESS_CAPABILITIES: the io harness's restore)"),
    "what kill(-1, 0) reaches": (
        "warm/cold: the warm stdin/stdout harness is not its jail's pid 1, so kill(-1, 0) "
        "counts it (EPERM counts as reached: the call succeeds); cold the harness is pid 1 "
        "and python3 main.py alone: ESRCH (3)"),
}


@pytest.mark.parametrize("name", cases(ASPECTS, OPEN_ASPECTS))
def test_a_test_process_inherits_what_python3_main_py_starts_with(name: str) -> None:
    reference = python3(ASPECTS[name])
    assert reference.status == "ok", reference
    assert io_passed(ASPECTS[name], [{"input": "", "output": reference.stdout}]) == [1, 1]


def test_a_test_reads_its_own_input_byte_for_byte() -> None:
    """Each test's stdin is a pipe of its own holding its input only, as python3's is."""
    code = ("import sys, hashlib\nd = sys.stdin.buffer.read()\n"
            "print(len(d), hashlib.sha256(d).hexdigest(), repr(d[:40]))\n")
    inputs = ["a\r\nb\x00c\u00e9 \n", "", "x" * 70000]
    tests = [{"input": text, "output": python3(code, text).stdout} for text in inputs]
    assert io_passed(code, tests) == [3, 3]


# --- 2. endings: the verdict as python3 main.py's status and output gives it ---------------

# name: (program, its stdin, the output a test expects)
ENDINGS = {
    "sys.exit(256) after the output": ("print('42')\nimport sys\nsys.exit(256)\n", "", "42"),
    "sys.exit(-256) after the output": ("print('42')\nimport sys\nsys.exit(-256)\n", "", "42"),
    "sys.exit(255) after the output": ("print('42')\nimport sys\nsys.exit(255)\n", "", "42"),
    "os._exit(0) after a flush": ("import os\nprint('42', flush=True)\nos._exit(0)\n", "", "42"),
    "os._exit(0) before a flush": ("import os\nprint('42')\nos._exit(0)\n", "", "42"),
    "os._exit(3) after a flush": ("import os\nprint('42', flush=True)\nos._exit(3)\n", "", "42"),
    "the output, then an uncaught error": ("print('42')\nraise ValueError\n", "", "42"),
    "the output, then a KeyboardInterrupt": ("print('42')\nraise KeyboardInterrupt\n", "",
                                              "42"),
    "the answer, then os.abort()": (
        "import os\nprint(int(input()) * 2, flush=True)\nos.abort()\n", "2\n", "4"),
    "exec of /bin/echo": ("import os\nos.execv('/bin/echo', ['echo', '42'])\n", "", "42"),
    "exec of /bin/false after the output": (
        "import os\nprint('42', flush=True)\nos.execv('/bin/false', ['false'])\n", "", "42"),
    "stdout and stderr closed, then a pause": (
        ("import os, time\nprint('42', flush=True)\nos.close(1)\nos.close(2)\n"
         "time.sleep(0.3)\n"), "", "42"),
    "a child in the same session left sleeping": (
        ("import os, time\nprint('42', flush=True)\nif os.fork() == 0:\n    os.close(1)\n"
         "    os.close(2)\n    time.sleep(30)\n    os._exit(0)\n"), "", "42"),
    "SIGTERM to itself": (
        "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\nprint('42')\n", "", "42"),
    "SIGKILL to itself": (
        "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\nprint('42')\n", "", "42"),
    "SIGTERM to its process group": (
        "import os, signal\nos.kill(0, signal.SIGTERM)\nprint('42')\n", "", "42"),
    "raise_signal(SIGUSR1)": (
        "import signal\nsignal.raise_signal(signal.SIGUSR1)\nprint('42')\n", "", "42"),
    "SIGSTOP to itself after closing its output": (
        ("import os, signal, sys\nsys.stdout.write('42\\n')\nsys.stdout.flush()\nos.close(1)\n"
         "os.close(2)\nos.kill(os.getpid(), signal.SIGSTOP)\n"), "", "42"),
    "a grandchild reaped by os.wait": (
        ("import os, time\nif os.fork() == 0:\n    if os.fork() == 0:\n        os._exit(3)\n"
         "    os._exit(0)\ntime.sleep(0.3)\nr = []\nfor _ in range(2):\n    try:\n"
         "        r.append(os.waitstatus_to_exitcode(os.wait()[1]))\n"
         "    except ChildProcessError:\n        r.append('none')\n"
         "print(sorted(map(str, r)))\n"), "", "['0', '3']"),
    "a child's output written after the program exits": (
        ("import os, time\nif os.fork() == 0:\n    time.sleep(0.3)\n    os.write(1, b'42\\n')\n"
         "    os._exit(0)\n"), "", "42"),
    "a child that keeps stdout open after the program exits": (
        ("import os, time\nprint('42', flush=True)\nif os.fork() == 0:\n    time.sleep(30)\n"
         "    os._exit(0)\n"), "", "42"),
    "a daemon thread's output after the main thread ends": (
        ("import threading, time, os\ndef late():\n    time.sleep(0.3)\n"
         "    os.write(1, b'late\\n')\nthreading.Thread(target=late, daemon=True).start()\n"
         "print('42')\n"), "", "42"),
    "stdout exactly at the output limit": (
        "import sys\nsys.stdout.write('x' * 65535 + '\\n')\n", "", "x" * 65535),
    "stdout one byte past the output limit": (
        "import sys\nsys.stdout.write('x' * 65536 + '\\n')\n", "", "x" * 65536),
    "stderr one byte past the output limit": (
        "import sys\nsys.stderr.write('x' * 65537)\nprint('42')\n", "", "42"),
    "forks past python3's process count": (
        ("import os, time\nkids = []\ntry:\n    for _ in range(32):\n        pid = os.fork()\n"
         "        if pid == 0:\n            time.sleep(5)\n            os._exit(0)\n"
         "        kids.append(pid)\n    print('42')\nexcept OSError:\n    print('eagain')\n"
         "for k in kids:\n    os.kill(k, 9)\n    os.waitpid(k, 0)\n"), "", "42"),
}

OPEN_ENDINGS: dict[str, str] = {}  # the pid 1 endings held since h-sb15 (`_in_jail/init.py`)


@pytest.mark.parametrize("name", cases(ENDINGS, OPEN_ENDINGS))
def test_a_test_is_judged_as_python3_main_py_ends(name: str) -> None:
    code, stdin, expected = ENDINGS[name]
    want = python_passes(code, stdin, expected)
    assert io_passed(code, [{"input": stdin, "output": expected}]) == [want, want]


def test_exit_status_past_255_passes_as_python3_passes_it() -> None:
    """Held, asserted exactly: python3 exits 256 & 0xFF = 0."""
    code = ENDINGS["sys.exit(256) after the output"][0]
    ran = python3(code)
    assert (ran.status, ran.exit_code, ran.stdout) == ("ok", 0, "42\n"), ran
    assert io_passed(code, [{"input": "", "output": "42\n"}]) == [1, 1]


def test_a_runs_status_reads_as_python3s_where_its_text_names_an_error() -> None:
    """A program whose last stderr line names MemoryError (its own text) and exits 1: the
    run's status is what python3 main.py's run is called (both read the text alike), and the
    test is an error, never a pass."""
    code = "import sys\nprint(int(input()) * 2)\nsys.exit('no MemoryError here')\n"
    reference = python3(code, "2\n")
    assert (reference.exit_code, reference.stdout) == (1, "4\n"), reference
    for mode in MODES:
        report = sandbox.run_tests(code, [{"input": "2\n", "output": "4\n"}], limits=LIMITS,
                                   mode=mode)
        assert (report.status, [r.outcome for r in report.results]) == \
            (reference.status, ["error"]), (mode, report)


# --- 3. what one test leaves for the next test of its run, and for the next run ------------

# test 1 leaves something behind ("leave"), test 2 reads it ("read"); python3 main.py on
# "read" alone is the reference
LEFT = {
    "files in /work and /tmp": (
        "import os\nif input() == 'leave':\n    open('/work/left', 'w').close()\n"
        "    open('/tmp/left', 'w').close()\n    print('left')\nelse:\n"
        "    print(sorted(os.listdir('/work')), sorted(os.listdir('/tmp')))\n"),
    "zombies of its orphans": (
        "import os, time\nif input() == 'leave':\n    for _ in range(20):\n"
        "        if os.fork() == 0:\n            os._exit(0)\n    print('left')\nelse:\n"
        "    kids = []\n    try:\n        for _ in range(25):\n            pid = os.fork()\n"
        "            if pid == 0:\n                time.sleep(5)\n                os._exit(0)\n"
        "            kids.append(pid)\n        print('forked 25')\n    except OSError:\n"
        "        print('eagain')\n    for k in kids:\n        os.kill(k, 9)\n"
        "        os.waitpid(k, 0)\n"),
    "a daemon in a session of its own": (
        "import os, time\nif input() == 'leave':\n    if os.fork() == 0:\n        os.setsid()\n"
        "        if os.fork() == 0:\n            for fd in (0, 1, 2):\n                os.close(fd)\n"
        "            time.sleep(20)\n        os._exit(0)\n    os.wait()\n    print('left')\n"
        "else:\n    n = 0\n    for p in range(2, 200):\n        try:\n"
        "            os.kill(p, 0)\n            n += p != os.getpid() and p != os.getppid()\n"
        "        except OSError:\n            pass\n    print(n)\n"),
    "a /work locked by chmod 0": (
        "import os\nif input() == 'leave':\n    try:\n        os.chmod('/work', 0)\n"
        "    except OSError:\n        pass\n    print('left')\nelse:\n    print(os.getcwd())\n"),
    "signal settings and the umask": (
        "import os, signal\nif input() == 'leave':\n    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])\n    os.umask(0o077)\n"
        "    os.environ['LEAK'] = '1'\n    print('left')\nelse:\n"
        "    print(signal.getsignal(signal.SIGTERM), signal.pthread_sigmask(signal.SIG_BLOCK, []),"
        " oct(os.umask(0)), 'LEAK' in os.environ)\n"),
}

OPEN_LEFT: dict[str, str] = {}  # all held since h-sb12 (harness_io.end_processes, restore)


@pytest.mark.parametrize("name", cases(LEFT, OPEN_LEFT))
def test_what_one_test_leaves_reaches_no_later_test(name: str) -> None:
    code = LEFT[name]
    reference = python3(code, "read\n")
    assert reference.status == "ok", reference
    tests = [{"input": "leave\n", "output": "left\n"},
             {"input": "read\n", "output": reference.stdout}]
    assert outcomes(code, tests) == [["pass", "pass"]] * 2


def test_a_daemon_an_io_run_leaves_reaches_no_later_run_on_its_server() -> None:
    """A daemon of a warm stdin/stdout run that writes into /work and /tmp after the run,
    and forks: the next runs on the server see empty folders and their whole process count."""
    code = ("import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
            "        for fd in (0, 1, 2):\n            os.close(fd)\n        time.sleep(0.5)\n"
            "        for top in ('/work', '/tmp'):\n            try:\n"
            "                open(top + '/late', 'w').close()\n            except OSError:\n"
            "                pass\n        time.sleep(20)\n    os._exit(0)\nos.wait()\n"
            "for _ in range(10):\n    if os.fork() == 0:\n        os._exit(0)\nprint('left')\n")
    probe = ("import os, time\ntime.sleep(0.8)\nn, kids = 0, []\nwhile n < 100:\n    try:\n"
             "        pid = os.fork()\n    except OSError:\n        break\n    if pid == 0:\n"
             "        time.sleep(5)\n        os._exit(0)\n    kids.append(pid)\n    n += 1\n"
             "for k in kids:\n    os.kill(k, 9)\n    os.waitpid(k, 0)\n"
             "print(sorted(os.listdir('/work')), sorted(os.listdir('/tmp')), n)\n")
    honest = sandbox.run(probe, limits=LIMITS, mode="warm")
    assert honest.status == "ok" and honest.stdout.startswith("['main.py'] [] "), honest
    for _ in range(2):
        report = sandbox.run_tests(code, [{"input": "", "output": "left\n"}], limits=LIMITS,
                                   mode="warm")
        assert report.passed == 1, report
        after = sandbox.run(probe, limits=LIMITS, mode="warm")
        assert (after.status, after.stdout) == ("ok", honest.stdout), after


# --- 4. the harness: signals, rlimits and verdict lines aimed at it -------------------------

# test 1 aims at its parent and pid 1; tests 2 and 3 are honest and must pass in both modes
AIMED = {
    "SIGINT": "os.kill(t, signal.SIGINT)",
    "SIGTERM": "os.kill(t, signal.SIGTERM)",
    "SIGKILL": "os.kill(t, signal.SIGKILL)",
    "SIGSTOP": "os.kill(t, signal.SIGSTOP)",
    "SIGUSR1": "os.kill(t, signal.SIGUSR1)",
    "SIGPIPE": "os.kill(t, signal.SIGPIPE)",
    "SIGCHLD": "os.kill(t, signal.SIGCHLD)",
    "SIGALRM": "os.kill(t, signal.SIGALRM)",
    "prlimit RLIMIT_NOFILE": "resource.prlimit(t, resource.RLIMIT_NOFILE, (4, 4))",
    "prlimit RLIMIT_AS": "resource.prlimit(t, resource.RLIMIT_AS, (1 << 20, 1 << 20))",
    "prlimit RLIMIT_FSIZE": "resource.prlimit(t, resource.RLIMIT_FSIZE, (0, 0))",
    "kill(-1, SIGKILL)": "os.kill(-1, signal.SIGKILL) if t == 1 else None",
    "SIGKILL to its process group": "os.kill(-t, signal.SIGKILL)",
    "prlimit RLIMIT_NPROC": "resource.prlimit(t, resource.RLIMIT_NPROC, (1, 1))",
    "prlimit RLIMIT_CPU": "resource.prlimit(t, resource.RLIMIT_CPU, (1, 1))",
    "setpriority 19": "os.setpriority(os.PRIO_PROCESS, t, 19)",
    "sched_setaffinity": "os.sched_setaffinity(t, {min(os.sched_getaffinity(0))})",
}

OPEN_AIMED: dict[str, str] = {}
"""Held since the cold harness took a uid of its own (`harness.apart`): prlimit of its
RLIMIT_NOFILE, RLIMIT_AS or RLIMIT_NPROC from a test was a strict xfail cold (it left the
harness no pipe, memory or fork for the next test); now EPERM, as warm."""


@pytest.mark.parametrize("name", cases(AIMED, OPEN_AIMED))
def test_a_test_aiming_at_its_harness_leaves_later_tests_judged(name: str) -> None:
    code = ("import os, signal, resource\nline = input()\nif line == 'aim':\n"
            "    for t in (os.getppid(), 1):\n        try:\n"
            f"            {AIMED[name]}\n        except OSError:\n            pass\n"
            "print(line)\n")
    tests = [{"input": "aim\n", "output": "aim\n"}, {"input": "a\n", "output": "a\n"},
             {"input": "b\n", "output": "b\n"}]
    assert outcomes(code, tests) == [["pass", "pass", "pass"]] * 2


def test_a_bash_background_jobs_output_is_judged_as_bash_main_sh_prints_it() -> None:
    code = "(sleep 0.3; echo 42) &\n"
    ran = sandbox.run(code, "bash", limits=LIMITS, mode="cold")
    want = int(ran.status == "ok" and ran.stdout == "42\n")
    report = sandbox.run_tests(code, [{"input": "", "output": "42\n"}], "bash", limits=LIMITS,
                               mode="cold")
    assert report.passed == want, (ran, report)


REACH_PARENT = r"""import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
t = os.getppid() or 1
got = []
got.append(libc.syscall(101, 16, t, 0, 0) == 0)  # ptrace(PTRACE_ATTACH)
buf = ctypes.create_string_buffer(64)
local = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 64)
remote = (ctypes.c_void_p * 2)(0x400000, 64)
got.append(libc.syscall(310, t, local, 1, remote, 1, 0) > 0)  # process_vm_readv
fd = libc.syscall(434, t, 0)  # pidfd_open
got.append(fd >= 0 and libc.syscall(438, fd, 1, 0) >= 0)  # pidfd_getfd of its stdout
for path in (f"/proc/{t}/mem", f"/proc/{t}/fd/1", "/dev/fd/3", "/dev/stdout"):
    try:
        os.close(os.open(path, os.O_RDWR))
        got.append(True)
    except OSError:
        got.append(False)
print(got)
"""


def test_a_test_reaches_nothing_of_its_harness_through_ptrace_pidfd_or_paths() -> None:
    """ptrace, process_vm_readv, pidfd_getfd and /proc or /dev/fd paths to the harness's
    memory or verdict stream: all refused, in both modes, the same as python3 sees them."""
    reference = python3(REACH_PARENT)
    assert reference.stdout == "[False, False, False, False, False, False, False]\n", reference
    assert io_passed(REACH_PARENT, [{"input": "", "output": reference.stdout}]) == [1, 1]


def test_verdict_lines_on_every_descriptor_and_magic_exits_pass_nothing() -> None:
    """A program writes lines shaped as the harness's records (a guessed nonce, a test
    index, a pass) to every descriptor it may have, then exits with codes that mean
    something to someone (0 by exit(256), 70, 127, 130): its wrong output fails."""
    record = b'%s{"test": %d, "verdict": ["pass", "", 0.0]}\n'
    code = ("import os, sys\nline = input()\nfor fd in range(0, 4200):\n"
            "    for i in range(4):\n        try:\n"
            f"            os.write(fd, {record!r} % (b'0' * 32, i))\n"
            "        except OSError:\n            break\n"
            "print('wrong')\nsys.stdout.flush()\nos._exit(int(line) & 0xFF)\n")
    tests = [{"input": f"{code_}\n", "output": "right\n"} for code_ in (256, 70, 127, 130)]
    assert outcomes(code, tests) == [["fail", "error", "error", "error"]] * 2


# --- 5. the code reward on a stdin/stdout task ---------------------------------------------


def honest_and_failing(monkeypatch: pytest.MonkeyPatch) -> tuple[list[float | None], ...]:
    honest = code_reward_values(monkeypatch, "print(int(input()) * 2)\n", DOUBLE)
    failing = code_reward_values(monkeypatch, "print(0)\n", DOUBLE)
    assert honest == [1.0, 1.0] and failing[0] == failing[1] and failing[0] != 1.0, \
        (honest, failing)
    return honest, failing


def test_the_code_reward_passes_exit_256_as_python3_does(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    honest, _ = honest_and_failing(monkeypatch)
    program = "import sys\nprint(int(input()) * 2)\nsys.exit(256)\n"
    assert python3(program, "2\n").stdout == "4\n"
    assert code_reward_values(monkeypatch, program, DOUBLE) == honest


def test_the_code_reward_scores_output_after_exit_as_python3(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    _, failing = honest_and_failing(monkeypatch)
    program = ("import os, time\nn = int(input())\nif os.fork() == 0:\n    time.sleep(0.3)\n"
               "    os.write(1, (str(n * 2) + '\\n').encode())\n    os._exit(0)\n")
    assert python3(program, "2\n").stdout == ""
    assert code_reward_values(monkeypatch, program, DOUBLE) == failing


def test_the_code_reward_scores_a_process_count_as_python3(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    _, failing = honest_and_failing(monkeypatch)
    count = ("import os, time\nn, kids = 0, []\nwhile n < 200:\n    try:\n"
             "        pid = os.fork()\n    except OSError:\n        break\n    if pid == 0:\n"
             "        time.sleep(5)\n        os._exit(0)\n    kids.append(pid)\n    n += 1\n"
             "for k in kids:\n    os.kill(k, 9)\n    os.waitpid(k, 0)\n")
    from rewards.code import CodeReward

    limits = sandbox.Limits(memory_bytes=CodeReward(time_limit_s=2.0).config.memory_mb << 20)
    ran = sandbox.run(count + "print(n)\n", limits=limits, mode="cold")
    assert ran.status == "ok", ran
    program = count + f"print(int(input()) * 2 if n != {int(ran.stdout)} else 0)\n"
    assert code_reward_values(monkeypatch, program, DOUBLE) == failing


def test_the_code_reward_scores_a_sigint_to_the_parent_alike(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    program = ("import os, signal\nn = int(input())\ntry:\n    os.kill(os.getppid(), signal.SIGINT)\n"
               "except OSError:\n    pass\nprint(n * 2)\n")
    values = code_reward_values(monkeypatch, program, DOUBLE)
    assert values[0] == values[1], values
