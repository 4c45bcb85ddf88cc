"""Red team (rt23) of merges 5da92e1 (h-sb11, import zygotes, on only with
`SANDBOX_IMPORT_ZYGOTES=1`) and 63118f4 (h-sb12, a stdin/stdout test ends with its process:
`harness_io.run_case`, `end_processes`, `fresh_state`/`restore`), issue #38.

The rule under attack: nothing a program does changes another run's (or another test's)
verdict, warm equals cold, and both equal `python3 main.py` alone in a fresh jail.

What and how. (A) Import zygotes, switched on per test (`zygotes` fixture: fresh warm
servers, the environment put back after): the key (`_first_import.first_imports`) against
what the jail compiles (PEP 263 cookies, a BOM, `\\r` lines, `from __future__`, `as` forms,
docstrings that run code); what a zygote-served program observes against the server-served
first run of the same program and against cold (parent, `kill(-1, 0)`, frames below it,
recursion depth, id order, live objects, gc, refcounts, warnings, linecache, typing's
caches, signals, streams, environment, capabilities); attacks on the zygote through its pid
(every signal path, ptrace, process_vm_readv, pidfd_getfd, prlimit, priority, affinity) and
through what the zygote's modules hold (`re.purge`, typing mutated, decimal's context),
each followed by a run of another program from the same zygote; verdict accounting through
the zygote (exit codes, signals, CPU and wall timeouts, a memory hog and a fork bomb in a
child, output floods). (B) stdin/stdout tests: three tests of one program, each printing
the state it found then changing it; every test must read what python3 main.py reads in a
fresh jail with the same files: files under an input folder, modes of input folders,
extended attributes of /work and /tmp, deep trees, trees whose path passes PATH_MAX, many
files, fifos, sockets, symlinks, hard links, SysV IPC, POSIX queues, keyrings, /dev/shm;
processes that survive a test (double fork and setsid, a process that kills the killer).

Open holes when written, by root, and where they stand:
- `_first_import.first_imports` ignored a PEP 263 cookie the jail's compile obeys (`# coding:
  utf-7`), and `harness_program.as_cold` left a cookie's codec (latin-1) in the codec cache:
  closed by h-sb13 (a program whose cookie is not utf-8 is never keyed, and runs cold).
- `warm_server.zygote_main`/`ImportZygote`: a zygote-served program was 2 frames shallower
  (so its status depended on an earlier run making its zygote) and saw the zygote's tracked
  objects: closed by h-sb13 (with zygotes on the server's child starts from run.py's top
  level too). Still open: its parent is the zygote (pid 7, not 1), `kill(-1, 0)` reaches the
  zygote, and the zygote's heap sets the id order of new objects.
- `harness_io.restore` compared only the top level of /work and /tmp and swallowed its own
  failures; `harness_io.end_processes` (warm) used a killer a survivor could kill or stop:
  closed by h-sb14 (the whole tree recorded and put back by dir fds, failing closed; the kill
  by pidfd from the harness's own uid). An input folder's mode (warm 0o41777, cold
  0o40755, the program's own) stayed open until the cold harness took a uid of its own and
  opens them as the cold init does (`harness.apart`): 0o41777 in every mode.
- `warm_server.write_inputs` (not this round's code): a warm input is a file of /work's own
  tmpfs, a cold one a bind: a hard link to it fails with EPERM warm, EXDEV cold (with
  every other way to change an input: tests/sandbox/test_inputs_and_removal.py, h-sb20).

Held: the key's other forms (BOM, `\r`, `from __future__`, `as`, an f-string first, files
present), what a zygote-served program sees of modules, finders, refcounts, warnings,
linecache, caches, signals, streams, uids, capabilities; every attack on the zygote's pid;
module state a program changes; verdicts through the zygote; a zygote-served assert
worker and its replacement; fifos, sockets, symlinks, mode-0 folders, many files, SysV IPC,
queues, keyrings, an abstract socket and a process that outlive their test.
"""

from __future__ import annotations

import dataclasses

import pytest
from test_redteam_round_sb5 import LIMITS

import sandbox
from sandbox import _warm

pytestmark = pytest.mark.usefixtures("sandbox_ready")


def seen(ex: sandbox.Execution) -> tuple[object, ...]:
    return ex.status, ex.exit_code, ex.signal, ex.stdout, ex.stderr


