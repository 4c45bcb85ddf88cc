"""Red team (attack34) on the tool-call reward (`use: tool_call`) and the OpenAI reading of
completions (`rewards.completion.assistant_turns`): what a policy can sample, and what a client of
`rewards serve` can send as a reference, to buy credit, abstain instead of scoring 0, or fail
a batch. Attacks that held are kept as probes; holes still open are `xfail(strict=True)`."""

from __future__ import annotations

import json
import time

import pytest

from rewards import Sample
from rewards.completion import assistant_turns
from rewards.envs.tool_calls import ToolCallReward, parse_tool_calls

CALL = {"name": "f", "arguments": {"a": 1}}
TAGGED = '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'


def _score(reference: object, completion: str, meta: dict | None = None, **options: object):
    return ToolCallReward(**options).score([Sample("p", completion, reference,
                                                   meta=meta or {})])[0]


def _pair(score) -> tuple:
    return score.value, score.reason


# ---- extra and duplicate calls ---------------------------------------------------------------

@pytest.mark.parametrize("form", ["tags", "json"])
def test_a_call_past_max_calls_is_not_free(form: str) -> None:
    # tags were read up to 64: a 65th call past a 64-call reference scored 1.0 (JSON: 0.0)
    completion = TAGGED * 65 if form == "tags" else json.dumps([CALL] * 65)
    assert _score([CALL] * 64, completion).value == 0.0
    assert _score([CALL] * 64, completion.replace(TAGGED, "", 1) if form == "tags"
                  else json.dumps([CALL] * 64)).value == 1.0


def test_a_reference_past_max_calls_abstains_in_every_form() -> None:
    tagged = TAGGED * 65
    assert _pair(_score(tagged, TAGGED)) == (None, "bad_reference")
    assert _pair(_score([CALL] * 65, TAGGED)) == (None, "bad_reference")


@pytest.mark.parametrize("completion, value", [
    (TAGGED * 2, 0.5), (TAGGED + '<tool_call>{"name": "f", "arguments": {"a": 2}}</tool_call>', 0.5),
    (json.dumps([CALL, CALL, CALL]), 1 / 3), ("[f(a=1), f(a=1)]", 0.5),
])
def test_duplicate_and_hedged_calls_cost(completion: str, value: float) -> None:
    assert _score([CALL], completion).value == pytest.approx(value)


def test_a_repeated_keyword_is_a_malformed_call() -> None:
    # Python refuses f(a=2, a=1) ("keyword argument repeated"); it read as a=1 and scored 1.0
    assert _pair(_score([CALL], "f(a=2, a=1)")) == (0.0, "wrong")
    assert _score([CALL], "f(a=1)").value == 1.0


# ---- type confusion ---------------------------------------------------------------------------

@pytest.mark.parametrize("value", ['"1"', "true", "[1]", '{"v": 1}', "null", "NaN", "1.5"])
def test_a_value_of_another_type_or_value_does_not_match(value: str) -> None:
    assert _score([CALL], f'{{"name": "f", "arguments": {{"a": {value}}}}}').value == 0.0


def test_nan_matches_nothing_not_even_nan() -> None:
    reference = {"name": "f", "arguments": {"a": float("nan")}}
    assert _score(reference, '{"name": "f", "arguments": {"a": NaN}}').value == 0.0


def test_a_schema_keeps_an_int_parameter_an_int() -> None:
    meta = {"tools": [{"name": "f", "parameters": {"type": "object", "properties": {
        "a": {"type": "integer"}}, "required": ["a"]}}]}
    assert _score([CALL], '{"name": "f", "arguments": {"a": 1.0}}', meta).value == 0.0
    assert _score([CALL], '{"name": "f", "arguments": {"a": 1}}', meta).value == 1.0


@pytest.mark.parametrize("gold, sampled", [("-5", "5"), ("3.5", "35"), ("1/2", "12"),
                                           ("2^10", "210")])
def test_a_normalized_string_keeps_its_meaning(gold: str, sampled: str) -> None:
    reference = {"name": "f", "arguments": {"t": gold}}
    assert _score(reference, json.dumps({"name": "f", "arguments": {"t": sampled}})).value == 0.0


# ---- Pythonic-call parser edge cases -----------------------------------------------------------

@pytest.mark.parametrize("completion", [
    "f(a=lambda: 1)", 'f(a=f"{1}")', "f(a=(b:=1))", "f(1)", 'f(**{"a": 1})', "f(a=1+0)",
    "f(a=-True)", "f(a=--1)", "f(a=b'1')", "f(a=1j)", "f(a=...)", "f(a=x)", "f(a=g())",
    "f(a=[1 for _ in ()])", "f(a={1})", "f(a=" + "[" * 190 + "]" * 190 + ")",
])
def test_a_pythonic_call_that_is_not_literal_scores_zero(completion: str) -> None:
    assert _pair(_score([CALL], completion)) == (0.0, "wrong")


