"""The attacks `use: tool_call` must resist (`rewards stress`), built from a real row's
reference calls: malformed calls appended to a wrong one (which must score, never abstain),
type confusion, and duplicate and extra calls beside the right ones."""

from __future__ import annotations

import json
from typing import Any

from rewards.envs.tool_calls import BadCalls, ToolCall, as_calls
from rewards.stress import Probe, ProbeSet, Row
from rewards.types import Sample

__all__ = ["PROBES"]


def _calls(sample: Sample) -> list[ToolCall]:
    try:
        return list(as_calls(sample.reference))
    except (BadCalls, ValueError, TypeError):
        return []


def _first_value(value: Any, alternatives: bool) -> Any:
    """One allowed value of a BFCL argument (its first non-empty alternative)."""
    if not alternatives:
        return value
    for choice in value if isinstance(value, list) else [value]:
        if choice != "":
            return choice
    return None


def _concrete(call: ToolCall) -> dict[str, Any]:
    arguments = {k: _first_value(v, call.alternatives) for k, v in (call.arguments or {}).items()}
    return {"name": call.name, "arguments": {k: v for k, v in arguments.items()
                                             if v is not None}}


def _tag(call: dict[str, Any]) -> str:
    return f"<tool_call>\n{json.dumps(call)}\n</tool_call>"


_WRONG_CALL = {"name": "not_a_function_of_this_task", "arguments": {}}


def _good(sample: Sample) -> list[str]:
    calls = _calls(sample)
    if not calls:
        return []
    concrete = [_concrete(c) for c in calls]
    return ["\n".join(_tag(c) for c in concrete),
            json.dumps(concrete)]


def _wrong(sample: Sample) -> str:
    return _tag(_WRONG_CALL)


def _masking(row: Row) -> list[str]:
    wrong = _wrong(row.sample)
    bodies = ["0", "null", '"text"', "[[[]]]", "{", '{"name": 5}', '{"arguments": {}}',
              "[" * 5000 + "]" * 5000, '{"name": "f", "arguments": "not json {"}']
    return [f"{wrong}\n<tool_call>{body}</tool_call>" for body in bodies] + \
        [f"<tool_call>{body}</tool_call>" for body in bodies]


def _type_confusion(row: Row) -> list[str]:
    calls = _calls(row.sample)
    out = []
    for call in calls[:1]:
        concrete = _concrete(call)
        for key, value in concrete["arguments"].items():
            for other in _confused(value):
                args = dict(concrete["arguments"], **{key: other})
                out.append(_tag({"name": concrete["name"], "arguments": args}))
    return out


def _confused(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [int(value), str(value).lower()]
    if isinstance(value, int):
        return [str(value) + "x", [value], {"value": value}]
    if isinstance(value, float):
        return [f"{value}x", [value]]
    if isinstance(value, str):
        return [[value], {"value": value}, value + " and something else entirely"]
    if isinstance(value, list):
        return [json.dumps(value) + "x"]
    return []


def _duplicates(row: Row) -> list[tuple[str, str]]:
    calls = _calls(row.sample)
    if not calls:
        return []
    concrete = [_concrete(c) for c in calls]
    right = "\n".join(_tag(c) for c in concrete)
    wrong = _tag(_WRONG_CALL)
    # the right calls with extra ones may not score more than the right calls alone
    return [(right + "\n" + right, right), (right + "\n" + wrong, right),
            (wrong + "\n" + right + "\n" + wrong, right)]


def _usable(sample: Sample) -> bool:
    return bool(_calls(sample))


PROBES = ProbeSet(
    probes=(
        Probe("masking", "malformed calls", _masking),
        Probe("lenient_compare", "type confusion", _type_confusion),
        Probe("hedging", "duplicate and extra calls", _duplicates),
    ),
    good=_good,
    wrong=_wrong,
    broken_references=lambda sample: (None, "", "not json ["),
    usable=_usable,
    echo_is_zero=True,
)
