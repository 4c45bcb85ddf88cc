"""The train config: the fields every built-in loop reads (`LoopConfig`, which `GRPOConfig` and
`PPOConfig` build on), the curriculum option, reading a config file with `--set` overrides
(`load_train_config`, through the one config loader `rewards.options.load_options`), and the
checks a run makes before it writes anything (`prepare_output_dir`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from rewards.envs import EnvConfig
from rewards.errors import ConfigError
from rewards.options import check_fields, check_range, load_options
from rl.losses import Aggregation

__all__ = ["MODEL_FIELDS", "PATH_FIELDS", "CurriculumConfig", "LoopConfig", "load_train_config",
           "prepare_output_dir"]

C = TypeVar("C", bound="LoopConfig")

ReportTo = Literal["tensorboard", "wandb", "mlflow", "trackio", "all", "none"]
"""A `report_to` entry: an experiment tracker (`rl._tracking`), "all" or "none"."""

PATH_FIELDS = ("reward_config", "prompts", "output_dir")
"""Config fields holding paths; relative ones are relative to the config file's folder."""
MODEL_FIELDS = ("model", "critic_model")
"""Config fields holding a model folder or hub id (`rewards.engines.resolve_model`); a
relative folder is relative to the config file's folder, like `PATH_FIELDS`."""


