"""What our three HTTP servers (`rewards serve`, `rewards sandbox serve`, the environment
server) share, so that they give one set of guarantees (docs/servers.md): the token checked
before anything else (`integrations._auth`), then every request body read, bounded and
parsed off the event loop (`integrations._body`), and the line each prints when it starts."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from integrations._auth import QUERY_PARAMETER, BearerToken
from integrations._body import BodyBounds, BodyLimit
from rewards.deps import require

__all__ = ["guard", "run_server", "startup_line", "uvicorn_options"]


def guard(app: Any, *, bounds: BodyBounds, token: str | None) -> None:
    """Add the body bounds and (outermost, so a request without it is refused before its
    body is read) the token to a FastAPI `app`."""
    app.add_middleware(BodyLimit, bounds=bounds)
    if token is not None:
        app.add_middleware(BearerToken, token=token)
    app.state.bounds = bounds


def startup_line(name: str, *, host: str, port: int, routes: Sequence[str],
                 token: str | None, bounds: BodyBounds) -> str:
    """What a server prints when it starts: where, which routes, whether a token guards it,
    and its body bounds."""
    where = f"[{host}]" if ":" in host else host
    guarded = (f"token required (Authorization: Bearer, or ?{QUERY_PARAMETER}=)"
               if token is not None else "no token: anyone who reaches the port may call it")
    return (f"{name}: serving http://{where}:{port} ({', '.join(routes)}); {guarded}; "
            f"{bounds.describe()}")


def run_server(app: Any, name: str, *, host: str, port: int, routes: Sequence[str],
               token: str | None, log_level: str = "info") -> None:
    """Print the start-up line (stderr), then serve `app` with uvicorn until interrupted."""
    uvicorn = require("uvicorn", extra="server", feature=name)
    print(startup_line(name, host=host, port=port, routes=routes, token=token,
                       bounds=app.state.bounds), file=sys.stderr, flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False,
                **uvicorn_options(app.state.bounds))


def uvicorn_options(bounds: BodyBounds) -> dict[str, Any]:
    """The uvicorn settings every server of ours runs under: the header deadline, and
    WebSocket messages bounded as request bodies (`ws_max_size`: a larger message closes
    the connection, 1009, before it is held; `integrations._body.parse_message` bounds the
    rest; one message queued per connection, not uvicorn's 32), with pings that close a
    connection whose peer stopped answering."""
    return {"http": header_deadline_protocol(bounds.read_timeout_s),
            "ws_max_size": bounds.max_bytes, "ws_max_queue": 1, "ws_ping_interval": 20.0,
            "ws_ping_timeout": 20.0}


def header_deadline_protocol(seconds: float, base: type | None = None) -> type:
    """uvicorn's HTTP protocol class (httptools or h11, as it picks), with a deadline on
    headers: a connection whose next request's headers are not complete `seconds` after it
    opened, or after its last response, is closed. uvicorn has none (its keep-alive timer
    runs only after a response, and the next byte cancels it), and `BodyLimit`'s deadlines
    start only once the headers are in: without it a client that trickles a header line a
    second holds its connection and descriptor for ever (slowloris), and enough such
    clients starve every other. `base`: the uvicorn protocol class to extend (default: the
    one uvicorn picks)."""
    if base is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol as base

    class HeaderDeadline(base):  # type: ignore[misc, valid-type]
        _deadline: Any = None
        _waiting_for: Any = None  # the request cycle current when the deadline was set

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()  # may start a pipelined request's cycle
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._waiting_for = self.cycle
            self._deadline = self.loop.call_later(seconds, self._expire)

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

    return HeaderDeadline
