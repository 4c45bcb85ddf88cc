"""Step two: compare an extracted answer with the gold. Cheap paths in this process first
(`_normalize.fast_compare`), then structural limits, then a killable worker process for
sympy. `compare` does one pair; `compare_batch` dedups, caches and spreads over all cores."""

from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from rewards.math._config import MathConfig, Verdict
from rewards.math._extract import prepare_reference
from rewards.math._limits import structural_problem
from rewards.math._normalize import fast_compare, normalize
from rewards.math._pool import shared_pool

__all__ = ["VerdictCache", "compare", "compare_batch", "compare_local"]

_DEFAULT = MathConfig()
Job = tuple[str, str]  # (normalized answer, normalized gold) that needs sympy


class VerdictCache:
    """Thread-safe LRU of symbolic verdicts keyed by (answer, gold, config)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[tuple[str, str, MathConfig], Verdict] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        _CACHES.add(self)

    def get(self, key: tuple[str, str, MathConfig]) -> Verdict | None:
        with self._lock:
            verdict = self._data.get(key)
            if verdict is not None:
                self._data.move_to_end(key)
                self.hits += 1
            return verdict

    def put(self, key: tuple[str, str, MathConfig], verdict: Verdict) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._data[key] = verdict
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)


_CACHES: weakref.WeakSet[VerdictCache] = weakref.WeakSet()


def _fresh_locks_after_fork() -> None:
    """A fork copies a lock held by another thread as held forever (Celery prefork forks a
    parent that may be scoring): children get fresh locks."""
    for cache in list(_CACHES):
        cache._lock = threading.Lock()


os.register_at_fork(after_in_child=_fresh_locks_after_fork)


def compare_local(pred: str | None, gold: object, config: MathConfig = _DEFAULT) -> Verdict | Job:
    """Everything decidable without sympy: a `Verdict`, or the normalized pair for a worker."""
    gold_text = prepare_reference(gold)
    gold_norm = normalize(gold_text) if gold_text is not None else ""
    if not gold_norm:
        return Verdict("bad_reference", "empty or unusable gold")
    pred_norm = normalize(pred) if pred is not None else ""
    if not pred_norm:
        return Verdict("no_answer", "no final answer found")
    fast = fast_compare(pred_norm, gold_norm, config)
    if fast is not None:
        return fast
    problem = structural_problem(gold_norm, config)
    if problem:
        return Verdict("bad_reference", f"gold beyond structural limits: {problem}")
    problem = structural_problem(pred_norm, config)
    if problem:
        return Verdict("timeout", f"structural limit: {problem}")
    return pred_norm, gold_norm


def compare(pred: str | None, gold: object, config: MathConfig = _DEFAULT) -> Verdict:
    """Compare one extracted answer (`None`: none found) with a gold answer (string or number,
    `\\boxed{}` allowed). Symbolic work runs in a worker bounded by `config.timeout`."""
    local = compare_local(pred, gold, config)
    if isinstance(local, Verdict):
        return local
    return _run_job(local, config)


def compare_batch(pairs: Sequence[tuple[str | None, object]], config: MathConfig = _DEFAULT,
                  cache: VerdictCache | None = None) -> list[Verdict]:
    """`compare` over many pairs: each distinct symbolic pair is compared once (and looked up
    in `cache`), the distinct pairs run in parallel on all workers."""
    results: list[Verdict | Job] = [compare_local(pred, gold, config) for pred, gold in pairs]
    todo: dict[Job, Verdict | None] = {}
    for item in results:
        if not isinstance(item, Verdict) and item not in todo:
            todo[item] = cache.get((*item, config)) if cache is not None else None
    missing = [job for job, verdict in todo.items() if verdict is None]
    if missing:
        threads = min(config.worker_count, len(missing))
        if threads == 1:
            verdicts = [_run_job(job, config) for job in missing]
        else:
            with ThreadPoolExecutor(threads, thread_name_prefix="math-verify") as executor:
                verdicts = list(executor.map(lambda job: _run_job(job, config), missing))
        for job, verdict in zip(missing, verdicts):
            todo[job] = verdict
            if cache is not None:
                cache.put((*job, config), verdict)
    return [item if isinstance(item, Verdict) else todo[item]  # type: ignore[misc]
            for item in results]


def _run_job(job: Job, config: MathConfig) -> Verdict:
    pool = shared_pool(config.worker_count, start_timeout=config.worker_start_timeout)
    outcome = pool.run(job[0], job[1], rel_tol=config.float_rel_tol, timeout=config.timeout)
    return Verdict(outcome.reason, outcome.detail)  # type: ignore[arg-type]
