"""`rewards score` on a mixed math + code JSONL: each row routed to its domain's reward."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import rtv_formats as F  # type: ignore[import-not-found]

from rewards_cli import main

CONFIG = """\
domains:
  math:
    rewards:
      - use: math
  code:
    rewards:
      - use: rtv
        weights: {rule: 0.1, tests: 0.5, hidden: 0.3, judge: 0.1}
        time_limit_s: 3
normalize: none
"""


def test_score_mixed_math_and_code(sandbox_ready: None, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    rows = [
        {"prompt": "2 + 2?", "completion": "So the answer is \\boxed{4}.", "reference": "4",
         "domain": "math"},
        {"prompt": "2 + 3?", "completion": "The answer is \\boxed{6}.", "reference": "5",
         "domain": "math"},
        {"prompt": "square", "completion": F.MBPP_RIGHT, "reference": F.MBPP, "domain": "code"},
        {"prompt": "square", "completion": F.MBPP_WRONG, "reference": F.MBPP, "domain": "code"},
        {"prompt": "sum", "completion": F.SUM_RIGHT, "reference": json.dumps(F.APPS_STDIN),
         "domain": "code"},
        {"prompt": "sum", "completion": "```python\nprint(3\n```", "reference": F.APPS_STDIN,
         "domain": "code"},
        {"prompt": "sum", "completion": F.SUM_RIGHT, "reference": {"nonsense": True},
         "domain": "code"},
    ]
    source, config, out = tmp_path / "mixed.jsonl", tmp_path / "rewards.yaml", tmp_path / "o.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows))
    config.write_text(CONFIG)
    assert main(["score", str(source), "--config", str(config), "--out", str(out)]) == 0
    results = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["line"] for r in results] == list(range(1, 8))
    assert [r["domain"] for r in results] == ["math"] * 2 + ["code"] * 5
    assert [r["score"] for r in results[:2]] == [1.0, 0.0]
    right, overfit, stdin_right, syntax, bad = results[2:]
    assert right["score"] == pytest.approx(1.0) and right["reason"] == "ok"
    assert right["parts"]["rtv/tests"] == 1.0 and right["parts"]["rtv/hidden"] == 1.0
    assert right["parts"]["rtv/judge"] is None and right["parts"]["rtv/weight/judge"] == 0.0
    assert overfit["reason"] == "tests_failed" and overfit["parts"]["rtv/hidden"] == 0.0
    assert 0.0 < overfit["score"] < 1.0
    assert stdin_right["score"] == pytest.approx(1.0)
    assert (syntax["score"], syntax["reason"]) == (0.0, "syntax_error")
    assert (bad["score"], bad["reason"]) == (None, "bad_reference")
    summary = capsys.readouterr().out
    assert "scored 7 rows" in summary and "bad_reference" in summary


def test_bundled_code_examples(sandbox_ready: None, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    """`rewards score` with no input scores the bundled examples with the bundled config;
    every code row gets the reason it is labeled with."""
    from rewards_cli.score import BUNDLED

    out = tmp_path / "scores.jsonl"
    assert main(["score", "--out", str(out)]) == 0
    examples = [json.loads(line) for line in
                (BUNDLED / "example_rollouts.jsonl").read_text().splitlines() if line.strip()]
    results = [json.loads(line) for line in out.read_text().splitlines()]
    code = [(e, r) for e, r in zip(examples, results) if e["domain"] == "code"]
    assert len(code) >= 10
    assert [r["reason"] for _, r in code] == [e["meta"]["expected_reason"] for e, _ in code]
    for example, result in code:
        if example["meta"]["expected_reason"] == "ok":
            assert result["score"] == pytest.approx(1.0)
        else:
            assert result["score"] < 1.0
