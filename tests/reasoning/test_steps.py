"""`reasoning_steps` and `repetition`.

Cases marked open-r1 are from huggingface/open-r1 tests/test_rewards.py
(test_reasoning_steps_reward, TestRepetitionPenaltyReward); the token-id case is from
huggingface/trl trl/rewards/other_rewards.py's example. Both Apache-2.0, used as data."""

import pytest

import rewards.reasoning._steps as steps_module
from rewards import ConfigError, Sample
from rewards.reasoning import (
    ReasoningStepsReward,
    RepetitionReward,
    count_steps,
    repetition_penalty,
)


def values(reward, completions):
    return [s.value for s in reward.score([Sample("p", c) for c in completions])]


@pytest.mark.parametrize("completion, expected", [  # open-r1
    ("Step 1: First step\nStep 2: Second step\nStep 3: Third step", 1.0),
    ("First, we do this.\nSecond, we do that.\nFinally, we conclude.", 1.0),
    ("Step 1: Only step", 1 / 3),
    ("First, we do this.\nFinally, we conclude.", 2 / 3),
    ("Just plain text without any clear steps", 0.0),
    ("", 0.0),
])
def test_reasoning_steps_matches_open_r1_cases(completion, expected):
    assert values(ReasoningStepsReward(), [completion]) == [pytest.approx(expected)]


def test_step_markers():
    # numbered lines count at every line start (open-r1's docstring; its pattern, lacking
    # re.MULTILINE, only counts one at the very start), bullets after a line break
    assert count_steps("1. a\n2. b\n3. c") == 3
    assert count_steps("intro\n- a\n* b\nNext, c") == 3
    assert count_steps("Step 12: x 3. y") == 1
    score = ReasoningStepsReward(min_steps=2).score([Sample("p", "1. a\n2. b\n3. c")])[0]
    assert (score.value, score.parts) == (1.0, {"steps": 3.0})


def test_reasoning_steps_reads_at_most_max_chars(monkeypatch):
    seen = []
    monkeypatch.setattr(steps_module, "count_steps", lambda text: seen.append(len(text)) or 0)
    ReasoningStepsReward(max_chars=1000).score([Sample("p", "Step 1" * 100_000)])
    ReasoningStepsReward().score([Sample("p", "1" * 1_000_000)])
    assert seen == [1000, steps_module.DEFAULT_MAX_SCAN_CHARS]


def test_step_pattern_has_no_nested_quantifier():
    # each branch is a literal or one `\d+` after a literal / line start: linear scanning
    branches = steps_module._STEP.pattern.split("|")
    assert all(b.count("+") + b.count("*") - b.count("\\*") <= 1 and "(" not in b
               for b in branches)


@pytest.mark.parametrize("ngram_size, max_penalty, completion, expected", [  # open-r1
    (2, -1.0, "this is a test sentence", 0.0),
    (2, -1.0, "this this this this this", -0.75),
    (2, -1.0, "this is a this is a test", -1 / 3),
    (3, -0.5, "this is a test", 0.0),
    (3, -0.5, "test test test test", -0.25),
    (2, -1.0, "", 0.0),
    (3, -2.0, "this is a this is a test", -0.4),
    (3, -1.0, "word", 0.0),
    (3, -1.0, "two words", 0.0),
    (3, -1.0, "three different words", 0.0),
    (3, -1.0, "word word word word", -0.5),
    (3, -1.0, "one two one two", 0.0),
    (3, -0.5, "A B C A B", 0.0),
    (3, -1.0, "A B C A B C", -0.25),
    (3, -1.0, "A B C A B C E F G A B C A B C", -5 / 13),
    (3, -1.0, "A B C D E F G H I J K L", 0.0),
    (2, -1.0, "that that that that that", -0.75),
])
def test_repetition_matches_open_r1_cases(ngram_size, max_penalty, completion, expected):
    reward = RepetitionReward(ngram_size=ngram_size, max_penalty=max_penalty)
    assert values(reward, [completion]) == [pytest.approx(expected)]


