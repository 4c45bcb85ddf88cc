"""Text from data or a model stays text: the one place that turns such text into token ids.

A tokenizer reads the text of its added tokens (`<|im_end|>`, `<|im_start|>`, `<tool_call>`,
`</think>` ...) as those tokens wherever it meets it. A completion, an observation or a
dataset message that writes `<|im_end|><|im_start|>user` would then end its turn and open a
new one in a judge's prompt, a reward model's input or the policy's context. Here only the
trusted part of a prompt (a chat template's own markers, a judge template's own text) can
produce an added token; every message content and every template field is encoded as the
characters it is.

How: each occurrence of an added token's text inside untrusted text is broken by a sentinel,
a private-use character absent from everything being encoded, placed after its first
character (and at the text's ends where the text could complete a token together with the
template around it). The prompt is then rendered as usual (chat template or `str.format`), so
whatever the template does to a content (trim it, split it) it does here too; in the rendered
text every unbroken added-token text is the template's own and becomes its token, and the
text between is split at the sentinels, which are dropped, and encoded piece by piece, so no
piece holds a whole added token. Text without added-token text is encoded in one piece, to
exactly the ids the tokenizer gives it.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rewards.errors import EngineError

__all__ = ["TemplatePrompt", "chat_ids", "control_texts", "template_ids", "text_ids"]


@dataclass(frozen=True)
class TemplatePrompt:
    """A trusted template filled with untrusted text: `template.format(**fields)`, where the
    template's own special-token text is special tokens and no field's text ever becomes one.
    An engine's `tokenize` takes it as a prompt (`rewards.engines.Prompt`)."""

    template: str
    fields: Mapping[str, str] = field(default_factory=dict)


_Controls = tuple[dict[str, int], "re.Pattern[str] | None", frozenset[int], frozenset[str],
                  frozenset[str], int]
"""Added-token texts and ids, their pattern, the ids, their proper suffixes and prefixes, and
the longest text's length."""
_cache: weakref.WeakKeyDictionary[Any, _Controls] = weakref.WeakKeyDictionary()
_plain_cache: dict[int, tuple[Any, _Controls]] = {}  # tokenizers that take no weak reference


def control_texts(tokenizer: Any) -> dict[str, int]:
    """The text of every added token of `tokenizer` (special or not) with its id: what must
    never be produced by text from data or a model. Whitespace-only and one-character added
    tokens are left out (spacing and single characters, not markers; a single character
    cannot be broken)."""
    return _controls(tokenizer)[0]


def _controls(tokenizer: Any) -> _Controls:
    try:
        found = _cache.get(tokenizer)
    except TypeError:
        held = _plain_cache.get(id(tokenizer))
        found = held[1] if held is not None and held[0] is tokenizer else None
    if found is not None:
        return found
    added = {str(text): int(i) for text, i in tokenizer.get_added_vocab().items()
             if len(str(text).strip()) > 1}
    pattern = re.compile(_trie_pattern(list(added))) if added else None
    found = (added, pattern, frozenset(added.values()),
             frozenset(t[i:] for t in added for i in range(1, len(t))),
             frozenset(t[:i] for t in added for i in range(1, len(t))),
             max((len(t) for t in added), default=0))
    try:
        _cache[tokenizer] = found
    except TypeError:
        _plain_cache[id(tokenizer)] = (tokenizer, found)
    return found


