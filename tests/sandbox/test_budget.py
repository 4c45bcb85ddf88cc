"""A budget per program, not per test (issue #17): a timeout ends the program's run, the tests
after it never start, and `Limits.program_wall_s` bounds all the tests together. Asserted on
the reports (which tests ran, what the program printed), never on wall-clock time."""

from __future__ import annotations

import dataclasses

import pytest
from sandbox_probes import MODES, SHORT

import sandbox

LIMITS = dataclasses.replace(SHORT, test_wall_s=0.5, wall_s=10.0, cpu_s=10.0)

# prints a marker per call: the program's stdout shows which tests ran
LOOPING_FUNCTION = ("def f(x):\n    print('ran', x)\n    if x == 1:\n        while True:\n"
                    "            pass\n    return x\n")
LOOPING_STDIN = ("x = input()\nprint('ran', x)\nif x == '1':\n    while True:\n"
                 "        pass\n")


def _after_first_timeout(report: sandbox.TestReport, first: int) -> None:
    results = report.results
    assert [r.outcome for r in results[:first]] == ["pass"] * first, report
    assert results[first].outcome == "timeout" and results[first].ran, report
    assert "exceeded" in results[first].message
    for r in results[first + 1:]:
        assert (r.outcome, r.ran, r.wall_s) == ("timeout", False, 0.0), r
        assert r.message == "not run: an earlier test timed out"
    assert report.status == "timeout"


@pytest.mark.parametrize("mode", MODES)
def test_a_looping_test_ends_the_run_of_function_tests(mode: str) -> None:
    tests = [f"assert f({i}) == {i}" for i in range(10)]
    report = sandbox.run_tests(LOOPING_FUNCTION, tests, limits=LIMITS, mode=mode)
    _after_first_timeout(report, 1)
    printed = report.execution.stdout.split("\n")
    assert "ran 0" in printed and "ran 1" in printed, report.execution
    assert not any(f"ran {i}" in printed for i in range(2, 10)), report.execution


@pytest.mark.parametrize("mode", MODES)
def test_a_looping_test_ends_the_run_of_stdin_tests(mode: str) -> None:
    cases = [{"input": f"{i}\n", "output": f"ran {i}\n"} for i in range(10)]
    report = sandbox.run_tests(LOOPING_STDIN, cases, limits=LIMITS, mode=mode)
    _after_first_timeout(report, 1)
    printed = report.execution.stdout.split("\n")
    assert "ran 0" in printed, report.execution
    assert not any(f"ran {i}" in printed for i in range(2, 10)), report.execution


def test_a_looping_test_ends_the_run_of_a_compiled_language() -> None:
    script = 'read x\necho "ran $x"\nif [ "$x" = 1 ]; then while :; do :; done; fi\n'
    cases = [{"input": f"{i}\n", "output": f"ran {i}\n"} for i in range(10)]
    report = sandbox.run_tests(script, cases, "bash", limits=LIMITS)
    _after_first_timeout(report, 1)


@pytest.mark.parametrize("mode", MODES)
def test_a_crash_does_not_end_the_run(mode: str) -> None:
    """Only a timeout ends it: after a program that dies the worker restarts."""
    code = "import os\ndef f(x):\n    if x == 1:\n        os._exit(3)\n    return x\n"
    report = sandbox.run_tests(code, [f"assert f({i}) == {i}" for i in range(4)],
                               limits=LIMITS, mode=mode)
    assert [r.outcome for r in report.results] == ["pass", "error", "pass", "pass"], report
    assert all(r.ran for r in report.results)


@pytest.mark.parametrize("mode", MODES)
def test_the_program_budget_stops_tests_that_each_fit_their_own_limit(mode: str) -> None:
    """Ten tests of 1 s each, 3 s allowed per test, 1.6 s for the program: the first passes
    (0.6 s to spare on any machine), the second cannot (at most 0.6 s of the budget is left and
    it sleeps 1 s), and the rest never start. Exact whatever the machine's speed: the sleeps
    are wall time, so no machine runs the second test inside what is left."""
    code = "import time\ndef slow(x):\n    print('ran', x)\n    time.sleep(1.0)\n    return x\n"
    tests = [f"assert slow({i}) == {i}" for i in range(10)]
    limits = dataclasses.replace(LIMITS, test_wall_s=3.0, program_wall_s=1.6)
    report = sandbox.run_tests(code, tests, limits=limits, mode=mode)
    assert [r.outcome for r in report.results] == ["pass"] + ["timeout"] * 9, report
    cut = report.results[1]
    assert cut.ran and "of the program's 1.6 s" in cut.message, cut
    skipped = report.results[2:]
    assert not any(r.ran for r in skipped), skipped
    assert all(r.message == "not run: the program's budget of 1.6 s was spent"
               for r in skipped), skipped
    assert "ran 2" not in report.execution.stdout


