"""The transformers backend on a tiny local model: the reference the vLLM backends are held to."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rewards.engines import (
    Engine,
    Generation,
    TransformersEngine,
    load_engine,
    resolve_backend,
)
from rewards.errors import ConfigError, EngineError

pytest.importorskip("transformers", reason="pip install -e '.[train]'")
torch = pytest.importorskip("torch", reason="pip install -e '.[train]'")

CHAT = [{"role": "user", "content": "What is 2 + 3?"}]


@pytest.fixture(scope="module")
def lm(tiny_lm_dir: Path) -> TransformersEngine:
    engine = load_engine(str(tiny_lm_dir), backend="transformers")
    assert isinstance(engine, TransformersEngine)
    return engine


@pytest.fixture(scope="module")
def rm(tiny_rm_dir: Path) -> TransformersEngine:
    return TransformersEngine(str(tiny_rm_dir))


def full_logprobs(engine: TransformersEngine, ids: list[int]) -> torch.Tensor:
    """Log-softmax at every position from one unpadded forward pass: (T, V)."""
    with torch.inference_mode():
        logits = engine.net(input_ids=torch.tensor([ids])).logits[0]
    return torch.log_softmax(logits.float(), dim=-1)


def test_is_an_engine(lm: TransformersEngine) -> None:
    assert isinstance(lm, Engine)
    assert lm.task == "generate"


def test_generate_shapes_and_finish_reasons(lm: TransformersEngine) -> None:
    out = lm.generate(["The answer is", CHAT], n=3, max_tokens=6, temperature=1.0, seed=0,
                      logprobs=True)
    assert [len(group) for group in out] == [3, 3]
    for group in out:
        for g in group:
            assert isinstance(g, Generation)
            assert len(g.token_ids) in range(1, 7)
            assert g.logprobs is not None and len(g.logprobs) == len(g.token_ids)
            assert all(lp <= 0 for lp in g.logprobs)
            ended_on_eos = g.token_ids[-1] in lm.eos_ids
            assert g.finish_reason == ("stop" if ended_on_eos else "length")
            if g.finish_reason == "length":
                assert len(g.token_ids) == 6
    assert out[0][0].logprobs is not None
    assert lm.generate(["x"], max_tokens=2)[0][0].logprobs is None


def test_generation_logprobs_equal_a_fresh_forward_pass(lm: TransformersEngine) -> None:
    """The sampled tokens' log-probs are the model's raw distribution at each step, as a
    single unpadded forward pass over prompt + completion computes them (the batch here is
    left-padded: two prompts of different lengths)."""
    prompts = ["The answer is", "Compute 3 times 4. So the answer is"]
    out = lm.generate(prompts, n=2, max_tokens=8, temperature=1.3, seed=7, logprobs=True)
    for prompt, group in zip(prompts, out):
        ids = lm.tokenize(prompt)
        for g in group:
            table = full_logprobs(lm, ids + list(g.token_ids))
            expected = [float(table[len(ids) - 1 + k, t]) for k, t in enumerate(g.token_ids)]
            assert g.logprobs == pytest.approx(expected, abs=1e-4)


def test_greedy_is_deterministic_and_seeds_reproduce(lm: TransformersEngine) -> None:
    greedy = lm.generate(["Hello!"], n=2, max_tokens=10, temperature=0.0)[0]
    assert greedy[0].token_ids == greedy[1].token_ids
    table = full_logprobs(lm, lm.tokenize("Hello!"))
    assert greedy[0].token_ids[0] == int(table[-1].argmax())
    a = lm.generate(["Hello!"], n=4, max_tokens=10, temperature=1.0, seed=3)
    b = lm.generate(["Hello!"], n=4, max_tokens=10, temperature=1.0, seed=3)
    c = lm.generate(["Hello!"], n=4, max_tokens=10, temperature=1.0, seed=4)
    assert a == b
    assert [g.token_ids for g in a[0]] != [g.token_ids for g in c[0]]


def test_tiny_top_p_is_greedy(lm: TransformersEngine) -> None:
    greedy = lm.generate(["The quick brown"], max_tokens=8, temperature=0.0)[0][0]
    nucleus = lm.generate(["The quick brown"], max_tokens=8, temperature=1.0, top_p=1e-6,
                          seed=1)[0][0]
    assert nucleus.token_ids == greedy.token_ids


# A padded batch runs other float32 kernels than a single prompt: measured up to 3e-6 apart
# (0.31 of the old 1e-5) over ISA {AVX-512, AVX2, default} (ATEN_CPU_CAPABILITY,
# MKL_ENABLE_INSTRUCTIONS, ONEDNN_MAX_CPU_ISA); a padding or position bug moves them far more.
BATCH_TOL = 5e-5


def test_next_token_logprobs_match_forward_pass_and_batching(lm: TransformersEngine) -> None:
    prompts = ["Which response is better? Answer", CHAT, "Verdict: ["]
    cands = [" A", " B", "A", "B"]
    batch = lm.next_token_logprobs(prompts, cands)
    for prompt, row in zip(prompts, batch):
        ids = lm.tokenize(prompt)
        table = full_logprobs(lm, ids)
        cand_ids = [lm.tokenize(c, add_special_tokens=False)[0] for c in cands]
        assert [row[c] for c in cands] == pytest.approx(
            [float(table[-1, i]) for i in cand_ids], abs=BATCH_TOL)
        assert lm.next_token_logprobs([prompt], cands)[0] == pytest.approx(row, abs=BATCH_TOL)
    total = sum(math.exp(v) for v in batch[0].values())
    assert 0 < total < 1


def test_multi_token_candidate_is_a_config_error(lm: TransformersEngine) -> None:
    with pytest.raises(ConfigError, match="not one"):
        lm.next_token_logprobs(["x"], ["A", "Zebra-quux"])


def test_chat_tokenization_follows_the_template(lm: TransformersEngine) -> None:
    template = lm.tokenizer.apply_chat_template(CHAT, tokenize=False, add_generation_prompt=True)
    assert lm.tokenize(CHAT) == lm.tokenizer.encode(template, add_special_tokens=False)
    done = [*CHAT, {"role": "assistant", "content": "5"}]
    rendered = lm.tokenizer.decode(lm.tokenize(done))
    assert rendered.endswith("5<|im_end|>\n")  # complete: no new assistant turn opened
    assert lm.tokenize([1, 2, 3]) == [1, 2, 3]


def test_sequence_scores_batch_equals_single(rm: TransformersEngine) -> None:
    texts = ["short", "a somewhat longer text to pad against", CHAT]
    batch = rm.sequence_scores(texts)
    single = [rm.sequence_scores([t])[0] for t in texts]
    assert batch == pytest.approx(single, abs=BATCH_TOL)
    assert len({round(x, 6) for x in batch}) == 3


def test_wrong_task_raises_engine_error(lm: TransformersEngine, rm: TransformersEngine) -> None:
    with pytest.raises(EngineError, match="sequence-classification"):
        lm.sequence_scores(["x"])
    with pytest.raises(EngineError, match="causal LM"):
        rm.generate(["x"])


def test_bad_sampling_options_are_config_errors(lm: TransformersEngine) -> None:
    with pytest.raises(ConfigError):
        lm.generate(["x"], n=0)
    with pytest.raises(ConfigError):
        lm.generate(["x"], top_p=0.0)


def test_missing_model_is_a_config_error_and_a_broken_one_an_engine_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such model folder"):  # before any hub lookup
        TransformersEngine(str(tmp_path / "nope"))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text("{}")
    with pytest.raises(EngineError, match="cannot load"):
        TransformersEngine(str(broken))


def test_backend_resolution() -> None:
    assert resolve_backend("http://127.0.0.1:8000") == "vllm-server"
    assert resolve_backend("some/model", "vllm") == "vllm"
    if not torch.cuda.is_available():
        assert resolve_backend("some/model") == "transformers"
    with pytest.raises(ConfigError, match="unknown engine backend"):
        resolve_backend("m", "tensorrt")  # type: ignore[arg-type]
