"""The metrics of a run: one JSONL line per step (`MetricsLog`, with the completions tables, the
reward curve plot and the experiment trackers it feeds) and the `perf/...` timings of a step
(`perf_metrics`, with `time/reward_wait`)."""

from __future__ import annotations

import json
import math
import resource
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rl._tracking import RESCORE_FIELDS, Tracker

__all__ = ["MetricsLog", "perf_metrics"]


class MetricsLog:
    """The log of a run, always on: metrics as JSONL, one line per step (`{"step": n,
    "reward/mean": ...}`), the completions tables as JSONL (`completions.jsonl`, one line per
    completion), and a PNG plot of the reward curve, rewritten every `plot_every` steps.
    Every row also goes to the experiment `trackers` (`rl._tracking`, the config's
    `report_to`). On resume the lines after the checkpoint's step are dropped, so the log
    reads as one uninterrupted run."""

    def __init__(self, path: str | Path, *, resume_step: int = 0,
                 trackers: Sequence[Tracker] = (), plot_every: int = 0) -> None:
        self.path = Path(path)
        self.completions_path = self.path.parent / "completions.jsonl"
        self.plot_path = self.path.parent / "reward_curve.png"
        self.trackers = list(trackers)
        self.plot_every = plot_every
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.rows = _keep_until(self.path, resume_step)
        _keep_until(self.completions_path, resume_step)

    def log(self, step: int, metrics: Mapping[str, float]) -> dict[str, Any]:
        row = {"step": step, **{k: _plain_number(v) for k, v in metrics.items()}}
        self.rows.append(row)
        with self.path.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        logged = {k: v for k, v in row.items() if k != "step" and v is not None}
        for tracker in self.trackers:
            tracker.log(step, logged)
        if self.plot_every and step % self.plot_every == 0:
            self.plot(self.plot_path)
        return row

    def log_table(self, step: int, rows: Sequence[Mapping[str, Any]]) -> None:
        """A completions table (`rl._tracking.completion_rows`) of `step`."""
        rows = [{k: _plain_number(v) for k, v in row.items()} for row in rows]
        with self.completions_path.open("a") as fh:
            for row in rows:
                fh.write(json.dumps({"step": step, **row}, default=str) + "\n")
        shown = [{k: v for k, v in row.items() if k not in RESCORE_FIELDS} for row in rows]
        for tracker in self.trackers:
            tracker.log_table(step, shown)

    def tracker_state(self) -> dict[str, Any]:
        """What the trackers need to continue their runs on resume (saved in checkpoints)."""
        return {k: v for tracker in self.trackers for k, v in tracker.state().items()}

    def close(self) -> None:
        """Finish the trackers' runs (the JSONL files are closed after every write)."""
        for tracker in self.trackers:
            tracker.close()
        self.trackers = []

    def plot(self, png: str | Path, *, key: str = "reward/mean") -> Path | None:
        """Plot `key` against the step (matplotlib, no display needed). None if matplotlib
        is missing or nothing was logged."""
        points = [(r["step"], r[key]) for r in self.rows if r.get(key) is not None]
        if not points:
            return None
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return None
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", label=key)
        ax.set_xlabel("step")
        ax.set_ylabel(key)
        ax.grid(alpha=0.3)
        ax.set_title(f"{key} ({self.path.parent.name})")
        fig.tight_layout()
        fig.savefig(png, dpi=100)
        plt.close(fig)
        return Path(png)


def _keep_until(path: Path, step: int) -> list[dict[str, Any]]:
    """Rewrite the JSONL log `path` with only its lines up to `step` (0: none); those rows."""
    rows: list[dict[str, Any]] = []
    if step > 0 and path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                if row.get("step", 0) <= step:
                    rows.append(row)
    if rows or path.exists():
        with path.open("w") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
    return rows


def _plain_number(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def perf_metrics(step_start: float, *, rollout_seconds: float, train_seconds: float,
                 tokens: float, reward_wait: float) -> dict[str, float]:
    """`perf/...` of one step that began at `step_start` (a `time.perf_counter()` reading),
    and `time/reward_wait`: the seconds the step waited on the reward after its last
    generation returned (`rl._episodes.Rollouts.pop_reward_wait`: all of the scoring when
    the step scores after generating, only the last chunk's tail under `reward_overlap`),
    with `time/reward_wait_share`, that over the step's wall time."""
    step_seconds = time.perf_counter() - step_start
    return {"time/reward_wait": reward_wait, "time/reward_wait_share": reward_wait / step_seconds,
            "perf/rollout_seconds": rollout_seconds, "perf/train_seconds": train_seconds,
            "perf/step_seconds": step_seconds, "perf/tokens_per_second": tokens / step_seconds,
            "perf/peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
