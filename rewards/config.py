"""The reward config file (YAML): one format for the CLI, the HTTP server, the Celery worker
and the trainers alike.

```yaml
domains:
  math:  {rewards: [{use: math}]}
  code:  {rewards: [{use: rtv, weights: {rule: 0.1, tests: 0.5, hidden: 0.3, judge: 0.1}}]}
  chat:  {alpha: 0.0, rewards: [{use: genrm, backend: vllm-server, url: "http://127.0.0.1:8000"}]}
normalize: zscore_by_domain       # or group, or none
ema_decay: 0.99                   # optional: running z-score statistics across batches
eps: 1.0e-6                       # optional: the normalizer's epsilon
```
Every key of a component other than `use`, `name`, `weight` and `kind` is passed to its factory.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args

from rewards.errors import ConfigError

__all__ = ["MAX_YAML_NODES", "ComponentConfig", "DomainConfig", "RewardConfig", "load_config",
           "load_yaml", "parse_config", "parse_yaml"]

Normalize = Literal["none", "zscore_by_domain", "group"]
Kind = Literal["verifiable", "learned"]
_COMPONENT_KEYS = {"use", "name", "weight", "kind"}

MAX_YAML_NODES = 100_000
"""Most nodes a YAML document may hold with its aliases expanded. A config has hundreds; a
"billion laughs" file of a few hundred bytes (anchors aliasing anchors) expands to billions
once the document is copied, hashed or shipped to a worker."""


@dataclass(frozen=True)
class ComponentConfig:
    """One reward component of a domain."""

    use: str
    """Registered name (`math`, `rtv`, `genrm`, `rm`, `celery`) or dotted path `pkg.mod:attr`."""
    name: str
    """Name in `parts` and in logs (`reward/<name>`); defaults to `use`."""
    weight: float = 1.0
    """Weight in the domain's sum; 0 means computed and logged only."""
    kind: Kind | None = None
    """verifiable or learned, for the domain's `alpha`; None: the component's own `kind`."""
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """Keyword arguments for the component's factory."""


@dataclass(frozen=True)
class DomainConfig:
    """The rewards of one domain (math, code, chat ...)."""

    rewards: tuple[ComponentConfig, ...]
    """The components, combined by weight."""
    alpha: float | None = None
    """If set: alpha * verifiable + (1 - alpha) * learned; None: a plain weighted sum."""


