"""`python_tool` as a veRL tool, for veRL's multi-turn tool agent loop (veRL 0.9:
`verl.experimental.agent_loop.tool_agent_loop`, tools listed in a tool config YAML).

```yaml
# tool_config.yaml, named by actor_rollout_ref.rollout.multi_turn.tool_config_path
tools:
  - class_name: integrations.verl_env.PythonTool
    config: {type: native, tool_time_limit_s: 5, max_output_chars: 2000}
    # tool_schema: optional; the default is a `python(code)` function
```

Every call runs the code in a fresh sandbox jail with `python_tool`'s limits and returns what
it printed (capped) as the tool's response; a failing program (an exception, a timeout) is a
response, counted in the call's metrics. veRL 0.9's loop makes, executes and releases one
tool instance per call, so the per-episode budget of our own loop (`max_tool_calls`,
`episode_time_limit_s`) does not carry across calls: veRL's `max_assistant_turns` bounds the
calls of an episode and each costs at most `tool_time_limit_s`. A sandbox that cannot run
programs raises `rewards.errors.SandboxError`, which veRL's loop logs and answers with an
error message. The final answer is scored by our veRL `compute_score` (integrations.verl).

Turn-level credit (`advantage: per_turn`): veRL trains on a token-level reward tensor,
`rm_scores` (bs, response_length), which becomes `token_level_scores`; its advantage
estimators read it per token (GAE, REINFORCE++) or summed (GRPO, RLOO). `rm_scores` puts each
turn's reward (`Trajectory.turn_rewards`: its weighted step reward, the final reward added on
the last turn) on the last policy token of that turn (`response_mask` 1s; tool tokens and
padding get 0), by `rewards.envs.turn_token_rewards`. `PerTurnRewardManager` is veRL's reward
loop `naive` manager whose `assemble_rm_scores` (the hook veRL's `RewardLoopManager` builds
`rm_scores` with) does this for the rows that carry `turn_rewards` in their extra fields
(`AgentLoopOutput.extra_fields["turn_rewards"]`, which veRL's agent loop carries into the
batch), and veRL's own last-token placement for the others:

```yaml
reward:
  reward_manager: {source: importlib, name: PerTurnRewardManager,
                   module: {path: pkg://integrations.verl_env}}
```

veRL 0.9.1 calls `assemble_rm_scores` only where its `RewardLoopManager.compute_rm_score`
builds the rewards (a colocated reward model: `reward.reward_model.enable` without its own
resource pool). Without a reward model, veRL's agent loop scores each rollout inline and
puts the scalar on the last token itself (`AgentLoopWorker._postprocess`), with no hook;
there `place_turn_rewards` rewrites the batch after it, as
`integrations.verl_agent_loop.PerTurnAgentLoopManager` does for our `rewards_env` agent loop
(which needs hydra: that module imports veRL's agent loop module; this one does not).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import uuid4

from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager
from verl.tools.base_tool import BaseTool
from verl.tools.schemas import OpenAIFunctionToolSchema, ToolResponse

from rewards.envs import turn_token_rewards
from rewards.envs.python_tool import PythonToolEnv, PythonToolOptions
from rewards.errors import InputError
from rewards.options import load_options
from rewards.types import Sample

__all__ = ["PerTurnRewardManager", "PythonTool", "place_turn_rewards", "rm_scores"]

SCHEMA = {
    "type": "function",
    "function": {
        "name": "python",
        "description": "Run a Python program in a sandbox and return what it printed.",
        "parameters": {
            "type": "object",
            "properties": {"code": {"type": "string",
                                    "description": "The complete program; print what you "
                                                   "want to see."}},
            "required": ["code"],
        },
    },
}


class PythonTool(BaseTool):
    """The `python` tool of veRL's tool agent loop, on our sandbox (module docstring)."""

    def __init__(self, config: dict[str, Any], tool_schema: OpenAIFunctionToolSchema | None
                 = None) -> None:
        options = {k: v for k, v in dict(config or {}).items() if k != "type"}
        self.options = load_options(PythonToolOptions, options, where="veRL python tool")
        self.config = config
        self.tool_schema = tool_schema or OpenAIFunctionToolSchema.model_validate(SCHEMA)
        self.name = self.tool_schema.function.name
        self.calls: dict[str, int] = {}

    def get_openai_tool_schema(self) -> OpenAIFunctionToolSchema:
        return self.tool_schema

    async def create(self, instance_id: str | None = None, **kwargs: Any
                     ) -> tuple[str, ToolResponse]:
        instance_id = instance_id or str(uuid4())
        self.calls[instance_id] = 0
        return instance_id, ToolResponse()

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any
                      ) -> tuple[ToolResponse, float, dict[str, Any]]:
        import asyncio

        code = parameters.get("code") if isinstance(parameters, dict) else None
        if not isinstance(code, str):
            return ToolResponse(text="error: the tool needs a string argument 'code'"), 0.0, \
                {"tool_errors": 1}
        env = PythonToolEnv(self.options)
        env.reset(Sample(prompt="", completion=""))
        result = await asyncio.to_thread(env.run_code, code)  # the code as it is
        self.calls[instance_id] = self.calls.get(instance_id, 0) + 1
        return ToolResponse(text=result.observation.strip()), float(result.reward), \
            dict(result.info)

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        return 0.0  # the tool gives no step reward; the final answer is scored

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        self.calls.pop(instance_id, None)


