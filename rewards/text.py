"""How model text is read, once, before any checker sees it: `read_text`.

A reward must not be cheaper to satisfy than its meaning: the verdict on a reply is the
verdict on the text a reader sees. So, in one linear pass:

- **Invisible and format characters are removed**: Unicode's Default_Ignorable_Code_Point
  set (zero-width space, soft hyphen, word joiner, BOM, the Hangul fillers, variation
  selectors, tag characters, the invisible operators ...) and every other format character
  (category `Cf`: the interlinear annotation marks ...) but the drawn ones, the prepended
  concatenation marks (U+06DD ARABIC END OF AYAH, U+0600 ARABIC NUMBER SIGN: PropList.txt),
  which stay and show. A reply made only of them is blank; inside a word they leave the word whole
  (`pass\\u200bword` reads `password`), and the joiners ZWNJ and ZWJ join, never split (a
  Persian `می\\u200cخواهم` is one word, as its reader counts it). The one place they are
  drawn is an emoji sequence: right after a symbol (category `S`), the joiner ZWJ, the
  variation selectors VS15/VS16 and the tag characters stay (`❤️`, `👨‍👩‍👧`, a subdivision
  flag), so an emoji keeps its code points and `🌧️x` does not read as `🌧x`, which would end
  in an emoji. The symbol is judged as it is read: a circled letter `ⓟ` is its letter, so a
  joiner after it is removed (`ⓟ` + ZWJ + `assword` reads `password`). A character that VS16
  after it makes an emoji (Unicode's emoji-test.txt, as the `emoji` package ships it: `‼️`,
  `ℹ️`, `Ⓜ️`) is an emoji presentation: it and its VS16 stay as written.
- **Control characters are removed** (category `Cc` but whitespace: NUL, ESC, DEL, the C1
  controls ...): a reader sees nothing there, so `pass\\x00word` reads `password`.
- **Code points that show nothing readable are removed**: private-use, surrogate,
  noncharacter and unassigned code points (`pass\\ue000word` reads `password`), but an
  unassigned one in a column of the code charts that holds only symbols, presumed a symbol
  of a later Unicode version than this Python's (an emoji: `🩷` is Unicode 15), which stays
  and shows.
- **Bidi controls are applied, then removed**: embeddings, isolates and marks change no
  letter's order and are dropped; under an override (LRO `U+202D`, RLO `U+202E`, up to its
  PDF, the isolate or paragraph that holds it, or the end of the text) a run of letters of
  the other direction is shown backwards, so it is read backwards: RLO + `drowssap` is shown,
  and read, as `password`. The innermost override decides.
- **Canonically equivalent text is the same text** (Unicode NFC, after the removals): `e` +
  U+0301 is `é`, so a decomposed `café` is the forbidden `café`.
- **Look-alike punctuation is its punctuation**: a character whose NFKC form is a comma or
  full stop (after digits: `⒈` is `1.`, `🄂` is `1,`) or question and exclamation marks
  (`﹖`, `‼` is `!!`, `⁉` is `!?`) reads as that form; every other punctuation character
  Unicode names a comma (`，` fullwidth, `،` Arabic, `、` ideographic, `﹐` small, `⸲` turned
  ...) and `‚` (U+201A, drawn as one) read as `,`, but where it opens a quotation that a
  single quote closes (`‚7‘`, German; `_OPENED_QUOTE`); the full stops of other scripts drawn as
  a dot or a small circle (`。` ideographic, `۔` Arabic: `_FULL_STOPS`) as `.`; every one it names a question or exclamation mark that ends
  what it asks (`؟` Arabic, `፧` Ethiopic; not the inverted `¿` that opens a question, nor
  the Armenian marks written over a vowel inside the word) as `?` or `!`, and the
  interrobang `‽` as `?!`. A run of dots
  (`‥`, `…`) is a leader or an ellipsis and stays.
- **Width and font variants are their letters**: a character whose Unicode decomposition is
  tagged `<wide>`, `<narrow>` or `<font>` (fullwidth `ｐａｓｓ`, halfwidth katakana, the
  mathematical alphanumerics `𝐩𝐚𝐬𝐬`) reads as what it is a variant of (its NFKC form).
- **Letter forms are their letters**: a Latin letter tagged `<circle>`, `<square>` or
  `<compat>` (`ⓟ`, `🄿`, the ligatures `ﬁ` `ﬂ` of typeset text, the digraph `ǆ`, the long
  `ſ`) reads as the Latin letters of its NFKC form; a whole word of superscript or subscript
  letters (`ᵖᵃˢˢ`) or of small capitals (`ᴘᴀꜱꜱ`, named LATIN LETTER SMALL CAPITAL P ...)
  that follows no letter, digit or closing bracket reads as its letters (lower case for the
  small capitals). On a base they keep their meaning and stay: an exponent `xⁿ`, `2ⁿ`, an
  ordinal `5ᵗʰ`, IPA `bɪt`. Signs (`™`), digits (`x²`) and fractions (`½`) stay.
- **A drawn blank is a space**: a symbol Unicode names a BLANK (U+2800 BRAILLE PATTERN BLANK,
  which `str.isspace` does not know) reads as ` `.

Cyrillic and Greek look-alikes of Latin letters (an allow-list) read as the Latin letter
inside a word that also holds a Latin letter (`pаssword` is `password`); a word in one script
reads as itself. Everything else is kept as written: letters of every script (a small
capital `ʜ` inside a word stays what it is), digits, spaces, line breaks, other punctuation.
An ASCII text is returned as it is, less its control characters. `is_blank` says whether a
reader sees anything at all, from the same table: a text is blank unless, read, it holds a
letter, digit, punctuation mark or symbol (lone combining marks show nothing; every code point
that shows nothing is removed by the reading). docs/instruction-following.md lists where this
differs from the IFEval reference harness, which reads the raw code points."""

