"""The filter's outputs: JSONL files and `stats.json`, written atomically (a temporary file
renamed into place, so a kill never leaves half a file under the final name), and the
histogram of pass rates with the kept band marked."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rewards.deps import require_installed

__all__ = ["AtomicJsonl", "histogram", "plot_histogram", "require_matplotlib", "write_atomic", "write_jsonl"]



def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that `path` holds either the old or the new content."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    with AtomicJsonl(path) as out:
        for row in rows:
            out.write(row)


class AtomicJsonl:
    """A JSONL file written row by row to `<path>.tmp`; `commit()` renames it into place."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp = path.with_name(path.name + ".tmp")
        self._fh = self.tmp.open("w", encoding="utf-8")

    def write(self, row: dict[str, Any]) -> None:
        self._fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")

    def commit(self) -> None:
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._fh.close()
        os.replace(self.tmp, self.path)

    def __enter__(self) -> AtomicJsonl:  # noqa: PYI034 (typing.Self: 3.11+)
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.commit()
        else:
            self._fh.close()


def histogram(values: Sequence[float], *, bins: int, low: float = 0.0, high: float = 1.0
              ) -> tuple[list[float], list[int]]:
    """Equal-width bins over [low, high] (widened to cover every value); edges and counts.
    A value on an inner edge counts in the bin above it; the last bin is closed."""
    low = min([low, *values])
    high = max([high, *values])
    width = (high - low) / bins
    edges = [low + i * width for i in range(bins + 1)]
    counts = [0] * bins
    for v in values:
        counts[min(int((v - low) / width), bins - 1)] += 1
    return edges, counts


def require_matplotlib() -> None:
    """Fail before any scoring starts, rather than at the end, when matplotlib is missing."""
    require_installed("matplotlib", extra="filter", feature="the pass-rate histogram",
                      hint=" (or pass --no-plot)")


def plot_histogram(path: Path, edges: Sequence[float], counts: Sequence[int], *, low: float,
                   high: float, title: str) -> None:
    """A bar chart of prompts per pass-rate bin, the kept band [low, high] shaded."""
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(7, 4), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    widths = [b - a for a, b in itertools.pairwise(edges)]
    ax.bar(edges[:-1], counts, width=widths, align="edge", color="#4c72b0", edgecolor="white")
    ax.axvspan(low, high, color="#55a868", alpha=0.15, label=f"kept band [{low:g}, {high:g}]")
    for x in (low, high):
        ax.axvline(x, color="#55a868", linestyle="--", linewidth=1.5)
    ax.set_xlabel("pass rate")
    ax.set_ylabel("prompts")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(title)
    ax.legend(loc="upper center")
    fig.tight_layout()
    # No Software/date metadata: the same data gives the same bytes, run after run.
    tmp = path.with_name(path.name + ".tmp")
    fig.savefig(tmp, format="png", metadata={"Software": None})
    os.replace(tmp, path)
