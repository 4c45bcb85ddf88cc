"""The long-lived harness of warm assert/check runs (`harness.serve`): one harness process
judges run after run of a warm server, each run's worker forked by the server, and nothing
a program does to that harness reaches another run. It runs under the server's uid, not the
program's: a program can neither signal it nor change its limits (test_cross_run.py has
every such attack on every process of the jail)."""

from __future__ import annotations

import ast
import dataclasses
import re

from sandbox_probes import SHORT

import sandbox

# a pool of its own (the pool key is disk, files and memory), served one run at a time: a
# LIFO pool then hands every run to the same server, whose harness the tests can name
OWN = dataclasses.replace(SHORT, memory_bytes=(256 << 20) + (7 << 20))
PID_TEST = "assert False, __import__('os').getpid()"
ADD = "def add(a, b):\n    return a + b\n"
ADD_TESTS = [f"assert add({i}, 1) == {i + 1}" for i in range(6)]


def harness_pid() -> int:
    """The pid (in the jail) of the harness judging the next run: the tests run there."""
    report = sandbox.run_tests(ADD, [PID_TEST], limits=OWN, mode="warm")
    found = re.search(r"\((\d+)\)$", report.results[0].message)
    assert found, report
    return int(found.group(1))


def innocent_passes() -> None:
    report = sandbox.run_tests(ADD, ADD_TESTS, limits=OWN, mode="warm")
    assert (report.passed, report.total, report.execution.status) == (6, 6, "ok"), report


def test_one_harness_judges_many_runs_each_with_a_fresh_worker() -> None:
    code = ("import os\nCALLS = []\ndef state():\n    CALLS.append(1)\n"
            "    return [len(CALLS), os.getpid(), os.getppid()]\n")
    first = harness_pid()
    seen = set()
    for _ in range(4):
        report = sandbox.run_tests(code, ["assert False, state()"], limits=OWN, mode="warm")
        found = re.search(r"\((\[.*\])\)$", report.results[0].message)
        assert found, report
        calls, pid, parent = ast.literal_eval(found.group(1))
        assert (calls, parent) == (1, 1), report  # program state is the run's own; the
        seen.add(pid)  # worker is the server's child (pid 1), never the harness's
    assert len(seen) == 4 and first not in seen
    assert harness_pid() == first


def test_a_program_killing_everything_it_can_reaches_only_itself() -> None:
    """kill(-1) reaches every process the sender may signal: the program's own only."""
    before = harness_pid()
    code = ("import os, signal\ndef add(a, b):\n    if a == 2:\n"
            "        os.kill(-1, signal.SIGKILL)\n    return a + b\n")
    report = sandbox.run_tests(code, ADD_TESTS, limits=OWN, mode="warm")
    assert [r.outcome for r in report.results] == ["pass"] * 6, report  # nothing died
    stop = ("import os, signal\ndef add(a, b):\n    os.kill(-1, signal.SIGSTOP)\n"
            "    return a + b\n")
    report = sandbox.run_tests(stop, ADD_TESTS, limits=OWN, mode="warm")
    assert report.passed == 6, report
    innocent_passes()
    assert harness_pid() == before  # the same harness: nothing reached it


def test_signals_a_program_sends_the_harness_change_no_verdict() -> None:
    before = harness_pid()
    code = ("import os, signal\ndef add(a, b):\n"
            "    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGUSR1, signal.SIGALRM,\n"
            "                signal.SIGHUP, signal.SIGPIPE, signal.SIGTSTP):\n"
            "        signal.signal(sig, signal.SIG_IGN)\n"
            "        os.kill(-1, sig)\n"
            "    return a + b + (a == 3)\n")
    report = sandbox.run_tests(code, ADD_TESTS, limits=OWN, mode="warm")
    assert [r.outcome for r in report.results] == ["pass"] * 3 + ["fail"] + ["pass"] * 2, \
        report
    innocent_passes()
    assert harness_pid() == before  # blocked signals leave the harness as it was


