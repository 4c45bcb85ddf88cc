"""Fixtures for the Celery tests: real Redis (DB 13) and RabbitMQ on 127.0.0.1, and workers
started as real `rewards worker` processes, each in its own process group, always stopped.

Queue names carry a per-session prefix, so parallel test runs on one broker never share work.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # celery_cluster, celery_test_rewards


from celery_cluster import (  # type: ignore[import-not-found]
    AMQP_URL,
    FAULT_CONFIG,
    REDIS_URL,
    Cluster,
    cleanup,
    delete_rabbit_queues,
    make_cluster,
    reachable,
)


@pytest.fixture(scope="session")
def redis_client():  # type: ignore[no-untyped-def]
    pytest.importorskip("celery", reason="needs the celery extra: pip install -e "
                                         "'.[celery]'")
    if not reachable(6379):
        pytest.skip("needs Redis on 127.0.0.1:6379")
    import redis

    return redis.Redis.from_url(REDIS_URL)


@pytest.fixture(scope="session")
def amqp_url() -> str:
    if not reachable(5672):
        pytest.skip("needs RabbitMQ on 127.0.0.1:5672 (guest/guest)")
    return AMQP_URL


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory, redis_client) -> Iterator[Cluster]:  # type: ignore[no-untyped-def]
    """Two workers on Redis: one takes `cpu`, the other `gpu` and `sandbox`."""
    cluster = make_cluster(tmp_path_factory, REDIS_URL, "redis")
    try:
        started = [cluster.start(queues="cpu", name="cpu"),
                   cluster.start(queues="gpu,sandbox", name="gpu")]
        for worker in started:
            worker.wait_ready()
        yield cluster
    finally:
        cleanup(cluster, redis_client)


@pytest.fixture
def fresh_cluster(tmp_path_factory, redis_client) -> Iterator[Cluster]:  # type: ignore[no-untyped-def]
    """An empty Redis cluster of its own (the test starts and kills its workers)."""
    cluster = make_cluster(tmp_path_factory, REDIS_URL, "fault", FAULT_CONFIG)
    try:
        yield cluster
    finally:
        cleanup(cluster, redis_client)


@pytest.fixture
def rabbit_cluster(tmp_path_factory, redis_client, amqp_url) -> Iterator[Cluster]:  # type: ignore[no-untyped-def]
    """An empty cluster on RabbitMQ (results in Redis)."""
    cluster = make_cluster(tmp_path_factory, amqp_url, "rabbit", FAULT_CONFIG)
    try:
        yield cluster
    finally:
        cluster.stop_all()
        delete_rabbit_queues(cluster)


