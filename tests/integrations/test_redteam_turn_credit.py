"""Red team of turn-level credit (issue #38): `rewards.envs.turn_rewards` and
`turn_token_rewards`, veRL's `rm_scores` / `PerTurnRewardManager`, the OpenRLHF agent
(`integrations.openrlhf_env`) and prime-rl's `with_turn_rewards`, attacked with the classes of
/work/shared/ATTACK-CLASSES.md that reach them: the credit math (per-token sums equal the
trajectory reward, turns cut off by the trainer, masks with no policy token or more turns
than the episode), abstentions (each trainer's own mask, never a reward of 0), a plugin
environment's NaN and inf step rewards, and malformed or special-token model text.

Holes found and fixed at the root: an abstained episode's empty turn rewards became a row of
zeros in veRL's tensor (a reward of 0: now `InputError` in `turn_token_rewards`, and
`rm_scores` gives the row its score, the trainer's mask); a NaN or inf step reward flowed
into every sum and advantage (now the plugin's error: the episode abstains, reason `error`);
a row that cannot carry its rewards raised without naming the row (now `turn_rewards[i]`)."""

from __future__ import annotations

import asyncio
import math
import random
from pathlib import Path
from typing import Any

import pytest

from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import EnvConfig, StepResult, run_episodes, turn_token_rewards
from rewards.errors import EngineError, InputError
from rewards.options import load_options
from rewards.types import Sample


class FlakyEnv:
    """Its infrastructure fails on the second turn: the episode abstains (`env_error`)."""

    name = "flaky"

    def reset(self, sample: Sample) -> str:
        self.turns, self.last = 0, ""
        return ""

    def step(self, action: str) -> StepResult:
        self.turns += 1
        if self.turns == 2:
            raise EngineError("the engine behind this environment is down")
        self.last = action
        return StepResult("go on", -0.1)

    def final_answer(self) -> str:
        return self.last


class NanEnv(FlakyEnv):
    """A plugin whose second step reward is NaN (`REWARD` below: NaN, inf or -inf)."""

    REWARD = float("nan")

    def step(self, action: str) -> StepResult:
        self.turns += 1
        self.last = action
        return StepResult("go on", -0.1 if self.turns == 1 else self.REWARD)


class InfEnv(NanEnv):
    REWARD = float("-inf")


class EchoEnv(FlakyEnv):
    """Never ends by itself; echoes each turn verbatim; the final answer is the last turn."""

    def step(self, action: str) -> StepResult:
        self.last = action
        return StepResult(action, 0.0)


def _config(use: str, **options: Any) -> EnvConfig:
    if use != "number_guess":
        use = f"{__name__}:{use}"
    return load_options(EnvConfig, {"use": use, "max_turns": 3, **options}, where="t")


def _reward() -> Any:
    return build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))


def _play(use: str, actions: list[str], reference: Any = 7, **options: Any) -> Any:
    it = iter(actions)
    trajectory, = run_episodes(_config(use, **options), _reward(),
                               [Sample("g", "", reference=reference)], lambda m: next(it))
    return trajectory


# --- the credit math -------------------------------------------------------------------------

def _runs(mask: list[int]) -> list[int]:
    return [i for i, m in enumerate(mask) if m and (i + 1 == len(mask) or not mask[i + 1])]


@pytest.mark.parametrize("seed", range(5))
def test_per_token_rewards_sum_to_the_episodes_and_sit_only_on_turn_ends(seed: int) -> None:
    """Random layouts (policy runs between environment runs, padding), random rewards, and
    trainers that cut the last turns off: the per-token rewards sum to the sum of the turn
    rewards (nothing lost), and only the last policy token of a kept turn carries any."""
    rng = random.Random(seed)
    for _ in range(300):
        turns = rng.randint(1, 6)
        rewards = [rng.uniform(-2, 2) for _ in range(turns)]
        mask: list[int] = [0] * rng.randint(0, 3)
        for _ in range(turns):
            mask += [1] * rng.randint(1, 5) + [0] * rng.randint(1, 4)
        cut = rng.randint(1, len(mask))
        while not any(mask[:cut]):
            cut += 1
        mask = mask[:cut]  # the trainer's response length cut the sequence here
        out = turn_token_rewards(mask, rewards)
        assert len(out) == len(mask)
        assert math.fsum(out) == pytest.approx(math.fsum(rewards), abs=1e-9)
        ends = _runs(mask)
        assert all(v == 0.0 for i, v in enumerate(out) if i not in ends)
        assert out[ends[0]] == rewards[0] or len(ends) == 1


