"""Every code block of README.md and docs/ that can run on a CPU runs here, as written.

Blocks that cannot (a GPU, a cluster, a long training run, a running service, a package
install) carry `<!-- snippet: skip - REASON -->`; the marker grammar is in `snippets.py`."""

from __future__ import annotations

import doctest
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import SETUPS
from snippets import REPO, Block, all_blocks, sessions

SESSIONS = sessions()
BLOCKS = all_blocks()
TIMEOUT_S = 300  # one block; the slowest (vLLM on a CPU) takes about a minute
_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _env(folder: Path, *, script: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    if script:  # a script that starts vLLM must set what vLLM on a CPU needs itself
        env.pop("VLLM_CPU_KVCACHE_SPACE", None)
    else:
        env.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")  # GiB: vLLM on a CPU needs it
    env["HF_HUB_OFFLINE"] = "1"  # nothing is downloaded: a hub id in a run block is a bug
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PWD"] = str(folder)
    return env


def _prepare(block: Block, folder: Path, cache: Path) -> None:
    for name in block.setup:
        SETUPS[name](folder, cache)
    if "examples/" in block.text and not (folder / "examples").exists():
        shutil.copytree(REPO / "examples", folder / "examples")  # a copy: scripts write beside it
    if block.file:
        target = folder / block.file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.text)


def _run_python(block: Block, folder: Path, namespace: dict[str, Any]) -> None:
    if block.script:
        script = folder / f"snippet_{block.line}.py"
        script.write_text(block.text)
        proc = subprocess.run([sys.executable, script.name], check=False, cwd=folder,
                              env=_env(folder, script=True), capture_output=True, text=True,
                              timeout=TIMEOUT_S)
        assert proc.returncode == 0, f"{block.id} exited {proc.returncode}:\n" \
                                     f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        return
    code = compile(block.text, block.id, "exec")
    exec(code, namespace)  # noqa: S102 - the docs' own code


def _run_pycon(block: Block, namespace: dict[str, Any]) -> None:
    test = doctest.DocTestParser().get_doctest(block.text, namespace, block.id, block.page,
                                               block.line)
    runner = doctest.DocTestRunner(optionflags=_FLAGS)
    out: list[str] = []
    runner.run(test, out=out.append, clear_globs=False)
    namespace.update(test.globs)  # DocTest works on a copy; later blocks continue from it
    assert runner.failures == 0, "".join(out)


def _run_bash(block: Block, folder: Path) -> None:
    proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block.text], check=False,
                          cwd=folder, env=_env(folder), capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    assert proc.returncode == block.exit, (
        f"{block.id} exited {proc.returncode}, expected {block.exit}:\n"
        f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")


def _run_console(block: Block, folder: Path) -> None:
    """`$ command` lines, each followed by what it prints (stdout and stderr together; `...`
    matches anything, whitespace is normalized)."""
    commands: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
        else:
            raise AssertionError(f"{block.id}: a console block starts with '$ command'")
    for command, want in commands:
        proc = subprocess.run(["bash", "-c", command], check=False, cwd=folder,
                              env=_env(folder), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT_S)
        expected = "\n".join(want).strip() + "\n"
        assert _CHECKER.check_output(expected, proc.stdout.strip() + "\n", _FLAGS), (
            f"{block.id}: $ {command}\nexpected:\n{expected}\ngot (exit {proc.returncode}):\n"
            f"{proc.stdout[-3000:]}")


def _run_yaml(block: Block, folder: Path) -> None:
    if block.kind == "plain":
        yaml.safe_load(block.text)
        return
    path = folder / (block.file or f"snippet_{block.line}.yaml")
    if not path.exists():
        path.write_text(block.text)
    if block.kind == "reward":
        from rewards import build_reward, load_config

        build_reward(load_config(path))
    else:
        import rl

        cls = rl.GRPOConfig if block.kind == "grpo" else rl.PPOConfig
        rl.load_train_config(cls, path)


def _run_json(block: Block) -> None:
    try:
        json.loads(block.text)
    except json.JSONDecodeError:
        for line in block.text.splitlines():
            if line.strip():
                json.loads(line)


@pytest.mark.parametrize("session", SESSIONS, ids=[s[0].id for s in SESSIONS])
def test_snippet(session: list[Block], tmp_path: Path, model_cache: Path,
                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # as for a script run from this folder
    for key, value in _env(tmp_path).items():
        if os.environ.get(key) != value and key in ("VLLM_CPU_KVCACHE_SPACE", "HF_HUB_OFFLINE"):
            monkeypatch.setenv(key, value)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    before = set(sys.modules)
    environ = dict(os.environ)  # a block may set variables (`os.environ["REWARDS_CONFIG"]`)
    try:
        for block in session:
            _prepare(block, tmp_path, model_cache)
            if block.lang == "python":
                _run_python(block, tmp_path, namespace)
            elif block.lang == "pycon":
                _run_pycon(block, namespace)
            elif block.lang == "bash":
                _run_bash(block, tmp_path)
            elif block.lang == "console":
                _run_console(block, tmp_path)
            elif block.lang == "yaml":
                _run_yaml(block, tmp_path)
            elif block.lang == "json":
                _run_json(block)
    finally:
        os.environ.clear()  # what a block set leaves with it: a later test's subprocess
        os.environ.update(environ)  # read a leaked $REWARDS_CONFIG as its config
        for name in set(sys.modules) - before:  # modules the blocks wrote in their folder
            origin = getattr(sys.modules[name], "__file__", None) or ""
            if origin.startswith(str(tmp_path)):
                del sys.modules[name]


def test_markers_are_well_formed() -> None:
    problems = [f"{b.id}: {p}" for b in BLOCKS for p in b.problems]
    problems += [f"{b.id}: unknown setup {name!r}" for b in BLOCKS for name in b.setup
                 if name not in SETUPS]
    assert not problems, "\n".join(problems)


def test_every_skip_says_why() -> None:
    skipped = [b for b in BLOCKS if b.skip is not None]
    assert all(len(b.skip or "") >= 10 for b in skipped), [b.id for b in skipped]
    # most of the docs run: a skip is for a GPU, a cluster, a service, an install
    runnable = [b for b in BLOCKS if b.lang in {"python", "pycon", "bash", "console"}]
    assert len([b for b in runnable if b.skip is None]) > len(runnable) / 2


def test_setup_commands(tmp_path: Path) -> None:
    """The README's first command is `pip install -e . && rewards score --out scores.jsonl`:
    the install is not run here (it changes the environment the suite runs in), its second
    half is, on the embedded defaults; the second set-up command is what CI runs."""
    readme = (REPO / "README.md").read_text()
    install, score = "pip install -e . && ", "rewards score --out scores.jsonl"
    assert f"\n{install}{score}\n" in readme
    assert "\nbash scripts/test.sh\n" in readme
    assert "bash scripts/test.sh" in (REPO / ".ci/run").read_text()
    proc = subprocess.run(["bash", "-c", score], check=False, cwd=tmp_path,
                          env=_env(tmp_path), capture_output=True, text=True, timeout=TIMEOUT_S)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [json.loads(line) for line in (tmp_path / "scores.jsonl").read_text().splitlines()]
    bundled = (REPO / "rewards/data/example_rollouts.jsonl").read_text().splitlines()
    assert len(rows) == len(bundled) and {r["domain"] for r in rows} == {"math", "code"}
    assert "scored" in proc.stdout + proc.stderr  # the summary table
