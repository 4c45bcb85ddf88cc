r"""Labeled (completion, gold) pairs shaped like real model output, for the math benchmarks
(`math_differential.py`, `math_throughput.py`) and the differential test.

A pair is built in two steps. A *kind* of problem draws a gold answer and named answer *forms*,
each right or wrong by construction (`\sqrt{50}` is right for `5\sqrt{2}`, `\sqrt{10}` is
wrong). A *shape* then writes the form into a completion the way models end one: reasoning
text, then `\boxed{}`, "The final answer is $X$. I hope it is correct.", `<answer>` tags,
"答案是 X", a bare `$X$` at the end, GSM8K `#### n`, "(B)" in prose, a last number in prose, or
the answer alone. Labels never depend on a verifier: only on how the pair was built.

Conventions where a reader could hesitate (the ones the project's labeled tests use):
a percent may be written as the number of percent or as the fraction (`25\%`, `25`, `0.25`);
a unit word after a number is not part of the value; `x = 5` answers `5`; roots or set
members may be listed in any order, with or without braces; an answer that lists only one of
two roots, rounds an exact value, or is off by 1 in 10^30 is wrong.

    from math_corpus import make_pairs
    pairs = make_pairs(2000, seed=0)              # every kind and shape, in equal measure
    pairs = make_pairs(2000, realistic=True)      # weighted like a math RL batch
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from math import gcd

__all__ = ["KINDS", "SHAPES", "Pair", "make_pairs", "math_verify_gold"]


@dataclass(frozen=True)
class Pair:
    completion: str
    gold: str
    correct: bool
    """The label, by construction."""
    kind: str
    """The problem kind (`fraction`, `interval_union` ...), or `no_answer`."""
    form: str
    """Which right or wrong form of the answer the completion writes (`sqrt_of_square`)."""
    shape: str
    """How the completion ends (`boxed`, `final_hope`, `gsm8k` ...)."""
    answer: str = ""
    """The answer as written inside the completion (empty when there is none)."""


Forms = list[tuple[str, str]]
Problem = tuple[str, Forms, Forms]  # gold, right forms, wrong forms


def _signed(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"- {-n}"


def _poly(b: int, c: int) -> str:
    """x^2 + bx + c, written as a person would (`x^2 - 3x + 2`, `x^2 + 4`)."""
    out = "x^2"
    if b:
        out += f" {'+' if b > 0 else '-'} {'' if abs(b) == 1 else abs(b)}x"
    if c:
        out += f" {_signed(c)}"
    return out


def _factor(r: int) -> str:
    """The factor (x - r): `(x+2)` for r = -2."""
    return f"(x{'+' if r < 0 else '-'}{abs(r)})" if r else "x"


# --- kinds ---------------------------------------------------------------------------------
# Each returns (gold, right forms, wrong forms); a form is (name, text).

def integer(rng: random.Random) -> Problem:
    n = rng.choice([rng.randint(2, 99), rng.randint(100, 999)])
    return (str(n), [("plain", str(n)), ("dollars", f"\\${n}"), ("trailing_zeros", f"{n}.00"),
                     ("text_unit", f"{n} \\text{{ apples}}")],
            [("plus_one", str(n + 1)), ("negated", str(-n)), ("doubled", str(2 * n))])


def thousands(rng: random.Random) -> Problem:
    n = rng.randint(1001, 999_999)
    if n % 1000 < 100:
        n += 123  # keep three significant digits after the comma
    c = f"{n:,}"
    swapped = f"{n // 1000:,},{str(n % 1000)[::-1]:0>3}"
    wrong = [("digits_swapped", swapped)] if swapped != c else []
    return (str(n), [("comma", c), ("braced_comma", c.replace(",", "{,}")),
                     ("thin_space", c.replace(",", "\\,")), ("plain", str(n))],
            wrong + [("off_by_thousand", f"{n + 1000:,}"), ("decimal_point", f"{n / 1000:.3f}")])


def decimal(rng: random.Random) -> Problem:
    q = rng.choice([2, 4, 5, 8, 20, 25])
    p = rng.choice([k for k in range(q + 1, 6 * q) if gcd(k, q) == 1])
    v = f"{p / q:g}"
    return (v, [("plain", v), ("trailing_zero", f"{p / q:.4f}"), ("fraction", f"\\frac{{{p}}}{{{q}}}")],
            [("digit_off", f"{p / q + 0.1:g}"), ("times_ten", f"{10 * p / q:g}"),
             ("truncated", str(p // q))])


def fraction(rng: random.Random) -> Problem:
    q = rng.choice([3, 6, 7, 9, 11, 12, 13])
    p = rng.choice([k for k in range(1, 3 * q) if gcd(k, q) == 1 and k != 1])
    return (f"\\frac{{{p}}}{{{q}}}",
            [("frac", f"\\frac{{{p}}}{{{q}}}"), ("dfrac", f"\\dfrac{{{p}}}{{{q}}}"),
             ("slash", f"{p}/{q}"), ("unreduced", f"\\frac{{{2 * p}}}{{{2 * q}}}")],
            [("reciprocal", f"\\frac{{{q}}}{{{p}}}"), ("numerator_off", f"\\frac{{{p + 1}}}{{{q}}}"),
             ("rounded_2", f"{p / q:.2f}"), ("slash_off", f"{p}/{q + 1}")])


def percent(rng: random.Random) -> Problem:
    k = rng.choice([x for x in range(5, 96) if x % 10])
    gold = rng.choice([f"{k}\\%", f"{k / 100:g}", f"{k}"])
    right = [("latex_percent", f"{k}\\%"), ("percent", f"{k}%")]
    if gold != f"{k}":  # the fraction 0.35 answers 35% or 0.35, not "35"
        right.append(("as_fraction", f"{k / 100:g}"))
    if gold != f"{k / 100:g}":  # the number of percent answers 35% or "35", not 0.35
        right.append(("number", str(k)))
    return (gold, right,
            [("plus_five", f"{k + 5}\\%"), ("complement", f"{100 - k}\\%"),
             ("tenth", f"{k / 1000:g}")])


def units(rng: random.Random) -> Problem:
    n, unit = rng.randint(2, 90), rng.choice(["cm", "meters", "km", "inches"])
    gold = rng.choice([str(n), f"{n} \\text{{ {unit}}}"])
    return (gold, [("text_unit", f"{n} \\text{{ {unit}}}"), ("text_unit_tight", f"{n}\\text{{{unit}}}"),
                   ("mbox_unit", f"{n}\\mbox{{ {unit}}}"), ("number", str(n))],
            [("off_by_one", f"{n + 1} \\text{{ {unit}}}"), ("times_ten", f"{10 * n}\\text{{ {unit}}}")])


def assignment(rng: random.Random) -> Problem:
    n, var = rng.randint(-20, 40), rng.choice("xyk")
    gold = rng.choice([str(n), f"{var}={n}"])
    return (gold, [("assigned", f"{var} = {n}"), ("tight", f"{var}={n}"), ("bare", str(n))],
            [("assigned_off", f"{var} = {n + 2}"), ("bare_negated", str(-n - 1))])


def plus_minus(rng: random.Random) -> Problem:
    a = rng.randint(2, 12)
    radicand = rng.choice([2, 3, 5, 6, 7, 10, 11])
    gold = rng.choice([f"\\pm {a}", f"{a}, -{a}", f"\\pm\\sqrt{{{radicand}}}"])
    if "sqrt" in gold:
        s = f"\\sqrt{{{radicand}}}"
        return (gold, [("pm", f"\\pm{s}"), ("x_pm", f"x = \\pm {s}"), ("listed", f"-{s}, {s}")],
                [("positive_only", s), ("pm_off", f"\\pm\\sqrt{{{radicand + 1}}}")])
    return (gold, [("pm", f"\\pm {a}"), ("x_pm", f"x = \\pm {a}"), ("listed", f"-{a}, {a}"),
                   ("listed_braces", f"\\{{{a}, -{a}\\}}")],
            [("positive_only", str(a)), ("pm_off", f"\\pm {a + 1}"), ("negative_only", f"-{a}")])


def radical(rng: random.Random) -> Problem:
    a, b = rng.randint(2, 9), rng.choice([2, 3, 5, 6, 7])
    simple, full = f"{a}\\sqrt{{{b}}}", f"\\sqrt{{{a * a * b}}}"
    if rng.random() < 0.5:
        return (simple, [("simplified", simple), ("unsimplified", full), ("spaced", f"{a} \\sqrt{{{b}}}"),
                         ("unbraced", f"{a}\\sqrt{b}")],
                [("wrong_radicand", f"{a}\\sqrt{{{b + 1}}}"), ("product_inside", f"\\sqrt{{{a * b}}}"),
                 ("coefficient_squared", f"{a * a}\\sqrt{{{b}}}")])
    return (full, [("simplified", simple), ("unsimplified", full)],
            [("wrong_radicand", f"{a}\\sqrt{{{b + 1}}}"), ("coefficient_off", f"{a + 1}\\sqrt{{{b}}}")])


def pi_multiple(rng: random.Random) -> Problem:
    k, m = rng.choice([(1, 2), (3, 4), (5, 6), (2, 3), (7, 4), (4, 3), (1, 6)])
    top = "" if k == 1 else str(k)
    gold = f"\\frac{{{top}\\pi}}{{{m}}}"
    # A decimal is right when it rounds to the value at its printed precision and is within
    # a relative 1e-4: 6 places always are, 2 places never are for these values.
    return (gold, [("frac_pi", gold), ("frac_times_pi", f"\\frac{{{k}}}{{{m}}}\\pi"),
                   ("slash", f"{top}\\pi/{m}"), ("dfrac", f"\\dfrac{{{top}\\pi}}{{{m}}}"),
                   ("decimal_6", f"{k * math.pi / m:.6f}")],
            [("inverted", f"\\frac{{{m}\\pi}}{{{k}}}"), ("no_pi", f"\\frac{{{k}}}{{{m}}}"),
             ("decimal_approx", f"{k * math.pi / m:.2f}")])


def scientific(rng: random.Random) -> Problem:
    m, e = rng.choice(["2", "3.5", "1.2", "7", "4.25"]), rng.randint(3, 7)
    value = round(float(m) * 10 ** e)
    if rng.random() < 0.6:
        return (str(value), [("times", f"{m} \\times 10^{{{e}}}"), ("cdot", f"{m} \\cdot 10^{e}"),
                             ("plain", str(value))],
                [("exponent_off", f"{m} \\times 10^{{{e + 1}}}"),
                 ("mantissa_off", f"{float(m) + 1:g} \\times 10^{{{e}}}")])
    small = f"{float(m) * 10 ** -e:.{e + 3}f}".rstrip("0")
    return (f"{m} \\times 10^{{-{e}}}", [("decimal", small), ("times", f"{m}\\times10^{{-{e}}}")],
            [("exponent_sign", f"{m} \\times 10^{{{e}}}"), ("exponent_off", f"{m} \\times 10^{{-{e + 1}}}")])


def unordered_set(rng: random.Random) -> Problem:
    members = rng.sample(range(-9, 13), 4)
    shuffled = rng.sample(members, 4)
    body = ", ".join(map(str, members))
    wrong_member = [x if x != members[1] else -members[1] if members[1] else 7 for x in members]
    return (f"\\{{{body}\\}}",
            [("same_order", f"\\{{{body}\\}}"), ("shuffled", f"\\{{{', '.join(map(str, shuffled))}\\}}"),
             ("listed", ", ".join(map(str, shuffled))),
             ("left_right", f"\\left\\{{{', '.join(map(str, shuffled))}\\right\\}}")],
            [("member_missing", f"\\{{{', '.join(map(str, shuffled[:3]))}\\}}"),
             ("member_wrong", f"\\{{{', '.join(map(str, wrong_member))}\\}}"),
             ("extra_member", f"\\{{{body}, {max(members) + 1}\\}}")])


def ordered_tuple(rng: random.Random) -> Problem:
    values = rng.sample(range(-9, 10), 3)
    a, b, c = values
    return (f"({a}, {b}, {c})", [("same", f"({a},{b},{c})"), ("left_right", f"\\left({a}, {b}, {c}\\right)")],
            [("permuted", f"({b}, {a}, {c})"), ("entry_off", f"({a}, {b}, {c + 1})"),
             ("as_set", f"\\{{{c}, {a}, {b}\\}}")])


def interval_decimal(rng: random.Random) -> Problem:
    lo = rng.choice([0.5, 1.5, -2.5, 0.25, -0.75])
    hi = lo + rng.choice([1, 2, 3.5])
    lo_f, hi_f = (f"\\frac{{{int(v * 4)}}}{{4}}" for v in (lo, hi))
    return (f"[{lo:g}, {hi:g})",
            [("same", f"[{lo:g},{hi:g})"), ("fractions", f"\\left[{lo_f}, {hi_f}\\right)"),
             ("inequality", f"{lo:g} \\le x < {hi:g}")],
            [("open_left", f"({lo:g}, {hi:g})"), ("closed_right", f"[{lo:g}, {hi:g}]"),
             ("endpoint_off", f"[{lo:g}, {hi + 1:g})")])


def interval_union(rng: random.Random) -> Problem:
    a = rng.randint(-6, 2)
    b = a + rng.randint(2, 6)
    gold = f"(-\\infty, {a}) \\cup ({b}, \\infty)"
    return (gold, [("same", f"(-\\infty,{a})\\cup({b},\\infty)"),
                   ("left_right", f"\\left(-\\infty, {a}\\right) \\cup \\left({b}, \\infty\\right)"),
                   ("inequalities", f"x < {a} \\text{{ or }} x > {b}")],
            [("closed_ends", f"(-\\infty, {a}] \\cup [{b}, \\infty)"), ("complement", f"({a}, {b})"),
             ("endpoints_swapped", f"(-\\infty, {b}) \\cup ({a}, \\infty)")])


def polynomial(rng: random.Random) -> Problem:
    r, s = rng.sample([k for k in range(-7, 8) if k], 2)
    factored, expanded = f"{_factor(r)}{_factor(s)}", _poly(-(r + s), r * s)
    gold = rng.choice([factored, expanded])
    return (gold, [("factored", factored), ("expanded", expanded),
                   ("factors_swapped", f"{_factor(s)}{_factor(r)}")],
            [("sign_flipped", f"{_factor(r)}{_factor(-s)}"), ("constant_off", _poly(-(r + s), r * s + 1)),
             ("linear_off", _poly(-(r + s) + 1, r * s))])


def matrix(rng: random.Random) -> Problem:
    a, b, c, d = (rng.randint(-5, 9) for _ in range(4))
    while b == c:
        c += 1
    gold = f"\\begin{{pmatrix}}{a}&{b}\\\\{c}&{d}\\end{{pmatrix}}"
    return (gold, [("same", f"\\begin{{pmatrix}} {a} & {b} \\\\ {c} & {d} \\end{{pmatrix}}"),
                   ("bmatrix", f"\\begin{{bmatrix}} {a} & {b} \\\\ {c} & {d} \\end{{bmatrix}}")],
            [("transposed", f"\\begin{{pmatrix}}{a}&{c}\\\\{b}&{d}\\end{{pmatrix}}"),
             ("entry_off", f"\\begin{{pmatrix}}{a}&{b}\\\\{c}&{d + 1}\\end{{pmatrix}}")])


def several_answers(rng: random.Random) -> Problem:
    r, s = rng.sample([k for k in range(-9, 10) if k], 2)
    return (f"{r}, {s}",
            [("boxes_comma", f"\\boxed{{{r}}}, \\boxed{{{s}}}"),
             ("boxes_and_swapped", f"\\boxed{{{s}}} and \\boxed{{{r}}}"),
             ("x_boxes_or", f"$x = \\boxed{{{r}}}$ or $x = \\boxed{{{s}}}$")],
            [("one_box_only", f"\\boxed{{{r}}}"), ("second_wrong", f"\\boxed{{{r}}}, \\boxed{{{-s}}}"),
             ("first_wrong", f"\\boxed{{{r + 20}}} and \\boxed{{{s}}}")])


def equation(rng: random.Random) -> Problem:
    if rng.random() < 0.5:
        m, b = rng.randint(2, 9), rng.randint(1, 9)
        return (f"y = {m}x + {b}", [("same", f"y={m}x+{b}"), ("reordered", f"y = {b} + {m}x"),
                                    ("general_form", f"{m}x - y + {b} = 0")],
                [("slope_off", f"y = {m + 1}x + {b}"), ("intercept_sign", f"y = {m}x - {b}"),
                 ("rhs_only_off", f"{m}x + {b + 1}")])
    h, k, r = rng.randint(1, 5), rng.randint(1, 5), rng.randint(2, 6)
    return (f"(x-{h})^2+(y+{k})^2={r * r}",
            [("same", f"(x - {h})^2 + (y + {k})^2 = {r * r}"),
             ("expanded", f"x^2 - {2 * h}x + y^2 + {2 * k}y {_signed(h * h + k * k - r * r)} = 0")],
            [("radius_not_squared", f"(x-{h})^2+(y+{k})^2={r}"),
             ("center_sign", f"(x+{h})^2+(y-{k})^2={r * r}")])


def choice(rng: random.Random) -> Problem:
    letter = rng.choice("ABCDE")
    others = [c for c in "ABCDE" if c != letter]
    return (letter, [("parens", f"({letter})"), ("letter", letter), ("text", f"\\text{{({letter})}}"),
                     ("textbf", f"\\textbf{{({letter})}}")],
            [("other_parens", f"({others[0]})"), ("other_letter", others[1])])


def factorial_close(rng: random.Random) -> Problem:
    """math-verify's known false positive: both round to 0.0 in floating point."""
    n = rng.randint(1990, 2030)
    return (f"\\frac{{1}}{{{n}!}}", [("frac", f"\\frac{{1}}{{{n}!}}"), ("slash", f"1/{n}!")],
            [("two_more", f"\\frac{{1}}{{{n + 2}!}}"), ("slash_two_more", f"1/{n + 2}!"),
             ("one_less", f"\\frac{{1}}{{{n - 1}!}}")])


