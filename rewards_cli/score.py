"""`rewards score INPUT --config CFG --out OUT`: one output row per input row, a summary.

Exit status: 0 when the run scored; 2 on an error (bad config, unreadable input or one with no rows, an --out that
is an input or cannot be written, broken infrastructure); 3 when the output is written but
the run failed by the rule of `rewards.scoring.RUN_RULE` (a whole domain, or --abstain-share
of the rows, not scored for a configuration cause: unknown_domain, bad_reference missing,
unparseable or ambiguous, input_error). `rewards check` applies the same rule to its sample."""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from rewards.errors import InputError
from rewards.scoring import AbstentionTally, ConfigurationAbstention, abstention_cause
from rewards.types import Reward, Sample, Score, gold_ambiguity
from rewards_cli._common import (
    BUNDLED,
    BUNDLED_CONFIG,
    INPUT_KINDS,
    add_abstain_share_option,
    add_map_options,
    add_set_option,
    load_reward_config,
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("score", help="score rollouts (JSONL, Parquet, a dataset ...) with a "
                       "reward config", description=__doc__)
    p.add_argument("input", nargs="?", default=None,
                   help=f"rollouts: {INPUT_KINDS} (default: the bundled example rollouts)")
    p.add_argument("--config", default=None,
                   help="reward config YAML (default: the bundled math + code config)")
    p.add_argument("--out", default="scores.jsonl", help="output JSONL (default: scores.jsonl)")
    add_map_options(p, example="solution_str=completion,reward_model.ground_truth=reference",
                    fields="prompt, completion, reference, domain, group, id, meta")
    add_set_option(p)
    p.add_argument("--batch-size", type=int, default=512, help="rows scored per batch")
    p.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress bar on stderr (auto: inputs of 1,000 rows or more)")
    add_abstain_share_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rewards.build import build_reward
    from rewards.io import (
        count_rows,
        input_source,
        open_output,
        parse_domain_map,
        parse_map,
        write_row,
    )
    from rewards.scoring import AbstentionPolicy

    source = Path(args.input) if args.input else Path(str(BUNDLED / "example_rollouts.jsonl"))
    config = Path(args.config) if args.config else BUNDLED_CONFIG
    if args.input is None:
        print(f"no INPUT given: scoring the bundled examples {source}", file=sys.stderr)
    mapping = parse_map(args.map)
    domain_map = parse_domain_map(args.domain_map)
    input_source(source)
    reward = build_reward(load_reward_config(config, args.overrides))
    out = Path(args.out)
    tally = AbstentionTally(AbstentionPolicy(share=args.abstain_share), where="",
                            domains=getattr(reward, "domains", ()))
    summary = Summary(tally, normalize=getattr(reward, "normalize", "none"))
    columns: set[str] = set()
    completions = CompletionSeen(mapping, str(source))
    # counting is a second pass over the input: only done when a bar may be shown
    total = None if args.progress == "off" else count_rows(source)
    show = args.progress == "on" or (args.progress == "auto" and (total or 0) >= 1000)
    from tqdm import tqdm

    with open_output(out, inputs=[source, config]) as fh, \
            tqdm(total=total, disable=not show, unit="row", file=sys.stderr) as bar:
        for batch in _batches(source, mapping, domain_map, args.batch_size, columns,
                              completions):
            for row in score_rows(reward, batch, tally):
                summary.add(row)
                write_row(fh, row, out)
            bar.update(len(batch))
    note = completions.note()
    summary.print(sys.stdout, out, note=note)
    if tally.rows == 0:  # the run rule's floor: a run that scored nothing never exits 0
        raise InputError("the input holds no rows: nothing was scored", source=str(source))
    _warn_unused_map(mapping, columns, tally.rows)
    try:
        tally.check()  # a run that scored nothing for a configuration cause: exit 3
    except ConfigurationAbstention as exc:
        if note:  # the field and the --map that fixes it, not only "check the file"
            raise ConfigurationAbstention(f"{exc}: {note}", exc.counts) from None
        raise
    return 0


class CompletionSeen:
    """Whether any row had a completion, and the first that had none: a run where no row has
    one names the field and the `--map` that fixes it (`rewards.check`'s note, the same one
    `rewards check` gives)."""

    def __init__(self, mapping: Mapping[str, str], source: str) -> None:
        self.mapping = mapping
        self.source = source
        self.any = False
        self.first_missing: tuple[int, Mapping[str, Any]] | None = None

    def add(self, line: int, row: Mapping[str, Any], error: InputError | None) -> None:
        from rewards.io import column_of

        if error is None or error.field != column_of(self.mapping, "completion") \
                or not error.detail.startswith("missing completion"):
            self.any = True  # the row has a completion (valid or not)
            return
        if self.first_missing is None:
            self.first_missing = (line, row)

    def note(self) -> str:
        if self.any or self.first_missing is None:
            return ""
        from rewards.check import missing_completion_note

        line, row = self.first_missing
        return missing_completion_note(row, self.mapping, self.source, line)


def _warn_unused_map(mapping: dict[str, str], columns: set[str], rows: int) -> None:
    """A mapped column in no row (a dotted path counts by its first step: a missing path is
    an error row of its own)."""
    for column in sorted(c for c in mapping if c not in columns
                         and c.split(".")[0] not in columns):
        if rows:
            print(f"rewards score: warning: --map column {column!r} is in no input row "
                  f"(columns: {', '.join(sorted(columns)) or 'none'})", file=sys.stderr)


Item = tuple[int, Sample | InputError, Any]
"""(line, sample or error, the row's id or None)."""


def _batches(source: Path, mapping: dict[str, str], domain_map: Mapping[str, str], size: int,
             columns: set[str], completions: CompletionSeen | None = None
             ) -> Iterator[list[Item]]:
    """Batches of (line, sample or error, id); `columns` collects the column names seen,
    `completions` whether rows had a completion."""
    from rewards.io import iter_rows, row_id, row_to_sample

    batch: list[Item] = []
    for line, row in iter_rows(source):
        ident = None
        sample: Sample | InputError
        if isinstance(row, InputError):
            sample = row
        else:
            columns.update(row)
            ident = row_id(row, mapping)
            try:
                sample = row_to_sample(row, mapping=mapping, domain_map=domain_map,
                                       source=str(source), line=line)
            except InputError as exc:
                sample = exc
            if completions is not None:
                completions.add(line, row, sample if isinstance(sample, InputError) else None)
        batch.append((line, sample, ident))
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

    samples = [item for _, item, _ in batch if isinstance(item, Sample)]
    scored = score_batch(reward, samples, tally=tally)
    if tally is not None:
        tally.add_cause("input_error", len(batch) - len(samples))
    rows = []
    done = 0
    for line, item, ident in batch:
        row: dict[str, Any] = {"line": line}
        if ident is not None:
            row["id"] = ident
        if isinstance(item, InputError):
            row.update(score=None, reason="input_error", error=str(item), field=item.field)
        else:
            row.update(_result(item, scored.scores[done], scored.error_message(done)))
            done += 1
        rows.append(row)
    return rows


def _result(sample: Sample, score: Score, error: str | None) -> dict[str, Any]:
    row: dict[str, Any] = {"domain": sample.domain}
    if sample.group is not None:
        row["group"] = sample.group
    if error is not None:
        row.update(score=None, reason="error", error=error)
    else:
        row.update(score=score.value, reason=score.reason, parts=dict(score.parts))
        cause = abstention_cause(sample, score)
        if cause is not None and cause != score.reason:  # bad_reference:missing|unparseable
            row["cause"] = cause
        ambiguity = gold_ambiguity(sample)
        if ambiguity and score.value is None:  # the file, line and columns: the fix to make
            row["error"] = ambiguity
    return row


class Summary:
    """Mean score per domain, counts per reason and abstentions by cause, printed at the end
    of a run. Under a batch normalization (`normalize`: zscore_by_domain, group) the mean is
    of the raw scores (`parts["raw"]`): the normalized scores' mean per domain is 0 by
    construction and would say nothing."""

    def __init__(self, tally: AbstentionTally | None = None, *, normalize: str = "none") -> None:
        self.tally = tally
        self.normalize = normalize
        self.values: dict[str, list[float]] = defaultdict(list)
        self.counts: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()

    def add(self, row: dict[str, Any]) -> None:
        domain = row.get("domain", "(input error)")
        self.counts[domain] += 1
        self.reasons[row["reason"]] += 1
        if row["score"] is not None:
            raw = row.get("parts", {}).get("raw") if self.normalize != "none" else None
            self.values[domain].append(row["score"] if raw is None else raw)

    def print(self, fh: TextIO, out: Path, *, note: str = "") -> None:
        total = sum(self.counts.values())
        fh.write(f"scored {total} rows -> {out}\n\n")
        mean = "mean" if self.normalize == "none" else "raw mean"
        fh.write(f"{'domain':<20} {'rows':>8} {'scored':>8} {mean:>8}\n")
        for domain in sorted(self.counts):
            values = self.values.get(domain, [])
            mean = f"{sum(values) / len(values):.4f}" if values else "-"
            fh.write(f"{domain:<20} {self.counts[domain]:>8} {len(values):>8} {mean:>8}\n")
        if self.normalize != "none":
            fh.write(f"(raw mean: of the scores before {self.normalize}; the output's "
                     "`score` is normalized, its `parts.raw` is the raw score)\n")
        fh.write(f"\n{'reason':<20} {'rows':>8}\n")
        fh.writelines(f"{reason:<20} {count:>8}\n" for reason, count in self.reasons.most_common())
        causes = self.tally.counts() if self.tally is not None else {}
        if causes:
            fh.write(f"\n{'not scored, by cause':<24} {'rows':>8}\n")
            fh.writelines(f"{cause:<24} {count:>8}\n" for cause, count in causes.items())
        if note:
            fh.write(f"\n{note}\n")
