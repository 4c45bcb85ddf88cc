"""Math verifier throughput: `rewards.math.MathReward` vs plain math-verify (`parse` + `verify`)
on the same deterministic, labeled mix of realistic rollouts (`math_corpus.py`, weighted like
a math RL batch: every kind of answer and every shape of ending, not only the ones our fast
paths decide), in one run.

    python benchmarks/math_throughput.py            # 2,000 pairs (250 prompts x 8 rollouts)
    python benchmarks/math_throughput.py --quick    # 400 pairs

Prints pairs/s of each, the ratio, both accuracies against the labels, and the worst single
comparison latency (ours: one worker round trip, bounded by the timeout)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from math_corpus import Pair, make_pairs, math_verify_gold

from rewards import Sample
from rewards.math import MathReward, shared_pool

PATHOLOGICAL = "2^{2^{2^{2^{20}}}}"  # a tower no verifier should try to evaluate


def make_mix(n_pairs: int, seed: int = 0, group_size: int = 8) -> list[Pair]:
    """`n_pairs` labeled pairs from `math_corpus`, weighted like a math RL batch (prompts with
    `group_size` rollouts; every kind and shape of ending, integers and `\\boxed{}` most
    often), and one rollout in 200 boxing a pathological power tower (label wrong)."""
    pairs = make_pairs(n_pairs, seed, group_size=group_size, realistic=True)
    for i in range(97, len(pairs), 200):
        p = pairs[i]
        pairs[i] = replace(p, completion=f"The answer is $\\boxed{{{PATHOLOGICAL}}}$.",
                           correct=False, kind="pathological", form="tower", shape="boxed",
                           answer=PATHOLOGICAL)
    return pairs


# --- the two verifiers ---------------------------------------------------------------------

def run_ours(pairs: list[Pair], batch_size: int,
             reward: MathReward | None = None) -> tuple[float, list[bool]]:
    reward = reward or MathReward()
    start = time.perf_counter()
    verdicts: list[bool] = []
    for i in range(0, len(pairs), batch_size):
        chunk = pairs[i:i + batch_size]
        scores = reward.score([Sample(f"p{i}", p.completion, reference=p.gold) for p in chunk])
        verdicts += [s.value == 1.0 for s in scores]
    return time.perf_counter() - start, verdicts


def run_math_verify(pairs: list[Pair]) -> tuple[float, list[bool], float]:
    from math_verify import parse, verify

    verdicts, worst = [], 0.0
    start = time.perf_counter()
    for pair in pairs:
        t0 = time.perf_counter()
        gold = parse(math_verify_gold(pair.gold))
        pred = parse(pair.completion)
        verdicts.append(bool(verify(gold, pred)))
        worst = max(worst, time.perf_counter() - t0)
    return time.perf_counter() - start, verdicts, worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="400 pairs")
    parser.add_argument("--batch-size", type=int, default=256, help="samples per score() call")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    n = 400 if args.quick else args.pairs
    logging.getLogger("math_verify").setLevel(logging.ERROR)

    pairs = make_mix(n, args.seed)
    labels = [p.correct for p in pairs]
    print(f"mix: {len(pairs)} pairs, {sum(labels)} correct, "
          f"{sum(p.kind == 'no_answer' for p in pairs)} without an answer, "
          f"{sum(p.kind == 'pathological' for p in pairs)} pathological, "
          f"{len({p.kind for p in pairs})} kinds, {len({p.shape for p in pairs})} shapes; "
          f"mean completion {sum(len(p.completion) for p in pairs) // len(pairs)} chars; "
          f"{os.cpu_count()} cores")

    # Warm both on a small mix from another seed: our worker processes (start-up and sympy's
    # lazy imports are not comparison time, a trainer pays them once) and math-verify's parser.
    start = time.perf_counter()
    MathReward().warm_up()
    warm = make_mix(100, args.seed + 1)
    run_ours(warm, args.batch_size)
    run_math_verify(warm)
    print(f"warm-up (worker start-up + 100 other pairs through both): "
          f"{time.perf_counter() - start:.2f}s, not counted below")

    pool = shared_pool(MathReward().config.worker_count)
    pool.slowest = 0.0
    reward = MathReward()
    ours_s, ours = run_ours(pairs, args.batch_size, reward)
    mv_s, mv, mv_worst = run_math_verify(pairs)

    def accuracy(verdicts: list[bool]) -> float:
        return sum(v == y for v, y in zip(verdicts, labels)) / len(labels)

    ours_rate, mv_rate = len(pairs) / ours_s, len(pairs) / mv_s
    print(f"{'verifier':<24}{'pairs/s':>10}{'seconds':>10}{'accuracy':>10}{'worst (s)':>11}")
    print(f"{'rewards.math':<24}{ours_rate:>10.1f}{ours_s:>10.2f}{accuracy(ours):>10.4f}"
          f"{pool.slowest:>11.3f}")
    print(f"{'math-verify':<24}{mv_rate:>10.1f}{mv_s:>10.2f}{accuracy(mv):>10.4f}{mv_worst:>11.3f}")
    print(f"throughput ratio (ours / math-verify): {ours_rate / mv_rate:.1f}x")
    print(f"ours: {len(reward.cache)} distinct pairs went to {pool.size} worker processes "
          f"({reward.cache.hits} cache hits), the rest were decided in-process; "
          f"worker kills (timeouts): {pool.kills}; timeout bound {reward.config.timeout:g}s")
    disagree = Counter(f"{p.kind}/{p.form}/{p.shape}" for p, o, y in zip(pairs, ours, labels)
                       if o != y)
    if disagree:
        print(f"ours disagrees with the label on {sum(disagree.values())} "
              f"(kind/form/shape: count): {dict(disagree.most_common(12))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
