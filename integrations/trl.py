"""TRL: reward functions for `GRPOTrainer(reward_funcs=...)`.

```python
from integrations.trl import trl_rewards
rewards = trl_rewards("reward.yaml", reference_column="solution")
trainer = GRPOTrainer(model=..., train_dataset=...,
                      reward_funcs=rewards.funcs,
                      args=GRPOConfig(..., reward_weights=rewards.weights,
                                      multi_objective_aggregation=rewards.aggregation))
```

Each function has GRPOTrainer's signature `(prompts, completions, completion_ids=None,
**dataset_columns) -> list[float | None]` and takes plain or conversational completions. By
default there is one function per config component, named after it, so TRL logs
`rewards/<name>/mean`; TRL's weighted sum of them (`reward_weights` = the component weights,
`None` = abstain, skipped by TRL's nansum) is exactly the config's mixture without alpha.
Component values are computed once per batch and shared by all the functions. A domain's
`alpha` is folded into the weights (exact while neither side abstains entirely). Batch
normalization is TRL's own (group advantages), so `normalize: group` is left to TRL, and so
is `normalize: group_per_component`: `aggregation` is then `normalize_then_sum`, TRL's GDPO
(each function normalized in its group, the weighted sum normalized over the batch: the
config's formula, with TRL's n - 1 std). `normalize: zscore_by_domain` needs
`per_component=False`: one function returning the config's final value (normalized here,
over the batch TRL hands the function).

Nothing here imports TRL: the functions are plain callables.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from integrations._common import (
    AbstainMode,
    OnConfigAbstain,
    ResolvedReward,
    RewardSource,
    check_abstain_mode,
    raise_on_abstention,
    resolve_reward,
    row_sample,
)
from rewards.errors import ConfigError, InputError
from rewards.scoring import abstention_cause, score_batch
from rewards.stress import hack_metrics
from rewards.types import Sample, Score

__all__ = ["TRLRewards", "trl_rewards"]

RewardFunc = Callable[..., list[float | None]]


@dataclass(frozen=True)
class TRLRewards:
    """What to hand to TRL: `reward_funcs=funcs`, `GRPOConfig(reward_weights=weights)`."""

    funcs: tuple[RewardFunc, ...]
    """The reward functions, each with `__name__` set (TRL logs `rewards/<name>/mean`)."""
    weights: tuple[float, ...]
    """One weight per function, for `GRPOConfig.reward_weights`."""
    aggregation: str = "sum_then_normalize"
    """For `GRPOConfig.multi_objective_aggregation`: `normalize_then_sum` (TRL's GDPO) when
    the config says `normalize: group_per_component` and the functions are its components."""


_TRL_ARGUMENTS = frozenset({"completion_ids", "trainer_state", "log_extra", "log_metric"})
"""TRL's own arguments among the dataset columns a reward function gets, not the row's data."""


def trl_rewards(config: RewardSource = None, *, reference_column: str | None = None,
                domain_column: str = "domain", per_component: bool = True,
                log_reasons: bool = True, abstain: AbstainMode = "mask",
                on_config_abstain: OnConfigAbstain = "raise") -> TRLRewards:
    """Reward functions for TRL's GRPOTrainer from a reward config (None: `$REWARDS_CONFIG`).

    `reference_column`: the dataset column with the gold reference (None: the first present
    of reference, solution, answer, ground_truth, label). `domain_column`: the column naming
    each row's domain (absent: the config's only domain, else `default`). `log_reasons`: log
    each completion's reason (ok, wrong, no_answer ...) to TRL's completions table and the
    fraction of abstentions as the metric `rewards/abstained/frac` (and per cause,
    `rewards/abstained/<cause>/frac`). The trip-wires `hack/<class>` (docs/stress.md) are
    logged with TRL's metrics in any case.

    `abstain`: `mask` (default) returns None from every function for a sample that abstained,
    which GRPOTrainer treats as unscorable (left out of the group baseline, advantage 0);
    `zero` returns 0.0; `raise` raises `InputError`. `on_config_abstain`: a run whose rows
    abstain for a configuration cause (unknown domain, no reference) raises
    `ConfigurationAbstention`, or (`warn`) logs one warning.
    """
    check_abstain_mode(abstain, on_config_abstain)
    resolved = resolve_reward(config)
    scorer = _BatchScorer(resolved, reference_column=reference_column,
                          domain_column=domain_column, log_reasons=log_reasons,
                          normalized=not per_component, abstain=abstain,
                          on_config_abstain=on_config_abstain)
    if not per_component or resolved.config is None:
        return TRLRewards((_total_function(scorer, resolved.reward.name),), (1.0,))
    if resolved.normalize == "zscore_by_domain":
        raise ConfigError("normalize: zscore_by_domain cannot be split into per-component "
                          "TRL rewards; use trl_rewards(..., per_component=False)")
    components = resolved.components()
    qualify = len(resolved.config.domains) > 1
    funcs: list[RewardFunc] = []
    weights: list[float] = []
    for domain, name, weight in components:
        spec = resolved.config.domains[domain]
        if spec.alpha is not None:
            component = next(c for c in spec.rewards if c.name == name)
            kind = component.kind or "verifiable"
            weight *= spec.alpha if kind == "verifiable" else 1.0 - spec.alpha
        label = f"{domain}/{name}" if qualify else name
        funcs.append(_component_function(scorer, domain, name, label, first=not funcs))
        weights.append(weight)
    aggregation = ("normalize_then_sum" if resolved.normalize == "group_per_component"
                   else "sum_then_normalize")
    return TRLRewards(tuple(funcs), tuple(weights), aggregation)


class _BatchScorer:
    """Scores a TRL batch once; the per-component functions read their part of it."""

    def __init__(self, resolved: ResolvedReward, *, reference_column: str | None,
                 domain_column: str, log_reasons: bool, normalized: bool,
                 abstain: AbstainMode = "mask",
                 on_config_abstain: OnConfigAbstain = "raise") -> None:
        self.resolved = resolved
        self.abstain = abstain
        self.on_config_abstain = on_config_abstain
        self.missing = None if abstain == "mask" else 0.0
        """What a function returns for a sample that abstained."""
        self.reference_column = reference_column
        self.domain_column = domain_column
        self.log_reasons = log_reasons
        self.reward = resolved.reward if normalized else resolved.raw
        self._lock = threading.Lock()
        self._last: tuple[Any, list[Sample], list[Score]] | None = None

    def __call__(self, prompts: Sequence[Any], completions: Sequence[Any],
                 columns: dict[str, Any], *, fresh: bool) -> tuple[list[Sample], list[Score]]:
        """`fresh`: score even if the batch equals the last one (TRL calls the functions in
        order each step; the first one scores, so two equal steps are both scored and
        logged)."""
        samples = self._samples(prompts, completions, columns)
        key = tuple((repr(s.prompt), s.completion, s.turns, repr(s.reference), s.domain,
                     repr(dict(s.meta)), s.ambiguous_gold) for s in samples)
        with self._lock:
            if not fresh and self._last is not None and self._last[0] == key:
                return self._last[1], self._last[2]
            scores = score_batch(self.reward, samples).scores
            self._last = (key, samples, scores)
        if self.log_reasons:
            self._log(columns, samples, scores)
        _log_trip_wires(columns, samples, scores)
        self.resolved.observe(samples, scores, on_config_abstain=self.on_config_abstain)
        if self.abstain == "raise":
            raise_on_abstention(samples, scores)
        return samples, scores

    def _samples(self, prompts: Sequence[Any], completions: Sequence[Any],
                 columns: dict[str, Any]) -> list[Sample]:
        if len(prompts) != len(completions):
            raise InputError(f"{len(prompts)} prompts but {len(completions)} completions",
                             field="completions")
        rows = [{k: v[i] for k, v in columns.items() if _is_column(v, len(completions))}
                for i in range(len(completions))]
        samples = []
        for i, (prompt, completion, row) in enumerate(zip(prompts, completions, rows)):
            try:
                samples.append(row_sample(self.resolved, prompt, completion, row,
                                          reference_column=self.reference_column,
                                          domain_column=self.domain_column,
                                          not_meta=_TRL_ARGUMENTS))
            except InputError as error:
                # not model output (a model's text always reads): the trainer's or the
                # dataset's, named by its position in the batch for the caller to fix
                raise InputError(f"completions[{i}]: {error.detail}", source=error.source,
                                 line=error.line, field=error.field) from error
        return samples

    @staticmethod
    def _log(columns: dict[str, Any], samples: list[Sample], scores: list[Score]) -> None:
        log_extra, log_metric = columns.get("log_extra"), columns.get("log_metric")
        if callable(log_extra):
            log_extra("reason", [s.reason for s in scores])
        if callable(log_metric) and scores:
            causes = Counter(abstention_cause(a, b) for a, b in zip(samples, scores))
            log_metric("rewards/abstained/frac",
                       sum(s.value is None for s in scores) / len(scores))
            for cause, n in sorted((c, n) for c, n in causes.items() if c is not None):
                log_metric(f"rewards/abstained/{cause}/frac", n / len(scores))


def _log_trip_wires(columns: dict[str, Any], samples: list[Sample],
                    scores: list[Score]) -> None:
    """`hack/<class>` through TRL's `log_metric` (averaged over each logging step, logged with
    TRL's own metrics): the share of the batch's rewarded completions that carry the class's
    signature, as the built-in loops log it (`rewards.stress.hack_metrics`)."""
    log_metric = columns.get("log_metric")
    if callable(log_metric) and scores:
        texts = [s.completion for s in samples]
        for name, value in hack_metrics(texts, [s.value for s in scores]).items():
            log_metric(name, value)


def _is_column(value: Any, n: int) -> bool:
    # TRL passes dataset columns as lists, plus trainer_state / log_extra / log_metric.
    return isinstance(value, list) and len(value) == n


def _component_function(scorer: _BatchScorer, domain: str, name: str, label: str, *,
                        first: bool) -> RewardFunc:
    def reward_function(prompts: Sequence[Any], completions: Sequence[Any],
                        completion_ids: Sequence[Any] | None = None,
                        **columns: Any) -> list[float | None]:
        samples, scores = scorer(prompts, completions, columns, fresh=first)
        # an abstained sample is None (or 0.0) in every function, its logged-only parts too:
        # a part left standing would make TRL score the sample as that part's weighted sum
        return [None if sample.domain != domain
                else scorer.missing if score.value is None else score.parts.get(name)
                for sample, score in zip(samples, scores)]

    reward_function.__name__ = reward_function.__qualname__ = label
    return reward_function


def _total_function(scorer: _BatchScorer, label: str) -> RewardFunc:
    def reward_function(prompts: Sequence[Any], completions: Sequence[Any],
                        completion_ids: Sequence[Any] | None = None,
                        **columns: Any) -> list[float | None]:
        _, scores = scorer(prompts, completions, columns, fresh=True)
        return [scorer.missing if score.value is None else score.value for score in scores]

    reward_function.__name__ = reward_function.__qualname__ = label
    return reward_function
