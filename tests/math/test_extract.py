"""Extraction alone: `extract_answer` and `prepare_reference`, no comparison."""

from __future__ import annotations

import pytest

from rewards.math import MathConfig, extract_answer, extract_boxed, prepare_reference
from rewards.math._extract import BOX_SCAN_CHARS

LOOSE = MathConfig()
STRICT = MathConfig(strict=True)

EXTRACTION = [
    ("so $\\boxed{\\frac{1}{2}}$.", "\\frac{1}{2}"),
    ("\\boxed{a{b{c}}d}", "a{b{c}}d"),
    ("\\boxed{\\{1,2\\}}", "\\{1,2\\}"),
    ("first \\boxed{1} then \\boxed{2}", "1, 2"),  # close boxes join (math-verify's rule)
    ("\\boxed{1} was wrong. After checking every step once more, \\boxed{2}", "2"),
    ("\\fbox{7}", "7"),
    ("$\\boxed 5$", "5"),
    ("\\boxed {x^2}", "x^2"),
    ("\\boxed{\\begin{pmatrix}1\\\\2\\end{pmatrix}}", "\\begin{pmatrix}1\\\\2\\end{pmatrix}"),
    ("<answer>42</answer>", "42"),
    ("<answer> x = 3 </answer> trailing", "x = 3"),
    ("<answer>\\boxed{9}</answer>", "9"),
    ("<answer>1</answer> ... <answer>2</answer>", "2"),
    ("<answer>So the answer is $7$.</answer>", "7"),
    ("Reasoning.\n#### 1,234", "1,234"),
    ("#### 15\n", "15"),
    ("Work.\n   #### 8", "8"),  # GSM8K's marker opens a line, after spaces too
    ("Soup FIX###### flooring Superman", None),  # hashes inside a line mark nothing
    ("The total is 7 #### 9", "9"),  # (the last number, not a marker)
    ("The answer is 3.5. Done", "3.5"),
    ("The answer is $x^2+1$.", "x^2+1"),
    ("the final answer is: $\\$12.50$.", "\\$12.50"),
    ("Final Answer: The final answer is $\\boxed{7}$. I hope it is correct.", "7"),
    ("**Final Answer:** 144", "144"),
    ("So the answer is (B).", "(B)"),
    ("Answer: C", "C"),
    ("The answer is \\(\\frac{3}{4}\\).", "\\frac{3}{4}"),
    ("The answer is $$\\sqrt{2}$$", "\\sqrt{2}"),
    ("so 3 apples and then 4.", "4"),
    ("it costs -2.5 dollars", "-2.5"),
    ("a ratio of 3/4", "3/4"),
    ("a total of 12,000 people", "12,000"),
    # An answer laid out as golds lay it out, after a phrase or `####`: read as the gold is.
    ("Answer: $y_1 = x$\n$y_2 = x^2$\nDone.", "y_1 = x, y_2 = x^2"),  # one per line
    ("The final answer is $56x^6+72x^5+$ $60x^2+6$.", "56x^6+72x^5+ 60x^2+6"),  # broken
    ("The final answer is $45/98$ meters, $30/49$ seconds.", "45/98 meters, 30/49 seconds"),
    ("The final answer is $x/4+\\sin x+$ C. I hope it is correct.", "x/4+\\sin x+ C"),
    ("#### $y=\\frac{1}{e}x$;$y=-\\frac{1}{e}x$", "y=\\frac{1}{e}x, y=-\\frac{1}{e}x"),
    ("The answer is $\\begin{pmatrix} 1 \\\\\n 2 \\end{pmatrix}$.",
     "\\begin{pmatrix} 1 \\\\\n 2 \\end{pmatrix}"),  # an inline matrix over lines
    # ... and no further: a paragraph, prose, a sentence's end or a currency sign ends it.
    ("The answer is $2$ because $2+2=4$.", "2"),
    # ... but a finished reply that offers another value after it hedges: the answer is read
    # with what follows (`_with_what_follows`), which is no single value
    ("The answer is $2$\n\n$$x = 4$$", "$2$\n\n$$x = 4$$"),
    ("The answer is $2$. Then $x = 4$.", "$2$. Then $x = 4$"),
    ("The answer is 7. Or 8.", "7. Or 8"),
    ("The answer is 7. Not.", "7. Not"),
    ("The answer is 7. I hope it is correct.", "7"),
    ("The answer is $3$ meters per second.", "3"),
    ("It costs $5 and then\n later $6 more. The answer is 11", "11"),
    ("#### .5", ".5"),  # a leading decimal point is the number's
    ("#### $.48$", ".48"),
    ("#### 72 apples. I hope it is correct.", "72 apples"),
    ("\\boxed{} and nothing else", None),
    ("no numbers here", None),
    ("", None),
]


@pytest.mark.parametrize("text,expected", EXTRACTION)
def test_extract(text, expected):
    assert extract_answer(text, LOOSE) == expected


def test_boxed_takes_priority_over_later_numbers():
    assert extract_answer("\\boxed{5} because 2 + 3 = 5 and 7 is not it", LOOSE) == "5"


def test_answer_tag_beats_boxed_in_reasoning():
    text = "<think>maybe \\boxed{3}</think><answer>4</answer>"
    assert extract_answer(text, LOOSE) == "4"


def test_strict_mode_has_no_last_number_fallback():
    assert extract_answer("so we get 8 apples", LOOSE) == "8"
    assert extract_answer("so we get 8 apples", STRICT) is None
    assert extract_answer("so we get \\boxed{8} apples", STRICT) == "8"


def test_an_unclosed_last_box_runs_to_the_end():
    # A truncated completion: math-verify reads the rest of the text as the box's content.
    assert extract_boxed("\\boxed{1} and then \\boxed{2") == "2"


def test_only_the_tail_is_searched_except_for_a_box():
    config = MathConfig(tail_chars=1000)
    text = "The answer is 7.\n" + "x" * 5000
    assert extract_answer(text, config) is None
    assert extract_answer(text, MathConfig(tail_chars=6000)) == "7"
    # A box is looked for further back (`BOX_SCAN_CHARS`): a correct box followed by a page
    # of token soup is still the answer; one beyond that bound is not read.
    assert extract_answer("\\boxed{7}" + "x" * 5000, config) == "7"
    assert extract_answer("\\boxed{7}" + "x" * (BOX_SCAN_CHARS + 10), config) is None


@pytest.mark.parametrize("reference,expected", [
    ("42", "42"), (42, "42"), (3.0, "3"), (2.5, "2.5"), ("  $\\frac12$ ", "\\frac12"),
    ("\\boxed{x+1}", "x+1"), ("The solution gives \\boxed{\\{1,2\\}}.", "\\{1,2\\}"),
    ("Natalia sold 48 clips.\n#### 72", "72"), ("", None), ("$$", None), (None, None),
    (True, None), (["5"], None), ("\\boxed{}", None),
])
def test_prepare_reference(reference, expected):
    assert prepare_reference(reference) == expected
