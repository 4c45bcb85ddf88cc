"""Plumbing shared by the in-jail harness and the program side (standard library only,
staged with the harness, see `_staging.py`): framed messages over pipes, the plain-data
check that decides what may leave a program, and a small JSON writer."""

# no `from __future__ import annotations`: at run time it imports __future__, ~0.5 ms of
# every cold harness start (in-jail modules run on Python >= 3.10, which needs no import)

import marshal
import math
import posix as os  # os.py itself imports ~2 ms of modules a cold harness needs none of
import select
import sys
import time

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing typing; mypy reads it as True
if TYPE_CHECKING:
    import signal  # as mypy knows `_signal`: the same functions and signal numbers
else:
    import _signal as signal  # the `signal` module imports enum & co: ~8 ms of a cold start
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

PLAIN = (type(None), bool, int, float, complex, str, bytes, tuple, list, dict, set, frozenset)


MAX_MESSAGE = 64 << 20
MAX_VERDICT_TEXT = 2000
"""Characters of a verdict's message the harness writes at most (cut, ending in " [...]"):
an exception's text or a type name a program chose can be megabytes. The one exception is a
stdin/stdout test's output on its way to the host's checker, which the output cap bounds."""


class WorkerGone(Exception):
    """The worker died or broke the protocol."""



class TestTimeout(Exception):
    """The test ran past its time limit."""



READ_SIZE = 64 << 10
"""Bytes a channel asks of one read: a pipe holds 64 KiB, and a larger buffer (glibc's
malloc maps 128 KiB and more fresh) would cost an mmap, an mremap and a munmap per message,
most of a call's cost when a test calls the program thousands of times."""


class Channel:
    """Length-prefixed marshal messages over two pipes (requests one way, replies back).
    While waiting, the program's stdout/stderr pipes are drained so it never blocks on them.
    `checked`: the messages come from a program (the harness's side): each must pass
    `check_message` before marshal decodes it, and one marshal refuses is WorkerGone."""

    def __init__(self, read_fd: int, write_fd: int, drains: "Iterable[Any]" = (),
                 checked: bool = False) -> None:
        self.read_fd, self.write_fd, self.drains = read_fd, write_fd, list(drains)
        self.checked = checked
        self.buffer = bytearray()  # bytes read ahead of the current message
        # the harness's side: a pidfd of the worker, readable once it has exited. Its end
        # is then the channel's end as soon as nothing it wrote is left to read, EOF or not:
        # a process the program forked may hold a copy of the reply pipe's write end, which
        # would keep EOF away until the test's time ran out (red team sb17)
        self.ended: int | None = None
        # a cold harness (the jail's pid 1): called every REAP_S while it waits, to reap
        # the program's exited orphans as python3 main.py's init does (`reap_exited`), on
        # a clock (`reap_at`): whatever wakes the wait, a worker that writes on and on too
        # (red team rt39: reaping only when select timed out starved it for a whole call)
        self.reaper: Any = None
        self.reap_at = 0.0

    def send(self, obj: "Any", deadline: "float | None" = None) -> None:  # what marshal takes
        """Write one message. The harness's side (`drains`: its write end is non-blocking,
        `Worker`) writes what the pipe takes and, while it is full, waits as `recv` does:
        under `deadline` (TestTimeout), draining the program's outputs, and watching
        `ended` (WorkerGone). A request past a pipe's 64 KiB to a worker that does not read
        it (gone while a child of its holds the pipe, or alive with the pipe swapped) is
        then that test's verdict, never a write that blocks until the run's wall limit
        (red team sb18)."""
        data = marshal.dumps(obj)
        view = memoryview(len(data).to_bytes(4, "big") + data)
        while view:
            if self.drains:
                try:
                    view = view[os.write(self.write_fd, view):]
                except BlockingIOError:
                    self._wait(deadline, writing=True)
            else:  # the worker's side: block, there is nothing else to watch
                view = view[os.write(self.write_fd, view):]

    def recv(self, deadline: "float | None" = None) -> "Any":
        self._fill(4, deadline)
        size = int.from_bytes(self.buffer[:4], "big")
        if size > MAX_MESSAGE:
            raise WorkerGone("message too large")
        self._fill(4 + size, deadline)
        message = bytes(self.buffer[4:4 + size])
        del self.buffer[:4 + size]
        if not self.checked:
            return marshal.loads(message)
        try:
            return decode_message(message)  # check_message first
        except (ValueError, TypeError, EOFError) as exc:  # bad UTF-8, an unhashable key
            raise WorkerGone(f"the program sent a malformed message: {exc}") from None

    def _fill(self, size: int, deadline: "float | None") -> None:
        """Read until `size` bytes are buffered: one read per wake-up, as much as is there."""
        while len(self.buffer) < size:
            if self.drains and not self._wait(deadline, writing=False):
                continue
            # the worker's side blocks: there is nothing else to watch
            chunk = os.read(self.read_fd, READ_SIZE)
            if not chunk:
                raise WorkerGone("the program exited")
            self.buffer += chunk

    def _wait(self, deadline: "float | None", writing: bool) -> bool:
        """The harness's side: wait until the reply pipe is readable (`writing`: the
        request pipe writable), draining the program's outputs meanwhile; whether it is.
        TestTimeout past `deadline`; WorkerGone once the worker has ended (`ended`) and the
        reply pipe holds nothing (a request it would never read: at once)."""
        watched = [d.fd for d in self.drains if d.fd is not None]
        if not writing:
            watched.append(self.read_fd)
        if self.ended is not None:
            watched.append(self.ended)
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise TestTimeout()
        if self.reaper is not None:
            now = time.monotonic()
            if now >= self.reap_at:
                self.reaper()
                self.reap_at = now + REAP_S
            left = self.reap_at - now if left is None else min(left, self.reap_at - now)
        ready, writable, _ = select.select(watched, [self.write_fd] if writing else [], [],
                                           left)
        if not ready and not writable:
            if self.reaper is None or (deadline is not None and time.monotonic() >= deadline):
                raise TestTimeout()
            return False  # the next wait reaps: REAP_S has passed
        for drain in self.drains:
            if drain.fd in ready:
                drain.read()
        if writable or (not writing and self.read_fd in ready):
            return True
        if self.ended is not None and self.ended in ready:
            raise WorkerGone("the program exited")
        return False

    def close(self) -> None:
        for fd in (self.read_fd, self.write_fd):
            try:
                os.close(fd)
            except OSError:
                pass



