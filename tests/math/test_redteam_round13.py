"""Red team, round 13 of issue #33: what the verifier reads after a final box (main at f42f360).

The rules attacked (merge of h-m17; docs/math.md, "What is glued to a box" and "What follows a
box"), all in `rewards/math/_extract.py` unless named:

- glue: `_glue_symbols`, `_HARMLESS_GLUE`, `_UNSPACED_GLUE_WORDS`, `_compound_changes`,
  `_PASSED_GLUE`, `_number_across_the_brace`;
- what follows: `_unread_after_box` (`_SIDE_BY_SIDE`, `_SHORT_REMARK`, `_EXPLAINING`, `_rejects`,
  `_harmless_remark`, `_HARMLESS_MARKS`), read through `_after_box` (the 200-character window,
  `_PADDING`, `_reply_end_after`).

How: every probe goes through the reward as users call it, `MathReward().score([Sample(question,
completion, reference=gold)])`: behind Qwen's `The answer is ` phrasing (`redteam_helpers`), or
as a whole ending written as DeepSeek-R1, Qwen2.5-Math and Llama end their answers. Three
directions (`/work/shared/ATTACK-CLASSES.md`):

- buy credit: text after the box that does not commit to the gold's value keeps its 1.0;
- false loss: an honest ending of a real completion loses the 1.0 a careful grader gives;
- degenerate length: a long tail after the box costs time linear in its length (sized as
  `test_adversarial.py` sizes its inputs, under its machine-scaled budget).

Held attacks are plain tests. Each hole left open is an `xfail(strict=True)` whose reason starts
with its class and names the function at its root. The verifier is not changed here.
"""

from __future__ import annotations

import time

import pytest

from rewards import Sample
from rewards.math import MathConfig, MathReward
from rewards.math._compare import compare_local
from rewards.math._extract import _after_box, find_answer
from tests.math.redteam_helpers import APPLES
from tests.math.redteam_helpers import values as _values
from tests.math.test_adversarial import BUDGET


def _value(reward: MathReward, gold: object, completion: str) -> float | None:
    """The score of `The answer is ` + `completion`."""
    return _values(reward, gold, [completion])[0]


def _whole(reward: MathReward, gold: object, completion: str) -> float | None:
    """The score of `completion` as written (a whole ending, no prefix)."""
    return reward.score([Sample(APPLES, completion, reference=gold)])[0].value


