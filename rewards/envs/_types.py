"""The environment interface: `reset(sample) -> observation`, then `step(action) ->
StepResult(observation, reward, done, info)` until `done` (OpenEnv's and Gymnasium's shape,
with text observations and actions), and `final_answer()` for the final reward."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from rewards.types import Sample, Score

__all__ = ["Environment", "ScoredFinal", "StepResult", "Trajectory", "Turn"]


@dataclass(frozen=True)
class StepResult:
    """What one `step` returns."""

    observation: str = ""
    """Text the policy reads next (a tool's output, the game's answer); ignored once done."""
    reward: float = 0.0
    """This step's reward (e.g. a step penalty); weighted and discounted into the return."""
    done: bool = False
    """The episode is over: the final reward scores `final_answer()`."""
    info: Mapping[str, Any] = field(default_factory=dict)
    """Diagnostics; the counters `tool_calls` and `tool_errors` (ints) are summed into the
    `turn/...` metrics."""


@runtime_checkable
class Environment(Protocol):
    """One episode's state. A fresh object serves each episode (the factory of `EnvConfig`
    makes them), so nothing one episode does reaches another through the object.

    A policy-caused failure (a tool that errors, a call that does not parse, a wrong guess)
    is an observation, never an exception; an exception from `reset` or `step` is broken
    infrastructure and the episode abstains."""

    name: str

    def reset(self, sample: Sample) -> str:
        """Start the episode on `sample`; the text appended after the prompt ("" for none)."""
        ...

    def step(self, action: str) -> StepResult:
        """Apply the policy's `action` (the text of its turn)."""
        ...

    def final_answer(self) -> str:
        """The text the final reward scores as the completion (e.g. the last answer)."""
        ...

    # optional: `close()`, called once the episode is over (done, out of turns, stopped or
    # failed), for an environment holding something per episode (python_tool's session)


@runtime_checkable
class ScoredFinal(Protocol):
    """An environment whose episode is scored elsewhere (a remote environment server): its
    `final_score()` is the final reward's `Score`, used instead of scoring `final_answer()`
    here, so that a remote episode's final reward counts once. Its `step` rewards are the
    unweighted ones, weighted here by the config as a local environment's are."""

    def final_score(self) -> Score | None:
        """The final score the server gave, once the episode is done (None: not done)."""
        ...


@dataclass(frozen=True)
class Turn:
    """One policy turn and the environment's answer to it."""

    action: str
    observation: str
    reward: float
    info: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Trajectory:
    """A finished episode, scored."""

    sample: Sample
    turns: tuple[Turn, ...]
    final: Score
    """The final reward's score of `final_answer()`; value None: the episode abstains."""
    returns: tuple[float, ...]
    """Per-turn discounted returns G_k = sum_{j>=k} gamma^(j-k) r'_j, where r'_j is the
    weighted step reward of turn j, plus the final reward on the last turn; empty when the
    episode abstains."""
    reason: str = "ok"
    """ok | out_of_turns | the final score's reason | an infrastructure error's (abstains)."""
    turn_rewards: tuple[float, ...] = ()
    """The per-turn rewards r'_k the returns discount (`rewards.envs.turn_rewards`): what a
    trainer that takes a reward per turn or per token is given; empty when it abstains."""

    @property
    def reward(self) -> float | None:
        """The trajectory reward G_0 (None: abstains, masked out of the loss)."""
        if self.final.value is None or not self.returns:
            return None
        return self.returns[0]

    def counter(self, key: str) -> int:
        """The sum of an integer `info` counter over the turns (`tool_calls`, `tool_errors`)."""
        return sum(int(t.info.get(key, 0)) for t in self.turns)
