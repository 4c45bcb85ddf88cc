"""The transformers rollout samples from exactly the distribution the loss computes log-probs
of, shares each prompt's prefill among its samples, and ends completions at EOS."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="needs torch: pip install 'rewards-engine[train]'")


@pytest.fixture(scope="module")
def policy_and_tokenizer(tiny_lm_dir):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    return (AutoModelForCausalLM.from_pretrained(tiny_lm_dir).eval(),
            AutoTokenizer.from_pretrained(tiny_lm_dir))


PROMPTS = ["What is 1 + 1?", "Compute the sum of 17 and 25, then tell me the answer.", "Hi"]


def encode(tokenizer):
    return [tokenizer(p)["input_ids"] for p in PROMPTS]


def test_sampling_log_probs_equal_the_loss_log_probs(policy_and_tokenizer):
    from rl._rollout import Group, TransformersRollout, collate, completion_log_probs

    policy, tokenizer = policy_and_tokenizer
    rollout = TransformersRollout(policy, tokenizer, record_logprobs=True)
    # make a frequent token count as EOS so that rows finish at different times and leave
    # the batch mid-generation
    torch.manual_seed(0)
    ids = encode(tokenizer)
    rollout.eos_ids = [0]
    probe = rollout.generate(ids, n=4, max_tokens=8, temperature=0.7, top_p=1.0)
    common = max(range(len(tokenizer)), key=lambda t: sum(c.count(t) for g in probe
                                                           for c, _ in g))
    rollout.eos_ids = [common]
    torch.manual_seed(1)
    outputs = rollout.generate(ids, n=4, max_tokens=8, temperature=0.7, top_p=1.0)
    finished = [(c, trunc) for g in outputs for c, trunc in g]
    assert any(not t for _, t in finished) and any(t for _, t in finished)
    for c, trunc in finished:
        assert (c[-1] == common) != trunc
        assert common not in c[:-1] and len(c) <= 8
    groups = [Group({"prompt": p, "id": str(i)}, pid, [c for c, _ in g], [t for _, t in g], [])
              for i, (p, pid, g) in enumerate(zip(PROMPTS, ids, outputs))]
    batch = collate(groups, tokenizer.pad_token_id)
    with torch.no_grad():
        loss_logps = completion_log_probs(policy, batch, temperature=0.7)
    for row, sampled in enumerate(rollout.sampled_logprobs):
        n = len(sampled)
        assert loss_logps[row, :n].tolist() == pytest.approx(sampled, abs=1e-4)


def test_tiny_top_p_is_greedy(policy_and_tokenizer):
    from rl._rollout import TransformersRollout

    policy, tokenizer = policy_and_tokenizer
    ids = encode(tokenizer)
    rollout = TransformersRollout(policy, tokenizer)
    rollout.eos_ids = [-1]  # never stop: compare full-length continuations
    sampled = rollout.generate(ids, n=2, max_tokens=5, temperature=1.0, top_p=1e-6)
    for pid, group in zip(ids, sampled):
        greedy = policy.generate(torch.tensor([pid]), do_sample=False, max_new_tokens=5,
                                 min_new_tokens=5, pad_token_id=tokenizer.pad_token_id)
        expected = greedy[0, len(pid):].tolist()
        assert [c for c, _ in group] == [expected, expected]
