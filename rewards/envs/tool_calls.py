"""Tool calls: reading them from model text and from the shapes datasets store them in, and
`ToolCallReward` (`use: tool_call`), which matches predicted calls to the reference.

Shapes read, for the prediction (`parse_tool_calls`, which never raises: model output is
data) and the reference (`as_calls`, which raises `BadCalls` for what is not calls):
- Hermes / Qwen chat-template text: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`;
- OpenAI messages: `{"tool_calls": [{"type": "function", "function": {"name": ...,
  "arguments": "<JSON text>"}}]}`, or the list of `tool_calls`; an assistant message without
  `tool_calls` is no call;
- xLAM / Glaive / plain JSON: `[{"name": ..., "arguments": {...}}]` (`parameters` also
  read), as a list or as its JSON text; Llama's `<|python_tag|>` prefix is dropped;
- Pythonic calls (BFCL's prompt mode, Llama 3.2 and 4): `[get_weather(city="Paris")]` or
  one call, read by `ast.parse` (never evaluated) with keyword arguments whose values are
  literals; anything else in a call (a repeated keyword included) is a malformed call;
- BFCL possible answers (reference only): `[{"func": {"arg": [allowed value, ...]}}]`: an
  argument matches any of its allowed values, `""` among them marks it optional, and an
  allowed dict (or list of dicts) whose values are lists holds alternatives in turn.

Matching (`argument_matches`), per value type: text compares after BFCL's standardization
(case, spaces and `,./-_*^` ignored, `'` read as `"`; `exact_strings` turns it off); numbers
by value (`1 == 1.0`), but a bool equals only a bool and text only text; lists item by item,
mappings key by key. With the function's schema (`tools` or BFCL's `function` column, in
`meta`), an argument must have its parameter's type (an int is a float, a float is not an
int) and required parameters must be present. Names are equal, or the reference's with `.`
written `_` (what OpenAI-style APIs allow). Parallel calls are an unordered multiset:
predicted and reference calls are paired by a maximum-weight matching (the Hungarian
algorithm), and the score is the matched weight over max(#predicted, #reference), so missing
and extra calls both cost. With `partial_credit`, a pair with the same name weighs the share
of argument keys (of both calls' union, plus required ones) whose values match.

The completion is read by `rewards.completion`: a text, or the calls of every assistant turn
of chat messages (`rewards.types.completion_turns`: a call made in an earlier turn was made,
whatever the last turn says).
Parsing works on text bounded by `max_chars` (a longer completion is not read at all: 0.0,
`too_long`) with `str.find` scans (linear time), `json.loads` and `ast.parse`; no regular
expression touches model text."""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rewards.errors import BadReference, InputError
from rewards.options import check_fields, check_range, load_options
from rewards.types import Sample, Score, completion_turns

__all__ = ["ToolCall", "ToolCallOptions", "ToolCallReward", "argument_matches", "as_calls",
           "call_similarity", "extract_tagged", "match_calls", "max_weight_matching",
           "parse_tool_calls", "standardize_string", "tool_schemas", "values_equal"]


@dataclass(frozen=True)
class ToolCall:
    """One call: a function name and its arguments (None when they did not parse)."""

    name: str
    arguments: Mapping[str, Any] | None = field(default_factory=dict)
    alternatives: bool = False
    """BFCL form: each argument's value is a list of allowed values."""


MALFORMED = ToolCall("", None)
"""What a tag body or list item that is not a call reads as: a call that matches nothing."""


BadCalls = BadReference
"""A reference (or tool schema) that is not tool calls in any shape `as_calls` reads: the
project's one bad-reference class (`rewards.errors.BadReference`) under this reward's name;
the reward abstains on it (`bad_reference`)."""


