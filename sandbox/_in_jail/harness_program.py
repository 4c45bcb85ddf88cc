"""The program side of the in-jail harness (standard library only, staged with it, see
`_staging.py`): the worker that loads a Python program and answers the harness's calls,
`run_main` (what `python3 main.py` does, in a warm server's forked child), the zygote that
forks, cold, each replacement worker of assert tests, and `ServerForker`, through which the
warm server forks those replacements. (A stdin/stdout test runs `python3 main.py` itself,
by exec: `harness_io`.)"""

# no `from __future__ import annotations`: at run time it imports __future__, ~0.5 ms of
# every cold harness start (in-jail modules run on Python >= 3.10, which needs no import)

import _operator
import _struct  # not struct.py (nor socket.py, imported where needed): ms of a cold start
import _weakref as _weakref_module  # these three here, not in `finish`: once the program
import atexit  # runs, it owns the import system (built in: no file read)
import gc
import posix as os  # os.py itself imports ~2 ms of modules a cold harness needs none of
import select
import sys
import time

from .harness_wire import (
    Channel,
    TestTimeout,
    WorkerGone,
    _last_line,
    check_plain,
    enter_program,
    is_plain,
    kill_others,
    note_fork,
    reap_exited,
    standard_to_plain,
)

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing typing; mypy reads it as True
if TYPE_CHECKING:
    import signal  # as mypy knows `_signal`: the same functions and signal numbers
else:
    import _signal as signal  # the `signal` module imports enum & co: ms of a cold start
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, NoReturn


COLD: "Any" = getattr(sys.modules.get("__main__"), "COLD", None)
"""What a fresh `python3 -E -s -S` holds at its start, taken by run.py's first line before
it imports anything (see `_staging._RUN`): the names in `sys.modules`, `sys.meta_path`,
`sys.path_hooks`, `sys.path` and each `sys.path_importer_cache` entry with its state."""


KEPT: "Any" = None
"""A warm server's own references to what `as_cold` takes out of the import system in the
processes it forks (`keep_imports`)."""


def keep_imports() -> None:
    """In a warm server, before it forks any program: hold a reference of its own to every
    module, finder and path entry its import system holds now. `as_cold` in a forked child
    then only drops the import system's references: nothing it takes out is freed there,
    and freeing a module or a finder writes to (and so copies) every page its contents are
    on: ~45 of the child's page faults, ~0.1 ms of every warm run. What a program can reach
    is the same either way: the import system as `as_cold` leaves it."""
    global KEPT
    KEPT = (dict(sys.modules), dict(sys.path_importer_cache), [*sys.meta_path],
            [*sys.path_hooks], [*sys.path])


def as_cold(script: str = "/work/main.py") -> None:
    """Put the import system where `python3 -E -s -S SCRIPT` has it at its start, before a
    program runs in this (forked) process, cold or warm alike: every module imported since
    that start (the harness's own, a warm server's) leaves `sys.modules`, and `sys.meta_path`,
    `sys.path_hooks`, `sys.path` and `sys.path_importer_cache` (with each finder's state) are
    as they were then, with the script's entries for run.py's. The modules left are the
    start's own, which nothing here changes: the program imports everything else from the
    files, through CPython's own finders, as a cold interpreter does."""
    names, meta_path, path_hooks, path, importers = COLD
    for name in list(sys.modules):
        if name not in names:
            del sys.modules[name]
    sys.meta_path[:] = meta_path
    sys.path_hooks[:] = path_hooks
    sys.path[:] = [script.rpartition("/")[0], *path[1:]]
    sys.path_importer_cache.clear()
    for entry, (finder, state) in importers.items():
        if finder is not None and state is not None:
            vars(finder).clear()
            vars(finder).update(state)
        sys.path_importer_cache[script if entry == path[0] + "/run.py" else entry] = finder


ZYGOTE_NAMES: "Any" = None
"""In a process forked from an import zygote (`warm_server.ImportZygote`, not enabled by
default): the names the zygote's import put in `sys.modules` after `as_cold`, in order.
Such a process skips `as_cold` (`from_zygote` instead): its import system is the one a
cold program's first import leaves."""


def from_zygote() -> None:
    """Instead of `as_cold`, in a process forked from an import zygote, once the run's
    files are in /work: the finder of /work lists the folder as a cold import would have
    found it (the zygote imported while /work was empty), as FileFinder.find_spec does."""
    finder: Any = sys.path_importer_cache.get("/work")
    if finder is not None and hasattr(finder, "_fill_cache"):
        finder._fill_cache()
        finder._path_mtime = os.stat("/work").st_mtime


def compile_as_cold(source: "Any", filename: str) -> "Any":
    """compile(), as a cold program's compile runs: before its imports. In a process forked
    from an import zygote, the zygote's modules leave `sys.modules` for the compile and come
    back after, in order: a compiler warning then shows through the C path, not through the
    zygote's `warnings` (which would import linecache and tokenize)."""
    modules = sys.modules
    hidden = [(name, modules.pop(name)) for name in ZYGOTE_NAMES if name in modules]
    try:
        return compile(source, filename, "exec")
    finally:
        for name, module in hidden:
            modules[name] = module


