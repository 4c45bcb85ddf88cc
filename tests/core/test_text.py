"""`rewards.text.read_text`: how every text reward reads model text (invisible and format
characters, joiners, bidi controls, look-alike commas)."""

from __future__ import annotations

import sys
import time
import unicodedata

import pytest

from rewards.text import COMMA_LOOKALIKES, is_blank, read_text


@pytest.mark.parametrize("invisible", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad",
                                       "\u200e", "\u202e", "\u2066", "\u3164", "\u115f",
                                       "\ufe0f", "\U000e0041", "\u180e", "\u2062"])
def test_a_reply_of_invisible_characters_is_blank(invisible: str) -> None:
    assert is_blank(invisible * 60) and is_blank(f" {invisible}\n{invisible} ")
    assert read_text(invisible * 60).strip() == ""


@pytest.mark.parametrize("text,read", [
    ("pass\u200bword", "password"), ("pass\u00adword", "password"), ("pass\u2060word", "password"),
    ("pass\ufeffword", "password"), ("pass\ufe0fword", "password"),
    ("pass\u200d\u200c\u200bword", "password"),
])
def test_invisible_characters_inside_a_word_leave_it_whole(text: str, read: str) -> None:
    assert read_text(text) == read


def test_joiners_join_a_persian_word_as_its_reader_counts_it() -> None:
    from rewards.ifeval import count_words

    persian = "من می\u200cخواهم کتاب\u200cها را بخوانم"  # "I want to read the books": 5 words
    assert count_words(persian) == 7  # the raw text: each ZWNJ splits a word
    assert count_words(read_text(persian)) == 5


def test_joiners_cannot_inflate_a_word_count() -> None:
    from rewards.ifeval import count_words

    inflated = " ".join("\u200d".join(word) for word in ["cats", "are", "nice"])
    assert count_words(inflated) == 11
    assert count_words(read_text(inflated)) == 3


@pytest.mark.parametrize("text,read", [
    ("my \u202edrowssap\u202c here", "my password here"),  # RLO ... PDF: shown backwards
    ("\u202eym drowssap", "password my"),  # to the end of the text
    ("\u202eab\ncd", "ba\ncd"),  # a paragraph ends it
    ("\u202eab\u2066cd\u2069ef", "bacdfe"),  # an isolate inside it is its own run
    ("\u202eab\u202acd\u202cef", "bacdfe"),  # as is an embedding
    ("\u202d\u05e9\u05dc\u05d5\u05dd x", "\u05dd\u05d5\u05dc\u05e9 x"),  # LRO: Hebrew shown LTR
    ("\u202e\u05e9\u05dc\u05d5\u05dd", "\u05e9\u05dc\u05d5\u05dd"),  # RLO: Hebrew as it was
    ("\u202bembedded\u202c and \u2067isolated\u2069", "embedded and isolated"),  # no reorder
])
def test_bidi_overrides_are_read_in_the_order_they_are_shown(text: str, read: str) -> None:
    assert read_text(text) == read


def test_canonically_equivalent_text_reads_alike() -> None:
    assert read_text("cafe\u0301") == read_text("caf\u00e9") == "caf\u00e9"
    assert read_text("\u1100\u1161") == "\uac00"  # Hangul jamo: one syllable


def test_every_character_unicode_names_a_comma_reads_as_a_comma() -> None:
    commas = [chr(c) for c in range(sys.maxunicode + 1)
              if unicodedata.category(chr(c)).startswith("P")
              and "COMMA" in unicodedata.name(chr(c), "")]
    assert {"\uff0c", "\u060c", "\u3001", "\ufe50"} <= set(commas)
    assert read_text("".join(commas)) == "," * len(commas)
    assert read_text(COMMA_LOOKALIKES) == "," * len(COMMA_LOOKALIKES)
    assert read_text("\u201a") == ","  # SINGLE LOW-9 QUOTATION MARK, drawn as a comma


@pytest.mark.parametrize("emoji", ["\u2764\ufe0f", "\U0001f468\u200d\U0001f469\u200d\U0001f467",
                                   "\U0001f327\ufe0fx", "\u263a\ufe0e",
                                   "\U0001f3f4" + "".join(map(chr, range(0xE0061, 0xE0064))) + "\U000e007f"])
def test_emoji_sequences_keep_their_joiners_and_selectors(emoji: str) -> None:
    assert read_text(emoji) == emoji


def test_only_what_continues_an_emoji_sequence_stays_after_a_symbol() -> None:
    assert read_text("\u2b50\u200b\u200dx") == "\u2b50\u200dx"
    assert read_text("a\u200dx") == "ax"


@pytest.mark.parametrize("text", ["plain ASCII, as it is.", "caf\u00e9 na\u00efve", "\u4f60\u597d",
                                  "tab\tand\nlines", "\u0645\u0631\u062d\u0628\u0627"])
def test_visible_text_is_kept_as_written(text: str) -> None:
    assert read_text(text) == text


