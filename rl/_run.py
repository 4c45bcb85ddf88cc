"""What every built-in loop sets up before its first step, in one place: the reward built from
the reward config, the prompt stream, the resume from the output folder's latest checkpoint
(the optimizer's state, the prompts already drawn, the next step), the metrics log and its
trackers, and the one rollout path (`rl._episodes.Rollouts`). GRPO and PPO differ only in
what else a checkpoint holds (PPO's critic), which `restore` loads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rl._checkpoints import latest_checkpoint, load_checkpoint
from rl._episodes import Rollouts
from rl._metrics import MetricsLog
from rl._prompts import PromptStream, read_prompts
from rl._rollout import make_rollout
from rl._tracking import open_trackers


@dataclass
class Run:
    """A loop's state at its first step (`start`: 1, or the step after the resumed one)."""

    reward: Any
    stream: PromptStream
    generator: Any
    rollouts: Rollouts
    log: MetricsLog
    start: int = 1
    state: dict[str, Any] = field(default_factory=dict)


def start_run(cfg: Any, out: Path, policy: Any, tokenizer: Any, optimizer: Any,
              restore: Callable[[dict[str, Any]], None] | None = None) -> Run:
    """Build the reward, the prompt stream, the log and the rollouts for `cfg`; resumed from
    the latest checkpoint in `out` when `cfg.resume` (the policy's weights, the optimizer, the
    prompt stream's position and the trackers' runs; `restore` loads what else the loop keeps
    in a checkpoint's state)."""
    from rewards.build import build_reward  # the reward's own imports, at the run's start

    reward = build_reward(cfg.reward_config)
    stream = PromptStream(read_prompts(cfg.prompts), seed=cfg.seed, curriculum=cfg.curriculum)
    start, state = 1, {}
    checkpoint = latest_checkpoint(out) if cfg.resume else None
    if checkpoint is not None:
        state = load_checkpoint(checkpoint, policy=policy)
        if restore is not None:
            restore(state)
        optimizer.load_state_dict(state["optimizer"])
        stream.skip(state["prompts_drawn"])
        start = state["step"] + 1
    # metrics.jsonl, completions.jsonl, the reward curve and the report_to trackers
    log = MetricsLog(out / "metrics.jsonl", resume_step=start - 1, plot_every=cfg.plot_every,
                     trackers=open_trackers(cfg, out, resume_step=start - 1,
                                            saved=state.get("trackers")))
    generator = make_rollout(cfg, policy, tokenizer, resumed=checkpoint is not None)
    # the one rollout path: episodes with an environment, single completions without
    rollouts = Rollouts(cfg, generator, tokenizer, reward)
    return Run(reward, stream, generator, rollouts, log, start, state)
