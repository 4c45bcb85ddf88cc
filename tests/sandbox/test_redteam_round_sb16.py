"""Red team (rt35) of h-uid (merge fe95d4d): a cold plain Python run's init
(`sandbox/_in_jail/init.c`, `init.py` its fallback) runs as the jail uid 99999 with
CAP_SETUID/SETGID/KILL inside the jail's user namespace only, opens the input folders 0o1777
(`open_folders`, in C and in init.py), and its one child drops to PROGRAM_UID 99998 with no
capability before it execs the program; the run's verdict comes from the init's report
(`_runner.from_init`).

The rule under attack: the program holds no privilege it could use to reach its init, its
report or another run; its verdict is what `python3 -E -s -S main.py` gives, and warm
equals cold, for honest programs too. Probes run against the C init (skipped where it could
not be built) and, where the two inits differ in code, the Python init; none repeats sb12 to
sb15 (report forgery shapes, signal endings, exit-code edges, the output cap are theirs).

Attacked (class of docs ATTACK-CLASSES "Verdicts bought by the program"):
(A) Tampering with the judge / reaching another run, by regaining privileges: what either
    init's child holds at the program's start (capabilities, descriptors, ids), setuid,
    setresuid, setgid, setgroups, setfsuid/setfsgid, capset, ambient raise,
    PR_SET_KEEPCAPS, securebits, bounding-set drop, no_new_privs unset, unshare and
    clone(CLONE_NEWUSER, NEWPID, NEWNS), clone3, setns through a pidfd of the init, a file
    capability, a trusted attribute, chown to the init's uid, /proc/self/uid_map, mounting
    proc, the system's setuid-root mount and su;
(B) Reaching another run, the init itself: kill(1, N) for 0, SIGKILL, SIGCONT and SIGSTOP,
    killpg(1) (kill(-1)), prlimit read and set, renice of the init and of its uid, affinity,
    scheduler, ioprio, pidfd_send_signal, pidfd_getfd, ptrace, process_vm_readv, kcmp,
    /proc/1/mem;
(C) Exit and output forgery and Resources, around the report: stderr set to SIGKILL the
    init's group on I/O, a child holding stderr, every descriptor taken, RLIMIT_NPROC 0,
    memory near the limit, stderr's pipe shrunk to a page and full, /work's tmpfs full,
    each then a death the report must carry; a fork bomb and a double-forked daemon left at
    an exit; the nonce is nowhere the program can read (environment, argv);
(D) the input folders the init made 0o1777 (sticky): removing, renaming, re-moding the
    task's files and folders, files of its own, fifos, symlinks and sockets in them, their
    modes at every depth, a deep task folder under a low open-files limit, task files named
    as the modules either init imports, through a spare;
(E) state for the next run: files, attributes, fifos, sockets and a daemon left by a cold
    run, seen by the next cold and warm run; the next run's process count;
(F) false losses: ids, umask, nice, session, own files, /tmp, subprocesses, the shell,
    threads, forks, stdin, its input files, signals to its own processes: cold equals warm
    (and python3 main.py where the answer does not depend on the uid: the host runs the
    tests as root).

Open (strict xfails):
- `sandbox/_workspace.py` binds (cold) against `warm_server.write_inputs` (warm): an input
  file opened for writing with truncation fails EROFS (30) cold, a read-only bind, and
  EACCES (13, PermissionError) warm, another uid's file; `except PermissionError` catches one
  and not the other (the same root as sb9's hard link, EXDEV cold, EPERM warm). Every
  way to change an input, cold against warm (12 rows open, one root, and the layout that
  would close them all): tests/sandbox/test_inputs_and_removal.py (h-sb20).

Closed after the round (plain tests now): the C init's `open_folders` finds each folder's
next subfolder by name and closes the folder before it opens that one (one descriptor at a
time; init.py walks with a list); the host makes a task's folders one level at a time
(`_workspace._make_folders`) and removes its folders with a list (`_cache.remove_tree`), so
the 1,000-deep task folder runs cold. As found:
- `sandbox/_in_jail/init.c`, `open_folders` (false loss, Resources: descriptors): the
  recursion keeps one `opendir` stream open per level, under the run's RLIMIT_NOFILE
  (`Limits.open_files`, nsjail's rlimit of the init); deeper than open_files - 3 levels
  `opendir` fails (EMFILE) and that folder and all below stay 0o755, the init's: an honest
  program writing beside its input `d/d/in.txt` at open_files=4 (or `d/d/d/d/d/d/in.txt` at 8)
  gets PermissionError cold, where the Python init (`_open_folders` lists each folder
  before it recurses), warm and python3 main.py write it.
- `sandbox/_workspace.py`, `Workspace._put` (cold only; found while probing (D)): a task
  file's folders are made on the host with `os.makedirs`, which recurses once per level: a
  task folder 1000 deep raises RecursionError out of `sandbox.run` (neither a SandboxError
  nor an Execution), where warm runs it (the Python init would recurse as deep in
  `_open_folders`, whose RecursionError no `except OSError` catches; not reachable while the
  host fails first).

Held: all the rest.

Not probed: the bounding set a program reads with PR_CAPBSET_READ (cold CAP_KILL, SETGID,
SETUID; warm CAP_FOWNER too; python3 main.py all), unusable under no_new_privs and no
verdict; getpid() (2 cold, 4 warm: the pid counter); threads under RLIMIT_AS (glibc arenas,
documented in docs/sandbox.md, "Address space without a cgroup").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from test_init import argv_of
from test_redteam_round_sb12 import LIMITS, host
from test_spare import Taken

import sandbox
from sandbox import _runner, _spare
from sandbox._jail import PROGRAM_UID
from sandbox._runner import Mode

pytestmark = pytest.mark.usefixtures("sandbox_ready")

OK = ("ok", 0, None)
FILES = {"d/a.txt": "x", "d/e/b.txt": "y", "top.txt": "z"}
"""A task's files: a folder, a folder in it, and a file at the top."""


