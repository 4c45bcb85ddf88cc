"""Reading and parsing a JSON request body: the one piece of code through which all three of
our HTTP servers (`rewards serve`, `rewards sandbox serve`, the environment server) take a
request, so that they share one set of guarantees (docs/servers.md):

- Bytes: one body is at most `max_bytes`; the bodies of all requests in the server (read,
  waiting their turn or running) hold at most `max_held` bytes together.
- Deadlines: a body must keep arriving at `MIN_BYTES_PER_S` (1 MiB/s), after a grace of
  `read_timeout_s` (the body's n-th byte by `read_timeout_s + n / MIN_BYTES_PER_S` after it
  began): one that falls behind gets 408. Every read waits at most until then.
- Slow clients: a body that says its length reserves it before it is read (first come, first
  served; honest clients are delayed, never refused), but keeps that reservation only while it
  arrives on time (`PACE_GRACE_S + n / MIN_BYTES_PER_S`); one that falls behind keeps only
  the bytes it has sent, the rest goes back to the others, and it is read on like a body sent
  in chunks without a length: charged as it arrives, 503 (`Retry-After`) past the bound. So a
  client that declares 64 MiB and sends a byte a second holds a few bytes, never the server.
- Work: the body is counted (JSON values, at most `max_values`) before it is parsed, and
  parsed (then its nesting checked against `max_depth`) in one worker thread, never on the
  event loop, once it is over `INLINE_BYTES`; one at a time, so the transient copies of
  parsing are those of one body. The parsed value replaces the bytes: the app reads it with
  `parsed_body(scope)` and never reads the body again.

The middleware answers 413 (bytes or values), 400 (nesting), 408 (deadline) and 503 (room)
itself; a body that is not JSON is left to the app (`parsed_body` raises `InputError`),
which answers in its own protocol's shape."""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from rewards.errors import ConfigError, InputError

__all__ = ["DEFAULT_MAX_HELD_BYTES", "DEFAULT_MAX_VALUES", "INLINE_BYTES", "MAX_DEPTH",
           "MIN_BYTES_PER_S", "PACE_GRACE_S", "PARSED_KEY", "READ_TIMEOUT_S", "BodyBounds", "BodyLimit",
           "BodyRefused", "check_bounds", "count_values", "parse_json", "parse_message",
           "parsed_body", "refuse"]

DEFAULT_MAX_HELD_BYTES = 64 << 20
"""The servers' default bound on the request bodies held at once (`--max-held-mb 64`)."""
DEFAULT_MAX_VALUES = 100_000
"""The most JSON values (keys included) one body may hold: about 10 MB of objects once
parsed at most, whatever its bytes (a 15 MB body of `[0,0,...]` would otherwise be 7.5
million objects, about 600 MB)."""
MAX_DEPTH = 64
"""The deepest nesting of lists and objects a request body may have."""
READ_TIMEOUT_S = 10.0
"""How long a body may lag behind `MIN_BYTES_PER_S` before it gets 408."""
MIN_BYTES_PER_S = 1 << 20
"""The slowest a body may arrive, after its grace."""
PACE_GRACE_S = 0.1
"""How long a body that reserved its declared length may lag behind `MIN_BYTES_PER_S` before
it loses the reservation of what it has not sent."""
INLINE_BYTES = 64 << 10
"""Bodies up to this size are parsed on the event loop (well under a millisecond); larger
ones in the parser thread."""
PARSED_KEY = "rewards.json"
"""The ASGI scope key that carries the parsed body (or the `InputError` of one that is not
JSON) from the middleware to the app."""

_PARSER = ThreadPoolExecutor(1, thread_name_prefix="body-parser")
_CHUNK = 1 << 20  # bytes counted per step: the GIL is held a few milliseconds at a time
_STRUCTURAL = (b",", b":", b"[", b"{")
_STRING = re.compile(rb'"[^"]*"')


