r"""Table-driven labeled cases, written for this project in the shapes real model outputs take:
(completion, gold, expected reason). All are scored in one batch through `MathReward`, so the
table also exercises the batch path (dedup, cache, parallel workers)."""

from __future__ import annotations

import pytest

from rewards import Sample

REASONING = ("Let's think step by step. First we set up the problem and simplify the "
             "expression carefully, checking each step.\n")


def boxed(answer: str) -> str:
    return f"{REASONING}Therefore the final answer is $\\boxed{{{answer}}}$."


def said(answer: str) -> str:
    return f"{REASONING}So the answer is {answer}."


CASES: list[tuple[str, object, str]] = [
    # --- integers, GSM8K ---------------------------------------------------------------
    (boxed("42"), "42", "ok"),
    (boxed("41"), "42", "wrong"),
    (boxed("-7"), "-7", "ok"),
    (boxed("7"), "-7", "wrong"),
    (boxed("007"), "7", "ok"),
    (boxed("0"), "0", "ok"),
    (f"{REASONING}She has 18 - 3 = 15 eggs left.\n#### 15", "15", "ok"),
    (f"{REASONING}Total: 5*4 = 20\n#### 20", "24", "wrong"),
    (f"{REASONING}#### 1,250", "1250", "ok"),
    (f"{REASONING}#### $1,250", "1250", "ok"),
    ("Natalia sold 48/2 = 24 clips in May.\nAltogether 48+24 = 72 clips.\n#### 72", "72", "ok"),
    (said("72"), 72, "ok"),
    (said("73"), 72, "wrong"),
    (boxed("18"), 18.0, "ok"),
    (boxed("100"), "\\boxed{100}", "ok"),
    (boxed("99"), "\\boxed{100}", "wrong"),
    (boxed("3"), "#### 3", "ok"),
    (boxed("12"), "12.0", "ok"),
    (boxed("12.5"), "12", "wrong"),
    (boxed("+5"), "5", "ok"),
    # --- decimals, fractions ------------------------------------------------------------
    (boxed("0.5"), "\\frac{1}{2}", "ok"),
    (boxed("\\frac{1}{2}"), "0.5", "ok"),
    (boxed("\\dfrac{3}{4}"), "\\frac{3}{4}", "ok"),
    (boxed("\\tfrac{3}{4}"), "0.75", "ok"),
    (boxed("3/4"), "\\frac34", "ok"),
    (boxed("\\frac{6}{8}"), "\\frac{3}{4}", "ok"),
    (boxed("-\\frac{2}{3}"), "-\\frac{2}{3}", "ok"),
    (boxed("\\frac{-2}{3}"), "-\\frac{2}{3}", "ok"),
    (boxed("\\frac{2}{3}"), "-\\frac{2}{3}", "wrong"),
    # A decimal rounds to the exact gold at its printed precision and is within 1e-4.
    (boxed("0.6667"), "\\frac{2}{3}", "ok"),
    (boxed("0.667"), "\\frac{2}{3}", "wrong"),
    (boxed("0.6666"), "\\frac{2}{3}", "wrong"),
    (boxed("0.666667"), "\\frac{2}{3}", "ok"),
    (boxed("1.50"), "1.5", "ok"),
    (boxed(".5"), "0.5", "ok"),
    (boxed("2.25"), "\\frac{9}{4}", "ok"),
    (boxed("2\\frac{1}{4}"), "\\frac{9}{4}", "ok"),
    (boxed("\\frac{9}{4}"), "2.5", "wrong"),
    (boxed("\\frac{1}{3}"), "\\frac{1}{3}", "ok"),
    (boxed("\\frac{10}{3}"), "\\frac{1}{3}", "wrong"),
    (boxed("3.14"), "3.14", "ok"),
    (boxed("3.15"), "3.14", "wrong"),
    # --- thousands separators, money, percent, degrees, units ---------------------------
    (boxed("1,000,000"), "1000000", "ok"),
    (boxed("1{,}000"), "1000", "ok"),
    (boxed("1\\,000"), "1000", "ok"),
    (boxed("\\$18.90"), "18.9", "ok"),
    (boxed("\\$18"), "18.90", "wrong"),
    (said("$\\$1,080$"), "1080", "ok"),
    (boxed("25\\%"), "25", "ok"),
    (boxed("25\\%"), "0.25", "ok"),
    (boxed("0.25"), "25\\%", "ok"),
    (boxed("25"), "25\\%", "ok"),
    (boxed("35\\%"), "25\\%", "wrong"),
    (said("40%"), "40", "ok"),
    (boxed("90^\\circ"), "90", "ok"),
    (boxed("90^{\\circ}"), "90^\\circ", "ok"),
    (boxed("45°"), "45", "ok"),
    (boxed("60^\\circ"), "30", "wrong"),
    (boxed("5\\text{ cm}"), "5", "ok"),
    (boxed("5 \\text{cm}^2"), "5", "ok"),
    (boxed("12\\text{ inches}"), "12", "ok"),
    (boxed("7 \\mbox{ meters}"), "7", "ok"),
    (boxed("7\\text{ m}"), "8", "wrong"),
    (said("12 dollars"), "12", "ok"),
    (said("30 minutes"), "30", "ok"),
    (boxed("\\text{3 hours}"), "3", "ok"),
    (boxed("4\\text{ apples}"), "\\text{4 apples}", "ok"),
    # --- expressions ------------------------------------------------------------------
    (boxed("2\\sqrt{3}"), "\\sqrt{12}", "ok"),
    (boxed("\\sqrt{12}"), "2\\sqrt{3}", "ok"),
    (boxed("3\\sqrt{2}"), "2\\sqrt{3}", "wrong"),
    (boxed("\\frac{\\sqrt{2}}{2}"), "\\frac{1}{\\sqrt{2}}", "ok"),
    (boxed("\\frac{\\sqrt{3}}{2}"), "\\frac{1}{\\sqrt{2}}", "wrong"),
    (boxed("x^2+2x+1"), "(x+1)^2", "ok"),
    (boxed("x^2+1"), "(x+1)^2", "wrong"),
    (boxed("2x+3"), "3+2x", "ok"),
    (boxed("\\frac{x+1}{2}"), "\\frac{1}{2}x+\\frac{1}{2}", "ok"),
    (boxed("6\\pi"), "6\\pi", "ok"),
    (boxed("6 \\pi"), "6\\pi", "ok"),
    (boxed("3\\pi"), "6\\pi", "wrong"),
    (boxed("\\pi^2"), "\\pi^{2}", "ok"),
    (boxed("2^{10}"), "1024", "ok"),
    (boxed("2^{10}"), "1000", "wrong"),
    (boxed("\\binom{5}{2}"), "10", "ok"),
    (boxed("5!"), "120", "ok"),
    (boxed("e^{2}"), "e^2", "ok"),
    (boxed("\\ln(e^2)"), "2", "ok"),
    (boxed("\\sin^2 x + \\cos^2 x"), "1", "ok"),
    (boxed("\\frac{a+b}{c}"), "\\frac{b+a}{c}", "ok"),
    (boxed("xy"), "yx", "ok"),
    (boxed("a-b"), "b-a", "wrong"),
    (boxed("10\\sqrt{2}+5"), "5+10\\sqrt{2}", "ok"),
    (boxed("\\sqrt[3]{27}"), "3", "ok"),
    (boxed("\\log_2 8"), "3", "ok"),
    (boxed("1+\\sqrt{5}"), "\\sqrt{5}+1", "ok"),
    (boxed("\\frac{1+\\sqrt{5}}{2}"), "\\frac{1-\\sqrt{5}}{2}", "wrong"),
    (boxed("\\infty"), "\\infty", "ok"),
    # --- sets, multiple answers, intervals, inequalities -------------------------------
    (boxed("\\{1, 2, 3\\}"), "\\{3, 2, 1\\}", "ok"),
    (boxed("\\{1, 2\\}"), "\\{1, 2, 3\\}", "wrong"),
    (boxed("1, 2, 3"), "1,2,3", "ok"),
    (boxed("3, 1, 2"), "1, 2, 3", "ok"),
    (boxed("-2, 3"), "3, -2", "ok"),
    (boxed("2, 3"), "-2, 3", "wrong"),
    (boxed("x = 2 \\text{ or } x = 3"), "2, 3", "ok"),
    (boxed("2 \\text{ and } 3"), "2, 3", "ok"),
    (boxed("x=\\pm 2"), "-2, 2", "ok"),
    (boxed("\\pm\\sqrt{2}"), "\\sqrt{2}, -\\sqrt{2}", "ok"),
    (boxed("[1, 2)"), "[1,2)", "ok"),
    (boxed("(1, 2]"), "[1,2)", "wrong"),
    (boxed("(-\\infty, 3)"), "(-\\infty,3)", "ok"),
    (boxed("(-\\infty, 3]"), "(-\\infty,3)", "wrong"),
    (boxed("x < 3"), "(-\\infty, 3)", "ok"),
    (boxed("x \\geq 2"), "[2, \\infty)", "ok"),
    (boxed("x > 2"), "[2, \\infty)", "wrong"),
    (boxed("[2, \\infty)"), "x \\ge 2", "ok"),
    (boxed("(0, 1) \\cup (2, \\infty)"), "(0,1)\\cup(2,\\infty)", "ok"),
    (boxed("(0, 1) \\cup (3, \\infty)"), "(0,1)\\cup(2,\\infty)", "wrong"),
    (boxed("x \\in [1, 5]"), "[1,5]", "ok"),
    (boxed("1 \\le x \\le 5"), "[1,5]", "ok"),
    (boxed("\\emptyset"), "\\emptyset", "ok"),
    (boxed("\\{-1\\}"), "-1", "ok"),
    (boxed("2<x<5"), "(2,5)", "ok"),
    # --- tuples, points, vectors, matrices ---------------------------------------------
    (boxed("(3, 4)"), "(3,4)", "ok"),
    (boxed("(4, 3)"), "(3,4)", "wrong"),
    (boxed("\\left( 1, -\\frac{1}{2} \\right)"), "(1,-\\frac12)", "ok"),
    (boxed("(1, -0.5)"), "(1,-\\frac12)", "ok"),
    (boxed("(2, 3, 6)"), "(2,3,6)", "ok"),
    (boxed("(2, 3, 5)"), "(2,3,6)", "wrong"),
    (boxed("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}"), "\\begin{pmatrix}1\\\\2\\end{pmatrix}", "ok"),
    (boxed("\\begin{pmatrix} 2 \\\\ 1 \\end{pmatrix}"), "\\begin{pmatrix}1\\\\2\\end{pmatrix}", "wrong"),
    (boxed("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"),
     "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}", "ok"),
    (boxed("\\begin{pmatrix} 1 & 2 \\\\ 4 & 3 \\end{pmatrix}"),
     "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}", "wrong"),
    (boxed("\\begin{bmatrix} 0.5 & 0 \\\\ 0 & 1 \\end{bmatrix}"),
     "\\begin{pmatrix}\\frac12&0\\\\0&1\\end{pmatrix}", "ok"),
    (boxed("\\begin{pmatrix} -1 \\\\ 3 \\\\ 2 \\end{pmatrix}"),
     "\\begin{pmatrix}-1\\\\3\\\\2\\end{pmatrix}", "ok"),
    (boxed("\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}"),
     "\\begin{pmatrix}1&0\\\\0&-1\\end{pmatrix}", "wrong"),
    (boxed("(0, 0)"), "(0,0)", "ok"),
    (boxed("(-1, 2)"), "(1,-2)", "wrong"),
    # --- equations ---------------------------------------------------------------------
    (boxed("y = 2x + 1"), "y=2x+1", "ok"),
    (boxed("y = 1 + 2x"), "y=2x+1", "ok"),
    (boxed("2x - y + 1 = 0"), "y=2x+1", "ok"),
    (boxed("y = 2x - 1"), "y=2x+1", "wrong"),
    (boxed("x = 5"), "5", "ok"),
    (boxed("x = 4"), "5", "wrong"),
    (boxed("5"), "x=5", "ok"),
    (boxed("x^2 + y^2 = 25"), "x^2+y^2=25", "ok"),
    (boxed("x^2 + y^2 = 5"), "x^2+y^2=25", "wrong"),
    (boxed("(x-1)^2 + (y+2)^2 = 9"), "(x-1)^2+(y+2)^2=9", "ok"),
    (boxed("a = 3, b = 4"), "a=3,b=4", "ok"),
    (boxed("a = 4, b = 3"), "a=3,b=4", "wrong"),
    (boxed("k = 7"), "7", "ok"),
    (boxed("f(x) = x^2"), "x^2", "ok"),
    (boxed("y = -\\frac{1}{2}x + 3"), "y=-\\frac12 x+3", "ok"),
    # --- text answers, multiple choice -------------------------------------------------
    (boxed("\\text{Monday}"), "Monday", "ok"),
    (boxed("\\text{monday}"), "\\text{Monday}", "ok"),
    (boxed("\\text{Tuesday}"), "Monday", "wrong"),
    (said("yes"), "Yes", "ok"),
    (said("no"), "Yes", "wrong"),
    (boxed("\\text{even}"), "\\text{even}", "ok"),
    (boxed("\\text{odd}"), "\\text{even}", "wrong"),
    (boxed("\\textbf{(C)}"), "C", "ok"),
    (boxed("C"), "C", "ok"),
    (boxed("(C)"), "C", "ok"),
    (boxed("B"), "C", "wrong"),
    (said("(B)"), "B", "ok"),
    (said("(D)"), "B", "wrong"),
    (said("B) 42"), "(B)", "ok"),
    (f"{REASONING}Among the options, (A) fails and (C) fails.\nAnswer: C", "C", "ok"),
    (f"{REASONING}Answer: A", "C", "wrong"),
    (boxed("\\text{(E)}"), "E", "ok"),
    (boxed("E"), "(e)", "ok"),
    (boxed("\\text{Alice}"), "\\text{Alice}", "ok"),
    (boxed("\\text{Bob}"), "\\text{Alice}", "wrong"),
    # --- extraction shapes: tags, phrases, fbox, nested braces, long reasoning ------------
    ("<think>2+2 is 4</think>\n<answer>4</answer>", "4", "ok"),
    ("<think>2+2 is 4</think>\n<answer>5</answer>", "4", "wrong"),
    ("<think>work</think><answer>The answer is $\\frac{1}{2}$.</answer>", "0.5", "ok"),
    ("<think>x</think><answer>\\boxed{12}</answer>", "12", "ok"),
    ("<answer>\n  17\n</answer>", "17", "ok"),
    (f"{REASONING}The final answer is $\\frac{{7}}{{2}}$. I hope it is correct.", "3.5", "ok"),
    (f"{REASONING}Final Answer: The final answer is $\\boxed{{9}}$. I hope it is correct.",
     "9", "ok"),
    (f"{REASONING}**Final Answer:** 144", "144", "ok"),
    (f"{REASONING}The answer is: 8", "8", "ok"),
    (f"{REASONING}Hence the answer is $x=3$.", "3", "ok"),
    (f"{REASONING}$\\fbox{{256}}$", "256", "ok"),
    (f"{REASONING}$\\fbox{{255}}$", "256", "wrong"),
    (boxed("\\frac{\\sqrt{3}}{\\sqrt{2}+1}"), "\\frac{\\sqrt{3}}{1+\\sqrt{2}}", "ok"),
    (boxed("\\left\\{\\frac{1}{2}, \\frac{3}{2}\\right\\}"), "\\{0.5, 1.5\\}", "ok"),
    ("First guess \\boxed{3}. Wait, that is wrong. Recomputing: \\boxed{4}", "4", "ok"),
    ("First guess \\boxed{4}. Wait, that is wrong. Recomputing: \\boxed{3}", "4", "wrong"),
    (REASONING * 200 + "\\boxed{2024}", "2024", "ok"),
    (REASONING * 200 + "\\boxed{2023}", "2024", "wrong"),
    (f"{REASONING}We get 3 apples, then 5 more, so 8 apples in total.", "8", "ok"),
    (f"{REASONING}We get 3 apples, then 5 more, so 9 apples in total.", "8", "wrong"),
    (f"{REASONING}I am not sure how to proceed with this problem.", "8", "no_answer"),
    ("", "8", "no_answer"),
    ("\\boxed{}", "8", "no_answer"),
    (f"{REASONING}$$\\boxed{{\\begin{{pmatrix}} 1 \\\\ 0 \\end{{pmatrix}}}}$$",
     "\\begin{pmatrix}1\\\\0\\end{pmatrix}", "ok"),
    (boxed("\\boxed{6}"), "6", "ok"),
    # --- bad references: abstain, never 1 and never 0 ------------------------------------
    (boxed("5"), "", "bad_reference"),
    (boxed("5"), None, "bad_reference"),
    (boxed("5"), "\\frac{1}{", "bad_reference"),
    (boxed("5"), "$$", "bad_reference"),
    (boxed("5"), ["5"], "bad_reference"),
    (boxed("5"), "\\boxed{}", "bad_reference"),
    (boxed("x"), "\\sqrt{", "bad_reference"),
    (boxed("3"), "#### ", "bad_reference"),
    # --- math-verify's false positives must score 0 -------------------------------------
    (boxed("\\frac{1}{2006!}"), "\\frac{1}{2004!}", "wrong"),
    (boxed("1/2006!"), "1/2004!", "wrong"),
    (boxed("n=2,3,4"), "n=1,2,3", "wrong"),
    (boxed("y=2x+1"), "y=3x+1", "wrong"),
    (said("$y = 2x + 1$"), "y = 3x + 1", "wrong"),
    (boxed("10^{-10}"), "10^{-11}", "wrong"),
    (boxed("\\frac{1}{2004!}"), "\\frac{1}{2004!}", "ok"),
    (boxed("n = 1, 2, 3"), "n=1,2,3", "ok"),
    # --- complex numbers, trigonometry, logs --------------------------------------------
    (boxed("1+2i"), "1+2i", "ok"),
    (boxed("2i+1"), "1+2i", "ok"),
    (boxed("1-2i"), "1+2i", "wrong"),
    (boxed("\\frac{\\pi}{3}"), "\\frac{\\pi}{3}", "ok"),
    (boxed("60^\\circ"), "60", "ok"),
    (boxed("\\frac{\\pi}{4}"), "\\frac{\\pi}{3}", "wrong"),
    (boxed("\\cos\\frac{\\pi}{3}"), "\\frac12", "ok"),
    (boxed("3-4i"), "3-4i", "ok"),
    (boxed("\\log_{10} 1000"), "3", "ok"),
    (boxed("\\tan\\frac{\\pi}{4}"), "1", "ok"),
]


@pytest.fixture(scope="module")
def scores(math_reward):
    samples = [Sample(prompt=f"problem {i}", completion=completion, reference=gold,
                      domain="math", group=f"g{i // 4}")
               for i, (completion, gold, _) in enumerate(CASES)]
    return math_reward.score(samples)


def test_table_is_large():
    assert len(CASES) >= 200
    assert {expected for _, _, expected in CASES} == {"ok", "wrong", "no_answer",
                                                      "bad_reference"}


@pytest.mark.parametrize("index", range(len(CASES)),
                         ids=[f"{i}-{c[2]}" for i, c in enumerate(CASES)])
def test_labeled_case(scores, index):
    completion, gold, expected = CASES[index]
    score = scores[index]
    assert score.reason == expected, (completion[-80:], gold, score)
    assert score.value == {"ok": 1.0, "bad_reference": None}.get(expected, 0.0)