def test_a_harness_a_program_tries_to_change_judges_on() -> None:
    attacks = {
        "limits": "resource.prlimit(pid, resource.RLIMIT_NOFILE, (12, 12))",
        "cpu time": "resource.prlimit(pid, resource.RLIMIT_CPU, (1, 1))",
        "priority": "os.setpriority(os.PRIO_PROCESS, pid, 19)",
    }
    for name, attack in attacks.items():
        before = harness_pid()
        # every pid the jail's namespace can have handed out so far, the harness's among them
        code = ("import os, resource\ndef add(a, b):\n"
                f"    for pid in range(2, 1 << 15):\n        try:\n            {attack}\n"
                "        except OSError:\n            pass\n    return a + b\n")
        report = sandbox.run_tests(code, ADD_TESTS, limits=OWN, mode="warm")
        assert report.passed == 6, (name, report)
        innocent_passes()  # the next run is judged by a harness none of this reached
        assert harness_pid() == before, name


def test_processes_a_program_leaves_are_gone_before_the_next_run() -> None:
    code = ("import os, time\ndef add(a, b):\n    if os.fork() == 0:\n"
            "        os.setsid()\n"
            "        while True:\n"
            "            open('/tmp/alive', 'w').close()\n"
            "            time.sleep(0.01)\n"
            "    return a + b\n")
    report = sandbox.run_tests(code, ADD_TESTS[:1], limits=OWN, mode="warm")
    assert report.passed == 1, report
    probe = ("import os, time\ntime.sleep(0.2)\n"
             "def add(a, b):\n    return a + b + os.path.exists('/tmp/alive')\n")
    after = sandbox.run_tests(probe, ADD_TESTS, limits=OWN, mode="warm")
    assert after.passed == 6, after


def test_a_program_finds_nothing_of_its_own_or_an_earlier_runs_tests() -> None:
    """The harness holds every run's tests; workers are forked by the server, which holds
    none: a program searching its memory finds neither its own run's expected values nor
    an earlier run's."""
    secret = "EXPECTED_" + "5151"
    code = ("import gc\ndef found():\n"  # the secret joined at run time: no constant holds it
            f"    wanted = ''.join([{secret[:9]!r}, {secret[9:]!r}])\n"
            "    return sum(isinstance(o, (list, dict, str, tuple)) and wanted in repr(o)\n"
            "               for o in gc.get_objects())\n")
    for _ in range(2):
        report = sandbox.run_tests(code, [f"assert found() == 0 or {secret!r}"] * 3,
                                   limits=OWN, mode="warm")
        assert report.passed == 3, report


def test_interpreter_settings_a_test_changes_do_not_reach_the_next_run() -> None:
    change = ("import io, os, sys\nsys.setrecursionlimit(60)\nsys.stdout = io.StringIO()\n"
              "os.chdir('/tmp')\nassert add(1, 1) == 2")
    report = sandbox.run_tests(ADD, [change], limits=OWN, mode="warm")
    assert report.passed == 1, report
    check = ("import os, sys\ndef depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n"
             "assert (depth(300), sys.stdout.fileno(), os.getcwd()) == (300, 1, '/work')")
    report = sandbox.run_tests(ADD, [check], limits=OWN, mode="warm")
    assert report.passed == 1, report


def test_the_harness_keeps_no_file_descriptor_of_earlier_runs() -> None:
    """Each run hands the harness nine fds (and replacement workers more): all closed by
    the run's end, or a long-lived harness would run out of them."""
    count = ("import os\ndef _open(n):\n    try:\n        os.fstat(n)\n        return 1\n"
             "    except OSError:\n        return 0\n"
             "assert False, sum(_open(n) for n in range(4096))")
    crash = "import os\ndef add(a, b):\n    if a == 1:\n        os._exit(1)\n    return a + b\n"

    def open_fds() -> int:
        report = sandbox.run_tests(ADD, [count], limits=OWN, mode="warm")
        found = re.search(r"\((\d+)\)$", report.results[0].message)
        assert found, report
        return int(found.group(1))

    before = open_fds()
    for _ in range(10):  # runs that replace their worker (a crash) and runs that time out
        sandbox.run_tests(crash, ADD_TESTS, limits=OWN, mode="warm")
        sandbox.run_tests("def add(a, b):\n    while True:\n        pass\n", ADD_TESTS[:1],
                          limits=dataclasses.replace(OWN, test_wall_s=0.05), mode="warm")
    assert open_fds() == before
