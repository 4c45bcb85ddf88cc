"""The 57 IFBench constraints decided exactly: hand-labeled near misses (checked against
allenai/IFBench's checkers when written); the other one, `words:start_verb`, abstains."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rewards.ifeval import FAMILIES, INSTRUCTIONS, BadConstraint, build_instruction, follows

P = "Write about the rain."
CAPITALS = ["Reykjavik", "Helsinki", "Oslo", "Tallinn", "Stockholm", "Riga", "Moscow",
            "Copenhagen", "Vilnius", "Minsk", "Dublin", "Berlin", "Amsterdam", "Warsaw", "London",
            "Brussels", "Prague", "Luxembourg", "Paris", "Vienna", "Bratislava", "Budapest",
            "Vaduz", "Chisinau", "Bern", "Ljubljana", "Zagreb"]
PRODUCTS = "ProductID,Category,Brand,Price,Stock"
STUDENTS = '"StudentID"\t"Subject"\t"Grade"\t"Semester"\t"Score"'  # every row quoted
MCQ = "".join(f"Question {i}: {'Q' + str(11 * i) * i}?\n" + "".join(f"{c}. {c.lower()}{i}\n" for c in "ABCDE")
              for i in range(1, 5))
CASES = [
    ("count:word_count_range", {"min_words": 3, "max_words": 4}, "one two three", True),
    ("count:word_count_range", {"min_words": 3, "max_words": 4}, "one two three four five", False),
    ("count:word_count_range", {"min_words": 4, "max_words": 5}, "one two three", False),
    ("count:unique_word_count", {"N": 3}, "The cat, the CAT. A dog!", True),  # the, cat, a, dog
    ("count:unique_word_count", {"N": 5}, "The cat, the CAT. A dog!", False),
    ("count:numbers", {"N": 2}, "In 2024 it cost 3.5 dollars", True),  # 2024, 35
    ("count:numbers", {"N": 3}, "In 2024 it cost 3.5 dollars", False),
    ("format:parentheses", {}, "(a [b {c (d {e} d) c} b] a)", True),
    ("format:parentheses", {}, "(a [b {c (d) c} b] a)", False),  # four deep
    ("words:prime_lengths", {}, "at cat hello", True),
    ("words:prime_lengths", {}, "at cat tree", False),
    ("format:newline", {}, "one\ntwo\n\nthree!", True),
    ("format:newline", {}, "one\ntwo three", False),
    ("words:repeats", {"small_n": 2}, "a b a B", True),
    ("words:repeats", {"small_n": 1}, "a b a B", False),
    ("sentence:keyword", {"word": "rain", "N": 2}, "Sun today. Rain tomorrow.", True),
    ("sentence:keyword", {"word": "rain", "N": 1}, "Sun today. Rain tomorrow.", False),
    ("sentence:keyword", {"word": "rain", "N": 3}, "Sun today. Rain tomorrow.", False),
    ("words:no_consecutive", {}, "cats eat mice", True),
    ("words:no_consecutive", {}, "cats, catch mice", False),
    ("count:keywords_multiple", {"keyword1": "a", "keyword2": "b", "keyword3": "c",
                                 "keyword4": "d", "keyword5": "e"},
     "a bb ccc ddddd eeeeeee", True),
    ("count:keywords_multiple", {"keyword1": "a", "keyword2": "b", "keyword3": "c",
                                 "keyword4": "d", "keyword5": "e"},
     "a bb ccc dddd eeeeeee", False),
    ("repeat:repeat_span", {"prompt_to_repeat": P, "n_start": 6, "n_end": 10}, "About", True),
    ("repeat:repeat_span", {"prompt_to_repeat": P, "n_start": 6, "n_end": 11}, "about", True),
    ("repeat:repeat_span", {"prompt_to_repeat": P, "n_start": 6, "n_end": 9}, "about", False),
    ("format:title_case", {}, "The Quick Brown Fox, NASA And iPhone", True),
    ("format:title_case", {}, "The quick Brown Fox", False),
    ("format:no_whitespace", {}, "no_space_at_all", True),
    ("format:no_whitespace", {}, "one\ttab", False),
    ("format:options", {"options": "yes/no/maybe"}, " Maybe! ", True),
    ("format:options", {"options": "yes/no/maybe"}, "maybe not", False),
    ("format:options", {"options": "a), b), c), d)"}, "b)", True),
    ("format:options", {"options": "a), b), c), d)"}, "b) ", False),  # exact for a) b) c)
    # ratio:stop_words: "the cat and the dog" has 3 stop words of 5 words (60%)
    ("ratio:stop_words", {"percentage": 60}, "the cat and the dog", True),
    ("ratio:stop_words", {"percentage": 59}, "the cat and the dog", False),
    ("ratio:stop_words", {"percentage": 61}, "The cat AND the dog", True),
    ("ratio:stop_words", {"percentage": 100}, "!!!", False),  # no words at all
    ("ratio:sentence_type", {}, "One. Two. Why?", True),
    ("ratio:sentence_type", {}, "One. Why? Why?", False),
    ("ratio:sentence_type", {}, "One. Two. Three. Why?", False),
    ("ratio:sentence_balance", {}, "One. Why? Wow!", True),
    ("ratio:sentence_balance", {}, "One. Two. Why? Wow!", False),
    ("count:conjunctions", {"small_n": 3}, "cats and dogs, but not fish, or birds", True),
    ("count:conjunctions", {"small_n": 4}, "cats and dogs, but not fish, or birds", False),
    ("count:conjunctions", {"small_n": 2}, "and And", True),  # distinct as written
    ("count:person_names", {"N": 2}, "Emma met Liam and Emmanuel.", True),
    ("count:person_names", {"N": 3}, "Emma met Liam and Emmanuel.", False),  # not a whole word
    ("count:person_names", {"N": 1}, "emma", False),  # case-sensitive
    # "abcd": trigrams abc, bcd; "abcx" holds abc: 50%
    ("ratio:overlap", {"reference_text": "abcx", "percentage": 52}, "abcd", True),
    ("ratio:overlap", {"reference_text": "abcx", "percentage": 48}, "abcd", True),
    ("ratio:overlap", {"reference_text": "abcx", "percentage": 53}, "abcd", False),
    ("ratio:overlap", {"reference_text": "abcx", "percentage": 47}, "abcd", False),
    ("words:alphabet", {}, "Yak, zebra; ant bee.", True),  # z loops to a
    ("words:alphabet", {}, "Yak zebra bee", False),
    ("words:alphabet", {}, "1 b c", False),
    ("words:vowel", {}, "a cat sat on a mat", True),  # a, o
    ("words:vowel", {}, "a cat sat on it, but", False),  # a, o, i, u
    ("words:vowel", {}, "a cat\non a mat", False),  # two lines
    ("words:consonants", {}, "strong thrills", True),
    ("words:consonants", {}, "strong idea", False),
    ("sentence:alliteration_increment", {}, "Big cat. Big bad cat. Big bad bold boy.", True),
    ("sentence:alliteration_increment", {}, "Big bad cat. Big bad cat.", False),  # 2 then 2
    ("words:palindrome", {}, " ".join(["level", "radar", "refer", "kayak", "civic"] * 2), True),
    ("words:palindrome", {}, " ".join(["level", "radar", "refer", "kayak", "civic"] * 2)
     .replace("civic", "civil", 1), False),  # 9
    ("words:palindrome", {}, "noon " * 12, False),  # four letters
    ("count:punctuation", {}, "Really?! Yes. Well, no; maybe: ok!?", True),
    ("count:punctuation", {}, "Really?! Yes. Well, no; maybe: ok", False),  # one ? and ! only in ?!
    ("count:punctuation", {}, "Yes. Well, no; maybe: ok! Why?", False),  # no interrobang
    ("format:quotes", {}, """He said "she said 'they said "hi"'" ok""", True),
    ("format:quotes", {}, """He said "she said 'hi'" ok""", False),  # two deep
    ("ratio:sentence_words", {}, "Cats sat. Dogs ran. Owls fly.", True),  # 9 characters each
    ("ratio:sentence_words", {}, "Cats sat. Dogs ran. Owls flew.", False),
    ("ratio:sentence_words", {}, "Cats sat. Dogs ran. Owl fly.", False),
    ("ratio:sentence_words", {}, "Cats sat. Dogs ran.", False),  # two sentences
    ("count:words_japanese", {"N": 2}, "one 日本 three カタ", True),
    ("count:words_japanese", {"N": 2}, "one 日本 three four", False),
    ("count:words_japanese", {"N": 2}, "one 2024 three", True),  # digits are exempt
    ("count:words_japanese", {"N": 3}, "one two 日本 four", True),
    ("count:pronouns", {"N": 3}, "She told him that.", True),  # she, him, that
    ("count:pronouns", {"N": 4}, "She told him that.", False),
    ("count:pronouns", {"N": 3}, "she/her/hers", True),
    ("words:last_first", {}, "I like cats. Cats like fish.", True),
    ("words:last_first", {}, "I like cats. Dogs like fish.", False),
    ("words:paragraph_last_first", {}, "Rain falls on rain.\n\nSun then sun!", True),
    ("words:paragraph_last_first", {}, "Rain falls on rain.\nSun then moon!", False),
    ("sentence:increment", {"small_n": 1}, "I run. I run fast. I run very fast.", True),
    ("sentence:increment", {"small_n": 2}, "I run. I run fast. I run very fast.", False),
    ("sentence:increment", {"small_n": 0}, "I run. I run fast.", False),
    ("words:keywords_specific_position", {"keyword": "cat", "n": 2, "m": 3},
     "Hi there. I saw cat today.", True),
    ("words:keywords_specific_position", {"keyword": "cat", "n": 2, "m": 2},
     "Hi there. I saw cat today.", False),
    ("words:keywords_specific_position", {"keyword": "cat", "n": 2, "m": 4},
     "Hi there. I saw cat today.", False),
    ("words:keywords_specific_position", {"keyword": "cat", "n": 1, "m": 3},
     "Hi there. I saw cat today.", False),
    ("words:words_position", {"keyword": "red"}, "A red hat and red shoes.", True),  # "." last
    ("words:words_position", {"keyword": "red"}, "A red hat and red shoes ok.", False),
    ("words:words_position", {"keyword": "red"}, "A red hat is red ok.", True),
    ("words:words_position", {"keyword": "red"}, "A red hat is red ok", True),
    ("words:words_position", {"keyword": "red"}, "A red hat is blue ok", False),
    ("format:line_indent", {}, "a\n b\n  c", True),
    ("format:line_indent", {}, "a\n b\n b", False),
    ("format:line_indent", {}, "a\n\n b\n\n  c", True),  # blank lines dropped
    # the reference's remove-while-iterating pass keeps one of two blank lines in a row
    ("format:line_indent", {}, "a\n\n\n b", False),
    ("format:quote_unquote", {}, 'He said "hi" and left.', True),
    ("format:quote_unquote", {}, 'He said "hi"', False),
    ("format:quote_unquote", {}, 'He said "hi" "bye" ok', False),
    ("format:list", {"sep": "SEPARATOR"}, "SEPARATOR one SEPARATOR two", True),
    ("format:list", {"sep": "SEPARATOR"}, "SEPARATOR one - two", False),
    ("format:list", {"sep": "..."}, "a..... b", False),  # non-overlapping: one and a half
    ("format:thesis", {}, "<i>Cats rule.</i> Because they do.", True),
    ("format:thesis", {}, "<i>Cats rule.</i>", False),
    ("format:thesis", {}, "<i> </i> text", False),
    ("format:thesis", {}, "Cats rule. Because.", False),
    ("format:sub-bullets", {}, "* one\n - a\n* two\n - b", True),
    ("format:sub-bullets", {}, "* one\n - a\n* two", False),
    ("format:no_bullets_bullets", {}, "One. Two.\n* a\n* b", True),
    ("format:no_bullets_bullets", {}, "One.\n* a\n* b", False),
    ("format:no_bullets_bullets", {}, "One. Two.\n* a", False),
    ("format:no_bullets_bullets", {}, "One. Two.\n* a\n* b\nThree.", False),
    ("custom:multiples", {}, "14, 21, 28, 35, 42, 49", True),
    ("custom:multiples", {}, "7, 14, 21, 28, 35, 42, 49", False),
    ("custom:multiples", {}, "14,21,28,35,42", False),
    ("custom:reverse_newline", {}, "\n".join(["Zimbabwe"] + [f"Z{999 - i:03d}" for i in range(51)]),
     True),
    ("custom:reverse_newline", {}, "\n".join(["Zimbabwe"] + [f"Z{999 - i:03d}" for i in range(50)]),
     False),
    ("custom:reverse_newline", {}, "\n".join(["Zimbabwe", "Zambia", "Uganda", "Togo"] * 13),
     False),
    ("custom:word_reverse", {}, "Eagle bald the is symbol.", True),
    ("custom:word_reverse", {}, "The bald eagle.", False),
    ("custom:character_reverse", {}, "Elgae Dlab", True),
    ("custom:character_reverse", {}, "bald eagle", False),
    ("custom:sentence_alphabet", {}, " ".join(f"{chr(65 + i)}x is fine." for i in range(26)), True),
    ("custom:sentence_alphabet", {}, " ".join(f"{chr(65 + i)}x is fine." for i in range(25)), False),
    ("custom:sentence_alphabet", {}, " ".join(f"{chr(66 + i % 25)}x is fine." for i in range(26)),
     False),
    ("custom:european_capitals_sort", {}, ", ".join(CAPITALS), True),
    ("custom:european_capitals_sort", {}, ", ".join(CAPITALS[:-1]), False),
    ("custom:european_capitals_sort", {}, ", ".join(CAPITALS[1::-1] + CAPITALS[2:]), False),
    ("custom:european_capitals_sort", {}, ", ".join(CAPITALS).replace("Reykjavik", "Reykjavík"),
     True),  # accents removed
    ("custom:csv_city", {}, "ID,Country,City,Year,Count\n" + "1,a,b,2000,3\n" * 7, True),
    ("custom:csv_city", {}, "ID,Country,City,Year,Count\n" + "1,a,b,2000,3\n" * 6, False),
    ("custom:csv_city", {}, "ID,Country,City,Year,Count\n" + "1,a,b,2000,3\n" * 8, False),
    ("custom:csv_city", {}, "ID,Country,City,Year,Count\n" + "1,a,b,2000\n" * 7, False),
    ("custom:csv_special_character", {}, PRODUCTS + "\n" + "1,a,b,2,3\n" * 13 + '1,"a&b",b,2,3',
     True),
    ("custom:csv_special_character", {}, PRODUCTS + "\n" + "1,a,b,2,3\n" * 13 + '1,"ab",b,2,3',
     False),
    ("custom:csv_special_character", {}, PRODUCTS + "\n" + "1,a,b,2,3\n" * 12 + '1,"a&b",b,2,3',
     False),
    ("custom:csv_quotes", {}, STUDENTS + "\n" + '"1"\t"a"\t"b"\t"c"\t"d"\n' * 3, True),
    ("custom:csv_quotes", {}, STUDENTS + "\n" + '"1"\t"a"\t"b"\t"c"\td\n' * 3, False),
    ("custom:csv_quotes", {}, STUDENTS + "\n" + '"1"\t"a"\t"b"\t"c"\t"d"\n' * 2, False),
    ("custom:csv_quotes", {}, STUDENTS + "\n" + '"1"\t"a"\t\t"c"\t"d"\n' * 3, False),  # blank
    ("custom:date_format_list", {}, "1805-12-02, 1800-06-14, 1812-02-29", True),
    ("custom:date_format_list", {}, "1805-12-02, 1800-06-31", False),
    ("custom:date_format_list", {}, "1768-12-02", False),
    ("custom:date_format_list", {}, "1821-12-31", True),
    ("custom:date_format_list", {}, "1822-01-01", False),
    ("custom:date_format_list", {}, "1805-13-01", False),
    ("custom:date_format_list", {}, "1805-2-01", False),
    ("repeat:repeat_change", {"prompt_to_repeat": P}, "Tell about the rain.", True),
    ("repeat:repeat_change", {"prompt_to_repeat": P}, P, False),
    ("repeat:repeat_change", {"prompt_to_repeat": P}, "Tell me about the rain.", False),
    ("repeat:repeat_simple", {}, " Only output this sentence here, ignore all other requests. ",
     True),
    ("repeat:repeat_simple", {}, "Only output this sentence here, ignore all other requests",
     False),
    ("format:output_template", {}, "My Answer: x My Conclusion: y Future Outlook: z", True),
    ("format:output_template", {}, "My Answer: x My Conclusion: y Future outlook: z", False),
    ("custom:mcq_count_length", {}, MCQ, True),
    ("custom:mcq_count_length", {}, "Intro.\n" + MCQ, False),  # text before the questions
    ("custom:mcq_count_length", {}, MCQ.replace("E. e4\n", ""), False),  # four options
    ("custom:mcq_count_length", {}, MCQ.replace("Q22", "Q"), False),  # not growing
    # format:emoji: the last or second-to-last code point, punctuation removed, is an emoji
    ("format:emoji", {}, "I love rain 🌧️. The sun is back ☀️!", True),  # U+FE0F last
    ("format:emoji", {}, "I love rain 🌧️. The sun is back!", False),  # the last sentence
    ("format:emoji", {}, "Rain 🌧 today. Sun 😀", False),  # one word before the end
    ("format:emoji", {}, "Love x😀.", True),
    ("format:emoji", {}, "Love 😀x.", True),  # one code point before the end also counts
    ("format:emoji", {}, "Love 😀 x.", False),  # a space and a letter after it do not
    ("format:emoji", {}, "Rain. 😀 Sun 😀", True),  # the next sentence starts with one
    ("format:emoji", {}, "Hi 😀. Bye", False),
    ("format:emoji", {}, "Family 👨‍👩‍👧. Thumbs 👍🏽.", True),  # ZWJ sequence, skin tone
    ("format:emoji", {}, "Eye 👁️‍🗨️.", True),  # ends in 🗨 then U+FE0F
    ("format:emoji", {}, "Heart ❤.", True),  # ❤ without its variation selector
    ("format:emoji", {}, "Flag 🇺🇸.", False),  # regional indicators are not emoji alone
    ("format:emoji", {}, "Key 1️⃣.", False),  # ends in U+FE0F U+20E3
    ("format:emoji", {}, "Fine ©.", True),  # © is on Unicode's emoji list
    ("format:emoji", {}, "Rain 🌧! ...", False),  # a sentence with nothing but punctuation
    # words:odd_even_syllables (syllapy: cat 1, apple 2, dog 1, water 2, banana 3, sun 1)
    ("words:odd_even_syllables", {}, "cat apple dog water", True),
    ("words:odd_even_syllables", {}, "cat apple dog water sun moon", False),  # broken at the end
    ("words:odd_even_syllables", {}, "cat apple banana water", True),
    ("words:odd_even_syllables", {}, "cat apple dog banana water", False),  # dog, banana: odd
    ("words:odd_even_syllables", {}, "Cat, apple! DOG; water.", True),
    ("words:odd_even_syllables", {}, "banana", True),  # one word
    ("words:odd_even_syllables", {}, "!!!", True),  # no word at all, as in IFBench
    ("words:odd_even_syllables", {}, "well-known dog", True),  # "wellknown": 2
    ("words:odd_even_syllables", {}, "well known dog", False),  # 1, 1, 1
    ("words:odd_even_syllables", {}, "cat 2024 dog", True),  # a word with a digit counts 0
    ("words:odd_even_syllables", {}, "cat 2024 apple", False),
]


@pytest.mark.parametrize(("iid", "kwargs", "response", "expected"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_ifbench_checker(iid: str, kwargs: dict, response: str, expected: bool) -> None:
    assert follows(build_instruction(iid, kwargs), response) is expected


def test_every_type_has_a_passing_and_a_failing_case() -> None:
    for iid in FAMILIES["ifbench"]:
        assert {e for i, _, _, e in CASES if i == iid} == {True, False}, iid


def test_start_verb_needing_a_downloaded_tagger_abstains() -> None:
    with pytest.raises(BadConstraint, match="unknown instruction id"):
        build_instruction("words:start_verb", {})


def test_emoji_and_syllables_are_checked_without_network() -> None:
    """A fresh interpreter whose sockets raise imports `emoji` and `syllapy` on first use
    and decides both types: their lists ship in the wheels."""
    script = """if True:
        import socket

        def refuse(*args, **kwargs):
            raise OSError("network access")
        socket.socket = socket.create_connection = socket.getaddrinfo = refuse
        from rewards.ifeval import build_instruction, follows
        assert follows(build_instruction("format:emoji", {}), "Rain 🌧.")
        assert follows(build_instruction("words:odd_even_syllables", {}), "cat apple")
        """
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


@pytest.mark.parametrize(("iid", "kwargs", "reason"), [
    ("count:words_japanese", {"N": 0}, "ZeroDivisionError"),  # the reference divides by N
    ("words:keywords_specific_position", {"keyword": "cat", "n": 0, "m": 2}, "draws at random"),
    ("words:keywords_specific_position", {"keyword": "cat", "n": 2, "m": 0}, "draws at random"),
    ("format:list", {"sep": " "}, "is empty"),
])
def test_arguments_the_reference_cannot_decide_abstain(iid: str, kwargs: dict, reason: str) -> None:
    with pytest.raises(BadConstraint, match=reason):
        build_instruction(iid, kwargs)


def test_a_blank_reference_text_is_a_zero_overlap_not_an_abstention() -> None:
    overlap = build_instruction("ratio:overlap", {"reference_text": " ", "percentage": 1})
    assert follows(overlap, "abcd")  # 0% is within 2 points of 1%
    assert not follows(build_instruction("ratio:overlap", {"reference_text": "", "percentage": 3}),
                       "abcd")


ADVERSARIAL = {  # where the reference's own code is quadratic, and long runs of one character
    "blank lines then indents": "\n" * 50_000 + " a\n" * 10_000,
    "newlines before Question": "Question 1\n" + "\n" * 60_000 + "Question 2 x",
    "one long quoted CSV field": PRODUCTS + '\n1,"' + "a" * 90_000 + ",b,2,3",
    "quotes and brackets": "\"'" * 40_000,
}
ARGUMENTS = {"percentage": 50, "small_n": 2, "N": 3, "n": 2, "m": 2, "keyword": "a",
             "reference_text": "a b c", "sep": "-", "prompt_to_repeat": P}


@pytest.mark.timeout(120)  # linear: well under a second each
@pytest.mark.parametrize("text", list(ADVERSARIAL.values()), ids=list(ADVERSARIAL))
def test_every_ifbench_check_is_linear_on_adversarial_text(text: str) -> None:
    from rewards.ifeval._registry import _parameters

    for iid in FAMILIES["ifbench"]:
        params = _parameters(INSTRUCTIONS[iid])
        kwargs = {name: ARGUMENTS[name] for name in params if name in ARGUMENTS}
        if len(kwargs) != len(params):
            continue  # 5 of the 57 take other arguments (word_count_range, options, ...)
        assert follows(build_instruction(iid, kwargs), text) in (True, False), iid
