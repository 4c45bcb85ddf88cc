"""The request-body bound shared by our HTTP servers (`rewards serve`, `rewards sandbox
serve`): one request's body is at most `max_bytes`, and the bodies of all requests in the
server (read, waiting their turn or running) at most `max_held` bytes together, so clients
that send many large requests at once cannot grow the server without bound, and the requests
of other clients are delayed, never refused."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from rewards.errors import ConfigError

__all__ = ["DEFAULT_MAX_HELD_BYTES", "BodyLimit", "check_bounds", "refuse"]

DEFAULT_MAX_HELD_BYTES = 64 << 20
"""The servers' default bound on the request bodies held at once (`--max-held-mb 64`)."""


def check_bounds(max_bytes: int, max_held: int, *,
                 names: tuple[str, str] = ("max_bytes", "max_held")) -> None:
    """`ConfigError` unless 0 < `max_bytes` <= `max_held` (a body over `max_held` would wait
    for room for ever); `names` are the two settings as the caller's user knows them."""
    for name, value in zip(names, (max_bytes, max_held)):
        if not value > 0:
            raise ConfigError(f"{name} must be positive, got {value!r}")
    if max_held < max_bytes:
        raise ConfigError(f"{names[1]} ({max_held}) is under {names[0]} ({max_bytes})")


class BodyLimit:
    """ASGI middleware: a request body over `max_bytes` gets 413 before the app reads it, by
    its Content-Length or, sent in chunks, once the chunks pass the limit.

    The bodies of all requests in the server (read, waiting their turn or running) hold at
    most `max_held` bytes together. A request that says its length waits, unread, until its
    bytes fit (the transport stops reading it meanwhile: its bytes wait in the client and
    the socket, not here), so honest clients are delayed, never refused (veRL's client reads
    any refusal but a 504 as a sandbox error). A body sent in chunks without a length, which
    could otherwise hold room while waiting for more, gets 503 (`Retry-After`) once the held
    bytes pass the bound. Bytes are given back when the reply has been sent."""

    def __init__(self, app: Any, *, max_bytes: int, max_held: int) -> None:
        check_bounds(max_bytes, max_held)
        self.app = app
        self.max_bytes = max_bytes
        self.max_held = max_held
        self.held = 0  # one event loop: changed only between awaits
        self._room: asyncio.Condition | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        declared = int(length) if length is not None and length.isdigit() else None
        if declared is not None and declared > self.max_bytes:
            await refuse(send, 413, f"request body over {self.max_bytes} bytes")
            return
        room = self._room = self._room or asyncio.Condition()
        reserved = 0
        try:
            if declared is not None:
                async with room:  # first come, first served: waiters are woken in order
                    await room.wait_for(lambda: self.held + declared <= self.max_held)
                    self.held += declared
                reserved = declared
            chunks: list[bytes] = []
            size, more = 0, True
            while more:
                message = await receive()
                if message["type"] != "http.request":  # the client went away
                    return
                chunks.append(message.get("body", b""))
                size += len(chunks[-1])
                more = message.get("more_body", False)
                if size > self.max_bytes:
                    await refuse(send, 413, f"request body over {self.max_bytes} bytes")
                    return
                if declared is None:
                    self.held += len(chunks[-1])
                    reserved += len(chunks[-1])
                    if self.held > self.max_held:
                        await refuse(send, 503, f"the server holds {self.max_held} bytes of "
                                                "waiting requests: retry later",
                                     [(b"retry-after", b"1")])
                        return
            body = b"".join(chunks)
            chunks.clear()
            replayed = False

            async def replay() -> Any:
                nonlocal replayed
                if replayed:
                    return await receive()
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}

            await self.app(scope, replay, send)
        finally:
            if reserved:
                async with room:
                    self.held -= reserved
                    room.notify_all()


async def refuse(send: Any, status: int, detail: str,
                 headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer `status` with a JSON `{"detail": ...}` body, the app never called."""
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})
