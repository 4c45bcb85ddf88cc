"""The shipped example rollouts (`rewards/data/example_rollouts.jsonl`): every math row scores
with the reason its `meta.expected_reason` records."""

from __future__ import annotations

import json
from importlib import resources

from rewards.io import row_to_sample


def test_math_example_rollouts_score_as_labeled(math_reward):
    path = resources.files("rewards") / "data" / "example_rollouts.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    samples = [row_to_sample(row) for row in rows if row.get("domain") == "math"]
    assert len(samples) >= 20
    assert len({s.group for s in samples}) < len(samples)  # several rollouts share a prompt
    expected = [s.meta["expected_reason"] for s in samples]
    assert {"ok", "wrong", "no_answer", "bad_reference"} <= set(expected)
    assert [s.reason for s in math_reward.score(samples)] == expected
