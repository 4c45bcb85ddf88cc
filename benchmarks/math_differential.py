"""Differential check: `rewards.math.MathReward` against math-verify on generated, labeled
(completion, gold) pairs shaped like real model output (`benchmarks/math_corpus.py`).

    python benchmarks/math_differential.py                  # 20,000 pairs
    python benchmarks/math_differential.py --quick          # 2,000 pairs
    python benchmarks/math_differential.py --out dis.jsonl  # also write every disagreement

Prints how often the two verdicts differ, both accuracies against the labels, and every class
of disagreement (problem kind, answer form, the two verdicts, which one the label backs) with
its count, the shapes it was seen in and one example."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import Report
from math_corpus import Pair, make_pairs, math_verify_gold

from rewards import Sample
from rewards.math import MathReward


def ours_verdicts(pairs: list[Pair], reward: MathReward | None = None,
                  batch_size: int = 256) -> list[bool]:
    """Our verdict per pair: True when the score is 1.0 (an abstention is not a pass)."""
    reward = reward or MathReward()
    verdicts: list[bool] = []
    for i in range(0, len(pairs), batch_size):
        chunk = pairs[i:i + batch_size]
        scores = reward.score([Sample(f"p{i + j}", p.completion, reference=p.gold, domain="math")
                               for j, p in enumerate(chunk)])
        verdicts += [s.value == 1.0 for s in scores]
    return verdicts


def math_verify_verdicts(pairs: list[Pair]) -> list[bool]:
    """math-verify's verdict per pair: `verify(parse(gold), parse(completion))`. Call it from
    the main thread: its `parse` and `verify` time out through signals."""
    from math_verify import parse, verify

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    verdicts = []
    for pair in pairs:
        verdicts.append(bool(verify(parse(math_verify_gold(pair.gold)), parse(pair.completion))))
    return verdicts


def restated(pair: Pair) -> str:
    """The pair's answer alone in a `\\boxed{}`, the shape both verifiers read: a
    disagreement that survives it is about comparing, one that does not is about extracting."""
    if "\\boxed" in pair.answer:
        return f"The solutions are {pair.answer}."
    return f"The final answer is $\\boxed{{{pair.answer}}}$."


ClassKey = tuple[str, str, bool, bool]  # (kind or "extraction", form or shape, ours, theirs)


def disagreement_classes(pairs: list[Pair], ours: list[bool], theirs: list[bool],
                         reward: MathReward | None = None) -> dict[ClassKey, list[Pair]]:
    """Pairs where the two verdicts differ, in classes. When both verifiers agree on the same
    answer restated in a box, the class is ("extraction", shape, ...): one of them reads a
    different answer from that shape. Otherwise it is (kind, form, ...): they compare the same
    answer differently."""
    split = [p for p, o, t in zip(pairs, ours, theirs) if o != t]
    answered = [p for p in split if p.answer]
    boxed = [Pair(restated(p), p.gold, p.correct, p.kind, p.form, "boxed", p.answer)
             for p in answered]
    again = dict(zip(map(id, answered), zip(ours_verdicts(boxed, reward),
                                            math_verify_verdicts(boxed))))
    classes: dict[ClassKey, list[Pair]] = defaultdict(list)
    for pair, o, t in zip(pairs, ours, theirs):
        if o == t:
            continue
        o_boxed, t_boxed = again.get(id(pair), (None, None))
        if o_boxed is None or o_boxed == t_boxed:
            classes[("extraction", pair.shape, o, t)].append(pair)
        else:
            classes[(pair.kind, pair.form, o, t)].append(pair)
    return dict(sorted(classes.items(), key=lambda item: (-len(item[1]), item[0])))


def _verdict(v: bool) -> str:
    return "right" if v else "wrong"


def _example(pair: Pair) -> str:
    tail = pair.completion[-90:].replace("\n", "\\n")
    return f"gold {pair.gold!r}; completion ...{tail!r}"


def report(pairs: list[Pair], ours: list[bool], theirs: list[bool],
           classes: dict[ClassKey, list[Pair]]) -> None:
    labels = [p.correct for p in pairs]

    def accuracy(verdicts: list[bool]) -> float:
        return sum(v == y for v, y in zip(verdicts, labels)) / len(labels)

    n_dis = sum(len(v) for v in classes.values())
    ours_wins = sum(len(v) for (_, _, o, _), v in classes.items() if o == v[0].correct)
    print(f"pairs: {len(pairs)} ({sum(labels)} right by construction)")
    print(f"accuracy against the labels: rewards.math {accuracy(ours):.4f} "
          f"({sum(o != y for o, y in zip(ours, labels))} errors), "
          f"math-verify {accuracy(theirs):.4f} ({sum(t != y for t, y in zip(theirs, labels))} errors)")
    ours_errors = sum(o != y for o, y in zip(ours, labels))
    theirs_errors = sum(t != y for t, y in zip(theirs, labels))
    print(f"error ratio (ours / math-verify): {ours_errors / max(theirs_errors, 1):.3f}")
    print(f"disagreements: {n_dis} ({n_dis / len(pairs):.2%}); the label backs rewards.math on "
          f"{ours_wins}, math-verify on {n_dis - ours_wins}; {len(classes)} classes")
    for (kind, form, o, t), members in classes.items():
        label = members[0].correct if len({p.correct for p in members}) == 1 else None
        side = ("rewards.math" if o == label else "math-verify") if label is not None else "mixed"
        what = f"extraction from shape {form}" if kind == "extraction" else f"{kind}/{form}"
        seen = Counter(p.kind if kind == "extraction" else p.shape for p in members)
        print(f"\n[{len(members)}] {what}: label {_verdict(label) if label is not None else 'mixed'}, "
              f"ours {_verdict(o)}, math-verify {_verdict(t)} -> {side} is right")
        print(f"    {'kinds' if kind == 'extraction' else 'shapes'}: "
              f"{', '.join(f'{s} {c}' for s, c in seen.most_common())}")
        print(f"    {_example(members[0])}")

    mistakes: dict[tuple[str, str], list[Pair]] = defaultdict(list)
    for pair, o in zip(pairs, ours):
        if o != pair.correct:
            mistakes[(pair.kind, pair.form)].append(pair)
    print(f"\nrewards.math against the labels: {sum(map(len, mistakes.values()))} errors "
          f"in {len(mistakes)} (kind, form) classes")
    for (kind, form), members in sorted(mistakes.items(), key=lambda i: (-len(i[1]), i[0])):
        shapes = Counter(p.shape for p in members)
        print(f"  [{len(members)}] {kind}/{form} (label {_verdict(members[0].correct)}; "
              f"{', '.join(f'{s} {c}' for s, c in shapes.most_common())}): {_example(members[0])}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=20_000)
    parser.add_argument("--quick", action="store_true", help="2,000 pairs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=256, help="samples per score() call")
    parser.add_argument("--out", type=Path, help="write every disagreement here as JSONL")
    args = parser.parse_args()
    summary = Report()
    pairs = make_pairs(2000 if args.quick else args.pairs, args.seed)

    start = time.perf_counter()
    ours = ours_verdicts(pairs, batch_size=args.batch_size)
    ours_s = time.perf_counter() - start
    start = time.perf_counter()
    theirs = math_verify_verdicts(pairs)
    theirs_s = time.perf_counter() - start
    print(f"seed {args.seed}; rewards.math {ours_s:.1f}s, math-verify {theirs_s:.1f}s "
          f"(speed ratio ours / math-verify: {theirs_s / ours_s:.2f}x)")
    report(pairs, ours, theirs, disagreement_classes(pairs, ours, theirs))

    if args.out:
        with args.out.open("w", encoding="utf-8") as f:
            for pair, o, t in zip(pairs, ours, theirs):
                if o != t:
                    f.write(json.dumps({"kind": pair.kind, "form": pair.form, "shape": pair.shape,
                                        "label": pair.correct, "ours": o, "math_verify": t,
                                        "gold": pair.gold, "completion": pair.completion},
                                       ensure_ascii=False) + "\n")
        print(f"\nwrote the disagreements to {args.out}")
    labels = [p.correct for p in pairs]
    ours_right = sum(o == y for o, y in zip(ours, labels))
    theirs_right = sum(t == y for t, y in zip(theirs, labels))
    summary.target("verdicts right, ours - math-verify's", ours_right - theirs_right, 0.0,
                   unit="")
    summary.verdict("ours against the labels", ours_right, len(labels))
    return summary.finish()


if __name__ == "__main__":
    raise SystemExit(main())