@dataclass(frozen=True)
class BodyBounds:
    """What a server takes of a request body (the module docstring says what each does)."""

    max_bytes: int
    """Largest body, in bytes (more: 413)."""
    max_held: int = DEFAULT_MAX_HELD_BYTES
    """Most body bytes held at once by the requests in the server; at least `max_bytes`."""
    max_values: int = DEFAULT_MAX_VALUES
    """Most JSON values in one body, object keys included (more: 413)."""
    max_depth: int = MAX_DEPTH
    """Deepest nesting of lists and objects (more: 400)."""
    read_timeout_s: float = READ_TIMEOUT_S
    """Grace before a body that arrives slower than `MIN_BYTES_PER_S` gets 408."""

    def __post_init__(self) -> None:
        check_bounds(self.max_bytes, self.max_held)
        for name in ("max_values", "max_depth", "read_timeout_s"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"{name} must be positive, got {getattr(self, name)!r}")

    def describe(self) -> str:
        """One line for the start-up print."""
        return (f"bodies: at most {_mib(self.max_bytes)} each, {_mib(self.max_held)} held at "
                f"once, {self.max_values:,} JSON values, nesting {self.max_depth}; "
                f"read at >= 1 MiB/s after {self.read_timeout_s:g} s")


def _mib(n: int) -> str:
    return f"{n / (1 << 20):g} MiB"


def check_bounds(max_bytes: int, max_held: int, *,
                 names: tuple[str, str] = ("max_bytes", "max_held")) -> None:
    """`ConfigError` unless 0 < `max_bytes` <= `max_held` (a body over `max_held` would wait
    for room for ever); `names` are the two settings as the caller's user knows them."""
    for name, value in zip(names, (max_bytes, max_held)):
        if not value > 0:
            raise ConfigError(f"{name} must be positive, got {value!r}")
    if max_held < max_bytes:
        raise ConfigError(f"{names[1]} ({max_held}) is under {names[0]} ({max_bytes})")


# --- counting and parsing (pure; run in the parser thread for large bodies) ---------------

def count_values(data: bytes | bytearray, limit: int) -> int:
    """How many JSON values `data` holds, counted as its commas, colons and opening brackets
    outside strings, plus one (an upper bound: every value but the first follows a comma, a
    colon or a bracket); counting stops once past `limit`. Linear time, a megabyte at a
    time, never more than a megabyte copied; exact up to the first byte that is not JSON."""
    upper = 1
    for start in range(0, len(data), _CHUNK):
        upper += sum(data.count(c, start, start + _CHUNK) for c in _STRUCTURAL)
    if upper <= limit:  # the bound with strings included already fits: nothing to strip
        return upper
    return _count_outside_strings(data, limit)


def _count_outside_strings(data: bytes | bytearray, limit: int) -> int:
    """`count_values` with strings left out (escapes removed first, then whole strings)."""
    total, inside, start = 1, False, 0
    while start < len(data) and total <= limit:
        end = min(len(data), start + _CHUNK)
        while end < len(data) and data[end - 1] == 0x5C:  # a run of backslashes and the
            end += 1                                      # byte after it stay together
        piece = bytes(data[start:end])
        if b"\\" in piece:  # escapes pair up left to right: `\\` first, then `\"`
            piece = piece.replace(b"\\\\", b"").replace(b'\\"', b"")
        outside = _STRING.sub(b"", b'"' + piece if inside else piece)
        cut = outside.find(b'"')  # at most one quote is left: a string still open
        inside = cut >= 0
        if inside:
            outside = outside[:cut]
        total += sum(outside.count(c) for c in _STRUCTURAL)
        start = end
    return total