def test_masks_that_are_not_this_episodes_are_refused_naming_the_field() -> None:
    with pytest.raises(InputError, match="3 policy turns for an episode of 2") as more:
        turn_token_rewards([1, 0, 1, 0, 1], [0.5, 0.5])
    assert more.value.field == "action_mask"
    for mask in ([], [0], [0, 0, 0, 0]):  # no policy token can carry the reward
        with pytest.raises(InputError, match="no policy token"):
            turn_token_rewards(mask, [1.0])
    with pytest.raises(InputError, match="abstained") as none:  # never a row of zeros
        turn_token_rewards([1, 1, 0, 1], [])
    assert none.value.field == "turn_rewards"
    for bad in (math.nan, math.inf, -math.inf):  # given by hand: never spread into a row
        with pytest.raises(InputError, match="not a finite number"):
            turn_token_rewards([1, 0, 1], [0.5, bad])


def test_the_episodes_turn_rewards_are_its_trajectory_reward() -> None:
    """With discount 1 the turn rewards sum to G_0, on a won, a lost (out of turns) and a
    malformed-turn episode; truncation by `max_turns` is data (scored), never an
    abstention."""
    for actions, reference in ((["4", "7"], 7), (["1", "2", "3"], 7),
                               (["<|im_end|>", "", "\u200b7"], 7)):
        trajectory = _play("number_guess", actions, reference, step_penalty=0.1)
        assert trajectory.reward is not None
        assert math.fsum(trajectory.turn_rewards) == pytest.approx(trajectory.reward)
        assert len(trajectory.turn_rewards) == len(trajectory.turns)


# --- a plugin's numbers ----------------------------------------------------------------------

@pytest.mark.parametrize("use", ["NanEnv", "InfEnv"])
def test_a_non_finite_step_reward_ends_the_episode_as_the_plugins_error(use: str) -> None:
    """NaN or inf from a plugin environment never reaches a turn reward, a return or a
    trainer: the episode ends as the plugin's bug (reason `error`) and abstains."""
    trajectory = _play(use, ["1", "2", "3"], reference="1")
    assert trajectory.reward is None and trajectory.reason == "error"
    assert trajectory.turn_rewards == () and trajectory.returns == ()
    assert all(math.isfinite(t.reward) for t in trajectory.turns)


# --- veRL ------------------------------------------------------------------------------------

def _verl_batch(layouts: list[list[int]]) -> Any:
    """A veRL DataProto: a 2-token prompt, responses of 10 slots (padding after each)."""
    torch = pytest.importorskip("torch")
    from verl import DataProto

    bs, length = len(layouts), 10
    response_mask = torch.zeros(bs, length, dtype=torch.long)
    attention = torch.zeros(bs, 2 + length, dtype=torch.long)
    attention[:, :2] = 1
    for i, layout in enumerate(layouts):
        response_mask[i, :len(layout)] = torch.tensor(layout)
        attention[i, 2:2 + len(layout)] = 1
    return DataProto.from_dict({"prompts": torch.ones(bs, 2, dtype=torch.long),
                                "responses": torch.ones(bs, length, dtype=torch.long),
                                "attention_mask": attention, "response_mask": response_mask})


def test_verl_an_abstained_row_takes_its_score_never_zeros() -> None:
    """A row whose turn rewards are an abstained trajectory's (empty) gets its score, the
    value veRL's abstention mask gave it, on its last token, as a row without turn rewards
    does; before the fix it was a row of zeros (a reward of 0 that trains)."""
    pytest.importorskip("verl.experimental.reward_loop.reward_manager.naive")
    import numpy as np

    from integrations.verl_env import PerTurnRewardManager, rm_scores

    abstained = _play("FlakyEnv", ["1", "2"], reference="1")
    assert abstained.reward is None and abstained.turn_rewards == ()
    won = _play("number_guess", ["4", "7"], 7, step_penalty=0.1)
    data = _verl_batch([[1, 1, 0, 1], [1, 0, 0, 1, 1]])
    data.non_tensor_batch["turn_rewards"] = np.array(
        [list(won.turn_rewards), list(abstained.turn_rewards)], dtype=object)
    masked = 0.35  # what the trainer's mask gave the abstained row (e.g. its group mean)
    rm = PerTurnRewardManager.assemble_rm_scores(data, [won.reward, masked])
    assert rm[0].tolist() == pytest.approx([0, -0.1, 0, 0.9, 0, 0, 0, 0, 0, 0])
    assert rm[1].tolist() == pytest.approx([0, 0, 0, 0, masked, 0, 0, 0, 0, 0])
    assert rm_scores(data, [list(won.turn_rewards), []], [won.reward, masked])[1].sum() \
        == pytest.approx(masked)


def test_verl_a_row_with_no_policy_token_is_refused_naming_the_row() -> None:
    pytest.importorskip("verl.experimental.reward_loop.reward_manager.naive")
    from integrations.verl_env import rm_scores

    data = _verl_batch([[1, 0, 1], [0, 0, 0, 0]])
    with pytest.raises(InputError, match="row 1: the action mask holds no policy token") \
            as refused:
        rm_scores(data, [[0.1, 0.9], [1.0]])
    assert refused.value.field == "turn_rewards[1]"


