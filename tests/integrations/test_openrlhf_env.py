"""Our environments through OpenRLHF's own multi-turn rollout (where openrlhf imports): its
`_load_agent_executor` loads `integrations/openrlhf_env.py` by path as
`--train.agent_func_path` does, and its `MultiTurnAgentExecutor.execute` runs the episode
(tokenizing, the action ranges, summing the steps' rewards). A scripted generator stands in
for vLLM."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("openrlhf.utils.agent")


class ScriptedTurns:
    """Stands in for OpenRLHF's vLLM engine: each `generate` returns the next scripted turn."""

    def __init__(self, tokenizer: Any, turns: list[str]) -> None:
        self.tokenizer, self.turns = tokenizer, iter(turns)

    async def generate(self, prompt_token_ids: list[int], sampling_params: Any,
                       multi_modal_data: Any = None) -> Any:
        text = next(self.turns)
        ids = self.tokenizer.encode(text, add_special_tokens=False)
        return SimpleNamespace(outputs=[SimpleNamespace(token_ids=ids, text=text,
                                                        finish_reason="stop", logprobs=None)])


@pytest.fixture
def executor(tmp_path: Path, math_config: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from openrlhf.trainer.ray.vllm_engine import _load_agent_executor

    import integrations.openrlhf_env as module

    env = tmp_path / "env.yaml"
    env.write_text("environment: {use: number_guess, max_turns: 3, step_penalty: 0.1, "
                   "discount: 0.5}\n")
    monkeypatch.setenv("REWARDS_ENV_CONFIG", str(env))
    monkeypatch.setenv("REWARDS_CONFIG", str(math_config))
    return _load_agent_executor(module.__file__)  # as --train.agent_func_path loads it


def _run(executor: Any, tiny_lm_dir: Path, label: Any, turns: list[str]) -> dict[str, Any]:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tiny_lm_dir))
    params = SimpleNamespace(max_tokens=64, logprobs=None)
    return asyncio.run(executor.execute("Guess a number from 1 to 8. ", label, params, 1024,
                                        tokenizer, ScriptedTurns(tokenizer, turns)))


def test_openrlhf_sums_our_per_turn_rewards_to_the_trajectory_reward(
        executor: Any, tiny_lm_dir: Path) -> None:
    from openrlhf.utils.agent import MultiTurnAgentExecutor

    assert isinstance(executor, MultiTurnAgentExecutor)
    out = _run(executor, tiny_lm_dir, "7", ["4", "7"])
    # r' = (-0.1, -0.1 + 1.0), discount 0.5: G_0 = -0.1 + 0.5 * 0.9
    assert out["reward"] == pytest.approx(0.35) and out["scores"] == pytest.approx(0.35)
    assert len(out["action_ranges"]) == 2  # one per turn, each the model's tokens
    assert out["extra_logs"]["reward/abstained"] == 0.0
    lost = _run(executor, tiny_lm_dir, "2", ["5", "4", "3"])  # out of turns: final 0
    assert lost["reward"] == pytest.approx(-0.1 - 0.05 - 0.025)


def test_each_step_carries_its_own_turns_discounted_reward(math_config: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    from integrations.openrlhf_env import AgentInstance

    env = tmp_path / "env.yaml"
    env.write_text("environment: {use: number_guess, max_turns: 4, step_penalty: 0.1, "
                   "discount: 0.5}\n")
    monkeypatch.setenv("REWARDS_ENV_CONFIG", str(env))
    monkeypatch.setenv("REWARDS_CONFIG", str(math_config))

    async def episode() -> list[dict[str, Any]]:
        agent = AgentInstance()
        await agent.reset({"observation": "Guess. ", "label": "3"})
        steps = [await agent.step({"action_text": a}) for a in ("1", "2", "3")]
        steps.append(await agent.step({"action_text": "3"}))  # after the end: refused
        return steps

    steps = asyncio.run(episode())
    assert [s["rewards"].item() for s in steps] == pytest.approx(
        [-0.1, -0.05, 0.25 * 0.9, 0.0])
    assert [s["done"] for s in steps] == [False, False, True, True]
    assert steps[2]["scores"].item() == pytest.approx(-0.1 - 0.05 + 0.225)


def test_an_abstained_episode_is_masked_as_get_reward_masks(executor: Any, tiny_lm_dir: Path
                                                            ) -> None:
    from integrations.openrlhf import MASK_SCORE

    out = _run(executor, tiny_lm_dir, "not a number", ["4"])  # the game cannot start
    assert out["reward"] == 0.0 and out["scores"] == MASK_SCORE