# --- held: buy credit ------------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    # a separator of another script glued before digits continues the number (the Arabic
    # decimal separator, a no-break space before a group of three)
    "\\boxed{7}\u066b5", "\\boxed{7}\u00a0000",
    # a non-breaking hyphen before a digit
    "\\boxed{7}\u20111",
    # invisible or format characters between the box and what follows (combining grapheme
    # joiner, left-to-right mark, variation selector)
    "\\boxed{7}\u034f!", "\\boxed{7}\u200e8", "\\boxed{7}\ufe0f8",
    # words glued in scripts without spaces that change the value (`more than`) or negate it
    "\\boxed{7}\u591a\u4e2a", "\\boxed{7}\u3067\u306f\u306a\u3044",
    # compounds not on the allow-list
    "\\boxed{7}-something",
    # a sentence mark of another script, or an approving mark, glued before a digit
    "\\boxed{7}\u09648", "\\boxed{7}\u27052",
])
def test_held_glued_to_the_box(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


@pytest.mark.parametrize("completion", [
    # another value in a next sentence, in words or behind separators the reader reads as spaces
    "\\boxed{7}. Eight.", "\\boxed{7}.\u200b Also 8.", "\\boxed{7}.\u0085Also 8.",
    "\\boxed{7}.</p><p>8 also works.", "\\boxed{7}. \\text{Also 8.}", "\\boxed{7}. \u0417\u0434\u0435\u0441\u044c 8.",
    # a value the box's own clause sets beside it
    "\\boxed{7}, otherwise 8.", "\\boxed{7} \u2192 8",
    # a long rule of underscores is padding, so it pushes nothing out of the window
    "\\boxed{7}.\n\n" + "_" * 250 + "\n\nAlso 8.",
    # short take-backs and doubts off the allow-list of remarks
    "\\boxed{7}. Never mind.", "\\boxed{7}. Or is it?",
    "\\boxed{7}. Not verified.",
])
def test_held_said_after_the_box(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# --- open: buy credit ------------------------------------------------------------------------------

# fixed (h-m21): `_explains` takes an opener as an explanation only when something follows it (a word or an operation)
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Here, 8.", "\\boxed{7}. Because 8.", "\\boxed{7}. Note that 8.",
    "\\boxed{7}. Check: 8.",
])
def test_hole_explanation_opener_with_a_bare_value(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m21): `_rejects` passes over a negation of the box's own value; a `;` clause is read alone
@pytest.mark.parametrize("completion", ["\\boxed{7}. Not 7, 8.", "\\boxed{7}. Mia ate none; 8."])
def test_hole_negation_of_the_box_then_another_value(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m21): `_harmless_remark` doubts a negated affirming word (`_AFFIRMING`)
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Not done.", "\\boxed{7}. Not solved.", "\\boxed{7}. Nothing is right.",
])
def test_hole_negated_sign_off(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m21): `_harmless_remark` doubts a question that asks an affirming word
@pytest.mark.parametrize("completion", [ "\\boxed{7}. Is that right?", "\\boxed{7}. Is that the final answer?",
])
def test_hole_question_of_doubt_in_allowed_words(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m21): `_after_box(breaks=True)` keeps `_HIDDEN_BREAK`s; a capital after the box opens a sentence
@pytest.mark.parametrize("completion", [
    "\\boxed{7}.Also 8.", "\\boxed{7} Also 8.", "\\boxed{7}\u3000Also 8.", "\\boxed{7}\\\\ Also 8.",
])
def test_hole_hidden_sentence_boundary(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m21): `_remark_length` counts words and distinct numbers only
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Also \u2014 \u2014 \u2014 \u2014 8.", "\\boxed{7}. Also 8 :) :) :) :)",
    "\\boxed{7}. Also, 8, 8, 8, 8, 8.",
])
def test_hole_short_sentence_padded_long(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m21): `_sentences_read` does not count what `_passes` (sign-offs, remarks)
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Done. Done. Done. Also 8.",
])
def test_hole_value_after_three_sign_offs(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m21): `_MARK_RUN` reads a run of one mark as three; what `_passes` takes no window
@pytest.mark.parametrize("completion", [
    "\\boxed{7}" + "." * 250 + " Also 8.", "\\boxed{7}.\n\n" + "-" * 250 + "\n\nAlso 8.",
])
def test_hole_rule_pushes_past_the_window(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# decided (lead, session 9), changed by h-m35 (issue #33 round 19): special-token text the model
# writes is data, and what follows it is the model's (round 4's
# `test_text_after_a_written_turn_marker_is_the_models`): a second answer there unsays the box;
# a later box after words replaces it, as any later box does. Changed by h-m40 (round 20's second
# turn's box): with only the marker between, the later box stands beside the box, as it does in
# `\\boxed{7}. \\boxed{8}` (the marker is padding: it separates nothing), so the reply gives two
# answers and is right for neither. The completion is right for one gold at most.
@pytest.mark.parametrize(("completion", "credited"), [
    ("\\boxed{7}.<|im_end|> Also 8.", None), ("\\boxed{7}. <|endoftext|> 8.", None),
    ("\\boxed{7}. <|x|> Also 8.", None), ("The answer is 7 <|im_end|> 8", None),
    ("\\boxed{7}. <|endoftext|> \\boxed{8}", None), ("\\boxed{7}. \\boxed{8}", None),
    ("\\boxed{7}. <|endoftext|> Hmm, no. Let me redo it, then: \\boxed{8}", "8"),
])
def test_held_second_answer_after_written_turn_marker_buys_nothing(
    reward: MathReward, completion: str, credited: str | None
) -> None:
    assert [_value(reward, gold, completion) for gold in ("7", "8")] == [
        1.0 if gold == credited else 0.0 for gold in ("7", "8")
    ]


@pytest.mark.xfail(strict=True, reason="open: meaning dropped by normalization (other scripts): "
                   "_UNSPACED_GLUE_WORDS passes the counter `个` and then `左右` (`about 7`), and "
                   "_JUDGING_ELSEWHERE knows `아니` but not the polite `아닙니다` (`is not 7`) (left by h-m21: what is glued "
                   "to the box and the judging readers are outside the after-box allow-lists)")
@pytest.mark.parametrize("completion", [
    "\\boxed{7}\u4e2a\u5de6\u53f3", "\\boxed{7}\uc774 \uc544\ub2d9\ub2c8\ub2e4",
])
def test_hole_other_script_hedge_or_negation(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m21): `≈` is read as `\\approx` (`_APPROX_SIGN`), beside the box as another value unless it is
# the box to the places printed (`_approximates`)
def test_hole_approximately_another_value(reward: MathReward) -> None:
    assert _value(reward, "7", "\\boxed{7} \u2248 8") == 0.0


@pytest.mark.parametrize(("gold", "completion", "expected"), [
    ("\\sqrt{2}", "So \\boxed{\\sqrt{2}} \u2248 1.414.", 1.0), ("\\sqrt{2}", "So \\boxed{\\sqrt{2}} \\approx 1.414.", 1.0),
    ("\\sqrt{2}", "So \\boxed{\\sqrt{2}} \u2248 1.5.", 0.0), ("7", "So \\boxed{7} \\approx 8.", 0.0),
])
def test_probe_approximately(reward: MathReward, gold: str, completion: str, expected: float) -> None:
    assert _whole(reward, gold, completion) == expected


# fixed (h-m25): a longer sentence after the box is read for values no harmless form explains
# (`_extract._unexplained_values`)
def test_hole_six_word_retraction(reward: MathReward) -> None:
    assert _value(reward, "7", "\\boxed{7}. On reflection the count I trust most is 8.") == 0.0


# --- held: false loss ------------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    # Qwen2.5-Math, DeepSeek-R1, Llama endings
    "Therefore, the final answer is: $\\boxed{7}$. I hope it is correct.",
    "**Final Answer**\n\\[\n\\boxed{7}\n\\]<|im_end|>",
    "</think>\n\nMia starts with 10 apples and eats 3.\n\n\\[\n\\boxed{7}\n\\]",
    "**Final Answer**\nThe number of apples Mia has is \\boxed{7}.", "So the answer is \\boxed{7}.<|eot_id|>",
    # restatements in words and in math
    "The answer is \\boxed{7}. Seven apples.", "The answer is \\boxed{7} \\(7\\).",
    # explanations: a check, an operand after `Since`, a long sentence the window cuts
    "Mia has \\boxed{7} apples. Check: 3 + 7 = 10.",
    "Mia has \\boxed{7} apples. Since she ate 3.",
    ("The answer is \\boxed{7}. Each of the three friends took one apple from the basket, and then the two "
     "remaining friends each put back the apples they had borrowed earlier in the week, so the basket ends "
     "where it was after the first day."),
    # sign-offs and approval on the allow-lists
    "The answer is \\boxed{7}. Hope that helps! \U0001f60a",
    "Mia has \\boxed{7} apples. \u2705 Verified.", "\u7b54\u6848\u662f \\boxed{7}\u3002\u5e0c\u671b\u5bf9\u4f60\u6709\u5e2e\u52a9\uff01",
    "\u041e\u0442\u0432\u0435\u0442: \\boxed{7} \u044f\u0431\u043b\u043e\u043a.",
    "Mia has \\boxed{7} apples.\n\nI hope this helps! Let me know if you have any other questions.",
])
def test_held_honest_ending(reward: MathReward, completion: str) -> None:
    assert _whole(reward, "7", completion) == 1.0


