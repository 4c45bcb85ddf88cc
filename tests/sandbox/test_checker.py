"""Checkers (special judges) and the built-in comparisons of stdin/stdout tests: tasks with
many right outputs judged by a Python and a C++ checker, broken checkers are errors (never a
pass), and neither the program nor the checker reaches what it must not."""

from __future__ import annotations

import dataclasses
import shutil

import pytest
from sandbox_probes import MODES, SHORT

import sandbox
from sandbox import _checker

LIMITS = dataclasses.replace(SHORT, test_wall_s=2.0, wall_s=10.0, cpu_s=10.0)
CASES = [{"input": "3\n", "output": "1 2 3\n"}, {"input": "1\n", "output": "1\n"},
         {"input": "5\n", "output": "1 2 3 4 5\n"}]
"""Print any permutation of 1..n: the expected output is one of many right ones."""

PY_CHECKER = """
import sys
inp, out, ans = (open(path).read() for path in sys.argv[1:4])
n = int(inp.split()[0])
assert sorted(map(int, ans.split())) == list(range(1, n + 1))  # the jury's answer, in place
try:
    got = [int(t) for t in out.split()]
except ValueError:
    print("not integers", file=sys.stderr)
    sys.exit(2)
if sorted(got) != list(range(1, n + 1)):
    print(f"not a permutation of 1..{n}", file=sys.stderr)
    sys.exit(1)
"""

CPP_CHECKER = r"""
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <vector>
// testlib's convention without testlib.h: checker <input> <output> <answer>, exit code 0/1/2
int main(int argc, char** argv) {
    if (argc < 4) return 3;
    std::ifstream in(argv[1]), out(argv[2]), ans(argv[3]);
    long n;
    if (!(in >> n)) return 3;
    std::vector<long> got;
    long x;
    while (out >> x) got.push_back(x);
    if (!out.eof()) { std::fprintf(stderr, "not integers\n"); return 2; }
    std::sort(got.begin(), got.end());
    for (long i = 0; i < n; ++i)
        if ((long)got.size() != n || got[i] != i + 1) {
            std::fprintf(stderr, "not a permutation\n");
            return 1;
        }
    return 0;
}
"""

REVERSED = "n = int(input())\nprint(*range(n, 0, -1))\n"
SHUFFLED = "n = int(input())\nprint(*range(2, n + 1), 1 if n else '')\n"
MISSING_ONE = "n = int(input())\nprint(*range(1, n))\n"
WORDS = "input()\nprint('one two')\n"
needs_gpp = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")


def _outcomes(report: sandbox.TestReport) -> list[str]:
    return [r.outcome for r in report.results]


@pytest.mark.parametrize("mode", MODES)
def test_python_checker_accepts_every_right_output(mode: str) -> None:
    checker = sandbox.Checker(PY_CHECKER)
    for program in (REVERSED, SHUFFLED):
        report = sandbox.run_tests(program, CASES, checker=checker, limits=LIMITS, mode=mode)
        assert _outcomes(report) == ["pass"] * 3, report
        assert report.status == "ok"
    wrong = sandbox.run_tests(MISSING_ONE, CASES, checker=checker, limits=LIMITS, mode=mode)
    assert _outcomes(wrong) == ["fail"] * 3, wrong
    assert wrong.results[0].message == "checker: wrong answer: not a permutation of 1..3"
    garbage = sandbox.run_tests(WORDS, CASES, checker=checker, limits=LIMITS, mode=mode)
    assert _outcomes(garbage) == ["fail"] * 3
    assert garbage.results[0].message == "checker: presentation error: not integers"


def test_without_the_checker_the_same_outputs_differ() -> None:
    report = sandbox.run_tests(REVERSED, CASES, compare="whitespace", limits=LIMITS)
    assert _outcomes(report) == ["fail", "pass", "fail"], report


def test_program_errors_and_timeouts_are_not_sent_to_the_checker() -> None:
    program = ("import sys, time\nn = int(input())\nif n == 1:\n    sys.exit(4)\n"
               "if n == 5:\n    time.sleep(30)\nprint(*range(1, n + 1))\n")
    limits = dataclasses.replace(LIMITS, test_wall_s=0.5)
    report = sandbox.run_tests(program, CASES, checker=sandbox.Checker(PY_CHECKER),
                               limits=limits, mode="cold")
    assert _outcomes(report) == ["pass", "error", "timeout"], report
    assert report.results[1].message.startswith("exit code 4")


