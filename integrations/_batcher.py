"""Micro-batching for asyncio callers: many concurrent small scoring requests (one rollout per
HTTP request from OpenRLHF, one `compute_score` call per rollout from veRL's reward loop) are
collected for a few milliseconds and scored together, so a reward that is faster per sample in
batches (worker pools, model forward passes, de-duplicated sandbox runs) sees batches.

Batches score in worker threads, at most `max_inflight` at once. An idle batcher scores a
request at once (no added latency at low load); while batches are in flight, new requests queue
up and the next batch takes all of them (waiting up to `max_wait_ms` for more), so batches grow
with load by themselves. Several batches in flight keep one slow sample (a symbolic comparison
near its time limit) from holding up every request behind it, and within a batch a request is
answered as soon as its own samples are decided, where the reward tells scores as it decides
them (`rewards.types.Progressive`: the math reward), never waiting for the batch's slowest."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from rewards.errors import ConfigError, RewardsError
from rewards.scoring import ScoredBatch, score_batch
from rewards.types import Reward, Sample, Score, ScoresReady

__all__ = ["BatchStats", "BatchingConfig", "MicroBatcher"]


@dataclass(frozen=True)
class BatchingConfig:
    """How requests are collected into batches."""

    enabled: bool = True
    """False: every request is scored on its own as it arrives (the one-at-a-time baseline)."""
    max_batch: int = 256
    """Stop collecting once this many samples are waiting (a larger request is its own batch)."""
    max_wait_ms: float = 5.0
    """How long the first request of a batch waits for company while other batches are in
    flight, in milliseconds (an idle batcher does not wait)."""
    max_inflight: int = 4
    """Batches scored at the same time (each in its own worker thread)."""

    def __post_init__(self) -> None:
        if self.max_batch < 1:
            raise ConfigError(f"max_batch must be >= 1, not {self.max_batch}")
        if self.max_inflight < 1:
            raise ConfigError(f"max_inflight must be >= 1, not {self.max_inflight}")
        if self.max_wait_ms < 0:
            raise ConfigError(f"max_wait_ms must be >= 0, not {self.max_wait_ms}")


@dataclass
class BatchStats:
    """Counters, for /health and the benchmark."""

    requests: int = 0
    samples: int = 0
    batches: int = 0
    largest_batch: int = 0
    scoring_seconds: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {"requests": self.requests, "samples": self.samples, "batches": self.batches,
                "largest_batch": self.largest_batch,
                "mean_batch": round(self.samples / self.batches, 2) if self.batches else 0.0,
                "scoring_seconds": round(self.scoring_seconds, 4)}


@dataclass
class _Pending:
    samples: Sequence[Sample]
    future: asyncio.Future[list[Score]] = field(repr=False)
    told: dict[int, Score] = field(default_factory=dict, repr=False)
    """The scores of its samples decided so far (by position in the request)."""


class MicroBatcher:
    """`await batcher.score(samples)` from any number of coroutines of one event loop.

    Each batch is scored by `rewards.scoring.score_batch`: broken infrastructure fails every
    request of the batch; a poison sample fails its own request only."""

    def __init__(self, reward: Reward, config: BatchingConfig | None = None) -> None:
        self._reward = reward
        self.config = config or BatchingConfig()
        self.stats = BatchStats()
        self._queue: asyncio.Queue[_Pending] | None = None
        self._collector: asyncio.Task[None] | None = None

    async def score(self, samples: Sequence[Sample]) -> list[Score]:
        """Scores for `samples`, in order, scored in a batch with other waiting requests."""
        self.stats.requests += 1
        if not samples:
            return []
        if not self.config.enabled:
            return await self._run_one(samples)
        if self._collector is None or self._collector.done():
            self._queue = asyncio.Queue()
            self._collector = asyncio.get_running_loop().create_task(self._collect_forever())
        assert self._queue is not None
        future: asyncio.Future[list[Score]] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Pending(samples, future))
        return await future

    async def close(self) -> None:
        """Stop the collector task (requests still queued get a RewardsError)."""
        if self._collector is not None:
            self._collector.cancel()
            try:
                await self._collector
            except asyncio.CancelledError:
                pass
            self._collector = None
        while self._queue is not None and not self._queue.empty():
            pending = self._queue.get_nowait()
            if not pending.future.done():
                pending.future.set_exception(RewardsError("the scoring server is shutting down"))

    async def _run(self, samples: Sequence[Sample],
                   ready: ScoresReady | None = None) -> ScoredBatch:
        """Score one batch by `rewards.scoring.score_batch` (in a worker thread; `ready` as
        there, called in that thread)."""
        start = time.perf_counter()
        scored = await asyncio.to_thread(score_batch, self._reward, samples, ready=ready)
        self.stats.scoring_seconds += time.perf_counter() - start
        self.stats.batches += 1
        self.stats.samples += len(samples)
        self.stats.largest_batch = max(self.stats.largest_batch, len(samples))
        return scored

    async def _run_one(self, samples: Sequence[Sample]) -> list[Score]:
        scored = await self._run(samples)
        if scored.errors:
            raise scored.errors[min(scored.errors)]
        return scored.scores

    async def _collect_forever(self) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        slots = asyncio.Semaphore(self.config.max_inflight)
        inflight: set[asyncio.Task[None]] = set()
        try:
            while True:
                await slots.acquire()
                batch = [await self._queue.get()]
                size = len(batch[0].samples)
                deadline = loop.time() + (self.config.max_wait_ms / 1000 if inflight else 0.0)
                while size < self.config.max_batch:
                    if self._queue.empty():
                        remaining = deadline - loop.time()
                        if remaining <= 0:
                            break
                        try:
                            item = await asyncio.wait_for(self._queue.get(), remaining)
                        except TimeoutError:
                            break
                    else:
                        item = self._queue.get_nowait()
                    batch.append(item)
                    size += len(item.samples)
                task = loop.create_task(self._score_batch(batch))
                inflight.add(task)
                task.add_done_callback(inflight.discard)
                task.add_done_callback(lambda _: slots.release())
        finally:
            for task in inflight:
                task.cancel()

    async def _score_batch(self, batch: list[_Pending]) -> None:
        """Score the requests of `batch` as one batch; each request gets its scores as soon
        as all of its own samples are decided (a `Progressive` reward tells them as it goes),
        never waiting for the batch's slowest sample; the rest when the batch returns."""
        samples = [s for pending in batch for s in pending.samples]
        owner = [(pending, j) for pending in batch for j in range(len(pending.samples))]
        loop = asyncio.get_running_loop()

        def ready(indices: Sequence[int], scores: Sequence[Score]) -> None:  # scoring thread
            try:  # copied now: the loop reads them later, the reward may reuse its lists
                loop.call_soon_threadsafe(_arrived, owner, list(indices), list(scores))
            except RuntimeError:  # the loop closed (the server stopped): no one to tell
                pass
        try:
            scored = await self._run(samples, ready)
        except Exception as exc:  # noqa: BLE001 - broken infrastructure: every request fails
            for pending in batch:
                _fail(pending, exc)
            return
        start = 0
        for pending in batch:  # a request with a poison sample fails with its error alone
            end = start + len(pending.samples)
            poison = [i for i in range(start, end) if i in scored.errors]
            if poison:
                _fail(pending, scored.errors[poison[0]])
            else:
                _deliver(pending, scored.scores[start:end])
            start = end


def _arrived(owner: Sequence[tuple[_Pending, int]], indices: Sequence[int],
             scores: Sequence[Score]) -> None:
    """Scores of a batch's samples (by position in the batch) as they were decided: a
    request whose samples are all decided gets its scores now."""
    for i, score in zip(indices, scores):
        pending, j = owner[i]
        pending.told[j] = score
        if len(pending.told) == len(pending.samples):
            _deliver(pending, [pending.told[k] for k in range(len(pending.samples))])


def _deliver(pending: _Pending, scores: list[Score]) -> None:
    if not pending.future.done():  # the caller may have gone (client disconnected)
        pending.future.set_result(scores)


def _fail(pending: _Pending, exc: BaseException) -> None:
    if not pending.future.done():
        pending.future.set_exception(exc)
