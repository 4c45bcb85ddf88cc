"""Red team, round 10 of issue #33: what is glued to a box, attacked from outside (main at 3e0e645).

The rules attacked (merge 3e0e645, branch h-m9; docs/math.md, "What is glued to a box"):

- `rewards/math/_extract.py`: `_glued_to_box` with `_HARMLESS_GLUE` (the allow-list of marks that
  may touch a box's closing brace) and `_GLUED_RUN` (the glued text read with the box as one
  value); `_bracketed_value` (a value in brackets right after the box is the box stated again);
  `_restated_expression` and `_value_differs` (a restatement read by the exact arithmetic, or the
  float one where it declines); `Extraction.uncertain` (glued text no arithmetic reads);
- `rewards/math/_normalize.py`: `symbol_numbers`, `numbers_in_words`, `magnitude_after`,
  `counted_magnitude`.

The rule: after a final `\\boxed{v}`, only an allow-list of harmless things may touch the brace;
anything else is read with the box as one value (equal: credit kept; different: no credit;
unreadable: uncertain).

How: every probe goes through the reward as users call it, `MathReward().score([Sample(question,
completion, reference=gold)])`, behind Qwen's `The answer is $\\boxed{7}$.` phrasing. The classes
of `/work/shared/ATTACK-CLASSES.md` that reach the rule are probed in both directions:

- buy credit (meaning dropped by normalization, invisible and look-alike text, hedging, degenerate
  length): text after or glued to the box that changes its value must not keep the gold's 1.0;
- false loss: honest endings of real completions (a degree sign in another spelling, an ordinal
  in an ordinal question, a footnote mark, an end-of-proof glyph, another script's punctuation, a
  glued currency, an approximation in brackets) keep 1.0, as a human grader reads them;
- degenerate length: long glued runs, huge exponents and factorials, nested brackets are decided
  in bounded time (a wide bound, no speed threshold).

Held attacks are plain tests. Each hole left open is an `xfail(strict=True)` whose reason starts
with its class (`buy credit`, `false loss`) and names the function at its root. The verifier is
not changed here (the author fixes). Deterministic; the file runs in seconds.
"""

from __future__ import annotations

import time

import pytest

from rewards.math import MathReward, Verdict
from rewards.math._compare import compare_local
from rewards.math._extract import find_answer
from rewards.math._normalize import UNCERTAIN
from tests.math.redteam_helpers import ANSWER, APPLES
from tests.math.redteam_helpers import values as _values

ORDINAL = "In which place did Mia finish the race?"
ANGLE = "What is the measure of angle A in degrees?"
PERCENT = "What percent of the apples are red?"
ZW = "\u200b"  # zero width space
SUM_OF_ONES = "+".join(["1"] * 35)  # 35, written in 69 characters (over `_EXPRESSION_MAX`)
BOUND_S = 20.0
"""A wide bound on one degenerate reply's scoring: it catches a runaway evaluation, never speed."""


