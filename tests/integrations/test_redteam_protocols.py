"""Red team, round 6: the connection caps (integrations/_http.py) and the protocol routes
added for issue #38 (NeMo Gym `/seed_session` and `/verify`, slime `/slime/reward`, ROLL's
submit and poll, OpenEnv's `/ws` and `/schema`), and the gold column `rewards score` reads
without `--map` (rewards/io.py `REFERENCE_COLUMNS`). Servers run for real on this machine
(uvicorn with `integrations._http.uvicorn_options`); two clients are told apart by the
address they come from (127.0.0.1 is "loopback", this machine's other address another
client). Attacks that held are probes; a hole still open is a strict xfail naming it."""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
uvicorn = pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
websockets_client = pytest.importorskip("websockets.sync.client")

from integrations import env_server, roll, server
from integrations._http import ConnectionCaps, client_key, uvicorn_options
from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import EnvConfig
from rewards.options import load_options

CONFIG = {"domains": {"math": {"rewards": ["math"]}}}
TOKEN = "rt-Token_6.~"


def reward_app(**options: Any) -> Any:
    return server.create_app(parse_config(CONFIG), **options)


def env_app(**options: Any) -> Any:
    config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 3}, where="t")
    return env_server.create_env_app(config, build_reward(parse_config(CONFIG)), **options)


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _other_address() -> str | None:
    """An address of this machine that is not loopback (a second client), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: picks the outgoing address
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if client_key((address, 0)) == "loopback" else address


def _ws_upgrade(host: str, port: int, *, rcvbuf: int | None = None) -> socket.socket | None:
    """A raw WebSocket upgrade of `/ws`: the socket once the server answered 101 (its
    response head read), or None where it refused (any other status, or the connection
    closed unread). Raw, since the websockets sync client races its own reader when the
    server closes a connection during the handshake: an AssertionError inside the library
    (websockets/sync/connection.py `close_deadline`), not the refusal it reports."""
    sock = socket.create_connection((host, port), timeout=10)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    head = b""
    try:
        sock.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                     b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     b"Sec-WebSocket-Version: 13\r\n\r\n")
        while b"\r\n\r\n" not in head and (chunk := sock.recv(4096)):
            head += chunk
    except OSError:
        head = b""
    if head.startswith(b"HTTP/1.1 101 "):
        return sock
    sock.close()
    return None


@contextmanager
def serving(app: Any, *, caps: ConnectionCaps | None = None, host: str = "127.0.0.1",
            **overrides: Any) -> Iterator[int]:
    """`app` served by uvicorn as `run_server` serves it (`uvicorn_options`, WebSockets on),
    on `host`; yields the port."""
    port = _free_port(host)
    options = {**uvicorn_options(app.state.bounds, caps=caps, websockets=True), **overrides}
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            lifespan="on", **options)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not srv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        srv.should_exit = True
        thread.join(timeout=30)


def _http_routes(app: Any) -> list[tuple[str, str]]:
    """(method, path) of every HTTP route the app answers (FastAPI's docs routes too)."""
    out = []
    for route in app.routes:
        for method in sorted(getattr(route, "methods", None) or ()):
            if method != "HEAD":
                out.append((method, route.path))
    return out


# --- identity: the token on every route -----------------------------------------------------

@pytest.mark.parametrize("make", [reward_app, env_app], ids=["rewards serve", "env server"])
def test_every_route_the_app_has_refuses_a_request_without_the_token(make: Any) -> None:
    """Every route the app really has (read from the app, not from its ROUTES list, so a
    route added later is covered): /health, /schema, /state, /docs and /openapi.json too.
    Without the token or with another: 401; with it in either documented form: never 401."""
    app = make(token=TOKEN)
    routes = _http_routes(app)
    assert {p for _, p in routes} >= ({"/schema", "/state", "/reset"} if make is env_app
                                      else {"/verify", "/roll/task_result", "/slime/reward"})
    with serving(app) as port:
        base = f"http://127.0.0.1:{port}"
        for method, path in routes:
            for headers in ({}, {"Authorization": "Bearer other"},
                            {"Authorization": f"Basic {TOKEN}"}):
                reply = httpx.request(method, base + path, headers=headers, json={}, timeout=30)
                assert reply.status_code == 401, (method, path, headers, reply.text)
            for url, headers in ((base + path, {"Authorization": f"Bearer {TOKEN}"}),
                                 (f"{base}{path}?access_token={TOKEN}", {})):
                reply = httpx.request(method, url, headers=headers, json={}, timeout=30)
                assert reply.status_code != 401, (method, url, reply.text)


def test_the_websocket_refuses_a_connection_without_the_token() -> None:
    """/ws without the token, or with another, is closed (1008) before it is accepted; with
    it as `?access_token=` or a Bearer header (what a WebSocket client can send), it plays."""
    InvalidStatus = pytest.importorskip("websockets.exceptions").InvalidStatus
    ConnectionClosed = pytest.importorskip("websockets.exceptions").ConnectionClosed
    with serving(env_app(token=TOKEN)) as port:
        for url, headers in ((f"ws://127.0.0.1:{port}/ws", {}),
                             (f"ws://127.0.0.1:{port}/ws?access_token=nope", {}),
                             (f"ws://127.0.0.1:{port}/ws",
                              {"Authorization": "Bearer nope"})):
            with pytest.raises((InvalidStatus, ConnectionClosed)), \
                    websockets_client.connect(url, additional_headers=headers,
                                              open_timeout=10) as ws:
                ws.send(json.dumps({"type": "state", "data": {}}))
                ws.recv(timeout=10)
        for url, headers in ((f"ws://127.0.0.1:{port}/ws?access_token={TOKEN}", {}),
                             (f"ws://127.0.0.1:{port}/ws",
                              {"Authorization": f"Bearer {TOKEN}"})):
            with websockets_client.connect(url, additional_headers=headers,
                                           open_timeout=10) as ws:
                ws.send(json.dumps({"type": "state", "data": {}}))
                assert json.loads(ws.recv(timeout=10))["type"] == "state"


# --- heavy bodies on /verify ------------------------------------------------------------------

def _verify_body(**extra: Any) -> dict[str, Any]:
    return {"responses_create_params": {"input": "2+2?"},
            "response": {"output": [{"type": "message", "role": "assistant",
                                     "content": [{"type": "output_text",
                                                  "text": "\\boxed{4}"}]}]},
            "expected_answer": "4", **extra}


def _nested(depth: int) -> Any:
    """`depth` - 1 lists around a 0: `depth` levels counted as a body's field (the body's
    object is the first)."""
    value: Any = 0
    for _ in range(depth - 1):
        value = [value]
    return value


def test_verify_takes_64_deep_refuses_65_and_non_objects_without_a_500() -> None:
    """A body 64 deep (a nested extra field) is scored; 65 deep is a 400 before the route
    parses it; a JSON array, number, string or null is a 422 naming the body; a nested
    reference 60 deep is the row's data: it abstains (masked) or scores, never a 500."""
    with serving(reward_app()) as port:
        url = f"http://127.0.0.1:{port}/verify"
        ok = httpx.post(url, json=_verify_body(extra=_nested(64)), timeout=60)  # 1 + 63 lists
        assert ok.status_code == 200 and ok.json()["reward"] == 1.0, ok.text
        deep = httpx.post(url, json=_verify_body(extra=_nested(65)), timeout=60)
        assert deep.status_code == 400 and "nested deeper" in deep.text, deep.text
        for body in ([_verify_body()], 1, "x", None, True):
            reply = httpx.post(url, content=json.dumps(body), timeout=30,
                               headers={"content-type": "application/json"})
            assert reply.status_code == 422 and reply.json()["field"] == "body", reply.text
        nested_gold = httpx.post(url, json=_verify_body(expected_answer=_nested(60)),
                                 timeout=60)
        assert nested_gold.status_code == 200, nested_gold.text
        out = nested_gold.json()
        assert out["mask_sample"] is True or out["reward"] == 0.0, out


def test_verify_answers_with_its_own_reward_components_never_the_clients() -> None:
    """A request carrying 90,000 made-up `reward_components` (under the 100,000-value bound),
    its own `reward: 1.0` and `mask_sample: true`, with a wrong answer: the reply's reward,
    mask and components are the server's (0.0, False, {"math": 0.0}); 100,001 values are
    a 413 before parsing."""
    wrong = _verify_body(expected_answer="5", reward=1.0, mask_sample=True,
                         reward_components={f"c{i}": 1.0 for i in range(45_000)})
    with serving(reward_app()) as port:
        url = f"http://127.0.0.1:{port}/verify"
        reply = httpx.post(url, json=wrong, timeout=120)
        assert reply.status_code == 200, reply.text[:300]
        out = reply.json()
        assert (out["reward"], out["mask_sample"], out["reward_components"]) == \
            (0.0, False, {"math": 0.0})
        huge = _verify_body(reward_components={f"c{i}": 1 for i in range(50_001)})
        reply = httpx.post(url, json=huge, timeout=120)
        assert reply.status_code == 413, reply.text[:300]


def test_heavy_verify_echoes_leave_the_server_answering() -> None:
    """Four 14 MB /verify bodies of non-ASCII model text at once: NeMo Gym's reply echoes
    each request, and was rendered on the event loop (and, with every character escaped, 3x
    the request); now rendered off it, UTF-8 as sent. /health answers throughout (a
    generous bound: a stalled loop took whole seconds per body) and each reply is the
    request's size, not three times it."""
    text = "\u00e9" * (7 << 20)
    body = json.dumps(_verify_body(response={"output": [{"type": "message", "content": [
        {"type": "output_text", "text": text}]}]}), ensure_ascii=False).encode()
    with serving(reward_app()) as port:
        base = f"http://127.0.0.1:{port}"
        sizes: list[int] = []
        latencies: list[float] = []

        def send() -> None:
            reply = httpx.post(base + "/verify", content=body, timeout=300,
                               headers={"content-type": "application/json"})
            assert reply.status_code == 200
            sizes.append(len(reply.content))

        senders = [threading.Thread(target=send) for _ in range(4)]
        for sender in senders:
            sender.start()
        while any(sender.is_alive() for sender in senders):
            start = time.perf_counter()
            assert httpx.get(base + "/health", timeout=60).status_code == 200
            latencies.append(time.perf_counter() - start)
            time.sleep(0.02)
        for sender in senders:
            sender.join()
    assert len(sizes) == 4 and all(size < 1.1 * len(body) for size in sizes), sizes
    assert max(latencies) < 10.0, latencies


def test_one_clients_abstaining_rows_never_refuse_anothers() -> None:
    """40 /verify rows without a reference (all of the server's first rows abstain for a
    configuration cause: those requests get the 422 saying so) do not make the server refuse
    the good rows of other requests, on any route."""
    with serving(reward_app()) as port:
        base = f"http://127.0.0.1:{port}"
        for _ in range(40):
            last = httpx.post(base + "/verify", json=_verify_body(expected_answer=None),
                              timeout=30)
        assert last.status_code == 422 and "bad_reference:missing" in last.text
        assert httpx.post(base + "/verify", json=_verify_body(), timeout=30).json()[
            "reward"] == 1.0
        assert httpx.post(base + "/get_reward", json={"query": ["\\boxed{4}"],
                                                     "labels": ["4"]},
                          timeout=30).json()["rewards"] == [1.0]
        task = _submit(base, "\\boxed{4}", {"ground_truth": "4"})
        assert _poll(base, task["reward_request_id"])["reward_score"] == 1.0


# --- masks: abstentions masked, malformed output 0 -----------------------------------------

def _poll(base: str, task_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        out = httpx.request("GET", base + roll.RESULT_ROUTE,
                            json={"reward_request_id": task_id}, timeout=30).json()
        if out["errcode"] != roll.RUNNING:
            return out
        assert time.monotonic() < deadline
        time.sleep(0.02)


def _submit(base: str, response: str, info: Any,
            headers: dict[str, str] | None = None) -> dict[str, Any]:
    body = json.dumps({"prompt": "2+2?", "response": response, "reward_info": info})
    return httpx.post(base + roll.SUBMIT_ROUTE, timeout=30, content=body,
                      headers={"content-type": "application/json", **(headers or {})}).json()


def test_a_missing_reference_is_each_protocols_mask_never_a_zero() -> None:
    """No reference (absent, null, an empty mapping): NeMo Gym `mask_sample: true`, slime's
    detailed reply `abstained: true`, ROLL a null `reward_score`; a right answer is never
    scored against a missing gold."""
    with serving(reward_app()) as port:
        base = f"http://127.0.0.1:{port}"
        for body in (_verify_body(expected_answer=None),
                     {k: v for k, v in _verify_body().items() if k != "expected_answer"}):
            out = httpx.post(base + "/verify", json=body, timeout=30).json()
            assert out["mask_sample"] is True and out["reason"] != "ok", out
        for label in (None, {}, {"domain": "math"}):
            out = httpx.post(base + "/slime/reward", timeout=30, json={
                "prompt": "2+2?", "response": "\\boxed{4}", "label": label,
                "detail": True}).json()
            assert out["abstained"] is True, (label, out)
        for info in ({}, {"ground_truth": None}, None):
            task = _submit(base, "\\boxed{4}", info)
            assert task["errcode"] == roll.DONE, task
            assert _poll(base, task["reward_request_id"])["reward_score"] is None, info


def test_verify_reads_the_gold_by_the_one_rule_the_first_column_holding_a_value() -> None:
    """A /verify row with `expected_answer: null` (NeMo Gym's field, empty for this row) and
    the gold in `reference`: scored against it, as `rewards score` and every adapter read a
    row (the first gold column holding a value), not masked as missing; and a row whose
    every gold column is null is masked."""
    with serving(reward_app()) as port:
        url = f"http://127.0.0.1:{port}/verify"
        right = httpx.post(url, json=_verify_body(expected_answer=None, reference="4"),
                           timeout=30).json()
        assert (right["reward"], right["mask_sample"]) == (1.0, False), right
        wrong = httpx.post(url, json=_verify_body(expected_answer=None, answer="5"),
                           timeout=30).json()
        assert (wrong["reward"], wrong["mask_sample"]) == (0.0, False), wrong
        none = httpx.post(url, json=_verify_body(expected_answer=None, reference=None,
                                                 label=None), timeout=30).json()
        assert none["mask_sample"] is True, none


@pytest.mark.xfail(strict=True, reason="open (protocol): slime's plain remote_rm reply is a bare "
                   "number with no mask field, so an abstention (no reference) trains as the "
                   "abstain value 0.0; only --custom-rm-path integrations.slime.remote_reward "
                   "carries the mask (remove_sample)")
def test_slimes_plain_remote_reward_never_trains_an_abstention_as_zero() -> None:
    with serving(reward_app()) as port:
        reply = httpx.post(f"http://127.0.0.1:{port}/slime/reward", timeout=30, json={
            "prompt": "2+2?", "response": "\\boxed{4}", "label": None})
        assert reply.status_code != 200 or reply.json() != 0.0, reply.text


def test_malformed_model_output_scores_zero_on_every_protocol_never_a_mask() -> None:
    """The model's output is data: a reply of only a tool call or reasoning (no message
    text), a lone surrogate, control-token text, an empty reply: 0.0 and unmasked on
    /verify, slime and ROLL."""
    outputs = [[{"type": "function_call", "name": "f", "arguments": "{"}],
               [{"type": "reasoning", "summary": [{"type": "summary_text", "text": "4"}]}],
               []]
    texts = ["\\boxed{\ud800}", "<|im_end|>\\boxed{4", "", "\\boxed{" + "9" * 5000 + "}"]
    with serving(reward_app()) as port:
        base = f"http://127.0.0.1:{port}"
        bodies = [_verify_body(response={"output": o}) for o in outputs] + [
            _verify_body(response={"output": [{"type": "message", "content": [
                {"type": "output_text", "text": t}]}]}) for t in texts]
        for body in bodies:
            reply = httpx.post(base + "/verify", content=json.dumps(body), timeout=60,
                               headers={"content-type": "application/json"})
            assert reply.status_code == 200, reply.text[:300]
            out = reply.json()
            assert (out["reward"], out["mask_sample"]) == (0.0, False), out["reason"]
        for text in texts:
            out = httpx.post(base + "/slime/reward", timeout=60, content=json.dumps({
                "prompt": "2+2?", "response": text, "label": "4", "detail": True}),
                headers={"content-type": "application/json"}).json()
            assert (out["reward"], out["abstained"]) == (0.0, False), (text[:20], out)
            task = _submit(base, text, {"ground_truth": "4"})
            assert _poll(base, task["reward_request_id"])["reward_score"] == 0.0, text[:20]


# --- ROLL tasks: ids, reads, the cap ------------------------------------------------------

def test_roll_task_ids_cannot_be_guessed_and_a_result_is_read_once() -> None:
    """Ids are the server's (at least 128 random bits, none repeated); 200 guesses (made-up
    ids, prefixes of a real one, a non-string, a list) read nothing and leave the real
    result unread; a result is read once."""
    with serving(reward_app()) as port:
        base = f"http://127.0.0.1:{port}"
        ids = [_submit(base, "\\boxed{4}", {"ground_truth": "4"})["reward_request_id"]
               for _ in range(20)]
        assert len(set(ids)) == 20 and all(len(i) >= 22 for i in ids)
        real = ids[0]
        time.sleep(0.5)
        guesses: list[Any] = [secrets.token_urlsafe(18) for _ in range(190)]
        guesses += [real[:-1], real[:10], real.upper() if real.upper() != real else real + "A",
                    "", 0, None, [real], {"id": real}, real + " ", " " + real]
        for guess in guesses:
            out = httpx.request("GET", base + roll.RESULT_ROUTE, timeout=30,
                                json={"reward_request_id": guess}).json()
            assert out["errcode"] == roll.UNKNOWN, (guess, out)
        assert _poll(base, real)["reward_score"] == 1.0
        assert _poll(base, real)["errcode"] == roll.UNKNOWN


def test_one_client_cannot_take_every_roll_task_place() -> None:
    """A client at another address that submits twice `max_tasks` tasks and never reads
    them holds at most its share (half): its own finished ones make room for its next; the
    loopback client still gets a place and its score."""
    other = _other_address()
    if other is None:
        pytest.skip("this machine has no address besides loopback")
    with serving(reward_app(max_tasks=4), host="0.0.0.0") as port:
        hoarder = f"http://{other}:{port}"
        for _ in range(8):  # submitted, scored at once, never read
            _submit(hoarder, "\\boxed{4}", {"ground_truth": "4"})
        time.sleep(1.0)
        honest = f"http://127.0.0.1:{port}"
        task = _submit(honest, "\\boxed{4}", {"ground_truth": "4"})
        assert task["errcode"] == roll.DONE, task
        assert _poll(honest, task["reward_request_id"])["reward_score"] == 1.0


# --- episodes and WebSocket sessions ----------------------------------------------------------

SAMPLE = {"prompt": "Guess a number from 1 to 10.", "reference": 6}


def test_rewards_serve_never_upgrades_a_connection_to_a_websocket() -> None:
    """Only the environment server has /ws: on `rewards serve` (served as `run_server` serves
    it, WebSockets off) an upgrade request to any route is answered as plain HTTP, never 101,
    so no connection there leaves the header deadline and the caps' room-making."""
    app = reward_app()
    port = _free_port("127.0.0.1")
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            access_log=False, lifespan="on",
                            **uvicorn_options(app.state.bounds, websockets=False))
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not srv.started:
            assert thread.is_alive() and time.monotonic() < deadline
            time.sleep(0.02)
        for path in ("/ws", "/verify", "/health"):
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.settimeout(10)
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                             "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="
                             "\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
                head = sock.recv(4096)
            assert head.startswith(b"HTTP/1.1 ") and not head.startswith(b"HTTP/1.1 101"), head
    finally:
        srv.should_exit = True
        thread.join(timeout=30)


def test_a_websocket_session_is_not_reachable_from_another_client() -> None:
    """A /reset naming the WebSocket session's episode id is a 422 (the server picks ids);
    another connection's reset, state or close never touch it; the session steps on."""
    with serving(env_app(max_episodes=8)) as port, \
            websockets_client.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as a, \
            websockets_client.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as b:
        a.send(json.dumps({"type": "reset", "data": {"sample": SAMPLE}}))
        mine = json.loads(a.recv(timeout=30))["data"]["observation"]["episode_id"]
        taken = httpx.post(f"http://127.0.0.1:{port}/reset", timeout=30,
                           json={"episode_id": mine, "sample": SAMPLE})
        assert taken.status_code == 422 and taken.json()["field"] == "episode_id"
        for message in ({"type": "reset", "data": {"sample": SAMPLE,
                                                   "episode_id": mine}},
                        {"type": "state", "data": {"episode_id": mine}},
                        {"type": "step", "data": {"text": "6", "episode_id": mine}}):
            b.send(json.dumps(message))
            reply = json.loads(b.recv(timeout=30))
            assert mine not in json.dumps(reply), reply
        b.send(json.dumps({"type": "close", "data": {}}))
        a.send(json.dumps({"type": "step", "data": {"text": "4"}}))
        out = json.loads(a.recv(timeout=30))
        assert out["type"] == "observation" and out["data"]["observation"][
            "episode_id"] == mine and not out["data"]["done"], out


def test_a_websocket_reset_mid_episode_replaces_its_own_on_a_full_server() -> None:
    """A reset replaces the connection's own episode (the documented rule), also when the
    server is full with that very episode: a second reset mid-episode is an observation,
    not CAPACITY_REACHED; the first episode is gone."""
    with serving(env_app(max_episodes=1)) as port, \
            websockets_client.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "reset", "data": {"sample": SAMPLE}}))
        first = json.loads(ws.recv(timeout=30))["data"]["observation"]["episode_id"]
        ws.send(json.dumps({"type": "step", "data": {"text": "4"}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "observation"
        ws.send(json.dumps({"type": "reset", "data": {"sample": SAMPLE}}))
        again = json.loads(ws.recv(timeout=30))
        assert again["type"] == "observation", again
        assert again["data"]["observation"]["episode_id"] != first


def test_a_websocket_session_that_only_reads_its_state_keeps_its_episode() -> None:
    """A connection that is not silent (it asks for its state) keeps its episode: another
    client's reset on a full server is refused, never given the session's episode because
    no step came within `idle_s`; the session then steps on."""
    with serving(env_app(max_episodes=1, idle_s=1.0)) as port, \
            websockets_client.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "reset", "data": {"sample": SAMPLE}}))
        mine = json.loads(ws.recv(timeout=30))["data"]["observation"]["episode_id"]
        for _ in range(8):  # 2.4 s of state reads, never silent for idle_s
            time.sleep(0.3)
            ws.send(json.dumps({"type": "state", "data": {}}))
            assert json.loads(ws.recv(timeout=30))["data"]["episode_id"] == mine
        other = httpx.post(f"http://127.0.0.1:{port}/reset", json={"sample": SAMPLE},
                           timeout=30)
        assert other.status_code == 503, other.text
        ws.send(json.dumps({"type": "step", "data": {"text": "4"}}))
        out = json.loads(ws.recv(timeout=30))
        assert out["type"] == "observation", out


