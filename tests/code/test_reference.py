"""Reference formats parsed without running anything: every format, its public/hidden split,
and references that must abstain."""

from __future__ import annotations

import json

import pytest
from rtv_formats import (  # type: ignore[import-not-found]
    APPS_CALL,
    APPS_STDIN,
    CODECONTESTS,
    EXPLICIT,
    HUMANEVAL,
    LCB_FUNCTIONAL,
    LCB_STDIN,
    MBPP,
)

from rewards.code import BadReference, LiteralCase, parse_reference


def test_humaneval_split_per_assert() -> None:
    task = parse_reference(HUMANEVAL)
    assert task.entry_point == "add" and task.prompt == HUMANEVAL["prompt"]
    assert task.public.kind == task.hidden.kind == "asserts"
    # 4 asserts on the candidate; one that ignores it does not count; the last half is hidden
    assert len(task.public.tests) == 2 and len(task.hidden.tests) == 2
    first = task.public.tests[0]
    assert "METADATA" in first and "candidate = add" in first and "import math" in first
    assert task.public.cases == (LiteralCase((2, 3), 5), LiteralCase((-1, 1), 0))
    assert task.hidden.cases == (LiteralCase((100, 23), 123),)  # the loop has no literal case


def test_hidden_share_zero_makes_everything_public() -> None:
    task = parse_reference(HUMANEVAL, hidden_share=0.0)
    assert len(task.public.tests) == 4 and not task.hidden.tests


def test_mbpp_formats() -> None:
    task = parse_reference(MBPP)
    assert task.entry_point == "square"
    assert len(task.public.tests) == 3 and len(task.hidden.tests) == 1  # challenge list
    # test_setup_code runs in the program's namespace after it; test_imports before each test
    assert task.setup == "import math" and task.public.tests[0] == "assert square(3) == 9"
    sanitized = parse_reference({"test_list": MBPP["test_list"], "test_imports": ["import math"]})
    assert sanitized.setup is None and sanitized.public.tests[0].startswith("import math\n")
    bare = parse_reference(MBPP["test_list"])
    assert (len(bare.public.tests), len(bare.hidden.tests)) == (2, 1)
    as_text = parse_reference("assert square(3) == 9\nassert square(4) == 16\n")
    assert as_text.entry_point == "square" and len(as_text.public.tests) == 1


def test_stdin_formats() -> None:
    apps = parse_reference(APPS_STDIN)
    assert apps.style == "stdin"
    assert [t["input"] for t in apps.public.tests] == ["1 2\n", "3 4\n"]
    assert [t["output"] for t in apps.hidden.tests] == ["11\n", "1000\n"]
    assert apps.public.cases[0] == LiteralCase(("1 2\n",), "3\n", stdin=True)
    # the APPS row carries input_output as a JSON string
    row = parse_reference({"input_output": json.dumps(APPS_STDIN)})
    assert row.public.tests == apps.public.tests
    cc = parse_reference(CODECONTESTS)
    assert len(cc.public.tests) == 1 and len(cc.hidden.tests) == 3
    lcb = parse_reference(LCB_STDIN)
    assert len(lcb.public.tests) == 1 and len(lcb.hidden.tests) == 2
    bare = parse_reference(json.loads(LCB_STDIN["public_test_cases"]) +
                           json.loads(LCB_STDIN["private_test_cases"]))
    assert len(bare.public.tests) == 2 and len(bare.hidden.tests) == 1


def test_call_based_formats() -> None:
    apps = parse_reference(APPS_CALL)
    assert apps.style == "function" and apps.entry_point == "add_two"
    assert apps.public.cases == (LiteralCase((1, 2), 3), LiteralCase((10, 20), 30))
    lcb = parse_reference(LCB_FUNCTIONAL)
    assert lcb.entry_point == "twoSum"
    assert lcb.public.cases == (LiteralCase(([2, 7, 11, 15], 9), [0, 1]),)


def test_explicit_format_and_json_string() -> None:
    task = parse_reference(json.dumps(EXPLICIT))
    assert task.language == "python" and task.entry_point == "mul"
    assert len(task.public.tests) == 1 and len(task.hidden.tests) == 2
    stdin = parse_reference({"public": [{"input": "2\n", "output": "4\n"}], "hidden": []})
    assert stdin.style == "stdin" and not stdin.hidden.tests and stdin.hidden.kind == "stdin"
    only_hidden = parse_reference({"hidden": ["assert f(1) == 1"]})
    assert not only_hidden.public.tests and only_hidden.public.kind == "asserts"
    cpp = parse_reference({"language": "C++", "public": [{"input": "1\n", "output": "1\n"}]})
    assert cpp.language == "cpp"


@pytest.mark.parametrize("reference", [
    None, 42, "", "the answer is 5", "{not json", [], {"foo": 1},
    {"public": [], "hidden": []},
    {"public": ["assert f(1) == 1"], "hidden": [{"input": "1", "output": "1"}]},
    {"public": [1, 2]},
    {"test": "def check(candidate):\n    pass\n", "entry_point": "f"},
    {"test": "def check(candidate):\n    assert 2 > 1\n", "entry_point": "f"},
    {"test": "def check(:", "entry_point": "f"},
    {"test": "assert f(1) == 1", "entry_point": "f"},
    {"test_list": []},
    {"inputs": ["1"], "outputs": []},
    {"inputs": [["1"]], "outputs": [2]},
    {"input_output": "not json"},
    {"public_tests": {"input": [], "output": []}},
    {"public_test_cases": "[]", "private_test_cases": "eJzLSM3JyQ=="},
    {"public_test_cases": json.dumps([{"input": "[1]", "output": "1", "testtype": "functional"}]),
     "metadata": "{}"},
    [{"input": "1", "output": "1", "testtype": "functional"}],
    {"language": "rust", "public": [{"input": "1", "output": "1"}]},
    {"language": "cpp", "public": ["assert f(1) == 1"]},
])
def test_bad_references(reference: object) -> None:
    with pytest.raises(BadReference):
        parse_reference(reference)
