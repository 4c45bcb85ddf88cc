"""The 14 IFBench constraints decided exactly: hand-labeled near misses (checked against
allenai/IFBench's checkers when written); the others abstain."""

from __future__ import annotations

import pytest

from rewards.ifeval import FAMILIES, BadConstraint, build_instruction, follows

P = "Write about the rain."
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
]


@pytest.mark.parametrize(("iid", "kwargs", "response", "expected"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_ifbench_checker(iid: str, kwargs: dict, response: str, expected: bool) -> None:
    assert follows(build_instruction(iid, kwargs), response) is expected


def test_every_type_has_a_passing_and_a_failing_case() -> None:
    for iid in FAMILIES["ifbench"]:
        assert {e for i, _, _, e in CASES if i == iid} == {True, False}, iid


@pytest.mark.parametrize("iid", ["ratio:stop_words", "words:start_verb", "format:thesis",
                                 "words:odd_even_syllables"])
def test_constraints_needing_data_or_judgment_abstain(iid: str) -> None:
    with pytest.raises(BadConstraint, match="unknown instruction id"):
        build_instruction(iid, {})
