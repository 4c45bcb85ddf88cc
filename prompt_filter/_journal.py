"""An append-only journal of finished work, so a killed run (even `kill -9`) resumes where it
stopped and ends with exactly the output of an uninterrupted run.

The first line is a header with a fingerprint of everything that decides the scores; every
further line is one finished chunk, written whole, flushed and fsynced before the next chunk
starts. A kill can only tear the last line: on reopening, the journal is cut back to its last
complete line, so a chunk is either in the journal exactly once or redone."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rewards.errors import ConfigError

__all__ = ["Journal"]

VERSION = 1


class Journal:
    """Open (or create) the journal at `path` for a run with this `fingerprint`."""

    def __init__(self, path: Path, fingerprint: str) -> None:
        self.path = path
        self.fingerprint = fingerprint
        self.last: dict[str, Any] | None = None
        """The last complete chunk record (None: no chunk yet)."""
        self.chunks = 0
        """Complete chunk records in the journal."""
        path.parent.mkdir(parents=True, exist_ok=True)
        good_bytes = self._load() if path.exists() else 0
        self._fh = path.open("r+b" if path.exists() else "wb")
        self._fh.truncate(good_bytes)  # drop a torn last line left by a kill
        self._fh.seek(good_bytes)
        if good_bytes == 0:
            self._write({"kind": "header", "version": VERSION, "fingerprint": fingerprint})

    def _load(self) -> int:
        """Read complete records; return the byte length of the complete prefix."""
        good = 0
        with self.path.open("rb") as fh:
            for raw in fh:
                if not raw.endswith(b"\n"):
                    break  # torn: the process died while writing this line
                try:
                    record = json.loads(raw)
                except ValueError:
                    break
                if good == 0:
                    self._check_header(record)
                else:
                    self.last, self.chunks = record, self.chunks + 1
                good += len(raw)
        return good

    def _check_header(self, header: Any) -> None:
        if not isinstance(header, dict) or header.get("kind") != "header":
            raise ConfigError(f"{self.path}: not a filter-prompts journal; use another --out "
                              "or --restart")
        if header.get("version") != VERSION or header.get("fingerprint") != self.fingerprint:
            raise ConfigError(
                f"{self.path}: this output folder holds a run with different inputs, reward "
                "config or generation options; run again with the same ones to resume it, or "
                "pass --restart to discard it")

    def append(self, record: dict[str, Any]) -> None:
        """Add one finished chunk; it is on disk when this returns."""
        self._write(record)
        self.last, self.chunks = record, self.chunks + 1

    def records(self) -> Iterator[dict[str, Any]]:
        """The complete chunk records, in order, read back from disk one at a time (a large
        run's records need not fit in memory)."""
        self._fh.flush()
        with self.path.open("rb") as fh:
            next(fh)  # the header
            for _, raw in zip(range(self.chunks), fh):
                yield json.loads(raw)

    def _write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        self._fh.write(line.encode())
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> Journal:  # noqa: PYI034 (typing.Self: 3.11+)
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
