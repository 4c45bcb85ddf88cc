import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq

from rewards.cli import main

CONFIG = """
domains:
  default:
    rewards:
      - {use: "rewards_for_tests:exact", name: exact}
  poison:
    rewards:
      - {use: "rewards_for_tests:explode_on_boom", name: boom}
"""


def _read(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_score_one_row_per_input_row(tmp_path, capsys):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join([
        json.dumps({"prompt": "q", "completion": "4", "reference": "4", "group": "a"}),
        "{not json",
        json.dumps({"prompt": "q", "reference": "4"}),
        json.dumps({"prompt": "q", "completion": "5", "reference": "4"}),
        json.dumps({"completion": "BOOM", "domain": "poison"}),
        json.dumps({"completion": "fine", "domain": "poison"}),
    ]) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["score", str(src), "--config", str(cfg), "--out", str(out)]) == 0
    rows = _read(out)
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[0] == {"line": 1, "domain": "default", "group": "a", "score": 1.0,
                       "reason": "ok", "parts": {"exact": 1.0}}
    assert rows[1]["reason"] == "input_error" and f"{src}:2" in rows[1]["error"]
    assert rows[2]["reason"] == "input_error" and rows[2]["field"] == "completion"
    assert rows[3]["score"] == 0.0
    assert rows[4]["reason"] == "error" and "poison sample" in rows[4]["error"]
    assert rows[5]["score"] == 1.0  # the poison row did not take its batch down
    summary = capsys.readouterr().out
    assert "scored 6 rows" in summary and "input_error" in summary
    assert "default" in summary and "0.5000" in summary


def test_score_parquet_with_map(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({"solution_str": ["7", "8"], "ground_truth": ["7", "7"]}), src)
    out = tmp_path / "out.jsonl"
    assert main(["score", str(src), "--config", str(cfg), "--out", str(out),
                 "--map", "solution_str=completion,ground_truth=reference"]) == 0
    assert [r["score"] for r in _read(out)] == [1.0, 0.0]


def test_bad_config_exits_2_with_message(tmp_path, capsys):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("domains: {d: {rewards: [{use: no_such_reward_anywhere}]}}\n")
    src = tmp_path / "in.jsonl"
    src.write_text('{"completion": "x"}\n')
    assert main(["score", str(src), "--config", str(cfg), "--out", str(tmp_path / "o")]) == 2
    assert "unknown reward" in capsys.readouterr().err


def test_console_script_runs_as_a_process(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"completion": str(i % 3), "reference": "1"}) + "\n"
                           for i in range(1200)))
    out = tmp_path / "out.jsonl"
    proc = subprocess.run([sys.executable, "-m", "rewards", "score", str(src), "--config",
                           str(cfg), "--out", str(out), "--batch-size", "100"],
                          check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = _read(out)
    assert len(rows) == 1200 and [r["line"] for r in rows] == list(range(1, 1201))
    assert sum(r["score"] for r in rows) == 400
    assert "1200/1200" in proc.stderr  # the progress bar on a long input
    quiet = subprocess.run([sys.executable, "-m", "rewards", "score", str(src), "--config",
                            str(cfg), "--out", str(out), "--progress", "off"],
                           check=False, capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and "1200/1200" not in quiet.stderr
    assert len(_read(out)) == 1200
