"""A SandboxFusion-compatible HTTP API for the sandbox (FastAPI + uvicorn): `POST /run_code`,
`POST /run_jupyter` (the cells of one request in one sandbox session) and `GET /v1/ping`, so a trainer that already speaks SandboxFusion's API (veRL's
`reward.sandbox_fusion.url`) runs its programs in our nsjail sandbox, Python on the warm pool,
with no code change.

Start it with `rewards sandbox serve --port 8080` and point veRL at
`reward.sandbox_fusion.url=http://127.0.0.1:8080/run_code`. Requests and replies keep
SandboxFusion's shapes (`RunCodeRequest` in; `RunCodeResponse` with `CommandRunResult`s out),
field names, enum values, defaults and status codes: every run answers 200 with `status`
Success, Failed or SandboxError, a body that fails validation gets FastAPI's 422 (as
SandboxFusion's does), one over `max_body_bytes` a 413. Bodies, deadlines and the token are
those of all our servers (`integrations._http`, docs/servers.md): the body is parsed and
validated off the event loop. What differs (no `fetch_files`, no `/submit`,
always a memory bound, none under `MIN_MEMORY_MB`) is listed in docs/sandbox-fusion.md.
"""

# No `from __future__ import annotations` here: FastAPI reads the endpoint's annotation (the
# request model, built in `api_models`) at definition time.
import asyncio
import base64
import binascii
import logging
import math
import os
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Annotated, Any, Literal

import sandbox
from integrations._body import DEFAULT_MAX_HELD_BYTES, BodyBounds, check_bounds, parsed_body
from integrations._http import guard, json_response, run_server
from rewards.deps import require
from rewards.errors import ConfigError, InputError, SandboxError

__all__ = ["ACCEPTED_LANGUAGES", "COMPILED", "FUSION_LANGUAGES", "MIN_MEMORY_MB",
           "NOTEBOOK_OUTPUT_CHARS", "ROUTES",
           "RUNS_AS", "TOKEN_ENV", "FusionConfig", "api_models", "create_app", "fusion_response",
           "jupyter_response", "run_jupyter_request", "run_request", "sandbox_error_response",
           "serve", "warm_up"]

TOKEN_ENV = "REWARDS_SANDBOX_TOKEN"
"""The environment variable `rewards sandbox serve` reads its shared token from (`--token`)."""
ROUTES = ("POST /run_code", "POST /run_jupyter", "GET /v1/ping")

MIN_MEMORY_MB = 16
"""The smallest `memory_limit_MB` a request may ask for (less, but over 0: 422). Under it the
sandbox cannot hold a run to the limit asked: a cold interpreter does not start, while one
forked from the warm pool shares the pages of an interpreter already loaded and would run
`print(1)` "within 1 MiB". A limit the server cannot apply is refused, never silently
replaced."""

logger = logging.getLogger(__name__)

FUSION_LANGUAGES = ("python", "cpp", "nodejs", "go", "go_test", "java", "php", "csharp", "bash",
                    "typescript", "sql", "rust", "cuda", "lua", "R", "perl", "D_ut", "ruby",
                    "scala", "julia", "pytest", "junit", "kotlin_script", "jest", "verilog",
                    "python_gpu", "lean", "swift", "racket")
"""SandboxFusion's `language` values (its `Language` literal, which veRL's client also checks
against). Any other name fails validation: a 422, as SandboxFusion answers."""

RUNS_AS: Mapping[str, sandbox.Language] = {"python": "python", "cpp": "cpp",
                                           "nodejs": "javascript", "bash": "bash",
                                           # the sandbox's own names, beyond SandboxFusion's
                                           "c": "c", "javascript": "javascript"}
"""The `language` values this server runs, each with the sandbox language it runs as. A
SandboxFusion language missing here (go, java, rust ...) is valid but answered SandboxError."""

COMPILED = frozenset({"c", "cpp"})
"""The sandbox languages with a compile step (reported as `compile_result`)."""

