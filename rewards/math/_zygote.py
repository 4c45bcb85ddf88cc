"""The zygote: one warm process from which every math worker is forked.

Importing sympy and math-verify and warming them up (`warm_up`) costs a process about 1.3 s
of CPU (measured: the prompt filter's command, one worker fewer to start), over 2 s of wall
time on a busy machine. The zygote pays it once; a worker is then an `os.fork()` of it, ready in
milliseconds and sharing its memory copy-on-write, so a pool's extra workers and the
replacement of a worker killed after a timeout cost almost nothing.

The caller starts the zygote with `subprocess.Popen` (`python -m rewards.math._zygote FD
PARENT`), never `multiprocessing`, so that daemonic processes (Celery prefork children) can
too, and talks to it over a SOCK_SEQPACKET socket pair (`FD` is the zygote's end). To get a
worker, the caller sends `fork` with three descriptors (`socket.send_fds`): the read end of a
request pipe, the write end of an answer pipe, a file for stderr. The zygote forks; the child
becomes the worker (`rewards.math._worker.become_worker`); the zygote answers
`{"pid"}` with a pidfd of the child, opened before the zygote can reap it, so that the caller
kills exactly that process (`signal.pidfd_send_signal`) and sees it exit.

What keeps the workers clean: the zygote never sees model output (it reads nothing but
`fork` requests from its parent), so every worker starts from the same state. A worker that
crashes or is killed takes nothing of the zygote with it. The zygote runs no thread besides
its main one (a fork copies only the forking thread: a lock held by another would stay held
in the child) and exits when its parent does."""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import socket
import sys
import threading

_FDS_PER_WORKER = 3  # requests (read), answers (write), stderr


def pidfd(pid: int) -> int | None:
    """A pidfd of `pid`, or `None` where the system has none (Linux before 5.3, macOS)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def main(argv: list[str]) -> int:
    control = socket.socket(fileno=int(argv[1]))
    parent = int(argv[2])
    if os.getppid() != parent:
        return 0  # the caller died before this process started
    parent_fd = pidfd(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C meant for the caller's terminal
    sys.stdout = sys.stderr  # nothing reads this process's stdout
    sys.setrecursionlimit(10_000)  # inherited by the workers: sympy recurses deeply

    from rewards.math._symbolic import warm_up

    warm_up()
    gc.freeze()  # the warm objects: kept out of the workers' collections, so not copied
    if threading.active_count() != 1:
        print(f"math zygote: {threading.active_count()} threads after warm-up; a fork "
              "copies only one", file=sys.stderr)
        return 1
    control.send(json.dumps({"ready": True, "pid": os.getpid()}).encode())
    _fork_on_request(control, parent, parent_fd)
    _reap()  # the workers the parent killed before closing its end
    return 0


def _fork_on_request(control: socket.socket, parent: int, parent_fd: int | None) -> None:
    """Fork a worker per `fork` request until the parent dies or closes its end."""
    watched: list[socket.socket | int] = [control] if parent_fd is None else [control, parent_fd]
    while True:
        _reap()
        ready = select.select(watched, [], [], 1.0)[0]
        if os.getppid() != parent or (parent_fd is not None and parent_fd in ready):
            return
        if control not in ready:
            continue
        message, fds, _, _ = socket.recv_fds(control, 64, _FDS_PER_WORKER,
                                             socket.MSG_CMSG_CLOEXEC)
        if message != b"fork" or len(fds) != _FDS_PER_WORKER:
            return  # the parent closed its end (b""), or broke the protocol
        reply, child_fd = _fork_worker(control, fds, parent_fd)
        for fd in fds:
            os.close(fd)
        try:
            socket.send_fds(control, [json.dumps(reply).encode()],
                            [] if child_fd is None else [child_fd])
        except OSError:
            return  # the parent is gone
        finally:
            if child_fd is not None:
                os.close(child_fd)


def _fork_worker(control: socket.socket, fds: list[int],
                 parent_fd: int | None) -> tuple[dict[str, object], int | None]:
    """Fork; the child becomes the worker and never comes back here. The reply for the
    parent, and a pidfd of the child opened before any reaping (so it names that child)."""
    sys.stderr.flush()  # nothing buffered here may be written twice
    try:
        pid = os.fork()
    except OSError as exc:  # out of processes or memory: the parent reports it
        return {"error": f"fork failed: {exc}"}, None
    if pid == 0:
        control.close()
        from rewards.math._worker import become_worker

        become_worker(fds, parent_fd)  # never returns
    return {"pid": pid}, pidfd(pid)


def _reap() -> None:
    """Collect the workers that exited (killed by the caller, or done)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


if __name__ == "__main__":
    code = main(sys.argv)
    sys.stderr.flush()
    os._exit(code)  # no interpreter teardown of the warm heap: nothing is left to flush
