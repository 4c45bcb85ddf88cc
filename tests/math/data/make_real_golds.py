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
]


def _rows(mirrors: Path, repo: str, commit: str, path: str) -> list[dict]:
    git_dir = mirrors / repo.replace("/", "+") / "repo"
    text = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                          check=True, capture_output=True, text=True).stdout
    if path.endswith(".json"):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


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
    for field in ("answer", "Answer", "target"):
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
        for index, row in enumerate(_rows(mirrors, repo, commit, path)):
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
