"""Instruction following as a verifiable reward (`use: ifeval`): IFEval's 25 instruction types,
IFEvalG's 29 more (open-instruct), and the 25 functions of RLVR-IFeval ground truth, one small
pure checker each, a registry by instruction id, strict and loose modes, fraction or all.
Offline: no data file is read or downloaded. See docs/instruction-following.md."""

from rewards.ifeval._language import detect_language
from rewards.ifeval._reference import parse_constraints
from rewards.ifeval._registry import (
    FAMILIES,
    FUNCTIONS,
    INSTRUCTIONS,
    BadConstraint,
    Instruction,
    build_instruction,
)
from rewards.ifeval._reward import IFEvalConfig, IFEvalReward, follows, loose_variants, verdicts
from rewards.ifeval._text import (
    count_sentences,
    count_words,
    regex_sentences,
    split_sentences,
    word_tokens,
)

__all__ = [
    "FAMILIES",
    "FUNCTIONS",
    "INSTRUCTIONS",
    "BadConstraint",
    "IFEvalConfig",
    "IFEvalReward",
    "Instruction",
    "build_instruction",
    "count_sentences",
    "count_words",
    "detect_language",
    "follows",
    "loose_variants",
    "parse_constraints",
    "regex_sentences",
    "split_sentences",
    "verdicts",
    "word_tokens",
]
