"""The first import of a Python program, read on the host: the key of an import zygote
(issue #38, docs/sandbox.md, "Import zygotes"). NOT ENABLED by default: only warm servers
started with `SANDBOX_IMPORT_ZYGOTES=1` keep zygotes (`warm_server.ImportZygote`), and only
their runs' headers carry the key.

A warm program starts from a fresh interpreter's import system (`harness_program.as_cold`),
so its first line, typically `from typing import List`, runs the bodies of typing, re, enum,
collections and functools again in every run: ~88% of a code-reward program's CPU. A zygote
that performed exactly that import from the same cold state, and forks the program, which
then runs its whole source unchanged (its import finds the modules in `sys.modules`, as a
cold program's own import leaves them), keeps warm = cold by construction, provided the
import does nothing that depends on the process or the moment (a seed, a pid, a clock):
`ZYGOTE_MODULES` is the allow-list of modules known to be so, with everything they import
(`tests/sandbox/test_import_zygote.py` checks that closure against the jail's Python).

Both the key and a warm run at all need the jail to read the program as the host's text
(`read_as_written`): a PEP 263 cookie of another codec sends a program cold.
"""

from __future__ import annotations

import ast
import codecs
import os
import tokenize

__all__ = [
    "MAX_SOURCE_CHARS",
    "ZYGOTE_MODULES",
    "first_imports",
    "read_as_written",
    "zygotes_enabled",
]


def zygotes_enabled() -> bool:
    """Whether new warm servers keep import zygotes: only with `SANDBOX_IMPORT_ZYGOTES=1`
    (off by default: not every requirement of the design is met, see the docs)."""
    return os.environ.get("SANDBOX_IMPORT_ZYGOTES") == "1"


ZYGOTE_MODULES = frozenset(
    {
        "bisect",
        "collections",
        "copy",
        "dataclasses",
        "decimal",
        "enum",
        "fractions",
        "functools",
        "heapq",
        "itertools",
        "math",
        "operator",
        "re",
        "string",
        "typing",
    }
)
"""Standard-library modules whose import (and that of every module it imports) is the same
in every process: no random state (`random` seeds itself from os.urandom, `statistics` and
`tempfile` import it), nothing read from the clock, the pid or a thread's id (`threading`
records its main thread's). A module is added only with its import closure reviewed."""

MAX_SOURCE_CHARS = 1 << 16
"""Past this, a program is not parsed for its first import (the host's `ast.parse` costs
about what the program's own compile costs): it runs as without a zygote."""


def first_imports(code: str) -> tuple[str, ...] | None:
    """The modules a program's first statements import, in the order it imports them, when
    those statements are a leading run of plain imports (`import a, b`, `from a import x`,
    after a docstring at most) of `ZYGOTE_MODULES` only; None when the program does not start
    so, or does not parse. The run stops at the first other statement, or at an import that
    names anything else (`import math, os`: the whole statement): a zygote that imported a
    later module first would put it in `sys.modules` before one the program imports before
    it. Only the modules count, never the names bound: the program binds them itself. A
    program the jail does not read as this text (`read_as_written`) is never keyed."""
    if len(code) > MAX_SOURCE_CHARS or not read_as_written(code):
        return None
    try:
        body = ast.parse(code).body
    except (SyntaxError, ValueError, MemoryError, RecursionError, Warning):
        return None  # Warning: the host's filters made a parser's warning an error
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]  # a docstring: __doc__ set, nothing run
    modules: list[str] = []
    for statement in body:
        if isinstance(statement, ast.Import):
            names = [alias.name for alias in statement.names]
        elif (
            isinstance(statement, ast.ImportFrom)
            and statement.level == 0
            and statement.module is not None
        ):
            names = [statement.module]
        else:
            break
        if not all(name in ZYGOTE_MODULES for name in names):
            break
        modules += [name for name in names if name not in modules]
    return tuple(modules) or None


def read_as_written(code: str) -> bool:
    """Whether `python3 main.py` reads the program as `code`, the text the host has: its
    file (`code` in UTF-8) has no PEP 263 cookie, or one naming UTF-8, as CPython's own
    rule (`tokenize.detect_encoding`) finds it in the first two lines. Otherwise python3
    decodes the file with another codec, whose module it imports to read it: `# coding:
    utf-7` turns a comment of this text into code, and a warm child's compile of the bytes
    decodes latin-1 without that import. Such a program is never served by a zygote
    (`first_imports`) nor by a warm server: it runs cold (`_runner.run`). (A cookie needs
    the word "coding" in those lines: a `\\r` line end only makes them longer here.)

    The cookie's name is never looked up on the host (`codecs.lookup` would import and
    cache whatever a program names, any length, for good): a name is UTF-8 only where
    the tokenizer's own normalization makes it "utf-8" (`names_utf8`), an allow-list;
    anything else, an unknown codec included, runs cold, whose python3 says what it is."""
    if "coding" not in "\n".join(code.split("\n", 2)[:2]):
        return True
    first, *rest = code.encode("utf-8", "surrogatepass").splitlines(keepends=True)[:2]
    bom = first.startswith(codecs.BOM_UTF8)
    for number, line in enumerate((first[3:] if bom else first, *rest)):
        try:  # as tokenize's find_cookie: a line that is not UTF-8 is refused
            match = tokenize.cookie_re.match(line.decode("utf-8"))
        except UnicodeDecodeError:
            return False
        if match is not None:  # with a BOM, python3 takes a cookie of utf-8 alone
            return names_utf8(match.group(1))
        if number == 0 and not tokenize.blank_re.match(line):
            break  # a cookie on line 2 needs a blank or comment line 1
    return True


def names_utf8(name: str) -> bool:
    """Whether a cookie's codec name is UTF-8 to python3 without a codec lookup: its first
    12 characters, lower case, `_` as `-`, are "utf-8" or start "utf-8-" (CPython's
    `get_normal_name`, and tokenize's `_get_normal_name`: the tokenizer then reads the file
    as UTF-8 itself). Other spellings of UTF-8 (`utf8`, `u8`) go through the codec machinery
    and run cold, as unknown names do."""
    normal = name[:12].lower().replace("_", "-")
    return normal == "utf-8" or normal.startswith("utf-8-")
