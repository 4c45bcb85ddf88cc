"""What a finished run was: its `Status` (ordered so that no limit is reported as another)
and the `Execution` a caller gets."""

from __future__ import annotations

import signal

from sandbox._errors import SandboxError
from sandbox._jail import cgroup_v2_root
from sandbox._process import RawRun
from sandbox._types import Execution, Limits, Status

__all__ = ["classify", "log_tail", "to_execution"]

_MEMORY_MESSAGES = (b"MemoryError", b"std::bad_alloc", b"JavaScript heap out of memory",
                    b"Array buffer allocation failed", b"Cannot allocate memory",
                    b"xmalloc: cannot allocate", b"out of memory")


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
                 warm: bool = False, decode_stdout: bool = True) -> Execution:
    """The `Execution` of a finished run. `decode_stdout` False: its `stdout` text is left
    empty (a harness's stream, read from `stdout_bytes` alone)."""
    if raw.jail_failed:
        raise SandboxError(f"nsjail failed to start the program: {log_tail(raw)}")
    status = classify(raw, limits, cgroup=bool(cgroup_v2_root()) if cgroup is None else cgroup,
                      warm=warm)
    return Execution(status=status, exit_code=raw.exit_code, signal=raw.signal,
                     stdout=raw.stdout.decode(errors="replace") if decode_stdout else "",
                     stderr=raw.stderr.decode(errors="replace"), truncated=raw.overflow,
                     wall_s=raw.wall_s, cpu_s=raw.cpu_s,
                     peak_memory_bytes=raw.peak_memory_bytes, stdout_bytes=raw.stdout)


def log_tail(raw: RawRun) -> str:
    """The last error lines of nsjail's log (else of the run's stderr), for a SandboxError."""
    lines = [line for line in raw.jail_log.splitlines() if line.startswith(("[E]", "[F]"))]
    return " | ".join(lines[-4:]) or raw.stderr.decode(errors="replace")[-500:]
