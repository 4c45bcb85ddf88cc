"""Which queue a domain's samples go to: the kind of work its rewards need.

`cpu` takes math and rule checks, `sandbox` takes code run in the sandbox (RTV), `gpu` takes
reward models. A domain goes to the most demanding queue among its components
(gpu > sandbox > cpu), so a worker never receives work it cannot run.
"""

from __future__ import annotations

from collections.abc import Mapping

from integrations.celery._app import QUEUE_KINDS, QueueKind
from rewards.build import nested_component_configs
from rewards.config import ComponentConfig, RewardConfig
from rewards.errors import ConfigError
from rewards.options import did_you_mean

__all__ = ["component_queue", "domain_queues"]

# Registered names whose work needs something special; dotted paths and other names are cpu.
_QUEUE_OF_USE: dict[str, QueueKind] = {"rtv": "sandbox", "genrm": "gpu", "rm": "gpu"}
_RANK = {kind: rank for rank, kind in enumerate(QUEUE_KINDS)}


def component_queue(component: ComponentConfig) -> QueueKind:
    """The queue one component's work needs: learned components run on `gpu`; a component
    built around others (`cosine` or `length` with `of: rtv`) needs what they need, as the
    builder reads them (`nested_components`)."""
    if component.kind == "learned":
        return "gpu"
    kinds = [_QUEUE_OF_USE.get(component.use, "cpu")]
    kinds += [component_queue(nested) for nested in nested_component_configs(component)]
    return max(kinds, key=_RANK.__getitem__)


def domain_queues(config: RewardConfig,
                  overrides: Mapping[str, str] | None = None) -> dict[str, QueueKind]:
    """Domain -> queue kind for every domain of the config; `overrides` pins domains."""
    overrides = dict(overrides or {})
    unknown = set(overrides) - set(config.domains)
    if unknown:
        raise ConfigError(f"queue overrides name domains the config lacks: {sorted(unknown)}")
    queues: dict[str, QueueKind] = {}
    for domain, spec in config.domains.items():
        if domain in overrides:
            kind = overrides[domain]
            if kind not in QUEUE_KINDS:
                raise ConfigError(f"queue for domain {domain!r} must be one of "
                                  f"{', '.join(QUEUE_KINDS)}, not {kind!r}"
                                  f"{did_you_mean(kind, QUEUE_KINDS)}")
            queues[domain] = kind
        else:
            queues[domain] = max((component_queue(c) for c in spec.rewards), key=_RANK.__getitem__)
    return queues
