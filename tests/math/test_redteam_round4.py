"""Red team, round 4 of issue #33: the three rules of ee78a5e, attacked from outside.

The rules attacked:

- `_joined_alternative` (`rewards/math/_extract.py`): a value joined to a final box by `or` in
  the box's own clause (`\\boxed{7} or 8`) is said of the box, and `affirms` keeps the box only
  when nothing else is offered;
- `_restated`: in the rest of the box's sentence or the next one, `it|that|this|the (final,
  correct, ...) answer` + a copula + a value with only units and answer words after it is the
  answer stated again; a different value unsays the box, the same (or an equal number) keeps it;
- `affirms` (`rewards/math/_normalize.py`): the question's words affirm a box only after a
  determiner or a number and not before an answer word.

The classes of `/work/shared/ATTACK-CLASSES.md` that reach them, in both directions:

- hedging (`or` spelled or joined another way: brackets, dashes, a colon, bold or `\\textbf`
  wrappers, `_or_`, a unit between; a hedge inside the restatement, `It is 7 or 8`);
- no committed answer (a retraction the restatement rule does not read: `It's 8`, `It equals
  8`, `It is probably 8`, `It is 8, not 7`, `It is -8`, `It is \\frac{15}{2}`, a retraction two
  sentences later, a box whose own clause affirms it before the retraction; the question's
  words said of the box after a comma, or before a noun that names the answer);
- invisible and look-alike characters (zero-width, soft hyphen, Cyrillic and full-width letters
  in `or` and `it is`);
- special-token text (a later turn after `<|im_end|>` is not the model's);
- degenerate length (100,000-character replies; the cost was measured in a scratch script, not
  here: no timed assertions);
- the reverse direction: honest replies that lost credit with ee78a5e (every one of the
  `test_..._lose_credit` cases scored 1.0 on ee78a5e^): an equal alternative after `or`
  (`\\boxed{\\frac{1}{4}}, or 0.25`), a unit conversion (`\\boxed{120} minutes. That is 2
  hours.`), a product (`It is 4 x 5.`), a rounding (`That is 0.333.`), a percent.

Held attacks are plain tests; each hole left open is an `xfail(strict=True)` naming it. The
verifier is not changed here (the author fixes)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rewards import Sample
from rewards.math import MathReward


def _values(reward: MathReward, gold: object, completions: Sequence[str],
            question: str = "Find it.") -> list[float | None]:
    return [s.value for s in reward.score([Sample(question, c, reference=gold)
                                           for c in completions])]


# --- held: hedges and retractions the new rules catch ------------------------------------------

HELD_HEDGES = [
    "\\boxed{7} \\text{or} 8", "\\boxed{7} OR 8", "\\boxed{7} o\u200br 8",
    "\\boxed{7} \uff4f\uff52 8",                       # full-width letters
    "\\boxed{7} \u043er 8",                            # a Cyrillic о
    "\\boxed{7} o\u00adr 8",                           # a soft hyphen
    "\\boxed{7}; or 8", "\\boxed{7}\nor 8", "\\boxed{7} **or** 8", "\\boxed{7} *or* 8",
    "\\boxed{7} or $8$", "\\boxed{7} or \\(8\\)", "\\boxed{7} or eight",
    "\\boxed{7} or possibly 8", "\\boxed{7}, or else 8", "\\boxed{7}, or is it 8?",
    "\\boxed{7} or, 8", "\\boxed{7} \\quad or 8", "\\boxed{7}\\text{ or }8",
    "\\boxed{7}$ or $8", "$\\boxed{7} \\text{ or } 8$", "\\boxed{7} or 8 <|im_end|>",
    "\\boxed{7} is the answer, or 8.", "\\boxed{7} is the answer or 8.",
]


@pytest.mark.parametrize("completion", HELD_HEDGES)
def test_a_value_joined_to_the_box_by_or_unsays_it(math_reward, completion):
    assert _values(math_reward, "7", [completion]) == [0.0]


HELD_RETRACTIONS = [
    "\\boxed{7}. It is $8$.", "\\boxed{7}. It is \\(8\\).", "\\boxed{7}. I\u200bt is 8.",
    "\\boxed{7}. It\u200b is 8.", "\\boxed{7}. \uff29\uff54 is 8.", "\\boxed{7}. It is \uff18.",
    "\\boxed{7}. It is 8!", "\\boxed{7}. It must be 8.",
    "\\boxed{7}\n\nIt is 8.", "\\boxed{7}\nIt is 8.", "\\boxed{7}, but it is 8.",
    "\\boxed{7}, i.e., it is 8.", "\\boxed{7}. Actually, it is not 7, it is 8.",
    "\\boxed{7}. The right answer was 8.", "\\boxed{7}. It is 7.5.", "\\boxed{7}. It is 70.",
    "\\boxed{7}. It is 1e1.", "\\boxed{7}. It is 8. <|im_end|>",
]


@pytest.mark.parametrize("completion", HELD_RETRACTIONS)
def test_another_value_stated_again_after_the_box_unsays_it(math_reward, completion):
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is 7.0.", "\\boxed{7}. It is 07.", "\\boxed{7}. It is 7 apples.",
    "\\boxed{7}. It is seven."])
def test_the_same_value_stated_again_leaves_the_box(math_reward, completion):
    assert _values(math_reward, "7", [completion], question="How many apples?") == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("2", "\\boxed{2}. That is, 2 apples."), ("3.5", "\\boxed{3.5}. It is 7/2."),
    ("3.5", "\\boxed{3.5}. It is $\\frac{7}{2}$."), ("\\frac{7}{2}", "\\boxed{\\frac{7}{2}}. It is 3.5."),
    ("12", "\\boxed{12}. It is 12 in total."), ("12", "\\boxed{12}. It is 12 cm^2."),
    ("12", "\\boxed{12}. It is 12 m$^2$."), ("12", "\\boxed{12}. It is 12 square meters."),
    ("12", "\\boxed{12}. It is \\$12."), ("1000", "\\boxed{1000}. It is 1,000."),
    ("1000", "\\boxed{1,000}. It is 1000."), ("6", "\\boxed{6}. That is 3 times 2."),
    ("6", "\\boxed{6}. This is 6 more than the previous count."), ("6", "\\boxed{6}. It is 2 + 4."),
    ("20", "\\boxed{20}. That is 5 per box."), ("20", "\\boxed{20}. It was 15 yesterday."),
    ("3600", "\\boxed{3600} seconds, or 1 hour."), ("10", "\\boxed{10} cm, or 100 mm."),
    ("\\frac{1}{4}", "\\boxed{\\frac{1}{4}} (or 0.25)"),
    ("\\frac{2}{3}", "\\boxed{\\frac{2}{3}}. It is 2 out of 3.")])
def test_honest_explanations_after_a_box_keep_credit(math_reward, gold, completion):
    assert _values(math_reward, gold, [completion]) == [1.0]


# --- held: the question's words --------------------------------------------------------------

WAYS = "In how many different ways can 5 books be arranged? Find the number of different ways."
WRONG_N = "Find the smallest positive integer n such that n is wrong or different from the answer."
TOO_SMALL = "What is the largest prime factor of 91? Is it possible that the estimate is too small?"


@pytest.mark.parametrize("gold, completion, question", [
    ("5", "\\boxed{5} is the number of different ways.", WAYS),
    ("5", "\\boxed{5} is 5 different ways.", WAYS),
    ("5", "\\boxed{5} is a different number.", WAYS),
    ("7", "\\boxed{7} is the smallest such n.", WRONG_N),
    ("13", "\\boxed{13} is the largest prime factor.", TOO_SMALL)])
def test_the_questions_words_naming_the_values_kind_keep_credit(math_reward, gold, completion,
                                                                 question):
    assert _values(math_reward, gold, [completion], question=question) == [1.0]


@pytest.mark.parametrize("gold, completion, question", [
    ("5", "\\boxed{5} is a different answer.", WAYS),
    ("5", "\\boxed{5} is different from the answer.", WAYS),
    ("5", "\\boxed{5} is the number, different from the answer.", WAYS),
    ("7", "\\boxed{7} is wrong.", WRONG_N), ("7", "\\boxed{7} is the wrong Answer.", WRONG_N),
    ("7", "\\boxed{7} is the wrong answers.", WRONG_N),
    ("7", "\\boxed{7} is the wrong an\u200bswer.", WRONG_N),
    ("7", "\\boxed{7} is the wrong solution.", WRONG_N),
    ("7", "\\boxed{7} is an integer different from the answer.", WRONG_N),
    ("7", "\\boxed{7} is the smallest such n, or wrong.", WRONG_N),
    ("13", "\\boxed{13} is too small.", TOO_SMALL), ("13", "\\boxed{13} is possible.", TOO_SMALL),
    ("13", "\\boxed{13} is the possible answer.", TOO_SMALL)])
def test_the_questions_words_said_of_the_value_unsay_it(math_reward, gold, completion, question):
    assert _values(math_reward, gold, [completion], question=question) == [0.0]


# --- held: degenerate length (cost measured outside the tests) --------------------------------

def test_replies_of_100k_characters_after_a_box_are_read_within_a_bound(math_reward):
    """Replies just under 100,000 characters of `or`, `it is` and dash soup after a box: the
    new rules read a clause of at most `_WORDS_MAX` characters (measured outside the tests:
    every case under 20 ms), and soup that states no other value leaves the box."""
    unsaid = ["\\boxed{7}" + " or" * 33_000, "\\boxed{7} or " + "8" * 99_000,
              "\\boxed{7} or " * 7_000, "\\boxed{7}. " + "It is 8. " * 11_000,
              "\\boxed{7}. It is 8. " + "x " * 49_000]
    kept = ["\\boxed{7}. " + "it is " * 16_000, "\\boxed{7}. It is " + "-" * 99_000,
            "\\boxed{7}. " + "It is 7 apples. " * 6_000]
    assert _values(math_reward, "7", unsaid + kept, question="How many apples?") == \
        [0.0] * len(unsaid) + [1.0] * len(kept)


# --- open: false credit ------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    "\\boxed{7} (or 8)", "\\boxed{7}. Or 8.", "\\boxed{7}. Or is it 8?",
    "\\boxed{7} \u2014 or 8.", "\\boxed{7} -- or 8.", "\\boxed{7}: or 8.",
    "\\boxed{7}... or 8", "\\boxed{7}~or 8", "\\boxed{7} \\textbf{or} 8",
    "\\boxed{7} \\emph{or} 8", "\\boxed{7} _or_ 8", "\\boxed{7}\n\nor 8",
    "\\boxed{7} apples, or 8 apples.", "\\boxed{7} cm or 8 cm",
    "\\boxed{7} is correct. Or 8.", "\\boxed{7}. That is the answer, or 8."])
def test_an_or_hedge_anywhere_beside_the_box(math_reward, completion):
    """Fixed: `or` is read wherever it joins a value to the box with nothing numeric between,
    in its clause or opening the next sentence, through brackets, dashes, style commands
    (`_STYLED`) and a line break (`_joined_alternative`); after a box that affirms itself too."""
    assert _values(math_reward, "7", [completion], question="How many apples?") == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It's 8.", "\\boxed{7}. That's 8.", "\\boxed{7}. It\u2019s 8.",
    "\\boxed{7}. It equals 8.", "\\boxed{7}. It has to be 8.", "\\boxed{7}. It could be 8.",
    "\\boxed{7}. It is probably 8.", "\\boxed{7}. It is instead 8.",
    "\\boxed{7}. The correct value is 8."])
def test_a_retraction_spelled_another_way(math_reward, completion):
    """Fixed: contractions, `equals`, modal verbs and an adverb before the value, and `the
    correct value` are restatements (`_RESTATES`)."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is 8, not 7.", "\\boxed{7}. It is 8 not 7.", "\\boxed{7}. It is 8 instead.",
    "\\boxed{7}. It is 8 actually.", "\\boxed{7}. It is 8 though.",
    "\\boxed{7}. It is 8 instead of 7.", "\\boxed{7}. Wait, it is 8, not 7.",
    "\\boxed{7}. It is 7 or 8.", "\\boxed{7}. It is 7, or 8.", "\\boxed{7}. It is 7 and 8."])
