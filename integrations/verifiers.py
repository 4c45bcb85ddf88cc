"""verifiers: our reward in a verifiers environment, for both of its APIs.

verifiers 0.4 (the `verifiers.v1` Task API, which 0.3 ships too) scores a rollout with its
task's `@vf.reward` methods, each called with the arguments it names (`task`: the row's
`TaskData`, `trace`: the rollout). `task_reward` builds one such reward from a config:

```python
import verifiers.v1 as vf
from integrations.verifiers import task_reward

score = task_reward("reward.yaml")

class MathTask(vf.Task[MathData]):           # MathData(vf.TaskData) carries `answer`
    @vf.reward(weight=1.0)
    async def rewards(self, trace: vf.Trace) -> float:
        return await score(self.data, trace)
```
or, with no code, plug `integrations.verifiers:reward` (the config in `$REWARDS_CONFIG`) into
any taskset's task config: `--env.taskset.task.rewards.rewards.fn integrations.verifiers:reward`.
It scores the rollout's last reply (`trace.last_reply`) against the row's reference (its field
`reference_key`, else the first of reference/solution/answer/ground_truth/label), in the domain
its field `domain_key` names (else the config's only domain, else `default`); the value is the
config's, and each component's part is recorded as a metric on the trace (logged, not summed).
The rollouts verifiers scores at once (a group, an eval batch) are scored in one batch.

The classic Rubric API (verifiers 0.1 - 0.3, where 0.3 keeps it as `verifiers.legacy`; gone
in 0.4):

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
`default`.

Both APIs need a float from every reward, so an abstention cannot be left out:
`abstain="mask"` (the default) raises a `ConfigError` naming the cause (verifiers 0.4 records
it on the trace as a failed rollout; the classic Rubric, which scores a raising function 0.0,
re-raises it once it has scored: see `rubric`), so that an abstention never trains as 0 unasked;
`abstain="zero"` scores it `abstain_value` (default 0.0); `abstain="raise"` raises an
`InputError` naming the sample.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
from collections.abc import Callable, Mapping
from typing import Any

from integrations._batcher import BatchingConfig, MicroBatcher
from integrations._common import (
    CONFIG_ENV,
    AbstainMode,
    ResolvedReward,
    RewardSource,
    check_abstain_mode,
    check_rollout_abstention,
    prompt_value,
    resolve_reward,
    row_sample,
)
from rewards.cache import ByteCache, approx_bytes
from rewards.deps import require
from rewards.errors import ConfigError, InputError, RewardsError
from rewards.types import Sample, Score, with_completion

__all__ = ["TaskReward", "reward", "reward_funcs", "rubric", "task_reward"]

_PER_ROLLOUT = ("verifiers sums the rewards of each rollout and leaves the group to the "
                "trainer; set normalize: none, or train with TRL (normalize_then_sum) or the "
                "built-in GRPO loop")

RewardFunc = Callable[..., Any]


# ---- verifiers 0.4: the v1 Task API --------------------------------------------------------

def task_reward(config: RewardSource = None, *, reference_key: str | None = None,
                domain_key: str = "domain", name: str = "rewards", abstain_value: float = 0.0,
                abstain: AbstainMode = "mask") -> TaskReward:
    """A `@vf.reward` for a verifiers 0.4 task, scoring with a reward config (None:
    `$REWARDS_CONFIG`). Call it from a reward method (`await score(self.data, trace)`) or
    decorate it as one (`rewards = vf.reward(task_reward(...))` in the Task class)."""
    check_abstain_mode(abstain)
    resolved = resolve_reward(config)
    resolved.check_per_rollout("a verifiers reward", _PER_ROLLOUT)
    return TaskReward(_SharedScorer(resolved), reference_key=reference_key,
                      domain_key=domain_key, name=name, abstain_value=abstain_value,
                      abstain=abstain)


def _trace_messages(trace: Any) -> list[dict[str, Any]]:
    """The assistant messages of a verifiers 0.4 `trace`, as chat messages for the one
    reading (`rewards.completion`): each turn's content and `tool_calls`, so `use:
    tool_call` reads every call the rollout made, not the last reply alone."""
    return [m.model_dump() if hasattr(m, "model_dump") else dict(m)
            for m in trace.assistant_messages]


class TaskReward:
    """`async (task, trace) -> float`, the signature verifiers 0.4 calls a reward with (by
    parameter name: `task` is the row's `TaskData`, `trace` the rollout). A callable object, not
    a function, so that as a Task class attribute it is not bound as a method."""

    def __init__(self, scorer: _SharedScorer, *, reference_key: str | None, domain_key: str,
                 name: str, abstain_value: float, abstain: AbstainMode) -> None:
        self.scorer = scorer
        self.reference_key = reference_key
        self.domain_key = domain_key
        self.abstain_value = abstain_value
        self.abstain = abstain
        self.__name__ = self.__qualname__ = name  # the reward's key in `trace.rewards`

    async def __call__(self, task: Any, trace: Any) -> float:
        row, framework_fields = _row(task)
        key = getattr(getattr(trace, "task", None), "key", None)
        sample = row_sample(self.scorer.resolved, _task_prompt(row), _trace_messages(trace),
                            row, reference_column=self.reference_key,
                            domain_column=self.domain_key,
                            group=None if key is None else str(key), not_meta=framework_fields)
        # the answer is verifiers' own (the root agent's reply); the calls are every turn's
        sample = with_completion(sample, str(trace.last_reply))
        score = await self.scorer.score(sample)
        for part, value in score.parts.items():
            if value is not None:
                trace.record_metric(part, value)  # logged beside the reward, not summed
        check_rollout_abstention(sample, score, score.value, self.abstain,
                                 framework="a verifiers reward",
                                 mask_hint="pass abstain='zero' to score it abstain_value")
        return self.abstain_value if score.value is None else float(score.value)

    def __repr__(self) -> str:
        return f"TaskReward({self.__name__!r}, {self.scorer.resolved.reward.name!r})"


_DEFAULT_REWARDS: dict[str, TaskReward] = {}


async def reward(task: Any, trace: Any) -> float:
    """`task_reward()` with the config in `$REWARDS_CONFIG`, for a task config's plugged
    rewards: `rewards: {rewards: {fn: "integrations.verifiers:reward", weight: 1.0}}`."""
    path = os.environ.get(CONFIG_ENV, "")
    scorer = _DEFAULT_REWARDS.get(path)
    if scorer is None:
        scorer = _DEFAULT_REWARDS[path] = task_reward(path or None)
    return await scorer(task, trace)


def _row(task: Any) -> tuple[dict[str, Any], frozenset[str]]:
    """A task's data as a dict (a `TaskData` model's fields and extras, or a mapping), and the
    fields that are verifiers' own (those of `vf.TaskData` itself: prompt, system_prompt, id,
    workdir ...), which are not the row's data."""
    if isinstance(task, Mapping):
        return dict(task), frozenset({"system_prompt"})
    if hasattr(type(task), "model_fields"):
        own = {name for base in type(task).__mro__ if base.__name__ == "TaskData"
               and base.__module__.startswith("verifiers")
               for name in getattr(base, "model_fields", {})}
        return dict(task), frozenset({"system_prompt", *own})
    raise InputError(f"a verifiers reward gets the task's data (a vf.TaskData), not "
                     f"{type(task).__name__}", field="task")


def _task_prompt(row: Mapping[str, Any]) -> str | list[dict[str, Any]]:
    prompt = _plain(row.get("prompt"))
    system = row.get("system_prompt")
    if not system:
        return prompt_value(prompt)
    messages = prompt if isinstance(prompt, list) else [{"role": "user", "content": prompt}]
    return prompt_value([{"role": "system", "content": system}, *messages])


def _plain(value: Any) -> Any:
    """verifiers' messages (pydantic models since 0.3) as the plain dicts adapters read."""
    if hasattr(value, "model_dump"):
        return value.model_dump(exclude_none=True)
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


# ---- verifiers 0.1 - 0.3: the classic Rubric -----------------------------------------------

def reward_funcs(config: RewardSource = None, *, per_component: bool = True,
                 abstain_value: float = 0.0, abstain: AbstainMode = "mask"
                 ) -> tuple[list[RewardFunc], list[float]]:
    """(functions, weights) for `vf.Rubric(funcs=..., weights=...)` from a reward config
    (None: `$REWARDS_CONFIG`). `per_component=False`: one function, the config's value."""
    check_abstain_mode(abstain)
    resolved = resolve_reward(config)
    resolved.check_per_rollout("a verifiers reward", _PER_ROLLOUT)
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
    """A classic `vf.Rubric` scoring with a reward config (verifiers 0.1 - 0.3; needs
    `pip install verifiers`). verifiers 0.4 has no Rubric: use `task_reward` there."""
    vf = require("verifiers", package="verifiers", feature="the verifiers adapter")
    try:
        rubric_class = vf.Rubric  # 0.3: served from verifiers.legacy on first touch
    except AttributeError as exc:
        version = getattr(vf, "__version__", "?")
        raise ConfigError(
            f"verifiers {version} has no classic vf.Rubric ({exc}); verifiers 0.4 scores with "
            "its Task API: use integrations.verifiers.task_reward in a @vf.reward, or plug "
            "integrations.verifiers:reward into the task config's rewards") from exc
    funcs, weights = reward_funcs(config, per_component=per_component,
                                  abstain_value=abstain_value, abstain=abstain)
    return _raising(rubric_class)(funcs=funcs, weights=weights, **rubric_options)


_STATE_ERROR = "rewards_error"
"""The key on a rollout's state where our function leaves the error it raised."""


def _raising(rubric_class: type) -> type:
    """The classic Rubric, raising what our functions raise. Its own `score_rollout` and
    `score_group` log a reward function's exception and score that function 0.0, so an
    abstention (`mask` raises a `ConfigError`, `raise` an `InputError`) would train as 0:
    our functions also leave their error on the rollout's state, raised here once the Rubric
    has scored (verifiers fails the rollout group with it)."""

    def reraising(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        async def score(self: Any, *args: Any, **kwargs: Any) -> Any:
            result = await method(self, *args, **kwargs)
            states = [s for arg in (*args, *kwargs.values())
                      for s in (arg if isinstance(arg, list) else [arg])
                      if isinstance(s, dict) and _STATE_ERROR in s]
            errors = [state.pop(_STATE_ERROR) for state in states]
            if errors:
                raise errors[0]
            return result
        return score

    methods = {name: reraising(getattr(rubric_class, name))
               for name in ("score_rollout", "score_group", "score_rollouts")
               if inspect.iscoroutinefunction(getattr(rubric_class, name, None))}
    return type(rubric_class.__name__, (rubric_class,), {
        **methods, "__doc__": rubric_class.__doc__, "__module__": __name__})


class _SharedScorer:
    """Scores each rollout once for all the functions, batching concurrent rollouts."""

    def __init__(self, resolved: ResolvedReward, *, memo_size: int = 4096,
                 memo_bytes: int = 64 << 20) -> None:
        self.resolved = resolved
        self.memo_size = memo_size
        # keyed by the rollout (prompt, completion, reference, domain, meta): any size, so
        # bytes bound it
        self._memo: ByteCache[tuple[Any, ...], asyncio.Future[Score]] = ByteCache(
            memo_bytes, max_entries=memo_size)
        self._batchers: dict[int, tuple[asyncio.AbstractEventLoop, MicroBatcher]] = {}

    async def score(self, sample: Sample) -> Score:
        loop = asyncio.get_running_loop()
        key = (id(loop), repr(sample.prompt), sample.completion, sample.turns,
               repr(sample.reference), sample.domain,
               repr(dict(sample.meta)),  # meta: a row's tools, constraints
               sample.ambiguous_gold)  # gold columns leave meta: two rows may differ here only
        future = self._memo.get(key)
        if future is None:
            future = loop.create_future()
            self._memo.put(key, future, approx_bytes(key))
            try:
                score = (await self._batcher(loop).score([sample]))[0]
                self.resolved.observe([sample], [score])  # a misconfigured run raises
                future.set_result(score)
            except Exception as exc:
                self._memo.pop(key)
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
        # the row's other columns are its `info`; its reference is `answer`
        row = {**(info if isinstance(info, Mapping) else {}), "answer": answer}
        sample = row_sample(scorer.resolved, _plain(prompt), _plain(completion), row,
                            reference_column="answer")
        if domain is not None and sample.domain != domain:
            return 0.0  # another domain's component: contributes nothing to this rollout
        score = await scorer.score(sample)
        value = score.value if part is None else score.parts.get(part)
        try:
            check_rollout_abstention(sample, score, value, abstain,
                                     framework="a verifiers Rubric",
                                     mask_hint="pass abstain='zero' to score it abstain_value")
        except RewardsError as exc:
            state = kwargs.get("state")
            if isinstance(state, dict):  # the Rubric would score it 0.0: see `_raising`
                state.setdefault(_STATE_ERROR, exc)
            raise
        return abstain_value if value is None else float(value)

    reward_function.__name__ = reward_function.__qualname__ = label
    return reward_function
