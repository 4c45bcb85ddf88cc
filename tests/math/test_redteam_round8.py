"""Red team, round 8 of issue #33: the readings after a final box merged since 6dff91a, attacked from outside.

The rules attacked (6dff91a, 57cc728, b3dc2ea, 3d6e5c4, 6a8189b, afc62c3; docs/math.md):

- `rewards/math/_extract.py`: `_ASIDE_WORDS` read by `_said_after_a_mark` (an aside after a mark
  made only of words that leave the value as it is keeps the box: `(rounded)`, `, a prime
  number`, `, I think`); `_RESTATED_SENTENCE_END` (a `!` glued to a digit or a bracket is a
  factorial); `_PLAIN_OPERATORS` and `_NOT_AN_OPERATION` (`\\times`, `\\cdot`, `\\div`, `÷`, `×`,
  `**` in a restatement); `_joined_alternative` falling back to `_restated_expression`
  (`, i.e. 15/2`);
- `rewards/math/_normalize.py`: `magnitude_after` (`\\boxed{7} thousand` is 7000) and
  `symbol_numbers` (`7½` is 7.5, `7²` is `7^{2}`, from the Unicode data).

How: every probe goes through the reward as users call it, `MathReward().score([Sample(question,
completion, reference=gold)])`, behind Qwen's `The answer is $\\boxed{7}$.` phrasing. Both
directions of `/work/shared/ATTACK-CLASSES.md` that reach these rules are probed:

- buy credit (hedging, no committed answer, meaning dropped by normalization): a reply whose box
  equals the gold but which retracts it, hedges it, or changes its value with the text glued
  after it, must score 0;
- false loss: an honest reply (an aside, a magnitude, a factorial, a Unicode fraction or power,
  a unit with a superscript) must keep 1.0, as a human grader of real completions reads it.

Held attacks are plain tests. Each hole left open is an `xfail(strict=True)` whose reason starts
with its class (`buy credit`, `false loss`) and names the function at its root. The verifier is
not changed here (the author fixes). Deterministic, no timing; the whole file runs in seconds.
"""

from __future__ import annotations

import pytest

from rewards.math import MathReward, Verdict
from rewards.math._compare import compare_local
from rewards.math._extract import find_answer
from rewards.math._normalize import UNCERTAIN
from tests.math.redteam_helpers import ANSWER, APPLES
from tests.math.redteam_helpers import values as _values

