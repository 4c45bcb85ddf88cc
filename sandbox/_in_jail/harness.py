"""The test harness that runs INSIDE the jail (as its pid 1 in a cold run; as a forked
child of the warm server in warm mode). Standard library only: staged with its bytecode
(`_staging.py`), bound read-only at /harness and started by the launcher
`python3 -E -s -S /harness/run.py python|io`.

Why a program cannot forge a pass:
- The program never runs in this process. Python functions run in a separate worker process
  and are called over a pair of pipes; the checks (`assert ...`, `check(candidate)`) run here, on
  plain data copied out of the worker (marshal, then a type check: no program-defined class
  can cross, so an object whose `__eq__` always says True cannot either). marshal only ever
  decodes what `harness_wire.check_message` admits of the program's bytes (the plain-data
  subset of its format: no code object, no length past the message), and each reply's
  fields are checked (`checked_reply`). stdin/stdout tests compare the program's output here.
- The tests resolve names here, not in the program (see `Namespace`): builtins, the modules
  they use and the task's prompt helpers are this process's own, so a program that defines
  `abs`, `sorted` or `poly`, or patches `builtins` or `math`, changes only its own process.
- The verdicts leave through this process's stdout, framed by a nonce read from stdin; the
  worker's stdin, stdout and stderr are its own pipes, /proc is not mounted and ptrace,
  process_vm_readv and pidfd_getfd are refused, so it can neither see the nonce nor write
  to that stream. `sys.exit(0)`,
  `os._exit(0)`, atexit hooks or printed "passed" lines end or pollute only the worker: a
  test without a verdict from this process is an error, never a pass.
- This process runs under another uid than the program, which can neither signal nor
  change it (prlimit, renice, affinity: EPERM): a cold harness, its jail's pid 1, keeps
  the jail's uid and its kind's capabilities, and every process that runs the program (a
  test's process before its exec, a worker) takes the program uid with none (`apart`,
  `harness_wire.judge_apart`, `enter_program`), as a warm stdin/stdout harness does; a
  warm assert/check harness (one long-lived process per warm server, `serve`) keeps the
  server's uid, and the server forks its workers under the program's.
"""

# no `from __future__ import annotations`: at run time it imports __future__, ~0.5 ms of
# every cold harness start (in-jail modules run on Python >= 3.10, which needs no import)

import builtins
import marshal
import posix as os  # os.py itself imports ~2 ms of modules a cold harness needs none of
import sys
import time

from .harness_program import (
    ServerForker,
    Zygote,
    forked,
    go_on,
    recv_fds,
    serve_worker,
    worker_main,
)
from .harness_wire import (
    Budget,
    Channel,
    TestTimeout,
    Verdicts,
    WorkerGone,
    _last_line,
    address_space_bytes,
    enter_program,
    hold_cpus,
    is_plain,
    judge_apart,
    kill_others,
    kill_process,
    read_all,
    reap_exited,
    reap_left,
    to_json,
)

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing typing; mypy reads it as True
if TYPE_CHECKING:
    import signal  # as mypy knows `_signal`: the same functions and signal numbers
else:
    import _signal as signal  # the `signal` module imports enum & co: ~8 ms of a cold start
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, NoReturn

# subprocess and traceback are imported where needed: a cold harness starts faster


OUTPUT_CAP = 64 << 10


