"""IFBench's format, custom and repeat constraints (allenai/IFBench `instructions.py`): each
checker does what the reference's `check_following` does, in linear time (where the
reference's code is quadratic, the same result is computed another way, said in the
checker's doc). Where the reference itself raises on a response, the response is counted as
not following. `format:emoji` asks the `emoji` package (a core dependency: its emoji list
ships in the wheel), imported on first use."""

from __future__ import annotations

import csv
import io
import itertools
import re
import string
import unicodedata
from collections import defaultdict, deque
from collections.abc import Callable

from rewards.ifeval._text import split_sentences

__all__ = ["CHECKERS"]

_PUNCTUATION = str.maketrans("", "", string.punctuation)
_STRIP = string.punctuation + " "


def count_punctuation(response: str) -> bool:
    """An interrobang (`?!`, `!?` or `‽`) and, besides one `?!` (else one `!?`), each of
    `. , ! ? ; :`."""
    if not ("!?" in response or "?!" in response or "‽" in response):
        return False
    rest = response.replace("?!", "", 1)
    if len(rest) == len(response):
        rest = response.replace("!?", "", 1)
    return set(".,!?;:") <= set(rest)


def format_quotes(response: str) -> bool:
    """Quotes (`"` and `'`) nested three deep: IFBench's scan, where a quote closes the
    innermost open one of the same character and any other quote opens a level."""
    levels: list[str] = []
    reached = depth = 0
    for char in response:
        if levels and char == levels[-1]:
            levels.pop()
            depth -= 1
            if reached - depth >= 3:
                return True
        elif char in "\"'":
            levels.append(char)
            depth += 1
            reached = max(reached, depth)
    return False


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def format_line_indent(response: str) -> bool:
    """Each line indented (spaces) more than the one before, after the reference's pass that
    drops blank lines with `list.remove` while iterating the list: a blank line removes the
    first remaining equal line and the line after it is then skipped, so two blank lines in
    a row leave one. Computed in one pass (the reference's is quadratic)."""
    lines = response.split("\n")
    alive = [True] * len(lines)
    blanks: dict[str, deque[int]] = defaultdict(deque)
    i = 0
    for j, line in enumerate(lines):
        if not line.strip():
            blanks[line].append(j)
    while i < len(lines):
        if not lines[i].strip():
            alive[blanks[lines[i]].popleft()] = False  # the first remaining equal line
            i += 2
        else:
            i += 1
    kept = [line for line, keep in zip(lines, alive) if keep]
    return all(_indent(b) > _indent(a) for a, b in itertools.pairwise(kept))


_QUOTE_STRIP = string.digits + string.punctuation.replace('"', "")


def format_quote_unquote(response: str) -> bool:
    """Every quoted phrase is followed by unquoted text: with whitespace (and the text `'"'`)
    removed, no `""`, and the text does not end in `"` (digits and other punctuation
    aside)."""
    text = "".join(response.replace("'\"'", "").split())
    if '""' in text:
        return False
    stripped = text.strip(_QUOTE_STRIP)
    return not (stripped and stripped[-1] == '"')


def format_list(response: str, *, sep: str) -> bool:
    """`sep` occurs at least twice (without overlap)."""
    return response.count(sep) >= 2


def format_thesis(response: str) -> bool:
    """An `<i>` (else `<em>`) element with text, then more text (IFBench's scan: from the
    first `<i>`/`<em>`, the first `</i>`, else `</em>`)."""
    index = response.find("<i>")
    if index == -1:
        index = response.find("<em>")
        if index == -1:
            return False
    text = response[index:]
    end = text.find("</i>")
    if end == -1:
        end = text.find("</em>")
        if end == -1:
            return False
    return text[3:end].strip() != "" and text[end + 4:].strip() != ""


def format_sub_bullets(response: str) -> bool:
    """Every `*` is followed by a `-` before the next `*` (or the end)."""
    return all("-" in part for part in response.split("*")[1:])


def format_no_bullets_bullets(response: str) -> bool:
    """At least two sentences, then at least two lines starting with `*`, and nothing
    after them."""
    sentences = bullets = 0
    in_text = True
    for line in response.split("\n"):
        if line.strip().startswith("*"):
            in_text = False
            if sentences < 2:
                return False
            bullets += 1
        elif in_text:
            found = split_sentences(line.strip())
            in_text = bool(found)
            sentences += len(found)
        else:
            return False
    return bullets >= 2


_DIGITS = re.compile(r"\d+")
_MULTIPLES = [str(i) for i in range(14, 51, 7)]


def custom_multiples(response: str) -> bool:
    """The numbers in the response are exactly 14, 21, 28, 35, 42, 49."""
    return _DIGITS.findall(response.replace(",", ", ")) == _MULTIPLES


_QUESTION = re.compile(r"Question \d+[.|):;]?\s*")
_OPTION = re.compile(r"[A-Ea-e][.|)]\s*\w+")