def test_a_silent_websocket_gives_back_its_connection_place() -> None:
    """An upgraded connection that sends nothing (its pings answered by the client library)
    is closed once silent for `idle_s`, and its place in the connection caps and among the
    sockets comes back: meanwhile (caps 1) a new HTTP connection is refused, never
    the live session cut; after, it is served."""
    app = env_app(max_episodes=1, idle_s=2.0)
    with serving(app, caps=ConnectionCaps(total=1, per_client=1)) as port:
        closed = pytest.importorskip("websockets.exceptions").ConnectionClosed
        with websockets_client.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
            refused = httpx.get(f"http://127.0.0.1:{port}/health", timeout=10)
            assert refused.status_code == 503
            start = time.monotonic()
            with pytest.raises(closed):  # closed by the server: 1001 idle
                ws.recv(timeout=30)
            assert time.monotonic() - start < 25
        deadline = time.monotonic() + 10
        while (reply := httpx.get(f"http://127.0.0.1:{port}/health",
                                  timeout=10)).status_code == 503:
            assert time.monotonic() < deadline, "the WebSocket's place never came back"
            time.sleep(0.1)
        assert reply.status_code == 200


def test_a_trickled_websocket_frame_is_closed_by_the_ping_deadline() -> None:
    """A client that starts a frame (declaring 60 KB) and trickles a byte a second cannot
    answer pings: with the ping deadlines set short here (the defaults are 20 s + 20 s) its
    connection closes, and the socket's place comes back."""
    app = env_app(max_episodes=1, idle_s=600.0)
    with serving(app, ws_ping_interval=1.0, ws_ping_timeout=1.0) as port:
        sock = _ws_upgrade("127.0.0.1", port)
        assert sock is not None, "refused"
        sock.sendall(bytes([0x81, 0xFE]) + (60_000).to_bytes(2, "big") + b"\0\0\0\0")
        start, closed = time.monotonic(), False
        sock.settimeout(1.0)
        while time.monotonic() - start < 20:
            try:
                if sock.recv(4096) == b"":
                    closed = True
                    break
                sock.sendall(b"x")
            except TimeoutError:
                try:
                    sock.sendall(b"x")
                except OSError:
                    closed = True
                    break
            except OSError:
                closed = True
                break
        sock.close()
        assert closed, "a trickled frame held its connection"
        deadline = time.monotonic() + 15
        while True:  # the server's side of the close may lag the client's by a moment
            with websockets_client.connect(f"ws://127.0.0.1:{port}/ws",
                                           open_timeout=10) as ws:
                ws.send(json.dumps({"type": "reset", "data": {"sample": SAMPLE}}))
                out = json.loads(ws.recv(timeout=30))
            if out["type"] == "observation" or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert out["type"] == "observation", out


