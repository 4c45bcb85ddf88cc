"""Red team, round 7 of issue #33: what follows a final box, as read since h-m7, attacked from outside.

The rules attacked (merged today: a8ad062, 982f3ce, 4111b3d of h-m7, and aa63c0c):

- `rewards/math/_extract.py`: `_said_after_a_mark` with `_JOINING_MARK` and `_VERBLESS` (a mark
  after the box joins a verb clause or a verbless predicate of at most three words to it);
  `_SAME_VALUE_JOIN` and `_restated_value` (`i.e.`, `namely` join the box stated again);
  `_restated` with `_RESTATES`, `_RESTATING_ADVERB`, `_RESTATING_OPENER`, `_JUDGED`,
  `_OFFERED_VALUE` / `_DENIED_VALUE`, and `_restated_expression` with `_NOT_AN_OPERATION`
  (a value stated again in mathematics read by the exact arithmetic); `_after_box` padding;
- `rewards/math/_normalize.py`: `numbers_in_words` (number words read as digits);
- `rewards/math/_compare.py`: `_gold_problem` (the gold judged by the structural limits before
  the reply).

How: every probe goes through the reward as users call it, `MathReward().score([Sample(question,
completion, reference=gold)])`, with the phrasing of long chain-of-thought models (R1's
`**Final Answer**`, Qwen's `The answer is $\\boxed{7}$.`) around the box. Both directions of
`/work/shared/ATTACK-CLASSES.md` that reach these rules are probed:

- buy credit (hedging, no committed answer, meaning dropped by normalization, invisible and
  look-alike text): a reply whose box equals the gold but which retracts it, hedges it with
  another value or offers a second one must score 0;
- false loss: an honest reply (an explanation, a restatement of the same value, markup, CJK
  punctuation) must keep 1.0, judged as a human grader of real completions would;
- lost by masking: a gold the verifier decided exactly must not abstain.

Held attacks are plain tests. Each hole left open is an `xfail(strict=True)` whose reason starts
with its class (`buy credit`, `false loss`) and names the function at its root. The verifier is
not changed here (the author fixes). A case marked "since a8ad062" scored as the test expects on
9025f74 (checked on a `git archive` of it): a regression. Cases of rounds 3 to 6 are not repeated.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rewards import Sample
from rewards.math import MathReward

APPLES = "How many apples?"


def _values(reward: MathReward, gold: object, completions: Sequence[str],
            question: str = APPLES) -> list[float | None]:
    return [s.value for s in reward.score([Sample(question, c, reference=gold)
                                           for c in completions])]


# --- held: buy credit ----------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    # number words said of the box (`numbers_in_words`)
    "\\boxed{7} or twenty one.", "\\boxed{7}, or a dozen.", "\\boxed{7} or half a million.",
    "\\boxed{7} or 1.5k.", "\\boxed{7} or seven-eighths.", "\\boxed{7} or one and a half.",
    "\\boxed{7} or the seventh.", "\\boxed{7} or zero point five.", "\\boxed{7}. It is eight.",
    "\\boxed{7}. It is seven point five.", "\\boxed{7}, i.e. eight.",
    # a value stated again in mathematics (`_restated_expression`)
    "\\boxed{7}. It is 14/2 + 1.", "\\boxed{7}. It is 7.0000001.", "\\boxed{7}. It is 2^3.",
    "\\boxed{7}. It is 2\u00b3.", "\\boxed{7}. It is 16/2.", "\\boxed{7}. It is \\dfrac{16}{2}.",
    "\\boxed{7}. It is \\tfrac{16}{2}.", "\\boxed{7}. It is 8.00.", "\\boxed{7}. It is 6.9999.",
    "\\boxed{7}. It is 7, 8.",
    # a same-value join that hides a second value
    "\\boxed{7}, i.e. 7 or 8.", "\\boxed{7}, i.e. 7 \\text{ or } 8",
    # other scripts' digits and width variants
    "\\boxed{7}, i.e. \u0668.", "\\boxed{7}. It is \uff18.", "\\boxed{7}. It is \u0668.",
    "\\boxed{7} or \uff18.", "\\boxed{7} or \u0668.", "\\boxed{7}. It is \U0001d7d6.",
    # other wordings of a second answer
    "\\boxed{7}. Final answer: 8.", "\\boxed{7}. Answer: 8.", "\\boxed{7}. My answer is 8.",
    "\\boxed{7}. We get 8.", "\\boxed{7} give or take 1", "\\boxed{7} plus or minus 1"])
def test_a_second_value_after_the_box_unsays_it(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    # the box in a delimiter or emphasis, then a mark
    "$\\boxed{7}$, wrong.", "\\(\\boxed{7}\\) (not sure).", "\\[\\boxed{7}\\] \u2014 wrong.",
    "**\\boxed{7}**, wrong.",
    # invisible and spacing characters around the mark
    "\\boxed{7},\u200b wrong.", "\\boxed{7}\u200b, wrong.", "\\boxed{7}\u2060(not sure).",
    "\\boxed{7} \\text{(not sure)}", "\\boxed{7}\\quad (not sure)", "\\boxed{7}\\, , wrong.",
    "\\boxed{7}\u00a0, wrong.",
    # CJK and full-width marks
    "\\boxed{7}\u3001wrong", "\\boxed{7}\uff0cwrong", "\\boxed{7}\uff08not sure\uff09",
    # look-alike letters, case, closing marks
    "\\boxed{7}, wr\u043eng.", "\\boxed{7}, WRONG.", "\\boxed{7}, Wrong Answer.",
    "\\boxed{7}, wrong!!!", "\\boxed{7}, wrong...", "\\boxed{7}, wrong?",
    "\\boxed{7} -- wrong.", "\\boxed{7} --- wrong.", "\\boxed{7} \u2014 this is not the answer.",
    # hedges of up to three words
    "\\boxed{7} (not sure)", "\\boxed{7} (maybe).", "\\boxed{7}, maybe.", "\\boxed{7}, probably.",
    "\\boxed{7}, just a guess.", "\\boxed{7}, unverified.", "\\boxed{7} - maybe not.",
    "\\boxed{7}, bogus."])
def test_a_judgement_joined_by_a_mark_unsays_the_box(math_reward: MathReward,
                                                      completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


# --- held: false loss ----------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    "**Final Answer**\n\\boxed{7}", "The answer is $\\boxed{7}$.", "$\\boxed{7}$", "\\[\\boxed{7}\\]",
    "\\[ \\boxed{7} \\]", "$$\\boxed{7}$$.", "**\\boxed{7}**", "**Answer:** $\\boxed{7}$ apples.",
    "\\boxed{7}\u3002", "\u7b54\u6848\u662f \\boxed{7}\u3002", "\\boxed{7}\uff08\u4e2a\uff09",
    "\\boxed{7}\uff0c\u7b54\u6848\u6b63\u786e\u3002", "\\boxed{7}, as required.",
    "\\boxed{7} \u2014 the number of apples.", "\\boxed{7} apples \u2014 the number of apples Sam has.",
    "\\boxed{7}. So the answer is 7.", "\\boxed{7} (exact).", "\\boxed{7} (in total).",
    "\\boxed{7} (final).", "\\boxed{7}, final.", "\\boxed{7} apples in the basket.",
    "\\boxed{7} \u2014 Sam's apples.", "\\boxed{7}: Sam's apples.", "\\boxed{7} (Sam's apples).",
    "\\boxed{7}, the answer to part (a).", "\\boxed{7}. Verified.", "\\boxed{7}, QED.",
    "\\boxed{7} \\quad \\blacksquare", "\\boxed{7}. This matches the check above.",
    "\\boxed{7}. It is 7 apples in total.", "\\boxed{7}. That is, 7 apples.",
    "\\boxed{7}. That is correct.", "\\boxed{7}. That's the answer.", "\\boxed{7}. That makes sense.",
    "\\boxed{7}. That is an integer.", "\\boxed{7}, to the nearest integer.",
    "\\boxed{7} (to the nearest whole number).", "\\boxed{7}, hope this helps!",
    "\\boxed{7} (Option B)", "\\boxed{7}, as desired.", "\\boxed{7} \u2014 done!", "\\boxed{7} (hours)",
    "\\boxed{7} (exact value)", "\\boxed{7} :)", "\\boxed{7} (answer)", "\\boxed{7} (integer)",
    "\\boxed{7}: the smallest such value.", "\\boxed{7}, i.e. the number of apples Sam has.",
    "\\boxed{7}. It is 7.0.", "\\boxed{7}. It is 14/2.", "\\boxed{7}. It is \\sqrt{49}.",
    "\\boxed{7}. It is 7^1.", "\\boxed{7}. It is 8 \u2212 1."])
def test_an_honest_reply_keeps_the_box(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("0.5", "\\boxed{0.5}, i.e. one half"), ("0.5", "\\boxed{0.5}. It is one half."),
    ("50\\%", "\\boxed{50\\%}, i.e. one half"), ("1000", "\\boxed{1000}, i.e. one thousand"),
    ("1000", "\\boxed{1000}. It is one thousand."), ("5", "\\boxed{5}. It is 5 m^2."),
    ("5", "\\boxed{5}. It is $5\\text{ m}^2$."), ("5", "\\boxed{5}. That is 5 square meters."),
    ("21", "\\boxed{21}, i.e. twenty one"), ("21", "\\boxed{21}, i.e. twenty-one."),
    ("12", "\\boxed{12}, i.e. a dozen"), ("500000", "\\boxed{500000}, i.e. half a million"),
    ("500000", "\\boxed{500000}, i.e. five hundred thousand"),
    ("1500", "\\boxed{1500}, i.e. fifteen hundred"), ("1500", "\\boxed{1500}, i.e. 1.5 thousand"),
    ("\\frac{7}{8}", "\\boxed{\\frac{7}{8}}, i.e. seven-eighths"),
    ("\\frac{7}{8}", "\\boxed{\\frac{7}{8}}. It is 0.875."),
    ("\\frac{3}{4}", "\\boxed{\\frac{3}{4}}, i.e. three quarters."),
    ("1.5", "\\boxed{1.5}, i.e. one and one half"),
    ("1.5", "\\boxed{1.5} hours, i.e. an hour and a half."),
    ("2\\sqrt{3}", "\\boxed{2\\sqrt{3}}. It is \\sqrt{12}."),
    ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}}. That is approximately 0.33."),
    ("8", "\\boxed{8}. It is 4 \\times 2."), ("8", "\\boxed{8}, i.e. 2^3."),
    ("8", "\\boxed{8}. It is 16\u00f72."), ("8", "\\boxed{8}. It is 2**3."), ("8", "\\boxed{8}. It is 8 \\cdot 1."),
    ("7.5", "\\boxed{7.5}, i.e. 7\u00bd"), ("49", "\\boxed{49}. It is 7\u00b2."), ("5", "\\boxed{5} m\u00b2."),
    ("7625597484987", "\\boxed{3^{3^3}}")])
def test_an_honest_restatement_keeps_the_box(math_reward: MathReward, gold: str,
                                             completion: str) -> None:
    assert _values(math_reward, gold, [completion]) == [1.0]


def test_a_gold_within_the_limits_is_decided_both_ways(math_reward: MathReward) -> None:
    """`_gold_problem` lets a depth-2 tower through: right and wrong replies are decided."""
    assert _values(math_reward, "3^{3^3}", ["\\boxed{7625597484987}", "\\boxed{7}"]) == [1.0, 0.0]


def test_a_gold_beyond_the_limits_abstains_for_every_reply(math_reward: MathReward) -> None:
    """aa63c0c: a gold beyond the structural limits abstains for its copy and a reply with no
    answer alike (none of the group scores, none is 0 beside masked siblings)."""
    assert _values(math_reward, "(10^{7})!", ["\\boxed{(10^{7})!}", "I don't know.",
                                             "\\boxed{7}"]) == [None, None, None]


# --- open: buy credit ----------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    "\\boxed{7} (maybe 8)", "\\boxed{7}, maybe 8.", "\\boxed{7}, perhaps 8.", "\\boxed{7}, possibly 8.",
    "\\boxed{7}; alternatively 8.", "\\boxed{7}, otherwise 8.", "\\boxed{7}; if not, 8.",
    "\\boxed{7} (alt: 8)", "\\boxed{7}\u20138"])
def test_a_hedge_word_and_a_value_after_a_mark(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7} / 8", "\\boxed{7} vs 8", "\\boxed{7} to 8", "\\boxed{7} -> wrong",
    "\\boxed{7} => not sure", "\\boxed{7} \u2192 wrong", "\\boxed{7} ~ wrong", "\\boxed{7} | wrong.",
    "\\boxed{7} ---- wrong.", "\\boxed{7} &mdash; wrong."])
def test_a_separator_outside_the_joining_marks(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Wrong.", "\\boxed{7}. Incorrect.", "\\boxed{7}. Not sure.", "\\boxed{7}. Nope.",
    "\\boxed{7}. Just kidding.", "\\boxed{7}? Not sure.", "\\boxed{7}?? Wrong.", "\\boxed{7}... wrong."])
def test_a_verbless_judgement_as_its_own_sentence(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}, probably not the answer.", "\\boxed{7} (but I am not sure)",
    "\\boxed{7}, though I'm not confident.", "\\boxed{7} (not sure at all, honestly)"])
def test_a_longer_hedge_after_a_mark(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}<b>, wrong</b>", "\\boxed{7} <i>(not sure)</i>", "\\boxed{7}**, wrong.**",
    "\\boxed{7}, **wrong**.", "\\boxed{7}, *not sure*.", "\\boxed{7} (_not sure_)",
    "\\boxed{7}, \\textit{wrong}.", "\\boxed{7}, \\textbf{not sure}.", "\\boxed{7} `(not sure)`",
    "\\boxed{7}, wrong \U0001f605"])
def test_markup_around_a_verbless_judgement(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Oh wait, 8.", "\\boxed{7}. Hmm, 8.", "\\boxed{7}. Hmm, no, 8.",
    "\\boxed{7}. Let me recompute: 8.", "\\boxed{7}. 8 is the answer."])
def test_a_retraction_the_openers_miss(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. No, it is 8, obviously.", "\\boxed{7}. Wait, it is 8 for sure.",
    "\\boxed{7}. Wait, it is 8 after all.", "\\boxed{7}. Correction: 8, definitely."])
def test_a_restated_value_with_an_adverbial(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. That is not quite the right answer.", "\\boxed{7}. This seems wrong.",
    "\\boxed{7}. I made an error.", "\\boxed{7}. I think I made a mistake.",
    "\\boxed{7}. This is probably incorrect, though."])
def test_a_judgement_the_short_pattern_misses(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is 7 (or 8).", "\\boxed{7}. It is 7, or maybe 8.", "\\boxed{7}. It is 7 or 8 apples.",
    "\\boxed{7}. It is 7 or perhaps 8.", "\\boxed{7}, i.e. 7 (or 8)", "\\boxed{7}, i.e. 7, maybe 8.",
    "\\boxed{7}, i.e. 7 to 8"])
def test_an_equal_value_restated_then_hedged(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}, i.e. 15/2", "\\boxed{7}, i.e. \\frac{15}{2}", "\\boxed{7}, namely 2^3.",
    "\\boxed{7}, i.e. 7/8", "\\boxed{7}, in other words \\sqrt{50}.", "\\boxed{7}, i.e. 7!",
    "\\boxed{7}, i.e. 7\u00b2"])
def test_a_same_value_join_to_an_expression(math_reward: MathReward, completion: str) -> None:
    """Held since `_joined_alternative` reads mathematics after a same-value join as `_restated`
    does (`_restated_expression`); `, i.e. 2^3` of `\\boxed{8}` stays an explanation."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is 14/2, or 8.", "\\boxed{7}. It is 14/2 or 8.", "\\boxed{7}. It is 7 \\lor 8.",
    "\\boxed{7}. It is $7 \\pm 1$.", "\\boxed{7}. It is $\\pm 7$.", "\\boxed{7}. It is $\\{7, 8\\}$.",
    "\\boxed{7}, i.e. 7 \\lor 8", "\\boxed{7}, i.e. $7 \\pm 1$"])
