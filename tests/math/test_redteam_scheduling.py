"""Red team of 04b4c83 (a batch's sympy jobs go to the pool as each pair is read; the worker
pool serves waiting callers first come, first served; the zygote warms the parser on common
answer shapes). Attacked, by the classes that reach these surfaces (docs/ATTACK-CLASSES:
degenerate length, resources, reaching another run, malformed output): whether anything one
sample, batch or client does changes another's verdict through the shared pool, the
per-reward verdict cache, the warm-up or the server's micro-batches:

- slow jobs (sympy expanding 2000th powers, bounded by the time limit) beside honest ones in
  one batch, in several orders, more slow jobs than workers;
- an exception while pair k is read, after the jobs of pairs < k went to the pool;
- the cache: one (answer, gold) text under different questions and configs, a completion
  that is another row's gold; the warm-up's shapes against a worker that never warmed up;
- first come, first served across batches: one batch's many jobs ahead of another's one;
- a job whose worker dies under it, while other callers wait in the queue;
- the same through `rewards serve` with several concurrent HTTP clients.

Held cases are plain tests; holes are strict xfails naming them. No timed assertions:
events, queue states, and verdict equality with a sequential baseline."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rewards import Sample
from rewards.math import (
    MathConfig,
    MathReward,
    Verdict,
    VerdictCache,
    WorkerError,
    WorkerPool,
    compare,
    compare_batch,
    shared_pool,
)
from rewards.math._compare import compare_local

REPO = Path(__file__).resolve().parents[2]

# Jobs only sympy decides (checked in `_job`), each a distinct text so no cache holds it.
HONEST = [("\\sin^2 x+\\cos^2 x", "1", "ok"), ("2\\sin x \\cos x", "\\sin 2x", "ok"),
          ("\\sin 2x", "2\\sin x", "wrong"), ("\\tan x \\cos x", "\\sin x", "ok")]
SLOW = [("(x+1)^{2000}", f"(x+{k})^{{2000}}") for k in (2, 3, 4)]
"""Within every structural limit; sympy expands both powers for many seconds."""


def _job(pred: str, gold: str, config: MathConfig) -> tuple[str, str, bool]:
    job = compare_local(pred, gold, config)
    assert not isinstance(job, Verdict), (pred, gold, job)  # needs a worker
    return job


def _eventually(condition: Callable[[], object], *, polls: int = 3000) -> bool:
    """True once `condition()` is; False after `polls` checks 10 ms apart (a bound on a
    failing run's wait, not a timing the test asserts)."""
    for _ in range(polls):
        if condition():
            return True
        time.sleep(0.01)
    return False


def _baseline(samples: list[Sample], **options: Any) -> list[tuple[float | None, str]]:
    """Each sample scored alone by a fresh reward (its own empty cache): the sequential
    verdict no other sample can have touched."""
    return [(s.value, s.reason) for sample in samples
            for s in MathReward(**options).score([sample])]


# -- slow jobs beside honest ones ---------------------------------------------------------

@pytest.mark.parametrize("layout", ["SSSHHHH", "HHHHSSS", "HSHSHSH", "SSHHHH"])
def test_honest_pairs_keep_their_verdicts_beside_slow_ones_in_any_order(
        layout: str, warm_pool: WorkerPool) -> None:
    """2 or 3 slow jobs (more than the pool's 2 workers: the pool is exhausted) first, last
    or between honest symbolic pairs (distinct golds, so rows cannot be swapped unseen):
    every honest row gets its sequential verdict, never `timeout`; every slow row times out
    on its own."""
    options: dict[str, Any] = {"timeout": 2.0, "workers": 2}
    honest, slow = iter(HONEST), iter(SLOW)
    samples: list[Sample] = []
    expected: list[str] = []
    for kind in layout:
        if kind == "H":
            pred, gold, reason = next(honest)
            expected.append(reason)
        else:
            pred, gold = next(slow)
            expected.append("timeout")
        samples.append(Sample(f"q{len(samples)}", f"so $\\boxed{{{pred}}}$", reference=gold))
    scores = MathReward(**options).score(samples)
    assert [s.reason for s in scores] == expected
    honest_rows = [i for i, kind in enumerate(layout) if kind == "H"]
    assert [(scores[i].value, scores[i].reason) for i in honest_rows] == \
        _baseline([samples[i] for i in honest_rows], **options)


# -- an exception while reading pair k ----------------------------------------------------

class _BadRow(Exception):
    """What a reading step raising on pair k looks like to `compare_batch`."""


def test_a_failure_reading_pair_k_keeps_earlier_jobs_verdicts_on_their_own_keys(
        math_config: MathConfig, warm_pool: WorkerPool) -> None:
    """Pairs 0-2 are symbolic (distinct golds) and go to the pool as read; pair 3 raises.
    The batch raises that exception (it is the caller's to isolate: `score_batch` rescores
    one by one), leaves no job thread behind, tells no verdict, and every verdict the
    finished jobs cached sits under its own job (the sequential one): the rescoring that
    follows reads the right one for each row."""
    pairs = [(p, g) for p, g, _ in HONEST[:3]]
    jobs = [_job(p, g, math_config) for p, g in pairs]
    cache = VerdictCache(64)
    told: list[int] = []

    def reading() -> Iterator[tuple[str, str]]:
        yield from pairs
        raise _BadRow("pair 3 cannot be read")

    with pytest.raises(_BadRow):
        compare_batch(reading(), math_config, cache, [None] * 4, [None] * 4,
                      ready=lambda ix, vs: told.extend(ix))
    assert told == []
    assert not [t for t in threading.enumerate() if t.name.startswith("math-verify")]
    for (pred, gold), job in zip(pairs, jobs):
        cached = cache.get((*job, math_config))
        if cached is not None:  # (a job not yet started was cancelled: nothing cached)
            assert cached == compare(pred, gold, math_config)
    again = compare_batch(pairs + [("4", "4")], math_config, cache)
    assert [v.reason for v in again] == [r for _, _, r in HONEST[:3]] + ["ok"]


# -- the cache ----------------------------------------------------------------------------

def test_one_answer_and_gold_under_different_questions_and_configs_keep_their_verdicts(
        ) -> None:
    """The same (answer, gold) text in rows whose questions differ (the question's words may
    be named beside the value), a completion equal to another row's gold, and one reward
    per tolerance scoring the same decimal: every row's verdict is its sequential one."""
    samples = [
        Sample("How many apples?", "The answer is $\\boxed{12 apples}$", reference="12"),
        Sample("How many pears?", "The answer is $\\boxed{12 apples}$", reference="12"),
        Sample("Simplify.", "$\\boxed{\\sin 2x}$", reference="2\\sin x \\cos x"),
        Sample("Simplify.", "$\\boxed{2\\sin x \\cos x}$", reference="\\sin 2x"),
        Sample("Simplify.", "$\\boxed{\\sin 2x}$", reference="2\\sin x"),
        Sample("Value?", "$\\boxed{0.3333}$", reference="\\frac{1}{3}"),
    ]
    for options in ({"workers": 2, "timeout": 2.0},
                    {"workers": 2, "timeout": 2.0, "float_rel_tol": 1e-9}):
        reward = MathReward(**options)
        first = [(s.value, s.reason) for s in reward.score(samples)]
        assert first == _baseline(samples, **options)
        assert [(s.value, s.reason) for s in reward.score(samples[::-1])] == first[::-1]


WARM_SHAPES = [
    ("\\left[\\frac{1}{3}, \\frac{7}{3}\\right)", "[0.25, 1.5)"),
    ("\\left[\\frac{1}{3}, \\frac{7}{3}\\right)", "\\left[\\frac{1}{3}, \\frac{7}{3}\\right)"),
    ("\\left[\\frac{1}{4}, \\frac{3}{2}\\right)", "[0.25, 1.5)"),
    ("[\\frac{1}{3}, 2 )", "(0.25, 1.5]"), ("[\\frac{1}{4}, \\frac{3}{2} )", "[0.25, 1.5]"),
    ("\\pm\\sqrt{5}", "\\pm\\sqrt{7}"), ("\\pm\\sqrt{7}", "\\pm\\sqrt{7}"),
    ("-\\sqrt{7}, \\sqrt{7}", "\\pm\\sqrt{7}"), ("\\sqrt{7}", "\\pm\\sqrt{7}"),
    ("\\{8, 2, 5\\}", "(2, 5, 8)"), ("\\{8, 2, 5\\}", "\\{2, 5, 8\\}"),
    ("\\{3, -1, 4, 0\\}", "\\{0, 3, 4, -1\\}"), ("\\{3, -1, 4\\}", "\\{0, 3, 4, -1\\}"),
    ("2 - \\frac{3}{y+1}", "\\frac{2y-1}{y+1}"), ("2 - \\frac{3}{y+1}", "\\frac{2y+1}{y+1}"),
]
WARM_TEXTS = [("So the answer is $\\{4, 2\\}$. I hope it is correct.", "(2, 4)"),
              ("So the answer is $\\{4, 2\\}$. I hope it is correct.", "(2, 5)"),
              ("We are not done yet", "\\frac{5}{3}")]

_COLD = """
import json, sys
from rewards.math._symbolic import symbolic_compare   # no warm_up(): a cold parser
cases = json.loads(sys.stdin.read())
print(json.dumps([list(symbolic_compare(p, g, 1e-6, pred_raw=raw)) for p, g, raw in cases]))
"""


def test_the_warm_up_shapes_get_the_verdicts_of_a_worker_that_never_warmed_up(
        warm_pool: WorkerPool) -> None:
    """A completion in a warm-up shape (the warm-up's own texts and other values of them)
    gets from the warm pool exactly the verdict a process that never ran the warm-up gives:
    the warm-up caches parser decisions, never a verdict."""
    import json

    cases = [(f"${p}$", f"${g}$", False) for p, g in WARM_SHAPES] + \
        [(t, f"${g}$", True) for t, g in WARM_TEXTS]
    warm = [[(o := warm_pool.run(p, g, rel_tol=1e-6, timeout=30.0, pred_raw=raw)).reason,
             o.detail] for p, g, raw in cases]
    cold = json.loads(subprocess.run(
        [sys.executable, "-c", _COLD], input=json.dumps(cases), capture_output=True,
        text=True, check=True, timeout=300, env={**os.environ, "PYTHONPATH": str(REPO)}
    ).stdout)
    assert warm == cold
    assert {reason for reason, _ in warm} >= {"ok", "wrong"}  # both verdicts exercised


# -- first come, first served across batches ----------------------------------------------

def test_one_batch_of_many_jobs_does_not_starve_another_batchs_single_job(
        math_config: MathConfig, warm_pool: WorkerPool) -> None:
    """Fixed: batches take turns for the workers (`WorkerPool._acquire`'s owners). Both workers held; batch A queues 6 jobs, then batch B its 1; the workers are given
    back. Fair service lets B's job leave the queue while A still has jobs waiting; first
    come, first served lets it leave only after all of A's. Watched on the queue itself,
    under its lock (no timing)."""
    pool = shared_pool(math_config.worker_count)
    held = [pool._acquire()[0] for _ in range(pool.size)]
    many = [(f"\\sin^2 x+\\cos^2 x+{k}", f"{k + 1}") for k in range(10, 16)]
    one = [("\\cos^2 y+\\sin^2 y+3", "4")]
    for pred, gold in many + one:
        _job(pred, gold, math_config)
    results: dict[str, list[str]] = {}

    def batch(name: str, pairs: list[tuple[str, str]]) -> None:
        results[name] = [v.reason for v in compare_batch(pairs, math_config, VerdictCache(64))]

    a = threading.Thread(target=batch, args=("A", many))
    a.start()
    assert _eventually(lambda: len(pool._queue) == len(many))
    a_turns = set(map(id, pool._queue))
    b = threading.Thread(target=batch, args=("B", one))
    b.start()
    assert _eventually(lambda: len(pool._queue) == len(many) + 1)
    (b_turn,) = set(map(id, pool._queue)) - a_turns
    a_left_when_b_served = None
    for worker in held:
        pool._release(worker)
    while a_left_when_b_served is None:
        with pool._cond:
            waiting = set(map(id, pool._queue))
            if b_turn not in waiting:
                a_left_when_b_served = len(waiting & a_turns)
        time.sleep(0)
    a.join()
    b.join()
    assert results == {"A": ["ok"] * len(many), "B": ["ok"]}
    assert a_left_when_b_served > 0


# -- a worker dying under its job ---------------------------------------------------------

def test_a_job_that_kills_its_worker_while_others_wait_is_its_own_timeout() -> None:
    """Fixed: a worker dying under a job is retried once, then the job's `timeout`. A one-worker pool. Job K runs on the pool's worker; each time an honest caller is
    waiting behind it, K's worker dies under it (SIGKILL: what a C-level crash or the
    kernel does to a worker on K's input). The honest callers get their verdicts; K's is
    `timeout` (data), never `WorkerError`."""
    config = MathConfig(timeout=60.0, workers=1)
    pool = WorkerPool(1)
    try:
        pool.start()
        k_job = _job(*SLOW[0], config)
        honest = [_job(p, g, config) for p, g, _ in HONEST[:3]]
        k_result: list[object] = []
        h_results: list[str] = []

        def run_k() -> None:
            try:
                k_result.append(pool.run(k_job[0], k_job[1], rel_tol=1e-4, timeout=60.0))
            except WorkerError as exc:
                k_result.append(exc)

        def run_h(job: tuple[str, str, bool]) -> None:
            h_results.append(pool.run(job[0], job[1], rel_tol=1e-4, timeout=60.0).reason)

        def k_holds_the_worker() -> bool:  # nothing idle, nobody else waiting or running
            # and the worker has been sent a request: a worker started for K's retry and
            # killed before K's request reached it is the pool's loss (WorkerError, by
            # design), not K's (a race this test lost at load 8)
            workers = [w for w in pool._all if w.alive()]
            return (not pool._idle and not pool._queue and pool._count == 1
                    and len(workers) == 1 and workers[0].next_id >= 1)

        k = threading.Thread(target=run_k)
        k.start()
        for job in honest:
            assert _eventually(lambda: bool(k_result) or k_holds_the_worker())
            if k_result:
                break
            h = threading.Thread(target=run_h, args=(job,))
            h.start()
            assert _eventually(lambda: len(pool._queue) == 1)  # an honest caller waits
            os.kill(pool.worker_pids()[0], signal.SIGKILL)  # K's worker dies under it
            h.join()
        while k.is_alive():  # nobody waits now: K's worker dies again until K is answered
            if _eventually(lambda: not k.is_alive() or k_holds_the_worker()) and k.is_alive():
                time.sleep(0.05)  # from its request counter to the pipe: a few statements
                os.kill(pool.worker_pids()[0], signal.SIGKILL)
                _eventually(lambda: not k.is_alive() or not k_holds_the_worker())
        k.join()
        assert h_results == [r for _, _, r in HONEST[:len(h_results)]]
        assert not isinstance(k_result[0], WorkerError), k_result[0]
        assert getattr(k_result[0], "reason", None) == "timeout"
    finally:
        pool.close()


# -- through the server, several clients --------------------------------------------------

@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("fastapi", reason="the server needs pip install -e '.[server]'")
    pytest.importorskip("uvicorn", reason="the server needs pip install -e '.[server]'")
    pytest.importorskip("httpx")
    sys.path.insert(0, str(REPO / "tests" / "integrations"))
    from integration_helpers import Server  # type: ignore[import-not-found]

    config = tmp_path_factory.mktemp("cfg") / "math.yaml"
    config.write_text("domains:\n  math:\n    rewards:\n"
                      "      - {use: math, timeout: 2.0, workers: 2}\n")
    server = Server(config, timeout=120.0)
    try:
        yield server.url
    finally:
        server.stop()


def test_concurrent_clients_keep_their_verdicts_beside_a_client_of_slow_rollouts(
        slow_server: str) -> None:
    """Client S posts 3 slow rollouts (more than the 2 workers) in one request while four
    honest clients post one symbolic rollout each (distinct golds) and one posts local ones,
    all at once (a barrier), so they share micro-batches and the pool: every honest client
    gets its own rows' verdicts, in its own order; S's rows time out."""
    import httpx

    def body(rows: list[tuple[str, str]]) -> dict[str, list[str]]:
        return {"query": [f"Q: solve.\nA: so $\\boxed{{{p}}}$" for p, _ in rows],
                "prompts": ["Q: solve.\nA: "] * len(rows), "labels": [g for _, g in rows]}

    clients = {"S": body(SLOW), "L": body([("4", "4"), ("5", "4"), ("\\frac{1}{2}", "0.5")])}
    clients.update({f"H{i}": body([(p, g)]) for i, (p, g, _) in enumerate(HONEST)})
    expected = {"S": ["timeout"] * 3, "L": ["ok", "wrong", "ok"]}
    expected.update({f"H{i}": [r] for i, (_, _, r) in enumerate(HONEST)})
    barrier = threading.Barrier(len(clients))
    replies: dict[str, list[str] | str] = {}

    def post(name: str) -> None:
        barrier.wait()
        reply = httpx.post(f"{slow_server}/get_reward", json=clients[name], timeout=120)
        replies[name] = reply.json()["reasons"] if reply.status_code == 200 else \
            f"{reply.status_code}: {reply.text}"

    threads = [threading.Thread(target=post, args=(name,)) for name in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert replies == expected
