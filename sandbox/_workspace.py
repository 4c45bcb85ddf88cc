"""The files a run starts from: a private host folder with the source and input files (bound
read-only into /work, or, for a cold Python run, bound whole as the staging folder its init
copies into /work), and, for a compiled language, the compile step in a jail of its own."""

from __future__ import annotations

import dataclasses
import os
import signal
import tempfile
from collections.abc import Mapping
from pathlib import PurePosixPath

from sandbox._cache import FOLDER, cached_binary, compile_key, remove_tree, store_binary
from sandbox._classify import log_tail
from sandbox._errors import ArgumentError, SandboxError
from sandbox._in_jail.init import INPUTS
from sandbox._jail import JAIL_UID, SCRATCH, run_jail
from sandbox._languages import LanguageSpec
from sandbox._process import RawRun
from sandbox._types import Execution, Limits

__all__ = ["Files", "as_bytes", "check_inputs_fit", "compile_program", "program_too_large",
           "refused_program", "safe_name", "workspace"]

Files = Mapping[str, "str | bytes"]


def as_bytes(content: str | bytes) -> bytes:
    """A program's text, an input file or stdin as the bytes the jail gets: UTF-8, where a
    lone surrogate (a model's "\\ud800" JSON escape) keeps its code point as bytes no
    decoder reads as UTF-8 (`surrogatepass`). So such a program fails in the jail as any
    program in broken text does (a syntax error, the same warm and cold), where a strict
    encode raised UnicodeEncodeError out of `sandbox.run` on the host (cold only) and left
    the run's scratch folder behind. The warm server's child encodes the same way
    (`write_inputs` in _in_jail/warm_server.py)."""
    return content.encode("utf-8", "surrogatepass") if isinstance(content, str) \
        else bytes(content)


def refused_program(code: str | bytes, spec: LanguageSpec) -> Execution | None:
    """The one rule for a program's text, decided on the host before any mode or backend:
    the text that runs is the text every reader (the rule layer, a judge, a log) sees. A NUL
    character breaks that in every language here: the jail's python3 (3.11.2) stops reading
    the file at it and runs the prefix where the warm harness's compile() refuses the whole;
    gcc and g++ drop it ("null character(s) ignored": `ret\0urn` compiles as `return`),
    bash drops it too, node keeps it. So a program holding one is refused before it runs,
    warm or cold, as its language's own syntax error would be: `compile_error` for a compiled
    language, `runtime_error` otherwise, with a message naming the line; it never runs.
    (Other text travels as `as_bytes` writes it: a lone surrogate becomes bytes no UTF-8
    reader accepts, and the interpreter refuses the file the same way in both modes.)"""
    if isinstance(code, str):
        nul = code.find("\0")
        line = code.count("\n", 0, nul) + 1
    else:
        nul = bytes(code).find(b"\0")
        line = bytes(code).count(b"\n", 0, nul) + 1
    if nul < 0:
        return None
    message = (f"sandbox: {spec.source}, line {line}: the program holds a NUL character "
               "(U+0000); refused before it runs (an interpreter or compiler would stop "
               "reading or skip it, and run other text than the program's)\n")
    if spec.compile is not None:
        return Execution(status="compile_error", stderr=message)
    return Execution(status="runtime_error", stderr=message)


