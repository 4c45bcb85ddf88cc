"""Code without fences after (or between) lines of prose is found as a reader finds it; when
none is taken, the check says why."""

import pytest

from rewards.code import CodeReward
from rewards.code._rules import extract_program
from rewards.code._unfenced import MAX_SEARCH_CHARS, unfenced_program
from rewards.types import Sample

ADD = {"public": ["assert add(1, 2) == 3"], "hidden": ["assert add(0, 0) == 0"]}


@pytest.mark.parametrize("completion, program", [
    ("Here is my solution:\ndef add(a, b):\n    return a + b\n",
     "def add(a, b):\n    return a + b\n"),
    ("Here is my solution:\ndef add(a, b):\n    return a + b\n\nIt adds the two numbers.",
     "def add(a, b):\n    return a + b\n"),
    (("Sure. Reading the input:\nimport sys\nx = int(sys.stdin.read())\nprint(\n    x * 2,\n)\n"
      "This doubles x."), "import sys\nx = int(sys.stdin.read())\nprint(\n    x * 2,\n)\n"),
    (("First the helper:\ndef sq(x):\n    return x * x\nThen the answer:\n"
      "def add(a, b):\n    if a:\n        return a + b\n    else:\n        return b\n"),
     "def add(a, b):\n    if a:\n        return a + b\n    else:\n        return b\n"),
    ("def add(a, b):\n    return a + b\n", "def add(a, b):\n    return a + b\n"),  # whole
    ("    return a + b\n", "    return a + b\n"),  # a HumanEval body: whole, as before
    ("I am not sure how to multiply two numbers.",
     "I am not sure how to multiply two numbers.\n"),  # no program: whole, the Rule layer says
    ("The answer is\n42\n", "The answer is\n42\n"),  # a lone constant is no program
])
def test_the_program_is_taken_from_between_prose_lines(completion, program):
    assert extract_program(completion).program == program


def test_other_languages_and_long_completions_are_taken_whole():
    text = "Here it is:\nint main() { return 0; }\n"
    assert extract_program(text, language="cpp").program == text
    long = "Here it is:\n" + "x = 1\n" * (MAX_SEARCH_CHARS // 6 + 1) + "done."
    assert unfenced_program(long) == long


def test_the_search_is_linear_in_the_completion():
    """Many prose lines and many runs: the characters parsed are bounded by a few times the
    completion's (each line alone once, each run once, the whole once)."""
    import ast

    calls = []
    real = ast.parse

    def counting(text, *args, **kwargs):
        calls.append(len(text))
        return real(text, *args, **kwargs)

    text = "".join(f"Step {i} is this.\nx{i} = {i}\n" for i in range(2000))
    ast.parse = counting
    try:
        unfenced_program(text)
    finally:
        ast.parse = real
    assert sum(calls) <= 4 * len(text)


def test_the_check_says_a_program_was_found_and_why_not_otherwise():
    reward = CodeReward()
    found, prose = reward.check([
        Sample("p", "Here is my solution:\ndef add(a, b):\n    return a + b\n", ADD),
        Sample("p", "I am not sure how to add two numbers.", ADD)])
    assert found.answer == "def add(a, b): (2 lines)"
    assert prose.answer is None
    assert prose.detail.startswith("no program taken (SyntaxError: ")


def test_code_after_a_line_of_prose_scores(sandbox_ready):
    [score] = CodeReward().score([Sample(
        "p", "Here is my solution:\ndef add(a, b):\n    return a + b\n", ADD)])
    assert (score.value, score.reason) == (pytest.approx(1.0), "ok")