from __future__ import annotations

import re
import sys
import threading
import unicodedata
from typing import NamedTuple

__all__ = ["COMMA_LOOKALIKES", "char_class", "is_blank", "is_blank_read", "read_text"]

# Unicode's DerivedCoreProperties.txt, Default_Ignorable_Code_Point (stable since 6.0).
_DEFAULT_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
                      (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
                      (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
                      (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                      (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
_LRO, _RLO, _PDF, _PDI = "\u202d", "\u202e", "\u202c", "\u2069"
_EMBEDDINGS = frozenset("\u202a\u202b")  # LRE, RLE: pushed, popped by PDF, reorder nothing
_ISOLATES = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI: closed by PDI
_PARAGRAPH = frozenset("\n\r\x1c\x1d\x1e\x85\u2029")  # UAX #9 paragraph separators (B)
_RTL = frozenset(["R", "AL"])
_VS16 = "\ufe0f"
_EMOJI_SEQUENCE = frozenset(["\u200d", "\ufe0e", "\ufe0f", *map(chr, range(0xE0020, 0xE0080))])
"""What stays right after a symbol: ZWJ, VS15, VS16, the tags (UTS #51 emoji sequences)."""
_ASCII_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x7f]+")
"""The ASCII controls that are not whitespace (Python's `str.isspace`)."""
_ASCII_VISIBLE = re.compile("[!-~]")
_VARIANTS = ("<wide>", "<narrow>", "<font>")
"""Decomposition tags of a width or style variant of one character (UnicodeData.txt)."""
_LETTER_FORMS = ("<circle>", "<square>", "<compat>")
"""Decomposition tags under which a Latin letter (or a symbol Unicode names a LATIN ...
LETTER: `Ⓐ`, `🄰`) reads as the Latin letters of its NFKC form: circled and squared letters,
the ligatures (`ﬁ`) and digraphs (`ǆ`) of typeset text, the long s (`ſ`)."""
_RAISED = ("<super>", "<sub>")
"""Decomposition tags of a raised or lowered letter: read as its letter only in a whole word of
them that follows no base (`ᵖᵃˢˢ`), never as an exponent or index (`xⁿ`, `2ⁿ`, `(a+b)ᵏ`)."""
_STOP = re.compile(r"[0-9]*[.,]|[?!]+")
"""An NFKC form read as its punctuation: `.` `,` (after digits: `⒈` is `1.`, `🄂` is `1,`) or
`?` and `!` (`‼` is `!!`, `⁉` is `!?`). A run of dots (`‥`, `…`) is a leader or an ellipsis,
no full stop, and stays."""
_FULL_STOPS = frozenset("\u3002\u06d4")
"""The full stops of other scripts drawn as a dot or a small circle, read as `.`: the
IDEOGRAPHIC FULL STOP (Chinese, Japanese) and the ARABIC FULL STOP (Urdu's), and what NFKC
makes one of them (the halfwidth and vertical ideographic ones). An allow-list: a Unicode name
says what a character does, not what it looks like, and no Unicode property records a glyph;
U+166E CANADIAN SYLLABICS FULL STOP is drawn as an x, U+2E3C STENOGRAPHIC FULL STOP as a
cross, U+A4FF LISU PUNCTUATION FULL STOP as `=`: after English words no reader sees a full
stop there, so they stay as written."""
_SMALL_CAPITAL = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z])")
"""The Unicode name of a small capital of one Latin letter (`ᴘ`: LATIN LETTER SMALL CAPITAL P),
read as that letter in a whole word of them (`ᴘᴀꜱꜱ` is `pass`; `bɪt`, IPA, stays)."""
_PREPENDED_CONCATENATION_MARK = ((0x0600, 0x0605), (0x06DD, 0x06DD), (0x070F, 0x070F),
                                 (0x0890, 0x0891), (0x08E2, 0x08E2), (0x110BD, 0x110BD),
                                 (0x110CD, 0x110CD))
"""PropList.txt, Prepended_Concatenation_Mark: the format characters (Cf) drawn with a visible
glyph (spanning the digits that follow: U+06DD, U+0600), which Unicode keeps out of
Default_Ignorable_Code_Point for that reason. They stay, and show."""
_ASTRAL = "\U00010000-\U0010ffff"
_LOCK = threading.Lock()


class _Tables(NamedTuple):
    removed: re.Pattern[str]
    """Runs of what a reader does not see, with every character outside the Basic
    Multilingual Plane (decided one by one: `astral_removed`), so the pattern is a bitmap."""
    astral_removed: frozenset[int]
    """What is removed outside the Basic Multilingual Plane but its private-use, surrogate,
    and unassigned code points (decided by category)."""
    read_as: dict[int, str]
    """What a character is read as (look-alike punctuation, variants, letter forms)."""
    visible: re.Pattern[str]
    """A character a reader sees."""
    styled: re.Pattern[str]
    """A run of raised, lowered or small-capital letters (`_styled_word` decides)."""
    styled_as: dict[int, str]
    """What each of those letters reads as in such a word."""
    kept: frozenset[int]
    """Other-category (C) code points that are kept: drawn format characters, unassigned
    ones presumed symbols of a later Unicode version (`_presumed_symbols`)."""
    presented: frozenset[str]
    """The characters that VS16 after them makes an emoji (`_emoji_bases`)."""
    presented_read: re.Pattern[str] | None
    """Those of them that are read as something else, with their VS16 (`‼️`, `ℹ️`, `Ⓜ️`):
    kept as written."""


_TABLES: dict[str, _Tables] = {}


def _tables() -> _Tables:
    """The tables of the one reading rule, made on first use from this Python's Unicode
    database (one scan of the code space, a fraction of a second). Every code point falls in
    one class, so `read_text` and `is_blank` agree: whitespace (kept, shows nothing); removed
    (Default_Ignorable_Code_Point, format characters but the drawn ones, controls but
    whitespace, private-use, surrogate, noncharacter and unassigned code points: a reader sees
    nothing there, so inside a word they leave it whole); read as something else (look-alike
    punctuation, width, font and letter forms, a drawn blank read as a space); combining marks
    (shown on their base only); everything else shows."""
    found = _TABLES.get("all")
    if found is None:
        with _LOCK:
            found = _TABLES.get("all")
            if found is None:
                found = _TABLES["all"] = _make_tables()
    return found


def _make_tables() -> _Tables:
    removed = {c for lo, hi in _DEFAULT_IGNORABLE for c in range(lo, hi + 1)}
    removed.update(ord(c) for c in map(chr, range(0x80)) if _ASCII_CONTROLS.match(c))
    drawn = {c for lo, hi in _PREPENDED_CONCATENATION_MARK for c in range(lo, hi + 1)}
    symbols: set[int] = set()
    read_as: dict[int, str] = {0x201A: ","}  # SINGLE LOW-9 QUOTATION MARK, drawn as a comma
    styled_as: dict[int, str] = {}
    visible = list(range(0x21, 0x7F))
    for column in range(0x80, sys.maxunicode + 1, 16):  # a column of the code charts
        codes = range(column, column + 16)
        categories = [unicodedata.category(chr(code)) for code in codes]
        symbols.update(_presumed_symbols(codes, categories))
        for code, category in zip(codes, categories):
            ch = chr(code)
            if category[0] == "C" and code not in drawn and code not in symbols \
                    and not ch.isspace():
                removed.add(code)  # Cc, Cf, Cs, Co, Cn: but whitespace, drawn marks, new symbols
                continue
            if code in removed:
                continue
            read = _read_as(ch, category)
            if read is not None:
                read_as[code] = read
            elif category == "Ll" and _SMALL_CAPITAL.fullmatch(unicodedata.name(ch, "")):
                styled_as[code] = unicodedata.name(ch)[-1].lower()
            elif category[0] == "L" and unicodedata.decomposition(ch).startswith(_RAISED) \
                    and _latin_letters(ch):  # a raised letter, not a sign (`™`)
                styled_as[code] = unicodedata.normalize("NFKC", ch)
            shows = category[0] in "LNPS" or code in drawn or code in symbols
            if shows and (read is None or read.strip()):
                visible.append(code)
    # a raised small capital (`ᶦ`, MODIFIER LETTER SMALL CAPITAL I) reads as the small
    # capital's letter, as the small capital does, so reading again changes nothing
    styled_as = {code: "".join(styled_as.get(ord(c), c) for c in read)
                 for code, read in styled_as.items()}
    # a character class of the Basic Multilingual Plane only is a bitmap to `re`, checked in
    # constant time; one with a code point above it is a list of ranges, checked one by one
    plane0 = char_class(sorted(c for c in removed if c <= 0xFFFF))
    astral = frozenset(c for c in removed if c > 0xFFFF and unicodedata.category(chr(c))
                       not in ("Co", "Cs", "Cn"))
    styled = char_class(sorted(styled_as))
    presented = _emoji_bases()
    presented_read = sorted(ord(ch) for ch in presented if ord(ch) in read_as)
    return _Tables(re.compile(f"(?:{plane0}|[{_ASTRAL}])+"), astral, read_as,
                   re.compile(char_class(visible) + "+"),
                   re.compile(f"{styled}{{2,}}"), styled_as, frozenset(drawn | symbols),
                   presented,
                   re.compile(char_class(presented_read) + _VS16)
                   if presented_read else None)


def _emoji_bases() -> frozenset[str]:
    """The characters that VS16 (U+FE0F) after them makes an emoji presentation sequence, as
    Unicode's emoji-test.txt lists them (the `emoji` package ships it): `‼` `⁉` `ℹ` `Ⓜ` `〰`
    and the symbols. Drawn as an emoji, so they and their VS16 stay as written."""
    from emoji import EMOJI_DATA

    return frozenset(key[0] for key in EMOJI_DATA if len(key) == 2 and key[1] == _VS16)


def _read_as(ch: str, category: str) -> str | None:
    """What `ch` reads as, if not itself: a width or font variant (its NFKC form), look-alike
    punctuation (an NFKC form of commas, full stops, question or exclamation marks: `‼` is
    `!!`; a full stop drawn as one, `_FULL_STOPS`; else a comma, question or exclamation mark
    by its Unicode name), a letter
    form (the Latin letters of its NFKC form), a symbol drawn as a blank (a space: BRAILLE
    PATTERN BLANK, whose name ends in BLANK)."""
    decomposition = unicodedata.decomposition(ch)
    if decomposition and not decomposition.startswith("<"):
        return None  # canonically equivalent to another text, read as it (NFC): `;` U+037E
    form = unicodedata.normalize("NFKC", ch) if decomposition else ""
    if _STOP.fullmatch(form):
        return form
    if category[0] == "P":
        name = unicodedata.name(ch, "")
        if "COMMA" in name:
            return ","
        if form == "\u3002" or ch in _FULL_STOPS:
            return "."
        if name.endswith(("QUESTION MARK", "EXCLAMATION MARK")) and _at_the_end(name):
            return "?" if name.endswith("QUESTION MARK") else "!"
        if name.endswith("INTERROBANG") and _at_the_end(name):
            return "?!"  # a question mark and an exclamation mark in one (not the inverted one)
    if decomposition.startswith(_VARIANTS):
        return form
    if decomposition.startswith(_LETTER_FORMS) and _latin_letters(ch):
        words = unicodedata.name(ch, "").split()
        if "LATIN" in words and (category[0] == "L" or "LETTER" in words):
            return form  # a Latin letter's form, not a sign (`™`, `ℇ` EULER CONSTANT)
    if category == "So" and unicodedata.name(ch, "").endswith(" BLANK"):
        return " "
    return None


def _at_the_end(name: str) -> bool:
    """Whether a question or exclamation mark so named ends what it asks or exclaims: not an
    inverted or reversed one that opens it (`¿`, `⸮`, Adlam's initial marks), nor Armenian's,
    written over the stressed vowel inside the word (The Unicode Standard, 7.6)."""
    return not any(word in name for word in ("INVERTED", "REVERSED", "INITIAL", "ARMENIAN"))


def _latin_letters(ch: str) -> bool:
    """Whether the NFKC form of `ch` is made of Latin letters only."""
    form = unicodedata.normalize("NFKC", ch)
    return bool(form) and all(unicodedata.category(c)[0] == "L"
                              and unicodedata.name(c, "").startswith("LATIN") for c in form)


def _presumed_symbols(codes: range, categories: list[str]) -> list[int]:
    """The unassigned code points of a column of the code charts (`codes`, 16 code points,
    and their `categories`) that a later Unicode version than this Python's likely assigns a
    symbol (an emoji: `🩷`, U+1FA77, is Unicode 15): those of a column whose assigned
    characters are all symbols (category `So`). Kept and shown, as every current device draws
    them; noncharacters and gaps in a script stay unassigned, read as nothing."""
    assigned = [category for category in categories if category != "Cn"]
    if not assigned or any(category != "So" for category in assigned):
        return []
    return [code for code, category in zip(codes, categories)
            if category == "Cn" and (code & 0xFFFE) != 0xFFFE]


def char_class(codes: list[int]) -> str:
    """A regular expression character class of `codes` (sorted), as ranges (the one builder of
    the classes the reading rule and the instruction checkers derive from Unicode data)."""
    parts, start = [], 0
    for i in range(1, len(codes) + 1):
        if i == len(codes) or codes[i] != codes[i - 1] + 1:
            lo, hi = codes[start], codes[i - 1]
            parts.append(re.escape(chr(lo)) + ("" if lo == hi else "-" + re.escape(chr(hi))))
            start = i
    return "[" + "".join(parts) + "]"


COMMA_LOOKALIKES = "\u055d\u060c\u07f8\u1363\u1802\u1808\u201a\u2e32\u2e34\u2e41\u2e49\u2e4c" \
    "\u3001\ua4fe\ua60d\ua6f5\ufe10\ufe11\ufe50\ufe51\uff0c\uff64"
"""The commas of the Basic Multilingual Plane that `read_text` reads as `,` (the full set,
made from the Unicode database, also holds a few of other planes: Newa, Medefaidrin,
SignWriting). For docs and tests."""


def read_text(text: str) -> str:
    """`text` as every checker reads it (see the module doc): what shows nothing removed, bidi
    overrides applied, look-alike punctuation, variants and letter forms read as what they
    are, a drawn blank as a space, composed (NFC). Linear in `text`;
    `read_text(read_text(t)) == read_text(t)`."""
    if text.isascii():
        return _ASCII_CONTROLS.sub("", text)
    tables = _tables()
    if _LRO in text or _RLO in text:
        text = _apply_overrides(text)
    text = tables.removed.sub(lambda run: _removed(text, run, tables), text)
    text = _read_as_table(text, tables) if _LOW_QUOTE not in text else _quotes_kept(text, tables)
    text = text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)
    styled = tables.styled.sub(lambda word: _styled_word(word, tables.styled_as), text)
    if styled != text:  # a mark after the word may now compose: `ᵖᵃˢˢ\u0301`
        text = unicodedata.normalize("NFC", styled)
    return _MIXED_WORD.sub(_latin_lookalikes, text) if _LOOKALIKE_CHARS.search(text) else text


