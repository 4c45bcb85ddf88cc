"""Turn a reward config into one `Reward`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rewards.config import ComponentConfig, RewardConfig, load_config
from rewards.errors import ConfigError
from rewards.mixing import DomainRouter, Mixture, WeightedComponent
from rewards.registry import resolve
from rewards.types import Reward

__all__ = ["build_component", "build_reward"]


def build_reward(config: RewardConfig | str | Path) -> Reward:
    """One `Reward` for a whole config: samples routed by domain, combined, normalized."""
    if not isinstance(config, RewardConfig):
        config = load_config(config)
    domains: dict[str, Reward] = {}
    for domain, spec in config.domains.items():
        components = []
        for component in spec.rewards:
            built = build_component(component)
            kind = component.kind or getattr(built, "kind", "verifiable")
            components.append(WeightedComponent(built, component.weight, kind))
        domains[domain] = Mixture(components, alpha=spec.alpha, name=domain)
    return DomainRouter(domains, normalize=config.normalize, ema_decay=config.ema_decay,
                        eps=config.eps)


def build_component(component: ComponentConfig) -> Reward:
    """Instantiate one component: a `Reward` object is used as is, a factory is called with
    the component's options. Its `name` becomes the component's configured name."""
    target: Any = resolve(component.use)
    if hasattr(target, "score") and not isinstance(target, type):
        if component.options:
            raise ConfigError(f"reward {component.use!r} is a ready Reward and takes no options, "
                              f"got {sorted(component.options)}")
        built = target
    else:
        try:
            built = target(**component.options)
        except TypeError as exc:
            raise ConfigError(f"reward {component.use!r}: bad options "
                              f"{dict(component.options)}: {exc}") from exc
    if not hasattr(built, "score"):
        raise ConfigError(f"reward {component.use!r} did not produce a Reward (an object with "
                          f"score(samples)); plain one-sample functions need @rewards.reward")
    if getattr(built, "name", None) != component.name:
        built = _Renamed(built, component.name)
    return built


class _Renamed:
    """A reward under its configured name (the underlying object may be shared)."""

    def __init__(self, reward: Reward, name: str) -> None:
        self.reward = reward
        self.name = name
        self.kind = getattr(reward, "kind", "verifiable")

    def score(self, samples):  # type: ignore[no-untyped-def]
        return self.reward.score(samples)
