"""Red team, round 5: the HTTP servers (`rewards serve`, `rewards sandbox serve`, the
environment server share integrations/_http.py, _body.py, _auth.py). Attacks that held are
probes; a hole that is still open is a strict xfail naming it (none now)."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from integration_helpers import Server  # type: ignore[import-not-found]

httpx = pytest.importorskip("httpx")

from integrations._body import READ_TIMEOUT_S


def _port(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1])


def _closed_within(sock: socket.socket, seconds: float, trickle: bytes | None) -> float | None:
    """Seconds until the server closes `sock` (a recv of b'' or an error), sending `trickle`
    once a second meanwhile; None if it is still open after `seconds`."""
    start = time.monotonic()
    sock.settimeout(1.0)
    while time.monotonic() - start < seconds:
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except TimeoutError:
            pass
        except OSError:
            return time.monotonic() - start
        if trickle is not None:
            try:
                sock.sendall(trickle)
            except OSError:
                return time.monotonic() - start
    return None


def test_a_client_that_trickles_its_headers_is_dropped(math_config: Path) -> None:
    """Slowloris on headers: uvicorn started no timer before a request's headers were
    complete (its keep-alive timer runs only after a response, and the next byte cancels
    it), and BodyLimit's deadlines start once the app is called, so a client that trickled
    a header line a second held its connection and descriptor for ever (25 s here, and
    still open). Now the connection is closed once the headers are later than the body's
    own grace (READ_TIMEOUT_S: `integrations._http.guarded_protocol`), and an
    honest client is served meanwhile."""
    server = Server(math_config)
    try:
        with socket.create_connection(("127.0.0.1", _port(server))) as sock:
            sock.sendall(b"POST /get_reward HTTP/1.1\r\nHost: x\r\n")
            took = _closed_within(sock, READ_TIMEOUT_S + 4, b"X-Pad: a\r\n")
        assert took is not None, "the connection was still open"
        # meanwhile an honest client is served
        reply = httpx.post(f"{server.url}/get_reward", timeout=15,
                           json={"query": ["\\boxed{4}"], "labels": ["4"]})
        assert reply.status_code == 200 and reply.json()["rewards"] == [1.0]
    finally:
        server.stop()


def test_json_bombs_are_refused_or_scored_never_a_crash(math_server: Server) -> None:
    """Probes that held: NaN/Infinity and 1e999 as references abstain as unparseable
    (bad_reference, a trainer's data), a 5,000-digit boxed answer is wrong, duplicate keys
    take the last value and are then checked, non-string queries are a 422 naming the field;
    nothing answers 500 or shows a traceback."""
    url = f"{math_server.url}/get_reward"
    cases = {
        b'{"query":["x"],"labels":[NaN]}': (200, "bad_reference"),
        b'{"query":["x"],"labels":[1e999]}': (200, "bad_reference"),
        b'{"query":["\\\\boxed{' + b"9" * 5000 + b'}"],"labels":["1"]}': (200, '"rewards":[0.0]'),  # wrong or no_answer: 0
        b'{"query":["a"],"labels":["1"],"query":["b","c"]}': (422, "labels"),
        b'{"query":[1],"labels":[{}]}': (422, "query[0]"),
        b"[" * 5000 + b"]" * 5000: (400, "nested deeper"),
    }
    for body, (status, word) in cases.items():
        reply = httpx.post(url, content=body, timeout=30,
                           headers={"content-type": "application/json"})
        assert reply.status_code == status, (body[:60], reply.text)
        assert word in reply.text and "Traceback" not in reply.text, reply.text


def test_a_body_longer_than_declared_is_not_read_as_this_request(math_server: Server) -> None:
    """A body that says 2 bytes and sends more: the extra bytes are never this request's
    body (the parser reads them as a next request, which is not HTTP: 400, closed), and
    nothing is scored."""
    with socket.create_connection(("127.0.0.1", _port(math_server))) as sock:
        sock.settimeout(10)
        sock.sendall(b"POST /get_reward HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     b"\r\nContent-Length: 2\r\n\r\n{}" + b'{"query":["\\\\boxed{4}"]}')
        seen = b""
        while b"rewards" not in seen:
            chunk = sock.recv(4096)
            if not chunk:
                break
            seen += chunk
    assert seen.startswith((b"HTTP/1.1 422", b"HTTP/1.1 400")), seen[:200]
    assert b'"rewards"' not in seen


def _protocols() -> list:
    pytest.importorskip("uvicorn")
    from uvicorn.protocols.http.h11_impl import H11Protocol

    found = [pytest.param(H11Protocol, id="h11")]
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return found
    return [*found, pytest.param(HttpToolsProtocol, id="httptools")]


@pytest.mark.parametrize("base", _protocols())
def test_the_header_deadline_closes_slow_headers_only(base: type) -> None:
    """On both of uvicorn's HTTP implementations, with a 1 s deadline: a connection that
    sends nothing, one that trickles its headers, and a kept-alive one whose second
    request trickles are closed; a request whose app takes longer than the deadline is
    answered (the deadline is the client's, not the app's)."""
    import asyncio
    import threading

    import uvicorn

    from integrations._http import guarded_protocol

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        if scope["path"] == "/slow":
            await asyncio.sleep(2.0)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error",
                            http=guarded_protocol(1.0, base=base), lifespan="off",
                            timeout_keep_alive=30)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.started
        get = b"GET /%s HTTP/1.1\r\nHost: x\r\n\r\n"
        with socket.create_connection(("127.0.0.1", port)) as idle, \
                socket.create_connection(("127.0.0.1", port)) as trickle, \
                socket.create_connection(("127.0.0.1", port)) as kept, \
                socket.create_connection(("127.0.0.1", port)) as slow:
            trickle.sendall(b"GET / HTTP/1.1\r\n")
            kept.sendall(get % b"fast")
            slow.sendall(get % b"slow")
            kept.settimeout(5)
            assert kept.recv(4096).startswith(b"HTTP/1.1 200")
            kept.sendall(b"GET / HTTP/1.1\r\n")  # the second request trickles
            for sock, trickled in ((idle, None), (trickle, b"X-Pad: a\r\n"),
                                   (kept, b"X-Pad: a\r\n")):
                took = _closed_within(sock, 6.0, trickled)
                assert took is not None and took < 4.0, took
            slow.settimeout(5)
            assert slow.recv(4096).startswith(b"HTTP/1.1 200")
    finally:
        server.should_exit = True
        thread.join(10)


def test_ambiguous_framing_is_refused_by_the_parser(math_server: Server) -> None:
    """Request smuggling and reservation tricks held: two Content-Lengths (either order:
    BodyLimit would reserve one and the parser read the other), Content-Length with chunked
    encoding, and a chunk size past any bound are each a 400 from the HTTP parser, nothing
    scored; an honest chunked body is scored."""
    body = b'{"query":["\\\\boxed{4}"],"labels":["4"]}'
    head = b"POST /get_reward HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    chunked = b"Transfer-Encoding: chunked\r\n\r\n%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
    cases = [
        (head + b"Content-Length: 2\r\nContent-Length: %d\r\n\r\n" % len(body) + body, b"400"),
        (head + b"Content-Length: %d\r\nContent-Length: 2\r\n\r\n" % len(body) + body, b"400"),
        (head + b"Content-Length: 5\r\n" + chunked, b"400"),
        (head + b"Transfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\nabc", b"400"),
        (head + chunked, b"200"),
    ]
    for request, status in cases:
        with socket.create_connection(("127.0.0.1", _port(math_server))) as sock:
            sock.settimeout(10)
            sock.sendall(request)
            seen = b""
            while b"\r\n\r\n" not in seen or (status == b"200" and b"}" not in seen):
                chunk = sock.recv(4096)
                if not chunk:
                    break
                seen += chunk
        assert seen.startswith(b"HTTP/1.1 " + status), (request[:120], seen[:200])
        assert (b'"rewards":[1.0]' in seen) == (status == b"200"), seen


def test_a_lone_surrogate_sent_to_the_sandbox_server_is_the_programs_error(
        tmp_path: Path) -> None:
    """`rewards sandbox serve`: JSON's "\\ud800" escape makes a lone surrogate in `code`. The
    cold sandbox raised UnicodeEncodeError on the host (a 500 or a sandbox error); now the
    program fails in the jail as any file in broken text does: Finished, non-zero, the
    interpreter's message. A NUL ("\\u0000") is refused on the host before it runs."""
    from test_sandbox_fusion import FusionServer  # type: ignore[import-not-found]

    server = FusionServer(tmp_path, "--workers", "1", "--mode", "cold")
    try:
        body = b'{"code": "print(1)\\n# \\ud800\\n", "language": "python"}'
        reply = httpx.post(f"{server.url}/run_code", content=body, timeout=60,
                           headers={"content-type": "application/json"})
        assert reply.status_code == 200, reply.text
        data = reply.json()
        assert data["status"] == "Failed" and data["run_result"]["return_code"] != 0, data
        assert "Non-UTF-8 code" in data["run_result"]["stderr"], data
        # JSON's "\u0000": a NUL, which the jail's python3 stops reading at (running the
        # prefix): refused before it runs, as in every mode (`sandbox.run`)
        body = b'{"code": "print(1)\\n#\\u0000\\nprint(2)\\n", "language": "python"}'
        reply = httpx.post(f"{server.url}/run_code", content=body, timeout=60,
                           headers={"content-type": "application/json"})
        data = reply.json()
        assert data["status"] == "Failed" and data["run_result"]["stdout"] == "", data
        assert "NUL character" in data["run_result"]["stderr"], data
    finally:
        server.stop()


def test_a_client_holding_most_descriptors_does_not_starve_an_honest_one(
        math_config: Path) -> None:
    """The servers capped neither connections nor connections per client, and an idle
    connection was dropped only at the header deadline (10 s): a client that opened as many
    connections as the server had descriptors (60 against `ulimit -n 64`) starved every
    other request (no answer within 3 s). Now the server holds at most half its free
    descriptors, one client half of those, and a new connection takes the place of the one
    that has waited longest for a request (`integrations._http.ConnectionCaps`): the honest
    request, from the same address even, is answered at once."""
    held: list[socket.socket] = []
    with _serve_under_ulimit(math_config, 64) as port:
        try:
            for _ in range(60):
                held.append(socket.create_connection(("127.0.0.1", port)))
            time.sleep(0.5)
            reply = httpx.post(f"http://127.0.0.1:{port}/get_reward", timeout=3.0,
                               json={"query": ["\\boxed{4}"], "labels": ["4"]})
            assert reply.status_code == 200 and reply.json()["rewards"] == [1.0]
        finally:
            for sock in held:
                sock.close()


def test_a_trainers_64_clients_on_one_node_are_all_served_under_the_default_caps(
        math_config: Path) -> None:
    """The caps' other side: a trainer's 64 processes on one node are one client (loopback),
    each with its own kept-alive connection, posting at once; at `ulimit -n 1024` (about
    250 connections per client by default) every request is answered 200."""
    import threading

    with _serve_under_ulimit(math_config, 1024) as port:
        codes: list[int] = []
        start = threading.Barrier(64)

        def trainer() -> None:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
                start.wait()
                for _ in range(2):
                    codes.append(client.post("/get_reward", json={
                        "query": ["\\boxed{4}"], "labels": ["4"]}).status_code)

        threads = [threading.Thread(target=trainer) for _ in range(64)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert codes == [200] * 128, sorted(set(codes))


@contextlib.contextmanager
def _serve_under_ulimit(math_config: Path, descriptors: int) -> Iterator[int]:
    """`rewards serve` with its default caps under `ulimit -n DESCRIPTORS`: its port, once
    /health answers."""
    server = Server(math_config, descriptors=descriptors)
    try:
        yield server.port
    finally:
        server.stop()
