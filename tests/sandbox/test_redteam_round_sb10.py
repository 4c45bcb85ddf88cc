"""Red team (rt25) of merge 72fde4e (h-sb14): the stdin/stdout harness's whole-tree restore
(`harness_io.fresh_state`, `restore`, `_remove`: every entry of /work and /tmp recorded,
what is not the task's removed by dir fds, any difference `StateLost`, after which later
tests are timeouts that did not run, message `not run: sandbox: ...`) and its warm killer
(`end_processes`: `_alone` under RLIMIT_NPROC 2, `_kill_between` by pidfd, 64 rounds).

The rule under attack: nothing one test (or one program) does changes another test's or
another program's verdict; a program can neither buy a pass nor force an abstention that
masks its failure; warm equals cold; honest programs pass every test in both modes.

What and how. (A) False losses: honest programs that write files in /tmp and /work, make
folders, set modes, use `tempfile`, links, times, import a task module (its `__pycache__`),
leave a child running, fill most of the disk or of the inodes in every test (so a restore
that left anything would fail a later test): four tests each, cold and warm. (B) State left
for the next test: each test prints what it finds, then leaves something; every test must
print what python3 main.py prints in a fresh cold jail with the same files: names with odd
bytes, symlink loops and links to folders, a mode-0 folder holding a link, hard links among
its own files, a sparse file, nested fifos and sockets, POSIX ACLs (default and access) on
the work folders, user xattrs in subfolders, writes to the inputs and main.py, a lock and a
fifo held by a survivor, /dev/shm and other writable places, the umask. (C) Survivors:
eight setsid'd processes hopping pids by fork (racing `_kill_between`'s range), a main
thread that exits leaving a writer thread, a stopped survivor with a writer child, a
survivor that SIGSTOPs every pid above its own (the `_alone` check and its child), a
survivor that execs a shell. (D) Counters a test reads: its pid, a new file's inode
number, the work folders' change times. (E) Making the harness fail: an xattr flood on
/tmp (cold the program owns it; listxattr then fails with E2BIG) stops the run; its
verdicts, the status, the chunked merge, the code reward's score, and the next program on
the same warm server. (Pid wrap, to put a survivor below the test's first pid: the jail's
pid counter ran past 70,000 without wrapping, ~4 s of clone(CLONE_VFORK) per 32k pids; not
reachable within a test's limit.)

Open holes, by root:
- `harness_io.run_io_tests` runs every test in one pid namespace and on the same tmpfs:
  a test's pid and the inode number of a file it makes are counters that earlier tests
  moved (cold test 2 reads pid 3 after a test 1 that forked nothing, 12 after one that
  forked 9), so test 1 can pass any number to test 2 and a test's output depends on what
  the earlier ones did; python3 main.py in a fresh jail reads one value (both modes).
- `harness_io.restore` cannot put back a change time (`_entry` leaves it out): after a
  test that made anything in /work or /tmp, the next reads the folder's ctime past its
  mtime (cold test 1 True, test 2 False), which a fresh jail never shows; warm the first
  test already reads it (`warm_server`'s clean-up between runs, not this harness).

Fixed since (h-sb16; their probes are plain tests now): the harness's own CPU and
descriptors were the program's (its RLIMIT_CPU and RLIMIT_NOFILE, cold nsjail's of pid 1,
warm the run's header, over all the tests, `restore` included): 3000 cached files a test
at `cpu_s=1` got 24 passes of 40, then `timeout`s; `open_files=8`, where a plain run is
ok, read 'the test could not start: [Errno 24]'. The harness now has limits of its own
(`_tests._io_harness_limits`) and each test's process takes the program's before its exec
(`harness_io.take_limits`). Since h-uid, until the cold harness took a uid of its own
(`harness.apart`, as warm), every cold state probe (B) was a strict xfail: a cold plain
run's program is PROGRAM_UID with its input folders 0o41777, a cold test's process was
the harness's uid with them 0o40755.

Held: every other false-loss program (A), every state probe (B), every survivor (C); the
xattr flood is refused in both modes (EPERM: /tmp, /work and the input folders are sticky
folders of another uid; cold it was the program's own /tmp, and the flood stopped the run
closed, its later tests timeouts not run, until the cold harness took a uid of its own),
every test is judged, chunked as serial, by the code reward as warm, and nothing reaches
the next warm program.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import pytest
from test_redteam_round_sb5 import LIMITS

import sandbox

pytestmark = pytest.mark.usefixtures("sandbox_ready")

MODES = ("cold", "warm")
FILES = {"data/in.txt": "x\n", "helper.py": "def twice(n):\n    return 2 * n\n"}


def outcomes(code: str, tests: list[dict[str, str]], mode: str,
             files: dict[str, str] | None = FILES,
             limits: sandbox.Limits = LIMITS) -> list[tuple[str, str, bool]]:
    report = sandbox.run_tests(code, tests, limits=limits, mode=mode, files=files)
    return [(r.outcome, r.message, r.ran) for r in report.results]


def xfails(names: Iterable[str], open_: dict[str, str]) -> list[Any]:
    return [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=f"open: {open_[n]}"))
            if n in open_ else n for n in names]


# --- A. false losses: honest programs pass every test in both modes -------------------------

SEEN = "import os\nprint(sorted(os.listdir('/tmp')), sorted(os.listdir('/work')))\n"
"""What every honest program prints first: the folders as the task gave them."""

HONEST = {
    "writes in /tmp and /work": (
        "open('/tmp/out.txt', 'w').write('a')\nopen('/work/out.txt', 'w').write('b')\n"
        "print(open('/tmp/out.txt').read() + open('out.txt').read())\n"
    ),
    "nested folders with modes": (
        "os.makedirs('/tmp/a/b/c')\nopen('/tmp/a/b/c/f', 'w').write('1')\n"
        "os.chmod('/tmp/a/b/c/f', 0o400)\nos.chmod('/tmp/a/b/c', 0o500)\n"
        "os.chmod('/tmp/a/b', 0o700)\nos.makedirs('/work/res/x', mode=0o750)\n"
        "print(oct(os.stat('/tmp/a/b').st_mode), open('/tmp/a/b/c/f').read())\n"
    ),
    "tempfile": (
        "import tempfile\nd = tempfile.mkdtemp()\nf = tempfile.NamedTemporaryFile(delete=False)\n"
        "f.write(b'x')\nf.close()\nwith tempfile.TemporaryDirectory() as t:\n"
        "    open(t + '/y', 'w').close()\nprint(d.startswith('/tmp/'), os.path.getsize(f.name))\n"
    ),
    "links and times on its own files": (
        "open('/tmp/f', 'w').write('1')\nos.symlink('/tmp/f', '/tmp/s')\n"
        "os.link('/tmp/f', '/tmp/h')\nos.utime('/tmp/f', (1, 2))\n"
        "print(open('/tmp/s').read(), os.stat('/tmp/h').st_nlink, os.stat('/tmp/f').st_mtime)\n"
    ),
    "most of the disk in every test": (
        "open('/tmp/big', 'wb').write(b'x' * 3_000_000)\n"
        "open('/work/big', 'wb').write(b'y' * 3_000_000)\nprint(os.path.getsize('/tmp/big'))\n"
    ),
    "most of the inodes in every test": (
        "os.mkdir('/tmp/many')\nfor i in range(1500):\n    open(f'/tmp/many/{i}', 'w').close()\n"
        "print(len(os.listdir('/tmp/many')))\n"
    ),
    "a task module imported (its __pycache__)": (
        "import sys\nsys.dont_write_bytecode = False\nimport helper\nprint(helper.twice(21))\n"
    ),
    "its input read and a file by a relative path": (
        "print(open('data/in.txt').read().strip())\nopen('rel.txt', 'w').write('z')\n"
        "os.makedirs('data/out', exist_ok=True)\nopen('data/out/r', 'w').close()\n"
    ),
    "a child left running": (
        "import subprocess\nsubprocess.Popen(['sleep', '30'])\n"
        "if os.fork() == 0:\n    import time\n    time.sleep(30)\n    os._exit(0)\nprint('done')\n"
    ),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(HONEST))
def test_an_honest_program_that_writes_passes_every_test(name: str, mode: str) -> None:
    code = SEEN + HONEST[name]
    reference = sandbox.run(code, files=FILES, limits=LIMITS, mode="cold")
    assert reference.status == "ok", reference
    assert reference.stdout.startswith("[] ['data', 'helper.py', 'main.py']\n"), reference
    tests = [{"input": "", "output": reference.stdout}] * 4
    assert outcomes(code, tests, mode) == [("pass", "", True)] * 4


CACHE = (
    "import os\nn = int(input())\nos.mkdir('/tmp/cache')\nfor i in range(3000):\n"
    "    open(f'/tmp/cache/{i}', 'w').close()\nprint(n * 2)\n"
)


@pytest.mark.parametrize("mode", MODES)
def test_what_the_harness_takes_back_is_not_charged_to_the_programs_cpu(mode: str) -> None:
    """An honest program that caches 3000 files in /tmp in each test, its CPU limit 1 s
    (each test's process takes ~0.1 s): every one of 40 tests passes. (Fixed by h-sb16:
    `restore`'s work was charged to the harness's RLIMIT_CPU, which was the program's
    cpu_s, and the harness died after 24 tests; now the harness has its own,
    `_tests._io_harness_limits`, and each test's process the program's,
    `harness_io.take_limits`.)"""
    limits = dataclasses.replace(LIMITS, cpu_s=1.0, wall_s=60.0)
    tests = [{"input": f"{i}\n", "output": f"{2 * i}\n"} for i in range(40)]
    assert outcomes(CACHE, tests, mode, files=None, limits=limits) == [("pass", "", True)] * 40


@pytest.mark.parametrize(("mode", "files_open"), [
    ("cold", 8), ("warm", 8), ("cold", 9), ("warm", 9)])
def test_the_harness_descriptors_are_not_the_programs(mode: str, files_open: int) -> None:
    """Where a plain run of print(input()) is ok, its tests pass. (Fixed by h-sb16: the
    harness's pipes, pidfd and `restore` ran under the program's RLIMIT_NOFILE, and at
    open_files=8 test 1 could not start, EMFILE; now the harness holds its own descriptors
    and each test's process the program's `open_files`.)"""
    limits = dataclasses.replace(LIMITS, open_files=files_open)
    plain = sandbox.run("print(input())", stdin="a\n", limits=limits, mode=mode)
    assert (plain.status, plain.stdout) == ("ok", "a\n"), plain
    tests = [{"input": "a\n", "output": "a\n"}] * 3
    assert outcomes("print(input())", tests, mode, files=None, limits=limits) == [
        ("pass", "", True)] * 3


# --- B. state left for the next test ---------------------------------------------------------

FOUND = (
    "import os\nfor top in ('/work', '/tmp', '/work/data'):\n"
    "    print(top, sorted(os.listdir(top)), oct(os.stat(top).st_mode), os.listxattr(top))\n"
)
"""What each state probe prints first: the work folders' entries, modes and xattrs."""

