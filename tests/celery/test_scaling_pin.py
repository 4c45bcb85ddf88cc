"""The Celery scaling benchmark's premise: each worker, with every process it starts (its
pool process, the math comparison process), runs on the one core it was pinned to, so
"two workers / one" compares two cores with one on any machine."""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import pytest
from celery_cluster import REDIS_URL  # type: ignore[import-not-found]

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_benchmark_worker_and_its_processes_stay_on_their_core(tmp_path, redis_client,
                                                               monkeypatch) -> None:
    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no CPU affinity on this platform")
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import celery_scaling  # type: ignore[import-not-found]

    core = max(os.sched_getaffinity(0))
    config = tmp_path / "rewards.yaml"
    config.write_text(celery_scaling.CONFIG)
    prefix = f"test-pin-{uuid.uuid4().hex[:8]}-"
    log = tmp_path / "worker.log"
    process = celery_scaling.start_worker(config, REDIS_URL, prefix, f"pin@{uuid.uuid4().hex}",
                                          log, core)
    try:
        from integrations.celery import CeleryReward
        from rewards import Sample

        # one math sample scored: the worker has started its pool process and the pool
        # process its math comparison process
        with CeleryReward(config, broker=REDIS_URL, backend=celery_scaling.REDIS,
                          queue_prefix=prefix, timeout=120) as client:
            (score,) = client.score([Sample("1 + 1?", "\\boxed{2}", reference="2",
                                            domain="math")])
        assert score.value == 1.0
        pids = celery_scaling.process_tree(process.pid)
        assert len(pids) >= 3, log.read_text()
        for pid in pids:
            assert os.sched_getaffinity(pid) == {core}, (pid, sys.platform)
        # what the benchmark reads of the worker: its tree's CPU time (the math sample above
        # took some) and its threads' run-queue waits
        spent = celery_scaling.usage(process.pid)
        assert spent.cpu_s > 0 and len(spent.waited_s) >= len(pids)
        cpu, waited = spent.since(celery_scaling.Usage())
        assert cpu == spent.cpu_s and waited >= 0
    finally:
        celery_scaling.stop(process)
        for kind in ("cpu", "sandbox", "gpu"):
            redis_client.delete(f"{prefix}{kind}")
