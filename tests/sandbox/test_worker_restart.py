"""run_tests: a worker the program kills is replaced, forked from the harness's clean zygote,
and the replacement holds nothing the dead worker did (the program is loaded afresh)."""

from __future__ import annotations

import pytest
from sandbox_probes import MODES, SHORT

import sandbox

# f appends to a module-level list and, on x == 1, marks a global and kills its own worker
STATEFUL = (
    "import os, sys\n"
    "SEEN = []\n"
    "MARK = None\n"
    "def f(x):\n"
    "    global MARK\n"
    "    SEEN.append(x)\n"
    "    if x == 1:\n"
    "        MARK = 'set by the dead worker'\n"
    "        sys.modules['os'].environ['LEFT_BEHIND'] = '1'\n"
    "        os._exit(0)\n"
    "    return len(SEEN)\n"
    "def mark():\n"
    "    return MARK\n"
    "def left_behind():\n"
    "    return os.environ.get('LEFT_BEHIND')\n"
)


@pytest.mark.parametrize("mode", MODES)
def test_killed_worker_is_replaced_without_its_state(mode: str) -> None:
    tests = ["assert f(0) == 1", "assert f(1) == 1", "assert mark() is None",
             "assert left_behind() is None", "assert f(2) == 1", "assert f(1) == 1",
             "assert f(3) == 1"]
    report = sandbox.run_tests(STATEFUL, tests, limits=SHORT, mode=mode)
    outcomes = [r.outcome for r in report.results]
    # each kill is an error; every later test still gets a verdict, from a worker that
    # loaded the program again (SEEN starts empty, MARK and the environment are untouched)
    assert outcomes == ["pass", "error", "pass", "pass", "pass", "error", "pass"], report
    assert "the program died" in report.results[1].message
    assert all(r.ran for r in report.results)


@pytest.mark.parametrize("mode", MODES)
def test_every_test_killing_its_worker_is_an_error_each_time(mode: str) -> None:
    code = "import os\ndef f():\n    os._exit(0)\n"
    report = sandbox.run_tests(code, ["assert f() is None"] * 4, limits=SHORT, mode=mode)
    assert [r.outcome for r in report.results] == ["error"] * 4, report
    assert report.passed == 0


@pytest.mark.parametrize("mode", MODES)
def test_a_program_that_kills_everything_still_gets_fresh_workers(mode: str) -> None:
    # kill(-1) reaches the zygote (and, warm, the harness, whose unjudged tests are errors):
    # later workers then come from a new interpreter, never a pass for the killed tests
    code = ("import os, signal\nN = []\ndef f(x):\n    N.append(x)\n"
            "    if x == 1:\n        os.kill(-1, signal.SIGKILL)\n        os._exit(0)\n"
            "    return len(N)\n")
    tests = ["assert f(0) == 1", "assert f(1) == 1", "assert f(2) == 1"]
    report = sandbox.run_tests(code, tests, limits=SHORT, mode=mode)
    outcomes = [r.outcome for r in report.results]
    assert outcomes == ["pass", "error", "pass" if mode == "cold" else "error"], report
