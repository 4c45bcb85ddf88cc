"""Every pattern the math verifier runs on model text stays linear: each module-level regex of
`rewards.math` (and the whole extract -> compare path) is fed inputs built to make a
backtracking pattern explode (long runs of the characters patterns repeat), under a budget a
linear pass meets by orders of magnitude (the trailing-unit pattern this replaced took 13 s on
the first input below)."""

from __future__ import annotations

import importlib
import re
import time

import pytest

from rewards.math import MathConfig
from rewards.math._compare import compare_local
from rewards.math._extract import find_answer

MODULES = ["rewards.math._extract", "rewards.math._normalize", "rewards.math._limits", "rewards.math._fast",
           "rewards.math._evaluate", "rewards.math._compare"]


def _reference_seconds() -> float:
    """This machine's time for a plain linear regex scan of 300,000 characters (best of 3)."""
    text = "a1 " * 100_000
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        sum(1 for _ in re.finditer(r"\w+", text))
        best = min(best, time.perf_counter() - start)
    return best


# Seconds per call, scaled to this machine: 50 linear scans of 300,000 characters (about 1 s
# on the 2-core development machine), never under 1 s. A linear pass over the inputs below
# takes milliseconds; the backtracking pattern this replaced took 13 s on the first one. A
# slower CPU scales the budget with it, so the test measures growth, not the machine.
BUDGET = max(1.0, 50 * _reference_seconds())

RUNS = ["1", " ", "1 ", "1,", "$", "$1", "\\boxed{", "{", "}", "(", "answer", "answer ", "*",
        " *", "\\text{", "\\frac{1}{", "^{", "####", "<answer>", "\\(", "\\[", ".", "1.", "x",
        "and ", ", ", "答案", "-", "!", "\\\\"]
ADVERSARIAL = [
    "\\boxed{" + "1" * 1300 + " " * 2600 + "x}",  # the input the issue measured at 13 s
    "1" * 1300 + " " * 2600 + "\\text{x}",
    *(run * (8000 // len(run)) + "\x00" for run in RUNS),
    *(run * (4000 // len(run)) for run in RUNS),
]


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if isinstance(value, re.Pattern):
                found.append((f"{name}.{attr}", value))
    return found


PATTERNS = _patterns()


def test_the_patterns_were_found():
    assert len(PATTERNS) >= 15


@pytest.mark.parametrize("name,pattern", PATTERNS, ids=[n for n, _ in PATTERNS])
def test_each_pattern_is_linear(name, pattern):
    for text in ADVERSARIAL:
        start = time.perf_counter()
        for _ in pattern.finditer(text):
            pass
        pattern.match(text)
        pattern.fullmatch(text)
        elapsed = time.perf_counter() - start
        assert elapsed < BUDGET, (name, text[:40], len(text), elapsed)


def test_extract_and_local_compare_are_bounded():
    config = MathConfig()
    for run in RUNS:  # one-off set-up (the Unicode tables of the first non-ASCII text: about
        short = run * 3  # 1 s on a loaded machine) is no growth: it happens before the clock
        compare_local(find_answer(short, config), short, config, short)
    for text in ADVERSARIAL:
        start = time.perf_counter()
        answer = find_answer(text, config)
        compare_local(answer, text, config, text)  # the same text as the gold, too
        elapsed = time.perf_counter() - start
        assert elapsed < BUDGET, (text[:40], len(text), elapsed)


def test_a_huge_gold_abstains_without_parsing():
    start = time.perf_counter()
    verdict = compare_local("5", "9" * 40_000, MathConfig())
    assert verdict.reason == "bad_reference" and "chars" in verdict.detail
    assert time.perf_counter() - start < BUDGET


def test_exact_algebra_is_bounded():
    """The exact path on the most expensive inputs its 200-token cap allows: many distinct
    square roots multiplied out, high powers, huge constants."""
    from rewards.math._evaluate import evaluate_exact

    roots = "+".join(f"\\sqrt{{{p}}}" for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37))
    inputs = [f"({roots})^{{2}}", f"({roots})({roots})({roots})", "(x+y+z+1)^{12}",
              "2^{400}", "((2^{400})^{400})^{400}", "(999983)!", "\\sqrt{999983}^{400}"]
    for text in inputs:
        start = time.perf_counter()
        evaluate_exact(text)
        elapsed = time.perf_counter() - start
        assert elapsed < BUDGET, (text[:40], elapsed)
