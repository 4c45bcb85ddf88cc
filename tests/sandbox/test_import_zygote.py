"""The host's half of the import zygotes (issue #38, NOT ENABLED: docs/sandbox.md, "Import
zygotes"): which first imports a zygote may serve (`first_imports`), that every module of
the allow-list imports only modules known to be the same in every process, and that a
program forked from a process that did its first import from a fresh interpreter's state
observes what the program run by `python3 -E -s -S main.py` observes."""

from __future__ import annotations

import ast
import dataclasses
import itertools
import subprocess
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_probes import SHORT

import sandbox
from sandbox import _warm
from sandbox._first_import import MAX_SOURCE_CHARS, ZYGOTE_MODULES, first_imports
from sandbox._languages import PYTHON

FIRST_IMPORTS = [
    ("from typing import List\n\ndef f(): pass\n", ("typing",)),
    ("import sys\n", None),  # started already: nothing to save, and not on the list
    (
        "import math, collections\nimport heapq\nx = 1\nimport re\n",
        ("math", "collections", "heapq"),
    ),
    (
        '"""doc"""\nfrom typing import List, Dict\nfrom collections import abc\n',
        ("typing", "collections"),
    ),  # collections.abc: the program's own import, as cold
    ("import math, os\nimport typing\n", None),  # the whole statement, and the run, stop
    ("import typing\nimport os\nimport math\n", ("typing",)),
    ("from . import typing\n", None),
    ("import collections.abc\n", None),
    ("import random\n", None),  # seeded from os.urandom at its import
    ("import statistics\n", None),  # imports random
    ("x = 1\nimport typing\n", None),
    ("from typing import List\ndef broken(:\n", None),  # no parse: the cold path says why
    ("import typing as t\nimport typing\n", ("typing",)),
    # PEP 263: only a program python3 reads as this text is keyed (`read_as_written`)
    ("# -*- coding: utf-8 -*-\nimport typing\n", ("typing",)),
    ("#!/usr/bin/env python3\n# coding=UTF-8\nimport typing\n", ("typing",)),
    ("\ufeffimport typing\n", None),  # a BOM: python3 reads it, ast.parse of text does not
    ("# coding: utf-7\n#+AAo-import sys\nimport typing\n", None),  # code in a comment
    ("# -*- coding: latin-1 -*-\nimport typing\n", None),
    ("\n# vim: set fileencoding=ascii :\nimport typing\n", None),  # line 2, not UTF-8
    ("# coding: no-such-codec\nimport typing\n", None),  # python3 refuses it
    ("import typing  # coding: latin-1\n", ("typing",)),  # code before `#`: no cookie
    ("", None),
]


@pytest.mark.parametrize(("code", "expected"), FIRST_IMPORTS)
def test_first_imports_are_a_leading_run_of_allow_listed_imports(
    code: str, expected: tuple[str, ...] | None
) -> None:
    assert first_imports(code) == expected


def test_a_program_past_the_size_cap_is_not_parsed() -> None:
    code = "import typing\n" + "#" * MAX_SOURCE_CHARS
    assert first_imports(code) is None
    assert first_imports(code[:MAX_SOURCE_CHARS]) == ("typing",)


def test_a_parser_warning_made_an_error_by_the_host_is_no_key() -> None:
    """Model output is data: a program whose parse warns (an invalid escape) never raises
    out of `first_imports`, whatever the host's warning filters."""
    code = "import typing\nx = '\\d'\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert first_imports(code) is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert first_imports(code) == ("typing",)


