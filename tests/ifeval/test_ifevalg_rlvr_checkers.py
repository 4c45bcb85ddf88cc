"""IFEvalG's 29 types (open-instruct) and RLVR-IFeval's 25 functions: hand-labeled table
cases with near misses (one over and one under each count, each keyword case)."""

from __future__ import annotations

import pytest

from rewards.ifeval import FAMILIES, BadConstraint, build_instruction, follows

P = "Write about the rain."

IFEVALG = [
    ("copy:repeat_phrase", {"phrase": "the big dog barks", "small_n": 2},
     "the red dog barks and the old dog barks", True),
    ("copy:repeat_phrase", {"phrase": "the big dog barks", "small_n": 2},
     "the big dog barks and the old dog barks", False),  # one unchanged
    ("copy:repeat_phrase", {"phrase": "the big dog barks", "small_n": 3},
     "the red dog barks and the old dog barks", False),
    ("copy:copy", {"prompt_to_repeat": P}, "  write ABOUT the rain. ", True),
    ("copy:copy", {"prompt_to_repeat": P}, "Write about the rain. Sure!", False),
    ("new:copy_span_idx", {"prompt_to_repeat": P, "n_start": 6, "n_end": 11}, "about", True),
    ("new:copy_span_idx", {"prompt_to_repeat": P, "n_start": 6, "n_end": 12}, "about", True),  # strip
    ("new:copy_span_idx", {"prompt_to_repeat": P, "n_start": 6, "n_end": 10}, "about", False),
    ("new:copy_span_idx", {"prompt_to_repeat": P, "n_start": 0, "n_end": 5}, "Write", True),
    ("detectable_format:sentence_hyphens", {}, "One here.-Two here.", True),
    ("detectable_format:sentence_hyphens", {}, "One here. - Two here.", False),
    ("keywords:no_adjacent_consecutive", {}, "cat egg ant", True),
    ("keywords:no_adjacent_consecutive", {}, "ant bee", False),
    ("detectable_format:square_brackets", {}, "[a] [b]", True),
    ("detectable_format:square_brackets", {}, "[a] b", False),
    ("keywords:word_once", {"keyword": "rain"}, "The RAIN.", True),
    ("keywords:word_once", {"keyword": "rain"}, "Rain, rain.", False),
    ("keywords:word_once", {"keyword": "rain"}, "Sun.", False),
    ("keywords:word_count_different_numbers", {"keyword": "a", "frequency": 2, "relation": "at least"},
     "a a", True),
    ("keywords:word_count_different_numbers", {"keyword": "b", "frequency": 2, "relation": "at least"},
     "b", False),
    ("keywords:exclude_word_harder", {"keyword": "rain"}, "rain falls. No rain.", True),
    ("keywords:exclude_word_harder", {"keyword": "rain"}, "the rain falls", False),
    ("paragraphs:paragraphs", {}, "One.\n***\nTwo.", True),
    ("paragraphs:paragraphs", {}, "One.\n***\nTwo.\n***\nThree.", False),
    ("paragraphs:paragraphs2", {}, "One.\n\nTwo.", True),
    ("paragraphs:paragraphs2", {}, "One.\n\n\n\nTwo.", False),  # a blank middle piece
    ("first_word:first_word_sent", {"first_word": "So"}, "So it goes. so it ends.", True),
    ("first_word:first_word_sent", {"first_word": ["So"]}, "So it goes. It ends.", False),
    ("first_word:first_word_answer", {"first_word": "well"}, "Well, yes.", False),  # "Well,"
    ("first_word:first_word_answer", {"first_word": "well"}, "  WELL yes.", True),
    ("last_word:last_word_sent", {"last_word": "now"}, "Go now. Stop NOW!", True),
    ("last_word:last_word_sent", {"last_word": "now"}, "Go now. Stop it.", False),
    ("last_word:last_word_answer", {"last_word": "end"}, "This is the end!", True),
    ("last_word:last_word_answer", {"last_word": "end"}, "The end is near.", False),
    ("detectable_format:bigram_wrapping", {}, "<<I am>> <<at home>>", True),
    ("detectable_format:bigram_wrapping", {}, "<<I am>> at home", False),
    ("copy:copying_simple", {"prompt_to_repeat": P}, P, True),
    ("copy:copying_simple", {"prompt_to_repeat": P}, P + "!", False),
    ("copy:copying_multiple", {"prompt_to_repeat": P, "N": 2}, f"{P}\n******\n{P}", True),
    ("copy:copying_multiple", {"prompt_to_repeat": P, "N": 3}, f"{P}\n******\n{P}", False),
    ("punctuation:punctuation_dot", {}, "No dots here", True),
    ("punctuation:punctuation_dot", {}, "One dot.", False),
    ("punctuation:punctuation_exclamation", {}, "Calm.", True),
    ("punctuation:punctuation_exclamation", {}, "Wow!", False),
    ("count:lowercase_counting", {"N": 2}, "The cat sat", True),
    ("count:lowercase_counting", {"N": 1}, "The cat sat", False),
    ("letters:letter_counting", {"N": 5, "relation": "at least"}, "ab cd e1", True),
    ("letters:letter_counting", {"N": 6, "relation": "at least"}, "ab cd e1", False),
    ("letters:letter_counting", {"N": 5, "relation": "less than"}, "ab cd e1", False),
    ("letters:letter_counting2", {"letter": "e", "let_frequency": 2, "let_relation": "at least"}, "EeX", True),
    ("letters:letter_counting2", {"letter": "e", "let_frequency": 3, "let_relation": "at least"}, "EeX", False),
    ("count:counting_composition", {"n_sent": 1, "n_words": 3},
     "Cats sit. *** Dogs run. *** Birds fly.", True),
    ("count:counting_composition", {"n_sent": 1, "n_words": 3},
     "Cats sit. *** Dogs run fast. *** Birds fly.", False),
    ("count:count_unique", {}, "one two three", True),
    ("count:count_unique", {}, "one two one", False),
    ("count:count_increment_word", {"keyword1": "sun", "keyword2": "moon"}, "sun moon moon", True),
    ("count:count_increment_word", {"keyword1": "sun", "keyword2": "moon"}, "sun moon", False),
    ("keywords:palindrome", {}, "A racecar went by", True),
    ("keywords:palindrome", {}, "No such words here", False),
    ("keywords:keyword_specific_position", {"keyword": "blue", "n": 2, "m": 3},
     "Sky is grey. The sea blue is.", True),
    ("keywords:keyword_specific_position", {"keyword": "blue", "n": 2, "m": 2},
     "Sky is grey. The sea blue is.", False),
    ("keywords:start_end", {}, "Rain falls on the rain", True),
    ("keywords:start_end", {}, "Rain falls on the rain.", False),  # "." is the last token
]

