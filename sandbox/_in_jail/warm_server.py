"""The warm Python server: runs INSIDE a jail as its pid 1 (standard library only, started
as `python3 -E -s -S /harness/run.py warm-server FD UID`, see _staging.py), and forks one
child per program.

Each child is as isolated as a cold run: it lives in the same jail (namespaces, read-only
system, no network, no /proc, seccomp), gets per-run rlimits (address space, CPU, file
size, open files, processes) that it cannot raise, and starts in an emptied /work and
/tmp. Every process that runs program code takes the program uid UID (`become`, or
`harness_wire.enter_program` for a stdin/stdout run's test processes) before it reads
the program: this server, the long-lived harness and a stdin/stdout run's harness and
zygote run under the jail's other uid, so nothing a program does (signals, SIGSTOP,
prlimit, renice, scheduler, affinity) reaches what judges or times a run. The server keeps
CAP_SETUID, CAP_SETGID, CAP_KILL and CAP_FOWNER, inside its user namespace only, for that
switch, the kills and the clean-up; every program process drops them all. After every
run every other process of the jail is SIGKILLed (`kill(-1)`: all but pid 1, which is
immune to its children's signals) and reaped, /work and /tmp are emptied again and
stripped of extended attributes, and the server retires unless both folders are as they
started (`folder_state`) and the jail's pid and inode counters moved as an undisturbed
run moves them (`unmoved`), so nothing a program leaves behind meets the next one. The server never
reads a program or its tests: the child reads them from a pipe after the fork, so no other
run's data is in the memory a program is forked from.

A plain run's child runs the program (`run_main`); a stdin/stdout run's child is that
run's harness. Assert/check runs go to a long-lived harness (`harness.serve`, the `Judge`
here), forked from this server before the first of them: per run this server forks only
the worker, which loads the program, and the harness judges it, so a run costs one fork
instead of two. The harness holds every run's tests, so nothing is ever forked from it;
after a run it does the `kill(-1)`, which spares its caller and pid 1 only, and tells this
server when nothing is left to reap.

With import zygotes (started with a third argument 1; not enabled by default), a run whose
program starts with allow-listed standard imports is forked from a zygote that did that
import from the cold state (`ImportZygote`), and this server alone ends each run: its
program's processes by a `kill(-1)` under the program uid, the rest by pid (`kill_run`).
"""

# no `from __future__ import annotations`: at run time it imports __future__, ~0.5 ms of
# every cold harness start (in-jail modules run on Python >= 3.10, which needs no import)

# _signal, not signal.py (see below), nor socket.py or json: they import enum, re & co, and
import _socket  # every object in this process's memory spreads the pages a forked child
import _struct  # (what a zygote unpacks of its runs' fds)
import gc  # writes to (and so copies) further apart
import marshal
import os
import resource
import select
import sys
import time

from . import (
    address_space,
    harness,  # pre-imported so forked harnesses start warm
    harness_io,  # noqa: F401  (imported by forked stdin/stdout harnesses)
    harness_program,
    harness_wire,
)
from .harness_wire import to_json

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing typing; mypy reads it as True
if TYPE_CHECKING:
    import signal  # as mypy knows `_signal`: the same functions and signal numbers
else:
    import _signal as signal  # the `signal` module imports enum & co: ~8 ms of a cold start
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

WORK_DIRS = ("/work", "/tmp", "/dev/shm")
"""The jail's writable folders (`_jail.jail_argv`'s tmpfs mounts), emptied after every run:
/dev/shm too, where sem_open and shm_open make their files."""
MAX_FD = 4096
WORKER_STDIO: "Any" = None
"""The standard streams of every assert/check worker this server forks (`standard_streams`)."""
CPUS: "Any" = None
"""The CPUs this server may use, as it started: its affinity, and its harness's between runs."""
PROGRAM_UID: "Any" = None
"""The uid every program (and a stdin/stdout run's harness) runs under: not this server's."""


ZYGOTES_ON = False
"""Whether this server keeps import zygotes (`ImportZygote`; not enabled by default)."""
RUN_STDIO: "Any" = None
"""The standard streams of a plain run's child (`standard_streams`), for a zygote's too."""


SERVER_ADDRESS_SPACE: "int | None" = None
"""This server's address space once ready to fork runs: near every child's
(`own_address_space` bisects around it)."""
START_ADDRESS_SPACE: "int | None" = None
"""This server's address space as its interpreter started, before any module of the
harness was loaded (`address_space.size`, run by the launcher): what a cold `python3
main.py` holds at its start, but for the pages of the probe's two extension modules. A
run's child holds more, all it inherits of this server: `own_address_space` credits it to
the child's RLIMIT_AS."""


def main(control_fd: int, program_uid: int, zygotes: int = 0, *,
         start: "int | None" = None) -> None:
    global START_ADDRESS_SPACE
    START_ADDRESS_SPACE = start
    vars(sys.modules["__main__"]).pop("__start", None)  # a worker's __main__ is a cold one's
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    # pid 1 of its namespace ignores every signal it has no handler for, so no process of
    # the jail can end it (a program cannot signal it at all: another uid)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    control = _socket.socket(fileno=control_fd)
    global CPUS, PROGRAM_UID, ZYGOTES_ON
    CPUS = os.sched_getaffinity(0)
    PROGRAM_UID = program_uid
    ZYGOTES_ON = bool(zygotes)
    global SERVER_UID, SERVER_GID, SERVER_CAPS
    SERVER_UID, SERVER_GID = os.getuid(), os.getgid()
    one_malloc_arena()  # before the first probe thread (`thread_id`)
    if ZYGOTES_ON:
        SERVER_CAPS = read_capabilities()
    if not empty_dirs() or not separated():
        return
    warm_up()
    global COUNTERS, FORKS, PER_MOUNT_INODES
    COUNTERS, FORKS = counters(), 0
    if COUNTERS is None:
        return
    PER_MOUNT_INODES = max(COUNTERS[1]) < 1024
    stdio = standard_streams(harness_program.fresh_stdio)
    global WORKER_STDIO, RUN_STDIO
    RUN_STDIO = stdio
    WORKER_STDIO = standard_streams(harness_program.worker_stdio)
    harness_program.keep_imports()  # so that `as_cold` in a child frees nothing
    global SERVER_ADDRESS_SPACE
    SERVER_ADDRESS_SPACE = address_space.size()  # where a child's size is sought
    # what is allocated so far (the harness modules) leaves the collector's reach: a
    # collection in a forked child then neither walks nor copies the pages it is on
    gc.freeze()
    control.send(b"ready")  # the host starts a run's clock once its server is ready
    while True:
        try:
            message, fds = harness_program.recv_fds(control, 4, max_bytes=1 << 16)
        except OSError:
            return
        if not message:
            return
        if message == b"kill":  # asked for a run that ended before this server read it
            for fd in fds:
                os.close(fd)
            continue
        header = marshal.loads(message)  # from the host, which started this server
        zygote = zygote_for(header.get("imports"))
        harness_wire.hold_cpus(CPUS)  # whatever a program made of this server's affinity
        report_r, report_w = os.pipe()  # what the run's own side made: see `unmoved`
        os.set_blocking(report_r, False)
        os.set_blocking(report_w, False)
        if header["harness"] == "python":  # assert/check tests: the long-lived harness
            own_forks = 1 if judge.pid is not None else 2  # the worker (and a new harness)
            had_judge = True
            result = judged_run(header, fds, control, stdio, report_w, zygote)
        else:
            own_forks = 1  # the run's child
            had_judge = judge.pid is not None
            started = zygote.start("plain", header, [*fds, report_w]) if zygote else None
            pid, pidfd = started if started is not None else (None, None)
            if pid is None:
                pid = fork()
                if pid == 0:  # child() closes every other fd (the harness's and control too):
                    for sock in (control, judge.sock):  # no object of theirs closes it again
                        if sock is not None:
                            sock.detach()
                    # with zygotes, from run.py's top level as a zygote's child goes on
                    # (`zygote_child`): a program starts as deep whichever forked it, so
                    # an earlier run's zygote never changes its status (without, the ~0.4 ms
                    # of unwinding this server's frames is not spent: docs/sandbox.md)
                    if ZYGOTES_ON:  # (`forked` never returns)
                        harness_program.forked(harness_program.go_on, child, header, fds,
                                               stdio, report_w)
                    harness_program.forked(child, header, fds, stdio, report_w)
            for fd in fds:
                os.close(fd)
            os.close(report_w)
            result = supervise(pid, header, control, zygote if pidfd else None, pidfd)
        # every process of the run is dead and reaped: its result is whole
        if not ZYGOTES_ON:
            clean_up(result)
        elif not kill_run(result, zygote):
            control.send(to_json(result).encode())
            control.send(b"retire")
            return
        # JSON: the host does not unmarshal jail data. Sent before the checks below, which
        # then overlap the host's work on the result; the host hands this server no other
        # run before it has read their verdict, `clean` or `retire` (`WarmServer.settle`),
        # and a run sent meanwhile waits unread in the socket
        control.send(to_json(result).encode())
        if had_judge and judge.pid is None:  # it died or retired with the run: its
            judge.start(control, stdio)  # successor is this run's fork, not the next run's
        retire = not empty_dirs() or \
            not unmoved(report_r, own_forks, header["harness"] == "python")
        if not retire and ZYGOTES_ON:
            retire = not keep_zygote(header.get("imports"), control)
        control.send(b"retire" if retire else b"clean")
        if retire:
            return