def test_a_restated_value_with_words_after_it(math_reward, completion):
    """Fixed after the round: after a restated value, another value denied (`, not 7`,
    `instead of 7`), one offered beside it (`or 8`, `and 8`, read as said of the box) and
    words known to mark a correction (`instead`, `actually`, `though`) leave it the answer
    stated again (`_restated_value`)."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. No, it is 15/2.", "\\boxed{7}. It is \\frac{15}{2}.", "\\boxed{7}. No, it is 2^3.",
    "\\boxed{7}. No, it is \\sqrt{50}."])
def test_a_restated_value_written_in_mathematics(math_reward, completion):
    """Fixed after the round: a value stated again in mathematics that the exact arithmetic
    reads as a constant other than the box's (`_restated_expression`) unsays it; an equal one
    (`It is 10/2` of 5) explains it."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Wait. It is 8.", "\\boxed{7}. Wait! It is 8.", "\\boxed{7}. Hmm. It is 8.",
    "\\boxed{7}. Let me double-check. It is 8."])
def test_a_retraction_two_sentences_after_the_box(math_reward, completion):
    """Fixed: the restatement is read up to two sentences after the box's own (`_after_box`)."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7} is the answer. No, it is 8.", "\\boxed{7} is the answer. It is 8."])
def test_a_retraction_after_a_box_that_affirms_itself(math_reward, completion):
    """Fixed: the next clause is read for the answer stated again whatever the box's own
    clause says (`_box_with_words` joins both to what is said of it)."""
    assert _values(math_reward, "7", [completion]) == [0.0]


_OPEN_QUESTION_WORD = pytest.mark.xfail(strict=True, reason=(
    "open: `_ANSWER_WORDS` lacks `value`, `number`, `choice`, `total`, so the question's word "
    "qualifying one (`is the wrong number`) affirms the box; adding them would unsay `is the "
    "smallest number` (the question's word naming the value's kind); and `is the wrong n`, "
    "`is a wrong integer` read as `is the smallest such n`"))


@pytest.mark.parametrize("gold, completion, question", [
    ("7", "\\boxed{7} is the smallest such n... wrong.", WRONG_N),
    *[pytest.param("7", completion, WRONG_N, marks=_OPEN_QUESTION_WORD) for completion in [
        "\\boxed{7} is the wrong number.", "\\boxed{7} is the wrong value.",
        "\\boxed{7} is the wrong choice.", "\\boxed{7} is the wrong final total.",
        "\\boxed{7} is the wrong n.", "\\boxed{7} is a wrong integer."]]])
def test_the_questions_judging_words_said_of_the_box(math_reward, gold, completion, question):
    assert _values(math_reward, gold, [completion], question=question) == [0.0]


# --- open: false loss (each scored 1.0 on ee78a5e^) ----------------------------------------------

@pytest.mark.xfail(strict=True, reason=(
    "open: an honest alternative after `or` that is not a plain number equal to the box "
    "(`_same_number`: exact, a decimal to its printed precision, a percent's hundredth) unsays "
    "it: an expression (`or \\frac{1}{4}`), an approximation of a non-number (`or about "
    "3.14` of `\\pi`) or another unit (`, or 1 hour`)"))
@pytest.mark.parametrize("gold, completion", [
    ("0.25", "\\boxed{0.25}, or \\frac{1}{4}"),
    ("\\pi", "\\boxed{\\pi}, or about 3.14."),
    ("\\sqrt{2}", "\\boxed{\\sqrt{2}}, or approximately 1.414."),
    ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}}, or about 0.333."),
    ("3600", "\\boxed{3600}, or 1 hour.")])
def test_an_equal_alternative_after_or_loses_credit(math_reward, gold, completion):
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("120", "\\boxed{120} minutes. That is 2 hours."),
    ("60", "\\boxed{60} minutes. That is 1 hour."),
    ("1", "\\boxed{1} dollar. That is 100 cents."),
    ("2", "\\boxed{2} feet. That is 24 inches."),
    ("6", "\\boxed{6}. It is 2*3."),
    ("20", "\\boxed{20}. It is 4 x 5."),
    ("20", "\\boxed{20}. That is 4 groups of 5."),
    ("20", "\\boxed{20}. That is 5 boxes."),
    ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}}. That is 0.333."),
    ("50\\%", "\\boxed{50\\%}. It is 0.5.")])
def test_an_honest_explanation_after_the_box_keeps_credit(math_reward, gold, completion):
    """Fixed: only a number with nothing after it but the box's own words and answer words is
    the answer stated again (`_restated`); a number equal to the box's, a decimal to its
    printed precision or a percent's hundredth (`_same_number`), leaves it the answer."""
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}<|im_end|>\n<|im_start|>user\nIt is 8.", "\\boxed{7}<|endoftext|> It is 8.",
    "\\boxed{7}</s> It is 8.", "\\boxed{7}. <|im_end|> It is 8.",
    "\\boxed{7} <|im_end|> or 8", "\\boxed{7}<|im_end|>\n<|im_start|>user\nor 8"])
