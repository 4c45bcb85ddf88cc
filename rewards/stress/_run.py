"""Run every component of a reward config against its probes, on real rows: the gold gate
first (the reference in every layout scores full marks; empty, blank, invisible-only and
prompt-echo replies score 0; scoring is deterministic; a broken reference abstains), then
each probe, its credit compared with the row's honest wrong answer."""

from __future__ import annotations

import resource
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rewards.config import ComponentConfig, RewardConfig
from rewards.mixing import route_domain
from rewards.registry import resolve_named
from rewards.stress._probe import INVISIBLE, Probe, ProbeSet, Row
from rewards.types import Reward, Sample, Score

__all__ = ["BUILTIN_PROBES", "ComponentResult", "GateResult", "ProbeResult", "StressReport",
           "as_dict", "probe_set_for", "stress_config", "stress_reward"]

BUILTIN_PROBES: dict[str, str] = {
    "math": "rewards.math._probes:PROBES",
    "rtv": "rewards.code._probes:PROBES",
    "ifeval": "rewards.ifeval._probes:PROBES",
    "tool_call": "rewards.envs._tool_call_probes:PROBES",
    "format": "rewards.reasoning._probes:FORMAT_PROBES",
    "tag_count": "rewards.reasoning._probes:TAG_COUNT_PROBES",
    "reasoning_steps": "rewards.reasoning._probes:STEPS_PROBES",
    "repetition": "rewards.reasoning._probes:REPETITION_PROBES",
    "length": "rewards.reasoning._probes:LENGTH_PROBES",
    "cosine": "rewards.reasoning._probes:LENGTH_PROBES",
    "overlong": "rewards.reasoning._probes:LENGTH_PROBES",
    "genrm": "genrm:GENRM_PROBES",
    "rm": "genrm:RM_PROBES",
}
"""Where each built-in `use:` keeps its probes (dotted paths, imported when stressed). A
plugin declares its own as a `probes` attribute (a `ProbeSet`) on its factory or reward."""

EPS = 1e-9


@dataclass
class GateResult:
    check: str
    """gold | empty | blank | invisible | echo | deterministic | broken_reference"""
    rows: int = 0
    failed: int = 0
    example: str = ""


@dataclass
class ProbeResult:
    cls: str
    name: str
    hint: str = ""
    rows: int = 0
    credited: int = 0
    masked: int = 0
    samples: int = 0
    seconds: float = 0.0
    rss_growth_mb: float = 0.0
    example: str = ""
    errors: int = 0
    """Rows the probe itself could not build from (a bug in the probe: reported)."""

    @property
    def share(self) -> float:
        """The share of rows where the probe earned credit or masked its 0."""
        return (self.credited + self.masked) / self.rows if self.rows else 0.0


@dataclass
class ComponentResult:
    domain: str
    name: str
    use: str
    probed: bool
    note: str = ""
    rows: int = 0
    gate: list[GateResult] = field(default_factory=list)
    probes: list[ProbeResult] = field(default_factory=list)


@dataclass
class StressReport:
    components: list[ComponentResult]
    seconds: float = 0.0

    def failures(self, max_credit: float) -> list[str]:
        """What fails the run: a gate check that failed on any row, a probe whose share of
        credited or masked rows is above `max_credit`."""
        out = []
        for c in self.components:
            out += [f"{c.domain}/{c.name}: gate {g.check} failed on {g.failed} of {g.rows} rows"
                    for g in c.gate if g.failed]
            out += [f"{c.domain}/{c.name}: {p.cls}/{p.name} earned credit on "
                    f"{p.credited + p.masked} of {p.rows} rows" + (
                        f" ({p.masked} masked)" if p.masked else "")
                    + (f" - {p.hint}" if p.hint else "")
                    for p in c.probes if p.share > max_credit]
        return out

    def unprobed(self) -> list[str]:
        return [f"{c.domain}/{c.name} ({c.use}): {c.note}" for c in self.components
                if not c.probed]


def probe_set_for(component: ComponentConfig, built: Reward) -> ProbeSet | None:
    """The component's probes: a `probes` attribute on the reward (or on what it wraps), or
    the built-in set for its `use:` name; None when it has none."""
    for obj in (built, getattr(built, "reward", None), getattr(built, "inner", None)):
        declared = getattr(obj, "probes", None)
        if isinstance(declared, ProbeSet):
            return declared
    if component.use not in BUILTIN_PROBES:
        return None
    probes: ProbeSet = resolve_named(component.use, BUILTIN_PROBES, what="probe set")
    return probes


