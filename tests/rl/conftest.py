"""The toy task of the RL tests: the tiny random Llama, 8 arithmetic prompts, and a reward of
1 when the completion contains a target string that the untrained model emits in about 10% of
its 4-token completions (picked by sampling it, so the task stays hard whatever the weights)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

PROMPTS = [f"What is the sum of {a} and {b}?"
           for a, b in [(1, 2), (3, 4), (5, 6), (7, 8), (10, 20), (11, 12), (30, 40), (9, 9)]]


@dataclass(frozen=True)
class ToyTask:
    model: Path
    prompts: Path
    reward_config: Path
    target: str
    initial_rate: float


@pytest.fixture(scope="session")
def toy_task(tiny_lm_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> ToyTask:
    pytest.importorskip("torch", reason="the RL loops need torch: pip install -e '.[train]'")
    from rewards.testing import pick_target

    root = tmp_path_factory.mktemp("toy_task")
    prompts = root / "prompts.jsonl"
    prompts.write_text("".join(json.dumps({"prompt": p, "bucket": "easy" if i % 2 else "hard"})
                               + "\n" for i, p in enumerate(PROMPTS)))
    target, rate = pick_target(tiny_lm_dir, PROMPTS, samples_per_prompt=16, max_tokens=4)
    reward_config = root / "reward.yaml"
    reward_config.write_text("domains:\n  default:\n    rewards:\n"
                             f"      - {{use: 'rewards.testing:TargetReward', name: target, target: {json.dumps(target)}}}\n")
    return ToyTask(tiny_lm_dir, prompts, reward_config, target, rate)


@pytest.fixture(autouse=True)
def _two_threads():
    """The loops' tests run on 2 shared cores: keep torch from oversubscribing them."""
    torch = pytest.importorskip("torch", reason="needs torch")
    before = torch.get_num_threads()
    torch.set_num_threads(min(before, 2))
    yield
    torch.set_num_threads(before)
