"""Red team (rt38) of #38's four commits: cfe15ac (a worker's end seen through its pidfd,
`harness_wire.Channel.ended`, `harness.Worker.watch`), 2368783 (warm `wait_run` reaps the
first worker before the first replacement), cc706d9 (a cold harness that cannot set itself
apart exits `init.FAILED`, read as SandboxError) and 40bbc5a (the C init's name-order walk,
init.py's list walk, `_workspace._make_folders`, `_cache.remove_tree`).

Rules under attack: a worker gone with nothing left to read is that test's error and a
replacement judges the rest; what a dead worker leaves takes nothing from its replacement;
no program-caused end reads as the sandbox's failure (exit 70 is the program's verdict
wherever the program chose it); every task folder is open to the program cold as warm,
whatever its names or depth; host folders are removed without following links.

Classes: Exit and output forgery (A), Resources (B), Verdicts lost by masking (C),
Reaching another run / state left (D), false losses throughout.

68 probes: 58 held, 10 open as strict xfails under 3 roots (2 reachable by a program) at
the round; after it all three roots closed (the 2 reachable ones, 8 xfails, by h-sb19; the
latent removal root by h-sb20): none open.

Open (strict xfails), by root:
- Closed after the round (`Channel.send` writes the harness's non-blocking request pipe
  what it takes and waits as `recv` does: under the test's deadline, draining the outputs,
  watching `ended`): `harness_wire.Channel.send` (both modes; Exit and output forgery /
  Resources, a verdict lost): the harness writes a request with a blocking os.write, no
  deadline and no look at `Channel.ended`. A request past a pipe's 64 KiB (here a 200,000-item list) to a worker
  that does not read it never returns: a worker gone between tests whose child keeps fd 3
  open (the test reads 'timeout: no verdict: the run ended with timeout' at the wall
  limit, where cfe15ac's rule makes it that test's error and a replacement judges the
  rest), or a live worker that dup2s an empty pipe over fd 3 (the same, at the wall limit,
  not the test's 1 s; warm, the verdicts the long-lived harness held are lost with it).
- Closed after the round (`harness_wire.reap_left` before each replacement: the jail's
  pid 1 reaps every exited child while the zygote, cold, or the long-lived harness, warm,
  `kill(-1)`s what is left, until nothing is: `harness.end_left`,
  `warm_server.fork_worker`):
  `harness._retire` / `Worker.kill` (both modes; Resources, a false loss): only the
  worker's pid is killed; a dead worker's live child (its own session or not) keeps a slot
  of the program uid's RLIMIT_NPROC, so the replacement starts 2 threads at 4 processes
  where python3 main.py (and the first worker) start 3. (sb17's zombie root is its exited
  sibling.)

Closed after the round: `_cache.remove_tree` (host; no program reached it: every caller
passes a mkdtemp folder and `_make_folders` cannot pass PATH_MAX) walked by path strings,
not descriptors: a tree past PATH_MAX stayed, and a root that is a link was followed and
the folder it names emptied (shutil.rmtree refuses it). A link root is removed as the link
alone, and (h-sb20) the walk goes by directory descriptors, down by name and up by `..`
checked against the device and inode it came from, at most three open: the 3000-deep tree
goes (tests/sandbox/test_inputs_and_removal.py probes 20,000 deep, 255-byte names, modes
that refuse their owner, three descriptors).

Held: a worker's end through its pidfd (half a reply, with and without a child holding the
reply pipe; children holding every pipe or the outputs only; a full reply racing the exit; 1 MB of io input unread, a child holding stdin;
a child's forged reply after the death; an exit between tests with a small request; the
main thread's SYS_exit with a live thread is a timeout); 3 crashes and a crash-only run
leave the replacement / next run its count; exit 70 (io, load, worker, SystemExit, a C
program) is always the program's verdict, never SandboxError; every task folder open to
the C and Python inits, cold and warm and to each test (bytes > 0x7f, names around '/',
repeated names, 300 siblings, wide+deep trees, 255-byte names, a 3.8 KB path); a 1100-deep
task's spare leaves no host folder; remove_tree keeps links as links (folder, file,
relative, fifo, socket, a mode-0 folder, 1500 deep, 3000 deep past PATH_MAX).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sandbox_probes import DIED, PASS, SHORT, Outcome, ok_stdout
from sandbox_probes import outcomes as probe_outcomes
from test_init import argv_of

import sandbox
from sandbox import _cache, _runner, _spare
from sandbox._jail import SCRATCH
from sandbox._runner import Mode

pytestmark = pytest.mark.usefixtures("sandbox_ready")

MODES: tuple[Mode, ...] = ("cold", "warm")
LIMITS = dataclasses.replace(SHORT, wall_s=8.0, test_wall_s=3.0)
FOUR = dataclasses.replace(LIMITS, processes=4)


outcomes = functools.partial(probe_outcomes, limits=LIMITS)
plain = functools.partial(ok_stdout, limits=LIMITS)


BASE = (
    "import os, sys, time, threading, marshal\n"
    "def one():\n    return 1\n"
    "def crash():\n    os._exit(3)\n"
    "def take(x):\n    return len(x)\n"
    "def hold(fds, setsid=True):\n"
    "    if os.fork() == 0:\n        if setsid:\n            os.setsid()\n"
    "        keep = set(fds)\n"
    "        for fd in range(64):\n            if fd not in keep:\n"
    "                try:\n                    os.close(fd)\n"
    "                except OSError:\n                    pass\n"
    "        time.sleep(30)\n        os._exit(0)\n"
    "def later(status=0, after=0.2):\n"
    "    threading.Thread(target=lambda: (time.sleep(after), os._exit(status)),"
    " daemon=True).start()\n"
    "def frame(obj):\n    data = marshal.dumps(obj)\n"
    "    return len(data).to_bytes(4, 'big') + data\n"
)
"""Worker helpers. fd 3 is the worker's request pipe, fd 4 its reply pipe, 1 and 2 its
output pipes (`harness_program.worker_main`). `hold(fds)`: a child that keeps only `fds`
open, alive; `later()`: the worker exits `after` seconds from now (after its reply)."""

THREADS = (
    "def started():\n    threading.stack_size(256 * 1024)\n    ev = threading.Event()\n"
    "    n, ts = 0, []\n    try:\n        for _ in range(20):\n"
    "            t = threading.Thread(target=ev.wait)\n            t.start()\n"
    "            ts.append(t)\n            n += 1\n    except RuntimeError:\n        pass\n"
    "    ev.set()\n    [t.join() for t in ts]\n    return n\n"
)

# --- (A) the end of a worker, seen through its pidfd ----------------------------------------

ENDS = {
    # the worker writes half a reply frame, then dies; nothing holds its pipes
    "half a reply, then exit": (
        "def f():\n    os.write(4, frame(('ok', ('v', 1)))[:7])\n    os._exit(0)\n",
        ["assert f() == 1", "assert one() == 1"], [DIED, PASS]),
    # the same, a child holding the reply pipe (no EOF ever comes)
    "half a reply, a child holding the reply pipe": (
        "def f():\n    hold([4])\n    os.write(4, frame(('ok', ('v', 1)))[:7])\n    os._exit(0)\n",
        ["assert f() == 1", "assert one() == 1"], [DIED, PASS]),
    # a child holding every pipe, outputs too, in the worker's session
    "a child in its session holding every pipe": (
        "def f():\n    hold([1, 2, 3, 4], setsid=False)\n    os._exit(5)\n",
        ["assert f() == 1", "assert one() == 1", "assert one() == 2"],
        [DIED, PASS, ("fail", "AssertionError: assert one() == 2", True)]),
    # a child holding only the output pipes: the crash is seen at EOF of the reply pipe
    "a child holding stdout and stderr only": (
        "def f():\n    print('partial', flush=True)\n    hold([1, 2])\n    os._exit(5)\n",
        ["assert f() == 1", "assert one() == 1"], [DIED, PASS]),
    # a full reply, the exit racing right behind it: the reply is read, a pass
    "a full reply, then exit at once": (
        ("def f():\n    os.write(4, frame(('ok', ('v', 1))))\n    hold([3, 4])\n"
        "    os._exit(0)\n"),
        ["assert f() == 1", "assert one() == 1"], [PASS, DIED]),
    # a child that writes a forged reply 0.3 s after the worker died without one
    "a forged reply from a child after the worker died": (
        ("def f():\n    if os.fork() == 0:\n        time.sleep(0.3)\n"
        "        os.write(4, frame(('ok', ('v', 1))))\n        time.sleep(5)\n"
        "        os._exit(0)\n    os._exit(0)\n"),
        ["assert f() == 1", "assert one() == 1"], [DIED, PASS]),
    # the worker returns, then exits between tests; its child holds the request pipe
    "an exit between tests, a child holding both pipes": (
        ("def f():\n    hold([3, 4])\n    later()\n    return 1\n"
        "def nap():\n    time.sleep(0.6)\n    return 1\n"),
        ["assert f() == 1", "import time\ntime.sleep(0.6)", "assert one() == 1",
         "assert one() == 1"],
        [PASS, PASS, DIED, PASS]),
    # the main thread ends (SYS_exit), another thread lives: the process is not gone
    "the main thread's own exit, a thread alive": (
        ("import ctypes\ndef f():\n    threading.Thread(target=time.sleep, args=(30,)).start()\n"
        "    ctypes.CDLL(None).syscall(60, 0)\n"),
        ["assert f() == 1", "assert one() == 1"],
        [("timeout", "test exceeded 1 s", True),
         ("timeout", "not run: an earlier test timed out", False)]),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(ENDS))
def test_a_workers_end_is_that_tests_verdict(name: str, mode: Mode) -> None:
    body, tests, want = ENDS[name]
    limits = dataclasses.replace(LIMITS, test_wall_s=1.0)
    assert outcomes(BASE + body, tests, mode, limits=limits) == want


BIG = "assert take(list(range(200000))) == 200000"
"""A request of ~1 MB (past a pipe's 64 KiB)."""


@pytest.mark.parametrize("mode", MODES)
def test_a_big_request_to_a_worker_gone_between_tests_is_that_tests_error(mode: Mode) -> None:
    code = BASE + "def f():\n    hold([3, 4])\n    later()\n    return 1\n"
    tests = ["assert f() == 1", "import time\ntime.sleep(0.6)", BIG, BIG]
    assert outcomes(code, tests, mode) == [PASS, PASS, DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_a_big_request_to_a_worker_that_stops_reading_times_out_at_its_limit(mode: Mode
                                                                             ) -> None:
    """A live worker whose request pipe (fd 3) is swapped for a pipe nothing writes (the
    real one kept open, unread): the
    next request past 64 KiB is that test's timeout at its own limit (1 s), not the run's
    wall limit with no verdict."""
    code = BASE + ("KEPT = []\ndef f():\n    r, w = os.pipe()\n    KEPT.extend((os.dup(3), w))\n"
                   "    os.dup2(r, 3)\n    return 1\n")
    limits = dataclasses.replace(LIMITS, test_wall_s=1.0)
    assert outcomes(code, ["assert f() == 1", BIG, "assert one() == 1"], mode,
                    limits=limits) == [
        PASS, ("timeout", "test exceeded 1 s", True),
        ("timeout", "not run: an earlier test timed out", False)]


@pytest.mark.parametrize("mode", MODES)
def test_a_big_request_to_a_live_worker_passes(mode: Mode) -> None:
    """False loss: the honest side of the probe above."""
    assert outcomes(BASE, [BIG, BIG], mode) == [PASS, PASS]


IO_HOLDS_STDIN = (
    "import os, time\nif os.fork() == 0:\n    os.setsid()\n    os.close(1)\n    os.close(2)\n"
    "    time.sleep(30)\n    os._exit(0)\nprint('x')\n")


@pytest.mark.parametrize("mode", MODES)
def test_a_big_input_unread_by_a_program_whose_child_holds_stdin_passes(mode: Mode) -> None:
    """The stdin/stdout harness's side of the blocked write: 1 MB of input no process
    reads, its pipe held by a child: the program's answer, judged (harness_io writes
    without blocking, under the test's deadline)."""
    tests = [{"input": "y" * (1 << 20), "output": "x\n"}] * 2
    assert outcomes(IO_HOLDS_STDIN, tests, mode) == [PASS, PASS]


# --- (B) the process budget after crashes -----------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_three_crashes_leave_the_replacement_its_count(mode: Mode) -> None:
    """Each replacement's predecessor reaped: the fourth worker starts 3 threads at 4
    processes, as python3 main.py."""
    tests = ["assert started() == 3, started()", "crash()", "crash()", "crash()",
             "assert started() == 3, started()"]
    assert outcomes(BASE + THREADS, tests, mode, limits=FOUR) == [
        PASS, DIED, DIED, DIED, PASS]


@pytest.mark.parametrize("mode", MODES)
def test_a_crash_in_every_test_leaves_the_next_run_its_count(mode: Mode) -> None:
    """A run whose workers all crash, then another run of the same shape (warm: the same
    server): it starts 3 threads at 4 processes."""
    assert outcomes(BASE + THREADS, ["crash()"] * 4, mode, limits=FOUR) == [DIED] * 4
    assert outcomes(BASE + THREADS, ["assert started() == 3, started()"], mode,
                    limits=FOUR) == [PASS]


@pytest.mark.parametrize("setsid", [False, True])
@pytest.mark.parametrize("mode", MODES)
def test_a_dead_workers_live_child_takes_no_process_from_its_replacement(
        mode: Mode, setsid: bool) -> None:
    code = BASE + THREADS + "def leave(s):\n    hold([], s)\n    os._exit(3)\n"
    tests = [f"leave({setsid})", "assert started() == 3, started()"]
    assert outcomes(code, tests, mode, limits=FOUR) == [DIED, PASS]


# --- (C) no program-caused end reads as the sandbox's failure ------------------------------

EXIT_70: dict[str, tuple[str, list[Any], list[Outcome]]] = {
    "io: exit 70 at once": (
        "import os\nos._exit(70)\n", [{"input": "", "output": "x\n"}] * 2,
        [("error", "exit code 70", True)] * 2),
    "io: sys.exit(70) after the answer": (
        "import sys\nprint('x')\nsys.exit(70)\n", [{"input": "", "output": "x\n"}],
        [("error", "exit code 70", True)]),
    "assert: os._exit(70) while loading": (
        "import os\nos._exit(70)\n", ["assert f() == 1", "assert f() == 1"], [DIED, DIED]),
    "assert: a worker's os._exit(70) in a test": (
        BASE + "def f():\n    os._exit(70)\n", ["assert f() == 1", "assert one() == 1"],
        [DIED, PASS]),
    "assert: SystemExit(70) raised in a test": (
        BASE + "def f():\n    raise SystemExit(70)\n", ["assert f() == 1"],
        [("error", "ProgramError: SystemExit: 70", True)]),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(EXIT_70))
def test_exit_70_of_the_program_is_the_programs_verdict(name: str, mode: Mode) -> None:
    """Never a SandboxError: the harness's FAILED is its own exit, which no program
    process is."""
    code, tests, want = EXIT_70[name]
    got = outcomes(code, tests, mode)
    if "while loading" in name:  # the worker may die before or after the setup is sent:
        # EPIPE on that send, or EOF on its reply: both the death, that test's error
        got = [DIED if g[:1] == ("error",) and g[1].startswith(
            "the program died during the test: ") else g for g in got]
    assert got == want


def test_a_c_program_exiting_70_is_its_verdict() -> None:
    """Cold (warm is Python only): a C program's own exit 70 after its answer."""
    mode: Mode = "cold"
    code = "#include <stdio.h>\nint main(void) { puts(\"x\"); return 70; }\n"
    report = sandbox.run_tests(code, [{"input": "", "output": "x\n"}], language="c",
                               limits=LIMITS, mode=mode)
    assert [(r.outcome, r.message) for r in report.results] == [("error", "exit code 70")]


# --- (D) task folders: names, depth, many; removal on the host ------------------------------

def _opened(files: dict[str, str]) -> str:
    """A program that writes a file in every task folder and prints each folder's mode."""
    folders = sorted({os.path.dirname(n) for n in files} - {""})
    return (f"import os\nfor d in {folders!r}:\n"
            "    open(os.path.join(d, 'mine'), 'w').write('m')\n"
            "    print(d, oct(os.stat(d).st_mode))\n")


def _want(files: dict[str, str]) -> str:
    folders = sorted({os.path.dirname(n) for n in files} - {""})
    return "".join(f"{d} 0o41777\n" for d in folders)


NAMES = {
    "bytes past 0x7f and ASCII around '/'": {
        f"{n}/f.txt": "x" for n in ("a", "a-", "a.", "a0", "aé", "a\u00ff", "\u4e2d", "z",
                                     "A", "a\x7f", "a b", "~")},
    "the same names at every level": {
        "a/a/a/f.txt": "x", "a/b/a/f.txt": "x", "a/a-/a/f.txt": "x", "b/a/f.txt": "x"},
    "300 sibling folders": {f"s/{i:03d}/f.txt": "x" for i in range(300)},
    "a wide and deep tree": {
        "/".join(f"{c}{i}" for i in range(d)) + f"/f{c}.txt": "x"
        for c in "abcdefgh" for d in range(1, 12)},
    "names of 255 bytes": {
        f"{'n' * 254}{c}/{'m' * 250}/f.txt": "x" for c in "ab"},
}


@pytest.fixture(params=("c", "python"))
def init_kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    argv = argv_of(request.param)
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    return str(request.param)


@pytest.mark.parametrize("name", list(NAMES))
def test_every_task_folder_is_open_to_a_plain_run(init_kind: str, name: str) -> None:
    """Cold (each init) as warm: every folder 0o1777, a file written in each."""
    files = NAMES[name]
    code = _opened(files)
    assert plain(code, "cold", files) == _want(files)
    assert plain(code, "warm", files) == _want(files)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["bytes past 0x7f and ASCII around '/'", "300 sibling folders"])
def test_every_task_folder_is_open_to_each_test(name: str, mode: Mode) -> None:
    """The cold harness's `open_folders` (init.py's list walk) as the plain run's."""
    files = NAMES[name]
    want = _want(files)
    assert outcomes(_opened(files), [{"input": "", "output": want}] * 2, mode,
                    files=files) == [PASS, PASS]


def test_a_folder_at_the_path_max_edge_is_open_cold_as_warm(init_kind: str) -> None:
    """Folders of 200 bytes down to ~4000 bytes of path: those the program can name are
    open to it in both modes (the C init skips a path past PATH_MAX, as it cannot name it)."""
    levels = 19  # /work + 19 * 201 bytes = 3824 bytes
    folder = "/".join(["p" * 200] * levels)
    files = {folder + "/f.txt": "x"}
    code = ("import os\nfd = os.open('/work', os.O_RDONLY)\nmodes = []\n"
            f"for _ in range({levels}):\n"
            "    nxt = os.open('p' * 200, os.O_RDONLY, dir_fd=fd)\n    os.close(fd)\n"
            "    fd = nxt\n    modes.append(oct(os.fstat(fd).st_mode))\n"
            "os.open('mine', os.O_WRONLY | os.O_CREAT, dir_fd=fd)\n"
            "print(sorted(set(modes)), len(modes))\n")
    want = f"['0o41777'] {levels}\n"
    assert plain(code, "cold", files) == want
    assert plain(code, "warm", files) == want


def test_a_spare_for_a_deep_task_leaves_no_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """A task 1100 folders deep, run cold three times (a spare of its shape is started
    after the second): no host folder of it is left once the spares are closed
    (`_jail._start_spare`'s placeholders)."""
    mark = "q" + uuid.uuid4().hex[:12]
    files = {"/".join([mark] + ["d"] * 1100) + "/in.txt": "x"}
    _spare.spares.close()
    try:
        for _ in range(3):
            assert plain("print(1)\n", "cold", files) == "1\n"
    finally:
        _spare.spares.close()
    assert SCRATCH is not None
    left = [e.name for e in os.scandir(SCRATCH)
            if e.name.startswith("sandbox-") and os.path.isdir(os.path.join(e.path, "in", mark))]
    assert left == []


# --- _cache.remove_tree: links as links, never outside its root ------------------------------

def _tree(tmp: str) -> tuple[str, str]:
    root, outside = os.path.join(tmp, "root"), os.path.join(tmp, "outside")
    os.makedirs(os.path.join(outside, "keep"))
    open(os.path.join(outside, "keep", "f"), "w").close()
    open(os.path.join(outside, "g"), "w").close()
    os.makedirs(os.path.join(root, "a", "b"))
    return root, outside


def _fifo_and_socket(root: str, out: str) -> None:
    import socket

    os.mkfifo(f"{root}/a/p")
    socket.socket(socket.AF_UNIX).bind(f"{root}/a/b/s")


def _mode_0(root: str, out: str) -> None:
    os.makedirs(f"{root}/a/z/y")
    os.symlink(out, f"{root}/a/z/y/l")
    os.chmod(f"{root}/a/z", 0)


def _nothing(root: str, out: str) -> None:
    pass


REMOVALS: dict[str, Callable[[str, str], None]] = {
    "a link to a folder outside": lambda root, out: os.symlink(out, f"{root}/a/l"),
    "a link to a file outside": lambda root, out: os.symlink(f"{out}/g", f"{root}/a/b/l"),
    "a relative link up and out": lambda root, out: os.symlink("../../../outside",
                                                               f"{root}/a/b/up"),
    "a fifo and a socket": _fifo_and_socket,
    "a mode-0 folder": _mode_0,
    "a tree 1500 deep with a link at the bottom": lambda root, out: _deep_link(root, out, 1500),
    "a tree 3000 deep (past PATH_MAX) with a link at the bottom": lambda root, out: _deep_link(
        root, out, 3000),
    "the root itself a link": _nothing,
}


def _unchain(root: str) -> None:
    """Remove what is left of `_deep_link`'s chain under `root` (it may pass PATH_MAX and
    Python's recursion limit, which pytest's own clean-up of tmp_path recurses to): the
    chain is shortened by one level per step, every path short."""
    if not os.path.isdir(root):
        return
    fd = os.open(root, os.O_RDONLY)
    try:
        while os.path.lexists(f"/proc/self/fd/{fd}/d"):
            try:
                os.rename("d/d", "t", src_dir_fd=fd, dst_dir_fd=fd)
            except FileNotFoundError:  # the bottom: its link, then itself
                with contextlib.suppress(FileNotFoundError):
                    os.unlink("d/l", dir_fd=fd)
                os.rmdir("d", dir_fd=fd)
                break
            os.rmdir("d", dir_fd=fd)
            os.rename("t", "d", src_dir_fd=fd, dst_dir_fd=fd)
    finally:
        os.close(fd)


def _deep_link(root: str, out: str, depth: int) -> None:
    fd = os.open(root, os.O_RDONLY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        nxt = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nxt
    os.symlink(out, "l", dir_fd=fd)
    os.close(fd)


@pytest.mark.parametrize("name", list(REMOVALS))
def test_remove_tree_removes_only_its_root(tmp_path: Path, name: str) -> None:
    root, outside = _tree(str(tmp_path))
    try:
        _removes_only(root, outside, name, str(tmp_path))
    finally:
        _unchain(root)


def _removes_only(root: str, outside: str, name: str, tmp: str) -> None:
    REMOVALS[name](root, outside)
    if name == "the root itself a link":
        link = os.path.join(tmp, "link")
        os.symlink(outside, link)
        _cache.remove_tree(link)
        assert os.path.islink(link) or not os.path.exists(link)
        root = link
    else:
        _cache.remove_tree(root)
    assert not os.path.isdir(root) or os.path.islink(root)
    assert sorted(os.listdir(outside)) == ["g", "keep"]
    assert os.listdir(os.path.join(outside, "keep")) == ["f"]
