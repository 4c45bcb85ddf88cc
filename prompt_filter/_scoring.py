"""Scoring chunks of samples for the filter job: in this process, or in worker processes that
each build the reward from the config (to use more than one core on large inputs). Results
come back in submission order either way, so the journal is the same for any worker count."""

from __future__ import annotations

import math
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import replace
from typing import Any, TypeVar

from rewards.config import RewardConfig, parse_config
from rewards.errors import ConfigError
from rewards.scoring import score_batch
from rewards.types import Reward, Sample

__all__ = ["ChunkScorer", "Result", "score_samples"]

Result = tuple[float | None, str, str | None]
"""(value, reason, error message if the reward raised on this sample)."""
T = TypeVar("T")


def score_samples(reward: Reward, samples: Sequence[Sample]) -> list[Result]:
    """(value, reason, error) per sample, scored by `rewards.scoring.score_batch`: broken
    infrastructure raises, a poison sample is marked `reward_error`."""
    scored = score_batch(reward, samples)
    out: list[Result] = []
    for i, score in enumerate(scored.scores):
        error = scored.error_message(i)
        if error is not None:
            out.append((None, "reward_error", error))
        elif score.value is not None and not math.isfinite(score.value):
            out.append((None, "non_finite", f"reward returned {score.value}"))
        else:
            out.append((None if score.value is None else float(score.value), score.reason, None))
    return out


def _raw_reward(config: RewardConfig) -> Reward:
    from rewards.build import build_reward

    # Pass rates need raw rewards: a batch normalization would make them relative to a batch.
    return build_reward(replace(config, normalize="none"))


_WORKER_REWARD: Reward | None = None


def _init_worker(document: dict[str, Any], parent: int) -> None:
    global _WORKER_REWARD
    # A parent killed with SIGKILL cannot shut its pool down: its workers notice on their own.
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    _WORKER_REWARD = _raw_reward(parse_config(document, source="<filter-prompts worker>"))


def _exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _score_in_worker(samples: list[Sample]) -> list[Result]:
    assert _WORKER_REWARD is not None
    return score_samples(_WORKER_REWARD, samples)


class ChunkScorer:
    """Scores chunks with the config's reward (batch normalization off), `workers` at a time.

    With `workers=1` everything runs here. With more, worker processes are spawned (not
    forked: the parent may hold threads), each builds its own reward, and up to two chunks per
    worker are in flight while the next ones are read."""

    def __init__(self, config: RewardConfig, workers: int = 1) -> None:
        if workers < 1:
            raise ConfigError(f"workers must be >= 1, got {workers}")
        self.workers = workers
        self._reward: Reward | None = None
        self._pool: ProcessPoolExecutor | None = None
        if workers == 1:
            self._reward = _raw_reward(config)
        else:
            _raw_reward(config)  # a bad config fails here, before any worker starts
            self._pool = ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker, initargs=(config.document(), os.getpid()))

    def score(self, samples: Sequence[Sample]) -> list[Result]:
        """One chunk, now."""
        if self._pool is None:
            assert self._reward is not None
            return score_samples(self._reward, samples)
        return self._pool.submit(_score_in_worker, list(samples)).result()

    def map(self, chunks: Iterable[tuple[T, Sequence[Sample]]]) -> Iterator[tuple[T, list[Result]]]:
        """(tag, results) per (tag, samples) chunk, in the order given."""
        if self._pool is None:
            for tag, samples in chunks:
                yield tag, self.score(samples)
            return
        window: deque[tuple[T, Future[list[Result]]]] = deque()
        for tag, samples in chunks:
            window.append((tag, self._pool.submit(_score_in_worker, list(samples))))
            if len(window) >= 2 * self.workers:
                done_tag, future = window.popleft()
                yield done_tag, future.result()
        while window:
            done_tag, future = window.popleft()
            yield done_tag, future.result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
