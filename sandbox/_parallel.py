"""How many jails run at once by default: the workers of `run_many` and `run_tests_many`, and
the size of each warm pool (`_warm.py`)."""

from __future__ import annotations

import os

__all__ = ["default_workers"]


def default_workers() -> int:
    """Parallel jails by default: the CPUs this process may use (at least 1)."""
    return max(1, len(os.sched_getaffinity(0)))