ACL = (
    "import struct\ndef acl(*entries):\n    return struct.pack('<I', 2) + b''.join("
    "struct.pack('<HHI', tag, perm, who) for tag, perm, who in entries)\nANY = 0xffffffff\n"
)

LEFT = {
    "names with odd bytes": (
        "for d in (b'/tmp', b'/work', b'/work/data'):\n"
        "    for n in (b'\\xff\\xfe', b'a\\nb', b' ', b'-', b'\\\\', b'x' * 255, b'\\x01', b'..."
        "'):\n        try:\n            open(d + b'/' + n, 'w').close()\n"
        "        except OSError:\n            pass\n"
    ),
    "symlink loops, links to folders, a mode-0 folder holding a link": (
        "os.symlink('.', '/tmp/loop')\nos.symlink('/work/data', '/tmp/dl')\n"
        "os.mkdir('/tmp/m')\nos.symlink('/work', '/tmp/m/w')\nos.chmod('/tmp/m', 0)\n"
        "os.symlink('/tmp/dangling/x', '/work/data/dang')\n"
        "os.symlink('/work/data/in.txt', '/work/in')\n"
    ),
    "hard links among its own files": (
        "open('/tmp/a', 'w').write('1')\nos.link('/tmp/a', '/tmp/b')\nos.mkdir('/tmp/d')\n"
        "os.link('/tmp/a', '/tmp/d/c')\nos.mkdir('/work/data/e')\n"
        "open('/work/data/e/f', 'w').close()\nos.link('/work/data/e/f', '/work/data/g')\n"
    ),
    "a sparse file, nested fifos and sockets": (
        "import socket\nf = open('/tmp/s', 'wb')\nf.truncate(4_000_000)\nf.close()\n"
        "os.makedirs('/tmp/p/q')\nos.mkfifo('/tmp/p/q/f')\n"
        "socket.socket(socket.AF_UNIX).bind('/tmp/p/q/s')\nos.mkfifo('/work/data/f')\n"
    ),
    "default ACLs on the work folders": ACL + (
        "for top in ('/tmp', '/work', '/work/data'):\n    try:\n"
        "        os.setxattr(top, 'system.posix_acl_default', acl((1, 7, ANY), (4, 0, ANY),"
        " (32, 0, ANY)))\n    except OSError:\n        pass\n"
        "open('/tmp/new', 'w').close()\nprint(oct(os.stat('/tmp/new').st_mode))\n"
    ),
    "access ACLs on the work folders": ACL + (
        "for top in ('/tmp', '/work', '/work/data'):\n    try:\n"
        "        os.setxattr(top, 'system.posix_acl_access', acl((1, 7, ANY), "
        "(2, 7, os.getuid()), (4, 0, ANY), (16, 0, ANY), (32, 0, ANY)))\n"
        "    except OSError:\n        pass\n"
    ),
    "user xattrs in its own subfolders": (
        "os.makedirs('/tmp/a/b')\nopen('/tmp/a/b/f', 'w').close()\n"
        "os.setxattr('/tmp/a/b/f', 'user.x', b'1')\nos.setxattr('/tmp/a', 'user.y', b'2' * 4000)\n"
        "for top in ('/tmp', '/work', '/work/data'):\n    try:\n"
        "        os.setxattr(top, 'user.z', b'3')\n    except OSError:\n        pass\n"
    ),
    "writes to the inputs and main.py": (
        "print(open('/work/data/in.txt').read(), len(open('/work/main.py').read()))\n"
        "for path in ('/work/data/in.txt', '/work/main.py'):\n    try:\n"
        "        open(path, 'a').write('more')\n    except OSError:\n        pass\n"
        "    try:\n        os.truncate(path, 0)\n    except OSError:\n        pass\n"
        "    try:\n        os.utime(path, (0, 0))\n    except OSError:\n        pass\n"
    ),
    "a lock and a fifo held by a survivor": (
        "import fcntl, sys, time\nsys.stdout.flush()\nf = open('/tmp/lock', 'w')\n"
        "fcntl.flock(f, fcntl.LOCK_EX)\nos.mkfifo('/tmp/fifo')\nif os.fork() == 0:\n"
        "    os.setsid()\n    try:\n        open('/tmp/fifo', 'w')\n    except OSError:\n"
        "        pass\n    time.sleep(5)\n    os._exit(0)\n"
    ),
    "other writable places": (
        "for p in ('/dev/shm', '/var/tmp', '/run', '/dev/mqueue', '/home', '/root', '/'):\n"
        "    try:\n        print(p, sorted(os.listdir(p))[:50])\n"
        "        open(p + '/left', 'w').close()\n    except OSError as e:\n"
        "        print(p, e.errno)\n"
    ),
    "a writable folder outside /work and /tmp": (
        "found, stale, stack = [], [], [('/', 0)]\nwhile stack:\n"
        "    d, depth = stack.pop()\n    if d in ('/work', '/tmp'):\n        continue\n"
        "    if os.path.lexists(d + '/.left'):\n        stale.append(d)\n    try:\n"
        "        os.close(os.open(d + '/.left', os.O_CREAT | os.O_WRONLY, 0o600))\n"
        "        found.append(d)\n    except OSError:\n        pass\n    if depth < 4:\n"
        "        try:\n            for n in os.listdir(d):\n"
        "                p = os.path.join(d, n)\n"
        "                if os.path.isdir(p) and not os.path.islink(p):\n"
        "                    stack.append((p, depth + 1))\n        except OSError:\n"
        "            pass\nprint(found, stale)\n"
    ),
    "the umask": (
        "print(oct(os.umask(0)))\nopen('/tmp/u', 'w').close()\n"
        "print(oct(os.stat('/tmp/u').st_mode))\n"
    ),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(LEFT))
