"""Warm mode for Python (being built): until it lands, `auto` means cold."""

from __future__ import annotations

from sandbox._errors import SandboxError
from sandbox._languages import LanguageSpec


def use_warm(spec: LanguageSpec, mode: str) -> bool:
    if mode == "warm":
        raise SandboxError("warm mode is not available yet; use mode='cold' or 'auto'")
    return False


def run_warm(*args: object, **kwargs: object) -> object:
    raise SandboxError("warm mode is not available yet")
