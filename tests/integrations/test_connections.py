"""The connection caps of the HTTP servers (`integrations._http.ConnectionCaps`, enforced by
`guarded_protocol`): the rule's numbers, whom a connection counts against, and, on both of
uvicorn's HTTP implementations, the attacks on the caps themselves (ATTACK-CLASSES "Slow and
heavy clients"): idle connections, one byte then a stall, requests held open, kept-alive
connections reused, IPv6 and IPv4 loopback."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from integrations._http import ConnectionCaps, _Held, client_key, guarded_protocol
from rewards.errors import ConfigError

GET = b"GET /%s HTTP/1.1\r\nHost: x\r\n\r\n"


@pytest.mark.parametrize(("free", "caps"), [
    (994, (497, 248)),     # ulimit -n 1024, 30 open: 64 trainer clients fit four times over
    (19970, (8192, 4096)),  # the default's ceiling
    (40, (20, 10)),        # `ulimit -n 64` as in the red-team test
    (1, (2, 1)),           # never nothing: the server can still answer
])
def test_the_default_caps_are_half_the_free_descriptors_and_half_of_that_per_client(
        free: int, caps: tuple[int, int]) -> None:
    resolved = ConnectionCaps.resolve(free=free)
    assert (resolved.total, resolved.per_client) == caps
    assert resolved.per_client < resolved.total or resolved.total == 1


def test_caps_that_the_descriptors_cannot_hold_are_refused_by_name() -> None:
    assert ConnectionCaps.resolve(100, free=1000) == ConnectionCaps(100, 50)
    assert ConnectionCaps.resolve(None, 64, free=1000) == ConnectionCaps(500, 64)
    assert ConnectionCaps.resolve(64, 64, free=1000) == ConnectionCaps(64, 64)
    with pytest.raises(ConfigError, match=r"--max-connections 2000: only 1000 descriptors"):
        ConnectionCaps.resolve(2000, free=1000)
    with pytest.raises(ConfigError, match=r"--max-connections-per-client 11 is more than "
                                          r"--max-connections \(10\)"):
        ConnectionCaps.resolve(10, 11, free=1000)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ConfigError, match="positive integer"):
            ConnectionCaps.resolve(bad, free=1000)  # type: ignore[arg-type]


@pytest.mark.parametrize(("peer", "key"), [
    (("127.0.0.1", 5000), "loopback"),
    (("127.0.0.2", 5000), "loopback"),       # any of 127/8: a local process binds any
    (("::1", 5000, 0, 0), "loopback"),
    (("::ffff:127.0.0.1", 5000, 0, 0), "loopback"),  # a dual-stack socket's IPv4 client
    (("10.1.2.3", 1), "10.1.2.3"),
    (("::ffff:10.1.2.3", 1, 0, 0), "10.1.2.3"),
    (("2001:db8::1", 1, 0, 0), "2001:db8::/64"),
    (("2001:db8::ffff:1", 1, 0, 0), "2001:db8::/64"),   # the same /64: one subscriber
    (("2001:db8:0:1::1", 1, 0, 0), "2001:db8:0:1::/64"),
    (("fe80::1%eth0", 1, 0, 2), "fe80::/64"),
    (None, "local"), ("/run/rewards.sock", "local"), ("", "local"),
])
def test_whom_a_connection_counts_against(peer: Any, key: str) -> None:
    assert client_key(peer) == key


class _Conn:
    """A connection as `_Held` sees it."""

    def __init__(self, busy: bool = False) -> None:
        self.busy = busy
        self.closed = False
        self.transport = self

    def waiting_for_request(self) -> bool:
        return not self.busy and not self.closed

    def close(self) -> None:
        self.closed = True


def test_a_full_server_makes_room_from_the_longest_waiting_never_from_a_request() -> None:
    """The bookkeeping alone: at a client's cap its own longest-waiting connection gives
    way; at the total, anyone's; a connection being answered never does, and with none
    waiting the new one is refused. A connection answered since it first waited is back in
    line at its response's end."""
    held = _Held(ConnectionCaps(total=4, per_client=3))
    a1, a2, a3, a4 = (_Conn() for _ in range(4))
    for conn in (a1, a2, a3):
        assert held.admit(conn, "a")
        held.wait(conn)
    held.wait(a1)  # a1 answered a request since: a2 now waited longest
    assert held.admit(a4, "a") and a2.closed and not a1.closed
    held.wait(a4)
    b1 = _Conn()
    assert held.admit(b1, "b") and not a3.closed  # the 4th of 4
    held.wait(b1)
    b0 = _Conn()
    assert held.admit(b0, "b") and a3.closed  # at the total: anyone's longest waiting
    held.wait(b0)
    a1.busy = a4.busy = True  # both answering requests
    b2 = _Conn()
    assert held.admit(b2, "b") and b1.closed  # a's busy ones never give way
    held.wait(b2)
    b0.busy = b2.busy = True
    assert not held.admit(_Conn(), "c")  # nothing waiting: refused
    assert held.total == 4 and held.count == {"a": 2, "b": 2}
    for conn in (a1, a4, b0, b2):
        held.release(conn)
        held.release(conn)  # twice is once
    assert held.total == 0 and not held.count and not held.waiting and not held.all_waiting


