"""Nothing a run leaves is visible to the next (issue #35). For every kind of state a process
can leave in a mount, a namespace or the kernel, a program writes it in one run and another
program reads it in the next, on the same warm server and cold: the reader sees what it sees
after an honest run. docs/sandbox.md ("What a run can leave") lists the kinds and what
clears each; this table mirrors it.

Each kind: (writer, reader, kept). `kept`: a warm server keeps serving after the writer
(what clears that state is the clean-up, not a fresh server). Other writers make a process,
a thread or a file of their own, which moves a counter the next run could read (its pid, a
file's inode number): the server retires after them, and the leftovers are also cleared
(killed, removed) first."""

from __future__ import annotations

import dataclasses
import time

import pytest
from test_cross_run import ADD_TESTS, own

import sandbox
from sandbox import _warm

CTYPES = ("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
          "def call(name, *args):\n"
          "    ctypes.set_errno(0)\n"
          "    result = getattr(libc, name)(*args)\n"
          "    return result, os.strerror(ctypes.get_errno()) if result == -1 else ''\n")
DAEMON = ("import os, time\n"
          "def daemon(body):\n"  # a grandchild in a session of its own: outlives the program
          "    if os.fork() == 0:\n"
          "        os.setsid()\n"
          "        if os.fork() == 0:\n"
          "            body()\n"
          "            time.sleep(60)\n"
          "        os._exit(0)\n"
          "    time.sleep(0.3)\n")
FOLDERS = "for top in ('/work', '/tmp'):\n"

