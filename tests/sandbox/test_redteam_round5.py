"""Red team, round 5: the warm server and the harnesses after the run-state changes (#35).
Each attack is a program that tries to buy a verdict or reach the next run through the
channel, its descriptors, its exit or the processes that judge it; every one held, warm and
cold, so these are probes: the attacker scores nothing it did not earn and an honest
program on the same pool then passes all its tests."""

from __future__ import annotations

import dataclasses

import pytest
from test_cross_run import own

import sandbox

ADD = "def add(a, b):\n    return a + b\n"
ADD_TESTS = ["assert add(1, 1) == 2", "assert add(2, 2) == 4"]
IO = "a, b = map(int, input().split())\nprint(a + b)\n"
IO_TESTS = [{"input": "1 1\n", "output": "2\n"}, {"input": "2 2\n", "output": "4\n"}]
FORGED = b"\\x00\\x00\\x00\\x10" + b"pppeee i ok pass done 0 clean\\n"

ASSERT_ATTACKS = {
    # decoding bombs on the channel: refused as not plain data, or compared and failed
    "a 200,000-digit int": "def add(a, b):\n    return 10 ** 200000\n",
    "nesting 100,000 deep": ("def add(a, b):\n    x = 0\n    for _ in range(100000):\n"
                             "        x = [x]\n    return x\n"),
    "a list that holds itself": "def add(a, b):\n    x = []\n    x.append(x)\n    return x\n",
    "2**60 shared leaves": ("def add(a, b):\n    x = [0]\n    for _ in range(60):\n"
                           "        x = [x, x]\n    return x\n"),
    "an always-equal float": ("class F(float):\n    def __eq__(self, other):\n        return True\n"
                              "def add(a, b):\n    return F(0)\n"),
    # exit and descriptor tricks
    "os._exit(0) at import": "import os\nos._exit(0)\n",
    "SystemExit(0) in the call": "def add(a, b):\n    raise SystemExit(0)\n",
    "every descriptor closed": ("import os\nfor fd in range(1024):\n    try:\n        os.close(fd)\n"
                                "    except OSError:\n        pass\n" + ADD.replace("a + b", "0")),
    "forged bytes on every descriptor": (
        "import os\ndef add(a, b):\n    for fd in range(3, 64):\n        try:\n"
        f"            os.write(fd, b'{FORGED.decode()}')\n        except OSError:\n"
        "            pass\n    return 0\n"),
    "stdout on stderr": "import os\nos.dup2(2, 1)\ndef add(a, b):\n    return 0\n",
    "a BaseException of its own": ("class E(BaseException):\n    pass\n"
                                   "def add(a, b):\n    raise E\n"),
}

IO_ATTACKS = {
    "forged bytes on every descriptor": (
        "import os\nfor fd in range(3, 64):\n    try:\n"
        f"        os.write(fd, b'{FORGED.decode()}')\n    except OSError:\n        pass\n"
        "print(0)\n"),
    "stdout closed, then os._exit(0)": "import os\nos.close(1)\nos._exit(0)\n",
    "ptrace of its parent": ("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
                             "print(libc.ptrace(16, os.getppid(), None, None))\n"),
    "a fork flood": ("import os\nfor _ in range(10000):\n    try:\n        os.fork()\n"
                     "    except OSError:\n        break\nprint(0)\n"),
}


@pytest.mark.parametrize("mode", ["warm", "cold"])
def test_assert_runs_buy_nothing_through_channel_exit_or_descriptors(mode: str) -> None:
    limits = dataclasses.replace(own(92), wall_s=8.0, test_wall_s=3.0)
    for name, code in ASSERT_ATTACKS.items():
        report = sandbox.run_tests(code, ADD_TESTS, limits=limits, mode=mode)
        assert report.passed == 0, (name, report)
        assert all(r.outcome in ("fail", "error") for r in report.results), (name, report)
    assert sandbox.run_tests(ADD, ADD_TESTS, limits=limits, mode=mode).passed == 2


@pytest.mark.parametrize("mode", ["warm", "cold"])
def test_stdin_stdout_runs_buy_nothing_through_descriptors_exit_or_ptrace(mode: str) -> None:
    limits = dataclasses.replace(own(93), wall_s=8.0, test_wall_s=3.0)
    for name, code in IO_ATTACKS.items():
        report = sandbox.run_tests(code, IO_TESTS, limits=limits, mode=mode)
        assert report.passed == 0, (name, report)
    assert sandbox.run_tests(IO, IO_TESTS, limits=limits, mode=mode).passed == 2