def hold_cpus(cpus: "Iterable[int]", pid: int = 0) -> None:
    """Hold process `pid` (0: this one) on the set `cpus` (its affinity); a CPU it may not
    use, or a process gone, leaves it as it is (placement only: no limit depends on it)."""
    try:
        os.sched_setaffinity(pid, cpus)
    except OSError:
        pass


def hold_here(*pids: int) -> "set[int] | None":
    """Hold this process, and the processes `pids`, on the CPU it runs on (where the kernel
    put it) for a run; the CPUs held (a set), or None where the CPU cannot be told. A warm
    run's harness and its program take turns: a test calls the program and waits for its
    answer, a stdin/stdout harness feeds a test's input and waits for the output. On one
    CPU a hand-over is a switch; across two it wakes the other CPU, which on a VM (where an
    idle CPU halts) costs ~30 us more per call. The kernel placed this process, so parallel
    runs, of one host process or of several, start spread as it spreads them. A program's
    own processes are not held: they take the jail's affinity back (`enter_program`,
    `warm_server.become_worker`), as a program sees its CPUs cold; the kernel's wake-ups
    of a pipe's reader (sync wake-ups) still tend to the writer's CPU."""
    cpu = current_cpu()
    if cpu is None:
        return None
    held = {cpu}
    for pid in (0, *pids):
        hold_cpus(held, pid)
    return held


_GETCPU: "Any" = None  # libc's sched_getcpu once loaded; False where there is none


def current_cpu() -> "int | None":
    """The CPU this process runs on (libc's sched_getcpu, through ctypes: loaded on first
    use, by the warm server before it forks anything); None where it cannot be told."""
    global _GETCPU
    if _GETCPU is None:
        try:
            import ctypes

            _GETCPU = ctypes.CDLL(None).sched_getcpu
        except (ImportError, OSError, AttributeError):
            _GETCPU = False
    if not _GETCPU:
        return None
    cpu = _GETCPU()
    return cpu if cpu >= 0 else None



CAP_FOWNER = 1 << 3
CAP_KILL = 1 << 5
CAP_SETGID = 1 << 6
CAP_SETUID = 1 << 7
PROGRAM_UID: "int | None" = None
"""Set in a harness of another uid than its programs (`judge_apart`: a cold test harness, a
warm stdin/stdout run's): the uid every process that runs the program takes
(`enter_program`). None elsewhere (the warm long-lived harness: the server forks its
workers)."""
PROGRAM_CPUS: "Any" = None
"""Set by the warm server in a stdin/stdout run's harness that it holds on one CPU
(`hold_here`): the affinity a cold run's program has (the jail's), which each process that
runs the program takes back (`enter_program`) before the program runs: a program sees
(and may use) the CPUs it sees cold."""
HARNESS_CAPABILITIES = {"python": CAP_KILL | CAP_SETUID | CAP_SETGID,
                        "io": CAP_KILL | CAP_SETUID | CAP_SETGID | CAP_FOWNER}
"""What a test harness of another uid than its programs keeps, by kind (`judge_apart`), in
its jail's user namespace only: CAP_SETUID and CAP_SETGID, so that each process it starts
for the program takes PROGRAM_UID (`enter_program`), CAP_KILL for the program's processes
(another uid), and for stdin/stdout tests CAP_FOWNER, so that /work and /tmp go back to the
task's between tests (`harness_io.restore`: the program's own files and folders). A cold
jail keeps these and no more (`_tests.HARNESS_CAPABILITIES`, the same names); the warm
long-lived assert/check harness keeps CAP_KILL alone (the warm server forks its workers)."""
_LIBC = None
_CAPSET: "Any" = None
"""libc's capset and the array types of its header and data (`set_capabilities`), made by
`load_libc`."""
_WAIT4: "Any" = None
"""libc's wait4 and the array types of its status and rusage, made by `load_libc`."""


