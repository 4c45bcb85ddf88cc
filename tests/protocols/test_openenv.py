"""OpenEnv: the environment server driven by openenv-core's own `EnvClient` (its
`GenericEnvClient`, over `/ws`) and its `/schema`, on 127.0.0.1; the WebSocket's bounds,
its sessions (a connection reaches only its own episode) and the token.

openenv-core installs here without its UI and CLI extras: `pip install --no-deps
openenv-core==0.3.0 && pip install fastmcp` (scripts/test.sh; docs/environments.md)."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("fastapi")
generic_client = pytest.importorskip(
    "openenv.core.generic_client",
    reason="pip install --no-deps openenv-core==0.3.0 && pip install fastmcp")
GenericEnvClient = generic_client.GenericEnvClient

from protocol_helpers import serving  # type: ignore[import-not-found]

from integrations.env_server import SCHEMA, create_env_app
from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import EnvConfig
from rewards.options import load_options

SAMPLE = {"prompt": "Guess a number from 1 to 10.", "reference": 6}


def app(**options):
    reward = build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))
    config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 3}, where="t")
    return create_env_app(config, reward, **options)


def run(coroutine):
    return asyncio.run(coroutine)


def test_openenvs_own_client_plays_an_episode_over_the_websocket():
    """reset, step until done, state: each reply parsed by `GenericEnvClient` itself; the
    rewards are those of the HTTP routes (-0.1 a step, 0.9 on the last, trajectory 0.8)."""
    async def episode(url):
        async with GenericEnvClient(base_url=url) as env:
            first = await env.reset(sample=SAMPLE)
            assert first.observation["text"] == "" and first.reward is None
            assert not first.done
            episode_id = first.observation["episode_id"]
            hint = await env.step({"text": "4"})
            assert hint.observation["text"].strip() == "Higher." and not hint.done
            assert hint.reward == pytest.approx(-0.1)
            assert await env.state() == {"episode_id": episode_id, "step_count": 1,
                                         "done": False}
            last = await env.step({"text": "6"})
            assert last.done and last.reward == pytest.approx(0.9)
            assert last.observation["trajectory_reward"] == pytest.approx(0.8)
            assert last.observation["final_reward"] == 1.0
            with pytest.raises(RuntimeError, match="over"):  # the episode is finished
                await env.step({"text": "6"})
            again = await env.reset(sample=SAMPLE)  # a new episode on the same connection
            assert again.observation["episode_id"] != episode_id

    served = app(max_episodes=4)
    with serving(served) as url:
        run(episode(url))
        run(episode(url.replace("http://", "ws://")))  # either scheme, as EnvClient takes
    assert len(served.state.episodes.held) == 0  # a closed connection leaves no episode


def test_the_sync_wrapper_and_the_schema():
    """`EnvClient.sync()`, as TRL's OpenEnv examples drive it; `GET /schema` is OpenEnv's
    SchemaResponse and what the client sends and reads conforms to it."""
    httpx = pytest.importorskip("httpx")
    jsonschema = pytest.importorskip("jsonschema")
    with serving(app()) as url:
        schema = httpx.get(url + "/schema").json()
        assert schema == SCHEMA and set(schema) == {"action", "observation", "state"}
        with GenericEnvClient(base_url=url).sync() as env:
            env.reset(sample=SAMPLE)
            action = {"text": "6"}
            jsonschema.validate(action, schema["action"])
            result = env.step(action)
            jsonschema.validate(result.observation, schema["observation"])
            jsonschema.validate(env.state(), schema["state"])
            assert result.done and result.reward == pytest.approx(0.9)  # -0.1 + 1.0


def test_a_connection_reaches_only_its_own_episode():
    """Two clients: neither a step naming the other's id, nor a reset that names an id, nor
    the HTTP routes with a made-up id reach the other's episode; its state is untouched."""
    async def two(url):
        async with GenericEnvClient(base_url=url) as a, GenericEnvClient(base_url=url) as b:
            a_id = (await a.reset(sample=SAMPLE)).observation["episode_id"]
            b_id = (await b.reset(sample=SAMPLE)).observation["episode_id"]
            assert a_id != b_id
            out = await b.step({"text": "6", "episode_id": a_id})  # stays b's own step
            assert out.observation["episode_id"] == b_id and out.done
            with pytest.raises(RuntimeError, match="VALIDATION_ERROR"):
                await b.reset(sample=SAMPLE, episode_id=a_id)
            assert await a.state() == {"episode_id": a_id, "step_count": 0, "done": False}
            assert (await a.step({"text": "6"})).done

    with serving(app()) as url:
        run(two(url))


