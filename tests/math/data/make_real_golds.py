"""Rebuild `real_golds.json`: the gold answers of public math benchmarks exactly as their
evaluation repositories distribute them (ids and gold fields only, no problems, no solutions).

    python tests/math/data/make_real_golds.py MIRRORS_DIR > tests/math/data/real_golds.json

`MIRRORS_DIR` holds bare git clones named `owner+name/repo` (read with `git show`), at the
commits recorded below. Where a dataset has no answer field (MATH, Minerva), the gold is the
content of the solution's last `\\boxed{}`, which is how every harness reads those datasets.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

# (name, repo, commit, path, licence of the data, how the gold is read)
SOURCES = [
    ("math", "ZubinGou/math-evaluation-harness", "db77bc6bb2a17c90ed2d63e88ebd8c40a82858c5",
     "data/math/test.jsonl", "MIT (MATH, Hendrycks et al. 2021)", "last \\boxed{} of solution"),
    ("math500", "ZubinGou/math-evaluation-harness", "db77bc6bb2a17c90ed2d63e88ebd8c40a82858c5",
     "data/math_oai/test.jsonl", "MIT (MATH; split of openai/prm800k)", "answer"),
    ("gsm8k", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/gsm8k/test.jsonl", "MIT (GSM8K, Cobbe et al. 2021)", "answer after ####"),
    ("aime24", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/aime24/test.jsonl", "problems (c) MAA, via AoPS wiki; harness MIT", "answer"),
    ("amc23", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/amc23/test.jsonl", "problems (c) MAA, via AoPS wiki; harness MIT",
     "answer (a JSON number)"),
    ("aime_1983_2023", "agentica-project/rllm", "874daa4acb7f451dc2a4b2b6e8ce28f5aa88d1f5",
     "rllm/data/train/math/aime.json", "problems (c) MAA, via AoPS wiki; repository MIT",
     "answer"),
    ("amc_deepscaler", "agentica-project/rllm", "874daa4acb7f451dc2a4b2b6e8ce28f5aa88d1f5",
     "rllm/data/test/math/amc.json", "problems (c) MAA, via AoPS wiki; repository MIT",
     "answer (a JSON number)"),
    ("math_train_deepscaler", "agentica-project/rllm", "874daa4acb7f451dc2a4b2b6e8ce28f5aa88d1f5",
     "rllm/data/train/math/math.json", "MIT (MATH train split, as DeepScaleR ships it)", "answer"),
    ("gaokao2023en", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/gaokao2023en/test.jsonl", "no data licence stated; harness MIT", "answer"),
    ("college_math", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/college_math/test.jsonl",
     "per-row licence field: CC BY 3.0 or CC BY-NC-SA 4.0 (open textbooks)", "answer"),
    ("olympiadbench", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/olympiadbench/test.jsonl",
     "Apache-2.0 as the OlympiadBench repository states (to be confirmed); harness MIT",
     "final_answer (a list, joined by ', ')"),
    ("minerva_math", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/minerva_math/test.jsonl", "CC BY-NC-SA 4.0 (MIT OCW problems)",
     "last \\boxed{} of solution"),
    ("gaokao_math_cloze", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/gaokao_math_cloze/test.jsonl", "no data licence stated; harness MIT",
     "answer"),
    ("carp_en", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/carp_en/test.jsonl",
     "no data licence stated (CARP, Zhang et al. 2023); harness MIT", "answer"),
    ("svamp", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/svamp/test.jsonl", "MIT (SVAMP)", "Answer (a decimal string)"),
    ("asdiv", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/asdiv/test.jsonl", "CC BY-NC 4.0 (ASDiv)", "answer (with its unit)"),
    ("mawps", "QwenLM/Qwen2.5-Math", "a45202bd16f1ec06f433442dc1152d0074773465",
     "evaluation/data/mawps/test.jsonl", "MIT (MAWPS)", "target (a decimal string)"),
    ("gsm_hard", "ZubinGou/math-evaluation-harness", "db77bc6bb2a17c90ed2d63e88ebd8c40a82858c5",
     "data/gsm_hard/test.jsonl", "MIT (GSM-Hard, PAL)", "target (a float string)"),
    # Omni-MATH's full test file is stored with Git LFS; its repository's first commit ships
    # two judged example runs whose rows carry the dataset row (`original_json`), 135 distinct
    # problems between them. Read in this order, each problem once.
    ("omni_math", "KbsdJames/Omni-MATH", "5aac08bc8ebeef5511e244c094194321209550af",
     ["GPT_eval/examples/meta_llama_3-1_70b_instruct_gpteval.jsonl",
      "GPT_eval/examples/internlm2-math-plus-mixtral8x22b_gpteval.jsonl"],
     "Apache-2.0 (the Omni-MATH dataset card)", "answer of original_json"),
    # ROLL ships a 4,994-row sample of DeepMath-103K (a training set) and AIME 2025.
    ("deepmath_103k", "alibaba/ROLL", "8eb27cc2dc34c4d1310b169d9b86d339004d811a",
     "data/math_deepmath_deal.jsonl",
     "MIT (DeepMath-103K, He et al. 2025, its dataset card); repository Apache-2.0",
     "ground_truth (the first 3,000 rows)"),
    ("aime2025", "alibaba/ROLL", "8eb27cc2dc34c4d1310b169d9b86d339004d811a",
     "data/math_benchmarks.jsonl", "problems (c) MAA, via AoPS wiki; repository Apache-2.0",
     "ground_truth (rows tagged aime2025)"),
]

# Rows kept of a file that holds more than the dataset, and a cap on a large sample.
ROW_FILTERS = {"aime2025": lambda row: row.get("tag") == "aime2025"}
MAX_GOLDS = {"deepmath_103k": 3000}


def _rows(mirrors: Path, repo: str, commit: str, path: str | list[str]) -> list[dict]:
    if isinstance(path, list):  # several files of one dataset: each problem once
        rows, seen = [], set()
        for row in (row for one in path for row in _rows(mirrors, repo, commit, one)):
            if row["problem"] not in seen:
                seen.add(row["problem"])
                rows.append(row)
        return rows
    git_dir = mirrors / repo.replace("/", "+") / "repo"
    text = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                          check=True, capture_output=True, text=True).stdout
    if path.endswith(".json"):
        return json.loads(text)
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [json.loads(row["original_json"]) if "original_json" in row else row for row in rows]


def _last_box(solution: str) -> str | None:
    """Content of the last `\\boxed{...}` (balanced braces), or None."""
    start = solution.rfind("\\boxed")
    if start < 0:
        return None
    i = solution.find("{", start)
    depth, begin = 0, i + 1
    while i < len(solution):
        if solution[i] == "{":
            depth += 1
        elif solution[i] == "}":
            depth -= 1
            if depth == 0:
                return solution[begin:i]
        i += 1
    return None


def _gold(name: str, row: dict) -> object:
    if name in ("math", "minerva_math"):
        return _last_box(row["solution"])
    if name == "gsm8k":
        return row["answer"].split("####")[-1].strip()
    if name == "olympiadbench":
        answers = row["final_answer"]
        answers = ast.literal_eval(answers) if isinstance(answers, str) else answers
        return ", ".join(answers)
    for field in ("answer", "Answer", "target", "ground_truth"):
        if field in row:
            return row[field]
    raise KeyError(name)


def _id(name: str, index: int, row: dict) -> str:
    for field in ("unique_id", "id", "idx", "ID", "question_number"):
        if row.get(field) not in (None, ""):
            return str(row[field])
    return str(index)


def main(mirrors: Path) -> None:
    datasets = []
    for name, repo, commit, path, licence, field in SOURCES:
        golds = []
        rows = [row for row in _rows(mirrors, repo, commit, path)
                if ROW_FILTERS.get(name, bool)(row)]
        for index, row in enumerate(rows[:MAX_GOLDS.get(name)]):
            gold = _gold(name, row)
            if gold is not None:
                golds.append([_id(name, index, row), gold])
        datasets.append({"name": name, "repo": repo, "commit": commit, "path": path,
                         "licence": licence, "gold_field": field, "golds": golds})
    out = sys.stdout
    out.write('{"about": "Gold answers of public math benchmarks as distributed (ids and gold '
              'fields only); rebuilt by make_real_golds.py",\n "datasets": [\n')
    for i, data in enumerate(datasets):
        head = {k: v for k, v in data.items() if k != "golds"}
        out.write("  " + json.dumps(head, ensure_ascii=False)[:-1] + ', "golds": [\n')
        out.write(",\n".join("   " + json.dumps(g, ensure_ascii=False) for g in data["golds"]))
        out.write("\n  ]}" + (",\n" if i < len(datasets) - 1 else "\n"))
    out.write(" ]}\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