def _ws_frame(text: bytes) -> bytes:
    """One masked client text frame (mask 0: the payload as is)."""
    head = bytes([0x81])
    if len(text) < 126:
        head += bytes([0x80 | len(text)])
    else:
        head += bytes([0x80 | 126]) + len(text).to_bytes(2, "big")
    return head + b"\0\0\0\0" + text


def test_a_websocket_client_that_never_reads_is_closed_and_gives_back_its_place() -> None:
    """A client that sends 60,000 state requests and reads none of the replies blocks the
    server's sends once the socket buffers fill; it cannot answer pings, so (ping deadlines
    set short here) the connection closes and the socket's place (max_episodes 1) comes
    back to the next client."""
    app = env_app(max_episodes=1, idle_s=600.0)
    with serving(app, ws_ping_interval=1.0, ws_ping_timeout=1.0) as port:
        sock = _ws_upgrade("127.0.0.1", port, rcvbuf=4096)
        assert sock is not None, "refused"
        frame = _ws_frame(json.dumps({"type": "state", "data": {}}).encode())
        sock.settimeout(20)
        try:
            for _ in range(60):
                sock.sendall(frame * 1000)
        except OSError:
            pass  # the server closed it meanwhile
        deadline = time.monotonic() + 30
        while True:
            with websockets_client.connect(f"ws://127.0.0.1:{port}/ws",
                                           open_timeout=10) as ws:
                ws.send(json.dumps({"type": "reset", "data": {"sample": SAMPLE}}))
                out = json.loads(ws.recv(timeout=30))
            if out["type"] == "observation" or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        sock.close()
        assert out["type"] == "observation", out