def load_libc() -> "tuple[Any, Any]":
    """(libc, ctypes), loaded once (by the warm server, before it forks: ~3 ms)."""
    global _LIBC
    if _LIBC is None:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                              ctypes.c_int, ctypes.c_long)
        libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
        global _CAPSET
        # resolved and built here once: a ctypes function or array type made in a forked
        # child copies the tens of pages it touches (~0.3 ms of every warm run)
        _CAPSET = libc.capset, ctypes.c_uint32 * 2, ctypes.c_uint32 * 6
        global _WAIT4
        # wait4 and the types of its status and struct rusage (two timevals, then 14
        # longs) for an import zygote's reaper (`warm_server.zygote_reaper`)
        _WAIT4 = libc.wait4, ctypes.c_int * 1, ctypes.c_long * 18
        _LIBC = libc, ctypes
    return _LIBC


def set_capabilities(mask: int) -> None:
    """Keep only the capabilities of `mask` (bits of the low 32 capabilities, the only ones
    the warm server's jail is given) in this process's effective, permitted and inheritable
    sets (the ambient set follows: it can hold nothing that is not permitted); OSError when
    the kernel refuses. (libc's capset through ctypes, loaded by the warm server before it
    forks anything.)"""
    ctypes = load_libc()[1]
    capset, header_type, data_type = _CAPSET
    header = header_type(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = data_type(mask, mask, mask, 0, 0, 0)  # (effective, permitted, inheritable) x 2
    if capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


def become_program(uid: int) -> None:
    """Turn this process (a warm server's child, about to run a program or a stdin/stdout
    harness) into the program uid with no capability and no supplementary group: from here
    it can neither signal, renice, re-limit nor move the warm server and its long-lived
    harness (another uid), nor undo it. Fails closed: the caller exits on any error."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    set_capabilities(0)
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (uid, uid, uid):
        raise OSError("the program uid did not hold")


REPORT_FD: "int | None" = None
"""Set by the warm server in a stdin/stdout run's harness: where it reports each process it
starts (`note_fork`)."""


def note_fork() -> None:
    """Before each fork of a warm stdin/stdout harness, or a fork it asks its zygote for:
    one byte to the server, which retires if the jail's pid counter moved by more than its
    runs' own processes (a program's count the next run would read off its pid)."""
    if REPORT_FD is not None:
        try:
            os.write(REPORT_FD, b"p")
        except OSError:
            pass  # a short count reads as moved: the server retires, the safe way


PROGRAM_NPROC: "int | None" = None
"""With PROGRAM_UID: the processes (RLIMIT_NPROC) the program's uid may have."""


def judge_apart(kind: str, uid: int, processes: int) -> None:
    """Make this process a test harness (`kind`: "python" or "io") out of its programs'
    reach, cold (the jail's pid 1) and warm (a stdin/stdout run's child of the server)
    alike: it keeps its own uid and only the capabilities of HARNESS_CAPABILITIES[kind],
    and every process it starts for the program takes `uid` with no capability and
    `processes` as its RLIMIT_NPROC (`enter_program`), the program's own count, as
    `python3 main.py` alone reads it. So no program can signal, stop, ptrace, re-limit,
    renice or move this harness, or write to what only it holds (its report's stream).
    Raises OSError where the capabilities cannot be set: the caller ends rather than judge."""
    global PROGRAM_UID, PROGRAM_NPROC
    set_capabilities(HARNESS_CAPABILITIES[kind])
    PROGRAM_UID, PROGRAM_NPROC = uid, processes


def note_tests(count: int) -> None:
    """A warm stdin/stdout harness, once it has read the tests: how many processes a run
    that starts every one of them makes (`note_fork`): the server retires after a run that
    made another number (it stopped early, at a timeout the program may have chosen)."""
    if REPORT_FD is not None:
        try:
            os.write(REPORT_FD, b"e" * count)
        except OSError:
            pass


def enter_program() -> None:
    """In a process forked to run the program (a test's process, an assert/check worker
    from a cold harness or its zygote): take the program uid, no capability and the
    program's process count where the harness keeps another uid (`judge_apart`: every test
    harness but the warm long-lived one, whose workers the server forks). Raises on any
    failure: the caller exits rather than run the program."""
    if PROGRAM_CPUS is not None:  # a warm stdin/stdout run's harness, held (`hold_here`)
        hold_cpus(PROGRAM_CPUS)
    if PROGRAM_UID is not None:
        import resource

        become_program(PROGRAM_UID)
        if PROGRAM_NPROC is None:  # set with PROGRAM_UID (`judge_apart`)
            raise OSError("the program's process count is not set")
        resource.setrlimit(resource.RLIMIT_NPROC, (PROGRAM_NPROC, PROGRAM_NPROC))


def address_space_bytes(resource: "Any") -> "int | None":
    """This process's address-space size (what RLIMIT_AS counts), or None where it cannot
    be told (`address_space.size`: the jail has no /proc)."""
    from . import address_space

    return address_space.size()


INPUT_HEAD = 12
"""Bytes before each file of a warm run's inputs stream (`pack_inputs`): its name's length
(4, big-endian), then its content's (8)."""
INPUT_CHUNK = 1 << 16
"""The most bytes of an input a warm child holds at once while it writes it (`copy_input`)."""


