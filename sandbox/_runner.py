"""`run`: one program, one (or, compiled, two) fresh jails, one classified `Execution`."""

from __future__ import annotations

import dataclasses
import logging
import os
import resource
import shutil
import signal
import tempfile
import warnings
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Literal

from sandbox._cache import cached_binary, compile_key, store_binary
from sandbox._errors import SandboxError
from sandbox._jail import JAIL_UID, cgroup_v2_root, check_nsjail, run_jail
from sandbox._languages import LanguageSpec, language_spec
from sandbox._process import RawRun, run_process
from sandbox._types import Execution, Limits, Status

__all__ = ["Backend", "Files", "Mode", "classify", "run", "workspace"]

Backend = Literal["nsjail", "unsafe-subprocess"]
Mode = Literal["auto", "cold", "warm"]
Files = Mapping[str, "str | bytes"]
log = logging.getLogger("sandbox")

_MEMORY_MESSAGES = (b"MemoryError", b"std::bad_alloc", b"JavaScript heap out of memory",
                    b"Array buffer allocation failed", b"Cannot allocate memory",
                    b"xmalloc: cannot allocate", b"out of memory")
_SHM = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def run(code: str, language: str = "python", *, stdin: str | bytes = "",
        files: Files | None = None, limits: Limits | None = None, mode: Mode = "auto",
        backend: Backend = "nsjail") -> Execution:
    """Run `code` isolated and say how it ended. Never raises for a failing program; raises
    `SandboxError` when the sandbox itself cannot work (and `ValueError` for bad arguments).

    mode: `warm` forks the program from a pre-started jailed Python (Python only), `cold`
    starts a fresh jail, `auto` picks warm for Python when the warm pool is enabled.
    backend: `unsafe-subprocess` runs WITHOUT isolation, for development only."""
    spec = language_spec(language)
    limits = limits or Limits()
    data = stdin.encode() if isinstance(stdin, str) else bytes(stdin)
    if backend == "unsafe-subprocess":
        return _run_unsafe(code, spec, data, files or {}, limits)
    if backend != "nsjail":
        raise ValueError(f"unknown backend {backend!r}")
    from sandbox import _warm

    if _warm.use_warm(spec, mode):
        return _warm.run_warm(code, stdin=data, files=files or {}, limits=limits)
    check_nsjail()
    with workspace(code, spec, files or {}) as box:
        failed = _compile(box, spec, limits)
        if failed is not None:
            return failed
        raw = run_jail(spec.run_argv(limits.memory_bytes), limits, stdin=data,
                       output_bytes=limits.output_bytes, binds=box.binds,
                       address_space_extra=spec.address_space_extra)
    return to_execution(raw, limits)


class workspace:
    """A private host folder holding the source and input files, bound read-only into /work."""

    def __init__(self, code: str, spec: LanguageSpec, files: Files,
                 extra: Mapping[str, str | bytes] | None = None) -> None:
        self.spec = spec
        self.root = tempfile.mkdtemp(prefix="sandbox-", dir=_SHM)
        os.chmod(self.root, 0o755)
        self.binds: list[tuple[str, str]] = []
        self.out = os.path.join(self.root, "out")
        self._put(spec.source, code)
        for name, content in {**files, **(extra or {})}.items():
            self._put(_safe_name(name, spec), content)

    def _put(self, name: str, content: str | bytes) -> None:
        host = os.path.join(self.root, "in", name)
        os.makedirs(os.path.dirname(host), mode=0o755, exist_ok=True)
        with open(host, "wb") as fh:
            fh.write(content.encode() if isinstance(content, str) else content)
        os.chmod(host, 0o644)
        self.binds.append((host, f"/work/{name}"))

    def contents(self) -> list[tuple[str, bytes]]:
        """(name in /work, content) of every input file, the source included."""
        out = []
        for host, inside in self.binds:
            with open(host, "rb") as fh:
                out.append((inside, fh.read()))
        return out

    def __enter__(self) -> workspace:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def _safe_name(name: str, spec: LanguageSpec) -> str:
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts or name in (spec.source,
                                                                             "prog"):
        raise ValueError(f"bad file name {name!r}: must be relative, without '..', and not "
                         f"{spec.source!r} or 'prog'")
    return str(path)


def _compile(box: workspace, spec: LanguageSpec, limits: Limits) -> Execution | None:
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
        raise SandboxError(f"the compile jail failed to start: {_log_tail(raw)}")
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


