"""What the GRPO and PPO loops share and is not the algorithm: reading the train config and
the prompts, the prompt stream (shuffled epochs or a curriculum), the metrics log and its
plot, checkpoints, seeding. Torch is imported inside the functions that need it."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import resource
import shutil
import time
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args, get_origin

from rewards.deps import require
from rewards.errors import ConfigError, InputError

__all__ = [
    "CurriculumConfig",
    "MetricsLog",
    "PromptStream",
    "latest_checkpoint",
    "load_checkpoint",
    "load_train_config",
    "prepare_output_dir",
    "read_prompts",
    "require_torch",
    "save_checkpoint",
    "seed_everything",
]

C = TypeVar("C")

PATH_FIELDS = ("reward_config", "prompts", "output_dir")
"""Config fields holding paths; relative ones are relative to the config file's folder."""
MODEL_FIELDS = ("model", "critic_model")
"""Config fields holding a model folder or hub id (`rewards.engines.resolve_model`); a
relative folder is relative to the config file's folder, like `PATH_FIELDS`."""


def require_torch() -> Any:
    """Import torch and transformers, or say which extra installs them."""
    torch = require("torch", extra="train", feature="the training loops")
    require("transformers", extra="train", feature="the training loops")
    return torch


def resolve_device(name: str) -> Any:
    """The torch device of a config's `device`: "auto" is the first CUDA GPU when there is
    one, else the CPU; anything else must be a device torch knows ("cpu", "cuda", "cuda:1")."""
    import torch

    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError as exc:
        raise ConfigError(f"device: {name!r} is not a torch device ({exc})") from exc
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ConfigError(f"device: {name!r} asks for CUDA, which this torch build or machine "
                          "does not have (use 'auto' or 'cpu')")
    return device


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


# --- config -----------------------------------------------------------------------------------

def load_train_config(cls: type[C], source: str | Path | Mapping[str, Any],
                      overrides: Sequence[str] = ()) -> C:
    """A frozen train config from a YAML file (or a mapping) plus `key=value` overrides
    (values parsed as YAML). Unknown keys and wrongly typed values raise `ConfigError`.
    A model that names a local path is made relative to the config too; a hub id stays."""
    from rewards.config import load_yaml, parse_yaml
    from rewards.engines import is_local_model_path

    base: Path | None = None
    if isinstance(source, Mapping):
        document: Any = dict(source)
    else:
        path = Path(source)
        document = load_yaml(path, what="train config") or {}
        base = path.resolve().parent
        if not isinstance(document, Mapping):
            raise ConfigError(f"{path}: a train config is a mapping of field: value")
        document = dict(document)
    for item in overrides:
        key, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"override {item!r}: use key=value")
        document[key.strip()] = parse_yaml(value, source=f"override {key.strip()}")
    config = _build(cls, document, where=cls.__name__)
    if base is None:
        return config
    changes = {}
    for name in PATH_FIELDS:
        value = getattr(config, name, None)
        if isinstance(value, str) and value and not Path(value).is_absolute():
            changes[name] = str(base / value)
    for name in MODEL_FIELDS:
        value = getattr(config, name, None)
        if isinstance(value, str) and value and is_local_model_path(value, base=base):
            changes[name] = str(base / Path(value).expanduser())
    return dataclasses.replace(config, **changes)  # type: ignore[type-var]


def prepare_output_dir(cfg: Any) -> Path:
    """Create `cfg.output_dir`, once everything a run reads before its first step is known to
    be there: the models (`MODEL_FIELDS`), the reward config and prompts files, and an output
    folder that can be written. A run that cannot start leaves no folder behind."""
    from rewards.engines import resolve_model
    from rewards.paths import input_file, output_dir

    for name in MODEL_FIELDS:
        value = getattr(cfg, name, None)
        if value is not None:
            resolve_model(value, field=name)
    for name in ("reward_config", "prompts"):
        input_file(getattr(cfg, name), field=name)
    out = output_dir(cfg.output_dir, field="output_dir")
    out.mkdir(parents=True, exist_ok=True)
    return out