def extract_tagged(text: str, open_tag: str, close_tag: str, *, limit: int = 64
                   ) -> list[str]:
    """The bodies between `open_tag` and the next `close_tag`, in order (an unclosed last
    tag: its body runs to the end), at most `limit` of them; linear in `len(text)`."""
    out: list[str] = []
    at = 0
    while len(out) < limit:
        start = text.find(open_tag, at)
        if start < 0:
            break
        start += len(open_tag)
        end = text.find(close_tag, start)
        out.append(text[start:] if end < 0 else text[start:end])
        if end < 0:
            break
        at = end + len(close_tag)
    return out


# ---- the prediction: model text, never raises -----------------------------------------------

def parse_tool_calls(text: str, *, max_chars: int = 50_000, max_calls: int = 64
                     ) -> list[ToolCall] | None:
    """The calls in model text (Hermes tags, else the whole text as JSON or Pythonic calls),
    or None when it holds none. A tag body, list item or call that does not read as a call
    is `MALFORMED` (a format error that scores 0), never an exception. Tags are read up to
    one past `max_calls`, so a completion over it is seen to be (a call past the last one
    read would otherwise be free). A text over `max_chars` is not read in part (a call
    past the cut would be free): it reads as one `MALFORMED` call, which matches nothing."""
    if len(text) > max_chars:
        return [MALFORMED]
    bodies = extract_tagged(text, "<tool_call>", "</tool_call>", limit=max_calls + 1)
    if bodies:
        return [call for body in bodies for call in (_text_calls(body) or [MALFORMED])]
    return _text_calls(text)


def _text_calls(text: str) -> list[ToolCall] | None:
    """Calls from one piece of text (JSON, else Pythonic), or None for text that is not."""
    body = _unwrap(text)
    if body[:1] in ("[", "{"):
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):
            pass
        else:
            return _model_calls(value)
    if body[:1] == "[" or (body[:1].isidentifier() and body.endswith(")")):
        return _pythonic_calls(body)
    return None


def _unwrap(text: str) -> str:
    """The text without surrounding space, a Markdown fence (```json, ```python, ```) or
    Llama's `<|python_tag|>` prefix."""
    body = text.strip().removeprefix("<|python_tag|>").strip()
    if body.startswith("```") and body.endswith("```") and len(body) >= 6:
        body = body[3:-3]
        first_line = body.split("\n", 1)
        if len(first_line) == 2 and first_line[0].strip() in ("", "json", "python", "tool_code"):
            body = first_line[1]
    return body.strip()


def _model_calls(value: Any) -> list[ToolCall] | None:
    """Calls from parsed JSON model output: a call object or a list of them (an item that is
    not a call: `MALFORMED`); None for JSON that is no attempt at a call (a number, text)."""
    if isinstance(value, Mapping):
        if "tool_calls" in value or value.get("role") == "assistant":
            calls = value.get("tool_calls") or []
            return [_model_call(c) for c in calls] if isinstance(calls, list) else [MALFORMED]
        return [_model_call(value)]
    if isinstance(value, list) and value and any(isinstance(v, Mapping) for v in value):
        return [_model_call(v) for v in value]
    return None


def _model_call(value: Any) -> ToolCall:
    if not isinstance(value, Mapping):
        return MALFORMED
    if isinstance(value.get("function"), Mapping):  # OpenAI: {"type": "function", ...}
        return _model_call(value["function"])
    name = value.get("name")
    if not isinstance(name, str) or not name:
        return MALFORMED
    try:
        return ToolCall(name, _arguments(value))
    except BadCalls:
        return ToolCall(name, None)


def _arguments(value: Mapping[str, Any]) -> Mapping[str, Any]:
    """A call's arguments (`arguments`, else `parameters`): an object, its JSON text, or
    null / absent / blank text for none; `BadCalls` for anything else."""
    arguments = value.get("arguments", value.get("parameters"))
    if arguments is None:
        return {}
    if isinstance(arguments, str):  # OpenAI: arguments as JSON text
        if not arguments.strip():
            return {}
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError):
            raise BadCalls("arguments that are not JSON") from None
    if not isinstance(arguments, Mapping):
        raise BadCalls(f"arguments must be an object, not {type(arguments).__name__}")
    return arguments


