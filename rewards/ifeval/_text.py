"""Splitting text without data files: words, sentences, Treebank-style tokens, paragraphs.

The reference checkers (Google's IFEval, open-instruct's IFEvalG) count sentences with NLTK's
English Punkt model and tokenize with `nltk.word_tokenize`, both of which need `punkt_tab`
downloaded at run time. The splitters here need nothing: they follow Punkt's decisions on
ordinary text (a break after `.`, `?` or `!` and whitespace, none after a known abbreviation
such as `Mr.`, a one-letter initial or a number followed by a lower-case word) and Treebank's
token rules (punctuation split off, `n't` and `'s` split off, `"` read as an opening or closing
quote). Where Punkt's statistics decide (an abbreviation outside the list below, a name after
an initial), they can differ; docs/instruction-following.md lists the known differences.

Every function is linear in its input: single-pass scans and regular expressions without
nested quantifiers over the same characters."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache, wraps

__all__ = ["count_sentences", "count_words", "edge_tokens", "regex_sentences", "split_sentences",
           "word_tokens"]

_WORD = re.compile(r"\w+")
_MEMO_CHARS = 4_096
"""Texts up to this long have their splits kept (`_memo`); longer ones are split each time."""


def _memo(split: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    """`split` with its results kept for short texts: loose mode's eight texts share most of
    their sentences and a response's constraints split it alike. A copy is returned, so a
    caller may change its list. Bounded: 8,192 texts of at most `_MEMO_CHARS` characters."""
    cached = lru_cache(maxsize=8192)(lambda text: tuple(split(text)))

    @wraps(split)
    def memo(text: str) -> list[str]:
        return list(cached(text)) if len(text) <= _MEMO_CHARS else split(text)

    return memo

# Abbreviations after which Punkt's English model does not break (a common subset of its
# list, lower case, without the final period). `etc` and `e.g` are not among them: Punkt
# breaks after them too.
_ABBREVIATIONS = frozenset(["mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "inc", "ltd", "co", "corp", "cos", "bros", "messrs", "gen", "sen", "rep", "reps", "lt", "col", "maj", "adm", "jan", "feb", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tues", "wed", "fri", "ave", "ft", "vs", "v", "u.s", "u.s.a", "u.k", "u.n", "u.s.s.r", "ph.d", "a.m", "p.m", "a.d", "d.c", "n.y", "l.a", "calif", "fla", "ga", "pa", "va", "ill", "mich", "minn", "conn", "ariz", "colo", "tenn", "wash", "okla", "ore", "nev", "kan", "ky", "mg", "ok", "c", "d", "e", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "w"])
# Capitalized words Punkt's English model knows to start sentences: after an abbreviation
# they still break.
_SENT_STARTERS = frozenset(["according", "although", "among", "both", "but", "despite", "even", "he", "however", "i", "if", "in", "indeed", "instead", "it", "many", "meanwhile", "moreover", "most", "nevertheless", "nonetheless", "nor", "separately", "similarly", "since", "so", "some", "the", "there", "these", "they", "this", "though", "thus", "under", "when", "while", "yet"])
_CLOSERS = "\"')]}"
_ENDS = frozenset(".?!" + _CLOSERS)
_END_CHAR = re.compile("[" + re.escape("".join(sorted(_ENDS))) + r"](?=\s)")
_NEXT_TOKEN = re.compile(r"\s+(\S+)")
_NUMBER = re.compile(r"-?[.,]?\d[\d,.\-]*\.?")


def count_words(text: str) -> int:
    """Words as the reference counts them: runs of `\\w` (`RegexpTokenizer(r"\\w+")`)."""
    return len(_WORD.findall(text))


@_memo
def split_sentences(text: str) -> list[str]:
    """Sentences as NLTK's English Punkt model splits ordinary text (see the module doc)."""
    sentences: list[str] = []
    start = previous = 0
    for end in _END_CHAR.finditer(text):  # the last character of a token that may end one
        following = _NEXT_TOKEN.match(text, end.end())
        if following is None:  # the text's last token
            break
        # the token: the last of the text since the previous candidate (which ended before
        # whitespace), so each character is read once
        token = text[previous:end.end()].rsplit(None, 1)[-1]
        previous = end.end()
        if _breaks_after(token, following.group(1)):
            sentences.append(text[start:end.end()].strip())
            start = following.start(1)
    rest = text[start:].strip()
    if rest:
        sentences.append(rest)
    return [s for s in sentences if s]


