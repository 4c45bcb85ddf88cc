"""The session server: runs INSIDE a jail of its own as its pid 1 (standard library only,
started as `python3 -E -s -S /harness/run.py session-server FD UID`, see _staging.py and
_session.py), one per session: it keeps ONE interpreter alive for the session's calls, so
globals, imports and the files in /work and /tmp outlive a call.

The separation is the warm server's (`_warm_server.py`, whose helpers it reuses): this
server keeps the jail's uid and the capabilities to switch, kill and clean; the interpreter
it forks takes the program uid UID, with no capability, and the session's rlimits (address
space, the episode's CPU seconds, file size, open files, processes), lowered for good before
any program code runs. Program code can neither signal, re-limit nor renice this server, nor
read its memory (seccomp: no ptrace, no process_vm_readv).

Per call the host sends a small header (`wall_s`) with three fds: the pipe carrying the
cell's code and the call's stdout and stderr pipes (and a notebook's display pipe, a fourth).
This server never reads the code: it hands the fds to the interpreter with the call's number,
and the interpreter runs the cell in its globals and answers a status word with that number;
an answer with another number (a process the cell forked, or a forgery) is not this call's,
and a process the cell forked ends when it runs off the cell's end. What the interpreter
says is about its own session only: it reaches no other. If the interpreter does not answer within `wall_s`, dies (memory, a signal, os._exit),
or the host asks for a kill (a cancel), this server SIGKILLs every process of the jail but
itself (`kill(-1)`), empties /work and /tmp, and forks a fresh interpreter: the session is
reset, and the reply says so. Idle for `idle_s`, or when the host closes the control socket,
it kills everything and exits, and the jail with it; idle, it first reaps everything and
leaves its count (`IDLE_WORD`, `spent_s`) on the control socket for the host.

The episode's CPU (`episode_cpu_s`) is counted here over every interpreter of the session:
this server reaps each interpreter it kills and every process left in the jail (`kill_all`:
orphans are re-parented to it, the jail's pid 1), and the kernel adds what each spent, with
the children each waited for, to this server's RUSAGE_CHILDREN, a count no program can
write (the server's uid and memory are out of a cell's reach: no signal, no ptrace, no
process_vm_writev). A fresh interpreter's RLIMIT_CPU is what is left of the episode, rounded
up to a whole second; with nothing left no interpreter starts: the call that spent it and
every later one answer `cpu` (the host ends the session's calls with a named error). Every
reply carries that count (`spent_s`), so a jail the host replaces (one that retired) starts
with what is left, never a fresh budget.
"""

import _socket
import marshal
import os
import resource
import select
import signal
import sys
import time
import traceback  # (imported before any cell can put its own in /work)

from . import (
    harness_program,
    harness_wire,
    warm_server,  # reused: become, set_run_limits, separated, empty_dirs, kill_all
)

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing typing; mypy reads it as True
if TYPE_CHECKING:
    from typing import Any

SPARE_S = 600
"""Seconds a jail started ahead of its session waits for it."""
STATUS_WORDS = (b"ok", b"error", b"memory")
"""What an interpreter may answer about a cell; anything else reads as `error`."""


class Interpreter:
    """The session's interpreter: a child of this server under the program uid."""

    def __init__(self, header: "dict[str, Any]") -> None:
        self.header = header
        self.pid: int | None = None
        self.pidfd: int | None = None
        self.sock: _socket.socket | None = None
        self.calls = 0
        self.episode_cpu_s = header["episode_cpu_s"]  # over all the session's interpreters
        self.reaped_before = reaped_cpu()  # (0: this server reaped nothing yet)
        self.spent = False
        """The episode's CPU is spent: no interpreter runs, calls answer `cpu`."""

    def spent_s(self) -> float:
        """CPU seconds of the processes this server reaped: every interpreter it killed and
        everything left in the jail at a reset, with the children each waited for."""
        return reaped_cpu() - self.reaped_before

    def start(self) -> None:
        ours, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        self.sock = ours
        pid = os.fork()
        if pid == 0:
            try:
                ours.close()
                interpreter_main(theirs, self.header)
            finally:
                os._exit(70)
        theirs.close()
        # never blocks: an interpreter that reads no more calls (its cell is still running,
        # its answers forged) fills its queue; then the call fails and the session resets
        self.sock.setblocking(False)
        self.pid, self.pidfd = pid, os.pidfd_open(pid)

    def forget(self) -> None:
        for end in (self.sock,):
            if end is not None:
                end.close()
        if self.pidfd is not None:
            os.close(self.pidfd)
        self.pid = self.pidfd = self.sock = None


