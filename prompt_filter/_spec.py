"""What one `rewards filter-prompts` run is: `FilterJob` and, in `--policy` mode, its
`GenerationOptions`. Its own module so that the job (`_job.py`) and the outputs computed at
the end (`_finalize.py`) both import it, neither the other."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from prompt_filter._band import Band
from prompt_filter._pass_rate import DEFAULT_N, Mode
from rewards.errors import ConfigError

__all__ = ["FilterJob", "GenerationOptions"]


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