def test_each_test_finds_what_python3_finds_in_a_fresh_jail(name: str, mode: str) -> None:
    """Against a plain run in the same mode. (Cold these were strict xfails from h-uid until
    the cold harness took a uid of its own: a cold plain run's program was PROGRAM_UID with
    its input folders 0o41777, a cold test's process the harness's uid with them 0o40755;
    now each test's process is PROGRAM_UID and its folders are opened as the init opens
    them, as warm: `harness.apart`.)"""
    code = FOUND + LEFT[name]
    reference = sandbox.run(code, files=FILES, limits=LIMITS, mode=mode)
    assert reference.status == "ok", reference
    tests = [{"input": "", "output": reference.stdout}] * 3
    assert outcomes(code, tests, mode) == [("pass", "", True)] * 3


# --- C. survivors --------------------------------------------------------------------------

LISTED = "import os, sys\nprint(sorted(os.listdir('/tmp')))\nsys.stdout.flush()\n"

SURVIVORS = {
    "eight setsid'd processes hopping pids": (
        "import ctypes\nlibc = ctypes.CDLL(None)\nif os.fork() == 0:\n    os.setsid()\n"
        "    for _ in range(8):\n        if libc.fork() == 0:\n            n = 0\n"
        "            while True:\n                if libc.fork() > 0:\n"
        "                    os._exit(0)\n                n += 1\n"
        "                if n % 64 == 0:\n                    try:\n"
        "                        open('/tmp/hop%d' % os.getpid(), 'w').close()\n"
        "                    except OSError:\n                        pass\n"
        "    os._exit(0)\n"
    ),
    "a main thread that exits leaving a writer thread": (
        "import ctypes, threading, time\ndef late():\n    time.sleep(0.3)\n"
        "    open('/tmp/late', 'w').close()\nthreading.Thread(target=late).start()\n"
        "ctypes.CDLL(None).pthread_exit(None)\n"
    ),
    "a stopped survivor with a writer child": (
        "import signal, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        "        time.sleep(0.2)\n        open('/tmp/late', 'w').close()\n        os._exit(0)\n"
        "    os.kill(os.getpid(), signal.SIGSTOP)\n    os._exit(0)\n"
    ),
    "a survivor that stops every pid above its own": (
        "import signal, time\nparent = os.getpid()\nif os.fork() == 0:\n    os.setsid()\n"
        "    me = os.getpid()\n    while os.getppid() == parent:\n        pass\n"
        "    open('/tmp/orphaned', 'w').close()\n    end = time.monotonic() + 3\n"
        "    while time.monotonic() < end:\n        for p in range(me + 1, me + 64):\n"
        "            try:\n                os.kill(p, signal.SIGSTOP)\n"
        "            except OSError:\n                pass\n    os._exit(0)\n"
    ),
    "a survivor that execs a shell": (
        "if os.fork() == 0:\n    os.setsid()\n"
        "    os.execv('/bin/sh', ['sh', '-c', 'sleep 0.3; : > /tmp/late; sleep 5'])\n"
    ),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(SURVIVORS))
