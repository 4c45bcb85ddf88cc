"""The `rewards` command line, the top floor of the house: it may import every package, and
nothing imports it (`python -m rewards` hands over to it by name). Each subcommand lives in its
own module of this package with `add_parser(subparsers)`; heavy imports happen inside the
subcommand's `run`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

import rewards.errors as _errors

__all__ = ["build_parser", "main", "subcommand_modules"]


def subcommand_modules() -> list[str]:
    """Every public module of this package is one subcommand (`score`, `sandbox` ...)."""
    package = Path(__file__).parent
    return sorted(p.stem for p in package.glob("*.py") if not p.stem.startswith("_"))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rewards", description="Reward and verifier engine for LLM reinforcement learning.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in subcommand_modules():
        importlib.import_module(f"rewards_cli.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand. Bad input, configuration or infrastructure exits 2 with one line
    on stderr naming the file or field, never a traceback; so does an operating-system error
    on a file (a full disk, permissions changed mid-run) that no earlier check caught."""
    args = build_parser().parse_args(argv)
    _import_from_working_folder()
    _third_party_logs_to_stderr()
    try:
        return int(args.func(args) or 0)
    except _errors.RewardsError as exc:  # the one tree: INFRASTRUCTURE_ERRORS are in it
        print(f"rewards {args.command}: error: {exc}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2))  # 3: the run scored nothing (see scoring)
    except OSError as exc:
        print(f"rewards {args.command}: error: {_os_error(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"rewards {args.command}: interrupted", file=sys.stderr)
        return 130


def _import_from_working_folder() -> None:
    """Put the folder the command runs from last on `sys.path`: a reward config's dotted-path
    component (`my_rewards:exact`) may live in a module there (docs/reward-config.md), and
    nothing installed is shadowed by a file there (a `tqdm.py` or `integrations.py` in the
    working folder is never imported in place of the real module: an installed name always
    wins, and a plugin so named is told to rename itself, `rewards.registry`). Child
    processes started by spawn get the same path."""
    here = str(Path.cwd())
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)


def _third_party_logs_to_stderr() -> None:
    """stdout holds a command's own output (tables, JSON): vLLM, which logs to stdout by
    default, logs to stderr (unless its logging is set otherwise), in this process and the
    worker processes it starts."""
    import os

    os.environ.setdefault("VLLM_LOGGING_STREAM", "ext://sys.stderr")


def _os_error(exc: OSError) -> str:
    """`path: reason` for an error on a file, else the error itself."""
    if exc.filename is None:
        return f"{type(exc).__name__}: {exc}"
    target = f" -> {exc.filename2}" if exc.filename2 is not None else ""
    return f"{exc.filename}{target}: {exc.strerror or exc}"
