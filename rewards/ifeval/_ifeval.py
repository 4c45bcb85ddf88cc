"""The 25 instruction types of Google's IFEval (`instruction_id_list` ids such as
`length_constraints:number_words`), one pure function each: `(response, **kwargs) -> bool`,
the keyword arguments named as in the datasets' `kwargs`.

Semantics follow Google's `instructions.py` (as shipped in lm-eval's `tasks/ifeval`), with
three deliberate differences, listed in docs/instruction-following.md: keywords and markers
are literal text (the reference reads them as regular expressions), patterns that backtrack
quadratically in the reference are scanned in one pass here with the same result, and a JSON
answer nested too deeply for Python's parser is not JSON (the reference raises)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

from rewards.cache import byte_cache
from rewards.ifeval._errors import BadConstraint
from rewards.ifeval._language import detect_language
from rewards.ifeval._text import count_sentences, count_words, word_tokens
from rewards.text import is_blank_read

__all__ = ["CHECKERS", "compare"]

RELATIONS = ("less than", "at least")
CONSTRAINED_RESPONSES = ("My answer is yes.", "My answer is no.", "My answer is maybe.")


def compare(count: int, relation: str, threshold: int) -> bool:
    """`less than` -> count < threshold; `at least` -> count >= threshold."""
    if relation == "less than":
        return count < threshold
    if relation == "at least":
        return count >= threshold
    raise BadConstraint(f"relation must be one of {RELATIONS}, not {relation!r}")


@byte_cache(8 << 20)
def literal(text: str, *, words: bool = False) -> re.Pattern[str]:
    """A case-insensitive pattern for `text` taken literally (`\\b` around it: whole words)."""
    body = re.escape(text)
    return re.compile(rf"\b{body}\b" if words else body, re.IGNORECASE)


def count_literal(text: str, response: str) -> int:
    """Non-overlapping case-insensitive occurrences of `text` (as `re.findall`)."""
    return len(literal(text).findall(response))


# --- keywords -------------------------------------------------------------------------------


def keywords_existence(response: str, *, keywords: Sequence[str]) -> bool:
    """Every keyword occurs, case-insensitively, anywhere (also inside a longer word)."""
    return all(literal(k).search(response) for k in keywords)


def keywords_frequency(response: str, *, keyword: str, frequency: int, relation: str) -> bool:
    """The keyword's case-insensitive occurrences compare with `frequency` by `relation`."""
    return compare(count_literal(keyword.strip(), response), relation, frequency)


def keywords_forbidden_words(response: str, *, forbidden_words: Sequence[str]) -> bool:
    """No forbidden word occurs as a whole word (`\\bword\\b`), case-insensitively."""
    return not any(literal(w, words=True).search(response) for w in set(forbidden_words))


def keywords_letter_frequency(response: str, *, letter: str, let_frequency: int,
                              let_relation: str) -> bool:
    """The letter's count in the lower-cased response compares by `let_relation`."""
    return compare(response.lower().count(letter.strip().lower()), let_relation, let_frequency)


# --- language and case ------------------------------------------------------------------------


def language_response_language(response: str, *, language: str) -> bool:
    """langdetect names `language` (an ISO 639-1 code); undetectable text passes, as in the
    reference."""
    found = detect_language(response)
    return found is None or found == language


def change_case_english_capital(response: str) -> bool:
    """All cased characters upper case, and the text English (or undetectable)."""
    return response.isupper() and detect_language(response) in (None, "en")


def change_case_english_lowercase(response: str) -> bool:
    """All cased characters lower case, and the text English (or undetectable)."""
    return response.islower() and detect_language(response) in (None, "en")


def change_case_capital_word_frequency(response: str, *, capital_frequency: int,
                                       capital_relation: str) -> bool:
    """Words (Treebank tokens) in all capitals compare with `capital_frequency`."""
    capitals = sum(1 for token in word_tokens(response) if token.isupper())
    return compare(capitals, capital_relation, capital_frequency)


# --- length -----------------------------------------------------------------------------------


def length_number_sentences(response: str, *, num_sentences: int, relation: str) -> bool:
    """Sentences (Punkt-like splitting) compare with `num_sentences`."""
    return compare(count_sentences(response), relation, num_sentences)


def length_number_words(response: str, *, num_words: int, relation: str) -> bool:
    """Words (runs of `\\w`) compare with `num_words`."""
    return compare(count_words(response), relation, num_words)


_DIVIDER = re.compile(r"\s?\*\*\*\s?")


def counted_paragraphs(paragraphs: Sequence[str]) -> int | None:
    """How many `paragraphs` (already split), blank ends not counted; None when a paragraph
    in the middle is blank."""
    count = len(paragraphs)
    for index, paragraph in enumerate(paragraphs):
        if not paragraph.strip():
            if index in (0, len(paragraphs) - 1):
                count -= 1
            else:
                return None
    return count


