"""Splitting text without data files: words, sentences, Treebank-style tokens, paragraphs.

The reference checkers (Google's IFEval, open-instruct's IFEvalG) count sentences with NLTK's
English Punkt model and tokenize with `nltk.word_tokenize`, both of which need `punkt_tab`
downloaded at run time. The splitters here need nothing: they follow Punkt's decisions on
ordinary text (a break after `.`, `?` or `!` and whitespace, within a run of them where Punkt
finds its candidate end (`Wow!!` is `Wow!` and `!`), none after a known abbreviation
such as `Mr.`, a one-letter initial or a number followed by a lower-case word) and Treebank's
token rules (punctuation split off, `n't` and `'s` split off, `"` read as an opening or closing
quote). Where Punkt's statistics decide (an abbreviation outside the list below, a name after
an initial), they can differ; docs/instruction-following.md lists the known differences.

Every function is linear in its input: single-pass scans and regular expressions without
nested quantifiers over the same characters."""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable
from functools import wraps
from itertools import pairwise

from rewards.cache import byte_cache
from rewards.text import char_class

__all__ = ["count_sentences", "count_words", "edge_tokens", "regex_sentences", "split_sentences",
           "word_tokens", "words"]

_MEMO_CHARS = 4_096
"""Texts up to this long have their splits kept (`_memo`); longer ones are split each time."""


