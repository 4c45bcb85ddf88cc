"""vLLM offline and vLLM server against transformers, on the same tiny model: the same tokens
in, the same log-probs out (within float tolerance)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rewards.engines import Engine, TransformersEngine, VLLMServerEngine
from rewards.errors import EngineError

torch = pytest.importorskip("torch", reason="pip install -e '.[train]'")

TOL = 2e-3  # float32 everywhere; different kernels and batch shapes
PROMPTS: list[Any] = [
    "Which response is better? Answer",
    [{"role": "user", "content": "Compare A and B. Which is better?"}],
    "def add(a, b):\n    return",
]
CANDIDATES = ["A", " A", "B", " B", " the"]


@pytest.fixture(scope="module")
def hf(tiny_lm_dir: Path) -> TransformersEngine:
    return TransformersEngine(str(tiny_lm_dir))


@pytest.fixture(scope="module")
def server(vllm_server_url: str) -> VLLMServerEngine:
    return VLLMServerEngine(vllm_server_url)


@pytest.fixture(params=["offline", "server"])
def vllm_backend(request: pytest.FixtureRequest, vllm_lm_engine: Engine,
                 server: VLLMServerEngine) -> Engine:
    # Both named statically: the session fixtures are released after their last static user.
    return vllm_lm_engine if request.param == "offline" else server


def test_same_tokens_as_transformers(vllm_backend: Engine, hf: TransformersEngine) -> None:
    assert isinstance(vllm_backend, Engine)
    for prompt in PROMPTS:
        assert vllm_backend.tokenize(prompt) == hf.tokenize(prompt)
    assert vllm_backend.tokenize(" A", add_special_tokens=False) == \
        hf.tokenize(" A", add_special_tokens=False)


def test_next_token_logprobs_agree(vllm_backend: Engine, hf: TransformersEngine) -> None:
    got = vllm_backend.next_token_logprobs(PROMPTS, CANDIDATES)
    want = hf.next_token_logprobs(PROMPTS, CANDIDATES)
    for g, w in zip(got, want):
        assert list(g) == CANDIDATES
        assert [g[c] for c in CANDIDATES] == pytest.approx([w[c] for c in CANDIDATES], abs=TOL)
    # The values spread over several nats: agreement is not two flat distributions matching.
    values = [v for row in want for v in row.values()]
    assert max(values) - min(values) > 1.0


def test_greedy_generation_agrees(vllm_backend: Engine, hf: TransformersEngine) -> None:
    got = vllm_backend.generate(PROMPTS, max_tokens=12, temperature=0.0, logprobs=True)
    want = hf.generate(PROMPTS, max_tokens=12, temperature=0.0, logprobs=True)
    for g, w in zip(got, want):
        assert g[0].token_ids == w[0].token_ids
        assert g[0].text == w[0].text
        assert g[0].finish_reason == w[0].finish_reason
        assert g[0].logprobs == pytest.approx(w[0].logprobs, abs=TOL)


def test_sampled_logprobs_are_the_models(vllm_backend: Engine, hf: TransformersEngine) -> None:
    """Sampling at temperature 1.5 still reports the model's raw log-probs of the drawn tokens,
    as transformers computes them for the same tokens in one forward pass."""
    out = vllm_backend.generate(PROMPTS[:2], n=2, max_tokens=10, temperature=1.5, seed=11,
                                logprobs=True)
    for prompt, group in zip(PROMPTS[:2], out):
        assert len(group) == 2
        ids = hf.tokenize(prompt)
        for g in group:
            assert g.logprobs is not None and len(g.logprobs) == len(g.token_ids)
            with torch.inference_mode():
                logits = hf.net(input_ids=torch.tensor([ids + list(g.token_ids)])).logits[0]
            table = torch.log_softmax(logits.float(), dim=-1)
            expected = [float(table[len(ids) - 1 + k, t]) for k, t in enumerate(g.token_ids)]
            assert g.logprobs == pytest.approx(expected, abs=TOL)


def test_offline_and_server_sample_alike_with_a_seed(vllm_lm_engine: Engine,
                                                     server: VLLMServerEngine) -> None:
    offline = vllm_lm_engine.generate(PROMPTS, n=2, max_tokens=8, temperature=1.0, seed=5)
    served = server.generate(PROMPTS, n=2, max_tokens=8, temperature=1.0, seed=5)
    assert [[g.token_ids for g in group] for group in offline] == \
        [[g.token_ids for g in group] for group in served]
    again = server.generate(PROMPTS, n=2, max_tokens=8, temperature=1.0, seed=6)
    assert again != served


def test_server_error_answer_names_the_url(server: VLLMServerEngine) -> None:
    """A generate server asked for classification answers with an error status."""
    with pytest.raises(EngineError, match=f"vLLM server at {server.url} answered HTTP"):
        server.sequence_scores(["hello"])


def test_offline_engine_checks_its_runner(vllm_lm_engine: Engine) -> None:
    with pytest.raises(EngineError, match="runner='pooling'"):
        vllm_lm_engine.sequence_scores(["hello"])


def test_vllm_leaves_no_preload_for_later_subprocesses(vllm_lm_engine: Engine) -> None:
    """vLLM's CPU platform sets LD_PRELOAD for its workers; the engine puts it back, so later
    subprocesses (sandboxed programs, workers) do not inherit tcmalloc."""
    import os

    assert "libtcmalloc" not in os.environ.get("LD_PRELOAD", "")
