"""Turn a reward config into one `Reward`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rewards.answer_after import AnswerAfter
from rewards.config import ComponentConfig, Kind, RewardConfig, load_config, parse_config
from rewards.errors import ConfigError
from rewards.mixing import DomainRouter, Mixture, WeightedComponent
from rewards.registry import resolve
from rewards.types import Reward, Sample, Score, ScoresReady, score_progressively

__all__ = ["ANSWER_AFTER", "build_component", "build_component_spec", "build_reward",
           "nested_component_configs"]

ANSWER_AFTER = "answer_after"
"""The component option every component takes: score only the text after this marker."""


def build_reward(config: RewardConfig | str | Path) -> Reward:
    """One `Reward` for a whole config: samples routed by domain, combined, normalized."""
    if not isinstance(config, RewardConfig):
        config = load_config(config)
    domains: dict[str, Reward] = {}
    for domain, spec in config.domains.items():
        components = []
        for component in spec.rewards:
            built = build_component(component)
            declared: Kind = getattr(built, "kind", "verifiable")  # a reward's own attribute
            kind = component.kind or declared
            components.append(WeightedComponent(built, component.weight, kind))
        domains[domain] = Mixture(components, alpha=spec.alpha, name=domain)
    return DomainRouter(domains, normalize=config.normalize, ema_decay=config.ema_decay,
                        eps=config.eps)


def build_component(component: ComponentConfig) -> Reward:
    """Instantiate one component: a `Reward` object is used as is, a factory is called with
    the component's options. Its `name` becomes the component's configured name.

    A factory that lists option names in `nested_components` (`cosine`'s and `length`'s
    `of`) gets each of those written as a component entry built here, by this builder, and
    passed in as a `Reward`.

    One option belongs to every component and is never passed on: `answer_after` (a marker
    such as `"</think>"`, or a list of them). The component then scores only the text after
    the marker's last occurrence, and a completion without it scores 0.0 with reason
    `no_answer` (see `rewards.answer_after.AnswerAfter`)."""
    target: Any = resolve(component.use)
    options = dict(component.options)
    marker = options.pop(ANSWER_AFTER, None)
    for key in getattr(target, "nested_components", ()):  # `of: {use: math}`: built here
        if isinstance(options.get(key), (str, Mapping)):
            options[key] = build_component_spec(options[key], where=f"{component.name}.{key}")
    if hasattr(target, "score") and not isinstance(target, type):
        if options:
            raise ConfigError(f"reward {component.use!r} is a ready Reward and takes no options, "
                              f"got {sorted(options)}")
        built = target
    else:
        try:
            built = target(**options)
        except TypeError as exc:
            raise ConfigError(f"reward {component.use!r}: bad options "
                              f"{options}: {exc}") from exc
        except ConfigError as exc:
            if "unknown key" not in str(exc) or ANSWER_AFTER in str(exc):
                raise
            # the component's own keys, and the one every component takes (read here)
            raise ConfigError(f"{exc}; and {ANSWER_AFTER}, which every component takes") \
                from exc
    if not hasattr(built, "score"):
        raise ConfigError(f"reward {component.use!r} did not produce a Reward (an object with "
                          f"score(samples)); plain one-sample functions need @rewards.reward")
    if marker is not None:  # `answer_after: null` is the default: the whole completion
        built = AnswerAfter(built, marker)
    if getattr(built, "name", None) != component.name:
        built = _Renamed(built, component.name)
    return built


def nested_component_configs(component: ComponentConfig) -> list[ComponentConfig]:
    """The components written inside `component`'s options (`cosine`'s `of: {use: rtv}`),
    parsed by the one config parser, for the option names its factory declares nested
    (`nested_components`); [] for a plugin that does not import here (building it says so).
    What the builder builds inside a component, for those that route or stress it."""
    try:
        keys = getattr(resolve(component.use), "nested_components", ())
    except ConfigError:
        return []
    out = []
    for key in keys:
        spec = component.options.get(key)
        if isinstance(spec, (str, Mapping)):
            where = f"{component.name}.{key}"
            config = parse_config({"domains": {where: {"rewards": [spec]}}}, source=where)
            out.append(config.domains[where].rewards[0])
    return out


def build_component_spec(spec: Any, *, where: str) -> Reward:
    """One component from its config entry, written as in a domain's `rewards` list (a name,
    or a mapping with `use` and options), read by the one config parser: for components
    built around another (`cosine`'s `of: {use: math}`). `where` names it in errors."""
    try:
        config = parse_config({"domains": {where: {"rewards": [spec]}}}, source=where)
        return build_component(config.domains[where].rewards[0])
    except ConfigError as exc:
        if str(exc).startswith(where):
            raise
        raise ConfigError(f"{where}: {exc}") from exc


class _Renamed:
    """A reward under its configured name (the underlying object may be shared)."""

    def __init__(self, reward: Reward, name: str) -> None:
        self.reward = reward
        self.name = name
        self.kind = getattr(reward, "kind", "verifiable")

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return self.reward.score(samples)

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        return score_progressively(self.reward, samples, ready)
