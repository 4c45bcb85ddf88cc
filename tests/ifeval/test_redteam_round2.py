"""Red team round 2 on instruction following (`use: ifeval`) through the one reading rule
(`rewards.text.read_text`, `is_blank`): replies a policy can sample to buy a constraint a
reader would say it broke, beyond tests/ifeval/test_redteam_reading.py.

How: each case writes the violating text with characters the rule does not decide (look-alike
letters outside its Cyrillic/Greek allow-list, compatibility letters, look-alike punctuation,
private-use code points that `is_blank` calls invisible, drawn format characters) and checks
the verdict against the same text written plainly. Closed by a7 (rules derived from Unicode
data in `rewards.text._make_tables`): code points `is_blank` calls invisible are read as
nothing, a drawn blank as a space, drawn format characters kept, letter forms (circled,
squared, ligature; whole words of superscript, subscript or small-capital letters) read as
their letters, and look-alike `.` `,` `?` `!` by name or NFKC form. Still open: look-alikes
that no Unicode property of this Python's database relates to a Latin letter or mark (they
need UTS #39's confusables.txt, which `unicodedata` does not hold). Class (docs:
ATTACK-CLASSES.md): "Invisible and look-alike text" for every case here. Google's IFEval reference reads the raw
code points, so it credits every open case below as well (it is no excuse: the module doc of
`rewards.text` makes the reading rule stricter than the reference on purpose), except the
drawn format characters, where ours is cheaper than the reference. Attacks that held are
plain tests; holes still open are `xfail(strict=True)` naming the root cause."""

from __future__ import annotations

import pytest

from rewards import Sample
from rewards.ifeval import IFEvalReward
from rewards.text import is_blank, read_text


def _value(ids: list[str], kwargs: list[dict[str, object]], text: str) -> float | None:
    reference = {"instruction_id_list": ids, "kwargs": kwargs}
    return IFEvalReward().score([Sample("p", text, reference)])[0].value


def _forbidden(text: str, word: str = "password") -> float | None:
    return _value(["keywords:forbidden_words"], [{"forbidden_words": [word]}], text)


def _sentences_under_two(text: str) -> float | None:
    return _value(["length_constraints:number_sentences"],
                  [{"num_sentences": 2, "relation": "less than"}], text)


def _lowercase(text: str) -> float | None:
    return _value(["change_case:english_lowercase"], [{}], text)


# ---- held: invisible characters of every class inside a word leave it whole --------------------

@pytest.mark.parametrize("hidden", [
    "\u034f",  # combining grapheme joiner
    "\u180e",  # Mongolian vowel separator
    "\ufe0f", "\U000e0100",  # variation selectors
    "\U000e0041", "\U000e007f",  # tag characters
    "\ufff9", "\ufffb",  # interlinear annotation anchor, terminator
    "\u2066\u2069", "\u2068\u2069",  # a bidi isolate opened and closed
    "\u061c", "\u200e",  # Arabic letter mark, left-to-right mark
    "\u3164", "\uffa0", "\u115f",  # Hangul fillers
    "\u2062", "\u2064",  # invisible times, invisible plus
    "\U0001bca1", "\U0001d175",  # shorthand format control, musical begin beam
])
def test_an_invisible_character_inside_a_word_does_not_hide_it(hidden: str) -> None:
    assert read_text(f"pass{hidden}word") == "password"
    assert _forbidden(f"my pass{hidden}word is x") == 0.0
    assert _forbidden("my secret is x") == 1.0


def test_tag_characters_kept_after_a_symbol_spell_no_word() -> None:
    # an emoji tag sequence keeps its tags (`_EMOJI_SEQUENCE`): they must not read as letters
    tags = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "password") + "\U000e007f"
    assert _value(["keywords:existence"], [{"keywords": ["password"]}], f"flag {tags} ok") == 0.0
    assert _value(["keywords:letter_frequency"],
                  [{"letter": "s", "let_frequency": 1, "let_relation": "at least"}],
                  f"flag {tags} ok") == 0.0


@pytest.mark.parametrize("text", [
    "\uff28ello world, this is a short note about the weather today.",  # fullwidth H
    "\U0001d407ello world, this is a short note about the weather today.",  # bold H
])
def test_a_styled_capital_breaks_lowercase(text: str) -> None:
    assert _lowercase(text) == 0.0


