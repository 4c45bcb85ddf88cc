"""Red team, round 5 of issue #33: the rules of f538420, 980b1d5 and c368c51, attacked from outside.

The rules attacked:

- `_joined_alternative` / `_OR_NEXT` / `_OR_VALUE` / `_STYLED` / `_after_box`
  (`rewards/math/_extract.py`): `or` joined to a value beside a final box, in its clause or
  opening the next sentence, nothing numeric between, through brackets, dashes and style
  commands (`\\textbf{or}`); a conversion to another unit (`\\boxed{10} cm, or 100 mm`) is no
  hedge;
- `_restated` / `_RESTATES` / `_RESTATED_VALUE` / `_ONLY_WORDS`: the answer stated again up to
  two sentences after the box's own (`It's 8`, `It equals 8`, `The correct value is 8`), only a
  number followed by nothing but the box's own clause words and answer words; also after a box
  that affirms itself;
- `affirms` / `_same_number` / `_STATED_NUMBER` (`rewards/math/_normalize.py`): a number equal
  to the box's value keeps it (exact, a decimal to its printed precision, a percent as its
  hundredth); the question's words name the value's kind only within one noun phrase;
- `said_of_expression` (`_extract.py`, used by `_compare.py` when nothing was extracted): an
  unmarked final sentence opening with an expression and a verb is read like a box's clause.

The classes of `/work/shared/ATTACK-CLASSES.md` that reach them, in both directions:

- hedging: a value the box's own printed precision excuses (`\\boxed{0.5}. It is 0.46.`),
  `or` in other languages, a digit between the box and `or` (`m^2`), after a `$...$` answer that is no box; a number whose
  digits the box holds (`\\boxed{12.5}, or 12`); a percent read against a percent question;
- meaning dropped by normalization: markup the rules do not read (HTML tags, markdown
  emphasis, backticks, brackets and signs before the value, `\\hspace`), spacing and padding
  that push the hedge out of the 200-character window before invisible characters are dropped;
- invisible and look-alike text: zero-width, soft hyphen, word joiner runs; U+2212 minus;
  bidi overrides (held: a reader's order is read);
- special-token text: `<think>`, `<tool_call>` between the copula and the value;
- no committed answer: retractions worded outside `_RESTATES` (`It is now 8`, `The value is
  8`, `So 8.`, `No, 8.`), verbless judgements (`\\boxed{7}, wrong.`), a delimited expression
  that `said_of_expression` never sees (`$\\frac{5}{6}$ is wrong.`);
- degenerate length: 100,000-character replies of `or`, contractions, adverbs, digits, nested
  style commands, invisible characters (cost measured in a scratch script with
  `time.perf_counter`, not here: every case under 45 ms after warm-up);
- missing or broken references: a reference too large to read is `bad_reference` or a 0
  depending on the reply;
- the reverse direction, honest replies that score 0: a negative number stated again
  (`\\boxed{-3}. It is -3.`), `or equivalently`, number words and magnitudes (`or one half`,
  `or 1 million`, `or 50 percent`), thousands separators `7{,}000`, e-notation (`1e6`), a
  percent answer restated as a percent in a percent question.

Held attacks are plain tests; each hole left open is an `xfail(strict=True)` naming it. The
verifier is not changed here (the author fixes). Cases already open in round 4 (an expression
or an approximation after `or`, a new unit, a value in words, a value followed by words or
mathematics) are not repeated."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rewards import Sample
from rewards.math import MathReward

APPLES = "How many apples?"
PERCENT = "What percent of the 100 students are girls?"
DICE = ("Two dice are rolled. What is the probability that the sum is not 12? Express your "
        "answer as a common fraction.")


def _values(reward: MathReward, gold: object, completions: Sequence[str],
            question: str = APPLES) -> list[float | None]:
    return [s.value for s in reward.score([Sample(question, c, reference=gold)
                                           for c in completions])]


_OPEN_A_PERCENT_ANSWER_RESTATED_LOSES_CREDIT = pytest.mark.xfail(strict=True, reason="open: in a question asking for a percent, the box `7` is 7%, but `_same_number` compares "
    "its bare value with the percent's hundredth, and a `%` just outside the box is not read: "
    "`\\boxed{7}. It is 7%.` and `\\boxed{25}%, or 0.25` lose credit (all but the first "
    "since f538420: `affirms` refuses a percent that is not the box's hundredth)")
_OPEN_THE_QUESTIONS_WORDS_AFTER_A_BRACKET_OR_DASH = pytest.mark.xfail(strict=True, reason="open: `affirms` ends the noun phrase in which the question's words name the value's kind "
    "only at `,`, `;` and a relative: brackets and a dash do not end it (`is the smallest such "
    "n (wrong)`)")


_OPEN_A_SIGN_OR_BRACKET_BEFORE_THE_RESTATED_VALUE = pytest.mark.xfail(strict=True, reason="open: `_RESTATES` wants the value right after the copula (`(?=[-\\d$\\\\])`) and "
    "`_RESTATED_VALUE` an ASCII `-`: a bracket, a brace, a colon, `=`, `+`, `~` or U+2212 "
    "before it is no restatement")


# --- held: hedges and retractions the rules catch ----------------------------------------------

HELD_HEDGES = [
    "\\boxed{7} \u03bfr 8",                             # a Greek omicron
    "\\boxed{7} o\u200dr 8", "\\boxed{7} o\u2060r 8",    # a joiner, a word joiner
    "\\boxed{7} \u202aor 8",                           # an embedding control
    "\\boxed{7} \u202e8 ro",                           # an override: a reader reads `or 8`
    "\\boxed{7} or \uff18", "\\boxed{7} or \u0668",      # full-width and Arabic-Indic 8
    "\\boxed{7} or <b>8</b>", "\\boxed{7} `or` 8", "\\boxed{7} \\textcolor{red}{or} 8",
    "\\boxed{7} \\mathbf{or} 8", "\\boxed{7} \\textbf{ or } 8", "\\boxed{7} \\operatorname{or} 8",
    "\\boxed{7} \\mbox{or} 8", "\\boxed{7} \\hbox{or} 8", "\\boxed{7} \\quad\\text{or}\\quad 8",
    "\\boxed{7} \\phantom{x} or 8", "\\boxed{7} \\color{red} or 8", "\\boxed{7} \\\\ or 8",
    "\\boxed{7} \\newline or 8", "\\boxed{7} <tool_call> or 8", "\\boxed{7} </think> or 8",
    "\\boxed{7} or \\boxed{8}", "\\boxed{7}. Or \\boxed{8}.", "\\boxed{7} or \\frac{15}{2}",
    "\\boxed{7} or \\frac{16}{2}", "\\boxed{7} or 2^3", "\\boxed{7} or x = 8",
    "\\boxed{7} or eight", "\\boxed{7} or perhaps it is 8", "\\boxed{7} or maybe even 8",
    "\\boxed{7}, or, well, 8", "\\boxed{7}? Or 8?",
    # rounding and separator tricks: a decimal is equal only to its printed precision
    "\\boxed{7}, or 7.4", "\\boxed{7}, or 7.49", "\\boxed{7}, or 6.5", "\\boxed{7}, or 7.0001",
    "\\boxed{7}, or 6.99999999999", "\\boxed{7}, or 7,000", "\\boxed{7}, or 7,5",
    "\\boxed{7}, or 0,7", "\\boxed{7}, or 7%", "\\boxed{7}, or 0.07", "\\boxed{7}, or -7",
    "\\boxed{7}, or 7.00001%", "\\boxed{7}, or 700.4%", "\\boxed{7}, or 1e400",
    "\\boxed{7}, or 7e-400", "\\boxed{7}, or 7" + "0" * 5000,
]


@pytest.mark.parametrize("completion", HELD_HEDGES)
def test_a_value_joined_to_the_box_by_or_unsays_it(math_reward, completion):
    assert _values(math_reward, "7", [completion]) == [0.0]


HELD_RETRACTIONS = [
    "\\boxed{7}. It is \\boxed{8}.", "\\boxed{7}. It's \\boxed{8}.", "\\boxed{7}. It is $$8$$.",
    "\\boxed{7}. It is \\[8\\].", "\\boxed{7}. It is\n8.", "\\boxed{7}. It is \uff18.",
    "\\boxed{7}. It is \u0668.", "\\boxed{7}. It is 8\u200b.", "\\boxed{7}. It is 8.0.",
    "\\boxed{7}. \\text{It is} 8.", "\\boxed{7}. \\text{It is 8}.", "\\boxed{7}. It~is~8.",
    "\\boxed{7}. It\\ is\\ 8.", "\\boxed{7}. It IS 8.", "\\boxed{7}. IT IS 8.",
    "\\boxed{7}. It is actually 8.", "\\boxed{7}. It is obviously 8.", "\\boxed{7}. It is simply 8.",
    "\\boxed{7}. Answer: 8.", "\\boxed{7}. Final answer: 8.", "\\boxed{7}. That would be 8.",
    "\\boxed{7}. The answer is 8.",
    "\\boxed{7}. It is 7.4.", "\\boxed{7}. It is 7.49.", "\\boxed{7}. It is 7,4.",
    "\\boxed{7}. It is 7,8.", "\\boxed{7}. It is 7, 8.",
    "\\boxed{7}. It is 1e400.", "\\boxed{7}. It is 7e99999.", "\\boxed{7}. It is 7e-99999.",
    "\\boxed{7}. It is 8" + "0" * 5000 + ".",
]


@pytest.mark.parametrize("completion", HELD_RETRACTIONS)
def test_another_value_stated_again_unsays_the_box(math_reward, completion):
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion", [
    ("0", "\\boxed{0}, or -0.4"), ("0", "\\boxed{0}, or 0.4"), ("0", "\\boxed{0}. It is -0.4."),
    ("7000", "\\boxed{7000}, or 7,000,1"),
    ("7000", "\\boxed{7000}. It is 7,0000."), ("7000", "\\boxed{7000}. It is 7000,1."),
    ("7\\%", "\\boxed{7\\%}, or 0.07%")])
def test_a_number_near_the_box_is_no_equal_number(math_reward, gold, completion):
    """Negative zero, misplaced thousands separators and a percent of a percent are not the
    box's value (`_same_number`)."""
    assert _values(math_reward, gold, [completion]) == [0.0]


