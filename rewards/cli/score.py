"""`rewards score INPUT --config CFG --out OUT`: one output row per input row, a summary.

Exit status: 0 when the run scored; 2 on an error (bad config, unreadable input, an --out that
is an input or cannot be written, broken infrastructure); 3 when the output is written but
the rows were not scored for a configuration cause (all of them, or --abstain-share of them:
unknown_domain, bad_reference:missing, input_error)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from rewards.errors import InputError
from rewards.scoring import AbstentionTally, abstention_cause
from rewards.types import Reward, Sample, Score

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
    p.add_argument("--abstain-share", type=_share, default=1.0, metavar="SHARE",
                   help="exit 3 when at least this share of the rows was not scored for a "
                        "configuration cause: unknown_domain, bad_reference:missing, "
                        "input_error (default 1.0: all of them)")
    p.set_defaults(func=run)


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(f"a share in (0, 1], not {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    from rewards.build import build_reward
    from rewards.io import open_output, parse_map, write_row
    from rewards.scoring import AbstentionPolicy

    source = Path(args.input) if args.input else Path(str(BUNDLED / "example_rollouts.jsonl"))
    config = Path(args.config) if args.config else Path(str(BUNDLED / "default_config.yaml"))
    if args.input is None:
        print(f"no INPUT given: scoring the bundled examples {source}", file=sys.stderr)
    reward = build_reward(config)
    mapping = parse_map(args.map)
    out = Path(args.out)
    tally = AbstentionTally(AbstentionPolicy(share=args.abstain_share), where="",
                            domains=getattr(reward, "domains", ()))
    summary = Summary(tally)
    columns: set[str] = set()
    # counting is a second pass over the input: only done when a bar may be shown
    total = None if args.progress == "off" else _count_rows(source)
    show = args.progress == "on" or (args.progress == "auto" and (total or 0) >= 1000)
    from tqdm import tqdm

    with open_output(out, inputs=[source, config]) as fh, \
            tqdm(total=total, disable=not show, unit="row", file=sys.stderr) as bar:
        for batch in _batches(source, mapping, args.batch_size, columns):
            for row in score_rows(reward, batch, tally):
                summary.add(row)
                write_row(fh, row, out)
            bar.update(len(batch))
    summary.print(sys.stdout, out)
    _warn_unused_map(mapping, columns, tally.rows)
    tally.check()  # a run that scored nothing for a configuration cause: exit 3
    return 0


def _warn_unused_map(mapping: dict[str, str], columns: set[str], rows: int) -> None:
    for column in sorted(set(mapping) - columns):
        if rows:
            print(f"rewards score: warning: --map column {column!r} is in no input row "
                  f"(columns: {', '.join(sorted(columns)) or 'none'})", file=sys.stderr)


Item = tuple[int, Sample | InputError]


def _batches(source: Path, mapping: dict[str, str], size: int,
             columns: set[str]) -> Iterator[list[Item]]:
    """Batches of (line, sample or error); `columns` collects the column names seen."""
    from rewards.io import iter_rows, row_to_sample

    batch: list[Item] = []
    for line, row in iter_rows(source):
        if not isinstance(row, InputError):
            columns.update(row)
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


def score_rows(reward: Reward, batch: Sequence[Item],
               tally: AbstentionTally | None = None) -> list[dict[str, Any]]:
    """Score the valid samples of a batch together (`rewards.scoring.score_batch`: a poison
    sample becomes an error row, broken infrastructure raises); rows in input order. `tally`
    counts abstentions and input errors."""
    from rewards.scoring import score_batch

    samples = [(line, s) for line, s in batch if isinstance(s, Sample)]
    scored = score_batch(reward, [s for _, s in samples], tally=tally)
    if tally is not None:
        tally.add_cause("input_error", len(batch) - len(samples))
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
        cause = abstention_cause(sample, score)
        if cause is not None and cause != score.reason:  # bad_reference:missing|unparseable
            row["cause"] = cause
    return row


def _count_rows(source: Path) -> int:
    from rewards.io import open_parquet
    from rewards.paths import input_file

    input_file(source)
    if source.suffix == ".parquet":
        return open_parquet(source).metadata.num_rows
    with source.open("rb") as fh:
        return sum(1 for line in fh if line.strip())


class Summary:
    """Mean score per domain, counts per reason and abstentions by cause, printed at the end
    of a run."""

    def __init__(self, tally: AbstentionTally | None = None) -> None:
        self.tally = tally
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
        causes = self.tally.counts() if self.tally is not None else {}
        if causes:
            fh.write(f"\n{'not scored, by cause':<24} {'rows':>8}\n")
            fh.writelines(f"{cause:<24} {count:>8}\n" for cause, count in causes.items())