def parse_json(data: bytes | bytearray, *, max_values: int, max_depth: int) -> Any:
    """The JSON value of `data`, counted before it is parsed (`count_values`), its nesting
    checked after. Raises `_TooLarge` (413) over `max_values`, `_TooDeep` (400) past
    `max_depth`, `InputError` (field `body`) for a body that is not JSON."""
    values = count_values(data, max_values)
    if values > max_values:
        raise _TooLarge(f"request body over {max_values:,} JSON values")
    try:
        value = json.loads(data)
    except RecursionError as exc:
        raise _TooDeep(f"request body nested deeper than {max_depth} levels") from exc
    except ValueError as exc:  # not JSON, or not UTF-8 (UnicodeDecodeError)
        raise InputError(str(exc), field="body") from exc
    stack = [(value, 1)]
    while stack:  # iterative: a deep body cannot recurse here; at most max_values steps
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > max_depth:
                raise _TooDeep(f"request body nested deeper than {max_depth} levels")
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict)
                                                  else item))
    return value


class BodyRefused(Exception):
    """A body (or WebSocket message) past a bound; `status` is the HTTP answer."""

    status = 400


class _TooLarge(BodyRefused):
    """A body over a bound of its size (413)."""

    status = 413


class _TooDeep(BodyRefused):
    """A body nested too deep (400)."""

    status = 400


def parsed_body(scope: Any) -> Any:
    """The request's JSON body as `BodyLimit` parsed it; `InputError` (field `body`) when it
    is not JSON. Only for requests that passed through `BodyLimit`."""
    if PARSED_KEY not in scope:
        raise InputError("the request has no body", field="body")
    value = scope[PARSED_KEY]
    if isinstance(value, InputError):
        raise value
    return value


# --- the middleware ------------------------------------------------------------------------

class _Timeout(Exception):
    """The body fell behind its deadline."""


class BodyLimit:
    """ASGI middleware: reads, bounds and parses every request body (the module docstring);
    the app gets the parsed value under `PARSED_KEY` and an empty body to read."""

    def __init__(self, app: Any, *, bounds: BodyBounds) -> None:
        self.app = app
        self.bounds = bounds
        self.held = 0  # one event loop: changed only between awaits
        self._room: asyncio.Condition | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not _has_body(scope):
            await self.app(scope, receive, send)
            return
        bounds = self.bounds
        length = dict(scope["headers"]).get(b"content-length")
        declared = int(length) if length is not None and length.isdigit() else None
        if declared is not None and declared > bounds.max_bytes:
            await refuse(send, 413, f"request body over {bounds.max_bytes} bytes")
            return
        room = self._room = self._room or asyncio.Condition()
        reading = _Reading(self, room)
        try:
            if declared is not None:
                async with room:  # first come, first served: waiters are woken in order
                    await room.wait_for(lambda: self.held + declared <= bounds.max_held)
                    self.held += declared
                reading.reserved = reading.paced = declared
            body = await reading.read(receive)
            if isinstance(body, tuple):
                await refuse(send, *body)
                return
            try:
                scope[PARSED_KEY] = await _parse(body, bounds)
            except InputError as exc:
                scope[PARSED_KEY] = exc
            except _TooLarge as exc:
                await refuse(send, 413, str(exc))
                return
            except _TooDeep as exc:
                await refuse(send, 400, str(exc))
                return
            finally:
                del body  # the parsed value replaces the bytes

            given = False

            async def empty() -> Any:  # the app reads nothing: the value is in the scope
                nonlocal given
                if given:  # after the body: what the client does next (a disconnect)
                    return await receive()
                given = True
                return {"type": "http.request", "body": b"", "more_body": False}

            await self.app(scope, empty, send)
        finally:
            reading.close()
            if reading.reserved:
                async with room:
                    self.held -= reading.reserved
                    room.notify_all()


def _has_body(scope: Any) -> bool:
    headers = dict(scope["headers"])
    if b"transfer-encoding" in headers:
        return True
    length = headers.get(b"content-length")
    return scope.get("method") not in ("GET", "HEAD", "OPTIONS") or \
        (length is not None and length not in (b"0",))


