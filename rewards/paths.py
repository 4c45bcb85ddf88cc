"""The files a command reads and the places it writes, checked before any work starts: a
missing input, a folder where a file belongs, or an output that cannot be created is an
`InputError` naming the path and the option, not a traceback after minutes of work.

Nothing here creates anything: a command that fails a check leaves no folder behind."""

from __future__ import annotations

import os
from pathlib import Path

from rewards.errors import InputError

__all__ = ["input_file", "output_dir", "output_file"]


def input_file(path: str | Path, *, field: str | None = None) -> Path:
    """`path` as a readable regular file."""
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", source=str(path), field=field)
    if path.is_dir():
        raise InputError("is a directory, not a file", source=str(path), field=field)
    if not os.access(path, os.R_OK):
        raise InputError("cannot be read (permission denied)", source=str(path), field=field)
    return path


def output_dir(path: str | Path, *, field: str | None = None) -> Path:
    """`path` as a folder this process can create (with its parents) or write into."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise InputError("exists and is not a folder", source=str(path), field=field)
    _require_writable(path, field)
    return path


def output_file(path: str | Path, *, field: str | None = None) -> Path:
    """`path` as a file this process can create (with its folders) or overwrite."""
    path = Path(path)
    if path.is_dir():
        raise InputError("is a folder; give a file name", source=str(path), field=field)
    if path.exists():
        if not os.access(path, os.W_OK):
            raise InputError("cannot be written (permission denied)", source=str(path),
                             field=field)
        return path
    _require_writable(path.parent, field, target=path)
    return path


def _require_writable(folder: Path, field: str | None, *, target: Path | None = None) -> None:
    """The folder exists and is writable, or its nearest existing ancestor is a writable
    folder (so it can be created)."""
    target = target or folder
    ancestor = folder.absolute()
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise InputError(f"cannot be created: {ancestor} is a file, not a folder",
                         source=str(target), field=field)
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise InputError(f"cannot be written: no write permission in {ancestor}",
                         source=str(target), field=field)
