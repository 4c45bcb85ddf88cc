"""After red team round 18 of issue #33 (h-m31): probes around each rule that closed a hole
of round 18 (its rows are held there), in both directions (the hole closed, the honest reply
that must still score), in `rewards/math/_extract.py` and `rewards/math/_normalize.py`
(docs/math.md):

- `_tells_the_result`: a true step after the box whose result is told as what is left or the
  total offers that result (no step, no check);
- `_part_of_the_box`: a part or multiple of the box told in words is a check where it holds;
- `_concludes_the_box`: a longer sentence that concludes the box's value has its true
  equations as working;
- `_REMARK_WORDS`: Chinese sign-offs read word by word (`_courtesy_words`);
- `_whole_unit` / `_in_whole_unit` / `_unit_spelled`: a whole unit said otherwise is the
  gold's (`m/s/s`, `per second squared`, `metric tons`, `nmi/h`), a power on a rate's symbol
  is kept (`mph^2`);
- `_question_units` / `_asking`: only the unit a question asks for constrains a bare gold.

Every probe goes through the reward as users call it. Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward

STORY = "Mia had 10 apples and ate 3. How many apples are left?"
SHOP = "Tom buys 4 pens at 3 dollars each. How many dollars does he spend?"
APPLES = "How many apples?"


@pytest.fixture(scope="module")
def reward() -> MathReward:
    return MathReward(timeout=10.0, workers=2)


def _after(reward: MathReward, tail: str, question: str, box: str, gold: str) -> float | None:
    completion = f"The answer is $\\boxed{{{box}}}$. {tail}"
    [score] = reward.score([Sample(question, completion, reference=gold)])
    return score.value


# (tail, question, box, gold, expected)
AFTER = [
    # a step's result told as what is left or the total: another result
    ("Step 1: 10 - 2 = 8 apples remain.", STORY, "7", "7", 0.0),
    ("First, 10 - 2 = 8 are left.", STORY, "7", "7", 0.0),
    ("Total: 4 + 4 = 8.", APPLES, "7", "7", 0.0),
    ("Step 2: 10 - 2 = 8 apples left.", STORY, "7", "8", 0.0),
    # ... but not the box's own value, nor a check that names the total
    ("Step 2: 10 - 3 = 7 left.", STORY, "7", "7", 1.0),
    ("Check: 7 + 3 = 10 in total.", STORY, "7", "7", 1.0),
    ("Since 3 + 4 = 7, 7 apples remain.", STORY, "7", "7", 1.0),
    # a part or multiple of the box in words: a check where it holds
    ("Twice that is 24.", SHOP, "12", "12", 1.0),
    ("Double that is 24.", SHOP, "12", "12", 1.0),
    ("Half of that is 5.", SHOP, "12", "12", 0.0),
    ("Twice that is 20.", SHOP, "12", "12", 0.0),
    ("Half of that is 6.", SHOP, "12", "6", 0.0),
    # a longer sentence that concludes the box's value; not one that concludes another
    ("Each costs 3, so two cost 2 \\times 3 = 6 and four cost 12.", SHOP, "12", "12", 1.0),
    ("Two pens cost 2 \\times 3 = 6 dollars, so four cost 8.", SHOP, "12", "12", 0.0),
    ("Two pens cost 2 \\times 3 = 6 dollars, so that is 6.", SHOP, "12", "12", 0.0),
    # Chinese sign-offs, word by word; another value after one is still read
    ("好的，就是这样。", STORY, "7", "7", 1.0),
    ("不客气！再见！", STORY, "7", "7", 1.0),
    ("好的，是8。", STORY, "7", "7", 0.0),
    ("再见！8", STORY, "7", "7", 0.0),
]


@pytest.mark.parametrize(("tail", "question", "box", "gold", "expected"), AFTER)
def test_what_follows_the_box(
    reward: MathReward, tail: str, question: str, box: str, gold: str, expected: float
) -> None:
    assert _after(reward, tail, question, box, gold) == expected


# (gold, answer, question, expected)
UNITS = [
    # a whole unit said otherwise is the gold's
    ("5\\text{ m/s}^2", "5\\text{ m}/\\text{s}/\\text{s}", "What is the acceleration?", 1.0),
    ("5\\text{ m/s/s}", "5\\text{ meters per second squared}", "What is the acceleration?", 1.0),
    ("5\\text{ m}^2", "5\\text{ meters squared}", "What area?", 1.0),
    ("5\\text{ knots}", "5\\text{ nautical miles/hour}", "How fast?", 1.0),
    ("5\\text{ nmi/h}", "5\\text{ knots}", "How fast?", 1.0),
    ("5\\text{ metric tons}", "5\\text{ t}", "How heavy?", 1.0),
    # ... never another whole unit, nor words that change the value
    ("5\\text{ m/s}^2", "5\\text{ meters per second cubed}", "What is the acceleration?", 0.0),
    ("5\\text{ m/s}^2", "5\\text{ thousand m/s/s}", "What is the acceleration?", 0.0),
    ("5\\text{ m/s}^2", "5\\text{ m/s/s}^2", "What is the acceleration?", 0.0),
    ("5\\text{ metric tons}", "5\\text{ tons}", "How heavy?", 0.0),
    ("5\\text{ knots}", "5\\text{ miles/hour}", "How fast?", 0.0),
    ("5\\text{ kph}", "5\\text{ kph}^2", "How fast?", 0.0),
    ("5\\text{ mph}", "5\\text{ mph}/\\text{h}", "How fast?", 0.0),
    ("5", "5\\text{ t}", "How many tons?", 0.0),
    # only the unit the question asks for constrains a bare gold
    ("5", "5\\text{ km}", "She walks 3 km per hour. How far does she walk in meters?", 0.0),
    ("5", "5\\text{ hours}", "A train covers 60 km each hour. How many km does it cover?", 0.0),
    ("5", "5\\text{ km}", "A train covers 60 km each hour. How many km does it cover?", 1.0),
    ("5", "5\\text{ km/h}", "How many km per hour?", 1.0),
    ("5", "5\\text{ h}", "How many km per hour?", 0.0),
    ("5", "5\\text{ minutes}", "It is 5 p.m. How many minutes remain?", 1.0),
    ("5", "5\\text{ minutes}", "Dr. Lee works 8 hours. How many minutes are left?", 1.0),
    ("5", "5\\text{ hours}", "Dr. Lee works 8 hours. How many minutes are left?", 0.0),
    # a question that asks no unit by name: every unit it names, as before
    ("2", "2\\text{ hours}", "A car travels at 60 km/h. How long does it take to travel 120 km?", 1.0),
    ("7", "7\\text{ m}", "A rope is 10 m long; 3 m are cut off. How long is it now?", 1.0),
]


@pytest.mark.parametrize(("gold", "answer", "question", "expected"), UNITS)
def test_units_against_gold_and_question(
    reward: MathReward, gold: str, answer: str, question: str, expected: float
) -> None:
    completion = f"The answer is $\\boxed{{{answer}}}$."
    [score] = reward.score([Sample(question, completion, reference=gold)])
    assert score.value == expected
