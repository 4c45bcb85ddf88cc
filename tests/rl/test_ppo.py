"""PPO end to end on the toy task: it learns and it resumes exactly."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

torch = pytest.importorskip("torch", reason="the RL loops need torch: pip install -e '.[train]'")

from rl.ppo import PPOConfig, ValueModel, train


def config(toy, out, **changes) -> PPOConfig:
    base = PPOConfig(model=str(toy.model), reward_config=str(toy.reward_config),
                     prompts=str(toy.prompts), output_dir=str(out), steps=2, prompts_per_step=8,
                     num_generations=4, max_completion_tokens=4, learning_rate=1e-3,
                     critic_learning_rate=1e-3, kl_coef=0.01, ppo_epochs=2, mini_batch_size=16,
                     progress=False)
    return replace(base, **changes)


def metrics(out) -> list[dict]:
    return [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]


def test_ppo_learns_the_toy_task(toy_task, tmp_path):
    """Learning is judged against the baseline of the same run (step 1 samples the untrained
    policy), with thresholds far inside the spread across CPUs: kernels take other float paths
    by ISA (AMD or Intel, AVX2 or AVX-512), and 20 sampled steps amplify the difference.
    Measured on this config, seeds 0-9 x ISA {AVX-512, AVX2, default} (ATEN_CPU_CAPABILITY,
    MKL_ENABLE_INSTRUCTIONS, ONEDNN_MAX_CPU_ISA), 1 thread (2 threads gave the same curves),
    30 runs: step-1 reward 0.06-0.16; last-4 mean min 0.906, median 0.969, sd 0.024; gain
    over step 1 min 0.75, median 0.87, sd 0.05; last value/mean min 0.77, median 0.90. At the
    old learning rate (1e-3) the last-4 mean fell to 0.672 (median 0.85, sd 0.09) and 8 of 30
    runs missed the old threshold of 0.8 (an AMD EPYC CI saw 0.758)."""
    train(config(toy_task, tmp_path, steps=20, learning_rate=2e-3))
    rows = metrics(tmp_path)
    curve = [r["reward/mean"] for r in rows]
    start, end = curve[0], sum(curve[-4:]) / 4
    # 32 samples at a hit rate of 0.1: P(12+ hits) = 3e-5 (the old bound 0.2: P(7+) = 0.04)
    assert start < 0.35, curve
    assert end - start > 0.5, curve
    assert end > 0.7, curve
    assert {"reward/mean", "loss/policy", "loss/value", "kl", "value/mean", "clip/fraction",
            "clip/value_fraction", "perf/step_seconds", "time/reward_wait",
            "time/reward_wait_share"} <= set(rows[0])
    # the policy starts as the reference: k1 KL summed over 4 tokens, float32 noise only
    # (measured up to 2.1e-7 on AVX2 and the default ISA, 0.21 of the old 1e-6)
    assert rows[0]["kl"] == pytest.approx(0.0, abs=1e-5)
    # the critic learned to expect the reward it now gets (measured: min 0.77, see above)
    assert rows[-1]["value/mean"] > 0.5
    assert (tmp_path / "critic.pt").exists()
    assert (tmp_path / "reward_curve.png").read_bytes()[:4] == b"\x89PNG"


def test_ppo_resume_continues_with_the_same_metrics(toy_task, tmp_path):
    straight, resumed = tmp_path / "straight", tmp_path / "resumed"
    train(config(toy_task, straight, steps=4, save_every=2))
    train(config(toy_task, resumed, steps=2))
    train(config(toy_task, resumed, steps=4, resume=True))
    a, b = metrics(straight), metrics(resumed)
    assert [r["step"] for r in b] == [1, 2, 3, 4]
    drop = ("perf/", "time/")  # the timings
    for ra, rb in zip(a, b):
        ra = {k: v for k, v in ra.items() if not k.startswith(drop)}
        rb = {k: v for k, v in rb.items() if not k.startswith(drop)}
        assert rb == pytest.approx(ra, rel=1e-5, abs=1e-7)


def test_value_model_reads_the_state_before_each_completion_token(tiny_lm_dir):
    """V_t is read at the position whose hidden state precedes completion token t, so it
    does not depend on token t itself or anything after it."""
    from transformers import AutoModel

    from rl._rollout import Group, collate

    critic = ValueModel(AutoModel.from_pretrained(tiny_lm_dir))
    torch.nn.init.normal_(critic.head.weight)
    a = Group({"prompt": "", "id": "a"}, [5, 6, 7], [[10, 11, 12]], [False], [""])
    b = Group({"prompt": "", "id": "b"}, [5, 6, 7], [[10, 30, 31]], [False], [""])
    with torch.no_grad():
        va = critic(collate([a], 0))[0]
        vb = critic(collate([b], 0))[0]
    assert va[0] == pytest.approx(float(vb[0]), abs=1e-6)  # same prompt: same V_0
    assert va[1] == pytest.approx(float(vb[1]), abs=1e-6)  # V_1 sees token 10 only
    assert abs(float(va[2] - vb[2])) > 1e-6  # V_2 sees token 11 vs 30
