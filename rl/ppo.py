"""PPO for language models, top to bottom (Schulman et al. 2017; the RLHF recipe of Ouyang
et al. 2022, "InstructGPT", and Ziegler et al. 2019: a per-token KL penalty to the initial
policy in the reward, the reward model's score added at the last token, a learned critic,
GAE).

One step: sample completions, score them through the `Reward` built from the reward config,
build per-token rewards r_t = -kl_coef * (log pi - log pi_ref) (+ score at the last token),
compute values with the critic (the base model with a scalar value head) and advantages with
GAE, then run `ppo_epochs` passes of minibatch updates on the clipped policy loss and the
clipped value loss. Run it with `rewards train ppo --config train.yaml`, or call
`train(PPOConfig(...))`.

Rollouts come from `rl._episodes.Rollouts`, the one rollout path GRPO shares. With
`environment:` set, a rollout is a multi-turn episode: each turn's reward sits on its last
action token, the KL penalty, the values, GAE and both losses cover the policy's tokens only
(the environment's observation tokens are skipped: GAE chains from one action token to the
next, veRL's multi-turn recipe), and the environment's `discount` applies between turns.
Without it, a rollout is a single completion, an episode of one step.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rewards.options import check_range
from rl._checkpoints import (
    save_checkpoint,
    save_final,
    seed_everything,
)
from rl._config import LoopConfig, prepare_output_dir
from rl._metrics import perf_metrics
from rl._models import load_causal_lm, require_torch, resolve_device
from rl._rollout import completion_log_probs
from rl._run import start_run
from rl._tracking import completion_rows
from rl.losses import (
    aggregate,
    clipped_policy_loss,
    clipped_value_loss,
    gae,
    masked_mean,
    whiten,
)

__all__ = ["PPOConfig", "ValueModel", "train"]


@dataclass(frozen=True)
class PPOConfig(LoopConfig):
    """Everything a PPO run reads (the `train.yaml` of `rewards train ppo`): the fields of
    `rl.LoopConfig`, which GRPO shares, then PPO's own."""

    output_dir: str = "runs/ppo"  # the shared fields: documented on LoopConfig
    prompts_per_step: int = 16
    num_generations: int = 1
    critic_model: str | None = None
    """Backbone of the critic (a value head is added on top); None: the policy's folder."""
    critic_learning_rate: float = 1e-5
    """AdamW learning rate of the critic (constant)."""
    ppo_epochs: int = 4
    """Passes over each rollout batch."""
    mini_batch_size: int = 0
    """Completions per optimizer step within a pass; 0: the whole batch."""
    value_clip: float = 0.2
    """How far a value may move from its rollout-time value before the clipped loss takes over."""
    vf_coef: float = 0.5
    """Weight of the value loss in the total loss."""
    kl_coef: float = 0.05
    """Per-token KL penalty to the frozen initial policy in the reward; 0 loads no reference."""
    gamma: float = 1.0
    """Discount over tokens."""
    lam: float = 0.95
    """GAE lambda."""
    whiten_advantages: bool = True
    """Normalize advantages over the batch's tokens."""

    def __post_init__(self) -> None:
        super().__post_init__()
        check_range("num_generations", self.num_generations, ge=1)
        check_range("ppo_epochs", self.ppo_epochs, ge=1)


def _value_model_class() -> Any:
    import torch

    class ValueModel(torch.nn.Module):
        """The critic: a transformer backbone and a linear head giving one value per token."""

        def __init__(self, backbone: Any) -> None:
            super().__init__()
            self.backbone = backbone
            self.head = torch.nn.Linear(backbone.config.hidden_size, 1)
            torch.nn.init.zeros_(self.head.weight)  # start at V = 0: no bias before learning
            torch.nn.init.zeros_(self.head.bias)

        def forward(self, batch: Any) -> Any:
            """V(prompt, completion[:t]) for every completion token t: (N, T)."""
            T = batch.completion_ids.shape[1]
            position_ids = (batch.attention_mask.cumsum(-1) - 1).clamp(min=0)  # (N, P + T)
            hidden = self.backbone(input_ids=batch.input_ids, attention_mask=batch.attention_mask,
                                   position_ids=position_ids, use_cache=False).last_hidden_state
            states = hidden[:, -T - 1:-1]  # (N, T, H): the state before token t is generated
            return self.head(states.float()).squeeze(-1)  # (N, T)

    return ValueModel


