"""The request-body reader all three servers share (`integrations._body`): held bytes bounded
with honest clients delayed, never refused; a trickling client that holds only what it sent;
a deadline on every read; JSON values and nesting bounded before the work; large bodies parsed
in the parser thread, never on the event loop; and, over real HTTP, a 15 MB body of small
values answered 413 without stalling `/health` or growing the server."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from integrations._body import PARSED_KEY, BodyBounds, BodyLimit, count_values, parse_json
from rewards.errors import InputError

ECHO_STATUS = 200


class Recorder:
    """An ASGI app that records the parsed body and answers once `release` is set."""

    def __init__(self, *, hold: bool = False) -> None:
        self.release = asyncio.Event()
        if not hold:
            self.release.set()
        self.started: list[Any] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.started.append(scope.get(PARSED_KEY))
        await self.release.wait()
        await send({"type": "http.response.start", "status": ECHO_STATUS, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def call(limit: BodyLimit, parts: list[bytes], *, declared: int | None = None,
               delays: list[float] | None = None, method: str = "POST") -> tuple[int, float]:
    """Send a request made of `parts` (each after its delay, in seconds) through `limit`;
    (status, seconds to the answer)."""
    headers = [(b"content-length", str(declared).encode())] if declared is not None else []
    messages = [{"type": "http.request", "body": p, "more_body": i < len(parts) - 1}
                for i, p in enumerate(parts)]
    delays = delays or [0.0] * len(parts)
    sent: list[dict] = []
    start = time.monotonic()

    async def receive() -> dict:
        if not messages:
            await asyncio.sleep(3600)  # a client that sends nothing more
        await asyncio.sleep(delays.pop(0))
        return messages.pop(0)

    async def send(message: dict) -> None:
        sent.append(message)

    await limit({"type": "http", "method": method, "headers": headers}, receive, send)
    return sent[0]["status"], time.monotonic() - start


def body_of(size: int) -> bytes:
    """A JSON string body of exactly `size` bytes."""
    return b'"' + b"x" * (size - 2) + b'"'


def test_held_request_bodies_are_bounded() -> None:
    """Requests in the server (an app that holds them until released) hold at most
    `max_held` body bytes together. A body that says its length waits, unread, for room (then
    runs: never refused); one sent in chunks without a length is a 503 once past the bound;
    once requests are answered their bytes are free again."""
    app = Recorder(hold=True)
    limit = BodyLimit(app, bounds=BodyBounds(max_bytes=1000, max_held=2500))

    async def scenario() -> None:
        body = body_of(900)
        parts = [body[i:i + 100] for i in range(0, 900, 100)]
        held = [asyncio.create_task(call(limit, parts, declared=900)) for _ in range(2)]
        for _ in range(50):
            await asyncio.sleep(0.01)
        assert app.started == ["x" * 898] * 2 and limit.held == 1800
        waiting = asyncio.create_task(call(limit, parts, declared=900))
        await asyncio.sleep(0.2)
        assert len(app.started) == 2 and limit.held == 1800  # not a byte of it read
        assert (await call(limit, parts))[0] == 503  # chunked: refused past the bound
        assert (await call(limit, [body_of(2000)], declared=2000))[0] == 413
        app.release.set()
        replies = await asyncio.gather(*held, waiting)
        assert [status for status, _ in replies] == [200, 200, 200]
        assert len(app.started) == 3 and limit.held == 0
        assert (await call(limit, parts))[0] == 200

    asyncio.run(scenario())


def test_a_trickling_client_holds_only_what_it_sent() -> None:
    """A client declares the whole bound and sends a byte a second. Before, it held the whole
    reservation: an honest 100-byte request waited for ever. Now the trickler keeps only the
    bytes it sent once it falls behind, the honest request is answered at once, and the
    trickler gets 408 when its grace (`read_timeout_s`) runs out."""
    app = Recorder()
    limit = BodyLimit(app, bounds=BodyBounds(max_bytes=1000, max_held=1000,
                                             read_timeout_s=1.0))

    async def scenario() -> None:
        trickle = asyncio.create_task(call(limit, [b'"'] + [b"x"] * 998 + [b'"'],
                                           declared=1000, delays=[0.0] + [1.0] * 999))
        await asyncio.sleep(0.01)
        assert limit.held == 1000  # it reserved its length
        status, seconds = await asyncio.wait_for(call(limit, [body_of(100)], declared=100), 5)
        assert status == 200 and seconds < 1.0, seconds
        status, seconds = await asyncio.wait_for(trickle, 10)
        assert status == 408 and seconds < 3.0
        assert limit.held == 0

    asyncio.run(scenario())


@pytest.mark.parametrize("declared", [None, 200])
def test_every_read_has_a_deadline(declared: int | None) -> None:
    """A body that stops half way (with or without a length) gets 408 after its grace, and
    its bytes are given back."""
    app = Recorder()
    limit = BodyLimit(app, bounds=BodyBounds(max_bytes=1000, max_held=1000,
                                             read_timeout_s=0.3))

    async def scenario() -> None:
        status, seconds = await asyncio.wait_for(
            call(limit, [b'"xxxx', b'"'], declared=declared, delays=[0.0, 3600.0]), 5)
        assert status == 408 and 0.3 <= seconds < 2.0
        assert limit.held == 0 and app.started == []

    asyncio.run(scenario())


def test_values_and_nesting_are_bounded_before_the_work() -> None:
    """Over `max_values` JSON values: 413 before the body is parsed; nested past `max_depth`:
    400; not JSON: the app gets the `InputError` and answers in its protocol's shape."""
    app = Recorder()
    limit = BodyLimit(app, bounds=BodyBounds(max_bytes=1 << 20, max_held=1 << 20,
                                             max_values=1000, max_depth=8))

    async def scenario() -> None:
        many = json.dumps([0] * 1000).encode()
        assert (await call(limit, [many], declared=len(many)))[0] == 413
        # strings hide commas: a body of one string full of them is a few values
        text = json.dumps({"code": ",:[{" * 5000, "files": {}}).encode()
        assert (await call(limit, [text], declared=len(text)))[0] == 200
        assert app.started[-1]["code"] == ",:[{" * 5000
        deep = b"[" * 9 + b"]" * 9
        assert (await call(limit, [deep], declared=len(deep)))[0] == 400
        assert (await call(limit, [b"{nope"], declared=5))[0] == 200
        assert isinstance(app.started[-1], InputError)
        assert (await call(limit, [], method="GET"))[0] == 200  # no body: nothing read

    asyncio.run(scenario())
    assert len(app.started) == 3


