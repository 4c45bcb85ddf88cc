"""Bradley-Terry training of a discriminative reward model on preference pairs.

    loss = -log sigmoid(r(chosen) - r(rejected) - margin)          (Ouyang et al. 2022, eq. 1;
                                                                    margin as in Llama 2, eq. 2)

The model is a sequence classifier with one output, initialised from any causal LM or reward
model folder; checkpoints are saved in Hugging Face format (`save_pretrained`), which both
transformers and vLLM (`runner="pooling"`) load. Inputs are rendered exactly as
`genrm.discriminative.DiscriminativeRM` renders them at scoring time.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from genrm._common import rm_conversation
from rewards.deps import require
from rewards.engines import hf_tokenize
from rewards.errors import ConfigError, InputError
from rewards.options import check_fields, check_range

__all__ = ["PreferencePair", "TrainConfig", "TrainResult", "bradley_terry_loss", "load_pairs",
           "split_pairs", "train_reward_model"]


@dataclass(frozen=True)
class PreferencePair:
    """One preference: `chosen` is better than `rejected` as a reply to `prompt`."""

    prompt: str | list[dict[str, Any]]
    chosen: str
    rejected: str
    margin: float | None = None
    """Per-pair margin (e.g. from a rating gap); None uses `TrainConfig.margin`."""


@dataclass(frozen=True)
class TrainConfig:
    """Reward-model training options."""

    epochs: int = 3
    """Passes over the training pairs."""
    batch_size: int = 8
    """Pairs per optimizer step."""
    lr: float = 1e-3
    """AdamW learning rate (small models; use ~1e-5 for billion-parameter bases)."""
    weight_decay: float = 0.0
    """AdamW weight decay."""
    margin: float = 0.0
    """Margin m in -log sigmoid(r_c - r_r - m) for pairs without their own."""
    eval_fraction: float = 0.2
    """Share of pairs held out for evaluation (shuffled with `seed`)."""
    max_length: int = 1024
    """Longest input in tokens; longer ones keep their end (the pooled last token)."""
    seed: int = 0
    """Shuffling, split and initialisation of the new score head."""
    save_every_epoch: bool = False
    """Also save out/checkpoints/epoch-N after every epoch."""

    def __post_init__(self) -> None:
        check_fields(self)
        for name in ("epochs", "batch_size", "max_length"):
            check_range(name, getattr(self, name), ge=1)
        check_range("eval_fraction", self.eval_fraction, ge=0, lt=1)


@dataclass(frozen=True)
class TrainResult:
    """What a training run did."""

    out_dir: Path
    train_pairs: int
    eval_pairs: int
    eval_accuracy: float | None
    """Share of held-out pairs with r(chosen) > r(rejected) (None without an eval split)."""
    eval_loss: float | None
    history: list[dict[str, float]] = field(default_factory=list)
    """Per epoch: train loss, eval loss and accuracy, seconds."""


def bradley_terry_loss(r_chosen: Any, r_rejected: Any, margin: Any = 0.0) -> Any:
    """Mean of -log sigmoid(r_chosen - r_rejected - margin); tensors of shape (B,)."""
    import torch.nn.functional as F

    return -F.logsigmoid(r_chosen - r_rejected - margin).mean()  # (B,) -> ()


def load_pairs(path: str | Path) -> list[PreferencePair]:
    """Preference pairs from JSONL rows {"prompt", "chosen", "rejected", "margin"?}."""
    from rewards.io import iter_rows

    pairs = []
    for line, row in iter_rows(path):
        if isinstance(row, InputError):
            raise row
        for key in ("prompt", "chosen", "rejected"):
            if key not in row:
                raise InputError("missing field", source=str(path), line=line, field=key)
        for key in ("chosen", "rejected"):
            if not isinstance(row[key], str):
                raise InputError("must be a string", source=str(path), line=line, field=key)
        margin = row.get("margin")
        if margin is not None and not isinstance(margin, (int, float)):
            raise InputError("must be a number", source=str(path), line=line, field="margin")
        pairs.append(PreferencePair(row["prompt"], row["chosen"], row["rejected"],
                                    None if margin is None else float(margin)))
    return pairs


def split_pairs(pairs: Sequence[PreferencePair], eval_fraction: float,
                seed: int = 0) -> tuple[list[PreferencePair], list[PreferencePair]]:
    """(train, eval), shuffled with `seed`; at least one training pair."""
    if not 0 <= eval_fraction < 1:
        raise ConfigError(f"eval_fraction must be in [0, 1), got {eval_fraction}")
    order = list(pairs)
    random.Random(seed).shuffle(order)
    n_eval = min(round(len(order) * eval_fraction), len(order) - 1)
    return order[n_eval:], order[:n_eval]


def train_reward_model(pairs: Sequence[PreferencePair], base: str | Path, out: str | Path,
                       config: TrainConfig = TrainConfig(),
                       log: Callable[[str], None] = print) -> TrainResult:
    """Train a one-output sequence classifier from `base` on `pairs`; save it to `out`.
    The base model and the output folder are checked before any training."""
    from rewards.engines import resolve_model
    from rewards.paths import output_dir

    torch = require("torch", extra="train", feature="reward-model training")
    transformers = require("transformers", extra="train", feature="reward-model training")
    if not pairs:
        raise ConfigError("no preference pairs to train on")
    base = resolve_model(str(base), field="base")
    out_dir = output_dir(out, field="out")
    train, held_out = split_pairs(pairs, config.eval_fraction, config.seed)
    torch.manual_seed(config.seed)
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(str(base))
        model = transformers.AutoModelForSequenceClassification.from_pretrained(
            str(base), num_labels=1, dtype=torch.float32)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot load base model {str(base)!r}: {exc}") from exc
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    model.config.pad_token_id = tokenizer.pad_token_id
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr,
                                  weight_decay=config.weight_decay)

    def encode(prompt: Any, completion: str) -> list[int]:
        ids = hf_tokenize(tokenizer, rm_conversation(prompt, completion))
        return ids[-config.max_length:]

    def rewards(batch: Sequence[PreferencePair]) -> tuple[Any, Any]:
        rows = [encode(p.prompt, p.chosen) for p in batch] + \
               [encode(p.prompt, p.rejected) for p in batch]
        ids, mask, positions = _left_pad(torch, rows, tokenizer.pad_token_id)  # (2B, T)
        r = model(input_ids=ids, attention_mask=mask, position_ids=positions).logits[:, 0]
        return r[:len(batch)], r[len(batch):]  # (B,), (B,)

    def margins(batch: Sequence[PreferencePair]) -> Any:
        return torch.tensor([config.margin if p.margin is None else p.margin for p in batch])

    history: list[dict[str, float]] = []
    rng = random.Random(config.seed)
    for epoch in range(1, config.epochs + 1):
        started = time.monotonic()
        model.train()
        order = list(train)
        rng.shuffle(order)
        losses = []
        for start in range(0, len(order), config.batch_size):
            batch = order[start:start + config.batch_size]
            r_chosen, r_rejected = rewards(batch)
            loss = bradley_terry_loss(r_chosen, r_rejected, margins(batch))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        stats = {"epoch": float(epoch), "train_loss": sum(losses) / len(losses)}
        stats.update(_evaluate(torch, model, rewards, margins, held_out, config.batch_size))
        stats["seconds"] = time.monotonic() - started
        history.append(stats)
        log("epoch {epoch:.0f}: train_loss {train_loss:.4f}".format(**stats) + (
            " eval_loss {eval_loss:.4f} eval_accuracy {eval_accuracy:.3f}".format(**stats)
            if held_out else ""))
        if config.save_every_epoch:
            _save(model, tokenizer, out_dir / "checkpoints" / f"epoch-{epoch}")
    _save(model, tokenizer, out_dir)
    last = history[-1]
    result = TrainResult(out_dir, len(train), len(held_out), last.get("eval_accuracy"),
                         last.get("eval_loss"), history)
    metrics = {**asdict(result), "out_dir": str(out_dir), "config": asdict(config),
               "base": str(base)}
    (out_dir / "train_metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    return result


def _evaluate(torch: Any, model: Any, rewards: Callable[..., Any], margins: Callable[..., Any],
              pairs: Sequence[PreferencePair], batch_size: int) -> dict[str, float]:
    if not pairs:
        return {}
    model.eval()
    correct, loss_sum = 0, 0.0
    with torch.inference_mode():
        for start in range(0, len(pairs), batch_size):
            batch = pairs[start:start + batch_size]
            r_chosen, r_rejected = rewards(batch)
            correct += int((r_chosen > r_rejected).sum())
            loss_sum += float(bradley_terry_loss(r_chosen, r_rejected, margins(batch))) * len(batch)
    return {"eval_loss": loss_sum / len(pairs), "eval_accuracy": correct / len(pairs)}


def _left_pad(torch: Any, rows: Sequence[Sequence[int]], pad_id: int) -> tuple[Any, Any, Any]:
    """Left-padded ids, attention mask, position ids, each (B, T): the last position is every
    row's last real token, the one the classifier pools."""
    width = max(len(r) for r in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, r in enumerate(rows):
        ids[i, width - len(r):] = torch.tensor(r, dtype=torch.long)
        mask[i, width - len(r):] = 1
    return ids, mask, (mask.cumsum(-1) - 1).clamp(min=0)


def _save(model: Any, tokenizer: Any, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out))
    tokenizer.save_pretrained(str(out))
