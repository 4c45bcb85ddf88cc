"""An optional shared token for the HTTP servers (`rewards serve`, `rewards sandbox serve`,
the environment server): all bind to loopback by default; one that binds wider (a multi-node
run) lets anyone on the network run code or read rewards unless it asks for a token.

A request carries the token as `Authorization: Bearer <token>` or, for a client that cannot
set headers (veRL's SandboxFusion client, OpenRLHF's remote reward client post to a bare URL),
as the `access_token` query parameter of the URL it is given (RFC 6750, section 2.3), or, for
the `openreward` SDK (ORS, which sends its API key so), as the `X-API-Key` header. A request
without it, or with another, gets 401 before its body is read. The comparison runs in constant
time (`hmac.compare_digest`): how long a refusal takes tells nothing of the token.

A token is made of URL-safe characters only (`TOKEN_ALPHABET`: letters, digits, `-`, `_`, `.`,
`~`, RFC 3986's unreserved set), so that it travels unchanged in both forms: in a query string
a `+` reads as a space and `&`, `#`, `%` cut or change it, so a token holding one would be
accepted at start-up and then fail in the documented `?access_token=` form. Any other
character is refused when the server starts (`secrets.token_urlsafe()` makes a good one)."""

from __future__ import annotations

import hmac
import os
import re
from typing import Any
from urllib.parse import parse_qsl

from rewards.errors import ConfigError

__all__ = ["QUERY_PARAMETER", "TOKEN_ALPHABET", "BearerToken", "resolve_token"]

QUERY_PARAMETER = "access_token"
"""The URL query parameter that may carry the token instead of the Authorization header."""
TOKEN_ALPHABET = "A-Z a-z 0-9 - _ . ~"
"""The characters a token may hold (RFC 3986 unreserved: the same in a header and a URL)."""
_TOKEN = re.compile(r"[A-Za-z0-9._~-]+")


def resolve_token(token: str | None, env: str) -> str | None:
    """The token a server requires: `token` if given, else the environment variable `env`
    (None, or empty: no token). A given token must be non-empty and of `TOKEN_ALPHABET`."""
    if token is None:
        token = os.environ.get(env) or None
        where = f"${env}"
    else:
        where = "--token"
    if token is None:
        return None
    if not _TOKEN.fullmatch(token):
        raise ConfigError(f"{where}: a token holds only URL-safe characters ({TOKEN_ALPHABET}), "
                          "so that it works as ?access_token= too; make one with python -c "
                          "'import secrets; print(secrets.token_urlsafe(32))'")
    return token


class BearerToken:
    """ASGI middleware: every HTTP request must carry `token` (see the module docstring)."""

    def __init__(self, app: Any, *, token: str) -> None:
        self.app = app
        self.expected = token.encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket") or self.allowed(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        detail = b'{"detail":"a valid bearer token is required"}'
        await send({"type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(detail)).encode()),
                                (b"www-authenticate", b'Bearer realm="rewards-engine"')]})
        await send({"type": "http.response.body", "body": detail})

    def allowed(self, scope: Any) -> bool:
        """Whether the request carries the token (header or query), compared in constant
        time; every candidate is compared, so the time does not say which one was there."""
        ok = False
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                scheme, _, given = value.partition(b" ")
                ok |= scheme.lower() == b"bearer" and self._same(given.strip())
            elif name == b"x-api-key":  # the openreward SDK's header (ORS)
                ok |= self._same(value.strip())
        query = scope.get("query_string", b"").decode("latin-1")
        for name, value in parse_qsl(query, keep_blank_values=True):
            if name == QUERY_PARAMETER:
                ok |= self._same(value.encode("latin-1", "replace"))
        return ok

    def _same(self, given: bytes) -> bool:
        return hmac.compare_digest(given, self.expected)
