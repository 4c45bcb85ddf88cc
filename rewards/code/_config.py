"""Options of the RTV code reward: `CodeRewardConfig` and its layer `Weights`, loaded from the
keyword options a reward config passes (`parse_options`) by the one config loader."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from rewards.code._rules import BUILTIN_RULES, BlockChoice, ForbiddenRule, RuleConfig
from rewards.errors import ConfigError
from rewards.options import check_fields, check_range, did_you_mean, load_options
from rewards.types import FunctionReward, Reward

__all__ = ["LAYERS", "CodeRewardConfig", "ReferenceTime", "Weights", "parse_options",
           "resolve_judge"]

LAYERS = ("rule", "tests", "hidden", "judge")


@dataclass(frozen=True)
class Weights:
    """Weight of each layer before redistribution; they need not sum to 1."""

    rule: float = 0.1
    """Rule layer: 1 when the program passes every rule."""
    tests: float = 0.5
    """Test layer: public tests pass fraction."""
    hidden: float = 0.3
    """Verifier layer: hidden tests pass fraction."""
    judge: float = 0.1
    """Verifier layer: the judge's score (redistributed when there is no judge)."""

    def __post_init__(self) -> None:
        check_fields(self)
        for layer in LAYERS:
            check_range(layer, getattr(self, layer), ge=0)
        if sum(getattr(self, layer) for layer in LAYERS) <= 0:
            raise ConfigError("at least one weight must be positive")


@dataclass(frozen=True)
class ReferenceTime:
    """Per-test time limits of a task from its reference solution's measured times, by
    EvalPlus's rule: test i gets `max(min_time_limit, gt_time_limit_factor * t_i)`, with
    factor 4.0 and floor 1.0 s by default (evalplus/config.py `DEFAULT_GT_TIME_LIMIT_FACTOR`,
    `DEFAULT_MIN_TIME_LIMIT`; evalplus/evaluate.py computes the list, evalplus/eval/__init__.py
    `untrusted_check` runs each test under its own). Here each limit is at most
    `CodeRewardConfig.time_limit_s`, and a test the reference did not pass (or did not run)
    gets `time_limit_s`: its time says nothing about what an honest program needs."""

    factor: float = 4.0
    """Times the reference solution's time on the test."""
    floor_s: float = 1.0
    """Least per-test limit, however fast the reference (start-up noise, a loaded host)."""

    def __post_init__(self) -> None:
        check_fields(self)
        check_range("factor", self.factor, gt=0)
        check_range("floor_s", self.floor_s, gt=0)

    def limit(self, seconds: float | None, cap: float) -> float:
        """One test's limit from the reference's seconds on it; `cap` when there are none
        (the reference failed the test or never ran it)."""
        if seconds is None:
            return cap
        return min(cap, max(self.floor_s, self.factor * seconds))

    def limits(self, test_times: Sequence[float | None], cap: float) -> tuple[float, ...]:
        """The limit of each test, in order, from the reference's seconds on each (None
        where it has none)."""
        return tuple(self.limit(seconds, cap) for seconds in test_times)


