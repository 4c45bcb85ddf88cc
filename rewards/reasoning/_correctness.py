"""Correctness from another component, for the length rewards that scale by it (`cosine`,
`length`). The option `of` is that component's config entry, written as in a domain's
`rewards` list: `of: math` or `of: {use: math, answer_after: "</think>"}`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rewards.errors import ConfigError
from rewards.types import Reward, Sample

__all__ = ["Correctness", "check_of"]


def check_of(value: Any, *, optional: bool) -> None:
    """`of` is a component name, or a mapping with `use` (no `weight` or `kind`: the inner
    component is not mixed, only read). Errors read `of: problem`, for the config loader."""
    if value is None:
        if optional:
            return
        raise ConfigError("of: is required here: the component that decides correctness, "
                          "such as 'math' or {use: math}")
    if isinstance(value, str) and value:
        return
    if not isinstance(value, Mapping) or not isinstance(value.get("use"), str):
        raise ConfigError(f"of: must be a component name such as 'math' or a mapping with a "
                          f"'use' key, not {value!r}")
    ignored = sorted({"weight", "kind"} & set(value))
    if ignored:
        raise ConfigError(f"of: takes no {ignored}: the component is only read for "
                          "correctness, never mixed")


class Correctness:
    """Builds the `of` component once; `judge(samples)` says, per sample, whether it is
    correct (its value, or its part `part`, is at least `correct_at`), or `None` when it
    abstained, with the reason to report."""

    def __init__(self, of: Any, *, correct_at: float, part: str | None, what: str) -> None:
        from rewards.build import build_component_spec  # the builder imports this package

        self.reward: Reward = build_component_spec(of, where=f"{what}.of")
        self.correct_at = correct_at
        self.part = part
        self.what = what

    def judge(self, samples: Sequence[Sample]) -> list[tuple[bool | None, str]]:
        from rewards.scoring import check_scores

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
