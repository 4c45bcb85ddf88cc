"""Shared set-up of the code reward tests: the reference examples module is importable as
`rtv_formats`, and the real sandbox is probed once per session."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def sandbox_ready() -> None:
    """Skip sandbox tests where the jail cannot start here (with the reason it gives)."""
    import sandbox

    try:
        execution = sandbox.run("print(6 * 7)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    assert execution.status == "ok" and execution.stdout.strip() == "42", execution
