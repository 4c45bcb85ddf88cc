"""The reward HTTP server (FastAPI + uvicorn): OpenRLHF's remote reward protocol on
`POST /get_reward`, NeMo Gym's resources-server verify (`POST /seed_session`, `POST /verify`:
`integrations.nemo_gym`), slime's remote reward (`POST /slime/reward`: `integrations.slime`),
ROLL's submit and poll (`POST /roll/submit_task`, `GET /roll/task_result`:
`integrations.roll`), and `GET /health`. Every route scores through one path (`scored`:
micro-batched, normalized within the request, tallied, the abstain mode) and answers in its
framework's shape; an abstention is that framework's own mask.

Start it with `rewards serve --config CFG --host 127.0.0.1 --port 5000` and point OpenRLHF at
it with `--reward.remote_url http://127.0.0.1:5000/get_reward`. OpenRLHF sends one rollout per
request, many requests at once; the server collects concurrent requests for a few milliseconds
and scores them as one batch (`BatchingConfig`; `--no-batching` scores each request alone).
The config's batch normalization applies within each request, never across requests that
happened to share a batch. Bodies, deadlines and the token are those of all our servers
(`integrations._http`, docs/servers.md): the bodies of the requests in the server (read,
waiting for a batch or scored) hold at most `max_held_bytes` together, a request that says its
length waits, unread, until it fits, and is parsed off the event loop. A malformed request
gets a 422 naming the field; a body that is not JSON a 400; broken scoring infrastructure a
503. Once the server's rows abstained for a configuration cause (all of its first 32 or more: an unknown
domain, no labels), requests get a 422 saying so (`on_config_abstain="warn"`: one warning in
the log instead); `/health` counts abstentions by cause.
"""

# No `from __future__ import annotations` here: FastAPI reads the endpoint annotations
# (`Request`, imported lazily) at definition time.
import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

from integrations import nemo_gym, roll, slime
from integrations._batcher import BatchingConfig, MicroBatcher
from integrations._body import (
    DEFAULT_MAX_HELD_BYTES,
    MAX_DEPTH,
    PARSED_KEY,
    BodyBounds,
    check_bounds,
    parsed_body,
)
from integrations._common import (
    AbstainMode,
    OnConfigAbstain,
    RewardSource,
    check_abstain_mode,
    raise_on_abstention,
    resolve_reward,
    warm_up,
)
from integrations._http import guard, json_response, peer_key, run_server
from integrations.openrlhf import (
    END_TOKENS,
    build_response,
    parse_request,
    samples_from_queries,
)
from rewards.deps import require
from rewards.errors import InputError, RewardsError
from rewards.scoring import ConfigurationAbstention
from rewards.types import Sample, Score

__all__ = ["MAX_DEPTH", "ROUTES", "TOKEN_ENV", "create_app", "serve"]

logger = logging.getLogger(__name__)

TOKEN_ENV = "REWARDS_SERVE_TOKEN"
"""The environment variable `rewards serve` reads its shared token from (`--token`)."""
ROUTES = ("POST /get_reward", "POST /seed_session", "POST /verify", f"POST {slime.ROUTE}",
          f"POST {roll.SUBMIT_ROUTE}", f"GET {roll.RESULT_ROUTE}", "GET /health")


