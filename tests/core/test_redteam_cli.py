"""Red team, round 5: the command line. The run rule says a run that scored nothing never
exits 0; an input with no rows scored nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).parents[2]
CONFIG = "domains:\n  math:\n    rewards:\n      - use: math\n"


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "rewards", *args], cwd=cwd, env=env,
                          text=True, capture_output=True, timeout=120, check=False)


@pytest.mark.parametrize("content", ["", "\n\n", "[]\n"], ids=["empty", "blank-lines", "array"])
def test_an_input_with_no_rows_never_exits_0(tmp_path: Path, content: str) -> None:
    """`rewards score` and `rewards check` of an empty file (a wrong path to a dataset
    export, a filter that kept nothing) printed an empty summary and exited 0: a run that
    scored nothing passed. Now: exit 2, naming the file."""
    name = "rows.json" if content.startswith("[") else "rows.jsonl"
    (tmp_path / name).write_text(content)
    (tmp_path / "cfg.yaml").write_text(CONFIG)
    for args in (["score", name, "--config", "cfg.yaml", "--out", "out.jsonl"],
                 ["check", name, "--config", "cfg.yaml"]):
        proc = _cli(args, tmp_path)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert f"{name}: the input holds no rows" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr


def test_one_row_still_exits_0(tmp_path: Path) -> None:
    (tmp_path / "rows.jsonl").write_text(
        '{"completion": "\\\\boxed{4}", "reference": "4", "domain": "math"}\n')
    (tmp_path / "cfg.yaml").write_text(CONFIG)
    proc = _cli(["score", "rows.jsonl", "--config", "cfg.yaml", "--out", "out.jsonl"], tmp_path)
    assert proc.returncode == 0, proc.stderr
