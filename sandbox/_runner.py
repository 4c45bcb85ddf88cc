"""`run`: one program, one (or, compiled, two) fresh jails, one classified `Execution`."""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import resource
import secrets
import warnings
from collections.abc import Callable, Sequence
from typing import Literal

from sandbox._classify import to_execution
from sandbox._errors import ArgumentError, SandboxError
from sandbox._first_import import read_as_written
from sandbox._in_jail.init import FAILED, INPUTS_REPORT, OWN_FILES, OWN_PROCESSES, SIGNAL_REPORT
from sandbox._jail import PROGRAM_UID, check_nsjail, cpu_rlimit_s, run_jail
from sandbox._languages import PYTHON, PYTHON_FLAGS, LanguageSpec, language_spec
from sandbox._process import RawRun, run_process
from sandbox._spare import SECRET
from sandbox._staging import C_INIT, IN_JAIL, LAUNCHER, init_unbuilt, staged_dir
from sandbox._types import Execution, Limits
from sandbox._warm import run_warm, use_warm
from sandbox._workspace import (
    Files,
    as_bytes,
    check_inputs_fit,
    compile_program,
    program_too_large,
    refused_program,
    workspace,
)

__all__ = ["Backend", "Mode", "run"]

Backend = Literal["nsjail", "unsafe-subprocess"]
Mode = Literal["auto", "cold", "warm"]
log = logging.getLogger("sandbox")


def run(code: str, language: str = "python", *, stdin: str | bytes = "",
        files: Files | None = None, limits: Limits | None = None, mode: Mode = "auto",
        backend: Backend = "nsjail") -> Execution:
    """Run `code` isolated and say how it ended. Never raises for a failing program; raises
    `SandboxError` when the sandbox itself cannot work (and `ArgumentError`, a `ValueError`,
    for bad arguments).

    mode: `warm` forks the program from a pre-started jailed Python (Python only), `cold`
    starts a fresh jail, `auto` picks warm for Python when the warm pool is enabled (a
    program with a PEP 263 cookie of another codec than UTF-8 runs cold in every mode).
    backend: `unsafe-subprocess` runs WITHOUT isolation, for development only."""
    spec = language_spec(language)
    limits = limits or Limits()
    data = as_bytes(stdin)
    refused = refused_program(code, spec)  # one rule for the text, whatever the mode
    if refused is not None:
        return refused
    if backend == "unsafe-subprocess":
        return _run_unsafe(code, spec, data, files or {}, limits)
    if backend != "nsjail":
        raise ArgumentError(f"unknown backend {backend!r}")
    check_inputs_fit(spec, files or {}, limits)  # the caller's inputs: configuration
    too_large = program_too_large(code, spec, files or {}, limits)  # the program's own
    if too_large is not None:
        return too_large
    # a program python3 decodes with another codec than UTF-8 (a PEP 263 cookie) runs cold
    # whatever the mode: a warm child's compile of its bytes would not import that codec
    if use_warm(spec, mode) and read_as_written(code):
        return run_warm(code, stdin=data, files=files or {}, limits=limits)
    check_nsjail()
    with workspace(code, spec, files or {}) as box:
        failed = compile_program(box, spec, limits)
        if failed is not None:
            return failed
        if spec.name != "python":
            raw = run_jail(spec.run_argv(limits.memory_bytes), limits, stdin=data,
                           output_bytes=limits.output_bytes, binds=box.binds,
                           address_space_extra=spec.address_space_extra)
            return to_execution(raw, limits)
        # a Python program's jail holds the harness folder, as a warm server's jail does:
        # what a program sees of the files is the same in both modes. Its pid 1 is the
        # init (`_in_jail/init.py`, compiled from init.c where it could be), processes
        # more than the program's (no share of its memory: `process_budget`), of another
        # uid: the program its child under PROGRAM_UID, as warm, with the init's own
        # taken off its RLIMIT_NPROC and RLIMIT_NOFILE, and no capability. The init copies
        # the inputs from the staging folder into /work first, as warm's child writes them
        # (`init.take_inputs`), under rlimits of its own: the jail's RLIMIT_NOFILE holds
        # its descriptors on top of the program's, its RLIMIT_FSIZE at least /work's size
        # (an input may be larger than what the program may write); the child takes the
        # program's before the exec: exactly `file_size_bytes`, as warm's `set_limit` (not
        # nsjail's whole MiB; red team sb22).
        nonce = secrets.token_hex(NONCE_BYTES)
        jail = dataclasses.replace(limits, open_files=limits.open_files + OWN_FILES,
                                   file_size_bytes=max(limits.file_size_bytes,
                                                       limits.disk_bytes))
        raw = run_jail([*cold_init(), SECRET, str(PROGRAM_UID), str(limits.file_size_bytes),
                        *spec.run_argv(limits.memory_bytes)], jail,
                       extra_processes=OWN_PROCESSES, program_uid=True, stdin=data,
                       output_bytes=limits.output_bytes, stderr_extra=INIT_REPORT_BYTES,
                       binds=[(staged_dir(), IN_JAIL), box.staging_bind],
                       address_space_extra=spec.address_space_extra, secret=nonce)
    return to_execution(from_init(raw, limits.output_bytes, nonce), limits)


