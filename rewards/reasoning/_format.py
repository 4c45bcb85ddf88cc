"""`format` and `tag_count`: is the completion laid out as a reasoning model's should be.

Both are decided with string operations (`startswith`, `in`, `count`), not regular
expressions: open-r1's `^<think>\\n.*?\\n</think>\\n<answer>\\n.*?\\n</answer>$` backtracks
quadratically on a completion full of `\\n</think>\\n<answer>\\n`; these checks are linear."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rewards.options import check_fields, load_options
from rewards.reasoning._text import completion_text, tag_pair
from rewards.types import Sample, Score

__all__ = ["FormatConfig", "FormatReward", "TagCountConfig", "TagCountReward",
           "tag_count_score", "think_answer_format", "think_format"]

Mode = Literal["think", "think_answer"]
Tag = str | tuple[str, str]


def think_format(text: str, think: tuple[str, str] = ("<think>", "</think>")) -> bool:
    """TRL's `think_format_reward` (`^<think>(?!.*<think>)(.*?)</think>.*$`, DOTALL): the text
    opens with the think tag, never opens it again, and closes it; anything may follow."""
    open_tag, close_tag = think
    if not text.startswith(open_tag):
        return False
    rest = text[len(open_tag):]
    return open_tag not in rest and close_tag in rest


def think_answer_format(text: str, think: tuple[str, str] = ("<think>", "</think>"),
                        answer: tuple[str, str] = ("<answer>", "</answer>")) -> bool:
    """open-r1's `format_reward`: `<think>\\n...\\n</think>\\n<answer>\\n...\\n</answer>`, the
    whole completion (the blocks may be empty and may hold any text, as `.*?` may).

    Two differences, both where open-r1's pattern can be satisfied by tag spam:
    - open-r1 matches with re.MULTILINE, so its `$` also accepts any text after a line break
      behind `</answer>`; here only whitespace may follow the answer block;
    - its lazy `.*?` also matches the layout repeated (`<think>..</answer>` fifty times, or a
      `<think>` opened again inside the block); here each of the four tags occurs once, as
      TRL's `think_format_reward` already requires of `<think>`."""
    prefix = think[0] + "\n"
    separator = "\n" + think[1] + "\n" + answer[0] + "\n"
    suffix = "\n" + answer[1]
    text = text.rstrip()
    if len(text) < len(prefix) + len(separator) + len(suffix):
        return False
    if not (text.startswith(prefix) and text.endswith(suffix)):
        return False
    if any(text.count(tag) != 1 for tag in (*think, *answer)):
        return False
    return separator in text[len(prefix):len(text) - len(suffix)]


def tag_count_score(text: str, think: tuple[str, str] = ("<think>", "</think>"),
                    answer: tuple[str, str] = ("<answer>", "</answer>")) -> float:
    """open-r1's `tag_count_reward`: 0.25 for each of `<think>\\n`, `\\n</think>\\n`,
    `\\n<answer>\\n` and `\\n</answer>` that occurs exactly once."""
    pieces = (think[0] + "\n", "\n" + think[1] + "\n", "\n" + answer[0] + "\n", "\n" + answer[1])
    return 0.25 * sum(text.count(piece) == 1 for piece in pieces)


@dataclass(frozen=True)
class FormatConfig:
    """Options of the `format` reward."""

    mode: Mode = "think"
    """`think`: `<think>...</think>` then the answer (TRL `think_format_reward`);
    `think_answer`: `<think>\\n...\\n</think>\\n<answer>\\n...\\n</answer>` (open-r1
    `format_reward`)."""
    think_tag: Tag = "think"
    """The reasoning tag: a name (`think` -> `<think>`, `</think>`) or an [open, close] pair."""
    answer_tag: Tag = "answer"
    """The answer tag (mode `think_answer` only): a name or an [open, close] pair."""
    think_in_prompt: bool = False
    """The chat template already opened the think tag at the end of the prompt (DeepSeek-R1,
    Qwen3): the completion is checked as if it began with it (`<think>\\n` in `think_answer`)."""

    def __post_init__(self) -> None:
        check_fields(self, where="format reward")
        _set_tags(self)


class FormatReward:
    """1.0 when the completion has the reasoning format of `mode`, else 0.0 with reason
    `bad_format`. Follows TRL `think_format_reward` (mode `think`, the default) and open-r1
    `format_reward` (mode `think_answer`)."""

    name = "format"
    kind = "verifiable"

    def __init__(self, **options: Any) -> None:
        self.config = load_options(FormatConfig, options, where="format reward")
        self.think, self.answer = _pairs(self.config)

    def check(self, text: str) -> bool:
        c = self.config
        if c.mode == "think":
            if c.think_in_prompt:
                text = self.think[0] + text
            return think_format(text, self.think)
        if c.think_in_prompt:
            text = self.think[0] + "\n" + text
        return think_answer_format(text, self.think, self.answer)

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return [Score(1.0) if self.check(completion_text(s)) else Score(0.0, "bad_format")
                for s in samples]


@dataclass(frozen=True)
class TagCountConfig:
    """Options of the `tag_count` reward."""

    think_tag: Tag = "think"
    """The reasoning tag: a name (`think`) or an [open, close] pair."""
    answer_tag: Tag = "answer"
    """The answer tag: a name (`answer`) or an [open, close] pair."""
    think_in_prompt: bool = False
    """The prompt already opened the think tag: `<think>\\n` counts as present."""

    def __post_init__(self) -> None:
        check_fields(self, where="tag_count reward")
        _set_tags(self)


class TagCountReward:
    """Partial format credit, 0.25 per tag piece present exactly once (open-r1
    `tag_count_reward`): a dense signal while the model learns `format`'s layout."""

    name = "tag_count"
    kind = "verifiable"

    def __init__(self, **options: Any) -> None:
        self.config = load_options(TagCountConfig, options, where="tag_count reward")
        self.think, self.answer = _pairs(self.config)

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        opened = self.think[0] + "\n" if self.config.think_in_prompt else ""
        return [Score(tag_count_score(opened + completion_text(s), self.think, self.answer))
                for s in samples]


def _set_tags(config: FormatConfig | TagCountConfig) -> None:
    # frozen: normalized once here, so `think_tag` is always an (open, close) pair
    for name in ("think_tag", "answer_tag"):
        object.__setattr__(config, name, tag_pair(getattr(config, name), name=name))


def _pairs(config: FormatConfig | TagCountConfig) -> tuple[tuple[str, str], tuple[str, str]]:
    """The (open, close) pairs `_set_tags` left in the config's tag fields."""
    think, answer = config.think_tag, config.answer_tag
    assert isinstance(think, tuple) and isinstance(answer, tuple)  # set by `_set_tags`
    return think, answer
