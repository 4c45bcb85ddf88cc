"""The environment HTTP face (OpenEnv's shapes): episodes over reset/step, scored on the
server; bad requests named; a remote environment runs the same episode as a local one."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from integrations.env_server import RemoteEnvironment, create_env_app
from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import EnvConfig, run_episodes
from rewards.options import load_options
from rewards.types import Sample


def reward():
    return build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))


@pytest.fixture
def client():
    config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 3}, where="t")
    return TestClient(create_env_app(config, reward(), max_episodes=8))


def test_reset_step_until_done(client):
    out = client.post("/reset", json={"episode_id": "e1",
                                      "sample": {"prompt": "Guess", "reference": 6}}).json()
    assert out == {"observation": {"text": "", "episode_id": "e1"}, "reward": None,
                   "done": False}
    first = client.post("/step", json={"episode_id": "e1", "action": {"text": "4"}}).json()
    assert first["observation"]["text"].strip() == "Higher." and not first["done"]
    assert first["reward"] == pytest.approx(-0.1)
    last = client.post("/step", json={"episode_id": "e1", "action": {"text": "6"}}).json()
    assert last["done"] and last["reward"] == pytest.approx(0.9)
    assert last["observation"]["trajectory_reward"] == pytest.approx(0.8)
    assert client.get("/state", params={"episode_id": "e1"}).json() == {
        "episode_id": "e1", "step_count": 2, "done": True}
    again = client.post("/step", json={"episode_id": "e1", "action": {"text": "6"}})
    assert again.status_code == 409


def test_bad_requests_are_named(client):
    assert client.post("/reset", json={"sample": {"reference": 1}}).status_code == 422
    assert "prompt" in client.post("/reset", json={"sample": {}}).text
    assert client.post("/step", json={"episode_id": "nope", "action": {"text": "1"}}
                       ).status_code == 404
    client.post("/reset", json={"episode_id": "e2", "sample": {"prompt": "p", "reference": 1}})
    assert client.post("/step", json={"episode_id": "e2", "action": "1"}).status_code == 422


def test_episodes_are_bounded(client):
    for i in range(20):
        client.post("/reset", json={"episode_id": f"x{i}", "sample": {"prompt": "p",
                                                                      "reference": 1}})
    assert client.get("/health").json()["episodes"] == 8


def test_remote_environment_runs_the_local_episode(client):
    config = load_options(EnvConfig, {"use": "integrations.env_server:RemoteEnvironment",
                                      "max_turns": 3}, where="t")
    remotes = []

    def make(*args):
        env = RemoteEnvironment("http://testserver", client=client)
        remotes.append(env)
        return env

    import integrations.env_server as module

    local_config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 3}, where="t")
    samples = [Sample("g", "", reference=3), Sample("g", "", reference=8)]
    script = ["5", "2", "3"]

    def policy(messages):
        return script[(len(messages) - 1) // 2]

    local = run_episodes(local_config, reward(), samples, policy)
    episodes = []
    for sample in samples:  # the remote episodes, driven by the same policy
        env = make()
        from rewards.envs import Episode

        episode = Episode(env, sample, config)
        messages = [{"role": "user", "content": episode.start() or "g"}]
        while not episode.done:
            action = policy(messages)
            result = episode.step(action)
            messages += [{"role": "assistant", "content": action},
                         {"role": "user", "content": result.observation}]
        episodes.append(episode)
    assert [r.trajectory_reward for r in remotes] == pytest.approx([t.reward for t in local])
    assert [[t.observation for t in e.turns] for e in episodes] == \
        [[t.observation for t in traj.turns] for traj in local]
    assert module.RemoteEnvironment is RemoteEnvironment


def test_request_bodies_are_bounded_as_on_the_other_servers():
    """A body over `max_held_bytes` is a 413 before it is read; a small request is served on;
    a bound that is not positive is refused when the app is made."""
    from rewards.errors import ConfigError

    config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 3}, where="t")
    client = TestClient(create_env_app(config, reward(), max_held_bytes=4096))
    big = client.post("/reset", json={"episode_id": "big",
                                      "sample": {"prompt": "x" * 8192, "reference": 6}})
    assert big.status_code == 413
    assert client.get("/health").json()["episodes"] == 0
    small = client.post("/reset", json={"episode_id": "s", "sample": {"prompt": "Guess",
                                                                      "reference": 6}})
    assert small.status_code == 200 and client.get("/health").json()["episodes"] == 1
    with pytest.raises(ConfigError, match="max_held_bytes must be positive"):
        create_env_app(config, reward(), max_held_bytes=0)
