"""Helpers of the integration tests: config files, free ports, a `rewards serve` subprocess."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
REPO = HERE.parents[1]


def write_config(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def server_env() -> dict[str, str]:
    """The environment for child processes: `integration_rewards` and this repo importable."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(REPO)])}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A `rewards serve` subprocess on a free loopback port."""

    def __init__(self, config: Path, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # the server's output file stays open for the subprocess's lifetime (closed in stop)
        self.log = open(config.parent / f"server-{self.port}.log", "w+")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rewards", "serve", "--config", str(config),
             "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning", *extra],
            stdout=self.log, stderr=subprocess.STDOUT, env=server_env())
        self._wait_ready()

    def _wait_ready(self, timeout: float = 60.0) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"rewards serve exited with {self.proc.returncode}:\n"
                                   f"{self.output()}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1.0).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"rewards serve not ready after {timeout} s:\n{self.output()}")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
