"""`rewards worker --config CFG --queues cpu,sandbox --concurrency N`: a Celery worker that
scores chunks sent by `CeleryReward` clients with the same reward config."""

from __future__ import annotations

import argparse
import os
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("worker", help="run a Celery worker that scores chunks of samples",
                       description=__doc__)
    p.add_argument("--config", required=True,
                   help="reward config YAML; clients must score with the same config")
    p.add_argument("--queues", default="cpu",
                   help="comma-separated queues to take work from: cpu (math, rules), "
                        "sandbox (code), gpu (reward models); default: cpu")
    p.add_argument("--concurrency", type=int, default=os.cpu_count() or 1,
                   help="pool processes, each scoring one chunk at a time (default: CPU count)")
    p.add_argument("--broker", default=None,
                   help="broker URL (default: $REWARDS_BROKER_URL or redis://127.0.0.1:6379/0)")
    p.add_argument("--backend", default=None,
                   help="result store URL (default: $REWARDS_RESULT_BACKEND or the Redis above)")
    p.add_argument("--queue-prefix", default=None,
                   help="prefix of the queue names (default: $REWARDS_QUEUE_PREFIX or none)")
    p.add_argument("--hostname", default=None, help="worker node name, as Flower shows it")
    p.add_argument("--loglevel", default="INFO", help="worker log level (default: INFO)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from integrations.celery import start_worker

    queues = [q.strip() for q in args.queues.split(",") if q.strip()]
    start_worker(args.config, queues=queues, concurrency=args.concurrency, broker=args.broker,
                 backend=args.backend, queue_prefix=args.queue_prefix, hostname=args.hostname,
                 loglevel=args.loglevel)
    return 0