# --- held: honest replies keep credit ------------------------------------------------------------

@pytest.mark.parametrize("gold, completion", [
    ("7", "\\boxed{7}. That is, 7 apples."), ("7", "\\boxed{7}. That is, Sam has 7 apples."),
    ("7", "\\boxed{7}. It is the 7th term."), ("7", "\\boxed{7}. It is 7 because 3 + 4 = 7."),
    ("7", "\\boxed{7}. It is 7, since 3 + 4 = 7."), ("7", "\\boxed{7}. It is 7 (3 + 4)."),
    ("7", "\\boxed{7} apples. That's 3 red and 4 green."), ("7", "\\boxed{7}. That is 700%."),
    ("7", "\\boxed{7}, or 700%"), ("7", "\\boxed{7} apples. It is 7 apples."),
    ("\\frac{1}{2}", "\\boxed{\\frac{1}{2}}, or 0.5."), ("\\frac{1}{2}", "\\boxed{\\frac{1}{2}}, or 50%."),
    ("\\frac{1}{2}", "\\boxed{\\frac{1}{2}}. It is 0.5."),
    ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}}, or 0.33."), ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}}, or 33.3%."),
    ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}}. That is about 33%."),
    ("\\frac{2}{3}", "\\boxed{\\frac{2}{3}}. That is about 0.67."),
    ("\\frac{2}{3}", "\\boxed{\\frac{2}{3}}, or 0.667."), ("\\frac{2}{3}", "\\boxed{\\frac{2}{3}}. It is 0.6667."),
    ("25", "\\boxed{25\\%}. It is 0.25."), ("25", "\\boxed{25\\%}, or 0.25."),
    ("0.25", "\\boxed{0.25}, or 25%."), ("0.25", "\\boxed{0.25}. That is 25%."),
    ("7000", "\\boxed{7000}, or 7,000."), ("7000", "\\boxed{7000}. It is 7 000."),
    ("7000", "\\boxed{7000}. It is 7\\,000."), ("7000", "\\boxed{7000}. It is 7{,}000."),
    ("7000", "\\boxed{7\\,000}, or 7,000"),
    ("1000000", "\\boxed{1000000}. That is 10^6."), ("1000000", "\\boxed{10^6}. That is 1000000."),
    ("1000000", "\\boxed{1,000,000}. That is 1000000."), ("0.5", "\\boxed{0.5}. That is 0.50."),
    ("0.5", "\\boxed{0.5}. That is .5."), ("-3", "\\boxed{-3}. It is \u22123."),
    ("0", "\\boxed{0}. It is 0.0."), ("12", "\\boxed{12}. It is 12 dollars."),
    ("\\$12", "\\boxed{\\$12}. It is 12 dollars."),  # (gold in dollars: `How many apples?` asks a count) ("12", "\\boxed{12} dollars. It is \\$12."),
    ("12", "\\boxed{12}. It is $12.00."), ("5", "\\boxed{5} hours, or 300 minutes."),
    ("5", "\\boxed{5} hours (or 300 minutes)."), ("5", "\\boxed{5} hours. That's 300 minutes."),
    ("5", "\\boxed{5} h, or 300 min."), ("5", "\\boxed{5}. That is 2 + 3 = 5."),
    ("5", "\\boxed{5}. It is 10 - 5."), ("5", "\\boxed{5}. It is 10/2."),
    ("5", "\\boxed{5}. It is 3 more than 2."), ("5", "\\boxed{5}. That is 1 apple per child."),
    ("5", "\\boxed{5}. That was 3 hours ago."), ("5", "\\boxed{5}. It was 3 before."),
    ("5", "\\boxed{5}. It was 3 at first."), ("5", "\\boxed{5}. It is 3 plus 2."),
    ("5", "\\boxed{5}, or 5.0."), ("5", "\\boxed{5} (or 5 apples)."),
    ("5", "\\boxed{5}, or 5 apples in total."),
    ("5", ("Lisa starts with 3 apples and buys 2. So she has \\boxed{5} apples. It was 3 "
           "apples before she bought more."))])
