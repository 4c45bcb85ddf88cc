"""OpenEnv's WebSocket (`/ws`) for the environment server (`integrations.env_server`): the
protocol openenv-core's `EnvClient` speaks (`openenv.core.env_server.http_server`'s
`/ws`), on the server's own reset, step and state.

A connection is a session: it holds one episode at a time (a reset replaces its own), which
no message names, so none reaches another connection's; the episode is dropped when the
connection closes. Connections are at most `max_connections`, `per_client` of them by one
client (`integrations._http.Shares`; an open connection never gives way: past a share the
next gets CAPACITY_REACHED); one silent for `idle_s` is closed. Messages are bounded as request bodies (`integrations._body.parse_message`; uvicorn's
`ws_max_size` from `integrations._http.uvicorn_options` refuses a larger one unread), and
the blocking work runs in a thread, never on the event loop. Replies are those of the HTTP
routes, errors OpenEnv's `WSErrorResponse` (`code`) with the HTTP `status` and `field`."""

# No `from __future__ import annotations` here: FastAPI reads the endpoint annotations
# (`WebSocket`, imported lazily) at definition time.
import asyncio
import json
from collections.abc import Callable
from typing import Any

from integrations._body import BodyBounds, BodyRefused, parse_message
from integrations._http import Shares, peer_key
from rewards.deps import require
from rewards.errors import InputError

__all__ = ["WS_CODES", "Refused", "add_websocket", "ws_error"]


class Refused(Exception):
    """A request the server answers with `status` (and, over the WebSocket, an error
    message): `error` says why and names the field."""

    def __init__(self, status: int, error: InputError,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(str(error))
        self.status, self.error, self.headers = status, error, headers


class StepRunning(InputError):
    """The episode has a step running (a second request on it at once): a 409 that says
    retry, never "the episode is over"."""


WS_CODES = {422: "VALIDATION_ERROR", 503: "CAPACITY_REACHED"}
"""OpenEnv's error code (`WSErrorCode`) for an HTTP status; any other is EXECUTION_ERROR."""


def add_websocket(app: Any, *, start: Callable[[Any, str], dict[str, Any]],
                  advance: Callable[[Any, Any], dict[str, Any]],
                  state_of: Callable[[Any], dict[str, Any]], drop: Callable[[str], None],
                  bounds: BodyBounds, max_connections: int, per_client: int,
                  idle_s: float) -> None:
    """Add `/ws` to the FastAPI `app`: `start(body, client)`, `advance(episode_id, action)` and
    `state_of(episode_id)` answer as the HTTP routes do (raising `Refused`); `drop(id)`
    forgets a connection's episode."""
    require("fastapi", extra="server", feature="the environment server")
    from fastapi import WebSocket, WebSocketDisconnect  # here: an annotation is read at its def
    sockets = Shares(max_connections, per_client)

    @app.websocket("/ws")
    async def websocket(socket: WebSocket) -> None:
        """OpenEnv's `EnvClient` protocol: one connection, one episode at a time (a reset
        replaces the connection's own episode); messages `{"type": "reset" | "step" |
        "state" | "close", "data": {...}}`, answered `{"type": "observation" | "state" |
        "error", "data": {...}}`. The episode is the connection's: no message names one."""
        await socket.accept()
        client = peer_key(socket.scope)
        if sockets.room(client, (), bool) is Shares.FULL:  # its first message gets the error, then
            try:                                       # 1013; an open one never gives way
                await asyncio.wait_for(socket.receive(), timeout=min(idle_s, 10.0))
                await socket.send_text(json.dumps(ws_error(Refused(503, InputError(
                    f"{max_connections} connections are open, or {per_client} of this "
                    "client's (its share): retry later")))))
                await socket.close(1013)
            except (asyncio.TimeoutError, WebSocketDisconnect, RuntimeError):
                pass
            return
        sockets.add(client)
        own: list[str] = []  # the id of the connection's episode, once reset
        try:
            while True:
                try:
                    message = await asyncio.wait_for(socket.receive(), timeout=idle_s)
                except asyncio.TimeoutError:
                    await socket.close(1001, "idle")
                    return
                if message["type"] == "websocket.disconnect":
                    return
                reply = await _answer(message.get("text") or message.get("bytes") or b"", own,
                                      client)
                if reply is None:
                    await socket.close(1000)
                    return
                try:  # a client that reads no reply holds its place for no longer than this
                    await asyncio.wait_for(socket.send_text(json.dumps(reply)),
                                           timeout=bounds.read_timeout_s)
                except asyncio.TimeoutError:
                    return  # uvicorn closes the connection; its place comes back below
        except WebSocketDisconnect:
            return
        finally:
            if own:
                drop(own[0])
            sockets.remove(client)

    async def _answer(data: str | bytes, own: list[str],
                      client: str) -> dict[str, Any] | None:
        """The reply to one WebSocket message (None: close)."""
        try:
            message = await parse_message(data, bounds)
        except BodyRefused as exc:
            return ws_error(Refused(exc.status, InputError(str(exc), field="message")))
        except InputError as exc:
            return ws_error(Refused(422, exc), code="INVALID_JSON")
        kind = message.get("type") if isinstance(message, dict) else None
        payload = message.get("data", {}) if isinstance(message, dict) else None
        try:
            if not isinstance(payload, dict):
                raise Refused(422, InputError("must be a JSON object", field="data"))
            if kind == "close":
                return None
            if kind == "reset":  # the connection's episode ends first: on a full server
                if own:            # its place is the new one's
                    drop(own.pop())
                out = await asyncio.to_thread(start, payload, client)
                own.append(out["observation"]["episode_id"])
                return {"type": "observation", "data": out}
            if kind == "step":  # the action is `data`; the episode is the connection's own
                if not own:
                    raise Refused(409, InputError("no episode: send a reset first",
                                                   field="type"))
                out = await asyncio.to_thread(advance, own[0], payload)
                return {"type": "observation", "data": out}
            if kind == "state":
                if not own:
                    return {"type": "state",
                            "data": {"episode_id": None, "step_count": 0, "done": False}}
                return {"type": "state", "data": state_of(own[0])}
            return ws_error(Refused(422, InputError(f"unknown message type {kind!r}",
                                                      field="type")), code="UNKNOWN_TYPE")
        except Refused as refused:
            return ws_error(refused)

def ws_error(refused: Refused, code: str | None = None) -> dict[str, Any]:
    """OpenEnv's `WSErrorResponse`: `message` and `code`, with the HTTP `status` and the
    `field` this server's HTTP routes give."""
    data: dict[str, Any] = {"message": str(refused.error),
                            "code": code or WS_CODES.get(refused.status, "EXECUTION_ERROR"),
                            "status": refused.status}
    if refused.error.field:
        data["field"] = refused.error.field
    return {"type": "error", "data": data}

