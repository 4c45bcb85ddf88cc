"""`rewards check`: a dry run of a reward config over the first rows of a dataset, before a
long job, that says what `rewards score` will do on them.

It takes score's own path up to the sandbox and the models: the same reader and column
mapping (`rewards.io`), the same built reward (`rewards.build.build_reward`: every domain of
the config, so a plugin that cannot be imported fails here as it would there), the same
routing, and each component's own steps: the math reward compares the answers as it scores
(the reference parsed by the same worker), the code reward runs its Rule layer (the
reference parsed, the program found and checked: `CodeReward.check`), a component with a
`check` method (`rewards.types.Checkable`) says what it can (`use: ifeval`: its constraints
per reference and how many the completion follows). A component with neither (a
reward model, a custom function) is listed as not checked: its rows count as scored.
The rows that would abstain are counted with the causes of `rewards.scoring`, and the run
fails by the one rule that `rewards score` and the server apply (`rewards.scoring.RUN_RULE`).
Nothing runs in the sandbox and no model is loaded."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

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
from rewards.mixing import route_domain
from rewards.scoring import (
    ERROR_REASON,
    NO_VALUE,
    AbstentionPolicy,
    AbstentionTally,
    abstention_cause,
)
from rewards.types import Checkable, Sample, SampleCheck, Score, with_completion

__all__ = ["COMPLETION_COLUMNS", "DEFAULT_ROWS", "CheckReport", "Checkable", "SampleCheck",
           "check_component", "check_rows", "completion_column", "missing_completion_note"]

DEFAULT_ROWS = 1000
"""Rows read by default: enough to see every common problem, fast on any input."""
_COUNT_LIMIT = 64 << 20
"""Text inputs up to this size are counted exactly; larger ones are estimated."""


def check_component(reward: Any, samples: Sequence[Sample]) -> list[SampleCheck] | None:
    """One `SampleCheck` per sample from a built component, or None when it cannot tell.
    A `Checkable` reward checks itself; the math reward is run as it scores (by its rules:
    a judge model is never loaded); `answer_after` is applied as scoring applies it; other
    wrappers (`.reward`) are looked through.

    As `rewards.scoring.score_batch` scores: if checking the batch raises (a reference
    nested too deeply for its parser ...) and the error is not broken infrastructure, the
    samples are checked one by one, and the one that raises is that row's `error` (the
    reason scoring gives it), never a crash of the check."""
    from rewards.types import gold_ambiguity

    ambiguous = [gold_ambiguity(s) for s in samples]
    if not any(ambiguous):
        return _check_each(reward, samples)
    # as scoring does (`score_batch`): a row whose gold columns differ abstains unread
    kept = [s for s, why in zip(samples, ambiguous) if not why]
    found = _check_each(reward, kept) if kept else []
    if found is None:
        return None
    checked = iter(found)
    return [SampleCheck(None, None, "bad_reference", why) if why else next(checked)
            for why in ambiguous]


def _check_each(reward: Any, samples: Sequence[Sample]) -> list[SampleCheck] | None:
    from rewards.errors import INFRASTRUCTURE_ERRORS

    try:
        return _check_component(reward, samples)
    except INFRASTRUCTURE_ERRORS:
        raise
    except Exception as exc:  # noqa: BLE001 - find the poison sample, as score_batch does
        if len(samples) <= 1:
            return _poison_checks(exc, samples)
    checks: list[SampleCheck] = []
    for sample in samples:
        try:
            one = _check_component(reward, [sample])
        except INFRASTRUCTURE_ERRORS:
            raise
        except Exception as exc:  # noqa: BLE001 - this sample's error row
            one = _poison_checks(exc, [sample])
        if one is None:
            return None
        checks.extend(one)
    return checks


def _poison_checks(exc: Exception, samples: Sequence[Sample]) -> list[SampleCheck]:
    why = f"{type(exc).__name__}: {exc}"[:300]
    return [SampleCheck(None, None, ERROR_REASON, f"checking it raised {why}")
            for _ in samples]


def _check_component(reward: Any, samples: Sequence[Sample]) -> list[SampleCheck] | None:
    from rewards.answer_after import AnswerAfter
    from rewards.math import MathReward

    if isinstance(reward, AnswerAfter):
        return _answer_after_checks(reward, samples)
    if isinstance(reward, Checkable):
        checks = list(reward.check(samples))
        if len(checks) != len(samples) or not all(isinstance(c, SampleCheck) for c in checks):
            raise ConfigError(f"reward {getattr(reward, 'name', reward)!r}: check() must "
                              "return one SampleCheck per sample")
        return checks
    if isinstance(reward, MathReward):
        return _math_checks(reward, samples)
    inner = getattr(reward, "reward", None)
    if hasattr(inner, "score"):
        return _check_component(inner, samples)
    return None


def _answer_after_checks(reward: Any, samples: Sequence[Sample]) -> list[SampleCheck] | None:
    """As `AnswerAfter.score`: the inner reward sees the text after the marker; a completion
    without it scores 0.0 (`no_answer`), never an abstention."""
    from rewards.answer_after import text_after

    after = [text_after(s.completion, reward.markers) if isinstance(s.completion, str) else None
             for s in samples]
    inner = _check_component(reward.reward, [with_completion(s, a or "")
                                             for s, a in zip(samples, after)])
    if inner is None:
        return None
    return [c if a is not None else replace(c, answer=None, abstain=None,
                                            detail="no answer marker")
            for c, a in zip(inner, after)]


def _math_checks(reward: Any, samples: Sequence[Sample]) -> list[SampleCheck]:
    """The math reward scores the samples as `rewards score` would (its workers parse the
    references) by its rules; nothing else is run: a judge (a language model) is not asked,
    so no model is loaded (a pair the rules call wrong shows as the rules' verdict). A
    sample without an answer is not compared, so its reference is read only as far as
    scoring reads it."""
    import copy

    from rewards.math import extract_answer, prepare_reference

    if getattr(reward, "judge", None) is not None:
        reward = copy.copy(reward)  # the same config and verdict cache, no judge
        reward.judge = None
    scores = reward.score(samples)
    checks = []
    for s, score in zip(samples, scores):
        answer = extract_answer(s.completion, reward.config) \
            if isinstance(s.completion, str) and s.completion else None
        bad = score.value is None and score.reason == "bad_reference"
        reference = None if bad else prepare_reference(s.reference)
        checks.append(SampleCheck(reference, answer, score.reason if score.value is None
                                  else None, "the reference does not parse" if bad else ""))
    return checks


# --- a completion under another name -------------------------------------------------------

COMPLETION_COLUMNS = ("response", "responses", "output", "outputs", "generation",
                      "generations", "generated_text", "model_output", "model_response",
                      "prediction", "solution_str", "completions")
"""Column names that datasets and trainers give the model's output (veRL's `solution_str`,
TRL's `completions`, ...): a row with one of them and no completion is a rollout whose
completion column is misnamed, never a prompt."""


def completion_column(row: Mapping[str, Any]) -> str | None:
    """The column of `row` that holds the model's output under another name, or None."""
    return next((c for c in COMPLETION_COLUMNS if c in row), None)


def missing_completion_note(row: Mapping[str, Any], mapping: Mapping[str, str] | None,
                            source: str, line: int) -> str:
    """What `rewards score` and `rewards check` say when no row has a completion: the field,
    the first row, and the `--map` that fixes it."""
    from rewards.io import column_of

    field = column_of(mapping or {}, "completion")
    what = f"no {field!r} field in any row (file {source}, line {line})"
    found = completion_column(row)
    if found is not None and field == "completion":
        return f"{what}; found {found!r}: add --map {found}=completion"
    columns = ", ".join(sorted(map(str, row))[:12]) or "none"
    return f"{what}; columns: {columns}: add --map COLUMN=completion for the model's output"


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
    first_missing: str = ""
    """The first row with a completion but no answer, and why (the reward's detail)."""


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
    completion_note: str = ""
    """Set when rows lack a completion and name it otherwise (`missing_completion_note`)."""

    def render(self) -> str:
        return "\n".join(_render(self)) + "\n"


def check_rows(source: str | Path | Any, config: RewardConfig, *,
               mapping: Mapping[str, str] | None = None,
               domain_map: Mapping[str, str] | None = None, rows: int = DEFAULT_ROWS,
               examples: int = 3, share: float = 1.0) -> CheckReport:
    """Check the first `rows` rows of `source` (a path or a dataset object) against
    `config`; no other row is read. `share`: the abstention share that fails the run, as
    `rewards score --abstain-share` (see `rewards.scoring.RUN_RULE`). See the module
    docstring."""
    from rewards.build import build_reward

    if rows < 1:
        raise ConfigError(f"rows must be >= 1, not {rows}")
    router = build_reward(config)  # as score builds it: every domain, every component
    routes: Mapping[str, Any] = getattr(router, "domains", {})
    name = source_name(source)
    domain_map = domain_map or {}
    samples: list[tuple[int, str, Sample]] = []  # (line, domain in the data, sample)
    report = CheckReport(name, 0, None, False)
    no_completion: list[tuple[int, InputError]] = []
    misnamed: tuple[int, Mapping[str, Any]] | None = None  # a completion under another name
    for line, row in itertools.islice(iter_rows(source), rows):
        report.read += 1
        try:
            if isinstance(row, InputError):
                raise row
            report.columns = report.columns or _columns(row)
            sample = row_to_sample(row, mapping=mapping, source=name, line=line,
                                   completion_required=False)
            missing = _missing_completion(row, mapping, name, line)
            if missing is not None:  # a prompt row, or a rollout row without its completion
                no_completion.append((line, missing))
                if misnamed is None and (completion_column(row) is not None
                                         or "completion" in (mapping or {}).values()):
                    misnamed = (line, row)
        except InputError as exc:
            report.input_errors.append(exc)
            continue
        mapped = map_domain(sample.domain, domain_map)
        samples.append((line, sample.domain, replace(sample, domain=mapped)))
    if misnamed is not None and len(no_completion) == len(samples):  # rollouts, misnamed
        report.completion_note = missing_completion_note(misnamed[1], mapping, name,
                                                         misnamed[0])
    if len(no_completion) < len(samples) or report.completion_note:  # rollouts: a row
        lines = {line for line, _ in no_completion}  # without one is an input error, as
        # rewards score reads it
        samples = [item for item in samples if item[0] not in lines]
        report.input_errors = sorted([*report.input_errors,
                                      *(exc for _, exc in no_completion)],
                                     key=lambda exc: exc.line or 0)
    report.total, report.total_estimated = _total(source, report.read, rows)
    by_domain: dict[str, list[tuple[int, Sample]]] = defaultdict(list)
    for line, value, sample in samples:
        routed = _routed(sample.domain, routes)
        report.routing[(value, sample.domain, routed)] += 1
        if routed is not None:
            by_domain[routed].append((line, sample))
    for domain, members in by_domain.items():
        report.domains[domain] = _check_domain(domain, config.domains[domain].rewards,
                                               routes[domain], members, examples)
    report.failures = _failures(report, routes, samples, share)
    return report


def _missing_completion(row: Mapping[str, Any], mapping: Mapping[str, str] | None, name: str,
                        line: int) -> InputError | None:
    """The error `rewards score` gives a valid prompt row for having no completion, or None
    when it has one."""
    try:
        row_to_sample(row, mapping=mapping, source=name, line=line, completion_required=True)
    except InputError as exc:  # the row reads without a completion: only that is missing
        return exc
    return None


def _columns(row: Mapping[str, Any]) -> str:
    names = [f"{k}.{{{', '.join(map(str, v))}}}" if isinstance(v, Mapping) and v else str(k)
             for k, v in row.items()]
    return ", ".join(names)


def _total(source: Any, read: int, limit: int) -> tuple[int | None, bool]:
    """(rows in the input, estimated?): exact when cheap, else from the sampled rows' size."""
    if read < limit:
        return read, False
    kind = input_kind(source) if isinstance(source, (str, Path)) else "object"
    if kind in ("object", "parquet", "dataset", "arrow"):  # metadata, or batch lengths
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


def _components(specs: Sequence[ComponentConfig], reward: Any) -> list[tuple[ComponentConfig, Any]]:
    """Each configured component of a domain with the reward `build_reward` made of it (the
    domain's `Mixture` holds them in the config's order)."""
    built = [c.reward for c in getattr(reward, "components", ())]
    if len(built) != len(specs):
        raise ConfigError(f"the built reward of a domain has {len(built)} components for "
                          f"{len(specs)} configured")
    return list(zip(specs, built))


def _check_domain(domain: str, specs: Sequence[ComponentConfig], reward: Any,
                  members: list[tuple[int, Sample]], examples: int) -> DomainReport:
    report = DomainReport(domain, rows=len(members),
                          completions=sum(1 for _, s in members if s.completion))
    samples = [s for _, s in members]
    components = _components(specs, reward)
    results: list[list[SampleCheck] | None] = []
    for spec, built in components:
        checks = check_component(built, samples)
        results.append(checks if spec.weight > 0 else None)
        part = ComponentReport(spec.name, spec.use, spec.weight, checks is not None)
        for (line, sample), check in zip(members, checks or ()):
            part.answers += check.answer is not None
            if check.answer is None and check.abstain is None and check.detail \
                    and sample.completion:
                part.first_missing = part.first_missing or f"line {line}: {check.detail}"
            if check.abstain is None:
                part.references_ok += 1
                continue
            part.causes[_cause(sample, check.abstain)] += 1
            part.first_problem = part.first_problem or f"line {line}: {check.detail or check.abstain}"
        report.components.append(part)
    weighted = [r for (spec, _), r in zip(components, results) if spec.weight > 0]
    decided = bool(weighted) and all(r is not None for r in weighted)
    for i, (line, sample) in enumerate(members):
        checks = [r[i] for r in weighted if r is not None]
        cause = None
        if not weighted:  # every component weight 0 (logged only): the domain gives no value
            cause = NO_VALUE
            report.abstain[cause] += 1
        elif decided and all(c.abstain is not None for c in checks):
            cause = _cause(sample, checks[0].abstain or "")
            report.abstain[cause] += 1
        elif len(report.examples) < examples and checks:
            report.examples.append((line, checks[0].reference, checks[0].answer))
        report.row_causes.append(cause)
    return report


def _cause(sample: Sample, reason: str) -> str:
    return abstention_cause(sample, Score(None, reason)) or reason


def _failures(report: CheckReport, routes: Mapping[str, Any],
              samples: list[tuple[int, str, Sample]], share: float) -> list[str]:
    """The run's failures by the rule `rewards score` applies (`AbstentionTally`), each
    with the first parser message of its domain or a --domain-map hint."""
    tally = AbstentionTally(AbstentionPolicy(share=share), where="", domains=routes)
    position: Counter[str] = Counter()
    first: dict[str, str] = {}
    for _, value, sample in samples:
        routed = _routed(sample.domain, routes)
        if routed is None:
            tally.add_row(sample.domain, "unknown_domain")
            first.setdefault(sample.domain, f"try --domain-map {value}=DOMAIN, DOMAIN one of "
                                            f"{', '.join(sorted(routes))}")
            continue
        domain = report.domains[routed]
        cause = domain.row_causes[position[routed]]
        position[routed] += 1
        tally.add_row(sample.domain, cause)
        problem = next((c.first_problem for c in domain.components if c.first_problem), "")
        if cause is not None and problem:
            first.setdefault(sample.domain, f"first: {problem}")
    tally.add_cause("input_error", len(report.input_errors))
    failures = []
    for failure in tally.failures():
        named = next((d for d in first if failure.startswith(f"domain {d!r}:")), None)
        if named is None and len(first) == 1 and not failure.startswith("domain "):
            named = next(iter(first))  # the whole run: one domain of the data
        if report.completion_note:
            failure += f": {report.completion_note}"
        elif not samples and report.input_errors:
            failure += f" (first: {report.input_errors[0]})"
        elif named is not None:
            failure += f" ({first[named]})"
        failures.append(failure)
    return failures


def _routed(domain: str, routes: Mapping[str, Any]) -> str | None:
    """The config domain a sample of `domain` is scored by: the one rule of
    `rewards.mixing.route_domain` (a row with no domain under a one-domain config: that
    domain), which `DomainRouter` and `rewards score` route by."""
    return route_domain(routes, domain)


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
                          if domain.completions else "")
                       + (f" (none: {_cut(c.first_missing, 120)})"
                          if c.first_missing and c.answers < domain.completions else ""))
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