FORKS = 0
"""Processes this server forked since `COUNTERS` was last read."""
COUNTERS: "Any" = None
"""The jail's pid counter and each work folder's inode counter (`counters`), read after the
last run's clean-up."""
PER_MOUNT_INODES = True
"""Whether each tmpfs numbers its own inodes (Linux 5.9 and later: a fresh mount's first
files have small numbers). Before, tmpfs took them from a counter of the whole machine,
which every process of the host moves: no run's own count, and not checked."""


def fork() -> int:
    """os.fork, counted (`unmoved`), once the probe threads of `thread_id` are gone."""
    global FORKS
    probes_gone()
    FORKS += 1
    return os.fork()


M_ARENA_MAX = -8
"""glibc's mallopt parameter: the most malloc arenas a process makes."""


def one_malloc_arena() -> None:
    """Have glibc's malloc keep its main arena alone, in this server and every process it
    forks: set before this server starts a thread (`thread_id`). A thread's first malloc or
    free otherwise makes an arena of its own, reserving 64 MiB of address space that every
    child then inherits: once the run's RLIMIT_AS refuses a new mapping, malloc falls back
    to that reserved arena and grows into it by mprotect, which the limit does not check
    (a 16 MiB limit held 63 MiB of 1 MiB blocks warm, none cold). glibc fixes the arena
    limit at a process's first thread, so a program's own threads share the main arena too
    (docs/sandbox.md, "Address space without a cgroup"). A libc without mallopt: nothing
    to do."""
    libc, _ = harness_wire.load_libc()
    mallopt = getattr(libc, "mallopt", None)
    if mallopt is not None:
        mallopt(M_ARENA_MAX, 1)


def thread_id() -> "int | None":
    """The id of a thread started here (pids and thread ids are handed out in turn: it
    takes the next), as soon as the thread has read it; None if it could not run. The
    thread then ends by itself (`probes_gone`): the verdict that read its id need not wait
    for that."""
    import _thread

    ids = []
    done = _thread.allocate_lock()
    done.acquire()

    def probe() -> None:
        ids.append(_thread.get_native_id())
        done.release()

    try:
        _thread.start_new_thread(probe, ())
    except RuntimeError:
        return None
    done.acquire()
    return ids[0]


def probes_gone() -> None:
    """Wait until the threads `thread_id` started are gone (each ends right after reading
    its id), so that no thread of this server outlives a check into a fork. (Past a second,
    which a probe never takes, the fork goes on: a thread is not copied into a child.)"""
    import _thread

    deadline = time.monotonic() + 1.0
    while _thread._count() and time.monotonic() < deadline:
        time.sleep(0.0001)


def counters() -> "tuple[Any, ...] | None":
    """(the jail's pid counter, the inode counter of each work folder), read without
    leaving anything: a thread's id (`thread_id`), and the inode number of a file made
    with O_TMPFILE in each folder (gone at its close; tmpfs numbers its inodes in turn).
    None if a probe failed."""
    inodes = []
    try:
        for top in WORK_DIRS:
            fd = os.open(top, os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o600)
            try:
                inodes.append(os.fstat(fd).st_ino)
            finally:
                os.close(fd)
    except OSError:
        return None
    pid = thread_id()
    return None if pid is None else (pid, tuple(inodes))


SCANS = 0
"""Pids this server's `kill_run` took since `COUNTERS` was last read (its probe's)."""

PAD = 64
"""Processes a disturbed assert/check run is padded to (`unmoved`): replacement workers
(a worker crashed, timed out or raised OSError) and the long-lived harness's successor."""


def unmoved(report_r: int, own_forks: int, judged: bool) -> bool:
    """Whether the run moved the jail's pid counter and its work folders' inode counters
    as an undisturbed run of its kind does, so that the next run cannot read off its pid
    or a file's inode number anything this run's program chose. Each counter moves by
    this check's own probe and:

    - pids: the processes this server forked (`own_forks` for an undisturbed run: the
      run's child or worker, and the long-lived harness when this run started it) and
      those a stdin/stdout harness reports (`harness_wire.note_fork`, a byte each: its
      zygote and one per test). What a program chose is padded away with ids this server
      takes itself: the tests a stdin/stdout run did not start (it stopped at a timeout)
      up to all of them (`note_tests`); an assert/check run's replacement workers and a
      successor of its long-lived harness, up to PAD in all, whatever their number.
    - /work's inodes: the input files and folders the run's child wrote (`report_inputs`).

    Anything else (a process, a thread or a file of the program; more than PAD workers)
    cannot be padded away: False, and the server retires."""
    global COUNTERS, FORKS
    try:
        report = os.read(report_r, 1 << 20)
    except BlockingIOError:
        report = b""
    finally:
        os.close(report_r)
    forks, FORKS = FORKS, 0
    inputs, started, tests = report.count(b"i"), report.count(b"p"), report.count(b"e")
    pad = 0
    if started and started <= tests + 1:  # a stdin/stdout run: all its tests' processes
        pad = tests + 1 - started
    elif started:
        pad = -1
    if judged and forks != own_forks:  # disturbed: always as many, whatever happened
        pad = own_forks + PAD - forks
    elif forks != own_forks:
        pad = -1
    before = COUNTERS
    if pad < 0 or any(thread_id() is None for _ in range(pad)):
        COUNTERS = None
        return False
    COUNTERS = now = counters()
    global SCANS
    scans, SCANS = SCANS, 0
    if now is None or now[0] != before[0] + forks + started + pad + scans + 1:
        return False
    return not PER_MOUNT_INODES or \
        now[1] == (before[1][0] + 1 + inputs, *(count + 1 for count in before[1][1:]))