@needs_gpp
@pytest.mark.parametrize("mode", MODES)
def test_cpp_checker_in_testlib_convention(mode: str) -> None:
    checker = sandbox.Checker(CPP_CHECKER, language="cpp")
    right = sandbox.run_tests(SHUFFLED, CASES, checker=checker, limits=LIMITS, mode=mode)
    assert _outcomes(right) == ["pass"] * 3, right
    wrong = sandbox.run_tests(MISSING_ONE, CASES, checker=checker, limits=LIMITS, mode=mode)
    assert _outcomes(wrong) == ["fail"] * 3, wrong
    assert wrong.results[0].message == "checker: wrong answer: not a permutation"
    garbage = sandbox.run_tests(WORDS, CASES, checker=checker, limits=LIMITS, mode=mode)
    assert garbage.results[0].message == "checker: presentation error: not integers"


@needs_gpp
def test_cpp_checker_is_compiled_once_per_task(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    compile_program = _checker.compile_program

    def counting(box, spec, limits):  # type: ignore[no-untyped-def]
        calls.append(spec.name)
        return compile_program(box, spec, limits)

    monkeypatch.setattr(_checker, "compile_program", counting)
    checker = sandbox.Checker(CPP_CHECKER + "\n// compiled once\n", language="cpp")
    report = sandbox.run_tests(SHUFFLED, CASES, checker=checker, limits=LIMITS, mode="cold")
    assert _outcomes(report) == ["pass"] * 3, report
    assert calls == ["cpp"]  # one compile for the task's three tests


@needs_gpp
def test_checker_that_does_not_compile_is_refused_before_the_program_runs() -> None:
    broken = sandbox.Checker('#include "testlib.h"\nint main() { registerTestlibCmd(); }\n',
                             language="cpp")
    with pytest.raises(sandbox.ArgumentError, match="the checker does not compile"):
        sandbox.run_tests(SHUFFLED, CASES, checker=broken, limits=LIMITS)


@pytest.mark.parametrize("source,wall_s,message", [
    ("raise RuntimeError('boom')", 10.0, "checker failed: it raised RuntimeError: boom"),
    ("while True:\n    pass", 0.5, "checker failed: it ran past 0.5 s"),
    ("import sys\nprint('jury answer is wrong', file=sys.stderr)\nsys.exit(3)", 10.0,
     "checker failed: FAIL (exit code 3): jury answer is wrong"),
    ("import ctypes\nctypes.string_at(0)", 10.0, "checker failed: killed by signal 11"),
    ("x = [0] * (1 << 40)", 10.0, "checker failed: memory_limit"),
    ("import sys\nsys.exit(7)", 10.0, "checker failed: no score in its 'points' line"),
])
def test_a_broken_checker_is_an_error_never_a_pass(source: str, wall_s: float,
                                                   message: str) -> None:
    checker = sandbox.Checker(source, wall_s=wall_s)
    report = sandbox.run_tests(REVERSED, CASES[:1], checker=checker, limits=LIMITS)
    result = report.results[0]
    assert result.outcome == "error" and not result.passed, report
    assert result.message.startswith(message), result.message
    assert report.status == "ok"  # the program itself ran fine


@pytest.mark.parametrize("printed,outcome,message", [
    ("1", "pass", ""),
    ("1.0", "pass", ""),
    ("ok 0.25", "fail", "checker: score 0.25 (a test passes at 1)"),
    ("0", "fail", "checker: score 0 (a test passes at 1)"),
    ("1.5", "error", "checker failed: score 1.5 is outside [0, 1]"),
    ("nan", "error", "checker failed: score nan is outside [0, 1]"),
    ("yes", "error", "checker failed: no score in the last token of its stdout"),
    ("", "error", "checker failed: no score in the last token of its stdout"),
])
def test_score_on_stdout(printed: str, outcome: str, message: str) -> None:
    source = f"print({printed!r})\n"
    report = sandbox.run_tests(REVERSED, CASES[:1], limits=LIMITS,
                               checker=sandbox.Checker(source, score=True))
    result = report.results[0]
    assert (result.outcome, result.message.split(" ('")[0]) == (outcome, message), result


@pytest.mark.parametrize("points,outcome", [("1", "pass"), ("0.5", "fail"), ("3", "error")])
def test_testlib_points(points: str, outcome: str) -> None:
    source = f"import sys\nprint('points {points}', file=sys.stderr)\nsys.exit(7)\n"
    report = sandbox.run_tests(REVERSED, CASES[:1], limits=LIMITS,
                               checker=sandbox.Checker(source))
    assert report.results[0].outcome == outcome, report


def test_open_r1_argument_order() -> None:
    """open-r1/codeforces' generated_checker: input, answer, output; a score on stdout."""
    source = ("import sys\ninp, ans, out = (open(p).read() for p in sys.argv[1:4])\n"
              "print(1 if sorted(out.split()) == sorted(ans.split()) else 0)\n")
    checker = sandbox.Checker(source, args="input answer output", score=True)
    right = sandbox.run_tests(REVERSED, CASES, checker=checker, limits=LIMITS)
    assert _outcomes(right) == ["pass"] * 3, right
    wrong = sandbox.run_tests(MISSING_ONE, CASES, checker=checker, limits=LIMITS)
    assert _outcomes(wrong) == ["fail", "fail", "fail"], wrong


def test_checker_sees_only_its_own_test() -> None:
    """Each check is a jail of its own: this test's three files (read-only) and the checker,
    nothing of another test, nothing the program left behind."""
    source = """
import os, sys
inp, out, ans = (open(p).read() for p in sys.argv[1:4])
found = sorted(os.listdir("/work")) + sorted(os.listdir("/tmp"))
expected = {"3": "1 2 3", "1": "1", "5": "1 2 3 4 5"}[inp.strip()]
try:
    open(sys.argv[3], "w").write("changed")
    writable = True
except OSError:
    writable = False
print(found, ans.strip() == expected, writable, file=sys.stderr)
sys.exit(0 if found == ["answer.txt", "input.txt", "main.py", "output.txt"]
         and ans.strip() == expected and not writable else 1)
"""
    program = ("import os\nn = int(input())\nopen('/tmp/answer.txt', 'w').write('x')\n"
               "print(*range(1, n + 1))\n")
    report = sandbox.run_tests(program, CASES, checker=sandbox.Checker(source),
                               limits=LIMITS, mode="cold")
    assert _outcomes(report) == ["pass"] * 3, report


@pytest.mark.parametrize("mode", MODES)
def test_program_cannot_reach_the_answers_or_forge_the_verdict(mode: str) -> None:
    """The program's jail holds no expected output (the checker's answer file stays out of
    it), and what it writes or leaves running never reaches the checker's jail: only its
    stdout does. A checker that compares with the answer exactly rejects every trick."""
    exact = ("import sys\nout, ans = open(sys.argv[2]).read(), open(sys.argv[3]).read()\n"
             "sys.exit(0 if out.split() == ans.split() else 1)\n")
    secret = [{"input": "go\n", "output": "SECRET-7f3a\n"}]
    program = """
import os, sys, time
found = []
for folder in ("/work", "/tmp", "/"):
    try:
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                text = open(path, errors="replace").read()
                if "SECRET" in text:
                    found.append(text)
            for target in ("answer.txt", "output.txt"):
                try:
                    open(os.path.join(folder, target), "w").write("SECRET-7f3a\\n")
                except OSError:
                    pass
    except OSError:
        pass
if os.fork() == 0:  # a leftover process that rewrites the output files later
    os.setsid()
    for _ in range(50):
        for target in ("/work/output.txt", "/tmp/output.txt"):
            try:
                open(target, "w").write("SECRET-7f3a\\n")
            except OSError:
                pass
        time.sleep(0.01)
    os._exit(0)
print("points 1", file=sys.stderr)
print(found[0] if found else "no answer found")
"""
    report = sandbox.run_tests(program, secret, checker=sandbox.Checker(exact), limits=LIMITS,
                               mode=mode)
    assert _outcomes(report) == ["fail"], report
    right = sandbox.run_tests("input()\nprint('SECRET-7f3a')\n", secret,
                              checker=sandbox.Checker(exact), limits=LIMITS, mode=mode)
    assert _outcomes(right) == ["pass"], right


def test_checker_arguments_are_checked() -> None:
    with pytest.raises(sandbox.ArgumentError, match="stdin/stdout"):
        sandbox.run_tests("def f(): return 1", ["assert f() == 1"],
                          checker=sandbox.Checker("pass"))
    with pytest.raises(sandbox.ArgumentError, match="sandbox.Checker"):
        sandbox.run_tests(REVERSED, CASES, checker="print(1)")  # type: ignore[arg-type]
    with pytest.raises(sandbox.ArgumentError, match="Checker.args"):
        sandbox.Checker("pass", args="output input answer")  # type: ignore[arg-type]
    with pytest.raises(sandbox.ArgumentError, match="unsupported language"):
        sandbox.Checker("pass", language="cobol")
    with pytest.raises(sandbox.ArgumentError, match="Checker.score"):
        sandbox.Checker("pass", score="yes")  # type: ignore[arg-type]
    with pytest.raises(sandbox.ArgumentError, match="non-empty"):
        sandbox.Checker("  ")
    with pytest.raises(sandbox.ArgumentError, match="lines_unordered"):
        sandbox.run_tests(REVERSED, CASES, compare="sorted")  # type: ignore[arg-type]


ECHO = "import sys\nsys.stdout.write(sys.stdin.read())\n"


@pytest.mark.parametrize("compare,expected,output,passes", [
    ("lines_unordered", "a\nb\nc\n", "c\na\nb\n", True),
    ("lines_unordered", "a\nb\n", "b  \na\n\n\n", True),  # trailing spaces and empty lines
    ("lines_unordered", "1 2\n3 4\n", "3 4\r\n1 2\r\n", True),
    ("lines_unordered", "a\na\nb\n", "a\nb\nb\n", False),  # a multiset, not a set
    ("lines_unordered", "a\nb\n", "a\nb\nc\n", False),
    ("lines_unordered", "1 2\n", "1  2\n", False),  # inside a line, spacing counts
    ("lines_unordered", "a\n\nb\n", "a\nb\n\n", False),  # an empty line inside counts
    ("float", "0.3333333", "0.33333333333", True),
    ("float", "1e-7", "0", True),  # absolute tolerance 1e-6
    ("float", "1000000.0", "1000000.5", True),  # relative tolerance 1e-6
    ("float", "1000000", "1000000.5", False),  # an expected integer is exact
    ("float", "1000000", "1e6", True),  # ... whatever its spelling
    ("float", "0.5", "0.5001", False),
    ("float", "1 2", "1 2 3", False),
    ("float", "YES 1.5", "YES 1.5000001", True),
    ("float", "YES", "NO", False),
    ("float", "inf", "inf", True),
    ("float", "nan", "0", False),
])
def test_comparisons(compare: str, expected: str, output: str, passes: bool) -> None:
    report = sandbox.run_tests(ECHO, [{"input": output, "output": expected}], compare=compare,
                               limits=LIMITS)
    assert report.results[0].passed is passes, report


def test_lines_unordered_says_which_line() -> None:
    report = sandbox.run_tests(ECHO, [{"input": "b\nc\n", "output": "a\nb\n"},
                                      {"input": "a\nb\nz\n", "output": "b\na\n"}],
                               compare="lines_unordered", limits=LIMITS)
    assert [r.message for r in report.results] == [
        "lines in any order: expected line 'a' is missing",
        "lines in any order: unexpected line 'z'"]


def test_float_tolerance_is_the_callers() -> None:
    case = [{"input": "0.5001", "output": "0.5"}]
    loose = sandbox.run_tests(ECHO, case, compare="float", float_tol=1e-3, limits=LIMITS)
    strict = sandbox.run_tests(ECHO, case, compare="float", float_tol=1e-6, limits=LIMITS)
    assert (loose.passed, strict.passed) == (1, 0)


def test_the_program_jail_gets_no_expected_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the host hands the program's jail (the harness document) holds the inputs only."""
    import marshal

    from sandbox import _tests

    sent = []
    run_jail = _tests.run_jail

    def spy(command, limits, *, stdin, **options):  # type: ignore[no-untyped-def]
        sent.append(stdin)
        return run_jail(command, limits, stdin=stdin, **options)

    monkeypatch.setattr(_tests, "run_jail", spy)
    secret = [{"input": "go\n", "output": "SECRET-7f3a\n"}]
    report = sandbox.run_tests("input()\nprint('SECRET-7f3a')\n", secret, mode="cold",
                               checker=sandbox.Checker("pass"), limits=LIMITS)
    assert report.passed == 1, report
    document = marshal.loads(sent[0])
    assert document["tests"] == [{"input": "go\n", "output": ""}]
    assert b"SECRET" not in sent[0]
