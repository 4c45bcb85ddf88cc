"""ORS (the Open Reward Standard): the environment server driven by the `openreward` SDK's
own client (0.1.167: `AsyncOpenReward(...).environments.get(...)`, its `session`, tools,
splits and tasks) on 127.0.0.1; the sessions it holds (server-chosen ids, bounded), the
token in the SDK's own header, and the body bounds.

openreward installs here as `pip install --no-deps openreward==0.1.167 structlog
google-genai` (its other dependencies are already ours; scripts/test.sh, docs/environments.md)."""

from __future__ import annotations

import asyncio
import json
import os

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
openreward = pytest.importorskip(
    "openreward", reason="pip install --no-deps openreward==0.1.167 structlog google-genai")
os.environ.setdefault("OPENREWARD_DISABLE_UPDATE_CHECK", "1")  # no network from the SDK

from protocol_helpers import serving  # type: ignore[import-not-found]

from integrations.env_server import create_env_app
from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import EnvConfig
from rewards.options import load_options

TASKS = [{"prompt": "Guess a number from 1 to 10.", "reference": 6},
         {"prompt": [{"role": "system", "content": "Be brief."},
                     {"role": "user", "content": "Guess a number from 1 to 10."}],
          "reference": 3}]


def app(**options):
    reward = build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))
    config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 3}, where="t")
    return create_env_app(config, reward, splits={"train": TASKS, "test": TASKS[:1]},
                          **options)


def environment(url, token="or-token"):
    client = openreward.AsyncOpenReward(api_key=token, base_url=url)
    return client, client.environments.get("number_guess", base_url=url)


def test_the_sdks_own_client_plays_episodes_with_the_reward_inline():
    """Splits and tasks as the SDK lists them; a session by split and index, and one by a
    task it was given; `act` returns the `/step` reward inline (-0.1 a step, 0.9 on the
    last), `finished` on the last, the trajectory's rewards in `metadata`; the SDK's token
    rides in its own header (X-API-Key); a closed session leaves no episode."""
    async def play(url):
        client, env = environment(url)
        assert await env.list_splits() == ["train", "test"]
        assert await env.num_tasks("train") == 2
        tasks = await env.list_tasks("train")
        assert [t.task_spec for t in tasks] == TASKS
        assert (await env.get_task("train", 1)).task_spec == TASKS[1]
        assert [t.task_spec for t in await env.get_task_range("train", 1, 2)] == TASKS[1:]
        assert [t.name for t in await env.list_tools()] == ["act"]
        async with env.session(split="train", index=0) as session:
            prompt = await session.get_prompt()
            assert [b.text for b in prompt] == [TASKS[0]["prompt"]]
            hint = await session.call_tool("act", {"text": "4"})
            assert hint.blocks[0].text.strip() == "Higher." and not hint.finished
            assert hint.reward == pytest.approx(-0.1)
            last = await session.call_tool("act", {"text": "6"})
            assert last.finished and last.reward == pytest.approx(0.9)
            assert last.metadata["trajectory_reward"] == pytest.approx(0.8)
            assert last.metadata["final_reward"] == 1.0
            from openreward.api.errors import ToolCallError
            with pytest.raises(ToolCallError) as over:
                await session.call_tool("act", {"text": "6"})
            assert over.value.reason == "episode_finished"
            with pytest.raises(ToolCallError) as unknown:
                await session.call_tool("python", {"code": "1"})
            assert unknown.value.reason == "not_found"
        async with env.session(task=tasks[1]) as session:  # chat messages as the prompt
            messages = await session.get_messages()
            assert [m.role for m in messages] == ["system", "user"]
            won = await session.call_tool("act", {"text": "3"})
            assert won.finished and won.reward == pytest.approx(0.9)
        await client.environments.aclose()

    served = app(token="or-token")
    with serving(served) as url:
        asyncio.run(play(url))
        assert httpx.get(url + "/splits").status_code == 401  # no token: refused
        assert httpx.get(url + "/splits", headers={"X-API-Key": "other"}).status_code == 401
    assert len(served.state.episodes.held) == 0


def _post(client, url, path, sid=None, body=None, token="or-token"):
    headers = {"X-API-Key": token, **({"X-Session-ID": sid} if sid else {})}
    return client.post(url + path, headers=headers, json={} if body is None else body)


def _sid(client, url):
    reply = _post(client, url, "/create_session")
    assert reply.status_code == 200, reply.text
    events = [line.split(": ", 1)[1] for line in reply.text.splitlines()
              if line.startswith("data: ")]
    return events[0]


def _act(client, url, sid, text):
    reply = _post(client, url, "/call", sid, {"name": "act", "input": {"text": text}})
    if reply.status_code != 200:
        return reply.status_code, None
    data = [line[6:] for line in reply.text.splitlines() if line.startswith("data: ")]
    return 200, json.loads(data[-1])