ACCEPTED_LANGUAGES = FUSION_LANGUAGES + tuple(name for name in RUNS_AS
                                              if name not in FUSION_LANGUAGES)

NOTEBOOK_OUTPUT_CHARS = 16 << 20
"""The characters of one `/run_jupyter` reply's cells together (streams, displays and
tracebacks): each cell's output is capped, but 256 cells of them are not; past it the request
answers Failed (`output_limit`) with the cells that ran."""
_NO_FETCH = ("fetch_files is not supported by this server: the sandbox does not hand back the "
             "files a program writes (its /work is a tmpfs that ends with the jail)")


@dataclass(frozen=True)
class FusionConfig:
    """What the server allows and how it runs programs."""

    workers: int | None = None
    """Programs run at the same time (None: one per CPU this process may use). Requests past
    it wait their turn; each run holds up to its memory limit."""
    mode: Literal["auto", "cold"] = "auto"
    """`auto`: Python forks from the warm pool of pre-started jailed interpreters; `cold`: a
    fresh jail for every run (the other languages always run cold)."""
    max_body_bytes: int = 16 << 20
    """Largest request body (code, stdin and base64 files together); a bigger one gets 413."""
    max_held_bytes: int = DEFAULT_MAX_HELD_BYTES
    """Most request-body bytes held at once by the requests read, waiting or running, so
    queued requests cannot grow the server without bound (it holds about 4x these bytes,
    parsed). A request that says its length waits, unread, until it fits; one sent in chunks
    without a length gets 503 (`Retry-After: 1`) past it. At least `max_body_bytes`."""
    max_timeout_s: float = 60.0
    """Largest `compile_timeout` and `run_timeout` a request may ask for (more: 422)."""
    default_memory_mb: int = 1024
    """Memory of a run whose `memory_limit_MB` is <= 0 (SandboxFusion's default -1 means no
    limit; here every run is bounded). At least `MIN_MEMORY_MB`."""
    max_memory_mb: int = 8192
    """Largest `memory_limit_MB` a request may ask for (more: 422)."""

    def __post_init__(self) -> None:
        for name in ("workers", "max_body_bytes", "max_held_bytes", "max_timeout_s",
                     "default_memory_mb", "max_memory_mb"):
            value = getattr(self, name)
            if value is not None and (not math.isfinite(value) or value <= 0):
                raise ConfigError(f"FusionConfig.{name} must be positive, got {value!r}")
        if self.mode not in ("auto", "cold"):
            raise ConfigError(f"FusionConfig.mode must be auto or cold, not {self.mode!r}")
        check_bounds(self.max_body_bytes, self.max_held_bytes,
                     names=("FusionConfig.max_body_bytes", "FusionConfig.max_held_bytes"))
        if self.default_memory_mb < MIN_MEMORY_MB:
            raise ConfigError(f"FusionConfig.default_memory_mb ({self.default_memory_mb}) is "
                              f"under the smallest limit the sandbox applies ({MIN_MEMORY_MB})")
        if self.default_memory_mb > self.max_memory_mb:
            raise ConfigError(f"FusionConfig.default_memory_mb ({self.default_memory_mb}) is "
                              f"over max_memory_mb ({self.max_memory_mb})")

    @property
    def parallel(self) -> int:
        """`workers`, or one per CPU this process may use."""
        return self.workers or max(1, len(os.sched_getaffinity(0)))

    def limits(self, *, run_timeout: float, compile_timeout: float,
               memory_mb: int) -> sandbox.Limits:
        """The sandbox limits of one request (`memory_mb` <= 0: `default_memory_mb`)."""
        memory = memory_mb if memory_mb > 0 else self.default_memory_mb
        return sandbox.Limits(wall_s=run_timeout, cpu_s=run_timeout, memory_bytes=memory << 20,
                              compile_wall_s=compile_timeout)

    @property
    def bounds(self) -> BodyBounds:
        """The request-body bounds of the server (`integrations._body`)."""
        return BodyBounds(max_bytes=self.max_body_bytes, max_held=self.max_held_bytes)


