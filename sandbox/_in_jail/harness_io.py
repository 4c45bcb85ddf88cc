"""stdin/stdout tests inside the jail (standard library only, staged with the harness, see
`_staging.py`): run the program once per test by fork/exec of its own command (for Python,
`python3 -E -s -S main.py` itself: its frames start at the bottom of the stack and its end is
the interpreter's, as in a cold plain run), feed its input, cap its output, and compare here."""

# no `from __future__ import annotations`: at run time it imports __future__, ~0.5 ms of
# every cold harness start (in-jail modules run on Python >= 3.10, which needs no import)

import math
import posix as os  # os.py itself imports ~2 ms of modules a cold harness needs none of
import resource
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
    no process of an earlier test alive (`end_processes`), /work and /tmp as the task gave
    them (`restore`). Where either cannot be made so (`StateLost`), no further test runs:
    they are reported as not run, with the reason, never judged in a dirty state."""
    results = Verdicts(spec["nonce"])
    outputs: list[Any] = []
    budget = budget or Budget(spec)
    # no program can signal this harness (another uid, `judge_apart`); were one to, Python's
    # SIGINT handler would end it: ignored, and each test's process takes the default back
    # (`run_case`)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not jail_init():  # warm: the test's orphans come back here, to be reaped
        libc = wire.load_libc()[0]
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError("the stdin/stdout harness cannot become a subreaper")
    fresh = fresh_state()
    note_tests(len(spec["tests"]) * FORKS_PER_TEST)
    argv, own = spec["argv"], program_limits(spec)
    for index, case in enumerate(spec["tests"]):
        limit = budget.limit(index)
        if limit is None:
            break
        begin = time.monotonic()
        try:
            status, out, err = run_case(argv, case["input"].encode(),
                                        limit, spec["output_bytes"], own)
        except TestTimeout:
            results.append(("timeout", budget.timeout_message(index, limit),
                            time.monotonic() - begin))
            break
        except OutputLimit:
            results.append(("error", f"output exceeded {spec['output_bytes']} bytes",
                            time.monotonic() - begin))
        except StateLost as exc:  # the test's processes could not all be ended
            results.append(("error", str(exc), time.monotonic() - begin))
            budget.stopped = f"not run: {exc}"
            break
        except OSError as exc:  # no process to run it in (fork or pipe refused)
            results.append(("error", f"the test could not start: {exc}",
                            time.monotonic() - begin))
        else:
            outputs.append((out, err))
            results.append(verdict(status, out, err, case["output"], spec,
                                   time.monotonic() - begin))
        if index + 1 < len(spec["tests"]):
            try:
                restore(fresh)
            except StateLost as exc:
                budget.stopped = f"not run: {exc}"
                break
    budget.skip_rest(results, len(spec["tests"]))
    return results, outputs


def verdict(status: int, out: bytes, err: bytes, expected: str, spec: "dict[str, Any]",
            took: float) -> "tuple[str, str, float]":
    """The verdict of a test whose process ended with wait status `status`."""
    text = out.decode(errors="replace")
    if status != 0:
        why = f"exit code {os.WEXITSTATUS(status)}" if os.WIFEXITED(status) \
            else f"killed by signal {os.WTERMSIG(status)}"
        tail = err.decode(errors="replace").strip().splitlines()[-1:] or [""]
        return ("error", f"{why}: {tail[0][:500]}".rstrip(": "), took)
    if spec.get("checker"):  # the host runs the task's checker on this output
        return ("checker", out.hex(), took)
    if same_output(text, expected, spec["compare"], spec["float_tol"]):
        return ("pass", "", took)
    return ("fail", output_diff(text, expected, spec["compare"]), took)


class OutputLimit(Exception):
    """A test's program wrote more than the output limit."""


class StateLost(Exception):
    """What a test left could not be ended or taken back (`end_processes`, `restore`): the
    next test would not find what python3 finds in a fresh jail, so none runs."""


PR_SET_CHILD_SUBREAPER = 36
FORKS_PER_TEST = 3
"""Processes a warm harness forks per test whose program left nothing (`note_tests`): the
test's, and the check that none of the program's is left (`end_processes`: `_alone` and
its child)."""
WORK_DIRS = ("/work", "/tmp", "/dev/shm")
"""The jail's writable folders, each taken back to the task's after every test (`restore`)."""
_RESET = (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ)
"""Signals this harness (Python) ignores or handles, which an exec would pass on ignored:
a test's process takes their defaults back, as the jail gives them to python3 main.py."""


