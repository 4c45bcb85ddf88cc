"""stdin/stdout tests inside the jail (standard library only, staged with the harness, see
`_staging.py`): run the program once per test by fork/exec of its own command (for Python,
`python3 -E -s -S main.py` itself: its frames start at the bottom of the stack and its end is
the interpreter's, as in a cold plain run), feed its input, cap its output, and compare here."""

# no `from __future__ import annotations`: at run time it imports __future__, ~0.5 ms of
# every cold harness start (in-jail modules run on Python >= 3.10, which needs no import)

import math
import posix as os  # os.py itself imports ~2 ms of modules a cold harness needs none of
import select
import time

from . import harness_wire as wire
from .harness_wire import (
    Budget,
    TestTimeout,
    Verdicts,
    enter_program,
    note_fork,
    note_tests,
)

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing typing; mypy reads it as True
if TYPE_CHECKING:
    import signal  # as mypy knows `_signal`: the same functions and signal numbers
else:
    import _signal as signal  # the `signal` module imports enum & co: ~8 ms of a cold start
if TYPE_CHECKING:
    from decimal import Decimal
    from typing import Any


def run_io_tests(spec: "dict[str, Any]", budget: "Budget | None" = None
                 ) -> "tuple[Verdicts, list[Any]]":
    """stdin/stdout tests: the program runs once per test, compared here, each under the
    limit `Budget` gives that test. A timeout ends the run (`Budget`: the tests after it are
    timeouts that did not run). Each test starts as `python3 main.py` in a fresh jail does:
    no process of an earlier test alive, /work and /tmp as the task gave them (`end_test`)."""
    results = Verdicts(spec["nonce"])
    outputs: list[Any] = []
    budget = budget or Budget(spec)
    # a program may signal a cold harness (its uid): Python's SIGINT handler would end it
    # (every other signal a child sends its jail's pid 1 is dropped); each test's process
    # takes the default back (`run_case`)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if wire.PROGRAM_UID is not None:  # warm: the test's orphans come back here, to be reaped
        libc = wire.load_libc()[0]
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError("the stdin/stdout harness cannot become a subreaper")
    fresh = fresh_state()
    note_tests(len(spec["tests"]) * FORKS_PER_TEST)
    argv = spec["argv"]
    for index, case in enumerate(spec["tests"]):
        limit = budget.limit(index)
        if limit is None:
            break
        begin = time.monotonic()
        try:
            status, out, err = run_case(argv, case["input"].encode(),
                                        limit, spec["output_bytes"], fresh)
        except TestTimeout:
            results.append(("timeout", budget.timeout_message(index, limit),
                            time.monotonic() - begin))
            break
        except OutputLimit:
            results.append(("error", f"output exceeded {spec['output_bytes']} bytes",
                            time.monotonic() - begin))
            continue
        except OSError as exc:  # no process to run it in (fork or pipe refused)
            results.append(("error", f"the test could not start: {exc}",
                            time.monotonic() - begin))
            continue
        outputs.append((out, err))
        took = time.monotonic() - begin
        text = out.decode(errors="replace")
        if status != 0:
            why = f"exit code {os.WEXITSTATUS(status)}" if os.WIFEXITED(status) \
                else f"killed by signal {os.WTERMSIG(status)}"
            tail = err.decode(errors="replace").strip().splitlines()[-1:] or [""]
            results.append(("error", f"{why}: {tail[0][:500]}".rstrip(": "), took))
        elif spec.get("checker"):  # the host runs the task's checker on this output
            results.append(("checker", out.hex(), took))
        elif same_output(text, case["output"], spec["compare"], spec["float_tol"]):
            results.append(("pass", "", took))
        else:
            results.append(("fail", output_diff(text, case["output"], spec["compare"]),
                            took))
    budget.skip_rest(results, len(spec["tests"]))
    return results, outputs


class OutputLimit(Exception):
    """A test's program wrote more than the output limit."""


PR_SET_CHILD_SUBREAPER = 36
FORKS_PER_TEST = 2
"""Processes a warm harness forks per test (`note_tests`): the test's, and the one that
ends what the test left (`end_processes`)."""
WORK_DIRS = ("/work", "/tmp")
_RESET = (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ)
"""Signals this harness (Python) ignores or handles, which an exec would pass on ignored:
a test's process takes their defaults back, as the jail gives them to python3 main.py."""