RLVR = [
    ("verify_keywords", {"keyword_list": ["Rain", "sun"]}, "rain and SUNshine", True),
    ("verify_keywords", {"keyword_list": ["rain", "moon"]}, "rain and sun", False),
    ("verify_keyword_frequency", {"word": "rain", "N": 2}, "Rain, rain, rainy.", True),
    ("verify_keyword_frequency", {"word": "rain", "N": 3}, "Rain, rain, rainy.", False),
    ("validate_forbidden_words", {"forbidden_words": ["bad"]}, "good", True),
    ("validate_forbidden_words", {"forbidden_words": ["bad"]}, "a badge", False),  # substring
    ("verify_letter_frequency", {"letter": "a", "N": 2}, "aAa", True),  # case-sensitive
    ("verify_letter_frequency", {"letter": "a", "N": 3}, "aAa", False),
    ("validate_response_language", {"language": "en"},
     "This is plainly a sentence in English about the weather.", True),
    ("validate_response_language", {"language": "fr"},
     "This is plainly a sentence in English about the weather.", False),
    ("verify_paragraph_count", {"N": 2}, "One.\n * * * \nTwo.", True),
    ("verify_paragraph_count", {"N": 3}, "One.\n* * *\nTwo.", False),
    ("validate_word_constraint", {"N": 10, "quantifier": "around"}, " ".join(["w"] * 11), True),
    ("validate_word_constraint", {"N": 10, "quantifier": "around"}, " ".join(["w"] * 12), False),
    ("validate_word_constraint", {"N": 3, "quantifier": "at most"}, "a b c d", False),
    ("verify_sentence_constraint", {"N": 2, "quantifier": "at least"}, "One. Two.", True),
    ("verify_sentence_constraint", {"N": 3, "quantifier": "at least"}, "One. Two.", False),
    ("validate_paragraphs", {"N": 2, "first_word": "Two", "i": 2}, "One.\n\nTwo here.", True),
    ("validate_paragraphs", {"N": 2, "first_word": "two", "i": 2}, "One.\n\nTwo here.", False),
    ("verify_postscript", {"postscript_marker": "P.S."}, "Hi.\nP.S. later", True),
    ("verify_postscript", {"postscript_marker": "P.S."}, "Hi.\nP.S.", False),
    ("validate_placeholders", {"N": 2}, "[a] [b]", True),
    ("validate_placeholders", {"N": 3}, "[a] [b]", False),
    ("verify_bullet_points", {"N": 2}, "* a\n - b\nc", True),
    ("verify_bullet_points", {"N": 1}, "* a\n - b\nc", False),
    ("validate_title", {}, "<<>> text", True),  # an empty title counts here
    ("validate_title", {}, "<<text", False),
    ("validate_choice", {"options": ["yes", "no"]}, "I say no", True),
    ("validate_choice", {"options": ["yes", "no"]}, "I say maybe", False),
    ("validate_highlighted_sections", {"N": 2}, "*a* *b*", True),
    ("validate_highlighted_sections", {"N": 2}, "*a*\n*", False),
    ("validate_sections", {"N": 2, "section_splitter": "SECTION"}, "SECTION 1 a SECTION 2 b", True),
    ("validate_sections", {"N": 3, "section_splitter": "SECTION"}, "SECTION 1 a SECTION 2 b", False),
    ("validate_json_format", {}, "{\"a\": 1}", True),
    ("validate_json_format", {}, "```json\n{\"a\": 1}\n```", False),  # no fence here
    ("validate_repeat_prompt", {"original_prompt": "Say hi."}, "Say hi. Hi!", True),
    ("validate_repeat_prompt", {"original_prompt": "Say hi."}, "say hi. Hi!", False),
    ("validate_two_responses", {}, "A ****** B", True),
    ("validate_two_responses", {}, "A ****** A", False),
    ("validate_uppercase", {}, "ALL CAPS 1", True),
    ("validate_uppercase", {}, "ALL CAPs", False),
    ("validate_lowercase", {}, "all lower 1", True),
    ("validate_lowercase", {}, "all Lower", False),
    ("validate_frequency_capital_words", {"N": 2, "quantifier": "at least"}, "NASA and ESA", True),
    ("validate_frequency_capital_words", {"N": 3, "quantifier": "at least"}, "NASA and ESA", False),
    ("validate_end", {"end_phrase": "Bye."}, "Ok. Bye.", True),
    ("validate_end", {"end_phrase": "Bye."}, "Ok. Bye. ", False),
    ("validate_quotation", {}, '"q"', True),
    ("validate_quotation", {}, '"q" ', False),
    ("validate_no_commas", {}, "none", True),
    ("validate_no_commas", {}, "a, b", False),
]