REVIEWED = frozenset(
    {
        "_ast",
        "_bisect",
        "_collections",
        "_collections_abc",
        "_decimal",
        "_functools",
        "_heapq",
        "_opcode",
        "_operator",
        "_sre",
        "_stat",
        "_string",
        "_typing",
        "_weakrefset",
        "ast",
        "bisect",
        "collections",
        "collections.abc",
        "contextlib",
        "copy",
        "copyreg",
        "dataclasses",
        "decimal",
        "dis",
        "enum",
        "fractions",
        "functools",
        "genericpath",
        "heapq",
        "importlib",
        "importlib._bootstrap",
        "importlib._bootstrap_external",
        "importlib.machinery",
        "inspect",
        "itertools",
        "keyword",
        "linecache",
        "math",
        "numbers",
        "opcode",
        "operator",
        "os",
        "os.path",
        "posixpath",
        "re",
        "re._casefix",
        "re._compiler",
        "re._constants",
        "re._parser",
        "reprlib",
        "stat",
        "string",
        "token",
        "tokenize",
        "types",
        "typing",
        "typing.io",
        "typing.re",
        "warnings",
        "weakref",
    }
)
"""Every module the import of an allow-listed module brings in, with the jail's Python,
each reviewed: none seeds, reads the clock, a pid or a thread id at its import (`os` takes
the environment, the jail's own, the same every run; `warnings` the -E interpreter's empty
options)."""


