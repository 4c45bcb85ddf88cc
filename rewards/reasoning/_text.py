"""Text helpers of the reasoning components: the answer after a marker, tag pairs, the
completion as text. Plain string operations only (`str.find`, `str.count`): each is linear in
the completion, so no completion can make them slow."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rewards.errors import ConfigError
from rewards.types import Sample

__all__ = ["DEFAULT_MAX_SCAN_CHARS", "completion_text", "markers_option", "tag_pair",
           "text_after"]

DEFAULT_MAX_SCAN_CHARS = 400_000
"""Most characters of a completion a pattern-counting component reads (about 100k tokens of
English): a completion is cut to this before any regular expression or n-gram count runs."""


def completion_text(sample: Sample) -> str:
    """The completion as text; a non-text completion is the empty string (no answer, no
    format, length 0)."""
    return sample.completion if isinstance(sample.completion, str) else ""


def text_after(text: str, markers: Sequence[str]) -> str | None:
    """The text after the last occurrence of any of `markers`, or `None` when none occurs.
    (With several markers the latest end wins: `a</think>b</reasoning>c` -> `c`.)"""
    end = -1
    for marker in markers:
        at = text.rfind(marker)
        if at >= 0:
            end = max(end, at + len(marker))
    return None if end < 0 else text[end:]


def markers_option(value: Any, *, what: str, name: str = "answer_after") -> tuple[str, ...]:
    """A marker option: one non-empty string, or a non-empty list of them."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not items \
            or not all(isinstance(m, str) and m for m in items):
        raise ConfigError(f"{what}: option {name!r} must be a non-empty string (such as "
                          f"'</think>') or a list of them, got {value!r}")
    return tuple(items)


def tag_pair(value: str | tuple[str, str], *, name: str) -> tuple[str, str]:
    """A tag option: a name (`think` -> `<think>`, `</think>`) or an `[open, close]` pair
    (`["<REASONING_START>", "<REASONING_END>"]`). Errors read `name: problem`, as the config
    loader expects from a dataclass's own checks."""
    if isinstance(value, str) and value and not any(c in value for c in "<>/ \t\n"):
        return f"<{value}>", f"</{value}>"
    if isinstance(value, tuple) and len(value) == 2 and all(value) and value[0] != value[1]:
        return value
    raise ConfigError(f"{name}: must be a tag name such as 'think' (no <, >, / or spaces) or "
                      f"a pair [open, close] of two different non-empty strings, not {value!r}")
