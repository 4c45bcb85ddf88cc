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

__all__ = ["guard", "run_server", "startup_line"]


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
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False)
