import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def _test_rewards_importable(monkeypatch):
    """Makes `rewards_for_tests` importable by dotted path, as a user's own module would be."""
    monkeypatch.syspath_prepend(str(HERE))
    monkeypatch.setenv("PYTHONPATH", f"{HERE}:{sys.path[0]}")
