"""Rewards for the Celery tests. Workers import them by dotted path, so the fixtures put this
folder on the workers' PYTHONPATH (and on sys.path here, for local scoring to compare with)."""

from __future__ import annotations

import functools
import hashlib
import os
import signal
import time

from rewards import Sample, Score, reward


@functools.cache
def _counter():  # type: ignore[no-untyped-def]
    """One Redis connection per process for the scoring counters."""
    import redis

    return redis.Redis.from_url(os.environ["COUNT_SCORING_REDIS"])


def _count(key: str) -> int:
    """Add one to a counter that Redis forgets after an hour."""
    count, _ = _counter().pipeline().incr(key).expire(key, 3600).execute()
    return int(count)


@reward
def digest(sample: Sample) -> Score:
    """A deterministic, content-dependent value in [0, 1): a misplaced or swapped score shows.

    `meta.sleep_ms` makes it slow; completion `POISON` raises (a poison sample), `CRASH`
    kills the process scoring it; with
    `COUNT_SCORING_REDIS` set, every scoring of `meta.id` is counted in that Redis DB, so a
    test can see how often each sample was actually scored across workers."""
    if sample.completion == "POISON":
        raise ValueError("this completion breaks the scorer")
    if sample.completion == "CRASH":  # as a segfault in a native extension would
        os.kill(os.getpid(), signal.SIGKILL)
    sleep_ms = sample.meta.get("sleep_ms", 0)
    if sleep_ms:
        time.sleep(sleep_ms / 1000)
    if os.environ.get("COUNT_SCORING_REDIS") and "id" in sample.meta:
        _count(f"scored:{sample.meta['id']}")
    h = hashlib.sha256(f"{sample.prompt}|{sample.completion}".encode()).digest()
    value = int.from_bytes(h[:6], "big") / 2 ** 48
    return Score(value, "ok" if value >= 0.5 else "wrong", {"first_byte": float(h[0])})


@reward
def flaky(sample: Sample) -> Score:
    """Broken infrastructure for the first `meta.fail_times` tries of `meta.id` (counted in
    `COUNT_SCORING_REDIS`), then a wrong answer: retried only while the sandbox is broken."""
    from rewards.errors import SandboxError

    tries = _count(f"flaky:{sample.meta['id']}")
    if tries <= sample.meta.get("fail_times", 0):
        raise SandboxError(f"the sandbox could not start (try {tries}, on purpose)")
    return Score(0.0, "wrong")


@reward
def length_mod(sample: Sample) -> Score | float:
    """The completion's length modulo 3, a second component beside `digest`; abstains on a
    completion ending in `?` (as a judge that cannot decide would)."""
    if sample.completion.endswith("?"):
        return Score(None, "timeout")
    return float(len(sample.completion) % 3)
