"""Where the names a test uses come from: builtins, standard-library modules and the task's
prompt helpers are the harness's own, whatever the program defines; the entry point and the
other names the tests need (a class they construct, what the setup code built) come from the
program. Wrong programs that shadow a name the tests call must not pass; honest programs whose
tests pass types, program objects or setup-built objects must."""

from __future__ import annotations

import pytest
from sandbox_probes import MODES, SHORT

import sandbox

# wrong solutions (square returns its argument) that make the tests' own checks lie
SHADOWS = {
    "top_level_def": ("def abs(x):\n    return 0\ndef sorted(x):\n    return [1, 2]\n"
                      "def isinstance(*a):\n    return True\ndef max(*a):\n    return 4\n"),
    "builtins_module": ("import builtins\nbuiltins.abs = lambda x: 0\n"
                        "builtins.sorted = lambda x: [1, 2]\nbuiltins.max = lambda *a: 4\n"
                        "builtins.isinstance = lambda *a: True\n"),
    "globals_dict": ("g = globals()\ng['abs'] = lambda x: 0\ng['sorted'] = lambda x: [1, 2]\n"
                     "g['max'] = lambda *a: 4\ng['isinstance'] = lambda *a: True\n"),
    "patched_module": ("import math\nmath.isclose = lambda *a, **k: True\n"
                       "math.fabs = lambda x: 0.0\n"),
    "fake_module": ("class math:\n    isclose = staticmethod(lambda *a, **k: True)\n"
                    "    fabs = staticmethod(lambda x: 0.0)\n"),
}
WRONG_SQUARE = "def square(x):\n    return x\n"
ASSERTS = ["assert abs(square(3) - 9) < 1e-9", "assert max(square(2), 0) == 4",
           "assert math.isclose(square(4), 16)", "assert math.fabs(square(5) - 25) < 1e-9",
           # a call-based test's comparison helper, as the code reward writes them
           ("def same(got, want):\n    if isinstance(got, float):\n        return abs(got - want) < 1e-6"
           "\n    return got == want\nassert same(square(6), 36)")]
CHECK = ("import math\ndef check(candidate):\n    assert abs(candidate(3) - 9) < 1e-9\n"
         "    assert max(candidate(2), 0) == 4\n    assert math.isclose(candidate(4), 16)\n")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(SHADOWS))
def test_shadowing_what_the_tests_call_never_passes(name: str, mode: str) -> None:
    code = SHADOWS[name] + WRONG_SQUARE
    report = sandbox.run_tests(code, ASSERTS, entry_point="square", limits=SHORT, mode=mode)
    assert report.passed == 0, report
    check = sandbox.run_tests(code, CHECK, entry_point="square", limits=SHORT, mode=mode)
    assert check.passed == 0, check
    honest = SHADOWS[name] + "def square(x):\n    return x * x\n"
    report = sandbox.run_tests(honest, ASSERTS, entry_point="square", limits=SHORT, mode=mode)
    assert report.passed == report.total, report  # the shadows cost an honest one nothing


PROMPT = ('def encode_shift(s: str) -> str:\n    return "".join(chr(ord(c) + 1) for c in s)\n\n'
          'def decode_shift(s: str) -> str:\n    """Inverse of encode_shift."""\n')
HELPER_TESTS = ["assert decode_shift(encode_shift('abc')) == 'abc'",
                "assert decode_shift(encode_shift('hello')) == 'hello'"]


@pytest.mark.parametrize("mode", MODES)
def test_prompt_helpers_are_the_tasks_own(mode: str) -> None:
    wrong = "def encode_shift(s):\n    return s\ndef decode_shift(s):\n    return s\n"
    report = sandbox.run_tests(wrong, HELPER_TESTS, entry_point="decode_shift", context=PROMPT,
                               limits=SHORT, mode=mode)
    assert report.passed == 0, report
    honest = 'def decode_shift(s):\n    return "".join(chr(ord(c) - 1) for c in s)\n'
    report = sandbox.run_tests(honest, HELPER_TESTS, entry_point="decode_shift",
                               context=PROMPT, limits=SHORT, mode=mode)
    assert report.passed == 2, report  # the helper comes from the prompt, not the program
    check = "def check(candidate):\n    assert candidate(encode_shift('xyz')) == 'xyz'\n"
    report = sandbox.run_tests(wrong, check, entry_point="decode_shift", context=PROMPT,
                               limits=SHORT, mode=mode)
    assert report.passed == 0, report


