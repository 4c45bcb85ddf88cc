"""Build the multi-turn examples in `examples/multiturn/toy/`: a tiny random-weight Llama
(built locally, nothing downloaded), number-guessing prompts whose secret is the reference,
and the reward config that scores the last guess (`{use: math}`); and, for `python_tool.yaml`,
the bundled math examples as prompts.

    python examples/multiturn/setup.py
    rewards train grpo --config examples/multiturn/train.yaml          # number_guess
    rewards train grpo --config examples/multiturn/python_tool.yaml    # python_tool on math
    rewards train grpo --config examples/multiturn/state.yaml          # state across calls
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOW, HIGH = 1, 8


def write_toy(root: Path, *, seed: int = 0, prompts: int = 16) -> Path:
    """The model, prompts.jsonl and reward.yaml of the number-guessing task under `root`, and
    state_prompts.jsonl (the prompts of state.yaml, which shares the model and reward)."""
    from rewards.testing import build_tiny_causal_lm

    root.mkdir(parents=True, exist_ok=True)
    build_tiny_causal_lm(root / "model", seed=seed)
    rng = random.Random(seed)
    rows = [{"id": f"game-{i}", "prompt": f"Guess the number from {LOW} to {HIGH}. Game {i}:",
             "reference": rng.randint(LOW, HIGH)} for i in range(prompts)]
    (root / "prompts.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    # state.yaml: python_menu's answer (what the last call printed) against 6 * 7
    (root / "state_prompts.jsonl").write_text("".join(
        json.dumps({"id": f"state-{i}", "prompt": f"Set x, then print it. Episode {i}:",
                    "reference": "42"}) + "\n" for i in range(prompts)))
    (root / "reward.yaml").write_text(
        "# the final reward: the last guess against the secret (the reference)\n"
        "domains:\n  default:\n    rewards: [{use: math}]\n")
    return root


def write_math_prompts(root: Path) -> Path:
    """The math prompts of the bundled examples (rewards/data/example_rollouts.jsonl), one
    per question, asking for the tool: `math_prompts.jsonl`. Only questions whose gold the
    math reward reads: the bundled examples also show a corrupted row (`\\frac{3}{`, which
    `rewards score` reports as bad_reference); trained on, it would only abstain."""
    from rewards.math import MathReward
    from rewards.types import Sample

    source = Path(__file__).resolve().parents[2] / "rewards" / "data" / "example_rollouts.jsonl"
    questions: dict[str, dict] = {}
    for line in source.read_text().splitlines():
        record = json.loads(line)
        if record.get("domain") == "math" and record["group"] not in questions:
            questions[record["group"]] = {
                "id": record["group"], "domain": "math", "reference": record["reference"],
                "prompt": "Use Python in <code>...</code> if it helps, then give the answer in "
                          f"\\boxed{{}}.\n{record['prompt']}"}
    # a gold is usable when its own answer, boxed, scores 1.0 against it
    golds = [Sample(q["prompt"], f"\\boxed{{{q['reference']}}}", reference=q["reference"])
             for q in questions.values()]
    usable = [q for q, score in zip(questions.values(), MathReward().score(golds))
              if score.value == 1.0]
    (root / "math_prompts.jsonl").write_text("".join(json.dumps(r) + "\n" for r in usable))
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    root = write_toy(HERE / "toy", seed=args.seed)
    write_math_prompts(root)
    print(f"multi-turn examples in {root}")


if __name__ == "__main__":
    main()
