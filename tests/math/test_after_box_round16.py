"""What follows a box, round 16 of issue #33 (h-m25): a sentence after the box is read for
values whatever its length (docs/math.md, "What follows a box").

The rule turned around: a sentence after the box longer than `_SHORT_REMARK` words was never
read, so a retraction or a story's other result in six words or more kept the box
(`tests/math/test_redteam_round15.py`, `_LONG_STORY_RESULT`, `_LONG_RETRACTION`). Now such a
sentence is skipped only when every value it holds is explained by a known harmless form
(`_extract._unexplained_values`): the box's value, an operand, a step's label, a number of an
equation equal to the box, a value the problem's people act on, a value it rejects, a number of
the working before the box (`numbers_stated`), or one the question states (`_compare._stated_after`).

Both directions around each part of the rule: buy credit (a long sentence that states another
value keeps no 1.0) and false loss (an honest long explanation, in several styles and
languages, keeps its 1.0). Every probe goes through the reward as users call it. Deterministic;
no timing.
"""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import after_box as _after

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
WORKING = "Mia starts with 10 apples. She eats 3, so 10 - 3 = 7. "


# === buy credit: a long sentence that states another value =====================================


@pytest.mark.parametrize(
    "tail",
    [
        "After reconsidering the whole problem carefully, I now believe it is 8.",
        "Taking the basket into account as well, we end up with 8 apples.",
        "Actually, when I recount them one by one, there are 8 apples.",
        "Nach nochmaliger Überlegung sind es eigentlich 8 Äpfel im Korb.",
        "En réalité, après vérification, il reste 8 pommes au total.",
        "Si contamos la del cesto, el total es de 8 manzanas.",
        "Подумав ещё раз, я считаю, что яблок на самом деле 8 штук.",
        "我再想了一下，篮子里其实一共有8个苹果。",
    ],
)
def test_long_retraction_unsays_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


@pytest.mark.parametrize(
    "tail",
    [
        # the question's numbers excuse only themselves
        "Mia had 10 apples, but after counting the basket the total is 11.",
        # a story action's value is an operand, what it leaves is a result
        "Since she ate 2 more later, only 5 apples remain in the end.",
        # an equation whose result is no value of the box states that result
        "Counting again, 3 + 5 = 8 apples remain in the basket.",
        # an honest explanation first does not cover a retraction after it
        "This is because 10 - 3 = 7. Thinking about it once more, the count should be 8.",
    ],
)
def test_long_sentence_with_a_new_value_beside_the_questions(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail, question=STORY) == 0.0


def test_the_working_excuses_only_its_own_numbers(reward: MathReward) -> None:
    tail = "Looking at it again, the number of apples left is really 8 in the end."
    assert _after(reward, tail, working=WORKING) == 0.0


# === false loss: honest long explanations keep the box =========================================


@pytest.mark.parametrize(
    "tail",
    [
        "We subtract the 3 eaten apples from the 10 we started with.",
        "Mia started with ten apples and ate three of them, so seven remain.",
        "To double-check: 10 - 3 = 7, which matches the number of apples left.",
        "In other words, from the 10 apples she had, 3 were eaten and 7 are left over.",
        "The subtraction of the 3 eaten apples from the original 10 gives the final count of 7.",
        "Weil Mia 3 von ihren 10 Äpfeln gegessen hat, bleiben ihr 7 Äpfel übrig.",
        "Como Mia comió 3 de sus 10 manzanas, le quedan 7 manzanas en total.",
        "Puisque Mia a mangé 3 de ses 10 pommes, il lui en reste 7 au total.",
        "Так как Мия съела 3 из своих 10 яблок, у неё осталось 7 яблок.",
        "因为米娅有10个苹果，吃了3个，所以剩下7个苹果。",
    ],
)
def test_long_explanation_with_the_questions_numbers(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail, question=STORY) == 1.0


@pytest.mark.parametrize(
    "tail",
    [
        # an equation equal to the box explains its numbers wherever the sentence names them
        "This is because 3 + 4 = 7, the 3 apples eaten plus the 4 left.",
        # the problem's people act on a value; what is left is the box's
        "She started with 10 and ate 3, so 7 apples remain in the basket.",
        "They sold 3, leaving 7.",
    ],
)
def test_long_explanation_by_a_known_form(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


def test_long_explanation_with_the_workings_numbers(reward: MathReward) -> None:
    tail = "The 7 apples are what is left of the 10 after she eats 3 of them."
    assert _after(reward, tail, working=WORKING) == 1.0


# === sign-offs under a condition ===============================================================


@pytest.mark.parametrize(
    "tail",
    [
        "Let me know if this is unclear.",
        "Feel free to ask if any step is confusing!",
        "Let me know if anything is unclear or if you have more questions.",
    ],
)
def test_a_doubt_of_clarity_under_a_condition_keeps_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


@pytest.mark.parametrize(
    "tail", ["This is unclear.", "Unclear if this is right.", "If this is wrong."]
)
def test_a_doubt_not_under_a_condition_does_not_keep_it(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


def test_a_note_on_a_base_numerals_working_keeps_the_box(reward: MathReward) -> None:
    # math-verify's table row 75: the working of a box in base 5 names its numerals with
    # subscripts (`13_5`, `8_{10}`), which the text as read after the box loses
    completion = (
        "for a quotient of $\\boxed{204_5}$. Note that in the above calculation we have used "
        "that $13_5$ divided by $2_5$ is $4_5$, which follows from $4_5\\times2_5=8_{10}=13_5$."
    )
    [score] = reward.score([Sample("p", completion, reference="$204_5$")])
    assert score.value == 1.0


@pytest.mark.parametrize(
    "tail",
    [
        "The other candidate, 8, fails the check.",
        "We rejected 8 earlier because it fails the check on the remainder.",
    ],
)
def test_a_value_rejected_where_it_stands_keeps_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 1.0


@pytest.mark.parametrize(
    "tail",
    [
        "I have no doubt the total number of apples is 8 in the end.",
        "Without any doubt, the total number of apples is 8 in the end.",
    ],
)
def test_a_negation_far_from_the_value_rejects_nothing(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


@pytest.mark.xfail(
    strict=True,
    reason="open: no committed answer: a longer sentence in a form `_restated` reads "
    "(`_READ_FORMS`: `It is`, `There is`, `That is` ...) is left to it, and it reads no value "
    "past a judgement (`There is no doubt that the total number of apples is 8.` keeps the box); "
    "root: _extract._restated (reading such sentences here costs honest `That is 4 groups of "
    "5.`, `It is 3 more than 2.`, whose numbers come from a question the probes do not give)",
)
def test_open_long_sentence_in_a_restating_form(reward: MathReward) -> None:
    assert _after(reward, "There is no doubt that the total number of apples is 8.") == 0.0
