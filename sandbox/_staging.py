"""The sandbox's own in-jail Python package (`sandbox._in_jail`: the test harness and the warm
server; its docstring tells the stages), staged once in a content-addressed folder with
bytecode compiled by the jail's interpreter, and bound read-only at /harness. A script run
as `python3 file.py` is recompiled on every start and a read-only bind cannot take a
`__pycache__`, so the jail runs a short launcher that imports the precompiled modules
instead (a cold harness starts ~10 ms faster on a busy machine). The cold Python run's init
is compiled there too, from `_in_jail/init.c`, with the system's C compiler (`cc`):
`/harness/init`, absent (and the reason in `INIT_UNBUILT`) where it cannot be built."""

from __future__ import annotations

import atexit
import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from sandbox._cache import cache_root, owned
from sandbox._errors import SandboxError
from sandbox._in_jail import init
from sandbox._languages import PYTHON

__all__ = ["C_INIT", "IN_JAIL", "LAUNCHER", "init_defines", "init_unbuilt", "staged_dir"]

IN_JAIL = "/harness"
LAUNCHER = f"{IN_JAIL}/run.py"
PACKAGE = "_in_jail"
"""The package's folder, here under sandbox/ and in the jail under /harness."""
_SOURCES = ("__init__.py", "address_space.py", "harness.py", "harness_io.py", "harness_program.py",
            "harness_wire.py", "init.py", "session_server.py", "warm_server.py")
INIT_SOURCE = "init.c"
"""The C init's source in the package (copied too: the staged folder shows what it ran)."""
INIT_BINARY = "init"
C_INIT = f"{IN_JAIL}/{INIT_BINARY}"
"""The compiled init in the jail (`_in_jail/init.c`, the contract of `_in_jail/init.py`)."""
INIT_UNBUILT = "init-unbuilt.txt"
"""In the staged folder instead of `init` where it could not be built: why."""
INIT_COMPILE_S = 60.0
INPUTS_FOLDER = "inputs"
"""An empty folder of the staged folder: the mount point of a cold Python run's staging
folder (`init.INPUTS`)."""
assert init.INPUTS == f"{IN_JAIL}/{INPUTS_FOLDER}", "init.INPUTS is the staged folder's"
_RUN = ("import sys\n"
        # a fresh interpreter's import system, before anything is imported (harness_program.COLD)
        "COLD = (set(sys.modules), [*sys.meta_path], [*sys.path_hooks], [*sys.path],\n"
        "        {k: (v, getattr(v, '__dict__', None) and dict(vars(v)))"
        " for k, v in sys.path_importer_cache.items()})\n"
        "sys.path[0] = '/harness'\n"  # only the staged folder: never the program's /work
        # a forked child that runs a program goes on from here, the frames that forked it
        # unwound (harness_program.Then): a program's frames start as deep in every mode
        "__then = None\n"
        "try:\n"
        "    if sys.argv[1] == 'init':\n"
        f"        from {PACKAGE} import init\n"
        "        init.main(sys.argv[2:])\n"
        "    elif sys.argv[1] == 'warm-server':\n"
        # its address space before the harness is loaded: a cold program's at its start
        f"        from {PACKAGE}.address_space import size as __size\n"
        "        __start = __size()\n"
        "        del __size\n"
        f"        from {PACKAGE} import warm_server\n"
        "        warm_server.main(*map(int, sys.argv[2:]), start=__start)\n"
        "    elif sys.argv[1] == 'session-server':\n"
        f"        from {PACKAGE} import session_server\n"
        "        session_server.main(int(sys.argv[2]), int(sys.argv[3]))\n"
        f"    else:\n        from {PACKAGE} import harness\n        harness.entry(sys.argv[1:])\n"
        "except BaseException as __exc:\n"
        "    if type(__exc).__name__ != 'Then':\n"
        "        raise\n"
        "    __then = __exc.then\n"
        "if __then is not None:\n"
        "    __then[0](*__then[1])\n")
_COMPILE = ("import importlib.util, py_compile, sys\n"
            "for src in sys.argv[1:]:\n"
            "    py_compile.compile(src, cfile=importlib.util.cache_from_source(src),"
            " doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)\n")


def _digest(here: Path) -> str:
    h = hashlib.sha256(_RUN.encode() + _COMPILE.encode())
    for name in (*_SOURCES, INIT_SOURCE):
        h.update(name.encode() + b"\0" + (here / name).read_bytes())
    for tool in (PYTHON, _compiler()):  # a compiler installed or changed since: a new build
        if tool is not None:
            info = os.stat(tool)
            h.update(f"{tool}:{info.st_size}:{info.st_mtime_ns}".encode())
    h.update("\0".join(_init_command("init.c", "init", static=True)).encode())
    return h.hexdigest()[:20]


def _compiler() -> str | None:
    """The system's C compiler (`cc` on PATH, links resolved), or None."""
    found = shutil.which("cc")
    return os.path.realpath(found) if found else None


