"""`rewards.cache`: every in-memory cache is bounded by bytes, fed entries of any size."""

from __future__ import annotations

import ast
import functools
import multiprocessing
import tracemalloc
from pathlib import Path

import pytest

from rewards.cache import ByteCache, approx_bytes, byte_cache

ROOT = Path(__file__).resolve().parents[2]


def test_memory_stays_within_the_bound_whatever_the_entries_weigh() -> None:
    cache: ByteCache[str, str] = ByteCache(4 << 20)
    tracemalloc.start()
    try:
        for i in range(400):  # 400 replies of 400 KB: 160 MB if kept by count
            text = f"{i:04d}" + "x" * 400_000
            cache.put(text, text.upper())
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert cache.nbytes <= 4 << 20 and 0 < len(cache) < 400
    assert held < 8 << 20


def test_least_recently_used_goes_first() -> None:
    cache: ByteCache[str, int] = ByteCache(approx_bytes(("k0", 0)) * 4 + 10)  # four entries
    for i in range(4):
        cache.put(f"k{i}", i)
    assert cache.get("k0") == 0  # k1 is now the oldest
    cache.put("k4", 4)
    assert "k1" not in cache and cache.get("k0") == 0 and cache.get("k4") == 4 and len(cache) == 4


def test_an_entry_over_a_quarter_of_the_bound_is_not_kept() -> None:
    cache: ByteCache[str, str] = ByteCache(1 << 20)
    cache.put("small", "value")
    cache.put("big", "x" * (300 << 10))
    assert "big" not in cache and cache.get("small") == "value"


def test_entries_may_be_bounded_too_and_a_key_replaced() -> None:
    cache: ByteCache[int, str] = ByteCache(1 << 20, max_entries=2)
    for i in range(5):
        cache.put(i, "v")
    assert len(cache) == 2 and 4 in cache and 3 in cache
    cache.put(4, "w" * 1000)
    assert cache.get(4) == "w" * 1000 and cache.nbytes == sum(
        approx_bytes((k, v)) for k, v in [(3, "v"), (4, "w" * 1000)])
    assert cache.pop(4) == "w" * 1000 and cache.pop(4) is None
    cache.clear()
    assert len(cache) == 0 and cache.nbytes == 0


def test_approx_bytes_reaches_into_containers_partials_and_objects() -> None:
    text = "y" * 10_000
    assert approx_bytes((text,)) > 10_000
    assert approx_bytes({"k": [text]}) > 10_000
    assert approx_bytes(functools.partial(max, key=(text,))) > 10_000

    class Slotted:
        __slots__ = ("value",)

        def __init__(self) -> None:
            self.value = text

    assert approx_bytes(Slotted()) > 10_000
    assert approx_bytes((text, text)) < 10_100 + approx_bytes(())  # one object counted once
    many = [str(i) * 1000 for i in range(100)]
    assert approx_bytes(many) > 100_000 and approx_bytes(many, limit=5000) < 10_000  # stops


def test_byte_cache_keeps_results_not_exceptions() -> None:
    calls = []

    @byte_cache(1 << 20)
    def upper(text: str, *, twice: bool = False) -> str:
        calls.append(text)
        if text == "bad":
            raise ValueError(text)
        return text.upper() * (2 if twice else 1)

    assert upper("a") == "A" and upper("a") == "A" and upper("a", twice=True) == "AA"
    assert calls == ["a", "a"]

    @byte_cache(1 << 20)
    def pair(*args: object, **kwargs: object) -> tuple[object, object]:
        return args, kwargs

    assert pair(("a",), (("k", 1),)) == ((("a",), (("k", 1),)), {})
    assert pair("a", k=1) == (("a",), {"k": 1})  # not the positional call's entry
    for _ in range(2):
        with pytest.raises(ValueError):
            upper("bad")
    assert calls.count("bad") == 2
    upper.cache_clear()
    upper("a")
    assert calls.count("a") == 3


def _put_in_child(cache: ByteCache[str, str], queue: multiprocessing.Queue) -> None:
    cache.put("child", "ok")
    queue.put(cache.get("child"))


def test_a_forked_child_gets_a_fresh_lock() -> None:
    cache: ByteCache[str, str] = ByteCache(1 << 20)
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    with cache._lock:  # as if another thread were inside the cache at fork time
        child = context.Process(target=_put_in_child, args=(cache, queue), daemon=True)
        child.start()
    assert queue.get(timeout=60) == "ok"
    child.join(30)


# Where an entry-bounded cache is a byte bound: its key has a bounded size.
BOUNDED_KEYS = {
    ("rewards/config.py", "_bounded_loader"), ("rewards/options.py", "_hints"),
    ("rewards/options.py", "_option_fields"), ("rewards/engines/_model_path.py", "_probe"),
    ("rewards/math/_algebra.py", "_split_square"), ("rewards/reasoning/_measure.py", "_load"),
    ("integrations/_http.py", "json_response"),  # no argument: one class, made once
    ("rewards/math/_judge.py", "_terms_of"),  # a gold cut to _MAX_NAMING characters
    ("rewards/math/_judge.py", "_dot_or_dash"),  # one character
}


def _entry_bounded_caches() -> list[tuple[str, str]]:
    found = []
    for package in ("rewards", "genrm", "prompt_filter", "integrations", "rl"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for decorator in node.decorator_list:
                    target = decorator.func if isinstance(decorator, ast.Call) else decorator
                    if ast.unparse(target).split(".")[-1] in ("lru_cache", "cache"):
                        found.append((str(path.relative_to(ROOT)), node.name))
    return found


def test_every_cache_keyed_by_model_or_client_text_is_bounded_by_bytes() -> None:
    """`functools.lru_cache` / `functools.cache` only where the key's size is bounded: any
    other cache is a `rewards.cache` one (sandbox/ imports nothing of ours and is left out)."""
    found = _entry_bounded_caches()
    assert ("rewards/math/_algebra.py", "_split_square") in found  # the scan finds them
    assert sorted(set(found) - BOUNDED_KEYS) == []
