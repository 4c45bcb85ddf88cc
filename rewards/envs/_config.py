"""`EnvConfig`: the `environment:` block of a train config (and of the HTTP face), loaded by
the one config loader (`rewards.options.load_options`), and the registry of built-in
environments.

```yaml
environment:
  use: python_tool          # a built-in name or a dotted path pkg.mod:Factory
  max_turns: 4
  max_observation_chars: 2000
  step_weight: 1.0
  discount: 1.0
  tool_time_limit_s: 5      # any other key is the environment's own option
```
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from rewards.errors import ConfigError
from rewards.options import check_fields, check_range, load_options
from rewards.registry import resolve_named

__all__ = ["BUILTIN_ENVS", "EnvConfig", "env_factory"]

BUILTIN_ENVS: Mapping[str, str] = MappingProxyType({
    "number_guess": "rewards.envs.number_guess:NumberGuessEnv",
    "python_tool": "rewards.envs.python_tool:PythonToolEnv",
    "python_menu": "rewards.envs.python_menu:PythonMenuEnv",
})
"""Built-in environment names -> dotted paths (imported when a config uses them)."""


@dataclass(frozen=True)
class EnvConfig:
    """How episodes run: which environment, the bounds, how step rewards enter the return.
    In a document every key but these is one of the environment's `options`."""

    use: str
    """A built-in environment (`number_guess`, `python_tool`, `python_menu`) or a dotted path to a class
    whose `Options` dataclass (optional) takes `options` and that builds one episode's
    `Environment` per call."""
    max_turns: int = 4
    """Policy turns per episode; an episode still running after them ends (reason
    `out_of_turns`, data) and its final answer is scored."""
    max_observation_chars: int = 2000
    """Longest observation handed back; longer ones keep their head and tail around a
    `[... N characters cut ...]` marker."""
    max_action_chars: int = 20_000
    """Longest action the environment parses; the rest is cut before any pattern runs."""
    step_weight: float = 1.0
    """Weight of the step rewards in the return (0: logged only)."""
    discount: float = 1.0
    """gamma: a reward k turns later counts gamma^k."""
    observation_role: Literal["user", "tool"] = "user"
    """Chat role of an observation when the prompt goes through a chat template."""
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The environment's own options (checked against its `Options` dataclass)."""

    def __post_init__(self) -> None:
        check_fields(self)
        for name in ("max_turns", "max_observation_chars", "max_action_chars"):
            check_range(name, getattr(self, name), ge=1)
        check_range("step_weight", self.step_weight, ge=0)
        check_range("discount", self.discount, ge=0, le=1)

    @classmethod
    def expand_document(cls, value: Any) -> Any:
        """`"number_guess"` -> `{use: number_guess}`; unknown keys move into `options`."""
        if isinstance(value, str):
            return {"use": value}
        if not isinstance(value, Mapping) or "use" not in value:
            raise ConfigError("an environment is a mapping with a 'use' key (or just the name)")
        own = {f for f in cls.__dataclass_fields__ if f != "options"}
        options = {k: v for k, v in value.items() if k not in own}
        for key in options:  # a near-miss of our own keys is a typo, not an env option
            near = difflib.get_close_matches(str(key), own, n=1, cutoff=0.85)
            if key != "options" and near:
                raise ConfigError(f"unknown key {key!r} (did you mean {near[0]!r}?)")
        expanded = {k: v for k, v in value.items() if k in own}
        return {**expanded, "options": {**dict(value.get("options") or {}), **options}} \
            if options or "options" in value else expanded


def env_factory(config: EnvConfig) -> Callable[[], Any]:
    """A function that makes one fresh `Environment` per call, its options checked now."""
    target = resolve_named(config.use, BUILTIN_ENVS, what="environment")
    options_cls = getattr(target, "Options", None)
    if options_cls is not None:
        options = load_options(options_cls, dict(config.options),
                               where=f"environment {config.use}")
        return lambda: target(options)
    if config.options:
        raise ConfigError(f"environment {config.use!r} takes no options, got "
                          f"{sorted(config.options)}")
    return target
