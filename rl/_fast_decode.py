"""A lean incremental decoder for Llama-family policies (Llama, Mistral, Qwen2), for rollouts.

Why: in `transformers`, a decode step of a small model on the CPU is mostly bookkeeping rather
than arithmetic: per layer, `DynamicCache` concatenates the new key and value onto the whole
cache (copying it), the attention mask is rebuilt, and every module call goes through hooks and
output dataclasses. This decoder runs the same computation from the same weights with
  - the query/key/value projections fused into one matmul, and the gate/up projections into
    another (the fused weights are built at the start of each `generate` call, since the
    policy's weights change after every optimizer step);
  - a key/value cache preallocated for the whole completion budget and written in place;
  - decode attention as two batched matmuls, with grouped query heads folded into the batch
    (no key/value repetition), and a padding bias only when prompts are left-padded.
Rotary angles come from the model's own `rotary_emb` module (so linear, YaRN and Llama 3
scaling are transformers' own code), computed once per call for every position as a table.

Only plain architectures are taken: `unsupported_reason` names why a model is not (a sliding
window, a bias this decoder does not apply, adapters or quantized layers in place of
`nn.Linear`, ...), and `TransformersRollout` then uses its transformers path. It also checks,
once per policy, that this decoder's prefill logits match the transformers forward before it
trusts it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["FusedDecoder", "unsupported_reason"]

_MODEL_TYPES = ("llama", "mistral", "qwen2")
_DECODER_LAYERS = ("LlamaDecoderLayer", "MistralDecoderLayer", "Qwen2DecoderLayer")
_MAX_BYTES = 2 * 2**30
"""Largest policy taken: the fused, transposed weights are a copy of nearly all of them, and a
model this big spends its decode steps in matmuls, where the fused decoder saves little."""
_ROPE_TYPES = ("default", "linear", "llama3", "yarn")
"""RoPE variants whose angles depend on the position alone, so a table computed once per call
holds them ("dynamic" and "longrope" change with the sequence length)."""


def unsupported_reason(model: Any, max_length: int) -> str | None:
    """None when `FusedDecoder` computes exactly what `model` computes for sequences of up to
    `max_length` tokens; otherwise why not."""
    import torch

    config = getattr(model, "config", None)
    kind = getattr(config, "model_type", None)
    if kind not in _MODEL_TYPES:
        return f"model_type {kind!r} (supported: {', '.join(_MODEL_TYPES)})"
    rope_type = getattr(getattr(getattr(model, "model", None), "rotary_emb", None),
                        "rope_type", "default")
    if rope_type not in _ROPE_TYPES:  # the others rescale with the sequence length
        return f"rope_type {rope_type!r}"
    if getattr(config, "hidden_act", None) != "silu":
        return f"hidden_act {getattr(config, 'hidden_act', None)!r}"
    if getattr(config, "pretraining_tp", 1) != 1:
        return "pretraining_tp != 1"
    if getattr(config, "mlp_bias", False):
        return "mlp_bias"
    if kind == "llama" and getattr(config, "attention_bias", False):
        return "attention_bias"
    # a sliding window wider than the longest sequence is full attention
    windowed = any(t != "full_attention" for t in getattr(config, "layer_types", None) or []) \
        or (kind == "mistral" and getattr(config, "sliding_window", None)) \
        or (kind == "qwen2" and getattr(config, "use_sliding_window", False))
    window = getattr(config, "sliding_window", None)
    if windowed and (window is None or window <= max_length):
        return f"sliding window {window} <= {max_length} tokens"
    size = sum(p.numel() * p.element_size() for p in model.parameters())
    if size > _MAX_BYTES:
        return f"{size / 2**30:.1f} GiB of weights (the fused copies are for models up to " \
               f"{_MAX_BYTES / 2**30:.0f} GiB)"
    inner = getattr(model, "model", None)
    if inner is None or not hasattr(inner, "layers") or not hasattr(inner, "rotary_emb"):
        return f"{type(model).__name__} has no .model.layers / .model.rotary_emb"
    if type(getattr(model, "lm_head", None)) is not torch.nn.Linear \
            or model.lm_head.bias is not None:
        return "lm_head is not a bias-free nn.Linear"
    if type(inner.embed_tokens) is not torch.nn.Embedding:
        return "embed_tokens is not an nn.Embedding"
    for layer in inner.layers:
        if type(layer).__name__ not in _DECODER_LAYERS:
            return f"decoder layer {type(layer).__name__}"
        attn, mlp = layer.self_attn, layer.mlp
        projections = (attn.q_proj, attn.k_proj, attn.v_proj, attn.o_proj,
                       mlp.gate_proj, mlp.up_proj, mlp.down_proj)
        if any(type(p) is not torch.nn.Linear for p in projections):
            return "a projection is not a plain nn.Linear (adapter or quantized layer)"
        if attn.o_proj.bias is not None or any(p.bias is not None for p in projections[4:]):
            return "bias on o_proj or the MLP"
        if len({p.bias is None for p in projections[:3]}) != 1:
            return "bias on some but not all of q/k/v"
        window = getattr(attn, "sliding_window", None)
        if window and window <= max_length:
            return f"sliding window {window} <= {max_length} tokens"
    if any(m._forward_hooks or m._forward_pre_hooks for m in model.modules()):
        return "forward hooks are registered"
    return None


@dataclass
class _Layer:
    """One decoder layer's weights, stored (in, out): x @ w, which MKL runs about 20% faster
    than x @ w.T for a decode step's few rows."""

    qkv: Any
    """(D, (Hq + 2 Hkv) d) fused query/key/value weight, the query part pre-scaled."""
    qkv_bias: Any
    """((Hq + 2 Hkv) d,) or None."""
    o: Any
    """(Hq d, D)"""
    gate_up: Any
    """(D, 2 I) fused gate/up weight."""
    down: Any
    """(I, D)"""
    norm_attn: Any
    norm_mlp: Any


