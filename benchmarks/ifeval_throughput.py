"""`use: ifeval` against the reference IFEval checkers, in one run: agreement on generated
responses (every instruction type, arguments at the response's own counts and one over and
one under, strict and loose) and checks per second, ours and the reference's.

    bash scripts/fetch_ifeval_references.sh                 # once: the two git references
    python benchmarks/ifeval_throughput.py --quick          # 3,000 rows per family
    python benchmarks/ifeval_throughput.py                  # 12,000 rows per family

References: Google's IFEval as lm-eval ships it (`pip install --no-deps lm-eval==0.4.13` and
`pip install -e '.[ifeval-reference]'`, as scripts/test.sh does); open-instruct's IFEvalG and
RLVR functions and allenai/IFBench's checkers, which are not pip-installable:
scripts/fetch_ifeval_references.sh clones both at the pinned commits into build/references/,
where this finds them (IFEVALG_SOURCE / IFBENCH_SOURCE name other checkouts). A family whose
reference is missing is skipped with the reason. See benchmarks/_ifeval_reference.py.
A "check" is one constraint decided on one response in one mode."""

from __future__ import annotations

import argparse
import logging
import platform
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _ifeval_corpus import Case, cases
from _ifeval_reference import (
    load_ifbench,
    load_lm_eval,
    load_open_instruct,
    missing_reason,
)
from _report import Report

from rewards.ifeval import BadConstraint, loose_variants, parse_constraints, verdicts


def ours(case: Case, loose: bool) -> list[bool] | None:
    if case.family == "rlvr":
        reference: Any = [{"func_name": i, **k} for i, k in zip(case.ids, case.kwargs)]
    else:
        reference = {"instruction_id_list": case.ids, "kwargs": case.kwargs}
    try:
        instructions = parse_constraints(reference)
    except BadConstraint:
        return None
    mode = "loose" if loose else "strict"
    return verdicts(instructions, case.response, mode)


class ClassReference:
    """open-instruct's IFEvalG classes through the harness every IFEval runner uses."""

    def __init__(self, registry: dict[str, Any]) -> None:
        self.registry = registry

    def verdicts(self, ids: list[str], kwargs: list[dict], prompt: str, response: str,
                 loose: bool) -> list[bool]:
        texts = loose_variants(response) if loose else [response]
        out = []
        for iid, args in zip(ids, kwargs):
            checker = self.registry[iid](iid)
            checker.build_description(**{k: v for k, v in args.items() if v is not None})
            out.append(any(t.strip() and checker.check_following(t) for t in texts))
        return out


class FunctionReference:
    """open-instruct's RLVR `if_functions` (strict only: that verifier has no loose mode)."""

    def __init__(self, functions: dict[str, Any]) -> None:
        self.functions = functions

    def verdicts(self, ids: list[str], kwargs: list[dict], prompt: str, response: str,
                 loose: bool) -> list[bool]:
        texts = loose_variants(response) if loose else [response]
        return [any(t.strip() and bool(self.functions[i](t, **k)) for t in texts)
                for i, k in zip(ids, kwargs)]


def differential(rows: list[Case], reference: Any, *, show: int) -> dict[str, Any]:
    """Agreement per instruction id, strict and loose, and the time each side took."""
    agree: Counter[str] = Counter()
    total: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    t_ours = t_ref = 0.0
    checks = 0
    for case in rows:
        for loose in (False, True):
            start = time.perf_counter()
            mine = ours(case, loose)
            t_ours += time.perf_counter() - start
            start = time.perf_counter()
            try:
                theirs = reference.verdicts(case.ids, case.kwargs, case.prompt, case.response, loose)
            except Exception as exc:  # noqa: BLE001 - the reference crashing is a finding
                t_ref += time.perf_counter() - start
                errors[f"{case.ids}: {type(exc).__name__}"] += 1
                continue
            t_ref += time.perf_counter() - start
            checks += len(case.ids)
            if mine is None:
                errors[f"ours abstains: {case.ids}"] += 1
                continue
            for iid, a, b in zip(case.ids, mine, theirs):
                key = f"{iid} ({'loose' if loose else 'strict'})"
                total[key] += 1
                agree[key] += a == b
                if a != b and len(examples[key]) < show:
                    args = case.kwargs[case.ids.index(iid)]
                    examples[key].append(f"ours={a} ref={b} args={args} response={case.response!r:.300}")
    return {"agree": agree, "total": total, "errors": errors, "examples": examples,
            "t_ours": t_ours, "t_ref": t_ref, "checks": checks}


