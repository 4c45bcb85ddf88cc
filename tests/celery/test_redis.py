"""CeleryReward against the real Redis with two real workers: one on `cpu`, one on `gpu`."""

from __future__ import annotations

import json
import threading
import time
import uuid

import pytest

from rewards import ConfigError, EngineError, InputError, Sample, SandboxError, Score, build_reward


def _samples(n: int, tag: str, domains: tuple[str, ...] = ("a", "b")) -> list[Sample]:
    return [Sample(f"prompt {i}", f"{tag} completion {i}", domain=domains[i % len(domains)],
                   group=f"g{i % 5}", meta={"id": f"{tag}-{i}"}) for i in range(n)]


def test_scores_come_back_in_order_equal_to_local_scoring(redis_cluster) -> None:
    samples = _samples(230, uuid.uuid4().hex) + [Sample("p", "c", domain="zzz")]
    with redis_cluster.client(chunk_size=16) as remote:
        got = remote.score(samples)
        stats = remote.last_stats
    local = build_reward(redis_cluster.config).score(samples)
    assert got == local  # values, reasons, parts; the unknown domain as local scoring has it
    assert got[-1] == Score(None, "unknown_domain")
    # each domain holds 5 groups of 23 samples, and a group travels whole in one chunk
    assert stats.chunks == 10 and stats.resent == 0
    # domain a is cpu work, domain b (a learned component) is gpu work: each on its worker
    cpu, gpu = (w.hostname for w in redis_cluster.workers)
    assert stats.workers == {cpu: 5, gpu: 5}
    assert stats.worker_samples == {cpu: 115, gpu: 115}


def test_an_empty_batch_sends_nothing(redis_cluster) -> None:
    with redis_cluster.client() as remote:
        assert remote.score([]) == []
        assert remote.last_stats.chunks == 0


def test_a_poison_sample_is_an_error_row_and_the_worker_lives_on(redis_cluster) -> None:
    samples = _samples(40, uuid.uuid4().hex, domains=("a",))
    samples[17] = Sample("p", "POISON", domain="a")
    with redis_cluster.client(chunk_size=10) as remote:
        got = remote.score(samples)
        assert remote.last_stats.error_rows == 1
    local = build_reward(redis_cluster.config)
    assert got[17] == Score(None, "error")
    assert got[:17] + got[18:] == local.score(samples[:17] + samples[18:])
    assert all(w.alive() for w in redis_cluster.workers)


def test_progress_counts_chunks(redis_cluster) -> None:
    seen: list[tuple[int, int]] = []
    with redis_cluster.client(chunk_size=10, progress=lambda d, t: seen.append((d, t))) as remote:
        remote.score(_samples(95, uuid.uuid4().hex))
        assert (remote.progress.done, remote.progress.total) == (10, 10)
    assert seen[0] == (0, 10) and seen[-1] == (10, 10)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_progress_bar_on_stderr(redis_cluster, capfd) -> None:
    with redis_cluster.client(chunk_size=10, progress=True) as remote:
        remote.score(_samples(40, uuid.uuid4().hex))
    assert "4/4" in capfd.readouterr().err


def test_a_worker_with_another_config_is_an_error(redis_cluster, tmp_path) -> None:
    other = tmp_path / "other.yaml"  # same rewards, other normalization: another content hash
    other.write_text(redis_cluster.config.read_text().replace("normalize: none",
                                                              "normalize: group"))
    with redis_cluster.client(config=other) as remote, \
            pytest.raises(ConfigError, match="config mismatch"):
        remote.score(_samples(8, uuid.uuid4().hex))


def test_infrastructure_failures_are_retried_and_wrong_answers_are_not(redis_cluster,
                                                                       redis_client) -> None:
    tag = uuid.uuid4().hex
    samples = [Sample("p", "c", domain="flaky", meta={"id": f"{tag}-0", "fail_times": 0}),
               Sample("p", "c", domain="flaky", meta={"id": f"{tag}-2", "fail_times": 2})]
    with redis_cluster.client(chunk_size=1) as remote:
        got = remote.score(samples)
    assert [(s.value, s.reason) for s in got] == [(0.0, "wrong"), (0.0, "wrong")]
    assert int(redis_client.get(f"flaky:{tag}-0")) == 1  # a wrong answer: scored once
    assert int(redis_client.get(f"flaky:{tag}-2")) == 3  # two sandbox failures, then scored
    broken = [Sample("p", "c", domain="flaky", meta={"id": f"{tag}-9", "fail_times": 99})]
    with redis_cluster.client() as remote, \
            pytest.raises(SandboxError, match="could not start"):
        remote.score(broken)
    assert int(redis_client.get(f"flaky:{tag}-9")) == 4  # the first try and three retries


def test_a_chunk_over_its_time_limit_is_split_and_the_slow_sample_times_out(
        redis_cluster) -> None:
    tag = uuid.uuid4().hex
    samples = _samples(3, tag, domains=("a",))
    samples[1] = Sample("p", "slow", domain="a", meta={"id": f"{tag}-slow", "sleep_ms": 4000})
    config = redis_cluster.config
    with redis_cluster.client(chunk_size=3, chunk_time_limit=1.0, config=config) as remote:
        got = remote.score(samples)
        assert remote.last_stats.split == 1 and remote.last_stats.chunks == 4
    assert got[1] == Score(None, "timeout")
    local = build_reward(config)
    assert [got[0], got[2]] == local.score([samples[0], samples[2]])
    assert all(w.alive() for w in redis_cluster.workers)


