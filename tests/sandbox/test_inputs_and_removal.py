"""Probes of h-sb20: the host's removal of a run's folders (`_cache.remove_tree`) and what a
program sees of its input files, cold against warm.

Removal (`_cache.remove_tree`, the workspace, spare and checker folders of cold runs): by
directory descriptors, no path below the root and no recursion, links removed as links
and never followed, at most three descriptors open whatever the depth. Probed: a tree
20,000 deep (40 KB of path, ten times PATH_MAX) and one of 255-byte names past PATH_MAX,
each with links to a folder and a file outside, a relative link up and out, a hard link to
a file outside, a fifo and a socket at the bottom; 3,000 entries of every kind in one
folder; folders of mode 0, 0o500 and 0o300 removed by their owner that is not root; a root
that is a link (the link alone goes); the walk under an open-files limit of three
descriptors above those already open.

Inputs (rule: an honest program sees the same world cold as warm; no program can change
its inputs). Every way to change an input file, `/work/main.py` and an input folder
(write, truncate, append, chmod, chown, utime, setxattr, link, unlink, rename from and
over, rmdir, a fifo or link over it) read as the errno each gives, cold and warm, and the
inputs read back unchanged after all of them; files of the program's own beside its
inputs, in both modes and in each stdin/stdout test.

Closed (12 strict xfails until h-sb23, plain tests now), one root: `_workspace.workspace`
gave a cold run its inputs as read-only binds (nsjail `-R`, one mount per file, the host's
root-owned file), where `warm_server.write_inputs` writes them into /work's own tmpfs as
the server's uid's files. The kernel checks a read-only mount (EROFS) before a file's owner
and mode (EACCES/EPERM) for a truncating open, chmod, chown, utime and setxattr, and refuses
a hard link across two mounts (EXDEV) before it checks the source's owner (EPERM,
protected_hardlinks); the owner read 65534 (the host's root, unmapped) cold, 99999 warm.
Now the cold init copies the inputs from one read-only bind of a staging folder (the jail
uid's, mode 0o700: no program reads it) into /work's tmpfs as warm's child writes them
(`init.take_inputs`, init.c's too), under an open-files limit of its own; see
docs/sandbox.md, "Inputs, cold and warm", and tests/sandbox/test_cold_inputs.py for the copy.
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import socket
import tempfile
from pathlib import Path

import pytest
from sandbox_probes import MODES, SHORT, in_child

import sandbox
from sandbox._cache import remove_tree

# --- removal of a host folder: descriptors, no path, no recursion ---------------------------


def _outside(tmp: Path) -> Path:
    outside = tmp / "outside"
    (outside / "keep").mkdir(parents=True)
    (outside / "keep" / "f").write_text("f")
    (outside / "g").write_text("g")
    return outside


def _kept(outside: Path) -> None:
    assert sorted(os.listdir(outside)) == ["g", "keep"]
    assert (outside / "keep" / "f").read_text() == "f"
    assert (outside / "g").read_text() == "g"


def _bottom(fd: int, outside: Path) -> None:
    """Every kind of entry in the folder `fd`, links pointing out of the tree."""
    os.symlink(str(outside), "to-folder", dir_fd=fd)
    os.symlink(str(outside / "g"), "to-file", dir_fd=fd)
    os.symlink("../" * 64 + str(outside).lstrip("/"), "up-and-out", dir_fd=fd)
    os.link(str(outside / "g"), "hard", dst_dir_fd=fd)
    os.mkfifo("fifo", dir_fd=fd)
    os.mkdir("zero", dir_fd=fd)
    os.chmod("zero", 0, dir_fd=fd)


def _chain(root: Path, name: str, depth: int) -> int:
    """`depth` folders `name` below `root`; the descriptor of the last."""
    root.mkdir()
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir(name, dir_fd=fd)
        inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
    return fd


@pytest.mark.parametrize(("name", "depth"), [("d", 20_000), ("x" * 255, 40)],
                         ids=["20000 deep", "255-byte names past PATH_MAX"])
def test_a_tree_past_path_max_goes_whole_and_nothing_outside(tmp_path: Path, name: str,
                                                              depth: int) -> None:
    outside = _outside(tmp_path)
    root = tmp_path / "root"
    fd = _chain(root, name, depth)
    try:
        _bottom(fd, outside)
    finally:
        os.close(fd)
    remove_tree(str(root))
    assert not os.path.lexists(root)
    _kept(outside)


def test_a_wide_folder_of_every_kind_goes(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    root = tmp_path / "root"
    root.mkdir()
    for i in range(500):
        (root / f"f{i}").write_text("x")
        (root / f"d{i}" / "e").mkdir(parents=True)
        os.symlink(outside, root / f"l{i}")
        os.symlink(outside / "g", root / f"d{i}" / "e" / "l")
        os.mkfifo(root / f"p{i}")
        os.link(outside / "g", root / f"h{i}")
    with contextlib.closing(socket.socket(socket.AF_UNIX)) as sock:
        sock.bind(str(root / "s"))
    remove_tree(str(root))
    assert not os.path.lexists(root)
    _kept(outside)


def test_a_root_that_is_a_link_goes_alone(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    link = tmp_path / "link"
    os.symlink(outside, link)
    remove_tree(str(link))
    assert not os.path.lexists(link)
    _kept(outside)



def test_folders_that_refuse_their_owner_go() -> None:
    """Modes 0, 0o500 and 0o300 at every depth, the root's too, removed by a uid that is
    not root (the owner: CAP_DAC_OVERRIDE would hide the modes)."""
    if os.getuid() != 0:
        pytest.skip("needs root to take another uid")
    home = Path(tempfile.mkdtemp(prefix="sb20-"))  # pytest's tmp_path is 0700 root's
    os.chmod(home, 0o755)
    os.chown(home, 65534, 65534)
    try:
        _as_nobody(home)
    finally:
        remove_tree(str(home))


def _as_nobody(home: Path) -> None:

    def work() -> bool:
        os.setgid(65534)
        os.setuid(65534)
        root = home / "root"
        fd = _chain(root, "d", 50)
        os.close(fd)
        folder = root
        for depth in range(50):
            (folder / "f").write_text("x")
            (folder / "e").mkdir()
            folder = folder / "d"
        folder = root
        modes = []
        for depth in range(50):
            modes.append((folder, (0, 0o500, 0o300)[depth % 3]))
            folder = folder / "d"
        for path, mode in reversed(modes):  # the deepest first: the path must stay open
            os.chmod(path / "e", mode)
            os.chmod(path, mode)
        remove_tree(str(root))
        return not os.path.lexists(root)

    assert in_child(work)


def test_the_walk_holds_three_descriptors_whatever_the_depth(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    root = tmp_path / "root"
    fd = _chain(root, "d", 3000)
    try:
        _bottom(fd, outside)
    finally:
        os.close(fd)

    def work() -> bool:
        highest = max(int(n) for n in os.listdir("/proc/self/fd"))
        resource.setrlimit(resource.RLIMIT_NOFILE, (highest + 1 + 3, highest + 1 + 3))
        remove_tree(str(root))
        return not os.path.lexists(root)

    assert in_child(work)
    _kept(outside)


# --- inputs: every way to change one, cold against warm -------------------------------------

FILES = {"d/a.txt": "x", "d/e/b.txt": "y"}

ATTEMPTS = {
    "open for writing (truncates)": "open('d/a.txt', 'w')",
    "open to append": "open('d/a.txt', 'a')",
    "open r+": "open('d/a.txt', 'r+')",
    "os.open O_WRONLY": "os.open('d/a.txt', os.O_WRONLY)",
    "os.open O_RDWR|O_TRUNC": "os.open('d/a.txt', os.O_RDWR | os.O_TRUNC)",
    "truncate": "os.truncate('d/a.txt', 0)",
    "chmod": "os.chmod('d/a.txt', 0o666)",
    "chown to its own uid": "os.chown('d/a.txt', os.getuid(), -1)",
    "utime to now": "os.utime('d/a.txt')",
    "utime to a time": "os.utime('d/a.txt', (1, 1))",
    "setxattr user.*": "os.setxattr('d/a.txt', 'user.x', b'1')",
    "hard link beside it": "os.link('d/a.txt', 'd/h')",
    "hard link in /work": "os.link('d/e/b.txt', 'h')",
    "unlink": "os.unlink('d/a.txt')",
    "rename away": "os.rename('d/a.txt', 'd/moved')",
    "rename a file of its own over it": "os.rename(mine(), 'd/a.txt')",
    "replace it by a file of its own": "os.replace(mine(), 'd/e/b.txt')",
    "a symlink over it": "os.symlink('x', 'd/a.txt')",
    "a fifo over it": "os.mkfifo('d/a.txt')",
    "rmdir its folder": "os.rmdir('d/e')",
    "rename its folder": "os.rename('d/e', 'd/f')",
    "chmod its folder": "os.chmod('d', 0o700)",
    "write main.py": "open('main.py', 'w')",
    "hard link main.py": "os.link('main.py', 'm2')",
    "unlink main.py": "os.unlink('main.py')",
}
"""What the program tries on its inputs: each an expression whose errno is printed."""

PROBE = (
    "import os, errno\n"
    "def mine():\n    open('mine', 'w').write('m')\n    return 'mine'\n"
    "def tried(text):\n"
    "    try:\n        eval(text)\n        return 'done'\n"
    "    except OSError as e:\n        return errno.errorcode.get(e.errno, e.errno)\n"
    f"for name, text in {ATTEMPTS!r}.items():\n    print(name, '=', tried(text))\n"
    "print('contents =', open('d/a.txt').read(), open('d/e/b.txt').read(),"
    " open('main.py').read()[:9], sorted(os.listdir('d')), sorted(os.listdir('d/e')))\n"
    "st = os.stat('d/a.txt')\n"
    "print('owner and mode =', st.st_uid, oct(st.st_mode))\n"
)


@functools.cache
def seen(mode: sandbox.Mode) -> dict[str, str]:
    out = sandbox.run(PROBE, files=FILES, limits=SHORT, mode=mode)
    assert (out.status, out.stderr) == ("ok", ""), out
    return dict(line.split(" = ", 1) for line in out.stdout.splitlines())


@pytest.mark.parametrize("name", [*ATTEMPTS, "owner and mode"])
def test_an_input_refuses_every_change_with_the_same_errno_cold_and_warm(name: str) -> None:
    cold, warm = seen("cold"), seen("warm")
    if name in ATTEMPTS:
        assert "done" not in (cold[name], warm[name]), (cold[name], warm[name])
    assert cold[name] == warm[name]


def test_every_input_reads_back_unchanged_after_every_attempt() -> None:
    for mode in MODES:
        assert seen(mode)["contents"] == "x y import os ['a.txt', 'e'] ['b.txt']", mode


BESIDE = (
    "import os\n"
    "for p in ('n', 'd/n', 'd/e/n'):\n    open(p, 'w').write(p)\n"
    "os.mkdir('d/e/m')\nopen('d/e/m/x', 'w').write('1')\n"
    "os.rename('d/n', 'd/n2')\nos.link('d/n2', 'd/e/l')\nos.symlink('a.txt', 'd/s')\n"
    "os.chmod('d/e/n', 0o600)\nos.truncate('d/e/n', 1)\n"
    "print(open('d/a.txt').read(), open('d/s').read(), open('d/e/l').read(),"
    " open('d/e/n').read(), open('d/e/m/x').read(), sorted(os.listdir('d')))\n"
)
BESIDE_OUT = "x x d/n d 1 ['a.txt', 'e', 'n2', 's']\n"


@pytest.mark.parametrize("mode", MODES)
def test_an_honest_program_writes_beside_its_inputs(mode: sandbox.Mode) -> None:
    out = sandbox.run(BESIDE, files=FILES, limits=SHORT, mode=mode)
    assert (out.status, out.stdout, out.stderr) == ("ok", BESIDE_OUT, ""), out


@pytest.mark.parametrize("mode", MODES)
def test_each_stdin_stdout_test_writes_beside_its_inputs(mode: sandbox.Mode) -> None:
    tests = [{"input": "", "output": BESIDE_OUT}] * 2
    report = sandbox.run_tests(BESIDE, tests, limits=SHORT, mode=mode, files=FILES)
    assert [r.outcome for r in report.results] == ["pass", "pass"], report.results
