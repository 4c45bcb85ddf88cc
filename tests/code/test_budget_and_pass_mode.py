"""The code reward's time budgets and pass modes (issue #17): one run per program (a timeout
in the public tests ends it before the hidden ones), `program_time_limit_s`, per-test limits
from a reference solution (`reference_time`, EvalPlus's rule), `pass_mode: all`, and the
parallel chunks of many stdin tests. Limits are checked on the values computed and the
reports, never on wall-clock time."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest
import rtv_formats as F  # type: ignore[import-not-found]

from rewards import ConfigError, Sample
from rewards.code import CodeReward, ReferenceTime, parse_reference


def sample(completion: str, reference: Any) -> Sample:
    return Sample(prompt="solve it", completion=completion, reference=reference, domain="code")


class Recorder:
    """Wraps sandbox.run_tests_many: the jobs and keyword options of each call, and the
    reports it returned."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import sandbox

        self.calls: list[tuple[list[dict[str, Any]], dict[str, Any], list[Any]]] = []
        real = sandbox.run_tests_many

        def recording(jobs: Iterable[dict[str, Any]], **options: Any) -> Any:
            seen: list[dict[str, Any]] = []  # jobs may be a generator: record them as they pass
            reports = real((seen.append(job) or job for job in jobs), **options)
            self.calls.append((seen, options, reports))
            return reports

        monkeypatch.setattr(sandbox, "run_tests_many", recording)


# --- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {"pass_mode": "any"},
    {"program_time_limit_s": 0},
    {"chunk_tests": 0},
    {"reference_time": {"factor": 0}},
    {"reference_time": {"floor_s": -1}},
    {"reference_time": {"factr": 4}},
])
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        CodeReward(**options)


def test_defaults_keep_todays_behaviour() -> None:
    config = CodeReward().config
    assert config.pass_mode == "fraction" and config.program_time_limit_s is None
    assert config.reference_time is None and config.chunk_tests == 4
    assert CodeReward(reference_time={}).config.reference_time == ReferenceTime(4.0, 1.0)


@pytest.mark.parametrize(("seconds", "cap", "limit"), [
    (0.5, 5.0, 2.0),     # factor x the test's time
    (0.02, 5.0, 1.0),    # the floor
    (3.0, 5.0, 5.0),     # at most the configured limit
    (None, 5.0, 5.0),    # no time (the reference failed the test): the configured limit
])
def test_reference_time_rule(seconds: float | None, cap: float, limit: float) -> None:
    assert ReferenceTime(factor=4.0, floor_s=1.0).limit(seconds, cap) == pytest.approx(limit)
    assert ReferenceTime(factor=2.0, floor_s=0.1).limit(0.3, 5.0) == pytest.approx(0.6)


def test_reference_time_gives_each_test_its_own_limit() -> None:
    """EvalPlus: `[max(min_time_limit, factor * t) for t in ref_time]`, test by test."""
    rule = ReferenceTime(factor=4.0, floor_s=1.0)
    assert rule.limits([0.1, 0.5, None, 3.0], 5.0) == pytest.approx((1.0, 2.0, 5.0, 5.0))
    assert rule.limits([], 5.0) == ()


# --- reference solutions in the formats --------------------------------------------------------


def test_reference_solutions_in_each_format() -> None:
    body = "    return x + y\n"
    humaneval = parse_reference({**F.HUMANEVAL, "canonical_solution": body})
    assert humaneval.solution == F.HUMANEVAL["prompt"] + body
    mbpp = parse_reference({**F.MBPP, "code": "def square(n):\n    return n * n\n"})
    assert mbpp.solution == "def square(n):\n    return n * n\n"
    apps = parse_reference({"input_output": json.dumps(F.APPS_STDIN),
                            "solutions": json.dumps(["print(sum(map(int, input().split())))"])})
    assert apps.solution == "print(sum(map(int, input().split())))"
    contests = parse_reference({**F.CODECONTESTS, "solutions": {
        "language": [1, 2, 3], "solution": ["print 1", "int main(){}", "print(1)"]}})
    assert contests.solution == "print(1)"  # the Python 3 one, not Python 2's
    cpp = parse_reference({**F.CODECONTESTS, "language": "cpp", "solutions": {
        "language": [3, 2], "solution": ["print(1)", "int main(){}"]}})
    assert cpp.solution == "int main(){}"
    explicit = parse_reference({**F.EXPLICIT, "solution": "def mul(a, b):\n    return a * b\n"})
    assert explicit.solution is not None and "a * b" in explicit.solution
    assert parse_reference(F.LCB_STDIN).solution is None
    assert parse_reference(F.MBPP).solution is None


