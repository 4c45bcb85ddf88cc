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
    # cold, kill(-1) reaches the zygote: later workers then come from a new interpreter;
    # warm, it reaches nothing but the program's own processes (the harness and the server
    # that forks workers run under another uid). Never a pass for the killed test
    code = ("import os, signal\nN = []\ndef f(x):\n    N.append(x)\n"
            "    if x == 1:\n        os.kill(-1, signal.SIGKILL)\n        os._exit(0)\n"
            "    return len(N)\n")
    tests = ["assert f(0) == 1", "assert f(1) == 1", "assert f(2) == 1"]
    report = sandbox.run_tests(code, tests, limits=SHORT, mode=mode)
    outcomes = [r.outcome for r in report.results]
    assert outcomes == ["pass", "error", "pass"], report


# limits() reports the worker's rlimits; crash() kills the worker, so the next test's worker
# is a replacement (warm: forked by the warm server on the harness's request, cold: by the
# harness's zygote)
LIMITS_PROBE = (
    "import os, resource\n"
    "KINDS = ('RLIMIT_AS', 'RLIMIT_CPU', 'RLIMIT_FSIZE', 'RLIMIT_NOFILE', 'RLIMIT_NPROC',\n"
    "         'RLIMIT_CORE')\n"
    "def limits():\n"
    "    return [list(resource.getrlimit(getattr(resource, k))) for k in KINDS]\n"
    "def where():\n"
    "    return [os.getcwd(), sorted(os.listdir('.')), os.getuid()]\n"
    "def crash():\n"
    "    os._exit(3)\n"
)


@pytest.mark.parametrize("mode", MODES)
def test_a_replacement_worker_runs_under_the_first_ones_limits(mode: str) -> None:
    probes = ["seen = limits()\nassert seen == [], seen", "seen = where()\nassert seen == [], seen"]
    first = sandbox.run_tests(LIMITS_PROBE, probes, limits=SHORT, mode=mode)
    seen_first = [r.message for r in first.results]  # each failure carries what it saw
    after = sandbox.run_tests(LIMITS_PROBE, ["assert crash() is None", *probes], limits=SHORT,
                              mode=mode)
    outcomes = [r.outcome for r in after.results]
    assert outcomes == ["error", "fail", "fail"], after
    assert [r.message for r in after.results[1:]] == seen_first
    # and the values are the run's own, not the server's loose ones
    assert f"[{SHORT.open_files}, {SHORT.open_files}]" in seen_first[0], seen_first
    assert "'/work'" in seen_first[1] and "'main.py'" in seen_first[1], seen_first
