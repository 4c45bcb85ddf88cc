"""`CodeReward` end to end: options, reasons, parts and weights, every reference format through
the real sandbox, hard-coding and gating, the judge, and batch de-duplication."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from typing import Any

import pytest
import rtv_formats as F  # type: ignore[import-not-found]

from rewards import ConfigError, Sample, Score, build_reward, parse_config
from rewards.code import CodeReward, CodeRewardConfig, Weights


def sample(completion: str, reference: Any, **kw: Any) -> Sample:
    return Sample(prompt="solve it", completion=completion, reference=reference, domain="code",
                  **kw)


def weights_of(score: Score) -> dict[str, float]:
    return {k: score.parts[f"weight/{k}"] for k in ("rule", "tests", "hidden", "judge")}


# --- options (no sandbox) --------------------------------------------------------------------


def test_defaults() -> None:
    reward = CodeReward()
    assert reward.name == "rtv" and reward.kind == "verifiable"
    assert reward.config == CodeRewardConfig()
    assert reward.config.weights == Weights(0.1, 0.5, 0.3, 0.1)


@pytest.mark.parametrize("options", [
    {"weight": {"rule": 1}},                          # unknown option
    {"weights": {"rules": 1.0}},                      # unknown layer
    {"weights": {"rule": -1.0}},
    {"weights": {"rule": 0, "tests": 0, "hidden": 0, "judge": 0}},
    {"block": "middle"},
    {"unfenced": "maybe"},
    {"forbidden": ["no_such_rule"]},
    {"forbidden_patterns": [{"name": "x", "regex": "("}]},
    {"forbidden_patterns": [{"name": "x", "regex": "a", "scope": "sometimes"}]},
    {"time_limit_s": 0},
    {"hidden_share": 1.0},
    {"gate": "yes"},
    {"judge": 3},
    {"judge": "no_such_judge_name"},
])
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        CodeReward(**options)


def test_options_from_a_reward_config() -> None:
    config = parse_config({"domains": {"code": {"rewards": [{
        "use": "rtv", "weights": {"judge": 0.0}, "gate": True, "block": "first",
        "forbidden": ["early_exit"],
        "forbidden_patterns": [{"name": "no_eval", "regex": r"\beval\("}]}]}}})
    reward = build_reward(config)
    component = reward.domains["code"].components[0].reward  # type: ignore[attr-defined]
    assert isinstance(component, CodeReward)
    assert component.config.gate and component.config.block == "first"
    assert component.config.weights == Weights(0.1, 0.5, 0.3, 0.0)
    assert [r.name for r in component.rules.forbidden] == ["early_exit", "no_eval"]


def test_layers_without_running_anything() -> None:
    reward = CodeReward()
    no_code, prose, syntax, bad = reward.score([
        sample("", F.MBPP),
        sample("I would loop over the list and add.", F.MBPP),
        sample("```python\ndef square(n)\n    return n * n\n```", F.MBPP),
        sample(F.MBPP_RIGHT, "not a reference"),
    ])
    assert (no_code.value, no_code.reason) == (0.0, "no_code")
    assert (prose.value, prose.reason) == (0.0, "no_code")
    assert (syntax.value, syntax.reason) == (0.0, "syntax_error")
    assert syntax.parts["rule"] == 0.0 and syntax.parts["tests"] == 0.0
    assert syntax.parts["judge"] is None and syntax.parts["weight/judge"] == 0.0
    assert (bad.value, bad.reason) == (None, "bad_reference")
    assert set(bad.parts) >= {"rule", "tests", "hidden", "judge"}


# --- end to end through the real sandbox ------------------------------------------------------

FORMATS = [
    ("humaneval", F.HUMANEVAL, F.HUMANEVAL_RIGHT, F.HUMANEVAL_WRONG),
    ("humaneval body only", F.HUMANEVAL, F.HUMANEVAL_BODY_ONLY, F.HUMANEVAL_WRONG),
    ("mbpp", F.MBPP, F.MBPP_RIGHT, F.MBPP_WRONG),
    ("mbpp bare list", F.MBPP["test_list"] + F.MBPP["challenge_test_list"], F.MBPP_RIGHT,
     F.MBPP_WRONG),
    ("apps stdin", F.APPS_STDIN, F.SUM_RIGHT, F.SUM_WRONG),
    ("apps input_output string", {"input_output": __import__("json").dumps(F.APPS_STDIN)},
     F.SUM_RIGHT, F.SUM_WRONG),
    ("apps call-based", F.APPS_CALL, F.APPS_CALL_RIGHT,
     "```python\ndef add_two(a, b):\n    return a - b\n```"),
    ("codecontests", F.CODECONTESTS, F.SUM_RIGHT, F.SUM_WRONG),
    ("livecodebench stdin", F.LCB_STDIN, F.SUM_RIGHT, F.SUM_WRONG),
    ("livecodebench functional", F.LCB_FUNCTIONAL, F.LCB_FUNCTIONAL_RIGHT,
     ("```python\nclass Solution:\n    def twoSum(self, nums, target):\n"
      "        return list(range(len(nums)))[:2]\n```")),
    ("explicit", F.EXPLICIT, F.EXPLICIT_RIGHT,
     "```python\ndef mul(a, b):\n    return abs(a * b)\n```"),
    ("explicit stdin as JSON string",
     __import__("json").dumps({"public": [{"input": "1 2\n", "output": "3\n"}],
                               "hidden": [{"input": "5 6\n", "output": "11\n"}]}),
     F.SUM_RIGHT, F.SUM_WRONG),
]


@pytest.fixture(scope="module")
def reward() -> CodeReward:
    return CodeReward(time_limit_s=3.0)


@pytest.mark.parametrize("name, reference, right, wrong", FORMATS, ids=[f[0] for f in FORMATS])
def test_format_end_to_end(sandbox_ready: None, reward: CodeReward, name: str, reference: Any,
                           right: str, wrong: str) -> None:
    good, bad = reward.score([sample(right, reference), sample(wrong, reference)])
    assert good.reason == "ok", good
    assert good.value == pytest.approx(1.0)
    assert good.parts["rule"] == 1.0 and good.parts["tests"] == 1.0
    assert good.parts["judge"] is None and good.parts["weight/judge"] == 0.0
    assert sum(weights_of(good).values()) == pytest.approx(1.0)
    assert bad.reason == "tests_failed", bad
    assert bad.value is not None and bad.value < good.value


def test_cpp_stdin_end_to_end(sandbox_ready: None, reward: CodeReward) -> None:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed on this machine")
    reference = {"language": "cpp", "public": [{"input": "1 2\n", "output": "3\n"}],
                 "hidden": [{"input": "40 2\n", "output": "42\n"}]}
    right = ("```cpp\n#include <iostream>\nint main() { long a, b; std::cin >> a >> b; "
             "std::cout << a + b << std::endl; }\n```")
    broken = "```cpp\nint main() { return undefined_name; }\n```"
    good, bad = reward.score([sample(right, reference), sample(broken, reference)])
    assert (good.value, good.reason) == (pytest.approx(1.0), "ok")
    assert (bad.value, bad.reason) == (0.0, "syntax_error")


def test_hidden_layer_separates_overfitting(sandbox_ready: None, reward: CodeReward) -> None:
    # passes the public MBPP tests, fails the challenge (hidden) test
    score = reward.score([sample(F.MBPP_WRONG, F.MBPP)])[0]
    assert score.parts["tests"] == 1.0 and score.parts["hidden"] == 0.0
    w = weights_of(score)
    assert w["judge"] == 0.0
    assert w["rule"] == pytest.approx(0.1 / 0.9) and w["hidden"] == pytest.approx(0.3 / 0.9)
    assert score.value == pytest.approx(w["rule"] + w["tests"])


def test_hardcoded_and_gate(sandbox_ready: None) -> None:
    hardcoded = ("```python\ndef square(n):\n    return {3: 9, -4: 16, 0: 0}[n]\n```")
    plain, gated = CodeReward(), CodeReward(gate=True)
    s = sample(hardcoded, F.MBPP)
    score = plain.score([s])[0]
    assert score.reason == "hardcoded"
    assert score.parts["rule"] == 0.0 and score.parts["tests"] == 1.0
    assert score.parts["hidden"] == 0.0  # the table does not know the hidden input
    assert 0.0 < score.value < 1.0
    assert gated.score([s])[0].value == 0.0
    honest = gated.score([sample(F.MBPP_RIGHT, F.MBPP)])[0]
    assert honest.value == pytest.approx(1.0)


def test_rule_violation_keeps_test_credit_unless_gated(sandbox_ready: None) -> None:
    exits = "```python\nimport sys\ndef square(n):\n    return n * n\nsys.exit(0)\n```"
    score = CodeReward().score([sample(exits, F.MBPP)])[0]
    assert score.reason == "rule_violation" and score.parts["rule"] == 0.0
    assert CodeReward(gate=True).score([sample(exits, F.MBPP)])[0].value == 0.0
    custom = CodeReward(forbidden_patterns=[{"name": "no_star", "regex": r"n \* n"}])
    assert custom.score([sample(F.MBPP_RIGHT, F.MBPP)])[0].reason == "rule_violation"
    as_string = CodeReward(forbidden_patterns=[r"\bsquare\b"], forbidden=[])
    assert as_string.score([sample(F.MBPP_RIGHT, F.MBPP)])[0].reason == "rule_violation"
    assert CodeReward(forbidden=[]).score([sample(exits, F.MBPP)])[0].parts["rule"] == 1.0


def test_failure_reasons(sandbox_ready: None) -> None:
    reward = CodeReward(time_limit_s=1.0)
    loops = "```python\ndef square(n):\n    while True:\n        pass\n```"
    crashes = "```python\nraise ValueError('boom')\ndef square(n):\n    return n * n\n```"
    timeout, runtime = reward.score([sample(loops, F.MBPP), sample(crashes, F.MBPP)])
    assert (timeout.value, timeout.reason) == (pytest.approx(0.1 / 0.9), "timeout")
    assert runtime.reason == "runtime_error" and runtime.parts["tests"] == 0.0


def test_judge_weight_and_abstention(sandbox_ready: None) -> None:
    seen: list[Sample] = []

    def judge(s: Sample) -> float | None:
        seen.append(s)
        return None if "abs" in s.completion else 0.5

    reward = CodeReward(judge=judge, rubric="correct and idiomatic")
    right = sample(F.EXPLICIT_RIGHT, F.EXPLICIT)
    abstained = sample("```python\ndef mul(a, b):\n    return abs(a * b)\n```", F.EXPLICIT)
    no_code = sample("no idea", F.EXPLICIT)
    judged, skipped, nothing = reward.score([right, abstained, no_code])
    assert judged.parts["judge"] == 0.5 and judged.parts["weight/judge"] == pytest.approx(0.1)
    assert judged.value == pytest.approx(0.9 + 0.05)
    assert skipped.parts["judge"] is None and skipped.parts["weight/judge"] == 0.0
    assert nothing.parts["judge"] == 0.0 and nothing.value == 0.0
    assert len(seen) == 2  # the judge never sees a completion without code
    assert seen[0].meta["rubric"] == "correct and idiomatic"
    assert "def mul" in seen[0].meta["program"]


def test_judge_by_dotted_path(sandbox_ready: None) -> None:
    reward = CodeReward(judge="rtv_formats:constant_judge")
    score = reward.score([sample(F.EXPLICIT_RIGHT, F.EXPLICIT)])[0]
    assert score.parts["judge"] == 1.0 and score.value == pytest.approx(1.0)


def test_judge_class_with_options(sandbox_ready: None) -> None:
    reward = CodeReward(judge="rtv_formats:FixedJudge", judge_options={"value": 0.0},
                        weights={"rule": 0.0, "tests": 0.5, "hidden": 0.0, "judge": 0.5})
    score = reward.score([sample(F.EXPLICIT_RIGHT, F.EXPLICIT)])[0]
    assert score.parts["judge"] == 0.0 and score.parts["hidden"] == 1.0
    assert score.parts["weight/hidden"] == 0.0 and score.value == pytest.approx(0.5)
    with pytest.raises(ConfigError):
        CodeReward(judge="rtv_formats:FixedJudge", judge_options={"wrong": 1})


def test_humaneval_full_function_gets_prompt_context(sandbox_ready: None) -> None:
    score = CodeReward().score([sample(F.HUMANEVAL_HELPER_RIGHT, F.HUMANEVAL_HELPER)])[0]
    assert (score.value, score.reason) == (pytest.approx(1.0), "ok")


def test_unfenced_and_block_options(sandbox_ready: None) -> None:
    bare = "def square(n):\n    return n * n\n"
    assert CodeReward().score([sample(bare, F.MBPP)])[0].value == pytest.approx(1.0)
    rejected = CodeReward(unfenced="reject").score([sample(bare, F.MBPP)])[0]
    assert (rejected.value, rejected.reason) == (0.0, "no_code")
    two = F.MBPP_WRONG + "\nFixed:\n" + F.MBPP_RIGHT
    last, first = CodeReward().score([sample(two, F.MBPP)])[0], \
        CodeReward(block="first").score([sample(two, F.MBPP)])[0]
    assert last.value == pytest.approx(1.0) and first.reason == "tests_failed"


def test_identical_pairs_run_once(sandbox_ready: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import sandbox

    jobs: list[int] = []
    real = sandbox.run_tests_many

    def counting(specs: Iterable[dict[str, Any]], **kw: Any) -> Any:
        specs = list(specs)  # a generator: the Rule layer runs as the sandbox takes jobs
        jobs.append(len(specs))
        return real(specs, **kw)

    monkeypatch.setattr(sandbox, "run_tests_many", counting)
    group = [sample(F.MBPP_RIGHT, F.MBPP, group="p1") for _ in range(4)]
    group += [sample(F.MBPP_WRONG, F.MBPP, group="p1")]
    scores = CodeReward().score(group)
    assert [s.value for s in scores[:4]] == [pytest.approx(1.0)] * 4
    assert jobs == [2]  # 2 programs, each one run of its public and hidden tests, not 10


def test_broken_sandbox_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """A jail that cannot start is infrastructure: it raises from the RewardsError tree."""
    import sandbox
    from rewards.errors import RewardsError, SandboxError

    def broken(specs: list[dict[str, Any]], **kw: Any) -> Any:
        raise sandbox.SandboxError("nsjail: no user namespaces")

    monkeypatch.setattr(sandbox, "run_tests_many", broken)
    with pytest.raises(SandboxError) as info:
        CodeReward().score([sample(F.MBPP_RIGHT, F.MBPP)])
    assert isinstance(info.value, RewardsError) and "no user namespaces" in str(info.value)
    assert isinstance(info.value.__cause__, sandbox.SandboxError)  # raised from the sandbox's


def test_sandbox_errors_converts_only_the_sandboxs_infrastructure_error() -> None:
    """The one conversion at the boundary: the sandbox's SandboxError becomes the tree's
    (which is not a subclass of it); its ArgumentError and other errors pass unchanged."""
    import sandbox
    from rewards.errors import INFRASTRUCTURE_ERRORS, SandboxError, sandbox_errors

    with pytest.raises(SandboxError, match="^rtv: nsjail missing$") as info, \
            sandbox_errors("rtv"):
        raise sandbox.SandboxError("nsjail missing")
    assert not isinstance(info.value, sandbox.SandboxError)
    assert isinstance(info.value, INFRASTRUCTURE_ERRORS)
    with pytest.raises(SandboxError, match="^nsjail missing$"), sandbox_errors():
        raise sandbox.SandboxError("nsjail missing")
    with pytest.raises(sandbox.ArgumentError, match="unsupported language"), \
            sandbox_errors("rtv"):
        sandbox.run("x", "fortran")
    assert not any(issubclass(sandbox.SandboxError, e) for e in INFRASTRUCTURE_ERRORS)
