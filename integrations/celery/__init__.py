"""Scoring at scale on Celery: the app (`make_app`), the chunk task, worker start-up, and
`CeleryReward`, a `Reward` whose `score` runs on the workers.

Start workers with `rewards worker --config CFG --queues cpu,sandbox --concurrency N`, then
score with `CeleryReward(CFG)` (or `use: celery` in a reward config). `celery -A
integrations.celery ...` (e.g. `flower`) uses the app configured from the environment.
"""

from typing import Any

from integrations.celery._app import QUEUE_KINDS, make_app, queue_name
from integrations.celery._tasks import configure_worker
from integrations.celery._worker import WorkerConfig, start_worker
from integrations.celery.client import (
    CeleryReward,
    ClientConfig,
    Progress,
    RunStats,
    deal_chunks,
)

__all__ = ["QUEUE_KINDS", "CeleryReward", "ClientConfig", "Progress", "RunStats", "WorkerConfig",
           "app", "configure_worker", "deal_chunks", "make_app", "queue_name", "start_worker"]

app: Any
"""The Celery app of `celery -A integrations.celery`: made on first use (`__getattr__`)."""


def __getattr__(name: str) -> object:
    # `celery -A integrations.celery` looks up `app`; made on first use, from the environment.
    if name == "app":
        global app
        app = make_app()
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
