"""The library type-checks: mypy, with the configuration in pyproject.toml (strict, the few
relaxations named there), over every package: rewards, sandbox, genrm, prompt_filter, rl,
integrations and rewards_cli, in-jail harness included. Any error fails the test, with
mypy's report."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rewards", "sandbox", "genrm", "prompt_filter", "integrations", "rl", "rewards_cli")


def test_mypy_passes_on_the_library():
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed: it comes with the dev extra (pip install -e '.[dev]')")
    # build/ is ignored by git: a warm cache makes a re-run take seconds (a cold one ~1 min)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(ROOT / "build" / "mypy-cache"),
         "--no-color-output", "--no-error-summary"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=540, check=False)
    report = (result.stdout + result.stderr).strip()
    assert result.returncode == 0, f"mypy found errors:\n{report[-20000:]}"


def test_mypy_checks_every_package():
    """The configuration names every package of the library, so none goes unchecked."""
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert sorted(config["packages"]) == sorted(PACKAGES)
    assert config["strict"] is True
    on_disk = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file())
    assert on_disk == sorted(PACKAGES), on_disk
