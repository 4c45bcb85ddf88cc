"""A dotted-path component in the folder the `rewards` command runs from loads for `score`,
`check`, `serve` and `worker` (as with `python -m`, docs/reward-config.md); elsewhere the
error says the fix. Each command runs in a subprocess started in a temporary folder whose
module is not on PYTHONPATH."""

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).parents[2]
PLUGIN = '''
from rewards import reward

@reward
def shouts(sample):
    return float(sample.completion.isupper())
'''
CONFIG = "domains:\n  default: {rewards: [{use: 'my_plugin:shouts'}]}\n"


def _rewards_cli() -> list[str]:
    """The `rewards` console script, as a user runs it (not `python -m`, which puts the
    working folder on sys.path by itself)."""
    script = shutil.which("rewards")
    if script is None:
        pytest.skip("no `rewards` console script on PATH")
    return [script]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)  # this checkout's code; the plugin's folder is not on it
    return env


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "my_plugin.py").write_text(PLUGIN)
    (tmp_path / "cfg.yaml").write_text(CONFIG)
    (tmp_path / "in.jsonl").write_text(json.dumps({"completion": "HI"}) + "\n"
                                       + json.dumps({"completion": "hi"}) + "\n")
    return tmp_path


def _run(args, cwd):
    return subprocess.run([*_rewards_cli(), *args], check=False, cwd=cwd, env=_env(), text=True,
                          capture_output=True, timeout=300)


def test_score_and_check_load_a_plugin_from_the_working_folder(folder):
    proc = _run(["score", "in.jsonl", "--config", "cfg.yaml", "--out", "o.jsonl"], folder)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in (folder / "o.jsonl").read_text().splitlines()]
    assert [r["score"] for r in rows] == [1.0, 0.0]
    proc = _run(["check", "in.jsonl", "--config", "cfg.yaml"], folder)
    assert proc.returncode == 0, proc.stderr


def test_elsewhere_the_error_names_the_fix(folder, tmp_path_factory):
    other = tmp_path_factory.mktemp("elsewhere")
    proc = _run(["score", str(folder / "in.jsonl"), "--config", str(folder / "cfg.yaml"),
                 "--out", str(other / "o.jsonl")], other)
    assert proc.returncode == 2
    assert "cannot import module 'my_plugin'" in proc.stderr
    assert "finds a module in the folder it runs from" in proc.stderr
    assert "PYTHONPATH" in proc.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(proc, done, limit_s=120.0):
    """Poll `done()` until it is true or the process ends (limit: a hung start)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        if done():
            return True
        time.sleep(0.2)
    return False


def test_serve_loads_a_plugin_from_the_working_folder(folder):
    port = _free_port()
    proc = subprocess.Popen([*_rewards_cli(), "serve", "--config", "cfg.yaml", "--port",
                             str(port), "--no-batching"], cwd=folder, env=_env(), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    body = json.dumps({"query": ["q HI"], "prompts": ["q "], "labels": [None]}).encode()

    def answers():
        try:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/get_reward", body,
                                             {"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=5) as reply:
                answers.reply = json.loads(reply.read())
            return True
        except OSError:
            return False

    try:
        assert _wait_for(proc, answers), proc.stdout.read() if proc.poll() is not None else ""
        assert answers.reply["rewards"] == [1.0]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_worker_loads_a_plugin_from_the_working_folder(folder):
    pytest.importorskip("celery")
    proc = subprocess.Popen([*_rewards_cli(), "worker", "--config", "cfg.yaml",
                             "--concurrency", "1", "--broker", "redis://127.0.0.1:1/0"],
                            cwd=folder, env=_env(), text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    lines = []

    def started():
        line = proc.stdout.readline()
        lines.append(line)
        return "scoring with" in line

    try:  # the worker resolves every component before it connects: past that, it loaded
        assert _wait_for(proc, started), "".join(lines) + (proc.stdout.read() or "")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert not any("cannot import module" in line for line in lines)


SHADOW = "raise RuntimeError('this file shadowed the installed module')\n"


def test_files_in_the_working_folder_shadow_nothing_installed(folder):
    """A `tqdm.py` or `integrations.py` beside the plugin replaced the real module (the
    working folder was first on sys.path): the command crashed with a traceback."""
    for name in ("tqdm.py", "integrations.py", "yaml.py"):
        (folder / name).write_text(SHADOW)
    proc = _run(["score", "in.jsonl", "--config", "cfg.yaml", "--out", "o.jsonl"], folder)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    rows = [json.loads(line) for line in (folder / "o.jsonl").read_text().splitlines()]
    assert [r["score"] for r in rows] == [1.0, 0.0]
    proc = _run(["check", "in.jsonl", "--config", "cfg.yaml"], folder)
    assert proc.returncode == 0, proc.stderr


def test_a_plugin_named_as_an_installed_module_is_told_to_rename(folder):
    (folder / "tqdm.py").write_text(PLUGIN)
    (folder / "cfg.yaml").write_text("domains:\n  default: {rewards: [{use: 'tqdm:shouts'}]}\n")
    proc = _run(["score", "in.jsonl", "--config", "cfg.yaml", "--out", "o.jsonl"], folder)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "tqdm.py in the working folder is not loaded" in proc.stderr
    assert "rename the plugin" in proc.stderr
