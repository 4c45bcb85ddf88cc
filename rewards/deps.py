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
    """`pip install 'rewards-engine[extra]'` for one of our extras, or `pip install package`
    for a framework we only plug into."""
    return f"pip install 'rewards-engine[{extra}]'" if extra else f"pip install {package or module}"


def require(module: str, *, extra: str | None = None, package: str | None = None,
            feature: str | None = None) -> ModuleType:
    """Import `module`, or raise `MissingDependency` naming what installs it: our `extra`
    (`rewards-engine[server]`) or, for a framework we only plug into, its `package`."""
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
