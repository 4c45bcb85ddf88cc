"""The stress report for people: a table on the terminal and a picture (share of rows each
attack class earned credit on, per component)."""

from __future__ import annotations

import math
from pathlib import Path

from rewards.stress._run import StressReport

__all__ = ["plot", "render"]


def render(report: StressReport, max_credit: float) -> str:
    lines = []
    for c in report.components:
        head = f"{c.domain}/{c.name} (use: {c.use})"
        if not c.probed:
            lines.append(f"{head}: UNPROBED - {c.note}")
            continue
        lines.append(f"{head}: {c.rows} rows")
        for g in c.gate:
            mark = "ok  " if not g.failed else "FAIL"
            lines.append(f"  {mark} gate {g.check:<18} {g.rows - g.failed}/{g.rows} rows"
                         + (f"  e.g. {g.example}" if g.failed else ""))
        lines.append(f"  {'':4} {'class':<18} {'probe':<28} {'credit':>8} {'ms/sample':>10} "
                     f"{'+MiB':>6}")
        for p in c.probes:
            mark = "FAIL" if p.share > max_credit else "ok  "
            credit = f"{p.credited + p.masked}/{p.rows}"
            lines.append(f"  {mark} {p.cls:<18} {p.name:<28} {credit:>8} "
                         f"{1000 * p.seconds / max(p.samples, 1):>10.2f} "
                         f"{p.rss_growth_mb:>6.0f}" + (f"  e.g. {p.example}"
                                                       if p.share > max_credit else ""))
    failures = report.failures(max_credit)
    unprobed = report.unprobed()
    lines.append("")
    lines.append(f"{sum(len(c.probes) for c in report.components)} probes on "
                 f"{sum(c.probed for c in report.components)} components in "
                 f"{report.seconds:.1f} s; {len(failures)} failing"
                 + (f"; {len(unprobed)} unprobed (not safe: no probes ran)" if unprobed else ""))
    lines += [f"FAIL {f}" for f in failures]
    return "\n".join(lines) + "\n"


def plot(report: StressReport, path: Path) -> str | None:
    """A heat map of credited share per (component, attack class) at `path`; the reason it
    was not drawn when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "no picture: matplotlib is not installed (pip install -e '.[filter]')"
    probed = [c for c in report.components if c.probed and c.probes]
    classes = sorted({p.cls for c in probed for p in c.probes})
    if not probed or not classes:
        return "no picture: no component was probed"
    grid = [[max((p.share for p in c.probes if p.cls == k), default=float("nan"))
             for k in classes] for c in probed]
    fig, ax = plt.subplots(figsize=(1.1 * len(classes) + 3, 0.5 * len(probed) + 2))
    image = ax.imshow(grid, vmin=0.0, vmax=1.0, cmap="Reds", aspect="auto")
    ax.set_xticks(range(len(classes)), classes, rotation=45, ha="right")
    ax.set_yticks(range(len(probed)), [f"{c.domain}/{c.name}" for c in probed])
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            if not math.isnan(value):  # the class was probed on this component
                ax.text(j, i, f"{value:.0%}", ha="center", va="center", fontsize=8)
    fig.colorbar(image, ax=ax, label="share of rows where the attack earned credit")
    ax.set_title("rewards stress: credit earned by attack class")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return None