@dataclass(frozen=True)
class RewardConfig:
    """A whole reward config: per-domain components and the batch normalization."""

    domains: Mapping[str, DomainConfig]
    """Domain name -> its rewards; `default` catches samples of unlisted domains."""
    normalize: Normalize = "none"
    """Batch normalization of the final values: none, zscore_by_domain or group (GRPO)."""
    ema_decay: float | None = None
    """zscore_by_domain only: running per-domain statistics across batches with this decay."""
    eps: float | None = None
    """The normalizer's epsilon; None: the normalizer's default."""
    raw: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    """The parsed document, for hashing and for shipping to remote workers."""

    def document(self) -> dict[str, Any]:
        """The parsed document as plain dicts and lists (JSON-ready: for workers and hashing)."""
        return _plain(self.raw)

    def content_hash(self) -> str:
        """A stable hash of the config's content: workers check they score with the same one."""
        canonical = json.dumps(self.document(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def load_config(path: str | Path) -> RewardConfig:
    """Read and validate a reward config file."""
    return parse_config(load_yaml(path, what="reward config"), source=str(path))


def load_yaml(path: str | Path, *, what: str = "config") -> Any:
    """The YAML document of a config file (`parse_yaml`); any failure is a `ConfigError`
    naming the file. Every config file (reward, training) is read through here."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read {what}: {exc}") from exc
    return parse_yaml(text, source=str(path))


def parse_yaml(text: str, *, source: str, max_nodes: int = MAX_YAML_NODES) -> Any:
    """Parse YAML text (safe tags only) whose expanded size, aliases counted at full size, is
    at most `max_nodes`; recursive aliases and nesting too deep to compose are refused."""
    import yaml

    loader = _bounded_loader()(text, max_nodes)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return loader.construct_document(node)
    except _TooLarge as exc:
        raise ConfigError(f"{source}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: not valid YAML: {exc}") from exc
    except RecursionError:
        raise ConfigError(f"{source}: YAML nested too deeply") from None
    finally:
        loader.dispose()


class _TooLarge(Exception):
    pass


@functools.cache
def _bounded_loader() -> type:
    """PyYAML's safe loader, counting nodes while composing (yaml is imported on first use)."""
    import yaml

    class BoundedLoader(yaml.SafeLoader):
        """Counts nodes while composing: a fresh node counts 1, an alias the expanded size of
        the node it names, so the count is the size of the document with aliases expanded."""

        def __init__(self, text: str, max_nodes: int) -> None:
            super().__init__(text)
            self.max_nodes = max_nodes
            self.expanded = 0
            self.sizes: dict[int, int] = {}  # id(node) -> its expanded size, once composed

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.peek_event()
            alias = isinstance(event, yaml.AliasEvent)
            before = self.expanded
            node = super().compose_node(parent, index)
            if alias:
                if id(node) not in self.sizes:
                    raise _TooLarge(f"recursive YAML alias *{event.anchor} at line "
                                   f"{event.start_mark.line + 1}")
                self.expanded += self.sizes[id(node)]
            else:
                self.expanded += 1
                self.sizes[id(node)] = self.expanded - before
            if self.expanded > self.max_nodes:
                raise _TooLarge(f"YAML expands to more than {self.max_nodes:,} nodes (aliases "
                                "expanded); a config is far smaller: refused")
            return node

    return BoundedLoader




def parse_config(document: Any, *, source: str = "<config>") -> RewardConfig:
    """Validate a parsed config document (a mapping) into a `RewardConfig`."""
    if not isinstance(document, Mapping):
        raise ConfigError(f"{source}: a reward config is a mapping with a 'domains' key")
    unknown = set(document) - {"domains", "normalize", "ema_decay", "eps"}
    if unknown:
        raise ConfigError(f"{source}: unknown top-level keys {sorted(unknown)}")
    domains = document.get("domains")
    if not isinstance(domains, Mapping) or not domains:
        raise ConfigError(f"{source}: 'domains' must be a non-empty mapping of domain -> rewards")
    normalize = document.get("normalize", "none") or "none"
    if normalize not in get_args(Normalize):
        raise ConfigError(f"{source}: normalize must be one of {get_args(Normalize)}, "
                          f"not {normalize!r}")
    ema_decay = document.get("ema_decay")
    if ema_decay is not None:
        if normalize != "zscore_by_domain":
            raise ConfigError(f"{source}: ema_decay needs normalize: zscore_by_domain")
        if not (isinstance(ema_decay, (int, float)) and 0.0 < ema_decay < 1.0):
            raise ConfigError(f"{source}: ema_decay must be a number in (0, 1), "
                              f"not {ema_decay!r}")
    eps = document.get("eps")
    if eps is not None and not (isinstance(eps, (int, float)) and eps > 0):
        raise ConfigError(f"{source}: eps must be a number > 0, not {eps!r}")
    parsed = {str(name): _parse_domain(spec, f"{source}: domains.{name}")
              for name, spec in domains.items()}
    return RewardConfig(MappingProxyType(parsed), normalize,
                        None if ema_decay is None else float(ema_decay),
                        None if eps is None else float(eps), MappingProxyType(_plain(document)))


def _parse_domain(spec: Any, where: str) -> DomainConfig:
    if not isinstance(spec, Mapping) or not isinstance(spec.get("rewards"), list) \
            or not spec["rewards"]:
        raise ConfigError(f"{where}: needs a non-empty 'rewards' list")
    unknown = set(spec) - {"rewards", "alpha"}
    if unknown:
        raise ConfigError(f"{where}: unknown keys {sorted(unknown)}")
    alpha = spec.get("alpha")
    if alpha is not None and not (isinstance(alpha, (int, float)) and 0.0 <= alpha <= 1.0):
        raise ConfigError(f"{where}.alpha: must be a number in [0, 1], not {alpha!r}")
    components = tuple(_parse_component(c, f"{where}.rewards[{i}]")
                       for i, c in enumerate(spec["rewards"]))
    names = [c.name for c in components]
    if len(set(names)) != len(names):
        raise ConfigError(f"{where}: component names must be unique, got {names}; "
                          "give repeated components a 'name'")
    return DomainConfig(components, None if alpha is None else float(alpha))


def _parse_component(spec: Any, where: str) -> ComponentConfig:
    if isinstance(spec, str):
        spec = {"use": spec}
    if not isinstance(spec, Mapping) or not isinstance(spec.get("use"), str):
        raise ConfigError(f"{where}: a component is a mapping with a 'use' key")
    weight = spec.get("weight", 1.0)
    if not isinstance(weight, (int, float)) or weight < 0:
        raise ConfigError(f"{where}.weight: must be a number >= 0, not {weight!r}")
    kind = spec.get("kind")
    if kind is not None and kind not in get_args(Kind):
        raise ConfigError(f"{where}.kind: must be one of {get_args(Kind)}, not {kind!r}")
    options = {k: v for k, v in spec.items() if k not in _COMPONENT_KEYS}
    return ComponentConfig(use=spec["use"], name=str(spec.get("name") or spec["use"]),
                           weight=float(weight), kind=kind, options=MappingProxyType(options))
