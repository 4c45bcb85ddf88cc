"""`rewards filter-prompts --rollouts`: rollouts scored per second and peak memory, for
1,000 math prompts x 16 rollouts (generated here, in the style of the shipped examples:
\\boxed{}, "The answer is", fractions, give-ups), on 2 cores. Target: >= 2,000 rollouts/s.

The command runs as a user runs it (a fresh `rewards filter-prompts` process, histogram
included); its peak memory is the summed RSS of its process tree (the math reward's worker
processes included), sampled every 10 ms, and its summed PSS (a page shared by k processes
counted 1/k in each), sampled every 100 ms. The peer, measured in the same run on the same
rollouts: plain math-verify, `verify(parse(gold), parse(completion))` per rollout in one
process (on a sample when `--peer-sample` is smaller than the data), and how often the two
agree.

    python benchmarks/filter_prompts.py            # 1,000 prompts x 16 rollouts
    python benchmarks/filter_prompts.py --quick    # 200 prompts x 16, peer on 800 rollouts
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import Report

REPO = Path(__file__).resolve().parents[1]


def _examples_module():
    spec = importlib.util.spec_from_file_location(
        "make_examples", REPO / "examples" / "filter" / "make_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_data(folder: Path, prompts: int, n: int, seed: int = 0) -> tuple[Path, Path]:
    ex = _examples_module()
    rng = random.Random(seed)
    prompt_rows, rollout_rows = [], []
    # Chain-of-thought padding so completions are as long as real ones (~0.5-3 KB), with
    # numbers and LaTeX in it for the extractor to wade through.
    lines = ["First, read the problem carefully and note what is asked.",
             "We need to be careful with the arithmetic here: {a} + {b} = {c}.",
             "Let us double-check: ${a} \\cdot {b} = {d}$, which is consistent.",
             "An alternative approach would be to estimate: roughly {a}0, so the scale is right.",
             "Wait, let me reconsider the step above; it still gives {c}."]

    def filler() -> str:
        out = []
        for _ in range(rng.randint(4, 30)):
            a, b = rng.randint(2, 99), rng.randint(2, 99)
            out.append(rng.choice(lines).format(a=a, b=b, c=a + b, d=a * b))
        return "\n".join(out) + "\n"
    for i in range(prompts):
        question, reference, steps = ex.problem(rng, i % 4)
        pid = f"bench-{i:05d}"
        prompt_rows.append({"id": pid, "prompt": question, "reference": reference,
                            "domain": "math"})
        solved = rng.randint(0, n)
        for j in range(n):
            ok = j < solved
            answer = reference if ok else (None if rng.random() < 0.15
                                           else ex.wrong_answer(rng, reference))
            text = filler() + ex.completion(rng, steps, answer)
            rollout_rows.append({"id": pid, "completion": text})
    rng.shuffle(rollout_rows)  # rollouts arrive in any order, as from a generation cluster
    paths = folder / "prompts.jsonl", folder / "rollouts.jsonl"
    for path, rows in zip(paths, (prompt_rows, rollout_rows)):
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return paths


def tree_memory(pid: int, *, pss: bool = False) -> int:
    """Summed RSS in bytes of `pid` and its descendants; with `pss`, summed PSS instead
    (proportional set size: a page shared by k processes counts 1/k in each, so the math
    workers forked from one zygote count their shared pages once, not once each)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        total += _pss(p) if pss else rss.get(p, 0)
        stack += children.get(p, [])
    return total


def _pss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_cli(prompts: Path, rollouts: Path, out: Path, cpus: set[int],
            workers: int) -> tuple[float, int, int, str]:
    cmd = [sys.executable, "-m", "rewards", "filter-prompts", str(prompts), "--rollouts",
           str(rollouts), "--out", str(out), "--progress", "off", "--workers", str(workers)]
    start = time.perf_counter()
    # the CPU affinity set in main() is inherited: the command and its workers get 2 cores
    assert os.sched_getaffinity(0) == cpus
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    peak, peak_pss = 0, 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, peak_pss
        count = 0
        while not done.is_set():
            peak = max(peak, tree_memory(proc.pid))
            if count % 10 == 0:  # PSS walks the page tables: every 100 ms
                peak_pss = max(peak_pss, tree_memory(proc.pid, pss=True))
            count += 1
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = proc.communicate()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    if proc.returncode != 0:
        sys.exit(f"rewards filter-prompts failed:\n{stderr}")
    return seconds, peak, peak_pss, stdout


