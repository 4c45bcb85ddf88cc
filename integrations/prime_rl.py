"""Turn-level credit in the shape prime-rl trains on: verifiers' trajectory steps.

verifiers (before its `v1` API; prime-rl's orchestrator reads these) records a multi-turn
rollout as `trajectory: list[TrajectoryStep]`, one step per model call, each a dict with
`prompt`, `completion`, `response`, `tokens`, `reward: float | None`,
`advantage: float | None`, `is_truncated`, `trajectory_id` and `extras`. A step's `reward`
is where a per-turn reward goes: `with_turn_rewards` sets it to our turn's reward r'_k
(`Trajectory.turn_rewards`: the weighted step reward, the final reward added on the last
turn), step k for turn k, and leaves `advantage` to the trainer. An abstained episode's
steps get `reward: None` (verifiers' "not scored"), never 0.

prime-rl and verifiers < 0.4 do not install here (verifiers 0.4.0, installed, has the `v1`
API, whose traces carry trajectory-level `rewards` and per-token `advantages` only): the
shape is tested against steps written from verifiers' documented `TrajectoryStep` fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rewards.envs import Trajectory
from rewards.errors import InputError

__all__ = ["STEP_FIELDS", "turn_rewards_of", "with_turn_rewards"]

STEP_FIELDS = ("prompt", "completion", "response", "tokens", "reward", "advantage",
               "is_truncated", "trajectory_id", "extras")
"""verifiers' `TrajectoryStep` keys (its documented TypedDict)."""


def turn_rewards_of(trajectory: Trajectory) -> list[float | None]:
    """One reward per turn: `Trajectory.turn_rewards`, or None for each turn when the
    episode abstains."""
    if trajectory.reward is None:
        return [None] * len(trajectory.turns)
    return list(trajectory.turn_rewards)


def with_turn_rewards(steps: Sequence[Mapping[str, Any]], trajectory: Trajectory
                      ) -> list[dict[str, Any]]:
    """Copies of verifiers' `steps` (one per model call) with each `reward` set to its
    turn's reward; `InputError` when the steps are not one per turn of `trajectory`."""
    rewards = turn_rewards_of(trajectory)
    if len(steps) != len(rewards):
        raise InputError(f"{len(steps)} trajectory steps for an episode of {len(rewards)} "
                         "turns: give one step per model call of this episode",
                         field="trajectory")
    out = []
    for k, (step, reward) in enumerate(zip(steps, rewards)):
        if not isinstance(step, Mapping):
            raise InputError("a trajectory step must be a mapping (verifiers' "
                             "TrajectoryStep)", field=f"trajectory[{k}]")
        out.append({**step, "reward": reward})
    return out