def program_limits(spec: "dict[str, Any]") -> "list[tuple[int, int]]":
    """The rlimits each test's process takes before its exec, as `python3 main.py` reads
    them in a plain run (`_tests.run_tests` sends them): RLIMIT_CPU and RLIMIT_NOFILE, the
    two this harness holds more of for its own work (all the tests' restores, its pipes and
    pidfds: the host gives it its own). Every other rlimit the process inherits as is."""
    own = spec["program_limits"]
    return [(resource.RLIMIT_CPU, own["cpu_s"]), (resource.RLIMIT_NOFILE, own["open_files"])]


def take_limits(limits: "list[tuple[int, int]]") -> None:
    """In a test's process, before its exec: each of `limits`, soft and hard, never above
    what this process holds (the harness's own, which no program can lower: another uid).
    Lowered for good: nothing the program runs can raise it again (no CAP_SYS_RESOURCE)."""
    for kind, value in limits:
        hard = resource.getrlimit(kind)[1]
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(kind, (value, value))


def run_case(argv: "list[str]", data: bytes, limit: float, cap: int,
             limits: "list[tuple[int, int]]") -> "tuple[int, bytes, bytes]":
    """Run argv in a session of its own with `data` on stdin, under a deadline and an
    output cap, its process under `limits` (`take_limits`): (wait status, stdout, stderr).
    Plain fork/exec: no subprocess or threading to import. The test ends when its process
    does, as `python3 main.py`'s jail ends with its pid 1: every other process of the test
    is then killed (`end_processes`), and only what was written before counts."""
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
            take_limits(limits)  # the program's, not this harness's
            enter_program()  # the program's uid and count, before the exec
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
        reap_at = 0.0
        while readers or ended is None:
            now = time.monotonic()
            left = deadline - now
            if left <= 0:
                raise TestTimeout()
            if ended is None:
                # while the test runs, its exited orphans (this harness's children: cold
                # it is pid 1, warm their subreaper) are reaped every REAP_S, whatever
                # wakes the wait, as python3 main.py's init reaps them (red team rt39:
                # reaped only at the test's end, each held a process meanwhile)
                if now >= reap_at:
                    wire.reap_exited((pid,))  # the test's process is reaped below
                    reap_at = now + wire.REAP_S
                left = min(left, reap_at - now)
            watched = readers if ended is not None else [*readers, pidfd]
            readable, writable, _ = select.select(watched, writers, [], left)
            if pidfd in readable:
                # the test's end: what it left dies now, before a later write can count;
                # the outputs then end (every holder is dead) once drained
                ended = os.waitpid(pid, 0)[1]
                os.close(pidfd)
                pidfd = -1
                end_processes(pid)
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
            wire.kill_process(pid, pidfd if pidfd >= 0 else None)  # our child: no reuse
            if pidfd >= 0:
                os.close(pidfd)
            end_processes(pid)


def jail_init() -> bool:
    """Whether this harness is its jail's pid 1 (cold; warm it is the server's child)."""
    return os.getpid() == 1


def end_processes(first: int) -> None:
    """SIGKILL every process of the test still alive and reap them all, as the kernel ends
    a pid namespace whose init (python3 main.py) exits. Cold this harness is the jail's
    pid 1 (`jail_init`), alone in it with the program's processes: its `kill(-1)`
    (CAP_KILL: they are another uid) reaches every other process, none can signal it, and
    every orphan is its child. Warm this harness (another uid, CAP_KILL), one process of
    the server's jail, kills by pidfd, never through a process the program's uid could
    signal or stop: until
    `_alone` finds no process of the program's uid, every process whose pid the test's
    ones can have taken (from `first`, the test's process, up to `_alone`'s) is sent
    SIGKILL and waited for, and its orphans (this harness is their subreaper,
    `run_io_tests`) reaped. StateLost when a round finds none to kill yet one lives on (a
    pid counter gone round), or after MAX_ROUNDS. One `kill(-1)` cannot miss a process
    being forked: the kernel restarts a fork whose parent a signal is pending for."""
    if jail_init():
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:  # nothing left to kill
            pass
        try:
            while True:  # every descendant: each orphan is this process's child
                os.waitpid(-1, 0)
        except ChildProcessError:
            pass
        return
    uid = wire.PROGRAM_UID
    if uid is None:  # a warm harness is set apart (`judge_apart`) before any test
        raise StateLost("sandbox: the program uid is not set")
    for _ in range(MAX_ROUNDS):
        wire.reap_exited()
        alone, last = _alone(uid)
        if alone:
            return
        if not _kill_between(first, last):
            break
        # pids are handed out in increasing order (short of a counter gone round, which
        # fails closed above): whatever lives now was forked after the scan began, so has
        # a pid at or past `last`, and the next round scans only from there: a round costs
        # the pids taken since the one before, not all since the test began, so processes
        # that fork on and on while they are killed cannot outrun it
        first = last
    raise StateLost("sandbox: the test's processes could not be ended")


