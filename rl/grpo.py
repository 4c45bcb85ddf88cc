"""GRPO, top to bottom (Shao et al. 2024, DeepSeekMath, section 4.1; with DAPO's clip-higher,
token-mean loss, overlong shaping and dynamic sampling, and Dr. GRPO's unscaled advantages
and constant-length loss as options).

One step: draw `prompts_per_step` prompts, sample `num_generations` completions for each,
score them through the `Reward` built from the reward config, turn the rewards into group
advantages, then take `num_iterations` optimizer steps on the clipped surrogate (plus a k3
KL term to a frozen reference when `beta > 0`). Run it with
`rewards train grpo --config train.yaml`, or call `train(GRPOConfig(...))`.

Rollouts come from `rl._episodes.Rollouts`, the one rollout path PPO shares: with
`environment:` set a rollout is a multi-turn episode (the policy's turns are in the loss, the
environment's tokens are masked out), without it a single completion, an episode of one
step; the advantage is chosen by `advantage` (docs/environments.md).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from rewards.errors import ConfigError
from rewards.io import PromptRecord
from rewards.options import check_range
from rl._checkpoints import (
    save_checkpoint,
    save_final,
    seed_everything,
)
from rl._config import LoopConfig, prepare_output_dir
from rl._episodes import EpisodeGroup, per_turn_advantages
from rl._metrics import perf_metrics
from rl._models import load_causal_lm, require_torch, resolve_device
from rl._rollout import completion_log_probs
from rl._run import start_run
from rl._tracking import completion_rows
from rl.losses import aggregate, clipped_policy_loss, kl_k3

__all__ = ["GRPOConfig", "train"]


@dataclass(frozen=True)
class GRPOConfig(LoopConfig):
    """Everything a GRPO run reads (the `train.yaml` of `rewards train grpo`): the fields of
    `rl.LoopConfig`, which PPO shares, then GRPO's own."""

    output_dir: str = "runs/grpo"  # the shared fields: documented on LoopConfig
    prompts_per_step: int = 8
    num_generations: int = 8
    micro_batch_size: int = 0
    """Completions per forward/backward pass (gradients accumulate within a step); 0: all."""
    beta: float = 0.0
    """Weight of the k3 KL to the frozen initial policy; 0 loads no reference model."""
    scale_rewards: bool = True
    """Divide group advantages by the group's std (GRPO); false: Dr. GRPO."""
    num_iterations: int = 1
    """Optimizer steps per rollout batch (mu); > 1 reuses the rollout-time log-probs."""
    overlong_buffer: int = 0
    """DAPO soft overlong punishment: the last this-many tokens of the budget are penalized; 0 off."""
    overlong_penalty: float = 1.0
    """Reward subtracted at the full budget under the overlong punishment."""
    dynamic_sampling: bool = False
    """Drop groups with no reward spread and refill the batch (prompt_filter.DynamicSampler)."""
    dynamic_max_rounds: int = 3
    """Generation rounds allowed per batch under dynamic sampling."""
    advantage: Literal["trajectory", "per_turn"] = "trajectory"
    """The group-normalized trajectory return, or per-turn discounted returns with a
    leave-one-out baseline (rl._episodes; on single completions, one turn: RLOO)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.num_generations < 2:
            raise ConfigError("num_generations: must be >= 2, not "
                              f"{self.num_generations}: group advantages need a group")
        check_range("num_iterations", self.num_iterations, ge=1)
        if self.environment is not None and self.overlong_buffer > 0:
            raise ConfigError("overlong_buffer: shapes single completions; it does not apply "
                              "with an environment")


def train(cfg: GRPOConfig, *, on_step: Callable[[dict[str, Any]], None] | None = None) -> Path:
    """Run GRPO; returns the folder of the final policy. `on_step` sees each metrics row."""
    torch = require_torch()
    from tqdm import tqdm
    from transformers import AutoTokenizer

    from prompt_filter import DynamicSampler

    out = prepare_output_dir(cfg)
    seed_everything(cfg.seed)
    dtype = getattr(torch, cfg.dtype)
    device = resolve_device(cfg.device)

    # --- models, optimizer, reward, prompts ---------------------------------------------------
    tokenizer = AutoTokenizer.from_pretrained(cfg.model)
    policy = load_causal_lm(cfg.model, dtype=dtype, device=device)
    reference = load_causal_lm(cfg.model, dtype=dtype, device=device, frozen=True) \
        if cfg.beta > 0 else None
    # the fused AdamW kernel (CPU and CUDA) updates every tensor in one pass: ~4x faster than
    # the per-parameter loop on the CPU, the same update rule
    fused = all(p.device.type in ("cpu", "cuda") for p in policy.parameters())
    optimizer = torch.optim.AdamW(policy.parameters(), lr=cfg.learning_rate,
                                  weight_decay=cfg.weight_decay, fused=fused or None)
    run = start_run(cfg, out, policy, tokenizer, optimizer)
    reward, stream, generator, rollouts, log = (run.reward, run.stream, run.generator,
                                                run.rollouts, run.log)
    start = run.start
    step_seed = [0]  # vLLM samples with a per-step seed so a resumed run samples the same

    def rollout(rows: list[PromptRecord]) -> list[EpisodeGroup]:
        """G scored rollouts for each prompt (the overlong shaping on single completions)."""
        return rollouts.collect(rows, step=step_seed[0])

    sampler = DynamicSampler(stream, rollout, batch_size=cfg.prompts_per_step,
                             max_rounds=cfg.dynamic_max_rounds) if cfg.dynamic_sampling else None

    bar = tqdm(range(start, cfg.steps + 1), initial=start - 1, total=cfg.steps, unit="step",
               disable=not cfg.progress, file=sys.stderr, desc="grpo")
    for step in bar:
        t_step = time.perf_counter()
        step_seed[0] = step
        # --- 1. rollouts: prompts_per_step groups of G scored completions ----------------------
        metrics: dict[str, float] = {}
        if sampler is not None:
            dynamic = sampler.next_batch()
            groups = dynamic.groups
            metrics["dynamic/rounds"] = dynamic.rounds
            metrics["dynamic/dropped_groups"] = sum(dynamic.dropped.values())
            if not groups:  # every group had zero spread: nothing to learn from this step
                groups = rollout(stream.take(cfg.prompts_per_step))
        else:
            groups = rollout(stream.take(cfg.prompts_per_step))
        t_rollout = time.perf_counter() - t_step

        # --- 2. group advantages: (r - mean_group) / (std_group + eps), Dr. GRPO without std --
        rewards = [r for g in groups for r in g.rewards]  # N = groups * G
        group_ids = [gi for gi, g in enumerate(groups) for _ in g.rewards]
        normalized = step_advantages(rewards, group_ids, scale=cfg.scale_rewards,
                                     normalize=getattr(reward, "normalize", "none"))
        batch = rollouts.collate(groups).to(device)  # completion_mask: the policy's tokens
        advantages = torch.tensor([0.0 if a is None else a for a in normalized],
                                  device=device)  # (N,)
        if cfg.advantage == "per_turn":
            advantages = per_turn_advantages(groups, batch).to(device)  # (N, T)
        # a completion enters the loss unless its reward abstained or (option) it was truncated
        keep = torch.tensor([r is not None for r in rewards], dtype=torch.float32,
                            device=device)  # (N,)
        if cfg.mask_truncated:
            keep = keep * (~batch.truncated).float()  # (N,)
        loss_mask = batch.completion_mask * keep.unsqueeze(1)  # (N, T)

        # --- 3. log-probs under the rollout policy (if reused) and the reference -------------
        N = loss_mask.shape[0]
        # Without a KL term, a completion whose advantage is 0 (every completion of a group
        # with no reward spread) or whose tokens are all masked adds exactly 0 to the loss, its
        # gradient and its metrics: -min(r * 0, clip(r) * 0) = 0 whatever the ratio. Leaving
        # those rows out of the passes below changes no number and saves their compute.
        if reference is None:
            moving = advantages != 0 if advantages.dim() == 1 else (advantages != 0).any(1)
            active = (moving & (loss_mask.sum(1) > 0)).nonzero().squeeze(1)  # (n,)
        else:
            active = torch.arange(N, device=device)
        micro = cfg.micro_batch_size or N
        chunks = [active[i:i + micro] for i in range(0, len(active), micro)]
        old_logps = ref_logps = None
        with torch.no_grad():
            if cfg.num_iterations > 1:
                old_logps = _per_chunk(policy, batch, chunks, cfg.temperature)  # (N, T)
            if reference is not None:
                ref_logps = _per_chunk(reference, batch, chunks, cfg.temperature)  # (N, T)

        # --- 4. num_iterations optimizer steps on the clipped surrogate -----------------------
        t_train = time.perf_counter()
        total_tokens = loss_mask.sum().clamp(min=1.0)
        sums = {"loss/policy": 0.0, "kl": 0.0, "clip/fraction": 0.0, "grad_norm": 0.0}
        for _ in range(cfg.num_iterations):
            optimizer.zero_grad(set_to_none=True)
            for rows in chunks:
                mb = batch.rows(rows)
                T = mb.completion_ids.shape[1]
                mask = loss_mask[rows, :T]  # (n, T)
                logps = completion_log_probs(policy, mb, temperature=cfg.temperature)  # (n, T)
                old = logps.detach() if old_logps is None else old_logps[rows, :T]  # (n, T)
                per_token, clipped = clipped_policy_loss(
                    logps, old, advantages[rows] if advantages.dim() == 1
                    else advantages[rows, :T], epsilon=cfg.epsilon,
                    epsilon_high=cfg.epsilon_high)  # (n, T), (n, T)
                policy_part = per_token.detach()
                if ref_logps is not None:
                    kl = kl_k3(logps, ref_logps[rows, :T])  # (n, T)
                    per_token = per_token + cfg.beta * kl  # (n, T)
                    sums["kl"] += float((kl.detach() * mask).sum() / total_tokens)
                # the micro-batch's share of the full-batch aggregate
                share = (mask.sum() / total_tokens) if cfg.loss_aggregation == "token-mean" \
                    else (mask.shape[0] / N)
                loss = aggregate(per_token, mask, cfg.loss_aggregation,
                                 max_tokens=rollouts.budget) * share  # ()
                loss.backward()
                sums["loss/policy"] += float((policy_part * mask).sum() / total_tokens)
                sums["clip/fraction"] += float((clipped * mask).sum() / total_tokens)
            if not chunks:  # nothing to learn from: a zero gradient, as the full pass gives
                for p in policy.parameters():
                    p.grad = torch.zeros_like(p)
            if cfg.max_grad_norm > 0:
                norm = torch.nn.utils.clip_grad_norm_(policy.parameters(), cfg.max_grad_norm)
                sums["grad_norm"] += float(norm)
            optimizer.step()
        # the next rollout samples from the updated weights (a no-op for transformers, which
        # samples from the live module; vLLM gets them copied in)
        generator.sync(policy)
        t_train = time.perf_counter() - t_train

        # --- 5. metrics, checkpoint ----------------------------------------------------------
        metrics.update({
            **rollouts.metrics(groups, batch),
            **{k: v / cfg.num_iterations for k, v in sums.items()},
            **perf_metrics(t_step, rollout_seconds=t_rollout, train_seconds=t_train,
                           tokens=float(batch.lengths.sum()),
                           reward_wait=rollouts.pop_reward_wait()),
        })
        if reference is None:
            del metrics["kl"]
        row = log.log(step, metrics)
        if cfg.log_completions_every and step % cfg.log_completions_every == 0:
            log.log_table(step, completion_rows(step, groups, limit=cfg.log_completions_rows,
                                                advantages=normalized))
        bar.set_postfix(reward=f"{metrics['reward/mean']:.3f}")
        if on_step is not None:
            on_step(row)
        if (cfg.save_every and step % cfg.save_every == 0) or step == cfg.steps:
            save_checkpoint(out, step, policy=policy, tokenizer=tokenizer,
                            keep=cfg.keep_checkpoints,
                            state={"optimizer": optimizer.state_dict(),
                                   "trackers": log.tracker_state(),
                                   "prompts_drawn": stream.drawn})
    bar.close()
    final = save_final(out, policy=policy, tokenizer=tokenizer, log=log)
    log.close()  # finish the trackers' runs
    return final


def step_advantages(rewards: list[float | None], group_ids: list[int], *, scale: bool,
                    normalize: str) -> list[float | None]:
    """The step's group advantages: (r - group mean) / (group std + eps), without the std
    when not `scale` (Dr. GRPO); `None` (abstained) stays `None`. Under the reward config's
    `normalize: group_per_component` the rewards already are GDPO advantages (each component
    normalized in its group, the weighted sum normalized over the step's batch): normalizing
    the sum per group again would rescale each group by its own std and couple the
    components again, so they are used as they are."""
    from rewards.mixing import group_normalize

    if normalize == "group_per_component":
        return list(rewards)
    return group_normalize(rewards, group_ids, scale=scale)


def _per_chunk(model: Any, batch: Any, chunks: list[Any], temperature: float) -> Any:
    """Per-token log-probs (N, T) of the rows in `chunks` (index tensors), computed
    micro-batch by micro-batch and padded back to T; rows in no chunk stay 0."""
    import torch

    out = torch.zeros_like(batch.completion_mask)  # (N, T)
    for rows in chunks:
        logps = completion_log_probs(model, batch.rows(rows), temperature=temperature)  # (n, t)
        out[rows, :logps.shape[1]] = logps
    return out