_LOW_QUOTE = "\u201a"  # SINGLE LOW-9 QUOTATION MARK: a comma (`read_as`) but where it opens a quotation


def _quote_size(ch: str) -> str:
    """`SINGLE` or `DOUBLE` (or ``) as the name of a quotation mark `ch` says."""
    return next((size for size in ("SINGLE", "DOUBLE") if size in unicodedata.name(ch, "")), "")


_SINGLE_CLOSERS = "".join(ch for ch in map(chr, range(0x10000)) if unicodedata.category(ch) in ("Pi", "Pf")
                          and "QUOTATION MARK" in unicodedata.name(ch, "") and _quote_size(ch) == "SINGLE")
"""The quotation marks that close what `‚` opens: Unicode's initial and final quotes (Pi, Pf)
whose name makes them single, as `‚` is (`‚7‘` in German, `‚7’` in Polish)."""
_OPENED_QUOTE = re.compile(r"(?<![^\W_])\u201a(?=[^\s\u201a" + _SINGLE_CLOSERS + r"]{1,40}["
                           + _SINGLE_CLOSERS + r"](?![^\W_]))")
"""A `‚` that opens a quotation: at a word's start, closed by a single quote (`_SINGLE_CLOSERS`)
within 40 characters at a word's end, no space between; anywhere else (`1‚000`) it is drawn as
a comma and read as one."""


