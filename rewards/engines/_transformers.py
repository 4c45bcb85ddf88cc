"""The transformers backend: exact float32 log-probs on CPU (or a GPU), the reference the vLLM
backends are checked against in the tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from rewards.deps import require
from rewards.engines._base import (
    Generation,
    Prompt,
    candidate_token_ids,
    check_sampling,
    hf_tokenize,
)
from rewards.engines._model_path import resolve_model
from rewards.errors import EngineError

__all__ = ["TransformersEngine"]


class TransformersEngine:
    """A Hugging Face model folder run with transformers.

    The model class follows the folder's `config.json`: a `*ForSequenceClassification`
    architecture gives a scoring model (`sequence_scores`), anything else a causal LM
    (`generate`, `next_token_logprobs`).
    """

    def __init__(self, model: str, *, task: Literal["auto", "generate", "classify"] = "auto",
                 dtype: str = "float32", device: str | None = None, batch_size: int = 16,
                 trust_remote_code: bool = False) -> None:
        self.model = resolve_model(str(model))
        self.batch_size = batch_size
        torch = require("torch", extra="train", feature="the transformers backend")
        transformers = require("transformers", extra="train", feature="the transformers backend")
        self._torch = torch
        try:
            config = transformers.AutoConfig.from_pretrained(self.model,
                                                             trust_remote_code=trust_remote_code)
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(
                self.model, trust_remote_code=trust_remote_code)
        except (OSError, ValueError) as exc:
            raise EngineError(f"transformers cannot load {self.model!r}: {exc}") from exc
        if task == "auto":
            archs = getattr(config, "architectures", None) or []
            task = "classify" if any(a.endswith("ForSequenceClassification") for a in archs) \
                else "generate"
        self.task = task
        auto = (transformers.AutoModelForSequenceClassification if task == "classify"
                else transformers.AutoModelForCausalLM)
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        torch_dtype = getattr(torch, dtype) if dtype != "auto" else "auto"
        try:
            self.net = auto.from_pretrained(self.model, dtype=torch_dtype,
                                            trust_remote_code=trust_remote_code)
        except (OSError, ValueError) as exc:
            raise EngineError(f"transformers cannot load {self.model!r}: {exc}") from exc
        self.net.to(self.device).eval()
        self.pad_id = self.tokenizer.pad_token_id
        if self.pad_id is None:
            self.pad_id = self.tokenizer.eos_token_id if self.tokenizer.eos_token_id is not None \
                else 0
        self.eos_ids = _eos_ids(self.net, self.tokenizer)

    # -- the Engine protocol -------------------------------------------------------------

    def tokenize(self, prompt: Prompt, *, add_special_tokens: bool = True) -> list[int]:
        return hf_tokenize(self.tokenizer, prompt, add_special_tokens=add_special_tokens)

    def generate(self, prompts: Sequence[Prompt], *, n: int = 1, max_tokens: int = 256,
                 temperature: float = 1.0, top_p: float = 1.0, seed: int | None = None,
                 logprobs: bool = False) -> list[list[Generation]]:
        check_sampling(n, max_tokens, temperature, top_p)
        self._need("generate")
        torch = self._torch
        generator = torch.Generator(device=self.device)
        generator.manual_seed(seed if seed is not None else random.SystemRandom().randrange(2**63))
        rows = [ids for p in prompts for ids in [self.tokenize(p)] * n]
        flat: list[Generation] = []
        for start in range(0, len(rows), self.batch_size):
            flat += self._sample(rows[start:start + self.batch_size], max_tokens, temperature,
                                 top_p, generator, logprobs)
        return [flat[i * n:(i + 1) * n] for i in range(len(prompts))]

    def next_token_logprobs(self, prompts: Sequence[Prompt],
                            candidates: Sequence[str]) -> list[dict[str, float]]:
        self._need("generate")
        ids = candidate_token_ids(self, candidates)
        rows = [self.tokenize(p) for p in prompts]
        out: list[dict[str, float]] = []
        for start in range(0, len(rows), self.batch_size):
            logits = self._forward(rows[start:start + self.batch_size]).logits[:, -1]  # (B, V)
            logp = self._torch.log_softmax(logits.float(), dim=-1)[:, ids]  # (B, C)
            out += [dict(zip(candidates, row)) for row in logp.tolist()]
        return out

    def sequence_scores(self, texts: Sequence[Prompt]) -> list[float]:
        self._need("classify")
        rows = [self.tokenize(t) for t in texts]
        out: list[float] = []
        for start in range(0, len(rows), self.batch_size):
            # Left padding: the last position is every row's last real token, which the
            # classifier pools.
            logits = self._forward(rows[start:start + self.batch_size]).logits  # (B, labels)
            out += logits[:, 0].float().tolist()
        return out

    def close(self) -> None:
        self.net = None

    # -- internals -----------------------------------------------------------------------

    def _need(self, task: str) -> None:
        if self.net is None:
            raise EngineError(f"engine for {self.model!r} is closed")
        if self.task != task:
            what = "a sequence-classification model" if task == "classify" else "a causal LM"
            raise EngineError(f"{self.model!r} is loaded for {self.task!r}; this call needs "
                              f"{what}")

    def _batch(self, rows: Sequence[Sequence[int]]) -> tuple[Any, Any, Any]:
        """Left-padded ids, attention mask and position ids, each (B, T)."""
        torch = self._torch
        width = max(len(r) for r in rows)
        ids = torch.full((len(rows), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for i, r in enumerate(rows):
            if r:
                ids[i, width - len(r):] = torch.tensor(r, dtype=torch.long)
                mask[i, width - len(r):] = 1
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        return ids.to(self.device), mask.to(self.device), positions.to(self.device)

    def _forward(self, rows: Sequence[Sequence[int]]) -> Any:
        if any(len(r) == 0 for r in rows):
            raise EngineError("an empty prompt has no next token to score")
        ids, mask, positions = self._batch(rows)
        with self._torch.inference_mode():
            return self.net(input_ids=ids, attention_mask=mask, position_ids=positions)

    def _sample(self, rows: Sequence[Sequence[int]], max_tokens: int, temperature: float,
                top_p: float, generator: Any, want_logprobs: bool) -> list[Generation]:
        torch = self._torch
        ids, mask, positions = self._batch(rows)
        batch = len(rows)
        tokens: list[list[int]] = [[] for _ in range(batch)]
        logps: list[list[float]] = [[] for _ in range(batch)]
        done = [False] * batch
        with torch.inference_mode():
            out = self.net(input_ids=ids, attention_mask=mask, position_ids=positions,
                           use_cache=True)
            for _ in range(max_tokens):
                logits = out.logits[:, -1].float()  # (B, V)
                logp = torch.log_softmax(logits, dim=-1)  # raw model distribution
                chosen = _choose(logits, temperature, top_p, generator)  # (B,)
                picked = logp.gather(1, chosen[:, None])[:, 0].tolist()
                for i, tok in enumerate(chosen.tolist()):
                    if not done[i]:
                        tokens[i].append(tok)
                        logps[i].append(picked[i])
                        done[i] = tok in self.eos_ids
                if all(done):
                    break
                mask = torch.cat([mask, mask.new_ones((batch, 1))], dim=1)
                positions = positions[:, -1:] + 1
                out = self.net(input_ids=chosen[:, None], attention_mask=mask,
                               position_ids=positions, past_key_values=out.past_key_values,
                               use_cache=True)
        return [Generation(
            text=self.tokenizer.decode(t, skip_special_tokens=True),
            token_ids=tuple(t), logprobs=tuple(lp) if want_logprobs else None,
            finish_reason="stop" if t and t[-1] in self.eos_ids else "length",
        ) for t, lp in zip(tokens, logps)]


def _choose(logits: Any, temperature: float, top_p: float, generator: Any) -> Any:
    """Next token per row: greedy at temperature 0, else nucleus sampling. logits: (B, V)."""
    import torch

    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(logits / temperature, dim=-1)  # (B, V)
    if top_p < 1.0:
        sorted_p, order = probs.sort(dim=-1, descending=True)
        # Keep the smallest prefix whose mass reaches top_p (the first token always stays).
        drop = sorted_p.cumsum(-1) - sorted_p >= top_p
        sorted_p = sorted_p.masked_fill(drop, 0.0)
        probs = torch.zeros_like(probs).scatter(1, order, sorted_p)
    return torch.multinomial(probs, 1, generator=generator)[:, 0]


def _eos_ids(net: Any, tokenizer: Any) -> set[int]:
    ids: set[int] = set()
    gen = getattr(net, "generation_config", None)
    for value in (getattr(gen, "eos_token_id", None), tokenizer.eos_token_id):
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, (list, tuple)):
            ids.update(int(v) for v in value)
    return ids