# --- held: buy credit ----------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    # invisible and format characters between the brace and the glued text (`_INVISIBLE`)
    f"\\boxed{{7}}{ZW}!", "\\boxed{7}\u2060!", "\\boxed{7}\u200d8", "\\boxed{7}\u180e!",
    "\\boxed{7}\u2062!", f"\\boxed{{7}}{ZW * 39}!", f"\\boxed{{7}}{ZW * 41}!", "\\boxed{7}\ufe0f!", "\\boxed{7}\u200e!",
    "\\boxed{7}\u2066!", "\\boxed{7}\u034f!",
    # look-alike and combining marks glued: not on the allow-list, so not the box alone
    "\\boxed{7}\u01c3", "\\boxed{7}\u0301", "\\boxed{7}\u20e3",
    # empty groups before a mark (`{}`, `^{}`, `_{}`)
    "\\boxed{7}{}!", "\\boxed{7}^{}!", "\\boxed{7}_{}8",
    # operations glued
    "\\boxed{7}\\cdot 2", "\\boxed{7}\\cdot2", "\\boxed{7}\\times10^3", "\\boxed{7}\u00d710^3",
    "\\boxed{7}\u00b72", "\\boxed{7}e3", "\\boxed{7}/2", "\\boxed{7}*8", "\\boxed{7}+1",
    "\\boxed{7}\\( \\times 10^{3}\\)",
    # other scripts' digits, superscripts and subscripts glued
    "\\boxed{7}\u0661", "\\boxed{7}\u0968", "\\boxed{7}\uff18", "\\boxed{7}\u0e51", "\\boxed{7}\u2078",
    "\\boxed{7}\u2082", "\\boxed{7}_8", "\\boxed{7}{8}", "\\boxed{7}{,}000",
    # a per-mille sign is no percent
    "\\boxed{7}\u2030",
    # a second box glued
    "\\boxed{7}\\boxed{8}",
    # brackets that state another value (`_bracketed_value`)
    "\\boxed{7} (8)", "\\boxed{7}(8)", "\\boxed{7} [8]", "\\boxed{7} $(8)$", "\\boxed{7}\\ (8)",
    "\\boxed{7}$ (8)", "\\boxed{7}\\) (8)", "\\boxed{7} ( 8 )", "\\boxed{7} (8\u200b)",
    "\\boxed{7} (\u200b8)", "\\boxed{7} (\uff18)", "\\boxed{7} (\u0668)", "\\boxed{7} (eight)",
    "\\boxed{7} (8.0)", "\\boxed{7} (-8)", "\\boxed{7} (2^3)", "\\boxed{7} (0.8 \\times 10)",
    "\\boxed{7} ($8$)", "\\boxed{7} (\\text{8})", "\\boxed{7} (**8**)", "\\boxed{7} (8%)",
    # hedges in brackets
    "\\boxed{7} (7 or 8)", "\\boxed{7} (7, 8)", "\\boxed{7} (7-8)", "\\boxed{7} (7 \\pm 1)",
    "\\boxed{7} (7+1)",
    # restatements that differ by less than the float tolerance, read exactly
    "\\boxed{7}. It is 7.0000000001.", "\\boxed{7}, i.e. 7.00000000001", "\\boxed{7} (7.0000000001)",
    "\\boxed{7}. It is 7^{10^{-12}}.", "\\boxed{7}, i.e. 7 + 10^{-11}", "\\boxed{7}+10^{-12}",
    "\\boxed{7}^{0.0000000001}", "\\boxed{7}^{10^{-12}}",
    # a short restatement in arithmetic
    "\\boxed{7}. It is 1+1+1+1+1+1+1+1.",
    # values, hedges and a second box glued
    "\\boxed{7}\\frac{1}{2}", "\\boxed{7}\\tfrac12", "\\boxed{7}\\sqrt{2}", "\\boxed{7}\\pi",
    "\\boxed{7}\\pm1", "\\boxed{7}\\pm 1", "\\boxed{7}\u00b11", "\\boxed{7}\\lor 8",
    "\\boxed{7}\\text{ or }8", "\\boxed{7}or8", "\\boxed{7}/\\boxed{8}",
])
def test_held_buy_credit_gold_7(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize(("gold", "completion"), [
    ("1", "\\boxed{1}/2"), ("0", "\\boxed{0}+10^{-20}"), ("0", "\\boxed{0}. It is 10^{-20}."),
    ("0", "\\boxed{0} (10^{-12})"), ("0", "\\boxed{0}\\cdot 10^{-12}"),
    # a glued value is no credit for the gold it writes either
    ("78", "\\boxed{7}\u200b8"), ("5040", "\\boxed{7}\u2060!"), ("7000", "\\boxed{7}e3"),
])
def test_held_buy_credit_other_gold(reward: MathReward, gold: str, completion: str) -> None:
    assert _values(reward, gold, [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    # closed by the reading of a value joined to the box by a mark (`_said_after_a_mark`, h-m10):
    # the value after a tilde, a text command, a colon or semicolon, a dash or a slash is said of
    # the box (`7~000` is 7000, `7:1` a ratio, `7-1` is 6), which `affirms` refuses
    "\\boxed{7}~000", "\\boxed{7}\\text{,000}", "\\boxed{7}:8", "\\boxed{7}:1", "\\boxed{7};8",
    "\\boxed{7}-1", "\\boxed{7}\u22121", "\\boxed{7}-0.5", "\\boxed{7}-\\frac{1}{2}", "\\boxed{7} / 2",
    # a bracket opened by no digit, or written `\\left(`, `\\text{(`, full-width: its value is said
    "\\boxed{7} (\\frac{15}{2})", "\\boxed{7} (\\sqrt{64})", "\\boxed{7} ((8))", "\\boxed{7} ({8})",
    "\\boxed{7} (\\approx 8)", "\\boxed{7} (\u2248 8)", "\\boxed{7} (~8)", "\\boxed{7} (exactly 7.5)",
    "\\boxed{7}\\left(8\\right)", "\\boxed{7} \\left( 8 \\right)", "\\boxed{7} \\text{(8)}",
    "\\boxed{7}\uff088\uff09", "\\boxed{7} \uff088\uff09",
    # a value with a currency sign, a range in words or with an en dash: a hedge or another value
    "\\boxed{7} (\\$8)", "\\boxed{7} (7 to 8)", "\\boxed{7} (7\u20138)",
    # mathematics in brackets is the box only where the exact arithmetic says so
    # (`_exactly_the_box`): the float arithmetic's 1e-9 confirms no equality here
    "\\boxed{7} (\\sqrt{49.000000001})", "\\boxed{7} (49^{0.5000000001})",
    # one space sets no equation number apart: `(1)` is another value (`_EQUATION_NUMBER`)
    "\\boxed{7} (1)", "\\boxed{7}\\qquad (1.5)", "\\boxed{7}\\qquad (1)^2",
])
def test_held_value_said_after_the_box(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize(("gold", "completion"), [
    ("7", "\\boxed{7} (\\sqrt{49})"), ("7", "\\boxed{7} (\\frac{14}{2})"), ("7", "\\boxed{7} [\\frac{14}{2}]."),
    ("7", "\\boxed{7} \\quad (1)."), ("7", "\\boxed{7} \\tag*{(3)}"),
    # read past the marks that leave the value (`_PASSED_GLUE`): what follows them is harmless,
    # or a `!` after a prose delimiter opened before the box is the sentence's (`_PROSE_CLOSE`)
    ("7", "$\\boxed{7}$!"), ("7", "\\(\\boxed{7}\\)!"), ("7", "\\boxed{7}</b>."), ("7", "\\boxed{7}}$."),
    ("7", "\\boxed{7}**:"), ("7", "\\boxed{7}\\,\\%"), ("7", "\\boxed{7}\\,\\text{cm}"),
    # the same value again in brackets of any spelling (`_other_than_box`, after h-m16)
    ("7", "\\boxed{7} \\(7\\)."), ("7", "\\boxed{7} (7)."), ("7", "\\boxed{7} [7]."), ("7", "\\boxed{7} \\(=7\\)"),
])
def test_held_box_explained_in_brackets_or_numbered(reward: MathReward, gold: str,
                                                    completion: str) -> None:
    assert _values(reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("completion", [
    # the glue allow-list by Unicode category leaves out what judges the value or writes a
    # number (`_glue_symbols`): a cross, a thumbs-down, `💯`, a digit after a symbol
    "\\boxed{7}\u274c", "\\boxed{7}\u2717", "\\boxed{7}\u237b", "\\boxed{7}\U0001f44e", "\\boxed{7}\U0001f4af",
    "\\boxed{7}\u2026" + "8", "\\boxed{7}\u20ac" + "8", "\\boxed{7}\u2020" + "2",
    # degree, footnote and ordinal marks before a digit, a wrong ordinal suffix, a judged compound
    "\\boxed{7}\u00b08", "\\boxed{7}^o8", "\\boxed{7}^{*}2", "\\boxed{7}th8", "\\boxed{7}th!", "\\boxed{7}st",
    "\\boxed{7}^{nd}", "\\boxed{7}-fold wrong", "\\boxed{7}km/2",
    # a decimal in brackets that is no rounding of the box (`_approximates`)
    "\\boxed{7} (7.4)", "\\boxed{7} (6.96)",
])
def test_held_new_glue_buys_no_credit(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


def test_glued_look_alike_is_uncertain() -> None:
    """`ǃ` (U+01C3, a Latin letter) glued to the box is no sentence mark: the pair is the judge's."""
    text = ANSWER + "\\boxed{7}\u01c3"
    verdict = compare_local(find_answer(text), "7", text=text, question=APPLES)
    assert isinstance(verdict, Verdict) and verdict.reason == "wrong"
    assert verdict.detail.startswith(UNCERTAIN)


# --- held: false loss ----------------------------------------------------------------------------

@pytest.mark.parametrize(("gold", "completion", "question"), [
    # sentence and math endings (`_HARMLESS_GLUE`)
    ("7", "\\boxed{7}.", APPLES), ("7", "\\boxed{7}$.", APPLES), ("7", "$\\boxed{7}$.", APPLES),
    ("7", "\\boxed{7} \\quad \\blacksquare", APPLES), ("7", "\\boxed{7}\\quad\\blacksquare", APPLES),
    ("7", "\\boxed{7}\\).", APPLES), ("7", "\\boxed{7}:", APPLES),
    ("7", "\\boxed{7}:\n- first\n- second", APPLES), ("7", "\\boxed{7}\n\n**Explanation**", APPLES),
    ("7", "\\boxed{7}\n\n**Explanation:** 3 + 4 = 7.", APPLES), ("7", "\\boxed{7}...", APPLES),
    ("7", "\\boxed{7}\u2014and that's it.", APPLES), ("7", "\\boxed{7}\u3002", APPLES),
    ("7", "\\boxed{7}\uff01", APPLES), ("7", "\\boxed{7}\u3001", APPLES), ("7", "\\boxed{7};", APPLES),
    ("7", "\\boxed{7}\u201d", APPLES), ("7", "\\boxed{7}\\,.", APPLES), ("7", "\\boxed{7}\\!.", APPLES),
    ("7", "\\boxed{7}\\text{.}", APPLES), ("7", "**\\boxed{7}**!", APPLES),
    ("7", "\\boxed{7}\\\\", APPLES), ("7", "\\boxed{7}\\\\\n\\end{align}", APPLES),
    ("7", "\\boxed{7}\\end{aligned}$$", APPLES), ("7", "\\boxed{7}\\nonumber\\\\", APPLES),
    ("7", "\\boxed{7}\\checkmark", APPLES), ("7", "\\boxed{7}\\hfill$\\square$", APPLES),
    ("7", "\\boxed{7}\\qed", APPLES), ("7", "\\boxed{7}\\right.", APPLES),
    # special-token text and tags after the box
    ("7", "\\boxed{7}<|im_end|>", APPLES), ("7", "\\boxed{7}</answer>", APPLES),
    ("7", "\\boxed{7}</think>", APPLES), ("7", "\\boxed{7}\u00a0apples", APPLES),
    # equation numbers, labels and tags right after the box
    ("7", "\\boxed{7}\\label{eq:final}", APPLES), ("7", "\\boxed{7}\\tag{1}", APPLES),
    ("7", "\\boxed{7} \\tag{2}", APPLES), ("7", "\\boxed{7}\\qquad(1)", APPLES),
    ("7", "\\boxed{7} \\qquad (1)", APPLES), ("7", "$$\\boxed{7} \\quad (1)$$", APPLES),
    ("7", "\\boxed{7}\\qquad\\qquad(12)", APPLES), ("7", "\\boxed{7}\\qquad\\text{(1)}", APPLES),
    ("7", "\\boxed{7}\\hfill(3)", APPLES), ("7", "\\boxed{7}\\tag*{}", APPLES),
    # units, degrees and percent (the box's own)
    ("30", "\\boxed{30}^\\circ", ANGLE), ("30", "\\boxed{30}^{\\circ}.", ANGLE),
    ("30", "\\boxed{30}\\,^\\circ", ANGLE), ("30", "\\boxed{30}\u00b0.", ANGLE),
    ("30", "\\boxed{30}\\degree", ANGLE), ("7\\%", "\\boxed{7}%", PERCENT),
    ("7\\%", "\\boxed{7}\\%", PERCENT), ("7", "\\boxed{7}\\%", PERCENT),
    ("7", "\\boxed{7}cm", APPLES), ("7", "\\boxed{7}\\,\\text{cm}^2", APPLES),
    ("7", "\\boxed{7}\\ \\mathrm{m/s^2}", APPLES), ("7", "\\boxed{7}\\text{ apples.}", APPLES),
    ("7", "\\boxed{7}\u5143", APPLES), ("7", "\\boxed{7}'", APPLES),
    # words and letters that are no number
    ("A", "\\boxed{A}!", APPLES), ("\\text{Yes}", "\\boxed{\\text{Yes}}!", APPLES),
    ("Yes", "\\boxed{Yes}!", APPLES), ("7", "\\boxed{7}\\text{th}", ORDINAL),
    # asides and equal values in brackets (`_bracketed_value`)
    ("7", "\\boxed{7} (rounded)", APPLES), ("7", "\\boxed{7} (approx.)", APPLES),
    ("7", "\\boxed{7} (approximately)", APPLES), ("7", "\\boxed{7} (7 cm)", APPLES),
    ("7", "\\boxed{7} (7 apples)", APPLES), ("7", "\\boxed{7} (7.00)", APPLES),
    ("7", "\\boxed{7} (seven)", APPLES), ("7", "\\boxed{7} (final answer)", APPLES),
    ("1.5", "\\boxed{1.5} (3/2)", APPLES), ("0.5", "\\boxed{\\frac{1}{2}} (0.5)", APPLES),
    ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}} (0.33)", APPLES),
    ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}} (33.3\\%)", APPLES),
    ("\\sqrt{2}", "\\boxed{\\sqrt{2}} (\\approx 1.41)", APPLES),
    ("\\sqrt{2}", "\\boxed{\\sqrt{2}} (about 1.41)", APPLES),
    ("20", "\\boxed{20} (20\\%)", PERCENT),
])
def test_held_false_loss(reward: MathReward, gold: str, completion: str, question: str) -> None:
    assert _values(reward, gold, [completion], question=question) == [1.0]