def report_inputs(report_w: int, created: int, close: bool = True) -> None:
    """The run's child: tell the server how many inodes the inputs took (`unmoved`), then
    close the report (`close`; a stdin/stdout harness keeps it: nothing of the program's
    ever holds it)."""
    try:
        os.write(report_w, b"i" * created)
    except OSError:
        pass  # a short count reads as moved: the server retires, the safe way
    if close:
        os.close(report_w)


def separated() -> bool:
    """Whether a child that takes the program uid (`become_program`) is out of reach of
    this server: it cannot signal it. Checked once, before any run: a server whose jail does
    not give the two uids and the capabilities to switch says why and exits."""
    harness_wire.load_libc()  # here, not in every child
    pid = fork()
    if pid == 0:
        try:
            harness_wire.become_program(PROGRAM_UID)
            try:
                os.kill(1, 0)
            except PermissionError:
                os._exit(0)
            os._exit(3)
        except BaseException:  # noqa: BLE001
            os._exit(4)
    status = os.waitpid(pid, 0)[1]
    if os.waitstatus_to_exitcode(status) != 0:
        sys.stderr.write(f"[E] the warm server cannot run programs under uid {PROGRAM_UID}"
                         f" out of its reach (status {status})\n")
        return False
    return True


def become(uid: int) -> None:
    """This child takes the program uid, or ends (never runs a program as the server)."""
    try:
        harness_wire.become_program(uid)
    except BaseException as exc:  # noqa: BLE001
        os.write(2, f"sandbox: cannot take the program uid: {exc}\n".encode())
        os._exit(70)


def warm_up(rounds: int = 12) -> None:
    """Run the harness's hot paths here on made-up data (a fake worker over local pipes,
    no program, no test of any run) until Python has specialized their bytecode. Otherwise
    every forked harness would warm and rewrite the same code objects itself, copying each
    page they are on: about 15% fewer page faults and a quarter less CPU per 10-assert run."""
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    program_side = harness_wire.Channel(req_r, rep_w)
    worker = harness.Worker(harness_wire.Channel(rep_r, req_w), 0, out_r, err_r)
    worker.names = {"add"}
    try:
        for _ in range(rounds):
            worker.deadline = time.monotonic() + 10
            worker.handles.clear()
            program_side.send(("ok", ("h", 1, "function", True)))  # the answer to "get add"
            program_side.send(("ok", ("v", [2, {"k": (1.5, None, "s", b"b")}])))  # to the call
            namespace = harness.Namespace(worker)
            exec("assert add(1, 1) == [2, {'k': (1.5, None, 's', b'b')}]", namespace)  # noqa: S102
            module = {"add": lambda a, b: [a + b, {"k": (1.5, None, "s", b"b")}]}
            handles: dict[Any, Any] = {}
            for _ in range(2):  # the program's side answers the two requests
                harness_program.answer(program_side.recv(), module, handles)
            harness_wire.standard_to_plain(("x", [1], {2: 3}))
            to_json({"test": 0, "verdict": ["pass", "", 0.001]})
            for name in ("main.py", "data/input.txt"):  # as write_inputs does
                name.split("/")[:-1]
        # compile() (a program's own call, and run_main's) first builds the `ast` module's
        # ~120 node types, which exec of a string never does: built here once, not in every
        # child (~190 copied pages and ~1.5 ms per run)
        compile("pass", "<warm-up>", "exec")
        # ctypes, for sched_getcpu (`harness_wire.hold_here`): ~3 ms to import, here once
        harness_wire.current_cpu()
    finally:
        worker.channel.close()
        program_side.close()
        os.close(out_w)
        os.close(err_w)
        for drain in worker.outputs:
            drain.finish()


def supervise(pid: int, header: "dict[str, Any]", control: _socket.socket,
              zygote: "ImportZygote | None" = None, pidfd: "int | None" = None
              ) -> "dict[str, Any]":
    """Wait for the run's child `pid` until it exits, the host asks for a kill or the wall
    limit passes. A child of an import `zygote` is not this server's: the zygote reaps it
    and reports its status and rusage, read here as this server's own wait4 reads them."""
    start = time.monotonic()
    deadline = start + header["wall_s"]
    own = zygote is None  # this server's child: its status is read here, never reaped before
    if pidfd is None:
        pidfd = os.pidfd_open(pid)
    orphans: dict[str, Any] = {"cpu_s": 0.0, "maxrss": 0}  # the program's, reaped meanwhile
    try:
        ended = wait_run(deadline, control, [pidfd], orphans, spare=(pid,) if own else ())
        if ended != pidfd:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    finally:
        os.close(pidfd)
    if zygote is None:
        _, status, usage = os.wait4(pid, 0)
        cpu_s, maxrss = usage.ru_utime + usage.ru_stime, usage.ru_maxrss
    else:
        status, cpu_s, maxrss = zygote.report()
    return {"exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "timed_out": ended is None, "wall_s": time.monotonic() - start,
            "cpu_s": cpu_s + orphans["cpu_s"], "maxrss": max(maxrss * 1024, orphans["maxrss"])}


def wait_run(deadline: float, control: _socket.socket, ends: "list[Any]",
             result: "dict[str, Any]", header: "dict[str, Any] | None" = None,
             service: "_socket.socket | None" = None, spare: "tuple[int, ...]" = ()) -> "Any":
    """Wait until one of `ends` (fds or sockets) is readable: that one; `control` when the
    host asks for a kill (output over the cap, a cancel); None at `deadline`. Meanwhile fork
    the replacement workers the run's harness asks for on `service` (`fork_worker`), and
    every REAP_S reap the program's exited orphans (this server is the jail's pid 1, as
    python3 main.py's init reaps them), but `spare` (the run's child, whose status its
    caller reads), the long-lived harness and the zygotes; the CPU time and peak memory
    of what is reaped go to `result`. The reaping is on a clock (`reap_at`), as
    `harness_wire.Channel._wait`'s: whatever wakes the wait (requests on `service` one
    after another) cannot put it off past REAP_S."""
    watched = [*ends, control] if service is None else [*ends, control, service]
    keep = (*spare, judge.pid or 0, *(zygote.pid for zygote in ZYGOTES.values()))
    reap_at = time.monotonic() + harness_wire.REAP_S  # a run done sooner needs none here
    while True:
        now = time.monotonic()
        left = deadline - now
        if left <= 0:
            return None
        if now >= reap_at:
            harness_wire.reap_exited(keep, lambda usage: add_usage(result, usage))
            reap_at = now + harness_wire.REAP_S
        ready = select.select(watched, [], [], min(left, reap_at - now))[0]
        if not ready:
            continue
        for end in ends:
            if end in ready:
                return end
        if control in ready:
            control.recv(64)
            return control
        if service is not None and header is not None and \
                service in ready and not fork_worker(service, header, result):
            watched.remove(service)  # the harness closed its end: nothing more to fork