def stress_config(config: RewardConfig, samples: Sequence[Sample], *, rows: int = 6,
                  progress: Callable[[str], None] | None = None) -> StressReport:
    """Stress every component of every domain of `config` on up to `rows` rows of its domain
    from `samples` (one per group where groups are given)."""
    from rewards.build import build_component

    started = time.perf_counter()
    by_domain: dict[str, list[Sample]] = defaultdict(list)
    for sample in samples:
        domain = route_domain(config.domains, sample.domain)  # as scoring routes it
        if domain is not None:
            by_domain[domain].append(replace(sample, domain=domain))
    from rewards.build import nested_component_configs

    results = []
    for domain, spec in config.domains.items():
        components = list(spec.rewards)
        for component in spec.rewards:  # `cosine`'s `of: math`: stressed as its own too
            components += [replace(nested, name=f"{component.name}.{nested.name}")
                           for nested in nested_component_configs(component)]
        for component in components:
            if progress:
                progress(f"{domain}/{component.name}")
            built = build_component(component)
            probe_set = probe_set_for(component, built)
            result = ComponentResult(domain, component.name, component.use, probe_set is not None)
            if probe_set is None:
                result.note = "no probes: unprobed, not safe"
            else:
                chosen = _choose(by_domain.get(domain, []), probe_set, rows)
                if not chosen:
                    result.probed = False
                    result.note = "no usable row of this domain to build probes from"
                else:
                    _stress_component(built, probe_set, chosen, result)
            results.append(result)
    return StressReport(results, time.perf_counter() - started)


def stress_reward(reward: Reward, samples: Sequence[Sample], *, probes: ProbeSet | None = None,
                  rows: int = 6, name: str | None = None, domain: str = "default") -> StressReport:
    """Stress one reward object (a plugin, in Python) on `samples`: with `probes`, or the
    `probes` attribute it declares. All samples are its rows, whatever their domain."""
    started = time.perf_counter()
    probe_set = probes if probes is not None else getattr(reward, "probes", None)
    label = str(name or getattr(reward, "name", type(reward).__name__))
    result = ComponentResult(domain, label, label, isinstance(probe_set, ProbeSet))
    if not isinstance(probe_set, ProbeSet):
        result.note = "no probes: unprobed, not safe"
    else:
        chosen = _choose(samples, probe_set, rows)
        if chosen:
            _stress_component(reward, probe_set, chosen, result)
        else:
            result.probed = False
            result.note = "no usable row to build probes from"
    return StressReport([result], time.perf_counter() - started)


def _choose(samples: Sequence[Sample], probe_set: ProbeSet, rows: int) -> list[Sample]:
    chosen, groups = [], set()
    for sample in samples:
        try:
            usable = probe_set.usable(sample)
        except Exception:  # noqa: BLE001 - a row the set cannot read is not usable
            usable = False
        key = sample.group if sample.group is not None else id(sample)
        if usable and key not in groups:
            groups.add(key)
            chosen.append(sample)
        if len(chosen) >= rows:
            break
    return chosen


def _score(reward: Reward, samples: Sequence[Sample]) -> list[Score]:
    """Through the one batch-scoring function: a sample whose scoring raises is an error row
    (`Score(None, "error")`), which a probe counts as masking; broken infrastructure raises."""
    from rewards.scoring import score_batch

    return score_batch(reward, list(samples)).scores


def _stress_component(reward: Reward, probe_set: ProbeSet, chosen: list[Sample],
                      result: ComponentResult) -> None:
    gate: dict[str, GateResult] = {}

    def record(check: str, ok: bool, example: str) -> None:
        g = gate.setdefault(check, GateResult(check))
        g.rows += 1
        if not ok:
            g.failed += 1
            g.example = g.example or example[:300]

    for sample in chosen:
        layouts = list(probe_set.good(sample)) if probe_set.good else []
        wrong = probe_set.wrong(sample)
        blanks = {"empty": "", "blank": " \n\t \n", "invisible": INVISIBLE * 12}
        if probe_set.echo_is_zero and isinstance(sample.prompt, str) and sample.prompt.strip():
            blanks["echo"] = sample.prompt
        batch = [*layouts, sample.completion, wrong, *blanks.values()]
        first = _score(reward, [replace(sample, completion=c, turns=()) for c in batch])
        second = _score(reward, [replace(sample, completion=c, turns=()) for c in batch])
        record("deterministic", [s.value for s in first] == [s.value for s in second],
               f"{[s.value for s in first]} then {[s.value for s in second]}")
        for text, score in zip(layouts, first):
            record("gold", score.value is not None and score.value >= 1.0 - EPS,
                   f"gold {text!r} scored {score.value} ({score.reason})")
        own, baseline = first[len(layouts)], first[len(layouts) + 1]
        for (check, text), score in zip(blanks.items(), first[len(layouts) + 2:]):
            # nothing at all scores 0; an echo of the prompt no more than an honest wrong
            # answer (a rule layer may give a well-formed wrong program its format credit)
            relative = check == "echo" or probe_set.blank_at_most_wrong
            limit = baseline.value + probe_set.tolerance \
                if relative and baseline.value is not None else 0.0
            record(check, score.value is not None and score.value <= limit + EPS,
                   f"{text[:60]!r} scored {score.value} ({score.reason})")
        for reference in probe_set.broken_references(sample):
            (score,) = _score(reward, [replace(sample, reference=reference)])
            record("broken_reference", score.value is None
                   and score.reason.startswith("bad_reference"),
                   f"reference {reference!r} scored {score.value} ({score.reason})")
        good = next((t for t, s in zip(layouts, first) if s.value is not None
                     and s.value >= 1.0 - EPS), None)
        if good is None and own.value is not None and own.value >= 1.0 - EPS:
            good = sample.completion
        if baseline.value is None:
            record("wrong_scores", False, f"an honest wrong answer {wrong[:60]!r} abstained "
                                          f"({baseline.reason})")
            continue
        result.rows += 1
        for probe in probe_set.probes:
            _run_probe(reward, probe, Row(sample, good, wrong), baseline.value, result,
                       probe_set.tolerance)
    result.gate = list(gate.values())