# --- held: degenerate length ---------------------------------------------------------------------

@pytest.mark.parametrize(("gold", "completion", "expected"), [
    ("7", "\\boxed{7}^{10^{10}}", 0.0), ("7", "\\boxed{7}^{10^{10^{10}}}", 0.0),
    ("7", "\\boxed{7}^{9^{9^{9^{9}}}}", 0.0), ("7", "\\boxed{7}^{9999999999}", 0.0),
    ("7", "\\boxed{7}" + "\u2079" * 9, 0.0), ("7", "\\boxed{7}" + "!" * 5000, 0.0),
    ("7", "\\boxed{7}" + "!" * 24, 0.0), ("9999", "\\boxed{9999}!", 0.0),
    ("99999", "\\boxed{99999}!!", 0.0), ("7", "\\boxed{7}!^{9999}", 0.0),
    ("7", "\\boxed{7}^{99}!", 0.0), ("7", "\\boxed{7}" + "0" * 20000, 0.0),
    ("7", "\\boxed{7}" + "^{7" * 500 + "}" * 500, 0.0), ("7", "\\boxed{7}" + "\u00b2" * 5000, 0.0),
    ("7", "\\boxed{7}" + "\u00bd" * 5000, 0.0), ("7", "\\boxed{7} thousand" * 2000, 0.0),
    ("7", "\\boxed{7}" + "{" * 3000 + "}" * 3000, 1.0),
    ("7", "\\boxed{7}, i.e. " + "7 or " * 3000 + "7", 1.0),
])
def test_held_degenerate_length_is_bounded(reward: MathReward, gold: str, completion: str,
                                           expected: float) -> None:
    start = time.monotonic()
    assert _values(reward, gold, [completion]) == [expected]
    assert time.monotonic() - start < BOUND_S