def power_close(rng: random.Random) -> Problem:
    """math-verify's known false positive: 2^{100} and 2^{100}-1 agree to 30 digits."""
    k = rng.randint(80, 200)
    if rng.random() < 0.5:
        return (f"2^{{{k}}}", [("same", f"2^{{{k}}}"), ("unbraced_product", f"2\\cdot 2^{{{k - 1}}}")],
                [("minus_one", f"2^{{{k}}}-1"), ("plus_one", f"2^{{{k}}}+1")])
    return (f"2^{{{k}}}-1", [("same", f"2^{{{k}}} - 1"), ("reordered", f"-1+2^{{{k}}}")],
            [("no_minus_one", f"2^{{{k}}}"), ("minus_two", f"2^{{{k}}}-2")])


def rational(rng: random.Random) -> Problem:
    a, b = rng.sample(range(1, 9), 2)
    return (f"\\frac{{x+{a}}}{{x+{b}}}",
            [("same", f"\\frac{{x+{a}}}{{x+{b}}}"), ("partial", f"1 + \\frac{{{a - b}}}{{x+{b}}}")],
            [("inverted", f"\\frac{{x+{b}}}{{x+{a}}}"), ("sign", f"\\frac{{x-{a}}}{{x+{b}}}")])


KINDS: dict[str, tuple[Callable[[random.Random], Problem], int]] = {
    # name: (maker, weight in a realistic batch: integers and fractions dominate math RL data)
    "integer": (integer, 30), "thousands": (thousands, 5), "decimal": (decimal, 6),
    "fraction": (fraction, 12), "percent": (percent, 4), "units": (units, 4),
    "assignment": (assignment, 4), "plus_minus": (plus_minus, 3), "radical": (radical, 6),
    "pi_multiple": (pi_multiple, 4), "scientific": (scientific, 2), "unordered_set": (unordered_set, 3),
    "ordered_tuple": (ordered_tuple, 3), "interval_decimal": (interval_decimal, 2),
    "interval_union": (interval_union, 3), "polynomial": (polynomial, 4), "matrix": (matrix, 2),
    "several_answers": (several_answers, 2), "equation": (equation, 3), "choice": (choice, 5),
    "factorial_close": (factorial_close, 1), "power_close": (power_close, 1),
    "rational": (rational, 2),
}


