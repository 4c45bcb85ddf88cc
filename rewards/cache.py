"""The one in-memory cache: least recently used entries go first, bounded by bytes.

Caches here are keyed by what model output and clients send (a reply, a reference's
arguments, a task's prompt): through `rewards serve` both come from outside, and an entry can
be any size. A bound on entries is no bound on memory (8,192 replies of 400 KB each are 3.2
GB), so every cache in the project holds at most `max_bytes`, measured by `approx_bytes` on
the key and the value, and an entry over a quarter of the bound is not kept at all (a huge one
would flush everything else for one later hit).

```python
cache = ByteCache(16 << 20)          # 16 MiB
cache.put(key, value)
value = cache.get(key)               # None when not kept

@byte_cache(16 << 20)                # functools.lru_cache's place
def parse(text: str) -> tuple: ...
```

Thread-safe (one lock per cache, fresh in a forked child: Celery's prefork forks a parent
that may hold it). `functools.lru_cache` / `functools.cache` stay only where the key has a
bounded size (a type, a bounded integer, a local path): there a bound on entries is one on
bytes. The sandbox (which imports nothing of ours) keeps its own caches: compiled binaries on
disk, bounded by bytes (`sandbox/_cache.py`), and compiled test code inside a jail, bounded by
the jail's memory limit."""

from __future__ import annotations

import functools
import os
import sys
import threading
import types
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from rewards.errors import ConfigError

__all__ = ["ByteCache", "approx_bytes", "byte_cache"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])

_CONTAINERS = (tuple, list, frozenset, set)


def approx_bytes(value: Any, *, limit: int | None = None) -> int:
    """The memory `value` holds, about: `sys.getsizeof` of it and of everything reachable
    through tuples, lists, sets, dicts, `functools.partial`s, and objects' `__dict__` and
    `__slots__` (each object once; classes, functions and modules count their own size only).
    Iterative, linear in what it visits; it stops once the count passes `limit`."""
    seen: set[int] = set()
    stack = [value]
    total = 0
    while stack and (limit is None or total <= limit):
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if type(item) in _SCALARS or item is None or isinstance(item, _OPAQUE):
            continue  # a subclass of a scalar may carry a __dict__: walked below
        if isinstance(item, _CONTAINERS):
            stack.extend(item)
        elif isinstance(item, (dict, MappingProxyType)):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, functools.partial):
            stack.extend((item.func, item.args, item.keywords))
        else:
            fields = getattr(item, "__dict__", None)
            if isinstance(fields, dict):
                stack.append(fields)
            for cls in type(item).__mro__:
                for name in _slots(cls):
                    found = getattr(item, name, None)
                    if found is not None:
                        stack.append(found)
    return total


_SCALARS = (str, bytes, bytearray, int, float, complex, bool)
_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType)


def _slots(cls: type) -> tuple[str, ...]:
    slots = cls.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(s for s in slots if s != "__dict__"
                                                          and s != "__weakref__")


class ByteCache(Generic[K, V]):
    """A thread-safe least-recently-used map holding at most `max_bytes` (by `approx_bytes` of
    key and value, or the size `put` is given); `max_entries` may bound the count too. An entry
    over `max_bytes // 4` is not kept. `get` and `put` are O(1) after measuring the entry."""

    def __init__(self, max_bytes: int, *, max_entries: int | None = None) -> None:
        if max_bytes < 0:
            raise ConfigError(f"cache: max_bytes must be >= 0, not {max_bytes}")
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.nbytes = 0
        self.hits = 0
        self._data: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        _CACHES.add(self)

    def get(self, key: K, default: V | None = None) -> V | None:
        with self._lock:
            found = self._data.get(key)
            if found is None:
                return default
            self._data.move_to_end(key)
            self.hits += 1
            return found[0]

    def put(self, key: K, value: V, size: int | None = None) -> None:
        """Keep `value` under `key` (its `size` in bytes measured when not given), dropping the
        least recently used entries until the cache is within its bounds."""
        largest = self.max_bytes // 4
        if size is None:
            size = approx_bytes((key, value), limit=largest)
        if size > largest:
            return
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.nbytes -= old[1]
            self._data[key] = (value, size)
            self.nbytes += size
            while self.nbytes > self.max_bytes or (
                    self.max_entries is not None and len(self._data) > self.max_entries):
                _, (_, dropped) = self._data.popitem(last=False)
                self.nbytes -= dropped

    def pop(self, key: K) -> V | None:
        with self._lock:
            found = self._data.pop(key, None)
            if found is None:
                return None
            self.nbytes -= found[1]
            return found[0]

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.nbytes = 0

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __repr__(self) -> str:
        return (f"ByteCache({len(self._data)} entries, {self.nbytes:,} of {self.max_bytes:,} "
                "bytes)")


_CACHES: weakref.WeakSet[ByteCache[Any, Any]] = weakref.WeakSet()


def _fresh_locks_after_fork() -> None:
    """A fork copies a lock another thread holds as held forever: children get fresh ones."""
    for cache in list(_CACHES):
        cache._lock = threading.Lock()


os.register_at_fork(after_in_child=_fresh_locks_after_fork)

_MISSING = object()
_KEYWORDS = object()  # keeps f(a, k=1) apart from f(a, ("k", 1)) and the like
_TEXTS = object()  # the type signature of a tuple of exact `str`s


def _types(key: Any) -> tuple[Any, ...]:
    """The types in `key`, through its tuples, in order (frozensets as sets of (type, member)
    pairs; a float with its sign, so -0.0 is not 0.0): equal keys of other types (1, 1.0,
    True; a `str` subclass and its text) are other keys, as `functools.lru_cache(typed=True)`
    keeps them, but all the way down. Iterative, linear in the key."""
    if type(key) is tuple and all(type(item) is str for item in key):
        return (_TEXTS, len(key))  # the common key (texts only): one pass, no stack
    out: list[Any] = []
    stack = [key]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is tuple:
            out.append((tuple, len(item)))
            stack.extend(reversed(item))
        elif kind is frozenset:
            out.append((frozenset, frozenset((type(m), repr(m) if type(m) is float else None)
                                             for m in item)))
        else:
            out.append(repr(item) if kind is float else kind)
    return tuple(out)


def byte_cache(max_bytes: int) -> Callable[[F], F]:
    """`functools.lru_cache` bounded by bytes: results kept by their positional and keyword
    arguments (which must be hashable) and their types all the way down (`_types`: `f(1)`,
    `f(1.0)` and `f(True)` are three entries), in a `ByteCache(max_bytes)` at `.cache`;
    `.cache_clear()` empties it. An exception is not kept."""

    def decorate(function: F) -> F:
        cache: ByteCache[Any, Any] = ByteCache(max_bytes)

        @functools.wraps(function)
        def cached(*args: Any, **kwargs: Any) -> Any:
            key = (args, _KEYWORDS, tuple(kwargs.items())) if kwargs else args
            key = (key, _types(key))
            found = cache.get(key, _MISSING)
            if found is not _MISSING:
                return found
            result = function(*args, **kwargs)
            cache.put(key, result)
            return result

        # set on the wrapper function, as `functools.lru_cache` sets its `cache_clear`
        cached.cache = cache  # type: ignore[attr-defined]
        cached.cache_clear = cache.clear  # type: ignore[attr-defined]
        return cached  # type: ignore[return-value]  # it takes what `function` (an F) takes

    return decorate