def classify(raw: RawRun, limits: Limits, *, cgroup: bool, warm: bool = False) -> Status:
    """Status of a finished run; ordered so that no limit is reported as another."""
    if raw.jail_failed:
        return "sandbox_error"
    if raw.overflow:
        return "output_limit"
    if raw.timed_out or "run time >= time limit" in raw.jail_log:
        return "timeout"
    if raw.signal == signal.SIGXCPU:
        return "timeout"
    if raw.oom:  # the run's cgroup killed one of its processes for memory (cgroup v1)
        return "memory_limit"
    if raw.signal == signal.SIGKILL:
        # In a cold jail nothing SIGKILLs the program (pid 1 of its namespace) but the
        # RLIMIT_CPU hard limit and, with cgroups, the OOM killer (rusage CPU time can read
        # low against the rlimit's clock, hence the margin). A warm child, not pid 1, can
        # be SIGKILLed by its own processes, and its CPU limit sends SIGXCPU first. Where
        # the cgroup tells whether its OOM killer ran (raw.oom not None), that decides.
        if raw.cpu_s >= 0.7 * limits.cpu_s or (not cgroup and not warm):
            return "timeout"
        return "memory_limit" if cgroup and raw.oom is None else \
            "runtime_error" if warm else "timeout"
    if raw.exit_code == 0:
        return "ok"
    tail = raw.stderr[-4096:]
    if any(message in tail for message in _MEMORY_MESSAGES):
        return "memory_limit"
    return "runtime_error"


def to_execution(raw: RawRun, limits: Limits, *, cgroup: bool | None = None,
                 warm: bool = False) -> Execution:
    if raw.jail_failed:
        raise SandboxError(f"nsjail failed to start the program: {_log_tail(raw)}")
    status = classify(raw, limits, cgroup=bool(cgroup_v2_root()) if cgroup is None else cgroup,
                      warm=warm)
    return Execution(status=status, exit_code=raw.exit_code, signal=raw.signal,
                     stdout=raw.stdout.decode(errors="replace"),
                     stderr=raw.stderr.decode(errors="replace"), truncated=raw.overflow,
                     wall_s=raw.wall_s, cpu_s=raw.cpu_s,
                     peak_memory_bytes=raw.peak_memory_bytes, stdout_bytes=raw.stdout)


def _log_tail(raw: RawRun) -> str:
    lines = [line for line in raw.jail_log.splitlines() if line.startswith(("[E]", "[F]"))]
    return " | ".join(lines[-4:]) or raw.stderr.decode(errors="replace")[-500:]


# --- development only ------------------------------------------------------------------

def _run_unsafe(code: str, spec: LanguageSpec, stdin: bytes, files: Files,
                limits: Limits) -> Execution:
    """No isolation at all: the program runs as this user with this machine's files and
    network. rlimits and the wall limit still apply. Never the default."""
    message = ("sandbox backend 'unsafe-subprocess' runs untrusted code WITHOUT ISOLATION; "
               "use it only for development, never on model output")
    warnings.warn(message, RuntimeWarning, stacklevel=3)
    log.warning(message)
    with workspace(code, spec, files) as box:
        cwd = os.path.join(box.root, "in")
        env = {"PATH": "/usr/bin:/bin", "HOME": cwd, "LANG": "C.UTF-8", "TMPDIR": cwd}

        def local(argv: Sequence[str]) -> list[str]:
            return [a.replace("/out/", cwd + "/").replace("/work/", cwd + "/") for a in argv]

        if spec.compile is not None:
            raw = run_process(local(spec.compile), stdin=b"", wall_s=limits.compile_wall_s,
                              output_bytes=limits.output_bytes, with_jail_log=False, cwd=cwd,
                              env=env)
            if raw.exit_code != 0:
                return Execution(status="compile_error", exit_code=raw.exit_code,
                                 signal=raw.signal, stderr=raw.stderr.decode(errors="replace"),
                                 wall_s=raw.wall_s, cpu_s=raw.cpu_s)
        raw = run_process(local(spec.run_argv(limits.memory_bytes)), stdin=stdin, wall_s=limits.wall_s,
                          output_bytes=limits.output_bytes, with_jail_log=False, cwd=cwd,
                          env=env, preexec_fn=_rlimits(limits, spec))
    return to_execution(raw, limits, cgroup=False)


def _rlimits(limits: Limits, spec: LanguageSpec):  # type: ignore[no-untyped-def]
    def apply() -> None:
        cpu = max(1, int(limits.cpu_s + 0.999))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size_bytes,) * 2)
        memory = limits.memory_bytes + spec.address_space_extra
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return apply
