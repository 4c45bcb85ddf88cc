"""`rewards env serve --environment ENV.yaml --reward-config REWARD.yaml`: the environment
server (OpenEnv's HTTP routes and its `/ws` WebSocket, as openenv-core's `EnvClient` speaks
it; docs/servers.md#the-environment-server). The options are those of
`python -m integrations.env_server` (one parser: `rewards env serve --help` prints it)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("env", help="serve environments over HTTP and WebSocket (OpenEnv)",
                       description=__doc__)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    s = actions.add_parser("serve", add_help=False, prefix_chars="\0",
                           help="the environment server (python -m integrations.env_server)",
                           description=__doc__)
    s.add_argument("options", nargs=argparse.REMAINDER,
                   help="the options of python -m integrations.env_server")
    s.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from integrations.env_server import main

    main(list(args.options), prog="rewards env serve")
    return 0
