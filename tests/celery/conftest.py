"""Fixtures for the Celery tests: real Redis (DB 13) and RabbitMQ on 127.0.0.1, and workers
started as real `rewards worker` processes, each in its own process group, always stopped.

Queue names carry a per-session prefix, so parallel test runs on one broker never share work.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HERE = Path(__file__).parent
REDIS_URL = "redis://127.0.0.1:6379/13"
AMQP_URL = "amqp://guest:guest@127.0.0.1:5672//"

if str(HERE) not in sys.path:  # the test rewards, for local scoring to compare with
    sys.path.insert(0, str(HERE))

SESSION_CONFIG = """\
domains:
  a: {rewards: [{use: "celery_test_rewards:digest"}]}
  b: {rewards: [{use: "celery_test_rewards:digest", kind: learned}]}
  flaky: {rewards: [{use: "celery_test_rewards:flaky"}]}
normalize: NORMALIZE
"""  # none for the shared workers; a client with another value has another config hash


# The fault tests score real math and code next to the counting test reward.
FAULT_CONFIG = """\
domains:
  a: {rewards: [{use: "celery_test_rewards:digest"}]}
  math: {rewards: [{use: math, workers: 1}]}
  code: {rewards: [{use: rtv, max_workers: 1}]}
normalize: group
"""


def _reachable(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def redis_client():  # type: ignore[no-untyped-def]
    pytest.importorskip("celery", reason="needs the celery extra: pip install "
                                         "'rewards-engine[celery]'")
    if not _reachable(6379):
        pytest.skip("needs Redis on 127.0.0.1:6379")
    import redis

    return redis.Redis.from_url(REDIS_URL)


@pytest.fixture(scope="session")
def amqp_url() -> str:
    if not _reachable(5672):
        pytest.skip("needs RabbitMQ on 127.0.0.1:5672 (guest/guest)")
    return AMQP_URL


@dataclass
class Worker:
    """One `rewards worker` process (its own process group) and its log."""

    process: subprocess.Popen
    log: Path
    hostname: str

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.log.exists() and " ready." in self.log.read_text(errors="replace"):
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"worker {self.hostname} did not start:\n"
                           f"{self.log.read_text(errors='replace')[-3000:]}")

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and pool), as a crashed machine would."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def holds_a_message(self) -> bool:
        """Whether the worker has taken a chunk it has not finished (its log says so)."""
        text = self.log.read_text(errors="replace")
        return text.count("] received") > text.count("] succeeded in")

    def alive(self) -> bool:
        return self.process.poll() is None


@dataclass
class Cluster:
    """Workers on one broker, with one queue prefix; stopped by the fixture's finalizer."""

    config: Path
    broker: str
    backend: str
    prefix: str
    logs: Path
    workers: list[Worker] = field(default_factory=list)

    def start(self, *, queues: str = "cpu", concurrency: int = 1, name: str = "w",
              config: Path | None = None) -> Worker:
        hostname = f"{name}-{uuid.uuid4().hex[:6]}@{socket.gethostname()}"
        log = self.logs / f"{hostname.split('@')[0]}.log"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(HERE), os.environ.get("PYTHONPATH", "")]), COUNT_SCORING_REDIS=REDIS_URL)
        cmd = [sys.executable, "-m", "rewards", "worker", "--config", str(config or self.config),
               "--queues", queues, "--concurrency", str(concurrency), "--broker", self.broker,
               "--backend", self.backend, "--queue-prefix", self.prefix,
               "--hostname", hostname]
        with log.open("w") as fh:
            process = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env,
                                       start_new_session=True)
        worker = Worker(process, log, hostname)
        self.workers.append(worker)
        return worker

    def client(self, **options):  # type: ignore[no-untyped-def]
        from integrations.celery import CeleryReward

        options = {"timeout": 60, "broker": self.broker, "backend": self.backend,
                   "queue_prefix": self.prefix, **options}
        return CeleryReward(options.pop("config", self.config), **options)

    def stop_all(self) -> None:
        for worker in self.workers:
            worker.stop()


def _cluster(tmp_path_factory, broker: str, name: str,  # type: ignore[no-untyped-def]
             text: str = SESSION_CONFIG.replace("NORMALIZE", "none")):
    root = tmp_path_factory.mktemp(name)
    config = root / "rewards.yaml"
    config.write_text(text)
    prefix = f"test-{name}-{uuid.uuid4().hex[:8]}-"
    return Cluster(config, broker, REDIS_URL, prefix, root)


def _cleanup(cluster: Cluster, redis_client) -> None:  # type: ignore[no-untyped-def]
    cluster.stop_all()
    for kind in ("cpu", "sandbox", "gpu"):
        redis_client.delete(f"{cluster.prefix}{kind}")


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory, redis_client) -> Iterator[Cluster]:  # type: ignore[no-untyped-def]
    """Two workers on Redis: one takes `cpu`, the other `gpu` and `sandbox`."""
    cluster = _cluster(tmp_path_factory, REDIS_URL, "redis")
    try:
        started = [cluster.start(queues="cpu", name="cpu"),
                   cluster.start(queues="gpu,sandbox", name="gpu")]
        for worker in started:
            worker.wait_ready()
        yield cluster
    finally:
        _cleanup(cluster, redis_client)


@pytest.fixture
def fresh_cluster(tmp_path_factory, redis_client) -> Iterator[Cluster]:  # type: ignore[no-untyped-def]
    """An empty Redis cluster of its own (the test starts and kills its workers)."""
    cluster = _cluster(tmp_path_factory, REDIS_URL, "fault", FAULT_CONFIG)
    try:
        yield cluster
    finally:
        _cleanup(cluster, redis_client)


@pytest.fixture
def rabbit_cluster(tmp_path_factory, redis_client, amqp_url) -> Iterator[Cluster]:  # type: ignore[no-untyped-def]
    """An empty cluster on RabbitMQ (results in Redis)."""
    cluster = _cluster(tmp_path_factory, amqp_url, "rabbit", FAULT_CONFIG)
    try:
        yield cluster
    finally:
        cluster.stop_all()
        _delete_rabbit_queues(cluster)


def _delete_rabbit_queues(cluster: Cluster) -> None:
    from kombu import Connection

    with Connection(cluster.broker) as conn:
        channel = conn.channel()
        for kind in ("cpu", "sandbox", "gpu"):
            try:
                channel.queue_delete(f"{cluster.prefix}{kind}")
            except Exception as exc:  # noqa: BLE001 - cleanup: report, never hide the test's error
                print(f"could not delete queue {cluster.prefix}{kind}: {exc}", file=sys.stderr)
        channel.close()
