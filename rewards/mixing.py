"""Combining rewards: weighted components per domain (alpha * verifiable + (1 - alpha) *
learned), routing samples to their domain, and batch normalization (z-score per domain,
GRPO group advantages, or GDPO: each component group-normalized before the weighted sum).
Abstentions (`None`) are excluded from statistics and stay `None`.

`zscore_by_domain` can keep running statistics across batches (`RunningStats`, an EMA of each
domain's mean and variance) so that one small batch does not swing the scale."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, get_args

from rewards.config import ComponentConfig, DomainConfig, Kind, Normalize, RewardConfig
from rewards.errors import ConfigError
from rewards.types import (
    Reward,
    Sample,
    Score,
    ScoresReady,
    ready_for_part,
    score_progressively,
)

__all__ = ["BatchNormalizer", "DomainRouter", "MixPlan", "Mixture", "Normalize", "RunningStats",
           "WeightedComponent", "group_normalize", "normalize", "per_component_normalize",
           "route_domain", "zscore_by_domain"]

NORMALIZE_MODES: tuple[str, ...] = get_args(Normalize)


@dataclass(frozen=True)
class WeightedComponent:
    """A reward with its weight (0 = logged only) and kind (for alpha mixing)."""

    reward: Reward
    weight: float = 1.0
    kind: Kind = "verifiable"


@dataclass(frozen=True)
class MixPlan:
    """How one domain combines its components' values into one: (name, weight, kind) per
    component and the domain's alpha. A `Mixture` combines by its plan; `group_per_component`
    normalization combines the normalized components by the same plan. The plan of a reward
    that is not a `Mixture` is `MixPlan.whole()`: its value is its one component."""

    components: tuple[tuple[str, float, Kind], ...]
    alpha: float | None = None

    @classmethod
    def whole(cls) -> MixPlan:
        """One component, weight 1: the score's own value (`WHOLE`)."""
        return cls(((WHOLE, 1.0, "verifiable"),))

    @classmethod
    def of(cls, reward: Reward) -> MixPlan:
        """The plan of a domain's reward: a `Mixture`'s own, else `whole()`."""
        return reward.plan if isinstance(reward, Mixture) else cls.whole()

    @classmethod
    def from_domain(cls, spec: DomainConfig) -> MixPlan:
        """The plan a config domain builds to (`rewards.build`), without building it. A
        component's kind is its configured one, else the `kind` its factory declares (only
        read when the domain has an alpha: without one, kinds do not enter the sum)."""
        from rewards.registry import resolve

        def kind(c: ComponentConfig) -> Kind:
            if c.kind is not None or spec.alpha is None:
                return c.kind or "verifiable"
            return getattr(resolve(c.use), "kind", "verifiable")

        return cls(tuple((c.name, c.weight, kind(c)) for c in spec.rewards), spec.alpha)

    def combine(self, values: Mapping[str, float | None]) -> float | None:
        """The weighted sum of the components' values (`None` = abstained, skipped; weight 0
        = logged only); with alpha, alpha * verifiable side + (1 - alpha) * learned side, and
        a needed side that abstained entirely leaves the other side alone, unscaled. `None`
        when nothing weighted scored."""
        weighted = [(w, k, values.get(name)) for name, w, k in self.components if w > 0]
        if self.alpha is None:
            return _weighted_sum(weighted)
        verifiable = _weighted_sum([t for t in weighted if t[1] == "verifiable"])
        learned = _weighted_sum([t for t in weighted if t[1] == "learned"])
        sides = [(self.alpha, verifiable), (1.0 - self.alpha, learned)]
        present = [(a, v) for a, v in sides if a > 0 and v is not None]
        needed = [a for a, _ in sides if a > 0]
        if not present:
            return None
        if len(present) == len(needed):
            return sum(a * v for a, v in present)
        return present[0][1]  # one needed side abstained: the other stands alone, unscaled


WHOLE = ""
"""The component name of `MixPlan.whole()`: the score's value itself."""


