"""The test harness that runs INSIDE the jail as its first process (pid 1). Standard library
only: this file is bound read-only into the jail and started with `python3 -E -s -S`.

Why a program cannot forge a pass:
- The program never runs in this process. Python functions run in a separate worker process
  and are called over a socket; the checks (`assert ...`, `check(candidate)`) run here, on
  plain data copied out of the worker (marshal, then a type check: no program-defined class
  can cross, so an object whose `__eq__` always says True cannot either). stdin/stdout tests
  compare the program's output here.
- The verdicts leave through this process's stdout, framed by a nonce read from stdin; the
  worker's stdin, stdout and stderr are its own pipes, /proc is not mounted and ptrace is
  refused, so it can neither see the nonce nor write to that stream. `sys.exit(0)`,
  `os._exit(0)`, atexit hooks or printed "passed" lines end or pollute only the worker: a
  test without a verdict from this process is an error, never a pass.
- As the jail's pid 1 this process ignores signals sent by its children (SIGKILL included).
"""

from __future__ import annotations

import json
import marshal
import math
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback

PLAIN = (type(None), bool, int, float, complex, str, bytes, tuple, list, dict, set, frozenset)
MAX_MESSAGE = 64 << 20
OUTPUT_CAP = 64 << 10


# --- framing ---------------------------------------------------------------------------

def send(sock, obj):
    data = marshal.dumps(obj)
    sock.sendall(struct.pack("!I", len(data)) + data)


def recv(sock, deadline=None):
    head = _recv_exact(sock, 4, deadline)
    (size,) = struct.unpack("!I", head)
    if size > MAX_MESSAGE:
        raise WorkerGone("message too large")
    return marshal.loads(_recv_exact(sock, size, deadline))


def _recv_exact(sock, size, deadline):
    buf = bytearray()
    while len(buf) < size:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([sock], [], [], left)[0]:
                raise TestTimeout()
        chunk = sock.recv(min(size - len(buf), 1 << 20))
        if not chunk:
            raise WorkerGone("the program exited")
        buf += chunk
    return bytes(buf)


def is_plain(value, depth=0):
    kind = type(value)
    if kind not in PLAIN or depth > 50:
        return False
    if kind in (tuple, list, set, frozenset):
        return all(is_plain(v, depth + 1) for v in value)
    if kind is dict:
        return all(is_plain(k, depth + 1) and is_plain(v, depth + 1) for k, v in value.items())
    return True


class WorkerGone(Exception):
    """The worker died or broke the protocol."""


class TestTimeout(Exception):
    """The test ran past its time limit."""


# --- worker side (runs the program) ----------------------------------------------------

def worker_main(sock_fd, out_fd, err_fd):
    """Load the program, then answer requests: get a name, call, getattr, getitem, iterate."""
    sock = socket.socket(fileno=sock_fd)
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    for fd in (null, out_fd, err_fd):
        if fd > 2:
            os.close(fd)
    os.closerange(3, sock.fileno())
    os.closerange(sock.fileno() + 1, 1024)
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", closefd=False, buffering=1)
    sys.stderr = open(2, "w", closefd=False, buffering=1)
    handles = {}
    module = {"__name__": "solution", "__builtins__": __builtins__}
    sys.path.insert(0, "/work")

    def encode(value):
        if is_plain(value):
            return ("v", value)
        handles[len(handles) + 1] = value
        return ("h", len(handles), type(value).__name__, callable(value))

    def decode(item):
        return handles[item[1]] if item[0] == "h" else item[1]

    try:
        with open("/work/main.py") as fh:
            source = fh.read()
        exec(compile(source, "main.py", "exec"), module)
        loaded = ("ok", [n for n in module if not n.startswith("__")])
    except BaseException as exc:  # the program's own failure, reported as data
        loaded = ("exc", type(exc).__name__, _last_line(exc))
    _flush()
    send(sock, loaded)
    if loaded[0] != "ok":
        return
    while True:
        try:
            request = recv(sock)
        except (WorkerGone, OSError):
            return
        op, args = request[0], request[1:]
        try:
            if op == "get":
                result = encode(module[args[0]])
            elif op == "call":
                fn = handles[args[0]]
                pos = [decode(a) for a in args[1]]
                kw = {k: decode(v) for k, v in args[2].items()}
                result = encode(fn(*pos, **kw))
            elif op == "getattr":
                result = encode(getattr(handles[args[0]], args[1]))
            elif op == "getitem":
                result = encode(handles[args[0]][decode(args[1])])
            elif op == "list":
                result = encode(list(handles[args[0]]))
            elif op == "len":
                result = encode(len(handles[args[0]]))
            elif op == "str":
                result = encode(str(handles[args[0]]))
            else:
                result = ("exc", "ValueError", f"unknown request {op!r}")
            reply = ("ok", result)
        except BaseException as exc:  # includes SystemExit raised by the program
            reply = ("exc", type(exc).__name__, _last_line(exc))
        _flush()
        try:
            send(sock, reply)
        except ValueError:  # unmarshallable despite the checks
            send(sock, ("exc", "TypeError", "result cannot leave the program"))


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # the program may have replaced or closed its streams
            pass


