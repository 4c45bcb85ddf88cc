"""Components for the per-component normalization tests, read from the completion so that
every entry point (adapters, server, Celery workers) computes them alike. The tests reach
them by dotted path (`gdpo_rewards:...`) with this folder on sys.path."""

from __future__ import annotations

import re

from rewards import Sample, Score, reward

_B = re.compile(r"b=([0-9.]{1,8})")


@reward
def has_a(sample: Sample) -> float:
    """1.0 when the completion holds an `A`, else 0.0."""
    return 1.0 if "A" in sample.completion[:200] else 0.0


@reward
def b_value(sample: Sample) -> Score | float:
    """The number written `b=0.8` in the completion; abstains when there is none (as a judge
    that could not decide would)."""
    found = _B.search(sample.completion[:200])
    if found is None:
        return Score(None, "bad_reference")
    return float(found.group(1))


@reward
def length(sample: Sample) -> float:
    """The completion's length: a large, logged-only value (weight 0)."""
    return float(len(sample.completion))
