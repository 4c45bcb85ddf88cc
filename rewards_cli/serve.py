"""`rewards serve --config CFG --host 127.0.0.1 --port 5000`: the reward HTTP server.

OpenRLHF's remote reward protocol on `POST /get_reward` (`query`, `prompts`, `labels` in;
`rewards`, `scores`, `extra_logs` out), NeMo Gym's `POST /seed_session` and `POST /verify`,
slime's `POST /slime/reward` (`--rm-url`), ROLL's `POST /roll/submit_task` and
`GET /roll/task_result`, and `GET /health` (docs/environments.md, "Every protocol").
Concurrent requests are micro-batched. Point OpenRLHF at it with
`--reward.remote_url http://HOST:PORT/get_reward`.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from rewards_cli._common import (
    add_connection_options,
    add_max_held_option,
    add_set_option,
    load_reward_config,
    max_held_bytes,
    positive,
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("serve", help="serve a reward config over HTTP (OpenRLHF, NeMo Gym, slime, ROLL)",
                       description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=None,
                   help="reward config YAML (default: $REWARDS_CONFIG, else the bundled math "
                        "config)")
    add_set_option(p)
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=5000, help="port (default: 5000)")
    p.add_argument("--max-batch", type=int, default=256,
                   help="most samples scored in one batch (default: 256)")
    p.add_argument("--max-wait-ms", type=float, default=5.0,
                   help="how long a request waits for others to batch with (default: 5 ms)")
    p.add_argument("--max-inflight", type=int, default=4,
                   help="batches scored at the same time (default: 4)")
    p.add_argument("--no-batching", action="store_true",
                   help="score every request on its own as it arrives")
    p.add_argument("--abstain-value", type=float, default=0.0,
                   help="reward sent when the reward abstains, e.g. on an unparseable gold "
                        "(default: 0.0; the reply's reward/abstained log marks it)")
    p.add_argument("--abstain", default="mask", choices=("mask", "zero", "raise"),
                   help="what an abstained sample sends back: mask (OpenRLHF's filtering "
                        "value, see docs/integrations.md), zero (--abstain-value) or raise "
                        "(default: mask)")
    p.add_argument("--on-config-abstain", default="raise", choices=("raise", "warn"),
                   help="when the rows scored so far fail the rule of rewards score and check "
                        "(a whole domain, or all rows, not scored for a configuration cause: "
                        "unknown domain, missing or unreadable reference; counted from 32 "
                        "rows on): answer 422 or warn once (default: raise)")
    add_max_held_option(p, note="also the largest request body: bigger gets 413")
    add_connection_options(p)
    p.add_argument("--max-tasks", type=positive(int), default=65536, metavar="N",
                   help="ROLL tasks held at once (submitted, running or unread; default: "
                        "65536)")
    p.add_argument("--max-tasks-per-client", type=positive(int), default=None, metavar="N",
                   help="ROLL tasks one client address holds at once (all of loopback is one "
                        "client); past it its own oldest finished task makes room, else "
                        "errcode 2 (default: half of --max-tasks; docs/servers.md)")
    p.add_argument("--token", default=None,
                   help="require this shared token of every request (Authorization: Bearer "
                        "TOKEN, or ?access_token=TOKEN in the URL; letters, digits and "
                        "- _ . ~ only); default: "
                        "$REWARDS_SERVE_TOKEN, else none. Prefer the variable: a command line "
                        "is visible to every user of the machine")
    p.add_argument("--log-level", default="info",
                   choices=("critical", "error", "warning", "info", "debug"),
                   help="uvicorn log level (default: info)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import os

    from integrations import CONFIG_ENV, BatchingConfig, resolve_token
    from integrations.server import TOKEN_ENV, serve
    from rewards.errors import ConfigError

    token = resolve_token(args.token, TOKEN_ENV)

    config = args.config or os.environ.get(CONFIG_ENV)
    if config is None:
        config = str(resources.files("rewards") / "data" / "default_config.yaml")
        print(f"no --config given: serving the bundled config {config}", file=sys.stderr)
    elif not Path(config).exists():
        raise ConfigError(f"{config}: no such reward config")
    source: Any = load_reward_config(config, args.overrides) if args.overrides else config
    try:
        batching = BatchingConfig(enabled=not args.no_batching, max_batch=args.max_batch,
                                  max_wait_ms=args.max_wait_ms, max_inflight=args.max_inflight)
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc
    serve(source, host=args.host, port=args.port, batching=batching,
          abstain_value=args.abstain_value, log_level=args.log_level, abstain=args.abstain,
          on_config_abstain=args.on_config_abstain, token=token,
          max_held_bytes=max_held_bytes(args), max_connections=args.max_connections,
          max_connections_per_client=args.max_connections_per_client,
          max_tasks=args.max_tasks, max_tasks_per_client=args.max_tasks_per_client)
    return 0
