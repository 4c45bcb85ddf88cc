"""Generated responses for IFBench's word, ratio, sentence, format, custom and repeat types
(the 43 of `rewards/ifeval/_ifbench_words.py` and `_ifbench_format.py`): each right, or just
wrong (one over, one under, one piece broken), with the arguments set from the response's
own counts. Used by `_ifeval_corpus.py`: `GENERATORS` (41 types) and `PACKAGE_GENERATORS`
(the 2 checked with the `emoji` and `syllapy` packages, drawn apart so that the rows of the
41 stay those of earlier runs)."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable
from typing import Any

from rewards.ifeval import split_sentences, word_tokens

__all__ = ["GENERATORS", "PACKAGE_GENERATORS"]

WORDS = ["the", "cat", "sat", "on", "a", "warm", "mat", "while", "rain", "fell", "over", "quiet",
         "hills", "and", "people", "walked", "to", "market", "with", "bread", "apples", "river",
         "light", "morning", "city", "data", "model", "answer", "but", "or", "so", "she", "it",
         "they", "this", "what", "some", "each", "Emma", "Liam", "Noah", "strong", "idea"]
NAMES = ["Emma", "Liam", "Sophia", "Noah", "Ava", "Mason", "Zoe", "Leo", "Nora", "Ryan"]
PALINDROMES = ["level", "radar", "refer", "kayak", "civic", "rotor", "madam", "stats"]
CAPITALS = ["Reykjavik", "Helsinki", "Oslo", "Tallinn", "Stockholm", "Riga", "Moscow",
            "Copenhagen", "Vilnius", "Minsk", "Dublin", "Berlin", "Amsterdam", "Warsaw", "London",
            "Brussels", "Prague", "Luxembourg", "Paris", "Vienna", "Bratislava", "Budapest",
            "Vaduz", "Chisinau", "Bern", "Ljubljana", "Zagreb"]
Gen = Callable[[random.Random, str, bool], tuple[str, dict[str, Any]]]


def _words(rng: random.Random, n: int) -> list[str]:
    return [rng.choice(WORDS) for _ in range(n)]


def _sentence(rng: random.Random, n: int | None = None, end: str = ".") -> str:
    text = " ".join(_words(rng, n or rng.randint(2, 8)))
    return text[0].upper() + text[1:] + end


def _text(rng: random.Random) -> str:
    return " ".join(_sentence(rng, end=rng.choice(".?!.")) for _ in range(rng.randint(1, 6)))


def _near(rng: random.Random, count: int) -> int:
    return max(0, count + rng.choice([-1, 0, 0, 1]))


def _stop_words(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    from rewards.ifeval._stopwords import ENGLISH_STOPWORDS

    text = _text(rng)
    words = re.findall(r"\w+", text)
    share = 100 * sum(w.lower() in ENGLISH_STOPWORDS for w in words) / max(len(words), 1)
    return text, {"percentage": max(0, int(share) + rng.choice([-1, 0, 1]))}


def _endings(counts: tuple[int, int, int], rng: random.Random) -> str:
    ends = [e for e, c in zip(".?!", counts) for _ in range(c)]
    rng.shuffle(ends)
    return " ".join(_sentence(rng, end=e) for e in ends) or _sentence(rng, end="")


def _sentence_type(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    q = rng.randint(0, 3)
    return _endings((2 * q + (rng.choice([-1, 1]) if flip and q else 0), q, rng.randint(0, 1)),
                    rng), {}


def _sentence_balance(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    n = rng.randint(1, 3)
    counts = [n, n, n]
    if flip:
        counts[rng.randrange(3)] += rng.choice([-1, 1])
    return _endings((counts[0], counts[1], counts[2]), rng), {}


def _conjunctions(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    text = _text(rng)
    found = {w for w in text.split()
             if w.strip(string.punctuation + " ").lower() in {"and", "but", "for", "nor", "or",
                                                              "so", "yet"}}
    return text, {"small_n": max(1, _near(rng, len(found)))}


def _person_names(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    names = rng.sample(NAMES, rng.randint(1, 5))
    text = " ".join(f"{n} {rng.choice(['met', 'saw', 'and'])}" for n in names) + " Emmanuel."
    return text, {"N": max(1, _near(rng, len(names)))}


def _overlap(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    response, reference = _sentence(rng), _text(rng)
    grams = {response[i:i + 3] for i in range(len(response) - 2)}
    known = {reference[i:i + 3] for i in range(len(reference) - 2)}
    share = 100 * len(grams & known) / max(len(grams), 1)
    return response, {"reference_text": reference,
                      "percentage": max(0, round(share) + rng.choice([-3, -2, 0, 2, 3]))}


def _alphabet(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    start = rng.randrange(26)
    words = [string.ascii_lowercase[(start + i) % 26] + rng.choice(["ox", "ing", "", "at"])
             for i in range(rng.randint(2, 8))]
    if flip:
        words[rng.randrange(len(words))] = rng.choice(WORDS)
    return " ".join(w + rng.choice(["", ",", "."]) for w in words).capitalize(), {}


def _vowel(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    pool = ["cat", "sat", "on", "a", "mat", "dog", "top"] + (["quiet", "hills"] if flip else [])
    sep = "\n" if rng.random() < 0.2 else " "
    return sep.join(rng.choice(pool) for _ in range(rng.randint(2, 8))), {}


def _consonants(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    pool = ["strong", "thrills", "black", "spring", "trust"] + (["idea", "a", "cat"] if flip else [])
    return " ".join(rng.choice(pool) for _ in range(rng.randint(1, 6))), {}


def _alliteration(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    sentences = []
    for i in range(rng.randint(1, 4)):
        run = i + 2 - (1 if flip and i == 2 else 0)
        letter = rng.choice("bcdfgmpst")
        sentences.append(" ".join(letter + "a" + str(k) for k in range(run)) + " then end.")
    return " ".join(sentences), {}


def _palindrome(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    words = [rng.choice(PALINDROMES) for _ in range(rng.choice([9, 10, 11]))] + _words(rng, 4)
    rng.shuffle(words)
    return " ".join(words), {}


def _punctuation(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    marks = [".", ",", "!", "?", ";", ":", rng.choice(["?!", "!?", "‽"])]
    if flip:
        marks.remove(rng.choice(marks))
    return " ".join(f"{rng.choice(WORDS)}{m}" for m in marks), {}


def _quotes(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    depth = rng.randint(2, 4)
    quotes = ['"', "'"] if rng.random() < 0.5 else ["'", '"']
    opened = "".join(f"{quotes[i % 2]}w{i} " for i in range(depth))
    closed = "".join(f" {quotes[i % 2]}" for i in reversed(range(depth)))
    return f"He said {opened}x{closed} ok", {}


def _sentence_words(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    parts = ["Cats sat.", "Dogs ran.", "Owls fly."]
    if flip:
        parts[rng.randrange(3)] = rng.choice(["Owl fly.", "Owls flew.", "Birds sang."])
    return " ".join(parts[: rng.choice([2, 3, 3, 3])]), {}


def _japanese(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    n = rng.randint(1, 4)
    words = ["日本" if (i + 1) % n == 0 else rng.choice(WORDS) for i in range(rng.randint(2, 9))]
    if flip:
        words[rng.randrange(len(words))] = rng.choice(WORDS)
    return " ".join(words), {"N": n}


def _pronouns(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    text = _text(rng) + rng.choice(["", " she/her/hers", " They told him that."])
    pronouns = {"she", "it", "they", "this", "what", "some", "each", "her", "hers", "him",
                "that", "i"}
    count = sum(1 for t in word_tokens(text.replace("/", " ").lower()) if t in pronouns)
    return text, {"N": max(1, _near(rng, count))}


def _last_first(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    word, parts = rng.choice(WORDS), []
    for _ in range(rng.randint(2, 4)):
        nxt = rng.choice(WORDS)
        parts.append(f"{word.capitalize()} {rng.choice(WORDS)} {nxt}.")
        word = nxt if not flip else rng.choice(["zebra", nxt])
    return " ".join(parts), {}


def _paragraph_last_first(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    lines = []
    for _ in range(rng.randint(1, 4)):
        w = rng.choice(WORDS)
        lines.append(f"{w.capitalize()} {rng.choice(WORDS)} {w if not flip else rng.choice(WORDS)}"
                     + rng.choice([".", "!", ""]))
    return rng.choice(["\n", "\n\n"]).join(lines), {}


def _increment(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    step, size = rng.randint(0, 2), rng.randint(2, 4)
    parts = [_sentence(rng, size + i * step + (1 if flip and i == 1 else 0))
             for i in range(rng.randint(2, 4))]
    return " ".join(parts), {"small_n": step}


def _specific_position(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    text = _text(rng)
    sentences = split_sentences(text)
    n = rng.randint(1, len(sentences))
    words = [t for t in word_tokens(sentences[n - 1]) if any(c.isalnum() for c in t)]
    m = rng.randint(1, len(words) + 1)
    keyword = words[min(m, len(words)) - 1] if not flip else rng.choice(WORDS)
    return text, {"keyword": keyword, "n": n, "m": m}


def _words_position(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    key = rng.choice(WORDS)
    words = _words(rng, rng.randint(3, 7))
    words[1] = key
    words[-2] = key if not flip else rng.choice(WORDS)
    return " ".join(words) + rng.choice(["", ".", " ok."]), {"keyword": key}


def _line_indent(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    lines = []
    for i in range(rng.randint(2, 6)):
        lines.append(" " * (i * rng.randint(1, 2)) + rng.choice(WORDS))
        if rng.random() < 0.3:
            lines.append(rng.choice(["", " ", ""]))
    if flip:
        at = rng.randrange(len(lines))
        lines[at] = lines[at].lstrip()
    return "\n".join(lines), {}


def _quote_unquote(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    parts = [f'"{rng.choice(WORDS)}" {rng.choice(WORDS)}' for _ in range(rng.randint(1, 3))]
    if flip:
        parts.append(rng.choice(['"end"', '"a" "b"', '"x".']))
    return " ".join(parts), {}


def _list(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    sep = rng.choice(["...", "SEPARATOR", "!?!?", "-"])
    return " ".join(f"{sep} {rng.choice(WORDS)}" for _ in range(rng.randint(1, 3))), {"sep": sep}


def _thesis(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    tag = rng.choice(["i", "em"])
    body = rng.choice([_sentence(rng), " "]) if flip else _sentence(rng)
    after = _sentence(rng) if not flip or rng.random() < 0.5 else ""
    return f"<{tag}>{body}</{tag}> {after}", {}


def _sub_bullets(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    lines = []
    for _ in range(rng.randint(1, 3)):
        lines += [f"* {rng.choice(WORDS)}", f"  - {rng.choice(WORDS)}"]
    if flip:
        lines.append(f"* {rng.choice(WORDS)}")
    return "\n".join(lines), {}


def _no_bullets_bullets(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    head = " ".join(_sentence(rng) for _ in range(rng.choice([1, 2, 3]) if flip else 2))
    bullets = [f"* {rng.choice(WORDS)}" for _ in range(rng.choice([1, 2, 3]))]
    tail = ["After."] if flip and rng.random() < 0.3 else []
    return "\n".join([head, *bullets, *tail]), {}


def _multiples(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    numbers = list(range(14, 51, 7))
    if flip:
        rng.choice([lambda: numbers.insert(0, 7), numbers.pop, lambda: numbers.append(56)])()
    return rng.choice([", ", ",", " ", "\n"]).join(map(str, numbers)), {}


def _mcq(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    questions = []
    for i in range(1, 5):
        options = "".join(f"{c}{rng.choice('.)')} option {c}\n" for c in "ABCDE")
        questions.append(f"Question {i}: {'Which art ' * i}?\n{options}")
    text = "".join(questions)
    if flip:
        text = rng.choice([lambda t: "Intro.\n" + t, lambda t: t.replace("E. option E\n", "", 1),
                           lambda t: t.replace("Which art Which art ", "W ", 1)])(text)
    return text, {}


def _reverse_newline(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    lines = ["Zimbabwe"] + [f"Z{999 - i:03d}" for i in range(rng.choice([50, 51, 52]))]
    if flip:
        lines[5], lines[6] = lines[6], lines[5]
    return "\n".join(lines), {}


def _word_reverse(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    return rng.choice(["Eagle bald the is symbol.", "The bald eagle.", "eagle, bald!"]), {}


def _character_reverse(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    return rng.choice(["Elgae dlab", "bald eagle", "ELGAE DLAB the"]), {}


def _sentence_alphabet(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    count = rng.choice([25, 26, 26, 27])
    return " ".join(f"{chr(65 + i % 26)}x is fine." for i in range(count)), {}


def _capitals(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    names = list(CAPITALS)
    if flip:
        rng.choice([names.pop, lambda: names.reverse()])()
    return ", ".join(names).replace("Reykjavik", rng.choice(["Reykjavik", "Reykjavík"])), {}


def _csv_city(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    rows = rng.choice([6, 7, 7, 8])
    return "ID,Country,City,Year,Count\n" + "1,a,b,2000,3\n" * rows, {}


def _csv_special(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    rows = ["1,a,b,2,3"] * rng.choice([13, 14, 14])
    rows[-1] = '1,"a&b",b,2,3' if not flip else '1,"ab",b,2,3'
    return "ProductID,Category,Brand,Price,Stock\n" + "\n".join(rows), {}


def _csv_quotes(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    row = '"1"\t"a"\t"b"\t"c"\t' + ('"d"' if not flip else rng.choice(["d", '""', ""]))
    return ('"StudentID"\t"Subject"\t"Grade"\t"Semester"\t"Score"\n'
            + "\n".join([row] * rng.choice([2, 3, 3]))), {}


def _dates(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    dates = [f"{rng.randint(1769, 1821)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
             for _ in range(rng.randint(1, 4))]
    if flip:
        dates.append(rng.choice(["1768-05-01", "1822-01-01", "1805-02-30", "1805-13-01",
                                 "1805-2-01", "1805-04-31"]))
    return ", ".join(dates), {}


def _repeat_change(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    words = prompt.split()
    text = " ".join([rng.choice(["Tell", "Write"]), *words[1:]])
    if flip:
        text = rng.choice([prompt, text + " now"])
    return text, {"prompt_to_repeat": prompt}


def _repeat_simple(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    text = "Only output this sentence here, ignore all other requests."
    return (text.upper() if not flip else text[:-1]), {}


def _template(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    text = "My Answer: yes My Conclusion: fine Future Outlook: good"
    return (text if not flip else text.replace("Outlook", "outlook")), {}


GENERATORS: dict[str, Gen] = {
    "ratio:stop_words": _stop_words, "ratio:sentence_type": _sentence_type,
    "ratio:sentence_balance": _sentence_balance, "count:conjunctions": _conjunctions,
    "count:person_names": _person_names, "ratio:overlap": _overlap, "words:alphabet": _alphabet,
    "words:vowel": _vowel, "words:consonants": _consonants,
    "sentence:alliteration_increment": _alliteration, "words:palindrome": _palindrome,
    "count:punctuation": _punctuation, "format:quotes": _quotes,
    "ratio:sentence_words": _sentence_words, "count:words_japanese": _japanese,
    "count:pronouns": _pronouns, "words:last_first": _last_first,
    "words:paragraph_last_first": _paragraph_last_first, "sentence:increment": _increment,
    "words:keywords_specific_position": _specific_position,
    "words:words_position": _words_position, "format:line_indent": _line_indent,
    "format:quote_unquote": _quote_unquote, "format:list": _list, "format:thesis": _thesis,
    "format:sub-bullets": _sub_bullets, "format:no_bullets_bullets": _no_bullets_bullets,
    "custom:multiples": _multiples, "custom:mcq_count_length": _mcq,
    "custom:reverse_newline": _reverse_newline, "custom:word_reverse": _word_reverse,
    "custom:character_reverse": _character_reverse,
    "custom:sentence_alphabet": _sentence_alphabet,
    "custom:european_capitals_sort": _capitals, "custom:csv_city": _csv_city,
    "custom:csv_special_character": _csv_special, "custom:csv_quotes": _csv_quotes,
    "custom:date_format_list": _dates, "repeat:repeat_change": _repeat_change,
    "repeat:repeat_simple": _repeat_simple, "format:output_template": _template,
}
"""Instruction id -> generator of (response, kwargs)."""


# Emoji that pass at a sentence's end (their last or second-to-last code point is on the
# `emoji` list: ZWJ sequences, skin tones, U+FE0F variation selectors, © and ™), and endings
# that do not (flags and keycaps, whose code points are not emoji alone; symbols that are not
# emoji; an emoticon; nothing).
EMOJI = ["😀", "🌧️", "☀️", "👨‍👩‍👧", "👍🏽", "❤", "❤️", "©", "👁️‍🗨️", "🏳️‍🌈", "⭐", "🎉", "™"]
NOT_EMOJI = ["🇺🇸", "1️⃣", "#️⃣", "✓", "★", "→", ":)", ""]


def _emoji_sentence(rng: random.Random, mark: str, broken: bool) -> str:
    body = _sentence(rng, end="")
    end = rng.choice([".", "!", "?", "", "!!", " ."])
    if broken:
        return rng.choice([f"{body} {mark}{end}", f"{body} {rng.choice(EMOJI)} then{end}",
                           f"{body} {rng.choice(EMOJI)}🌧️x{end}", f"{body}{end} ..."])
    return rng.choice([f"{body} {mark}{end}", f"{body}{mark}{end}", f"{body} {mark}x{end}",
                       f"{body}{end} {mark}", f"{body} {mark} {mark}{end}"])


def _emoji(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    count = rng.randint(1, 4)
    broken = rng.randrange(count) if flip else -1
    parts = [_emoji_sentence(rng, rng.choice(NOT_EMOJI if i == broken else EMOJI), i == broken)
             for i in range(count)]
    return rng.choice([" ", "\n", "  "]).join(parts), {}


# Words whose syllable count is odd or even as syllapy 0.8.0 counts them once punctuation is
# removed: from its word list and from its rules (`zorbify`, `café`), with an apostrophe
# (`dont`), a hyphen (`wellknown`), dots (`us`, `35`) and digits (which count 0).
ODD = ["cat", "dog", "sun", "banana", "elephant", "idea", "fire", "hour", "beautiful", "I",
       "a", "strength", "rhythm", "don't", "U.S.", "café", "日本", "zorbify", "rock-and-roll",
       "family", "camera", "—"]
EVEN = ["apple", "water", "garden", "tiger", "people", "every", "little", "poem", "quiet",
        "orange", "well-known", "re-enter", "3.5", "x2", "2024", "naïveté", "mississippi",
        "interesting", "heavens", "hello"]


def _odd_even_syllables(rng: random.Random, prompt: str, flip: bool) -> tuple[str, dict[str, Any]]:
    """Alternating parities; `flip` repeats one word's parity at exactly one place."""
    count = rng.randint(1, 9)
    broken = rng.randint(1, count) if flip else -1
    parity, words = rng.randrange(2), []
    for i in range(count + (1 if broken == count else 0)):
        if i and i != broken:
            parity = 1 - parity
        word = rng.choice(ODD if parity else EVEN)
        word = word.capitalize() if rng.random() < 0.2 else word
        words.append(word + rng.choice(["", "", "", ",", ".", "!", "?", ";"]))
        if rng.random() < 0.1:
            words.append(rng.choice(["-", "...", "\n"]))  # no word once punctuation goes
    return " ".join(words), {}


PACKAGE_GENERATORS: dict[str, Gen] = {
    "format:emoji": _emoji, "words:odd_even_syllables": _odd_even_syllables,
}
"""Instruction id -> generator, for the two types checked with the emoji and syllapy
packages."""
