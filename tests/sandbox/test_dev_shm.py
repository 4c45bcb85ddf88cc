"""The jail's /dev/shm (`_jail.jail_argv`): a private tmpfs per jail, sticky (01777) as a
host's, no larger than the run's memory limit and charged to its memory cgroup, emptied by
a warm server after every run (`_in_jail/warm_server.WORK_DIRS`) and by a stdin/stdout
harness after every test (`_in_jail/harness_io.WORK_DIRS`). Probes, cold and warm: POSIX
semaphores and shared memory from C (sem_open, shm_open through ctypes) and through
multiprocessing; nothing a run leaves there (a file, a named semaphore, a shm segment, one
held open or mapped by a process left behind, odd names, a fifo, links pointing outside, a
locked folder) reaches the next run or test; filling it fails the program, not the host;
what it holds counts against the run's memory."""

from __future__ import annotations

import dataclasses
import os
import uuid

import pytest
from sandbox_probes import PASS, SHORT, ok_stdout, outcomes
from test_run_state import servers

import sandbox
from sandbox import _cgroup
from sandbox._runner import Mode

MODES: tuple[Mode, ...] = ("cold", "warm")

pytestmark = pytest.mark.usefixtures("sandbox_ready")


def own(megabytes: int) -> sandbox.Limits:
    """Limits of a warm pool of this file's own (the pool key is disk, files and memory)."""
    return dataclasses.replace(SHORT, memory_bytes=(256 << 20) + (megabytes << 20),
                               wall_s=20.0, cpu_s=10.0, test_wall_s=8.0)


LIMITS = own(110)

LIBC = ("import ctypes, os, mmap\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.sem_open.restype = ctypes.c_void_p\n"
        "libc.sem_open.argtypes = (ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint)\n"
        "for f in ('sem_wait', 'sem_post', 'sem_close'):\n"
        "    getattr(libc, f).argtypes = (ctypes.c_void_p,)\n"
        "libc.sem_getvalue.argtypes = (ctypes.c_void_p, ctypes.POINTER(ctypes.c_int))\n"
        "libc.shm_open.argtypes = (ctypes.c_char_p, ctypes.c_int, ctypes.c_uint)\n"
        "def err():\n    return os.strerror(ctypes.get_errno())\n")
"""ctypes declarations of libc's POSIX semaphores and shared memory (in libc itself since
glibc 2.34)."""

LISTING = ("import os\n"
           "print(sorted(os.listdir('/dev/shm')), os.statvfs('/dev/shm').f_bfree)\n")
"""What a run finds in its /dev/shm: names and free blocks (those of a fresh mount)."""


def lists_fresh(limits: sandbox.Limits, mode: Mode) -> str:
    return ok_stdout(LISTING, mode, limits=limits)


def after(writer: str, limits: sandbox.Limits, mode: Mode) -> tuple[str, str]:
    """(what a run finds in /dev/shm after an honest run, what it finds after `writer`)."""
    honest = lists_fresh(limits, mode)
    assert honest.startswith("[] "), honest
    wrote = sandbox.run(writer, limits=limits, mode=mode)
    assert wrote.status in ("ok", "runtime_error"), wrote
    return honest, lists_fresh(limits, mode)


# --- what a program finds: a private, sticky tmpfs no larger than its memory -------------


@pytest.mark.parametrize("mode", MODES)
def test_dev_shm_is_a_private_sticky_tmpfs_within_the_memory_limit(mode: Mode) -> None:
    name = f"sandbox-probe-{uuid.uuid4().hex}"
    host_file = f"/dev/shm/{name}" if os.path.isdir("/dev/shm") else None
    if host_file:
        open(host_file, "w").close()
    try:
        out = ok_stdout(
            "import os, stat\ns = os.stat('/dev/shm')\nv = os.statvfs('/dev/shm')\n"
            "print(oct(stat.S_IMODE(s.st_mode)), stat.S_ISDIR(s.st_mode),"
            f" v.f_blocks * v.f_frsize <= {LIMITS.memory_bytes}, v.f_files <= {LIMITS.memory_bytes // 8192},"
            f" os.listdir('/dev/shm'), os.path.exists('/dev/shm/{name}'))\n"
            "open('/dev/shm/mine', 'w').write('x')\nos.unlink('/dev/shm/mine')\nprint('ok')\n",
            mode, limits=LIMITS)
    finally:
        if host_file:
            os.unlink(host_file)
    assert out == "0o1777 True True True [] False\nok\n"


