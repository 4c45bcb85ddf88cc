"""The warm Python server: runs INSIDE a jail as its pid 1 (standard library only, started
as `python3 -E -s -S /harness/run.py warm-server FD`, see _staging.py), and forks one child
per program.

Each child is as isolated as a cold run: it lives in the same jail (namespaces, read-only
system, no network, no /proc, seccomp, uid 99999), gets per-run rlimits (address space, CPU,
file size, open files, processes) that it cannot raise, and starts in an emptied /work and
/tmp. After every run this process SIGKILLs every other process of the jail (`kill(-1)`:
all but pid 1, which is immune to its children's signals), reaps them, and empties /work and
/tmp again, so nothing a program leaves behind meets the next one. The server never reads a
program or its tests: the child reads them from a pipe after the fork, so no other run's
data is in the memory a program is forked from.
"""

# no `from __future__ import annotations`: at run time it imports __future__, ~0.5 ms of
# every cold harness start (in-jail modules run on Python >= 3.10, which needs no import)

import _signal as signal  # not signal.py, socket.py or json: they import enum, re & co, and
import _socket  # every object in this process's memory spreads the pages a forked child
import atexit  # noqa: F401  writes to (and so copies) further apart. atexit: imported by
import gc  # harness_program.finish at every program's end; here, no child builds it
import marshal
import os
import resource
import select
import sys
import time

# typing imports re & co (~2 MB), against the rule above: HumanEval prompts, which forked
# harnesses run as the tests' context, and nearly every HumanEval program import it. Imported
# here, a forked harness and its worker inherit it instead of each paying tens of ms.
import typing  # noqa: F401

import harness  # from /harness (see _staging.py); pre-imported so forked harnesses start warm
import harness_io  # noqa: F401  (imported by forked stdin/stdout harnesses)
import harness_program
import harness_wire
from harness_wire import to_json

WORK_DIRS = ("/work", "/tmp")
MAX_FD = 4096


def main(control_fd: int) -> None:
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    control = _socket.socket(fileno=control_fd)
    if not empty_dirs():
        return
    warm_up()
    stdio = standard_streams()
    # what is allocated so far (the harness modules) leaves the collector's reach: a
    # collection in a forked child then neither walks nor copies the pages it is on
    gc.freeze()
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
        # assert/check tests: a socket on which the run's harness asks for a replacement
        # worker (this process forks it, clean, instead of a zygote forked for every run)
        service = theirs = None
        if header["harness"] == "python":
            service, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            try:
                control.close()
                if service is not None:
                    service.close()
                child(header, fds, stdio, theirs)
            finally:
                os._exit(70)
        for fd in fds:
            os.close(fd)
        if theirs is not None:
            theirs.close()
        try:
            result = supervise(pid, header, control, service)
        finally:
            if service is not None:
                service.close()
        kill_all()
        result["retire"] = not empty_dirs()
        control.send(to_json(result).encode())  # JSON: the host does not unmarshal jail data
        if result["retire"]:
            return


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
            module, handles = {"add": lambda a, b: [a + b, {"k": (1.5, None, "s", b"b")}]}, {}
            for _ in range(2):  # the program's side answers the two requests
                harness_program.answer(program_side.recv(), module, handles)
            harness_wire.standard_to_plain(("x", [1], {2: 3}))
            to_json({"test": 0, "verdict": ["pass", "", 0.001]})
            for name in ("main.py", "data/input.txt"):  # as write_inputs does (posixpath's
                os.path.dirname(os.path.join("/work", name))  # code is in the binary's data)
            os.makedirs("/work", exist_ok=True)
        # compile() (a program's own call, and run_main's) first builds the `ast` module's
        # ~120 node types, which exec of a string never does: built here once, not in every
        # child (~190 copied pages and ~1.5 ms per run)
        compile("pass", "<warm-up>", "exec")
    finally:
        worker.channel.close()
        program_side.close()
        os.close(out_w)
        os.close(err_w)
        for drain in worker.outputs:
            drain.finish()


