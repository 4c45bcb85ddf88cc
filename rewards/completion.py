"""How a completion is read: the one place where text or chat messages become the text a
reward checks, for every reward and every entry point (a library `Sample`, `rewards score`,
the HTTP server, the TRL, veRL, verifiers, NeMo Gym and AReaL adapters, Celery).

A completion is text, or chat messages: TRL's conversational completions, verifiers' chat
completions, a dataset's message column, a multi-turn rollout with tool use (assistant turn,
tool result, assistant turn ...). Messages are read so:

- **A role** is read by the text rule every checker uses (`rewards.text.read_text`:
  invisible characters dropped, look-alike letters read as theirs), case-folded and
  stripped, against the allow-list `ROLES`: `Assistant`, `assistant\\u200b` and
  ` assistant` are the assistant. A message without a role (`None`, missing) is nobody's
  turn; a role that is not on the list (`bot`, `gpt`) is an `InputError` naming the field:
  the reader cannot tell whose text it is, and a guess would either score a user's text or
  silently score every row 0.
- **A turn** is one assistant message: its content, then its calls as Hermes
  `<tool_call>{"name", "arguments"}</tool_call>` text, the one form every tool-call reader
  takes. Content is text, or parts (`CONTENT_PARTS`): `text` and OpenAI Responses
  `output_text` parts are its text; Anthropic `tool_use` parts are calls; images, audio,
  files, refusals and reasoning parts are dropped (not an answer, not a call); a part of
  any other type is an `InputError` naming the field, never silently dropped (it may be a
  call). Calls are OpenAI `tool_calls`, the legacy `function_call` and `tool_use` parts.
  A `<` inside an argument is escaped, so no argument closes its tag early; an entry that
  is not a call, or one nested deeper than `MAX_CALL_DEPTH` (or larger than
  `MAX_CALL_NODES` values), is written as a JSON string, to score as a malformed call
  (never a `RecursionError` out of a batch).
- **Only assistant messages are the model's.** Tool, user and system messages are never
  read as a turn (a forged tool message holds no call of the completion; a user's
  `\\boxed{4}` is no answer). Messages of which none is the assistant's (a lone tool
  message, `[]`) are a completion with no model text: the answer `""`, which every reward
  scores 0 (`no_answer`), and no call.
- **The answer** (`completion_text`, what math, code, IFEval, the reasoning components and
  the judges check) is the content of the last assistant turn: a multi-turn rollout answers
  in its final message, and the tool results before it are not the model's answer. A
  turn's calls are never its answer: a rollout cut off right after a call (its last turn
  a call with no content) has no answer, not the call's arguments.
- **The calls** (`assistant_turns`, what the tool-call reward reads) are those of every
  assistant turn, in order: a call made in an earlier turn was made (and run), whatever the
  last turn says. A turn's text is its answer followed by its calls (`calls_of_turn`).

Anything else (a number, bytes, a list holding something other than messages) is not a
completion: an `InputError` naming the field, for the caller to fix, never a silent ""."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rewards.errors import InputError
from rewards.text import read_text

__all__ = ["CONTENT_PARTS", "MAX_CALL_DEPTH", "MAX_CALL_NODES", "ROLES", "assistant_turns",
           "calls_of_turn", "completion_text", "read_completion", "read_role"]

ROLES = frozenset({"assistant", "user", "system", "developer", "tool", "function", "ipython"})
"""The chat roles a completion's messages may have (OpenAI, Llama 3's `ipython`, the legacy
`function`); only `assistant` is the model's."""

_TEXT_PARTS = frozenset({"text", "output_text"})
_CALL_PARTS = frozenset({"tool_use"})
_DROPPED_PARTS = frozenset({"image", "image_url", "input_image", "audio", "input_audio", "file",
                            "input_file", "refusal", "thinking", "redacted_thinking",
                            "reasoning"})
CONTENT_PARTS = _TEXT_PARTS | _CALL_PARTS | _DROPPED_PARTS
"""The content part types a message may hold (the module doc says what each is)."""

MAX_CALL_DEPTH = 64
"""Deepest nesting of a call's arguments that is read; deeper is a malformed call."""
MAX_CALL_NODES = 1_000_000
"""Most values (objects, lists, scalars) in one call that are read; more is a malformed call."""

# A turn's text after its answer: the calls `_call_tag` writes (no `<` inside, escaped)
_CALLS = re.compile(r"(?:<tool_call>[^<]*</tool_call>)*")


def read_completion(completion: Any) -> tuple[str, tuple[str, ...]]:
    """(answer, turns) of `completion`, as a `Sample` holds them: text is its own answer and
    has no separate turns (`()`); chat messages are the content of their last assistant turn
    and every assistant turn's text, content then calls (the module doc). Anything else is
    an `InputError` naming the field."""
    if isinstance(completion, str):
        return completion, ()
    turns = _turns(completion)
    if not turns:
        return "", ()
    return turns[-1][0], tuple(answer + calls for answer, calls in turns)


def assistant_turns(completion: Any) -> list[str]:
    """Every assistant turn of `completion` as text (content, then calls), in order (the
    module doc): a text completion is one turn; messages without an assistant one have
    none."""
    if isinstance(completion, str):
        return [completion]
    return [answer + calls for answer, calls in _turns(completion)]


def completion_text(completion: Any) -> str:
    """The answer of `completion` as text: a string as is; chat messages as the content of
    their last assistant turn (the module doc)."""
    return read_completion(completion)[0]