def pack_inputs(code: str, files: "Iterable[tuple[str, bytes]]") -> bytes:
    """A warm run's program and input files (normalized names, contents as the jail gets
    them: `_workspace.as_bytes`) as one stream the child reads file by file
    (`warm_server.take_inputs`): for each, `INPUT_HEAD`, the name (UTF-8) and the content;
    the program first, as main.py. A stream, not one marshalled object, so the child holds
    at most `INPUT_CHUNK` bytes of an input while it writes it: the inputs count once in
    the run's memory, as cold (red team sb22)."""
    parts = []
    for name, content in (("main.py", code.encode("utf-8", "surrogatepass")), *files):
        raw = name.encode("utf-8", "surrogatepass")
        parts += [len(raw).to_bytes(4, "big"), len(content).to_bytes(8, "big"), raw, content]
    return b"".join(parts)


def read_exactly(fd: int, size: int) -> bytes:
    """`size` bytes of `fd` (b"" at its end before the first byte); EOFError where it
    ends after one."""
    chunks = []
    left = size
    while left:
        chunk = os.read(fd, min(left, INPUT_CHUNK))
        if not chunk:
            if left == size:
                return b""
            raise EOFError("the stream ended inside a record")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def copy_input(fd: int, out: int, size: int) -> None:
    """Copy `size` bytes from `fd` to `out`, `INPUT_CHUNK` at most at a time."""
    left = size
    while left:
        chunk = os.read(fd, min(left, INPUT_CHUNK))
        if not chunk:
            raise EOFError("the stream ended inside an input")
        left -= len(chunk)
        view = memoryview(chunk)
        while view:
            view = view[os.write(out, view):]


def read_all(fd: int) -> bytes:
    """Everything `fd` yields until its end of file."""
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)



def kill_process(pid: int, pidfd: "int | None" = None, reap: bool = True) -> None:
    """SIGKILL `pid` (through its `pidfd` where there is one) and wait until it has exited:
    reap it (`reap`: the caller is its parent) or wait for its pidfd to become readable."""
    try:
        if pidfd is not None:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if not reap:
        assert pidfd is not None  # only a pidfd tells a non-child's exit
        select.select([pidfd], [], [])  # readable once the process has exited
        return
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass



def kill_others() -> bool:
    """SIGKILL every process of the jail but this one and pid 1 (`kill(-1)`, which this
    process's CAP_KILL extends to the program uid); whether there was one (zombies count
    until reaped). The one killer of what a run or a dead worker left: the warm long-lived
    harness (`harness._kill_others`) and the cold zygote (`harness_program.zygote_main`),
    each beside the jail's pid 1, which reaps (`reap_left`)."""
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        return False
    return True


REAP_S = 0.05
"""Seconds between two reapings of the program's exited orphans (`reap_exited`) while the
jail's pid 1 (a cold assert/check harness, the warm server) waits on a run: an orphan that
exited holds a process of the program uid's RLIMIT_NPROC until reaped, where python3
main.py's init reaps it at once."""


def reap_exited(keep: "tuple[int, ...]" = (), usage: "Any" = None) -> None:
    """Reap every exited child of this process (the jail's pid 1: the program's orphans
    come back to it; a stdin/stdout harness, their subreaper warm; the cold zygote) without
    waiting, up to the first of `keep` (left to its owner); `usage(rusage)` for each."""
    while _reap_one(keep, os.WNOHANG, usage):
        pass


def reap_left(ask: "Any", keep: "tuple[int, ...]" = (), usage: "Any" = None) -> bool:
    """In the pid 1 of a jail (the program's orphans come back to it, whatever their session
    or group), between a dead assert/check worker and its replacement or after a run: reap
    every exited child but `keep`, then `ask()` the one process that ends the rest (cold the
    harness's zygote, warm the long-lived harness: its `kill(-1)` SIGKILLs every process of
    the jail but itself and pid 1, and ESRCH says none was there, zombies included) and,
    while it answers b"busy", wait for the next child to end and reap it. True once it
    answers b"clean"; False for any other answer (it is gone or retires), or when the first
    child ended is one of `keep` (left to its owner). `usage(rusage)` for each reaped."""
    while True:
        reap_exited(keep, usage)  # the dead, without waiting
        answer = ask()
        if answer != b"busy":
            return answer == b"clean"
        if not _reap_one(keep, 0, usage):  # what is left dies of the SIGKILL it was sent
            return False


def _reap_one(keep: "tuple[int, ...]", flags: int, usage: "Any") -> bool:
    """Reap one exited child (`flags`: os.WNOHANG, or 0 to wait for one) unless it is one
    of `keep`, which stays unreaped; whether one was reaped."""
    try:
        info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT | flags)
    except ChildProcessError:
        return False
    if info is None or info.si_pid in keep:
        return False
    rusage = os.wait4(info.si_pid, 0)[2]
    if usage is not None:
        usage(rusage)
    return True


MAX_DEPTH = 50
"""Levels of nested containers plain data may have."""
MAX_ITEMS = 1 << 24
"""Items plain data may have, each shared part counted every time it appears: any walk of
it (a comparison, a repr) is then bounded, however much a program shares (`x = [x, x]` 48
times over is 49 lists but 2**49 items)."""
_CONTAINERS = (tuple, list, set, frozenset, dict)


class TooLarge(ValueError):
    """Plain data with more than MAX_ITEMS items, shared parts counted each time."""


def is_plain(value: object, depth: int = 0) -> bool:
    """Whether `value` is plain data: PLAIN types all the way down, at most MAX_DEPTH levels
    below `depth`, at most MAX_ITEMS items. Linear in the size of the data: a container met
    again (shared) is not walked again."""
    try:
        return check_plain(value, depth)
    except TooLarge:
        return False