def test_repetition_lowercases_words():  # open-r1 test_mixed_case
    assert values(RepetitionReward(ngram_size=2), ["This is A Test", "this IS a test"]) \
        == [0.0, 0.0]
    assert values(RepetitionReward(ngram_size=1), ["Loop loop LOOP"]) == [pytest.approx(-2 / 3)]


def test_repetition_penalty_on_token_ids():  # TRL's example
    assert repetition_penalty([1, 2, 3, 4], 2, -1.0) == 0.0
    assert repetition_penalty([5, 5, 5, 5, 5], 2, -1.0) == -0.75


def test_repetition_in_tokens(tiny_tokenizer_dir):
    # text without spaces is one "word" (no n-grams), but many tokens: the tokenizer sees
    # the loop, as TRL's token-id penalty does
    loop = "这个" * 40
    assert values(RepetitionReward(), [loop]) == [0.0]
    in_tokens = RepetitionReward(tokenizer=str(tiny_tokenizer_dir))
    assert values(in_tokens, [loop])[0] < -0.5


def test_repetition_reads_at_most_max_chars(monkeypatch):
    seen = []
    monkeypatch.setattr(steps_module, "repetition_penalty",
                        lambda units, n, p: seen.append(len(units)) or 0.0)
    RepetitionReward(max_chars=1000).score([Sample("p", "a b " * 200_000)])
    assert seen == [500]


@pytest.mark.parametrize("factory, options, option", [
    (RepetitionReward, {"max_penalty": 1.5}, "max_penalty"),
    (RepetitionReward, {"max_penalty": "high"}, "max_penalty"),
    (RepetitionReward, {"ngram_size": 0}, "ngram_size"),
    (RepetitionReward, {"ngram_size": 2.5}, "ngram_size"),
    (RepetitionReward, {"max_chars": 0}, "max_chars"),
    (RepetitionReward, {"tokenizer": ""}, "tokenizer"),
    (ReasoningStepsReward, {"min_steps": 0}, "min_steps"),
    (ReasoningStepsReward, {"min_steps": True}, "min_steps"),
    (ReasoningStepsReward, {"steps": 3}, "steps"),
])
def test_options_are_checked(factory, options, option):
    with pytest.raises(ConfigError, match=rf"^{factory.name} reward: .*\b{option}\b"):
        factory(**options)


def test_missing_tokenizer_folder_is_a_config_error(tmp_path):
    pytest.importorskip("transformers")
    with pytest.raises(ConfigError, match="tokenizer: cannot load.*nothing is downloaded"):
        RepetitionReward(tokenizer=str(tmp_path / "no-such-tokenizer"))


def test_a_step_marker_counts_only_with_something_in_the_step():
    """open-r1 credits `Step 1:\\nStep 2:\\nStep 3:` alone (`rewards stress`: tag_games)."""
    from rewards.reasoning import count_steps

    assert count_steps("Step 1:\nStep 2:\nStep 3:") == 0
    assert count_steps("Step 1: add.\nStep 2:\nStep 3: carry") == 2
    assert count_steps("First,\u200b\nNext,\u200b") == 0  # invisible content is none


def test_repetition_reads_words_as_a_reader_does():
    """Zero-width characters sprinkled into a loop's words made every repeat a new n-gram."""
    from rewards import Sample
    from rewards.reasoning import RepetitionReward

    words = ["the", "cat", "sat", "on", "the", "mat"] * 30
    plain = " ".join(words)
    sprinkled = " ".join(w[:1] + "\u200b" * (i % 7 + 1) + w[1:] for i, w in enumerate(words))
    values = [s.value for s in RepetitionReward().score([Sample("q", plain),
                                                          Sample("q", sprinkled)])]
    assert values[0] < -0.9 and values[1] == values[0]
