"""Options of the RTV code reward: `CodeRewardConfig`, its layer `Weights`, and the
validation of the keyword options a reward config passes (`parse_options`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any, Literal, get_args

from rewards.code._rules import BUILTIN_RULES, BlockChoice, ForbiddenRule, RuleConfig
from rewards.errors import ConfigError
from rewards.types import FunctionReward, Reward

__all__ = ["LAYERS", "CodeRewardConfig", "Weights", "parse_options", "resolve_judge"]

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
    """Extra forbidden regexes: `{name, regex, scope?, description?}` in a config."""
    detect_hardcoding: bool = True
    """Flag programs that remember the tests' answers (Python)."""
    time_limit_s: float = 5.0
    """Wall-clock seconds per test."""
    memory_mb: int = 1024
    """Memory limit of a program run, in MiB."""
    hidden_share: float = 0.5
    """Formats without a public/hidden split hold back this share of their tests as hidden."""
    judge: Any = None
    """A `Reward` (object, registered name or dotted path) or a one-sample callable."""
    judge_options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """Keyword options for the judge's factory when `judge` names one."""
    rubric: str | None = None
    """Rubric handed to the judge in `sample.meta["rubric"]`."""
    compare: Literal["exact", "whitespace", "float"] = "whitespace"
    """How stdin/stdout tests compare output: exact (trailing newlines aside), whitespace
    (token by token) or float (token by token, numbers within 1e-6)."""
    max_workers: int | None = None
    """Parallel sandbox runs per batch (None: the sandbox's default)."""

    def rule_config(self) -> RuleConfig:
        rules = tuple(BUILTIN_RULES[n] for n in self.forbidden) + self.forbidden_patterns
        return RuleConfig(max_chars=self.max_program_chars, max_lines=self.max_program_lines,
                          forbidden=rules, detect_hardcoding=self.detect_hardcoding)


def parse_options(options: Mapping[str, Any]) -> CodeRewardConfig:
    """Validate `CodeReward` keyword options into a config; ConfigError names the bad one."""
    known = {f.name for f in fields(CodeRewardConfig)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ConfigError(f"rtv: unknown options {unknown}; known: {sorted(known)}")
    values = dict(options)
    if "weights" in values:
        values["weights"] = _weights(values["weights"])
    if "block" in values and values["block"] not in get_args(BlockChoice):
        raise ConfigError(f"rtv: block must be one of {get_args(BlockChoice)}")
    if "compare" in values and values["compare"] not in ("exact", "whitespace", "float"):
        raise ConfigError("rtv: compare must be exact, whitespace or float")
    if "unfenced" in values and values["unfenced"] not in ("code", "reject"):
        raise ConfigError("rtv: unfenced must be 'code' or 'reject'")
    if "forbidden" in values:
        names = values["forbidden"]
        if not isinstance(names, (list, tuple)) or any(n not in BUILTIN_RULES for n in names):
            raise ConfigError(f"rtv: forbidden must list built-in rules {sorted(BUILTIN_RULES)}")
        values["forbidden"] = tuple(names)
    if "forbidden_patterns" in values:
        values["forbidden_patterns"] = tuple(_pattern(p) for p in values["forbidden_patterns"])
    for key in ("time_limit_s", "memory_mb", "max_program_chars", "max_program_lines"):
        if key in values and not (isinstance(values[key], (int, float)) and values[key] > 0):
            raise ConfigError(f"rtv: {key} must be a positive number, not {values[key]!r}")
    share = values.get("hidden_share", 0.5)
    if not isinstance(share, (int, float)) or not 0.0 <= share < 1.0:
        raise ConfigError(f"rtv: hidden_share must be in [0, 1), not {share!r}")
    if "judge_options" in values:
        values["judge_options"] = MappingProxyType(dict(values["judge_options"] or {}))
    for key in ("gate", "detect_hardcoding"):
        if key in values and not isinstance(values[key], bool):
            raise ConfigError(f"rtv: {key} must be true or false")
    if not isinstance(values.get("language", "python"), str):
        raise ConfigError("rtv: language must be a string")
    return CodeRewardConfig(**values)


def _weights(spec: Any) -> Weights:
    if isinstance(spec, Weights):
        return spec
    if not isinstance(spec, Mapping) or set(spec) - set(LAYERS):
        raise ConfigError(f"rtv: weights must be a mapping with keys among {LAYERS}")
    if any(not isinstance(v, (int, float)) or v < 0 for v in spec.values()):
        raise ConfigError("rtv: weights must be numbers >= 0")
    weights = replace(Weights(), **{k: float(v) for k, v in spec.items()})
    if sum(getattr(weights, k) for k in LAYERS) <= 0:
        raise ConfigError("rtv: at least one weight must be positive")
    return weights


def _pattern(spec: Any) -> ForbiddenRule:
    if isinstance(spec, ForbiddenRule):
        return spec
    if isinstance(spec, str):
        spec = {"name": spec, "regex": spec}
    if not isinstance(spec, Mapping) or not isinstance(spec.get("regex"), str):
        raise ConfigError("rtv: each forbidden_patterns entry needs a 'regex'")
    scope = spec.get("scope", "all")
    if scope not in ("all", "function", "stdin"):
        raise ConfigError("rtv: a pattern's scope is all, function or stdin")
    try:
        return ForbiddenRule(str(spec.get("name") or spec["regex"]),
                             str(spec.get("description", "")), scope, spec["regex"])
    except ConfigError as exc:  # does not compile, or could not run in linear time
        raise ConfigError(f"rtv: bad forbidden pattern: {exc}") from exc


def resolve_judge(config: CodeRewardConfig) -> Reward | None:
    judge = config.judge
    if judge is None:
        return None
    if isinstance(judge, str):
        from rewards.registry import resolve

        judge = resolve(judge)
        if isinstance(judge, type) or not hasattr(judge, "score"):
            try:
                judge = judge(**config.judge_options) if isinstance(judge, type) else judge
            except TypeError as exc:
                raise ConfigError(f"rtv: judge {config.judge!r}: bad judge_options: "
                                  f"{exc}") from exc
    if hasattr(judge, "score"):
        return judge
    if callable(judge):
        return FunctionReward(judge, getattr(judge, "__name__", "judge"))
    raise ConfigError(f"rtv: judge must be a Reward, a registered name, a dotted path or a "
                      f"callable, not {type(judge).__name__}")
