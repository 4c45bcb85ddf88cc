"""`rewards train grpo|ppo --config train.yaml`: run the built-in GRPO or PPO loop.

The train config is YAML with the fields of `rl.GRPOConfig` / `rl.PPOConfig` (relative paths
are relative to the config file); `--set key=value` overrides a field, `--resume` continues
from the newest checkpoint in the output folder. A progress bar on stderr shows the step and
its reward (the config's `progress: false` or `--no-progress` turn it off). The run ends with
what it learned: the mean reward of its first steps against its last ones (one step's reward
is noisy)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
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
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar on stderr (as the config's `progress: false`)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rl import load_train_config

    if args.algorithm == "grpo":
        from rl.grpo import GRPOConfig as Config
        from rl.grpo import train
    else:  # the same two names for PPO: mypy types a name by its first binding (GRPO's)
        from rl.ppo import PPOConfig as Config  # type: ignore[assignment]
        from rl.ppo import train  # type: ignore[assignment]
    overrides = list(args.overrides)
    if args.resume:
        overrides.append("resume=true")
    if args.no_progress:
        overrides.append("progress=false")
    cfg = load_train_config(Config, args.config, overrides)
    _built_by_setup(Path(args.config), cfg)
    final = train(cfg)
    out = final.parent
    metrics = out / "metrics.jsonl"
    rows: list[dict[str, Any]] = []
    if metrics.exists():
        import json

        rows = [json.loads(ln) for ln in metrics.read_text().splitlines() if ln.strip()]
    print(f"trained {args.algorithm} for {cfg.steps} steps -> {final}", file=sys.stdout)
    print(f"metrics: {metrics}\nreward curve: {out / 'reward_curve.png'}")
    learned = learned_summary(rows)
    if learned:
        print(learned)
    return 0


def learned_summary(rows: Sequence[Mapping[str, Any]], *, key: str = "reward/mean",
                    k: int = 5) -> str:
    """What a run learned, from its metrics rows: the mean `key` of the first k steps against
    the last k (k at most half the steps), and the last step's own value."""
    points = [(r.get("step"), r[key]) for r in rows if isinstance(r.get(key), (int, float))]
    if not points:
        return ""
    k = max(1, min(k, len(points) // 2))
    step, value = points[-1]
    if len(points) < 2:
        return f"{key}: {value:.4f} (step {step}, the only step)"
    first = sum(v for _, v in points[:k]) / k
    last = sum(v for _, v in points[-k:]) / k
    steps = "step" if k == 1 else f"{k} steps"
    return (f"learned: {key} {first:.4f} over the first {steps} -> {last:.4f} over the last "
            f"{steps} ({last - first:+.4f}); the last step alone: {value:.4f}")


def _built_by_setup(config: Path, cfg: Any) -> None:
    """A config whose folder holds a setup script (`setup.py`, `setup_*.py`: the examples)
    names files that script builds: one that is not there yet says to run it, rather than
    a model hub's or a reader's error about the missing file."""
    from rewards.errors import ConfigError

    folder = config.resolve().parent
    scripts = sorted(folder.glob("setup*.py"))
    if not scripts:
        return
    for name in ("model", "reward_config", "prompts"):
        value = getattr(cfg, name, None)
        if not isinstance(value, str) or not value:
            continue
        path = Path(value)
        if path.is_absolute() and path.is_relative_to(folder) and not path.exists():
            script = _shown(scripts[0])
            raise ConfigError(f"{name}: {_shown(path)} does not exist yet: run `python "
                              f"{script}` first (it builds the files {_shown(config)} "
                              "names)")


def _shown(path: Path) -> str:
    """`path` relative to the working folder where it lies under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
