r"""The reading rule: a word next to a value is dropped only when it is known not to change
the value (a unit, a currency, a counted noun, or a word the gold carries too). Every other
word, sign or command stays: a fraction or magnitude word, an operation or sign word,
`\neg`, `\mathrm{i}`, `or more`, a percent sign on one side of a fractional value. Each such
form scores 0 against the bare number it is written beside, and the unit forms real golds and
models write still score 1. Where the rules cannot read the words the pair is uncertain: wrong
by default, the judge's where one is configured."""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.math import MathReward
from rewards.math._compare import compare_local
from rewards.math._normalize import UNCERTAIN

# (answer, gold: mostly the bare number the answer writes words beside): each must score 0.
CHANGES_THE_VALUE = [
    # another currency, a sub-unit, an SI prefix (1000x), a magnitude before a currency sign
    ("\u20ac5", "\\$5"), ("\\$5", "5\\text{ \u20ac}"), ("5\\text{ cents}", "\\$5"),
    ("5\\text{ kilowatts}", "5\\text{ W}"), ("5\\text{ mA}", "5\\text{ A}"), ("5\\text{ M}\\$", "5"),
    # fraction words from any ordinal
    ("3\\text{ halves}", "3"), ("2\\text{ thirds}", "2"), ("3\\text{ quarters}", "3"),
    ("5 fifths", "5"), ("5\\text{ sevenths}", "5"), ("7\\text{ hundredths}", "7"),
    ("5\\text{ tenths}", "5"), ("5\\text{ thousandths}", "5"), ("5\\text{ millionths}", "5"),
    ("\\text{half of } 10", "10"), ("5\\text{ half}", "5"),
    # magnitude names and abbreviations, short scale and Indian
    ("5\\text{ lakh}", "5"), ("5\\text{ lakhs}", "5"), ("5\\text{ crore}", "5"),
    ("5\\text{ crores}", "5"), ("5\\text{k}", "5"), ("5\\text{ k}", "5"), ("5k", "5"),
    ("5\\text{ K}", "5"), ("5\\text{ mn}", "5"), ("5\\text{ bn}", "5"), ("5\\text{ M}", "5"),
    ("5\\text{ B}", "5"), ("5 million", "5"), ("5\\text{ billion}", "5"),
    ("5\\text{ trillion}", "5"), ("5\\text{ thousand}", "5"), ("5\\text{ hundred}", "5"),
    ("5\\text{ hundreds}", "5"), ("5\\text{ tens}", "5"), ("5\\text{ dozen}", "5"),
    ("5\\text{ score}", "5"), ("5 gross", "5"), ("5\\text{ pairs}", "5"),
    # operation words
    ("3\\text{ factorial}", "3"), ("3\\text{ squared}", "3"), ("3\\text{ cubed}", "3"),
    ("5\\text{ cube}", "5"), ("5\\text{ times}", "5"), ("\\text{double } 5", "5"),
    ("5\\text{ twice}", "5"), ("5\\text{ plus}", "5"), ("5\\text{ minus}", "5"),
    ("5\\text{ inverse}", "5"), ("5\\text{ reciprocal}", "5"),
    ("5 \\text{ to the power } 2", "5"),
    # sign words and commands
    ("5\\text{ (negative)}", "5"), ("5\\text{ negative}", "5"), ("\\text{negative } 5", "5"),
    ("\\text{minus } 5", "5"), ("\\neg 5", "5"), ("\\lnot 5", "5"),
    # the imaginary unit, qualifiers, approximations
    ("2\\mathrm{i}", "2"), ("10\\text{ or more}", "10"), ("\\text{at least } 10", "10"),
    ("5\\text{ approx}", "5"), ("5\\text{ roughly}", "5"),
    # a percent sign or word on one side of a fractional value
    ("7.2\\text{ percent}", "7.2"), ("7.2 per cent", "7.2"), ("0.5\\%", "0.5"),
    ("7.2", "7.2\\%"),
    # a word nobody listed: not a unit, so not dropped; in any markup, case or script
    ("5\\text{ zorblaxes}", "5"), ("5\\text{ ish}", "5"), ("5\\text{ HALVES}", "5"),
    ("5\\mbox{ halves}", "5"), ("5\\operatorname{halves}", "5"), ("5\\textnormal{ lakh}", "5"),
    ("5\\text{ половина}", "5"), ("5\\text{万}", "5"), ("5 一半", "5"),
    # another unit than the gold's
    ("5\\text{ cm}", "5\\text{ m}"), ("5 \\text{ dollars}", "5 \\text{ cents}"),
    ("2 minutes", "2 \\text{ hours}"),
]

