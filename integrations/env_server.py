"""An HTTP face for the environments, in OpenEnv's request and response shapes, so that a
trainer on another machine runs our episodes (and a client of ours runs remote ones).

    POST /reset   {"episode_id"?: str, "sample": {"prompt", "reference"?, "domain"?, ...}}
               -> {"observation": {"text", "episode_id"}, "reward": null, "done": false}
    POST /step    {"episode_id": str, "action": {"text": str}}
               -> {"observation": {"text", "episode_id", "info", ...}, "reward": float,
                   "done": bool}
    GET  /state?episode_id=...  -> {"episode_id", "step_count", "done"}
    GET  /health

As in OpenEnv (`openenv.core.env_server.types`: ResetRequest, StepRequest, StepResponse),
the action is a JSON object and the observation one too; unlike an OpenEnv server, which holds
one environment, this one holds many episodes at once (at most `max_episodes`, the oldest
finished ones dropped first), told apart by `episode_id`. `reward` is the step's weighted
reward; the step that ends the episode adds the final reward (the reward config's, on the
final answer) to it and carries `trajectory_reward` (G_0, null when the episode abstains),
`final_reward` and `reason` in its observation. Every episode gets a fresh environment
object, so nothing one client sends reaches another's episode. A request that is not valid
is a 422 naming the field; an unknown or finished episode a 404 / 409. Request bodies held at
once are bounded as on our other servers (`max_held_bytes`, `--max-held-mb`,
`integrations._body.BodyLimit`): one body over it is a 413, others wait their turn unread.

Start it with `python -m integrations.env_server --environment ENV.yaml --reward-config
REWARD.yaml`, where ENV.yaml is an `environment:` block (rewards.envs.EnvConfig).
`RemoteEnvironment(url)` is the client: an `Environment` whose episodes run on the server.
"""

from __future__ import annotations

import argparse
import itertools
import threading
import uuid
from collections import OrderedDict
from typing import Any

from integrations._body import DEFAULT_MAX_HELD_BYTES, BodyLimit, check_bounds
from rewards.build import build_reward
from rewards.deps import require
from rewards.envs import EnvConfig, Episode, StepResult, env_factory, score_trajectories
from rewards.errors import EngineError, InputError
from rewards.options import load_options
from rewards.types import Reward, Sample

__all__ = ["RemoteEnvironment", "create_env_app", "main"]

_SAMPLE_KEYS = ("prompt", "reference", "domain", "group", "meta")


def _sample(body: Any) -> Sample:
    sample = body.get("sample") if isinstance(body, dict) else None
    if not isinstance(sample, dict) or not isinstance(sample.get("prompt"), (str, list)):
        raise InputError("needs a sample with a 'prompt' (text or chat messages)",
                         field="sample")
    unknown = sorted(set(sample) - set(_SAMPLE_KEYS) - {"completion"})
    meta = {**dict(sample.get("meta") or {}), **{k: sample[k] for k in unknown}}
    return Sample(prompt=sample["prompt"], completion="", reference=sample.get("reference"),
                  domain=str(sample.get("domain") or "default"),
                  group=sample.get("group"), meta=meta)


class _Episodes:
    """The server's open episodes, bounded (oldest finished first, then oldest)."""

    def __init__(self, config: EnvConfig, reward: Reward, max_episodes: int) -> None:
        self.config = config
        self.reward = reward
        self.make = env_factory(config)
        self.max_episodes = max_episodes
        self.open: OrderedDict[str, Episode] = OrderedDict()
        self.busy: set[str] = set()
        self.lock = threading.Lock()

    def add(self, episode_id: str, episode: Episode) -> None:
        with self.lock:
            if len(self.open) >= self.max_episodes:
                finished = next((k for k, e in self.open.items() if e.done), None)
                self.open.pop(finished if finished is not None else next(iter(self.open)))
            self.open[episode_id] = episode

    def get(self, episode_id: Any) -> Episode | None:
        with self.lock:
            return self.open.get(episode_id) if isinstance(episode_id, str) else None