def _last_line(exc):
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text.splitlines()[-1][:2000] if text else type(exc).__name__


# --- supervisor side (runs the checks) --------------------------------------------------

class Worker:
    """One program process and the socket to it; restarted after a timeout or a crash."""

    def __init__(self, sock, pid, out_r, err_r):
        self.sock, self.pid = sock, pid
        self.outputs = [Drain(out_r), Drain(err_r)]
        self.deadline = None
        self.names = None
        self.error = None

    @classmethod
    def fork(cls):
        parent, child = socket.socketpair()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                parent.close()
                os.close(out_r)
                os.close(err_r)
                worker_main(child.detach(), out_w, err_w)
            finally:
                os._exit(0)
        child.close()
        os.close(out_w)
        os.close(err_w)
        return cls(parent, pid, out_r, err_r)

    @classmethod
    def spawn(cls):
        parent, child = socket.socketpair()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        fds = (child.fileno(), out_w, err_w)
        proc = subprocess.Popen(
            [sys.executable, "-E", "-s", "-S", __file__, "worker", *map(str, fds)],
            stdin=subprocess.DEVNULL, pass_fds=fds)
        child.close()
        os.close(out_w)
        os.close(err_w)
        return cls(parent, proc.pid, out_r, err_r)

    def wait_loaded(self, deadline):
        self.deadline = deadline
        reply = recv(self.sock, deadline)
        if reply[0] == "ok":
            self.names = reply[1]
        else:
            self.error = f"{reply[1]} while loading the program: {reply[2]}"

    def request(self, *message):
        send(self.sock, message)
        reply = recv(self.sock, self.deadline)
        if reply[0] == "exc":
            raise remote_exception(reply[1], reply[2])
        return self.value(reply[1])

    def value(self, item):
        if item[0] == "v":
            if not is_plain(item[1]):
                raise WorkerGone("the program sent a non-plain value")
            return item[1]
        return Remote(self, item[1], item[2], item[3])

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.sock.close()
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def remote_exception(name, message):
    builtin = getattr(__builtins__, name, None) if not isinstance(__builtins__, dict) \
        else __builtins__.get(name)
    if isinstance(builtin, type) and issubclass(builtin, Exception) \
            and builtin not in (AssertionError,):
        exc = builtin(message)
    else:
        exc = ProgramError(message)
    exc.remote_message = message
    return exc


class ProgramError(Exception):
    """An exception of a type the program defined (or an AssertionError it raised itself)."""


