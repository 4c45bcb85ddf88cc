"""A client that is closed (or interrupted) while its batch is being scored revokes what it
sent: the workers drop the queued chunks, so a rerun does not wait behind them."""

from __future__ import annotations

import threading
import time
import uuid

from celery_cluster import REDIS_URL, SESSION_CONFIG, cleanup, make_cluster  # type: ignore[import-not-found]

from rewards import EngineError, Sample


def test_closing_a_client_mid_batch_revokes_its_queued_chunks(tmp_path_factory,
                                                              redis_client) -> None:
    cluster = make_cluster(tmp_path_factory, REDIS_URL, "revoke",
                       SESSION_CONFIG.replace("NORMALIZE", "none"))
    try:
        cluster.start(queues="cpu").wait_ready()
        tag = uuid.uuid4().hex
        slow = [Sample("p", f"c{i}", domain="a", meta={"id": f"{tag}-{i}", "sleep_ms": 300})
                for i in range(20)]
        remote = cluster.client(chunk_size=1)
        errors: list[BaseException] = []

        def score() -> None:
            try:
                remote.score(slow)
            except BaseException as exc:  # noqa: BLE001 - the test reads it below
                errors.append(exc)

        thread = threading.Thread(target=score)
        thread.start()
        while remote.progress.done < 1 and thread.is_alive():
            time.sleep(0.02)
        remote.close()
        thread.join(timeout=30)
        assert len(errors) == 1 and isinstance(errors[0], EngineError)
        with cluster.client(chunk_size=1) as rerun:  # scored once the worker is free
            assert len(rerun.score([Sample("p", "after", domain="a")])) == 1
        scored = sum(redis_client.get(f"scored:{tag}-{i}") is not None for i in range(20))
        assert scored < 10  # the revoked chunks were dropped, not scored
    finally:
        cleanup(cluster, redis_client)
