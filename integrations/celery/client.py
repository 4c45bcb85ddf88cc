"""`CeleryReward`: a `Reward` that scores on Celery workers. Swap it in for the local reward
and nothing else changes: one `Score` per sample, in input order, equal to local scoring.

How a batch is scored:
- samples are routed by domain to their queue (`cpu`, `sandbox`, `gpu`; see `_routing`) and
  dealt into chunks of about `chunk_size`, each group whole in one chunk (`deal_chunks`);
  each chunk is one task whose id is the chunk id;
- every chunk carries the config's content hash; a worker with another config fails the chunk
  and `score` raises `ConfigError`;
- the client follows the chunks' states in the result store (`_results.ResultFeed`: pushed
  by Redis as they are written, read in full every second all the same, polled where the
  store cannot push). A running chunk's worker writes a heartbeat every `heartbeat_s`;
  when it stops changing for `lost_after_s`
  the worker is taken as dead and the chunk is sent again under the same id. With Redis a
  SIGKILLed worker's message only comes back after the visibility timeout (an hour), so
  without this a batch would stall for an hour; with it, it recovers in seconds;
- each chunk is taken exactly once: the first stored result for its id is the one used, the
  store ignores later writes to a finished id, and a worker drops a message whose id is already
  scored. Normalization (`zscore_by_domain`, `group`, `group_per_component`, the last from
  the components' values the workers return in `parts`) runs here, over the whole batch, exactly
  as local scoring does it.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from integrations._common import ADAPTER_POLICY, OnConfigAbstain
from integrations.celery._app import QueueKind, make_app, queue_name
from integrations.celery._results import ResultFeed
from integrations.celery._routing import domain_queues
from integrations.celery._tasks import HEARTBEAT_STATE, TASK_NAME
from integrations.celery._wire import decode_score, encode_sample
from rewards import errors
from rewards.config import RewardConfig, load_config
from rewards.mixing import BatchNormalizer, route_domain
from rewards.options import check_fields, check_range, load_options
from rewards.scoring import AbstentionTally, abstention_cause, check_scores
from rewards.types import Sample, Score

__all__ = ["CeleryReward", "ClientConfig", "Progress", "RunStats", "deal_chunks"]

log = logging.getLogger("integrations.celery.client")
_RAISED_AS_IS = {"ConfigError", "SandboxError", "EngineError", "InputError"}
_TIME_LIMITS = {"TimeLimitExceeded", "SoftTimeLimitExceeded"}


@dataclass(frozen=True)
class ClientConfig:
    """The options of `CeleryReward` (the keys of a `celery` component besides `config`)."""

    chunk_size: int = 64
    """Samples per task (a group larger than this travels whole): larger chunks cut the
    broker's overhead per sample, smaller ones share a batch more evenly among workers."""
    timeout: float | None = 600.0
    """Seconds the whole batch may take before `EngineError` (None: no limit)."""
    chunk_time_limit: float = 300.0
    """Soft time limit of one chunk on the worker, in seconds."""
    heartbeat_s: float = 1.0
    """How often a running chunk's worker writes its heartbeat."""
    lost_after_s: float = 5.0
    """A running chunk whose heartbeat is this old is sent again."""
    stall_after_s: float = 30.0
    """Queued chunks are sent again when the batch made no progress at all for this long
    (their message may be stranded on a dead worker)."""
    broker: str | None = None
    """Broker URL; None: `REWARDS_BROKER_URL`, else Redis on 127.0.0.1."""
    backend: str | None = None
    """Result store URL; None: `REWARDS_RESULT_BACKEND`, else the Redis above."""
    queue_prefix: str | None = None
    """Prefix of the queue names; None: `REWARDS_QUEUE_PREFIX`, else none."""
    queues: Mapping[str, QueueKind] | None = None
    """Domain -> queue kind, overriding the routing by component."""
    progress: bool | Callable[[int, int], None] = False
    """True for a progress bar on stderr, or a callable `(done, total)`."""
    on_config_abstain: OnConfigAbstain = "raise"
    """raise (`ConfigurationAbstention`) or warn once when the client's rows abstain for a
    configuration cause (see `rewards.scoring.AbstentionTally`)."""
    name: str = "celery"
    """The reward's name."""

    def __post_init__(self) -> None:
        check_fields(self)
        check_range("chunk_size", self.chunk_size, ge=1)
        check_range("heartbeat_s", self.heartbeat_s, gt=0)
        check_range("chunk_time_limit", self.chunk_time_limit, gt=0)
        if self.lost_after_s <= self.heartbeat_s:
            raise errors.ConfigError("lost_after_s must be longer than heartbeat_s")