class Worker:
    """One program process and the channel to it; restarted after a timeout or a crash."""

    def __init__(self, channel: "Channel", pid: int, out_r: int, err_r: int,
                 pidfd: "int | None" = None, watch: "int | None" = None) -> None:
        self.outputs = [Drain(out_r), Drain(err_r)]
        self.channel = channel
        self.channel.drains = self.outputs
        self.channel.checked = True  # the program writes it: see `check_message`
        os.set_blocking(channel.write_fd, False)  # a request waits under its test's deadline
        self.pid = pid
        self.pidfd = pidfd  # a zygote's child: signalled and awaited through it, never reaped here
        self.watch = watch  # this process's child: a pidfd only to see its end (`Channel.ended`)
        self.channel.ended = pidfd if pidfd is not None else watch
        self.deadline: float | None = None
        self.names: Any = None  # a set once loaded (`wait_loaded`)
        self.error: str | None = None
        self.handles: dict[str, Any] = {}  # name -> Remote: functions and classes are fetched once per worker

    @staticmethod
    def _pipes() -> "tuple[tuple[int, int, int, int], tuple[int, int, int, int]]":
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        return (req_r, rep_w, out_w, err_w), (rep_r, req_w, out_r, err_r)

    @classmethod
    def start(cls, zygote: "ServerForker | Zygote | None", deadline: "float | None" = None
              ) -> "Worker":
        """A worker forked from a clean forker (the zygote, taken before the tests were read
        or any program code ran, or the warm server); it loads the program afresh. A cold
        zygote gone (another uid than the program's, which cannot kill it; the OOM killer
        can): a new interpreter instead (`spawn`, under the program uid), as slow but as
        clean; never in warm mode, where the forker is the warm server and this harness
        must run no program itself."""
        warm = isinstance(zygote, ServerForker)
        if zygote is None or zygote.sock is None:
            if warm:
                raise WorkerGone("the warm server forks no more workers for this run")
            return cls.spawn()
        theirs, ours = cls._pipes()
        try:
            pid = zygote.start_worker(theirs, deadline)
            # the zygote reaps this pid only when asked for the next worker: until then it
            # cannot name another process, and the pidfd pins it for good
            pidfd = os.pidfd_open(pid)
        except (WorkerGone, OSError):
            for fd in (*theirs, *ours):
                os.close(fd)
            zygote.sock.close()
            zygote.sock = None
            if warm:
                raise WorkerGone("the warm server forks no more workers for this run")
            return cls.spawn()
        except BaseException:
            for fd in (*theirs, *ours):
                os.close(fd)
            raise
        return cls._parent(pid, theirs, ours, pidfd)

    @classmethod
    def fork(cls) -> "Worker":
        """A worker forked from this process, which has run no program code (the first)."""
        theirs, ours = cls._pipes()
        pid = os.fork()
        if pid == 0:
            forked(cls._child, theirs, ours, status=0)
        return cls._parent(pid, theirs, ours)

    @staticmethod
    def _child(theirs: "tuple[int, ...]", ours: "tuple[int, ...]") -> None:
        """The forked worker: its pipe ends, the program uid (`enter_program`), then
        `serve_worker` from run.py's top level."""
        for fd in ours:
            os.close(fd)
        enter_program()
        go_on(serve_worker, theirs)

    @classmethod
    def spawn(cls) -> "Worker":
        import subprocess

        theirs, ours = cls._pipes()
        launcher = __file__.rpartition("/")[0].rpartition("/")[0] + "/run.py"  # above the package
        # the program uid before the exec (`enter_program`; the harness is one thread)
        proc = subprocess.Popen(
            [sys.executable, "-E", "-s", "-S", launcher, "worker", *map(str, theirs)],
            stdin=subprocess.DEVNULL, pass_fds=theirs, preexec_fn=enter_program)  # noqa: PLW1509
        return cls._parent(proc.pid, theirs, ours)

    @classmethod
    def _parent(cls, pid: int, theirs: "tuple[int, ...]", ours: "tuple[int, int, int, int]",
                pidfd: "int | None" = None) -> "Worker":
        for fd in theirs:
            os.close(fd)
        rep_r, req_w, out_r, err_r = ours
        watch = None
        if pidfd is None:  # a child of this process (reaped here): a pidfd to see its end
            try:
                watch = os.pidfd_open(pid)
            except OSError:  # a kernel without pidfds: EOF alone tells
                watch = None
        return cls(Channel(rep_r, req_w), pid, out_r, err_r, pidfd, watch)

    def wait_loaded(self, deadline: "float | None", setup: "str | None" = None) -> None:
        """Hand the worker the task's setup code (run after the program, before the tests:
        MBPP's test_setup_code), then take the names they defined."""
        self.deadline = deadline
        self.channel.send(("setup", setup or ""), deadline)
        reply = checked_reply(self.channel.recv(deadline), loading=True)
        if reply[0] == "ok":
            self.names = set(reply[1])
            for name, item in reply[2].items():
                self.handles[name] = self.value(item)
        else:
            self.error = f"{reply[1]} {reply[3]}: {reply[2]}"

    def request(self, *message: "Any") -> "Any":
        self.channel.send(message, self.deadline)
        reply = checked_reply(self.channel.recv(self.deadline), loading=False)
        if reply[0] == "exc":
            raise remote_exception(reply[1], reply[2])
        return self.value(reply[1])

    def value(self, item: "Any") -> "Any":
        """A reply's item: ("v", plain data) or ("h", handle, type name, callable)."""
        if type(item) is tuple and len(item) == 2 and item[0] == "v":
            if not is_plain(item[1]):
                raise WorkerGone("the program sent a non-plain value")
            return item[1]
        if type(item) is tuple and len(item) == 4 and item[0] == "h" and \
                type(item[1]) is int and type(item[2]) is str and type(item[3]) is bool:
            return Remote(self, item[1], item[2], item[3])
        raise WorkerGone("the program broke the protocol: not a value or a handle")

    def kill(self) -> None:
        """SIGKILL the worker and wait until it is dead, then read what it wrote. (With a
        pidfd it is not this process's child: its forker reaps it.)"""
        kill_process(self.pid, self.pidfd, reap=self.pidfd is None)
        for fd in (self.pidfd, self.watch):
            if fd is not None:
                os.close(fd)
        self.pidfd = self.watch = self.channel.ended = None
        self.channel.close()
        for drain in self.outputs:
            drain.finish()


