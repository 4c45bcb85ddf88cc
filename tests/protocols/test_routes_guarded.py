"""Every route of every protocol goes through the one guard (`integrations._http.guard`): the
token before the body is read, then the body bounds (bytes, values, depth) before the route
parses anything, and a body that is not JSON answered in the route's own shape. Checked on
each route in `ROUTES`, so a route added later is covered or this test names it."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from integrations import env_server, server
from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import EnvConfig
from rewards.options import load_options

CONFIG = {"domains": {"math": {"rewards": ["math"]}}}
LIMIT = 4096


def reward_app(token=None):
    return server.create_app(parse_config(CONFIG), token=token, max_held_bytes=LIMIT)


def env_app(token=None):
    config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 3}, where="t")
    return env_server.create_env_app(config, build_reward(parse_config(CONFIG)), token=token,
                                     max_held_bytes=LIMIT)


def routes(module):
    """(method, path) of the module's HTTP routes that take a body (its `ROUTES`)."""
    out = []
    for route in module.ROUTES:
        method, path = route.split(" ", 1)
        if method in ("POST", "GET") and path not in ("/health", "/schema", "/state", "/tools",
                                                     "/prompt", "/splits"):  # no body
            out.append((method, path))
    return out


CASES = [(reward_app, m, p) for m, p in routes(server)] + \
        [(env_app, m, p) for m, p in routes(env_server)]


def test_every_protocol_route_is_listed():
    names = {p for _, _, p in CASES}
    assert {"/get_reward", "/seed_session", "/verify", "/slime/reward", "/roll/submit_task",
            "/roll/task_result", "/reset", "/step"} <= names


@pytest.mark.parametrize(("make", "method", "path"), CASES,
                         ids=[f"{m} {p}" for _, m, p in CASES])
def test_the_token_then_the_body_bounds_hold_on_every_route(make, method, path):
    guarded = TestClient(make(token="route-token"))
    body = json.dumps({"prompt": "q"}).encode()
    for headers in ({}, {"Authorization": "Bearer other"}):
        refused = guarded.request(method, path, content=body,
                                  headers={**headers, "content-type": "application/json"})
        assert refused.status_code == 401, (path, refused.text)
    client = TestClient(make())
    send = lambda raw: client.request(method, path, content=raw,
                                      headers={"content-type": "application/json"})
    assert send(b"x" * (LIMIT + 1)).status_code == 413  # bytes: by Content-Length, unread
    deep = send(b"[" * 100 + b"]" * 100)
    assert deep.status_code == 400, (path, deep.text)
    reply = send(b"{nope")  # not JSON: the route's own answer, naming the body
    assert reply.status_code in (400, 422), (path, reply.text)
    assert reply.json().get("field") == "body", (path, reply.text)


def test_the_value_bound_holds_on_every_route():
    """100,001 values in a body under the byte bound: 413 before parsing, on each route."""
    apps = {reward_app: server.create_app(parse_config(CONFIG)),
            env_app: env_server.create_env_app(
                load_options(EnvConfig, {"use": "number_guess"}, where="t"),
                build_reward(parse_config(CONFIG)))}
    raw = json.dumps({"pad": [0] * 100_001}).encode()
    for make, method, path in CASES:
        reply = TestClient(apps[make]).request(method, path, content=raw,
                                               headers={"content-type": "application/json"})
        assert reply.status_code == 413, (path, reply.text)