# --- open: false loss ------------------------------------------------------------------------------

# fixed (h-m19): _HARMLESS_MARKS holds the approving and celebrating emoji as a class (applause,
# 100, rocket, trophy, stars, raised hands), so a chat model's closing emoji keeps the box.
@pytest.mark.parametrize("completion", [
    "The answer is \\boxed{7}. \U0001f44f", "The answer is \\boxed{7}. \U0001f4af",
    "The answer is \\boxed{7}. \U0001f680",
   
])
def test_hole_approving_emoji(reward: MathReward, completion: str) -> None:
    assert _whole(reward, "7", completion) == 1.0


# fixed (h-m21): `_names_counted` keeps a symbol whose Unicode name is a noun of the box's sentence
@pytest.mark.parametrize("completion", [
    "Therefore, Mia has $\\boxed{7}$ apples left. \U0001f34e",
])
def test_hole_emoji_of_the_counted_thing(reward: MathReward, completion: str) -> None:
    assert _whole(reward, "7", completion) == 1.0


# fixed (h-m21): `_REMARK_WORDS` holds chat models' common sign-offs
@pytest.mark.parametrize("completion", [
    "The answer is \\boxed{7}. Good luck with your studies!", "The answer is \\boxed{7}. Feel free to ask.", "The answer is \\boxed{7}. Awesome!",
])
def test_hole_english_sign_off(reward: MathReward, completion: str) -> None:
    assert _whole(reward, "7", completion) == 1.0


