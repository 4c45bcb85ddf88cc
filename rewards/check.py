"""`rewards check`: a dry run of a reward config over the first rows of a dataset, before a
long job. It routes each row to its domain, asks each component what it can tell without
scoring (does the reference parse, what answer does the completion give), and counts the rows
that would abstain and why, with the causes and hints of `rewards.scoring`. Nothing runs in
the sandbox and no model is loaded: it reads a bounded sample, so it takes a second or two on
any size.

A component tells what it can through `check(samples) -> list[SampleCheck]` (the optional
`Checkable` protocol); the math and code rewards are checked here with their own public
pieces (`rewards.math.compare` on no answer decides the reference without a worker,
`extract_answer`; `rewards.code.parse_reference`, `extract_program`); `use: ifeval` answers
`check` itself (its constraints per reference, how many the completion follows). A component
with neither
(a reward model, a custom function) is listed as not checked: its rows are not counted as
abstaining."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from rewards.config import ComponentConfig, RewardConfig
from rewards.errors import ConfigError, InputError
from rewards.io import (
    count_rows,
    input_kind,
    iter_rows,
    map_domain,
    row_to_sample,
    source_name,
)
from rewards.scoring import AbstentionTally, abstention_cause
from rewards.types import Sample, Score

__all__ = ["DEFAULT_ROWS", "CheckReport", "Checkable", "SampleCheck", "check_component",
           "check_rows"]

DEFAULT_ROWS = 1000
"""Rows read by default: enough to see every common problem, fast on any input."""
_COUNT_LIMIT = 64 << 20
"""Text inputs up to this size are counted exactly; larger ones are estimated."""


@dataclass(frozen=True)
class SampleCheck:
    """What a reward can tell about one sample without scoring it."""

    reference: str | None
    """The reference as the reward reads it (math: the gold answer; code: its tests), for
    people; None when it cannot use it."""
    answer: str | None = None
    """What the reward takes from the completion (math: the final answer; code: the
    program's first line); None: nothing found, or no completion."""
    abstain: str | None = None
    """The reason the reward would abstain with (`bad_reference`), None if it would score."""
    detail: str = ""
    """Why, for people (the parser's message)."""


@runtime_checkable
class Checkable(Protocol):
    """A reward that can check samples without scoring them (optional)."""

    def check(self, samples: Sequence[Sample]) -> list[SampleCheck]: ...


def check_component(reward: Any, samples: Sequence[Sample]) -> list[SampleCheck] | None:
    """One `SampleCheck` per sample from a built component, or None when it cannot tell
    (neither `check` nor a built-in checker). Wrappers (`.reward`) are looked through."""
    from rewards.code import CodeReward
    from rewards.math import MathReward

    while not isinstance(reward, (Checkable, MathReward, CodeReward)) and hasattr(
            getattr(reward, "reward", None), "score"):
        reward = reward.reward
    if isinstance(reward, MathReward):
        return _math_checks(reward, samples)
    if isinstance(reward, CodeReward):
        return _code_checks(reward, samples)
    if isinstance(reward, Checkable):
        checks = list(reward.check(samples))
        if len(checks) != len(samples) or not all(isinstance(c, SampleCheck) for c in checks):
            raise ConfigError(f"reward {getattr(reward, 'name', reward)!r}: check() must "
                              "return one SampleCheck per sample")
        return checks
    return None


def _math_checks(reward: Any, samples: Sequence[Sample]) -> list[SampleCheck]:
    from rewards.math import compare, extract_answer, prepare_reference

    checks = []
    for s in samples:
        verdict = compare(None, s.reference, reward.config)  # no answer: never a worker
        answer = extract_answer(s.completion, reward.config) if s.completion else None
        bad = verdict.reason == "bad_reference"
        checks.append(SampleCheck(None if bad else prepare_reference(s.reference), answer,
                                  "bad_reference" if bad else None, verdict.detail if bad else ""))
    return checks


def _code_checks(reward: Any, samples: Sequence[Sample]) -> list[SampleCheck]:
    from rewards.code import BadReference, extract_program, parse_reference

    config = reward.config

    def program(completion: str, language: str) -> str | None:
        found = extract_program(completion, language=language, block=config.block,
                                unfenced=config.unfenced).program if completion else None
        return _first_line(found) if found else None

    checks = []
    for s in samples:
        try:
            task = parse_reference(s.reference, language=config.language,
                                   hidden_share=config.hidden_share)
        except BadReference as exc:
            checks.append(SampleCheck(None, program(s.completion, config.language),
                                      "bad_reference", str(exc)))
            continue
        tests = f"{len(task.public.tests)} public + {len(task.hidden.tests)} hidden " \
                f"{task.public.kind} tests ({task.language})"
        checks.append(SampleCheck(tests, program(s.completion, task.language)))
    return checks


def _first_line(program: str) -> str:
    lines = [line for line in program.splitlines() if line.strip()]
    first = lines[0].strip() if lines else ""
    size = "1 line" if len(lines) == 1 else f"{len(lines)} lines"
    return (first[:60] + "...") if len(first) > 60 else f"{first} ({size})"


# --- the report ------------------------------------------------------------------------------


@dataclass
class ComponentReport:
    """One component of a domain, over the domain's sampled rows."""

    name: str
    use: str
    weight: float
    checked: bool
    references_ok: int = 0
    answers: int = 0
    causes: Counter[str] = field(default_factory=Counter)
    first_problem: str = ""


@dataclass
class DomainReport:
    """One config domain, over the sampled rows routed to it."""

    name: str
    rows: int = 0
    completions: int = 0
    components: list[ComponentReport] = field(default_factory=list)
    abstain: Counter[str] = field(default_factory=Counter)
    """Rows every weighted component would abstain on, by cause (the first component's)."""
    examples: list[tuple[int, str | None, str | None]] = field(default_factory=list)
    row_causes: list[str | None] = field(default_factory=list, repr=False)
    """Per sampled row, in order: the cause it would abstain with, or None."""


@dataclass
class CheckReport:
    """What `check_rows` found; `render()` is the text `rewards check` prints."""

    source: str
    read: int
    total: int | None
    total_estimated: bool
    routing: Counter[tuple[str, str, str | None]] = field(default_factory=Counter)
    """(domain in the data, after --domain-map, config domain or None) -> rows."""
    domains: dict[str, DomainReport] = field(default_factory=dict)
    input_errors: list[InputError] = field(default_factory=list)
    columns: str = ""
    """The first valid row's columns, nested keys one level down (`reward_model.{...}`)."""
    failures: list[str] = field(default_factory=list)
    """One line per domain (of the data) that would score nothing; empty: the data is fine."""

    def render(self) -> str:
        return "\n".join(_render(self)) + "\n"


def check_rows(source: str | Path | Any, config: RewardConfig, *,
               mapping: Mapping[str, str] | None = None,
               domain_map: Mapping[str, str] | None = None, rows: int = DEFAULT_ROWS,
               examples: int = 3) -> CheckReport:
    """Check the first `rows` rows of `source` (a path or a dataset object) against
    `config`; no other row is read. See the module docstring."""
    from rewards.build import build_component
    from rewards.registry import resolve

    if rows < 1:
        raise ConfigError(f"rows must be >= 1, not {rows}")
    name = source_name(source)
    domain_map = domain_map or {}
    samples: list[tuple[int, str, Sample]] = []  # (line, domain in the data, sample)
    report = CheckReport(name, 0, None, False)
    for line, row in itertools.islice(iter_rows(source), rows):
        report.read += 1
        try:
            if isinstance(row, InputError):
                raise row
            report.columns = report.columns or _columns(row)
            sample = row_to_sample(row, mapping=mapping, source=name, line=line,
                                   completion_required=False)
        except InputError as exc:
            report.input_errors.append(exc)
            continue
        mapped = map_domain(sample.domain, domain_map)
        samples.append((line, sample.domain, replace(sample, domain=mapped)))
    report.total, report.total_estimated = _total(source, report.read, rows)
    by_domain: dict[str, list[tuple[int, Sample]]] = defaultdict(list)
    for line, value, sample in samples:
        routed = _routed(sample.domain, config)
        report.routing[(value, sample.domain, routed)] += 1
        if routed is not None:
            by_domain[routed].append((line, sample))
    built: dict[str, Any] = {}
    for domain, members in by_domain.items():
        report.domains[domain] = _check_domain(domain, config.domains[domain].rewards, members,
                                               examples, built, build_component, resolve)
    report.failures = _failures(report, config, samples)
    return report


def _columns(row: Mapping[str, Any]) -> str:
    names = [f"{k}.{{{', '.join(map(str, v))}}}" if isinstance(v, Mapping) and v else str(k)
             for k, v in row.items()]
    return ", ".join(names)


def _total(source: Any, read: int, limit: int) -> tuple[int | None, bool]:
    """(rows in the input, estimated?): exact when cheap, else from the sampled rows' size."""
    if read < limit:
        return read, False
    kind = input_kind(source) if isinstance(source, (str, Path)) else "object"
    if kind in ("object", "parquet", "dataset", "arrow"):  # metadata, or memory-mapped
        return count_rows(source), False
    path = Path(source)
    size = path.stat().st_size
    if size <= _COUNT_LIMIT:
        return count_rows(path), False
    if kind == "json":  # one array: no cheap count, no line to scale by
        return None, False
    with path.open("rb") as fh:  # the bytes the sampled rows took, scaled to the file
        head = sum(len(fh.readline()) for _ in range(read))
    return (round(size * read / head) if head else None), True


def _check_domain(domain: str, components: Sequence[ComponentConfig],
                  members: list[tuple[int, Sample]], examples: int, built: dict[str, Any],
                  build: Any, resolve: Any) -> DomainReport:
    from rewards.code import CodeReward
    from rewards.math import MathReward

    report = DomainReport(domain, rows=len(members),
                          completions=sum(1 for _, s in members if s.completion))
    samples = [s for _, s in members]
    results: list[list[SampleCheck] | None] = []
    for component in components:
        factory = resolve(component.use)
        checkable = factory in (MathReward, CodeReward) or hasattr(factory, "check")
        checks = None
        if checkable:
            key = repr(component)
            if key not in built:
                built[key] = build(component)
            checks = check_component(built[key], samples)
        results.append(checks if component.weight > 0 else None)
        part = ComponentReport(component.name, component.use, component.weight,
                               checks is not None)
        for (line, sample), check in zip(members, checks or ()):
            part.answers += check.answer is not None
            if check.abstain is None:
                part.references_ok += 1
                continue
            part.causes[_cause(sample, check.abstain)] += 1
            part.first_problem = part.first_problem or f"line {line}: {check.detail or check.abstain}"
        report.components.append(part)
    weighted = [r for c, r in zip(components, results) if c.weight > 0]
    decided = bool(weighted) and all(r is not None for r in weighted)
    for i, (line, sample) in enumerate(members):
        checks = [r[i] for r in weighted if r is not None]
        cause = None
        if decided and all(c.abstain is not None for c in checks):
            cause = _cause(sample, checks[0].abstain or "")
            report.abstain[cause] += 1
        elif len(report.examples) < examples and checks:
            report.examples.append((line, checks[0].reference, checks[0].answer))
        report.row_causes.append(cause)
    return report


def _cause(sample: Sample, reason: str) -> str:
    return abstention_cause(sample, Score(None, reason)) or reason


def _failures(report: CheckReport, config: RewardConfig,
              samples: list[tuple[int, str, Sample]]) -> list[str]:
    """One line per domain value of the data whose sampled rows would all abstain, with the
    hints of `AbstentionTally` for configuration causes and the first parser message."""
    failures = []
    if report.read and not samples:
        failures.append(f"none of the {report.read} sampled rows is valid input (first: "
                        f"{report.input_errors[0]}): check the file and --map")
    position: Counter[str] = Counter()
    by_value: dict[str, list[tuple[Sample, str | None, str]]] = defaultdict(list)
    for _, value, sample in samples:
        routed = _routed(sample.domain, config)
        if routed is None:
            by_value[value].append((sample, "unknown_domain", ""))
            continue
        domain = report.domains[routed]
        cause = domain.row_causes[position[routed]]
        position[routed] += 1
        first = next((c.first_problem for c in domain.components if c.first_problem), "")
        by_value[value].append((sample, cause, first))
    for value, rows in sorted(by_value.items()):
        if any(cause is None for _, cause, _ in rows):
            continue
        tally = AbstentionTally(where="", domains=config.domains)
        tally.add([s for s, _, _ in rows], [Score(None, (c or "").split(":")[0])
                                            for _, c, _ in rows])
        causes = Counter(c for _, c, _ in rows)
        why = tally.failure() or (f"all {len(rows)} sampled rows would abstain: "
                                  + "; ".join(f"{c} x{n}" for c, n in causes.most_common()))
        first = next((f for _, _, f in rows if f), "")
        note = f" (first: {first})" if first else ""
        if causes.get("unknown_domain"):
            note = f" (try --domain-map {value}=DOMAIN, DOMAIN one of {', '.join(sorted(config.domains))})"
        failures.append(f"domain {value!r} would score nothing: {why}{note}")
    return failures


def _routed(domain: str, config: RewardConfig) -> str | None:
    """The config domain a sample of `domain` is scored by (as `DomainRouter` routes)."""
    if domain in config.domains:
        return domain
    return "default" if "default" in config.domains else None


# --- rendering -------------------------------------------------------------------------------


def _render(report: CheckReport) -> list[str]:
    total = "?" if report.total is None else f"{'~' if report.total_estimated else ''}" \
                                                f"{report.total:,}"
    out = [f"checked the first {report.read:,} of {total} rows of {report.source}"]
    if report.columns:
        out.append(f"columns: {_cut(report.columns, 400)}")
    out += ["",
           f"{'domain in the data':<28} {'rows':>7}  scored as"]
    for (value, mapped, routed), n in sorted(report.routing.items(), key=lambda kv: -kv[1]):
        target = routed if routed is not None else f"nothing (unknown_domain {mapped!r})"
        via = f" (--domain-map {value}={mapped})" if mapped != value else ""
        out.append(f"{_cut(value, 28):<28} {n:>7}  {target}{via}")
    for domain in report.domains.values():
        out += ["", f"{domain.name}: {_rows(domain.rows)}, {domain.completions} with a completion"]
        for c in domain.components:
            label = f"  {c.name} ({c.use}, weight {c.weight:g})"
            if not c.checked:
                out.append(f"{label}: not checked (only scoring runs it)")
                continue
            bad = ", ".join(f"{k} x{n}" for k, n in c.causes.most_common())
            out.append(f"{label}: references usable {c.references_ok} of {domain.rows}"
                       + (f" ({bad}; first {c.first_problem})" if bad else "")
                       + (f", answers found {c.answers} of {domain.completions}"
                          if domain.completions else ""))
        abstain = sum(domain.abstain.values())
        causes = ", ".join(f"{k} x{n}" for k, n in domain.abstain.most_common())
        out.append(f"  would abstain: {abstain}" + (f" ({causes})" if causes else ""))
        for line, reference, answer in domain.examples:
            out.append(f"    line {line}: reference {_cut(reference, 60)}  ->  answer "
                       f"{_cut(answer, 60)}")
    if report.input_errors:
        out += ["", f"input errors: {len(report.input_errors)} of {report.read} rows"]
        out += [f"  {exc}" for exc in report.input_errors[:5]]
    out.append("")
    ok = "ok: every domain in the sample would be scored"
    out += [f"FAIL: {f}" for f in report.failures] or [ok]
    return out


def _rows(n: int) -> str:
    return f"{n} row" if n == 1 else f"{n} rows"


def _cut(text: str | None, width: int) -> str:
    if text is None:
        return "-"
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."