def _pythonic_calls(text: str) -> list[ToolCall] | None:
    """`[f(a=1), g.h(b="x")]` or `f(a=1)` by `ast.parse` (never evaluated; the text is
    already capped, and Python's parser bounds nesting); None when it does not parse as
    calls."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    items = node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]
    calls = [item for item in items if isinstance(item, ast.Call)]
    if not items or len(calls) != len(items):
        return None
    return [_pythonic_call(call) for call in calls]


def _pythonic_call(node: ast.Call) -> ToolCall:
    parts, func = [], node.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return MALFORMED
    name = ".".join([func.id, *reversed(parts)])
    if node.args or any(k.arg is None for k in node.keywords):  # positional or **kwargs
        return ToolCall(name, None)
    if len({k.arg for k in node.keywords}) != len(node.keywords):  # Python refuses it too
        return ToolCall(name, None)
    try:
        return ToolCall(name, {k.arg: _literal(k.value) for k in node.keywords
                               if k.arg is not None})
    except (_NotLiteral, RecursionError):
        return ToolCall(name, None)


_CONSTANTS = (str, int, float, bool, type(None))


def _literal(node: ast.AST) -> Any:
    """A JSON-like value from a literal node: constants, lists, tuples (as lists), dicts with
    text keys, and a sign on a number; `_NotLiteral` for anything else (names, calls, math)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, _CONSTANTS):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_literal(item) for item in node.elts]
    if isinstance(node, ast.Dict):
        keys = [k.value for k in node.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if len(keys) == len(node.keys):
            return {key: _literal(v) for key, v in zip(keys, node.values)}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) \
            and isinstance(node.operand, ast.Constant):
        number = node.operand.value
        if isinstance(number, (int, float)) and not isinstance(number, bool):
            return -number if isinstance(node.op, ast.USub) else number
    raise _NotLiteral(f"not a literal: {type(node).__name__}")


class _NotLiteral(InputError):
    """A Pythonic call's argument that is not a literal (a name, a call, arithmetic): the call
    is malformed model output, never evaluated."""


# ---- the reference: raises BadCalls ----------------------------------------------------------

def as_calls(value: Any) -> list[ToolCall]:
    """Reference calls from any shape in the module docstring (`[]`, an assistant message
    without `tool_calls`, or `{"tool_calls": []}`: no call expected); `BadCalls` for
    anything else, arguments that do not parse included."""
    if isinstance(value, str):
        body = _unwrap(value)
        # every tag (linear in the text): a reference over `max_calls` must be seen to be
        bodies = extract_tagged(body, "<tool_call>", "</tool_call>", limit=len(body))
        if bodies:
            return [c for b in bodies for c in as_calls(_json_or_text(b))]
        if body[:1] in ("[", "{"):
            return as_calls(_json_or_text(body))
        calls = _pythonic_calls(body) if body else None
        if calls is None or any(c.arguments is None for c in calls):
            raise BadCalls("text without tool calls")
        return calls
    if isinstance(value, Mapping):
        if "tool_calls" in value or value.get("role") == "assistant":
            return as_calls(value.get("tool_calls") or [])
        return [_reference_call(value)]
    if isinstance(value, Sequence) and all(isinstance(i, (Mapping, str)) for i in value):
        return [c for item in value for c in as_calls(item)]
    raise BadCalls(f"not tool calls: {type(value).__name__}")


def _json_or_text(body: str) -> Any:
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        calls = _pythonic_calls(body.strip())
        if calls is None or any(c.arguments is None for c in calls):
            raise BadCalls("reference text that is neither JSON nor Pythonic calls") from None
        return [{"name": c.name, "arguments": c.arguments} for c in calls]


