"""Red team round sb21 (h-rt45) on h-sb22's private /dev/shm per jail (`_jail.jail_argv`'s
tmpfs, `warm_server.WORK_DIRS`, `harness_io.WORK_DIRS`, sessions' `shm_bytes`) and
`warm_server.wait_run`'s reaping clock (eeed2af..6bc134e). Classes: reaching another run
(state left for the next warm run, stdin/stdout test, session call or reset: sockets,
hard links, xattrs, locked and deep folders, held maps of stopped processes, inode
exhaustion), reaching the host, resources, verdict forgery between tests, false losses
(honest multiprocessing, ProcessPoolExecutor, shared_memory), and the reaping clock
(zombies, stopped orphans). Existing probes in test_dev_shm.py/test_warm_reaping.py are
not repeated.

114 probes: 104 held, 10 open under 2 roots (both false losses), both closed by h-sb24
(tests/sandbox/test_program_module.py):
- ROOT_PICKLE (8: 4 patterns x cold/warm): an assert test's program is a dict namespace
  named 'solution' that is not in sys.modules, so Pool.map / ProcessPoolExecutor.map of
  the program's own function and pickling an instance of its own class (a Queue.put, a
  pickle round trip) raise PicklingError; the same code passes as a plain run (held).
  Not new in h-sb22: exposed now that multiprocessing works in the jail.
- ROOT_SHM_INODES (2): /dev/shm's nr_inodes is `disk_files` (4096), and every live POSIX
  semaphore holds an inode there: 5000 multiprocessing.Value objects fail with ENOSPC
  (1000 Locks, held, pass).

Held (h-sb22's change resists): nothing left in /dev/shm reaches the next run (10 kinds:
a bound socket with its listener, a stopped holder's shared map and semaphore, a zombie's
map, hard links and xattrs, every inode taken, folders nested past the recursion limit,
sticky folders, renames, a fifo held by a stopped reader) nor the next stdin/stdout test
(6 kinds, an SCM_RIGHTS cycle pinning pages among them); the pages a test or run left are
the next one's again (cgroup v1 here); assert tests share /dev/shm as /tmp, cold = warm;
runs side by side and a session's siblings see their own /dev/shm; a session's /dev/shm
carries over calls and a reset empties it; the reaping clock takes no status the program
reads, leaves stopped and zombie floods their verdicts, and dead workers among exiting
orphans keep each test's outcome; honest multiprocessing (Queue, Event, Semaphore,
Barrier, Condition, Value/Array, ProcessPoolExecutor, JoinableQueue, SimpleQueue,
ShareableList, Pool, Manager, a leaked SharedMemory) passes plain, and as assert and
stdin/stdout tests where the pickling root does not apply.
"""

from __future__ import annotations

import dataclasses

import pytest
from sandbox_probes import DIED, PASS, SHORT, ok_stdout, outcomes

import sandbox
from sandbox._runner import Mode

MODES: tuple[Mode, ...] = ("cold", "warm")
pytestmark = pytest.mark.usefixtures("sandbox_ready")

LIMITS = dataclasses.replace(SHORT, memory_bytes=(256 << 20) + (121 << 20), wall_s=20.0,
                             cpu_s=10.0, test_wall_s=8.0)
"""A warm pool of this file's own (memory 377 MiB)."""

LISTING = ("import os\n"
           "print(sorted(os.listdir('/dev/shm')), os.statvfs('/dev/shm').f_bfree,"
           " os.statvfs('/dev/shm').f_ffree)\n")
DAEMON = ("import os, time, signal\n"
          "def daemon(body, stop=False):\n"
          "    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n"
          "            body()\n"
          "            if stop:\n                os.kill(os.getpid(), signal.SIGSTOP)\n"
          "            time.sleep(60)\n        os._exit(0)\n"
          "    time.sleep(0.3)\n")


def fresh(mode: Mode) -> str:
    out = ok_stdout(LISTING, mode, limits=LIMITS)
    assert out.startswith("[] "), out
    return out


# --- state left in /dev/shm for the next run ------------------------------------------------

