"""Red team (attack34) on the byte-bounded caches (`rewards.cache`) as a client of `rewards
serve` reaches them: many distinct large keys must keep memory bounded, and one sample's
cached result must never be served to another (equal-but-different keys: 1, 1.0, True, a
`str` subclass, -0.0, dict order, NaN)."""

from __future__ import annotations

import math

import pytest

from rewards import Sample
from rewards.cache import ByteCache, approx_bytes, byte_cache
from rewards.ifeval import IFEvalReward
from rewards.ifeval._registry import _BUILT


class Text(str):
    """A `str` subclass whose equality and hash are the text's."""


@pytest.mark.parametrize("a, b", [
    (1, 1.0), (1, True), (0, False), (1.0, True), (0.0, -0.0), ("a", Text("a")),
    ((1,), (True,)), ((1, (2,)), (1, (2.0,))), (frozenset([1]), frozenset([True])),
    ((("k", 1),), (("k", True),)),
])
def test_byte_cache_keeps_equal_keys_of_other_types_apart(a: object, b: object) -> None:
    # equal keys hashed alike shared one entry: f(True) was served f(1)'s result
    @byte_cache(1 << 20)
    def shown(value: object) -> str:
        return repr(value) + type(value).__name__

    assert a == b and hash(a) == hash(b)
    assert shown(a) == repr(a) + type(a).__name__
    assert shown(b) == repr(b) + type(b).__name__
    assert shown(a) == repr(a) + type(a).__name__  # and the first is still kept


def test_byte_cache_keyword_values_are_typed_too() -> None:
    @byte_cache(1 << 20)
    def kind(*, value: object) -> str:
        return type(value).__name__

    assert (kind(value=1), kind(value=True), kind(value=1.0)) == ("int", "bool", "float")


def test_nan_keys_never_share_another_nans_entry_by_accident() -> None:
    calls = []

    @byte_cache(1 << 20)
    def seen(value: float) -> int:
        calls.append(value)
        return len(calls)

    nan = float("nan")
    assert seen(nan) == seen(nan) == 1  # the same object: the same entry
    assert seen(float("nan")) == 2  # another NaN is not equal: computed afresh, never wrong


def test_many_distinct_large_entries_keep_the_bound() -> None:
    cache: ByteCache[str, str] = ByteCache(1 << 20)
    for i in range(400):  # 400 x 100 KB keys and values: 80 MB offered to a 1 MB cache
        cache.put(f"{i:06d}" + "k" * 100_000, "v" * 100_000)
        assert cache.nbytes <= cache.max_bytes
    assert 0 < len(cache) <= 5
    cache.put("huge", "v" * (1 << 19))  # over a quarter of the bound: not kept at all
    assert "huge" not in cache and len(cache) > 0


def test_a_str_subclass_is_measured_with_what_it_carries() -> None:
    # a scalar subclass was counted as its text alone, however much its __dict__ held
    carrier = Text("k")
    carrier.payload = "x" * 1_000_000  # type: ignore[attr-defined]
    assert approx_bytes(carrier) > 1_000_000
    cache: ByteCache[str, int] = ByteCache(1 << 20)
    cache.put(carrier, 1)
    assert carrier not in cache and cache.nbytes == 0


def test_one_samples_cached_verdict_is_never_served_to_another() -> None:
    text = "my cat and my dog"
    references = [
        {"instruction_id_list": ["keywords:forbidden_words"], "kwargs": [{"forbidden_words": w}]}
        for w in (["cat"], ["bird"], ["dog"], ["Cat"], ["fish"])
    ] + [
        {"instruction_id_list": ["length_constraints:number_words"],
         "kwargs": [{"num_words": n, "relation": "at least"}]} for n in (5, 5.0, 6, True)
    ]
    reward = IFEvalReward()
    _BUILT.clear()
    alone = reward.score([Sample("p", text, references[-1])])[0]  # num_words True, built first
    for _ in range(2):  # cold, then with every cache warm
        scores = reward.score([Sample("p", text, r) for r in references])
        assert [s.value for s in scores[:8]] == [0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0]
        assert (scores[8].value, scores[8].reason) == (alone.value, alone.reason)


def test_kwargs_in_another_order_are_the_same_constraint() -> None:
    a = {"instruction_id_list": ["length_constraints:number_words"],
         "kwargs": [{"num_words": 3, "relation": "less than"}]}
    b = {"instruction_id_list": ["length_constraints:number_words"],
         "kwargs": [{"relation": "less than", "num_words": 3}]}
    reward = IFEvalReward()
    for text, value in [("one two", 1.0), ("one two three four", 0.0)]:
        assert [s.value for s in reward.score([Sample("p", text, a), Sample("p", text, b)])] \
            == [value, value]


def test_nan_in_a_reference_builds_no_shared_entry() -> None:
    reference = {"instruction_id_list": ["length_constraints:number_words"],
                 "kwargs": [{"num_words": math.nan, "relation": "at least"}]}
    reward = IFEvalReward()
    first = reward.score([Sample("p", "a b c", reference)])[0]
    second = reward.score([Sample("p", "a b c", reference)])[0]
    assert (first.value, first.reason) == (second.value, second.reason)
