"""`use: tool_call`: the shapes datasets store calls in, value-and-type comparison, parallel
calls by maximum matching, partial credit and the format part."""

from __future__ import annotations

import json

import pytest

from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs.tool_calls import ToolCall, ToolCallReward, as_calls, match_calls, values_equal
from rewards.errors import ConfigError
from rewards.types import Sample

WEATHER = {"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}
TIME = {"name": "get_time", "arguments": {"tz": "CET"}}


def hermes(*calls):
    return "".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in calls)


def openai(*calls):
    return {"role": "assistant", "tool_calls": [
        {"id": f"c{i}", "type": "function",
         "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
        for i, c in enumerate(calls)]}


@pytest.mark.parametrize("shape", [
    hermes(WEATHER),                                   # Hermes / Qwen text
    openai(WEATHER),                                   # OpenAI message
    openai(WEATHER)["tool_calls"],                     # OpenAI tool_calls list
    [WEATHER],                                         # xLAM / Glaive list
    json.dumps([WEATHER]),                             # xLAM's `answers` column: JSON text
    [{"name": "get_weather", "parameters": {"city": "Paris", "days": 3}}],
])
def test_every_shape_reads_the_same_call(shape):
    assert as_calls(shape) == [ToolCall("get_weather", {"city": "Paris", "days": 3})]


@pytest.mark.parametrize(("a", "b", "equal"), [
    (1, 1.0, True), (True, 1, False), ("1", 1, False), (None, None, True), (None, 0, False),
    ([1, "a"], [1, "a"], True), ([1, 2], [2, 1], False), ({"x": [1]}, {"x": [1.0]}, True),
    ({"x": 1}, {"x": 1, "y": 2}, False), (False, False, True), (0, False, False),
])
def test_values_compare_by_value_and_type(a, b, equal):
    assert values_equal(a, b) is equal


def reward(**options):
    return ToolCallReward(**options)


def score(completion, reference, **options):
    return reward(**options).score([Sample("p", completion, reference=reference)])[0]


def test_exact_match_in_any_order():
    assert score(hermes(TIME, WEATHER), [WEATHER, TIME]).value == 1.0
    assert score(hermes(WEATHER, TIME), openai(TIME, WEATHER)).value == 1.0
    wrong_type = {"name": "get_weather", "arguments": {"city": "Paris", "days": "3"}}
    s = score(hermes(wrong_type), [WEATHER])
    assert s.value == 0.0 and s.reason == "wrong"


def test_missing_and_extra_calls_cost():
    assert score(hermes(WEATHER), [WEATHER, TIME]).value == 0.5  # one of two
    assert score(hermes(WEATHER, TIME), [WEATHER]).value == 0.5  # an extra call
    assert score(hermes(WEATHER, WEATHER), [WEATHER, WEATHER]).value == 1.0  # a multiset


def test_maximum_matching_beats_greedy():
    # in order, p0-r0 (0.5) and p1-r1 (0.5) give 0.5; the best pairing, p1-r0 (1.0) and
    # p0-r1 (a matches, b does not: 0.5), gives 1.5 / 2
    p = [ToolCall("f", {"a": 1, "b": 2}), ToolCall("f", {"a": 1, "b": 3})]
    r = [ToolCall("f", {"a": 1, "b": 3}), ToolCall("f", {"a": 1, "b": 9})]
    assert match_calls(p, r, partial_credit=True) == 0.75
    assert match_calls(p, r, partial_credit=True, ordered=True) == 0.5
    assert match_calls(p, r, ordered=True) == 0.0


def test_partial_credit_counts_matching_arguments():
    half = {"name": "get_weather", "arguments": {"city": "Paris", "days": 5}}
    assert score(hermes(half), [WEATHER]).value == 0.0
    assert score(hermes(half), [WEATHER], partial_credit=True).value == 0.5
    renamed = {"name": "get_forecast", "arguments": WEATHER["arguments"]}
    assert score(hermes(renamed), [WEATHER], partial_credit=True).value == 0.0


def test_format_part_and_no_answer():
    s = score("I do not know", [WEATHER], format_weight=0.2)
    assert s.value == 0.0 and s.reason == "no_answer" and s.parts["format"] == 0.0
    broken = "<tool_call>{not json</tool_call>"
    assert score(broken, [WEATHER], format_weight=0.2).value == 0.0
    wrong_args = {"name": "get_weather", "arguments": {"city": "Rome", "days": 3}}
    assert score(hermes(wrong_args), [WEATHER], format_weight=0.2).value == pytest.approx(0.2)
    # no call expected, none made: a full score
    assert score("It is sunny.", [], format_weight=0.2).value == 1.0
    assert score(hermes(WEATHER), []).value == 0.0  # a call where none was expected


def test_bfcl_possible_answers():
    reference = [{"get_weather": {"city": ["Paris", "Paris, France"], "days": [3, ""],
                                  "unit": ["", "celsius"]}}]
    assert score(hermes({"name": "get_weather", "arguments": {"city": "Paris, France"}}),
                 reference).value == 1.0
    assert score(hermes({"name": "get_weather",
                         "arguments": {"city": "Paris", "unit": "kelvin"}}), reference).value \
        == 0.0


def test_bad_reference_abstains_and_config_is_checked():
    assert score(hermes(WEATHER), 42).value is None
    assert score(hermes(WEATHER), [{"city": "Paris", "days": 3}]).value is None
    with pytest.raises(ConfigError, match="did you mean 'partial_credit'"):
        ToolCallReward(partial_credits=True)
    built = build_reward(parse_config({"domains": {"default": {"rewards": [
        {"use": "tool_call", "partial_credit": True}]}}}))
    out = built.score([Sample("p", hermes(WEATHER), reference=[WEATHER])])
    assert out[0].value == 1.0 and out[0].parts["tool_call"] == 1.0


def test_huge_completion_is_capped():
    text = "<tool_call>" * 100_000 + hermes(WEATHER)
    assert score(text, [WEATHER], max_chars=1000).value == 0.0


def test_max_weight_matching_against_brute_force():
    import itertools
    import random

    from rewards.envs.tool_calls import max_weight_matching

    rng = random.Random(0)
    for _ in range(300):
        rows, cols = rng.randint(0, 5), rng.randint(0, 5)
        weights = [[rng.choice([0.0, 0.25, 0.5, 1.0, rng.random()]) for _ in range(cols)]
                   for _ in range(rows)]
        best = 0.0
        if rows and cols:
            small, large = (rows, cols) if rows <= cols else (cols, rows)
            for perm in itertools.permutations(range(large), small):
                total = sum((weights[i][perm[i]] if rows <= cols else weights[perm[i]][i])
                            for i in range(small))
                best = max(best, total)
        assert max_weight_matching(weights) == pytest.approx(best), weights