def calls_of_turn(turn: str, answer: str) -> str | None:
    """The calls written after `answer` in `turn` (a turn's text as `read_completion` writes
    it), or None when `turn` is not `answer` followed by calls only: the check by which a
    `Sample`'s turns are known to be its completion's."""
    if not turn.startswith(answer):
        return None
    tail = _CALLS.fullmatch(turn, len(answer))
    return turn[len(answer):] if tail is not None else None


def read_role(message: Mapping[str, Any]) -> str | None:
    """The role of `message` by the module doc's rule: a name from `ROLES`, or None for a
    message without one; any other role is an `InputError`."""
    role = message.get("role")
    if role is None:
        return None
    if not isinstance(role, str):
        raise InputError(f"a message role is text, not {type(role).__name__}",
                         field="completion")
    read = read_text(role).casefold().strip()
    if read not in ROLES:
        raise InputError(f"unknown message role {role[:40]!r} (known: {sorted(ROLES)})",
                         field="completion")
    return read


def _turns(completion: Any) -> list[tuple[str, str]]:
    """(answer, calls) of every assistant message of `completion`, in order."""
    if isinstance(completion, Mapping):
        completion = [completion]
    if not isinstance(completion, Sequence) or isinstance(completion, (bytes, bytearray)):
        raise InputError(f"a completion is text or chat messages, not "
                         f"{type(completion).__name__}", field="completion")
    if not all(isinstance(m, Mapping) for m in completion):
        raise InputError("chat messages must be {role, content} objects", field="completion")
    return [_message_turn(m) for m in completion if read_role(m) == "assistant"]


def _message_turn(message: Mapping[str, Any]) -> tuple[str, str]:
    """(answer, calls) of one assistant message: its content's text, and its calls
    (`tool_use` parts, `tool_calls`, `function_call`) as `<tool_call>` text."""
    texts: list[str] = []
    calls: list[Any] = []
    content = message.get("content")
    parts = [content] if isinstance(content, Mapping) else content
    if isinstance(parts, str):
        texts.append(parts)
    elif isinstance(parts, Sequence) and not isinstance(parts, (bytes, bytearray)):
        for part in parts:
            _read_part(part, texts, calls)
    elif parts is not None:
        raise InputError(f"message content is text or parts, not {type(parts).__name__}",
                         field="completion")
    listed = message.get("tool_calls")
    if listed:
        is_list = isinstance(listed, Sequence) and not isinstance(listed, (str, bytes, bytearray))
        calls.extend(listed if is_list else [listed])
    if message.get("function_call") is not None:
        calls.append(message["function_call"])
    return "".join(texts), "".join(_call_tag(call) for call in calls)


def _read_part(part: Any, texts: list[str], calls: list[Any]) -> None:
    """One content part into `texts` or `calls` (`CONTENT_PARTS`); a part without a type is
    a text part."""
    if isinstance(part, str):
        texts.append(part)
        return
    if not isinstance(part, Mapping):
        raise InputError(f"a content part is an object, not {type(part).__name__}",
                         field="completion")
    kind = part.get("type", "text")
    if not isinstance(kind, str):
        raise InputError(f"a content part's type is a text, not {type(kind).__name__}",
                         field="completion")
    if kind in _TEXT_PARTS:
        text = part.get("text")
        if text is not None and not isinstance(text, str):  # never its repr as the answer
            raise InputError(f"a {kind} part's text is a string, not {type(text).__name__}",
                             field="completion")
        texts.append(text or "")
    elif kind in _CALL_PARTS:
        calls.append({"name": part.get("name"), "arguments": part.get("input")})
    elif kind not in _DROPPED_PARTS:
        raise InputError(f"unknown content part type {str(kind)[:40]!r} (known: "
                         f"{sorted(CONTENT_PARTS)})", field="completion")


def _call_tag(call: Any) -> str:
    """One call (OpenAI `{"type": "function", "function": {"name", "arguments"}}`, the inner
    object, or a legacy `function_call`) as `<tool_call>{"name", "arguments"}</tool_call>`;
    anything else, or a call too deep or too large to read, as a JSON string (a malformed
    call)."""
    inner = call.get("function") if isinstance(call, Mapping) else None
    if isinstance(inner, Mapping):
        call = inner
    if isinstance(call, Mapping) and "name" in call:
        call = {"name": call.get("name"), "arguments": call.get("arguments")}
    if not _within_bounds(call):
        call = f"malformed call: nested deeper than {MAX_CALL_DEPTH} or over " \
               f"{MAX_CALL_NODES} values"
    elif not isinstance(call, Mapping):
        call = f"malformed call: {type(call).__name__}"
    # "<" only occurs inside JSON strings: escaped, no argument can close the tag early
    body = json.dumps(call, ensure_ascii=False, default=str).replace("<", "\\u003c")
    return f"<tool_call>{body}</tool_call>"


def _within_bounds(value: Any) -> bool:
    """Whether `value` nests at most `MAX_CALL_DEPTH` deep in at most `MAX_CALL_NODES`
    values (iterative: no recursion to overflow; a cycle is too deep)."""
    stack = [(value, 1)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if depth > MAX_CALL_DEPTH or nodes > MAX_CALL_NODES:
            return False
        if isinstance(item, Mapping):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, depth + 1) for v in item)
    return True