def divided_paragraphs(response: str) -> int | None:
    """Paragraphs separated by the markdown divider `***` (see `counted_paragraphs`)."""
    return counted_paragraphs(_DIVIDER.split(response))


def length_number_paragraphs(response: str, *, num_paragraphs: int) -> bool:
    """Exactly `num_paragraphs` paragraphs separated by `***` (none blank in the middle)."""
    return divided_paragraphs(response) == num_paragraphs


_FIRST_WORD_STOP = frozenset(".,?!'\"")


def length_nth_paragraph_first_word(response: str, *, num_paragraphs: int, nth_paragraph: int,
                                    first_word: str) -> bool:
    """Exactly `num_paragraphs` non-blank paragraphs separated by a blank line, and the
    `nth_paragraph`-th piece of the split starts with `first_word` (case-insensitive, cut at
    the first `.,?!'"`)."""
    paragraphs = response.split("\n\n")
    count = sum(1 for p in paragraphs if p.strip())
    if nth_paragraph > count:
        return False
    paragraph = paragraphs[nth_paragraph - 1].strip()
    if not paragraph:
        return False
    word = paragraph.split()[0].strip().lstrip("'").lstrip('"')
    found = []
    for letter in word:
        if letter in _FIRST_WORD_STOP:
            break
        found.append(letter.lower())
    return count == num_paragraphs and "".join(found) == first_word.lower()


# --- content and format -----------------------------------------------------------------------


def count_placeholders(response: str) -> int:
    """`[...]` on one line, as `re.findall(r"\\[.*?\\]")` counts them."""
    count = 0
    for line in response.split("\n"):
        at = 0
        while (start := line.find("[", at)) != -1:
            end = line.find("]", start + 1)
            if end == -1:
                break
            count += 1
            at = end + 1
    return count


def detectable_content_number_placeholders(response: str, *, num_placeholders: int) -> bool:
    """At least `num_placeholders` square-bracket placeholders such as `[address]`."""
    return count_placeholders(response) >= num_placeholders


_PS = re.compile(r"p\.\s?s\.")
_PPS = re.compile(r"p\.\s?p\.\s?s")


def detectable_content_postscript(response: str, *, postscript_marker: str) -> bool:
    """The marker occurs (case-insensitively; `P.S.` and `P.P.S` also with a space after
    each period)."""
    text = response.lower()
    if postscript_marker == "P.P.S":
        return _PPS.search(text) is not None
    if postscript_marker == "P.S.":
        return _PS.search(text) is not None
    return postscript_marker.lower() in text


def count_bullets(response: str) -> int:
    """Lines that start (after whitespace) with `*` not followed by `*`, or with `-`: as
    `^\\s*\\*[^\\*].*$` and `^\\s*-.*$` (multiline) count them, in one pass. As there, the
    leading whitespace may span blank lines, so a bullet after blank lines counts once."""
    n = len(response)
    count = 0
    for pattern_star in (True, False):
        at = 0
        run_start, run_end = -1, -1
        while at <= n:
            if not (run_start <= at < run_end):  # the whitespace run from `at`, once per run
                run_start, run_end = at, at
                while run_end < n and response[run_end].isspace():
                    run_end += 1
            q = run_end if at >= run_start else at
            end = -1
            if pattern_star:
                if q + 1 < n and response[q] == "*" and response[q + 1] != "*":
                    end = _line_end(response, q + 2)
            elif q < n and response[q] == "-":
                end = _line_end(response, q + 1)
            if end != -1:
                count += 1
                at = end if end > 0 and response[end - 1] == "\n" else _next_line(response, end)
            else:
                at = _next_line(response, at)
            if at == -1:
                break
    return count


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end == -1 else end


def _next_line(text: str, at: int) -> int:
    end = text.find("\n", at)
    return -1 if end == -1 else end + 1


def detectable_format_number_bullet_lists(response: str, *, num_bullets: int) -> bool:
    """Exactly `num_bullets` markdown bullet points (`* ` or `- ` lines)."""
    return count_bullets(response) == num_bullets


def detectable_format_constrained_response(response: str) -> bool:
    """Contains `My answer is yes.`, `... no.` or `... maybe.`."""
    text = response.strip()
    return any(option in text for option in CONSTRAINED_RESPONSES)


_SINGLE = re.compile(r"\*[^\n*]*\*")
_DOUBLE = re.compile(r"\*\*[^\n*]*\*\*")


