"""The program in a completion without fences, found as a reader finds it.

"Here is my solution:\\ndef add(a, b):\\n    return a + b\\n\\nIt adds the numbers." holds a
program between two lines of prose. When the whole completion is not valid Python,
`unfenced_program` splits it at its prose lines (unindented lines that are not code) and
takes the longest run of lines between them that parses as a program (a definition, an
import, an assignment, a call: not a lone name or constant). When no run parses, the whole
completion is returned unchanged, and the Rule layer says why it is no program (`no_code`,
with the parser's message).

Linear in the completion: each unindented line is parsed once on its own, each run once;
completions longer than `MAX_SEARCH_CHARS` are not searched."""

from __future__ import annotations

import ast

__all__ = ["MAX_SEARCH_CHARS", "unfenced_program"]

MAX_SEARCH_CHARS = 100_000
"""A longer unfenced completion is taken whole (the Rule layer then judges it)."""

_CONTINUATIONS = ("else", "elif ", "except", "finally", "case ", ")", "]", "}", "#", "@")
"""Unindented lines that belong to the code around them though they do not parse alone."""
_OPEN_ENDS = ("(", "[", "{", ",", "\\", ":")
"""A line ending so continues on the next (a call over several lines, a block header)."""
_PROGRAM_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                  ast.ImportFrom, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For,
                  ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try)


def unfenced_program(completion: str, language: str = "python") -> str:
    """The program of an unfenced completion (see the module docstring); for a language
    other than Python, or a completion that parses whole, the whole completion."""
    if language != "python" or len(completion) > MAX_SEARCH_CHARS or _parses(completion):
        return completion
    best = None
    for run in _runs(completion.splitlines()):
        text = "\n".join(run).strip("\n")
        if len(text) > len(best or "") and _is_program(text):
            best = text
    return best + "\n" if best is not None else completion


def _runs(lines: list[str]) -> list[list[str]]:
    """The runs of lines between prose lines."""
    runs: list[list[str]] = [[]]
    for line in lines:
        if _is_prose(line):
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append(line)
    return [run for run in runs if any(line.strip() for line in run)]


def _is_prose(line: str) -> bool:
    """An unindented, non-blank line that is not code: it neither parses alone (as a
    statement, or as the header of a block) nor continues the code around it, or it is a
    lone name or constant (`Solution`, `42`)."""
    if not line.strip() or line[0] in " \t":
        return False
    stripped = line.rstrip()
    if stripped.startswith(_CONTINUATIONS) or stripped.endswith(_OPEN_ENDS[:-1]):
        return False
    tree = _tree(stripped + ("\n    pass" if stripped.endswith(":") else ""))
    if tree is None:
        return True
    return len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr) and \
        isinstance(tree.body[0].value, (ast.Name, ast.Constant, ast.Attribute))


def _is_program(text: str) -> bool:
    tree = _tree(text)
    if tree is None:
        return False
    return any(isinstance(node, _PROGRAM_NODES) or
               (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call))
               for node in tree.body)


def _parses(text: str) -> bool:
    return _tree(text) is not None


def _tree(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
