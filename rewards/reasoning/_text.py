"""Text helpers of the reasoning components: tag pairs, the completion as text (the answer
after a marker is `rewards.answer_after.text_after`). Plain string operations only: each is
linear in the completion, so no completion can make them slow."""

from __future__ import annotations

from rewards.errors import ConfigError
from rewards.types import Sample

__all__ = ["DEFAULT_MAX_SCAN_CHARS", "completion_text", "tag_pair"]

DEFAULT_MAX_SCAN_CHARS = 400_000
"""Most characters of a completion a pattern-counting component reads (about 100k tokens of
English): a completion is cut to this before any regular expression or n-gram count runs."""


def completion_text(sample: Sample) -> str:
    """The completion as text; a non-text completion is the empty string (no answer, no
    format, length 0)."""
    return sample.completion if isinstance(sample.completion, str) else ""


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
