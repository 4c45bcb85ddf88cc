r"""The golds of `tests/math/data/real_golds.json` read with their questions: the math reward
reads a gold of words with its question (`rewards.math._normalize.no_answer_in`: the prompt's
own instruction mapped as the gold, a placeholder `N/A` the question does not offer), so a
real gold must not start abstaining once its question is given.

    python benchmarks/math_golds_with_questions.py MIRRORS_DIR

`MIRRORS_DIR` holds the benchmarks' repositories as `tests/math/data/make_real_golds.py`
reads them (bare clones `owner+name/repo` at the commits recorded there); the questions are
read from the same rows as the golds (no problem text is stored in this repository). Each
gold is read as the reward reads it (`read_reference(gold, question)`, the path every entry
point takes) under four prompts: none; the question alone (for ROLL's chat rows, the user's
message); the question with "Please reason step by step, and put your final answer within
\boxed{}." on a line after it; and a chat with that instruction as the system message (ROLL's
rows as they are). The verdict: the golds that abstain are, under every prompt, exactly those
of `tests/math/data/real_golds_not_answers.json`."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests" / "math" / "data"))

import make_real_golds  # type: ignore[import-not-found]
from _report import Report

from rewards.math._compare import read_reference
from rewards.math._reward import _question_text

DATA = ROOT / "tests" / "math" / "data"
INSTRUCTION = "Please reason step by step, and put your final answer within \\boxed{}."
PROMPTS = ("none", "question", "question + instruction", "chat")


def _question(name: str, row: dict[str, Any]) -> str | list[dict[str, Any]]:
    """A row's question as its dataset states it (ROLL's rows: their chat messages)."""
    if name in ("svamp", "asdiv"):
        body = {k.lower(): v for k, v in row.items()}
        return f"{body['body']} {body['question']}"
    if name in ("mawps", "gsm_hard"):
        return str(row["input"])
    if name == "carp_en":
        return str(row["content"])
    if name == "olympiadbench":
        context = row.get("context")
        return (f"{context}\n" if context and context != "None" else "") + row["question"]
    if name in ("deepmath_103k", "aime2025"):
        return list(json.loads(row["messages"]))
    return str(row.get("problem") or row["question"])


def golds_with_questions(mirrors: Path) -> list[tuple[str, int, object, Any]]:
    """(dataset, index, gold, question) for every gold, in `real_golds.json`'s order."""
    out = []
    for name, repo, commit, path, _, _ in make_real_golds.SOURCES:
        rows = [row for row in make_real_golds._rows(mirrors, repo, commit, path)
                if make_real_golds.ROW_FILTERS.get(name, bool)(row)]
        index = 0
        for row in rows[:make_real_golds.MAX_GOLDS.get(name)]:
            gold = make_real_golds._gold(name, row)
            if gold is not None:
                out.append((name, index, gold, _question(name, row)))
                index += 1
    return out


def _prompt(kind: str, question: Any) -> str | list[dict[str, Any]] | None:
    user = question[-1]["content"] if isinstance(question, list) else question
    if kind == "none":
        return None
    if kind == "question":
        return str(user)
    if kind == "question + instruction":
        return f"{user}\n{INSTRUCTION}"
    return question if isinstance(question, list) else [
        {"role": "system", "content": INSTRUCTION}, {"role": "user", "content": question}]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mirrors", type=Path, help="bare clones as make_real_golds.py reads")
    args = parser.parse_args()
    report = Report(needs="the benchmarks' repositories at the commits make_real_golds.py "
                          "records, as bare clones owner+name/repo under MIRRORS_DIR")
    rows = golds_with_questions(args.mirrors)
    stored = json.loads((DATA / "real_golds.json").read_text(encoding="utf-8"))["datasets"]
    expected = [(d["name"], i, gold) for d in stored for i, (_, gold) in enumerate(d["golds"])]
    if [(name, i, gold) for name, i, gold, _ in rows] != expected:
        print("the mirrors' golds are not real_golds.json's: rebuild it or check the commits")
        report.verdict("golds as stored", 0, len(expected))
        return report.finish()
    listed = json.loads((DATA / "real_golds_not_answers.json").read_text(encoding="utf-8"))
    not_answers = {(name, int(i)) for name, golds in listed["golds"].items() for i in golds}
    print(f"{len(rows):,} golds; {len(not_answers)} listed as not an answer\n")
    print(f"{'prompt':<26}{'abstain':>9}{'listed':>8}{'new':>6}  first new")
    for kind in PROMPTS:
        abstained = {(name, i): read_reference(gold, _question_text(_prompt(kind, question)))
                     for name, i, gold, question in rows}
        abstained = {k: r for k, r in abstained.items() if r.text is None}
        new = sorted(set(abstained) - not_answers)
        first = f"{new[0]} {abstained[new[0]].problem[:70]}" if new else ""
        print(f"{kind:<26}{len(abstained):>9}{len(set(abstained) & not_answers):>8}"
              f"{len(new):>6}  {first}")
        by_cause = Counter(re.sub(r"^\d+ |:.*", "", r.problem.removeprefix(
            "reference is not an answer: ")) for r in abstained.values())
        print("    " + "; ".join(f"{cause} x{n}" for cause, n in by_cause.most_common()))
        report.verdict(f"golds that abstain, prompt {kind!r}, are the listed not-answers",
                       len(rows) - len(set(abstained) ^ not_answers), len(rows))
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
