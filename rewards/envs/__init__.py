"""Multi-turn environments: an episode is `reset(sample) -> observation`, then `step(action)
-> StepResult(observation, reward, done, info)` until done; the trajectory reward is the
final reward (any `Reward` of the reward config, on `final_answer()`) plus the weighted,
discounted step rewards. Built in: `number_guess` (the toy game), `python_tool` (a code
interpreter on the sandbox) and `python_menu` (python_tool with a menu of calls: the toy of
stateful tool use). `ToolCallReward` (`use: tool_call`) scores single-step tool use.
docs/environments.md."""

from rewards.envs._config import BUILTIN_ENVS, EnvConfig, env_factory
from rewards.envs._episode import (
    Episode,
    arun_episodes,
    cap_text,
    discounted_returns,
    run_episodes,
    score_trajectories,
    trajectory_returns,
    turn_metrics,
    turn_rewards,
    turn_token_rewards,
)
from rewards.envs._types import Environment, ScoredFinal, StepResult, Trajectory, Turn
from rewards.envs.tool_calls import (
    ToolCall,
    ToolCallReward,
    as_calls,
    match_calls,
    parse_tool_calls,
)

__all__ = ["BUILTIN_ENVS", "EnvConfig", "Environment", "Episode", "ScoredFinal", "StepResult",
           "ToolCall", "ToolCallReward", "Trajectory", "Turn", "arun_episodes", "as_calls",
           "cap_text", "discounted_returns", "env_factory", "match_calls", "parse_tool_calls",
           "run_episodes", "score_trajectories", "trajectory_returns", "turn_metrics",
           "turn_rewards", "turn_token_rewards"]
