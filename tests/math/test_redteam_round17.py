"""Red team, round 17 of issue #33 (rt22): three merges nobody outside had attacked, as merged at
main 4355c71 (447446c h-m24, 3420296 h-m25, fcbf3a1 h-m26).

The rules attacked (docs/math.md, "Reading by meaning", the table of what may be dropped, "What
follows a box", restatements):

- h-m24, `rewards/math/_normalize.py`: units read by id whatever their spelling (`_unit_id`,
  `_folded_ids`, `_PREFIX_CASES`), superscript powers, division as negative powers
  (`_last_divided`, `_divisors`), `℃`/`℉`, `US\\$` (`_US_DOLLAR`), the question's unit by id
  (`_named_units`), groups as containers, currency against measures (`_currency_dropped`), and
  exact conversions within one kind (`_in_gold_unit`, `_SCALES`);
- h-m25, `rewards/math/_extract.py` and `_compare.py`: a longer sentence after the box read for
  values (`_unexplained_values`: the box's value, operands, step labels, numbers of an equation
  equal to the box, `_story_action`, `_rejected_near`, the working's numbers `numbers_stated`,
  the question's `_compare._stated_after`), and conditional sign-offs (`_harmless_remark`,
  `_CONDITIONED_REMARK_WORDS`);
- h-m26, `rewards/math/_normalize.py`: `restates_question` (canonical tokens, bound variables
  renamed, grouping and notation folded) and `hedges` / `_joining_sign` (two values joined by a
  relation or a connective: `wrong`, never shown to a judge).

How: every probe goes through `MathReward.score` as users call it: a box alone (round 9's
`_boxed`, `The answer is $\\boxed{...}$.`), a box of 7 and a tail after it (`_after`), and, for
what a judge may be shown, round 9's yes-saying judge (`YesEngine`, `_judged`): an answer that
must never be shown to a judge scores 0.0 there. Directions (/work/shared/ATTACK-CLASSES.md):
buy credit (meaning dropped by normalization, hedging, invisible and look-alike text, no
committed answer, talking to the judge by restating the question) and false loss (honest
answers and explanations).

Open at the time of writing, by suspected root:

- `_normalize._is_unit` (each answer word must be one of the gold's units, but the gold's
  units need not all be the answer's): a part of a compound gold unit answers it (`5 oz` for
  `5 fl oz`, `5 kg` for `5 kg m`, `5 kg/m`, `5 miles` for `5 miles per hour` or `5 mph`, `5 N`
  for `5 N m`, `5 kW` for `5 kW h`);
- `_normalize._is_unit` / `_unit_id` (a gold unit the table has no id for constrains nothing):
  `5 mg`, `5 kg`, `5 g` answer `5 Mg`; `5 mL`, `5 L` answer `5 ML`; `5 m` answers `5 Gm`; `5 MT`
  answers `5 mT`; `5 Mbar`, `5 ms`, `5 MBps` answer `5 mbar`, `5 Ms`, `5 Mbps`;
- `_normalize._is_unit` / `_named_units` (the question's unit only widens, never constrains an
  answer unit known on its own, `_known_unit`): `5 kg` for `How many grams?` (while `5 kilos`
  is wrong there), `5 hours`/`5 seconds` for minutes, `5 km` for miles, `5 mm` for meters,
  `5 lb` for kilograms, `5 cents` for dollars and `\\$5` for cents, `€5` for dollars, rates
  (`5 km/h` for kilometers, `5 per minute` for minutes), `5 kg` for minutes, `20℉` and `20^\\circ
  F` for `What temperature in Celsius?`;
- `_normalize._UNIT_IDS`: `ton` and `tonne` share the id `t` (`5 tons` = `5 tonnes`); the SI
  spellings `cL`, `dL` and the micro sign `µm`/`μm` have no id (false loss: `500 cL` for `5 L`,
  `1000 µm` for `1 mm`, `5 μm` for `5 µm`);
- `_normalize._folded_ids`: `kn` (the knot's symbol) folds to `kN` (`5 kn` answers `5 kN`;
  `5 kn` does not answer `5 knots`);
- `_normalize.normalize` (`_DEGREES` dropped everywhere): `1^\\circ` answers `1 rad`;
- `_normalize._superscript_powers` / `_POWER_AT_END`: `5 m²^2` answers `5 m^2`; a repeated
  divisor is not summed (`5 m/s/s`, `5 m/(s s)` answer `5 m/s`: `_last_divided`);
- `_normalize._in_gold_unit` (false loss): a converted decimal loses its printed precision
  (`0.33333 hours` for `20 minutes`, `1.6667 hours` for `100 minutes`); only a plain numeral
  and one unit word convert (`\\frac{1}{2} kg`, `5 \\times 10^3 g`, `1 h 40 min`);
- `_normalize._US_DOLLAR` (false loss): `U.S.\\$5` is not the dollar;
- `_extract._unexplained_values` (an equation one side of which is the box's value excuses
  every number it holds, wherever the sentence names them; an operand of an expression whose
  value is another is the box's): `the total is really 8, as 8 - 1 = 7 shows`, `is 8 - 1 + 2`,
  `7 + 1 = 8 - 0`, `is 2^3`;
- `_compare._stated_after` (the question's numbers excused in any role): `the number left is
  really 10` where the question states 10 and 3;
- `_extract._unread_after_box` (`numbers_stated(text[:end])`: the working's numbers excused in
  any role, a candidate it tried or a step label included): `really 3`, `really 8` after
  `Maybe 8?` or `Step 8:` in the working; and a longer sentence with no value is read for
  values only, so a doubt of six words or more keeps the box (`Honestly, I am really not very
  sure about this one at all.`);
- `_extract._rejected_near` (any negation within three words, whatever it negates): `8 apples,
  no doubt about it`, `8 apples and not one fewer`, `not many apples: just 8`;
- `_extract._story_action` / `_leaves_another_value` (any acting verb excuses its clause):
  `Mia ate 2 and kept 8`, `Mia actually ate 8`, `has 8 apples now`, `she picked 8`, `she bought
  8, which is the real answer`;
- `_extract.number_value` (`abs`: a sign dropped): `should really be -7` keeps the box 7;
  Roman numerals are no numbers (`VIII`);
- `_extract._unexplained_values` (false loss, the documented cost of the rule): an honest
  explanation that derives a new value (`70% of the 10`, `4 fewer than the 11`, `30\\%`, `three
  tenths`, `0.7 of her apples`, `7200 seconds`, `0.25` for `25\\%`, `half of 12 is 6`, `1
  through 3`, `If there were 5 rows`, `12 is divisible by 2 and 3`, `50 pairs of 101`);
- `_extract._harmless_remark` (`_CONDITIONED_REMARK_WORDS` allowed after any condition word
  anywhere in the sentence, not only in the condition's clause): `If anything, I am unsure.`,
  `If anything, unclear.`, `If this is unclear, I am also unsure.`, `Let me know if anything
  is unclear, because I am unsure.`;
- `_normalize.restates_question` (the whole answer must be the question's tokens): the
  question's expression under an identity (`+ 0`, `1 \\cdot`, `\\cdot 1`, `(...)^1`, `k^1`,
  `10^2` for 100), equated to itself renamed, an integral without its `dx`, a brace group
  around the integrand, a parenthesized inner sum; all evaluated by math-verify and credited
  with no judge at all;
- `_normalize.restates_question` (notations not folded), shown to the judge: `\\Sigma`, a sum
  over `1 \\le k \\le 100` or `k \\in [1,100]`, `1 + 2 + \\cdots + 100`, `\\operatorname{lim}`,
  `\\mathrm{lim}`, `0^{}`, `\\sin x / x`, `\\mathrm{C}(5,2)`, `C(5,2)`, `_5C_2`, `{}_5C_2`, an
  array binomial, a nested sum as one `\\sum_{1 \\le j \\le i \\le 3}`, an equation with its
  sides swapped (`0 = x^2-5x+6`), `f(1+1)` for `Find f(2)`, a restatement worked to a wrong
  value (`\\sum_{k=1}^{100} k = 5051`), and (`_UNCARRIED`) the question's function body
  (`3x+1` for `Find f(2) if f(x) = 3x+1`);
- `_normalize.hedges` / `_joining_sign` (two numerals by a listed sign only): shown to the
  judge, so any judge's yes buys them: `7 \\pm 1`, `7 \\mp 1`, `\\{7, 8\\}`, `[7, 8]`, `(7,
  8)`, `7, 8`, `7; 8`, `7\\ (8)`, `7 | 8`, `7 \\vert 8`, `7 \\neq 8`, `7 < 8`, `7 \\leq 8`,
  `7 \\& 8`, `7 \\oplus 8`, `7 \\cup 8`, `7 \\lor{} 8`, `7 \\lor x`, `7 \\lor \\text{eight}`,
  `7 = 7 \\lor 8`, `8 - 1 = 8`, `7 \\text{ o } 8`, `\\boxed{7} \\text{ or } \\boxed{8}`, a range
  `7\\text{--}8` (fixed by h-m34), and two of the question's integrals joined by `\\lor` (`_constant` does not
  evaluate them);
- `_judge.judgeable` (`JUDGED_WORDS` holds LaTeX environment names): `5\\text{ cases}`, a group
  the question does not name, is shown to the judge (`5 case`, `5 boxes`, `5 rows` are wrong).

Held attacks are plain tests; each hole left open is `xfail(strict=True)` whose reason names
its class and the function suspected at its root. The verifier is not changed here.
Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from tests.math.redteam_helpers import APPLES, OPTIONS
from tests.math.redteam_helpers import after_box as _after
from tests.math.redteam_helpers import boxed_value as _one
from tests.math.redteam_helpers import opened as _opened
from tests.math.redteam_helpers import xfail as _xfail

REWARD_OPTIONS = OPTIONS  # conftest's `reward` fixture builds `MathReward(**OPTIONS)`
STORY = "Mia had 10 apples and ate 3. How many apples are left?"
WORKING = "Mia starts with 10 apples. She eats 3, so 10 - 3 = 7. "
ROWS = "There are 4 rows of 3 apples. How many apples?"
DRIVE = "A car drives 120 km at 60 km/h. How many hours does it take?"


# ================================================================================================
# h-m24: units
# ================================================================================================

UNITS_WRONG = [
    # pounds, ounces, tons, gallons, miles of other sizes or kinds
    ("5\\text{ lb}", "80\\text{ oz}", "How heavy?"),
    ("5\\text{ oz}", "5\\text{ fl oz}", "How much?"),
    ("5\\text{ ounces}", "5\\text{ fluid ounces}", "How much?"),
    ("5\\text{ pounds}", "5\\text{ ounces}", "How heavy?"),
    ("5\\text{ pounds}", "5\\text{ pound-force}", "How much?"),
    ("5\\text{ lb}", "5\\text{ lbf}", "How much?"),
    ("5\\text{ N}", "5\\text{ lbf}", "What force?"),
    ("5\\text{ tons}", "5\\text{ stone}", "How heavy?"),
    ("5\\text{ tonnes}", "5000\\text{ kg}", "How heavy?"),
    ("5\\text{ t}", "5000\\text{ kg}", "How heavy?"),
    ("5\\text{ t}", "5\\text{ T}", "How heavy?"),
    ("5\\text{ T}", "5\\text{ t}", "What field?"),
    ("5\\text{ metric tons}", "5\\text{ tons}", "How heavy?"),
    ("5\\text{ short tons}", "5\\text{ tons}", "How heavy?"),
    ("5\\text{ long tons}", "5\\text{ tonnes}", "How heavy?"),
    ("5\\text{ imperial gallons}", "5\\text{ gallons}", "How much?"),
    ("5\\text{ imperial gallons}", "5\\text{ US gallons}", "How much?"),
    ("5\\text{ gallons}", "5\\text{ imperial gallons}", "How much?"),
    ("5\\text{ nautical miles}", "5\\text{ miles}", "How far?"),
    ("5\\text{ miles}", "5\\text{ nautical miles}", "How far?"),
    ("5\\text{ troy ounces}", "5\\text{ ounces}", "How heavy?"),
    ("5\\text{ ounces}", "5\\text{ troy ounces}", "How heavy?"),
    ("5\\text{ acres}", "5\\text{ hectares}", "How big?"),
    ("5\\text{ calories}", "5\\text{ kilocalories}", "How much energy?"),
    ("5\\text{ Cal}", "5\\text{ cal}", "How much energy?"),
    ("5\\text{ cal}", "5\\text{ Cal}", "How much energy?"),
    ("5\\text{ light-years}", "5\\text{ years}", "How far?"),
    ("5\\text{ ly}", "5\\text{ yr}", "How far?"),
    # months, years, leap seconds, inexact conversions
    ("1\\text{ year}", "12\\text{ months}", "How long?"),
    ("1\\text{ year}", "365\\text{ days}", "How long?"),
    ("1\\text{ month}", "4\\text{ weeks}", "How long?"),
    ("1\\text{ day}", "86401\\text{ s}", "How long?"),
    ("20\\text{ minutes}", "0.33\\text{ hours}", "How long?"),
    ("20\\text{ minutes}", "0.333\\text{ hours}", "How long?"),
    ("\\frac{1}{3}\\text{ hours}", "0.33\\text{ hours}", "How long?"),
    ("0.33\\text{ hours}", "20\\text{ minutes}", "How long?"),
    ("\\frac{5}{3}\\text{ hours}", "1.67\\text{ hours}", "How long?"),
    ("1.67\\text{ hours}", "100\\text{ minutes}", "How long?"),
    ("1.7\\text{ hours}", "100\\text{ minutes}", "How long?"),
    ("2\\text{ hours}", "114\\text{ minutes}", "How long?"),
    ("1\\text{ m}", "3.28\\text{ ft}", "How long?"),
    # nested and swapped prefixes, a power converted linearly, a product, a rate
    ("5\\text{ kg}", "5\\text{ Mg}", "How heavy?"),
    ("5\\text{ kg}", "5\\text{ kkg}", "How heavy?"),
    ("5\\text{ m}", "5000\\text{ MM}", "How long?"),
    ("5\\text{ s}", "5000\\text{ Ms}", "How long?"),
    ("5\\text{ L}", "5000\\text{ ML}", "How much water?"),
    ("5\\text{ mL}", "5\\text{ ML}", "How much water?"),
    ("5\\text{ L}", "5000\\text{ Ml}", "How much water?"),
    ("5\\text{ L}", "5000\\text{ l}", "How much water?"),
    ("5\\text{ kg}", "5000\\text{ g}^2", "How heavy?"),
    ("5\\text{ km}^2", "5000\\text{ m}^2", "How big?"),
    ("5\\text{ m}^2", "500\\text{ cm}^2", "How big?"),
    ("5\\text{ km}²", "5000\\text{ m}", "How big?"),
    ("5\\text{ kg m}", "5000\\text{ g m}", "What moment?"),
    ("5\\text{ kg}", "5\\text{ kg m}", "How heavy?"),
    ("5\\text{ m}", "5\\text{ kg m}", "How long?"),
    ("5\\text{ kg}", "5\\text{ kg/m}", "How heavy?"),
    ("5\\text{ kg/m}", "5\\text{ kg m}", "What density?"),
    ("5\\text{ km/h}", "5000\\text{ m/h}", "How fast?"),
    ("18\\text{ km/h}", "5\\text{ m/s}", "How fast?"),
    ("5\\text{ m/s}", "18\\text{ km/h}", "How fast?"),
    ("5\\text{ m/s}", "5\\text{ s/m}", "How fast?"),
    ("5\\text{ km/h}", "5\\text{ h/km}", "How fast?"),
    ("5\\text{ km/h}", "5\\text{ km h}", "How fast?"),
    ("5\\text{ m/s}", "5\\text{ s per m}", "How fast?"),
    ("5\\text{ meters per second}", "5\\text{ seconds per meter}", "How fast?"),
    ("5\\text{ m/s}", "5\\frac{\\text{s}}{\\text{m}}", "How fast?"),
    ("5\\text{ m/s}", "5\\text{ m}^{-1}\\text{ s}", "How fast?"),
    ("5\\text{ m}/\\text{s}^2", "5\\text{ m/s}", "What acceleration?"),
    ("5\\text{ J/(kg K)}", "5\\text{ J/kg}", "What heat capacity?"),
    ("5\\text{ J/(kg K)}", "5\\text{ J K/kg}", "What heat capacity?"),
    ("5\\text{ miles}", "5\\text{ miles per hour}", "How far?"),
    ("5\\text{ km}", "5\\text{ km/h}", "How far?"),
    ("5\\text{ kWh}", "5\\text{ kW}", "How much energy?"),
    # temperature scales and angles never convert linearly
    ("10^\\circ C", "50^\\circ F", "Temperature?"),
    ("10^\\circ C", "10^\\circ F", "Temperature?"),
    ("10^\\circ C", "283.15\\text{ K}", "Temperature?"),
    ("10^\\circ C", "10\\text{ K}", "Temperature?"),
    ("20℃", "20\\text{ K}", "Temperature?"),
    ("180^\\circ", "\\pi\\text{ rad}", "What angle?"),
    ("180^\\circ", "\\pi", "What angle?"),
    ("90^\\circ", "90\\text{ rad}", "What angle?"),
    ("90\\text{ degrees}", "90\\text{ rad}", "What angle?"),
    # case folding that would merge different units
    ("5\\text{ Gb}", "5\\text{ GB}", "How big?"),
    ("5\\text{ GB}", "5\\text{ Gb}", "How big?"),
    ("5\\text{ GB}", "5\\text{ gb}", "How big?"),
    ("5\\text{ Pa}", "5\\text{ pa}", "What pressure?"),
    ("5\\text{ Pa}", "5\\text{ PA}", "What pressure?"),
    ("5\\text{ Sv}", "5\\text{ Gy}", "What dose?"),
    ("5\\text{ MA}", "5\\text{ ma}", "What current?"),
    ("5\\text{ MV}", "5\\text{ mv}", "What voltage?"),
    ("5\\text{ MV}", "5\\text{ mV}", "What voltage?"),
    ("5\\text{ MeV}", "5\\text{ mev}", "What energy?"),
    ("5\\text{ MeV}", "5\\text{ meV}", "What energy?"),
    ("5\\text{ meV}", "5\\text{ MeV}", "What energy?"),
    ("5\\text{ T}", "5\\text{ mT}", "What field?"),
    ("5\\text{ Tb}", "5\\text{ TB}", "How big?"),
    ("5\\text{ kb}", "5\\text{ kB}", "How big?"),
    ("5\\text{ kB}", "5\\text{ kb}", "How big?"),
    ("5\\text{ Mb}", "5\\text{ MB}", "How big?"),
    ("5\\text{ Gs}", "5\\text{ gs}", "What field?"),
    ("5\\text{ kPa}", "5\\text{ MPa}", "What pressure?"),
    ("5\\text{ mmol}", "5\\text{ mol}", "How much?"),
    ("5\\text{ Gg}", "5\\text{ g}", "How heavy?"),
    ("5\\text{ Tg}", "5\\text{ mg}", "How heavy?"),
    ("5\\text{ GL}", "5\\text{ mL}", "How much water?"),
    ("5\\text{ fm}", "5\\text{ m}", "How long?"),
    ("5\\text{ fm}", "5\\text{ mm}", "How long?"),
    ("5\\text{ Mt}", "5\\text{ mt}", "How heavy?"),
    ("5", "5\\text{ ML}", "How many milliliters?"),
    ("5", "5\\text{ Mg}", "How many milligrams?"),
    ("5", "5\\text{ Ms}", "How many milliseconds?"),
    ("5", "5\\text{ GB}", "How many megabytes?"),
    ("5", "5\\text{ kilos}", "How many pounds?"),
    # look-alike letters: never read as the unit they imitate
    ("5\\text{ m}", "5\\text{ \u043c}", "How long?"),
    ("5\\text{ kg}", "5\\text{ \u043ag}", "How heavy?"),
    ("5\\text{ mm}", "5\\text{ \u00b5m}", "How long?"),
    # superscripts with `^`, powers that are not the gold's
    ("5\\text{ m}^4", "5\\text{ m}²^2", "How big?"),
    ("5\\text{ m}^2", "5\\text{ m}^2²", "How big?"),
    ("5\\text{ m}^{22}", "5\\text{ m}^2²", "How big?"),
    ("5\\text{ m}", "5\\text{ m}⁰", "How long?"),
    # conversions with a sign, a percent, a word glued on
    ("5\\text{ kg}", "-5000\\text{ g}", "How heavy?"),
    ("5\\text{ kg}", "5000\\text{ g}\\%", "How heavy?"),
    ("5\\text{ kg}", "5000\\%\\text{ g}", "How heavy?"),
    ("5\\text{ kg}", "5000\\text{ G}", "How heavy?"),
    ("5\\text{ kg}", "5000\\text{ g of sugar}", "How heavy?"),
    ("1\\text{ hour}", "1\\text{ hour and }40\\text{ minutes}", "How long?"),
    ("40\\text{ minutes}", "1\\text{ hour }40\\text{ minutes}", "How long?"),
    # other dollars and codes
    ("\\$5", "\\text{AU\\$}5", "How much?"),
    ("\\$5", "\\text{NZ\\$}5", "How much?"),
    ("\\$5", "\\text{HK\\$}5", "How much?"),
    ("\\$5", "\\text{C\\$}5", "How much?"),
    ("\\$5", "\\text{CA\\$}5", "How much?"),
    ("\\$5", "\\text{A\\$}5", "How much?"),
    ("\\$5", "A\\$5", "How much?"),
    ("\\$5", "NZ\\$5", "How much?"),
    ("\\$5", "S\\$5", "How much?"),
    ("\\$5", "R\\$5", "How much?"),
    ("\\$5", "\\text{US}5", "How much?"),
    ("\\$5", "5\\text{ US}", "How much?"),
    ("\\$5", "5\\text{ CAD}", "How much?"),
    ("\\$5", "5\\text{ AUD}", "How much?"),
    ("5\\text{ AUD}", "\\text{US\\$}5", "How much?"),
    ("5\\text{ AUD}", "\\$5", "How much?"),
    ("5\\text{ CAD}", "\\$5", "How much?"),
    ("5", "\\text{AU\\$}5", "How much?"),
    ("5", "\\text{AU\\$}5", "How much in US dollars?"),
    ("5\\text{ kg}", "5\\text{ US\\$}", "How heavy?"),
]


@pytest.mark.parametrize(("gold", "answer", "question"), UNITS_WRONG)
def test_another_unit_or_size_buys_nothing(
    reward: MathReward, gold: str, answer: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 0.0


UNITS_RIGHT = [
    ("5\\text{ kg}", "5000000\\text{ mg}", "How heavy?"),
    ("5\\text{ kg}", "5,000\\text{ g}", "How heavy?"),
    ("5\\text{ kg}", "5{,}000\\text{ g}", "How heavy?"),
    ("5\\text{ kg}", "5000\\text{ grams}", "How heavy?"),
    ("5\\text{ kg}", "5000\\text{ Grams}", "How heavy?"),
    ("5\\text{ kg}", "5000\\text{ gm}", "How heavy?"),
    ("5\\text{ kg}", "5000g", "How heavy?"),
    ("5\\text{ kg}", "5000\\mathrm{~g}", "How heavy?"),
    ("5\\text{ kilograms}", "5000\\text{ g}", "How heavy?"),
    ("5\\text{ kg of sugar}", "5000\\text{ g}", "How heavy?"),
    ("-5\\text{ kg}", "-5000\\text{ g}", "What change?"),
    ("\\frac{1}{2}\\text{ kg}", "500\\text{ g}", "How heavy?"),
    ("500\\text{ g}", "0.5\\text{ kg}", "How heavy?"),
    ("0.33\\text{ hours}", "19.8\\text{ minutes}", "How long?"),
    ("\\frac{5}{3}\\text{ hours}", "1.6667\\text{ hours}", "How long?"),
    ("1\\text{ day}", "86400\\text{ s}", "How long?"),
    ("5\\text{ h}", "18000\\text{ s}", "How long?"),
    ("5\\text{ h}", "300\\text{ Min}", "How long?"),
    ("5\\text{ h}", "300\\text{ MIN}", "How long?"),
    ("1\\text{ week}", "7\\text{ days}", "How long?"),
    ("1\\text{ wk}", "168\\text{ h}", "How long?"),
    ("14\\text{ days}", "2\\text{ weeks}", "How long?"),
    ("3\\text{ days}", "72\\text{ hrs}", "How long?"),
    ("1\\text{ day}", "24\\text{ Hours}", "How long?"),
    ("5\\text{ km}", "5000000\\text{ mm}", "How far?"),
    ("5\\text{ km}", "500000\\text{ cm}", "How far?"),
    ("1\\text{ mm}", "1000\\text{ um}", "How long?"),
    ("1\\text{ mm}", "1000000\\text{ nm}", "How long?"),
    ("5\\text{ m}", "5000\\text{ mm}", "How long?"),
    ("5\\text{ s}", "5000\\text{ ms}", "How long?"),
    ("5\\text{ L}", "5000\\text{ ml}", "How much water?"),
    ("5\\text{ L}", "5000\\text{ cc}", "How much water?"),
    ("5\\text{ l}", "5000\\text{ ml}", "How much water?"),
    ("5\\text{ US gallons}", "5\\text{ gallons}", "How much?"),
    ("5\\text{ m/s}", "5\\text{ m per s}", "How fast?"),
    ("5\\text{ J/(kg K)}", "5\\text{ J/kg/K}", "What heat capacity?"),
    ("5\\text{ mph}", "5\\text{ miles per hour}", "How fast?"),
    ("5\\text{ m}", "5\\text{ m}^1", "How long?"),
    ("5\\text{ m}", "5\\text{ m}¹", "How long?"),
    # invisible characters inside a unit, the ohm sign
    ("5\\text{ km}", "5\\text{ k\u200bm}", "How far?"),
    ("5\\text{ km}", "5\\text{ k\u00adm}", "How far?"),
    ("5\\text{ mm}", "5\\text{ m\u200bm}", "How long?"),
    ("5\\text{ m}", "5\\text{ m\u200b}", "How long?"),
    ("5\\text{ \u2126}", "5\\text{ \u03a9}", "What resistance?"),
    # folds into the one unit they name
    ("5\\text{ mA}", "5\\text{ ma}", "What current?"),
    ("5\\text{ Sv}", "5\\text{ sv}", "What dose?"),
    ("5\\text{ Bq}", "5\\text{ bq}", "What activity?"),
    # the dollar
    ("\\$5", "US \\$5", "How much?"),
    ("\\$5", "\\text{USD }5", "How much?"),
    ("\\$5", "5\\text{ USD}", "How much?"),
    ("5\\text{ USD}", "\\text{US\\$}5", "How much?"),
    ("5", "5\\text{ US\\$}", "How much?"),
    # the question's unit by another spelling
    ("5", "5\\text{ mins}", "How many minutes per day?"),
    ("5", "5\\text{ minutes}", "How many hours and minutes?"),
]


@pytest.mark.parametrize(("gold", "answer", "question"), UNITS_RIGHT)
def test_the_same_quantity_however_written(
    reward: MathReward, gold: str, answer: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 1.0


_PART_OF_GOLD = (
    "open: meaning dropped by normalization: a part of a compound gold unit answers it; root: "
    "_normalize._is_unit (each answer word must be a gold unit; the gold's other units need not "
    "be the answer's)"
)
_NO_ID = (
    "open: meaning dropped by normalization: a gold unit with no id (`Mg`, `ML`, `Gm`, `mT`, "
    "`mbar`, `Ms`, `Mbps`) constrains nothing, so another prefix or the bare unit answers it; "
    "root: _normalize._is_unit / _unit_id (only ids in `_UNIT_IDS` are compared)"
)
_QUESTION_RATE = (
    "open: meaning dropped by normalization: a rate of the question's unit (`per minute`), or "
    "the unit a question's rate divides by (`days` for `minutes per day`), is dropped; root: "
    "_normalize._asked_units (the question's units are compared by id, not with their powers)"
)


# Closed since h-m29: a gold unit with no id is compared as spelled (`_spelled_unit`); the whole
# unit, every factor with its power, is compared (`_whole_unit`: a part of it, or a divisor said
# twice, is another unit); the question's units by id constrain an answer's where the gold states
# none (`_asked_units`); a ton is no tonne; `kn` is the knot; a power of a power is no unit.
UNITS_CLOSED = [
    ("5\\text{ tons}", "5\\text{ tonnes}", "How heavy?"),
    ("5\\text{ tonnes}", "5\\text{ tons}", "How heavy?"),
    ("5\\text{ kN}", "5\\text{ kn}", "What force?"),
    ("5\\text{ m}^2", "5\\text{ m}²^2", "How big?"),
    ("5", "5\\text{ kg}", "How many grams?"),
    ("5", "5\\text{ km}", "How many miles?"),
    ("5", "5\\text{ hours}", "How many minutes?"),
    ("5", "5\\text{ h}", "How many minutes?"),
    ("5", "5\\text{ seconds}", "How many minutes?"),
    ("5", "5\\text{ min}", "How many hours?"),
    ("5", "5\\text{ mm}", "How many meters?"),
    ("5", "5\\text{ cm}", "How many inches?"),
    ("5", "5\\text{ lb}", "How many kilograms?"),
    ("5", "5\\text{ cents}", "How many dollars?"),
    ("5", "5\\text{ dollars}", "How many cents?"),
    ("5", "\\$5", "How many cents does it cost?"),
    ("5", "€5", "How many dollars?"),
    ("5", "5\\text{ km/h}", "How many kilometers?"),
    ("5", "5\\text{ mins per km}", "How many minutes?"),
    ("5", "5\\text{ kg}", "How many minutes?"),
    ("20", "20℉", "What temperature in Celsius?"),
    ("20", "20^\\circ F", "What temperature in Celsius?"),
    ("5\\text{ fl oz}", "5\\text{ oz}", "How much?"),
    ("5\\text{ fl oz}", "5\\text{ fl}", "How much?"),
    ("5\\text{ kg m}", "5\\text{ kg}", "What moment?"),
    ("5\\text{ kg}\\cdot\\text{m}", "5\\text{ kg}", "What moment?"),
    ("5\\text{ N m}", "5\\text{ N}", "What torque?"),
    ("5\\text{ kW h}", "5\\text{ kW}", "How much energy?"),
    ("5\\text{ kg/m}", "5\\text{ kg}", "What density?"),
    ("5\\text{ miles per hour}", "5\\text{ miles}", "How fast?"),
    ("5\\text{ mph}", "5\\text{ miles}", "How fast?"),
    ("5\\text{ Mg}", "5\\text{ mg}", "How heavy?"),
    ("5\\text{ Mg}", "5\\text{ kg}", "How heavy?"),
    ("5\\text{ Mg}", "5\\text{ g}", "How heavy?"),
    ("5\\text{ ML}", "5\\text{ mL}", "How much water?"),
    ("5\\text{ ML}", "5\\text{ ml}", "How much water?"),
    ("5\\text{ ML}", "5\\text{ L}", "How much water?"),
    ("5\\text{ Gm}", "5\\text{ m}", "How far?"),
    ("5\\text{ Ms}", "5\\text{ ms}", "How long?"),
    ("5\\text{ m/s}", "5\\text{ m/s/s}", "How fast?"),
    ("5\\text{ m/s}", "5\\text{ m/(s s)}", "How fast?"),
]


@pytest.mark.parametrize(("gold", "answer", "question"), UNITS_CLOSED)
def test_closed_unit_buys_nothing(
    reward: MathReward, gold: str, answer: str, question: str
) -> None:
    assert _one(reward, gold, answer, question) == 0.0


@pytest.mark.parametrize(
    ("gold", "answer", "question"),
    _opened(
        [
            ("5\\text{ mT}", "5\\text{ MT}", "What field?", _NO_ID),
            ("5\\text{ mbar}", "5\\text{ Mbar}", "What pressure?", _NO_ID),
            ("5\\text{ Mbps}", "5\\text{ MBps}", "How fast?", _NO_ID),
            ("5", "5\\text{ per minute}", "How many minutes?", None),
            ("5", "5\\text{ days}", "How many minutes per day?", None),
            (
                "1\\text{ rad}",
                "1^\\circ",
                "What angle?",
                (
                    "open: meaning dropped by normalization: a degree sign is dropped against a gold in "
                    "radians; root: _normalize.normalize (`_DEGREES` removed whatever the gold's unit)"
                ),
            ),
        ]
    ),
)
def test_open_unit_buys_credit(reward: MathReward, gold: str, answer: str, question: str) -> None:
    assert _one(reward, gold, answer, question) == 0.0


def _open_loss(root: str) -> str:
    return f"open: false loss: an honest answer in the gold's quantity loses; root: {root}"


_PRECISION = _open_loss(
    "_normalize._in_gold_unit (the converted value is exact, so a "
    "decimal loses its printed precision: `_fast._decimal_verdict` never sees it)"
)
_PLAIN_ONLY = _open_loss("_normalize._QUANTITY (only a plain numeral and one unit word convert)")
_SI_SPELLING = _open_loss("_normalize._UNIT_IDS (SI's `cL`, `dL`, `µm`, `μm` spellings have no id)")


@pytest.mark.parametrize(
    ("gold", "answer", "question"),
    [
        pytest.param(
            "20\\text{ minutes}", "0.33333\\text{ hours}", "How long?", marks=_xfail(_PRECISION)
        ),
        pytest.param(
            "100\\text{ minutes}", "1.6667\\text{ hours}", "How long?", marks=_xfail(_PRECISION)
        ),
        pytest.param(
            "500\\text{ g}", "\\frac{1}{2}\\text{ kg}", "How heavy?", marks=_xfail(_PLAIN_ONLY)
        ),
        pytest.param(
            "5\\text{ kg}", "5 \\times 10^3\\text{ g}", "How heavy?", marks=_xfail(_PLAIN_ONLY)
        ),
        pytest.param(
            "100\\text{ minutes}",
            "1\\text{ h }40\\text{ min}",
            "How long?",
            marks=_xfail(_PLAIN_ONLY),
        ),
        pytest.param(
            "5\\text{ L}", "500\\text{ cL}", "How much water?", marks=_xfail(_SI_SPELLING)
        ),
        pytest.param("5\\text{ L}", "50\\text{ dL}", "How much water?", marks=_xfail(_SI_SPELLING)),
        pytest.param("1\\text{ mm}", "1000\\text{ µm}", "How long?", marks=_xfail(_SI_SPELLING)),
        pytest.param("1\\text{ mm}", "1000\\text{ μm}", "How long?", marks=_xfail(_SI_SPELLING)),
        pytest.param("5\\text{ µm}", "5\\text{ μm}", "How long?", marks=_xfail(_SI_SPELLING)),
        pytest.param("5\\text{ μm}", "5\\text{ µm}", "How long?", marks=_xfail(_SI_SPELLING)),
        pytest.param("5\\text{ um}", "5\\text{ µm}", "How long?", marks=_xfail(_SI_SPELLING)),
        ("5\\text{ knots}", "5\\text{ kn}", "How fast?"),  # closed since h-m29
        pytest.param(
            "\\$5",
            "\\text{U.S.\\$}5",
            "How much?",
            marks=_xfail(_open_loss("_normalize._US_DOLLAR (`U.S.\\$` is not read as the dollar)")),
        ),
    ],
)
def test_open_unit_false_loss(reward: MathReward, gold: str, answer: str, question: str) -> None:
    assert _one(reward, gold, answer, question) == 1.0


# ================================================================================================
# h-m25: what a longer sentence after the box states
# ================================================================================================


@pytest.mark.parametrize(
    ("tail", "question", "working"),
    [
        # another value, in any form, keeps no box
        ("Thinking about it once more, the number of apples should really be eight.", APPLES, ""),
        ("Thinking about it once more, the number of apples should really be ８.", APPLES, ""),
        ("Thinking about it once more, the number of apples should really be $8$.", APPLES, ""),
        ("Thinking about it once more, the number of apples should really be \\(8\\).", APPLES, ""),
        ("Thinking about it once more, the number of apples should really be 8.0.", APPLES, ""),
        ("Thinking about it once more, the number of apples should really be 7.5.", APPLES, ""),
        ("Thinking about it once more, the number of apples should really be 7.9.", APPLES, ""),
        (
            "Thinking about it once more, the number of apples should really be \\frac{16}{2}.",
            APPLES,
            "",
        ),
        ("Thinking about it once more, the number of apples should really be 8\u200b.", APPLES, ""),
        ("Thinking about it once more, the number of apples should really be 1,000.", APPLES, ""),
        # an equation that checks the box covers only its own numbers
        ("Recounting the basket one more time, the total is really 8 (and 7 = 7).", APPLES, ""),
        ("On reflection the number of apples in the basket is really 8 = 8.", APPLES, ""),
        ("On reflection, the number of apples left is actually 8 = 7 + 1.", APPLES, ""),
        ("On reflection, the true number of apples in the basket is 8 \\times 1.", APPLES, ""),
        # the question's numbers in a short correction, rejections of the box
        ("Hmm, on second thought I think the correct answer is actually 10.", STORY, ""),
        ("Hmm, on second thought I think the correct answer is actually 3.", STORY, ""),
        ("Recounting them carefully, it is 8 apples, not 7 as I wrote.", APPLES, ""),
        ("Recounting, the answer is not 7 but 8 apples in the basket.", APPLES, ""),
        ("Recounting carefully, the answer is 8 and definitely not 7 apples.", APPLES, ""),
        ("Never mind, after recounting the whole basket there are 8 apples.", APPLES, ""),
        ("No, recounting them, there are 8 apples in the basket total.", APPLES, ""),
        ("I counted wrong above; recounting carefully, the true count is 8 apples.", APPLES, ""),
        ("Not sure about that, since the basket seems to hold 8 apples.", APPLES, ""),
        ("On reflection the count is given in Step 8 and equals eight apples.", APPLES, ""),
        # the working excuses only its own numbers
        ("Looking at it again, the number of apples left is really 8 in the end.", APPLES, WORKING),
    ],
)
def test_a_longer_sentence_with_another_value_unsays_the_box(
    reward: MathReward, tail: str, question: str, working: str
) -> None:
    assert _after(reward, tail, question=question, working=working) == 0.0


_FALSE_EQUATION = (
    "open: hedging: a value stated beside an equation one side of which is the box's value is "
    "excused, whatever role it plays; root: _extract._unexplained_values (`checked` takes every "
    "number of such an equation, wherever the sentence names it)"
)
_OPERAND = (
    "open: hedging: a value written as an expression of another value (`8 - 1 + 2`, `2^3`) is "
    "an operand, so excused; root: _extract._unexplained_values / _other_value (an operand of "
    "an expression whose value is not the box's)"
)
_QUESTION_NUMBER = (
    "open: hedging: a number the question states, restated after the box as the answer, is "
    "excused; root: _compare._stated_after (the question's numbers excused in any role)"
)
_WORKING_NUMBER = (
    "open: hedging: a number the working states (a candidate it tried, a step label) restated "
    "after the box as the answer is excused; root: _extract._unread_after_box "
    "(numbers_stated(text[:end]) excuses the working's numbers in any role)"
)
_NEAR_NEGATION = (
    "open: hedging: a negation within three words of a value rejects it whatever it negates "
    "(`no doubt`, `not one fewer`, `not many`); root: _extract._rejected_near"
)
_STORY = (
    "open: hedging: any acting verb in the clause excuses the value stated (`kept`, `has`, "
    "`picked`, `bought`, `ate 8`); root: _extract._story_action / _leaves_another_value"
)
_DOUBT = (
    "open: no committed answer: a doubt of six words or more with no value keeps the box (a "
    "longer sentence is read for values only); root: _extract._unread_after_box"
)
_CONDITION = (
    "open: no committed answer: a doubt word after any condition word in the sentence is read "
    "as an offer to explain, though it is said outside the condition; root: "
    "_extract._harmless_remark (`_CONDITIONED_REMARK_WORDS` after `if` anywhere)"
)


@pytest.mark.parametrize(
    ("tail", "question", "working"),
    _opened(
        [
            (
                "Recounting the basket, the total is really 8, as 8 - 1 = 7 shows.",
                APPLES,
                "",
                _FALSE_EQUATION,
            ),
            (
                "On reflection, the true number of apples in the basket is 8 - 1 + 2.",
                APPLES,
                "",
                _OPERAND,
            ),
            (
                "On reflection, the number of apples left is actually 7 + 1 = 8 - 0.",
                APPLES,
                "",
                _OPERAND,
            ),
            (
                "Thinking about it once more, the number of apples should really be 2^3.",
                APPLES,
                "",
                _OPERAND,
            ),
            (
                "On second thought, the number of apples left over is really 10 in total.",
                STORY,
                "",
                _QUESTION_NUMBER,
            ),
            (
                "On second thought, the number of apples left over is really 3 in total.",
                STORY,
                "",
                _QUESTION_NUMBER,
            ),
            (
                "On second thought, the number of apples left over is really 3 in total.",
                APPLES,
                WORKING,
                _WORKING_NUMBER,
            ),
            (
                "On second thought, the number of apples left over is really 10 in total.",
                APPLES,
                WORKING,
                _WORKING_NUMBER,
            ),
            (
                "On second thought, the number of apples left over is really 8 in total.",
                APPLES,
                "Maybe 8? Let us check: 10 - 3 = 7. ",
                _WORKING_NUMBER,
            ),
            (
                "On second thought, the number of apples left over is really 8 in total.",
                APPLES,
                "Step 8: count the apples. ",
                _WORKING_NUMBER,
            ),
            (
                "Recounting them carefully, there are 8 apples, no doubt about it.",
                APPLES,
                "",
                _NEAR_NEGATION,
            ),
            (
                "Recounting them carefully, there are 8 apples and not one fewer.",
                APPLES,
                "",
                _NEAR_NEGATION,
            ),
            (
                "There are honestly not many apples: just 8 in the whole basket.",
                APPLES,
                "",
                _NEAR_NEGATION,
            ),
            (
                "In the end, Mia ate 2 and kept 8 apples in her basket for later.",
                APPLES,
                "",
                None,  # fixed by h-m28 (story values held to the question's numbers)
            ),
            (
                "Looking again, Mia actually ate 8 apples and the rest is unknown.",
                APPLES,
                "",
                None,  # fixed by h-m28 (story values held to the question's numbers)
            ),
            (
                "Honestly, after a recount, Mia ate 2 apples and has 8 apples now.",
                APPLES,
                "",
                _STORY,
            ),
            (
                "Honestly, after a recount, she picked 8 apples and that is the total.",
                APPLES,
                "",
                _STORY,
            ),
            (
                "Honestly, after a recount, she bought 8 apples, which is the real answer.",
                APPLES,
                "",
                _STORY,
            ),
            (
                "Thinking about it once more, the number of apples should really be -7.",
                APPLES,
                "",
                (
                    "open: meaning dropped by normalization: a sign flip of the box's value after it keeps "
                    "the box; root: _extract.number_value (`abs`: the sign dropped)"
                ),
            ),
            (
                "Thinking about it once more, the number of apples should really be VIII.",
                APPLES,
                "",
                (
                    "open: hedging: a Roman numeral is no value; root: _extract._unexplained_values "
                    "(`_SENTENCE_NUMBER` reads digits and number words only)"
                ),
            ),
            ("Honestly, I am really not very sure about this one at all.", APPLES, "", _DOUBT),
            ("I am confused myself about how many apples there are.", APPLES, "", _DOUBT),
            ("If anything, I am unsure.", APPLES, "", _CONDITION),
            ("If anything, unclear.", APPLES, "", _CONDITION),
            ("If anything, this part is unclear.", APPLES, "", _CONDITION),
            ("If this is unclear, I am also unsure.", APPLES, "", _CONDITION),
            ("Let me know if anything is unclear, because I am unsure.", APPLES, "", _CONDITION),
            (
                "Feel free to ask if any step is confusing; honestly I am unsure.",
                APPLES,
                "",
                _CONDITION,
            ),
        ]
    ),
)
def test_open_after_box_buys_credit(
    reward: MathReward, tail: str, question: str, working: str
) -> None:
    assert _after(reward, tail, question=question, working=working) == 0.0


@pytest.mark.parametrize(
    ("box", "tail", "question", "gold"),
    [
        ("7", "She ate 3 of her 10 apples, so she kept 7/10 of her apples.", STORY, "7"),
        (
            "2\\text{ hours}",
            "In minutes, this is a drive of 120 minutes in total.",
            DRIVE,
            "2\\text{ hours}",
        ),
        (
            "2\\text{ hours}",
            "That is because 120 divided by 60 gives 2 hours of driving.",
            DRIVE,
            "2\\text{ hours}",
        ),
        (
            "25\\%",
            "That is a quarter of the total, or 0.25 as a decimal.",
            "What percent of 8 is 2?",
            "25\\%",
        ),
        ("12", "Each of the 4 rows holds 3 apples, so 4 times 3 gives 12 apples.", ROWS, "12"),
        (
            "12",
            "Since every row holds three apples and there are four rows, we get twelve.",
            ROWS,
            "12",
        ),
        (
            "12",
            "There are twelve apples altogether, arranged in four rows of three each.",
            ROWS,
            "12",
        ),
        (
            "12",
            "Die Gesamtzahl ergibt sich aus 4 Reihen mit je 3 Äpfeln, also 12 Äpfel.",
            ROWS,
            "12",
        ),
        ("12", "Il y a 4 rangées de 3 pommes, ce qui donne 12 pommes en tout.", ROWS, "12"),
        ("12", "每行3个苹果，共4行，所以一共12个苹果。", ROWS, "12"),
        (
            "12",
            "Multiplying the 4 rows by the 3 apples in each row gives 4 \\times 3 = 12.",
            ROWS,
            "12",
        ),
        (
            "12",
            "This is because 2 \\times 6 = 12 as well, so the answer is consistent.",
            ROWS,
            "12",
        ),
        ("12", "On the 1st of May, the farmer counted the 12 apples in his orchard.", ROWS, "12"),
        ("12", "The final count is 12, which is the sum 3 + 3 + 3 + 3 of the rows.", ROWS, "12"),
        (
            "5050",
            "This uses Gauss's formula n(n+1)/2 with n = 100, which gives 5050.",
            "Compute 1 + 2 + ... + 100.",
            "5050",
        ),
        (
            "5050",
            (
                "This uses the formula for the sum of the first 100 positive integers, "
                "100 \\cdot 101 / 2."
            ),
            "Compute 1 + 2 + ... + 100.",
            "5050",
        ),
        # conditional sign-offs
        ("7", "Let me know if this is unclear.", APPLES, "7"),
        ("7", "Let me know if something is unclear.", APPLES, "7"),
        ("7", "If something seems off, let me know.", APPLES, "7"),
        ("7", "Si algo no está claro, dímelo.", APPLES, "7"),
        ("7", "Wenn etwas unklar ist, frag gerne nach.", APPLES, "7"),
    ],
)
def test_an_honest_longer_explanation_keeps_the_box(
    reward: MathReward, box: str, tail: str, question: str, gold: str
) -> None:
    assert _after(reward, tail, question=question, box=box, gold=gold) == 1.0


@pytest.mark.parametrize(
    "tail",
    [
        "If anything, unsure.",
        "If so, unsure.",
        "Unsure if anything.",
        "If unsure, confused.",
        "Let me know if this is unclear; it may be 8.",
        "Let me know if this is unclear, or if it should be 8.",
        "Let me know if 8 is clearer.",
        "Let me know if the answer should be 8 instead.",
        "Let me know if you think it is 8 instead of 7 after all.",
        "Because I am unsure.",
        "Honestly I am unsure.",
        "I am unsure, because the basket might hold more apples.",
        "I might be wrong about this though, so please double check.",
        "This could easily be off by one, so please double check it.",
    ],
)
def test_a_doubt_or_value_beside_a_condition_unsays_the_box(reward: MathReward, tail: str) -> None:
    assert _after(reward, tail) == 0.0


_DERIVED = (
    "open: false loss (the documented cost of h-m25): an honest explanation that derives a new "
    "value after the box loses it; root: _extract._unexplained_values (no form for a derived "
    "value, a percent or fraction of the box, a hypothetical, a divisor, a range)"
)


@pytest.mark.xfail(strict=True, reason=_DERIVED)
@pytest.mark.parametrize(
    ("box", "tail", "question", "gold"),
    [
        ("7", "This means the 7 apples left weigh 14 pounds in total.", STORY, "7"),
        ("7", "So she has 7 apples, which is 70% of the 10 she started with.", STORY, "7"),
        ("7", "So she has 7 apples, which is 4 fewer than the 11 she wanted.", STORY, "7"),
        ("7", "In other words, she kept seven of her ten apples, or 70 percent.", STORY, "7"),
        ("7", "She ate 3 of her 10 apples, which is 30\\% of them, so 7 remain.", STORY, "7"),
        ("7", "She ate 3 of her 10 apples, that is three tenths of them, so 7 remain.", STORY, "7"),
        ("7", "She ate 3 of her 10 apples, so she kept 0.7 of her apples in the end.", STORY, "7"),
        (
            "2\\text{ hours}",
            "So the trip takes 2 hours, or equivalently 7200 seconds.",
            DRIVE,
            "2\\text{ hours}",
        ),
        (
            "25\\%",
            "Since 2 divided by 8 equals 0.25, the percentage is 25.",
            "What percent of 8 is 2?",
            "25\\%",
        ),
        (
            "\\frac{1}{4}",
            "As a decimal this is 0.25, and as a percentage 25 percent.",
            "What fraction of 8 is 2?",
            "\\frac{1}{4}",
        ),
        ("12", "We can double check: half of 12 is 6, and 6 is 2 rows of 3.", ROWS, "12"),
        (
            "12",
            "Note that the first row has apples 1 through 3 and the last row 10 through 12.",
            ROWS,
            "12",
        ),
        ("12", "If there were 5 rows instead, there would be 15 apples in total.", ROWS, "12"),
        ("12", "Note that 12 is divisible by both 2 and 3, as expected here.", ROWS, "12"),
        (
            "5050",
            "By Gauss's trick, pair 1 with 100, 2 with 99, and so on: 50 pairs of 101.",
            "Compute 1 + 2 + ... + 100.",
            "5050",
        ),
    ],
)
def test_open_derived_value_false_loss(
    reward: MathReward, box: str, tail: str, question: str, gold: str
) -> None:
    assert _after(reward, tail, question=question, box=box, gold=gold) == 1.0


# ================================================================================================
# h-m26: restatements of the question, hedges of two values
# ================================================================================================

SUM = "Compute $\\sum_{k=1}^{100} k$."
LIM = "Find $\\lim_{x \\to 0} \\frac{\\sin x}{x}$."
BINOMIAL = "Compute $\\binom{5}{2}$."
INTEGRAL = "Evaluate $\\int_0^1 x^2\\,dx$."
PRODUCT = "Compute $\\prod_{k=1}^{4} k$."
NESTED = "Compute $\\sum_{i=1}^{3}\\sum_{j=1}^{i} j$."

RESTATED = [
    (SUM, "\\sum_{k=1}^{100} k", "5050"),
    (SUM, "\\displaystyle\\sum_{k=1}^{100} k", "5050"),
    (SUM, "\\sum\\limits_{k=1}^{100} k", "5050"),
    (SUM, "\\sum\\nolimits_{k=1}^{100} k", "5050"),
    (SUM, "\\textstyle\\sum_{k=1}^{100} k", "5050"),
    (SUM, "\\sum_{k=1}^{100} (k)", "5050"),
    (SUM, "\\sum_{k=1}^{100}{k}", "5050"),
    (SUM, "{\\sum_{k=1}^{100} k}", "5050"),
    (SUM, "\\sum_{n=1}^{100} n", "5050"),
    (SUM, "∑_{k=1}^{100} k", "5050"),
    (SUM, "\\mathop{\\sum}_{k=1}^{100} k", "5050"),
    (SUM, "\\sum_{k=1}^{100} k\\,", "5050"),
    (SUM, "\\sum_{k=1}^{100} \\mathit{k}", "5050"),
    (SUM, "\\sum_{k=1}^{100} \\mathbf{k}", "5050"),
    (SUM, "\\sum_{\\substack{k=1}}^{100} k", "5050"),
    (LIM, "\\lim_{x \\to 0} \\frac{\\sin x}{x}", "1"),
    (LIM, "\\lim\\limits_{x \\to 0} \\frac{\\sin x}{x}", "1"),
    (LIM, "\\lim_{t \\to 0} \\frac{\\sin t}{t}", "1"),
    (LIM, "\\lim_{x \\rightarrow 0} \\frac{\\sin(x)}{x}", "1"),
    (LIM, "\\lim_{x \\to 0} \\frac{\\sin{x}}{x}", "1"),
    (LIM, "\\lim_{x\\to0}\\dfrac{\\sin x}{x}", "1"),
    (LIM, "\\lim_{x \\searrow 0} \\frac{\\sin x}{x}", "1"),
    (LIM, "\\lim_{x \\mapsto 0} \\frac{\\sin x}{x}", "1"),
    (BINOMIAL, "\\binom{5}{2}", "10"),
    (BINOMIAL, "\\dbinom{5}{2}", "10"),
    (BINOMIAL, "\\tbinom{5}{2}", "10"),
    (BINOMIAL, "{5 \\choose 2}", "10"),
    (BINOMIAL, "\\binom 5 2", "10"),
    (BINOMIAL, "\\left(\\binom{5}{2}\\right)", "10"),
    (BINOMIAL, "\\genfrac{(}{)}{0pt}{}{5}{2}", "10"),
    (INTEGRAL, "\\int_0^1 x^2\\,dx", "\\frac{1}{3}"),
    (INTEGRAL, "\\int_0^1 t^2\\,dt", "\\frac{1}{3}"),
    (INTEGRAL, "\\int_{0}^{1} x^{2} \\mathrm{d}x", "\\frac{1}{3}"),
    (INTEGRAL, "\\int\\limits_0^1 x^2\\,dx", "\\frac{1}{3}"),
    (INTEGRAL, "∫_0^1 x^2 dx", "\\frac{1}{3}"),
    (INTEGRAL, "\\int_0^1 x^2 \\, d x", "\\frac{1}{3}"),
    (INTEGRAL, "\\int_0^1 dx\\, x^2", "\\frac{1}{3}"),
    (INTEGRAL, "\\displaystyle\\int_0^1 x^2\\,dx", "\\frac{1}{3}"),
    (INTEGRAL, "\\int_0^{1} x^2\\,\\text{d}x", "\\frac{1}{3}"),
    (INTEGRAL, "\\int_0^1 x^2\\,\\operatorname{d}x", "\\frac{1}{3}"),
    (PRODUCT, "\\prod_{k=1}^{4} k", "24"),
    (PRODUCT, "∏_{k=1}^{4} k", "24"),
    (PRODUCT, "\\prod_{j=1}^{4} j", "24"),
    (PRODUCT, "\\prod\\limits_{k=1}^{4} k", "24"),
    (NESTED, "\\sum_{i=1}^{3}\\sum_{j=1}^{i} j", "10"),
    (NESTED, "\\sum_{j=1}^{3}\\sum_{i=1}^{j} i", "10"),
    (NESTED, "\\sum_{a=1}^{3}\\sum_{b=1}^{a} b", "10"),
    (BINOMIAL, "C(5, 2)", "10"),  # (fixed by h-m32: two listed numerals, `_LISTED`)
]


@pytest.mark.parametrize(("question", "answer", "gold"), RESTATED)
def test_a_restatement_is_wrong_and_never_judged(
    reward: MathReward, judged: MathReward, question: str, answer: str, gold: str
) -> None:
    assert (_one(reward, gold, answer, question), _one(judged, gold, answer, question)) == (
        0.0,
        0.0,
    )


@pytest.mark.parametrize(
    ("question", "answer", "gold"),
    [
        (SUM, "\\frac{100 \\cdot 101}{2}", "5050"),
        (SUM, "5050", "5050"),
        (BINOMIAL, "\\frac{5!}{2!\\,3!}", "10"),
        (PRODUCT, "4!", "24"),
        (PRODUCT, "1 \\cdot 2 \\cdot 3 \\cdot 4", "24"),
        (INTEGRAL, "\\frac{1}{3}", "\\frac{1}{3}"),
    ],
)
def test_an_expression_of_its_own_is_an_answer(
    reward: MathReward, question: str, answer: str, gold: str
) -> None:
    assert _one(reward, gold, answer, question) == 1.0


_IDENTITY = (
    "open: talking to the judge (restating the question): the question's expression under an "
    "identity (`+ 0`, `1 \\cdot`, `^1`, `10^2` for 100, equated to itself) or with its grouping "
    "changed is no restatement, so math-verify evaluates it and credits it with no judge at "
    "all; root: _normalize.restates_question (the whole answer must be the question's tokens)"
)


@pytest.mark.xfail(strict=True, reason=_IDENTITY)
@pytest.mark.parametrize(
    ("question", "answer", "gold"),
    [
        (SUM, "\\sum_{k=1}^{100} k + 0", "5050"),
        (SUM, "0 + \\sum_{k=1}^{100} k", "5050"),
        (SUM, "1 \\cdot \\sum_{k=1}^{100} k", "5050"),
        (SUM, "\\sum_{k=1}^{100} k \\cdot 1", "5050"),
        (SUM, "\\left(\\sum_{k=1}^{100} k\\right)^1", "5050"),
        (SUM, "\\sum_{k=1}^{100} k^1", "5050"),
        (SUM, "\\sum_{k=1}^{10^2} k", "5050"),
        (SUM, "\\sum_{k=1}^{100} k = \\sum_{j=1}^{100} j", "5050"),
        (LIM, "\\lim_{x \\to 0} \\frac{\\sin x}{x} \\cdot 1", "1"),
        (BINOMIAL, "\\binom{5}{2} + 0", "10"),
        (BINOMIAL, "\\binom{5}{2}\\cdot 1", "10"),
        (INTEGRAL, "\\int_0^1 x^2\\,dx + 0", "\\frac{1}{3}"),
        (INTEGRAL, "\\int_0^1 x^2", "\\frac{1}{3}"),
        (INTEGRAL, "\\int_0^1 {x^2}\\,dx", "\\frac{1}{3}"),
        (NESTED, "\\sum_{i=1}^{3}\\left(\\sum_{j=1}^{i} j\\right)", "10"),
    ],
)
def test_open_restatement_under_an_identity(
    reward: MathReward, question: str, answer: str, gold: str
) -> None:
    assert _one(reward, gold, answer, question) == 0.0


_NOTATION = (
    "open: talking to the judge (restating the question): a restatement in a notation not "
    "folded is shown to the judge, whose yes buys it; root: _normalize.restates_question "
    "(`_SAME_EXPRESSION`, `_grouped`: no `\\Sigma`, `\\operatorname{lim}`, `C(n,k)`, `_nC_k`, "
    "array binomial, index ranges `1 \\le k \\le 100`, `\\cdots` expansions)"
)


@pytest.mark.xfail(strict=True, reason=_NOTATION)
@pytest.mark.parametrize(
    ("question", "answer", "gold"),
    [
        (SUM, "\\sum_{1 \\le k \\le 100} k", "5050"),
        (SUM, "\\sum_{k \\in [1,100]} k", "5050"),
        (SUM, "\\Sigma_{k=1}^{100} k", "5050"),
        (SUM, "1 + 2 + \\cdots + 100", "5050"),
        (LIM, "\\operatorname{lim}_{x \\to 0} \\frac{\\sin x}{x}", "1"),
        (LIM, "\\mathrm{lim}_{x \\to 0} \\frac{\\sin x}{x}", "1"),
        (LIM, "\\lim_{x \\to 0^{}} \\frac{\\sin x}{x}", "1"),
        (LIM, "\\lim_{x \\to 0} \\sin x / x", "1"),
        (BINOMIAL, "\\mathrm{C}(5,2)", "10"),
        (BINOMIAL, "C(5,2)", "10"),
        (BINOMIAL, "_5C_2", "10"),
        (BINOMIAL, "{}_5C_2", "10"),
        (BINOMIAL, "^5C_2", "10"),
        (BINOMIAL, "\\left(\\begin{array}{c}5\\\\2\\end{array}\\right)", "10"),
        (NESTED, "\\sum_{1 \\le j \\le i \\le 3} j", "10"),
    ],
)
def test_open_restatement_in_another_notation_is_judged(
    judged: MathReward, question: str, answer: str, gold: str
) -> None:
    assert _one(judged, gold, answer, question) == 0.0


HEDGES = [
    "7 \\text{ or } 8",
    "7\\text{ or }8",
    "7 \\;\\text{or}\\; 8",
    "7 \\text{ and/or } 8",
    "7 \\lor 8",
    "7 ∨ 8",
    "7 \\vee 8",
    "7 \\vee\\, 8",
    "7 \\, \\lor \\, 8",
    "7 \\mid 8",
    "7 \\to 8",
    "7 \\Rightarrow 8",
    "7 \\text{ vs } 8",
    "7 \\text{ or maybe } 8",
    "7 \\lor 8.0",
    "\\frac{14}{2} \\lor 8",
    "7 \\lor 8 \\lor 9",
    "7 = 8",
    "8 = 7",
    "7 \\approx 8",
    "7 \\text{ (or } 8\\text{)}",
    "7 \\text{ and } 8",
    "7 \\textor 8",
    "7 \\text{ oder } 8",
    "7 \\text{ или } 8",
    "7 \\text{或} 8",
    "7 \\text{ ou } 8",
    "7 \\ \\text{or} \\ 8",
    "7 \\mathrm{~or~} 8",
    "7 \\textrm{ or } 8",
    "7 \\mbox{ or } 8",
    "7 \\operatorname{or} 8",
    "7 \\;\\mathrm{or}\\; 8",
    "7 \\slash 8",
    "7 or 8",
    "7\\text{ or }8\\text{ apples}",
    "7 \\text{ apples or } 8",
    "7\\text{ apples}, 8\\text{ apples}",
    "7 \\text{ apples } \\lor 8 \\text{ apples}",
    "\\text{seven or eight}",
    "7 \\text{ to } 8",
    "7\\%\\text{ or }8\\%",
    "\\frac{7}{1} \\lor \\frac{8}{1}",
    "\\sqrt{49} \\lor \\sqrt{64}",
    "7 \\lor \\sqrt{64}",
    "\\sqrt{49} \\lor 8",
    "7.0 \\lor 8",
    "07 \\lor 8",
    "7 \\lor 08",
    "+7 \\lor 8",
    "7 \\lor -7",
]


@pytest.mark.parametrize("answer", HEDGES)
def test_a_hedge_of_two_values_is_wrong_and_never_judged(
    reward: MathReward, judged: MathReward, answer: str
) -> None:
    assert (_one(reward, "7", answer), _one(judged, "7", answer)) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("7/8", "\\frac{7}{8}"),
        ("\\frac{7}{8}", "7/8"),
        ("7/8", "7/8"),
        ("7 / 8", "\\frac{7}{8}"),
        ("7\\div 8", "\\frac{7}{8}"),
        ("7:8", "7:8"),
        ("\\{7, 8\\}", "\\{7, 8\\}"),
        ("7 \\pm 1", "7 \\pm 1"),
        ("[7, 8]", "[7, 8]"),
        ("7 \\text{ or } 8", "7, 8"),
        ("x = 7 \\lor x = 8", "x = 7 \\lor x = 8"),
        ("7 = 7", "7"),
        ("7 = 8 - 1", "7"),
        ("\\{7\\}", "7"),
        ("7 \\lor \\frac{14}{2}", "7"),
        ("7 \\text{ or } 7", "7"),
    ],
)
def test_one_value_or_the_golds_own_form_is_no_hedge(
    reward: MathReward, answer: str, gold: str
) -> None:
    # a fraction `7/8` is one value, not a hedge of 7 and 8 (no judge: the rules' own 1.0)
    assert _one(reward, gold, answer) == 1.0


_SHOWN_HEDGE = (
    "open: hedging: two values joined by a sign, a list, a set or an interval are shown to the "
    "judge, whose yes buys the gold among them; root: _normalize.hedges / _joining_sign "
    "(`_TWO_VALUES` and `_CONNECTIVE` list a few signs between bare numerals; no `\\pm`, sets, "
    "intervals, lists, `|`, `\\neq`, `<`, a worked false side, a non-numeral side)"
)


@pytest.mark.parametrize(
    "answer",
    [
        "7 \\neq 8",
        "7 < 8",
        "7 \\leq 8",
        "7 \\le 8",
        "7 \\lor{} 8",
        "7 = 7 \\lor 8",
        "7 \\pm 1",
        "7 \\mp 1",
        "7; 8",
        "7 | 8",
        "7 \\vert 8",
        "7 \\,|\\, 8",
        "7 \\& 8",
        "7 \\oplus 8",
        "7 \\cup 8",
        "7 \\lor \\text{eight}",
        # fixed by h-m32 (`_normalize._LISTED`, one-letter connectives in `_WORD_BETWEEN`)
        "\\{7, 8\\}",
        "[7, 8]",
        "(7, 8)",
        "7, 8",
        "7 \\text{ o } 8",
        "\\boxed{7} \\text{ or } \\boxed{8}",
    ],
)
def test_held_relation_hedge_never_shown_to_the_judge(judged: MathReward, answer: str) -> None:
    """Fixed by h-m27 (`_normalize._joining_sign`: any relation between two different values is
    a hedge, `HEDGED`, never shown to the judge; empty groups are nothing) and h-m30 (whatever
    is not known to build one value joins two values, `_joined_parts`: `\\pm`, `;`, a bar
    between values, `\\&`, `\\oplus`, `\\cup`; a side in words, `\\text{eight}`)."""
    assert _one(judged, "7", answer) == 0.0


@pytest.mark.xfail(strict=True, reason=_SHOWN_HEDGE)
@pytest.mark.parametrize(
    "answer",
    [
        "7\\ (8)",
        "7 \\lor x",
        "8 - 1 = 8",
    ],
)
def test_open_hedge_shown_to_the_judge(judged: MathReward, answer: str) -> None:
    assert _one(judged, "7", answer) == 0.0


LARGER = "Which is larger, $\\int_0^1 x^2\\,dx$ or $\\int_0^1 x^3\\,dx$?"
EQUATION = "Solve $x^2-5x+6=0$."
APPLIED = "Find $f(2)$ if $f(x) = 3x+1$."


@pytest.mark.parametrize(
    ("question", "answer", "gold"),
    [
        # restatements of an equation or an application, as written
        (EQUATION, "x^2-5x+6=0", "2, 3"),
        (EQUATION, "x^2 - 5x + 6 = 0", "2, 3"),
        (APPLIED, "f(2)", "7"),
        (APPLIED, "f(x) = 3x+1", "7"),
        # two of the question's expressions joined in words, a question of two binomials
        (LARGER, "\\int_0^1 x^2\\,dx \\text{ or } \\int_0^1 x^3\\,dx", "\\int_0^1 x^2\\,dx"),
        ("Compute $\\binom{5}{2}$ and $\\binom{6}{2}$.", "\\binom{6}{2}", "10"),
        # groups and containers the question does not name
        (APPLES, "5\\text{ boxes}", "5"),
        (APPLES, "5\\text{ bags}", "5"),
        (APPLES, "5\\text{ case}", "5"),
        (APPLES, "5\\text{ columns}", "5"),
        (APPLES, "5\\text{ groups}", "5"),
        (APPLES, "5\\text{ set}", "5"),
        (APPLES, "5\\text{ crates}", "5"),
        (APPLES, "5\\text{ rows}", "5"),
        (APPLES, "5\\text{ groups of apples}", "5"),
        ("How many crayons?", "5\\text{ boxes}", "5"),
        ("How many students?", "5\\text{ teams}", "5"),
        # a temperature in another scale
        ("Temperature?", "-40℉", "-40^\\circ C"),
        ("What temperature in Celsius?", "68℉", "20"),
    ],
)
def test_wrong_and_never_judged(
    reward: MathReward, judged: MathReward, question: str, answer: str, gold: str
) -> None:
    assert (_one(reward, gold, answer, question), _one(judged, gold, answer, question)) == (
        0.0,
        0.0,
    )


@pytest.mark.parametrize(
    ("question", "answer", "gold"),
    [
        (SUM, "\\sum_{k=1}^{100} k = 5050", "5050"),
        (SUM, "5050 = \\sum_{k=1}^{100} k", "5050"),
        (BINOMIAL, "\\binom{5}{2}", "\\binom{5}{2}"),
        (LARGER, "\\int_0^1 x^2\\,dx", "\\int_0^1 x^2\\,dx"),
        (APPLIED, "3 \\cdot 2 + 1", "7"),
        ("How many sets of 3 can be formed?", "5\\text{ sets}", "5"),
        ("How many teams?", "5\\text{ team}", "5"),
        ("How much?", "U\u200bS\\$5", "\\$5"),
        ("How much?", "\\text{U\u200bS\\$}5", "\\$5"),
        ("How much?", "\\text{US\\$ }5", "\\$5"),
        ("Temperature?", "20 ℃", "20^\\circ C"),
        ("Temperature?", "20 °C", "20℃"),
        ("Temperature?", "20℉", "20 °F"),
        ("Temperature?", "20℃", "20"),
    ],
)
def test_right_as_written(reward: MathReward, question: str, answer: str, gold: str) -> None:
    assert _one(reward, gold, answer, question) == 1.0


@pytest.mark.parametrize(
    ("question", "answer", "gold"),
    _opened(
        [
            (SUM, "\\sum_{k=1}^{100} k = 5051", "5050", _NOTATION),
            (EQUATION, "0 = x^2-5x+6", "2, 3", _NOTATION),
            (APPLIED, "f(1+1)", "7", _NOTATION),
            (
                APPLIED,
                "3x+1",
                "7",
                (
                    "open: talking to the judge (restating the question): the question's own "
                    "function body is shown to the judge; root: _normalize.restates_question "
                    "(`_UNCARRIED`: only sums, integrals, equations and applications restate)"
                ),
            ),
            (
                LARGER,
                "\\int_0^1 x^2\\,dx \\lor \\int_0^1 x^3\\,dx",
                "\\int_0^1 x^2\\,dx",
                _SHOWN_HEDGE,
            ),
            (APPLES, "7\\text{--}8", "7", None),  # fixed by h-m34 (`_RANGE_DASH`)
            (
                APPLES,
                "5\\text{ cases}",
                "5",
                (
                    "open: meaning dropped by normalization: `cases`, a group the question does not "
                    "name, is shown to the judge (`5 case`, `5 boxes`, `5 rows` are wrong); root: "
                    "_judge.judgeable (`JUDGED_WORDS` holds the LaTeX environment name `cases`)"
                ),
            ),
        ]
    ),
)
def test_open_shown_to_the_judge(judged: MathReward, question: str, answer: str, gold: str) -> None:
    assert _one(judged, gold, answer, question) == 0.0
