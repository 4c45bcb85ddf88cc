"""`rewards serve` over real HTTP on 127.0.0.1: OpenRLHF's /get_reward protocol, /health,
micro-batching of concurrent one-rollout requests, 4xx naming the field, poison and broken
infrastructure, and the `reward_func` file form loaded the way OpenRLHF loads it."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from pathlib import Path

import pytest
from integration_helpers import Server, write_config  # type: ignore[import-not-found]

httpx = pytest.importorskip("httpx", reason="pip install -e '.[server]'")

ROLLOUTS = Path(__file__).parents[2] / "rewards" / "data" / "example_rollouts.jsonl"
CHATML_PROMPT = "<|im_start|>user\n{q}<|im_end|>\n<|im_start|>assistant\n"


def example_rows() -> list[dict]:
    rows = [json.loads(line) for line in ROLLOUTS.read_text().splitlines() if line.strip()]
    return [r for r in rows if r.get("domain") == "math"]


def as_openrlhf(row: dict) -> tuple[str, str, str]:
    """(query, prompt, label) as OpenRLHF sends them: the query is the decoded prompt +
    response with special tokens, ending in the EOS."""
    prompt = CHATML_PROMPT.format(q=row["prompt"])
    return prompt + row["completion"] + "<|im_end|><|endoftext|>", prompt, row["reference"]


def expected_value(row: dict) -> float:
    reason = row["meta"]["expected_reason"]
    return 1.0 if reason == "ok" else 0.0


def test_health(math_server: Server) -> None:
    health = httpx.get(f"{math_server.url}/health").json()
    assert health["status"] == "ok"
    assert health["domains"] == ["math"]
    assert health["batching"]["enabled"] is True
    assert len(health["config_hash"]) == 16


def test_get_reward_matches_labels_on_math_rollouts(math_server: Server) -> None:
    rows = [r for r in example_rows() if r["meta"]["expected_reason"] != "bad_reference"]
    queries, prompts, labels = zip(*(as_openrlhf(r) for r in rows))
    reply = httpx.post(f"{math_server.url}/get_reward", timeout=60,
                       json={"query": queries, "prompts": prompts, "labels": labels}).json()
    assert reply["rewards"] == [expected_value(r) for r in rows]
    assert reply["scores"] == reply["rewards"]
    assert reply["reasons"] == [r["meta"]["expected_reason"] for r in rows]
    # extra_logs: one numeric list per key, as OpenRLHF turns each into a tensor
    assert set(reply["extra_logs"]) == {"reward/math", "reward/brevity", "reward/abstained"}
    assert all(len(v) == len(rows) for v in reply["extra_logs"].values())
    assert reply["extra_logs"]["reward/math"] == reply["rewards"]
    # the logged-only brevity part saw the response without prompt and special tokens
    completion = rows[0]["completion"]
    assert reply["parts"][0]["brevity"] == pytest.approx(max(0.0, 1 - len(completion) / 100))


def test_abstention_is_reported_not_silently_zero(math_server: Server) -> None:
    query, prompt, _ = as_openrlhf({"prompt": "What is 2+2?", "completion": "\\boxed{4}",
                                    "reference": None})
    reply = httpx.post(f"{math_server.url}/get_reward",
                       json={"query": [query], "prompts": [prompt], "labels": ["\\frac{"]}).json()
    assert reply["reasons"] == ["bad_reference"]
    assert reply["rewards"] == [0.0]
    assert reply["extra_logs"]["reward/abstained"] == [1.0]


@pytest.mark.parametrize("body, status, field", [
    ({"prompts": ["p"], "labels": ["1"]}, 422, "query"),
    ({"query": "not json list", "labels": [1, 2]}, 422, "labels"),
    ({"query": [1]}, 422, "query[0]"),
    ({"query": ["a", "b"], "prompts": ["p"]}, 422, "prompts"),
    ({"query": ["a"], "labels": "7"}, 422, "labels"),
    ({"query": ["a"], "domains": [3]}, 422, "domains[0]"),
    ([1, 2], 422, "body"),
])
def test_bad_requests_name_the_field(math_server: Server, body: object, status: int,
                                     field: str) -> None:
    reply = httpx.post(f"{math_server.url}/get_reward", json=body)
    assert reply.status_code == status
    assert reply.json()["field"] == field
    assert field.split("[")[0] in reply.json()["detail"]


def test_body_that_is_not_json_is_a_400(math_server: Server) -> None:
    reply = httpx.post(f"{math_server.url}/get_reward", content=b"{query: nope",
                       headers={"content-type": "application/json"})
    assert reply.status_code == 400
    assert reply.json()["field"] == "body"


async def _openrlhf_client(url: str, query: str, prompt: str, label: str) -> dict:
    """What OpenRLHF's SingleTurnAgentExecutor._fetch_rewards_via_http does for one rollout:
    aiohttp, a fresh session, a one-item payload, raise_for_status, response.json()."""
    import aiohttp

    payload = {"query": [query], "prompts": [prompt], "labels": [label]}
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=180)) as session, \
            session.post(url, json=payload) as response:
        response.raise_for_status()
        return await response.json()


def test_concurrent_single_rollout_requests_are_micro_batched(math_server: Server) -> None:
    pytest.importorskip("aiohttp", reason="OpenRLHF's client uses aiohttp")
    rows = [r for r in example_rows() if r["meta"]["expected_reason"] != "bad_reference"]
    rows = (rows * 4)[:48]
    before = httpx.get(f"{math_server.url}/health").json()["stats"]

    async def main() -> list[dict]:
        return await asyncio.gather(*(
            _openrlhf_client(f"{math_server.url}/get_reward", *as_openrlhf(r)) for r in rows))

    replies = asyncio.run(main())
    # each reply is the one rollout's, in OpenRLHF's shape: rewards_info_list[0]["rewards"]
    assert [reply["rewards"] for reply in replies] == [[expected_value(r)] for r in rows]
    after = httpx.get(f"{math_server.url}/health").json()["stats"]
    requests = after["requests"] - before["requests"]
    batches = after["batches"] - before["batches"]
    assert requests == len(rows)
    assert batches < requests / 2, f"{requests} requests scored in {batches} batches"
    assert after["largest_batch"] > 1


def test_no_batching_scores_each_request_alone(math_config: Path) -> None:
    server = Server(math_config, "--no-batching")
    try:
        async def main() -> list[httpx.Response]:
            async with httpx.AsyncClient(timeout=60) as client:
                return await asyncio.gather(*(
                    client.post(f"{server.url}/get_reward",
                                json={"query": [f"\\boxed{{{i}}}"], "labels": [str(i)]})
                    for i in range(12)))

        replies = asyncio.run(main())
        assert [r.json()["rewards"] for r in replies] == [[1.0]] * 12
        health = httpx.get(f"{server.url}/health").json()
        assert health["batching"]["enabled"] is False
        assert health["stats"]["batches"] == health["stats"]["requests"] == 12
    finally:
        server.stop()


def test_poison_request_fails_alone_and_broken_infrastructure_is_503(tmp_path: Path) -> None:
    config = write_config(tmp_path / "poison.yaml", """
