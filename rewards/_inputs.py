"""Input sources, the one place that knows each kind and how to read it: JSONL, a JSON
array of objects, Parquet, CSV/TSV, Arrow IPC, a folder written by Hugging Face `datasets`'
`save_to_disk`, and in Python a `datasets.Dataset`, `IterableDataset`, pyarrow `Table` or a
list of dicts. `rewards.io` re-exports the public names; every row is a dict or an
`InputError` naming the source and the line."""

from __future__ import annotations

import csv
import hashlib
import json
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

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
            row = _parse_json(raw, str(path), line_no)
            yield line_no, row if isinstance(row, InputError) else _checked(row, str(path),
                                                                             line_no)


MAX_INT_DIGITS = 4300
"""Integers with more digits than Python converts by default (`sys.int_info`) are kept as
their exact digit text: a 5,000-digit reference is read, not refused."""


def _int_or_text(digits: str) -> int | str:
    return int(digits) if len(digits.lstrip("-")) <= MAX_INT_DIGITS else digits


def _parse_json(raw: bytes | str, source: str, line: int) -> Any:
    """One JSON document, or an `InputError` for this record: bad JSON or encoding, or
    nesting too deep to decode."""
    try:
        return json.loads(raw, parse_int=_int_or_text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return InputError(f"not valid JSON: {exc}", source=source, line=line)
    except RecursionError:
        return InputError("not readable: JSON nested too deeply to decode", source=source,
                          line=line)
    except ValueError as exc:  # e.g. a number Python will not convert
        return InputError(f"not readable JSON: {exc}", source=source, line=line)


def _iter_json(path: Path) -> Iterator[Row]:
    """A `.json` file: a JSON array of objects (one row each), else JSON Lines. An element
    that cannot be decoded (too deep, bad JSON) is an error row of its own; the elements
    around it are read."""
    with path.open("rb") as fh:
        head = fh.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"["):
        yield from _iter_jsonl(path)
        return
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not a valid JSON array: {exc}", source=str(path)) from exc
    whole = _parse_json(text, str(path), 0)
    if isinstance(whole, list):
        for row_no, row in enumerate(whole, start=1):
            yield row_no, _checked(row, str(path), row_no)
        return
    yield from _array_elements(text, str(path))


_OUTSIDE = re.compile(r'[\[\]{}",]')
_STRING_TAIL = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)
"""The rest of a JSON string after its opening quote (linear: the alternatives are
disjoint)."""


def _array_elements(text: str, source: str) -> Iterator[Row]:
    """The elements of a JSON array one by one, each decoded alone: the slow path for an
    array that does not decode whole. Element boundaries are found by a linear scan (strings
    skipped, brackets counted, no recursion)."""
    at = text.index("[") + 1
    row_no = 0
    while True:
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        if at < len(text) and text[at] == "]" and row_no == 0:
            return
        end = _element_end(text, at)
        row_no += 1
        if end < 0 and row_no == 1:
            raise InputError("not a valid JSON array: its first element never ends",
                             source=source)
        if end < 0:
            yield row_no, InputError("not a valid JSON array from this element on: no "
                                     "closing bracket", source=source, line=row_no)
            return
        if not text[at:end].strip() and text[end] == "]":  # a trailing comma: no element
            return
        row = _parse_json(text[at:end], source, row_no)
        yield row_no, row if isinstance(row, InputError) else _checked(row, source, row_no)
        if text[end] == "]":
            return
        at = end + 1


