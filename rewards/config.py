"""The reward config file (YAML): one format for the CLI, the HTTP server, the Celery worker
and the trainers alike.

```yaml
domains:
  math:  {rewards: [{use: math}]}
  code:  {rewards: [{use: rtv, weights: {rule: 0.1, tests: 0.5, hidden: 0.3, judge: 0.1}}]}
  chat:  {alpha: 0.0, rewards: [{use: genrm, backend: vllm-server, url: "http://127.0.0.1:8000"}]}
normalize: zscore_by_domain       # or group, group_per_component (GDPO), or none
ema_decay: 0.99                   # optional: running z-score statistics across batches
eps: 1.0e-6                       # optional: the normalizer's epsilon
```
Every key of a component other than `use`, `name`, `weight` and `kind` is passed to its factory.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from rewards.errors import ConfigError
from rewards.options import NOT_AN_OPTION, check_fields, check_range, load_options

__all__ = ["MAX_YAML_NODES", "ComponentConfig", "DomainConfig", "RewardConfig", "load_config",
           "load_yaml", "parse_config", "parse_yaml"]

Normalize = Literal["none", "zscore_by_domain", "group", "group_per_component"]
"""The batch normalizations (`rewards.mixing.normalize`)."""
Kind = Literal["verifiable", "learned"]

MAX_YAML_NODES = 100_000
"""Most nodes a YAML document may hold with its aliases expanded. A config has hundreds; a
"billion laughs" file of a few hundred bytes (anchors aliasing anchors) expands to billions
once the document is copied, hashed or shipped to a worker."""


@dataclass(frozen=True)
class ComponentConfig:
    """One reward component of a domain. In a document, a bare string is `{use: string}`, and
    every key other than `use`, `name`, `weight` and `kind` is one of its `options`."""

    use: str
    """Registered name (`math`, `rtv`, `genrm`, `rm`, `celery`) or dotted path `pkg.mod:attr`."""
    name: str = ""
    """Name in `parts` and in logs (`reward/<name>`); empty: `use`."""
    weight: float = 1.0
    """Weight in the domain's sum; 0 means computed and logged only."""
    kind: Kind | None = None
    """verifiable or learned, for the domain's `alpha`; None: the component's own `kind`."""
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """Keyword arguments for the component's factory (checked by the factory when built)."""

    def __post_init__(self) -> None:
        check_fields(self)
        if not self.name:
            object.__setattr__(self, "name", self.use)
        check_range("weight", self.weight, ge=0)

    @classmethod
    def expand_document(cls, value: Any) -> Any:
        """`"math"` -> `{use: math}`; the factory's keys move into `options`."""
        if isinstance(value, str):
            return {"use": value}
        if not isinstance(value, Mapping) or "use" not in value:
            raise ConfigError("a component is a mapping with a 'use' key (or just the name)")
        own = {"use", "name", "weight", "kind"}
        expanded = {k: v for k, v in value.items() if k in own and not (k == "name" and not v)}
        if isinstance(expanded.get("name"), (int, float)):
            expanded["name"] = str(expanded["name"])  # `name: 2` is the text "2"
        options = {k: v for k, v in value.items() if k not in own}
        return {**expanded, "options": options} if options else expanded


@dataclass(frozen=True)
class DomainConfig:
    """The rewards of one domain (math, code, chat ...)."""

    rewards: tuple[ComponentConfig, ...]
    """The components, combined by weight."""
    alpha: float | None = None
    """If set: alpha * verifiable + (1 - alpha) * learned; None: a plain weighted sum."""

    def __post_init__(self) -> None:
        check_fields(self)
        if not self.rewards:
            raise ConfigError("needs a non-empty 'rewards' list")
        check_range("alpha", self.alpha, ge=0, le=1)
        names = [c.name for c in self.rewards]
        if len(set(names)) != len(names):
            raise ConfigError(f"component names must be unique, got {names}; give repeated "
                              "components a 'name'")


@dataclass(frozen=True)
class RewardConfig:
    """A whole reward config: per-domain components and the batch normalization."""

    domains: Mapping[str, DomainConfig]
    """Domain name -> its rewards; `default` catches samples of unlisted domains."""
    normalize: Normalize = "none"
    """Batch normalization: none, zscore_by_domain, group (GRPO: the final values per
    group) or group_per_component (GDPO: each component per group, then the weighted sum over
    the batch; `rewards.mixing.per_component_normalize`)."""
    ema_decay: float | None = None
    """zscore_by_domain only: running per-domain statistics across batches with this decay."""
    eps: float | None = None
    """The normalizer's epsilon; None: the normalizer's default."""
    raw: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), compare=False,
                                   metadata=NOT_AN_OPTION)
    """The parsed document, for hashing and for shipping to remote workers."""

    def __post_init__(self) -> None:
        check_fields(self)
        if not self.domains:
            raise ConfigError("domains: must be a non-empty mapping of domain -> rewards")
        check_range("ema_decay", self.ema_decay, gt=0, lt=1)
        check_range("eps", self.eps, gt=0)

    @classmethod
    def expand_document(cls, value: Any) -> Any:
        """An empty `normalize:` means none."""
        if isinstance(value, Mapping) and "normalize" in value and not value["normalize"]:
            return {k: v for k, v in value.items() if k != "normalize"}
        return value

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
    at most `max_nodes`; recursive aliases and nesting too deep to compose are refused.
    A number in exponent form without a dot (`1e-6`, `3e-4`) is a float, as in YAML 1.2
    (PyYAML's YAML 1.1 rules would read it as text)."""
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


_EXPONENT_FLOAT = re.compile(r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$")
"""`1e-6`, `3e-4`: floats in YAML 1.2, text to PyYAML's YAML 1.1 float rule (which wants a dot)."""


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

    BoundedLoader.add_implicit_resolver("tag:yaml.org,2002:float", _EXPONENT_FLOAT,
                                        list("-+0123456789"))
    return BoundedLoader


def parse_config(document: Any, *, source: str = "<config>") -> RewardConfig:
    """Validate a parsed config document (a mapping) into a `RewardConfig`
    (`rewards.options.load_options`: errors name the source and the path of the bad value)."""
    where = f"reward config {source}"
    config = load_options(RewardConfig, document, where=where)
    # A rule of the document, not of the dataclass: code that turns the normalization off
    # (`replace(config, normalize="none")`, as workers do) keeps the unused ema_decay.
    if config.ema_decay is not None and config.normalize != "zscore_by_domain":
        raise ConfigError(f"{where}: ema_decay needs normalize: zscore_by_domain")
    return dataclasses.replace(config, raw=MappingProxyType(_plain(document)))