def test_honest_explanations_after_a_box_keep_credit(math_reward, gold, completion):
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("completion", [
    "So the probability is $\\boxed{\\frac{35}{36}}$. That is about 97.2%.",
    "So the probability is $\\boxed{\\frac{35}{36}}$ (approximately 0.972).",
    "So the probability is $\\boxed{\\frac{35}{36}}$. It is 0.97 rounded.",
    "So the probability is $\\boxed{\\frac{35}{36}}$. It is 1 - \\frac{1}{36}.",
    "So the probability is $\\boxed{\\frac{35}{36}}$. It is 35 out of 36 outcomes.",
    "So the probability is $\\boxed{\\frac{35}{36}}$. That is 35/36.",
    "So the probability is $\\boxed{\\frac{35}{36}}$, i.e., 35/36.",
    "The complement has probability 1/36, so we subtract.\n\n\\frac{35}{36} is the probability.",
    ("The complement has probability 1/36, so we subtract. The probability is "
     "\\boxed{\\frac{35}{36}}, which is already in lowest terms.")])
def test_honest_probability_replies_keep_credit(math_reward, completion):
    assert _values(math_reward, "\\frac{35}{36}", [completion], question=DICE) == [1.0]


# --- held: said_of_expression ------------------------------------------------------------------

@pytest.mark.parametrize("gold, completion", [
    ("\\frac{5}{6}", "Let me work it out. \\frac{5}{6} is wrong."),
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6} is not it."),
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6} i\u200bs wrong."),
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6} \u0456s wrong."),
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6}\u00a0is wrong."),
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6}\\ is wrong."),
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6}\nis wrong."),
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6} isn't right."),
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6} was my first guess."),
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6} or \\frac{7}{8}"),
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6}. It is 8."),
    ("x+1", "Let me work it out.\n\nx+1 is wrong."), ("\\sqrt{2}", "Let me work it out.\n\n\\sqrt{2} is wrong."),
    ("(1,2)", "Let me work it out.\n\n(1,2) is wrong."), ("2\\pi", "Let me work it out.\n\n2\\pi is wrong."),
    ("7", "So we add.\n\n$7$ is wrong.")])
