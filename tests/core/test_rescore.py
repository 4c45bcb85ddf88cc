"""`rewards rescore`: saved rollouts scored again, the flipped verdicts reported by reason and
by step, from a `rewards score` output (joined by line) or a run's completions.jsonl."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rewards import Sample, Score
from rewards.rescore import rescore


class Exact:
    name = "exact"

    def score(self, samples):
        return [Score(float(s.completion == s.reference), "ok") for s in samples]


def test_flips_by_kind_reason_and_step():
    samples = [Sample("q", c, reference="1") for c in ("1", "2", "1", "1")]
    old = [(1.0, "ok"), (1.0, "ok"), (0.0, "wrong"), (None, "timeout")]
    report = rescore(Exact(), samples, old, steps=[1, 1, 2, 2])
    assert [(f.line, f.kind) for f in report.flips] == [(2, "lost"), (3, "gained"), (4, "scores")]
    assert report.by_step()[1]["lost"] == 1 and report.by_step()[2]["gained"] == 1
    assert report.by_reason()[("lost", "ok", "ok")] == 1
    assert "3 verdicts changed" in report.render()


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rewards", *args], capture_output=True,
                          text=True, check=False, timeout=300, cwd=cwd)


def test_rescore_command_against_a_score_output(tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text("\n".join(json.dumps(r) for r in [
        {"prompt": "1+1?", "completion": "so \\boxed{2}", "reference": "2", "domain": "math"},
        {"prompt": "2+2?", "completion": "so \\boxed{5}", "reference": "4", "domain": "math"},
        {"prompt": "3+3?", "completion": "so \\boxed{6}", "reference": "6", "domain": "math"},
    ]) + "\n")
    config = tmp_path / "c.yaml"
    config.write_text("domains:\n  math: {rewards: [{use: math}]}\n")
    done = _run("score", str(rows), "--config", str(config), "--out", str(tmp_path / "s.jsonl"),
                cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    same = _run("rescore", str(rows), "--diff", str(tmp_path / "s.jsonl"), "--config",
                str(config), "--fail-on-flip", cwd=tmp_path)
    assert same.returncode == 0 and "0 verdicts changed" in same.stdout, same.stdout + same.stderr
    # an old run that had credited the wrong answer on line 2 (a verifier since fixed)
    old = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    old[1]["score"], old[1]["reason"] = 1.0, "ok"
    (tmp_path / "old.jsonl").write_text("\n".join(json.dumps(r) for r in old) + "\n")
    flipped = _run("rescore", str(rows), "--diff", str(tmp_path / "old.jsonl"), "--config",
                   str(config), "--out", str(tmp_path / "flips.jsonl"), "--fail-on-flip",
                   cwd=tmp_path)
    assert flipped.returncode == 1, flipped.stdout + flipped.stderr
    assert "1 verdicts changed" in flipped.stdout
    (flip,) = [json.loads(line) for line in (tmp_path / "flips.jsonl").read_text().splitlines()]
    assert (flip["line"], flip["change"], flip["old"], flip["new"]) == (2, "lost", 1.0, 0.0)


def test_rescore_reads_a_runs_completions_table(tmp_path):
    table = tmp_path / "completions.jsonl"
    table.write_text("\n".join(json.dumps(r) for r in [
        {"step": 3, "prompt": "1+1?", "completion": "\\boxed{2}", "reward": 0.0,
         "reason": "wrong", "reference": "2", "domain": "math"},
        {"step": 4, "prompt": "1+1?", "completion": "\\boxed{3}", "reward": 0.0,
         "reason": "wrong", "reference": "2", "domain": "math"},
    ]) + "\n")
    config = tmp_path / "c.yaml"
    config.write_text("domains:\n  math: {rewards: [{use: math}]}\n")
    done = _run("rescore", str(table), "--config", str(config), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1 verdicts changed" in done.stdout
    step_line = next(line for line in done.stdout.splitlines() if line.strip().startswith("3 "))
    assert step_line.split()[:2] == ["3", "1"]  # step 3: one gained
