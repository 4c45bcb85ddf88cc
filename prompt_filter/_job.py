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
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from prompt_filter._band import Band
from prompt_filter._finalize import finalize
from prompt_filter._inputs import iter_rollouts
from prompt_filter._journal import Journal
from prompt_filter._pass_rate import DEFAULT_N, Mode
from prompt_filter._report import require_matplotlib
from prompt_filter._scoring import ChunkScorer
from rewards.config import RewardConfig
from rewards.errors import ConfigError, EngineError
from rewards.io import (
    ErrorRow,
    PromptRecord,
    count_rows,
    input_source,
    read_prompts,
    source_fingerprint,
)
from rewards.types import Sample

__all__ = ["FilterJob", "GenerationOptions", "run_filter"]

@dataclass(frozen=True)
class GenerationOptions:
    """How rollouts are generated in `--policy` mode."""

    backend: Literal["auto", "transformers", "vllm", "vllm-server"] = "auto"
    """Inference engine for `rewards.engines.load_engine`."""
    max_tokens: int = 1024
    """Longest completion, in tokens."""
    temperature: float = 1.0
    """Sampling temperature: rollouts for a pass rate should be sampled as in training."""
    top_p: float = 1.0
    """Nucleus sampling mass."""
    seed: int = 0
    """Base seed; the chunk starting at prompt i uses seed + i * n (the engines give prompt k of
    a call the seeds from seed + k * n on), so every sample has its own seed and a resumed run
    regenerates the same chunk the same way."""
    prompts_per_round: int = 32
    """Prompts per generate call, and per journal chunk."""


@dataclass(frozen=True)
class FilterJob:
    """One filter-prompts run."""

    prompts: Path
    """Prompt rows: any input `rewards.io.iter_rows` reads (JSONL, Parquet, a dataset folder ...)."""
    out: Path
    """Output folder (also holds the journal that makes the run resumable)."""
    rollouts: Path | None = None
    """Pre-generated rollout rows (`id` of the prompt, `completion`); or set `policy`."""
    policy: str | None = None
    """Model (folder or served name) to generate rollouts with; or set `rollouts`."""
    n: int = DEFAULT_N
    """Rollouts per prompt (with `rollouts`: the first n of each prompt are used)."""
    band: Band = field(default_factory=Band)
    """Which pass rates are kept."""
    mode: Mode = "auto"
    """binary (pass = reward >= threshold), continuous (mean reward) or auto (binary when all
    rewards are 0 or 1)."""
    threshold: float = 0.5
    """Reward at which a rollout passes, in binary mode."""
    buckets: int | None = None
    """k quantile buckets over the kept prompts; None: easy (>= easy_at) / hard."""
    easy_at: float = 0.5
    """Pass rate from which a kept prompt is easy, without `buckets`."""
    prompt_map: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Prompt column -> field (id, prompt, reference, domain)."""
    domain_map: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """A dataset's domain value -> the config domain that scores it (`--domain-map`)."""
    chunk_size: int = 1024
    """Rollout rows scored per batch, and per journal chunk, with `rollouts`."""
    generation: GenerationOptions = field(default_factory=GenerationOptions)
    """Generation options, with `policy`."""
    plot: bool = True
    """Write the pass-rate histogram PNG (needs matplotlib)."""
    workers: int = 1
    """Processes scoring chunks in parallel (each builds the reward); 1: score in this one."""

    def __post_init__(self) -> None:
        if (self.rollouts is None) == (self.policy is None):
            raise ConfigError("give exactly one of --rollouts FILE and --policy MODEL")
        if min(self.n, self.chunk_size, self.generation.prompts_per_round, self.workers) < 1:
            raise ConfigError("n, chunk size, prompts per round and workers must be >= 1")


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
    assert job.rollouts is not None
    after = journal.last["end"] if journal.last else 0
    counts = _Counts(journal.records())
    update = _open_progress(progress, total_rows, counts.rows)
    Chunk = list[tuple[int, Sample | ErrorRow]]

    def chunks() -> Iterator[tuple[Chunk, list[Sample]]]:
        chunk: Chunk = []
        for line, item in iter_rollouts(job.rollouts, prompts, after=after):
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
        samples = [Sample(r.prompt, g.text, reference=r.reference, domain=r.domain, group=r.id)
                   for r, outs in zip(batch, generations) for g in outs]
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