@pytest.mark.parametrize(("iid", "kwargs", "response", "expected"), IFEVALG,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(IFEVALG)])
def test_ifevalg_checker(iid: str, kwargs: dict, response: str, expected: bool) -> None:
    assert follows(build_instruction(iid, kwargs), response) is expected


@pytest.mark.parametrize(("name", "kwargs", "response", "expected"), RLVR,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(RLVR)])
def test_rlvr_function(name: str, kwargs: dict, response: str, expected: bool) -> None:
    assert follows(build_instruction(name, kwargs, function=True), response) is expected


@pytest.mark.parametrize(("family", "table"), [("ifevalg", IFEVALG), ("rlvr", RLVR)])
def test_every_type_has_a_passing_and_a_failing_case(family: str, table: list) -> None:
    for iid in FAMILIES[family]:
        assert {expected for i, _, _, expected in table if i == iid} == {True, False}, iid


@pytest.mark.parametrize(("name", "kwargs", "function"), [
    ("verify_letter_frequency", {"letter": "ab", "N": 1}, True),   # the reference raises
    ("validate_paragraphs", {"N": 2, "first_word": "x", "i": 3}, True),
    ("validate_word_constraint", {"N": 2, "quantifier": "roughly"}, True),
    ("new:copy_span_idx", {"prompt_to_repeat": P, "n_start": 5, "n_end": 5}, False),
    ("copy:copy", {"prompt_to_repeat": "  "}, False),
    ("keywords:keyword_specific_position", {"keyword": "x", "n": 0, "m": 1}, False),  # 0: random
    ("copy:copying_multiple", {"prompt_to_repeat": P, "N": 0}, False),
])
def test_undecidable_arguments_are_bad_constraints(name: str, kwargs: dict, function: bool) -> None:
    with pytest.raises(BadConstraint):
        build_instruction(name, kwargs, function=function)