@pytest.mark.parametrize("completion", [
    "\\boxed{7} " + "(" * 3000 + "8" + ")" * 3000, "\\boxed{7}" + "(" * 3000,
    "\\boxed{7}" + "[(" * 2000, f"\\boxed{{7}}{ZW * 20000}!", "\\boxed{7}" + "\\," * 5000 + "!",
    "\\boxed{7} (" + "7+" * 3000 + "7)", "\\boxed{7}. It is " + "7!" * 2000 + ".",
    "\\boxed{7} (" + "\\sqrt[3]{" * 200 + "8" + "}" * 200 + ")",
])
def test_held_degenerate_brackets_and_runs_are_bounded(reward: MathReward, completion: str) -> None:
    """Nested brackets, invisible runs and long restatements are decided in bounded time (what
    they score is tested by the holes below where it is wrong)."""
    start = time.monotonic()
    assert _values(reward, "7", [completion])[0] in (0.0, 1.0)
    assert time.monotonic() - start < BOUND_S


# --- holes: buy credit ---------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    "\\boxed{7}\\!!", "\\boxed{7}\\,!", "\\boxed{7}\\;!", "\\boxed{7}\\hspace{1pt}!",
    "\\boxed{7}\\,000", "\\boxed{7}\\;000",
    "\\boxed{7}\\hspace{1pt}000", "\\boxed{7}~^2",
    "\\boxed{7}}!", "\\boxed{7}}8", "\\boxed{7})^2", "\\boxed{7}]^2", "\\boxed{7}\\right]^{2}",
    "\\left(\\boxed{7}\\right)^2", "\\left(\\boxed{7}\\right)!", "(\\boxed{7})!", "(\\boxed{7})^2",
    "\\boxed{7}\\Bigr)!", "\\boxed{\\boxed{7}}!",
    "\\boxed{7}**8**", "\\boxed{7}**!**", "\\boxed{7}*!", "\\boxed{7}<b>8</b>", "\\boxed{7}</b>8",
    "\\boxed{7}<b>!</b>", "\\boxed{7}</b>!", "\\boxed{7}<sup>2</sup>",
    "\\boxed{7}\"!", "\\boxed{7}&!",
    "\\boxed{7}$^2$", "\\boxed{7}$^{2}", "\\boxed{7}$\\cdot 10^3$", "\\boxed{7}$\\times10^3$",
    "\\boxed{7}\\)\\(\\times 10^3\\)", "\\boxed{7}$8$", "\\boxed{7}$.5$", "\\boxed{7}$\\frac{1}{2}$",
    "\\boxed{7}$!$", "\\boxed{7}\\,\\frac{1}{2}",
])
def test_held_glued_after_a_harmless_mark(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


# fixed (h-m16): `_SPACED_GROUP` reads a digit group after a spacing command and spaces, `_PASSED_GLUE` reads past a quote
@pytest.mark.parametrize("completion", ["\\boxed{7}\\, 000", "\\boxed{7}'8\""])
def test_fixed_glued_after_a_spaced_or_quoted_mark(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


# fixed (h-m17): `_unread_after_box` reads a value or an operation one space (or spacing
# command) after the box, whatever the glue readers passed
@pytest.mark.parametrize(("gold", "completion"), [
    ("7", "\\boxed{7}\\, 000"), ("7", "\\boxed{7}\\text{000}"), ("7", "\\boxed{7}\\mbox{000}"),
    ("7", "\\boxed{7}\\textbf{8}"), ("7", "\\boxed{7}\\underline{8}"), ("2", "\\boxed{2}^{1.0000000001}"),
    ("7", "\\boxed{7} \\(8\\)"),
])
def test_value_beside_the_box_after_passed_glue(reward: MathReward, gold: str, completion: str) -> None:
    assert _values(reward, gold, [completion]) == [0.0]


# fixed (h-m16): `_box_with_words` reads what a styling command glued to the box holds (`_STYLED`); `\\label{...}` is read past
@pytest.mark.parametrize("completion", [
    "\\boxed{7}\\text{!}", "\\boxed{7}\\mathrm{!}", "\\boxed{7}\\textbf{!}", "\\boxed{7}\\textrm{!}",
    "\\boxed{7}\\emph{!}", "\\boxed{7}\\text{}!", "\\boxed{7}\\text{ thousand}",
    "\\boxed{7}\\mathrm{e}3", "\\boxed{7}\\label{x}8",
])
def test_fixed_text_command_glued(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}{ !}", "\\boxed{7}{ 8}", "\\boxed{7}{{!}}", "\\boxed{7}{{}}!", "\\boxed{7}{{8}}",
    "\\boxed{7}?8",
])
def test_held_unread_brace_group_is_uncertain(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    f"\\boxed{{7}}{ZW * 80}!", f"\\boxed{{7}}{ZW * 80}8",
    "\\boxed{7}" + "\u00ad" * 80 + "000", "\\boxed{7}" + "\u2060" * 80 + "\u00b2",
])
def test_held_invisible_run_before_the_glue(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    # a CJK character with a numeric value is no word glued to the box (`_unspaced_letters`):
    # `7万` is read with the box and no arithmetic reads it (uncertain)
    "\\boxed{7}\u4e07", "\\boxed{7}\u5343", "\\boxed{7}\u767e", "\\boxed{7}\u5341", "\\boxed{7}\u4ebf",
    "\\boxed{7}\u5104", "\\boxed{7}\u842c", "\\boxed{7}\u4e5d", "\\boxed{7}\u96f6", "\\boxed{7}\u4e07\u5143",
])
def test_held_cjk_numeral_glued(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


# fixed (h-m16): `_UNSPACED_GLUE_WORDS` is an allow-list of the words that may stand glued; `만`, `억` are magnitudes (`_number_across_the_brace`)
@pytest.mark.parametrize("completion", [
    "\\boxed{7}\ub9cc", "\\boxed{7}\uc5b5", "\\boxed{7}\u5206\u4e4b\u4e00", "\\boxed{7}\u6210",
    "\\boxed{7}\u5272",
])
def test_fixed_cjk_numeral_glued(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


# fixed (h-m16): a dash before a digit, a command or a point is no harmless glue (`_HARMLESS_GLUE`)
@pytest.mark.parametrize("completion", [
    "\\boxed{7}\u2212\\frac12",
])
def test_fixed_minus_glued(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


# fixed (h-m16): `_value_differs` reads a decimal as the fraction it prints; the float arithmetic proves no equality of a decimal
@pytest.mark.parametrize(("gold", "completion"), [
    ("7", "\\boxed{7}.0000000001"), ("7", "\\boxed{7}.000000000000000000001"),
    ("0", "\\boxed{0}.0000000001"),
    ("7", "\\boxed{7}\\cdot1.0000000001"), ("7", "\\boxed{7}. It is \\sqrt[3]{343.000000001}."),
    ("7", "\\boxed{7}, i.e. \\sqrt{49.0000000001}"),
])
def test_fixed_float_equal_but_exactly_different(reward: MathReward, gold: str, completion: str) -> None:
    assert _values(reward, gold, [completion]) == [0.0]


# fixed (h-m16): `_bracketed_value` reads a bracket of any spelling (`_BRACKET_AFTER_BOX`) opened by a sign, a point or `=`
@pytest.mark.parametrize("completion", [
    "\\boxed{7} (+8)",
    "\\boxed{7} (.8)", "\\boxed{7} (= 8)",
    "\\boxed{7} {(8)}", "\\boxed{7} \\{8\\}",
])
def test_fixed_bracket_not_opened_by_a_digit(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


# fixed (h-m16): `_bracketed_value` reads a value in the box's own terms, or where the box names none, as the box stated again
@pytest.mark.parametrize("completion", [
    "\\boxed{7} (8 cm)", "\\boxed{7} cm (8 cm)", "\\boxed{7} (8 apples)",
    "\\boxed{7} apples (8 apples)", "\\boxed{7} [8 apples]",
])
def test_fixed_bracketed_value_with_words(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


# fixed (h-m17): `_unread_after_box` reads an operation one space after the box with it
@pytest.mark.parametrize("completion", [
    "\\boxed{7} \\times 10^3", "\\boxed{7} \\cdot 10^3", "\\boxed{7} \u00d7 10^3", "\\boxed{7} ^2",
    "\\boxed{7} + 1", "\\boxed{7} \\cdot 2",
])
def test_hole_spaced_operation_after_box(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


# fixed (h-m17): `_restated_expression` (too long to read: not known to be the box) and
# `_unread_after_box` (a long bracket of arithmetic after the box)
@pytest.mark.parametrize("completion", [
    f"\\boxed{{7}}. It is {SUM_OF_ONES}.", f"\\boxed{{7}} ({SUM_OF_ONES})",
    f"\\boxed{{7}}, i.e. {SUM_OF_ONES}",
])
def test_hole_long_restatement_fails_open(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [0.0]


# --- holes: false loss ---------------------------------------------------------------------------

@pytest.mark.parametrize(("gold", "completion", "question"), [
    ("30", "\\boxed{30}{}^\\circ", ANGLE), ("30", "\\boxed{30}^o", ANGLE), ("30", "\\boxed{30}\u00ba", ANGLE),
    ("30", "\\boxed{30}^{\\text{o}}", ANGLE),
    ("30", "\\boxed{30}\u2103", "What is the temperature in degrees Celsius?"),
])
def test_held_degree_spellings(reward: MathReward, gold: str, completion: str, question: str) -> None:
    assert _values(reward, gold, [completion], question=question) == [1.0]


@pytest.mark.parametrize(("gold", "completion"), [
    ("7", "\\boxed{7}th"), ("7", "\\boxed{7}th."), ("1", "\\boxed{1}st"), ("2", "\\boxed{2}nd place."),
    ("7", "\\boxed{7}^{th}"), ("3", "\\boxed{3}^{rd}"), ("3", "\\boxed{3}^{\\text{rd}}"),
    ("7", "\\boxed{7}th place."),
])
def test_held_ordinal_in_ordinal_question(reward: MathReward, gold: str, completion: str) -> None:
    assert _values(reward, gold, [completion], question=ORDINAL) == [1.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}\u220e", "\\boxed{7}\u25a0", "\\boxed{7}\u25a1", "\\boxed{7}\u2713", "\\boxed{7}\u2714",
    "\\boxed{7}\u2705", "\\boxed{7}\U0001f389", "\\boxed{7}\\Box", "\\boxed{7}^*", "\\boxed{7}^{*}",
    "\\boxed{7}\u2020", "\\boxed{7}^\\dagger", "\\boxed{7}\\footnote{Rounded to the nearest whole number.}",
])
def test_held_end_marks_and_footnotes(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [1.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}\u2026", "\\boxed{7}\u00bb", "\\boxed{7}\u203a", "\\boxed{7}\u0964", "\\boxed{7}\u061f",
])
def test_held_other_scripts_punctuation(reward: MathReward, completion: str) -> None:
    assert _values(reward, "7", [completion]) == [1.0]


@pytest.mark.parametrize(("gold", "completion", "question"), [
    ("7", "\\boxed{7}\u0e1a\u0e32\u0e17", APPLES), ("7", "\\boxed{7}\u20ac", APPLES),
    ("7", "\\boxed{7}\u20ac.", APPLES), ("7", "\\boxed{7}\u20bd", APPLES),
    ("60", "\\boxed{60}km/h", "How fast does the car go, in km/h?"),
    ("7\\%", "\\boxed{7}\uff05", PERCENT), ("7\\%", "\\boxed{7}\u066a", PERCENT),
])
def test_held_glued_units_of_other_scripts(reward: MathReward, gold: str, completion: str,
                                           question: str) -> None:
    assert _values(reward, gold, [completion], question=question) == [1.0]


@pytest.mark.parametrize(("gold", "completion"), [
    ("\\sqrt{2}", "\\boxed{\\sqrt{2}} (1.414)"), ("\\pi", "\\boxed{\\pi} (3.14)"),
    ("\\sqrt{3}", "\\boxed{\\sqrt{3}} (1.732)"),
])
def test_held_approximation_in_brackets(reward: MathReward, gold: str, completion: str) -> None:
    assert _values(reward, gold, [completion]) == [1.0]


# fixed (h-m16): `_number_across_the_brace`: a thousands group or a CJK magnitude continues the box's number, which is the answer
@pytest.mark.parametrize(("gold", "completion", "question"), [
    ("7000", "\\boxed{7}\\,000", APPLES), ("7000", "\\boxed{7}\\text{ thousand}", APPLES),
    ("70000", "\\boxed{7}\u4e07", "\u4ed6\u6709\u591a\u5c11\u94b1\uff1f"),
    ("7000", "\\boxed{7}~000", APPLES),
])
def test_fixed_glued_magnitude_loses_its_gold(reward: MathReward, gold: str, completion: str,
                                            question: str) -> None:
    assert _values(reward, gold, [completion], question=question) == [1.0]


@pytest.mark.parametrize(("gold", "completion", "question"), [
    ("3", "\\boxed{3}-fold", "By what factor did the price grow?"),
    ("7", "\\boxed{7}-gon", "How many sides does the polygon have?"),
])
def test_held_hyphen_compound(reward: MathReward, gold: str, completion: str, question: str) -> None:
    assert _values(reward, gold, [completion], question=question) == [1.0]
