"""`rewards sandbox run`: tiny end-to-end runs of the debugging command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rewards.cli import main

PROGRAM = "def add(a, b):\n    return a + b\nprint('hello')\n"


def test_run_prints_status_and_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "prog.py"
    source.write_text(PROGRAM)
    assert main(["sandbox", "run", str(source), "--wall", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("status ok  exit 0") and "hello" in out


def test_run_against_tests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "prog.py"
    source.write_text(PROGRAM)
    tests = tmp_path / "tests.json"
    tests.write_text(json.dumps(["assert add(1, 2) == 3", "assert add(1, 1) == 3"]))
    assert main(["sandbox", "run", str(source), "--tests", str(tests)]) == 1
    out = capsys.readouterr().out
    assert "passed 1/2 (50%)" in out and "AssertionError: assert add(1, 1) == 3" in out
    check = tmp_path / "check.json"
    check.write_text(json.dumps({"check": "def check(candidate):\n    assert candidate(2, 2) == 4\n",
                                 "entry_point": "add"}))
    assert main(["sandbox", "run", str(source), "--tests", str(check), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pass_fraction"] == 1.0


def test_compile_error_and_missing_file(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bad.c"
    source.write_text("int main( {")
    assert main(["sandbox", "run", str(source), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "compile_error" and "error" in result["stderr"]
    assert main(["sandbox", "run", str(tmp_path / "missing.py")]) == 2
    assert "no such file" in capsys.readouterr().err
