"""The code reward with checkers and the built-in comparisons: a reference may carry a checker
(explicit, as source or fields; open-r1/codeforces' generated_checker), the config chooses the
comparison and its tolerance, and the Test and Verifier layers judge by them end to end."""

from __future__ import annotations

import json
import shutil
from typing import get_args, get_type_hints

import pytest

import sandbox
from rewards.code import CodeReward
from rewards.code._config import CodeRewardConfig
from rewards.code._reference import BadReference, parse_reference
from rewards.errors import ConfigError
from rewards.types import Sample

CASES = [{"input": "3\n", "output": "1 2 3\n"}, {"input": "4\n", "output": "1 2 3 4\n"}]
HIDDEN = [{"input": "6\n", "output": "1 2 3 4 5 6\n"}, {"input": "1\n", "output": "1\n"}]

PY_CHECKER = """
import sys
inp, out, ans = (open(path).read() for path in sys.argv[1:4])
n = int(inp)
try:
    got = sorted(int(t) for t in out.split())
except ValueError:
    sys.exit(2)
sys.exit(0 if got == list(range(1, n + 1)) else 1)
"""
CPP_CHECKER = r"""
#include <algorithm>
#include <fstream>
#include <vector>
int main(int argc, char** argv) {
    std::ifstream in(argv[1]), out(argv[2]);
    long n, x;
    in >> n;
    std::vector<long> got;
    while (out >> x) got.push_back(x);
    if (!out.eof()) return 2;
    std::sort(got.begin(), got.end());
    if ((long)got.size() != n) return 1;
    for (long i = 0; i < n; ++i) if (got[i] != i + 1) return 1;
    return 0;
}
"""
GENERATED = """
import sys
inp, ans, out = (open(path).read() for path in sys.argv[1:4])
print(1 if sorted(out.split()) == sorted(ans.split()) else 0)
"""
REVERSED = "```python\nn = int(input())\nprint(*range(n, 0, -1))\n```"
MISSING = "```python\nn = int(input())\nprint(*range(1, n))\n```"


def _score(reward: CodeReward, completion: str, reference: object) -> tuple[float | None, dict]:
    [score] = reward.score([Sample("print a permutation of 1..n", completion, reference,
                                   domain="code")])
    return score.value, dict(score.parts)


def _layers(parts: dict) -> tuple[float | None, float | None]:
    return parts["tests"], parts["hidden"]


@pytest.mark.usefixtures("sandbox_ready")
@pytest.mark.parametrize("checker", [
    PY_CHECKER,
    {"source": PY_CHECKER, "language": "python"},
    pytest.param({"source": CPP_CHECKER, "language": "cpp"}, marks=pytest.mark.skipif(
        shutil.which("g++") is None, reason="g++ is not installed")),
])
def test_reward_judges_by_the_references_checker(checker: object) -> None:
    reward = CodeReward(compare="exact")
    reference = {"public": CASES, "hidden": HIDDEN, "checker": checker}
    value, parts = _score(reward, REVERSED, reference)
    assert _layers(parts) == (1.0, 1.0) and value == pytest.approx(1.0), parts
    value, parts = _score(reward, MISSING, reference)
    assert _layers(parts) == (0.0, 0.0), parts
    # without the checker the reversed permutations are wrong but for n = 1
    value, parts = _score(reward, REVERSED, {"public": CASES, "hidden": HIDDEN})
    assert _layers(parts) == (0.0, 0.5), parts


@pytest.mark.usefixtures("sandbox_ready")
def test_open_r1_generated_checker_in_a_json_reference() -> None:
    reference = json.dumps({"public": CASES, "hidden": HIDDEN, "generated_checker": GENERATED})
    reward = CodeReward()
    assert _layers(_score(reward, REVERSED, reference)[1]) == (1.0, 1.0)
    assert _layers(_score(reward, MISSING, reference)[1]) == (0.0, 0.0)


@pytest.mark.usefixtures("sandbox_ready")
def test_a_checker_that_crashes_scores_no_test() -> None:
    reference = {"public": CASES, "checker": "raise SystemExit(3)"}
    _, parts = _score(CodeReward(), REVERSED, reference)
    assert parts["tests"] == 0.0, parts


@pytest.mark.usefixtures("sandbox_ready")
def test_config_chooses_the_comparison_and_tolerance() -> None:
    lines = {"public": [{"input": "", "output": "a\nb\nc\n"}]}
    shuffled = "```python\nprint('c')\nprint('a')\nprint('b')\n```"
    assert _score(CodeReward(compare="lines_unordered"), shuffled, lines)[1]["tests"] == 1.0
    assert _score(CodeReward(compare="whitespace"), shuffled, lines)[1]["tests"] == 0.0
    close = {"public": [{"input": "", "output": "0.5\n"}]}
    near = "```python\nprint(0.5001)\n```"
    assert _score(CodeReward(compare="float", float_tol=1e-3), near, close)[1]["tests"] == 1.0
    assert _score(CodeReward(compare="float"), near, close)[1]["tests"] == 0.0


def test_config_compare_values_are_the_sandboxs() -> None:
    hint = get_type_hints(CodeRewardConfig)["compare"]
    assert get_args(hint) == get_args(sandbox.Compare)
    with pytest.raises(ConfigError, match="compare"):
        CodeReward(compare="sorted")
    with pytest.raises(ConfigError, match="float_tol"):
        CodeReward(float_tol=-1.0)


@pytest.mark.parametrize("checker,expected", [
    (PY_CHECKER, sandbox.Checker(PY_CHECKER)),
    (CPP_CHECKER, sandbox.Checker(CPP_CHECKER, language="cpp")),
    ({"source": "print(1)", "score": True, "args": "input answer output"},
     sandbox.Checker("print(1)", score=True, args="input answer output")),
])
def test_reference_checker_forms(checker: object, expected: sandbox.Checker) -> None:
    task = parse_reference({"public": CASES, "checker": checker})
    assert task.checker == expected
    assert parse_reference({"public": CASES}).checker is None
    assert parse_reference({"public": CASES, "generated_checker": None}).checker is None
    generated = parse_reference({"public_tests": {"input": ["1\n"], "output": ["1\n"]},
                                 "generated_checker": GENERATED}).checker
    assert generated == sandbox.Checker(GENERATED, args="input answer output", score=True)


@pytest.mark.parametrize("reference,message", [
    ({"public": ["assert f() == 1"], "checker": "print(1)"}, "stdin/stdout"),
    ({"public": CASES, "checker": {"code": "print(1)"}}, "source"),
    ({"public": CASES, "checker": {"source": "x", "lang": "cpp"}}, "unknown checker key"),
    ({"public": CASES, "checker": {"source": "x", "args": "output input answer"}},
     "bad checker"),
    ({"public": CASES, "checker": {"source": "x", "language": "cobol"}}, "bad checker"),
    ({"public": CASES, "checker": 42}, "source code"),
])
def test_bad_checkers_are_bad_references(reference: dict, message: str) -> None:
    with pytest.raises(BadReference, match=message):
        parse_reference(reference)