def test_bad_messages_are_answered_in_openenvs_error_shape():
    """Not JSON, an unknown type, a step before a reset, an action without text, values and
    depth past the body bounds: each an OpenEnv error (`type: error`, `data.code`), and the
    connection serves on."""
    websockets = pytest.importorskip("websockets.asyncio.client")

    async def talk(url):
        async with websockets.connect(url.replace("http://", "ws://") + "/ws") as ws:
            async def ask(raw):
                await ws.send(raw)
                return json.loads(await ws.recv())

            assert (await ask("{nope"))["data"]["code"] == "INVALID_JSON"
            assert (await ask('{"type": "fly"}'))["data"]["code"] == "UNKNOWN_TYPE"
            early = await ask('{"type": "step", "data": {"text": "1"}}')
            assert early["type"] == "error" and early["data"]["status"] == 409
            reply = await ask(json.dumps({"type": "reset", "data": {"sample": SAMPLE}}))
            assert reply["type"] == "observation"
            bad = await ask('{"type": "step", "data": {"txt": "1"}}')
            assert bad["data"]["code"] == "VALIDATION_ERROR" and bad["data"]["field"] == "action"
            many = await ask(json.dumps({"type": "step", "data": {"text": "1",
                                                                  "pad": [0] * 100_001}}))
            assert many["data"]["status"] == 413
            deep = await ask('{"type": "step", "data": ' + "[" * 100 + "]" * 100 + "}")
            assert deep["data"]["status"] == 400
            ok = await ask(json.dumps({"type": "step", "data": {"text": "6"}}))
            assert ok["type"] == "observation" and ok["data"]["done"]

    served = app()
    with serving(served) as url:
        run(talk(url))


def test_a_message_over_the_byte_bound_closes_the_connection_unread():
    """uvicorn's `ws_max_size` is the body bound: a larger message closes the connection
    (1009) before it is held; the server serves the next client."""
    websockets = pytest.importorskip("websockets.asyncio.client")
    exceptions = pytest.importorskip("websockets.exceptions")

    async def big(url):
        async with websockets.connect(url.replace("http://", "ws://") + "/ws",
                                      max_size=None) as ws:
            await ws.send("x" * 8192)
            with pytest.raises(exceptions.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

    async def fine(url):
        async with GenericEnvClient(base_url=url) as env:
            assert (await env.reset(sample=SAMPLE)).done is False

    with serving(app(max_held_bytes=4096)) as url:
        run(big(url))
        run(fine(url))


def test_connections_are_bounded_and_a_silent_one_is_closed():
    """At most `max_episodes` connections (the next gets CAPACITY_REACHED); one silent for
    `idle_s` is closed and its episode dropped, which makes room."""
    ConnectionClosed = pytest.importorskip("websockets.exceptions").ConnectionClosed
    async def crowd(url):
        async with GenericEnvClient(base_url=url) as a:
            await a.reset(sample=SAMPLE)
            async with GenericEnvClient(base_url=url) as b:
                with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
                    await b.reset(sample=SAMPLE)
            deadline = asyncio.get_running_loop().time() + 60
            while served.state.episodes.held:  # a is silent past idle_s: closed, dropped
                assert asyncio.get_running_loop().time() < deadline
                await asyncio.sleep(0.05)
            with pytest.raises(ConnectionClosed):
                await a.step({"text": "6"})
        async with GenericEnvClient(base_url=url) as c:
            assert (await c.reset(sample=SAMPLE)).done is False

    served = app(max_episodes=1, idle_s=1.0)
    with serving(served) as url:
        run(crowd(url))


def test_the_token_travels_in_the_url_openenvs_client_is_given():
    """`EnvClient` sets no header: the token rides as `?access_token=` in the base URL
    (`http://HOST:PORT/ws?access_token=T&_=`, to which the client appends `/ws`); without
    it the handshake is refused (403) and `connect` raises."""
    token = "openenv-token_1"
    with serving(app(token=token)) as url:
        async def with_token():
            client = GenericEnvClient(base_url=f"{url}/ws?access_token={token}&_=")
            async with client as env:
                assert (await env.reset(sample=SAMPLE)).observation["text"] == ""

        async def without():
            with pytest.raises(ConnectionError):
                await GenericEnvClient(base_url=url).connect()
            with pytest.raises(ConnectionError):
                await GenericEnvClient(base_url=f"{url}/ws?access_token=nope&_=").connect()

        run(with_token())
        run(without())


def test_rewards_env_serve_is_the_command_openenvs_client_drives(tmp_path):
    """`rewards env serve` (one parser with `python -m integrations.env_server`) started as
    a process: its start-up line names /ws, and openenv-core's client plays an episode."""
    import os
    import subprocess
    import sys
    import time

    from protocol_helpers import free_port  # type: ignore[import-not-found]

    (tmp_path / "env.yaml").write_text("environment: {use: number_guess, max_turns: 3}\n")
    (tmp_path / "reward.yaml").write_text("domains:\n  default: {rewards: [{use: math}]}\n")
    port = free_port()
    log = (tmp_path / "server.log").open("w+")
    proc = subprocess.Popen(
        [sys.executable, "-m", "rewards", "env", "serve", "--environment",
         str(tmp_path / "env.yaml"), "--reward-config", str(tmp_path / "reward.yaml"),
         "--port", str(port), "--log-level", "warning"],
        stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
    try:
        deadline = time.monotonic() + 60
        while "serving" not in (tmp_path / "server.log").read_text():
            assert proc.poll() is None and time.monotonic() < deadline, \
                (tmp_path / "server.log").read_text()
            time.sleep(0.1)
        time.sleep(0.5)  # the line is printed just before uvicorn binds

        async def episode():
            for _ in range(100):
                try:
                    async with GenericEnvClient(base_url=f"http://127.0.0.1:{port}") as env:
                        await env.reset(sample=SAMPLE)
                        return await env.step({"text": "6"})
                except ConnectionError:
                    await asyncio.sleep(0.2)
            raise AssertionError("the server never accepted")

        result = run(episode())
        assert result.done and result.observation["final_reward"] == 1.0
        assert "WS /ws" in (tmp_path / "server.log").read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