@pytest.fixture
def c_init(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cold runs of this test use the compiled init (skipped where it was not built)."""
    argv = argv_of("c")
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)


@pytest.fixture(params=("c", "python"))
def either(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Cold runs of this test use the init named by the parameter."""
    argv = argv_of(request.param)
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    return str(request.param)


def run(code: str, mode: Mode, files: dict[str, str] | None = None,
        limits: sandbox.Limits = LIMITS, stdin: str = "") -> sandbox.Execution:
    return sandbox.run(code, limits=limits, mode=mode, files=files, stdin=stdin)


MODES: tuple[Mode, ...] = ("cold", "warm")


def full(ex: sandbox.Execution) -> tuple[str, int | None, int | None, str, str]:
    return ex.status, ex.exit_code, ex.signal, ex.stdout, ex.stderr


def both(code: str, files: dict[str, str] | None = None,
         limits: sandbox.Limits = LIMITS) -> list[tuple[str, int | None, int | None, str, str]]:
    """(cold, warm) as `full` reads them."""
    return [full(run(code, mode, files, limits)) for mode in MODES]


PRE = ("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
       "def e(f):\n    try:\n        f()\n        return 'did'\n"
       "    except OSError as x:\n        return x.errno\n"
       "def c(r):\n    return (r, ctypes.get_errno()) if r == -1 else r\n"
       "hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)\n")
"""What every probe of (A) and (B) starts with: `e` an OSError's errno, `c` a libc call's
(-1, errno), `hdr` a capability header of this process."""


# --- (A) regaining privileges --------------------------------------------------------------

PRIVILEGES = {
    # what the program does, and the one line it prints, cold and warm
    "setuid to the init's uid": ("print(e(lambda: os.setuid(99999)))", "1"),
    "setresuid, effective only": ("print(e(lambda: os.setresuid(-1, 99999, -1)))", "1"),
    "setgid to the init's gid": ("print(e(lambda: os.setgid(99999)))", "1"),
    "setgroups to the init's gid": ("print(e(lambda: os.setgroups([99999])))", "1"),
    "setgroups to none": ("print(e(lambda: os.setgroups([])))", "1"),
    "setfsuid and setfsgid": (
        "print(libc.setfsuid(99999), libc.setfsuid(-1), libc.setfsgid(99999), libc.setfsgid(-1))",
        "99998 99998 99998 99998"),
    "capset of every capability": (
        "print(c(libc.capset(hdr, (ctypes.c_uint32 * 6)(*[0xffffffff] * 6))))", "(-1, 1)"),
    "capset of CAP_SETUID alone": (
        "print(c(libc.capset(hdr, (ctypes.c_uint32 * 6)(128, 128, 128, 0, 0, 0))))", "(-1, 1)"),
    "ambient raise of CAP_SETUID": ("print(c(libc.prctl(47, 2, 7, 0, 0)))", "(-1, 1)"),
    "PR_SET_KEEPCAPS, then setuid": (
        "print(libc.prctl(8, 1, 0, 0, 0), e(lambda: os.setuid(99999)))", "0 1"),
    "securebits": ("print(c(libc.prctl(28, 0x2f, 0, 0, 0)))", "(-1, 1)"),
    "a bounding-set drop": ("print(c(libc.prctl(24, 5, 0, 0, 0)))", "(-1, 1)"),
    "no_new_privs cannot be unset": (
        "print(c(libc.prctl(38, 0, 0, 0, 0)), libc.prctl(39, 0, 0, 0, 0))", "(-1, 22) 1"),
    "unshare a user namespace": ("print(c(libc.unshare(0x10000000)))", "(-1, 1)"),
    "clone with CLONE_NEWUSER": (
        ("r = libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0)\nif r == 0:\n    os._exit(0)\n"
        "print(c(r))"), "(-1, 1)"),
    "clone with CLONE_NEWPID": (
        ("r = libc.syscall(56, 0x20000000 | 17, 0, 0, 0, 0)\nif r == 0:\n    os._exit(0)\n"
         "print(c(r))"), "(-1, 1)"),
    "clone with CLONE_NEWNS": (
        ("r = libc.syscall(56, 0x00020000 | 17, 0, 0, 0, 0)\nif r == 0:\n    os._exit(0)\n"
         "print(c(r))"), "(-1, 1)"),
    "clone3": ("print(c(libc.syscall(435, None, 0)))", "(-1, 38)"),
    "setns through a pidfd of the init": (
        "print(c(libc.setns(os.pidfd_open(1), 0)))", "(-1, 1)"),
    "a file capability on its own file": (
        ("open('/tmp/f', 'w').close()\nprint(e(lambda: os.setxattr('/tmp/f', "
        "'security.capability', b'\\x01\\x00\\x00\\x02' + b'\\xff' * 16)))"), "1"),
    "a trusted attribute": (
        "open('/tmp/f', 'w').close()\nprint(e(lambda: os.setxattr('/tmp/f', 'trusted.x', b'1')))",
        "1"),
    "chown of its file to the init's uid": (
        "open('/tmp/f', 'w').close()\nprint(e(lambda: os.chown('/tmp/f', 99999, -1)))", "1"),
    "a write to /proc/self/uid_map": (
        "print(e(lambda: open('/proc/self/uid_map', 'w')))", "2"),
    "mounting proc": ("print(c(libc.mount(b'proc', b'/tmp', b'proc', 0, None)))", "(-1, 1)"),
    "the system's setuid-root mount and su": (
        ("import subprocess\nfor argv in (['/usr/bin/mount', '-t', 'proc', 'proc', '/tmp'],"
         " ['/usr/bin/su', '-c', 'kill -9 1']):\n"
         "    print(subprocess.run(argv, capture_output=True).returncode, end=' ')\n"
         "print(os.listdir('/tmp'))"), "32 1 []"),
}


@pytest.mark.parametrize("name", list(PRIVILEGES))
def test_no_privilege_comes_back(c_init: None, name: str) -> None:
    body, line = PRIVILEGES[name]
    want = (*OK, line + "\n", "")
    assert both(PRE + body + "\n") == [want, want]


HELD_AT_START = PRE + (
    "import fcntl, resource\ndata = (ctypes.c_uint32 * 6)()\nfds = []\nfor fd in range(64):\n"
    "    try:\n        fcntl.fcntl(fd, fcntl.F_GETFD)\n        fds.append(fd)\n"
    "    except OSError:\n        pass\n"
    "print(libc.capget(hdr, data), list(data), fds, os.getresuid(), os.getresgid(),"
    " os.getgroups(), resource.getrlimit(resource.RLIMIT_NPROC), libc.prctl(39, 0, 0, 0, 0),"
    " [libc.prctl(47, 1, n, 0, 0) for n in (5, 6, 7)])\n")


def test_what_the_program_holds_at_its_start(either: str) -> None:
    """No capability (effective, permitted, inheritable, ambient), descriptors 0 to 2 only,
    the program uid and gid alone, its own RLIMIT_NPROC, no_new_privs: either init's child
    as the warm server's."""
    u, n = PROGRAM_UID, LIMITS.processes
    want = (*OK, (f"0 [0, 0, 0, 0, 0, 0] [0, 1, 2] ({u}, {u}, {u}) ({u}, {u}, {u}) [] "
                  f"({n}, {n}) 1 [0, 0, 0]\n"), "")
    assert both(HELD_AT_START) == [want, want]


# --- (B) the init itself -------------------------------------------------------------------

@pytest.mark.parametrize("number", [0, 9, 18, 19])
def test_no_signal_reaches_the_init(c_init: None, number: int) -> None:
    """EPERM (SIGCONT too: the program has a session of its own), cold and warm."""
    code = f"import os\ntry:\n    os.kill(1, {number})\nexcept OSError as x:\n    print(x.errno)\n"
    want = (*OK, "1\n", "")
    assert both(code) == [want, want]


REACH = {
    "killpg(1), which is kill(-1): nothing of its own to kill": (
        "print(e(lambda: os.killpg(1, 9)))", "3"),
    "prlimit of the init, read": (
        "import resource\nprint(e(lambda: resource.prlimit(1, resource.RLIMIT_NOFILE)))", "1"),
    "prlimit of the init, CPU to 0": (
        "import resource\nprint(e(lambda: resource.prlimit(1, resource.RLIMIT_CPU, (0, 0))))",
        "1"),
    "renice of the init": ("print(e(lambda: os.setpriority(os.PRIO_PROCESS, 1, 19)))", "1"),
    "renice of the init's uid": ("print(e(lambda: os.setpriority(os.PRIO_USER, 99999, 19)))",
                                 "1"),
    "the init's CPU affinity": ("print(e(lambda: os.sched_setaffinity(1, {0})))", "1"),
    "the init's scheduler": (
        "print(e(lambda: os.sched_setscheduler(1, os.SCHED_IDLE, os.sched_param(0))))", "1"),
    "the init's io priority": ("print(c(libc.syscall(251, 1, 1, 3 << 13)))", "(-1, 1)"),
    "pidfd_send_signal SIGKILL": (
        "print(c(libc.syscall(424, os.pidfd_open(1), 9, None, 0)))", "(-1, 1)"),
    "pidfd_getfd of the init's stderr": (
        "print(c(libc.syscall(438, os.pidfd_open(1), 2, 0)))", "(-1, 1)"),
    "ptrace attach": ("print(c(libc.ptrace(16, 1, 0, 0)))", "(-1, 1)"),
    "process_vm_readv": ("print(c(libc.process_vm_readv(1, None, 0, None, 0, 0)))", "(-1, 1)"),
    "kcmp of the init's files": ("print(c(libc.syscall(312, 1, 2, 0, 2, 2)))", "(-1, 1)"),
    "/proc/1/mem": ("print(e(lambda: open('/proc/1/mem', 'r+b')))", "2"),
}


@pytest.mark.parametrize("name", list(REACH))
def test_nothing_reaches_the_init(c_init: None, name: str) -> None:
    body, line = REACH[name]
    want = (*OK, line + "\n", "")
    assert both(PRE + body + "\n") == [want, want]


# --- (C) the report, under the program's games ---------------------------------------------

DEATHS = {
    # program (each ends by its own SIGTERM), and (stdout, stderr) cold, warm and python3
    "stderr set to SIGKILL the init's group on I/O": (
        ("import os, fcntl, signal\nfcntl.fcntl(2, fcntl.F_SETOWN, -1)\n"
         "fcntl.fcntl(2, 10, int(signal.SIGKILL))\n"
         "fcntl.fcntl(2, fcntl.F_SETFL, fcntl.fcntl(2, fcntl.F_GETFL) | os.O_ASYNC)\n"
         "os.write(2, b'e' * 1000)\nos.kill(os.getpid(), 15)\n"),
        ("", "e" * 1000)),
    "a child holding stdout and stderr, non-blocking": (
        ("import os, time\nos.set_blocking(2, False)\nif os.fork() == 0:\n    time.sleep(30)\n"
         "    os._exit(0)\nprint('p', flush=True)\nos.kill(os.getpid(), 15)\n"),
        ("p\n", "")),
    "every descriptor taken": (
        ("import os\nfds = []\ntry:\n    while True:\n        fds.append(os.open('/dev/null', 0))\n"
         "except OSError as x:\n    print(x.errno, flush=True)\nos.kill(os.getpid(), 15)\n"),
        ("24\n", "")),
    "RLIMIT_NPROC 0 for itself": (
        ("import os, resource\nresource.setrlimit(resource.RLIMIT_NPROC, (0, 0))\ntry:\n"
         "    os.fork()\nexcept OSError as x:\n    print(x.errno, flush=True)\n"
         "os.kill(os.getpid(), 15)\n"),
        ("11\n", "")),
    "memory near the limit": (
        ("import os\nb = bytearray(150 << 20)\nb[::4096] = b'x' * len(b[::4096])\n"
         "print(len(b) >> 20, flush=True)\nos.kill(os.getpid(), 15)\n"),
        ("150\n", "")),
    "stderr's pipe shrunk to a page and filled": (
        ("import os, fcntl\nfcntl.fcntl(2, 1031, 4096)\nos.write(2, b'e' * 4096)\n"
         "os.kill(os.getpid(), 15)\n"),
        ("", "e" * 4096)),
}


ON_THE_HOST = ("memory near the limit", "stderr's pipe shrunk to a page and filled")
"""Those of these python3 main.py runs alike here: the host runs the tests as root (no
RLIMIT_NPROC, many more descriptors), its process group 1 is the host's, and a child holding
the pipes holds python3's run."""


@pytest.mark.parametrize("name", list(DEATHS))
def test_a_death_after_the_programs_games_is_reported(c_init: None, name: str) -> None:
    code, (out, err) = DEATHS[name]
    want = ("runtime_error", None, 15, out, err)
    assert both(code) == [want, want]
    if name in ON_THE_HOST:
        assert host(code) == (None, 15, out)


def test_a_full_work_folder_then_a_death_is_reported(c_init: None) -> None:
    """/work's tmpfs (disk_bytes) full: the init writes nothing there, its report arrives."""
    code = ("import os\ni = 0\ntry:\n    while True:\n"
            "        with open(f'f{i}', 'wb') as fh:\n            fh.write(b'x' * (1 << 20))\n"
            "        i += 1\nexcept OSError:\n    print('full', flush=True)\n"
            "os.kill(os.getpid(), 15)\n")
    want = ("runtime_error", None, 15, "full\n", "")
    assert both(code) == [want, want]


LEFT = {
    # program, and (status, exit, signal, stdout, stderr) cold and warm
    "a fork bomb at an exit 0": (
        ("import os, time\nif os.fork() == 0:\n    while True:\n        try:\n"
         "            os.fork()\n        except OSError:\n            time.sleep(0.001)\n"
         "time.sleep(0.3)\nprint('done')\n"),
        (*OK, "done\n", "")),
    "a double-forked daemon at an exit 3": (
        ("import os, sys, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
         "        while True:\n            time.sleep(0.01)\n    os._exit(0)\nos.wait()\n"
         "print('d', flush=True)\nsys.exit(3)\n"),
        ("runtime_error", 3, None, "d\n", "")),
    "every process forked, then exit 0": (
        ("import os, time\nn = 0\ntry:\n    while True:\n        if os.fork() == 0:\n"
         "            time.sleep(30)\n            os._exit(0)\n        n += 1\n"
         "except OSError as x:\n    print(n, x.errno)\n"),
        (*OK, f"{LIMITS.processes - 1} 11\n", "")),
    "kill(-1, SIGKILL) spares the program and its init": (
        ("import os, time\nif os.fork() == 0:\n    time.sleep(30)\n    os._exit(0)\n"
         "os.kill(-1, 9)\nprint(os.wait()[1])\n"),
        (*OK, "9\n", "")),
}


@pytest.mark.parametrize("name", list(LEFT))
def test_processes_left_at_the_end_change_no_verdict(c_init: None, name: str) -> None:
    code, want = LEFT[name]
    assert both(code) == [want, want]


def test_the_nonce_is_nowhere_the_program_reads(either: str) -> None:
    """Its environment and argv are python3's: the nonce stays in the init's argv."""
    code = ("import os, sys\nprint(sorted(os.environ.items()), sys.argv, sys.orig_argv)\n")
    want = (*OK, ("[('HOME', '/work'), ('LANG', 'C.UTF-8'), ('PATH', '/usr/bin:/bin'), "
                  "('TMPDIR', '/tmp')] ['main.py'] ['/usr/bin/python3', '-E', '-s', '-S', "
                  "'main.py']\n"), "")
    assert both(code) == [want, want]


# --- (D) the input folders the init opened --------------------------------------------------

FOLDERS = {
    # what the program does to the task's files (FILES), and what it prints, cold and warm
    "unlink an input": ("print(e(lambda: os.unlink('d/a.txt')))", "1"),
    "rename an input": ("print(e(lambda: os.rename('d/e/b.txt', 'd/e/c.txt')))", "1"),
    "rename an input folder": ("print(e(lambda: os.rename('d/e', 'd/f')))", "1"),
    "rename the top input folder": ("print(e(lambda: os.rename('d', 'x')))", "1"),
    "rmdir an input folder": ("print(e(lambda: os.rmdir('d/e')))", "1"),
    "chmod an input folder": ("print(e(lambda: os.chmod('d', 0o700)))", "1"),
    "append to an input": ("print(e(lambda: open('top.txt', 'a')))", "13"),
    "the folders' modes and owners": (
        "print([(oct(os.stat(p).st_mode), os.stat(p).st_uid) for p in ('.', 'd', 'd/e')])",
        "[('0o41777', 99999), ('0o41777', 99999), ('0o41777', 99999)]"),
    "files of its own in each input folder": (
        ("for p in ('d/n', 'd/e/n', 'n'):\n    open(p, 'w').write(p)\n"
        "print([(open(p).read(), os.stat(p).st_uid) for p in ('d/n', 'd/e/n', 'n')])"),
        "[('d/n', 99998), ('d/e/n', 99998), ('n', 99998)]"),
    "a fifo, a symlink and a socket beside the inputs": (
        ("import socket\nos.mkfifo('d/f')\nos.symlink('a.txt', 'd/e/a.txt2')\n"
        "socket.socket(socket.AF_UNIX).bind('d/s')\n"
        "print(open('d/a.txt').read(), open('d/e/b.txt').read(), sorted(os.listdir('d')))"),
        "x y ['a.txt', 'e', 'f', 's']"),
    "a folder of its own in an input folder, 0o700": (
        ("os.mkdir('d/m', 0o700)\nopen('d/m/x', 'w').write('1')\n"
        "print(oct(os.stat('d/m').st_mode), open('d/m/x').read())"), "0o40700 1"),
}


@pytest.mark.parametrize("name", list(FOLDERS))
def test_the_sticky_input_folders_hold(c_init: None, name: str) -> None:
    body, line = FOLDERS[name]
    want = (*OK, line + "\n", "")
    assert both(PRE + body + "\n", FILES) == [want, want]


def test_writing_over_an_input_fails_alike(c_init: None) -> None:
    """(A strict xfail until h-sb23: a cold input was a read-only bind, EROFS; now the init
    copies it into /work as warm's, EACCES in both: test_inputs_and_removal.py.)"""
    code = ("try:\n    open('d/a.txt', 'w')\nexcept PermissionError:\n    print('refused')\n")
    want = (*OK, "refused\n", "")
    assert both(code, FILES) == [want, want]


DEEP = [(2, 4), (6, 8), (62, LIMITS.open_files)]
"""(depth of a task folder, open_files): the C init's open_folders runs out of descriptors."""


def _deep(depth: int) -> tuple[str, dict[str, str]]:
    folder = "/".join(["d"] * depth)
    code = (f"p = {folder!r}\nopen(p + '/mine.txt', 'w').write('m')\n"
            "print(open(p + '/in.txt').read(), open(p + '/mine.txt').read())\n")
    return code, {folder + "/in.txt": "x"}


@pytest.mark.parametrize(("depth", "open_files"), DEEP)
def test_a_deep_task_folder_is_open_to_the_c_inits_program(c_init: None, depth: int,
                                                           open_files: int) -> None:
    code, files = _deep(depth)
    limits = dataclasses.replace(LIMITS, open_files=open_files)
    assert full(run(code, "cold", files, limits)) == (*OK, "x m\n", "")


@pytest.mark.parametrize(("depth", "open_files"), [(1, 4), (5, 8)])
def test_a_task_folder_within_the_c_inits_descriptors_is_open(c_init: None, depth: int,
                                                              open_files: int) -> None:
    """The edge of the hole above: open_files - 3 levels are opened, cold as warm."""
    code, files = _deep(depth)
    limits = dataclasses.replace(LIMITS, open_files=open_files)
    want = (*OK, "x m\n", "")
    assert both(code, files, limits) == [want, want]


@pytest.mark.parametrize(("depth", "open_files"), DEEP)
def test_a_deep_task_folder_is_open_warm_and_to_the_python_inits(
        monkeypatch: pytest.MonkeyPatch, depth: int, open_files: int) -> None:
    argv = argv_of("python")
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    code, files = _deep(depth)
    limits = dataclasses.replace(LIMITS, open_files=open_files)
    want = (*OK, "x m\n", "")
    assert both(code, files, limits) == [want, want]


def test_a_task_folder_1000_deep_runs_cold(c_init: None) -> None:
    code, files = _deep(1000)
    assert full(run(code, "cold", files)) == (*OK, "x m\n", "")


def test_a_task_folder_1000_deep_runs_warm() -> None:
    code, files = _deep(1000)
    assert full(run(code, "warm", files)) == (*OK, "x m\n", "")


SHADOWS = {name: "import posix\nposix.write(1, b'shadow\\n')\nposix._exit(0)\n"
           for name in ("ctypes.py", "resource.py", "posix.py", "_signal.py", "signal.py",
                        "os.py", "sitecustomize.py", "encodings.py")}
"""Task files named as the modules either init imports (the Python init's child imports
`resource` and `ctypes` after its fork, under the init's uid): none is imported from /work."""


def test_task_files_shadow_no_module_of_either_init(either: str) -> None:
    code = "import sys\nprint(sys.path[0], sorted(sys.modules)[:2])\n"
    want = (*OK, "/work ['__main__', '_abc']\n", "")
    assert both(code, SHADOWS) == [want, want]


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch, c_init: None) -> Iterator[Taken]:
    _spare.spares.close()
    yield Taken(monkeypatch)
    _spare.spares.close()


