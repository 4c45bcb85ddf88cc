"""The test harness that runs INSIDE the jail (as its pid 1 in a cold run; as a forked
child of the warm server in warm mode). Standard library only: staged with its bytecode
(`_staging.py`), bound read-only at /harness and started by the launcher
`python3 -E -s -S /harness/run.py python|pyio|io`.

Why a program cannot forge a pass:
- The program never runs in this process. Python functions run in a separate worker process
  and are called over a pair of pipes; the checks (`assert ...`, `check(candidate)`) run here, on
  plain data copied out of the worker (marshal, then a type check: no program-defined class
  can cross, so an object whose `__eq__` always says True cannot either). stdin/stdout tests
  compare the program's output here.
- The verdicts leave through this process's stdout, framed by a nonce read from stdin; the
  worker's stdin, stdout and stderr are its own pipes, /proc is not mounted and ptrace,
  process_vm_readv and pidfd_getfd are refused, so it can neither see the nonce nor write
  to that stream. `sys.exit(0)`,
  `os._exit(0)`, atexit hooks or printed "passed" lines end or pollute only the worker: a
  test without a verdict from this process is an error, never a pass.
- As a cold jail's pid 1 this process ignores signals sent by its children (SIGKILL
  included). A warm harness can be killed by the program: the tests it had not judged then
  have no verdict, which is an error, never a pass.
"""

# no `from __future__ import annotations`: at run time it imports __future__, ~0.5 ms of
# every cold harness start (in-jail modules run on Python >= 3.10, which needs no import)

import _signal as signal  # the `signal` module imports enum & co: ~8 ms of a cold start
import marshal
import posix as os  # os.py itself imports ~2 ms of modules a cold harness needs none of
import sys
import time

from harness_program import Zygote, worker_main
from harness_wire import Channel, TestTimeout, Verdicts, WorkerGone, _last_line, is_plain, to_json

# subprocess and traceback are imported where needed: a cold harness starts faster


OUTPUT_CAP = 64 << 10


class Worker:
    """One program process and the channel to it; restarted after a timeout or a crash."""

    def __init__(self, channel, pid, out_r, err_r):
        self.outputs = [Drain(out_r), Drain(err_r)]
        self.channel = channel
        self.channel.drains = self.outputs
        self.pid = pid
        self.deadline = None
        self.names = None
        self.error = None
        self.handles = {}  # name -> Remote: functions and classes are fetched once per worker

    @staticmethod
    def _pipes():
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        return (req_r, rep_w, out_w, err_w), (rep_r, req_w, out_r, err_r)

    @classmethod
    def fork(cls):
        theirs, ours = cls._pipes()
        pid = os.fork()
        if pid == 0:
            try:
                for fd in ours:
                    os.close(fd)
                worker_main(*theirs)
            finally:
                os._exit(0)
        return cls._parent(pid, theirs, ours)

    @classmethod
    def spawn(cls):
        import subprocess

        theirs, ours = cls._pipes()
        launcher = __file__.rpartition("/")[0] + "/run.py"
        proc = subprocess.Popen(
            [sys.executable, "-E", "-s", "-S", launcher, "worker", *map(str, theirs)],
            stdin=subprocess.DEVNULL, pass_fds=theirs)
        return cls._parent(proc.pid, theirs, ours)

    @classmethod
    def _parent(cls, pid, theirs, ours):
        for fd in theirs:
            os.close(fd)
        rep_r, req_w, out_r, err_r = ours
        return cls(Channel(rep_r, req_w), pid, out_r, err_r)

    def wait_loaded(self, deadline):
        self.deadline = deadline
        reply = self.channel.recv(deadline)
        if reply[0] == "ok":
            self.names = set(reply[1])
            for name, item in reply[2].items():
                self.handles[name] = self.value(item)
        else:
            self.error = f"{reply[1]} while loading the program: {reply[2]}"

    def request(self, *message):
        self.channel.send(message)
        reply = self.channel.recv(self.deadline)
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
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        self.channel.close()
        for drain in self.outputs:
            drain.finish()


class Namespace(dict):
    """Globals of one test: the program's names are fetched from the worker on first use
    (the test code's own names and builtins never travel)."""

    def __init__(self, worker):
        super().__init__(__name__="__test__")
        self.worker = worker

    def __missing__(self, name):
        worker = self.worker
        if name not in worker.names:
            raise KeyError(name)
        value = worker.handles.get(name)
        if value is None:
            value = worker.request("get", name)
            if isinstance(value, Remote):
                worker.handles[name] = value
        self[name] = value
        return value

    def __contains__(self, name):  # `name in globals()` sees the program's names too
        return dict.__contains__(self, name) or name in self.worker.names

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default


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


class Drain:
    """One output pipe of the program, keeping its first OUTPUT_CAP bytes. Read whenever the
    harness waits on the worker, and to the end once the worker is gone."""

    def __init__(self, fd):
        self.fd, self.data, self.truncated = fd, bytearray(), False
        os.set_blocking(fd, False)

    def read(self):
        try:
            chunk = os.read(self.fd, 65536)
        except BlockingIOError:
            return True
        if not chunk:
            self.close()
            return False
        room = OUTPUT_CAP - len(self.data)
        self.data += chunk[:max(room, 0)]
        self.truncated |= len(chunk) > room
        return True

    def finish(self):
        """Read what is left (the writer is dead; leftover grandchildren may hold the pipe,
        so stop at the first empty read)."""
        while self.fd is not None:
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            room = OUTPUT_CAP - len(self.data)
            self.data += chunk[:max(room, 0)]
        self.close()

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


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
            namespace = Namespace(worker)
            # exec of the text, not of compile(test, ...): the compile() builtin first builds
            # the `ast` module's ~120 classes, ~1.5 ms of a cold run (test frames are
            # "<string>" instead, which `describe_failure` reads alike)
            exec(test, namespace)  # noqa: S102
            if spec["format"] == "check":
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
        except Exception as exc:  # noqa: BLE001  (whatever the test raised: its verdict)
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


def main(kind):
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    # the first worker is forked before the tests are read, so it never holds them
    first = Worker.fork() if kind == "python" else None
    zygote = Zygote() if kind == "pyio" else None
    spec = marshal.loads(sys.stdin.buffer.read())  # written by the host, trusted
    nonce = spec["nonce"]
    if kind == "python":
        results, outputs = run_python_tests(spec, first)
        streams = [(bytes(out.data), bytes(err.data)) for out, err in outputs]
    else:
        from harness_io import run_io_tests  # stdin/stdout tests only: not in a cold assert run

        results, outputs = run_io_tests(spec, zygote)
        streams = outputs
    keep = min(OUTPUT_CAP, spec["output_bytes"] // 4)
    stdout = b"".join(s[0] for s in streams)
    stderr = b"".join(s[1] for s in streams)
    truncated = len(stdout) > keep or len(stderr) > keep or any(
        d.truncated for drains in (outputs if kind == "python" else ()) for d in drains)
    report = {"done": len(results), "stdout": stdout[:keep].decode(errors="replace"),
              "stderr": stderr[:keep].decode(errors="replace"), "truncated": truncated}
    os.write(1, (nonce + to_json(report) + "\n").encode())


def entry(args):
    """Started by the launcher as `run.py python|pyio|io` (harness) or `run.py worker FDS`."""
    if args[0] == "worker":
        worker_main(*map(int, args[1:5]))
    else:
        main(args[0])
    os._exit(0)  # the report is written (os.write): skip the interpreter's teardown