class Judge:
    """The long-lived harness (`harness.serve`) of assert/check runs: forked from this
    server before the first such run, then handed one run after another, each with a worker
    this server forks. Replaced when it dies, is killed with a run, or retires."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.sock: Any = None  # a _socket.socket while it lives
        self.pidfd: Any = None

    def start(self, control: _socket.socket, stdio: "tuple[Any, Any, Any]") -> None:
        self.sock, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        pid = fork()
        if pid == 0:
            try:
                control.close()
                self.sock.close()
                os.closerange(3, theirs.fileno())
                os.closerange(theirs.fileno() + 1, MAX_FD)
                sys.stdin, sys.stdout, sys.stderr = stdio
                sys.argv = ["/harness/run.py", "python"]
                if ZYGOTES_ON:  # the server ends the runs: its kill(-1) spares the zygotes
                    harness.KILL_OTHERS = False
                # it kills the run's worker (the program uid): that, and nothing else
                harness_wire.set_capabilities(harness_wire.CAP_KILL)
                harness.serve(theirs, CPUS)
            finally:
                os._exit(70)
        theirs.close()
        self.pid, self.pidfd = pid, os.pidfd_open(pid)

    def close(self) -> None:
        """Kill it (if still there) and reap it: the next run forks a new one."""
        if self.pid is None:
            return
        harness_wire.kill_process(self.pid, self.pidfd)
        self.forget()

    def forget(self) -> None:
        """Drop it, reaped already."""
        os.close(self.pidfd)
        self.sock.close()
        self.pid = self.sock = self.pidfd = None


judge = Judge()


def judged_run(header: "dict[str, Any]", fds: "list[int]", control: _socket.socket,
               stdio: "tuple[Any, Any, Any]", report_w: int,
               zygote: "ImportZygote | None" = None) -> "dict[str, Any]":
    """One run of assert/check tests: this server forks the worker, which loads the program
    from the run's payload, and hands the long-lived harness the run's streams, the worker's
    pipes and a socket on which it asks for replacement workers. The harness kills what the
    run left; this server reaps it, asking the harness whether anything else is left."""
    stdin_fd, stdout_fd, stderr_fd, payload_fd = fds
    if judge.pid is None:
        judge.start(control, stdio)
    start = time.monotonic()
    deadline = start + header["wall_s"]
    # the CPU this run's harness holds itself on (`hold_here`); the program's worker is not
    # held (`become_worker`): it sees the CPUs a cold worker sees
    header["held"] = ({cpu} if (cpu := harness_wire.current_cpu()) is not None else None) \
        if header["hold"] else None
    service, service_theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    started = zygote.start("worker", header, [payload_fd, req_r, rep_w, out_w, err_w,
                                              report_w]) if zygote else None
    if started is not None:
        pid, pidfd = started
    else:
        pid = fork()
        if pid == 0:  # (the server's fds close in worker_main, before any program code: a
            # close here would copy the pages its objects are on)
            harness_program.forked(first_worker, header, payload_fd,
                                   (req_r, rep_w, out_w, err_w), report_w, status=0)
        pidfd = os.pidfd_open(pid)
    for fd in (payload_fd, req_r, rep_w, out_w, err_w, report_w):
        os.close(fd)
    handed = [stdin_fd, stdout_fd, stderr_fd, rep_r, req_w, out_r, err_r,
              service_theirs.fileno(), pidfd]
    try:
        harness_program.send_fds(judge.sock, marshal.dumps({"pid": pid, "held": header["held"],
                                                "memory": header["harness_bytes"]}),
                                 handed)
        sent = True
    except OSError:
        sent = False
    finally:
        for fd in handed:
            if fd != service_theirs.fileno():
                os.close(fd)
        service_theirs.close()
    result: dict[str, Any] = {"exit_code": None, "signal": signal.SIGKILL, "cpu_s": 0.0,
                              "maxrss": 0}
    ended = wait_run(deadline, control, [judge.pidfd, judge.sock], result, header,
                     service) if sent else judge.pidfd
    service.close()
    reply = judge.sock.recv(64) if ended is judge.sock else b""
    result["timed_out"] = ended is None
    if reply.startswith(b"done "):
        result.update(exit_code=0, signal=None)
        result["cpu_s"] += float(reply.split()[1])
    else:  # timed out, killed on the host's request, or the harness died with the run
        judge.close()
    result["wall_s"] = time.monotonic() - start
    return result


def first_worker(header: "dict[str, Any]", payload_fd: int, fds: "Sequence[int]", report_w: int
                 ) -> None:
    """The run's first worker (in the child forked for it): write the program and its files
    from the payload into /work, take the run's limits, then load the program and serve the
    harness (`worker_main`, which closes every other fd first)."""
    source, created = take_inputs(payload_fd)
    report_inputs(report_w, created)
    become_worker(header, fds, source)


def become_worker(header: "dict[str, Any]", fds: "Sequence[int]", source: "str | None" = None
                  ) -> None:
    """In a child forked for it: take the run's limits and serve the harness as an
    assert/check worker (`worker_main`, which closes every other fd, this server's too,
    before it loads the program: `source`, else /work/main.py)."""
    # not held with its harness: this server's affinity, a cold worker's
    set_run_limits(header, own=own_address_space(header))
    become(PROGRAM_UID)
    os.chdir("/work")
    sys.argv = ["/harness/run.py", "python"]  # as in the harness a cold worker comes from
    # and the same `__main__` (run.py's module, which as_cold keeps): a cold harness's
    main = vars(sys.modules["__main__"])
    main.pop("warm_server", None)
    main["harness"] = harness
    if "random" in sys.modules:
        sys.modules["random"].seed()
    # served from run.py's top level (`Then`), as deep as a cold worker
    harness_program.go_on(harness_program.serve_worker, fds, WORKER_STDIO, source)


def clean_up(result: "dict[str, Any]") -> None:
    """After a run: SIGKILL and reap every process of the jail but this one and the
    long-lived harness, adding their CPU time and peak memory to `result`. The harness does
    the kill (`kill(-1)` spares only its caller and pid 1) and tells whether anything is
    left; without one, or if it died, retires or fails to answer, this server kills all."""
    if judge.pid is not None and not reap(result):
        judge.close()
    if judge.pid is None:
        kill_all()


def reap(result: "dict[str, Any]", sock: "_socket.socket | None" = None) -> bool:
    """Reap until the harness finds no other process (`harness_wire.reap_left`, adding each
    reaped process's CPU time and peak memory to `result`); False when the harness died,
    did not answer, or retires (then `clean_up` kills everything). The harness is asked on
    `sock`: its own socket after a run (`clean_up`), the run's service socket before a
    replacement worker (`fork_worker`); its `check` SIGKILLs what is left
    (`harness._kill_others`). The harness and the import zygotes are never reaped here."""
    asked = judge.sock if sock is None else sock

    def ask() -> bytes:
        if judge.pid is None or _exited(judge.pid):
            return b""
        try:
            asked.send(b"check")
            if not select.select([asked], [], [], 5.0)[0]:
                return b""
            return asked.recv(64)
        except OSError:
            return b""

    keep = (judge.pid or 0, *(zygote.pid for zygote in ZYGOTES.values()))
    return harness_wire.reap_left(ask, keep, lambda usage: add_usage(result, usage))


def _exited(pid: int) -> bool:
    """Whether this server's child `pid` has exited (reaped or not)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def add_usage(result: "dict[str, Any]", usage: "Any") -> None:
    result["cpu_s"] += usage.ru_utime + usage.ru_stime
    result["maxrss"] = max(result["maxrss"], usage.ru_maxrss * 1024)


def fork_worker(service: _socket.socket, header: "dict[str, Any]", result: "dict[str, Any]"
                ) -> bool:
    """Fork one replacement worker of assert/check tests on the four pipe ends the harness
    sent, answer its pid; False when the harness is gone. The worker comes from this
    process, which never held a program or its tests, under the run's limits, and loads the
    program afresh. First every process the dead worker left is ended and reaped (`reap`,
    asking the harness on `service`), the dead worker included, not before: until then its
    pid cannot name another process. A dead worker's process left alive or unreaped held
    a process of the program uid's RLIMIT_NPROC from its replacement (red team sb17,
    sb18): the replacement starts with the first worker's count."""
    try:
        message, fds = harness_program.recv_fds(service, 4)
    except OSError:
        return False
    if message != b"worker" or len(fds) != 4:
        for fd in fds:
            os.close(fd)
        return False
    if ZYGOTES_ON:  # the harness kills nothing (`harness.KILL_OTHERS`): this server does
        run_kill()
    if not reap(result, service):
        for fd in fds:
            os.close(fd)
        return False
    pid = fork()
    if pid == 0:
        harness_program.forked(become_worker, header, fds, status=0)
    for fd in fds:
        os.close(fd)
    try:
        service.send(str(pid).encode())
    except OSError:
        pass  # the harness died meanwhile: kill_all ends the worker with the run
    return True


def kill_all() -> None:
    """SIGKILL every process of the jail but this one, until none is left to reap."""
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            while os.waitpid(-1, 0):
                pass
        except ChildProcessError:
            return


def empty_dirs() -> bool:
    """Empty /work and /tmp and take every extended attribute off them; False if something
    could not be removed, or if either folder is not then as it was when this server started
    (`folder_state`: mode, owner, attributes, free space and inodes). The server then
    retires: the host replaces it with a fresh one instead of reusing a dirty jail."""
    clean = True
    for top in WORK_DIRS:
        try:
            os.chmod(top, 0o1777)  # sticky, as a cold jail mounts both (`jail_argv`)
            empty(top)
            for name in os.listxattr(top, follow_symlinks=False):  # a program's user.*
                os.removexattr(top, name, follow_symlinks=False)
            # access and change times: this server's start, whatever a program's `utime`
            # (to now) or reads did
            os.utime(top, ns=BIRTH.setdefault("times", (time.time_ns(),) * 2))
            state = folder_state(top)
            clean = clean and BIRTH.setdefault(top, state) == state
        except (OSError, RecursionError):  # RecursionError: a tree nested past the stack
            clean = False
    return clean


BIRTH: "dict[Any, Any]" = {}
"""Each work folder's `folder_state` after its first emptying, at this server's start."""


def folder_state(top: str) -> "tuple[Any, ...]":
    """What a program could leave on a work folder itself (the mount's root, the one inode
    that outlives its runs): mode, owner, links and size (its entries), the names of its
    extended attributes, and the mount's free blocks and inodes (a file still held, or
    hidden, would take some). Anything else a run makes is inside the folder and is
    removed with it."""
    status = os.stat(top, follow_symlinks=False)
    space = os.statvfs(top)
    return (status.st_mode, status.st_uid, status.st_gid, status.st_nlink, status.st_size,
            tuple(sorted(os.listxattr(top, follow_symlinks=False))),
            space.f_bfree, space.f_ffree)


def empty(folder: str) -> None:
    """Remove everything in `folder`: each sub-folder made ours to enter first; symlinks
    are removed, never followed. (scandir, not two os.walk passes: this runs after every
    program, and what it allocates is copied from pages shared with the last child.)"""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                os.chmod(entry.path, 0o777)  # the program's own (CAP_FOWNER): now open to all
                empty(entry.path)
                os.rmdir(entry.path)
            else:
                os.unlink(entry.path)


def standard_streams(make: "Callable[[], tuple[Any, Any, Any]]") -> "tuple[Any, Any, Any]":
    """The sys.stdin/stdout/stderr that `make` builds over fds 0-2 (`fresh_stdio` for a
    run's child, `worker_stdio` for an assert/check worker), built once here over pipes
    for every child: never used by this process (its own streams are restored), so each
    child gets them unwritten, and as a cold run has them (not seekable, not a tty, a pipe's
    block size; a worker's stdin over /dev/null), with no object to build after the fork."""
    saved = [os.dup(fd) for fd in (0, 1, 2)]
    pipes = [os.pipe() for _ in range(3)]
    null = os.open("/dev/null", os.O_RDONLY)
    own = sys.stdin, sys.stdout, sys.stderr
    try:
        for fd, (read, write) in zip((0, 1, 2), pipes):
            os.dup2(read if fd == 0 else write, fd)
        if make is harness_program.worker_stdio:
            os.dup2(null, 0)
        return make()
    finally:
        sys.stdin, sys.stdout, sys.stderr = own
        for fd, original in zip((0, 1, 2), saved):
            os.dup2(original, fd)
            os.close(original)
        for pair in pipes:
            for fd in pair:
                os.close(fd)
        os.close(null)


def child(header: "dict[str, Any]", fds: "list[int]", stdio: "tuple[Any, Any, Any]",
          report_w: int) -> None:
    """A run's child: a plain program (`run_main`) or a stdin/stdout harness, which keeps
    the report at fd 3 (`harness_wire.note_fork`)."""
    stdin_fd, stdout_fd, stderr_fd, payload_fd = fds
    source, created = take_inputs(payload_fd)
    for target, fd in ((0, stdin_fd), (1, stdout_fd), (2, stderr_fd)):
        os.dup2(fd, target)
    tests = bool(header["harness"])
    if tests and report_w != 3:
        os.dup2(report_w, 3)  # kept for the harness (dup2 clears close-on-exec)
    report_inputs(3 if tests else report_w, created, close=not tests)
    os.closerange(4 if tests else 3, MAX_FD)
    set_run_limits(header, programs=not tests, own=0 if tests else own_address_space(header))
    if tests:
        # a stdin/stdout harness keeps time for the program: it keeps this server's uid, out
        # of the program's reach (no SIGSTOP, prlimit or renice from it), as a cold one
        # does (`judge_apart`); each test's process takes the program's count, as the host
        # computed it (`_warm.WarmServer._header`): this harness is another uid, not counted
        harness_wire.REPORT_FD = 3
        try:
            harness_wire.judge_apart(header["harness"], PROGRAM_UID, header["processes"])
        except OSError as exc:
            os.write(2, f"sandbox: cannot drop the harness's capabilities: {exc}\n".encode())
            os._exit(70)
    else:
        os.setsid()  # a session leader, as a cold run's program (its jail's pid 1) is
        become(PROGRAM_UID)  # a plain program
    os.chdir("/work")
    sys.stdin, sys.stdout, sys.stderr = stdio  # as harness_program.fresh_stdio makes them
    if "random" in sys.modules:
        sys.modules["random"].seed()
    if header["harness"]:  # stdin/stdout tests: this harness and the programs it starts
        if header["hold"]:
            harness_wire.hold_here()
            harness_wire.PROGRAM_CPUS = CPUS  # its programs are not held
        sys.argv = ["/harness/run.py", header["harness"]]
        harness.main(header["harness"])
        os._exit(0)  # its report is written (os.write), as a cold harness's (`harness.entry`)
    harness_program.originals(*stdio)  # the program's, as a cold run's
    harness_program.program_main(source)


def take_inputs(payload_fd: int) -> "tuple[str | None, Any]":
    """Read the run's program and files from its payload pipe (`harness_wire.pack_inputs`,
    until its end) and write them into /work, read-only, file by file through a bounded
    buffer (the inputs count once in the run's memory: the file in /work, as cold);
    (the program's text, the inodes written)."""
    source = None
    created = 0
    while head := harness_wire.read_exactly(payload_fd, harness_wire.INPUT_HEAD):
        if len(head) != harness_wire.INPUT_HEAD:
            raise EOFError("the inputs stream ended inside a record")
        size = int.from_bytes(head[4:], "big")
        name = harness_wire.read_exactly(payload_fd, int.from_bytes(head[:4], "big"))
        if source is None:  # the program, first: its text is the run's
            text = harness_wire.read_exactly(payload_fd, size)
            source = text.decode("utf-8", "surrogatepass")
            created += write_inputs(name.decode("utf-8", "surrogatepass"), text)
        else:
            created += write_inputs(name.decode("utf-8", "surrogatepass"), payload_fd, size)
    return source, created


def write_inputs(name: str, content: "bytes | int", size: int = 0) -> int:
    """/work/NAME, mode 0644 as a cold run's binds and read-only to the program as there
    (this server's uid owns it in a sticky folder: the program's uid can neither write,
    remove nor replace it), from `content`: bytes, or a descriptor `size` bytes of it are
    read from (`harness_wire.copy_input`); the inodes made (the file, and each folder on
    its way not there yet). (os.open and os.write, not open(): every function a child
    calls copies the pages its objects are on.)"""
    path = "/work/" + name
    created = 1
    folder = "/work"
    for part in name.split("/")[:-1]:  # a normalized relative name (`safe_name`)
        folder += "/" + part
        try:
            os.mkdir(folder)
            # the program's to write in, as in a cold jail, whose init or test harness opens
            # nsjail's folders the same way (`init.open_folders`; the umask took the others'
            # write bit); sticky, as /work: the program may not remove or replace the inputs
            # in it (a cold jail's are mount points: EBUSY)
            os.chmod(folder, 0o1777)
            created += 1
        except FileExistsError:
            pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    try:
        if isinstance(content, int):
            harness_wire.copy_input(content, fd, size)
        else:
            view = memoryview(content)
            while view:
                view = view[os.write(fd, view):]
        os.fchmod(fd, 0o644)  # as a cold jail shows its binds, whatever the umask
    finally:
        os.close(fd)
    return created


def own_address_space(header: "dict[str, Any]") -> int:
    """Without a memory cgroup (RLIMIT_AS holds the run's memory): the address space this
    forked process holds beyond what a cold python3 holds at its start
    (`START_ADDRESS_SPACE`), less what its zygote's import mapped (`ZYGOTE_IMPORT`: a cold
    program maps that itself, under its limit). Added to RLIMIT_AS, it leaves the program
    the room a cold one has: the address space this server mapped is not the run's (the
    program reads the sum as its limit). 0 with a cgroup (RLIMIT_AS a loose backstop,
    read as cold reads it), or where it cannot be told."""
    if header["cgroup"]:
        return 0
    now = address_space.size(near=SERVER_ADDRESS_SPACE)
    if now is None or START_ADDRESS_SPACE is None:
        return 0
    return max(0, now - START_ADDRESS_SPACE - ZYGOTE_IMPORT)


def set_run_limits(header: "dict[str, Any]", programs: bool = True, cpu_grace: int = 0,
                   own: int = 0) -> None:
    """The run's rlimits, computed by the host (`process_budget`): without a memory cgroup
    the processes share the run's memory, with one RLIMIT_AS is a backstop and the cgroup
    holds the total. Lowered for good: a program cannot raise them again. `programs`
    False: a stdin/stdout harness, which keeps this server's uid, whose processes
    RLIMIT_NPROC would count (this server's, the long-lived harness): each process it
    starts for the program takes the program's count instead (`enter_program`).

    RLIMIT_CPU is (cpu_s, cpu_s + `cpu_grace`). A run's is (cpu_s, cpu_s), as nsjail's
    `--rlimit_cpu` of a cold jail: SIGKILL at cpu_s, so a program that ignores SIGXCPU gets
    no CPU second more warm than cold (`_classify` reads a warm SIGKILL after most of the
    CPU limit as a timeout). A session's interpreter takes a grace of 1 (SIGXCPU, then
    SIGKILL a second later): SIGXCPU tells its CPU grant from the memory cgroup's kill.

    `own`: address space this process holds that a cold one does not (`own_address_space`),
    on top of the run's RLIMIT_AS. Only where the process runs the program itself: a
    stdin/stdout harness's tests exec python3 afresh, which holds no more than cold."""
    set_limit(resource.RLIMIT_AS, header["address_space"] + own)
    cpu = header["cpu_s"]
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + cpu_grace))
    set_limit(resource.RLIMIT_FSIZE, header["file_size_bytes"])
    set_limit(resource.RLIMIT_NOFILE, header["open_files"])
    # the program uid's processes: neither this server nor the long-lived harness counts,
    # so the program has the count python3 main.py alone has (a cold jail's, less ours)
    if programs:
        set_limit(resource.RLIMIT_NPROC, header["processes"])
    set_limit(resource.RLIMIT_CORE, 0)