def run_case(argv: "list[str]", data: bytes, limit: float, cap: int,
             fresh: "dict[str, Any]") -> "tuple[int, bytes, bytes]":
    """Run argv in a session of its own with `data` on stdin, under a deadline and an
    output cap: (wait status, stdout, stderr). Plain fork/exec: no subprocess or threading
    to import. The test ends when its process does, as `python3 main.py`'s jail ends with
    its pid 1: every other process of the test is then killed (`end_test`), and only what
    was written before counts; the next test starts from `fresh` (`fresh_state`)."""
    (in_r, in_w), (out_r, out_w), (err_r, err_w) = os.pipe(), os.pipe(), os.pipe()
    deadline = time.monotonic() + limit
    note_fork()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            for number in _RESET:
                signal.signal(number, signal.SIG_DFL)
            for target, fd in ((0, in_r), (1, out_w), (2, err_w)):
                os.dup2(fd, target)
            os.closerange(3, 4096)
            os.chdir("/work")
            enter_program()  # warm: the program's uid, before the exec
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    for fd in (in_r, out_w, err_w):
        os.close(fd)
    bufs = {out_r: bytearray(), err_r: bytearray()}
    pending = memoryview(data)
    writers = [in_w]
    ended = None  # the wait status, once the test's process is reaped
    pidfd = -1
    try:
        os.set_blocking(in_w, False)
        if not pending:
            os.close(in_w)
            writers = []
        pidfd = os.pidfd_open(pid)  # readable once the test's process has exited
        readers = [out_r, err_r]
        while readers or ended is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TestTimeout()
            watched = readers if ended is not None else [*readers, pidfd]
            readable, writable, _ = select.select(watched, writers, [], left)
            if pidfd in readable:
                # the test's end: what it left dies now, before a later write can count;
                # the outputs then end (every holder is dead) once drained
                ended = os.waitpid(pid, 0)[1]
                os.close(pidfd)
                pidfd = -1
                end_processes()
                if writers:
                    writers = []
                    os.close(in_w)
                continue
            if writable:
                try:
                    pending = pending[os.write(in_w, pending[:65536]):]
                except BlockingIOError:
                    pass
                except BrokenPipeError:
                    pending = pending[:0]
                if not pending:
                    writers = []
                    os.close(in_w)
            for fd in readable:
                chunk = os.read(fd, 65536)
                if not chunk:
                    readers.remove(fd)
                elif len(bufs[fd]) + len(chunk) > cap:
                    raise OutputLimit()
                else:
                    bufs[fd] += chunk
        return ended, bytes(bufs[out_r]), bytes(bufs[err_r])
    finally:
        if writers:
            os.close(in_w)
        for fd in (out_r, err_r):
            os.close(fd)
        if ended is None:  # a timeout, the output cap, or no pidfd: the test's process too
            if pidfd >= 0:
                os.close(pidfd)
            end_processes()
        restore(fresh)


def end_processes() -> None:
    """SIGKILL every process of the test still alive and reap them all, as the kernel ends
    a pid namespace whose init (python3 main.py) exits. Cold this harness is the jail's
    pid 1 and the program's uid: its `kill(-1)` reaches every other process, and every
    orphan is its child. Warm a child of it that takes the program's uid does the
    `kill(-1)` (which then reaches the program's processes only: this harness, the server
    and the rest of the jail are another uid), and the test's orphans come back to this
    harness, their subreaper (`run_io_tests`). One `kill(-1)` cannot miss a process being
    forked: the kernel restarts a fork whose parent a signal is pending for."""
    if wire.PROGRAM_UID is None:
        _kill_all()
    else:
        note_fork()
        killer = os.fork()
        if killer == 0:
            try:
                wire.become_program(wire.PROGRAM_UID)
                _kill_all()
                os._exit(0)
            finally:
                os._exit(1)
        if os.waitpid(killer, 0)[1] != 0:  # fail closed: never wait on what lives on
            raise OSError("the test's processes could not be ended")
    try:
        while True:  # every descendant, the killer too: each orphan is this process's child
            os.waitpid(-1, 0)
    except ChildProcessError:
        pass


def _kill_all() -> None:
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:  # nothing left to kill
        pass


def fresh_state() -> "dict[str, Any]":
    """Each work folder's mode and entries before the first test: the task's inputs."""
    return {top: (os.stat(top).st_mode & 0o7777, frozenset(os.listdir(top)))
            for top in WORK_DIRS}


