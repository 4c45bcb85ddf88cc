"""Correctness from another component, for the length rewards that scale by it (`cosine`,
`length`). The option `of` is that component's config entry, written as in a domain's
`rewards` list: `of: math` or `of: {use: math, answer_after: "</think>"}`. The config builder
builds it and passes the `Reward` in (`nested_components`); in Python `of` may be a `Reward`
or an entry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rewards.build import build_component_spec
from rewards.errors import ConfigError
from rewards.types import Reward, Sample, check_scores

__all__ = ["Correctness", "check_of"]


def check_of(value: Any, *, optional: bool) -> None:
    """`of` is a component name, or a mapping with `use` (no `weight` or `kind`: the inner
    component is not mixed, only read). Errors read `of: problem`, for the config loader."""
    if value is None:
        if optional:
            return
        raise ConfigError("of: is required here: the component that decides correctness, "
                          "such as 'math' or {use: math}")
    if (isinstance(value, str) and value) or isinstance(value, Reward):  # built: by the builder
        return
    if not isinstance(value, Mapping) or not isinstance(value.get("use"), str):
        raise ConfigError(f"of: must be a component name such as 'math' or a mapping with a "
                          f"'use' key, not {value!r}")
    ignored = sorted({"weight", "kind"} & set(value))
    if ignored:
        raise ConfigError(f"of: takes no {ignored}: the component is only read for "
                          "correctness, never mixed")


class Correctness:
    """Takes the `of` component (built by the config builder, which passes it in), or builds
    it once from its entry; `judge(samples)` says, per sample, whether it is
    correct (its value, or its part `part`, is at least `correct_at`), or `None` when it
    abstained, with the reason to report."""

    def __init__(self, of: Any, *, correct_at: float, part: str | None, what: str) -> None:
        self.reward: Reward = of if isinstance(of, Reward) \
            else build_component_spec(of, where=f"{what}.of")
        self.correct_at = correct_at
        self.part = part
        self.what = what

    def judge(self, samples: Sequence[Sample]) -> list[tuple[bool | None, str]]:
        scores = check_scores(self.reward, self.reward.score(samples), len(samples))
        verdicts: list[tuple[bool | None, str]] = []
        for score in scores:
            value = score.value
            if value is not None and self.part is not None:
                if self.part not in score.parts:
                    raise ConfigError(
                        f"{self.what} reward: part: {self.reward.name!r} reports no part "
                        f"{self.part!r} (its parts: {sorted(score.parts)})")
                value = score.parts[self.part]
            if value is None:
                verdicts.append((None, score.reason))
            elif value >= self.correct_at:
                verdicts.append((True, "ok"))
            else:
                verdicts.append((False, score.reason if score.reason != "ok" else "wrong"))
        return verdicts