domains:
  default: {rewards: [{use: "integration_rewards:explode_on_boom", name: boom}]}
  broken: {rewards: [{use: "integration_rewards:engine_down", name: down}]}
""")
    server = Server(config, "--max-wait-ms", "50")
    try:
        async def main() -> list[httpx.Response]:
            async with httpx.AsyncClient(timeout=30) as client:
                texts = ["fine", "BOOM", "also fine", "fine again"]
                return await asyncio.gather(*(
                    client.post(f"{server.url}/get_reward", json={"query": [t]}) for t in texts))

        replies = asyncio.run(main())
        assert [r.status_code for r in replies] == [200, 500, 200, 200]
        assert "poison sample" in replies[1].json()["detail"]
        assert replies[0].json()["rewards"] == [1.0]
        down = httpx.post(f"{server.url}/get_reward",
                          json={"query": ["x"], "domains": ["broken"]})
        assert down.status_code == 503
        assert "EngineError" in down.json()["detail"]
        assert httpx.get(f"{server.url}/health").status_code == 200  # still serving
    finally:
        server.stop()


def test_group_normalization_stays_within_each_request(tmp_path: Path) -> None:
    config = write_config(tmp_path / "group.yaml", """
domains:
  default: {rewards: [{use: "integration_rewards:exact", name: exact}]}
