"""The sandbox's own in-jail Python files (the test harness and the warm server), staged once
per process in a private folder with bytecode compiled by the jail's interpreter, and bound
read-only at /harness. A script run as `python3 file.py` is recompiled on every start and a
read-only bind cannot take a `__pycache__`, so the jail runs a two-line launcher that imports
the precompiled modules instead (a cold harness starts ~10 ms faster on a busy machine)."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from sandbox._errors import SandboxError
from sandbox._languages import PYTHON

__all__ = ["IN_JAIL", "LAUNCHER", "staged_dir"]

IN_JAIL = "/harness"
LAUNCHER = f"{IN_JAIL}/run.py"
_SOURCES = {"harness.py": "_harness.py", "harness_wire.py": "_harness_wire.py",
            "harness_program.py": "_harness_program.py", "warm_server.py": "_warm_server.py"}
_RUN = ("import sys\n"
        "sys.path[0] = '/harness'\n"  # only the staged folder: never the program's /work
        "if sys.argv[1] == 'warm-server':\n"
        "    import warm_server\n    warm_server.main(int(sys.argv[2]))\n"
        "else:\n    import harness\n    harness.entry(sys.argv[1:])\n")
_COMPILE = ("import importlib.util, py_compile, sys\n"
            "for src in sys.argv[1:]:\n"
            "    py_compile.compile(src, cfile=importlib.util.cache_from_source(src),"
            " doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)\n")


@functools.cache
def staged_dir() -> str:
    """Host folder holding run.py, the harness modules, warm_server.py and their bytecode."""
    root = tempfile.mkdtemp(prefix="sandbox-harness-")
    atexit.register(shutil.rmtree, root, True)
    here = Path(__file__).parent
    for name, source in _SOURCES.items():
        shutil.copyfile(here / source, os.path.join(root, name))
    with open(os.path.join(root, "run.py"), "w") as fh:
        fh.write(_RUN)
    sources = [os.path.join(root, name) for name in _SOURCES]
    proc = subprocess.run([PYTHON, "-E", "-s", "-S", "-c", _COMPILE, *sources],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SandboxError(f"cannot compile the sandbox harness with {PYTHON}: "
                           f"{proc.stderr.strip()[-500:]}")
    for path, dirs, files in os.walk(root):
        os.chmod(path, 0o755)
        for name in files:
            os.chmod(os.path.join(path, name), 0o644)
    return root
