"""The training prompts: the rows of the prompts file, validated once into `PromptRecord`s
(`read_prompts`, strict: a bad row stops the run), and the endless, resumable stream of them
the loops draw from (`PromptStream`)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path

from rewards.errors import InputError
from rewards.io import PromptRecord
from rl._config import CurriculumConfig

__all__ = ["PromptStream", "read_prompts"]


def read_prompts(path: str | Path) -> list[PromptRecord]:
    """The training prompts (`rewards.io.read_prompts`: `prompt` text or chat messages
    required; `reference`, `domain`, `id` and any other columns travel to the reward), read
    and validated once: a step's samples are `rewards.io.prompt_sample` of them. A training
    run cannot leave a prompt out, so a bad row stops it, naming file, line, field."""
    from rewards.io import read_prompts as read_prompt_records

    records, errors, _ = read_prompt_records(path)
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more bad rows)" if len(errors) > 1 else ""
        raise InputError(first.error + more, source=first.file, line=first.line,
                         field=first.field)
    if not records:
        raise InputError("no prompts", source=str(path))
    return list(records.values())


class PromptStream:
    """An endless, deterministic stream of prompts: epoch after epoch, each shuffled with
    `seed + epoch`, or each in curriculum order (`prompt_filter.curriculum`, by a column of the
    prompt's row). `drawn` counts the prompts taken, which is all a checkpoint needs to resume
    the stream (`skip`)."""

    def __init__(self, records: Sequence[PromptRecord], *, seed: int,
                 curriculum: CurriculumConfig | None = None) -> None:
        self.records = list(records)
        self.seed = seed
        self.curriculum = curriculum
        self.drawn = 0
        self._it = self._epochs()

    def _epochs(self) -> Iterator[PromptRecord]:
        epoch = 0
        while True:
            yield from self._epoch(epoch)
            epoch += 1

    def _epoch(self, epoch: int) -> Iterator[PromptRecord]:
        if self.curriculum is None:
            order = list(range(len(self.records)))
            random.Random(self.seed + epoch).shuffle(order)
            return (self.records[i] for i in order)
        from prompt_filter import MixingSchedule, curriculum

        c = self.curriculum
        buckets: dict[str, list[PromptRecord]] = {}
        for record in self.records:
            if c.column not in record.row:
                raise InputError(f"curriculum: prompt {record.id!r} has no {c.column!r} column",
                                 field=c.column)
            buckets.setdefault(str(record.row[c.column]), []).append(record)
        schedule = None if c.start is None else MixingSchedule(c.start, c.end, c.steps)
        return curriculum(buckets, order=[b for b in c.order if b in buckets] or None,
                          schedule=schedule, shuffle_seed=self.seed + epoch)

    def __iter__(self) -> Iterator[PromptRecord]:
        return self

    def __next__(self) -> PromptRecord:
        self.drawn += 1
        return next(self._it)

    def take(self, count: int) -> list[PromptRecord]:
        return [next(self) for _ in range(count)]

    def skip(self, count: int) -> None:
        """Advance to where a stream that had `count` prompts drawn stood (for resume)."""
        for _ in range(count - self.drawn):
            next(self)