# --- held: buy credit ----------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    # a judgement beside or instead of the allowed aside words (`_ASIDE_WORDS`)
    "\\boxed{7}, clearly not.", "\\boxed{7}, I think not.", "\\boxed{7}, clearly wrong.",
    "\\boxed{7} (rounded incorrectly).", "\\boxed{7} (I think not).",
    "\\boxed{7}, a prime number, or 8.", "\\boxed{7}, I think, or maybe 8.",
    # a factorial glued to a digit or a bracket (`_RESTATED_SENTENCE_END`)
    "\\boxed{7}. It is 7!.", "\\boxed{7}. It is 3!", "\\boxed{7}. It is 7!!",
    # Unicode numbers (`symbol_numbers`)
    "\\boxed{7}. It is ⅟7.", "\\boxed{7}. It is 7⅟", "\\boxed{7}. It is ↉.", "\\boxed{7}. It is 7⁰.",
    "\\boxed{7}. It is 7½.", "\\boxed{7}. It is 6½.", "\\boxed{7}, i.e. 7½",
    # operators and bold (`_PLAIN_OPERATORS`)
    "\\boxed{7}. It is **7** or **8**.", "\\boxed{7}, i.e. **7** or **8**", "\\boxed{7}. It is 7 × 0.",
    "\\boxed{7}. It is 7**0.", "\\boxed{7}. It is 7 ^ 0.",
    # `_joined_alternative` and `_restated_expression`
    "\\boxed{7}, i.e. 15/2", "\\boxed{7}, i.e. 7 or 8", "\\boxed{7}, i.e. 7, or 8",
    "\\boxed{7}, i.e. 7 and 8",
])
def test_held_buy_credit_gold_7(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize(("gold", "completion"), [
    # `magnitude_after`: a magnitude read with the box changes it; hedged magnitudes stay hedges
    ("7", "\\boxed{7} thousand."), ("7000", "\\boxed{7} thousandths."),
    ("7000", "\\boxed{7} thousand or 8 thousand."), ("7000", "\\boxed{7} thousand, or 8."),
    ("7", "\\boxed{7} hundred percent sure."),
    # a power glued to the box read as one (`symbol_numbers`) is no other gold's credit
    ("1", "\\boxed{7}⁰"), ("49", "\\boxed{7}²"), ("7.5", "\\boxed{7}½"),
    # a factorial after the box is no factorial's credit
    ("120", "\\boxed{5}!"), ("1", "\\boxed{0}!"), ("120", "\\boxed{5} !"),
])
def test_held_buy_credit_other_gold(reward: MathReward, gold: str, completion: str) -> None:
    assert _values(reward, gold, [completion]) == [0.0]


# --- held: false loss ----------------------------------------------------------------------------

@pytest.mark.parametrize(("gold", "completion"), [
    # asides made of allowed words (`_ASIDE_WORDS`)
    ("7", "\\boxed{7} (rounded)."), ("7", "\\boxed{7}, a prime number."), ("7", "\\boxed{7}, I think."),
    ("7", "\\boxed{7} (rounded to the nearest whole number)."), ("7", "\\boxed{7} (in simplest form)."),
    ("7", "\\boxed{7}, an odd prime number."), ("7", "\\boxed{7}, I believe."),
    ("7", "\\boxed{7} (a prime)."), ("7", "\\boxed{7}, thanks!"),
    # magnitudes and counted fractions (`magnitude_after`)
    ("7000", "\\boxed{7} thousand."), ("7000", "\\boxed{7} thousand dollars."),
    ("84", "\\boxed{7} dozen."), ("7000000", "\\boxed{7} million."), ("3", "\\boxed{3} quarters."),
    ("2", "\\boxed{2} millionths."), ("100", "\\boxed{100} percent."),
    ("1000000", "\\boxed{1000} thousand."),
    # factorials that explain the box (`_RESTATED_SENTENCE_END`)
    ("120", "\\boxed{120}. That is 5! ways."), ("120", "\\boxed{120}. It is 5!."),
    ("120", "\\boxed{120}. It is $5!$."), ("720", "\\boxed{720}. It is 6! = 720."),
    ("24", "\\boxed{24}. It is 4!, the number of orderings."), ("1", "\\boxed{1}. It is 0!."),
    ("1", "\\boxed{1}. It is 1!"), ("6", "\\boxed{6}. It is 3!"),
    # Unicode numbers and units with superscripts (`symbol_numbers`)
    ("7.5", "\\boxed{7.5}, i.e. 7½"), ("7.5", "\\boxed{7.5}. It is 7½."), ("49", "\\boxed{49}, i.e. 7²"),
    ("49", "\\boxed{49}. It is 7²."), ("8", "\\boxed{8}. It is 2³."), ("1", "\\boxed{1}. It is 7⁰."),
    ("0.5", "\\boxed{0.5}. It is ½."), ("0.5", "\\boxed{\\frac{1}{2}}. It is ½."),
    ("0.25", "\\boxed{\\frac{1}{4}}, i.e. ¼."), ("7", "\\boxed{7}. It is 7↉."),
    ("5", "\\boxed{5} cm²."), ("5", "\\boxed{5} m s⁻²."), ("5", "\\boxed{5} m/s²."),
    ("5", "\\boxed{5} cm³ of water."), ("5", "\\boxed{5} m², i.e. 5 square metres."),
    ("5", "\\boxed{5}. It is 5 m²."),
    # operators (`_PLAIN_OPERATORS`)
    ("2", "\\boxed{2}. It is 2**1."), ("8", "\\boxed{8}. It is 2**3."), ("7", "\\boxed{7}. That is 7 × 1."),
    ("7", "\\boxed{7}, i.e. 14 ÷ 2."), ("7", "\\boxed{7}, i.e. 14 \\div 2"),
    ("7", "\\boxed{7}, i.e. $\\frac{14}{2}$."), ("7", "\\boxed{7}. It is **7**."),
    ("7", "\\boxed{7}. It is **7**, not **8**."),
])
def test_held_false_loss(reward: MathReward, gold: str, completion: str) -> None:
    assert _values(reward, gold, [completion]) == [1.0]


# --- holes: buy credit ---------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    "\\boxed{7} (rounded, wrong).", "\\boxed{7} (rounded, not exact).", "\\boxed{7} (rounded; really 8).",
    "\\boxed{7} (see above: 8).", "\\boxed{7} (thanks, but no).", "\\boxed{7}, a prime? no.",
    "\\boxed{7}, I don't think.", "\\boxed{7}, (rounded) wrong.",
])
def test_hole_aside_with_second_mark(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}⁰", "\\boxed{7}⁻¹", "\\boxed{7}½", "\\boxed{7}²",
])
def test_hole_symbol_glued_to_box(reward: MathReward, completion: str) -> None:
    """Closed: a power or fraction glued to the box is read with it (`_glued_to_box`): 1, 1/7, 7.5,
    49 are not the box's 7."""
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize(("gold", "completion"), [("7", "\\boxed{7}!"), ("5", "\\boxed{5}!!")])
def test_hole_factorial_glued_to_box(reward: MathReward, gold: str, completion: str) -> None:
    """Closed: a `!` glued to a box that is a number is its factorial (`_glued_to_box`), `!!` its
    double factorial."""
    assert _values(reward, gold, [completion]) == [0.0]


