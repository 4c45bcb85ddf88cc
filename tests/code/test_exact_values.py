"""Exact values compare exactly: `compare: float` and call-based tests (APPS `fn_name`,
LiveCodeBench functional) allow a tolerance only where the task expects a float. Each attack
(a float close to an exact integer, `inf` for a huge one) fails; the honest program on the
same task passes, warm and cold."""

from __future__ import annotations

import json

import pytest

import sandbox
from rewards.code import CodeReward
from rewards.types import Sample

HUGE = 10 ** 400  # past the float range: float() of it is inf
TRILLION = 10 ** 12


FLOAT_CASES = [
    # attacks: a float that is not the expected integer
    ("print('inf')", f"{HUGE}\n", False),
    ("print(float('inf'))", f"{HUGE}\n", False),
    ("print(1e400)", f"{HUGE}\n", False),
    (f"print({TRILLION + 1})", f"{TRILLION}\n", False),
    (f"print(float({TRILLION}) + 1)", f"{TRILLION}\n", False),
    ("print('nan')", "7\n", False),
    ("print('0x7')", "7\n", False),
    # honest: the very integer, also written as a float; floats within the tolerance
    (f"print({HUGE})", f"{HUGE}\n", True),
    (f"print({TRILLION})", f"{TRILLION}\n", True),
    ("print('7.0', '-3', '+4')", "7 -3 4\n", True),
    ("print(0.1 + 0.2)", "0.3\n", True),
    ("print('1.0000000001e400')", "1e400\n", False),  # past the float range: exact
    ("print('1e400')", "1.0e400\n", True),
    ("print('inf')", "inf\n", True),
]


@pytest.mark.usefixtures("sandbox_ready")
@pytest.mark.parametrize("mode", ["cold", "auto"])
@pytest.mark.parametrize("program, expected, passes", FLOAT_CASES,
                         ids=[f"{c[0][:24]}-{c[2]}" for c in FLOAT_CASES])
def test_float_comparison_keeps_integers_exact(mode: str, program: str, expected: str,
                                               passes: bool) -> None:
    report = sandbox.run_tests(program, [{"input": "", "output": expected}], compare="float",
                               mode=mode)
    assert (report.passed == report.total) is passes, report


def _score(reward: CodeReward, program: str, reference: object) -> dict:
    [score] = reward.score([Sample("solve it", f"```python\n{program}\n```", reference,
                                   domain="code")])
    return dict(score.parts)


HALF_SQUARE = {"fn_name": "half_square",
               "inputs": [[4], [44721359], [10 ** 9], [6]],
               "outputs": [[8], [44721359 ** 2 // 2], [10 ** 18 // 2], [18]]}
"""APPS call-based: n * n // 2 (exact integers up to 5e17)."""


@pytest.mark.usefixtures("sandbox_ready")
def test_call_based_apps_tests_refuse_a_float_for_an_exact_integer() -> None:
    reward = CodeReward(hidden_share=0.5)
    # n * n / 2 is a float: 5e17 exactly here, but off by 0.5 at 44721359 (and by up to
    # 5e8 where the integer passes 2 ** 53 and its half is rounded)
    attack = _score(reward, "def half_square(n):\n    return n * n / 2\n", HALF_SQUARE)
    assert attack["tests"] < 1.0 or attack["hidden"] < 1.0, attack
    honest = _score(reward, "def half_square(n):\n    return n * n // 2\n", HALF_SQUARE)
    assert (honest["tests"], honest["hidden"]) == (1.0, 1.0), honest


@pytest.mark.usefixtures("sandbox_ready")
def test_call_based_livecodebench_tests_refuse_a_float_for_an_exact_integer() -> None:
    big = 123456789123
    cases = [{"input": json.dumps(n), "output": json.dumps(n * n + 1), "testtype": "functional"}
             for n in (big, big + 1)]
    reference = {"public_test_cases": json.dumps(cases[:1]),
                 "private_test_cases": json.dumps(cases[1:]),
                 "metadata": json.dumps({"func_name": "f"})}
    program = "class Solution:\n    def f(self, n):\n        return {}\n"
    attack = _score(CodeReward(), program.format("float(n) * n + 1"), reference)
    assert (attack["tests"], attack["hidden"]) == (0.0, 0.0), attack
    honest = _score(CodeReward(), program.format("n * n + 1"), reference)
    assert (honest["tests"], honest["hidden"]) == (1.0, 1.0), honest


@pytest.mark.usefixtures("sandbox_ready")
def test_call_based_tests_keep_a_tolerance_for_expected_floats() -> None:
    reference = {"fn_name": "third", "inputs": [[1], [2], [[1, 2]]],
                 "outputs": [[1 / 3], [0.6666666], [[1 / 3, 2 / 3]]]}
    within = "def third(x):\n    return [v / 3 for v in x] if isinstance(x, list) else x / 3\n"
    parts = _score(CodeReward(hidden_share=0.0), within, reference)
    assert parts["tests"] == 1.0, parts
    off = "def third(x):\n    return [v / 3 + 0.01 for v in x] if isinstance(x, list) " \
          "else x / 3\n"
    parts = _score(CodeReward(hidden_share=0.0), off, reference)
    assert parts["tests"] == pytest.approx(2 / 3), parts
    # a float that equals the expected integer exactly is that integer
    exact = _score(CodeReward(), "def half_square(n):\n    return float(n * n // 2) if n < "
                                 "100 else n * n // 2\n", HALF_SQUARE)
    assert (exact["tests"], exact["hidden"]) == (1.0, 1.0), exact