# (answer, gold): each must score 1.
KEEPS_THE_VALUE = [
    ("12\\text{ cm}", "12"), ("12 cm", "12"), ("12\\text{ meters}", "12"), ("5 \\mathrm{~m}", "5"),
    ("20 cm^{2}", "20"), ("20\\text{ cm}^2", "20"), ("12", "12 \\text{ cm}"),
    ("20", "20 $cm^{2}$"), ("3 cups of flour", "3"), ("40 dollars", "40"), ("\\$40", "40"),
    ("18\\text{ apples}", "18"), ("9", "9 (apples)"), ("9 apples", "9 (apples)"),
    ("5 zorblaxes", "5 (zorblaxes)"), ("15000", "15,000 \\, \\text{kcal m}^{-2} \\text{ yr}^{-1}"),
    ("60\\text{ mph}", "60"), ("5\\text{ km/h}", "5"), ("45\\text{ degrees}", "45^\\circ"),
    ("5\\text{ square units}", "5"), ("5\\text{ sq ft}", "5"), ("25\\% \\text{ per year}", "25\\%"),
    ("7.2 percent", "7.2\\%"), ("28 pct", "28\\%"), ("2 hours", "2"), ("12 ways", "12"),
    ("125\\textnormal{ miles}", "$125$ miles"),
    # the gold's unit, spelled another way
    ("5 meters", "5 m"), ("20 square centimeters", "20 \\text{ cm}^2"), ("2 h", "2 hours"),
    ("5\\text{ s}", "5 \\text{ seconds}"), ("40 dollars", "40 \\text{ USD}"),
    # magnitude names are numbers
    ("5\\text{ lakh}", "500000"), ("2\\text{ crores}", "20000000"), ("5 million", "5000000"),
    ("3 \\text{ hundred thousand}", "300000"), ("2 dozen", "24"),
    # a currency sign of the gold's currency, or where the gold names none; a prefixed unit
    # spelled out; a currency sign does not constrain another kind of unit
    ("\u20ac5", "5"), ("5\u20ac", "5"), ("5\\text{ euros}", "\u20ac5"), ("\u00a55", "5\\text{ yuan}"),
    ("\\$5", "5\\text{ dollars}"), ("\\$5\\text{ per hour}", "\\$5"), ("5\\text{ million}\\$", "5000000"),
    ("5\\text{ kilowatts}", "5\\text{ kW}"), ("3\\text{ m of fabric}", "3"),
    ("10\\text{ m/s\u00b2}", "10\\text{ m/s}^2"), ("101_{\\text{two}}", "101_2"),
]


def _scores(reward: MathReward, pairs: list[tuple[str, str]]) -> list[float | None]:
    samples = [Sample("q", f"The answer is $\\boxed{{{answer}}}$.", reference=gold)
               for answer, gold in pairs]
    return [score.value for score in reward.score(samples)]


def test_words_that_change_the_value_are_never_dropped(math_reward):
    scores = _scores(math_reward, CHANGES_THE_VALUE)
    accepted = [pair for pair, score in zip(CHANGES_THE_VALUE, scores) if score != 0.0]
    assert not accepted


def test_units_currencies_and_counted_nouns_are_still_dropped(math_reward):
    scores = _scores(math_reward, KEEPS_THE_VALUE)
    rejected = [pair for pair, score in zip(KEEPS_THE_VALUE, scores) if score != 1.0]
    assert not rejected


@pytest.mark.parametrize("answer,gold", [
    ("3\\text{ halves}", "3"), ("5\\text{ zorblaxes}", "5"), ("\\neg 5", "5"),
    ("3\\text{ factorial}", "3"),
])
def test_an_unread_word_is_uncertain_and_decided_in_this_process(answer, gold):
    verdict = compare_local(answer, gold)
    assert not isinstance(verdict, tuple), verdict  # no worker, no timeout
    assert verdict.reason == "wrong" and verdict.detail.startswith(UNCERTAIN)


def test_a_sentence_around_the_value_is_not_read_word_by_word():
    """More than three unknown words are a sentence: math-verify's rules read its value (its
    own table test: "Jane started growing Sphere 3 hours ago" answers 3)."""
    verdict = compare_local("Jane started growing Sphere 3 hours ago", "3")
    assert isinstance(verdict, tuple) or not verdict.detail.startswith(UNCERTAIN)
    # the words known to change a value still count in a sentence
    verdict = compare_local("Jane grew the Sphere 3 halves of an hour ago", "3")
    assert not isinstance(verdict, tuple) and verdict.reason == "wrong"


class _SaysEqual:
    """A judge engine that says "equal" to every prompt (P(yes) = 0.99), and counts them."""

    model = "says-equal"

    def __init__(self) -> None:
        self.asked = 0

    def tokenize(self, prompt, *, add_special_tokens: bool = True) -> list[int]:
        labels = {"Yes": [1], " Yes": [1], "No": [2], " No": [2]}
        return labels.get(prompt, [3, 4]) if isinstance(prompt, str) else [3, 4]

    def next_token_logprobs(self, prompts, candidates):
        self.asked += len(prompts)
        return [{c: (-0.01 if c.strip() == "Yes" else -4.6) for c in candidates}
                for _ in prompts]


@pytest.mark.parametrize("ask", ["wrong_or_undecided", "undecided"])
def test_an_uncertain_pair_is_the_judges_to_decide(ask):
    engine = _SaysEqual()
    reward = MathReward(judge={"ask": ask}, judge_engine=engine, timeout=2.0, workers=2)
    [score] = reward.score([Sample("Half of 3?", "$\\boxed{3\\text{ halves}}$",
                                   reference="\\frac{3}{2}")])
    assert score.reason == "judge_equal" and engine.asked == 2
    assert score.parts["math/rule"] == 0.0


@pytest.mark.parametrize(("question", "answer", "value"), [
    ("How many up quarks does a proton contain?", "\\boxed{2 \\text{ up quarks}}", 1.0),
    ("How many cookies did she bake?", "\\boxed{18 \\text{ cookies}}", 1.0),
    ("How many cookies did she bake?", "\\boxed{18}", 1.0),
    # not named by the question: uncertain, wrong without a judge
    ("How many cookies did she bake?", "\\boxed{18 \\text{ zorblaxes}}", 0.0),
    # a value word stays meaning even when the question writes it
    ("Cut the cake in halves: how many pieces?", "\\boxed{18 \\text{ halves}}", 0.0),
    ("How many lakh rupees?", "\\boxed{18 \\text{ lakh}}", 0.0),
])
def test_the_questions_nouns_may_stand_beside_the_value(question, answer, value):
    from rewards import Sample
    from rewards.math import MathReward

    gold = "2" if "quarks" in question else "18"
    (score,) = MathReward().score([Sample(question, f"So the answer is {answer}.",
                                          reference=gold)])
    assert score.value == value, score
