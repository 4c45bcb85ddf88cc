"""Every benchmark reports and exits by one rule (benchmarks/_report.py): 0 when every verdict
is right and every target met, 1 when a verdict is wrong (whatever the targets), 3 when only a
target is missed; and every benchmark script uses it."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from _report import EXIT_OK, EXIT_TARGET_MISSED, EXIT_VERDICT_WRONG, Report


def test_header_names_the_command_date_machine_and_load(capsys):
    Report(needs="a thing")
    out = capsys.readouterr().out
    for field in ("command: python ", "date:", "machine:", "load average at start:",
                  "needs:   a thing"):
        assert field in out


@pytest.mark.parametrize(("targets", "verdicts", "code"), [
    ([(25.0, 20.0, True)], [(10, 10)], EXIT_OK),
    ([(5.9, 20.0, True)], [(10, 10)], EXIT_TARGET_MISSED),
    ([(25.0, 20.0, True)], [(9, 10)], EXIT_VERDICT_WRONG),
    ([(5.9, 20.0, True)], [(9, 10)], EXIT_VERDICT_WRONG),   # a wrong verdict outranks speed
    ([(0.25, 0.3, False)], [], EXIT_OK),                     # lower is better: met
    ([(0.58, 0.3, False)], [], EXIT_TARGET_MISSED),
    ([], [], EXIT_OK),                                       # a measurement
])
def test_exit_rule(capsys, targets, verdicts, code):
    report = Report()
    for measured, target, higher in targets:
        report.target("t", measured, target, higher_is_better=higher)
    for right, total in verdicts:
        report.verdict("v", right, total)
    assert report.finish() == code
    out = capsys.readouterr().out
    assert f"exit {code}" in out.splitlines()[-1]
    missed = any((measured >= target) != higher for measured, target, higher in targets)
    assert ("NOT met" in out) == missed


def test_every_benchmark_reports_through_the_one_rule():
    """A script that prints its own PASS/FAIL or picks its own exit status drifts: every
    benchmark script builds a Report and returns its finish()."""
    scripts = [p for p in BENCHMARKS.glob("*.py") if not p.name.startswith("_")
               and p.name not in {"math_corpus.py"}]
    assert len(scripts) >= 14
    for script in scripts:
        tree = ast.parse(script.read_text(encoding="utf-8"))
        calls = {node.func.attr if isinstance(node.func, ast.Attribute) else
                 getattr(node.func, "id", "") for node in ast.walk(tree)
                 if isinstance(node, ast.Call)}
        assert "Report" in calls and "finish" in calls, f"{script.name} does not use _report"
