"""`rewards sandbox run --compare` offers every comparison the sandbox has (docs/sandbox.md
lists `lines_unordered`; the command refused it)."""

from __future__ import annotations

import json
import typing

import sandbox
from rewards_cli import main


def test_compare_choices_are_the_sandbox_comparisons(capsys):
    try:
        main(["sandbox", "run", "--help"])
    except SystemExit:
        pass
    help_text = " ".join(capsys.readouterr().out.split())
    for compare in typing.get_args(sandbox.Compare):
        assert compare in help_text


def test_lines_unordered_runs_from_the_command(tmp_path, capsys, sandbox_ready):
    source = tmp_path / "prog.py"
    source.write_text("print('b')\nprint('a')\n")
    tests = tmp_path / "tests.json"
    tests.write_text(json.dumps([{"input": "", "output": "a\nb\n"}]))
    assert main(["sandbox", "run", str(source), "--tests", str(tests), "--compare",
                 "exact", "--json"]) == 1
    capsys.readouterr()
    assert main(["sandbox", "run", str(source), "--tests", str(tests), "--compare",
                 "lines_unordered", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pass_fraction"] == 1.0