def _reference_call(value: Mapping[str, Any]) -> ToolCall:
    if isinstance(value.get("function"), Mapping):  # OpenAI: {"type": "function", ...}
        return _reference_call(value["function"])
    if "name" in value:
        if not isinstance(value["name"], str) or not value["name"]:
            raise BadCalls("a call's name must be non-empty text")
        return ToolCall(value["name"], _arguments(value))
    if len(value) == 1:  # BFCL: {"func_name": {"arg": [allowed values]}}
        (name, arguments), = value.items()
        if isinstance(arguments, Mapping) and all(isinstance(v, list) for v in arguments.values()):
            if not all(arguments.values()):  # no allowed value and not optional: nothing matches
                raise BadCalls(f"{name}: an argument with no allowed value")
            return ToolCall(str(name), arguments, alternatives=True)
    raise BadCalls(f"a call needs a 'name' (keys: {sorted(map(str, value))[:8]})")


def _check_satisfiable(call: ToolCall, schema: Mapping[str, Any] | None) -> None:
    """`BadCalls` for a reference call no call can match under its function's schema: an
    argument it needs that the schema does not declare, or a parameter the schema requires
    that it leaves out (a dataset fault: the reward abstains rather than score every
    completion 0)."""
    if not isinstance(schema, Mapping) or call.arguments is None:
        return
    properties = schema.get("properties")
    needed = [k for k, v in call.arguments.items()
              if not (call.alternatives and "" in v)]
    if isinstance(properties, Mapping) and properties and any(k not in properties
                                                              for k in needed):
        raise BadCalls(f"{call.name}: the reference needs an argument the schema does not "
                       "declare")
    required = schema.get("required")
    if isinstance(required, list) and any(k not in call.arguments for k in required):
        raise BadCalls(f"{call.name}: the reference leaves out a required parameter")


