"""Math verifier throughput: `rewards.math.MathReward` vs plain math-verify (`parse` + `verify`)
on the same deterministic, labeled mix of realistic rollouts (`math_corpus.py`, weighted like
a math RL batch: every kind of answer and every shape of ending, not only the ones our fast
paths decide), with 1% pathological answers (`9^{9^{9^{9}}}`, `(10^{7})!`, `10^{10^{10}}` ...),
in one run.

    python benchmarks/math_throughput.py            # 1,000 pairs (125 prompts x 8 rollouts)
    python benchmarks/math_throughput.py --quick    # 400 pairs

Prints pairs/s of each, the ratio, both accuracies against the labels (on the whole mix and
on the pathological answers), and the worst single sample: for math-verify the slowest pair
of its run; for ours the slowest pair scored alone (one `score([sample])` call each, a fresh
reward so no verdict is cached), in a second pass after the timed run."""

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

from _report import Report
from math_corpus import Pair, make_pairs, math_verify_gold

from rewards import Sample
from rewards.math import MathReward, shared_pool

PATHOLOGICAL = [
    "9^{9^{9^{9}}}", "(10^{7})!", "10^{10^{10}}", "2^{2^{2^{2^{20}}}}", "(10^{100})!",
    "\\prod_{k=1}^{10^{9}} k", "10^{-10^{10}}", "99^{99^{99}}", "\\sum_{k=1}^{10^{12}} k^{3}",
    "9^{9^{9}} + 1", "\\binom{10^{7}}{5000000}",
]
"""Answers no verifier should try to evaluate: each is astronomically far from the gold (an
ordinary number), so each is wrong."""