def _memo(split: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    """`split` with its results kept for short texts: loose mode's eight texts share most of
    their sentences and a response's constraints split it alike. A copy is returned, so a
    caller may change its list. Bounded: 16 MiB of texts of at most `_MEMO_CHARS` characters
    and their splits."""
    def split_once(text: str) -> tuple[str, ...]:
        return tuple(split(text))

    cached = byte_cache(16 << 20)(split_once)

    @wraps(split)
    def memo(text: str) -> list[str]:
        return list(cached(text)) if len(text) <= _MEMO_CHARS else split(text)

    return memo

# Abbreviations after which Punkt's English model does not break (a common subset of its
# list, lower case, without the final period). `etc` and `e.g` are not among them: Punkt
# breaks after them too.
_ABBREVIATIONS = frozenset(["mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "inc", "ltd", "co", "corp", "cos", "bros", "messrs", "gen", "sen", "rep", "reps", "lt", "col", "maj", "adm", "jan", "feb", "aug", "sep", "sept", "oct", "nov", "dec", "tues", "wed", "fri", "ave", "ft", "vs", "v", "u.s", "u.s.a", "u.k", "u.n", "u.s.s.r", "ph.d", "a.m", "p.m", "a.d", "d.c", "n.y", "l.a", "calif", "fla", "ga", "pa", "va", "ill", "mich", "minn", "conn", "ariz", "colo", "tenn", "wash", "okla", "ore", "nev", "kan", "ky", "mg", "ok", "c", "d", "e", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "w"])
# Capitalized words Punkt's English model knows to start sentences: after an abbreviation
# they still break.
_SENT_STARTERS = frozenset(["according", "although", "among", "both", "but", "despite", "even", "he", "however", "i", "if", "in", "indeed", "instead", "it", "many", "meanwhile", "moreover", "most", "nevertheless", "nonetheless", "nor", "separately", "similarly", "since", "so", "some", "the", "there", "these", "they", "this", "though", "thus", "under", "when", "while", "yet"])
_NON_WORD = ")\";}]*:@'({[\u2018\u2019\u201c\u201d\xab\xbb?!"
"""Punkt's characters that cannot be in a word: after `.`, `?` or `!`, one of them (or a space
and a word) makes a candidate sentence end. `.` is not among them."""
_CANDIDATE = re.compile("[.?!](?=[" + re.escape(_NON_WORD) + r"]|\s+\S)")
_NEXT_WORD = re.compile(r"\s+(\S+)")
_WORD_BEFORE = re.compile("[^ \t\n\r\x0b\x0c]*")
"""A word read backwards up to `string.whitespace`, where Punkt looks back for the word before
a candidate end (not up to every `str.isspace` character)."""
_NW = re.escape(_NON_WORD)
_MULTI = r"-{2,}|\.{2,}|(?:\.\s){2,}\."
_PUNKT_WORD = re.compile(
    _MULTI + r"|[^\s(\"`{\[:;&#*@)}\]\-,]"  # a word starts with none of these
    r"(?:[^\s" + _NW + r",.\-]|\.(?!\.|\s\.\s\.)|-(?!-)"  # and ends before space, a non-word
    r"|,(?!$|\s|[" + _NW + r"]|" + _MULTI + r"))*"  # character, `--`, `..` or a final comma
    r"|\S")
"""Punkt's word tokens (its `word_tokenize`), without a lazy quantifier: each step takes one
character after a fixed lookahead, so a token costs its length."""
_REALIGN = re.compile("[\"')\\]}\u2018\u2019\u201c\u201d\xab\xbb]+(?:\\s+|(?=--)|$)")
_NUMBER = re.compile(r"-?[.,]?\d[\d,.\-]*\.?")
_INITIAL = re.compile(r"[^\W\d]\.")


_WORD: list[re.Pattern[str]] = []


def _word_pattern() -> re.Pattern[str]:
    """A word (`words`), its classes made on first use from this Python's Unicode database
    (one scan of the code space, under 0.1 s): the combining marks (category `M`) and the
    raised and lowered signs (decomposition `<super>` or `<sub>`, NFKC form `+` or the minus
    sign: `⁺ ⁻ ₊ ₋`). Two threads may both make it; they make the same pattern."""
    if _WORD:
        return _WORD[0]
    marks, signs = [], []
    for code in range(0x80, sys.maxunicode + 1):
        ch = chr(code)
        if unicodedata.category(ch)[0] == "M":
            marks.append(code)
        elif unicodedata.decomposition(ch).startswith(("<super>", "<sub>")) \
                and unicodedata.normalize("NFKC", ch) in ("+", "\u2212"):
            signs.append(code)
    mark, sign = char_class(marks), char_class(signs)
    _WORD.append(re.compile(rf"\w(?:\w|{mark})*(?:{sign}(?:\w|{mark})+)*"))
    return _WORD[0]


def words(text: str) -> list[str]:
    """The words of `text` as the reference counts them (`RegexpTokenizer(r"\\w+")`, which
    NLTK 3.10 compiles with the `regex` engine): runs of word characters with the combining
    marks on them (a Devanagari vowel sign or virama, an Arabic haraka, a Thai vowel: `regex`'s
    `\\w` holds the marks, Python `re`'s does not), so `मैं ठीक हूँ` is 3 words. Where this
    differs from the reference (docs/instruction-following.md): a word starts with a word
    character, so a mark on no letter (a lone VS16 after `❤`, which the reference counts) is
    no word; raised and lowered digits and letters are word characters (Python's `\\w`: `H₂O`
    is one word, two to the reference); and an exponent after a raised sign stays on its base
    (`10⁻³`, `s⁻²` one word each, as the reference, which drops the raised digits, counts)."""
    return _word_pattern().findall(text)


def count_words(text: str) -> int:
    """The number of `words`."""
    return len(words(text))


@_memo
def split_sentences(text: str) -> list[str]:
    """Sentences as NLTK's English Punkt model splits ordinary text (see the module doc).

    As Punkt does: each candidate end (`.`, `?` or `!` before a non-word character or before
    a space and a word) that `_end_candidates` keeps is a break when its context (the word
    before it through the character or word after it) holds a sentence end that is not the
    context's last token; closing quotes and brackets that start the next sentence are moved
    back onto the one before (`_realign`)."""
    cuts: list[tuple[int, int]] = []  # (end of a sentence, start of the next)
    for end, start in _end_candidates(text):
        next_start = _break_after(text, start, end)
        if next_start is not None:
            cuts.append((end, next_start))
    return [s for s in (part.strip() for part in _realign(text, cuts)) if s]


def count_sentences(text: str) -> int:
    """The number of `split_sentences`."""
    return len(split_sentences(text))


def _end_candidates(text: str) -> list[tuple[int, int]]:
    """Punkt's candidate ends (`_match_potential_end_contexts`) as (the index after the end
    character, the start of the word before it). Of several candidates in one word (`Hi!!!`,
    `end.!`) only the last is kept, and one that starts its word (`!` in `!!`). The word
    before starts after the last `string.whitespace` since the previous candidate (not
    counting the text's first character); without one, it is the previous candidate's word."""
    kept: list[tuple[int, int]] = []
    backwards = text[::-1]  # the word before a candidate is a forward match here
    previous_at, previous_start = -1, 0  # the previous candidate and its word's start
    for match in _CANDIDATE.finditer(text):
        at = match.start()
        low = max(previous_at + 1, 1)
        word = _WORD_BEFORE.match(backwards, len(text) - at, max(len(text) - low, len(text) - at))
        length = word.end() - word.start()  # type: ignore[union-attr]  # `*` always matches
        word_start = at - length if length < at - low else previous_start
        if previous_at >= 0 and previous_at <= word_start:
            kept.append((previous_at + 1, previous_start))
        previous_at, previous_start = at, word_start
    if previous_at >= 0:
        kept.append((previous_at + 1, previous_start))
    return kept


def _break_after(text: str, start: int, end: int) -> int | None:
    """Where the next sentence starts if Punkt ends one at `end` (after `.`, `?` or `!`, with
    the word before starting at `start`), else None. Its context ends at the non-word
    character after `end` (`Wow!!`, `Hi.)`), or else at the end of the next word."""
    if text[end] in _NON_WORD:
        stop, next_start = end + 1, end
    else:
        following = _NEXT_WORD.match(text, end)
        assert following is not None  # `_CANDIDATE` saw space and a word
        stop, next_start = following.end(), following.start(1)
    if text[end - 1] != ".":  # `?` and `!` are tokens of their own, followed by one
        return next_start
    word = text[start:end - 1]
    if word.isalpha() and len(word) > 1 and word.lower() not in _ABBREVIATIONS:
        return next_start  # most periods: a plain word's, a token that ends a sentence
    return next_start if _context_breaks(text[start:stop]) else None


def _context_breaks(context: str) -> bool:
    """Punkt's `text_contains_sentbreak`: a token of `context` other than its last ends a
    sentence."""
    tokens = _PUNKT_WORD.findall(context)
    return any(_ends_sentence(token, following) for token, following in pairwise(tokens)
               if token[-1] in ".?!")


def _ends_sentence(token: str, following: str) -> bool:
    """Whether Punkt's English model ends a sentence at the word token `token`, followed by
    the token `following`: always at `.`, `?` and `!`, never after a word without a final
    period; after an ellipsis or a known abbreviation only before a capitalized word that
    starts sentences; after an initial or a number not before lower case or punctuation."""
    if len(token) == 1 or not token.endswith("."):
        return token in ".?!"
    lower = token[:-1].lower()
    if lower in _ABBREVIATIONS or lower.rsplit("-", 1)[-1] in _ABBREVIATIONS:
        return len(token) > 2 and _starts_sentences(following)  # an initial never breaks
    if lower.strip(".") == "":  # an ellipsis
        return _starts_sentences(following)
    if (len(token) == 2 and _INITIAL.fullmatch(token)) or \
            (token[0] in "-.,0123456789" and _NUMBER.fullmatch(token)):
        return following not in _PUNCTUATION and not following[:1].islower()
    return True


def _starts_sentences(word: str) -> bool:
    """A capitalized word that Punkt's English model knows to start sentences."""
    return word[:1].isupper() and word.lower().rstrip(".,;:!?") in _SENT_STARTERS


_PUNCTUATION = frozenset(";:,.!?")


def _realign(text: str, cuts: list[tuple[int, int]]) -> list[str]:
    """The sentences between `cuts`, the last one ending before trailing space; closing quotes
    and brackets that start a sentence, followed by space, `--` or its end, close the sentence
    before instead (Punkt's `_realign_boundaries`)."""
    spans = []
    start = 0
    for end, next_start in cuts:
        spans.append((start, end))
        start = next_start
    spans.append((start, len(text.rstrip())))
    sentences = []
    shift = 0
    for i, (start, end) in enumerate(spans):
        start += shift
        shift = 0
        if i + 1 < len(spans):
            closing = _REALIGN.match(text, spans[i + 1][0], spans[i + 1][1])
            if closing:
                sentences.append(text[start:spans[i + 1][0] + len(closing.group().rstrip())])
                shift = closing.end() - spans[i + 1][0]
                continue
        sentences.append(text[start:end])
    return sentences


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
    while end > 0 and body[end - 1] in "])}>\"'\xbb\u201d\u2019 ":  # NLTK's closers, space too
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
    word: list[str] = []
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
        elif ch == "`" or ch == "." and i + 1 < n and chunk[i + 1] == ".":
            flush()  # a run of backquotes, or of two or more periods, is one token
            j = i
            while j < n and chunk[j] == ch:
                j += 1
            pieces.append(chunk[i:j])
            i = j
            continue
        elif ch in _ALWAYS_SPLIT or ch in ",:" and (i + 1 == n or not chunk[i + 1].isdigit()):
            flush()
            pieces.append(ch)
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
