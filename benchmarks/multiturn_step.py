"""Step time of GRPO over multi-turn episodes against the same loop single-turn.

Both runs train the same tiny random-weight Llama (built locally) with the same prompts,
group size, per-turn token budget, learning rate and final reward (`{use: math}` against the
prompt's reference); the multi-turn run plays `number_guess` for up to `--turns` turns
(every turn one generation on the whole context so far, then the environment's step), the
single-turn run samples one completion per rollout and scores it. Seconds per step come from
each run's metrics (`perf/step_seconds`, and its rollout and train parts); the first step is
warm-up and is dropped, the median of the rest is reported. The runs alternate over
`--rounds` rounds and the ratio is the median of the per-round ratios, so a machine whose
speed drifts (shared cores) weighs on both alike. The ratio is printed with the mean turns
per episode: the cost of a multi-turn step is about that many generations plus the longer
training sequences.

    python benchmarks/multiturn_step.py            # 3 rounds of 8 steps
    python benchmarks/multiturn_step.py --quick    # 1 round of 5 steps
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import Report


def setup(work: Path, prompts: int) -> tuple[Path, Path, Path]:
    from rewards.testing import build_tiny_causal_lm

    model = build_tiny_causal_lm(work / "model", seed=0)
    rng = random.Random(0)
    rows = [{"id": f"g{i}", "prompt": f"Guess the number from 1 to 8. Game {i}:",
             "reference": rng.randint(1, 8)} for i in range(prompts)]
    (work / "prompts.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    # math on the answer, plus a small reward for a common letter so that single-turn groups
    # have spread too (a group without spread skips the training pass: unfair to compare)
    (work / "reward.yaml").write_text(
        "domains:\n  default:\n    rewards:\n      - {use: math}\n"
        "      - {use: 'rewards.testing:TargetReward', name: letter, target: e, weight: 0.1}\n")
    return model, work / "prompts.jsonl", work / "reward.yaml"


def run(kind: str, args: argparse.Namespace, work: Path, paths: tuple[Path, Path, Path],
        index: int) -> dict[str, float]:
    from rewards.envs import EnvConfig
    from rewards.options import load_options
    from rl.grpo import GRPOConfig, train

    model, prompts, reward = paths
    out = work / f"{kind}-{index}"
    environment = load_options(EnvConfig, {"use": "number_guess", "max_turns": args.turns},
                               where="benchmark") if kind == "multi" else None
    cfg = GRPOConfig(model=str(model), reward_config=str(reward), prompts=str(prompts),
                     output_dir=str(out), steps=args.steps, prompts_per_step=args.prompts,
                     num_generations=args.generations, max_completion_tokens=args.tokens,
                     max_episode_tokens=args.turns * (args.tokens + 8), learning_rate=5e-3,
                     seed=index, progress=False, environment=environment)
    train(cfg)
    rows = [json.loads(line) for line in (out / "metrics.jsonl").open()][1:]  # warm-up off
    result = {key: statistics.median(r[f"perf/{key}"] for r in rows)
              for key in ("step_seconds", "rollout_seconds", "train_seconds")}
    if kind == "multi":
        result["turns"] = statistics.mean(r["turn/turns_per_episode"] for r in rows)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 round of 5 steps")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--prompts", type=int, default=8)
    parser.add_argument("--generations", type=int, default=8)
    parser.add_argument("--tokens", type=int, default=4, help="tokens per turn")
    args = parser.parse_args()
    report = Report()
    if args.quick:
        args.rounds, args.steps = 1, 5
    import torch

    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        paths = setup(work, prompts=16)
        ratios, singles, multis = [], [], []
        for i in range(args.rounds):
            single = run("single", args, work, paths, i)
            multi = run("multi", args, work, paths, i)
            singles.append(single)
            multis.append(multi)
            ratios.append(multi["step_seconds"] / single["step_seconds"])
            print(f"round {i + 1}: single-turn {single['step_seconds']:.3f} s/step "
                  f"(rollout {single['rollout_seconds']:.3f}), multi-turn "
                  f"{multi['step_seconds']:.3f} s/step (rollout {multi['rollout_seconds']:.3f}, "
                  f"{multi['turns']:.2f} turns/episode): ratio {ratios[-1]:.2f}x", flush=True)
    turns = statistics.mean(m["turns"] for m in multis)
    print(f"multi-turn / single-turn step time: {statistics.median(ratios):.2f}x "
          f"(median of {len(ratios)} rounds; {turns:.2f} turns per episode, up to "
          f"{args.turns}; batch {args.prompts} x {args.generations}, {args.tokens} tokens/turn)")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
