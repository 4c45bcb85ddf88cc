"""Generated responses for the IFEval differential: every instruction type, its arguments
set at the response's own counts and one over and one under, on text with the features the
checkers look at (abbreviations, ordinals, contractions, quotes, bullets, highlights, titles,
dividers, sections, postscripts, JSON, capitals, other languages)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from _ifbench_corpus import GENERATORS as IFBENCH_MORE
from _ifbench_corpus import PACKAGE_GENERATORS as IFBENCH_PACKAGED

from rewards.ifeval import (
    count_sentences,
    count_words,
    regex_sentences,
    split_sentences,
    word_tokens,
)
from rewards.ifeval._ifeval import count_bullets, count_highlights, count_placeholders

__all__ = ["Case", "cases"]

WORDS = ["the", "cat", "sat", "on", "a", "warm", "mat", "while", "rain", "fell", "over", "quiet", "hills", "and", "people", "walked", "to", "market", "with", "baskets", "of", "bread", "apples", "cheese", "river", "light", "morning", "city", "planning", "data", "model", "answer", "question", "travel", "history", "science", "music", "garden"]
SPECIAL = ["Mr.", "Dr.", "e.g.", "U.S.", "etc.", "vs.", "3.5", "1,000", "don't", "it's", "I'm",
           "we'll", "can't", "well-known", "(note)", '"quoted"', "NASA", "OK", "a.m.", "Inc.",
           "St.", "cannot", "gonna", "'tis", "x--y", "$5", "#tag", "50%", "A.", "J.", "No.",
           "Jan.", "Prof.", "U.K.", "Ph.D.", "i.e.", "approx.", "Fig.", "2.", "10.", "...",
           "Hello!", "why?", "(Sept.", "“curly”", "it—dash", "he said: yes"]
FOREIGN = {
    "fr": "Le chat est assis sur le tapis pendant que la pluie tombe sur les collines.",
    "es": "El gato se sienta en la alfombra mientras la lluvia cae sobre las colinas.",
    "de": "Die Katze sitzt auf der Matte, während der Regen auf die Hügel fällt.",
    "it": "Il gatto è seduto sul tappeto mentre la pioggia cade sulle colline.",
    "pt": "O gato está sentado no tapete enquanto a chuva cai sobre as colinas.",
}
KEYWORDS = ["rain", "market", "bread", "light", "city", "model", "garden", "cat", "mat"]


@dataclass
class Case:
    """One generated row: its constraints and a response."""

    family: str  # ifeval, ifevalg or rlvr
    ids: list[str]
    kwargs: list[dict[str, Any]]
    response: str
    prompt: str = "Write about the rain and the market."
    extra: dict[str, Any] = field(default_factory=dict)


def sentence(rng: random.Random, special: float = 0.2) -> str:
    words = [rng.choice(SPECIAL) if rng.random() < special else rng.choice(WORDS)
             for _ in range(rng.randint(2, 11))]
    if rng.random() < 0.3:
        words[rng.randrange(len(words))] += ","
    if rng.random() < 0.15:
        words[rng.randrange(len(words))] = rng.choice(WORDS).upper()
    text = " ".join(words)
    text = text[0].upper() + text[1:]
    return text + rng.choice([".", ".", ".", "!", "?", "...", ""])


def paragraph(rng: random.Random) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(1, 4)))


def decorate(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(0, 4)):
        pick = rng.random()
        at = rng.randrange(len(lines) + 1)
        if pick < 0.12:
            lines.insert(at, rng.choice(["* " + sentence(rng), "- " + sentence(rng), "  * item",
                                         "** bold", "*", "-", "---", "\t- tab item", "*x*"]))
        elif pick < 0.24:
            lines.insert(0, rng.choice(["<<" + sentence(rng, 0) + ">>", "<< >>", "<<a>>>",
                                        "<<unclosed", "<<<<x>>"]))
        elif pick < 0.36:
            lines.insert(at, rng.choice(["SECTION 1", "Section 2", "SECTION3", "Part 1",
                                         "PARAGRAPH 2 text"]) + " " + sentence(rng))
        elif pick < 0.48:
            lines.append(rng.choice(["P.S. " + sentence(rng), "P.P.S " + sentence(rng),
                                     "p. s. later", "P. P. S. more", "PS: note", "Note: x"]))
        elif pick < 0.6:
            w = rng.choice(WORDS)
            lines.insert(at, rng.choice([f"*{w}*", f"**{w} {w}**", "* *", "** **", f"[{w}]",
                                         f"[{w}", f"[a] [b] [{w}]", "***", f"*{w}"]))
        elif pick < 0.7:
            lines.insert(at, "")
        elif pick < 0.8:
            lines.insert(at, FOREIGN[rng.choice(sorted(FOREIGN))])
        else:
            lines[at - 1 if at else 0] += rng.choice([" *emph*", " [x]", " ,", " NASA", " 1."])
    return "\n".join(lines)


def response(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.05:
        return json.dumps({"answer": sentence(rng), "n": rng.randint(0, 9)}) if rng.random() < .5 \
            else rng.choice(["```json\n{\"a\": 1}\n```", "{\"a\": }", "```\n[1, 2]\n```", "[1,"])
    if kind < 0.1:
        return f"{paragraph(rng)}\n******\n{paragraph(rng) if rng.random() < .8 else ''}"
    if kind < 0.13:
        return FOREIGN[rng.choice(sorted(FOREIGN))] + " " + FOREIGN[rng.choice(sorted(FOREIGN))]
    sep = rng.choice(["\n\n", "\n\n***\n\n", "\n***\n", " *** ", "\n", "\n\n\n"])
    text = sep.join(paragraph(rng) for _ in range(rng.randint(1, 5)))
    if rng.random() < 0.2:
        text = rng.choice(["***", "", " "]) + text + rng.choice(["***", "", "\n"])
    text = decorate(rng, text)
    if rng.random() < 0.1:
        text = text.upper()
    elif rng.random() < 0.1:
        text = text.lower()
    if rng.random() < 0.07:
        text = f'"{text}"'
    if rng.random() < 0.1:
        text += rng.choice([" Any other questions?", "\nIs there anything else I can help with?",
                            ' Any other questions?"', " any other questions"])
    if rng.random() < 0.05:
        text = rng.choice(["My answer is yes.", "My answer is maybe", "my answer is no."]) + " " + text
    return text


def near(rng: random.Random, count: int) -> int:
    return max(0, count + rng.choice([-1, 0, 0, 1]))


def relation(rng: random.Random) -> str:
    return rng.choice(["less than", "at least"])


def _ifeval_kwargs(rng: random.Random, iid: str, text: str, prompt: str) -> dict[str, Any] | None:
    lower = text.lower()
    if iid == "keywords:existence":
        present = [w for w in KEYWORDS if w in lower]
        return {"keywords": rng.sample(KEYWORDS if not present or rng.random() < .3 else present,
                                       k=min(2, len(present) or 2))}
    if iid in ("keywords:frequency", "keywords:word_count_different_numbers"):
        w = rng.choice(KEYWORDS)
        return {"keyword": w, "frequency": max(1, near(rng, lower.count(w))), "relation": relation(rng)}
    if iid == "keywords:forbidden_words":
        return {"forbidden_words": rng.sample(KEYWORDS + ["rains", "mats"], k=2)}
    if iid in ("keywords:letter_frequency", "letters:letter_counting2"):
        letter = rng.choice("aeiourstnmx")
        return {"letter": letter, "let_frequency": max(1, near(rng, lower.count(letter))),
                "let_relation": relation(rng)}
    if iid == "language:response_language":
        return {"language": rng.choice(["en", "en", "fr", "es", "de", "it", "pt"])}
    if iid == "length_constraints:number_sentences":
        return {"num_sentences": max(1, near(rng, count_sentences(text))), "relation": relation(rng)}
    if iid == "length_constraints:number_paragraphs":
        return {"num_paragraphs": max(1, near(rng, len(re.split(r"\s?\*\*\*\s?", text))))}
    if iid == "length_constraints:number_words":
        return {"num_words": max(1, near(rng, count_words(text))), "relation": relation(rng)}
    if iid == "length_constraints:nth_paragraph_first_word":
        parts = [p for p in text.split("\n\n") if p.strip()] or [text]
        nth = rng.randint(1, len(parts))
        first = (parts[nth - 1].split() or ["x"])[0].strip("'\".,?!").lower()
        return {"num_paragraphs": max(nth, near(rng, len(parts))), "nth_paragraph": nth,
                "first_word": (first if rng.random() < .8 else "") or rng.choice(WORDS)}
    if iid == "detectable_content:number_placeholders":
        return {"num_placeholders": max(1, near(rng, count_placeholders(text)))}
    if iid == "detectable_content:postscript":
        return {"postscript_marker": rng.choice(["P.S.", "P.P.S", "PS:", "Note:"])}
    if iid == "detectable_format:number_bullet_lists":
        return {"num_bullets": max(1, near(rng, count_bullets(text)))}
    if iid == "detectable_format:number_highlighted_sections":
        return {"num_highlights": max(1, near(rng, count_highlights(text)))}
    if iid == "detectable_format:multiple_sections":
        spliter = rng.choice(["SECTION", "Section", "PARAGRAPH"])
        return {"section_spliter": spliter,
                "num_sections": max(1, near(rng, len(re.findall(rf"\s?{spliter}\s?\d+\s?", text))))}
    if iid == "combination:repeat_prompt":
        return {"prompt_to_repeat": rng.choice([prompt, text[:40] or "x"])}
    if iid == "startend:end_checker":
        return {"end_phrase": rng.choice(["Any other questions?",
                                          "Is there anything else I can help with?"])}
    if iid == "change_case:capital_word_frequency":
        caps = sum(1 for t in word_tokens(text) if t.isupper())
        return {"capital_frequency": max(1, near(rng, caps)), "capital_relation": relation(rng)}
    return {}


IFEVAL_IDS = ["keywords:existence", "keywords:frequency", "keywords:forbidden_words",
              "keywords:letter_frequency", "language:response_language",
              "length_constraints:number_sentences", "length_constraints:number_paragraphs",
              "length_constraints:number_words", "length_constraints:nth_paragraph_first_word",
              "detectable_content:number_placeholders", "detectable_content:postscript",
              "detectable_format:number_bullet_lists", "detectable_format:constrained_response",
              "detectable_format:number_highlighted_sections",
              "detectable_format:multiple_sections", "detectable_format:json_format",
              "detectable_format:title", "combination:two_responses",
              "combination:repeat_prompt", "startend:end_checker",
              "change_case:capital_word_frequency", "change_case:english_capital",
              "change_case:english_lowercase", "punctuation:no_comma", "startend:quotation"]


def _shaped(rng: random.Random, iid: str, prompt: str) -> tuple[str, dict[str, Any]]:
    """A response made for one IFEvalG type, right or just wrong, and its arguments."""
    word = rng.choice(KEYWORDS)
    flip = rng.random() < 0.4
    sents = [sentence(rng, 0.1) for _ in range(rng.randint(1, 4))]
    if iid == "copy:repeat_phrase":
        phrase = "the quick brown fox jumps"
        n = rng.randint(2, 3)
        variants = [phrase.replace("brown", rng.choice(["red", "grey", "brown"]))
                    for _ in range(n + (1 if flip else 0))]
        return " and ".join(variants) + ".", {"phrase": phrase, "small_n": n}
    if iid in ("copy:copy", "copy:copying_simple"):
        return (prompt.upper() if not flip else prompt + " extra"), {"prompt_to_repeat": prompt}
    if iid == "new:copy_span_idx":
        a, b = rng.randint(0, 10), rng.randint(12, 30)
        got = prompt[a:b] if not flip else prompt[a:b + 1]
        return got, {"prompt_to_repeat": prompt, "n_start": a, "n_end": b}
    if iid == "copy:copying_multiple":
        n = rng.randint(2, 3)
        return "\n******\n".join([prompt] * (n + (1 if flip else 0))), {"prompt_to_repeat": prompt, "N": n}
    if iid == "detectable_format:sentence_hyphens":
        return rng.choice(["-", " - ", "-"]).join(sents), {}
    if iid == "detectable_format:square_brackets":
        words = [f"[{w}]" for w in sents[0].split()]
        if flip:
            words.append("plain")
        return " ".join(words), {}
    if iid == "detectable_format:bigram_wrapping":
        words = sents[0].split() + ["end"]
        pairs = [f"<<{words[i]} {words[i + 1]}>>" for i in range(0, len(words) - 1, 2)]
        return (" ".join(pairs) + (" tail extra" if flip else "")), {}
    if iid in ("first_word:first_word_sent", "first_word:first_word_answer"):
        text = " ".join(f"{word.capitalize()} {s}" for s in sents)
        if flip:
            text += " Other ending."
        return text, {"first_word": word}
    if iid in ("last_word:last_word_sent", "last_word:last_word_answer"):
        text = " ".join(f"{s.rstrip('.!?')} {word}." for s in sents)
        if flip:
            text += " Other ending."
        return text, {"last_word": word}
    if iid == "keywords:word_once":
        return " ".join(sents) + (f" {word}" * rng.randint(0, 2)), {"keyword": word}
    if iid == "keywords:exclude_word_harder":
        return " ".join(sents) + (f" {word} end" if flip else f" {word}."), {"keyword": word}
    if iid == "count:count_increment_word":
        k1, k2 = rng.sample(KEYWORDS, 2)
        return f"{k1} {k2} and {k2}" + (f" {k1}" if flip else "") + ".", {"keyword1": k1, "keyword2": k2}
    if iid == "keywords:keyword_specific_position":
        sentences = regex_sentences(" ".join(sents))
        n = rng.randint(1, max(1, len(sentences)))
        tokens = word_tokens(sentences[n - 1]) if sentences else []
        m = rng.randint(1, max(1, len(tokens)))
        kw = tokens[m - 1] if tokens and not flip else word
        return " ".join(sents), {"keyword": kw, "n": n, "m": m}
    if iid == "count:counting_composition":
        n_sent, n_words = rng.randint(1, 3), rng.randint(2, 4)
        paras = [" ".join(" ".join(rng.choice(WORDS) for _ in range(n_words - 1)).capitalize() + "."
                          for _ in range(n_sent)) for _ in range(3 + (1 if flip else 0))]
        return " *** ".join(paras), {"n_sent": n_sent, "n_words": n_words}
    if iid == "count:lowercase_counting":
        text = " ".join(sents)
        return text, {"N": max(1, near(rng, len(re.findall(r"\b[a-z]+\b", text))))}
    if iid == "letters:letter_counting":
        text = " ".join(sents)
        return text, {"N": max(1, near(rng, len(re.findall(r"[a-zA-Z]", text)))),
                      "relation": relation(rng)}
    if iid in ("paragraphs:paragraphs", "paragraphs:paragraphs2"):
        sep = "\n***\n" if iid.endswith("paragraphs") else "\n\n"
        return sep.join(sents[:rng.randint(1, 3)]) + rng.choice(["", sep]), {}
    if iid == "keywords:palindrome":
        return " ".join(sents) + (" level" if not flip else ""), {}
    if iid == "keywords:start_end":
        return (f"{word} " + " ".join(sents) + (f" {word}" if not flip else "")), {}
    if iid == "count:count_unique":
        words = rng.sample(WORDS, rng.randint(2, 8))
        return " ".join(words) + (f" {words[0]}" if flip else ""), {}
    return response(rng), _ifeval_kwargs(rng, iid, "", prompt) or {}


IFEVALG_IDS = ["copy:repeat_phrase", "copy:copy", "new:copy_span_idx",
               "detectable_format:sentence_hyphens", "keywords:no_adjacent_consecutive",
               "detectable_format:square_brackets", "keywords:word_once",
               "keywords:word_count_different_numbers", "keywords:exclude_word_harder",
               "paragraphs:paragraphs", "paragraphs:paragraphs2", "first_word:first_word_sent",
               "first_word:first_word_answer", "last_word:last_word_sent",
               "last_word:last_word_answer", "detectable_format:bigram_wrapping",
               "copy:copying_simple", "copy:copying_multiple", "punctuation:punctuation_dot",
               "punctuation:punctuation_exclamation", "count:lowercase_counting",
               "letters:letter_counting", "letters:letter_counting2",
               "count:counting_composition", "count:count_unique", "count:count_increment_word",
               "keywords:palindrome", "keywords:keyword_specific_position", "keywords:start_end"]


def _rlvr_args(rng: random.Random, name: str, text: str, prompt: str) -> dict[str, Any]:
    lower = text.lower()
    quant = rng.choice(["at least", "at most", "around"])
    word = rng.choice(KEYWORDS)
    table: dict[str, Callable[[], dict[str, Any]]] = {
        "verify_keywords": lambda: {"keyword_list": rng.sample(KEYWORDS, 2)},
        "verify_keyword_frequency": lambda: {"word": word, "N": near(rng, lower.split().count(word))},
        "validate_forbidden_words": lambda: {"forbidden_words": rng.sample(KEYWORDS, 2)},
        "verify_letter_frequency": lambda: {"letter": "a", "N": near(rng, text.count("a"))},
        "validate_response_language": lambda: {"language": rng.choice(["en", "fr", "es"])},
        "verify_paragraph_count": lambda: {"N": max(1, near(rng, text.count("* * *") + 1))},
        "validate_word_constraint": lambda: {"N": max(1, near(rng, len(text.split()))), "quantifier": quant},
        "verify_sentence_constraint": lambda: {"N": max(1, near(rng, count_sentences(text))), "quantifier": quant},
        "validate_paragraphs": lambda: {"N": max(1, near(rng, text.count("\n\n") + 1)),
                                        "first_word": text.split()[0] if text.split() else "x", "i": 1},
        "verify_postscript": lambda: {"postscript_marker": rng.choice(["P.S.", "P.P.S"])},
        "validate_placeholders": lambda: {"N": max(1, near(rng, count_placeholders(text)))},
        "verify_bullet_points": lambda: {"N": near(rng, count_bullets(text))},
        "validate_choice": lambda: {"options": ["My answer is yes.", "My answer is no."]},
        "validate_highlighted_sections": lambda: {"N": max(1, near(rng, text.count("*") // 2))},
        "validate_sections": lambda: {"N": max(1, near(rng, text.count("SECTION") + 1)),
                                      "section_splitter": "SECTION"},
        "validate_repeat_prompt": lambda: {"original_prompt": rng.choice([prompt, text[:20] or "x"])},
        "validate_frequency_capital_words": lambda: {
            "N": max(1, near(rng, len(re.findall(r"\b[A-Z]+\b", text)))), "quantifier": quant},
        "validate_end": lambda: {"end_phrase": "Any other questions?"},
    }
    return table[name]() if name in table else {}


def _ifbench_case(rng: random.Random, iid: str, prompt: str) -> tuple[str, dict[str, Any]]:
    """A response for one IFBench type, right or just wrong, and its arguments."""
    flip = rng.random() < 0.4
    text = " ".join(sentence(rng, 0.1) for _ in range(rng.randint(1, 5)))
    words = text.split()
    if iid == "count:word_count_range":
        n = count_words(text)
        low = max(0, n + rng.choice([-2, -1, 0, 1]))
        return text, {"min_words": low, "max_words": low + rng.choice([0, 1, 3])}
    if iid == "count:unique_word_count":
        unique = len({w.lower().strip(".,!?;:'\"()") for w in words})
        return text, {"N": max(1, near(rng, unique))}
    if iid == "count:numbers":
        text += " " + " ".join(str(rng.randint(0, 999)) for _ in range(rng.randint(0, 4)))
        return text, {"N": max(1, near(rng, len(re.findall(r"\d+", text.replace(".", "").replace(",", "")))))}
    if iid == "format:parentheses":
        depth = rng.randint(3, 6)
        return ("(" * depth + "x" + ")" * depth) if not flip else "([{(" + "x" + ")}]" + ")", {}
    if iid == "words:prime_lengths":
        pool = ["at", "cat", "hello", "seventh", "a", "tree", "xy"]
        return " ".join(rng.choice(pool) for _ in range(rng.randint(1, 6))), {}
    if iid == "format:newline":
        return "\n".join(words[:6]) + (" extra" if flip else ""), {}
    if iid == "words:repeats":
        top = max([text.lower().split().count(w) for w in text.lower().split()] or [1])
        return text, {"small_n": max(1, near(rng, top))}
    if iid == "sentence:keyword":
        sentences = split_sentences(text)
        n = rng.randint(1, len(sentences) + 1)
        word = rng.choice(sentences[min(n, len(sentences)) - 1].split()).strip(".,!?") or "x"
        return text, {"word": word if not flip else rng.choice(KEYWORDS), "N": n}
    if iid == "words:no_consecutive":
        return " ".join(rng.sample(WORDS, rng.randint(2, 7))), {}
    if iid == "count:keywords_multiple":
        keys = rng.sample(KEYWORDS, 5)
        counts = [1, 2, 3, 5, 7]
        if flip:
            counts[rng.randrange(5)] += rng.choice([-1, 1])
        body = " ".join(k for k, c in zip(keys, counts) for _ in range(c))
        return body, dict(zip(["keyword1", "keyword2", "keyword3", "keyword4", "keyword5"], keys))
    if iid == "repeat:repeat_span":
        a, b = rng.randint(0, 10), rng.randint(12, 30)
        return prompt[a:b + (1 if not flip else 2)], {"prompt_to_repeat": prompt, "n_start": a, "n_end": b}
    if iid == "format:title_case":
        titled = " ".join(w.capitalize() for w in words)
        return (titled if not flip else titled + " and more"), {}
    if iid == "format:no_whitespace":
        return ("".join(words) if not flip else text), {}
    options = rng.choice(["yes/no/maybe", "I know or I don't know", "a), b), c), d)"])
    answer = rng.choice(["yes", "No.", "maybe!", "I know", "i don't know", "a)", "b)", "e)", "perhaps"])
    return answer, {"options": options}


IFBENCH_IDS = ["count:word_count_range", "count:unique_word_count", "count:numbers",
               "format:parentheses", "words:prime_lengths", "format:newline", "words:repeats",
               "sentence:keyword", "words:no_consecutive", "count:keywords_multiple",
               "repeat:repeat_span", "format:title_case", "format:no_whitespace",
               "format:options"]


RLVR_NAMES = ["verify_keywords", "verify_keyword_frequency", "validate_forbidden_words",
              "verify_letter_frequency", "validate_response_language", "verify_paragraph_count",
              "validate_word_constraint", "verify_sentence_constraint", "validate_paragraphs",
              "verify_postscript", "validate_placeholders", "verify_bullet_points",
              "validate_title", "validate_choice", "validate_highlighted_sections",
              "validate_sections", "validate_json_format", "validate_repeat_prompt",
              "validate_two_responses", "validate_uppercase", "validate_lowercase",
              "validate_frequency_capital_words", "validate_end", "validate_quotation",
              "validate_no_commas"]


def cases(n: int, *, seed: int = 0,
          families: tuple[str, ...] = ("ifeval", "ifevalg", "ifbench", "rlvr")
          ) -> Iterator[Case]:
    """`n` cases per family, every type in turn (so each type gets n / types of them); IFBench
    gets `n` more for its 41 types of `_ifbench_corpus` and `n / 4` for its 2 types checked
    with the emoji and syllapy packages (each drawn from a generator of its own, so that the
    other rows stay those of earlier runs)."""
    rng = random.Random(seed)
    more = random.Random(seed + 1_000_003)
    more_ids = sorted(IFBENCH_MORE)
    packaged = random.Random(seed + 2_000_003)
    packaged_ids = sorted(IFBENCH_PACKAGED)
    prompt = Case("x", [], [], "").prompt
    for i in range(n):
        if "ifeval" in families:
            text = response(rng)
            ids = [IFEVAL_IDS[i % len(IFEVAL_IDS)]] + rng.sample(IFEVAL_IDS, rng.randint(0, 2))
            ids = list(dict.fromkeys(ids))
            yield Case("ifeval", ids, [_ifeval_kwargs(rng, x, text, prompt) or {} for x in ids], text)
        if "ifevalg" in families:
            iid = IFEVALG_IDS[i % len(IFEVALG_IDS)]
            text, kwargs = _shaped(rng, iid, prompt)
            if iid in ("keywords:word_count_different_numbers", "letters:letter_counting2"):
                text = response(rng)
                kwargs = _ifeval_kwargs(rng, iid, text, prompt) or {}
            elif iid in ("keywords:no_adjacent_consecutive", "punctuation:punctuation_dot",
                         "punctuation:punctuation_exclamation"):
                text = rng.choice([response(rng), " ".join(rng.sample(WORDS, 5))])
            yield Case("ifevalg", [iid], [kwargs], text)
        if "ifbench" in families:
            iid = IFBENCH_IDS[i % len(IFBENCH_IDS)]
            text, kwargs = _ifbench_case(rng, iid, prompt)
            yield Case("ifbench", [iid], [kwargs], text)
            iid = more_ids[i % len(more_ids)]
            text, kwargs = IFBENCH_MORE[iid](more, prompt, more.random() < 0.4)
            yield Case("ifbench", [iid], [kwargs], text)
            if i % 4 == 0:
                iid = packaged_ids[i // 4 % len(packaged_ids)]
                text, kwargs = IFBENCH_PACKAGED[iid](packaged, prompt, packaged.random() < 0.4)
                yield Case("ifbench", [iid], [kwargs], text)
        if "rlvr" in families:
            name = RLVR_NAMES[i % len(RLVR_NAMES)]
            text = response(rng)
            yield Case("rlvr", [name], [_rlvr_args(rng, name, text, prompt)], text)
