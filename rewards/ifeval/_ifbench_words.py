"""IFBench's word, count, ratio and sentence constraints (allenai/IFBench `instructions.py`)
that need no data beyond NLTK's English stop-word list (`_stopwords`) and syllapy's word list
(a core dependency that ships it, imported on first use): each checker does what the
reference's `check_following` does. Sentences are `split_sentences` (the reference's
`nltk.sent_tokenize`, approximated as for `sentence:keyword`) and tokens `word_tokens` (its
`nltk.word_tokenize`)."""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Callable

from rewards.ifeval._stopwords import ENGLISH_STOPWORDS
from rewards.ifeval._text import split_sentences, word_tokens, words

__all__ = ["CHECKERS"]

_PUNCTUATION = str.maketrans("", "", string.punctuation)
_STRIP = string.punctuation + " "


def ratio_stop_words(response: str, *, percentage: int) -> bool:
    """Stop words (NLTK's English list, lower-cased `\\w+` tokens: `words`) are at most
    `percentage`% of the words."""
    tokens = words(response)
    if not tokens:
        return False
    stops = sum(1 for word in tokens if word.lower() in ENGLISH_STOPWORDS)
    return (stops / len(tokens)) * 100 <= percentage


def _endings(response: str) -> tuple[int, int, int]:
    sentences = split_sentences(response)
    return (sum(1 for s in sentences if s.endswith(".")),
            sum(1 for s in sentences if s.endswith("?")),
            sum(1 for s in sentences if s.endswith("!")))


def ratio_sentence_type(response: str) -> bool:
    """Twice as many sentences end in `.` as in `?`."""
    declarative, interrogative, _ = _endings(response)
    return declarative == 2 * interrogative


def ratio_sentence_balance(response: str) -> bool:
    """As many sentences end in `.` as in `?` and in `!`."""
    declarative, interrogative, exclamatory = _endings(response)
    return declarative == interrogative == exclamatory


_CONJUNCTIONS = frozenset(["and", "but", "for", "nor", "or", "so", "yet"])


def count_conjunctions(response: str, *, small_n: int) -> bool:
    """At least `small_n` distinct coordinating conjunctions; distinct as written (`and` and
    `And,` are two, as in the reference, which compares the unstripped words)."""
    found = {w for w in response.split() if w.strip(_STRIP).lower() in _CONJUNCTIONS}
    return len(found) >= small_n


_NAMES = [
    "Emma", "Liam", "Sophia", "Jackson", "Olivia", "Noah", "Ava", "Lucas", "Isabella", "Mason",
    "Mia", "Ethan", "Charlotte", "Alexander", "Amelia", "Benjamin", "Harper", "Leo", "Zoe",
    "Daniel", "Chloe", "Samuel", "Lily", "Matthew", "Grace", "Owen", "Abigail", "Gabriel", "Ella",
    "Jacob", "Scarlett", "Nathan", "Victoria", "Elijah", "Layla", "Nicholas", "Audrey", "David",
    "Hannah", "Christopher", "Penelope", "Thomas", "Nora", "Andrew", "Aria", "Joseph", "Claire",
    "Ryan", "Stella", "Jonathan"
]
_NAME_PATTERNS = tuple(re.compile(rf"\b{name}\b") for name in _NAMES)


def count_person_names(response: str, *, N: int) -> bool:
    """At least `N` of IFBench's 50 given names, each as a whole word (case-sensitive)."""
    return sum(1 for p in _NAME_PATTERNS if p.search(response)) >= N


def ratio_overlap(response: str, *, reference_text: str, percentage: int) -> bool:
    """The share of the response's distinct character trigrams found in `reference_text` is
    within 2 points of `percentage`."""
    grams = {response[i:i + 3] for i in range(len(response) - 2)}
    if not grams:
        return False
    known = {reference_text[i:i + 3] for i in range(len(reference_text) - 2)}
    overlap = len(grams & known) / len(grams)
    return percentage - 2 <= overlap * 100 <= percentage + 2


_ALPHABET = string.ascii_lowercase


def words_alphabet(response: str) -> bool:
    """Word i+1 starts with the letter after word i's (`z` loops to `a`), from an ASCII
    letter (punctuation removed)."""
    words = response.translate(_PUNCTUATION).strip(_STRIP).split()
    if not words:
        return False
    letter = words[0][0].lower()
    if letter not in _ALPHABET:  # a substring test, as the reference's
        return False
    for word in words[1:]:
        word = word.strip(_STRIP).lower()
        if not word:
            continue
        letter = _ALPHABET[(_ALPHABET.index(letter) + 1) % 26]
        if word[0] != letter:
            return False
    return True


def words_vowel(response: str) -> bool:
    """One line (paragraph) using at most three of the vowels `aeiou`."""
    paragraphs = response.strip().split("\n")
    if len(paragraphs) != 1:
        return False
    return len(set(paragraphs[0].lower()) & set("aeiou")) <= 3


_CONSONANTS = frozenset("bcdfghjklmnpqrstvwxyz")


def words_consonants(response: str) -> bool:
    """Every whitespace-separated word holds two adjacent ASCII consonants."""
    for word in response.lower().strip().split():
        if not any(a in _CONSONANTS and b in _CONSONANTS for a, b in itertools.pairwise(word)):
            return False
    return True


def sentence_alliteration_increment(response: str) -> bool:
    """Each sentence's alliteration score (adjacent words with the same first character: 2
    for a new run, 1 more per word that extends it) exceeds the previous sentence's."""
    previous = -1
    for sentence in split_sentences(response):
        words = [c for c in (w.lstrip(_STRIP) for w in sentence.lower().split()) if c]
        score, in_run = 0, False
        for a, b in itertools.pairwise(words):
            if a[0] == b[0]:
                score += 1 if in_run else 2
                in_run = True
            else:
                in_run = False
        if score <= previous:
            return False
        previous = score
    return True