class Remote:
    """A program object that is not plain data: usable for calls, attributes, indexing and
    iteration; never compared (its `__eq__` is the program's to fake)."""

    def __init__(self, worker, hid, type_name, is_callable):
        object.__setattr__(self, "_w", (worker, hid, type_name, is_callable))

    def __call__(self, *args, **kwargs):
        worker, hid = self._w[0], self._w[1]
        return worker.request("call", hid, [encode_arg(a) for a in args],
                              {k: encode_arg(v) for k, v in kwargs.items()})

    def __getattr__(self, name):
        return self._w[0].request("getattr", self._w[1], name)

    def __getitem__(self, key):
        return self._w[0].request("getitem", self._w[1], encode_arg(key))

    def __iter__(self):
        return iter(self._w[0].request("list", self._w[1]))

    def __len__(self):
        return self._w[0].request("len", self._w[1])

    def __str__(self):
        return self._w[0].request("str", self._w[1])

    def __repr__(self):
        return f"<program object of type {self._w[2]}>"

    def _refuse(self, *_):
        raise TypeError(f"cannot compare or use a {self._w[2]} object of the program as "
                        "plain data")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __bool__ = __hash__ = _refuse


def encode_arg(value):
    if isinstance(value, Remote):
        return ("h", value._w[1])
    if not is_plain(value):
        raise TypeError(f"a {type(value).__name__} cannot be passed to the program")
    return ("v", value)


class Drain(threading.Thread):
    """Reads one output pipe of the program, keeping the first OUTPUT_CAP bytes."""

    def __init__(self, fd):
        super().__init__(daemon=True)
        self.fd, self.data, self.truncated = fd, bytearray(), False
        self.start()

    def run(self):
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                os.close(self.fd)
                return
            room = OUTPUT_CAP - len(self.data)
            self.data += chunk[:max(room, 0)]
            self.truncated |= len(chunk) > room


class Verdicts(list):
    """Verdicts, each also written at once to the report stream (so that the tests done
    before a whole-run timeout still count)."""

    def __init__(self, nonce):
        super().__init__()
        self.nonce = nonce

    def append(self, verdict):
        os.write(1, (self.nonce + json.dumps({"test": len(self), "verdict": verdict})
                     + "\n").encode())
        super().append(verdict)


def run_python_tests(spec, first):
    """assert / check tests against the program in a worker process; one verdict per test."""
    results, outputs = Verdicts(spec["nonce"]), []
    worker, per_test = first, spec["test_wall_s"]
    started = False
    for index, test in enumerate(spec["tests"]):
        begin = time.monotonic()
        deadline = begin + per_test
        try:
            if worker is None:
                worker = Worker.spawn()
                started = False
            if not started:
                worker.wait_loaded(deadline)
                started = True
            if worker.error:
                results.append(("error", worker.error, 0.0))
                continue
            worker.deadline = deadline
            namespace = {"__name__": "__test__"}
            for name in worker.names:
                namespace[name] = worker.request("get", name)
            if spec["format"] == "assert":
                exec(compile(test, f"<test {index}>", "exec"), namespace)
            else:
                exec(compile(test, "<check>", "exec"), namespace)
                namespace["check"](namespace[spec["entry_point"]])
            results.append(("pass", "", time.monotonic() - begin))
        except TestTimeout:
            results.append(("timeout", f"test exceeded {per_test:g} s",
                            time.monotonic() - begin))
            outputs.append(worker.outputs)
            worker.kill()
            worker = None
        except (WorkerGone, OSError) as exc:
            results.append(("error", f"the program died during the test: {exc}",
                            time.monotonic() - begin))
            outputs.append(worker.outputs)
            worker.kill()
            worker = None
        except AssertionError as exc:
            results.append(("fail", describe_failure(test, exc), time.monotonic() - begin))
        except Exception as exc:
            message = getattr(exc, "remote_message", None) or _last_line(exc)
            results.append(("error", f"{type(exc).__name__}: {message}"
                            if not message.startswith(type(exc).__name__) else message,
                            time.monotonic() - begin))
    if worker is not None:
        outputs.append(worker.outputs)
        worker.kill()
    return results, outputs


def describe_failure(test, exc):
    detail = str(exc)
    line = ""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith("<"):
            line = _source_line(test, tb.tb_lineno)
        tb = tb.tb_next
    text = f"AssertionError: {line}" if line else "AssertionError"
    return f"{text} ({detail})" if detail else text


def _source_line(test, lineno):
    lines = test.splitlines()
    return lines[lineno - 1].strip()[:500] if 0 < lineno <= len(lines) else ""


