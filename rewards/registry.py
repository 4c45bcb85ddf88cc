"""Named reward components. A config names a component by registered name or dotted path,
so `rewards` never imports `genrm` (or any heavy module) until a config asks for it."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from rewards.errors import ConfigError

__all__ = ["register", "registered_names", "resolve"]

# Built-in names point at dotted paths: nothing is imported until a config uses the name.
_BUILTIN: dict[str, str] = {
    "math": "rewards.math:MathReward",
    "rtv": "rewards.code:CodeReward",
    "ifeval": "rewards.ifeval:IFEvalReward",  # instruction following: docs/instruction-following.md
    "genrm": "genrm.generative:GenRMReward",
    "rm": "genrm.discriminative:DiscriminativeRM",
    "celery": "integrations.celery.client:CeleryReward",
    # reasoning-model rewards (open-r1, TRL, DAPO): docs/reasoning-rewards.md
    "format": "rewards.reasoning:FormatReward",
    "tag_count": "rewards.reasoning:TagCountReward",
    "reasoning_steps": "rewards.reasoning:ReasoningStepsReward",
    "repetition": "rewards.reasoning:RepetitionReward",
    "length": "rewards.reasoning:LengthReward",
    "overlong": "rewards.reasoning:OverlongReward",
    "cosine": "rewards.reasoning:CosineReward",
    # tool use (single step): docs/environments.md
    "tool_call": "rewards.envs.tool_calls:ToolCallReward",
}
_REGISTERED: dict[str, Callable[..., Any]] = {}


def register(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a reward factory (a class or function returning a `Reward`) under `name`."""

    def wrap(factory: Callable[..., Any]) -> Callable[..., Any]:
        _REGISTERED[name] = factory
        return factory

    return wrap


def registered_names() -> list[str]:
    return sorted(set(_BUILTIN) | set(_REGISTERED))


def resolve(use: str) -> Callable[..., Any]:
    """The factory for `use`: a registered name, or a dotted path `pkg.mod:attr` / `pkg.mod.attr`."""
    if use in _REGISTERED:
        return _REGISTERED[use]
    path = _BUILTIN.get(use, use)
    if ":" in path:
        module_name, _, attr = path.partition(":")
    elif "." in path:
        module_name, _, attr = path.rpartition(".")
    else:
        raise ConfigError(
            f"unknown reward {use!r}: not a registered name ({', '.join(registered_names())}) "
            "and not a dotted path like 'package.module:function'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"reward {use!r}: cannot import module {module_name!r}: {exc}"
                          f"{_import_hint(exc, module_name)}") from exc
    try:
        return getattr(module, attr)
    except AttributeError as exc:
        raise ConfigError(f"reward {use!r}: module {module_name!r} has no {attr!r}"
                          f"{_shadow_hint(module, module_name)}") from exc


def _shadow_hint(module: Any, module_name: str) -> str:
    """When the working folder holds a plugin file named as an installed module: the
    `rewards` command loads the installed one (it never lets a file there shadow it)."""
    from pathlib import Path

    top = module_name.split(".")[0]
    here = Path.cwd()
    candidates = [here / f"{top}.py", here / top / "__init__.py"]
    found = next((c for c in candidates if c.is_file()), None)
    origin = getattr(module, "__file__", None)
    if found is None or (origin is not None and Path(origin).resolve().is_relative_to(here)):
        return ""
    return (f" ({found.relative_to(here)} in the working folder is not loaded: {top!r} is the "
            f"name of an installed module ({origin or 'built in'}); rename the plugin)")


def _import_hint(exc: ImportError, module_name: str) -> str:
    """How to make a plugin module importable, when it is the module itself that is missing
    (not a package it imports)."""
    if not isinstance(exc, ModuleNotFoundError) or exc.name is None or \
            not (module_name == exc.name or module_name.startswith(exc.name + ".")):
        return ""
    return (" (the rewards command finds a module in the folder it runs from; elsewhere, run "
            "from the module's folder, add that folder to PYTHONPATH, or pip install the "
            "package)")
