"""The code reward: Rule + Test + Verifier (RTV) on the sandbox.

- `_rules`: find the program in a completion and check it without running it;
- `_cases`, `_hardcoding`: the tests' literal cases and the programs that remember them;
- `_reference`: code references in the formats datasets ship, normalized to one `CodeTask`;
- `_config`: the reward's options; `_reward`: `CodeReward`, the layers put together.
"""

from rewards.code._cases import LiteralCase, cases_from_asserts
from rewards.code._config import CodeRewardConfig, ReferenceTime, Weights
from rewards.code._hardcoding import Hardcoding, find_hardcoding
from rewards.code._reference import BadReference, CodeTask, TestSet, parse_reference
from rewards.code._reward import CodeReward
from rewards.code._rules import (
    BUILTIN_RULES,
    MAX_COMPLETION_CHARS,
    Extraction,
    ForbiddenRule,
    RuleConfig,
    RuleResult,
    check_pattern,
    check_program,
    extract_program,
    prompt_helpers,
)

__all__ = [
    "BUILTIN_RULES",
    "MAX_COMPLETION_CHARS",
    "BadReference",
    "CodeReward",
    "CodeRewardConfig",
    "CodeTask",
    "Extraction",
    "ForbiddenRule",
    "Hardcoding",
    "LiteralCase",
    "ReferenceTime",
    "RuleConfig",
    "RuleResult",
    "TestSet",
    "Weights",
    "cases_from_asserts",
    "check_pattern",
    "check_program",
    "extract_program",
    "find_hardcoding",
    "parse_reference",
    "prompt_helpers",
]