def checked_reply(reply: "Any", loading: bool) -> "Any":
    """`reply`, a worker's reply (`loading`: to the setup), if it has the shape
    `harness_program` gives it, else WorkerGone: the fields the harness formats, looks up
    or iterates are of the types it expects, so a program's message can fail only its own
    test, never the harness (a code object as an exception's message ended the long-lived
    harness)."""
    if type(reply) is tuple and reply:
        if reply[0] == "exc" and len(reply) == (4 if loading else 3) and \
                all(type(field) is str for field in reply[1:]):
            return reply
        if reply[0] == "ok" and not loading and len(reply) == 2:
            return reply  # its item: `Worker.value`
        if reply[0] == "ok" and loading and len(reply) == 3 and type(reply[1]) is list \
                and all(type(name) is str for name in reply[1]) and type(reply[2]) is dict \
                and all(type(name) is str for name in reply[2]):
            return reply  # the handles: `Worker.value`
    raise WorkerGone("the program broke the protocol: not a reply")


class Namespace(dict):  # type: ignore[type-arg]  # bases run in the jail: no typing
    """Globals of one test. Where a name comes from, first match wins:

    1. the test's own code and the task's context (a HumanEval prompt: its imports and the
       helpers it gives, `poly`, `encode_cyclic`), run in this namespace: plain entries;
    2. the entry point: always the program's (the prompt's stub of it is dropped);
    3. builtins and standard-library modules: the harness's own. A program's `abs`,
       `sorted`, `builtins.len = ...`, `math.sqrt = ...` or `globals()` tricks all live in
       its own process and never reach a test;
    4. any other name the program (or the task's setup code run after it) defines, such as
       a class the tests construct (MBPP's `Pair`): fetched from the worker on first use.

    Out of scope, by construction: a test that takes a *checking* function from the program
    (a name of rule 4 it compares with) hands its verdict to the program; no task we know of
    does, and the rule layer flags a program that redefines a prompt helper."""

    def __init__(self, worker: "Worker", entry_point: "str | None" = None) -> None:
        super().__init__(__name__="__test__")
        self.worker = worker
        self.entry_point = entry_point

    def __missing__(self, name: str) -> "Any":
        if name != self.entry_point:
            if name in BUILTIN_NAMES:
                raise KeyError(name)  # the lookup goes on to the harness's builtins
            module = standard_module(name)
            if module is not None:
                self[name] = module
                return module
        worker = self.worker
        if name not in worker.names:
            if name == self.entry_point:  # never the builtin of that name in its place
                raise NameError(f"the program defines no {name!r}")
            raise KeyError(name)
        value = worker.handles.get(name)
        if value is None:
            value = worker.request("get", name)
            if isinstance(value, Remote):
                worker.handles[name] = value
        self[name] = value
        return value

    # `name in globals()` sees the names rule 4 supplies
    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or (
            name in self.worker.names and (name == self.entry_point or name not in BUILTIN_NAMES))

    def get(self, name: str, default: "Any" = None) -> "Any":
        try:
            return self[name]
        except (KeyError, NameError):
            return default


BUILTIN_NAMES = frozenset(vars(builtins))
_NEVER_IMPORTED = frozenset({"this", "antigravity", "__hello__", "__phello__", "idlelib",
                             "tkinter", "turtle", "turtledemo"})  # they print or open windows


