"""OpenRLHF: its remote reward protocol, and the `reward_func` file form.

OpenRLHF (`openrlhf/utils/agent.py`, `SingleTurnAgentExecutor`) scores each rollout either by
POSTing `{"query": [...], "prompts": [...], "labels": [...]}` to `--reward.remote_url
http://host:port/get_reward` (our `rewards serve`), or, when `--reward.remote_url` ends in
`.py`, by loading that file and calling its `reward_func(queries, prompts, labels)`. Either way
it reads `rewards` (for advantages), `scores` (for dynamic filtering) and `extra_logs` (logged
per key). A query is the decoded prompt + response, special tokens included; a label is the
dataset's `--data.label_key` column.

File form: `--reward.remote_url $(python -c "import integrations.openrlhf as m;
print(m.__file__)")` with `REWARDS_CONFIG=/path/to/reward.yaml` in the Ray workers' env.

OpenRLHF needs a number in `rewards` for every rollout; its one way to leave rollouts out is
dynamic filtering (`--algo.dynamic_filtering_enable`), which drops a prompt's group when the
mean of its `scores` is outside `--algo.dynamic_filtering_range`. So under `abstain="mask"`
(default) an abstained rollout gets `scores` = `MASK_SCORE` (-1e9, below any range: its group
is dropped) and `rewards` = `abstain_value`; without dynamic filtering OpenRLHF trains it as
`abstain_value`, so run with dynamic filtering on, or with `abstain="raise"`. `zero`: both
are `abstain_value`; `raise`: an `InputError`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from integrations._common import (
    AbstainMode,
    ResolvedReward,
    RewardSource,
    check_abstain_mode,
    labelled_sample,
    raise_on_abstention,
    resolve_reward,
)
from rewards.completion import ROLES
from rewards.errors import InputError
from rewards.scoring import abstention_cause, score_batch
from rewards.types import Sample, Score

__all__ = ["END_TOKENS", "MASK_SCORE", "RequestError", "build_response", "parse_request",
           "response_messages", "reward_func", "samples_from_queries", "split_query"]

END_TOKENS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end_of_text|>", "</s>",
              "<｜end▁of▁sentence｜>", "<|end|>", "<|pad|>", "<pad>", "<eos>", "<end_of_turn>")
"""Special tokens stripped from the end of a decoded query (OpenRLHF decodes with
`skip_special_tokens=False`, so the EOS and padding are part of the text)."""

_TURN_START = re.compile(r"<\|im_start\|>([A-Za-z_]{1,20})\n"  # ChatML (Qwen, ...)
                         r"|<\|start_header_id\|>([A-Za-z_]{1,20})<\|end_header_id\|>\n*")  # Llama 3
"""The turn headers of the chat templates whose end tokens `END_TOKENS` lists (ChatML and
Llama 3): a decoded multi-turn response is split at them (`response_messages`)."""

MASK_SCORE = -1e9
"""`scores` of an abstained rollout under `abstain="mask"`: outside any dynamic filtering
range, so OpenRLHF drops the rollout's prompt group."""


