"""The math verifier on the gold answers of public math benchmarks, as distributed
(`tests/math/data/real_golds.json`: MATH, MATH-500, GSM8K, AIME, AMC, OlympiadBench, Minerva,
College Math, Gaokao, SVAMP, MAWPS, ASDiv, GSM-Hard ...), against math-verify in the same run,
and against a grader written here on the ideas of Qwen2.5-Math's (`qwen_style_scores`).

    python benchmarks/math_real_golds.py                 # 200 golds per dataset
    python benchmarks/math_real_golds.py --quick         # 40 golds per dataset
    python benchmarks/math_real_golds.py --all           # every gold (30,427; long)
    python benchmarks/math_real_golds.py --out dis.jsonl # also write every disagreement

For each gold: the gold boxed as the answer, and the gold in its own form after "The final
answer is", Minerva's "Final Answer: ... I hope it is correct.", `####`, `**Answer:**` and
"Answer:" (each must score 1, or abstain where the gold is not an answer; never 0); then,
where the gold's shape allows a label by construction (integers, fractions, decimals,
scientific notation, lists of numbers, degrees, units), the equivalent forms a model writes
and near-miss wrong forms. Labels come from this file's own reading of the gold (plain
`Fraction` arithmetic on a few strict shapes), not from the verifier under test.

Prints, per form, how often each verifier agrees with the label, every class of disagreement
(form, the two verdicts) with its count and an example, and the time each verifier took."""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import Report

from rewards import Sample
from rewards.math import MathReward, extract_boxed, prepare_reference

DATA = Path(__file__).resolve().parents[1] / "tests" / "math" / "data" / "real_golds.json"


@dataclass(frozen=True)
class GoldPair:
    completion: str
    gold: object
    label: bool | None
    """True: must score 1; False: must score 0; None: the gold itself (1, or abstain)."""
    dataset: str
    form: str
    gold_id: str = ""


def load_golds(per_dataset: int | None = None) -> list[tuple[str, str, object]]:
    """(dataset, id, gold) for the first `per_dataset` golds of each dataset (all: None)."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    return [(d["name"], gold_id, gold) for d in data["datasets"]
            for gold_id, gold in d["golds"][:per_dataset]]


# --- the gold's value, read independently of rewards.math ------------------------------------

_INTEGER = re.compile(r"^-?\d+$")
_MATH_THOUSANDS = re.compile(r"^-?\d{1,3}(?:(?:,\\!|\{,\})\d{3})+$")
_DECIMAL = re.compile(r"^-?\d+\.\d+$")
_FRACTION = re.compile(r"^(-?)\\[dt]?frac\{(\d+)\}\{(\d+)\}$")
_SCIENTIFIC = re.compile(r"^(-?\d+(?:\.\d+)?)e([-+]?\d+)$")
_LIST = re.compile(r"^-?\d+(?:, ?-?\d+)+$")
_THOUSANDS = re.compile(r"^-?[1-9]\d{0,2}(?:,\d{3})+$")  # 15,600 is a number, not a pair
_DEGREES = re.compile(r"^(-?\d+(?:\.\d+)?)\^\{?\\circ\}?$")
_UNIT = re.compile(r"^(-?\d+(?:\.\d+)?)\s*\\(?:text|mbox)\{\s*([a-z]+(?: [a-z]+)?)\}(\^\{?[23]\}?)?$")


def _plain(gold: object) -> str | None:
    if isinstance(gold, bool):
        return None
    if isinstance(gold, (int, float)):
        return str(int(gold)) if float(gold).is_integer() else repr(gold)
    text = str(gold).strip()
    if text.startswith("$") and text.endswith("$") and text.count("$") == 2:
        text = text[1:-1].strip()
    return text


def _decimal_text(value: Fraction, places: int) -> str:
    rounded = round(value, places)
    text = f"{float(rounded):.{places}f}"
    return "0." + "0" * places if text.startswith("-0.") and rounded == 0 else text


def _number_forms(value: Fraction, exact: bool) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(right, wrong) answers for a number gold; `exact`: the gold is not a rounded decimal."""
    right: list[tuple[str, str]] = []
    wrong: list[tuple[str, str]] = [("plus_one", _format(value + 1)),
                                    ("or_more", f"{_format(value)}\\text{{ or more}}")]
    if value != 0:
        wrong.append(("negated", _format(-value)))
        wrong.append(("thousand_word", f"{_format(value)}\\text{{ thousand}}"))
    right.append(("x_equals", f"x = {_format(value)}"))
    right.append(("unit", f"{_format(value)} \\text{{ cm}}"))
    if value.denominator == 1:
        n = value.numerator
        right.append(("text_wrapper", f"\\text{{{n}}}"))
        right.append(("trailing_zero", f"{n}.0"))
        right.append(("degree_sign", f"{n}^\\circ"))
        if abs(n) >= 1000:
            right.append(("thin_space_thousands", f"{n:,}".replace(",", "\\,")))
        if abs(n) >= 1000:
            right.append(("thousands_commas", f"{n:,}"))
            right.append(("math_thousands", f"{n:,}".replace(",", ",\\!")))
            right.append(("no_separator", str(n)))
    elif exact:
        a, b = abs(value.numerator), value.denominator
        sign = "-" if value < 0 else ""
        right.append(("dfrac", f"{sign}\\dfrac{{{a}}}{{{b}}}"))
        right.append(("slash", f"{sign}{a}/{b}"))
        if abs(value) >= Fraction(1, 200):
            right.append(("six_places", _decimal_text(value, 6)))
        if all(p in (2, 5) for p in _prime_factors(b)) and b <= 10 ** 6:
            right.append(("exact_decimal", format(Decimal(value.numerator) / Decimal(b), "f")))
        two = Fraction(_decimal_text(value, 2))
        if two != 0 and abs(two - value) > Fraction(1, 10_000) * abs(value):
            wrong.append(("two_places", _decimal_text(value, 2)))
        if a > b:
            right.append(("mixed_number", f"{sign}{a // b}\\frac{{{a % b}}}{{{b}}}"))
        if a != b:
            wrong.append(("reciprocal", f"{sign}\\frac{{{b}}}{{{a}}}"))
        if value < 0:
            right.append(("sign_in_numerator", f"\\frac{{-{a}}}{{{b}}}"))
        if a < 10 and b < 10:
            right.append(("frac_no_braces", f"{sign}\\frac{a}{b}"))
        if value.denominator in (2, 4, 5, 8) and abs(value) < 1:
            right.append(("no_leading_zero", f"{sign}{format(Decimal(a) / Decimal(b), 'f')[1:]}"))
    return right, wrong