def count_highlights(response: str) -> int:
    """Highlighted sections `*text*`, plus `**text**` counted again, as the reference does;
    a section holds something by the one blank rule (`rewards.text.is_blank_read`, on the
    read response), not by `str.strip`: `*\\u2800*` is empty, as `* *` is."""
    single = sum(1 for m in _SINGLE.finditer(response) if not is_blank_read(m.group().strip("*")))
    double = sum(1 for m in _DOUBLE.finditer(response) if not is_blank_read(m.group()[2:-2]))
    return single + double


def detectable_format_number_highlighted_sections(response: str, *, num_highlights: int) -> bool:
    """At least `num_highlights` highlighted sections."""
    return count_highlights(response) >= num_highlights


@byte_cache(4 << 20)
def _section_pattern(splitter: str) -> re.Pattern[str]:
    return re.compile(r"\s?" + re.escape(splitter) + r"\s?\d+\s?")


def detectable_format_multiple_sections(response: str, *, section_spliter: str,
                                        num_sections: int) -> bool:
    """At least `num_sections` section headers `<spliter> <number>` (`SECTION 1`)."""
    found = len(_section_pattern(section_spliter.strip()).findall(response))
    return found >= num_sections


def detectable_format_json_format(response: str) -> bool:
    """The whole response (a ```json fence allowed) parses as JSON."""
    text = (response.strip().removeprefix("```json").removeprefix("```Json")
            .removeprefix("```JSON").removeprefix("```").removesuffix("```").strip())
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def detectable_format_title(response: str) -> bool:
    """A non-blank title in double angular brackets, `<<title>>`, on one line (the
    reference's greedy `<<[^\\n]+>>`, decided per line in one pass); non-blank by the one
    blank rule (`rewards.text.is_blank_read`), not by `str.strip`."""
    for line in response.split("\n"):
        start = line.find("<<")
        end = line.rfind(">>")
        if start != -1 and end >= start + 3 \
                and not is_blank_read(line[start:end + 2].lstrip("<").rstrip(">")):
            return True
    return False


def combination_two_responses(response: str) -> bool:
    """Two different responses separated by `******` (no blank piece between them)."""
    valid = []
    pieces = response.split("******")
    for index, piece in enumerate(pieces):
        if not piece.strip():
            if index not in (0, len(pieces) - 1):
                return False
        else:
            valid.append(piece)
    return len(valid) == 2 and valid[0].strip() != valid[1].strip()


def combination_repeat_prompt(response: str, *, prompt_to_repeat: str) -> bool:
    """Begins with the request, repeated word for word (case-insensitive)."""
    return response.strip().lower().startswith(prompt_to_repeat.strip().lower())


def startend_end_checker(response: str, *, end_phrase: str) -> bool:
    """Ends with `end_phrase` (case-insensitive; surrounding `"` and whitespace ignored)."""
    return response.strip().strip('"').lower().endswith(end_phrase.strip().lower())


def startend_quotation(response: str) -> bool:
    """Wrapped in double quotation marks."""
    text = response.strip()
    return len(text) > 1 and text[0] == '"' and text[-1] == '"'


def punctuation_no_comma(response: str) -> bool:
    """No comma at all."""
    return "," not in response


CHECKERS: dict[str, Callable[..., bool]] = {
    "keywords:existence": keywords_existence,
    "keywords:frequency": keywords_frequency,
    "keywords:forbidden_words": keywords_forbidden_words,
    "keywords:letter_frequency": keywords_letter_frequency,
    "language:response_language": language_response_language,
    "length_constraints:number_sentences": length_number_sentences,
    "length_constraints:number_paragraphs": length_number_paragraphs,
    "length_constraints:number_words": length_number_words,
    "length_constraints:nth_paragraph_first_word": length_nth_paragraph_first_word,
    "detectable_content:number_placeholders": detectable_content_number_placeholders,
    "detectable_content:postscript": detectable_content_postscript,
    "detectable_format:number_bullet_lists": detectable_format_number_bullet_lists,
    "detectable_format:constrained_response": detectable_format_constrained_response,
    "detectable_format:number_highlighted_sections": detectable_format_number_highlighted_sections,
    "detectable_format:multiple_sections": detectable_format_multiple_sections,
    "detectable_format:json_format": detectable_format_json_format,
    "detectable_format:title": detectable_format_title,
    "combination:two_responses": combination_two_responses,
    "combination:repeat_prompt": combination_repeat_prompt,
    "startend:end_checker": startend_end_checker,
    "change_case:capital_word_frequency": change_case_capital_word_frequency,
    "change_case:english_capital": change_case_english_capital,
    "change_case:english_lowercase": change_case_english_lowercase,
    "punctuation:no_comma": punctuation_no_comma,
    "startend:quotation": startend_quotation,
}
"""Instruction id -> checker, IFEval's 25."""
