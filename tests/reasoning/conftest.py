from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_tokenizer_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny byte-level BPE tokenizer of `rewards.testing`, saved locally (no hub)."""
    pytest.importorskip("transformers")
    pytest.importorskip("tokenizers")
    from rewards.testing import build_tiny_tokenizer

    return build_tiny_tokenizer(tmp_path_factory.mktemp("tiny-tokenizer"))
