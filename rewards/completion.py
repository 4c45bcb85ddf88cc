"""How a completion is read: the one place where text or chat messages become the text a
reward checks, for every reward and every entry point (a library `Sample`, `rewards score`,
the HTTP server, the TRL, veRL, verifiers and AReaL adapters, Celery).

A completion is text, or chat messages: TRL's conversational completions, verifiers' chat
completions, a dataset's message column, a multi-turn rollout with tool use (assistant turn,
tool result, assistant turn ...). Messages are read so:

- **A turn** is one assistant message: its content (text, or the text parts of multimodal
  content), then its OpenAI `tool_calls` as Hermes `<tool_call>{"name", "arguments"}
  </tool_call>` text, the one form every tool-call reader takes (a `<` inside an argument is
  escaped, so no argument closes its tag early; an entry that is not a call stays in the
  text, to score as a malformed call). Tool, user and system messages are not the model's
  turns and are never read as them (a forged tool message holds no call of the completion).
- **The answer** (`completion_text`, what math, code, IFEval, the reasoning components and
  the judges check) is the last assistant turn: a multi-turn rollout answers in its final
  message, and the tool results before it are not the model's answer.
- **The calls** (`assistant_turns`, what the tool-call reward reads) are those of every
  assistant turn, in order: a call made in an earlier turn was made (and run), whatever the
  last turn says.
- Messages of which none is the assistant's (a message column without roles) are one turn:
  all of them, joined by newlines.

Anything else (a number, bytes, a list holding something other than messages) is not a
completion: an `InputError` naming the field, for the caller to fix, never a silent ""."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rewards.errors import InputError

__all__ = ["assistant_turns", "completion_text", "read_completion"]


def read_completion(completion: Any) -> tuple[str, tuple[str, ...]]:
    """(answer, turns) of `completion`, as a `Sample` holds them: text is its own answer and
    has no separate turns (`()`); chat messages are their last assistant turn and every
    assistant turn (the module doc). Anything else is an `InputError` naming the field."""
    if isinstance(completion, str):
        return completion, ()
    turns = assistant_turns(completion)
    return turns[-1], tuple(turns)


def assistant_turns(completion: Any) -> list[str]:
    """Every assistant turn of `completion` as text, in order (the module doc): a text
    completion is one turn; messages without an assistant one are one turn of all of them."""
    if isinstance(completion, str):
        return [completion]
    if isinstance(completion, Mapping):
        completion = [completion]
    if not isinstance(completion, Sequence) or isinstance(completion, (bytes, bytearray)):
        raise InputError(f"a completion is text or chat messages, not "
                         f"{type(completion).__name__}", field="completion")
    if not all(isinstance(m, Mapping) for m in completion):
        raise InputError("chat messages must be {role, content} objects", field="completion")
    turns = [_message_text(m) for m in completion if m.get("role") == "assistant"]
    return turns or ["\n".join(_message_text(m) for m in completion)]


def completion_text(completion: Any) -> str:
    """The answer of `completion` as text: a string as is; chat messages as their last
    assistant turn (the module doc)."""
    return read_completion(completion)[0]


def _message_text(message: Mapping[str, Any]) -> str:
    text = _content_text(message.get("content"))
    calls = message.get("tool_calls")
    if not calls:
        return text
    if not isinstance(calls, Sequence) or isinstance(calls, (str, bytes, bytearray)):
        calls = [calls]
    return text + "".join(f"<tool_call>{_call_json(call)}</tool_call>" for call in calls)


def _call_json(call: Any) -> str:
    """One OpenAI tool call (`{"type": "function", "function": {"name", "arguments"}}`, or
    the inner object) as `{"name", "arguments"}` JSON; anything else as its own JSON."""
    inner = call.get("function") if isinstance(call, Mapping) else None
    if isinstance(inner, Mapping):
        call = inner
    if isinstance(call, Mapping) and "name" in call:
        call = {"name": call.get("name"), "arguments": call.get("arguments")}
    # "<" only occurs inside JSON strings: escaped, no argument can close the tag early
    return json.dumps(call, ensure_ascii=False, default=str).replace("<", "\\u003c")


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):  # multimodal parts: [{"type": "text", "text": ...}]
        return "".join(str(p.get("text", "")) for p in content
                       if isinstance(p, Mapping) and p.get("type", "text") == "text")
    return str(content)