def report(name: str, result: dict[str, Any], summary: Report) -> None:
    agree, total = result["agree"], result["total"]
    n, ok = sum(total.values()), sum(agree.values())
    print(f"\n== {name}: {ok:,} of {n:,} verdicts agree ({100 * ok / max(n, 1):.3f}%)")
    for key in sorted(total):
        if agree[key] != total[key]:
            print(f"  {key}: {total[key] - agree[key]} of {total[key]} differ")
            for line in result["examples"][key]:
                print(f"      {line}")
    for what, count in result["errors"].most_common(8):
        print(f"  error {what} x{count}")
    checks = result["checks"]
    ours_rate = checks / max(result["t_ours"], 1e-9)
    ref_rate = checks / max(result["t_ref"], 1e-9)
    print(f"  throughput: ours {ours_rate:,.0f} checks/s, reference {ref_rate:,.0f} checks/s, "
          f"{ours_rate / ref_rate:.1f}x ({checks:,} checks each)")
    summary.target(f"{name.split(' ')[0]}: checks/s, ours / reference", ours_rate / ref_rate, 5.0)


def warm_up() -> None:
    """Load both sides' language profiles before timing (a one-time cost of about 2 s each),
    and the packages our IFBench checkers import on first use (`emoji`, `syllapy`, about
    0.2 s), which the reference imports when it is loaded, and our reading rule's tables
    (`rewards.text`, built once on the first non-ASCII text, about 0.35 s)."""
    import langdetect

    from rewards.ifeval import detect_language, parse_constraints, verdicts
    from rewards.text import is_blank, read_text

    read_text("caf\u00e9 \u200b")
    is_blank("\u00e9")

    text = "A sentence to load the language profiles before anything is timed."
    detect_language(text)
    langdetect.detect(text)
    verdicts(parse_constraints({"instruction_id_list": ["format:emoji", "words:odd_even_syllables"],
                                "kwargs": [{}, {}]}), text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3,000 rows per family")
    parser.add_argument("--rows", type=int, help="rows per family (default 12,000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="examples shown per disagreement")
    args = parser.parse_args(argv)
    summary = Report(needs="lm-eval's IFEval (scripts/test.sh installs it); open-instruct and "
                     "IFBench checkouts: bash scripts/fetch_ifeval_references.sh")
    rows = args.rows or (3000 if args.quick else 12000)
    logging.disable(logging.CRITICAL)
    print(f"ifeval differential and throughput: {rows:,} rows per family, seed {args.seed}, "
          f"python {platform.python_version()}, {platform.machine()}")
    found = 0
    warm_up()
    google = load_lm_eval()
    corpus = list(cases(rows, seed=args.seed))
    if google is not None:
        found += 1
        report("IFEval (25 types) vs lm-eval's Google checkers",
               differential([c for c in corpus if c.family == "ifeval"], google, show=args.show),
               summary)
    else:
        print(f"skipped IFEval: {missing_reason()}")
    open_instruct = load_open_instruct()
    if open_instruct is not None:
        found += 1
        registry, functions = open_instruct
        report("IFEvalG (29 types) vs open-instruct IFEvalG",
               differential([c for c in corpus if c.family == "ifevalg"], ClassReference(registry),
                            show=args.show), summary)
        report("RLVR-IFeval (25 functions) vs open-instruct if_functions",
               differential([c for c in corpus if c.family == "rlvr"], FunctionReference(functions),
                            show=args.show), summary)
    else:
        print(f"skipped IFEvalG and RLVR: {missing_reason()}")
    ifbench = load_ifbench()
    if ifbench is not None:
        found += 1
        report("IFBench (57 of 58 types) vs allenai/IFBench",
               differential([c for c in corpus if c.family == "ifbench"], ClassReference(ifbench),
                            show=args.show), summary)
    else:
        print(f"skipped IFBench: {missing_reason()}")
    print("(disagreements are listed above; each class is explained in "
          "docs/instruction-following.md)")
    if not found:
        print("no reference checker could be loaded: nothing was compared")
        summary.verdict("reference families compared", 0, 1)
    return summary.finish()


if __name__ == "__main__":
    sys.exit(main())
