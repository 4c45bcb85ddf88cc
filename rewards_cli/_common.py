"""Options shared by the subcommands that read rows or a reward config: `--map`,
`--domain-map` and `--set`, added and read the same way everywhere."""

from __future__ import annotations

import argparse
import math
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rewards.config import RewardConfig

BUNDLED = resources.files("rewards") / "data"
BUNDLED_CONFIG = Path(str(BUNDLED / "default_config.yaml"))
"""The bundled math + code reward config, used when a command gets no --config."""

INPUT_KINDS = ("JSONL, JSON array, Parquet, CSV/TSV, Arrow, or a datasets save_to_disk "
               "folder")


def add_map_options(p: Any, *, example: str, fields: str) -> None:
    """`--map COL=FIELD` (dotted paths into nested columns) and `--domain-map VALUE=DOMAIN`,
    each repeatable or comma-separated."""
    p.add_argument("--map", action="append", default=None, metavar="COL=FIELD,...",
                   help=f"rename input columns onto {fields}; COL may be a dotted path into "
                        f"nested columns, e.g. {example}")
    p.add_argument("--domain-map", action="append", default=None, metavar="VALUE=DOMAIN,...",
                   help="score rows whose domain is VALUE as the config's DOMAIN, e.g. "
                        "openai/gsm8k=math")


def add_set_option(p: Any) -> None:
    """`--set KEY=VALUE` overrides of the reward config (`rewards.overrides`)."""
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override a reward config value: KEY a dotted path (normalize, "
                        "domains.math.alpha, domains.code.rewards.0.time_limit_s), VALUE "
                        "parsed as YAML; repeatable")


def add_abstain_share_option(p: Any) -> None:
    """`--abstain-share SHARE`: the share of the rules that fail a run
    (`rewards.scoring.RUN_RULE`), the same for `rewards score` and `rewards check`."""
    def share(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0.0 < value <= 1.0:
            raise argparse.ArgumentTypeError(f"a share in (0, 1], not {text!r}")
        return value

    p.add_argument("--abstain-share", type=share, default=1.0, metavar="SHARE",
                   help="exit 3 when at least this share of the rows, or of one domain's "
                        "rows, was not scored for a configuration cause: unknown_domain, "
                        "bad_reference (missing or unparseable), input_error (default 1.0: "
                        "all of them)")


def load_reward_config(path: str | Path, overrides: list[str] | None = None) -> RewardConfig:
    """The reward config at `path`, with `--set` overrides applied to its YAML document
    before it is validated (so an override is checked like the file itself)."""
    from rewards.config import load_config, load_yaml, parse_config
    from rewards.errors import ConfigError
    from rewards.overrides import apply_overrides

    if not overrides:
        return load_config(path)
    document = load_yaml(path, what="reward config")
    if not isinstance(document, dict):
        raise ConfigError(f"{path}: a reward config is a mapping with a 'domains' key")
    return parse_config(apply_overrides(document, overrides), source=f"{path} (with --set)")


def positive(kind: type) -> Any:
    """An argparse type: a finite number > 0 of `kind` (a bad one exits 2 with its name)."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or value <= 0:
            raise argparse.ArgumentTypeError(f"must be a positive {kind.__name__}, not {text!r}")
        return value
    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def add_max_held_option(p: Any, *, note: str = "") -> None:
    """`--max-held-mb M` of the HTTP servers (`integrations._body.BodyLimit`): request bodies
    held at once, in MiB; read back in bytes by `max_held_bytes`."""
    p.add_argument("--max-held-mb", type=positive(float), default=64.0,
                   help="request bodies held at once (read, waiting or running) in MiB; a "
                        "request past it waits unread (chunked without a length: 503) "
                        f"(default: 64{', ' + note if note else ''})")


def add_connection_options(p: Any) -> None:
    """`--max-connections N` and `--max-connections-per-client N` of the HTTP servers
    (`integrations._http.ConnectionCaps`, which derives the defaults and checks them; the
    environment server defines the same two options with the same help)."""
    p.add_argument("--max-connections", type=positive(int), default=None, metavar="N",
                   help=MAX_CONNECTIONS_HELP)
    p.add_argument("--max-connections-per-client", type=positive(int), default=None,
                   metavar="N", help=MAX_CONNECTIONS_PER_CLIENT_HELP)


MAX_CONNECTIONS_HELP = ("connections held at once; past it a new one replaces the one waiting "
                        "longest for a request, else gets 503 (default: half the descriptors "
                        "free at start, at most 8192; docs/servers.md)")
MAX_CONNECTIONS_PER_CLIENT_HELP = ("connections one client address holds at once (all of "
                                   "loopback is one client); past it as --max-connections "
                                   "(default: half of --max-connections)")


def max_held_bytes(args: Any) -> int:
    """`--max-held-mb` in bytes."""
    return int(args.max_held_mb * (1 << 20))