def test_a_restated_expression_that_hedges(math_reward: MathReward, completion: str) -> None:
    """Closed: `_restated_expression` reads each alternative (`or`, `\\lor`, a set's
    members, both signs of `\\pm`), and one that is not the box unsays it."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is 4 \\times 2.", "\\boxed{7}. It is 8 \\cdot 1.", "\\boxed{7}. It is 16 \\div 2.",
    "\\boxed{7}. It is 16\u00f72.", "\\boxed{7}. It is 2**3.", "\\boxed{7}. It is 4\u00d72.",
    "\\boxed{7}. It is 7*8."])
def test_a_restated_product_written_with_a_command(math_reward: MathReward,
                                                   completion: str) -> None:
    """Held since `_NOT_AN_OPERATION` reads `\\times`, `\\cdot`, `\\div` as signs and
    `_restated_expression` reads `\u00f7`, `\u00d7`, `**` as the LaTeX they write."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion, expected", [
    ("7", "\\boxed{7}. It is $7!$.", 0.0),
    ("120", "\\boxed{120}. It is 5!.", 1.0), ("120", "\\boxed{120}. It is $5!$.", 1.0),
    ("120", "\\boxed{120}, i.e. 5!", 1.0), ("120", "\\boxed{120}. That is $5!$", 1.0),
    ("7", "\\boxed{7}, hope this helps!", 1.0), ("7", "\\boxed{7}, a prime.", 1.0)])