def worker_main(req_fd: int, rep_fd: int, out_fd: int, err_fd: int, *,
                streams: "tuple[Any, Any, Any] | None" = None, source: "str | None" = None
                ) -> None:
    """Load the program, then answer requests: get a name, call, getattr, getitem, iterate.
    `streams`: sys.stdin/stdout/stderr as `worker_stdio` makes them, premade by the warm
    server (unused there) so that a forked worker does not build them. `source`: the text
    of /work/main.py where the caller has just written it (else read from there)."""
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    # the channel moves to fds 3 and 4; everything else (the report stream included) closes
    req, rep = os.dup(req_fd), os.dup(rep_fd)
    os.dup2(req, 3)
    os.dup2(rep, 4)
    os.closerange(5, 4096)
    sock = Channel(3, 4)
    sys.stdin, sys.stdout, sys.stderr = streams if streams is not None else worker_stdio()
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as in `run_main`
    handles: dict[Any, Any] = {}
    program = program_module()
    module = vars(program)  # held here: the program may take it out of sys.modules
    if ZYGOTE_NAMES is None:
        as_cold()
    else:
        from_zygote()
    # a real module, found by the name its functions and classes carry: pickle (Pool.map,
    # ProcessPoolExecutor, a Queue.put of its own class) finds them by reference, as it
    # finds a script's in `__main__`. This process's alone: the harness judges from the
    # replies, and answers from `module`, not from sys.modules
    sys.modules[PROGRAM_MODULE] = program
    # and `__main__` (run.py's module) without a file, as a script read from stdin: a spawn
    # or forkserver child of the program then starts no harness launcher as its
    # `__mp_main__`; the program's functions it is sent fail to unpickle there (no module
    # `solution` to import), as a stdin script's `__main__` functions fail on a host
    vars(sys.modules["__main__"]).pop("__file__", None)
    vars(sys.modules["__main__"]).pop("__cached__", None)
    loaded = load(module, handles, sock, source)
    _flush()
    sock.send(loaded)
    if loaded[0] != "ok":
        return
    while True:
        try:
            request = sock.recv()
        except (WorkerGone, OSError):
            return
        reply = answer(request, module, handles)
        _flush()
        try:
            sock.send(reply)
        except ValueError:  # unmarshallable despite the checks
            sock.send(("exc", "TypeError", "result cannot leave the program"))


PROGRAM_MODULE = "solution"
"""The name of an assert/check test's program module, its `__name__` (never `__main__`: a
program's `if __name__ == "__main__":` block does not run under its tests, as under
HumanEval's, MBPP's and LiveCodeBench's harnesses, which give it no `__main__` name either)."""


def program_module() -> "Any":
    """The module an assert/check test's program runs in (its dict the globals), named
    PROGRAM_MODULE, with the builtins dict this module has (as exec() gave it before)."""
    module = type(sys)(PROGRAM_MODULE)  # types.ModuleType, without the import
    vars(module)["__builtins__"] = __builtins__
    return module


def load(module: "Any", handles: "dict[Any, Any]", sock: "Channel",
         source: "str | None" = None) -> "tuple[Any, ...]":
    """Run /work/main.py in `module`, then the task's setup code the harness sends (MBPP's
    test_setup_code runs between the program and the tests, in the program's namespace).
    The reply: ("ok", names, handles of the functions and classes) or ("exc", type, message,
    where)."""
    failed = None
    try:
        if source is None:
            with open("/work/main.py") as fh:
                source = fh.read()
        else:  # as the text-mode read above gives it (universal newlines)
            source = source.replace("\r\n", "\n").replace("\r", "\n")
        # exec of the text: compile(source, "main.py", ...) would first build the `ast`
        # module's classes, ~1.5 ms of a cold run (the program's frames are "<string>")
        if ZYGOTE_NAMES is None:
            exec(source, module)  # noqa: S102  (in the worker only)
        else:  # as exec of the text compiles it, before the program's imports
            exec(compile_as_cold(source, "<string>"), module)  # noqa: S102
    except BaseException as exc:  # noqa: BLE001  (the program's own failure, as data)
        failed = ("exc", type(exc).__name__, _last_line(exc), "while loading the program")
    setup = sock.recv()[1]  # ("setup", code): sent once the harness has read the tests
    if failed is not None:
        return failed
    try:
        if setup:
            exec(setup, module)  # noqa: S102  (the task's code, in the program's namespace)
        names = [n for n in module if not n.startswith("__")]
        # functions and classes travel as handles with the names: no "get" round trip each
        return ("ok", names, {n: _encode(module[n], handles) for n in names
                              if callable(module[n]) and not is_plain(module[n])})
    except BaseException as exc:  # noqa: BLE001  (the program broke its namespace: data)
        return ("exc", type(exc).__name__, _last_line(exc), "in the task's setup code")


