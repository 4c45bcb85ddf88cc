"""One inference layer for the reward models, the prompt filter's rollouts and the training loop.

Three backends behind the `Engine` protocol:

- `"vllm"`: the vLLM offline engine (`vllm.LLM`), in this process;
- `"vllm-server"`: a vLLM OpenAI-compatible server over HTTP, one the user started (give its URL)
  or one started here on 127.0.0.1 (give a model folder);
- `"transformers"`: exact float32 log-probs with transformers, on CPU or a GPU.

    engine = load_engine("path/to/model", backend="transformers")
    engine.generate(["1 + 1 ="], n=4, max_tokens=32, temperature=1.0, logprobs=True)
    engine.next_token_logprobs(["Which is better? Answer:"], candidates=[" A", " B"])

`backend="auto"` picks "vllm-server" for an http(s) URL, "vllm" when vLLM is installed and a CUDA
GPU is present, and "transformers" otherwise (on a CPU, starting vLLM costs far more than a small
model's whole workload).

Every backend checks its model with `resolve_model` first: a local path that is not a model
folder, or a hub id that is neither cached nor reachable, is a `ConfigError` before any load.
"""

from __future__ import annotations

from typing import Any, Literal

from rewards.engines._base import Engine, Generation, Prompt, candidate_token_ids, hf_tokenize
from rewards.engines._model_path import is_local_model_path, resolve_model
from rewards.engines._server import VLLMServer, VLLMServerEngine
from rewards.engines._transformers import TransformersEngine
from rewards.engines._vllm import VLLMEngine
from rewards.errors import ConfigError

__all__ = [
    "Backend",
    "Engine",
    "Generation",
    "Prompt",
    "TransformersEngine",
    "VLLMEngine",
    "VLLMServer",
    "VLLMServerEngine",
    "candidate_token_ids",
    "hf_tokenize",
    "is_local_model_path",
    "load_engine",
    "resolve_backend",
    "resolve_model",
]

Backend = Literal["auto", "transformers", "vllm", "vllm-server"]

_SERVER_OPTIONS = ("port", "runner", "dtype", "extra_args", "startup_timeout", "log_path", "env")


def resolve_backend(model: str, backend: Backend = "auto") -> str:
    """The concrete backend `load_engine` uses for `model` (see the module docstring)."""
    if backend not in ("auto", "transformers", "vllm", "vllm-server"):
        raise ConfigError(f"unknown engine backend {backend!r}: use auto, transformers, vllm "
                          "or vllm-server")
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
