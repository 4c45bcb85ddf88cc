"""Fixtures for the framework adapter and reward server tests: reward configs (the real math
reward, plus small dotted-path rewards), free ports, and a `rewards serve` subprocess."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))  # integration_helpers, integration_rewards

from integration_helpers import Server, write_config  # type: ignore[import-not-found]


@pytest.fixture(autouse=True)
def _integration_rewards_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Makes `integration_rewards` importable by dotted path, in this process and children."""
    monkeypatch.syspath_prepend(str(HERE))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE), str(REPO)]))


@pytest.fixture
def recorded_config(tmp_path: Path) -> Path:
    """Math plus a part that records the batch sizes it was called with
    (`integration_rewards.BATCH_SIZES`, cleared here)."""
    import integration_rewards  # type: ignore[import-not-found]

    integration_rewards.BATCH_SIZES.clear()
    return write_config(tmp_path / "vf.yaml", """
domains:
  math:
    rewards:
      - use: math
      - {use: "integration_rewards:BatchRecorder", name: format, weight: 0.25, value: 0.5}
""")


@pytest.fixture(scope="session")
def math_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One domain, math, with the real math verifier and a logged-only brevity part."""
    return write_config(tmp_path_factory.mktemp("cfg") / "math.yaml", """
domains:
  math:
    rewards:
      - use: math
      - {use: "integration_rewards:brevity", name: brevity, weight: 0.0}
""")


@pytest.fixture(scope="session")
def mixed_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two domains: math (math + brevity at 0.5) and text (exact match)."""
    return write_config(tmp_path_factory.mktemp("cfg") / "mixed.yaml", """
domains:
  math:
    rewards:
      - use: math
      - {use: "integration_rewards:brevity", name: brevity, weight: 0.5}
  text:
    rewards:
      - {use: "integration_rewards:exact", name: exact}
""")


@pytest.fixture(scope="session")
def math_server(math_config: Path) -> Iterator[Server]:
    pytest.importorskip("fastapi", reason="the server needs pip install -e '.[server]'")
    pytest.importorskip("uvicorn", reason="the server needs pip install -e '.[server]'")
    server = Server(math_config)
    yield server
    server.stop()
