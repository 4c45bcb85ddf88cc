"""How the client reads its chunks' states from the result store: pushed where the store pushes,
read in full now and then all the same.

Redis publishes every write of a task's state on a channel named after its key (Celery's
Redis backend writes and publishes in one pipeline). The client subscribes to its chunks'
channels and sleeps until a write arrives: no polling, so the client and Redis spend nothing
while the workers score, and a finished chunk is seen the moment it is stored. Every
`FULL_READ_S` (and first of all, after subscribing) it reads every outstanding chunk's state
in one round trip anyway: a write made before the subscription, or lost with a dropped
connection, is seen there; correctness never depends on the push. A store that cannot push
(a database) is read in full on each call, after a pause that grows while nothing finishes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

from rewards import errors

__all__ = ["FULL_READ_S", "ResultFeed"]

log = logging.getLogger("integrations.celery.client")

FULL_READ_S = 1.0
"""Seconds between two full reads of the outstanding chunks' states, pushes or not."""
PUSH_WAIT_S = 0.25
"""Longest wait for a push: the client checks timeouts and `close()` at least this often."""
POLL_MIN_S, POLL_MAX_S = 0.005, 0.05
"""The pause between full reads where the store cannot push: short while chunks come back,
growing to the longer while they only run."""


class ResultFeed:
    """The states of a batch's chunks, as they change (`changes`)."""

    def __init__(self, backend: Any, *, where: str, full_read_s: float = FULL_READ_S) -> None:
        from celery.backends.redis import RedisBackend

        self.backend, self.where, self.full_read_s = backend, where, full_read_s
        self.pubsub: Any = None
        if isinstance(backend, RedisBackend):
            self.pubsub = backend.client.pubsub(ignore_subscribe_messages=True)
        self._chunk_of_key: dict[str, str] = {}
        self._full_read_at = float("-inf")
        self._pause = POLL_MIN_S

    def watch(self, chunk_ids: Iterable[str]) -> None:
        """Follow these chunks: their writes from now on are pushed; a write made before is
        seen at the next full read (the first call to `changes` is one)."""
        keys = {_text(self.backend.get_key_for_task(i)): i for i in chunk_ids}
        self._chunk_of_key.update(keys)
        if self.pubsub is not None and keys:
            try:
                self.pubsub.subscribe(*keys)
            except Exception as exc:  # noqa: BLE001 - the full reads see every write anyway
                self._stop_pushes(exc)

    def changes(self, chunk_ids: list[str], *, finished: bool) -> dict[str, dict[str, Any] | None]:
        """Chunk id -> stored state (None: nothing stored yet) for the chunks among `chunk_ids`
        that may have changed: all of them when a full read is due, else those whose write
        was pushed. Waits for a push, or pauses, first; `finished`: a chunk came back since
        the last call (the pause without pushes starts short again)."""
        now = time.monotonic()
        if self.pubsub is None:
            self._pause = POLL_MIN_S if finished else min(self._pause * 1.5, POLL_MAX_S)
            if now - self._full_read_at < self.full_read_s:  # not the first read: pause first
                time.sleep(self._pause)
            return self._read_all(chunk_ids)
        due = self._full_read_at + self.full_read_s - now
        if due <= 0:
            return self._read_all(chunk_ids)
        try:
            pushed = self._pushed(min(due, PUSH_WAIT_S))
        except Exception as exc:  # noqa: BLE001 - a dropped connection: read in full instead
            self._stop_pushes(exc)
            return self._read_all(chunk_ids)
        wanted = set(chunk_ids)
        return {i: meta for i, meta in pushed.items() if i in wanted}

    def _pushed(self, wait_s: float) -> dict[str, dict[str, Any] | None]:
        found: dict[str, dict[str, Any] | None] = {}
        message = self.pubsub.get_message(timeout=wait_s)
        while message is not None:
            if message.get("type") == "message":
                chunk_id = self._chunk_of_key.get(_text(message["channel"]))
                if chunk_id is not None:
                    found[chunk_id] = self.backend.decode_result(message["data"])
            message = self.pubsub.get_message(timeout=0)
        return found

    def _read_all(self, chunk_ids: list[str]) -> dict[str, dict[str, Any] | None]:
        """Every chunk's stored state, in one round trip where the store allows it."""
        from celery.backends.base import KeyValueStoreBackend

        backend = self.backend
        self._full_read_at = time.monotonic()
        try:
            if isinstance(backend, KeyValueStoreBackend):
                raw = backend.mget([backend.get_key_for_task(i) for i in chunk_ids])
                return {i: backend.decode_result(r) if r else None
                        for i, r in zip(chunk_ids, raw)}
            metas = [backend.get_task_meta(i, cache=False) for i in chunk_ids]
            return {i: m if m.get("status") != "PENDING" else None
                    for i, m in zip(chunk_ids, metas)}
        except Exception as exc:
            if isinstance(exc, errors.RewardsError):
                raise
            raise errors.EngineError(f"cannot read results from {self.where}: "
                                     f"{type(exc).__name__}: {exc}") from exc

    def _stop_pushes(self, exc: Exception) -> None:
        log.warning("result pushes stopped (%s: %s); reading the result store in full every "
                    "%gs", type(exc).__name__, exc, POLL_MAX_S)
        self.close()

    def close(self) -> None:
        """Drop the subscription (its connection goes back to Redis)."""
        if self.pubsub is not None:
            pubsub, self.pubsub = self.pubsub, None
            try:
                pubsub.close()
            except Exception as exc:  # noqa: BLE001 - closing a connection already lost
                log.debug("closing the result subscription: %s", exc)


def _text(key: str | bytes) -> str:
    return key.decode() if isinstance(key, bytes) else key