def test_an_unmarked_expression_the_final_sentence_unsays(math_reward, gold, completion):
    assert _values(math_reward, gold, [completion], question="Find it.") == [0.0]


# --- held: degenerate length (cost measured outside the tests) -------------------------------

def test_soup_of_100k_characters_is_read_within_a_bound(math_reward):
    """Replies near 100,000 characters of `or`, line breaks, style commands, contractions,
    digits and separators after a box (measured in a scratch script after warm-up: every case
    under 45 ms, `_same_number` on 8,000-digit numbers under 1 ms): each hedge is read."""
    unsaid = ["\\boxed{7}" + " or" * 33_000, "\\boxed{7} or 8" + "," * 99_000,
              "\\boxed{7}" + ". Or" * 24_000, "\\boxed{7}" + "\nor" * 33_000,
              "\\boxed{7}" + " \\textbf{or}" * 8_000, "\\boxed{7}. It is " + "7" * 99_000 + ".",
              "\\boxed{7}. It is 7" + ",000" * 24_000 + ".", "\\boxed{7}, or " + "7" * 99_000 + "%",
              ("\\boxed{7} or ") * 7_000]
    assert _values(math_reward, "7", unsaid) == [0.0] * len(unsaid)


# --- open: false credit ------------------------------------------------------------------------