# --- OpenRLHF --------------------------------------------------------------------------------

def _agent_steps(use: str, actions: list[Any], label: str, math_config: Path, tmp_path: Path,
                 monkeypatch: pytest.MonkeyPatch, **options: Any) -> list[dict[str, Any]]:
    pytest.importorskip("openrlhf.utils.agent")
    import json

    from integrations.openrlhf_env import AgentInstance

    if use != "number_guess":
        use = f"{__name__}:{use}"
    env = tmp_path / "env.yaml"
    env.write_text("environment: " + json.dumps({"use": use, "max_turns": 3, **options}))
    monkeypatch.setenv("REWARDS_ENV_CONFIG", str(env))
    monkeypatch.setenv("REWARDS_CONFIG", str(math_config))

    async def episode() -> list[dict[str, Any]]:
        agent = AgentInstance()
        await agent.reset({"observation": "Guess. ", "label": label})
        return [await agent.step({"action_text": a}) for a in actions]

    return asyncio.run(episode())


@pytest.mark.parametrize("use", ["FlakyEnv", "NanEnv", "InfEnv"])
def test_openrlhf_an_abstained_episode_is_its_mask_never_a_scored_0(
        use: str, math_config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Infrastructure failing mid-episode, or a plugin's NaN/inf step reward: the last
    step's `scores` is MASK_SCORE (OpenRLHF's dynamic filtering drops the group),
    `reward/abstained` is logged, every number is finite, and the rewards sum to the
    `/get_reward` form's abstain value (0) so nothing else leaks into the sum."""
    from integrations.openrlhf import MASK_SCORE

    steps = _agent_steps(use, ["1", "2", "3"], "1", math_config, tmp_path, monkeypatch,
                         discount=0.5)
    rewards = [s["rewards"].item() for s in steps]
    assert all(math.isfinite(r) for r in rewards)
    assert [s["done"] for s in steps] == [False, True, True]
    assert steps[1]["scores"].item() == MASK_SCORE
    assert steps[1]["extra_logs"]["reward/abstained"] == 1.0
    assert math.fsum(rewards) == 0.0
    assert steps[2]["rewards"].item() == 0.0  # after the end: nothing more is paid


def test_openrlhf_malformed_and_special_token_turns_score_and_stay_text(
        math_config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Turns that are not text at all (None, a number, a list), or hold special tokens:
    each is a scored turn (the echo shows the text verbatim), never an abstention; the
    steps' rewards sum to the trajectory reward the last `scores` reports."""
    special = "<|im_end|><|im_start|>assistant\n<tool_call>{}</tool_call>"
    steps = _agent_steps("EchoEnv", [None, special, 7], "7", math_config, tmp_path,
                         monkeypatch)
    assert steps[1]["environment_feedback"] == special
    assert steps[0]["environment_feedback"] == ""
    assert [s["done"] for s in steps] == [False, False, True]
    assert steps[-1]["scores"].item() != -1e9 and steps[-1]["extra_logs"][
        "reward/abstained"] == 0.0
    assert math.fsum(s["rewards"].item() for s in steps) == pytest.approx(
        steps[-1]["scores"].item())


# --- prime-rl --------------------------------------------------------------------------------

def _steps(n: int) -> list[dict[str, Any]]:
    return [{"prompt": [], "completion": [], "response": None, "tokens": None, "reward": 0.0,
             "advantage": None, "is_truncated": False, "trajectory_id": "t", "extras": {}}
            for _ in range(n)]


@pytest.mark.parametrize("use", ["FlakyEnv", "NanEnv"])
def test_prime_rl_an_abstained_episode_is_none_on_every_step_never_0(use: str) -> None:
    from integrations.prime_rl import with_turn_rewards

    trajectory = _play(use, ["1", "2", "3"], reference="1")
    assert trajectory.reward is None
    out = with_turn_rewards(_steps(len(trajectory.turns)), trajectory)
    assert [s["reward"] for s in out] == [None] * len(trajectory.turns)  # the 0.0 replaced


def test_prime_rl_steps_not_one_per_turn_or_not_mappings_are_refused() -> None:
    from integrations.prime_rl import with_turn_rewards

    trajectory = _play("number_guess", ["4", "7"], 7)
    with pytest.raises(InputError, match="3 trajectory steps for an episode of 2"):
        with_turn_rewards(_steps(3), trajectory)
    with pytest.raises(InputError) as refused:
        with_turn_rewards([_steps(1)[0], "step"], trajectory)
    assert refused.value.field == "trajectory[1]"
    out = with_turn_rewards(_steps(2), trajectory)
    assert math.fsum(s["reward"] for s in out) == pytest.approx(trajectory.reward)
