"""Red team round 2 on instruction following (`use: ifeval`) through the one reading rule
(`rewards.text.read_text`, `is_blank`): replies a policy can sample to buy a constraint a
reader would say it broke, beyond tests/ifeval/test_redteam_reading.py.

How: each case writes the violating text with characters the rule does not decide (look-alike
letters outside its Cyrillic/Greek allow-list, compatibility letters, look-alike punctuation,
private-use code points that `is_blank` calls invisible, drawn format characters) and checks
the verdict against the same text written plainly. Class (docs: ATTACK-CLASSES.md):
"Invisible and look-alike text" for every case here. Google's IFEval reference reads the raw
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
    "Cyrillic/Greek allow-list `_LATIN_LOOKALIKES`; a Latin small capital (U+1D0F), an "
    "Armenian (U+0585), Lisu (U+A4F3, U+A4D1) or IPA (U+0251) look-alike inside a Latin word "
    "stays, so keywords_forbidden_words' `literal(w, words=True)` misses the word a reader "
    "sees (the IFEval reference credits it too: raw code points)"))
@pytest.mark.parametrize("word", ["passw\u1d0frd", "passw\u0585rd", "PASSW\ua4f3RD",
                                  "\ua4d1ASSWORD", "p\u0251ssword"])
def test_a_homoglyph_outside_the_allow_list_does_not_hide_a_forbidden_word(word: str) -> None:
    assert _forbidden(f"my {word} is x") == 0.0


@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text.read_text's `_LATIN_LOOKALIKES` has no Armenian letters: "
    "keywords_letter_frequency counts 'o' on text holding U+0585 (drawn as o), so 'fewer "
    "than 2 o' is followed by a reply with five of them"))
def test_a_homoglyph_does_not_hide_letters_from_letter_frequency() -> None:
    kwargs = [{"letter": "o", "let_frequency": 2, "let_relation": "less than"}]
    assert _value(["keywords:letter_frequency"], kwargs, "good morning to you") == 0.0
    assert _value(["keywords:letter_frequency"], kwargs,
                  "g\u0585\u0585d m\u0585rning t\u0585 y\u0585u") == 0.0


# ---- open: compatibility letters that spell the word ----------------------------------------------

@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text.read_text reads only `<wide>`, `<narrow>` and `<font>` variants as "
    "their letters (`_VARIANTS`); circled (<circle>), superscript (<super>) and ligature "
    "(<compat> U+FB01) letters and Latin small capitals (no decomposition) stay as written "
    "(test_other_compatibility_forms_and_homoglyphs_stay_as_written keeps that for one "
    "character), so a forbidden word spelled in them passes keywords_forbidden_words though "
    "a reader reads the word (the reference credits it too)"))
@pytest.mark.parametrize("text, word", [
    ("my \u24df\u24d0\u24e2\u24e2\u24e6\u24de\u24e1\u24d3 is x", "password"),  # circled
    ("my \u1d56\u1d43\u02e2\u02e2\u02b7\u1d52\u02b3\u1d48 is x", "password"),  # superscript
    ("my \u1d18\u1d00\ua731\ua731\u1d21\u1d0f\u0280\u1d05 is x", "password"),  # small capitals
    ("open the \ufb01le now", "file"),  # the fi ligature of typeset text
])
def test_compatibility_letters_do_not_hide_a_forbidden_word(text: str, word: str) -> None:
    assert _forbidden(text, word) == 0.0


# ---- open: look-alike punctuation the rule does not read -----------------------------------------

@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text._tables reads as ',' only punctuation (category P) whose Unicode name "
    "holds COMMA; DIGIT ONE COMMA (U+1F102, <compat> '1,') and LISU LETTER TONE NA PO "
    "(U+A4F9, Lm, UTS #39 confusable with ',') are drawn as commas and pass "
    "punctuation_no_comma (the reference passes them too)"))
@pytest.mark.parametrize("text", ["step \U0001f102 then 2", "a\ua4f9 b"])
def test_a_drawn_comma_breaks_no_comma(text: str) -> None:
    assert _value(["punctuation:no_comma"], [{}], text) == 0.0


def test_a_plain_comma_breaks_no_comma() -> None:
    assert _value(["punctuation:no_comma"], [{}], "step 1, then 2") == 0.0
    assert _value(["punctuation:no_comma"], [{}], "step 1 then 2") == 1.0


def test_a_fullwidth_question_mark_ends_a_sentence() -> None:
    # held: a `<wide>` variant is read as `?` (the reference counts one sentence here)
    assert _sentences_under_two("A b\uff1f C d\uff1f E f\uff1f") == 0.0


@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text._tables reads as '.' only punctuation named FULL STOP and maps no "
    "look-alike of '?' or '!' at all (only `<wide>` ones, by width): ONE DOT LEADER U+2024, "
    "SMALL QUESTION/EXCLAMATION MARK U+FE56/U+FE57 (<small>), U+203C/U+2047/U+2049 "
    "(<compat> '!!', '??', '!?'), LATIN LETTER RETROFLEX CLICK U+01C3 (Lo, drawn '!') and "
    "ARABIC QUESTION MARK U+061F end no sentence for split_sentences (candidates are only "
    "'.?!'), so three sentences count as one (the reference counts one too)"))
@pytest.mark.parametrize("end", ["\u2024", "\ufe56", "\ufe57", "\u203c", "\u2047", "\u2049",
                                 "\u01c3", "\u061f"])
def test_a_look_alike_sentence_end_ends_a_sentence(end: str) -> None:
    assert _sentences_under_two(f"A b{end} C d{end} E f{end}") == 0.0


# ---- open: capitals a reader sees, lower case to str.islower ------------------------------------

@pytest.mark.xfail(strict=True, reason=(
    "open: change_case_english_lowercase decides by str.islower on the read text: Lisu "
    "letters (U+A4E7, U+A4EA, Lo, uncased) drawn as the Latin capitals H and W, and Latin "
    "small capitals (U+029C, U+1D21, Ll) drawn as capitals, are not upper case there; "
    "read_text reads neither as a Latin capital (the reference credits both too)"))
@pytest.mark.parametrize("head", ["\ua4e7ello \ua4eaorld", "\u029cello \u1d21orld"])
def test_a_capital_look_alike_breaks_lowercase(head: str) -> None:
    assert _lowercase(f"{head}, this is a short note about the weather today.") == 0.0


def test_a_plain_capital_breaks_lowercase() -> None:
    assert _lowercase("Hello World, this is a short note about the weather today.") == 0.0
    assert _lowercase("hello world, this is a short note about the weather today.") == 1.0


# ---- open: code points is_blank calls invisible still split a word ------------------------------

@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text.read_text keeps private-use (Co), unassigned (Cn) and noncharacter "
    "code points, which is_blank_read counts as showing nothing (not in its visible set), "
    "so inside a word they split it: keywords_forbidden_words misses `pass\\ue000word` "
    "(read as the word a reader sees when the character shows nothing, as is_blank says)"))
@pytest.mark.parametrize("hidden", ["\ue000", "\U000f0000", "\u0378", "\uffff"])
def test_a_code_point_blank_to_is_blank_does_not_split_a_forbidden_word(hidden: str) -> None:
    # either fix closes it: read as nothing (the word is whole), or shown (not blank)
    shows_nothing = is_blank(hidden * 3)
    assert _forbidden(f"my pass{hidden}word is x") == (0.0 if shows_nothing else 1.0)


@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text.read_text keeps private-use code points that is_blank counts as "
    "invisible, and count_words' `\\w+` splits at them: one word read as six buys "
    "length_constraints:number_words 'at least'"))
def test_a_code_point_blank_to_is_blank_does_not_count_words() -> None:
    kwargs = [{"num_words": 6, "relation": "at least"}]
    assert _value(["length_constraints:number_words"], kwargs, "hi there friend") == 0.0
    shows_nothing = is_blank("\ue000")
    assert _value(["length_constraints:number_words"], kwargs,
                  "hi\ue000the\ue000re fr\ue000ie\ue000nd") == (0.0 if shows_nothing else 1.0)


# ---- open: a format character that is drawn ------------------------------------------------------

@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text._tables removes every category Cf character, the prepended "
    "concatenation marks included (U+06DD ARABIC END OF AYAH, U+0600 ARABIC NUMBER SIGN), "
    "which are drawn: a visible glyph after the end phrase or the closing quote is not read, "
    "so startend_end_checker and startend_quotation pass where the IFEval reference says no "
    "(ours cheaper than the reference)"))
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

@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text._tables reads as '.' only punctuation named FULL STOP and as '!' only "
    "`<wide>` variants: ONE DOT LEADER U+2024, LISU LETTER TONE MYA TI U+A4F8 and DIGIT ONE "
    "FULL STOP U+2488 (<compat> '1.') pass IFEvalG's punctuation_punctuation_dot ('.' not "
    "in response); LATIN LETTER RETROFLEX CLICK U+01C3, SMALL EXCLAMATION MARK U+FE57 and "
    "DOUBLE EXCLAMATION MARK U+203C pass punctuation_punctuation_exclamation"))
@pytest.mark.parametrize("instruction, text", [
    ("punctuation:punctuation_dot", "Done\u2024 Next"),
    ("punctuation:punctuation_dot", "Done\ua4f8 Next"),
    ("punctuation:punctuation_dot", "Step \u2488 go"),
    ("punctuation:punctuation_exclamation", "Wow\u01c3 ok"),
    ("punctuation:punctuation_exclamation", "Wow\ufe57 ok"),
    ("punctuation:punctuation_exclamation", "Wow\u203c ok"),
])
def test_a_drawn_period_or_exclamation_mark_is_one(instruction: str, text: str) -> None:
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
    "(`\\b[a-z]+\\b`) does not count it (the reference credits both: raw code points)"))
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


@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text.read_text keeps U+2800 BRAILLE PATTERN BLANK, which is drawn as a "
    "blank cell (is_blank: `_BLANK_GLYPHS`, a glyph drawn as nothing) but is no whitespace "
    "to str.isspace/str.split: IFBench's format_no_whitespace passes `hello\\u2800world`, "
    "and count_unique_word_count counts `go`, `go\\u2800`, `go\\u2800\\u2800` as distinct "
    "words (the reference credits both)"))
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


@pytest.mark.xfail(strict=True, reason=(
    "open: rewards.text.read_text keeps private-use code points that is_blank counts as "
    "showing nothing: IFBench's count_unique_word_count counts `go`, `go\\ue000` ... as "
    "distinct words"))
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


@pytest.mark.xfail(strict=True, reason=(
    "open: count_highlights and detectable_format_title decide that a highlight or title "
    "holds something by str.strip(), not by rewards.text.is_blank_read: a braille blank "
    "(U+2800) or a private-use code point, which is_blank counts as showing nothing, makes "
    "`*\\u2800*` a highlighted section and `<<\\u2800>>` a title (the reference credits "
    "them too, as it credits `*\\u200b*`, which ours already refuses)"))
@pytest.mark.parametrize("blank", ["\u2800", "\ue000", "\u2800\ue000\u2800"])
def test_a_highlight_or_title_of_blank_glyphs_is_none(blank: str) -> None:
    assert is_blank(blank)
    highlight = _value(["detectable_format:number_highlighted_sections"],
                       [{"num_highlights": 2}], f"Intro *{blank}* and *{blank}* end.")
    title = _value(["detectable_format:title"], [{}], f"<<{blank}>>\nBody text.")
    assert (highlight, title) == (0.0, 0.0)
