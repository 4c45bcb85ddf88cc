"""`rewards score INPUT --config CFG --out OUT`: one output row per input row, a summary."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from rewards._types import Reward, Sample, Score
from rewards.errors import InputError

BUNDLED = resources.files("rewards") / "data"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("score", help="score rollouts (JSONL or Parquet) with a reward config",
                       description=__doc__)
    p.add_argument("input", nargs="?", default=None,
                   help="rollouts, JSONL or Parquet (default: the bundled example rollouts)")
    p.add_argument("--config", default=None,
                   help="reward config YAML (default: the bundled math + code config)")
    p.add_argument("--out", default="scores.jsonl", help="output JSONL (default: scores.jsonl)")
    p.add_argument("--map", default=None, metavar="COL=FIELD,...",
                   help="rename input columns, e.g. solution_str=completion,ground_truth=reference")
    p.add_argument("--batch-size", type=int, default=512, help="rows scored per batch")
    p.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress bar on stderr (auto: inputs of 1,000 rows or more)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rewards.build import build_reward
    from rewards.io import parse_map

    source = Path(args.input) if args.input else Path(str(BUNDLED / "example_rollouts.jsonl"))
    config = Path(args.config) if args.config else Path(str(BUNDLED / "default_config.yaml"))
    if args.input is None:
        print(f"no INPUT given: scoring the bundled examples {source}", file=sys.stderr)
    reward = build_reward(config)
    mapping = parse_map(args.map)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    summary = Summary()
    # counting is a second pass over the input: only done when a bar may be shown
    total = None if args.progress == "off" else _count_rows(source)
    show = args.progress == "on" or (args.progress == "auto" and (total or 0) >= 1000)
    from tqdm import tqdm

    with out.open("w") as fh, tqdm(total=total, disable=not show, unit="row",
                                   file=sys.stderr) as bar:
        for batch in _batches(source, mapping, args.batch_size):
            for row in score_rows(reward, batch):
                summary.add(row)
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            bar.update(len(batch))
    summary.print(sys.stdout, out)
    return 0


Item = tuple[int, Sample | InputError]


def _batches(source: Path, mapping: dict[str, str], size: int) -> Iterator[list[Item]]:
    from rewards.io import iter_rows, row_to_sample

    batch: list[Item] = []
    for line, row in iter_rows(source):
        if not isinstance(row, InputError):
            try:
                row = row_to_sample(row, mapping=mapping, source=str(source), line=line)
            except InputError as exc:
                row = exc
        batch.append((line, row))
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def score_rows(reward: Reward, batch: Sequence[Item]) -> list[dict[str, Any]]:
    """Score the valid samples of a batch together (`rewards.scoring.score_batch`: a poison
    sample becomes an error row, broken infrastructure raises); rows in input order."""
    from rewards.scoring import score_batch

    samples = [(line, s) for line, s in batch if isinstance(s, Sample)]
    scored = score_batch(reward, [s for _, s in samples])
    by_line = {line: (scored.scores[i], scored.error_message(i))
               for i, (line, _) in enumerate(samples)}
    rows = []
    for line, item in batch:
        if isinstance(item, InputError):
            rows.append({"line": line, "score": None, "reason": "input_error",
                         "error": str(item), "field": item.field})
        else:
            rows.append(_result_row(line, item, *by_line[line]))
    return rows


def _result_row(line: int, sample: Sample, score: Score, error: str | None) -> dict[str, Any]:
    row: dict[str, Any] = {"line": line, "domain": sample.domain}
    if sample.group is not None:
        row["group"] = sample.group
    if error is not None:
        row.update(score=None, reason="error", error=error)
    else:
        row.update(score=score.value, reason=score.reason, parts=dict(score.parts))
    return row


def _count_rows(source: Path) -> int:
    if source.suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.ParquetFile(source).metadata.num_rows
    if not source.exists():
        raise InputError("no such file", source=str(source))
    with source.open("rb") as fh:
        return sum(1 for line in fh if line.strip())


class Summary:
    """Mean score per domain and counts per reason, printed at the end of a run."""

    def __init__(self) -> None:
        self.values: dict[str, list[float]] = defaultdict(list)
        self.counts: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()

    def add(self, row: dict[str, Any]) -> None:
        domain = row.get("domain", "(input error)")
        self.counts[domain] += 1
        self.reasons[row["reason"]] += 1
        if row["score"] is not None:
            self.values[domain].append(row["score"])

    def print(self, fh: TextIO, out: Path) -> None:
        total = sum(self.counts.values())
        fh.write(f"scored {total} rows -> {out}\n\n")
        fh.write(f"{'domain':<20} {'rows':>8} {'scored':>8} {'mean':>8}\n")
        for domain in sorted(self.counts):
            values = self.values.get(domain, [])
            mean = f"{sum(values) / len(values):.4f}" if values else "-"
            fh.write(f"{domain:<20} {self.counts[domain]:>8} {len(values):>8} {mean:>8}\n")
        fh.write(f"\n{'reason':<20} {'rows':>8}\n")
        fh.writelines(f"{reason:<20} {count:>8}\n" for reason, count in self.reasons.most_common())