class _Reading:
    """One body being read: its reservation, its deadlines, its bytes."""

    def __init__(self, limit: BodyLimit, room: asyncio.Condition) -> None:
        self.limit = limit
        self.room = room
        self.reserved = 0
        self.paced: int | None = None  # the declared length, while it keeps its reservation
        self.pending: asyncio.Future[Any] | None = None

    async def read(self, receive: Any) -> bytearray | tuple[int, str, list[Any]]:
        """The body, or (status, detail, headers) of the refusal to send instead."""
        bounds = self.limit.bounds
        loop = asyncio.get_running_loop()
        start = loop.time()
        body = bytearray()
        more = True
        while more:
            try:
                message = await self._next(receive, start, len(body))
            except _Timeout:
                return 408, "the request body did not arrive in time", []
            if message["type"] != "http.request":  # the client went away
                return 400, "the client went away", []
            chunk = message.get("body", b"")
            body += chunk
            more = message.get("more_body", False)
            if len(body) > bounds.max_bytes:
                return 413, f"request body over {bounds.max_bytes} bytes", []
            if self.paced is None and chunk:  # charged as it arrives
                self.reserved += len(chunk)
                self.limit.held += len(chunk)
                if self.limit.held > bounds.max_held:
                    detail = (f"the server holds {bounds.max_held} bytes of waiting requests: "
                              "retry later")
                    return 503, detail, [(b"retry-after", b"1")]
        return body

    async def _next(self, receive: Any, start: float, received: int) -> Any:
        """The next message of the body, by its deadline. A body that reserved its length
        and falls behind its pace first gives back what it has not sent."""
        loop = asyncio.get_running_loop()
        if self.pending is None:
            self.pending = asyncio.ensure_future(receive())
        lag = received / MIN_BYTES_PER_S
        while True:
            grace = PACE_GRACE_S if self.paced is not None else self.limit.bounds.read_timeout_s
            wait = start + grace + lag - loop.time()
            await asyncio.wait({self.pending}, timeout=max(wait, 0.0))
            for _ in range(3):  # bytes that came while this loop was busy (a parse holding
                if self.pending.done():  # the GIL) are the client's on time, not late
                    break
                await asyncio.sleep(0)
            if self.pending.done():
                message, self.pending = self.pending.result(), None
                return message
            if self.paced is None:
                raise _Timeout
            await self._give_back(received)

    async def _give_back(self, received: int) -> None:
        """Keep only the `received` bytes reserved: the rest of the declared length goes
        back to the requests waiting for room; from now on bytes are charged as they come."""
        async with self.room:
            self.limit.held -= self.reserved - received
            self.reserved, self.paced = received, None
            self.room.notify_all()

    def close(self) -> None:
        if self.pending is not None and not self.pending.done():
            self.pending.cancel()


async def _parse(body: bytes | bytearray, bounds: BodyBounds) -> Any:
    """`parse_json` of `body`, in the parser thread when it is over `INLINE_BYTES`."""
    if len(body) <= INLINE_BYTES:
        return parse_json(body, max_values=bounds.max_values, max_depth=bounds.max_depth)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(
        _PARSER, lambda: parse_json(body, max_values=bounds.max_values,
                                    max_depth=bounds.max_depth))


async def parse_message(data: str | bytes, bounds: BodyBounds) -> Any:
    """One WebSocket message's JSON, under the bounds of a request body: at most
    `bounds.max_bytes` bytes and `max_values` values (413), `max_depth` deep (400), counted
    before it is parsed and parsed in the parser thread when over `INLINE_BYTES`. Raises
    `BodyRefused` (its `status`) or `InputError` (not JSON). The server's `ws_max_size`
    (`integrations._http.uvicorn_options`) already refused a larger message unread."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > bounds.max_bytes:
        raise _TooLarge(f"message over {bounds.max_bytes} bytes")
    return await _parse(raw, bounds)


async def refuse(send: Any, status: int, detail: str,
                 headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer `status` with a JSON `{"detail": ...}` body, the app never called."""
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})