def _pages(length: int) -> int:
    """The bytes tmpfs takes for a file of `length` bytes: whole pages."""
    page = os.sysconf("SC_PAGE_SIZE")
    return -(-length // page) * page


def _room(limits: Limits) -> int:
    """The bytes /work holds for the program and its inputs: its tmpfs size, and the run's
    memory where a cgroup holds it (the warm child and the cold init write them there)."""
    return min(limits.disk_bytes, limits.memory_bytes)


def _inputs_bytes(files: Files) -> int:
    return sum(_pages(len(as_bytes(content))) for content in files.values())


def check_inputs_fit(spec: LanguageSpec, files: Files, limits: Limits) -> None:
    """Raise ArgumentError where the caller's input files (configuration, never model
    output) cannot be written into /work's tmpfs beside the smallest program, in either
    mode: more bytes (whole pages each, as tmpfs counts them, and one page for the
    program's source) than `disk_bytes` or `memory_bytes`, or more files and folders than
    `disk_files` (the tmpfs root's and the source's inodes included). Such a run never had
    the room to start: a clear error before it, never a verdict. The program's own size is
    not counted here: a program too large for the room the inputs leave is its own
    failure (`program_too_large`), never an error that masks the sample (red team sb22)."""
    folders: set[str] = set()
    for name in files:
        path = PurePosixPath(safe_name(name, spec))
        folders.update(str(parent) for parent in path.parents if str(parent) != ".")
    size = _inputs_bytes(files) + _pages(1)
    inodes = 2 + len(files) + len(folders)  # the root and the program's source
    if size > _room(limits) or inodes > limits.disk_files:
        raise ArgumentError(
            f"the program's first page and its {len(files)} input files take {size} bytes "
            f"and {inodes} inodes of /work, more than the run's disk_bytes "
            f"({limits.disk_bytes}), memory_bytes ({limits.memory_bytes}) or disk_files "
            f"({limits.disk_files})")


def program_too_large(code: str | bytes, spec: LanguageSpec, files: Files,
                      limits: Limits) -> Execution | None:
    """The program's own failure where its text does not fit in the room /work has left
    beside the inputs (`check_inputs_fit` admitted them with one page for it): decided on
    the host before any mode, so the same verdict cold and warm (`compile_error` for a
    compiled language, `runtime_error` otherwise, as `refused_program`); None where it
    fits. Model output never makes a run abstain."""
    size = _pages(len(as_bytes(code)))
    room = _room(limits) - _inputs_bytes(files)
    if size <= room:
        return None
    message = (f"sandbox: {spec.source} takes {size} bytes of /work, more than the "
               f"{room} bytes its input files leave (disk_bytes {limits.disk_bytes}, "
               f"memory_bytes {limits.memory_bytes}); it never ran\n")
    if spec.compile is not None:
        return Execution(status="compile_error", stderr=message)
    return Execution(status="runtime_error", stderr=message)


class workspace:
    """A private host folder holding the source and input files (`staging`), bound
    read-only into /work file by file (`binds`), or whole at INPUTS (`staging_bind`) for a
    jail whose pid 1 copies them into /work (`_in_jail/init.py`'s `take_inputs`). The
    staging folder is the jail uid's, mode 0o700: the init reads it, no program uid can."""

    def __init__(self, code: str, spec: LanguageSpec, files: Files,
                 extra: Mapping[str, str | bytes] | None = None) -> None:
        self.spec = spec
        self.root = tempfile.mkdtemp(prefix="sandbox-", dir=SCRATCH)
        os.chmod(self.root, 0o755)
        self.staging = os.path.join(self.root, "in")
        os.mkdir(self.staging, 0o700)
        if os.geteuid() == 0:  # a jail's uid must read it (the unsafe backend: this user)
            os.chown(self.staging, JAIL_UID, JAIL_UID)
        self.staging_bind = (self.staging, INPUTS)
        self.binds: list[tuple[str, str]] = []
        self.names: list[str] = []
        self.out = os.path.join(self.root, "out")
        # by directory descriptors, never by a host path below the staging folder: any
        # name the jail takes (`safe_name`) is written, past PATH_MAX too (red team sb22)
        self._folder = ("", os.open(self.staging, FOLDER))
        try:
            self._put(spec.source, code)
            for name, content in {**files, **(extra or {})}.items():
                self._put(safe_name(name, spec), content)
        finally:
            os.close(self._folder[1])

    def _put(self, name: str, content: str | bytes) -> None:
        relative, _, base = name.rpartition("/")
        if relative != self._folder[0]:  # files of one folder in a row share its descriptor
            folder = open_folder(self.staging, relative, make=True)
            os.close(self._folder[1])
            self._folder = (relative, folder)
        fd = os.open(base, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o644, dir_fd=self._folder[1])
        with open(fd, "wb") as fh:
            fh.write(as_bytes(content))
            os.fchmod(fd, 0o644)
        self.names.append(name)
        self.binds.append((os.path.join(self.staging, name), f"/work/{name}"))

    def contents(self) -> list[tuple[str, bytes]]:
        """(name in /work, content) of every input file, the source included."""
        out = []
        for name in self.names:
            relative, _, base = name.rpartition("/")
            folder = open_folder(self.staging, relative)
            try:
                fd = os.open(base, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
            finally:
                os.close(folder)
            with open(fd, "rb") as fh:
                out.append((f"/work/{name}", fh.read()))
        return out

    def __enter__(self) -> workspace:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        remove_tree(self.root)


def open_folder(root: str, relative: str, make: bool = False) -> int:
    """A descriptor of the folder `relative` (a `safe_name`'s folder part, "" for `root`)
    under the host folder `root`, reached one level at a time by directory descriptors
    (mkdirat-style, each made mode 0o755 first where `make`): never a host path below
    `root`, so a name of any length the jail takes works (a path string past PATH_MAX is
    ENAMETOOLONG), and no recursion (a task folder may be deeper than Python's recursion
    limit). A level that is a link or a file raises (ELOOP, ENOTDIR): only this host
    writes the tree."""
    fd = os.open(root, FOLDER)
    try:
        for part in relative.split("/") if relative else ():
            if make:
                try:
                    os.mkdir(part, 0o755, dir_fd=fd)
                except FileExistsError:
                    pass
            below = os.open(part, FOLDER, dir_fd=fd)
            os.close(fd)
            fd = below
    except BaseException:
        os.close(fd)
        raise
    return fd


PATH_MAX = os.pathconf("/", "PC_PATH_MAX")
NAME_MAX = os.pathconf("/", "PC_NAME_MAX")


def safe_name(name: str, spec: LanguageSpec) -> str:
    """`name` of an input file, normalized (`./a//b/.` is `a/b`), then checked on what it
    names: relative, without '..', and neither the source, the binary nor a path through
    them (`./main.py` and `main.py/.` are the program itself: checked after normalizing)."""
    path = PurePosixPath(name if isinstance(name, str) else "/")
    if "\0" in path.as_posix() or path.is_absolute() or ".." in path.parts or \
            not path.parts or path.parts[0] in (spec.source, "prog"):
        raise ArgumentError(f"bad file name {name!r}: must be relative, without '..', and not "
                            f"{spec.source!r} or 'prog'")
    # what every jail takes: a part of at most NAME_MAX bytes, and the path the cold init
    # reads it from (INPUTS, the longest of /work and INPUTS) within PATH_MAX with its NUL;
    # else one ArgumentError naming the file, cold and warm alike, never a host OSError
    if any(len(part.encode("utf-8", "surrogatepass")) > NAME_MAX for part in path.parts) or \
            len(f"{INPUTS}/{path}".encode("utf-8", "surrogatepass")) >= PATH_MAX:
        raise ArgumentError(f"file name too long {str(path)[:64]!r}... "
                            f"({len(str(path))} characters): a part of at most {NAME_MAX} "
                            f"bytes, the whole at most {PATH_MAX - len(INPUTS) - 2} bytes")
    return str(path)


def compile_program(box: workspace, spec: LanguageSpec, limits: Limits) -> Execution | None:
    """Compile in a jail of its own; None on success (the binary is bound in for the run),
    else the `compile_error` Execution carrying the compiler's message."""
    if spec.compile is None:
        return None
    key = compile_key(spec.compile, box.contents())
    cached = cached_binary(key)
    if cached is not None:  # the same program compiled before (public, then hidden tests)
        box.binds.append((cached, "/work/prog"))
        return None
    os.makedirs(box.out, mode=0o755)
    os.chown(box.out, JAIL_UID, JAIL_UID)
    build = dataclasses.replace(limits, wall_s=limits.compile_wall_s,
                                cpu_s=limits.compile_wall_s,
                                memory_bytes=limits.compile_memory_bytes,
                                # gcc, cc1plus, as, then collect2 and ld: without
                                # cgroups each of 6 processes gets a sixth of the memory
                                processes=6,
                                # every file the compiler writes, the binary (on the
                                # host, in box.out) and its temporary objects included
                                file_size_bytes=limits.binary_bytes,
                                open_files=max(limits.open_files, 256),
                                disk_bytes=max(limits.disk_bytes, 256 << 20),
                                disk_files=max(limits.disk_files, 4096))
    raw = run_jail(spec.compile, build, stdin=b"", output_bytes=limits.output_bytes,
                   binds=box.binds, rw_binds=[(box.out, "/out")], mounts=spec.mounts)
    binary = os.path.join(box.out, "prog")
    if raw.jail_failed:
        raise SandboxError(f"the compile jail failed to start: {log_tail(raw)}")
    if raw.exit_code == 0 and os.path.isfile(binary):
        store_binary(key, binary)
        box.binds.append((binary, "/work/prog"))
        return None
    message = raw.stderr.decode(errors="replace")
    if raw.timed_out:
        message += f"\ncompilation exceeded {build.wall_s:g} s"
    elif raw.oom:
        message += (f"\ncompilation exceeded its memory limit "
                    f"({limits.compile_memory_bytes >> 20} MiB)")
    elif raw.signal is not None:
        message += f"\ncompiler killed by signal {raw.signal}"
    if _file_too_large(raw):
        message += (f"\nthe compiled program exceeds the binary size limit "
                    f"({limits.binary_bytes >> 20} MiB)")
    return Execution(status="compile_error", exit_code=raw.exit_code, signal=raw.signal,
                     stdout=raw.stdout.decode(errors="replace"), stderr=message,
                     truncated=raw.overflow, wall_s=raw.wall_s, cpu_s=raw.cpu_s,
                     peak_memory_bytes=raw.peak_memory_bytes)


def _file_too_large(raw: RawRun) -> bool:
    """The compiler (or linker, assembler) was stopped by RLIMIT_FSIZE: binary_bytes."""
    tail = raw.stderr[-4096:]
    return raw.signal == signal.SIGXFSZ or b"File size limit exceeded" in tail \
        or b"File too large" in tail