def tool_schemas(meta: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The functions' parameter schemas by name, from the sample's `tools` (OpenAI:
    `[{"type": "function", "function": {"name", "parameters"}}]`), `functions` or BFCL's
    `function` column (`[{"name", "parameters"}]`), as a list or its JSON text; {} when the
    row has none; `BadCalls` for one that does not read."""
    for key in ("tools", "functions", "function"):
        if meta.get(key) is not None:
            return _schemas(meta[key], key)
    return {}


def _schemas(tools: Any, key: str) -> dict[str, Mapping[str, Any]]:
    if isinstance(tools, str):
        try:
            tools = json.loads(tools)
        except (ValueError, RecursionError):
            raise BadCalls(f"{key!r} is not JSON", field=key) from None
    if isinstance(tools, Mapping):
        tools = [tools]
    out: dict[str, Mapping[str, Any]] = {}
    for tool in tools if isinstance(tools, list) else [None]:
        if isinstance(tool, Mapping) and isinstance(tool.get("function"), Mapping):
            tool = tool["function"]
        if not isinstance(tool, Mapping) or not isinstance(tool.get("name"), str) \
                or not isinstance(tool.get("parameters", {}), Mapping):
            raise BadCalls(f"{key!r} holds a tool without a name and parameters", field=key)
        parameters = tool.get("parameters") or {}
        properties, required = parameters.get("properties", {}), parameters.get("required", [])
        if not isinstance(properties, Mapping) or not all(
                isinstance(p, Mapping) for p in properties.values()) or not isinstance(
                required, list) or not all(isinstance(r, str) for r in required):
            raise BadCalls(f"{key!r}: {tool['name']}'s parameters need `properties` as an "
                           "object of objects and `required` as a list of names", field=key)
        out[tool["name"]] = parameters
    return out


# ---- matching --------------------------------------------------------------------------------

_DROPPED = str.maketrans({" ": None, "\t": None, "\n": None, "\r": None, ",": None, ".": None,
                          "/": None, "-": None, "_": None, "*": None, "^": None, "'": '"'})


_NUMERIC_MARKS = frozenset(".-/^*")


def standardize_string(text: str) -> str:
    """BFCL's string standardization: lower case, without spaces and `,./-_*^`, `'` read as
    `"` (so "April 1, 2024" equals "april 1 2024"), except where a mark is part of a number's
    value: `.`, `-`, `/`, `^`, `*` between two digits (`3.5`, `1/2`, `2^10`) and a minus sign
    before a digit (`-5`). BFCL drops those too, making "3.5" equal "35" and "-5" equal "5": a
    reward must not be cheaper than its meaning (docs/environments.md, where it differs)."""
    if not any(mark in text for mark in _NUMERIC_MARKS):
        return text.translate(_DROPPED).lower()
    kept = []
    for i, ch in enumerate(text):
        if ch in _NUMERIC_MARKS:
            before = text[i - 1] if i else ""
            after = text[i + 1] if i + 1 < len(text) else ""
            between = before.isdigit() and after.isdigit()
            sign = ch == "-" and after.isdigit() and not before.isalnum()
            if between or sign:
                kept.append(ch)
                continue
        kept.append(ch.translate(_DROPPED))
    return "".join(kept).lower()


def values_equal(a: Any, b: Any, *, exact_strings: bool = False) -> bool:
    """Equal by value and type: numbers compare numerically (1 == 1.0), but a bool equals
    only a bool and text only text (after `standardize_string` unless `exact_strings`);
    lists item by item, mappings key by key."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and (
            a == b if exact_strings else standardize_string(a) == standardize_string(b))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(values_equal(a[k], b[k], exact_strings=exact_strings)
                                            for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(values_equal(x, y, exact_strings=exact_strings)
                                        for x, y in zip(a, b))
    return a is None and b is None


_SCHEMA_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "float": (int, float), "number": (int, float),
    "boolean": (bool,), "array": (list,), "tuple": (list,), "list": (list,),
    "dict": (Mapping,), "object": (Mapping,), "null": (type(None),),
}
"""A parameter's schema type (BFCL's and JSON Schema's names) and the values it admits: an
int is a float (Python's own promotion, as BFCL allows), a bool is not an int. A type not
listed (`any`, a union) admits every value."""


def _has_type(value: Any, schema_type: Any) -> bool:
    admitted = _SCHEMA_TYPES.get(schema_type) if isinstance(schema_type, str) else None
    if admitted is None:
        return True
    if isinstance(value, bool):
        return bool in admitted
    return isinstance(value, admitted)


def _kind(value: Any) -> type:
    return Mapping if isinstance(value, Mapping) else type(value)


def argument_matches(value: Any, expected: Any, *, alternatives: bool = False,
                     parameter: Mapping[str, Any] | None = None,
                     exact_strings: bool = False) -> bool:
    """One argument against the reference's: its value, or with `alternatives` (BFCL) any of
    the allowed values. With the `parameter`'s schema, the value must have its type, or the
    type of the allowed values (BFCL writes a variable's name as text)."""
    options = expected if alternatives else [expected]
    if parameter is not None and not _has_type(value, parameter.get("type")):
        typed = [o for o in options if o != ""]
        if not typed or _kind(value) is not _kind(typed[0]):
            return False
    return any(_value_matches(value, o, alternatives, exact_strings) for o in options)


def _is_nested(option: Any) -> bool:
    """A BFCL allowed dict whose values are lists of allowed values in turn."""
    return isinstance(option, Mapping) and bool(option) and all(
        isinstance(v, list) for v in option.values())


def _value_matches(value: Any, option: Any, nested: bool, exact_strings: bool) -> bool:
    if nested and _is_nested(option) and isinstance(value, Mapping):
        return all(k in option and any(_value_matches(v, o, True, exact_strings)
                                       for o in option[k]) for k, v in value.items()) and \
            all(k in value or "" in allowed for k, allowed in option.items())
    if nested and isinstance(option, list) and option and all(map(_is_nested, option)) \
            and isinstance(value, list):
        return len(value) == len(option) and all(
            _value_matches(v, o, True, exact_strings) for v, o in zip(value, option))
    return values_equal(value, option, exact_strings=exact_strings)