@pytest.mark.parametrize("text", ["a\u200bb\u202ec\u202cd\uff0c", "\u202e" * 5 + "xy\u202c" * 5,
                                  "\U0001f327\ufe0f\u200d\u200bq",
                                  "\u1d56\u1d43\u02e2\u02e2\u0301 \u1d18\u1d00\ue000\ua731\ua731"])
def test_reading_is_idempotent(text: str) -> None:
    assert read_text(read_text(text)) == read_text(text)


@pytest.mark.parametrize("text", [
    "\u202e" * 200_000, "\u202ea" * 100_000, "a\u200b" * 100_000, "\u2b50\u200b" * 100_000,
    "\u202e\u2066" * 100_000, "\u202e" + "\u2069" * 200_000,
    "\U0001f600\ufe0f" * 100_000, "\U000f0000a" * 100_000, "\u1d56\u1d43 " * 70_000,
    "\u1d56" * 200_000, "x\u207f\u1d43" * 70_000,
])
def test_reading_is_linear(text: str) -> None:
    read_text("warm up the tables\u200b")
    start = time.perf_counter()
    read_text(text)
    assert time.perf_counter() - start < 20.0  # linear: ms here; quadratic: minutes


def test_is_blank_and_read_text_agree_on_every_code_point() -> None:
    # one table: a code point is blank to is_blank exactly when read_text leaves only
    # whitespace or combining marks (shown on a base only) of it; what shows nothing is read
    # as nothing, so inside a word it leaves the word whole
    disagree = []
    for code in range(0x80, sys.maxunicode + 1):
        ch = chr(code)
        read = read_text(f"a{ch}")[1:]
        shows_nothing = all(c.isspace() or unicodedata.category(c)[0] == "M" for c in read)
        if is_blank(ch) != shows_nothing:
            disagree.append(hex(code))
    assert disagree == []


@pytest.mark.parametrize("hidden", ["\ue000", "\U000f0000", "\U00100000", "\u0378", "\uffff",
                                    "\ufdd0", "\U0001fffe", "\ud800"])
def test_private_use_unassigned_and_noncharacters_read_as_nothing(hidden: str) -> None:
    assert read_text(f"pass{hidden}word") == "password"
    assert is_blank(hidden * 5)


def test_drawn_format_characters_stay_and_show() -> None:
    # Unicode leaves out of Default_Ignorable_Code_Point exactly the format characters that
    # show something when not supported: the interlinear annotation characters, the
    # Egyptian hieroglyph format controls, and the prepended concatenation marks, drawn
    # over the digits that follow (DerivedCoreProperties.txt); those marks are kept
    from rewards.text import _DEFAULT_IGNORABLE, _PREPENDED_CONCATENATION_MARK

    ignorable = {c for lo, hi in _DEFAULT_IGNORABLE for c in range(lo, hi + 1)}
    marks = {c for lo, hi in _PREPENDED_CONCATENATION_MARK for c in range(lo, hi + 1)}
    not_ignorable = {c for c in range(sys.maxunicode + 1)
                     if unicodedata.category(chr(c)) == "Cf" and c not in ignorable}
    others = {c for c in not_ignorable
              if unicodedata.name(chr(c)).startswith(("INTERLINEAR ANNOTATION",
                                                      "EGYPTIAN HIEROGLYPH"))}
    assert not_ignorable - others == {c for c in marks if unicodedata.category(chr(c)) == "Cf"}
    for code in marks:
        if unicodedata.category(chr(code)) == "Cf":
            assert read_text(f"12{chr(code)}3") == f"12{chr(code)}3"
            assert not is_blank(chr(code))
    assert read_text("a\ufff9b\U00013430c") == "abc"  # shown only where unsupported: removed


def test_an_emoji_newer_than_the_unicode_database_shows() -> None:
    # U+1FA77 PINK HEART (Unicode 15): unassigned to an older database, in a column of symbols
    assert not is_blank("\U0001fa77")
    assert read_text("ok\U0001fa77\ufe0f") == "ok\U0001fa77\ufe0f"


@pytest.mark.parametrize("text, read", [
    ("a\u2800b", "a b"),  # BRAILLE PATTERN BLANK: drawn as a blank
    ("A b\u2024 C d\u203c E f\u2047", "A b. C d!! E f??"),
    ("\u2488 one \U0001f102 two", "1. one 1, two"),
    ("\u0645\u0631\u062d\u0628\u0627\u061f", "\u0645\u0631\u062d\u0628\u0627?"),
    ("\u1d56\u1d43\u02e2\u02e2 \u1d18\u1d00\ua731\ua731 (\u1d43\u1d47)", "pass pass (ab)"),
    *[(kept, kept) for kept in ["x\u207f\u207a\u00b9 2\u207f (a)\u1d4f\u02e1 5\u1d57\u02b0",
                                "\u029c b\u026at \u2122 \u2107 \u00bd x\u0301\u207f\u1d43"]],
    ("Wait\u2026 \u00bfQu\u00e9? \u00a1S\u00ed!", "Wait\u2026 \u00bfQu\u00e9? \u00a1S\u00ed!"),
])
def test_look_alike_punctuation_and_letter_forms(text: str, read: str) -> None:
    assert read_text(text) == read
    assert read_text(read) == read