def xfails(names: list[str], open_: dict[str, str]) -> list[object]:
    return [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=f"open: {open_[n]}"))
        if n in open_
        else n
        for n in names
    ]


def served(code: str, runs: int = 3) -> list[sandbox.Execution]:
    """`code` warm `runs` times on a fresh server: the first is the server's own child
    (it makes the zygote of its first import), the others the zygote's."""
    return [sandbox.run(code, limits=LIMITS, mode="warm") for _ in range(runs)]


# --- A1. the key against what the jail compiles ----------------------------------------------

HIDDEN_UTF7 = (
    "# coding: utf-7\n#+AAo-import sys+ADs- print('typing' in sys.modules)\n"
    "import typing\nprint('done')\n"
)

KEYED = {
    "a utf-7 cookie hiding code before the first import": HIDDEN_UTF7,
    "a BOM": "\ufeffimport typing\nimport sys\nprint([n for n in sys.modules if n in ('typing', "
    "'re')])\n",
    "a latin-1 cookie": "# -*- coding: latin-1 -*-\nimport typing\nimport sys\n"
    "print('encodings.latin_1' in sys.modules, len(sys.modules))\n",
    "from __future__ first": "from __future__ import annotations\nimport typing\nimport sys\n"
    "print(list(sys.modules)[-3:])\n",
    "import as": "import typing as t\nimport sys\nprint('typing' in dir(), 't' in dir(), "
    "list(sys.modules)[-3:])\n",
    "carriage returns only": "import typing\rimport sys\rprint(list(sys.modules)[-2:])\r",
    "an f-string first (runs code)": 'f\'{__import__("sys").modules.get("typing")}\'\n'
    "import typing\nimport sys\nprint('typing' in sys.modules)\n",
    "a compiler warning": "import typing\nx = 1\nprint(x is 1)\n",
    "the modules, path and finders": (
        "from typing import List\nimport sys\nprint(list(sys.modules), sys.path, "
        "[type(f).__name__ for f in sys.meta_path], sorted(sys.path_importer_cache))\n"
    ),
    "fractions and decimal": (
        "from fractions import Fraction\nimport decimal, sys\n"
        "print(Fraction(1, 3) + 1, decimal.getcontext(), "
        "list(sys.modules)[-8:])\n"
    ),
    "the environment and folder": "import dataclasses\nimport os\nprint(sorted(os.environ.items()),"
    " os.getcwd(), sorted(os.listdir('/work')))\n",
}

OPEN_KEYED: dict[str, str] = {}


@pytest.mark.parametrize("name", xfails(sorted(KEYED), OPEN_KEYED))
def test_a_zygote_served_program_reads_as_python3(name: str, zygotes: None) -> None:
    code = KEYED[name]
    cold = sandbox.run(code, limits=LIMITS, mode="cold")
    assert cold.status == "ok", cold
    for run in served(code):
        assert seen(run) == seen(cold)


def test_a_run_with_files_is_never_served_by_a_zygote(zygotes: None) -> None:
    """/work is sys.path[0]: a task's typing.py, or re.py (typing imports re: cold, the
    import of typing fails on it), is the program's own; a zygote that imported the
    standard ones (made by a run without files just before) must not serve it."""
    code = "import typing\nimport os\nprint(getattr(typing, 'X', None), os.getppid() > 1)\n"
    made = served(code, 2)
    assert [r.stdout for r in made] == ["None False\n", "None True\n"], made
    for name, content in [("typing.py", "X = 1\n"), ("re.py", "X = 2\n")]:
        files = {name: content}
        cold = sandbox.run(code, files=files, limits=LIMITS, mode="cold")
        assert cold.status == ("ok" if name == "typing.py" else "runtime_error"), cold
        warm = [sandbox.run(code, files=files, limits=LIMITS, mode="warm") for _ in range(2)]
        want = cold.status, cold.exit_code, cold.stdout.replace("False", "False")
        assert [(r.status, r.exit_code, r.stdout) for r in warm] == [want] * 2


# --- A2. what a zygote-served program observes, against the server's child ------------------

