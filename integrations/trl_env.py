"""Our environments in TRL's multi-turn GRPO (`GRPOTrainer(environment_factory=...)`, TRL >=
1.x): TRL makes one environment object per rollout, calls `reset(**row)` (a returned string
is appended to the prompt), exposes the object's public methods as tools the model calls
through the chat template, and adds `get_reward()` as a reward source.

```python
from trl import GRPOTrainer
from integrations.trl import reward_funcs
from integrations.trl_env import trl_environment

trainer = GRPOTrainer(model=..., train_dataset=...,
                      environment_factory=trl_environment({"use": "python_tool"}),
                      reward_funcs=reward_funcs("reward.yaml"))   # the final answer
```

The tool each environment exposes: `python(code)` for `python_tool`, `guess(number)` for
`number_guess`, `act(action)` (the turn's text) for any other. Each call is one `step` of
a bounded `rewards.envs.Episode` (the same turn and observation bounds as our own loop);
after the episode ends a call answers that it is over. `get_reward()` is the weighted,
discounted sum of the step rewards; TRL scores the model's final answer with `reward_funcs`
(our `integrations.trl` adapter on the reward config), so the two together are our
trajectory reward with discount 1. An infrastructure failure inside a tool call makes
`get_reward()` return None (TRL's abstention)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from integrations._common import row_gold
from rewards.envs import EnvConfig, Episode, env_factory
from rewards.options import load_options
from rewards.types import Sample

__all__ = ["trl_environment"]

class _Episodic:
    """What every TRL environment of ours shares: reset, the step, get_reward."""

    # private names: TRL exposes every public function of the class as a tool
    _config: EnvConfig
    _make: Callable[[], Any]
    _reference_column: str | None = None

    def __init__(self) -> None:
        self._episode: Episode | None = None

    def reset(self, **row: Any) -> str | None:
        # the gold by the rule and the column the TRL reward functions use (`row_gold`,
        # `trl_environment(reference_column=...)` as `trl_rewards(reference_column=...)`), so
        # an episode and the reward of its final answer read the same gold (an ambiguous one
        # travels as `Sample.ambiguous_gold`, by which the final answer abstains)
        reference, ambiguity = row_gold(row, self._reference_column)
        sample = Sample(prompt=row.get("prompt", ""), completion="", reference=reference,
                        domain=str(row.get("domain") or "default"), ambiguous_gold=ambiguity)
        self._episode = Episode(self._make(), sample, self._config)
        return self._episode.start() or None

    def _act(self, action: str, *, call: str | None = None) -> str:
        """One step on `action`; `call`: the environment's method that takes the tool's
        argument as it is (TRL parsed the call already: nothing is re-wrapped or re-parsed)."""
        episode = self._episode
        if episode is None:
            return "error: the environment was not reset"
        if episode.done:
            return "The episode is over: give your final answer."
        tool = getattr(episode.env, call) if call is not None else None
        return episode.step(action, tool=tool).observation

    def get_reward(self) -> float | None:
        episode = self._episode
        if episode is None or episode.failure is not None:
            return None
        c = self._config
        return sum(c.step_weight * (c.discount ** k) * t.reward
                   for k, t in enumerate(episode.turns))


class _PythonTool(_Episodic):
    def python(self, code: str) -> str:
        """Run a Python program in a sandbox and return what it printed.

        Args:
            code: The complete Python program to run; print what you want to see.
        """
        return self._act(code, call="run_code")


class _NumberGuess(_Episodic):
    def guess(self, number: int) -> str:
        """Guess the secret number; the answer says Higher, Lower or Correct.

        Args:
            number: The guess.
        """
        return self._act(str(number))


class _Generic(_Episodic):
    def act(self, action: str) -> str:
        """Take one turn in the environment and return what it answers.

        Args:
            action: The text of the turn.
        """
        return self._act(action)


_TOOLS: dict[str, type[_Episodic]] = {"python_tool": _PythonTool, "number_guess": _NumberGuess}


def trl_environment(config: EnvConfig | Mapping[str, Any] | str, *,
                    reference_column: str | None = None) -> Callable[[], Any]:
    """An `environment_factory` for TRL's GRPOTrainer: each call makes one environment.
    `reference_column`: the dataset column that holds the gold, exactly as named (give the
    one `trl_rewards(reference_column=...)` is given); None reads the gold by the rule of
    every entry point (docs/datasets.md#the-gold-column). A row that lacks a named column
    is an `InputError` at `reset`."""
    if not isinstance(config, EnvConfig):
        config = load_options(EnvConfig, config, where="trl environment")
    base = _TOOLS.get(config.use, _Generic)
    make = env_factory(config)  # options checked now, not at the first rollout
    cls = type(f"{base.__name__.strip('_')}Environment", (base,),
               {"_config": config, "_make": staticmethod(make),
                "_reference_column": reference_column})
    return cls
