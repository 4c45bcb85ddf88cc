"""Red team (attack34) on the one reading rule for model text (`rewards.text.read_text`,
`is_blank`) as the instruction-following reward applies it: replies a policy can sample to
buy a constraint a reader would say it broke. Attacks that held are kept as probes; holes
still open are `xfail(strict=True)` with the reason."""

from __future__ import annotations

import time

import pytest

from rewards import Sample
from rewards.ifeval import IFEvalReward
from rewards.text import is_blank, read_text

CHEAP = {"instruction_id_list": ["punctuation:no_comma", "change_case:english_lowercase",
                                 "length_constraints:number_words"],
         "kwargs": [{}, {}, {"num_words": 50, "relation": "less than"}]}
"""Constraints an empty reply would follow, were it read as text."""
FORBIDDEN = {"instruction_id_list": ["keywords:forbidden_words"],
             "kwargs": [{"forbidden_words": ["password"]}]}


def _score(reference: object, text: str, **options: object):
    return IFEvalReward(**options).score([Sample("p", text, reference)])[0]


# ---- empty-looking replies ------------------------------------------------------------------

@pytest.mark.parametrize("blank", [
    "\u200b", "\u2060", "\ufeff", "\u180e", "\u034f", "\ufe0f", "\U000e0100", "\U000e0041",
    "\u3164", "\u115f", "\u1160", "\uffa0", "\u17b4", "\U0001bca0", "\U0001d173",
    *map(chr, range(0x2000, 0x200b)), "\u3000", "\u00a0", "\u1680", "\u2028", "\u2029",
    # held before attack34 above; closed by attack34 below (they scored 2/3 as "wrong")
    "\u2800", "\x00", "\x07", "\x1b", "\x7f", "\x81", "\x9f", "\u0301", "\u20dd\u0301",
    "\ue000", "\U000f0000", "\u0378", "\uffff", "\u200b\u2800", "\u2800\ufe0f",
])
def test_a_reply_a_reader_sees_nothing_in_follows_nothing(blank: str) -> None:
    assert is_blank(blank * 40)
    score = _score(CHEAP, blank * 40)
    assert (score.value, score.reason) == (0.0, "no_answer")
    assert _score(CHEAP, "ok then").value == 1.0  # the constraints are cheap to follow


@pytest.mark.parametrize("shown", ["a", "7", ".", "\u00e9", "\u65e5", "\u2764\ufe0f", "a\u0301",
                                   "\u0661", "\U0001f600"])
def test_a_reply_with_one_visible_character_is_not_blank(shown: str) -> None:
    assert not is_blank("\u2800 " + shown + "\u200b")


def test_loose_mode_does_not_keep_a_blank_looking_line() -> None:
    # loose mode drops the first line; what is left must be seen to be checked
    reference = {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}
    score = _score(reference, "a, b\n" + "\u2800" * 5, mode="loose", allow_loose=True)
    assert score.value == 0.0


# ---- a forbidden word hidden by something a reader does not see ------------------------------

@pytest.mark.parametrize("hidden", ["\x00", "\x1b", "\x7f", "\x08\x08", "\x8d", "\x9b"])
def test_a_control_character_inside_a_word_does_not_hide_it(hidden: str) -> None:
    assert _score(FORBIDDEN, f"my pass{hidden}word is hunter2").value == 0.0
    assert read_text(f"pass{hidden}word") == "password"


def test_whitespace_controls_stay_whitespace() -> None:
    text = "a\tb\nc\x0bd\x0ce\rf\x1cg\x85h"
    assert read_text(text) == text
    assert _score(FORBIDDEN, "my pass\nword").value == 1.0  # two words on two lines


@pytest.mark.parametrize("shown_as_itself", [
    "\u202e\u2066drowssap\u2069\u202c",  # an isolate inside an override is not overridden
    "pa\u0323ssword",  # a dot below makes another letter
])
def test_what_a_reader_sees_as_another_word_is_not_the_word(shown_as_itself: str) -> None:
    assert _score(FORBIDDEN, f"my {shown_as_itself} here").value == 1.0