def answer(request: "Any", module: "Any", handles: "dict[Any, Any]") -> "tuple[Any, ...]":
    """The reply to one request of the harness: get a name of `module`, call, getattr,
    getitem, iterate, len, str. A program object that is not plain data stays here, in
    `handles`; an exception (SystemExit from the program too) is answered as data."""
    op, args = request[0], request[1:]
    try:
        if op == "get":
            result = _encode(module[args[0]], handles)
        elif op == "call":
            fn = handles[args[0]]
            pos = [_decode(a, handles) for a in args[1]]
            kw = {k: _decode(v, handles) for k, v in args[2].items()}
            result = _encode(fn(*pos, **kw), handles)
        elif op == "getattr":
            result = _encode(getattr(handles[args[0]], args[1]), handles)
        elif op == "getitem":
            result = _encode(handles[args[0]][_decode(args[1], handles)], handles)
        elif op == "list":
            result = _encode(list(handles[args[0]]), handles)
        elif op == "len":
            result = _encode(len(handles[args[0]]), handles)
        elif op == "str":
            result = _encode(str(handles[args[0]]), handles)
        else:
            result = ("exc", "ValueError", f"unknown request {op!r}")
        return ("ok", result)
    except BaseException as exc:  # noqa: BLE001  (SystemExit from the program too)
        return ("exc", type(exc).__name__, _last_line(exc))


def _encode(value: object, handles: "dict[Any, Any]") -> "tuple[Any, ...]":
    if check_plain(value):  # TooLarge: the caller's error, said as such
        return ("v", value)
    converted = standard_to_plain(value)
    if converted is not None and is_plain(converted):
        return ("v", converted)
    handles[len(handles) + 1] = value
    return ("h", len(handles), type(value).__name__, callable(value))


def _decode(item: "Any", handles: "dict[Any, Any]") -> "Any":
    """A test's argument as the harness's `encode_arg` sent it."""
    tag = item[0]
    if tag == "v":
        return item[1]
    if tag == "h":
        return handles[item[1]]
    if tag == "s":  # a standard-library class or function, by module and qualified name
        found = __import__(item[1], fromlist=["_"])
        for part in item[2].split("."):
            found = getattr(found, part)
        return found
    if item[1] == "dict":
        return {_decode(k, handles): _decode(v, handles) for k, v in item[2]}
    return _CONTAINERS[item[1]](_decode(v, handles) for v in item[2])


_CONTAINERS = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001, S110  (the program may have closed its streams)
            pass


def run_main(text: "str | bytes | None" = None) -> object:
    """What `python3 -E -s -S main.py` does with /work/main.py, in this (forked) process:
    returns the code it ends with (a SystemExit's `code`, for `finish`). Used by the warm
    server's plain runs. `text`: the program where the caller has just
    written it to /work/main.py (the warm server's child, from its payload), encoded as that
    file was, instead of read back."""
    if text is None:
        with open("/work/main.py", "rb") as fh:
            source = fh.read()
    else:  # as `write_inputs` wrote the file
        source = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if b"coding" not in b"\n".join(source.split(b"\n", 2)[:2]):  # no PEP 263 cookie
        try:  # as the interpreter reads a file: UTF-8 or a SyntaxError (compile() of
            source.decode("utf-8")  # bytes lets broken UTF-8 in a comment through)
        except UnicodeDecodeError as exc:
            line = source[:exc.start].count(b"\n") + 1
            os.write(2, (f"SyntaxError: Non-UTF-8 code starting with '\\x{source[exc.start]:02x}'"
                         f" in file /work/main.py on line {line}, but no encoding declared;"
                         " see https://peps.python.org/pep-0263/ for details\n").encode())
            return 1
    module = type(sys)("__main__")  # types.ModuleType, without the import
    # the globals the interpreter gives a script's __main__ (`__builtins__` the module, not
    # the dict exec() would put there: `__builtins__.print` is a program's to call)
    module.__dict__.update(
        __file__="/work/main.py", __cached__=None, __annotations__={},
        __builtins__=sys.modules["builtins"],
        __loader__=sys.modules["_frozen_importlib_external"].SourceFileLoader(
            "__main__", "/work/main.py"))
    if ZYGOTE_NAMES is None:
        as_cold()
    else:
        from_zygote()
    sys.modules["__main__"] = module
    sys.argv = ["main.py"]
    sys.orig_argv = [sys.executable, "-E", "-s", "-S", "main.py"]  # not its server's
    # SIGINT raises KeyboardInterrupt, as the interpreter sets it up (a warm server's child
    # inherits SIG_DFL: the signal, or `_thread.interrupt_main`, would kill it or do nothing)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    global _INTERRUPTED
    ended: BaseException | None = None
    try:
        exec(compile(source, "/work/main.py", "exec") if ZYGOTE_NAMES is None  # noqa: S102
             else compile_as_cold(source, "/work/main.py"), module.__dict__)
    except BaseException as exc:  # noqa: BLE001  (printed as the interpreter would)
        ended = exc
    # the interpreter's end is C: the program's trace and profile functions see none of
    # the harness's (taken off here, inline: a call would be traced; see `_traced`)
    _TRACING[:] = sys.gettrace(), sys.getprofile()
    if _TRACING[0] is not None:  # each call an audit event: none made for nothing
        sys.settrace(None)
    if _TRACING[1] is not None:
        sys.setprofile(None)
    _leave_program()
    _flush_io()
    if ended is None:
        return 0
    if _issubclass(_type(ended), SystemExit):  # its code is read where the interpreter
        return exit_code(ended)  # type: ignore[arg-type]  # reads it: `finish`
    code = print_exception(ended)
    if code is not _NO_EXIT:
        return code
    # the interpreter ends by SIGINT after an unhandled KeyboardInterrupt (its exact type,
    # run_eval_code_obj), whatever Py_FinalizeEx said: `finish`
    _INTERRUPTED = _type(ended) is KeyboardInterrupt
    return 1