KINDS: dict[str, tuple[str, str, bool]] = {
    "extended attributes of /work and /tmp": (
        "import os\n" + FOLDERS + "    try:\n        os.setxattr(top, 'user.leak', b'42')\n"
        "    except OSError:\n        pass\n",
        "import os\nprint([os.listxattr(top) for top in ('/work', '/tmp')])\n", True),
    "extended attributes of files": (
        "import os\n" + FOLDERS + "    open(f'{top}/f', 'w').close()\n"
        "    os.setxattr(f'{top}/f', 'user.leak', b'42')\n",
        ("import os\nprint([os.path.exists(f'{top}/f') and os.listxattr(f'{top}/f')"
        " for top in ('/work', '/tmp')])\n"), False),
    "modes and owners of /work and /tmp": (
        "import os\n" + FOLDERS + "    for step in (lambda: os.chmod(top, 0o700),"
        " lambda: os.chown(top, 99998, 99998), lambda: os.utime(top, (0, 0)),"
        " lambda: os.utime(top)):\n"
        "        try:\n            step()\n        except OSError:\n            pass\n",
        # times: recent, not equal (a fresh cold /work's access and change times are equal
        # only when its mount and its files' mount points fall in one clock tick)
        ("import os, time\nnow = time.time()\n"
         "print([(oct(s.st_mode), s.st_uid, s.st_gid, s.st_nlink, s.st_size,"
         " all(now - 600 < t < now + 1 for t in (s.st_atime, s.st_mtime)))"
         " for s in map(os.stat, ('/work', '/tmp'))])\n"),
        True),
    "files, folders, links, fifos and sockets": (
        "import os, socket\n" + FOLDERS + "    os.makedirs(f'{top}/.hidden/deep')\n"
        "    open(f'{top}/.hidden/deep/f', 'w').write('42')\n"
        "    os.symlink('/work', f'{top}/link')\n    os.mkfifo(f'{top}/fifo')\n"
        "    socket.socket(socket.AF_UNIX).bind(f'{top}/sock')\n"
        "    os.chmod(f'{top}/.hidden', 0)\n",
        "import os\nprint([sorted(os.listdir(top)) for top in ('/work', '/tmp')])\n", False),
    "free space and inodes held by an open, unlinked file": (
        DAEMON + "def hold():\n"
        "    global held\n    held = []\n" + "    " + FOLDERS.replace("\n", "\n    ")
        + "    f = open(f'{top}/big', 'wb'); f.write(b'x' * (1 << 20)); f.flush()\n"
        "        os.unlink(f'{top}/big'); held.append(f)\n"
        "daemon(hold)\n",
        ("import os\nprint([(os.statvfs(t).f_bfree, os.statvfs(t).f_ffree)"
        " for t in ('/work', '/tmp')])\n"), False),
    "flock and fcntl locks": (
        DAEMON + "import fcntl\ndef lock():\n    global fds\n"
        "    fds = [os.open(top, os.O_RDONLY) for top in ('/work', '/tmp')]\n"
        "    for fd in fds:\n        fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "daemon(lock)\n",
        ("import fcntl, os\nfree = []\nfor top in ('/work', '/tmp'):\n"
        "    fd = os.open(top, os.O_RDONLY)\n"
        "    try:\n        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n        free.append(True)\n"
        "    except BlockingIOError:\n        free.append(False)\nprint(free)\n"), False),
    "SysV shared memory, semaphores and message queues": (
        CTYPES + "print(call('shmget', 0x5eed, 4096, 0o1666), call('semget', 0x5eed, 1, 0o1666),"
        " call('msgget', 0x5eed, 0o1666))\n",
        CTYPES + "print(call('shmget', 0x5eed, 0, 0), call('semget', 0x5eed, 0, 0),"
        " call('msgget', 0x5eed, 0))\n", True),
    "POSIX message queues": (
        CTYPES + "libc.mq_open.argtypes = (ctypes.c_char_p, ctypes.c_int, ctypes.c_int,"
        " ctypes.c_void_p)\nprint(call('mq_open', b'/leak', os.O_CREAT | os.O_RDWR, 0o666, None))\n",
        CTYPES + "libc.mq_open.argtypes = (ctypes.c_char_p, ctypes.c_int)\n"
        "print(call('mq_open', b'/leak', os.O_RDONLY))\n", True),
    "POSIX shared memory (/dev/shm)": (  # more in test_dev_shm.py
        "import os\nos.open('/dev/shm/leak', os.O_CREAT | os.O_RDWR, 0o666)\n",
        "import os\nprint(os.path.exists('/dev/shm'), os.listdir('/dev/shm'))\n", False),
    "kernel keyrings": (
        CTYPES + "print(call('syscall', 248, b'user', b'leak', b'42', 2, -4))\n",  # add_key
        CTYPES + "print(call('syscall', 250, 10, -4, b'user', b'leak', 0),"  # keyctl SEARCH
        " call('syscall', 249, b'user', b'leak', None, 0))\n", True),  # request_key
    "timers in a process left behind": (
        DAEMON + "import signal\ndef late():\n"
        "    fd = os.timerfd_create(time.CLOCK_MONOTONIC) if hasattr(os, 'timerfd_create')"
        " else None\n"
        "    signal.setitimer(signal.ITIMER_REAL, 30)\n"
        "    time.sleep(0.8)\n" + "    " + FOLDERS.replace("\n", "\n    ")
        + "    open(f'{top}/late', 'w').close()\n"
        "daemon(late)\n",
        ("import os, time\ntime.sleep(1.2)\nprint([os.path.exists(f'{t}/late')"
        " for t in ('/work', '/tmp')])\n"), False),
    "processes left behind": (
        DAEMON + "daemon(lambda: None)\n",
        ("import os\ntry:\n    os.kill(-1, 0)\n    print('a process is left')\n"
        "except ProcessLookupError:\n    print('none')\n"), False),
    "abstract unix sockets": (
        DAEMON + "import socket\ndef listen():\n    global s\n"
        "    s = socket.socket(socket.AF_UNIX)\n    s.bind('\\0leak')\n    s.listen()\n"
        "daemon(listen)\n",
        ("import socket\ns = socket.socket(socket.AF_UNIX)\ntry:\n    s.connect('\\0leak')\n"
        "    print('connected')\nexcept OSError as exc:\n    print(type(exc).__name__)\n"), False),
    "mounts": (
        CTYPES + "libc.mount.argtypes = (ctypes.c_char_p,) * 4 + (ctypes.c_void_p,)\n"
        "print(call('mount', b'none', b'/work', b'tmpfs', 0, None),"
        " call('umount2', b'/tmp', 2), call('mount', b'/work', b'/tmp', None, 4096, None))\n",
        ("import os\nprint([(sorted(os.listdir(t)), os.statvfs(t).f_blocks) for t in"
        " ('/work', '/tmp')])\n"), True),
    "hostname": (
        CTYPES + "print(call('sethostname', b'leak', 4))\n",
        "import socket\nprint(socket.gethostname())\n", True),
    "umask, environment and working folder": (
        ("import os\nos.umask(0)\nos.environ['LEAK'] = '42'\nos.putenv('LEAK', '42')\n"
        "os.chdir('/tmp')\n"),
        "import os\nprint(oct(os.umask(0o22)), 'LEAK' in os.environ, os.getcwd())\n", True),
    "interpreter state": (
        ("import builtins, os, sys\nbuiltins.LEAK = 42\nos.LEAK = 42\nsys.setrecursionlimit(99999)\n"
        "sys.path.insert(0, '/tmp')\n"),
        ("import builtins, os, sys\nprint(hasattr(builtins, 'LEAK'), hasattr(os, 'LEAK'),"
        " sys.getrecursionlimit(), sys.path[0])\n"), True),
}