def test_no_survivor_reaches_a_later_test(name: str, mode: str) -> None:
    """Each test passes, or the harness fails closed (warm: survivors that fork on faster
    than `end_processes`' rounds end them, seen once in a full suite at load 1-2): that
    test an error, every later one not run; never another verdict."""
    tests = [{"input": "", "output": "[]\n"}] * 4
    for _ in range(2 if mode == "warm" else 1):  # the warm killer is a race: twice
        got = outcomes(LISTED + SURVIVORS[name], tests, mode)
        passed = 0
        while passed < 4 and got[passed] == ("pass", "", True):
            passed += 1
        if passed < 4 and mode == "warm":
            assert got[passed] == ("error", "sandbox: the test's processes could not be ended",
                                   True), got
            assert all(o == "timeout" and m.startswith("not run: sandbox") and not ran
                       for o, m, ran in got[passed + 1:]), got
        else:
            assert got == [("pass", "", True)] * 4


# --- D. counters a test reads ----------------------------------------------------------------

COUNTERS = (
    "import os\nfd = os.open('/tmp', os.O_TMPFILE | os.O_WRONLY, 0o600)\n"
    "print(os.getpid(), os.fstat(fd).st_ino)\nfor i in range(int(input())):\n"
    "    open(f'/tmp/{i}', 'w').close()\n    if os.fork() == 0:\n        os._exit(0)\n"
    "    os.wait()\n"
)
OPEN_COUNTERS = (
    "reaching another test (pid and inode counters): harness_io.run_io_tests runs every "
    "test in one pid namespace and tmpfs, so test 2 reads off its pid and a new file's "
    "inode number how many processes and files test 1 made (cold 3 3 after none, 12 12 "
    "after nine)"
)