@pytest.mark.parametrize(("gold", "completion"), [
    ("120", "\\boxed{120}. It is 5!!."), ("6", "\\boxed{6}. It is 3!!"),
])
def test_hole_double_factorial_buys(reward: MathReward, gold: str, completion: str) -> None:
    """Closed: `n!!` in a restatement is the double factorial (`_RESTATED_SENTENCE_END`,
    `_value_differs`)."""
    assert _values(reward, gold, [completion]) == [0.0]


def test_hole_bracket_factorial_buys(reward: MathReward) -> None:
    """Closed: `(7)!` is a factorial (`_FACTORIAL_AFTER` in `_restated_value`; `_restated` keeps
    the bracket)."""
    assert _values(reward, "7", ["\\boxed{7}. It is (7)!"]) == [0.0]


@pytest.mark.parametrize("completion", ["\\boxed{7}. It is 7⁻¹.", "\\boxed{7}. It is 49⁻¹."])
def test_hole_superscript_minus(reward: MathReward, completion: str) -> None:
    """Closed: `symbol_numbers` reads a superscript sign (`7⁻¹` is `7^{-1}`)."""
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", ["\\boxed{7}. It is 7 ½.", "\\boxed{7}. It is 7²ˣ."])
def test_hole_spaced_fraction(reward: MathReward, completion: str) -> None:
    """Closed: `symbol_numbers` reads `7 ½` as 7.5 and `7²ˣ` as `7^{2x}`, a power of a variable, no
    constant."""
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is 7 × or 8.", "\\boxed{7}, i.e. 7 × or 8", "\\boxed{7}, i.e. 7 \\times or 8",
    "\\boxed{7}. It is 7 ÷ or 8.", "\\boxed{7}. It is 7 \\cdot or 8.", "\\boxed{7}. It is 7 × 1 or 8.",
    "\\boxed{7}, i.e. 7 · 1 or 8",
])
def test_hole_operator_hedge(reward: MathReward, completion: str) -> None:
    """Closed: each alternative after `or` is read, and one the arithmetic cannot read is not the
    box (`_restated_expression`)."""
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is 7 ** 0.", "\\boxed{7}. It is 7 ** 1 or 8.",
    "\\boxed{7}, i.e. 7 ** 1 or 8",
])
def test_hole_spaced_power_as_markdown(reward: MathReward, completion: str) -> None:
    """Closed: stars between two numbers are an operator, spaced or not (`_SPACED_OPERATOR`)."""
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is 7 ÷ 0.", "\\boxed{7}, i.e. 14 ÷ 2 ÷ 0", "\\boxed{7}. It is 14 \\div 0.",
    "\\boxed{7}. It is 7 ×.", "\\boxed{7}, i.e. 7 ×× 8",
])
def test_hole_undefined_restatement(reward: MathReward, completion: str) -> None:
    """Closed: a restatement the arithmetic cannot read (`7 ÷ 0`, `7 ×.`) is not the box
    (`_value_differs`)."""
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}, i.e. 7 or 15/2", "\\boxed{7}, i.e. 14/2, or 15/2", "\\boxed{7}, i.e. 14/2 or 15/2",
    "\\boxed{7}, namely 14/2 or 8", "\\boxed{7}, i.e. 7 ± 1", "\\boxed{7}, i.e. 7 \\pm 1.",
    "\\boxed{7}, i.e. 7 / 8 or so", "\\boxed{7}, i.e. x = 8",
])
def test_hole_restating_word_hedge(reward: MathReward, completion: str) -> None:
    """Closed: after a restating word, alternatives, `±` and the value after `=` are each read
    (`_restated_expression`)."""
    assert _values(reward, "7", [completion]) == [0.0]