def test_a_spare_jails_input_folders_are_open_too(taken: Taken) -> None:
    """A spare's init runs once the run's files are in: the third run, through the spare
    the second started, writes in its input folders as a fresh jail's does."""
    code = PRE + ("open('d/e/n', 'w').write('n')\n"
                  "print(os.getresuid(), oct(os.stat('d/e').st_mode), open('d/e/b.txt').read())\n")
    runs = [full(run(code, "cold", FILES)) for _ in range(3)]
    assert taken.hits == 1
    assert runs == [(*OK, "(99998, 99998, 99998) 0o41777 y\n", "")] * 3


# --- (E) state for the next run ------------------------------------------------------------

LEAVE = PRE + (
    "import socket\nopen('/tmp/left', 'w').write('x')\nopen('/work/left', 'w').write('x')\n"
    "open('d/left', 'w').write('x')\nos.setxattr('/work/left', 'user.x', b'1')\n"
    "os.mkfifo('/tmp/fifo')\nsocket.socket(socket.AF_UNIX).bind('/tmp/sock')\n"
    "os.chmod('/work/left', 0o6777)\n"
    "if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        import time\n"
    "        for i in range(300):\n            open(f'/tmp/late{i}', 'w').close()\n"
    "            time.sleep(0.01)\n    os._exit(0)\nprint('left')\n")
