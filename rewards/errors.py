"""The one error tree (docs/errors.md). A bad completion is data (a `Score` with a reason);
these are for broken infrastructure and bad input, raised with the record that caused them.

    RewardsError
    ├── ConfigError      a configuration or argument that cannot be used as written
    ├── EngineError      an inference engine or remote scorer failed or is unreachable
    ├── SandboxError     the sandbox cannot run programs
    ├── InputError       a malformed input record (file, line, field)
    └── WorkerError      a math worker process broke (rewards.math)

The sandbox imports nothing of ours and raises its own `sandbox.SandboxError`; the code that
calls it converts that into `SandboxError` here with `sandbox_errors()`, so nothing else
catches or knows the sandbox's class."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = ["INFRASTRUCTURE_ERRORS", "BadReference", "ConfigError", "EngineError", "InputError",
           "RewardsError", "SandboxError", "WorkerError", "sandbox_errors"]


class RewardsError(Exception):
    """Root of every error this library raises on purpose."""


class ConfigError(RewardsError):
    """A reward, training or worker configuration (or an argument of the API) that cannot be
    used as written."""


class SandboxError(RewardsError):
    """The sandbox itself could not run a program (not: the program failed). Raised from the
    sandbox's own `sandbox.SandboxError` where rewards-engine calls the sandbox."""


class EngineError(RewardsError):
    """An inference engine (vLLM, an HTTP server, transformers) or a remote scorer (Celery)
    failed or is unreachable."""


class InputError(RewardsError):
    """A malformed input record. Names the file, the line (1-based) and the field."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 field: str | None = None) -> None:
        self.source = source
        self.line = line
        self.field = field
        self.detail = message
        where = ":".join(str(p) for p in (source, line) if p is not None)
        prefix = f"{where}: " if where else ""
        suffix = f" (field {field!r})" if field else ""
        super().__init__(f"{prefix}{message}{suffix}")


class BadReference(InputError):
    """A sample's reference that its reward cannot read: tests that are not tests, a
    constraint that cannot be decided, a reference that is not tool calls. The reward catches
    it and the sample abstains with reason `bad_reference` (the run rule sees it); only the
    parsers called directly (`parse_reference`, `parse_constraints`, `as_calls`) raise it.
    The one class for every reward: `BadConstraint` and `BadCalls` are its names there."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 field: str | None = None) -> None:
        super().__init__(message, source=source, line=line, field=field)


class WorkerError(RewardsError):
    """A math worker process (`rewards.math`'s pool) could not start or broke its protocol.

    Not in `INFRASTRUCTURE_ERRORS`: `score_batch` retries such a batch sample by sample, so
    the samples the in-process fast paths decide keep their scores and only those that need a
    worker become error rows. (A worker that dies on one input is that input's `timeout`.)"""


# Broken infrastructure: a batch that raises one of these stops a run instead of being retried
# sample by sample. Only classes of this tree: the sandbox's own error arrives as SandboxError.
INFRASTRUCTURE_ERRORS: tuple[type[RewardsError], ...] = (ConfigError, EngineError, SandboxError)


@contextlib.contextmanager
def sandbox_errors(context: str | None = None) -> Iterator[None]:
    """Calls into the sandbox go inside this block: the sandbox's own `sandbox.SandboxError`
    leaves it as this tree's `SandboxError` (raised from it), its message after `context:`.

        with sandbox_errors("rtv: the sandbox cannot run programs"):
            reports = sandbox.run_tests_many(specs)

    The sandbox's `ArgumentError` (a `ValueError`, a call it cannot carry out) passes through:
    whether that is bad input or a bad config is the caller's to say."""
    import sandbox  # here, not at the top: `import rewards` does not start the sandbox's code

    try:
        yield
    except sandbox.SandboxError as exc:
        raise SandboxError(f"{context}: {exc}" if context else str(exc)) from exc