@dataclass(frozen=True)
class CodeRewardConfig:
    """Options of `CodeReward` (the keys of an `rtv` component in a reward config)."""

    weights: Weights = Weights()
    """Layer weights; a partial mapping keeps the defaults of the other layers."""
    gate: bool = False
    """When true, a rule violation, hard-coding or a syntax error scores 0 overall."""
    language: str = "python"
    """Language of the programs, unless the reference names one."""
    block: BlockChoice = "last"
    """Which fenced block is the program: last (complete one), first, longest or concat."""
    unfenced: Literal["code", "reject"] = "code"
    """A completion with no fenced block: treat it as the program, or as having no code."""
    max_program_chars: int = 20_000
    """Longest program accepted (rule violation beyond)."""
    max_program_lines: int = 1_000
    """Most lines accepted (rule violation beyond)."""
    forbidden: tuple[str, ...] = tuple(BUILTIN_RULES)
    """Built-in forbidden patterns to check, by name (see `rewards.code._rules.BUILTIN_RULES`)."""
    forbidden_patterns: tuple[ForbiddenRule, ...] = ()
    """Extra forbidden regexes: `{name?, regex, scope?, description?}` in a config (the name
    defaults to the regex; a bare string is the regex)."""
    detect_hardcoding: bool = True
    """Flag programs that remember the tests' answers (Python)."""
    time_limit_s: float = 5.0
    """Wall-clock seconds per test (the most, with `reference_time`). A test that runs past
    it ends the program's run: its later tests count as timeouts without running."""
    program_time_limit_s: float | None = None
    """Wall-clock seconds for all the tests of one program (public and hidden together);
    tests that would start after it count as timeouts. None: no budget beyond the
    per-test limit."""
    reference_time: ReferenceTime | None = None
    """Derive each test's own limit from the task's reference solution (`{factor, floor_s}`,
    see `ReferenceTime`), run once per task and remembered; tasks without one keep
    `time_limit_s`, and so does a test the reference did not pass. None: `time_limit_s` for
    every test."""
    pass_mode: Literal["fraction", "all"] = "fraction"
    """`fraction`: the tests and hidden layers are their pass fractions, combined by the
    weights. `all`: the reward is 1 only when every layer that applies passes (the rule
    layer, every public and hidden test, the judge at 0.5 or above), else 0; `parts` keep
    the detail (each layer 1/0, and the pass fractions as `tests_fraction` and
    `hidden_fraction`)."""
    chunk_tests: int | None = 4
    """Tests per parallel chunk: a program with at least twice as many stdin/stdout tests
    runs them as chunks spread over the workers, with the same verdicts and budget as one
    run (`sandbox.run_tests_many`'s `chunk_tests`). None: one sandbox run per program."""
    memory_mb: int = 1024
    """Memory limit of a program run, in MiB."""
    hidden_share: float = 0.5
    """Formats without a public/hidden split hold back this share of their tests as hidden."""
    judge: Any = None
    """A `Reward` (object, registered name or dotted path) or a one-sample callable."""
    judge_options: Mapping[str, Any] | None = field(default_factory=lambda: MappingProxyType({}))
    """Keyword options for the judge's factory when `judge` names one (null: none)."""
    rubric: str | None = None
    """Rubric handed to the judge in `sample.meta["rubric"]`."""
    compare: Literal["exact", "whitespace", "float", "lines_unordered"] = "whitespace"
    """How stdin/stdout tests compare output (`sandbox.Compare`, whose values these are):
    exact (trailing newlines aside), whitespace (token by token), float (token by token,
    numbers within `float_tol`) or lines_unordered (the same lines in any order). A task
    whose reference carries a checker is judged by it instead."""
    float_tol: float = 1e-6
    """Relative and absolute tolerance of `compare: float`."""
    max_workers: int | None = None
    """Parallel sandbox runs per batch (None: the sandbox's default)."""

    def __post_init__(self) -> None:
        check_fields(self)
        unknown = [name for name in self.forbidden if name not in BUILTIN_RULES]
        if unknown:
            raise ConfigError(f"forbidden: {unknown[0]!r} is not a built-in rule"
                              f"{did_you_mean(unknown[0], BUILTIN_RULES)}; the rules are "
                              f"{', '.join(sorted(BUILTIN_RULES))}")
        for i, rule in enumerate(self.forbidden_patterns):
            if rule.regex is None and rule.check is None:
                raise ConfigError(f"forbidden_patterns[{i}]: needs a 'regex'")
        for name in ("max_program_chars", "max_program_lines", "time_limit_s", "memory_mb",
                     "program_time_limit_s", "chunk_tests"):
            check_range(name, getattr(self, name), gt=0)
        check_range("hidden_share", self.hidden_share, ge=0, lt=1)
        check_range("float_tol", self.float_tol, ge=0)
        if self.judge_options is None:
            object.__setattr__(self, "judge_options", MappingProxyType({}))

    @classmethod
    def expand_document(cls, value: Any) -> Any:
        """A forbidden pattern may be a bare regex, and its name defaults to the regex."""
        patterns = value.get("forbidden_patterns") if isinstance(value, Mapping) else None
        if not isinstance(patterns, (list, tuple)):
            return value
        return {**value, "forbidden_patterns": [_pattern(p) for p in patterns]}

    def rule_config(self) -> RuleConfig:
        rules = tuple(BUILTIN_RULES[n] for n in self.forbidden) + self.forbidden_patterns
        return RuleConfig(max_chars=self.max_program_chars, max_lines=self.max_program_lines,
                          forbidden=rules, detect_hardcoding=self.detect_hardcoding)


def parse_options(options: Mapping[str, Any]) -> CodeRewardConfig:
    """`CodeReward` keyword options as a config (`rewards.options.load_options`): a
    ConfigError names the bad option."""
    return load_options(CodeRewardConfig, options, where="rtv")


def _pattern(spec: Any) -> Any:
    if isinstance(spec, str):
        return {"name": spec, "regex": spec}
    if isinstance(spec, Mapping) and "regex" in spec and not spec.get("name"):
        return {**spec, "name": str(spec["regex"])}
    return spec  # a ForbiddenRule, or what the loader then refuses


def resolve_judge(config: CodeRewardConfig) -> Reward | None:
    judge = config.judge
    if judge is None:
        return None
    if isinstance(judge, str):
        from rewards.registry import resolve

        judge = resolve(judge)
        if isinstance(judge, type) or not hasattr(judge, "score"):
            try:
                judge = judge(**(config.judge_options or {})) if isinstance(judge, type) \
                    else judge
            except TypeError as exc:
                raise ConfigError(f"rtv: judge {config.judge!r}: bad judge_options: "
                                  f"{exc}") from exc
    if hasattr(judge, "score"):
        return judge
    if callable(judge):
        return FunctionReward(judge, getattr(judge, "__name__", "judge"))
    raise ConfigError(f"rtv: judge must be a Reward, a registered name, a dotted path or a "
                      f"callable, not {type(judge).__name__}")
