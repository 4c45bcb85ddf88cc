"""Tool calls: reading them from model text and from the shapes datasets store them in, and
`ToolCallReward` (`use: tool_call`), which matches predicted calls to the reference.

Shapes read (`as_calls`), for the prediction and the reference alike:
- Hermes / Qwen chat-template text: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`;
- OpenAI messages: `{"tool_calls": [{"type": "function", "function": {"name": ...,
  "arguments": "<JSON text>"}}]}`, or the list of `tool_calls`;
- xLAM / Glaive / plain JSON: `[{"name": ..., "arguments": {...}}]` (`parameters` also
  read), as a list or as its JSON text;
- BFCL possible answers: `[{"func": {"arg": [allowed value, ...]}}]`: an argument matches
  any of its allowed values, and `""` among them marks it optional.

Matching: a call matches a reference call when the names are equal and the arguments are
equal by value and type (`1 == 1.0`, but `True != 1` and `"1" != 1`; nested lists and
mappings compared the same way). Parallel calls are an unordered multiset: predicted and
reference calls are paired by a maximum-weight matching (the Hungarian algorithm, here), and the score
is the matched weight over max(#predicted, #reference), so missing and extra calls both cost.
With `partial_credit`, a pair with the same name weighs the share of argument keys (of the
union of both calls' keys) whose values match; without it, a pair weighs 1 or 0.

Parsing works on text capped at `max_chars` with `str.find` scans (linear time) and
`json.loads`; no regular expression touches model text."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rewards.errors import InputError
from rewards.options import check_fields, check_range, load_options
from rewards.types import Sample, Score

__all__ = ["ToolCall", "ToolCallOptions", "ToolCallReward", "as_calls", "call_similarity",
           "extract_tagged", "match_calls", "max_weight_matching", "parse_tool_calls",
           "values_equal"]


@dataclass(frozen=True)
class ToolCall:
    """One call: a function name and its arguments (None when they did not parse)."""

    name: str
    arguments: Mapping[str, Any] | None = field(default_factory=dict)
    alternatives: bool = False
    """BFCL form: each argument's value is a list of allowed values."""


class BadCalls(InputError):
    """A value that is not tool calls in any shape `as_calls` reads (a bad reference or
    argument: an input error, in the one error tree)."""


def extract_tagged(text: str, open_tag: str, close_tag: str, *, limit: int = 64
                   ) -> list[str]:
    """The bodies between `open_tag` and the next `close_tag`, in order (an unclosed last
    tag: its body runs to the end), at most `limit` of them; linear in `len(text)`."""
    out, at = [], 0
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


def parse_tool_calls(text: str, *, max_chars: int = 50_000) -> list[ToolCall] | None:
    """The calls in model text (Hermes tags, else the whole text as JSON calls), or None
    when it holds none. A tag whose body does not parse is a call named "" (a format error)."""
    text = text[:max_chars]
    bodies = extract_tagged(text, "<tool_call>", "</tool_call>")
    if bodies:
        calls = []
        for body in bodies:
            try:
                calls += as_calls(json.loads(body))
            except (ValueError, RecursionError):
                calls.append(ToolCall("", None))
        return calls
    stripped = text.strip()
    if stripped.startswith("```"):  # a fenced JSON block
        stripped = stripped.strip("`").removeprefix("json").strip()
    if stripped[:1] in ("[", "{"):
        try:
            return as_calls(json.loads(stripped))
        except (ValueError, RecursionError):
            return None
    return None


def as_calls(value: Any) -> list[ToolCall]:
    """Tool calls from any shape in the module docstring; `BadCalls` for anything else."""
    if isinstance(value, str):
        calls = parse_tool_calls(value)
        if calls is None:
            raise BadCalls("text without tool calls")
        return calls
    if isinstance(value, Mapping):
        if "tool_calls" in value:
            return as_calls(value["tool_calls"] or [])
        return [_one_call(value)]
    if isinstance(value, Sequence):
        return [c for item in value for c in as_calls(item)] if all(
            isinstance(i, (Mapping, str)) for i in value) else _bad(value)
    return _bad(value)


def _bad(value: Any) -> Any:
    raise BadCalls(f"not tool calls: {type(value).__name__}")