_INTERRUPTED = False
"""Whether the program ended by an unhandled KeyboardInterrupt: then, after everything of
Py_FinalizeEx (and over its 120), Py_RunMain's `exit_sigint` (`finish`)."""

_TRACING: "list[Any]" = [None, None]
"""The program's trace and profile functions, taken off while the harness's own code runs
(`run_main`) and put back only around calls of the program's code (`_traced`): the
interpreter's end is C, which no trace or profile function sees."""


def _traced(call: "Any", *args: "Any") -> "Any":
    """`call(*args)` (the program's code, or C that calls it) under the program's trace and
    profile functions, as the interpreter runs it; those the program has set by its return
    are kept for the next call. This frame is entered untraced, so no trace function sees
    or changes its locals (nor the harness's callers')."""
    _enter_program()
    if _TRACING[0] is not None:  # each call an audit event: none made for nothing
        sys.settrace(_TRACING[0])
    if _TRACING[1] is not None:
        sys.setprofile(_TRACING[1])
    try:
        return call(*args)
    finally:
        _TRACING[:] = sys.gettrace(), sys.getprofile()
        if _TRACING[0] is not None:
            sys.settrace(None)
        if _TRACING[1] is not None:
            sys.setprofile(None)
        _leave_program()


_LIMIT = [1000]
"""The program's recursion limit, while the harness's end runs over it (`_leave_program`)."""

_HEADROOM = 50
"""Frames the harness's end may take over the program's limit: a program may set the
lowest limit its depth allows (its depth + 1), and `python3 main.py`'s end is C, which
needs no frame of that limit."""


def _leave_program() -> None:
    """Back to the harness's code: the limit the program left, plus `_HEADROOM`."""
    _LIMIT[0] = sys.getrecursionlimit()
    sys.setrecursionlimit(_LIMIT[0] + _HEADROOM)


def _enter_program() -> None:
    """Before the program's code runs again: its own recursion limit (where the harness's
    frames below it allow: else the lowest they do)."""
    try:
        sys.setrecursionlimit(_LIMIT[0])
    except RecursionError:
        pass


def _flush_io() -> None:
    """pythonrun.c's `flush_io`, right after the script: sys.stderr, then sys.stdout
    flushed, every error swallowed (before the traceback, `handle_system_exit`, threads
    and atexit hooks)."""
    for name in ("stderr", "stdout"):
        try:
            _traced(_FLUSH, vars(sys).get(name))
        except BaseException:  # noqa: BLE001, S110  (as flush_io: PyErr_Clear)
            pass


_FLUSH = _operator.methodcaller("flush")
_CLOSED = _operator.attrgetter("closed")
"""`stream.flush()` in C: the lookup and call seen by a trace function as the program's."""


def exit_code(exc: SystemExit) -> object:
    """The code of `exc` as the interpreter takes it: its `code` (a program's SystemExit
    subclass may make that an attribute of its own), or, where reading it fails, the
    exception itself (the interpreter prints it and ends with status 1)."""
    try:
        return exc.code
    except BaseException:  # noqa: BLE001  (the program's class: its failure is data)
        return exc


def print_exception(exc: BaseException) -> object:
    """Print `exc` (raised by the program's code) as the interpreter prints an uncaught
    exception (`PyErr_PrintEx(1)`): sys.last_type/last_value/last_traceback set, the audit
    event `sys.excepthook` raised, then sys.excepthook called (None is called too, and fails;
    only a missing hook is `sys.excepthook is missing`), without run_main's frame, calling
    nothing of the program's exception that the interpreter does not call. A hook that
    fails is reported as the interpreter reports it; one that raises SystemExit ends the
    program with that exit's code (returned; else `_NO_EXIT`)."""
    tb = _traceback_of(exc)
    tb = tb.tb_next if tb is not None else None  # hide run_main's frame
    BaseException.with_traceback(exc, tb)
    sys.last_type, sys.last_value, sys.last_traceback = _type(exc), exc, tb
    hook = vars(sys).get("excepthook", _NO_EXIT)
    try:
        _traced(sys.audit, "sys.excepthook", None if hook is _NO_EXIT else hook,
                _type(exc), exc, tb)
    except RuntimeError:
        return _NO_EXIT
    except BaseException as failed:  # noqa: BLE001  (the program's audit hook)
        _unraisable(failed, None, "Exception ignored in audit hook")
    try:
        if hook is _NO_EXIT:
            _write_stderr("sys.excepthook is missing\n")
            _traced(sys.__excepthook__, _type(exc), exc, tb)
        else:
            _traced(hook, _type(exc), exc, tb)
    except SystemExit as ending:
        return exit_code(ending)
    except BaseException as failed:  # noqa: BLE001  (the program's hook: printed as data)
        _write_stderr("Error in sys.excepthook:\n")
        _display(failed, _program_tb(failed))
        _write_stderr("\nOriginal exception was:\n")
        _display(exc, tb)
    return _NO_EXIT


def _traceback_of(exc: BaseException) -> "Any":
    """`exc.__traceback__` as C reads it (PyException_GetTraceback): never a program
    class's own `__traceback__` attribute."""
    return BaseException.__dict__["__traceback__"].__get__(exc)


