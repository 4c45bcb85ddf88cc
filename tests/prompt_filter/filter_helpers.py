"""Small helpers shared by the prompt-filter tests."""

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parents[2]
EXAMPLES = REPO / "examples" / "filter"
OUTPUT_FILES = ("kept.jsonl", "dropped.jsonl", "errors.jsonl", "stats.json", "pass_rates.png",
                "journal.jsonl")


def write_jsonl(path: Path, rows) -> Path:
    with path.open("w") as fh:
        for row in rows:
            fh.write(row if isinstance(row, str) else json.dumps(row))
            fh.write("\n")
    return path


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def write_config(path: Path, use: str, domain: str = "default") -> Path:
    path.write_text(f"domains:\n  {domain}:\n    rewards:\n      - use: {use}\n")
    return path


def cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    """`rewards filter-prompts ...` as a user runs it, in a fresh process."""
    return subprocess.run([sys.executable, "-m", "rewards", "filter-prompts", *map(str, args)],
                          capture_output=True, text=True, cwd=REPO, env=os.environ.copy(),
                          timeout=300, check=False, **kwargs)


def outputs(folder: Path, names=OUTPUT_FILES) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in names if (folder / name).exists()}
