"""The micro-batcher on its own: order, batch limits, adaptive batching under load, poison
isolation and infrastructure failures."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence

import pytest

from integrations._batcher import BatchingConfig, MicroBatcher
from rewards import Sample, Score
from rewards.errors import ConfigError, EngineError
from rewards.types import ScoresReady


class SlowEcho:
    """Scores len(completion); records batch sizes; sleeps per batch (a model forward pass)."""

    def __init__(self, delay: float = 0.02) -> None:
        self.delay = delay
        self.batches: list[int] = []
        self.lock = threading.Lock()

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        with self.lock:
            self.batches.append(len(samples))
        time.sleep(self.delay)
        for s in samples:
            if "BOOM" in s.completion:
                raise ValueError("poison")
            if "DOWN" in s.completion:
                raise EngineError("model server down")
        return [Score(float(len(s.completion))) for s in samples]


def requests(n: int, size: int = 1) -> list[list[Sample]]:
    return [[Sample("p", "x" * (i + j)) for j in range(size)] for i in range(n)]


def run(batcher: MicroBatcher, reqs: list[list[Sample]]) -> list[object]:
    async def main() -> list[object]:
        results = await asyncio.gather(*(batcher.score(r) for r in reqs),
                                       return_exceptions=True)
        await batcher.close()
        return results

    return asyncio.run(main())


def test_results_in_order_and_batches_grow_under_load() -> None:
    reward = SlowEcho()
    batcher = MicroBatcher(reward, BatchingConfig(max_batch=16, max_inflight=1))
    reqs = requests(40, size=2)
    results = run(batcher, reqs)
    assert results == [[Score(float(i)), Score(float(i + 1))] for i in range(40)]
    assert sum(reward.batches) == 80 and max(reward.batches) <= 16
    assert len(reward.batches) < 40  # fewer batches than requests
    assert batcher.stats.as_dict()["requests"] == 40


def test_a_request_larger_than_max_batch_is_its_own_batch() -> None:
    reward = SlowEcho(0.0)
    results = run(MicroBatcher(reward, BatchingConfig(max_batch=4)), requests(1, size=10))
    assert len(results[0]) == 10  # type: ignore[arg-type]
    assert reward.batches == [10]


def test_disabled_batching_scores_each_request_alone() -> None:
    reward = SlowEcho(0.0)
    run(MicroBatcher(reward, BatchingConfig(enabled=False)), requests(6, size=3))
    assert reward.batches == [3] * 6


def test_poison_fails_only_its_request_and_infrastructure_fails_the_batch() -> None:
    reward = SlowEcho()
    batcher = MicroBatcher(reward, BatchingConfig(max_inflight=1, max_wait_ms=50))
    reqs = [[Sample("p", "warm")], [Sample("p", "ok")], [Sample("p", "BOOM")],
            [Sample("p", "fine")]]
    results = run(batcher, reqs)
    assert results[1] == [Score(2.0)] and results[3] == [Score(4.0)]
    assert isinstance(results[2], ValueError)
    down = run(MicroBatcher(reward, BatchingConfig(max_inflight=1, max_wait_ms=50)),
               [[Sample("p", "warm")], [Sample("p", "ok")], [Sample("p", "DOWN")]])
    assert isinstance(down[1], EngineError) and isinstance(down[2], EngineError)


@pytest.mark.parametrize("options", [{"max_batch": 0}, {"max_wait_ms": -1},
                                     {"max_inflight": 0}])
def test_config_is_checked(options: dict[str, float]) -> None:
    with pytest.raises(ConfigError):
        BatchingConfig(**options)  # type: ignore[arg-type]


class HeldBack:
    """A `Progressive` reward: tells the scores of every sample but those marked SLOW at
    once, then holds the batch until `release` is set (a symbolic comparison near its time
    limit), then tells the rest."""

    name = "held"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.batches: list[int] = []

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return self.score_progressively(samples, None)

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        self.batches.append(len(samples))
        scores = [Score(float(len(s.completion))) for s in samples]
        slow = [i for i, s in enumerate(samples) if "SLOW" in s.completion]
        fast = [i for i in range(len(samples)) if i not in slow]
        if ready is not None:
            ready(fast, [scores[i] for i in fast])
        self.release.wait(60)
        if ready is not None:
            ready(slow, [scores[i] for i in slow])
        return scores


def test_a_request_gets_its_scores_without_waiting_for_its_batchs_slowest_sample() -> None:
    reward = HeldBack()
    batcher = MicroBatcher(reward, BatchingConfig(max_wait_ms=50))

    async def main() -> None:
        slow = asyncio.ensure_future(batcher.score([Sample("p", "SLOW"), Sample("p", "a")]))
        fast = asyncio.ensure_future(batcher.score([Sample("p", "bb"), Sample("p", "ccc")]))
        try:  # both queued before the collector runs: one batch
            assert await asyncio.wait_for(fast, 30) == [Score(2.0), Score(3.0)]
            assert not slow.done()  # its SLOW sample is still held
        finally:
            reward.release.set()
        assert await asyncio.wait_for(slow, 30) == [Score(4.0), Score(1.0)]
        await batcher.close()

    asyncio.run(main())
    assert reward.batches == [4]
