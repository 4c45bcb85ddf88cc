"""One report shape and one exit rule for every benchmark in this folder.

Every benchmark prints, in this order:
- a header: the command as it was run, the UTC date, the machine (CPUs this process may use,
  the processor, Python) and the load average when it started;
- its own tables (what it measured, ours and the peer's, in one run);
- a footer: the load average at the end, one line per target (measured, target, met or NOT
  met), one line per verdict check (how many verdicts were right), and one result line.

The exit rule, the same for all:
- 0: every verdict right and every target met;
- 1: a verdict is wrong (a benchmark that compares verdicts found one it cannot explain); a
  wrong verdict is never traded for speed, so this outranks a missed target;
- 3: every verdict right, a speed or memory target missed (2 is argparse's usage error).
A benchmark with no target of its own (a pure measurement) says so and exits by its verdicts.
"""

from __future__ import annotations

import os
import platform
import shlex
import sys
import time
from dataclasses import dataclass, field

__all__ = ["EXIT_OK", "EXIT_TARGET_MISSED", "EXIT_VERDICT_WRONG", "Report"]

EXIT_OK = 0
EXIT_VERDICT_WRONG = 1
EXIT_TARGET_MISSED = 3


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)"


def _processor() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@dataclass
class Report:
    """The header now, targets and verdict checks as the benchmark finds them, the footer and
    the exit status from `finish()`."""

    needs: str = ""
    """What the benchmark needs beyond `scripts/test.sh`'s install, and how to get it."""
    targets: list[tuple[str, float, str, bool]] = field(default_factory=list)
    verdicts: list[tuple[str, int, int, str]] = field(default_factory=list)
    started: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        command = "python " + " ".join(shlex.quote(a) for a in [os.path.relpath(sys.argv[0])]
                                       + sys.argv[1:])
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        print(f"command: {command}")
        print(f"date:    {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(self.started))} UTC")
        print(f"machine: {cpus} CPUs usable, {_processor()}, Python {platform.python_version()}")
        print(f"load average at start: {_load()}")
        if self.needs:
            print(f"needs:   {self.needs}")
        print(flush=True)

    def target(self, name: str, measured: float, target: float, *, unit: str = "x",
               higher_is_better: bool = True) -> bool:
        """Record one target: `measured` against `target` (>= when higher is better, <= when
        not). Returns whether it is met."""
        met = measured >= target if higher_is_better else measured <= target
        sign = ">=" if higher_is_better else "<="
        self.targets.append((name, measured, f"{sign} {target:g}{unit}", met))
        return met

    def verdict(self, name: str, right: int, total: int, detail: str = "") -> bool:
        """Record one verdict check: `right` of `total` verdicts agree (with the labels, the
        peer or the local path, as `name` says). Any wrong one fails the run."""
        self.verdicts.append((name, right, total, detail))
        return right == total

    def finish(self) -> int:
        """Print the footer and return the exit status (the rule in the module docstring)."""
        print(f"\nload average at end: {_load()}; {time.time() - self.started:.0f} s in all")
        if self.targets:
            width = max(len(t[0]) for t in self.targets) + 2
            print(f"{'target':<{width}}{'measured':>12}{'target':>12}  result")
            for name, measured, wanted, met in self.targets:
                print(f"{name:<{width}}{measured:>12.3g}{wanted:>12}  "
                      f"{'met' if met else 'NOT met'}")
        else:
            print("targets: none (a measurement)")
        for name, right, total, detail in self.verdicts:
            print(f"verdicts: {name}: {right:,} of {total:,} right"
                  + (f" ({detail})" if detail else ""))
        wrong = [v[0] for v in self.verdicts if v[1] != v[2]]
        missed = [t[0] for t in self.targets if not t[3]]
        if wrong:
            print(f"result: VERDICT WRONG ({'; '.join(wrong)}): exit {EXIT_VERDICT_WRONG}")
            return EXIT_VERDICT_WRONG
        if missed:
            print(f"result: target NOT met ({'; '.join(missed)}): exit {EXIT_TARGET_MISSED}")
            return EXIT_TARGET_MISSED
        print(f"result: {'every target met, ' if self.targets else ''}verdicts right: exit 0")
        return EXIT_OK
