"""`python_tool` as a veRL tool, driven through veRL's own BaseTool lifecycle."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("verl.tools.base_tool")


def test_python_tool_lifecycle_in_verl():
    from verl.tools.base_tool import BaseTool
    from verl.tools.schemas import ToolResponse

    import sandbox
    from integrations.verl_env import PythonTool

    try:
        sandbox.run("print(1)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    tool = PythonTool({"type": "native", "tool_time_limit_s": 2})
    assert isinstance(tool, BaseTool) and tool.name == "python"
    schema = tool.get_openai_tool_schema().model_dump()
    assert schema["function"]["parameters"]["required"] == ["code"]

    async def episode():
        instance, _ = await tool.create()
        ok = await tool.execute(instance, {"code": "print(6 * 7)"})
        loop = await tool.execute(instance, {"code": "while True: pass"})
        bad = await tool.execute(instance, {"source": 1})
        reward = await tool.calc_reward(instance)
        await tool.release(instance)
        return ok, loop, bad, reward

    ok, loop, bad, reward = asyncio.run(episode())
    assert isinstance(ok[0], ToolResponse) and ok[0].text == "<output>\n42\n</output>"
    assert ok[2]["tool_errors"] == 0
    assert loop[2]["status"] == "timeout" and loop[2]["tool_seconds"] <= 2 + 1.0
    assert "string argument 'code'" in bad[0].text and bad[2]["tool_errors"] == 1
    assert reward == 0.0 and tool.calls == {}


def test_options_are_checked():
    from integrations.verl_env import PythonTool
    from rewards.errors import ConfigError

    with pytest.raises(ConfigError, match="did you mean 'tool_time_limit_s'"):
        PythonTool({"tool_time_limit": 2})


def test_markup_in_the_code_stays_the_program():
    """The code was wrapped in <code>...</code> and parsed again: `print("</code>")` ran cut
    at the tag (a syntax error)."""
    import sandbox
    from integrations.verl_env import PythonTool

    try:
        sandbox.run("print(1)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    tool = PythonTool({"type": "native", "tool_time_limit_s": 2})

    async def call(code):
        instance, _ = await tool.create()
        out = await tool.execute(instance, {"code": code})
        await tool.release(instance)
        return out

    for code, printed in [('print("</code>")', "</code>"),
                          ('print("<tool_call>x</tool_call>")', "<tool_call>x</tool_call>")]:
        response, _, metrics = asyncio.run(call(code))
        assert response.text == f"<output>\n{printed}\n</output>" and metrics["tool_errors"] == 0


def _verl_batch(layouts, prompt_len=3):
    """A veRL batch as its agent loop's `_postprocess` lays it out (veRL's agent loop module
    itself needs hydra, not installed here): response_mask 1 on the model's tokens, 0 on tool
    tokens; prompts left-padded and responses right-padded to one width; a `DataProto`."""
    import torch
    from verl import DataProto

    width = max(len(m) for m in layouts) + 2  # the batch's response_length, with padding
    responses = torch.zeros((len(layouts), width), dtype=torch.int64)
    response_mask = torch.zeros_like(responses)
    attention = torch.zeros((len(layouts), prompt_len + width), dtype=torch.int64)
    for i, mask in enumerate(layouts):
        responses[i, :len(mask)] = 5
        response_mask[i, :len(mask)] = torch.tensor(mask)
        attention[i, :prompt_len + len(mask)] = 1
    prompts = torch.full((len(layouts), prompt_len), 7, dtype=torch.int64)
    return DataProto.from_dict({"prompts": prompts, "responses": responses,
                                "response_mask": response_mask, "attention_mask": attention})


def test_per_turn_rewards_reach_verls_token_level_tensor_and_its_estimators():
    import numpy as np
    import torch
    from verl.experimental.reward_loop.reward_manager.base import RewardManagerBase
    from verl.trainer.ppo.core_algos import compute_gae_advantage_return

    from integrations.verl_env import PerTurnRewardManager
    from rewards.build import build_reward
    from rewards.config import parse_config
    from rewards.envs import EnvConfig, run_episodes
    from rewards.options import load_options
    from rewards.types import Sample

    config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 3,
                                      "step_penalty": 0.1}, where="test")
    reward = build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))
    actions = iter(["4", "7", "2", "1", "5"])
    won, lost = run_episodes(config, reward, [Sample("g", "", reference=7),
                                             Sample("g", "", reference=3)],
                             lambda messages: next(actions))
    assert won.turn_rewards == pytest.approx((-0.1, 0.9))
    # 2 turns and 3 turns: model tokens (1) and tool/observation tokens (0)
    layouts = [[1, 1, 0, 0, 1, 1, 1], [1, 0, 1, 1, 0, 0, 1, 1], [1, 1, 1]]
    data = _verl_batch(layouts)
    data.non_tensor_batch["turn_rewards"] = np.array(
        [list(won.turn_rewards), list(lost.turn_rewards), None], dtype=object)
    assert issubclass(PerTurnRewardManager, RewardManagerBase)
    scores = [won.reward, lost.reward, 0.5]  # the third row: a trajectory reward only
    rm = PerTurnRewardManager.assemble_rm_scores(data, scores)  # (bs, R)
    assert rm.shape == data.batch["responses"].shape
    assert rm[0].tolist() == pytest.approx([0, -0.1, 0, 0, 0, 0, 0.9, 0, 0, 0])
    assert rm[1].nonzero().squeeze(1).tolist() == [0, 3, 7]
    assert rm[2].tolist() == pytest.approx([0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0])  # veRL's own rule
    assert (rm * (1 - data.batch["response_mask"])).abs().sum() == 0  # no reward on tools
    # GRPO and RLOO sum the tensor: the trajectory reward (discount 1)
    assert rm.sum(-1).tolist() == pytest.approx(scores)
    # GAE with gamma = lambda = 1 and no critic: each turn's tokens get that turn's G_k
    _, returns = compute_gae_advantage_return(rm, torch.zeros_like(rm),
                                              data.batch["response_mask"], gamma=1.0, lam=1.0)
    for row, (trajectory, mask) in enumerate(zip((won, lost), layouts)):
        turn, previous = 0, 0
        for t, m in enumerate(mask):
            if m and not previous and t:
                turn += 1
            if m:
                assert returns[row, t].item() == pytest.approx(trajectory.returns[turn])
            previous = m
    # veRL's own placement for a batch that carries no turn rewards
    del data.non_tensor_batch["turn_rewards"]
    assert PerTurnRewardManager.assemble_rm_scores(data, scores).tolist() == \
        RewardManagerBase.assemble_rm_scores(data, scores).tolist()


def test_a_cut_off_turn_keeps_its_reward_on_verls_last_kept_token():
    import numpy as np

    from integrations.verl_env import rm_scores
    from rewards.errors import InputError

    data = _verl_batch([[1, 1, 0, 1]])  # veRL's response_length cut the third turn off
    data.non_tensor_batch["turn_rewards"] = np.array([[-0.1, -0.1, 0.9]], dtype=object)
    rm = rm_scores(data, [[-0.1, -0.1, 0.9]])
    assert rm[0].tolist() == pytest.approx([0, -0.1, 0, 0.8, 0, 0])
    with pytest.raises(InputError, match="2 rows of turn rewards for a batch of 1"):
        rm_scores(data, [[1.0], [1.0]])


def test_an_agent_loop_batch_gets_each_turn_on_its_token_and_abstentions_their_group_mean():
    """`place_turn_rewards` on a batch as veRL's `AgentLoopWorker` leaves it (`rm_scores`: each
    row's reward_score on its last token): turn rewards placed, an abstained row (`[]`) given
    its group's mean, a row of another agent loop (None) left as veRL placed it, and an empty
    response's score on veRL's last column (its sum is what GRPO reads)."""
    import numpy as np
    from verl.experimental.reward_loop.reward_manager.base import RewardManagerBase

    from integrations.verl_env import place_turn_rewards
    from rewards.errors import InputError

    layouts = [[1, 1, 0, 1], [1, 0, 1], [1, 1], [1, 1, 1], [], [1]]
    data = _verl_batch(layouts)
    scores = [0.8, -0.2, 0.0, 0.4, -1.0, 0.0]  # rows 2 and 4: abstain_score stand-ins
    data.batch["rm_scores"] = RewardManagerBase.assemble_rm_scores(data, scores)
    turns = [[-0.1, 0.9], [-0.1, -0.1], [], None, [], []]
    data.non_tensor_batch["turn_rewards"] = np.array(turns, dtype=object)
    groups = ["a", "a", "a", "b", "b", None]
    rm = place_turn_rewards(data, np.array(groups, dtype=object)).batch["rm_scores"]
    assert rm[0].tolist()[:4] == pytest.approx([0, -0.1, 0, 0.9])
    assert rm[1].tolist()[:3] == pytest.approx([-0.1, 0, -0.1])
    assert rm[2].tolist()[:2] == pytest.approx([0, 0.3])  # the mean of 0.8 and -0.2
    assert rm[3].tolist()[:3] == pytest.approx([0, 0, 0.4])  # veRL's placement, kept
    assert rm[4, -1].item() == pytest.approx(0.4) and rm[4, :-1].abs().sum() == 0
    assert rm[5].tolist()[:1] == pytest.approx([0.0])  # no group: keeps its score
    assert rm.sum(-1).tolist() == pytest.approx([0.8, -0.2, 0.3, 0.4, 0.4, 0.0])
    with pytest.raises(InputError, match="2 group ids for a batch of 6"):
        place_turn_rewards(data, ["a", "b"])
