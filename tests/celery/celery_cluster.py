"""The Celery test cluster: broker URLs, reward configs, real `rewards worker` processes
(`Worker`, `Cluster`) and their clean-up. The fixtures in conftest.py build on it; tests import
it by name (a `conftest` module name is shared by every test folder)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

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


def reachable(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


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


def make_cluster(tmp_path_factory, broker: str, name: str,  # type: ignore[no-untyped-def]
             text: str = SESSION_CONFIG.replace("NORMALIZE", "none")):
    root = tmp_path_factory.mktemp(name)
    config = root / "rewards.yaml"
    config.write_text(text)
    prefix = f"test-{name}-{uuid.uuid4().hex[:8]}-"
    return Cluster(config, broker, REDIS_URL, prefix, root)


def cleanup(cluster: Cluster, redis_client) -> None:  # type: ignore[no-untyped-def]
    cluster.stop_all()
    for kind in ("cpu", "sandbox", "gpu"):
        redis_client.delete(f"{cluster.prefix}{kind}")


def delete_rabbit_queues(cluster: Cluster) -> None:
    from kombu import Connection

    with Connection(cluster.broker) as conn:
        channel = conn.channel()
        for kind in ("cpu", "sandbox", "gpu"):
            try:
                channel.queue_delete(f"{cluster.prefix}{kind}")
            except Exception as exc:  # noqa: BLE001 - cleanup: report, never hide the test's error
                print(f"could not delete queue {cluster.prefix}{kind}: {exc}", file=sys.stderr)
        channel.close()