def create_env_app(config: EnvConfig, reward: Reward | str, *, max_episodes: int = 4096,
                   max_held_bytes: int = DEFAULT_MAX_HELD_BYTES) -> Any:
    """The FastAPI app serving episodes of `config`, scored by `reward` (a `Reward` or a
    reward config path). `max_held_bytes`: the most request-body bytes held at once (one
    body is at most as large), as `rewards serve` bounds them."""
    check_bounds(max_held_bytes, max_held_bytes, names=("max_held_bytes", "max_held_bytes"))
    fastapi = require("fastapi", extra="server", feature="the environment server")
    from fastapi.responses import JSONResponse

    episodes = _Episodes(config, reward if hasattr(reward, "score") else build_reward(reward),
                         max_episodes)
    app = fastapi.FastAPI(title="rewards-engine environments")
    app.add_middleware(BodyLimit, max_bytes=max_held_bytes, max_held=max_held_bytes)

    def error(status: int, exc: Exception) -> Any:
        return JSONResponse({"detail": str(exc)}, status_code=status)

    @app.get("/health")
    def health() -> dict[str, Any]:
        return {"status": "ok", "environment": config.use, "episodes": len(episodes.open)}

    @app.post("/reset")
    def reset(body: dict[str, Any]) -> Any:  # a sync endpoint: FastAPI runs it in a thread
        try:
            sample = _sample(body)
        except InputError as exc:
            return error(422, exc)
        episode_id = body.get("episode_id") or uuid.uuid4().hex
        if not isinstance(episode_id, str) or len(episode_id) > 255:
            return error(422, InputError("a string of at most 255 characters",
                                         field="episode_id"))
        episode = Episode(episodes.make(), sample, config)
        text = episode.start()
        episodes.add(episode_id, episode)
        return {"observation": {"text": text, "episode_id": episode_id}, "reward": None,
                "done": episode.done}

    @app.post("/step")
    def step(body: dict[str, Any]) -> Any:
        episode = episodes.get(body.get("episode_id"))
        if episode is None:
            return error(404, InputError("no open episode with this id", field="episode_id"))
        action = body.get("action")
        text = action.get("text") if isinstance(action, dict) else None
        if not isinstance(text, str):
            return error(422, InputError("needs {'text': str}", field="action"))
        episode_id = body["episode_id"]
        with episodes.lock:  # one step at a time per episode; a finished one takes none
            if episode.done or episode_id in episodes.busy:
                return error(409, InputError("the episode is over or has a step running",
                                             field="episode_id"))
            episodes.busy.add(episode_id)
        try:
            result = episode.step(text)
        finally:
            with episodes.lock:
                episodes.busy.discard(episode_id)
        reward = config.step_weight * result.reward
        observation: dict[str, Any] = {"text": result.observation,
                                       "episode_id": episode_id,
                                       "info": _plain(result.info)}
        if episode.done:
            trajectory, = score_trajectories([episode], episodes.reward)
            final = trajectory.final.value
            reward += final or 0.0
            observation.update(trajectory_reward=trajectory.reward, final_reward=final,
                               reason=trajectory.reason)
        return {"observation": observation, "reward": reward, "done": episode.done}

    @app.get("/state")
    def state(episode_id: str) -> Any:
        episode = episodes.get(episode_id)
        if episode is None:
            return error(404, InputError("no open episode with this id", field="episode_id"))
        return {"episode_id": episode_id, "step_count": len(episode.turns), "done": episode.done}

    return app


def _plain(info: Any) -> dict[str, Any]:
    return {str(k): v for k, v in dict(info).items()
            if isinstance(v, (str, int, float, bool)) or v is None}


class RemoteEnvironment:
    """An `Environment` whose episode runs on an environment server at `url` (one object
    per episode, as every `Environment`). Its `final_answer` is empty: the server scores the
    episode, and `final_reward` / `trajectory_reward` hold what it said."""

    name = "remote"
    _ids = itertools.count()

    def __init__(self, url: str, *, timeout: float = 120.0, client: Any = None) -> None:
        httpx = require("httpx", extra="server", feature="the environment client")
        self.url = url.rstrip("/")
        self.client = client or httpx.Client(timeout=timeout)
        self.episode_id = f"{uuid.uuid4().hex}-{next(self._ids)}"
        self.final_reward: float | None = None
        self.trajectory_reward: float | None = None

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            response = self.client.post(self.url + path, json=body)
        except Exception as exc:  # the transport's errors: the server is unreachable
            raise EngineError(f"environment server {self.url}: {exc}") from exc
        if response.status_code != 200:
            raise EngineError(f"environment server {self.url}{path}: {response.status_code} "
                              f"{response.text[:300]}")
        return response.json()

    def reset(self, sample: Sample) -> str:
        body = {"episode_id": self.episode_id, "sample": {
            "prompt": sample.prompt, "reference": sample.reference, "domain": sample.domain,
            "group": sample.group, "meta": dict(sample.meta)}}
        return self._post("/reset", body)["observation"]["text"]

    def step(self, action: str) -> StepResult:
        out = self._post("/step", {"episode_id": self.episode_id, "action": {"text": action}})
        observation = out["observation"]
        if out["done"]:
            self.final_reward = observation.get("final_reward")
            self.trajectory_reward = observation.get("trajectory_reward")
        return StepResult(observation["text"], float(out["reward"] or 0.0), bool(out["done"]),
                          observation.get("info", {}))

    def final_answer(self) -> str:
        return ""


def main(argv: list[str] | None = None) -> None:
    from rewards.config import load_yaml

    parser = argparse.ArgumentParser(description="Serve environments over HTTP (OpenEnv shape)")
    parser.add_argument("--environment", required=True, help="YAML of an environment block")
    parser.add_argument("--reward-config", required=True, help="the final reward's config")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--max-held-mb", type=float, default=DEFAULT_MAX_HELD_BYTES / (1 << 20),
                        help="request bodies held at once, in MiB, as for `rewards serve` "
                             "(default: 64); one body over it gets 413")
    args = parser.parse_args(argv)
    document = load_yaml(args.environment, what="environment")
    if isinstance(document, dict) and "environment" in document:
        document = document["environment"]
    config = load_options(EnvConfig, document, where=f"environment {args.environment}")
    uvicorn = require("uvicorn", extra="server", feature="the environment server")
    app = create_env_app(config, args.reward_config,
                         max_held_bytes=int(args.max_held_mb * (1 << 20)))
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
