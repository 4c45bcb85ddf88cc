"""The standard reasoning-model rewards, as components of a reward config: `format`,
`tag_count`, `reasoning_steps`, `repetition`, `length`, `overlong` and `cosine`, following
open-r1, TRL and DAPO (each class says which), plus `AnswerAfter`, the wrapper behind the
`answer_after` option any component takes (`rewards.answer_after`, below the config builder).
See docs/reasoning-rewards.md."""

from rewards.answer_after import AnswerAfter, text_after
from rewards.reasoning._format import (
    FormatConfig,
    FormatReward,
    TagCountConfig,
    TagCountReward,
    tag_count_score,
    think_answer_format,
    think_format,
)
from rewards.reasoning._length import (
    CosineConfig,
    CosineReward,
    LengthConfig,
    LengthReward,
    OverlongConfig,
    OverlongReward,
    cosine_scaled,
    kimi_length,
    soft_overlong,
)
from rewards.reasoning._measure import LengthMeter
from rewards.reasoning._steps import (
    ReasoningStepsConfig,
    ReasoningStepsReward,
    RepetitionConfig,
    RepetitionReward,
    count_steps,
    repetition_penalty,
)
from rewards.reasoning._text import DEFAULT_MAX_SCAN_CHARS

__all__ = [
    "DEFAULT_MAX_SCAN_CHARS",
    "AnswerAfter",
    "CosineConfig",
    "CosineReward",
    "FormatConfig",
    "FormatReward",
    "LengthConfig",
    "LengthMeter",
    "LengthReward",
    "OverlongConfig",
    "OverlongReward",
    "ReasoningStepsConfig",
    "ReasoningStepsReward",
    "RepetitionConfig",
    "RepetitionReward",
    "TagCountConfig",
    "TagCountReward",
    "cosine_scaled",
    "count_steps",
    "kimi_length",
    "repetition_penalty",
    "soft_overlong",
    "tag_count_score",
    "text_after",
    "think_answer_format",
    "think_format",
]
