"""NLTK's English stop-word list (`nltk_data` `corpora/stopwords/english`), as IFBench's
`ratio:stop_words` reads it through `nltk.corpus.stopwords.words("english")`.

Source: the NLTK Data stopwords corpus (https://github.com/nltk/nltk_data, `english`; NLTK and
NLTK Data are distributed under the Apache License 2.0 — the corpus's own licence line was not
re-checked here), which itself began as the Snowball/PostgreSQL English stop list (BSD).
Only the entries without an apostrophe are kept: the reference counts `\\w+` tokens, which never hold one, so the
apostrophe entries (`don't`, `you're`, and those the 2024 list added) can never match and
the verdict does not depend on the list's version."""

from __future__ import annotations

__all__ = ["ENGLISH_STOPWORDS"]

ENGLISH_STOPWORDS = frozenset([
    "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours", "yourself",
    "yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its",
    "itself", "they", "them", "their", "theirs", "themselves", "what", "which", "who", "whom",
    "this", "that", "these", "those", "am", "is", "are", "was", "were", "be", "been", "being",
    "have", "has", "had", "having", "do", "does", "did", "doing", "a", "an", "the", "and", "but",
    "if", "or", "because", "as", "until", "while", "of", "at", "by", "for", "with", "about",
    "against", "between", "into", "through", "during", "before", "after", "above", "below", "to",
    "from", "up", "down", "in", "out", "on", "off", "over", "under", "again", "further", "then",
    "once", "here", "there", "when", "where", "why", "how", "all", "any", "both", "each", "few",
    "more", "most", "other", "some", "such", "no", "nor", "not", "only", "own", "same", "so",
    "than", "too", "very", "s", "t", "can", "will", "just", "don", "should", "now", "d", "ll", "m",
    "o", "re", "ve", "y", "ain", "aren", "couldn", "didn", "doesn", "hadn", "hasn", "haven", "isn",
    "ma", "mightn", "mustn", "needn", "shan", "shouldn", "wasn", "weren", "won", "wouldn"
])
"""The 153 apostrophe-free entries of NLTK's English list (179 entries up to 2023)."""