# --- through the sandbox ---------------------------------------------------------------------

LOOPS_ON_SIX = "```python\ndef square(n):\n    while n == 6:\n        pass\n    return n * n\n```"


def squares(public: list[int], hidden: list[int]) -> dict[str, Any]:
    return {"public": [f"assert square({n}) == {n * n}" for n in public],
            "hidden": [f"assert square({n}) == {n * n}" for n in hidden],
            "solution": "def square(n):\n    return n * n\n"}


def test_a_timeout_in_the_public_tests_ends_the_run_before_the_hidden_ones(
        sandbox_ready: None, monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder(monkeypatch)
    [score] = CodeReward(time_limit_s=0.5).score([sample(LOOPS_ON_SIX,
                                                         squares([1, 6, 2], [3, 4, 5]))])
    assert score.reason == "timeout", score
    assert score.parts["tests"] == pytest.approx(1 / 3) and score.parts["hidden"] == 0.0
    [(jobs, _, [report])] = recorder.calls
    assert len(jobs) == 1 and len(jobs[0]["tests"]) == 6  # public then hidden, one run
    assert [(r.outcome, r.ran) for r in report.results] == [
        ("pass", True), ("timeout", True)] + [("timeout", False)] * 4


def test_the_program_budget_reaches_the_sandbox(sandbox_ready: None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder(monkeypatch)
    [score] = CodeReward(time_limit_s=2.0, program_time_limit_s=3.0).score(
        [sample(F.MBPP_RIGHT, squares([1, 2], [3]))])
    assert score.value == pytest.approx(1.0)
    [(jobs, options, _)] = recorder.calls
    limits = jobs[0]["limits"]
    assert (limits.test_wall_s, limits.program_wall_s) == (2.0, 3.0)
    assert options["chunk_tests"] == 4


def test_per_test_limit_from_the_reference_solution(sandbox_ready: None,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder(monkeypatch)
    reward = CodeReward(time_limit_s=5.0, reference_time={"factor": 4, "floor_s": 0.05})
    reference = squares([1, 2], [3, 4])
    task = parse_reference(reference)
    assert reward.test_limits(task) is None and reward.per_test_limit(task) == 5.0  # not timed
    [score] = reward.score([sample(F.MBPP_RIGHT, reference)])
    assert score.value == pytest.approx(1.0)
    (timed, _, [timing]), (programs, _, _) = recorder.calls
    assert timed[0]["code"] == reference["solution"]  # the reference ran first, alone
    assert "test_limits" not in timed[0]  # timed under time_limit_s
    assert timing.passed == 4
    expected = [min(5.0, max(0.05, 4 * r.wall_s)) for r in timing.results]
    assert reward.test_limits(task) == pytest.approx(expected)
    assert reward.per_test_limit(task) == pytest.approx(max(expected))
    assert programs[0]["test_limits"] == pytest.approx(expected)
    assert programs[0]["limits"].test_wall_s == pytest.approx(max(expected))
    reward.score([sample(F.MBPP_WRONG, reference)])  # remembered: no second timing run
    assert len(recorder.calls) == 3 and recorder.calls[2][0][0]["code"] != reference["solution"]
    floor = CodeReward(time_limit_s=5.0, reference_time={"factor": 4, "floor_s": 2.5})
    floor.score([sample(F.MBPP_RIGHT, reference)])
    assert floor.test_limits(task) == (2.5,) * 4  # a fast reference: the floor
    untimed = parse_reference(squares([1], []) | {"solution": None})
    assert reward.test_limits(untimed) is None and reward.per_test_limit(untimed) == 5.0


# the reference sleeps 0.5 s on f(3) and fails the last test (it returns 4, not 5)
SLOW_ON_THREE = {"language": "python", "entry_point": "f",
                 "public": ["assert f(1) == 1", "assert f(3) == 3"],
                 "hidden": ["assert f(2) == 2", "assert f(4) == 5"],
                 "solution": "import time\ndef f(n):\n    if n == 3:\n        time.sleep(0.5)\n"
                             "    return n\n"}


def test_each_test_gets_its_own_limit_from_the_reference(sandbox_ready: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """EvalPlus's rule test by test: f(3), on which the reference sleeps 0.5 s, gets at least
    4 x 0.5 s; the fast tests 4 x their own time or the floor; the test the reference fails
    the configured limit. The program's job carries the list, and a jail wall covering it."""
    recorder = Recorder(monkeypatch)
    reward = CodeReward(time_limit_s=5.0, reference_time={"factor": 4, "floor_s": 1.0})
    program = "```python\ndef f(n):\n    return n + (n == 4)\n```"
    [score] = reward.score([sample(program, SLOW_ON_THREE)])
    assert (score.parts["tests"], score.parts["hidden"]) == (1.0, 1.0), score
    (_, _, [timing]), (programs, _, _) = recorder.calls
    assert [r.outcome for r in timing.results] == ["pass", "pass", "pass", "fail"], timing
    own = programs[0]["test_limits"]
    times = [r.wall_s for r in timing.results]
    assert own[1] >= 2.0 and own[1] == pytest.approx(min(5.0, 4 * times[1]))
    assert own[0] == pytest.approx(max(1.0, 4 * times[0]))
    assert own[2] == pytest.approx(max(1.0, 4 * times[2]))
    assert own[3] == 5.0  # the reference failed it: its time says nothing
    assert reward.test_limits(parse_reference(SLOW_ON_THREE)) == pytest.approx(own)
    limits = programs[0]["limits"]
    assert limits.test_wall_s == pytest.approx(max(own))
    assert limits.wall_s >= sum(own) and limits.program_wall_s is None


def test_without_reference_time_no_job_carries_per_test_limits(
        sandbox_ready: None, monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder(monkeypatch)
    CodeReward(time_limit_s=2.0).score([sample("```python\ndef f(n):\n    return n\n```",
                                               SLOW_ON_THREE)])
    [(jobs, _, _)] = recorder.calls  # the reference never runs
    assert "test_limits" not in jobs[0]
    assert (jobs[0]["limits"].test_wall_s, jobs[0]["limits"].wall_s) == (2.0, 2.0 * 4 + 10.0)


def test_pass_mode_all_against_fraction(sandbox_ready: None) -> None:
    reference = squares([2, 3, 12, 20], [4, 11])  # MBPP_WRONG fails on n >= 10
    fraction, every = (CodeReward(pass_mode=mode).score([sample(F.MBPP_WRONG, reference)])[0]
                       for mode in ("fraction", "all"))
    assert (fraction.parts["tests"], fraction.parts["hidden"]) == (0.5, 0.5)
    assert "tests_fraction" not in fraction.parts
    assert (every.parts["tests"], every.parts["hidden"]) == (0.0, 0.0)
    assert (every.parts["tests_fraction"], every.parts["hidden_fraction"]) == (0.5, 0.5)
    assert every.reason == fraction.reason == "tests_failed"
    assert every.value == 0.0  # not the rule layer's share: every layer must pass
    [public_only] = CodeReward(pass_mode="all").score([sample(
        F.MBPP_WRONG, squares([2, 3], [11, 12]))])  # passes the public tests, not the hidden
    assert (public_only.parts["tests"], public_only.parts["hidden"]) == (1.0, 0.0)
    assert public_only.value == 0.0
    assert CodeReward().score([sample(F.MBPP_WRONG, squares([2, 3], [11, 12]))])[0].value \
        == pytest.approx((0.1 + 0.5) / 0.9)  # fraction: the layers' weighted sum
    [right] = CodeReward(pass_mode="all").score([sample(F.MBPP_RIGHT, reference)])
    assert (right.value, right.parts["tests"], right.parts["tests_fraction"]) == (
        pytest.approx(1.0), 1.0, 1.0)
    [none] = CodeReward(pass_mode="all").score([sample("no code here", reference)])
    assert none.parts["tests_fraction"] == 0.0 and none.parts["tests"] == 0.0


def test_many_stdin_tests_run_in_chunks_with_the_verdicts_of_one_run(sandbox_ready: None) -> None:
    inputs = [f"{a} {b}\n" for a in range(8) for b in range(4)]  # SUM_WRONG: a >= 5
    reference = {"public": [{"input": i, "output": f"{sum(map(int, i.split()))}\n"}
                            for i in inputs[:10]],
                 "hidden": [{"input": i, "output": f"{sum(map(int, i.split()))}\n"}
                            for i in inputs[10:]]}
    samples = [sample(F.SUM_RIGHT, reference), sample(F.SUM_WRONG, reference)]
    one_run = CodeReward(chunk_tests=None, max_workers=4).score(samples)
    chunked = CodeReward(chunk_tests=3, max_workers=4).score(samples)
    assert [s.parts for s in chunked] == [s.parts for s in one_run]
    assert [(s.value, s.reason) for s in chunked] == [(s.value, s.reason) for s in one_run]
    assert one_run[0].value == pytest.approx(1.0) and one_run[1].reason == "tests_failed"
