"""Issue #34's instruction-following attacks: invisible characters buying constraints, loose
mode as a training reward, caches that grow with model output."""

from __future__ import annotations

import tracemalloc

import pytest

from rewards import Sample, build_reward, parse_config
from rewards.config import parse_yaml
from rewards.errors import ConfigError
from rewards.ifeval import IFEvalReward

FOUR = {"instruction_id_list": ["punctuation:no_comma", "keywords:forbidden_words",
                                "length_constraints:number_words", "language:response_language"],
        "kwargs": [{}, {"forbidden_words": ["password"]},
                   {"num_words": 50, "relation": "less than"}, {"language": "en"}]}


def _score(reference: object, text: str, **options: object):
    return IFEvalReward(**options).score([Sample("p", text, reference)])[0]


@pytest.mark.parametrize("invisible", ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u3164", "\u200e"])
def test_a_reply_of_invisible_characters_follows_nothing(invisible: str) -> None:
    assert (_score(FOUR, "").value, _score(FOUR, "").reason) == (0.0, "no_answer")
    score = _score(FOUR, invisible * 60)
    assert (score.value, score.reason) == (0.0, "no_answer")
    assert set(score.parts.values()) == {0.0}


@pytest.mark.parametrize("hidden", ["pass\u200bword", "pass\u00adword", "pass\u2060word",
                                    "\u202edrowssap\u202c", "pass\ufe0fword"])
@pytest.mark.parametrize("reference", [
    {"instruction_id_list": ["keywords:forbidden_words"], "kwargs": [{"forbidden_words": ["password"]}]},
    {"func_name": "validate_forbidden_words", "forbidden_words": ["password"]},
])
def test_a_hidden_character_does_not_pass_a_forbidden_word(hidden: str, reference: dict) -> None:
    assert _score(reference, "my secret is hunter2").value == 1.0
    assert _score(reference, f"my {hidden} is hunter2").value == 0.0


def test_a_decomposed_accent_does_not_pass_a_forbidden_word() -> None:
    reference = {"instruction_id_list": ["keywords:forbidden_words"],
                 "kwargs": [{"forbidden_words": ["caf\u00e9"]}]}
    assert _score(reference, "a small cafe\u0301 here").value == 0.0
    assert _score(reference, "a small cafe here").value == 1.0


def test_a_forbidden_word_written_with_a_hidden_character_still_forbids_the_word() -> None:
    reference = {"instruction_id_list": ["keywords:forbidden_words"],
                 "kwargs": [{"forbidden_words": ["pass\u200bword"]}]}
    assert _score(reference, "my password").value == 0.0


def test_joiners_inside_words_do_not_inflate_a_word_count() -> None:
    at_least = {"instruction_id_list": ["length_constraints:number_words"],
                "kwargs": [{"num_words": 10, "relation": "at least"}]}
    three = " ".join("\u200d".join(word) for word in ["cats", "are", "nice"])  # 11 \w runs
    assert _score(at_least, three).value == 0.0
    assert _score({"func_name": "validate_word_constraint", "N": 11, "quantifier": "at least"},
                  three).value == 0.0


def test_an_honest_persian_reply_meets_its_word_limit() -> None:
    persian = "من می\u200cخواهم کتاب\u200cها را بخوانم"  # 5 words, two of them with ZWNJ
    for relation, limit, followed in [("less than", 6, 1.0), ("at least", 5, 1.0),
                                      ("at least", 6, 0.0)]:
        reference = {"instruction_id_list": ["length_constraints:number_words"],
                     "kwargs": [{"num_words": limit, "relation": relation}]}
        assert _score(reference, persian).value == followed, (relation, limit)


@pytest.mark.parametrize("comma", ["\uff0c", "\u060c", "\u3001", "\ufe50", "\u201a", ","])
@pytest.mark.parametrize("reference", [
    {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]},
    {"func_name": "validate_no_commas"},
])
def test_a_look_alike_comma_is_a_comma(comma: str, reference: dict) -> None:
    assert _score(reference, "one two three").value == 1.0
    assert _score(reference, f"one{comma} two{comma} three").value == 0.0


def test_the_read_text_is_what_rewards_check_reports_too() -> None:
    reward = IFEvalReward()
    [check] = reward.check([Sample("p", "\u200b" * 60, FOUR)])
    assert check.answer == "follows 0 of 4"


# --- loose mode is an evaluation metric ---------------------------------------------------

def test_loose_mode_is_refused_as_a_reward_and_says_why() -> None:
    with pytest.raises(ConfigError, match="evaluation metric.*first or last line.*allow_loose: true"):
        IFEvalReward(mode="loose")
    with pytest.raises(ConfigError, match="allow_loose"):
        _build("{use: ifeval, mode: loose}")


def _build(component: str) -> object:
    text = f"domains:\n  ifeval: {{rewards: [{component}]}}\n"
    return build_reward(parse_config(parse_yaml(text, source="rewards.yaml"), source="rewards.yaml"))


def test_loose_mode_with_the_explicit_opt_in_evaluates() -> None:
    reference = {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}
    hack = "Sure, here it is:\nno commas in this line"  # the violation on the first line
    assert _score(reference, hack).value == 0.0
    assert _score(reference, hack, mode="loose", allow_loose=True).value == 1.0
    reward = _build("{use: ifeval, mode: loose, allow_loose: true}")
    [score] = reward.score([Sample("p", hack, reference, domain="ifeval")])
    assert score.value == 1.0
    assert IFEvalReward(allow_loose=True).config.mode == "strict"  # the opt-in alone changes nothing


# --- caches fed by clients stay bounded ----------------------------------------------------

def test_language_verdicts_keep_bytes_not_replies(monkeypatch: pytest.MonkeyPatch) -> None:
    from rewards.ifeval import detect_language

    monkeypatch.setattr(detect_language.cache, "max_bytes", 2 << 20)
    detect_language("warm up: the profiles are loaded once")
    detect_language.cache_clear()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(40):  # 40 replies of 400 KB: 16 MB (and more) if each were kept
            detect_language(f"reply {i} " + "the cat sat on the mat " * 17_000)
        grown = tracemalloc.get_traced_memory()[0] - before
        assert 0 < detect_language.cache.nbytes <= 2 << 20
    finally:
        tracemalloc.stop()
        detect_language.cache_clear()
    assert grown < 6 << 20


def test_built_constraints_keep_bytes_not_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    from rewards.ifeval import _registry, build_instruction

    monkeypatch.setattr(_registry._BUILT, "max_bytes", 2 << 20)
    _registry._BUILT.clear()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(60):  # 60 references with 500 KB of arguments: 30 MB if all were kept
            build_instruction("keywords:forbidden_words",
                              {"forbidden_words": [f"w{i}-{j}" * 500 for j in range(100)]})
        grown = tracemalloc.get_traced_memory()[0] - before
        assert 0 < _registry._BUILT.nbytes <= 2 << 20
    finally:
        tracemalloc.stop()
        _registry._BUILT.clear()
    assert grown < 6 << 20
