"""`rewards check` on instruction-following data: references usable, constraint counts,
unknown ids counted as bad references, mixed with math in one config."""

from __future__ import annotations

import json
from pathlib import Path

from rewards_cli import main

CONFIG = """
domains:
  math: {rewards: [{use: math}]}
  ifeval: {rewards: [{use: ifeval}]}
"""
ROWS = [
    {"domain": "ifeval", "prompt": "No commas, a title.",
     "instruction_id_list": ["punctuation:no_comma", "detectable_format:title"],
     "kwargs": [{"num_words": None}, {"num_words": None}], "response": "<<T>>\nfine, ok"},
    {"domain": "ifeval", "prompt": "x", "reference": json.dumps({"func_name": "validate_lowercase"}),
     "response": "all lower"},
    {"domain": "ifeval", "prompt": "x", "instruction_id_list": ["punctuation:no_semicolons"],
     "kwargs": [{}], "response": "ok"},
    {"domain": "math", "prompt": "1+1?", "reference": "2", "response": "#### 2"},
]


def test_check_reports_constraints_and_unknown_ids(tmp_path: Path, capsys) -> None:
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    config = tmp_path / "rewards.yaml"
    config.write_text(CONFIG)
    assert main(["check", str(data), "--config", str(config), "--map", "response=completion"]) == 0
    out = capsys.readouterr().out
    assert "ifeval: 3 rows, 3 with a completion" in out
    assert "ifeval (ifeval, weight 1): references usable 2 of 3 (bad_reference:unparseable " \
           "x1; first line 3: unknown instruction id 'punctuation:no_semicolons')" in out
    assert "answers found 2 of 3" in out
    assert "line 1: reference 2 constraints: punctuation:no_comma, detectable_format:title  ->  " \
           "answer follows 1 of 2" in out
    assert "line 2: reference 1 constraint: validate_lowercase  ->  answer follows 1 of 1" in out
    # the row's constraints are its instruction_id_list/kwargs columns, not a `reference`
    # field: they are its reference all the same (`rewards.types.reference_of`), unreadable
    assert "would abstain: 1 (bad_reference:unparseable x1)" in out
    assert "line 4: reference 2  ->  answer 2" in out


def test_check_fails_when_no_constraint_is_usable(tmp_path: Path, capsys) -> None:
    data = tmp_path / "rows.jsonl"
    data.write_text(json.dumps({"domain": "ifeval", "completion": "x",
                                "instruction_id_list": ["made:up"], "kwargs": [{}]}) + "\n")
    config = tmp_path / "rewards.yaml"
    config.write_text(CONFIG)
    assert main(["check", str(data), "--config", str(config)]) != 0
    out = capsys.readouterr().out
    assert "FAIL: 1 of 1 rows were not scored for a configuration cause" in out
    assert "unknown instruction id 'made:up'" in out