def _trie_pattern(texts: Sequence[str]) -> str:
    """One regex matching any of `texts`, the longest at a position, shaped as a trie: each
    position costs at most the longest text's length, however many texts there are (an
    alternation of thousands of literals would try each one at every position)."""
    trie: dict[str, Any] = {}
    for text in texts:
        node = trie
        for char in text:
            node = node.setdefault(char, {})
        node[""] = {}  # a text ends here

    def build(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + build(child) for char, child in sorted(node.items())
                    if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body  # greedy: the longer text first

    return build(trie)


def _sentinel(texts: Sequence[str]) -> str:
    """A private-use character that occurs in none of `texts` (one pass over them, however
    many private-use characters they hold)."""
    present = {c for t in texts for c in _PRIVATE_USE.findall(t)}
    for code in range(0xE000, 0xF900):
        if chr(code) not in present:
            return chr(code)
    raise EngineError("every private-use character occurs in the text")  # 6,400 of them


_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


def _escape(text: str, controls: _Controls, sentinel: str) -> str:
    """`text` with every added-token text in it broken by `sentinel` after its first
    character (overlapping ones too: the search goes on from inside each match), and a
    sentinel at an end that could complete an added token with the template's text next to
    it. Linear in `len(text)` for a given tokenizer."""
    _, pattern, _, suffixes, prefixes, longest = controls
    if pattern is None or not text:
        return text
    pieces, start = [], 0
    found = pattern.search(text)
    while found is not None:
        pieces.append(text[start:found.start() + 1])
        start = found.start() + 1
        found = pattern.search(text, start)
    text = sentinel.join([*pieces, text[start:]])
    ends = range(1, min(longest, len(text)) + 1)
    if any(text[:k] in suffixes for k in ends):
        text = sentinel + text
    if any(text[-k:] in prefixes for k in ends):
        text = text + sentinel
    return text


def _encode(tokenizer: Any, rendered: str, sentinel: str, controls: _Controls) -> list[int]:
    """Ids of a rendered prompt whose untrusted parts were escaped with `sentinel`."""
    added, pattern = controls[:2]
    ids: list[int] = []
    start = 0
    for match in pattern.finditer(rendered) if pattern is not None else ():
        ids += _plain(tokenizer, rendered[start:match.start()], sentinel)
        ids.append(added[match.group(0)])  # the template's own marker
        start = match.end()
    return ids + _plain(tokenizer, rendered[start:], sentinel)


def _plain(tokenizer: Any, text: str, sentinel: str) -> list[int]:
    """Ids of text that holds no added token's text, piece by piece between sentinels.

    The tokenizer's own `split_special_tokens` is not used: it flips a flag on the shared
    Rust tokenizer, which races with other threads encoding trusted text. A piece that still
    yields an added token's id (a tokenizer that matches added tokens after normalizing the
    text, e.g. lowercasing) is encoded one character at a time."""
    controls = _controls(tokenizer)[2]
    ids: list[int] = []
    for piece in text.split(sentinel):
        if not piece:
            continue
        got = list(tokenizer.encode(piece, add_special_tokens=False))
        if not controls.isdisjoint(got):
            got = [i for char in piece for i in tokenizer.encode(char, add_special_tokens=False)]
        ids += got
    return ids


def text_ids(tokenizer: Any, text: str) -> list[int]:
    """Ids of `text` (from data or a model) as the characters it is, without the tokenizer's
    special tokens around it (e.g. BOS): a continuation to append to a prompt."""
    return template_ids(tokenizer, TemplatePrompt("{text}", {"text": text}),
                        add_special_tokens=False)


def template_ids(tokenizer: Any, prompt: TemplatePrompt, *,
                 add_special_tokens: bool = True) -> list[int]:
    """Ids of a filled `TemplatePrompt`: the template's special-token text as special tokens,
    the fields as text; the tokenizer's own special tokens (BOS) around it when
    `add_special_tokens`."""
    controls = _controls(tokenizer)
    fields = {k: str(v) for k, v in prompt.fields.items()}
    sentinel = _sentinel([prompt.template, *fields.values()])
    rendered = prompt.template.format(
        **{k: _escape(v, controls, sentinel) for k, v in fields.items()})
    ids = _encode(tokenizer, rendered, sentinel, controls)
    if add_special_tokens:
        before, after = _framing(tokenizer)
        ids = [*before, *ids, *after]
    return ids


def _framing(tokenizer: Any) -> tuple[list[int], list[int]]:
    """The special tokens the tokenizer puts before and after a text (BOS, EOS), found by
    encoding one probe text with and without them."""
    bare = list(tokenizer.encode("1", add_special_tokens=False))
    full = list(tokenizer.encode("1", add_special_tokens=True))
    for at in range(len(full) - len(bare) + 1):
        if full[at:at + len(bare)] == bare:
            return full[:at], full[at + len(bare):]
    return [], []  # a tokenizer that rewrites the text itself: no framing found


def chat_ids(tokenizer: Any, messages: Sequence[Mapping[str, Any]],
             **template_options: Any) -> list[int]:
    """Ids of chat messages rendered by the tokenizer's chat template (`template_options`,
    e.g. add_generation_prompt, go to it): the template's markers are special tokens; every
    string of a message but its role (the content, a list content's text parts, tool-call
    arguments, reasoning) is text. A tokenizer without a chat template joins the contents."""
    controls = _controls(tokenizer)
    template = str(getattr(tokenizer, "chat_template", "") or "")
    sentinel = _sentinel([template, *(t for m in messages for t in _strings(m, role=False))])
    escaped = [_escaped(dict(m), controls, sentinel) for m in messages]
    if template:
        rendered = tokenizer.apply_chat_template(escaped, tokenize=False, **template_options)
    else:
        rendered = "\n\n".join(str(m.get("content", "")) for m in escaped)
    return _encode(tokenizer, rendered, sentinel, controls)


def _strings(value: Any, *, role: bool = True) -> list[str]:
    """Every string inside a message (nested mappings and lists), its role left out."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [t for k, v in value.items() if role or k != "role" for t in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _strings(v)]
    return []


def _escaped(value: Any, controls: _Controls, sentinel: str, *, top: bool = True) -> Any:
    """A message with every string but its role escaped (`_escape`), its shape kept."""
    if isinstance(value, str):
        return _escape(value, controls, sentinel)
    if isinstance(value, Mapping):
        return {k: v if top and k == "role" else _escaped(v, controls, sentinel, top=False)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_escaped(v, controls, sentinel, top=False) for v in value]
    return value