def _build(cls: type[C], document: Mapping[str, Any], *, where: str) -> C:
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(document) - set(fields))
    if unknown:
        raise ConfigError(f"{where}: unknown keys {unknown}; known: {sorted(fields)}")
    missing = [n for n, f in fields.items() if n not in document
               and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    if missing:
        raise ConfigError(f"{where}: missing required keys {missing}")
    values = {name: _coerce(hints[name], value, f"{where}.{name}")
              for name, value in document.items()}
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: {exc}") from exc


def _coerce(hint: Any, value: Any, where: str) -> Any:
    origin, args = get_origin(hint), get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for option in (a for a in args if a is not type(None)):
            try:
                return _coerce(option, value, where)
            except ConfigError as exc:
                errors.append(str(exc))
        raise ConfigError(errors[0] if len(errors) == 1 else f"{where}: bad value {value!r}")
    if origin is Literal:
        if value not in args:
            raise ConfigError(f"{where}: must be one of {list(args)}, not {value!r}")
        return value
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{where}: expected a list, not {value!r}")
        return tuple(_coerce(args[0], v, where) for v in value)
    if origin in (Mapping, dict) or hint is dict:
        if not isinstance(value, Mapping):
            raise ConfigError(f"{where}: expected a mapping, not {value!r}")
        return types.MappingProxyType(dict(value))
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, Mapping):
            raise ConfigError(f"{where}: expected a mapping, not {value!r}")
        return _build(hint, value, where=where)
    if hint is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: expected true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where}: expected an integer, not {value!r}")
        return value
    if hint is float:
        if isinstance(value, str):  # PyYAML reads 3e-4 (no dot) as text
            try:
                value = float(value)
            except ValueError:
                pass
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where}: expected a number, not {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: expected a string, not {value!r}")
        return value
    return value


# --- prompts ----------------------------------------------------------------------------------

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


# --- metrics ----------------------------------------------------------------------------------

class MetricsLog:
    """Metrics as JSONL, one line per step (`{"step": n, "reward/mean": ...}`), and a PNG
    plot of the reward curve. On resume the lines after the checkpoint's step are dropped,
    so the log reads as one uninterrupted run."""

    def __init__(self, path: str | Path, *, resume_step: int = 0) -> None:
        self.path = Path(path)
        self.rows: list[dict[str, Any]] = []
        if resume_step > 0 and self.path.exists():
            for line in self.path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    if row.get("step", 0) <= resume_step:
                        self.rows.append(row)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("w") as fh:
            for row in self.rows:
                fh.write(json.dumps(row) + "\n")

    def log(self, step: int, metrics: Mapping[str, float]) -> dict[str, Any]:
        row = {"step": step, **{k: _plain_number(v) for k, v in metrics.items()}}
        self.rows.append(row)
        with self.path.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        return row

    def plot(self, png: str | Path, *, key: str = "reward/mean") -> Path | None:
        """Plot `key` against the step (matplotlib, no display needed). None if matplotlib
        is missing or nothing was logged."""
        points = [(r["step"], r[key]) for r in self.rows if r.get(key) is not None]
        if not points:
            return None
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return None
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", label=key)
        ax.set_xlabel("step")
        ax.set_ylabel(key)
        ax.grid(alpha=0.3)
        ax.set_title(f"{key} ({self.path.parent.name})")
        fig.tight_layout()
        fig.savefig(png, dpi=100)
        plt.close(fig)
        return Path(png)


def _plain_number(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


# --- models, step timings, the final save ----------------------------------------------------

def load_causal_lm(path: str, *, dtype: Any, device: Any, frozen: bool = False) -> Any:
    """A causal LM on `device`, in eval mode: no dropout, so a policy ratio compares the same
    function twice (TRL's `disable_dropout`). `frozen`: no gradients (a reference model)."""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype).to(device).eval()
    if frozen:
        model.requires_grad_(False)
    return model


def perf_metrics(step_start: float, *, rollout_seconds: float, train_seconds: float,
                 tokens: float) -> dict[str, float]:
    """`perf/...` of one step that began at `step_start` (a `time.perf_counter()` reading)."""
    step_seconds = time.perf_counter() - step_start
    return {"perf/rollout_seconds": rollout_seconds, "perf/train_seconds": train_seconds,
            "perf/step_seconds": step_seconds, "perf/tokens_per_second": tokens / step_seconds,
            "perf/peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def save_final(output_dir: Path, *, policy: Any, tokenizer: Any, log: MetricsLog) -> Path:
    """The end of a run: the policy (with its tokenizer) in `output_dir/final/`, and the reward
    curve plot. Returns the final folder."""
    final = output_dir / "final"
    policy.save_pretrained(str(final))
    tokenizer.save_pretrained(str(final))
    log.plot(output_dir / "reward_curve.png")
    return final


# --- checkpoints ------------------------------------------------------------------------------

def seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    torch.manual_seed(seed)


def save_checkpoint(output_dir: str | Path, step: int, *, policy: Any, tokenizer: Any,
                    state: Mapping[str, Any], keep: int = 1) -> Path:
    """`output_dir/checkpoints/step-N/`: the policy as a Hugging Face folder (loadable by
    transformers and vLLM) and `state.pt` (optimizers, critic, RNG states, prompt stream).
    Written to a temporary folder and renamed, so a crash never leaves half a checkpoint.
    Only the newest `keep` checkpoints stay."""
    import torch

    root = Path(output_dir) / "checkpoints"
    final = root / f"step-{step:06d}"
    tmp = root / f".tmp-step-{step:06d}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    policy.save_pretrained(str(tmp / "policy"))
    tokenizer.save_pretrained(str(tmp / "policy"))
    rng = {"python": random.getstate(), "torch": torch.get_rng_state(),
           "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None}
    torch.save({"step": step, "rng": rng, **state}, tmp / "state.pt")
    shutil.rmtree(final, ignore_errors=True)
    os.replace(tmp, final)
    for old in sorted(root.glob("step-*"))[:-max(keep, 1)]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def latest_checkpoint(output_dir: str | Path) -> Path | None:
    found = sorted((Path(output_dir) / "checkpoints").glob("step-*"))
    return found[-1] if found else None


def load_checkpoint(checkpoint: Path, *, policy: Any) -> dict[str, Any]:
    """Load the policy weights from `checkpoint` into `policy`, restore the RNG states, and
    return the rest of the saved state (step, optimizer, ...)."""
    import torch
    from transformers import AutoModelForCausalLM

    saved = AutoModelForCausalLM.from_pretrained(str(checkpoint / "policy"),
                                                 dtype=next(policy.parameters()).dtype)
    policy.load_state_dict(saved.state_dict())
    # on the CPU first: `load_state_dict` moves optimizer and critic state to their parameters'
    # device, so a run saved on a GPU resumes on another one (or on the CPU)
    state = torch.load(checkpoint / "state.pt", weights_only=False, map_location="cpu")
    random.setstate(state["rng"]["python"])
    torch.set_rng_state(state["rng"]["torch"])
    if state["rng"].get("cuda") is not None and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["rng"]["cuda"])  # rollouts sample on the GPU
    return state
