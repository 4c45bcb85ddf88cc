"""Units and currencies after red team round 15 of issue #33 (h-m24): probes around each rule
that fixed round 15's open unit classes, in both directions (a false loss the rule removes, a
false win it must not open), in `rewards/math/_normalize.py` (docs/math.md, "Reading by
meaning"):

- `_unit_id` / `_folded_ids`: a symbol of two letters or more written in lower case (`kwh`,
  `hz`) is the unit it folds to where it folds to one and the case of no prefix changes
  (`mb` is no `MB`, `Ps` no `ps`); one letter is read as written (`G`, `S`); SI's `l` is the
  litre; `ps` is the picosecond;
- `_superscript_powers`: a superscript after a brace is a power (`\\text{ cm}²`);
- `_unit_powers` / `_last_divided`: a divisor's power is negated (`m/s` is `m s^{-1}`);
- `_SCALE_SIGNS`: `℃`, `℉` are a degree and its scale;
- `_US_DOLLAR`: `US\\$` is the dollar;
- `_named_units`: an answer's unit matches the question's by id (`mins` for `How many
  minutes?`);
- `_CONTAINERS`: groups (`rows`, `sets`, `teams`) count groups, dropped only where named;
- `_currency_dropped` and `_is_unit`: a currency is no unit of measure, either way (`£5` is
  no `5 pounds` of weight, `5 kg` no `\\$5`; a rate, `per kg`, `/hour`, is);
- `_in_gold_unit` / `_SCALES`: a value in another metric or time unit of the gold's kind is
  the gold's value in its unit (`5000 g` is `5 kg`; never a pound, ton, month or area).

`\\pounds 5` against `£5`, open here, is fixed by h-m39 (`_money_read`: LaTeX's currency
commands are their signs).

Every probe goes through the reward as users call it, behind `The answer is
$\\boxed{...}$.`. Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from tests.math.redteam_helpers import OPTIONS
from tests.math.redteam_helpers import boxed_value as _one

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`


RIGHT = [
    # a symbol in lower case: the one unit it folds to
    ("5\\text{ kwh}", "5\\text{ kWh}", "How much energy?"),
    ("5\\text{ kj}", "5\\text{ kJ}", "How much energy?"),
    ("5\\text{ gev}", "5\\text{ GeV}", "How much energy?"),
    ("5\\text{ ghz}", "5\\text{ GHz}", "What frequency?"),
    ("5\\text{ hz}", "5", "What is the frequency in hertz?"),
    ("5\\text{ l}", "5\\text{ liters}", "How much water?"),
    ("5\\text{ L}", "5\\text{ l}", "How much water?"),
    ("5\\text{ picoseconds}", "5\\text{ ps}", "How long?"),
    # powers as superscripts, and division as a negative power
    ("5\\text{ m}^2", "5\\text{ m}²", "How big?"),
    ("5\\text{ cm}^{2}", "5\\text{ cm}²", "How big?"),
    ("5\\text{ m s}^{-1}", "5\\text{ m/s}", "Speed?"),
    ("5\\text{ m/s}", "5\\text{ m s}^{-1}", "Speed?"),
    ("5 \\frac{\\text{m}}{\\text{s}}", "5\\text{ m/s}", "Speed?"),
    ("5\\text{ m/s}", "5\\text{ m}\\cdot\\text{s}^{-1}", "Speed?"),
    ("5\\text{ km/h}", "5\\text{ km per hour}", "Speed?"),
    ("5\\text{ m/s}^2", "5\\text{ m s}^{-2}", "Acceleration?"),
    # degree signs, the US dollar
    ("20℃", "20°C", "Temperature?"),
    ("68℉", "68^\\circ F", "Temperature?"),
    ("\\text{US\\$}5", "\\$5", "How much?"),
    ("\\text{US\\$}5", "5\\text{ dollars}", "How much?"),
    # the question's unit by id; groups the question names
    ("5\\text{ mins}", "5", "How many minutes?"),
    ("5\\text{ kms}", "5", "How many kilometres?"),
    ("5\\text{ rows}", "5", "How many rows?"),
    ("5\\text{ groups}", "5", "How many groups are there?"),
    ("5", "5\\text{ sets}", "How many sets?"),
    # currencies where the gold names the same one or none
    ("£5", "5\\text{ GBP}", "How much money?"),
    ("€5", "5", "How much?"),
    ("\\text{EUR }5", "5", "How much?"),
    ("5\\text{ lbs}", "5\\text{ pounds}", "How many pounds does it weigh?"),
    ("\\$5\\text{ per kg}", "\\$5", "What is the price?"),
    ("5\\text{ dollars/hour}", "\\$5", "How much does she earn?"),
    # the gold's quantity in another unit of its kind (metric and time: `_SCALES`)
    ("5000\\text{ g}", "5\\text{ kg}", "How heavy?"),
    ("5\\text{ kg}", "5000\\text{ g}", "How heavy?"),
    ("120\\text{ minutes}", "2\\text{ hours}", "How long?"),
    ("90\\text{ min}", "1.5\\text{ hours}", "How long?"),
    ("100\\text{ minutes}", "\\frac{5}{3}\\text{ hours}", "How long?"),
    ("2.5\\text{ km}", "2500\\text{ m}", "How far?"),
    ("500\\text{ mL}", "0.5\\text{ L}", "How much water?"),
]


@pytest.mark.parametrize(("answer", "gold", "question"), RIGHT)
def test_unit_as_written_is_the_gold_unit(
    reward: MathReward, answer: str, gold: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 1.0


WRONG = [
    # the case of a prefix, or of one letter, is another unit
    ("5\\text{ Mm}", "5\\text{ mm}", "How long?"),
    ("5\\text{ mm}", "5\\text{ Mm}", "How long?"),
    ("5\\text{ mB}", "5\\text{ MB}", "How big?"),
    ("5\\text{ mb}", "5\\text{ MB}", "How big?"),
    ("5\\text{ Ps}", "5\\text{ ps}", "How long?"),
    ("5\\text{ ps}", "5\\text{ ns}", "How long?"),
    ("5\\text{ G}", "5\\text{ g}", "How heavy?"),
    ("5\\text{ S}", "5\\text{ s}", "How long?"),
    ("5\\text{ MW}", "5\\text{ mW}", "What power?"),
    ("5\\text{ kw}", "5\\text{ kWh}", "How much energy?"),
    ("5\\text{ hz}", "5\\text{ kHz}", "What frequency?"),
    # another power: an area, a volume, a rate, a length
    ("5\\text{ cm}²", "5\\text{ cm}", "How long?"),
    ("5\\text{ m}³", "5\\text{ m}^2", "How big?"),
    ("5\\text{ s}", "5\\text{ m/s}", "Speed?"),
    ("5\\text{ m s}", "5\\text{ m/s}", "Speed?"),
    ("5\\text{ m s}^{-2}", "5\\text{ m/s}", "Speed?"),
    ("5\\text{ m/s}", "5\\text{ m/s}^2", "Acceleration?"),
    # another scale, another dollar or currency
    ("20℉", "20^\\circ C", "Temperature?"),
    ("20℃", "20^\\circ F", "Temperature?"),
    ("\\text{US\\$}5", "€5", "How much?"),
    ("\\text{US\\$}5", "5\\text{ cents}", "How much?"),
    ("\\text{AU\\$}5", "\\$5", "How much?"),
    # a unit the question does not name, or names with another prefix
    ("5\\text{ mins}", "5", "How many apples?"),
    ("5\\text{ kms}", "5", "How many apples?"),
    ("5\\text{ Mm}", "5", "How many millimeters?"),
    ("5\\text{ kilos}", "5", "How many grams?"),
    # groups the question does not name
    ("5\\text{ teams}", "5", "How many students?"),
    ("5\\text{ columns}", "5", "How many apples?"),
    ("5\\text{ groups}", "5", "How many students?"),
    # money against a measure, either way
    ("£5", "5\\text{ pounds}", "How many pounds does it weigh?"),
    ("£5", "5\\text{ kg}", "How heavy?"),
    ("€5", "5\\text{ hours}", "How long?"),
    ("\\text{US\\$}5", "5\\text{ kg}", "How heavy?"),
    ("\\text{USD }5", "5\\text{ kg}", "How heavy?"),
    ("5\\text{ lbs}", "£5", "How much money?"),
    ("5\\text{ kg}", "\\$5", "How much money?"),
    ("5\\text{ hours}", "\\$5", "How much does it cost?"),
    # no conversion to another value, kind, power, or a unit of more than one size
    ("500\\text{ g}", "5\\text{ kg}", "How heavy?"),
    ("5\\text{ kg}", "5\\text{ g}", "How heavy?"),
    ("5000\\text{ g}", "5\\text{ lb}", "How heavy?"),
    ("5000\\text{ g}", "5\\text{ km}", "How far?"),
    ("5000\\text{ g}", "5\\text{ tons}", "How heavy?"),
    ("120\\text{ minutes}", "2\\text{ days}", "How long?"),
    ("0.33\\text{ hours}", "20\\text{ minutes}", "How long?"),
    ("1\\text{ month}", "30\\text{ days}", "How long?"),
    ("500\\text{ cm}", "5\\text{ m}^2", "How big?"),
    ("5000\\text{ g}", "5", "How many kilograms?"),
    ("5000\\text{ m}", "5\\text{ km/h}", "How fast?"),
    ("5000\\text{ g}", "\\$5\\text{ per kg}", "What is the price?"),
]


@pytest.mark.parametrize(("answer", "gold", "question"), WRONG)
def test_another_unit_buys_nothing(
    reward: MathReward, answer: str, gold: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 0.0


def test_open_product_for_a_quotient(reward: MathReward) -> None:
    assert _one(reward, "5\\text{ m/s}", "5\\text{ m}\\cdot\\text{s}", "Speed?") == 0.0


def test_pounds_command_is_sterling(reward: MathReward) -> None:
    # fixed by h-m39: `_normalize._money_read` reads LaTeX's currency commands as their signs
    assert _one(reward, "\\pounds 5", "£5", "How much money?") == 1.0