def _element_end(text: str, at: int) -> int:
    """The index of the `,` or `]` that ends the array element starting at `at`, or -1."""
    depth = 0
    while True:
        found = _OUTSIDE.search(text, at)
        if found is None:
            return -1
        char, at = found.group(), found.end()
        if char == '"':
            tail = _STRING_TAIL.match(text, at)
            if tail is None:
                return -1
            at = tail.end()
        elif char in "[{":
            depth += 1
        elif char in "]}":
            if depth == 0:
                return found.start()
            depth -= 1
        elif depth == 0:  # a comma between elements
            return found.start()


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
    `datasets` writes), read batch by batch."""
    import pyarrow as pa

    try:
        source = pa.OSFile(str(path))  # not memory-mapped: a file cut short or rewritten
        # under a running job is an error, not a SIGBUS
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
    unreadable: tuple[type[Exception], ...] = (UnicodeDecodeError, *errors)
    batches = iter(batches)
    while True:
        try:
            batch = next(batches, None)
        except errors as exc:  # a corrupt row group or record batch
            raise InputError(f"{what} after row {row_no}: {exc}", source=source) from exc
        if batch is None:
            return
        bad_text = _validated(batch, source, what, row_no)
        rows: list[Any] = []
        if bad_text is None:
            try:
                rows = batch.to_pylist()
            except unreadable as exc:
                bad_text = exc
        if bad_text is not None:  # a value that is not valid UTF-8: find it row by row
            rows = [_arrow_row(batch, i, source, row_no + i + 1, bad_text)
                    for i in range(batch.num_rows)]
        for row in rows:
            row_no += 1
            yield row_no, row


def _validated(batch: Any, source: str, what: str, row_no: int) -> Exception | None:
    """Check a record batch before any value is read (a corrupt file's offsets could point
    anywhere): None when it is valid; the error when only text columns fail, and only for
    their content (bytes that are not UTF-8: then each row is read alone); an `InputError`
    for the file when its structure is broken."""
    import pyarrow as pa

    try:
        batch.validate(full=True)
        return None
    except pa.ArrowException as exc:
        for name, column in zip(batch.schema.names, batch.columns):
            try:
                _as_bytes(column).validate(full=True)
            except pa.ArrowException as broken:
                raise InputError(f"{what or 'not a readable table'} after row {row_no}: "
                                 f"column {name!r}: {broken}", source=source) from broken
        return exc


def _as_bytes(column: Any) -> Any:
    """A string column seen as bytes (its offsets validated, not its UTF-8)."""
    import pyarrow as pa

    if pa.types.is_string(column.type):
        return column.view(pa.binary())
    if pa.types.is_large_string(column.type):
        return column.view(pa.large_binary())
    return column


def _arrow_row(batch: Any, i: int, source: str, line: int,
               error: Exception) -> dict[str, Any] | InputError:
    """Row `i` of a record batch, or an error naming the first column whose value cannot be
    read (a string column holding bytes that are not UTF-8)."""
    row: dict[str, Any] = {}
    for name, column in zip(batch.schema.names, batch.columns):
        try:
            row[name] = column[i].as_py()
        except (UnicodeDecodeError, ValueError, TypeError) as exc:
            why = "not valid UTF-8" if isinstance(exc, UnicodeDecodeError) else str(exc)
            return InputError(f"not readable: {why}", source=source, line=line, field=name)
    del error  # every column read alone: the batch's error was not this row's
    return row


csv.field_size_limit(max(csv.field_size_limit(), 1 << 30))
"""A cell may be as long as a completion gets (the default refuses 131,072 characters)."""


def _iter_csv(path: Path, delimiter: str = ",") -> Iterator[Row]:
    """CSV (or TSV) with a header row; every value is text, an empty cell is null. Read
    record by record: a record that cannot be read (bad quoting, invalid UTF-8, the wrong
    number of cells) is an error row naming its line, and the records after it are read.
    A TSV is one record per line, each cell as written: a `"` is a character, not a quote
    (IANA text/tab-separated-values), so a stray quote never merges records."""
    quoting: Literal[0, 1, 2, 3] = csv.QUOTE_NONE if delimiter == "\t" else csv.QUOTE_MINIMAL
    with path.open("rb") as fh:
        lines = (_decoded(raw, first=i == 0) for i, raw in enumerate(fh))
        reader = csv.reader(lines, delimiter=delimiter, quoting=quoting, strict=True)
        header = _next_record(reader)
        if header is None:
            return
        what = "TSV" if quoting == csv.QUOTE_NONE else "CSV"
        if isinstance(header, csv.Error):
            raise InputError(f"not a readable {what} file: its header: {header}",
                             source=str(path), line=1)
        if any("\udc80" <= c <= "\udcff" for name in header for c in name):
            raise InputError(f"not a readable {what} file: its header is not UTF-8",
                             source=str(path), line=1)
        row_no = 0
        while True:
            cells = _next_record(reader)
            if cells is None:
                return
            row_no += 1
            yield row_no, _csv_row(header, cells, str(path), row_no)


def _decoded(raw: bytes, *, first: bool) -> str:
    """One file line as text; bytes that are not UTF-8 are kept as lone surrogates, and the
    record holding them becomes an error row (`_csv_row`)."""
    if first and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    return raw.decode("utf-8", errors="surrogateescape")


def _next_record(reader: Any) -> list[str] | csv.Error | None:
    try:
        return next(reader, None)
    except csv.Error as exc:  # the reader goes on with the next line
        return exc


def _csv_row(header: list[str], cells: list[str] | csv.Error, source: str,
             line: int) -> dict[str, Any] | InputError:
    if isinstance(cells, csv.Error):
        return InputError(f"not a readable record: {cells}", source=source, line=line)
    if len(cells) != len(header):
        return InputError(f"{len(cells)} values for the {len(header)} columns of the header",
                          source=source, line=line)
    for name, value in zip(header, cells):
        if any("\udc80" <= c <= "\udcff" for c in value):
            return InputError("not valid UTF-8", source=source, line=line, field=name)
    return {k: (v if v != "" else None) for k, v in zip(header, cells)}


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
    if hf is not None and isinstance(data, hf.Dataset):  # its Arrow batches, as a file's
        tables = data.with_format("arrow").iter(batch_size=_BATCH)
        yield from _batch_rows((b for t in tables for b in t.to_batches()), source, (), "")
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