def _run_probe(reward: Reward, probe: Probe, row: Row, baseline: float,
               result: ComponentResult, tolerance: float = 0.0) -> None:
    found = next((p for p in result.probes if p.name == probe.name and p.cls == probe.cls), None)
    if found is None:
        found = ProbeResult(probe.cls, probe.name, probe.hint)
        result.probes.append(found)
    try:
        built = list(probe.build(row))
    except Exception as exc:  # noqa: BLE001 - a probe that cannot build is reported, not run
        found.errors += 1
        found.example = found.example or f"the probe could not build: {type(exc).__name__}: {exc}"
        return
    if not built:
        return
    # an item is an attack (str or Sample, judged against the row's honest wrong answer) or
    # a pair (attack, what a reader sees), judged against the plain text's own score
    attacks = [b[0] if isinstance(b, tuple) else b for b in built]
    plains = [b[1] for b in built if isinstance(b, tuple)]
    samples = [b if isinstance(b, Sample) else replace(row.sample, completion=b, turns=()) for b in attacks]
    rss = _peak_rss_mb()
    start = time.perf_counter()
    if probe.runs_in_order:
        scores = [_score(reward, [s])[0] for s in samples][-1:]
    else:
        scores = _score(reward, samples)
    found.seconds += time.perf_counter() - start
    found.samples += len(samples)
    found.rss_growth_mb = max(found.rss_growth_mb, _peak_rss_mb() - rss)
    plain_scores = iter(_score(reward, [replace(row.sample, completion=p, turns=()) for p in plains]))
    limits: list[float | None] = [baseline] * len(scores)
    if plains:
        limits = [next(plain_scores).value if isinstance(b, tuple) else baseline
                  for b in built]
    found.rows += 1
    if probe.judge is not None:
        _judge_probe(probe.judge, samples, scores, found)
        return
    failed = None
    for i, (score, limit) in enumerate(zip(scores, limits)):
        if score.value is None:
            found.masked += 1
            failed = (i, score, limit)
            break
        over = limit is not None and score.value > limit + tolerance + EPS
        if over or (probe.max_value is not None and score.value >= probe.max_value - EPS):
            found.credited += 1
            failed = (i, score, limit)
            break
    if failed and not found.example:
        i, score, limit = failed
        text = samples[-1 if probe.runs_in_order else i].completion
        found.example = (f"{text[:200]!r} scored {score.value} ({score.reason}) against "
                         f"{limit} for {'what a reader sees' if plains and isinstance(built[i], tuple) else 'an honest wrong answer'}")


def _judge_probe(judge: Callable[[Sequence[Score]], tuple[int, str] | None],
                 samples: Sequence[Sample], scores: Sequence[Score], found: ProbeResult) -> None:
    """A probe that judges its own scores (`Probe.judge`); an abstention masks first."""
    masked = next((i for i, s in enumerate(scores) if s.value is None), None)
    if masked is not None:
        found.masked += 1
        verdict: tuple[int, str] | None = (masked, f"abstained ({scores[masked].reason})")
    else:
        verdict = judge(scores)
        found.credited += verdict is not None
    if verdict is not None and not found.example:
        i, why = verdict
        found.example = f"{samples[i].completion[:200]!r}: {why}"


def _peak_rss_mb() -> float:
    """Peak resident memory of this process and its waited-for children, in MiB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024.0


def as_dict(report: StressReport, max_credit: float) -> dict[str, Any]:
    """The JSON report."""
    return {
        "seconds": round(report.seconds, 3),
        "max_credit": max_credit,
        "failures": report.failures(max_credit),
        "unprobed": report.unprobed(),
        "components": [{
            "domain": c.domain, "name": c.name, "use": c.use, "probed": c.probed,
            "note": c.note, "rows": c.rows,
            "gate": [vars(g) for g in c.gate],
            "probes": [{"class": p.cls, "name": p.name, "rows": p.rows,
                        "credited": p.credited, "masked": p.masked, "errors": p.errors,
                        "share": round(p.share, 4),
                        "ms_per_sample": round(1000 * p.seconds / max(p.samples, 1), 3),
                        "rss_growth_mb": round(p.rss_growth_mb, 1), "example": p.example,
                        "hint": p.hint}
                       for p in c.probes],
        } for c in report.components],
    }
