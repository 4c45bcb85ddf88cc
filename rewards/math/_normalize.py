"""Answer strings made comparable: `normalize` (spacing, aliases, units), numbers as exact
fractions (`parse_number`), choice letters, prose, and "x < a or x > b" read as a union.
The decisions on a pair of them are in `_fast`."""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from rewards.cache import byte_cache
from rewards.math._evaluate import evaluate
from rewards.text import read_text

__all__ = [
    "APPROXIMATIONS", "APPROX_COMMANDS", "APPROX_SIGN", "BESIDE_THE_BOX", "HEDGED", "MAX_QUALIFYING_WORDS", "MAX_QUESTION_CHARS", "NUMBER_WORDS", "PLACEHOLDER_MARKS",
    "RESTATED", "UNCERTAIN", "Number", "affirms", "as_intervals",
    "carried_words", "changes_value", "choice_letter", "counted_magnitude", "disjunction_as_union",
    "hedges", "imaginary_unit_like_gold", "inequality_as_interval", "is_choice",
    "is_prose", "joined_after", "joined_value", "magnitude_after", "money_unasked", "names_a_kind", "no_answer_in", "normalize", "parse_number",
    "qualifiers", "question_words", "restates_question",
    "sentence_key", "symbol_numbers", "text_carries_meaning", "unread_gold_word",
]

# `\\\\` (a LaTeX row break) is matched first so its second backslash is never read as `\\ `.
_SPACING = re.compile(r"\\\\|\\[!,;:> ]|\\q?quad|~|\\left(?![a-z])|\\right(?![a-z])"
                      r"|\\displaystyle")
# Spacing wider than math's own between factors (a word space, `\\quad`): `_side_by_side` reads
# what it parts as a list, so it is kept as `_WIDE` (an em space) through `_read_as_tex`.
_WIDE_SPACING = re.compile(r"\\[ ]|\\q?quad|~")
_WIDE = "\u2003"
_FUNCTION_OF_NUMERALS = re.compile(r"max|min|gcd|lcm")
_FRAC_ALIASES = re.compile(r"\\[dt](frac|binom)(?![a-zA-Z])")
# Text in another font is text: `\\textnormal{ miles}` is read as `\\text{ miles}`.
_TEXT_ALIASES = re.compile(r"\\(?:textnormal|textit|textsf|texttt|textup)(?![a-zA-Z])")
_DEGREES = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|°|\\degree")
# A temperature scale after a degree sign, as a bare letter or in text (`^\circ C`, `°F`,
# `^{\circ}\mathrm{C}`): the unit, never a variable.
_DEGREE_SCALE = re.compile(f"(?:{_DEGREES.pattern})" + r"\s*(?:\\(?:text|mathrm|rm|textrm)\s*"
                           r"\{\s*)?([CF])\s*\}?(?![A-Za-z])")
# The letterlike symbols of a degree and its scale (`℃`, `℉`), read as the two they write.
_SCALE_SIGNS = re.compile("[\u2103\u2109]")
_TEXT_CMD = re.compile(r"\\(?:text|textbf|textrm|mathrm|mbox|mathbf|operatorname)\s*\{([^{}]*)\}")
# MATH's thousands separator: `3,\!250`, `900,\!000,\!000` (a comma, then a negative space).
_THIN_THOUSANDS = re.compile(r"(?<=\d),\s*\\!\s*(?=\d{3}(?!\d))")
# A function name written without its backslash (`tan(2x)`, `ln x`): LaTeX would read the
# product t*a*n. Followed by an argument: `(`, `{`, `^`, `_`, a space, a digit or a letter.
_BARE_FUNCTION = re.compile(
    r"(?<![\\a-zA-Z])(arcsin|arccos|arctan|sinh|cosh|tanh|sin|cos|tan|cot|sec|csc|ln|log|exp)"
    r"(?=\s*[({^_\\\d]|\s+[a-zA-Z])")
# Scientific notation as a whole answer (`1e-07`, `4.5e33`, a float of a numeric dataset
# column): written as LaTeX so that no parser reads `e` as Euler's number.
_SCIENTIFIC = re.compile(r"^([-+]?\d+(?:\.\d+)?)[eE]([-+]?)(\d{1,4})$")
# Magnitude names read as the number they multiply by (short scale, as English writes them
# now; lakh and crore, as Indian English does). `k`, `mn`, `bn`, `M`, `B` are not read: they
# are also variables and units (`5k`, `5 M` molar); they are not units either (`_UNIT_WORDS`),
# so they stay, and the pair is the judge's to decide.
_MAGNITUDES = {"dozen": 12, "hundred": 10 ** 2, "thousand": 10 ** 3, "lakh": 10 ** 5,
               "million": 10 ** 6, "crore": 10 ** 7, "billion": 10 ** 9, "trillion": 10 ** 12,
               "quadrillion": 10 ** 15}
_MAGNITUDE = re.compile(r"^([-+]?\d+(?:\.\d+)?)((?:\s*(?:dozen|hundred|thousand|lakh|million|"
                        r"crore|billion|trillion|quadrillion)s?){1,3})$", re.IGNORECASE)
# A value in magnitude words and the words after them (`5 dozen apples`): the words are read
# as a unit (`_is_unit`), the magnitude as its value.
_MAGNITUDE_THEN_WORDS = re.compile(r"^([-+]?\d+(?:\.\d+)?(?:\s*(?:dozen|hundred|thousand|lakh|"
                                   r"million|crore|billion|trillion|quadrillion)s?){1,3})\s+(?!(?:dozen|hundred|"
                                   r"thousand|lakh|million|crore|billion|trillion|quadrillion)s?(?![A-Za-z]))"
                                   r"([A-Za-z][A-Za-z ]{0,40})$", re.IGNORECASE)
# A unit at the end: `\text{ cm}`, `\mbox{m}^2` (the prefix before it is checked apart, so no
# pattern here backtracks over the answer: see `_strip_trailing_unit`).
_UNIT_AT_END = re.compile(r"\\(?:text|mbox|mathrm)\s*\{\s*[a-zA-Z][a-zA-Z .\-/^0-9]*\}"
                          r"(?:\^\{?-?\d\}?)?$")
# `1,234` is a number; `14,16`, `2500,7500`, `0,245` are lists (golds write pairs so).
_THOUSANDS = re.compile(r"^-?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$")
_POWER_OF_TEN = re.compile(r"^(?:([-+]?\d+(?:\.\d+)?)\s*(?:\\times|\\cdot|\*|×)\s*)?10\s*\^\s*"
                           r"(?:\{\s*([-+]?\d{1,4})\s*\}|(\d{1,4}))$")
_DECIMAL = re.compile(r"^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$")
_SLASH = re.compile(r"^([-+]?\d+)\s*/\s*([-+]?\d+)$")
_FRAC = re.compile(r"^([-+]?)\\frac\s*(?:\{\s*([-+]?\d+)\s*\}|(\d))"
                   r"\s*(?:\{\s*([-+]?\d+)\s*\}|(\d))$")
_WORDS = re.compile(r"^[A-Za-z][A-Za-z '\-]*$")
# Words that are mathematics, not prose: sympy must see them (`pi` vs `\pi`, `i`, `e` ...).
_MATH_WORDS = frozenset({"pi", "e", "i", "infty", "infinity", "inf", "sqrt", "sin", "cos",
                         "tan", "log", "ln", "exp", "and", "or", "x", "y", "z", "n", "k"})
_NOT_UNITS = _MATH_WORDS | {"a", "b", "c", "d"}
# Words known to change or qualify a value (with `_MAGNITUDE_NAMES`, `_OPERATION_WORDS` and
# `_ORDINAL_WORD`: `changes_value`). Never the rule for an answer's own words (what may be
# dropped is the allow-list `_UNIT_SYMBOLS`, `_UNIT_WORDS`); what keeps a gold's or a
# question's word from being dropped as a counted noun (`carried_noun`).
_VALUE_WORDS = frozenset({
    "or", "and", "more", "less", "fewer", "than", "least", "most", "over", "under", "above",
    "below", "squared", "cubed", "square", "cube", "root", "not", "no", "none", "only", "plus",
    "minus", "times", "negative", "positive", "neg", "factorial", "double", "twice", "triple",
    "thrice", "half", "halves", "third", "thirds", "quarter", "quarters", "percent", "per",
    "cent", "hundred", "thousand", "lakh", "crore", "million", "billion", "trillion", "dozen",
    "score", "gross", "pair", "pairs", "couple", "k", "mn", "bn", "i", "e", "j", "pi",
    "infinity", "undefined", "all", "except", "between", "if", "when", "inverse", "reciprocal",
    "power", "th", "approximately", "about", "around", "nearly", "almost"})
_PUNCT = " \t\n.;,"  # not "!": 5! is a factorial
# Magnitude names and abbreviations of any scale or language (read or not), operation words,
# era and sign words: words that change the value they follow. A word of the gold or of the
# question is dropped beside a value only when it is a unit, a currency or a counted noun
# (`carried_noun`): never one of these, whatever the gold or the question says around it.
_MAGNITUDE_NAMES = frozenset("""
    hundred hundreds thousand thousands lakh lakhs lac lacs crore crores million millions
    billion billions trillion trillions milliard milliards billiard billiards grand score
    scores gross dozen dozens mil mio mrd mn bn tn cr thou myriad myriads k b
    millionen milliarde milliarden billionen tausend tausende hundert hunderte dutzend mille
    milles mila millier milliers centaine centaines dizaine dizaines douzaine douzaines cien
    ciento cientos docena docenas cento centinaia migliaia dozzina duizend duizenden honderd
    tusen tusind tusinde hundra hundrede tuhat tys tysiecy tysiace tysyach tysyacha ribu juta
    hazar hazaar ppm ppb ppt bps bp basis
""".split())  # noqa: SIM905
_OPERATION_WORDS = frozenset("""
    doubled tripled trebled quadrupled quintupled halved thirded quartered squared cubed
    inverted negated reciprocal reciprocals factorial factorials sqrt root roots inv sq
    twice thrice double triple quadruple fold times
    bc bce ago short deficit below under over above approx approximately roughly circa ca
    about around nearly almost exceeding exceeds within least most more less fewer
""".split())  # noqa: SIM905
# Fraction and ordinal words: `sevenths`, `twenty-fifths`, `thousandths`, `7ths`.
_ORDINAL_WORD = re.compile(
    r"(?<![a-z\d-])(?:[a-z]+-)?(?:\d*(?:st|nd|rd|th)|third|fourth|fifth|sixth|seventh|eighth|"
    r"ninth|tenth|eleventh|twelfth|[a-z]*teenth|[a-z]*tieth|hundredth|thousandth|"
    r"[a-z]*illionth|half|halve|halves|quarter)s?")
# Chinese and Japanese magnitudes and fraction marks (`5万` is 50,000; `3分之一` is 1/3).
_CJK_VALUE_CHARS = frozenset("十百千万萬亿億兆倍负負")  # and `分之` (`分` alone is a minute)


def changes_value(word: str) -> bool:
    """True when `word` (one run of letters of an answer, the gold or the question) is known
    to change the value beside it: a magnitude (`lakh`, `milliard`, `tn`, `Mio`, `万`), a
    fraction or ordinal (`sevenths`, `7ths`), an operation (`doubled`, `squared`), a sign, an
    era or a bound (`negative`, `BC`, `or more`), any `-illion`. A word not known so is still
    no unit: `_is_unit` drops an answer's word only on the allow-list."""
    lower = word.lower().rstrip(".")
    if not lower.isascii():
        return (any(ch in _CJK_VALUE_CHARS for ch in lower) or "分之" in lower
                or _CYRILLIC_VALUE.match(lower) is not None)
    return (lower in _VALUE_WORDS or lower in _MAGNITUDE_NAMES or lower in _OPERATION_WORDS
            or _ORDINAL_WORD.fullmatch(lower) is not None or "illion" in lower
            or "illiard" in lower or lower.endswith("fold"))


_CYRILLIC_VALUE = re.compile(r"(?:тыс|млн|млрд|трлн|минус|полов|трет|четверт|сот|тысячн)")


# Approximation signs and words: on the gold's side they say the gold is rounded, not that
# another value is meant (`\\approx 8.24` is answered by 8.24); on the answer's, uncertain.
APPROXIMATIONS = frozenset({
    "\\approx", "\\approxeq", "\\sim", "\\simeq", "\\doteq", "≈", "∼", "≃", "~", "approx",
    "approximately", "about", "around", "roughly", "circa", "ca", "nearly", "almost"})


def _short_magnitude(word: str) -> bool:
    """`k`, `K`, `M`, `B` (thousand, million, billion) and the magnitudes, eras and signs
    `changes_value` knows of two letters or more (`bn`, `MRD`, `BC`); never `i`, `e`, `pi`."""
    if len(word) == 1:
        return word in "kKMB"
    return word.lower() not in _MATH_WORDS and changes_value(word)


def carried_noun(word: str) -> bool:
    """A word of the gold or the question that an answer may drop beside its value: a unit,
    currency or counted noun (`apples`, `balloons`), never a word known to change a value
    (`changes_value`) nor a name of mathematics (`pi`, `i`, `x`)."""
    lower = word.lower()
    return (len(lower) >= 2 and not changes_value(lower) and lower not in _NOT_UNITS)


def _without_degrees(text: str) -> str:
    """`text` without its degree signs (`30^\\circ`: 30); one between two numerals leaves a
    space (`7^\\circ 8`, `7°8`: two values, `7 8`, never the numeral `78`)."""
    return _DEGREES.sub(lambda found: " " if text[found.start() - 1 : found.start()].isdigit()
                        and text[found.end() : found.end() + 1].isdigit() else "", text)


def _choose_as_binomial(text: str) -> str:
    """`text` with one `\\choose` outside any group read as TeX does, the binomial of what its
    group holds before and after it (`7 \\choose 2`: `\\binom{7}{2}`, 21; math-verify reads
    the value after it); a `\\choose` inside braces is `{n \\choose k}`, read where it stands."""
    found = _INFIX_CHOOSE.search(text)
    if found is None or _INFIX_CHOOSE.search(text, found.end()) is not None:
        return text
    before = text[: found.start()].replace("\\{", "").replace("\\}", "")
    if before.count("{") != before.count("}"):
        return text
    return f"\\binom{{{text[: found.start()].strip()}}}{{{text[found.end() :].strip()}}}"


_BMOD = re.compile(r"\\bmod(?![a-zA-Z])")  # `7 \\bmod 8` is `7 \\mod 8`: 7
_INFIX_CHOOSE = re.compile(r"\\choose(?![a-zA-Z])")


# TeX's readings of spellings math-verify does not read as TeX does (`_read_as_tex`); each is
# one value, rewritten to the spelling the rules and math-verify read.
_BRACED_POINT = re.compile(r"(?<=\d)\{\s*\.\s*\}(?=\d)")  # `7{.}5` is 7.5, as `7{,}000` is 7000
_PAIRED_BARS = {"lvert": "|", "rvert": "|", "lVert": "\\|", "rVert": "\\|"}
_PAIRED_BAR = re.compile(r"\\([lr][vV]ert)(?![a-zA-Z])")  # `\\lvert -7 \\rvert` is `|-7|`
# Markup that sets only a style (a colour, an underline): what it styles. `\\color{red}` is a
# switch (what follows is red), `\\textcolor{red}{7}`, `\\underline{7}` and the colour boxes
# (`\\colorbox{yellow}{7}`, `\\fcolorbox{red}{white}{7}`) style their argument. A colour is named
# (`{red}`, `{red!50}`), given in a model (`[rgb]{1,0,0}`, `[HTML]{FF0000}`) or an xcolor
# expression (`{rgb:red,1;green,0}`, `{red>wheel,1,12}`).
_COLOUR = r"(?:\[\s{0,3}[A-Za-z]{1,10}\s{0,3}\]\s{0,3})?\{[-A-Za-z!0-9 ,.:;>+*/=]{0,40}\}"
_STYLE_SWITCH = re.compile(r"\\color\s{0,3}" + _COLOUR)
_STYLED = re.compile(r"\\(?:(?:textcolor|colorbox)\s{0,3}" + _COLOUR + r"|fcolorbox\s{0,3}" + _COLOUR + r"\s{0,3}"
                     + _COLOUR + r"|underline(?![a-zA-Z]))\s{0,3}(?=\{)")
# Markup that renders as space or nothing at a value's edge (`\\hspace{1em}7`, `\\hspace*{1em}`,
# `\\kern1em`; a phantom is dropped before, at any depth: `_markup_read`): a space. Between
# values it is read by the join rules.
_DIMENSION = r"[-+]?(?:\d{1,10}(?:\.\d{0,10})?|\.\d{1,10})\s{0,3}(?:em|ex|pt|pc|mu|px|bp|cm|mm|in|dd|cc|sp)"
# A box's dimension as `\\raisebox` reads one (`\\raisebox{1pt}`, `\\raisebox{-0.5ex}`): a length, or
# a factor of the box's own dimensions or a length register (`\\raisebox{\\depth}`, `{0.5\\height}`,
# `{-\\totalheight}`, `{.3\\width}`, `{\\baselineskip}`; an allow-list: any other command is no
# dimension, and the box is left as a command).
_BOX_DIMENSION = (r"(?:" + _DIMENSION + r"|[-+]?(?:\d{1,10}(?:\.\d{0,10})?|\.\d{1,10})?\s{0,3}\\(?:depth|height|"
                  r"totalheight|width|baselineskip|normalbaselineskip|jot)(?![a-zA-Z]))")
_SPACE_MARKUP = (r"(?:\\[hv]space\s{0,3}\*?\s{0,3}\{\s{0,3}"
                 + _DIMENSION + r"\s{0,3}\}|\\(?:kern|mkern|hskip|mskip)\s{0,3}" + _DIMENSION + r")")
_EDGE_SPACE = re.compile(r"\A\s*+(?:" + _SPACE_MARKUP + r"\s*+)++|(?<!\s)\s*+(?:" + _SPACE_MARKUP
                         + r"\s*+)++\Z")
# A function of a set (`\\max\\{7, 6\\}`, `\\min\\{7,8\\}`): the function of its elements.
# The function's name in any spelling (`\\max`, `\\mathrm{max}`, `\\operatorname{max}`), the set's
# braces in any spelling (`\\{`, `\\left\\{`, `\\big\\{`, `\\lbrace`).
_SET_OPENS = r"(?:\\(?:left|[bB]igg?l?)\s{0,3})?(?:\\\{|\\lbrace(?![a-zA-Z]))"
_SET_CLOSES = r"(?:\\(?:right|[bB]igg?r?)\s{0,3})?(?:\\\}|\\rbrace(?![a-zA-Z]))"
_OF_A_SET = re.compile(r"(?<![A-Za-z])(?:\\(?:mathrm|operatorname\*?|text|textrm|mbox)\s{0,3}\{\s{0,3}"
                       r"(max|min|gcd|lcm)\s{0,3}\}|(\\?(?:max|min|gcd|lcm)))\s{0,3}" + _SET_OPENS
                       + r"([^{}]{0,400}?)" + _SET_CLOSES)
# A command of two arguments given unbraced one-token arguments (`\\binom 72`, `\\frac 1 4`):
# TeX reads one digit or letter each (`\\binom{7}{2}`).
_UNBRACED_TWO = re.compile(r"\\(binom)(?![a-zA-Z])\s{0,3}(?:\{([^{}]{0,80})\}|([0-9A-Za-z]))"
                           r"\s{0,3}(?:\{([^{}]{0,80})\}|([0-9A-Za-z]))")
# TeX's infix generalized fractions: `\\over` and `\\above <dimen>` (a fraction; `\\above 0pt`
# draws no rule, it is `\\atop`: two values stacked), `\\choose` (`_choose_as_binomial`), and
# their `...withdelims` forms, which set the same between two delimiters (`\\overwithdelims()`:
# the fraction in brackets; `\\atopwithdelims()`: two values stacked in brackets; `.`: none).
_DELIMITER = (r"\s{0,3}(?:[()\[\]|./<>]|\\[{}|]|\\(?:[lr]?[vV]ert|[lr]angle|[lr]floor|[lr]ceil|[lr]brace|"
              r"[lr]brack|[lr]group|[lr]moustache|backslash)(?![a-zA-Z]))")
_INFIX_FRACTION = re.compile(r"\\(?:over(?![a-zA-Z])|above\s{0,3}(" + _DIMENSION + r")(?![a-zA-Z])|(over|atop)"
                             r"withdelims(" + _DELIMITER + r")(" + _DELIMITER + r")|abovewithdelims("
                             + _DELIMITER + r")(" + _DELIMITER + r")\s{0,3}(" + _DIMENSION + r")(?![a-zA-Z]))")
_UNIT_OF_DIMENSION = re.compile(r"[a-z]+")
_INFIX_ANY = re.compile(r"\\(?:over|above|atop|choose|brack|brace)(?:withdelims)?(?![a-zA-Z])")
# A trailing modulus on a bare whole number (`7 \\pmod 8`, `7 \\pmod{8}`, `7 (\\text{mod } 8)`):
# the number, a residue, as `x \\equiv 7 \\pmod{8}` reads.
_TRAILING_MODULUS = re.compile(
    r"\A(\s*[-+]?\d+)\s*(?:\\pmod\s{0,3}(?:\{\s{0,3}(\d+)\s{0,3}\}|(\d)(?!\d))|\(\s{0,3}(?:\\(?:text|textrm|"
    r"mathrm|mbox|operatorname)\s{0,3}\{\s{0,3})?\\?[bp]?mod\s{0,3}\}?\s{0,3}\{?\s{0,3}(\d+)\s{0,3}\}?\s{0,3}\))\s*\Z")
# A row break (`\\\\`) with its star and its skip, any glue as TeX reads one (`\\\\*`, `\\\\[2pt]`,
# `\\\\[-1ex]`, `\\\\[0.5\\baselineskip]`, `\\\\[\\jot]`): a factor and a unit or a skip register, or
# an expression of them (`\\\\[\\dimexpr 2pt\\relax]`, `\\glueexpr`, `\\muexpr`); a bracket of anything
# else (`\\\\ [8]`) is the next row's.
_SKIP_UNIT = r"(?:(?:em|ex|pt|pc|mu|px|bp|cm|mm|in|dd|cc|sp|fil{1,3})(?![a-zA-Z])|\\[a-zA-Z]{1,30})"
_FACTOR = r"[-+]?(?:\d{1,10}(?:\.\d{0,10})?|\.\d{1,10})?\s{0,3}"
_GLUE = _FACTOR + _SKIP_UNIT + r"(?:\s{0,3}(?:plus|minus)\s{0,3}" + _FACTOR + _SKIP_UNIT + r"){0,2}"
_SKIP_EXPRESSION = r"\\(?:dim|glue|mu)expr(?![a-zA-Z])[^\[\]{}]{0,80}"  # (`\\dimexpr 2pt\\relax`)
_ROW_BREAK = r"\\\\(?:\*|\s{0,3}\[\s{0,3}(?:" + _GLUE + "|" + _SKIP_EXPRESSION + r")\s{0,3}\])*"
_ROW_BREAKS = re.compile(_ROW_BREAK)
# An environment that aligns or stacks rows, of one row, or whose rows after the first each
# continue the chain (`x &= 10 - 3 \\\\ &= 7`): one value, its rows joined (`x = 10 - 3 = 7`).
_ROWS = re.compile(r"\\begin\{(aligned|align\*?|split|eqnarray\*?|alignat\*?|alignedat|gathered|gather\*?|"
                   r"array)\}(?:\{[^{}]{0,20}\})*((?:(?!\\(?:begin|end)\{).){0,400}?)\\end\{\1\}", re.DOTALL)
_CONTINUED = re.compile(_ROW_BREAK + r"\s*(?=&\s*=)")
# A row break with only space (or an empty cell) after it: an empty last row, which sets nothing.
_LAST_ROW_EMPTY = re.compile(_ROW_BREAK + r"[\s&]*\Z")
# In `array` a `&` beside a relation sign aligns a chain (`x &= 7`, `x =& 7`); any other splits cells.
_ALIGNING = re.compile(r"&(?=\s*=)|(?<==)\s*&")


# Boxes that only pass their argument on (its glyphs are theirs): `\\hbox`, `\\vbox`, `\\rlap`,
# `\\llap`, `\\clap`, `\\smash[..]`, `\\makebox[..][..]`, `\\raisebox{<dimen>}`, `\\ensuremath`,
# `\\mathrlap`..., unwrapped to a group wherever they stand (`_markup_read`), so their argument is
# read as if written bare. (`\\mbox` is read as text by the text rules.) A box set to a width
# (`\\hbox to 5em{}`, `\\makebox[5em]{}`) is that space too: a wide one (`\\quad`).
_PASS_THROUGH = (r"(?P<box>(?:[hv]box|vtop)(?![a-zA-Z])(?:\s{0,3}(?P<to>to|spread)\s{0,3}(?P<width>" + _DIMENSION
                 + r"))?|(?:smash|[rlc]lap|math[rlc]lap|ensuremath)(?![a-zA-Z])(?:\s{0,3}\[[^\[\]{}]{0,20}\])?"
                 r"|makebox(?![a-zA-Z])(?:\s{0,3}\[(?P<made>[^\[\]{}]{0,20})\])?(?:\s{0,3}\[[^\[\]{}]{0,20}\])?"
                 r"|raisebox\s{0,3}\{\s{0,3}" + _BOX_DIMENSION + r"\s{0,3}\}(?:\s{0,3}\[\s{0,3}(?:" + _BOX_DIMENSION
                 + r")?\s{0,3}\]){0,2})"
                 r"\s{0,3}(?=\{)")
# Markup TeX reads before any value, in one pass at any brace depth (`_markup_read`):
# - what renders nothing is dropped with its argument: a phantom (`\\phantom{\\{8\\}}`, `\\hphantom`,
#   `\\vphantom`: space, no glyph, whatever it holds), an equation's number or its suppression
#   (`\\tag{1}`, `\\tag*{a}`, `\\eqno(1)`, `\\nonumber`, `\\notag`: set in the margin, no part of
#   the value; dropping one never hides a glyph of the value), only where it is one
#   (`_EQUATION_NUMBER`; a tag of words is text, a second item), a `\\label`;
# - a box that passes its argument on (`_PASS_THROUGH`) is that argument, a group;
# - vertical material between rows (`\\noalign{...}`) is dropped where it sets only space or a
#   rule (`\\noalign{\\smallskip}`, `_VERTICAL_ONLY`), else it is text between rows, as
#   `\\intertext` sets it (`\\noalign{\\hbox{or}}`);
# - plain TeX's row macros stack rows as the environments do (`_PLAIN_ROWS`: `\\displaylines{7
#   \\cr 8}` is `\\begin{gathered} 7 \\\\ 8 \\end{gathered}`, `\\pmatrix{..}` a `pmatrix`; `\\halign`'s
#   template row is no row), and `\\cr`/`\\crcr` is a row break (`\\\\`) wherever it stands.
_PLAIN_ROWS = {"displaylines": "gathered", "eqalign": "aligned", "eqalignno": "aligned",
               "leqalignno": "aligned", "matrix": "matrix", "pmatrix": "pmatrix", "cases": "cases",
               "bordermatrix": "matrix", "halign": "matrix", "valign": "matrix"}
_MARKUP = re.compile(r"\\(?:\\|([hv]?phantom|tag(?:\s{0,3}\*)?|noalign|label)(?![a-zA-Z])"
                     r"|(?:nonumber|notag)(?![a-zA-Z])|(l?eqno)(?![a-zA-Z])"
                     r"|(displaylines|eqalignno|leqalignno|eqalign|matrix|pmatrix|cases|bordermatrix|"
                     r"[hv]align)(?![a-zA-Z])(?:\s{0,3}(?:to|spread)\s{0,3}" + _DIMENSION + r")?\s{0,3}\{"
                     r"|(crcr|cr)(?![a-zA-Z])|(?P<through>" + _PASS_THROUGH + r"))")
_VERTICAL_ONLY = re.compile(r"(?:\s|\{\s{0,3}\}|\\(?:smallskip|medskip|bigskip|vfil{1,3}|vss|relax|par|"
                            r"allowbreak|nobreak|goodbreak|hrule(?:\s{0,3}(?:height|depth|width)\s{0,3}"
                            + _DIMENSION + r"){0,3}|(?:vskip|kern)\s{0,3}" + _GLUE + r"|vspace\*?\s{0,3}\{\s{0,3}"
                            + _GLUE + r"\s{0,3}\}|penalty\s{0,3}-?\d{1,6})(?![a-zA-Z])){0,20}")
# An equation's number, as a tag or `\\eqno` sets it in the margin (an allow-list of shapes: digits
# with points, one letter with digits, a roman numeral under 40 in one case (`ii`, `IV`, `xxxix`:
# no word; `mix`, `did`, `dix` are none), stars, `\\ast`, daggers, primes, in brackets or `$`): no part
# of the value, dropped. A tag of any other text (`\\tag{or 8}`, `\\tag{not}`) is text TeX sets
# beside the value, read as written in brackets (`7 (or 8)`).
_EQUATION_NUMBER = re.compile(
    r"\s{0,3}\(?\s{0,3}\$?\s{0,3}(?:\d{1,4}(?:\.\d{1,4}){0,3}[a-z]?|[A-Za-z](?:\.?\d{1,4}){0,3}|\*{1,3}|"
    r"(?=[ivx]{2})x{0,3}(?:ix|iv|v?i{0,3})(?:\.?\d{1,4}){0,3}|(?=[IVX]{2})X{0,3}(?:IX|IV|V?I{0,3})(?:\.?\d{1,4}){0,3}|"
    r"\\(?:ast|star|dagger|ddagger|S)(?![a-zA-Z])\s{0,3}\d{0,4})?(?:\s{0,3}(?:'|\\prime(?![a-zA-Z])|\^\s{0,3}"
    r"\{?\s{0,3}\\prime\s{0,3}\}?)){0,3}\s{0,3}\$?\s{0,3}\)?\s{0,3}")
# A template row (`#\\hfil&\\hfil#\\cr`): the first row of `\\halign`, no row of values.
_TEMPLATE_ROW = re.compile(r"(?:(?!\\cr(?![a-zA-Z]))[^{}]){0,120}\\cr(?![a-zA-Z])")


def _group_ends(text: str) -> dict[int, int]:
    """Where each brace group of `text` that is closed ends: its `{`'s index to its `}`'s + 1
    (a printed brace, `\\{`, `\\}`, is none, nor is one in a TeX comment: `%` to the end of its
    line, which TeX never reads, where a line follows). One pass."""
    ends: dict[int, int] = {}
    opened: list[int] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char == "%":
            line_end = text.find("\n", at)
            if line_end >= 0:  # (a `%` on the last line is a percent sign as models write it)
                at = line_end
                continue
        if char == "{":
            opened.append(at)
        elif char == "}" and opened:
            ends[opened.pop()] = at + 1
        at += 1
    return ends


def _argument_end(text: str, at: int, ends: dict[int, int]) -> int | None:
    """Where the argument of a command that ends at `at` ends: a brace group at any depth
    (`ends`: `_group_ends`), a command or one character; None where a group is never closed."""
    while at < len(text) and text[at] in " \t\n":
        at += 1
    if at >= len(text):
        return None
    if text[at] != "{":
        command = _COMMAND_AT.match(text, at)
        return command.end() if command is not None else at + 1
    return ends.get(at)


def _formula_end(text: str, at: int, ends: dict[int, int]) -> int:
    """Where the formula that `\\eqno` at `at` numbers ends: at its row's or group's end (a row
    break, a cell's `&`, a `}` that closes an outer group) or the text's; read at most 200
    characters (a longer rest is no equation number, and left as text)."""
    stop = min(len(text), at + 200)
    while at < stop:
        if text[at] == "{":
            if at not in ends:
                return at
            at = ends[at]
            continue
        if text[at] in "}&" or text.startswith("\\\\", at) or text.startswith("\\cr", at):
            return at
        at += 2 if text[at] == "\\" else 1
    return min(at, len(text))


def _markup_read(s: str) -> str:
    """`s` with the markup of `_MARKUP` read: what renders nothing dropped (a phantom, a label,
    an equation's number: `_EQUATION_NUMBER`; a tag of other text is that text in brackets,
    `\\noalign` space), the boxes that pass their argument on as a group (`_PASS_THROUGH`),
    plain TeX's row macros as their environments, `\\cr` as `\\\\`. One pass; a group that is
    never closed is left as written."""
    if "\\" not in s or _MARKUP.search(s) is None:
        return s
    ends = _group_ends(s)
    glyphs = [0, *itertools.accumulate(char not in "{} \t\n" for char in s)] if len(s) > 400 else None
    out: list[str] = []
    closing: list[str] = []  # what each group open at this point closes with
    tags: list[int] = []  # the depths of `closing` at which a tag's text is open (text mode: no `$`)
    at = 0
    while at < len(s):
        char = s[at]
        found = _MARKUP.match(s, at) if char == "\\" else None
        if found is None:
            escaped = char == "\\" and at + 1 < len(s)
            if char == "{":
                closing.append("}")
            elif char == "}" and closing:
                char = closing.pop()
                if tags and tags[-1] == len(closing):
                    tags.pop()
            elif char == "$" and tags:
                char = " "
            out.append(s[at : at + 2] if escaped else char)
            at += 2 if escaped else 1
            continue
        dropped, numbered, macro, row = found.group(1), found.group(2), found.group(3), found.group(4)
        if found.group(0) == "\\\\":
            out.append("\\\\")
        elif row is not None:  # (`\\crcr` after a row break is none)
            last = "".join(out[-8:]).rstrip()
            out.append(" " if row == "crcr" and last.endswith("\\\\") else " \\\\ ")
        elif found.group("through") is not None:
            if found.end() not in ends:
                out.append(found.group(0))
            else:
                out.append(" \\quad {" if _WIDE_BOX.search(found.group("width") or found.group("made") or "")
                           else " {")
                closing.append("} ")
                at = found.end() + 1
                continue
        elif macro is not None and found.end() - 1 not in ends:
            out.append(found.group(0))  # (its group never closed: left as written)
            closing.append("}")
        elif macro is not None:
            environment = _PLAIN_ROWS[macro]
            out.append(f" \\begin{{{environment}}} ")
            closing.append(f" \\end{{{environment}}} ")
            template = _TEMPLATE_ROW.match(s, found.end()) if macro in ("halign", "valign") else None
            if template is not None and _TEMPLATE_SETS.fullmatch(template.group(0)) is None:
                out.append("\\text{template}")  # (glyphs set around every entry: unread)
            at = template.end() if template is not None else found.end()
            continue
        elif numbered is not None:
            formula_end = _formula_end(s, found.end(), ends)
            if _EQUATION_NUMBER.fullmatch(_TEX_COMMENT.sub("", s[found.end():formula_end]).replace(
                    "{", "").replace("}", "")):
                out.append(" ")
                at = formula_end
                continue
            out.append(" ")  # (any other text: read beside the value, `7 (1) or 8`: the joins read it)
        elif dropped is not None:
            end = _argument_end(s, found.end(), ends)
            short = end is not None and (end - found.end() <= 400 or glyphs is not None and glyphs[end]
                                         - glyphs[found.end()] <= 60)  # (a number or a skip is short)
            argument = s[found.end():end].strip() if short else "{text}"  # (nested tags: one pass)
            inner = argument[1:-1] if argument.startswith("{") else argument
            if end is None:
                out.append(found.group(0))
            elif dropped.startswith("tag") and argument.startswith("{") and not _EQUATION_NUMBER.fullmatch(
                    _TEX_COMMENT.sub("", inner).replace("{", "").replace("}", "")):
                out.append(", ")  # (text set apart in the margin: a second item, read)
                tags.append(len(closing))
                closing.append(" ")
                at = s.index("{", found.end()) + 1
                continue
            elif dropped != "noalign" or _VERTICAL_ONLY.fullmatch(inner):
                out.append(" ")
                at = end
                continue
            else:
                out.append("\\intertext")
        else:
            out.append(" ")  # (`\\nonumber`, `\\notag`)
        at = found.end()
    return "".join(out)


# A TeX comment: `%` (unescaped) to the end of its line, which TeX never reads.
_TEX_COMMENT = re.compile(r"(?<!\\)%[^\n]*\n")
# A width given a box that is no zero (`\\hbox to 5em{}`, `\\makebox[5em]{}`): a wide space.
_WIDE_BOX = re.compile(r"[1-9]")
# A template that sets nothing but the entry and space around it (`#`, `\\hfil#\\hfil`, `\\quad#`).
_TEMPLATE_SETS = re.compile(r"(?:[\s#&]|\\(?:[hv]fil{1,3}|hss|quad|qquad|enspace|[,;:! ]|relax|strut|"
                            r"[hv]skip\s{0,3}" + _GLUE + r"|kern\s{0,3}" + _DIMENSION + r"|tabskip\s{0,3}=?\s{0,3}"
                            + _GLUE + r")(?![a-zA-Z])|\$|\\cr(?![a-zA-Z]))*")


