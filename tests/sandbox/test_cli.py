"""`rewards sandbox run` and `rewards sandbox serve`: tiny end-to-end runs of the commands."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rewards_cli import main

REPO = Path(__file__).parents[2]


@contextlib.contextmanager
def serving(log_path: Path) -> Iterator[tuple[str, subprocess.Popen, Any]]:
    """`rewards sandbox serve` on a free port, answering /v1/ping: (url, process, log file);
    terminated on exit (the caller may wait for it first)."""
    httpx = pytest.importorskip("httpx", reason="pip install -e '.[server]'")
    pytest.importorskip("uvicorn", reason="pip install -e '.[server]'")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with open(log_path, "w+") as log:
        proc = subprocess.Popen([sys.executable, "-m", "rewards", "sandbox", "serve", "--port",
                                 str(port), "--workers", "1", "--log-level", "warning"],
                                stdout=log, stderr=subprocess.STDOUT, cwd=REPO)
        try:
            deadline = time.monotonic() + 120
            while True:
                assert proc.poll() is None, log.seek(0) or log.read()
                assert time.monotonic() < deadline, "no answer on /v1/ping"
                try:
                    if httpx.get(f"{url}/v1/ping", timeout=1).json() == "pong":
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            yield url, proc, log
        finally:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=30)
PROGRAM = "def add(a, b):\n    return a + b\nprint('hello')\n"


def test_run_prints_status_and_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "prog.py"
    source.write_text(PROGRAM)
    assert main(["sandbox", "run", str(source), "--wall", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("status ok  exit 0") and "hello" in out


def test_run_against_tests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "prog.py"
    source.write_text(PROGRAM)
    tests = tmp_path / "tests.json"
    tests.write_text(json.dumps(["assert add(1, 2) == 3", "assert add(1, 1) == 3"]))
    assert main(["sandbox", "run", str(source), "--tests", str(tests)]) == 1
    out = capsys.readouterr().out
    assert "passed 1/2 (50%)" in out and "AssertionError: assert add(1, 1) == 3" in out
    check = tmp_path / "check.json"
    check.write_text(json.dumps({"check": "def check(candidate):\n    assert candidate(2, 2) == 4\n",
                                 "entry_point": "add"}))
    assert main(["sandbox", "run", str(source), "--tests", str(check), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pass_fraction"] == 1.0


def test_compile_error_and_missing_file(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bad.c"
    source.write_text("int main( {")
    assert main(["sandbox", "run", str(source), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "compile_error" and "error" in result["stderr"]
    assert main(["sandbox", "run", str(tmp_path / "missing.py")]) == 2
    assert "no such file" in capsys.readouterr().err


# --- rewards sandbox serve (the SandboxFusion API; tests/integrations/test_sandbox_fusion.py
# covers the API itself) ----------------------------------------------------------------------

def test_serve_help_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["sandbox", "serve", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "/run_code" in out and "--workers" in out and "--max-body-mb" in out
    for bad in (["--port", "70000"], ["--workers", "0"], ["--max-timeout", "nan"],
                ["--mode", "warm"]):
        with pytest.raises(SystemExit) as exit_:
            main(["sandbox", "serve", *bad])
        assert exit_.value.code == 2, bad
        assert "error: argument" in capsys.readouterr().err
    # a default memory over the most a request may ask: one line, before anything starts
    assert main(["sandbox", "serve", "--memory-mb", "4096", "--max-memory-mb", "2048"]) == 2
    assert "default_memory_mb (4096) is over max_memory_mb (2048)" in capsys.readouterr().err


def test_serve_starts_on_a_port_and_stops_on_sigterm(tmp_path: Path) -> None:
    httpx = pytest.importorskip("httpx", reason="pip install -e '.[server]'")
    with serving(tmp_path / "serve.log") as (url, proc, log):
        reply = httpx.post(f"{url}/run_code", timeout=60,
                           json={"code": "print(6 * 7)", "language": "python"}).json()
        assert reply["status"] == "Success" and reply["run_result"]["stdout"] == "42\n"
        proc.terminate()
        returncode = proc.wait(timeout=30)
        # a graceful stop: uvicorn >= 0.29 re-raises the SIGTERM it handled, older ones exit 0
        assert returncode in (0, -signal.SIGTERM), log.seek(0) or log.read()


def test_serve_without_a_working_sandbox_exits_2_before_listening() -> None:
    env = {**os.environ, "SANDBOX_NSJAIL": "/nonexistent/nsjail"}
    done = subprocess.run([sys.executable, "-m", "rewards", "sandbox", "serve", "--port", "0"],
                          check=False, capture_output=True, text=True, timeout=120, cwd=REPO,
                          env=env)
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()  # one line, no traceback, nothing served
    assert line.startswith("rewards sandbox: error: the sandbox cannot run programs: ")
    assert "/nonexistent/nsjail" in line


@pytest.mark.parametrize("tests", [False, True])
def test_run_without_a_working_sandbox_exits_2_with_one_line(tmp_path: Path, tests: bool) -> None:
    """The sandbox's own SandboxError leaves the command as rewards.errors.SandboxError: one
    line naming the cause, exit 2, no traceback."""
    source = tmp_path / "prog.py"
    source.write_text(PROGRAM)
    extra = []
    if tests:
        (tmp_path / "tests.json").write_text(json.dumps(["assert add(1, 2) == 3"]))
        extra = ["--tests", str(tmp_path / "tests.json")]
    env = {**os.environ, "SANDBOX_NSJAIL": "/nonexistent/nsjail"}
    done = subprocess.run([sys.executable, "-m", "rewards", "sandbox", "run", str(source),
                           *extra], check=False, capture_output=True, text=True, timeout=120,
                          cwd=REPO, env=env)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line == ("rewards sandbox: error: SANDBOX_NSJAIL='/nonexistent/nsjail' is not an "
                    "executable file")


def test_serve_an_attack_on_the_warm_server_reaches_no_other_client(tmp_path: Path) -> None:
    """Issue #26: through `rewards sandbox serve` a program lowered the warm server's limits
    and priority, and three later `print('ok')` requests of another client failed."""
    httpx = pytest.importorskip("httpx", reason="pip install -e '.[server]'")
    attack = ("import os, resource, signal\nfor pid in range(1, 200):\n"
              "    if pid == os.getpid():\n        continue\n    for step in (\n"
              "        lambda: resource.prlimit(pid, resource.RLIMIT_NOFILE, (12, 12)),\n"
              "        lambda: resource.prlimit(pid, resource.RLIMIT_AS, (1 << 20, 1 << 20)),\n"
              "        lambda: os.setpriority(os.PRIO_PROCESS, pid, 19),\n"
              "        lambda: os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0)),\n"
              "        lambda: os.kill(pid, signal.SIGINT)):\n"
              "        try:\n            step()\n        except OSError:\n            pass\n"
              "print('attacked')\n")
    with serving(tmp_path / "serve.log") as (url, _, _):
        with httpx.Client() as attacker:
            reply = attacker.post(f"{url}/run_code", timeout=60,
                                  json={"code": attack, "language": "python"}).json()
            assert reply["run_result"]["stdout"] == "attacked\n", reply
        with httpx.Client() as honest:
            for _ in range(3):
                reply = honest.post(f"{url}/run_code", timeout=60,
                                    json={"code": "print('ok')", "language": "python"}).json()
                assert reply["status"] == "Success", reply
                assert reply["run_result"]["stdout"] == "ok\n", reply
