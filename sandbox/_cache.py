"""The sandbox's host-side cache folder (/tmp/rewards-sandbox-UID): the staged harness and
compiled C/C++ binaries. Used only while it is ours alone, since what it holds runs in jails
and decides verdicts; a folder anyone else could write to is never trusted."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from sandbox._process import FORKING

__all__ = ["FOLDER", "cache_root", "cached_binary", "compile_key", "store_binary", "trim"]

MAX_BINARIES = 512
"""Compiled programs kept; the least recently used are dropped beyond this."""
MAX_CACHE_BYTES = 512 << 20
"""Total size of the kept binaries; the least recently used are dropped beyond this."""
MAX_CACHED_BINARY = 64 << 20
"""A bigger binary (possible only with a raised `Limits.binary_bytes`) is not kept."""


FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
"""How a host folder is opened for a walk by descriptors: a folder, never through a link."""
_PINNED = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def remove_tree(root: str) -> None:
    """Remove the host folder `root` and everything under it, errors ignored (as
    `shutil.rmtree(root, ignore_errors=True)`), by directory descriptors, never by a path
    below `root`: a tree of any depth goes, past PATH_MAX (a path string there is
    ENAMETOOLONG) and past Python's recursion limit (no recursion). A link is removed as a
    link and never followed, `root` itself included (the link alone goes, never what it
    names); every folder is opened with O_NOFOLLOW and checked to be the entry listed (so a
    mount point is left, not entered). At most three descriptors are open at a time,
    whatever the depth: the walk holds the folder it empties, goes down by name and back up
    by `..`, checked against the device and inode it came from (a tuple a level). A folder
    the walk cannot enter or empty (mode 0, 0o500) is made 0o700 first (it is ours: we run
    as its owner or as root). What cannot be removed stays, with the folders above it."""
    fd = _open_root(root)
    if fd < 0:
        return
    levels: list[tuple[str, tuple[int, int]]] = []  # (name, its folder's device and inode)
    stuck: dict[int, set[str]] = {}  # by depth: folders there that could not be removed
    try:
        here = _identity(fd)
        while True:
            skip = stuck.setdefault(len(levels), set())
            child = _next_folder(fd, skip)
            if not skip:  # no set kept a level: a tree 100,000 deep holds none
                del stuck[len(levels)]
            if child is not None:
                name, child_fd, child_id = child
                os.close(fd)
                fd = child_fd
                levels.append((name, here))
                here = child_id
                continue
            if not levels:
                break
            stuck.pop(len(levels), None)
            name, here = levels.pop()
            up = _parent(fd, here)
            os.close(fd)
            fd = up
            if fd < 0:  # not where the walk came from: stop, leave the rest
                return
            try:
                os.rmdir(name, dir_fd=fd)
            except OSError:
                stuck.setdefault(len(levels), set()).add(name)
    except OSError:
        return
    finally:
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
    with contextlib.suppress(OSError):
        os.rmdir(root)


def _open_root(root: str) -> int:
    """`root` opened as a folder; -1 where it is none (a link given as the root is removed,
    the link alone, never what it names) or cannot be opened even once made 0o700. Its
    last component is opened in the folder above with O_NOFOLLOW (`_open_folder`), trailing
    slashes stripped first: "link/" would have the kernel follow the link whatever the
    flags (red team rt39). No root without a last name ("/", ".", "..") is walked, nor one
    holding a NUL, which names no file (the os calls would raise ValueError; red team rt42)."""
    above, name = os.path.split(root.rstrip("/"))
    if name in ("", ".", "..") or "\0" in root:
        return -1
    try:
        above_fd = os.open(above or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return -1
    try:
        fd = _open_folder(above_fd, name)
        if fd < 0:
            with contextlib.suppress(OSError):
                if stat.S_ISLNK(os.stat(name, dir_fd=above_fd, follow_symlinks=False).st_mode):
                    os.unlink(name, dir_fd=above_fd)
        return fd
    finally:
        os.close(above_fd)


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def _parent(fd: int, expected: tuple[int, int]) -> int:
    """The folder above `fd`'s, opened; -1 where it is not `expected` (or cannot open)."""
    try:
        up = os.open("..", FOLDER, dir_fd=fd)
    except OSError:
        return -1
    if _identity(up) != expected:
        os.close(up)
        return -1
    return up


def _next_folder(fd: int, stuck: set[str]) -> tuple[str, int, tuple[int, int]] | None:
    """Unlink every entry of the folder `fd` but its folders, and open the first of those
    not in `stuck` (name, descriptor, device and inode), made enterable first if need be;
    None when none is left or the folder cannot be listed. A folder that cannot be opened,
    or is not the one listed, joins `stuck`."""
    with contextlib.suppress(OSError):
        if os.fstat(fd).st_mode & 0o700 != 0o700:  # lets us unlink in it
            os.fchmod(fd, 0o700)
    while True:
        found = None
        try:
            with os.scandir(fd) as entries:
                for entry in entries:
                    try:
                        if not entry.is_dir(follow_symlinks=False):
                            os.unlink(entry.name, dir_fd=fd)
                        elif entry.name not in stuck:
                            found = entry.name, entry.inode()
                            break
                    except OSError:
                        continue
        except OSError:
            return None
        if found is None:
            return None
        name, inode = found
        child = _open_folder(fd, name)
        if child >= 0:
            try:
                child_id = _identity(child)
            except OSError:
                child_id = (-1, -1)
            if child_id[1] == inode:
                return name, child, child_id
            os.close(child)
        stuck.add(name)


