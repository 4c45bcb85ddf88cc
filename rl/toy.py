"""The toy task the loops are tested on: the reward is 1 when the completion contains a target
string, else 0. `pick_target` chooses a target the untrained model emits rarely (about 10% of
completions), so a run that ends near 1.0 has learned something."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from rewards._types import Sample, Score

__all__ = ["TargetReward", "pick_target"]


class TargetReward:
    """1.0 when the completion contains (or ends with) `target`, else 0.0 (reason `wrong`)."""

    kind = "verifiable"

    def __init__(self, target: str, *, mode: Literal["contains", "endswith"] = "contains",
                 name: str = "target") -> None:
        if not target:
            raise ValueError("target must be a non-empty string")
        self.target = target
        self.mode = mode
        self.name = name

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        hit = (lambda text: self.target in text) if self.mode == "contains" \
            else (lambda text: text.rstrip().endswith(self.target))
        return [Score(1.0, "ok") if hit(s.completion) else Score(0.0, "wrong") for s in samples]


def pick_target(model_dir: str | Path, prompts: Sequence[str], *, samples_per_prompt: int = 16,
                max_tokens: int = 4, rate: float = 0.1, seed: int = 0) -> tuple[str, float]:
    """Sample from the untrained model and return (target, its hit rate): the decoded token
    (2+ visible characters) whose `contains` rate over the completions is closest to `rate`."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rl._rollout import TransformersRollout

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    model = AutoModelForCausalLM.from_pretrained(str(model_dir)).eval()
    torch.manual_seed(seed)
    ids = [tokenizer(p)["input_ids"] for p in prompts]
    outputs = TransformersRollout(model, tokenizer).generate(
        ids, n=samples_per_prompt, max_tokens=max_tokens, temperature=1.0, top_p=1.0)
    texts = [tokenizer.decode(c, skip_special_tokens=True) for group in outputs for c, _ in group]
    candidates = {tokenizer.decode([t]) for group in outputs for c, _ in group for t in c}
    candidates = {c for c in candidates if len(c.strip()) >= 2 and c.isprintable()}
    rates = Counter({c: sum(c in text for text in texts) / len(texts) for c in candidates})
    if not rates:
        raise RuntimeError("the model produced no usable target token")
    target = min(rates, key=lambda c: (abs(rates[c] - rate), c))
    return target, rates[target]