# `\\lbrace` and `\\rbrace` are `\\{` and `\\}` (one glyph, one spelling: `\\lbrace 7 \\rbrace` is `\\{7\\}`).
_BRACE_WORD = re.compile(r"\\([lr])brace(?![a-zA-Z])")
# A function of numerals (`\\max(7)`, `\\min(7, 9)`, as `_OF_A_SET` writes `\\max\\{7\\}`) side by
# side with another value, no sign between (`\\max(7)\\max(8)`, `\\max(7)8`, `\\max(7)(8)`,
# `\\{7\\}\\max(8)`, `7\\max(8)`): a product, as TeX sets it, written with its `\\cdot` (math-verify
# reads two numerals side by side as a mixed number, a sum). Two sets of one numeral side by
# side (`\\{7\\}\\{8\\}`) are a list (`_LISTED`), no product.
_SIZED_OPEN = r"(?:\\(?:left|[bB]igg?l?)\s{0,3})?"
_SIZED_CLOSE = r"(?:\\(?:right|[bB]igg?r?)\s{0,3})?"
_OF_NUMERALS_SPELLED = (r"(?:\\|(?<![A-Za-z\\]))(?:max|min|gcd|lcm)\s{0,3}" + _SIZED_OPEN
                        + r"\([-+\d.,\s]{1,200}" + _SIZED_CLOSE + r"\)")
_SIDE_FACTOR = re.compile(r"((?<![A-Za-z^_\]\\])\{\s{0,3}" + _OF_NUMERALS_SPELLED + r"\s{0,3}\}|"
                          + _OF_NUMERALS_SPELLED + r")"
                          r"|(?:\\[bB]igg?l?\s{0,3})?\\\{\s{0,3}[-+]?\d{1,40}(?:\.\d{1,40})?\s{0,3}"
                          r"(?:\\[bB]igg?r?\s{0,3})?\\\}|\(\s{0,3}[-+]?\d{1,40}(?:\.\d{1,40})?\s{0,3}\)"
                          r"|(?<![A-Za-z^_\]\\])\{\s{0,3}[-+]?\d{1,40}(?:\.\d{1,40})?\s{0,3}\}"
                          r"|\d{1,40}(?:\.\d{1,40})?(?![\d.]|\s{0,3}[A-Za-z])")  # (not `1em` of a skip)


def _side_by_side(s: str) -> str:
    """`s` with a `\\cdot` between a function of numerals and a value beside it (`_SIDE_FACTOR`),
    with only what sets no sign between (`_NO_SIGN`: space, an empty group, what renders
    nothing); a function in a group of its own is one factor (`{\\max(7)}{\\max(8)}`). A space
    wider than math's own between them (`_WIDE_GAP`: `\\quad`, `~`, `\\hfill`, `\\kern5em`, a
    line break) sets them apart, as `7\\quad 1` is: a list, written with its comma. A brace
    group that is a command's argument (`\\frac {7}{\\max(8)}`) is no factor of its own."""
    if "(" not in s or len(s) > 2000:
        return s
    factors = [found for found in itertools.islice(_SIDE_FACTOR.finditer(s), 200)
               if not (s[found.start()] == "{" and _ARGUMENT_BEFORE.search(s, 0, found.start()))]
    out, last = [], 0
    for before, after in itertools.pairwise(factors):
        if (before.group(1) or after.group(1)) and _NO_SIGN.fullmatch(s, before.end(), after.start()):
            gap = s[before.end():after.start()]
            out += [s[last:before.end()], ", " if _WIDE in gap or _WIDE_GAP.search(gap) else " \\cdot "]
            last = after.start()
    return "".join(out) + s[last:] if out else s


# A space wider than math's own (`_side_by_side`): quads, fills, a skip or kern of a width that
# is no zero, a line break.
_WIDE_GAP = re.compile(r"\\(?:(?:q?quad|enspace|[hv]fil{1,3}|hss|linebreak|newline)(?![a-zA-Z])|(?:[hv]space\*?"
                       r"\s{0,3}\{|kern|mkern|hskip|mskip)[^1-9{}]{0,3}[1-9])|~")
# A command's argument right before a brace (`\\frac {7}`, `\\frac {7} {8}`): the brace opens an
# argument, no factor.
_ARGUMENT_BEFORE = re.compile(r"(?:\\[a-zA-Z]{1,40}|\})\s{1,3}\Z")


def _read_as_tex(s: str) -> str:
    """`s` with what TeX reads as one value written as the rules read it: `7{.}5` as 7.5,
    `\\lvert -7 \\rvert` as `|-7|`, a colour or an underline as what it styles, space markup at
    an edge dropped (`7\\phantom{0}`, `\\hspace{1em}7`), `\\max\\{7, 6\\}` as `\\max(7, 6)` (also
    `\\operatorname{max}\\left\\{7, 6\\right\\}`, `\\max\\lbrace 7, 6\\rbrace`),
    unbraced one-token arguments braced (`\\binom 72`: `\\binom{7}{2}`), infix `\\over` and
    `\\above <dimen>` as `\\frac` of their group's two sides (`_infix_fractions`), a trailing
    modulus on a whole number as the number (`7 \\pmod 8`: 7), and a chain aligned in rows
    (`\\begin{aligned} x &= 10 - 3 \\\\ &= 7 \\end{aligned}`) or an environment of one row as its
    one row (`_one_row`). Each is one value; what TeX does not read as one value is left."""
    s = _BRACE_WORD.sub(lambda found: "\\{" if found.group(1) == "l" else "\\}", _markup_read(s))
    s = _BRACED_POINT.sub(".", s)
    s = _PAIRED_BAR.sub(lambda found: _PAIRED_BARS[found.group(1)], s)
    s = _STYLED.sub("", _STYLE_SWITCH.sub(" ", s))
    s = _EDGE_SPACE.sub("", s)
    s = _side_by_side(_OF_A_SET.sub(_of_a_set, s))
    s = _UNBRACED_TWO.sub(lambda found: f"\\{found.group(1)}{{{_either(found.group(2), found.group(3))}}}"
                          f"{{{_either(found.group(4), found.group(5))}}}", s)
    s = _infix_fractions(s)
    modulus = _TRAILING_MODULUS.fullmatch(s)
    if modulus is not None and 0 <= int(modulus.group(1)) < int(modulus.group(2) or modulus.group(3)
                                                                or modulus.group(4)):
        s = modulus.group(1).strip()  # (a residue: `10 \\pmod{3}` is no residue's own name, left)
    rows = _ROWS.sub(_one_row, s) if "\\begin" in s else s
    s = rows.strip() if rows != s else s  # (a row read ends the answer: `x = 7 \\text{ apples}`)
    return _restated_once(_in_words_too(s))


# The same name given the same value twice in a row (`x = 7, \\; x = 7`, `x = 10 - 3 \\\\ x =
# 7`): one value restated, its last statement (`x = 7`). Values that differ are left (a list,
# a hedge: `hedges`). A point ends the later value only where no digit follows it (`x = 7. 8`
# sets `7.8` in math: the value is `7. 8`, not 7).
_GAP = r"(?:\s|\\[,;:! ]|\\q?quad(?![a-zA-Z])|~){0,8}"
_NAMED_VALUE = r"(?<![A-Za-z\\])(\\?[A-Za-z]{1,20}(?:_\{?\w{1,3}\}?)?)\s{0,3}=\s{0,3}((?=[^\s=])[^=]{1,80}?)"
_RESTATED = re.compile(_NAMED_VALUE + _GAP + r"(?:[,;]|\\\\)?" + _GAP + r"(?=\1\s{0,3}=\s{0,3}"
                       r"((?=[^\s=])[^=,;\\]{1,80}?)\s{0,3}(?:[,;]|\.(?!\s*[-+]?\.?\d)|\\\\|\Z))")
# A numeral with its value in words beside it in brackets (`7 \\text{ (seven)}`, `7 (seven)`):
# the numeral, where the words read as its value (`_read_number`); else left (uncertain).
_IN_WORDS_TOO = re.compile(r"\A(\s*[-+]?\d+(?:\.\d+)?)\s{0,3}(?:\\(?:text|textrm|mathrm|mbox)\s{0,3}\{)?"
                           r"\s{0,3}\(\s{0,3}(?:\\(?:text|textrm|mathrm|mbox)\s{0,3}\{)?([A-Za-z -]{1,60}?)"
                           r"\}?\s{0,3}\)\s{0,3}\}?\s*\Z")


def _restated_once(s: str) -> str:
    """`s` with a name's value stated again right after it (`_RESTATED`) stated once, the
    later statement kept; where the two values are one value (`_side_value`, no word)."""
    for _ in range(5):
        found = _RESTATED.search(s) if "=" in s and len(s) <= 2000 else None
        if found is None or _PLAIN_WORD.search(found.group(2) + found.group(3)) is not None:
            return s
        first, second = _side_value(found.group(2)), _side_value(found.group(3))
        if first is None or second is None or not math.isclose(
                _as_float(first), _as_float(second), rel_tol=1e-12):
            return s
        s = s[:found.start()] + s[found.end():]
    return s


def _in_words_too(s: str) -> str:
    """`s` without the words in brackets after its numeral where they write its value."""
    found = _IN_WORDS_TOO.fullmatch(s) if "(" in s else None
    if found is None:
        return s
    numeral, words = _read_number(found.group(1)), _read_number(numbers_in_words(found.group(2).strip()))
    return found.group(1).strip() if numeral is not None and words is not None and (
        numeral.value == words.value) else s


def _unwrapped(s: str) -> str:
    """`s` with its text and font commands replaced by the text they hold (`_TEXT_CMD`), kept
    apart from a command word right before (`\\allowbreak\\text{r}`: `\\allowbreak r`, not the
    command `\\allowbreakr`)."""
    return _TEXT_CMD.sub(lambda found: (" " if found.group(1)[:1].isalpha() and _ENDS_IN_COMMAND.search(
        s[max(found.start() - 40, 0):found.start()]) else "") + found.group(1), s)


_ENDS_IN_COMMAND = re.compile(r"\\[a-zA-Z]+\Z")


def _of_a_set(found: re.Match[str]) -> str:
    """A function of a set (`_OF_A_SET`) as the function of its elements: `\\max(7, 6)`."""
    name = found.group(2) or "\\" + found.group(1)
    return f"{name}({found.group(3)})"


def _either(braced: str | None, token: str | None) -> str:
    """A command's argument, braced (`{7}`, `{}`) or one token (`7`)."""
    return braced if braced is not None else token or ""


def _one_row(found: re.Match[str]) -> str:
    """An environment's rows as one row where they are one (`_ROWS`): a chain continued by
    `&=` in each row after the first, after any row break (`_ROW_BREAK`: `\\\\[2pt]`, `\\\\*`), or a
    single row; an empty last row (`x &= 7 \\\\ `) sets nothing, and in `array` a `&` beside a
    relation aligns (`_ALIGNING`), any other splits cells; else the environment as written."""
    body, continued = _CONTINUED.subn(" ", _LAST_ROW_EMPTY.sub("", found.group(2)))
    if "\\\\" in body or found.group(1) == "array" and "&" in _ALIGNING.sub("", body):
        return found.group(0)
    label = _CHAIN_LABEL.match(body) if continued else None
    words = label.group(1).split() if label is not None else []
    numeral = _read_number(numbers_in_words(label.group(1))) if label is not None else None
    if label is not None and numeral is not None:  # (`\\text{seven} &= 10 - 3`: `7 = 10 - 3`)
        body = f"{numeral.value} = {body[label.end():]}"
    elif label is not None and _names_a_chain(words):
        body = body[label.end():]  # (`\\text{Left} &= 10 - 3 \\\\ &= 7`: `10 - 3 = 7`)
    return f" {body.replace('&', ' ').strip()} "


# Words set as text that open a chain aligned in rows (`\\text{Left} &= 10 - 3 \\\\ &= 7`): the
# name of what the chain works out, as `x` is one; dropped with its sign, the chain read from its
# first value, only where they name it (`_names_a_chain`, an allow-list: `\\text{Maybe}` names
# nothing); a number word is its numeral.
_CHAIN_LABEL = re.compile(r"\s{0,3}\\(?:text|textrm|textbf|textit|textsf|mathrm|mathbf|mbox)\s{0,3}\{"
                          r"\s{0,3}([A-Za-z]{1,20}(?:\s{1,3}[A-Za-z]{1,20}){0,3})\s{0,3}\}\s{0,3}&\s{0,3}=")


def _names_a_chain(words: list[str]) -> bool:
    """Whether a chain's label names what it works out (an allow-list, failing closed): a name
    of a side or a result (`_LABEL_NAMES`: `Left`, `Total`, `Answer`, `Remaining`), alone or with
    the counted nouns it names (`Apples left`: a plural that `changes_value` does not know);
    any other word (`Maybe`, `Wrong`, `Lower bound`) keeps the chain as written, unread."""
    named = [word.lower() in _LABEL_NAMES for word in words]
    return any(named) and all(is_name or (_COUNTED_PLURAL.fullmatch(word) is not None and not changes_value(word)
                                          and word.lower() not in APPROXIMATIONS)
                              for word, is_name in zip(words, named, strict=True))


_LABEL_NAMES = frozenset("""
    left right lhs rhs side total answer result remaining remainder sum difference product quotient
    value final number amount count cost price area perimeter volume length width height distance
    time speed profit change balance solution expression of the in
""".split())  # noqa: SIM905 (a word list reads better as words)
_COUNTED_PLURAL = re.compile(r"(?<![A-Za-z])[A-Za-z]{4,30}(?<=[sS])(?<![sS][sS])(?![A-Za-z])")


def _infix_fractions(s: str) -> str:
    """`s` with each group (a brace group, or the whole answer) that holds one infix `\\over`
    or `\\above <dimen>` at its own level, and no other infix command, read as TeX reads it:
    `\\frac` of what the group holds before and after it (`{14 \\over 2}`: `{\\frac{14}{2}}`,
    `7 \\above 1pt 8`: `\\frac{7}{8}`). `\\above` of a zero dimension draws no rule: `\\atop`,
    two values stacked. The `...withdelims` forms set the same between their two delimiters
    (`7 \\overwithdelims() 8`: `(\\frac{7}{8})`; `7 \\atopwithdelims() 8`: `(7 \\atop 8)`, two values
    stacked). Two infix commands in one group are an error to TeX, and a side that joins two
    values (`_joining_sign`: `7 \\text{ or } 8 \\over 9`, `{7 \\atop 8} \\over 9`) is no one value:
    left as written."""
    if len(s) > 2000 or _INFIX_FRACTION.search(s) is None:
        return s
    for _ in range(20):  # (innermost groups first; each pass reads one)
        read = _one_infix_fraction(s)
        if read == s:
            return s
        s = read
    return s


def _one_infix_fraction(s: str) -> str:
    """`s` with its first group that holds one infix fraction read (`_infix_fractions`)."""
    starts: list[int] = []
    groups: list[tuple[int, int]] = []
    for at, char in enumerate(s):
        if char in "{}" and s[at - 1 : at] == "\\":
            continue
        if char == "{":
            starts.append(at + 1)
        elif char == "}" and starts:
            groups.append((starts.pop(), at))
    groups.append((0, len(s)))
    for infix in _INFIX_FRACTION.finditer(s):  # (each in its innermost group, the level it is on)
        start, end = min((group for group in groups if group[0] <= infix.start() < group[1]),
                         key=lambda group: group[1] - group[0])
        inner = s[start:end]
        level = _own_level(inner)
        infixes = [found for found in _INFIX_ANY.finditer(level)]
        if len(infixes) != 1 or _INFIX_FRACTION.match(level, infixes[0].start()) is None:
            continue
        found = _INFIX_FRACTION.match(inner, infixes[0].start())
        assert found is not None
        above = found.group(1) or found.group(7)
        opening, closing = (_delimiter_set(found.group(3) or found.group(5)),
                            _delimiter_set(found.group(4) or found.group(6)))
        if found.group(2) == "atop" or above is not None and not re.search(
                r"[1-9]", _UNIT_OF_DIMENSION.sub("", above)):
            return (s[:start] + opening + inner[:found.start()] + " \\atop " + inner[found.end():]
                    + closing + s[end:])
        before, after = inner[:found.start()].strip(), inner[found.end():].strip()
        if not before or not after or any(part.count("(") != part.count(")") or _joining_sign(part)
                                          for part in (before, after)):
            continue  # (a side that joins two values, `7 \\text{ or } 8 \\over 9`: no one value)
        return s[:start] + f"{opening}\\frac{{{before}}}{{{after}}}{closing}" + s[end:]
    return s


def _delimiter_set(delimiter: str | None) -> str:
    """A `...withdelims` delimiter as written around the value (`.`, or none: nothing)."""
    delimiter = (delimiter or "").strip()
    return "" if delimiter in ("", ".") else f" {delimiter} " if delimiter.startswith("\\") else delimiter


def _own_level(text: str) -> str:
    """`text` with what its brace groups hold blanked (same length): its own level."""
    out = list(text)
    depth = 0
    for at, char in enumerate(text):
        escaped = text[at - 1 : at] == "\\"
        if char == "}" and not escaped:
            depth -= 1
        if depth > 0:
            out[at] = " "
        if char == "{" and not escaped:
            depth += 1
    return "".join(out)


def normalize(answer: str, carried: frozenset[str] = frozenset()) -> str:
    """Canonical string form: spacing macros, `\\left`/`\\right`, `$`, degrees, dollar signs,
    `\\dfrac`/`\\tfrac`, a trailing unit (`_is_unit`: known units, currencies and counted
    nouns, and the words in `carried`, those the gold carries: `carried_words`) and trailing
    punctuation removed; read first as every checker reads text (`read_text`: `la\u200bkh` is
    `lakh`, a word that changes the value)."""
    s = _without_delimiters(read_text(answer))
    if s.startswith("\\(") and s.endswith("\\)") or s.startswith("\\[") and s.endswith("\\]"):
        s = s[2:-2].strip()
    s = _THIN_THOUSANDS.sub(",", s)
    s = _read_separators(s)
    s = _superscript_powers(s)
    s = _BASE_ANY.sub(_read_base_subscript, s)  # `101_{(2)}`, `101_{two}`: `101_{2}`
    s = _BASE_TEN.sub(r"\1", s)  # `10_{10}` is ten
    if s.startswith("~"):  # `~10` opens with no left side: about ten, not a tie
        s = "\\sim " + s[1:]
    wide = _WIDE if _FUNCTION_OF_NUMERALS.search(s) else " "  # (kept apart: `_side_by_side`)
    s = _SPACING.sub(lambda m: m.group(0) if m.group(0) == "\\\\" else wide if _WIDE_SPACING.fullmatch(
        m.group(0)) else " ", s)
    s = _FRAC_ALIASES.sub(r"\\\1", s)
    s = _read_as_tex(s).replace(_WIDE, " ")  # `{14 \\over 2}`, `\\binom 72`, `7{.}5`, `\\lvert -7 \\rvert`, ...
    s = _choose_as_binomial(_BMOD.sub(r"\\mod", s))
    s = _TEXT_ALIASES.sub(r"\\text", s)
    s = _SCALE_SIGNS.sub(lambda m: unicodedata.normalize("NFKC", m.group(0)), s)
    s = _DEGREE_SCALE.sub(r" \\text{\1}", s)  # `-5^\\circ C` is -5 degrees Celsius
    s = _without_degrees(s)
    s = _marks_read(s)  # `5′8″`, `5^{\prime} 8^{\prime\prime}`, `5 ft 8 in`: `5'8"`
    s = _money_read(s, carried)  # `\textdollar 12`: `\$12`; `\$5 and 50 cents`: `\$5.50`
    s = _currency_signs(s, carried)
    s = s.replace("\\%", "%").replace("{,}", ",")
    s = _currency_code_before(s, carried)
    s = _percent_word(s)
    s = _plain_size(s, carried)  # `5 short tons` against `5 tons`: the gold's ton
    s = _in_gold_unit(s, carried)
    if _other_whole_unit(s, carried):  # `5 kg` against `5 kg m`: another unit, kept
        return _unwrapped(re.sub(r"\s+", " ", s)).strip().rstrip(_PUNCT)
    s = _in_whole_unit(s, carried)  # `5 m/s/s` against `5 m/s^2`: the gold's unit
    for _ in range(3):  # `15,000 \\text{kcal m}^{-2} \\text{ yr}^{-1}`: a unit in parts
        stripped = _strip_trailing_unit(s, carried)
        if stripped == s:
            break
        s = stripped
    s = _strip_compound_unit(s, carried)
    s = _unwrapped(s)
    s = re.sub(r"\s+", " ", s).strip().rstrip(_PUNCT)  # rstrip: keep the point of .5
    if any(word.startswith("~") for word in carried):  # the gold says it is rounded
        s = _without_approximation(s, carried)
    counted = _MAGNITUDE_THEN_WORDS.match(s) if len(s) < 100 else None
    if counted and _is_unit(counted.group(2), carried):  # `5 dozen apples`: 5 dozen
        s = counted.group(1)
    magnitude = _MAGNITUDE.match(s)
    if magnitude and not _counted_in(magnitude.group(2), carried):  # `5 thousand` is 5000
        value = Decimal(magnitude.group(1))
        for word in magnitude.group(2).lower().split():  # `3 hundred thousand` is 300000
            value *= _MAGNITUDES[word.removesuffix("s")]
        return format(value.normalize(), "f")
    s = _strip_plain_unit(s, carried)
    scientific = _SCIENTIFIC.match(s)
    if scientific:
        mantissa, sign, exponent = scientific.groups()
        s = f"{mantissa} \\times 10^{{{sign if sign == '-' else ''}{int(exponent)}}}"
    return _BARE_FUNCTION.sub(r"\\\1", s)


# Units of one kind in different sizes, by their size in the kind's first unit (exact): a
# value in one is the gold's value in another (`5000 g` is `5 kg`, `120 minutes` `2 hours`).
# Metric units and time only (a ton, a month, a year, a pound have more than one size).
_SCALES = (
    {"g": Fraction(1), "mg": Fraction(1, 1000), "ug": Fraction(1, 10**6), "kg": Fraction(1000)},
    {"m": Fraction(1), "km": Fraction(1000), "dm": Fraction(1, 10), "cm": Fraction(1, 100),
     "mm": Fraction(1, 1000), "um": Fraction(1, 10**6), "nm": Fraction(1, 10**9)},
    {"s": Fraction(1), "ms": Fraction(1, 1000), "us": Fraction(1, 10**6),
     "ns": Fraction(1, 10**9), "ps": Fraction(1, 10**12), "min": Fraction(60),
     "h": Fraction(3600), "d": Fraction(86400), "wk": Fraction(604800)},
    {"L": Fraction(1), "mL": Fraction(1, 1000), "cL": Fraction(1, 100), "dL": Fraction(1, 10)},
)
# A value and one unit word after it, plain or in text (`5000\\text{ g}`, `120 minutes`).
_QUANTITY = re.compile(r"^([-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+))\s*(?:\\(?:text|mathrm|mbox)\s*"
                       r"\{\s*([A-Za-z]+)\s*\}|([A-Za-z]+))$")


def _in_gold_unit(s: str, carried: frozenset[str]) -> str:
    """`s`, a value and a unit of `_SCALES` the gold does not state, as the value in the
    one unit the gold states, where that is of the same kind and to its first power (`5000 g`
    against `5 kg`: 5); anything else as it is (`5000 g` against `5 lb`, `5 cm^2`, `5 kg/h`,
    or `5 kg` and `5 g`)."""
    found = _QUANTITY.match(s) if len(s) < 60 else None
    if found is None or not any(word.startswith("=") for word in carried):
        return s
    unit = _unit_id(found.group(2) or found.group(3))
    number = parse_number(found.group(1))
    if unit is None or f"={unit}" in carried or number is None or number.percent:
        return s
    stated = [word[1:] for word in carried if word.startswith("=") and "^" not in word]
    for scales in _SCALES:
        if unit in scales and len(stated) == 1 and stated[0] in scales and not any(
                word.startswith(f"={stated[0]}^") and word != f"={stated[0]}^1" for word in carried):
            value = number.value * scales[unit] / scales[stated[0]]
            return str(value) if value.denominator == 1 else \
                f"{'-' if value < 0 else ''}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"
    return s


def _counted_in(words: str, carried: frozenset[str]) -> bool:
    """True when the question counts in each magnitude word of `words` (`_question_units`:
    `How many dozen eggs?`) and the gold states no unit: there `5 dozen` is 5 of the unit
    asked, read by `_is_unit`, not 60."""
    asked = _asked_units(carried)
    return asked is not None and all(word.removesuffix("s") in asked for word in words.lower().split())


# Marks of feet and inches (minutes and seconds of arc) in other spellings, as `'` and `"`:
# the primes of Unicode and of `\\prime`, and a height in feet and inches (`5 ft 8 in`).
# A triple prime is left as written (`7 ‴ 8` is no value `7` with three marks and `8`).
_PRIMES = {1: "'", 2: '"'}
_PRIME_SIGNS = {"\u2032": _PRIMES[1], "\u2033": _PRIMES[2]}
_PRIME_COMMANDS = re.compile(r"(?:\^\s*)?(\{\s*)?((?:\\prime\s*){1,2})(?!\\prime)(?(1)\})")
_FEET_INCHES = re.compile(r"(?<![\d\s])\s*(\d+)\s*(?:ft|feet|foot)\.?\s*(?:,\s*|and\s+)?(\d+(?:\.\d+)?)\s*"
                          r"(?:in|inch|inches)\.?\s*", re.IGNORECASE)


_CURLY_MARKS = {"\u2019": _PRIMES[1], "\u201d": _PRIMES[2]}
def _corner_bracket(ch: str, side: str) -> bool:
    """Whether `ch` is a corner bracket of `side` (`「`, `『`, `﹁`, `｢`: CJK's quotation marks)."""
    name = unicodedata.name(ch, "")
    return "CORNER BRACKET" in name and f"{side} " in f"{name} "


_QUOTE_OPENERS = "".join(ch for ch in map(chr, range(0x10000)) if unicodedata.category(ch) == "Pi"
                         or unicodedata.category(ch) == "Ps" and "QUOTATION" in unicodedata.name(ch, "")
                         or _corner_bracket(ch, "LEFT"))
_QUOTE_CLOSERS = "".join(ch for ch in map(chr, range(0x10000)) if unicodedata.category(ch) in ("Pi", "Pf")
                         or unicodedata.category(ch) == "Pe" and "QUOTATION" in unicodedata.name(ch, "")
                         or _corner_bracket(ch, "RIGHT"))
# (any blank inside the marks, Unicode's or TeX's: `« 7 »`, `«\\,7\\,»`, `«~7~»`, `«\\thinspace 7»`)
_QUOTE_SPACE = r"(?:\s|~|\\[,;:! ]|\\(?:thinspace|enspace|enskip|q?quad)(?![a-zA-Z]))*+"
_QUOTED_NUMERAL = (_QUOTE_SPACE + r"((?:[\d.,/]+|\\[dt]?frac\s*(?:\d|\{\s*\d+\s*\})\s*(?:\d|\{\s*\d+\s*\})))"
                   + _QUOTE_SPACE)
_FINAL_QUOTES = "".join(ch for ch in _QUOTE_CLOSERS if unicodedata.category(ch) == "Pf")
_INITIAL_QUOTES = "".join(ch for ch in _QUOTE_OPENERS if unicodedata.category(ch) == "Pi")
# Quotation marks written the same on both sides (Swedish and Finnish `”7”`, `’7’`, `»7»`):
# Unicode's final quotation marks (category Pf, named QUOTATION MARK), never after a digit
# (`5’7’` is no quote).
_SAME_QUOTES = "".join(ch for ch in _FINAL_QUOTES if "QUOTATION MARK" in unicodedata.name(ch, ""))
_SAME_QUOTE_PAIR = "|".join(rf"(?<!\d){re.escape(ch)}{_QUOTED_NUMERAL}{re.escape(ch)}" for ch in _SAME_QUOTES)
_CURLY_MARK = re.compile(rf"[{re.escape(_QUOTE_OPENERS)}]{_QUOTED_NUMERAL}[{re.escape(_QUOTE_CLOSERS)}]"
                         rf"|[{re.escape(_FINAL_QUOTES)}]{_QUOTED_NUMERAL}[{re.escape(_INITIAL_QUOTES)}]"
                         rf"|{_SAME_QUOTE_PAIR}"
                         rf"|``{_QUOTED_NUMERAL}''|(?<!`)`{_QUOTED_NUMERAL}'"
                         r"|(?<=\d)[\u2019\u201d](?![\u2018\u2019\u201c\u201d'\"\u2032\u2033])")
"""The typographic closing quotes a word processor writes for feet and inches (`5’8”`), read as
marks right after a numeral's digit, one alone (a run, `7’’’`, is no mark); a numeral (digits,
`1/2`, `\\frac12`) between an opening quote of any kind and a closing one is quoted, as `"7"` is,
not a length: Unicode's initial quotes (category Pi: `“`, `‘`, `«`, `‹`) and opening quotation
marks (`„`, `‚`, `〝`) or corner brackets (`「`, `『`) open, its initial and final quotes (Pi,
Pf: `„7“` closes with `“`), closing quotation marks (`〞`) and corner brackets close, and
TeX's ``` ``7'' ``` and `` `7' `` are quotes too. A final quote opens only before an initial
one (`»7«`) or the same final quotation mark (`”7”`, `»7»`, `_SAME_QUOTES`, not after a digit):
`5’8”` is 5 feet 8 inches. Blanks inside are any of Unicode's or TeX's (`_QUOTE_SPACE`:
`«\\,7\\,»`)."""


def _curly_read(match: re.Match[str]) -> str:
    """A `_CURLY_MARK`: a quoted numeral in straight double quotes, a mark as the prime."""
    quoted = next((group for group in match.groups() if group is not None), None)
    return f'"{quoted}"' if quoted is not None else _CURLY_MARKS[match[0]]


def _marks_read(s: str) -> str:
    """`s` with feet and inches (or minutes and seconds) written as `'` and `"`
    (`_PRIME_SIGNS`, `\\prime`, a typographic quote after a digit, `_CURLY_MARK`; a whole answer
    `5 ft 8 in` as `5'8"`)."""
    if "prime" in s:
        s = _PRIME_COMMANDS.sub(lambda m: _PRIMES[m.group(2).count("prime")], s)
    if not s.isascii():
        s = "".join(_PRIME_SIGNS.get(ch, ch) for ch in s)
    if not s.isascii() or "`" in s:
        s = _CURLY_MARK.sub(_curly_read, s)
    height = _FEET_INCHES.fullmatch(_TEXT_CMD.sub(r" \1 ", s)) if len(s) < 80 else None
    return s if height is None else f"{height.group(1)}'{height.group(2)}\""


# Money in other spellings: LaTeX's text commands for currency signs, and one amount in a
# currency and its hundredths (`\\$5 and 50 cents`, `5 dollars and 50 cents`, `5 dollars, 50
# cents`, `5 euros 50 cents`, `5 pounds 50 pence`, `5 pounds 50p`: `and` is optional), as the
# sign and a decimal, the sum asked after it kept (`... 50 cents total`: `_IN_TOTAL`).
_CURRENCY_COMMANDS = {"textdollar": "\\$", "textdollaroldstyle": "\\$", "texteuro": "\u20ac",
                      "euro": "\u20ac", "EUR": "\u20ac", "textsterling": "\u00a3",
                      "pounds": "\u00a3", "Pound": "\u00a3", "textyen": "\u00a5", "yen": "\u00a5",
                      "Yen": "\u00a5", "textcent": "\u00a2", "textcentoldstyle": "\u00a2",
                      "cent": "\u00a2",
                      "textwon": "\u20a9", "textlira": "\u20a4", "textpeso": "\u20b1",
                      "textnaira": "\u20a6", "textbaht": "\u0e3f", "textdong": "\u20ab",
                      "textguarani": "\u20b2", "textcolonmonetary": "\u20a1",
                      "mathdollar": "\\$", "officialeuro": "\u20ac", "mathsterling": "\u00a3",
                      "textrupee": "\u20b9", "textruble": "\u20bd", "textcurrency": "\u00a4"}
"""LaTeX's commands for currency signs (textcomp, amssymb's `\\yen`, eurosym, marvosym,
wasysym), each as the sign it sets (a sign of Unicode's category Sc)."""
_CURRENCY_COMMAND = re.compile(r"\\(" + "|".join(_CURRENCY_COMMANDS) + r")(?![a-zA-Z])\s*(?:\{\s*\})?")
_WHOLE_CURRENCIES = {"dollar": "\\$", "euro": "\u20ac", "pound": "\u00a3", "quid": "\u00a3"}
"""The currencies counted in hundredths (cents, pence), by their word, and the sign of each."""
_CURRENCY_WORD = r"(dollar|euro|pound|quid)s?"
_DOLLARS_AND_CENTS = re.compile(
    r"(?<![\d\s])\s*(?:(\\\$|\u20ac|\u00a3)\s*(\d+)(?:\s*" + _CURRENCY_WORD + r")?|(\d+)\s*" + _CURRENCY_WORD
    + r")\s*(?:,\s*|\s)(?:and\s+)?(\d{1,2})\s*(cents?|pence|p|\u00a2)\s*"
    r"((?:in\s+total|in\s+all|total|altogether|combined)\.?)?\s*", re.IGNORECASE)


# A whole answer in a currency's hundredths alone (`55¢`, `550p`, `550 \\text{ pence}.`, `7 paise`,
# `7 sen`, `7 centimes`, `7 kopecks`, `7 centavos`), read stripped (linear time): one reading for every form,
# by its word or sign (`_SUB_UNITS`).
_SUB_UNIT_ALONE = re.compile(r"(\d{1,12})\s*+(\u00a2|p|pence|penny|pennies|cents?|paise|paisa|sen|centimes?|"
                             r"kopecks?|kopeks?|centavos?)\s*+\.?", re.IGNORECASE)
_SUB_UNITS: dict[str, tuple[frozenset[str], tuple[str, ...], str]] = {
    **dict.fromkeys(("\u00a2", "cent", "cents"), (frozenset({"cent"}), ("$", "EUR"), "cents")),
    **dict.fromkeys(("p", "pence"), (frozenset({"pence", "cent"}), ("GBP",), "pence")),
    **dict.fromkeys(("penny", "pennies"), (frozenset({"pence", "cent"}), ("$", "GBP"), "pennies")),
    **dict.fromkeys(("paise", "paisa"), (frozenset({"paise"}), ("INR",), "paise")),
    "sen": (frozenset({"sen"}), ("JPY",), "sen"),
    **dict.fromkeys(("centime", "centimes"), (frozenset({"centime"}), ("franc", "EUR"), "centimes")),
    **dict.fromkeys(("kopeck", "kopecks", "kopek", "kopeks"), (frozenset({"kopeck"}), ("RUB",), "kopecks")),
    **dict.fromkeys(("centavo", "centavos"), (frozenset({"centavo"}), ("peso",), "centavos")),
}
"""Each hundredth's word or sign (lower case): the ids a question asks it by (`How many pence`,
`How many cents`: `_question_units`), the currencies it is the hundredth of (an allow-list), and
its word (`550p` where pence are asked is `550 \\text{ pence}`)."""
_WHOLE_AMOUNT = {"$": "\\$", "EUR": "\u20ac", "GBP": "\u00a3", "INR": "\u20b9", "JPY": "\u00a5",
                 "franc": "\\text{ francs}", "RUB": "\\text{ rubles}", "peso": "\\text{ pesos}"}
"""How an amount in each currency of `_SUB_UNITS` is written: its sign before, or its word after."""
_PENCE = frozenset({"pence", "p"})
"""Sterling's hundredths, by their word or symbol (`50 pence`, `50p`); cents are the others'."""


def _sub_unit_read(s: str, carried: frozenset[str]) -> str:
    """A whole answer in a currency's hundredths alone (`_SUB_UNIT_ALONE`) as the currency where
    exactly one currency it is the hundredth of is asked or the gold's (`carried`) and the
    hundredths are not asked (`55¢` for `A pen costs \\$0.55`: `\\$0.55`; `550p` for `£5.50`:
    `£5.50`), as its word where the hundredths are asked or the gold's (`550p` for `How many
    pence`: `550 \\text{ pence}`); else `s` as written (a question that asks any money, or none)."""
    found = _SUB_UNIT_ALONE.fullmatch(_TEXT_CMD.sub(r" \1 ", s).strip()) if len(s) < 100 else None
    if found is None:
        return s
    ids, parents, word = _SUB_UNITS[found.group(2).lower()]
    asked = _asked_units(carried) or frozenset()
    named = asked | _gold_currencies(carried)
    if ids & named:
        return f"{int(found.group(1))} \\text{{ {word}}}"
    whole = [parent for parent in parents if parent in named]
    if len(whole) != 1:
        return s
    amount = f"{int(found.group(1)) // 100}.{int(found.group(1)) % 100:02d}"
    written = _WHOLE_AMOUNT[whole[0]]
    return f"{written}{amount}" if not written.startswith("\\text") else f"{amount}{written}"