def count_sentences(text: str) -> int:
    """The number of `split_sentences`."""
    return len(split_sentences(text))


def _breaks_after(token: str, following: str) -> bool:
    core = token.rstrip(_CLOSERS)
    if not core or core[-1] not in ".?!":
        return False
    if core[-1] in "?!":
        return True
    next_word = following.lstrip(_CLOSERS + "(`[{")
    starter_next = next_word[:1].isupper() and next_word.lower().rstrip(".,;:!?") in _SENT_STARTERS
    if core.endswith(".."):  # an ellipsis: a break only before a word that starts sentences
        return starter_next
    word = core.lstrip(_CLOSERS + "(`[{")[:-1]
    lower = word.lower()
    if lower in _ABBREVIATIONS or lower.rsplit("-", 1)[-1] in _ABBREVIATIONS:
        return starter_next and len(word) > 1
    if (len(word) == 1 and word.isalpha()) or _NUMBER.fullmatch(word + "."):
        return not next_word[:1].islower()  # an initial, an ordinal: not before lower case
    return bool(word) or core == "."


# --- Google's regex sentence splitter (IFEvalG's first/last word of each sentence) -------

_PREFIXES = re.compile(r"(Mr|St|Mrs|Ms|Dr)[.]")
_WEBSITES = re.compile(r"[.](com|net|org|io|gov|edu|me)")
_DIGIT_DOT = re.compile(r"([0-9])[.]([0-9])")
_DOTS = re.compile(r"\.{2,}")
_SINGLE_LETTER = re.compile(r"\s([A-Za-z])[.] ")
_STARTERS = (r"(Mr|Mrs|Ms|Dr|Prof|Capt|Cpt|Lt|He\s|She\s|It\s|They\s|Their\s|Our\s|We\s|But\s"
             r"|However\s|That\s|This\s|Wherever)")
_ACRONYM_STARTER = re.compile(r"([A-Z][.][A-Z][.](?:[A-Z][.])?) " + _STARTERS)
_THREE_LETTERS = re.compile(r"([A-Za-z])[.]([A-Za-z])[.]([A-Za-z])[.]")
_TWO_LETTERS = re.compile(r"([A-Za-z])[.]([A-Za-z])[.]")
_SUFFIX_STARTER = re.compile(r" (Inc|Ltd|Jr|Sr|Co)[.] " + _STARTERS)
_SUFFIX = re.compile(r" (Inc|Ltd|Jr|Sr|Co)[.]")
_LETTER_DOT = re.compile(r" ([A-Za-z])[.]")
# Where a rule matches, found from the periods (a fast scan for a literal first character):
# each `_FOUND` pattern matches some text exactly when its rule's pattern does.
_DIGIT_DOT_FOUND = re.compile(r"\.(?<=[0-9]\.)[0-9]")
_SINGLE_LETTER_FOUND = re.compile(r"\.(?<=\s[A-Za-z]\.) ")
_TWO_LETTERS_FOUND = re.compile(r"\.(?<=[A-Za-z]\.)[A-Za-z]\.")
_LETTER_DOT_FOUND = re.compile(r"\.(?<= [A-Za-z]\.)")
_WEBSITE_FOUND = re.compile(r"\.(?=com|net|org|io|gov|edu|me)")