def test_messages_are_json_on_the_broker(redis_cluster, redis_client) -> None:
    """What a client puts on the queue is JSON (never pickle), read here straight from Redis."""
    from integrations.celery.client import _Chunk

    with redis_cluster.client(queue_prefix=f"nobody-{uuid.uuid4().hex[:6]}-") as remote:
        queue = f"{remote.queue_prefix}cpu"
        chunk = _Chunk(f"rewards-json-{uuid.uuid4().hex[:6]}", [0], queue, time.monotonic())
        sample = _samples(1, "json")[0]
        from integrations.celery._wire import encode_sample

        with remote.app.producer_or_acquire() as producer:
            remote._send(producer, chunk, [encode_sample(sample)])
    try:
        raw = json.loads(redis_client.lindex(queue, 0))
        assert raw["content-type"] == "application/json"
        assert raw["headers"]["id"] == chunk.chunk_id
        import base64

        _args, kwargs, _ = json.loads(base64.b64decode(raw["body"]))
        assert kwargs["samples"][0]["completion"] == sample.completion
        assert kwargs["config_hash"] == remote.config_hash
    finally:
        redis_client.delete(queue)


def test_task_events_reach_a_monitor_like_flower(redis_cluster) -> None:
    """Flower builds its view from these events; capture them as it does."""
    from integrations.celery import make_app

    app = make_app(broker=redis_cluster.broker, backend=redis_cluster.backend,
                   queue_prefix=redis_cluster.prefix)
    events: list[dict] = []
    with app.connection() as conn:
        receiver = app.events.Receiver(conn, handlers={"*": events.append})
        thread = threading.Thread(target=receiver.capture, daemon=True,
                                  kwargs={"limit": None, "timeout": None, "wakeup": False})
        thread.start()
        time.sleep(1.0)  # the receiver subscribes to the event exchange
        with redis_cluster.client(chunk_size=5) as remote:
            remote.score(_samples(10, uuid.uuid4().hex, domains=("a",)))
        deadline = time.monotonic() + 5  # the last task-succeeded, and a worker heartbeat
        while time.monotonic() < deadline and not (
                sum(e["type"] == "task-succeeded" for e in events) >= 2
                and any(e["type"] == "worker-heartbeat" for e in events)):
            time.sleep(0.1)
        receiver.should_stop = True
        thread.join(5)
    kinds = {e["type"] for e in events}
    assert {"task-sent", "task-received", "task-started", "task-succeeded"} <= kinds
    assert "worker-heartbeat" in kinds
    started = [e for e in events if e["type"] == "task-started"]
    assert {e["hostname"] for e in started} == {redis_cluster.workers[0].hostname}



def test_one_config_key_switches_to_distributed_scoring(redis_cluster, tmp_path) -> None:
    """`use: celery` in a reward config: the trainer's config changes, its code does not."""
    import yaml

    outer = tmp_path / "distributed.yaml"
    outer.write_text(yaml.safe_dump({"domains": {"default": {"rewards": [{
        "use": "celery", "config": str(redis_cluster.config), "chunk_size": 8, "timeout": 60,
        "broker": redis_cluster.broker, "backend": redis_cluster.backend,
        "queue_prefix": redis_cluster.prefix}]}}}))
    samples = _samples(30, uuid.uuid4().hex)
    remote = build_reward(outer).score(samples)
    local = build_reward(redis_cluster.config).score(samples)
    assert [(s.value, s.reason) for s in remote] == [(s.value, s.reason) for s in local]
    assert all(s.parts["celery"] == s.value for s in remote)


def test_a_long_chunk_on_a_live_worker_keeps_its_heartbeat_and_is_not_sent_again(
        redis_cluster) -> None:
    tag = uuid.uuid4().hex
    samples = [Sample("p", f"{tag} {i}", domain="a", meta={"sleep_ms": 1200}) for i in range(3)]
    with redis_cluster.client(chunk_size=3, heartbeat_s=0.5, lost_after_s=2.0) as remote:
        got = remote.score(samples)  # 3.6 s in one chunk: longer than lost_after_s
        assert remote.last_stats.resent == 0
    assert got == build_reward(redis_cluster.config).score(samples)


def test_a_sample_that_kills_its_worker_process_becomes_an_error_row(redis_cluster) -> None:
    """Redelivered after each crash (reject_on_worker_lost); after three, the chunk is split
    and the crashing sample alone scores `worker_lost`, instead of looping forever."""
    samples = _samples(3, uuid.uuid4().hex, domains=("a",))
    samples[1] = Sample("p", "CRASH", domain="a")
    with redis_cluster.client(chunk_size=3) as remote:
        got = remote.score(samples)
        assert remote.last_stats.split == 1 and remote.last_stats.error_rows == 1
    assert got[1] == Score(None, "worker_lost")
    assert [got[0], got[2]] == build_reward(redis_cluster.config).score([samples[0], samples[2]])
    assert all(w.alive() for w in redis_cluster.workers)
    with redis_cluster.client() as remote:  # and the worker still scores
        assert len(remote.score(_samples(4, uuid.uuid4().hex, domains=("a",)))) == 4


def test_no_worker_on_the_queue_is_an_engine_error_naming_it(redis_cluster,
                                                             redis_client) -> None:
    prefix = f"nobody-{uuid.uuid4().hex[:6]}-"
    try:
        with redis_cluster.client(queue_prefix=prefix, timeout=1.0) as remote, \
                pytest.raises(EngineError, match=f"{prefix}cpu"):
            remote.score(_samples(3, "idle", domains=("a",)))
    finally:
        redis_client.delete(f"{prefix}cpu")


def test_a_sample_that_cannot_travel_as_json_is_an_input_error(redis_cluster) -> None:
    sample = Sample("p", "c", reference={1, 2}, domain="a")
    with redis_cluster.client() as remote, pytest.raises(InputError, match="reference"):
        remote.score([sample])
