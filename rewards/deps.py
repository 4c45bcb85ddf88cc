"""Heavy optional dependencies, imported when a feature first needs them: the one place that
says which pip extra installs each (vLLM, torch, Celery, FastAPI, matplotlib ...)."""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from rewards.errors import ConfigError

__all__ = ["MissingDependency", "install_hint", "require", "require_installed"]


class MissingDependency(ConfigError):
    """An optional dependency a configured feature needs is not installed. The message says
    what to `pip install`."""


def install_hint(*, extra: str | None = None, package: str | None = None, module: str = "") -> str:
    """The pip command that installs one of our extras where this copy was installed from, or
    `pip install package` for a framework we only plug into.

    The package is not on the public index, so `pip install 'rewards-engine[extra]'` works
    only where it was published to a private one. An editable install (a checkout) is told
    `pip install -e '<checkout>[extra]'`, a wheel install the wheel's own path; otherwise (an
    index install, or nothing says) both forms are named: the index one and the checkout one."""
    if not extra:
        return f"pip install {package or module}"
    source = _install_source()
    if source is not None:
        editable, where = source
        return f"pip install {'-e ' if editable else ''}'{where}[{extra}]'"
    return (f"pip install 'rewards-engine[{extra}]' (from a checkout of the repository: "
            f"pip install -e '.[{extra}]')")


def _install_source() -> tuple[bool, str] | None:
    """(editable, path) of the checkout or wheel this distribution was installed from, as pip's
    `direct_url.json` (PEP 610) records it; None for an index install or when nothing says."""
    import json
    from importlib import metadata
    from urllib.parse import unquote, urlparse

    try:
        text = metadata.distribution("rewards-engine").read_text("direct_url.json")
        record = json.loads(text) if text else None
    except (metadata.PackageNotFoundError, ValueError, OSError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("url"), str):
        return None
    url = urlparse(record["url"])
    if url.scheme != "file":
        return None
    path = unquote(url.path)
    editable = bool((record.get("dir_info") or {}).get("editable"))
    import os
    try:
        if os.path.realpath(path) == os.path.realpath(os.getcwd()):
            path = "."
    except OSError:
        pass
    return editable, path


def require(module: str, *, extra: str | None = None, package: str | None = None,
            feature: str | None = None) -> ModuleType:
    """Import `module`, or raise `MissingDependency` naming what installs it: our `extra`
    (`pip install -e '.[server]'` from a checkout) or, for a framework we only plug into, its `package`."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        what = f"{feature} needs {module!r}" if feature else f"this feature needs {module!r}"
        raise MissingDependency(f"{what}: {install_hint(extra=extra, package=package, module=module)}"
                                f" ({exc})") from exc


def require_installed(module: str, *, extra: str | None = None, package: str | None = None,
                      feature: str | None = None, hint: str = "") -> None:
    """Check that `module` is installed without importing it (to fail before a long run
    starts rather than at its end)."""
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        what = f"{feature} needs {module!r}" if feature else f"this feature needs {module!r}"
        raise MissingDependency(f"{what}: {install_hint(extra=extra, package=package, module=module)}"
                                f"{hint}")