LOOK = ("import os\nprint(sorted(os.listdir('/tmp')), sorted(os.listdir('/work')),"
        " sorted(os.listdir('d')), sorted(os.listdir('d/e')))\n")


@pytest.mark.parametrize("then", ["cold", "warm"])
def test_nothing_a_cold_run_leaves_reaches_the_next(c_init: None, then: Mode) -> None:
    assert full(run(LEAVE, "cold", FILES)) == (*OK, "left\n", "")
    assert full(run(LOOK, then, FILES)) == (
        *OK, "[] ['d', 'main.py', 'top.txt'] ['a.txt', 'e'] ['b.txt']\n", "")


def test_the_next_cold_run_forks_as_many_processes(c_init: None) -> None:
    """A run that held every process it could at its end leaves the next its full count."""
    code = LEFT["every process forked, then exit 0"][0]
    want = (*OK, f"{LIMITS.processes - 1} 11\n", "")
    assert [full(run(code, "cold")) for _ in range(2)] == [want, want]


# --- (F) honest programs -------------------------------------------------------------------

UID = PROGRAM_UID
HONEST = {
    # program, and its stdout cold and warm
    "its ids": (
        ("import os\nprint(os.getuid(), os.geteuid(), os.getgid(), os.getegid(), os.getgroups(),"
        " os.getresuid(), os.getresgid())\n"),
        f"{UID} {UID} {UID} {UID} [] ({UID}, {UID}, {UID}) ({UID}, {UID}, {UID})\n"),
    "umask, nice, session, parent": (
        ("import os\nprint(oct(os.umask(0o22)), os.nice(0), os.getsid(0) == os.getpid(),"
        " os.getpgrp() == os.getpid(), os.getppid())\n"),
        "0o22 0 True True 1\n"),
    "its RLIMIT_NPROC": (
        "import resource\nprint(resource.getrlimit(resource.RLIMIT_NPROC))\n",
        f"({LIMITS.processes}, {LIMITS.processes})\n"),
    "its own file's owner, chown to its own gid, chmod": (
        ("import os\nopen('o', 'w').close()\nos.chown('o', -1, os.getgid())\nos.chmod('o', 0o600)\n"
        "st = os.stat('o')\nprint(st.st_uid == os.getuid(), st.st_gid == os.getgid(),"
        " oct(st.st_mode))\n"),
        "True True 0o100600\n"),
    "/work and /tmp writable, as access() says": (
        ("import os\nprint(os.access('/work', os.W_OK), os.access('/tmp', os.W_OK))\n"
        "open('/tmp/t', 'w').write('1')\nos.mkdir('/work/w')\nprint(open('/tmp/t').read())\n"),
        "True True\n1\n"),
    "pwd and getpass know no such user": (
        ("import getpass, pwd, os\nfor f in (lambda: pwd.getpwuid(os.getuid()), getpass.getuser):\n"
        "    try:\n        f()\n    except (KeyError, OSError) as x:\n"
        "        print(type(x).__name__)\n"),
        "KeyError\nKeyError\n"),
    "a python3 subprocess has its uid": (
        ("import subprocess, sys\nprint(subprocess.run([sys.executable, '-c', "
        "'import os; print(os.getuid(), os.getgid())'], capture_output=True, text=True).stdout,"
        " end='')\n"),
        f"{UID} {UID}\n"),
    "signals to its own processes": (
        ("import os, time\npid = os.fork()\nif pid == 0:\n    time.sleep(30)\n    os._exit(0)\n"
        "os.kill(pid, 15)\nos.kill(0, 0)\nos.kill(os.getpid(), 0)\n"
        "print(os.waitpid(pid, 0)[1])\n"),
        "15\n"),
}


