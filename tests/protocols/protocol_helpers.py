"""Helpers of the protocol conformance tests: one of our apps served by uvicorn on a free
127.0.0.1 port, with the settings `integrations._http.run_server` gives it (header deadline,
WebSocket message bounds), so each peer's own client talks to it over real sockets."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """Serve `app` (one of ours, guarded by `integrations._http.guard`) on 127.0.0.1 in a
    thread; yields its base URL, stops it after."""
    uvicorn = pytest.importorskip("uvicorn")
    from integrations._http import uvicorn_options

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            access_log=False, lifespan="on",
                            **uvicorn_options(app.state.bounds, websockets=True))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
