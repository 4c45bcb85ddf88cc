"""Combining rewards: weighted components per domain (alpha * verifiable + (1 - alpha) *
learned), routing samples to their domain, and batch normalization (z-score per domain,
GRPO group advantages). Abstentions (`None`) are excluded from statistics and stay `None`."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rewards._types import Reward, Sample, Score

__all__ = ["DomainRouter", "Mixture", "WeightedComponent", "group_normalize", "zscore_by_domain"]


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
                 name: str = "rewards") -> None:
        self.domains = dict(domains)
        self.normalize = normalize
        self.name = name

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
        if self.normalize == "zscore_by_domain":
            normalized = zscore_by_domain(values, [s.domain for s in samples])
        else:
            normalized = group_normalize(values, [s.group for s in samples])
        return [Score(v, s.reason, {**s.parts, "raw": s.value}) for s, v in zip(final, normalized)]


def _mean_std(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / len(values)
    return mean, math.sqrt(var)


def zscore_by_domain(scores: Sequence[float | None], domains: Sequence[Hashable], *,
                     eps: float = 1e-6) -> list[float | None]:
    """(x - mean) / std per domain within the batch (population std). A domain with one
    sample or zero spread gets 0.0, never NaN; `None` stays `None` and is not counted."""
    return _normalize_by_key(scores, domains, scale=True, eps=eps)


def group_normalize(scores: Sequence[float | None], groups: Sequence[Hashable], *,
                    scale: bool = True, eps: float = 1e-4) -> list[float | None]:
    """GRPO group advantages: (x - group mean), divided by (group std + eps) when `scale`
    (`scale=False` is Dr. GRPO). `None` stays `None` and is not counted."""
    return _normalize_by_key(scores, groups, scale=scale, eps=eps, add_eps=True)


def _normalize_by_key(scores: Sequence[float | None], keys: Sequence[Hashable], *, scale: bool,
                      eps: float, add_eps: bool = False) -> list[float | None]:
    if len(scores) != len(keys):
        raise ValueError(f"{len(scores)} scores but {len(keys)} keys")
    members: dict[Hashable, list[int]] = defaultdict(list)
    for i, (v, k) in enumerate(zip(scores, keys)):
        if v is not None:
            members[k].append(i)
    out: list[float | None] = [None] * len(scores)
    for indices in members.values():
        values = [float(scores[i]) for i in indices]  # type: ignore[arg-type]
        mean, std = _mean_std(values)
        for i, v in zip(indices, values):
            if not scale:
                out[i] = v - mean
            elif add_eps:
                out[i] = (v - mean) / (std + eps)
            else:
                out[i] = 0.0 if len(values) < 2 or std < eps else (v - mean) / std
    return out
