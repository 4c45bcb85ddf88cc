"""`format` and `tag_count`.

Cases marked TRL are from huggingface/trl tests/test_rewards.py (TestThinkFormatReward), cases
marked open-r1 from huggingface/open-r1 tests/test_rewards.py (format_reward and
tag_count_reward tests); both Apache-2.0, used as data."""

import itertools
import re

import pytest

import rewards.reasoning._format as format_module
from rewards import ConfigError, Sample
from rewards.reasoning import (
    FormatReward,
    TagCountReward,
    tag_count_score,
    think_answer_format,
    think_format,
)


def values(reward, completions):
    return [s.value for s in reward.score([Sample("p", c) for c in completions])]


TRL_VALID = [
    "<think>This is my reasoning.</think>This is my answer.",
    "<think>\nThis is my reasoning.\n</think>\nThis is my answer.",
    "<think>\nThis is\nmy reasoning.\n</think>\nThis is my answer.",
    "<think>\nThis is <some tag> my reasoning.</think>\nThis is my answer.",
    "<think></think>\nThis is my answer.",
]
TRL_INVALID = [
    "<think>\nThis is my reasoning.\nThis is my answer.",  # no closing </think>
    "<think>This is my reasoning.\nThis is my answer.",
    "This is my reasoning. This is my answer.",  # no tags
    "This is my reasoning.\nThis is my answer.",
    "This is my reasoning.</think>\nThis is my answer.",  # no opening <think>
    "This is my reasoning.</think>This is my answer.",
    "This<think>is my reasoning.</think>\nThis is my answer.",  # <think> in the middle
    "<think>This is<think>my reasoning.</think></think>This is my answer.",  # nested
    "<think>This is</think>\nmy\n<think>reasoning.</think>\nThis is my answer.",  # two blocks
]


def test_think_mode_matches_trl_cases():
    reward = FormatReward()
    assert values(reward, TRL_VALID) == [1.0] * len(TRL_VALID)
    assert values(reward, TRL_INVALID) == [0.0] * len(TRL_INVALID)
    assert {s.reason for s in reward.score([Sample("p", c) for c in TRL_INVALID])} \
        == {"bad_format"}


OPEN_R1_VALID = [
    "<think>\nSome reasoning\n</think>\n<answer>\nThe answer\n</answer>",
    ("<think>\nI will count each distinct object in the image:\n1. Purple scooter\n2. Red "
    "bicycle\n3. Green motorcycle\n4. Gray sedan\n5. Yellow school bus\n6. Small green "
    "double-decker bus\n7. Small red car\n8. Small purple car\n9. Small gray dirt bike\n\nThere "
    "are 9 distinct objects in total.\n</think>\n<answer>\n9\n</answer>"),
]
OPEN_R1_INVALID = [
    "<think>Only thinking</think>",
    "<answer>Only answer</answer>",
    "No tags at all",
    "<think>Missing closing</think><answer>Missing closing",
    "<think>Wrong order</answer><answer>Wrong order</think>",
]


def test_think_answer_mode_matches_open_r1_cases():
    reward = FormatReward(mode="think_answer")
    assert values(reward, OPEN_R1_VALID) == [1.0, 1.0]
    assert values(reward, OPEN_R1_INVALID) == [0.0] * len(OPEN_R1_INVALID)


# Every string of up to 5 of these pieces: the tags, their line-broken forms, text, newlines.
_PIECES = ["<think>\n", "\n</think>\n", "<answer>\n", "\n</answer>", "\n", "x", "<think>",
           "</think>", " "]
_STRINGS = ["".join(p) for n in range(6) for p in itertools.product(_PIECES, repeat=n)]


def test_think_format_equals_trls_regex_on_every_small_string():
    trl = re.compile(r"^<think>(?!.*<think>)(.*?)</think>.*$", re.DOTALL | re.MULTILINE)
    disagreements = [s for s in _STRINGS if think_format(s) != bool(trl.match(s))]
    assert disagreements == []
    assert sum(think_format(s) for s in _STRINGS) > 1000  # the corpus has both verdicts


def _tags_once(s: str) -> bool:
    return all(s.count(tag) == 1 for tag in ("<think>", "</think>", "<answer>", "</answer>"))


def test_think_answer_format_equals_open_r1s_regex_up_to_trailing_text_and_tag_spam():
    # open-r1's pattern, except that its re.MULTILINE `$` also accepts text after a line
    # break behind </answer> (here only trailing whitespace may follow the answer block), and
    # that its lazy `.*?` also takes repeated or nested tags (here each tag occurs once:
    # `rewards stress` found 50 repeated layouts scoring 1).
    ours = re.compile(r"<think>\n.*?\n</think>\n<answer>\n.*?\n</answer>\s*", re.DOTALL)
    open_r1 = re.compile(r"^<think>\n.*?\n</think>\n<answer>\n.*?\n</answer>$",
                         re.DOTALL | re.MULTILINE)
    assert [s for s in _STRINGS if think_answer_format(s) !=
            (bool(ours.fullmatch(s)) and _tags_once(s))] == []
    spam = [s for s in _STRINGS if ours.fullmatch(s) and not _tags_once(s)]
    assert spam and not any(think_answer_format(s) for s in spam)
    differ = [s for s in _STRINGS if _tags_once(s)
              and think_answer_format(s) != bool(open_r1.match(s))]
    after_line_break = [s for s in differ if open_r1.match(s)]  # open-r1 yes, here no
    whitespace_only = [s for s in differ if not open_r1.match(s)]  # here yes, open-r1 no
    assert all("\n</answer>\n" in s for s in after_line_break)
    assert think_answer_format("<think>\nx\n</think>\n<answer>\n4\n</answer>\nmore") is False
    assert whitespace_only and all(s.rpartition("</answer>")[2].isspace()
                                   for s in whitespace_only)
    assert sum(think_answer_format(s) for s in _STRINGS) >= 10  # the corpus has both verdicts


