"""An HTTP face for the environments, in OpenEnv's request and response shapes, so that a
trainer on another machine runs our episodes (and a client of ours runs remote ones).

    POST /reset   {"sample": {"prompt", "reference"?, "domain"?, "group"?, "meta"?: {...}}}
               -> {"observation": {"text", "episode_id"}, "reward": null, "done": false}
    POST /step    {"episode_id": str, "action": {"text": str}}
               -> {"observation": {"text", "episode_id", "info", ...}, "reward": float,
                   "done": bool}
    GET  /state?episode_id=...  -> {"episode_id", "step_count", "done"}
    GET  /schema  -> {"action", "observation", "state"}: JSON schemas (OpenEnv's SchemaResponse)
    GET  /health
    WS   /ws      OpenEnv's `EnvClient` protocol: {"type": "reset" | "step" | "state" |
                  "close", "data"} -> {"type": "observation" | "state" | "error", "data"}

As in OpenEnv (`openenv.core.env_server.types`: ResetRequest, StepRequest, StepResponse),
the action is a JSON object and the observation one too; unlike an OpenEnv server, which holds
one environment, this one holds many episodes at once, told apart by `episode_id`. The server
chooses every id (`secrets.token_urlsafe`: unguessable), so no client can name, and so replace
or step, another's episode; a `/reset` that names one is a 422. At most `max_episodes` are
held, at most `max_episodes_per_client` (half by default) by one client, counted as the
connection caps count clients (the socket's peer; all of loopback is one client). A client
at its share makes room from its own finished or idle episodes; when the server is full, a
finished episode, or one left without a request for `idle_s`, makes room (the oldest first);
a live one never does, and a reset finding none gets 503 (`Retry-After`): one client never
holds every place, so another always finds room.
`reward` is the step's weighted reward; the step that ends the episode adds the final reward
(the reward config's, on the final answer) to it and carries `trajectory_reward` (G_0, null
when the episode abstains), `final_reward` and `reason` in its observation; when the episode
abstains that step's `reward` is null too (never a 0 a trainer would learn from). Every episode gets
a fresh environment object, so nothing one client sends reaches another's episode. An action
is cut to the environment's `max_action_chars` before it is stepped or kept. A request that is
not valid is a 422 naming the field; an unknown id a 404; a finished episode, or one with a
step running, a 409. Bodies, deadlines and the token are those of all our servers
(`integrations._http`, docs/servers.md). Over `/ws` (OpenEnv's own client, openenv-core's
`EnvClient`, speaks only it) a connection is a session: it holds one episode at a time, which
no message names (so none reaches another connection's), dropped when it closes; its messages
are bounded as bodies (`integrations._body.parse_message`), its replies are those of the HTTP
routes, its errors OpenEnv's (`code`, plus the HTTP `status`): `integrations._env_ws`.

Start it with `rewards env serve --environment ENV.yaml --reward-config REWARD.yaml` (or
`python -m integrations.env_server` with the same options), where ENV.yaml is an `environment:` block (rewards.envs.EnvConfig).
`RemoteEnvironment(url)` is the client: an `Environment` whose episodes run on the server.
"""

# No `from __future__ import annotations` here: FastAPI reads the endpoint annotations
# (`Request`, imported lazily) at definition time.
import argparse
import math
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from integrations._auth import resolve_token
from integrations._body import DEFAULT_MAX_HELD_BYTES, BodyBounds, check_bounds, parsed_body
from integrations._env_ors import ORS_ROUTES, add_ors
from integrations._env_ws import Refused, StepRunning, add_websocket
from integrations._http import (
    MAX_CONNECTIONS_HELP,
    MAX_CONNECTIONS_PER_CLIENT_HELP,
    Shares,
    client_share,
    guard,
    json_response,
    peer_key,
    run_server,
)
from rewards.build import build_reward
from rewards.deps import require
from rewards.envs import EnvConfig, Episode, StepResult, env_factory, score_trajectories
from rewards.errors import ConfigError, EngineError, InputError
from rewards.options import load_options
from rewards.types import Reward, Sample, Score

__all__ = ["ROUTES", "SCHEMA", "TOKEN_ENV", "RemoteEnvironment", "create_env_app", "load_splits",
           "main"]

