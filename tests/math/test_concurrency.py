"""The verifier from threads, asyncio and daemonic processes (what Celery prefork children
are): no signals in the caller, workers started with subprocess, not multiprocessing."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from rewards import Sample
from rewards.math import MathReward, Verdict, VerdictCache, WorkerPool, compare_batch
from rewards.math._compare import compare_local


def _samples(k: int) -> tuple[list[Sample], list[str]]:
    """Symbolic pairs (each needs a worker), distinct per `k` so caches do not hide work."""
    table = [
        (f"\\boxed{{x^2+2x+1+{k}}}", f"(x+1)^2+{k}", "ok"),
        (f"\\boxed{{\\sqrt{{8}}+{k}}}", f"2\\sqrt{{2}}+{k}", "ok"),
        (f"\\boxed{{\\{{1,{k + 3}\\}}}}", f"\\{{{k + 3},1\\}}", "ok"),
        (f"\\boxed{{[0,{k + 1})}}", f"(0,{k + 1}]", "wrong"),
        (f"\\boxed{{y=2x+{k + 1}}}", f"y=3x+{k + 1}", "wrong"),
        ("\\boxed{\\frac{1}{2006!}}", "\\frac{1}{2004!}", "wrong"),
    ]
    return ([Sample("p", completion, reference=gold) for completion, gold, _ in table],
            [reason for _, _, reason in table])


def test_eight_threads_at_once(math_config, warm_pool):
    def work(offset: int) -> tuple[list[str], list[str]]:
        reward = MathReward(timeout=math_config.timeout, workers=2, cache_size=0)
        samples, expected = _samples(offset)
        return [s.reason for s in reward.score(samples)], expected

    with ThreadPoolExecutor(8) as executor:
        results = list(executor.map(work, range(8)))
    assert len(results) == 8
    for got, expected in results:
        assert got == expected


def test_asyncio(math_reward):
    async def main() -> list[list[str]]:
        batches = [_samples(i)[0] for i in range(4)]
        results = await asyncio.gather(*(math_reward.ascore(b) for b in batches))
        direct = math_reward.score(batches[0])  # a blocking call inside the loop works too
        return [[s.reason for s in r] for r in [*results, direct]]

    expected = _samples(0)[1]
    assert asyncio.run(main()) == [expected] * 5


def _score_in_child(queue) -> None:  # runs in a daemonic child process
    try:
        multiprocessing.get_context("fork").Process(target=print).start()
        refused = ""
    except AssertionError as exc:
        refused = str(exc)
    reward = MathReward(timeout=2.0, workers=1)
    samples, _ = _samples(99)
    queue.put((refused, [s.reason for s in reward.score(samples)]))


def test_daemonic_process(math_reward, warm_pool):
    """Like a Celery prefork child: forked from a parent that already holds a warm pool,
    daemonic (multiprocessing refuses it children), and still scoring through fresh workers."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_score_in_child, args=(queue,), daemon=True)
    child.start()
    refused, reasons = queue.get(timeout=120)
    child.join(30)
    assert "daemonic processes are not allowed to have children" in refused
    assert reasons == _samples(99)[1]
    assert child.exitcode == 0
    # The parent's pool is untouched by the child.
    assert math_reward.score(_samples(5)[0])[0].reason == "ok"


def _score_with(reward, queue) -> None:  # runs in a forked child
    queue.put([s.reason for s in reward.score(_samples(7)[0])])


def test_fork_while_another_thread_holds_the_cache_lock(math_reward):
    """The child must not inherit the lock as held (it would wait forever)."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    with math_reward.cache._lock:  # as if another thread were inside the cache at fork time
        child = context.Process(target=_score_with, args=(math_reward, queue), daemon=True)
        child.start()
    assert queue.get(timeout=120) == _samples(7)[1]
    child.join(30)
    assert child.exitcode == 0


def test_a_symbolic_job_runs_while_the_rest_of_its_batch_is_read(math_config, warm_pool):
    """`compare_batch` sends a pair's symbolic job to a worker as soon as it reads the pair,
    so the job runs while the rest of the batch is read (a request is never held for the
    reading of the batch's later samples). Checked by events: the batch's second pair is
    handed over only once the first pair's verdict has reached the cache, which, where jobs
    started only after the whole batch was read, never happens."""
    symbolic = ("\\sin^2 y+\\cos^2 y+17", "18")  # distinct from other tests: not cached
    job = compare_local(*symbolic, math_config)
    assert not isinstance(job, Verdict)  # needs sympy
    cache = VerdictCache(64)
    decided_while_reading: list[bool] = []

    def pairs():
        yield symbolic
        decided_while_reading.append(_eventually(
            lambda: cache.get((*job, math_config)) is not None))
        yield ("4", "4")
        yield ("5", "4")

    told: list[tuple[int, str]] = []
    verdicts = compare_batch(pairs(), math_config, cache, [None] * 3, [None] * 3,
                             ready=lambda ix, vs: told.extend(
                                 (i, v.reason) for i, v in zip(ix, vs)))
    assert decided_while_reading == [True]
    assert [v.reason for v in verdicts] == ["ok", "ok", "wrong"]
    assert sorted(told) == [(0, "ok"), (1, "ok"), (2, "wrong")]


def test_the_pool_serves_callers_in_the_order_they_asked():
    """A thread that gives a worker back and asks again (a batch's next job) waits behind
    the callers already waiting, never takes the worker ahead of them: three threads queue
    for the one worker of a pool, then its holder releases it and asks at once; the worker
    goes to the three in the order they asked, and to the holder last."""
    pool = WorkerPool(1)
    try:
        held, _ = pool._acquire()
        order: list[str] = []

        def ask(name: str) -> None:
            worker, _ = pool._acquire()
            order.append(name)
            pool._release(worker)

        threads = []
        for k, name in enumerate(["first", "second", "third"], start=1):
            threads.append(threading.Thread(target=ask, args=(name,)))
            threads[-1].start()
            assert _eventually(lambda k=k: len(pool._queue) == k)  # queued before the next
        pool._release(held)
        again, _ = pool._acquire()
        order.append("holder")
        pool._release(again)
        for thread in threads:
            thread.join()
        assert order == ["first", "second", "third", "holder"]
    finally:
        pool.close()


def _eventually(condition, *, polls: int = 3000) -> bool:
    """True once `condition()` is; False if it is not after `polls` checks 10 ms apart (a
    bound on a failing run's wait, not a timing the test asserts)."""
    for _ in range(polls):
        if condition():
            return True
        time.sleep(0.01)
    return False