MAX_ROUNDS = 64
"""Rounds of `end_processes` (warm) before it gives up: each kills every process alive at
its start, so only processes forked meanwhile (pids past its probe's) are left for the
next."""


def _alone(uid: int) -> "tuple[bool, int]":
    """(whether no process of the program's uid lives, the pid counter). A child takes the
    program uid under RLIMIT_NPROC 2 and forks: the kernel lets it only if the child is
    the uid's one process (a zombie counts until reaped), whatever pids the others have.
    The child is in the program's reach: killed or stopped (this harness sees the stop and
    kills it), it reads as not alone."""
    note_fork()
    pid = os.fork()
    if pid == 0:
        try:
            resource.setrlimit(resource.RLIMIT_NPROC, (2, 2))
            wire.become_program(uid)
            child = os.fork()  # EAGAIN: another process of the uid lives
            if child == 0:
                os._exit(0)
            note_fork()
            os.waitpid(child, 0)
            os._exit(0)
        finally:
            os._exit(1)
    status = os.waitpid(pid, os.WUNTRACED)[1]
    if os.WIFSTOPPED(status):  # a survivor stopped it: ours to kill (CAP_KILL)
        wire.kill_process(pid)
        return False, pid
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, pid


def _kill_between(first: int, last: int) -> bool:
    """SIGKILL (by pidfd: this harness's uid, which the program cannot signal) every
    process with a pid in [first, last) and wait until each has exited; whether one was
    found. A pid of a thread (EINVAL) ends with its process."""
    found, count = [], 0
    own = os.getpid()
    for pid in range(first, last):
        if pid == own:
            continue
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:  # gone, never taken, or a thread's id
            continue
        try:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        except OSError:
            pass
        found.append(pidfd)
        count += 1
        if len(found) >= 16:  # few fds at once (this harness's own RLIMIT_NOFILE)
            _wait_exits(found)
    _wait_exits(found)
    return count > 0


def _wait_exits(pidfds: "list[int]") -> None:
    """Wait until each pidfd's process has exited (readable), then close them all."""
    waiting = list(pidfds)
    while waiting:
        for fd in select.select(waiting, [], [])[0]:
            waiting.remove(fd)
    for fd in pidfds:
        os.close(fd)
    pidfds.clear()


def fresh_state() -> "dict[str, Any]":
    """The task's state of /work and /tmp before the first test: every entry of both trees
    (the inputs, each folder on their way, the two folders themselves), by its path as a
    tuple of names, with what `_entry` reads of it."""
    state: dict[str, Any] = {}
    for top in WORK_DIRS:
        tree = state[top] = {}
        fd = os.open(top, _DIR)
        try:
            tree[()] = _entry(fd)
        finally:
            os.close(fd)
        folders: list[Any] = [()]
        while folders:  # iterative: a task's inputs are few and shallow
            path = folders.pop()
            fd = _open_path(top, path)
            try:
                for name in os.listdir(fd):
                    inner = _open_entry(fd, name)
                    try:
                        entry = tree[path + (name,)] = _entry(inner)
                    finally:
                        os.close(inner)
                    if entry[0] & 0o170000 == 0o040000:
                        folders.append(path + (name,))
            finally:
                os.close(fd)
    return state


_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_TIMES = slice(8, 10)
"""The access and modification times in an `_entry`: the ones that can be put back."""


def _entry(fd: int) -> "tuple[Any, ...]":
    """What a test must find of an entry as the task gave it: mode (type and bits), owner,
    group, inode, links, size, access and modification times, and extended attributes
    with their values. (Its change time cannot be put back: a test may read one later
    than its modification time.)"""
    status = os.fstat(fd)
    attributes = tuple(sorted((name, os.getxattr(fd, name)) for name in os.listxattr(fd)))
    return (status.st_mode, status.st_uid, status.st_gid, status.st_dev, status.st_ino,
            status.st_nlink, status.st_size, attributes, status.st_atime_ns,
            status.st_mtime_ns)


def _open_entry(folder: int, name: str) -> int:
    """An fd of an entry of the task's (a folder or a regular file, never followed), to
    read and set its attributes through."""
    return os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK,
                   dir_fd=folder)


def _open_path(top: str, path: "tuple[str, ...]") -> int:
    """An fd of the folder `top`/`path`, each name opened in the one before (no path is
    ever built: a program's names may pass PATH_MAX together)."""
    fd = os.open(top, _DIR)
    for name in path:
        try:
            inner = os.open(name, _DIR, dir_fd=fd)
        finally:
            os.close(fd)
        fd = inner
    return fd


