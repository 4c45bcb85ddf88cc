"""NeMo Gym: a resources server's verify protocol, served by `rewards serve`.

NeMo Gym (`nemo_gym/base_resources_server.py`, `SimpleResourcesServer`) calls a resources
server's `POST /seed_session` once per rollout, then `POST /verify` with the rollout:

    {"responses_create_params": {"input": str | [{"role", "content", ...}], ...},
     "response": {"output": [{"type": "message", "role": "assistant",
                              "content": [{"type": "output_text", "text": ...}]}, ...]},
     "expected_answer": ..., ...}

and reads the reply as a `BaseVerifyResponse` (the request echoed, plus `reward`: float) or a
`BaseMultiRewardVerifyResponse` (plus `reward_components`: {name: float}); a rollout record
with `mask_sample: true` is left out of the loss. The completion is the response's
output read as chat messages by the one reading (`rewards.completion`): the model's items
up to a tool result are one assistant turn, whose answer is the `output_text` of its
`message` items (as NeMo Gym's math servers read it) and whose calls are its
`function_call` items (what `use: tool_call` checks); a `function_call_output` is a tool
message, never the model's; `reasoning` items are not the answer. The reference is the row's
gold by the rule of every entry point (`rewards.io.find_reference`, docs/datasets.md#the-gold-column):
`expected_answer` when it holds a value (NeMo Gym's own field: named, not guessed), else the
columns every adapter tries (`REFERENCE_COLUMNS`), a request whose fields state different
golds abstaining (`bad_reference:ambiguous`); it is read by the one label rule
(`labelled_sample`); `domain` picks the config domain.

Our verify is stateless: `/seed_session` holds nothing (it answers `{}`), so there is no
session a client could name or take from another. An abstention (`abstain="mask"`) sets
`mask_sample: true` with `reward` = the abstain value; `zero` leaves it false."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from integrations._common import ResolvedReward, labelled_sample, row_gold
from rewards.errors import InputError
from rewards.types import Sample, Score

__all__ = ["completion_of", "sample_from_verify", "verify_response"]


def _text(content: Any, kinds: tuple[str, ...]) -> str:  # the prompt's messages
    """The text of a message's content: a string, or the `text` of its parts of `kinds`."""
    if isinstance(content, str):
        return content
    if not isinstance(content, Sequence):
        return ""
    return "".join(part["text"] for part in content if isinstance(part, Mapping)
                   and part.get("type") in kinds and isinstance(part.get("text"), str))


_ASSISTANT_ITEMS = frozenset({"message", "function_call", "reasoning"})
_ITEMS = _ASSISTANT_ITEMS | {"function_call_output"}
"""The Responses API output item types read (an allow-list): the model's messages, calls and
reasoning, and the tool results between its turns; any other item is an `InputError`
naming the field, never silently dropped (it may be a call)."""


def completion_of(response: Any) -> list[dict[str, Any]]:
    """The completion of a Responses API `response` as chat messages, for the one reading
    (`rewards.completion`): the model's items up to a tool result are one assistant turn
    (its `message` items' content parts, its `function_call` items as calls; `reasoning`
    items are not its answer), a `function_call_output` is a tool message. `InputError`
    (field `response.output`) when it has no output list or an item of an unknown type."""
    output = response.get("output") if isinstance(response, Mapping) else None
    if not isinstance(output, list):
        raise InputError("needs the Responses API output list", field="response.output")
    messages: list[dict[str, Any]] = []
    turn: dict[str, Any] | None = None
    for item in output:
        kind = item.get("type", "message") if isinstance(item, Mapping) else None
        if not isinstance(kind, str) or kind not in _ITEMS:  # (a list type is unhashable)
            raise InputError(f"unknown output item {str(kind)[:40]!r} (known: "
                             f"{sorted(_ITEMS)})", field="response.output")
        if kind == "function_call_output":
            turn = None
            messages.append({"role": "tool", "content": item.get("output")})
            continue
        if kind == "message" and item.get("role", "assistant") != "assistant":
            turn = None
            messages.append({"role": item.get("role"), "content": item.get("content")})
            continue
        if turn is None:
            turn = {"role": "assistant", "content": [], "tool_calls": []}
            messages.append(turn)
        if kind == "message":
            content = item.get("content")
            turn["content"].extend(content if isinstance(content, list) else [content])
        elif kind == "function_call":
            turn["tool_calls"].append({"type": "function", "function": {
                "name": item.get("name"), "arguments": item.get("arguments")}})
    return messages


def _prompt(params: Any) -> str | list[dict[str, Any]]:
    """The prompt of `responses_create_params.input`: text, or chat messages as plain
    `{"role", "content"}` text."""
    given = params.get("input") if isinstance(params, Mapping) else None
    if isinstance(given, str):
        return given
    if not isinstance(given, list):
        raise InputError("needs an input (text or messages)",
                         field="responses_create_params.input")
    return [{"role": str(m.get("role", "user")),
             "content": _text(m.get("content"), ("input_text", "output_text", "text"))}
            for m in given if isinstance(m, Mapping) and "role" in m]


def sample_from_verify(resolved: ResolvedReward, body: Any) -> Sample:
    """The `Sample` of a `/verify` body; `InputError` naming the field."""
    if not isinstance(body, Mapping):
        raise InputError("the body must be a JSON object", field="body")
    prompt = _prompt(body.get("responses_create_params"))
    completion = completion_of(body.get("response"))
    # the row's gold by the rule of every entry point, NeMo Gym's own field named first
    # (an ambiguous gold abstains, naming the fields: never scored against a guessed one)
    gold, ambiguity = row_gold(body, first=("expected_answer",))
    domain = body.get("domain")
    if domain is not None and not isinstance(domain, str):
        raise InputError("must be a string", field="domain")
    sample = labelled_sample(resolved, prompt, completion, gold, domain)
    return sample if ambiguity is None else replace(sample, ambiguous_gold=ambiguity)


def verify_response(body: Mapping[str, Any], score: Score, *, abstain_value: float,
                    mask: bool) -> dict[str, Any]:
    """NeMo Gym's `BaseMultiRewardVerifyResponse` for `score`: the request echoed, `reward`,
    `reward_components` (each numeric part), `mask_sample` (an abstention, when `mask`), and
    `reason`."""
    abstained = score.value is None
    return {**body,
            "reward": abstain_value if score.value is None else float(score.value),
            "reward_components": {name: float(v) for name, v in score.parts.items()
                                  if isinstance(v, (int, float))},
            "mask_sample": abstained and mask,
            "reason": score.reason}
