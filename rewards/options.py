"""The one loader of every config: a frozen dataclass from a mapping (a parsed YAML document,
a reward component's keyword options, a command's flags), checked against the type hints.

```python
config = load_options(MathConfig, {"timeout": 2, "strict": True}, where="math reward")
```

The rules, the same for the reward config, math, code, GRPO/PPO, GenRM and the Celery worker:
- a key that is not a field is an error naming the nearest field (`did you mean 'timeout'?`)
  and every valid key; a required field that is missing is an error too;
- each value is checked against its field's type hint: `bool` takes only true/false, `int`
  an integer (or an integral float such as `2.0`, never a bool), `float` any number (never
  text: `rewards.config.parse_yaml` reads `1e-6` as a number), `str` only text, `Path` text
  or a path; `X | None` also takes null; a `Literal` takes exactly its values, which the
  error lists; `tuple[...]`, `list[...]` and `Sequence[...]` take a list, `Mapping[K, V]` a
  mapping (a read-only copy; a number key of a `str`-keyed mapping is read as its text); a
  nested dataclass takes a mapping, loaded by these same rules, or an instance;
- an error names the path of the bad value under `where`, e.g.
  `reward config reward.yaml: domains.math.rewards[0].weight: expected a number, not 'x'`.

What types cannot say (ranges, one field depending on another) stays in the dataclass's
`__post_init__`, which begins with `check_fields(self)` so that a config built directly in
Python is checked by the same rules as one loaded from a document. A dataclass with a
shorthand form in documents (a bare string for a component) reads it in a classmethod
`expand_document(value) -> mapping`, which the loader calls first.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import difflib
import functools
import os
import types
import typing
from collections.abc import Iterable, Mapping
from pathlib import PurePath
from types import MappingProxyType
from typing import Any, Literal, TypeVar, get_args, get_origin

from rewards.errors import ConfigError

__all__ = ["NOT_AN_OPTION", "check_fields", "check_range", "did_you_mean", "load_options",
           "option_names"]

T = TypeVar("T")

NOT_AN_OPTION: Mapping[str, Any] = MappingProxyType({"option": False})
"""Field metadata for a dataclass field that no document sets (e.g. `RewardConfig.raw`):
the loader refuses it as a key and `check_fields` leaves it alone."""

_SEQUENCES = (tuple, list, collections.abc.Sequence)
_MAPPINGS = (dict, collections.abc.Mapping)


def load_options(cls: type[T], document: Any, *, where: str) -> T:
    """A `cls` (a dataclass) from `document`, a mapping of field name -> value, by the rules
    of this module; any problem is a `ConfigError` that starts with `where` and names the
    path of the bad value."""
    return _load(cls, document, _At(where))


def check_fields(config: Any, *, where: str | None = None) -> None:
    """Check (and normalize: ints to floats, lists to tuples, mappings to read-only ones) the
    fields of a dataclass instance by the loader's rules. Call it first in `__post_init__`."""
    cls: type = type(config)  # `type[Any]` is not Hashable to mypy; a class is
    at = _At(where or cls.__name__)
    hints = _hints(cls)
    for name in _option_fields(cls):
        value = getattr(config, name)
        checked = _coerce(hints[name], value, at.field(name))
        if checked is not value:
            object.__setattr__(config, name, checked)  # frozen: as __post_init__ may


def check_range(name: str, value: float | None, *, ge: float | None = None,
                gt: float | None = None, le: float | None = None,
                lt: float | None = None) -> None:
    """A `ConfigError` naming `name` unless `value` (None passes) lies in the given bounds."""
    if value is None:
        return
    bounds = [(ge, ">=", value >= ge if ge is not None else True),
              (gt, ">", value > gt if gt is not None else True),
              (le, "<=", value <= le if le is not None else True),
              (lt, "<", value < lt if lt is not None else True)]
    if not all(ok for _, _, ok in bounds):
        rule = " and ".join(f"{sign} {bound:g}" for bound, sign, _ in bounds if bound is not None)
        raise ConfigError(f"{name}: must be {rule}, not {value!r}")


def did_you_mean(value: Any, choices: Iterable[Any]) -> str:
    """`" (did you mean 'x'?)"` for the choice nearest to `value` (difflib), or `""`."""
    if not isinstance(value, str):
        return ""
    near = difflib.get_close_matches(value, [c for c in choices if isinstance(c, str)], n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def option_names(cls: type) -> list[str]:
    """The keys a document may give `cls`, in field order."""
    return list(_option_fields(cls))


# --- the loader ---------------------------------------------------------------------------


class _At:
    """Where a value sits: the document (`where`) and the path inside it."""

    __slots__ = ("path", "where")

    def __init__(self, where: str, path: str = "") -> None:
        self.where = where
        self.path = path

    def field(self, name: str) -> _At:
        return _At(self.where, f"{self.path}.{name}" if self.path else name)

    def item(self, index: int) -> _At:
        return _At(self.where, f"{self.path}[{index}]")

    def error(self, problem: str) -> ConfigError:
        place = f"{self.where}: {self.path}" if self.path else self.where
        return ConfigError(f"{place}: {problem}")


def _as_class(cls: type[T]) -> type:
    """`cls` as the cache key it is (mypy does not see `type[T]` as Hashable)."""
    return cls


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@functools.cache
def _option_fields(cls: type) -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(cls)
            if f.init and f.metadata.get("option", True)}