def names_match(predicted: str, reference: str) -> bool:
    """Equal, or the reference's dots written as underscores (`math.factorial` called as
    `math_factorial`: OpenAI-style APIs allow no dot in a function name)."""
    return predicted == reference or ("." in reference and predicted == reference.replace(".", "_"))


def call_similarity(predicted: ToolCall, reference: ToolCall, *, partial_credit: bool,
                    schema: Mapping[str, Any] | None = None,
                    exact_strings: bool = False) -> float:
    """1.0 for a matching call, 0.0 for a different name or unparsed arguments; with
    `partial_credit`, the share of argument keys (both calls' union, plus the schema's
    required parameters) whose values match. `schema`: the function's parameters."""
    if not names_match(predicted.name, reference.name) or predicted.arguments is None \
            or reference.arguments is None:
        return 0.0
    pred, ref = predicted.arguments, reference.arguments
    schema = schema if isinstance(schema, Mapping) else {}
    found = schema.get("properties")
    properties: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    listed = schema.get("required")
    required: list[Any] = listed if isinstance(listed, list) else []
    if reference.alternatives:  # BFCL: optional arguments ("" allowed) may be left out
        keys = set(pred) | {k for k, allowed in ref.items() if "" not in allowed}
    else:
        keys = set(pred) | set(ref)
    keys |= {k for k in required if isinstance(k, str)}
    declared = properties or ref  # with a schema, a parameter it does not declare is wrong
    good = sum(k in pred and k in ref and k in declared and argument_matches(
        pred[k], ref[k], alternatives=reference.alternatives, exact_strings=exact_strings,
        parameter=properties.get(k) if isinstance(properties.get(k), Mapping) else None)
        for k in keys)
    if not keys:
        return 1.0
    share = good / len(keys)
    return share if partial_credit else float(share == 1.0)


def match_calls(predicted: Sequence[ToolCall], reference: Sequence[ToolCall], *,
                partial_credit: bool = False, ordered: bool = False,
                schemas: Mapping[str, Mapping[str, Any]] | None = None,
                exact_strings: bool = False) -> float:
    """The matched weight over max(#predicted, #reference) (module docstring); 1.0 for no
    calls predicted where none were expected. `schemas`: parameters by function name."""
    if not predicted and not reference:
        return 1.0
    schemas = schemas or {}

    def similarity(p: ToolCall, r: ToolCall) -> float:
        return call_similarity(p, r, partial_credit=partial_credit, schema=schemas.get(r.name),
                               exact_strings=exact_strings)

    if ordered:
        total = sum(similarity(p, r) for p, r in zip(predicted, reference))
        return total / max(len(predicted), len(reference))
    weights = [[similarity(p, r) for r in reference] for p in predicted]
    return max_weight_matching(weights) / max(len(predicted), len(reference))


