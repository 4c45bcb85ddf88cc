"""Reading input rows (JSONL or Parquet): rollout rows into `Sample`s, prompt rows into
`PromptRecord`s (one id rule for every command: the row's `id`, or one derived from its
content), and writing result rows.

Every input row yields a result or an error naming the file, the line and the field: nothing
is silently dropped."""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from rewards.errors import InputError
from rewards.paths import input_file
from rewards.types import Sample

__all__ = ["PROMPT_FIELDS", "SAMPLE_FIELDS", "ErrorRow", "PromptRecord", "column_of", "derive_id",
           "iter_rows", "open_output", "open_parquet", "parse_map", "read_prompts",
           "row_to_sample", "write_row"]

SAMPLE_FIELDS = ("prompt", "completion", "reference", "domain", "group", "meta")
"""The fields a rollout row's columns map onto (`rewards score --map`)."""
PROMPT_FIELDS = ("id", "prompt", "reference", "domain")
"""The fields a prompt row's columns map onto (`filter-prompts --map`, training prompts)."""


def parse_map(spec: str | None, fields: Sequence[str] = SAMPLE_FIELDS) -> dict[str, str]:
    """`--map` option: 'solution_str=completion,ground_truth=reference' -> {column: field},
    each field one of `fields`."""
    mapping: dict[str, str] = {}
    for item in (spec or "").split(","):
        if not item.strip():
            continue
        column, sep, target = (part.strip() for part in item.partition("="))
        if not sep or not column or target not in fields:
            raise InputError(f"bad --map entry {item!r}: use COLUMN=FIELD with FIELD one of "
                             f"{', '.join(fields)}")
        mapping[column] = target
    return mapping


def iter_rows(path: str | Path) -> Iterator[tuple[int, dict[str, Any] | InputError]]:
    """(line number, row or error) for every record of a JSONL or Parquet file, in order.
    Line numbers are 1-based file lines for JSONL and 1-based row numbers for Parquet."""
    path = Path(path)
    input_file(path)
    if path.suffix == ".parquet":
        yield from _iter_parquet(path)
    else:
        yield from _iter_jsonl(path)


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


def _iter_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any] | InputError]]:
    with path.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                yield line_no, InputError(f"not valid JSON: {exc}", source=str(path), line=line_no)
                continue
            if not isinstance(row, dict):
                yield line_no, InputError(f"a row must be a JSON object, got "
                                          f"{type(row).__name__}", source=str(path), line=line_no)
                continue
            yield line_no, row


def _iter_parquet(path: Path) -> Iterator[tuple[int, dict[str, Any] | InputError]]:
    import pyarrow

    row_no = 0
    batches = open_parquet(path).iter_batches(batch_size=4096)
    while True:
        try:
            batch = next(batches, None)
        except (pyarrow.ArrowException, OSError) as exc:  # a corrupt row group
            raise InputError(f"not a readable Parquet file after row {row_no}: {exc}",
                             source=str(path)) from exc
        if batch is None:
            return
        for row in batch.to_pylist():
            row_no += 1
            yield row_no, row


@contextlib.contextmanager
def open_output(out: Path, *, inputs: Sequence[Path]) -> Iterator[TextIO]:
    """Open the output JSONL for writing. An output that is one of `inputs` (it would be
    truncated before it is read) or that cannot be written is an `InputError`."""
    for path in inputs:
        if out.resolve() == path.resolve() or (out.exists() and path.exists()
                                               and out.samefile(path)):
            raise InputError(f"--out {out} is an input of this run; write the scores to "
                             "another file", source=str(out))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fh = out.open("w", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write the output: {exc.strerror or exc}",
                         source=str(out)) from exc
    with fh:
        yield fh


def write_row(fh: TextIO, row: Mapping[str, Any], out: Path) -> None:
    """One result row as a JSON line. Text that UTF-8 cannot hold (a lone surrogate in an
    error message) is escaped rather than lost; a failing disk is an `InputError`."""
    try:
        line = json.dumps(row, ensure_ascii=False)
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(row, ensure_ascii=True)
    try:
        fh.write(line + "\n")
    except OSError as exc:
        raise InputError(f"cannot write the output: {exc.strerror or exc}",
                         source=str(out)) from exc


