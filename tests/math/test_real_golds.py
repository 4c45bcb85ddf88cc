r"""The verifier on the data people train on: the gold answers of 21 public math benchmarks as
their evaluation repositories distribute them (`data/real_golds.json`, source, commit and
licence per dataset), and the meaning of the LaTeX those golds and models write.

- every gold, boxed as the answer, scores 1 against itself (a gold that is no answer at all
  abstains; none scores 0), and so does the gold in its own form after the answer layouts
  models write ("Final Answer: The final answer is ...", `####`, `**Answer:**`, "Answer:");
  a gold stated in words around math is read whole (`test_whole_golds.py`);
- for the first golds of each dataset, the gold in its own form and the equivalent forms a
  model writes score 1, near-miss wrong forms score 0 (labels from the gold's shape, built in
  `benchmarks/math_real_golds.py`, which also runs math-verify on them);
- a table of meanings that stripping got wrong (`1+2\mathrm{i}` is not 3, `5 thousand` is
  5000, `-2\frac{1}{4}` is -9/4 ...), right and wrong forms side by side;
- degenerate tails: a box before a page of token soup, thousands of boxes."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from rewards import Sample

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from math_real_golds import DATA, load_golds, make_pairs, ours_scores

GOLDS = load_golds()


def test_the_data_names_its_sources_and_licences():
    data = json.loads(DATA.read_text(encoding="utf-8"))
    for dataset in data["datasets"]:
        assert dataset["repo"] and dataset["path"] and dataset["licence"], dataset["name"]
        assert len(dataset["commit"]) == 40, dataset["name"]
    assert len(GOLDS) > 20_000 and len(data["datasets"]) >= 15


def test_every_gold_boxed_scores_one_or_abstains(math_reward):
    pairs = [p for p in make_pairs(GOLDS) if p.form == "gold_boxed"]
    assert len(pairs) > 0.95 * len(GOLDS)  # the rest are read whole (their layouts below)
    scores = ours_scores(pairs, math_reward)
    zero = Counter(p.dataset for p, s in zip(pairs, scores) if s == 0.0)
    assert not zero, (zero, [(p.gold, p.completion) for p, s in zip(pairs, scores) if s == 0.0][:5])
    abstained = sum(s is None for s in scores)
    assert abstained <= 0.01 * len(pairs), abstained


# Golds a model's answer layout cannot restate as the gold reads boxed: two College Math
# golds are a sentence ("We have" before a display formula; boxed, the formula is read with
# it), one lists three formulas in three paragraphs (after a phrase, a blank line ends the
# answer, so that a formula in the next paragraph is never read into it; it abstains, as
# math-verify reads only a part of that gold).
LAYOUT_EXCEPTIONS = {("college_math", "exercise.3.1.6"), ("college_math", "exercise.3.2.2"),
                     ("college_math", "exercise.11.1.1")}
# Golds that are not an answer at all (an empty field, an explanation in words): they abstain
# whatever the completion (`data/real_golds_not_answers.json`, checked exact in
# `test_real_golds_boxed.py`).
NOT_ANSWERS = {(name, gold_id) for name, golds in json.loads(
    (DATA.parent / "real_golds_not_answers.json").read_text(encoding="utf-8"))["golds"].items()
    for gold_id, _ in golds.values()}
LAYOUT_FORMS = {"gold_own_form", "gold_minerva", "gold_hashes", "gold_bold_answer",
                "gold_answer_colon"}


def test_every_gold_after_an_answer_phrase_scores_one_or_abstains(math_reward):
    """The gold in its own form (over several lines, split across `$...$`, with its unit)
    after "Final Answer: The final answer is" and after `####` reads as the boxed gold."""
    pairs = [p for p in make_pairs(GOLDS) if p.form in ("gold_minerva", "gold_hashes")]
    scores = ours_scores(pairs, math_reward)
    zero = {(p.dataset, p.gold_id) for p, s in zip(pairs, scores) if s == 0.0}
    assert zero <= LAYOUT_EXCEPTIONS, sorted(zero - LAYOUT_EXCEPTIONS)[:10]
    abstained = {(p.dataset, p.gold_id) for p, s in zip(pairs, scores) if s is None}
    allowed = NOT_ANSWERS | LAYOUT_EXCEPTIONS  # no answer at all abstains; an exception may
    assert abstained <= allowed, sorted(abstained - allowed)[:10]


def test_right_and_wrong_forms_of_the_first_golds(math_reward):
    pairs = make_pairs(load_golds(60))
    scores = ours_scores(pairs, math_reward)
    failures = [(p.dataset, p.form, p.gold, p.completion, s) for p, s in zip(pairs, scores)
                if not (s != 0.0 if p.label is None else (s == 1.0) == p.label)
                and not (p.form in LAYOUT_FORMS and (p.dataset, p.gold_id) in LAYOUT_EXCEPTIONS)]
    assert not failures, failures[:10]
    assert len({p.form for p in pairs}) >= 29


# (gold, completion, expected value): meanings that stripping or a decimal-comma reading got
# wrong, each with its right and wrong forms.
MEANINGS = [
    # MATH's thousands separator, and comma pairs read alike in gold and box.
    ("3,\\!250", "\\boxed{3250}", 1.0), ("3,\\!250", "\\boxed{3,250}", 1.0),
    ("3,\\!250", "\\boxed{3.25}", 0.0), ("900,\\!000,\\!000", "\\boxed{900000000}", 1.0),
    ("900,\\!000,\\!000", "\\boxed{9000000}", 0.0),
    ("14,16", "\\boxed{14,16}", 1.0), ("14,16", "\\boxed{16, 14}", 1.0),
    ("14,16", "\\boxed{14.16}", 0.0), ("-5,0", "\\boxed{-5,0}", 1.0), ("-5,0", "\\boxed{0}", 0.0),
    ("2500,7500", "\\boxed{7500, 2500}", 1.0), ("2500,7500", "\\boxed{2500.75}", 0.0),
    ("0,245", "\\boxed{0, 245}", 1.0), ("0,245", "\\boxed{0.245}", 0.0),
    ("15,600", "\\boxed{15600}", 1.0), ("15,600", "\\boxed{600, 15}", 0.0),
    # A decimal against an exact gold: rounds to it at its printed precision, within 1e-4.
    ("-\\frac{1}{6}", "\\boxed{-0.166667}", 1.0), ("\\frac{1}{6}", "\\boxed{0.17}", 0.0),
    ("\\frac{1}{6}", "\\boxed{0.1667}", 0.0), ("\\frac{2}{3}", "\\boxed{0.6667}", 1.0),
    ("\\frac{2}{3}", "\\boxed{0.6666}", 0.0), ("\\sqrt{3}", "\\boxed{1.7321}", 1.0),
    ("\\sqrt{3}", "\\boxed{1.73}", 0.0), ("\\pi", "\\boxed{3.14159}", 1.0),
    # The imaginary unit and e in \mathrm, never stripped as units.
    ("1+2i", "\\boxed{1+2\\mathrm{i}}", 1.0), ("3", "\\boxed{1+2\\mathrm{i}}", 0.0),
    ("1+2\\mathrm{i}", "\\boxed{1+2i}", 1.0), ("1+2\\mathrm{i}", "\\boxed{3}", 0.0),
    ("2", "\\boxed{2\\mathrm{e}}", 0.0), ("2e", "\\boxed{2\\mathrm{e}}", 1.0),
    ("\\sqrt{2}i", "\\boxed{\\sqrt{2}\\,\\mathrm{i}}", 1.0),
    ("\\sqrt{2}", "\\boxed{\\sqrt{2}\\,\\mathrm{i}}", 0.0),
    ("1 - \\frac{1}{\\mathrm{e}}", "\\boxed{1 + \\frac{1}{\\mathrm{e}}}", 0.0),
    ("3+4i", "\\boxed{3+4j}", 1.0), ("3+4i", "\\boxed{3+5j}", 0.0), ("3+4i", "\\boxed{7}", 0.0),
    # A complex gold (its only symbol is i) makes i the unit on both sides: i^2 is -1.
    ("1+2i", "\\boxed{2+\\mathrm{i}^2+2\\mathrm{i}}", 1.0),
    ("1+2i", "\\boxed{2-\\mathrm{i}^2+2\\mathrm{i}}", 0.0),
    ("1+2i", "\\boxed{2+i^{2}+2i}", 1.0), ("1+2i", "\\boxed{2+i^{3}+2i}", 0.0),
    ("2i", "\\boxed{(1+i)^2}", 1.0), ("2i", "\\boxed{(1-i)^2}", 0.0),
    ("-i", "\\boxed{\\mathrm{i}^3}", 1.0), ("i", "\\boxed{\\mathrm{i}^3}", 0.0),
    ("2\\mathrm{i}", "\\boxed{i^3+3i}", 1.0), ("2\\mathrm{i}", "\\boxed{i^3+2i}", 0.0),
    ("z = 3-4i", "\\boxed{z = 3+4i^3}", 1.0), ("z = 3-4i", "\\boxed{z = 3+4i}", 0.0),
    ("z = 3-4i", "\\boxed{w = 3-4i}", 0.0),
    ("1+2i, 1-2i", "\\boxed{1-2i, 2+i^2+2i}", 1.0), ("1+2i, 1-2i", "\\boxed{1-2i, 2+i^2-2i}", 0.0),
    # No complex gold: i may be a variable or an index (a_i), so i^2 is not read as -1.
    ("-1", "\\boxed{i^2}", 0.0), ("a_i", "\\boxed{a_i}", 1.0),
    # Magnitude words, and text that carries meaning.
    ("5000", "\\boxed{5 \\text{ thousand}}", 1.0), ("5000", "\\boxed{5 thousand}", 1.0),
    ("5", "\\boxed{5 thousand}", 0.0), ("2500000", "\\boxed{2.5\\text{ million}}", 1.0),
    ("300000", "\\boxed{3 \\text{ hundred thousand}}", 1.0), ("24", "\\boxed{2 dozen}", 1.0),
    ("2", "\\boxed{2\\text{ squared}}", 0.0), ("10", "\\boxed{10\\text{ or more}}", 0.0),
    ("10", "\\boxed{\\text{at least } 10}", 0.0), ("10", "\\boxed{10 \\text{ cm}}", 1.0),
    ("12 \\text{ cm}", "\\boxed{12}", 1.0), ("12 \\text{ cm}", "\\boxed{13}", 0.0),
    ("45^\\circ", "\\boxed{45}", 1.0), ("45^\\circ", "\\boxed{45 \\text{ degrees}}", 1.0),
    # A gold math-verify reads only a part of abstains; a number with an annotation does not.
    ("x \\neq \\pm 5", "\\boxed{5}", None), ("x \\neq \\pm 5", "\\boxed{x \\neq \\pm 5}", 1.0),
    ("$4:30 p.m$", "\\boxed{4}", None),
    # A set-builder of reals over inequalities is the interval or union it is (MATH writes
    # `\\{x|-2\\leq x < 1\\}`); over another domain, or with another variable, it is not read.
    ("$\\{x|-2\\leq x < 1\\}$", "\\boxed{1}", 0.0),
    ("$\\{x|-2\\leq x < 1\\}$", "\\boxed{[-2,1)}", 1.0),
    ("$\\{x|-2\\leq x < 1\\}$", "\\boxed{[-2,1]}", 0.0),
    ("$\\{x|-2\\leq x < 1\\}$", "\\boxed{-2 \\le x < 1}", 1.0),
    ("[-2,1)", "\\boxed{\\{x \\mid -2 \\le x < 1\\}}", 1.0),
    ("[-2,1)", "\\boxed{\\{x \\mid -2 < x < 1\\}}", 0.0),
    ("(-\\infty,-1)\\cup(3,\\infty)", "\\boxed{\\{x \\mid x < -1 \\text{ or } x > 3\\}}", 1.0),
    ("(-\\infty,-1)\\cup(3,\\infty)", "\\boxed{\\{x \\mid x < -1 \\text{ or } x \\ge 3\\}}", 0.0),
    ("\\{x\\in\\mathbb{R} : 0 < x \\le 5\\}", "\\boxed{(0,5]}", 1.0),
    ("\\left\\{x\\middle| -1<x<2\\right\\}", "\\boxed{(-1,2)}", 1.0),
    ("\\{x\\in\\mathbb{Z} : 0 < x \\le 5\\}", "\\boxed{(0,5]}", None),
    ("\\{y|x>2\\}", "\\boxed{(2,\\infty)}", None),
    # A time of day (MATH's `\\text{4:30 p.m.}`): a.m./p.m. is never a unit to strip, and the
    # same minute of the day written another way is equal; p.m. against a.m. is not.
    ("\\text{4:30 p.m.}", "\\boxed{4:30 \\text{ p.m.}}", 1.0),
    ("\\text{4:30 p.m.}", "\\boxed{4:30 \\text{ a.m.}}", 0.0),
    ("\\text{4:30 p.m.}", "\\boxed{16:30}", 1.0), ("\\text{4:30 p.m.}", "\\boxed{4:30pm}", 1.0),
    ("\\text{4:30 p.m.}", "\\boxed{5:30 \\text{ p.m.}}", 0.0),
    ("\\text{4:30 p.m.}", "\\boxed{5:30}", 0.0), ("12:00 a.m.", "\\boxed{0:00}", 1.0),
    ("$\\approx 8.24$", "\\boxed{8.24}", 1.0), ("$\\approx 8.24$", "\\boxed{8.25}", 0.0),
    # ASDiv's unit in parentheses.
    ("9 (apples)", "\\boxed{9}", 1.0), ("9 (apples)", "\\boxed{10}", 0.0),
    ("2 (x)", "\\boxed{2}", 0.0),
    # "percent" spelled out is the sign, never a unit to strip (7.2 percent is not 7.2).
    ("7.2\\%", "\\boxed{7.2 percent}", 1.0), ("7.2\\%", "\\boxed{7.3 percent}", 0.0),
    ("7.2\\%", "\\boxed{7.2 \\text{ percent}}", 1.0), ("7.2\\%", "\\boxed{7.2}", 0.0),
    ("0.25", "\\boxed{25 percent}", 1.0), ("0.25", "\\boxed{0.25 percent}", 0.0),
    # Negative mixed numbers.
    ("-\\frac{9}{4}", "\\boxed{-2\\frac{1}{4}}", 1.0), ("-\\frac{1}{2}", "\\boxed{-2\\frac{1}{4}}", 0.0),
    ("\\frac{9}{4}", "\\boxed{2\\frac{1}{4}}", 1.0), ("-\\frac{9}{4}", "\\boxed{-2\\tfrac14}", 1.0),
    # Function names in plain-text golds.
    ("tan(2x)", "\\boxed{\\tan(2x)}", 1.0), ("tan(2x)", "\\boxed{\\tan(3x)}", 0.0),
    ("ln(x)+1", "\\boxed{\\ln x + 1}", 1.0),
    # Numeric golds (a float column) as numbers, never re-read as LaTeX.
    (1e-07, "\\boxed{10^{-7}}", 1.0), (1e-07, "\\boxed{1 \\times 10^{-7}}", 1.0),
    (1e-07, "\\boxed{0.0000001}", 1.0), (1e-07, "\\boxed{10^{-6}}", 0.0),
    ("1e-07", "\\boxed{10^{-7}}", 1.0), (1.234e-05, "\\boxed{0.00001234}", 1.0),
    (1.234e-05, "\\boxed{0.0000123}", 0.0), ("4.5e33", "\\boxed{4.5 \\times 10^{33}}", 1.0),
    ("4.5e33", "\\boxed{4.5 \\times 10^{34}}", 0.0), (27.0, "\\boxed{27}", 1.0),
    (-9867630.0, "\\boxed{-9867630}", 1.0),
    # A formula a gold breaks across two `$...$` (a PDF line break) is one expression.
    ("$56 x^{6}+72 x^{5}+$ $60 x^{2}+6$", "\\boxed{56x^6+72x^5+60x^2+6}", 1.0),
    ("$56 x^{6}+72 x^{5}+$ $60 x^{2}+6$", "\\boxed{56x^6+72x^5}", 0.0),
    # Answers laid out over lines or with a unit after a phrase or `####`, read whole.
    ("$y_{1}=1-x$\n$y_{2}=y_{1} \\ln x+4 x$",
     "Final Answer: The final answer is $y_1=1-x$\n$y_2=y_1 \\ln x+4x$. I hope it is correct.",
     1.0),
    ("$y_{1}=1-x$\n$y_{2}=y_{1} \\ln x+4 x$",
     "Final Answer: The final answer is $y_1=1-x$\n$y_2=y_1 \\ln x+5x$. I hope it is correct.",
     0.0),
    ("$y_{1}=1-x$\n$y_{2}=y_{1} \\ln x+4 x$", "The final answer is $y_1=1-x$.", 0.0),
    ("$56 x^{6}+72 x^{5}+$ $60 x^{2}+6$", "#### $56 x^{6}+72 x^{5}+$ $60 x^{2}+6$", 1.0),
    ("$56 x^{6}+72 x^{5}+$ $60 x^{2}+6$", "#### $56 x^{6}+72 x^{5}+$ $60 x^{2}+7$", 0.0),
    ("12", "The final answer is $12$ cm$^2$.", 1.0), ("12", "The final answer is $13$ cm$^2$.", 0.0),
    ("20 $cm^{2}$", "\\boxed{20}", 1.0), ("20 $cm^{2}$", "\\boxed{21}", 0.0),
    ("0.5", "#### .5", 1.0), ("0.5", "#### .05", 0.0), (".48", "#### $.48$", 1.0),
    (".48", "#### $.49$", 0.0),
]


def test_meanings(math_reward):
    samples = [Sample("p", completion, reference=gold) for gold, completion, _ in MEANINGS]
    got = [(gold, completion, score.value)
           for (gold, completion, _), score in zip(MEANINGS, math_reward.score(samples))]
    assert got == MEANINGS


SOUP = "".join(f" tok{i % 97} }}{{ $ \\x ]( {i} " for i in range(800))  # ~12k chars
SOUP_WORDS = "".join(f" tok }}{{ $ \\x ]( {'ab'[i % 2]} " for i in range(800))  # the same, no number


@pytest.mark.parametrize("completion,value", [
    # A correct box, then a page of token soup with no number: the box counts. Soup that holds
    # numbers in one sentence too long to read whole (12,000 characters, no stop) is not known
    # harmless: a length limit never decides for the reply (round 22, h-m46), so it is uncertain.
    ("So \\boxed{25}." + SOUP_WORDS, 1.0),
    ("So \\boxed{25}." + SOUP, 0.0),
    ("So \\boxed{24}." + SOUP, 0.0),
    # Ten thousand empty boxes, then the answer.
    ("\\boxed{}" * 10_000 + " so \\boxed{25}", 1.0),
    # Many different answers boxed together are one set: never the single gold.
    ("".join(f"\\boxed{{{i}}}" for i in range(1, 10_001)), 0.0),
    (", ".join(f"\\boxed{{{i}}}" for i in (3, 7, 25)), 0.0),
    # Boxes separated by prose: a correction, the last one counts.
    ("\\boxed{3}. Wait, that is wrong. Recomputing gives \\boxed{25}.", 1.0),
    ("\\boxed{25}. Wait, that is wrong. Recomputing gives \\boxed{3}.", 0.0),
])
def test_degenerate_tails(math_reward, completion, value):
    assert math_reward.score([Sample("p", completion, reference="25")])[0].value == value
