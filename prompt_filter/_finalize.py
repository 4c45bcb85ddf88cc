"""The end of a filter run: from the journaled scores to pass rates, the band, buckets and
the output files. A pure function of the journal and the job's options, so running it again
(after a kill, or with another band) writes the same bytes for the same inputs."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from prompt_filter._band import select_band
from prompt_filter._buckets import assign_buckets
from prompt_filter._inputs import ErrorRow, PromptRecord
from prompt_filter._pass_rate import PassRate, pass_rate, resolve_mode
from prompt_filter._report import histogram, plot_histogram, write_atomic, write_jsonl
from rewards.config import RewardConfig

if TYPE_CHECKING:
    from prompt_filter._job import FilterJob

__all__ = ["finalize"]


def finalize(job: FilterJob, config: RewardConfig, prompts: Mapping[str, PromptRecord],
             prompt_errors: Sequence[ErrorRow], prompt_rows: int,
             records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Select, bucket and write every output; return the stats."""
    scored: dict[str, list[tuple[float | None, str]]] = {pid: [] for pid in prompts}
    rollout_errors: list[dict[str, Any]] = []
    generated: list[dict[str, Any]] = []
    for record in records:
        for _, pid, value, reason in record["scores"]:
            scored[pid].append((value, reason))
        rollout_errors += record["errors"]
        for (_, pid, value, reason), (text, fin) in zip(record["scores"],
                                                         record.get("completions", [])):
            generated.append({"id": pid, "completion": text, "score": value, "reason": reason,
                              "finish_reason": fin})
    used = {pid: values[:job.n] for pid, values in scored.items()}
    mode = resolve_mode((v for values in used.values() for v, _ in values), job.mode)
    rates = {pid: pass_rate([v for v, _ in values], mode=mode, threshold=job.threshold)
             for pid, values in used.items()}
    selection = select_band(rates, job.band)
    buckets = assign_buckets({pid: r.pass_rate for pid, r in selection.kept.items()},  # type: ignore[misc]
                             k=job.buckets, easy_at=job.easy_at)

    kept_rows = [{**prompts[pid].row, **_rate_fields(rate), "bucket": buckets.labels[pid]}
                 for pid, rate in selection.kept.items()]
    dropped_rows = [{**prompts[pid].row, **_rate_fields(rate), "reason": reason,
                     "detail": _detail(reason, rate, used[pid], job)}
                    for pid, (rate, reason) in selection.dropped.items()]
    errors = [e.as_dict() for e in prompt_errors] + rollout_errors
    out = job.out
    write_jsonl(out / "kept.jsonl", kept_rows)
    write_jsonl(out / "dropped.jsonl", dropped_rows)
    write_jsonl(out / "errors.jsonl", errors)
    if job.policy is not None:
        write_jsonl(out / "rollouts.jsonl", generated)

    values = [r.pass_rate for r in rates.values() if r.pass_rate is not None]
    if mode == "binary":  # one bin per possible k/n, centred on it
        edges, counts = histogram(values, bins=job.n + 1, low=-0.5 / job.n,
                                  high=1 + 0.5 / job.n)
    else:
        edges, counts = histogram(values, bins=20)
    if job.plot:
        plot_histogram(out / "pass_rates.png", edges, counts, low=job.band.low,
                       high=job.band.high, title=f"pass rates of {len(values)} prompts "
                       f"({mode}, n={job.n}): {len(kept_rows)} kept")
    else:  # a histogram left by an earlier run would not describe this one
        (out / "pass_rates.png").unlink(missing_ok=True)
    stats = _stats(job, config, mode, prompt_rows, prompts, scored, used, selection, buckets,
                   errors, prompt_errors, edges, counts)
    write_atomic(out / "stats.json", (json.dumps(stats, indent=2) + "\n").encode())
    return stats


def _rate_fields(rate: PassRate) -> dict[str, Any]:
    return {"pass_rate": rate.pass_rate, "std": rate.std, "n_rollouts": rate.n_rollouts,
            "n_scored": rate.n_scored}


def _detail(reason: str, rate: PassRate, values: Sequence[tuple[float | None, str]],
            job: FilterJob) -> str:
    if reason == "too_easy":
        return f"pass rate {rate.pass_rate:.4g} > high {job.band.high:g}"
    if reason == "too_hard":
        return f"pass rate {rate.pass_rate:.4g} < low {job.band.low:g}"
    if reason == "low_std":
        return f"std {rate.std:.4g} < min_std {job.band.min_std:g}"
    if not values:
        return "no rollouts"
    why = Counter(r for v, r in values if v is None)
    return "no rollout was scored: " + ", ".join(f"{r} x{c}" for r, c in why.most_common())


def _stats(job: FilterJob, config: RewardConfig, mode: str, prompt_rows: int,
           prompts: Mapping[str, PromptRecord],
           scored: Mapping[str, list[tuple[float | None, str]]],
           used: Mapping[str, list[tuple[float | None, str]]], selection: Any, buckets: Any,
           errors: list[dict[str, Any]], prompt_errors: Sequence[ErrorRow],
           edges: list[float], counts: list[int]) -> dict[str, Any]:
    all_used = [x for values in used.values() for x in values]
    reasons = Counter(reason for _, reason in all_used)
    dropped = Counter(reason for _, reason in selection.dropped.values())
    kept_rates = [r.pass_rate for r in selection.kept.values()]
    rates = [r.pass_rate for r in list(selection.kept.values())
             + [rate for rate, _ in selection.dropped.values()] if r.pass_rate is not None]
    return {
        "source": {"prompts": str(job.prompts),
                   **({"rollouts": str(job.rollouts)} if job.rollouts is not None
                      else {"policy": job.policy})},
        "reward_config": config.content_hash(),
        "normalize_ignored": None if config.normalize == "none" else config.normalize,
        "mode": mode, "threshold": job.threshold if mode == "binary" else None, "n": job.n,
        "band": {"low": job.band.low, "high": job.band.high, "min_std": job.band.min_std},
        "prompts": {
            "rows": prompt_rows, "valid": len(prompts), "errors": len(prompt_errors),
            "kept": len(selection.kept),
            "dropped": {r: dropped.get(r, 0)
                        for r in ("too_easy", "too_hard", "unscorable", "low_std")},
            "fewer_than_n_rollouts": sum(1 for v in used.values() if len(v) < job.n)},
        "rollouts": {
            "used": len(all_used), "scored": sum(1 for v, _ in all_used if v is not None),
            "reasons": dict(sorted(reasons.items())),
            "beyond_n_ignored": sum(len(v) - len(used[p]) for p, v in scored.items()),
            "errors": len(errors) - len(prompt_errors)},
        "pass_rate": {"mean": sum(rates) / len(rates) if rates else None,
                      "mean_kept": sum(kept_rates) / len(kept_rates) if kept_rates else None,
                      "histogram": {"edges": edges, "counts": counts}},
        "buckets": {"k": job.buckets, "order": list(buckets.order), "edges": list(buckets.edges),
                    "counts": {b: sum(1 for label in buckets.labels.values() if label == b)
                               for b in buckets.order}},
    }
