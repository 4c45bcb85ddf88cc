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


class ServerProcess:
    """A server command of ours (`python -m rewards ...`) as a subprocess on a free loopback
    port, ready once `GET ready_path` answers 200."""

    def __init__(self, args: list[str], *, log_dir: Path, ready_path: str,
                 timeout: float = 60.0, descriptors: int | None = None) -> None:
        """`descriptors`: run the server under `ulimit -n` of that many open files."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.name = " ".join(["rewards", *args[:2]])
        argv = [sys.executable, "-m", "rewards", *args, "--host", "127.0.0.1",
                "--port", str(self.port), "--log-level", "warning"]
        if descriptors is not None:
            argv = ["/bin/sh", "-c", f'ulimit -n {descriptors} && exec "$0" "$@"', *argv]
        # the server's output file stays open for the subprocess's lifetime (closed in stop)
        self.log = open(log_dir / f"server-{self.port}.log", "w+")  # noqa: SIM115
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT,
                                     env=server_env())
        self._wait_ready(ready_path, timeout)

    def _wait_ready(self, ready_path: str, timeout: float) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}:\n"
                                   f"{self.output()}")
            try:
                if httpx.get(f"{self.url}{ready_path}", timeout=1.0).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{self.name} not ready after {timeout} s:\n{self.output()}")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


class Server(ServerProcess):
    """A `rewards serve` (OpenRLHF's /get_reward) subprocess."""

    def __init__(self, config: Path, *extra: str, timeout: float = 60.0,
                 descriptors: int | None = None) -> None:
        super().__init__(["serve", "--config", str(config), *extra], log_dir=config.parent,
                         ready_path="/health", timeout=timeout, descriptors=descriptors)