@pytest.mark.parametrize("mode", [pytest.param(m, marks=pytest.mark.xfail(
    strict=True, reason=f"open: {OPEN_COUNTERS}")) for m in MODES])
def test_a_tests_counters_do_not_depend_on_the_tests_before(mode: str) -> None:
    """Test 2 prints its pid and a new file's inode number: the same whatever test 1 did."""
    seen = []
    for first in ("0", "9"):
        tests = [{"input": first, "output": ""}, {"input": "0", "output": ""}]
        seen.append(outcomes(COUNTERS, tests, mode, files=None)[1])
    assert seen[0] == seen[1], seen


TIMES = (
    "import os\nfor top in ('/work', '/tmp'):\n    s = os.stat(top)\n"
    "    print(top, s.st_ctime_ns == s.st_mtime_ns)\n    open(top + '/x', 'w').close()\n"
)


@pytest.mark.parametrize("mode", xfails(MODES, {
    "cold": "reaching another test (ctime): harness_io.restore puts back mtime and atime "
            "but not the change time (_entry leaves it out): test 2 reads /work's ctime past "
            "its mtime after a test 1 that made a file (True then False)",
    "warm": "reaching another test/run (ctime): harness_io.restore between tests (and "
            "warm_server's clean-up between runs, before test 1) leave the work folders' "
            "ctime past their mtime where a fresh cold jail reads them equal",
}))
def test_the_work_folders_change_times_read_as_fresh(mode: str) -> None:
    reference = sandbox.run(TIMES, limits=LIMITS, mode="cold")
    assert reference.stdout == "/work True\n/tmp True\n", reference
    tests = [{"input": "", "output": reference.stdout}] * 3
    assert outcomes(TIMES, tests, mode, files=None) == [("pass", "", True)] * 3