def _imported_by(module: str) -> list[str]:
    probe = (
        "import sys\nbefore = list(sys.modules)\nimport "
        + module
        + "\nprint([name for name in sys.modules if name not in before])"
    )
    done = subprocess.run(
        [PYTHON, "-E", "-s", "-S", "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return ast.literal_eval(done.stdout)


@pytest.mark.parametrize("module", sorted(ZYGOTE_MODULES))
def test_an_allow_listed_import_brings_in_reviewed_modules_only(module: str) -> None:
    """A Python upgrade that makes an allow-listed module import something new (say
    `random`) fails here until that module is reviewed."""
    imported = _imported_by(module)
    assert module in imported
    assert set(imported) <= REVIEWED, sorted(set(imported) - REVIEWED)


PROBE = """
import gc, sys
names = list(sys.modules)
gc.collect()  # what the import left as garbage: see the test's docstring
typed = sorted(type(o).__name__ for o in gc.get_objects()
               if type(o).__module__ in ("typing", "enum", "re", "collections", "functools"))
made = "".join(["Li", "st"])
print(names, len(typed), typed, sys.intern(made) is "List", sys.intern(made) is made)
"""

ZYGOTE = """
import sys, posix
start = len(sys.modules)
for name in sys.argv[1:]:
    __import__(name)
pid = posix.fork()
if pid:
    posix._exit(posix.waitstatus_to_exitcode(posix.waitpid(pid, 0)[1]))
main = type(sys)("__main__")
main.__file__ = sys.argv[0].rpartition("/")[0] + "/main.py"
main.__builtins__ = sys.modules["builtins"]
sys.modules["__main__"] = main
imported = {name: sys.modules.pop(name) for name in list(sys.modules)[start:]}
with open(main.__file__, "rb") as fh:
    code = compile(fh.read(), main.__file__, "exec")
sys.modules.update(imported)
exec(code, vars(main))
"""
"""A zygote on the host, as the in-jail one is designed: a fresh interpreter that imports
the program's first modules (their import only, no binding), forks, and runs the program's
whole source in the child, compiled as cold: before its imports (a warning of the compiler
shows through `warnings` once imported, which imports linecache and tokenize; cold, the
compiler's own C path shows it), so they leave sys.modules for the compile, in order."""


@pytest.mark.parametrize(
    "first",
    [
        "from typing import List",
        "import math, collections\nfrom re import compile",
        "import dataclasses, enum",
        "from fractions import Fraction\nimport decimal",
    ],
)
def test_a_program_forked_after_its_first_import_observes_a_cold_start(
    first: str, tmp_path: Path
) -> None:
    """The modules in sys.modules (in their order), the objects of the modules' types the
    collector tracks, and whether the names the program builds are the interned ones: as a
    cold `python3 -E -s -S main.py`. Only once collected: the import's own garbage (cycles
    the collector has not reached yet) differs with the allocations before it, cold with
    the length of the program (its compile comes first), forked with the zygote's; a
    difference no other run chooses, but a difference. (The script's folder holds main.py before both imports
    here; in a jail the zygote imports before the run's files are written, so its finder of
    /work must be brought to the cold one's state: see the design note.)"""
    source = first + "\n" + PROBE
    (tmp_path / "main.py").write_text(source)
    (tmp_path / "zygote.py").write_text(ZYGOTE)
    modules = first_imports(source)
    assert modules is not None
    cold = subprocess.run(
        [PYTHON, "-E", "-s", "-S", "main.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    forked = subprocess.run(
        [PYTHON, "-E", "-s", "-S", str(tmp_path / "zygote.py"), *modules],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert (forked.stdout, forked.stderr) == (cold.stdout, cold.stderr)
    assert cold.stdout.rstrip().endswith("True False")
    assert "SyntaxWarning" in cold.stderr  # the probe's `is "List"`: a compiler warning


def test_a_program_compiled_after_the_zygotes_import_is_not_cold(tmp_path: Path) -> None:
    """Why the compile comes first: compiled with the zygote's modules in sys.modules, the
    probe's compiler warning goes through `warnings`, which imports linecache and tokenize
    (and compiles tokenize's patterns) where a cold program has neither."""
    source = "from typing import List\n" + PROBE
    (tmp_path / "main.py").write_text(source)
    naive = ZYGOTE.replace("imported = {", "imported = {} and {")
    (tmp_path / "zygote.py").write_text(naive)
    cold = subprocess.run(
        [PYTHON, "-E", "-s", "-S", "main.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    forked = subprocess.run(
        [PYTHON, "-E", "-s", "-S", str(tmp_path / "zygote.py"), "typing"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert "'linecache'" in forked.stdout and "'linecache'" not in cold.stdout


# --- in the jail, with import zygotes on (SANDBOX_IMPORT_ZYGOTES=1: not the default) ------


@pytest.fixture
def zygotes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fresh warm servers with import zygotes, for this test only."""
    _warm.shutdown()
    monkeypatch.setenv("SANDBOX_IMPORT_ZYGOTES", "1")
    yield
    _warm.shutdown()


STATE = """
import gc, os, sys
def finder(f):
    if f is None or not hasattr(f, "_path_cache"):
        return repr(type(f))
    return (f.path, sorted(f._path_cache), f._path_mtime == os.stat(f.path).st_mtime)
gc.collect()
made = "".join(["Li", "st"])
print(list(sys.modules), sys.path, sorted((k, finder(f)) for k, f in sys.path_importer_cache.items()),
      sorted(type(o).__name__ for o in gc.get_objects() if type(o).__module__ == "typing"),
      sys.intern(made) is "List", sys.intern(made) is made, len(os.listdir("/work")))
"""
"""What a program finds after its first import: the modules (in order), the path, each
finder with its listing (and whether that listing is the folder's now), the live objects of
typing's types, interned names and /work (not the uid: warm programs have their own); a compiler warning on stderr."""


@pytest.mark.parametrize(
    "first", ["from typing import List", "import math, collections", "import dataclasses"]
)
def test_a_zygote_served_program_observes_a_cold_start(first: str, zygotes: None) -> None:
    code = first + "\n" + STATE
    cold = sandbox.run(code, limits=SHORT, mode="cold")
    assert cold.status == "ok" and "SyntaxWarning" in cold.stderr, cold
    for _ in range(4):  # the first makes the zygote; the others are forked from it
        warm = sandbox.run(code, limits=SHORT, mode="warm")
        assert (warm.status, warm.stdout, warm.stderr) == ("ok", cold.stdout, cold.stderr)


def test_a_zygote_served_worker_judges_as_cold(zygotes: None) -> None:
    program = "from typing import List\nimport sys\ndef f(x):\n    return len(sys.modules)\n"
    cold = sandbox.run_tests(program, ["assert f(0) == 0"], limits=SHORT, mode="cold")
    modules = cold.results[0].message
    assert "AssertionError" in modules, cold
    for _ in range(4):
        warm = sandbox.run_tests(
            program, ["assert f(0) == 0", "assert f(0) > 0"], limits=SHORT, mode="warm"
        )
        assert [r.outcome for r in warm.results] == ["fail", "pass"], warm
        assert warm.results[0].message == modules
        assert warm.execution.cpu_s > 0


def test_a_program_cannot_reach_or_change_a_zygote(zygotes: None) -> None:
    """The zygote (the program's parent) is another uid: a signal to it is refused, and a
    program's `kill(-1)` ends its own processes only; what it changes in the modules it
    found imported is its own: the next program of that first import finds them fresh."""
    attack = (
        "import typing\nimport os, signal\n"
        "typing.mark = 1\n"
        "try:\n    os.kill(os.getppid(), signal.SIGKILL)\nexcept PermissionError:\n"
        "    print('refused')\n"
        "try:\n    os.kill(-1, signal.SIGKILL)\nexcept OSError:\n    pass\n"
    )
    probe = "import typing\nimport os\nprint(hasattr(typing, 'mark'), os.getppid() > 1)\n"
    sandbox.run(probe, limits=SHORT, mode="warm")  # makes the zygote
    for _ in range(3):
        hit = sandbox.run(attack, limits=SHORT, mode="warm")
        assert (hit.status, hit.stdout) == ("ok", "refused\n"), hit
        after = sandbox.run(probe, limits=SHORT, mode="warm")
        assert (after.status, after.stdout) == ("ok", "False True\n"), after


def test_a_programs_pid_does_not_tell_what_the_run_before_it_imported(zygotes: None) -> None:
    """Making a zygote takes a pid; every run without one takes one too (`keep_zygote`), so
    the pid a program reads moves by as much whatever the runs before it imported."""
    pid = "import os\nprint(os.getpid())\n"
    firsts = ["import math", "import heapq", "x = 1", "import math", "import bisect", "x = 2"]
    seen = []
    for first in firsts:
        seen.append(int(sandbox.run(first + "\n" + pid, limits=SHORT, mode="warm").stdout))
    steps = {b - a for a, b in itertools.pairwise(seen)}
    assert len(steps) == 1, seen


def test_a_server_keeps_two_zygotes_at_most(zygotes: None) -> None:
    """Four first imports, each twice: the server keeps the last two's zygotes (each
    program's parent, another uid: `kill(pid, 0)` finds them, refused), besides itself."""
    for first in ["import math", "import heapq", "import bisect", "import string"]:
        for parent in ("False\n", "True\n"):  # the server's child, then the zygote's
            run = sandbox.run(
                first + "\nimport os\nprint(os.getppid() > 1)\n", limits=SHORT, mode="warm"
            )
            assert (run.status, run.stdout) == ("ok", parent), run
    count = (
        "import os\nfound = 0\nfor pid in range(1, 1 << 15):\n"
        "    if pid == os.getpid():\n        continue\n"
        "    try:\n        os.kill(pid, 0)\n    except ProcessLookupError:\n        continue\n"
        "    except PermissionError:\n        pass\n    found += 1\nprint(found)\n"
    )
    run = sandbox.run(count, limits=SHORT, mode="warm")
    assert (run.status, run.stdout) == ("ok", "3\n"), run


VERDICTS = [
    ("import sys\nsys.exit(3)\n", ("runtime_error", 3, None)),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n", ("runtime_error", None, 15)),
    ("while True:\n    pass\n", ("timeout", None, 9)),
    ("x = [0] * (1 << 40)\n", ("memory_limit", 1, None)),
]


@pytest.mark.parametrize(("body", "verdict"), VERDICTS)
def test_a_zygote_served_programs_verdict_is_a_server_served_ones(
    body: str, verdict: tuple[str, int | None, int | None], zygotes: None
) -> None:
    """The zygote reports its child's wait status and rusage as the server's own wait4
    reads them: exit codes, signals, CPU limits and memory are judged as without it (the
    first run of a first import is the server's own child, the others the zygote's)."""
    code = "from typing import List\n" + body
    limits = dataclasses.replace(SHORT, cpu_s=1.0, wall_s=5.0)
    served = [sandbox.run(code, limits=limits, mode="warm") for _ in range(3)]
    assert [(r.status, r.exit_code, r.signal) for r in served] == [verdict] * 3, served
    assert all(r.cpu_s > 0 for r in served), served
