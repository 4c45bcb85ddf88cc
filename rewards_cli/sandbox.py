"""`rewards sandbox run FILE --language python [--tests TESTS.json]`: run one program in the
sandbox (or against its tests) and print what happened, for debugging.

`rewards sandbox serve --port 8080`: the sandbox behind SandboxFusion's HTTP API
(`POST /run_code`, `GET /v1/ping`); point veRL at it with
`reward.sandbox_fusion.url=http://127.0.0.1:8080/run_code` (docs/sandbox-fusion.md)."""

from __future__ import annotations

import argparse
import json
import typing
from dataclasses import asdict
from pathlib import Path
from typing import Any

import sandbox  # standard library only; the parser needs its Language names
from rewards.errors import InputError, sandbox_errors
from rewards_cli._common import (
    add_connection_options,
    add_max_held_option,
    max_held_bytes,
    positive,
)

SUFFIXES = {".py": "python", ".c": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp",
            ".js": "javascript", ".mjs": "javascript", ".sh": "bash"}
LANGUAGES = typing.get_args(sandbox.Language)
COMPARES = typing.get_args(sandbox.Compare)
"""The stdin/stdout comparisons: the sandbox's own list (docs/sandbox.md), never a copy."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser("sandbox", help="run a program in the nsjail sandbox (debugging)",
                       description=__doc__)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    r = actions.add_parser("run", help="run FILE, optionally against tests",
                           description=__doc__)
    r.add_argument("file", help="the program's source file")
    r.add_argument("--language", default=None, choices=LANGUAGES, type=str.lower,
                   help="python, c, cpp, javascript or bash (default: from the file suffix)")
    r.add_argument("--tests", default=None, metavar="TESTS.json",
                   help="JSON: a list of assert strings, a list of {input, output} cases, or "
                        "{\"check\": CODE, \"entry_point\": NAME}")
    r.add_argument("--entry-point", default=None, help="function name for check(candidate)")
    r.add_argument("--compare", choices=COMPARES, default="exact",
                   help=f"stdin/stdout comparison: {', '.join(COMPARES)} (default: exact)")
    r.add_argument("--stdin", default=None, metavar="FILE", help="file fed to stdin")
    r.add_argument("--mode", choices=("auto", "cold", "warm"), default="auto",
                   help="warm: fork from a pre-started jailed Python (default for Python)")
    r.add_argument("--wall", type=positive(float), default=10.0,
                   help="wall-clock seconds (default 10)")
    r.add_argument("--memory-mb", type=positive(int), default=1024, help="memory limit in MiB")
    r.add_argument("--json", action="store_true", help="print the result as JSON")
    r.set_defaults(func=run)
    _add_serve_parser(actions)


def _add_serve_parser(actions: Any) -> None:
    s = actions.add_parser("serve", help="serve the sandbox over SandboxFusion's HTTP API",
                           description="Serve the sandbox under SandboxFusion's HTTP API: "
                                       "POST /run_code and GET /v1/ping. Point veRL at it with "
                                       "reward.sandbox_fusion.url=http://HOST:PORT/run_code "
                                       "(docs/sandbox-fusion.md).")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    s.add_argument("--port", type=_port, default=8080, help="port (default: 8080)")
    s.add_argument("--workers", type=positive(int), default=None,
                   help="programs run at the same time (default: one per CPU)")
    s.add_argument("--mode", choices=("auto", "cold"), default="auto",
                   help="auto: Python forks from the warm pool; cold: a fresh jail per run "
                        "(default: auto)")
    s.add_argument("--max-timeout", type=positive(float), default=60.0,
                   help="largest compile_timeout/run_timeout a request may ask (default 60 s)")
    s.add_argument("--memory-mb", type=positive(int), default=1024,
                   help="memory of a run whose memory_limit_MB is <= 0, SandboxFusion's "
                        "default (default: 1024)")
    s.add_argument("--max-memory-mb", type=positive(int), default=8192,
                   help="largest memory_limit_MB a request may ask (default: 8192)")
    s.add_argument("--max-body-mb", type=positive(float), default=16.0,
                   help="largest request body in MiB; bigger gets 413 (default: 16)")
    add_max_held_option(s, note="at least --max-body-mb")
    add_connection_options(s)
    s.add_argument("--token", default=None,
                   help="require this shared token of every request (Authorization: Bearer "
                        "TOKEN, or ?access_token=TOKEN in the URL; letters, digits and "
                        "- _ . ~ only); default: "
                        "$REWARDS_SANDBOX_TOKEN, else none. Prefer the variable: a command "
                        "line is visible to every user of the machine")
    s.add_argument("--log-level", default="info",
                   choices=("critical", "error", "warning", "info", "debug"),
                   help="uvicorn log level (default: info)")
    s.set_defaults(func=serve)


def _port(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number 0-65535, not {text!r}")
    return int(text)


def serve(args: argparse.Namespace) -> int:
    from integrations import resolve_token
    from integrations.sandbox_fusion import TOKEN_ENV, FusionConfig
    from integrations.sandbox_fusion import serve as serve_fusion

    config = FusionConfig(workers=args.workers, mode=args.mode, max_timeout_s=args.max_timeout,
                          default_memory_mb=args.memory_mb, max_memory_mb=args.max_memory_mb,
                          max_body_bytes=int(args.max_body_mb * (1 << 20)),
                          max_held_bytes=max_held_bytes(args))
    serve_fusion(config, host=args.host, port=args.port, log_level=args.log_level,
                 token=resolve_token(args.token, TOKEN_ENV),
                 max_connections=args.max_connections,
                 max_connections_per_client=args.max_connections_per_client)
    return 0


def run(args: argparse.Namespace) -> int:
    from rewards.paths import input_file

    source = input_file(args.file, field="FILE")
    language = args.language or SUFFIXES.get(source.suffix)
    if language is None:
        raise InputError("cannot tell the language from the suffix; pass --language",
                         source=str(source))
    limits = sandbox.Limits(wall_s=args.wall, cpu_s=args.wall,
                            memory_bytes=args.memory_mb << 20)
    code = _read_text(source, "FILE")
    if args.tests is None:
        stdin = input_file(args.stdin, field="--stdin").read_bytes() if args.stdin else b""
        try:
            with sandbox_errors():  # a sandbox that cannot start: exit 2, one line
                execution = sandbox.run(code, language, stdin=stdin, limits=limits,
                                        mode=args.mode)
        except ValueError as exc:  # the sandbox's word for a bad argument (mode, language)
            raise InputError(str(exc), source=str(source)) from exc
        _print_execution(execution, args.json)
        return 0 if execution.ok else 1
    tests_file = input_file(args.tests, field="--tests")
    tests, entry_point = _load_tests(tests_file, args.entry_point)
    try:
        with sandbox_errors():
            report = sandbox.run_tests(code, tests, language, entry_point=entry_point,
                                       limits=limits, compare=args.compare, mode=args.mode)
    except ValueError as exc:  # tests the sandbox cannot run as given (checked before running)
        raise InputError(str(exc), source=str(tests_file)) from exc
    if args.json:
        print(json.dumps({"passed": report.passed, "total": report.total,
                          "pass_fraction": report.pass_fraction,
                          "results": [asdict(r) for r in report.results],
                          "execution": _execution_dict(report.execution)}, indent=2))
    else:
        for result in report.results:
            line = f"test {result.index:>3}  {result.outcome:<8} {result.wall_s:7.3f}s"
            print(f"{line}  {result.message}".rstrip())
        print(f"passed {report.passed}/{report.total} ({report.pass_fraction:.0%}), "
              f"run status {report.status}")
        if report.execution.stderr.strip():
            print("--- stderr ---\n" + report.execution.stderr.rstrip())
    return 0 if report.total and report.passed == report.total else 1


def _read_text(path: Path, field: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text: {exc}", source=str(path), field=field) from exc


def _load_tests(path: Path, entry_point: str | None) -> tuple[Any, str | None]:
    """The tests of a --tests file: a non-empty list (asserts or {input, output} cases) or
    {"check": CODE, "entry_point": NAME}."""
    try:
        data = json.loads(_read_text(path, "--tests"))
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc}", source=str(path)) from exc
    if isinstance(data, dict):
        if not isinstance(data.get("check"), str):
            raise InputError("a tests object needs 'check' code as a string (and "
                             "'entry_point')", source=str(path), field="check")
        return data["check"], entry_point or data.get("entry_point")
    if not isinstance(data, list) or not data:
        raise InputError("tests must be a non-empty list (assert strings or {input, output} "
                         "cases) or an object with 'check'", source=str(path))
    return data, entry_point


def _execution_dict(execution: Any) -> dict[str, Any]:
    data = asdict(execution)
    data.pop("stdout_bytes")
    return data


def _print_execution(execution: Any, as_json: bool) -> None:
    if as_json:
        print(json.dumps(_execution_dict(execution), indent=2))
        return
    print(f"status {execution.status}  exit {execution.exit_code}  signal {execution.signal}  "
          f"wall {execution.wall_s:.3f}s  cpu {execution.cpu_s:.3f}s  "
          f"peak {execution.peak_memory_bytes / 2**20:.1f} MiB"
          + ("  (output truncated)" if execution.truncated else ""))
    if execution.stdout:
        print("--- stdout ---\n" + execution.stdout.rstrip("\n"))
    if execution.stderr:
        print("--- stderr ---\n" + execution.stderr.rstrip("\n"))
