"""`--set KEY=VALUE` overrides of a config document, parsed in one place for every command
that takes a config: the reward config (`rewards score`, `filter-prompts`, `serve`, `check`)
and the train config (`rewards train`).

KEY is a dotted path into the document (`normalize`, `domains.math.alpha`,
`domains.code.rewards.0.time_limit_s`: a number indexes a list); VALUE is parsed as YAML
(`5`, `true`, `[a, b]`, `{rule: 0.2}`). Every step of the path but the last must exist, so a
misspelled domain or component is an error naming the keys that do exist; the last step may
add a key, which the config's own validation then accepts or refuses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rewards.errors import ConfigError

__all__ = ["apply_overrides", "parse_override"]


def parse_override(item: str) -> tuple[list[str], Any]:
    """`'domains.math.alpha=0.5'` -> (['domains', 'math', 'alpha'], 0.5)."""
    from rewards.config import parse_yaml

    key, sep, text = item.partition("=")
    key = key.strip()
    path = key.split(".")
    if not sep or not key or not all(part.strip() for part in path):
        raise ConfigError(f"--set {item!r}: use KEY=VALUE, KEY a dotted path such as "
                          "domains.math.alpha")
    return [part.strip() for part in path], parse_yaml(text, source=f"override {key}")


def apply_overrides(document: Mapping[str, Any], overrides: Sequence[str]) -> dict[str, Any]:
    """`document` with every override applied, in order. The document is not changed: only
    the mappings and lists along an override's path are copied."""
    result = dict(document)
    for item in overrides:
        path, value = parse_override(item)
        result = _with(result, path, 0, value)
    return result


def _with(node: Any, path: list[str], depth: int, value: Any) -> Any:
    """A copy of `node` (found at `path[:depth]`) with `value` at the rest of `path`; every
    step but the last must exist."""
    key, part = ".".join(path), path[depth]
    where = ".".join(path[:depth]) or "the config"
    if isinstance(node, Mapping):
        node = dict(node)
        if depth < len(path) - 1 and part not in node:
            raise ConfigError(f"--set {key}: {where} has no key {part!r} (keys: "
                              f"{', '.join(sorted(map(str, node))) or 'none'})")
        slot: Any = part
    elif isinstance(node, list):
        node = list(node)
        if not part.isdigit() or int(part) >= len(node):
            raise ConfigError(f"--set {key}: {where} is a list of {len(node)}, not indexed by "
                              f"{part!r}" + (f" (0..{len(node) - 1})" if node else ""))
        slot = int(part)
    else:
        what = "null" if node is None else f"a {type(node).__name__}"
        raise ConfigError(f"--set {key}: {where} is {what}, not a mapping or a list")
    node[slot] = value if depth == len(path) - 1 else _with(node[slot], path, depth + 1, value)
    return node