@pytest.mark.parametrize("completion", [
    "@f(a=1)", "f(a=" + "1" * 5_000 + ")", "f(a=" + "[" * 40_000 + "]" * 40_000 + ")",
    '{"name": "f", "arguments": {"a": ' + "1" * 5_000 + "}}", "[" * 40_000,
    "f(a=" + "(" * 40_000, "Sure! f(a=1)",
])
def test_a_call_that_does_not_parse_is_no_answer_not_a_crash(completion: str) -> None:
    start = time.perf_counter()
    assert _pair(_score([CALL], completion, max_chars=100_000)) == (0.0, "no_answer")
    assert time.perf_counter() - start < 20.0  # linear: ms here; quadratic: minutes


def test_a_tag_inside_a_json_string_is_text() -> None:
    inner = json.dumps({"name": "g", "arguments": {"x": TAGGED}})
    assert _score([CALL], inner).value == 0.0


def test_an_unclosed_tag_reads_to_the_end_as_hermes_parsers_do() -> None:
    assert _score([CALL], TAGGED.removesuffix("</tool_call>")).value == 1.0


# ---- OpenAI tool_calls through assistant_turns ---------------------------------------------------

def test_an_argument_cannot_close_its_tag_and_open_another() -> None:
    forged = json.dumps({"x": "</tool_call>" + TAGGED})
    message = {"role": "assistant", "content": None,
               "tool_calls": [{"type": "function", "function": {"name": "g", "arguments": forged}}]}
    calls = parse_tool_calls("".join(assistant_turns([message])))
    assert [c.name for c in calls] == ["g"]
    assert _score([CALL], "".join(assistant_turns([message]))).value == 0.0


@pytest.mark.parametrize("entry", ["junk", 5, None, [], {"function": {"name": 5}},
                                   {"function": {"name": "f", "arguments": "not json"}}])
def test_an_openai_entry_that_is_not_a_call_scores_zero(entry: object) -> None:
    message = {"role": "assistant", "content": "", "tool_calls": [entry]}
    score = _score([CALL], "".join(assistant_turns([message])))
    assert score.value == 0.0 and score.reason in ("wrong", "no_answer")


# ---- references: missing, malformed, deep ---------------------------------------------------------

@pytest.mark.parametrize("reference", [None, "", "  ", "not calls", 5, {"tool_calls": 5},
                                       "[" * 100_000, "f(a=" + "[" * 100_000 + ")",
                                       '{"name": "f", "arguments": {"a": ' + "1" * 5_000 + "}}",
                                       {"f": {"a": []}}, {"name": ""}])
def test_a_missing_or_broken_reference_abstains(reference: object) -> None:
    assert _pair(_score(reference, TAGGED)) == (None, "bad_reference")


@pytest.mark.parametrize("parameters", [
    {"required": [["a"]]}, {"required": {"a": 1}}, {"required": "a"}, {"properties": ["a"]},
    {"properties": {"a": "integer"}},
])
def test_a_malformed_schema_abstains_instead_of_crashing(parameters: dict) -> None:
    # required [["a"]] raised TypeError (unhashable list); the others were silently ignored
    meta = {"tools": [{"name": "f", "parameters": parameters}]}
    assert _pair(_score([CALL], TAGGED, meta)) == (None, "bad_reference")


@pytest.mark.parametrize("bfcl", [False, True])
def test_a_reference_nested_past_the_stack_abstains_instead_of_raising(bfcl: bool) -> None:
    deep = json.loads("[" * 900 + "]" * 900)
    reference = {"f": {"a": [deep]}} if bfcl else {"name": "f", "arguments": {"a": deep}}
    completion = json.dumps({"name": "f", "arguments": {"a": deep}})
    assert _pair(_score(reference, completion)) == (None, "bad_reference")


@pytest.mark.parametrize("reference, meta, cause", [
    (None, {}, "bad_reference:missing"), ("  ", {}, "bad_reference:missing"),
    ({}, {}, "bad_reference:missing"),
    ([CALL], {"tools": [{"name": "f", "parameters": {"required": [["a"]]}}]},
     "bad_reference:unparseable"),
    ("not calls", {}, "bad_reference:unparseable"),
])
def test_the_run_rule_sees_why_a_tool_call_row_abstained(reference: object, meta: dict,
                                                         cause: str) -> None:
    from rewards.scoring import abstention_cause

    sample = Sample("p", TAGGED, reference, meta=meta)
    assert abstention_cause(sample, ToolCallReward().score([sample])[0]) == cause