# --- from a request to a reply (plain dicts in SandboxFusion's shapes) --------------------

def _reply(status: str, message: str = "", *, compile_result: dict[str, Any] | None = None,
           run_result: dict[str, Any] | None = None) -> dict[str, Any]:
    """A `RunCodeResponse`: no executor pod and no fetched files here."""
    return {"status": status, "message": message, "compile_result": compile_result,
            "run_result": run_result, "executor_pod_name": None, "files": {}}


def sandbox_error_response(message: str, *, run_result: dict[str, Any] | None = None
                           ) -> dict[str, Any]:
    """A `RunCodeResponse` with status SandboxError: the run could not be done here."""
    return _reply("SandboxError", message, run_result=run_result)


def _return_code(execution: sandbox.Execution) -> int | None:
    """The exit code, or minus the signal that killed the program (how SandboxFusion, through
    asyncio's `returncode`, reports a killed process)."""
    if execution.exit_code is not None:
        return execution.exit_code
    return -execution.signal if execution.signal is not None else None


def _command_result(status: str, execution: sandbox.Execution) -> dict[str, Any]:
    """A `CommandRunResult`; a timed-out command has no return code, as in SandboxFusion."""
    return {"status": status, "execution_time": execution.wall_s,
            "return_code": None if status == "TimeLimitExceeded" else _return_code(execution),
            "stdout": execution.stdout, "stderr": execution.stderr}


def fusion_response(execution: sandbox.Execution, *, compiled: bool, limits: sandbox.Limits,
                    setup_s: float = 0.0) -> dict[str, Any]:
    """Our `Execution` as SandboxFusion's `RunCodeResponse`.

    Success: our status `ok`. Failed: any other end of the program, `message` naming our
    status (runtime_error, timeout, memory_limit, output_limit, compile_error), where
    SandboxFusion leaves it empty. SandboxError: `sandbox_error` (run_result status Error).
    A timeout is `TimeLimitExceeded`; a compile error is `compile_result` (Finished with the
    compiler's non-zero code, or TimeLimitExceeded when killed at `compile_timeout`) and no
    `run_result`. `compiled`: the language has a compile step, reported as a Finished
    `compile_result` taking `setup_s` (compilation or the compile cache's hit, and staging)."""
    if execution.status == "sandbox_error":
        return sandbox_error_response(execution.stderr,
                                      run_result=_command_result("Error", execution))
    if execution.status == "compile_error":
        killed_at_limit = execution.exit_code is None and \
            execution.wall_s >= limits.compile_wall_s
        return _reply("Failed", "compile_error", compile_result=_command_result(
            "TimeLimitExceeded" if killed_at_limit else "Finished", execution))
    compile_result = {"status": "Finished", "execution_time": setup_s, "return_code": 0,
                      "stdout": "", "stderr": ""} if compiled else None
    run_result = _command_result(
        "TimeLimitExceeded" if execution.status == "timeout" else "Finished", execution)
    if execution.ok:
        return _reply("Success", compile_result=compile_result, run_result=run_result)
    return _reply("Failed", execution.status, compile_result=compile_result,
                  run_result=run_result)


def _decode_files(files: Mapping[str, str | None]) -> dict[str, bytes]:
    """The request's files, base64 decoded as SandboxFusion does (a None content is skipped)."""
    decoded = {}
    for name, content in files.items():
        if content is None:
            continue
        try:
            decoded[name] = base64.b64decode(content)
        except (binascii.Error, ValueError) as exc:
            raise InputError(f"not base64: {exc}", field=f"files[{name!r}]") from exc
    return decoded


