"""Scoring a batch: the one path that the CLI, the prompt filter, the HTTP server, the
framework adapters and the Celery tasks all take.

`score_batch` scores the samples as one batch. If the reward raises, and the error is not
broken infrastructure (`INFRASTRUCTURE_ERRORS`: a bad config, an engine or sandbox that cannot
run), the samples are scored one by one so that only the poison sample becomes an error row
and the rest keep their scores. The batch normalization of a `DomainRouter` runs after that,
over the whole batch, so one poison sample does not change how the others are normalized.
Every reward's answer goes through `check_scores`: one `Score` per sample, in order."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rewards._types import Reward, Sample, Score
from rewards.errors import INFRASTRUCTURE_ERRORS, ConfigError

__all__ = ["INFRASTRUCTURE_ERRORS", "ScoredBatch", "check_scores", "score_batch"]

log = logging.getLogger("rewards.scoring")

ERROR_REASON = "error"
"""The reason of a sample whose scoring raised (a poison sample)."""


@dataclass(frozen=True)
class ScoredBatch:
    """One `Score` per sample, in order; a poison sample's is `Score(None, "error")` and its
    exception is in `errors` under its position."""

    scores: list[Score]
    errors: dict[int, Exception] = field(default_factory=dict)

    def error_message(self, i: int) -> str | None:
        """`"ValueError: ..."` for a poison sample, else None."""
        exc = self.errors.get(i)
        return None if exc is None else f"{type(exc).__name__}: {exc}"


def check_scores(reward: Any, scores: Any, n: int) -> list[Score]:
    """What a reward returned for `n` samples, checked: a list of `n` `Score`s. Anything else
    is a broken reward (a `ConfigError` naming it), never a silently shifted or dropped row."""
    name = getattr(reward, "name", type(reward).__name__)
    if not isinstance(scores, Sequence) or isinstance(scores, (str, bytes)):
        raise ConfigError(f"reward {name!r} returned {type(scores).__name__}, not a list of "
                          "Scores")
    if len(scores) != n:
        raise ConfigError(f"reward {name!r} returned {len(scores)} scores for {n} samples: a "
                          "Reward returns one Score per sample, in order")
    bad = next((s for s in scores if not isinstance(s, Score)), None)
    if bad is not None:
        raise ConfigError(f"reward {name!r} returned a {type(bad).__name__} among its scores, "
                          "not a Score")
    return list(scores)


def score_batch(reward: Reward, samples: Sequence[Sample], *,
                interrupts: tuple[type[BaseException], ...] = ()) -> ScoredBatch:
    """Score `samples` with `reward` (see the module docstring). Broken infrastructure
    raises; so do `interrupts`, the exceptions by which the caller's context stops scoring
    (Celery's soft time limit), which are never taken for a poison sample."""
    from rewards.mixing import DomainRouter

    if not samples:
        return ScoredBatch([])
    scorer: Reward = reward.raw if isinstance(reward, DomainRouter) else reward
    stop = (*INFRASTRUCTURE_ERRORS, *interrupts)
    errors: dict[int, Exception] = {}
    try:
        scores = check_scores(scorer, scorer.score(samples), len(samples))
    except stop:
        raise
    except Exception:  # noqa: BLE001 - find the poison sample: one by one below
        log.info("a batch of %d samples raised; scoring them one by one", len(samples))
        scores = []
        for i, sample in enumerate(samples):
            try:
                scores.extend(check_scores(scorer, scorer.score([sample]), 1))
            except stop:
                raise
            except Exception as exc:  # noqa: BLE001 - a poison sample: an error row
                log.warning("sample %d raised: %s: %s", i, type(exc).__name__, exc)
                scores.append(Score(None, ERROR_REASON))
                errors[i] = exc
    if isinstance(reward, DomainRouter):
        scores = reward.normalizer(samples, scores)
    return ScoredBatch(scores, errors)
