"""Rescore saved rollouts with the current reward and say which verdicts flipped: what a
verifier fix (or a new config) would have changed in a finished run, by reason and by training
step (`rewards rescore`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rewards.scoring import score_batch
from rewards.types import Reward, Sample, Score

__all__ = ["Flip", "RescoreReport", "rescore"]

EPS = 1e-9


@dataclass(frozen=True)
class Flip:
    """One rollout whose reward changed."""

    line: int
    step: int | None
    old: float | None
    new: float | None
    old_reason: str | None
    new_reason: str

    @property
    def kind(self) -> str:
        """gained (more reward now), lost (less), abstains (scored then, abstains now),
        scores (abstained then, scores now)."""
        if self.old is None:
            return "scores"
        if self.new is None:
            return "abstains"
        return "gained" if self.new > self.old else "lost"


@dataclass
class RescoreReport:
    rows: int = 0
    flips: list[Flip] = field(default_factory=list)

    def by_reason(self) -> Counter[tuple[str, str, str]]:
        """(kind, old reason, new reason) -> count."""
        return Counter((f.kind, f.old_reason or "?", f.new_reason) for f in self.flips)

    def by_step(self) -> dict[int | None, Counter[str]]:
        """step -> kind -> count."""
        out: dict[int | None, Counter[str]] = defaultdict(Counter)
        for f in self.flips:
            out[f.step][f.kind] += 1
        return dict(out)

    def render(self) -> str:
        lines = [f"rescored {self.rows} rollouts: {len(self.flips)} verdicts changed"
                 + (f" ({len(self.flips) / self.rows:.1%})" if self.rows else "")]
        if self.flips:
            lines.append(f"{'change':<10} {'reason then':<22} {'reason now':<22} {'rows':>6}")
            for (kind, old, new), count in self.by_reason().most_common():
                lines.append(f"{kind:<10} {old:<22} {new:<22} {count:>6}")
            steps = self.by_step()
            if any(step is not None for step in steps):
                lines.append(f"{'step':>6} {'gained':>7} {'lost':>6} {'abstains':>9} "
                             f"{'scores':>7}")
                for step in sorted(steps, key=lambda s: (s is None, s or 0)):
                    c = steps[step]
                    lines.append(f"{'?' if step is None else step:>6} {c['gained']:>7} "
                                 f"{c['lost']:>6} {c['abstains']:>9} {c['scores']:>7}")
        return "\n".join(lines) + "\n"


def rescore(reward: Reward, samples: Sequence[Sample], old: Sequence[tuple[float | None,
            str | None]], *, lines: Sequence[int] | None = None,
            steps: Sequence[int | None] | None = None, batch_size: int = 256) -> RescoreReport:
    """Score `samples` again and compare with `old` ((value, reason) per sample, in order):
    every sample whose value changed (by more than 1e-9, or between scored and abstained)
    is a `Flip`."""
    report = RescoreReport(rows=len(samples))
    for start in range(0, len(samples), batch_size):
        chunk = list(samples[start:start + batch_size])
        scores: list[Score] = score_batch(reward, chunk).scores
        for i, score in enumerate(scores, start):
            was, was_reason = old[i]
            if _same(was, score.value):
                continue
            report.flips.append(Flip(lines[i] if lines else i + 1,
                                     steps[i] if steps else None, was, score.value,
                                     was_reason, score.reason))
    return report


def _same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(float(a) - float(b)) <= EPS