def _load(cls: type[T], document: Any, at: _At) -> T:
    expand = getattr(cls, "expand_document", None)
    if expand is not None:
        try:
            document = expand(document)
        except ConfigError as exc:
            raise at.error(str(exc)) from exc
    fields = _option_fields(_as_class(cls))
    if not isinstance(document, Mapping):
        raise at.error(f"expected a mapping with keys among {', '.join(fields)}, "
                       f"not {_show(document)}")
    unknown = [key for key in document if key not in fields]
    if unknown:
        raise at.error(_unknown_keys(unknown, list(fields)))
    missing = [name for name, f in fields.items() if name not in document
               and f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING]
    if missing:
        noun = "key" if len(missing) == 1 else "keys"
        raise at.error(f"missing required {noun} {', '.join(map(repr, missing))}")
    hints = _hints(_as_class(cls))
    values = {name: _coerce(hints[name], value, at.field(name))
              for name, value in document.items()}
    try:
        return cls(**values)
    except ConfigError as exc:  # a check of the dataclass's own (a range, two fields)
        name, sep, problem = str(exc).partition(": ")
        if sep and name in fields:  # "weight: must be >= 0" -> at the field's path
            raise at.field(name).error(problem) from exc
        raise at.error(str(exc)) from exc


def _unknown_keys(unknown: list[Any], known: list[str]) -> str:
    parts = [repr(key) + did_you_mean(key, known) for key in unknown]
    noun = "key" if len(unknown) == 1 else "keys"
    return f"unknown {noun} {', '.join(parts)}; the keys are {', '.join(sorted(known))}"


def _coerce(hint: Any, value: Any, at: _At) -> Any:
    """`value` checked against `hint` (and normalized), or a `ConfigError` at `at`."""
    if hint is Any or hint is object:
        return value
    origin, args = get_origin(hint), get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        return _union(args, value, at)
    if origin is Literal:
        for allowed in args:
            if value == allowed and type(value) is type(allowed):
                return allowed
        raise at.error(f"must be one of {', '.join(map(repr, args))}, not "
                       f"{_show(value)}{did_you_mean(value, args)}")
    if hint is type(None):
        if value is None:
            return None
        raise at.error(f"expected null, not {_show(value)}")
    if hint in _SCALARS:
        return _SCALARS[hint](value, at)
    if isinstance(hint, type) and issubclass(hint, PurePath):
        if isinstance(value, (str, os.PathLike)):
            return hint(value)
        raise at.error(f"expected a path, not {_show(value)}")
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if isinstance(value, hint):
            return value
        return _load(hint, value, at)
    if origin in _SEQUENCES or hint in _SEQUENCES:
        return _sequence(hint, origin, args, value, at)
    if origin in _MAPPINGS or hint in _MAPPINGS:
        return _mapping(hint, origin, args, value, at)
    if origin is collections.abc.Callable or hint is collections.abc.Callable:
        if callable(value):
            return value
        raise at.error(f"expected a callable, not {_show(value)}")
    if isinstance(hint, type):
        if isinstance(value, hint):
            return value
        raise at.error(f"expected {_describe(hint)}, not {_show(value)}")
    return value


def _union(args: tuple[Any, ...], value: Any, at: _At) -> Any:
    if value is None and type(None) in args:
        return None
    options = [a for a in args if a is not type(None)]
    if len(options) == 1:  # X | None: X's own message says what is wrong
        return _coerce(options[0], value, at)
    for option in options:
        try:
            return _coerce(option, value, at)
        except ConfigError:
            continue
    raise at.error(f"expected {' or '.join(_describe(a) for a in args)}, not {_show(value)}")


def _bool(value: Any, at: _At) -> bool:
    if isinstance(value, bool):
        return value
    raise at.error(f"expected true or false, not {_show(value)}")


def _int(value: Any, at: _At) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise at.error(f"expected an integer, not {_show(value)}")


def _float(value: Any, at: _At) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise at.error(f"expected a number, not {_show(value)}")


def _str(value: Any, at: _At) -> str:
    if isinstance(value, str):
        return value
    raise at.error(f"expected a string, not {_show(value)}")


_SCALARS = {bool: _bool, int: _int, float: _float, str: _str}


def _sequence(hint: Any, origin: Any, args: tuple[Any, ...], value: Any, at: _At) -> Any:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise at.error(f"expected a list, not {_show(value)}")
    if (origin or hint) is tuple and args and args[-1] is not Ellipsis:
        if len(value) != len(args):
            raise at.error(f"expected a list of {len(args)} items, not {len(value)}: "
                           f"{_show(value)}")
        return tuple(_coerce(a, v, at.item(i)) for i, (a, v) in enumerate(zip(args, value)))
    item = args[0] if args else Any
    items = [_coerce(item, v, at.item(i)) for i, v in enumerate(value)]
    return items if (origin or hint) is list else tuple(items)


def _mapping(hint: Any, origin: Any, args: tuple[Any, ...], value: Any, at: _At) -> Any:
    if not isinstance(value, Mapping):
        raise at.error(f"expected a mapping, not {_show(value)}")
    key_hint, value_hint = args if args else (Any, Any)
    out: dict[Any, Any] = {}
    for key, item in value.items():
        if key_hint is str and isinstance(key, (int, float)):  # YAML reads `1:` as a number
            key = str(key)
        key = _coerce(key_hint, key, at)
        out[key] = _coerce(value_hint, item, at.field(str(key)))
    return out if (origin or hint) is dict else MappingProxyType(out)


def _describe(hint: Any) -> str:
    if hint is type(None):
        return "null"
    if get_origin(hint) is Literal:
        return "one of " + ", ".join(map(repr, get_args(hint)))
    names = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
    if hint in names:
        return names[hint]
    origin = get_origin(hint) or hint
    if origin in _SEQUENCES:
        return "a list"
    if origin in _MAPPINGS or dataclasses.is_dataclass(hint):
        return "a mapping"
    if origin is collections.abc.Callable:
        return "a callable"
    return f"a {getattr(hint, '__name__', hint)}"


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