TOKEN_ENV = "REWARDS_ENV_TOKEN"
"""The environment variable the environment server reads its shared token from (`--token`)."""
ROUTES = ("POST /reset", "POST /step", "GET /state", "GET /schema", "GET /health", "WS /ws",
          *ORS_ROUTES)

_SAMPLE_KEYS = ("prompt", "reference", "domain", "group", "meta")


def _sample(body: Any) -> Sample:
    if not isinstance(body, dict):
        raise InputError("the body must be a JSON object", field="body")
    if body.get("episode_id") is not None:
        raise InputError("the server chooses episode ids: send none, and use the one in the "
                         "reply's observation", field="episode_id")
    sample = body.get("sample")
    if not isinstance(sample, dict) or not isinstance(sample.get("prompt"), (str, list)):
        raise InputError("needs a sample with a 'prompt' (text or chat messages)",
                         field="sample")
    meta = sample.get("meta")
    if meta is not None and not isinstance(meta, dict):
        raise InputError("must be a JSON object", field="sample.meta")
    unknown = sorted(set(sample) - set(_SAMPLE_KEYS) - {"completion"})
    meta = {**(meta or {}), **{k: sample[k] for k in unknown}}
    group = sample.get("group")
    if group is not None and not isinstance(group, str):
        raise InputError("must be a string", field="sample.group")
    return Sample(prompt=sample["prompt"], completion="", reference=sample.get("reference"),
                  domain=str(sample.get("domain") or "default"), group=group, meta=meta)


@dataclass
class _Held:
    episode: Episode
    touched: float
    client: str = "local"
    """Whose it is (`integrations._http.client_key`): what it counts against."""
    busy: bool = False


class _Full(Exception):
    """No room for a new episode: every held one is live (of the client, past its share)."""


class _Episodes:
    """The server's episodes by id: at most `max_episodes`, `per_client` of them by one
    client; room is made from finished or idle ones only, the client's own past its share
    (`integrations._http.Shares`; the module docstring)."""

    def __init__(self, config: EnvConfig, reward: Reward, max_episodes: int,
                 idle_s: float, per_client: int | None = None) -> None:
        self.config = config
        self.reward = reward
        self.make = env_factory(config)
        self.max_episodes = max_episodes
        self.idle_s = idle_s
        self.shares = Shares(max_episodes, client_share(
            max_episodes, per_client, names=("--max-episodes", "--max-episodes-per-client")))
        self.held: OrderedDict[str, _Held] = OrderedDict()  # oldest touched first
        self.lock = threading.Lock()

    def make_room(self, client: str) -> None:
        """Room for one more episode of `client`: past its share its own least recently used
        finished or idle one gives way, at the total anyone's; `_Full` when none may."""
        with self.lock:
            self._make_room(client)

    def _make_room(self, client: str) -> None:
        now = time.monotonic()

        def spent(episode_id: str) -> bool:
            held = self.held[episode_id]
            return not held.busy and (held.episode.done or now - held.touched > self.idle_s)

        room = self.shares.room(client, ((k, h.client) for k, h in self.held.items()), spent)
        if room is Shares.FULL:
            raise _Full
        if room is not Shares.NOTHING:
            self._forget(room)

    def _forget(self, episode_id: str) -> None:
        self.shares.remove(self.held.pop(episode_id).client)

    def add(self, episode: Episode, client: str) -> str:
        """Hold `episode` of `client` under a fresh id; `_Full` when no held episode may give
        way."""
        with self.lock:
            self._make_room(client)
            episode_id = secrets.token_urlsafe(18)
            self.held[episode_id] = _Held(episode, time.monotonic(), client)
            self.shares.add(client)
            return episode_id

    def take(self, episode_id: Any) -> _Held | None:
        """The episode `episode_id` marked busy (one step at a time), or None if unknown;
        `InputError` when it is over or has a step running."""
        with self.lock:
            held = self.held.get(episode_id) if isinstance(episode_id, str) else None
            if held is None:
                return None
            if held.episode.done:
                raise InputError("the episode is over", field="episode_id")
            if held.busy:
                raise StepRunning("the episode has a step running: retry when it answers",
                                  field="episode_id")
            held.busy, held.touched = True, time.monotonic()
            self.held.move_to_end(episode_id)
            return held

    def release(self, episode_id: Any, held: _Held) -> None:
        with self.lock:
            held.busy, held.touched = False, time.monotonic()

    def drop(self, episode_id: str) -> None:
        """Forget `episode_id` (its WebSocket closed, or reset to a new one), unless a step
        of it is running: then it stays until finished or idle makes room."""
        with self.lock:
            held = self.held.get(episode_id)
            if held is not None and not held.busy:
                self._forget(episode_id)

    def spent(self, episode_id: str) -> bool:
        """Whether `episode_id` may give way: gone, or finished or idle and not stepping."""
        with self.lock:
            held = self.held.get(episode_id)
            return held is None or (not held.busy and (
                held.episode.done or time.monotonic() - held.touched > self.idle_s))

    def get(self, episode_id: Any) -> Episode | None:
        """The episode `episode_id` (None if unknown), touched: a request for its state is a
        request (a WebSocket session reading only its state stays live, as its connection
        does)."""
        with self.lock:
            held = self.held.get(episode_id) if isinstance(episode_id, str) else None
            if held is None:
                return None
            held.touched = time.monotonic()
            self.held.move_to_end(episode_id)
            return held.episode