def words_palindrome(response: str) -> bool:
    """At least 10 words (punctuation removed, lower-cased) of 5 or more characters that are
    palindromes."""
    words = response.translate(_PUNCTUATION).lower().split()
    return sum(1 for w in words if len(w) >= 5 and w == w[::-1]) >= 10


def ratio_sentence_words(response: str) -> bool:
    """Three sentences, all of the same length in characters."""
    sentences = split_sentences(response)
    return len(sentences) == 3 and len({len(s.strip()) for s in sentences}) == 1


_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def count_words_japanese(response: str, *, N: int) -> bool:
    """Every `N`-th whitespace-separated word (outer punctuation stripped; empty words and
    digit runs excepted) holds a kana or CJK ideograph."""
    for i, word in enumerate(response.split()):
        word = word.strip(_STRIP)
        if (i + 1) % N == 0 and word and not word.isdigit() and not _JAPANESE.search(word):
            return False
    return True


_PRONOUNS = frozenset([
    "i", "me", "we", "us", "you", "he", "him", "she", "her", "it", "they", "them", "my", "mine",
    "our", "ours", "your", "yours", "his", "hers", "its", "their", "theirs", "myself", "ourselves",
    "yourself", "yourselves", "himself", "herself", "itself", "themselves", "this", "that", "these",
    "those", "who", "whom", "whose", "which", "what", "whoever", "whomever", "whatever",
    "whichever", "anybody", "anyone", "anything", "everybody", "everyone", "everything", "nobody",
    "nothing", "somebody", "someone", "something", "each", "either", "neither", "both", "all",
    "some", "any", "none"
])


def count_pronouns(response: str, *, N: int) -> bool:
    """At least `N` pronoun tokens (IFBench's list of 63; `/` read as a space)."""
    tokens = word_tokens(response.replace("/", " ").lower())
    return sum(1 for t in tokens if t in _PRONOUNS) >= N


def words_last_first(response: str) -> bool:
    """Each sentence's last word (outer punctuation stripped) is the next one's first
    (case-insensitive)."""
    sentences = split_sentences(response)
    for current, following in itertools.pairwise(sentences):
        last = current.rstrip(_STRIP).split()
        first = following.lstrip(_STRIP).split()
        if not last or not first or last[-1].lower() != first[0].lower():
            return False
    return True


def words_paragraph_last_first(response: str) -> bool:
    """Every non-blank line starts and ends with the same word (lower-cased, outer
    punctuation stripped)."""
    for line in response.split("\n"):
        line = line.strip().lower()
        words = line.strip(_STRIP).split() if line else []
        if words and words[0] != words[-1]:
            return False
    return True


def sentence_increment(response: str, *, small_n: int) -> bool:
    """Each sentence has exactly `small_n` more words (punctuation removed) than the one
    before."""
    counts = [len(s.translate(_PUNCTUATION).split()) for s in split_sentences(response)]
    return all(b == a + small_n for a, b in itertools.pairwise(counts))


def words_keywords_specific_position(response: str, *, keyword: str, n: int, m: int) -> bool:
    """The `n`-th sentence's `m`-th token holding a letter or digit is `keyword`
    (case-insensitive)."""
    sentences = split_sentences(response)
    if len(sentences) < n:
        return False
    words = [t for t in word_tokens(sentences[n - 1]) if any(ch.isalnum() for ch in t)]
    return len(words) >= m and words[m - 1].lower() == keyword.strip().lower()


def words_words_position(response: str, *, keyword: str) -> bool:
    """The second token and the second-to-last (third-to-last when the last is punctuation)
    are `keyword` (case-insensitive)."""
    words = word_tokens(response)
    target = keyword.strip().lower()
    if len(words) < 2:
        return False
    if words[-1] in string.punctuation:  # a substring test, as the reference's
        return len(words) >= 3 and words[1].lower() == words[-3].lower() == target
    return words[1].lower() == words[-2].lower() == target


def _syllable_parity(word: str) -> int:
    import syllapy  # reads its word list (about 20 ms): only where syllables are counted

    return syllapy.count(word) % 2


def words_odd_even_syllables(response: str) -> bool:
    """Words (punctuation removed, lower-cased) alternate between an odd and an even number
    of syllables, as syllapy counts them (a word with a digit counts 0: even). No word, or
    one, passes, as in IFBench."""
    parities = [_syllable_parity(w) for w in response.translate(_PUNCTUATION).lower().split()]
    return all(a != b for a, b in itertools.pairwise(parities))


CHECKERS: dict[str, Callable[..., bool]] = {
    "ratio:stop_words": ratio_stop_words,
    "ratio:sentence_type": ratio_sentence_type,
    "ratio:sentence_balance": ratio_sentence_balance,
    "count:conjunctions": count_conjunctions,
    "count:person_names": count_person_names,
    "ratio:overlap": ratio_overlap,
    "words:alphabet": words_alphabet,
    "words:vowel": words_vowel,
    "words:consonants": words_consonants,
    "sentence:alliteration_increment": sentence_alliteration_increment,
    "words:palindrome": words_palindrome,
    "ratio:sentence_words": ratio_sentence_words,
    "count:words_japanese": count_words_japanese,
    "count:pronouns": count_pronouns,
    "words:last_first": words_last_first,
    "words:paragraph_last_first": words_paragraph_last_first,
    "sentence:increment": sentence_increment,
    "words:keywords_specific_position": words_keywords_specific_position,
    "words:words_position": words_words_position,
    "words:odd_even_syllables": words_odd_even_syllables,
}
"""Instruction id -> checker."""