def _money_read(s: str, carried: frozenset[str] = frozenset()) -> str:
    """`s` with a currency command as its sign (`_CURRENCY_COMMANDS`: `\\textdollar 12` is
    `\\$12`), a whole answer in a currency and its hundredths as that currency
    (`5 euros 50 cents`: `€5.50`), and one in hundredths alone as the currency where it is
    asked or the gold's (`_sub_unit_read`: `550p`: `£5.50`, `55¢`: `\\$0.55`; for `How many
    pence`, `550 \\text{ pence}`)."""
    if "\\" in s:
        s = _CURRENCY_COMMAND.sub(lambda m: _CURRENCY_COMMANDS[m.group(1)], s)
    both = _DOLLARS_AND_CENTS.fullmatch(_TEXT_CMD.sub(r" \1 ", s)) if len(s) < 100 else None
    if both is None:
        return _sub_unit_read(s, carried)
    sign, whole, word, number, other_word, cents, hundredth, total = both.groups()
    word = word or other_word
    if sign is None:
        sign = _WHOLE_CURRENCIES[word.lower()]
    elif word is not None and _WHOLE_CURRENCIES[word.lower()] != sign:
        return s  # `\\$5 euros 50 cents`: two currencies
    if (hundredth.lower() in _PENCE) != (sign == "\u00a3"):
        return s  # `\\$5 and 50 pence`, `5 pounds 50 cents`: two currencies
    amount = f"{sign}{whole or number}.{int(cents):02d}"
    return amount if total is None else f"{amount}\\text{{ {total}}}"


def _without_delimiters(s: str) -> str:
    """`s` without the math delimiters `$` around it; never the `$` of a currency sign `\\$`
    (`5\\text{ k}\\$` keeps it: `_currency_signs`)."""
    s = s.strip().lstrip("$")
    while s.endswith("$") and (len(s) - len(s[:-1].rstrip("\\")) - 1) % 2 == 0:
        s = s[:-1].rstrip()
    return s.strip()


# A currency sign: `\$`, or a sign of Unicode's category Sc (`€`, `£`, `₹`, `¥`, `¢`; not
# `$`, a math delimiter); after a word at the end (`5\text{ m}\$`, `5 k\$`: millions and
# thousands of dollars) it says the word is a magnitude, not a unit.
_CURRENCY_SIGN = re.compile(r"\\\$|[^\x00-\x7f]")
_SIGN_AFTER_WORD = re.compile(r"(?:(?<![A-Za-z])([A-Za-z]{1,20})\}?|[A-Za-z}.])\s{0,3}$")


# The dollar sign after the country's name (`US\\$`, `\\text{US\\$}`, `\\text{US }\\$`): the
# dollar, as `\\$` alone is.
_US_DOLLAR = re.compile(r"(?:\\(?:text|textrm|mathrm|mbox)\s*\{\s*US\s*(?:\\\$\s*\}|\}\s*\\\$)"
                        r"|(?<![A-Za-z\\])US\s?\\\$)")


def _currency_signs(s: str, carried: frozenset[str]) -> str:
    """`s` without the currency signs known not to change its value: a sign whose currency is
    the gold's (`carried`: `=$` of `\\$5`, `=EUR` of `5 euros`), or any where the gold names no
    currency (`€5` against 5). A sign of another currency (`\\$5` against `5 cents`, `€5`
    against `\\$5`), or one at the end after a word (`5\\text{ m}\\$`), is kept: `qualifiers`
    reads it, and the pair is uncertain."""
    if "\\$" not in s and s.isascii():
        return s
    s = _US_DOLLAR.sub(r"\\$", s) if "US" in s else s
    named = _gold_currencies(carried)

    def read(match: re.Match[str]) -> str:
        sign = match.group(0)
        if sign not in _SIGN_CURRENCIES and not _is_currency_sign(sign):
            return sign
        ids = _SIGN_CURRENCIES.get(sign, (f"{_OTHER_CURRENCY}{sign}",))
        word = _SIGN_AFTER_WORD.search(s, max(match.start() - 20, 0), match.start())
        if word is not None and not s[match.end():].strip() and (
                (word.group(1) or "").lower().removesuffix("s") not in _MAGNITUDES):
            return sign  # `5 m\\$`: a magnitude of dollars (`5 million\\$` is read)
        return "" if _currency_dropped(ids, named, carried) else sign
    return _CURRENCY_SIGN.sub(read, s)


def _currency_dropped(ids: tuple[str, ...], named: set[str], carried: frozenset[str]) -> bool:
    """True when a currency of `ids` may be dropped against the gold: the gold names one of
    them (`named`), or names no currency and states no other unit (`€5` against 5; `£5` is no
    `5 pounds` of weight, `=lb`)."""
    if named:
        return bool(named & set(ids))
    asked = _asked_units(carried)
    return not any(word.startswith("=") for word in carried) and (
        asked is None or bool(asked & set(ids)))  # `\\$5` for `How many cents?`: kept


# A currency code before a number (`USD 1,250`, `\\text{EUR }5`, `Rs. 500`).
_CODE_BEFORE = re.compile(r"^(?:\\(?:text|textrm|mathrm|mbox)\s*\{\s*)?([A-Za-z]{2,3})\.?\s*\}?\s*")


def _currency_code_before(s: str, carried: frozenset[str]) -> str:
    """`s` without a currency code before its number (`USD 1,250` is 1250, as `1250 USD` is)
    where the rest is a number and the code's currency is the gold's, or the gold names
    none: read as a currency sign is (`_currency_signs`). Any other code is kept."""
    code = _CODE_BEFORE.match(s)
    if code is None or len(s) > 60:
        return s
    currency = _unit_id(code.group(1))
    if currency not in _CURRENCY_IDS or parse_number(s[code.end():]) is None:
        return s
    named = _gold_currencies(carried)
    return s[code.end():] if _currency_dropped((currency,), named, carried) else s


def _superscript_powers(s: str) -> str:
    """Superscript digits and signs after a letter or a brace written as the power they are
    (`cm²`, `\\text{ cm}²` as `cm^2`, `s⁻¹` as `s^-1`: a unit's power, read as `^` is)."""
    if s.isascii() or not _SYMBOL_CHARS.search(s):
        return s
    return _LETTER_POWER.sub(lambda m: "^" + unicodedata.normalize("NFKC", m.group(0)).replace(
        "\u2212", "-"), s)


# The base of a number written as a subscript in any of the ways golds write it: `_2`,
# `_{2}`, `_{(2)}`, `_{two}`, `_{\\text{two}}`.
_BASE_ANY = re.compile(r"(?<![\w.\\])(\d+(?:\.\d+)?)\s*_\s*(\{(?:[^{}]|\{[^{}]*\})*\}|[0-9A-Za-z])")
_BASE_WRAPPING = re.compile(r"\\(?:text|mathrm|mbox)\s*|[{}()\s]")


def _base_of(subscript: str) -> str | None:
    """The base a number's subscript writes, as digits (`{(2)}`, `{two}`, `\\text{two}`: 2),
    or None when it writes none the rules read."""
    base = _BASE_WRAPPING.sub("", subscript).lower()
    if base.isdigit():
        return str(int(base))
    value = _WORD_VALUES.get(base)
    return str(value) if value is not None and value >= 2 else None


def _read_base_subscript(match: re.Match[str]) -> str:
    base = _base_of(match.group(2))
    return match.group(0) if base is None else f"{match.group(1)}_{{{base}}}"


# An approximation word at either end of a value (`3.14 (approx)`, `about 3.14`,
# `3.14 approximately`): dropped where the gold carries it too (`carried_words`: `~approx`).
_APPROXIMATION_AT_END = re.compile(r"(?<![\sA-Za-z(])\s*(?:\(\s*)?([A-Za-z]+)\.?(?:\s*\))?\s*$")
_APPROXIMATION_AT_START = re.compile(r"^\s*(?:\(\s*)?([A-Za-z]+)\.?(?:\s*\))?\s+(?=[-+.\d])")


def _without_approximation(s: str, carried: frozenset[str]) -> str:
    """`s` without an approximation word of the gold's (`~approx`) at its start or end."""
    for pattern in (_APPROXIMATION_AT_START, _APPROXIMATION_AT_END):
        found = pattern.search(s)
        if found is not None and f"~{found.group(1).lower()}" in carried and (
                s[:found.start()] + s[found.end():]).strip():
            s = (s[:found.start()] + s[found.end():]).strip()
    return s


# `7.2 percent`, `7.2\\text{ percent}`, `28 pct`: the sign spelled out (never a unit to strip).
# Bounded quantifiers, searched in the last 40 characters only.
_PERCENT_WORD = re.compile(r"(?<=[\d}])\s{0,3}(?:\\(?:text|mbox|mathrm)\s{0,3}\{\s{0,3}"
                           r"(?:per\s?cent(?:age)?|pct)\s{0,3}\}|per\s?cent(?:age)?|pct)$",
                           re.IGNORECASE)


# A dash written for a minus (en dash, hyphen, figure dash, non-breaking hyphen, small minus)
# where a minus may stand: the answer's start, after a bracket, comma or relation (`(–3, 4)`),
# never between two values (`1–5` is a range).
_DASH_MINUS = re.compile(r"(?:^|(?<=[([{,=]))(\s*)[\u2010\u2011\u2012\u2013\ufe63](?=\s*[\d.])")
_ARABIC_DECIMAL = re.compile(r"(?<=\d)\u066b(?=\d)")  # `12٫5`
_ARABIC_THOUSANDS = re.compile(r"(?<=\d)\u066c(?=\d{3}(?!\d))")  # `12٬500`
_SWISS_THOUSANDS = re.compile(r"(?<=\d)\u2019(?=\d{3}(?:\u2019\d{3})*(?!\d))")  # `1’000`


def _read_separators(s: str) -> str:
    """Minus signs and separators of other scripts and typography read as the ASCII ones."""
    if s.isascii():
        return s
    s = _DASH_MINUS.sub(r"\1-", s)
    s = _ARABIC_DECIMAL.sub(".", s)
    s = _ARABIC_THOUSANDS.sub(",", s)
    return _SWISS_THOUSANDS.sub("", s)


def _percent_word(s: str) -> str:
    found = _PERCENT_WORD.search(s, max(len(s) - 40, 0))
    return s[:found.start()] + "%" if found else s


def text_carries_meaning(answer: str, carried: frozenset[str] = frozenset()) -> bool:
    """True when a `\\text{}` / `\\mathrm{}` of `answer` is not a unit (`\\mathrm{i}`,
    `\\text{ or more}`), or states a whole unit other than the gold's (`carried`,
    `_other_whole_unit`: `5\\text{ m}\\cdot\\text{m}` against `5 m`): math-verify drops such
    text, so the symbolic path must read the normalized answer, which keeps it; so too where
    an infix command builds the value (`7 \\bmod 8`, `7 \\choose 2` outside a group), which
    math-verify reads as the value after it; and where the answer is one quantity in two units
    (`5 ft 8 in`: `_marks_read`; `5 dollars 50 cents`: `_money_read`), which math-verify
    reads as its first number."""
    if _marks_read(answer) != answer or _money_read(answer) != answer:
        return True
    aliased = _FRAC_ALIASES.sub(r"\\\1", answer)
    return "\\" in answer and (_choose_as_binomial(_BMOD.sub(r"\\mod", answer)) != answer
                                or _read_as_tex(aliased) != aliased or any(
        not _is_unit(match.group(1)) and match.group(1).strip().lower() not in _CONNECTIVES
        for match in _TEXT_CMD.finditer(answer)) or _other_whole_unit(
        _superscript_powers(_without_delimiters(read_text(answer))), carried))


_CONNECTIVES = frozenset({"and", "or", ",", ""})  # math-verify reads these itself


# Commands that change the value they precede and that math-verify reads past (`\\neg 5`
# is read as 5): the answer holding one says something else than the gold without it.
_NEGATIONS = re.compile(r"\\(?:neg|lnot|not)(?![a-zA-Z])|¬")
# A relation or approximation sign with no left side (`\\neq 10`, `< 10`, `\\approx 10`, `~10`):
# the answer is a bound or an estimate, not the value; math-verify reads its right side.
_OPEN_RELATION = re.compile(
    r"^\s*(\\(?:neq?|not\s*=|[lg]eq?(?:slant)?|[lg]t|ll|gg|lesssim|gtrsim|approx(?:eq)?|sim(?:eq)?|"
    r"doteq|cong|propto|prec|succ)(?![a-zA-Z])|[<>≈≠≤≥≪≫∼≃≅~])")
# A number's subscript is its base (`10_{2}` is two): base 10 is the number itself
# (`normalize` drops it), any other base is a value the rules do not read.
_BASE = re.compile(r"(?<![\w.\\])\d+(?:\.\d+)?\s*_\s*(\{[^{}]*\}|[0-9A-Za-z])")
_BASE_TEN = re.compile(r"(?<![\w.\\])(\d+(?:\.\d+)?)\s*_\s*\{\s*(?:\(\s*)?10\s*(?:\)\s*)?\}")
# A percent of a number (`50% of 10` is 5; `60% of the students` names what it counts): `of`
# is too short a word for `_is_prose_word`.
_PERCENT_OF = re.compile(r"%\s*of\s*\$?\s*[-+]?\.?\d", re.IGNORECASE)
# Dotted abbreviations (`b.n.`, `B.C.E.`, `m.n.`): letters one at a time, each with its point.
_DOTTED = re.compile(r"(?<![A-Za-z.\\])[A-Za-z](?:\.[A-Za-z])+\.?(?![A-Za-z])")
# Magnitude abbreviations of one or two letters or in capitals after a number at the end
# (`5k`, `5 M`, `5 bn`, `5 MRD`, `5 BC`): too short to be words to `_is_prose_word`.
# Markup after one that renders nothing or a sign (`5\\text{ k}\\$`, `5 k{}`, `5 k\\ `, `5 k-`,
# `5 k\\hphantom{}`, `5 k\\%`) leaves it a magnitude.
_SHORT_VALUE = re.compile(r"(?<=\d)\s*([A-Za-z]{1,4})\.?(?=(?:\s|\{\}|\\[ ,;:!]|\\[a-z]*phantom\s*"
                          r"\{[^{}]*\}|\\?[%$]|-|\\)*$)")
# The approximately-equal sign: the LaTeX commands that print it and the Unicode sign. One
# spelling list, read by the two-values rule here (`_ONE_VALUE_SIGNS`) and after a box
# (`_extract._APPROX_SIGN` reads the commands as the sign).
APPROX_SIGN = "\u2248"
APPROX_COMMANDS = ("approx", "thickapprox")
# What builds one value (an allow-list; `_joined_parts`): digits, letters (a variable, a unit, a
# word: each a side's own), spaces and what renders nothing, the operators, grouping and marks
# of one expression (`_BUILDS_VALUE`: `+ - × · / ^ _ ( ) [ ] { } , . % ' ! :`, `√`, `°`), and
# the LaTeX commands that write a value (`_VALUE_COMMANDS`: `\\frac`, `\\sqrt`, `\\cdot`,
# `\\times`, `\\overline`, `\\text`, `\\pi`, functions, Greek letters). Anything else that
# stands between two values joins them: a relation or connective in any spelling (`=`,
# `\\approx`, `\\lor`, `\\bowtie`, `⇝`, `∴`, `!=`, `->`, `==`, `\\hspace{1em} =`,
# `\\xrightarrow{}`, `\\pm`), a bar between two values (`7 \\| 8`, `7 ‖ 8`; `|-3|` is grouping),
# an ellipsis (`\\cdots`, `…`), a spacing command or a space between two numerals that is no
# digits' separator (`7 \\quad 8`, `7\\ 8`: normalized to `7 8`; `1 000`, `2 3/4` are one
# value). Between two values of different value the answer is a hedge between them or a
# statement about them, not a value (`7 \\approx 8`, `7 \\sim 8`, `7 \\approx \\frac{16}{2}`,
# `7 = 8 = 7`).
_BUILDS_VALUE = frozenset("+-*/^_()[]{},.%'!:$\u00d7\u00b7\u00f7\u2212\u221a\u221b\u221c\u221e"
                         "\u00b0\u2032\u2033\u2030\u2217\u22c5\u2218")
_VALUE_COMMANDS = frozenset("""
    frac dfrac tfrac cfrac sqrt binom dbinom tbinom choose times cdot cdotp div ast circ degree
    prime pi infty overline dot ddot bar hat vec widehat tilde widetilde underline overrightarrow
    text textrm textbf textit textnormal textsf mbox mathrm mathbf mathit mathsf mathbb mathcal
    mathfrak mathscr boldsymbol bm displaystyle textstyle operatorname boxed fbox phantom
    hphantom vphantom lfloor rfloor lceil rceil langle rangle sin cos tan cot sec csc arcsin
    arccos arctan sinh cosh tanh coth log ln lg exp max min gcd lcm deg det lim sum prod int
    mod pmod bmod angle measuredangle percent alpha beta gamma delta epsilon varepsilon zeta eta
    theta vartheta iota kappa lambda mu nu xi rho sigma tau upsilon phi varphi chi psi omega
    Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega ell hbar Re Im
""".split())  # noqa: SIM905 (a word list reads better as words)
# Markup that only sizes the delimiter after it (`\\left(`, `\\big|`): the delimiter is read.
_SIZES = re.compile(r"\\(?:left|right|middle|[bB]igg?[lrm]?)(?![a-zA-Z])")
# A bar (`|`, `\\|`, `\\vert`, `\\Vert`, `‖`, `\\lvert`): grouping where it opens or closes an
# expression (`|-3| = 3`), a join where a value stands right on both sides of it (`7 \\| 8`).
_BARS = re.compile(r"\\(?:[lr]?[vV]ert(?![a-zA-Z])|\|)|[|\u2016]")
_LAYOUT = re.compile(r"\\[,;:! ]|~|[\s\u200b-\u200f\u2060\ufeff]+")  # renders as space or nothing
# Two signs that are one (`!=`, `>=`, `->`, `<->`, `=/=`, `:=`, `::`, `//`): a join, though a
# part of it (`!`, `-`, `/`, `:`) builds a value alone.
_DIGRAPH = re.compile(r"</?[A-Za-z]{1,12}>|[-<>=!:~]?[=<>](?:\s{0,3}/\s{0,3}=)?|<?-{1,3}>|<-{1,3}|::"
                      r"|/\s{0,3}/|:=|\+\s{0,3}/\s{0,3}-|-\s{0,3}/\s{0,3}\+|\+-(?=\s)")
# `\\pm` spelled with value signs: `+` over `-` (`\\stackrel{+}{-}`), bounds above and below a
# value (`7^{+1}_{-1}`, `7_{-1}^{+1}`): read as `\\pm`.
_PLUS_MINUS_SPELLED = re.compile(
    r"\\(?:stackrel|overset|underset)\s{0,3}\{\s{0,3}([-+])\s{0,3}\}\s{0,3}\{\s{0,3}(?!\1)[-+]\s{0,3}\}"
    r"|\^\{\s{0,3}\+([^{}]{1,40})\}\s{0,3}_\{\s{0,3}-[^{}]{1,40}\}"
    r"|_\{\s{0,3}-[^{}]{1,40}\}\s{0,3}\^\{\s{0,3}\+([^{}]{1,40})\}")
