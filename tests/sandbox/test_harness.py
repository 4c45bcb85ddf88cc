"""run_tests: the three formats, per-test verdicts, and programs that try to fake a pass."""

from __future__ import annotations

import dataclasses
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from sandbox_probes import MODES, SHORT

import sandbox
from sandbox import _batch as sandbox_batch
from sandbox._in_jail import harness_io

GOOD = "def add(a, b):\n    return a + b\n"
ASSERTS = ["assert add(1, 2) == 3", "assert add(-1, 1) == 0", "assert add('a', 'b') == 'ab'"]
CHECK = "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(0, 0) == 0\n"


@pytest.mark.parametrize("mode", MODES)
def test_correct_program_passes_every_format(mode: str) -> None:
    report = sandbox.run_tests(GOOD, ASSERTS, limits=SHORT, mode=mode)
    assert (report.passed, report.total, report.pass_fraction) == (3, 3, 1.0), report
    assert report.status == "ok"
    check = sandbox.run_tests(GOOD, CHECK, entry_point="add", limits=SHORT, mode=mode)
    assert check.passed == check.total == 1, check
    io = sandbox.run_tests("a, b = map(int, input().split())\nprint(a + b)\n",
                           [{"input": "1 2\n", "output": "3\n"},
                            {"input": "5 5", "output": "10"}], limits=SHORT, mode=mode)
    assert io.passed == 2, io


@pytest.mark.parametrize("mode", MODES)
def test_per_test_verdicts_say_why(mode: str) -> None:
    code = ("import time\ndef f(x):\n    if x == 2:\n        raise ValueError('two')\n"
            "    if x == 3:\n        time.sleep(30)\n    return x * 10\n")
    tests = ["assert f(1) == 10", "assert f(1) == 11", "assert f(2) == 20", "assert f(3) == 30",
             "assert f(4) == 40"]
    report = sandbox.run_tests(code, tests, limits=SHORT, mode=mode)
    outcomes = [r.outcome for r in report.results]
    # a timeout ends the program's run: the test after it is a timeout that never ran
    assert outcomes == ["pass", "fail", "error", "timeout", "timeout"], report
    assert [r.ran for r in report.results] == [True, True, True, True, False]
    assert "assert f(1) == 11" in report.results[1].message
    assert "ValueError" in report.results[2].message and "two" in report.results[2].message
    assert report.status == "timeout"
    assert report.results[3].wall_s < SHORT.test_wall_s + 0.5


@pytest.mark.parametrize("mode", MODES)
def test_each_test_has_its_own_time_limit(mode: str) -> None:
    code = "import time\ndef slow(s):\n    time.sleep(s)\n    return s\n"
    tests = [f"assert slow({s}) == {s}" for s in (0.3, 0.3, 0.3, 5, 0.3)]
    limits = dataclasses.replace(SHORT, wall_s=6.0)  # 1 s per test, 6 s for the whole run
    report = sandbox.run_tests(code, tests, limits=limits, mode=mode)
    # the three 0.3 s tests fit under their own 1 s each; the fourth's timeout ends the run
    assert [r.outcome for r in report.results] == ["pass", "pass", "pass", "timeout", "timeout"]
    assert not report.results[4].ran


@pytest.mark.parametrize("mode", MODES)
def test_verdicts_before_a_whole_run_timeout_still_count(mode: str) -> None:
    code = "import time\ndef slow(s):\n    time.sleep(s)\n    return s\n"
    tests = [f"assert slow({s}) == {s}" for s in (0, 0.5, 1.0, 1.0, 0)]
    report = sandbox.run_tests(code, tests, limits=SHORT, mode=mode)  # 2 s for the run
    assert [r.outcome for r in report.results][:2] == ["pass", "pass"], report
    assert report.results[-1].outcome == "timeout"
    assert report.status == "timeout"