@pytest.mark.parametrize("mode", MODES)
def test_entry_point_comes_from_the_program_even_over_a_builtin(mode: str) -> None:
    code = "def max(xs):\n    return -1\n"  # the function under test is called max
    report = sandbox.run_tests(code, ["assert max([1, 2]) == -1"], entry_point="max",
                               limits=SHORT, mode=mode)
    assert report.passed == 1, report
    missing = sandbox.run_tests("def maximum(xs):\n    return 2\n", ["assert max([1, 2]) == 2"],
                                entry_point="max", limits=SHORT, mode=mode)
    assert missing.results[0].outcome == "error", missing  # not the builtin in its place
    assert "defines no 'max'" in missing.results[0].message


TYPES = ("def remove_datatype(items, kind):\n"
         "    return [x for x in items if not isinstance(x, kind)]\n")
PAIR = ("class Pair:\n    def __init__(self, a, b):\n        self.a, self.b = a, b\n"
        "def max_chain_length(pairs, n):\n    count, end = 0, float('-inf')\n"
        "    for p in sorted(pairs, key=lambda p: p.b):\n        if p.a > end:\n"
        "            count, end = count + 1, p.b\n    return count\n")
TREE_SETUP = ("class Node:\n    def __init__(self, data):\n        self.data = data\n"
              "        self.left = None\n        self.right = None\n"
              "root = Node(1)\nroot.left = Node(2)\nroot.left.left = Node(3)\nroot1 = Node(5)\n")
TREE = ("def max_height(node):\n    if node is None:\n        return 0\n"
        "    return 1 + max(max_height(node.left), max_height(node.right))\n")
HONEST_SHAPES = {
    "types passed": (TYPES, ["assert remove_datatype((4, 5, 7.7, 1.2), int) == [7.7, 1.2]",
                             "assert remove_datatype((7, 'x', 8.0), str) == [7, 8.0]",
                             ("import collections\nassert remove_datatype([{}, 1], "
                             "collections.Counter) == [{}, 1]")], None),
    "instances of the program's class": (PAIR, [
        ("assert max_chain_length([Pair(5, 24), Pair(15, 25), Pair(27, 40), Pair(50, 60)], 4)"
        " == 3"), "assert max_chain_length((Pair(1, 2), Pair(3, 4)), 2) == 2"], None),
    "setup code between program and tests": (TREE, ["assert max_height(root) == 3",
                                                     "assert max_height(root1) == 1"],
                                             TREE_SETUP),
    "math the program imported": ("import math\ndef area(r):\n    return math.pi * r * r\n",
                                  ["assert math.isclose(area(1), 3.141592653589793)"], None),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(HONEST_SHAPES))
def test_honest_shapes_pass(name: str, mode: str) -> None:
    code, tests, setup = HONEST_SHAPES[name]
    report = sandbox.run_tests(code, tests, setup=setup, limits=SHORT, mode=mode)
    assert report.passed == report.total == len(tests), report


@pytest.mark.parametrize("mode", MODES)
def test_what_cannot_cross_says_so(mode: str) -> None:
    report = sandbox.run_tests(TYPES, [("class Mine:\n    pass\n"
                                       "assert remove_datatype([1], Mine) == [1]"),
                                       "assert remove_datatype([1], lambda: 0) == [1]"],
                               limits=SHORT, mode=mode)
    assert [r.outcome for r in report.results] == ["error", "error"], report
    assert all("cannot be passed to the program" in r.message for r in report.results)


@pytest.mark.parametrize("mode", MODES)
def test_broken_setup_and_context_are_errors_that_say_so(mode: str) -> None:
    report = sandbox.run_tests(TREE, ["assert max_height(root) == 3"],
                               setup="root = undefined_name", limits=SHORT, mode=mode)
    assert report.results[0].outcome == "error"
    assert "setup code" in report.results[0].message, report
    report = sandbox.run_tests(TREE, ["assert max_height(None) == 0"], entry_point="max_height",
                               context="import no_such_module_here\n", limits=SHORT, mode=mode)
    assert report.results[0].outcome == "error"
    assert "prompt" in report.results[0].message, report


def test_context_is_for_function_tests_only() -> None:
    with pytest.raises(sandbox.ArgumentError, match="context and setup"):
        sandbox.run_tests("print(1)", [{"input": "", "output": "1"}], context="x = 1")
