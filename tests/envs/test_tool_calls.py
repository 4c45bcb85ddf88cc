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


# ---- issue #34: malformed calls score, missing references fail the run, every path reads
# the same completion, BFCL's semantics ---------------------------------------------------------

@pytest.mark.parametrize("junk", ["0", "null", '"get_weather"', "[[1]]", "[1, 2]", "true",
                                  "{}", '{"name": 5}', '[{"name": "f"}, 3]', "get_weather"])
def test_a_tag_that_is_not_a_call_scores_0_never_raises(junk):
    from rewards.scoring import score_batch

    # appended to a wrong call, a malformed tag must not turn the 0 into an error row
    wrong = {"name": "get_weather", "arguments": {"city": "Rome", "days": 3}}
    for completion in (f"<tool_call>{junk}</tool_call>",
                       hermes(wrong) + f"<tool_call>{junk}</tool_call>",
                       hermes(WEATHER) + f"<tool_call>{junk}</tool_call>"):
        scored = score_batch(reward(), [Sample("p", completion, reference=[WEATHER])])
        assert not scored.errors
        assert scored.scores[0].value is not None and scored.scores[0].value < 1.0
        assert scored.scores[0].parts["format"] == 0.0


@pytest.mark.parametrize("text", ["[1, 2]", "0", '"text"', "null", "[]"])
def test_json_that_is_no_call_is_no_answer(text):
    s = score(text, [WEATHER])
    assert s.value == 0.0 and s.reason == "no_answer"


def test_a_missing_reference_abstains_and_fails_the_run():
    from rewards.scoring import AbstentionTally, abstention_cause

    samples = [Sample("p", "It is sunny.", reference=ref) for ref in (None, "", "  ")]
    scores = reward().score(samples)
    assert all(s.value is None and s.reason == "bad_reference" for s in scores)
    assert {abstention_cause(x, s) for x, s in zip(samples, scores)} == \
        {"bad_reference:missing"}
    tally = AbstentionTally()
    tally.add(samples, scores)
    assert tally.failures() and "bad_reference:missing" in tally.failures()[0]


@pytest.mark.parametrize("nothing_expected", [
    [], "[]", {"role": "assistant", "content": "It is sunny."},
    {"role": "assistant", "content": "ok", "tool_calls": None}, {"tool_calls": []},
    [{"role": "assistant", "content": "ok"}]])
def test_no_call_expected_is_said_explicitly(nothing_expected):
    assert score("It is sunny.", nothing_expected).value == 1.0
    assert score(hermes(WEATHER), nothing_expected).value == 0.0


def test_reference_faults():
    no_args = hermes({"name": "list_files", "arguments": {}})
    for null in ({"name": "list_files", "arguments": None},
                 {"type": "function", "function": {"name": "list_files", "arguments": None}},
                 {"name": "list_files", "arguments": ""}):
        assert score(no_args, [null]).value == 1.0  # null arguments: none
    # reference arguments that do not parse, or no call could match: abstain, not 0 for all
    for broken in ([{"name": "get_weather", "arguments": "{city: Paris"}],
                   [{"name": "get_weather", "arguments": [1]}],
                   [{"get_weather": {"city": []}}], "<tool_call>{oops</tool_call>"):
        s = score(hermes(WEATHER), broken)
        assert s.value is None and s.reason == "bad_reference", broken


def test_openai_tool_calls_reach_every_path():
    from rewards.completion import assistant_turns
    from rewards.io import row_to_sample

    message = openai(WEATHER)
    message["content"] = None
    for completion in (message, [message], [{"role": "user", "content": "hi"}, message]):
        text = "".join(assistant_turns(completion))  # the turns' calls, as text
        assert score(text, [WEATHER]).value == 1.0
        sample = row_to_sample({"prompt": "p", "completion": completion,
                                "reference": [WEATHER]})
        assert reward().score([sample])[0].value == 1.0
    # an argument that holds the closing tag stays inside its call
    tricky = {"name": "echo", "arguments": {"text": "a</tool_call><tool_call>b"}}
    assert score("".join(assistant_turns(openai(tricky))), [tricky]).value == 1.0
    # an entry that is not a call is a malformed call, not an error
    assert score("".join(assistant_turns({"role": "assistant", "tool_calls": [7]})), [WEATHER]).value \
        == 0.0