def rm_scores(data: Any, turn_rewards: Sequence[Sequence[float] | None],
              scores: Sequence[float] | None = None,
              turn_ends: Sequence[Sequence[int] | None] | None = None) -> Any:
    """veRL's token-level reward tensor (bs, response_length) for the batch `data` (a
    `DataProto` with `prompts`, `responses`, `attention_mask` and `response_mask`): row i's
    `turn_rewards[i]` each on the last token of its turn's run of policy tokens. A row whose
    turn rewards are None takes `scores[i]` on its last valid token, as veRL places a
    trajectory reward (`RewardManagerBase.assemble_rm_scores`); so does a row whose turn
    rewards are empty (an abstained episode's `Trajectory.turn_rewards`): its score is then
    the trainer's mask for it (`integrations.verl`, `abstain: mask`), never a reward of 0.
    `turn_ends[i]`, where the rollout recorded them (`integrations.verl_agent_loop`), are
    row i's turns' last tokens in the response: turns that no observation token separates
    are then still told apart (`turn_token_rewards`). A row that cannot carry its turn
    rewards is an `InputError` naming the row."""
    import torch

    batch = data.batch
    prompt_length = batch["prompts"].size(1)
    valid = batch["attention_mask"][:, prompt_length:]  # (bs, R): 0 on padding
    policy = (batch["response_mask"] * valid).tolist()  # (bs, R): 1 on the model's tokens
    if len(turn_rewards) != len(policy):
        raise InputError(f"{len(turn_rewards)} rows of turn rewards for a batch of "
                         f"{len(policy)}", field="turn_rewards")
    if turn_ends is not None and len(turn_ends) != len(policy):
        raise InputError(f"{len(turn_ends)} rows of turn ends for a batch of "
                         f"{len(policy)}", field="turn_ends")
    out = torch.zeros_like(batch["responses"], dtype=torch.float32)  # (bs, R)
    lengths = valid.sum(dim=1).tolist()  # (bs,)
    for i, rewards in enumerate(turn_rewards):
        if rewards is not None and len(rewards):
            try:
                ends = None if turn_ends is None else turn_ends[i]
                out[i] = torch.tensor(turn_token_rewards(
                    policy[i], list(rewards), None if ends is None else list(ends)))
            except InputError as exc:
                raise InputError(f"row {i}: {exc.detail}", field=f"turn_rewards[{i}]") from exc
        elif scores is not None:  # an empty response: veRL's index -1 (the last column),
            out[i, int(lengths[i]) - 1] = float(scores[i])  # so a sum still sees its score
    return out


def place_turn_rewards(data: Any, groups: Sequence[Any] | None = None) -> Any:
    """A veRL agent-loop batch (`AgentLoopWorker`'s output: its `rm_scores` holds each row's
    `reward_score` on the last token) with each turn's reward on its own last token, for the
    rows that carry `turn_rewards` (`integrations.verl_agent_loop`); the others keep veRL's
    placement. A row whose turn rewards are empty abstained: it gets the mean score of the
    rows of its group (`groups[i]`, veRL's `uid`) that did not, so its group-relative
    advantage is 0 and the baseline is unchanged, as `compute_score_batch` masks (`abstain:
    mask`); a group where every row abstained keeps the scores it has. Returns `data`."""
    from integrations.verl import _mask_by_group_mean

    column = data.non_tensor_batch.get("turn_rewards")
    if column is None or "rm_scores" not in data.batch.keys():  # noqa: SIM118 - a TensorDict
        return data
    turns = [None if r is None else list(r) for r in column]
    ends = data.non_tensor_batch.get("turn_ends")
    scores = data.batch["rm_scores"].sum(dim=-1).tolist()  # (bs,): veRL's one score per row
    keys = [None] * len(turns) if groups is None else [None if g is None else str(g)
                                                      for g in groups]
    if len(keys) != len(turns):
        raise InputError(f"{len(keys)} group ids for a batch of {len(turns)}", field="uid")
    results = [{"score": s, "abstained": t is not None and not t} for s, t in zip(scores, turns)]
    _mask_by_group_mean([Sample("", "", group=k) for k in keys], results)
    data.batch["rm_scores"] = rm_scores(data, turns, [r["score"] for r in results],
                                        None if ends is None else list(ends))
    return data


class PerTurnRewardManager(NaiveRewardManager):
    """veRL's reward loop `naive` manager, with each turn's reward on its own last token
    for the rows that carry `turn_rewards` (module docstring)."""

    @classmethod
    def assemble_rm_scores(cls, data: Any, scores: list[float]) -> Any:
        column = data.non_tensor_batch.get("turn_rewards")
        if column is None:
            return super().assemble_rm_scores(data, scores)
        ends = data.non_tensor_batch.get("turn_ends")
        return rm_scores(data, [None if r is None else list(r) for r in column], scores,
                         None if ends is None else list(ends))
