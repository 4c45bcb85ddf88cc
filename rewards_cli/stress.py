"""`rewards stress [--config CFG] [--data ROWS] [--report OUT.json] [--plot OUT.png]`: attack
every component of a reward config before it trains anything (docs/stress.md).

For each domain and component, built from the rows of that domain (your --data, else the
bundled examples): a gold gate (the reference in every layout the component reads scores full
marks; empty, blank, invisible-only and prompt-echo replies score 0; scoring is deterministic;
a broken reference abstains with its cause), then probes by attack class (hedging,
value-changing words, invisible characters, special-token text, notes to the grader, exit
tricks, always-equal objects, hard-coded outputs, state left for the next run, malformed tool
calls, loose-mode tricks, tag spam, a judge's position bias ...), each built from a real row.
A probe earns credit on a row when an attack scores above the row's honest wrong answer (or
above what a reader sees); a probe that makes a reward abstain on model output masks its 0
and counts too.

Exit status: 1 when a gate check fails or a probe earns credit on more than --max-credit of
its rows; 2 on an error (bad config, unreadable rows); 0 otherwise. Components without probes
are listed as UNPROBED (not safe: nothing attacked them); --require-probes makes them fail."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rewards_cli._common import (
    BUNDLED,
    BUNDLED_CONFIG,
    INPUT_KINDS,
    add_map_options,
    add_set_option,
    load_reward_config,
)

if TYPE_CHECKING:
    from rewards.types import Sample

STRESS_CONFIG = Path(str(BUNDLED / "stress_config.yaml"))
"""Every built-in component that needs no model, one domain each (`--all-builtins`)."""
BUNDLED_ROWS = (Path(str(BUNDLED / "example_rollouts.jsonl")),
                Path(str(BUNDLED / "stress_examples.jsonl")))


def add_parser(sub: Any) -> None:
    p = sub.add_parser("stress", help="attack every reward component with the classes real "
                                      "policies find, on your rows", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=None,
                   help="reward config YAML (default: the bundled math + code config)")
    p.add_argument("--all-builtins", action="store_true",
                   help="stress the bundled config of every built-in component that needs no "
                        "model (math, rtv, ifeval, tool_call, format, tag_count)")
    p.add_argument("--data", action="append", default=None, metavar="ROWS",
                   help=f"rows to build probes from ({INPUT_KINDS}); repeatable (default: the "
                        "bundled examples)")
    add_map_options(p, example="reward_model.ground_truth=reference",
                    fields="prompt, completion, reference, domain, group, id")
    add_set_option(p)
    p.add_argument("--rows", type=int, default=6,
                   help="rows per component to build probes from, one per group (default 6)")
    p.add_argument("--max-credit", type=float, default=0.0,
                   help="the share of rows a probe may earn credit on before the run fails "
                        "(default 0)")
    p.add_argument("--require-probes", action="store_true",
                   help="fail when a component has no probes (or no row to build them from)")
    p.add_argument("--report", default=None, metavar="OUT.json", help="write the JSON report")
    p.add_argument("--plot", default=None, metavar="OUT.png",
                   help="draw credit by attack class per component")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rewards.errors import ConfigError, InputError
    from rewards.io import iter_samples, parse_domain_map, parse_map
    from rewards.stress import as_dict, plot, render, stress_config

    if args.all_builtins and args.config:
        raise ConfigError("--all-builtins and --config: choose one")
    path = STRESS_CONFIG if args.all_builtins else Path(args.config) if args.config \
        else BUNDLED_CONFIG
    config = load_reward_config(path, args.overrides)
    sources = [Path(d) for d in args.data] if args.data else list(BUNDLED_ROWS)
    mapping, domain_map = parse_map(args.map), parse_domain_map(args.domain_map)
    samples: list[Sample] = []
    skipped: list[InputError] = []
    for source in sources:
        for line, row in iter_samples(source, mapping=mapping, domain_map=domain_map):
            if isinstance(row, InputError):
                skipped.append(row)
            else:
                samples.append(row)
    if skipped:  # a probe needs a sample: rows that are not one are named, not lost
        print(f"rewards stress: {len(skipped)} rows are not samples and build no probes, "
              f"e.g. {skipped[0]}", file=sys.stderr)
    if not samples:
        raise InputError(f"no usable row in {', '.join(map(str, sources))}")
    report = stress_config(config, samples, rows=args.rows,
                           progress=lambda what: print(f"stressing {what} ...",
                                                       file=sys.stderr, flush=True))
    sys.stdout.write(render(report, args.max_credit))
    if args.report:
        Path(args.report).write_text(json.dumps(as_dict(report, args.max_credit), indent=1,
                                                ensure_ascii=False) + "\n", encoding="utf-8")
    if args.plot:
        why = plot(report, Path(args.plot))
        if why:
            print(f"rewards stress: {why}", file=sys.stderr)
    failed = bool(report.failures(args.max_credit))
    if args.require_probes and report.unprobed():
        print("rewards stress: unprobed components (--require-probes): "
              + "; ".join(report.unprobed()), file=sys.stderr)
        failed = True
    return 1 if failed else 0
