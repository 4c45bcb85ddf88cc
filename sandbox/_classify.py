"""What a finished run was: its `Status` (ordered so that no limit is reported as another)
and the `Execution` a caller gets."""

from __future__ import annotations

import signal

from sandbox._errors import SandboxError
from sandbox._jail import cgroup_v2_root, cpu_rlimit_s
from sandbox._process import RawRun
from sandbox._types import Execution, Limits, Status

__all__ = ["classify", "cpu_limit_reached", "log_tail", "to_execution"]

_MEMORY_MESSAGES = (b"MemoryError", b"std::bad_alloc", b"JavaScript heap out of memory",
                    b"Array buffer allocation failed", b"Cannot allocate memory",
                    b"xmalloc: cannot allocate", b"out of memory")


def classify(raw: RawRun, limits: Limits, *, cgroup: bool) -> Status:
    """Status of a finished run; ordered so that no limit is reported as another."""
    if raw.jail_failed:
        return "sandbox_error"
    if raw.overflow:
        return "output_limit"
    if raw.timed_out or "run time >= time limit" in raw.jail_log:
        return "timeout"
    if raw.signal == signal.SIGXCPU and cpu_limit_reached(raw, limits):
        return "timeout"
    if raw.oom:  # the run's cgroup killed one of its processes for memory (cgroup v1)
        return "memory_limit"
    if raw.signal == signal.SIGKILL and cpu_limit_reached(raw, limits):
        return "timeout"
    if raw.signal == signal.SIGKILL:
        # Not the CPU limit: a cold or warm program is no jail's pid 1, so its own processes
        # may SIGKILL it (a runtime_error). With a cgroup v2 (raw.oom None: nothing tells),
        # the memory cgroup's OOM killer is the one other sender.
        return "memory_limit" if cgroup and raw.oom is None else "runtime_error"
    if raw.exit_code == 0:
        return "ok"
    tail = raw.stderr[-4096:]
    if any(message in tail for message in _MEMORY_MESSAGES):
        return "memory_limit"
    return "runtime_error"


RLIMIT_CLOCK_SHARE = 0.7
"""The share of its CPU rlimit a run's rusage reads at least when the kernel ended it
there: the rlimit counts scheduler ticks (the whole tick to whoever runs at it), rusage the
scheduler's exact runtime, which reads lower on a busy host (0.91 s at a 1 s rlimit, a
2-core host at load 6, 2026-12-07)."""


def cpu_limit_reached(raw: RawRun, limits: Limits) -> bool:
    """Whether the run spent its CPU rlimit (`cpu_rlimit_s`), as far as rusage can tell: a
    SIGXCPU or SIGKILL the program sends itself, or its child sends it, with less CPU spent
    is no timeout. (One sent after most of the rlimit reads as one.)"""
    return raw.cpu_s >= RLIMIT_CLOCK_SHARE * cpu_rlimit_s(limits)


def to_execution(raw: RawRun, limits: Limits, *, cgroup: bool | None = None,
                 decode_stdout: bool = True) -> Execution:
    """The `Execution` of a finished run. `decode_stdout` False: its `stdout` text is left
    empty (a harness's stream, read from `stdout_bytes` alone)."""
    if raw.jail_failed:
        raise SandboxError(f"nsjail failed to start the program: {log_tail(raw)}")
    status = classify(raw, limits, cgroup=bool(cgroup_v2_root()) if cgroup is None else cgroup)
    return Execution(status=status, exit_code=raw.exit_code, signal=raw.signal,
                     stdout=raw.stdout.decode(errors="replace") if decode_stdout else "",
                     stderr=raw.stderr.decode(errors="replace"), truncated=raw.overflow,
                     wall_s=raw.wall_s, cpu_s=raw.cpu_s,
                     peak_memory_bytes=raw.peak_memory_bytes, stdout_bytes=raw.stdout)


def log_tail(raw: RawRun) -> str:
    """The last error lines of nsjail's log (else of the run's stderr), for a SandboxError."""
    lines = [line for line in raw.jail_log.splitlines() if line.startswith(("[E]", "[F]"))]
    return " | ".join(lines[-4:]) or raw.stderr.decode(errors="replace")[-500:]
