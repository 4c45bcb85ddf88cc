"""The sandbox's one exception. `rewards.errors.SandboxError` re-exports this class under the
`RewardsError` tree, so the sandbox itself imports nothing of ours."""

from __future__ import annotations

__all__ = ["SandboxError"]


class SandboxError(Exception):
    """The sandbox itself could not run a program (nsjail missing, no user namespaces, a jail
    that failed to start). Never raised because a program failed: that is an `Execution`."""
