"""`rewards rescore ROWS [--diff OLD] [--config CFG]`: score saved rollouts with the current
config and version, and report which verdicts flipped, by reason and by training step: what a
verifier fix would have changed in a finished run (docs/stress.md).

ROWS holds the rollouts (prompt, completion, reference, domain; `--map` renames columns), as
`rewards score` reads them, or a training run's `completions.jsonl` (which carries each row's
reference, domain and step). The old verdicts: OLD (`--diff`), a `rewards score` output of
the same rows (joined by its `line`) or any rows with a `reward` or `score` field in the same
order; without `--diff`, ROWS' own `reward` / `score` field. The rewards compared are the raw
ones (before `normalize`), as both outputs hold them when the config does not normalize.

Exit status: 0 (a report, whatever flipped); 2 on an error; `--fail-on-flip` exits 1 when a
verdict flipped (a regression gate in CI)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rewards_cli._common import BUNDLED_CONFIG, add_map_options, add_set_option, load_reward_config


def add_parser(sub: Any) -> None:
    p = sub.add_parser("rescore", help="rescore saved rollouts and report the verdicts that "
                                       "flipped", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="the rollouts (JSONL, Parquet, CSV ... or completions.jsonl)")
    p.add_argument("--diff", default=None, metavar="OLD",
                   help="the old verdicts: a rewards score output, or rows with reward/score")
    p.add_argument("--config", default=None,
                   help="reward config YAML (default: the bundled math + code config)")
    add_map_options(p, example="reward_model.ground_truth=reference",
                    fields="prompt, completion, reference, domain, group, id")
    add_set_option(p)
    p.add_argument("--out", default=None, metavar="FLIPS.jsonl",
                   help="write every flipped rollout (line, step, old, new, reasons)")
    p.add_argument("--fail-on-flip", action="store_true", help="exit 1 when a verdict flipped")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rewards.build import build_reward
    from rewards.errors import InputError
    from rewards.io import iter_rows, parse_domain_map, parse_map, row_to_sample
    from rewards.rescore import rescore

    config = load_reward_config(Path(args.config) if args.config else BUNDLED_CONFIG,
                                args.overrides)
    reward = build_reward(config)
    mapping, domain_map = parse_map(args.map), parse_domain_map(args.domain_map)
    samples, olds, lines, steps = [], [], [], []
    rows = list(iter_rows(Path(args.input)))
    old_rows = _old_rows(Path(args.diff)) if args.diff else None
    for index, (line, row) in enumerate(rows):
        if isinstance(row, InputError):
            raise row
        sample = row_to_sample(row, mapping=mapping, domain_map=domain_map,
                               source=args.input, line=line)
        source = row if old_rows is None else old_rows.get(line, old_rows.get(-index - 1))
        if source is None:
            raise InputError(f"{args.diff}: no old verdict for line {line} of {args.input}")
        samples.append(sample)
        olds.append(_old_verdict(source, where=f"{args.diff or args.input}, line {line}"))
        lines.append(line)
        steps.append(row.get("step") if isinstance(row.get("step"), int) else None)
    report = rescore(reward, samples, olds, lines=lines, steps=steps)
    sys.stdout.write(report.render())
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps({"line": flip.line, "step": flip.step, "change": flip.kind,
                                     "old": flip.old, "new": flip.new,
                                     "old_reason": flip.old_reason,
                                     "new_reason": flip.new_reason}) + "\n" for flip in report.flips)
    return 1 if args.fail_on_flip and report.flips else 0


def _old_rows(path: Path) -> dict[int, dict[str, Any]]:
    """Old verdict rows by the input line they name (`line`, as `rewards score` writes it),
    and by position (-1, -2 ...) for rows that name none."""
    from rewards.errors import InputError
    from rewards.io import iter_rows

    out: dict[int, dict[str, Any]] = {}
    for index, (line, row) in enumerate(iter_rows(path)):
        if isinstance(row, InputError):
            raise row
        out[-index - 1] = row
        if isinstance(row.get("line"), int):
            out[row["line"]] = row
    return out


def _old_verdict(row: dict[str, Any], *, where: str) -> tuple[float | None, str | None]:
    from rewards.errors import InputError

    for key in ("score", "reward"):
        if key in row:
            value = row[key]
            if value is not None and not isinstance(value, (int, float)):
                raise InputError(f"{where}: field {key!r} is not a number: {value!r}")
            reason = row.get("reason")
            return (None if value is None else float(value),
                    reason if isinstance(reason, str) else None)
    raise InputError(f"{where}: no old verdict (a 'score' or 'reward' field); give the old "
                     "scores with --diff")
