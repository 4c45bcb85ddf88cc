"""The 29 instruction types IFEvalG (open-instruct's IFTrain constraints) adds to IFEval's 25,
one pure function each, following open-instruct's `IFEvalG/instructions.py`. Keywords are
literal text here (the reference reads them as regular expressions)."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Sequence
from itertools import pairwise

from rewards.ifeval._ifeval import (
    _DIVIDER,
    compare,
    count_literal,
    counted_paragraphs,
    divided_paragraphs,
    keywords_frequency,
)
from rewards.ifeval._ifeval import keywords_letter_frequency as letter_frequency
from rewards.ifeval._text import edge_tokens, regex_sentences, word_tokens

__all__ = ["CHECKERS"]


def _first(value: str | Sequence[str]) -> str:
    """A word given as a string or as a list (its first item), stripped."""
    return (value if isinstance(value, str) else value[0]).strip()


def copy_repeat_phrase(response: str, *, phrase: str, small_n: int) -> bool:
    """The phrase occurs exactly `small_n` times, each time with exactly one word changed
    (its first and last words kept): `first .*? last` matches, on one line, as counted by
    `re.findall`, found here in one pass per line."""
    reference = phrase.strip().split()
    first, last = reference[0], reference[-1]
    found = _lazy_spans(response, first + " ", " " + last)
    if len(found) != small_n:
        return False
    satisfied = 0
    for span in found:
        words = span.split()
        if len(words) != len(reference):
            return False
        differences = sum(1 for a, b in zip(words, reference) if a != b)
        if differences > 1:
            return False
        satisfied += differences == 1
    return satisfied == small_n


def _lazy_spans(text: str, head: str, tail: str) -> list[str]:
    """Non-overlapping `head.*?tail` matches (no newline inside), leftmost first."""
    spans = []
    for line in text.split("\n"):
        at = 0
        while (start := line.find(head, at)) != -1:
            end = line.find(tail, start + len(head))
            if end == -1:
                break
            spans.append(line[start:end + len(tail)])
            at = end + len(tail)
    return spans


def copy_copy(response: str, *, prompt_to_repeat: str) -> bool:
    """The response is the request itself (case-insensitive, outer whitespace ignored)."""
    return response.strip().lower() == prompt_to_repeat.strip().lower()


def new_copy_span_idx(response: str, *, prompt_to_repeat: str, n_start: int, n_end: int) -> bool:
    """The response is the request's characters `n_start:n_end` (case-insensitive)."""
    return response.strip().lower() == prompt_to_repeat[n_start:n_end].strip().lower()


def detectable_format_sentence_hyphens(response: str) -> bool:
    """Sentences joined by hyphens with no spaces around them (`One.-Two.`)."""
    golds = regex_sentences(response.replace("-", " "))
    pieces = response.split("-")
    return all(piece.strip() == piece and piece == gold for piece, gold in zip(pieces, golds))


def keywords_no_adjacent_consecutive(response: str) -> bool:
    """No two adjacent words start with consecutive letters (`a` then `b`)."""
    words = response.split()
    for a, b in pairwise(words):
        x, y = a[0].lower(), b[0].lower()
        if len(x) != 1 or len(y) != 1 or ord(y) - ord(x) == 1:
            return False
    return True


def detectable_format_square_brackets(response: str) -> bool:
    """Every word wrapped in square brackets."""
    return all(w.startswith("[") and w.endswith("]") for w in response.split())


def keywords_word_once(response: str, *, keyword: str) -> bool:
    """The keyword occurs exactly once (case-insensitive, also inside words)."""
    return count_literal(keyword.strip(), response) == 1


def keywords_exclude_word_harder(response: str, *, keyword: str) -> bool:
    """The keyword never occurs between two spaces."""
    return f" {keyword.strip()} " not in response


def paragraphs_paragraphs(response: str) -> bool:
    """Exactly two paragraphs separated by `***`."""
    return divided_paragraphs(response) == 2


def paragraphs_paragraphs2(response: str) -> bool:
    """Exactly two paragraphs separated by a blank line (none blank in the middle)."""
    return counted_paragraphs(response.split("\n\n")) == 2


def first_word_first_word_sent(response: str, *, first_word: str | Sequence[str]) -> bool:
    """Every sentence (Google's regex splitter) starts with `first_word` (case-insensitive)."""
    word = _first(first_word).lower()
    for sentence in regex_sentences(response):
        if not sentence.strip() or sentence.split()[0].lower() != word:
            return False
    return True


def first_word_first_word_answer(response: str, *, first_word: str) -> bool:
    """The response starts with `first_word` (case-insensitive)."""
    words = response.split()
    return bool(words) and words[0].lower() == first_word.strip().lower()


_NOT_WORD = re.compile(r"[^\w\s]")


def last_word_last_word_sent(response: str, *, last_word: str | Sequence[str]) -> bool:
    """Every sentence ends with `last_word`, punctuation ignored (case-insensitive)."""
    word = _first(last_word).lower()
    for sentence in regex_sentences(response):
        if not sentence.strip() or _NOT_WORD.sub("", sentence.split()[-1]).lower() != word:
            return False
    return True


def last_word_last_word_answer(response: str, *, last_word: str) -> bool:
    """The response ends with `last_word`, punctuation ignored (case-insensitive)."""
    words = response.split()
    return bool(words) and _NOT_WORD.sub("", words[-1]).lower() == last_word.strip().lower()


