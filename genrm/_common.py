"""Helpers shared by the generative and discriminative reward models."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

from rewards.engines import Backend, Engine, load_engine

__all__ = ["prompt_text", "rm_conversation", "shared_engine"]

_ENGINES: dict[tuple[str, str, tuple[tuple[str, str], ...]], Engine] = {}
_LOCK = threading.Lock()


def shared_engine(model: str, backend: Backend = "auto",
                  options: Mapping[str, Any] | None = None) -> Engine:
    """One engine per (model, backend, options) in this process: several rewards in one config
    (say a GenRM and a pass-rate filter on the same judge) load the model once."""
    options = dict(options or {})
    key = (str(model), backend, tuple(sorted((k, repr(v)) for k, v in options.items())))
    with _LOCK:
        if key not in _ENGINES:
            _ENGINES[key] = load_engine(str(model), backend=backend, **options)
        return _ENGINES[key]


def prompt_text(prompt: str | Sequence[Mapping[str, Any]]) -> str:
    """A prompt as plain text for a judge template: chat messages become "role: content" lines."""
    if isinstance(prompt, str):
        return prompt
    return "\n".join(f"{m.get('role', 'user')}: {m.get('content', '')}" for m in prompt)


def rm_conversation(prompt: str | Sequence[Mapping[str, Any]],
                    completion: str) -> list[dict[str, Any]]:
    """What a discriminative reward model scores: the prompt's messages plus the completion as
    the assistant's turn (a complete conversation, rendered with the chat template). Training
    and scoring both use this, so they see the same tokens."""
    messages = ([{"role": "user", "content": prompt}] if isinstance(prompt, str)
                else [dict(m) for m in prompt])
    return [*messages, {"role": "assistant", "content": completion}]