@pytest.mark.parametrize("mode", MODES)
def test_sem_open_and_shm_open_from_c(mode: Mode) -> None:
    code = LIBC + (
        "sem = libc.sem_open(b'/probe', os.O_CREAT | os.O_EXCL, 0o600, 1)\n"
        "assert sem not in (None, 0, ctypes.c_void_p(-1).value), err()\n"
        "v = ctypes.c_int()\n"
        "libc.sem_wait(sem); libc.sem_getvalue(sem, ctypes.byref(v)); a = v.value\n"
        "libc.sem_post(sem); libc.sem_getvalue(sem, ctypes.byref(v)); b = v.value\n"
        "named = sorted(os.listdir('/dev/shm'))\n"
        "libc.sem_close(sem)\nassert libc.sem_unlink(b'/probe') == 0, err()\n"
        "fd = libc.shm_open(b'/segment', os.O_CREAT | os.O_RDWR, 0o600)\nassert fd >= 0, err()\n"
        "os.ftruncate(fd, 1 << 20)\nm = mmap.mmap(fd, 1 << 20)\nm[:5] = b'hello'\n"
        "fd2 = libc.shm_open(b'/segment', os.O_RDONLY, 0)\n"
        "seen = os.pread(fd2, 5, 0)\nm.close(); os.close(fd); os.close(fd2)\n"
        "assert libc.shm_unlink(b'/segment') == 0, err()\n"
        "print(a, b, named, seen, os.listdir('/dev/shm'))\n")
    assert ok_stdout(code, mode, limits=LIMITS) == "0 1 ['sem.probe'] b'hello' []\n"


MULTIPROCESSING = {
    "a Lock": (("import multiprocessing as mp\ndef f():\n    lock = mp.Lock()\n"
                "    with lock:\n        return lock.acquire(False)\n"), "False"),
    "a Pool (fork)": (("import multiprocessing as mp\ndef f():\n"
                       "    with mp.get_context('fork').Pool(2) as pool:\n"
                       "        return pool.map(abs, [-1, -2, 3])\n"), "[1, 2, 3]"),
    "shared_memory": (("from multiprocessing import shared_memory\ndef f():\n"
                       "    s = shared_memory.SharedMemory(create=True, size=16)\n"
                       "    s.buf[:2] = b'ok'\n"
                       "    t = shared_memory.SharedMemory(s.name)\n    got = bytes(t.buf[:2])\n"
                       "    t.close(); s.close(); s.unlink()\n    return got\n"), "b'ok'"),
}
GUARD = "if __name__ == '__main__':\n    print(repr(f()))\n"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(MULTIPROCESSING))
def test_multiprocessing_runs_plain_and_twice_as_assert_tests(name: str, mode: Mode) -> None:
    code, expected = MULTIPROCESSING[name]
    assert ok_stdout(code + GUARD, mode, limits=LIMITS) == expected + "\n"
    check = f"assert repr(f()) == {expected!r}, f()"
    assert outcomes(code, [check, check], mode, limits=LIMITS) == [PASS, PASS]


# --- nothing left there reaches the next run or test -----------------------------------------

DAEMON = ("import os, time\n"
          "def daemon(body):\n"  # a grandchild in a session of its own: outlives the program
          "    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n"
          "            body()\n            time.sleep(60)\n        os._exit(0)\n"
          "    time.sleep(0.3)\n")

