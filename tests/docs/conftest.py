"""Fixtures for the docs' code blocks: each `setup=NAME` writes files into a block's folder
before it runs. Models are built once per test session and copied (they are tiny)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))  # `snippets` imports from the test modules

from snippets import REPO

_built: dict[str, Path] = {}


def _model(kind: str, root: Path) -> Path:
    if kind not in _built:
        from rewards.testing import build_tiny_causal_lm, build_tiny_reward_model

        build = build_tiny_causal_lm if kind == "lm" else build_tiny_reward_model
        _built[kind] = build(root / f"tiny-{kind}", seed=0)
    return _built[kind]


def _copy_model(kind: str, to: str) -> Callable[[Path, Path], None]:
    def setup(folder: Path, cache: Path) -> None:
        target = folder / to
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(_model(kind, cache), target)
    return setup


def _copy_file(source: Path, to: str) -> Callable[[Path, Path], None]:
    def setup(folder: Path, cache: Path) -> None:
        shutil.copyfile(source, folder / to)
    return setup


def _verl_parquet(folder: Path, cache: Path) -> None:
    """gsm8k_verl.parquet: eight GSM8K-style rows in veRL's layout, as docs/datasets.md's script
    writes them (nested `reward_model.ground_truth`, chat-message `responses`)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [{"data_source": "openai/gsm8k",
             "prompt": [{"role": "user", "content": f"What is {i} + {2 * i}?"}],
             "ability": "math",
             "reward_model": {"style": "rule", "ground_truth": str(3 * i)},
             "extra_info": {"split": "train", "index": i},
             "responses": [{"role": "assistant", "content": f"{i} + {2 * i} = {3 * i}.\n"
                            f"#### {3 * i if i % 4 else 3 * i + 1}"}]}  # every 4th one wrong
            for i in range(1, 9)]
    pq.write_table(pa.Table.from_pylist(rows), folder / "gsm8k_verl.parquet")


SETUPS: dict[str, Callable[[Path, Path], None]] = {
    # a tiny random-weight causal LM (transformers and vLLM load it) at path/to/model
    "tiny_model": _copy_model("lm", "path/to/model"),
    # a tiny random-weight scalar reward model at path/to/reward_model
    "tiny_rm": _copy_model("rm", "path/to/reward_model"),
    # the bundled example rollouts (math and code) as rollouts.jsonl
    "rollouts": _copy_file(REPO / "rewards/data/example_rollouts.jsonl", "rollouts.jsonl"),
    # eight rows in veRL's Parquet layout as gsm8k_verl.parquet (docs/datasets.md writes 600)
    "verl_parquet": _verl_parquet,
}


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("docs_models")
