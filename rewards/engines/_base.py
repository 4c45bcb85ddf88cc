"""The engine protocol, its result type and the helpers every backend shares."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard, runtime_checkable

from rewards.engines._text import TemplatePrompt, chat_ids, template_ids
from rewards.errors import ConfigError

__all__ = ["Engine", "Generation", "Prompt", "candidate_token_ids", "hf_tokenize", "is_chat",
           "is_token_ids", "label_probability", "label_variants"]

Prompt = str | TemplatePrompt | Sequence[Mapping[str, Any]] | Sequence[int]
"""Text (trusted: tokenized with the tokenizer's special tokens, e.g. BOS, and its special-token
text read as those tokens), a `TemplatePrompt` (a trusted template whose fields, text from data
or a model, stay text), chat messages (rendered with the chat template, every content as text;
a generation prompt is added unless the last message is the assistant's, which makes it a
complete conversation, as a reward model scores it) or token ids used as they are. No text of a
message or a template field ever becomes a special token (`rewards.engines._text`)."""


@dataclass(frozen=True)
class Generation:
    """One sampled completion."""

    text: str
    """The completion text, special tokens removed."""
    token_ids: tuple[int, ...]
    """Generated token ids, including the end-of-sequence token when generation stopped on it."""
    logprobs: tuple[float, ...] | None
    """Log-probability of each generated token under the model's own distribution (raw
    log-softmax of the logits, before temperature and top-p), or None when not requested."""
    finish_reason: str
    """"stop" (end-of-sequence token or a stop string) or "length" (max_tokens reached)."""


@runtime_checkable
class Engine(Protocol):
    """One inference backend: vLLM offline, a vLLM OpenAI-compatible server, or transformers."""

    model: str

    def generate(self, prompts: Sequence[Prompt], *, n: int = 1, max_tokens: int = 256,
                 temperature: float = 1.0, top_p: float = 1.0, seed: int | None = None,
                 logprobs: bool = False) -> list[list[Generation]]:
        """`n` completions per prompt (temperature 0 = greedy), in prompt order."""
        ...

    def next_token_logprobs(self, prompts: Sequence[Prompt],
                            candidates: Sequence[str]) -> list[dict[str, float]]:
        """Log-probability (full vocabulary softmax) of each candidate as the next token after
        each prompt. Every candidate must be a single token (see `candidate_token_ids`)."""
        ...

    def sequence_scores(self, texts: Sequence[Prompt]) -> list[float]:
        """The scalar output of a sequence-classification (pooling) model for each text."""
        ...

    def tokenize(self, prompt: Prompt, *, add_special_tokens: bool = True) -> list[int]:
        """The token ids this engine feeds the model for `prompt` (see `Prompt`).
        `add_special_tokens=False` encodes text alone (e.g. a continuation to append)."""
        ...

    def close(self) -> None:
        """Release the model (and stop a server this engine started)."""
        ...


def is_token_ids(prompt: object) -> TypeGuard[Sequence[int]]:
    """A prompt given as token ids (a list or tuple of ints)."""
    return isinstance(prompt, (list, tuple)) and all(isinstance(t, int) for t in prompt) \
        and not isinstance(prompt, str)


def is_chat(prompt: object) -> TypeGuard[Sequence[Mapping[str, Any]]]:
    """A prompt given as chat messages (a non-empty list of role/content mappings)."""
    return isinstance(prompt, (list, tuple)) and len(prompt) > 0 \
        and all(isinstance(m, Mapping) for m in prompt)


def chat_template_options(messages: Sequence[Mapping[str, Any]]) -> dict[str, bool]:
    """A conversation that ends with the assistant's turn is complete (scored as it is);
    otherwise the assistant's turn is opened for generation."""
    return {"add_generation_prompt": messages[-1].get("role") != "assistant"}


