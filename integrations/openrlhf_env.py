"""Our environments in OpenRLHF's multi-turn rollouts, with turn-level credit.

OpenRLHF (0.11, `openrlhf/utils/agent.py`) runs a multi-turn episode through the file named
by `--train.agent_func_path`: it loads the file's `AgentExecutor` (a subclass of its
`MultiTurnAgentExecutor`), which makes one `AgentInstance` per prompt, calls
`reset({"observation": prompt, "label": label})`, then after each generation
`step({"observation_text", "action_text", "label", ...})` and reads `rewards`, `scores`,
`environment_feedback`, `done` and `extra_logs` from what it returns. Its rollout's reward
is the sum of the steps' `rewards`; `scores` (of the last step) feed dynamic filtering.

```bash
export REWARDS_ENV_CONFIG=env.yaml REWARDS_CONFIG=reward.yaml   # in the Ray workers' env
--train.agent_func_path $(python -c "import integrations.openrlhf_env as m; print(m.__file__)")
```

Each `step` is one turn of a bounded `rewards.envs.Episode` (our loop's turn and text bounds);
the environment's observation is the feedback. A step's `rewards` is its turn's reward r'_k
(`Trajectory.turn_rewards`: the weighted step reward, the final reward added on the last
turn) times discount^k, so OpenRLHF's sum is our trajectory reward G_0 (to float rounding), and the
reward of turn k arrives with turn k. OpenRLHF 0.11 keeps the turns' token ranges
(`action_ranges`) but trains on the summed reward: it has no per-token reward to take.

An episode that abstains (broken infrastructure) is handled as the `/get_reward` protocol
handles one (`integrations.openrlhf`): its last step's `scores` is `MASK_SCORE` (dynamic
filtering drops the group) and its `rewards` bring the sum to 0. A step after the episode
ended is refused (`done`, reward 0). OpenRLHF ends an episode itself when its token budget
runs out, before `done`: such an episode keeps the step rewards it got and no final reward
(OpenRLHF calls nothing then), so bound episodes by the environment's `max_turns`.
"""

from __future__ import annotations

from typing import Any

from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

from integrations._common import ENV_CONFIG_ENV, env_config, labelled_sample, resolve_reward
from integrations.openrlhf import MASK_SCORE
from rewards.envs import Episode, env_factory, score_trajectories

__all__ = ["ENV_CONFIG_ENV", "AgentExecutor", "AgentInstance"]

class AgentInstance(AgentInstanceBase):
    """One episode of the environment in `$REWARDS_ENV_CONFIG`, its final answer scored by
    the reward config in `$REWARDS_CONFIG` (module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.config = env_config(where="OpenRLHF's agent")
        self.resolved = resolve_reward(None)
        self.episode: Episode | None = None
        self.paid = 0.0  # the sum of the rewards given so far
        self.scored = False  # the episode ended and its trajectory was scored

    async def reset(self, states: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        prompt = states.get("observation", "")
        sample = labelled_sample(self.resolved, prompt, "", states.get("label"))
        self.episode = Episode(env_factory(self.config)(), sample, self.config)
        self.paid, self.scored = 0.0, False
        return {"observation": prompt + self.episode.start()}

    async def step(self, state_dict: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        episode = self.episode
        if episode is None or self.scored:  # after the end: nothing more is paid
            return self._reply(0.0, 0.0, "", {})
        feedback, reward = "", 0.0
        if not episode.done:  # (an episode whose reset failed is done already: it abstains)
            action = state_dict.get("action_text")
            result = await episode.astep(action if isinstance(action, str) else "")
            k = len(episode.turns) - 1  # this turn's index
            feedback = result.observation
            reward = (self.config.discount ** k) * self.config.step_weight * result.reward
        if not episode.done:
            self.paid += reward
            return self._reply(reward, self.paid, feedback, {})
        self.scored = True
        trajectory, = score_trajectories([episode], self.resolved.reward)
        logs = {"reward/abstained": float(trajectory.reward is None),
                "turn/turns": float(len(trajectory.turns))}
        if trajectory.reward is None:  # abstains: masked as the /get_reward form does
            return self._reply(-self.paid, MASK_SCORE, feedback, logs)
        # the last turn's discounted reward, taken as what brings the sum to G_0
        return self._reply(trajectory.reward - self.paid, trajectory.reward, feedback, logs)

    def _reply(self, reward: float, score: float, feedback: str, logs: dict[str, Any]) -> dict[str, Any]:
        import torch

        # float64: OpenRLHF reads each with `.item()` and sums them in Python floats
        return {"rewards": torch.tensor(reward, dtype=torch.float64),
                "scores": torch.tensor(score, dtype=torch.float64),
                "environment_feedback": feedback, "done": self.scored, "extra_logs": logs}


class AgentExecutor(MultiTurnAgentExecutor):
    """What OpenRLHF's `--train.agent_func_path` loads: its executor over `AgentInstance`."""

    def __init__(self) -> None:
        super().__init__(AgentInstance)
