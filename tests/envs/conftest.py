"""Shared set-up of the environment tests: the real sandbox, probed once per session."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def sandbox_ready() -> None:
    """Skip sandbox tests where the jail cannot start here (with the reason it gives)."""
    import sandbox

    try:
        execution = sandbox.run("print(6 * 7)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    assert execution.status == "ok" and execution.stdout.strip() == "42", execution
