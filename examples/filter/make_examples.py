"""Regenerate the bundled filter-prompts examples: `python examples/filter/make_examples.py`.

30 math prompts with reference answers and 16 rollouts each, written as a policy would: some
prompts every rollout solves (too easy), some none or one does (too hard), most in between,
and one prompt whose reference cannot be parsed (unscorable). Deterministic (seeded)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).parent
N = 16
# Correct rollouts out of 16, one entry per prompt: 6 too easy, 6 too hard, 17 in the band.
# A wrong rollout shows correct-looking steps but ends on a wrong answer (or gives up).
SOLVED = [16, 16, 15, 16, 15, 16, 0, 0, 1, 0, 1, 0,
          2, 3, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 13, 14, 4, 10, 6]


def problem(rng: random.Random, kind: int) -> tuple[str, str, list[str]]:
    """(question, reference, worked steps) for one generated problem."""
    a, b = rng.randint(3, 40), rng.randint(3, 40)
    if kind == 0:
        return f"What is {a} \\times {b}?", str(a * b), [f"{a} \\times {b} = {a * b}"]
    if kind == 1:
        x, c = rng.randint(2, 12), rng.randint(1, 30)
        return (f"Solve for $x$: ${a}x + {c} = {a * x + c}$.", str(x),
                [f"{a}x = {a * x + c} - {c} = {a * x}", f"x = {a * x} / {a} = {x}"])
    if kind == 2:
        p, q = rng.randint(2, 30), rng.randint(31, 90)
        f = Fraction(p, q)
        return (f"Simplify the fraction $\\frac{{{p}}}{{{q}}}$.",
                f"\\frac{{{f.numerator}}}{{{f.denominator}}}",
                [f"gcd({p}, {q}) = {p // f.numerator}"])
    n = rng.randint(5, 25)
    return (f"What is the sum of the integers from 1 to {n}?", str(n * (n + 1) // 2),
            [f"1 + 2 + ... + {n} = {n} \\cdot {n + 1} / 2 = {n * (n + 1) // 2}"])


def wrong_answer(rng: random.Random, reference: str) -> str:
    if reference.startswith("\\frac"):
        num, den = reference[6:-1].split("}{")
        return f"\\frac{{{int(num) + 1}}}{{{den}}}"
    return str(int(reference) + rng.choice([-10, -2, -1, 1, 2, 3, 10]))


def completion(rng: random.Random, steps: list[str], answer: str | None) -> str:
    if answer is None:  # gives up before computing anything
        return "Let me think about this. I am not sure how to approach it, sorry."
    body = "Let me work through this step by step.\n" + "\n".join(steps) + "\n"
    style = rng.randrange(3)
    if style == 0:
        return body + f"So the final answer is $\\boxed{{{answer}}}$."
    if style == 1:
        return body + f"Therefore, the answer is \\boxed{{{answer}}}."
    return body + f"The answer is {answer}."


def main() -> None:
    rng = random.Random(0)
    prompts, rollouts = [], []
    for i, solved in enumerate(SOLVED):
        question, reference, steps = problem(rng, i % 4)
        pid = f"math-{i:03d}"
        prompts.append({"id": pid, "prompt": question + " Put the final answer in \\boxed{}.",
                        "reference": reference, "domain": "math", "source": "generated"})
        outcomes = [True] * solved + [False] * (N - solved)
        rng.shuffle(outcomes)
        for ok in outcomes:
            answer = reference if ok else (None if rng.random() < 0.2
                                           else wrong_answer(rng, reference))
            rollouts.append({"id": pid, "completion": completion(rng, steps, answer)})
    pid = "math-bad-reference"
    # A gold answer truncated in the dataset: the math reward abstains (bad_reference).
    prompts.append({"id": pid, "prompt": "Find the area of the shaded region in the figure.",
                    "reference": "\\frac{3}{", "domain": "math", "source": "generated"})
    for k in range(N):
        rollouts.append({"id": pid, "completion": f"The area is \\boxed{{{12 + k % 3}}}."})
    for name, rows in (("prompts.jsonl", prompts), ("rollouts.jsonl", rollouts)):
        with (HERE / name).open("w") as fh:
            fh.writelines(json.dumps(row) + "\n" for row in rows)


if __name__ == "__main__":
    main()
