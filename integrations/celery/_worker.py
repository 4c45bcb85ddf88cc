"""Starting a worker: the process behind `rewards worker --config CFG --queues cpu,sandbox`."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from integrations.celery._app import QUEUE_KINDS, make_app, queue_name
from integrations.celery._tasks import configure_worker, worker_config
from rewards.config import RewardConfig
from rewards.errors import ConfigError
from rewards.registry import resolve

__all__ = ["start_worker", "worker_argv"]

log = logging.getLogger("integrations.celery.worker")


def worker_argv(*, queues: Sequence[str], concurrency: int, queue_prefix: str,
                hostname: str | None = None, loglevel: str = "INFO") -> list[str]:
    """The `celery worker` arguments: prefork pool (time limits need it), task events on (for
    Flower), one message per pool process, no gossip or mingle (faster start, less chatter)."""
    unknown = [q for q in queues if q not in QUEUE_KINDS]
    if not queues or unknown:
        raise ConfigError(f"--queues takes a comma-separated subset of {','.join(QUEUE_KINDS)}, "
                          f"got {','.join(queues) or 'nothing'}")
    if concurrency < 1:
        raise ConfigError(f"--concurrency must be >= 1, not {concurrency}")
    hostname = hostname or f"rewards-{'-'.join(queues)}-{os.getpid()}@{socket.gethostname()}"
    return ["worker", "--pool=prefork", f"--concurrency={concurrency}",
            f"--queues={','.join(queue_name(q, queue_prefix) for q in queues)}",
            f"--hostname={hostname}", f"--loglevel={loglevel}", "--task-events",
            "--prefetch-multiplier=1", "--without-gossip", "--without-mingle"]


def start_worker(config: RewardConfig | str | Path, *, queues: Sequence[str],
                 concurrency: int = 1, broker: str | None = None, backend: str | None = None,
                 queue_prefix: str | None = None, hostname: str | None = None,
                 loglevel: str = "INFO") -> None:
    """Run a worker in this process until it is stopped (SIGTERM: finish the running chunks;
    a second SIGTERM or SIGQUIT: stop now, the chunks go back to the queue)."""
    worker = configure_worker(config)
    for spec in worker.config.domains.values():  # fail here, not on the first chunk
        for component in spec.rewards:
            resolve(component.use)
    app = make_app(broker=broker, backend=backend, queue_prefix=queue_prefix)
    argv = worker_argv(queues=queues, concurrency=concurrency,
                       queue_prefix=app.conf.rewards_queue_prefix, hostname=hostname,
                       loglevel=loglevel)
    from celery.signals import worker_process_init

    worker_process_init.connect(_build_reward, weak=False)
    log.warning("scoring with %s (config %s) on queues %s", worker.source, worker.content_hash,
                ",".join(queues))
    app.worker_main(argv)


def _build_reward(**_: Any) -> None:
    """Build the reward in each pool process as it starts, so the first chunk does not pay
    for it; a failure is logged here and raised again by the first chunk (as ConfigError)."""
    try:
        worker_config().reward()
    except Exception as exc:  # noqa: BLE001 - the chunk reports it to the client
        log.error("building the reward failed: %s: %s", type(exc).__name__, exc)