# --- E. making the harness fail ------------------------------------------------------------

FLOOD = (
    "import os\na, b = map(int, input().split())\nprint(a + b if a < 3 else a - b)\n"
    "if a == 3:\n    for top in ('/tmp', '/work'):\n        try:\n"
    "            for i in range(400):\n"
    "                os.setxattr(top, 'user.' + str(i).rjust(240, 'x'), b'')\n"
        "        except OSError:\n            pass\n"
)
"""Passes the first test (1 2), fails the second (3 4) and tries to flood /tmp's and /work's
xattrs past what listxattr returns (64 KiB: E2BIG), which `restore` would then fail on:
refused in both modes (sticky folders of another uid: EPERM)."""
SUMS = [("1 2\n", "3\n"), ("3 4\n", "7\n"), ("5 6\n", "11\n"), ("999 1\n", "1000\n")]
FLOODED = [("pass", "", True), ("fail", "line 1: expected '7', got '-1'", True),
           ("fail", "line 1: expected '11', got '-1'", True),
           ("fail", "line 1: expected '1000', got '998'", True)]
"""Every test judged (the tests after the flood fail on their own: a - b)."""


@pytest.mark.parametrize("mode", MODES)
def test_a_harness_made_to_fail_stops_the_run_closed_and_counted(mode: str) -> None:
    """The program cannot set the xattrs, warm or cold, and every test is judged. (Cold the
    program owned /tmp until the cold harness took a uid of its own: the flood stopped the
    run, its later tests timeouts that did not run, status timeout; the path that stops a
    run whose folders cannot be taken back is `test_harness.py`'s
    `test_a_test_whose_folders_cannot_be_taken_back_stops_the_run`.)"""
    tests = [{"input": i, "output": o} for i, o in SUMS]
    report = sandbox.run_tests(FLOOD, tests, limits=LIMITS, mode=mode, files=None)
    assert [(r.outcome, r.message, r.ran) for r in report.results] == FLOODED
    assert (report.status, report.passed, report.total) == ("ok", 1, 4)