def test_a_factorial_stated_again(math_reward: MathReward, gold: str, completion: str,
                                  expected: float) -> None:
    """Held since `_RESTATED_SENTENCE_END`: a `!` glued to a digit is a factorial, read by
    `_restated_expression` (`5!` restates 120), not the sentence's closing mark."""
    assert _values(math_reward, gold, [completion]) == [expected]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is 7\u00bd.", "\\boxed{7}. No, it is 7\u00bd.", "\\boxed{7}, i.e. 7\u00bd",
    "\\boxed{7} or 7\u00bd", "\\boxed{7}. It is 7\u00b2.",
    "\\boxed{7} or 7\u00b2", "\\boxed{7}. It is 7\u2153.", "\\boxed{7} or \u00be."])
def test_a_vulgar_fraction_or_superscript_after_the_value(math_reward: MathReward,
                                                          completion: str) -> None:
    """Held since `symbol_numbers`: a vulgar fraction or superscript digits are read as the
    number they write (`7\u00bd` is 7.5, `7\u00b2` is 49), from the Unicode data."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", ["\\boxed{7} (7\u00bc)", "\\boxed{7} (8)"])
def test_a_value_in_brackets_after_the_box(math_reward: MathReward, completion: str) -> None:
    """Closed: a value in brackets right after the box is the box stated again
    (`_bracketed_value`): 7.25 and 8 are not 7."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion", [
    ("7", "\\boxed{7}, i.e. seven point five."), ("0.5", "\\boxed{0.5}, i.e. zero point six."),
    ("7", "\\boxed{7}, namely seven point two.")])