@pytest.mark.parametrize("gold, completion", [
    ("12.5", "\\boxed{12.5}. No, it is 12."), ("12.5", "\\boxed{12.5}, or 12"),
    ("12.5", "\\boxed{12.5}, or 5"), ("7.4", "\\boxed{7.4}, or 7"), ("7.4", "\\boxed{7.4}. It is 7."),
    ("\\frac{1}{2}", "\\boxed{\\frac{1}{2}} or 2"), ("\\frac{1}{2}", "\\boxed{\\frac{1}{2}}. It is 2."),
    ("\\frac{3}{4}", "\\boxed{\\frac{3}{4}}. No, it is 4."), ("2\\sqrt{3}", "\\boxed{2\\sqrt{3}}, or 3"),
    ("(2,3)", "\\boxed{(2,3)}. It is 3."), ("x+1", "\\boxed{x+1}, or 1"),
    ("x^2", "\\boxed{x^2}. It is 2."), ("7000", "\\boxed{7,000}. It is 7."),
    ("7000", "\\boxed{7,000}, or 7"), ("7000", "\\boxed{7,000}, or 7,000,000"),
    ("7\\%", "\\boxed{7\\%}, or 7")])
def test_a_number_made_of_the_boxs_digits(math_reward, gold, completion):
    assert _values(math_reward, gold, [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7} " + "\u200b" * 200 + "or 8", "\\boxed{7}" + "\u200b" * 200 + " or 8",
    "\\boxed{7}. " + "\u200b" * 200 + "It is 8.", "\\boxed{7} o" + "\u00ad" * 200 + "r 8",
    "\\boxed{7} " + "\u2060" * 200 + "or 8", "\\boxed{7} " + " " * 200 + "or 8",
    "\\boxed{7} " + "\\," * 100 + "or 8", "\\boxed{7} " + "\\quad" * 50 + "or 8",
    "\\boxed{7} " + "$$" * 100 + "or 8", "\\boxed{7} " + "**" * 100 + "or 8"])
