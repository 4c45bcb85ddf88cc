"""Length units: characters by default (open-r1 counts `len(content)`), tokens of a local
tokenizer when one is given (TRL and DAPO count completion tokens). transformers is imported
only when a tokenizer is configured."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from rewards.deps import require
from rewards.errors import ConfigError

__all__ = ["LengthMeter", "load_tokenizer", "token_ids"]


class LengthMeter:
    """Measures completions in characters, or in tokens of `tokenizer` (a local tokenizer
    folder, loaded with `transformers.AutoTokenizer`, no hub download)."""

    def __init__(self, tokenizer: str | None, *, what: str) -> None:
        self.tokenizer = None if tokenizer is None else load_tokenizer(tokenizer, what=what)
        self.unit = "chars" if tokenizer is None else "tokens"
        """The name of the unit, also the key of the length in a component's `parts`."""

    def lengths(self, texts: Sequence[str]) -> list[int]:
        if self.tokenizer is None:
            return [len(text) for text in texts]  # code points, as Python (and open-r1) count
        return [len(ids) for ids in token_ids(self.tokenizer, texts)]

    def visible_lengths(self, texts: Sequence[str]) -> list[int]:
        """The lengths of the texts as a reader reads them (`rewards.text.read_text`: no
        zero-width, format or bidi characters): where more length earns more reward, padding
        nobody can see must not buy it."""
        from rewards.text import read_text

        return self.lengths([read_text(text) for text in texts])


def token_ids(tokenizer: Any, texts: Sequence[str]) -> list[list[int]]:
    """The token ids of each text, without special tokens (what the policy generated); a
    completion's special-token text (`<|im_end|>` written out) is text, as everywhere
    (`rewards.engines.text_ids`): it cannot make a completion one token long."""
    from rewards.engines import text_ids

    return [list(text_ids(tokenizer, text)) for text in texts]


def load_tokenizer(path: str, *, what: str) -> Any:
    """The tokenizer in the local folder `path` (cached per path: one load per process)."""
    if not isinstance(path, str) or not path:
        raise ConfigError(f"{what} reward: tokenizer: must be the path of a local tokenizer "
                          f"folder, not {path!r}")
    transformers = require("transformers", extra="train",
                           feature=f"{what} reward with a 'tokenizer' (token lengths)")
    try:
        return _load(transformers, path)
    except (OSError, ValueError, TypeError) as exc:
        raise ConfigError(f"{what} reward: tokenizer: cannot load a tokenizer from {path!r} "
                          f"(a local folder; nothing is downloaded): {exc}") from exc


@functools.lru_cache(maxsize=8)
def _load(transformers: Any, path: str) -> Any:
    return transformers.AutoTokenizer.from_pretrained(path, local_files_only=True)
