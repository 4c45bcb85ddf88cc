"""Checkpoints of a run: seeding, saving (atomically, keeping the newest few), finding and
loading the newest one to resume, and the final save. Torch is imported inside the functions."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rl._metrics import MetricsLog

__all__ = ["latest_checkpoint", "load_checkpoint", "save_checkpoint", "save_final",
           "seed_everything"]


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


def save_final(output_dir: Path, *, policy: Any, tokenizer: Any, log: MetricsLog) -> Path:
    """The end of a run: the policy (with its tokenizer) in `output_dir/final/`, and the reward
    curve plot. Returns the final folder."""
    final = output_dir / "final"
    policy.save_pretrained(str(final))
    tokenizer.save_pretrained(str(final))
    log.plot(output_dir / "reward_curve.png")
    return final
