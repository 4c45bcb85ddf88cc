"""Many programs at once: bounded parallelism, results in input order, and one broken job
never takes the batch down."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sandbox._errors import SandboxError
from sandbox._parallel import default_workers
from sandbox._runner import run
from sandbox._tests import run_tests
from sandbox._types import Execution, TestReport

__all__ = ["run_many", "run_tests_many"]

T = TypeVar("T")


def run_many(jobs: Sequence[Mapping[str, Any]], *,
             max_workers: int | None = None) -> list[Execution]:
    """Run each job (a mapping of `run`'s arguments: `code`, `language`, `stdin`, `files`,
    `limits`, `mode`) in parallel; results in input order. A job whose arguments are invalid
    becomes a `sandbox_error` Execution naming the problem; if the sandbox itself cannot start
    (SandboxError on every job) that error is raised, as for `run`."""
    return _map(run, jobs, max_workers, _failed_execution)


def run_tests_many(jobs: Sequence[Mapping[str, Any]], *,
                   max_workers: int | None = None) -> list[TestReport]:
    """`run_tests` over many (`code`, `tests`, ...) jobs in parallel, results in input order;
    one invalid job yields a report whose execution is a `sandbox_error`."""

    def failed(exc: Exception, job: Mapping[str, Any]) -> TestReport:
        return TestReport(results=(), execution=_failed_execution(exc, job))

    return _map(run_tests, jobs, max_workers, failed)


def _failed_execution(exc: Exception, job: Mapping[str, Any]) -> Execution:
    return Execution(status="sandbox_error", stderr=f"{type(exc).__name__}: {exc}")


def _map(fn: Callable[..., T], jobs: Sequence[Mapping[str, Any]], max_workers: int | None,
         on_error: Callable[[Exception, Mapping[str, Any]], T]) -> list[T]:
    if not jobs:
        return []
    workers = max(1, min(max_workers or default_workers(), len(jobs)))

    def one(job: Mapping[str, Any]) -> T | SandboxError:
        try:
            return fn(**job)
        except SandboxError as exc:  # infrastructure: decided below, batch-wide
            return exc
        except Exception as exc:  # noqa: BLE001  (a bad job: recorded in its own slot, the batch goes on)
            return on_error(exc, job)

    if workers == 1:
        results = [one(job) for job in jobs]
    else:
        with ThreadPoolExecutor(workers, thread_name_prefix="sandbox") as pool:
            results = list(pool.map(one, jobs))
    errors = [r for r in results if isinstance(r, SandboxError)]
    if errors and len(errors) == len(results):
        raise errors[0]
    return [on_error(r, job) if isinstance(r, SandboxError) else r
            for r, job in zip(results, jobs)]