def run_request(request: Any, config: FusionConfig) -> dict[str, Any]:
    """Run one `RunCodeRequest` (any object with its fields) in the sandbox; the reply as a
    `RunCodeResponse` dict. Never raises: a run this server cannot do is a SandboxError reply,
    as SandboxFusion answers an exception in its runner."""
    language = RUNS_AS.get(request.language)
    if language is None:
        return sandbox_error_response(
            f"language {request.language!r} is not supported by this sandbox; it runs "
            f"{', '.join(sorted(RUNS_AS))}")
    if request.fetch_files:
        return sandbox_error_response(_NO_FETCH)
    try:
        files = _decode_files(request.files)
    except InputError as exc:
        return sandbox_error_response(str(exc))
    limits = config.limits(run_timeout=request.run_timeout,
                           compile_timeout=request.compile_timeout,
                           memory_mb=request.memory_limit_MB)
    started = time.monotonic()
    try:
        execution = sandbox.run(request.code, language, stdin=request.stdin or "", files=files,
                                limits=limits, mode=config.mode)
    except sandbox.SandboxError as exc:  # the sandbox itself is broken: every run says so
        logger.error("sandbox failed: %s", exc)
        return sandbox_error_response(f"{type(exc).__name__}: {exc}")
    except ValueError as exc:  # the sandbox's word for a bad argument: a file name
        return sandbox_error_response(str(exc))
    except Exception as exc:  # a poison request: its reply says so, the server stays up
        logger.exception("running a request failed")
        return sandbox_error_response(f"{type(exc).__name__}: {exc}")
    compiled = language in COMPILED
    setup_s = max(0.0, time.monotonic() - started - execution.wall_s)
    return fusion_response(execution, compiled=compiled, limits=limits, setup_s=setup_s)


def jupyter_response(status: str, message: str = "", *, cells: Sequence[dict[str, Any]] = (),
                     driver: dict[str, Any] | None = None) -> dict[str, Any]:
    """A `RunJupyterResponse`: no executor pod and no fetched files here."""
    return {"status": status, "message": message, "driver": driver, "cells": list(cells),
            "executor_pod_name": None, "files": {}}


def _cell_result(cell: sandbox.Cell) -> dict[str, Any]:
    """A `CellRunResult`: the cell's streams, its displayed value (`text/plain`, as Jupyter
    sends an execute_result) and its error (Jupyter's ename / evalue / traceback)."""
    execution = cell.execution
    error = [] if cell.error is None else [{
        "ename": cell.error[0], "evalue": cell.error[1],
        "traceback": execution.stderr.splitlines()}]
    return {"stdout": execution.stdout, "stderr": execution.stderr,
            "display": [] if cell.display is None else [{"text/plain": cell.display}],
            "error": error}


def _files_cell(files: Mapping[str, bytes]) -> str:
    """A cell writing the request's files into the session's /work (their names checked
    relative and inside it; their bytes as literals)."""
    return ("import os as _os\n"
            f"for _name, _data in {dict(files)!r}.items():\n"
            "    if _os.path.dirname(_name):\n"
            "        _os.makedirs(_os.path.dirname(_name), exist_ok=True)\n"
            "    with open(_name, 'wb') as _file:\n"
            "        _file.write(_data)\n"
            "del _os, _name, _data, _file\n")


