"""`rewards train grpo|ppo --config train.yaml`: run the built-in GRPO or PPO loop.

The train config is YAML with the fields of `rl.GRPOConfig` / `rl.PPOConfig` (relative paths
are relative to the config file); `--set key=value` overrides a field, `--resume` continues
from the newest checkpoint in the output folder."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("train", help="train a policy with the built-in GRPO or PPO loop",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("algorithm", choices=("grpo", "ppo"), help="which loop")
    p.add_argument("--config", required=True, help="train config YAML (see rl.GRPOConfig, "
                   "rl.PPOConfig)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config field (value parsed as YAML); repeatable")
    p.add_argument("--resume", action="store_true",
                   help="continue from the newest checkpoint in output_dir")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rl import load_train_config

    if args.algorithm == "grpo":
        from rl.grpo import GRPOConfig as Config
        from rl.grpo import train
    else:
        from rl.ppo import PPOConfig as Config  # type: ignore[assignment]
        from rl.ppo import train  # type: ignore[assignment]
    overrides = list(args.overrides)
    if args.resume:
        overrides.append("resume=true")
    if args.no_progress:
        overrides.append("progress=false")
    cfg = load_train_config(Config, args.config, overrides)
    final = train(cfg)  # type: ignore[arg-type]
    out = final.parent
    last: dict[str, Any] = {}
    metrics = out / "metrics.jsonl"
    if metrics.exists():
        import json

        lines = [ln for ln in metrics.read_text().splitlines() if ln.strip()]
        last = json.loads(lines[-1]) if lines else {}
    print(f"trained {args.algorithm} for {cfg.steps} steps -> {final}", file=sys.stdout)
    if last:
        print(f"last step {last.get('step')}: reward/mean {last.get('reward/mean'):.4f}")
    print(f"metrics: {metrics}\nreward curve: {out / 'reward_curve.png'}")
    return 0
