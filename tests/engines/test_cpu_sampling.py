"""Seeded sampling on vLLM's CPU platform. A batch whose prompts overflow one step's token
budget made vLLM prefill in chunks and rewind each seeded request's CPU generator, which it
cannot ("CPU Generator does not use offset"): `filter-prompts --policy --backend vllm` at its
defaults (32 prompts x 16 samples, seeded) killed the engine. Engines on the CPU platform run
without chunked prefill (`cpu_sampling_options`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rewards.engines._server import _cpu_sampling_args, _flag_values
from rewards.engines._vllm import cpu_sampling_options

BUDGET = 4096  # vLLM's CPU max_num_batched_tokens


def _on_cpu_platform() -> bool:
    pytest.importorskip("vllm", reason="vLLM is not installed")
    from vllm.platforms import current_platform

    return bool(current_platform.is_cpu())


def test_seeded_batch_beyond_one_step_generates(vllm_lm_engine: Any) -> None:
    # 32 prompts (filter-prompts' prompts_per_round) x n=16, each prompt over 128 tokens, so
    # even with the samples of a prompt sharing its prefix the batch needs several steps
    prompts = [f"Question {i}: " + "count the red apples and the green pears. " * 12
               for i in range(32)]
    lengths = [len(vllm_lm_engine.tokenize(p)) for p in prompts]
    assert min(lengths) > 128 and sum(lengths) > BUDGET
    out = vllm_lm_engine.generate(prompts, n=16, max_tokens=2, temperature=1.0, seed=0)
    assert len(out) == 32 and all(len(samples) == 16 for samples in out)
    # the seeds still decide the samples: the first prompt alone samples the same
    alone = vllm_lm_engine.generate(prompts[:1], n=16, max_tokens=2, temperature=1.0, seed=0)
    assert [g.token_ids for g in alone[0]] == [g.token_ids for g in out[0]]


def test_cpu_options_for_generation_only_and_never_over_the_callers(tiny_lm_dir: Path) -> None:
    if not _on_cpu_platform():
        assert cpu_sampling_options(str(tiny_lm_dir), "generate", {}) == {}
        return
    model = str(tiny_lm_dir)  # max_position_embeddings 1024
    assert cpu_sampling_options(model, "generate", {}) == {
        "enable_chunked_prefill": False, "max_num_batched_tokens": BUDGET}
    # the step budget holds the longest sequence
    assert cpu_sampling_options(model, "generate", {"max_model_len": 9000}) == {
        "enable_chunked_prefill": False, "max_num_batched_tokens": 9000}
    assert cpu_sampling_options(model, "generate", {"enable_chunked_prefill": True,
                                                    "max_num_batched_tokens": 64}) == {}
    assert cpu_sampling_options(model, "pooling", {}) == {}  # pooling does not sample


def test_server_flags(tiny_lm_dir: Path) -> None:
    assert _flag_values(["--max-model-len", "512", "--enforce-eager",
                         "--no-enable-chunked-prefill", "--dtype=float32"]) == {
        "max_model_len": "512", "enforce_eager": True, "enable_chunked_prefill": True,
        "dtype": "float32"}
    model = str(tiny_lm_dir)
    if not _on_cpu_platform():
        assert _cpu_sampling_args(model, "auto", []) == []
        return
    assert _cpu_sampling_args(model, "auto", ["--max-model-len", "8192"]) == [
        "--no-enable-chunked-prefill", "--max-num-batched-tokens", "8192"]
    assert _cpu_sampling_args(model, "auto", ["--enable-chunked-prefill"]) == []
    assert _cpu_sampling_args(model, "pooling", []) == []