def set_limit(kind: int, value: int) -> None:
    resource.setrlimit(kind, (value, value))


# --- import zygotes (NOT ENABLED by default: `SANDBOX_IMPORT_ZYGOTES=1` on the host) -----
# see docs/sandbox.md, "Import zygotes", and sandbox/_first_import.py (the key)

MAX_ZYGOTES = 2
"""Import zygotes a server keeps, the least recently used replaced."""
ZYGOTES: "dict[Any, ImportZygote]" = {}
"""This server's import zygotes by key (the modules of a program's first imports), least
recently used first."""


class ImportZygote:
    """A child of this server, forked between runs, that did `as_cold` and then the import
    of `modules` (their import only: no binding, nothing frozen), and forks the runs whose
    programs start with that import (`zygote_main`). It runs no program code, nothing is
    forked back from a child, and it keeps this server's uid with CAP_SETUID and CAP_SETGID
    only: a program (another uid) cannot signal it, nor does this server's `run_kill`
    (under the program uid, without CAP_KILL)."""

    def __init__(self, modules: "tuple[str, ...]", control: _socket.socket) -> None:
        self.modules = modules
        self.waiting = False  # a child's report is due (`report`)
        self.sock: Any
        self.sock, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        probes_gone()
        pid = os.fork()  # its pid is counted by the caller (`keep_zygote`)
        if pid == 0:
            for sock in (control, judge.sock, *(z.sock for z in ZYGOTES.values())):
                if sock is not None:  # closed below: no object of theirs closes it again
                    sock.detach()
            self.sock.detach()
            harness_program.forked(zygote_main, theirs, modules)
        theirs.close()
        self.pid = pid

    def ready(self) -> bool:
        """Wait until its import is done (it says `ready`): False, and it is killed and
        reaped, if the import failed or took past 5 s. Until then this server takes no run
        (`keep_zygote`), so nothing of a run is in /work while a zygote imports, and the
        import's memory is the idle server's, never a run's."""
        try:
            if select.select([self.sock], [], [], 5.0)[0] and self.sock.recv(16) == b"ready":
                return True
        except OSError:
            pass
        self.close()
        return False

    def start(self, kind: str, header: "dict[str, Any]", fds: "Sequence[int]"
              ) -> "tuple[int, int] | None":
        """Have the zygote fork the run's child (`kind` "plain": `child`; "worker": an
        assert/check run's `first_worker`) on `fds`: (its pid, a pidfd of it), or None if
        the zygote cannot (it is dropped; the caller forks the child itself)."""
        global FORKS
        try:
            harness_program.send_fds(self.sock, marshal.dumps((kind, header)), fds)
            if not select.select([self.sock], [], [], 5.0)[0]:
                raise OSError("no answer")
            pid = int(self.sock.recv(64))
            pidfd = os.pidfd_open(pid)  # the zygote reaps it only after this (`zygote_main`)
            self.sock.send(b"go")
        except (OSError, ValueError):
            self.close()
            return None
        FORKS += 1  # the run's own fork, as this server's would be
        self.waiting = True
        return pid, pidfd

    def report(self) -> "tuple[int, float, int]":
        """The zygote's report on the child it forked for the run, once that child has
        ended: (wait status, CPU seconds, peak RSS in KiB), as this server's wait4 gives
        them. A zygote that does not answer within 5 s: (SIGKILL, 0, 0), and it is dropped
        (the server then retires: `keep_zygote`)."""
        self.waiting = False
        try:
            if select.select([self.sock], [], [], 5.0)[0]:
                answer = self.sock.recv(256)
                if answer:
                    status, cpu_s, maxrss = marshal.loads(answer)
                    return status, cpu_s, maxrss
        except (OSError, ValueError, EOFError, TypeError):
            pass
        self.close()
        return signal.SIGKILL, 0.0, 0

    def close(self) -> None:
        """Kill and reap it (a child of this server: no pid is taken)."""
        global BROKEN
        if self.sock is None:
            return
        BROKEN = True
        self.sock.close()
        self.sock = None
        ZYGOTES.pop(self.modules, None)
        if self.pid > 0:  # (-1 once reaped by `kill_run`)
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