class Mixture:
    """The rewards of one domain combined into one score per sample.

    Without alpha: the weighted sum of the components that did not abstain (as TRL sums
    `reward_funcs`). With alpha: alpha * (weighted sum of verifiable components) +
    (1 - alpha) * (weighted sum of learned ones); a side that abstains entirely leaves the
    other side alone. Every component's value lands in `parts` under its name, and its
    parts under `name/part` (`math/rule` stays `math/rule`, as the component names it).
    """

    def __init__(self, components: Sequence[WeightedComponent], *, alpha: float | None = None,
                 name: str = "mixture") -> None:
        if not components:
            raise ConfigError("a Mixture needs at least one component")
        self.components = tuple(components)
        self.alpha = alpha
        self.name = name
        names = [c.reward.name for c in self.components]
        if len(set(names)) != len(names):  # parts, and the plan, go by name
            raise ConfigError(f"mixture {name!r}: component names must be unique, got {names}")
        if alpha is not None:
            _check_sides(self.components, alpha, name)
        self.plan = MixPlan(tuple((c.reward.name, c.weight, c.kind) for c in self.components),
                            alpha)
        """How the components' values combine (also used by `group_per_component`)."""

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return self.score_progressively(samples, None)

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        """`score`, telling `ready` a sample's combined score once every component has
        decided it (`rewards.types.Progressive`; the components score one after another)."""
        tell: list[ScoresReady | None] = [None] * len(self.components)
        if ready is not None:
            got: list[list[Score | None]] = [[None] * len(samples) for _ in self.components]
            missing = [len(self.components)] * len(samples)

            def arrived(k: int) -> ScoresReady:
                def told(indices: Sequence[int], scores: Sequence[Score]) -> None:
                    done = []
                    for i, score in zip(indices, scores):
                        got[k][i] = score
                        missing[i] -= 1
                        if not missing[i]:
                            done.append(i)
                    if done:  # (every component's score of a done sample is in `got`)
                        ready(done, [self._combine([s for g in got if (s := g[i]) is not None])
                                     for i in done])
                return told
            tell = [arrived(k) for k in range(len(self.components))]
        per_component = [score_progressively(c.reward, samples, told)
                         for c, told in zip(self.components, tell)]
        return [self._combine([scores[i] for scores in per_component])
                for i in range(len(samples))]

    def _combine(self, scores: Sequence[Score]) -> Score:
        parts: dict[str, float | None] = {}
        for c, s in zip(self.components, scores):
            parts[c.reward.name] = s.value
            prefix = f"{c.reward.name}/"
            for key, value in s.parts.items():
                if key != c.reward.name:  # a part already named for its component keeps it
                    parts[key if key.startswith(prefix) else prefix + key] = value
        reason = next((s.reason for c, s in zip(self.components, scores)
                       if c.weight > 0 and s.reason != "ok"), "ok")
        values = {c.reward.name: s.value for c, s in zip(self.components, scores)}
        return Score(self.plan.combine(values), reason, parts)


def _check_sides(components: Sequence[WeightedComponent], alpha: float, name: str) -> None:
    """`alpha` mixes two sides; a side it gives weight to must have a weighted component, or
    alpha would be silently ignored (1.0 + 0.5 = 1.5 with two verifiable components)."""
    for side, share in (("verifiable", alpha), ("learned", 1.0 - alpha)):
        if share > 0 and not any(c.kind == side and c.weight > 0 for c in components):
            names = ", ".join(getattr(c.reward, "name", "?") for c in components)
            fix = ("mark the reward model or judge among them `kind: learned`"
                   if side == "learned" else "mark a verifier among them `kind: verifiable`")
            raise ConfigError(
                f"domain {name!r}: alpha {alpha:g} gives {share:g} to the {side} side, but "
                f"no weighted component is {side} ({names}): {fix}, set alpha to "
                f"{1.0 if side == 'learned' else 0.0:g}, or remove alpha for a plain "
                "weighted sum")


def _weighted_sum(terms: list[tuple[float, Kind, float | None]]) -> float | None:
    present = [(w, v) for w, _, v in terms if v is not None]
    if not present:
        return None
    return float(sum(w * v for w, v in present))


def route_domain(domains: Collection[str], domain: str | None) -> str | None:
    """The one rule of which config domain scores a sample of `domain`: its own; for a
    sample that names none (`default`, the value a row without a domain gets) a config's
    only domain; else the config's `default` domain; else None (`unknown_domain`). The
    scoring path (`DomainRouter`), the CLI, the server and every adapter route by it."""
    domain = domain or "default"
    if domain in domains:
        return domain
    if domain == "default" and len(domains) == 1:
        return next(iter(domains))
    return "default" if "default" in domains else None