# fixed (h-m21): `_REMARK_WORDS` holds the usual variants in other languages
@pytest.mark.parametrize("completion", [
    "La respuesta es \\boxed{7}. \u00a1Espero que te sirva!",
    "Die Antwort ist \\boxed{7}. Viel Erfolg!",
    "The answer is \\boxed{7}. Ich hoffe, das hilft dir!",
    ("\u041e\u0442\u0432\u0435\u0442: \\boxed{7}. \u041d\u0430\u0434\u0435\u044e\u0441\u044c, \u044d\u0442\u043e "
     "\u043f\u043e\u043c\u043e\u0433\u043b\u043e!"), "The answer is \\boxed{7}. \u4ee5\u4e0a\u3067\u3059\u3002",
])
def test_hole_sign_off_in_other_languages(reward: MathReward, completion: str) -> None:
    assert _whole(reward, "7", completion) == 1.0


# fixed (h-m21): `_explains` (openers in other languages, `_ACTING` verbs, equations that check the box) and `_LABELLED` numbers
@pytest.mark.parametrize("completion", [
    "Mia has \\boxed{7} apples. She ate 3.",
    "Mia has \\boxed{7} apples. Step 3 confirms it.",
    "Mia has \\boxed{7} apples. Da sie 3 gegessen hat.",
    "Mia tiene \\boxed{7} manzanas. Porque comi\u00f3 3.",
])
def test_hole_short_explanation_with_an_operand(reward: MathReward, completion: str) -> None:
    assert _whole(reward, "7", completion) == 1.0


# fixed (h-m21): a table that holds the box's value and an equation that checks it are the working
@pytest.mark.parametrize("completion", [
    "The answer is \\boxed{7}.\n\n| Step | Apples |\n|---|---|\n| Start | 10 |\n| End | 7 |",
    "Mia has $\\boxed{7}$ apples.  \n*(10 \u2212 3 = 7)*",
])
def test_hole_markdown_working_after_the_box(reward: MathReward, completion: str) -> None:
    assert _whole(reward, "7", completion) == 1.0


# --- probes of the fixes (h-m21), both directions ------------------------------------------------