# What a side is stripped of at its edges: spaces and what renders nothing (`=\\u200d 8`).
_EDGES = " \t\n\r\f\v\u200b\u200c\u200d\u200e\u200f\u2060\ufeff"
# A space between two numerals that no digits' separator is (`7 8`; not `1 000`, `2 3/4`).
_SPACED_NUMERALS = re.compile(r"(?<=\d)(?<!_\d)\s+(?=\d)(?!\d{3}(?!\d)|\d{1,40}\s{0,3}/)")
_TOKENS = re.compile(r"\\[a-zA-Z]+|\\.|''|.", re.DOTALL)  # (`''`: one mark, `″`)
# A word between two numerals (`7 or 8`, `7 oder 8`), also where brackets or text and font
# commands wrap it (`7 (or 8)`, `7 \\underline{or} 8`), or between a numeral and a named value
# (`2 or y = 3`): a join unless it builds the value (a unit, `5 ft 3 in`; a number word;
# `_NUMERAL_WORDS`: `3 times 4`); `v` and `V` are `∨` (`_LOR_LETTERS`), never volts there. Before
# a named value only a worded `or` joins (`x = 2 and y = 3` is two answers, not a hedge).
# Combining marks (`o\u0332r\u0332`: `or` underlined) decorate the letter they follow: the word's.
_MARKS = "\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_WORD_OPENING = (r"(?:\s|[{(\[^_" + _MARKS + r"]|\\(?:text|textrm|textbf|textit|textsf|mbox|mathrm|mathbf|mathit|"
             r"mathsf|operatorname|underline|overline|emph|boldsymbol|bm|rm|bf|it|sf|tt|sl|sc|em|"
             r"cal)(?![a-zA-Z]))++")
_WORD_BETWEEN = re.compile(r"(?:(?<=[\d%])|(?<=\d[)\]]))" + _WORD_OPENING + r"([^\W\d_]+)\.?[\s})\]" + _MARKS + r"]++"
                           r"(?=[-+(]?\.?\d|(?P<named>[A-Za-z](?:_\{?\w{1,3}\}?)?\s{0,3}=))")
_NUMERAL_WORDS = frozenset({"times", "point", "mod", "pi", "x"})  # (`2 x 3`)
# A word spelled in pieces between two numerals (`7 o r 8`, `7 O R 8`, normalized from `o\\!r`,
# `\\ o\\ r\\ `; `7 o\\/r 8`, `7 and/or 8`, `7 i.e. 8`, `7 o-r 8`, `7 o\\relax r 8`): its letters
# rejoined across whatever is no letter and no digit (`_SPELLED_GAP`: any sign, point, group
# brace or space, and the commands that render nothing or only space, `_IN_WORD_NOTHING`) are
# the word `_WORD_BETWEEN` tests. A bracket or bar (letters on its two sides stand in different
# groups), a code fence's backtick and a command known to build a value (`\\times`, `\\cdot`)
# end the word; any other command is read past (`_GAP_COMMAND`: fails closed).
_IN_WORD_NOTHING = re.compile(
    _SPACE_MARKUP + r"|\\[-/,;:! ]|\\(?:relax|allowbreak|nobreak|empty|null|unskip|strut|mathstrut|"
    r"[hv]fil{1,3}|hss|[hv]space\*?\s{0,3}\{[^{}]{0,20}\}|quad|qquad|enspace|thinspace|negthinspace|"
    r"medspace|negmedspace|thickspace|negthickspace|kern\s{0,3}[-+]?[\d.]{0,10}\s{0,3}[a-z]{2}|"
    r"displaystyle|textstyle|scriptstyle|scriptscriptstyle|text|textrm|textbf|textit|textsf|mbox|"
    r"mathrm|mathbf|mathit|mathsf|operatorname|emph|rm|bf|it|sf|tt|"
    # breaks and penalties that set no break inside a line, and what only passes its argument
    # on: a box (its contents are its glyphs; `\\hbox{}` sets none), `\\ensuremath`, `\\protect`
    r"protect|leavevmode|ignorespaces|unkern|unpenalty|noindent|nonumber|notag)(?![a-zA-Z])|"
    r"\\(?:no)?(?:line|page)break(?![a-zA-Z])(?:\s{0,3}\[\s{0,3}\d?\s{0,3}\])?|\\penalty\s{0,3}[-+]?\d{1,6}|"
    r"\\(?:[hv]box|vtop)(?![a-zA-Z])(?:\s{0,3}(?:to|spread)\s{0,3}" + _DIMENSION + r")?|"
    r"\\(?:(?:mbox|makebox|smash|[rl]lap|clap|math[rlc]lap|ensuremath|math(?:ord|bin|rel|op|punct|inner|open|"
    r"close))(?![a-zA-Z])|raisebox\s{0,3}\{\s{0,3}" + _BOX_DIMENSION + r"\s{0,3}\})(?:\s{0,3}\[[^\[\]{}]{0,20}\]){0,2}")
# Any other command but one known to build a value (`_VALUE_COMMANDS`: `\\times`, `\\cdot`, `\\pi`),
# with its arguments (`\\bgroup`, `\\small`, `\\rule{0pt}{0pt}`, `\\mathchoice{}{}{}{}`): unknown, so it
# splits no word (fails closed: `7 o\\bgroup\\egroup r 8` is `7 or 8`).
_GAP_COMMAND = (r"\\(?!(?:" + "|".join(sorted(_VALUE_COMMANDS, key=len, reverse=True)) + r")(?![a-zA-Z]))"
                r"[a-zA-Z]{1,40}(?:\s{0,3}(?:\[[^\[\]{}]{0,20}\]|\{[^{}]{0,20}\})){0,4}")
_GAP_COMMANDS = re.compile(_GAP_COMMAND)
_SPELLED_GAP = r"(?:[^\w\\()\[\]|`]|_|" + _IN_WORD_NOTHING.pattern + "|" + _GAP_COMMAND + r")++"
# Between two values, what sets no sign: space, an empty group, what renders nothing or only
# space (`_side_by_side`: `\\max(7)\\displaystyle\\max(8)`; a wide space, `_WIDE_GAP`, parts a list).
_NO_SIGN = re.compile(r"(?:\s|~|\\>|\{\s{0,3}\}|" + _IN_WORD_NOTHING.pattern + r"){0,8}")
_SPELLED_BETWEEN = re.compile(r"(?<=[\d%])" + _WORD_OPENING + r"([^\W\d_]++(?:" + _SPELLED_GAP
                              + r"[^\W\d_]++)+)\.?[\s})\]" + _MARKS + r"]++(?=[-+(]?\.?\d)")
_NOT_LETTER = re.compile(r"[\W\d_]+")
_SCRIPT = re.compile(r"[\^_]")  # a word set as a script joins where it is a word (`7 ^{or} 8`), not one letter (`2^n 3`)
_LOR_LETTERS = frozenset("vV")
# `v` or `V` glued between two numerals (`7V8`, normalized from `7\\text{V}8`): `∨` as spaced.
_LOR_GLUED = re.compile(r"(?<=\d)[vV](?=[-+]?\.?\d)")
# The same name given a value twice, side by side (`x = 7 x = 8`, normalized from `x = 7 \\quad
# x = 8`; `\\alpha = 7 \\alpha = 8`; `x = \\frac{14}{2} x = 8`): the space between is a join
# (`y = 2 x = 4` is a chain: another name). Any name (a letter, a word, a command, with an
# index) and any value up to the name again; `_NAMED_LISTED`: the same with a comma between
# (`x = 7, x = 8`), a list of the name's values (`hedges`). The value is one `_side_value`
# reads, with no word in it (`p = -1 and p = 2` is two answers, `_named_value`).
_NAMED = r"(?<![A-Za-z\\])(\\?[A-Za-z]{1,20}(?:_\{?\w{1,3}\}?)?)\s{0,3}=\s{0,3}((?=[^\s=])[^=]{1,80}?)"
_NAMED_AGAIN = re.compile(_NAMED + r"(?<![,\s])(\s+)(?=\1\s{0,3}=)")
_NAMED_LISTED = re.compile(_NAMED + r"\s{0,3},\s{0,3}(?=\1\s{0,3}=)")
# A numeral in square brackets right after a numeral (`7 [8]`, from `7 \\text{ [} 8 \\text{]}`;
# in angle brackets, `7 \\langle 8 \\rangle`, `7 ⟨8⟩`, read so by `_as_rendered`): an aside, a
# second value (`7(8)`, `(7)(8)` are products; `\\langle 7, 8 \\rangle` is a vector).
_ASIDE_BRACKET = re.compile(r"(?<=\d)(?<!_\d)\s*\[(?=\s{0,3}[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)\s{0,3}\])")
_ASIDE_ANGLE = re.compile(r"(?<=\d)(?<!_\d)(\s*)(?:\\langle(?![a-zA-Z])|[\u27e8\u2329])(\s{0,3}[-+]?"
                          r"(?:\d[\d,]*(?:\.\d+)?|\.\d+)\s{0,3})(?:\\rangle(?![a-zA-Z])|[\u27e9\u232a])")
# A dash of two or three hyphens between numerals (`6--8`, normalized from `6\\text{--}8`): a
# range, never `6 - (-8)`.
_RANGE_DASH = re.compile(r"(?<=[\d%])\s{0,3}-{2,3}(?=\s{0,3}\.?\d)")
# The signs that say nothing more between two values of the same value (`8 = 8`, `8 \\approx
# 8.0`, `\\frac{6}{2} = 3`, `\\sqrt{2} \\approx 1.414`, `\\frac{1}{2} \\lor 0.5` are one value):
# equality, approximation and `or` (an allow-list; `7 < 7`, `7 \\ne 7` are statements).
_ONE_VALUE_SIGNS = frozenset({
    "=", APPROX_SIGN, *(f"\\{command}" for command in APPROX_COMMANDS), "\\approxeq", "\\sim",
    "\\simeq", "\\thicksim", "\\backsim", "\\backsimeq", "\\eqsim", "\\cong", "\\equiv", "\\doteq",
    "\\doteqdot", "\\Doteq", "\\fallingdotseq", "\\risingdotseq", "\\lor", "\\vee", "or",
    *"\u2248\u224a\u2243\u2245\u224b\u223c\u223d\u22cd\u224c\u2242\u2250\u2251\u2252\u2253\u2261\u2228"})
# Signs that commit to what follows them where a named value follows (`x = 2 \\Rightarrow y =
# 3` is y's value 3; `7 \\Rightarrow 8` joins two values).
_IMPLIES = frozenset({
    "\\Rightarrow", "\\implies", "\\Longrightarrow", "\\to", "\\rightarrow", "\\longrightarrow",
    "\\therefore", *"\u21d2\u27f9\u2192\u27f6\u2234"})
# A name a value is given (`x`, `y_1`, `P(A)`): in `x = 7 \\lor x = 8` the values are 7 and 8.
_NAME = re.compile(r"(?:\\[A-Za-z]{1,20}|[A-Za-z])(?:_\{?\w{1,3}\}?)?(?:\([A-Za-z]{1,3}\))?")
# A numeral as written (`7`, `-7.5`, `1,000`, `8%`, `(7)`): a side of `=` that is no numeral
# (`45 + 26 = 71`, math-verify's `\\frac{1}{2} \\$ = \\frac{10}{9}`) is the working, and the answer
# is its result, as math-verify reads it.
_NUMERAL = re.compile(r"(?<!\s)\(?\s*[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)\s*%?\s*\)?")  # (linear)
# What renders nothing around the values and signs of a relation, read past (`_unmarked`): empty
# groups (`7 \\approx{} 8`, `8^{}`), line breaks (`\\\\`), `\\left.` (normalized to a lone `.`),
# grouping braces that are no command's argument (`_ungrouped`: `{7} = {8}`, `7 {\\sim} 8`).
_RENDERS_NOTHING = re.compile(r"[\^_]?\{\s*\}|" + _ROW_BREAK + r"(?![A-Za-z])|(?<!\S)\.(?!\S)")
_SPACED_ARGUMENT = re.compile(r"(?<=[A-Za-z}^_\]])\s+(?=\{)")  # `\\frac {16} {2}`: arguments
# A relation sign set with a mark over or under it (`\\stackrel{?}{=}`, `\\overset{?}{=}`) or as
# a relation (`\\mathrel{\\sim}`): the sign.
_MARKED_SIGN = re.compile(r"\\(?:(?:stackrel|overset|underset)\s*\{[^{}]*\}|mathrel)\s*\{([^{}]*)\}")
# A word set as the mark over or under a sign (`7 \\stackrel{\\text{or}}{,} 8`, normalized `7
# \\stackrel{or}, 8`): the word, which joins wherever it is set, whatever the sign under it.
_WORD_AS_MARK = re.compile(r"\\(?:stackrel|overset|underset)\s{0,3}\{\s{0,3}([^\W\d_]{2,40})\s{0,3}\}"
                           r"\s{0,3}(?:\{[^{}]{0,40}\}|\\[a-zA-Z]{1,40}|[^\s{}\\])")


def _named_value(found: re.Match[str]) -> bool:
    """Whether the value a name is given in `found` (`_NAMED`) is one value: no word in it,
    and `_side_value` reads it (`7`, `\\frac{14}{2}`; not `-1 and`)."""
    return _PLAIN_WORD.search(found.group(2)) is None and _side_value(found.group(2)) is not None


_PLAIN_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")


def _joining_sign(answer: str) -> str | None:
    """The join (`_joined_parts`: whatever is not known to build one value) joining two values
    in a normalized answer where it says more than one value: two sides next to it are each one
    value (`_side_value`: a number as `_read_number` reads it, `8%`, `1{,}000`, `(8)`, a
    constant expression `evaluate` reads, `\\frac{16}{2}`, `2^3`, or a number with words or a
    unit, `7 kg`, `eight`), and they differ (`7 \\sim 8`, `7 \\approx 8 \\approx 7`, `7 \\approx
    \\frac{16}{2}`, `7 \\lor 8 \\lor 9`, `7 == 8`, `7 \\quad 8`), or are the same value joined by
    a sign not on `_ONE_VALUE_SIGNS` (`7 \\ne 7`, `\\sqrt{4} = \\pm 2`); else None. A value given
    a name (`x = 7 \\lor x = 8`) is that value, but an implication commits to the named value
    after it (`_IMPLIES`: `x = 2 \\Rightarrow y = 3`). The same value is the one rule of a number
    stated beside a value (`_same_number`, `equals_as_printed`: `\\sqrt{2} \\approx 1.414`, `1000
    \\approx 1{,}000`). A side of `=` that is no numeral is worked to the other (`45 + 26 = 71`):
    the answer is its result. Sides that are not values (`x = 8`, `C(h) = 4h + 4`, `1 < x < 3`)
    join nothing. Sides with different units (`5 m = 500 cm`), or a unit on one side of `=`
    only (normalized `5 m = 500`), are a conversion, not compared."""
    parts = _joined_parts(answer)
    if parts is None:
        return None
    signs = parts[1::2]
    bars = not any(_BARS.search(sign) for sign in signs)  # (a bar that joins pairs the bars at the edges)
    sides = [(text, _side_value(text) or _side_value(_unbracketed(text, bars))) for text in parts[::2]]
    for at, sign in enumerate(signs):
        (left, first), (right, second) = sides[at], sides[at + 1]
        if (second is None and at + 2 < len(sides) and signs[at + 1] == "=" and sign not in _IMPLIES
                and _NAME.fullmatch(right) and at > 0 and signs[at - 1] == "="
                and _NAME.fullmatch(sides[at - 1][0])):
            right, second = sides[at + 2]  # `x = 7 \\lor x = 8`: 7 and 8
        if first is None or second is None or sign == "=" and not _NUMERAL.fullmatch(left):
            continue
        if _converted(left, right, sign):
            continue
        if sign not in _ONE_VALUE_SIGNS or not _same_value(left, first, right, second, sign):
            return sign
    return None


def _absolute(text: str) -> Number | None:
    """A number between bars, its absolute value (`|-7|`: 7), else None."""
    text = text.strip()
    inner = text[1:-1] if len(text) > 2 and text[0] == text[-1] == "|" else ""
    number = _read_number(inner) if inner and "|" not in inner else None
    return None if number is None else Number(
        abs(number.value), number.decimal, number.percent, number.half_unit)


def _unbracketed(text: str, bars: bool = True) -> str:
    """A side without the bracket or brace at its edge that opens or closes around the join,
    not the side (`7(\\pm 1)`: sides `7(` and `1)`, the values 7 and 1; `\\substack{7 \\\\ 8}`:
    `{7` and `8}`; `\\{ 7 \\atop 8 \\}`: `\\{ 7` and `8 \\}`, any delimiter TeX sets). A bar, by
    any spelling (`_EDGE_BARS`), opens and closes alike: one with no pair in the side is the
    join's (`|7 \\text{ or } 8|`: `7` and `8`), unless a bar is itself the join (`bars`
    False: `|7| |8|` is a product of two absolute values)."""
    text = text.strip()
    for bar in _EDGE_BARS if bars else ():  # (a bar opens and closes alike: one at an edge with no pair)
        count = text.count(bar) - (text.count("\\|") if bar == "|" else 0)
        if count % 2 and text.endswith(bar) and not (bar == "|" and text.endswith("\\|")):
            text = text[: -len(bar)].strip()
        elif count % 2 and text.startswith(bar):
            text = text[len(bar) :].strip()
    for opening, closing in _TEX_DELIMITERS:
        if text.endswith(closing) and text.count(closing) > text.count(opening):
            text = text[: -len(closing)].strip()
        if text.startswith(opening) and text.count(opening) > text.count(closing):
            text = text[len(opening) :].strip()
    if text[-1:] in _PAIRED or text[-1:] in _PAIRED.values() and text.count(text[-1]) > text.count(
            next(opening for opening, closing in _PAIRED.items() if closing == text[-1])):
        text = text[:-1].strip()
    if text[:1] in _PAIRED.values() or text[:1] in _PAIRED and text.count(text[0]) > text.count(
            _PAIRED[text[0]]):
        text = text[1:]
    return text.strip()


_PAIRED = {"(": ")", "[": "]", "{": "}"}
_EDGE_BARS = ("\\|", "\\Vert", "\\vert", "|", "\u2016")  # (`\\lvert` is `|` here: `_read_as_tex`)
_TEX_DELIMITERS = (("\\{", "\\}"), ("\\langle", "\\rangle"), ("\\lfloor", "\\rfloor"),
                   ("\\lceil", "\\rceil"), ("\\lbrack", "\\rbrack"), ("\\lgroup", "\\rgroup"))


def joined_value(answer: str) -> str | None:
    """The one value a normalized answer writes two or more times, each side joined to the next
    by a sign of `_ONE_VALUE_SIGNS` and of the same value: its first side, the answer's value
    (`_joining_sign` finds no hedge in it), where each side is a number (`_read_number`: `1000
    \\approx 1{,}000`, `8 = 8.0`, `7 ≈ 7.00`) or one is a repeating decimal (`\\frac{1}{3} =
    0.\\overline{3}`: math-verify reads `0.\\overline{3}` as 0.3); None for any other answer."""
    parts = _joined_parts(answer)
    if parts is None or not set(parts[1::2]) <= _ONE_VALUE_SIGNS:
        return None
    repeating = any(_REPEATING.search(text) for text in parts[::2])
    sides = [(text, (_read_number(text) or _absolute(text)) if not repeating else _side_value(text))
             for text in parts[::2]]
    for ((left, first), (right, second)), sign in zip(itertools.pairwise(sides), parts[1::2]):
        if first is None or second is None or not _same_value(left, first, right, second, sign):
            return None
    if repeating:
        kept = [text for text in parts[::2] if not _REPEATING.search(text)]
        return kept[0] if kept else None
    return sides[0][0]


def joined_after(answer: str, after: str) -> str | None:
    """The sign by which what is written right after an answer (a box) joins another value to
    it (`\\boxed{7} = 8`, `⋚ 8`, `± 1`): `after` opens with a sign that builds no value (not a
    word, a space, a bracket: `_BUILDS_VALUE`) or with two that are one join (`_DIGRAPH`: `+/-
    1`, `(+/- 1)`, `-> 8`) and the two read as two values joined (`_joining_sign`), the second
    side read as the value right after the sign (`= 8 (...)`: 8, whatever its bracket says); or
    it opens with marks that build a value only on the value beside them (`_MARKS_BESIDE`: a
    prime, a degree, a percent, a currency sign) and a value follows them: two values side by
    side (`\\boxed{7} ' 8`, `° 8`, `€ 8`). Else None (`\\boxed{\\sqrt{2}} \\approx 1.414`,
    `\\boxed{7} - 3 = 4`). Bounded: a join-opened `after` longer than `_AFTER_MAX` that neither
    reading decides is no committed answer (its opening sign is returned), never a pass."""
    after = after.strip()
    beside = _MARKS_BESIDE.match(after)
    if beside is not None and _OPENS_VALUE.match(after, beside.end()):
        return beside.group(0)  # `\\boxed{7} ' 8`, `€ 8`: the marks stand between two values
    if not after or after[0].isalnum() or after[0] in _BUILDS_VALUE and (
            _DIGRAPH.match(after.lstrip("([ ")) is None):  # (`+/- 1`, `(+/- 1)`: a join)
        return None
    leading = _SIGN_AND_VALUE.match(after)
    for text in ([leading.group(0)] if leading is not None else []) + [after[:_AFTER_MAX]]:
        joined = _joining_sign(normalize(f"{answer} {text}"))
        if joined is not None and joined.strip() and not joined.isalpha():
            return joined
    if len(after) > _AFTER_MAX:  # (not read whole: no committed answer)
        return after.split()[0]
    return None


_AFTER_MAX = 400
# Marks that build a value only on the value they stand beside (a prime, a degree, a percent,
# a per-mille, a currency sign; `\\$`, and `sentence_key`'s `_DOLLAR_SIGN` for it), and a value
# that opens the text after them: `\\boxed{7} ' 8` is 7 and 8 side by side, whichever the
# marks belong to.
_MARKS_BESIDE = re.compile(r"(?:['\u2032\u2033\u00b0\u2030%$\u00a2-\u00a5\u20a0-\u20cf\x00]|\\[%$]|"
                           r"\^\s*+(?:\\circ(?![A-Za-z])|\{\s*+\\circ\s*+\}))+")  # (`^\\circ`: a raised degree)
_OPENS_VALUE = re.compile(r"(?<!\s)\s*+[-+\u2212]?\.?\d")
# The sign that opens the text after a box and the value right after it (`= 8` of `= 8 (...)`,
# `\\approx 8.5%`, `> -3`): the second side of a join, read alone.
_SIGN_AND_VALUE = re.compile(r"(?<!\d)[^\w\s]{1,3}\s{0,3}(?:\\[A-Za-z]{1,20}\s{0,3})?[-+\u2212]?\d++(?:[.,]\d++)*+(?:\s{0,3}\\?%)?"
                             r"(?![\d.,/^_{]|\s{0,3}[-+*/^\u00d7\u00f7\u00b7\u2212]\s{0,3}\d)")


def _joined_parts(answer: str) -> list[str] | None:
    """A normalized answer split at its joins: its sides, stripped, between the joins (each
    a run of what is not known to build one value, `_BUILDS_VALUE`, `_VALUE_COMMANDS`, a
    command with its arguments, `\\hspace{1em}`, `\\kern1em`, written without what renders as
    space: `=`, `\\approx`, `==`, `\\approx\\approx`, `=\\pm`); None where it has none (or is
    longer than any answer read). A sign or command of the allow-list builds a value only with
    the operands it needs (`_builds_nothing`): where it has none it joins (`7 ) ( 8`, `7 .. 8`,
    `7 \\max 8`). Each side is read in bounded time (`evaluate` reads at most 200 tokens)."""
    if len(answer) > 2000:
        return None
    answer = _as_rendered(answer)
    joins = [(found.start(), found.end()) for found in _SPACED_NUMERALS.finditer(answer)
             if "\\begin" not in answer]  # (an environment's cells: `\\begin{array}5\\\\2`)
    joins += [(found.start(), found.end()) for pattern in (_DIGRAPH, _ASIDE_BRACKET, _RANGE_DASH)
              for found in pattern.finditer(answer)]
    joins += [found.span(3) for found in _NAMED_AGAIN.finditer(answer) if _named_value(found)]
    joins += [found.span() for found in _LOR_GLUED.finditer(answer)]
    joins += [(found.start(), found.end()) for found in _BARS.finditer(answer)
              if _between_values(answer, found.start(), found.end())]
    words = {found.span(): found.group(1) for found in _WORD_BETWEEN.finditer(answer)
             if (len(found.group(1)) > 1 or not _SCRIPT.search(answer, found.start(), found.start(1)))
             and (found.group(1) in _LOR_LETTERS or (
                 found.group(1).lower() not in NUMBER_WORDS | _NUMERAL_WORDS
                 and _unit_id(found.group(1)) is None
                 and (found.group("named") is None or found.group(1).lower() in _OR_WORDS)))}
    for spelled in _SPELLED_BETWEEN.finditer(answer):
        word = _NOT_LETTER.sub("", _GAP_COMMANDS.sub("", _IN_WORD_NOTHING.sub("", spelled.group(1))))
        if word in _LOR_LETTERS or (word.lower() not in NUMBER_WORDS | _NUMERAL_WORDS
                                    and _unit_id(word) is None):
            words[spelled.span()] = word.lower() if word.lower() in _OR_WORDS else word
    joins += list(words)  # (the sign is the word, not what wraps it: `7 (or 7)` is one value)
    joins += _runs_between(answer)
    tokens = [(found.start(), found.end(), found.group(0)) for found in _TOKENS.finditer(answer)]
    shown = [token for token in tokens if not _LAYOUT.fullmatch(token[2])]
    unmatched = _unmatched_delimiters(shown)
    alone = {place for place, (start, _, token) in enumerate(shown)
             if start in unmatched or not _builds_value(answer, start, token)}
    for _ in range(3):  # (a sign beside one that builds nothing has no operand there: `7 ,. 8`)
        found = {place for place in range(len(shown))
                 if place not in alone and _builds_nothing(answer, shown, place, alone)}
        if not found:
            break
        alone |= found
    at = 0
    for place, (start, end, token) in enumerate(shown):  # (a command's arguments are skipped)
        if start < at:
            continue
        at = end
        if place not in alone:
            continue
        if token.startswith("\\") and token[1:].isalpha():
            dimension = _UNBRACED_DIMENSION.match(answer, at) if token[1:] in _SPACES_BY else None
            at = _arguments_end(answer, at if dimension is None else dimension.end())
        joins.append((start, at))
    if not joins:
        return None
    parts: list[str] = []
    end = 0
    for start, stop in sorted(joins):
        if start < end:  # (overlapping joins are one: a digraph, a command and its sign)
            parts[-1] += answer[end:stop] if stop > end else ""
            end = max(end, stop)
            continue
        side = answer[end:start].strip(_EDGES)
        if parts and not _LAYOUT.sub("", side):  # two joins in a row are one (`= \\pm`, `==`)
            parts[-1] += answer[end:stop]
        else:
            parts += [side, words.get((start, stop), answer[start:stop])]
        end = stop
    parts.append(answer[end:].strip(_EDGES))
    parts[1::2] = [_LAYOUT.sub("", sign) or " " for sign in parts[1::2]]  # (` `: `7 8`)
    return parts


# A numeral carries its own marks only (`5'`, `5''`, `5‴`): a run of primes after it of more
# than it carries (three or more: `7 ′′′ 8`, `7 \\prime\\prime\\prime 8`), set beside it or as
# its superscript (`7^{\\prime\\prime\\prime} 8`, `7^{'''} 8`), joins it to what follows, whole.
# A run of bars (`7 \\vert\\vert 8`, `7 || 8`: `\\|` spelled twice; `7 \\big| \\big| 8`, read with
# its sizes dropped, `7 | | 8`: math sets no space between them) with a value right on both
# sides joins, whole.
_PRIME = r"(?:\\prime(?![a-zA-Z])|['\u2032\u2033\u2034\u2057\x22])"
_PRIME_RUN = re.compile(r"(?<=\d)(?:\s{0,3}(?:\^\s{0,3}\{(?:\s{0,3}" + _PRIME + r")++\s{0,3}\}|\^?\s{0,3}"
                        + _PRIME + r"))++")
_PRIME_COUNT = {"'": 1, "\u2032": 1, "\u2033": 2, "\u2034": 3, "\u2057": 4, "\x22": 2, "\\prime": 1}
_PRIME_MARK = re.compile(r"\\prime|\S")
_ONE_BAR = r"\\(?:[lr]?[vV]ert(?![a-zA-Z])|\|)|[|\u2016]"
_BAR_RUN = re.compile(r"(?:" + _ONE_BAR + r")(?:\s*+(?:" + _ONE_BAR + r"))++")


def _runs_between(answer: str) -> list[tuple[int, int]]:
    """The spans of the runs of marks and of bars that join (`_PRIME_RUN`, `_BAR_RUN`)."""
    runs = [found.span() for found in _PRIME_RUN.finditer(answer)
            if sum(_PRIME_COUNT.get(mark, 0) for mark in _PRIME_MARK.findall(found.group(0))) > 2]
    return runs + [found.span() for found in _BAR_RUN.finditer(answer)
                   if _between_values(answer, found.start(), found.end())]


def _builds_value(answer: str, start: int, token: str) -> bool:
    """Whether a token of a normalized answer is on the allow-list of what builds a value
    (`_BUILDS_VALUE`, `_VALUE_COMMANDS`, a digit or letter, a bar, a combining mark on a
    character, what renders nothing, a currency sign)."""
    return bool(_BARS.fullmatch(token)) or (
        token.isalnum() or token in _BUILDS_VALUE or token in ("\\%", "\\$", "\\{", "\\}", "''")
        or token[1:] in _VALUE_COMMANDS or unicodedata.category(token[0]) in _VALUE_KINDS
        and not token.startswith("\\") and not (  # (a mark builds only on a character)
            unicodedata.category(token[0]) in _MARK_KINDS and answer[start - 1 : start].isspace()))


# What renders nothing or only sets the style of what follows (`\\textstyle`; a value command
# with only empty arguments, `\\boxed{}`, `\\overline{}`, `\\vec{}`): a space, so that `7
# \\boxed{} 8` is two values side by side. A text or font command with no braced argument
# (`\\text,`, normalized from `\\text{,}`) sets only the character after it: that character.
_STYLE = re.compile(r"\\(?:text|display|script|scriptscript)style(?![a-zA-Z])")
_EMPTY_COMMAND = re.compile(r"\\([a-zA-Z]{1,40})(?:\s{0,3}\{\s{0,3}\})++")
# The starred spacing commands (`\\hspace*{1em}`, spacing as `\\hspace{1em}` does: `_SPACES_BY`;
# a phantom, space whatever it holds, is dropped before: `_markup_read`).
_STARRED_SPACE = re.compile(r"(\\[hv]space)\s{0,3}\*")
_BARE_WRAPPER = re.compile(r"\\(?:text|textrm|textbf|textit|textsf|mbox|mathrm|mathbf|mathit|mathsf|"
                           r"boldsymbol|bm)(?=\s{0,3}[^\s{\\a-zA-Z])")


def _as_rendered(answer: str) -> str:
    """A normalized answer as the joins are read in it (`_joined_parts`): `\\pm` spelled with
    value signs read as `\\pm`, marks over a sign dropped, what renders nothing or only sets a
    style as a space (`_RENDERS_NOTHING`, `_STYLE`, `_EMPTY_COMMAND`), grouping braces and
    sizes dropped; a numeral in angle brackets after a numeral as in square ones (`_ASIDE_ANGLE`)."""
    answer = _PLUS_MINUS_SPELLED.sub(
        lambda found: f" \\pm {found.group(2) or found.group(3) or ''}", answer)
    answer = _STARRED_SPACE.sub(r"\1", answer)
    answer = _STYLE.sub(" ", _BARE_WRAPPER.sub("", answer))
    answer = _WORD_AS_MARK.sub(r" \1 ", answer)
    for _ in range(3):  # (a mark over a sign in a `\\mathrel`; an empty group in a group)
        answer = _EMPTY_COMMAND.sub(
            lambda found: " " if found.group(1) in _VALUE_COMMANDS else found.group(0), answer)
        answer = _MARKED_SIGN.sub(r"\1", _RENDERS_NOTHING.sub(" ", answer))
        answer = _RENDERS_NOTHING.sub(" ", _ungrouped(_SPACED_ARGUMENT.sub("", answer)))
    return _ASIDE_ANGLE.sub(r"\1[\2]", _SIZES.sub(" ", answer))


# Spacing commands whose dimension may be written unbraced (`\\kern1em`, `\\hskip 1em`,
# `\\mkern18mu`): the dimension is the command's, never a side.
_SPACES_BY = frozenset({"kern", "mkern", "hskip", "mskip", "vskip", "hspace", "vspace"})
_UNBRACED_DIMENSION = re.compile(r"\s{0,3}[-+]?(?:\d{1,10}(?:\.\d{0,10})?|\.\d{1,10})\s{0,3}"
                                 r"(?:em|ex|pt|pc|mu|px|bp|cm|mm|in|dd|cc|sp)(?![a-zA-Z])")
# Delimiters that open and close a group: a closing one closes the last one opened of its kind
# (`(` and `[` close with either: `(1, 2]`); one that closes nothing or is never closed joins.
_OPENS = {"(": "(", "[": "(", "{": "{", "\\{": "\\{", "\\langle": "\\langle", "\\lfloor": "\\lfloor",
          "\\lceil": "\\lfloor"}
_CLOSES = {")": "(", "]": "(", "}": "{", "\\}": "\\{", "\\rangle": "\\langle", "\\rfloor": "\\lfloor",
           "\\rceil": "\\lfloor"}
# Signs between two operands (`7 : 8`, `1, 2`, `2 \\times 3`); marks on the value before them
# (`7'`, `5\\%`), which stand beside a numeral only where that numeral has its mark too (`5′
# 8″`: `7 ′ 8` is two values); names of a function of several values, a matrix or a limit,
# whose operand is never a bare numeral (`\\max(7, 8)`, `\\det A`, `\\lim_{x \\to 0}`; `7 \\max 8`
# joins); composition (`f \\circ g`; `7 \\circ 8` joins: a numeral is no function) and infinity,
# which is no factor of a numeral (`7 ∞ 8` joins; `-\\infty`, `[1, \\infty)` build).
_BETWEEN_OPERANDS = frozenset({",", ":", "/", "\u00d7", "\u00b7", "\u00f7", "\u2217", "\u22c5",
                               "\\times", "\\cdot", "\\cdotp", "\\div", "\\ast"})
_MARKS_AFTER = frozenset({"'", "''", "\u2032", "\u2033", "\u2034", "%", "\u2030", "\\prime", "\\percent"})
_ON_THE_VALUE = _MARKS_AFTER | {"!", "\u00b0", "\\degree"}
_MARKED_NUMERAL = re.compile(r"\.?\d[\d.,]{0,40}\s{0,3}(?:\\prime|\\percent|['\x22\u2032\u2033\u2034%\u2030])")
_DIGITS_GROUP = re.compile(r"\d{3}(?![\d.])")  # after an apostrophe: `1'000` (a digits' group)
_NO_NUMERAL_OPERAND = frozenset({"\\max", "\\min", "\\gcd", "\\lcm", "\\det", "\\deg", "\\lim"})
_NO_NUMERAL_BESIDE = frozenset({"\\circ", "\u2218", "\\infty", "\u221e"})
_TWO_ARGUMENTS = frozenset({"\\frac", "\\dfrac", "\\tfrac", "\\cfrac", "\\binom", "\\dbinom", "\\tbinom"})
_OPERATOR_COMMANDS = frozenset({"times", "cdot", "cdotp", "div", "ast", "circ", "bmod", "mod",
                                "choose"})


def _unmatched_delimiters(shown: list[tuple[int, int, str]]) -> set[int]:
    """The starts of the delimiters among `shown` tokens that close nothing or are never
    closed (`_OPENS`, `_CLOSES`)."""
    opened: list[tuple[str, int]] = []
    unmatched: set[int] = set()
    for start, _, token in shown:
        if token in _OPENS:
            opened.append((_OPENS[token], start))
        elif token in _CLOSES:
            if opened and opened[-1][0] == _CLOSES[token]:
                opened.pop()
            else:
                unmatched.add(start)
    return unmatched | {start for _, start in opened}


def _ends_value(token: str) -> bool:
    """Whether a token may end the operand before a sign: a digit, a letter, a closing
    delimiter or bar, a mark on a value, a constant or function (`\\pi`, `\\sin^2`)."""
    return (token.isalnum() or token in _CLOSES or token in _ON_THE_VALUE or token in "|$\u221e"
            or token in ("\\|", "\\$", "\\%") or unicodedata.category(token[:1] or " ") == "Sc"
            or token[1:] in _VALUE_COMMANDS and token[1:] not in _OPERATOR_COMMANDS
            and token not in _OPENS)


def _starts_value(token: str) -> bool:
    """Whether a token may start the operand after a sign: a digit, a letter, an opening
    delimiter or bar, a sign (`\\pm` too: `(1, \\pm 2)`), a point, a value command (`\\frac`,
    `\\sqrt`, `\\pi`)."""
    return (token.isalnum() or token in _OPENS or token in "|.-+$\u2212\u221a\u221b\u221c\u221e\u00b1\u2213"
            or token in ("\\|", "\\$", "\\pm", "\\mp") or unicodedata.category(token[:1] or " ") == "Sc"
            or token[1:] in _VALUE_COMMANDS and token[1:] not in _OPERATOR_COMMANDS
            and token not in _CLOSES)


def _builds_nothing(answer: str, shown: list[tuple[int, int, str]], place: int,
                    alone: set[int]) -> bool:
    """Whether the sign or command of the allow-list at `shown[place]` lacks the operands it
    needs to build a value, so that it joins what stands around it: a point beside no letter
    or digit (`7 .. 8`), a sign between operands without one on a side (`7 ,, 8`, `7 : : 8`),
    a mark on no value or beside a numeral without its own mark (`7 ′ 8`; `1'000` is a digits'
    group), a function of
    several values on a bare numeral (`7 \\max 8`), a composition or infinity beside a numeral
    (`7 \\circ 8`, `7 ∞ 8`). A token in `alone` (one that builds nothing) is no operand."""
    start, end, token = shown[place]
    before = shown[place - 1][2] if place and place - 1 not in alone else ""
    after = shown[place + 1][2] if place + 1 < len(shown) and place + 1 not in alone else ""
    if token == ".":
        return not (answer[start - 1 : start].isalnum() or answer[end : end + 1].isalnum())
    if token in _BETWEEN_OPERANDS:
        return not (before and _ends_value(before) and after and _starts_value(after))
    if token in _ON_THE_VALUE:
        if not (before and (_ends_value(before) or before in "^_{")):
            return True
        return token in _MARKS_AFTER and (after[:1].isdigit() or after == ".") and (
            _MARKED_NUMERAL.match(answer, shown[place + 1][0]) is None) and (
            _DIGITS_GROUP.match(answer, end) is None or not before.isdigit())
    if token in _NO_NUMERAL_OPERAND:
        return not after or after[:1].isdigit() or after == "."
    if token in _TWO_ARGUMENTS:  # `7 \\binom 8`: one argument, no binomial (`\\frac12` has two)
        return _arguments_after(answer, end, 2) < 2
    if token in _NO_NUMERAL_BESIDE:
        numeral_beside = before[:1].isdigit() or after[:1].isdigit() or after == "."
        return numeral_beside or token in ("\\circ", "\u2218") and not (before and after)
    return False


def _arguments_after(text: str, at: int, most: int) -> int:
    """How many arguments (up to `most`) stand at `text[at:]`: a brace group, a command or one
    character other than a closing brace or a cell's or row's end."""
    count = 0
    while count < most:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text) or text[at] in "}&" or text.startswith("\\\\", at):
            break
        if text[at] == "{":
            depth, stop = 0, at
            for stop in range(at, min(len(text), at + 400)):
                depth += (text[stop] == "{") - (text[stop] == "}")
                if depth == 0:
                    break
            if depth:
                break
            at = stop + 1
        else:
            command = _COMMAND_AT.match(text, at)
            at = command.end() if command is not None else at + 1
        count += 1
    return count


_COMMAND_AT = re.compile(r"\\[a-zA-Z]{1,40}")


def _ungrouped(text: str) -> str:
    """`text` without its grouping braces, those that are no argument of a command, a power or
    an index (`{7} = {8}`, `{7 \\sim 8}`, `7 {\\sim} 8`; `\\frac{16}{2}`, `2^{3}` keep theirs), in
    one pass."""
    out: list[str] = []
    kept: list[bool] = []  # for each open brace, whether it is kept
    for at, char in enumerate(text):
        if char in "{}" and text[at - 1 : at] == "\\":  # `\\{7, 8\\}`: a brace printed
            pass
        elif char == "{":
            kept.append(at > 0 and (text[at - 1].isalpha() or text[at - 1] in "}^_]"))
            if not kept[-1]:
                continue
        elif char == "}" and kept and not kept.pop():
            continue
        out.append(char)
    return "".join(out)


_VALUE_KINDS = frozenset({"Mn", "Mc", "Me", "Cf", "Sc"})  # marks, what renders nothing, currency
_MARK_KINDS = frozenset({"Mn", "Mc", "Me"})
_REPEATING = re.compile(r"(?<![\d.])(-?\d{0,40})\.(\d{0,40})\\(?:overline|dot|bar)\s{0,3}\{?(\d{1,40})\}?")
# A number with words or a unit after it (`7 kg`, `7 apples`, `5 m`; normalized, `\\text{}`
# unwrapped): the number, beside the words.
_WORDED = re.compile(r"\A([^A-Za-z\\]*[^A-Za-z\\\s])\s+([A-Za-z]+(?:\s+[A-Za-z]+){0,3})\Z")


def _side_value(text: str) -> Number | float | None:
    """A side of a join as one value: a number (`_read_number`), else a constant expression
    (`_constant`), else a repeating decimal (`0.\\overline{3}`), else a number in words
    (`eight`) or one with words or a unit after it (`7 kg`, `_side_words`), else None."""
    text = text.strip()
    if not text:
        return None
    value = _read_number(text) or _constant(text) or _of_numerals(text)
    repeating = _REPEATING.fullmatch(text) if value is None and len(text) <= 60 else None
    if repeating is not None:
        whole, fixed, cycle = repeating.groups()
        read = (abs(int(whole.strip("-") or "0")) + Fraction(int(fixed or "0"), 10 ** len(fixed))
                + Fraction(int(cycle), (10 ** len(cycle) - 1) * 10 ** len(fixed)))
        value = float(-read if whole.startswith("-") else read)
    if value is None and text.isascii() and len(text) <= 60 and not any(
            char.isdigit() for char in text):
        value = _read_number(numbers_in_words(text))  # `eight`
    if value is None and _side_words(text):
        worded = _WORDED.fullmatch(text)
        value = _read_number(worded.group(1)) if worded is not None else None
    factor = _BRACKETED_FACTOR.search(text) if value is None and len(text) <= 200 else None
    if factor is not None and factor.start() and text[factor.start() - 1] in "0123456789)]}":
        before = _side_value(text[: factor.start()])  # (the factor read off: one level)
        value = _as_float(before) * float(factor.group(1)) if before is not None else None
    return value


# A numeral in round brackets right after a value that ends a side (`7 (1)`, `7(1)`,
# `\\frac{14}{2}(1)`, `(7)(1)`, as `7 \\eqno(1)` or a plain aside writes it): a product, as TeX sets
# it (the value 7), so that a join after it reads two values (`7 (1) \\text{ or } 8`, `7 (1), 8`:
# 7 and 8, a hedge) and `2(3) = 6` one.
_BRACKETED_FACTOR = re.compile(r"\s{0,3}\(\s{0,3}([-+]?(?:\d{1,40}(?:\.\d{1,40})?|\.\d{1,40}))\s{0,3}\)\Z")


# A function of several values applied to numerals (`\\max(7)`, `\\max(7, 6)`, `\\gcd(14, 21)`,
# as `_read_as_tex` writes `\\max\\{7\\}`): its value.
_OF_NUMERALS = re.compile(r"\\?(max|min|gcd|lcm)\s{0,3}\(([-+\d.,\s]{1,200})\)")


def _of_numerals(text: str) -> float | None:
    """The value of a function of numerals (`_OF_NUMERALS`; `gcd` and `lcm` of whole numbers), or None."""
    found = _OF_NUMERALS.fullmatch(text)
    numbers = [parse_number(part) for part in found.group(2).split(",")] if found is not None else []
    if not numbers or any(number is None or number.percent for number in numbers):
        return None
    values = [number.value for number in numbers if number is not None]
    name = found.group(1) if found is not None else ""
    if name in ("max", "min"):
        return float(max(values) if name == "max" else min(values))
    if any(value.denominator != 1 for value in values):
        return None
    whole = [int(value) for value in values]
    return float(math.gcd(*whole) if name == "gcd" else math.lcm(*whole))


def _side_words(text: str) -> str:
    """The words or unit after a side's number (`7 kg`: `kg`; a word of one letter only where it
    is a unit, `5 m`, not a variable, `3 x`), else ''."""
    worded = _WORDED.fullmatch(text.strip()) if len(text) <= 120 else None
    if worded is None or not any(char.isdigit() for char in worded.group(1)) or not all(len(word) > 1 or _unit_id(word) is not None
                                 for word in worded.group(2).split()):
        return ""
    return " ".join(worded.group(2).split())


def _converted(left: str, right: str, sign: str) -> bool:
    """Whether two sides are one quantity in two units, not compared: units on both that
    differ (`5 m \\approx 500 cm`), or a unit on one side of `=` only (`5 m = 500`, where
    `normalize` dropped the last unit)."""
    units = (_side_words(left), _side_words(right))
    return units[0] != units[1] and (all(units) or sign == "=")


def _between_values(text: str, start: int, end: int) -> bool:
    """Whether a value stands right on both sides of `text[start:end]` (a bar: `7 \\| 8` joins;
    `|-3| = 3`, `\\|v\\|` group)."""
    preceding = _LAYOUT.sub("", text[max(start - 40, 0):start])
    before = preceding[-1:]
    after = _LAYOUT.sub("", text[end:end + 40])[:1]
    command = _LAST_COMMAND.search(preceding)  # (`7 \\lor |-7|`: a sign, no value, before it)
    if command is not None and command.group(1) not in _VALUE_COMMANDS:
        return False
    return bool(before) and (before.isalnum() or before in ")}]%.") and bool(after) and (
        after.isalnum() or after in "({\\-.")


_LAST_COMMAND = re.compile(r"\\([a-zA-Z]{1,40})\Z")


def _arguments_end(text: str, at: int) -> int:
    """Where the arguments of a command ending at `at` end: its `{...}` and `[...]` groups
    (`\\hspace{1em}`, `\\xrightarrow{or}`, `\\raisebox{0pt}{=}`), up to one that is a value
    (`\\approx{8}` is `\\approx 8`)."""
    while at < len(text) and text[at] in "{[":
        opening = text[at]
        closing = "}" if opening == "{" else "]"
        depth = 0
        for end in range(at, min(len(text), at + 400)):
            depth += (text[end] == opening) - (text[end] == closing)
            if depth == 0:
                break
        else:
            return len(text)
        if _side_value(text[at + 1:end]) is not None:
            break
        at = end + 1
    return at


def _same_value(left: str, first: Number | float, right: str, second: Number | float,
                sign: str = "=") -> bool:
    """Whether two sides are one value: a number stated beside the other side's value, to its
    printed places (`_same_number`, `equals_as_printed`), or two constants equal as floats.
    Joined by `or` (`_OR_SIGNS`), a rounding is not the value (`0.33 \\lor \\frac{1}{3}` is
    two values): the two must be equal."""
    if sign in _OR_SIGNS and not math.isclose(_as_float(first), _as_float(second), rel_tol=1e-9):
        return False
    if isinstance(first, Number) and isinstance(second, Number):
        return _same_number(left, second) or _same_number(right, first)
    if isinstance(first, Number) or isinstance(second, Number):
        number, value = (first, second) if isinstance(first, Number) else (second, first)
        return isinstance(number, Number) and isinstance(value, float) and equals_as_printed(
            number, value, number.value / 100 if number.percent else None)
    return math.isclose(first, second, rel_tol=1e-9)


_OR_SIGNS = frozenset({"\\lor", "\\vee", "or", "\u2228"})


def _as_float(value: Number | float) -> float:
    """A side's value as a float (a percent as its hundredth)."""
    if isinstance(value, Number):
        return float(value.value / 100 if value.percent else value.value)
    return value


def _constant(text: str) -> float | None:
    """The value of a constant expression (`\\frac{1}{2}`, `\\sqrt{2}`, `-7`), else None."""
    found = evaluate(text) if text.strip() else None
    return None if found is None or found[1] else found[0]


def hedges(answer: str, gold: str) -> bool:
    """True when a normalized answer joins two values by a relation or a connective
    (`_joining_sign`: `7 \\lor 8`, `7 = 8`, `7 \\approx 8`, `\\frac{1}{2} \\lor 1`) and the
    normalized gold is one number or constant (`\\sqrt{2}`): the answer commits to no value
    of its own (a hedge, or a statement about two), so the pair is `wrong` (`HEDGED`), never
    shown to a judge, whose yes the gold among the values would buy. Against a gold of
    several values (`2, 3`) the sign is a word the gold does not hold (`qualifiers`):
    uncertain, the judge's."""
    if len(answer) <= 2000 and ("\\{" in answer or "brace" in answer):
        answer = _SINGLETON.sub(r" \1 ", answer)  # (`\\{7\\} \\vee \\{8\\}` against 7: 7 and 8)
    if len(answer) <= 2000 and ("(" in answer or "[" in answer):
        answer = _BRACKETED_RELATION.sub(_bracketed_value, answer)  # `x = 7 (x = 8)`: 7 and 8
    listed = len(answer) <= 2000 and (_stacked(answer) or any(
        _LISTED.search(_LIST_OPERAND.sub("0", text)) is not None
        or any(_named_value(found) for found in _NAMED_LISTED.finditer(text))
        for text in (answer, _as_rendered(answer))))
    return (_joining_sign(answer) is not None or listed) and (
        parse_number(gold) is not None or _constant(gold) is not None)


# A relation in brackets (of any size) right after a value (`x = 7 (x = 8)`, `7 [= 8]`, `x = \\frac{14}{2} (x
# \\approx 8)`, normalized from `\\left( ... \\right)` and `\\ (`): a second value the
# bracket gives (a name's, or none), read as joined to the first (`=` as `\\lor`, so that
# `\\frac{14}{2} (x = 8)` is no working; an approximation as itself, `\\sqrt{2} (\\approx
# 1.414)` is one value): two answers where they differ. A condition in brackets (`x = 7 (x >
# 0)`, `x \\ne 8`, `x \\in \\mathbb{Z}`) gives no value and is not read here; nor a bracket after a
# name (`P(A = 1) = 0.5`, `g(x=2) = 7`) or holding no relation (`7 (cm)`, `(1, 2)`).
_BRACKETED_RELATION = re.compile(
    r"(?<=[\d%}')\]])\s{0,3}(?:\\[bB]igg?l?\s{0,3})?[(\[]\s{0,3}(?:" + _NAME.pattern
    + r"\s{0,3})?(=|\\approx(?![a-zA-Z])|\u2248)\s{0,3}([^()\[\]=]{1,80}?)\s{0,3}(?:\\[bB]igg?r?\s{0,3})?[)\]]")


def _bracketed_value(found: re.Match[str]) -> str:
    """A `_BRACKETED_RELATION` as the join of its value to the value before it."""
    sign = "\\lor" if found[1] == "=" else found[1]
    return f" {sign} {found[2]}"


# A set of one numeral (`\\{7\\}`, `\\lbrace 7 \\rbrace`, sized or not), against a gold of one value:
# its one value, whatever joins it to another (`\\{7\\} \\cup \\{8\\}`, `\\{7\\}, \\{8\\}`, `\\{7\\} \\vee
# \\{8\\}`: 7 and 8, a hedge between them).
_SINGLETON = re.compile(r"(?:\\(?:left|[bB]igg?l?)\s{0,3})?(?:\\\{|\\lbrace(?![a-zA-Z]))\s{0,3}"
                        r"([-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)%?)\s{0,3}(?:\\(?:right|[bB]igg?r?)\s{0,3})?"
                        r"(?:\\\}|\\rbrace(?![a-zA-Z]))")
# Two numerals listed (`7, 8`, `\\{6, 8\\}`, `\\{7\\} \\{8\\}`, `7 \\text, 8` as rendered), a function's
# value among them (`\\max(7), 8`: `_LIST_OPERAND` is read as a numeral there) or one name's
# values (`x = 7, x = 8`, `_NAMED_LISTED`): against a gold of one value, a hedge between them (a
# digits' group, `1, 000`, is one numeral).
_LISTED = re.compile(r"(?:(?<=[\d%'\u2032\u2033])|(?<=\d[)\]]))\s{0,3}(?:,\s{1,3}|\\\}\s{0,3}(?:(?:\\cup(?![a-zA-Z])|\u222a)\s{0,3})?"
                     r"\\\{\s{0,3})(?=[-+]?\.?\d)(?!\d{3}(?!\d))")
# Values in the rows of an environment that stacks rows and that no bracket stands around
# (`\\begin{array}{c} 7 \\\\ 8 \\end{array}`, `\\begin{align} \\frac{14}{2} \\\\ 8 \\end{align}`,
# `\\begin{dcases} 7 \\\\ 8 \\end{dcases}`): listed, as above. Every environment stacks its rows so,
# by one rule, but those that set them in brackets (`_IN_BRACKETS`: `pmatrix`, `bmatrix`, small
# or starred), as does a bracket right before one: one value, a vector or a binomial
# (`\\left(\\begin{array}{c}5\\\\2\\end{array}\\right)`); in braces or bars (`_OF_COLUMNS`:
# `Bmatrix`, `vmatrix`, `Vmatrix`) only one with columns is one value (a determinant): one of one
# column is a list of its rows, no determinant, no set read as its last row. A row is a value where
# `_side_value` reads it (its cells' `&` dropped), or numerals open its first rows; rows that join
# two values as the join rules read them, row breaks read as what they render (`x = 7 \\\\ x = 8`,
# `x = 7 \\\\ \\text{or } 8`), are a hedge too. An environment's arguments before its rows are read
# as TeX reads them (`_ARGUMENTS`: `array`'s columns, `tabular*`'s width and columns; `[t]`).
_STACKING = re.compile(r"\\begin\{([a-zA-Z]{1,30}\*?)\}")
_IN_BRACKETS = re.compile(r"[pb](?:small)?matrix\*?")
_OF_COLUMNS = re.compile(r"[BvV](?:small)?matrix\*?")
# The delimiter right before an environment, by any spelling (sizes and `\\left` read before):
# braces and bars (group 1: `\\{`, `\\lbrace`, `|`, `\\|`, `\\vert`, `\\Vert`) set its rows as
# `_OF_COLUMNS` does; brackets (group 2: `(`, `[`, `\\lbrack`, `\\langle`) and a grouping brace
# (`{`) as `_IN_BRACKETS` does; else none.
_OPENED_BY = re.compile(r"(?:(\\\{|\\lbrace|\\[lr]?[vV]ert|\\\||(?<!\\)\||\u2016)|(\(|\[|\\lbrack|\\langle|\\lgroup|"
                        r"(?<!\\)\{))(?:\s|\\(?:left|[bB]igg?l?)(?![a-zA-Z]))*\Z")
_ARGUMENTS = {"array": 1, "subarray": 1, "tabular": 1, "tabular*": 2, "tabularx": 2, "tabulary": 2,
              "alignat": 1, "alignat*": 1, "alignedat": 1, "xalignat": 1, "xalignat*": 1,
              "longtable": 1, "longtable*": 1}
_OPTIONAL_ARGUMENT = re.compile(r"\s{0,3}\[[^\[\]{}]{0,20}\]")
_ARGUMENT = re.compile(r"\s{0,3}\{(?:[^{}]|\{[^{}]{0,20}\}){0,40}\}")
_BODY = re.compile(r"(?:(?!\\end\{)[^$]){0,400}")
_FIRST_ROWS_NUMERALS = re.compile(r"[^\\]{0,80}\d\s{0,3}" + _ROW_BREAK + r"\s{0,3}[-+]?\.?\d")


def _stacked_bodies(answer: str) -> list[str]:
    """The bodies (up to 400 characters) of the environments of `answer` that stack rows with no
    bracket around them (`_STACKING`), after their arguments (`_ARGUMENTS`)."""
    bodies = []
    for found in itertools.islice(_STACKING.finditer(answer), 20):
        name = found.group(1)
        opened = _OPENED_BY.search(answer, max(found.start() - 40, 0), found.start())
        kind = "" if opened is None else "brace" if opened.group(1) else "bracket"
        if _IN_BRACKETS.fullmatch(name) or kind == "bracket":
            continue
        at, needed = found.end(), _ARGUMENTS.get(name, 0)
        for _ in range(4):  # (`[t]`, `{c}`; `tabular*`: `{1cm}[t]{c}`)
            argument = _OPTIONAL_ARGUMENT.match(answer, at)
            if argument is None and needed:
                argument = _ARGUMENT.match(answer, at)
                needed -= argument is not None
            if argument is None:
                break
            at = argument.end()
        body = _BODY.match(answer, at)
        if body is not None and (_OF_COLUMNS.fullmatch(name) or kind == "brace") and "&" in body.group(0):
            continue  # (a matrix in braces, a determinant: one value)
        bodies.append(body.group(0) if body is not None else "")
    return bodies


def _stacked(answer: str) -> bool:
    """Whether an environment no bracket opens right before holds two or more rows that are
    each a value (or numerals in its first rows), or rows the join rules read as a hedge."""
    for body in _stacked_bodies(answer):
        rows = _ROW_BREAKS.split(body)[:20]
        if len(rows) < 2:
            continue
        if _FIRST_ROWS_NUMERALS.match(body) or sum(
                _side_value(row.replace("&", " ")) is not None for row in rows) >= 2:
            return True
        if _joining_sign(_restated_once(body.replace("&", " "))) is not None:
            return True
    return False


# The values a function of several values is applied to (`\\max(7, 8)`, `\\gcd(8, 12)`,
# `lcm(8, 12)`): its operand, no list.
_LIST_OPERAND = re.compile(r"(?<![A-Za-z])\\?(?:max|min|gcd|lcm)\s{0,3}(?:\(|\\\{)[^(){}]{0,400}(?:\)|\\\})")


# A number and a unit after it (`5 kW`, `5 N/m^2`): the unit is the value's scale; left in a
# normalized answer, it is one `normalize` did not drop (not the gold's unit).
# (written with no space, a unit of one letter may be a variable: `5m`, `1,000.99m^2`)
_NUMBER_AND_UNIT = re.compile(r"^[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(\s*(([A-Za-z]+)[A-Za-z\s/^{}()\d.\-]*))$")
_UNIT_JOINS = frozenset({"per", "square", "sq", "cubic", "cu"})
# A command that opens an answer right before its number (`\\nleq 5`, `\\lessgtr 5`): a
# relation or a sign the rules do not read unless it is known to open a value.
_OPENING_COMMAND = re.compile(r"\s*\\([a-zA-Z]+)(?=\s*[-+]?\s*\.?\d)")
_VALUE_OPENERS = frozenset("""
    pm mp sqrt frac cfrac binom sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh log ln lg
    exp lfloor lceil pi angle measuredangle boxed fbox bf rm mathbf mathrm boldsymbol large Large
    LARGE huge Huge small
""".split())  # noqa: SIM905 (a word list reads better as words)
# Signs that make a value a part of a thousand or ten thousand (`5‰` is 0.005), from the
# character names.
_PER_MILLE_SIGNS = frozenset(
    chr(code) for code in range(0x0600, 0x3000)
    if any(part in unicodedata.name(chr(code), "") for part in ("PER MILLE", "PER TEN THOUSAND")))
# A run of letters in a normalized answer, not a LaTeX command (`_is_prose_word` says which
# runs are prose).
_PROSE_WORD = re.compile(r"(?<!\\)(?<![^\W\d_])[^\W\d_]+")  # a run of letters, any script
# Letters that are mathematics in any script: Greek (`2π`), letterlike symbols (`ℝ`), micro.
_MATH_LETTERS = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff\u2100-\u214f\u00b5]+")
_ENVIRONMENT = re.compile(r"\\(?:begin|end)\s*\{[a-zA-Z*]*\}")  # `\\begin{pmatrix}`: markup
# Function names a normalized answer writes bare (`\operatorname{lcm}` unwrapped): math.
_FUNCTION_WORDS = frozenset({
    "gcd", "lcm", "max", "min", "det", "arg", "sgn", "sign", "rank", "span", "dim", "ker",
    "deg", "mod", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "sec", "csc", "cot",
    "exp", "log", "sqrt", "sin", "cos", "tan", "infty", "inf", "sup", "lim", "floor", "ceil",
    "and", "true", "false", "yes"})


UNCERTAIN = "uncertain:"
"""How a verdict's detail begins where the rules cannot decide a pair: words they cannot read
(`qualifiers`: `uncertain: not read as a unit, not in the gold: ...`), or an answer that is not
the text of a gold read whole (`sentence_key`). `wrong` by default; a judge, where one is
configured, is asked (even with `ask: undecided`), except beside the box (`BESIDE_THE_BOX`)."""
BESIDE_THE_BOX = f"{UNCERTAIN} beside the box,"
"""How a verdict's detail begins where what stands after a box (glued to it, `\\boxed{7}th`, or
in the sentences after it, `\\boxed{7}. IDK.`, `\\boxed{7} ❌`) is not read (`Extraction.uncertain`):
`wrong`, and never shown to a judge, which would be shown the box alone and asked whether its
value is the gold's, not whether the reply committed to it."""
RESTATED = "the answer restates the question:"
"""How a verdict's detail begins where the answer is the question's own expression, not a
value it commits to (`restates_question`): `wrong`, and never shown to a judge."""
HEDGED = "the answer joins two values:"
"""How a verdict's detail begins where the answer is two values joined by a relation or a
connective and the gold is one number (`hedges`): `wrong`, and never shown to a judge."""
ENDS_IN_A_SIGN = "the answer ends in a sign:"
"""How a verdict's detail begins where the answer ends in an operator or relation sign (`5+`,
`5 \\geq`, `5 \\pm`: 5 or more, 5 give or take): no value of its own; `wrong`, and never
shown to a judge."""
OTHER_KIND = "money for a question of another kind:"
"""How a verdict's detail begins where the answer is an amount of money and the question asks
a quantity of another kind (`money_unasked`: `\\$7` for `How old is she?`): `wrong`, and never
shown to a judge."""
FINAL_FORMS = ("magnitude", RESTATED, HEDGED, BESIDE_THE_BOX, ENDS_IN_A_SIGN, OTHER_KIND)
"""How the details of the verdicts the rules reach about the answer's own form begin (its size,
the question restated, two values joined, what stands beside the box, a sign it ends in,
money for another kind): final, never a judge's to overturn, under any `ask`."""
MAX_QUALIFYING_WORDS = 3
"""A value with more unknown words than this is a sentence (`Jane started growing Sphere 3
hours ago`), read by math-verify's rules; there only the words of `_VALUE_WORDS` qualify."""


def qualifiers(answer: str, sentence: bool = False) -> frozenset[str]:
    """What in a normalized answer may change its value and is not read as mathematics: its
    words of prose (what the unit allow-list kept: `halves`, `lakh`, `factorial`, `negative`,
    `or more`) and its negations (`\\neg`), its per-mille signs (`‰`), the currency signs and
    units `normalize` kept (`€5` against `\\$5`, `5 kW` against `5 W`), a base read as its
    number (`_{(2)}`, `_{two}`: base 2) and a command opening it that is not known to open a
    value (`\\nleq 5`: `_VALUE_OPENERS`). An answer holding one that the gold does not hold
    says something else than the gold, or the rules cannot tell: `_fast` makes the pair
    `wrong` (the judge's to decide where one is configured). `sentence`: the answer is known
    to be prose around a value (a number found unmarked in a reply's final sentence), read as
    a sentence whatever its number of words, where a word of two letters is a word (`7 or
    8`, `no`), not a product of variables."""
    found = _prose_words(answer, shortest=2 if sentence else 3)
    if sentence or len(found) > MAX_QUALIFYING_WORDS:  # a sentence: math-verify reads its value
        found &= _VALUE_WORDS  # (`Sphere 3 hours ago`); the words known to change one count
    found.update(match.group(0) for match in _NEGATIONS.finditer(answer))
    opening = _OPEN_RELATION.match(answer)
    if opening is not None and not (opening.group(1) == "<" and ">" in answer):  # `<1, 2>`
        found.add(opening.group(1))
    found.update(f"base {_base_of(match.group(1)) or match.group(1)}"
                 for match in _BASE.finditer(answer))
    opener = _OPENING_COMMAND.match(answer)  # `\\nleq 5`, `\\thicksim 5`: not read
    if opener is not None and opener.group(1) not in _VALUE_OPENERS:
        found.add(f"\\{opener.group(1)}")
    found.update(ch for ch in answer if ch in _PER_MILLE_SIGNS)
    joined = _joining_sign(answer)
    # `7 \\lor 8`, `7 = 8`, `7 \\approx 8`: a hedge or a false statement (a word is prose, read
    # as such, `7 or 8`; `;` parts a list, `-12;-11`, read by the rules of lists)
    if joined is not None and not joined.isalpha() and joined != ";":
        found.add(joined)
    unit = _NUMBER_AND_UNIT.match(answer) if len(answer) <= 80 else None
    if unit is not None and (unit.group(1) != unit.group(2) or len(unit.group(3)) > 1) and all(
            _unit_id(word) is not None or word.lower() in _UNIT_JOINS
            for word in re.findall(r"[A-Za-z]+", unit.group(2))):
        found.add(unit.group(2))  # `5 kW` against `5 W`: a unit `normalize` kept
    found.update(match.group(0) for match in _CURRENCY_SIGN.finditer(answer)  # (`_currency_signs`
                 if match.group(0) == "\\$" or _is_currency_sign(match.group(0)))  # kept it)
    found.update("% of" for _ in _PERCENT_OF.finditer(answer))
    dotted = (match.group(0).lower().rstrip(".") for match in _DOTTED.finditer(answer))
    # in a sentence (`\\boxed{7}, i.e. seven`) only the dotted words known to change a value
    found.update(word for word in dotted if not sentence or changes_value(word.replace(".", "")))
    short = _SHORT_VALUE.search(answer, max(len(answer) - 40, 0))
    if short is not None and _short_magnitude(short.group(1)):
        found.add(short.group(1))
    return frozenset(found)


# Words known to leave a value the answer when a clause says them of it (`\\boxed{7} is the
# final answer`, `7 is our answer`, `\\boxed{12} is the total number`): an allow-list of
# articles and words that name an answer or a quantity. Any other word said of a value
# (`is wrong`, `is not the answer`, `was my first guess`, `is too small`) may unsay it.
_AFFIRMING = frozenset("""
    the an of our my this that its such indeed also here answer answers solution solutions result
    results value values number numbers total amount sum count quantity final correct right
    option options choice choices
    required desired exact true be will must
    der die das den dem des la le les el los las il lo gli un une una uno ein eine o os as
    antwort lösung ergebnis endergebnis réponse solution résultat respuesta solución resultado
    risposta soluzione risultato resposta solução ответ решение результат ответом
    endgültige endgültig finale final finales richtig richtige korrekt correcte correct
    correcta correcto corretta corretto correta certo certa juste bonne buena правильный
    правильно верно верный итоговый окончательный
""".split())  # noqa: SIM905 (a word list reads better as words)
# The characters of the Chinese words above (答案, 正确, 最终, 结果, 解): a run of Chinese said of a
# value affirms it when each of its characters is one of these (`是正确答案`, `是最终的答案`).
_AFFIRMING_CJK = frozenset("答案正确最终的结果解值对就")


# What a clause that leaves its value the answer is written with: letters and digits of any
# script, spaces, sentence punctuation (a `!` after a digit or a bracket is a factorial, and a
# second `!` after it: `5!!`), markdown emphasis,
# a hyphen inside a word, spacing and end-of-proof marks. Any other sign or command says
# something of the value in mathematics (`is $\\sqrt{7}$`, `is $7^{7}$`, `is ≠ the answer`).
_SAID_PLAINLY = re.compile(
    r"(?:[^\W_]|\s|[.,;:?'’\"()*]|(?<![\d})\]!])!+|(?<=[^\W\d_])-(?=[^\W\d_])|(?<=\d)\\?%"
    r"|(?<![\d}])-(?=\d)|(?<=\d)\{,\}(?=\d)|(?<=\d\s)\\?%"
    r"|\\(?:qquad|quad|blacksquare|square|qed|checkmark)(?![A-Za-z])|\\[,;:! ])*")


def affirms(said: str, value: str, carried: frozenset[str] = frozenset(),
            asked: frozenset[str] = frozenset(), percent_asked: bool = False) -> bool:
    """True when what a clause says of the value it opens with (`Extraction.said`: `the
    answer` of `\\boxed{7} is the answer`) is known to leave the value its answer: only words
    of `_AFFIRMING`, units, the gold's words (`carried`), single letters (variables), numbers
    that `value` holds, and the question's words (`asked`) where they name what the value is
    a value of: after a determiner or a number (`is the smallest such n` for "Find the
    smallest n ...", `is 7 apples`), never what is said of the value itself (`is different
    from the answer`, `is wrong`, `is incorrect`, however the question spells them) nor a
    qualifier of an answer word (`is the wrong answer`). Anything else is said of the value and
    may unsay it (`is wrong`, `is not the answer`, `was my first guess`, `is 8`): the reply
    took the value back."""
    if _SAID_PLAINLY.fullmatch(said) is None:
        return False
    said = numbers_in_words(said)  # `or seven`, `or one half`, `or 1 million`, `or 50 percent`
    said = _SAME_VALUE_JOINS.sub(" ", said)  # `or equivalently 7.0`, `, i.e. 7 apples`
    number = _read_number(value)
    stated = [found.group(0) for found in _STATED_NUMBER.finditer(said)]
    if number is not None:  # a number: each stated one is it, written another way
        if not all(_same_number(text, number, percent_asked) for text in stated):
            return False
    elif stated:  # an expression: only all of its numbers, in order, restate it (`is the
        held = [found.group(0) for found in _STATED_NUMBER.finditer(value)]  # point (2, 3)`)
        if len(held) < 2 or stated != held:
            return False
    named = False  # past a determiner or a number: the question's words name the value's kind
    tokens = _SAID_TOKEN.findall(_ENVIRONMENT.sub(" ", said))
    last_answer_word = max((at for at, token in enumerate(tokens)
                            if token.lower() in _ANSWER_WORDS), default=-1)
    for at, token in enumerate(tokens):
        word = token.lower()
        if token in ",;" or word in _RELATIVES and at and tokens[at - 1].lower() not in (
                _DETERMINERS | _AFFIRMING_VERBS):
            named = False  # `is the answer, wrong`, `is the answer that is wrong`: what
            continue  # follows is said of the value again
        if token[0].isdigit():
            named = True
            continue
        if word in _DETERMINERS:
            named = True
        joined = [following for following in tokens[at + 1:at + 3] if following != ","][:1]
        if word in _OR_WORDS and joined and joined[0][0].isdigit():
            continue  # `or 0.25`, `Or, 5` of `\frac{1}{4}`, 5: an equal number (read above)
        if word == "one" and at and tokens[at - 1].lower() in _BEFORE_PRONOUN:
            continue  # `is the correct one`: a pronoun, not the number (`numbers_in_words`)
        if word in _WORD_VALUES:  # a number word `numbers_in_words` left: not a value said
            return False
        if _CJK.fullmatch(token) and all(ch in _AFFIRMING_CJK for ch in token):
            continue
        if not (len(token) == 1 and not _CJK.fullmatch(token) and not _spelled_out(tokens, at)
                or word in _AFFIRMING or word in carried
                or _known_unit(token)
                or named and word in asked and at > last_answer_word):
            return False
    return True


def _spelled_out(tokens: list[str], at: int) -> bool:
    """True when the one-letter token at `at` stands beside another (`is n o t the answer`,
    `w r o n g`): a word spelled out, not a variable."""
    return any(0 <= near < len(tokens) and len(tokens[near]) == 1 and tokens[near].isalpha()
               for near in (at - 1, at + 1))


def names_an_answer(word: str) -> bool:
    """True for a word known to leave a value the answer when said of it (`_AFFIRMING`:
    `answer`, `total`, `final`, articles), not a unit."""
    return word.lower() in _AFFIRMING


_CJK = re.compile(r"[\u4e00-\u9fff]+")
_OR_WORDS = frozenset({"or", "oder", "ou", "o", "или", "либо", "或", "或者"})
_STATED_NUMBER = re.compile(  # (after a comma only when no digit stands before it: `is 7,000`)
    r"(?<![\d.])(?<!\d,)-?\d(?:[\d,]|\{,\})*(?:\.\d+)?(?:[eE][-+]?\d{1,3})?(?:\s?\\?%)?")


def _read_number(text: str) -> Number | None:
    """`text` read as one number (`parse_number`; `7{,}000` as `7,000`, `1e1` as 10), or None."""
    cleaned = re.sub(r"\\[,;:! ]|\{,\}|~", lambda m: "," if m.group(0) == "{,}" else "",
                     text).replace("\\%", "%").strip()
    number = parse_number(cleaned)
    if number is None and _E_NOTATION.fullmatch(cleaned):
        number = Number(Fraction(Decimal(cleaned)), True, False, Fraction(0))
    return number


def _same_number(stated: str, value: Number, percent_asked: bool = False) -> bool:
    """True when a number said of a value (`it is 0.5`, `or 25%`) is that value written
    another way (`\\frac{1}{2}`, `\\frac{1}{4}`), to the stated number's printed precision
    (`0.333` of `\\frac{1}{3}`; the value's own precision excuses nothing finer, `0.46` of
    `0.5` is another number). A percent sign on one side only is its hundredth (`25%` of
    `\\frac{1}{4}`; `7%` of 7 is another value), but where the question asks for a percent
    (`percent_asked`) the box is one already: the sign is dropped (`7%` of 7; `700%` of 7 is a
    hedge)."""
    first = _read_number(stated)
    if first is None:
        return False
    a, b = first.value, value.value
    if first.percent != value.percent and not percent_asked:  # `25%` of `\\frac{1}{4}`
        a = a / 100 if first.percent else a
        b = b / 100 if value.percent else b
    return equals_as_printed(first, b, a)


def equals_as_printed(number: Number, value: Fraction | float, read: Fraction | None = None) -> bool:
    """Whether `value` is the `number` a reply printed, to the places it prints: within half a
    unit of its last printed place for a decimal (`1.414` of `\\sqrt{2}`, `0.333` of
    `\\frac{1}{3}`; `0.46` of `0.5` is another number), exactly for a whole number or a
    fraction. `read` is the printed number's value as compared where it is not `number.value`
    (a percent's hundredth); a whole number against a float `value` (the float arithmetic's:
    `\\sqrt{49}`) is allowed that arithmetic's rounding (1e-9 relative). The one rule of a
    number stated beside a value (`_same_number`, and a bracket or an aside after a box:
    `_extract._approximates`, `_extract._other_value`)."""
    stated = number.value if read is None else read
    if isinstance(value, float):
        slack = float(number.half_unit) if number.decimal else 1e-9 * max(1.0, abs(value))
        return abs(float(stated) - value) <= slack
    return abs(stated - value) <= (number.half_unit if number.decimal else Fraction(0))


_E_NOTATION = re.compile(r"(?<![\d.-])-?\d+(?:\.\d+)?[eE][-+]?\d{1,3}")
# A question that asks for a percent (`What percent ...?`, `... as a percentage`), not one
# that only mentions one (`A 10% tax is added.`).
_PERCENT_ASKED = re.compile(
    r"(?:what|which|how\s+many|how\s+much)\s+(?:per\s?cent(?:age)?|%)|"
    r"(?:as|in|by|to)\s+(?:a\s+)?per\s?cent(?:age)?(?![\w])|"
    r"(?:wie\s+viel(?:e)?\s+prozent|quel\s+pourcentage|qué\s+porcentaje|百分之几|百分比)",
    re.IGNORECASE)


def asks_for_percent(question: str | None) -> bool:
    """True when a question asks for a percent (`What percent of ...?`): its answer's box is
    a percent already (`affirms`: `7%` restates `\\boxed{7}`)."""
    return question is not None and _PERCENT_ASKED.search(question[:MAX_QUESTION_CHARS]) is not None
# Words that join a value to the same value written another way (before a number): dropped
# before reading (`or equivalently 7.0`).
_SAME_VALUE_JOINS = re.compile(r"(?<![\w\\])(?:equivalently|in\s+other\s+words|i\.\s?e\.|"
                               r"that\s+is|namely|simply|exactly)(?![\w\\])(?=[\s,]*-?\d)",
                               re.IGNORECASE)
# Number words a clause may state a value with (`or seven`, `twenty-one`, `one hundred`), by
# their values: the units and teens, the tens, and the words that multiply what precedes
# them (`_MAGNITUDES`: `hundred`, `thousand`, `million` ...).
_NUMBER_NAMES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                 "fourteen fifteen sixteen seventeen eighteen nineteen")
_WORD_VALUES = {word: Fraction(value) for value, word in enumerate(_NUMBER_NAMES.split())}
_TENS = {word: Fraction(10 * value) for value, word in enumerate(
    ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], start=2)}