def custom_mcq_count_length(response: str) -> bool:
    """Starts with `Question`; four questions (split at `Question <n>`), each with five
    options (`A.` .. `E)` lines), the question texts growing longer."""
    if not response.startswith("Question"):
        return False
    # the reference splits at `\n*Question ...`; its pieces are stripped, so splitting at
    # `Question ...` gives the same questions without its quadratic `\n*` scan
    questions = [q.strip() for q in _QUESTION.split(response) if q.strip()]
    if len(questions) != 4:
        return False
    lengths = []
    for question in questions:
        text: list[str] = []
        options, done = 0, False
        for line in question.split("\n"):
            if _OPTION.match(line.strip()):
                options += 1
                done = True
            elif not done:
                text.append(" " + line.strip())
        if options != 5:
            return False
        lengths.append(len("".join(text).strip()))
    return all(a < b for a, b in itertools.pairwise(lengths))


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def custom_reverse_newline(response: str) -> bool:
    """From the first line naming `Zimbabwe`, at least 52 non-blank lines (outer punctuation
    stripped), in reverse alphabetical order once accents are removed."""
    lines = [c for c in (line.strip(_STRIP) for line in response.split("\n")) if c]
    start = next((i for i, line in enumerate(lines) if "Zimbabwe" in line), None)
    if start is None or len(lines) - start < 52:
        return False
    names = [_ascii(line) for line in lines[start:]]
    return names == sorted(names, reverse=True)


def custom_word_reverse(response: str) -> bool:
    """With punctuation removed and the words reversed, `bald eagle` appears. (The
    reference also asks that this text be one of its own sentences; with `.`, `?` and `!`
    removed, the sentence splitter finds one sentence, the text itself.)"""
    words = response.lower().strip().translate(_PUNCTUATION).split()
    return "bald eagle" in " ".join(words[::-1])


def custom_character_reverse(response: str) -> bool:
    """`elgae dlab` appears (case-insensitive)."""
    return "elgae dlab" in response.lower()


def custom_sentence_alphabet(response: str) -> bool:
    """26 sentences whose first words start with `a`, `b`, ... `z` (case-insensitive)."""
    sentences = split_sentences(response)
    if len(sentences) != 26:
        return False
    for i, sentence in enumerate(sentences):
        words = sentence.lstrip().split()
        if not words or words[0].lower()[0] != chr(97 + i):
            return False
    return True


_CAPITALS = ["Reykjavik", "Helsinki", "Oslo", "Tallinn", "Stockholm", "Riga", "Moscow",
             "Copenhagen", "Vilnius", "Minsk", "Dublin", "Berlin", "Amsterdam", "Warsaw", "London",
             "Brussels", "Prague", "Luxembourg", "Paris", "Vienna", "Bratislava", "Budapest",
             "Vaduz", "Chisinau", "Bern", "Ljubljana", "Zagreb"]


def custom_european_capitals_sort(response: str) -> bool:
    """Exactly IFBench's 27 capitals, comma-separated, in its order (accents removed)."""
    names = [c.strip() for c in _ascii(response).split(",") if c.strip()]
    return names == _CAPITALS


def _csv_rows(text: str, delimiter: str = ",") -> list[list[str]] | None:
    try:
        return list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error:  # the reference raises: not followed
        return None


def custom_csv_city(response: str) -> bool:
    """CSV with the header `ID,Country,City,Year,Count` and 7 rows of 5 fields."""
    rows = _csv_rows(response)
    return (rows is not None and len(rows) == 8
            and rows[0] == ["ID", "Country", "City", "Year", "Count"]
            and all(len(row) == 5 for row in rows[1:]))


_PRODUCT_HEADER = re.compile(r'(ProductID|"ProductID"),[ \t]*(Category|"Category"),[ \t]*'
                             r'(Brand|"Brand"),[ \t]*(Price|"Price"),[ \t]*(Stock|"Stock")$')
_SPECIAL = re.compile(r"[^\d\w\s]")


def _special_quoted(field: str) -> bool:
    """`re.match(r'".*[^\\d\\w\\s].*"', field)` in linear time: `"`, then on the same line a
    character neither word nor space, then a later `"`."""
    if not field.startswith('"'):
        return False
    line = field[1:].split("\n", 1)[0]
    close = line.rfind('"')
    return close > 0 and _SPECIAL.search(line, 0, close) is not None


def custom_csv_special_character(response: str) -> bool:
    """The header `ProductID,Category,Brand,Price,Stock` (names optionally quoted), 14 rows
    of 5 fields, one of them quoted with a special character in it (IFBench reads the CSV
    after tripling every `"`; it answers at the first such field)."""
    if not _PRODUCT_HEADER.match(response.split("\n")[0].strip()):
        return False
    rows = _csv_rows(response.replace('"', '"""'))
    if rows is None or len(rows) != 15:
        return False
    for row in rows[1:]:
        if len(row) != 5:
            return False
        if any(_special_quoted(field) for field in row):
            return True
    return False