def run_io_tests(spec):
    """stdin/stdout tests: the program runs once per test, compared here."""
    results, outputs = Verdicts(spec["nonce"]), []
    for case in spec["tests"]:
        begin = time.monotonic()
        proc = subprocess.Popen(spec["argv"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True, cwd="/work")
        try:
            out, err = communicate(proc, case["input"].encode(), spec["test_wall_s"])
        except TestTimeout:
            results.append(("timeout", f"test exceeded {spec['test_wall_s']:g} s",
                            time.monotonic() - begin))
            continue
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        outputs.append((out, err))
        took = time.monotonic() - begin
        text = out.decode(errors="replace")
        if proc.returncode != 0:
            why = f"exit code {proc.returncode}" if proc.returncode > 0 \
                else f"killed by signal {-proc.returncode}"
            tail = err.decode(errors="replace").strip().splitlines()[-1:] or [""]
            results.append(("error", f"{why}: {tail[0][:500]}".rstrip(": "), took))
        elif same_output(text, case["output"], spec["compare"], spec["float_tol"]):
            results.append(("pass", "", took))
        else:
            results.append(("fail", output_diff(text, case["output"]), took))
    return results, outputs


def communicate(proc, data, limit):
    """Like Popen.communicate with a hard deadline and an output cap (kept short of memory)."""
    deadline = time.monotonic() + limit
    bufs = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    writer = threading.Thread(target=_feed, args=(proc.stdin, data), daemon=True)
    writer.start()
    open_fds = set(bufs)
    while open_fds:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TestTimeout()
        ready = select.select(list(open_fds), [], [], left)[0]
        for fd in ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                open_fds.discard(fd)
            elif len(bufs[fd]) < OUTPUT_CAP * 16:
                bufs[fd] += chunk
    left = deadline - time.monotonic()
    try:
        proc.wait(max(left, 0.001))
    except subprocess.TimeoutExpired:
        raise TestTimeout() from None
    return bytes(bufs[proc.stdout.fileno()]), bytes(bufs[proc.stderr.fileno()])


def _feed(stream, data):
    try:
        stream.write(data)
        stream.close()
    except OSError:
        pass


def same_output(actual, expected, compare, tol):
    if compare == "exact":
        return actual.rstrip("\n") == expected.rstrip("\n")
    got, want = actual.split(), expected.split()
    if compare == "whitespace":
        return got == want
    if len(got) != len(want):
        return False
    for a, b in zip(got, want):
        if a == b:
            continue
        try:
            x, y = float(a), float(b)
        except ValueError:
            return False
        if not math.isclose(x, y, rel_tol=tol, abs_tol=tol):
            return False
    return True


def output_diff(actual, expected):
    got, want = actual.splitlines(), expected.splitlines()
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else "<missing>"
        w = want[i] if i < len(want) else "<missing>"
        if g.split() != w.split() or g != w:
            return f"line {i + 1}: expected {w[:200]!r}, got {g[:200]!r}"
    return "outputs differ in trailing whitespace"


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    kind = sys.argv[1]
    # the first worker is forked before the tests are read, so it never holds them
    first = Worker.fork() if kind == "python" else None
    spec = json.loads(sys.stdin.buffer.read())
    nonce = spec["nonce"]
    if kind == "python":
        results, outputs = run_python_tests(spec, first)
        for drains in outputs:
            for drain in drains:
                drain.join(1)
        streams = [(bytes(out.data), bytes(err.data)) for out, err in outputs]
    else:
        results, outputs = run_io_tests(spec)
        streams = outputs
    stdout = b"".join(s[0] for s in streams)[:OUTPUT_CAP]
    stderr = b"".join(s[1] for s in streams)[:OUTPUT_CAP]
    report = {"done": len(results), "stdout": stdout.decode(errors="replace"),
              "stderr": stderr.decode(errors="replace")}
    os.write(1, (nonce + json.dumps(report) + "\n").encode())


if __name__ == "__main__":
    if sys.argv[1] == "worker":
        worker_main(*map(int, sys.argv[2:5]))
        os._exit(0)
    main()
