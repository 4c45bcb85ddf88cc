"""The docs site builds with `mkdocs build --strict` (every warning fails: a broken link or
anchor, a page left out of the nav), and what README.md and the pages point at exists."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from snippets import REPO, pages

_LINK = re.compile(r"\]\(([^)\s]+)\)")
_CODE = re.compile(r"`([^`\n]+)`")
# a repository file (`rl/grpo.py`) or folder (`tests/celery/`), not a metric (`rewards/math/mean`)
_REPO_PATH = re.compile(r"^(?:rewards|rewards_cli|sandbox|genrm|prompt_filter|rl|integrations|tests|benchmarks"
                        r"|examples|scripts|docs|\.ci)/[\w./-]*(?:/|\.[a-z]+)$")


def test_site_builds_strict_without_warnings(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "--config-file", str(REPO / "mkdocs.yml"),
                           "--site-dir", str(tmp_path / "site")],
                          check=False, cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"mkdocs is in the dev extra: pip install -e '.[dev]'\n{output}"
    assert "WARNING" not in output, output
    assert (tmp_path / "site/index.html").is_file()


def _github_slug(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_readme_links_exist() -> None:
    """README.md is read on GitHub, outside the site: its relative links are checked here."""
    readme = (REPO / "README.md").read_text()
    missing = []
    for target in _LINK.findall(readme):
        if re.match(r"^[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        file = (REPO / path) if path else REPO / "README.md"
        if not file.exists():
            missing.append(target)
        elif anchor:
            headings = [line.lstrip("#").replace("`", "") for line in file.read_text().splitlines()
                        if line.startswith("#")]
            if anchor not in {_github_slug(h) for h in headings}:
                missing.append(target)
    assert not missing, missing


def test_named_repository_paths_exist() -> None:
    """A file or folder named in backticks (`rl/grpo.py`, `tests/celery/`) is there: code moves,
    and the docs must follow."""
    missing = [f"{page.relative_to(REPO)}: {name}" for page in pages()
               for name in _CODE.findall(page.read_text())
               if _REPO_PATH.match(name) and not (REPO / name).exists()]
    assert not missing, "\n".join(missing)


def test_readme_is_a_first_screen() -> None:
    """Everything beyond the first screen lives in docs/ (issue #16: about 150 lines)."""
    assert len((REPO / "README.md").read_text().splitlines()) <= 180


def test_histogram_image_is_the_examples_one() -> None:
    """docs/img/pass_rates.png is a copy (the site cannot reach outside docs/) of the one
    `examples/filter/make_examples.py` draws."""
    assert (REPO / "docs/img/pass_rates.png").read_bytes() == \
        (REPO / "examples/filter/pass_rates.png").read_bytes()
