"""The sandbox's own exceptions: the only ones it raises. The sandbox imports nothing of ours,
so these are not in the `rewards.errors` tree; the places in rewards-engine that call the
sandbox convert `SandboxError` to `rewards.errors.SandboxError` (`rewards.errors.sandbox_errors`).
See docs/errors.md."""

from __future__ import annotations

__all__ = ["ArgumentError", "SandboxError"]


class SandboxError(Exception):
    """The sandbox itself could not run a program (nsjail missing, no user namespaces, a jail
    that failed to start). Never raised because a program failed: that is an `Execution`."""


class ArgumentError(ValueError):
    """A call the sandbox cannot carry out as given: an unknown language, mode, backend or
    comparison, a bad file name, tests in no format it knows, a limit that is not positive.
    Raised before anything runs; `run_many` and `run_tests_many` record it in the job's own
    slot as a `sandbox_error` Execution.

    A `ValueError` as well: that is what `run` documented for bad arguments before this class
    existed, and what its callers catch (the `rewards sandbox` command, the SandboxFusion
    server), so code written against the sandbox alone keeps working."""