@dataclass(frozen=True)
class Progress:
    """Chunks of the current (or last) batch that are back, out of all chunks sent."""

    done: int
    total: int


@dataclass
class RunStats:
    """What happened while scoring the last batch."""

    chunks: int = 0
    """Chunks sent (after splits)."""
    resent: int = 0
    """Chunks sent again because their worker died or the batch stalled."""
    split: int = 0
    """Chunks split into single samples (over the time limit, or killing workers)."""
    error_rows: int = 0
    """Samples that came back as error rows (poison samples)."""
    elapsed_s: float = 0.0
    """Wall-clock time of the batch."""
    workers: dict[str, int] = field(default_factory=dict)
    """Chunks scored per worker node name."""
    worker_samples: dict[str, int] = field(default_factory=dict)
    """Samples scored per worker node name."""
    abstained: Counter[str] = field(default_factory=Counter)
    """Samples that abstained, by cause (`rewards.scoring.abstention_cause`)."""
    worker_s: float = 0.0
    """Seconds the workers spent scoring (summed over chunks); `elapsed_s` minus this, spread
    over the samples, is what the broker and result store cost when one worker does it all."""


@dataclass
class _Chunk:
    chunk_id: str
    indices: list[int]
    queue: str
    sent_at: float
    attempt: int = 0
    signature: Any = None
    changed_at: float = 0.0
    stall_after_s: float = 0.0


