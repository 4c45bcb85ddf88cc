"""The environment HTTP face (OpenEnv's shapes): episodes over reset/step, scored on the
server; bad requests named; a remote environment runs the same episode as a local one; ids the
server chooses, live episodes never evicted, actions kept only as cut, the shared token and
body bounds of our other servers, and the start-up line."""

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


def guess_config(**extra):
    return load_options(EnvConfig, {"use": "number_guess", "max_turns": 3, **extra}, where="t")


@pytest.fixture
def client():
    return TestClient(create_env_app(guess_config(), reward(), max_episodes=8))


def reset(client, reference=6, **sample):
    reply = client.post("/reset", json={"sample": {"prompt": "Guess", "reference": reference,
                                                   **sample}})
    assert reply.status_code == 200, reply.text
    return reply.json()["observation"]["episode_id"]


def test_reset_step_until_done(client):
    out = client.post("/reset", json={"sample": {"prompt": "Guess", "reference": 6}}).json()
    e1 = out["observation"]["episode_id"]
    assert out == {"observation": {"text": "", "episode_id": e1}, "reward": None,
                   "done": False}
    first = client.post("/step", json={"episode_id": e1, "action": {"text": "4"}}).json()
    assert first["observation"]["text"].strip() == "Higher." and not first["done"]
    assert first["reward"] == pytest.approx(-0.1)
    last = client.post("/step", json={"episode_id": e1, "action": {"text": "6"}}).json()
    assert last["done"] and last["reward"] == pytest.approx(0.9)
    assert last["observation"]["trajectory_reward"] == pytest.approx(0.8)
    assert client.get("/state", params={"episode_id": e1}).json() == {
        "episode_id": e1, "step_count": 2, "done": True}
    again = client.post("/step", json={"episode_id": e1, "action": {"text": "6"}})
    assert again.status_code == 409


def test_bad_requests_are_named(client):
    assert client.post("/reset", json={"sample": {"reference": 1}}).status_code == 422
    assert "prompt" in client.post("/reset", json={"sample": {}}).text
    assert client.post("/step", json={"episode_id": "nope", "action": {"text": "1"}}
                       ).status_code == 404
    e2 = reset(client, 1)
    assert client.post("/step", json={"episode_id": e2, "action": "1"}).status_code == 422
    for body, field in (({"sample": {"prompt": "p", "meta": [1]}}, "sample.meta"),
                        ({"sample": {"prompt": "p", "meta": "x"}}, "sample.meta"),
                        ({"sample": {"prompt": "p", "group": {"a": 1}}}, "sample.group"),
                        ([1, 2], "body")):
        reply = client.post("/reset", json=body)
        assert reply.status_code == 422 and reply.json()["field"] == field, reply.text
    for path in ("/reset", "/step"):
        reply = client.post(path, content=b"{not json", headers={"content-type":
                                                                 "application/json"})
        assert reply.status_code == 422 and reply.json()["field"] == "body", reply.text


def test_ids_are_the_servers_and_a_client_cannot_replace_a_live_episode(client):
    """Every id is chosen by the server (unguessable, distinct); a reset that names an id,
    a live one included, is refused and the live episode goes on untouched."""
    ids = [reset(client) for _ in range(4)]
    assert len(set(ids)) == 4 and all(len(i) >= 24 for i in ids)
    client.post("/step", json={"episode_id": ids[0], "action": {"text": "4"}})
    hijack = client.post("/reset", json={"episode_id": ids[0],
                                         "sample": {"prompt": "Guess", "reference": 1}})
    assert hijack.status_code == 422 and hijack.json()["field"] == "episode_id"
    assert client.get("/state", params={"episode_id": ids[0]}).json()["step_count"] == 1
    last = client.post("/step", json={"episode_id": ids[0], "action": {"text": "6"}}).json()
    assert last["done"] and last["observation"]["final_reward"] == 1.0  # still reference 6


