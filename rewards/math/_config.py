"""`MathConfig`: the options of the math verifier, validated once, frozen and hashable so a
config is part of every cache key."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args

from rewards.errors import ConfigError, RewardsError
from rewards.options import check_fields, check_range, load_options

__all__ = ["JUDGE_TEMPLATE", "MathConfig", "MathJudgeConfig", "Reason", "Verdict"]

Reason = Literal["ok", "wrong", "no_answer", "timeout", "bad_reference"]
_REASONS = frozenset(get_args(Reason))


JudgeBackend = Literal["auto", "transformers", "vllm", "vllm-server"]
"""`rewards.engines.Backend` (spelled out here so that importing the math verifier does not
import the engines; a test checks that the two agree)."""

JUDGE_TEMPLATE = (
    "Two final answers to the same math problem are given. Decide whether they are "
    "mathematically equivalent: the same number, expression, set or interval, however written "
    "(another form, order or notation is fine; a different value is not).\n\n"
    "Problem:\n{question}\n\n"
    "Answer 1:\n{first}\n\n"
    "Answer 2:\n{second}\n\n"
    "Are Answer 1 and Answer 2 equivalent? Answer Yes or No."
)
"""The math judge's prompt. Fields: {question} (the sample's prompt, cut to `max_chars`),
{first} and {second} (the extracted answer and the gold, in one order and then the other)."""


@dataclass(frozen=True)
class MathJudgeConfig:
    """The optional judge of the math verifier (`judge:` under `use: math`): a language model
    asked, where the rules say `wrong` or cannot decide, whether the extracted answer and the
    gold are equivalent, in both orders. Its verdict is read from next-token log-probs:
    P(equal) = P(yes) / (P(yes) + P(no)), so it is never unparseable. It gives credit only
    when both orders say equal with P(equal) >= `threshold`; an engine failure abstains."""

    model: str | None = None
    """The judge: a local model folder or a hub name (loaded once per process)."""
    url: str | None = None
    """The judge behind a vLLM OpenAI-compatible server (instead of `model`)."""
    backend: JudgeBackend = "auto"
    """Inference backend (`rewards.engines`); auto with a `url` is vllm-server."""
    threshold: float = 0.8
    """P(equal) each order must reach for credit. High by default: the judge is asked only
    about answers the rules did not accept, most of them wrong, and a policy learns to exploit
    a lenient judge."""
    ask: Literal["wrong_or_undecided", "undecided"] = "wrong_or_undecided"
    """When to ask: where the rules say `wrong` or cannot decide (`timeout`), or only where
    they cannot decide. Never where the answer's size proves it different (`_magnitude`)."""
    template: str = JUDGE_TEMPLATE
    """The prompt; fields as in `JUDGE_TEMPLATE`."""
    labels: tuple[str, str] = ("Yes", "No")
    """The verdicts for equivalent and not equivalent; each must be one token (with or
    without a leading space) of the judge's tokenizer."""
    chat: bool = True
    """Send the filled template as one user message (chat template); False: as plain text."""
    answer_prefix: str = ""
    """Text the verdict follows, appended after the prompt (e.g. "Answer:")."""
    max_chars: int = 2000
    """An answer or gold longer than this is not judged (the rule's verdict stands); a longer
    question is cut to its first `max_chars` characters."""
    timeout: float = 120.0
    """Seconds the judge has to answer one batch (building its prompts and reading its
    log-probs); a judge that has not answered by then abstains (`judge_timeout`)."""
    engine_options: Mapping[str, Any] | None = field(default=None, hash=False)
    """Keyword arguments for the engine (`rewards.engines.load_engine`), e.g. dtype."""

    def __post_init__(self) -> None:
        check_fields(self)
        check_range("threshold", self.threshold, gt=0.0, lt=1.0)
        check_range("timeout", self.timeout, gt=0.0)
        check_range("max_chars", self.max_chars, ge=1)
        if self.model is not None and self.url is not None:
            raise ConfigError("url: give the judge as model or url, not both")
        for name in ("{first}", "{second}"):
            if name not in self.template:
                raise ConfigError(f"template: the judge prompt must contain {name}")