ZYGOTE_IMPORT = 0
"""In an import zygote and its children: the address space its import mapped
(`own_address_space`)."""

BROKEN = False
"""Whether a zygote failed or died during the run: the server retires after it."""


def zygote_main(sock: _socket.socket, modules: "tuple[str, ...]") -> None:
    """An import zygote's life: drop every capability but the uid switch (its children's),
    close every other fd, `as_cold`, import
    `modules`, then fork one run's child per request, and report each child's end. Nothing
    is imported after `as_cold` but `modules` (the references used are taken before)."""
    keep = sock.fileno()
    os.closerange(3, keep)
    os.closerange(keep + 1, MAX_FD)
    harness_wire.set_capabilities(harness_wire.CAP_SETUID | harness_wire.CAP_SETGID)
    from_bytes, order, size = int.from_bytes, sys.byteorder, _struct.calcsize("i")
    space = _socket.CMSG_LEN(8 * size)
    rights = (_socket.SOL_SOCKET, _socket.SCM_RIGHTS)
    loads, fork, reap = marshal.loads, os.fork, zygote_reaper()
    harness_program.as_cold()
    cold = set(sys.modules)
    before = address_space.size()
    import_from_stdlib(modules)
    after = address_space.size()
    global ZYGOTE_IMPORT
    ZYGOTE_IMPORT = after - before if after is not None and before is not None else 0
    # a tuple of strings: untracked by the collector's next pass, as nothing of the server's
    # child is (a list would be one live object more in `gc.get_objects()`)
    harness_program.ZYGOTE_NAMES = tuple(name for name in sys.modules if name not in cold)
    del cold
    sock.send(b"ready")  # only now does the server take the next run (`ImportZygote`)
    while True:  # one child per turn, in a call of its own: nothing of a turn outlives it
        serve_one(sock, space, rights, from_bytes, order, size, loads, fork, reap)


