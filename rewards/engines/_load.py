"""`load_engine`: the engine for a model and a backend name (see the package docstring for
how `backend="auto"` chooses)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, Literal, get_args

from rewards.engines._base import Engine
from rewards.engines._server import VLLMServer, VLLMServerEngine
from rewards.engines._transformers import TransformersEngine
from rewards.engines._vllm import VLLMEngine
from rewards.errors import ConfigError

__all__ = ["Backend", "load_engine", "resolve_backend", "shared_engine"]

Backend = Literal["auto", "transformers", "vllm", "vllm-server"]

_SERVER_OPTIONS = ("port", "runner", "dtype", "extra_args", "startup_timeout", "log_path", "env")


def resolve_backend(model: str, backend: Backend = "auto") -> str:
    """The concrete backend `load_engine` uses for `model` (see `rewards.engines`)."""
    if backend not in get_args(Backend):
        raise ConfigError(f"unknown engine backend {backend!r}: use "
                          f"{', '.join(get_args(Backend))}")
    if backend != "auto":
        return backend
    if str(model).startswith(("http://", "https://")):
        return "vllm-server"
    import importlib.util

    if importlib.util.find_spec("vllm") is not None and importlib.util.find_spec("torch"):
        import torch

        if torch.cuda.is_available():
            return "vllm"
    return "transformers"


def load_engine(model: str, *, backend: Backend = "auto", **options: Any) -> Engine:
    """An engine for `model` (a model folder or name; for "vllm-server" also a server URL).

    Options go to the backend: `TransformersEngine(task, dtype, device, batch_size)`,
    `VLLMEngine(runner, dtype, seed, **vllm.LLM options)`, `VLLMServerEngine(model, timeout,
    api_key, ...)`; a "vllm-server" engine for a model folder starts a `VLLMServer` (options
    `port, runner, dtype, extra_args, startup_timeout, log_path, env`) that `close()` stops.
    """
    chosen = resolve_backend(model, backend)
    if chosen == "transformers":
        return TransformersEngine(model, **options)
    if chosen == "vllm":
        return VLLMEngine(model, **options)
    if str(model).startswith(("http://", "https://")):
        return VLLMServerEngine(model, **options)
    server_opts = {k: options.pop(k) for k in _SERVER_OPTIONS if k in options}
    server = VLLMServer(model, **server_opts)
    try:
        return VLLMServerEngine(server.url, server=server, **options)
    except BaseException:
        server.close()
        raise


_ENGINES: dict[tuple[str, str, tuple[tuple[str, str], ...]], Engine] = {}
_LOCK = threading.Lock()


def shared_engine(model: str, backend: Backend = "auto",
                  options: Mapping[str, Any] | None = None) -> Engine:
    """One engine per (model, backend, options) in this process: several rewards in one config
    (say a GenRM, a math judge and a pass-rate filter on the same model) load the model once."""
    options = dict(options or {})
    key = (str(model), backend, tuple(sorted((k, repr(v)) for k, v in options.items())))
    with _LOCK:
        if key not in _ENGINES:
            _ENGINES[key] = load_engine(str(model), backend=backend, **options)
        return _ENGINES[key]