def run_peer(prompts: Path, rollouts: Path, out: Path, sample: int) -> tuple[float, int, int]:
    """Plain math-verify on `sample` rollouts: (rollouts/s, agreements, compared)."""
    from math_verify import parse, verify

    gold = {}
    for line in prompts.read_text().splitlines():
        row = json.loads(line)
        gold[row["id"]] = row["reference"]
    rows = [json.loads(line) for line in rollouts.read_text().splitlines()][:sample]
    ours = {}
    for line in (out / "journal.jsonl").read_text().splitlines()[1:]:
        for rollout_line, _, value, _ in json.loads(line)["scores"]:
            ours[rollout_line] = value
    agree = 0
    start = time.perf_counter()
    verdicts = []
    for row in rows:
        # math-verify wants the gold in $...$ (or \boxed) to read it as LaTeX
        verdicts.append(float(verify(parse(f"${gold[row['id']]}$"), parse(row["completion"]))))
    seconds = time.perf_counter() - start
    for line_no, verdict in enumerate(verdicts, start=1):
        agree += ours.get(line_no) == verdict
    return len(rows) / seconds, agree, len(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prompts", type=int, default=1000)
    parser.add_argument("--n", type=int, default=16)
    parser.add_argument("--peer-sample", type=int, default=2000,
                        help="rollouts the peer scores (its rate is per rollout)")
    parser.add_argument("--workers", type=int, default=1,
                        help="filter-prompts --workers (default 1: score in its own process)")
    parser.add_argument("--quick", action="store_true", help="200 prompts, peer on 800")
    args = parser.parse_args()
    report = Report()
    if args.quick:
        args.prompts, args.peer_sample = 200, 800
    cpus = set(sorted(os.sched_getaffinity(0))[:2])
    os.sched_setaffinity(0, cpus)  # the peer runs on the same 2 cores
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        prompts, rollouts = make_data(folder, args.prompts, args.n)
        total = args.prompts * args.n
        chars = sum(len(json.loads(line)["completion"])
                    for line in rollouts.read_text().splitlines())
        seconds, peak, peak_pss, stdout = run_cli(prompts, rollouts, folder / "out", cpus, args.workers)
        stats = json.loads((folder / "out" / "stats.json").read_text())
        peer_rate, agree, compared = run_peer(prompts, rollouts, folder / "out",
                                              min(args.peer_sample, total))
    rate = total / seconds
    print(f"filter-prompts --rollouts: {args.prompts} prompts x {args.n} rollouts = {total} "
          f"on {len(cpus)} cores, --workers {args.workers}")
    print(f"  wall (process start to exit, histogram included): {seconds:.2f} s")
    print(f"  rollouts scored per second:  {rate:,.0f}")
    own = re.search(r"\(([\d,]+) rollouts/s\)", stdout)
    print(f"  the CLI's own rate (scoring phase, after start-up): "
          f"{own.group(1) if own else '?'} rollouts/s")
    print(f"  peak memory (process tree RSS): {peak / 2**20:,.0f} MiB; PSS, shared pages "
          f"counted once: {peak_pss / 2**20:,.0f} MiB")
    print(f"  mean completion length: {chars / total:,.0f} characters")
    print(f"  kept {stats['prompts']['kept']}, dropped {stats['prompts']['dropped']}")
    print(f"peer: plain math-verify parse+verify, one process, {compared} rollouts: "
          f"{peer_rate:,.0f} rollouts/s")
    print(f"  ratio filter-prompts / math-verify: {rate / peer_rate:.1f}x")
    print(f"  verdicts agreeing with math-verify: {agree}/{compared} "
          f"({100 * agree / compared:.1f}%; where they differ ours is right: "
          f"benchmarks/math_differential.py)")
    report.target("rollouts scored per second", rate, 2000.0, unit="/s")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