def check_plain(value: object, depth: int = 0) -> bool:
    """`is_plain`, but TooLarge (saying so) for data past MAX_ITEMS."""
    kind = type(value)
    if kind not in PLAIN or depth > MAX_DEPTH:
        return False
    if kind not in _CONTAINERS:
        return True
    return _walk(value, depth, {}) is not None


def _walk(value: "Any", depth: int, seen: "dict[int, tuple[int, int]]"
          ) -> "tuple[int, int] | None":
    """(levels below `value` its deepest item lies at, items in it counting itself), or
    None when something below is not plain or lies deeper than MAX_DEPTH. `seen`: what
    the containers already walked gave, by id (alive all along: the data holds them)."""
    known = seen.get(id(value))
    if known is not None:
        return known if depth + known[0] <= MAX_DEPTH else None
    if depth >= MAX_DEPTH:  # its items would lie deeper than allowed
        return None if value else (0, 1)
    height, size = 0, 1
    items = value if type(value) is not dict else (x for pair in value.items() for x in pair)
    for item in items:
        kind = type(item)
        if kind not in PLAIN:
            return None
        if kind in _CONTAINERS:
            found = _walk(item, depth + 1, seen)
            if found is None:
                return None
            height, size = max(height, found[0] + 1), size + found[1]
        else:
            height, size = max(height, 1), size + 1
        if size > MAX_ITEMS:
            raise TooLarge(f"the value has more than {MAX_ITEMS} items (a part it holds "
                           "several times counts each time)")
    seen[id(value)] = (height, size)
    return height, size


def standard_to_plain(value: "Any", depth: int = 0,
                      converted: "dict[int, Any] | None" = None) -> "Any":
    """Exact standard-library containers (Counter, OrderedDict, defaultdict, deque) as the
    dict or list they compare like, recursively; None for anything else. The result is
    plain data, checked again by the harness, so this cannot smuggle a program's class.
    Linear: a container met again is converted once (`converted`, by id)."""
    collections = sys.modules.get("collections")
    kind = type(value)
    if depth > MAX_DEPTH:
        return None
    if kind in PLAIN and kind not in _CONTAINERS:
        return value
    if converted is None:
        converted = {}
    key = id(value)
    if key in converted:
        return converted[key]
    if collections is not None and kind in (collections.Counter, collections.OrderedDict,
                                            collections.defaultdict):
        value, kind = dict(value), dict
    elif collections is not None and kind is collections.deque:
        value, kind = list(value), list
    result = None
    converted[key] = None  # a cycle back to this container: not plain
    if kind in (list, tuple, set, frozenset):
        items = [standard_to_plain(v, depth + 1, converted) for v in value]
        if not any(i is None and v is not None for i, v in zip(items, value)):
            result = kind(items)
    elif kind is dict:
        entries = {k: standard_to_plain(v, depth + 1, converted) for k, v in value.items()}
        if not any(entries[k] is None and value[k] is not None for k in entries):
            result = entries
    converted[key] = result
    return result



# --- what marshal may decode of a program's bytes ----------------------------------------
# marshal is "not intended to be secure against erroneous or maliciously constructed data":
# it builds code objects, allocates what a length field declares before reading the items
# (9 bytes asked the long-lived harness for a list of 2**31 items) and trusts a
# reference to an object not yet complete. So the harness scans a program's message first,
# in Python, for the subset `marshal.dumps` writes of plain data (format version 4), and
# marshal only ever decodes that: no code object or other type, every length within the
# bytes left, references to complete objects only, nesting at most MAX_WIRE_DEPTH.

MAX_WIRE_DEPTH = MAX_DEPTH + 8
"""Containers a message may nest: plain data's MAX_DEPTH below the reply's own tuples."""
MAX_WIRE_ITEMS = MAX_ITEMS + 64
"""Items a message's containers may hold together: more than plain data holds (MAX_ITEMS,
a shared part counted each time) with the reply's own. It bounds the time of a scan."""
FLAG_REF = 0x80
_SCALARS = {**{ord(code): 0 for code in "NTF"},  # None, True, False: never flagged
            **{ord(code) | flag: size for code, size in (("i", 4), ("g", 8), ("y", 16))
               for flag in (0, FLAG_REF)}}
"""Scalars of a fixed size, by type byte (flag included): int32, binary float and complex."""
_TEXT = frozenset(b"suatA")  # bytes, str (UTF-8, interned), ASCII str (interned): len32
_ASCII = frozenset(b"aAzZ")
_SHORT_TEXT = frozenset(b"zZ")  # short ASCII str (interned): len8
_SEQUENCES = frozenset(b"([<>")  # tuple, list, set, frozenset: count32
_SMALL_TUPLE, _DICT, _NULL, _LONG, _REF = ord(")"), ord("{"), ord("0"), ord("l"), ord("r")
_CONTAINER = _SEQUENCES | {_SMALL_TUPLE, _DICT}
_LIST, _SET, _FROZENSET = ord("["), ord("<"), ord(">")
_LISTED = frozenset((_LIST, _SET, _FROZENSET, _DICT))
"""Containers `decode_message` reads as lists (a dict as its keys and values in turn)."""
_KEY, _VALUE = -2, -1  # a dict frame's count: the place of its next item