def standard_module(name: str) -> "Any":
    """The harness's own import of a top-level standard-library module a test names without
    importing it (MBPP tests use `math.isclose` and rely on the program's `import math`);
    None for any other name. Only the standard library: never a file of the program's."""
    if name not in sys.stdlib_module_names or name in _NEVER_IMPORTED:
        return None
    try:
        return __import__(name)
    except ImportError:
        return None


def run_context(context: str, namespace: "Namespace", entry_point: "str | None") -> None:
    """Run the task's context (a HumanEval prompt) in a test's namespace, then drop its stub
    of the function under test, which the program supplies."""
    try:
        exec(compiled(context), namespace)  # noqa: S102  (the task's text, trusted like its tests)
    except (TestTimeout, WorkerGone, OSError):
        raise
    except Exception as exc:  # noqa: BLE001  (a broken task: the test's verdict says so)
        raise TaskError(f"the task's prompt code failed: {_last_line(exc)}") from None
    dict.pop(namespace, entry_point, None)


class TaskError(Exception):
    """The task's own code (its prompt) does not run."""


def remote_exception(name: str, message: str) -> Exception:
    builtin = getattr(__builtins__, name, None) if not isinstance(__builtins__, dict) \
        else __builtins__.get(name)
    if isinstance(builtin, type) and issubclass(builtin, Exception) \
            and builtin not in (AssertionError,):
        exc = builtin(message)
    else:
        exc = ProgramError(message)
    exc.remote_message = message  # type: ignore[attr-defined]  # what the message said, kept
    return exc


class ProgramError(Exception):
    """An exception of a type the program defined (or an AssertionError it raised itself)."""


class Remote:
    """A program object that is not plain data: usable for calls, attributes, indexing and
    iteration; never compared (its `__eq__` is the program's to fake)."""

    def __init__(self, worker: "Worker", hid: int, type_name: str, is_callable: bool) -> None:
        object.__setattr__(self, "_w", (worker, hid, type_name, is_callable))

    def __call__(self, *args: "Any", **kwargs: "Any") -> "Any":
        worker, hid = self._w[0], self._w[1]
        return worker.request("call", hid, [encode_arg(a) for a in args],
                              {k: encode_arg(v) for k, v in kwargs.items()})

    def __getattr__(self, name: str) -> "Any":
        return self._w[0].request("getattr", self._w[1], name)

    def __getitem__(self, key: "Any") -> "Any":
        return self._w[0].request("getitem", self._w[1], encode_arg(key))

    def __iter__(self) -> "Iterator[Any]":
        return iter(self._w[0].request("list", self._w[1]))

    def __len__(self) -> int:
        return self._w[0].request("len", self._w[1])

    def __str__(self) -> str:
        return self._w[0].request("str", self._w[1])

    def __repr__(self) -> str:
        return f"<program object of type {self._w[2]}>"

    def __reduce_ex__(self, protocol: object) -> "NoReturn":
        """pickle and copy of a program object in a test: a TypeError, cold as warm (it
        lives in the worker, and the harness never rebuilds a program's class)."""
        raise TypeError(f"a {self._w[2]} object of the program cannot be pickled or copied "
                        "in a test (only plain data it returns can)")

    def _refuse(self, *_: object) -> "NoReturn":
        raise TypeError(f"cannot compare or use a {self._w[2]} object of the program as "
                        "plain data")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __bool__ = __hash__ = _refuse


def encode_arg(value: "Any", depth: int = 0) -> "tuple[Any, ...]":
    """A test's argument for the program: plain data as is; the program's own objects by
    handle; a builtin or standard-library class or function (`int`, `str`, `math.floor`) by
    name, resolved in the worker; containers of these item by item."""
    if isinstance(value, Remote):
        return ("h", value._w[1])
    if is_plain(value):
        return ("v", value)
    kind = type(value)
    if depth < 50 and kind in (list, tuple, set, frozenset):
        return ("c", kind.__name__, [encode_arg(v, depth + 1) for v in value])
    if depth < 50 and kind is dict:
        return ("c", "dict", [(encode_arg(k, depth + 1), encode_arg(v, depth + 1))
                              for k, v in value.items()])
    origin = standard_origin(value)
    if origin is not None:
        return ("s", *origin)
    raise TypeError(f"a {kind.__name__} cannot be passed to the program (only plain data, "
                    "the program's own objects, and standard-library classes and functions)")


