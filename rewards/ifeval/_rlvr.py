"""The 25 functions of open-instruct's RLVR-IFeval ground truth (`{"func_name":
"validate_lowercase", ...}`, `open_instruct/if_functions.py`): the IFEval taxonomy with
their own, simpler semantics (exact counts, an `around` quantifier with a 10% tolerance, plain
substring tests), which the datasets built on them were labeled by. Followed as written, with
one difference: text with no detectable language fails `validate_response_language` here
(the reference raises)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from rewards.ifeval._errors import BadConstraint
from rewards.ifeval._language import detect_language

__all__ = ["CHECKERS"]


def _quantified(count: int, n: int, quantifier: str, tolerance: int) -> bool:
    if quantifier == "at least":
        return count >= n
    if quantifier == "at most":
        return count <= n
    if quantifier == "around":
        return abs(count - n) <= tolerance
    return False


def verify_keywords(text: str, *, keyword_list: Sequence[str]) -> bool:
    """Every keyword is a substring (case-insensitive)."""
    lower = text.lower()
    return all(k.lower() in lower for k in keyword_list)


_WORDS = re.compile(r"\b\w+\b")


def verify_keyword_frequency(text: str, *, word: str, N: int) -> bool:
    """The word occurs as a whole word exactly `N` times (case-insensitive)."""
    target = word.lower()
    return _WORDS.findall(text.lower()).count(target) == N


def validate_forbidden_words(text: str, *, forbidden_words: Sequence[str]) -> bool:
    """No forbidden word occurs, even inside another word (case-insensitive)."""
    lower = text.lower()
    return not any(w.lower() in lower for w in forbidden_words)


def verify_letter_frequency(text: str, *, letter: str, N: int) -> bool:
    """The letter (case-sensitive, one character) occurs exactly `N` times."""
    if len(letter) != 1:
        raise BadConstraint("letter must be a single character")
    return text.count(letter) == N


def validate_response_language(text: str, *, language: str) -> bool:
    """langdetect names `language`."""
    return detect_language(text) == language


def verify_paragraph_count(text: str, *, N: int) -> bool:
    """Exactly `N` non-blank paragraphs separated by `* * *` (lines stripped first)."""
    cleaned = "\n".join(line.strip() for line in text.splitlines()).strip()
    paragraphs = cleaned.split("* * *")
    return all(p.strip() for p in paragraphs) and len(paragraphs) == N


def validate_word_constraint(text: str, *, N: int, quantifier: str) -> bool:
    """Whitespace-separated words: at least / at most / around (10%, at least 1) `N`."""
    return _quantified(len(text.split()), N, quantifier, max(round(N * 0.1), 1))


_SENTENCE_END = re.compile(r"(?<!\w\.\w.)(?<![A-Z][a-z]\.)(?<=\.|\?|!)\s")


def verify_sentence_constraint(text: str, *, N: int, quantifier: str) -> bool:
    """Sentences (split after `.?!` and a space): at least / at most / around (1) `N`."""
    return _quantified(len(_SENTENCE_END.split(text)), N, quantifier, 1)


def validate_paragraphs(text: str, *, N: int, first_word: str, i: int) -> bool:
    """Exactly `N` pieces split on a blank line, the `i`-th starting with `first_word`."""
    paragraphs = text.split("\n\n")
    if len(paragraphs) != N:
        return False
    return paragraphs[i - 1].strip().startswith(first_word)


def verify_postscript(text: str, *, postscript_marker: str) -> bool:
    """The marker occurs with some text after it."""
    at = text.find(postscript_marker)
    return at != -1 and len(text[at:].strip()) > len(postscript_marker)


def validate_placeholders(text: str, *, N: int) -> bool:
    """At least `N` square-bracket placeholders on one line."""
    from rewards.ifeval._ifeval import count_placeholders

    return count_placeholders(text) >= N


def verify_bullet_points(text: str, *, N: int) -> bool:
    """Exactly `N` lines starting (after whitespace) with `*` or `-`."""
    return sum(1 for line in text.split("\n") if line.strip().startswith(("*", "-"))) == N


def validate_title(text: str) -> bool:
    """Some `<<...>>` on one line (possibly empty)."""
    return any("<<" in line and ">>" in line[line.find("<<") + 2:] for line in text.split("\n"))


def validate_choice(text: str, *, options: Sequence[str]) -> bool:
    """One of the options occurs."""
    return any(option in text for option in options)


def validate_highlighted_sections(text: str, *, N: int) -> bool:
    """At least `N` `*...*` spans on one line (possibly empty)."""
    count = 0
    for line in text.split("\n"):
        count += line.count("*") // 2
    return count >= N


def validate_sections(text: str, *, N: int, section_splitter: str) -> bool:
    """Exactly `N` sections split on `section_splitter` (an empty first piece dropped)."""
    sections = text.split(section_splitter)
    if sections[0] == "":
        sections.pop(0)
    return len(sections) == N


def validate_json_format(text: str) -> bool:
    """The whole text parses as JSON (no fence allowed)."""
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def validate_repeat_prompt(text: str, *, original_prompt: str) -> bool:
    """Starts with the prompt, exactly."""
    return text.startswith(original_prompt)


def validate_two_responses(text: str) -> bool:
    """Exactly one `******`, two different sides."""
    if text.count("******") != 1:
        return False
    first, second = text.split("******")
    return first.strip() != second.strip()


def validate_uppercase(text: str) -> bool:
    """No lower-case letter."""
    return text == text.upper()


def validate_lowercase(text: str) -> bool:
    """No upper-case letter."""
    return text == text.lower()


_CAPITAL_WORD = re.compile(r"\b[A-Z]+\b")


def validate_frequency_capital_words(text: str, *, N: int, quantifier: str) -> bool:
    """Words of capitals only (`\\b[A-Z]+\\b`): at least / at most / around (10%) `N`."""
    count = len(_CAPITAL_WORD.findall(text))
    return _quantified(count, N, quantifier, max(round(N * 0.1), 1))


def validate_end(text: str, *, end_phrase: str) -> bool:
    """Ends with `end_phrase`, exactly."""
    return text.endswith(end_phrase)


def validate_quotation(text: str) -> bool:
    """Starts and ends with `"`."""
    return text.startswith('"') and text.endswith('"')


def validate_no_commas(text: str) -> bool:
    """No comma."""
    return "," not in text


CHECKERS = {f.__name__: f for f in (
    verify_keywords, verify_keyword_frequency, validate_forbidden_words, verify_letter_frequency,
    validate_response_language, verify_paragraph_count, validate_word_constraint,
    verify_sentence_constraint, validate_paragraphs, verify_postscript, validate_placeholders,
    verify_bullet_points, validate_title, validate_choice, validate_highlighted_sections,
    validate_sections, validate_json_format, validate_repeat_prompt, validate_two_responses,
    validate_uppercase, validate_lowercase, validate_frequency_capital_words, validate_end,
    validate_quotation, validate_no_commas)}
"""`func_name` -> checker, the 25 of RLVR-IFeval."""