VIEWS = {
    "its parent": "import typing\nimport os\nprint(os.getppid())\n",
    "what kill(-1, 0) reaches": (
        "import typing\nimport os\ntry:\n    os.kill(-1, 0)\n"
        "    print('reached')\nexcept OSError as e:\n    print(e.errno)\n"
    ),
    "the frames below it": (
        "import typing\nimport sys\nn = 0\nf = sys._getframe()\n"
        "while f.f_back:\n    f = f.f_back\n    n += 1\nprint(n)\n"
    ),
    "the deepest recursion": (
        "import typing\ndef f(n):\n    try:\n        return f(n + 1)\n"
        "    except RecursionError:\n        return n\nprint(f(0))\n"
    ),
    "id order of new objects": "import typing\na = object()\nb = object()\nprint(id(a) < id(b))\n",
    "live objects after a collection": "import typing\nimport gc\ngc.collect()\n"
    "print(len(gc.get_objects()))\n",
    "objects of the harness's types": (
        "import typing\nimport gc, sys\nprint(sorted({type(o).__name__ for o in gc.get_objects()"
        " if type(o).__module__ in ('resource', 'posix', '_socket', 'socket', 'marshal')}),"
        " sum(type(o).__name__ == 'frame' for o in gc.get_objects()), sys.exc_info())\n"
    ),
    "refcounts of typing's objects": (
        "import typing\nimport sys\nprint(sys.getrefcount(typing),"
        " sys.getrefcount(typing.List),"
        " sys.getrefcount(typing.Generic))\n"
    ),
    "warnings and linecache": (
        "import typing\nimport sys\nw = sys.modules.get('warnings')\nprint(w and (w.filters, "
        "w.onceregistry, w.defaultaction), sorted(sys.modules['linecache']"
        ".cache) if 'linecache' in sys.modules else None)\n"
    ),
    "typing's caches": (
        "import typing\nprint([f.__self__.cache_info() if hasattr(f, '__self__') and hasattr(f.__self__, 'cache_info') else f.__qualname__ for f in typing._cleanups])\n"
    ),
    "the re cache": "import re\nprint(len(re._cache), list(re._cache)[:3])\n",
    "signals and mask": (
        "import typing\nimport signal\nprint([(int(s), str(signal.getsignal(s))) for s in "
        "sorted(signal.valid_signals()) if s not in (9, 19)], "
        "sorted(map(int, signal.pthread_sigmask(signal.SIG_BLOCK, []))))\n"
    ),
    "standard streams": (
        "import typing\nimport sys\nprint([(s.encoding, s.errors, s.line_buffering, s.fileno(),"
        " type(s.buffer).__name__) for s in (sys.stdin, sys.stdout, sys.stderr)],"
        " sys.stdin is sys.__stdin__)\n"
    ),
    "uids, groups, session, umask": (
        "import typing\nimport os\nprint(os.getresuid(), os.getresgid(), os.getgroups(),"
        " os.getpgrp() == os.getpid(), os.getsid(0) == os.getpid(), oct(os.umask(0)))\n"
    ),
    "capabilities and prctl": (
        "import typing\nimport ctypes\nlibc = ctypes.CDLL(None)\n"
        "hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)\ndata = (ctypes.c_uint32 * 6)()\n"
        "libc.capget(hdr, data)\nprint(list(data), [libc.prctl(23, c, 0, 0, 0) for c in "
        "range(41)], libc.prctl(3, 0, 0, 0, 0), libc.prctl(1, 0, 0, 0, 0))\n"
    ),
    "children's times": (
        "import typing\nimport os, resource\nprint(os.times()[2:4], "
        "resource.getrusage(resource.RUSAGE_CHILDREN)[:2])\n"
    ),
}

OPEN_VIEWS = {
    "its parent": (
        "warm/warm (zygote as parent): warm_server.zygote_main forks the run: os.getppid() "
        "is the zygote's pid (7), the server's child reads 1 (python3 0). Left open: a "
        "reparented child (double fork) would read 1, but a zygote-served program still "
        "finds the zygote by kill(-1, 0) or a kill(pid, 0) scan (below), and this file's "
        "other tests use getppid() > 1 to tell a zygote's child"
    ),
    "what kill(-1, 0) reaches": (
        "warm/cold (zygote as a process): warm_server.ImportZygote is a process of the "
        "program's pid namespace, and kill(-1) counts every process but pid 1 and the "
        "caller as found, whatever its uid (EPERM counts): 0 where the server's child and "
        "python3 get ESRCH (3). Not equal unless the zygote leaves the program's pid "
        "namespace"
    ),
    "id order of new objects": (
        "warm/warm (zygote heap): warm_server.zygote_main's allocator state (its own free "
        "lists and arenas after the import), not the server's or python3's: two new "
        "objects' ids run the other way (False; True otherwise). Not built equal: the "
        "server's child has the server's heap, python3 a fresh one, neither reproducible"
    ),
}