def _program_tb(exc: BaseException) -> "Any":
    """`exc`'s traceback from the first frame of the program's (the harness's frames that
    called it left out: the interpreter's are C, and show none)."""
    tb = _traceback_of(exc)
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return tb


def _display(exc: BaseException, tb: "Any") -> None:
    """`_PyErr_Display`: the default hook's report; a failure there is lost."""
    BaseException.with_traceback(exc, tb)  # the report reads the exception's own
    try:
        _traced(sys.__excepthook__, _type(exc), exc, tb)
    except BaseException:  # noqa: BLE001, S110  (as the interpreter: nothing more printed)
        pass


_NO_EXIT = object()
"""`print_exception`'s answer where the hook raised no SystemExit."""


def _write_stderr(text: str) -> None:
    """`PySys_WriteStderr`: to sys.stderr, or, where that is missing or fails, to the C
    stderr (fd 2)."""
    try:
        _traced(_operator.methodcaller("write", text), vars(sys).get("stderr"))
    except BaseException:  # noqa: BLE001  (as sys_write: PyErr_Clear, then fputs)
        try:
            os.write(2, text.encode("utf-8", "backslashreplace"))
        except OSError:
            pass


def finish(code: object) -> "NoReturn":
    """End the program's process as the interpreter ends a script whose run ended with
    `code` (a SystemExit's; CPython 3.11's `handle_system_exit` and `Py_FinalizeEx`), up to
    where nothing more of it can be seen, then `os._exit`: the exit status from `code` (an
    int's value as a C long, 255 past it, never the program's methods; any other code
    printed, status 1); threads joined; atexit hooks run; sys.stdout and sys.stderr flushed
    (status 120 if that fails, stdout's error printed as unraisable); then the modules
    finalized as `finalize_modules` does (the standard streams put back, each module's
    dict cleared in reverse order of import, the collector run, then sys's and builtins'
    dicts: globals' `__del__`, suspended generators' `finally`, files flushed on close).
    Not the interpreter's own teardown past that: in a child of a warm server it frees
    the server's whole heap, copying every page (~10 ms a run), and shows nothing. After an
    unhandled KeyboardInterrupt, Py_RunMain's `exit_sigint` last: SIGINT to SIG_DFL and
    sent to itself, so the process dies of it (status 130 only where the program blocked
    it), as `python3 main.py` does."""
    end, kill, getpid, setsig = os._exit, os.kill, os.getpid, signal.signal  # sys and
    sigint, default = signal.SIGINT, signal.SIG_DFL  # builtins are cleared below
    final = 120  # until the flush is done: a signal's handler raising in the harness's
    try:  # code between two steps (a program's thread may send one) fails, never passes
        status = _exit_status(code)
        try:
            threading = _MODULES.get("threading")  # interp->modules, not the sys attribute
            if threading is not None:  # wait for non-daemon threads, as the interpreter does
                _traced(threading._shutdown)
        except BaseException as exc:  # noqa: BLE001  (printed as the interpreter prints it)
            _unraisable(exc, threading)
        try:
            _traced(atexit._run_exitfuncs)  # each failure printed as the interpreter does
        except BaseException:  # noqa: BLE001, S110  (an interrupt left pending by a hook,
            pass  # raised on return: _PySignal_Fini drops it)
        # inline: an interrupt raised in `_traced`'s own code may have left them set
        if sys.gettrace() is not None:
            sys.settrace(None)
        if sys.getprofile() is not None:
            sys.setprofile(None)
        for _ in range(3):  # each try consumes what a handler of the program left pending
            try:  # before the flush (the interpreter's comes after it), so that no handler
                _signal_fini()  # of the program's runs in the harness's code
                break
            except BaseException:  # noqa: BLE001, S112
                continue
        if _flush_std_files():
            final = status
        _finalize_modules()
        _traced(_AUDIT, "cpython.PyInterpreterState_Clear")  # interpreter_clear's first act
    except BaseException:  # noqa: BLE001, S110  (a signal's handler in the harness's code)
        pass
    finally:
        if _INTERRUPTED:  # Py_RunMain's exit_sigint: SIGINT to SIG_DFL, then kill(getpid(),
            try:  # SIGINT), which ends the process, unless the program blocked the signal
                setsig(sigint, default)  # (pthread_sigmask): then status 130
                kill(getpid(), sigint)
            except BaseException:  # noqa: BLE001, S110  (as exit_sigint: then 130)
                pass
        end(130 if _INTERRUPTED else final)


_int, _type, _issubclass, _str = int, type, issubclass, str  # builtins are the program's
_MODULES = sys.modules
"""The interpreter's own dict of modules (`interp->modules`), whatever the program binds
`sys.modules` to."""
_BUILTINS = sys.modules["builtins"]
_AUDIT = sys.audit


def _signal_fini() -> None:
    """`_PySignal_Fini`: every signal whose handler is Python's (the program's, or SIGINT's
    `default_int_handler`) goes back to SIG_DFL, so no handler of the program's runs any
    more, and none is kept (a signal pending is dropped, unless its handler raises: then
    this is called again). A signal the program's process sends itself from here on (a
    finalizer's) has its default action, as in `python3 main.py`: SIGINT kills it. Signals
    set to SIG_IGN or left at SIG_DFL keep that."""
    for signum in range(1, signal.NSIG):
        handler = signal.getsignal(signum)
        if handler not in (None, signal.SIG_DFL, signal.SIG_IGN):
            signal.signal(signum, signal.SIG_DFL)  # runs what is pending first


