"""The client's view of the result store (`ResultFeed`), against the real Redis: a write is
pushed to the client as it is made, so the client waits instead of polling; a write the push
cannot carry (made before the client subscribed, or after the subscription was lost) is seen
at the next full read."""

from __future__ import annotations

import uuid

from celery_cluster import REDIS_URL  # type: ignore[import-not-found]


def _feed(**options):  # type: ignore[no-untyped-def]
    from integrations.celery import make_app
    from integrations.celery._results import ResultFeed

    app = make_app(broker=REDIS_URL, backend=REDIS_URL, queue_prefix="test-feed-")
    return app, ResultFeed(app.backend, where=REDIS_URL, **options)


def test_a_stored_result_is_pushed_between_full_reads(redis_client) -> None:
    # full reads an hour apart: after the first, only a push can bring the result
    app, feed = _feed(full_read_s=3600.0)
    chunk = f"test-feed-{uuid.uuid4().hex}"
    try:
        feed.watch([chunk])
        assert feed.changes([chunk], finished=False) == {chunk: None}  # the first, full read
        app.backend.store_result(chunk, {"scores": [[1.0, "ok", {}]]}, "SUCCESS")
        seen: dict = {}
        for _ in range(40):  # each call waits for a push at most PUSH_WAIT_S
            seen.update(feed.changes([chunk], finished=False))
            if seen:
                break
        assert seen[chunk]["status"] == "SUCCESS"
        assert seen[chunk]["result"] == {"scores": [[1.0, "ok", {}]]}
    finally:
        feed.close()
        app.backend.forget(chunk)
        app.close()


def test_a_result_stored_before_watching_or_without_pushes_is_read_in_full(redis_client) -> None:
    app, feed = _feed(full_read_s=0.0)  # every call a full read
    early, late = (f"test-feed-{uuid.uuid4().hex}" for _ in range(2))
    try:
        app.backend.store_result(early, {"scores": []}, "SUCCESS")  # before the subscription
        feed.watch([early, late])
        first = feed.changes([early, late], finished=False)
        assert first[early]["status"] == "SUCCESS" and first[late] is None
        feed.close()  # the subscription lost: full reads (with a pause) carry on
        app.backend.store_result(late, {"scores": []}, "SUCCESS")
        assert feed.changes([late], finished=True)[late]["status"] == "SUCCESS"
        # and a chunk id the client does not ask about is not reported
        assert set(feed.changes([late], finished=False)) == {late}
    finally:
        feed.close()
        for chunk in (early, late):
            app.backend.forget(chunk)
        app.close()
