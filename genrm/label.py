"""Offline preference labeling: a GenRM judges pairs of candidate responses; confident verdicts
become preference pairs for `train-rm` (the GenRM-to-lightweight-RM pipeline).

A pair is kept when max(p, 1 - p) >= threshold, p being the judge's P(first better) with both
orders averaged; uncertain pairs are dropped, and so are pairs whose verdict could not be read.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genrm._common import prompt_text
from genrm.generative import GenRMJudge, Pair
from rewards.errors import InputError
from rewards.options import check_fields, check_range

__all__ = ["CandidateSet", "LabelConfig", "LabelStats", "label_preferences", "load_candidates"]


@dataclass(frozen=True)
class LabelConfig:
    """Which pairs are judged and which are kept."""

    threshold: float = 0.75
    """Keep a pair when the judge's confidence max(p, 1 - p) is at least this (0.5 keeps all)."""
    max_pairs_per_prompt: int | None = None
    """Judge at most this many pairs per prompt (sampled with `seed`); None: all pairs."""
    seed: int = 0
    """Pair sampling."""
    batch_pairs: int = 64
    """Pairs per judge call."""

    def __post_init__(self) -> None:
        check_fields(self)
        check_range("threshold", self.threshold, ge=0.5, le=1.0)
        check_range("batch_pairs", self.batch_pairs, ge=1)


@dataclass(frozen=True)
class CandidateSet:
    """Candidate responses to one prompt."""

    prompt: str | list[dict[str, Any]]
    candidates: tuple[str, ...]
    reference: str | None = None


@dataclass
class LabelStats:
    """Counts of one labeling run."""

    judged: int = 0
    kept: int = 0
    uncertain: int = 0
    failed: int = 0


def load_candidates(path: str | Path) -> list[CandidateSet]:
    """Candidate sets from JSONL/Parquet rows, either one row per prompt
    {"prompt", "candidates": [...]} ("completions" also accepted), or rollout rows
    {"prompt", "completion", "group"?} grouped by group (or by prompt text)."""
    from rewards.io import iter_rows

    sets: list[CandidateSet] = []
    grouped: dict[Any, list[Any]] = {}
    for line, row in iter_rows(path):
        if isinstance(row, InputError):
            raise row
        if "prompt" not in row:
            raise InputError("missing field", source=str(path), line=line, field="prompt")
        listed = row.get("candidates", row.get("completions"))
        if listed is not None:
            if not isinstance(listed, list) or not all(isinstance(c, str) for c in listed):
                raise InputError("must be a list of strings", source=str(path), line=line,
                                 field="candidates")
            sets.append(CandidateSet(row["prompt"], tuple(listed), row.get("reference")))
        elif isinstance(row.get("completion"), str):
            key = row.get("group") or prompt_text(row["prompt"])
            grouped.setdefault(key, [row["prompt"], [], row.get("reference")])[1] \
                .append(row["completion"])
        else:
            raise InputError("needs 'candidates' (a list) or 'completion' (a string)",
                             source=str(path), line=line, field="candidates")
    sets += [CandidateSet(p, tuple(c), r) for p, c, r in grouped.values()]
    return sets


def label_preferences(judge: GenRMJudge, sets: Sequence[CandidateSet],
                      config: LabelConfig = LabelConfig()) -> tuple[list[dict[str, Any]],
                                                                    LabelStats]:
    """Preference rows {"prompt", "chosen", "rejected", "confidence", "forward", "swapped"} for
    the confident pairs, and the counts."""
    stats = LabelStats()
    rows: list[dict[str, Any]] = []
    pairs = list(_pairs(sets, config))
    for start in range(0, len(pairs), config.batch_pairs):
        chunk = pairs[start:start + config.batch_pairs]
        for pair, jd in zip(chunk, judge.judge(chunk)):
            stats.judged += 1
            if jd.p_first is None:
                stats.failed += 1
                continue
            confidence = max(jd.p_first, 1.0 - jd.p_first)
            if confidence < config.threshold:
                stats.uncertain += 1
                continue
            first_wins = jd.p_first >= 0.5
            rows.append({
                "prompt": pair.question,
                "chosen": pair.first if first_wins else pair.second,
                "rejected": pair.second if first_wins else pair.first,
                "confidence": confidence, "forward": jd.forward, "swapped": jd.swapped,
            })
            stats.kept += 1
    return rows, stats


def _pairs(sets: Sequence[CandidateSet], config: LabelConfig) -> Iterator[Pair]:
    rng = random.Random(config.seed)
    for cs in sets:
        unique = list(dict.fromkeys(cs.candidates))  # identical responses teach nothing
        combos = list(itertools.combinations(unique, 2))
        if config.max_pairs_per_prompt is not None and len(combos) > config.max_pairs_per_prompt:
            combos = rng.sample(combos, config.max_pairs_per_prompt)
        for first, second in combos:
            yield Pair(cs.prompt, first, second, cs.reference)