@dataclass(frozen=True)
class CurriculumConfig:
    """Serve prompts in curriculum order instead of shuffled epochs (`prompt_filter`)."""

    column: str = "bucket"
    """Prompt column holding each prompt's bucket (e.g. `easy`/`hard` from the prompt filter)."""
    order: tuple[str, ...] = ()
    """Buckets from first to last (easy to hard); empty: order of first appearance."""
    start: Mapping[str, float] | None = None
    """Mixing schedule: bucket weights at the first prompt; None: one bucket after another."""
    end: Mapping[str, float] | None = None
    """Mixing schedule: bucket weights reached after `steps` prompts; None: `start` throughout."""
    steps: int = 1
    """Prompts over which the weights move from `start` to `end`."""

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True)
class LoopConfig:
    """The fields GRPO and PPO share, each documented once. The loops give `output_dir`,
    `prompts_per_step` and `num_generations` their own defaults (`GRPOConfig`, `PPOConfig`)."""

    model: str
    """Policy to train: a local Hugging Face causal LM folder (its tokenizer alongside)."""
    reward_config: str
    """Reward config YAML (`rewards.build.build_reward`): verifiable, GenRM, RM, mixtures,
    Celery; the reward lands on a completion's last token."""
    prompts: str
    """Prompts, JSONL or Parquet: `prompt` (text or chat messages); `reference`, `domain`, `id`."""
    output_dir: str
    """Where metrics.jsonl, reward_curve.png, checkpoints/ and final/ go."""
    prompts_per_step: int
    """Prompts per batch (GRPO: the groups)."""
    num_generations: int
    """Completions sampled per prompt (GRPO: the group size G)."""
    steps: int = 100
    """Training steps; each is one rollout batch and the updates on it (GRPO's
    `num_iterations` optimizer steps, PPO's `ppo_epochs` passes)."""
    max_prompt_tokens: int = 512
    """Longer prompts keep their last tokens."""
    max_completion_tokens: int = 256
    """Generation budget per completion."""
    temperature: float = 1.0
    """Sampling temperature (log-probs are computed at the same temperature)."""
    top_p: float = 1.0
    """Nucleus sampling."""
    chat_template: bool = False
    """Wrap text prompts in the tokenizer's chat template (chat-message prompts always are)."""
    learning_rate: float = 1e-6
    """AdamW learning rate of the policy (constant)."""
    weight_decay: float = 0.0
    """AdamW weight decay."""
    max_grad_norm: float = 1.0
    """Gradient clipping by global norm (PPO: policy and critic together); 0 turns it off."""
    epsilon: float = 0.2
    """Lower clip range of the policy ratio: clipped below at 1 - epsilon."""
    epsilon_high: float | None = None
    """Upper clip range (DAPO clip-higher, e.g. 0.28); None: same as epsilon."""
    loss_aggregation: Aggregation = "token-mean"
    """token-mean (DAPO), seq-mean-token-mean (GRPO) or constant-length (Dr. GRPO); PPO
    aggregates its value loss the same way."""
    mask_truncated: bool = False
    """Leave completions that hit the length budget out of the loss (DAPO)."""
    curriculum: CurriculumConfig | None = None
    """Serve prompts by difficulty bucket (prompt_filter.curriculum) instead of shuffled epochs."""
    rollout_backend: Literal["transformers", "vllm"] = "transformers"
    """transformers: `generate` on the live policy; vllm: vLLM engine with weights synced each step."""
    vllm_options: Mapping[str, Any] = field(default_factory=dict)
    """Extra keyword arguments for `vllm.LLM` (e.g. gpu_memory_utilization)."""
    dtype: Literal["float32", "bfloat16"] = "float32"
    """Parameter dtype of the models: the policy, the reference and PPO's critic."""
    device: str = "auto"
    """Where the models live and train: "auto" (the first CUDA GPU when there is one, else
    the CPU), "cpu", "cuda" or "cuda:N"."""
    seed: int = 0
    """Seeds sampling, prompt order and initialization."""
    save_every: int = 0
    """Checkpoint every this many steps (and at the end); 0: only at the end."""
    keep_checkpoints: int = 1
    """How many of the newest checkpoints to keep."""
    resume: bool = False
    """Continue from the newest checkpoint in output_dir, if there is one (GRPO under dynamic
    sampling: kept groups carried between batches at that moment are not saved and are
    generated afresh)."""
    progress: bool = True
    """Progress bar on stderr."""
    report_to: tuple[ReportTo, ...] = ()
    """Experiment trackers that get every step's metrics (as TRL's `report_to`): any of
    tensorboard, wandb, mlflow, trackio; "all": every one of them that is installed; "none"
    or empty: none. A single name may be given without a list. metrics.jsonl is always
    written (docs/tracking.md)."""
    project: str | None = None
    """W&B project, MLflow experiment and trackio project; None: $WANDB_PROJECT or
    $MLFLOW_EXPERIMENT_NAME where set, else "rewards-engine"."""
    run_name: str | None = None
    """The run's name in the trackers; None: the name of output_dir's folder."""
    log_completions_every: int = 0
    """Every this many steps, log a table of sampled completions (step, prompt, completion,
    reward, reason; GRPO: advantage) to completions.jsonl and the trackers; 0: off."""
    log_completions_rows: int = 8
    """Completions in each table (the first of the batch)."""
    plot_every: int = 10
    """Rewrite reward_curve.png every this many steps (and at the end); 0: only at the end."""
    environment: EnvConfig | None = None
    """Multi-turn episodes against this environment (`rewards.envs.EnvConfig`; its final
    reward is the reward config's); None: one completion per rollout (an episode of one
    step). Both loops run rollouts through `rl._episodes.Rollouts`."""
    max_episode_tokens: int = 1024
    """With an environment: tokens of all turns after the prompt (actions and observations)."""
    reward_overlap: int = 1
    """Score while generating: a step's prompts are generated in this many chunks of whole
    groups, and each chunk is scored on a background thread as soon as it is generated,
    while the next chunk generates; only the last chunk's scoring is left after the last
    generation (`time/reward_wait`). 1: generate the whole batch, then score it. Worth 2-4
    when the reward is slow (sandbox, judge); smaller generation batches cost generation
    throughput, so a fast reward is best left at 1. Single completions only (multi-turn
    episodes score after their last turn). The transformers backend samples differently in
    chunks (one RNG stream in another order); vLLM's per-request seeds are kept, and a
    completion's score is the same either way (docs/training.md)."""

    @property
    def tokens_after_prompt(self) -> int:
        """The most tokens a rollout has after its prompt: a completion's budget, or with an
        environment an episode's (the vLLM context and the constant-length loss read it)."""
        return self.max_completion_tokens if self.environment is None \
            else self.max_episode_tokens

    @classmethod
    def expand_document(cls, value: Any) -> Any:
        """`report_to: wandb` (one name, TRL's form) reads as `report_to: [wandb]`."""
        if isinstance(value, Mapping) and isinstance(value.get("report_to"), str):
            return {**value, "report_to": [value["report_to"]]}
        return value

    def __post_init__(self) -> None:
        if isinstance(self.report_to, str):  # the one-name form, as in a document
            object.__setattr__(self, "report_to", (self.report_to,))
        check_fields(self)
        object.__setattr__(self, "report_to", _report_to(self.report_to))
        for name in ("log_completions_every", "plot_every"):
            check_range(name, getattr(self, name), ge=0)
        check_range("log_completions_rows", self.log_completions_rows, ge=1)
        check_range("reward_overlap", self.reward_overlap, ge=1)
        check_range("temperature", self.temperature, gt=0)  # both loops sample
        for name in ("steps", "prompts_per_step", "max_completion_tokens"):
            check_range(name, getattr(self, name), ge=1)
        if self.environment is not None:  # a turn must fit in an episode
            check_range("max_episode_tokens", self.max_episode_tokens,
                        ge=self.max_completion_tokens)


