"""veRL: `compute_score` functions for `reward.custom_reward_function`.

```yaml
reward:
  custom_reward_function:
    path: pkg://integrations.verl      # or the file path of this module
    name: compute_score_async          # the reward loop (veRL's default reward path);
                                       # compute_score (per rollout, and the `remote`
                                       # reward manager), compute_score_batch (the legacy
                                       # `batch` reward manager)
    reward_kwargs: {reward_config: /path/to/reward.yaml}
```
On veRL's command line the kwargs are new keys:
`+reward.custom_reward_function.reward_kwargs.reward_config=/path/to/reward.yaml` (the older
top-level `custom_reward_function` block still works: veRL moves it under `reward`).
veRL's reward loop runs `reward.num_workers` reward worker actors, splits each batch over
them (and streams single rollouts to any of them beside the rollout); each worker awaits
`compute_score_async` for its rollouts at once, and those concurrent calls are scored in
micro-batches. `reward_manager.name: remote` runs the sync `compute_score` in
`reward.num_workers` Ray processes instead, round robin (for CPU-bound rewards). With a reward model enabled veRL also passes
`reward_router_address` and `reward_model_tokenizer`: they are accepted and unused.

veRL merges `reward_kwargs` into every call, so `reward_config` picks the config; without it,
`$REWARDS_CONFIG`. Each call returns a dict: `score` (a number: veRL puts it in the reward
tensor), `reason`, `abstained`, `cause` (why it abstained, or None) and one
`reward/<component>` entry per component of the config (None where the component did not score
the sample) and the trip-wires `hack/<class>` (docs/stress.md: 1.0 when the rollout was
rewarded, score > 0, and its text carries the class's signature, else 0.0). veRL keeps them
as `reward_extra_info`: it dumps all of them with the generations and reports the numeric ones
in its validation metrics (veRL 0.9 charts no extra key while training).

veRL has no way to leave one rollout out of a batch: the reward tensor needs a number for each.
`abstain` (a `reward_kwargs` key) says what an abstention gets. `mask` (default): in
`compute_score_batch`, the mean score of the rollouts of its group that did score (groups by
`extra_info["index"]`), so its group-relative advantage (GRPO, RLOO) is 0 and the group's
baseline is unchanged; a group where every rollout abstains scores `abstain_score` for all, a
constant group (advantage 0; `algorithm.filter_groups` evicts it). The per-rollout
`compute_score` and `compute_score_async` never see the group, so under `mask` an abstention
raises a `ConfigError` saying so; `zero`: `abstain_score` (default 0.0); `raise`: `InputError`.
`on_config_abstain` (raise | warn): a run whose rows abstain for a configuration cause (a
`data_source` the config has no domain for, no ground truth) raises or warns once.

The domain of a sample: `extra_info["domain"]`, else `domain_map[data_source]`, else the
data source itself when the config has such a domain, else the config's only domain, else
`default`. `compute_score` and `compute_score_async` score one rollout and leave advantage
normalization to veRL; `compute_score_async` micro-batches the concurrent calls of veRL's
reward loop. `compute_score_batch` applies the config's `normalize` over the batch (groups by
`extra_info["index"]`).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from integrations._batcher import BatchingConfig, MicroBatcher
from integrations._common import (
    AbstainMode,
    OnConfigAbstain,
    ResolvedReward,
    RewardSource,
    check_abstain_mode,
    check_rollout_abstention,
    prompt_value,
    raise_on_abstention,
    resolve_reward,
)
from rewards.errors import InputError
from rewards.scoring import abstention_cause, score_batch
from rewards.stress import hack_metrics
from rewards.types import Sample, Score

__all__ = ["compute_score", "compute_score_async", "compute_score_batch"]

_PER_ROLLOUT = ("use reward_manager: batch with compute_score_batch, which normalizes the "
                "batch as the config says")


def compute_score(data_source: str, solution_str: str, ground_truth: Any,
                  extra_info: Mapping[str, Any] | None = None, *,
                  reward_config: RewardSource = None, abstain_score: float = 0.0,
                  domain_map: Mapping[str, str] | None = None, abstain: AbstainMode = "mask",
                  on_config_abstain: OnConfigAbstain = "raise", **kwargs: Any) -> dict[str, Any]:
    """Score one rollout (veRL's naive reward manager)."""
    check_abstain_mode(abstain, on_config_abstain)
    resolved = resolve_reward(reward_config)
    resolved.check_per_rollout("compute_score", _PER_ROLLOUT)
    sample = _sample(resolved, data_source, solution_str, ground_truth, extra_info, domain_map)
    score = score_batch(resolved.raw, [sample]).scores[0]
    return _single(resolved, sample, score, abstain, abstain_score, on_config_abstain)


def _single(resolved: ResolvedReward, sample: Sample, score: Score, abstain: AbstainMode,
            abstain_score: float, on_config_abstain: OnConfigAbstain) -> dict[str, Any]:
    resolved.observe([sample], [score], on_config_abstain=on_config_abstain)
    check_rollout_abstention(
        sample, score, score.value, abstain, framework="veRL's per-rollout reward managers",
        mask_hint="use reward_manager: batch with compute_score_batch (abstain: mask), or set "
                  "reward_kwargs abstain: zero to train it as abstain_score")
    return _result(resolved, sample, score, abstain_score)


def compute_score_batch(data_sources: Sequence[str], solution_strs: Sequence[str],
                        ground_truths: Sequence[Any],
                        extra_infos: Sequence[Mapping[str, Any] | None] | None = None, *,
                        reward_config: RewardSource = None, abstain_score: float = 0.0,
                        domain_map: Mapping[str, str] | None = None,
                        abstain: AbstainMode = "mask",
                        on_config_abstain: OnConfigAbstain = "raise",
                        **kwargs: Any) -> list[dict[str, Any]]:
    """Score a batch (veRL's `batch` reward manager), with the config's normalization."""
    check_abstain_mode(abstain, on_config_abstain)
    resolved = resolve_reward(reward_config)
    n = len(solution_strs)
    infos: Sequence[Mapping[str, Any] | None] = extra_infos if extra_infos is not None \
        else [None] * n
    if not (len(data_sources) == len(ground_truths) == len(infos) == n):
        raise InputError(f"compute_score_batch: {len(data_sources)} data_sources, {n} "
                         f"solution_strs, {len(ground_truths)} ground_truths, {len(infos)} "
                         "extra_infos: the lengths must match")
    samples = [_sample(resolved, d, s, g, e, domain_map)
               for d, s, g, e in zip(data_sources, solution_strs, ground_truths, infos)]
    scores = score_batch(resolved.reward, samples).scores
    resolved.observe(samples, scores, on_config_abstain=on_config_abstain)
    if abstain == "raise":
        raise_on_abstention(samples, scores)
    results = [_result(resolved, s, score, abstain_score) for s, score in zip(samples, scores)]
    if abstain == "mask":
        _mask_by_group_mean(samples, results)
    return results


def _mask_by_group_mean(samples: Sequence[Sample], results: list[dict[str, Any]]) -> None:
    """An abstained rollout scores the mean of its group's scored rollouts: advantage 0."""
    scored: dict[str | None, list[float]] = defaultdict(list)
    for sample, result in zip(samples, results):
        if not result["abstained"]:
            scored[sample.group].append(result["score"])
    for sample, result in zip(samples, results):
        values = scored.get(sample.group) if sample.group is not None else None
        if result["abstained"] and values:
            result["score"] = sum(values) / len(values)


_BATCHERS: dict[tuple[int, int], tuple[asyncio.AbstractEventLoop, MicroBatcher]] = {}


async def compute_score_async(data_source: str, solution_str: str, ground_truth: Any,
                              extra_info: Mapping[str, Any] | None = None, *,
                              reward_config: RewardSource = None, abstain_score: float = 0.0,
                              domain_map: Mapping[str, str] | None = None,
                              max_batch: int = 256, max_wait_ms: float = 5.0,
                              abstain: AbstainMode = "mask",
                              on_config_abstain: OnConfigAbstain = "raise",
                              **kwargs: Any) -> dict[str, Any]:
    """Score one rollout from asyncio (veRL's reward loop awaits a coroutine function, many
    at once): concurrent calls on one event loop are scored together in batches."""
    check_abstain_mode(abstain, on_config_abstain)
    resolved = resolve_reward(reward_config)
    resolved.check_per_rollout("compute_score_async", _PER_ROLLOUT)
    sample = _sample(resolved, data_source, solution_str, ground_truth, extra_info, domain_map)
    loop = asyncio.get_running_loop()
    key = (id(loop), id(resolved.raw))
    entry = _BATCHERS.get(key)
    if entry is None or entry[0] is not loop:
        for stale in [k for k, (other, _) in _BATCHERS.items() if other.is_closed()]:
            del _BATCHERS[stale]
        batcher = MicroBatcher(resolved.raw,
                               BatchingConfig(max_batch=max_batch, max_wait_ms=max_wait_ms))
        _BATCHERS[key] = (loop, batcher)
    else:
        batcher = entry[1]
    score = (await batcher.score([sample]))[0]
    return _single(resolved, sample, score, abstain, abstain_score, on_config_abstain)


_NOT_META = frozenset({"domain", "question", "prompt"})
"""`extra_info` keys the sample takes as its fields; the others (a tool schema `tools`,
IFEval's constraint columns, `index`, `split`) travel in `meta`, as every adapter carries a
row's other columns (`integrations._common.row_sample`)."""


def _sample(resolved: ResolvedReward, data_source: str, solution_str: str, ground_truth: Any,
            extra_info: Mapping[str, Any] | None,
            domain_map: Mapping[str, str] | None) -> Sample:
    info = extra_info if isinstance(extra_info, Mapping) else {}
    domain = info.get("domain") or (domain_map or {}).get(data_source)
    if domain is None and resolved.config is not None and data_source in resolved.config.domains:
        domain = data_source
    prompt = info.get("question", info.get("prompt", ""))
    group = info.get("index", info.get("uid"))
    routed = resolved.route(domain)
    if resolved.config is not None and routed not in resolved.config.domains:
        routed = str(domain or data_source)  # abstains unknown_domain, named as veRL names it
    return Sample(prompt=prompt_value(prompt), completion=solution_str, reference=ground_truth,
                  domain=routed, group=None if group is None else str(group),
                  meta={**{k: v for k, v in info.items() if k not in _NOT_META},
                        "data_source": data_source})


def _result(resolved: ResolvedReward, sample: Sample, score: Score,
            abstain_score: float) -> dict[str, Any]:
    names = resolved.component_names() or sorted(k for k in score.parts if k != "raw")
    result: dict[str, Any] = {
        "score": abstain_score if score.value is None else float(score.value),
        "reason": score.reason,
        "abstained": score.value is None,
        "cause": abstention_cause(sample, score),
    }
    for name in names:
        value = score.parts.get(name)
        result[f"reward/{name}"] = None if value is None else float(value)
    # the trip-wires of one rollout: 1.0 when it was rewarded and carries the class's signature
    result.update(hack_metrics([sample.completion], [score.value]))
    return result