def create_app(reward: RewardSource = None, *, batching: BatchingConfig | None = None,
               abstain_value: float = 0.0, end_tokens: Sequence[str] = END_TOKENS,
               abstain: AbstainMode = "mask", on_config_abstain: OnConfigAbstain = "raise",
               token: str | None = None, max_held_bytes: int = DEFAULT_MAX_HELD_BYTES,
               max_tasks: int = 65536, max_tasks_per_client: int | None = None) -> Any:
    """The FastAPI app scoring with `reward` (a `Reward`, a config or its path; None:
    `$REWARDS_CONFIG`). `abstain_value` is the reward sent for an abstention; `abstain` and
    `on_config_abstain` as in `integrations.openrlhf` (docs/integrations.md). `token`: every
    request must carry it (`integrations._auth`: Authorization Bearer or `access_token`).
    `max_held_bytes`: the most request-body bytes held at once by the requests read, waiting
    for a batch or scored (`integrations._body`; one body is at most as large), and by
    ROLL's tasks still running; `max_tasks`: ROLL tasks held at once, `max_tasks_per_client`
    of them by one client (None: half; `integrations.roll`)."""
    check_abstain_mode(abstain, on_config_abstain)
    check_bounds(max_held_bytes, max_held_bytes, names=("max_held_bytes", "max_held_bytes"))
    bounds = BodyBounds(max_bytes=max_held_bytes, max_held=max_held_bytes)
    fastapi = require("fastapi", extra="server", feature="the reward server")
    from fastapi import Request  # here: an endpoint's annotation is read at its def
    from starlette.routing import Route
    JSONResponse = json_response()

    batching = batching or BatchingConfig()
    resolved = resolve_reward(reward)
    batcher = MicroBatcher(resolved.raw, batching)
    config_hash = resolved.config.content_hash() if resolved.config is not None else None

    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        await asyncio.to_thread(warm_up, resolved.reward)  # before the first request
        yield
        await batcher.close()

    app = fastapi.FastAPI(title="rewards-engine", lifespan=lifespan,
                          default_response_class=JSONResponse)
    guard(app, bounds=bounds, token=token)
    app.state.batcher = batcher
    app.state.resolved = resolved

    def route(method: str, path: str) -> Any:
        """Register an endpoint (it takes the `Request` and returns a `JSONResponse`) as a
        plain Starlette route: FastAPI's dependency solving and the layers around it cost
        0.03-0.17 ms of CPU a request (5-23% of the app's own, measured on 2026-12-06 by
        calling the app in process), and these endpoints use none of it (they read the
        body the guard parsed and build their replies). The
        middleware (token, body bounds) wraps them as it wraps every route; they are not
        listed in /openapi.json. It answers `method` only, as FastAPI's routes did: starlette
        adds HEAD to a GET route, and a HEAD of /roll/task_result read a finished result
        (results are read once) and dropped it with the body HEAD has not."""
        def register(endpoint: Any) -> Any:
            plain = Route(path, endpoint, methods=[method])
            plain.methods = {method}
            app.router.routes.append(plain)
            return endpoint
        return register

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "reward": resolved.reward.name, "config_hash": config_hash,
                "domains": sorted(resolved.config.domains) if resolved.config else [],
                "normalize": resolved.normalize,
                "batching": {"enabled": batching.enabled, "max_batch": batching.max_batch,
                             "max_wait_ms": batching.max_wait_ms,
                             "max_inflight": batching.max_inflight},
                "stats": batcher.stats.as_dict(),
                "abstained": {"rows": resolved.tally.rows, "by_cause": resolved.tally.counts()}}

    class Failed(Exception):
        """A request that cannot be scored: `status` and `detail` for its reply."""

        def __init__(self, status: int, detail: str) -> None:
            super().__init__(detail)
            self.status, self.detail = status, detail

    async def scored(samples: list[Sample], client: str) -> list[Score]:
        """One request's samples scored (micro-batched with others), normalized within the
        request, counted in the run's tally and judged by its client's own rows (`observe`:
        one client's misconfigured rows never refuse another's request): the one path every
        protocol's route takes.
        `Failed`: 503 (infrastructure), 500 (a poison request), 422 (the run's setup, or an
        abstention under `abstain="raise"`)."""
        try:
            scores = await batcher.score(samples)
        except RewardsError as exc:
            logger.error("scoring failed: %s", exc)
            raise Failed(503, f"{type(exc).__name__}: {exc}") from exc
        except Exception as exc:  # a poison request: reported to its client, server stays up
            logger.exception("scoring a request failed")
            raise Failed(500, f"{type(exc).__name__}: {exc}") from exc
        scores = resolved.normalize_batch(samples, scores)
        try:
            resolved.observe(samples, scores, on_config_abstain=on_config_abstain,
                             client=client)
            if abstain == "raise":
                raise_on_abstention(samples, scores)
        except (ConfigurationAbstention, InputError) as exc:
            raise Failed(422, str(exc)) from exc
        return scores

    def body_of(request: Any) -> Any:
        """The parsed body; `Failed` (400) for one that is not JSON."""
        try:
            return parsed_body(request.scope)  # read and parsed off the loop by the guard
        except InputError as exc:
            raise Failed(400, f"body is not JSON: {exc.detail}") from exc

    def refused(exc: Exception) -> Any:
        if isinstance(exc, Failed):
            body_field = {"field": "body"} if exc.status == 400 else {}
            return JSONResponse({"detail": exc.detail, **body_field}, status_code=exc.status)
        field = getattr(exc, "field", None)
        return JSONResponse({"detail": str(exc), **({"field": field} if field else {})},
                            status_code=422)

    @route("POST", "/get_reward")
    async def get_reward(request: Request) -> Any:
        try:
            queries, prompts, labels, domains = parse_request(body_of(request))
            samples = samples_from_queries(resolved, queries, prompts, labels, domains,
                                           end_tokens=end_tokens)
            scores = await scored(samples, peer_key(request.scope))
        except (Failed, InputError) as exc:
            return refused(exc)
        reply = build_response(resolved, scores, abstain_value=abstain_value,
                               abstain=abstain, samples=samples)
        # a JSONResponse skips FastAPI's jsonable_encoder pass over the reply (plain JSON already)
        return JSONResponse(reply)

    @route("POST", "/seed_session")
    async def seed_session(request: Request) -> Any:
        """NeMo Gym's per-rollout seed: a JSON object, answered `{}` (our verify keeps no
        session state, so there is no session to name or take)."""
        try:
            if not isinstance(body_of(request), dict):
                raise InputError("the body must be a JSON object", field="body")
        except (Failed, InputError) as exc:
            return refused(exc)
        return JSONResponse({})

    @route("POST", "/verify")
    async def verify(request: Request) -> Any:
        try:
            body = body_of(request)
            score, = await scored([nemo_gym.sample_from_verify(resolved, body)],
                                  peer_key(request.scope))
        except (Failed, InputError) as exc:
            return refused(exc)
        # the reply echoes the request (NeMo Gym's shape): rendered off the event loop, as
        # its body was parsed
        return await asyncio.to_thread(
            JSONResponse, nemo_gym.verify_response(body, score, abstain_value=abstain_value,
                                                   mask=abstain == "mask"))

    @route("POST", slime.ROUTE)
    async def slime_reward(request: Request) -> Any:
        try:
            sample, detail = slime.sample_from_request(resolved, body_of(request))
            score, = await scored([sample], peer_key(request.scope))
        except (Failed, InputError) as exc:
            return refused(exc)
        return JSONResponse(slime.reward_reply(score, abstain_value=abstain_value,
                                               detail=detail, mask=abstain == "mask"))

    tasks = roll.Tasks(max_tasks=max_tasks, keep_s=600.0, max_bytes=max_held_bytes,
                       per_client=max_tasks_per_client)
    running: set[asyncio.Task[None]] = set()  # referenced until done
    app.state.roll_tasks = tasks

    async def run_task(task_id: str, sample: Sample, client: str) -> None:
        try:
            score, = await scored([sample], client)
            reply = roll.result_reply(score, abstain_value=abstain_value,
                                      mask=abstain == "mask")
        except Failed as exc:
            reply = roll.result_reply(None, abstain_value=abstain_value, mask=True,
                                      failure=exc.detail)
        tasks.finish(task_id, reply)

    @route("POST", roll.SUBMIT_ROUTE)
    async def roll_submit(request: Request) -> Any:
        try:
            sample = roll.sample_from_submit(resolved, body_of(request))
        except (Failed, InputError) as exc:
            return refused(exc)
        # what a running task holds is charged as its body was: its bytes, within the bound
        cost = int(request.headers.get("content-length") or 0) or len(repr(sample))
        client = peer_key(request.scope)
        task_id = tasks.add(cost, client)
        if task_id is None:
            return JSONResponse({"errcode": roll.BUSY, "reward_request_id": None,
                                 "errmsg": "the server holds as many tasks as it may, or "
                                           "this client its share: submit again"})
        job = asyncio.create_task(run_task(task_id, sample, client))
        running.add(job)
        job.add_done_callback(running.discard)
        return JSONResponse({"errcode": roll.DONE, "reward_request_id": task_id,
                             "errmsg": "submitted"})

    @route("GET", roll.RESULT_ROUTE)
    async def roll_result(request: Request) -> Any:
        try:  # ROLL sends its GET with a JSON body; a query parameter works too
            body = body_of(request) if PARSED_KEY in request.scope else {}
        except Failed as exc:
            return refused(exc)
        task_id = request.query_params.get("reward_request_id")
        if isinstance(body, dict) and "reward_request_id" in body:
            task_id = body["reward_request_id"]
        return JSONResponse(tasks.read(task_id))

    return app


