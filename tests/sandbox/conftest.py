"""Fixtures for the sandbox tests. Probes live in sandbox_probes.py (put on sys.path here
because the suite runs with --import-mode=importlib)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from sandbox_probes import Host

from sandbox import _cgroup, _warm


def forget_cgroup_detection() -> None:
    _cgroup.cgroup_v1.cache_clear()
    _cgroup.cgroup_v2_root.cache_clear()


@pytest.fixture
def no_cgroup(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process acting as on a host without cgroups (fresh warm servers included)."""
    _warm.shutdown()
    monkeypatch.setenv("SANDBOX_NO_CGROUP", "1")
    forget_cgroup_detection()
    yield
    _warm.shutdown()
    monkeypatch.delenv("SANDBOX_NO_CGROUP")
    forget_cgroup_detection()


@pytest.fixture
def host(tmp_path: Path) -> Host:
    guard = Host(tmp_path)
    yield guard
    guard.assert_unchanged()


@pytest.fixture(scope="session", autouse=True)
def _warm_pool_cleanup():
    yield
    _warm.shutdown()


@pytest.fixture
def zygotes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fresh warm servers with import zygotes (`SANDBOX_IMPORT_ZYGOTES=1`) for this test
    only; off again after (red-team rounds sb9 and sb11)."""
    _warm.shutdown()
    monkeypatch.setenv("SANDBOX_IMPORT_ZYGOTES", "1")
    yield
    _warm.shutdown()
    monkeypatch.delenv("SANDBOX_IMPORT_ZYGOTES")
    _warm.shutdown()