@pytest.mark.parametrize("mode", MODES)
def test_a_budget_that_holds_changes_nothing(mode: str) -> None:
    cases = [{"input": f"{i}\n", "output": f"{i}\n"} for i in range(6)]
    limits = dataclasses.replace(LIMITS, program_wall_s=8.0)
    report = sandbox.run_tests("print(input())", cases, limits=limits, mode=mode)
    assert report.passed == 6 and report.status == "ok", report
    assert all(r.ran for r in report.results)


@pytest.mark.parametrize("value", [0, -1.0, "3"])
def test_program_budget_must_be_positive(value: object) -> None:
    with pytest.raises(sandbox.ArgumentError, match="program_wall_s"):
        sandbox.Limits(program_wall_s=value)  # type: ignore[arg-type]
    assert sandbox.Limits(program_wall_s=None).program_wall_s is None


# --- one limit per test (`test_limits`, EvalPlus's per-test limits) ------------------------

# every test sleeps 0.6 s: under 2 s it passes on any machine (1.4 s to spare), under 0.3 s
# it times out on any machine (a sleep never ends early); LIMITS' own test_wall_s is 0.5 s, so
# a test that passes did so under its own limit, not under test_wall_s
SLEEPY_FUNCTION = ("import time\ndef slow(x):\n    print('ran', x)\n    time.sleep(0.6)\n"
                   "    return x\n")
SLEEPY_STDIN = "import time\nx = input()\nprint('ran', x)\ntime.sleep(0.6)\n"
OWN_LIMITS = [2.0, 0.3, 2.0, 2.0]


def _cut_at_own_limit(report: sandbox.TestReport) -> None:
    """Test 0 passed under its 2 s, test 1 ran past its 0.3 s, tests 2 and 3 never started."""
    assert [(r.outcome, r.ran) for r in report.results] == [
        ("pass", True), ("timeout", True), ("timeout", False), ("timeout", False)], report
    assert report.results[1].message == "test exceeded 0.3 s", report.results[1]
    assert all(r.message == "not run: an earlier test timed out" for r in report.results[2:])
    assert "ran 2" not in report.execution.stdout and "ran 3" not in report.execution.stdout
    assert report.status == "timeout"


@pytest.mark.parametrize("mode", MODES)
def test_each_function_test_runs_under_its_own_limit(mode: str) -> None:
    tests = [f"assert slow({i}) == {i}" for i in range(4)]
    report = sandbox.run_tests(SLEEPY_FUNCTION, tests, limits=LIMITS, mode=mode,
                               test_limits=OWN_LIMITS)
    _cut_at_own_limit(report)


@pytest.mark.parametrize("mode", MODES)
def test_each_stdin_test_runs_under_its_own_limit(mode: str) -> None:
    cases = [{"input": f"{i}\n", "output": f"ran {i}\n"} for i in range(4)]
    report = sandbox.run_tests(SLEEPY_STDIN, cases, limits=LIMITS, mode=mode,
                               test_limits=OWN_LIMITS)
    _cut_at_own_limit(report)


@pytest.mark.parametrize("mode", MODES)
def test_the_program_budget_caps_a_tests_own_limit(mode: str) -> None:
    """Own limits of 5 s, 1.6 s for the program, tests of 1 s: as with `test_wall_s`, the
    second test gets only what is left (at most 0.6 s) and the rest never start."""
    code = "import time\ndef slow(x):\n    time.sleep(1.0)\n    return x\n"
    tests = [f"assert slow({i}) == {i}" for i in range(4)]
    limits = dataclasses.replace(LIMITS, program_wall_s=1.6)
    report = sandbox.run_tests(code, tests, limits=limits, mode=mode, test_limits=[5.0] * 4)
    assert [r.outcome for r in report.results] == ["pass"] + ["timeout"] * 3, report
    assert "of the program's 1.6 s" in report.results[1].message, report.results[1]
    assert all(r.message == "not run: the program's budget of 1.6 s was spent"
               for r in report.results[2:]), report


@pytest.mark.parametrize(("limits", "problem"), [
    ([1.0, 1.0], "gives 2 limits for 3 tests"),
    ([1.0, 0.0, 1.0], r"test_limits\[1\] must be a positive number"),
    ([1.0, -2.0, 1.0], r"test_limits\[1\]"),
    ([1.0, 1.0, float("nan")], r"test_limits\[2\]"),
    ([1.0, float("inf"), 1.0], r"test_limits\[1\]"),
    ([True, 1.0, 1.0], r"test_limits\[0\]"),
    ([1.0, "2", 1.0], r"test_limits\[1\]"),
    ("1.0", "must be a sequence"),
    (2.0, "must be a sequence"),
])
def test_per_test_limits_are_checked(limits: object, problem: str) -> None:
    tests = [f"assert {i} == {i}" for i in range(3)]
    with pytest.raises(sandbox.ArgumentError, match=problem):
        sandbox.run_tests("", tests, limits=LIMITS, test_limits=limits)  # type: ignore[arg-type]
