"""verifiers: reward functions for a `vf.Rubric` (the classic verifiers API, `verifiers`
0.1 - 0.3, where 0.3 keeps it as `verifiers.legacy`).

```python
import verifiers as vf
from integrations.verifiers import rubric
env = vf.SingleTurnEnv(dataset=..., rubric=rubric("reward.yaml"))
```

A Rubric calls each reward function with the arguments its signature names (`prompt`,
`completion`, `answer`, `info`, `state`, `task` ...) and sums them with its weights. Ours are
async functions `(prompt, completion, answer, info=None, **kwargs) -> float`, one per config
component, named after it (the Rubric reports each as a metric), with the component weights
(a domain's alpha folded in). `score_group` awaits every rollout of a group at once: those
concurrent calls are scored together in one batch, and each rollout is scored once for all the
functions. The domain of a rollout is `info["domain"]`, else the config's only domain, else
`default`. A Rubric needs a float from every function, so an abstention cannot be left out:
`abstain="mask"` (the default) raises a `ConfigError` naming the cause, so that an abstention
never trains as 0 unasked; `abstain="zero"` scores it `abstain_value` (default 0.0);
`abstain="raise"` raises an `InputError` naming the sample.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from integrations._batcher import BatchingConfig, MicroBatcher
from integrations._common import (
    AbstainMode,
    ResolvedReward,
    RewardSource,
    check_abstain_mode,
    check_rollout_abstention,
    completion_text,
    group_key,
    prompt_value,
    resolve_reward,
)
from rewards.deps import require
from rewards.types import Sample, Score

__all__ = ["reward_funcs", "rubric"]

RewardFunc = Callable[..., Any]


def reward_funcs(config: RewardSource = None, *, per_component: bool = True,
                 abstain_value: float = 0.0, abstain: AbstainMode = "mask"
                 ) -> tuple[list[RewardFunc], list[float]]:
    """(functions, weights) for `vf.Rubric(funcs=..., weights=...)` from a reward config
    (None: `$REWARDS_CONFIG`). `per_component=False`: one function, the config's value."""
    check_abstain_mode(abstain)
    resolved = resolve_reward(config)
    scorer = _SharedScorer(resolved)
    if not per_component or resolved.config is None:
        return [_function(scorer, None, None, resolved.reward.name, abstain_value,
                          abstain)], [1.0]
    qualify = len(resolved.config.domains) > 1
    funcs, weights = [], []
    for domain, spec in resolved.config.domains.items():
        for component in spec.rewards:
            weight = component.weight
            if spec.alpha is not None:
                kind = component.kind or "verifiable"
                weight *= spec.alpha if kind == "verifiable" else 1.0 - spec.alpha
            label = f"{domain}_{component.name}" if qualify else component.name
            funcs.append(_function(scorer, domain, component.name, label, abstain_value,
                                   abstain))
            weights.append(weight)
    return funcs, weights


def rubric(config: RewardSource = None, *, per_component: bool = True,
           abstain_value: float = 0.0, abstain: AbstainMode = "mask",
           **rubric_options: Any) -> Any:
    """A `vf.Rubric` scoring with a reward config (needs `pip install verifiers`)."""
    vf = require("verifiers", package="verifiers", feature="the verifiers adapter")
    funcs, weights = reward_funcs(config, per_component=per_component,
                                  abstain_value=abstain_value, abstain=abstain)
    return vf.Rubric(funcs=funcs, weights=weights, **rubric_options)


class _SharedScorer:
    """Scores each rollout once for all the functions, batching concurrent rollouts."""

    def __init__(self, resolved: ResolvedReward, *, memo_size: int = 4096) -> None:
        self.resolved = resolved
        self.memo_size = memo_size
        self._memo: OrderedDict[tuple[Any, ...], asyncio.Future[Score]] = OrderedDict()
        self._batchers: dict[int, tuple[asyncio.AbstractEventLoop, MicroBatcher]] = {}

    async def score(self, sample: Sample) -> Score:
        loop = asyncio.get_running_loop()
        key = (id(loop), repr(sample.prompt), sample.completion, repr(sample.reference),
               sample.domain)
        future = self._memo.get(key)
        if future is None:
            future = loop.create_future()
            self._memo[key] = future
            while len(self._memo) > self.memo_size:
                self._memo.popitem(last=False)
            try:
                score = (await self._batcher(loop).score([sample]))[0]
                self.resolved.observe([sample], [score])  # a misconfigured run raises
                future.set_result(score)
            except Exception as exc:
                self._memo.pop(key, None)
                future.set_exception(exc)
                future.exception()  # retrieved: concurrent waiters get it, nobody else will
                raise
        return await future

    def _batcher(self, loop: asyncio.AbstractEventLoop) -> MicroBatcher:
        entry = self._batchers.get(id(loop))
        if entry is None or entry[0] is not loop:
            self._batchers = {k: v for k, v in self._batchers.items() if not v[0].is_closed()}
            # Per-rollout scores: batch normalization is the trainer's business.
            entry = (loop, MicroBatcher(self.resolved.raw, BatchingConfig()))
            self._batchers[id(loop)] = entry
        return entry[1]


def _function(scorer: _SharedScorer, domain: str | None, part: str | None, label: str,
              abstain_value: float, abstain: AbstainMode) -> RewardFunc:
    async def reward_function(prompt: Any, completion: Any, answer: Any = None,
                              info: Mapping[str, Any] | None = None, **kwargs: Any) -> float:
        resolved = scorer.resolved
        routed = resolved.route((info or {}).get("domain") if isinstance(info, Mapping)
                                else None)
        if domain is not None and routed != domain:
            return 0.0  # another domain's component: contributes nothing to this rollout
        sample = Sample(prompt=prompt_value(prompt), completion=completion_text(completion),
                        reference=answer, domain=routed, group=group_key(prompt))
        score = await scorer.score(sample)
        value = score.value if part is None else score.parts.get(part)
        check_rollout_abstention(sample, score, value, abstain, framework="a verifiers Rubric",
                                 mask_hint="pass abstain='zero' to score it abstain_value")
        return abstain_value if value is None else float(value)

    reward_function.__name__ = reward_function.__qualname__ = label
    return reward_function
