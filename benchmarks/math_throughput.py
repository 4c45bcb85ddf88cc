"""Math verifier throughput: `rewards.math.MathReward` vs plain math-verify (`parse` + `verify`)
on the same deterministic, labeled mix of realistic rollouts, in one run.

    python benchmarks/math_throughput.py            # 2,000 pairs (250 prompts x 8 rollouts)
    python benchmarks/math_throughput.py --quick    # 400 pairs

Prints pairs/s of each, the ratio, both accuracies against the labels, and the worst single
comparison latency (ours: one worker round trip, bounded by the timeout)."""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rewards import Sample
from rewards.math import MathReward, shared_pool


@dataclass(frozen=True)
class Pair:
    completion: str
    gold: str
    correct: bool
    kind: str


# --- the mix -----------------------------------------------------------------------------
# Each problem kind returns (gold, correct answer forms, wrong answer forms).

def _integer(rng: random.Random):
    n = rng.choice([rng.randint(2, 99), rng.randint(100, 999), rng.randint(1000, 99999)])
    right = [str(n), f"{n:,}", f"\\${n}", f"{n} \\text{{ dollars}}", f"{n}.00"]
    wrong = [str(n + 1), str(n - 1), str(2 * n), str(n // 2 + 1), str(-n)]
    return str(n), right, wrong


def _fraction(rng: random.Random):
    q = rng.choice([3, 4, 5, 6, 7, 8, 9, 11, 12, 16, 20, 25])
    p = rng.choice([k for k in range(1, 3 * q) if _gcd(k, q) == 1])
    right = [f"\\frac{{{p}}}{{{q}}}", f"\\dfrac{{{p}}}{{{q}}}", f"{p}/{q}",
             f"\\frac{{{2 * p}}}{{{2 * q}}}"]
    if q in (4, 5, 8, 16, 20, 25):
        right.append(str(p / q))
    wrong = [f"\\frac{{{q}}}{{{p}}}", f"\\frac{{{p + 1}}}{{{q}}}", f"{round(p / q, 2) + 0.01:.2f}"]
    return f"\\frac{{{p}}}{{{q}}}", right, wrong


def _percent(rng: random.Random):
    k = rng.randint(5, 95)
    return (f"{k}\\%", [f"{k}\\%", f"{k}", f"{k}%", f"{k / 100:g}"],
            [f"{k + 5}\\%", f"{100 - k}\\%" if k != 50 else "40\\%", f"{k + 1}"])


def _radical(rng: random.Random):
    a, b = rng.randint(2, 9), rng.choice([2, 3, 5, 6, 7])
    return (f"{a}\\sqrt{{{b}}}", [f"{a}\\sqrt{{{b}}}", f"\\sqrt{{{a * a * b}}}", f"{a} \\sqrt{{{b}}}"],
            [f"{a + 1}\\sqrt{{{b}}}", f"{a}\\sqrt{{{b + 1}}}", f"\\sqrt{{{a * b}}}"])


def _pi(rng: random.Random):
    k, m = rng.randint(2, 12), rng.choice([2, 3, 4, 6])
    return (f"\\frac{{{k}\\pi}}{{{m}}}", [f"\\frac{{{k}\\pi}}{{{m}}}", f"\\frac{{{k}}}{{{m}}}\\pi",
                                          f"{k}\\pi/{m}"],
            [f"\\frac{{{k + 1}\\pi}}{{{m}}}", f"{k}\\pi", f"\\frac{{{k}}}{{{m}}}"])


def _polynomial(rng: random.Random):
    a = rng.randint(1, 9)
    return (f"x^2+{2 * a}x+{a * a}", [f"(x+{a})^2", f"{a * a}+{2 * a}x+x^2", f"x^2 + {2 * a} x + {a * a}"],
            [f"(x-{a})^2", f"x^2+{a}x+{a * a}", f"(x+{a + 1})^2"])


def _roots(rng: random.Random):
    r, s = rng.sample(range(-9, 10), 2)
    return (f"{r}, {s}", [f"{r}, {s}", f"{s}, {r}", f"\\{{{s}, {r}\\}}",
                          f"x = {r} \\text{{ or }} x = {s}"],
            [f"{r}, {-s}" if s else f"{r}, 1", f"{r}", f"{r + 1}, {s}"])


def _interval(rng: random.Random):
    a = rng.randint(-9, 5)
    b = a + rng.randint(1, 9)
    return (f"({a}, {b}]", [f"({a},{b}]", f"\\left({a}, {b}\\right]", f"{a} < x \\le {b}"],
            [f"[{a}, {b}]", f"({a}, {b})", f"({a}, {b + 1}]"])


def _point(rng: random.Random):
    a, b = rng.sample(range(-9, 10), 2)
    return (f"({a}, {b})", [f"({a},{b})", f"\\left( {a}, {b} \\right)"], [f"({b}, {a})", f"({a}, {b + 1})"])


def _matrix(rng: random.Random):
    a, b, c, d = (rng.randint(-5, 9) for _ in range(4))
    gold = f"\\begin{{pmatrix}}{a}&{b}\\\\{c}&{d}\\end{{pmatrix}}"
    return (gold, [gold, f"\\begin{{bmatrix}} {a} & {b} \\\\ {c} & {d} \\end{{bmatrix}}"],
            [f"\\begin{{pmatrix}}{a}&{c}\\\\{b}&{d + 1}\\end{{pmatrix}}",
             f"\\begin{{pmatrix}}{a + 1}&{b}\\\\{c}&{d}\\end{{pmatrix}}"])


def _line(rng: random.Random):
    m, b = rng.randint(2, 9), rng.randint(1, 9)
    return (f"y={m}x+{b}", [f"y = {m}x + {b}", f"y = {b} + {m}x", f"{m}x - y + {b} = 0"],
            [f"y = {m + 1}x + {b}", f"y = {m}x - {b}", f"y = {m}x + {b + 1}"])


def _choice(rng: random.Random):
    letter = rng.choice("ABCDE")
    others = [c for c in "ABCDE" if c != letter]
    return letter, [f"({letter})", letter, f"\\text{{({letter})}}"], [f"({c})" for c in others[:3]]


def _factorial(rng: random.Random):
    n = rng.randint(1990, 2030)  # math-verify rounds these to 0 and calls them equal
    return (f"\\frac{{1}}{{{n}!}}", [f"\\frac{{1}}{{{n}!}}", f"1/{n}!"],
            [f"\\frac{{1}}{{{n + 2}!}}", f"\\frac{{1}}{{{n - 1}!}}"])


def _inequality(rng: random.Random):
    a = rng.randint(-9, 9)
    return (f"x \\le {a}", [f"x \\leq {a}", f"(-\\infty, {a}]", f"{a} \\ge x"],
            [f"x < {a}", f"x \\ge {a}", f"(-\\infty, {a + 1}]"])


def _rational(rng: random.Random):
    a, b = rng.sample(range(1, 9), 2)
    return (f"\\frac{{x+{a}}}{{x+{b}}}",
            [f"\\frac{{x+{a}}}{{x+{b}}}", f"\\frac{{x^2+{a + b}x+{a * b}}}{{(x+{b})^2}}",
             f"1 + \\frac{{{a - b}}}{{x+{b}}}"],
            [f"\\frac{{x+{b}}}{{x+{a}}}", f"\\frac{{x-{a}}}{{x+{b}}}", f"\\frac{{{a}}}{{{b}}}"])


def _log(rng: random.Random):
    a, k = rng.choice([2, 3, 5]), rng.randint(2, 6)
    return (str(k), [str(k), f"\\log_{{{a}}} {a ** k}", f"{k}.0"],
            [str(k + 1), f"\\log_{{{a}}} {a ** (k + 1)}", f"\\ln {k}"])


KINDS = [(_integer, 30), (_fraction, 12), (_percent, 5), (_radical, 8), (_pi, 6), (_polynomial, 6),
         (_roots, 8), (_interval, 6), (_point, 5), (_matrix, 3), (_line, 4), (_choice, 5),
         (_factorial, 2), (_inequality, 5), (_rational, 5), (_log, 3)]

WORDS = (
    "we", "compute", "the", "total", "then", "subtract", "the", "cost", "and", "check", "the",
    "remaining", "amount", "carefully", "so", "that", "every", "step", "is", "justified", "by",
    "the", "previous", "one",
)


def _reasoning(rng: random.Random, avoid: str) -> str:
    parts = []
    for _ in range(rng.randint(4, 40)):
        a, b = rng.randint(2, 60), rng.randint(2, 60)
        if str(a + b) in avoid:
            a += 100
        parts.append(" ".join(rng.choices(WORDS, k=rng.randint(6, 14))).capitalize()
                     + f", and ${a} + {b} = {a + b}$.")
    return " ".join(parts)


def _wrap(rng: random.Random, reasoning: str, answer: str, kind: str) -> str:
    styles = ["boxed", "boxed", "boxed", "final", "tags"]
    if kind == "_integer":
        styles += ["gsm8k", "gsm8k", "phrase"]
    style = rng.choice(styles)
    if style == "gsm8k":
        return f"{reasoning}\n#### {answer}"
    if style == "phrase":
        return f"{reasoning}\nThe answer is {answer}."
    if style == "tags":
        return f"<think>{reasoning}</think>\n<answer>{answer}</answer>"
    if style == "final":
        return (f"{reasoning}\n\nFinal Answer: The final answer is $\\boxed{{{answer}}}$. "
                "I hope it is correct.")
    return f"{reasoning}\n\nTherefore, the final answer is $\\boxed{{{answer}}}$."


def make_mix(n_pairs: int, seed: int = 0, group_size: int = 8) -> list[Pair]:
    """`n_pairs` labeled (completion, gold) pairs: prompts with `group_size` rollouts each."""
    rng = random.Random(seed)
    makers, weights = zip(*KINDS)
    pairs: list[Pair] = []
    while len(pairs) < n_pairs:
        maker = rng.choices(makers, weights)[0]
        gold, right, wrong = maker(rng)
        for _ in range(group_size):
            roll = rng.random()
            reasoning = _reasoning(rng, gold)
            if roll < 0.55:
                answer, correct = rng.choice(right), True
            elif roll < 0.92:
                answer, correct = rng.choice(wrong), False
            elif roll < 0.995:
                pairs.append(Pair(reasoning + " Let me reconsider the", gold, False, "no_answer"))
                continue
            else:
                answer, correct = "2^{2^{2^{2^{20}}}}", False  # pathological
            pairs.append(Pair(_wrap(rng, reasoning, answer, maker.__name__), gold, correct,
                              maker.__name__.strip("_")))
    return pairs[:n_pairs]


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


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
        gold = parse(f"${pair.gold}$")
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
          f"{sum('2^{2^{2^' in p.completion for p in pairs)} pathological; "
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
    disagree = [(p.kind, p.gold) for p, o, y in zip(pairs, ours, labels) if o != y]
    if disagree:
        print(f"ours disagrees with the label on {len(disagree)}: {disagree[:8]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
