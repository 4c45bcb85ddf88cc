"""The sandbox's host-side cache folder (/tmp/rewards-sandbox-UID): the staged harness and
compiled C/C++ binaries. Used only while it is ours alone, since what it holds runs in jails
and decides verdicts; a folder anyone else could write to is never trusted."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from sandbox._process import FORKING

__all__ = ["cache_root", "cached_binary", "compile_key", "store_binary", "trim"]

MAX_BINARIES = 512
"""Compiled programs kept; the least recently used are dropped beyond this."""
MAX_CACHE_BYTES = 512 << 20
"""Total size of the kept binaries; the least recently used are dropped beyond this."""
MAX_CACHED_BINARY = 64 << 20
"""A bigger binary (possible only with a raised `Limits.binary_bytes`) is not kept."""


def remove_tree(root: str) -> None:
    """Remove the host folder `root` and everything under it, links as links, errors
    ignored (as `shutil.rmtree(root, ignore_errors=True)`), walked with a list: a task
    folder may be deeper than Python's recursion limit, which `shutil.rmtree` recurses to
    (its RecursionError is no OSError, and the folder would stay)."""
    if os.path.islink(root):  # a link given as the root: the link alone, never what it names
        with contextlib.suppress(OSError):
            os.unlink(root)
        return
    pending = [(root, False)]  # (folder, its entries already removed)
    while pending:
        folder, emptied = pending.pop()
        if emptied:
            with contextlib.suppress(OSError):
                os.rmdir(folder)
            continue
        pending.append((folder, True))
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append((entry.path, False))
                else:
                    os.unlink(entry.path)
            except OSError:
                continue


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