class DomainRouter:
    """Scores each sample with its domain's reward (`default` for unlisted domains), then
    normalizes the batch: none, zscore_by_domain, group or group_per_component (see
    `BatchNormalizer`)."""

    def __init__(self, domains: Mapping[str, Reward], *,
                 normalize: Normalize = "none", name: str = "rewards",
                 ema_decay: float | None = None, eps: float | None = None) -> None:
        """`ema_decay` (zscore_by_domain only): keep running per-domain statistics across
        batches with this decay (see `RunningStats`); `eps`: the normalizer's epsilon
        (default: that of `zscore_by_domain` or `group_normalize`)."""
        self.domains = dict(domains)
        self.name = name
        self.normalizer = BatchNormalizer(
            normalize, eps=eps, ema_decay=ema_decay,
            plans={d: MixPlan.of(r) for d, r in self.domains.items()})
        self.raw: Reward = _Unnormalized(self)
        """This router without batch normalization (same domains, same rewards)."""

    @property
    def normalize(self) -> Normalize:
        return self.normalizer.mode

    @property
    def eps(self) -> float | None:
        return self.normalizer.eps

    @property
    def running(self) -> RunningStats | None:
        return self.normalizer.running

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return self.normalizer(samples, self.score_raw(samples))

    def score_raw(self, samples: Sequence[Sample],
                  ready: ScoresReady | None = None) -> list[Score]:
        """Each sample scored by its domain's reward; no batch normalization. `ready`: told
        the scores as the domains' rewards decide them (`rewards.types.Progressive`)."""
        results: list[Score | None] = [None] * len(samples)
        by_domain: dict[str, list[int]] = defaultdict(list)
        for i, s in enumerate(samples):
            domain = route_domain(self.domains, s.domain)
            if domain is not None:
                by_domain[domain].append(i)
            else:
                results[i] = Score(None, "unknown_domain")
        unknown = [i for i, r in enumerate(results) if r is not None]
        if ready is not None and unknown:
            ready(unknown, [Score(None, "unknown_domain")] * len(unknown))
        for domain, indices in by_domain.items():
            scores = score_progressively(self.domains[domain], [samples[i] for i in indices],
                                         ready_for_part(ready, indices))
            for i, score in zip(indices, scores):
                results[i] = score
        return [r for r in results if r is not None]


class _Unnormalized:
    """A `DomainRouter` seen without its batch normalization (`DomainRouter.raw`)."""

    def __init__(self, router: DomainRouter) -> None:
        self.router = router
        self.name = router.name

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return self.router.score_raw(samples)

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        return self.router.score_raw(samples, ready)

    @property
    def domains(self) -> dict[str, Reward]:  # for warm_up and other walkers of a reward tree
        return self.router.domains


class BatchNormalizer:
    """A config's batch normalization with its state: the mode, the epsilon, for
    `zscore_by_domain` with `ema_decay` the running statistics, and for
    `group_per_component` each domain's `MixPlan`. Local scoring, the server, the adapters
    and the Celery client all normalize through one of these."""

    def __init__(self, mode: Normalize = "none", *, eps: float | None = None,
                 ema_decay: float | None = None,
                 plans: Mapping[str, MixPlan] | None = None) -> None:
        _check_mode(mode)
        self.mode: Normalize = mode
        self.eps = eps
        self.running = RunningStats(ema_decay) if ema_decay is not None else None
        self.plans = dict(plans or {})
        """Domain -> how its components combine (`group_per_component`); a domain without
        one is normalized as one component (`MixPlan.whole()`)."""

    @classmethod
    def from_config(cls, config: RewardConfig) -> BatchNormalizer:
        """The normalizer of the reward `config` builds to (for a client that scores
        elsewhere, such as the Celery client)."""
        plans = ({d: MixPlan.from_domain(spec) for d, spec in config.domains.items()}
                 if config.normalize == "group_per_component" else None)
        return cls(config.normalize, eps=config.eps, ema_decay=config.ema_decay, plans=plans)

    def __call__(self, samples: Sequence[Sample], scores: Sequence[Score]) -> list[Score]:
        """The scores of one batch, normalized (see `normalize`); running statistics move."""
        return normalize(scores, samples, self.mode, eps=self.eps, running=self.running,
                         plans=self.plans)