SCHEMA = {
    "action": {"title": "TextAction", "type": "object",
               "properties": {"text": {"type": "string", "description": "the model's turn"}},
               "required": ["text"]},
    "observation": {
        "title": "TextObservation", "type": "object",
        "properties": {
            "text": {"type": "string"}, "episode_id": {"type": "string"},
            "info": {"type": "object"}, "step_reward": {"type": "number"},
            "trajectory_reward": {"type": ["number", "null"]},
            "final_reward": {"type": ["number", "null"]}, "reason": {"type": "string"}},
        "required": ["text", "episode_id"]},
    "state": {"title": "State", "type": "object",
              "properties": {"episode_id": {"type": ["string", "null"]},
                             "step_count": {"type": "integer", "minimum": 0},
                             "done": {"type": "boolean"}},
              "required": ["episode_id", "step_count", "done"]},
}
"""`GET /schema`: OpenEnv's `SchemaResponse` (JSON schemas of the action, the observation and
the state) for this server's episodes."""


def create_env_app(config: EnvConfig, reward: Reward | str, *, max_episodes: int = 4096,
                   max_episodes_per_client: int | None = None,
                   idle_s: float = 3600.0, max_held_bytes: int = DEFAULT_MAX_HELD_BYTES,
                   token: str | None = None,
                   splits: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> Any:
    """The FastAPI app serving episodes of `config`, scored by `reward` (a `Reward` or a
    reward config path). `max_episodes` held at once, `max_episodes_per_client` of them
    by one client (None: half; `integrations._http.client_share`, the client read from the
    socket's peer as the connection caps read it); an episode without a request for
    `idle_s` seconds may give way to a new one. `max_held_bytes`: the most request-body bytes
    held at once (one body is at most as large), as `rewards serve` bounds them. `token`:
    every request must carry it (`integrations._auth`). OpenEnv's WebSocket (`/ws`) holds at
    most `max_episodes` connections (as many per client as episodes), each its own episode,
    closed after `idle_s` silent; ORS holds as many sessions, as many per client.
    `splits`: ORS's task lists by split name, each row a `/reset` sample
    (`integrations._env_ors`, which serves ORS on the same episodes)."""
    check_bounds(max_held_bytes, max_held_bytes, names=("max_held_bytes", "max_held_bytes"))
    if max_episodes < 1 or not idle_s > 0:
        raise ConfigError(f"max_episodes ({max_episodes}) and idle_s ({idle_s}) must be "
                          "positive")
    fastapi = require("fastapi", extra="server", feature="the environment server")
    from fastapi import Request  # here: an endpoint's annotation is read at its def
    JSONResponse = json_response()

    episodes = _Episodes(config, build_reward(reward) if isinstance(reward, (str, os.PathLike))
                         else reward,
                         max_episodes, idle_s, max_episodes_per_client)
    per_client = episodes.shares.per_client
    bounds = BodyBounds(max_bytes=max_held_bytes, max_held=max_held_bytes)
    app = fastapi.FastAPI(title="rewards-engine environments",
                          default_response_class=JSONResponse)
    guard(app, bounds=bounds, token=token)
    app.state.episodes = episodes

    def error(refused: Refused) -> Any:
        field = refused.error.field
        return JSONResponse({"detail": str(refused.error), **({"field": field} if field else {})},
                            status_code=refused.status, headers=refused.headers)

    def start(body: Any, client: str) -> dict[str, Any]:
        """A new episode of `client` (`peer_key`) from a `/reset` body; `Refused` (422,
        503)."""
        try:
            sample = _sample(body)
        except InputError as exc:
            raise Refused(422, exc) from exc
        try:
            episodes.make_room(client)  # before the environment starts: a full server
            episode = Episode(episodes.make(), sample, config)  # runs nothing
            text = episode.start()
            episode_id = episodes.add(episode, client)
        except _Full:
            raise Refused(503, InputError(
                f"{max_episodes} episodes are live, or {per_client} of this client's "
                "(its share): retry later"), headers={"Retry-After": "1"}) from None
        observation: dict[str, Any] = {"text": text, "episode_id": episode_id}
        if episode.done:  # it could not start (its reset failed): it abstains, saying why
            observation.update(trajectory_reward=None, final_reward=None,
                               reason=episode.failure_reason)
        return {"observation": observation, "reward": None, "done": episode.done}

    def advance(episode_id: Any, action: Any) -> dict[str, Any]:
        """One step of `episode_id` with `action` ({"text": str}); `Refused` (422, 404,
        409)."""
        text = action.get("text") if isinstance(action, dict) else None
        if not isinstance(text, str):
            raise Refused(422, InputError("needs {'text': str}", field="action"))
        try:
            held = episodes.take(episode_id)
        except InputError as exc:
            raise Refused(409, exc, headers={"Retry-After": "1"}
                          if isinstance(exc, StepRunning) else None) from exc
        if held is None:
            raise Refused(404, InputError("no open episode with this id", field="episode_id"))
        episode = held.episode
        try:  # the environment sees, and the episode keeps, the action as cut
            result = episode.step(text[:config.max_action_chars])
        finally:
            episodes.release(episode_id, held)
        reward: float | None = config.step_weight * result.reward
        observation: dict[str, Any] = {"text": result.observation,
                                       "episode_id": episode_id,
                                       "info": _plain(result.info),
                                       "step_reward": result.reward}
        if episode.done:
            trajectory, = score_trajectories([episode], episodes.reward)
            final = trajectory.final.value
            # an abstained episode has no reward (OpenEnv's and ORS's reward is optional):
            # null, never a 0 that would train it; its `reason` says why
            reward = None if trajectory.reward is None or final is None \
                else config.step_weight * result.reward + final
            observation.update(trajectory_reward=trajectory.reward, final_reward=final,
                               reason=trajectory.reason)
        return {"observation": observation, "reward": reward, "done": episode.done}

    def state_of(episode_id: Any) -> dict[str, Any]:
        episode = episodes.get(episode_id)
        if episode is None:
            raise Refused(404, InputError("no open episode with this id", field="episode_id"))
        return {"episode_id": episode_id, "step_count": len(episode.turns), "done": episode.done}

    @app.get("/health")
    def health() -> dict[str, Any]:
        return {"status": "ok", "environment": config.use, "episodes": len(episodes.held),
                "max_episodes": max_episodes, "max_episodes_per_client": per_client}

    @app.get("/schema")
    def schema() -> dict[str, Any]:
        return SCHEMA

    @app.post("/reset")
    def reset(request: Request) -> Any:  # sync: FastAPI runs it in a thread
        try:
            return start(parsed_body(request.scope), peer_key(request.scope))
        except InputError as exc:
            return error(Refused(422, exc))
        except Refused as refused:
            return error(refused)

    @app.post("/step")
    def step(request: Request) -> Any:
        try:
            body = parsed_body(request.scope)
            if not isinstance(body, dict):
                raise InputError("the body must be a JSON object", field="body")
            return advance(body.get("episode_id"), body.get("action"))
        except InputError as exc:
            return error(Refused(422, exc))
        except Refused as refused:
            return error(refused)

    @app.get("/state")
    def state(episode_id: str) -> Any:
        try:
            return state_of(episode_id)
        except Refused as refused:
            return error(refused)

    add_websocket(app, start=start, advance=advance, state_of=state_of,
                  drop=episodes.drop, bounds=bounds, max_connections=max_episodes,
                  per_client=per_client, idle_s=idle_s)
    add_ors(app, start=start, advance=advance, drop=episodes.drop, spent=episodes.spent,
            splits=dict(splits or {}),
            env_name=config.use, max_sessions=max_episodes, per_client=per_client,
            version=_version(), idle_s=idle_s)
    return app


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rewards-engine")
    except PackageNotFoundError:
        return "unknown"


def load_splits(specs: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """ORS splits from `NAME=FILE.jsonl` specs: each line a `/reset` sample (a JSON object
    with a `prompt`); `InputError` naming the file and line of a bad one."""
    import json
    from pathlib import Path

    splits: dict[str, list[dict[str, Any]]] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise ConfigError(f"--ors-split {spec!r}: give NAME=FILE.jsonl")
        rows = []
        for line_no, line in enumerate(Path(path).read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise InputError(f"not JSON: {exc}", source=path, line=line_no) from exc
            if not isinstance(row, dict) or not isinstance(row.get("prompt"), (str, list)):
                raise InputError("needs a JSON object with a 'prompt'", source=path,
                                 line=line_no, field="prompt")
            rows.append(row)
        splits[name] = rows
    return splits


def _plain(info: Any) -> dict[str, Any]:
    """The step's `info` as JSON can carry it: strings, numbers, booleans and nulls; a float
    that is not finite (no JSON number is) as its text ("nan", "inf"), never a 500."""
    return {str(k): v if not isinstance(v, float) or math.isfinite(v) else str(v)
            for k, v in dict(info).items()
            if isinstance(v, (str, int, float, bool)) or v is None}


class RemoteEnvironment:
    """An `Environment` whose episode runs on an environment server at `url` (one object
    per episode, as every `Environment`). The server scores the episode: `final_score()`
    (`rewards.envs.ScoredFinal`) is its final reward, which the loop uses instead of scoring
    `final_answer()` (empty) here, and `step` gives each turn's unweighted step reward, so
    the loop's trajectory reward equals the server's `trajectory_reward`. `token`: the
    server's shared token (None: `$REWARDS_ENV_TOKEN`, else none; "": none)."""

    name = "remote"

    def __init__(self, url: str, *, timeout: float = 120.0, client: Any = None,
                 token: str | None = None) -> None:
        httpx = require("httpx", extra="server", feature="the environment client")
        self.url = url.rstrip("/")
        self.client = client or httpx.Client(timeout=timeout)
        token = resolve_token(token, TOKEN_ENV) if token != "" else None
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.episode_id: str | None = None
        """The server's id of this episode, once reset."""
        self.final_reward: float | None = None
        self.trajectory_reward: float | None = None
        self.final_reason = "ok"
        self.done = False

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            response = self.client.post(self.url + path, json=body, headers=self.headers)
        except Exception as exc:  # the transport's errors: the server is unreachable
            raise EngineError(f"environment server {self.url}: {exc}") from exc
        if response.status_code != 200:
            raise EngineError(f"environment server {self.url}{path}: {response.status_code} "
                              f"{response.text[:300]}")
        return response.json()

    def reset(self, sample: Sample) -> str:
        body = {"sample": {
            "prompt": sample.prompt, "reference": sample.reference, "domain": sample.domain,
            "group": sample.group, "meta": dict(sample.meta)}}
        observation = self._post("/reset", body)["observation"]
        self.episode_id = observation["episode_id"]
        return observation["text"]

    def step(self, action: str) -> StepResult:
        out = self._post("/step", {"episode_id": self.episode_id, "action": {"text": action}})
        observation = out["observation"]
        if out["done"]:
            self.final_reward = observation.get("final_reward")
            self.trajectory_reward = observation.get("trajectory_reward")
            self.final_reason = str(observation.get("reason") or "ok")
            self.done = True
        # the step's own reward, unweighted: the loop weights it and adds the final reward
        # once (`rewards.envs.trajectory_returns`), as for a local environment
        return StepResult(observation["text"], float(observation.get("step_reward") or 0.0),
                          bool(out["done"]), observation.get("info", {}))

    def final_answer(self) -> str:
        return ""

    def final_score(self) -> Score | None:
        """The final reward the server gave (`ScoredFinal`): scored there, once."""
        if not self.done:
            return None
        if self.final_reward is None:  # the server's episode abstained, with its reason
            return Score(None, self.final_reason if self.final_reason != "ok" else "env_error")
        return Score(float(self.final_reward), self.final_reason)


def main(argv: list[str] | None = None, *, prog: str | None = None) -> None:
    """The command line (`python -m integrations.env_server`, `rewards env serve`: `prog`)."""
    from rewards.config import load_yaml

    parser = argparse.ArgumentParser(prog=prog, description="Serve environments over HTTP "
                                     "and WebSocket (OpenEnv's routes and shapes; "
                                     "docs/servers.md)")
    parser.add_argument("--environment", required=True, help="YAML of an environment block")
    parser.add_argument("--reward-config", required=True, help="the final reward's config")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8100, help="port (default: 8100)")
    parser.add_argument("--max-episodes", type=int, default=4096,
                        help="episodes held at once; when full, a finished or idle one makes "
                             "room, a live one never: a reset gets 503 (default: 4096)")
    parser.add_argument("--max-episodes-per-client", type=int, default=None, metavar="N",
                        help="episodes (and WebSocket and ORS sessions) one client address "
                             "holds at once (all of loopback is one client: a local trainer "
                             "needing every episode sets it to --max-episodes); past it its "
                             "own oldest finished or idle one makes room, else 503 (default: "
                             "half of --max-episodes; docs/servers.md)")
    parser.add_argument("--idle-s", type=float, default=3600.0,
                        help="an episode without a request this long may make room for a new "
                             "one (default: 3600)")
    parser.add_argument("--max-held-mb", type=float, default=DEFAULT_MAX_HELD_BYTES / (1 << 20),
                        help="request bodies held at once (read, waiting or running) in MiB, "
                             "as for `rewards serve`; also the largest body: bigger gets 413 "
                             "(default: 64)")
    parser.add_argument("--max-connections", type=int, default=None, metavar="N",
                        help=MAX_CONNECTIONS_HELP)
    parser.add_argument("--max-connections-per-client", type=int, default=None, metavar="N",
                        help=MAX_CONNECTIONS_PER_CLIENT_HELP)
    parser.add_argument("--token", default=None,
                        help="require this shared token of every request (Authorization: "
                             "Bearer TOKEN, or ?access_token=TOKEN in the URL); default: "
                             f"${TOKEN_ENV}, else none. Prefer the variable: a command line "
                             "is visible to every user of the machine")
    parser.add_argument("--ors-split", action="append", default=[], metavar="NAME=FILE.jsonl",
                        help="an ORS split: its tasks, one /reset sample (JSON with a "
                             "'prompt') per line; repeatable")
    parser.add_argument("--log-level", default="info",
                        choices=("critical", "error", "warning", "info", "debug"),
                        help="uvicorn log level (default: info)")
    args = parser.parse_args(argv)
    token = resolve_token(args.token, TOKEN_ENV)
    document = load_yaml(args.environment, what="environment")
    if isinstance(document, dict) and "environment" in document:
        document = document["environment"]
    config = load_options(EnvConfig, document, where=f"environment {args.environment}")
    app = create_env_app(config, args.reward_config, max_episodes=args.max_episodes,
                         max_episodes_per_client=args.max_episodes_per_client,
                         idle_s=args.idle_s, max_held_bytes=int(args.max_held_mb * (1 << 20)),
                         token=token, splits=load_splits(args.ors_split))
    run_server(app, "environment server", host=args.host, port=args.port, routes=ROUTES,
               token=token, log_level=args.log_level, max_connections=args.max_connections,
               max_connections_per_client=args.max_connections_per_client, websockets=True)


if __name__ == "__main__":
    main()