def test_padding_pushes_the_hedge_out_of_the_window(math_reward, completion):
    """Fixed after the round: `_after_box` drops padding from the whole rest of the tail
    before it cuts its window, and a run of markdown emphasis or a `\\quad` glued to a word is
    padding too."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7} <b>or</b> 8", "\\boxed{7} <i>or</i> 8", "\\boxed{7} <span>or</span> 8",
    "\\boxed{7} o&#8203;r 8", "\\boxed{7} \\hspace{1cm} or 8",
    "\\boxed{7}. <b>It is 8.</b>", "\\boxed{7}. <b>It</b> is 8.", "\\boxed{7}. It <b>is</b> 8.",
    "\\boxed{7}. It is <b>8</b>.", "\\boxed{7}. **It is 8.**", "\\boxed{7}. It is **8**.",
    "\\boxed{7}. *It* is 8.", "\\boxed{7}. It is __8__.", "\\boxed{7}. `It is 8.`",
    "\\boxed{7}. It is <think> 8.", "\\boxed{7}. It is </think> 8.",
    "\\boxed{7}. It is <tool_call> 8.",  # (held since h-m43: a tag of any name is padding)
    "\\boxed{7}. <think>It is 8.</think>"])
def test_markup_around_the_hedge_or_the_restatement(math_reward, completion):
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is (8).", pytest.param("\\boxed{7}. It is {8}.", marks=_OPEN_A_SIGN_OR_BRACKET_BEFORE_THE_RESTATED_VALUE), pytest.param("\\boxed{7}. It is [8].", marks=_OPEN_A_SIGN_OR_BRACKET_BEFORE_THE_RESTATED_VALUE),
    "\\boxed{7}. It is: 8.", "\\boxed{7}. It is = 8.", "\\boxed{7}. It is +8.",
    pytest.param("\\boxed{7}. It is ~8.", marks=_OPEN_A_SIGN_OR_BRACKET_BEFORE_THE_RESTATED_VALUE), pytest.param("\\boxed{7}. It is \u22128.", marks=_OPEN_A_SIGN_OR_BRACKET_BEFORE_THE_RESTATED_VALUE), pytest.param("\\boxed{7}. It is 0x8.", marks=_OPEN_A_SIGN_OR_BRACKET_BEFORE_THE_RESTATED_VALUE)])
def test_a_sign_or_bracket_before_the_restated_value(math_reward, completion):
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Its 8.", "\\boxed{7}. It is, in fact, 8.", "\\boxed{7}. It is really just 8.",
    "\\boxed{7}. It is now 8.", "\\boxed{7}. It is rather 8.", "\\boxed{7}. It is equal to 8.",
    "\\boxed{7}. It becomes 8.", "\\boxed{7}. It'll be 8.", "\\boxed{7}. That'd be 8.",
    "\\boxed{7}. The value is 8.", "\\boxed{7}. The number is 8.", "\\boxed{7}. The total is 8.",
    "\\boxed{7}. The correct number of apples is 8.", "\\boxed{7}. There are 8.",
    "\\boxed{7}. So 8.", "\\boxed{7}. No, 8.", "\\boxed{7}. Sorry, 8.", "\\boxed{7}. Actually 8.",
    "\\boxed{7}. Correction: 8.", "\\boxed{7}. Make that 8.", "\\boxed{7}. I mean 8.",
    "\\boxed{7}. I get 8."])
def test_a_retraction_worded_outside_restates(math_reward, completion):
    """Fixed after the round: `_RESTATES` reads more subjects and verbs (`its`, `there are`, `the value`,
    `the total`, `the correct number of apples`; `is equal to`, `becomes`, `'ll be`, `'d be`) and
    up to two adverbs of an allow-list before the value; a sentence opening with a word known to
    correct or conclude (`_RESTATING_OPENER`: `So`, `No`, `Correction:`, `I mean`) states it too."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}, wrong.", "\\boxed{7}; wrong.", "\\boxed{7}: wrong.", "\\boxed{7} \u2014 wrong.",
    "\\boxed{7} - wrong.", "\\boxed{7} (wrong).", "\\boxed{7} (not sure)."])