FORGERIES = {
    "sys_exit_0": "import sys\nsys.exit(0)\n",
    "os_exit_0": "import os\nos._exit(0)\n",
    "raise_system_exit": "raise SystemExit(0)\n",
    "exit_inside_function": "def add(a, b):\n    raise SystemExit(0)\n",
    "os_exit_inside_function": "import os\ndef add(a, b):\n    os._exit(0)\n",
    "atexit_hook": ("import atexit, os\natexit.register(lambda: os._exit(0))\n"
                    "def add(a, b):\n    return None\n"),
    "fake_passed_lines": ("import sys\nfor i in range(10):\n    print('PASSED test', i)\n"
                          "    print('{\"results\": [[\"pass\", \"\", 0]]}')\n"
                          "    sys.stderr.write('ok\\n')\ndef add(a, b):\n    return None\n"),
    "patch_assertion_error": ("import builtins\nclass Nope(Exception):\n    pass\n"
                              "builtins.AssertionError = Nope\n"
                              "def add(a, b):\n    return None\n"),
    "always_equal_object": ("class AlwaysEqual:\n    def __eq__(self, other):\n        return True\n"
                            "    __hash__ = object.__hash__\n"
                            "def add(a, b):\n    return AlwaysEqual()\n"),
    "always_equal_int_subclass": ("class E(int):\n    def __eq__(self, other):\n        return True\n"
                                  "    __hash__ = int.__hash__\n"
                                  "def add(a, b):\n    return E(0)\n"),
    "patch_builtins_and_globals": ("import builtins\nbuiltins.__build_class__ = None\n"
                                   "builtins.isinstance = lambda *a: True\n"
                                   "builtins.len = lambda *a: 3\ndef add(a, b):\n    return None\n"),
    "write_to_every_fd": ("import os\nfor fd in range(3, 64):\n    try:\n"
                          "        os.write(fd, b'{\"results\": [[\"pass\", \"\", 0]]}\\n')\n"
                          "    except OSError:\n        pass\n"
                          "def add(a, b):\n    return None\n"),
    "kill_the_harness": ("import os, signal\ndef add(a, b):\n    for pid in range(1, 200):\n"
                         "        try:\n            os.kill(pid, signal.SIGKILL)\n"
                         "        except OSError:\n            pass\n    return None\n"),
    "steal_the_report_pipe": ("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
                              "for target in (1, os.getppid()):\n"
                              "    pidfd = libc.syscall(434, target, 0)\n"
                              "    for fd in range(8):\n"
                              "        new = libc.syscall(438, pidfd, fd, 0)\n"
                              "        if new >= 0:\n"
                              "            os.write(new, b'{\"test\": 0, \"verdict\": [\"pass\", \"\", 0]}\\n')\n"
                              "def add(a, b):\n    return None\n"),
    "exception_as_pass": ("def add(a, b):\n    raise AssertionError('pretend the test passed')\n"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_forged_passes_never_count(name: str, mode: str) -> None:
    report = sandbox.run_tests(FORGERIES[name], ASSERTS, limits=SHORT, mode=mode)
    assert report.total == 3
    assert report.passed == 0, report
    check = sandbox.run_tests(FORGERIES[name], CHECK, entry_point="add", limits=SHORT,
                              mode=mode)
    assert check.passed == 0, check


@pytest.mark.parametrize("mode", MODES)
def test_io_forgeries_never_count(mode: str) -> None:
    cases = [{"input": "1 2", "output": "3"}]
    for code in ("import sys\nsys.exit(0)\n", "import os\nos._exit(0)\n",
                 "print('PASSED')\n", "import os, signal\nos.kill(1, signal.SIGKILL)\n"):
        report = sandbox.run_tests(code, cases, limits=SHORT, mode=mode)
        assert report.passed == 0, (code, report)


def test_program_cannot_read_expected_outputs() -> None:
    """The tests travel on the harness's stdin, never into the program's files or memory:
    a program that searches its process and disk for the expected value finds nothing."""
    code = ("import gc, os\ndef secret(x):\n    found = []\n"
            "    for obj in gc.get_objects():\n"
            "        if isinstance(obj, (list, dict, str)) and 'EXPECTED_4242' in repr(obj):\n"
            "            found.append(1)\n"
            "    for root, dirs, files in os.walk('/'):\n"
            "        if root.startswith(SYSTEM):\n"  # the host's read-only system: the same
            "            dirs[:] = []\n"  # files in every run (reading them all is minutes of
            "            continue\n"  # disk on a cold page cache)
            "        for name in files:\n"
            "            try:\n"
            "                if b'EXPECTED_4242' in open(os.path.join(root, name), 'rb').read(1 << 16):\n"
            "                    found.append(2)\n"
            "            except OSError:\n                pass\n"
            "    return found\n"
            "SYSTEM = ('/usr', '/lib', '/bin', '/sbin', '/etc')\n")
    report = sandbox.run_tests(code, ["assert secret(1) == [] or 'EXPECTED_4242'"],
                               limits=sandbox.Limits(test_wall_s=20, wall_s=30), mode="cold")
    assert report.passed == 1, report


@pytest.mark.parametrize("compare,expected,output,passes", [
    ("exact", "1 2\n", "1 2", True),
    ("exact", "1 2", "1  2", False),
    ("whitespace", "1 2\n3", "1\n2 3\n", True),
    ("whitespace", "1 2", "1 3", False),
    ("float", "0.3333333", "0.33333333333", True),
    ("float", "0.33", "0.34", False),
    ("float", "abc 1.0", "abc 1", True),
])
def test_output_comparisons(compare: str, expected: str, output: str, passes: bool) -> None:
    code = f"import sys\nsys.stdout.write({output!r})\n"
    report = sandbox.run_tests(code, [{"input": "", "output": expected}], compare=compare,
                               limits=SHORT)
    assert report.results[0].passed is passes, report
    if not passes:
        assert "expected" in report.results[0].message


def test_program_objects_can_be_used_but_not_compared() -> None:
    code = ("class Solution:\n    def two_sum(self, nums, target):\n"
            "        seen = {}\n        for i, n in enumerate(nums):\n"
            "            if target - n in seen:\n                return [seen[target - n], i]\n"
            "            seen[n] = i\n"
            "def gen(n):\n    yield from range(n)\n"
            "class Node:\n    def __init__(self, val):\n        self.val = val\n")
    tests = ["assert Solution().two_sum([2, 7, 11], 9) == [0, 1]",
             "assert list(gen(3)) == [0, 1, 2]",
             "assert Node(5).val == 5",
             "assert Node(5) == Node(5)"]
    report = sandbox.run_tests(code, tests, limits=SHORT)
    assert [r.outcome for r in report.results] == ["pass", "pass", "pass", "error"], report


def test_load_failure_errors_every_test() -> None:
    report = sandbox.run_tests("def add(a, b)\n    return a + b\n", ASSERTS, limits=SHORT)
    assert [r.outcome for r in report.results] == ["error"] * 3
    assert "SyntaxError" in report.results[0].message


def test_compiled_languages_run_io_tests() -> None:
    cases = [{"input": "2 3\n", "output": "5\n"}, {"input": "10 -4\n", "output": "6\n"},
             {"input": "1 1\n", "output": "3\n"}]
    c = "#include <stdio.h>\nint main(){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);}"
    cpp = ("#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<std::endl;}")
    js = ("const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);"
          "\nconsole.log(a + b);")
    sh = "read a b\necho $((a + b))\n"
    for language, code in (("c", c), ("cpp", cpp), ("javascript", js), ("bash", sh)):
        report = sandbox.run_tests(code, cases, language, limits=SHORT)
        assert [r.outcome for r in report.results] == ["pass", "pass", "fail"], (language,
                                                                                 report)


def test_compile_error_is_reported_per_test() -> None:
    report = sandbox.run_tests("int main( {", [{"input": "", "output": ""}], "c", limits=SHORT)
    assert report.status == "compile_error"
    assert report.results[0].outcome == "error"
    assert "error" in report.execution.stderr


def test_bad_test_specs_are_rejected() -> None:
    with pytest.raises(sandbox.ArgumentError, match="entry_point"):
        sandbox.run_tests(GOOD, CHECK)
    with pytest.raises(sandbox.ArgumentError, match="Python-only"):
        sandbox.run_tests("int main(){}", ["assert 2 > 1"], "c")
    with pytest.raises(sandbox.ArgumentError, match="input"):
        sandbox.run_tests(GOOD, [{"output": "1"}])


def test_run_tests_many_keeps_order_and_isolates_bad_jobs() -> None:
    jobs = [{"code": GOOD, "tests": ASSERTS, "limits": SHORT},
            {"code": "def add(a, b):\n    return None\n", "tests": ASSERTS, "limits": SHORT},
            {"code": GOOD, "tests": CHECK, "limits": SHORT},  # no entry_point: a bad job
            {"code": GOOD, "tests": CHECK, "entry_point": "add", "limits": SHORT}]
    reports = sandbox.run_tests_many(jobs, max_workers=2)
    assert [r.passed for r in reports] == [3, 0, 0, 1]
    assert reports[2].status == "sandbox_error" and "entry_point" in reports[2].execution.stderr


def test_run_tests_many_starts_each_job_as_a_generator_yields_it() -> None:
    # the generator waits, after its first job, until that job's run has started: were the
    # jobs taken all before any ran, it would wait in vain (and fail, not hang)
    import threading

    started = threading.Event()
    real = sandbox_batch.run_tests

    def signalling(**job: Any) -> Any:
        started.set()
        return real(**job)

    def jobs() -> Any:
        yield {"code": GOOD, "tests": ASSERTS, "limits": SHORT}
        assert started.wait(60), "no job started before the generator's second job"
        yield {"code": GOOD, "tests": CHECK, "entry_point": "add", "limits": SHORT}
        yield {"code": GOOD, "tests": CHECK, "limits": SHORT}  # no entry_point: a bad job

    patched = pytest.MonkeyPatch()
    patched.setattr(sandbox_batch, "run_tests", signalling)
    try:
        reports = sandbox.run_tests_many(jobs(), max_workers=2)
    finally:
        patched.undo()
    assert [r.passed for r in reports] == [3, 1, 0]
    assert reports[2].status == "sandbox_error" and "entry_point" in reports[2].execution.stderr
    assert sandbox.run_tests_many(iter([]), max_workers=2) == []


def test_standard_containers_compare_like_plain_data() -> None:
    code = ("from collections import Counter, OrderedDict, defaultdict, deque\n"
            "def hist(s):\n    return Counter(s.split())\n"
            "def ordered():\n    return OrderedDict(a=1)\n"
            "def groups():\n    d = defaultdict(list)\n    d['x'].append(deque([1, 2]))\n    return d\n"
            "class Fake(dict):\n    def __eq__(self, other):\n        return True\n"
            "def fake():\n    return Fake()\n")
    tests = ["assert hist('a b a') == {'a': 2, 'b': 1}", "assert ordered() == {'a': 1}",
             "assert groups() == {'x': [[1, 2]]}", "assert fake() == {'anything': 1}"]
    report = sandbox.run_tests(code, tests, limits=SHORT)
    assert [r.outcome for r in report.results] == ["pass", "pass", "pass", "error"], report


def test_globals_lookups_in_tests_see_the_program() -> None:
    """Test helpers that look names up in globals() (as rewards.code's call tests do) find
    the program's functions and classes."""
    helper = ("def resolve(name):\n    g = globals()\n    if name in g:\n        return g[name]\n"
              "    if 'Solution' in g:\n        return getattr(g['Solution'](), name)\n"
              "    raise NameError(name)\n")
    tests = [helper + "assert resolve('add')(1, 2) == 3", helper + "assert g_get() is None"]
    plain = sandbox.run_tests("def add(a, b):\n    return a + b\ndef g_get():\n"
                              "    return None\n", tests, limits=SHORT)
    method = sandbox.run_tests("class Solution:\n    def add(self, a, b):\n        return a + b\n"
                               "def g_get():\n    return None\n", tests[:1], limits=SHORT)
    assert plain.passed == 2 and method.passed == 1, (plain, method)


@pytest.mark.parametrize("mode", MODES)
def test_chatty_programs_are_judged_not_cut_off(mode: str) -> None:
    """Program output is kept in part (truncated flag) and never drowns the verdicts."""
    code = "print('x' * 200000)\ndef add(a, b):\n    print('y' * 100000)\n    return a + b\n"
    report = sandbox.run_tests(code, ASSERTS, limits=SHORT, mode=mode)
    assert report.passed == 3 and report.status == "ok", report
    assert report.execution.truncated
    assert len(report.execution.stdout) <= SHORT.output_bytes // 4
    io = sandbox.run_tests("print('z' * 10**6)\n", [{"input": "", "output": "z"}],
                           limits=SHORT, mode=mode)
    assert io.results[0].outcome == "error" and "output exceeded" in io.results[0].message


@pytest.mark.parametrize("mode", MODES)
def test_values_larger_than_one_channel_read_cross_whole(mode: str) -> None:
    """The harness and the worker read their channel 64 KiB at a time: an argument and a
    result of about 1 MB each (16 reads and more) arrive whole, and a wrong one still fails."""
    code = "def echo(xs):\n    return xs + [len(xs)]\ndef off(xs):\n    return xs[:-1] + [0]\n"
    big = "list(range(150_000))"
    tests = [f"assert echo({big}) == {big} + [150_000]",
             f"assert off({big}) == {big}"]
    report = sandbox.run_tests(code, tests, limits=SHORT, mode=mode)
    assert [r.outcome for r in report.results] == ["pass", "fail"], report


@pytest.mark.parametrize("mode", MODES)
def test_python_io_tests_survive_a_program_killing_its_runner(mode: str) -> None:
    """stdin/stdout Python tests fork from a clean zygote; a program that kills it (or
    every process it can) errs on that test and never passes one."""
    code = ("import os, signal, sys\nline = sys.stdin.readline().strip()\n"
            "if line == 'kill':\n    os.kill(os.getppid(), signal.SIGKILL)\n"
            "    for pid in range(1, 300):\n        try:\n            os.kill(pid, signal.SIGKILL)\n"
            "        except OSError:\n            pass\nprint(line)\n")
    cases = [{"input": "a\n", "output": "a"}, {"input": "kill\n", "output": "kill"},
             {"input": "b\n", "output": "b"}, {"input": "c\n", "output": "c"}]
    report = sandbox.run_tests(code, cases, limits=SHORT, mode=mode)
    outcomes = [r.outcome for r in report.results]
    assert outcomes[0] == "pass", report
    if mode == "cold":  # the harness is the jail's pid 1: unkillable, the rest still runs
        assert outcomes[1] == "error" and outcomes[2:] == ["pass", "pass"], report
    else:  # warm, the harness and its zygote are the server's uid (issue #35): out of
        # reach, the kill is the program's own PermissionError, and the rest still runs
        assert outcomes == ["pass", "error", "pass", "pass"], report
        assert "PermissionError" in report.results[1].message, report


@pytest.mark.parametrize("mode", MODES)
def test_harness_processes_do_not_count_against_the_program(mode: str) -> None:
    """Limits.processes is the program's: the harness's own processes come on top (the
    kernel counts per uid, so the allowance is shared, not reserved)."""
    limits = dataclasses.replace(SHORT, processes=1)
    assert sandbox.run_tests(GOOD, ASSERTS, limits=limits, mode=mode).passed == 3
    io = sandbox.run_tests("print(input())", [{"input": "a", "output": "a"}], limits=limits,
                           mode=mode)
    assert io.passed == 1, io


class _ProgramError(Exception):
    pass


class _UnprintableError(Exception):
    def __str__(self) -> str:
        raise ValueError("no")


def _traceback_last_line(exc: BaseException) -> str:
    import traceback

    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text.splitlines()[-1][:2000] if text else type(exc).__name__


def _noted() -> BaseException:
    exc = ValueError("with a note")
    exc.add_note("the note")
    return exc


@pytest.mark.parametrize("exc", [
    ValueError("x"), ValueError(), KeyError("k"), _ProgramError("two\nlines"),
    _UnprintableError(), NameError("name 'f' is not defined"), SystemExit(3), SystemExit(),
    AssertionError(""), Exception("  padded  "), OSError(2, "No such file"),
    UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), StopIteration(5),
    Exception("a" * 3000), Exception("\n"), SyntaxError("bad", ("main.py", 1, 2, "x y", 1, 3)),
    _noted()], ids=lambda e: type(e).__name__)
def test_error_messages_read_as_traceback_words_them(exc: BaseException) -> None:
    # the harness's own formatting (it skips importing traceback, ~4 ms of every forked
    # process that meets an exception) must give traceback's last line, word for word
    from sandbox._in_jail.harness_wire import _last_line

    assert _last_line(exc) == _traceback_last_line(exc)


@pytest.mark.parametrize("mode", MODES)
def test_a_raising_program_reports_its_exception(mode: str) -> None:
    code = ("class Odd(Exception):\n    pass\n"
            "def f(k):\n    raise [ValueError('bad value'), KeyError('k'), Odd('odd one')][k]\n")
    report = sandbox.run_tests(code, [f"assert f({k})" for k in range(3)], limits=SHORT,
                               mode=mode)
    assert [r.outcome for r in report.results] == ["error"] * 3, report
    messages = [r.message for r in report.results]
    assert messages[0] == "ValueError: bad value", messages
    assert messages[1] == "KeyError: 'k'", messages
    assert messages[2].endswith("Odd: odd one"), messages


@pytest.mark.parametrize("mode", MODES)
def test_an_input_folder_is_neither_renamed_away_nor_shut_by_a_test(mode: str) -> None:
    """Cold as warm, an input folder is 0o41777 and another uid's (the cold harness opens
    it as the cold init does, `harness.apart`): a test can neither rename it away nor
    change its mode (EPERM), as python3 main.py cannot, and every test finds it as the task
    gave it. (Until the cold harness took a uid of its own the program owned data/ cold:
    a mode it set was put back, and a rename stopped the run, its inputs binds that
    `restore` cannot remove.)"""
    code = ("import os\nprint(sorted(os.listdir('/work')), oct(os.stat('/work/data').st_mode))\n"
            "for change in (lambda: os.rename('/work/data', '/work/x'),\n"
            "               lambda: os.chmod('/work/data', 0o500)):\n    try:\n"
            "        change()\n    except OSError as e:\n        print(e.errno)\n")
    files = {"data/in.txt": "x\n"}
    reference = sandbox.run(code, files=files, limits=SHORT, mode="cold")
    assert (reference.status, reference.stdout) == \
        ("ok", "['data', 'main.py'] 0o41777\n1\n1\n"), reference
    tests = [{"input": "", "output": reference.stdout}] * 3
    report = sandbox.run_tests(code, tests, limits=SHORT, mode=mode, files=files)
    assert [(r.outcome, r.ran) for r in report.results] == [("pass", True)] * 3, report


def test_a_test_whose_folders_cannot_be_taken_back_stops_the_run(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    """`harness_io.run_io_tests` (here, on this machine) where `restore` fails after a test
    (`StateLost`, as when an input cannot be put back): the tests after it do not run,
    timeouts with the reason, never judged in folders that are not the task's."""
    why = "sandbox: /work and /tmp could not be taken back to the task's: lost"

    def lost(fresh: Any) -> None:
        raise harness_io.StateLost(why)

    monkeypatch.setattr(harness_io, "jail_init", lambda: True)  # no subreaper of pytest
    monkeypatch.setattr(harness_io, "fresh_state", dict)
    monkeypatch.setattr(harness_io, "restore", lost)
    monkeypatch.setattr(harness_io, "run_case", lambda *args: (0, b"3\n", b""))
    spec = {"nonce": "n", "tests": [{"input": "", "output": "3\n"}] * 3, "argv": ["/bin/true"],
            "program_limits": {"cpu_s": 1, "open_files": 64}, "output_bytes": 1 << 16,
            "compare": "exact", "float_tol": 1e-6, "test_wall_s": 1.0}
    interrupt = signal.getsignal(signal.SIGINT)  # which the harness ignores
    try:
        results, _ = harness_io.run_io_tests(spec)
    finally:
        signal.signal(signal.SIGINT, interrupt)
    capfd.readouterr()  # the verdict lines, written to fd 1
    assert [tuple(r) for r in results] == [
        ("pass", "", results[0][2]), ("timeout", f"not run: {why}", 0.0, False),
        ("timeout", f"not run: {why}", 0.0, False)]


def _tree(top: Path) -> list[tuple[str, int, int]]:
    return sorted((str(p.relative_to(top)), p.lstat().st_mode, p.lstat().st_mtime_ns)
                  for p in [top, *top.rglob("*")])


def test_restore_takes_back_a_whole_tree_without_paths_or_recursion(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`harness_io.restore` on two folders of this machine: the task's entries (a file in a
    folder) recorded by `fresh_state`; what a test adds in the input folder, a tree deeper
    than the recursion limit, one whose path passes PATH_MAX, a mode-0 folder and a mode
    change are gone or put back: the record reads the same again, times included."""
    work, tmp = tmp_path / "work", tmp_path / "tmp"
    (work / "data").mkdir(parents=True)
    tmp.mkdir()
    (work / "data" / "in.txt").write_text("x\n")
    monkeypatch.setattr(harness_io, "WORK_DIRS", (str(work), str(tmp)))
    fresh = harness_io.fresh_state()
    before = _tree(work), _tree(tmp)
    (work / "data" / "new").write_text("1")
    (work / "data").chmod(0o700)
    fd = os.open(tmp, os.O_RDONLY)
    try:
        for name in ["x"] * 1500 + ["y" * 250] * 20:  # deep, then long
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)
    (work / "shut" / "in").mkdir(parents=True)
    (work / "shut").chmod(0)
    harness_io.restore(fresh)
    assert harness_io.fresh_state() == fresh  # first: listing a folder may set its atime
    assert (_tree(work), _tree(tmp)) == before


def test_a_cold_test_jail_keeps_what_its_harness_keeps() -> None:
    """One set by kind, named on the host (`_tests.HARNESS_CAPABILITIES`, nsjail's `--cap`
    of a cold test jail) and kept in the jail (`harness_wire.HARNESS_CAPABILITIES`, the
    harness's capset, `judge_apart`): the same capabilities, bit for bit, with
    PROGRAM_UID mapped beside the jail's uid."""
    from sandbox import _tests
    from sandbox._in_jail import harness_wire as wire
    from sandbox._jail import JAIL_UID, PROGRAM_UID, jail_argv

    bits = {"CAP_FOWNER": wire.CAP_FOWNER, "CAP_KILL": wire.CAP_KILL,
            "CAP_SETGID": wire.CAP_SETGID, "CAP_SETUID": wire.CAP_SETUID}
    assert set(_tests.HARNESS_CAPABILITIES) == set(wire.HARNESS_CAPABILITIES) == {"python", "io"}
    for kind, names in _tests.HARNESS_CAPABILITIES.items():
        argv = jail_argv(["/bin/true"], SHORT, program_uid=True, capabilities=names)
        kept = [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--cap"]
        assert sum(bits[name] for name in set(kept)) == wire.HARNESS_CAPABILITIES[kind], kind
        users = [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--user"]
        assert users == [f"{JAIL_UID}:{JAIL_UID}", f"{PROGRAM_UID}:{PROGRAM_UID}:1"]
    assert "CAP_FOWNER" in _tests.HARNESS_CAPABILITIES["io"]  # restore, between tests
    assert "CAP_FOWNER" not in _tests.HARNESS_CAPABILITIES["python"]


APART = ("import ctypes, os, resource, signal\n"
         "def reach():\n    got = [os.getresuid(), os.getresgid()]\n"
         "    hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)\n    data = (ctypes.c_uint32 * 6)()\n"
         "    ctypes.CDLL(None).capget(hdr, data)\n    got.append(list(data))\n"
         "    for t in {os.getppid(), 1}:\n"
         "        for aim in (lambda: os.kill(t, signal.SIGSTOP),\n"
         "                    lambda: resource.prlimit(t, resource.RLIMIT_NOFILE, (4, 4)),\n"
         "                    lambda: os.setpriority(os.PRIO_PROCESS, t, 19)):\n"
         "            try:\n                aim()\n                got.append('reached')\n"
         "            except OSError as e:\n                got.append(e.errno)\n"
         "    return got\n"
         "def die():\n    os._exit(3)\n")


@pytest.mark.parametrize("mode", MODES)
def test_an_assert_workers_program_cannot_reach_its_harness(mode: str) -> None:
    """Each assert/check worker, the first and one restarted after a crash, is PROGRAM_UID
    with no capability, cold (`harness.apart`: the harness, the jail's pid 1, and its
    zygote keep the jail's uid) as warm: every signal, prlimit and renice it aims at its
    parent and pid 1 is EPERM (1), and the tests after it are judged."""
    held = (f"got = reach()\nassert got[:3] == [{(PROGRAM,) * 3}, {(PROGRAM,) * 3}, [0] * 6], got\n"
            "assert set(got[3:]) == {1}, got")  # 3 aims at each of its parent and pid 1
    tests = [held, "die()", held, "assert 1 + 1 == 2"]
    report = sandbox.run_tests(APART, tests, limits=SHORT, mode=mode)
    assert [r.outcome for r in report.results] == ["pass", "error", "pass", "pass"], report


PROGRAM = 99998
"""`_jail.PROGRAM_UID`, as a worker reads it."""
