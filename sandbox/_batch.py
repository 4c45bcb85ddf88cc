"""Many programs at once: bounded parallelism, results in input order, and one broken job
never takes the batch down."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sandbox._errors import SandboxError
from sandbox._languages import language_spec
from sandbox._parallel import SplitProgram, chunk_bounds, default_workers
from sandbox._runner import run
from sandbox._tests import run_tests, test_format
from sandbox._types import Execution, TestReport
from sandbox._warm import use_warm

__all__ = ["run_many", "run_tests_many"]

T = TypeVar("T")


def run_many(jobs: Sequence[Mapping[str, Any]], *,
             max_workers: int | None = None) -> list[Execution]:
    """Run each job (a mapping of `run`'s arguments: `code`, `language`, `stdin`, `files`,
    `limits`, `mode`) in parallel; results in input order. A job whose arguments are invalid
    becomes a `sandbox_error` Execution naming the problem; if the sandbox itself cannot start
    (SandboxError on every job) that error is raised, as for `run`."""
    return _map(run, jobs, max_workers, _failed_execution)


def run_tests_many(jobs: Iterable[Mapping[str, Any]], *, max_workers: int | None = None,
                   chunk_tests: int | None = None) -> list[TestReport]:
    """`run_tests` over many (`code`, `tests`, ...) jobs in parallel, results in input order;
    one invalid job yields a report whose execution is a `sandbox_error`. `jobs` may be any
    iterable (a generator too): each job starts as soon as it is produced, so the caller's
    work on the next job overlaps the runs of the earlier ones.

    chunk_tests: spread the stdin/stdout tests of one warm (Python) program over the
    workers when it has at least twice this many: up to `max_workers` chunks of at least
    `chunk_tests` tests, each chunk a jail of its own, run in parallel with the other jobs.
    The verdicts are merged in order into the report one run would give (a timeout ends
    the program's run there too, and `Limits.program_wall_s` holds across its chunks: see
    `SplitProgram`). A timeout at test i kills, within milliseconds, the chunks running
    tests after i, so a split program ends when its chunks up to the first timeout do: a
    looping program costs its slowest chunk before the loop, or the loop's own chunk (its
    tests before the loop and one per-test limit), whichever ends later. None (the default):
    one jail per job. Function tests are never split: they share the program's process,
    whose state one test may leave to the next. A job with a `cancel` of its own is not
    split either."""
    workers = max(1, max_workers or default_workers())
    plans: list[SplitProgram | Mapping[str, Any]] = []

    def units() -> Iterator[dict[str, Any]]:
        for job in jobs:
            plan = _split(job, workers, chunk_tests)
            plans.append(plan)
            if isinstance(plan, SplitProgram):
                yield from ({"plan": plan, "part": k} for k in range(len(plan.bounds)))
            else:
                yield {"job": plan}

    def one(plan: SplitProgram | None = None, part: int = 0,
            job: Mapping[str, Any] | None = None) -> TestReport | None:
        if plan is None:
            assert job is not None
            return run_tests(**job)
        arguments = plan.start(part)
        if arguments is not None:
            plan.finish(part, run_tests(**arguments))
        return None

    def failed(exc: Exception, unit: Mapping[str, Any]) -> TestReport | None:
        report = TestReport(results=(), execution=_failed_execution(exc, unit))
        if "plan" not in unit:
            return report
        unit["plan"].finish(unit["part"], report)
        return None

    done = iter(_map(one, units(), workers, failed))
    reports = []
    for plan in plans:
        if isinstance(plan, SplitProgram):
            for _ in plan.bounds:
                next(done)
            reports.append(plan.merged())
        else:
            report = next(done)
            assert report is not None  # None is only a part's, merged by its SplitProgram
            reports.append(report)
    return reports


def _split(job: Mapping[str, Any], workers: int,
           chunk_tests: int | None) -> SplitProgram | Mapping[str, Any]:
    """The job as chunks run in parallel, or as it is (one jail) when it is not worth it or
    cannot be split: function tests, cold runs (a compiled program would compile once per
    chunk), fewer than 2 * chunk_tests tests, or arguments `run_tests` will refuse."""
    if chunk_tests is None or workers < 2:
        return job
    try:
        tests = job["tests"]
        fmt = job.get("style") or test_format(tests)
        warm = use_warm(language_spec(job.get("language", "python")), job.get("mode", "auto"))
    except Exception:  # noqa: BLE001  (run_tests says what is wrong, in the job's own slot)
        return job
    pieces = min(workers, len(tests) // max(1, chunk_tests))
    if fmt != "io" or not warm or pieces < 2:
        return job
    if job.get("cancel") is not None:
        return job  # its chunks would each need the caller's stop signal
    own = job.get("test_limits")
    if own is not None and (not isinstance(own, Sequence) or len(own) != len(tests)):
        return job  # sliced, they would no longer say which test is wrong
    return SplitProgram(job, chunk_bounds(len(tests), pieces))


def _failed_execution(exc: Exception, job: Mapping[str, Any]) -> Execution:
    return Execution(status="sandbox_error", stderr=f"{type(exc).__name__}: {exc}")


def _map(fn: Callable[..., T], jobs: Iterable[Mapping[str, Any]], max_workers: int | None,
         on_error: Callable[[Exception, Mapping[str, Any]], T]) -> list[T]:
    """`fn(**job)` of every job, `max_workers` at a time, each submitted as `jobs` yields it."""
    workers = max(1, max_workers or default_workers())
    if isinstance(jobs, Sequence):
        if not jobs:
            return []
        workers = min(workers, len(jobs))
    taken: list[Mapping[str, Any]] = []  # the jobs as `jobs` yielded them, for on_error

    def taking() -> Iterator[Mapping[str, Any]]:
        for job in jobs:
            taken.append(job)
            yield job

    def one(job: Mapping[str, Any]) -> T | SandboxError:
        try:
            return fn(**job)
        except SandboxError as exc:  # infrastructure: decided below, batch-wide
            return exc
        except Exception as exc:  # noqa: BLE001  (a bad job: recorded in its own slot, the batch goes on)
            return on_error(exc, job)

    if workers == 1:
        results = [one(job) for job in taking()]
    else:
        with ThreadPoolExecutor(workers, thread_name_prefix="sandbox") as pool:
            results = list(pool.map(one, taking()))  # submits each job as it comes
    errors = [r for r in results if isinstance(r, SandboxError)]
    if errors and len(errors) == len(results):
        raise errors[0]
    return [on_error(r, job) if isinstance(r, SandboxError) else r
            for r, job in zip(results, taken)]