@pytest.mark.parametrize("word", ["p\u0430ssword", "p\u0430\u0455\u0455\u051dord",
                                  "\u03c1assword", "PASSW\u041eRD"])
def test_a_homoglyph_does_not_hide_a_forbidden_word(word: str) -> None:
    """Cyrillic and Greek look-alikes inside a Latin word read as the Latin letters."""
    assert _score(FORBIDDEN, f"my {word} is hunter2").value == 0.0


def test_a_word_in_one_script_reads_as_itself() -> None:
    from rewards.text import read_text

    assert read_text("\u043f\u0430\u0440\u043e\u043b\u044c") == "\u043f\u0430\u0440\u043e\u043b\u044c"  # пароль
    assert read_text("\u03b1\u03bd\u03bf\u03b9\u03ba\u03c4\u03cc") == "\u03b1\u03bd\u03bf\u03b9\u03ba\u03c4\u03cc"


# closed by attack34: fullwidth and mathematical letters read as their letters
@pytest.mark.parametrize("styled", [
    "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44",  # fullwidth
    "\U0001d429\U0001d41a\U0001d42c\U0001d42c\U0001d430\U0001d428\U0001d42b\U0001d41d",  # bold
])
def test_a_styled_letter_does_not_hide_a_forbidden_word(styled: str) -> None:
    assert _score(FORBIDDEN, f"my {styled} is x").value == 0.0


# ---- look-alike punctuation ---------------------------------------------------------------------

@pytest.mark.parametrize("kept", ["x\u00b2", "\u00bd", "\u0430", "\u2122", "x\u207f", "\u3131"])
def test_other_compatibility_forms_and_homoglyphs_stay_as_written(kept: str) -> None:
    # a superscript digit or letter on a base is an exponent, a fraction a number, TM a sign,
    # a Hangul compatibility letter Korean: each keeps its meaning
    assert read_text(kept) == kept


# a7: a letter form (circled, squared, ligature: `rewards.text._LETTER_FORMS`) is its letters
@pytest.mark.parametrize("form, letters", [("\ufb01", "fi"), ("\u24b6", "A"), ("\u24d0", "a"),
                                           ("\U0001f130", "A"), ("\u017f", "s")])
def test_a_letter_form_reads_as_its_letters(form: str, letters: str) -> None:
    assert read_text(form) == letters


@pytest.mark.parametrize("comma", ["\uff0c", "\u060c", "\u3001", "\u201a", "\ufe50", "\u2e41"])
def test_a_look_alike_comma_breaks_no_comma(comma: str) -> None:
    reference = {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}
    assert _score(reference, f"a{comma} b").value == 0.0


# closed by attack34: every punctuation Unicode names a full stop reads as '.'
@pytest.mark.parametrize("stop", ["\u3002", "\uff0e", "\ufe52", "\u06d4", "\uff61"])
def test_a_look_alike_full_stop_ends_a_sentence(stop: str) -> None:
    reference = {"instruction_id_list": ["length_constraints:number_sentences"],
                 "kwargs": [{"num_sentences": 2, "relation": "less than"}]}
    assert _score(reference, "A b. C d. E f.").value == 0.0
    assert _score(reference, f"A b{stop} C d{stop} E f{stop}").value == 0.0


# ---- size and nesting ------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "\u202e" * 50_000 + "ab" * 25_000,
    ("\u202e\u2066" * 25_000) + "\u2069" * 50_000,
    "\u2800\u200b" * 50_000,
    "\x00a" * 50_000,
    "a\u0301" * 50_000,
])
def test_reading_a_hostile_reply_is_linear(text: str) -> None:
    read_text("warm up \u200b")
    start = time.perf_counter()
    _score(CHEAP, text)
    assert time.perf_counter() - start < 20.0  # linear: ms here; quadratic: minutes


@pytest.mark.parametrize("reference", [
    "[" * 100_000, "{'a': " * 20_000, '{"instruction_id_list": ' + "[" * 50_000,
    {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{"x": [[[[[[1]]]]]]}]},
])
def test_a_deep_or_huge_reference_abstains(reference: object) -> None:
    score = _score(reference, "fine")
    assert (score.value, score.reason) == (None, "bad_reference")