def test_one_client_cannot_take_every_episode_place() -> None:
    """A client at another address that resets more episodes than the server holds and keeps
    them live holds at most its share (half): its resets past it get 503, the loopback
    client's reset a place."""
    other = _other_address()
    if other is None:
        pytest.skip("this machine has no address besides loopback")
    with serving(env_app(max_episodes=4), host="0.0.0.0") as port:
        for _ in range(6):
            httpx.post(f"http://{other}:{port}/reset", json={"sample": SAMPLE}, timeout=30)
        honest = httpx.post(f"http://127.0.0.1:{port}/reset", json={"sample": SAMPLE},
                            timeout=30)
        assert honest.status_code == 200, honest.text


def test_one_client_cannot_take_every_websocket_or_ors_place() -> None:
    """The same share over OpenEnv's /ws (a connection each) and ORS (a sid each, an episode
    each): past its share the other address gets CAPACITY_REACHED and 503; the loopback
    client still opens a session, resets and creates an episode."""
    other = _other_address()
    if other is None:
        pytest.skip("this machine has no address besides loopback")
    with serving(env_app(max_episodes=4), host="0.0.0.0") as port, \
            contextlib.ExitStack() as stack:
        def reset_over_ws(host: str) -> dict[str, Any]:
            ws = stack.enter_context(websockets_client.connect(f"ws://{host}:{port}/ws",
                                                               open_timeout=10))
            ws.send(json.dumps({"type": "reset", "data": {"sample": SAMPLE}}))
            return dict(json.loads(ws.recv(timeout=30)))

        held = [reset_over_ws(other) for _ in range(4)]
        assert [r["type"] for r in held] == ["observation", "observation", "error", "error"]
        assert {r["data"]["code"] for r in held[2:]} == {"CAPACITY_REACHED"}, held
        assert reset_over_ws("127.0.0.1")["type"] == "observation"

        def session(host: str) -> httpx.Response:
            return httpx.post(f"http://{host}:{port}/create_session", json={}, timeout=30)

        def create(host: str, reply: httpx.Response) -> int:
            sid = reply.text.split("event: task_id\ndata: ", 1)[1].split("\n", 1)[0]
            return httpx.post(f"http://{host}:{port}/create", json={"task_spec": SAMPLE},
                              headers={"X-Session-ID": sid}, timeout=30).status_code

        # the other address holds its two episodes (over /ws): a sid is its third, refused
        first = session(other)
        assert first.status_code == 200 and create(other, first) == 503
        honest = session("127.0.0.1")
        assert honest.status_code == 200 and create("127.0.0.1", honest) == 200