# --- shapes --------------------------------------------------------------------------------

_WORDS = ("we", "compute", "the", "total", "then", "subtract", "the", "cost", "and", "check",
          "the", "remaining", "amount", "carefully", "so", "that", "every", "step", "is",
          "justified", "by", "the", "previous", "one", "substitute", "into", "equation")
_PLAIN_NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})*(?:\.\d+)?|-?\d+(?:\.\d+)?")


def _reasoning(rng: random.Random, avoid: str) -> str:
    """Sentences with small worked sums; no sum equals the gold, so it is never the answer."""
    parts = []
    for _ in range(rng.randint(3, 25)):
        a, b = rng.randint(2, 60), rng.randint(2, 60)
        if str(a + b) in avoid:
            a += 100
        parts.append(" ".join(rng.choices(_WORDS, k=rng.randint(6, 14))).capitalize()
                     + f", and ${a} + {b} = {a + b}$.")
    return " ".join(parts)


def _math(answer: str) -> str:
    """How a model writes an answer inline after a phrase: `$...$` when it is LaTeX."""
    return f"${answer}$" if re.search(r"[\\^_{}]", answer) else answer


# name: (template, realistic weight). {r}: reasoning, {a}: the answer form, {m}: _math(answer).
SHAPES: dict[str, tuple[str, int]] = {
    "boxed": ("{r}\n\nTherefore, the final answer is $\\boxed{{{a}}}$.", 30),
    "fbox": ("{r}\n\nSo the answer is $\\fbox{{{a}}}$.", 2),
    "final_hope": ("{r}\n\nFinal Answer: The final answer is ${a}$. I hope it is correct.", 10),
    "bold_final": ("{r}\n\n**Final Answer** {m}", 6),
    "answer_tags": ("<think>\n{r}\n</think>\n<answer>{a}</answer>", 8),
    "chinese": ("{r}\n\n因此，答案是 {m}。", 3),
    "dollar_end": ("{r}\n\nPutting it together, we get ${a}$", 5),
    "paren_end": ("{r}\n\nHence the result is \\({a}\\)", 3),
    "display_end": ("{r}\n\nTherefore\n$$\n{a}\n$$", 4),
    "only_answer": ("{a}", 2),
    # plain numbers only
    "gsm8k": ("{r}\n#### {a}", 15),
    "last_number": ("{r}\n\nAfter all of that she has {a} left over.", 4),
    # multiple choice only
    "choice_prose": ("{r}\n\nOption ({o}) fails the second condition, so the correct option is {a}.", 6),
    # several boxed answers only
    "several_boxed": ("{r}\n\nThe solutions are {a}.", 1),
}
_GENERAL = ["boxed", "fbox", "final_hope", "bold_final", "answer_tags", "chinese", "dollar_end",
            "paren_end", "display_end", "only_answer"]


