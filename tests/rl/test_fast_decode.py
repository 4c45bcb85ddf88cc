"""The fused decoder computes what the transformers forward computes (Llama with grouped or
full key/value heads, tied or untied embeddings, linear and Llama 3 RoPE scaling; Qwen2 with
q/k/v biases and YaRN; Mistral with a wide sliding window), on left-padded prompts; it
refuses the architectures it does not implement; and the rollout falls back to transformers
when the fused prefill disagrees."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="needs torch: pip install -e '.[train]'")

VOCAB = 97


def build(kind: str, **overrides):
    import transformers

    common = {"vocab_size": VOCAB, "hidden_size": 64, "intermediate_size": 96,
              "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
              "max_position_embeddings": 256, "rms_norm_eps": 1e-6, "initializer_range": 0.3,
              "pad_token_id": 0, "eos_token_id": 1, "bos_token_id": None}
    config_class, model_class = {
        "llama": (transformers.LlamaConfig, transformers.LlamaForCausalLM),
        "qwen2": (transformers.Qwen2Config, transformers.Qwen2ForCausalLM),
        "mistral": (transformers.MistralConfig, transformers.MistralForCausalLM),
    }[kind]
    torch.manual_seed(0)
    model = model_class(config_class(**{**common, **overrides})).eval()
    if kind == "qwen2":  # the biases start at zero: make them count
        with torch.no_grad():
            for layer in model.model.layers:
                for proj in (layer.self_attn.q_proj, layer.self_attn.k_proj,
                             layer.self_attn.v_proj):
                    proj.bias.normal_(0, 0.5)
    return model


MODELS = {
    "llama-gqa-tied": lambda: build("llama", tie_word_embeddings=True),
    "llama-mha-untied": lambda: build("llama", num_key_value_heads=4, tie_word_embeddings=False,
                                      rope_scaling={"rope_type": "linear", "factor": 2.0}),
    "llama-llama3-rope": lambda: build("llama", rope_scaling={
        "rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8}),
    "qwen2-bias": lambda: build("qwen2", tie_word_embeddings=False),
    "qwen2-yarn": lambda: build("qwen2", rope_scaling={
        "rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 8}),
    "mistral-wide-window": lambda: build("mistral", sliding_window=4096),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_prefill_and_decode_logits_equal_transformers(name):
    from rl._fast_decode import FusedDecoder, unsupported_reason

    model = MODELS[name]()
    assert unsupported_reason(model, 64) is None
    g = torch.Generator().manual_seed(1)
    prompts = torch.randint(2, VOCAB, (3, 7), generator=g)
    mask = torch.ones_like(prompts)
    mask[1, :3] = 0  # left padding
    mask[2, :6] = 0
    prompts[mask == 0] = 0
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    n, steps = 2, 5
    continuation = torch.randint(2, VOCAB, (3 * n, steps), generator=g)
    with torch.inference_mode():
        decoder = FusedDecoder(model)
        logits = [decoder.prefill(prompts, mask, positions, 7 + steps).repeat_interleave(n, 0)]
        decoder.expand(n)
        position = positions[:, -1].repeat_interleave(n, 0) + 1
        for t in range(steps - 1):
            logits.append(decoder.step(continuation[:, t], position + t))
        fused = torch.stack(logits, 1)  # (B, steps, V)
        full_ids = torch.cat([prompts.repeat_interleave(n, 0), continuation], 1)
        full_mask = torch.cat([mask.repeat_interleave(n, 0), torch.ones_like(continuation)], 1)
        expected = model(input_ids=full_ids, attention_mask=full_mask,
                         position_ids=(full_mask.cumsum(-1) - 1).clamp(min=0)).logits
    expected = expected[:, 6:6 + steps]  # the positions predicting continuation tokens 0..
    assert fused.shape == expected.shape
    # float32 noise of two implementations, |logits| <= 10: measured max |diff| 1.9e-5 over
    # these models x ISA {AVX-512, AVX2, default} (ATEN_CPU_CAPABILITY, MKL_ENABLE_INSTRUCTIONS,
    # ONEDNN_MAX_CPU_ISA), at most 0.09 of this tolerance (0.42 of the old atol 2e-5); the
    # rollout itself accepts 1e-4 * (1 + max |logit|), a wrong kernel is off by far more
    torch.testing.assert_close(fused, expected, atol=1e-4, rtol=1e-4)


def test_dropping_rows_keeps_the_others_exact():
    from rl._fast_decode import FusedDecoder

    model = MODELS["llama-gqa-tied"]()
    prompts = torch.randint(2, VOCAB, (3, 4), generator=torch.Generator().manual_seed(2))
    mask = torch.ones_like(prompts)
    positions = mask.cumsum(-1) - 1
    with torch.inference_mode():
        decoder = FusedDecoder(model)
        decoder.prefill(prompts, mask, positions, 8)
        decoder.step(torch.tensor([5, 6, 7]), torch.full((3,), 4))
        decoder.select(torch.tensor([2, 0]))
        logits = decoder.step(torch.tensor([8, 9]), torch.full((2,), 5))
        full = torch.cat([prompts, torch.tensor([[5, 9], [6, 0], [7, 8]])], 1)[[2, 0]]
        expected = model(input_ids=full).logits[:, -1]
    torch.testing.assert_close(logits, expected, atol=1e-4, rtol=1e-4)  # see the test above


@pytest.mark.parametrize("model, reason", [
    (lambda: build("llama", hidden_act="gelu"), "hidden_act"),
    (lambda: build("llama", attention_bias=True), "attention_bias"),
    (lambda: build("llama", mlp_bias=True), "mlp_bias"),
    (lambda: build("llama", rope_scaling={"rope_type": "dynamic", "factor": 2.0}), "dynamic"),
    (lambda: build("mistral", sliding_window=16), "sliding window 16"),
    (lambda: build("qwen2", use_sliding_window=True, sliding_window=8, max_window_layers=0),
     "sliding window"),
])
def test_unsupported_architectures_name_the_reason(model, reason):
    from rl._fast_decode import unsupported_reason

    assert reason in (unsupported_reason(model(), 64) or "")


def test_hooks_and_adapted_layers_are_refused():
    from rl._fast_decode import unsupported_reason

    model = build("llama")
    handle = model.model.layers[0].mlp.register_forward_hook(lambda *a: None)
    assert "hooks" in unsupported_reason(model, 64)
    handle.remove()

    class LoRALinear(torch.nn.Linear):
        pass

    layer = model.model.layers[1].self_attn
    old = layer.q_proj
    layer.q_proj = LoRALinear(old.in_features, old.out_features, bias=False)
    assert "nn.Linear" in unsupported_reason(model, 64)


def rollout_for(model, **kwargs):
    from types import SimpleNamespace

    from rl._rollout import TransformersRollout

    tokenizer = SimpleNamespace(pad_token_id=0, eos_token_id=1)
    return TransformersRollout(model, tokenizer, record_logprobs=True, **kwargs)


@pytest.mark.parametrize("name", ["llama-gqa-tied", "qwen2-bias"])
def test_rollout_samples_the_same_completions_fused_or_not(name):
    model = MODELS[name]()
    prompts = [[5, 6, 7, 8, 9], [10, 11], [12, 13, 14]]
    results = {}
    for fused in (True, False):
        rollout = rollout_for(model, fused=fused)
        torch.manual_seed(3)
        outputs = rollout.generate(prompts, n=4, max_tokens=12, temperature=1.0, top_p=0.95)
        assert rollout.decoder == ("fused" if fused else "transformers")
        results[fused] = (outputs, rollout.sampled_logprobs)
    assert results[True][0] == results[False][0]
    for a, b in zip(results[True][1], results[False][1]):
        assert a == pytest.approx(b, abs=1e-4)


def test_rollout_falls_back_when_the_fused_prefill_disagrees(monkeypatch):
    from rl import _fast_decode

    model = MODELS["llama-gqa-tied"]()
    real = _fast_decode.FusedDecoder.prefill

    def off_by_a_bit(self, *args):
        return real(self, *args) + 0.1

    monkeypatch.setattr(_fast_decode.FusedDecoder, "prefill", off_by_a_bit)
    rollout = rollout_for(model)
    torch.manual_seed(0)
    outputs = rollout.generate([[5, 6, 7]], n=2, max_tokens=4, temperature=1.0, top_p=1.0)
    assert rollout.decoder == "transformers"
    assert "differ from transformers" in rollout.fallback_reason
    assert len(outputs[0]) == 2 and not rollout.fused  # later calls skip the fused decoder


def test_rollout_uses_transformers_for_unsupported_models():
    model = build("llama", hidden_act="gelu")
    rollout = rollout_for(model)
    outputs = rollout.generate([[5, 6, 7]], n=2, max_tokens=3, temperature=1.0, top_p=1.0)
    assert rollout.decoder == "transformers" and "hidden_act" in rollout.fallback_reason
    assert [len(c) <= 3 for c, _ in outputs[0]] == [True, True]


def test_models_past_the_size_limit_are_refused(monkeypatch):
    from rl import _fast_decode

    model = build("llama")
    assert _fast_decode.unsupported_reason(model, 64) is None
    size = sum(p.numel() * p.element_size() for p in model.parameters())
    monkeypatch.setattr(_fast_decode, "_MAX_BYTES", size - 1)
    assert "GiB of weights" in _fast_decode.unsupported_reason(model, 64)