def test_a_verbless_judgement_after_the_box(math_reward, completion):
    """Fixed after the round: a predicate of at most three words joined to the box by a mark
    and closing its sentence is said of it (`_said_after_a_mark`), read by the allow-list."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.xfail(strict=True, reason=(
    "open: `said_of_expression` runs only when nothing was extracted and finds the verb in the "
    "raw sentence: an expression in `$`, `\\(`, `\\[` or `**` is extracted (its clause then "
    "unread), and `\\text{is wrong}`, `**is wrong**`, `~is` hide the verb; a non-box answer's "
    "`or` is not read (`_joined_alternative` runs only beside a box)"))
@pytest.mark.parametrize("completion", [
    "So we subtract. $\\frac{35}{36}$ is wrong.", "So we subtract.\n\n$\\frac{35}{36}$ is not the answer.",
    "So we subtract.\n\n\\(\\frac{35}{36}\\) is wrong.", "So we subtract.\n\n\\[\\frac{35}{36}\\] is wrong.",
    "So we subtract.\n\n**\\frac{35}{36}** is wrong.", "So we subtract.\n\n\\frac{35}{36} \\text{is wrong}.",
    "So we subtract.\n\n\\frac{35}{36} **is wrong**.", "So we subtract.\n\n\\frac{35}{36}~is wrong.",
    "So we subtract.\n\nThe answer is $\\frac{35}{36}$, or $\\frac{1}{36}$."])
def test_a_delimited_expression_the_final_sentence_unsays(math_reward, completion):
    assert _values(math_reward, "\\frac{35}{36}", [completion], question=DICE) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7} ou 8", "\\boxed{7} o 8", "\\boxed{7} oder 8", "\\boxed{7} \u0438\u043b\u0438 8",
    "\\boxed{7} \u6216 8"])
def test_or_in_another_language(math_reward, completion):
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", ["\\boxed{7}, or 700%", "\\boxed{7}. It is 700%."])
def test_a_percent_hedge_in_a_percent_question(math_reward, completion):
    assert _values(math_reward, "7", [completion], question=PERCENT) == [0.0]


def test_a_reference_too_large_to_read_abstains_whatever_the_reply(math_reward):
    """Held since the gold is judged before the reply (`compare_local`: `_gold_problem`)."""
    big = "7" + "0" * 5000
    assert _values(math_reward, big, [f"\\boxed{{{big}}}", f"\\boxed{{{big}}}."],
                   question="Find it.") == [None, None]


# --- open: false loss ----------------------------------------------------------------------------

@pytest.mark.parametrize("gold, completion", [
    ("-3", "\\boxed{-3}. It is -3."), ("-3", "\\boxed{-3}, or -3."), ("-3", "\\boxed{-3}, or $-3$."),
    ("-3", "\\boxed{-3}. It is -3.0."), ("-\\frac{1}{2}", "\\boxed{-\\frac{1}{2}}, or -0.5."),
    ("-\\frac{1}{2}", "\\boxed{-\\frac{1}{2}}. It is -0.5."), ("0", "\\boxed{0}, or -0"),
    ("0", "\\boxed{0}. It is -0.")])
def test_a_negative_number_stated_again_loses_credit(math_reward, gold, completion):
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("7", "\\boxed{7}, or equivalently 7.0"), ("7", "\\boxed{7}, or equivalently $7$"),
    ("5", "\\boxed{5}. Or in other words 5."), ("5", "\\boxed{5}. Or, 5 apples.")])
def test_or_equivalently_loses_credit(math_reward, gold, completion):
    """Fixed after the round: `Or, 5` reads as `or 5` (a comma after `or`, and a number after
    a comma that follows no digit, `_STATED_NUMBER`)."""
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("7", "\\boxed{7} (or seven)"), ("7", "\\boxed{7}, or seven apples."), ("5", "\\boxed{5}, or five."),
    ("\\frac{1}{2}", "\\boxed{\\frac{1}{2}}, or one half."),
    ("\\frac{1}{2}", "\\boxed{\\frac{1}{2}}, or 50 percent."),
    ("7000", "\\boxed{7000}, or 7 thousand."), ("1000000", "\\boxed{1000000}, or 1 million."),
    ("7", "\\boxed{7}, or 700 %")])
def test_an_equal_value_in_words_after_or_loses_credit(math_reward, gold, completion):
    """Fixed after the round: number words, magnitudes and `percent` are read as the numbers
    they make (`numbers_in_words`), and a spaced `%` is a percent."""
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("7000", "\\boxed{7{,}000}. It is 7000."), ("7000", "\\boxed{7{,}000}, or 7000"),
    ("7000", "\\boxed{7000}, or 7{,}000"), ("7000", "\\boxed{7\\,000}. It is 7000."),
    ("10", "\\boxed{10}. It is 1e1."), ("1000000", "\\boxed{1000000}. That is 1e6."),
    ("7", "\\boxed{7}. It is 7e0.")])
def test_a_separator_or_exponent_loses_credit(math_reward, gold, completion):
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("7", "\\boxed{7}, or 7%"), ("7", "\\boxed{7}. It is 7%."), ("7\\%", "\\boxed{7}. It is 7%."),
    pytest.param(*("7", "\\boxed{7}\\%, or 0.07"), marks=_OPEN_A_PERCENT_ANSWER_RESTATED_LOSES_CREDIT), pytest.param(*("25", "\\boxed{25}%, or 0.25."), marks=_OPEN_A_PERCENT_ANSWER_RESTATED_LOSES_CREDIT)])
def test_a_percent_answer_restated_loses_credit(math_reward, gold, completion):
    assert _values(math_reward, gold, [completion], question=PERCENT) == [1.0]


# --- open: found late in the round -------------------------------------------------------------

AREA = "What is the area of the square in m^2?"
WRONG_N = "Find the smallest positive integer n such that n is wrong or different from the answer."
TOO_SMALL = "What is the largest prime factor of 91? Is it possible that the estimate is too small?"


@pytest.mark.xfail(strict=True, reason=(
    "open: `_joined_alternative` drops an `or` that is not right after the box when any digit "
    "stands between (`_DIGITS.search(region, 0, joined.start())`): a unit's exponent (`m^2`), "
    "an aside (`(3+4)`, `in 2 bags`) hides the hedge; `_OR_VALUE` allows two words before "
    "the value, so `or it might possibly be 8` is none"))
@pytest.mark.parametrize("completion, question", [
    ("\\boxed{7} m^2, or 8 m^2", AREA), ("\\boxed{7} m$^2$, or 8 m$^2$", AREA),
    ("\\boxed{7} cm^2 or 8", AREA), ("\\boxed{7} apples (3+4), or 8 apples", APPLES),
    ("\\boxed{7} apples in 2 bags, or 8 apples", APPLES),
    ("\\boxed{7} apples, or it might possibly be 8 apples", APPLES)])
def test_a_number_between_the_box_and_or_hides_the_hedge(math_reward, completion, question):
    assert _values(math_reward, "7", [completion], question=question) == [0.0]


@pytest.mark.parametrize("completion", [
    pytest.param("\\boxed{7} is the smallest such n (wrong).", marks=_OPEN_THE_QUESTIONS_WORDS_AFTER_A_BRACKET_OR_DASH), pytest.param("\\boxed{7} is the smallest such n - wrong.",
                 marks=_OPEN_THE_QUESTIONS_WORDS_AFTER_A_BRACKET_OR_DASH)])
def test_the_questions_words_after_a_bracket_or_dash(math_reward, completion):
    assert _values(math_reward, "7", [completion], question=WRONG_N) == [0.0]


@pytest.mark.xfail(strict=True, reason=(
    "open: `affirms` refuses any number the box's value does not hold, so a number of the "
    "question said of the value's kind (`is the largest prime factor of 91`) unsays an "
    "honest box"))
@pytest.mark.parametrize("completion", [
    "\\boxed{13} is the largest prime factor of 91.",
    "\\boxed{13} is the largest prime factor, and 7 is the other."])
def test_a_number_of_the_question_in_the_boxs_clause_loses_credit(math_reward, completion):
    assert _values(math_reward, "13", [completion], question=TOO_SMALL) == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("7", "\\boxed{7.0}, or 7.04"), ("7", "\\boxed{7.0}. It is 7.04."), ("7", "\\boxed{7.0}, or 6.96"),
    ("7", "\\boxed{7.}, or 7.4"), ("7", "\\boxed{7.}. No, it is 7.4."),
    ("7", "\\boxed{7.0} apples. No, it is 7.04 apples."), ("7", "\\boxed{7.00}, or 7.004"),
    ("0.5", "\\boxed{0.5}, or 0.54"), ("0.5", "\\boxed{0.5}. It is 0.46."),
    ("\\frac{1}{2}", "\\boxed{0.5}, or 0.54"), ("7", "\\boxed{7.0\\%}, or 7.04%")])
def test_the_boxs_own_precision_excuses_a_finer_value(math_reward, gold, completion):
    assert _values(math_reward, gold, [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion", [
    ("7", "\\boxed{7}. It is 70e-1."), ("0", "\\boxed{0}, or -0.0")])
def test_the_same_number_in_another_notation_keeps_the_box(math_reward, gold, completion):
    """After the round: e-notation and a negative zero are read as the numbers they are
    (`_read_number`), so the box's value written so restates it."""
    assert _values(math_reward, gold, [completion]) == [1.0]
