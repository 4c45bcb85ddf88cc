"""Limits in, results out: the frozen records of the sandbox API."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from sandbox._errors import ArgumentError

__all__ = ["Execution", "Limits", "Status", "TestOutcome", "TestReport", "TestResult"]

Status = Literal["ok", "runtime_error", "compile_error", "timeout", "memory_limit",
                 "output_limit", "sandbox_error"]
"""Why a run ended. `ok`: exit code 0. `runtime_error`: non-zero exit or a fatal signal.
`compile_error`: the compiler refused the source (message in `stderr`). `timeout`: the wall or
CPU limit was hit. `memory_limit`: the run's memory limit was hit (its cgroup's OOM
killer ran, a process was killed by it, or an allocation failed under the address-space limit).
`output_limit`: stdout or stderr went past `Limits.output_bytes`. `sandbox_error`: the jail
itself failed for this one run (a broken jail for every run raises `SandboxError` instead)."""

TestOutcome = Literal["pass", "fail", "error", "timeout"]
"""`pass`: the check held. `fail`: an assertion failed or the output differed. `error`: the
program raised, crashed or could not be loaded. `timeout`: the test ran past its time limit."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandboxed run. Defaults suit a competitive-programming solution."""

    wall_s: float = 10.0
    """Wall-clock seconds before the whole jail is killed (status `timeout`)."""
    cpu_s: float = 10.0
    """CPU seconds (RLIMIT_CPU, summed per process); exceeding it is a `timeout`."""
    memory_bytes: int = 1 << 30
    """Memory of the whole run, all its processes together: a cgroup (v2, or v1 memory)
    where the host offers one; else rlimits split it into equal address-space shares of
    `memory_bytes // 128 MiB` processes (at least 4, at most `processes`; docs/sandbox.md)."""
    processes: int = 64
    """Processes and threads the program may create (cgroup pids and RLIMIT_NPROC; fewer
    on a host without cgroups, where they share `memory_bytes`)."""
    file_size_bytes: int = 16 << 20
    """Largest single file the program may write (RLIMIT_FSIZE)."""
    disk_bytes: int = 64 << 20
    """Size of the tmpfs working directory `/work` (and of `/tmp`)."""
    disk_files: int = 4096
    """Files and folders the program may create in `/work` (and in `/tmp`): the tmpfs
    inode cap (`nr_inodes`)."""
    open_files: int = 64
    """Open file descriptors per process (RLIMIT_NOFILE)."""
    output_bytes: int = 1 << 20
    """Bytes kept of stdout and of stderr each; more kills the run (status `output_limit`)."""
    compile_wall_s: float = 30.0
    """Wall-clock seconds for compiling C/C++ (its own limit, not counted in `wall_s`)."""
    compile_memory_bytes: int = 2 << 30
    """Memory cap of the compiler."""
    binary_bytes: int = 64 << 20
    """Largest compiled binary (and object file): the compiler's RLIMIT_FSIZE. A bigger one,
    e.g. from a huge initialized array, is a `compile_error` saying so."""
    test_wall_s: float = 5.0
    """Per-test wall-clock seconds in `run_tests`. A test that runs past it ends the
    program's run: the tests after it do not start and count as timeouts."""
    program_wall_s: float | None = None
    """Wall-clock seconds for all the tests of one program together in `run_tests` (None:
    no budget but `wall_s`). Each test's limit is capped by what is left of it; tests that
    would start after it is spent do not start and count as timeouts. The jail's own wall
    limit is then `min(wall_s, program_wall_s + 1)` (start-up and the report)."""

    def __post_init__(self) -> None:
        for name in ("wall_s", "cpu_s", "memory_bytes", "processes", "file_size_bytes",
                     "disk_bytes", "disk_files", "open_files", "output_bytes", "compile_wall_s",
                     "compile_memory_bytes", "binary_bytes", "test_wall_s", "program_wall_s"):
            value = getattr(self, name)
            if value is None and name == "program_wall_s":
                continue  # no program budget
            if not isinstance(value, (int, float)) or value <= 0:
                raise ArgumentError(f"Limits.{name} must be positive, got {value!r}")


@dataclass(frozen=True)
class Execution:
    """What one sandboxed run did."""

    status: Status
    """Why the run ended (see `Status`)."""
    exit_code: int | None = None
    """Exit code, or None when the program was killed by a signal or never ran."""
    signal: int | None = None
    """Number of the signal that killed the program, if any."""
    stdout: str = ""
    """Captured standard output (UTF-8, undecodable bytes replaced), at most `output_bytes`."""
    stderr: str = ""
    """Captured standard error, or the compiler message for `compile_error`."""
    truncated: bool = False
    """True when stdout or stderr was cut at `Limits.output_bytes`."""
    wall_s: float = 0.0
    """Wall-clock seconds of the run, jail start-up included (compilation excluded)."""
    cpu_s: float = 0.0
    """User + system CPU seconds of the program and the children it waited for."""
    peak_memory_bytes: int = 0
    """Peak resident memory of the largest process of the run. In a cold jail nsjail's own
    supervisor (about 24 MiB) counts too, so small programs read as that floor; warm runs
    measure the forked program alone (its inherited interpreter pages included)."""
    stdout_bytes: bytes = field(default=b"", repr=False)
    """Raw stdout bytes (for binary output), at most `output_bytes`."""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True)
class TestResult:
    """The outcome of one test of `run_tests`."""

    index: int
    """Position of the test in the input list."""
    outcome: TestOutcome
    """pass, fail, error or timeout."""
    message: str = ""
    """The failing assertion, the output diff or the error's last line; empty on pass."""
    wall_s: float = 0.0
    """Seconds the test took inside the jail."""
    ran: bool = True
    """False for a test that never started: an earlier test of the program timed out, its
    `Limits.program_wall_s` was spent, or (stdin/stdout tests) what an earlier test left
    could not be ended or taken back to the task's files, message `not run: sandbox: ...`
    (its outcome is then `timeout`)."""

    @property
    def passed(self) -> bool:
        return self.outcome == "pass"


@dataclass(frozen=True)
class TestReport:
    """Per-test results of one program plus the run that produced them."""

    results: tuple[TestResult, ...]
    """One entry per test, in input order."""
    execution: Execution
    """The sandbox run carrying all the tests (its status says e.g. `compile_error`)."""

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def pass_fraction(self) -> float:
        return self.passed / self.total if self.results else 0.0

    @property
    def status(self) -> str:
        return self.execution.status
