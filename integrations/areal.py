"""AReaL: a reward function for its RLVR workflows.

AReaL's `RLVRWorkflow(reward_fn=...)` calls `reward_fn(prompt, completions, prompt_ids,
completion_ids, **task_data)` once per rollout (`completions` is the one decoded completion,
`task_data` the dataset row) through `AsyncRewardWrapper`, which runs it in a
`ProcessPoolExecutor`: the function must be picklable, and each worker process builds the
reward once. Pass `reward_fn="integrations.areal.reward_fn"` (config from `$REWARDS_CONFIG`, which
the worker processes inherit) or an `AReaLReward("reward.yaml")` object.

The return value is a float (AReaL needs a number for every rollout), so an abstention cannot
be left out: `abstain="mask"` (the default) raises a `ConfigError` naming the cause, so that an
abstention never trains as 0 unasked; `abstain="zero"` scores it `abstain_value`;
`abstain="raise"` raises an `InputError` naming the sample.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from integrations._common import (
    AbstainMode,
    check_abstain_mode,
    check_rollout_abstention,
    resolve_reward,
    row_sample,
)
from rewards.scoring import score_batch

__all__ = ["AReaLReward", "reward_fn"]


class AReaLReward:
    """A picklable AReaL reward function for one reward config (built lazily per process)."""

    def __init__(self, config: str | Path | None = None, *, reference_key: str | None = None,
                 domain_key: str = "domain", abstain_value: float = 0.0,
                 abstain: AbstainMode = "mask") -> None:
        """`config`: a reward config path (None: `$REWARDS_CONFIG`). `reference_key`: the
        dataset field with the gold (None: the first of reference, solution, answer,
        ground_truth, label). `domain_key`: the field naming the row's domain."""
        self.config = None if config is None else str(config)
        self.reference_key = reference_key
        self.domain_key = domain_key
        self.abstain_value = abstain_value
        check_abstain_mode(abstain)
        self.abstain = abstain

    def __call__(self, prompt: Any, completions: Any, prompt_ids: Sequence[int] | None = None,
                 completion_ids: Sequence[int] | None = None, **kwargs: Any) -> float:
        resolved = resolve_reward(self.config)  # cached per process, per path and mtime
        resolved.check_per_rollout("AReaL's reward_fn", "set normalize: none (AReaL's own "
                                   "group advantages then apply to the weighted sum)")
        # `kwargs` is the dataset row (AReaL's task_data): its other columns travel in meta
        sample = row_sample(resolved, prompt, completions, kwargs,
                            reference_column=self.reference_key, domain_column=self.domain_key)
        score = score_batch(resolved.raw, [sample]).scores[0]
        resolved.observe([sample], [score])  # a misconfigured run raises (see docs)
        check_rollout_abstention(sample, score, score.value, self.abstain, framework="AReaL",
                                 mask_hint="pass abstain='zero' to score it abstain_value")
        return self.abstain_value if score.value is None else float(score.value)

    def __repr__(self) -> str:
        return f"AReaLReward({self.config!r})"


def reward_fn(prompt: Any, completions: Any, prompt_ids: Sequence[int] | None = None,
              completion_ids: Sequence[int] | None = None, **kwargs: Any) -> float:
    """AReaL's reward function signature, scoring with the config in `$REWARDS_CONFIG`."""
    return _DEFAULT(prompt, completions, prompt_ids, completion_ids, **kwargs)


_DEFAULT = AReaLReward()