class BadMessage(WorkerGone):
    """A program's message outside what marshal may decode here."""


def _int32(data: bytes, at: int) -> int:
    if at + 4 > len(data):
        raise BadMessage("the message is truncated")
    return int.from_bytes(data[at:at + 4], "little", signed=True)


def check_message(data: bytes
                  ) -> "tuple[bytearray, list[tuple[int, int | None, int]]] | None":
    """Raise BadMessage unless `data` is one object in the plain-data subset of marshal's
    format (see above), with nothing after it. Linear in the message, no recursion: each
    open container is a [items still to come (a dict: _KEY or _VALUE, the place of its
    next item; it ends with a NULL in a key's place), its reference slot or None, where its
    type byte is, its items so far] frame.

    Returns what `decode_message` needs to decode it without hashing a program's keys:
    (the type of every list, set, frozenset and dict, in the order they come; the place of
    each set's and frozenset's type byte, and each dict's with its NULL's and the count of
    its keys and values), or None when the message holds no set, frozenset or dict."""
    end = len(data)
    at = 0
    complete = bytearray()  # by reference index: 1 once that object is complete
    frames: list[list[Any]] = []  # [items left or a dict's place, slot, start, count]
    items = 0  # in the containers so far: each item is read once, so the scan is bounded
    kinds = bytearray()  # b"[<>{" of each list-like container, in order
    edits: list[tuple[int, int | None, int]] = []  # (type byte's place, a dict's NULL's place or None, its keys and values)
    hashed = False  # a set, frozenset or dict seen
    while True:
        if at >= end:
            raise BadMessage("the message is truncated")
        byte = data[at]
        at += 1
        size = _SCALARS.get(byte)
        if size is not None:  # the most common: read first
            at += size
            if byte & FLAG_REF:
                complete.append(1)
        else:
            code, flagged = byte & ~FLAG_REF, byte & FLAG_REF
            if code in _CONTAINER:
                start = at - 1
                if code in _LISTED:
                    kinds.append(code)
                    if code == _SET or code == _FROZENSET:
                        edits.append((start, None, 0))
                    hashed = hashed or code != _LIST
                if code == _DICT:
                    count = _KEY
                elif code == _SMALL_TUPLE:
                    if at >= end:
                        raise BadMessage("the message is truncated")
                    count, at = data[at], at + 1
                else:
                    count, at = _int32(data, at), at + 4
                    if not 0 <= count <= end - at:  # each item takes a byte at least
                        raise BadMessage("more items than the message has bytes")
                if count > 0:  # a dict's items are counted as they come
                    items += count
                    if items > MAX_WIRE_ITEMS:
                        raise BadMessage(f"more than {MAX_WIRE_ITEMS} items")
                slot = None
                if flagged:
                    slot = len(complete)
                    complete.append(0)
                if count != 0:
                    if len(frames) >= MAX_WIRE_DEPTH:
                        raise BadMessage(f"nested deeper than {MAX_WIRE_DEPTH} levels")
                    frames.append([count, slot, start, 0])
                    continue  # its first item is next: nothing is complete yet
                if slot is not None:
                    complete[slot] = 1
            elif code == _NULL:
                if flagged or not frames or frames[-1][0] != _KEY:
                    raise BadMessage("a NULL outside a dict key's place")
                frame = frames.pop()  # the dict's end: the dict is complete
                edits.append((frame[2], at - 1, frame[3]))
                if frame[1] is not None:
                    complete[frame[1]] = 1
            elif code == _REF:
                index = _int32(data, at)
                at += 4
                if flagged or not 0 <= index < len(complete) or not complete[index]:
                    raise BadMessage("a reference to an object that is not complete")
            else:
                at = _text_or_long(data, at, code)
                if flagged:
                    complete.append(1)
        if at > end:
            raise BadMessage("the message is truncated")
        # an object is complete: count it in its container, closing the containers it fills
        while frames:
            frame = frames[-1]
            left = frame[0]
            if left < 0:  # a dict: from a key's place to a value's, and back
                frame[0] = _KEY + _VALUE - left
                frame[3] += 1
                items += 1
                if items > MAX_WIRE_ITEMS:
                    raise BadMessage(f"more than {MAX_WIRE_ITEMS} items")
                break
            if left > 1:
                frame[0] = left - 1
                break
            frames.pop()
            if frame[1] is not None:
                complete[frame[1]] = 1
        if not frames:
            if at != end:
                raise BadMessage("bytes after the message")
            return (kinds, edits) if hashed else None


def _text_or_long(data: bytes, at: int, code: int) -> int:
    """Where the text (str or bytes) or the big integer of type `code` starting at `at`
    ends; BadMessage for any other type, or one that does not fit the message."""
    end = len(data)
    if code in _TEXT or code in _SHORT_TEXT:
        if code in _SHORT_TEXT:
            if at >= end:
                raise BadMessage("the message is truncated")
            size, at = data[at], at + 1
        else:
            size, at = _int32(data, at), at + 4
        if not 0 <= size <= end - at:
            raise BadMessage("a text longer than the message")
        if code in _ASCII and not data[at:at + size].isascii():
            raise BadMessage("an ASCII text that is not ASCII")
        return at + size
    if code == _LONG:
        digits = abs(_int32(data, at))
        at += 4
        if not 0 < digits <= (end - at) // 2:
            raise BadMessage("an integer longer than the message")
        span = data[at:at + 2 * digits]  # 15-bit digits, little-endian, the last non-zero
        if max(span[1::2]) >= 0x80 or span[-2:] == b"\0\0":
            raise BadMessage("an integer digit out of range, or a leading zero digit")
        return at + 2 * digits
    raise BadMessage(f"an object of marshal type {chr(code)!r}, which is not plain data")