class CeleryReward:
    """Scores samples on Celery workers started with `rewards worker --config CFG`.

    `config` is the reward config (path or `RewardConfig`); workers must run the same one.
    The options are the fields of `ClientConfig` (loaded by `rewards.options.load_options`).
    """

    def __init__(self, config: RewardConfig | str | Path, **options: Any) -> None:
        opts = load_options(ClientConfig, options, where="celery reward")
        self.config = config if isinstance(config, RewardConfig) else load_config(config)
        self.config_hash = self.config.content_hash()
        self.chunk_size = opts.chunk_size
        self.timeout = opts.timeout
        self.chunk_time_limit = opts.chunk_time_limit
        self.heartbeat_s = opts.heartbeat_s
        self.lost_after_s = opts.lost_after_s
        self.stall_after_s = opts.stall_after_s
        self.name = opts.name
        self.app = make_app(broker=opts.broker, backend=opts.backend,
                            queue_prefix=opts.queue_prefix)
        self.queue_prefix = self.app.conf.rewards_queue_prefix
        self.domain_queues = domain_queues(self.config, opts.queues)
        self.normalizer = BatchNormalizer.from_config(self.config)
        """The config's batch normalization (with its running statistics), as local scoring
        applies it: over each whole batch, once every chunk is back."""
        self.on_progress = opts.progress
        self.progress = Progress(0, 0)
        self.last_stats = RunStats()
        self.on_config_abstain = opts.on_config_abstain
        self.tally = AbstentionTally(ADAPTER_POLICY, where=f"CeleryReward {opts.name!r}",
                                     domains=self.config.domains)
        """Rows and abstentions by cause over this client's life."""
        self._bar: Any = None
        self._in_flight: dict[str, _Chunk] = {}
        self._closed = False

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        """Score on the workers; one `Score` per sample, in input order."""
        started = time.monotonic()
        stats = RunStats()
        results: list[Score | None] = [None] * len(samples)
        encoded = [encode_sample(s) for s in samples]
        batch = uuid.uuid4().hex[:12]
        chunks = self._chunk(samples, results, batch, started)
        stats.chunks = len(chunks)
        self._report(0, len(chunks))
        outstanding = self._in_flight = {c.chunk_id: c for c in chunks}
        try:
            with self.app.producer_or_acquire() as producer:
                for chunk in chunks:
                    self._send(producer, chunk, encoded)
            self._collect(outstanding, encoded, results, stats, started)
        except BaseException:
            self._revoke(list(outstanding))
            raise
        finally:
            stats.elapsed_s = time.monotonic() - started
            self.last_stats = stats
            self._close_progress()
        final = [r for r in results if r is not None]
        assert len(final) == len(samples), "every sample gets exactly one score"
        scores = self.normalizer(samples, final)
        stats.abstained = Counter(c for c in (abstention_cause(a, b) for a, b in
                                              zip(samples, scores)) if c is not None)
        self.tally.add(samples, scores)
        self.tally.check(self.on_config_abstain)
        return scores

    # -- dispatch --------------------------------------------------------------------------

    def _chunk(self, samples: Sequence[Sample], results: list[Score | None], batch: str,
               now: float) -> list[_Chunk]:
        by_queue: dict[str, list[int]] = {}
        for i, sample in enumerate(samples):
            # the queue of the domain that scores it, by the one routing rule
            domain = route_domain(self.domain_queues, sample.domain)
            if domain is None:
                results[i] = Score(None, "unknown_domain")  # as local scoring does
                continue
            kind = self.domain_queues[domain]
            by_queue.setdefault(queue_name(kind, self.queue_prefix), []).append(i)
        chunks: list[_Chunk] = []
        for queue, indices in by_queue.items():
            for members in deal_chunks(samples, indices, self.chunk_size):
                chunks.append(_Chunk(f"rewards-{batch}-{len(chunks)}", members, queue, now,
                                     changed_at=now, stall_after_s=self.stall_after_s))
        return chunks

    def _send(self, producer: Any, chunk: _Chunk, encoded: list[dict[str, Any]]) -> None:
        from kombu.exceptions import EncodeError, OperationalError

        kwargs = {"config_hash": self.config_hash, "attempt": chunk.attempt,
                  "heartbeat_s": self.heartbeat_s,
                  "samples": [encoded[i] for i in chunk.indices]}
        message = self.app.amqp.create_task_message(
            chunk.chunk_id, TASK_NAME, (), kwargs, soft_time_limit=self.chunk_time_limit,
            time_limit=self.chunk_time_limit + 30, create_sent_event=True, argsrepr="()",
            kwargsrepr=f"{{chunk of {len(chunk.indices)} samples, config {self.config_hash}, "
                       f"attempt {chunk.attempt}}}")
        try:
            self.app.amqp.send_task_message(producer, TASK_NAME, message, queue=chunk.queue)
        except EncodeError as exc:
            raise _unencodable(chunk, encoded) from exc
        except OperationalError as exc:
            raise errors.EngineError(f"cannot send to the broker "
                                     f"{self.app.conf.broker_url}: {exc}") from exc
        chunk.sent_at = chunk.changed_at = time.monotonic()

    def _resend(self, chunk: _Chunk, encoded: list[dict[str, Any]], stats: RunStats,
                why: str) -> None:
        log.warning("chunk %s (%d samples, attempt %d): %s; sending it again", chunk.chunk_id,
                    len(chunk.indices), chunk.attempt, why)
        chunk.attempt += 1
        stats.resent += 1
        with self.app.producer_or_acquire() as producer:
            self._send(producer, chunk, encoded)

    # -- collection ------------------------------------------------------------------------

    def _collect(self, outstanding: dict[str, _Chunk], encoded: list[dict[str, Any]],
                 results: list[Score | None], stats: RunStats, started: float) -> None:
        feed = ResultFeed(self.app.backend, where=str(self.app.conf.result_backend))
        try:
            feed.watch(outstanding)
            self._follow(feed, outstanding, encoded, results, stats, started)
        finally:
            feed.close()

    def _follow(self, feed: ResultFeed, outstanding: dict[str, _Chunk],
                encoded: list[dict[str, Any]], results: list[Score | None], stats: RunStats,
                started: float) -> None:
        done, total = 0, len(outstanding)
        last_progress, finished = time.monotonic(), False
        metas: dict[str, dict[str, Any] | None] = {}  # each chunk's last known state
        while outstanding:
            if self._closed:
                raise errors.EngineError("the CeleryReward was closed while scoring; what it "
                                         "had sent is revoked")
            ids = list(outstanding)
            metas.update(feed.changes(ids, finished=finished))
            now = time.monotonic()
            moved = finished = False  # a heartbeat moved / a chunk came back or was resent
            for chunk_id in ids:
                meta: dict[str, Any] = metas.get(chunk_id) or {}
                chunk = outstanding[chunk_id]
                status = meta["status"] if meta else "PENDING"
                if status == "FAILURE" and len(chunk.indices) > 1 and \
                        type(meta["result"]).__name__ in _TIME_LIMITS:
                    # killed at the hard limit (the soft one could not interrupt): split it
                    status, meta = "SUCCESS", {"result": {"split": "passed the hard limit"}}
                if status == "SUCCESS":
                    del outstanding[chunk_id]
                    added = self._take(chunk, meta["result"], results, stats, now)
                    outstanding.update((c.chunk_id, c) for c in added)
                    done += not added
                    if added:
                        stats.split += 1
                        stats.chunks += len(added)
                        total += len(added) - 1
                        feed.watch(c.chunk_id for c in added)
                        with self.app.producer_or_acquire() as producer:
                            for c in added:
                                self._send(producer, c, encoded)
                    finished = True
                elif status == "FAILURE":
                    signature = (status, repr(meta["result"]))
                    if signature == chunk.signature:  # sent again already: wait for it
                        moved |= self._watch(chunk, status, meta, now, last_progress, encoded,
                                             stats)
                    elif self._failed(chunk, meta["result"], results, stats):
                        chunk.signature = signature
                        self._resend(chunk, encoded, stats, "its worker process was lost")
                        finished = True
                    else:
                        del outstanding[chunk_id]
                        done += 1
                        finished = True
                else:
                    moved |= self._watch(chunk, status, meta, now, last_progress, encoded, stats)
            if moved or finished:
                last_progress = now
                self._report(done, total)
            if self.timeout is not None and now - started > self.timeout:
                raise errors.EngineError(
                    f"{len(outstanding)} of {stats.chunks} chunks were not scored within "
                    f"{self.timeout:g}s; are workers running `rewards worker` on queues "
                    f"{sorted({c.queue for c in outstanding.values()})} of broker "
                    f"{self.app.conf.broker_url}?")

    def _watch(self, chunk: _Chunk, status: str, meta: Any, now: float, last_progress: float,
               encoded: list[dict[str, Any]], stats: RunStats) -> bool:
        """Follow a chunk that is queued or running; send it again if its worker is gone.
        Returns whether anything changed (progress)."""
        info = meta.get("result") if meta else None
        signature = (status, repr(info))
        if signature != chunk.signature:
            chunk.signature, chunk.changed_at = signature, now
            return status != "PENDING"
        beat = info if isinstance(info, dict) else {}
        running = status == HEARTBEAT_STATE and beat.get("attempt") == chunk.attempt
        if running and now - chunk.changed_at > self.lost_after_s:
            self._resend(chunk, encoded, stats, f"no heartbeat from {beat.get('hostname')} for "
                                                f"{now - chunk.changed_at:.1f}s")
            return True
        # Queued, or sent again and not yet picked up: its message may sit on a dead worker
        # (taken, not yet started). Only when the whole batch stalls, with growing patience.
        if not running and now - max(chunk.changed_at, last_progress) > chunk.stall_after_s:
            chunk.stall_after_s *= 2
            self._resend(chunk, encoded, stats, "the batch stalled with this chunk queued")
            return True
        return False

    def _take(self, chunk: _Chunk, result: Mapping[str, Any], results: list[Score | None],
              stats: RunStats, now: float) -> list[_Chunk]:
        """Store a chunk's scores; a chunk the worker asked to split comes back as chunks of
        one sample each."""
        if "split" in result:
            log.warning("chunk %s (%d samples) %s: scoring its samples one by one",
                        chunk.chunk_id, len(chunk.indices), result["split"])
            return [_Chunk(f"{chunk.chunk_id}.{k}", [i], chunk.queue, now, changed_at=now,
                           stall_after_s=self.stall_after_s)
                    for k, i in enumerate(chunk.indices)]
        scores = check_scores(self, [decode_score(s) for s in result["scores"]],
                              len(chunk.indices))
        for i, score in zip(chunk.indices, scores):
            results[i] = score
        host = str(result.get("hostname"))
        stats.workers[host] = stats.workers.get(host, 0) + 1
        stats.worker_samples[host] = stats.worker_samples.get(host, 0) + len(chunk.indices)
        stats.worker_s += float(result.get("elapsed_s", 0.0))
        for position, message in result.get("errors", []):
            stats.error_rows += 1
            log.warning("sample %d: %s", chunk.indices[position], message)
        return []

    def _failed(self, chunk: _Chunk, exc: Any, results: list[Score | None],
                stats: RunStats) -> bool:
        """A chunk's task failed: raise what is broken, or return True to send it again."""
        kind = type(exc).__name__
        if kind == "WorkerLostError":
            return True
        if kind in _TIME_LIMITS:  # one sample, stopped outside the reward or at the hard limit
            results[chunk.indices[0]] = Score(None, "timeout")
            stats.error_rows += 1
            return False
        message = f"chunk {chunk.chunk_id} failed on a worker: {exc}"
        if kind in _RAISED_AS_IS:
            raise getattr(errors, kind)(message)
        raise errors.EngineError(f"{message} ({kind})")

    def _revoke(self, chunk_ids: list[str]) -> None:
        """Tell workers to skip what is left of an abandoned batch (best effort): broadcast
        a revoke to the live workers, and store each chunk as REVOKED, which a worker that
        missed the broadcast (started later, restarted) reads before it scores the chunk."""
        if not chunk_ids:
            return
        try:
            self.app.control.revoke(chunk_ids)
            for chunk_id in chunk_ids:
                self.app.backend.mark_as_revoked(chunk_id, reason="the client abandoned it")
        except Exception as exc:  # noqa: BLE001 - the batch's own error is the one to raise
            log.warning("could not revoke %d chunks: %s", len(chunk_ids), exc)

    # -- progress ----------------------------------------------------------

    def _report(self, done: int, total: int) -> None:
        self.progress = Progress(done, total)
        if callable(self.on_progress):
            self.on_progress(done, total)
        elif self.on_progress:
            if self._bar is None:
                import sys

                from tqdm import tqdm

                self._bar = tqdm(total=total, unit="chunk", file=sys.stderr)
            self._bar.total = total
            self._bar.n = done
            self._bar.refresh()

    def _close_progress(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def close(self) -> None:
        """Revoke the chunks of a batch still being scored (from another thread), then
        release the broker and result-store connections."""
        self._closed = True
        self._revoke(list(self._in_flight))
        self.app.close()

    def __enter__(self) -> CeleryReward:  # noqa: PYI034 - Self needs Python 3.11
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"<CeleryReward config {self.config_hash} chunks of {self.chunk_size} on "
                f"{self.app.conf.broker_url}>")