def ValueModel(backbone: Any) -> Any:
    """The critic module (see `_value_model_class`) around a `transformers.AutoModel`."""
    return _value_model_class()(backbone)


def train(cfg: PPOConfig, *, on_step: Callable[[dict[str, Any]], None] | None = None) -> Path:
    """Run PPO; returns the folder of the final policy. `on_step` sees each metrics row."""
    torch = require_torch()
    from tqdm import tqdm
    from transformers import AutoModel, AutoTokenizer


    out = prepare_output_dir(cfg)
    seed_everything(cfg.seed)
    dtype = getattr(torch, cfg.dtype)
    device = resolve_device(cfg.device)

    # --- models, optimizer, reward, prompts ---------------------------------------------------
    tokenizer = AutoTokenizer.from_pretrained(cfg.model)
    policy = load_causal_lm(cfg.model, dtype=dtype, device=device)
    critic = ValueModel(AutoModel.from_pretrained(cfg.critic_model or cfg.model, dtype=dtype))
    critic.to(device).eval()  # eval: no dropout, so ratios compare the same function
    reference = load_causal_lm(cfg.model, dtype=dtype, device=device, frozen=True) \
        if cfg.kl_coef > 0 else None
    # fused AdamW (CPU and CUDA): one pass over all tensors, the same update rule as in grpo.py
    fused = all(p.device.type in ("cpu", "cuda")
                for p in (*policy.parameters(), *critic.parameters()))
    optimizer = torch.optim.AdamW(
        [{"params": list(policy.parameters()), "lr": cfg.learning_rate},
         {"params": list(critic.parameters()), "lr": cfg.critic_learning_rate}],
        weight_decay=cfg.weight_decay, fused=fused or None)
    run = start_run(cfg, out, policy, tokenizer, optimizer,
                    restore=lambda state: critic.load_state_dict(state["critic"]))
    stream, generator, rollouts, log = run.stream, run.generator, run.rollouts, run.log
    start = run.start

    bar = tqdm(range(start, cfg.steps + 1), initial=start - 1, total=cfg.steps, unit="step",
               disable=not cfg.progress, file=sys.stderr, desc="ppo")
    for step in bar:
        t_step = time.perf_counter()
        # --- 1. rollouts, scored (single completions or episodes) ---------------------------
        groups = rollouts.collect(stream.take(cfg.prompts_per_step), step=step)
        batch = rollouts.collate(groups).to(device)  # completion_mask: the policy's tokens
        t_rollout = time.perf_counter() - t_step

        rewards = [r for g in groups for r in g.rewards]  # N
        keep = torch.tensor([r is not None for r in rewards], dtype=torch.float32,
                            device=device)  # (N,)
        if cfg.mask_truncated:
            keep = keep * (~batch.truncated).float()  # (N,)
        mask = batch.completion_mask * keep.unsqueeze(1)  # (N, T)
        N = mask.shape[0]
        mb_size = cfg.mini_batch_size or N

        # --- 2. rollout-time log-probs, reference log-probs, values ---------------------------
        with torch.no_grad():
            old_logps = completion_log_probs(policy, batch, temperature=cfg.temperature)  # (N, T)
            old_values = critic(batch) * batch.completion_mask  # (N, T)
            kl = torch.zeros_like(old_logps)  # (N, T)
            if reference is not None:
                ref_logps = completion_log_probs(reference, batch, temperature=cfg.temperature)
                kl = (old_logps - ref_logps) * batch.completion_mask  # (N, T): k1 per token

        # --- 3. per-token rewards, GAE --------------------------------------------------------
        # r_t = -kl_coef * KL_t, plus each turn's reward on its last action token (a single
        # completion: its score on its last token); GAE skips the observation tokens
        T = batch.completion_ids.shape[1]
        token_rewards = -cfg.kl_coef * kl + rollouts.step_rewards(groups, T).to(device)  # (N, T)
        advantages, returns = gae(token_rewards, old_values, batch.completion_mask,
                                  gamma=cfg.gamma, lam=cfg.lam,
                                  discounts=rollouts.turn_discounts(groups, T).to(device))
        if cfg.whiten_advantages:
            advantages = whiten(advantages, mask)  # (N, T)

        # --- 4. ppo_epochs passes of minibatch updates ---------------------------------------
        t_train = time.perf_counter()
        sums = {"loss/policy": 0.0, "loss/value": 0.0, "clip/fraction": 0.0,
                "clip/value_fraction": 0.0, "grad_norm": 0.0}
        updates = 0
        for _ in range(cfg.ppo_epochs):
            order = torch.randperm(N, device=device)
            for at in range(0, N, mb_size):
                idx = order[at:at + mb_size]
                mb = batch.rows(idx)
                t = mb.completion_ids.shape[1]
                m = mask[idx, :t]  # (n, t)
                logps = completion_log_probs(policy, mb, temperature=cfg.temperature)  # (n, t)
                per_token, clipped = clipped_policy_loss(
                    logps, old_logps[idx, :t], advantages[idx, :t], epsilon=cfg.epsilon,
                    epsilon_high=cfg.epsilon_high)  # (n, t), (n, t)
                values = critic(mb)  # (n, t)
                value_loss, value_clipped = clipped_value_loss(
                    values, old_values[idx, :t], returns[idx, :t], clip=cfg.value_clip)  # (n, t)
                policy_loss = aggregate(per_token, m, cfg.loss_aggregation,
                                        max_tokens=rollouts.budget)  # ()
                value_term = aggregate(value_loss, m, cfg.loss_aggregation,
                                       max_tokens=rollouts.budget)  # ()
                optimizer.zero_grad(set_to_none=True)
                (policy_loss + cfg.vf_coef * value_term).backward()
                if cfg.max_grad_norm > 0:
                    norm = torch.nn.utils.clip_grad_norm_(
                        [*policy.parameters(), *critic.parameters()], cfg.max_grad_norm)
                    sums["grad_norm"] += float(norm)
                optimizer.step()
                updates += 1
                sums["loss/policy"] += float(policy_loss.detach())
                sums["loss/value"] += float(value_term.detach())
                sums["clip/fraction"] += float(masked_mean(clipped, m))
                sums["clip/value_fraction"] += float(masked_mean(value_clipped, m))
        generator.sync(policy)
        t_train = time.perf_counter() - t_train

        # --- 5. metrics, checkpoint ----------------------------------------------------------
        metrics = {
            **rollouts.metrics(groups, batch),
            **{k: v / updates for k, v in sums.items()},
            "value/mean": float(masked_mean(old_values, batch.completion_mask)),
            "value/return_mean": float(masked_mean(returns, batch.completion_mask)),
            **perf_metrics(t_step, rollout_seconds=t_rollout, train_seconds=t_train,
                           tokens=float(batch.lengths.sum()),
                           reward_wait=rollouts.pop_reward_wait()),
        }
        if reference is not None:  # the summed per-token KL of a completion, averaged
            metrics["kl"] = float((kl * batch.completion_mask).sum(1).mean())
        row = log.log(step, metrics)
        if cfg.log_completions_every and step % cfg.log_completions_every == 0:
            log.log_table(step, completion_rows(step, groups, limit=cfg.log_completions_rows))
        bar.set_postfix(reward=f"{metrics['reward/mean']:.3f}")
        if on_step is not None:
            on_step(row)
        if (cfg.save_every and step % cfg.save_every == 0) or step == cfg.steps:
            save_checkpoint(out, step, policy=policy, tokenizer=tokenizer,
                            keep=cfg.keep_checkpoints,
                            state={"optimizer": optimizer.state_dict(),
                                   "trackers": log.tracker_state(),
                                   "critic": critic.state_dict(),
                                   "prompts_drawn": stream.drawn})
    bar.close()
    torch.save(critic.state_dict(), out / "critic.pt")
    final = save_final(out, policy=policy, tokenizer=tokenizer, log=log)
    log.close()  # finish the trackers' runs
    return final