_WORD_VALUES.update(_TENS)
# Fractions in words (`one half`, `two thirds`, `a quarter`), by their denominators.
_DENOMINATORS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
                 "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
                 "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8, "ninth": 9,
                 "ninths": 9, "tenth": 10, "tenths": 10}
_NUMBER_WORD = "|".join(sorted([*_WORD_VALUES, *_MAGNITUDES, *_DENOMINATORS], key=len,
                               reverse=True))
# A run of number words (joined by spaces, hyphens and `and`), or digits and magnitude words
# (`1.5 million`), or a number and `percent` / a spaced `%`: what `numbers_in_words` reads.
_DIGIT_WORD = "|".join(_NUMBER_NAMES.split()[:10])
_FRACTION_WORD = "|".join(sorted(_DENOMINATORS, key=len, reverse=True))
_NUMBER_PHRASE = re.compile(
    rf"(?<![\w.\\])(?<!\d,)(?:(?:\d+(?:\.\d+)?|a|an)(?=[\s-]+(?:{_NUMBER_WORD})(?![\w\\]))|"
    rf"(?:{_NUMBER_WORD})(?![\w\\]))(?:(?:[\s-]+|\s+and\s+)(?:{_NUMBER_WORD})(?![\w\\])|"
    rf"\s+and\s+an?\s+(?:{_FRACTION_WORD})(?![\w\\])|"
    rf"\s+point(?:\s+(?:{_DIGIT_WORD}))+(?![\w\\]))*"
    r"|(?<=\d)\s*(?:\\?%|per\s?cent(?![\w\\]))"
    r"|(?<![\w.\\])(?<!\d,)\d+(?:\.\d+)?[kK](?![\w\\])", re.IGNORECASE)
_PLACES = 40
"""A fraction in words that no decimal writes exactly (`one third`) is written to this many
places: finer than any printed precision a reply is read to (`_same_number`)."""


def numbers_in_words(said: str) -> str:
    """`said` with each number it writes in words written in digits, as a reader reads it:
    `or seven` as `or 7`, `twenty-one` as `21`, `one hundred` as `100`, `7 thousand` as
    `7000`, `one half` as `0.5`, `one and a half` as `1.5`, `seven point five` as `7.5` (to
    the places it writes), `1.5k` as `1500`, `50 percent` and `50 %` as `50%`. A run that is no number
    of English grammar (`seven seven`, `hundred one`) is left as words, and `one` alone
    after a determiner or an answer word is a pronoun (`is the correct one`), left too: the
    comparison reads what is left as words (`affirms`)."""
    def read(match: re.Match[str]) -> str:
        phrase = match.group(0)
        if phrase[:1].isspace() or phrase[:1] in "%\\" or phrase[:1].lower() == "p":
            return "%"  # `50 %`, `50 percent`: the number's percent
        before = _WORD_BEFORE.search(said, max(match.start() - 40, 0), match.start())
        if phrase.lower() == "one" and before and before.group(1).lower() in _BEFORE_PRONOUN:
            return phrase  # `the correct one`
        if phrase[-1:] in "kK":  # `1.5k`: a thousand glued to a number in prose
            return format((Decimal(phrase[:-1]) * 1000).normalize(), "f")
        words = re.split(r"[\s-]+", phrase.lower())
        value = _number_of_words(words)
        if value is None:
            return phrase
        if "point" in words:  # `seven point five`: the decimal as written, to its places
            places = len(words) - words.index("point") - 1
            return format(Decimal(value.numerator) / Decimal(value.denominator), f".{places}f")
        if value.denominator == 1:
            return str(value.numerator)
        whole, places = divmod(round(value * 10 ** _PLACES), 10 ** _PLACES)
        return f"{whole}.{places:0{_PLACES}d}"
    return _NUMBER_PHRASE.sub(read, said)


def magnitude_after(value: str, after: str) -> str | None:
    """`value` (a number a box or a clause gives) with the magnitude words that follow it,
    when they make one number of it as `numbers_in_words` reads a run (`7` and ` thousand
    dollars`: `7 thousand`, 7000; ` dozen`: `7 dozen`, 84): the words a reader reads with the
    value, unlike a unit. A percent after the run makes it a percent (` hundred percent.`:
    700%, `7`); more words after that percent leave the reading open (` hundred percent
    sure`: the whole clause, which the comparison cannot read as a value). None when no
    magnitude word follows the value (`7 apples`, `7 or eight`), the run is no number of
    English grammar (`7 thousand thousand`) or a hyphen joins its last word to another
    (`thousand-th`, an ordinal; `thousand-dollar`). Where the question counts in the
    magnitude word (`How many dozen`), the comparison reads it as the unit
    (`counted_magnitude`)."""
    if _PLAIN_NUMBER.fullmatch(value) is None:
        return None
    run = _NUMBER_PHRASE.match(value + after)
    if run is None or run.end() <= len(value):
        return None
    words = re.split(r"[\s-]+", run.group(0)[len(value):].strip().lower())
    if not all(word in _MAGNITUDES for word in words):
        return None  # `7 eighths`, `3 quarters`: a fraction word after a count may name a thing
    amount = _number_of_words([value, *words])
    rest = (value + after)[run.end():]
    if amount is None or _COMPOUND.match(rest):
        return None  # `7 thousand-th`: an ordinal, a fraction word; `thousand-fold`, `-dollar`
    percent = _PERCENT_AFTER.match(rest)
    if percent is not None:  # `7 hundred percent` is 700%: 7; followed by more, a reader
        if rest[percent.end():].strip(_PUNCT + "!?"):  # cannot tell (`hundred percent sure`)
            return " ".join([value, *words, *rest.split()])
        return format((Decimal(amount.numerator) / Decimal(amount.denominator) / 100).normalize(), "f")
    return " ".join([value, *words])


def counted_magnitude(value: str, words: str, question: str | None) -> bool:
    """True when `words` is `value` with the magnitude words `magnitude_after` read with it
    (`12 dozen`) and the question counts in the last of them (`How many dozen eggs ...?`,
    `the number of dozens`, `in thousands`): there the word names what is counted, the unit
    of the answer, not a multiplier of it."""
    rest = words[len(value):].split() if question and words.startswith(value) else []
    if not rest or not all(word.lower() in _MAGNITUDES for word in rest):
        return False
    word = re.escape(rest[-1].lower())
    return re.search(rf"(?<![\w])(?:how\s+many\s+{word}s?|(?:number\s+of|in)\s+{word}s)(?![\w])",
                     (question or "")[:MAX_QUESTION_CHARS], re.IGNORECASE) is not None


_COMPOUND = re.compile(r"-[^\W\d_]")  # a hyphen joining the magnitude word to another
_PERCENT_AFTER = re.compile(r"(?<!\s)\s*(?:per\s?cent(?![\w\\])|\\?%)", re.IGNORECASE)


_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
def symbol_numbers(text: str) -> str:
    """`text` with the numbers Unicode writes as one symbol read as the numbers they are, from
    the character data (`unicodedata`, never a list of seen symbols): a vulgar fraction alone
    or after a whole number, glued or one space apart, as its value (`7½`, `7 ½` as `7.5`, `⅓`
    to `_PLACES` places, as `numbers_in_words` writes `one third`), superscripts after a digit
    or a bracket as the power they write, a sign and letters included (`7²` as `7^{2}`, `7⁻¹`
    as `7^{-1}`, `7²ˣ` as `7^{2x}`). A symbol after a letter is left (`m²`, `s⁻²`: a unit)."""
    return _SYMBOL_NUMBER.sub(_symbol_number, text) if _SYMBOL_CHARS.search(text) else text


def _symbol_number(match: re.Match[str]) -> str:
    if match.group("power") is not None:
        return "^{" + unicodedata.normalize("NFKC", match.group("power")).replace("\u2212", "-") + "}"
    value = Fraction(match.group("whole") or 0) + Fraction(
        unicodedata.numeric(match.group("fraction"))).limit_denominator(1_000)
    if value.denominator == 1:
        return str(value.numerator)
    whole, places = divmod(round(value * 10 ** _PLACES), 10 ** _PLACES)
    return f"{whole}.{places:0{_PLACES}d}".rstrip("0")


def _symbols(kind: str) -> str:
    """The characters (of the Basic Multilingual Plane's first block of symbols) whose
    decomposition is of `kind` (`<fraction>`, `<super>`) and reads as a number."""
    found = []
    for code in range(0x00A0, 0x2190):
        char = chr(code)
        if not unicodedata.decomposition(char).startswith(kind.split("-")[0].rstrip(">") + ">"):
            continue
        plain = unicodedata.normalize("NFKC", char)
        if kind == "<fraction>" and unicodedata.numeric(char, None) is not None or \
                kind == "<super>" and plain.isdigit() or \
                kind == "<super-sign>" and plain in "+-\u2212" or \
                kind == "<super-letter>" and len(plain) == 1 and plain.isalpha() and code >= 0x02B0:
            found.append(re.escape(char))  # (not `ª`, `º`: ordinal marks, `1º`)
    return "".join(found)


_FRACTION_SYMBOLS, _SUPERSCRIPT_DIGITS = _symbols("<fraction>"), _symbols("<super>")
_SUPERSCRIPT_SIGNS, _SUPERSCRIPT_LETTERS = _symbols("<super-sign>"), _symbols("<super-letter>")
_LETTER_POWER = re.compile(rf"(?<=[A-Za-z}}])[{_SUPERSCRIPT_SIGNS}]?[{_SUPERSCRIPT_DIGITS}]+")
_SYMBOL_CHARS = re.compile(f"[{_FRACTION_SYMBOLS}{_SUPERSCRIPT_DIGITS}{_SUPERSCRIPT_SIGNS}"
                           f"{_SUPERSCRIPT_LETTERS}]")
# a whole number before a vulgar fraction, glued or one space apart (`7½`, `7 ½`: 7.5); a
# power after a digit or a bracket: a sign, then digits and letters (`7⁻¹`, `7²ˣ`: `7^{2x}`)
_SYMBOL_NUMBER = re.compile(
    rf"(?<![^\W\d_])(?:(?P<whole>(?<![\d.])\d+) ?)?(?P<fraction>[{_FRACTION_SYMBOLS}])|"
    rf"(?<=[\d)}}\]])(?P<power>[{_SUPERSCRIPT_SIGNS}]?[{_SUPERSCRIPT_DIGITS}{_SUPERSCRIPT_LETTERS}]+)")


_WORD_BEFORE = re.compile(r"(?<![^\W\d_])([^\W\d_]+)\s+$")


def _number_of_words(words: list[str]) -> Fraction | None:
    """The value of a run of number words (`["twenty", "one"]`, `["7", "thousand"]`, `["a",
    "half"]`), or None when the run is no number as English writes one: a unit or teen after
    a unit or a tens word after anything, a tens word after a unit, `and` not after a
    magnitude, a magnitude first or not above the one before it, a fraction's denominator
    not last."""
    total, group, last = Fraction(0), Fraction(0), ""  # `last`: what the previous word was
    previous_scale = None
    for at, word in enumerate(words):
        if word == "point":  # `seven point five`: the digits after it, one word each
            digits = [_WORD_VALUES.get(after) for after in words[at + 1:]]
            if last not in ("unit", "tens", "count", "scale") or not digits or any(
                    digit is None or digit > 9 for digit in digits):
                return None
            return total + group + Fraction("0." + "".join(str(digit) for digit in digits))
        if word == "and" and last in ("unit", "tens", "count") and words[-1] in _DENOMINATORS:
            fraction = _number_of_words(words[at + 1:])  # `one and a half`, `two and three quarters`
            if fraction is None or fraction >= 1:
                return None
            return total + group + fraction
        if word == "and":
            if last != "scale":
                return None
            last = "and"
            continue
        if at == 0 and (word[0].isdigit() or word in ("a", "an")):
            group, last = Fraction(Decimal(word)) if word[0].isdigit() else Fraction(1), "count"
            continue
        if word in _DENOMINATORS:
            if at != len(words) - 1 or last not in ("unit", "tens", "count"):
                return None
            return (total + group) / _DENOMINATORS[word]
        if word in _TENS:
            if last not in ("", "scale", "and"):
                return None
            group, last = group + _TENS[word], "tens"
        elif word in _WORD_VALUES:
            small = _WORD_VALUES[word]
            if last not in ("", "scale", "and") and not (last == "tens" and 0 < small < 10):
                return None
            group, last = group + small, "unit"
        elif word in _MAGNITUDES:
            scale = _MAGNITUDES[word]
            if last not in ("unit", "tens", "count", "scale") or group == 0:
                return None
            if scale == 100:  # `one hundred`, `three hundred twenty`; not `one hundred hundred`
                if last == "scale" or group >= 100:
                    return None
                group *= 100
            else:
                if previous_scale is not None and scale >= previous_scale:
                    return None
                total, group, previous_scale = total + group * scale, Fraction(0), scale
            last = "scale"
        else:
            return None
    return total + group if last != "and" else None


# What opens a noun phrase (`the smallest such n`, `our answer`): after one, the question's
# words name what the value is a value of.
_DETERMINERS = frozenset("the a an our my this that its such these those".split())  # noqa: SIM905
# Words that name the answer itself: a question's word before one qualifies the answer
# (`the wrong answer`), not the value.
_ANSWER_WORDS = frozenset("answer answers solution solutions result results".split())  # noqa: SIM905
# a word (any script), a number, or a clause's comma or semicolon
_SAID_TOKEN = re.compile(r"(?<!\\)(?<![^\W\d_])[^\W\d_]+|\d+|[,;]")
# Words that open a relative clause after a noun (`the answer that is wrong`): what follows
# is said of the value again, not a name of its kind.
_RELATIVES = frozenset("that which who whose whom".split())  # noqa: SIM905
_AFFIRMING_VERBS = frozenset("is are was were be".split())  # noqa: SIM905
# After a determiner or a word that names an answer, `one` is a pronoun (`the correct one`).
_BEFORE_PRONOUN = _DETERMINERS | _AFFIRMING


def _prose_words(answer: str, shortest: int = 3) -> set[str]:
    return {word.lower() for word in _PROSE_WORD.findall(_ENVIRONMENT.sub(" ", answer))
            if _is_prose_word(word, shortest)}


