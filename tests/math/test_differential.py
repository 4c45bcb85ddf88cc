r"""A fast slice of the differential benchmark (`benchmarks/math_differential.py`): the first
300 pairs of its generated corpus (seed 0), every kind of problem and every shape of ending,
scored by `MathReward` and by math-verify.

Every pair our verifier gets wrong against its by-construction label is listed in
DISAGREEMENTS with the mathematical reason, and nothing else is: a fix or a regression in the
verifier shows up here as a pair to remove from, or add to, the table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from math_corpus import KINDS, SHAPES, make_pairs
from math_differential import math_verify_verdicts, ours_verdicts

SUBSET = make_pairs(300, seed=0)

# (kind, form, shape): why our verdict differs from the label. Empty: on this slice every
# verdict matches its label (the last class, `x < a \text{ or } x > b` against the union
# of intervals, is read as that union since `disjunction_as_union`). A new entry needs the
# mathematical reason our verdict is right, or a fix.
DISAGREEMENTS: dict[tuple[str, str, str], str] = {}


@pytest.fixture(scope="module")
def verdicts(math_reward) -> tuple[list[bool], list[bool]]:
    return ours_verdicts(SUBSET, math_reward), math_verify_verdicts(SUBSET)


def test_subset_covers_every_kind_and_most_shapes():
    assert {p.kind for p in SUBSET} == set(KINDS) | {"no_answer"}
    assert len({p.shape for p in SUBSET}) >= len(SHAPES) - 1
    assert make_pairs(300, seed=0) == SUBSET  # deterministic, so the table stays keyed right


def test_every_wrong_verdict_is_listed_with_its_reason(verdicts):
    ours, _ = verdicts
    wrong = {(p.kind, p.form, p.shape): p for p, o in zip(SUBSET, ours) if o != p.correct}
    unlisted = {key: (p.completion[-120:], p.gold, p.correct)
                for key, p in wrong.items() if key not in DISAGREEMENTS}
    fixed = sorted(set(DISAGREEMENTS) - set(wrong))
    assert not unlisted, f"wrong against the label and not in DISAGREEMENTS: {unlisted}"
    assert not fixed, f"listed in DISAGREEMENTS but now right (remove them): {fixed}"


def test_at_least_as_accurate_as_math_verify(verdicts):
    ours, theirs = verdicts
    labels = [p.correct for p in SUBSET]
    ours_right = sum(o == y for o, y in zip(ours, labels))
    theirs_right = sum(t == y for t, y in zip(theirs, labels))
    assert ours_right >= theirs_right, (ours_right, theirs_right)
