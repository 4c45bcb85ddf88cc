"""The training prompts: the rows of the prompts file (`read_prompts`, strict: a bad row stops
the run) and the endless, resumable stream the loops draw from (`PromptStream`)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rewards.errors import InputError
from rl._config import CurriculumConfig

__all__ = ["PromptStream", "read_prompts"]


def read_prompts(path: str | Path) -> list[dict[str, Any]]:
    """The training prompt rows (`rewards.io.read_prompts`: `prompt` text or chat messages
    required; `reference`, `domain`, `id` and any other columns travel to the reward). A
    training run cannot leave a prompt out, so a bad row stops it, naming file, line, field."""
    from rewards.io import read_prompts as read_prompt_records

    records, errors, _ = read_prompt_records(path)
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more bad rows)" if len(errors) > 1 else ""
        raise InputError(first.error + more, source=first.file, line=first.line,
                         field=first.field)
    if not records:
        raise InputError("no prompts", source=str(path))
    return [record.row for record in records.values()]


class PromptStream:
    """An endless, deterministic stream of prompt rows: epoch after epoch, each shuffled with
    `seed + epoch`, or each in curriculum order (`prompt_filter.curriculum`). `drawn` counts
    the rows taken, which is all a checkpoint needs to resume the stream (`skip`)."""

    def __init__(self, rows: Sequence[Mapping[str, Any]], *, seed: int,
                 curriculum: CurriculumConfig | None = None) -> None:
        self.rows = list(rows)
        self.seed = seed
        self.curriculum = curriculum
        self.drawn = 0
        self._it = self._epochs()

    def _epochs(self) -> Iterator[Mapping[str, Any]]:
        epoch = 0
        while True:
            yield from self._epoch(epoch)
            epoch += 1

    def _epoch(self, epoch: int) -> Iterator[Mapping[str, Any]]:
        if self.curriculum is None:
            order = list(range(len(self.rows)))
            random.Random(self.seed + epoch).shuffle(order)
            return (self.rows[i] for i in order)
        from prompt_filter import MixingSchedule, curriculum

        c = self.curriculum
        buckets: dict[str, list[Mapping[str, Any]]] = {}
        for row in self.rows:
            if c.column not in row:
                raise InputError(f"curriculum: prompt {row['id']!r} has no {c.column!r} column",
                                 field=c.column)
            buckets.setdefault(str(row[c.column]), []).append(row)
        schedule = None if c.start is None else MixingSchedule(c.start, c.end, c.steps)
        return curriculum(buckets, order=[b for b in c.order if b in buckets] or None,
                          schedule=schedule, shuffle_seed=self.seed + epoch)

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        return self

    def __next__(self) -> Mapping[str, Any]:
        self.drawn += 1
        return next(self._it)

    def take(self, count: int) -> list[Mapping[str, Any]]:
        return [next(self) for _ in range(count)]

    def skip(self, count: int) -> None:
        """Advance to where a stream that had `count` rows drawn stood (for resume)."""
        for _ in range(count - self.drawn):
            next(self)
