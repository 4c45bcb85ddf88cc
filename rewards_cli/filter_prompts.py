"""`rewards filter-prompts PROMPTS --config CFG --out DIR (--policy MODEL | --rollouts FILE)`:
score N rollouts per prompt, keep the prompts whose pass rate is in [low, high].

Writes DIR/kept.jsonl (pass_rate, std, bucket), DIR/dropped.jsonl (reason: too_easy, too_hard,
unscorable, low_std), DIR/errors.jsonl (bad rows and prompts whose reference the reward cannot
use: file, line, field), DIR/stats.json and DIR/pass_rates.png. Killed at any point, the same command resumes from DIR/journal.jsonl."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rewards_cli._common import (
    BUNDLED_CONFIG,
    INPUT_KINDS,
    add_map_options,
    add_set_option,
    load_reward_config,
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("filter-prompts", help="keep prompts whose pass rate is in a band",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("prompts", help=f"prompt rows ({INPUT_KINDS}): id (optional: derived "
                   "from the row), prompt, reference, domain")
    p.add_argument("--config", default=None,
                   help="reward config YAML (default: the bundled math config)")
    p.add_argument("--out", required=True, help="output folder")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--rollouts", default=None,
                        help="pre-generated rollouts (any kind the prompts may be): id (of "
                        "the prompt), completion")
    source.add_argument("--policy", default=None,
                        help="model to generate the rollouts with (folder or served name)")
    p.add_argument("--n", type=int, default=16, help="rollouts per prompt (default 16)")
    p.add_argument("--low", type=float, default=0.1, help="lowest pass rate kept (default 0.1)")
    p.add_argument("--high", type=float, default=0.9, help="highest pass rate kept (0.9)")
    p.add_argument("--min-std", type=float, default=None,
                   help="also drop prompts whose reward std is below this (low_std)")
    p.add_argument("--min-scored", type=int, default=None, metavar="K",
                   help="scored rollouts a prompt needs for a verdict, else unscorable "
                   "(default: half of its rollouts, rounded up)")
    p.add_argument("--mode", choices=("auto", "binary", "continuous"), default="auto",
                   help="binary: pass = reward >= threshold; continuous: mean reward; "
                   "auto: binary when all rewards are 0 or 1 (default)")
    p.add_argument("--threshold", type=float, default=0.5,
                   help="reward at which a rollout passes, binary mode (default 0.5)")
    p.add_argument("--buckets", type=int, default=None, metavar="K",
                   help="K quantile buckets q1 (hardest) .. qK (default: easy/hard at 0.5)")
    add_map_options(p, example="problem=prompt,reward_model.ground_truth=reference,uid=id",
                    fields="id, prompt, reference, domain")
    add_set_option(p)
    p.add_argument("--chunk-size", type=int, default=1024,
                   help="rollout rows scored per batch and journal chunk (default 1024)")
    p.add_argument("--workers", type=int, default=1,
                   help="processes scoring chunks in parallel (default 1: this process)")
    gen = p.add_argument_group("generation (--policy)")
    gen.add_argument("--backend", choices=("auto", "transformers", "vllm", "vllm-server"),
                     default="auto", help="inference engine (default auto)")
    gen.add_argument("--max-tokens", type=int, default=1024, help="default 1024")
    gen.add_argument("--temperature", type=float, default=1.0, help="default 1.0")
    gen.add_argument("--top-p", type=float, default=1.0, help="default 1.0")
    gen.add_argument("--seed", type=int, default=0, help="default 0")
    gen.add_argument("--prompts-per-round", type=int, default=32,
                     help="prompts per generate call and journal chunk (default 32)")
    p.add_argument("--no-plot", action="store_true", help="skip the histogram PNG")
    p.add_argument("--restart", action="store_true",
                   help="discard an unfinished run in --out instead of resuming it")
    p.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress bar on stderr (auto: 1,000 rollouts or more)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from prompt_filter import Band, FilterJob, GenerationOptions, run_filter
    from rewards.errors import ConfigError
    from rewards.io import PROMPT_FIELDS, parse_domain_map, parse_map

    config = load_reward_config(Path(args.config) if args.config else BUNDLED_CONFIG,
                                args.overrides)
    try:
        band = Band(args.low, args.high, args.min_std, args.min_scored)
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc
    job = FilterJob(
        prompts=Path(args.prompts), out=Path(args.out),
        rollouts=Path(args.rollouts) if args.rollouts else None, policy=args.policy,
        n=args.n, band=band, mode=args.mode, threshold=args.threshold, buckets=args.buckets,
        prompt_map=parse_map(args.map, PROMPT_FIELDS),
        domain_map=parse_domain_map(args.domain_map), chunk_size=args.chunk_size,
        plot=not args.no_plot, workers=args.workers,
        generation=GenerationOptions(backend=args.backend, max_tokens=args.max_tokens,
                                     temperature=args.temperature, top_p=args.top_p,
                                     seed=args.seed, prompts_per_round=args.prompts_per_round))
    if args.restart and (job.out / "journal.jsonl").is_file():
        (job.out / "journal.jsonl").unlink()
    bar = _Bar(args.progress)
    started = time.perf_counter()
    try:
        stats = run_filter(job, config, progress=bar.open)
    finally:
        bar.close()
    _print_summary(stats, job.out, time.perf_counter() - started, bar.rows_this_run)
    return 0


class _Bar:
    """A tqdm bar over rollouts with running counts; ETA from this run's rate."""

    def __init__(self, setting: str) -> None:
        self.setting = setting
        self.bar: Any = None
        self.rows_this_run = 0

    def open(self, total: int, done: int) -> Any:
        from tqdm import tqdm

        show = self.setting == "on" or (self.setting == "auto" and total >= 1000)
        self.bar = tqdm(total=total, initial=done, unit="rollout", disable=not show,
                        file=sys.stderr, smoothing=0.1)
        if done:
            self.bar.write(f"resuming: {done} of {total} rollouts already scored",
                           file=sys.stderr)
        return self.update

    def update(self, rows: int, counts: Mapping[str, int]) -> None:
        self.rows_this_run += rows
        self.bar.set_postfix(scored=counts.get("scored", 0), abstained=counts.get("abstained", 0),
                             errors=counts.get("errors", 0), refresh=False)
        self.bar.update(rows)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _print_summary(stats: Mapping[str, Any], out: Path, seconds: float, rows: int) -> None:
    p = stats["prompts"]
    dropped = ", ".join(f"{k} {v}" for k, v in p["dropped"].items() if v)
    rate = f" ({rows / seconds:,.0f} rollouts/s)" if rows and seconds > 0 else ""
    bad = f", {p['bad_reference']} with an unusable reference" if p["bad_reference"] else ""
    print(f"{p['valid']} prompts ({p['errors']} bad rows{bad}), {stats['rollouts']['used']} "
          f"rollouts, {stats['mode']} pass rates{rate}")
    print(f"kept {p['kept']} in [{stats['band']['low']:g}, {stats['band']['high']:g}]"
          + (f"; dropped {dropped}" if dropped else "")
          + (f"; {stats['rollouts']['errors']} bad rollout rows" if stats["rollouts"]["errors"]
             else ""))
    abstained = stats["rollouts"]["abstained"]
    if abstained:
        print("not scored: " + ", ".join(f"{cause} x{n}" for cause, n in abstained.items()))
    print("buckets: " + ", ".join(f"{b} {c}" for b, c in stats["buckets"]["counts"].items()))
    print(f"-> {out}/kept.jsonl, dropped.jsonl, errors.jsonl, stats.json"
          + (", pass_rates.png" if (out / "pass_rates.png").exists() else ""))
