"""The caller's handles on the math verifier's processes: `Zygote`, the warm process every
worker is forked from (its own side is `rewards.math._zygote`), and `Worker`, one forked
worker (its side is `rewards.math._worker`). `rewards.math._pool` schedules requests over
them."""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from rewards.errors import WorkerError
from rewards.math._config import Reason

__all__ = ["Outcome", "Worker", "WorkerGone", "Zygote"]

_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding `rewards/`


class WorkerGone(Exception):
    """The worker was dead before the request reached it (not the input's fault)."""


@dataclass
class Outcome:
    """What one request to a worker came back with."""

    reason: Reason
    detail: str
    seconds: float  # wall-clock from sending the request to the answer (or the kill)


class Worker:
    """One worker forked by the zygote: its pid (and a pidfd, where the system has them),
    the pipes to it and the file it writes its stderr to."""

    def __init__(self, pid: int, pidfd: int | None, requests: int, answers: int,
                 stderr: IO[bytes]) -> None:
        self.pid = pid
        self.pidfd = pidfd  # not our child (the zygote's): signalled and watched through it
        self.requests = os.fdopen(requests, "wb")
        self.answers = answers
        self.stderr = stderr
        self.buffer = b""
        self.eof = False
        self.closed = False
        self.next_id = 0

    def wait_ready(self, timeout: float) -> None:
        line = self._read_line(time.monotonic() + timeout)
        if line is None or not json.loads(line).get("ready"):
            self.kill()
            raise WorkerError(f"math worker did not start within {timeout:.0f}s: "
                              f"{self.stderr_tail()}")

    def request(self, pred: str, gold: str, rel_tol: float, timeout: float,
                pred_raw: bool = False) -> Outcome:
        self.next_id += 1
        message = json.dumps({"id": self.next_id, "pred": pred, "gold": gold,
                              "rel_tol": rel_tol, "pred_raw": pred_raw}) + "\n"
        start = time.monotonic()
        try:
            self.requests.write(message.encode())
            self.requests.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise WorkerGone(self.pid) from exc
        line = self._read_line(start + timeout)
        seconds = time.monotonic() - start
        if line is None:
            if self.eof or self.exited():
                # Died on this input (out of memory, a C-level crash): the input is to blame,
                # so it is data like a timeout; the pool replaces the worker.
                return Outcome("timeout", "worker died while comparing", seconds)
            return Outcome("timeout", f"no answer within {timeout:g}s, worker killed", seconds)
        answer = json.loads(line)
        if answer.get("id") != self.next_id:
            raise WorkerError(f"math worker {self.pid} answered out of turn: {answer}")
        return Outcome(answer["reason"], answer.get("detail", ""), seconds)

    def _read_line(self, deadline: float) -> bytes | None:
        """One line from the worker, or `None` if the deadline passes or the worker dies."""
        while b"\n" not in self.buffer:
            if self.closed or not _readable(self.answers, deadline - time.monotonic()):
                return None
            chunk = os.read(self.answers, 65536)
            if not chunk:
                self.eof = True  # the worker exited
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def exited(self) -> bool:
        if self.pidfd is not None:
            return _readable(self.pidfd, 0)  # a pidfd turns readable when its process exits
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return True
        return False

    def alive(self) -> bool:
        return not (self.closed or self.eof or self.exited())

    def kill(self) -> None:
        """SIGKILL the worker and wait until it has exited (the zygote reaps it)."""
        if self.closed:
            return
        try:
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if self.pidfd is not None:
            _readable(self.pidfd, 5.0)
        else:  # its answer pipe reaches EOF when it is gone (nothing else holds that end)
            deadline = time.monotonic() + 5.0
            while not self.eof and self._read_line(deadline) is not None:
                pass
        self._close()

    def forget(self) -> None:
        """In a forked child: drop the parent's worker without touching it."""
        self._close()

    def _close(self) -> None:
        self.closed = True
        for stream in (self.requests, self.stderr):
            try:
                stream.close()
            except OSError:
                pass  # a request still buffered for a dead worker
        for fd in (self.answers, self.pidfd):
            if fd is not None:
                os.close(fd)

    def stderr_tail(self) -> str:
        return _file_tail(self.stderr)