def decode_message(data: bytes) -> "Any":
    """The object a program's message `data` holds (`check_message` first: BadMessage for
    anything outside plain data). Linear in the message, whatever its keys: a set,
    frozenset or dict is decoded as a list (no hashing), then built from it here only if its
    keys' hashes collide no more than honest data does (`_few_collisions`). 80,000 integers
    of one hash (1.2 MB) made marshal's own set take minutes, out of any test's time."""
    found = check_message(data)
    if found is None:
        return marshal.loads(data)
    kinds, edits = found
    # each set or frozenset becomes a list in place (the same layout: a count, the items);
    # each dict a list of its keys and values in turn (a count after its type byte, its
    # closing NULL dropped)
    # (place, count to insert after the type byte, or None; -1: a NULL to drop)
    points: list[tuple[int, int | None]] = []
    for start, null, count in edits:
        points.append((start, None if null is None else count))
        if null is not None:
            points.append((null, -1))
    points.sort(key=lambda point: point[0])
    pieces, copied = [], 0  # one pass: the message's bytes between the points, in order
    for place, inserted in points:
        pieces.append(data[copied:place])
        if inserted != -1:
            pieces.append(bytes((_LIST | data[place] & FLAG_REF,)))
            if inserted is not None:
                pieces.append(inserted.to_bytes(4, "little"))
        copied = place + 1
    pieces.append(data[copied:])
    listed = b"".join(pieces)
    return _build(marshal.loads(listed), iter(kinds), {})


MAX_COLLISIONS = 64
"""Pairs of keys of one hash a set, frozenset or dict of a program's may hold beyond one per
key (`_few_collisions`). Honest data has next to none (`hash(-1) == hash(-2)`); each such
pair costs an equality test per insertion, so a bound per key keeps building it linear."""


_NESTED = (list, tuple)


def _build(value: "Any", kinds: "Iterator[int]", built: "dict[int, Any]") -> "Any":
    """`value` as `check_message` found it: each list `decode_message` made of a set,
    frozenset or dict (its type next in `kinds`, in the order marshal made them) that
    again, bottom-up. `built`: id -> result, so that an object marshal shared (a
    reference) is built once and stays shared; there are no cycles (references name
    complete objects only)."""
    kind = type(value)
    if kind is not list and kind is not tuple:
        return value
    done = built.get(id(value))
    if done is not None:
        return done[1]
    code = next(kinds) if kind is list else None  # taken before the items: marshal's order
    items = [_build(item, kinds, built) if type(item) in _NESTED else item for item in value]
    if kind is tuple:
        result = value if all(a is b for a, b in zip(items, value)) else tuple(items)
    elif code == _LIST:
        value[:] = items
        result = value
    elif code == _DICT:
        keys = items[0::2]
        _few_collisions(keys)
        result = dict(zip(keys, items[1::2]))
    else:
        _few_collisions(items)
        result = set(items) if code == _SET else frozenset(items)
    built[id(value)] = (value, result)  # value kept: its id is not reused meanwhile
    return result


def _few_collisions(keys: "list[Any]") -> None:
    """Raise BadMessage when `keys` share hashes past MAX_COLLISIONS plus one pair per key
    (a run of n keys of one hash costs n*(n-1)/2 equality tests to insert). Sorting the
    hashes compares machine integers only: linear-logarithmic whatever the program chose."""
    if len(keys) < 2:
        return
    hashes = sorted(map(hash, keys))  # TypeError for an unhashable key: a malformed message
    if not any(map(int.__eq__, hashes, hashes[1:])):  # the common case: no two alike
        return
    pairs, run, previous = 0, 0, None
    for value in hashes:
        run = run + 1 if value == previous else 0
        pairs += run
        previous = value
    if pairs > len(keys) + MAX_COLLISIONS:
        raise BadMessage(f"{pairs} pairs of keys with one hash in a set or dict of "
                         f"{len(keys)}: a hash-collision bomb")


def _last_line(exc: BaseException) -> str:
    """The last line `traceback.format_exception_only` gives for `exc`, capped. Built here
    for the common case: importing traceback (with linecache, tokenize and textwrap) costs
    every forked harness or worker that meets its first exception ~4 ms. SyntaxError (a
    multi-line layout) and exceptions carrying notes still go through traceback."""
    kind = type(exc)
    if isinstance(exc, SyntaxError) or getattr(exc, "__notes__", None) is not None:
        import traceback

        text = "".join(traceback.format_exception_only(kind, exc)).strip()
        return text.splitlines()[-1][:2000] if text else kind.__name__
    name = kind.__qualname__
    module = kind.__module__
    if module not in ("__main__", "builtins"):
        if not isinstance(module, str):
            module = "<unknown>"
        name = f"{module}.{name}"
    try:
        value = str(exc)
    except BaseException:  # noqa: BLE001  (as traceback words it)
        value = "<exception str() failed>"
    text = (f"{name}: {value}" if value else name).strip()
    return text.splitlines()[-1][:2000] if text else kind.__name__