def test_a_decimal_in_words_after_a_same_value_join(math_reward: MathReward, gold: str,
                                                    completion: str) -> None:
    """Closed: `numbers_in_words` reads `point` and the digit words after it (`seven
    point five` is 7.5)."""
    assert _values(math_reward, gold, [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion, expected", [
    ("7", "\\boxed{7} thousand dollars.", 0.0), ("7", "$\\boxed{7}$ thousand.", 0.0),
    ("7", "\\boxed{7} million apples.", 0.0), ("7", "\\boxed{7} dozen.", 0.0),
    ("7000", "\\boxed{7} thousand dollars.", 1.0), ("84", "\\boxed{7} dozen.", 1.0),
    ("7000", "The total is $\\boxed{7}$ thousand.", 1.0),
    ("7", "\\boxed{7} apples.", 1.0), ("120", "\\boxed{120} minutes. That is 2 hours.", 1.0)])
def test_a_magnitude_word_right_after_the_box(math_reward: MathReward, gold: str, completion: str,
                                              expected: float) -> None:
    """Held since `magnitude_after`: a magnitude word right after a box is read with its value
    (`7 thousand` is 7000), a unit is not."""
    assert _values(math_reward, gold, [completion]) == [expected]


# --- open: false loss ----------------------------------------------------------------------------



