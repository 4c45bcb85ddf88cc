"""Fixtures for the sandbox tests. Probes live in sandbox_probes.py (put on sys.path here
because the suite runs with --import-mode=importlib)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from sandbox_probes import Host


@pytest.fixture
def host(tmp_path: Path) -> Host:
    guard = Host(tmp_path)
    yield guard
    guard.assert_unchanged()


@pytest.fixture(scope="session", autouse=True)
def _warm_pool_cleanup():
    yield
    from sandbox import _warm

    _warm.shutdown()