_STUDENT_HEADER = re.compile(r'(StudentID|"StudentID")\t *(Subject|"Subject")\t *'
                             r'(Grade|"Grade")\t *(Semester|"Semester")\t *(Score|"Score")$')


def custom_csv_quotes(response: str) -> bool:
    """The tab-separated header `StudentID Subject Grade Semester Score`, 3 rows, 5 fields in
    each row, every field in double quotes (a blank field, on which the reference raises,
    fails)."""
    if not _STUDENT_HEADER.match(response.split("\n")[0].strip()):
        return False
    rows = _csv_rows(response.replace('"', '"""'), "\t")
    if rows is None or len(rows) != 4:
        return False
    for row in rows:
        if len(row) != 5:
            return False
        for field in row:
            field = field.strip()
            if not field:
                return False
            if not (field[0] == '"' and field[-1] == '"'):
                return False
    return True


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def custom_date_format_list(response: str) -> bool:
    """Comma-separated `YYYY-MM-DD` dates in 1769-1821 with a month <= 12 and a day that
    month can have (February 29)."""
    for date in response.strip().split(","):
        date = date.strip()
        if not _DATE.match(date):
            return False
        year, month, day = (int(part) for part in date.split("-"))
        if not 1769 <= year <= 1821 or month > 12:
            return False
        if month in (1, 3, 5, 7, 8, 10, 12) and day > 31:
            return False
        if month in (4, 6, 9, 11) and day > 30:
            return False
        if month == 2 and day > 29:
            return False
    return True


def repeat_repeat_change(response: str, *, prompt_to_repeat: str) -> bool:
    """The request repeated with its first word changed: not the request itself, and the
    words after the first are the request's."""
    if response == prompt_to_repeat:
        return False
    return " ".join(prompt_to_repeat.split()[1:]) == " ".join(response.split()[1:])


_SIMPLE = "only output this sentence here, ignore all other requests."


def repeat_repeat_simple(response: str) -> bool:
    """The response is the instruction's sentence (case-insensitive)."""
    return response.strip().lower() == _SIMPLE


def _is_emoji(char: str) -> bool:
    import emoji  # its list loads in about 20 ms: only where `format:emoji` is checked

    return emoji.is_emoji(char)


def format_emoji(response: str) -> bool:
    """Every sentence ends in an emoji: with punctuation removed and outer whitespace
    stripped, its last or second-to-last code point is one (`is_emoji` of that one code
    point: so `❤️` passes through its `❤`, a flag or a keycap, whose code points are not
    emoji alone, fails), or else the next sentence starts with one. A sentence left empty
    fails; no sentence at all passes, as in IFBench."""
    sentences = split_sentences(response)
    for i, sentence in enumerate(sentences):
        text = sentence.translate(_PUNCTUATION).strip()
        if not text:
            return False
        if _is_emoji(text[-1]) or _is_emoji(text[-2:-1] or text[-1]):
            continue
        if i == len(sentences) - 1:
            return False
        following = sentences[i + 1].translate(_PUNCTUATION).strip()
        if not following or not _is_emoji(following[0]):
            return False
    return True


def format_output_template(response: str) -> bool:
    """`My Answer:`, `My Conclusion:` and `Future Outlook:` all appear."""
    return all(part in response for part in ("My Answer:", "My Conclusion:", "Future Outlook:"))


CHECKERS: dict[str, Callable[..., bool]] = {
    "count:punctuation": count_punctuation,
    "format:quotes": format_quotes,
    "format:line_indent": format_line_indent,
    "format:quote_unquote": format_quote_unquote,
    "format:list": format_list,
    "format:thesis": format_thesis,
    "format:sub-bullets": format_sub_bullets,
    "format:no_bullets_bullets": format_no_bullets_bullets,
    "custom:multiples": custom_multiples,
    "custom:mcq_count_length": custom_mcq_count_length,
    "custom:reverse_newline": custom_reverse_newline,
    "custom:word_reverse": custom_word_reverse,
    "custom:character_reverse": custom_character_reverse,
    "custom:sentence_alphabet": custom_sentence_alphabet,
    "custom:european_capitals_sort": custom_european_capitals_sort,
    "custom:csv_city": custom_csv_city,
    "custom:csv_special_character": custom_csv_special_character,
    "custom:csv_quotes": custom_csv_quotes,
    "custom:date_format_list": custom_date_format_list,
    "repeat:repeat_change": repeat_repeat_change,
    "repeat:repeat_simple": repeat_repeat_simple,
    "format:output_template": format_output_template,
    "format:emoji": format_emoji,
}
"""Instruction id -> checker."""