class Zygote:
    """The parent's end of the zygote (`rewards.math._zygote`), the warm process every worker
    is forked from: started on first use, started afresh when found dead."""

    def __init__(self, start_timeout: float) -> None:
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.control: socket.socket | None = None
        self.stderr: IO[bytes] | None = None
        self.closed = False
        self.serving = False  # warmed up and answering fork requests
        self._lock = threading.Lock()  # one fork request at a time on the control socket

    @property
    def pid(self) -> int | None:
        proc = self.proc
        return None if proc is None or proc.poll() is not None else proc.pid

    def fork_worker(self) -> Worker:
        """A new worker (not yet ready: `wait_ready`); raises `WorkerError` if the zygote
        cannot be started or dies twice in a row."""
        with self._lock:
            for _ in range(2):
                if self.closed:
                    raise WorkerError("math worker pool is closed")
                if self.pid is None:
                    self._stop()
                    self._start()
                try:
                    return self._fork()
                except WorkerGone:
                    tail = _file_tail(self.stderr)
                    self._stop()
            raise WorkerError(f"the math worker zygote died while forking a worker: {tail}")

    def start_in_background(self) -> None:
        """Start the zygote in a thread of its own unless it runs or is starting; a failure is
        left for the next `fork_worker` to meet again and report."""
        if self.closed or self.pid is not None or self._lock.locked():
            return
        threading.Thread(target=self._start_if_needed, name="math-zygote-start",
                         daemon=True).start()

    def _start_if_needed(self) -> None:
        with self._lock:
            if self.closed or self.pid is not None:
                return
            self._stop()
            try:
                self._start()
            except WorkerError:
                pass

    def close(self) -> None:
        """Stop the zygote: a serving one is asked to (it reaps the workers it forked, then
        exits); one still warming up is killed at once, even while a thread waits for it."""
        self.closed = True
        proc = self.proc
        if proc is not None and not self.serving and proc.poll() is None:
            proc.kill()
        with self._lock:
            self._stop(grace=2.0)

    def forget(self) -> None:
        """In a forked child: drop the parent's zygote without touching it (its lock may have
        been held by a thread that the child does not have)."""
        for stream in (self.control, self.stderr):
            if stream is not None:
                stream.close()
        if self.proc is not None:
            self.proc.returncode = 0  # not ours to wait for
        self.proc = self.control = self.stderr = None
        self.serving = False

    def _start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the zygote)
        self.control = ours
        try:
            self.proc = proc = subprocess.Popen(
                [sys.executable, "-m", "rewards.math._zygote", str(theirs.fileno()),
                 str(os.getpid())], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=self.stderr, env=env, close_fds=True, pass_fds=(theirs.fileno(),))
        except OSError as exc:
            self._stop()
            raise WorkerError(f"could not start the math worker zygote: {exc}") from exc
        finally:
            theirs.close()
        if self.closed:  # closed while starting (`close` may have missed this process)
            self._stop()
            raise WorkerError("math worker pool is closed")
        reply = self._receive(time.monotonic() + self.start_timeout)
        if reply is None or not reply[0] or not json.loads(reply[0]).get("ready"):
            how = (f"within {self.start_timeout:.0f}s" if reply is None
                   else f"(exit {proc.wait()})" if not reply[0] else f"({reply[0]!r})")
            tail = _file_tail(self.stderr)
            self._stop()
            raise WorkerError(f"math worker zygote did not start {how}: {tail}")
        self.serving = True

    def _fork(self) -> Worker:
        assert self.control is not None
        requests_r, requests_w = os.pipe()
        answers_r, answers_w = os.pipe()
        stderr = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the worker)
        try:
            socket.send_fds(self.control, [b"fork"], [requests_r, answers_w, stderr.fileno()])
            reply = self._receive(time.monotonic() + self.start_timeout)
            if reply is None or not reply[0]:
                raise WorkerGone("the zygote did not answer")
            message, fds = reply
            answer = json.loads(message)
            if "pid" not in answer:
                raise WorkerError(f"the math worker zygote could not fork a worker: "
                                  f"{answer.get('error', answer)}")
            return Worker(answer["pid"], fds[0] if fds else None, requests_w, answers_r,
                           stderr)
        except BaseException as exc:
            for fd in (requests_w, answers_r):
                os.close(fd)
            stderr.close()
            if isinstance(exc, OSError):
                raise WorkerGone("the zygote is gone") from exc
            raise
        finally:
            os.close(requests_r)
            os.close(answers_w)

    def _receive(self, deadline: float) -> tuple[bytes, list[int]] | None:
        """One message from the zygote (b"" if it is gone), or `None` past the deadline."""
        assert self.control is not None
        if not _readable(self.control.fileno(), deadline - time.monotonic()):
            return None
        message, fds, _, _ = socket.recv_fds(self.control, 256, 1, socket.MSG_CMSG_CLOEXEC)
        return message, fds

    def _stop(self, grace: float = 0.0) -> None:
        """Kill the zygote, or with `grace` (and a zygote that serves) close its control
        socket and give it that long to reap its workers and exit."""
        if self.control is not None:
            self.control.close()  # EOF for the zygote
        if self.proc is not None:
            if grace and self.serving:
                try:
                    self.proc.wait(grace)
                except subprocess.TimeoutExpired:
                    pass
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
        if self.stderr is not None:
            self.stderr.close()
        self.proc = self.control = self.stderr = None
        self.serving = False


def _readable(fd: int, timeout: float) -> bool:
    """Whether `fd` is readable (or at EOF, or a pidfd whose process exited) within
    `timeout` seconds. `poll`, not `select`: a descriptor above 1023 is fine."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(max(0, timeout) * 1000))


def _file_tail(stream: IO[bytes] | None) -> str:
    if stream is None:
        return "(stderr unavailable)"
    try:
        stream.seek(0)
        return stream.read()[-2000:].decode(errors="replace").strip() or "(no stderr)"
    except (OSError, ValueError):
        return "(stderr unavailable)"