def test_a_session_is_the_servers_to_name_and_reaches_only_its_own_episode():
    """A `/create` under a sid the server did not issue: 404 (no client picks its id); a
    second `/create` on a sid: 409; a call under a made-up sid: 404. Two sessions: each
    call reaches only its own episode; after one is deleted its sid reaches nothing."""
    with serving(app(token="or-token")) as url, httpx.Client(timeout=60) as client:
        assert _post(client, url, "/create", "my-own-id",
                     {"split": "train", "index": 0}).status_code == 404
        a, b = _sid(client, url), _sid(client, url)
        assert a != b and len(a) >= 24
        assert _post(client, url, "/create", a, {"split": "train", "index": 0}).status_code == 200
        assert _post(client, url, "/create", a, {"split": "train", "index": 0}).status_code == 409
        assert _post(client, url, "/create", b, {"task_spec": TASKS[1]}).status_code == 200
        made_up = ("y" if a[0] == "x" else "x") + a[1:]  # differs from a in its first character
        assert _act(client, url, made_up, "6")[0] == 404
        _, out = _act(client, url, b, "6")  # b's game: 3 is the secret, so "Lower."
        assert out["output"]["blocks"][0]["text"].strip() == "Lower."
        _, out = _act(client, url, a, "6")  # a's game is untouched by b's call
        assert out["ok"] and out["output"]["finished"]
        assert _post(client, url, "/delete", b).status_code == 200
        assert _act(client, url, b, "3")[0] == 404


def test_bad_requests_name_the_field_and_bodies_are_bounded():
    """An unknown split or index, a task_spec without a prompt, an input without text: each
    a refusal naming the field; a body past the byte bound: 413 unread; depth past the
    bound: 400 (the value bound on every ORS route: test_routes_guarded)."""
    with serving(app(token="or-token", max_held_bytes=4096)) as url, \
            httpx.Client(timeout=60) as client:
        sid = _sid(client, url)
        reply = _post(client, url, "/create", sid, {"split": "nope", "index": 0})
        assert reply.status_code == 400 and reply.json()["field"] == "split"
        reply = _post(client, url, "/create", sid, {"split": "train", "index": 2})
        assert reply.status_code == 400 and reply.json()["field"] == "index"
        reply = _post(client, url, "/create", sid, {"task_spec": {"reference": 1}})
        assert reply.status_code == 422 and reply.json()["field"] == "sample"
        assert _post(client, url, "/create", sid, {"split": "test", "index": 0}).status_code \
            == 200
        reply = _post(client, url, "/call", sid, {"name": "act", "input": {"txt": "1"}})
        data = json.loads([x[6:] for x in reply.text.splitlines() if x.startswith("data: ")][-1])
        assert data == {"ok": False, "reason": "input_validation",
                        "error": data["error"]} and "action" in data["error"]
        big = _post(client, url, "/call", sid, {"name": "act", "input": {"text": "x" * 5000}})
        assert big.status_code == 413
        deep = client.post(url + "/call", content=b"[" * 100 + b"]" * 100,
                           headers={"X-API-Key": "or-token", "X-Session-ID": sid,
                                    "content-type": "application/json"})
        assert deep.status_code == 400


def test_sessions_are_bounded():
    """At most `max_episodes` sids: a new one forgets the oldest that holds no episode once
    it is older than the grace (`SESSION_GRACE_S`; a younger one is live: 503); with every
    sid holding a live episode, `/create_session` is a 503 with Retry-After; a finished
    episode whose client never deleted its session gives way. (One client, loopback, fills
    the table here: its share is set to the whole of it.)"""
    served = app(max_episodes=2, max_episodes_per_client=2)
    with serving(served) as url, httpx.Client(timeout=60) as client:
        first, second = _sid(client, url), _sid(client, url)
        assert _post(client, url, "/create_session").status_code == 503  # both are live
        sessions = served.state.ors_sessions
        now = sessions.clock()
        sessions.issued[first] -= 61.0  # first has waited past the grace without /create
        third = _sid(client, url)  # first (no episode, idle) gave way
        assert sessions.clock() >= now
        assert _post(client, url, "/create", first, {"split": "test", "index": 0},
                     token="").status_code == 404
        for sid in (second, third):
            assert _post(client, url, "/create", sid, {"split": "test", "index": 0}
                         ).status_code == 200
        full = _post(client, url, "/create_session")
        assert full.status_code == 503 and full.headers["retry-after"] == "1"
        assert _act(client, url, second, "6")[1]["output"]["finished"]  # never deleted
        fourth = _sid(client, url)  # second's finished episode gave way
        assert _act(client, url, second, "6")[0] == 404
        assert _post(client, url, "/create", fourth, {"split": "test", "index": 0}
                     ).status_code == 200
        _, out = _act(client, url, third, "1")  # the live one was kept
        assert out["output"]["blocks"][0]["text"].strip() == "Higher."