def max_weight_matching(weights: Sequence[Sequence[float]]) -> float:
    """The largest total weight of a matching of rows to columns (each used at most once):
    the Hungarian algorithm (Kuhn 1955; Munkres 1957) in its O(n^3) potentials form, on the
    matrix padded square with zeros. Weights are in [0, 1]; n is at most `max_calls`."""
    n = max(len(weights), max((len(row) for row in weights), default=0))
    if n == 0:
        return 0.0
    # minimize cost = 1 - weight (0 weight for padding); 1-based arrays as in the classic form
    cost = [[1.0 - (weights[i][j] if i < len(weights) and j < len(weights[i]) else 0.0)
             for j in range(n)] for i in range(n)]
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    match = [0] * (n + 1)  # match[j]: the row assigned to column j (1-based), 0 for none
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        match[0], j0 = i, 0
        least, used = [inf] * (n + 1), [False] * (n + 1)
        while match[j0] != 0:
            used[j0] = True
            i0, delta, j1 = match[j0], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if reduced < least[j]:
                        least[j], way[j] = reduced, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(n + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    return sum(1.0 - cost[match[j] - 1][j - 1] for j in range(1, n + 1))


@dataclass(frozen=True)
class ToolCallOptions:
    """Options of `use: tool_call`."""

    partial_credit: bool = False
    """A call with the right name earns the share of its arguments that match."""
    ordered: bool = False
    """Compare calls position by position instead of as an unordered multiset."""
    format_weight: float = 0.0
    """Weight of the format part (the completion holds well-formed calls, or none were
    expected and none were made); the match part gets 1 - format_weight."""
    max_calls: int = 64
    """More calls than this in a completion or a reference is a format failure."""
    max_chars: int = 50_000
    """A longer completion (all its assistant turns together) is not parsed: it scores 0.0
    with reason `too_long`, never read in part."""
    exact_strings: bool = False
    """Compare text arguments byte for byte instead of after `standardize_string`."""

    def __post_init__(self) -> None:
        check_fields(self)
        check_range("format_weight", self.format_weight, ge=0, le=1)
        check_range("max_calls", self.max_calls, ge=1)
        check_range("max_chars", self.max_chars, ge=1)


class ToolCallReward:
    """`use: tool_call`: the completion's tool calls against the reference's (module
    docstring). parts: `format` (1/0) and `match`; reasons: ok, wrong, no_answer (no
    parsable calls where calls were expected), too_long (over `max_chars`), bad_reference
    (abstains: no reference, which
    the run rule reports as `bad_reference:missing`, or one that does not read). "No call
    expected" is said explicitly: `[]`, or an assistant message without `tool_calls`."""

    kind = "verifiable"

    def __init__(self, name: str = "tool_call", **options: Any) -> None:
        self.name = name
        self.options = load_options(ToolCallOptions, options, where="tool_call reward")

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return [self._one(s) for s in samples]

    def _one(self, sample: Sample) -> Score:
        o = self.options
        if sample.reference is None or (isinstance(sample.reference, str)
                                        and not sample.reference.strip()):
            return Score(None, "bad_reference")  # missing: never "no call expected"
        try:
            reference = as_calls(sample.reference)
            schemas = tool_schemas(sample.meta)
            for call in reference:
                _check_satisfiable(call, schemas.get(call.name))
        except (BadCalls, RecursionError):
            return Score(None, "bad_reference")
        if len(reference) > o.max_calls:
            return Score(None, "bad_reference")
        turns = completion_turns(sample)
        if sum(len(turn) for turn in turns) > o.max_chars:  # never read in part: a call past
            return Score(0.0, "too_long", {"format": 0.0, "match": 0.0})  # a cut would be free
        predicted = [call for turn in turns
                     for call in parse_tool_calls(turn, max_chars=o.max_chars,
                                                  max_calls=o.max_calls) or []]
        well_formed = len(predicted) <= o.max_calls and all(
            c.name and c.arguments is not None for c in predicted) and \
            (bool(predicted) or not reference)
        try:
            match = match_calls(predicted, reference, partial_credit=o.partial_credit,
                                ordered=o.ordered, schemas=schemas,
                                exact_strings=o.exact_strings) \
                if len(predicted) <= o.max_calls else 0.0
        except RecursionError:  # a comparison is as deep as the shallower side: the reference
            return Score(None, "bad_reference")  # nests past Python's stack
        value = o.format_weight * float(well_formed) + (1 - o.format_weight) * match
        reason = "ok" if match == 1.0 else ("no_answer" if not predicted and reference
                                            else "wrong")
        return Score(value, reason, {"format": float(well_formed), "match": match})