def servers(limits: sandbox.Limits) -> list[int]:
    """The pool's servers that serve on (a retired one may still be listed until the next
    run takes a server)."""
    return [server.proc.pid for server in _warm._pool(limits).servers if server.alive()]


def read_after(writer: str, reader: str, limits: sandbox.Limits, mode: str,
               ) -> tuple[str, bool]:
    """The reader's output after `writer`, and whether the same warm server ran both."""
    before = servers(limits) if mode == "warm" else []
    wrote = sandbox.run(writer, limits=limits, mode=mode)
    assert wrote.status in ("ok", "runtime_error"), wrote
    kept = mode == "warm" and servers(limits) == before
    read = sandbox.run(reader, limits=limits, mode=mode)
    assert read.status == "ok", read
    return read.stdout, kept


@pytest.mark.parametrize("mode", ["warm", "cold"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_nothing_a_run_leaves_reaches_the_next(kind: str, mode: str) -> None:
    writer, reader, kept = KINDS[kind]
    limits = dataclasses.replace(own(80), wall_s=5.0, cpu_s=5.0)
    honest, _ = read_after("pass", reader, limits, mode)
    assert sandbox.run("pass", limits=limits, mode=mode).status == "ok"  # a server is ready
    seen, same_server = read_after(writer, reader, limits, mode)
    assert seen == honest, (kind, mode)
    if mode == "warm":
        assert same_server == kept, (kind, "the server was kept" if same_server else "retired")


def test_the_attributes_of_work_reach_no_later_test_or_episode() -> None:
    """The issue's case in each kind of run: a value stored on /work by an assert run, a
    stdin/stdout run and a plain run (a `python_tool` call) is not there for the next."""
    limits = own(81)
    store = ("import os\nos.setxattr('/work', 'user.answer', b'42')\n")
    look = "import os\nprint(os.listxattr('/work'))\n"
    sandbox.run("pass", limits=limits, mode="warm")  # a server is ready
    for writer in (
            lambda: sandbox.run_tests(store + "def add(a, b):\n    return a + b\n",
                                      ADD_TESTS, limits=limits, mode="warm"),
            lambda: sandbox.run_tests(store + "print(input())",
                                      [{"input": "1\n", "output": "1\n"}], limits=limits,
                                      mode="warm"),
            lambda: sandbox.run(store, limits=limits, mode="warm")):
        before = servers(limits)
        writer()
        assert servers(limits) == before  # the same server: it took the attribute off
        assert sandbox.run(look, limits=limits, mode="warm").stdout == "[]\n"


COUNTS = ("import os, sys\nN = {n}\nfor i in range(N):\n"
          "    for top in ('/work', '/tmp'):\n"
          "        open(f'{{top}}/n', 'w').close()\n        os.unlink(f'{{top}}/n')\n"
          "    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n    os.waitpid(pid, 0)\n")
COUNTERS = ("import os\nfor top in ('/work', '/tmp'):\n    open(f'{top}/probe', 'w').close()\n"
            "print(os.getpid(), [os.stat(f'{top}/probe').st_ino for top in ('/work', '/tmp')])\n")
IO_CASES = [{"input": f"{i}\n", "output": f"{i}\n"} for i in range(8)]


def _forks_and_files(n: int, limits: sandbox.Limits, mode: str) -> None:
    sandbox.run(COUNTS.format(n=n), limits=limits, mode=mode)


def _a_timeout_at_test(n: int, limits: sandbox.Limits, mode: str) -> None:
    """The tests after a timeout never start: where the program times out says how many
    processes the run made."""
    code = f"import time\nx = input()\nif x == '{n}':\n    time.sleep(9)\nprint(x)\n"
    sandbox.run_tests(code, IO_CASES, limits=dataclasses.replace(limits, test_wall_s=0.5),
                      mode=mode)


def _workers_crashed(n: int, limits: sandbox.Limits, mode: str) -> None:
    """Each crash of the worker costs a replacement, forked by the server."""
    code = f"import os\ndef add(a, b):\n    if a < {n}:\n        os._exit(3)\n    return a + b\n"
    sandbox.run_tests(code, [f"assert add({i}, 1) == {i + 1}" for i in range(7)],
                      limits=limits, mode=mode)


WRITERS = {"forks and files": (_forks_and_files, (300, 700)),
           "where a run times out": (_a_timeout_at_test, (2, 6)),
           "how many workers crash": (_workers_crashed, (1, 5))}


@pytest.mark.parametrize("mode", ["warm", "cold"])
@pytest.mark.parametrize("how", sorted(WRITERS))
def test_a_count_left_in_the_pid_and_inode_counters_is_not_read_by_the_next_run(
        how: str, mode: str) -> None:
    """A program that makes N processes and N files moved the jail's pid counter and the
    inode counters of /work and /tmp by N: the next program on that server read N off its
    own pid and a file's inode number (300 or 700: a number passed from run to run). So did
    a program that chose where its run stopped (a timeout at test N: N test processes) or
    how many of its workers crashed (N replacements). Now the server pads the processes a
    program chose of its run's own to a number it did not choose, and retires after a run
    that made any of its own: the next program reads the same for either N."""
    write, counts = WRITERS[how]
    limits = own(82)
    seen = []
    for n in counts:
        sandbox.run("pass", limits=limits, mode=mode)
        write(n, limits, mode)
        seen.append(sandbox.run(COUNTERS, limits=limits, mode=mode).stdout)
    assert seen[0] == seen[1], seen


def test_undisturbed_runs_keep_their_server() -> None:
    """The counters move by the run's own processes and inputs only: plain, assert and
    stdin/stdout runs, and inputs in folders, keep the server; so do failing tests, a
    plain run's timeout (which make no process), and runs whose stopped tests or crashed
    workers are padded away."""
    limits = own(83)
    sandbox.run("pass", limits=limits, mode="warm")
    before = servers(limits)
    assert sandbox.run("print(1)", files={"a/b/c.txt": "x", "a/d.txt": "y"}, limits=limits,
                       mode="warm").stdout == "1\n"
    assert sandbox.run_tests("def add(a, b):\n    return 2 * a\n", ADD_TESTS, limits=limits,
                             mode="warm").passed == 1
    assert sandbox.run_tests("print(input())", IO_CASES, limits=limits, mode="warm").passed == 8
    assert sandbox.run_tests("print(1)", IO_CASES, limits=limits, mode="warm").passed == 1
    assert sandbox.run("while True: pass", limits=dataclasses.replace(limits, wall_s=0.5),
                       mode="warm").status == "timeout"
    _a_timeout_at_test(3, limits, "warm")
    _workers_crashed(4, limits, "warm")
    assert servers(limits) == before


STOPPER = ("import os, signal\n"
           "for pid in (os.getppid(), -1):\n"
           "    try:\n        os.kill(pid, signal.SIGSTOP)\n    except OSError:\n        pass\n"
           "print(input())\n")


@pytest.mark.parametrize("mode", ["warm", "cold"])
def test_a_program_cannot_stop_what_keeps_its_time(mode: str) -> None:
    """A stdin/stdout program that SIGSTOPs its parent and every process it may signal used
    to stop its harness (warm) or the zygote the harness waited on, and the run lasted its
    whole wall limit (10 s for 2 tests of 2 s). Warm, the harness and its zygote are the
    server's uid, out of its reach: judged as it is. Cold, the harness is pid 1 (immune)
    and waits on the zygote only until the test's deadline."""
    limits = dataclasses.replace(own(84), wall_s=10.0, test_wall_s=2.0)
    cases = [{"input": "1\n", "output": "1\n"}] * 2
    begin = time.monotonic()
    report = sandbox.run_tests(STOPPER, cases, limits=limits, mode=mode)
    took = time.monotonic() - begin
    if mode == "warm":
        assert report.passed == 2, report
    assert took < 4.0, (took, report)
    assert sandbox.run_tests("print(input())", cases, limits=limits, mode=mode).passed == 2