def test_one_client_holds_its_share_and_its_own_finished_episode_makes_room():
    """By default a client (an address) holds half the episodes: past it its own finished
    episode makes room, never another client's, and with all of its own live its reset is a
    503 while another client still gets a place; `max_episodes_per_client` raises the
    share, never past the total."""
    from rewards.errors import ConfigError

    app = create_env_app(guess_config(), reward(), max_episodes=4)
    mine, theirs = (TestClient(app, client=(ip, 40000)) for ip in ("192.0.2.1", "192.0.2.2"))
    first, second = reset(mine), reset(mine)
    refused = mine.post("/reset", json={"sample": {"prompt": "Guess", "reference": 6}})
    assert refused.status_code == 503 and "2 of this client's" in refused.json()["detail"]
    other = reset(theirs)
    theirs.post("/step", json={"episode_id": other, "action": {"text": "6"}})  # finished
    mine.post("/step", json={"episode_id": first, "action": {"text": "6"}})  # finished
    third = reset(mine)  # its own finished one gave way, not the other client's
    assert mine.get("/state", params={"episode_id": first}).status_code == 404
    assert theirs.get("/state", params={"episode_id": other}).status_code == 200
    assert app.state.episodes.shares.count == {"192.0.2.1": 2, "192.0.2.2": 1}
    assert {second, third} <= set(app.state.episodes.held)
    assert mine.get("/health").json()["max_episodes_per_client"] == 2
    whole = create_env_app(guess_config(), reward(), max_episodes=4, max_episodes_per_client=4)
    one = TestClient(whole)
    assert len({reset(one) for _ in range(4)}) == 4
    for bad in (0, 5):
        with pytest.raises(ConfigError, match="--max-episodes-per-client"):
            create_env_app(guess_config(), reward(), max_episodes=4,
                           max_episodes_per_client=bad)


def test_a_full_server_refuses_new_episodes_and_never_evicts_live_ones():
    """With 8 held, a ninth reset is a 503 while all 8 are live (each still steps); a
    finished episode, or one idle past `idle_s`, makes room. (One client fills the table
    here: its share is set to the whole of it.)"""
    import time

    app = create_env_app(guess_config(), reward(), max_episodes=8, max_episodes_per_client=8,
                         idle_s=0.5)
    client = TestClient(app)
    live = [reset(client) for _ in range(8)]
    for _ in range(3):
        full = client.post("/reset", json={"sample": {"prompt": "Guess", "reference": 6}})
        assert full.status_code == 503 and full.headers["retry-after"] == "1"
    for episode_id in live:
        step = client.post("/step", json={"episode_id": episode_id, "action": {"text": "4"}})
        assert step.status_code == 200 and not step.json()["done"]
    client.post("/step", json={"episode_id": live[0], "action": {"text": "6"}})  # finished
    fresh = reset(client)
    assert fresh not in live and client.get("/health").json()["episodes"] == 8
    assert client.get("/state", params={"episode_id": live[0]}).status_code == 404
    assert client.post("/reset", json={"sample": {"prompt": "G", "reference": 6}}
                       ).status_code == 503
    time.sleep(0.6)  # every episode is now idle past idle_s: the least recently used goes
    reset(client)
    assert client.get("/state", params={"episode_id": live[1]}).status_code == 404
    assert client.get("/state", params={"episode_id": fresh}).status_code == 200


def test_an_action_is_kept_only_as_cut():
    """A step's action is cut to the environment's max_action_chars before the environment
    sees it and before the episode keeps it: a 4 MB action is not held."""
    app = create_env_app(guess_config(max_action_chars=100), reward())
    client = TestClient(app)
    episode_id = reset(client)
    big = "4" + " " * (4 << 20)
    assert client.post("/step", json={"episode_id": episode_id, "action": {"text": big}}
                       ).status_code == 200
    [turn] = app.state.episodes.get(episode_id).turns
    assert len(turn.action) == 100


def test_remote_environment_runs_the_local_episode(client):
    config = load_options(EnvConfig, {"use": "integrations.env_server:RemoteEnvironment",
                                      "max_turns": 3}, where="t")
    remotes = []

    def make(*args):
        env = RemoteEnvironment("http://testserver", client=client, token="")
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