def run_jupyter_request(request: Any, config: FusionConfig) -> dict[str, Any]:
    """Run one `RunJupyterRequest` (any object with its fields): its cells in order in one
    sandbox session (`sandbox.open_session`), so a cell sees what the cells before it set;
    the reply as a `RunJupyterResponse` dict. Each cell runs at most `cell_timeout` (0: no
    limit of its own), all of them at most `total_timeout`. Success: every cell ran (a cell
    that raised is a Success, its `error` says so, as in SandboxFusion); Failed: a cell ran
    out of time or ended its interpreter (memory, a signal), or the cells' output passed
    `NOTEBOOK_OUTPUT_CHARS`: the cells before it and that cell are given, `driver` says TimeLimitExceeded or Finished, and `message` our status.
    Never raises."""
    if request.fetch_files:
        return jupyter_response("SandboxError", _NO_FETCH)
    try:
        files = _decode_files(request.files)
    except InputError as exc:
        return jupyter_response("SandboxError", str(exc))
    for name in files:
        parts = name.split("/")
        if name.startswith("/") or any(part in ("", ".", "..") for part in parts):
            return jupyter_response("SandboxError", f"files[{name!r}]: a file name must be "
                                    "relative, inside the working folder")
    per_cell = request.cell_timeout or request.total_timeout
    limits = config.limits(run_timeout=per_cell, compile_timeout=per_cell,
                           memory_mb=request.memory_limit_MB)
    options = sandbox.SessionOptions(episode_wall_s=request.total_timeout)
    started = time.monotonic()
    cells: list[dict[str, Any]] = []
    failed = ""
    try:
        with sandbox.open_session(limits=limits, options=options) as session:
            if files:
                written = session.run(_files_cell(files))
                if not written.ok:
                    return jupyter_response("SandboxError", "the request's files could not "
                                            f"be written: {written.stderr[-500:]}")
            chars = 0
            for code in request.cells:
                cell = session.run_cell(code)
                cells.append(_cell_result(cell))
                if session.resets or cell.execution.status == "timeout":
                    failed = cell.execution.status
                    break
                chars += (len(cell.execution.stdout) + len(cell.display or "")
                          + len(cell.execution.stderr) * (2 if cell.error else 1))
                if chars > NOTEBOOK_OUTPUT_CHARS:  # (an error's traceback is its stderr again)
                    failed = "output_limit"
                    break
    except sandbox.SandboxError as exc:
        logger.error("sandbox failed: %s", exc)
        return jupyter_response("SandboxError", f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # a poison request: its reply says so, the server stays up
        logger.exception("running a notebook request failed")
        return jupyter_response("SandboxError", f"{type(exc).__name__}: {exc}")
    timed_out = failed == "timeout"
    driver = {"status": "TimeLimitExceeded" if timed_out else "Finished",
              "execution_time": time.monotonic() - started,
              "return_code": None if timed_out else 0, "stdout": "", "stderr": ""}
    return jupyter_response("Failed" if failed else "Success", failed, cells=cells,
                            driver=driver)


def warm_up(config: FusionConfig) -> None:
    """Run a trivial Python program the way requests will run (starting the warm pool for the
    default memory limit); `SandboxError` if the sandbox cannot run it."""
    limits = config.limits(run_timeout=10.0, compile_timeout=10.0, memory_mb=0)
    try:
        execution = sandbox.run("print('pong')", "python", limits=limits, mode=config.mode)
    except sandbox.SandboxError as exc:  # the sandbox's own class, as this tree's
        raise SandboxError(f"the sandbox cannot run programs: {exc}") from exc
    if execution.status != "ok" or execution.stdout != "pong\n":
        raise SandboxError(f"the sandbox cannot run a trivial Python program: status "
                           f"{execution.status}: {execution.stderr.strip()[-500:]}")


# --- the HTTP app ------------------------------------------------------------------------

class _Refused(ValueError):  # pydantic's protocol: a validator raises a ValueError
    """A request field's value this server cannot apply (a 422 naming the field)."""


def api_models(config: FusionConfig) -> SimpleNamespace:
    """The pydantic models of the API: `RunCodeRequest` (its bounds from `config`),
    `CommandRunResult` and `RunCodeResponse`, with SandboxFusion's field names and defaults."""
    require("pydantic", extra="server", feature="the SandboxFusion API")
    from pydantic import AfterValidator, BaseModel, Field

    def applicable(memory: int) -> int:
        if 0 < memory < MIN_MEMORY_MB:
            raise _Refused(f"the sandbox cannot hold a run to {memory} MiB: ask for at least "
                             f"{MIN_MEMORY_MB}, or <= 0 for the server's default")
        return memory

    class RunCodeRequest(BaseModel):
        compile_timeout: float = Field(10, gt=0, le=config.max_timeout_s, allow_inf_nan=False,
                                       description="compile timeout in seconds (C/C++)")
        run_timeout: float = Field(10, gt=0, le=config.max_timeout_s, allow_inf_nan=False,
                                   description="run timeout in seconds (wall and CPU)")
        memory_limit_MB: Annotated[int, AfterValidator(applicable)] = Field(  # its name
            -1, le=config.max_memory_mb,
            description=f"memory of the run in MiB, at least {MIN_MEMORY_MB}; <= 0: the "
                        f"server's default ({config.default_memory_mb})")
        code: str = Field(..., description="the program's source")
        stdin: str | None = Field(None, description="text fed to the program's stdin")
        # Literal of a tuple is Literal of its values at run time (pydantic checks them);
        # mypy takes only literal values written out
        language: Literal[ACCEPTED_LANGUAGES] = Field(  # type: ignore[valid-type]
            ..., description="SandboxFusion's language name (or c, javascript)")
        files: dict[str, str | None] = Field(
            {}, description="relative file path -> base64 content, put next to the program")
        fetch_files: list[str] = Field([], description="not supported: must be empty")
        args: list[str] = Field([], description="pytest arguments in SandboxFusion (no "
                                                "pytest language here: ignored)")

    class CommandRunResult(BaseModel):
        status: Literal["Finished", "Error", "TimeLimitExceeded"]
        execution_time: float | None = None
        return_code: int | None = None
        stdout: str | None = None
        stderr: str | None = None

    class RunCodeResponse(BaseModel):
        status: Literal["Success", "Failed", "SandboxError"]
        message: str
        compile_result: CommandRunResult | None = None
        run_result: CommandRunResult | None = None
        executor_pod_name: str | None = None
        files: dict[str, str] = Field(default_factory=dict)

    class RunJupyterRequest(BaseModel):
        cells: list[str] = Field(..., min_length=1, max_length=256,
                                 description="code cells run in order in one session")
        cell_timeout: float = Field(0, ge=0, le=config.max_timeout_s, allow_inf_nan=False,
                                    description="seconds of one cell (0: total_timeout only)")
        total_timeout: float = Field(45, gt=0, le=config.max_timeout_s, allow_inf_nan=False,
                                     description="seconds of all the cells together")
        memory_limit_MB: Annotated[int, AfterValidator(applicable)] = Field(
            -1, le=config.max_memory_mb,
            description=f"memory of the session in MiB, at least {MIN_MEMORY_MB}; <= 0: the "
                        f"server's default ({config.default_memory_mb})")
        kernel: Literal["python3"] = "python3"
        files: dict[str, str] = Field({}, description="relative file path -> base64 content")
        fetch_files: list[str] = Field([], description="not supported: must be empty")

    class CellRunResult(BaseModel):
        stdout: str
        stderr: str
        display: list[dict[str, Any]]
        error: list[dict[str, Any]]

    class RunJupyterResponse(BaseModel):
        status: Literal["Success", "Failed", "SandboxError"]
        message: str
        driver: CommandRunResult | None = None
        cells: list[CellRunResult] = Field(default_factory=list)
        executor_pod_name: str | None = None
        files: dict[str, str] = Field(default_factory=dict)

    return SimpleNamespace(RunCodeRequest=RunCodeRequest, CommandRunResult=CommandRunResult,
                           RunCodeResponse=RunCodeResponse, RunJupyterRequest=RunJupyterRequest,
                           CellRunResult=CellRunResult, RunJupyterResponse=RunJupyterResponse)


def _finite(value: Any) -> Any:
    """`value` (plain JSON data) with every non-finite float written as text: a validation
    error that quotes `NaN` or `1e400` must still be a JSON reply (422), never a 500."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def create_app(config: FusionConfig | None = None, *, token: str | None = None) -> Any:
    """The FastAPI app: `POST /run_code`, `POST /run_jupyter` and `GET /v1/ping`, at most
    `config.parallel` programs (or notebooks) running at once. `token`: every request must carry it (`integrations._auth`).
    The body is parsed (`integrations._body`) and validated off the event loop."""
    config = config or FusionConfig()
    fastapi = require("fastapi", extra="server", feature="the SandboxFusion API")
    from fastapi import Request  # here: an endpoint's annotation is read at its def
    JSONResponse = json_response()
    encoders = require("fastapi.encoders", extra="server", feature="the SandboxFusion API")
    RequestValidationError = require("fastapi.exceptions", extra="server",
                                     feature="the SandboxFusion API").RequestValidationError
    ValidationError = require("pydantic", extra="server",
                              feature="the SandboxFusion API").ValidationError
    models = api_models(config)
    RunCodeRequest = models.RunCodeRequest
    pool = ThreadPoolExecutor(config.parallel, thread_name_prefix="sandbox-fusion")
    gate = asyncio.Semaphore(config.parallel)  # waiting requests queue here, not in the pool
    # a notebook holds a session, of which one process opens at most `max_sessions()`: more
    # workers than that (a many-core host) queue notebooks here, never answer SandboxError
    notebooks = asyncio.Semaphore(min(config.parallel, sandbox.max_sessions()))

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        yield
        pool.shutdown(wait=False, cancel_futures=True)

    app = fastapi.FastAPI(title="rewards-engine sandbox (SandboxFusion API)", lifespan=lifespan,
                          default_response_class=JSONResponse)
    guard(app, bounds=config.bounds, token=token)
    app.state.config = config
    app.state.models = models

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Any, exc: Any) -> Any:
        detail = _finite(encoders.jsonable_encoder(exc.errors()))
        return JSONResponse({"detail": detail}, status_code=422)

    @app.get("/v1/ping")
    async def ping() -> str:
        return "pong"

    def validate(value: Any, model: Any = RunCodeRequest) -> Any:
        """The request model of a parsed body, as FastAPI validates one (its 422 shapes)."""
        try:
            return model.model_validate(value)
        except ValidationError as exc:
            raise RequestValidationError(
                [{**error, "loc": ("body", *error["loc"])}
                 for error in exc.errors(include_url=False)]) from exc

    @app.post("/run_code", response_model=models.RunCodeResponse,
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/json": {"schema": RunCodeRequest.model_json_schema()}}}})
    async def run_code(request: Request) -> Any:
        return await answer(request, RunCodeRequest, run_request)

    @app.post("/run_jupyter", response_model=models.RunJupyterResponse,
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/json": {"schema": models.RunJupyterRequest.model_json_schema()}}}})
    async def run_jupyter(request: Request) -> Any:
        return await answer(request, models.RunJupyterRequest, run_jupyter_request)

    async def answer(request: Any, model: Any, run: Any) -> Any:
        try:
            value = parsed_body(request.scope)  # read and parsed off the loop by the guard
        except InputError as exc:  # FastAPI's answer to a body that is not JSON
            raise RequestValidationError([{
                "type": "json_invalid", "loc": ("body", 0), "msg": "JSON decode error",
                "input": {}, "ctx": {"error": exc.detail}}]) from exc
        parsed = await asyncio.to_thread(validate, value, model)  # a 16 MB string is copied
        async with notebooks if run is run_jupyter_request else nullcontext(), gate:
            reply = await asyncio.get_running_loop().run_in_executor(pool, run, parsed, config)
        return JSONResponse(reply)  # already in the response's shape: no second encoding pass

    return app


def serve(config: FusionConfig | None = None, *, host: str = "127.0.0.1", port: int = 8080,
          log_level: str = "info", token: str | None = None,
          max_connections: int | None = None,
          max_connections_per_client: int | None = None) -> None:
    """Check that the sandbox runs (`warm_up`, a `SandboxError` if not), then serve the app
    with uvicorn until interrupted (`token`: required of every request; the connection caps
    as in `integrations._http.ConnectionCaps`, None: derived from the free descriptors)."""
    config = config or FusionConfig()
    app = create_app(config, token=token)
    warm_up(config)
    run_server(app, "rewards sandbox serve", host=host, port=port, routes=ROUTES, token=token,
               log_level=log_level, max_connections=max_connections,
               max_connections_per_client=max_connections_per_client)
