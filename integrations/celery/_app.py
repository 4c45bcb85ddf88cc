"""The Celery app: broker and result backend from the environment, JSON only, one queue per
kind of work, and the reliability settings every worker and client share.

Environment (read when an app is made; keyword arguments win):
- `REWARDS_BROKER_URL`     broker, default `redis://127.0.0.1:6379/0`; RabbitMQ works too
                           (`amqp://guest:guest@127.0.0.1:5672//`).
- `REWARDS_RESULT_BACKEND` result store, default `redis://127.0.0.1:6379/0`. It must be a store
                           that workers and clients share (Redis, a database ...), because the
                           client reads heartbeats from it and workers de-duplicate chunks by id
                           in it; `rpc://` is refused.
- `REWARDS_QUEUE_PREFIX`   prefix of the queue names (default empty: `cpu`, `sandbox`, `gpu`),
                           so that several deployments or test runs can share one broker.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Literal, get_args

from integrations.celery._tasks import register_tasks
from rewards.deps import require
from rewards.errors import ConfigError
from rewards.options import did_you_mean

if TYPE_CHECKING:
    from celery import Celery

__all__ = ["DEFAULT_URL", "QUEUE_KINDS", "QueueKind", "make_app", "queue_name"]

DEFAULT_URL = "redis://127.0.0.1:6379/0"
QueueKind = Literal["cpu", "sandbox", "gpu"]
QUEUE_KINDS: tuple[QueueKind, ...] = get_args(QueueKind)

# Results outlive the Redis visibility timeout (one hour): a message that Redis hands out again
# after a worker died is then recognised by its chunk id and dropped instead of rescored.
RESULT_EXPIRES_S = 3 * 3600
VISIBILITY_TIMEOUT_S = 3600


def require_celery() -> Any:
    """Import celery or say which extra installs it."""
    return require("celery", extra="celery", feature="distributed scoring")


def queue_name(kind: str, prefix: str | None = None) -> str:
    """The broker queue for one kind of work (`cpu`, `sandbox`, `gpu`)."""
    if kind not in QUEUE_KINDS:
        raise ConfigError(f"unknown queue {kind!r}{did_you_mean(kind, QUEUE_KINDS)}: the queues "
                          f"are {', '.join(QUEUE_KINDS)}")
    prefix = os.environ.get("REWARDS_QUEUE_PREFIX", "") if prefix is None else prefix
    return f"{prefix}{kind}"


def make_app(*, broker: str | None = None, backend: str | None = None,
             queue_prefix: str | None = None, main: str = "rewards") -> Celery:
    """A configured Celery app with the scoring task registered.

    JSON is the only serializer accepted (no pickle); tasks are acknowledged late and rejected
    back to the queue when their worker process dies; each pool process takes one message at a
    time so that a killed worker strands at most what it was running; task events are on so
    Flower (and `celery events`) can watch the work.
    """
    celery = require_celery()
    from kombu.entity import Exchange, Queue  # where kombu defines them (its __init__ is lazy)

    broker = broker or os.environ.get("REWARDS_BROKER_URL") or DEFAULT_URL
    backend = backend or os.environ.get("REWARDS_RESULT_BACKEND") or DEFAULT_URL
    if backend.startswith("rpc://"):
        raise ConfigError("REWARDS_RESULT_BACKEND=rpc:// cannot work: workers and clients must "
                          "share the result store (use Redis, e.g. redis://127.0.0.1:6379/0)")
    prefix = os.environ.get("REWARDS_QUEUE_PREFIX", "") if queue_prefix is None else queue_prefix
    app = celery.Celery(main, broker=broker, backend=backend, set_as_current=False)
    app.conf.update(
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        result_accept_content=["json"],
        event_serializer="json",
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,
        worker_prefetch_multiplier=1,
        # one direct exchange per queue, as Celery declares them: a message for `sandbox`
        # can only ever land in `sandbox`
        task_queues=[Queue(name, Exchange(name, type="direct"), routing_key=name)
                     for name in (queue_name(kind, prefix) for kind in QUEUE_KINDS)],
        task_default_queue=queue_name("cpu", prefix),
        task_create_missing_queues=False,
        task_soft_time_limit=600,
        task_time_limit=660,
        task_send_sent_event=True,
        worker_send_task_events=True,
        result_expires=RESULT_EXPIRES_S,
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT_S},
        broker_connection_retry_on_startup=True,
        rewards_queue_prefix=prefix,
    )
    register_tasks(app)
    return app
