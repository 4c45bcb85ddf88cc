"""The reward HTTP server (FastAPI + uvicorn): OpenRLHF's remote reward protocol on
`POST /get_reward`, and `GET /health`.

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
# (`fastapi.Request`, imported lazily) at definition time.
import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

from integrations._batcher import BatchingConfig, MicroBatcher
from integrations._body import (
    DEFAULT_MAX_HELD_BYTES,
    MAX_DEPTH,
    BodyBounds,
    check_bounds,
    parsed_body,
)
from integrations._common import (
    AbstainMode,
    OnConfigAbstain,
    RewardSource,
    check_abstain_mode,
    resolve_reward,
    warm_up,
)
from integrations._http import guard, run_server
from integrations.openrlhf import (
    END_TOKENS,
    RequestError,
    build_response,
    parse_request,
    samples_from_queries,
)
from rewards.deps import require
from rewards.errors import InputError, RewardsError
from rewards.scoring import ConfigurationAbstention

__all__ = ["MAX_DEPTH", "ROUTES", "TOKEN_ENV", "create_app", "serve"]

logger = logging.getLogger(__name__)

TOKEN_ENV = "REWARDS_SERVE_TOKEN"
"""The environment variable `rewards serve` reads its shared token from (`--token`)."""
ROUTES = ("POST /get_reward", "GET /health")


def create_app(reward: RewardSource = None, *, batching: BatchingConfig | None = None,
               abstain_value: float = 0.0, end_tokens: Sequence[str] = END_TOKENS,
               abstain: AbstainMode = "mask", on_config_abstain: OnConfigAbstain = "raise",
               token: str | None = None, max_held_bytes: int = DEFAULT_MAX_HELD_BYTES) -> Any:
    """The FastAPI app scoring with `reward` (a `Reward`, a config or its path; None:
    `$REWARDS_CONFIG`). `abstain_value` is the reward sent for an abstention; `abstain` and
    `on_config_abstain` as in `integrations.openrlhf` (docs/integrations.md). `token`: every
    request must carry it (`integrations._auth`: Authorization Bearer or `access_token`).
    `max_held_bytes`: the most request-body bytes held at once by the requests read, waiting
    for a batch or scored (`integrations._body`; one body is at most as large)."""
    check_abstain_mode(abstain, on_config_abstain)
    check_bounds(max_held_bytes, max_held_bytes, names=("max_held_bytes", "max_held_bytes"))
    bounds = BodyBounds(max_bytes=max_held_bytes, max_held=max_held_bytes)
    fastapi = require("fastapi", extra="server", feature="the reward server")
    responses = require("fastapi.responses", extra="server", feature="the reward server")
    JSONResponse = responses.JSONResponse

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

    app = fastapi.FastAPI(title="rewards-engine", lifespan=lifespan)
    guard(app, bounds=bounds, token=token)
    app.state.batcher = batcher
    app.state.resolved = resolved

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

    @app.post("/get_reward")
    async def get_reward(request: fastapi.Request) -> Any:
        try:
            body = parsed_body(request.scope)  # read and parsed off the loop by the guard
        except InputError as exc:
            return JSONResponse({"detail": f"body is not JSON: {exc.detail}", "field": "body"},
                                status_code=400)
        try:
            queries, prompts, labels, domains = parse_request(body)
        except RequestError as exc:
            return JSONResponse({"detail": str(exc), "field": exc.field}, status_code=422)
        samples = samples_from_queries(resolved, queries, prompts, labels, domains,
                                       end_tokens=end_tokens)
        try:
            scores = await batcher.score(samples)
        except RewardsError as exc:
            logger.error("scoring failed: %s", exc)
            return JSONResponse({"detail": f"{type(exc).__name__}: {exc}"}, status_code=503)
        except Exception as exc:  # a poison request: reported to its client, server stays up
            logger.exception("scoring a request failed")
            return JSONResponse({"detail": f"{type(exc).__name__}: {exc}"}, status_code=500)
        scores = resolved.normalize_batch(samples, scores)
        try:
            resolved.observe(samples, scores, on_config_abstain=on_config_abstain)
            reply = build_response(resolved, scores, abstain_value=abstain_value,
                                   abstain=abstain, samples=samples)
        except (ConfigurationAbstention, InputError) as exc:  # the run's setup, or raise mode
            return JSONResponse({"detail": str(exc)}, status_code=422)
        # a JSONResponse skips FastAPI's jsonable_encoder pass over the reply (plain JSON already)
        return JSONResponse(reply)

    return app


def serve(reward: RewardSource = None, *, host: str = "127.0.0.1", port: int = 5000,
          batching: BatchingConfig | None = None, abstain_value: float = 0.0,
          log_level: str = "info", abstain: AbstainMode = "mask",
          on_config_abstain: OnConfigAbstain = "raise", token: str | None = None,
          max_held_bytes: int = DEFAULT_MAX_HELD_BYTES, max_connections: int | None = None,
          max_connections_per_client: int | None = None) -> None:
    """Build the app and run it with uvicorn until interrupted (`token`: required of every
    request; `max_held_bytes` as in `create_app`; the connection caps as in
    `integrations._http.ConnectionCaps`, None: derived from the free descriptors)."""
    app = create_app(reward, batching=batching, abstain_value=abstain_value, abstain=abstain,
                     on_config_abstain=on_config_abstain, token=token,
                     max_held_bytes=max_held_bytes)
    run_server(app, "rewards serve", host=host, port=port, routes=ROUTES, token=token,
               log_level=log_level, max_connections=max_connections,
               max_connections_per_client=max_connections_per_client)
