"""Starting a worker: the process behind `rewards worker --config CFG --queues cpu,sandbox`."""

from __future__ import annotations

import logging
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from integrations.celery._app import QUEUE_KINDS, QueueKind, make_app, queue_name
from integrations.celery._tasks import configure_worker, worker_config
from rewards.config import RewardConfig
from rewards.errors import ConfigError
from rewards.options import check_fields, check_range, load_options
from rewards.registry import resolve

__all__ = ["WorkerConfig", "start_worker", "worker_argv"]

log = logging.getLogger("integrations.celery.worker")


@dataclass(frozen=True)
class WorkerConfig:
    """How a scoring worker runs: the flags of `rewards worker`, the keywords of
    `start_worker`. (The reward config it scores with is given beside it.)"""

    queues: tuple[QueueKind, ...] = ("cpu",)
    """Queues to take work from: cpu (math, rules), sandbox (code), gpu (reward models)."""
    concurrency: int = 1
    """Pool processes, each scoring one chunk at a time."""
    broker: str | None = None
    """Broker URL; None: `REWARDS_BROKER_URL`, else Redis on 127.0.0.1."""
    backend: str | None = None
    """Result store URL; None: `REWARDS_RESULT_BACKEND`, else the Redis above."""
    queue_prefix: str | None = None
    """Prefix of the queue names; None: `REWARDS_QUEUE_PREFIX`, else none."""
    hostname: str | None = None
    """Worker node name, as Flower shows it; None: `rewards-<queues>-<pid>@<host>`."""
    loglevel: str = "INFO"
    """Worker log level."""

    def __post_init__(self) -> None:
        check_fields(self)
        if not self.queues:
            raise ConfigError(f"queues: name at least one of {', '.join(QUEUE_KINDS)}")
        check_range("concurrency", self.concurrency, ge=1)


def worker_argv(worker: WorkerConfig, *, queue_prefix: str) -> list[str]:
    """The `celery worker` arguments: prefork pool (time limits need it), task events on (for
    Flower), one message per pool process, no gossip or mingle (faster start, less chatter)."""
    queues = worker.queues
    hostname = worker.hostname or f"rewards-{'-'.join(queues)}-{os.getpid()}@{socket.gethostname()}"
    return ["worker", "--pool=prefork", f"--concurrency={worker.concurrency}",
            f"--queues={','.join(queue_name(q, queue_prefix) for q in queues)}",
            f"--hostname={hostname}", f"--loglevel={worker.loglevel}", "--task-events",
            "--prefetch-multiplier=1", "--without-gossip", "--without-mingle"]


def start_worker(config: RewardConfig | str | Path, **options: Any) -> None:
    """Run a worker scoring with the reward config `config` in this process until it is
    stopped (SIGTERM: finish the running chunks; a second SIGTERM or SIGQUIT: stop now, the
    chunks go back to the queue). The options are the fields of `WorkerConfig`."""
    settings = load_options(WorkerConfig, options, where="worker")
    worker = configure_worker(config)
    for spec in worker.config.domains.values():  # fail here, not on the first chunk
        for component in spec.rewards:
            resolve(component.use)
    app = make_app(broker=settings.broker, backend=settings.backend,
                   queue_prefix=settings.queue_prefix)
    argv = worker_argv(settings, queue_prefix=app.conf.rewards_queue_prefix)
    from celery.signals import worker_process_init

    worker_process_init.connect(_build_reward, weak=False)
    log.warning("scoring with %s (config %s) on queues %s", worker.source, worker.content_hash,
                ",".join(settings.queues))
    app.worker_main(argv)


def _build_reward(**_: Any) -> None:
    """Build the reward in each pool process as it starts, so the first chunk does not pay
    for it; a failure is logged here and raised again by the first chunk (as ConfigError)."""
    try:
        worker_config().reward()
    except Exception as exc:  # noqa: BLE001 - the chunk reports it to the client
        log.error("building the reward failed: %s: %s", type(exc).__name__, exc)