def _is_prose_word(word: str, shortest: int = 3) -> bool:
    """A word of prose, not mathematics: ASCII words of three letters or more (`xy` is more
    often a product) but names in capitals (`ABC`, `DNE`) and function names; a word in any
    other script, however short (`5\\text{万}` is 50,000), but Greek and letterlike symbols."""
    if not word.isascii():
        return _MATH_LETTERS.fullmatch(word) is None
    lower = word.lower()
    return (len(word) >= shortest and not (word.isupper() and len(word) <= 3)
            and lower not in _FUNCTION_WORDS and lower not in _MATH_WORDS)


def carried_words(gold: str) -> frozenset[str]:
    """The words a gold carries beside its value (`9 (apples)`, `20 \\text{ tickets}`): an
    answer may drop them, as the gold does, when they name what it counts or measures
    (`names_a_kind`: units, currencies, counted nouns, containers; or a label in parentheses
    after its number, ASDiv's `9 (apples)`: `_LABEL`; `carried_noun`: never a word known to
    change a value, `changes_value`); the ids of the units it states (`=cm`),
    which an answer's unit must then be one of, and their powers (`=cm^2`, `=cm^1`, `square
    cm`: `=cm^2`); a unit it states with a qualifier of `_PLAIN_SIZES` (`short tons`: `+ton`,
    kept on both sides, `_plain_size`); the currencies its signs name (`\\$5`: `=$`); its approximation words
    (`3.14 (approx)`: `~approx`, which `normalize` then drops on both sides); the singular of
    each plural noun (`_with_singulars`)."""
    if len(gold) > 20_000:
        return frozenset()
    gold = _superscript_powers(read_text(gold))  # `cm²` is `cm^2`
    words = re.findall(r"[A-Za-z]+", _unit_spelled(gold))
    units = {f"={found}" for found in map(_unit_id, words) if found is not None}
    spelled = {word for word in words if _spelled_unit(word)}  # `Mg`: no mg
    units.update(f"={word}" for word in spelled)
    whole = _whole_unit(gold)
    if whole is not None:
        units.add(f"{_WHOLE}{whole}")
    units.update(f"={found}^{power}" for found, power in _unit_powers(_unit_spelled(gold)))
    units.update(f"{_QUALIFIED}{unit}" for spelling, unit in _PLAIN_SIZES if spelling.search(gold))
    units.update(f"{_SIGNED}{currency}" for sign, currencies in _SIGN_CURRENCIES.items()
                 if sign in gold for currency in currencies)  # `\\$5`: the dollar
    units.update(f"{_SIGNED}{_OTHER_CURRENCY}{ch}" for ch in gold if _is_currency_sign(ch)
                 and ch not in _SIGN_CURRENCIES)
    approximations = {f"~{word}" for word in (w.lower() for w in words)
                      if word in APPROXIMATIONS and len(word) > 2}  # (not `ca`: calcium)
    label = _LABEL.search(gold)  # ASDiv's `9 (apples)`: a label naming what the gold counts
    labelled = set() if label is None else {
        word.lower() for word in re.findall(r"[A-Za-z]+", label.group(1))}
    nouns = {word for word in (w.lower() for w in words if w not in spelled)
             if carried_noun(word) and (names_a_kind(word) or word in labelled)}
    return frozenset(_with_singulars(nouns)) | units | approximations


# How `carried_words` marks the whole unit a gold states after its number (`_whole_unit`).
_WHOLE = "*"
# A number and, after it, only the text of a unit: words, markup, products, quotients,
# brackets and powers (`5\text{ kg}\cdot\text{m}`, `5 \frac{\text{m}}{\text{s}}`).
_NUMBER_THEN_UNIT = re.compile(
    r"^[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)\s*((?:\\(?:text|mathrm|mbox|cdot|frac|[,;:! ])(?![a-zA-Z])"
    r"|\^\s*\{?\s*-?\d{1,3}\s*\}?|[A-Za-z{}()/\s.~\-])+)$")
# Units of a rate that name the units a gold may spell apart, by their symbols with no id
# (`mph`: miles per hour) or their ids (`kn`, the knot: nautical miles per hour).
_RATE_UNITS = {"mph": {"mi": 1, "h": -1}, "kph": {"km": 1, "h": -1}, "kmh": {"km": 1, "h": -1},
               "kmph": {"km": 1, "h": -1}, "mpg": {"mi": 1, "gal": -1}, "kmpl": {"km": 1, "L": -1},
               "kn": {"nmi": 1, "h": -1}}
# Spellings of one unit in two words, or a symbol only in a text command (`t`, alone a
# variable), as the word `_unit_id` reads (`metric tons`, `\\text{ t}`: tonnes;
# `kilometres an hour`: per hour).
_UNIT_SPELLINGS = (
    (re.compile(r"(?<![A-Za-z])metric\s+ton(?:ne)?s?(?![A-Za-z])", re.IGNORECASE), "tonne"),
    (re.compile(r"(?<![A-Za-z])nautical\s+mi(?:le)?s?(?![A-Za-z])", re.IGNORECASE), "nmi"),
    # a unit `a`/`an` a unit of time (`kilometres an hour`): `per`
    (re.compile(r"(?<=[A-Za-z])\s+an?\s+(?=(?:hour|hr|minute|min|second|sec|day|week|month|year)s?(?![A-Za-z]))",
                re.IGNORECASE), " per "),
    (re.compile(r"\\(?:text|mathrm|mbox)\s*\{\s*t\s*\}"), "\\text{ tonne}"),
    # abbreviations of a group counted in (`5 doz.`, `_COUNTING_GROUPS`)
    (re.compile(r"(?<![A-Za-z])doz(?:\.|(?![A-Za-z]))", re.IGNORECASE), "dozen"),
)


# Qualified spellings of a unit that name the size its plain word names in everyday use (the
# US `short ton` is the ton, a `statute mile` the mile), unlike `long`, `metric`, `nautical`,
# `troy`, `imperial` or `fluid`, which name another unit (round 17). Read one way only, on
# purpose: an answer that qualifies the gold's plain word narrows it to its usual size, the
# gold's unit (`5 short tons` answers `5 tons`), while a gold that states the qualifier
# (`carried_words`: `+ton`) told which ton it means, and the plain word, which may name
# another (a long ton), does not say so (`5 tons` is no answer to `5 short tons`). Read on
# both sides, the gold's qualifier would be dropped too and `5 tons` would answer it.
_PLAIN_SIZES = (
    (re.compile(r"(?<![A-Za-z])short(?:\s+|-)(?=tons?(?![A-Za-z]))", re.IGNORECASE), "ton"),
    (re.compile(r"(?<![A-Za-z])statute(?:\s+|-)(?=mi(?:le)?s?(?![A-Za-z]))", re.IGNORECASE), "mi"),
)
# How `carried_words` marks a unit the gold states with a qualifier of `_PLAIN_SIZES` (`+ton`).
_QUALIFIED = "+"


def _plain_size(s: str, carried: frozenset[str]) -> str:
    """`s` with a qualifier of `_PLAIN_SIZES` dropped where the gold does not state it
    (`carried`: `+ton`): `5 short tons` as `5 tons`, except against the gold `5 short tons`,
    where it is written as one word with its unit (`shorttons`), as the gold's is: a qualifier
    elsewhere qualifies no unit (`5 tons short` is a shortfall)."""
    for spelling, unit in _PLAIN_SIZES:
        if f"{_QUALIFIED}{unit}" not in carried:
            s = spelling.sub("", s)
        else:
            s = spelling.sub(lambda found: found.group(0).rstrip(" -\t\n\u00a0"), s)
    return s


def _unit_spelled(text: str) -> str:
    """`text` with a unit spelled in two words, or as a symbol only a text command makes one,
    written as the one word `_unit_id` reads (`_UNIT_SPELLINGS`)."""
    for spelling, word in _UNIT_SPELLINGS:
        text = spelling.sub(word, text)
    return text


def _whole_unit(text: str) -> str | None:
    """The whole unit `text`, a number and a unit, states: each unit's id with its power,
    summed, a rate's by the units it names (`_RATE_UNITS`) (`kg/m`: `kg^1 m^-1`; `m/s/s`,
    `m/(s s)`, `m per second squared`: `m^1 s^-2`; `mph`: `h^-1 mi^1`; `mph^2`: `h^-2 mi^2`;
    `knots`: `h^-1 nmi^1`), or None where `text` is not a number and a unit or no word of it
    has an id. An answer's unit that states another (`5 kg` against `5 kg m`, `5 oz` against
    `5 fl oz`) is no part of it to drop."""
    found = _NUMBER_THEN_UNIT.match(text) if len(text) < 200 else None
    if found is None:
        return None
    tail = _unit_spelled(_superscript_powers(found.group(1)))
    powers: dict[str, int] = {}
    for unit, power in _unit_powers(tail):
        for part, rate_power in _RATE_UNITS.get(unit, {unit: 1}).items():
            powers[part] = powers.get(part, 0) + rate_power * int(power)
    divisors = _divisors(tail)
    for match in _UNIT_WITH_POWER.finditer(tail):  # a rate's symbol with no id (`mph^2`)
        if match.group(1).lower() not in _RATE_UNITS or _unit_id(match.group(1)) is not None:
            continue
        raised = int(match.group(2) or 1) * (-1 if any(start < match.start() < end for start, end in divisors) else 1)
        for part, rate_power in _RATE_UNITS[match.group(1).lower()].items():
            powers[part] = powers.get(part, 0) + rate_power * raised
    return " ".join(f"{unit}^{power}" for unit, power in sorted(powers.items()) if power) or None


def _in_whole_unit(s: str, carried: frozenset[str]) -> str:
    """`s`, a number and a unit, as its number where its whole unit (`_whole_unit`) is the one
    the gold states (`carried`: `_WHOLE`) and every word of the unit names a unit
    (`_unit_id`, a rate's symbol, `per`, a power's word): `5 m/s/s`, `5 m/(s s)` and `5 meters
    per second squared` against `5 m/s^2`, `5 nmi/h` against `5 knots`. Anything else as it is
    (`5 m²^2`: a power of a power)."""
    stated = [word for word in carried if word.startswith(_WHOLE)]
    found = _NUMBER_THEN_UNIT.match(s) if stated and len(s) < 200 else None
    if found is None:
        return s
    tail = _unit_spelled(_superscript_powers(found.group(1)))
    if _POWER_OF_POWER.search(tail) or not all(
            _unit_id(word) is not None or word.lower() in _RATE_UNITS or word.lower() in _UNIT_GLUE
            for word in _UNIT_WORD.findall(tail)):
        return s  # (`5 m²^2`: a power of no unit)
    whole = _whole_unit(s)
    return s[:found.start(1)].strip() if whole is not None and f"{_WHOLE}{whole}" in stated else s


_POWER_OF_POWER = re.compile(r"\d\s*+\}?+\s*+\^")
# Words of a whole unit that name no unit themselves (`meters per second squared`).
_UNIT_GLUE = frozenset({"per", "square", "sq", "cubic", "cu", "squared", "cubed"})


def _other_whole_unit(s: str, carried: frozenset[str]) -> bool:
    """True when `s`, a number and a unit, states a whole unit (`_whole_unit`) that is not
    the one the gold states (`carried`: `_WHOLE`)."""
    stated = [word for word in carried if word.startswith(_WHOLE)]
    asked = _asked_units(carried) if not stated else None
    stated = stated or [name for name in asked or () if name.startswith(_WHOLE)]  # a rate asked
    if not stated:
        return False
    whole = _whole_unit(s)
    return whole is not None and f"{_WHOLE}{whole}" not in stated


def _spelled_unit(word: str) -> bool:
    """True when `word` is a unit `_unit_id` has no id for as written but has in another case
    (`Mg`, megagrams, is no `mg`; `ML` no `mL`; `Gm` no `gm`): a gold's unit the answer must
    then spell as it does, case kept (`_is_unit`), since folding its case names another unit.
    One letter is no such unit: it is read as written (`5\\text{M}` is five million)."""
    return len(word) > 1 and _unit_id(word) is None and _unit_id(word.lower()) is not None


# A label in parentheses after a gold's number (ASDiv's `9 (apples)`, `7 (gold stars)`): the
# dataset's note of what the number counts, carried as it is (never a word `changes_value`).
_LABEL = re.compile(r"\d\s*\(([A-Za-z ]{1,40})\)\s*$")


def names_a_kind(word: str) -> bool:
    """True when `word` is known to name what a value counts or measures: a unit, currency or
    counted noun (`_known_unit`, `_unit_id`) or a container (`_CONTAINERS`), in the plural too.
    A gold's other words (`5 millones`, `5 Drittel`, `5 bin`) are read, not carried: the bare
    number does not answer them unless the question names them (`unread_gold_word`)."""
    if _known_unit(word) or _unit_id(word) is not None:
        return True
    lower = word.lower()
    return any(lower.endswith(ending) and lower[:len(lower) - len(ending)] in _CONTAINERS
               for ending in ("", "es", "s"))


# A normalized gold that is a number and words after it (`5 millones`, `5 만`): `normalize`
# kept the words, so they are not units, counted nouns nor words of the question.
_VALUE_THEN_WORD = re.compile(r"^[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)\s*(?:\\text\s*\{\s*)?[^\W\d_]")


def unread_gold_word(word: str, gold: str, question: str | None = None) -> bool:
    """True when `word`, a word of prose (`qualifiers`) of the normalized `gold` that the
    answer does not hold, stands after the gold's number and is not known to leave the number
    its value: not a unit, currency, counted noun or container (`names_a_kind`), nor a word
    of the question (`question_words`; in another script, its text). The bare number does
    not answer `5 millones`, `5 만`, `5 Drittel`: an allow-list on the gold's side, as
    `_is_unit` is on the answer's."""
    if not _VALUE_THEN_WORD.match(gold):
        return False
    if word.isascii():
        return not names_a_kind(word) and (
            question is None or word.lower() not in question_words(question))
    return question is None or word not in question[:MAX_QUESTION_CHARS]


def _unit_powers(gold: str) -> list[tuple[str, str]]:
    """The units of a gold with the power each has (`cm^2`, `s^{-1}`, `square centimeters`,
    `centimeters squared`: cm and 2; `cm`: 1; a divisor's negated, `_divisors`: `m/s`, `\\frac{m}{s}`, `m per s`, s
    and -1, as `m s^{-1}`), as ids (`_unit_id`)."""
    found = []
    gold = _as_quotient(gold)
    divisors = _divisors(gold)
    raised_brackets = [(bracket.start(), bracket.end(1), int(bracket.group(2)))
                       for bracket in _RAISED_BRACKET.finditer(gold)] if "(" in gold else []
    for match in _UNIT_WITH_POWER.finditer(gold):
        unit = _unit_id(match.group(1))
        if unit is None:
            continue
        power = match.group(2)
        if power is None:
            modifier = _MODIFIER_BEFORE.search(gold, max(match.start() - 12, 0), match.start())
            raised = _MODIFIER_AFTER.match(gold, match.end(1))  # `second squared`
            modifier = modifier if raised is None else raised
            power = "1" if modifier is None else _MODIFIER_POWERS[modifier.group(1).lower()]
        if any(start < match.start() < end for start, end in divisors):
            power = str(-int(power))
        for start, end, bracket_power in raised_brackets:  # `(m/s)^2`: m^2 s^-2
            if start < match.start() < end:
                power = str(int(power) * bracket_power)
        found.append((unit, power))
    return found


# A bracket of units raised to a power (`(m)^2`, `\text{(m/s)}^2`): each unit in it is.
_RAISED_BRACKET = re.compile(r"\(([^()\\]{0,80})\)\s*+\}?+\s*+\^\s*+\{?\s*+(-?\d{1,3})")


# What a unit is divided by: one word after `/` or `per`, or the bracket after it (`J/(kg K)`);
# a `\frac`'s denominator is read as that bracket (`_as_quotient`).
_DIVISOR = re.compile(r"(?:/|(?<![A-Za-z])per(?![A-Za-z]))\s*(?:\\(?:text|mathrm|mbox)\s*)?\{?\s*"
                      r"(?:\([^()]*\)|[A-Za-z]+)")
_FRAC_UNIT = re.compile(r"\\frac\s*\{((?:[^{}]|\{[^{}]*\})*)\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_UNIT_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]+")  # (not a command's name: `\\text`)


def _as_quotient(text: str) -> str:
    """`\\frac{A}{B}` written as `A/(B)`, so that its denominator reads as a divisor."""
    return _FRAC_UNIT.sub(r"\1/(\2)", text) if "\\frac" in text else text


def _divisors(text: str) -> list[tuple[int, int]]:
    """The spans of `text` that divide (`_DIVISOR`)."""
    return [match.span() for match in _DIVISOR.finditer(text)] if "/" in text or "per" in text \
        else []


def _last_divided(text: str) -> bool:
    """True when the last unit word of `text` divides (`m/s`, `\\frac{m}{s}`, `J/(kg K)`,
    `miles per hour`): its power is negated, as `m s^{-1}` writes it."""
    text = _as_quotient(text)
    last = None
    for last in _UNIT_WORD.finditer(text):
        pass
    return last is not None and any(start < last.start() < end for start, end in _divisors(text))


_MODIFIER_POWERS = {"square": "2", "sq": "2", "cubic": "3", "cu": "3", "squared": "2", "cubed": "3"}
_MODIFIER_AFTER = re.compile(r"(?<![\s}])\s*+\}?+\s*+-?(squared|cubed)(?![A-Za-z])", re.IGNORECASE)
_POWER_AFTER = re.compile(r"\s*+\^\s*+\{?\s*+(-?\d{1,3})")  # a power written after a unit (`m^2`)
_MODIFIER_BEFORE = re.compile(r"(?<![A-Za-z])(square|sq|cubic|cu)\.?\s*$", re.IGNORECASE)
_OTHER_CURRENCY = "sign "  # the id of a currency sign `_SIGN_CURRENCIES` does not name
# How `carried_words` marks a currency a gold's sign names (`\\$5`: `$=$`): unlike a unit word
# of the gold, it constrains the answer's currency only (`\\$5 per hour` answers `\\$5`).
_SIGNED = "$="


def money_unasked(answer: str, carried: frozenset[str]) -> bool:
    """True when `answer` states an amount of money by a currency sign where the question
    asks a quantity of another kind (`_NO_MONEY`: `\\$7` for `How many pens can he buy?`) and
    the gold names no currency: no answer to it (read after the hedges, so `7 \\$ 8` is still
    two values). A currency sign is any sign of Unicode's category Sc but math's `$`
    (`_is_currency_sign`: `€`, `¥`, the full-width `＄`), `\\$`, a sign written as one
    (`_SIGN_CURRENCIES`: `元`) or a command that sets one (`_CURRENCY_COMMANDS`:
    `\\textdollar`, `\\pounds`, `\\euro`), and so is a currency's word or code before or
    after the value (`_CURRENCY_WORDS`, `_ISO_4217`: `7 \\text{ dollars}`, `USD 7`, `Rs. 7`)."""
    return _NO_MONEY in carried and not _gold_currencies(carried) and (
        any(sign in answer for sign in _SIGN_CURRENCIES)
        or any(_is_currency_sign(ch) for ch in answer)
        or "\\" in answer and _CURRENCY_COMMAND.search(answer) is not None
        or any(word in _ISO_4217 or word in _CURRENCY_WORDS
               or word.lower() in _CURRENCY_WORDS or _singular(word.lower()) in _CURRENCY_WORDS
               for word in _WORD_BESIDE.findall(answer[:200])))


_WORD_BESIDE = re.compile(r"(?<![A-Za-z\\])[A-Za-z]{2,}(?![A-Za-z])")
"""A word of an answer (not a command's name): a currency's word or code beside its value."""


def _singular(word: str) -> str:
    """`word` less a plural's `s` or `es` (`dollars`, `rupees`, `pesos`)."""
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _gold_currencies(carried: frozenset[str]) -> set[str]:
    """The currencies the gold names, by a word (`=$` of `5 dollars`) or a sign (`$=$`)."""
    return {word[len(_SIGNED):] for word in carried if word.startswith(_SIGNED)} | {
        word[1:] for word in carried if word.startswith("=")
        and (word[1:] in _CURRENCY_IDS or word.startswith(f"={_OTHER_CURRENCY}"))}


def _is_currency_sign(ch: str) -> bool:
    """A currency sign of Unicode (category Sc) other than `$`, which LaTeX writes as math's
    delimiter (its currency sign is `\\$`)."""
    return ch != "$" and not ch.isascii() and unicodedata.category(ch) == "Sc"


# Plurals English does not write with an ending (`_with_singulars`).
_IRREGULAR_PLURALS = {"children": "child", "people": "person", "men": "man", "women": "woman",
                      "mice": "mouse", "geese": "goose", "feet": "foot", "teeth": "tooth",
                      "oxen": "ox", "dice": "die", "leaves": "leaf", "loaves": "loaf"}


def _with_singulars(nouns: set[str]) -> set[str]:
    """Counted nouns with the singular of each plural (`puppies`, `wolves`, `crayons`,
    `boxes`, `children`: `puppy`, `wolf`, `crayon`, `box`, `child`), as English forms it:
    `1 puppy` names what `How many puppies` counts. A form that is a number word or a word
    known to change a value (`tens`: `ten`) is not added (`carried_noun`)."""
    found = set(nouns)
    for noun in nouns:
        forms = [_IRREGULAR_PLURALS[noun]] if noun in _IRREGULAR_PLURALS else []
        if noun.endswith("ies"):
            forms.append(noun[:-3] + "y")
        elif noun.endswith("ves"):
            forms += [noun[:-3] + "f", noun[:-3] + "fe", noun[:-1]]
        elif noun.endswith("es"):
            forms += [noun[:-2], noun[:-1]]
        elif noun.endswith("s") and not noun.endswith("ss"):
            forms.append(noun[:-1])
        found.update(form for form in forms if carried_noun(form) and form not in NUMBER_WORDS)
    return found


MAX_QUESTION_CHARS = 20_000
"""The part of a question that is read (`question_words`, and with its gold: `no_answer_in`);
the rest is not read."""


# What a question still asks to carry out when an answer holds it (`\\sum_{k=1}^{100} k`,
# `\\int_0^1 x^2 dx`, `\\binom{8}{4}`, `\\lim`, `\\frac{d}{dx}`), states (`x^2-5x+6=0`) or
# applies (`f(2)`).
_UNCARRIED = re.compile(r"\\(?:sum|prod|int|iint|iiint|oint|lim|binom|choose)(?![a-zA-Z])|"
                        r"\\frac\{d|=|^\\?[A-Za-z]+\s*\(")
# An expression as `restates_question` compares it: commands, one-character escapes, numbers,
# and every other character alone (a letter is a variable: `dx` is `d x`).
_EXPRESSION_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\d+(?:\.\d+)?|\S")
# Tokens that render nothing of the expression's own (spacing, sizes, styles, math
# delimiters, wrappers whose argument stays: `\\mathrm{d}x` is `d x`).
_NOT_EXPRESSION = frozenset("""
    \\left \\right \\middle \\displaystyle \\textstyle \\limits \\nolimits \\, \\! \\; \\: \\> \\
    \\quad \\qquad \\big \\Big \\bigg \\Bigg \\bigl \\bigr \\Bigl \\Bigr \\biggl \\biggr \\Biggl
    \\Biggr \\mathrm \\text \\textrm \\textnormal \\mathit \\rm \\operatorname ~
""".split()) | {"\\ "}  # noqa: SIM905 (a word list reads better as words)
# One spelling of what is written several ways (`\\dbinom`, `\\rightarrow`, `∑`).
_SAME_EXPRESSION = {
    "\\dfrac": "\\frac", "\\tfrac": "\\frac", "\\dbinom": "\\binom", "\\tbinom": "\\binom",
    "\\rightarrow": "\\to", "\\longrightarrow": "\\to", "→": "\\to", "\\le": "\\leq",
    "\\ge": "\\geq", "\\leqslant": "\\leq", "\\geqslant": "\\geq", "≤": "\\leq", "≥": "\\geq",
    "\\ne": "\\neq", "≠": "\\neq", "∞": "\\infty", "∑": "\\sum", "∏": "\\prod", "∫": "\\int",
    "\\dint": "\\int", "\\dsum": "\\sum", "\\lbrace": "\\{", "\\rbrace": "\\}",
}
# Commands that bind a variable: a sum's or product's index (`_{k=1}`, `_k`), a limit's
# variable (`_{x \\to 1}`), an integral's (`dx`).
_BINDERS = frozenset({"\\sum", "\\prod", "\\lim", "\\int", "\\iint", "\\iiint", "\\oint"})
# Where a sum's or limit's scope ends, at its own depth of braces: a relation, a separator or
# a math delimiter (`\\sum_{k=1}^{100} k = 5050`: the `=` ends it).
_SCOPE_ENDS = frozenset({"$", "=", ",", ";", ".", ":", "?", "\\(", "\\)", "\\[", "\\]", "\\\\",
                         "<", ">", "\\leq", "\\geq", "\\neq", "\\approx", "&"})
_MATH_DELIMITERS = frozenset({"$", "\\(", "\\)", "\\[", "\\]"})
_BOUND_GREEK = frozenset("""
    \\alpha \\beta \\gamma \\delta \\theta \\vartheta \\phi \\varphi \\psi \\tau \\lambda \\mu
    \\nu \\xi \\rho \\sigma \\omega \\eta \\zeta \\chi
""".split())  # noqa: SIM905 (a word list reads better as words)
_INTEGRAL_REACH = 400  # tokens an integral's `d x` is looked for in


def _grouped(text: str) -> list[str]:
    """The tokens of `text` with what renders nothing dropped, one spelling of each token,
    `{n \\choose k}` written `\\binom n k`, and a brace group or parenthesis around one item
    unwrapped (`x^{2}`, `{k}`, `(k)`, `{{a+b}}`): in one pass, with a stack of open brackets."""
    out: list[str] = []
    opened: list[_Open] = []
    last = (-1, -1)  # where in `out` the last item closed (a group kept whole) begins and ends
    for match in _EXPRESSION_TOKEN.finditer(text):
        token = _SAME_EXPRESSION.get(match.group(), match.group())
        if token in _NOT_EXPRESSION:
            continue
        if token in ("{", "("):
            opened.append(_Open(token, len(out)))
        elif token == "\\choose" and opened and opened[-1].bracket == "{":
            opened[-1].choose = len(out)  # `{n \\choose k}`
            opened[-1].one_first = len(out) - opened[-1].start == 2 or last == (
                opened[-1].start + 1, len(out))
        elif token in ("}", ")"):
            while token == "}" and opened and opened[-1].bracket == "(":
                opened.pop()  # a parenthesis left open inside braces (`{[0, 1)}`): a sign
            if opened and opened[-1].bracket == ("{" if token == "}" else "("):
                last = _close(out, opened.pop(), last)
                continue
        out.append(token)
    return out


@dataclass
class _Open:
    """A bracket `_grouped` has not closed yet: `{` or `(`, where it stands in the tokens, and
    the `\\choose` it holds (its index, and whether what stands before it is one item)."""
    bracket: str
    start: int
    choose: int = -1
    one_first: bool = False


def _close(out: list[str], group: _Open, last: tuple[int, int]) -> tuple[int, int]:
    """Close `group` at the end of `out`: unwrap it around one item, write `{n \\choose k}` as
    `\\binom`, else keep it whole. Where the item it leaves begins and ends (`last`)."""
    start, choose = group.start, group.choose
    if choose >= 0:  # `{n \\choose k}`: `\\binom`, its arguments grouped unless one item each
        first, second = out[start + 1:choose], out[choose + 1:]
        one_second = len(second) == 1 or last == (choose + 1, len(out))
        out[start:] = ["\\binom", *(first if group.one_first else ["{", *first, "}"]),
                       *(second if one_second else ["{", *second, "}"])]
    elif len(out) - start <= 2 or last == (start + 1, len(out)):
        del out[start]  # an empty group, or one around one item: that item
        if len(out) == start or last != (start + 1, len(out) + 1):
            return (-1, -1)
    else:
        out.append(")" if group.bracket == "(" else "}")
    return (start, len(out))


def _bound_renamed(tokens: list[str]) -> list[str]:
    """`tokens` with each variable a sum, product, limit or integral binds written by the
    binder's place among the binders around it (`@0`, `@1`), in the binder's scope: a sum's
    or limit's to the end of its brace group or its first `_SCOPE_ENDS` token there, an
    integral's to its `d x`. So `\\sum_{j=1}^{100} j` is `\\sum_{k=1}^{100} k`."""
    out = list(tokens)
    scopes: list[tuple[str, int, int]] = []  # (variable, depth of braces, index of `d x` or -1)
    depth = 0
    for at, token in enumerate(tokens):
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            while scopes and scopes[-1][1] > depth:
                scopes.pop()
        elif token in _SCOPE_ENDS:
            while scopes and scopes[-1][1] >= depth and scopes[-1][2] < 0:
                scopes.pop()
        elif token in _BINDERS:
            bound = _bound_variable(tokens, at)
            if bound is not None:
                scopes.append((bound[0], depth, bound[1]))
        elif _variable_name(token):
            for place in range(len(scopes) - 1, -1, -1):
                if scopes[place][0] == token:
                    out[at] = f"@{place}"
                    break
        while scopes and scopes[-1][2] == at:
            scopes.pop()  # an integral's `d x`: its scope ends
    return [token for token in out if token not in _MATH_DELIMITERS]


def _variable_name(token: str) -> bool:
    """Whether a token may name a bound variable: one letter, or a Greek letter's command."""
    return len(token) == 1 and token.isalpha() or token in _BOUND_GREEK


def _bound_variable(tokens: list[str], at: int) -> tuple[str, int] | None:
    """The variable the binder `tokens[at]` binds and, for an integral, the index of the
    variable in its `d x` (-1 for a sum, product or limit); None where none is written."""
    if tokens[at] in ("\\sum", "\\prod", "\\lim"):
        below = at + 1 if tokens[at + 1:at + 2] == ["_"] else at + 3 if tokens[
            at + 1:at + 2] == ["^"] and tokens[at + 3:at + 4] == ["_"] else -1
        if below < 0:
            return None
        if _variable_name(tokens[below + 1] if below + 1 < len(tokens) else ""):
            return tokens[below + 1], -1  # `\\sum_k`
        if (tokens[below + 1:below + 2] == ["{"] and below + 3 < len(tokens)
                and _variable_name(tokens[below + 2]) and tokens[below + 3] in ("=", "\\to", "\\in")):
            return tokens[below + 2], -1  # `\\sum_{k=1}`, `\\lim_{x \\to 1}`
        return None
    for place in range(at + 1, min(at + _INTEGRAL_REACH, len(tokens) - 1)):
        if tokens[place] == "d" and _variable_name(tokens[place + 1]):
            return tokens[place + 1], place + 1
        if tokens[place] in _SCOPE_ENDS:
            return None
    return None


def _wrapped_whole(tokens: list[str]) -> bool:
    """Whether one bracket pair (`{...}`, `(...)`) wraps all of `tokens`."""
    if len(tokens) < 2 or (tokens[0], tokens[-1]) not in (("{", "}"), ("(", ")")):
        return False
    depth = 0
    for token in tokens[:-1]:
        depth += (token == tokens[0]) - (token == tokens[-1])
        if depth == 0:
            return False
    return True


def restates_question(answer: str, question: str | None, gold: str | None = None) -> bool:
    """True when `answer` (normalized) is an expression the question writes and asks to
    carry out: a sum, integral, product, limit, binomial or derivative (`Compute
    \\sum_{k=1}^{100} k.`), an equation (`Solve x^2-5x+6=0.`) or a function applied (`Find
    f(2)`), found in the question as the same expression: compared as tokens (`_grouped`:
    spacing, sizes, `\\left`, wrappers and math delimiters dropped, one spelling of
    `\\dbinom`, `\\rightarrow`, `{n \\choose k}`, a bracket around one item unwrapped) with
    bound variables renamed (`_bound_renamed`: `\\int_0^1 t^2\\,dt` is `\\int_0^1 x^2\\,dx`),
    the answer's brackets around all of it dropped. Such an answer commits to no value:
    math-verify would evaluate it (`5050`) or a judge be shown it. Never a number, nor an
    expression the question merely names (`Which is larger, \\sqrt{2} or 1.5?`), nor any
    answer where the normalized `gold` is itself one of the question's expressions (`Which is
    larger, \\int_0^1 x^2 dx or \\int_0^1 x^3 dx?`): there an answer picks one, compared
    with the gold as any answer is."""
    if not question or not _may_restate(answer):
        return False
    asked = _question_expression(question)
    return _written_in(answer, asked) and not (
        gold is not None and _may_restate(gold) and _written_in(gold, asked))


@byte_cache(8 << 20)  # a group's rollouts share their question: read once
def _question_expression(question: str) -> str:
    """The question's tokens as `restates_question` compares them, joined by spaces."""
    return f" {' '.join(_bound_renamed(_grouped(read_text(question[:MAX_QUESTION_CHARS]))))} "


def _may_restate(answer: str) -> bool:
    """Whether a normalized answer is an expression that may restate a question: not a
    number, at least three characters, holding what a question asks to carry out."""
    return (parse_number(answer) is None and len("".join(answer.split())) >= 3
            and _UNCARRIED.search(answer) is not None)


def _written_in(answer: str, asked: str) -> bool:
    """Whether the tokens of `answer`, bound variables renamed and brackets around all of it
    dropped, stand in `asked` (a question's tokens, so read, joined by spaces)."""
    said = _bound_renamed(_grouped(answer))
    while _wrapped_whole(said):
        said = said[1:-1]
    return f" {' '.join(said)} " in asked


@byte_cache(8 << 20)  # a group's rollouts share their question: read once
def question_words(question: str) -> frozenset[str]:
    """The words of the question (`How many up quarks ...?`): counted nouns an answer may name
    beside its value (`**4 up quarks**` answers 4), as it may drop the gold's own words, never
    a word that changes a value (`carried_noun`); and the ids of the units it names
    (`_question_units`), which constrain the answer's unit where the gold states none; and the
    value word it asks with (`_ASKED_WITH`: `How many more cookies`); never what a counted
    group asked holds (`_GROUP_CONTENT`: the cans of `How many packs of 6 cans?`). The first
    `MAX_QUESTION_CHARS` characters are read."""
    text = question[:MAX_QUESTION_CHARS]
    words = re.findall(r"[A-Za-z]+", text)
    nouns = _with_singulars({word for word in (w.lower() for w in words) if carried_noun(word)})
    contents = _with_singulars({content.lower() for group, content in _GROUP_CONTENT.findall(text)
                                if content.lower() != group.lower()})
    return frozenset(nouns - contents) | _question_units(text) | {
        found.lower() for found in _ASKED_WITH.findall(text)} | {
        f"{_CONTENT}{content}" for content in contents}


# What a counted group asked holds (`How many packs of 6 cans?`: cans): the group is the
# count asked, so its content is no noun the answer may name beside its value (`7 cans`).
_GROUP_CONTENT = re.compile(r"(?<![A-Za-z])how\s+many\s+([A-Za-z]+)\s+of\s+\d+\s+([A-Za-z]+)",
                            re.IGNORECASE)
_CONTENT = "!"  # how `question_words` marks such a content (`!cans`): never dropped


# The value word a question asks with (`How many more cookies`, `How many fewer`, `How many
# times`): the answer that repeats it (`5 more cookies`, `5 times`) says the value asked, so it
# is carried as a counted noun is, though it changes a bare value elsewhere (`5 or more`).
_ASKED_WITH = re.compile(r"(?<![A-Za-z])how\s+(?:many|much)\s+(more|fewer|less|times|additional|"
                         r"extra)(?![A-Za-z])", re.IGNORECASE)


# How `question_words` marks the id of a unit the question names (`?min`), and that it names
# one by a word that is nothing else (`_ASKED`).
_NAMED = "?"
_ASKED = "??"
# Unit words that are more often something else in a question: a preposition, a pronoun, an
# ordinal, a phrase's noun (`in`, `us`, `the second train`, `a bit`, `a yard sale`, `on
# foot`); as one letter, a name (`point C`, `m` of `y = mx`).
_OTHER_READINGS = frozenset({"in", "us", "second", "bit", "yard", "foot"})
_DOLLARS_STATED = re.compile(r"\\?\$\s?\d")  # `\$5`, and a plain text's `$5`
_POUNDS = re.compile(r"(?<![A-Za-z])pounds?(?![A-Za-z])", re.IGNORECASE)  # (sterling where paid)