@dataclass(frozen=True)
class MathConfig:
    """Options of the math verifier (`MathReward(**options)` builds one)."""

    timeout: float = 5.0
    """Hard wall-clock bound, in seconds, on one symbolic comparison; enforced by killing the
    worker process that runs it. The answer then scores 0 with reason `timeout`."""
    strict: bool = False
    """Strict extraction: no last-number fallback, an answer must be marked (boxed, tags,
    `####`, "the answer is")."""
    tail_chars: int = 4000
    """Only the last `tail_chars` characters of a completion are searched for the answer, so a
    100k-character completion costs the same as a short one."""
    workers: int | None = None
    """Worker processes for symbolic comparisons; `None` means one per CPU core."""
    cache_size: int = 100_000
    """Verdicts kept per `MathReward`, keyed by (extracted answer, gold, config); 0 disables."""
    max_answer_chars: int = 1000
    """An extracted answer (or gold) longer than this is not handed to sympy (reason `timeout`)."""
    max_nesting: int = 12
    """Deepest bracket nesting (`( [ {`) handed to sympy; deeper is rejected as pathological.
    (latex2sympy's parser slows down by about 0.1 s per nested parenthesis level.)"""
    max_power_depth: int = 2
    """Deepest tower of exponents (`a^{b^{c}}` has depth 2) handed to sympy."""
    max_exponent: int = 100_000
    """Largest integer exponent (also estimated for `a^{b}` inside an exponent) and largest
    factorial operand handed to sympy; beyond it the value is astronomically large."""
    float_rel_tol: float = 1e-4
    """Relative tolerance when either side is a decimal approximation: a decimal is right when
    it rounds to the other value at its printed precision *and* is within this relative error
    (`-0.166667` is `-1/6`, `0.17` is not `1/6`); exact numbers must be exactly equal."""
    worker_start_timeout: float = 120.0
    """Seconds the workers' zygote may take to import sympy, warm up and report ready (and a
    worker forked from it to report ready); beyond it the pool raises `WorkerError` (broken
    infrastructure, not a bad answer)."""
    judge: MathJudgeConfig | None = None
    """An optional language-model judge for what the rules reject or cannot decide (see
    `MathJudgeConfig`); none by default."""

    def __post_init__(self) -> None:
        check_fields(self)
        check_range("timeout", self.timeout, ge=0.01)
        check_range("tail_chars", self.tail_chars, ge=64)
        check_range("workers", self.workers, ge=1)
        check_range("cache_size", self.cache_size, ge=0)
        check_range("max_answer_chars", self.max_answer_chars, ge=8)
        check_range("max_nesting", self.max_nesting, ge=1)
        check_range("max_power_depth", self.max_power_depth, ge=1)
        check_range("max_exponent", self.max_exponent, ge=2)
        check_range("float_rel_tol", self.float_rel_tol, ge=0.0)
        check_range("worker_start_timeout", self.worker_start_timeout, ge=1.0)

    @classmethod
    def from_options(cls, **options: Any) -> MathConfig:
        """Build from keyword options (a reward config's extra keys) through the one config
        loader (`rewards.options.load_options`): unknown keys and bad values raise."""
        return load_options(cls, options, where="math reward")

    @property
    def worker_count(self) -> int:
        """Number of worker processes: `workers`, or the CPU count."""
        return self.workers or os.cpu_count() or 1

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Verdict:
    """The outcome of comparing one extracted answer with one gold answer."""

    reason: Reason
    """ok | wrong | no_answer | timeout | bad_reference."""
    detail: str = ""
    """Why, for people: which path decided (`exact`, `numeric`, `symbolic`, a structural limit)."""

    def __post_init__(self) -> None:
        if self.reason not in _REASONS:  # a verdict is made per comparison: a set look-up
            raise RewardsError(f"unknown verdict reason {self.reason!r}")

    @property
    def correct(self) -> bool:
        return self.reason == "ok"

    @property
    def value(self) -> float | None:
        """The reward: 1.0 when correct, `None` (abstain) on a bad reference, else 0.0."""
        if self.reason == "bad_reference":
            return None
        return 1.0 if self.reason == "ok" else 0.0

