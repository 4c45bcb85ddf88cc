import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
REPO = HERE.parents[1]
# `filter_rewards` (dotted-path rewards) and `filter_helpers` import from the test modules.
sys.path.insert(0, str(HERE))


@pytest.fixture(autouse=True)
def _filter_rewards_importable(monkeypatch):
    """`filter_rewards:...` also resolves in CLI subprocesses."""
    monkeypatch.setenv("PYTHONPATH", f"{HERE}:{REPO}")