def test_hole_bold_hedge_sentence(reward: MathReward) -> None:
    assert _values(reward, "7", ["\\boxed{7}. **7** or **8**."]) == [0.0]


def test_hole_hundred_percent(reward: MathReward) -> None:
    """Closed: `magnitude_after` reads `hundred percent` as a percent (700% is 7)."""
    assert _values(reward, "700", ["\\boxed{7} hundred percent."]) == [0.0]
    assert _values(reward, "7", ["\\boxed{7} hundred percent."]) == [1.0]


def test_hole_hyphenated_ordinal(reward: MathReward) -> None:
    """Closed: `magnitude_after` reads no magnitude joined by a hyphen to a word (`thousand-th`)."""
    assert _values(reward, "7000", ["\\boxed{7} thousand-th."]) == [0.0]


# --- holes: false loss ---------------------------------------------------------------------------

@pytest.mark.parametrize(("gold", "completion"), [
    ("15", "\\boxed{15}. It is 5!!."), ("120", "\\boxed{120}. It is (5)!."),
])
def test_hole_factorial_explanation_loses(reward: MathReward, gold: str, completion: str) -> None:
    """Closed: `5!!` is 15 and `(5)!` is 120 in a restatement."""
    assert _values(reward, gold, [completion]) == [1.0]


def test_hole_dozen_counted(reward: MathReward) -> None:
    """Closed: where the question counts in dozens, `dozen` after the box names the unit
    (`counted_magnitude`)."""
    question = "A carton holds a dozen eggs. How many dozen eggs does she buy?"
    assert _values(reward, "12", ["\\boxed{12} dozen eggs.", "\\boxed{12} dozen."],
                   question=question) == [1.0, 1.0]


# --- held since the glued allow-list: what may follow a box -------------------------------------