class _Eps(TypedDict, total=False):
    eps: float


def normalize(scores: Sequence[Score], samples: Sequence[Sample], mode: Normalize, *,
              eps: float | None = None, running: RunningStats | None = None,
              plans: Mapping[str, MixPlan] | None = None) -> list[Score]:
    """A batch normalization of raw scores: `none` returns them as they are;
    `zscore_by_domain` (with `running` statistics, if given), `group` and
    `group_per_component` (with each domain's `plans`, see `per_component_normalize`)
    normalize the values and keep each raw value in `parts["raw"]`. `eps`: None for the
    normalizer's default. Abstentions stay `None` and are not counted."""
    _check_mode(mode)
    if len(scores) != len(samples):
        raise ConfigError(f"normalize: {len(scores)} scores for {len(samples)} samples")
    if mode == "none":
        return list(scores)
    values = [s.value for s in scores]
    options: _Eps = {} if eps is None else {"eps": eps}
    if mode == "zscore_by_domain":
        normalized = zscore_by_domain(values, [s.domain for s in samples], running=running,
                                      **options)
    elif mode == "group":
        normalized = group_normalize(values, [s.group for s in samples], **options)
    else:
        normalized = per_component_normalize(scores, samples, plans or {}, **options)
    return [Score(v, s.reason, {**s.parts, "raw": s.value}) for s, v in zip(scores, normalized)]


def _check_mode(mode: str) -> None:
    if mode not in NORMALIZE_MODES:
        raise ConfigError(f"unknown normalization {mode!r}: use "
                          f"{', '.join(NORMALIZE_MODES[:-1])} or {NORMALIZE_MODES[-1]}")


def per_component_normalize(scores: Sequence[Score], samples: Sequence[Sample],
                            plans: Mapping[str, MixPlan], *, eps: float = 1e-4
                            ) -> list[float | None]:
    """GDPO (Liu et al. 2026, "Group reward-Decoupled Normalization Policy Optimization";
    TRL's `multi_objective_aggregation="normalize_then_sum"`), on mixed scores:

    1. each component's value (`parts[name]`) is group-normalized on its own, over the
       samples of the same domain and group that scored it: (x - mean) / (std + eps);
    2. the normalized components are combined by the domain's plan (weights, alpha; an
       abstained component is skipped and weight 0 is logged only), as `Mixture` combines
       raw ones;
    3. the sums are normalized over the whole batch: (s - mean) / (std + eps).

    Std is the population std, as in `group_normalize` (TRL divides by n - 1: a factor that
    is the same for every group of one size and cancels in step 3, eps aside). A sample
    whose domain has no plan is one component, its value. A sample that abstained (no
    weighted component scored) stays `None` and is not counted."""
    if len(scores) != len(samples):
        raise ConfigError(f"per_component_normalize: {len(scores)} scores for "
                          f"{len(samples)} samples")
    domains = [s.domain if s.domain in plans else "default" for s in samples]
    chosen = [plans.get(d, MixPlan.whole()) for d in domains]
    names = dict.fromkeys(name for plan in chosen for name, _, _ in plan.components)
    per_name: dict[str, list[float | None]] = {}
    for name in names:  # step 1, one component at a time
        values = [None if score.value is None or name not in _names(plan)
                  else score.value if name == WHOLE else score.parts.get(name)
                  for score, plan in zip(scores, chosen)]
        keys = [(d, s.group) for d, s in zip(domains, samples)]
        per_name[name] = group_normalize(values, keys, eps=eps)
    sums = [None if score.value is None  # step 2
            else plan.combine({name: per_name[name][i] for name in _names(plan)})
            for i, (score, plan) in enumerate(zip(scores, chosen))]
    return _normalize_by_key(sums, [None] * len(sums), scale=True, eps=eps,  # step 3
                             add_eps=True)


def _names(plan: MixPlan) -> list[str]:
    return [name for name, _, _ in plan.components]