def _mm(x: Any, w: Any, bias: Any = None) -> Any:
    """x (..., K) @ w (K, N) (+ bias) -> (..., N)."""
    import torch

    flat = x.reshape(-1, x.shape[-1])
    out = flat.mm(w) if bias is None else torch.addmm(bias, flat, w)
    return out.view(*x.shape[:-1], w.shape[1])


class FusedDecoder:
    """Prefill and single-token decode steps for one `generate` call: `prefill` the prompts,
    `expand` each prompt's cache to its n samples, then `step` one token per live row and
    `select` the rows that go on. Inference only (call under `torch.inference_mode`)."""

    def __init__(self, model: Any) -> None:
        import torch

        config, inner = model.config, model.model
        self.heads = config.num_attention_heads
        self.kv_heads = getattr(config, "num_key_value_heads", None) or self.heads
        self.head_dim = getattr(config, "head_dim", None) or config.hidden_size // self.heads
        self.eps = config.rms_norm_eps
        self.scale = self.head_dim ** -0.5
        self.rotary = inner.rotary_emb
        self.embed = inner.embed_tokens.weight  # (V, D)
        self.norm = inner.norm.weight
        self.lm_head = model.lm_head.weight.t().contiguous()  # (D, V)
        self.layers = []
        for layer in inner.layers:
            attn, mlp = layer.self_attn, layer.mlp
            # the attention scale is folded into the query projection (rotary is linear, so
            # scaling before it is the same as scaling the scores)
            bias = None if attn.q_proj.bias is None else \
                torch.cat([attn.q_proj.bias * self.scale, attn.k_proj.bias, attn.v_proj.bias])
            self.layers.append(_Layer(
                qkv=torch.cat([attn.q_proj.weight * self.scale, attn.k_proj.weight,
                               attn.v_proj.weight]).t().contiguous(),
                qkv_bias=bias, o=attn.o_proj.weight.t().contiguous(),
                gate_up=torch.cat([mlp.gate_proj.weight, mlp.up_proj.weight]).t().contiguous(),
                down=mlp.down_proj.weight.t().contiguous(),
                norm_attn=layer.input_layernorm.weight,
                norm_mlp=layer.post_attention_layernorm.weight))
        self.keys: list[Any] = []  # per layer (b, Hkv, L, d)
        self.values: list[Any] = []
        self.bias: Any = None  # (b, L) 0 on real columns, -inf on prompt padding; None: none
        self.length = 0  # columns of the cache written so far
        self.cos: Any = None  # (C, d) rotary cos/sin per position, set by `prefill`
        self.sin: Any = None

    def _rms(self, x: Any, weight: Any) -> Any:
        """RMSNorm as transformers' Llama computes it: in float32, then back to the weight's
        dtype before the weight multiplies it."""
        import torch

        x32 = x.float()
        x32 = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
        return weight * x32.to(weight.dtype)

    def _qkv(self, layer: _Layer, h: Any, cos: Any, sin: Any) -> tuple[Any, Any, Any]:
        """h (b, T, D) -> q (b, Hq, T, d), k and v (b, Hkv, T, d), rotary applied to q and k."""
        b, T, _ = h.shape
        d, hq, hkv = self.head_dim, self.heads, self.kv_heads
        qkv = _mm(h, layer.qkv, layer.qkv_bias).view(b, T, hq + 2 * hkv, d)
        qk = _rope(qkv[:, :, :hq + hkv], cos[:, :, None], sin[:, :, None])  # (b, T, Hq+Hkv, d)
        q = qk[:, :, :hq].transpose(1, 2)  # (b, Hq, T, d), scaled
        k = qk[:, :, hq:].transpose(1, 2)  # (b, Hkv, T, d)
        v = qkv[:, :, hq + hkv:].transpose(1, 2)  # (b, Hkv, T, d)
        return q, k, v

    def _mlp(self, layer: _Layer, x: Any) -> Any:
        import torch.nn.functional as F

        h = self._rms(x, layer.norm_mlp)
        gate, up = _mm(h, layer.gate_up).chunk(2, dim=-1)  # (..., I) each
        return x + _mm(F.silu(gate) * up, layer.down)

    def prefill(self, input_ids: Any, mask: Any, positions: Any, capacity: int) -> Any:
        """Run the left-padded prompts (P, W) with their mask and positions; keep a cache with
        room for `capacity` columns. Returns the next-token logits (P, V)."""
        import torch
        import torch.nn.functional as F

        P, W = input_ids.shape
        x = F.embedding(input_ids, self.embed)  # (P, W, D)
        # positions stay below capacity: a prompt's last is at most W - 1
        cos, sin = self.rotary(x, torch.arange(capacity, device=x.device)[None])  # (1, C, d)
        self.cos, self.sin = cos[0], sin[0]  # (C, d): row p holds position p
        cos, sin = self.cos[positions], self.sin[positions]  # (P, W, d)
        padded = bool((mask == 0).any())
        attn_mask = None
        if padded:  # causal and not a padding key; a padding query sees itself (no NaN rows)
            causal = torch.ones(W, W, dtype=torch.bool, device=x.device).tril()
            allowed = causal & mask.bool()[:, None, :] | torch.eye(W, dtype=torch.bool,
                                                                    device=x.device)
            attn_mask = allowed[:, None]  # (P, 1, W, W)
        self.keys, self.values = [], []
        for layer in self.layers:
            q, k, v = self._qkv(layer, self._rms(x, layer.norm_attn), cos, sin)
            out = F.scaled_dot_product_attention(
                q, k, v, attn_mask=attn_mask, is_causal=attn_mask is None, scale=1.0,
                enable_gqa=self.kv_heads != self.heads)  # (P, Hq, W, d)
            x = x + _mm(out.transpose(1, 2).reshape(P, W, -1), layer.o)
            x = self._mlp(layer, x)
            cache_k = k.new_empty(P, self.kv_heads, capacity, self.head_dim)
            cache_v = torch.empty_like(cache_k)
            cache_k[:, :, :W], cache_v[:, :, :W] = k, v
            self.keys.append(cache_k)
            self.values.append(cache_v)
        self.length = W
        self.bias = None
        if padded:
            self.bias = torch.zeros(P, capacity, dtype=x.dtype, device=x.device)
            self.bias[:, :W].masked_fill_(mask == 0, float("-inf"))
        return self._logits(x[:, -1])

    def _logits(self, x: Any) -> Any:
        return _mm(self._rms(x, self.norm), self.lm_head)  # (b, V)

    def expand(self, n: int) -> None:
        """Each prompt's cache row becomes n consecutive rows (its n samples)."""
        self.keys = [k.repeat_interleave(n, 0) for k in self.keys]
        self.values = [v.repeat_interleave(n, 0) for v in self.values]
        if self.bias is not None:
            self.bias = self.bias.repeat_interleave(n, 0)

    def select(self, keep: Any) -> None:
        """Keep only the rows `keep` (b',), in that order (copying only written columns)."""
        def pick(cache: Any) -> Any:
            out = cache.new_empty(len(keep), *cache.shape[1:])
            out[:, :, :self.length] = cache[:, :, :self.length].index_select(0, keep)
            return out

        self.keys = [pick(k) for k in self.keys]
        self.values = [pick(v) for v in self.values]
        if self.bias is not None:
            self.bias = self.bias.index_select(0, keep)

    def step(self, token: Any, position: Any) -> Any:
        """One new token per row (b,) at its position (b,): append it to the cache and return
        the next-token logits (b, V)."""
        import torch.nn.functional as F

        b = token.shape[0]
        col, L = self.length, self.length + 1
        g, d = self.heads // self.kv_heads, self.head_dim
        x = F.embedding(token[:, None], self.embed)  # (b, 1, D)
        cos, sin = self.cos[position[:, None]], self.sin[position[:, None]]  # (b, 1, d)
        bias = None if self.bias is None else self.bias[:, None, None, :L]  # (b, 1, 1, L)
        for layer, keys, values in zip(self.layers, self.keys, self.values):
            q, k, v = self._qkv(layer, self._rms(x, layer.norm_attn), cos, sin)
            keys[:, :, col:L] = k  # (b, Hkv, 1, d)
            values[:, :, col:L] = v
            q = q.reshape(b, self.kv_heads, g, d)  # query heads grouped by their key head
            scores = q @ keys[:, :, :L].transpose(-1, -2)  # (b, Hkv, g, L), q is scaled
            if bias is not None:
                scores = scores + bias
            out = scores.softmax(-1) @ values[:, :, :L]  # (b, Hkv, g, d)
            x = x + _mm(out.reshape(b, 1, -1), layer.o)  # (b, 1, D)
            x = self._mlp(layer, x)
        self.length = L
        return self._logits(x[:, 0])


def _rope(x: Any, cos: Any, sin: Any) -> Any:
    """Rotary position embedding as transformers' Llama applies it (rotate_half form)."""
    import torch

    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return x * cos + rotated * sin