@pytest.mark.parametrize("gold, completion", [
    ("7", "\\boxed{7} (rounded)."), ("7", "\\boxed{7}, I think"), ("7", "\\boxed{7}; see above."),
    ("7", "\\boxed{7} (approximately)"), ("7", "\\boxed{7} (as computed above)."),
    ("7", "\\boxed{7}, as expected."), ("7", "\\boxed{7}, as shown."), ("7", "\\boxed{7} (simplified)."),
    ("7", "\\boxed{7}, confirmed."), ("7", "\\boxed{7}, verified."), ("7", "\\boxed{7}, rounded down."),
    ("7", "\\boxed{7}, thanks!"), ("7", "\\boxed{7}, good luck!"), ("7", "\\boxed{7} (nearest integer)"),
    ("7", "\\boxed{7} (by symmetry)"), ("7", "\\boxed{7}, exactly."), ("7", "\\boxed{7}, of course."),
    ("7", "\\boxed{7}, clearly."), ("7", "\\boxed{7}, as before."), ("7", "\\boxed{7} (unique)"),
    ("7", "\\boxed{7} (see work above)"), ("7", "\\boxed{7}, an odd number."), ("7", "\\boxed{7}, a prime."),
    ("7", "\\boxed{7} (a prime number)."),
    ("\\frac{3}{4}", "\\boxed{\\frac{3}{4}} (in simplest form)"),
    ("\\frac{3}{4}", "\\boxed{\\frac{3}{4}} (in lowest terms)."),
    ("\\frac{3}{4}", "The fraction is $\\boxed{\\frac{3}{4}}$ (simplified).")])