def test_a_styled_small_letter_breaks_all_capitals() -> None:
    text = "HELLO WORLD, THIS IS A SHORT NOTE ABOUT THE WEATHER TODAY \U0001d41a."  # bold a
    assert _value(["change_case:english_capital"], [{}], text) == 0.0
    assert _value(["change_case:english_capital"], [{}], text.replace("\U0001d41a", "A")) == 1.0


# ---- open: look-alike letters outside the Cyrillic/Greek allow-list ------------------------------

@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text.read_text reads look-alikes of Latin letters as Latin only from its "
    "Cyrillic/Greek allow-list `_LATIN_LOOKALIKES`; an Armenian (U+0585), Lisu (U+A4F3, "
    "U+A4D1) or IPA (U+0251) look-alike has no Unicode name, category or decomposition that "
    "relates it to a Latin letter (only UTS #39 confusables.txt does, not in unicodedata), and "
    "a small capital (U+1D0F) is read as its letter only in a whole word of small capitals, "
    "since inside a Latin word it is IPA (`b\u026at`, read by the reference as written); so "
    "keywords_forbidden_words' `literal(w, words=True)` misses the word a reader sees (the "
    "IFEval reference credits it too: raw code points)"))
@pytest.mark.parametrize("word", ["passw\u1d0frd", "passw\u0585rd", "PASSW\ua4f3RD",
                                  "\ua4d1ASSWORD", "p\u0251ssword"])
def test_a_homoglyph_outside_the_allow_list_does_not_hide_a_forbidden_word(word: str) -> None:
    assert _forbidden(f"my {word} is x") == 0.0


@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text.read_text's `_LATIN_LOOKALIKES` has no Armenian letters (no Unicode "
    "property in unicodedata relates U+0585 to 'o'; UTS #39 confusables.txt does): "
    "keywords_letter_frequency counts 'o' on text holding U+0585 (drawn as o), so 'fewer "
    "than 2 o' is followed by a reply with five of them"))
def test_a_homoglyph_does_not_hide_letters_from_letter_frequency() -> None:
    kwargs = [{"letter": "o", "let_frequency": 2, "let_relation": "less than"}]
    assert _value(["keywords:letter_frequency"], kwargs, "good morning to you") == 0.0
    assert _value(["keywords:letter_frequency"], kwargs,
                  "g\u0585\u0585d m\u0585rning t\u0585 y\u0585u") == 0.0


# ---- open: compatibility letters that spell the word ----------------------------------------------

# closed by a7: letter forms read as their Latin letters (`rewards.text._LETTER_FORMS`), whole
# words of raised or small-capital letters too (`_RAISED`, `_SMALL_CAPITAL`)
@pytest.mark.parametrize("text, word", [
    ("my \u24df\u24d0\u24e2\u24e2\u24e6\u24de\u24e1\u24d3 is x", "password"),  # circled
    ("my \u1d56\u1d43\u02e2\u02e2\u02b7\u1d52\u02b3\u1d48 is x", "password"),  # superscript
    ("my \u1d18\u1d00\ua731\ua731\u1d21\u1d0f\u0280\u1d05 is x", "password"),  # small capitals
    ("open the \ufb01le now", "file"),  # the fi ligature of typeset text
    ("my \U0001f13f\U0001f130\U0001f142\U0001f142\U0001f146\U0001f13e\U0001f141\U0001f133 is x",
     "password"),  # squared
])
def test_compatibility_letters_do_not_hide_a_forbidden_word(text: str, word: str) -> None:
    assert _forbidden(text, word) == 0.0
    assert word in read_text(text).lower().split()


@pytest.mark.parametrize("kept", ["x\u207f", "2\u207f", "(a+b)\u1d4f", "b\u026at", "5\u1d57\u02b0",
                                  "\u207f\u221ax", "note\u1d43"])
def test_a_raised_letter_on_a_base_and_ipa_stay_as_written(kept: str) -> None:
    # an exponent, an index, an ordinal or a footnote mark, and IPA inside a word, keep meaning
    assert read_text(kept) == kept


# ---- open: look-alike punctuation the rule does not read -----------------------------------------

def test_a_digit_comma_breaks_no_comma() -> None:
    # closed by a7: DIGIT ONE COMMA (U+1F102, <compat> '1,') reads as its NFKC form
    assert read_text("step \U0001f102 then 2") == "step 1, then 2"
    assert _value(["punctuation:no_comma"], [{}], "step \U0001f102 then 2") == 0.0


