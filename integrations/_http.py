"""What our three HTTP servers (`rewards serve`, `rewards sandbox serve`, the environment
server) share, so that they give one set of guarantees (docs/servers.md): the token checked
before anything else (`integrations._auth`), then every request body read, bounded and
parsed off the event loop (`integrations._body`), the connections each client may hold
(`ConnectionCaps`, enforced with the header deadline by `guarded_protocol`), and the line
each prints when it starts."""

from __future__ import annotations

import functools
import ipaddress
import json
import os
import resource
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from integrations._auth import QUERY_PARAMETER, BearerToken
from integrations._body import BodyBounds, BodyLimit
from rewards.deps import require
from rewards.errors import ConfigError

__all__ = ["MAX_CONNECTIONS_HELP", "MAX_CONNECTIONS_PER_CLIENT_HELP", "ConnectionCaps",
           "Shares", "client_key", "client_share", "free_descriptors", "guard",
           "guarded_protocol", "json_response", "peer_key", "run_server", "startup_line",
           "uvicorn_options"]

MAX_DEFAULT_CONNECTIONS = 8192
"""The ceiling of the derived default of `--max-connections` (a machine with a million
descriptors still holds no more than this many idle sockets unless asked)."""
_REFUSED = b"too many connections from this client or in all\n"
REFUSAL = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
           b"retry-after: 1\r\nconnection: close\r\n"
           b"content-length: %d\r\n\r\n" % len(_REFUSED) + _REFUSED)
"""What a connection past a cap gets, written before a byte of it is read; then it closes."""
MAX_CONNECTIONS_HELP = ("connections held at once; past it a new one replaces the one waiting "
                        "longest for a request, else gets 503 (default: half the descriptors "
                        "free at start, at most 8192; docs/servers.md)")
MAX_CONNECTIONS_PER_CLIENT_HELP = ("connections one client address holds at once (all of "
                                   "loopback is one client); past it as --max-connections "
                                   "(default: half of --max-connections)")


def free_descriptors() -> int:
    """Descriptors this process may still open: the soft RLIMIT_NOFILE (`ulimit -n`) less
    those open now (counted in /proc/self/fd; none where that is missing)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    try:
        open_now = len(os.listdir("/proc/self/fd")) - 1  # less listdir's own
    except OSError:
        open_now = 0
    return max(0, soft - open_now)


def client_share(total: int, per_client: int | None = None, *,
                 names: tuple[str, str] = ("total", "per_client")) -> int:
    """What one client may hold of a table of `total` places (connections, episodes, ROLL
    tasks, ORS sessions): `per_client`, or by default half the total (at least 1), so that
    one client never holds every place and another always finds room. The one rule of every
    per-client share (docs/servers.md, "One client never starves another"); a share that is
    not a positive integer, or past the total, is a `ConfigError` naming the options."""
    if per_client is None:
        return max(1, total // 2)
    if isinstance(per_client, bool) or not isinstance(per_client, int) or per_client < 1:
        raise ConfigError(f"{names[1]} must be a positive integer, not {per_client!r}")
    if per_client > total:
        raise ConfigError(f"{names[1]} {per_client} is more than {names[0]} ({total})")
    return per_client


def peer_key(scope: Any) -> str:
    """`client_key` of a request's or WebSocket's TRANSPORT peer (`scope["client"]`, which
    uvicorn takes from the socket: `uvicorn_options` turns its proxy headers off, so no
    `X-Forwarded-For` can name another client)."""
    return client_key(scope.get("client"))


class Shares:
    """How many places of one table (`total`) each client holds, at most `per_client`
    (`client_share`), and which held entry gives way for a new one: past the client's share,
    the client's own oldest entry that may give way (finished or idle, as the table says);
    at the total, anyone's oldest that may; else none may, and the table answers "busy"
    (503, errcode 2, CAPACITY_REACHED) to that client alone while other clients still find
    room. The tables keep their own lock (or their one event loop); this is their count."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total, self.per_client = total, per_client
        self.count: dict[str, int] = {}
        self.size = 0

    def room(self, key: str, held: Iterable[tuple[Any, str]],
             may_give_way: Callable[[Any], bool]) -> Any:
        """Which entry must give way before client `key` adds one: `held` are the held
        entries oldest first as (id, its client), `may_give_way(id)` the table's rule (its
        finished or idle ones); `Shares.NOTHING` when there is room already; `Shares.FULL`
        when none may give way."""
        if self.count.get(key, 0) >= self.per_client:
            return next((k for k, owner in held if owner == key and may_give_way(k)),
                        Shares.FULL)
        if self.size >= self.total:
            return next((k for k, _ in held if may_give_way(k)), Shares.FULL)
        return Shares.NOTHING

    def add(self, key: str) -> None:
        self.count[key] = self.count.get(key, 0) + 1
        self.size += 1

    def remove(self, key: str) -> None:
        self.size -= 1
        self.count[key] -= 1
        if not self.count[key]:
            del self.count[key]

    NOTHING: Any = object()
    """`room`'s answer when nothing needs to give way."""
    FULL: Any = object()
    """`room`'s answer when nothing may give way: the client is answered "busy"."""