def row_to_sample(row: Mapping[str, Any], *, mapping: Mapping[str, str] | None = None,
                  source: str | None = None, line: int | None = None) -> Sample:
    """Validate one row into a `Sample`. Unknown columns travel in `meta`."""
    mapping = mapping or {}
    fields: dict[str, Any] = {}
    meta: dict[str, Any] = {}
    for key, value in row.items():
        target = mapping.get(key, key)
        if target in SAMPLE_FIELDS and target != "meta":
            fields[target] = value
        elif target == "meta" and isinstance(value, Mapping):
            meta.update(value)
        else:
            meta[key] = value

    def bad(message: str, field: str) -> InputError:
        column = next((k for k, v in mapping.items() if v == field), field)
        return InputError(message, source=source, line=line, field=column)

    completion = fields.get("completion")
    if completion is None:
        raise bad("missing completion", "completion")
    if not isinstance(completion, str):
        raise bad(f"completion must be a string, got {type(completion).__name__}", "completion")
    prompt = fields.get("prompt", "")
    if prompt is None:
        prompt = ""
    if not isinstance(prompt, (str, list)):
        raise bad(f"prompt must be a string or a list of chat messages, got "
                  f"{type(prompt).__name__}", "prompt")
    domain = fields.get("domain") or "default"
    if not isinstance(domain, str):
        raise bad(f"domain must be a string, got {type(domain).__name__}", "domain")
    group = fields.get("group")
    if group is not None and not isinstance(group, (str, int)):
        raise bad(f"group must be a string or an integer, got {type(group).__name__}", "group")
    for name, text in (("domain", domain), ("group", group)):
        if isinstance(text, str) and not _is_unicode(text):
            raise bad(f"{name} is not valid Unicode (a lone surrogate such as \\ud800)", name)
    return Sample(prompt=prompt, completion=completion, reference=fields.get("reference"),
                  domain=domain, group=None if group is None else str(group), meta=meta)


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# --- prompt rows ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorRow:
    """A row that could not be used, and why."""

    file: str
    line: int | None
    field: str | None
    error: str

    @classmethod
    def of(cls, exc: InputError) -> ErrorRow:
        return cls(exc.source or "", exc.line, exc.field, exc.detail)

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "field": self.field, "error": self.error}


@dataclass(frozen=True)
class PromptRecord:
    """One valid prompt row."""

    id: str
    line: int
    row: dict[str, Any]
    """The row as read (original column names), with `id` added when it was derived."""
    prompt: str | list[dict[str, Any]]
    reference: Any
    domain: str


def derive_id(row: Mapping[str, Any]) -> str:
    """A stable id from a row's content: the same row always gets the same id."""
    canonical = json.dumps(row, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                           default=str)
    return "p-" + hashlib.sha256(canonical.encode()).hexdigest()[:16]


def read_prompts(path: str | Path, mapping: Mapping[str, str] | None = None
                 ) -> tuple[dict[str, PromptRecord], list[ErrorRow], int]:
    """Valid prompts by id (file order), error rows, and the number of rows read."""
    prompts: dict[str, PromptRecord] = {}
    errors: list[ErrorRow] = []
    rows = 0
    for line, row in iter_rows(path):
        rows += 1
        try:
            if isinstance(row, InputError):
                raise row
            record = _prompt_record(row, mapping or {}, str(path), line)
            if record.id in prompts:
                raise InputError(f"duplicate id {record.id!r} (first at line "
                                 f"{prompts[record.id].line})", source=str(path), line=line,
                                 field=column_of(mapping or {}, "id"))
        except InputError as exc:
            errors.append(ErrorRow.of(exc))
            continue
        prompts[record.id] = record
    return prompts, errors, rows


def column_of(mapping: Mapping[str, str], field: str) -> str:
    """The input column that `--map` maps onto `field` (the field itself when unmapped)."""
    return next((column for column, target in mapping.items() if target == field), field)


def _prompt_record(row: dict[str, Any], mapping: Mapping[str, str], source: str,
                   line: int) -> PromptRecord:
    fields = {mapping.get(k, k): v for k, v in row.items() if mapping.get(k, k) in PROMPT_FIELDS}

    def bad(message: str, field: str) -> InputError:
        return InputError(message, source=source, line=line, field=column_of(mapping, field))

    prompt = fields.get("prompt")
    if prompt is None or prompt == "":
        raise bad("missing prompt", "prompt")
    if isinstance(prompt, list):
        if not prompt or not all(isinstance(m, dict) and isinstance(m.get("content"), str)
                                 and isinstance(m.get("role"), str) for m in prompt):
            raise bad("chat prompt must be a non-empty list of {role, content} messages",
                      "prompt")
    elif not isinstance(prompt, str):
        raise bad(f"prompt must be a string or a list of chat messages, got "
                  f"{type(prompt).__name__}", "prompt")
    domain = fields.get("domain") or "default"
    if not isinstance(domain, str):
        raise bad(f"domain must be a string, got {type(domain).__name__}", "domain")
    if "id" in fields and fields["id"] is not None:
        raw_id = fields["id"]
        if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)) or raw_id == "":
            raise bad(f"id must be a non-empty string or an integer, got {raw_id!r}", "id")
        prompt_id, out_row = str(raw_id), dict(row)
    else:
        prompt_id = derive_id(row)
        out_row = {"id": prompt_id, **row}
    return PromptRecord(prompt_id, line, out_row, prompt, fields.get("reference"), domain)