def detectable_format_bigram_wrapping(response: str) -> bool:
    """Every word pair wrapped in double angular brackets: `<<I am>> <<at home>>`."""
    words = response.split()
    return all(words[i].startswith("<<") and words[i + 1].endswith(">>")
               for i in range(0, len(words) - 1, 2))


def copy_copying_simple(response: str, *, prompt_to_repeat: str) -> bool:
    """The response is the request itself (case-insensitive)."""
    return copy_copy(response, prompt_to_repeat=prompt_to_repeat)


def copy_copying_multiple(response: str, *, prompt_to_repeat: str, N: int) -> bool:
    """The request repeated `N` times, separated by `******`."""
    pieces = response.split("******")
    target = prompt_to_repeat.strip().lower()
    return len(pieces) == N and all(p.strip().lower() == target for p in pieces)


def punctuation_punctuation_dot(response: str) -> bool:
    """No period at all."""
    return "." not in response


def punctuation_punctuation_exclamation(response: str) -> bool:
    """No exclamation mark at all."""
    return "!" not in response


_LOWER_WORD = re.compile(r"\b[a-z]+\b")


def count_lowercase_counting(response: str, *, N: int) -> bool:
    """At most `N` all-lower-case words (`\\b[a-z]+\\b`)."""
    return len(_LOWER_WORD.findall(response)) <= N


_WITHOUT_ASCII_LETTERS = str.maketrans("", "", string.ascii_letters)


def letters_letter_counting(response: str, *, N: int, relation: str) -> bool:
    """The number of ASCII letters (`[a-zA-Z]`) compares with `N`."""
    letters = len(response) - len(response.translate(_WITHOUT_ASCII_LETTERS))
    return compare(letters, relation, N)


def count_counting_composition(response: str, *, n_sent: int, n_words: int) -> bool:
    """Three paragraphs separated by `***`, each of exactly `n_sent` sentences of exactly
    `n_words` Treebank tokens (punctuation tokens count)."""
    paragraphs = _DIVIDER.split(response)
    if counted_paragraphs(paragraphs) != 3:
        return False
    for paragraph in paragraphs:  # a blank end paragraph has no sentences: not followed
        sentences = regex_sentences(paragraph)
        if len(sentences) != n_sent or any(len(word_tokens(s)) != n_words for s in sentences):
            return False
    return True


def count_count_unique(response: str) -> bool:
    """No Treebank token repeats."""
    tokens = word_tokens(response)
    return len(tokens) == len(set(tokens))


def count_count_increment_word(response: str, *, keyword1: str, keyword2: str) -> bool:
    """`keyword1` occurs once and `keyword2` twice (case-insensitive, also inside words)."""
    return (count_literal(keyword1.strip(), response) == 1
            and count_literal(keyword2.strip(), response) == 2)


def keywords_palindrome(response: str) -> bool:
    """Some whitespace-separated word reads the same backwards (punctuation included)."""
    return any(w == w[::-1] for w in response.split())


def keywords_keyword_specific_position(response: str, *, keyword: str | Sequence[str], n: int,
                                       m: int) -> bool:
    """The `n`-th sentence's `m`-th Treebank token is `keyword` (case-sensitive)."""
    sentences = regex_sentences(response)
    if len(sentences) < n:
        return False
    tokens = word_tokens(sentences[n - 1])
    return len(tokens) >= m and tokens[m - 1] == _first(keyword)


def keywords_start_end(response: str) -> bool:
    """The first and last Treebank tokens are the same word (case-insensitive)."""
    edges = edge_tokens(response)
    return edges is not None and edges[0].lower() == edges[1].lower()


CHECKERS: dict[str, Callable[..., bool]] = {
    "copy:repeat_phrase": copy_repeat_phrase,
    "copy:copy": copy_copy,
    "new:copy_span_idx": new_copy_span_idx,
    "detectable_format:sentence_hyphens": detectable_format_sentence_hyphens,
    "keywords:no_adjacent_consecutive": keywords_no_adjacent_consecutive,
    "detectable_format:square_brackets": detectable_format_square_brackets,
    "keywords:word_once": keywords_word_once,
    "keywords:word_count_different_numbers": keywords_frequency,
    "keywords:exclude_word_harder": keywords_exclude_word_harder,
    "paragraphs:paragraphs": paragraphs_paragraphs,
    "paragraphs:paragraphs2": paragraphs_paragraphs2,
    "first_word:first_word_sent": first_word_first_word_sent,
    "first_word:first_word_answer": first_word_first_word_answer,
    "last_word:last_word_sent": last_word_last_word_sent,
    "last_word:last_word_answer": last_word_last_word_answer,
    "detectable_format:bigram_wrapping": detectable_format_bigram_wrapping,
    "copy:copying_simple": copy_copying_simple,
    "copy:copying_multiple": copy_copying_multiple,
    "punctuation:punctuation_dot": punctuation_punctuation_dot,
    "punctuation:punctuation_exclamation": punctuation_punctuation_exclamation,
    "count:lowercase_counting": count_lowercase_counting,
    "letters:letter_counting": letters_letter_counting,
    "letters:letter_counting2": letter_frequency,
    "count:counting_composition": count_counting_composition,
    "count:count_unique": count_count_unique,
    "count:count_increment_word": count_count_increment_word,
    "keywords:palindrome": keywords_palindrome,
    "keywords:keyword_specific_position": keywords_keyword_specific_position,
    "keywords:start_end": keywords_start_end,
}
"""Instruction id -> checker, IFEvalG's 29 beyond IFEval."""
