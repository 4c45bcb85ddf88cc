"""Input sources, the one place that knows each kind and how to read it: JSONL, a JSON
array of objects, Parquet, CSV/TSV, Arrow IPC, a folder written by Hugging Face `datasets`'
`save_to_disk`, and in Python a `datasets.Dataset`, `IterableDataset`, pyarrow `Table` or a
list of dicts. `rewards.io` re-exports the public names; every row is a dict or an
`InputError` naming the source and the line."""

from __future__ import annotations

import csv
import hashlib
import json
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from rewards.errors import InputError
from rewards.paths import input_file

__all__ = ["Row", "count_rows", "input_kind", "input_source", "iter_rows", "open_parquet",
           "source_fingerprint", "source_name"]

Row = tuple[int, "dict[str, Any] | InputError"]
_BATCH = 4096
_SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".parquet": "parquet",
             ".pq": "parquet", ".csv": "csv", ".tsv": "tsv", ".arrow": "arrow",
             ".feather": "arrow", ".ipc": "arrow"}



def input_kind(path: str | Path) -> str:
    """How `iter_rows` reads `path`: dataset (a save_to_disk folder), jsonl, json, parquet,
    csv, tsv or arrow, by suffix; an unknown suffix is read as JSONL."""
    path = Path(path)
    return "dataset" if path.is_dir() else _SUFFIXES.get(path.suffix.lower(), "jsonl")


def input_source(path: str | Path, *, field: str | None = None) -> Path:
    """`path` as something `iter_rows` reads: a readable file, or a folder written by
    `datasets`' `save_to_disk` (a `Dataset`, or a `DatasetDict` of splits)."""
    path = Path(path)
    if path.is_dir():
        if not ((path / "state.json").is_file() or (path / "dataset_dict.json").is_file()):
            raise InputError("is a directory, not a file or a dataset folder written by "
                             "datasets' save_to_disk", source=str(path), field=field)
        return path
    return input_file(path, field=field)


def source_name(source: Any) -> str:
    """How messages name an input: its path, or `<dataset>` for an object."""
    return str(source) if isinstance(source, (str, Path)) else "<dataset>"


def iter_rows(source: str | Path | Any) -> Iterator[Row]:
    """(line, row or error) for every record of `source` (see the module docstring), in
    order. Lines are 1-based file lines for JSONL, 1-based row numbers for every other kind."""
    if not isinstance(source, (str, Path)):
        yield from _object_rows(source, source_name(source))
        return
    path = input_source(source)
    yield from _READERS[input_kind(path)](path)


def count_rows(source: str | Path | Any) -> int | None:
    """The number of rows `iter_rows` yields (None: an iterable dataset of unknown length).
    Parquet, Arrow files and datasets answer from metadata; text formats are read through."""
    if not isinstance(source, (str, Path)):
        return _object_len(source)
    path = input_source(source)
    kind = input_kind(path)
    if kind == "parquet":
        return open_parquet(path).metadata.num_rows
    if kind == "dataset":
        return _object_len(_load_saved(path))
    if kind == "arrow":  # batch lengths, no row converted
        import pyarrow as pa

        try:
            return sum(batch.num_rows for batch in _arrow_batches(path))
        except (pa.ArrowException, OSError) as exc:
            raise InputError(f"not a readable Arrow file: {exc}", source=str(path)) from exc
    if kind == "jsonl":
        with path.open("rb") as fh:
            return sum(1 for line in fh if line.strip())
    return sum(1 for _ in _READERS[kind](path))


def source_fingerprint(source: str | Path) -> str:
    """A hash of an input's content (a dataset folder: every file in it), for resumable
    jobs that must not resume on other data."""
    path = input_source(source)
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    digest = hashlib.sha256()
    for file in files:
        if path.is_dir():  # a file's digest is its content's alone
            digest.update(str(file.relative_to(path)).encode() + b"\0")
        with file.open("rb") as fh:
            while block := fh.read(1 << 20):
                digest.update(block)
    return digest.hexdigest()


def open_parquet(path: Path) -> Any:
    """A `pyarrow.parquet.ParquetFile`; a file that is not Parquet is an `InputError`."""
    try:
        import pyarrow
        import pyarrow.parquet as pq
    except ImportError as exc:  # pyarrow is a core dependency; this guards broken installs
        raise InputError("reading Parquet needs pyarrow: pip install pyarrow",
                         source=str(path)) from exc
    try:
        return pq.ParquetFile(path)
    except (pyarrow.ArrowException, OSError) as exc:
        raise InputError(f"not a readable Parquet file: {exc}", source=str(path)) from exc


def _iter_jsonl(path: Path) -> Iterator[Row]:
    with path.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                yield line_no, InputError(f"not valid JSON: {exc}", source=str(path), line=line_no)
                continue
            yield line_no, _checked(row, str(path), line_no)


def _iter_json(path: Path) -> Iterator[Row]:
    """A `.json` file: a JSON array of objects (one row each), else JSON Lines."""
    with path.open("rb") as fh:
        head = fh.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"["):
        yield from _iter_jsonl(path)
        return
    try:
        rows = json.loads(path.read_bytes())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"not a valid JSON array: {exc}", source=str(path)) from exc
    for row_no, row in enumerate(rows, start=1):
        yield row_no, _checked(row, str(path), row_no)