def _report_to(names: tuple[str, ...]) -> tuple[str, ...]:
    """`report_to` with "none" dropped and repeats removed; "all" stays (resolved against
    what is installed when the run starts, as transformers does)."""
    if "none" in names and len(set(names)) > 1:
        raise ConfigError(f"report_to: 'none' cannot be combined with other trackers, "
                          f"not {list(names)!r}")
    return tuple(dict.fromkeys(n for n in names if n != "none"))


def load_train_config(cls: type[C], source: str | Path | Mapping[str, Any],
                      overrides: Sequence[str] = ()) -> C:
    """A frozen train config from a YAML file (or a mapping) plus `KEY=VALUE` overrides
    (`rewards.overrides.apply_overrides`, the one `--set` parser: values parsed as YAML, KEY
    may be dotted, `vllm_options.enforce_eager=true`), loaded by
    `rewards.options.load_options`: unknown keys (with the
    nearest field) and wrongly typed values raise `ConfigError`. Relative paths are relative
    to the config file; so is a model that names a local folder (a hub id stays)."""
    from rewards.config import load_yaml
    from rewards.engines import is_local_model_path
    from rewards.overrides import apply_overrides

    base: Path | None = None
    where = cls.__name__
    if isinstance(source, Mapping):
        document: Any = dict(source)
    else:
        path = Path(source)
        document = load_yaml(path, what="train config") or {}
        base = path.resolve().parent
        where = f"train config {path}"
        if not isinstance(document, Mapping):
            raise ConfigError(f"{path}: a train config is a mapping of field: value")
        document = dict(document)
    document = apply_overrides(document, overrides)  # the one --set parser (dotted keys too)
    config = load_options(cls, document, where=where)
    if base is None:
        return config
    changes: dict[str, Any] = {}  # path fields only: each a str
    for name in PATH_FIELDS:
        value = getattr(config, name, None)
        if isinstance(value, str) and value and not Path(value).is_absolute():
            changes[name] = str(base / value)
    for name in MODEL_FIELDS:
        value = getattr(config, name, None)
        if isinstance(value, str) and value and is_local_model_path(value, base=base):
            changes[name] = str(base / Path(value).expanduser())
    return dataclasses.replace(config, **changes)


def prepare_output_dir(cfg: Any) -> Path:
    """Create `cfg.output_dir`, once everything a run reads before its first step is known to
    be there: the models (`MODEL_FIELDS`), the reward config file, the prompts (a file or a
    dataset folder), the `report_to` trackers' packages and an output folder that can be
    written. A run that cannot start leaves no folder behind."""
    from rewards.engines import resolve_model
    from rewards.io import input_source
    from rewards.paths import input_file, output_dir
    from rl._tracking import require_trackers

    for name in MODEL_FIELDS:
        value = getattr(cfg, name, None)
        if value is not None:
            resolve_model(value, field=name)
    input_file(cfg.reward_config, field="reward_config")
    input_source(cfg.prompts, field="prompts")  # a file or a datasets save_to_disk folder
    require_trackers(cfg.report_to)  # a tracker that is not installed fails before the run
    out = output_dir(cfg.output_dir, field="output_dir")
    out.mkdir(parents=True, exist_ok=True)
    return out