def _prime_factors(n: int) -> set[int]:
    factors, p = set(), 2
    while p * p <= n:
        while n % p == 0:
            factors.add(p)
            n //= p
        p += 1
    return factors | ({n} if n > 1 else set())


def _format(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def variants(gold: object) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(right, wrong) answers (form name, answer) whose label follows from the gold's shape,
    and the gold spelled otherwise in LaTeX (`\\dfrac`, `\\left(`, `\\displaystyle`)."""
    right, wrong = _shape_variants(gold)
    text = _plain(gold)
    if text is not None and not isinstance(gold, (int, float)) and "$" not in text:
        written = {answer for _, answer in right}
        right = right + [form for form in _spellings(text) if form[1] not in written]
    return right, wrong


def _spellings(text: str) -> list[tuple[str, str]]:
    """The gold in other LaTeX spellings of the same thing: equal by LaTeX's own meaning."""
    forms = []
    if "\\frac" in text:
        forms.append(("dfrac_spelling", text.replace("\\frac", "\\dfrac")))
    if "\\" in text and "\n" not in text and "&" not in text:
        forms.append(("displaystyle", "\\displaystyle " + text))
    delimited = _left_right(text)
    if delimited is not None:
        forms.append(("left_right", delimited))
    return forms


def _left_right(text: str) -> str | None:
    """`(1, 2]` as `\\left(1, 2\\right]`: every bracket sized; None where a bracket is not a
    delimiter (`\\sqrt[3]`, text, already sized, a set's `\\{`) or they do not pair up."""
    if ("\\left" in text or "\\right" in text or "\\sqrt[" in text or "\\text" in text
            or "\\mbox" in text or "\\mathrm" in text or "\\begin" in text):
        return None
    out, depth = [], 0
    for i, ch in enumerate(text):
        escaped = i > 0 and text[i - 1] == "\\"
        if ch in "([" and not escaped:
            out.append("\\left" + ch)
            depth += 1
        elif ch in ")]" and not escaped:
            out.append("\\right" + ch)
            depth -= 1
            if depth < 0:
                return None
        else:
            out.append(ch)
    return "".join(out) if depth == 0 and out != list(text) else None


_SQRT = re.compile(r"^(-?)(\d*)\\sqrt\{(\d+)\}$")
_FRAC_SQRT = re.compile(r"^(-?)\\frac\{(\d*)\\sqrt\{(\d+)\}\}\{(\d+)\}$")
_PI = re.compile(r"^(-?)(?:(\d*)\\pi|\\frac\{(\d*)\\pi\}\{(\d+)\})$")
_INTERVAL = re.compile(r"^([\[(])\s*(-?\d+|-\\infty)\s*,\s*(-?\d+|\\infty)\s*([\])])$")
_TUPLE = re.compile(r"^\((-?\d+(?:,\s*-?\d+){2,})\)$")
# A polynomial in x with integer coefficients that ends in a constant term: `3x^2-5x+7`.
_POLYNOMIAL = re.compile(r"^(-?\d*x(?:\^\{?\d+\}?)?(?:\s*[-+]\s*\d*x(?:\^\{?\d+\}?)?)*)"
                         r"\s*([-+]\s*\d+)$")
_TERM = re.compile(r"[-+]?\s*\d*x(?:\^\{?\d+\}?)?|[-+]?\s*\d+")
_PAREN_UNIT = re.compile(r"^(-?\d+(?:\.\d+)?) \(([a-z]{3,}(?: [a-z]+)?)\)$")
_PERCENT = re.compile(r"^(\d+(?:\.\d+)?)\s*\\?%$")
_CURRENCY = re.compile(r"^\\\$\s*(\d+(?:\.\d{2})?)$")
_YES_NO = re.compile(r"^(?:\\text\{\s*)?(yes|no|true|false)(?:\s*\})?$", re.IGNORECASE)


def _shape_variants(gold: object) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(right, wrong) answers whose label follows from the gold's shape."""
    text = _plain(gold)
    if text is None:
        return [], []
    if isinstance(gold, float) and not gold.is_integer():  # a number column
        written = Decimal(repr(gold))
        if "e" in repr(gold):  # 1e-07: its honest forms, never `e - 7`
            mantissa, exponent = repr(gold).split("e")
            right = [("power_of_ten", f"{mantissa} \\times 10^{{{int(exponent)}}}"),
                     ("positional", format(written, "f"))]
        else:
            right = [("trailing_zero", repr(gold) + "0")]
        return right, [("times_ten", format(written * 10, "f"))]
    if _INTEGER.match(text) or _MATH_THOUSANDS.match(text):
        digits = text.replace(",\\!", "").replace("{,}", "")
        return _number_forms(Fraction(int(digits)), True)
    fraction = _FRACTION.match(text)
    if fraction:
        sign, a, b = fraction.groups()
        if int(b) == 0:
            return [], []
        value = Fraction(int(a), int(b)) * (-1 if sign else 1)
        return _number_forms(value, True)
    if _DECIMAL.match(text):
        return ([("trailing_zero", text + "0"), ("x_equals", f"x = {text}")],
                [("plus_one", _decimal_plus_one(text)), ("point_dropped", text.replace(".", ""))])
    scientific = _SCIENTIFIC.match(text)
    if scientific:
        mantissa, exponent = scientific.groups()
        return ([("power_of_ten", f"{mantissa} \\times 10^{{{int(exponent)}}}")],
                [("exponent_off", f"{mantissa} \\times 10^{{{int(exponent) + 1}}}")])
    if _LIST.match(text) and not _THOUSANDS.match(text):
        items = [item.strip() for item in text.split(",")]
        right = [("reversed", ", ".join(reversed(items))), ("spaced", ", ".join(items))]
        wrong = [("one_missing", ", ".join(items[:-1])),
                 ("one_changed", ", ".join([str(int(items[0]) + 1)] + items[1:]))]
        if len(set(items)) != len(items) or len(items) < 2 or str(int(items[0]) + 1) in items:
            wrong = wrong[:1] if len(set(items[:-1])) != len(set(items)) else []
        return right, wrong
    degrees = _DEGREES.match(text)
    if degrees:
        number = degrees.group(1)
        return ([("no_degree_sign", number), ("degree_word", f"{number} \\text{{ degrees}}")],
                [("plus_one", _decimal_plus_one(number) if "." in number else str(int(number) + 1))])
    unit = _UNIT.match(text)
    if unit and unit.group(2).split()[0] not in ("or", "and", "thousand", "million", "i", "e"):
        number = unit.group(1)
        return ([("number_alone", number)],
                [("plus_one", _decimal_plus_one(number) if "." in number else str(int(number) + 1))])
    unit = _PAREN_UNIT.match(text)
    if unit:  # ASDiv: `9 (apples)`
        number = unit.group(1)
        return ([("number_alone", number), ("unit_word", f"{number} {unit.group(2)}")],
                [("plus_one", _decimal_plus_one(number) if "." in number else str(int(number) + 1))])
    return _radical_and_set_variants(text)


def _radical_and_set_variants(text: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """`a\\sqrt{n}`, `\\frac{a\\sqrt{n}}{d}`, `k\\pi`, `\\frac{k\\pi}{d}`, an interval of
    numbers, a tuple of three or more numbers: forms whose label is plain arithmetic."""
    found = _SQRT.match(text)
    if found and int(found.group(3)) > 1:
        sign, a, n = found.group(1), int(found.group(2) or 1), int(found.group(3))
        return ([("sqrt_absorbed", f"{sign}\\sqrt{{{a * a * n}}}"),
                 ("cdot_sqrt", f"{sign}{a} \\cdot \\sqrt{{{n}}}"), ("x_equals", f"x = {text}")],
                [("coefficient_plus_one", f"{sign}{a + 1}\\sqrt{{{n}}}"),
                 ("negated", f"{'' if sign else '-'}{a if a != 1 else ''}\\sqrt{{{n}}}")])
    found = _FRAC_SQRT.match(text)
    if found and int(found.group(3)) > 1 and int(found.group(4)) > 1:
        sign, a, n, d = found.group(1), found.group(2), found.group(3), int(found.group(4))
        return ([("sqrt_over", f"{sign}{a}\\sqrt{{{n}}}/{d}"),
                 ("fraction_times_sqrt", f"{sign}\\frac{{{a or 1}}}{{{d}}}\\sqrt{{{n}}}")],
                [("denominator_plus_one", f"{sign}\\frac{{{a}\\sqrt{{{n}}}}}{{{d + 1}}}"),
                 ("negated", f"{'' if sign else '-'}\\frac{{{a}\\sqrt{{{n}}}}}{{{d}}}")])
    found = _PI.match(text)
    if found:
        sign = found.group(1)
        k = int(found.group(2) or found.group(3) or 1)
        d = int(found.group(4) or 1)
        if d > 1:
            right = [("pi_factored", f"{sign}\\frac{{{k}}}{{{d}}}\\pi"),
                     ("pi_slash", f"{sign}{k if k != 1 else ''}\\pi/{d}")]
            wrong = [("denominator_plus_one", f"{sign}\\frac{{{k}\\pi}}{{{d + 1}}}")]
        else:
            right = [("pi_cdot", f"{sign}{k} \\cdot \\pi")]
            wrong = [("coefficient_plus_one", f"{sign}{k + 1}\\pi")]
        return right + [("x_equals", f"x = {text}")], wrong + [
            ("negated", ("" if sign else "-") + text.lstrip("-"))]
    found = _INTERVAL.match(text)
    if found:
        left, low, high, right_end = found.groups()
        flip = {"[": "(", "(": "[", "]": ")", ")": "]"}
        wrong = []
        if "infty" not in low:
            wrong.append(("bracket_flipped", f"{flip[left]}{low}, {high}{right_end}"))
            wrong.append(("low_minus_one", f"{left}{int(low) - 1}, {high}{right_end}"))
        elif "infty" not in high:
            wrong.append(("bracket_flipped", f"{left}{low}, {high}{flip[right_end]}"))
        return [("spaced", f"{left} {low} , {high} {right_end}")], wrong
    found = _POLYNOMIAL.match(text)
    if found and found.group(2):
        terms = _TERM.findall(text)
        reordered = "".join(reversed([t if t[0] in "+-" else "+" + t for t in terms])).lstrip("+")
        constant = int(found.group(2).replace(" ", ""))
        changed = text[:found.start(2)] + f"{constant + 1:+d}"
        return ([("terms_reordered", reordered), ("y_equals", f"y = {text}")],
                [("constant_plus_one", changed)])
    found = _PERCENT.match(text)
    if found:
        number = Decimal(found.group(1))
        return ([("as_fraction_of_one", format(number / 100, "f")), ("percent_word",
                 f"{found.group(1)} percent")],
                [("percent_plus_one", f"{number + 1}\\%"), ("percent_times_ten",
                 f"{format(number * 10, 'f')}\\%")])
    found = _CURRENCY.match(text)
    if found:
        amount = found.group(1)
        plus = _decimal_plus_one(amount) if "." in amount else str(int(amount) + 1)
        return ([("no_currency_sign", amount), ("dollars_word", f"{amount} dollars"),
                 ("cents", f"\\${amount}.00" if "." not in amount else f"\\${amount}0")],
                [("currency_plus_one", f"\\${plus}")])
    found = _YES_NO.match(text)
    if found:
        word = found.group(1).lower()
        other = {"yes": "No", "no": "Yes", "true": "False", "false": "True"}[word]
        return ([("text_wrapper", f"\\text{{{word.capitalize()}}}"), ("lower_case", word)],
                [("opposite", f"\\text{{{other}}}")])
    found = _TUPLE.match(text)
    if found:
        items = [item.strip() for item in found.group(1).split(",")]
        wrong = [("last_plus_one", f"({', '.join(items[:-1] + [str(int(items[-1]) + 1)])})")]
        if items[0] != items[1]:
            swapped = [items[1], items[0]] + items[2:]
            wrong.append(("order_swapped", f"({', '.join(swapped)})"))
        return [("spaced", f"( {' , '.join(items)} )")], wrong
    return [], []


def _places(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


def _decimal_plus_one(text: str) -> str:
    return _decimal_text(Fraction(text) + 1, _places(text))


# How real completions state a final answer, each around the gold in its own form (Minerva's
# and Qwen's prompts, GSM8K's `####`, markdown): every one must read what a box reads.
LAYOUTS = {
    "gold_own_form": "The final answer is {own}.",
    "gold_minerva": "So we are done.\nFinal Answer: The final answer is {own}. I hope it is correct.",
    "gold_hashes": "So we are done.\n#### {own}",
    "gold_bold_answer": "So we are done.\n\n**Answer:** {own}",
    "gold_answer_colon": "So we are done.\nAnswer: {own}",
}


def make_pairs(golds: list[tuple[str, str, object]]) -> list[GoldPair]:
    pairs = []
    for dataset, gold_id, gold in golds:
        text = _plain(gold)
        if text is None:
            continue
        answer = text if "$" not in text else prepare_reference(gold)
        if answer is not None:  # None: a gold read whole, stated in the layouts below
            pairs.append(GoldPair(f"The final answer is $\\boxed{{{answer}}}$.", gold, None,
                                  dataset, "gold_boxed", gold_id))
        raw = str(gold).strip() if not isinstance(gold, (int, float)) else text
        own = raw if "$" in raw else f"$${raw}$$" if "\n" in raw else f"${raw}$"
        for form, layout in LAYOUTS.items():
            pairs.append(GoldPair(layout.format(own=own), gold, None, dataset, form, gold_id))
        right, wrong = variants(gold)
        for label, forms in ((True, right), (False, wrong)):
            for form, answer in forms:
                pairs.append(GoldPair(f"So the answer is $\\boxed{{{answer}}}$.", gold, label,
                                      dataset, form, gold_id))
    return pairs


# --- the two verifiers -----------------------------------------------------------------------

def ours_scores(pairs: list[GoldPair], reward: MathReward | None = None,
                batch_size: int = 512) -> list[float | None]:
    reward = reward or MathReward()
    values: list[float | None] = []
    for i in range(0, len(pairs), batch_size):
        chunk = pairs[i:i + batch_size]
        scores = reward.score([Sample("p", p.completion, reference=p.gold, domain="math")
                               for p in chunk])
        values += [s.value for s in scores]
    return values


def math_verify_scores(pairs: list[GoldPair]) -> list[float]:
    """`verify(parse(gold), parse(completion))`, the gold wrapped as `$gold$` unless it
    carries math delimiters (a number column as its `str`). Main thread: signal timeouts."""
    from math_verify import parse, verify

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    values = []
    for pair in pairs:
        gold = str(pair.gold) if not isinstance(pair.gold, str) else pair.gold
        if not any(d in gold for d in ("$", "\\(", "\\[", "\\boxed")):
            gold = f"${gold}$"
        try:
            values.append(float(bool(verify(parse(gold), parse(pair.completion)))))
        except Exception:  # noqa: BLE001 (a peer crashing on an input scores it 0)
            values.append(0.0)
    return values


# --- the ideas of Qwen2.5-Math's grader (evaluation/grader.py), written anew here -----------
# Its `math_equal`: the last box's content, normalized by string rules (text wrappers, units,
# `\\!`, degrees, dollars, percent, `\\dfrac`, a leading `x=` dropped); two numbers equal
# within a relative 1e-4, the gold also tried as a percent (x/100, x*100); else equal strings;
# else sympy simplifying the difference to 0, or their values within a relative 1e-4. A
# sketch of its logic, not its code (lists compare in order, as it compares them).

_QWEN_TEXT = re.compile(r"\\(?:text|mbox|mathrm)\s*\{([^{}]*)\}")
_QWEN_DROP = re.compile(r"\\!|\\left|\\right|\^\s*\{?\\circ\}?|\\\$|\\%|%|\\,|\s+")


def _qwen_normalize(text: str) -> str:
    text = _QWEN_TEXT.sub(lambda m: "" if re.fullmatch(r"\s*[a-zA-Z ]+", m.group(1))
                          and re.search(r"\d", text) else m.group(1), text)
    text = _QWEN_DROP.sub("", text).replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
    text = re.sub(r"^[a-zA-Z]=", "", text.strip("$. "))
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", text):
        text = text.replace(",", "")
    return text


def _qwen_answer(completion: str) -> str:
    found = extract_boxed(completion)
    if found is None:
        found = completion.rsplit("answer is", 1)[-1]
    return _qwen_normalize(found)


def qwen_style_scores(pairs: list[GoldPair]) -> list[float]:
    """The verdict of a grader built on Qwen2.5-Math's ideas (see above), per pair."""
    from math_verify import parse

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    values = []
    for pair in pairs:
        gold = _qwen_normalize(prepare_reference(pair.gold) or "")
        pred = _qwen_answer(pair.completion)
        values.append(float(_qwen_equal(pred, gold, parse)))
    return values


def _qwen_equal(pred: str, gold: str, parse) -> bool:
    import math

    try:
        p, g = float(pred), float(gold)
        return any(math.isclose(p, ref, rel_tol=1e-4) for ref in (g, g / 100, g * 100))
    except ValueError:
        pass
    if pred == gold:
        return True
    try:
        import sympy

        a, b = parse(f"${pred}$"), parse(f"${gold}$")
        if not a or not b:
            return False
        if sympy.simplify(a[0] - b[0]) == 0:
            return True
        return math.isclose(float(sympy.N(a[0])), float(sympy.N(b[0])), rel_tol=1e-4)
    except Exception:  # noqa: BLE001 (sets, relations: not a difference; the grader says no)
        return False


def _right(value: float | None, label: bool | None) -> bool:
    """A verdict agrees with the label: 1 for right forms, 0 for wrong ones, and for the gold
    itself 1 or an abstention (never 0)."""
    if label is None:
        return value != 0.0
    return (value == 1.0) == label


def report(pairs: list[GoldPair], ours: list[float | None], theirs: list[float],
           qwen: list[float] | None = None) -> dict:
    qwen = qwen if qwen is not None else [float("nan")] * len(pairs)
    by_form: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for p, o, t, q in zip(pairs, ours, theirs, qwen):
        row = by_form[p.form]
        row[0] += 1
        row[1] += _right(o, p.label)
        row[2] += _right(t, p.label)
        row[3] += _right(q, p.label)
    print(f"{'form':<18} {'label':<10} {'pairs':>6} {'rewards.math':>13} {'math-verify':>12} "
          f"{'Qwen-style':>11}")
    labels = {p.form: p.label for p in pairs}
    for form, (n, o, t, q) in sorted(by_form.items(), key=lambda i: (str(labels[i[0]]), i[0])):
        label = {True: "right", False: "wrong", None: "gold"}[labels[form]]
        print(f"{form:<18} {label:<10} {n:>6} {o / n:>13.4f} {t / n:>12.4f} {q / n:>11.4f}")
    n = len(pairs)
    ours_ok = sum(_right(o, p.label) for p, o in zip(pairs, ours))
    theirs_ok = sum(_right(t, p.label) for p, t in zip(pairs, theirs))
    qwen_ok = sum(_right(q, p.label) for p, q in zip(pairs, qwen))
    print(f"\nall {n} pairs: rewards.math {ours_ok / n:.4f} ({n - ours_ok} errors), "
          f"math-verify {theirs_ok / n:.4f} ({n - theirs_ok} errors), "
          f"Qwen-style grader {qwen_ok / n:.4f} ({n - qwen_ok} errors)")
    qwen_classes = Counter(p.form for p, o, q in zip(pairs, ours, qwen)
                           if _right(o, p.label) != _right(q, p.label))
    print(f"disagreements with the Qwen-style grader on the label, by form: "
          f"{dict(qwen_classes.most_common())}")
    zero_golds = Counter(p.dataset for p, o in zip(pairs, ours) if p.label is None and o == 0.0)
    print(f"golds scoring 0 against themselves: rewards.math {sum(zero_golds.values())} "
          f"{dict(zero_golds)}; math-verify "
          f"{sum(1 for p, t in zip(pairs, theirs) if p.label is None and t == 0.0)}")
    classes: dict[tuple[str, bool, bool], list[int]] = defaultdict(list)
    for i, (p, o, t) in enumerate(zip(pairs, ours, theirs)):
        if _right(o, p.label) != _right(t, p.label):
            classes[(p.form, _right(o, p.label), _right(t, p.label))].append(i)
    print(f"\ndisagreements on the label: {sum(map(len, classes.values()))} in {len(classes)} "
          f"classes (form, which verifier the label backs)")
    for (form, o_right, _), members in sorted(classes.items(), key=lambda i: -len(i[1])):
        p = pairs[members[0]]
        datasets = Counter(pairs[i].dataset for i in members)
        print(f"  [{len(members)}] {form}: {'rewards.math' if o_right else 'math-verify'} right; "
              f"{', '.join(f'{d} {c}' for d, c in datasets.most_common(4))}; e.g. gold "
              f"{p.gold!r}, answer {p.completion[:90]!r}")
    return {"pairs": n, "ours_right": ours_ok, "math_verify_right": theirs_ok,
            "golds_zero": sum(zero_golds.values()), "classes": {f"{k[0]}|{k[1]}": len(v)
                                                                 for k, v in classes.items()}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-dataset", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="40 golds per dataset")
    parser.add_argument("--all", action="store_true", help="every gold")
    parser.add_argument("--out", type=Path, help="write every disagreement here as JSONL")
    args = parser.parse_args()
    summary = Report()
    per = None if args.all else 40 if args.quick else args.per_dataset
    golds = load_golds(per)
    pairs = make_pairs(golds)
    print(f"{len(golds)} golds of {len({d for d, _, _ in golds})} datasets -> {len(pairs)} pairs")
    reward = MathReward()
    reward.warm_up()
    start = time.perf_counter()
    ours = ours_scores(pairs, reward)
    ours_s = time.perf_counter() - start
    start = time.perf_counter()
    theirs = math_verify_scores(pairs)
    theirs_s = time.perf_counter() - start
    qwen = qwen_style_scores(pairs)
    print(f"rewards.math {ours_s:.1f}s, math-verify {theirs_s:.1f}s "
          f"(speed ratio ours / math-verify: {theirs_s / ours_s:.1f}x)\n")
    counts = report(pairs, ours, theirs, qwen)
    if args.out:
        with args.out.open("w", encoding="utf-8") as f:
            for p, o, t in zip(pairs, ours, theirs):
                if _right(o, p.label) != _right(t, p.label):
                    f.write(json.dumps({"dataset": p.dataset, "form": p.form, "label": p.label,
                                        "ours": o, "math_verify": t, "gold": p.gold,
                                        "completion": p.completion}, ensure_ascii=False) + "\n")
        print(f"\nwrote the disagreements to {args.out}")
    summary.target("pairs right, ours - math-verify's",
                   counts["ours_right"] - counts["math_verify_right"], 0.0, unit="")
    summary.verdict("ours against the labels", counts["ours_right"], counts["pairs"],
                    "a gold scoring 0 against itself counts wrong: it rewards no completion")
    own = [o for p, o in zip(pairs, ours) if p.label is None]
    summary.target("share of golds abstaining against themselves",
                   sum(o is None for o in own) / max(len(own), 1), 0.005, unit="",
                   higher_is_better=False)
    return summary.finish()


if __name__ == "__main__":
    raise SystemExit(main())
