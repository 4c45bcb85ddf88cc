"""Reading the filter's pre-generated rollout rows (the prompt's `id` and a `completion`) as
samples of the prompts read by `rewards.io.read_prompts`. A bad row becomes an `ErrorRow`
naming file, line and field."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from rewards.errors import InputError
from rewards.io import ErrorRow, PromptRecord, iter_rows, prompt_sample
from rewards.types import Sample

__all__ = ["iter_rollouts", "rollout_to_sample"]


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
    sample = prompt_sample(record, completion)
    return replace(sample, meta={**sample.meta, "line": line})