LEFTOVERS = {
    "a file": "open('/dev/shm/x', 'w').write('left')\n",
    "a named semaphore and a shm segment": LIBC + (
        "assert libc.sem_open(b'/left', os.O_CREAT, 0o666, 3)\n"
        "assert libc.shm_open(b'/left', os.O_CREAT | os.O_RDWR, 0o666) >= 0\n"),
    "a file held open and mapped by a process left behind": DAEMON + (
        "import mmap\ndef hold():\n    global m, fd\n"
        "    fd = os.open('/dev/shm/held', os.O_CREAT | os.O_RDWR, 0o600)\n"
        "    os.ftruncate(fd, 1 << 20)\n    m = mmap.mmap(fd, 1 << 20)\n    m[:4] = b'held'\n"
        "    os.unlink('/dev/shm/held')\n"  # hidden: only its free blocks show it
        "    fd2 = os.open('/dev/shm/named', os.O_CREAT | os.O_RDWR, 0o600)\n"
        "    os.write(fd2, b'x' * 65536)\n"
        "daemon(hold)\n"),
    "odd names": ("import os\nfor name in ('a b\\n\\tc', '\\u00fcn\\u00ef', '-x', '.hidden',"
                  " 'x' * 255, '\\\\', '\\x01'):\n"
                  "    open(os.path.join('/dev/shm', name), 'w').write(name)\n"
                  "os.mkdir('/dev/shm/sem.dir')\nopen('/dev/shm/sem.dir/in', 'w').close()\n"
                  "os.chmod('/dev/shm/sem.dir', 0)\n"),
    "links pointing outside": (
        "import os\nfor target in ('/work', '/tmp', '/work/keep.txt', '/harness', '/',"
        " '/dev/shm', '/nowhere'):\n"
        "    os.symlink(target, '/dev/shm/l' + target.replace('/', '_'))\n"
        "os.mkdir('/dev/shm/d')\nos.symlink('/work', '/dev/shm/d/work')\n"),
    "a fifo with a writer left behind": DAEMON + (
        "os.mkfifo('/dev/shm/fifo')\n"
        "def write():\n    global f\n    f = os.open('/dev/shm/fifo', os.O_RDWR)\n"
        "    os.write(f, b'left')\n"
        "daemon(write)\n"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", sorted(LEFTOVERS))
def test_nothing_left_in_dev_shm_reaches_the_next_run(kind: str, mode: Mode) -> None:
    """The next run, on the same warm server or the fresh one it retired for (a program
    that makes a file moves the inode counter: docs/sandbox.md, "What a run can leave"),
    finds /dev/shm as after an honest run: no name, every block free; its inputs stay."""
    keep = {"keep.txt": "kept"}
    honest, seen = after(LEFTOVERS[kind], LIMITS, mode)
    assert seen == honest, kind
    assert ok_stdout("print(open('keep.txt').read(), sorted(os.listdir('/tmp')))\n"
                     .replace("print", "import os\nprint", 1), mode, keep,
                     limits=LIMITS) == "kept []\n"


@pytest.mark.parametrize("mode", MODES)
def test_a_named_semaphore_left_is_not_opened_by_the_next_run(mode: Mode) -> None:
    opener = LIBC + (
        "ctypes.set_errno(0)\n"
        "print(libc.sem_open(b'/left', 0, 0, 0), err(),"
        " libc.shm_open(b'/left', os.O_RDONLY, 0), err())\n")
    before = ok_stdout(opener, mode, limits=LIMITS)
    assert before == "None No such file or directory -1 No such file or directory\n"
    sandbox.run(LEFTOVERS["a named semaphore and a shm segment"], limits=LIMITS, mode=mode)
    assert ok_stdout(opener, mode, limits=LIMITS) == before


@pytest.mark.parametrize("mode", MODES)
def test_a_stdin_stdout_test_finds_dev_shm_as_the_first_did(mode: Mode) -> None:
    """Each stdin/stdout test's /dev/shm is taken back to the task's (empty) after it."""
    code = ("import os\nprint(sorted(os.listdir('/dev/shm')))\n"
            "open('/dev/shm/x' + input(), 'w').close()\n")
    tests = [{"input": "1\n", "output": "[]\n"}, {"input": "2\n", "output": "[]\n"}]
    assert outcomes(code, tests, mode, limits=LIMITS) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_what_dev_shm_itself_keeps_is_the_servers(mode: Mode) -> None:
    """/dev/shm's own mode, owner, times and attributes are no run's to change (sticky,
    another uid's: chmod, chown and user.* refused), nor left changed for the next."""
    probe = ("import os\ns = os.stat('/dev/shm')\n"
             "print(oct(s.st_mode), s.st_uid, s.st_gid, os.listxattr('/dev/shm'))\n")
    fresh = ok_stdout(probe, mode, limits=LIMITS)
    writer = ("import os\nfor step in (lambda: os.chmod('/dev/shm', 0o700),"
              " lambda: os.chown('/dev/shm', 99998, 99998),"
              " lambda: os.setxattr('/dev/shm', 'user.leak', b'1')):\n"
              "    try:\n        step()\n        print('done')\n"
              "    except OSError as exc:\n        print(exc.errno)\n")
    before = servers(LIMITS) if mode == "warm" else []
    assert ok_stdout(writer, mode, limits=LIMITS) == "1\n1\n1\n"
    if mode == "warm":  # nothing made: the same server serves on
        assert servers(LIMITS) == before
    assert ok_stdout(probe, mode, limits=LIMITS) == fresh


# --- its size and its memory -----------------------------------------------------------------

FILL = ("import os\ntotal = 0\nchunk = b'x' * (1 << 20)\n"
        "fd = os.open('/dev/shm/fill', os.O_CREAT | os.O_WRONLY, 0o600)\ntry:\n"
        "    while total < (4 << 30):\n        total += os.write(fd, chunk)\n"
        "except OSError as exc:\n    print(exc.strerror, flush=True)\n"
        "print(total >> 20)\n")


@pytest.mark.parametrize("mode", MODES)
def test_filling_dev_shm_fails_the_program_not_the_host(mode: Mode) -> None:
    """Writing /dev/shm full stops at the memory limit at most: the write fails (ENOSPC)
    or the run is a memory_limit; the next run finds it fresh, the host is untouched."""
    limits = dataclasses.replace(own(111), file_size_bytes=1 << 40)
    host_free = os.statvfs("/dev/shm").f_bfree if os.path.isdir("/dev/shm") else None
    honest = lists_fresh(limits, mode)
    ex = sandbox.run(FILL, limits=limits, mode=mode)
    assert ex.status in ("ok", "memory_limit"), ex
    if ex.status == "ok":
        lines = ex.stdout.splitlines()
        assert lines[0] == "No space left on device", ex
        assert int(lines[1]) <= limits.memory_bytes >> 20, ex
    assert lists_fresh(limits, mode) == honest
    if host_free is not None:  # the jail's /dev/shm is not the host's
        assert os.statvfs("/dev/shm").f_bfree > host_free - (limits.memory_bytes >> 13)


@pytest.mark.parametrize("mode", MODES)
def test_what_dev_shm_holds_counts_against_the_memory_limit(mode: Mode) -> None:
    """With a memory cgroup (the run's memory as a whole), 200 MiB written to /dev/shm and
    200 MiB allocated go past 368 MiB: a memory_limit, where either alone is ok."""
    if not (_cgroup.cgroup_v2_root() or _cgroup.cgroup_v1()):
        pytest.skip("no memory cgroup on this host: /dev/shm is then a bound of its own")
    limits = dataclasses.replace(own(112), file_size_bytes=1 << 30)
    write = ("import os\nfd = os.open('/dev/shm/big', os.O_CREAT | os.O_WRONLY, 0o600)\n"
             "chunk = b'x' * (1 << 20)\nfor _ in range(200):\n    os.write(fd, chunk)\n")
    allocate = "b = bytearray(200 << 20)\nb[::4096] = b'y' * len(b[::4096])\n"
    assert ok_stdout(write + "print('ok')\n", mode, limits=limits) == "ok\n"
    assert ok_stdout(allocate + "print('ok')\n", mode, limits=limits) == "ok\n"
    ex = sandbox.run(write + allocate + "print('ok')\n", limits=limits, mode=mode)
    assert ex.status == "memory_limit", ex


@pytest.mark.usefixtures("no_cgroup")
@pytest.mark.parametrize("mode", MODES)
def test_without_a_cgroup_dev_shm_stops_at_the_memory_limit(mode: Mode) -> None:
    """Without a memory cgroup (rlimits only), what /dev/shm holds is not in any process's
    address space: its size, `memory_bytes`, is its bound (docs/sandbox.md, "Limits by
    host"). Filling it ends in ENOSPC there, and the next run finds it fresh."""
    limits = dataclasses.replace(own(113), file_size_bytes=1 << 40)
    honest = lists_fresh(limits, mode)
    assert ok_stdout(FILL, mode, limits=limits) == \
        f"No space left on device\n{limits.memory_bytes >> 20}\n"
    assert lists_fresh(limits, mode) == honest