def reaped_cpu() -> float:
    """The kernel's count of the CPU of this server's reaped children (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(control_fd: int, program_uid: int) -> None:
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    control = _socket.socket(fileno=control_fd)
    warm_server.PROGRAM_UID = program_uid
    if not warm_server.empty_dirs() or not warm_server.separated():
        return
    # a spare jail waits here for its session (bounded: a host that forgot it)
    if not select.select([control], [], [], SPARE_S)[0]:
        return
    data = control.recv(1 << 16)
    if not data:
        return
    header: dict[str, Any] = marshal.loads(data)  # from the host, which started this jail
    interpreter = Interpreter(header)
    interpreter.start()
    control.send(b"ready")
    while True:
        if not select.select([control], [], [], header["idle_s"])[0]:
            # never closed by its host: bounded all the same. Everything reaped first, so
            # that the last words hand the host the whole count (the live interpreter and
            # what it waited for included): its successor gets only what is left
            warm_server.kill_all()
            last_words(control, interpreter)
            break
        try:
            message, fds = harness_program.recv_fds(control, 4, max_bytes=1 << 16)
        except OSError:
            break
        if not message:
            break
        if message == b"kill" or len(fds) not in (3, 4):  # a kill for a call already ended
            for fd in fds:
                os.close(fd)
            continue
        call = marshal.loads(message)
        result = run_call(interpreter, call, fds, control)
        try:
            control.send(harness_wire.to_json(result).encode())  # JSON: the host does not unmarshal jail data
        except OSError:
            break
        if result.get("retire"):  # a reset that could not empty the folders: the host
            break  # replaces this jail, with the CPU left (`spent_s`)
    warm_server.kill_all()


IDLE_WORD = b"idle "
"""The message a server that ends idle leaves on its control socket, then its `spent_s`:
the host reads it when it replaces the jail (`_session._Jail.last_words`)."""


def last_words(control: _socket.socket, interpreter: Interpreter) -> None:
    try:
        control.send(IDLE_WORD + repr(interpreter.spent_s()).encode())
    except OSError:
        pass


def run_call(interpreter: Interpreter, call: "dict[str, Any]", fds: "list[int]",
             control: _socket.socket) -> "dict[str, Any]":
    """Hand one cell to the interpreter and wait for its status; reset the session when the
    cell did not end by itself within its time."""
    start = time.monotonic()
    result: dict[str, Any] = {"status": "ok", "reset": "", "wall_s": 0.0, "cpu_s": 0.0,
                                "maxrss": 0, "spent_s": interpreter.spent_s()}
    if interpreter.spent:  # (the host asks no more once it read `cpu`)
        for fd in fds:
            os.close(fd)
        result.update(status="cpu", reset="cpu")
        return result
    sock, pidfd = interpreter.sock, interpreter.pidfd
    assert sock is not None and pidfd is not None  # started: `start` sets both
    interpreter.calls += 1
    call_id = str(interpreter.calls).encode()
    try:
        harness_program.send_fds(sock, b"r " + call_id, fds)  # 4th: the display
        sent = True
    except OSError:
        sent = False
    finally:
        for fd in fds:
            os.close(fd)
    ended: str | None = None
    answer = b""
    if sent:
        deadline = start + call["wall_s"]
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready = select.select([sock.fileno(), pidfd, control.fileno()], [], [], left)[0]
            if sock.fileno() in ready:
                try:
                    answer = sock.recv(64)
                except OSError:
                    answer = b""
                if not answer:
                    ended = "died"
                    break
                if answer.split(b" ")[1:2] == [call_id]:
                    ended = "answer"
                    break
                continue  # not this call's: a process the cell forked, or a forgery
            if pidfd in ready:
                ended = "died"
                break
            if control.fileno() in ready:
                control.recv(64)
                ended = "killed"
                break
    else:
        ended = "died"
    if ended == "answer":
        word, _, numbers = answer.partition(b" ")
        numbers = numbers.partition(b" ")[2]
        result["status"] = word.decode() if word in STATUS_WORDS else "error"
        try:  # what the interpreter says of itself: its own CPU and peak memory only
            cpu, rss = numbers.split()
            cpu_s, maxrss = float(cpu), int(rss)
            if 0.0 <= cpu_s < 1e9 and 0 <= maxrss < 1 << 62:  # (not inf, NaN or 40 digits)
                result["cpu_s"], result["maxrss"] = cpu_s, maxrss
        except ValueError:
            pass
    else:
        status = None
        if ended == "died":  # (or it closed its socket: then the kill below ends it)
            select.select([pidfd], [], [], 1.0)
            try:
                status = os.waitid(os.P_PIDFD, pidfd,
                                   os.WEXITED | os.WNOHANG | os.WNOWAIT)  # reaped in reset
            except OSError:
                status = None
        result["status"] = {None: "timeout", "answer": "ok", "killed": "timeout",
                            "died": "died"}[ended]
        result["signal"] = status.si_status if status is not None and \
            status.si_code in (os.CLD_KILLED, os.CLD_DUMPED) else None
        result["exit_code"] = status.si_status if status is not None and \
            status.si_code == os.CLD_EXITED else None
        result["reset"] = "timeout" if ended in (None, "killed") else "died"
        if not reset(interpreter):
            result["retire"] = True
        if interpreter.spent:
            result["reset"] = "cpu"
        result["spent_s"] = interpreter.spent_s()
    result["wall_s"] = time.monotonic() - start
    return result


def reset(interpreter: Interpreter) -> bool:
    """Kill every process of the jail but this one (each reaped: its CPU joins
    `spent_s`), empty the work folders, start a fresh interpreter whose CPU rlimit is what is
    left of the episode (none when nothing is left: the episode's CPU is spent). False when
    the folders cannot be emptied: this server retires after its reply."""
    pid = interpreter.pid
    if pid is not None:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.wait4(pid, 0)
        except ChildProcessError:
            pass
    warm_server.kill_all()
    interpreter.forget()
    if not warm_server.empty_dirs():
        return False
    left = interpreter.episode_cpu_s - interpreter.spent_s()
    if left <= 0:
        interpreter.spent = True
        return True
    # RLIMIT_CPU counts whole seconds: the interpreters together spend at most the episode
    # plus one second (the last one's rounding) plus its SIGXCPU-to-SIGKILL second
    interpreter.header = {**interpreter.header, "cpu_s": max(1, int(left + 0.999))}
    interpreter.start()
    return True


def run_cell(source: bytes, name: str, namespace: "dict[str, Any]",
             display_fd: "int | None") -> None:
    """Run a cell in `namespace`. With a display fd (a notebook's call), a last statement
    that is an expression is evaluated apart and its repr, unless None, written there."""
    if display_fd is None:
        exec(compile(source, name, "exec"), namespace)  # noqa: S102
        return
    import ast

    tree = ast.parse(source, name)
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr):
        tree.body.pop()
    else:
        last = None
    exec(compile(tree, name, "exec"), namespace)  # noqa: S102
    if last is not None:
        value = eval(compile(ast.Expression(last.value), name, "eval"), namespace)
        if value is not None:
            show(display_fd, b"D", repr(value))


def show(fd: int, tag: bytes, text: str) -> None:
    """A display (`D`) or error (`E`) record of a notebook's cell on its display pipe."""
    data = memoryview(tag + text.encode("utf-8", "replace"))
    try:
        while data:
            data = data[os.write(fd, data):]
    except OSError:
        pass


def report(exc: BaseException, display_fd: "int | None") -> None:
    """The exception a cell raised: its traceback (from the cell's own frames on) on stderr,
    and a notebook's error record (`E`)."""
    if display_fd is not None:
        try:  # (its str is the cell's own code, which may raise too)
            show(display_fd, b"E", f"{type(exc).__name__}\n{exc}")
        except BaseException:  # noqa: BLE001
            show(display_fd, b"E", f"{type(exc).__name__}\n")
    try:
        frames = exc.__traceback__
        while frames is not None and \
                not frames.tb_frame.f_code.co_filename.startswith("<cell"):
            frames = frames.tb_next
        traceback.print_exception(type(exc), exc, frames)
    except BaseException:  # noqa: BLE001
        os.write(2, f"{type(exc).__name__}\n".encode(errors="replace"))


def quiet() -> None:
    """fds 0-2 of the interpreter on /dev/null between calls (no fd of its own kept)."""
    null = os.open("/dev/null", os.O_RDWR)
    for target in (0, 1, 2):
        os.dup2(null, target)
    if null > 2:
        os.close(null)


def interpreter_main(sock: _socket.socket, header: "dict[str, Any]") -> None:
    """The interpreter (a child of the server): close every fd but its socket, take the
    session's limits and the program uid, then run cells until the socket closes."""
    fd = sock.fileno()
    os.closerange(3, fd)
    os.closerange(fd + 1, warm_server.MAX_FD)
    warm_server.set_run_limits(header, cpu_grace=1)  # SIGXCPU: `_session._execution`'s timeout
    warm_server.become(warm_server.PROGRAM_UID)
    os.chdir("/work")
    quiet()
    import builtins
    import random
    import resource

    random.seed(header["seed"])  # the session's seed: a sibling replaying its cells agrees
    main = type(sys)("__main__")  # the cells' module (pickle finds their functions there)
    main.__builtins__ = builtins  # type: ignore[attr-defined]  # a module's own globals
    sys.modules["__main__"] = main
    namespace = main.__dict__
    sys.argv = [""]
    sys.path[0] = "/work"  # a cell imports the session's own files, never the staged folder
    me = os.getpid()
    cell = 0
    while True:
        try:
            message, fds = harness_program.recv_fds(sock, 4)
        except OSError:
            os._exit(0)
        if not message.startswith(b"r ") or len(fds) not in (3, 4):
            os._exit(0)
        call_id = message[2:]
        payload_fd, out_fd, err_fd, *display = fds
        display_fd = display[0] if display else None
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        os.close(out_fd)
        os.close(err_fd)
        cell += 1
        word = b"ok"
        try:
            source = harness_wire.read_all(payload_fd)
            os.close(payload_fd)
            run_cell(source, f"<cell {cell}>", namespace, display_fd)
        except SystemExit as exc:
            if display_fd is not None:  # a notebook's cell: an exit is its error, as Jupyter's
                word = b"error"
                report(exc, display_fd)
            elif exc.code not in (None, 0):
                word = b"error"
                if not isinstance(exc.code, int):
                    print(exc.code, file=sys.stderr)
        except MemoryError:
            word = b"memory"
            print("MemoryError: the session's memory limit", file=sys.stderr)
        except BaseException as exc:  # noqa: BLE001  the cell's own exception: data
            word = b"error"
            report(exc, display_fd)
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                if stream is not None:
                    stream.flush()
            except BaseException:  # noqa: BLE001, S110  a stream the cell replaced or closed
                pass
        if display_fd is not None:
            os.close(display_fd)
        if os.getpid() != me:  # a process the cell forked, at the cell's end: it ends too
            os._exit(0 if word == b"ok" else 1)
        quiet()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        try:
            sock.send(word + b" " + call_id + f" {usage.ru_utime + usage.ru_stime:.6f} "
                                                f"{usage.ru_maxrss * 1024}".encode())
        except OSError:
            os._exit(0)
