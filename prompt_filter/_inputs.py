"""Reading the filter's inputs: prompt rows (an `id`, or one derived from the row's content,
a `prompt`, optional `reference` and `domain`) and pre-generated rollout rows (the prompt's
`id` and a `completion`). A bad row becomes an `ErrorRow` naming file, line and field."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rewards._types import Sample
from rewards.errors import InputError
from rewards.io import iter_rows

__all__ = ["PROMPT_FIELDS", "ErrorRow", "PromptRecord", "column_of", "derive_id",
           "iter_rollouts", "parse_prompt_map", "read_prompts", "rollout_to_sample"]

PROMPT_FIELDS = ("id", "prompt", "reference", "domain")


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


def parse_prompt_map(spec: str | None) -> dict[str, str]:
    """`--map problem=prompt,answer=reference,uid=id` -> {column: field}."""
    mapping: dict[str, str] = {}
    for item in (spec or "").split(","):
        if not item.strip():
            continue
        column, sep, target = (part.strip() for part in item.partition("="))
        if not sep or not column or target not in PROMPT_FIELDS:
            raise InputError(f"bad --map entry {item!r}: use COLUMN=FIELD with FIELD one of "
                             f"{', '.join(PROMPT_FIELDS)}")
        mapping[column] = target
    return mapping


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


def iter_rollouts(path: str | Path, prompts: Mapping[str, PromptRecord], *, after: int = 0
                  ) -> Iterator[tuple[int, Sample | ErrorRow]]:
    """(line, sample or error) for each rollout row after line `after`, in file order."""
    for line, row in iter_rows(path):
        if line <= after:
            continue
        try:
            if isinstance(row, InputError):
                raise row
            yield line, rollout_to_sample(row, prompts, str(path), line)
        except InputError as exc:
            yield line, ErrorRow.of(exc)


def rollout_to_sample(row: Mapping[str, Any], prompts: Mapping[str, PromptRecord],
                      source: str, line: int) -> Sample:
    """A rollout row (`id` or `prompt_id`, `completion`) as a `Sample` of its prompt."""
    key = "id" if "id" in row else "prompt_id"
    raw_id = row.get(key)
    if raw_id is None or isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
        raise InputError("missing prompt id (an 'id' or 'prompt_id' naming a prompt row)",
                         source=source, line=line, field="id")
    record = prompts.get(str(raw_id))
    if record is None:
        raise InputError(f"no valid prompt has id {str(raw_id)!r}", source=source, line=line,
                         field=key)
    completion = row.get("completion")
    if not isinstance(completion, str):
        raise InputError("missing completion" if completion is None else
                         f"completion must be a string, got {type(completion).__name__}",
                         source=source, line=line, field="completion")
    return Sample(record.prompt, completion, reference=record.reference, domain=record.domain,
                  group=record.id, meta={"line": line})