def _open_folder(fd: int, name: str) -> int:
    """The folder `name` in `fd` opened without following a link; made 0o700 and opened
    again where its mode refuses us; -1 where it cannot be."""
    try:
        return os.open(name, FOLDER, dir_fd=fd)
    except PermissionError:
        pass
    except OSError:
        return -1
    if _make_enterable(fd, name):
        with contextlib.suppress(OSError):
            return os.open(name, FOLDER, dir_fd=fd)  # a link put there since: refused
    return -1


def _make_enterable(fd: int, name: str) -> bool:
    """Make the folder `name` in `fd` 0o700, never what a link there names; whether done.
    chmod by name follows a link, and Linux has no chmod that does not before fchmodat2
    (Python 3.11's os.chmod refuses follow_symlinks=False with dir_fd): the folder is
    pinned first by an O_PATH|O_NOFOLLOW|O_DIRECTORY descriptor (a link there is refused),
    then chmodded through /proc/self/fd, which names that very folder whatever the name
    becomes (glibc's own fchmodat emulation; red team rt39: a folder swapped for a link
    between the refused open and a chmod by name had the link's target chmodded). No
    /proc: nothing is chmodded."""
    try:
        pinned = os.open(name, _PINNED, dir_fd=fd)
    except OSError:
        return False
    try:
        os.chmod(f"/proc/self/fd/{pinned}", 0o700)
    except OSError:
        return False
    finally:
        os.close(pinned)
    return True


def cache_root() -> Path | None:
    """The cache folder, created if needed; None if it cannot be ours alone."""
    # not under ~/.cache: nsjail resolves bind sources inside the jail's user namespace,
    # where a 0700 home (owned by an unmapped uid) cannot be crossed
    root = Path(os.environ.get("SANDBOX_CACHE_DIR")
                or os.path.join(tempfile.gettempdir(), f"rewards-sandbox-{os.getuid()}"))
    try:
        root.mkdir(parents=True, exist_ok=True, mode=0o755)
        info = root.lstat()
    except OSError:
        return None
    if root.is_symlink() or info.st_uid != os.getuid() or info.st_mode & 0o022:
        return None
    # nsjail resolves bind sources as the jail's unmapped user: every folder above must be
    # crossable by others
    if any(not parent.stat().st_mode & 0o001 for parent in root.resolve().parents):
        return None
    return root


def owned(path: Path) -> bool:
    """True when `path` (and everything under it) is ours and writable by nobody else."""
    try:
        for entry in (path, *(path.rglob("*") if path.is_dir() else ())):
            info = entry.lstat()
            if entry.is_symlink() or info.st_uid != os.getuid() or info.st_mode & 0o022:
                return False
    except OSError:
        return False
    return True


def compile_key(compile_argv: Iterable[str], files: Iterable[tuple[str, bytes]]) -> str:
    """Content address of one compilation: the compiler command and every input file."""
    digest = hashlib.sha256("\0".join(compile_argv).encode())
    for name, content in sorted(files):
        digest.update(b"\0" + name.encode() + b"\0" + hashlib.sha256(content).digest())
    return digest.hexdigest()


def cached_binary(key: str) -> str | None:
    root = cache_root()
    if root is None:
        return None
    path = root / "binaries" / key
    if path.is_file() and owned(path):
        os.utime(path)  # recently used: evicted last
        return str(path)
    return None


def store_binary(key: str, binary: str) -> None:
    """Keep a freshly compiled binary (atomically; best effort: a full disk only costs a
    recompilation next time), then trim the cache to MAX_BINARIES and MAX_CACHE_BYTES."""
    root = cache_root()
    if root is None:
        return
    folder = root / "binaries"
    try:
        if os.path.getsize(binary) > MAX_CACHED_BINARY:
            return
        folder.mkdir(mode=0o755, exist_ok=True)
        with FORKING:  # no fork meanwhile may inherit the copy open for writing
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".incoming-")
            with os.fdopen(fd, "wb") as out, open(binary, "rb") as src:
                shutil.copyfileobj(src, out)
        os.chmod(tmp, 0o755)
        os.replace(tmp, folder / key)
        trim(folder)
    except OSError:
        return


def trim(folder: Path) -> None:
    """Drop the least recently used binaries until at most MAX_BINARIES of them, of at
    most MAX_CACHE_BYTES together, are left."""
    entries = []
    for entry in os.scandir(folder):
        try:
            info = entry.stat(follow_symlinks=False)
        except FileNotFoundError:  # removed by a concurrent trim
            continue
        entries.append((info.st_mtime, info.st_size, entry.path))
    entries.sort(reverse=True)  # newest first
    total = 0
    for count, (_, size, path) in enumerate(entries, 1):
        total += size
        if count > MAX_BINARIES or total > MAX_CACHE_BYTES:
            Path(path).unlink(missing_ok=True)
