"""Rollouts for the training loops: generate G completions per prompt (transformers on the
live policy, or vLLM with the policy's weights synced in after every optimizer step), score
them through the `Reward` interface, pad them into tensors, and compute per-token log-probs.

Why not `rewards.engines` for the transformers path: an engine loads its own model from a
folder, and a training loop must sample from the policy being trained, which lives in this
process and changes every step. So the transformers path runs its own decode loop on the live
module, and the vLLM path uses the engines' vLLM engine and overwrites its weights in place
after each optimizer step.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rewards.engines import chat_ids
from rewards.io import PromptRecord
from rewards.scoring import ScoredBatch, normalize_batch, score_batch
from rewards.types import Reward, Sample, Score
from rl.losses import token_log_probs

log = logging.getLogger("rl")

__all__ = [
    "Batch",
    "Group",
    "ScoredPart",
    "TransformersRollout",
    "VLLMRollout",
    "collate",
    "completion_log_probs",
    "encode_prompt",
    "finish_scoring",
    "make_rollout",
    "rollout_metrics",
    "score_groups",
    "score_part",
]

Completion = tuple[list[int], bool]
"""Token ids of one completion (with the EOS token when it finished) and whether it was
truncated by the length budget."""


def encode_prompt(tokenizer: Any, prompt: str | Sequence[Mapping[str, Any]], *,
                  chat_template: bool, max_tokens: int) -> list[int]:
    """Token ids of a prompt: chat messages always go through the chat template, text does
    when `chat_template`; a message's text stays text (`rewards.engines.chat_ids`: a dataset
    turn that writes `<|im_end|>` does not end it). Over-long prompts keep their last
    `max_tokens` tokens."""
    if isinstance(prompt, str) and not chat_template:
        ids = tokenizer(prompt, add_special_tokens=True)["input_ids"]
    else:
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else prompt
        ids = chat_ids(tokenizer, [dict(m) for m in messages], add_generation_prompt=True)
    return list(ids)[-max_tokens:]


class TransformersRollout:
    """Sampling from the live policy with transformers, in a lean decode loop rather than
    `generate`: each prompt is prefilled once and its KV cache repeated for its n samples,
    finished rows leave the batch once they are a quarter of it (their cache rows are dropped),
    and no logits processors run. The distribution is exactly softmax(logits / temperature) cut
    to the top-p nucleus: the one the loss computes log-probs of. Sampling draws from torch's
    global RNG (CUDA's on a GPU), which a checkpoint saves, so a resumed run samples the same
    completions (`seed` is for vLLM). Tensors live on the policy's device.

    Llama, Mistral and Qwen2 policies decode through `rl._fast_decode.FusedDecoder` (fused
    projections, an in-place KV cache), once its prefill logits have matched the transformers
    forward on the first call; other models, or `fused=False`, run the transformers forward
    with a `DynamicCache`. `decoder` says which one the last call used."""

    def __init__(self, policy: Any, tokenizer: Any, *, record_logprobs: bool = False,
                 fused: bool = True) -> None:
        self.policy = policy
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None \
            else tokenizer.eos_token_id
        eos = policy.generation_config.eos_token_id
        eos = [eos] if isinstance(eos, int) else list(eos or [])
        self.eos_ids = sorted({tokenizer.eos_token_id, *eos} - {None})
        self.record_logprobs = record_logprobs
        self.sampled_logprobs: list[list[float]] = []
        """With `record_logprobs`: per completion of the last call, the sampling log-probs."""
        self.fused = fused
        self.fused_checked = False  # the fused prefill has matched transformers once
        self.decoder = ""
        """"fused" or "transformers": the decoder of the last call."""
        self.fallback_reason: str | None = None
        """Why the last call did not use the fused decoder (None when it did, or was off)."""

    def sync(self, policy: Any) -> None:
        """Nothing to do: generation reads the live module."""

    def _decoder(self, input_ids: Any, mask: Any, positions: Any, capacity: int
                 ) -> tuple[Any, Any]:
        """The decoder for this call, prefilled: (decoder, next-token logits (P, V))."""
        from rl._fast_decode import FusedDecoder, unsupported_reason

        self.fallback_reason = unsupported_reason(self.policy, capacity) if self.fused else None
        if self.fused and self.fallback_reason is None:
            fused = FusedDecoder(self.policy)
            logits = fused.prefill(input_ids, mask, positions, capacity)
            if not self.fused_checked:
                reference = _TransformersDecoder(self.policy)
                expected = reference.prefill(input_ids, mask, positions, capacity)
                error = float((logits - expected).abs().max())
                if error > _tolerance(expected):
                    self.fused, self.fallback_reason = False, \
                        f"fused prefill logits differ from transformers by {error:.3g}"
                    self.decoder = "transformers"
                    return reference, expected
                self.fused_checked = True
            self.decoder = "fused"
            return fused, logits
        self.decoder = "transformers"
        reference = _TransformersDecoder(self.policy)
        return reference, reference.prefill(input_ids, mask, positions, capacity)

    def generate(self, prompt_ids: Sequence[list[int]], *, n: int, max_tokens: int,
                 temperature: float, top_p: float, seed: int | None = None
                 ) -> list[list[Completion]]:
        import torch

        device = next(self.policy.parameters()).device
        width = max(len(p) for p in prompt_ids)
        input_ids = torch.tensor([[self.pad_id] * (width - len(p)) + p for p in prompt_ids],
                                 device=device)
        mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompt_ids],
                            device=device)
        eos = torch.tensor(self.eos_ids, device=device)
        rows = len(prompt_ids) * n
        # (B, max_tokens): -1 = not generated
        tokens = torch.full((rows, max_tokens), -1, device=device)
        logps = torch.zeros((rows, max_tokens), device=device)  # (B, max_tokens)
        with torch.inference_mode():
            positions = (mask.cumsum(-1) - 1).clamp(min=0)  # (P, W)
            decoder, logits = self._decoder(input_ids, mask, positions, width + max_tokens)
            decoder.expand(n)  # prefilled once, shared by the n samples
            logits = logits.repeat_interleave(n, 0)  # (B, V)
            position = positions[:, -1].repeat_interleave(n, 0) + 1  # (B,)
            alive = torch.arange(rows, device=device)  # which result row each batch row fills
            done = torch.zeros(rows, dtype=torch.bool, device=device)  # (b,) rows past EOS
            for t in range(max_tokens):
                token, logp = _sample(logits, temperature, top_p)  # (b,), (b,)
                tokens[alive, t] = token.masked_fill(done, -1)  # finished rows write nothing
                logps[alive, t] = logp.masked_fill(done, 0.0)
                done = done | torch.isin(token, eos)
                finished = int(done.sum())
                if t == max_tokens - 1 or finished == len(done):
                    break
                # finished rows leave the batch once they are a quarter of it: until then they
                # ride along (cheaper than copying every layer's cache at each EOS)
                if 4 * finished >= len(done):
                    keep = (~done).nonzero().squeeze(1)  # (b',)
                    decoder.select(keep)
                    alive, token, position, done = alive[keep], token[keep], position[keep], \
                        done[keep]
                logits = decoder.step(token, position)  # (b, V)
                position = position + 1
        generated = [[t for t in row if t >= 0] for row in tokens.tolist()]
        if self.record_logprobs:
            self.sampled_logprobs = [lp[:len(g)] for lp, g in zip(logps.tolist(), generated)]
        results = [_cut_at_eos(c, self.eos_ids, max_tokens) for c in generated]
        return [results[i * n:(i + 1) * n] for i in range(len(prompt_ids))]


def _tolerance(logits: Any) -> float:
    """How far two implementations' logits may differ: float32 rounding, or bf16/fp16's."""
    import torch

    scale = 1.0 + float(logits.abs().max())
    return scale * (1e-4 if logits.dtype == torch.float32 else 5e-2)


class _TransformersDecoder:
    """The transformers forward with a `DynamicCache`, behind `FusedDecoder`'s interface
    (for any causal LM)."""

    def __init__(self, model: Any) -> None:
        from transformers import DynamicCache

        self.model = model
        self.cache = DynamicCache()
        self.mask: Any = None  # (b, columns) while prompts are left-padded, else None

    def prefill(self, input_ids: Any, mask: Any, positions: Any, capacity: int) -> Any:
        # without left padding the causal mask is implicit: skip building one every step
        self.mask = mask if bool((mask == 0).any()) else None
        out = self.model(input_ids=input_ids, attention_mask=self.mask, position_ids=positions,
                         past_key_values=self.cache, use_cache=True, logits_to_keep=1)
        return out.logits[:, -1]  # (P, V)

    def expand(self, n: int) -> None:
        self.cache.batch_repeat_interleave(n)
        if self.mask is not None:
            self.mask = self.mask.repeat_interleave(n, 0)

    def select(self, keep: Any) -> None:
        self.cache.batch_select_indices(keep)
        if self.mask is not None:
            self.mask = self.mask[keep]

    def step(self, token: Any, position: Any) -> Any:
        import torch

        if self.mask is not None:
            self.mask = torch.cat([self.mask, self.mask.new_ones(self.mask.shape[0], 1)], 1)
        out = self.model(input_ids=token[:, None], attention_mask=self.mask,
                         position_ids=position[:, None], past_key_values=self.cache,
                         use_cache=True)
        return out.logits[:, -1]  # (b, V)


def _sample(logits: Any, temperature: float, top_p: float) -> tuple[Any, Any]:
    """One token per row from softmax(logits / temperature) restricted to the top-p nucleus
    (the smallest set of most likely tokens whose mass reaches top_p), and its log-prob under
    the unrestricted tempered distribution (the one the loss uses). (b, V) -> (b,), (b,)."""
    import torch

    logprobs = torch.log_softmax(logits.float() / temperature, dim=-1)  # (b, V)
    probs = logprobs.exp()  # (b, V)
    if top_p < 1.0:
        sorted_probs, order = probs.sort(dim=-1, descending=True)  # (b, V)
        outside = sorted_probs.cumsum(-1) - sorted_probs >= top_p  # (b, V): mass before >= p
        sorted_probs = sorted_probs.masked_fill(outside, 0.0)
        probs = torch.zeros_like(probs).scatter(-1, order, sorted_probs)  # (b, V)
    # inverse-CDF sampling: one uniform number per row instead of one per vocabulary entry
    # (torch.multinomial and the Gumbel trick draw b * V of them, the bulk of a small model's
    # decode step on the CPU); float64 so the running sum stays exact over large vocabularies
    cdf = probs.double().cumsum(-1)  # (b, V)
    u = torch.rand(cdf.shape[0], 1, dtype=torch.float64, device=cdf.device) * cdf[:, -1:]  # (b, 1)
    token = torch.searchsorted(cdf, u, right=True).squeeze(1).clamp(max=cdf.shape[1] - 1)  # (b,)
    return token, logprobs.gather(-1, token[:, None]).squeeze(1)  # (b,), (b,)


def _cut_at_eos(tokens: list[int], eos_ids: Sequence[int], max_tokens: int) -> Completion:
    for i, token in enumerate(tokens):
        if token in eos_ids:
            return tokens[:i + 1], False
    return tokens[:max_tokens], True


class VLLMRollout:
    """Sampling with the vLLM engine of `rewards.engines` (an offline `vllm.LLM` on the
    policy's folder). `sync(policy)` copies the policy's current weights into it and drops the
    prefix cache, which holds keys computed with the old weights. The copy goes through the
    worker's `model_runner.reload_weights` (run in the worker by `LLM.collective_rpc`): the
    plain `model.load_weights` fails on the CPU build, whose layers repack their weights after
    loading and lose the per-parameter weight loaders that `reload_weights` restores.

    vLLM's V1 engine runs its worker in a separate process unless
    `VLLM_ENABLE_V1_MULTIPROCESSING=0`; in-process, the weights are handed over without a
    copy or pickling. This class sets that variable when it is unset."""

    def __init__(self, model_dir: str, *, seed: int = 0, max_model_len: int = 1024,
                 options: Mapping[str, Any] | None = None) -> None:
        os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
        from rewards.engines import VLLMEngine, load_engine

        opts = {"dtype": "float32", "enforce_eager": True, "max_model_len": max_model_len,
                **dict(options or {})}
        engine = load_engine(str(model_dir), backend="vllm", seed=seed, **opts)
        assert isinstance(engine, VLLMEngine)  # backend="vllm" is one
        self.engine = engine
        self.llm = engine.llm

    def sync(self, policy: Any) -> None:
        weights = [(name, tensor.detach()) for name, tensor in policy.state_dict().items()]
        self.llm.collective_rpc(_reload_weights, args=(weights,))
        self.llm.reset_prefix_cache()

    def generate(self, prompt_ids: Sequence[list[int]], *, n: int, max_tokens: int,
                 temperature: float, top_p: float, seed: int | None = None
                 ) -> list[list[Completion]]:
        # the engine seeds each prompt's request (seed + prompt index), so a resumed run,
        # which passes the same per-step seed, samples the same completions
        outputs = self.engine.generate(list(prompt_ids), n=n, max_tokens=max_tokens,
                                       temperature=temperature, top_p=top_p, seed=seed)
        return [[(list(g.token_ids), g.finish_reason == "length") for g in group]
                for group in outputs]

    def completion_log_probs(self, prompt_ids: list[int], completion: list[int]) -> list[float]:
        """vLLM's log-probs of a fixed completion after a prompt (one per completion token)."""
        from vllm import SamplingParams
        from vllm.inputs import TokensPrompt

        params = SamplingParams(max_tokens=1, prompt_logprobs=0, temperature=1.0)
        out = self.llm.generate([TokensPrompt(prompt_token_ids=prompt_ids + completion)],
                                params, use_tqdm=False)[0]
        per_position = out.prompt_logprobs[len(prompt_ids):]
        return [pos[token].logprob for pos, token in zip(per_position, completion)]

    def close(self) -> None:
        self.engine.close()


def _reload_weights(worker: Any, weights: list[tuple[str, Any]]) -> None:
    """Runs inside the vLLM worker: load checkpoint-format weights in place."""
    worker.model_runner.reload_weights(weights_iterator=iter(weights), is_checkpoint_format=True)


def make_rollout(cfg: Any, policy: Any, tokenizer: Any, *, resumed: bool) -> Any:
    """The rollout backend a loop's config asks for (`rollout_backend`, `model`, `seed`,
    `vllm_options`, `max_prompt_tokens`, `tokens_after_prompt`). A vLLM engine loads the
    model's folder, so after a resume it gets the checkpoint's weights synced in."""
    if cfg.rollout_backend == "vllm":
        rollout = VLLMRollout(cfg.model, seed=cfg.seed, options=cfg.vllm_options,
                              max_model_len=cfg.max_prompt_tokens + cfg.tokens_after_prompt)
        if resumed:
            rollout.sync(policy)
        return rollout
    return TransformersRollout(policy, tokenizer)


@dataclass
class Group:
    """The rollouts of one prompt, scored (what `prompt_filter.DynamicSampler` keeps or
    drops by the spread of `rewards`)."""

    row: Mapping[str, Any]
    """The prompt row (prompt, reference, domain, id ...)."""
    prompt_ids: list[int]
    completions: list[list[int]]
    """Token ids per completion, EOS included when it finished."""
    truncated: list[bool]
    """Whether each completion hit the length budget without finishing."""
    texts: list[str]
    scores: list[Score] = field(default_factory=list)
    rewards: list[float | None] = field(default_factory=list)
    """The reward per completion (the score plus any shaping); None when the reward abstained."""


def score_groups(reward: Reward, tokenizer: Any, records: Sequence[PromptRecord],
                 prompt_ids: Sequence[list[int]], outputs: Sequence[list[Completion]]
                 ) -> list[Group]:
    """Decode the completions and score all of them as one batch, through the one scoring
    path (`rewards.score_batch`): a sample whose reward raises is an abstention (reason
    `error`, logged) and the step goes on; broken infrastructure raises. The prompts (read
    and validated once, `rl._prompts.read_prompts`) become samples by the one rule of
    `rewards.io.prompt_sample`."""
    return finish_scoring(reward, [score_part(reward, tokenizer, records, prompt_ids, outputs)])


@dataclass
class ScoredPart:
    """Some groups of a step, decoded and scored before the batch normalization (what
    `finish_scoring` puts together): their samples, in order, and the scores."""

    groups: list[Group]
    samples: list[Sample]
    scored: ScoredBatch
    """The scores of `samples`, not normalized."""


def score_part(reward: Reward, tokenizer: Any, records: Sequence[PromptRecord],
               prompt_ids: Sequence[list[int]], outputs: Sequence[list[Completion]]
               ) -> ScoredPart:
    """Decode the completions of some groups and score them in one call, without the
    reward's batch normalization (`rewards.score_batch(..., normalize=False)`): the part of
    `score_groups` that the overlapped rollouts (`rl._episodes.Rollouts`) run on a
    background thread for each chunk of groups while the next chunk generates."""
    from rewards.io import prompt_sample

    groups, samples = [], []
    for record, ids, completions in zip(records, prompt_ids, outputs):
        tokens = [c for c, _ in completions]
        texts = tokenizer.batch_decode(tokens, skip_special_tokens=True)
        groups.append(Group(record.row, ids, tokens, [t for _, t in completions], texts))
        samples += [prompt_sample(record, text) for text in texts]
    return ScoredPart(groups, samples, score_batch(reward, samples, normalize=False))


def finish_scoring(reward: Reward, parts: Sequence[ScoredPart]) -> list[Group]:
    """The groups of `parts`, in order, with their scores after the batch normalization
    over all of them at once (`rewards.scoring.normalize_batch`): one batch
    scored in parts gets the scores one call gives. A sample whose reward raised is logged
    by its index in the step."""
    samples = [s for p in parts for s in p.samples]
    scores = [s for p in parts for s in p.scored.scores]
    at = 0
    for p in parts:
        for i in p.scored.errors:
            log.warning("the reward raised on completion %d of the step (prompt %s): %s; it "
                        "counts as an abstention", at + i, p.samples[i].group,
                        p.scored.error_message(i))
        at += len(p.samples)
    scores = normalize_batch(reward, samples, scores)
    groups = [g for p in parts for g in p.groups]
    at = 0
    for group in groups:
        group.scores = scores[at:at + len(group.texts)]
        group.rewards = [s.value for s in group.scores]
        at += len(group.texts)
    return groups


@dataclass
class Batch:
    """Groups flattened into padded tensors: prompts left-padded to P, completions
    right-padded to T; `input_ids` is their concatenation (N, P + T)."""

    input_ids: Any
    """(N, P + T) token ids."""
    attention_mask: Any
    """(N, P + T) 1 on real prompt and completion tokens."""
    completion_ids: Any
    """(N, T) the completion tokens (padding where the mask is 0)."""
    completion_mask: Any
    """(N, T) 1.0 on real completion tokens."""
    lengths: Any
    """(N,) completion lengths in tokens."""
    truncated: Any
    """(N,) True for completions cut by the length budget."""
    group_index: list[int]
    """Which group each row came from."""

    def to(self, device: Any) -> Batch:
        """The same batch with its tensors on `device`."""
        return Batch(self.input_ids.to(device), self.attention_mask.to(device),
                     self.completion_ids.to(device), self.completion_mask.to(device),
                     self.lengths.to(device), self.truncated.to(device), self.group_index)

    def rows(self, index: Any) -> Batch:
        """The rows `index` (a slice or index tensor) with all-padding columns trimmed."""
        mask = self.attention_mask[index]
        prompt_width = self.input_ids.shape[1] - self.completion_ids.shape[1]
        first = int((mask.sum(0) > 0).nonzero()[0])  # first column any row uses
        first = min(first, prompt_width - 1)
        comp_mask = self.completion_mask[index]
        # the last real completion column: masked tokens inside a completion (an episode's
        # environment turns, rl._episodes) still count
        width = max(int(mask[:, prompt_width:].sum(1).max()), 1)
        end = prompt_width + width
        groups = self.group_index[index] if isinstance(index, slice) else \
            [self.group_index[i] for i in index.tolist()]
        return Batch(self.input_ids[index][:, first:end], mask[:, first:end],
                     self.completion_ids[index][:, :width], comp_mask[:, :width],
                     self.lengths[index], self.truncated[index], groups)


def collate(groups: Sequence[Group], pad_id: int) -> Batch:
    import torch

    prompts = [g.prompt_ids for g in groups for _ in g.completions]
    completions = [c for g in groups for c in g.completions]
    P = max(len(p) for p in prompts)
    T = max(max((len(c) for c in completions), default=1), 1)
    input_ids = torch.full((len(prompts), P + T), pad_id, dtype=torch.long)
    attention_mask = torch.zeros((len(prompts), P + T), dtype=torch.long)
    for i, (p, c) in enumerate(zip(prompts, completions)):
        input_ids[i, P - len(p):P] = torch.tensor(p)
        input_ids[i, P:P + len(c)] = torch.tensor(c, dtype=torch.long)
        attention_mask[i, P - len(p):P + len(c)] = 1
    completion_mask = attention_mask[:, P:].float()  # (N, T)
    return Batch(
        input_ids=input_ids, attention_mask=attention_mask,
        completion_ids=input_ids[:, P:].clone(), completion_mask=completion_mask,
        lengths=completion_mask.sum(1),
        truncated=torch.tensor([t for g in groups for t in g.truncated]),
        group_index=[gi for gi, g in enumerate(groups) for _ in g.completions])


def completion_logits(model: Any, batch: Batch) -> Any:
    """Logits at the positions that predict the completion tokens: (N, T, V).

    Rows that share a prompt (consecutive rows of one group, as `collate` lays them out)
    share one forward pass over it: the prompt runs once per group with gradients, its KV
    cache is repeated for the group's rows, and the completions run on top. For G samples per
    prompt that removes (G - 1) / G of the prompt's compute from every training forward and
    backward, and the gradient is the same as with a full pass per row."""
    import torch
    from transformers import DynamicCache

    N, T = batch.completion_ids.shape
    P = batch.input_ids.shape[1] - T
    device = batch.input_ids.device
    group = torch.tensor(batch.group_index, device=device)  # (N,)
    starts = torch.ones(N, dtype=torch.bool, device=device)  # (N,): first row of a group's run
    starts[1:] = group[1:] != group[:-1]
    if bool(starts.all()) or T < 2:  # nothing to share: one plain pass
        position_ids = (batch.attention_mask.cumsum(-1) - 1).clamp(min=0)  # (N, P + T)
        out = model(input_ids=batch.input_ids, attention_mask=batch.attention_mask,
                    position_ids=position_ids, logits_to_keep=T + 1, use_cache=False)
        return out.logits[:, :-1]  # (N, T, V): position t predicts completion token t
    owner = starts.long().cumsum(0) - 1  # (N,): which shared prompt each row uses
    firsts = starts.nonzero().squeeze(1)  # (U,)
    prompt_mask = batch.attention_mask[firsts, :P]  # (U, P)
    prompt_positions = (prompt_mask.cumsum(-1) - 1).clamp(min=0)  # (U, P)
    cache = DynamicCache()
    out = model(input_ids=batch.input_ids[firsts, :P], attention_mask=prompt_mask,
                position_ids=prompt_positions, past_key_values=cache, use_cache=True,
                logits_to_keep=1)
    first_logits = out.logits[:, -1][owner]  # (N, V): predicts completion token 0
    cache.batch_select_indices(owner)  # (U, ...) -> (N, ...), differentiable
    # completion tokens 0..T-2 predict tokens 1..T-1; the last token predicts nothing
    positions = prompt_positions[owner, -1:] + 1 + torch.arange(T - 1, device=device)  # (N, T-1)
    out = model(input_ids=batch.completion_ids[:, :-1],
                attention_mask=batch.attention_mask[:, :P + T - 1], position_ids=positions,
                past_key_values=cache, use_cache=True)
    return torch.cat([first_logits[:, None], out.logits], 1)  # (N, T, V)


def completion_log_probs(model: Any, batch: Batch, *, temperature: float = 1.0) -> Any:
    """log pi(completion token t | prompt, tokens < t) for every completion token: (N, T).
    Logits are divided by the sampling temperature, as they were when sampling."""
    logits = completion_logits(model, batch)  # (N, T, V)
    if temperature != 1.0:
        logits = logits / temperature
    return token_log_probs(logits.float(), batch.completion_ids)  # (N, T)


def rollout_metrics(groups: Sequence[Group], batch: Batch) -> dict[str, float]:
    """What a loop logs about its rollouts: `reward/mean` and `reward/std` over the scored
    completions (abstentions left out), `reward/abstained` (their share),
    `reward/<component>` (each reward component's mean), `completion/mean_length`,
    `completion/truncated`, and the trip-wires `hack/<class>` (`rewards.stress.hack_metrics`:
    the share of rewarded completions that look like an attack of that class)."""
    import torch

    from rewards.stress import hack_metrics

    rewards = [r for g in groups for r in g.rewards]
    scored = [r for r in rewards if r is not None]
    values: dict[str, list[float]] = {}
    for g in groups:
        for score in g.scores:
            for name, value in score.parts.items():
                if value is not None:
                    values.setdefault(name, []).append(float(value))
    return {
        "reward/mean": sum(scored) / max(len(scored), 1),
        "reward/std": float(torch.tensor(scored).std()) if len(scored) > 1 else 0.0,
        "reward/abstained": 1 - len(scored) / len(rewards),
        **{f"reward/{name}": sum(v) / len(v) for name, v in sorted(values.items())},
        "completion/mean_length": float(batch.lengths.mean()),
        "completion/truncated": float(batch.truncated.float().mean()),
        **hack_metrics([t for g in groups for t in g.texts], rewards),
    }
