"""The one error tree. A bad completion is data (a `Score` with a reason); these are for
broken infrastructure and bad input, raised with the record that caused them."""

from __future__ import annotations

from sandbox._errors import SandboxError as _SandboxFailure

__all__ = ["ConfigError", "EngineError", "InputError", "RewardsError", "SandboxError"]


class RewardsError(Exception):
    """Root of every error this library raises on purpose."""


class ConfigError(RewardsError):
    """A reward, training or worker configuration that cannot be used as written."""


class SandboxError(RewardsError, _SandboxFailure):
    """The sandbox itself could not run a program (not: the program failed). Also an instance
    of `sandbox.SandboxError`, which the sandbox raises (it imports nothing of ours)."""


class EngineError(RewardsError):
    """An inference engine (vLLM, an HTTP server, transformers) failed or is unreachable."""


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


# Broken infrastructure: a batch that raises one of these stops a run instead of being retried
# sample by sample (sandbox.SandboxError is the sandbox's own root, which SandboxError extends).
INFRASTRUCTURE_ERRORS: tuple[type[Exception], ...] = (ConfigError, EngineError, _SandboxFailure)