def _question_units(text: str) -> set[str]:
    """The ids of the units a question asks for (`_NAMED`), and `_ASKED` where one word of
    them is nothing else (`_OTHER_READINGS`, one letter): an answer's unit of another id is
    then no unit to drop against a gold that states none (`_is_unit`: `5 kg` for `How many
    grams?`; `_currency_dropped`: `\\$5` for `How many cents?`). The units asked for are
    those its questions ask by name (`_asking`: `How many days?`, `How far ... in meters?`), a
    divisor's as one (`?/d` of `How many hours per day?`: `5 days` answers no rate), where they
    name one by such a word; else every unit the question names, in any place (`How long does
    it take to travel 120 km?`). Of two asking sentences that name units, the last asks
    (`How many hours did he work? How many days is that?`: days). A unit named in passing
    answers no question that asks another (`5 hours` for `He works 8 hours a day. How many
    days?`), and the power a question asks goes with its unit (`?m^2` of `How many square
    meters?`). A rate of two kinds asked (`meters per second`, `km/h`, `knots`: `_rates_named`)
    is asked as a whole unit, a group counted in (`How many dozen`: `_COUNTING_GROUPS`) as a
    unit, and a question that asks `How much` something costs, is paid, spent, earned, charged
    or owed asks an amount of money (`_money_named`), as does one that asks for a sum of money
    by its noun (`What is the total cost?`, `How much is his salary?`: `_ASKS_MONEY`); one
    whose last asking is of another kind (`How much does the bag weigh?`, `How many pens?`:
    `_ASKS_OTHER_KIND`) is marked `_NO_MONEY`, which no amount of money answers. And the
    currencies its signs name."""
    found: set[str] = set()
    for asking in reversed(_asking(text)):  # the last question that names a unit asks it
        found = _units_named(asking, by_place=True) | _rates_named(asking)
        if asking.endswith(_MONEY) and _POUNDS.search(asking):
            found = {_ASKED, f"{_NAMED}GBP", f"{_NAMED}{_MONEY_ASKED}"}  # `How many pounds
            # does it cost?`: pounds paid are sterling, never a weight
        if _ASKED not in found and asking.endswith(_MONEY):
            found = _money_named(text)  # `How much do 4 bags cost?`: an amount of money
        if _ASKED in found:
            break
    if _ASKED not in found:
        found = _units_named(text, by_place=False)
    found.update(f"{_NAMED}{currency}" for sign, currencies in _SIGN_CURRENCIES.items()
                 if sign != "\\$" and sign in text for currency in currencies)
    if _DOLLARS_STATED.search(text):
        found.add(f"{_NAMED}$")
    askings = sorted([*_ASKS_OTHER_KIND.finditer(text), *_ASKS_MEASURE.finditer(text)],
                     key=lambda found: found.start())
    other = askings[-1] if askings else None  # the last asking of a kind
    money = None
    for money in _ASKS_MONEY.finditer(text):
        pass
    if other is not None and (money is None or money.start() < other.start()) and (
            other.re is _ASKS_MEASURE or _unit_id(other.group(1)) not in _CURRENCY_IDS):
        found.add(_NO_MONEY)  # `How much does the bag weigh?`: `7 dollars` is no weight
        if other.re is _ASKS_MEASURE:  # `How far`: a length, so `7 kg` answers it in no unit
            said = set(other.group(0).lower().split())
            found.update(f"{_MEASURE_KIND}{kind}" for measure, kinds in _MEASURE_KINDS.items()
                         if said & {word for words in _MEASURES[measure] for word in words.split()}
                         for kind in kinds)
    return found


def _units_named(text: str, by_place: bool) -> set[str]:
    """The ids of the units `text` names by a word (`_NAMED`), and `_ASKED` where one word of
    them is nothing else; `by_place`, a divisor's (`per day`, `/h`) as `/` and its id, another
    as its id; else each in both places."""
    found: set[str] = set()
    divisors = _divisors(text)
    for word in re.finditer(r"[A-Za-z]+", text):
        unit = _unit_id(word.group(0))
        if unit is None:
            continue
        divided = any(start < word.start() < end for start, end in divisors)
        if not by_place or not divided:
            found.add(f"{_NAMED}{unit}")
        if by_place and not divided:  # its power (`square meters`, `meters squared`, `m^2`)
            modifier = _MODIFIER_BEFORE.search(text, max(word.start() - 12, 0), word.start())
            raised = _MODIFIER_AFTER.match(text, word.end()) or _POWER_AFTER.match(text, word.end())
            modifier = modifier if raised is None else raised
            power = "1" if modifier is None else _MODIFIER_POWERS.get(modifier.group(1).lower(), modifier.group(1))
            found.add(f"{_NAMED}{unit}^{power}")
        if not by_place or divided:
            found.add(f"{_NAMED}/{unit}")
        if len(word.group(0)) > 1 and word.group(0).lower() not in _OTHER_READINGS:
            found.add(_ASKED)
    if by_place:  # `How many dozen eggs?`, `in dozens`: the group asked is the unit
        for word in re.findall(r"[A-Za-z]+", text):
            if word.lower().removesuffix("s") in _COUNTING_GROUPS:
                found.update({f"{_NAMED}{word.lower().removesuffix('s')}", _ASKED})
    return found


# Magnitude words that also name a group goods are counted in (`a dozen eggs`): where the
# question counts in one (`How many dozen eggs?`), it is the unit asked, so `5 dozen` is 5 of
# it and `5 eggs` another count. The place values of the number system (`hundred`, `lakh`,
# `million`) stay values wherever they stand (`18 lakh` is 1,800,000, test_value_words).
_COUNTING_GROUPS = frozenset({"dozen", "pair"})


# Kinds of measure, by unit id. A rate asked of a unit over a unit of another kind (a speed,
# `meters per second`; a flow, `liters per minute`; the knot) is another quantity than its
# numerator, so `5 m` answers no `How many meters per second?`; a rate of one kind over itself
# (`hours per day`) is a share, said in its numerator's unit (`5 hours` a day), and money per
# anything a price or a wage, said as its amount (`\$15` an hour): neither is asked as a rate.
_KINDS = (
    frozenset("m km dm cm mm um nm Mm in ft yd mi nmi ly pc au".split()),  # noqa: SIM905
    frozenset("g kg mg ug lb oz ton t stone grain carat".split()),  # noqa: SIM905
    frozenset("s ms us ns ps min h d wk mo yr decade century".split()),  # noqa: SIM905
    frozenset("L mL cL dL gal qt pt cup tsp tbsp".split()),  # noqa: SIM905
)
_ALTERNATIVES = re.compile(r"[;,]|(?<![A-Za-z])(?:and|or)(?![A-Za-z])")


def _rates_named(asking: str) -> set[str]:
    """The whole units (`_whole_unit`) of the rates of two kinds (`_KINDS`) that `asking`, what
    names the units a question asks (`_asking`), names, each alternative apart (`meters per
    second`: `?*m^1 s^-1`; `knots`, `nautical miles per hour`: `?*h^-1 nmi^1`), with `_ASKED`:
    an answer's unit must then state one of them whole (`_is_unit`)."""
    found: set[str] = set()
    for alternative in _ALTERNATIVES.split(asking):
        whole = _whole_unit(f"1 {alternative.strip()}") if alternative.strip() else None
        if whole is None:
            continue
        powers = {unit: int(power) for unit, power in (part.rsplit("^", 1) for part in whole.split())}
        kinds = [next((kind for kind in _KINDS if unit in kind), frozenset({unit})) for unit in powers]
        over = [kind for kind, power in zip(kinds, powers.values(), strict=True) if power > 0]
        under = [kind for kind, power in zip(kinds, powers.values(), strict=True) if power < 0]
        if over and under and not set(powers) & _CURRENCY_IDS and not any(
                kind is other for kind in over for other in under):
            found.update({f"{_NAMED}{_WHOLE}{whole}", _ASKED})
    return found


# A sentence that asks an amount of money without a unit word: `How much` and a verb of
# paying (`How much do 4 bags cost?`, `How much did he spend?`, `How much money`), not of
# measuring (`How much does it weigh?`, `How much water is left?`). `_asking` marks it
# (`_MONEY`).
_PAYING = (r"(?:cost|costs|costed|pay|pays|paid|spend|spends|spent|earn|earns|earned|charge|charges|"
           r"charged|owe|owes|owed|save|saves|saved)")
# Nouns of an amount of money (`the total cost`, `the price`, `her salary`, `his profit`).
_MONEY_NOUNS = (r"(?:cost|costs|price|prices|salary|salaries|wage|wages|profit|profits|income|"
                r"revenue|fee|fees|fare|fares|rent|budget|bill|refund|discount|earnings|savings|"
                r"allowance|tip)")
_AUX = r"(?:do|does|did|will|would|should|could|can|must|is|are|was|were|has|have|had)"
_ASKS_MONEY = re.compile(
    r"(?<![A-Za-z])(?:how\s+much\s+(?:(?:money|change|" + _MONEY_NOUNS[3:-1] + r")(?![A-Za-z])|"
    + _AUX + r"(?![A-Za-z])[^?]{0,200}?(?<![A-Za-z])(?:" + _PAYING[3:-1] + "|"
    + _MONEY_NOUNS[3:-1] + r")(?![A-Za-z]))|what\s+(?:is|was|are|were|will\s+be|would\s+be)"
    r"(?![A-Za-z])[^?]{0,200}?(?<![A-Za-z])" + _MONEY_NOUNS + r"(?![A-Za-z])|how\s+many\s+pounds"
    r"(?![A-Za-z])[^?]{0,200}?(?<![A-Za-z])" + _PAYING + r"(?![A-Za-z]))", re.IGNORECASE)
# A question that asks a count of another kind than money: `How much` of a substance (`How
# much water`), `How many` of a thing counted (`How many pens can he buy?`; group 1, the noun).
_ASKS_OTHER_KIND = re.compile(
    r"(?<![A-Za-z])how\s+(?:much|many)\s+(?:(?:more|fewer|less|additional|extra)\s+)?(?!(?:of|in|"
    r"the|a|an|more|less|fewer|total|cash|money|change|greater|larger|bigger|higher|lower|"
    r"smaller|cheaper|dearer|further|farther|else|" + _AUX[3:-1] + "|" + _MONEY_NOUNS[3:-1]
    + r")(?![A-Za-z]))([A-Za-z]+)", re.IGNORECASE)
# The measures a question may ask, each by the words that ask it: an adjective after `How`
# (`How long`, `How old`, `How far`, `How heavy`, `How fast`), a comparative after `How much`
# (`How much heavier`), a noun of the measure after `What is the` (`the weight of`, `the total
# area`), a verb of measuring after `How much` (`How much more does it weigh`). Where a
# question's last asking is a measure (`_ASKS_MEASURE`), `_question_units` marks it
# (`_NO_MONEY`): a measure is answered by its own units, never by an amount of money. (Not
# `higher`, `further`, `farther` after `How much`: a price goes higher, a saver further.)
_MEASURES = {  # measure: (after How, after How much, nouns, verbs)
    "length": ("long tall high deep wide far thick", "longer taller deeper wider thicker",
               ("length height width depth distance perimeter circumference radius diameter "
                "thickness altitude elevation"), "measure measures measured"),
    "time": ("long old", "longer older", "time duration age", ""),
    "mass": ("heavy", "heavier lighter", "weight mass", "weigh weighs weighed"),
    "speed": ("fast quick", "faster quicker slower", "speed velocity", ""),
    "area": ("", "", "area", ""),
    "volume": ("", "", "volume capacity", "hold holds held contain contains contained"),
    "temperature": ("hot cold warm", "hotter colder warmer", "temperature", ""),
}


_MEASURE_KINDS = {"length": (0,), "time": (2,), "mass": (1,), "volume": (0, 3), "area": (0,)}
"""The kinds of `_KINDS` each measure is said in (a volume in litres or cubic metres, an area
in square metres): an answer's unit of another kind answers no such question."""
_MEASURE_KIND = "?\u2261"
"""How `_question_units` marks a kind of `_KINDS` the measure asked is said in (`?≡0`: a
length, for `How far did she run?`)."""


def _asked_by(words: int) -> str:
    """The words of every measure at one place of `_MEASURES` as one alternation."""
    return "|".join(sorted({word for asked in _MEASURES.values() for word in asked[words].split()}))


_ASKS_MEASURE = re.compile(
    r"(?<![A-Za-z])(?:how\s+(?:" + _asked_by(0) + r")|how\s+much\s+(?:" + _asked_by(1) + r")"
    r"|how\s+much\s+(?:(?:more|less)\s+)?" + _AUX + r"(?![A-Za-z])[^?]{0,200}?(?<![A-Za-z])(?:"
    + _asked_by(3) + r")|what\s+(?:is|was|are|were|will\s+be|would\s+be)\s+(?:the|its|his|her|"
    r"their|our|your|this|that)\s+(?:[A-Za-z]+\s+){0,2}?(?:" + _asked_by(2) + r"))(?![A-Za-z])",
    re.IGNORECASE)
_NO_MONEY = "?\u00ac\u00a4"
_MONEY = " ; $"
# How `_money_named` marks that a question asks an amount of money (`?¤`): an answer's unit
# is then a currency, or a price's divisor the question names (`\$15 per hour`), and nothing
# else (`_is_unit`: `12 pens` is no amount spent).
_MONEY_ASKED = "\u00a4"


def _money_named(text: str) -> set[str]:
    """What a question that asks an amount of money (`_ASKS_MONEY`) asks: the currencies it
    names, or where it names none by a word or sign, every currency; a unit it names only as a
    divisor (`\\$3 per kg`), so that an answer's unit of its other numbers (`12 kg` for `A 5 kg
    bag costs 3 dollars. How much do 4 bags cost?`) answers no money question."""
    named = _units_named(text, by_place=False)
    currencies = {word for word in named if word[len(_NAMED):] in _CURRENCY_IDS}
    if not currencies and not _DOLLARS_STATED.search(text) and not any(
            sign in text for sign in _SIGN_CURRENCIES if sign != "\\$"):
        currencies = {f"{_NAMED}{currency}" for currency in _CURRENCY_IDS}
    return currencies | {word for word in named if word.startswith(f"{_NAMED}/")} | {
        _ASKED, f"{_NAMED}{_MONEY_ASKED}"}


# Where a question's sentence ends: `.`, `!`, `?` before a space and a capital, a digit or
# markup (not after an abbreviation's letter or two, `p.m.`, `Dr.`), or a line's end.
_SENTENCE_END = re.compile(r"(?:(?<!\.[A-Za-z])(?<!\b[A-Z][a-z])\.|[!?？])(?=\s+[A-Z\d\\$(])|(?<![^\S\n])[.!?？]?[^\S\n]*+\n")


# What names the unit a question asks for, in a sentence that asks (`How many days`, `How
# much more money`, `in meters`, `in square feet`, `How many km per hour`, `How many hours and
# minutes`).
_ASKING_UNIT = re.compile(r"(?<![A-Za-z])(?i:how\s+(?:many|much)|in(?!\s+how(?![A-Za-z])))\s+(?:(?i:more|fewer|less|"
                          r"total|additional|extra)\s+)?((?:(?i:square|sq|cubic|cu)\s+)?[A-Za-z]+(?:\s*(?:/|,|(?<![A-Za-z])(?:per|and|or)\s(?!\s*how))\s*[A-Za-z]+)*"
                          r"(?:\^\{?-?\d\}?)?)")


def _asking(text: str) -> list[str]:
    """What names the units a question asks for (`_ASKING_UNIT`) in each of its sentences
    that ask (those ending in `?`), a unit spelled in two words as one (`_unit_spelled`:
    `metric tons`, `nautical miles`), in order, and `_MONEY` after a sentence that asks an
    amount of money (`_ASKS_MONEY`); empty for none."""
    asked: list[str] = []
    start = 0
    for end in itertools.chain(_SENTENCE_END.finditer(text), [None]):
        stop = len(text) if end is None else end.end()
        sentence = text[start:stop].strip()
        if sentence.endswith(("?", "？")):
            named = " ; ".join(found.group(1) for found in _ASKING_UNIT.finditer(_unit_spelled(sentence)))
            if _ASKS_MONEY.search(sentence):
                named += _MONEY  # (`_question_units` reads it where no unit is asked by name)
            if named:
                asked.append(named)
        start = stop
    return asked


def _asked_units(carried: frozenset[str]) -> frozenset[str] | None:
    """The ids of the units the question names (`_question_units`) where it names one by a
    word that is nothing else and the gold states no unit nor currency; else None."""
    if _ASKED not in carried or any(word.startswith(("=", _SIGNED)) for word in carried):
        return None
    return frozenset(word[1:] for word in carried if word.startswith(_NAMED) and word != _ASKED)


_LONE_I = re.compile(r"(?<![a-zA-Z\\])i(?![a-zA-Z])")
_LONE_J = re.compile(r"(?<![a-zA-Z\\])j(?![a-zA-Z])")


def imaginary_unit_like_gold(pred: str, gold: str) -> str:
    """`pred` with its imaginary unit written as the gold writes it: `3+4j` against the
    complex gold `3+4i` (engineering notation). Only when the gold uses `i` and not `j`, and
    the answer uses `j` and not `i`."""
    if "j" not in pred or not _LONE_I.search(gold) or _LONE_J.search(gold) or _LONE_I.search(
            pred):
        return pred
    return _LONE_J.sub("i", pred)


_UNIT_POWER = re.compile(r"\s?\^\s?(?:\{\s?[23]\s?\}|[23])")


# A unit word and its power, if any (`cm}^{2}`, `s^{-1}`, `m`).
_UNIT_WITH_POWER = re.compile(r"([A-Za-z]+)\s*\}?\s*(?:\^\s*\{?\s*(-?\d+)\s*\}?)?")
_POWER_AT_END = re.compile(r"\^\s*\{?\s*(-?\d+)\s*\}?\s*$")


def _power_fits(word: str, power: str, carried: frozenset[str]) -> bool:
    """True unless the gold states the unit `word` names with another power (`5 cm^2` is an
    area, never the gold `5 cm`; `5 s^{-1}` a rate)."""
    unit = _unit_id(word)
    if unit is None or not any(w.startswith(f"={unit}^") for w in carried):
        return True
    return f"={unit}^{power}" in carried


def _strip_plain_unit(s: str, carried: frozenset[str] = frozenset(), raised_to: str = "1"
                      ) -> str:
    """`12 dollars`, `4 \\frac{4}{9} days`, `3 cups of flour`, `20 cm^{2}` -> the value: one to
    three plain words (the last one squared or cubed) after a value that ends in a digit or a
    brace, when they read as a unit."""
    if s.endswith(")") and "(" in s:  # `9 (apples)`: a unit in parentheses (ASDiv's golds)
        open_at = s.rindex("(")
        inside, value = s[open_at + 1:-1].strip(), s[:open_at].rstrip()
        if (inside.replace(" ", "").isalpha() and inside.isascii() and _is_unit(inside, carried)
                and inside.lower() not in _NOT_UNITS and value[-1:].isdigit()
                and _strip_plain_unit(f"{value} {inside}", carried) == value):
            return value
    power = _UNIT_POWER.search(s, max(len(s) - 9, 0))
    if power is not None and power.end() == len(s) and s[:power.start()][-1:].isalpha():
        unit = s[:power.start()]
        raised = power.group().strip(" ^{}")
        if not _power_fits(unit.rsplit(" ", 1)[-1], raised, carried):
            return s
        value = _strip_plain_unit(unit, carried, raised)
        return value if value != unit else s
    for words in (3, 2, 1):
        parts = s.rsplit(" ", words)
        if len(parts) != words + 1:
            continue
        prefix, unit_words = parts[0].rstrip(), parts[1:]
        if (all(word.replace("-", "").isalpha() and word.isascii() for word in unit_words)
                and unit_words[0].lower() not in _NOT_UNITS
                and _is_unit(" ".join(unit_words), carried, raised_to)
                and prefix[-1:] in "0123456789}" and any(ch.isdigit() for ch in prefix)
                and not any(ch.isalpha() for ch in _COMMAND.sub("", prefix))):
            return prefix.rstrip(_PUNCT)  # a value with no variables: `x + 2 yz` keeps yz
    return s


_COMMAND = re.compile(r"\\[a-zA-Z]+")


# Words after a value that say it is the sum asked (`\\$12 total`, `12 in all`, `12
# altogether`): they name the asked quantity, never another value.
_IN_TOTAL = re.compile(r"(?<![A-Za-z])(?:in\s+total|in\s+all|total|altogether|combined)\.?\s*$",
                       re.IGNORECASE)


def _is_unit(text: str, carried: frozenset[str] = frozenset(), power: str = "1") -> bool:
    """True when `text` (what follows a number) is known not to change the value: every word
    of it a unit, a currency or a counted noun (`_UNIT_SYMBOLS`, `_UNIT_WORDS`), or a word the
    gold carries too (`carried`). Anything else (`halves`, `lakh`, `factorial`, `or more`, the
    constants `i` and `e`) stays, and the pair is decided as what it says, or is the judge's."""
    if _DAY_HALF.fullmatch(text.strip("{} \t")):
        return False  # `4:30 \text{ p.m.}`: a.m. and p.m. say which 4:30
    text = _unit_spelled(text)  # `doz.`: dozen
    text, totalled = _IN_TOTAL.subn("", text)  # `\\$12 total`, `5 apples in all`: the sum asked
    words = re.findall(r"[A-Za-z]+", text)
    if not words:
        return bool(totalled) and not text.strip(" {}\t\n.,")
    gold_units = {word for word in carried if word.startswith("=")}
    currencies = _gold_currencies(carried) if any(w.startswith(_SIGNED) for w in carried) else set()
    raised = _POWER_AT_END.search(text)
    if raised is not None:
        power = raised.group(1)
    elif len(words) > 1 and words[-2].lower() in _UNIT_MODIFIERS:  # `square feet`: feet^2
        power = "3" if words[-2].lower() in ("cubic", "cu") else "2"
    if _last_divided(text):  # `m/s`: s^-1
        power = str(-int(power))
    if gold_units and not _power_fits(words[-1], power, carried):
        return False  # `5 cm^2` against `5 cm`: the unit of another quantity
    asked = _asked_units(carried) if not gold_units and not currencies else None
    rates = {name[1:] for name in asked if name.startswith(_WHOLE)} if asked else set()
    whole = _whole_unit(f"1 {text}") if rates else None
    if whole is not None and whole not in rates:
        return False  # `5 m` for `How many meters per second?`, `5 mph` for `How many knots?`
    if whole is not None and all(_unit_id(word) is not None or word.lower() in _RATE_UNITS
                                 or word.lower() in _UNIT_GLUE for word in words):
        return True  # `5 knots` for `How many nautical miles per hour?`: the rate asked, whole
    counted = {name for name in asked if name in _COUNTING_GROUPS} if asked else set()
    if counted and not any(word.lower().removesuffix("s") in counted for word in words):
        return False  # `5 eggs` for `How many dozen eggs?`: eggs, not dozens
    spans = _divisors(text)
    divided = [any(start < word.start() < end for start, end in spans)
               for word in re.finditer(r"[A-Za-z]+", text)]
    money = asked is not None and _MONEY_ASKED in asked
    kinds_asked = {int(word[len(_MEASURE_KIND):]) for word in carried
                   if word.startswith(_MEASURE_KIND)}
    for at, word in enumerate(words):
        if word.lower().removesuffix("s") in counted:
            if at > 0 and words[at - 1].lower().removesuffix("s") in counted:
                return False  # `5 dozen dozen`: 60 dozen, not 5
            continue  # `5 dozen` for `How many dozen eggs?`: the unit the question counts in
        if f"{_CONTENT}{word.lower()}" in carried:
            return False  # `7 cans` for `How many packs of 6 cans?`: the content, not the group
        unit = _unit_id(word)
        if unit in _CURRENCY_IDS and _NO_MONEY in carried and not currencies:
            return False  # `7 dollars` for `How much does the bag weigh?`: another kind
        if kinds_asked and not gold_units and not divided[at] and any(
                unit in kind and at_kind not in kinds_asked for at_kind, kind in enumerate(_KINDS)):
            return False  # `7 kg` for `How far did she run?`: a measure of another kind
        if money and unit == "lb" and _POUNDS.fullmatch(word):
            unit = "GBP"  # `5 pounds` for `How many pounds does it cost?`: sterling
        if (money or currencies) and not (unit in _CURRENCY_IDS and not divided[at]) and (
                word.lower() != "per" or at == len(words) - 1) and not (divided[at] and (
                currencies or unit is not None and asked is not None and f"/{unit}" in asked)):
            return False  # `12 pens`, `12 dollars per pen` for `How much does he spend?`
        if unit is None and f"={word}" in gold_units:
            unit = word  # a gold's unit with no id, as it spells it (`Mg`: `_spelled_unit`)
        if unit is not None and gold_units and f"={unit}" not in gold_units:
            return False  # `5 cm` against `5 m`: another unit than the gold's
        if unit in _CURRENCY_IDS and currencies and unit not in currencies:
            return False  # `5 cents` against `\\$5`: another currency
        if unit is not None and unit not in _CURRENCY_IDS and currencies and not divided[at]:
            return False  # `5 kg` against `\\$5`: no amount of money (`per kg`, `/h`: a rate)
        if unit is not None and asked is not None and (f"/{unit}" if divided[at] else unit) not in asked:
            return False  # `5 kg` for `How many grams?`, `5 days` for `How many hours per day?`
        if unit is not None and asked is not None and not divided[at] and any(
                name.startswith(f"{unit}^") for name in asked) and (
                f"{unit}^{power if at == len(words) - 1 else '1'}" not in asked):
            return False  # `5 m` for `How many square meters?`, `5 m^2` for `How many meters?`
        if word in _METRES_OR_MILLIONS and at + 1 < len(words) \
                and words[at + 1].lower() not in ("per", "of") and _unit_id(words[at + 1]) is None:
            return False  # `5 m apples`: five million apples, not metres
        if word in carried or _known_unit(word) or f"={unit}" in gold_units or (
                word.lower() in carried and not _other_prefix(word, gold_units)) or (
                unit is not None and (unit in _named_units(carried) or asked is not None and unit in asked)):
            continue  # (`5 kilos`, `5 mins` against `5 kg`, `5 minutes`, or `How many minutes`,
            # `5 nmi` for `How many nautical miles?`)
        if word.lower() in _UNIT_MODIFIERS and at + 1 < len(words):
            continue  # `square feet`, `cubic cm`: a modifier of the unit that follows
        if (word.lower() == "per" or word.lower() == "of" and at > 0) and at < len(words) - 1:
            continue  # `cups of flour`, `miles per hour`, `25\\% per year`: before a known word
        return False
    return True


@byte_cache(1 << 20)  # the question's words are client text: bounded by bytes
def _named_units(carried: frozenset[str]) -> frozenset[str]:
    """The ids of the units the gold's and the question's words name (`How many minutes`:
    min), so that an answer may spell its unit otherwise (`5 mins`, `5 kilos`, `5 kms`)."""
    return frozenset(unit for unit in map(_unit_id, carried) if unit is not None)


def _other_prefix(word: str, gold_units: set[str]) -> bool:
    """True when `word` is a unit the gold states written with its first letter in the other
    case where that case is another SI prefix (`Mm` mega against the gold's `mm` milli, `mB`
    against `MB`; `Kg` is still `kg`)."""
    return any(unit[1:].lower() == word.lower() and {unit[1:2], word[:1]} in _PREFIX_CASES
               for unit in gold_units)


_PREFIX_CASES = ({"m", "M"}, {"p", "P"}, {"b", "B"})  # milli, mega; pico, peta; bit, byte


# Unit symbols that are also magnitudes (`m`: metres, and millions in `\\$5m`): a unit only
# last or before another unit (`5 m/s`, `5 m per s`), never before a counted noun.
_METRES_OR_MILLIONS = frozenset({"m"})


def _known_unit(word: str) -> bool:
    """A unit, currency or counted noun: abbreviations as written (`m` is metres, `M` is not
    read; a symbol in lower case as `_unit_id` reads it, `kwh`), words in any case and in
    the plural."""
    if word in _UNIT_SYMBOLS or word in _FOLDED_IDS:
        return True
    lower = word.lower()
    if len(lower) < 3:
        return False
    return lower in _UNIT_WORDS or any(
        lower.endswith(ending) and lower[:len(lower) - len(ending)] + stem in _UNIT_WORDS
        for ending, stem in (("ies", "y"), ("ves", "f"), ("es", ""), ("s", "")))


_DAY_HALF = re.compile(r"[aApP]\.?\s?[mM]\.?")


# What may be dropped after a value: units, currencies and counted nouns, known not to change
# the value they follow (an allow-list: a word not here is kept, see `_is_unit`).
# Symbols as written (case matters: `m` is metres, `M` may be million or molar).
_UNIT_SYMBOLS = frozenset("""
m cm mm km nm um dm pm in ft yd mi au ly pc kpc Mpc s ms ns us min h hr hrs yr yrs wk
g gm kg mg ug lb lbs oz L ml mL cl dl cc gal qt pt tsp tbsp fl
J kJ MJ cal kcal Cal eV keV MeV GeV TeV W kW MW GW mW Wh kWh V mV kV A mA Hz kHz MHz GHz
N kN Pa kPa MPa GPa hPa atm bar mbar torr Torr mmHg psi mol mmol C F Wb lm lx dB rpm mph kph
kmh kmph mpg kmpl fps px pts pt USD EUR GBP INR JPY CNY RMB Rs rs usd eur gbp inr yen yuan rmb
""".split())  # noqa: SIM905 (a list of symbols reads best as text)
# Units of measure and currencies, words in any case, singular (a plural is read by its
# ending). Each names one unit (`_unit_id`: its id in `_UNIT_IDS`, else the word itself), so
# an answer's unit is dropped against a gold that states one only when it is the same unit
# (`5 decades` is not `5 years`, `5 megabytes` not `5 bytes`, `5 dimes` not `5 cents`).
_MEASURE_WORDS = frozenset("""
meter metre centimeter centimetre millimeter millimetre kilometer kilometre nanometer
micrometer micron angstrom inch foot feet yard mile light-year parsec league furlong
second sec minute hour day week month year decade century centuries millisecond
microsecond nanosecond
gram kilogram milligram microgram tonne ton pound ounce stone grain carat
liter litre milliliter millilitre centiliter gallon quart pint cup tablespoon teaspoon
acre hectare
joule kilojoule calorie kilocalorie electronvolt watt kilowatt megawatt volt ampere amp
hertz newton pascal atmosphere mole kelvin celsius fahrenheit coulomb ohm
tesla weber lumen lux decibel byte kilobyte megabyte gigabyte terabyte bit pixel
degree radian revolution rev knot
dollar cent penny pennies nickel dime euro yen yuan rupee peso franc ruble rouble won
dinar dirham shilling pence buck
""".split())  # noqa: SIM905 (a list of words reads best as text)
# Counted nouns, in any case, singular: an answer may drop one after its count whatever the
# gold counts (`**5 apples**` answers 5).
_COUNTED_NOUNS = frozenset("""
unit item piece person people student child children adult kid man men woman women boy girl
friend member player worker teacher customer visitor passenger employee guest
way solution integer number digit term outcome possibility arrangement combination
permutation choice step move point seat page chapter book
apple orange banana cookie cake cupcake candy candies egg ball card ticket molecule atom cycle
coin stamp marble pencil pen flower tree car bus animal dog cat bird fish sticker toy game
sandwich pizza slice pie muffin shirt sock shoe hat chair table room house tile block
gift present paper sheet problem
question song vote meal edge face vertex vertices triangle rectangle value multiple divisor
flour sugar water milk juice rice oil paint sand soil salt butter cream tea coffee gas fuel
wood fabric cloth rope wire ribbon string chocolate cheese meat beef bread dough soup
lemonade soda ice snow mulch gravel concrete fertilizer seed grass hay food pasta cereal
honey syrup dirt
""".split())  # noqa: SIM905 (a list of words reads best as text)
_UNIT_WORDS = _MEASURE_WORDS | _COUNTED_NOUNS
# Containers, packs and groups, singular: on neither list, since `5 boxes` (of crayons)
# counts boxes, and `5 rows` (of apples) rows, another quantity than the crayons or apples a
# question asks for. An answer drops one only where the gold or the question names it
# (`carried_words`, `question_words`).
_CONTAINERS = frozenset("""
box bag jar can carton basket bucket bowl bottle glass plate pack packet crate tray sack
case set group team row column
""".split())  # noqa: SIM905 (a list of words reads best as text)
# Units that measure one kind of thing in different sizes, one id per unit (its symbol): an
# answer's unit may be dropped against a gold that states a unit only when it is the same one
# (`5 cm` is not `5 m`; `5 meters` is `5 m`). SI writes the litre both ways (`L`, `l`).
_UNIT_IDS = {
    **dict.fromkeys(["m", "meter", "metre"], "m"), **dict.fromkeys(["cm", "centimeter",
    "centimetre"], "cm"), **dict.fromkeys(["mm", "millimeter", "millimetre"], "mm"),
    **dict.fromkeys(["km", "kilometer", "kilometre"], "km"), **dict.fromkeys(["nm",
    "nanometer"], "nm"), **dict.fromkeys(["in", "inch"], "in"), **dict.fromkeys(["ft", "foot",
    "feet"], "ft"), **dict.fromkeys(["yd", "yard"], "yd"), **dict.fromkeys(["mi", "mile"], "mi"),
    **dict.fromkeys(["g", "gm", "gram"], "g"), **dict.fromkeys(["kg", "kilogram"], "kg"),
    **dict.fromkeys(["mg", "milligram"], "mg"), **dict.fromkeys(["lb", "lbs", "pound"], "lb"),
    **dict.fromkeys(["oz", "ounce"], "oz"), "ton": "ton", "tonne": "t",
    **dict.fromkeys(["s", "sec", "second"], "s"), **dict.fromkeys(["ms", "millisecond"], "ms"),
    **dict.fromkeys(["min", "minute"], "min"), **dict.fromkeys(["h", "hr", "hrs", "hour"], "h"),
    "day": "d", "week": "wk", "month": "mo", **dict.fromkeys(["yr", "yrs", "year"], "yr"),
    **dict.fromkeys(["L", "l", "liter", "litre"], "L"), **dict.fromkeys(["ml", "mL", "milliliter",
    "millilitre"], "mL"), **dict.fromkeys(["gal", "gallon"], "gal"), "cup": "cup",
    **dict.fromkeys(["qt", "quart"], "qt"), "pint": "pt",
    **dict.fromkeys(["dollar", "usd", "USD", "buck"], "$"), **dict.fromkeys(["cent", "penny",
    "pennies"], "cent"), **dict.fromkeys(["euro", "eur", "EUR"], "EUR"), "yen": "JPY",
    **dict.fromkeys(["yuan", "rmb", "RMB", "CNY"], "CNY"), **dict.fromkeys(["rupee", "rs", "Rs",
    "INR", "inr"], "INR"), **dict.fromkeys(["celsius", "C"], "C"), **dict.fromkeys(
    ["fahrenheit", "F"], "F"), "kelvin": "K", **dict.fromkeys(["radian", "rad"], "rad"),
    **dict.fromkeys(["gbp", "GBP", "quid"], "GBP"),
}
# SI units that take a prefix: the symbol and the word of each (metre, gram, second and litre
# are above). A prefixed unit is another unit (`5 kW` is not `5 W`): each form has its own id,
# its symbol as written (`kW`, `kilowatt`).
_SI_BASES = {"J": "joule", "W": "watt", "Hz": "hertz", "N": "newton", "Pa": "pascal",
             "cal": "calorie", "eV": "electronvolt", "V": "volt", "A": "ampere", "mol": "mole",
             "Wh": "watt-hour"}
_SI_PREFIXES = {"k": "kilo", "M": "mega", "G": "giga", "T": "tera", "m": "milli", "u": "micro",
                "n": "nano", "p": "pico", "c": "centi", "d": "deci", "h": "hecto"}
for _symbol, _word in _SI_BASES.items():
    _UNIT_IDS.setdefault(_symbol, _symbol)
    _UNIT_IDS.setdefault(_word, _symbol)
    for _prefix, _prefix_word in _SI_PREFIXES.items():
        _UNIT_IDS.setdefault(_prefix + _symbol, _prefix + _symbol)
        _UNIT_IDS.setdefault(_prefix_word + _word, _prefix + _symbol)
