"""Combining rewards: weighted components per domain (alpha * verifiable + (1 - alpha) *
learned), routing samples to their domain, and batch normalization (z-score per domain,
GRPO group advantages). Abstentions (`None`) are excluded from statistics and stay `None`.

`zscore_by_domain` can keep running statistics across batches (`RunningStats`, an EMA of each
domain's mean and variance) so that one small batch does not swing the scale."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rewards.errors import ConfigError
from rewards.types import Reward, Sample, Score, check_scores

if TYPE_CHECKING:
    from rewards.config import RewardConfig

__all__ = ["BatchNormalizer", "DomainRouter", "Mixture", "Normalize", "RunningStats",
           "WeightedComponent", "group_normalize", "normalize", "zscore_by_domain"]

Normalize = Literal["none", "zscore_by_domain", "group"]


@dataclass(frozen=True)
class WeightedComponent:
    """A reward with its weight (0 = logged only) and kind (for alpha mixing)."""

    reward: Reward
    weight: float = 1.0
    kind: Literal["verifiable", "learned"] = "verifiable"


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
        if alpha is not None:
            _check_sides(self.components, alpha, name)

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        per_component = [check_scores(c.reward, c.reward.score(samples), len(samples))
                         for c in self.components]
        return [self._combine([scores[i] for scores in per_component])
                for i in range(len(samples))]

    def _combine(self, scores: list[Score]) -> Score:
        parts: dict[str, float | None] = {}
        for c, s in zip(self.components, scores):
            parts[c.reward.name] = s.value
            prefix = f"{c.reward.name}/"
            for key, value in s.parts.items():
                if key != c.reward.name:  # a part already named for its component keeps it
                    parts[key if key.startswith(prefix) else prefix + key] = value
        weighted = [(c, s) for c, s in zip(self.components, scores) if c.weight > 0]
        reason = next((s.reason for _, s in weighted if s.reason != "ok"), "ok")
        if self.alpha is None:
            value = _weighted_sum(weighted)
        else:
            verifiable = _weighted_sum([(c, s) for c, s in weighted if c.kind == "verifiable"])
            learned = _weighted_sum([(c, s) for c, s in weighted if c.kind == "learned"])
            sides = [(self.alpha, verifiable), (1.0 - self.alpha, learned)]
            present = [(a, v) for a, v in sides if a > 0 and v is not None]
            needed = [a for a, _ in sides if a > 0]
            if not present:
                value = None
            elif len(present) == len(needed):
                value = sum(a * v for a, v in present)
            else:  # one needed side abstained: the other stands alone, unscaled
                value = present[0][1]
        return Score(value, reason, parts)


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


def _weighted_sum(pairs: list[tuple[WeightedComponent, Score]]) -> float | None:
    present = [(c.weight, s.value) for c, s in pairs if s.value is not None]
    if not present:
        return None
    return float(sum(w * v for w, v in present))


class DomainRouter:
    """Scores each sample with its domain's reward (`default` for unlisted domains), then
    normalizes the batch: none, zscore_by_domain or group (see `BatchNormalizer`)."""

    def __init__(self, domains: Mapping[str, Reward], *,
                 normalize: Normalize = "none", name: str = "rewards",
                 ema_decay: float | None = None, eps: float | None = None) -> None:
        """`ema_decay` (zscore_by_domain only): keep running per-domain statistics across
        batches with this decay (see `RunningStats`); `eps`: the normalizer's epsilon
        (default: that of `zscore_by_domain` or `group_normalize`)."""
        self.domains = dict(domains)
        self.name = name
        self.normalizer = BatchNormalizer(normalize, eps=eps, ema_decay=ema_decay)
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

    def score_raw(self, samples: Sequence[Sample]) -> list[Score]:
        """Each sample scored by its domain's reward; no batch normalization."""
        results: list[Score | None] = [None] * len(samples)
        by_domain: dict[str, list[int]] = defaultdict(list)
        for i, s in enumerate(samples):
            domain = s.domain if s.domain in self.domains else "default"
            if domain in self.domains:
                by_domain[domain].append(i)
            else:
                results[i] = Score(None, "unknown_domain")
        for domain, indices in by_domain.items():
            reward = self.domains[domain]
            scores = check_scores(reward, reward.score([samples[i] for i in indices]),
                                  len(indices))
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

    @property
    def domains(self) -> dict[str, Reward]:  # for warm_up and other walkers of a reward tree
        return self.router.domains


class BatchNormalizer:
    """A config's batch normalization with its state: the mode, the epsilon and, for
    `zscore_by_domain` with `ema_decay`, the running statistics. Local scoring, the server,
    the adapters and the Celery client all normalize through one of these."""

    def __init__(self, mode: Normalize = "none", *, eps: float | None = None,
                 ema_decay: float | None = None) -> None:
        _check_mode(mode)
        self.mode: Normalize = mode
        self.eps = eps
        self.running = RunningStats(ema_decay) if ema_decay is not None else None

    @classmethod
    def from_config(cls, config: RewardConfig) -> BatchNormalizer:
        return cls(config.normalize, eps=config.eps, ema_decay=config.ema_decay)

    def __call__(self, samples: Sequence[Sample], scores: Sequence[Score]) -> list[Score]:
        """The scores of one batch, normalized (see `normalize`); running statistics move."""
        return normalize(scores, samples, self.mode, eps=self.eps, running=self.running)


def normalize(scores: Sequence[Score], samples: Sequence[Sample], mode: Normalize, *,
              eps: float | None = None, running: RunningStats | None = None) -> list[Score]:
    """A batch normalization of raw scores: `none` returns them as they are;
    `zscore_by_domain` (with `running` statistics, if given) and `group` normalize the values
    and keep each raw value in `parts["raw"]`. `eps`: None for the normalizer's default.
    Abstentions stay `None` and are not counted."""
    _check_mode(mode)
    if len(scores) != len(samples):
        raise ConfigError(f"normalize: {len(scores)} scores for {len(samples)} samples")
    if mode == "none":
        return list(scores)
    values = [s.value for s in scores]
    options = {} if eps is None else {"eps": eps}
    if mode == "zscore_by_domain":
        normalized = zscore_by_domain(values, [s.domain for s in samples], running=running,
                                      **options)
    else:
        normalized = group_normalize(values, [s.group for s in samples], **options)
    return [Score(v, s.reason, {**s.parts, "raw": s.value}) for s, v in zip(scores, normalized)]


def _check_mode(mode: str) -> None:
    if mode not in ("none", "zscore_by_domain", "group"):
        raise ConfigError(f"unknown normalization {mode!r}: use none, zscore_by_domain or group")


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

    def load_state_dict(self, state: Mapping[str, object]) -> None:
        self.decay = float(state["decay"])  # type: ignore[arg-type]
        self.mean, self.var, self.batches = {}, {}, defaultdict(int)
        for key, mean, var, batches in state["stats"]:  # type: ignore[union-attr]
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
    for i, (v, k) in enumerate(zip(scores, keys)):
        if v is not None:
            members[k].append(i)
    out: list[float | None] = [None] * len(scores)
    for key, indices in members.items():
        values = [float(scores[i]) for i in indices]  # type: ignore[arg-type]
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