@pytest.mark.parametrize("completion", [
    # hidden sentence ends: a paragraph or a line break before a capital, a glued full stop
    "\\boxed{7}\n\nAlso 8.", "\\boxed{7}\nAlso 8.", "\\boxed{7}.Or 8.",
    # an opener with only a value after it, in another language, or with the value first
    "\\boxed{7}. Weil 8.", "\\boxed{7}. Because 8 works.",
    # negated or asked affirmations
    "\\boxed{7}. Not correct.", "\\boxed{7}. Not final.", "\\boxed{7}. Is this correct?",
    "\\boxed{7}. Right?",
    # a negation of the box, then another value with a contrast
    "\\boxed{7}. Not 7 but 8.",
    # sign-offs and rules push nothing out of what is read
    "\\boxed{7}. Thanks! Thanks! Thanks! Thanks! Also 8.", "\\boxed{7}. " + "Hope this helps! " * 12 + "Also 8.",
    "\\boxed{7}. " + "=" * 300 + " Also 8.", "\\boxed{7}.\n\n" + "#" * 300 + " Also 8.",
])
def test_probe_after_the_box_unsays(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


@pytest.mark.parametrize("completion", [
    # an emoji of another thing than the one counted; a table without the box's value
    "Mia has \\boxed{7} apples. \U0001f350", "The answer is \\boxed{7}.\n\n| Answer | 8 |",
    # a doubting face whose name is a word of the sentence but not what the box counts
    "The face value is \\boxed{7}. \U0001f914",
    # the reply's own work with another value is no story of the problem's people
    "Mia has \\boxed{7} apples. We took 8.",
])
def test_probe_whole_ending_unsays(reward: MathReward, completion: str) -> None:
    assert _whole(reward, "7", completion) == 0.0


@pytest.mark.parametrize("completion", [
    "Mia has \\boxed{7} apples. No doubt about it.", "Mia has \\boxed{7} apples. She gave away 3.",
    "Mia has \\boxed{7} apples. Weil sie 3 gegessen hat.", "Mia has \\boxed{7} apples. Step 2 gives 10 - 3.",
    "$$\\boxed{7}$$\n\nThis is because 10 - 3 = 7.",
    "Mia has \\boxed{7} apples.\n\nDone. Done. Done. Since she ate 3.",
    # markdown after the box: a rule, a heading and a check, bold
    "The answer is \\boxed{7}.\n\n---", "The answer is \\boxed{7}.\n\n---\n\n**Check:** 10 - 3 = 7.",
    "The answer is \\boxed{7}.\n\n### Verification\n10 - 3 = 7", "The answer is \\boxed{7}\n\n**Final Answer:** 7",
    # the counted thing's emoji, a capitalised unit, sign-offs and a question that doubts nothing
    "Mia has \\boxed{7} apples. \U0001f34f", "The answer is \\boxed{7} Apples.",
    "The answer is \\boxed{7}. Any questions?", "The answer is \\boxed{7}. Have a great day!",
    "The answer is \\boxed{7}. Bonne chance !", "The answer is \\boxed{7}.\\\\ Good luck!",
    "Mia has \\boxed{7} apples. I hope this helps! Let me know if you need further help.",
])
def test_probe_honest_ending_keeps_the_box(reward: MathReward, completion: str) -> None:
    assert _whole(reward, "7", completion) == 1.0


# --- degenerate length ------------------------------------------------------------------------------

# A tail far longer than the default window (`tail_chars`), so the box stays in what is read.
LONG_TAIL = MathConfig(tail_chars=1_000_000)
BOX = "The answer is \\boxed{7}"


@pytest.mark.parametrize("tail", [
    "." * 40_000, " 8" * 20_000, "\u200b" * 40_000 + "8", "*" * 40_000 + "8",
    " (" + "1" * 40_000, ", 8" * 12_000,
])
def test_held_long_tail_is_linear(tail: str) -> None:
    text = BOX + tail
    find_answer(BOX + tail[:30], LONG_TAIL)  # one-off set-up (Unicode tables) is no growth
    start = time.perf_counter()
    compare_local(find_answer(text, LONG_TAIL), "7", LONG_TAIL, text)
    elapsed = time.perf_counter() - start
    assert elapsed < BUDGET, (tail[:20], len(text), elapsed)


# What `_unread_after_box` passes over without counting it (`_passes`) and table rows are read
# once each: linear in the tail.
@pytest.mark.parametrize("tail", [
    ". Done." * 6_000, "\n| 8 |" * 8_000, ". Not done." * 4_000, "\n\nAlso" * 6_000,
])
def test_probe_long_tail_of_sentences_is_linear(tail: str) -> None:
    text = BOX + tail
    find_answer(BOX + tail[:30], LONG_TAIL)
    start = time.perf_counter()
    compare_local(find_answer(text, LONG_TAIL), "7", LONG_TAIL, text)
    elapsed = time.perf_counter() - start
    assert elapsed < BUDGET, (tail[:20], len(text), elapsed)


# fixed: `_PADDING` starts a run of stars only at its first star (`(?<!\*)`), linear
def test_fixed_run_of_stars_between_digits() -> None:
    tail = ". 8" + "*" * 12_000 + "8"
    _after_box(BOX + ". 8**8", len(BOX), sentences=4)
    start = time.perf_counter()
    _after_box(BOX + tail, len(BOX), sentences=4)
    elapsed = time.perf_counter() - start
    assert elapsed < BUDGET, (len(tail), elapsed)