def _shapes_for(kind: str, answer: str) -> list[str]:
    if kind == "several_answers":
        return ["several_boxed"]
    if kind == "choice":
        base = ["boxed", "final_hope", "bold_final", "answer_tags", "chinese", "only_answer"]
        return base + (["choice_prose"] if answer.startswith("(") else [])
    if _PLAIN_NUMBER.fullmatch(answer):
        return _GENERAL + ["gsm8k", "last_number"]
    return _GENERAL


def _write(rng: random.Random, shape: str, reasoning: str, answer: str, gold: str) -> str:
    template = SHAPES[shape][0]
    other = rng.choice([c for c in "ABCDE" if c not in answer and c != gold])
    return template.format(r=reasoning, a=answer, m=_math(answer), o=other)


def _pick_shape(rng: random.Random, shapes: list[str], realistic: bool) -> str:
    if realistic:
        return rng.choices(shapes, [SHAPES[s][1] for s in shapes])[0]
    # The shapes only some answers can take (`#### n`, "(B)" in prose) weigh 3, so a small
    # corpus still holds them.
    return rng.choices(shapes, [1 if s in _GENERAL else 3 for s in shapes])[0]


def make_pairs(n_pairs: int, seed: int = 0, *, group_size: int = 4,
               realistic: bool = False) -> list[Pair]:
    """`n_pairs` labeled pairs: problems with `group_size` rollouts each (a GRPO group), about
    55% right, 37% wrong, 8% without a final answer (the reasoning stops mid-sentence).

    `realistic=False` cycles through every kind and picks shapes uniformly, so even a few
    hundred pairs cover each kind; `realistic=True` weights kinds and shapes like a math RL
    batch (integers, fractions and `\\boxed{}` dominate)."""
    rng = random.Random(seed)
    names = list(KINDS)
    order: list[str] = []
    pairs: list[Pair] = []
    while len(pairs) < n_pairs:
        if realistic:
            kind = rng.choices(names, [KINDS[k][1] for k in names])[0]
        else:
            if not order:
                order = rng.sample(names, len(names))
            kind = order.pop()
        gold, right, wrong = KINDS[kind][0](rng)
        for _ in range(group_size):
            roll = rng.random()
            reasoning = _reasoning(rng, gold)
            if roll >= 0.92:
                pairs.append(Pair(reasoning + " Let me reconsider the", gold, False, "no_answer",
                                  "truncated", "truncated"))
                continue
            correct = roll < 0.55
            form, answer = rng.choice(right if correct else wrong)
            shape = _pick_shape(rng, _shapes_for(kind, answer), realistic)
            pairs.append(Pair(_write(rng, shape, reasoning, answer, gold), gold, correct, kind,
                              form, shape, answer))
    return pairs[:n_pairs]


def math_verify_gold(gold: str) -> str:
    """The gold as math-verify's `parse` is given it: wrapped as `$gold$` unless it already
    carries math delimiters."""
    if any(d in gold for d in ("$", "\\(", "\\[", "\\boxed")):
        return gold
    return f"${gold}$"