def _one_call(value: Mapping[str, Any]) -> ToolCall:
    if isinstance(value.get("function"), Mapping):  # OpenAI: {"type": "function", "function": ...}
        return _one_call(value["function"])
    if "name" in value:
        arguments = value.get("arguments", value.get("parameters", {}))
        if isinstance(arguments, str):  # OpenAI: arguments as JSON text
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except (ValueError, RecursionError):
                arguments = None
        if arguments is not None and not isinstance(arguments, Mapping):
            arguments = None
        return ToolCall(str(value["name"]), arguments)
    if len(value) == 1:  # BFCL: {"func_name": {"arg": [allowed values]}}
        (name, arguments), = value.items()
        if isinstance(arguments, Mapping) and all(isinstance(v, list) for v in arguments.values()):
            return ToolCall(str(name), arguments, alternatives=True)
    raise BadCalls(f"a call needs a 'name' (keys: {sorted(map(str, value))[:8]})")


def values_equal(a: Any, b: Any) -> bool:
    """Equal by value and type: numbers compare numerically (1 == 1.0), but a bool equals
    only a bool and text only text; lists item by item, mappings key by key."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(values_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b))
    return a is None and b is None


def call_similarity(predicted: ToolCall, reference: ToolCall, *, partial_credit: bool) -> float:
    """1.0 for a matching call, 0.0 for a different name or unparsed arguments; with
    `partial_credit`, the share of argument keys (union of both) whose values match."""
    if predicted.name != reference.name or predicted.arguments is None \
            or reference.arguments is None:
        return 0.0
    pred, ref = predicted.arguments, reference.arguments
    if reference.alternatives:  # BFCL: optional arguments ("" allowed) may be left out
        keys = set(pred) | {k for k, allowed in ref.items() if "" not in allowed}
        good = sum(k in pred and k in ref and any(values_equal(pred[k], v) for v in ref[k])
                   for k in keys)
    else:
        keys = set(pred) | set(ref)
        good = sum(k in pred and k in ref and values_equal(pred[k], ref[k]) for k in keys)
    if not keys:
        return 1.0
    share = good / len(keys)
    return share if partial_credit else float(share == 1.0)


def match_calls(predicted: Sequence[ToolCall], reference: Sequence[ToolCall], *,
                partial_credit: bool = False, ordered: bool = False) -> float:
    """The matched weight over max(#predicted, #reference) (module docstring); 1.0 for no
    calls predicted where none were expected."""
    if not predicted and not reference:
        return 1.0
    if ordered:
        total = sum(call_similarity(p, r, partial_credit=partial_credit)
                    for p, r in zip(predicted, reference))
        return total / max(len(predicted), len(reference))
    weights = [[call_similarity(p, r, partial_credit=partial_credit) for r in reference]
               for p in predicted]
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
    """Completions are cut to this many characters before parsing."""

    def __post_init__(self) -> None:
        check_fields(self)
        check_range("format_weight", self.format_weight, ge=0, le=1)
        check_range("max_calls", self.max_calls, ge=1)
        check_range("max_chars", self.max_chars, ge=1)


class ToolCallReward:
    """`use: tool_call`: the completion's tool calls against the reference's (module
    docstring). parts: `format` (1/0) and `match`; reasons: ok, wrong, no_answer (no
    parsable calls where calls were expected), bad_reference (abstains)."""

    kind = "verifiable"

    def __init__(self, name: str = "tool_call", **options: Any) -> None:
        self.name = name
        self.options = load_options(ToolCallOptions, options, where="tool_call reward")

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return [self._one(s) for s in samples]

    def _one(self, sample: Sample) -> Score:
        o = self.options
        try:
            reference = [] if sample.reference in (None, "", []) else as_calls(sample.reference)
        except (BadCalls, RecursionError):
            return Score(None, "bad_reference")
        if len(reference) > o.max_calls:
            return Score(None, "bad_reference")
        predicted = parse_tool_calls(sample.completion, max_chars=o.max_chars) or []
        well_formed = len(predicted) <= o.max_calls and all(
            c.name and c.arguments is not None for c in predicted) and \
            (bool(predicted) or not reference)
        match = match_calls(predicted[:o.max_calls], reference,
                            partial_credit=o.partial_credit, ordered=o.ordered) \
            if len(predicted) <= o.max_calls else 0.0
        value = o.format_weight * float(well_formed) + (1 - o.format_weight) * match
        reason = "ok" if match == 1.0 else ("no_answer" if not predicted and reference
                                            else "wrong")
        return Score(value, reason, {"format": float(well_formed), "match": match})
