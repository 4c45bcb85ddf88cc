"""`rewards check DATA --config CFG [--map ...] [--domain-map ...]`: a dry run before a long
job. Reads the first --rows rows only (and counts the rest where that is cheap): routing per
domain, how many references each component can use, how many rows would abstain and why, a
few extracted answers per domain, the first input errors. It takes score's own steps up to
the sandbox and the models (the math reward compares as it scores; the code reward runs its
Rule layer): no program runs, no model is loaded.

Exit status: as `rewards score` would exit on the sample: 3 when it would fail by the one rule
of `rewards.scoring.RUN_RULE` (a whole domain, or --abstain-share of the rows, not scored for
a configuration cause: unknown domain, missing or unparseable reference, invalid rows); 2 on
an error (bad config, a plugin that cannot be imported, unreadable input); 0 otherwise."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rewards_cli._common import (
    BUNDLED_CONFIG,
    INPUT_KINDS,
    add_abstain_share_option,
    add_map_options,
    add_set_option,
    load_reward_config,
)


def add_parser(sub: Any) -> None:
    from rewards.check import DEFAULT_ROWS

    p = sub.add_parser("check", help="dry-run a reward config over the first rows of a dataset",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help=f"rows to check: rollouts or prompts ({INPUT_KINDS})")
    p.add_argument("--config", default=None,
                   help="reward config YAML (default: the bundled math + code config)")
    add_map_options(p, example="reward_model.ground_truth=reference",
                    fields="prompt, completion, reference, domain, group, id")
    add_set_option(p)
    add_abstain_share_option(p)
    p.add_argument("--rows", type=_positive, default=DEFAULT_ROWS,
                   help=f"rows to read from the start of the input (default {DEFAULT_ROWS})")
    p.add_argument("--examples", type=int, default=3,
                   help="extracted answers shown per domain (default 3)")
    p.set_defaults(func=run)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a positive number of rows, not {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    from rewards.check import check_rows
    from rewards.io import parse_domain_map, parse_map
    from rewards.scoring import ConfigurationAbstention

    config_path = Path(args.config) if args.config else BUNDLED_CONFIG
    config = load_reward_config(config_path, args.overrides)
    report = check_rows(Path(args.input), config, mapping=parse_map(args.map),
                        domain_map=parse_domain_map(args.domain_map), rows=args.rows,
                        examples=args.examples, share=args.abstain_share)
    sys.stdout.write(report.render())
    sys.stdout.flush()  # the report before the error line, on a terminal or in one log
    if report.read == 0:  # a check of nothing passes nothing (`rewards.scoring.RUN_RULE`)
        from rewards.errors import InputError

        raise InputError("the input holds no rows: nothing was checked", source=args.input)
    if report.failures:
        more = len(report.failures) - 1
        raise ConfigurationAbstention(report.failures[0] + (
            f" (and {more} more: the FAIL lines of the report)" if more else ""), {})
    return 0