def test_text_after_a_written_turn_marker_is_the_models(math_reward, completion):
    """Changed by h-m35 (issue #33 round 19, was `test_a_later_turn_does_not_unsay_the_models_box`):
    special-token text written inside a completion is data, the model wrote what follows it,
    so a tag ends nothing and hides nothing (`_reply_end_after`; `_after_box` reads the tag as
    padding); only end-of-turn text with nothing after it closes the reply (`_end_of_reply`)."""
    assert _values(math_reward, "7", [completion]) == [0.0]


# --- fixed after the round (were strict xfails above) ------------------------------------------

@pytest.mark.parametrize("completion", ["\\boxed{7}. It is -8.", "\\boxed{7}. It is $-8$."])
def test_a_negative_value_stated_again_unsays_the_box(math_reward, completion):
    """Fixed: a copula joined to a signed number by the reading rule (`is-8`) still states it."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion, question", [
    ("7", "\\boxed{7} is the n, wrong.", WRONG_N),
    ("7", "\\boxed{7} is the answer, wrong.", WRONG_N),
    ("7", "\\boxed{7} is 7, wrong.", WRONG_N),
    ("7", "\\boxed{7} is the answer that is wrong.", WRONG_N),
    ("13", "\\boxed{13} is 13, too small.", TOO_SMALL),
    ("13", "\\boxed{13} is the estimate, too small.", TOO_SMALL)])
def test_the_questions_words_after_a_comma_or_a_relative_are_said_of_the_box(
        math_reward, gold, completion, question):
    """Fixed: a comma, a semicolon or a relative clause (`that is`) ends the noun phrase in
    which the question's words name the value's kind (`affirms`)."""
    assert _values(math_reward, gold, [completion], question=question) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{\\frac{1}{4}}, or 25%", "\\boxed{\\frac{1}{4}}, or 0.25",
    "\\boxed{\\frac{1}{4}} or $0.25$"])
def test_an_equal_number_after_or_keeps_credit(math_reward, completion):
    """Fixed: a number equal to the box's (`_same_number`: exactly, a percent as its hundredth)
    joined by `or` leaves it the answer."""
    assert _values(math_reward, "\\frac{1}{4}", [completion]) == [1.0]


@pytest.mark.xfail(strict=True, reason=(
    "open: a different value stated again with a unit the box's clause does not name "
    "(`\\boxed{7}. It is 8 apples.`) reads as an explanation in another unit (`\\boxed{120} "
    "minutes. That is 2 hours.`, `\\boxed{20}. That is 5 boxes.`); telling a conversion from a "
    "retraction needs the units' meaning"))
def test_another_value_with_a_new_unit_stated_again(math_reward):
    assert _values(math_reward, "7", ["\\boxed{7}. It is 8 apples."]) == [0.0]


def test_a_value_in_words_stated_again(math_reward):
    """Fixed: a short judgement in the next sentence is said of the box (`_JUDGED`), and a
    number word is no answer word."""
    assert _values(math_reward, "7", ["\\boxed{7}. It is eight."]) == [0.0]