def _quotes_kept(text: str, tables: _Tables) -> str:
    """`_read_as_table`, but each `‚` that opens a quotation (`_OPENED_QUOTE`) kept as written."""
    out, last = [], 0
    for opened in _OPENED_QUOTE.finditer(text):
        out.append(_read_as_table(text[last:opened.start()], tables))
        out.append(opened.group())
        last = opened.end()
    out.append(_read_as_table(text[last:], tables))
    return "".join(out)


def _read_as_table(text: str, tables: _Tables) -> str:
    """`text` with each character read as `tables.read_as` says, but a character that a VS16
    after it makes an emoji (`‼️`, `ℹ️`, `Ⓜ️`: UTS #51), which stays as written."""
    if tables.presented_read is None or _VS16 not in text:
        return text.translate(tables.read_as)
    out, last = [], 0
    for sequence in tables.presented_read.finditer(text):
        out.append(text[last:sequence.start()].translate(tables.read_as))
        out.append(sequence.group())
        last = sequence.end()
    out.append(text[last:].translate(tables.read_as))
    return "".join(out)


# Cyrillic and Greek letters that look like Latin ones (an allow-list of the look-alikes of
# UTS #39's confusables that fonts draw the same), read as the Latin letter inside a word that
# also holds a Latin letter: `p\u0430ssword` is `password` to a reader and to every checker.
# A word in one script is left as written, so Russian and Greek text read as themselves.
_LATIN_LOOKALIKES = str.maketrans({
    "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c",
    "\u0443": "y", "\u0445": "x", "\u0456": "i", "\u0458": "j", "\u0455": "s",
    "\u04bb": "h", "\u0501": "d", "\u051b": "q", "\u051d": "w", "\u04cf": "l",
    "\u0410": "A", "\u0412": "B", "\u0415": "E", "\u041a": "K", "\u041c": "M",
    "\u041d": "H", "\u041e": "O", "\u0420": "P", "\u0421": "C", "\u0422": "T",
    "\u0425": "X", "\u0406": "I", "\u0408": "J", "\u0405": "S", "\u04ae": "Y",
    "\u051a": "Q", "\u051c": "W",
    "\u03bf": "o", "\u03bd": "v", "\u03c1": "p", "\u03b9": "i", "\u03ba": "k",
    "\u03c7": "x", "\u03b1": "a", "\u0391": "A", "\u0392": "B", "\u0395": "E",
    "\u0396": "Z", "\u0397": "H", "\u0399": "I", "\u039a": "K", "\u039c": "M",
    "\u039d": "N", "\u039f": "O", "\u03a1": "P", "\u03a4": "T", "\u03a5": "Y",
    "\u03a7": "X",
})
_LOOKALIKE_CHARS = re.compile("[" + "".join(chr(c) for c in _LATIN_LOOKALIKES) + "]")
_MIXED_WORD = re.compile(r"[^\W\d_]+")