def test_count_values_is_exact_outside_strings_and_bounded_by_json() -> None:
    """Commas, colons and brackets inside strings (escaped quotes and backslashes included,
    across the megabyte steps) are not counted; the count is at least the number of values."""
    import integrations._body as module

    for value in (["a,b", {"k:\\\"": [1, 2, {"x": "]\\\\"}]}, "\\\\\\\"", []], {"": ""},
                  [[[]]], "plain"):
        text = json.dumps(value).encode()
        assert count_values(text, 0) >= 1
        original = module._CHUNK
        try:
            module._CHUNK = 3  # many steps: a step never splits an escape
            outside = module._count_outside_strings(text, 10 ** 9)
        finally:
            module._CHUNK = original
        assert outside == module._count_outside_strings(text, 10 ** 9)
        assert parse_json(text, max_values=outside, max_depth=64) == value


def test_large_bodies_are_parsed_in_the_parser_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A body over INLINE_BYTES is counted and parsed in the parser thread, not on the event
    loop (which answered /health 7 s late under one 15 MB body); a small one inline."""
    import integrations._body as module

    threads: list[str] = []
    real = module.parse_json

    def recording(data: Any, **kw: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(data, **kw)

    monkeypatch.setattr(module, "parse_json", recording)
    limit = BodyLimit(Recorder(), bounds=BodyBounds(max_bytes=4 << 20, max_held=4 << 20))

    async def scenario() -> None:
        big = body_of(module.INLINE_BYTES + 1)
        assert (await call(limit, [big], declared=len(big)))[0] == 200
        assert (await call(limit, [b"[1]"], declared=3))[0] == 200

    asyncio.run(scenario())
    assert threads[0].startswith("body-parser") and threads[1] == "MainThread"


def test_a_15_mb_body_of_small_values_neither_stalls_nor_grows_the_server(
        math_config: Path) -> None:
    """`rewards serve` under one 15 MB body of `[0,0,...]` (7.5 million values): before, it
    grew by ~670 MB and answered /health 7 s late. Now the body is 413 (over the values
    bound), /health answers meanwhile, and the server grows by less than twice the body."""
    httpx = pytest.importorskip("httpx")
    from integration_helpers import Server  # type: ignore[import-not-found]

    server = Server(math_config)
    try:
        with open(f"/proc/{server.proc.pid}/status") as fh:
            before = next(int(line.split()[1]) for line in fh if line.startswith("VmRSS"))
        body = b'{"query": [' + b"0," * (15 << 19) + b'0]}'
        done: list[int] = []
        thread = threading.Thread(target=lambda: done.append(httpx.post(
            f"{server.url}/get_reward", content=body, timeout=120,
            headers={"content-type": "application/json"}).status_code))
        thread.start()
        slowest = 0.0
        while thread.is_alive():
            start = time.monotonic()
            assert httpx.get(f"{server.url}/health", timeout=30).status_code == 200
            slowest = max(slowest, time.monotonic() - start)
            time.sleep(0.02)
        thread.join()
        assert done == [413]
        assert slowest < 3.0, slowest  # parsed on the loop it stalled 7 s
        with open(f"/proc/{server.proc.pid}/status") as fh:
            peak = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM"))
        assert (peak - before) * 1024 < 2 * len(body), (before, peak)
    finally:
        server.stop()