def _mean_std(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / len(values)
    return mean, math.sqrt(var)


class RunningStats:
    """Exponential moving averages of the mean and variance of each key's scores (a domain,
    usually) across batches.

    After a batch with mean m and population variance v, a key seen before moves to
    `mean' = d * mean + (1 - d) * m` and
    `var' = d * var + (1 - d) * v + d * (1 - d) * (m - mean) ** 2`: the variance of the
    d : (1 - d) mixture of the old distribution and the batch, so a shift of the mean widens
    the scale. A key's first batch sets its statistics exactly. Every batch weighs the same,
    whatever its size: with d close to 1, one small batch barely moves the scale.
    """

    def __init__(self, decay: float = 0.99) -> None:
        if not 0.0 <= decay < 1.0:
            raise ConfigError(f"decay must be in [0, 1), got {decay}")
        self.decay = decay
        self.mean: dict[Hashable, float] = {}
        self.var: dict[Hashable, float] = {}
        self.batches: dict[Hashable, int] = defaultdict(int)

    def update(self, key: Hashable, values: Sequence[float]) -> tuple[float, float]:
        """Fold one batch of a key's values in; returns the key's new (mean, std)."""
        if not values:
            raise ConfigError("update needs at least one value")
        batch_mean, batch_std = _mean_std([float(v) for v in values])
        batch_var = batch_std ** 2
        if key not in self.mean:
            self.mean[key], self.var[key] = batch_mean, batch_var
        else:
            d, old = self.decay, self.mean[key]
            self.mean[key] = d * old + (1.0 - d) * batch_mean
            self.var[key] = (d * self.var[key] + (1.0 - d) * batch_var
                             + d * (1.0 - d) * (batch_mean - old) ** 2)
        self.batches[key] += 1
        return self.mean[key], math.sqrt(self.var[key])

    def state_dict(self) -> dict[str, object]:
        """Plain data for a checkpoint (keys must be JSON-able for a JSON checkpoint)."""
        return {"decay": self.decay,
                "stats": [[k, self.mean[k], self.var[k], self.batches[k]] for k in self.mean]}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        self.decay = float(state["decay"])
        self.mean, self.var, self.batches = {}, {}, defaultdict(int)
        for key, mean, var, batches in state["stats"]:
            self.mean[key], self.var[key], self.batches[key] = mean, var, batches


def zscore_by_domain(scores: Sequence[float | None], domains: Sequence[Hashable], *,
                     eps: float = 1e-6, running: RunningStats | None = None
                     ) -> list[float | None]:
    """(x - mean) / std per domain (population std). Without `running` the statistics are
    the batch's own, and a domain with one sample or a std below `eps` gets 0.0, never NaN.
    With `running`, each domain's batch is first folded into the running statistics, which
    then normalize it (0.0 while the running std is below `eps`). `None` stays `None` and
    is not counted."""
    return _normalize_by_key(scores, domains, scale=True, eps=eps, running=running)


def group_normalize(scores: Sequence[float | None], groups: Sequence[Hashable], *,
                    scale: bool = True, eps: float = 1e-4) -> list[float | None]:
    """GRPO group advantages: (x - group mean), divided by (group std + eps) when `scale`
    (`scale=False` is Dr. GRPO). `None` stays `None` and is not counted."""
    return _normalize_by_key(scores, groups, scale=scale, eps=eps, add_eps=True)


def _normalize_by_key(scores: Sequence[float | None], keys: Sequence[Hashable], *, scale: bool,
                      eps: float, add_eps: bool = False,
                      running: RunningStats | None = None) -> list[float | None]:
    if len(scores) != len(keys):
        raise ConfigError(f"{len(scores)} scores but {len(keys)} keys")
    members: dict[Hashable, list[int]] = defaultdict(list)
    member_values: dict[Hashable, list[float]] = defaultdict(list)
    for i, (v, k) in enumerate(zip(scores, keys)):
        if v is not None:
            members[k].append(i)
            member_values[k].append(float(v))
    out: list[float | None] = [None] * len(scores)
    for key, indices in members.items():
        values = member_values[key]
        if running is not None:
            mean, std = running.update(key, values)
            single = False  # the running statistics are not the batch's: one sample is fine
        else:
            mean, std = _mean_std(values)
            single = len(values) < 2
        for i, v in zip(indices, values):
            if not scale:
                out[i] = v - mean
            elif add_eps:
                out[i] = (v - mean) / (std + eps)
            else:
                out[i] = 0.0 if single or std < eps else (v - mean) / std
    return out