def _checked(row: Any, source: str, line: int) -> dict[str, Any] | InputError:
    if isinstance(row, dict):
        return row
    return InputError(f"a row must be a JSON object, got {type(row).__name__}", source=source,
                      line=line)


def _iter_parquet(path: Path) -> Iterator[Row]:
    import pyarrow

    batches = open_parquet(path).iter_batches(batch_size=_BATCH)
    yield from _batch_rows(batches, str(path), (pyarrow.ArrowException, OSError),
                           "not a readable Parquet file")


def _iter_arrow(path: Path) -> Iterator[Row]:
    import pyarrow as pa

    yield from _batch_rows(_arrow_batches(path), str(path), (pa.ArrowException, OSError),
                           "not a readable Arrow file")


def _arrow_batches(path: Path) -> Iterable[Any]:
    """The record batches of an Arrow IPC file, or of an IPC stream (the `.arrow` files
    `datasets` writes), memory-mapped."""
    import pyarrow as pa

    try:
        source = pa.memory_map(str(path))
        try:
            reader = pa.ipc.open_file(source)
            return (reader.get_batch(i) for i in range(reader.num_record_batches))
        except pa.ArrowInvalid:
            source.seek(0)
            return pa.ipc.open_stream(source)
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"not a readable Arrow file: {exc}", source=str(path)) from exc


def _batch_rows(batches: Iterable[Any], source: str, errors: tuple[type[Exception], ...],
                what: str) -> Iterator[Row]:
    row_no = 0
    batches = iter(batches)
    while True:
        try:
            batch = next(batches, None)
        except errors as exc:  # a corrupt row group or record batch
            raise InputError(f"{what} after row {row_no}: {exc}", source=source) from exc
        if batch is None:
            return
        for row in batch.to_pylist():
            row_no += 1
            yield row_no, row


def _iter_csv(path: Path, delimiter: str = ",") -> Iterator[Row]:
    """CSV with a header row; every value is text, an empty cell is null."""
    with path.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.reader(fh, delimiter=delimiter)
        try:
            header = next(reader, None)
            if header is None:
                return
            for row_no, cells in enumerate(reader, start=1):
                if not any(cells):
                    continue
                if len(cells) != len(header):
                    yield row_no, InputError(f"{len(cells)} values for the {len(header)} "
                                             "columns of the header", source=str(path),
                                             line=row_no)
                    continue
                yield row_no, {k: (v if v != "" else None) for k, v in zip(header, cells)}
        except (csv.Error, UnicodeDecodeError) as exc:
            raise InputError(f"not a readable CSV file at file line {reader.line_num}: {exc}",
                             source=str(path)) from exc


def _iter_saved(path: Path) -> Iterator[Row]:
    yield from _object_rows(_load_saved(path), str(path))


def _load_saved(path: Path) -> Any:
    from rewards.deps import require

    datasets = require("datasets", extra="datasets",
                       feature=f"reading the dataset folder {path}")
    try:
        return datasets.load_from_disk(str(path))
    except (OSError, ValueError, KeyError) as exc:
        raise InputError(f"not a readable dataset folder: {exc}", source=str(path)) from exc


_READERS = {"jsonl": _iter_jsonl, "json": _iter_json, "parquet": _iter_parquet,
            "csv": _iter_csv, "tsv": lambda p: _iter_csv(p, "\t"), "arrow": _iter_arrow,
            "dataset": _iter_saved}


def _object_rows(data: Any, source: str) -> Iterator[Row]:
    """Rows of a `datasets.Dataset` / `IterableDataset`, a pyarrow `Table` or a list of
    dicts."""
    hf = sys.modules.get("datasets")
    if hf is not None and isinstance(data, (hf.DatasetDict, hf.IterableDatasetDict)):
        splits = ", ".join(map(str, data))
        hint = f" (a saved one: {source}/<split>)" if source != "<dataset>" else ""
        raise InputError(f"a DatasetDict with splits {splits}: give one split, e.g. "
                         f"dataset[{next(iter(data), 'train')!r}]{hint}", source=source)
    if hf is not None and isinstance(data, hf.Dataset):
        batches = data.with_format(None).iter(batch_size=_BATCH)
        row_no = 0
        for batch in batches:
            columns = list(batch)
            for values in zip(*(batch[c] for c in columns)):
                row_no += 1
                yield row_no, dict(zip(columns, values))
        return
    if hasattr(data, "to_batches") and hasattr(data, "schema"):  # a pyarrow Table
        yield from _batch_rows(data.to_batches(max_chunksize=_BATCH), source, (), "")
        return
    if (hf is not None and isinstance(data, hf.IterableDataset)) or (
            isinstance(data, Iterable) and not isinstance(data, (str, bytes, Mapping))):
        for row_no, row in enumerate(data, start=1):
            yield row_no, _checked(row, source, row_no)
        return
    raise InputError(f"cannot read rows from a {type(data).__name__}: give a path, a "
                     "datasets.Dataset, a pyarrow Table or a list of dicts", source=source)


def _object_len(data: Any) -> int | None:
    try:
        return len(data) if not hasattr(data, "num_rows") else int(data.num_rows)
    except TypeError:
        return None