_UNIT_IDS.update({"amp": "A", "milliamp": "mA", "Cal": "kcal", "kilocalorie": "kcal"})
# Other spellings of one unit, and prefixed forms of units the SI table above does not hold.
_UNIT_IDS.update({
    **dict.fromkeys(["dm", "decimeter", "decimetre"], "dm"), **dict.fromkeys(["Mm", "megameter",
    "megametre"], "Mm"), **dict.fromkeys(["um", "micrometer", "micrometre", "micron"], "um"),
    **dict.fromkeys(["ly", "light-year"], "ly"), **dict.fromkeys(["pc", "parsec"], "pc"),
    **dict.fromkeys(["us", "microsecond"], "us"), **dict.fromkeys(["ns", "nanosecond"], "ns"),
    **dict.fromkeys(["ps", "picosecond"], "ps"),
    **dict.fromkeys(["ug", "microgram"], "ug"), "kilo": "kg",
    **dict.fromkeys(["cl", "centiliter", "centilitre"], "cL"), "dl": "dL", "cc": "mL",
    **dict.fromkeys(["tsp", "teaspoon"], "tsp"), **dict.fromkeys(["tbsp", "tablespoon"], "tbsp"),
    **dict.fromkeys(["atm", "atmosphere"], "atm"), **dict.fromkeys(["dB", "decibel"], "dB"),
    **dict.fromkeys(["Wb", "weber"], "Wb"), **dict.fromkeys(["lm", "lumen"], "lm"),
    **dict.fromkeys(["lx", "lux"], "lx"), **dict.fromkeys(["px", "pixel"], "px"),
    **dict.fromkeys(["rev", "revolution"], "rev"), **dict.fromkeys(["kn", "knot"], "kn"),
    "nmi": "nmi", **dict.fromkeys(["wk", "wks"], "wk"),
    **dict.fromkeys(["ruble", "rouble"], "RUB"),
    "hectare": "ha", "ares": "a", "byte": "B",
    **{f"{symbol}B": f"{symbol}B" for symbol in "kMGT"}, "KB": "kB",
    **{f"{word}byte": f"{symbol}B" for symbol, word in _SI_PREFIXES.items() if symbol in "kMGT"},
})
# Every other unit of the lists names a unit of its own (`decade`, `bit`, `dime`, `psi`); but
# a degree is an angle or a temperature (`^\\circ` is read apart), `pm` is also p.m., and a
# rate's symbol (`mph`) names the units a gold spells apart (`miles per hour`).
for _unit in _MEASURE_WORDS - {"degree", "centuries"}:
    _UNIT_IDS.setdefault(_unit, _unit)
for _unit in _UNIT_SYMBOLS - {"pm", "rpm", "fps"} - set(_RATE_UNITS):
    _UNIT_IDS.setdefault(_unit, _unit)
# Currency signs before or after a value, by the ids of the currencies they write (`¥` is yen
# or yuan); any other currency sign (Unicode category Sc) is its own id.
_SIGN_CURRENCIES = {"\\$": ("$",), "\u20ac": ("EUR",), "\u00a3": ("GBP",), "\u20b9": ("INR",),
                    "\u00a5": ("JPY", "CNY"), "\u00a2": ("cent",), "\u5143": ("CNY",),
                    "\u5186": ("JPY",)}  # (`元` and `円` are written as signs are: `120 元`)
_CURRENCY_SIGNS = tuple(ch for ch in map(chr, range(0x10000)) if _is_currency_sign(ch))
"""Every currency sign of Unicode (category Sc) but math's `$`."""
_CURRENCY_IDS = frozenset({"$", "cent", "EUR", "GBP", "JPY", "CNY", "INR", "RUB", "nickel", "dime",
                           "peso", "franc", "won", "dinar", "dirham", "shilling", "pence"}) | {
    f"{_OTHER_CURRENCY}{sign}" for sign in _CURRENCY_SIGNS if sign not in _SIGN_CURRENCIES}
"""The ids of currencies: the named ones, and each other sign of Unicode (`sign ₩`): where a
question asks an amount of money in no currency it names, every sign answers it (`₩7`)."""
# ISO 4217's codes of the currencies in use (as written, upper case: `USD 7`, `7 KRW`).
_ISO_4217 = frozenset("""
    AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN
    BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR
    FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD
    JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT
    MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG
    QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB
    TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER
    ZAR ZMW ZWL
""".split())  # noqa: SIM905
_NOT_CURRENCY_WORDS = frozenset({"colon", "mark", "mill", "dram"})
"""Names of currency signs that are other words first (`₡` COLON SIGN, `₻` NORDIC MARK SIGN,
`֏` ARMENIAN DRAM SIGN: a weight's dram)."""


def _sign_name(sign: str) -> str:
    """The currency a sign's Unicode name names, lower case: its last word but a final `SIGN` or
    `MARK`, `SYMBOL` and `CURRENCY` (`₩` WON SIGN: `won`; `₺` TURKISH LIRA SIGN: `lira`; `฿` THAI
    CURRENCY SYMBOL BAHT: `baht`; `₠` EURO-CURRENCY SIGN: `euro`)."""
    words = unicodedata.name(sign, "").replace("-", " ").split()
    words = [word for word in words[:-1] + [w for w in words[-1:] if w not in ("SIGN", "MARK")]
             if word not in ("SYMBOL", "CURRENCY")]
    return words[-1].lower() if words else ""


_CURRENCY_WORDS = {word: currency for word, currency in _UNIT_IDS.items()
                   if currency in _CURRENCY_IDS} | {
    name: _SIGN_CURRENCIES.get(sign, (f"{_OTHER_CURRENCY}{sign}",))[0]
    for sign in _CURRENCY_SIGNS if (name := _sign_name(sign)) and name not in _UNIT_IDS
    and name not in _NOT_CURRENCY_WORDS} | {
    currency: currency for currency in _CURRENCY_IDS if currency.isalpha() and currency.islower()}
"""One table of the words that name a currency, and its id: the unit table's currencies
(`dollar`, `buck`, `cent`, `euro`, `rupee`, `Rs`, `USD`), every currency sign's name
(`_sign_name`: `won`, `ruble`, `baht`, `naira`; not `pound`, a weight's word first) and the
currencies named by id (`peso`, `franc`, `dinar`); with ISO 4217's codes (`_ISO_4217`), money
wherever it is written beside a value (`money_unasked`: `7 \\text{ dollars}`, `USD 7`)."""


def _unit_id(word: str) -> str | None:
    """The id of a unit of `_UNIT_IDS` (symbols as written, words in any case and plural). A
    symbol of two letters or more written in lower case, as models write symbols (`kwh`,
    `hz`, `kj`), names the unit it folds to where it folds to exactly one and no letter it
    lowers is one whose case names another unit (`_FOLDED_IDS`: `mw` is mW or MW, `mb` is
    no MB, `Ps` is no `ps`). One letter is read as written (`G`, `S`, `c`, `n` are other
    units and quantities in the other case)."""
    if word in _UNIT_IDS and (len(word) <= 3 or word.islower()):
        return _UNIT_IDS[word]
    lower = word.lower()
    if len(lower) < 2:
        return None
    if len(lower) >= 3:
        for ending, stem in (("", ""), ("ies", "y"), ("es", ""), ("s", "")):
            if lower.endswith(ending):
                found = _UNIT_IDS.get(lower[:len(lower) - len(ending)] + stem)
                if found is not None:
                    return found
    return _FOLDED_IDS.get(word) if word.islower() else None


def _folded_ids() -> dict[str, str]:
    """Each lower-case spelling of an everyday symbol (`_UNIT_SYMBOLS`, not the table's every
    prefixed form: `ha` is no hecto-ampere) that names one unit (`kwh`: kWh, `hz`: Hz), where
    no letter lowered is of a pair in `_PREFIX_CASES`."""
    found: dict[str, set[str]] = {}
    for symbol, unit in _UNIT_IDS.items():
        if len(symbol) >= 2 and not symbol.islower() and symbol in _UNIT_SYMBOLS:
            found.setdefault(symbol.lower(), set()).add(unit)
    for symbol in _UNIT_IDS:  # a spelling the table writes in lower case is its own unit
        found.pop(symbol, None)
    return {lower: next(iter(units)) for lower, units in found.items() if len(units) == 1
            and not any(pair & {upper} for upper in _case_changed(lower, units)
                        for pair in _PREFIX_CASES)}


def _case_changed(lower: str, units: set[str]) -> set[str]:
    """The upper-case letters of the symbols of `units` that `lower` writes lowered."""
    return {ch for symbol, unit in _UNIT_IDS.items() if unit in units and symbol.lower() == lower
            for ch in symbol if ch.isupper()}


_FOLDED_IDS = _folded_ids()


# Words that only qualify the unit after them (`square feet`, `cubic cm`, `sq units`).
_UNIT_MODIFIERS = frozenset({"square", "sq", "cubic", "cu"})


@dataclass(frozen=True)
class Number:
    """A number read from an answer string."""

    value: Fraction
    decimal: bool  # written with a decimal point, i.e. possibly rounded
    percent: bool  # written with a percent sign
    half_unit: Fraction = Fraction(0)  # half of the last printed digit of a decimal (as a value)


def parse_number(s: str) -> Number | None:
    """Integers, decimals, thousands separators, `a/b`, `\\frac{a}{b}`, percent; else `None`."""
    s = s.strip()
    while _wrapped(s) and "," not in s:
        s = s[1:-1].strip()  # (((2))) is 2; (1)(2) is not wrapped
    percent = s.endswith("%")
    if percent:
        s = s[:-1].strip()
    if re.search(r",\s", s):
        return None  # "1, 100" is a list of two numbers, not 1100
    s = s.replace(" ", "")
    if _THOUSANDS.match(s):
        s = s.replace(",", "")
    if len(s) > 400:  # int() refuses more than 4300 digits; long numbers go to sympy limits
        return None
    if _DECIMAL.match(s):
        digits = len(s.split(".", 1)[1]) if "." in s else 0
        half_unit = Fraction(1, 2 * 10 ** digits) / (100 if percent else 1)
        return Number(Fraction(s), "." in s, percent, half_unit)
    power = _POWER_OF_TEN.match(s)
    if power is not None:
        return _power_of_ten(power, percent)
    slash = _SLASH.match(s) or _FRAC.match(s)
    if slash is None:
        return None
    if slash.re is _SLASH:
        num, den = slash.group(1), slash.group(2)
    else:
        num = slash.group(1) + (slash.group(2) or slash.group(3))
        den = slash.group(4) or slash.group(5)
    if int(den) == 0:
        return None
    return Number(Fraction(int(num), int(den)), False, percent)


def _power_of_ten(match: re.Match[str], percent: bool) -> Number | None:
    """`2.5 \\times 10^{-3}`, `10^{6}`: exact when the mantissa is an integer, else a decimal
    whose last printed digit is scaled by the power."""
    mantissa, exponent = match.group(1) or "1", int(match.group(2) or match.group(3))
    if abs(exponent) > 400:
        return None
    scale = Fraction(10) ** exponent
    digits = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    half_unit = Fraction(1, 2 * 10 ** digits) * scale / (100 if percent else 1)
    return Number(Fraction(mantissa) * scale, "." in mantissa, percent, half_unit)


def _wrapped(s: str) -> bool:
    """True when the first `(` of `s` closes at its last character."""
    if not (s.startswith("(") and s.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(s):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i == len(s) - 1
    return False


def _strip_trailing_unit(s: str, carried: frozenset[str] = frozenset()) -> str:
    """`12 \\text{ cm}` -> `12`: a unit text at the end after a number (linear: the unit is
    matched at the end only, the prefix checked by plain string tests)."""
    if not s.endswith("}") and not s[-1:].isdigit():
        return s
    start = max(s.rfind("\\text"), s.rfind("\\mbox"), s.rfind("\\mathrm"))
    if start <= 0 or not _UNIT_AT_END.match(s, start):
        return s
    prefix = s[:start].rstrip()
    if not any(ch.isdigit() for ch in prefix) or prefix[-1:].isalpha() or prefix.endswith("\\"):
        return s
    unit = _unit_spelled(s[start:])  # `\text{ t}`: the tonne
    if not _is_unit(unit[unit.index("{"):], carried):
        return s  # `1+2\mathrm{i}`, `10\text{ or more}`, `3\text{ halves}`: not a unit
    return prefix


# A plain number and what follows it, when that may be a unit built of parts.
_NUMBER_THEN = re.compile(r"^([-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+))\s*((?:/\s*)?\\(?:text|mbox|mathrm|frac)\b.*)$",
                          re.DOTALL)
# The marks a unit built of parts is written with (`\text{ J/(kg}\cdot\text{K)}`,
# `\frac{\text{m}}{\text{s}}`, `\text{m}\cdot\text{s}^{-2}`); its words are read apart.
_UNIT_MARKS = re.compile(r"\\(?:text|mbox|mathrm|frac|cdot)(?![a-zA-Z])|\^\s*\{?\s*-?\d\s*\}?"
                        r"|[{}()/\s.]")
_POWER_OF_POWER = re.compile(r"\^\s*\{?\s*-?\d+\s*\}?\s*\^")
# Symbols that are units only inside a unit of parts (`J/(kg K)`: kelvin); alone, `5 K` may
# be thousands.
_PART_UNIT_SYMBOLS = {"K": "kelvin"}


def _strip_compound_unit(s: str, carried: frozenset[str] = frozenset()) -> str:
    """`5\\text{ J/(kg}\\cdot\\text{K)}`, `5 \\frac{\\text{m}}{\\text{s}}` -> `5`: a plain
    number followed only by unit text, products, quotients, brackets and powers, every word
    of it a unit (`_is_unit`, with the power of its last word)."""
    found = _NUMBER_THEN.match(s)
    if found is None or len(s) > 200:
        return s
    tail = found.group(2)
    if _POWER_OF_POWER.search(tail):
        return s  # `m²^2`: a power of a power, m^4, read as no unit
    words = _UNIT_MARKS.sub(" ", tail).split()
    if not words or not all(word.isascii() and word.isalpha() for word in words):
        return s
    if len(words) > 1:
        words = [_PART_UNIT_SYMBOLS.get(word, word) for word in words]
    power = _POWER_AT_END.search(tail)
    joined = " ".join(words)
    if _last_divided(tail) and not _last_divided(joined):  # `\\frac{\\text{m}}{\\text{s}}`
        joined = " ".join(words[:-1]) + "/" + words[-1]
    text = joined + (f"^{{{power.group(1)}}}" if power else "")
    return found.group(1) if _is_unit(text, carried) else s


def is_choice(answer: str) -> bool:
    """True for a multiple-choice letter: `C`, `(C)`."""
    return choice_letter(answer) is not None


def choice_letter(gold: str) -> str | None:
    """The letter when the gold is a multiple-choice answer: `C` or `(C)`."""
    if re.fullmatch(r"[A-E]|\([A-Ea-e]\)", gold):
        return gold.strip("()").upper()
    return None


def is_prose(s: str) -> bool:
    words = s.lower().split()
    # Two-letter tokens are more often products of variables (`xy`) than words, except "no".
    return (bool(_WORDS.match(s)) and any(len(w) > 2 or w == "no" for w in words)
            and not any(w in _MATH_WORDS for w in words))


# --- "x < a or x > b" is the set (-inf, a) U (b, inf) -----------------------------------------

_OR = re.compile(r"\s(?:or|\\lor|\\vee)\s")
_RELATION = re.compile(r"(<=|>=|\\leq?|\\geq?|\\lt|\\gt|[<>≤≥])")
_LESS = {"<": "<", "\\lt": "<", "<=": "<=", "\\le": "<=", "\\leq": "<=", "≤": "<="}
_GREATER = {">": ">", "\\gt": ">", ">=": ">=", "\\ge": ">=", "\\geq": ">=", "≥": ">="}
_VARIABLE = re.compile(r"[a-zA-Z]")


def disjunction_as_union(answer: str) -> str | None:
    """`x < -6 or x > -2` (inequalities in one variable joined by "or") written as the union
    of intervals it means, `(-\\infty, -6) \\cup (-2, \\infty)`, or None. latex2sympy reads
    "or" and "and" alike (a set of relations), so the connective is read here, from the text."""
    if len(answer) > 400 or _OR.search(answer) is None or " and " in answer:
        return None
    intervals = []
    variables = set()
    for part in _OR.split(answer):
        interval = _interval(part.strip())
        if interval is None:
            return None
        variable, low, high = interval
        variables.add(variable)
        intervals.append((low, high))
    if len(variables) != 1 or len(intervals) < 2:
        return None
    intervals.sort(key=lambda bounds: bounds[0][0])
    return " \\cup ".join(_write(low, high) for low, high in intervals)


_SET_BUILDER = re.compile(
    r"\\\{\s*([a-zA-Z])\s*(?:\\in\s*(?:\\mathbb\{R\}|\\R|\\mathbb R)\s*)?"
    r"(?:\\middle\s*\||\\mid|\||:)([^{}|]*)\\\}")


def set_builder_as_intervals(answer: str) -> str | None:
    """`\\{x | -2 \\le x < 1\\}` (a set of real numbers in one variable whose condition is an
    inequality, a chain, or inequalities joined by "or") written as the interval or union it
    is, `[-2, 1)`, or None. A set over another domain (`\\mathbb{Z}`) or with another
    condition is left as it is."""
    if len(answer) > 400:
        return None
    match = _SET_BUILDER.fullmatch(answer.strip())
    if match is None:
        return None
    variable, condition = match.group(1), match.group(2).strip()
    parts = _OR.split(condition)
    found = [_interval(part.strip()) for part in parts]
    if not all(f is not None and f[0] == variable for f in found):
        return None
    if len(parts) == 1:
        return inequality_as_interval(condition)
    return disjunction_as_union(condition)


def as_intervals(answer: str) -> str | None:
    """The intervals a set-builder (`set_builder_as_intervals`) or a disjunction of
    inequalities (`disjunction_as_union`) means, or None."""
    return set_builder_as_intervals(answer) or disjunction_as_union(answer)


def inequality_as_interval(answer: str) -> str | None:
    """`0.5 \\le x < 4` (one inequality, or a chain, in one variable) written as the interval
    it means, `[0.5, 4)`, or None (read as `disjunction_as_union` reads each of its parts)."""
    if len(answer) > 400 or _OR.search(answer) is not None or " and " in answer:
        return None
    interval = _interval(answer.strip())
    return None if interval is None else _write(interval[1], interval[2])


Bound = tuple[float, str, bool]  # (value for sorting, text, closed)


def _interval(part: str) -> tuple[str, Bound, Bound] | None:
    """(variable, low, high) for `x < a`, `a \\le x`, `a < x \\le b`; None otherwise."""
    pieces = _RELATION.split(part)
    if len(pieces) not in (3, 5):
        return None
    terms = [p.strip() for p in pieces[0::2]]
    ops = pieces[1::2]
    if len(terms) == 3:  # a < x < b
        if not (_is_variable(terms[1]) and all(op in _LESS for op in ops)):
            return None
        low, high = _bound(terms[0], _LESS[ops[0]]), _bound(terms[2], _LESS[ops[1]])
        return (terms[1], low, high) if low and high else None
    left, op, right = terms[0], ops[0], terms[1]
    if _is_variable(right):  # a < x is x > a
        left, right = right, left
        op = {**{k: ">" + v[1:] for k, v in _LESS.items()},
              **{k: "<" + v[1:] for k, v in _GREATER.items()}}[op]
    if not _is_variable(left):
        return None
    kind = _LESS.get(op) or _GREATER.get(op)
    bound = _bound(right, kind) if kind else None
    if kind is None or bound is None:
        return None
    infinite_low, infinite_high = (float("-inf"), "-\\infty", False), (float("inf"), "\\infty", False)
    return (left, infinite_low, bound) if kind.startswith("<") else (left, bound, infinite_high)


def _is_variable(term: str) -> bool:
    return len(term) == 1 and _VARIABLE.fullmatch(term) is not None


def _bound(term: str, op: str) -> Bound | None:
    value = evaluate(term)
    if value is None or value[1]:
        return None  # not a constant
    return value[0], term, op.endswith("=")


def _write(low: Bound, high: Bound) -> str:
    return f"{'[' if low[2] else '('}{low[1]}, {high[1]}{']' if high[2] else ')'}"


# --- a gold read whole, and a gold that is no answer ---------------------------------------

# What may be dropped from a text read whole (`sentence_key`), an allow-list of markup that
# does not change what a reader reads: spacing macros, a tie `~` joining two words (`5~cm`,
# `at~$x$`; after a space, `=` or `:` it reads "about": `radius: ~5`), `\left`/`\right`,
# `\displaystyle`, math delimiters (`$`, `\(`, `\[`). A LaTeX row break `\\` is kept (matched
# first, so its second backslash is never read as the start of `\[`).
_KEY_MARKUP = re.compile(r"\\\\|\\[!,;:> ]|\\q?quad(?![a-zA-Z])|(?<=[A-Za-z0-9}\])$.,])~(?=\S)"
                         r"|\\left(?![a-zA-Z])"
                         r"|\\right(?![a-zA-Z])|\\displaystyle(?![a-zA-Z])|\\[()\[\]]|\$")
# Text wrappers whose content is read as plain text: `\text{ at }` is " at ".
_KEY_WRAPPER = re.compile(r"\\(?:text|textrm|textnormal|textup|mathrm|mbox)\s*\{([^{}]*)\}")
_DOLLAR_SIGN = "\x00"  # `\$` (a currency sign) while math delimiters `$` are dropped


def sentence_key(text: str) -> str:
    r"""A text as the one reading rule reads it, for comparing a gold read whole (a sentence
    around math: `$\min$ at $x=7$`, `5000 pens should be produced for a cost of $\$ 200$.`)
    with an answer by identity: `rewards.text.read_text` (invisible and format characters,
    bidi controls, look-alike commas and width variants), then math delimiters, spacing
    macros, `\left`/`\right` and `\displaystyle` dropped, `\text{}`/`\mathrm{}`/`\mbox{}`
    wrappers read as their text, `\dfrac`/`\tfrac` as `\frac`, `\$` kept as a currency
    sign, space kept only between two letters or digits (one space), and a final period
    dropped (or two: the gold's own and its sentence's). Everything else stays: case, words,
    symbols, other commands (`\phantom{not}`, `\color`), braces, a `~` that is not a tie,
    an ellipsis (`x=7...`). Linear in the text."""
    s = read_text(text).replace("\\$", _DOLLAR_SIGN)
    s = _FRAC_ALIASES.sub(r"\\\1", s)
    s = _KEY_MARKUP.sub(lambda m: m.group(0) if m.group(0) == "\\\\" else " ", s)
    for _ in range(3):  # `\text{a \mathrm{b}}`: nested wrappers, a bounded number of times
        unwrapped = _KEY_WRAPPER.sub(r" \1 ", s)
        if unwrapped == s:
            break
        s = unwrapped
    out: list[str] = []
    for part in s.split():
        if out and out[-1][-1] not in _TIGHT and part[0] not in _TIGHT:
            out.append(" ")  # `any h`, `3. 5` (not `3.5`); `( -3 , -4 )` is `(-3,-4)`
        out.append(part)
    key = "".join(out)
    end = len(key.rstrip(" ."))
    # a final period, or the gold's and its sentence's (`work..`); an ellipsis (`7...`) stays
    return key[:end] if key.count(".", end) <= 2 else key.rstrip(" ")


_TIGHT = frozenset("()[]{},;=+-*/^_<>|&" + _DOLLAR_SIGN)
"""Signs a space beside does not change: brackets, separators, relations, operations and a
currency sign (`\\$ 200` is `\\$200`)."""


MAX_WORD_ANSWER = 4
"""The most words an answer of words only may have (`no solution`, `converges absolutely`,
`Georgetown Middle School`, `They are the same.`): a longer text with no value in it (no
digit, math, symbol, number word or yes/no) is not an answer (`no_answer_in`); nor is a
shorter one that is a placeholder or repeats a sentence of its question (read with it)."""
_EMPTY_BOX = re.compile(r"\\(?:boxed|fbox)\s{0,3}\{\s{0,3}\}")  # markup around nothing
_ANSWER_SIGNS = frozenset("=<>+*/^_|{}[]%$\\")
_TRUTH_VALUES = frozenset({"yes", "no", "true", "false"})
NUMBER_WORDS = frozenset("""
    zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
    ninety hundred thousand million billion trillion dozen half halves twice double triple
    thrice quarter
""".split())  # noqa: SIM905 (a word list reads better as words)


def _something_to_read(text: str) -> bool:
    """Whether `text` (as `read_text` reads it) holds something a reader reads as an answer:
    a letter or digit in any script, a LaTeX command that is not markup around nothing
    (`\\infty`, `\\emptyset`; `sentence_key` drops spacing, `\\left`/`\\right` and
    delimiters, and reads `\\text{}` as its text), or a sign that is an answer alone
    (`_VALUE_SIGNS`: `∅`, `∞`, a relation). Not: a lone `-`, `?`, `...`, `\\quad`,
    `\\text{ }`, `\\\\`, only invisible characters, or only a chat template's marker text
    (`<|im_end|>`, `</s>`): placeholders and markup."""
    key = sentence_key(_CHAT_MARKER.sub(" ", text))
    return any(ch.isalnum() or ch in _VALUE_SIGNS for ch in key) or _COMMAND_WORD.search(
        key) is not None


_VALUE_SIGNS = frozenset("<>=\u2205\u221e\u2260\u2264\u2265\u2248")  # < > = ∅ ∞ ≠ ≤ ≥ ≈
_COMMAND_WORD = re.compile(r"\\[A-Za-z]")
_CHAT_MARKER = re.compile(r"<\|[^|<>\s]{1,40}\|>|</?s>")  # `<|im_end|>`, `<|eot_id|>`, `</s>`


def no_answer_in(gold: str, question: str | None = None) -> str | None:
    """Why a gold's text is not an answer at all (an instruction such as "Let's think step
    by step.", an explanation, a placeholder, a field mapped wrongly), or None when it is one.
    An answer, an allow-list read on the text as `rewards.text.read_text` reads it: it holds a
    value (`_holds_value`: a digit or numeral of any script, math markup, a math sign, a
    number word, or it opens with yes / no / true / false), or it is at most
    `MAX_WORD_ANSWER` words (a name, an option letter `(B)`, `no solution`, `even`, `They are
    the same.`). A longer text of words only is not one: an instruction, or an explanation
    no rule can check (`A likelihood function cannot take negative values.`). An empty box is
    markup around nothing ("Please reason step by step, and put your final answer within
    \\boxed{}." is an instruction). Never one: a text with nothing to read
    (`_something_to_read`: a placeholder `-`, `?`, markup, invisible characters), or words
    ending in a label that labels nothing (`Answer:`, `The answer is:`).

    `question`, when given (the prompt, as the reward reads it), is read with the gold, for
    what the gold's text alone cannot tell: a placeholder mark (`PLACEHOLDER_MARKS`: `TBD`,
    `N/A`) is an answer only where the question names it (`write N/A if ...`, an option `(D)
    N/A`); and a gold of words only with no value that is a whole sentence of the question,
    outside its options (`_repeats_a_sentence`: "What is 2+2? Think step by step." with the
    gold "Think step by step."), is the prompt's instruction mapped as the gold."""
    read = _EMPTY_BOX.sub(" ", read_text(gold))  # "... final answer within \boxed{}."
    if not _something_to_read(read):
        return f"nothing to read (markup, punctuation or invisible characters): {gold[:60]!r}"
    key = sentence_key(read)  # `Answer:`, `\text{The answer is:}`: what it labels is missing
    if key.endswith(":") and all(ch.isalpha() or ch in " '\u2019-" for ch in key[:-1]):
        return f"a label with nothing after it: {gold[:60]!r}"
    if _is_placeholder(key) and not _names(question, key):
        return (f"a placeholder for a missing answer that the question does not offer as "
                f"one: {gold[:60]!r}")
    if _holds_value(read):
        return None
    if question and _repeats_a_sentence(key, question):
        return (f"words only, no value, and a whole sentence of the question (its "
                f"instruction, not an answer): {gold[:60]!r}")
    words = read.split()
    if len(words) <= MAX_WORD_ANSWER:
        return None
    return (f"{len(words)} words and no value (no digit, math, symbol, number word or "
            f"yes/no): {gold[:60]!r}")


def _holds_value(read: str) -> bool:
    """Whether a text (as `read_text` reads it) holds a value: a digit or numeral (any
    script), math markup (`$`, a LaTeX command: `\\text{even}`), a math sign (`= < > + * / ^
    _ | { } [ ] %`, a minus that is not a hyphen inside a word, a Unicode math symbol, a Greek
    or letterlike letter) or a number word (`Eight pieces of each kind of pie.`); or it opens
    with yes / no / true / false (`No. They can't be.`)."""
    for i, ch in enumerate(read):
        if ch.isnumeric() or ch in _ANSWER_SIGNS or unicodedata.category(ch) == "Sm" \
                or _MATH_LETTERS.fullmatch(ch):
            return True
        if ch == "-" and not (read[i - 1:i].isalpha() and read[i + 1:i + 2].isalpha()):
            return True  # `pq - p - q`, `-x`; not a hyphen inside a word (`log-likelihood`)
    words = [word.strip(".,;:!?\"'()").lower() for word in read.split()]
    return bool(words) and (words[0] in _TRUTH_VALUES
                            or any(word in NUMBER_WORDS for word in words))


PLACEHOLDER_MARKS = frozenset({"tbd", "tba", "tbc", "todo", "fixme", "n/a", "n.a"})
"""What a table writes in a cell whose answer is missing or does not apply (compared
ignoring case, a final period dropped; and `NA` in capitals: `Na` is sodium): never an
answer of its own, an answer only where the question names it (`_names`). Abbreviations
only: `none`, `undefined`, `not applicable`, `cannot be determined` are answers."""


def _is_placeholder(key: str) -> bool:
    return key == "NA" or key.casefold() in PLACEHOLDER_MARKS


def _names(question: str | None, mark: str) -> bool:
    """Whether the question writes `mark` as a word of its own (any case): it offers it as an
    answer (`write N/A if the limit does not exist`, an option `(D) N/A`)."""
    if not question:
        return False
    found = re.search(rf"(?<![A-Za-z0-9]){re.escape(mark)}(?![A-Za-z0-9])",
                      read_text(question[:MAX_QUESTION_CHARS]), re.IGNORECASE)
    return found is not None


# A label that ends as a sentence does, right before a text: `A.` (a lone letter), `ii.` (a
# roman numeral), `1.` opening the line. Other labels (`(A)`, `B)`, `C:`, `- `, `\bullet`) do
# not end a sentence. A line that is only a label labels the line after it.
_OPTION_LABEL = re.compile(r"(?:^|\s)(?:[a-z]|[ivx]{1,4})\.$|^\d{1,3}\.$")
_AROUND = "*_\"'\u201c\u201d\u2018\u2019()>"  # marks around a sentence, not of it
_NEAR = 64  # how far around a sentence its marks and label are read
_LABEL_LINE = re.compile(r"[(\[]?(?:[a-z]|[ivx]{1,4}|\d{1,3})[.)\]:]?")  # `B.`, `(ii)`, `[3]`


def _repeats_a_sentence(key: str, question: str) -> bool:
    """Whether a gold's text (`key`, its `sentence_key`) is a whole sentence of the question,
    outside its options: a sentence of two words or more (a lone letter or word is an
    option's label, `B.`, `Option B.`, or a name); on a line of the question, it starts the
    line or follows a sentence's end (`.`, `?`, `!`), and ends the line or a sentence (a
    `.`, `?`, `!` after it: `Mrs. Hilt` only opens "Mrs. Hilt has two pennies."); never
    after a list or option label (`(A) They are the same.`, `A. They are the same.`, `- No
    change.`), nor one of the unlabelled options a choice cue offers (`_offered_as_option`:
    `Which is true? They are the same. They are different.`), so a gold that is an option's
    text stays an answer. Case is ignored; the question is read line by line by the one
    reading rule (`sentence_key`)."""
    wanted = key.casefold()
    if sum(len(word.strip(".,;:!?\"'()")) >= 2 for word in wanted.split()) < 2:
        return False  # a lone letter or word: an option's label (`B.`, `Option B.`), a name
    label = False  # the line before is only a label (`B.` then `They are the same.`)
    for line in read_text(question[:MAX_QUESTION_CHARS]).splitlines():
        text = sentence_key(line).casefold()
        at = text.find(wanted)
        while at >= 0:
            # (markdown, quotes and brackets around the sentence: `**Think step by step.**`;
            # read within `_NEAR` characters each side, so that a line holding the gold many
            # times is read in linear time)
            end = at
            while end > max(at - _NEAR, 0) and text[end - 1] in _AROUND + " ":
                end -= 1
            after = text[at + len(wanted):at + len(wanted) + _NEAR].lstrip(_AROUND)
            ended = after[:1] in ("!", ".", "?")
            after = after[1:].lstrip(_AROUND) if ended else after
            starts = end == 0 and not label or (
                text[end - 1:end] in (".", "?", "!")
                and not _OPTION_LABEL.search(text, max(end - _NEAR, 0), end))
            # it ends the line or a sentence: a `.`, `?` or `!` after it, or its own
            ends = after[:1] == "" or ended and after[:1] == " " or wanted[-1] in "?!" and (
                after[:1] in ("", " "))
            if starts and ends:
                return not _offered_as_option(wanted, question)
            at = text.find(wanted, at + 1)
        if text.strip():
            label = _LABEL_LINE.fullmatch(text.strip().strip("*")) is not None
    return False


# A sentence that announces a choice among the sentences after it: a question that asks
# which of them (`Which is true?`, `Which of these holds?`, `Which one ...?`), or a cue
# ending in a colon (`Choose one:`, `Options:`, `Answer with one of the following:`).
_WHICH_OF_THEM = re.compile(r"(?<![a-z])which (?:of|one|statements?|options?|choices?|answers?"
                            r"|(?:is|are) (?:true|false|correct|incorrect))(?![a-z])")
_CHOOSE = frozenset({"choose", "select", "pick"})
_OPTIONS = frozenset({"options", "choices"})


def _is_choice_cue(sentence: str) -> bool:
    """Whether a sentence (casefolded, as `sentence_key` reads it) asks for a choice among
    the sentences after it: a question (`?`) that asks which of them (`which of`, `which
    one`, `which statement`, `which is true`); or a cue ending in a colon that opens by
    saying to choose (`Choose one:`, `Select the correct statement:`), ends naming the
    options (`Options:`, `Answer choices:`) or offers `one of the following`. An allow-list:
    a question that asks for a value (`What is 2+2?`, `Which integer n works?`, `... for which
    the inequality is true?`) or a colon after a problem's words (`... choose two cards
    (note:`, `the value of the following expression:`) offers no options."""
    end = sentence.rstrip(_AROUND)[-1:]
    if end == "?":
        return _WHICH_OF_THEM.search(sentence) is not None
    words = [word.strip(_AROUND + ".,;:!?") for word in sentence.split()]
    return end == ":" and (words[0] in _CHOOSE or words[-1] in _OPTIONS
                           or "one of the following" in sentence)


def _sentences(text: str) -> list[str]:
    """A line (casefolded, as `sentence_key` reads it) cut into its sentences: one ends at a
    word ending in `.`, `?`, `!` or `:` (marks around it aside: `**same.**`). Each is kept
    bare (marks around it and a final period dropped), as a gold's `sentence_key` is."""
    out: list[str] = []
    start = 0
    words = text.split(" ")
    for i, word in enumerate(words):
        if word.rstrip(_AROUND)[-1:] in (".", "?", "!", ":") or i == len(words) - 1:
            sentence = " ".join(words[start:i + 1]).strip(_AROUND + " ")
            out.append(sentence.removesuffix("."))
            start = i + 1
    return [sentence for sentence in out if sentence]


def _offered_as_option(wanted: str, question: str) -> bool:
    """Whether a gold's text (`wanted`, its casefolded `sentence_key`) is one of two or more
    sentences that the question offers as options with no label (`Which is true? Choose one:
    They are the same. They are different.`; `Which is true?` then one option a line): the
    run of sentences right after a choice cue (`_is_choice_cue`) that are each an answer on
    their own (`no_answer_in`: an option offered for an answer is one; the run ends at the
    first that is not, `Find a right inverse if one exists.`), on the rest of the cue's line
    where it goes on, else on the lines after it up to a blank line. An allow-list of what
    the question offers: an instruction after a question that asks for a value, before the
    cue, past a blank line after the options, or on a line after options that share the
    cue's line, is no option. Linear in the question: each sentence is read once."""
    # the question's sentences in order, None for a blank line, and the line of each
    flat: list[str | None] = []
    line_of: list[int] = []
    for number, line in enumerate(read_text(question[:MAX_QUESTION_CHARS]).splitlines()):
        sentences: list[str | None] = list(_sentences(sentence_key(line).casefold()))
        flat.extend(sentences or [None])
        line_of.extend([number] * max(len(sentences), 1))
    line_of.append(-1)
    if wanted not in flat:
        return False
    answers: dict[str, bool] = {}  # each distinct sentence read once
    # the run of answers that starts at sentence k, (length, whether `wanted` is one of
    # them): on its line only (`inline`), and across lines up to a blank line (`across`)
    inline: list[tuple[int, bool]] = [(0, False)] * (len(flat) + 1)
    across: list[tuple[int, bool]] = [(0, False)] * (len(flat) + 1)
    for k in range(len(flat) - 1, -1, -1):
        sentence = flat[k]
        if sentence is None:
            continue
        if sentence not in answers:
            answers[sentence] = no_answer_in(sentence) is None
        if not answers[sentence]:
            continue
        length, has = inline[k + 1] if line_of[k + 1] == line_of[k] else (0, False)
        inline[k] = (length + 1, has or sentence == wanted)
        length, has = across[k + 1]
        across[k] = (length + 1, has or sentence == wanted)
    for k, sentence in enumerate(flat[:-1]):
        if sentence is None or flat[k + 1] is None or not _is_choice_cue(sentence):
            continue
        length, has = inline[k + 1] if line_of[k + 1] == line_of[k] else across[k + 1]
        if length >= 2 and has:
            return True
    return False
