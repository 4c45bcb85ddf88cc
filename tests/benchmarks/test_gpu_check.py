"""The GPU check (`scripts/gpu_check.sh`, issue #39) is ready to run where a GPU is lent and says
why it skips where none is: on a machine without CUDA it exits 0 with the reason and runs
nothing. Where a GPU is present the check itself is the run (about 6 minutes, through the
`device` tool), not a unit test."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _has_cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


@pytest.mark.skipif(_has_cuda(), reason="a CUDA GPU is here: the check runs for real "
                    "(bash scripts/gpu_check.sh, ~6 minutes), not as a unit test")
def test_the_gpu_check_says_why_it_skips_without_a_gpu(tmp_path: Path) -> None:
    done = subprocess.run(["bash", str(ROOT / "scripts" / "gpu_check.sh")], capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "OUT": str(tmp_path / "out")}, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "skipped: no CUDA GPU" in done.stdout, done.stdout
    assert list((tmp_path / "out").iterdir()) == []  # nothing was measured


def test_the_gpu_check_runs_benchmarks_that_take_its_device_option() -> None:
    script = (ROOT / "scripts" / "gpu_check.sh").read_text(encoding="utf-8")
    for benchmark in ("genrm_throughput.py", "grpo_vs_trl.py"):
        assert f"benchmarks/{benchmark} --device cuda" in script
        shown = subprocess.run(["python3", str(ROOT / "benchmarks" / benchmark), "--help"],
                               capture_output=True, text=True, timeout=60, check=True)
        assert "--device" in shown.stdout
