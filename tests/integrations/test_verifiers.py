"""verifiers adapter: reward functions a classic `vf.Rubric` calls by signature, one per
component with its weight; a group's rollouts scored together, once for all functions."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from typing import Any

import integration_rewards  # type: ignore[import-not-found]
import pytest
from integration_helpers import write_config  # type: ignore[import-not-found]

from integrations.verifiers import reward_funcs, rubric

COMPLETIONS = ["So the answer is \\boxed{72}.", "It is \\boxed{70}.", "No idea."]


@pytest.fixture
def recorded_config(tmp_path: Path) -> Path:
    integration_rewards.BATCH_SIZES.clear()
    return write_config(tmp_path / "vf.yaml", """
domains:
  math:
    rewards:
      - use: math
      - {use: "integration_rewards:BatchRecorder", name: format, weight: 0.25, value: 0.5}
""")


def test_functions_have_rubric_signatures(recorded_config: Path) -> None:
    funcs, weights = reward_funcs(recorded_config)
    assert [f.__name__ for f in funcs] == ["math", "format"]
    assert weights == [1.0, 0.25]
    for func in funcs:
        params = set(inspect.signature(func).parameters)
        # a Rubric treats plural names (prompts, completions ...) as group functions
        assert not params & {"states", "prompts", "completions", "answers", "tasks", "infos"}
        assert {"prompt", "completion", "answer", "info"} <= params
        assert inspect.iscoroutinefunction(func)


def test_direct_calls_score_each_rollout_once(recorded_config: Path) -> None:
    math, fmt = reward_funcs(recorded_config)[0]

    async def main() -> list[float]:
        prompt = [{"role": "user", "content": "48 + 24?"}]
        calls = []
        for c in COMPLETIONS:
            completion = [{"role": "assistant", "content": c}]
            calls += [math(prompt=prompt, completion=completion, answer="72"),
                      fmt(prompt=prompt, completion=completion, answer="72")]
        return await asyncio.gather(*calls)

    assert asyncio.run(main()) == [1.0, 0.5, 0.0, 0.5, 0.0, 0.5]
    assert sum(integration_rewards.BATCH_SIZES) == 3  # 3 rollouts, not 6 calls
    assert len(integration_rewards.BATCH_SIZES) == 1


def test_real_rubric_scores_a_group(recorded_config: Path) -> None:
    vf = pytest.importorskip("verifiers")
    try:
        State = vf.State
        vf.Rubric  # noqa: B018  (the classic API: verifiers <= 0.3)
    except (AttributeError, ImportError) as exc:
        pytest.skip(f"this verifiers ({vf.__version__}) has no classic Rubric: {exc}")
    r = rubric(recorded_config)
    assert isinstance(r, vf.Rubric)
    states: list[Any] = [
        State({"input": {"prompt": [{"role": "user", "content": "48 + 24?"}], "answer": "72",
                         "info": {}, "example_id": 0},
               "completion": [{"role": "assistant", "content": c}], "trajectory": []})
        for c in COMPLETIONS]
    asyncio.run(r.score_group(states))
    assert [s["reward"] for s in states] == [1.125, 0.125, 0.125]
    assert [s["metrics"] for s in states] == [{"math": m, "format": 0.5} for m in (1.0, 0.0, 0.0)]
    assert integration_rewards.BATCH_SIZES == [3]  # the whole group in one batch


def test_abstention_scores_abstain_value(recorded_config: Path) -> None:
    math = reward_funcs(recorded_config, abstain_value=-1.0, abstain="zero")[0][0]
    value = asyncio.run(math(prompt="q", completion="\\boxed{1}", answer="\\frac{"))
    assert value == -1.0


def test_an_abstention_never_trains_as_a_number_unasked(recorded_config: Path) -> None:
    from rewards.errors import ConfigError, InputError

    masked = reward_funcs(recorded_config)[0][0]  # the default: mask
    with pytest.raises(ConfigError, match="Rubric cannot leave it out.*abstain='zero'"):
        asyncio.run(masked(prompt="q", completion="\\boxed{1}", answer="\\frac{"))
    raising = reward_funcs(recorded_config, abstain="raise")[0][0]
    with pytest.raises(InputError, match="bad_reference:unparseable"):
        asyncio.run(raising(prompt="q", completion="\\boxed{1}", answer="\\frac{"))