LEFT = {
    "a unix socket bound there, its listener left behind": DAEMON + (
        "import socket\ndef listen():\n    global s\n"
        "    s = socket.socket(socket.AF_UNIX)\n    s.bind('/dev/shm/sock')\n    s.listen()\n"
        "daemon(listen)\n"),
    "a shared map held by a stopped process": DAEMON + (
        "import mmap\ndef hold():\n    global m\n"
        "    fd = os.open('/dev/shm/m', os.O_CREAT | os.O_RDWR, 0o600)\n"
        "    os.ftruncate(fd, 8 << 20)\n    m = mmap.mmap(fd, 8 << 20)\n"
        "    m[::4096] = b'z' * 2048\n    os.unlink('/dev/shm/m')\n"
        "daemon(hold, stop=True)\n"),
    "a zombie holding an unlinked file's map": (
        "import os, mmap\nfd = os.open('/dev/shm/z', os.O_CREAT | os.O_RDWR, 0o600)\n"
        "os.ftruncate(fd, 1 << 20)\nos.unlink('/dev/shm/z')\n"
        "if os.fork() == 0:\n    m = mmap.mmap(fd, 1 << 20)\n    m[:1] = b'x'\n    os._exit(0)\n"),
    "hard links and user xattrs": (
        "import os\nopen('/dev/shm/a', 'w').write('a')\n"
        "for i in range(50):\n    os.link('/dev/shm/a', f'/dev/shm/h{i}')\n"
        "try:\n    os.setxattr('/dev/shm/a', 'user.x', b'1')\nexcept OSError:\n    pass\n"
        "os.chmod('/dev/shm/a', 0)\n"),
    "every inode taken": (
        "import os\ni = 0\ntry:\n    while True:\n"
        "        open(f'/dev/shm/{i}', 'w').close()\n        i += 1\n"
        "except OSError as e:\n    print(e.errno, i > 4000)\n"),
    "folders nested past the recursion limit": (
        "import os\nos.chdir('/dev/shm')\nfor _ in range(1500):\n"
        "    os.mkdir('d')\n    os.chdir('d')\nos.chmod('.', 0)\n"),
    "a sticky folder of the program's with a file mode 0": (
        "import os\nos.mkdir('/dev/shm/s', 0o1777)\nopen('/dev/shm/s/f', 'w').close()\n"
        "os.chmod('/dev/shm/s/f', 0)\nos.chmod('/dev/shm/s', 0o1000)\n"),
    "renames of what it made over and over": (
        "import os\nopen('/dev/shm/a', 'w').close()\nos.mkdir('/dev/shm/d')\n"
        "for i in range(200):\n    os.rename('/dev/shm/a', f'/dev/shm/d/a{i}')\n"
        "    os.rename(f'/dev/shm/d/a{i}', '/dev/shm/a')\n"),
    "a fifo held by a stopped reader": DAEMON + (
        "def hold():\n    global r\n    os.mkfifo('/dev/shm/f')\n"
        "    r = os.open('/dev/shm/f', os.O_RDWR)\n    os.write(r, b'x' * 4096)\n"
        "daemon(hold, stop=True)\n"),
    "a semaphore left at zero by a stopped holder": DAEMON + (
        "import multiprocessing.synchronize as s, _multiprocessing as m\n"
        "def hold():\n    global sem\n"
        "    sem = m.SemLock(1, 1, 1, '/mp-left', False)\n    sem.acquire()\n"
        "daemon(hold, stop=True)\n"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", sorted(LEFT))
def test_nothing_left_in_dev_shm_reaches_the_next_run(kind: str, mode: Mode) -> None:
    honest = fresh(mode)
    left = sandbox.run(LEFT[kind], limits=LIMITS, mode=mode)
    assert left.status in ("ok", "runtime_error"), left
    assert ok_stdout(LISTING, mode, limits=LIMITS) == honest


OPENER = ("import _multiprocessing as m, socket, os\n"
          "try:\n    m.SemLock(1, 1, 1, '/mp-left', False)\n    print('made')\n"
          "except OSError as e:\n    print('sem', e.errno)\n"
          "s = socket.socket(socket.AF_UNIX)\ntry:\n    s.connect('/dev/shm/sock')\n"
          "    print('connected')\nexcept OSError as e:\n    print('sock', e.errno)\n")


@pytest.mark.parametrize("mode", MODES)
def test_a_left_semaphore_and_socket_are_not_reached_by_the_next_run(mode: Mode) -> None:
    sandbox.run(LEFT["a semaphore left at zero by a stopped holder"], limits=LIMITS, mode=mode)
    sandbox.run(LEFT["a unix socket bound there, its listener left behind"], limits=LIMITS,
                mode=mode)
    assert ok_stdout(OPENER, mode, limits=LIMITS) == "made\nsock 2\n"


# --- the next stdin/stdout test of the same run -----------------------------------------------

TEST_LEFT = {
    "a semaphore at zero held by a stopped process": DAEMON + (
        "import _multiprocessing as m\n"
        "def hold():\n    global sem\n"
        "    sem = m.SemLock(1, 1, 1, '/mp-t', False)\n    sem.acquire()\n"
        "if input() == '1':\n    daemon(hold, stop=True)\n"
        "else:\n    s = m.SemLock(1, 1, 1, '/mp-t', False)\n    print(s.acquire(False))\n"),
    "a listening socket": DAEMON + (
        "import socket\ndef listen():\n    global s\n"
        "    s = socket.socket(socket.AF_UNIX)\n    s.bind('/dev/shm/sock')\n    s.listen()\n"
        "if input() == '1':\n    daemon(listen)\n"
        "else:\n    c = socket.socket(socket.AF_UNIX)\n"
        "    print(c.connect_ex('/dev/shm/sock') == 0)\n"),
    "a locked folder and an xattr": (
        "import os\nif input() == '1':\n    os.makedirs('/dev/shm/a/b')\n"
        "    open('/dev/shm/a/b/f', 'w').write('1')\n"
        "    os.setxattr('/dev/shm/a', 'user.left', b'1')\n"
        "    os.chmod('/dev/shm/a/b', 0)\n    os.chmod('/dev/shm/a', 0o100)\n"
        "else:\n    print(os.path.exists('/dev/shm/a'))\n"),
    "every inode taken": (
        "import os\nif input() == '1':\n    i = 0\n    try:\n        while True:\n"
        "            open(f'/dev/shm/{i}', 'w').close()\n            i += 1\n"
        "    except OSError:\n        pass\n"
        "else:\n    import multiprocessing as mp\n    print(not mp.Lock().acquire(False))\n"),
    "a shared map kept by a stopped process": DAEMON + (
        "import mmap\ndef hold():\n    global m\n"
        "    fd = os.open('/dev/shm/m', os.O_CREAT | os.O_RDWR, 0o600)\n"
        "    os.ftruncate(fd, 64 << 20)\n    m = mmap.mmap(fd, 64 << 20)\n"
        "    m[::4096] = b'z' * (16 << 10)\n    os.unlink('/dev/shm/m')\n"
        "if input() == '1':\n    daemon(hold, stop=True)\n"
        "else:\n    v = os.statvfs('/dev/shm')\n    print(v.f_bfree == v.f_blocks)\n"),
    "a file's pages held only by an in-flight SCM_RIGHTS cycle": (
        "import os, socket, array\nif input() == '1':\n"
        "    fd = os.open('/dev/shm/p', os.O_CREAT | os.O_RDWR, 0o600)\n"
        "    os.write(fd, b'x' * (64 << 20))\n    os.unlink('/dev/shm/p')\n"
        "    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
        "    a.sendmsg([b'x'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,"
        " array.array('i', [b.fileno(), fd]))])\n"
        "    os._exit(0)\n"
        "else:\n    v = os.statvfs('/dev/shm')\n    print(v.f_bfree == v.f_blocks)\n"),
}


TEST_EXPECTED = {
    "a semaphore at zero held by a stopped process": "True\n",  # a fresh one: value 1
    "a listening socket": "False\n",  # no socket file: connect fails
    "a locked folder and an xattr": "False\n",
    "every inode taken": "False\n",  # a fresh Lock is made and acquired
    "a shared map kept by a stopped process": "True\n",  # every block free
    "a file's pages held only by an in-flight SCM_RIGHTS cycle": "True\n",
}
"""Test 2's output on a /dev/shm as the task gave it (empty, every block free)."""


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", sorted(TEST_LEFT))
def test_nothing_a_stdin_stdout_test_left_reaches_the_next(kind: str, mode: Mode) -> None:
    """Test 1 leaves state in /dev/shm (output empty: it passes); test 2 must not see it:
    its expected output is what a fresh /dev/shm gives."""
    expected = TEST_EXPECTED[kind]
    tests = [{"input": "1\n", "output": ""}, {"input": "2\n", "output": expected}]
    assert outcomes(TEST_LEFT[kind], tests, mode, limits=LIMITS) == [PASS, PASS]


# --- assert tests: cold = warm ----------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_an_assert_test_sees_dev_shm_as_tmp_and_as_the_other_mode(mode: Mode) -> None:
    """Assert tests share one program, as one script would: a later test finds an earlier
    test's file in /dev/shm as in /tmp, cold as warm."""
    code = "import os\ndef seen(d):\n    return os.path.exists(d + '/mark')\n"
    tests = ["open('/dev/shm/mark', 'w').close(); open('/tmp/mark', 'w').close()",
             "assert seen('/dev/shm') == seen('/tmp')",
             "assert seen('/dev/shm')"]
    assert outcomes(code, tests, mode, limits=LIMITS) == [PASS, PASS, PASS]


# --- honest multiprocessing: no false loss ----------------------------------------------------

HONEST = {
    "Queue and Process": (
        ("import multiprocessing as mp\ndef put(q):\n    q.put(sum(range(10)))\n"
        "def f():\n    q = mp.Queue()\n    p = mp.Process(target=put, args=(q,))\n"
        "    p.start()\n    got = q.get(timeout=5)\n    p.join()\n    return got\n"), "45"),
    "Event, Semaphore, Barrier, Condition": (
        ("import multiprocessing as mp\ndef f():\n    e = mp.Event(); e.set()\n"
        "    s = mp.BoundedSemaphore(2); s.acquire(); s.acquire()\n"
        "    b = mp.Barrier(1); b.wait()\n    c = mp.Condition()\n"
        "    with c:\n        c.notify_all()\n"
        "    return (e.is_set(), s.acquire(False))\n"), "(True, False)"),
    "Value and Array with locks": (
        ("import multiprocessing as mp\ndef add(v, a):\n    with v.get_lock():\n"
        "        v.value += 1\n    a[0] += 1\n"
        "def f():\n    v = mp.Value('i', 0)\n    a = mp.Array('i', 3)\n"
        "    ps = [mp.Process(target=add, args=(v, a)) for _ in range(3)]\n"
        "    [p.start() for p in ps]; [p.join() for p in ps]\n"
        "    return (v.value, a[0] <= 3)\n"), "(3, True)"),
    "ProcessPoolExecutor": (
        ("from concurrent.futures import ProcessPoolExecutor\ndef sq(x):\n    return x * x\n"
        "def f():\n    with ProcessPoolExecutor(2) as ex:\n"
        "        return list(ex.map(sq, range(5)))\n"), "[0, 1, 4, 9, 16]"),
    "JoinableQueue and SimpleQueue": (
        ("import multiprocessing as mp\ndef f():\n    q = mp.JoinableQueue()\n"
        "    q.put(1); x = q.get(); q.task_done(); q.join()\n"
        "    s = mp.SimpleQueue(); s.put(2)\n    return x + s.get()\n"), "3"),
    "ShareableList": (
        ("from multiprocessing import shared_memory\ndef f():\n"
        "    s = shared_memory.ShareableList([1, 'a', 2.5])\n    got = list(s)\n"
        "    s.shm.close(); s.shm.unlink()\n    return got\n"), "[1, 'a', 2.5]"),
    "a Pool in a with block, imap_unordered": (
        ("import multiprocessing as mp\ndef f():\n    with mp.Pool(2) as p:\n"
        "        return sorted(p.imap_unordered(abs, [-3, 1, -2]))\n"), "[1, 2, 3]"),
    "a Manager": (
        ("import multiprocessing as mp\ndef f():\n    with mp.Manager() as m:\n"
        "        d = m.dict(); d['k'] = 1\n        return dict(d)\n"), "{'k': 1}"),
}
GUARD = "if __name__ == '__main__':\n    print(repr(f()))\n"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_multiprocessing_plain(name: str, mode: Mode) -> None:
    code, expected = HONEST[name]
    assert ok_stdout(code + GUARD, mode, limits=LIMITS) == expected + "\n"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["Value and Array with locks", "Queue and Process"])
def test_honest_multiprocessing_as_assert_tests(name: str, mode: Mode) -> None:
    code, expected = HONEST[name]
    check = f"assert repr(f()) == {expected!r}, f()"
    assert outcomes(code, [check, check], mode, limits=LIMITS) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_honest_multiprocessing_as_stdin_stdout_tests(mode: Mode) -> None:
    code = ("import multiprocessing as mp\ndef sq(x):\n    return x * x\n"
            "if __name__ == '__main__':\n    n = int(input())\n"
            "    with mp.Pool(2) as p:\n        print(sum(p.map(sq, range(n))))\n")
    tests = [{"input": "3\n", "output": "5\n"}, {"input": "4\n", "output": "14\n"}]
    assert outcomes(code, tests, mode, limits=LIMITS) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_shared_memory_left_for_the_resource_tracker_is_still_ok(mode: Mode) -> None:
    """A segment never unlinked: the resource tracker unlinks it at exit (a warning on
    stderr); the run is ok with its output, cold as warm."""
    code = ("from multiprocessing import shared_memory\n"
            "s = shared_memory.SharedMemory(create=True, size=1 << 20)\n"
            "s.buf[:2] = b'hi'\nprint(bytes(s.buf[:2]))\n")
    ex = sandbox.run(code, limits=LIMITS, mode=mode)
    assert (ex.status, ex.stdout) == ("ok", "b'hi'\n"), ex


OWN = {
    "ProcessPoolExecutor.map of its own function": (
        ("from concurrent.futures import ProcessPoolExecutor\ndef sq(x):\n    return x * x\n"
        "def f():\n    with ProcessPoolExecutor(2) as ex:\n"
        "        return list(ex.map(sq, range(5)))\n"), "[0, 1, 4, 9, 16]"),
    "Pool.map of its own function": (
        ("import multiprocessing as mp\ndef sq(x):\n    return x * x\n"
        "def f():\n    with mp.Pool(2) as p:\n        return p.map(sq, range(5))\n"),
        "[0, 1, 4, 9, 16]"),
    "a Queue carrying its own class": (
        ("import multiprocessing as mp\nclass P:\n    def __init__(self, x):\n"
        "        self.x = x\n"
        "def f():\n    q = mp.Queue()\n    q.put(P(3))\n    return q.get(timeout=1).x\n"), "3"),
    "a pickle round trip of its own class": (
        ("import pickle\nclass P:\n    def __init__(self, x):\n        self.x = x\n"
        "def f():\n    return pickle.loads(pickle.dumps(P(4))).x\n"), "4"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(OWN))
def test_its_own_functions_and_classes_pickle_in_a_plain_run(name: str, mode: Mode) -> None:
    code, expected = OWN[name]
    assert ok_stdout(code + GUARD, mode, limits=LIMITS) == expected + "\n"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(OWN))
def test_its_own_functions_and_classes_pickle_in_an_assert_test(name: str, mode: Mode) -> None:
    code, expected = OWN[name]
    check = f"assert repr(f()) == {expected!r}"
    assert outcomes(code, [check], mode, limits=LIMITS) == [PASS]


@pytest.mark.parametrize("mode", MODES)
def test_five_thousand_values_at_once(mode: Mode) -> None:
    code = ("import multiprocessing as mp\nvs = [mp.Value('i', i) for i in range(5000)]\n"
            "print(sum(v.value for v in vs) == 4999 * 5000 // 2)\n")
    assert ok_stdout(code, mode, limits=LIMITS) == "True\n"


@pytest.mark.parametrize("mode", MODES)
def test_a_thousand_locks_at_once(mode: Mode) -> None:
    code = ("import multiprocessing as mp\nls = [mp.Lock() for _ in range(1000)]\n"
            "print(all(lock.acquire(False) for lock in ls))\n")
    assert ok_stdout(code, mode, limits=LIMITS) == "True\n"


# --- memory: what /dev/shm held is given back to the next test and run ---------------------

WRITE_250 = ("import os\nfd = os.open('/dev/shm/big', os.O_CREAT | os.O_WRONLY, 0o600)\n"
             "chunk = b'x' * (1 << 20)\nfor _ in range(250):\n    os.write(fd, chunk)\n")
TAKE_250 = "b = bytearray(250 << 20)\nb[::4096] = b'y' * len(b[::4096])\n"
BIG = dataclasses.replace(LIMITS, file_size_bytes=1 << 30)


@pytest.mark.parametrize("mode", MODES)
def test_pages_a_stdin_stdout_test_left_in_dev_shm_are_the_next_tests_again(mode: Mode) -> None:
    """Test 1 leaves 250 MiB in /dev/shm; test 2 allocates 250 MiB of 377: it passes only
    if the first test's pages were given back (the memory cgroup charges tmpfs pages)."""
    code = ("import os\nif input() == '1':\n" + "".join("    " + line + "\n" for line in
            WRITE_250.splitlines()) + "else:\n" + "".join(
            "    " + line + "\n" for line in TAKE_250.splitlines()) + "print('ok')\n")
    tests = [{"input": "1\n", "output": "ok\n"}, {"input": "2\n", "output": "ok\n"}]
    assert outcomes(code, tests, mode, limits=BIG) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_pages_a_run_left_in_dev_shm_are_the_next_runs_again(mode: Mode) -> None:
    left = sandbox.run(WRITE_250 + "print('left')\n", limits=BIG, mode=mode)
    assert (left.status, left.stdout) == ("ok", "left\n"), left
    assert ok_stdout(TAKE_250 + "print('ok')\n", mode, limits=BIG) == "ok\n"


@pytest.mark.parametrize("mode", MODES)
def test_pages_an_assert_test_left_count_for_the_later_tests_of_its_run(mode: Mode) -> None:
    """Assert tests share one program (as one script): 250 MiB an earlier test left in
    /dev/shm still count, so a later test that allocates 250 MiB more meets the limit,
    cold as warm; the next run then has it all again."""
    code = WRITE_250.replace("\nchunk", "\ndef w():\n    chunk").replace(
        "\nfor _", "\n    for _").replace("\n    os.write", "\n        os.write")
    code = code.replace("fd = os.open", "def w():\n    fd = os.open", 1).replace(
        "def w():\n    chunk", "    chunk")
    code += "def t():\n" + "".join("    " + line + "\n" for line in TAKE_250.splitlines())
    code += "    return True\n"
    report = sandbox.run_tests(code, ["w()", "assert t()"], limits=BIG, mode=mode)
    got = [(r.outcome, r.message, r.ran) for r in report.results]
    assert (report.status, got) == ("memory_limit", [PASS, DIED]), report
    assert ok_stdout(TAKE_250 + "print('ok')\n", mode, limits=BIG) == "ok\n"


# --- resources --------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_dev_shm_is_no_larger_than_memory_whatever_disk_says(mode: Mode) -> None:
    """disk_bytes large, memory small: /dev/shm's size follows memory_bytes."""
    limits = dataclasses.replace(LIMITS, memory_bytes=(256 << 20) + (122 << 20),
                                 disk_bytes=1 << 30)
    out = ok_stdout("import os\nv = os.statvfs('/dev/shm')\nprint(v.f_blocks * v.f_frsize)\n",
                    mode, limits=limits)
    assert int(out) <= limits.memory_bytes


@pytest.mark.parametrize("mode", MODES)
def test_a_sparse_file_past_the_size_is_refused_on_write(mode: Mode) -> None:
    """ftruncate to 8 GiB is allowed (sparse); touching its pages past the size fails
    (SIGBUS on a map: a runtime error, the next run fresh)."""
    code = ("import os, mmap\nfd = os.open('/dev/shm/s', os.O_CREAT | os.O_RDWR, 0o600)\n"
            "os.ftruncate(fd, 8 << 30)\nm = mmap.mmap(fd, 8 << 30)\n"
            "for i in range(0, 8 << 30, 4096):\n    m[i] = 1\nprint('wrote all')\n")
    honest = fresh(mode)
    limits = dataclasses.replace(LIMITS, file_size_bytes=16 << 30)
    ex = sandbox.run(code, limits=limits, mode=mode)
    assert ex.status in ("runtime_error", "memory_limit"), ex
    assert "wrote all" not in ex.stdout
    assert ok_stdout(LISTING, mode, limits=LIMITS) == honest


def test_a_file_in_a_session_carries_over_and_a_reset_empties_it() -> None:
    limits = dataclasses.replace(LIMITS, wall_s=3.0, cpu_s=3.0)
    with sandbox.open_session(limits=limits) as s:
        assert s.run("open('/dev/shm/n', 'w').write('kept')\n").status == "ok"
        assert s.run("print(open('/dev/shm/n').read())\n").stdout == "kept\n"
        s.run("import os\nos._exit(3)\n")
        out = s.run("import os\nprint(os.listdir('/dev/shm'))\n")
        assert out.stdout == "[]\n", out


def test_a_session_semaphore_carries_over_a_call() -> None:
    limits = dataclasses.replace(LIMITS, wall_s=3.0, cpu_s=3.0)
    with sandbox.open_session(limits=limits) as s:
        assert s.run("import multiprocessing as mp\nlock = mp.Lock()\n"
                     "print(lock.acquire(False))\n").stdout == "True\n"
        assert s.run("print(lock.acquire(False))\n").stdout == "False\n"


def test_a_session_reset_after_a_timeout_frees_dev_shm() -> None:
    limits = dataclasses.replace(LIMITS, wall_s=2.0, cpu_s=2.0)
    with sandbox.open_session(limits=limits) as s:
        s.run("import os\nfd = os.open('/dev/shm/big', os.O_CREAT | os.O_WRONLY)\n"
              "os.write(fd, b'x' * (64 << 20))\nimport time\ntime.sleep(30)\n")
        out = s.run("import os\nv = os.statvfs('/dev/shm')\n"
                    "print(os.listdir('/dev/shm'), v.f_bfree == v.f_blocks)\n")
        assert out.stdout == "[] True\n", out


@pytest.mark.parametrize("mode", MODES)
def test_jails_running_side_by_side_see_their_own_dev_shm(mode: Mode) -> None:
    """Two runs at once (`run_many`): what one holds in /dev/shm the other never sees."""
    writer = ("import os, time\nopen('/dev/shm/side', 'w').write('w')\n"
              "os.symlink('/dev/shm/side', '/dev/shm/link')\ntime.sleep(1.5)\n"
              "print(sorted(os.listdir('/dev/shm')))\n")
    reader = ("import os, time\ntime.sleep(0.7)\n"
              "print(sorted(os.listdir('/dev/shm')), os.path.exists('/dev/shm/side'))\n")
    got = sandbox.run_many([{"code": writer, "limits": LIMITS, "mode": mode},
                            {"code": reader, "limits": LIMITS, "mode": mode}], max_workers=2)
    assert [(ex.status, ex.stdout) for ex in got] == [
        ("ok", "['link', 'side']\n"), ("ok", "[] False\n")], got


def test_a_sessions_siblings_replay_dev_shm_and_keep_their_own() -> None:
    """A fork's siblings hold the parent's /dev/shm as its cells made it (replayed), and
    what a sibling then writes there is its own."""
    limits = dataclasses.replace(LIMITS, wall_s=3.0, cpu_s=3.0)
    with sandbox.open_session(limits=limits) as s:
        assert s.run("open('/dev/shm/p', 'w').write('parent')\n").status == "ok"
        (sibling,) = s.fork(1)
        with sibling:
            assert sibling.run("import os\nopen('/dev/shm/s', 'w').write('sib')\n"
                               "print(sorted(os.listdir('/dev/shm')))\n").stdout == \
                "['p', 's']\n"
        assert s.run("import os\nprint(sorted(os.listdir('/dev/shm')))\n").stdout == \
            "['p']\n"


# --- the reaping clock --------------------------------------------------------------------------

REAP = {
    "a zombie flood of its own children": (
        ("import os\nn = 0\nfor _ in range(200):\n    try:\n        pid = os.fork()\n"
        "    except OSError:\n        break\n    if pid == 0:\n        os._exit(0)\n"
        "    n += 1\nprint(n > 0)\n"), "True\n"),
    "orphans that stop themselves": (
        ("import os, signal\nfor _ in range(5):\n    if os.fork() == 0:\n"
        "        if os.fork() == 0:\n            os.kill(os.getpid(), signal.SIGSTOP)\n"
        "            os._exit(0)\n        os._exit(0)\n    os.wait()\nprint('done')\n"), "done\n"),
    "orphans that stop the program then exit": (
        ("import os, signal, time\nme = os.getpid()\n"
        "if os.fork() == 0:\n    if os.fork() == 0:\n        time.sleep(0.1)\n"
        "        os.kill(me, signal.SIGCONT)\n        os._exit(0)\n    os._exit(0)\n"
        "os.wait()\nfor _ in range(50):\n    print('x' * 100, flush=True)\nprint('end')\n"),
        "x" * 100 + "\n" + ("x" * 100 + "\n") * 49 + "end\n"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", sorted(REAP))
def test_the_reaping_clock_leaves_the_program_its_verdict(kind: str, mode: Mode) -> None:
    code, expected = REAP[kind]
    assert ok_stdout(code, mode, limits=LIMITS) == expected


@pytest.mark.parametrize("mode", MODES)
def test_a_program_that_stops_itself_for_good_is_a_timeout(mode: Mode) -> None:
    limits = dataclasses.replace(LIMITS, wall_s=1.5)
    code = "import os, signal\nprint('a', flush=True)\nos.kill(os.getpid(), signal.SIGSTOP)\n"
    ex = sandbox.run(code, limits=limits, mode=mode)
    assert (ex.status, ex.stdout) == ("timeout", "a\n"), ex


@pytest.mark.parametrize("mode", MODES)
def test_zombies_and_stopped_orphans_of_a_stdin_stdout_test_spare_the_next(mode: Mode) -> None:
    code = ("import os, signal\nn = int(input())\nif n == 1:\n    for _ in range(6):\n"
            "        if os.fork() == 0:\n            if os.fork() == 0:\n"
            "                os.kill(os.getpid(), signal.SIGSTOP)\n            os._exit(0)\n"
            "    for _ in range(4):\n        if os.fork() == 0:\n            os._exit(0)\n"
            "print(n * 2)\n")
    tests = [{"input": "1\n", "output": "2\n"}, {"input": "2\n", "output": "4\n"}]
    assert outcomes(code, tests, mode, limits=LIMITS) == [PASS, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_the_reaper_never_takes_the_programs_own_child(mode: Mode) -> None:
    """The program's child, waited for long after it exited, gives the program its status."""
    code = ("import os, time\npid = os.fork()\nif pid == 0:\n    os._exit(7)\n"
            "time.sleep(0.6)\nprint(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n")
    assert ok_stdout(code, mode, limits=LIMITS) == "7\n"


@pytest.mark.parametrize("mode", MODES)
def test_the_reaper_never_takes_a_childs_child_waited_by_the_child(mode: Mode) -> None:
    code = ("import os, time\nr, w = os.pipe()\npid = os.fork()\nif pid == 0:\n"
            "    g = os.fork()\n    if g == 0:\n        os._exit(5)\n    time.sleep(0.6)\n"
            "    os.write(w, bytes([os.waitstatus_to_exitcode(os.waitpid(g, 0)[1])]))\n"
            "    os._exit(0)\nos.waitpid(pid, 0)\nprint(os.read(r, 1)[0])\n")
    assert ok_stdout(code, mode, limits=LIMITS) == "5\n"


@pytest.mark.parametrize("mode", MODES)
def test_orphans_in_assert_tests_keep_each_tests_verdict(mode: Mode) -> None:
    code = ("import os, time\ndef f(x):\n    if os.fork() == 0:\n"
            "        if os.fork() == 0:\n            time.sleep(0.2)\n            os._exit(0)\n"
            "        os._exit(0)\n    os.wait()\n    return x + 1\n")
    tests = ["assert f(1) == 2", "assert f(2) == 4", "assert f(3) == 4"]
    got = outcomes(code, tests, mode, limits=LIMITS)
    assert [g[0] for g in got] == ["pass", "fail", "pass"], got


@pytest.mark.parametrize("mode", MODES)
def test_workers_that_die_among_orphans_get_the_same_outcomes_cold_and_warm(mode: Mode) -> None:
    """Workers that exit or are killed while their orphans exit around them (reaped on the
    clock while the server forks replacements): each test's outcome is its own."""
    code = ("import os, signal, time\ndef orphans():\n    for _ in range(3):\n"
            "        if os.fork() == 0:\n            if os.fork() == 0:\n"
            "                time.sleep(0.06)\n                os._exit(9)\n"
            "            os._exit(0)\n        os.wait()\n"
            "def f(k):\n    orphans()\n    time.sleep(0.1)\n"
            "    if k == 1:\n        os._exit(0)\n"
            "    if k == 2:\n        os.kill(os.getpid(), signal.SIGKILL)\n    return k\n")
    tests = ["assert f(0) == 0", "assert f(1) == 1", "assert f(3) == 3", "assert f(2) == 2",
             "assert f(4) == 5", "assert f(5) == 5"]
    got = outcomes(code, tests, mode, limits=LIMITS)
    assert [g[0] for g in got] == ["pass", "error", "pass", "error", "fail", "pass"], got
    assert got[1] == DIED, got
