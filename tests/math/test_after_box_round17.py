"""What follows a box, round 17 of issue #33 (h-m28): the holes round 16 left in
`rewards/math/_extract.py`, probed from both sides (docs/math.md, "What follows a box").

- a true equation told as a step of the working (`_tells_a_step`: an explanation's opener
  that is no check, a step's label or an ordinal, a known subject of the story), in a short
  sentence or a longer one, states no other answer; a false one (`_holds`), a bare one, a
  check's and one said as the answer do, with or without the noun it counts (`_RESULT_SIDE`:
  `(3 + 5 = 8 apples)`, `3 + 5 = 8 ✓`);
- a story action's values are the story's where the question or the working states them
  (`Extraction.stated_after`, `told_after`: `So you ate 3.` in a problem of 3 apples keeps
  the box; `Let's take 8.`, `Maybe take 8.`, `Mia ate 8.` take it back); only where the
  question states no number does a known subject of the story vouch for them (`_story_told`:
  the third person in the languages replies are written in, a determiner with its noun, a
  name);
- a story part that says what is left (`_LEAVES`: `kept 8`, `8 leftover`, `8 remained`,
  `eight left`) with another value states it;
- a sign-off is read by its courtesy words, a Chinese run cut into the listed words
  (`_courtesy_words`: `希望对您有帮助！`);
- a full-width stop ends its sentence (`\\boxed{7}。8` reads 8, not `.8`).

Every probe goes through the reward as users call it and asserts one exact verdict.
"""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from tests.math.redteam_helpers import APPLES, OPTIONS
from tests.math.redteam_helpers import after_box as _after

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = (
    "Mia had 10 apples. She ate 3 and gave 2 to each of her 2 friends. How many apples does "
    "Mia have left?"
)
FIRST_PERSON = "I had 10 apples and ate 3. How many apples do I have now?"
WORKING = (
    "Mia starts with 10 apples. She eats 3, leaving 7. She gives 2 × 2 = 4 away, leaving 3.\n\n"
    "The answer is $\\boxed{3}$. "
)


def _score(reward: MathReward, completion: str, gold: str, question: str) -> float | None:
    [score] = reward.score([Sample(question, completion, reference=gold)])
    return score.value


def _story(reward: MathReward, tail: str, working: bool = False) -> float | None:
    """A reply to `STORY` (gold 3), its box alone or after the working, then `tail`."""
    head = WORKING if working else "The answer is $\\boxed{3}$. "
    return _score(reward, head + tail, "3", STORY)


# === steps of the working: false loss ===========================================================


@pytest.mark.parametrize(
    "tail",
    [
        "Since 5 × 2 = 10.",
        "Because 5 \\cdot 2 = 10.",
        "Note that 2 × 5 = 10.",
        "Recall that 2 + 3 = 5.",
        "First, 5 × 2 = 10.",
        "Next, 10 − 3 = 7.",
        "Step 1: 5 × 2 = 10.",
        "Step 2: 2 + 3 = 5.",
        "Step 1: 5 × 2 = 10. Step 2: 10 - 3 = 7.",
        "\n\nStep 1: 5 × 2 = 10\nStep 2: 10 − 3 = 7",
        "Bob has 2 + 3 = 5.",
        "(She bought 5 × 2 = 10.)",
        "Tom had 4 + 6 = 10.",
    ],
)
def test_true_step_of_the_working_keeps_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


