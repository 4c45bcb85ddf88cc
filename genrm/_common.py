"""Helpers shared by the generative and discriminative reward models."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rewards.engines import shared_engine

__all__ = ["prompt_text", "rm_conversation", "shared_engine"]  # shared_engine: rewards.engines


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