@pytest.mark.parametrize("name", list(HONEST))
def test_an_honest_program_reads_the_same_cold_and_warm(c_init: None, name: str) -> None:
    code, out = HONEST[name]
    want = (*OK, out, "")
    assert both(code) == [want, want]


AS_PYTHON3 = {
    # program, and its stdout cold, warm and python3 main.py (nothing depends on the uid)
    "the shell's exit codes": (
        ("import os, subprocess\nprint(subprocess.run(['/bin/sh', '-c', 'echo hi; exit 3'],"
        " capture_output=True).returncode, os.system('exit 5') >> 8)\n"),
        "3 5\n"),
    "eight threads": (
        ("import threading\nout = [0] * 8\ndef f(i):\n    out[i] = sum(range(i * 1000))\n"
        "ts = [threading.Thread(target=f, args=(i,)) for i in range(8)]\nfor t in ts:\n"
        "    t.start()\nfor t in ts:\n    t.join()\nprint(sum(out))\n"),
        f"{sum(sum(range(i * 1000)) for i in range(8))}\n"),
    "a temporary folder in /tmp": (
        ("import os, tempfile\nwith tempfile.TemporaryDirectory() as d:\n"
        "    open(d + '/x', 'w').write('1')\n"
        "    print(open(d + '/x').read(), oct(os.stat(d).st_mode))\n"),
        "1 0o40700\n"),
    "forked children's exit codes": (
        ("import os\ncodes = []\nfor i in range(5):\n    pid = os.fork()\n    if pid == 0:\n"
        "        os._exit(i)\n    codes.append(os.waitpid(pid, 0)[1] >> 8)\nprint(codes)\n"),
        "[0, 1, 2, 3, 4]\n"),
    "its stdin, echoed": (
        "import sys\ndata = sys.stdin.read()\nprint(len(data), data.split())\n",
        "13 ['one', 'two', 'three']\n"),
    "reading its input files": (
        ("import os\nfor root, dirs, files in sorted(os.walk('d')):\n    for f in sorted(files):\n"
        "        print(os.path.join(root, f), open(os.path.join(root, f)).read())\n"),
        "d/a.txt x\nd/e/b.txt y\n"),
}


@pytest.mark.parametrize("name", list(AS_PYTHON3))
def test_an_honest_program_reads_as_python3(c_init: None, name: str) -> None:
    code, out = AS_PYTHON3[name]
    want = (*OK, out, "")
    stdin = "one\ntwo three" if "stdin" in name else ""
    assert [full(run(code, mode, FILES, stdin=stdin)) for mode in MODES] == [want, want]
    if "input" not in name:
        assert host(code, stdin) == (0, None, out)