def restore(fresh: "dict[str, Any]") -> None:
    """Take /work and /tmp back to `fresh` once a test's processes are gone (nothing then
    changes them meanwhile): in every folder of the task's, each entry that is not the
    task's is removed (`_remove`), and each of the task's has its mode, extended attributes
    and times put back; then every entry must read as `fresh` recorded it (an allow-list:
    whatever else changed is caught here, not undone blind), else StateLost. This harness
    is another uid than the program's, which owns what it made: it keeps CAP_FOWNER for
    this, cold and warm (`harness_wire.HARNESS_CAPABILITIES`). The task's inputs themselves
    are read-only to the program (cold read-only binds, warm another uid's files, in
    sticky folders)."""
    try:
        for top, tree in fresh.items():
            folders = sorted(path for path, entry in tree.items()
                             if entry[0] & 0o170000 == 0o040000)
            if os.stat(top).st_mode != tree[()][0]:  # its own mode may shut it
                os.chmod(top, tree[()][0] & 0o7777)
            for path in folders:  # a folder before those in it
                fd = _open_path(top, path)
                try:
                    if not path:
                        _put_back(fd, tree[path])
                    for name in os.listdir(fd):
                        entry = tree.get(path + (name,))
                        if entry is None:
                            _remove(fd, name)
                            continue
                        if os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode != entry[0]:
                            os.chmod(name, entry[0] & 0o7777, dir_fd=fd)
                        inner = _open_entry(fd, name)
                        try:
                            _put_back(inner, entry)
                        finally:
                            os.close(inner)
                finally:
                    os.close(fd)
            for path, entry in tree.items():  # listing a folder may have read it (atime)
                fd = _open_path(top, path[:-1])
                try:
                    inner = _open_entry(fd, path[-1]) if path else os.dup(fd)
                    try:
                        found = _entry(inner)
                        if found[_TIMES] != entry[_TIMES]:
                            os.utime(inner, ns=entry[_TIMES])
                            found = _entry(inner)
                    finally:
                        os.close(inner)
                finally:
                    os.close(fd)
                if found != entry:
                    raise StateLost("sandbox: /work and /tmp could not be taken back to "
                                    f"the task's: {'/'.join((top, *path))} changed")
    except OSError as exc:
        raise StateLost("sandbox: /work and /tmp could not be taken back to the task's: "
                        f"{exc}") from None


def _put_back(fd: int, entry: "tuple[Any, ...]") -> None:
    """An entry of the task's (`fd`): its mode and extended attributes as `entry` has them
    (an owner or group it cannot change back: `restore` then finds it changed)."""
    status = os.fstat(fd)
    if status.st_mode != entry[0]:
        os.fchmod(fd, entry[0] & 0o7777)
    attributes = dict(entry[7])
    for name in os.listxattr(fd):
        if name not in attributes:
            os.removexattr(fd, name)
        elif os.getxattr(fd, name) != attributes[name]:
            os.setxattr(fd, name, attributes[name])
    for name, value in attributes.items():
        if name not in os.listxattr(fd):
            os.setxattr(fd, name, value)


def _remove(folder: int, name: str) -> None:
    """Remove `name` from the folder `folder`, and first all it holds if it is a folder:
    iterative (no recursion, whatever the depth), each name relative to an fd of its own
    folder (no path, whatever its length), one folder fd open at a time (a folder's parent
    is its `..`: nothing of the program's lives to move it). Each folder is made
    ours to list and empty first (the program's own: CAP_FOWNER)."""
    if os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode & 0o170000 != 0o040000:
        os.unlink(name, dir_fd=folder)
        return
    os.chmod(name, 0o777, dir_fd=folder)
    fd = os.open(name, _DIR, dir_fd=folder)
    names = [name]  # the folder's name in its parent, at each level entered
    pending = [os.listdir(fd)]  # what is left to remove, at each level
    try:
        while pending:
            if pending[-1]:
                entry = pending[-1].pop()
                mode = os.stat(entry, dir_fd=fd, follow_symlinks=False).st_mode
                if mode & 0o170000 != 0o040000:
                    os.unlink(entry, dir_fd=fd)
                    continue
                os.chmod(entry, 0o777, dir_fd=fd)
                inner = os.open(entry, _DIR, dir_fd=fd)
                os.close(fd)
                fd = inner
                names.append(entry)
                pending.append(os.listdir(fd))
                continue
            pending.pop()
            parent = os.open("..", _DIR, dir_fd=fd)
            os.close(fd)
            fd = parent
            os.rmdir(names.pop(), dir_fd=fd)
    finally:
        os.close(fd)


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
