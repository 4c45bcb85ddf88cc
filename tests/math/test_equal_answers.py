r"""Equal answers the verifier rejected and readable golds it refused, from real completions of
MATH-500, OlympiadBench, Minerva, Gaokao, AIME and AMC (issue #33), each beside the near miss
that must stay wrong."""

from __future__ import annotations

import pytest

from rewards import Sample

# (gold, completion, value)
CASES = [
    # math-verify drops a letter after the last number as a unit (`4+4h` is 4+4): not where
    # the letter is the function's variable.
    ("C(h)=4+4h", "\\boxed{C(h)=4h+4}", 1.0), ("C(h)=4+4h", "\\boxed{C(h)=4h+5}", 0.0),
    ("C(h)=4h+4", "\\boxed{C(h)=4+4h}", 1.0), ("C(h)=4h+4", "\\boxed{C(h)=4+5h}", 0.0),
    # Hyperbolic functions against exponentials.
    ("\\frac{1}{a}\\sinh(at)", "\\boxed{\\frac{1}{2a}(e^{at}-e^{-at})}", 1.0),
    ("\\frac{1}{a}\\sinh(at)", "\\boxed{\\frac{1}{2a}(e^{at}+e^{-at})}", 0.0),
    ("\\cosh(x)", "\\boxed{\\frac{e^x+e^{-x}}{2}}", 1.0),
    ("\\cosh(x)", "\\boxed{\\frac{e^x-e^{-x}}{2}}", 0.0),
    # An equation with a derivative: dM/dt is an unknown, not the derivative of a constant
    # (which sympy makes 0, so that both signs read as `0 = kM`).
    ("\\frac{dM}{dt}=-kM", "\\boxed{\\frac{dM}{dt} = -kM}", 1.0),
    ("\\frac{dM}{dt}=-kM", "\\boxed{\\frac{dM}{dt}=kM}", 0.0),
    ("\\frac{dM}{dt}=-kM", "\\boxed{\\frac{dM}{dt}=-2kM}", 0.0),
    # A list of names, in any order; an ordering, written either way.
    ("E_{1},E_{2}", "\\boxed{E_2, E_1}", 1.0), ("E_{1},E_{2}", "\\boxed{E_1, E_3}", 0.0),
    ("b > a > c", "\\boxed{c < a < b}", 1.0), ("b > a > c", "\\boxed{a > b > c}", 0.0),
    ("b > a > c", "\\boxed{b \\geq a > c}", 0.0), ("a \\ge b > c", "\\boxed{c < b \\le a}", 1.0),
    # An option's text boxed right after its letter, against a letter gold.
    ("B", "The answer is (B) $\\boxed{12}$.", 1.0),
    ("B", "So the correct choice is (C): $\\boxed{12}$.", 0.0),
    ("B", "Option (B) gives 10, which is too small, so $\\boxed{12}$.", 0.0),
    # Golds as distributed: `$` separators, a unit over a unit, a value stated in a sentence.
    ("$5$;$10$", "\\boxed{5$;$10}", 1.0), ("$5$;$10$", "\\boxed{5$;$11}", 0.0),
    ("$f(n)=n$, $g(n)=1$", "\\boxed{f(n)=n$, $g(n)=1}", 1.0),
    ("$f(n)=n$, $g(n)=1$", "\\boxed{f(n)=n$, $g(n)=2}", 0.0),
    ("$241,920,000$ cans", "\\boxed{241,920,000$ cans}", 1.0),
    ("20 $cm^{2}$", "\\boxed{20 $cm^{2}}", 1.0), ("20 $cm^{2}$", "\\boxed{21 $cm^{2}}", 0.0),
    ("$\\approx 1.47$ miles/s", "\\boxed{1.47}", 1.0),
    ("$\\approx 1.47$ miles/s", "\\boxed{1.48}", 0.0),
    ("The mode is $x=0$.", "\\boxed{x=0}", 1.0), ("The mode is $x=0$.", "\\boxed{x=1}", 0.0),
    ("Solution is: $[x=1, y=5, z=3]$", "\\boxed{[x=1, y=5, z=3]}", 1.0),
    ("$\\mathrm{P}$-value $=0.527$", "\\boxed{0.527}", 1.0),
    ("$\\mathrm{P}$-value $=0.527$", "\\boxed{0.572}", 0.0),
    ("$\\mathrm{P}$-value $=0.527$", ("Final Answer: The final answer is $\\mathrm{P}$-value "
                                      "$=0.527$. I hope it is correct."), 1.0),
    ("Therefore the probability of ending up in location 1 is 0.367 .", "\\boxed{0.367}", 1.0),
    ("Therefore the probability of ending up in location 1 is 0.367 .", "\\boxed{0.368}", 0.0),
    # Several answers in one sentence, or a value after other values: never one part alone
    # (uncertain: wrong without a judge); the gold is read whole, its own text answers it.
    ("radius: 1 , center: $(2,3,5)$", "\\boxed{(2,3,5)}", 0.0),
    ("radius: 1 , center: $(2,3,5)$", "\\boxed{radius: 1, center: $(2,3,5)$}", 1.0),
    ("$s(t)=\\cos t, v(t)=-\\sin t$, maximum speed is 1", "\\boxed{1}", 0.0),
    ("$s(t)=\\cos t, v(t)=-\\sin t$, maximum speed is 1",
     "The answer is $s(t)=\\cos t$, $v(t)=-\\sin t$, maximum speed is 1.", 1.0),
    ("Yes, this is a subspace.", "\\boxed{a subspace}", 0.0),
]


@pytest.mark.parametrize(("gold", "completion", "value"), CASES,
                         ids=[f"{i}-{g[:20]}" for i, (g, _, _) in enumerate(CASES)])
def test_equal_answers_and_readable_golds(math_reward, gold, completion, value):
    assert math_reward.score([Sample("p", completion, reference=gold)])[0].value == value


@pytest.mark.parametrize("depth", [10, 300, 5000])
def test_a_dollar_in_nested_boxes_is_read_without_recursion(math_reward, depth):
    """A `$` read as a gold's text switch re-reads the box's content: boxes nested in it are
    not re-read (5,000 of them once raised RecursionError out of the extraction)."""
    completion = "\\boxed{" * depth + "1$2" + "}" * depth
    score = math_reward.score([Sample("p", completion, reference="3")])[0]
    assert score.value == 0.0
