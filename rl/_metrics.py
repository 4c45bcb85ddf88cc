"""The metrics of a run: one JSONL line per step (`MetricsLog`, with the reward curve plot) and
the `perf/...` timings of a step (`perf_metrics`)."""

from __future__ import annotations

import json
import math
import resource
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["MetricsLog", "perf_metrics"]


class MetricsLog:
    """Metrics as JSONL, one line per step (`{"step": n, "reward/mean": ...}`), and a PNG
    plot of the reward curve. On resume the lines after the checkpoint's step are dropped,
    so the log reads as one uninterrupted run."""

    def __init__(self, path: str | Path, *, resume_step: int = 0) -> None:
        self.path = Path(path)
        self.rows: list[dict[str, Any]] = []
        if resume_step > 0 and self.path.exists():
            for line in self.path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    if row.get("step", 0) <= resume_step:
                        self.rows.append(row)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("w") as fh:
            for row in self.rows:
                fh.write(json.dumps(row) + "\n")

    def log(self, step: int, metrics: Mapping[str, float]) -> dict[str, Any]:
        row = {"step": step, **{k: _plain_number(v) for k, v in metrics.items()}}
        self.rows.append(row)
        with self.path.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        return row

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


def _plain_number(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def perf_metrics(step_start: float, *, rollout_seconds: float, train_seconds: float,
                 tokens: float) -> dict[str, float]:
    """`perf/...` of one step that began at `step_start` (a `time.perf_counter()` reading)."""
    step_seconds = time.perf_counter() - step_start
    return {"perf/rollout_seconds": rollout_seconds, "perf/train_seconds": train_seconds,
            "perf/step_seconds": step_seconds, "perf/tokens_per_second": tokens / step_seconds,
            "perf/peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
