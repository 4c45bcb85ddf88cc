"""Discriminative reward model: a sequence classifier with one output scores (prompt,
completion) directly, served by vLLM pooling, a vLLM server (`--runner pooling`) or
transformers. Train one with `rewards train-rm` (see `genrm.train`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from genrm._common import rm_conversation, shared_engine
from rewards.engines import Backend, Engine
from rewards.errors import ConfigError
from rewards.options import check_fields, load_options
from rewards.types import Sample, Score

__all__ = ["DiscriminativeRM", "RMConfig"]


@dataclass(frozen=True)
class RMConfig:
    """The options of an `rm` reward component (`DiscriminativeRM(**options)`)."""

    model: str | None = None
    """The reward model: a local folder (a sequence classifier with one output) or a hub name."""
    url: str | None = None
    """The model behind a vLLM pooling server (`--runner pooling`), instead of `model`."""
    backend: Backend = "auto"
    """Inference backend (`rewards.engines`); auto with a `url` is vllm-server."""
    squash: Literal["none", "sigmoid"] = "none"
    """none: the raw score (the Bradley-Terry logit); sigmoid: mapped to (0, 1)."""
    engine_options: Mapping[str, Any] | None = None
    """Keyword arguments for the engine (`rewards.engines.load_engine`), e.g. dtype."""

    def __post_init__(self) -> None:
        check_fields(self)


class DiscriminativeRM:
    """Scalar rewards from a sequence-classification model (`num_labels=1`).

    The model sees the prompt's messages plus the completion as the assistant's turn, rendered
    with its chat template (see `genrm._common.rm_conversation`), exactly as in training.
    `squash="sigmoid"` maps the raw score to (0, 1); the default keeps it raw (the
    Bradley-Terry logit), which the mixing layer z-scores per domain. The options are the
    fields of `RMConfig` (loaded by `rewards.options.load_options`).
    """

    name = "rm"
    kind = "learned"

    def __init__(self, model: str | None = None, *, engine: Engine | None = None,
                 **options: Any) -> None:
        settings = load_options(RMConfig, {"model": model, **options}, where="rm")
        if engine is None and (settings.model or settings.url) is None:
            raise ConfigError("rm needs a model (a model folder or name), url (a vLLM pooling "
                              "server) or engine")
        self.model = settings.url or settings.model
        self.backend: Backend = ("vllm-server" if settings.url and settings.backend == "auto"
                                 else settings.backend)
        self.engine_options = dict(settings.engine_options or {})
        self.squash = settings.squash
        self._engine = engine

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = shared_engine(str(self.model), self.backend, self.engine_options)
        return self._engine

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        if not samples:
            return []
        raw = self.engine.sequence_scores(
            [rm_conversation(s.prompt, s.completion) for s in samples])
        if self.squash == "sigmoid":
            return [Score(_sigmoid(r), "ok", {"rm/raw": r}) for r in raw]
        return [Score(r) for r in raw]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)  # no overflow for very negative x
    return z / (1.0 + z)