PYTHON_INIT = (PYTHON, *PYTHON_FLAGS, LAUNCHER, "init")
"""The init in Python (`_in_jail/init.py`): a second interpreter start per cold run."""
COMPILED_INIT = (C_INIT,)
"""The same init compiled from `_in_jail/init.c` when the harness is staged: an exec."""


def cold_init() -> tuple[str, ...]:
    """What a cold Python run's jail execs, the run's nonce (`SECRET`: `run_jail` puts it
    in, in a spare jail too), the program uid and the program's argv after it: the compiled init where the
    staged folder holds one, else the Python init (said once, in one log line)."""
    return _init_for(staged_dir())


@functools.cache
def _init_for(staged: str) -> tuple[str, ...]:
    why = init_unbuilt(staged)
    if why is None:
        return COMPILED_INIT
    log.warning("sandbox: cold Python runs use the Python init (one more interpreter start "
                "per run): the C init (sandbox/_in_jail/init.c) was not built: %s", why)
    return PYTHON_INIT


NONCE_BYTES = 8
"""Random bytes of the nonce (hex in the init's argv and its report) that only the init of
the run and this host know."""
INIT_REPORT_BYTES = max(len(SIGNAL_REPORT), len(INPUTS_REPORT)) + 2 * NONCE_BYTES + 1 + 4
"""The longest report of the init (a signal's, or the inputs' with an errno): the cap on
stderr is that much higher."""


def from_init(raw: RawRun, output_bytes: int, nonce: str) -> RawRun:
    """The run as the program ended, from what its init (`_in_jail/init.py`) reports: an
    exit code is its own; a signal death is exit 128 + N with the report of N, under the
    run's `nonce`, as stderr's last bytes (taken off); an inputs report under it (the init
    could not copy the inputs, the program never ran) is the sandbox's failure, raised as
    SandboxError with the errno. stdout's cap in the jail is
    `output_bytes`, stderr's higher by the report's length (`INIT_REPORT_BYTES`): stderr
    past `output_bytes` once the report is off is an overflow, cut there, and reads as a
    run ended at the cap."""
    if raw.exit_code == FAILED and not raw.timed_out:
        head = INPUTS_REPORT + f"{nonce} ".encode()
        start = raw.stderr.rfind(head)
        if start >= 0 and raw.stderr.endswith(b"\n") and \
                raw.stderr[start + len(head):-1].isdigit():
            number = int(raw.stderr[start + len(head):-1])
            raise SandboxError(f"the cold init could not copy the run's inputs into /work: "
                               f"{os.strerror(number)} "
                               f"(errno {number})")
    if raw.exit_code is not None and raw.exit_code > 128:
        report = SIGNAL_REPORT + f"{nonce} {raw.exit_code - 128}\n".encode()
        if raw.stderr.endswith(report):
            raw = dataclasses.replace(raw, exit_code=None, signal=raw.exit_code - 128,
                                      stderr=raw.stderr[:-len(report)])
    if len(raw.stderr) > output_bytes:  # past the cap, within the report's room: the program
        # ran on where a cap of its own would have ended it; it reads as a run ended at the
        # cap, as one further past (killed there: no exit code, no signal of its own) and a
        # warm run (red team sb15)
        raw = dataclasses.replace(raw, overflow=True, exit_code=None, signal=None,
                                  stderr=raw.stderr[:output_bytes])
    return raw


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


def _rlimits(limits: Limits, spec: LanguageSpec) -> Callable[[], None]:
    def apply() -> None:
        cpu = cpu_rlimit_s(limits)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size_bytes,) * 2)
        memory = limits.memory_bytes + spec.address_space_extra
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return apply
