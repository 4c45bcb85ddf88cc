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
from typing import Literal

from rewards._types import Reward, Sample, Score

__all__ = ["DomainRouter", "Mixture", "RunningStats", "WeightedComponent", "group_normalize",
           "zscore_by_domain"]


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
    other side alone. Every component's value lands in `parts` under its name.
    """

    def __init__(self, components: Sequence[WeightedComponent], *, alpha: float | None = None,
                 name: str = "mixture") -> None:
        if not components:
            raise ValueError("a Mixture needs at least one component")
        self.components = tuple(components)
        self.alpha = alpha
        self.name = name

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        per_component = [c.reward.score(samples) for c in self.components]
        for c, scores in zip(self.components, per_component):
            if len(scores) != len(samples):
                raise RuntimeError(f"reward {c.reward.name!r} returned {len(scores)} scores "
                                   f"for {len(samples)} samples")
        return [self._combine([scores[i] for scores in per_component])
                for i in range(len(samples))]

    def _combine(self, scores: list[Score]) -> Score:
        parts: dict[str, float | None] = {}
        for c, s in zip(self.components, scores):
            parts[c.reward.name] = s.value
            for key, value in s.parts.items():
                if key != c.reward.name:
                    parts[f"{c.reward.name}/{key}"] = value
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


def _weighted_sum(pairs: list[tuple[WeightedComponent, Score]]) -> float | None:
    present = [(c.weight, s.value) for c, s in pairs if s.value is not None]
    if not present:
        return None
    return float(sum(w * v for w, v in present))


class DomainRouter:
    """Scores each sample with its domain's reward (`default` for unlisted domains), then
    normalizes the batch: none, zscore_by_domain or group."""

    def __init__(self, domains: Mapping[str, Reward], *,
                 normalize: Literal["none", "zscore_by_domain", "group"] = "none",
                 name: str = "rewards", ema_decay: float | None = None,
                 eps: float | None = None) -> None:
        """`ema_decay` (zscore_by_domain only): keep running per-domain statistics across
        batches with this decay (see `RunningStats`); `eps`: the normalizer's epsilon
        (default: that of `zscore_by_domain` or `group_normalize`)."""
        self.domains = dict(domains)
        self.normalize = normalize
        self.name = name
        self.eps = eps
        self.running = RunningStats(ema_decay) if ema_decay is not None else None

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        results: list[Score | None] = [None] * len(samples)
        by_domain: dict[str, list[int]] = defaultdict(list)
        for i, s in enumerate(samples):
            domain = s.domain if s.domain in self.domains else "default"
            if domain in self.domains:
                by_domain[domain].append(i)
            else:
                results[i] = Score(None, "unknown_domain")
        for domain, indices in by_domain.items():
            scores = self.domains[domain].score([samples[i] for i in indices])
            for i, score in zip(indices, scores):
                results[i] = score
        final = [r for r in results if r is not None]
        assert len(final) == len(samples)
        if self.normalize == "none":
            return final
        values = [s.value for s in final]
        eps = {} if self.eps is None else {"eps": self.eps}
        if self.normalize == "zscore_by_domain":
            normalized = zscore_by_domain(values, [s.domain for s in samples],
                                          running=self.running, **eps)
        else:
            normalized = group_normalize(values, [s.group for s in samples], **eps)
        return [Score(v, s.reason, {**s.parts, "raw": s.value}) for s, v in zip(final, normalized)]


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
            raise ValueError(f"decay must be in [0, 1), got {decay}")
        self.decay = decay
        self.mean: dict[Hashable, float] = {}
        self.var: dict[Hashable, float] = {}
        self.batches: dict[Hashable, int] = defaultdict(int)

    def update(self, key: Hashable, values: Sequence[float]) -> tuple[float, float]:
        """Fold one batch of a key's values in; returns the key's new (mean, std)."""
        if not values:
            raise ValueError("update needs at least one value")
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
        raise ValueError(f"{len(scores)} scores but {len(keys)} keys")
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