def test_a_forwarded_for_header_names_no_other_client() -> None:
    """The client a table counts is the socket's peer: uvicorn runs with its proxy headers
    off, so a loopback process sending `X-Forwarded-For` (which uvicorn trusts from
    127.0.0.1 by default) stays the one loopback client and gets its share, no more."""
    assert uvicorn_options(env_app().state.bounds)["proxy_headers"] is False
    with serving(env_app(max_episodes=4)) as port:
        codes = [httpx.post(f"http://127.0.0.1:{port}/reset", json={"sample": SAMPLE},
                            headers={"X-Forwarded-For": f"192.0.2.{i}",
                                     "X-Real-IP": f"192.0.2.{i}"}, timeout=30).status_code
                 for i in range(1, 5)]
        assert codes == [200, 200, 503, 503]
    app = reward_app(max_tasks=4)
    with serving(app) as port:
        for i in range(1, 4):
            _submit(f"http://127.0.0.1:{port}", "\\boxed{4}", {"ground_truth": "4"},
                    headers={"X-Forwarded-For": f"192.0.2.{i}"})
        assert app.state.roll_tasks.shares.count == {"loopback": 2}


def test_one_client_cannot_take_every_connection_place() -> None:
    """Caps 4 in all, 2 per client: a client at another address holding WebSockets and idle
    connections past its share never takes the loopback client's places."""
    other = _other_address()
    if other is None:
        pytest.skip("this machine has no address besides loopback")
    with serving(env_app(max_episodes=8), host="0.0.0.0",
                 caps=ConnectionCaps(total=4, per_client=2)) as port, \
            contextlib.ExitStack() as stack:
        held = 0
        for _ in range(4):  # past its share: a 503, or closed unread
            if (sock := _ws_upgrade(other, port)) is not None:
                stack.callback(sock.close)
                held += 1
        assert held == 2
        with httpx.Client() as honest:
            for _ in range(3):
                assert honest.get(f"http://127.0.0.1:{port}/health").status_code == 200
        with websockets_client.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as mine:
            mine.send(json.dumps({"type": "reset", "data": {"sample": SAMPLE}}))
            assert json.loads(mine.recv(timeout=30))["type"] == "observation"


