"""The `rewards filter-prompts` batch job: score N rollouts per prompt (pre-generated, or
generated with a policy through `rewards.engines`), then keep the prompts whose pass rate is
in the band, bucket them, and write the outputs.

Work is journaled chunk by chunk (`_journal.py`); outputs are computed from the journal alone
and written atomically at the end, so a run killed at any point and started again with the
same arguments ends with byte-identical outputs. The band, buckets, mode and threshold only
act at the end: rerunning with other values re-selects from the journal without rescoring."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict
from typing import Any

from prompt_filter._finalize import finalize
from prompt_filter._inputs import iter_rollouts
from prompt_filter._journal import Journal
from prompt_filter._report import require_matplotlib
from prompt_filter._scoring import ChunkScorer
from prompt_filter._spec import FilterJob
from rewards.config import RewardConfig
from rewards.errors import EngineError
from rewards.io import (
    ErrorRow,
    PromptRecord,
    count_rows,
    input_source,
    prompt_sample,
    read_prompts,
    source_fingerprint,
)
from rewards.types import Sample

__all__ = ["run_filter"]


Progress = Callable[[int, Mapping[str, int]], None]
"""Called after each chunk with (rows done in the chunk, running counts)."""


def run_filter(job: FilterJob, config: RewardConfig, *, engine: Any = None,
               progress: Callable[[int, int], Progress] | None = None) -> dict[str, Any]:
    """Run (or resume) a filter job; returns the stats also written to `stats.json`.

    `engine`: an object with `generate` for `policy` mode (default: `load_engine(policy)`).
    `progress(total, done) -> update`: opens a progress display; `update` is called per chunk.
    """
    if job.plot:
        require_matplotlib()
    _check_paths(job, engine)
    prompts, prompt_errors, prompt_rows = read_prompts(job.prompts, job.prompt_map,
                                                       domain_map=job.domain_map)
    total_rows = (count_rows(job.rollouts) or 0) if job.rollouts is not None else 0
    job.out.mkdir(parents=True, exist_ok=True)
    with Journal(job.out / "journal.jsonl", _fingerprint(job, config)) as journal:
        scorer = ChunkScorer(config, job.workers)
        try:
            if job.rollouts is not None:
                _score_rollouts(job, scorer, prompts, journal, progress, total_rows)
            else:
                _generate_and_score(job, scorer, prompts, journal, engine, progress)
        finally:
            scorer.close()
        return finalize(job, config, prompts, prompt_errors, prompt_rows, journal.records())


def _check_paths(job: FilterJob, engine: Any) -> None:
    """Inputs, the output folder and the policy, checked before the output folder is made."""
    from rewards.engines import resolve_model
    from rewards.paths import output_dir

    input_source(job.prompts, field="prompts")
    if job.rollouts is not None:
        input_source(job.rollouts, field="rollouts")
    output_dir(job.out, field="out")
    if job.policy is not None and engine is None:
        resolve_model(job.policy, field="policy")


def _fingerprint(job: FilterJob, config: RewardConfig) -> str:
    """Everything that decides the journaled scores; the band and buckets do not."""
    parts: dict[str, Any] = {"config": config.content_hash(),
                             "prompts": source_fingerprint(job.prompts),
                             "map": dict(job.prompt_map)}
    if job.domain_map:
        parts["domain_map"] = dict(job.domain_map)
    if job.rollouts is not None:
        parts["rollouts"] = source_fingerprint(job.rollouts)
    else:
        parts.update(policy=job.policy, n=job.n, generation=asdict(job.generation))
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


class _Counts:
    """Running counts for the progress display."""

    def __init__(self, records: Iterable[Mapping[str, Any]]) -> None:
        self.counts: Counter[str] = Counter()
        self.rows = 0
        for record in records:
            self.add(record)

    def add(self, record: Mapping[str, Any]) -> None:
        for _, _, value, _ in record["scores"]:
            self.counts["scored" if value is not None else "abstained"] += 1
        self.counts["errors"] += len(record["errors"])
        self.rows += record["rows"]


def _open_progress(progress: Callable[[int, int], Progress] | None, total: int,
                   done: int) -> Progress:
    return progress(total, done) if progress else (lambda rows, counts: None)


def _score_rollouts(job: FilterJob, scorer: ChunkScorer, prompts: Mapping[str, PromptRecord],
                    journal: Journal, progress: Callable[[int, int], Progress] | None,
                    total_rows: int) -> None:
    rollouts = job.rollouts
    assert rollouts is not None  # FilterJob holds exactly one of rollouts and policy
    after = journal.last["end"] if journal.last else 0
    counts = _Counts(journal.records())
    update = _open_progress(progress, total_rows, counts.rows)
    Chunk = list[tuple[int, Sample | ErrorRow]]

    def chunks() -> Iterator[tuple[Chunk, list[Sample]]]:
        chunk: Chunk = []
        for line, item in iter_rollouts(rollouts, prompts, after=after):
            chunk.append((line, item))
            if len(chunk) >= job.chunk_size:
                yield chunk, [s for _, s in chunk if isinstance(s, Sample)]
                chunk = []
        if chunk:
            yield chunk, [s for _, s in chunk if isinstance(s, Sample)]

    for chunk, results in scorer.map(chunks()):
        samples = [(line, item) for line, item in chunk if isinstance(item, Sample)]
        record: dict[str, Any] = {"kind": "chunk", "start": chunk[0][0], "end": chunk[-1][0],
                                  "rows": len(chunk), "scores": [], "errors": []}
        for (line, sample), (value, reason, error) in zip(samples, results):
            record["scores"].append([line, sample.group, value, reason])
            if error is not None:
                record["errors"].append(ErrorRow(str(job.rollouts), line, "completion",
                                                 f"reward raised {error}").as_dict())
        record["errors"] += [item.as_dict() for _, item in chunk if isinstance(item, ErrorRow)]
        record["errors"].sort(key=lambda e: e["line"])
        journal.append(record)
        counts.add(record)
        update(len(chunk), counts.counts)


def _generate_and_score(job: FilterJob, scorer: ChunkScorer, prompts: Mapping[str, PromptRecord],
                        journal: Journal, engine: Any,
                        progress: Callable[[int, int], Progress] | None) -> None:
    assert job.policy is not None  # FilterJob holds exactly one of rollouts and policy
    ids = list(prompts)
    start = journal.last["end"] if journal.last else 0
    if start >= len(ids):
        return
    gen = job.generation
    if engine is None:
        from rewards.engines import load_engine

        engine = load_engine(job.policy, backend=gen.backend)
        try:
            _generate_chunks(job, scorer, prompts, ids, start, journal, engine, progress)
        finally:
            engine.close()
    else:
        _generate_chunks(job, scorer, prompts, ids, start, journal, engine, progress)


def _generate_chunks(job: FilterJob, scorer: ChunkScorer, prompts: Mapping[str, PromptRecord],
                     ids: list[str], start: int, journal: Journal, engine: Any,
                     progress: Callable[[int, int], Progress] | None) -> None:
    gen = job.generation
    counts = _Counts(journal.records())
    update = _open_progress(progress, len(ids) * job.n, start * job.n)
    for begin in range(start, len(ids), gen.prompts_per_round):
        batch = [prompts[i] for i in ids[begin:begin + gen.prompts_per_round]]
        generations = engine.generate([r.prompt for r in batch], n=job.n,
                                      max_tokens=gen.max_tokens, temperature=gen.temperature,
                                      top_p=gen.top_p, seed=gen.seed + begin * job.n)
        if len(generations) != len(batch):
            raise EngineError(f"engine returned {len(generations)} results for {len(batch)} "
                              "prompts")
        samples = [prompt_sample(r, g.text) for r, outs in zip(batch, generations) for g in outs]
        finish = [g.finish_reason for outs in generations for g in outs]
        results = scorer.score(samples)
        record: dict[str, Any] = {"kind": "chunk", "start": begin, "end": begin + len(batch),
                                  "rows": len(samples), "scores": [], "completions": [],
                                  "errors": []}
        for k, (sample, (value, reason, error), fin) in enumerate(zip(samples, results, finish)):
            record["scores"].append([k, sample.group, value, reason])
            record["completions"].append([sample.completion, fin])
            if error is not None:
                record["errors"].append(ErrorRow(f"<policy {job.policy}>", None, "completion",
                                                 f"prompt {sample.group}: reward raised "
                                                 f"{error}").as_dict())
        journal.append(record)
        counts.add(record)
        update(len(samples), counts.counts)