def _exit_status(code: object) -> int:
    """`handle_system_exit`'s status for `code`; a code that is no int printed first
    (to sys.stderr, or the C stderr where that is None or missing), a newline after it
    even where printing it failed."""
    if code is None:
        return 0
    if _issubclass(_type(code), _int):  # PyLong_Check, then PyLong_AsLong
        value = _int.__int__(code)  # type: ignore[arg-type]  # an int subclass's value
        return value & 0xFF if -(1 << 63) <= value < 1 << 63 else 255
    stderr = vars(sys).get("stderr")
    try:
        if stderr is None:  # PyObject_Print(code, stderr, Py_PRINT_RAW)
            text = _traced(_str, code)
            os.write(2, text.encode("utf-8", "backslashreplace"))
        else:  # PyFile_WriteObject(code, sys.stderr, Py_PRINT_RAW)
            _traced(_operator.methodcaller("write", _traced(_str, code)), stderr)
    except BaseException:  # noqa: BLE001, S110  (as the interpreter: the text is lost)
        pass
    _write_stderr("\n")
    return 1


def _closed(stream: "Any") -> bool:
    try:
        return bool(_traced(_CLOSED, stream))
    except BaseException:  # noqa: BLE001  (`file_is_closed`: an error reads as open)
        return False


def _flush_std_files() -> bool:
    """`flush_std_files`: whether sys.stdout and sys.stderr (unless None or closed) flushed."""
    ok = True
    for name in ("stdout", "stderr"):
        stream = vars(sys).get(name)
        if stream is None or _closed(stream):
            continue
        try:
            _traced(_FLUSH, stream)
        except BaseException as exc:  # noqa: BLE001  (the program's stream)
            if name == "stdout":
                _unraisable(exc, stream)
            ok = False
    return ok


def _unraisable_args() -> "Any":
    """The type of sys.unraisablehook's argument (a struct sequence the hook's default
    accepts alone), taken once from an unraisable error made here."""
    seen: list[Any] = []
    hook, sys.unraisablehook = sys.unraisablehook, seen.append

    class Raises:
        def __del__(self) -> None:
            raise ValueError

    Raises()
    sys.unraisablehook = hook
    return _type(seen[0]) if seen else None


_UNRAISABLE = _unraisable_args()


def _unraisable(exc: BaseException, obj: object, message: "str | None" = None) -> None:
    """`PyErr_WriteUnraisable(obj)` for `exc`, raised in this module's call of the program's
    code (the harness's frames left out of its traceback)."""
    tb = _program_tb(exc)
    try:
        _traced(vars(sys).get("unraisablehook"), _UNRAISABLE((_type(exc), exc, tb, message, obj)))
    except BaseException:  # noqa: BLE001, S110  (a failing hook: the interpreter says nothing)
        pass


_SYS_DELETES = ("path", "argv", "ps1", "ps2", "last_type", "last_value", "last_traceback",
                "path_hooks", "path_importer_cache", "meta_path", "__interactivehook__")


def _finalize_modules() -> None:
    """CPython 3.11's `finalize_modules` for the program's objects: the standard streams
    put back (`sys.stdout = sys.__stdout__`...), every module removed from sys.modules,
    the collector run, the dicts of the program's modules (`__main__` and every module not
    there at the interpreter's start, `COLD`) cleared in reverse order of import, then the
    standard streams dropped (each flushed on close) and the collector run again. The
    modules of the interpreter's start are not cleared, nor sys's and builtins' dicts
    (the interpreter clears them last): they hold the program's objects only where the
    program put them there, and clearing them in a warm server's child would free (and
    so copy) pages of the server's heap, ~1 ms a run."""
    if gc.isenabled():  # Py_FinalizeEx's _PyGC_CollectIfEnabled, gc.callbacks and all
        _traced(gc.collect)
    callbacks = [*gc.callbacks]  # the collections of finalize_modules run none
    gc.callbacks.clear()
    for name in _SYS_DELETES:
        setattr(sys, name, None)
    for name in ("stdin", "stdout", "stderr"):
        setattr(sys, name, vars(sys).get(f"__{name}__"))
    vars(_BUILTINS)["_"] = None
    start = COLD[0] if COLD is not None else ()
    weak = [_weakref(module) for name, module in _MODULES.items()
            if _type(module) is _type(sys) and (name == "__main__" or name not in start)]
    for name in list(_MODULES):
        _MODULES[name] = None  # type: ignore[assignment]  # as the interpreter does
    _MODULES.clear()
    _traced(gc.collect)
    for ref in reversed(weak):
        module = ref()
        if module is not None:
            _clear_module(vars(module))
        del module
    streams: list[Any] = []
    for name in ("stdin", "stdout", "stderr"):
        for attribute in (name, f"__{name}__"):
            streams.append(vars(sys).get(attribute))
            setattr(sys, attribute, None)
    _traced(gc.collect)
    gc.callbacks[:] = callbacks
    for stream in streams:  # flushed on close, if they are the interpreter's own files
        try:
            if _type(stream) in _STD_TYPES and not stream.closed:
                stream.flush()
        except BaseException:  # noqa: BLE001, S110  (as on close: the error is lost)
            pass


