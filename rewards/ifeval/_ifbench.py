"""IFBench's out-of-distribution constraints (allenai/IFBench `instructions.py`) that can be
checked exactly offline: 57 of its 58, these 14 and those of `_ifbench_words` and
`_ifbench_format` (`ratio:stop_words` with NLTK's English stop-word list written out in
`_stopwords`, `words:odd_even_syllables` with syllapy's counts and `format:emoji` with the
`emoji` package's list, both packages core dependencies that ship their data). The other,
`words:start_verb`, needs NLTK's part-of-speech tagger, a model NLTK downloads: it is not
registered, and its id abstains (`bad_reference`) rather than get a guessed verdict. IFBench
splits sentences with NLTK's Punkt, as `split_sentences` approximates."""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable
from itertools import pairwise

from rewards.ifeval import _ifbench_format, _ifbench_words
from rewards.ifeval._text import count_words, split_sentences, word_tokens

__all__ = ["CHECKERS"]

_PUNCTUATION = str.maketrans("", "", string.punctuation)
_STRIP = string.punctuation + " "


def count_word_count_range(response: str, *, min_words: int, max_words: int) -> bool:
    """Between `min_words` and `max_words` words (runs of `\\w`), both included."""
    return min_words <= count_words(response) <= max_words


def count_unique_word_count(response: str, *, N: int) -> bool:
    """At least `N` distinct words (lower-cased, outer punctuation stripped)."""
    return len({w.strip(_STRIP) for w in response.lower().split()}) >= N


_DIGITS = re.compile(r"\d+")


def count_numbers(response: str, *, N: int) -> bool:
    """Exactly `N` numbers (digit runs once punctuation is removed: `3.5` is one, `35`)."""
    return sum(1 for _ in _DIGITS.finditer(response.translate(_PUNCTUATION))) == N


def format_parentheses(response: str) -> bool:
    """Brackets `([{` nested at least five deep, closed in order (IFBench's scan)."""
    levels: list[str] = []
    deepest = 0
    pairs = {")": "(", "]": "[", "}": "{"}
    for char in response:
        if char in "([{":
            levels.append(char)
            deepest = max(deepest, len(levels))
        elif char in pairs:
            if levels and levels[-1] == pairs[char]:
                levels.pop()
                if deepest >= 5 and len(levels) < deepest:
                    return True
            else:
                levels, deepest = [], 0
    return False


_PRIMES = frozenset([2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71,
                     73, 79, 83, 89, 97])


def words_prime_lengths(response: str) -> bool:
    """Every word (punctuation removed) has a prime number of characters."""
    return all(len(w) in _PRIMES for w in response.translate(_PUNCTUATION).split())


def format_newline(response: str) -> bool:
    """One word per line (punctuation removed, blank lines ignored)."""
    text = response.translate(_PUNCTUATION).strip()
    lines = [line for line in text.split("\n") if line != ""]
    return len(lines) == len(text.split())


def words_repeats(response: str, *, small_n: int) -> bool:
    """No word (lower-cased, punctuation removed) occurs more than `small_n` times."""
    counts = Counter(response.lower().translate(_PUNCTUATION).split())
    return all(c <= small_n for c in counts.values())


def sentence_keyword(response: str, *, word: str, N: int) -> bool:
    """The `N`-th sentence holds `word` as a whole word (case-insensitive)."""
    sentences = split_sentences(response)
    if len(sentences) < N or N < 1:
        return False
    return re.search(rf"\b{re.escape(word)}\b", sentences[N - 1], re.IGNORECASE) is not None


def words_no_consecutive(response: str) -> bool:
    """No two adjacent words start with the same letter (punctuation removed)."""
    words = [w for w in response.lower().translate(_PUNCTUATION).split() if w]
    return all(a[0] != b[0] for a, b in pairwise(words))


def count_keywords_multiple(response: str, *, keyword1: str, keyword2: str, keyword3: str,
                            keyword4: str, keyword5: str) -> bool:
    """The keywords occur 1, 2, 3, 5 and 7 times (case-insensitive substrings)."""
    text = response.lower()
    keywords = (keyword1, keyword2, keyword3, keyword4, keyword5)
    return all(text.count(k.strip().lower()) == n for k, n in zip(keywords, (1, 2, 3, 5, 7)))


def repeat_repeat_span(response: str, *, prompt_to_repeat: str, n_start: int, n_end: int) -> bool:
    """The response is the request's characters `n_start` to `n_end`, both included."""
    return response.strip().lower() == prompt_to_repeat[n_start:n_end + 1].strip().lower()


def format_title_case(response: str) -> bool:
    """Every Treebank token that starts with a letter is capitalized (`Word`, or a capital
    letter alone); words such as `iPhone` or `NASA` pass, as in IFBench."""
    for token in word_tokens(response):
        if not token or not token[0].isalpha():
            continue
        if len(token) == 1:
            if token.islower():
                return False
            continue
        head, rest = token[0], token[1:]
        if head.islower() and (rest.isupper() or rest.islower()):
            return False
    return True


def format_no_whitespace(response: str) -> bool:
    """No whitespace character at all."""
    return not any(char.isspace() for char in response)


_ABC = re.compile(r"\W*[aA]\W*[bB]\W*[cC]")  # anchored (match): linear


def format_options(response: str, *, options: str) -> bool:
    """The response is one of the options (`yes/no/maybe`, `I know or I don't know`; `a), b),
    c), d)` must be matched exactly, the others case- and punctuation-insensitively)."""
    exact = _ABC.match(options) is not None
    separator = "/" if "/" in options else ("or" if "or" in options else ",")
    choices = [option.strip() for option in options.split(separator)]
    if exact:
        return response in choices
    value = response.strip(_STRIP).lower()
    return any(option.strip(_STRIP).lower() == value for option in choices)


CHECKERS: dict[str, Callable[..., bool]] = {
    "count:word_count_range": count_word_count_range,
    "count:unique_word_count": count_unique_word_count,
    "count:numbers": count_numbers,
    "format:parentheses": format_parentheses,
    "words:prime_lengths": words_prime_lengths,
    "format:newline": format_newline,
    "words:repeats": words_repeats,
    "sentence:keyword": sentence_keyword,
    "words:no_consecutive": words_no_consecutive,
    "count:keywords_multiple": count_keywords_multiple,
    "repeat:repeat_span": repeat_repeat_span,
    "format:title_case": format_title_case,
    "format:no_whitespace": format_no_whitespace,
    "format:options": format_options,
    **_ifbench_words.CHECKERS,
    **_ifbench_format.CHECKERS,
}
"""Instruction id -> checker, the IFBench constraints decided exactly here."""
