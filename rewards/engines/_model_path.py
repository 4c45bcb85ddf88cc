"""Where a model comes from, decided before anything loads it: a local folder or a model hub id.

A model string is a local path when it starts with `/`, `./`, `../` or `~`, holds a backslash
or more than one `/`, or its first part is an existing local folder (`runs/model` with `runs/`
there). A path must be a model folder (one with `config.json`); a missing one is an error at
once, never a hub lookup. Anything else shaped like a hub id (`name` or `org/name`) is used
from the local Hugging Face cache, or downloaded only when the hub answers: with
`HF_HUB_OFFLINE` set, or no route to the hub, an uncached id is an error, not a wait through
the hub client's retries."""

from __future__ import annotations

import functools
import os
import re
import socket
from pathlib import Path
from urllib.parse import urlsplit

from rewards.errors import ConfigError

__all__ = ["is_local_model_path", "resolve_model"]

_HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,95}(/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?")
_TRUE = ("1", "on", "yes", "true")
_PROBE_TIMEOUT_S = 3.0


def is_local_model_path(model: str, *, base: Path | None = None) -> bool:
    """Whether `model` names a local path rather than a hub id (see the module docstring);
    a relative path is read against `base` (default: the working directory)."""
    if model.startswith(("/", "./", "../", "~")) or model in (".", "..") or "\\" in model:
        return True
    folder = base or Path.cwd()
    if (folder / model).exists() or model.count("/") > 1 or not _HUB_ID.fullmatch(model):
        return True
    return "/" in model and (folder / model.split("/", 1)[0]).is_dir()


def resolve_model(model: str, *, field: str = "model", base: Path | None = None) -> str:
    """The model to load: a local model folder as a path string (`~` expanded, relative ones
    joined to `base` when given), a hub id that is cached or reachable, or an http(s) URL (a
    server) as it is. Anything else is a `ConfigError` naming `field`, raised before any
    download is tried."""
    if not isinstance(model, str) or not model.strip():
        raise ConfigError(f"{field}: needs a model folder or hub id, got {model!r}")
    if model.startswith(("http://", "https://")):
        return model
    if is_local_model_path(model, base=base):
        return _local_folder(model, field, base)
    if not _cached(model):
        _require_hub(model, field)
    return model


def _local_folder(model: str, field: str, base: Path | None) -> str:
    path = Path(model).expanduser()
    if base is not None and not path.is_absolute():
        path = base / path
    if not path.exists():
        raise ConfigError(f"{field}: no such model folder: {path}")
    if not path.is_dir():
        raise ConfigError(f"{field}: {path} is a file; a model is a folder with config.json")
    if not (path / "config.json").is_file():
        raise ConfigError(f"{field}: {path} is not a model folder (it has no config.json)")
    return str(path)


def _offline() -> bool:
    return any(os.environ.get(name, "").strip().lower() in _TRUE
               for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def _cached(model: str) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    return isinstance(try_to_load_from_cache(model, "config.json"), str)


def _require_hub(model: str, field: str) -> None:
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co")
    if _offline():
        raise ConfigError(f"{field}: {model!r} is not a local folder and not in the Hugging "
                          "Face cache, and HF_HUB_OFFLINE is set")
    problem = _probe(endpoint)
    if problem:
        raise ConfigError(f"{field}: {model!r} is not a local folder and not in the Hugging "
                          f"Face cache, and the hub at {endpoint} cannot be reached ({problem})")


@functools.cache
def _probe(endpoint: str) -> str | None:
    """Why the hub cannot be reached (one TCP connect, once per process), or None."""
    parts = urlsplit(endpoint)
    port = parts.port or (80 if parts.scheme == "http" else 443)
    try:
        socket.create_connection((parts.hostname or "", port), timeout=_PROBE_TIMEOUT_S).close()
    except OSError as exc:
        return str(exc) or type(exc).__name__
    return None
