"""The end of a filter run: from the journaled scores to pass rates, the band, buckets and
the output files. A pure function of the journal and the job's options, so running it again
(after a kill, or with another band) writes the same bytes for the same inputs.

The journal is streamed once; per prompt only its first n rewards are kept (a compact float
array, NaN for an abstention), so memory grows with prompts x n, not with the records.

Abstentions are counted by cause (`rewards.scoring.abstention_cause`). A prompt on whose
reference the reward abstained (`bad_reference:missing` or `:unparseable`) is a bad input row,
not a difficulty: it goes to errors.jsonl (file, line, field), never to kept or dropped,
however many of its other rollouts got a score. A run whose rollouts were not scored for a
configuration cause (an unknown domain ...) raises `ConfigurationAbstention` once every
output is written."""

from __future__ import annotations

import json
import math
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from prompt_filter._band import BandSelection, select_band
from prompt_filter._buckets import Buckets, assign_buckets
from prompt_filter._pass_rate import PassRate, pass_rate, resolve_mode
from prompt_filter._report import AtomicJsonl, histogram, plot_histogram, write_atomic, write_jsonl
from prompt_filter._spec import FilterJob
from rewards.config import RewardConfig
from rewards.io import ErrorRow, PromptRecord, column_of, prompt_sample
from rewards.scoring import AbstentionTally, abstention_cause
from rewards.types import Sample, Score

__all__ = ["Tally", "finalize"]


class Tally:
    """Each prompt's first `n` rewards in journal order, and counts of the rest."""

    def __init__(self, prompts: Mapping[str, PromptRecord], n: int, config: RewardConfig) -> None:
        self.n = n
        self.prompts = prompts
        self.values: dict[str, array[float]] = {pid: array("d") for pid in prompts}
        self.seen: dict[str, int] = dict.fromkeys(self.values, 0)
        self.abstained: dict[str, Counter[str]] = {}
        """Prompt -> why its used rollouts abstained, by cause (prompts with an abstention)."""
        self.reasons: Counter[str] = Counter()
        """Score reasons over all used rollouts."""
        self.causes = AbstentionTally(where="filter-prompts", domains=config.domains)
        """Used rollouts (and rollout rows that were no valid input) by abstention cause."""
        self._samples: dict[str, Sample] = {}

    def add(self, pid: str, value: float | None, reason: str) -> None:
        self.seen[pid] += 1
        if self.seen[pid] > self.n:
            return
        self.values[pid].append(math.nan if value is None else value)
        self.reasons[reason] += 1
        sample = self._samples.get(pid) or self._sample(pid)
        score = Score(value, reason)
        self.causes.add([sample], [score])
        if value is None:
            cause = abstention_cause(sample, score)
            self.abstained.setdefault(pid, Counter())[cause or reason] += 1

    def _sample(self, pid: str) -> Sample:
        """The prompt as a sample, for `abstention_cause` (which looks at its reference, and
        at the constraint columns in its meta), by the one rule (`rewards.io.prompt_sample`)."""
        sample = prompt_sample(self.prompts[pid], "")
        self._samples[pid] = sample
        return sample

    def rewards(self, pid: str) -> list[float | None]:
        return [None if math.isnan(v) else v for v in self.values[pid]]