class RequestError(InputError):
    """A malformed `/get_reward` request; `field` names the offending field (`query[2]`)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message, field=field)
        self.args = (f"{field}: {message}",)  # the 422 reply's detail: "query[2]: must be ..."


def split_query(query: str, prompt: Any, end_tokens: Sequence[str] = END_TOKENS) -> str:
    """The response part of an OpenRLHF query (prompt + response): the text after the prompt
    (or the whole query if the prompt is not in it), without trailing special tokens."""
    response = query
    if isinstance(prompt, str) and prompt:
        if query.startswith(prompt):
            response = query[len(prompt):]
        else:
            at = query.find(prompt)  # e.g. a BOS token decoded in front of the prompt
            if at >= 0:
                response = query[at + len(prompt):]
    stripped = True
    while stripped:
        stripped = False
        trimmed = response.rstrip()
        for token in end_tokens:
            if token and trimmed.endswith(token):
                response = trimmed[:-len(token)]
                stripped = True
                break
    return response


def response_messages(response: str,
                      end_tokens: Sequence[str] = END_TOKENS) -> str | list[dict[str, str]]:
    """A decoded response (`split_query`) as the one reading takes it: text when it holds no
    turn header, else chat messages split at the template's turn headers (`_TURN_START`),
    each without its end token: the text before the first header is the model's, and each
    header's role (one of `rewards.completion.ROLES`) owns the text up to the next, so a
    tool observation or a user turn the agent loop inserted is never read as the model's
    (its `<tool_call>` text is no call of the completion). A header naming no known role is
    text. A policy that writes a header as text itself is read by it too: the decoded text
    cannot tell the two apart (the messages path, `Sample(prompt, messages)`, can)."""
    headers = [m for m in _TURN_START.finditer(response)
               if (m.group(1) or m.group(2)).casefold() in ROLES]
    if not headers:
        return response
    messages = []
    starts = [(0, 0, "assistant"), *((m.start(), m.end(), (m.group(1) or m.group(2)).casefold())
                                     for m in headers)]
    for k, (_, begin, role) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(response)
        text = split_query(response[begin:end], None, end_tokens)
        if k or text.strip():
            messages.append({"role": role, "content": text})
    return messages


def samples_from_queries(resolved: ResolvedReward, queries: Sequence[str],
                         prompts: Sequence[Any] | None = None,
                         labels: Sequence[Any] | None = None,
                         domains: Sequence[str | None] | None = None, *,
                         end_tokens: Sequence[str] = END_TOKENS) -> list[Sample]:
    """One `Sample` per query. A label is the reference; a label that is a mapping with a
    `reference` key gives the reference and, with a `domain` key, the domain."""
    samples = []
    for i, query in enumerate(queries):
        prompt = prompts[i] if prompts is not None else None
        response = response_messages(split_query(query, prompt, end_tokens), end_tokens)
        sample = labelled_sample(resolved, prompt, response,
                                 labels[i] if labels is not None else None,
                                 domains[i] if domains is not None else None)
        if isinstance(response, list) and sample.turns:
            # the calls: those of every segment, whoever its header names (a policy can write
            # a header as text, and a call behind it was still made); the answer: the last
            # assistant segment's, as read (a tool's text is never the answer)
            answer = max(k for k, m in enumerate(response) if m["role"] == "assistant")
            rest = [m["content"] for k, m in enumerate(response) if k != answer]
            sample = replace(sample, turns=(*rest, sample.turns[-1]))
        samples.append(sample)
    return samples


def parse_request(body: Any) -> tuple[list[str], list[Any] | None, list[Any] | None,
                                      list[str | None] | None]:
    """Validate a `/get_reward` body: (queries, prompts, labels, domains). Raises
    `RequestError` naming the field."""
    if not isinstance(body, Mapping):
        raise RequestError("body", "must be a JSON object with a 'query' list")
    if "query" not in body:
        raise RequestError("query", "missing (a list of prompt + response strings)")
    queries = body["query"]
    if isinstance(queries, str):
        queries = [queries]
    if not isinstance(queries, list):
        raise RequestError("query", f"must be a list of strings, not {type(queries).__name__}")
    for i, q in enumerate(queries):
        if not isinstance(q, str):
            raise RequestError(f"query[{i}]", f"must be a string, not {type(q).__name__}")
    columns: dict[str, list[Any] | None] = {}
    for name in ("prompts", "labels", "domains"):
        value = body.get(name)
        if value is not None and not isinstance(value, list):
            raise RequestError(name, f"must be a list, not {type(value).__name__}")
        if value is not None and len(value) != len(queries):
            raise RequestError(name, f"has {len(value)} items for {len(queries)} queries")
        columns[name] = value
    for i, prompt in enumerate(columns["prompts"] or []):
        if prompt is not None and not isinstance(prompt, (str, list)):
            raise RequestError(f"prompts[{i}]", "must be a string or a list of chat messages")
    for i, domain in enumerate(columns["domains"] or []):
        if domain is not None and not isinstance(domain, str):
            raise RequestError(f"domains[{i}]", "must be a string")
    return queries, columns["prompts"], columns["labels"], columns["domains"]


def build_response(resolved: ResolvedReward, scores: Sequence[Score], *,
                   abstain_value: float = 0.0, abstain: AbstainMode = "mask",
                   samples: Sequence[Sample] | None = None) -> dict[str, Any]:
    """OpenRLHF's reply: `rewards` (final values; an abstention becomes `abstain_value`, since
    OpenRLHF needs a number), `scores` (the values before batch normalization, for dynamic
    filtering; `MASK_SCORE` for an abstention under `abstain="mask"`), `extra_logs` (one list
    per key, numbers only: each component's value and `reward/abstained`). `reasons`,
    `causes` and `parts` are extra fields OpenRLHF ignores."""
    if abstain == "raise" and samples is not None:
        raise_on_abstention(samples, scores)
    names = resolved.component_names() or sorted({k for s in scores for k in s.parts})
    rewards = [abstain_value if s.value is None else float(s.value) for s in scores]
    missing = MASK_SCORE if abstain == "mask" else abstain_value
    raw = [missing if s.value is None else s.parts.get("raw", s.value) for s in scores]
    extra_logs: dict[str, list[float]] = {
        f"reward/{name}": [_number(s.parts.get(name)) for s in scores] for name in names}
    extra_logs["reward/abstained"] = [1.0 if s.value is None else 0.0 for s in scores]
    known: Sequence[Sample | None] = samples or [None] * len(scores)
    return {
        "rewards": rewards,
        "scores": [abstain_value if v is None else float(v) for v in raw],
        "extra_logs": extra_logs,
        "reasons": [s.reason for s in scores],
        "causes": [abstention_cause(sample, s) for sample, s in
                   zip(known, scores)],
        "parts": [dict(s.parts) for s in scores],
    }


def _number(value: float | None) -> float:
    # JSON and OpenRLHF's tensors have no None: a component that did not score (abstained,
    # or belongs to another domain) logs 0.0; `reward/abstained` tells the two apart.
    return 0.0 if value is None else float(value)


def score_queries(resolved: ResolvedReward, samples: Sequence[Sample]) -> list[Score]:
    """Score one request's samples: raw scores, then the config's normalization over them."""
    return score_batch(resolved.reward, samples).scores


def reward_func(queries: Sequence[str], prompts: Sequence[Any], labels: Sequence[Any],
                **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's file form: `--reward.remote_url /path/to/integrations/openrlhf.py`.

    The reward config comes from the `reward_config` keyword or `$REWARDS_CONFIG`; the
    keywords `abstain` (mask | zero | raise), `abstain_value` and `on_config_abstain`
    (raise | warn) are as for `rewards serve`. Returns
    torch tensors (as OpenRLHF's own examples do) when torch is importable, else lists.
    """
    source: RewardSource = kwargs.get("reward_config")
    abstain = kwargs.get("abstain", "mask")
    on_config_abstain = kwargs.get("on_config_abstain", "raise")
    check_abstain_mode(abstain, on_config_abstain)
    resolved = resolve_reward(source)
    samples = samples_from_queries(resolved, list(queries), list(prompts), list(labels))
    scores = score_queries(resolved, samples)
    resolved.observe(samples, scores, on_config_abstain=on_config_abstain)
    result = build_response(resolved, scores, samples=samples, abstain=abstain,
                            abstain_value=float(kwargs.get("abstain_value", 0.0)))
    try:
        import torch
    except ImportError:
        return result
    return {"rewards": torch.tensor(result["rewards"], dtype=torch.float32),
            "scores": torch.tensor(result["scores"], dtype=torch.float32),
            "extra_logs": {k: torch.tensor(v, dtype=torch.float32)
                           for k, v in result["extra_logs"].items()}}