normalize: group
""")
    server = Server(config, "--max-wait-ms", "50")
    try:
        async def main() -> list[dict]:
            async with httpx.AsyncClient(timeout=30) as client:
                bodies = [{"query": ["p1 a", "p1 b"], "prompts": ["p1 ", "p1 "],
                           "labels": ["a", "x"]},
                          {"query": ["p2 a"], "prompts": ["p2 "], "labels": ["a"]}]
                replies = await asyncio.gather(*(
                    client.post(f"{server.url}/get_reward", json=b) for b in bodies))
                return [r.json() for r in replies]

        two, one = asyncio.run(main())
        # (1 - 0.5) / (0.5 + 1e-4) and its negative; a lone rollout's advantage is 0
        assert two["rewards"] == pytest.approx([0.5 / 0.5001, -0.5 / 0.5001])
        assert two["scores"] == [1.0, 0.0]  # raw values, for OpenRLHF's dynamic filtering
        assert one["rewards"] == [0.0]
    finally:
        server.stop()


def test_reward_func_file_form_loaded_like_openrlhf(math_config: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenRLHF loads `--reward.remote_url *.py` with spec_from_file_location("reward_func",
    path) and calls `reward_func(queries, prompts, labels)` in a thread."""
    import integrations.openrlhf as module

    monkeypatch.setenv("REWARDS_CONFIG", str(math_config))
    spec = importlib.util.spec_from_file_location("reward_func", module.__file__)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    rows = example_rows()[:4]
    queries, prompts, labels = zip(*(as_openrlhf(r) for r in rows))
    result = asyncio.run(asyncio.to_thread(loaded.reward_func, list(queries), list(prompts),
                                           list(labels)))
    torch = pytest.importorskip("torch")
    assert isinstance(result["rewards"], torch.Tensor)
    assert result["rewards"].tolist() == [expected_value(r) for r in rows]
    assert set(result["extra_logs"]) == {"reward/math", "reward/brevity", "reward/abstained"}


def test_a_token_guards_the_reward_server(math_config: Path) -> None:
    """`rewards serve --token`: without the token, or with another, every endpoint is 401
    (nothing scored, no config or stats read); with it (Bearer header, or `access_token` in
    the URL for a client that sets no header, like OpenRLHF's) requests are scored."""
    from integration_helpers import ServerProcess  # type: ignore[import-not-found]

    token = "reward-token-0123"
    guarded = ServerProcess(["serve", "--config", str(math_config), "--token", token],
                            log_dir=math_config.parent,
                            ready_path=f"/health?access_token={token}")
    try:
        started = guarded.output()  # the start-up line: where, routes, the token, the bounds
        from integrations.server import ROUTES

        routes = ", ".join(ROUTES)  # OpenRLHF, NeMo Gym, slime, ROLL, /health
        assert f"rewards serve: serving {guarded.url} ({routes}); " \
               "token required" in started and "64 MiB held at once" in started, started
        query, prompt, label = as_openrlhf(example_rows()[0])
        body = {"query": [query], "prompts": [prompt], "labels": [label]}
        url = f"{guarded.url}/get_reward"
        for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": token},
                        {"Authorization": f"Bearer {token[:-1]}"}):
            reply = httpx.post(url, json=body, headers=headers, timeout=60)
            assert reply.status_code == 401, (headers, reply.text)
        assert httpx.get(f"{guarded.url}/health").status_code == 401
        for headers, query_string in (({"Authorization": f"Bearer {token}"}, ""),
                                      ({}, f"?access_token={token}")):
            reply = httpx.post(url + query_string, json=body, headers=headers, timeout=60)
            assert reply.status_code == 200, reply.text
            assert reply.json()["rewards"] == [expected_value(example_rows()[0])]
    finally:
        guarded.stop()


class _HoldBig:
    """A reward that scores a completion by its length, holding every `big...` completion
    until `release` is set (so its request stays in the server, body held)."""

    name = "hold_big"

    def __init__(self) -> None:
        import threading

        self.release = threading.Event()

    def score(self, samples):  # type: ignore[no-untyped-def]
        from rewards.types import Score

        if any(s.completion.startswith("big") for s in samples):
            self.release.wait(60)
        return [Score(float(len(s.completion))) for s in samples]