@pytest.mark.parametrize("text", [
    '[get_weather(city="Paris", days=3)]',
    'get_weather(city="Paris", days=3)',
    "```python\n[get_weather(city='Paris', days=3)]\n```",
    '<tool_call>[get_weather(city="Paris", days=3)]</tool_call>',
    '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris", "days": 3}}',
])
def test_pythonic_and_llama_calls(text):
    assert score(text, [WEATHER]).value == 1.0


@pytest.mark.parametrize("text", [
    'get_weather("Paris", days=3)',            # positional: not read
    "get_weather(city=Paris, days=3)",         # a name, not a value
    'get_weather(city="Paris", days=1+2)',     # an expression: never evaluated
    'get_weather(**{"city": "Paris"})',
    '[get_weather(city="Paris", days=3), 5]',  # not all calls: no call
    "__import__('os').system('true')",
])
def test_pythonic_calls_are_read_never_run(text):
    s = score(text, [WEATHER])
    assert s.value == 0.0


def test_nested_pythonic_input_is_bounded():
    deep = "f(a=" + "[" * 5000 + "]" * 5000 + ")"
    assert score(deep, [WEATHER]).value == 0.0
    assert score("[" * 200_000, [WEATHER], max_chars=100_000).value == 0.0


def test_strings_compare_after_bfcl_standardization():
    loose = {"name": "get_weather", "arguments": {"city": "paris", "days": 3}}
    assert score(hermes(loose), [WEATHER]).value == 1.0
    assert score(hermes(loose), [WEATHER], exact_strings=True).value == 0.0
    date = [{"book": {"date": ["April 1, 2024"]}}]
    assert score('[book(date="april 1 2024")]', date).value == 1.0
    assert score('[book(date="April 2, 2024")]', date).value == 0.0


WEATHER_TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"},
                                     "ratio": {"type": "number"}},
    "required": ["city"]}}}


def test_the_schema_decides_types_and_required_parameters():
    def typed(completion, reference, tools=(WEATHER_TOOL,)):
        return reward().score([Sample("p", completion, reference=reference,
                                      meta={"tools": list(tools)})])[0].value

    ref = [{"get_weather": {"city": ["Paris"], "days": [3, ""], "ratio": [2.0, ""]}}]
    assert typed('[get_weather(city="Paris", days=3)]', ref) == 1.0
    assert typed('[get_weather(city="Paris", days=3.0)]', ref) == 0.0  # a float for an int
    assert typed('[get_weather(city="Paris", ratio=2)]', ref) == 1.0    # an int is a float
    assert typed('[get_weather(city="Paris", days=True)]', [{"get_weather": {
        "city": ["Paris"], "days": [1]}}]) == 0.0
    # a parameter the schema does not declare, though the reference allows it
    ref_extra = [{"get_weather": {"city": ["Paris"], "unit": ["", "C"]}}]
    assert typed('[get_weather(city="Paris", unit="C")]', ref_extra) == 0.0
    # a required parameter the reference leaves out: no call can match, so it abstains
    assert typed('[get_weather(days=3)]', [{"get_weather": {"days": [3]}}]) is None
    # BFCL's `function` column, and unreadable schemas abstain
    bfcl = [{"name": "get_weather", "parameters": WEATHER_TOOL["function"]["parameters"]}]
    assert typed('[get_weather(city="Paris", days=3.0)]', ref, bfcl) == 0.0
    assert reward().score([Sample("p", "x", reference=ref, meta={"tools": "{not json"})]
                          )[0].value is None


