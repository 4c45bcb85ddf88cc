r"""A fast slice of the differential benchmark (`benchmarks/math_differential.py`): the first
300 pairs of its generated corpus (seed 0), every kind of problem and every shape of ending,
scored by `MathReward` and by math-verify.

Every pair our verifier gets wrong against its by-construction label is listed in
DISAGREEMENTS with the mathematical reason, and nothing else is: a fix or a regression in the
verifier shows up here as a pair to remove from, or add to, the table. Every pair where our
verdict and math-verify's differ falls in a class of MATH_VERIFY_WRONG, which says why
math-verify is wrong there: no unexplained disagreement."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from math_corpus import KINDS, SHAPES, make_pairs
from math_differential import disagreement_classes, math_verify_verdicts, ours_verdicts

SUBSET = make_pairs(300, seed=0)

# (kind, form, shape): why our verdict differs from the label. Empty: on this slice every
# verdict matches its label (the last class, `x < a \text{ or } x > b` against the union
# of intervals, is read as that union since `disjunction_as_union`). A new entry needs the
# mathematical reason our verdict is right, or a fix.
DISAGREEMENTS: dict[tuple[str, str, str], str] = {}


_FACTORIALS = ("math-verify rounds both 1/n! and 1/m! to 0.0 at 6 decimals and calls them "
               "equal; they differ by a factor of at least n+1")
# (kind, form) of a comparison class, or ("extraction", shape): why math-verify is wrong.
MATH_VERIFY_WRONG: dict[tuple[str, str], str] = {
    ("extraction", "answer_tags"): "math-verify does not read <answer> tags and takes a number "
                                   "of the reasoning",
    ("extraction", "only_answer"): "a completion that is only the answer, without $: math-verify "
                                   "reads plain text as digits and operators (x = \\pm 3 -> 3)",
    ("extraction", "bold_final"): "'**Final Answer** X' with no colon and no $: math-verify has no "
                                  "rule for it and takes the reasoning's last $...$",
    ("extraction", "chinese"): "'答案是 X' for a non-number X: math-verify takes the reasoning's "
                               "last $...$",
    ("extraction", "display_end"): "'16 \\text{ meters}' in $$...$$: math-verify compares the "
                                   "product 16 * meters",
    ("extraction", "choice_prose"): "a choice letter in prose: math-verify reads no letters",
    ("factorial_close", "two_more"): _FACTORIALS,
    ("factorial_close", "one_less"): _FACTORIALS,
    ("factorial_close", "slash_two_more"): _FACTORIALS,
    ("factorial_close", "slash"): _FACTORIALS,
    ("interval_union", "inequalities"): "x < a or x > b is (-inf, a) U (b, inf); latex2sympy "
                                        "reads 'or' as a set of two relations",
    ("interval_decimal", "inequality"): "0.5 <= x < 4 is [0.5, 4); math-verify does not equate a "
                                        "chained inequality with the interval",
    ("thousands", "thin_space"): "898\\,693 is 898693 (a thin-space thousands separator); "
                                 "math-verify reads 898 + 693",
}


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


def test_every_disagreement_with_math_verify_is_explained(verdicts, math_reward):
    ours, theirs = verdicts
    classes = disagreement_classes(SUBSET, ours, theirs, math_reward)
    unexplained = {key: (members[0].completion[-90:], members[0].gold)
                   for key, members in classes.items() if key[:2] not in MATH_VERIFY_WRONG}
    assert not unexplained, f"disagreements with math-verify without a reason: {unexplained}"
    for (_, _, ours_verdict, _), members in classes.items():
        assert all(ours_verdict == p.correct for p in members)  # the label backs us in each