def test_remote_episodes_scored_by_the_loops_path_count_each_reward_once():
    """Through the loop's own scoring (`score_trajectories`), a remote episode's trajectory
    reward equals the local one's and the server's: step rewards weighted once (step_weight
    0.5 shows a second weighting), the server's final reward added once, never rescored here
    (the remote final answer is empty: scoring it here would give 0)."""
    from rewards.envs import Episode, score_trajectories

    server = TestClient(create_env_app(guess_config(step_weight=0.5), reward(),
                                       max_episodes=8))
    config = load_options(EnvConfig, {"use": "integrations.env_server:RemoteEnvironment",
                                      "max_turns": 3, "step_weight": 0.5}, where="t")
    samples = [Sample("g", "", reference=3), Sample("g", "", reference=8)]
    script = ["5", "2", "3"]
    local = run_episodes(guess_config(step_weight=0.5), reward(), samples,
                         lambda messages: script[(len(messages) - 1) // 2])
    remotes, episodes = [], []
    for sample in samples:
        env = RemoteEnvironment("http://testserver", client=server, token="")
        remotes.append(env)
        episode = Episode(env, sample, config)
        episode.start()
        for action in script:
            if episode.done:
                break
            episode.step(action)
        episodes.append(episode)
    scored = score_trajectories(episodes, reward())
    assert [t.reward for t in scored] == pytest.approx([t.reward for t in local])
    assert [t.returns for t in scored] == pytest.approx([t.returns for t in local])
    assert [t.reward for t in scored] == pytest.approx([r.trajectory_reward for r in remotes])


def test_request_bodies_are_bounded_as_on_the_other_servers():
    """A body over `max_held_bytes` is a 413 before it is read; a small request is served on;
    a bound that is not positive is refused when the app is made."""
    from rewards.errors import ConfigError

    config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 3}, where="t")
    client = TestClient(create_env_app(config, reward(), max_held_bytes=4096))
    big = client.post("/reset", json={"sample": {"prompt": "x" * 8192, "reference": 6}})
    assert big.status_code == 413
    assert client.get("/health").json()["episodes"] == 0
    small = client.post("/reset", json={"sample": {"prompt": "Guess", "reference": 6}})
    assert small.status_code == 200 and client.get("/health").json()["episodes"] == 1
    with pytest.raises(ConfigError, match="max_held_bytes must be positive"):
        create_env_app(config, reward(), max_held_bytes=0)


def test_a_token_guards_every_route():
    """`token`: without it (or with another) every route is 401, the body unread; with it as a
    Bearer header or `?access_token=`, the episode runs; `RemoteEnvironment` sends it."""
    app = create_env_app(guess_config(), reward(), token="env-token_0.9~")
    client = TestClient(app)
    body = {"sample": {"prompt": "Guess", "reference": 6}}
    for headers, query in (({}, ""), ({"Authorization": "Bearer nope"}, ""),
                           ({}, "?access_token=env-token")):
        assert client.post("/reset" + query, json=body, headers=headers).status_code == 401
        assert client.get("/health" + query, headers=headers).status_code == 401
    assert client.post("/reset?access_token=env-token_0.9~", json=body).status_code == 200
    remote = RemoteEnvironment("http://testserver", client=client, token="env-token_0.9~")
    remote.reset(Sample("Guess", "", reference=6))
    assert remote.step("6").done and remote.final_reward == 1.0
    with pytest.raises(Exception, match="401"):
        RemoteEnvironment("http://testserver", client=client, token="").reset(
            Sample("Guess", "", reference=6))


def test_main_prints_where_it_serves_and_takes_the_token(tmp_path, monkeypatch, capsys):
    """`python -m integrations.env_server` prints one line once started (address, routes,
    the token's presence, the body bounds, the connection caps) and passes --token and
    --max-connections-per-client on; a token that cannot travel in
    a URL is refused before it starts."""
    import uvicorn

    from integrations import env_server
    from rewards.errors import ConfigError

    (tmp_path / "env.yaml").write_text("environment: {use: number_guess, max_turns: 3}\n")
    (tmp_path / "reward.yaml").write_text("domains: {default: {rewards: [math]}}\n")
    served = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append((app, kw)))
    monkeypatch.setenv("REWARDS_ENV_TOKEN", "from-env")
    env_server.main(["--environment", str(tmp_path / "env.yaml"), "--reward-config",
                     str(tmp_path / "reward.yaml"), "--port", "8123",
                     "--max-connections-per-client", "7", "--max-episodes", "6",
                     "--max-episodes-per-client", "5"])
    app, options = served[0]
    assert options["port"] == 8123 and options["proxy_headers"] is False
    with TestClient(app) as client:  # the line comes once the app has started
        line = capsys.readouterr().err
        assert client.get("/health").status_code == 401
        health = client.get("/health", headers={"Authorization": "Bearer from-env"}).json()
        assert (health["max_episodes"], health["max_episodes_per_client"]) == (6, 5)
    assert "environment server: serving http://127.0.0.1:8123" in line
    assert "POST /reset" in line and "token required" in line and "JSON values" in line
    assert ", 7 per client address" in line
    with pytest.raises(ConfigError, match="URL-safe"):
        env_server.main(["--environment", str(tmp_path / "env.yaml"), "--reward-config",
                         str(tmp_path / "reward.yaml"), "--token", "a+b"])