def _protocols() -> list[Any]:
    pytest.importorskip("uvicorn")
    from uvicorn.protocols.http.h11_impl import H11Protocol

    found = [pytest.param(H11Protocol, id="h11")]
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return found
    return [*found, pytest.param(HttpToolsProtocol, id="httptools")]


async def _app(scope: Any, receive: Any, send: Any) -> None:
    import asyncio

    if scope["type"] == "websocket":  # refuses the handshake: 403
        await receive()
        await send({"type": "websocket.close"})
        return
    if scope["type"] != "http":
        return
    if scope["path"] == "/slow":
        await asyncio.sleep(3.0)
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


@contextlib.contextmanager
def _server(base: type, caps: ConnectionCaps, *, host: str = "127.0.0.1",
            header_s: float = 30.0, keep_alive_s: float = 30.0,
            websockets: bool = False) -> Iterator[int]:
    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.bind((host, 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(_app, host=host, port=port, log_level="error", lifespan="off",
                            http=guarded_protocol(header_s, caps, base=base),
                            timeout_keep_alive=keep_alive_s,
                            ws="auto" if websockets else "none")  # as uvicorn_options
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.started
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def _connect(port: int, host: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection((host, port))
    sock.settimeout(10)
    time.sleep(0.1)  # admitted (or refused) in the order they were opened
    return sock


def _is_closed(sock: socket.socket, seconds: float = 5.0) -> bool:
    """Whether the server closed `sock` (EOF or a reset) within `seconds`; bytes it sent
    first (a 503) are read past."""
    sock.settimeout(seconds)
    try:
        while True:
            if sock.recv(4096) == b"":
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


def _answer(sock: socket.socket, path: bytes = b"fast") -> bytes:
    sock.sendall(GET % path)
    return sock.recv(4096)


@pytest.mark.parametrize("base", _protocols())
def test_idle_and_stalled_connections_give_way_to_a_new_one(base: type) -> None:
    """At its cap (3) a client that opens another connection closes its own that waited
    longest: first those that sent nothing, then those that sent one byte and stalled (a
    request's headers not complete are the client's time); the new ones are served."""
    with _server(base, ConnectionCaps(total=8, per_client=3)) as port:
        idle = [_connect(port) for _ in range(2)]
        stalled = _connect(port)
        stalled.sendall(b"G")
        served = _connect(port)  # the 4th: the oldest idle one gives way
        assert _answer(served).startswith(b"HTTP/1.1 200")
        assert _is_closed(idle[0]) and not _is_closed(idle[1], 0.5)
        more = [_connect(port) for _ in range(2)]  # then idle[1], then the stalled one
        assert _is_closed(idle[1]) and _is_closed(stalled)
        assert all(_answer(sock).startswith(b"HTTP/1.1 200") for sock in more)
        last = _connect(port)  # served was answered before `more`: it waited longest
        assert _is_closed(served) and not _is_closed(more[0], 0.5)
        for sock in [*idle, stalled, served, *more, last]:
            sock.close()


@pytest.mark.parametrize("base", _protocols())
def test_requests_being_answered_are_never_cut_and_the_next_gets_503_unread(
        base: type) -> None:
    """A client whose connections all have a request being answered (3, a slow route) is
    at its cap: a 4th connection gets 503 with Retry-After at once, before it sends a
    byte, and is closed; the three are answered."""
    with _server(base, ConnectionCaps(total=8, per_client=3)) as port:
        slow = [_connect(port) for _ in range(3)]
        for sock in slow:
            sock.sendall(GET % b"slow")
        time.sleep(0.3)
        refused = _connect(port)
        head = refused.recv(4096)
        assert head.startswith(b"HTTP/1.1 503") and b"retry-after: 1" in head, head
        assert _is_closed(refused)
        assert all(sock.recv(4096).startswith(b"HTTP/1.1 200") for sock in slow)
        for sock in [*slow, refused]:
            sock.close()


@pytest.mark.parametrize("base", _protocols())
def test_a_kept_alive_connection_that_gave_way_is_reopened_by_the_client(base: type) -> None:
    """httpx keeps its connection open between requests; when it gives way to newer
    connections, the client's next request opens another (it sees the close before it
    reuses the connection) and is answered."""
    httpx = pytest.importorskip("httpx")
    with _server(base, ConnectionCaps(total=8, per_client=2)) as port, \
            httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        assert client.get("/fast").status_code == 200
        others = [_connect(port) for _ in range(2)]  # the kept-alive one waited longest
        time.sleep(0.2)
        assert client.get("/fast").status_code == 200
        assert _is_closed(others[0])
        for sock in others:
            sock.close()


@pytest.mark.parametrize("base", _protocols())
def test_a_connection_that_sends_nothing_is_closed_at_the_keep_alive_timeout(
        base: type) -> None:
    """The first byte has uvicorn's keep-alive deadline (here 1 s, the headers' 30 s): a
    connection that sends nothing is closed by it; one that sent a byte is the header
    deadline's."""
    with _server(base, ConnectionCaps(total=8, per_client=4), keep_alive_s=1.0) as port:
        silent = _connect(port)
        started = _connect(port)
        started.sendall(b"G")
        assert _is_closed(silent, 6.0)
        assert not _is_closed(started, 1.0)
        silent.close()
        started.close()


@pytest.mark.parametrize("base", _protocols())
@pytest.mark.parametrize("websockets", [False, True], ids=["http-only", "websockets"])
def test_a_websocket_upgrade_leaves_no_count_behind(base: type, websockets: bool) -> None:
    """Upgraded, a connection's close goes to the websocket protocol, not ours: left
    counted, a client that upgraded as many connections as its cap, and closed them, was
    refused ever after. A server without websockets answers the upgrade as plain HTTP; one
    with them (the environment server's /ws) upgrades, and the upgraded protocol gives the
    place back when it closes."""
    upgrade = (b"GET /fast HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
               b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
    with _server(base, ConnectionCaps(total=4, per_client=2), websockets=websockets) as port:
        for _ in range(4):
            with _connect(port) as sock:
                sock.sendall(upgrade)
                # the test app accepts no websocket: upgraded, the handshake is refused (403)
                assert sock.recv(4096).startswith(b"HTTP/1.1 403" if websockets
                                                  else b"HTTP/1.1 200")
        time.sleep(0.3)
        held = [_connect(port) for _ in range(2)]
        assert all(_answer(sock).startswith(b"HTTP/1.1 200") for sock in held)
        for sock in held:
            sock.close()


def _own_address() -> str | None:
    """This machine's address on its default route (not loopback), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("198.51.100.1", 9))  # TEST-NET-2: a UDP connect sends nothing
            address = probe.getsockname()[0]
        with socket.socket() as server:
            server.bind((address, 0))
        return None if address.startswith("127.") else address
    except OSError:
        return None


@pytest.mark.skipif(_own_address() is None, reason="no address here but loopback")
@pytest.mark.parametrize("base", _protocols())
def test_one_client_at_its_cap_leaves_room_for_another_address(base: type) -> None:
    """A client whose requests hold its whole share (loopback: 2 slow requests) gets 503 for
    a third connection; a client at another address (this machine's own, not loopback) is
    served meanwhile."""
    other = _own_address()
    assert other is not None
    with _server(base, ConnectionCaps(total=4, per_client=2), host="0.0.0.0") as port:
        slow = [_connect(port) for _ in range(2)]
        for sock in slow:
            sock.sendall(GET % b"slow")
        time.sleep(0.3)
        refused = _connect(port)
        assert refused.recv(4096).startswith(b"HTTP/1.1 503")
        elsewhere = _connect(port, other)
        assert _answer(elsewhere).startswith(b"HTTP/1.1 200")
        assert all(sock.recv(4096).startswith(b"HTTP/1.1 200") for sock in slow)
        for sock in [*slow, refused, elsewhere]:
            sock.close()


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback here")
@pytest.mark.parametrize("base", _protocols())
def test_ipv6_loopback_is_the_loopback_client(base: type) -> None:
    """Served on ::1 (`--host ::1`; `--host ::` is IPv6 only too: asyncio sets IPV6_V6ONLY),
    connections from ::1 count against the one loopback client, read from IPv6's 4-tuple
    peer address, as 127.0.0.1's and 127.0.0.2's do (`client_key`: a local process cannot
    widen its share by switching loopback address or family)."""
    with _server(base, ConnectionCaps(total=8, per_client=2), host="::1") as port:
        held = [_connect(port, "::1") for _ in range(3)]
        assert _is_closed(held[0]) and not _is_closed(held[1], 0.5)
        assert _answer(held[2]).startswith(b"HTTP/1.1 200")
        for sock in held:
            sock.close()


def test_every_server_takes_the_caps_under_the_same_names() -> None:
    """`rewards serve`, `rewards sandbox serve` and the environment server take
    --max-connections and --max-connections-per-client with one help text; the reward
    server prints its caps when it starts and refuses a per-client cap past the total."""
    from integrations import _http
    from rewards_cli import _common

    assert _common.MAX_CONNECTIONS_HELP == _http.MAX_CONNECTIONS_HELP
    assert _common.MAX_CONNECTIONS_PER_CLIENT_HELP == _http.MAX_CONNECTIONS_PER_CLIENT_HELP
    for argv in (["-m", "rewards", "serve"], ["-m", "rewards", "sandbox", "serve"],
                 ["-m", "integrations.env_server"]):
        shown = subprocess.run([sys.executable, *argv, "--help"], capture_output=True,
                               text=True, timeout=120, check=True).stdout
        assert "--max-connections N" in shown and "--max-connections-per-client N" in shown, \
            (argv, shown)
    refused = subprocess.run([sys.executable, "-m", "rewards", "serve", "--max-connections",
                              "10", "--max-connections-per-client", "11", "--port", "0"],
                             capture_output=True, text=True, timeout=120, check=False,
                             env={k: v for k, v in os.environ.items()  # the bundled config,
                                  if k != "REWARDS_CONFIG"})  # whatever the caller's env says
    assert refused.returncode != 0
    assert "--max-connections-per-client 11 is more than --max-connections (10)" \
        in refused.stderr, refused.stderr