def to_json(obj: object) -> str:
    """JSON for the report (the json module costs a cold harness ~10 ms to import)."""
    if obj is None or obj is True or obj is False:
        return {None: "null", True: "true", False: "false"}[obj]
    if isinstance(obj, int):
        return str(int(obj))
    if isinstance(obj, float):
        return repr(obj) if math.isfinite(obj) else "null"
    if isinstance(obj, str):
        if obj.isascii() and obj.isprintable() and '"' not in obj and "\\" not in obj:
            return '"' + obj + '"'  # nothing to escape: most verdicts and outputs
        return '"' + "".join(_json_char(c) for c in obj) + '"'
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(to_json(v) for v in obj) + "]"
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{to_json(str(k))}: {to_json(v)}" for k, v in obj.items()) + "}"
    return to_json(str(obj))



def _json_char(c: str) -> str:
    escaped = _JSON_ESCAPES.get(c)
    if escaped:
        return escaped
    return f"\\u{ord(c):04x}" if "\ud800" <= c <= "\udfff" else c  # lone surrogates


# control characters and the two JSON specials (surrogates are escaped by _json_char: a
# table of their 2048 entries cost every cold harness start ~0.4 ms to build)
_JSON_ESCAPES = {"\\": "\\\\", '"': '\\"', **{chr(i): f"\\u{i:04x}" for i in range(32)}}


class Verdicts(list):  # type: ignore[type-arg]  # bases run in the jail: no typing
    """Verdicts, each also written to the report stream: at once (so that the tests done
    before a whole-run timeout still count), or, with `hold_s`, held until `hold_s` has
    passed since the first one held or the run ends (`flush`), which saves the host a
    wake-up per test. The long-lived harness holds them: a program that kills or stops it
    loses only its own run's verdicts."""

    def __init__(self, nonce: str, hold_s: "float | None" = None) -> None:
        super().__init__()
        self.nonce = nonce
        self.hold_s = hold_s
        self.held: list[bytes] = []
        self.since = 0.0

    def append(self, verdict: "Any") -> None:  # a tuple: (kind, message, seconds[, ran])
        if verdict[0] != "checker" and len(verdict[1]) > MAX_VERDICT_TEXT:
            verdict = (verdict[0], verdict[1][:MAX_VERDICT_TEXT] + " [...]", *verdict[2:])
        line = (self.nonce + to_json({"test": len(self), "verdict": verdict})
                + "\n").encode()
        super().append(verdict)
        if self.hold_s is None:
            os.write(1, line)
            return
        now = time.monotonic()
        if not self.held:
            self.since = now
        self.held.append(line)
        if now - self.since >= self.hold_s:
            self.flush()

    def flush(self, tail: bytes = b"") -> None:
        """Write the verdicts held, then `tail` (the report), in one write."""
        view = memoryview(b"".join(self.held) + tail)
        self.held.clear()
        while view:
            view = view[os.write(1, view):]


class Budget:
    """When the tests of one program may still start (issue #17: a budget per program, not
    per test). Test i runs under its own limit (`test_limits[i]` where the host gave one per
    test, as EvalPlus derives them from a reference solution; else `test_wall_s`), capped by
    what is left of the program's wall budget (`program_wall_s`, counted from the harness's
    start); no test starts after one timed out (a program that loops would otherwise cost
    one limit per remaining test) or once the budget is spent. The tests not started are
    reported as timeouts that did not run (a verdict's fourth field, False)."""

    def __init__(self, spec: "dict[str, Any]", start: "float | None" = None) -> None:
        self.per_test = spec["test_wall_s"]
        self.test_limits = spec.get("test_limits")  # one per test, or None
        self.budget = spec.get("program_wall_s")
        start = time.monotonic() if start is None else start
        self.deadline = None if self.budget is None else start + self.budget
        self.stopped = ""  # why no further test starts; empty while they do

    def own(self, index: int) -> float:
        """Test `index`'s own limit, before the program's budget caps it."""
        return self.per_test if self.test_limits is None else self.test_limits[index]

    def limit(self, index: int) -> "float | None":
        """Seconds test `index` may take, or None when it must not start."""
        if self.stopped:
            return None
        if self.deadline is None:
            return self.own(index)
        left = self.deadline - time.monotonic()
        if left <= 0:
            self.stopped = f"not run: the program's budget of {self.budget:g} s was spent"
            return None
        return min(self.own(index), left)

    def timeout_message(self, index: int, limit: float) -> str:
        """The verdict message of test `index`, which ran past `limit`; no test starts after
        it."""
        if limit < self.own(index):  # cut short by the budget
            self.stopped = f"not run: the program's budget of {self.budget:g} s was spent"
            return f"test exceeded the {limit:.3g} s left of the program's {self.budget:g} s"
        self.stopped = "not run: an earlier test timed out"
        return f"test exceeded {limit:g} s"

    def skip_rest(self, verdicts: "Verdicts", count: int) -> None:
        """Verdicts for the tests that did not start: timeouts, marked as not run."""
        while len(verdicts) < count:
            verdicts.append(("timeout", self.stopped or "not run", 0.0, False))