@pytest.mark.xfail(strict=True, reason=(
    "open: LISU LETTER TONE NA PO (U+A4F9, Lm) is drawn as a comma, but nothing in "
    "unicodedata says so (a letter, named a tone, no decomposition); only UTS #39 "
    "confusables.txt relates it to ',', so it passes punctuation_no_comma (the reference "
    "passes it too)"))
def test_a_lisu_tone_letter_drawn_as_a_comma_breaks_no_comma() -> None:
    assert _value(["punctuation:no_comma"], [{}], "a\ua4f9 b") == 0.0


def test_a_plain_comma_breaks_no_comma() -> None:
    assert _value(["punctuation:no_comma"], [{}], "step 1, then 2") == 0.0
    assert _value(["punctuation:no_comma"], [{}], "step 1 then 2") == 1.0


def test_a_fullwidth_question_mark_ends_a_sentence() -> None:
    # held: a `<wide>` variant is read as `?` (the reference counts one sentence here)
    assert _sentences_under_two("A b\uff1f C d\uff1f E f\uff1f") == 0.0


# closed by a7: read by NFKC form (U+2024 '.', U+FE56/U+FE57 <small>, U+203C/U+2047/U+2049
# <compat>) or by name (ARABIC QUESTION MARK)
@pytest.mark.parametrize("end", ["\u2024", "\ufe56", "\ufe57", "\u203c", "\u2047", "\u2049",
                                 "\u061f"])
def test_a_look_alike_sentence_end_ends_a_sentence(end: str) -> None:
    assert _sentences_under_two(f"A b{end} C d{end} E f{end}") == 0.0


@pytest.mark.xfail(strict=True, reason=(
    "open: LATIN LETTER RETROFLEX CLICK U+01C3 (Lo) is drawn as '!', but no Unicode name, "
    "category or decomposition in unicodedata says so (UTS #39 confusables.txt does), so it "
    "ends no sentence for split_sentences and three sentences count as one (the reference "
    "counts one too)"))
def test_a_click_letter_drawn_as_an_exclamation_mark_ends_a_sentence() -> None:
    assert _sentences_under_two("A b\u01c3 C d\u01c3 E f\u01c3") == 0.0


@pytest.mark.parametrize("text", ["\u00bfQu\u00e9 tal? Bien.", "Wait\u2026 what? Yes.",
                                  "\u0540\u0561\u0575\u0565\u0580\u0565\u0576\u055e"])
def test_an_opening_mark_an_ellipsis_and_an_armenian_mark_stay(text: str) -> None:
    # an inverted mark opens a question, an ellipsis is no full stop, and Armenian's question
    # mark is written over a vowel inside the word: none is read as a sentence end
    assert read_text(text) == text


# ---- open: capitals a reader sees, lower case to str.islower ------------------------------------

@pytest.mark.xfail(strict=True, reason=(
    "open: change_case_english_lowercase decides by str.islower on the read text: Lisu "
    "letters (U+A4E7, U+A4EA, Lo, uncased) drawn as the Latin capitals H and W, and Latin "
    "small capitals (U+029C, U+1D21, Ll) drawn as capitals, are not upper case there; "
    "read_text reads neither as a Latin capital: Lisu has no Unicode data relating it to "
    "Latin, and reading small capitals as capitals would fail honest IPA (`/b\u026at/`, "
    "lower case to the reference and to readers of IPA); a whole word of small capitals "
    "reads as lower-case letters (the reference credits both too)"))
@pytest.mark.parametrize("head", ["\ua4e7ello \ua4eaorld", "\u029cello \u1d21orld"])
def test_a_capital_look_alike_breaks_lowercase(head: str) -> None:
    assert _lowercase(f"{head}, this is a short note about the weather today.") == 0.0


def test_a_plain_capital_breaks_lowercase() -> None:
    assert _lowercase("Hello World, this is a short note about the weather today.") == 0.0
    assert _lowercase("hello world, this is a short note about the weather today.") == 1.0


# ---- open: code points is_blank calls invisible still split a word ------------------------------