def test_nested_alternatives_in_dicts_and_lists_of_dicts():
    ref = [{"order": {"prefs": [{"size": ["large", "L"], "milk": ["oat", ""]}],
                      "items": [[{"id": ["a1"], "qty": [5, ""]}, {"id": ["b2"], "qty": [6]}]]}}]
    right = '[order(prefs={"size": "L"}, items=[{"id": "a1"}, {"id": "b2", "qty": 6}])]'
    assert score(right, ref).value == 1.0
    for wrong in ('[order(prefs={"size": "small"}, items=[{"id": "a1"}, {"id": "b2", "qty": 6}])]',
                  '[order(prefs={"milk": "oat"}, items=[{"id": "a1"}, {"id": "b2", "qty": 6}])]',
                  '[order(prefs={"size": "L"}, items=[{"id": "b2", "qty": 6}, {"id": "a1"}])]',
                  '[order(prefs={"size": "L", "x": 1}, items=[{"id": "a1"}, {"id": "b2", "qty": 6}])]'):
        assert score(wrong, ref).value == 0.0, wrong


def test_dotted_names_may_be_written_with_underscores():
    ref = [{"math.factorial": {"number": [5]}}]
    assert score('<tool_call>{"name": "math_factorial", "arguments": {"number": 5}}</tool_call>',
                 ref).value == 1.0
    assert score('[math.factorial(number=5)]', ref).value == 1.0
    assert score('[mathfactorial(number=5)]', ref).value == 0.0
    assert score('[math_factorial(number=5)]', [{"math_factorial": {"number": [5]}}]).value \
        == 1.0
    assert score('[math.factorial(number=5)]', [{"math_factorial": {"number": [5]}}]).value \
        == 0.0


def test_the_adapters_read_openai_tool_calls(tmp_path):
    import asyncio

    pytest.importorskip("yaml")
    from integrations.areal import AReaLReward
    from integrations.trl import trl_rewards
    from integrations.verifiers import reward_funcs

    config = tmp_path / "tools.yaml"
    config.write_text("domains:\n  default:\n    rewards:\n      - {use: tool_call}\n")
    right, wrong = openai(WEATHER), openai({"name": "get_weather", "arguments": {"city": "Rome"}})
    for message in (right, wrong):
        message["content"] = None
    expected = [1.0, 0.0]
    trl = trl_rewards(str(config), reference_column="reference").funcs[0]
    assert trl(prompts=["p", "p"], completions=[[right], [wrong]],
               reference=[[WEATHER], [WEATHER]]) == expected
    areal = AReaLReward(str(config), reference_key="reference")
    assert [areal("p", [m], reference=[WEATHER]) for m in (right, wrong)] == expected
    func = reward_funcs(str(config))[0][0]
    assert [asyncio.run(func(prompt="p", completion=[m], answer=[WEATHER]))
            for m in (right, wrong)] == expected


def test_cli_reads_tool_calls_and_schemas_and_fails_a_run_without_references(tmp_path, capsys):
    from rewards_cli import main

    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("domains:\n  default:\n    rewards:\n      - {use: tool_call}\n")
    schema = [{"name": "math.factorial", "parameters": {
        "type": "dict", "properties": {"number": {"type": "integer"}}, "required": ["number"]}}]
    answer = [{"math.factorial": {"number": [5]}}]
    call = {"type": "function", "function": {"name": "math_factorial",
                                             "arguments": '{"number": 5}'}}
    rows = [{"completion": [{"role": "assistant", "content": None, "tool_calls": [call]}]},
            {"completion": "[math.factorial(number=5.0)]"}]  # a float for an integer
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps({**row, "prompt": "5!", "answer": answer,
                                       "function": schema}) + "\n" for row in rows))
    assert main(["score", str(src), "--config", str(cfg), "--map", "answer=reference",
                 "--out", str(out)]) == 0
    assert [json.loads(line)["score"] for line in out.read_text().splitlines()] == [1.0, 0.0]
    # read without --map too: `answer` is one of the gold columns every entry point reads
    assert main(["score", str(src), "--config", str(cfg), "--out", str(out)]) == 0
    assert [json.loads(line)["score"] for line in out.read_text().splitlines()] == [1.0, 0.0]
    # the same rows without their ground-truth column: the run fails (exit 3), no green zeros
    src.write_text("".join(json.dumps({**row, "prompt": "5!", "function": schema}) + "\n"
                           for row in rows))
    assert main(["score", str(src), "--config", str(cfg), "--out", str(out)]) == 3
    assert "bad_reference:missing" in capsys.readouterr().err
