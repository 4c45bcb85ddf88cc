"""`rewards label --candidates FILE --judge MODEL --out PREFS.jsonl`: a GenRM judge labels pairs
of candidate responses offline; pairs it is confident about (max(p, 1-p) >= --threshold, both
orders averaged) become preference rows for `rewards train-rm`.

Candidates: JSONL/Parquet rows {"prompt", "candidates": [...]} or rollout rows
{"prompt", "completion", "group"?} (grouped by group, else by prompt)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("label", help="label preference pairs with a GenRM judge",
                       description=__doc__)
    p.add_argument("--candidates", required=True, help="candidate responses, JSONL or Parquet")
    p.add_argument("--judge", required=True,
                   help="judge model folder or name, or a vLLM server URL")
    p.add_argument("--out", required=True, help="output preference pairs, JSONL")
    p.add_argument("--backend", default="auto",
                   help="inference backend: auto, transformers, vllm or vllm-server, checked "
                   "by the engine loader (default: auto)")
    p.add_argument("--threshold", type=float, default=0.75,
                   help="keep a pair when max(p, 1-p) >= this (default: 0.75)")
    p.add_argument("--max-pairs-per-prompt", type=int, default=None,
                   help="judge at most this many pairs per prompt (default: all)")
    p.add_argument("--mode", default="direct",
                   help="direct (verdict right away) or cot (chain of thought, then the "
                   "verdict), checked by the judge's config (default: direct)")
    p.add_argument("--template", default=None,
                   help="file with the judge template ({question}, {response_a}, {response_b})")
    p.add_argument("--labels", default="A,B", help="the two verdict labels (default: A,B)")
    p.add_argument("--no-chat", action="store_true",
                   help="send the judge prompt as plain text, not as a chat message")
    p.add_argument("--dtype", default=None, help="model dtype for local backends, e.g. float32")
    p.add_argument("--seed", type=int, default=0, help="pair sampling and CoT sampling seed")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from genrm.generative import COT_TEMPLATE, DEFAULT_TEMPLATE, GenRMJudge, JudgeConfig
    from genrm.label import LabelConfig, label_preferences, load_candidates
    from rewards.engines import load_engine, resolve_model
    from rewards.errors import ConfigError
    from rewards.paths import input_file, output_file

    labels = tuple(x.strip() for x in args.labels.split(","))
    if len(labels) != 2 or not all(labels):
        raise ConfigError(f"--labels needs two comma-separated labels, got {args.labels!r}")
    out = output_file(args.out, field="--out")  # checked now, not after judging every pair
    resolve_model(args.judge, field="--judge")
    template = (_read_template(input_file(args.template, field="--template")) if args.template
                else COT_TEMPLATE if args.mode == "cot" else DEFAULT_TEMPLATE)
    sets = load_candidates(input_file(args.candidates, field="--candidates"))
    options = {"dtype": args.dtype} if args.dtype and args.backend != "vllm-server" else {}
    config = JudgeConfig(template=template, labels=(labels[0], labels[1]),
                         chat=not args.no_chat, mode=args.mode, seed=args.seed)
    engine = load_engine(args.judge, backend=args.backend, **options)
    try:
        judge = GenRMJudge(engine, config)
        rows, stats = label_preferences(judge, sets, LabelConfig(
            threshold=args.threshold, max_pairs_per_prompt=args.max_pairs_per_prompt,
            seed=args.seed))
    finally:
        engine.close()
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as fh:
        for row in rows:
            fh.write(json.dumps({**row, "judge": args.judge}, ensure_ascii=False) + "\n")
    print(f"judged {stats.judged} pairs from {len(sets)} prompts: kept {stats.kept}, "
          f"dropped {stats.uncertain} below threshold {args.threshold}, "
          f"{stats.failed} unreadable -> {out}", file=sys.stderr)
    print(json.dumps({"judged": stats.judged, "kept": stats.kept, "uncertain": stats.uncertain,
                      "failed": stats.failed, "out": str(out)}))
    return 0


def _read_template(path: Path) -> str:
    from rewards.errors import InputError

    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text: {exc}", source=str(path), field="--template") from exc