def test_held_request_bodies_are_bounded_and_a_small_request_still_scores() -> None:
    """`rewards serve` holds at most `max_held_bytes` of request bodies at once, counted
    here from outside: the bytes the server has read of requests it has not answered. Five
    concurrent 10 kB requests whose scoring waits: two are read, three wait with not a byte
    read; an honest small request meanwhile is read and scored; a body over the bound alone is
    413; once scoring goes on, every waiting request is read and scored (none refused)."""
    from integrations import BatchingConfig
    from integrations.server import create_app

    big = {"query": ["big" + "x" * 10_000]}
    bound = 2 * len(json.dumps(big)) + 500
    reward = _HoldBig()
    app = create_app(reward, batching=BatchingConfig(enabled=False), max_held_bytes=bound)
    read: dict[int, int] = {}  # request -> bytes the server has read of it, until answered
    peak = [0]

    async def post(me: int, body: bytes) -> tuple[int, dict]:
        sent: list[dict] = []
        chunks = [body[i:i + 1000] for i in range(0, len(body), 1000)]
        read[me] = 0

        async def receive() -> dict:
            if not chunks:
                return {"type": "http.disconnect"}
            chunk = chunks.pop(0)
            read[me] += len(chunk)
            peak[0] = max(peak[0], sum(read.values()))
            return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

        async def send(message: dict) -> None:
            sent.append(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                del read[me]  # answered: its bytes are free

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "POST", "scheme": "http", "path": "/get_reward", "raw_path":
                 b"/get_reward", "root_path": "", "query_string": b"",
                 "headers": [(b"content-type", b"application/json"),
                             (b"content-length", str(len(body)).encode())],
                 "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 5000)}
        await app(scope, receive, send)
        payload = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return sent[0]["status"], json.loads(payload)

    async def until(condition) -> None:  # type: ignore[no-untyped-def]
        for _ in range(3000):  # a state to reach, not a speed: up to 30 s on a loaded machine
            if condition():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"not reached; read: {read}")

    async def scenario() -> None:
        body = json.dumps(big).encode()
        waiting = [asyncio.create_task(post(i, body)) for i in range(5)]
        await until(lambda: sorted(read.values()) == [0, 0, 0, len(body), len(body)])
        small = await post(10, json.dumps({"query": ["small"]}).encode())
        assert small[0] == 200 and small[1]["rewards"] == [5.0]
        too_big = await post(11, b'{"query": ["' + b"x" * bound + b'"]}')
        assert too_big[0] == 413
        assert sorted(read.values()) == [0, 0, 0, len(body), len(body)]  # still waiting
        reward.release.set()
        replies = await asyncio.gather(*waiting)
        assert [status for status, _ in replies] == [200] * 5
        assert all(reply["rewards"] == [10_003.0] for _, reply in replies)
        assert read == {}

    asyncio.run(scenario())
    assert 2 * len(json.dumps(big)) <= peak[0] <= bound


def test_serve_passes_max_held_mb_and_refuses_a_bound_that_is_not_positive(
        math_config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import integrations.server
    from integrations.server import create_app
    from rewards.errors import ConfigError
    from rewards_cli import main

    seen: dict = {}
    monkeypatch.setattr(integrations.server, "serve", lambda *a, **k: seen.update(k))
    assert main(["serve", "--config", str(math_config), "--max-held-mb", "0.5"]) == 0
    assert seen["max_held_bytes"] == 1 << 19
    assert main(["serve", "--config", str(math_config)]) == 0
    assert seen["max_held_bytes"] == 64 << 20  # the sandbox server's default
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--config", str(math_config), "--max-held-mb", "0"])
    assert exited.value.code == 2
    with pytest.raises(ConfigError, match="max_held_bytes must be positive"):
        create_app(str(math_config), max_held_bytes=0)


def test_a_trickling_client_does_not_starve_an_honest_one(math_server: Server) -> None:
    """One client declares a 64 MiB body (the whole bound on held bodies) and sends a byte a
    second. Before, it held the reservation and an honest 100-byte request got no answer in
    15 s; now it keeps only what it sent, and the honest request is scored at once."""
    import socket
    import time

    port = int(math_server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as trickler:
        trickler.sendall(b"POST /get_reward HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         b"application/json\r\nContent-Length: %d\r\n\r\n[" % (64 << 20))
        time.sleep(0.05)  # it is in the server, its length reserved, before the honest one
        start = time.monotonic()
        reply = httpx.post(f"{math_server.url}/get_reward", timeout=15,
                           json={"query": ["\\boxed{4}"], "labels": ["4"]})
        assert reply.status_code == 200 and reply.json()["rewards"] == [1.0]
        assert time.monotonic() - start < 10.0  # starved, it got no answer in 15 s
        trickler.sendall(b"0")