def _latin_lookalikes(word: re.Match[str]) -> str:
    """A word mixing Latin letters with Cyrillic or Greek look-alikes, read in Latin."""
    text = word.group()
    if not any("a" <= ch.lower() <= "z" for ch in text) or not _LOOKALIKE_CHARS.search(text):
        return text
    return text.translate(_LATIN_LOOKALIKES)


def _removed(text: str, run: re.Match[str], tables: _Tables) -> str:
    """What is left of a run of invisible characters (and of characters outside the Basic
    Multilingual Plane, which the pattern takes whole): the characters that show, and after a
    symbol (or an unassigned code point presumed one: `_presumed_symbols`) the invisible ones
    that continue an emoji sequence, and right after a character that VS16 makes an emoji
    (`‼️`, `Ⓜ️`: `_emoji_bases`) that VS16. A symbol is judged as it is read, so a circled
    letter, read as its letter, keeps no joiner (`ⓟ` + ZWJ + `assword` reads `password`)."""
    start = run.start()
    previous = text[start - 1] if start else ""
    after_symbol = bool(previous) and _is_symbol(previous, tables)
    out = []
    for ch in run.group():
        code = ord(ch)
        if code > 0xFFFF and code not in tables.astral_removed and (
                code in tables.kept or unicodedata.category(ch) not in ("Co", "Cs", "Cn")):
            out.append(ch)  # shown
            after_symbol = _is_symbol(ch, tables)
        elif ch == _VS16 and previous in tables.presented:
            out.append(ch)  # an emoji presentation sequence, which continues as an emoji
            after_symbol = True
        elif after_symbol and ch in _EMOJI_SEQUENCE:
            out.append(ch)
        previous = ch
    return "".join(out)


