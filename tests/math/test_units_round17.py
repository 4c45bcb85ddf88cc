"""Units after red team round 17 of issue #33 (h-m29): probes around each rule that closed
round 17's units that bought credit, in both directions (the false win closed, the honest
answer that must still score), in `rewards/math/_normalize.py` (docs/math.md, "Reading by
meaning"):

- `_spelled_unit`: a gold's unit that `_unit_id` has no id for as written but has in another
  case (`Mg`, `ML`, `Gm`, `Ms`) is compared as the gold spells it, case kept, never folded;
- `_whole_unit`: the whole unit, every factor's id with its power summed, is compared, so a
  part of a compound gold unit (`5 kg` for `5 kg m`, `5 oz` for `5 fl oz`, `5 miles` for
  `5 mph`) or a divisor said twice (`m/s/s`) is another unit;
- `_question_units`: the units the question names by id constrain an answer's unit where the
  gold states none (`5 kg` for `How many grams?` is no bare 5), never converted into
  (`_in_gold_unit` converts into the gold's one unit only: `5000 g` for `How many kilograms?`
  is no 5);
- `_UNIT_IDS`: a ton (`ton`) is no tonne (`t`); `kn` is the knot, never folded to kN;
- `_strip_compound_unit`: a power of a power (`m²^2`, m^4) is no unit to drop.

Every probe goes through the reward as users call it, behind `The answer is
$\\boxed{...}$.`. Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`


WRONG = [
    # a gold unit with no id as written: another case is another unit
    ("5\\text{ Mg}", "5\\text{ MG}", "How heavy?"),
    ("5\\text{ Mg}", "5000\\text{ kg}", "How heavy?"),
    ("5\\text{ Gm}", "5\\text{ gm}", "How far?"),
    ("5\\text{ mg}", "5\\text{ Mg}", "How heavy?"),
    ("5\\text{ mL}", "5\\text{ ML}", "How much water?"),
    ("5\\text{ m}", "5\\text{ Gm}", "How far?"),
    # the whole unit: a part of it, or more than it, is another unit
    ("5\\text{ kg m}", "5\\text{ m}", "What moment?"),
    ("5\\text{ kg/m}", "5\\text{ m}", "What density?"),
    ("5\\text{ mph}", "5\\text{ hours}", "How fast?"),
    ("5\\text{ mph}", "5\\text{ km/h}", "How fast?"),
    ("5\\text{ miles}", "5\\text{ mph}", "How far?"),
    ("5\\text{ N}", "5\\text{ N m}", "What force?"),
    ("5\\text{ oz}", "5\\text{ fl oz}", "How much?"),
    ("5\\text{ kg}", "5\\text{ kg m}", "How heavy?"),
    # the question's unit constrains an answer's where the gold states none
    ("5000", "5\\text{ kg}", "How many grams?"),
    ("5", "5000\\text{ g}", "How many kilograms?"),
    ("5", "5\\text{ km}", "How many meters?"),
    ("5", "5\\text{ hours}", "How many seconds?"),
    ("5", "\\$5", "He pays 5 euros. How many euros?"),
    # a ton is no tonne; `kn` is the knot; a power of a power is no unit
    ("5\\text{ knots}", "5\\text{ kN}", "How fast?"),
    ("5\\text{ tons}", "5\\text{ t}", "How heavy?"),
    ("5\\text{ m}^4", "5\\text{ m}^2", "How big?"),
]


@pytest.mark.parametrize(("gold", "answer", "question"), WRONG)
def test_another_unit_is_kept(reward: MathReward, gold: str, answer: str, question: str) -> None:
    assert _one(reward, gold, answer, question) == 0.0


RIGHT = [
    # a gold unit with no id as written, spelled as the gold spells it
    ("5\\text{ Mg}", "5\\text{ Mg}", "How heavy?"),
    ("5\\text{ ML}", "5\\text{ ML}", "How much water?"),
    ("5\\text{ Gm}", "5\\text{ Gm}", "How far?"),
    ("5\\text{ Ms}", "5\\text{ Ms}", "How long?"),
    ("5\\text{ kg}", "5\\text{ Kg}", "How heavy?"),
    # the whole unit, however written
    ("5\\text{ kg m}", "5\\text{ kg m}", "What moment?"),
    ("5\\text{ kg m}", "5\\text{ kg}\\cdot\\text{m}", "What moment?"),
    ("5\\text{ kg m}", "5\\text{ m kg}", "What moment?"),
    ("5\\text{ kg/m}", "5\\frac{\\text{kg}}{\\text{m}}", "What density?"),
    ("5\\text{ kg/m}", "5\\text{ kg m}^{-1}", "What density?"),
    ("5\\text{ fl oz}", "5\\text{ fl oz}", "How much?"),
    ("5\\text{ mph}", "5\\text{ miles per hour}", "How fast?"),
    ("5\\text{ mph}", "5\\text{ mi/h}", "How fast?"),
    ("5\\text{ miles per hour}", "5\\text{ mph}", "How fast?"),
    ("5\\text{ N m}", "5\\text{ N}\\cdot\\text{m}", "What torque?"),
    ("5\\text{ kg}", "5\\text{ kg of sugar}", "How heavy?"),
    ("5\\text{ m}^2", "5\\text{ square meters}", "How big?"),
    ("5\\text{ kg}", "5000\\text{ g}", "How heavy?"),
    # the question's units: its own, or any it names beside
    ("5", "5\\text{ g}", "How many grams?"),
    ("5", "5\\text{ mins}", "How many minutes?"),
    ("5", "\\$5", "How many dollars?"),
    ("5", "5\\text{ cents}", "How many cents?"),
    ("120", "\\$120", "He earns $15 per hour. How much does he earn in 8 hours?"),
    ("120", "120\\text{ dollars}", "He earns $15 per hour. How much does he earn in 8 hours?"),
    ("2", "2\\text{ hours}", "A car travels at 60 km/h. How long does it take to travel 120 km?"),
    ("5", "5\\text{ m/s}", "What is the speed in meters per second?"),
    ("12", "12\\text{ cm}^2", "A rectangle is 3 cm by 4 cm. What is its area?"),
    ("20", "20^\\circ C", "What temperature in Celsius?"),
    ("20", "20℃", "What temperature in Celsius?"),
    # words that are more often something else name no unit the answer must be in
    ("5", "5\\text{ hours}", "How long is the trip in total?"),
    ("5", "5\\text{ hours}", "The second train leaves later. How long is its trip?"),
    ("5", "5\\text{ cm}", "Point C is on the line. How far is it?"),
    ("5", "5\\text{ kg}", "How many apples are in the basket?"),
    ("20", "\\$20", "At a yard sale she sold a bit more than 5 toys. How much did she earn?"),
    # a ton, a tonne, a knot, a power: each as itself
    ("5\\text{ tons}", "5\\text{ tons}", "How heavy?"),
    ("5\\text{ tonnes}", "5\\text{ tonnes}", "How heavy?"),
    ("5\\text{ kn}", "5\\text{ knots}", "How fast?"),
    ("5\\text{ kN}", "5\\text{ kilonewtons}", "What force?"),
    ("5\\text{ m}^4", "5\\text{ m}^4", "How big?"),
    ("5\\text{ m}^2", "5\\text{ m}²", "How big?"),
]


@pytest.mark.parametrize(("gold", "answer", "question"), RIGHT)
def test_the_same_unit_is_dropped(
    reward: MathReward, gold: str, answer: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 1.0
