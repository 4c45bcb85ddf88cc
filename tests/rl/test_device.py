"""The loops' `device` option: "auto" picks CUDA only when there is one, a bad or missing
device is a config error that names it, and both loops train and resume from a checkpoint on
the CPU and (when this machine has one) on a GPU."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

torch = pytest.importorskip("torch", reason="the RL loops need torch: pip install -e '.[train]'")

from rewards.errors import ConfigError
from rl._models import resolve_device

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(),
                                reason="no CUDA device on this machine: the GPU run of the "
                                       "loops is checked where there is one")


def test_auto_is_cuda_only_when_there_is_one():
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert resolve_device("auto").type == expected
    assert resolve_device("cpu") == torch.device("cpu")


@pytest.mark.parametrize("name, words", [("gpu0", "not a torch device"),
                                         ("cuda:0", "asks for CUDA")])
def test_bad_devices_are_config_errors_naming_the_device(name, words):
    if name.startswith("cuda") and torch.cuda.is_available():
        pytest.skip("this machine has CUDA: 'cuda:0' is a valid device here")
    with pytest.raises(ConfigError, match=words) as err:
        resolve_device(name)
    assert repr(name) in str(err.value)


def test_the_rollout_and_the_batch_follow_the_policy_device(toy_task):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rl._rollout import Group, TransformersRollout, collate, completion_log_probs

    device = resolve_device("auto")
    policy = AutoModelForCausalLM.from_pretrained(toy_task.model).to(device).eval()
    tokenizer = AutoTokenizer.from_pretrained(toy_task.model)
    ids = [tokenizer("What is 2 + 2?")["input_ids"], tokenizer("Hi")["input_ids"]]
    rollout = TransformersRollout(policy, tokenizer, record_logprobs=True)
    outputs = rollout.generate(ids, n=3, max_tokens=5, temperature=1.0, top_p=1.0)
    groups = [Group({"prompt": "p", "id": str(i)}, pid, [c for c, _ in g], [t for _, t in g], [])
              for i, (pid, g) in enumerate(zip(ids, outputs))]
    batch = collate(groups, tokenizer.pad_token_id).to(device)
    assert batch.input_ids.device.type == device.type
    with torch.no_grad():
        logps = completion_log_probs(policy, batch)
    assert logps.device.type == device.type
    for row, sampled in enumerate(rollout.sampled_logprobs):
        assert logps[row, :len(sampled)].tolist() == pytest.approx(sampled, abs=1e-4)


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=needs_cuda)])
@pytest.mark.parametrize("loop", ["grpo", "ppo"])
def test_both_loops_train_and_resume_on_the_device(toy_task, tmp_path, loop, device):
    import importlib

    module = importlib.import_module(f"rl.{loop}")
    config_class = module.GRPOConfig if loop == "grpo" else module.PPOConfig
    base = config_class(model=str(toy_task.model), reward_config=str(toy_task.reward_config),
                        prompts=str(toy_task.prompts), output_dir=str(tmp_path), steps=2,
                        prompts_per_step=4, num_generations=4, max_completion_tokens=4,
                        learning_rate=1e-3, progress=False, device=device, save_every=1)
    module.train(base)
    module.train(replace(base, steps=3, resume=True))
    rows = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2, 3]
    assert all(0.0 <= r["reward/mean"] <= 1.0 for r in rows)