def _is_symbol(ch: str, tables: _Tables) -> bool:
    """Whether `ch`, as `read_text` reads it, is a symbol (a circled letter is a letter)."""
    ch = tables.read_as.get(ord(ch), ch)[-1]
    return unicodedata.category(ch).startswith("S") or ord(ch) in tables.kept


def _styled_word(run: re.Match[str], styled_as: dict[int, str]) -> str:
    """A run of raised, lowered or small-capital letters, read as its letters where it is a
    whole word that follows no base: no letter, digit, mark or closing bracket before it
    (`xⁿ`, `x\u0301ⁿ`, `2ⁿ`, `(a+b)ᵏ` are exponents), no letter after it (`bɪt`)."""
    text, start, end = run.string, run.start(), run.end()
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    if before.isalnum() or before in ")]}_" or unicodedata.category(before)[0] == "M" \
            or after.isalpha():
        return run.group()
    return run.group().translate(styled_as)


def is_blank(text: str) -> bool:
    """Whether a reader sees nothing in `text`: read (`read_text`), it holds no letter, digit,
    punctuation mark or symbol but the blank braille pattern. A reply of zero-width spaces,
    control characters, braille blanks or lone combining marks is blank, as an empty one is."""
    return is_blank_read(read_text(text))


def is_blank_read(text: str) -> bool:
    """`is_blank` of a text that `read_text` already read (it reads the same: reading is
    idempotent), without reading it again."""
    if text.isascii():
        return _ASCII_VISIBLE.search(text) is None
    return _tables().visible.search(text) is None


