"""Torch and the models of a run: the optional dependency (`require_torch`), the device
(`resolve_device`) and loading a causal LM for training (`load_causal_lm`). Torch is imported
inside the functions."""

from __future__ import annotations

from typing import Any

from rewards.deps import require
from rewards.errors import ConfigError

__all__ = ["load_causal_lm", "require_torch", "resolve_device"]


def require_torch() -> Any:
    """Import torch and transformers, or say which extra installs them."""
    torch = require("torch", extra="train", feature="training (the GRPO and PPO loops)")
    require("transformers", extra="train", feature="training (the GRPO and PPO loops)")
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


def load_causal_lm(path: str, *, dtype: Any, device: Any, frozen: bool = False) -> Any:
    """A causal LM on `device`, in eval mode: no dropout, so a policy ratio compares the same
    function twice (TRL's `disable_dropout`). `frozen`: no gradients (a reference model)."""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype).to(device).eval()
    if frozen:
        model.requires_grad_(False)
    return model