# closed by a7: private-use, unassigned and noncharacter code points, which is_blank counts
# as nothing, are read as nothing (one table in `rewards.text._make_tables`)
@pytest.mark.parametrize("hidden", ["\ue000", "\U000f0000", "\u0378", "\uffff"])
def test_a_code_point_blank_to_is_blank_does_not_split_a_forbidden_word(hidden: str) -> None:
    # either fix closes it: read as nothing (the word is whole), or shown (not blank)
    shows_nothing = is_blank(hidden * 3)
    assert _forbidden(f"my pass{hidden}word is x") == (0.0 if shows_nothing else 1.0)


# closed by a7: read as nothing, they split no word
def test_a_code_point_blank_to_is_blank_does_not_count_words() -> None:
    kwargs = [{"num_words": 6, "relation": "at least"}]
    assert _value(["length_constraints:number_words"], kwargs, "hi there friend") == 0.0
    shows_nothing = is_blank("\ue000")
    assert _value(["length_constraints:number_words"], kwargs,
                  "hi\ue000the\ue000re fr\ue000ie\ue000nd") == (0.0 if shows_nothing else 1.0)


# ---- open: a format character that is drawn ------------------------------------------------------

# closed by a7: the prepended concatenation marks (PropList.txt), drawn, are kept and shown
@pytest.mark.parametrize("mark", ["\u06dd", "\u0600"])
def test_a_drawn_format_character_is_read(mark: str) -> None:
    end = _value(["startend:end_checker"], [{"end_phrase": "Any other questions?"}],
                 f"Fine. Any other questions?{mark}")
    quoted = _value(["startend:quotation"], [{}], f'"Fine, thanks."{mark}')
    assert (end, quoted) == (0.0, 0.0)


def test_end_phrase_and_quotation_hold_on_plain_text() -> None:
    assert _value(["startend:end_checker"], [{"end_phrase": "Any other questions?"}],
                  "Fine. Any other questions?") == 1.0
    assert _value(["startend:end_checker"], [{"end_phrase": "Any other questions?"}],
                  "Fine. Any other questions? Bye") == 0.0
    assert _value(["startend:quotation"], [{}], '"Fine, thanks." ok') == 0.0


# ---- IFEvalG and IFBench checkers on the same characters -------------------------------------------

# closed by a7: ONE DOT LEADER U+2024, DIGIT ONE FULL STOP U+2488 (<compat> '1.'), SMALL
# EXCLAMATION MARK U+FE57 and DOUBLE EXCLAMATION MARK U+203C read as their NFKC forms
@pytest.mark.parametrize("instruction, text", [
    ("punctuation:punctuation_dot", "Done\u2024 Next"),
    ("punctuation:punctuation_dot", "Step \u2488 go"),
    ("punctuation:punctuation_exclamation", "Wow\ufe57 ok"),
    ("punctuation:punctuation_exclamation", "Wow\u203c ok"),
])
def test_a_drawn_period_or_exclamation_mark_is_one(instruction: str, text: str) -> None:
    assert _value([instruction], [{}], text) == 0.0


@pytest.mark.xfail(strict=True, reason=(
    "open: LISU LETTER TONE MYA TI U+A4F8 (drawn '.') and LATIN LETTER RETROFLEX CLICK U+01C3 "
    "(drawn '!') are letters that no Unicode name, category or decomposition in unicodedata "
    "relates to '.' or '!' (UTS #39 confusables.txt does): they pass IFEvalG's "
    "punctuation_punctuation_dot and punctuation_punctuation_exclamation"))
@pytest.mark.parametrize("instruction, text", [
    ("punctuation:punctuation_dot", "Done\ua4f8 Next"),
    ("punctuation:punctuation_exclamation", "Wow\u01c3 ok"),
])
def test_a_letter_drawn_as_a_period_or_exclamation_mark_is_one(instruction: str,
                                                              text: str) -> None:
    assert _value([instruction], [{}], text) == 0.0


@pytest.mark.parametrize("instruction, text", [
    ("punctuation:punctuation_dot", "Done\ufe52 Next"),  # SMALL FULL STOP: read as '.'
    ("punctuation:punctuation_exclamation", "Wow\uff01 ok"),  # fullwidth: read as '!'
])
def test_a_period_or_exclamation_mark_the_rule_reads_is_one(instruction: str, text: str) -> None:
    assert _value([instruction], [{}], text) == 0.0