def supervise(pid: int, header: dict, control: _socket.socket,
              service: "_socket.socket | None" = None) -> dict:
    """Wait for the run's child `pid` until it exits, the host asks for a kill or the wall
    limit passes; meanwhile fork the replacement workers its harness asks for on `service`."""
    start = time.monotonic()
    deadline = start + header["wall_s"]
    pidfd = os.pidfd_open(pid)
    timed_out = killed = False
    watched = [pidfd, control] if service is None else [pidfd, control, service]
    last_worker = None
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready = select.select(watched, [], [], left)[0]
            if pidfd in ready:
                break
            if control in ready:  # the host asks for a kill (output over the cap)
                control.recv(64)
                killed = True
                break
            if service in ready:
                last_worker = fork_worker(service, header, last_worker)
                if last_worker is None:  # the harness closed its end: nothing more to fork
                    watched.remove(service)
    finally:
        os.close(pidfd)
    if timed_out or killed:
        os.kill(pid, signal.SIGKILL)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    return {"exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "timed_out": timed_out, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "maxrss": usage.ru_maxrss * 1024}


def fork_worker(service: _socket.socket, header: dict, last: "int | None") -> "int | None":
    """Fork one replacement worker of assert/check tests on the four pipe ends the harness
    sent, answer its pid; None when the harness is gone. The worker comes from this process,
    which never held a program or its tests, under the run's limits, and loads the program
    afresh. The previous one (killed by the harness, which waited for its exit) is reaped
    first, not before: until then its pid cannot name another process."""
    try:
        message, fds = harness_program.recv_fds(service, 4)
    except OSError:
        return None
    if message != b"worker" or len(fds) != 4:
        for fd in fds:
            os.close(fd)
        return None
    if last is not None:
        try:
            os.waitpid(last, os.WNOHANG)
        except ChildProcessError:
            pass
    pid = os.fork()
    if pid == 0:
        try:
            set_run_limits(header)
            os.chdir("/work")
            sys.argv = ["/harness/run.py", "python"]  # as in the harness the first came from
            if "random" in sys.modules:
                sys.modules["random"].seed()
            harness_program.worker_main(*fds)  # closes every other fd (this server's too)
        finally:
            os._exit(0)
    for fd in fds:
        os.close(fd)
    try:
        service.send(str(pid).encode())
    except OSError:
        pass  # the harness died meanwhile: kill_all ends the worker with the run
    return pid


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
    """Empty /work and /tmp; False if something could not be removed (the server then
    retires: the host replaces it with a fresh one instead of reusing a dirty jail)."""
    clean = True
    for top in WORK_DIRS:
        try:
            os.chmod(top, 0o1777 if top == "/tmp" else 0o777)
            empty(top)
            clean = clean and not os.listdir(top)
        except (OSError, RecursionError):  # RecursionError: a tree nested past the stack
            clean = False
    return clean


def empty(folder: str) -> None:
    """Remove everything in `folder`: each sub-folder made ours to enter first; symlinks
    are removed, never followed. (scandir, not two os.walk passes: this runs after every
    program, and what it allocates is copied from pages shared with the last child.)"""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                os.chmod(entry.path, 0o700)
                empty(entry.path)
                os.rmdir(entry.path)
            else:
                os.unlink(entry.path)


def standard_streams() -> tuple:
    """sys.stdin/stdout/stderr as `fresh_stdio` makes them over pipes on fds 0-2, built once
    here for every child: never used by this process (its own streams are restored), so each
    child gets them unwritten, and as a cold run has them (not seekable, not a tty, a pipe's
    block size), with no object to build after the fork."""
    saved = [os.dup(fd) for fd in (0, 1, 2)]
    pipes = [os.pipe() for _ in range(3)]
    own = sys.stdin, sys.stdout, sys.stderr
    try:
        for fd, (read, write) in zip((0, 1, 2), pipes):
            os.dup2(read if fd == 0 else write, fd)
        harness_program.fresh_stdio()
        return sys.stdin, sys.stdout, sys.stderr
    finally:
        sys.stdin, sys.stdout, sys.stderr = own
        for fd, original in zip((0, 1, 2), saved):
            os.dup2(original, fd)
            os.close(original)
        for pair in pipes:
            for fd in pair:
                os.close(fd)


def child(header: dict, fds: list[int], stdio: tuple,
          service: "_socket.socket | None" = None) -> None:
    stdin_fd, stdout_fd, stderr_fd, payload_fd = fds
    chunks = []
    while chunk := os.read(payload_fd, 1 << 16):
        chunks.append(chunk)
    payload = marshal.loads(b"".join(chunks))
    write_inputs("main.py", payload["code"])
    for name, content in payload["files"].items():
        write_inputs(name, content)
    del payload, chunks
    for target, fd in ((0, stdin_fd), (1, stdout_fd), (2, stderr_fd)):
        os.dup2(fd, target)
    if service is not None:  # fd 3: the harness's line to this server (see fork_worker)
        os.dup2(service.fileno(), 3)
        os.closerange(4, MAX_FD)
    else:
        os.closerange(3, MAX_FD)
    set_run_limits(header)
    os.chdir("/work")
    sys.stdin, sys.stdout, sys.stderr = stdio  # as harness_program.fresh_stdio makes them
    if "random" in sys.modules:
        sys.modules["random"].seed()
    if header["harness"]:
        sys.argv = ["/harness/run.py", header["harness"]]
        harness.main(header["harness"], 3 if service is not None else None)
        harness_program.finish(0)
    harness_program.finish(harness_program.run_main())


def write_inputs(name: str, content: "str | bytes") -> None:
    """/work/NAME, read-only as in a cold run. (os.open and os.write, not open(): every
    function a child calls copies the pages its objects are on.)"""
    path = "/work/" + name
    if "/" in name:
        os.makedirs(os.path.dirname(path), exist_ok=True)
    data = content.encode() if isinstance(content, str) else content
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o444)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fchmod(fd, 0o444)  # whatever the umask
    finally:
        os.close(fd)


def set_run_limits(header: dict) -> None:
    """The run's rlimits, computed by the host (`process_budget`): without a memory cgroup
    the processes share the run's memory, with one RLIMIT_AS is a backstop and the cgroup
    holds the total. Lowered for good: a program cannot raise them again."""
    set_limit(resource.RLIMIT_AS, header["address_space"])
    cpu = header["cpu_s"]
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))  # SIGXCPU, then SIGKILL
    set_limit(resource.RLIMIT_FSIZE, header["file_size_bytes"])
    set_limit(resource.RLIMIT_NOFILE, header["open_files"])
    set_limit(resource.RLIMIT_NPROC, header["processes"] + 1)  # +1: this server
    set_limit(resource.RLIMIT_CORE, 0)


def set_limit(kind: int, value: int) -> None:
    resource.setrlimit(kind, (value, value))