def restore(fresh: "dict[str, Any]") -> None:
    """Take /work and /tmp back to `fresh` once a test's processes are gone: their modes,
    and nothing in them but the task's inputs (read-only to the program). Cold this harness
    is the program's uid, which owns what it made; warm it keeps CAP_FOWNER for this
    (`warm_server.child`). What cannot be removed stays (the host's checks of a warm
    jail retire it after the run)."""
    for top, (mode, entries) in fresh.items():
        try:
            if os.stat(top).st_mode & 0o7777 != mode:
                os.chmod(top, mode)
            for name in os.listdir(top):
                if name not in entries:
                    _remove(f"{top}/{name}")
        except (OSError, RecursionError):  # RecursionError: a tree nested past the stack
            pass


def _remove(path: str) -> None:
    if os.stat(path, follow_symlinks=False).st_mode & 0o170000 != 0o040000:  # not a folder
        os.unlink(path)
        return
    os.chmod(path, 0o777)  # the program's own: now open to this process too
    for name in os.listdir(path):
        _remove(f"{path}/{name}")
    os.rmdir(path)


def same_output(actual: str, expected: str, compare: str, tol: float) -> bool:
    """`compare` (sandbox.Compare): exact (trailing newlines aside), whitespace (token by
    token), float (token by token, see `same_token`) or lines_unordered (the same lines in
    any order: `output_lines` of both, as multisets)."""
    if compare == "exact":
        return actual.rstrip("\n") == expected.rstrip("\n")
    if compare == "lines_unordered":
        return sorted(output_lines(actual)) == sorted(output_lines(expected))
    got, want = actual.split(), expected.split()
    if compare == "whitespace":
        return got == want
    if len(got) != len(want):
        return False
    return all(a == b or same_token(a, b, tol) for a, b in zip(got, want))


def same_token(got: str, want: str, tol: float) -> bool:
    """One token of `compare: float`. An expected integer (`-12`, digits only) is an exact
    value: the output must be that very number (`12`, `12.0`, `1.2e1`), never a float near
    it (`inf`, or 10**12 + 1 for 10**12). An expected float is within `tol`, relative or
    absolute; one past the float range (`1e400`) compares exactly, by its decimal value.
    Non-finite outputs pass only for the same non-finite expected token (`inf`, `nan`)."""
    if _is_integer(want):
        value = _exact(got)
        return value is not None and value == _exact(want)
    try:
        x, y = float(got), float(want)
    except ValueError:
        return False
    if math.isfinite(y):
        return math.isfinite(x) and math.isclose(x, y, rel_tol=tol, abs_tol=tol)
    if math.isnan(y) or _exact(want) is None:  # the task expects inf or nan itself
        return x == y or (math.isnan(x) and math.isnan(y))
    return _exact(got) == _exact(want)  # finite but beyond the float range


def _is_integer(token: str) -> bool:
    digits = token[1:] if token[:1] in ("-", "+") else token
    return digits.isdigit() and digits.isascii()


def _exact(token: str) -> "Decimal | None":
    """The exact decimal value of a finite number token, else None (`decimal` is imported
    only here: a mismatch of a float comparison, never on a cold harness's start)."""
    from decimal import Decimal, InvalidOperation

    try:
        value = Decimal(token)
    except (InvalidOperation, ValueError):
        return None
    return value if value.is_finite() else None


def output_lines(text: str) -> "list[str]":
    """The lines of an output, each without its trailing whitespace, and without the empty
    lines at the end."""
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def unordered_diff(actual: str, expected: str) -> str:
    """The first expected line the output lacks (or the first extra one), counted as a
    multiset (no `collections` import in the jail)."""
    counts: dict[str, int] = {}
    for line in output_lines(expected):
        counts[line] = counts.get(line, 0) + 1
    extra = []
    for line in output_lines(actual):
        if counts.get(line, 0) > 0:
            counts[line] -= 1
        else:
            extra.append(line)
    missing = [line for line, count in counts.items() if count > 0]
    if missing:
        return f"lines in any order: expected line {missing[0][:200]!r} is missing"
    return f"lines in any order: unexpected line {extra[0][:200]!r}" if extra else ""


def output_diff(actual: str, expected: str, compare: str = "exact") -> str:
    if compare == "lines_unordered":
        return unordered_diff(actual, expected)
    got, want = actual.splitlines(), expected.splitlines()
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else "<missing>"
        w = want[i] if i < len(want) else "<missing>"
        if g.split() != w.split() or g != w:
            return f"line {i + 1}: expected {w[:200]!r}, got {g[:200]!r}"
    return "outputs differ in trailing whitespace"