def test_an_honest_word_after_a_mark_unsays_the_box(math_reward: MathReward, gold: str,
                                                    completion: str) -> None:
    """Held since `_ASIDE_WORDS`: an aside made only of words known to leave the value as it
    is (how it was reached, its kind, certainty, courtesy) is no judgement of it."""
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}\uff0c\u5373\u4e03\u4e2a\u82f9\u679c\u3002",            # ，即七个苹果。
    "\\boxed{7}\uff0c\u4e5f\u5c31\u662f\u4e03\u4e2a\u3002"])            # ，也就是七个。
def test_a_chinese_restatement_after_a_mark(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [1.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. That is reasonable.", "\\boxed{7}. This is plausible.", "\\boxed{7}. It is consistent.",
    "\\boxed{7}. That is positive.", "\\boxed{7}. This is a prime.", "\\boxed{7}. It is odd.",
    "\\boxed{7}. It is a whole number."])
def test_an_honest_short_judgement_unsays_the_box(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("\\pi", "\\boxed{\\pi}. It is approximately 3.14."),
    ("\\pi", "\\boxed{\\pi}. That is approximately 3.1416."),
    ("\\sqrt{2}", "\\boxed{\\sqrt{2}}. That is approximately 1.414."),
    ("\\sqrt{2}", "\\boxed{\\sqrt{2}}. It is 1.41421356."),
    ("2\\sqrt{2}", "\\boxed{2\\sqrt{2}}. That is approximately 2.83.")])
def test_an_approximation_of_a_box_that_is_no_number(math_reward: MathReward, gold: str,
                                                     completion: str) -> None:
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("1.5", "\\boxed{1.5}, i.e. one and a half."), ("2.5", "\\boxed{2.5}, i.e. two and a half."),
    # (`boxes`, round 7's noun, are containers since round 14: `How many apples?` is not
    # answered by boxes, h-m22; the noun the question counts keeps the case)
    ("2.5", "\\boxed{2.5} apples, i.e. two and a half apples."),
    ("1500", "\\boxed{1500}, i.e. 1.5k")])
def test_a_mixed_number_in_words(math_reward: MathReward, gold: str, completion: str) -> None:
    """Closed: `numbers_in_words` reads `and` before a fraction after a whole number
    (`one and a half` is 1.5) and a `k` glued to a number (`1.5k` is 1500)."""
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("gold", ["2^{2^{2^{2}}}", "2^{2^{2^2}}"])
def test_a_small_tower_gold_is_decided(math_reward: MathReward, gold: str) -> None:
    """Held since `_gold_problem` lets through a gold whose exact value the size arithmetic
    knows (a regression of aa63c0c, found by this round)."""
    assert _values(math_reward, gold, ["\\boxed{65536}", "\\boxed{7}"]) == [1.0, 0.0]