def init_defines() -> list[str]:
    """`init.py`'s constants as the C init's -D defines: the report's bytes (every byte an
    octal escape: the first is a NUL), the exit codes and the init's own process count are
    defined once, in Python."""
    def octal(report: bytes) -> str:
        return "".join(f"\\{byte:03o}" for byte in report)

    return [f'-DINIT_SIGNAL_REPORT="{octal(init.SIGNAL_REPORT)}"',
            f'-DINIT_INPUTS_REPORT="{octal(init.INPUTS_REPORT)}"',
            f'-DINIT_INPUTS="{init.INPUTS}"', f'-DINIT_WORK="{init.WORK}"',
            f"-DINIT_FAILED={init.FAILED}", f"-DINIT_NOT_STARTED={init.NOT_STARTED}",
            f"-DINIT_OWN_PROCESSES={init.OWN_PROCESSES}", f"-DINIT_OWN_FILES={init.OWN_FILES}"]


def _init_command(source: str, binary: str, *, static: bool) -> list[str]:
    return ["cc", "-O2", "-s", "-std=c99", "-Wall", "-Wextra", *(["-static"] if static else []),
            *init_defines(), "-o", binary, source]


def init_unbuilt(staged: str) -> str | None:
    """Why the staged folder `staged` holds no C init (then a cold run's init is the Python
    one), or None when it does."""
    if os.path.isfile(os.path.join(staged, INIT_BINARY)):
        try:  # the jail's read-only bind of the folder keeps its file system's noexec
            noexec = bool(os.statvfs(staged).f_flag & os.ST_NOEXEC)
        except OSError as exc:
            return f"cannot stat the staged folder {staged}: {exc}"
        return f"{staged} is on a file system mounted noexec" if noexec else None
    try:
        with open(os.path.join(staged, INIT_UNBUILT)) as fh:
            return fh.read().strip() or "unknown"
    except OSError:
        return "unknown"


def _trusted(path: Path) -> bool:
    """Ours and writable by nobody else: a staged harness decides verdicts."""
    return owned(path) and (path / "run.py").is_file() and \
        (path / INPUTS_FOLDER).is_dir() and (
        (path / INIT_BINARY).is_file() or (path / INIT_UNBUILT).is_file())


@functools.cache
def staged_dir() -> str:
    """Folder holding run.py and the package `_in_jail` with its bytecode. Shared
    by every process of this user (content-addressed under /tmp/rewards-sandbox-UID, built
    once, atomically), so processes that exit without cleanup (forked pool workers) leave
    nothing behind; a private temporary copy is used if that cache is unusable."""
    here = Path(__file__).parent / PACKAGE
    try:
        shared = _shared_copy(here)
    except OSError:
        shared = None
    if shared is not None:
        return shared
    root = _build(here, tempfile.mkdtemp(prefix="sandbox-harness-"))
    atexit.register(shutil.rmtree, root, True)
    return root


def _shared_copy(here: Path) -> str | None:
    """The staged folder in this user's cache, built there if missing; None when the cache
    folder is not ours alone or the copy there cannot be trusted."""
    cache = cache_root()
    if cache is None:
        return None
    final = cache / f"harness-{_digest(here)}"
    if _trusted(final):
        return str(final)
    building = _build(here, tempfile.mkdtemp(prefix="building-", dir=cache))
    try:
        os.rename(building, final)  # atomic: a concurrent builder's copy may win
    except OSError:
        shutil.rmtree(building, ignore_errors=True)
    return str(final) if _trusted(final) else None


def _build(here: Path, root: str) -> str:
    os.mkdir(os.path.join(root, PACKAGE))
    os.mkdir(os.path.join(root, INPUTS_FOLDER))
    sources = [os.path.join(root, PACKAGE, name) for name in _SOURCES]
    for name, staged in zip(_SOURCES, sources):
        shutil.copyfile(here / name, staged)
    with open(os.path.join(root, "run.py"), "w") as fh:
        fh.write(_RUN)
    proc = subprocess.run([PYTHON, "-E", "-s", "-S", "-c", _COMPILE, *sources],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise SandboxError(f"cannot compile the sandbox harness with {PYTHON}: "
                           f"{proc.stderr.strip()[-500:]}")
    _build_init(here, root)
    for path, _, files in os.walk(root):
        os.chmod(path, 0o755)
        for name in files:
            os.chmod(os.path.join(path, name), 0o755 if name == INIT_BINARY else 0o644)
    return root


def _build_init(here: Path, root: str) -> None:
    """Compile `init.c` into `root/init`: static where the C library's archive links, else
    dynamic (the jail binds /lib, /lib64 and /usr/lib read-only). Where no compiler
    exists or both fail, write why to `root/INIT_UNBUILT` instead (cold runs then use the
    Python init)."""
    source = os.path.join(root, PACKAGE, INIT_SOURCE)
    shutil.copyfile(here / INIT_SOURCE, source)
    compiler = _compiler()
    if compiler is None:
        why = "no C compiler (cc) on PATH"
    else:
        why = ""
        for static in (True, False):
            command = _init_command(source, os.path.join(root, INIT_BINARY), static=static)
            command[0] = compiler
            try:
                proc = subprocess.run(command, capture_output=True, text=True, check=False,
                                      timeout=INIT_COMPILE_S)
            except (OSError, subprocess.TimeoutExpired) as exc:
                why = f"{compiler}: {exc}"
                break
            if proc.returncode == 0:
                return
            why = f"{compiler} exited {proc.returncode}: {proc.stderr.strip()[-300:]}"
    with open(os.path.join(root, INIT_UNBUILT), "w") as fh:
        fh.write(why + "\n")