_FUNCTION_TYPES = (type, type(len), type(encode_arg))


def standard_origin(value: object) -> "tuple[str, str] | None":
    """(module, qualname) of a standard-library class or function, None for anything else
    (a class or function the test defines cannot cross: the worker could not rebuild it)."""
    if not isinstance(value, _FUNCTION_TYPES):
        return None
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or \
            module.partition(".")[0] not in sys.stdlib_module_names:
        return None
    found: Any = sys.modules.get(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return (module, qualname) if found is value else None


class Drain:
    """One output pipe of the program, keeping its first OUTPUT_CAP bytes. Read whenever the
    harness waits on the worker, and to the end once the worker is gone."""

    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd  # None once closed
        self.data, self.truncated = bytearray(), False
        os.set_blocking(fd, False)

    def read(self) -> bool:
        if self.fd is None:  # closed: nothing more to read (a channel reads only open ones)
            return False
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

    def finish(self) -> None:
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

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def run_python_tests(spec: "dict[str, Any]", zygote: "ServerForker | Zygote | None",
                     first: "Worker | None", budget: "Budget", hold_s: "float | None" = None
                     ) -> "tuple[Verdicts, list[Any]]":
    """assert / check tests against the program in a worker process; one verdict per test,
    each under the limit `Budget` gives that test. A timeout ends the run (`Budget`); a
    crash restarts the worker for the next test, forked from `zygote`, the clean process
    `first` came from too."""
    results = Verdicts(spec["nonce"], hold_s)
    outputs: list[Any] = []
    worker = first
    cold = os.getpid() == 1  # a cold harness (warm the server is pid 1)
    started = False
    for index, test in enumerate(spec["tests"]):
        limit = budget.limit(index)
        if limit is None:
            break
        begin = time.monotonic()
        deadline = begin + limit
        try:
            if worker is None:
                started = False
                worker = Worker.start(zygote, deadline)
            if cold:  # the jail's pid 1: the program's exited orphans are reaped here
                keep = (worker.pid,)  # (the worker, this process's child or the zygote's,
                reap_exited(keep)  # is reaped by `Worker.kill`)
                worker.channel.reaper = lambda keep=keep: reap_exited(keep)
            if not started:
                worker.wait_loaded(deadline, spec.get("setup"))
                started = True
            if worker.error:
                results.append(("error", worker.error, 0.0))
                continue
            worker.deadline = deadline
            namespace = Namespace(worker, spec["entry_point"])
            if spec.get("context"):
                run_context(spec["context"], namespace, spec["entry_point"])
            # test frames are "<string>", which `describe_failure` reads (see `compiled`)
            exec(compiled(test), namespace)  # noqa: S102
            if spec["format"] == "check":
                namespace["check"](namespace[spec["entry_point"]])
            results.append(("pass", "", time.monotonic() - begin))
        except TestTimeout:
            results.append(("timeout", budget.timeout_message(index, limit),
                            time.monotonic() - begin))
            _retire(worker, outputs, zygote, budget)
            worker = None
        except (WorkerGone, OSError) as exc:
            results.append(("error", f"the program died during the test: {exc}",
                            time.monotonic() - begin))
            _retire(worker, outputs, zygote, budget)
            worker = None
        except AssertionError as exc:
            results.append(("fail", describe_failure(test, exc), time.monotonic() - begin))
        except Exception as exc:  # noqa: BLE001  (whatever the test raised: its verdict)
            message = getattr(exc, "remote_message", None) or _last_line(exc)
            results.append(("error", f"{type(exc).__name__}: {message}"
                            if not message.startswith(type(exc).__name__) else message,
                            time.monotonic() - begin))
    _retire(worker, outputs)
    budget.skip_rest(results, len(spec["tests"]))
    return results, outputs


CODE: "dict[Any, Any] | None" = None
"""The long-lived harness's compiled tests and task contexts, by their text (None in any
other harness: there a text is compiled once anyway, and exec of a string spares a cold
harness the `ast` module compile() first builds)."""
MAX_CODE = 1024


def compiled(text: str) -> "Any":
    """`text` compiled as exec of the string compiles it (the same "<string>" frames),
    once per text in the long-lived harness: a task's tests and context return with every
    sample of a group and every epoch."""
    if CODE is None:
        return text
    code = CODE.get(text)
    if code is None:
        if len(CODE) >= MAX_CODE:
            CODE.clear()
        code = CODE[text] = compile(text, "<string>", "exec")
    return code


def _retire(worker: "Worker | None", outputs: "list[Any]",
            zygote: "ServerForker | Zygote | None" = None, budget: "Budget | None" = None
            ) -> None:
    """Kill `worker` (None: the zygote did not answer in time, there is none) and keep its
    output; the caller drops it, so that the next test starts a new one. Mid-run
    (`budget`), cold, every process it left goes too (`end_left`); warm the server ends
    them when this harness asks for the replacement (`warm_server.fork_worker`). At the
    run's end the jail's end (cold) or the kill after the run (warm, `serve`) does."""
    if worker is not None:
        outputs.append(worker.outputs)
        worker.kill()
        if budget is not None and not isinstance(zygote, ServerForker):
            end_left(worker.pid, zygote, budget)


def end_left(first: int, zygote: "Zygote | None", budget: "Budget") -> None:
    """Cold, between a dead worker (pid `first`, killed and reaped) and its replacement:
    end every process it left, its children alive (in its session or not) or exited, and
    reap them, so that the replacement starts with the process count the first worker and
    `python3 main.py` start with (red teams sb17, sb18). As warm (`warm_server.reap`) with
    the zygote in the long-lived harness's place: this process, pid 1, reaps every orphan,
    and the zygote (the harness's uid and CAP_KILL) reaps its last worker and `kill(-1)`s
    the rest, sparing only itself and pid 1, until it finds none
    (`harness_wire.reap_left`); no process is forked for it. Without a zygote that answers,
    this process's own `kill(-1)` and reaping, as between stdin/stdout tests
    (`harness_io.end_processes`), end the zygote with the rest (replacements are then
    spawned); where even that fails (`StateLost`), no further test runs."""
    if zygote is not None and zygote.sock is not None:
        try:
            if reap_left(zygote.end_others):
                return
        except OSError:
            pass
        zygote.sock.close()
        zygote.sock = None
    from .harness_io import StateLost, end_processes

    try:
        end_processes(first)
    except StateLost as exc:
        budget.stopped = f"not run: {exc}"


def describe_failure(test: str, exc: BaseException) -> str:
    detail = str(exc)
    line = ""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith("<"):
            line = _source_line(test, tb.tb_lineno)
        tb = tb.tb_next
    text = f"AssertionError: {line}" if line else "AssertionError"
    return f"{text} ({detail})" if detail else text


def _source_line(test: str, lineno: int) -> str:
    lines = test.splitlines()
    return lines[lineno - 1].strip()[:500] if 0 < lineno <= len(lines) else ""


def main(kind: str, service_fd: "int | None" = None) -> None:
    """Run the tests of the spec on stdin. `service_fd` (warm mode, assert/check tests): the
    socket on which the warm server forks replacement workers, instead of a zygote."""
    start = time.monotonic()  # the program's budget counts from here
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    # the zygote is forked before the tests are read or any program code runs, so it never
    # holds either; then the first worker, before the tests too. The first is forked here,
    # not by the zygote (no round trip before the program starts loading); worker_main
    # closes its copy of the zygote's socket before the program runs
    zygote: ServerForker | Zygote | None
    if kind == "python" and service_fd is not None:
        zygote = ServerForker(service_fd, _kill_others)
    else:
        zygote = Zygote() if kind == "python" else None
    first = Worker.fork() if kind == "python" else None
    spec = marshal.loads(sys.stdin.buffer.read())  # written by the host, trusted
    judge(kind, spec, zygote, first, start)


def judge(kind: str, spec: "dict[str, Any]", zygote: "ServerForker | Zygote | None",
          first: "Worker | None", start: float, hold_s: "float | None" = None) -> None:
    """Run the tests of `spec` (`first`: the worker already loading the program, for
    assert/check tests) and write their verdicts and the report to fd 1 (assert/check
    verdicts held up to `hold_s`, see `Verdicts`)."""
    nonce = spec["nonce"]
    budget = Budget(spec, start)
    if kind == "python":
        results, outputs = run_python_tests(spec, zygote, first, budget, hold_s)
        streams = [(bytes(out.data), bytes(err.data)) for out, err in outputs]
    else:
        from .harness_io import run_io_tests  # stdin/stdout tests only: not in a cold assert run

        results, outputs = run_io_tests(spec, budget)
        streams = outputs
    keep = min(OUTPUT_CAP, spec["output_bytes"] // 4)
    stdout = b"".join(s[0] for s in streams)
    stderr = b"".join(s[1] for s in streams)
    truncated = len(stdout) > keep or len(stderr) > keep or any(
        d.truncated for drains in (outputs if kind == "python" else ()) for d in drains)
    report = {"done": len(results), "stdout": stdout[:keep].decode(errors="replace"),
              "stderr": stderr[:keep].decode(errors="replace"), "truncated": truncated}
    results.flush((nonce + to_json(report) + "\n").encode())


# --- the long-lived harness of a warm server ------------------------------------------------

RUN_FDS = 9
"""File descriptors the warm server hands the long-lived harness with each run: the run's
stdin (the spec), stdout (verdicts) and stderr; the worker's reply and request pipes, its
stdout and stderr; the socket for replacement workers; the worker's pidfd."""
MAX_RUNS = 2000
"""Runs a long-lived harness serves before it retires (a fresh one is forked for the next)."""
HOLD_S = 0.02
"""Seconds the long-lived harness may hold verdicts before it writes them (`Verdicts`): a
test whose own code (the task's, which runs here) never ends loses at most that much of
the verdicts before it when the server kills the harness at the wall limit."""
MAX_GROWTH_KB = 16 << 10
"""Growth of its peak memory (KiB) past which a long-lived harness retires after the run."""


def serve(sock: "Any", cpus: "set[int]") -> None:
    """The warm server's long-lived harness of assert/check tests: forked from the server
    (which never reads a program or its tests) before the first such run, it judges one run
    after another, so that a run costs one fork (its worker, forked by the server) instead
    of two. It never runs program code: its memory holds other runs' tests, and no worker is
    ever forked from it. Per run, on `sock` (a SOCK_SEQPACKET socket to the server), the
    fds of RUN_FDS, the worker's pid and the CPUs the server holds the run on (None: none),
    marshalled. After the run it SIGKILLs every process of the jail but itself and the
    server (`kill(-1)`, which its one capability, CAP_KILL, extends to the program uid),
    takes back its affinity (`cpus`, the server's), answers `done`, then each `check` of the
    server with whether anything is left to reap.

    A program runs under another uid (the server's `become_program`), so it can neither
    signal this process nor change its limits, CPU affinity, priority or scheduling. As a
    second line, should that ever fail: every signal it may block is blocked, and after each
    run it takes back its affinity, compares those attributes with their values at its start
    and retires if one changed, as it does past MAX_RUNS or MAX_GROWTH_KB."""
    import resource

    global CODE
    CODE = {}
    signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    birth = _attributes(resource)  # affinity: `cpus`, the server's, which forked it
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    recursion, streams = sys.getrecursionlimit(), (sys.stdin, sys.stdout, sys.stderr)
    runs = 0
    while True:
        try:
            message, fds = recv_fds(sock, RUN_FDS, max_bytes=4096)
        except OSError:
            return
        if not message:
            return
        if message == b"check":  # after a run the server reaps: is any other process left?
            if _kill_others():
                sock.send(b"busy")
            elif runs >= MAX_RUNS or _attributes(resource) != birth or \
                    resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > peak + MAX_GROWTH_KB:
                sock.send(b"retire")
            else:
                sock.send(b"clean")
            continue
        start = time.monotonic()  # the program's budget counts from here
        cpu = _cpu(resource)
        info = marshal.loads(message)  # from the server
        bounded = info["memory"] is not None and _bound_memory(resource, info["memory"])
        if info["held"] is not None:  # the CPU the server chose (`hold_here`): the run's
            hold_cpus(info["held"])  # worker and each replacement hold themselves there
        stdin_fd, stdout_fd, stderr_fd, rep_r, req_w, out_r, err_r, service_fd, pidfd = fds
        for target, fd in ((0, stdin_fd), (1, stdout_fd), (2, stderr_fd)):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir("/work")
        if "random" in sys.modules:
            sys.modules["random"].seed()
        zygote = ServerForker(service_fd, _kill_others)
        worker = Worker(Channel(rep_r, req_w), info["pid"], out_r, err_r, pidfd)
        try:
            judge("python", marshal.loads(read_all(0)), zygote, worker, start, HOLD_S)
        finally:
            if bounded:  # back to the server's (unlimited) address space
                hard = resource.getrlimit(resource.RLIMIT_AS)[1]
                resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
            zygote.sock.close()
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except BaseException:  # noqa: BLE001, S110  (a test replaced or closed it)
                    pass
            _kill_others()
            hold_cpus(cpus)  # the run's CPU, or whatever the program made of it
            for fd in (0, 1, 2):
                os.dup2(null, fd)
        sys.setrecursionlimit(recursion)
        sys.stdin, sys.stdout, sys.stderr = streams  # a test may have replaced them
        runs += 1
        sock.send(f"done {_cpu(resource) - cpu:.6f}".encode())


def _bound_memory(resource: "Any", share: float) -> bool:
    """Without a memory cgroup: let this process grow by `share` bytes of address space at
    most during the run (its soft RLIMIT_AS; past it, what a test decodes or keeps of the
    program's replies raises MemoryError, a verdict of that test). False where its address
    space cannot be told (then unbounded, as before)."""
    size = address_space_bytes(resource)
    if size is None:
        return False
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    limit = size + share
    resource.setrlimit(resource.RLIMIT_AS, (
        limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    return True


KILL_OTHERS = True
"""False in a warm server with import zygotes (not enabled by default): the server ends
a run's processes itself (`warm_server.kill_run`), since this process's CAP_KILL would
reach the zygotes too."""


def _kill_others() -> bool:
    """`harness_wire.kill_others` (zombies count: they are there until the server reaps
    them); False when the server does that kill (`KILL_OTHERS`)."""
    return KILL_OTHERS and kill_others()


_RLIMITS = ("RLIMIT_AS", "RLIMIT_CORE", "RLIMIT_CPU", "RLIMIT_DATA", "RLIMIT_FSIZE",
            "RLIMIT_MEMLOCK", "RLIMIT_MSGQUEUE", "RLIMIT_NICE", "RLIMIT_NOFILE", "RLIMIT_NPROC",
            "RLIMIT_RSS", "RLIMIT_RTPRIO", "RLIMIT_RTTIME", "RLIMIT_SIGPENDING", "RLIMIT_STACK")


def _attributes(resource: "Any") -> "tuple[Any, ...]":
    """What another process of the jail's uid can change in this one without ptrace."""
    return (tuple(resource.getrlimit(getattr(resource, name)) for name in _RLIMITS),
            os.sched_getaffinity(0), os.getpriority(os.PRIO_PROCESS, 0),
            os.sched_getscheduler(0), os.sched_getparam(0).sched_priority)


def _cpu(resource: "Any") -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def entry(args: "list[str]") -> None:
    """Started by the launcher as `run.py python|io UID OWN` (a cold jail's harness, its
    pid 1: UID the program uid, OWN its processes and its zygote's, which the jail's
    RLIMIT_NPROC holds on top of the program's) or `run.py worker FDS` (`Worker.spawn`)."""
    if args[0] == "worker":
        worker_main(*map(int, args[1:5]))
    else:
        apart(args[0], int(args[1]), int(args[2]))
        main(args[0])
    os._exit(0)  # the report is written (os.write): skip the interpreter's teardown


def apart(kind: str, uid: int, own: int) -> None:
    """A cold harness, before its zygote, its first worker or its first test: the input
    folders opened to the program as the cold init opens them (`init.open_folders`, 0o1777
    as warm), then out of the program's reach as a warm stdin/stdout harness is
    (`judge_apart`): this process keeps the jail's uid and the capabilities its kind needs,
    and every process that runs the program takes `uid` and the program's own count, the
    jail's RLIMIT_NPROC less `own` (`init.less_own`, as the init's child does). Ends the
    harness where it cannot, before any program code has run, with `init.FAILED`: the host
    reads that exit of a test jail as the sandbox's failure (`_tests.run_tests`), never the
    program's."""
    import resource

    from .init import FAILED, WORK, less_own, open_folders

    try:
        open_folders(WORK)
        judge_apart(kind, uid, less_own(resource.getrlimit(resource.RLIMIT_NPROC)[1], own))
    except OSError as exc:
        os.write(2, f"sandbox: the harness cannot keep apart from the program: {exc}\n"
                 .encode())
        os._exit(FAILED)
