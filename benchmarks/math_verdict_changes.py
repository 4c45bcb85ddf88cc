"""Every verdict a change to the math verifier moves, on every real completion the repository
holds: ToRA's 2,638 GSM8K replies (`tests/math/data/tora_*_gsm8k.jsonl`), Qwen2.5-Math's 800
MATH replies (`qwen25_math_cot_100.jsonl`), the 268 predictions of math-verify's own table
tests (`math_verify_cases.json`), the bundled example rollouts, and the generated pairs of
`benchmarks/math_corpus.py` (seed 0).

    python benchmarks/math_verdict_changes.py --out new.json                    # this tree
    python benchmarks/math_verdict_changes.py --out new.json --against base.json

Run it once on the base commit (`git stash` or a `git archive` of it, with `PYTHONPATH`
pointing there) and once on the change: with `--against`, it lists every completion whose
score or reason differs, and counts them by corpus and by direction (`1.0->0.0` is a correct
verdict lost where the base was right). A pure measurement with no target: it exits 1 when a
verdict that was 1.0 is not any more, so a rule that costs real credit says so."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _report import Report
from math_corpus import make_pairs

from rewards import Sample
from rewards.math import MathReward

DATA = ROOT / "tests" / "math" / "data"


def real_samples(generated: int) -> dict[str, Sample]:
    """Every real completion (and `generated` pairs of the corpus), by a key naming its source."""
    samples: dict[str, Sample] = {}
    for name in ("tora_70b_gsm8k", "tora_code_34b_gsm8k"):
        for line in (DATA / f"{name}.jsonl").read_text().splitlines():
            row = json.loads(line)
            samples[f"{name}:{row['idx']}"] = Sample("p", row["completion"], reference=row["gt"])
    for line in (DATA / "qwen25_math_cot_100.jsonl").read_text().splitlines():
        row = json.loads(line)
        for k, completion in enumerate(row["completions"]):
            samples[f"qwen25:{row['idx']}:{k}"] = Sample("p", completion, reference=row["answer"])
    cases = json.loads((DATA / "math_verify_cases.json").read_text())["cases"]
    for i, case in enumerate(cases):
        samples[f"math_verify:{i}"] = Sample("p", case["pred"], reference=case["gold"])
    rollouts = (ROOT / "rewards" / "data" / "example_rollouts.jsonl").read_text().splitlines()
    for i, line in enumerate(rollouts):
        row = json.loads(line)
        if row.get("domain") == "math":
            samples[f"examples:{i}"] = Sample(row["prompt"], row["completion"],
                                              reference=row["reference"])
    for i, pair in enumerate(make_pairs(generated, seed=0) if generated else []):
        samples[f"generated:{i}"] = Sample(f"p{i}", pair.completion, reference=pair.gold)
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="write {key: [score, reason]}")
    parser.add_argument("--against", type=Path, help="an earlier --out to list changes against")
    parser.add_argument("--generated", type=int, default=20_000,
                        help="generated pairs of math_corpus.py to add (0: real ones only)")
    args = parser.parse_args()
    report = Report()
    samples = real_samples(args.generated)
    scores = MathReward().score(list(samples.values()))
    verdicts = {key: [s.value, s.reason] for key, s in zip(samples, scores)}
    args.out.write_text(json.dumps(verdicts))
    print(f"{len(verdicts)} completions scored, written to {args.out}")
    if args.against is None:
        return report.finish()
    before = json.loads(args.against.read_text())
    changed: Counter[tuple[str, str]] = Counter()
    for key, now in verdicts.items():
        was = before.get(key)
        if was is not None and was != now:
            changed[(key.split(":")[0], f"{was[0]}->{now[0]}")] += 1
            text = samples[key].completion
            print(f"{key}: {was} -> {now}  ...{text[-100:]!r}")
    for (corpus, direction), count in sorted(changed.items()):
        print(f"  {corpus:20} {direction:12} {count}")
    lost = sum(count for (_, direction), count in changed.items()
               if direction.startswith("1.0->"))
    shared = sum(1 for key in verdicts if key in before)
    report.verdict("credit kept where the base gave it", shared - lost, shared,
                   f"{sum(changed.values())} verdicts changed")
    return report.finish()


if __name__ == "__main__":
    raise SystemExit(main())