_STD_TYPES = (type(sys.__stdout__), type(sys.__stdin__))
"""io.TextIOWrapper: a standard stream of another class is the program's, whose flush the
interpreter never calls at its end."""


def _weakref(module: "Any") -> "Any":
    return _weakref_module.ref(module)


def _clear_module(namespace: "dict[str, Any]") -> None:
    """`_PyModule_ClearDict`: names of one leading underscore to None, then all but
    `__builtins__`; under the program's trace and profile functions (set in this frame,
    entered untraced: they see the finalizers it runs, not it)."""
    _enter_program()
    if _TRACING[0] is not None:  # each call an audit event: none made for nothing
        sys.settrace(_TRACING[0])
    if _TRACING[1] is not None:
        sys.setprofile(_TRACING[1])
    try:
        for key in list(namespace):
            if _type(key) is _str and key[:1] == "_" and key[1:2] != "_":
                namespace[key] = None
        for key in list(namespace):
            if key != "__builtins__":
                namespace[key] = None
    finally:
        _TRACING[:] = sys.gettrace(), sys.getprofile()
        if _TRACING[0] is not None:
            sys.settrace(None)
        if _TRACING[1] is not None:
            sys.setprofile(None)
        _leave_program()


class Then(BaseException):
    """Raised in a forked child that is to run a program: it unwinds every frame above
    (each a `forked` call, which lets it pass; their locals own no descriptor the program
    gets) up to run.py's top level, which then calls `then[0](*then[1])`. So a program's
    first frame is as deep whichever process forked it (the warm server, a harness, its
    zygote): a recursion that fits cold fits warm."""

    def __init__(self, run: "Any", *args: "Any") -> None:
        super().__init__()
        self.then = (run, args)


def forked(run: "Any", *args: "Any", status: int = 70) -> "NoReturn":
    """In a process just forked: `run(*args)`, then `os._exit(status)` whatever it raises
    (the process never returns into its parent's code), except `Then`, which goes on up
    to run.py."""
    try:
        run(*args)
    except Then:
        raise
    except BaseException:  # noqa: BLE001, S110  (the status says it)
        pass
    os._exit(status)


def fresh_stdio() -> "tuple[Any, Any, Any]":
    """New sys.stdin/stdout/stderr over fds 0-2 (as an interpreter start makes them); also
    returned. Their error handlers are the ones this interpreter chose for its own stdin and
    stdout at its start (`surrogateescape` in the jail's C locale), as `python3 main.py`'s:
    bytes a program reads that are not UTF-8 come back out as they were."""
    stdin_errors, stdout_errors = (getattr(stream, "errors", None) or "strict"
                                   for stream in (sys.__stdin__, sys.__stdout__))
    sys.stdin = open(0, encoding="utf-8", errors=stdin_errors, closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", errors=stdout_errors,  # noqa: SIM115
                      closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                      closefd=False, buffering=1)
    named(sys.stdin, sys.stdout, sys.stderr)
    originals(sys.stdin, sys.stdout, sys.stderr)
    if "random" in sys.modules:
        sys.modules["random"].seed()
    return sys.stdin, sys.stdout, sys.stderr


def originals(*streams: "Any") -> None:
    """Make `streams` sys.__stdin__, __stdout__ and __stderr__ too: a program's, as an
    interpreter start makes them, not its harness's or server's own."""
    for name, stream in zip(("__stdin__", "__stdout__", "__stderr__"), streams):
        setattr(sys, name, stream)


def named(*streams: "Any") -> None:
    """Name standard streams made by `open` (over fds 0-2: `name` 0, 1, 2) as an
    interpreter start names its own: `<stdin>`, `<stdout>`, `<stderr>`."""
    for stream, name in zip(streams, ("<stdin>", "<stdout>", "<stderr>")):
        stream.buffer.raw.name = name


def worker_stdio() -> "tuple[Any, Any, Any]":
    """A worker's sys.stdin/stdout/stderr over fds 0-2: stdin (/dev/null) as `open` makes
    it, stdout and stderr line-buffered, so that the program's output reaches its pipes as
    it prints."""
    return (open(0, closefd=False),
            open(1, "w", closefd=False, buffering=1),
            open(2, "w", closefd=False, buffering=1))


class Forker:
    """Where replacement workers come from: a clean process that forks one on request
    (`start_worker`) and answers with its pid over `sock`, a SOCK_SEQPACKET socket."""

    sock: "Any" = None  # a _socket.socket (SOCK_SEQPACKET); None once closed
    check: "Any" = None
    """Warm: how the harness answers the server's `check` before a replacement (whether
    any process but the two of them is left, killed: `harness._kill_others`)."""

    def start_worker(self, fds: "tuple[int, ...]", deadline: "float | None" = None) -> int:
        """Fork a worker on the harness's four pipe ends (`worker_main`'s arguments); its
        pid. The forker reaps the previous worker (which the harness has killed) first, so
        the two never overlap, and not before: until then the pid cannot be reused. Warm,
        the server first ends and reaps every process the dead worker left, asking this
        harness (`check`) until none is (`warm_server.fork_worker`); cold the harness has
        done so (`harness.end_left`)."""
        send_fds(self.sock, b"worker", fds)
        return self.wait(deadline)

    def end_others(self) -> bytes:
        """Cold: have the zygote reap the worker it forked last (the harness has killed it)
        and any other exited child of its, and SIGKILL every process of the jail but itself
        and the harness (pid 1): b"busy" if there was one (zombies count, until the harness
        reaps them), else b"clean" (`harness.end_left`, `harness_wire.reap_left`); b""
        when the zygote is gone."""
        self.sock.send(b"check")
        return self.sock.recv(64)

    def wait(self, deadline: "float | None" = None) -> int:
        """The next number from the forker: a worker's pid. Past `deadline` (a forker the
        program stopped with SIGSTOP), TestTimeout."""
        while True:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                    raise TestTimeout()
            reply = self.sock.recv(64)
            if not reply:
                raise WorkerGone("the zygote died")
            if reply != b"check" or self.check is None:
                return int(reply)
            self.sock.send(b"busy" if self.check() else b"clean")


