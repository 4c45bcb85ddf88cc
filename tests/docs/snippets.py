"""Find the fenced code blocks of README.md and docs/*.md, with the marker each may carry.

A marker is an HTML comment on the last non-blank line before a fence:

    <!-- snippet: setup=tiny_model; fresh -->
    <!-- snippet: skip - needs a GPU -->

Items, separated by `;`:
- `skip - REASON` (last): the block is not run; the reason says why (a GPU, a cluster, a
  download).
- `setup=NAME[,NAME]`: fixtures that write files into the block's folder first (see
  conftest.SETUPS).
- `fresh`: start a new folder and namespace. Without it a block runs in those of the page's
  previous block: a page is read top to bottom (`continue` says so explicitly).
- `file=NAME`: also write the block's text to NAME in its folder (a config the next blocks use).
- `kind=reward|grpo|ppo|plain` (YAML): what the block is; `reward` (the default) is loaded and
  built with `rewards.load_config` and `rewards.build_reward`, `grpo`/`ppo` with
  `rl.load_train_config`, `plain` only parsed.
- `script`: a python block runs as its own script (`python snippet.py`), not in the test process:
  for code that starts vLLM.
- `exit=N` (bash): the exit status the block ends with (0 unless given).

Languages: `python` (run), `pycon` (a doctest), `bash` (run with bash -e), `console` (commands
after `$ `, each followed by the output it prints), `yaml` (loaded), `json` (parsed, a document
or one per line), `text` (not code: output, trees, prose). A fence without a language is an
error, so no block is left out of the check by accident."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = {"python", "pycon", "bash", "console", "yaml", "json", "text"}
RUNNABLE = {"python", "pycon", "bash", "console", "yaml", "json"}
KINDS = {"reward", "grpo", "ppo", "plain"}

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>[^`\s]*)\s*$")
_MARKER = re.compile(r"^\s*<!--\s*snippet:(?P<body>.*?)-->\s*$")


@dataclass
class Block:
    page: str  # path relative to the repository root
    line: int  # line of the opening fence (1-based)
    lang: str
    text: str
    skip: str | None = None
    setup: tuple[str, ...] = ()
    fresh: bool = False
    file: str | None = None
    kind: str = "reward"
    script: bool = False
    exit: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def pages() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def parse_marker(body: str, block: Block) -> None:
    # `skip` comes last: its reason is the rest of the marker, semicolons and all
    match = re.search(r"(?:^|;)\s*skip\b", body)
    if match:
        reason = body[match.end():].strip().lstrip("-:").strip()
        block.skip = reason
        if len(reason) < 10:
            block.problems.append(f"skip without a reason: {body.strip()!r}")
        body = body[:match.start()]
    for item in (part.strip() for part in body.split(";")):
        if not item:
            continue
        if item.startswith("setup="):
            block.setup = tuple(s.strip() for s in item[6:].split(",") if s.strip())
        elif item == "fresh":
            block.fresh = True
        elif item == "continue":
            pass  # the default
        elif item == "script":
            block.script = True
        elif item.startswith("file="):
            block.file = item[5:].strip()
        elif item.startswith("kind="):
            block.kind = item[5:].strip()
            if block.kind not in KINDS:
                block.problems.append(f"unknown kind {block.kind!r}")
        elif item.startswith("exit="):
            block.exit = int(item[5:])
        else:
            block.problems.append(f"unknown marker item {item!r}")


def blocks_of(path: Path) -> list[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    page = path.relative_to(REPO).as_posix()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, info = match["indent"], match["fence"], match["info"].lower()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not (lines[i].strip() == fence and lines[i].startswith(indent)):
            body.append(lines[i].removeprefix(indent))
            i += 1
        i += 1
        block = Block(page, start + 1, info, "\n".join(body) + "\n")
        if info not in LANGUAGES:
            block.problems.append(f"fence language {info!r} is not one of {sorted(LANGUAGES)}")
        before = start - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        marker = _MARKER.match(lines[before]) if before >= 0 else None
        if marker:
            parse_marker(marker["body"], block)
        found.append(block)
    return found


def all_blocks() -> list[Block]:
    return [block for path in pages() for block in blocks_of(path)]


def sessions() -> list[list[Block]]:
    """Runnable blocks grouped: one group per page, and a new one at each `fresh` block."""
    groups: list[list[Block]] = []
    last: dict[str, list[Block]] = {}
    for block in all_blocks():
        if block.skip is not None or block.lang not in RUNNABLE:
            continue
        if not block.fresh and block.page in last:
            last[block.page].append(block)
        else:
            group = [block]
            groups.append(group)
            last[block.page] = group
    return groups
