"""Answer formats a new user's run scored wrong before (bare `$...$` answers, unordered sets,
factored polynomials, radicals, intervals, scientific notation) and false positives an outside
red team found (equal to 12 digits, a decimal point against an integer, prose read as a
choice, percent against a decimal), scored end to end through `MathReward`."""

from __future__ import annotations

import pytest

from rewards import Sample

CASES = [
    # (completion, gold, reason)
    ("$-\\frac{5}{3}$", "-\\frac{5}{3}", "ok"),
    ("So the set is $\\{-2, 9, 0, 4\\}$", "\\{0, 4, -2, 9\\}", "ok"),
    ("It factors as $(x+2)(x+5)$", "x^2+7x+10", "ok"),
    ("It factors as $(x+2)(x+6)$", "x^2+7x+10", "wrong"),
    ("The length is $\\sqrt{50}$", "5\\sqrt{2}", "ok"),
    ("We get $(-\\infty, -1) \\cup (4, \\infty)$", "(-\\infty, -1) \\cup (4, \\infty)", "ok"),
    ("We get $(-\\infty, -1) \\cup (5, \\infty)$", "(-\\infty, -1) \\cup (4, \\infty)", "wrong"),
    ("That is $2 \\times 10^3$", "2000", "ok"),
    ("The roots are $\\boxed{1}$ and $\\boxed{-2}$.", "-2, 1", "ok"),
    ("答案是 $\\frac{1}{2}$", "0.5", "ok"),
    ("最终答案：12", "12", "ok"),
    ("Therefore $x = 5$.", "5", "ok"),
    ("$\\pm 3$", "\\{-3, 3\\}", "ok"),
    ("\\boxed{2^{100}}", "2^{100}-1", "wrong"),
    ("\\boxed{100!}", "100!+1", "wrong"),
    ("\\boxed{1000000007.0}", "1000000009", "wrong"),
    ("Answer: a number greater than 5", "A", "wrong"),
    ("\\boxed{0.5\\%}", "0.5", "wrong"),
    ("\\boxed{25\\%}", "0.25", "ok"),
    ("\\boxed{\\frac{1}{2006!}}", "\\frac{1}{2004!}", "wrong"),
    ("\\boxed{5}", float("nan"), "bad_reference"),
    ("\\boxed{5}", None, "bad_reference"),
    ("Let me think about this step by step", "7", "no_answer"),
    # A choice letter in prose is the answer to a choice gold, not a number of the reasoning.
    ("We get $x=3$, so option (B) is right.", "B", "ok"),
    ("We get $x=3$, so option (B) is right.", "C", "wrong"),
    # "**Final Answer** X" with neither a colon nor `$`: math-verify has no rule for it.
    ("The slope is 5.\n\n**Final Answer** y = 8 + 5x", "y = 5x + 8", "ok"),
    ("**Final Answer** 66%", "66", "ok"),
    ("\\begin{pmatrix}1 & 2\\\\ 3 & 4\\end{pmatrix}", "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}", "ok"),
    # A final-answer phrase after the box wins only when it states an answer.
    ("\\boxed{255}. So the final answer is $10,455$.", "10455", "ok"),
    ("\\boxed{7}. Final answer: see above", "7", "ok"),
    # latex2sympy reads "or" and "and" alike; the connective decides the set.
    ("So $x < -6 \\text{ or } x > -2$.", "(-\\infty, -6) \\cup (-2, \\infty)", "ok"),
    ("So $x < -6 \\text{ and } x > -2$.", "(-\\infty, -6) \\cup (-2, \\infty)", "wrong"),
    ("x \\le 1 \\text{ or } x \\ge 4", "(-\\infty, 1] \\cup [4, \\infty)", "ok"),
    # A percent gold and a currency gold keep their conventions on the symbolic path too.
    ("The rate is $25\\% \\text{ per year}$", "25", "ok"),
    ("It costs $\\$18.90$ in total", "\\$18.90", "ok"),
]


def test_real_formats(math_reward):
    samples = [Sample("p", completion, reference=gold) for completion, gold, _ in CASES]
    scores = math_reward.score(samples)
    got = [(completion, score.reason) for (completion, _, _), score in zip(CASES, scores)]
    assert got == [(completion, reason) for completion, _, reason in CASES]


@pytest.mark.parametrize("completion,gold", [
    ("\\boxed{5}", None), ("\\boxed{5}", ""), ("\\boxed{5}", float("inf")),
])
def test_unusable_references_abstain(math_reward, completion, gold):
    assert math_reward.score([Sample("p", completion, reference=gold)])[0].value is None
