"""Builds `bfcl_ast_sample.jsonl` from a checkout of ShishirPatil/gorilla (BFCL's data,
Apache License 2.0): the AST categories' function schemas (descriptions dropped) and
possible answers, joined on `id`. Every row of each category except `live_multiple`, of
which every fourth row is kept.

    python tests/envs/data/make_bfcl_sample.py /path/to/gorilla > tests/envs/data/bfcl_ast_sample.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

CATEGORIES = ["simple_python", "multiple", "parallel", "parallel_multiple", "live_simple",
              "live_multiple", "live_parallel", "live_parallel_multiple"]


def _drop_descriptions(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_descriptions(v) for k, v in value.items() if k != "description"}
    if isinstance(value, list):
        return [_drop_descriptions(v) for v in value]
    return value


def main(root: str) -> None:
    data = Path(root) / "berkeley-function-call-leaderboard" / "bfcl_eval" / "data"
    for category in CATEGORIES:
        answers = {}
        for line in (data / "possible_answer" / f"BFCL_v4_{category}.json").open():
            row = json.loads(line)
            answers[row["id"]] = row["ground_truth"]
        for i, line in enumerate((data / f"BFCL_v4_{category}.json").open()):
            if category == "live_multiple" and i % 4:
                continue
            row = json.loads(line)
            print(json.dumps({"id": row["id"], "category": category,
                              "function": _drop_descriptions(row["function"]),
                              "ground_truth": answers[row["id"]]}, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