@_memo
def regex_sentences(text: str) -> list[str]:
    """Google's rule-based splitter (`split_into_sentences` of IFEval's utilities), which
    IFEvalG's per-sentence checks use: the same rules, each a linear substitution. A rule
    whose pattern needs text the current string lacks (`Mr.`, `.com`, `..`, a letter between
    two periods, ` Inc.`) is skipped: its substitution would change nothing."""
    text = " " + text + "  "
    text = text.replace("\n", " ")
    if "Mr." in text or "Mrs." in text or "St." in text or "Ms." in text or "Dr." in text:
        text = _PREFIXES.sub("\\1<prd>", text)
    if _WEBSITE_FOUND.search(text):
        text = _WEBSITES.sub("<prd>\\1", text)
    if _DIGIT_DOT_FOUND.search(text):
        text = _DIGIT_DOT.sub("\\1<prd>\\2", text)
    if ".." in text:
        text = _DOTS.sub(lambda m: "<prd>" * len(m.group(0)) + "<stop>", text)
    if "Ph.D" in text:
        text = text.replace("Ph.D.", "Ph<prd>D<prd>")
    if _SINGLE_LETTER_FOUND.search(text):
        text = _SINGLE_LETTER.sub(" \\1<prd> ", text)
    if _TWO_LETTERS_FOUND.search(text):  # each of the next three rules matches a `x.y.` at least
        text = _ACRONYM_STARTER.sub("\\1<stop> \\2", text)
        text = _THREE_LETTERS.sub("\\1<prd>\\2<prd>\\3<prd>", text)
        text = _TWO_LETTERS.sub("\\1<prd>\\2<prd>", text)
    if (" Inc." in text or " Ltd." in text or " Jr." in text or " Sr." in text
            or " Co." in text):
        text = _SUFFIX_STARTER.sub(" \\1<stop> \\2", text)
        text = _SUFFIX.sub(" \\1<prd>", text)
    if _LETTER_DOT_FOUND.search(text):
        text = _LETTER_DOT.sub(" \\1<prd>", text)
    text = text.replace(".\u201d", "\u201d.").replace(".\"", "\".")
    text = text.replace("!\"", "\"!").replace("?\"", "\"?")
    text = text.replace(".", ".<stop>").replace("?", "?<stop>").replace("!", "!<stop>")
    text = text.replace("<prd>", ".")
    sentences = [s.strip() for s in text.split("<stop>")]
    if sentences and not sentences[-1]:
        sentences = sentences[:-1]
    return sentences


# --- Treebank-style word tokens (nltk.word_tokenize) -------------------------------------

_ALWAYS_SPLIT = set(";@#$%&?!*()[]{}<>\u00ab\u201c\u2018\u201e\u00bb\u201d\u2019"
                    "\u2012\u2013\u2014\u2015")
_CLITICS = ("n't", "N'T", "'ll", "'LL", "'re", "'RE", "'ve", "'VE", "'s", "'S", "'m", "'M",
            "'d", "'D")
_SPLIT_WORDS = {"cannot": 3, "gimme": 3, "gonna": 3, "gotta": 3, "lemme": 3, "wanna": 3,
                "d'ye": 1, "more'n": 4}


def word_tokens(text: str, *, sentences: bool = True) -> list[str]:
    """Tokens as `nltk.word_tokenize` gives them for ordinary text: punctuation and
    brackets are tokens of their own, a sentence's final period too, clitics (`n't`, `'s`,
    `'ll`) split off, `"` becomes a Treebank quote (` `` ` opening, `''` closing).
    `sentences`: tokenize each sentence of `split_sentences` (as word_tokenize does)."""
    parts = split_sentences(text) if sentences else [text]
    tokens: list[str] = []
    for sentence in parts:
        tokens.extend(_sentence_tokens(sentence))
    return tokens