@dataclass(frozen=True)
class ConnectionCaps:
    """How many connections a server holds (`--max-connections`) and how many of them one
    client may hold (`--max-connections-per-client`); a client is an address as
    `client_key` reads it (all of loopback is one client: the machine's own processes).

    The rule (docs/servers.md): by default the server holds at most half the descriptors
    free when it starts (at most `MAX_DEFAULT_CONNECTIONS`), so the other half stays for
    what it opens while serving (worker pipes, sandbox runs, files); one client holds at
    most half of those, so another always finds room one client cannot take. At
    `ulimit -n 1024` that is about 500 connections and 250 per client: 64 trainer
    processes on one node (each a connection to /get_reward) fit four times over. When a
    cap is reached, a new connection takes the place of the connection that has waited
    longest for a request (idle, or its request's headers not yet complete: the client's
    time, never a request being answered), the client's own at its cap, anyone's at the
    total; with none waiting it gets 503 and is closed, unread."""

    total: int
    per_client: int

    @classmethod
    def resolve(cls, total: int | None = None, per_client: int | None = None, *,
                free: int | None = None) -> ConnectionCaps:
        """The caps from the two options (None: the default the rule derives from `free`,
        the descriptors free now). A cap past the free descriptors, or a per-client cap
        past the total, is a `ConfigError` naming the option."""
        free = free_descriptors() if free is None else free
        for name, value in (("--max-connections", total),
                            ("--max-connections-per-client", per_client)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < 1):
                raise ConfigError(f"{name} must be a positive integer, not {value!r}")
        if total is None:
            total = max(2, min(MAX_DEFAULT_CONNECTIONS, free // 2))
        elif total > free:
            raise ConfigError(f"--max-connections {total}: only {free} descriptors are free "
                              "(ulimit -n less those open); raise ulimit -n or ask fewer")
        return cls(total=total, per_client=client_share(
            total, per_client, names=("--max-connections", "--max-connections-per-client")))

    def describe(self) -> str:
        return (f"connections: at most {self.total:,}, {self.per_client:,} per client "
                "address (loopback is one client)")


def client_key(peer: Any) -> str:
    """Whom a connection counts against, from its peer address: an IPv4 address; an IPv6
    one's /64 (one subscriber's network: a client holding one holds 2**64 addresses); the
    IPv4 address inside an IPv4-mapped IPv6 one (a dual-stack socket's view of an IPv4
    client); "loopback" for every loopback address (127.0.0.0/8 and ::1 are all this
    machine: a local process can bind any of them); "local" without an IP address (a Unix
    socket)."""
    host = peer[0] if isinstance(peer, (tuple, list)) and peer else peer
    if not isinstance(host, str):
        return "local"
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return "local"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return "loopback"
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class _Held:
    """The connections one server holds, counted by client, and those waiting for a request
    (opened, or last answered) in the order they began to wait, per client and in all: the
    bookkeeping of `ConnectionCaps`, on the event loop's thread only."""

    def __init__(self, caps: ConnectionCaps) -> None:
        self.caps = caps
        self.count: dict[str, int] = {}
        self.waiting: dict[str, OrderedDict[Any, None]] = {}  # per client, longest first
        self.all_waiting: OrderedDict[Any, None] = OrderedDict()  # every client's
        self.total = 0

    def admit(self, conn: Any, key: str) -> bool:
        """Count `conn` against `key`, first closing the connection that has waited longest
        where a cap is reached; False (not counted) when none is waiting to give way."""
        if self.count.get(key, 0) >= self.caps.per_client \
                and not self._evict(self.waiting.get(key)):
            return False
        if self.total >= self.caps.total and not self._evict(self.all_waiting):
            return False
        conn._held_key = key
        self.count[key] = self.count.get(key, 0) + 1
        self.total += 1
        return True

    def wait(self, conn: Any) -> None:
        """`conn` starts to wait for a request (it opened, or its response is complete)."""
        key = conn._held_key
        if key is None:
            return
        for order in (self.waiting.setdefault(key, OrderedDict()), self.all_waiting):
            order[conn] = None
            order.move_to_end(conn)

    def release(self, conn: Any) -> None:
        """`conn` closed (or gives way): it no longer counts."""
        key = conn._held_key
        if key is None:
            return
        self._unlist(conn, key)
        conn._held_key = None
        self.total -= 1
        self.count[key] -= 1
        if not self.count[key]:
            del self.count[key]

    def _evict(self, order: OrderedDict[Any, None] | None) -> bool:
        """Close the first connection of `order` still waiting for a request; one found
        answering a request leaves the order (`wait` puts it back once it is answered)."""
        while order:
            conn = next(iter(order))
            if conn.waiting_for_request():
                self.release(conn)
                conn.transport.close()
                return True
            self._unlist(conn, conn._held_key)
        return False

    def _unlist(self, conn: Any, key: str) -> None:
        waiting = self.waiting.get(key)
        if waiting is not None:
            waiting.pop(conn, None)
            if not waiting:
                del self.waiting[key]
        self.all_waiting.pop(conn, None)


def guard(app: Any, *, bounds: BodyBounds, token: str | None) -> None:
    """Add the body bounds and (outermost, so a request without it is refused before its
    body is read) the token to a FastAPI `app`."""
    app.add_middleware(BodyLimit, bounds=bounds)
    if token is not None:
        app.add_middleware(BearerToken, token=token)
    app.state.bounds = bounds


@functools.cache
def json_response() -> type:
    """The JSON response class of our servers (`JSONResponse(content, status_code=...)` and
    each app's `default_response_class`): starlette's, except that a reply holding a lone
    surrogate is written with `\\u` escapes. A reply may carry a client's text (`/verify`
    echoes its request, an error names a value, an observation quotes an action), and JSON's
    `"\\ud800"` parses to a lone surrogate, which UTF-8 cannot encode: starlette's own class
    answered 500 for the model's output, never the 0 it scores. Other text stays UTF-8
    (escaping all of it would triple a reply of non-Latin text)."""
    responses = require("fastapi.responses", extra="server", feature="our HTTP servers")

    class JSONResponse(responses.JSONResponse):  # type: ignore[misc, name-defined]
        def render(self, content: Any) -> bytes:
            text = json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                              separators=(",", ":"))
            try:
                return text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: escape, as JSON allows
                return json.dumps(content, ensure_ascii=True, allow_nan=False, indent=None,
                                  separators=(",", ":")).encode("ascii")

    return JSONResponse


def startup_line(name: str, *, host: str, port: int, routes: Sequence[str],
                 token: str | None, bounds: BodyBounds,
                 connections: ConnectionCaps | None = None) -> str:
    """What a server prints when it starts: where, which routes, whether a token guards it,
    its body bounds and its connection caps."""
    where = f"[{host}]" if ":" in host else host
    guarded = (f"token required (Authorization: Bearer, X-API-Key, or ?{QUERY_PARAMETER}=)"
               if token is not None else "no token: anyone who reaches the port may call it")
    caps = f"; {connections.describe()}" if connections is not None else ""
    return (f"{name}: serving http://{where}:{port} ({', '.join(routes)}); {guarded}; "
            f"{bounds.describe()}{caps}")


def run_server(app: Any, name: str, *, host: str, port: int, routes: Sequence[str],
               token: str | None, log_level: str = "info", max_connections: int | None = None,
               max_connections_per_client: int | None = None,
               websockets: bool = False) -> None:
    """Serve `app` with uvicorn until interrupted; once the app has started (its pools and
    workers hold their descriptors), print the start-up line (stderr). `websockets`: the
    app serves WebSocket routes (`uvicorn_options`).
    `max_connections`, `max_connections_per_client`: `ConnectionCaps` (None: derived from
    the descriptors free once the app has started)."""
    uvicorn = require("uvicorn", extra="server", feature=name)
    # a bad option stops the server before anything starts; derived caps are counted again
    # once the app's start-up has opened what it keeps
    options = uvicorn_options(app.state.bounds, websockets=websockets,
                              caps=ConnectionCaps.resolve(max_connections,
                                                          max_connections_per_client))
    protocol = options["http"]

    def started() -> None:
        caps = ConnectionCaps.resolve(max_connections, max_connections_per_client)
        protocol.held.caps = caps
        print(startup_line(name, host=host, port=port, routes=routes, token=token,
                           bounds=app.state.bounds, connections=caps),
              file=sys.stderr, flush=True)

    uvicorn.run(_after_startup(app, started), host=host, port=port, log_level=log_level,
                access_log=False, **options)


def uvicorn_options(bounds: BodyBounds, *, caps: ConnectionCaps | None = None,
                    websockets: bool = False) -> dict[str, Any]:
    """The uvicorn settings every server of ours runs under: `guarded_protocol` (the header
    and first-byte deadlines, the connection caps). WebSockets only where the server serves
    them (`websockets`; else an upgrade request is answered as plain HTTP), with messages
    bounded as request bodies (`ws_max_size`: a larger message closes the connection, 1009,
    before it is held; `integrations._body.parse_message` bounds the rest; one message
    queued per connection, not uvicorn's 32), and pings that close a connection whose peer
    stopped answering. An upgraded connection keeps its place in the caps until it closes.
    Proxy headers off (uvicorn reads `X-Forwarded-For` from 127.0.0.1 by default): the
    client a request counts against (`peer_key`) is the socket's peer, so a local process
    cannot name another client and take its share."""
    options: dict[str, Any] = {"http": guarded_protocol(bounds.read_timeout_s, caps),
                               "proxy_headers": False}
    if websockets:
        options.update(ws_max_size=bounds.max_bytes, ws_max_queue=1, ws_ping_interval=20.0,
                       ws_ping_timeout=20.0)
    else:
        options["ws"] = "none"
    return options


def _after_startup(app: Any, started: Any) -> Any:
    """`app`, calling `started()` when its ASGI lifespan start-up completes: after the app
    has started and before uvicorn listens (uvicorn binds only once start-up is done)."""
    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return

        async def sending(message: Any) -> None:
            if message["type"] == "lifespan.startup.complete":
                started()
            await send(message)
        await app(scope, receive, sending)
    return wrapped


def guarded_protocol(seconds: float, caps: ConnectionCaps | None = None,
                     base: type | None = None) -> type:
    """uvicorn's HTTP protocol class (httptools or h11, as it picks) with what uvicorn lacks
    against clients that hold connections (docs/servers.md). `base`: the uvicorn protocol
    class to extend (default: the one uvicorn picks).

    - A deadline on headers: a connection whose next request's headers are not complete
      `seconds` after it opened, or after its last response, is closed. uvicorn has none
      (its keep-alive timer runs only after a response, and the next byte cancels it), and
      `BodyLimit`'s deadlines start only once the headers are in: a client that trickled a
      header line a second held its connection for ever (slowloris).
    - A deadline on the first byte: uvicorn's keep-alive timer (`timeout_keep_alive`, 5 s
      by default), armed when the connection opens as uvicorn arms it after a response, so a
      connection that never sends a byte is closed as an idle kept-alive one is.
    - `caps` (one count per server, shared by its connections): a connection past a cap
      takes the place of the connection that has waited longest for a request (the
      client's own at the per-client cap, anyone's at the total), or, with none waiting,
      is answered 503 and closed before a byte of it is read. A request being answered is
      never cut. Without them a client that opened as many connections as the server has
      descriptors starved every other until the deadlines freed them."""
    if base is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol as base
    held = _Held(caps) if caps is not None else None

    # `base` is a class chosen at run time (a parameter): mypy takes only a static base
    class Guarded(base):  # type: ignore[misc, valid-type]
        _deadline: Any = None
        _waiting_for: Any = None  # the request cycle current when the deadline was set
        _held_key: str | None = None  # the client it counts against; None: not counted

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if held is not None and not held.admit(
                    self, client_key(transport.get_extra_info("peername"))):
                transport.write(REFUSAL)  # unread: closing flushes this, then the socket
                transport.close()
                return
            self._arm()
            self.timeout_keep_alive_task = self.loop.call_later(  # the first byte's deadline
                self.timeout_keep_alive, self.timeout_keep_alive_handler)

        def on_response_complete(self) -> None:
            super().on_response_complete()  # may start a pipelined request's cycle
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if held is not None:
                held.release(self)
            if self._deadline is not None:
                self._deadline.cancel()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self, *args: Any) -> None:
            """The connection becomes a WebSocket (only where `uvicorn_options` enables
            them): its close now goes to the WebSocket protocol, so that protocol releases
            its place in the caps (left counted, a client that upgraded as many
            connections as its cap was refused ever after). Upgraded, it is never made
            room from (`waiting_for_request`) and its header deadline no longer applies."""
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            super().handle_websocket_upgrade(*args)
            upgraded = self.transport.get_protocol()
            if held is not None and upgraded is not self:
                lost = upgraded.connection_lost

                def released(exc: Exception | None) -> None:
                    held.release(self)
                    lost(exc)
                upgraded.connection_lost = released

        def waiting_for_request(self) -> bool:
            """No request of it is being answered: it is idle, or the client has not yet
            sent a whole request's headers (the client's time, not the app's)."""
            cycle = self.cycle
            return (cycle is None or cycle.response_complete) \
                and not self.transport.is_closing() and self.transport.get_protocol() is self

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._waiting_for = self.cycle
            self._deadline = self.loop.call_later(seconds, self._expire)
            if held is not None:
                held.wait(self)

        def _expire(self) -> None:
            """Close, unless a request came in since (a new cycle) or one is being
            answered (its cycle not complete: the app's time, not the client's)."""
            self._deadline = None
            if self.transport.get_protocol() is not self:  # upgraded (a websocket)
                return
            cycle = self.cycle
            if cycle is self._waiting_for and (cycle is None or cycle.response_complete) \
                    and not self.transport.is_closing():
                self.transport.close()

    Guarded.held = held  # the count its connections share (run_server sets its caps late)
    return Guarded
