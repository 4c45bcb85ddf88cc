"""Units and the asked quantity after red team round 19 of issue #33 (h-m36): probes around
each rule that closed round 19's unit holes, in both directions (the false win closed, the
honest answer that must still score), in `rewards/math/_normalize.py` (docs/math.md, "Reading
by meaning"):

- `_plain_size`: a qualifier that names the size the plain word names (`short tons`,
  `statute miles`) is read in an answer against a gold that states the plain word, never
  against a gold that states the qualifier (read one way only);
- `_rates_named`: a rate of two kinds asked (`meters per second`, `km/h`, `knots`, `miles per
  gallon`) is answered only by that rate, whole; a share (`hours per day`) and money per
  anything (`dollars per hour`) are answered by their numerator's unit as before;
- `_money_named`: a question asking `How much` something costs, is paid, spent or earned asks
  an amount of money: a unit of the question's other numbers (`kg`, `hours`) answers it not;
- `_COUNTING_GROUPS`: `dozen` asked is the unit counted in (`5 dozen` is 5 of it, `5 eggs`
  another count); `\\text{ t}` reads as the tonne where a question asks tonnes.

Every probe goes through the reward as users call it, behind `The answer is
$\\boxed{...}$.`. Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`

TRAIN = "A train covers 120 km in 15 hours. How fast does it go in km per hour?"
MELONS = "A 3 kg melon costs 2 euros. How much did she pay for 3 melons?"
BAGS = "A 5 kg bag costs 3 dollars. How much do 4 bags cost?"

WRONG = [
    # a qualifier the gold states is information the plain word does not give; other sizes
    ("5\\text{ short tons}", "5\\text{ tons}", "How heavy?"),
    ("5\\text{ statute miles}", "5\\text{ miles}", "How far?"),
    ("5\\text{ tons}", "5\\text{ long tons}", "How heavy?"),
    ("5\\text{ tons}", "5\\text{ short tonnes}", "How heavy?"),
    ("5\\text{ t}", "5\\text{ short tons}", "How heavy?"),
    ("5\\text{ nmi}", "5\\text{ statute miles}", "How far?"),
    ("5\\text{ miles}", "5\\text{ statutory miles}", "How far?"),
    ("5\\text{ ft}", "5\\text{ statute feet}", "How far?"),
    # a rate of two kinds asked: its numerator alone, its divisor alone, another rate
    ("5", "5\\text{ km}", "How many km per hour?"),
    ("5", "5\\text{ mph}", "How many km per hour?"),
    ("5", "5\\text{ miles}", "How many miles per gallon?"),
    ("5", "5\\text{ liters}", "How many liters per minute?"),
    ("5", "5\\text{ m}", "How fast is it in m/s?"),
    ("5", "5\\text{ s}", "How fast is it in m/s?"),
    ("5", "5\\text{ m/s}", "What is the acceleration in m/s^2?"),
    ("8", "8\\text{ km}", TRAIN),
    ("8", "8\\text{ hours}", TRAIN),
    ("5", "5\\text{ nautical miles}", "How many knots?"),
    ("5", "5\\text{ km/h}", "How many knots?"),
    ("5", "5\\text{ knots}", "How fast in mph?"),
    ("5", "5\\text{ miles}", "How fast in mph?"),
    # money asked: a unit of the question's other numbers, another currency
    ("15", "15\\text{ hours}", "He works 15 hours. How much does he earn?"),
    ("7", "7\\text{ kg}", MELONS),
    ("7", "\\$7", MELONS),
    ("12", "12\\text{ euros}", BAGS),
    ("40", "40\\text{ km}", "He rented a car for 200 km at 5 dollars per km. How much does he owe?"),
    ("12", "12\\text{ kg}", "How much did she spend on 4 kg of rice?"),
    ("12", "12\\text{ kg}", "A 5 kg bag costs 3 dollars. How much money does she need for 20 kg?"),
    # dozens asked: another count, a dozen's worth, another unit; a dozen not asked
    ("5", "60", "How many dozen eggs?"),
    ("5", "5\\text{ eggs}", "How many dozens of eggs?"),
    ("5", "5\\text{ kg}", "How many dozen eggs?"),
    ("5", "5\\text{ dozen}", "How many eggs?"),
    # tonnes asked
    ("5", "5\\text{ kg}", "How many tonnes?"),
]


@pytest.mark.parametrize(("gold", "answer", "question"), WRONG)
def test_another_quantity_is_wrong(reward: MathReward, gold: str, answer: str, question: str) -> None:
    assert _one(reward, gold, answer, question) == 0.0


RIGHT = [
    # an answer's qualifier naming the plain word's own size; the gold's qualifier restated
    ("5\\text{ ton}", "5\\text{ short ton}", "How heavy?"),
    ("5\\text{ mi}", "5\\text{ statute mi}", "How far?"),
    ("5\\text{ short tons}", "5\\text{ short tons}", "How heavy?"),
    ("5\\text{ statute miles}", "5\\text{ statute miles}", "How far?"),
    ("5", "5\\text{ short tons}", "How many tons?"),
    # the rate asked, however written; a bare value
    ("5", "5\\text{ km/h}", "How many km per hour?"),
    ("5", "5\\text{ kph}", "How many km per hour?"),
    ("5", "5\\text{ miles per gallon}", "How many miles per gallon?"),
    ("5", "5\\text{ L/min}", "How many liters per minute?"),
    ("5", "5\\text{ m}\\cdot\\text{s}^{-1}", "How fast is it in m/s?"),
    ("5", "5 \\frac{\\text{m}}{\\text{s}}", "How fast is it in m/s?"),
    ("5", "5\\text{ m/s}^2", "What is the acceleration in m/s^2?"),
    ("8", "8\\text{ km/h}", TRAIN),
    ("8", "8", TRAIN),
    ("5", "5\\text{ knots}", "How many knots?"),
    ("5", "5\\text{ kn}", "How many knots?"),
    ("5", "5\\text{ nautical miles per hour}", "How many knots?"),
    ("5", "5\\text{ nmi/h}", "How many knots?"),
    ("5", "5\\text{ mph}", "How fast in mph?"),
    ("5", "5\\text{ miles per hour}", "How fast in mph?"),
    # a share of one kind and money per anything are said in the numerator's unit
    ("5", "5\\text{ minutes}", "How many minutes per hour does he rest?"),
    ("5", "5\\text{ dollars}", "How many dollars per hour?"),
    ("5", "\\$5", "How many dollars per hour?"),
    ("5", "5\\text{ dollars per hour}", "How many dollars per hour?"),
    # money asked: its currency, any where none is named; a measure asked is no money
    ("15", "\\$15", "He works 15 hours. How much does he earn?"),
    ("15", "15\\text{ dollars}", "He works 15 hours. How much does he earn?"),
    ("15", "15\\text{ hours}", "He works 15 hours. How much time does he spend?"),
    ("7", "7\\text{ euros}", MELONS),
    ("7", "€ 7", MELONS),
    ("12", "12", BAGS),
    ("40", "40\\text{ dollars}", "He rented a car for 8 hours at 5 dollars per hour. How much was he charged?"),
    ("12", "12\\text{ euros}", "How much did she spend on 4 kg of rice?"),
    ("0.6", "0.6\\text{ dollars per kg}", "A 5 kg bag costs 3 dollars. How much does 1 kg cost per kg?"),
    ("12", "12\\text{ kg}", "A bag holds 3 kg. How much does 4 bags weigh?"),
    ("7", "7\\text{ liters}", "How much water does the tank hold?"),
    # dozens asked, with or without the thing counted; a dozen read as 12 where not asked
    ("5", "5\\text{ dozen}", "How many dozens of eggs did she buy?"),
    ("5", "5\\text{ dozen eggs}", "How many dozen eggs?"),
    ("60", "5\\text{ dozen}", "How many eggs?"),
    # tonnes asked
    ("5", "5\\text{ t}", "How many tonnes?"),
    ("5", "5\\text{ metric tons}", "How many metric tons?"),
]


@pytest.mark.parametrize(("gold", "answer", "question"), RIGHT)
def test_the_quantity_asked_is_right(
    reward: MathReward, gold: str, answer: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 1.0