def hf_tokenize(tokenizer: Any, prompt: Prompt, *, add_special_tokens: bool = True) -> list[int]:
    """Token ids for `prompt` with a Hugging Face tokenizer, the way vLLM prepares them: text with
    the tokenizer's special tokens, chat rendered by the chat template (then no extra special
    tokens), token ids as they are; message contents and template fields as text, never as
    special tokens (`chat_ids`, `template_ids`). A tokenizer without a chat template joins the
    contents."""
    if is_token_ids(prompt):
        return [int(t) for t in prompt]
    if isinstance(prompt, str):
        return list(tokenizer.encode(prompt, add_special_tokens=add_special_tokens))
    if isinstance(prompt, TemplatePrompt):
        return template_ids(tokenizer, prompt, add_special_tokens=add_special_tokens)
    if not is_chat(prompt):
        raise ConfigError(f"a prompt must be text, chat messages or token ids, got {prompt!r:.200}")
    messages = [dict(m) for m in prompt]
    return chat_ids(tokenizer, messages, **chat_template_options(messages))


def candidate_token_ids(engine: Any, candidates: Sequence[str]) -> list[int]:
    """The single token id of each candidate (encoded alone, without special tokens) with the
    engine's tokenizer. Raises ConfigError naming a candidate that is not one token."""
    ids = []
    for text in candidates:
        tokens = engine.tokenize(text, add_special_tokens=False)
        if len(tokens) != 1:
            raise ConfigError(f"candidate {text!r} is {len(tokens)} tokens {tokens}, not one: "
                              "next-token log-probs need single-token candidates")
        ids.append(tokens[0])
    return ids


LABEL_PAIRS = (("Yes", "No"), ("yes", "no"), ("YES", "NO"), ("Y", "N"), ("A", "B"),
               ("1", "0"), ("True", "False"), ("T", "F"))
"""Verdict label pairs `label_variants` names when a configured label is not one token."""


def label_variants(engine: Any, label: str) -> list[str]:
    """The single-token spellings of a verdict label with the engine's tokenizer: the label
    itself and with a leading space (a tokenizer may put the space in front of the word).
    Raises ConfigError when neither is one token, naming the pairs of `LABEL_PAIRS` that are."""
    found = _single_token_spellings(engine, label)
    if not found:
        working = [f"[{a}, {b}]" for a, b in LABEL_PAIRS
                   if _single_token_spellings(engine, a) and _single_token_spellings(engine, b)]
        hint = (f"labels that are single tokens here: {', '.join(working)}" if working
                else "none of " + ", ".join(f"[{a}, {b}]" for a, b in LABEL_PAIRS)
                + " is either; choose labels from the tokenizer's vocabulary")
        raise ConfigError(f"judge label {label!r}: neither {label!r} nor ' {label.lstrip()}' "
                          f"is a single token of this tokenizer ({hint}); set labels: to "
                          "one of them")
    return found


def _single_token_spellings(engine: Any, label: str) -> list[str]:
    found: dict[int, str] = {}
    for text in dict.fromkeys((label, " " + label.lstrip())):
        ids = engine.tokenize(text, add_special_tokens=False)
        if len(ids) == 1:
            found.setdefault(ids[0], text)
    return list(found.values())


def label_probability(logprobs: Mapping[str, float], first: Sequence[str],
                      second: Sequence[str]) -> float:
    """P(first label) / (P(first label) + P(second label)) from next-token log-probs, each label
    counting all its spellings (`label_variants`): a number in [0, 1] whatever the judge would
    have written, so a verdict read this way is never unparseable. NaN when neither label has
    any probability."""
    lse_first = _logsumexp([logprobs[c] for c in first])
    lse_second = _logsumexp([logprobs[c] for c in second])
    if lse_first == -math.inf and lse_second == -math.inf:
        return math.nan
    return 1.0 / (1.0 + math.exp(min(lse_second - lse_first, 700.0)))  # sigmoid(first - second)


def _logsumexp(values: Sequence[float]) -> float:
    top = max(values)
    if top == -math.inf or math.isnan(top):
        return top
    return top + math.log(sum(math.exp(v - top) for v in values))


def check_sampling(n: int, max_tokens: int, temperature: float, top_p: float) -> None:
    if n < 1 or max_tokens < 1:
        raise ConfigError(f"n and max_tokens must be >= 1, got n={n}, max_tokens={max_tokens}")
    if temperature < 0 or not 0 < top_p <= 1:
        raise ConfigError(f"need temperature >= 0 and 0 < top_p <= 1, got "
                          f"temperature={temperature}, top_p={top_p}")