def make_mix(n_pairs: int, seed: int = 0, group_size: int = 8,
             pathological_every: int = 100) -> list[Pair]:
    """`n_pairs` labeled pairs from `math_corpus`, weighted like a math RL batch (prompts with
    `group_size` rollouts; every kind and shape of ending, integers and `\\boxed{}` most
    often), and one rollout in `pathological_every` (1%) a pathological answer from
    `PATHOLOGICAL`, boxed or stated, against a numeric gold (label wrong)."""
    pairs = make_pairs(n_pairs, seed, group_size=group_size, realistic=True)
    for n, i in enumerate(range(pathological_every // 2, len(pairs), pathological_every)):
        p = pairs[i]
        answer = PATHOLOGICAL[n % len(PATHOLOGICAL)]
        completion = (f"{p.completion[:200]} ... so the answer is $\\boxed{{{answer}}}$."
                      if n % 2 == 0 else f"{p.completion[:200]} ... The final answer is ${answer}$.")
        gold = p.gold if p.kind == "integer" else str(7 + n)
        pairs[i] = replace(p, completion=completion, gold=gold, correct=False,
                           kind="pathological", form=answer, shape="boxed" if n % 2 == 0
                           else "final", answer=answer)
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


def worst_single(pairs: list[Pair]) -> tuple[float, Pair | None]:
    """The slowest pair scored alone by a fresh `MathReward` (nothing cached)."""
    reward = MathReward()
    worst, which = 0.0, None
    for i, pair in enumerate(pairs):
        start = time.perf_counter()
        reward.score([Sample(f"p{i}", pair.completion, reference=pair.gold)])
        seconds = time.perf_counter() - start
        if seconds > worst:
            worst, which = seconds, pair
    return worst, which


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="400 pairs")
    parser.add_argument("--batch-size", type=int, default=256, help="samples per score() call")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    report = Report()
    n = 400 if args.quick else args.pairs
    logging.getLogger("math_verify").setLevel(logging.ERROR)

    pairs = make_mix(n, args.seed)
    labels = [p.correct for p in pairs]
    sick = [i for i, p in enumerate(pairs) if p.kind == "pathological"]
    print(f"mix: {len(pairs)} pairs, {sum(labels)} correct, "
          f"{sum(p.kind == 'no_answer' for p in pairs)} without an answer, "
          f"{len(sick)} pathological, "
          f"{len({p.kind for p in pairs})} kinds, {len({p.shape for p in pairs})} shapes; "
          f"mean completion {sum(len(p.completion) for p in pairs) // len(pairs)} chars; "
          f"{os.cpu_count()} cores")

    # Warm both on a small mix from another seed: our worker processes (start-up and sympy's
    # lazy imports are not comparison time, a trainer pays them once) and math-verify's parser.
    start = time.perf_counter()
    MathReward().warm_up()
    warm = make_mix(100, args.seed + 1, pathological_every=1000)
    run_ours(warm, args.batch_size)
    run_math_verify(warm)
    print(f"warm-up (worker start-up + 100 other pairs through both): "
          f"{time.perf_counter() - start:.2f}s, not counted below")

    pool = shared_pool(MathReward().config.worker_count)
    pool.slowest = 0.0
    reward = MathReward()
    ours_s, ours = run_ours(pairs, args.batch_size, reward)
    mv_s, mv, mv_worst = run_math_verify(pairs)
    kills = pool.kills
    ours_worst, ours_worst_pair = worst_single(pairs)

    def accuracy(verdicts: list[bool], rows: list[int] | None = None) -> float:
        rows = list(range(len(labels))) if rows is None else rows
        return sum(verdicts[i] == labels[i] for i in rows) / max(len(rows), 1)

    ours_rate, mv_rate = len(pairs) / ours_s, len(pairs) / mv_s
    print(f"{'verifier':<24}{'pairs/s':>10}{'seconds':>10}{'accuracy':>10}"
          f"{'patho acc':>11}{'worst (s)':>11}")
    print(f"{'rewards.math':<24}{ours_rate:>10.1f}{ours_s:>10.2f}{accuracy(ours):>10.4f}"
          f"{accuracy(ours, sick):>11.4f}{ours_worst:>11.3f}")
    print(f"{'math-verify':<24}{mv_rate:>10.1f}{mv_s:>10.2f}{accuracy(mv):>10.4f}"
          f"{accuracy(mv, sick):>11.4f}{mv_worst:>11.3f}")
    print(f"throughput ratio (ours / math-verify): {ours_rate / mv_rate:.1f}x")
    if ours_worst_pair is not None:
        print(f"ours, worst single sample: {ours_worst:.3f}s, a {ours_worst_pair.kind}/"
              f"{ours_worst_pair.form}/{ours_worst_pair.shape} pair; slowest worker round trip "
              f"in the timed run {pool.slowest:.3f}s")
    sick_reward = MathReward()
    sick_seconds = []
    for i in sick:
        start = time.perf_counter()
        sick_reward.score([Sample(f"p{i}", pairs[i].completion, reference=pairs[i].gold)])
        sick_seconds.append((time.perf_counter() - start, pairs[i].form))
    slowest = max(sick_seconds, default=(0.0, ""))
    print(f"pathological answers alone: slowest {slowest[0] * 1000:.2f} ms ({slowest[1]}), "
          f"{sum(s > 0.1 for s, _ in sick_seconds)} of {len(sick)} above 0.1 s")
    print(f"ours: {len(reward.cache)} distinct pairs went to {pool.size} worker processes "
          f"({reward.cache.hits} cache hits), the rest were decided in-process; "
          f"worker kills (timeouts) in the timed run: {kills}; timeout bound "
          f"{reward.config.timeout:g}s")
    disagree = Counter(f"{p.kind}/{p.form}/{p.shape}" for p, o, y in zip(pairs, ours, labels)
                       if o != y)
    if disagree:
        print(f"ours disagrees with the label on {sum(disagree.values())} "
              f"(kind/form/shape: count): {dict(disagree.most_common(12))}")
    report.target("throughput, ours / math-verify", ours_rate / mv_rate, 20.0)
    report.target("accuracy, ours - math-verify's", accuracy(ours) - accuracy(mv), 0.0, unit="")
    report.target("slowest sample alone (s)", max(ours_worst, slowest[0]), 0.1, unit=" s",
                  higher_is_better=False)
    report.verdict("ours against the labels", sum(o == y for o, y in zip(ours, labels)),
                   len(labels))
    return report.finish()


if __name__ == "__main__":
    raise SystemExit(main())
