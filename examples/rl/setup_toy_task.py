"""Build the toy task of the RL recipe in `examples/rl/toy/`: a tiny random-weight Llama
(built locally, nothing downloaded), 16 prompts, and a reward config whose reward is 1 when the
completion contains a target string that the untrained model emits in about 10% of its
4-token completions (`rewards.testing.pick_target`).

    python examples/rl/setup_toy_task.py
    rewards train grpo --config examples/rl/grpo.yaml
    rewards train ppo --config examples/rl/ppo.yaml
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROMPTS = [f"What is the sum of {a} and {b}?" for a in (1, 3, 5, 7, 10, 11, 30, 9)
           for b in (2, 8)]


def main() -> None:
    from rewards.testing import build_tiny_causal_lm, pick_target

    toy = HERE / "toy"
    model = build_tiny_causal_lm(toy / "model", seed=0)
    (toy / "prompts.jsonl").write_text("".join(json.dumps({"prompt": p}) + "\n" for p in PROMPTS))
    target, rate = pick_target(model, PROMPTS, samples_per_prompt=16, max_tokens=4)
    (toy / "reward.yaml").write_text(
        "# reward 1 when the completion contains the target string (rewards.testing.TargetReward)\n"
        "domains:\n  default:\n    rewards:\n"
        f"      - {{use: 'rewards.testing:TargetReward', name: target, target: {json.dumps(target)}}}\n")
    print(f"toy task in {toy}: target {target!r}, emitted by the untrained model in "
          f"{rate:.0%} of 4-token completions")


if __name__ == "__main__":
    main()