def serve_one(sock: _socket.socket, space: int, rights: "tuple[int, int]", from_bytes: "Any",
              order: str, size: int, loads: "Any", fork: "Any", reap: "Any") -> None:
    """One turn of an import zygote (`zygote_main`): fork the child a request asks for,
    then reap it and report its end. What a child can read of this process is the same in
    every child (the rule of `zygote_reaper`): a turn touches no module, no `sys` table and
    no dict a child reads, and its locals (this frame's) are gone before the next fork."""
    message, ancillary, _, _ = sock.recvmsg(1 << 16, space)
    if not message:
        os._exit(0)
    fds: list[int] = []
    for level, kind, data in ancillary:
        if (level, kind) == rights:  # not `_struct.unpack`: a new format ("5i") stays
            # in its cache, one live object the server's child does not have
            fds.extend(from_bytes(data[at:at + size], order, signed=True)
                       for at in range(0, len(data) - size + 1, size))
    pid = fork()
    if pid == 0:
        harness_program.forked(zygote_child, sock, *loads(message), fds)
    for fd in fds:
        os.close(fd)
    sock.send(str(pid).encode())
    sock.recv(16)  # the server holds a pidfd of it now: it may be reaped
    sock.send(reap(pid))


def zygote_reaper() -> "Callable[[int], bytes]":
    """An import zygote's wait for one child (made before `as_cold`): the child's report,
    marshalled (wait status, CPU seconds, peak RSS in KiB), as os.wait4 gives them, through
    libc's wait4 (ctypes, loaded by the server). Not os.wait4: each call imports `resource`
    (its rusage type) unless `sys.modules` holds it, and a cold program's does not; an
    entry put there and deleted uses a slot of the table for good, so the zygote's
    `sys.modules` would count the children it served (its size, and how many imports a
    child makes before it grows). The rule: nothing a zygote does between two children
    changes what a child can read."""
    get_errno, dumps = harness_wire.load_libc()[1].get_errno, marshal.dumps
    wait4, status_type, usage_type = harness_wire._WAIT4  # (the server's: no type made here)
    status, usage = status_type(), usage_type()
    zeros = (0,) * 18

    def reap(pid: int) -> bytes:
        while wait4(pid, status, 0, usage) != pid:
            error = OSError(get_errno(), "wait4")  # InterruptedError for EINTR: again
            if not isinstance(error, InterruptedError):
                raise error
        # seconds + microseconds * 0.000001, as os.wait4's ru_utime and ru_stime
        cpu_s = (usage[0] + usage[1] * 0.000001) + (usage[2] + usage[3] * 0.000001)
        report = dumps((status[0], cpu_s, usage[4]))
        status[0], usage[:] = 0, zeros  # the next child finds the buffers as the first did
        return report

    return reap


STAND_IN = "/harness/.no-such-folder"
"""The zygote's sys.path[0] while it imports (`import_from_stdlib`): a path that is never
there (the staged folder is read-only), in the place of the script's folder /work."""


