"""The worker side: one task scores one chunk of samples with the worker's reward config.

What a chunk's task does, in order:
1. refuses a chunk sent under another config (content hashes differ): a `ConfigError`, never
   a silent difference between what the client asked for and what the worker scores;
2. drops a chunk whose result is already stored (a message handed out again after its worker
   died, e.g. by Redis after the visibility timeout): chunks are idempotent by id; and a
   chunk its client revoked (interrupted or closed), even if this worker missed the revoke;
3. counts earlier executions of this chunk that started and never finished (their worker was
   lost); a chunk that keeps killing workers is split by the client, and a single sample that
   does becomes an error row (`worker_lost`) instead of an endless redelivery loop;
4. writes a heartbeat (`PROGRESS` state with a counter) every `heartbeat_s` while it scores,
   so the client sees within seconds that a worker died and sends the chunk again;
5. scores the chunk as one batch; if the batch raises, scores it sample by sample so that only
   the poison sample becomes an error row (`Score(None, "error")`) and the worker lives on;
6. retries only infrastructure failures (a sandbox or an engine that cannot run, from
   `rewards.scoring.INFRASTRUCTURE_ERRORS`): a wrong answer is a score, never a retry.
   Past the soft time limit, the client splits the chunk; a single
   sample over the limit scores `Score(None, "timeout")`.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from integrations.celery._wire import decode_sample, encode_score
from rewards.config import RewardConfig, load_config
from rewards.errors import ConfigError
from rewards.scoring import INFRASTRUCTURE_ERRORS, score_batch
from rewards.types import Reward, Sample, Score

__all__ = ["HEARTBEAT_STATE", "MAX_LOST", "TASK_NAME", "WorkerState", "configure_worker",
           "register_tasks", "score_samples", "worker_config"]

log = logging.getLogger("integrations.celery.worker")

TASK_NAME = "rewards.score_chunk"

HEARTBEAT_STATE = "PROGRESS"
MAX_LOST = 3
"""Executions of one chunk that may die before the chunk counts as poison."""
MAX_RETRIES = 3
"""Retries of a chunk after an infrastructure failure (sandbox, inference engine)."""


@dataclass
class WorkerState:
    """The reward config a worker process scores with, and its reward (built once per
    process). How the worker runs (queues, concurrency) is `WorkerConfig`."""

    config: RewardConfig
    """The config as loaded; its content hash is checked against every chunk."""
    source: str
    """Where it came from, for error messages."""
    content_hash: str = ""
    """`config.content_hash()`."""
    _reward: Reward | None = field(default=None, repr=False)

    def reward(self) -> Reward:
        """The config's reward without batch normalization: a chunk is not a batch, so the
        client normalizes the whole batch once every chunk is back."""
        if self._reward is None:
            from rewards.build import build_reward
            from rewards.errors import RewardsError

            try:
                self._reward = build_reward(dataclasses.replace(self.config, normalize="none"))
            except RewardsError:
                raise
            except Exception as exc:
                raise ConfigError(f"building the reward of {self.source} failed: "
                                  f"{type(exc).__name__}: {exc}") from exc
        return self._reward


_current: WorkerState | None = None


def configure_worker(config: RewardConfig | str | Path) -> WorkerState:
    """Set the reward config this process (and the pool processes it forks) scores with."""
    global _current
    source = "<RewardConfig>" if isinstance(config, RewardConfig) else str(config)
    if not isinstance(config, RewardConfig):
        config = load_config(config)
    _current = WorkerState(config, source, config.content_hash())
    return _current


def worker_config() -> WorkerState:
    """The worker's config: set by `rewards worker`, else read from `REWARDS_WORKER_CONFIG`
    (for workers started with `celery -A integrations.celery worker`)."""
    if _current is None:
        path = os.environ.get("REWARDS_WORKER_CONFIG")
        if not path:
            raise ConfigError("this worker has no reward config: start it with "
                              "`rewards worker --config CFG` or set REWARDS_WORKER_CONFIG")
        return configure_worker(path)
    return _current


def score_samples(reward: Reward, samples: Sequence[Sample]
                  ) -> tuple[list[Score], list[tuple[int, str]]]:
    """Score a chunk by `rewards.scoring.score_batch` (a batch, sample by sample if it raises;
    the soft time limit stops it). Returns the scores and `(index, error)` for each poison
    sample."""
    from celery.exceptions import SoftTimeLimitExceeded

    scored = score_batch(reward, samples, interrupts=(SoftTimeLimitExceeded,))
    errors = [(i, scored.error_message(i) or "") for i in sorted(scored.errors)]
    return scored.scores, errors


class _Heartbeat:
    """Writes the chunk's `PROGRESS` state with a rising counter every `interval` seconds."""

    def __init__(self, task: Any, meta: dict[str, Any], interval: float) -> None:
        self.task, self.meta, self.interval = task, dict(meta), interval
        self.task_id = task.request.id  # the request is thread-local: name the id explicitly
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="rewards-heartbeat", daemon=True)

    def _run(self) -> None:
        while not self.stop.wait(self.interval):
            self.meta["beat"] += 1
            try:
                self.task.update_state(task_id=self.task_id, state=HEARTBEAT_STATE,
                                       meta=self.meta)
            except Exception as exc:  # noqa: BLE001 - the next beat tries again
                log.warning("heartbeat write failed: %s", exc)

    def __enter__(self) -> _Heartbeat:  # noqa: PYI034 - a private helper, never subclassed
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def run_chunk(task: Any, *, config_hash: str, samples: list[dict[str, Any]], attempt: int,
              heartbeat_s: float) -> dict[str, Any]:
    """The body of the `rewards.score_chunk` task (see the module docstring)."""
    from celery.exceptions import Ignore, SoftTimeLimitExceeded

    worker = worker_config()
    if config_hash != worker.content_hash:
        raise ConfigError(
            f"config mismatch: the client scores with reward config {config_hash} but worker "
            f"{task.request.hostname} runs {worker.source} ({worker.content_hash}); start the "
            "workers with the same reward config as the client")
    task_id = task.request.id
    previous = task.backend.get_task_meta(task_id, cache=False)
    if previous["status"] == "SUCCESS":
        log.info("chunk %s is already scored; dropping this redelivery", task_id)
        raise Ignore()
    if previous["status"] == "REVOKED":  # its client was interrupted or closed
        log.info("chunk %s was abandoned by its client; dropping it", task_id)
        raise Ignore()
    lost = 0
    if previous["status"] == HEARTBEAT_STATE and isinstance(previous.get("result"), dict):
        lost = int(previous["result"].get("lost", 0)) + 1
    meta = {"hostname": task.request.hostname, "pid": os.getpid(), "attempt": attempt,
            "lost": lost, "beat": 0}
    task.update_state(state=HEARTBEAT_STATE, meta=meta)
    if lost >= MAX_LOST:
        log.error("chunk %s lost its worker %d times", task_id, lost)
        return _give_up(len(samples), "worker_lost",
                        f"the worker died {lost} times while scoring this sample")
    decoded = [decode_sample(s) for s in samples]
    started = time.perf_counter()
    with _Heartbeat(task, meta, max(heartbeat_s, 0.1)):
        try:
            scores, errors = score_samples(worker.reward(), decoded)
        except SoftTimeLimitExceeded:
            return _give_up(len(samples), "timeout", "over the chunk's soft time limit")
        except ConfigError:
            raise
        except INFRASTRUCTURE_ERRORS as exc:  # a sandbox or engine down: may come back
            log.warning("chunk %s: infrastructure failure, retrying: %s", task_id, exc)
            raise task.retry(exc=exc, countdown=0.5 * 2 ** task.request.retries,
                             max_retries=MAX_RETRIES) from exc
    return {"scores": [encode_score(s) for s in scores], "errors": errors,
            "hostname": task.request.hostname, "elapsed_s": time.perf_counter() - started}


def _give_up(n: int, reason: str, message: str) -> dict[str, Any]:
    """A chunk of several samples asks the client to split it; a single sample is a row."""
    if n > 1:
        return {"split": reason}
    return {"scores": [encode_score(Score(None, reason))], "errors": [(0, message)]}


def register_tasks(app: Any) -> None:
    """Register `rewards.score_chunk` on `app` (acks late, rejected back on worker loss)."""

    @app.task(name=TASK_NAME, bind=True, acks_late=True, reject_on_worker_lost=True,
              max_retries=MAX_RETRIES, resultrepr_maxsize=200, shared=False)
    def score_chunk(self: Any, *, config_hash: str, samples: list[dict[str, Any]],
                    attempt: int = 0, heartbeat_s: float = 1.0) -> dict[str, Any]:
        return run_chunk(self, config_hash=config_hash, samples=samples, attempt=attempt,
                         heartbeat_s=heartbeat_s)
