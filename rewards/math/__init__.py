"""Math verifier: extract the final answer, compare it with the gold (fast paths here,
math-verify + sympy in killable worker processes with a hard wall-clock bound)."""

from rewards.math._compare import (
    VerdictCache,
    compare,
    compare_batch,
    read_reference,
    same_reference,
)
from rewards.math._config import JUDGE_TEMPLATE, MathConfig, MathJudgeConfig, Verdict
from rewards.math._extract import extract_answer, extract_boxed, prepare_reference
from rewards.math._judge import JudgeRead, MathJudge
from rewards.math._limits import structural_problem
from rewards.math._normalize import NUMBER_WORDS, normalize
from rewards.math._pool import WorkerError, WorkerPool, shared_pool
from rewards.math._reward import MathReward

__all__ = [
    "JUDGE_TEMPLATE",
    "NUMBER_WORDS",
    "JudgeRead",
    "MathConfig",
    "MathJudge",
    "MathJudgeConfig",
    "MathReward",
    "Verdict",
    "VerdictCache",
    "WorkerError",
    "WorkerPool",
    "compare",
    "compare_batch",
    "extract_answer",
    "extract_boxed",
    "normalize",
    "prepare_reference",
    "read_reference",
    "same_reference",
    "shared_pool",
    "structural_problem",
]