def finalize(job: FilterJob, config: RewardConfig, prompts: Mapping[str, PromptRecord],
             prompt_errors: Sequence[ErrorRow], prompt_rows: int,
             records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Select, bucket and write every output; return the stats."""
    out = job.out
    tally = Tally(prompts, job.n, config)
    rollout_errors = 0
    errors = AtomicJsonl(out / "errors.jsonl")
    generated = AtomicJsonl(out / "rollouts.jsonl") if job.policy is not None else None
    for error in prompt_errors:
        errors.write(error.as_dict())
    for record in records:
        for _, pid, value, reason in record["scores"]:
            tally.add(pid, value, reason)
        for error in record["errors"]:
            errors.write(error)
        tally.causes.add_cause("input_error", record["rows"] - len(record["scores"]))
        rollout_errors += len(record["errors"])
        if generated is not None:
            for (_, pid, value, reason), (text, fin) in zip(record["scores"],
                                                             record["completions"]):
                generated.write({"id": pid, "completion": text, "score": value,
                                 "reason": reason, "finish_reason": fin})

    bad_references = _bad_references(job, prompts, tally)
    for error in bad_references.values():
        errors.write(error.as_dict())
    usable = [pid for pid in prompts if pid not in bad_references]
    mode = resolve_mode((v for pid in usable for v in tally.rewards(pid)), job.mode)
    rates = {pid: pass_rate(tally.rewards(pid), mode=mode, threshold=job.threshold)
             for pid in usable}
    selection = select_band(rates, job.band)
    buckets = assign_buckets({pid: r.pass_rate for pid, r in selection.kept.items()
                              if r.pass_rate is not None},  # kept: scored, so never None
                             k=job.buckets, easy_at=job.easy_at)
    write_jsonl(out / "kept.jsonl",
                ({**prompts[pid].row, **_rate_fields(rate), "bucket": buckets.labels[pid]}
                 for pid, rate in selection.kept.items()))
    write_jsonl(out / "dropped.jsonl",
                ({**prompts[pid].row, **_rate_fields(rate), "reason": reason,
                  "detail": _detail(reason, rate, tally.abstained.get(pid), job)}
                 for pid, (rate, reason) in selection.dropped.items()))
    errors.commit()
    if generated is not None:
        generated.commit()

    values = _rated(selection)
    if mode == "binary":  # one bin per possible k/n, centred on it
        edges, counts = histogram(values, bins=job.n + 1, low=-0.5 / job.n,
                                  high=1 + 0.5 / job.n)
    else:
        edges, counts = histogram(values, bins=20)
    if job.plot:
        plot_histogram(out / "pass_rates.png", edges, counts, low=job.band.low,
                       high=job.band.high, title=f"pass rates of {len(values)} prompts "
                       f"({mode}, n={job.n}): {len(selection.kept)} kept")
    else:  # a histogram left by an earlier run would not describe this one
        (out / "pass_rates.png").unlink(missing_ok=True)
    stats = _stats(job, config, mode, prompt_rows, len(prompts), tally, selection, buckets,
                   len(prompt_errors), rollout_errors, edges, counts)
    stats["prompts"]["bad_reference"] = len(bad_references)
    write_atomic(out / "stats.json", (json.dumps(stats, indent=2) + "\n").encode())
    tally.causes.check("raise")  # once every output is written, like `rewards score`
    return stats


def _bad_references(job: FilterJob, prompts: Mapping[str, PromptRecord],
                    tally: Tally) -> dict[str, ErrorRow]:
    """An error row for each prompt the reward abstained on for its reference (a
    `bad_reference:...` cause), in prompt order."""
    field = column_of(job.prompt_map, "reference")
    bad = {}
    for pid, record in prompts.items():
        causes = tally.abstained.get(pid, Counter())
        blamed = {c: k for c, k in causes.items() if c.startswith("bad_reference")}
        if blamed:
            why = ", ".join(f"{r} x{c}" for r, c in sorted(blamed.items()))
            bad[pid] = ErrorRow(str(job.prompts), record.line, field,
                                f"unusable reference: the reward abstained on it ({why} of "
                                f"{len(tally.values[pid])} rollouts); prompt {pid!r} not rated")
    return bad


def _rated(selection: BandSelection[str]) -> list[float]:
    """The pass rates that got a verdict (not those of unscorable prompts), in input order
    within kept, then dropped."""
    return [r.pass_rate for r in selection.kept.values() if r.pass_rate is not None] + [
        r.pass_rate for r, reason in selection.dropped.values()
        if reason != "unscorable" and r.pass_rate is not None]


def _rate_fields(rate: PassRate) -> dict[str, Any]:
    return {"pass_rate": rate.pass_rate, "std": rate.std, "n_rollouts": rate.n_rollouts,
            "n_scored": rate.n_scored}


def _detail(reason: str, rate: PassRate, abstained: Counter[str] | None, job: FilterJob) -> str:
    if reason == "too_easy":
        return f"pass rate {rate.pass_rate:.4g} > high {job.band.high:g}"
    if reason == "too_hard":
        return f"pass rate {rate.pass_rate:.4g} < low {job.band.low:g}"
    if reason == "low_std":
        return f"std {rate.std:.4g} < min_std {job.band.min_std:g}"
    if not abstained:
        return "no rollouts"
    why = ", ".join(f"{r} x{c}" for r, c in abstained.most_common())
    if rate.n_scored == 0:
        return f"no rollout was scored: {why}"
    return (f"{rate.n_scored} of {rate.n_rollouts} rollouts scored, a verdict needs "
            f"{job.band.needed_scored(rate.n_rollouts)}: {why}")


def _stats(job: FilterJob, config: RewardConfig, mode: str, prompt_rows: int, valid: int,
           tally: Tally, selection: BandSelection[str], buckets: Buckets[str], prompt_errors: int,
           rollout_errors: int, edges: list[float], counts: list[int]) -> dict[str, Any]:
    used = sum(len(v) for v in tally.values.values())
    abstained = sum(sum(c.values()) for c in tally.abstained.values())
    dropped = Counter(reason for _, reason in selection.dropped.values())
    kept_rates = [r.pass_rate for r in selection.kept.values() if r.pass_rate is not None]
    rates = _rated(selection)
    return {
        "source": {"prompts": str(job.prompts),
                   **({"rollouts": str(job.rollouts)} if job.rollouts is not None
                      else {"policy": job.policy})},
        "reward_config": config.content_hash(),
        "normalize_ignored": None if config.normalize == "none" else config.normalize,
        "mode": mode, "threshold": job.threshold if mode == "binary" else None, "n": job.n,
        "band": {"low": job.band.low, "high": job.band.high, "min_std": job.band.min_std,
                 "min_scored": job.band.min_scored},
        "prompts": {
            "rows": prompt_rows, "valid": valid, "errors": prompt_errors,
            "kept": len(selection.kept),
            "dropped": {r: dropped.get(r, 0)
                        for r in ("too_easy", "too_hard", "unscorable", "low_std")},
            "fewer_than_n_rollouts": sum(1 for s in tally.seen.values() if s < job.n)},
        "rollouts": {
            "used": used, "scored": used - abstained,
            "reasons": dict(sorted(tally.reasons.items())),
            "abstained": tally.causes.counts(),
            "beyond_n_ignored": sum(max(s - job.n, 0) for s in tally.seen.values()),
            "errors": rollout_errors},
        "pass_rate": {"mean": sum(rates) / len(rates) if rates else None,
                      "mean_kept": sum(kept_rates) / len(kept_rates) if kept_rates else None,
                      "histogram": {"edges": edges, "counts": counts}},
        "buckets": {"k": job.buckets, "order": list(buckets.order), "edges": list(buckets.edges),
                    "counts": {b: sum(1 for label in buckets.labels.values() if label == b)
                               for b in buckets.order}},
    }
