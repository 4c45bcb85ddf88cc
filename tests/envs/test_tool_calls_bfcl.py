"""`use: tool_call` against BFCL's possible answers (tests/envs/data/bfcl_ast_sample.jsonl, see
its README): every possible-answer combination, rendered as the calls a model writes (Hermes
JSON, OpenAI `tool_calls`, Pythonic), scores 1; every perturbation BFCL's AST checker rejects
by construction (a wrong value, a missing required parameter, an unexpected parameter, a
wrong function) scores below 1. Where BFCL's own package is importable (`bfcl_eval`), its
checker judges the same calls and must agree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rewards.envs.tool_calls import ToolCallReward, standardize_string
from rewards.types import Sample

DATA = Path(__file__).parent / "data" / "bfcl_ast_sample.jsonl"
ALL_ROWS = [json.loads(line) for line in DATA.open(encoding="utf-8")]


def _params(row: dict, name: str) -> dict:
    return next(f["parameters"] for f in row["function"] if f["name"] == name)


def satisfiable(row: dict) -> bool:
    """False for the possible answers no call can match (BFCL's checker rejects every call;
    the reward abstains): an argument with no allowed value (`[]`), or a required parameter
    the answer leaves out."""
    for answer in row["ground_truth"]:
        (name, arguments), = answer.items()
        if not all(arguments.values()) or any(
                k not in arguments for k in _params(row, name).get("required", [])):
            return False
    return True


ROWS = [row for row in ALL_ROWS if satisfiable(row)]
OMIT = object()


def _pick(allowed: list[Any], which: int) -> Any:
    """One allowed value (the first or the last), concrete all the way down; OMIT when only
    "" (optional, left out) is allowed."""
    options = [a for a in allowed if a != ""]
    return OMIT if not options else _concrete(options[which], which)


def _is_nested(option: Any) -> bool:
    return isinstance(option, dict) and bool(option) and all(
        isinstance(v, list) for v in option.values())


def _concrete(option: Any, which: int) -> Any:
    if _is_nested(option):
        picked = {k: _pick(v, which) for k, v in option.items()}
        return {k: v for k, v in picked.items() if v is not OMIT}
    if isinstance(option, list) and option and all(map(_is_nested, option)):
        return [_concrete(o, which) for o in option]
    return option


def combinations(row: dict) -> list[list[tuple[str, dict]]]:
    """Calls for the first allowed values, the last ones, and the first with every optional
    argument left out (optional: "" allowed, and not required by the schema)."""
    out = []
    for which, keep_optional in ((0, True), (-1, True), (0, False)):
        calls = []
        for answer in row["ground_truth"]:
            (name, arguments), = answer.items()
            required = _params(row, name).get("required", [])
            declared = _params(row, name).get("properties", {})
            picked = {k: _pick(v, which) for k, v in arguments.items() if k in declared
                      and (keep_optional or "" not in v or k in required)}
            calls.append((name, {k: v for k, v in picked.items() if v is not OMIT}))
        if calls not in out:
            out.append(calls)
    return out


def _py(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_py(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(_py, value)) + "]"
    return repr(value)


def render(calls: list[tuple[str, dict]], form: str) -> Any:
    if form == "hermes":
        return "".join(f"<tool_call>{json.dumps({'name': n, 'arguments': a})}</tool_call>"
                       for n, a in calls)
    if form == "openai":  # what OpenAI-style APIs return: no dot in a function name
        return {"role": "assistant", "content": "", "tool_calls": [
            {"id": f"call_{i}", "type": "function",
             "function": {"name": n.replace(".", "_"), "arguments": json.dumps(a)}}
            for i, (n, a) in enumerate(calls)]}
    return "[" + ", ".join(f"{n}({', '.join(f'{k}={_py(v)}' for k, v in a.items())})"
                           for n, a in calls) + "]"


def _other_value(value: Any, allowed: list[Any]) -> Any:
    """A value of the same type that none of `allowed` equals (standardized for text)."""
    if isinstance(value, bool):
        return None if (not value) in allowed else not value
    if isinstance(value, (int, float)):
        return next(value + d for d in (1, 7, 1001) if value + d not in allowed)
    if isinstance(value, str):
        taken = {standardize_string(a) for a in allowed if isinstance(a, str)}
        return next(v for v in (value + "zq", "zq" + value + "x") if
                    standardize_string(v) not in taken)
    return None


def perturbations(row: dict, calls: list[tuple[str, dict]]) -> dict[str, list]:
    """Changes to the first call that BFCL's checker rejects by construction."""
    name, arguments = calls[0]
    answer = row["ground_truth"][0][name]
    params = _params(row, name)
    out = {"wrong_function": [(name + "_v2", arguments)] + calls[1:],
           "unexpected_param": [(name, {**arguments, "zz_unexpected": 1})] + calls[1:]}
    needed = [k for k in arguments if k in params.get("required", []) or "" not in answer[k]]
    if needed:
        out["missing_required"] = [(name, {k: v for k, v in arguments.items()
                                           if k != needed[0]})] + calls[1:]
    for key, value in arguments.items():
        other = _other_value(value, answer[key])
        if other is not None:
            out["wrong_value"] = [(name, {**arguments, key: other})] + calls[1:]
            break
    return out