@pytest.mark.parametrize("name", xfails(sorted(VIEWS), OPEN_VIEWS))
def test_a_zygote_served_run_reads_as_the_servers_own_child(name: str, zygotes: None) -> None:
    """The first run is the server's child, the next ones the zygote's: the same output."""
    first, *later = served(VIEWS[name])
    assert first.status == "ok", first
    assert [seen(run) for run in later] == [seen(first)] * len(later)


DEEP = (
    "import typing\ndef count(n):\n    return 0 if n == 0 else 1 + count(n - 1)\nprint(count({}))\n"
)


def test_a_programs_status_does_not_depend_on_an_earlier_run_making_its_zygote(
    zygotes: None,
) -> None:
    reach = sandbox.run(VIEWS["the deepest recursion"], limits=LIMITS, mode="warm")
    depth = int(reach.stdout)  # the server's child: this run made the zygote
    _warm.shutdown()  # a fresh server: no zygote yet
    code = DEEP.format(depth + 1)
    runs = served(code)
    assert [r.status for r in runs] == [runs[0].status] * 3, [seen(r) for r in runs]


# --- A3. attacks on the zygote through its pid, then another program from it ---------------

ATTACKS = {
    "SIGKILL": "os.kill(ppid, 9)",
    "SIGSTOP": "os.kill(ppid, 19)",
    "SIGCONT": "os.kill(ppid, 18)",
    "its group": "os.killpg(os.getpgid(ppid), 19)",
    "pidfd_send_signal": "signal.pidfd_send_signal(os.pidfd_open(ppid), 9)",
    "pidfd_getfd": "err(libc.syscall(438, os.pidfd_open(ppid), 3, 0))",
    "ptrace attach": "err(libc.ptrace(16, ppid, 0, 0))",
    "ptrace seize": "err(libc.ptrace(0x4206, ppid, 0, 0))",
    "process_vm_writev": "err(libc.syscall(311, ppid, 0, 0, 0, 0, 0))",
    "prlimit": "resource.prlimit(ppid, resource.RLIMIT_NPROC, (0, 0))",
    "priority": "os.setpriority(os.PRIO_PROCESS, ppid, 19)",
    "user priority": "os.setpriority(os.PRIO_USER, 0, 19) or os.setpriority(os.PRIO_PGRP, "
    "os.getpgid(ppid), 19)",
    "affinity": "os.sched_setaffinity(ppid, {0})",
    "scheduler": "os.sched_setscheduler(ppid, os.SCHED_IDLE, os.sched_param(0))",
    "ioprio": "err(libc.syscall(251, 1, ppid, (3 << 13)))",
    "its /proc": "open(f'/proc/{ppid}/mem', 'rb')",
}

ATTACK = (
    "import typing\nimport os, signal, resource, ctypes\n"
    "libc = ctypes.CDLL(None, use_errno=True)\nppid = os.getppid()\n"
    "def err(r):\n    if r < 0:\n        raise OSError(ctypes.get_errno(), 'refused')\n"
    "try:\n    {}\n    print('done')\nexcept OSError as e:\n    print(e.errno)\n"
    "try:\n    os.kill(-1, 9)\nexcept OSError:\n    pass\n"
)

AFTER = (
    "import typing\nimport os, sys\nprint(os.getppid() > 1, hasattr(typing, 'mark'), "
    "len(sys.modules))\n"
)


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_an_attack_on_the_zygote_leaves_it_serving_the_next_program(
    name: str, zygotes: None
) -> None:
    # ENOENT (no /proc); the zygote's group is 1, so killpg(1) is kill(-1): its own only;
    # else EPERM
    expected = {"its /proc": "2\n", "its group": "done\n"}.get(name, "1\n")
    before = served(AFTER, 2)[1]
    assert (before.status, before.stdout.split()[:2]) == ("ok", ["True", "False"]), before
    for _ in range(2):
        hit = sandbox.run(ATTACK.replace("{}", ATTACKS[name]), limits=LIMITS, mode="warm")
        assert (hit.status, hit.stdout) == ("ok", expected), hit
        after = sandbox.run(AFTER, limits=LIMITS, mode="warm")
        assert seen(after) == seen(before)


