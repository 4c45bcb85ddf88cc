"""Session-wide fixtures shared by every test area: tiny local models, one vLLM engine of each
kind and one vLLM server per test session (each costs 30-170 s and ~2.5 GB to start)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")  # GiB; vLLM CPU start-up fails without it


@pytest.fixture(scope="session")
def tiny_lm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random-weight Llama causal LM with its tokenizer (HF format, loads in vLLM)."""
    pytest.importorskip("transformers", reason="tiny models need transformers: "
                        "pip install 'rewards-engine[train]'")
    from rewards.tiny import build_tiny_causal_lm

    return build_tiny_causal_lm(tmp_path_factory.mktemp("tiny_lm"), seed=0)


@pytest.fixture(scope="session")
def tiny_rm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random-weight Llama sequence classifier (one scalar output) with its tokenizer."""
    pytest.importorskip("transformers", reason="tiny models need transformers: "
                        "pip install 'rewards-engine[train]'")
    from rewards.tiny import build_tiny_reward_model

    return build_tiny_reward_model(tmp_path_factory.mktemp("tiny_rm"), seed=0)
