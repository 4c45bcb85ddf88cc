r"""A completion earns credit only for an answer it commits to (issue #33: the largest class of
false credit on real completions was a chain of thought cut off mid-thought, or ending with no
answer, credited because a number found in passing equals the gold).

Forms from real completions of long chain-of-thought models, each with the near miss that
must not pass: a committed answer (box, phrase, bold span, the last sentence of a finished
reply) scores; a number in passing, a reply cut off mid-thought or inside its box, and an
answer the model goes on to retract, are `no_answer`."""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math._extract import final_sentence_start, find_answer

THINKING = ("Let me set up the problem. We have three unknowns and two equations, so we first "
            "eliminate one of them and then check the remaining cases one by one. " * 12)

# (gold, completion, value, reason)
CASES = [
    # A bold final answer, where a later number is not the answer.
    ("5", "The minimum is **5**, reached at x = 2.", 1.0, "ok"),
    ("5", "The minimum is **6**, reached at x = 5.", 0.0, "wrong"),
    ("4", THINKING + "So the proton contains **4 up quarks** in all 2 of its states.", 1.0, "ok"),
    ("5", THINKING + "Thus n = **5**", 1.0, "ok"),
    ("3", "**Step 3:** compute the sum, which is 7.", 0.0, "wrong"),  # a label is not bold
    # A labelled sub-answer reads the span after its label.
    ("3", "**Final answer for Subproblem 1:** 3 bushels", 1.0, "ok"),
    ("3", "**Final answer for Subproblem 1:** 4 bushels", 0.0, "wrong"),
    ("12", "Final answer to part (b): $12$", 1.0, "ok"),
    # Cut off mid-thought: on an operator, mid-sentence, inside a box, on an ellipsis.
    ("3", THINKING + "So x = \\sqrt[3]{4} +", 0.0, "no_answer"),
    ("3", THINKING + "So x = \\sqrt[3]{4}.", 0.0, "no_answer"),  # a root's index is markup
    ("12", THINKING + "The first part is 12. Next we need to compute the product of", 0.0,
     "no_answer"),
    ("-10", THINKING + "The value is -10.2, and so we write \\boxed{-10.", 0.0, "no_answer"),
    ("-10.2", THINKING + "so the answer is \\boxed{-10.", 0.0, "no_answer"),
    ("7", THINKING + "Adding the two parts gives 7, but then again...", 0.0, "no_answer"),
    # A number in passing, then a finished reply that commits to none.
    ("5", THINKING + "So x = 5. Let me double-check this by substituting back.", 0.0,
     "no_answer"),
    ("5", THINKING + "So x = 5. Is that consistent with the second equation?", 0.0,
     "no_answer"),
    # A retracted answer: the model goes on thinking past it and is cut off.
    ("5", THINKING + "The answer is 5. Wait, that's wrong. Let me redo the computation "
     "carefully. We have 2x = 12 which gives", 0.0, "no_answer"),
    ("5", THINKING + "So x = 5. Wait, that is not right. Let me recompute: we have 2x = 12, so",
     0.0, "no_answer"),
    # Committed: the answer in the last sentence of a finished reply, or before a sign-off.
    ("12", THINKING + "Therefore, there are 12 distinct sequences. I hope it is correct.",
     1.0, "ok"),
    ("12", THINKING + "Therefore, there are 12 distinct sequences. I hope it is correct. "
     "<|im_start|>user", 1.0, "ok"),
    ("12", THINKING + "Therefore, there are 13 distinct sequences. I hope it is correct.",
     0.0, "wrong"),
    ("(7,6)", THINKING + "So the ordered pair that solves the system is $(7, 6)$.", 1.0, "ok"),
    ("10", "```output\n10\n```\nTen men can stay upright on the wave.", 1.0, "ok"),
    ("7", THINKING + "\n\nx = 7", 1.0, "ok"),  # the last line is only an answer
    # a short reply, no period (the gold in dollars: the questions ask counts, which no amount
    # of money answers against a bare gold, round 21)
    ("\\$18.90", "It costs $\\$18.90$ in total", 1.0, "ok"),
    ("3.5", "The answer is 3.5. Done", 1.0, "ok"),  # a sign-off, not more thought
    # A box stays the answer, whatever follows it.
    ("25", "So \\boxed{25}. Wait, let me double check the arithmetic once more", 1.0, "ok"),
]


@pytest.mark.parametrize(("gold", "completion", "value", "reason"), CASES,
                         ids=[f"{i}-{c[-30:]}" for i, (_, c, _, _) in enumerate(CASES)])
def test_only_a_committed_answer_scores(math_reward, gold, completion, value, reason):
    # the nouns the rows' questions name, which an answer may write beside its value
    question = "How many up quarks does a proton contain? How many bushels were picked?"
    score = math_reward.score([Sample(question, completion, reference=gold)])[0]
    assert (score.value, score.reason) == (value, reason)


@pytest.mark.parametrize("text", [
    THINKING + "So x = \\sqrt[3]{4} +", THINKING + "we write \\boxed{-10.",
    THINKING + "So x = 5. Let me double-check this by substituting back.",
    THINKING + "Next we need to compute the product of",
])
def test_no_committed_answer_extracts_nothing(text):
    assert find_answer(text) is None


@pytest.mark.parametrize(("text", "sentence"), [
    ("We get 4. So x = 5.", "So x = 5."),
    ("Decimals 2.5 and .5 do not end it. So x = 5.", "So x = 5."),
    ("First.\n\nThen x = 5", "Then x = 5"),
    ("So x = 5. I hope it is correct.", "So x = 5. I hope it is correct."),
    ("So x = 5.</s>", "So x = 5.</s>"),
    (THINKING + "So x = 5 and", None), (THINKING + "So x = 5 +", None), ("So x = 5?", None),
])
def test_the_final_sentence_of_a_finished_reply(text, sentence):
    start = final_sentence_start(text)
    assert (text[start:].strip() if start is not None else None) == sentence


def test_finding_the_final_sentence_is_linear():
    """A reply of one unbroken sentence, or of a million blank lines, is one backward pass."""
    import time

    for text in ("x" * 2_000_000 + ".", "\n \n" * 500_000 + "So x = 5."):
        began = time.perf_counter()
        final_sentence_start(text)
        assert time.perf_counter() - began < 2.0


@pytest.mark.parametrize("completion", [
    "We simplify step by step.\n\nTherefore\n$$\n1/1996!\n$$",
    "So the probability is $\\frac{1}{1996!}$.",
    "The count is 1996! over itself, so the answer is \\boxed{\\frac{1}{1996!}}",
])
def test_a_factorial_does_not_end_the_sentence(math_reward, completion):
    """`1/1996!` on its own line: its "!" is a factorial, not an exclamation that ends the
    sentence (the differential corpus found the answer read as empty: no_answer)."""
    (score,) = math_reward.score([Sample("p", completion, reference="\\frac{1}{1996!}")])
    assert (score.value, score.reason) == (1.0, "ok")
