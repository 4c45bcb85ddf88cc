"""One small problem in each accepted reference format (shared by the parsing tests and the
end-to-end sandbox tests)."""

from __future__ import annotations

import json

from rewards import Sample, Score, reward

HUMANEVAL = {
    "prompt": 'def add(x: int, y: int) -> int:\n    """Add two numbers.\n    >>> add(2, 3)\n'
              '    5\n    """\n',
    "entry_point": "add",
    "test": (
        "import math\n\nMETADATA = {'author': 'x', 'dataset': 'test'}\n\n\n"
        "def check(candidate):\n"
        "    assert candidate(2, 3) == 5\n"
        "    assert candidate(-1, 1) == 0\n"
        "    assert 2 > 1, 'this assert does not test the candidate'\n"
        "    assert candidate(100, 23) == 123\n"
        "    for x in range(5):\n"
        "        assert candidate(x, x) == 2 * x\n"
    ),
}
HUMANEVAL_RIGHT = "```python\ndef add(x: int, y: int) -> int:\n    return x + y\n```"
HUMANEVAL_BODY_ONLY = "    return x + y\n"
HUMANEVAL_WRONG = "```python\ndef add(x, y):\n    return x + y + 1 if x > 10 else x + y\n```"

MBPP = {
    "test_setup_code": "import math",
    "test_list": ["assert square(3) == 9", "assert square(-4) == 16", "assert square(0) == 0"],
    "challenge_test_list": ["assert square(12) == 144"],
}
MBPP_RIGHT = "```python\ndef square(n):\n    return n * n\n```"
MBPP_WRONG = "```python\ndef square(n):\n    return n * n if n < 10 else 0\n```"

APPS_STDIN = {"inputs": ["1 2\n", "3 4\n", "5 6\n", "999 1\n"],
              "outputs": ["3\n", "7\n", "11\n", "1000\n"]}
SUM_RIGHT = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"
SUM_WRONG = "```python\na, b = map(int, input().split())\nprint(a + b if a < 5 else a - b)\n```"

APPS_CALL = {"fn_name": "add_two", "inputs": [[1, 2], [10, 20], [7, 8]],
             "outputs": [[3], [30], [15]]}
APPS_CALL_RIGHT = "```python\ndef add_two(a, b):\n    return a + b\n```"

CODECONTESTS = {
    "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
    "private_tests": {"input": ["3 4\n", "5 6\n"], "output": ["7\n", "11\n"]},
    "generated_tests": {"input": ["999 1\n"], "output": ["1000\n"]},
}

LCB_STDIN = {
    "public_test_cases": json.dumps([{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}]),
    "private_test_cases": json.dumps([{"input": "3 4\n", "output": "7\n", "testtype": "stdin"},
                                      {"input": "5 6\n", "output": "11\n", "testtype": "stdin"}]),
    "metadata": "{}",
}
LCB_FUNCTIONAL = {
    "public_test_cases": json.dumps([{"input": "[2, 7, 11, 15]\n9", "output": "[0, 1]",
                                      "testtype": "functional"}]),
    "private_test_cases": json.dumps([{"input": "[3, 2, 4]\n6", "output": "[1, 2]",
                                       "testtype": "functional"}]),
    "metadata": json.dumps({"func_name": "twoSum"}),
}
LCB_FUNCTIONAL_RIGHT = """```python
class Solution:
    def twoSum(self, nums, target):
        seen = {}
        for i, x in enumerate(nums):
            if target - x in seen:
                return [seen[target - x], i]
            seen[x] = i
```"""

EXPLICIT = {"language": "python", "entry_point": "mul",
            "public": ["assert mul(2, 3) == 6"],
            "hidden": ["assert mul(-2, 5) == -10", "assert mul(0, 9) == 0"]}
EXPLICIT_RIGHT = "```python\ndef mul(a, b):\n    return a * b\n```"


@reward
def constant_judge(sample: Sample) -> float:
    """A judge found by dotted path (`rtv_formats:constant_judge`): always 1."""
    return 1.0


HUMANEVAL_HELPER = {
    "prompt": ("from typing import List\n\n\ndef is_even(n: int) -> bool:\n"
               "    return n % 2 == 0\n\n\n"
               "def count_even(xs: List[int]) -> int:\n"
               '    """How many numbers of xs are even."""\n'),
    "entry_point": "count_even",
    "test": ("def check(candidate):\n    assert candidate([1, 2, 4]) == 2\n"
             "    assert candidate([]) == 0\n    assert candidate([7, 9, 10, 12]) == 2\n"),
}
# a chat-style full function: no import of List, no copy of the prompt's helper
HUMANEVAL_HELPER_RIGHT = ("```python\ndef count_even(xs: List[int]) -> int:\n"
                          "    return sum(1 for x in xs if is_even(x))\n```")


class FixedJudge:
    """A judge class found by dotted path and built with `judge_options`."""

    kind = "learned"

    def __init__(self, value: float) -> None:
        self.value = value
        self.name = "fixed_judge"

    def score(self, samples: list[Sample]) -> list[Score]:
        return [Score(self.value) for _ in samples]