def import_from_stdlib(modules: "tuple[str, ...]") -> None:
    """Import `modules` from the interpreter's standard library only, never from /work:
    sys.path is the stand-in for the script's folder (`STAND_IN`, where nothing is found)
    and the entries of the cold path under the standard library's prefix (an allow-list),
    whatever a folder a program can write holds. Then sys.path is the cold one again and,
    where the import searched sys.path, the stand-in's place in `sys.path_importer_cache`
    is /work's, with a finder of it made as the import system makes one, not yet listed:
    as a cold program's first import leaves them (`harness_program.from_zygote` lists
    /work in the run's child, once its inputs are there)."""
    path = [*sys.path]
    stdlib = f"{sys.base_prefix}/{sys.platlibdir}/python"
    sys.path[:] = [STAND_IN, *(entry for entry in path[1:] if entry.startswith(stdlib))]
    try:
        for name in modules:
            __import__(name)
    finally:
        sys.path[:] = path
    cache = sys.path_importer_cache
    if STAND_IN not in cache:  # never searched: no entry for /work either
        return
    entries = list(cache.items())
    cache.clear()
    for entry, finder in entries:
        if entry == STAND_IN:
            entry, finder = path[0], None
            for hook in sys.path_hooks:  # as importlib's PathFinder._path_hooks
                try:
                    finder = hook(entry)
                    break
                except ImportError:
                    continue
        cache[entry] = finder


def zygote_child(sock: _socket.socket, kind: str, header: "dict[str, Any]",
                 fds: "list[int]") -> None:
    """A run's child forked by an import zygote: the run goes on as in a child of the
    server (`child`, `first_worker`), which writes the inputs and takes the program uid."""
    sock.detach()  # closed with every other fd by the run's own code
    if kind == "plain":  # from run.py's top level, the zygote's frames unwound
        harness_program.go_on(child, header, fds[:4], RUN_STDIO, fds[4])
    else:
        first_worker(header, fds[0], fds[1:5], fds[5])


SERVER_UID: "Any" = None
SERVER_GID: "Any" = None
"""This server's uid and gid (`run_kill` takes them back)."""


def zygote_for(imports: "Any") -> "ImportZygote | None":
    """The zygote for a run whose program starts by importing `imports` (None: none), most
    recently used now."""
    if not ZYGOTES_ON or not imports:
        return None
    zygote = ZYGOTES.pop(tuple(imports), None)
    if zygote is not None:
        ZYGOTES[zygote.modules] = zygote
    return zygote


def keep_zygote(imports: "Any", control: _socket.socket) -> bool:
    """After a run's checks: make the zygote of its first import if there is none (the
    least recently used one goes past MAX_ZYGOTES), else take one pid with a probe, so that
    every run moves the pid counter by as much whatever the run before it made; False if a
    zygote failed during the run (the server retires)."""
    global COUNTERS, BROKEN
    if BROKEN:
        return False
    key = tuple(imports) if imports else None
    if key is not None and key not in ZYGOTES:
        while len(ZYGOTES) >= MAX_ZYGOTES:
            next(iter(ZYGOTES.values())).close()
        zygote = ImportZygote(key, control)
        if zygote.ready():
            ZYGOTES[key] = zygote
        BROKEN = False  # closing one is no failure, nor a failed import (it is dropped)
    elif thread_id() is None:
        return False
    probes_gone()
    COUNTERS = (COUNTERS[0] + 1, COUNTERS[1])
    return True


def run_kill() -> None:
    """SIGKILL every process of the jail under the program uid, and nothing else: made
    with the program uid as real and effective uid (this server's kept as saved, to take it
    back) and CAP_KILL out of the effective set, so the kernel's own permission check
    spares the zygotes and the long-lived harness (this server's uid). This server, pid 1,
    ignores what a program could send it meanwhile (signals a pid 1 has no handler for)."""
    capset, header_type, data_type = harness_wire._CAPSET
    own = SERVER_CAPS  # (effective, permitted, inheritable) x 2, as the server started
    capset(header_type(0x20080522, 0),
           data_type(own[0] & ~harness_wire.CAP_KILL, *own[1:]))
    try:
        os.setresuid(PROGRAM_UID, PROGRAM_UID, SERVER_UID)
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        finally:
            os.setresuid(SERVER_UID, SERVER_UID, SERVER_UID)
    finally:
        capset(header_type(0x20080522, 0), data_type(*own))


SERVER_CAPS: "Any" = None
"""This server's capability sets as it started (capget: effective, permitted, inheritable
of the low and the high 32 capabilities), which `run_kill` puts back."""


def read_capabilities() -> "tuple[int, ...]":
    libc, ctypes = harness_wire.load_libc()
    _, header_type, data_type = harness_wire._CAPSET
    data = data_type()
    if libc.capget(header_type(0x20080522, 0), data) != 0:
        raise OSError(ctypes.get_errno(), "capget failed")
    return tuple(data)


def kill_run(result: "dict[str, Any]", zygote: "ImportZygote | None") -> bool:
    """With import zygotes, instead of `clean_up`: SIGKILL the run's processes and reap
    them, adding their CPU time and peak memory to `result`. The program's die of
    `run_kill`; the others (a stdin/stdout harness and what it forked, this server's uid)
    and any left are found by pid: every pid the run can have taken, between the pid
    counter read before the run and a probe's now, but the zygotes' and the long-lived
    harness's, is sent SIGKILL until it is gone (`kill(-1)` cannot tell when the last is:
    the kernel counts the processes it may not signal as found). False if one is still
    there after 5 s, or the counter went round (the server retires)."""
    global SCANS
    run_kill()
    if zygote is not None and zygote.waiting:  # an assert/check run's worker, from it
        _, cpu_s, maxrss = zygote.report()
        result["cpu_s"] += cpu_s
        result["maxrss"] = max(result["maxrss"], maxrss * 1024)
    probes_gone()
    last = thread_id()
    probes_gone()
    SCANS += 1
    if last is None or last <= COUNTERS[0]:
        return False
    spare = {judge.pid, *(z.pid for z in ZYGOTES.values())}
    deadline = time.monotonic() + 5.0
    while True:
        while True:
            try:
                pid, _, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                pid = 0
            if pid == 0:
                break
            if pid == judge.pid:
                judge.forget()
                spare.discard(pid)
                continue
            for other in list(ZYGOTES.values()):
                if other.pid == pid:  # reaped: never killed twice
                    other.pid = -1
                    other.close()
            add_usage(result, usage)
        left = False
        for pid in range(COUNTERS[0] + 1, last):
            if pid in spare:
                continue
            try:  # a zombie too, until it is reaped
                pidfd = os.pidfd_open(pid)
            except OSError:  # gone; or EINVAL: a thread's id (of the long-lived harness,
                continue  # say), not a process: it ends with its process, never alone
            left = True
            try:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            except OSError:
                pass
            finally:
                os.close(pidfd)
        if not left:
            break
        if time.monotonic() > deadline:
            return False
        run_kill()
        time.sleep(0.0002)
    if judge.pid is not None:
        try:
            judge.sock.send(b"check")
            if not select.select([judge.sock], [], [], 5.0)[0] or \
                    judge.sock.recv(64) != b"clean":
                judge.close()
        except OSError:
            judge.close()
    return True