def score(row: dict, completion: Any) -> float | None:
    sample = Sample("", completion, reference=row["ground_truth"],
                    meta={"function": row["function"]})
    return ToolCallReward().score([sample])[0].value


def test_unsatisfiable_possible_answers_abstain():
    unsatisfiable = [row for row in ALL_ROWS if not satisfiable(row)]
    assert len(unsatisfiable) == 3
    for row in unsatisfiable:
        assert score(row, render(combinations(row)[0], "hermes")) is None


def test_the_sample_covers_every_ast_category():
    categories = {row["category"] for row in ROWS}
    assert categories == {"simple_python", "multiple", "parallel", "parallel_multiple",
                          "live_simple", "live_multiple", "live_parallel",
                          "live_parallel_multiple"}
    assert len(ROWS) >= 1500


@pytest.mark.parametrize("form", ["hermes", "openai", "pythonic"])
def test_every_possible_answer_scores_1(form):
    wrong = []
    for row in ROWS:
        for calls in combinations(row):
            if score(row, render(calls, form)) != 1.0:
                wrong.append((row["id"], render(calls, form)))
    assert not wrong, f"{len(wrong)} right calls scored below 1: {wrong[:3]}"


def test_every_perturbation_scores_below_1():
    counts: dict[str, int] = {}
    wrong = []
    for row in ROWS:
        calls = combinations(row)[0]
        for kind, changed in perturbations(row, calls).items():
            counts[kind] = counts.get(kind, 0) + 1
            for form in ("hermes", "pythonic"):
                value = score(row, render(changed, form))
                if value is None or value >= 1.0:
                    wrong.append((row["id"], kind, render(changed, form)))
    assert not wrong, f"{len(wrong)} wrong calls scored 1 or abstained: {wrong[:3]}"
    assert counts["wrong_function"] == len(ROWS) and counts["wrong_value"] > 1400


def test_bfcl_checker_agrees_where_importable():
    checker = pytest.importorskip("bfcl_eval.eval_checker.ast_eval.ast_checker")
    from bfcl_eval.constants.enums import Language
    from bfcl_eval.constants.model_config import MODEL_CONFIG_MAPPING

    # a model whose calls keep their dotted names, so the checker compares names as written
    model = next(k for k, v in MODEL_CONFIG_MAPPING.items() if not v.underscore_to_dot)
    disagreements, total = [], 0
    for row in ROWS:
        cases = [(True, c) for c in combinations(row)]
        cases += [(False, c) for c in perturbations(row, cases[0][1]).values()]
        for expected, calls in cases:
            verdict = checker.ast_checker(row["function"], [{n: a} for n, a in calls],
                                          row["ground_truth"], Language.PYTHON,
                                          row["category"], model.replace("/", "_"))["valid"]
            ours = score(row, render(calls, "hermes")) == 1.0
            total += 1
            if verdict != ours:
                disagreements.append((row["id"], calls, verdict))
    assert total > 5000
    assert not disagreements, f"{len(disagreements)} of {total}: {disagreements[:3]}"
