"""Probes of h-sb21, which closed the roots red team rt39 found
(`test_redteam_round_sb19.py`): seccomp refuses clone(CLONE_PARENT) (`_jail.SECCOMP_POLICY`)
and honest programs that fork, vfork, posix_spawn, thread or use multiprocessing still pass,
cold and warm, plain and as assert tests before and after a replacement worker;
`_cache.remove_tree`'s root opened by its last name with O_NOFOLLOW, trailing slashes
stripped, and its chmod of a refused folder made through a pinned descriptor
(`_cache._make_enterable`), never through a link.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path

import pytest
from sandbox_probes import SHORT, ok_stdout
from sandbox_probes import outcomes as probe_outcomes

from sandbox import _cache
from sandbox._cache import remove_tree
from sandbox._runner import Mode

MODES: tuple[Mode, ...] = ("cold", "warm")
LIMITS = dataclasses.replace(SHORT, wall_s=8.0, test_wall_s=3.0)
PASS = ("pass", "", True)
DIED = ("error", "the program died during the test: the program exited", True)

outcomes = functools.partial(probe_outcomes, limits=LIMITS)

CLONE = (
    "import ctypes, os\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "def clone(flags):\n"  # x86_64 clone(flags, stack, ptid, ctid, tls): a fork
    "    pid = libc.syscall(56, flags | 17, 0, 0, 0, 0)\n"
    "    if pid == 0:\n        os._exit(4)\n"
    "    if pid < 0:\n        return -ctypes.get_errno()\n"
    "    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])\n"
)
"""`clone(flags)`: a raw clone with `flags` | SIGCHLD whose child exits 4: 4 when waited
for, -errno when refused (a CLONE_PARENT child is no child of the caller: never waited)."""

HONEST = {
    "posix_spawn": (
        ("import os\ndef f():\n"
        "    pid = os.posix_spawn('/bin/sh', ['sh', '-c', 'exit 5'], dict(os.environ))\n"
        "    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])\n"), "5"),
    "subprocess (vfork)": (
        ("import subprocess\ndef f():\n"
        "    return subprocess.run(['/bin/sh', '-c', 'echo 5'], capture_output=True,"
        " text=True).stdout.strip()\n"), "'5'"),
    "threads": (
        ("import threading\ndef f():\n    out = []\n"
        "    ts = [threading.Thread(target=out.append, args=(1,)) for _ in range(4)]\n"
        "    [t.start() for t in ts]\n    [t.join() for t in ts]\n    return sum(out)\n"), "4"),
    "multiprocessing": (
        ("import multiprocessing as mp\n"
        "def put(q):\n    q.send(5)\n"
        "def f():\n    ctx = mp.get_context('fork')\n    r, w = ctx.Pipe(False)\n"
        "    p = ctx.Process(target=put, args=(w,))\n    p.start()\n"
        "    got = r.recv()\n    p.join()\n    return (got, p.exitcode)\n"), "(5, 0)"),
    "fork": (
        ("import os\ndef f():\n    pid = os.fork()\n    if pid == 0:\n        os._exit(5)\n"
        "    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])\n"), "5"),
}


@pytest.mark.usefixtures("sandbox_ready")
@pytest.mark.parametrize("mode", MODES)
def test_clone_parent_is_refused_and_a_plain_clone_is_not(mode: Mode) -> None:
    code = CLONE + "print(clone(0x8000), clone(0))\n"
    assert ok_stdout(code, mode, limits=LIMITS) == "-1 4\n"  # EPERM; a fork's exit


@pytest.mark.usefixtures("sandbox_ready")
@pytest.mark.parametrize("mode", MODES)
def test_clone_parent_is_refused_in_a_replacement_worker(mode: Mode) -> None:
    code = CLONE + "def crash():\n    os._exit(3)\n"
    tests = ["crash()", "assert clone(0x8000) == -1, clone(0x8000)", "assert clone(0) == 4"]
    assert outcomes(code, tests, mode) == [DIED, PASS, PASS]


@pytest.mark.usefixtures("sandbox_ready")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(HONEST))
def test_an_honest_program_runs_plain(name: str, mode: Mode) -> None:
    code, expected = HONEST[name]
    assert ok_stdout(code + "print(repr(f()))\n", mode, limits=LIMITS) == expected + "\n"


@pytest.mark.usefixtures("sandbox_ready")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(HONEST))
def test_an_honest_program_passes_before_and_after_a_replacement(name: str, mode: Mode
                                                                 ) -> None:
    code, expected = HONEST[name]
    code += "def crash():\n    import os\n    os._exit(3)\n"
    check = f"assert repr(f()) == {expected!r}, f()"
    assert outcomes(code, [check, "crash()", check], mode) == [PASS, DIED, PASS]


# --- remove_tree: the root by its last name, the chmod through a pinned folder -----------


def _tree(root: Path) -> Path:
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f").write_text("f")
    return root


@pytest.mark.parametrize("tail", ["/", "//", "///"])
def test_a_folder_root_with_trailing_slashes_goes(tmp_path: Path, tail: str) -> None:
    root = _tree(tmp_path / "root")
    remove_tree(str(root) + tail)
    assert not root.exists()


def test_a_link_root_with_slashes_goes_alone(tmp_path: Path) -> None:
    outside = _tree(tmp_path / "outside")
    os.symlink(outside, tmp_path / "link")
    remove_tree(str(tmp_path / "link") + "//")
    assert not os.path.lexists(tmp_path / "link")
    assert (outside / "a" / "b" / "f").read_text() == "f"


@pytest.mark.parametrize("suffix", ["/.", "/./", "/a/.."])
def test_a_root_without_a_last_name_is_not_walked(tmp_path: Path, suffix: str) -> None:
    root = _tree(tmp_path / "root")
    remove_tree(str(root) + suffix)
    assert (root / "a" / "b" / "f").read_text() == "f"


def test_make_enterable_chmods_the_folder_and_refuses_a_link(tmp_path: Path) -> None:
    (tmp_path / "shut").mkdir(mode=0)
    (tmp_path / "target").mkdir(mode=0o500)
    os.symlink(tmp_path / "target", tmp_path / "link")
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        assert _cache._make_enterable(fd, "shut")
        assert not _cache._make_enterable(fd, "link")
        assert not _cache._make_enterable(fd, "missing")
    finally:
        os.close(fd)
    assert (tmp_path / "shut").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "target").stat().st_mode & 0o777 == 0o500