@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text._latin_lookalikes reads Cyrillic/Greek look-alikes as Latin only in "
    "a word that also holds a Latin letter; a word made only of them (`\\u0441\\u043e\\u0440"
    "\\u0443`, drawn 'copy') among English words reads as itself, so "
    "keywords_forbidden_words misses it and IFEvalG's count_lowercase_counting "
    "(`\\b[a-z]+\\b`) does not count it (the reference credits both: raw code points). "
    "Reading such a word as Latin by the text around it would read honest Greek letters in "
    "English text as Latin (`\u03c1` density, `\u03bd` frequency, an angle `\u03b1`), "
    "which the reference and readers read as Greek"))
@pytest.mark.parametrize("instruction, kwargs, text", [
    ("keywords:forbidden_words", {"forbidden_words": ["copy"]},
     "please \u0441\u043e\u0440\u0443 this"),
    ("count:lowercase_counting", {"N": 2},
     "\u0441\u043e\u0440\u0443 \u0441\u043e\u0440\u0443 \u0441\u043e\u0440\u0443 the end"),
])
def test_a_word_of_look_alikes_only_among_latin_words_is_read(
        instruction: str, kwargs: dict[str, object], text: str) -> None:
    assert _value([instruction], [kwargs], text) == 0.0


def test_the_same_words_in_latin_break_them() -> None:
    assert _forbidden("please copy this", "copy") == 0.0
    assert _value(["count:lowercase_counting"], [{"N": 2}], "copy copy copy the end") == 0.0


# closed by a7: a symbol drawn as a blank (a name ending in BLANK: U+2800) reads as a space
@pytest.mark.parametrize("instruction, kwargs, text", [
    ("format:no_whitespace", {}, "hello\u2800world"),
    ("count:unique_word_count", {"N": 4}, "go go\u2800 go\u2800\u2800 go\u2800\u2800\u2800"),
])
def test_a_braille_blank_reads_as_a_space(instruction: str, kwargs: dict[str, object],
                                          text: str) -> None:
    assert _value([instruction], [kwargs], text) == 0.0


def test_plain_spaces_break_no_whitespace_and_repeat_a_word() -> None:
    assert _value(["format:no_whitespace"], [{}], "hello world") == 0.0
    assert _value(["format:no_whitespace"], [{}], "helloworld") == 1.0
    assert _value(["count:unique_word_count"], [{"N": 4}], "go go go go") == 0.0


# closed by a7: read as nothing, they make no word distinct
def test_a_code_point_blank_to_is_blank_does_not_make_a_word_distinct() -> None:
    shows_nothing = is_blank("\ue000")
    text = "go go\ue000 go\ue000\ue000 go\ue000\ue000\ue000"
    assert _value(["count:unique_word_count"], [{"N": 4}], text) == (0.0 if shows_nothing
                                                                    else 1.0)


# ---- highlights and titles of nothing a reader sees -------------------------------------------------

@pytest.mark.parametrize("blank", ["", " ", "\u200b", "\u3164"])
def test_an_empty_or_invisible_highlight_or_title_is_none(blank: str) -> None:
    # held: ZWSP and the Hangul filler are removed by read_text, so `strip()` sees nothing
    highlights: list[dict[str, object]] = [{"num_highlights": 2}]
    assert _value(["detectable_format:number_highlighted_sections"], highlights,
                  f"Intro *{blank}* and *{blank}* end.") == 0.0
    assert _value(["detectable_format:title"], [{}], f"<<{blank}>>\nBody text.") == 0.0
    assert _value(["detectable_format:number_highlighted_sections"], highlights,
                  "Intro *one* and *two* end.") == 1.0


# closed by a7: read, they are blank, and the checkers ask is_blank_read, not str.strip
@pytest.mark.parametrize("blank", ["\u2800", "\ue000", "\u2800\ue000\u2800",
                                   "\u0301", " \u20dd "])  # lone combining marks: not strip()
def test_a_highlight_or_title_of_blank_glyphs_is_none(blank: str) -> None:
    assert is_blank(blank)
    highlight = _value(["detectable_format:number_highlighted_sections"],
                       [{"num_highlights": 2}], f"Intro *{blank}* and *{blank}* end.")
    title = _value(["detectable_format:title"], [{}], f"<<{blank}>>\nBody text.")
    assert (highlight, title) == (0.0, 0.0)