def serve(reward: RewardSource = None, *, host: str = "127.0.0.1", port: int = 5000,
          batching: BatchingConfig | None = None, abstain_value: float = 0.0,
          log_level: str = "info", abstain: AbstainMode = "mask",
          on_config_abstain: OnConfigAbstain = "raise", token: str | None = None,
          max_held_bytes: int = DEFAULT_MAX_HELD_BYTES, max_connections: int | None = None,
          max_connections_per_client: int | None = None, max_tasks: int = 65536,
          max_tasks_per_client: int | None = None) -> None:
    """Build the app and run it with uvicorn until interrupted (`token`: required of every
    request; `max_held_bytes`, `max_tasks` and `max_tasks_per_client` as in `create_app`;
    the connection caps as in `integrations._http.ConnectionCaps`, None: derived from the
    free descriptors)."""
    app = create_app(reward, batching=batching, abstain_value=abstain_value, abstain=abstain,
                     on_config_abstain=on_config_abstain, token=token,
                     max_held_bytes=max_held_bytes, max_tasks=max_tasks,
                     max_tasks_per_client=max_tasks_per_client)
    run_server(app, "rewards serve", host=host, port=port, routes=ROUTES, token=token,
               log_level=log_level, max_connections=max_connections,
               max_connections_per_client=max_connections_per_client)