@pytest.mark.parametrize("completion, think, think_answer", [
    ("", 0.0, 0.0),  # empty completion
    ("</think>answer<think>", 0.0, 0.0),  # tags in the wrong order
    ("<think>\n\n</think>\n<answer>\n\n</answer>", 1.0, 1.0),  # empty blocks, as `.*?` allows
    ("<think>\nx\n</think>\n<answer>\n4\n</answer>\n\n", 1.0, 1.0),  # trailing whitespace
    ("<think>\nx\n</think>\n<answer>\n4\n</answer>\nmore", 1.0, 0.0),  # text after the answer
    ("  <think>x</think>4", 0.0, 0.0),  # the completion must open with the tag
    ("<think>\nрассуждение 推理 🤔\n</think>\n<answer>\n四\n</answer>", 1.0, 1.0),  # unicode
    ("<think>\n<think>\nx\n</think>\n</think>\n<answer>\n4\n</answer>", 0.0, 0.0),  # nested
    ("<think>\nx\n</think>\n<answer>\n4\n</answer>\n" * 3, 0.0, 0.0),  # the layout repeated
])
def test_edge_cases(completion, think, think_answer):
    assert values(FormatReward(), [completion]) == [think]
    assert values(FormatReward(mode="think_answer"), [completion]) == [think_answer]


def test_custom_tags():
    reward = FormatReward(think_tag="reasoning")
    assert values(reward, ["<reasoning>r</reasoning>a", "<think>r</think>a"]) == [1.0, 0.0]
    pair = FormatReward(think_tag=["<REASONING_START>", "<REASONING_END>"])
    assert values(pair, ["<REASONING_START> r <REASONING_END> 4"]) == [1.0]
    both = FormatReward(mode="think_answer", think_tag="thought", answer_tag="final")
    assert values(both, ["<thought>\nr\n</thought>\n<final>\n4\n</final>",
                         "<think>\nr\n</think>\n<answer>\n4\n</answer>"]) == [1.0, 0.0]


def test_think_in_prompt():
    # DeepSeek-R1 and Qwen3 templates end the prompt with "<think>\n": the completion does not
    # open the tag itself, and must not open it again
    reward = FormatReward(think_in_prompt=True)
    assert values(reward, ["reasoning</think>4", "<think>reasoning</think>4", "no close"]) \
        == [1.0, 0.0, 0.0]
    answer = FormatReward(mode="think_answer", think_in_prompt=True)
    assert values(answer, ["r\n</think>\n<answer>\n4\n</answer>"]) == [1.0]
    tags = TagCountReward(think_in_prompt=True)
    assert values(tags, ["r\n</think>\n<answer>\n4\n</answer>"]) == [1.0]


@pytest.mark.parametrize("completion, expected", [  # open-r1's tag_count_reward cases
    ("<think>\nSome reasoning\n</think>\n<answer>\nThe answer\n</answer>", 1.0),
    ("Some reasoning\n</think>\n<answer>\nThe answer\n</answer>", 0.75),
    ("<think>\nSome reasoning\n<answer>\nThe answer\n</answer>", 0.75),
    ("<think>\nSome reasoning\n</think>\nThe answer\n</answer>", 0.75),
    ("<think>\nSome reasoning\n</think>\n<answer>\nThe answer", 0.75),
    ("Some reasoning\nThe answer", 0.0),
    ("", 0.0),
    ("<think>\n<think>\nx\n</think>\n<answer>\n4\n</answer>", 0.75),  # think opened twice
])
def test_tag_count_matches_open_r1_cases(completion, expected):
    assert values(TagCountReward(), [completion]) == [expected]


def test_tag_count_custom_tags():
    text = "<r>\nx\n</r>\n<a>\n4\n</a>"
    assert tag_count_score(text, ("<r>", "</r>"), ("<a>", "</a>")) == 1.0
    assert values(TagCountReward(think_tag="r", answer_tag="a"), [text]) == [1.0]


def test_adversarial_inputs_use_no_regular_expression():
    # the format checks are string operations only (linear); open-r1's regex would backtrack
    # quadratically on the second input
    assert not hasattr(format_module, "re")
    unclosed = "<think>" * 200_000
    repeated = "<think>\n" + "\n</think>\n<answer>\n" * 20_000 + "x"
    for reward, expected in [(FormatReward(), [0.0, 1.0]),  # opened once, closed: TRL's 1.0
                             (FormatReward(mode="think_answer"), [0.0, 0.0]),
                             (TagCountReward(), [0.0, 0.25])]:
        scores = reward.score([Sample("p", unclosed), Sample("p", repeated)])
        assert [s.value for s in scores] == expected


@pytest.mark.parametrize("options, option", [
    ({"mode": "strict"}, "mode"),
    ({"think_tag": "<think>"}, "think_tag"),
    ({"think_tag": ["<t>", "<t>"]}, "think_tag"),
    ({"think_tag": ""}, "think_tag"),
    ({"answer_tag": ["<a>"]}, "answer_tag"),
    ({"think_in_prompt": "yes"}, "think_in_prompt"),
    ({"thinktag": "think"}, "thinktag"),
])
def test_format_options_are_checked(options, option):
    with pytest.raises(ConfigError, match=f"^format reward: .*'?{option}'?"):
        FormatReward(**options)


def test_unknown_option_suggests_the_nearest():
    with pytest.raises(ConfigError, match="did you mean 'think_tag'"):
        FormatReward(thinktag="think")
    with pytest.raises(ConfigError, match="^tag_count reward: answer_tag: "):
        TagCountReward(answer_tag=3)