def deal_chunks(samples: Sequence[Sample], indices: Sequence[int],
                chunk_size: int) -> list[list[int]]:
    """The chunks of one queue's samples (`indices` into `samples`): every sample of a group
    (`Sample.group`) in one chunk, as local scoring sees the group (rewards such as `length`
    and GenRM's round robin score a sample against its group); and the units, a group or a
    sample without one, dealt in turn over `ceil(len(indices) / chunk_size)` chunks, each unit
    to the chunk with the fewest samples so far (the first of those).

    Dealt, not cut: the cost of a batch clusters (a hard problem's rollouts arrive one after
    another; a math batch ordered by kind took twice as long in its second half): of 50
    chunks cut from one math batch, averaging 0.5 s, one took 5.2 s, and the last expensive
    chunk left the other workers idle. Dealt chunks each take from the whole batch and cost
    alike. A group larger than `chunk_size` is one chunk of its own size."""
    import heapq

    units: dict[object, list[int]] = {}
    for i in indices:
        group = samples[i].group
        units.setdefault(("group", group) if group is not None else ("sample", i), []).append(i)
    n_chunks = max(1, -(-len(indices) // chunk_size))
    chunks: list[list[int]] = [[] for _ in range(n_chunks)]
    fill = [(0, k) for k in range(n_chunks)]  # (samples so far, chunk): a heap
    for members in units.values():
        size, k = heapq.heappop(fill)
        chunks[k].extend(members)
        heapq.heappush(fill, (size + len(members), k))
    return [members for members in chunks if members]


def _unencodable(chunk: _Chunk, encoded: list[dict[str, Any]]) -> errors.InputError:
    import json

    for i in chunk.indices:
        for key, value in encoded[i].items():
            try:
                json.dumps(value)
            except (TypeError, ValueError) as exc:
                return errors.InputError(f"sample {i} cannot travel as JSON: {exc}", field=key)
    return errors.InputError(f"chunk {chunk.chunk_id} cannot travel as JSON")