@pytest.mark.parametrize(("gold", "completion"), [
    # marks known to leave the box's value (`_HARMLESS_GLUE`)
    ("7", "\\boxed{7}."), ("7", "$\\boxed{7}$!"), ("7", "\\boxed{7}$!"),
    ("7", "\\boxed{7}, which is prime."), ("7", "\\boxed{7}\u662f\u7b54\u6848\u3002"),
    ("7", "\\boxed{7} apples."), ("7", "\\boxed{7}**."), ("7", "\\boxed{7}\\)."),
    ("7", "\\boxed{7}\\quad"), ("7", "\\boxed{7}</b>"), ("7", "\\boxed{7}\"."),
    ("7", "\\boxed{7}\u3002"), ("5", "\\boxed{5}\\%"), ("5", "\\boxed{5}^\\circ"),
    ("\\text{Yes}", "\\boxed{\\text{Yes}}!"),
    # a unit glued (`normalize` drops it), a glued value equal to the box
    ("5", "\\boxed{5}cm"), ("5", "\\boxed{5}\\text{ cm}"), ("1", "\\boxed{1}\u2070"),
    # a value in brackets equal to the box, or an explanation of it (`_bracketed_value`)
    ("7", "\\boxed{7} (7)"), ("7", "\\boxed{7} (14/2)"), ("7", "\\boxed{7} (3 + 4)"),
    ("120", "\\boxed{120} minutes (2 hours)."),
    # restatements the arithmetic reads as the box (`_restated_expression`, `_value_differs`)
    ("7", "\\boxed{7}. It is 7 * 1."), ("7", "\\boxed{7}, i.e. x = 7"),
    ("7", "\\boxed{7}, i.e. 3.5 \\times 2"), ("7", "\\boxed{7}, i.e. 14/2 or 21/3"),
    ("2", "\\boxed{2}, i.e. \\sqrt[3]{8}"),
    # a restatement in markup the arithmetic does not read explains the box, as before
    ("7", "\\boxed{7}. `It is 7.`"),
    # `hundred percent` ending the clause is a percent; `thousand-dollar` is a compound
    ("7", "\\boxed{7} thousand-dollar bills."),
])
def test_held_honest_forms_after_the_box(reward: MathReward, gold: str, completion: str) -> None:
    """What may follow a box and keep its credit: a mark on the allow-list, a unit, a value
    equal to the box (`docs/math.md`, what follows a box)."""
    assert _values(reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize(("gold", "completion"), [
    # glued text no arithmetic reads: uncertain (`wrong`, the judge's where configured)
    ("7", "\\boxed{7}th"), ("7", "\\boxed{7}{,}5"),
    # glued values that are not the box: a digit, a decimal, thousands, a power
    ("7", "\\boxed{7}8"), ("7", "\\boxed{7}.5"), ("7", "\\boxed{7},000"), ("7", "\\boxed{7}^2"),
    ("7", "\\boxed{7}^{-1}."), ("7", "\\boxed{7}!."),
    # the glued value is no credit for the gold it writes either
    ("5040", "\\boxed{7}!"), ("78", "\\boxed{7}8"), ("7.5", "\\boxed{7}.5"),
])
def test_held_glued_text_changes_the_box(reward: MathReward, gold: str, completion: str) -> None:
    """Anything glued to a box's brace off the allow-list makes the answer not the box alone:
    another value (said of the box, which `affirms` refuses) or uncertain."""
    assert _values(reward, gold, [completion]) == [0.0]


def test_glued_text_no_arithmetic_reads_is_uncertain() -> None:
    """`\\boxed{7}th` is neither the box alone nor a value: the pair is the judge's."""
    text = ANSWER + "\\boxed{7}th"
    verdict = compare_local(find_answer(text), "7", text=text, question=APPLES)
    assert isinstance(verdict, Verdict) and verdict.reason == "wrong"
    assert verdict.detail.startswith(UNCERTAIN)


# --- after the fixes of h-m10: what follows a box is read by what it says of the value ------------

@pytest.mark.parametrize(("gold", "completion"), [
    # asides known harmless, explanations that judge nothing, the box's value again
    ("7", "\\boxed{7} (rounded to 2 decimal places)."), ("7", "\\boxed{7}, so she has 7 apples."),
    ("7", "\\boxed{7} (see above: 7)."), ("7", "\\boxed{7} (by inspection)."),
    ("7", "\\boxed{7} to the nearest integer."), ("7", "\\boxed{7}, which is the answer."),
    ("7", "\\boxed{7} -> done."), ("7", "\\boxed{7} (3 + 4)."),
    ("\\frac{35}{36}", "\\boxed{\\frac{35}{36}} (approximately 0.972)."),
    # sentences after the box that judge nothing, or restate or describe it
    ("7", "\\boxed{7}. Verified."), ("7", "\\boxed{7}. Thanks for reading."),
    ("7", "\\boxed{7}. Hope this helps."), ("7", "\\boxed{7}. Let me know if you have questions."),
    ("7", "\\boxed{7}. 7 is the answer."), ("7", "\\boxed{7}. Hmm, 7."), ("7", "\\boxed{7}. It is positive."),
    ("\\pi", "\\boxed{\\pi}. It is about 3.14."), ("\\pm 2", "\\boxed{\\pm 2}. It is \\pm 2."),
    # other languages: an affirmative clause that judges nothing
    ("7", "\\boxed{7}. Das ist richtig."), ("7", "\\boxed{7}\u3002\u7b54\u6848\u6b63\u786e\u3002"),  # 。答案正确。
    ("7", "\\boxed{7} \u00e8 la risposta giusta."),
])
def test_an_honest_word_after_the_box_keeps_it(reward: MathReward, gold: str, completion: str) -> None:
    assert _values(reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize(("gold", "completion"), [
    ("7", "\\boxed{7}. I doubt it."), ("7", "\\boxed{7}. This might be wrong."),
    ("7", "\\boxed{7} (exact, wrong)."), ("-7", "\\boxed{-7}. It is positive."),
    ("\\pi", "\\boxed{\\pi}. It is approximately 3.15."), ("7", "\\boxed{7} (see above: 8)."),
])
def test_a_judgement_after_the_box_unsays_it(reward: MathReward, gold: str, completion: str) -> None:
    assert _values(reward, gold, [completion]) == [0.0]