class ServerForker(Forker):
    """Warm mode's forker of assert/check workers: the warm server itself (pid 1 of the
    jail, which never reads a program or its tests), asked over the socket it handed this
    run at `fd`. Nothing is forked until a worker crashes or times out, so a program whose
    first worker lives through its tests costs no zygote."""

    def __init__(self, fd: int, check: "Any" = None) -> None:
        import _socket  # not socket.py: it imports enum & co

        self.sock = _socket.socket(fileno=fd)
        self.check = check


class Zygote(Forker):
    """A clean fork of this process, taken before the tests are read or the program runs:
    for assert/check tests in a cold jail it forks the replacement of a worker that crashed
    or timed out (`start_worker`), which loads the program afresh. Its memory holds no
    tests, and it never runs program code, so a replacement worker has none of the dead
    worker's state."""

    def __init__(self) -> None:
        import _socket  # not socket.py: it imports enum & co

        self.sock, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        note_fork()
        self.pid = os.fork()
        if self.pid == 0:
            self.sock.close()
            forked(zygote_main, theirs, status=0)
        theirs.close()


def send_fds(sock: "Any", message: bytes, fds: "Sequence[int]") -> None:
    """`message` with the file descriptors `fds` (socket.send_fds without importing
    socket.py). Also the warm server's, which imports this module."""
    import _socket

    sock.sendmsg([message], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS,
                              _struct.pack(f"{len(fds)}i", *fds))])


def recv_fds(sock: "Any", count: int, max_bytes: int = 64) -> "tuple[bytes, list[int]]":
    """A message of up to `max_bytes` and up to `count` fds sent with it (socket.recv_fds without
    importing socket.py). Also the warm server's, which imports this module."""
    import _socket

    size = _struct.calcsize("i")
    message, ancillary, _, _ = sock.recvmsg(max_bytes, _socket.CMSG_LEN(count * size))
    fds: list[int] = []
    for level, kind, data in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            n = len(data) // size
            fds.extend(_struct.unpack(f"{n}i", data[:n * size]))
    return message, fds


def zygote_main(sock: "Any") -> None:
    null = os.open("/dev/null", os.O_RDWR)
    for target in (0, 1, 2):
        os.dup2(null, target)
    keep = sock.fileno()
    os.closerange(3, keep)
    os.closerange(keep + 1, 4096)
    worker = None  # the last worker forked: reaped when the next one is asked for
    while True:
        try:
            message, fds = recv_fds(sock, 4)
        except OSError:
            return
        if not message:
            return
        if worker is not None:  # the harness killed it before asking for its replacement
            os.waitpid(worker, 0)  # (or for the end of what it left: `end_others`)
            worker = None
        # and any other child that has exited: none should be (seccomp refuses the
        # CLONE_PARENT that would make a worker's child this process's, `_jail.
        # SECCOMP_POLICY`), but one would be a zombie its kill(-1) counts for ever
        reap_exited()
        if message == b"check":  # `kill(-1)` spares this process and pid 1 (the harness)
            for fd in fds:
                os.close(fd)
            sock.send(b"busy" if kill_others() else b"clean")
            continue
        pid = os.fork()
        if pid == 0:
            forked(replacement_worker, fds, status=0)
        for fd in fds:
            os.close(fd)
        sock.send(str(pid).encode())
        worker = pid


def go_on(run: "Any", *args: "Any") -> "NoReturn":
    """Go on with `run(*args)` from run.py's top level (`Then`)."""
    raise Then(run, *args)


def replacement_worker(fds: "Sequence[int]") -> "NoReturn":
    """A replacement worker, forked by the zygote: the program uid, then `serve_worker`."""
    enter_program()
    go_on(serve_worker, fds)


def serve_worker(fds: "Sequence[int]", streams: "tuple[Any, Any, Any] | None" = None,
                 source: "str | None" = None) -> "NoReturn":
    """An assert/check worker (`worker_main`, which closes every other fd first, on the
    four pipe ends `fds`), then the end of its process, nothing of the interpreter's."""
    try:
        worker_main(*fds, streams=streams, source=source)
    finally:
        os._exit(0)


def program_main(source: "str | None") -> "NoReturn":
    """A plain program's process: `python3 main.py` (`run_main`, `finish`)."""
    try:
        code = run_main(source)
        finish(code)
    except BaseException:  # noqa: BLE001  (the harness's failure: no program's status)
        os._exit(70)