CHANGES = {
    "re.purge and a smaller cache": "import re\nprint(len(re._cache))\nre.compile('a+b')\n"
    "re._MAXCACHE = 1\nre.purge()\n",
    "typing mutated": "import typing\nprint(hasattr(typing, 'zz'), typing.List[int])\n"
    "typing.zz = 1\nimport sys\nsys.modules['typing'].List = None\n",
    "decimal's context": "import decimal\nprint(decimal.getcontext().prec)\n"
    "decimal.getcontext().prec = 3\n",
    "gc frozen and disabled": "import typing\nimport gc\nprint(gc.isenabled())\ngc.freeze()\n"
    "gc.disable()\ngc.set_threshold(1)\n",
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_what_a_program_changes_in_its_zygotes_modules_is_its_own(name: str, zygotes: None) -> None:
    code = CHANGES[name]
    cold = sandbox.run(code, limits=LIMITS, mode="cold")
    assert cold.status == "ok", cold
    assert [seen(r) for r in served(code, 4)] == [seen(cold)] * 4


# --- A4. verdicts through the zygote --------------------------------------------------------

VERDICTS = {
    "exit code of a child's kill": (
        "import os, signal\npid = os.fork()\nif pid == 0:\n"
        "    signal.pause()\nos.kill(pid, 9)\n"
        "print(os.waitpid(pid, 0)[1])\n"
    ),
    "a fork bomb": (
        "import os\nn = 0\ntry:\n    while True:\n        if os.fork() == 0:\n"
        "            os.read(os.open('/dev/null', 0), 1)\n            import time\n"
        "            time.sleep(60)\n        n += 1\nexcept OSError as e:\n"
        "    print(e.errno, n)\n"
    ),
    "a CPU hog in a child": (
        "import os\nif os.fork() == 0:\n    while True:\n        pass\nos.wait()\n"
    ),
    "a CPU hog in an orphan": "import os\nif os.fork() == 0:\n    while True:\n        pass\n",
    "a memory hog in a child": (
        "import os\npid = os.fork()\nif pid == 0:\n"
        "    x = bytearray(1 << 40)\n    os._exit(0)\n"
        "print(os.waitpid(pid, 0)[1] != 0)\n"
    ),
    "a memory hog": "x = bytearray(400 << 20)\nprint(len(x))\n",
    "a wall timeout": "import time\ntime.sleep(30)\n",
    "an output flood": "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n",
    "SIGXCPU ignored": (
        "import signal\nsignal.signal(signal.SIGXCPU, signal.SIG_IGN)\nwhile True:\n    pass\n"
    ),
    "exit code 300": "import sys\nsys.exit(300)\n",
}


WALL_S = {"a CPU hog in a child": 30.0}
"""Where the verdict is the CPU limit's (the child dies at 1 s of CPU and its parent ends
ok), a wall limit no loaded machine reaches first: at load 8-10 on 2 cores a 1 s spin took
over 3 s of wall time and read as the run's timeout (machine speed, not the verdict)."""


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_a_zygote_served_verdict_is_the_servers_own_childs(name: str, zygotes: None) -> None:
    """The first run is the server's child, the next two the zygote's: the same verdict,
    and the same status as cold."""
    code = "from typing import List\n" + VERDICTS[name]
    limits = dataclasses.replace(LIMITS, cpu_s=1.0, wall_s=WALL_S.get(name, 3.0))
    cold = sandbox.run(code, limits=limits, mode="cold")
    first, *later = (sandbox.run(code, limits=limits, mode="warm") for _ in range(3))
    want = (first.status, first.exit_code, first.signal, first.stdout[:64])
    assert first.status == cold.status, (first, cold)
    assert [(r.status, r.exit_code, r.signal, r.stdout[:64]) for r in later] == [want] * 2


# --- B. stdin/stdout tests: each test starts as python3 main.py in a fresh jail -------------

STATE = {
    "a file made in an input folder": (
        "import os\nprint(sorted(os.listdir('/work/data')))\n"
        "open('/work/data/new', 'w').write('1')\n"
    ),
    "an input folder's mode": (
        "import os\nprint(oct(os.stat('/work/data').st_mode))\ntry:\n"
        "    os.chmod('/work/data', 0)\nexcept OSError:\n    pass\n"
    ),
    "extended attributes of /work and /tmp": (
        "import os\nfor p in ('/work', '/tmp'):\n    print(p, os.listxattr(p))\n"
        "    try:\n        os.setxattr(p, 'user.x', b'1')\n    except OSError:\n        pass\n"
    ),
    "a tree whose path passes PATH_MAX": (
        "import os\nprint(sorted(os.listdir('/work')), sorted(os.listdir('/tmp')))\n"
        "os.mkdir('/tmp/d')\nos.chdir('/tmp/d')\nfor i in range(20):\n"
        "    os.mkdir('x' * 250)\n    os.chdir('x' * 250)\nopen('/tmp/z', 'w').close()\n"
    ),
    "a tree deeper than the recursion limit": (
        "import os\nprint(sorted(os.listdir('/work')))\nos.mkdir('/work/d')\n"
        "os.chdir('/work/d')\nfor i in range(1500):\n    os.mkdir('x')\n    os.chdir('x')\n"
    ),
    "a folder of mode 0 holding files": (
        "import os\nprint(sorted(os.listdir('/tmp')))\nos.makedirs('/tmp/a/b')\n"
        "open('/tmp/a/b/f', 'w').close()\nos.chmod('/tmp/a/b', 0)\nos.chmod('/tmp/a', 0)\n"
    ),
    "many files": (
        "import os\nprint(len(os.listdir('/tmp')))\nfor i in range(3000):\n"
        "    open(f'/tmp/{i}', 'w').close()\n"
    ),
    "fifos, sockets, symlinks": (
        "import os, socket\nprint(sorted(os.listdir('/work')))\nos.mkfifo('/work/f')\n"
        "socket.socket(socket.AF_UNIX).bind('/work/s')\nos.symlink('/harness', '/work/l')\n"
        "os.symlink('/work/l', '/tmp/l')\n"
    ),
    "a hard link to an input": (
        "import os\nprint(sorted(os.listdir('/work')))\ntry:\n"
        "    os.link('/work/data/in.txt', '/work/h')\nexcept OSError as e:\n    print(e.errno)\n"
    ),
    "SysV IPC, POSIX queues, keyrings": (
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "print(libc.shmget(1234, 4096, 0), libc.msgget(1234, 0), libc.semget(1234, 1, 0),"
        " libc.mq_open(b'/q', 2, 0o666, None) >= 0,"
        " libc.syscall(250, 2, 0, b'user', b'k', -4) >= 0)\n"
        "libc.shmget(1234, 4096, 0o1666)\nlibc.msgget(1234, 0o1666)\n"
        "libc.semget(1234, 1, 0o1666)\nlibc.mq_open(b'/q', 0o102, 0o666, None)\n"
        "libc.syscall(248, b'user', b'k', b'v', 1, -4)\n"
    ),
    "an abstract socket a survivor holds": (
        "import os, socket, time\ns = socket.socket(socket.AF_UNIX)\ntry:\n"
        "    s.bind('\\0rt23')\n    print('free')\nexcept OSError as e:\n    print(e.errno)\n"
        "if os.fork() == 0:\n    time.sleep(3)\n    os._exit(0)\n"
    ),
    "a process that outlives its test": (
        "import os, sys\nprint(sorted(os.listdir('/tmp')))\nsys.stdout.flush()\n"
        "if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        import time\n"
        "        for i in range(400):\n            open(f'/tmp/late{i}', 'w').close()\n"
        "            time.sleep(0.005)\n    os._exit(0)\n"
    ),
}

OPEN_STATE = {
    "a hard link to an input": (
        "warm/cold (files): warm_server.write_inputs makes a warm input a file of /work's "
        "own tmpfs (another uid's: EPERM, protected_hardlinks), cold it is a bind from "
        "elsewhere (EXDEV, 18, as python3 reads)"
    ),
}


@pytest.mark.parametrize("name", xfails(sorted(STATE), OPEN_STATE))
def test_each_test_finds_the_state_python3_finds(name: str) -> None:
    code = STATE[name]
    files = {"data/in.txt": "x\n"}
    reference = sandbox.run(code, files=files, limits=LIMITS, mode="cold")
    assert reference.status == "ok", reference
    tests = [{"input": "", "output": reference.stdout}] * 3
    outcomes = [
        [
            r.outcome
            for r in sandbox.run_tests(code, tests, limits=LIMITS, mode=mode, files=files).results
        ]
        for mode in ("cold", "warm")
    ]
    assert outcomes == [["pass"] * 3] * 2


KILLER = (
    "import os, sys\nprint('ok')\nsys.stdout.flush()\nparent = os.getpid()\n"
    "if os.fork() == 0:\n    while os.getppid() == parent:\n        pass\n"
    "    for _ in range(2000000):\n        try:\n            os.kill(-1, 9)\n"
    "        except OSError:\n            pass\n    os._exit(0)\n"
)


@pytest.mark.parametrize(
    "number",
    [
        pytest.param(9, id="SIGKILL"),
        pytest.param(19, id="SIGSTOP"),
    ],
)
def test_a_survivor_that_signals_every_process_of_its_uid_ends_no_later_test(number: int) -> None:
    """A test's process leaves a child that, once it is orphaned, sends `number` to every
    process it may (warm: the killer `end_processes` forks takes the program uid before
    its own kill(-1)). Each test must still pass, as python3 main.py's would."""
    tests = [{"input": "", "output": "ok\n"}] * 8
    code = KILLER.replace("os.kill(-1, 9)", f"os.kill(-1, {number})")
    limits = dataclasses.replace(LIMITS, wall_s=3.0)
    # a race the survivor wins most times (it spins while the killer takes the uid): three
    # runs of eight tests, so that one loss of it in every test is no pass
    for mode in ("cold", "warm", "warm", "warm"):
        report = sandbox.run_tests(code, tests, limits=limits, mode=mode)
        assert [r.outcome for r in report.results] == ["pass"] * 8, (mode, report.results)


@pytest.mark.parametrize("zygotes_on", [False, True])
def test_the_next_run_on_the_server_is_fresh_after_a_survivor_that_kills(
    zygotes_on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the survivor did to the run's later tests, the server ends it with the run:
    the next run on the same warm server (the server's kill, or `kill_run` with zygotes)
    is judged as cold."""
    _warm.shutdown()
    if zygotes_on:
        monkeypatch.setenv("SANDBOX_IMPORT_ZYGOTES", "1")
    try:
        probe = "import typing\nimport os\nprint(sorted(os.listdir('/tmp')), input())\n"
        tests = [{"input": "a\n", "output": "[] a\n"}] * 2
        for _ in range(2):
            sandbox.run_tests(
                KILLER, [{"input": "", "output": "ok\n"}] * 2, limits=LIMITS, mode="warm"
            )
            after = sandbox.run_tests(probe, tests, limits=LIMITS, mode="warm")
            assert [r.outcome for r in after.results] == ["pass", "pass"], after.results
            plain = sandbox.run(probe, stdin="b\n", limits=LIMITS, mode="warm")
            assert (plain.status, plain.stdout) == ("ok", "[] b\n"), plain
    finally:
        _warm.shutdown()
        monkeypatch.delenv("SANDBOX_IMPORT_ZYGOTES", raising=False)
        _warm.shutdown()


def test_a_zygote_served_worker_and_its_replacement_recurse_as_cold(zygotes: None) -> None:
    """An assert run's first worker comes from the zygote, a replacement (after a test that
    ends its worker) from the server: both recurse as deep as a cold worker."""
    code = (
        "import typing\nimport os\ndef down(n):\n    try:\n        return down(n + 1)\n"
        "    except RecursionError:\n        return n\n"
        "def p():\n    print(down(0))\ndef die():\n    os._exit(1)\n"
    )
    tests = ["assert p() is None", "die()", "assert p() is None"]
    cold = sandbox.run_tests(code, tests, limits=LIMITS, mode="cold")
    want = ([r.outcome for r in cold.results], cold.execution.stdout)
    assert want[0] == ["pass", "error", "pass"], cold
    for _ in range(3):
        warm = sandbox.run_tests(code, tests, limits=LIMITS, mode="warm")
        assert ([r.outcome for r in warm.results], warm.execution.stdout) == want