def test_a_harness_made_to_fail_merges_as_one_serial_run_in_chunks() -> None:
    """run_tests_many in chunks of 2 judges the flood's tests as the serial run does."""
    tests = [{"input": i, "output": o} for i, o in SUMS]
    [report] = sandbox.run_tests_many(
        [{"code": FLOOD, "tests": tests, "limits": LIMITS, "mode": "cold"}], chunk_tests=2)
    assert [(r.outcome, r.message, r.ran) for r in report.results] == FLOODED
    assert report.status == "ok"


def test_a_harness_made_to_fail_is_no_abstention_of_the_code_reward(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The code reward scores the flooding program the same cold (its jobs sent cold) as
    warm: its hidden tests run and fail, a failure with its reason, never a masked None.
    (Until the cold harness took a uid of its own the flood stopped a cold run: reason
    timeout, the same value.)"""
    from rewards import Sample
    from rewards.code import CodeReward

    reference = {"inputs": [i for i, _ in SUMS], "outputs": [o for _, o in SUMS]}
    sample = Sample(prompt="add", completion=f"```python\n{FLOOD}```", reference=reference,
                    domain="code")
    [warm] = CodeReward(time_limit_s=2.0).score([sample])
    real = sandbox.run_tests_many

    def cold(jobs: Iterable[dict[str, Any]], **options: Any) -> Any:
        return real(({**job, "mode": "cold"} for job in jobs), **options)

    monkeypatch.setattr(sandbox, "run_tests_many", cold)
    [score] = CodeReward(time_limit_s=2.0).score([sample])
    assert (warm.reason, warm.parts["tests"], warm.parts["hidden"]) == ("tests_failed", 0.5, 0.0)
    assert (score.reason, score.parts["tests"], score.parts["hidden"]) == \
        ("tests_failed", 0.5, 0.0)
    assert score.value == warm.value == pytest.approx(7 / 18), (score, warm)


def test_what_a_program_does_to_its_harness_does_not_reach_the_next_program() -> None:
    """Warm: a flood, a hopping survivor, a stopper, a harness killed by its CPU limit in
    the middle of its restores (files left in /tmp) and one stopped by StateLost, each
    followed by honest programs on the same server (stdin/stdout tests, assert tests, a
    plain run): each is judged as on a fresh server."""
    probe = "import os\nprint(sorted(os.listdir('/tmp')), os.listxattr('/tmp'), input())\n"
    honest = [{"input": "a\n", "output": "[] [] a\n"}] * 3
    spent = dataclasses.replace(LIMITS, cpu_s=1.0, wall_s=60.0)
    attacks = [(FLOOD, [{"input": i, "output": o} for i, o in SUMS], LIMITS)] + [
        (LISTED + SURVIVORS[name], [{"input": "", "output": "[]\n"}] * 2, LIMITS)
        for name in ("eight setsid'd processes hopping pids",
                     "a survivor that stops every pid above its own")] + [
        (CACHE, [{"input": f"{i}\n", "output": f"{2 * i}\n"} for i in range(40)], spent),
        (CACHE, [{"input": "1\n", "output": "2\n"}] * 3,
         dataclasses.replace(LIMITS, open_files=9))]  # warm: StateLost (EMFILE)
    asserts = "import os\ndef f():\n    return sorted(os.listdir('/tmp'))\n"
    for code, tests, limits in attacks:
        sandbox.run_tests(code, tests, limits=limits, mode="warm", files=None)
        assert outcomes(probe, honest, "warm", files=None) == [("pass", "", True)] * 3
        checked = sandbox.run_tests(asserts, ["assert f() == []"] * 2, limits=LIMITS,
                                    mode="warm")
        assert [r.outcome for r in checked.results] == ["pass", "pass"], checked.results
        plain = sandbox.run(probe, stdin="b\n", limits=LIMITS, mode="warm")
        assert (plain.status, plain.stdout) == ("ok", "[] [] b\n"), plain