def edge_tokens(text: str) -> tuple[str, str] | None:
    """The first and the last of `word_tokens(text)`, or None when it has fewer than two:
    only the sentences at the ends are tokenized."""
    sentences = split_sentences(text)
    for i, sentence in enumerate(sentences):
        head = _sentence_tokens(sentence)
        if head:
            break
    else:
        return None
    for j in range(len(sentences) - 1, i - 1, -1):
        tail = _sentence_tokens(sentences[j])
        if tail:
            break
    if j == i and len(head) < 2:
        return None
    return head[0], tail[-1]


@_memo
def _sentence_tokens(sentence: str) -> list[str]:
    body = sentence.rstrip()
    end = len(body)
    while end > 0 and body[end - 1] in "])}>\"'":
        end -= 1
    if end >= 2 and body[end - 1] == "." and body[end - 2] != ".":  # the final period
        body = body[:end - 1] + " ." + body[end:]
    out: list[str] = []
    for chunk in body.split():
        if chunk.isalnum() and chunk.lower() not in _SPLIT_WORDS:
            out.append(chunk)  # letters and digits only: one token (`_chunk_tokens`'s first case)
        else:
            out.extend(_chunk_tokens(chunk))
    return out


_SPECIAL = re.compile("[" + re.escape("".join(sorted(_ALWAYS_SPLIT))) + "\"`,:]")


def _chunk_tokens(chunk: str) -> list[str]:
    if ".." not in chunk and "--" not in chunk and not _SPECIAL.search(chunk):
        return _word_pieces(chunk)  # most chunks: one plain word
    if chunk[:-1].isalnum() and (chunk[-1] in _ALWAYS_SPLIT or chunk[-1] in ",:"):
        return [*_word_pieces(chunk[:-1]), chunk[-1]]  # a word, then a comma, a `?` ...
    pieces: list[str] = []
    word = []
    i, n = 0, len(chunk)

    def flush() -> None:
        if word:
            pieces.extend(_word_pieces("".join(word)))
            word.clear()

    while i < n:
        ch = chunk[i]
        if ch == '"':
            flush()
            opening = i == 0 or chunk[i - 1] in "([{<"
            pieces.append("``" if opening else "''")
        elif ch == "`":
            flush()
            j = i
            while j < n and chunk[j] == "`":
                j += 1
            pieces.append(chunk[i:j])
            i = j
            continue
        elif ch in _ALWAYS_SPLIT or ch in ",:" and (i + 1 == n or not chunk[i + 1].isdigit()):
            flush()
            pieces.append(ch)
        elif ch == "." and i + 1 < n and chunk[i + 1] == ".":
            flush()
            j = i
            while j < n and chunk[j] == ".":
                j += 1
            pieces.append(chunk[i:j])
            i = j
            continue
        elif ch == "-" and i + 1 < n and chunk[i + 1] == "-":
            flush()
            pieces.append("--")
            i += 2
            continue
        else:
            word.append(ch)
        i += 1
    flush()
    return [p for p in pieces if p]


def _word_pieces(word: str) -> list[str]:
    """A word without split punctuation: leading `'` and trailing clitics split off."""
    if "'" not in word:  # every clitic has an apostrophe
        cut = _SPLIT_WORDS.get(word.lower())
        return [word] if cut is None else [word[:cut], word[cut:]]
    out: list[str] = []
    if word.startswith("'") and len(word) > 1 and (word[1].isalnum() or word[1] == "_"):
        rest = word[1:]
        if not re.match(r"(?i)(?:re|ve|ll|m|t|s|d|n)\b", rest):
            out.append("'")
            word = rest
    lower = word.lower()
    if lower in _SPLIT_WORDS:
        cut = _SPLIT_WORDS[lower]
        return out + [word[:cut], word[cut:]]
    for clitic in _CLITICS:
        if word.endswith(clitic) and len(word) > len(clitic) and word[-len(clitic) - 1] != "'":
            return out + [word[:-len(clitic)], clitic]
    if word.endswith("'") and len(word) > 1 and word[-2] != "'":
        return out + [word[:-1], "'"]
    return out + [word]