@pytest.mark.parametrize(
    "tail",
    [
        "(7 − 0 = 8)",
        "(0 + 7 = 8)",
        "(7 × 1 = 8)",
        "Step 1: 3 + 5 = 9.",
        "Since 3 + 5 = 9.",
        "Bob has 2 + 3 = 6.",
        "(4 + 4 = 8)",
        "Check: 1 × 8 = 8.",
        "Explanation: 3 + 5 = 8.",
        "Also 3 + 5 = 8.",
        "Or 4 + 4 = 8.",
        "So the answer is 3 + 5 = 8.",
    ],
)
def test_false_bare_or_offered_equation_takes_the_box_back(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


@pytest.mark.parametrize(
    "tail",
    [
        "(10 − 3 = 7 apples)",
        "Bob has 2 + 3 = 5 apples.",
        "Step 1: 5 × 2 = 10 apples.",
        "Since each bag holds 5 × 2 = 10 apples, she kept 7 of them after the rest were eaten.",
        "In the first step, since 5 × 2 = 10, the basket held 10 apples, and 10 − 3 = 7.",
        "Step 1: 5 × 2 = 10 apples were bought; step 2: 10 − 3 = 7 apples are left over.",
    ],
)
def test_true_step_with_its_noun_keeps_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


@pytest.mark.parametrize(
    "tail",
    [
        "(3 + 5 = 8 apples)",
        "(2 × 5 = 10 apples)",
        "3 + 5 = 8 ✓",
        "(3+5=8,)",
        "Since the answer is 3 + 5 = 8.",
        "We can also note that 4 + 4 = 8 gives another possible count of the apples.",
    ],
)
def test_equation_offering_another_result_with_its_noun(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


@pytest.mark.xfail(
    strict=True,
    reason=(
        "open: hedging: a longer sentence after the box that says `the answer is` an equation "
        "with another result (`Then the answer is 3 + 5 = 8 apples in total.`) is taken as the "
        "final answer phrase, whose tail math-verify reads back to the box's 7; root: "
        "_extract.find_answer (a phrase after the box replaces it) and _compare (a native "
        "phrase is judged on the tail)"
    ),
)
def test_answer_phrase_equation_after_the_box(reward: MathReward) -> None:
    assert _after(reward, "Then the answer is 3 + 5 = 8 apples in total for the basket.") == 0.0


# === stories told back: false loss ==============================================================


@pytest.mark.parametrize(
    "tail", ["So you ate 3.", "Then you ate 3.", "Tom and I ate 3.", "You ate 3 of the 10."]
)
def test_first_person_story_keeps_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail, question=FIRST_PERSON) == 1.0


@pytest.mark.parametrize(
    "tail",
    [
        "Ella comió 3.",
        "Sie aß 3.",
        "Elle a mangé 3.",
        "Она съела 3.",
        "Ela comeu 3.",
        "Lei ha mangiato 3.",
        "She ate 3.",
        "Her friend took 3.",
        "Tom and Mia ate 3.",
        "So she ate 3.",
    ],
)
def test_story_sentence_in_any_listed_language_keeps_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


@pytest.mark.parametrize(
    "tail",
    [
        (
            "She ate 3, so 7 were left, and then she gave 2 to each of her 2 friends, which is 4 "
            "apples, so 3 remain."
        ),
        (
            "We started with 10 apples, ate 3 of them, and then handed 2 apples to each of the 2 "
            "friends, so we are left with 3."
        ),
        "First, Mia ate 3 apples. Then each of her 2 friends took 2. So she has 3 left.",
        "Since she ate 3 and gave away 4, she has 10 - 7 = 3 apples.",
        "Mia's friends took 2 apples each, so she gave away 4 apples and kept 3.",
        "Она съела 3 яблока и отдала 4.",
        "Ella comió 3 y regaló 4.",
        "Elle a mangé 3 pommes et en a donné 4.",
        "Sie aß 3 Äpfel und gab 4 weg.",
        "To verify: 10 - 3 - 4 = 3 ✓",
        "Let's check: 3 + 4 + 3 = 10.",
        "Since 2 × 2 = 4, she gave away 4 apples.",
        "I ate 3 and gave away 4.",
        "So you gave 2 to each of 2 friends.",
        "Hope this clears things up!",
    ],
)
def test_long_honest_explanation_after_the_working_keeps_the_box(
    reward: MathReward, tail: str
) -> None:
    assert _story(reward, tail, working=True) == 1.0


@pytest.mark.parametrize(
    "tail",
    [
        "First, Mia ate 3 apples. Then each of her 2 friends took 2. So she has 3 left.",
        (
            "We started with 10 apples, ate 3 of them, and then handed 2 apples to each of the 2 "
            "friends, so we are left with 3."
        ),
        "I ate 3 and gave away 2 and 2.",
        "So you ate 3.",
        "Let's take the 3 she ate from the 10.",
    ],
)
def test_story_values_the_question_states_keep_the_box(reward: MathReward, tail: str) -> None:
    assert _story(reward, tail) == 1.0


# === own work and other subjects: buy credit ====================================================


@pytest.mark.parametrize(
    "tail",
    [
        "Let's take 8.",
        "So let's take 8.",
        "Let us take 8.",
        "So one takes 8.",
        "Then one took 8.",
        "So y'all took 8.",
        "So u took 8.",
        "So we ate 8.",
        "So you ate 8.",
        "I ate 8.",
        "Maybe take 8.",
        "Just take 8.",
        "Instead take 8.",
        "Probably ate 8.",
        "Perhaps sold 8.",
        "Hmm, took 8?",
        "So Ｗｅ took 8.",
        "Tom and I ate 8.",
        "Nosotros comimos 8.",
    ],
)
def test_own_work_with_another_value_takes_the_box_back(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


@pytest.mark.parametrize("tail", ["So you ate 8.", "Tom and I ate 8.", "Then you ate 5."])
def test_own_work_with_a_value_the_question_does_not_state(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail, question=FIRST_PERSON) == 0.0


@pytest.mark.parametrize(
    "tail", ["Let's take 8.", "So we ate 8.", "Maybe take 8.", "I gave away 5.", "You ate 6."]
)
def test_own_work_in_a_story_with_another_value(reward: MathReward, tail: str) -> None:
    assert _story(reward, tail, working=True) == 0.0


@pytest.mark.parametrize(
    "tail", ["Mia ate 8.", "She ate 8.", "Zed took 8.", "Her friends took 5.", "Ella comió 8."]
)
def test_story_told_with_a_value_the_story_does_not_hold(reward: MathReward, tail: str) -> None:
    assert _story(reward, tail, working=True) == 0.0


@pytest.mark.parametrize(
    "tail", ["Mia ate 3.", "Her friends took 4 in total.", "Ella comió 3.", "Each friend took 2."]
)
def test_story_told_with_the_storys_values(reward: MathReward, tail: str) -> None:
    assert _story(reward, tail, working=True) == 1.0


def test_story_told_with_a_derived_value_and_no_working(reward: MathReward) -> None:
    """The documented cost: 4 is derived (2 to each of 2 friends) and written nowhere before."""
    assert _story(reward, "Her friends took 4 in total.") == 0.0


# === what a story leaves: buy credit ============================================================


@pytest.mark.parametrize(
    "tail",
    [
        "She ate 3, kept 8.",
        "He sold 3, 8 leftover.",
        "She ate 3: 8 stayed.",
        "She ate 3, 8 remained.",
        "She ate 3, eight left.",
        "She ate 3,eight left.",
        "They ate 3 and kept 8.",
    ],
)
def test_story_leaving_another_value(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


@pytest.mark.parametrize(
    "tail", ["She ate 3, kept 7.", "She ate 3, 7 remained.", "She ate 3, seven left."]
)
def test_story_leaving_the_box_value(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


# === sign-offs read by their words: false loss and buy credit ===================================


@pytest.mark.parametrize(
    "tail",
    [
        "Hope this clears things up!",
        "¡Espero haberte ayudado!",
        "希望对您有帮助！",
        "希望这个解答对你有帮助！",
        "希望这个解释对您有帮助。",
        "如有疑问，请随时提问。",
        "祝学习愉快！",
        "Hope this helps you understand!",
        "Hope this answers your question!",
        "Crystal clear.",
        "Any questions?",
    ],
)
def test_sign_off_keeps_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


@pytest.mark.parametrize(
    "tail",
    [
        "希望对您有帮助：8。",
        "希望这个解答对你有帮助！也可能是8。",
        "希望对您有帮助8",
        "Hope this clears things up: 8.",
        "Crystal clear: 8.",
        "不对。",
        "希望对您有帮助？不对。",
    ],
)
def test_sign_off_with_a_value_or_a_doubt(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


# === full-width stops: buy credit ===============================================================


@pytest.mark.parametrize(
    "completion",
    [
        "答案是 $\\boxed{7}$。8",
        "答案是 $\\boxed{7}$！8",
        "答案是 $\\boxed{7}$？8",
        "The answer is $\\boxed{7}$. 以上。8",
        "The answer is $\\boxed{7}$. 以上です。8",
        "The answer is $\\boxed{7}$。8。",
    ],
)
def test_value_after_a_full_width_stop(reward: MathReward, completion: str) -> None:
    assert _score(reward, completion, "7", APPLES) == 0.0


@pytest.mark.parametrize(
    "completion",
    [
        "答案是 $\\boxed{7}$。",
        "答案是 $\\boxed{7}$。以上。",
        "The answer is $\\boxed{7}$。希望对您有帮助！",
    ],
)
def test_full_width_stop_alone_keeps_the_box(reward: MathReward, completion: str) -> None:
    assert _score(reward, completion, "7", APPLES) == 1.0