def _apply_overrides(text: str) -> str:
    """`text` with each run under a bidi override put in the order a reader reads it: under
    RLO a run of characters that are not right-to-left letters, under LRO a run of
    right-to-left letters (Hebrew, Arabic), reversed. Controls stay (removed afterwards)."""
    out: list[str] = []
    # per open embedding: "L" or "R" for an override, "" for an embedding, "I" for an isolate;
    # an embedding or isolate inside an override ends it until closed (UAX #9, X2-X5a)
    stack: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            out.append("".join(reversed(run)))
            run.clear()

    for ch in text:
        override = stack[-1] if stack else ""
        if ch in _PARAGRAPH:
            stack.clear()
        elif ch == _LRO or ch == _RLO:
            stack.append("L" if ch == _LRO else "R")
        elif ch in _EMBEDDINGS:
            stack.append("")
        elif ch in _ISOLATES:
            stack.append("I")
        elif ch == _PDF:
            if stack and stack[-1] != "I":
                stack.pop()
        elif ch == _PDI:
            while stack and stack.pop() != "I":
                pass
        elif override in ("L", "R"):
            rtl = unicodedata.bidirectional(ch) in _RTL
            if rtl == (override == "L"):  # a letter shown against its own direction
                run.append(ch)
                continue
        flush()
        out.append(ch)
    flush()
    return "".join(out)