# --- the gold column of `rewards score` ------------------------------------------------------

def _score(tmp_path: Path, rows: list[dict[str, Any]], *extra: str) -> list[dict[str, Any]]:
    data, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    config = tmp_path / "c.yaml"
    config.write_text("domains:\n  default:\n    rewards: [math]\n")
    done = subprocess.run([sys.executable, "-m", "rewards", "score", str(data), "--config",
                           str(config), "--out", str(out), *extra], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode in (0, 3), done.stderr
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_a_reference_column_is_the_gold_even_beside_an_answer_column(tmp_path: Path) -> None:
    """A rollout file whose `answer` column is the model's extracted answer and whose
    `reference` column is the gold: the wrong answer scored 1.0 (the `answer` column came
    first in REFERENCE_COLUMNS). The column named as the field itself is the gold."""
    rows = [{"prompt": "2+2?", "completion": "\\boxed{5}", "answer": "5", "reference": "4"},
            {"prompt": "2+2?", "completion": "\\boxed{4}", "answer": "4", "reference": "4"}]
    assert [r["score"] for r in _score(tmp_path, rows)] == [0.0, 1.0]


def test_a_boolean_correctness_label_abstains_never_an_answer(tmp_path: Path) -> None:
    """`label: true/false` (a correctness flag, not a gold) is an unparseable reference:
    masked, never matched against "True"."""
    rows = [{"prompt": "2+2?", "completion": "\\boxed{True}", "label": True},
            {"prompt": "2+2?", "completion": "\\boxed{False}", "label": False}]
    for row in _score(tmp_path, rows):
        assert row["score"] is None and row["cause"].startswith("bad_reference"), row


def test_several_gold_columns_that_disagree_are_not_read_silently(tmp_path: Path) -> None:
    rows = [{"prompt": "2+2?", "completion": "\\boxed{5}", "answer": "5", "label": "4"}]
    out = _score(tmp_path, rows)
    assert out[0]["score"] != 1.0