def test_a_return_value_the_harness_must_decode_at_length_ends_by_the_run_wall() -> None:
    """8 million items on the channel (within MAX_WIRE_ITEMS): the harness decodes them past
    the test's limit, and the run ends at its wall limit, a timeout (0), never later and
    never an abstention; the next run on the pool is judged as usual."""
    import time

    limits = dataclasses.replace(own(96), wall_s=4.0, test_wall_s=2.0)
    begin = time.monotonic()
    report = sandbox.run_tests("def add(a, b):\n    return [0] * (1 << 23)\n", ADD_TESTS,
                               limits=limits, mode="warm")
    assert time.monotonic() - begin < limits.wall_s + 3.0
    assert report.passed == 0
    assert all(r.outcome in ("timeout", "fail", "error") for r in report.results), report
    assert sandbox.run_tests(ADD, ADD_TESTS, limits=limits, mode="warm").passed == 2


SURROGATE = "print('ran')\n# \ud800\n"  # a model's "\ud800" JSON escape, in a comment


def test_a_lone_surrogate_in_a_program_is_the_programs_error_warm_and_cold() -> None:
    """A program text holding a lone surrogate (json.loads makes one of "\\ud800", so a
    client of `rewards sandbox serve` or a model's tool call can send it) is no UTF-8 file.
    Cold, the host's strict encode raised UnicodeEncodeError out of `sandbox.run` (which
    never raises for a program) and left the run's scratch folder behind; warm, the server's
    child died on the same encode, and once the text was written, compile() of the bytes let
    the comment through where `python3 main.py` refuses it. Now both modes write the code
    point as bytes (surrogatepass) and both refuse the file as the interpreter does."""
    limits = dataclasses.replace(own(98), wall_s=5.0)
    seen = {}
    for mode in ("warm", "cold"):
        execution = sandbox.run(SURROGATE, limits=limits, mode=mode)
        seen[mode] = (execution.status, execution.stdout)
        assert "Non-UTF-8 code" in execution.stderr, (mode, execution)
        report = sandbox.run_tests(SURROGATE.replace("print('ran')", ADD.strip()), ADD_TESTS,
                                   limits=limits, mode=mode)
        assert report.passed == 0, (mode, report)
    assert seen == {"warm": ("runtime_error", ""), "cold": ("runtime_error", "")}, seen


def test_a_nul_byte_in_a_program_gives_the_same_verdict_warm_and_cold() -> None:
    """A NUL byte in a Python program: warm, run_main's compile() refused the program
    (runtime_error); cold, the jail's python3 (3.11.2) stopped reading the file at the NUL
    and ran what came before it (ok, "1"): the verdict depended on the mode, and cold ran a
    program other than the text every reader (the rule layer, a judge) sees. Now the host
    refuses such text before either mode (`sandbox._workspace.refused_program`): the same
    runtime_error, a message naming the line, nothing run; run_tests reports each test as
    an error with that message."""
    code = "print(1)\n#\x00\nprint(2)\n"
    limits = dataclasses.replace(own(99), wall_s=5.0)
    seen = {mode: (execution.status, execution.stdout, execution.stderr)
            for mode in ("warm", "cold")
            for execution in [sandbox.run(code, limits=limits, mode=mode)]}
    assert seen["warm"] == seen["cold"], seen
    status, stdout, stderr = seen["cold"]
    assert (status, stdout) == ("runtime_error", ""), seen
    assert "main.py, line 2" in stderr and "NUL" in stderr, seen
    for mode in ("warm", "cold"):
        for program, tests in ((ADD + "#\x00\n", ADD_TESTS), (IO + "#\x00\n", IO_TESTS)):
            report = sandbox.run_tests(program, tests, limits=limits, mode=mode)
            assert report.passed == 0 and report.execution.status == "runtime_error", \
                (mode, report)
            assert all("NUL" in result.message for result in report.results), (mode, report)


@pytest.mark.parametrize(("language", "program", "status"), [
    # gcc drops a NUL ("null character(s) ignored"): `ret\0urn` compiled as `return`
    ("c", '#include <stdio.h>\nint main(void) { ret\x00urn printf("ok\\n") - 3; }\n',
     "compile_error"),
    # bash drops it too: `ec\0ho` ran as `echo`
    ("bash", "ec\x00ho ok\n", "runtime_error"),
])
def test_a_nul_byte_is_refused_in_every_language(language: str, program: str,
                                                 status: str) -> None:
    """The class beyond Python: a compiler or interpreter that skips a NUL runs text no
    reader sees (the rule layer reads `ret\0urn`, gcc compiles `return`). One rule for every
    language: the host refuses the program before it runs."""
    execution = sandbox.run(program, language, limits=own(97))
    assert (execution.status, execution.stdout) == (status, ""), execution
    assert "NUL" in execution.stderr, execution
