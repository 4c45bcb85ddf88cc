"""Red team (rtsb5) of merge 7538249 (h-sb4, issue #38): a warm program is forked from its
server and starts from a cold interpreter's import system by construction
(`harness_program.as_cold`, restoring run.py's `COLD` snapshot), so that a warm run's
verdict equals a cold run's (docs/sandbox.md, warm mode and its known differences).

What: (1) programs whose verdict or output differs warm and cold (plain runs, stdin/stdout
tests, assert tests, and the code reward), beyond the documented differences; (2) tampering
with the judge from inside the forked child (gc, frames, `sys.modules` remnants, the `COLD`
snapshot, the worker's channel); (3) state one program leaves for the next on the same warm
server, or anywhere on the machine, and programs that try to stop the server for the next
sample; (4) exit and output forgery in the warm child (`run_main`, `exit_status`, `finish`).
How: each program runs warm and cold with the same limits and the two are compared (cold
plain runs are `python3 -E -s -S main.py` itself); held attacks are plain tests, open holes
strict xfails naming the function at their root."""

from __future__ import annotations

import dataclasses
import json
import os
import secrets

import pytest
from sandbox_probes import SHORT

import sandbox
from sandbox import _warm
from sandbox._runner import Mode

pytestmark = pytest.mark.usefixtures("sandbox_ready")

MODES: tuple[Mode, Mode] = ("cold", "warm")
LIMITS = dataclasses.replace(SHORT, wall_s=5.0, test_wall_s=2.0)


def both(code: str, stdin: str = "") -> tuple[sandbox.Execution, sandbox.Execution]:
    cold, warm = (sandbox.run(code, stdin=stdin, limits=LIMITS, mode=mode) for mode in MODES)
    return cold, warm


def seen(ex: sandbox.Execution) -> tuple[object, ...]:
    return ex.status, ex.exit_code, ex.stdout, ex.stderr


def io_passed(code: str, tests: list[dict[str, str]]) -> list[int]:
    """Tests passed by `code`'s stdin/stdout tests, cold then warm."""
    return [sandbox.run_tests(code, tests, limits=LIMITS, mode=mode).passed for mode in MODES]


def fn_report(code: str, tests: list[str], mode: Mode) -> sandbox.TestReport:
    return sandbox.run_tests(code, tests, limits=LIMITS, mode=mode)


def holes(table: dict[str, tuple[str, str]], prefix: str) -> list[object]:
    """The names of `table` (code, why) as parameters, each a strict xfail naming its root."""
    return [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=f"{prefix}: {why}"))
            for name, (_, why) in sorted(table.items())]


def hold_on() -> None:
    """Skip where warm runs of tests are not held on one CPU (one CPU, SANDBOX_PIN_RUNS=0)."""
    if not _warm.hold_runs():
        pytest.skip("warm runs of tests are not held on one CPU here")


# --- 1. warm/cold divergence: what a program sees of its process ---------------------------

# each prints one aspect of the interpreter and process a program starts in
ASPECTS = {
    "sys hooks and settings": (
        "import sys\nprint([getattr(sys, n) is getattr(sys, '__' + n + '__') for n in"
        " ('excepthook', 'displayhook', 'breakpointhook', 'unraisablehook')],"
        " sys.getrecursionlimit(), sys.getswitchinterval(), sys.gettrace(), sys.getprofile(),"
        " sys.get_int_max_str_digits(), sys.flags, sys.warnoptions, sys._xoptions,"
        " sys.dont_write_bytecode, sys.exc_info(), [hasattr(sys, n) for n in"
        " ('last_type', 'ps1', 'tracebacklimit')], sys.get_asyncgen_hooks())\n"),
    "builtins": ("import builtins\nprint(sorted((k, type(v).__name__)"
                 " for k, v in vars(builtins).items()))\n"),
    "signal dispositions, mask, timers": (
        "import signal\nprint([(int(s), str(signal.getsignal(s))) for s in"
        " sorted(signal.valid_signals()) if s not in (signal.SIGKILL, signal.SIGSTOP)],"
        " sorted(map(int, signal.pthread_sigmask(signal.SIG_BLOCK, []))),"
        " sorted(map(int, signal.sigpending())), signal.getitimer(signal.ITIMER_REAL),"
        " signal.set_wakeup_fd(-1))\n"),
    "umask, environment, folder, groups": (
        "import os\nu = os.umask(0)\nprint(oct(u), sorted(os.environ.items()), os.getcwd(),"
        " os.getgroups(), os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0))\n"),
    "rlimits": ("import resource\nprint([(n, resource.getrlimit(getattr(resource, n)))"
                " for n in sorted(dir(resource)) if n.startswith('RLIMIT_')])\n"),
    "open descriptors": (
        "import os, stat, fcntl\nfds = []\nfor fd in range(70000):\n    try:\n"
        "        s = os.fstat(fd)\n    except OSError:\n        continue\n"
        "    fds.append((fd, stat.S_IFMT(s.st_mode), os.get_inheritable(fd),"
        " fcntl.fcntl(fd, fcntl.F_GETFL), fcntl.fcntl(fd, fcntl.F_GETFD)))\nprint(fds)\n"),
    "gc, warnings, codec and zip caches": (
        "import gc, _warnings, encodings, zipimport\nprint(gc.isenabled(), gc.get_threshold(),"
        " gc.get_debug(), _warnings.filters, _warnings._defaultaction,"
        " len(_warnings._onceregistry), sorted(encodings._cache),"
        " sorted(zipimport._zip_directory_cache))\n"),
    "codec lookups import as cold": (
        "import sys\nfor name in ('latin-1', 'ascii', 'cp1252', 'idna', 'utf-16'):\n"
        "    'x'.encode(name)\nprint(sorted(m for m in sys.modules if m.startswith('encodings')))\n"),
    "the import system": (
        "import sys\nprint(sorted(sys.modules), sys.path, sorted(sys.path_importer_cache),"
        " [type(f).__name__ for f in sys.meta_path],"
        " [getattr(h, '__qualname__', type(h).__name__) for h in sys.path_hooks])\n"),
    "standard streams": (
        "import sys\nfor s in (sys.stdin, sys.stdout, sys.stderr):\n"
        "    print(s.encoding, s.errors, s.line_buffering, s.write_through,"
        " type(s.buffer).__name__, s.buffer.raw.name, s.fileno(), s.isatty(), s.seekable(),"
        " s._CHUNK_SIZE)\n"),
    "threads and exit hooks": (
        "import threading, atexit, faulthandler\nprint(threading.active_count(),"
        " atexit._ncallbacks(), faulthandler.is_enabled(), threading.main_thread().name)\n"),
    "written module and bytecode cache": (
        "import os, sys\nopen('mod5.py', 'w').write('X = 5\\n')\nimport mod5\n"
        "print(mod5.X, sorted(os.listdir('/work')), sorted(os.listdir('/work/__pycache__')))\n"),
}


@pytest.mark.parametrize("name", sorted(ASPECTS))
def test_a_plain_program_sees_its_process_as_cold(name: str) -> None:
    """Its rlimits too since h-uid (a strict xfail before: the cold init, pid 1, was the
    program's uid and counted in RLIMIT_NPROC, one more cold): the init is another uid and
    its child takes the init's own process off the limit before the exec (`_in_jail/init.py`)."""
    cold, warm = both(ASPECTS[name])
    assert cold.status == "ok", cold
    assert seen(warm) == seen(cold), (warm, cold)


@pytest.mark.parametrize("name", sorted(set(ASPECTS) - {"rlimits"}))
def test_a_stdin_stdout_test_sees_its_process_as_cold(name: str) -> None:
    """A stdin/stdout test's process (forked from a zygote, warm and cold alike) expects
    what a cold plain run printed. (Not its rlimits: a warm test's process count is its
    uid's alone, harness_wire.PROGRAM_NPROC; `test_a_process_count_reads_as_cold`.)"""
    expected = sandbox.run(ASPECTS[name], limits=LIMITS, mode="cold").stdout
    reports = [sandbox.run_tests(ASPECTS[name], [{"input": "", "output": expected}],
                                 limits=LIMITS, mode=mode) for mode in MODES]
    assert [r.passed for r in reports] == [1, 1], [r.results[0].message for r in reports]


def _function_sees(names: list[str]) -> list[sandbox.TestReport]:
    """The aspects `names` printed from inside the function under test, cold then warm."""
    body = "".join(f"    exec({ASPECTS[n]!r}, {{}})\n" for n in names)
    code = "def f():\n" + body + "    return 1\n"
    return [fn_report(code, ["assert f() == 1"], mode) for mode in MODES]


def test_a_function_test_sees_its_process_as_cold() -> None:
    """The same aspects printed from inside the function under test (a cold worker forked
    from its harness, a warm one from the server): both modes print the same. (Not its
    rlimits: `test_a_function_tests_rlimits_read_as_cold`.)"""
    reports = _function_sees([n for n in sorted(ASPECTS) if n not in (
        "written module and bytecode cache", "rlimits")])
    assert reports[0].passed == 1, reports[0]
    assert reports[1].execution.stdout == reports[0].execution.stdout


def test_a_function_tests_rlimits_read_as_cold() -> None:
    """Held since the cold harness took a uid of its own (a strict xfail before: the cold
    jail counted the harness and its zygote, the program's uid, in RLIMIT_NPROC, so a cold
    worker read processes + 2): each worker takes PROGRAM_UID and the program's own count
    (`harness.apart`, `enter_program`), as a warm one does."""
    reports = _function_sees(["rlimits"])
    assert reports[0].passed == 1, reports[0]
    assert reports[1].execution.stdout == reports[0].execution.stdout


def test_a_process_count_reads_as_cold() -> None:
    """Processes a stdin/stdout test's program may start until EAGAIN: as many warm (its
    own uid's count) as cold (the jail's, less the harness and zygote)."""
    code = ("import os\nn = 0\nkids = []\nwhile n < 100:\n    try:\n        pid = os.fork()\n"
            "    except OSError:\n        break\n    if pid == 0:\n        import time\n"
            "        time.sleep(5)\n        os._exit(0)\n    kids.append(pid)\n    n += 1\n"
            "for k in kids:\n    os.kill(k, 9)\n    os.waitpid(k, 0)\nprint(n)\n")
    expected = sandbox.run_tests(code, [{"input": "", "output": "-"}], limits=LIMITS,
                                 mode="cold").results[0].message
    got = sandbox.run_tests(code, [{"input": "", "output": "-"}], limits=LIMITS,
                            mode="warm").results[0].message
    assert got == expected


def test_a_stdin_stdout_program_sees_the_cpus_it_sees_cold() -> None:
    hold_on()
    code = "import os\nprint(len(os.sched_getaffinity(0)))\n"
    expected = sandbox.run(code, limits=LIMITS, mode="cold").stdout
    assert io_passed(code, [{"input": "", "output": expected}]) == [1, 1]


def test_a_function_sees_the_cpus_it_sees_cold() -> None:
    hold_on()
    cpus = len(os.sched_getaffinity(0))
    code = "import os\ndef f():\n    return len(os.sched_getaffinity(0))\n"
    passed = [fn_report(code, [f"assert f() == {cpus}"], mode).passed for mode in MODES]
    assert passed == [1, 1], passed


# reach(): how many frames below itself a call from here fits; count(n) takes n + 1
DEPTH = ("import sys\ndef reach():\n    def down(n):\n        try:\n            return down(n + 1)\n"
         "        except RecursionError:\n            return n\n    return down(0)\n"
         "def count(n):\n    return 0 if n == 0 else 1 + count(n - 1)\n")


def deepest_call() -> int:
    """The largest n for which `count(n)`, called by a cold assert test, fits (reach()
    called by the test directly: its frames are where count's start)."""
    probe = fn_report(DEPTH + "print_reach = lambda: print(reach() + 2)\n",
                      ["assert print_reach() is None"], "cold")
    return int(probe.execution.stdout)


def test_a_function_recursing_as_deep_as_it_fits_cold_fits_warm() -> None:
    depth = deepest_call()
    tests = [f"assert count({depth}) == {depth}", f"assert count({depth + 1}) == {depth + 1}"]
    outcomes = [[r.outcome for r in fn_report(DEPTH, tests, mode).results] for mode in MODES]
    assert outcomes[0] == ["pass", "error"], outcomes  # the deepest that fits cold
    assert outcomes[1] == outcomes[0], (depth, outcomes)


def test_a_stdin_stdout_recursion_as_deep_as_it_fits_cold_fits_warm() -> None:
    code = DEPTH + "line = input()\nprint(reach() + 1 if line == 'probe' else count(int(line)))\n"
    probe = sandbox.run_tests(code, [{"input": "probe\n", "output": "-"}], limits=LIMITS,
                              mode="cold").execution.stdout
    depth = int(probe)
    tests = [{"input": f"{n}\n", "output": f"{n}\n"} for n in (depth, depth + 1)]
    cold, warm = (sandbox.run_tests(code, tests, limits=LIMITS, mode=mode) for mode in MODES)
    assert [r.outcome for r in cold.results] == ["pass", "error"], cold  # deepest that fits
    assert [r.outcome for r in warm.results] == ["pass", "error"], warm


def test_a_function_sees_the_main_module_it_sees_cold() -> None:
    code = ("import __main__\ndef f():\n"
            "    return sorted(n for n in vars(__main__) if not n.startswith('__'))\n")
    names = [fn_report(code + "print(f())\n", ["assert f() is None"], mode).execution.stdout
             for mode in MODES]
    assert names[1] == names[0], names


PLAIN_HOLES = {
    "a frame above the program": (
        ("import sys\ntry:\n    sys._getframe(1)\n    print('caller')\nexcept ValueError:\n"
        "    print('top')\n"),
        ("warm_server.child calls run_main: sys._getframe(1) at a plain program's top level "
        "is run_main's frame warm, ValueError cold (the documented recursion depth is the "
        "same root; here stdout differs)")),
    "a session of its own": (
        ("import os\ntry:\n    os.setsid()\n    print('did')\nexcept OSError as e:\n"
        "    print(type(e).__name__)\n"),
        ("warm_server.child: cold the program is its jail's pid 1 and a session leader "
        "(os.setsid raises PermissionError), warm a forked child that is not (it succeeds)")),
    "the harness folder": (
        ("import os\nprint(os.path.exists('/harness'), sorted(os.listdir('/')))\n"),
        ("_warm's server jail binds /harness (the server's code, readable) where a cold plain "
         "run's jail has no such folder")),
    "an exception whose with_traceback raises": (
        ("class E(Exception):\n    def with_traceback(self, tb):\n        raise ValueError\n"
         "try:\n    raise E('e')\nexcept E:\n    print('caught')\nraise E('e')\n"),
        ("harness_program.run_main calls the program's with_traceback (and sys.excepthook) "
         "unguarded: the error escapes into warm_server.child's `os._exit(70)`: no traceback, "
         "and what the program printed before is lost; python3 prints both, exits 1")),
    "the original standard streams": (
        ("import sys\nprint(sys.stdout is sys.__stdout__, sys.__stdin__.seekable(),"
        " sys.__stdout__.seekable())\n"),
        ("warm_server.child: sys.__stdin__/__stdout__ are the server's own streams, made at "
        "its start (seekable True), not the program's (`fresh_stdio` replaces sys.stdout "
        "only)")),
}


OPEN_PLAIN_HOLES = {"a frame above the program"}


@pytest.mark.parametrize("name", [
    *holes({n: PLAIN_HOLES[n] for n in OPEN_PLAIN_HOLES}, "open: warm/cold divergence"),
    *sorted(set(PLAIN_HOLES) - OPEN_PLAIN_HOLES)])
def test_a_plain_program_reads_as_cold_where_as_cold_does_not_reach(name: str) -> None:
    """(The reasons of the closed ones say what their roots were.)"""
    cold, warm = both(PLAIN_HOLES[name][0])
    assert cold.stdout, cold
    assert seen(warm) == seen(cold), (warm, cold)


PROGRAM_USES = {
    "a process pool": (
        "import multiprocessing as mp\ntry:\n    with mp.Pool(2) as p:\n"
        "        print(p.map(abs, [-1, -2]))\nexcept OSError as e:\n"
        "    print(type(e).__name__, e.errno)\n"),
    "a fresh interpreter": (
        "import subprocess, sys\nprint(subprocess.run([sys.executable, '-c',"
        " 'import sys; print(sys.argv, sorted(sys.modules)[:3])'], capture_output=True,"
        " text=True).stdout)\n"),
    "the original stdin": "import sys\nprint(sys.__stdin__.read()[::-1])\n",
    "a timer's handler": (
        "import signal, time\nsignal.signal(signal.SIGALRM, lambda *a: print('alarm'))\n"
        "signal.setitimer(signal.ITIMER_REAL, 0.05)\ntime.sleep(0.3)\nprint('end')\n"),
    "a forked child that prints and exits": (
        "import os, sys\npid = os.fork()\nif pid == 0:\n    print('child')\n    sys.exit(0)\n"
        "os.waitpid(pid, 0)\nprint('parent')\n"),
    "a daemon thread still running at the end": (
        "import threading, time\nthreading.Thread(target=lambda: (time.sleep(0.2),"
        " print('late')), daemon=True).start()\nprint('main')\n"),
}


@pytest.mark.parametrize("name", sorted(PROGRAM_USES))
def test_processes_threads_and_signals_of_a_program_read_as_cold(name: str) -> None:
    code = PROGRAM_USES[name]
    cold, warm = both(code, stdin="abc")
    assert cold.status == "ok", cold
    assert seen(warm) == seen(cold), (warm, cold)
    assert io_passed(code, [{"input": "abc", "output": cold.stdout}]) == [1, 1]


# --- 2. tampering with the judge from inside the forked child ------------------------------

# every str and bytes two references from an object gc tracks (containers of atomic values
# only are untracked), the server's frozen ones and the frames above the caller included
SCAN = ("import gc, sys\ndef scan(prefix):\n"
        "    roots = gc.get_objects() + gc.get_referents(*gc.get_objects())\n"
        "    f = sys._getframe()\n    while f is not None:\n"
        "        roots += [f.f_locals, f.f_globals]\n        f = f.f_back\n"
        "    for o in roots:\n        for r in gc.get_referents(o):\n"
        "            if r is prefix:\n                continue\n"
        "            if isinstance(r, bytes):\n                r = r.decode('latin-1')\n"
        "            if isinstance(r, str) and prefix in r and r != prefix:\n"
        "                return r[r.index(prefix):][:40]\n    return 'none'\n"
        "PREFIX = 'XSEC' + 'RETX-'\n")


def test_a_worker_finds_no_expected_value_in_its_memory() -> None:
    """The function under test searches every object it can reach (the program's, its
    forked server's or harness's) for the test's expected value: never there, warm or
    cold; nor an earlier run's tests on the same server."""
    code = SCAN + "def f():\n    return scan(PREFIX)\n"
    held = fn_report(SCAN + "HELD = {'k': PREFIX + 'own'}\n" + code[len(SCAN):],
                     ["assert f() == 'XSECRETX-own'"], "warm")
    assert held.passed == 1, held  # the scan finds what is there
    for mode in MODES:
        earlier = "XSECRETX-" + secrets.token_hex(6)
        fn_report("def f():\n    return 1\n", [f"assert f() != {earlier!r}"], mode)
        token = "XSECRETX-" + secrets.token_hex(6)
        report = fn_report(code, [f"assert f() == {token!r}", f"assert f() == {earlier!r}",
                                  "assert f() == 'none'"], mode)
        assert [r.outcome for r in report.results] == ["fail", "fail", "pass"], (mode, report)


def test_a_stdin_stdout_program_finds_no_expected_output_in_its_memory() -> None:
    code = SCAN + "print(scan(PREFIX))\n"
    token = "XSECRETX-" + secrets.token_hex(6)
    assert io_passed(code, [{"input": "", "output": token},
                            {"input": "", "output": "none"}]) == [1, 1]


def test_a_plain_program_finds_no_earlier_runs_input_or_code() -> None:
    """An earlier run's program text and stdin on the same warm server: nowhere in the
    memory the next program is forked from."""
    token = "XSECRETX-" + secrets.token_hex(6)
    for mode in MODES:
        before = sandbox.run(f"x = {token!r}\nprint(input())", stdin=token, limits=LIMITS,
                             mode=mode)
        assert before.stdout == token + "\n", before
        after = sandbox.run(SCAN + "print(scan(PREFIX))\n", limits=LIMITS, mode=mode)
        assert (after.status, after.stdout) == ("ok", "none\n"), (mode, after)


TAMPER_COLD = r"""
import gc, os, sys
def tamper():
    found = set()
    # run.py's COLD snapshot, the finders it restores, and the harness's own modules,
    # reached without an import: through the frames above the program and gc
    frames, f = [], sys._getframe()
    while f is not None:
        frames.append(f.f_globals)
        f = f.f_back
    for o in frames + gc.get_objects():
        if isinstance(o, dict) and "COLD" in o and isinstance(o["COLD"], tuple):
            found.add("COLD")
            names, meta, hooks, path, importers = o["COLD"]
            names.discard("builtins")
            names.add("json")
            path.insert(0, "/tmp")
            for finder, state in importers.values():
                if state:
                    state["path"] = "/tmp"
        if isinstance(o, dict) and "as_cold" in o and "run_main" in o:
            found.add("as_cold")
            o["as_cold"] = lambda *a, **k: None
            o["exit_status"] = lambda exc: 0
    f = sys._getframe()
    while f is not None:
        for v in list(f.f_globals.values()):
            if type(v) is type(sys) and getattr(v, "COLD", None) is not None:
                v.COLD[0].clear()
        f = f.f_back
    os.makedirs("/tmp/json", exist_ok=True)
    open("/tmp/json/__init__.py", "w").write("def dumps(x):\n    return 'FORGED'\n")
    open("/work/flag", "w").close()
    return found == {"COLD", "as_cold"}
"""
CHECK_COLD = ("import json, sys\n"
              "print(json.dumps([1]), json.__file__.startswith('/usr/'), '/tmp' in sys.path)\n")


def test_a_tampered_cold_snapshot_reaches_no_later_test_process() -> None:
    """Test 1's process looks for the COLD snapshot and the harness module's as_cold and
    exit_status to patch (found while it was a fork of a zygote; since h-sb10 it is an
    exec of python3 main.py, which holds nothing of the harness: False), and leaves a
    shadowing json package in /tmp; test 2's process starts as cold as ever."""
    code = (TAMPER_COLD + "if sys.stdin.read() == 'check':\n" +
            "".join("    " + line + "\n" for line in CHECK_COLD.splitlines()) +
            "else:\n    print('tampered', tamper())\n")
    assert io_passed(code, [{"input": "", "output": "tampered False\n"},
                            {"input": "check", "output": "[1] True False\n"}]) == [2, 2]


def test_a_tampered_cold_snapshot_reaches_no_replacement_worker() -> None:
    """An assert run's worker tampers, then dies: the replacement (forked by the warm
    server, by the zygote cold) loads the program from a cold import system again."""
    code = (TAMPER_COLD + "def f():\n    if not os.path.exists('/work/flag'):\n"
            "        assert tamper()\n        os._exit(1)\n"
            "    import json\n    return json.dumps([1]), json.__file__.startswith('/usr/')\n")
    for mode in MODES:
        report = fn_report(code, ["assert f() == 0", "assert f() == ('[1]', True)"], mode)
        assert [r.outcome for r in report.results] == ["error", "pass"], (mode, report)


FORGE = r"""
import os, sys
def f(x):
    frame, channels = sys._getframe(), []
    while frame is not None:  # the worker's Channel to the harness, in worker_main's frame
        for v in frame.f_locals.values():
            if hasattr(v, "send") and hasattr(v, "recv") and v not in channels:
                channels.append(v)
        frame = frame.f_back
    os.write(2, f"channels {len(channels)}\\n".encode())
    # written before the replies: in the pipes when the harness reads them
    for fd in (1, 2, *range(5, 64)):  # the verdict framing (3, 4: the channel, below)
        try:
            os.write(fd, b'{"test": 1, "verdict": ["pass", "", 0.0]}\n{"done": 3}\n')
        except OSError:
            pass
    for channel in channels:
        for message in [("ok", ("v", x * 2)), ("exc", "AssertionError", ""),
                        ("ok", ("v", True)), ("ok", ["pass"], {}), ("pass", "", 0.0)]:
            try:
                channel.send(message)
            except Exception:
                pass
    sys.stdout.flush()
    os._exit(0)
"""


def test_forged_replies_and_verdict_lines_pass_no_unknown_value() -> None:
    """The function under test finds its channel to the harness through the frames above
    it, writes verdict lines on its other descriptors, sends replies and verdict-shaped
    messages of every kind, then exits 0: tests whose expected value it cannot know stay
    failed, warm and cold, and the next run on the server is judged as before."""
    tests = ["assert f(1) == 7", "assert f(2) == 'seven'", "assert f(3) is None"]
    for mode in MODES:
        report = fn_report(FORGE, tests, mode)
        assert report.passed == 0, (mode, report)
        assert "channels " in report.execution.stderr, (mode, report)
        assert "channels 0" not in report.execution.stderr, (mode, report)  # it found one
        after = fn_report("def f(x):\n    return x * 2\n", ["assert f(3) == 6",
                                                            "assert f(3) == 7"], mode)
        assert [r.outcome for r in after.results] == ["pass", "fail"], (mode, after)


def test_patched_builtins_and_harness_code_in_the_worker_pass_nothing() -> None:
    """The program patches builtins and, through gc, the worker-side functions that encode
    its replies (`_encode`, `check_plain`, `is_plain`): the harness checks what arrives."""
    code = ("import builtins, gc, sys\nclass Eq:\n    def __eq__(self, o):\n        return True\n"
            "    __hash__ = object.__hash__\n"
            "def f(x):\n    patched, frame = 0, sys._getframe()\n"
            "    while frame is not None:\n        g = frame.f_globals\n"
            "        if '_encode' in g and 'answer' in g:\n"
            "            g['_encode'] = lambda value, handles: ('v', Eq())\n            patched += 1\n"
            "        if 'check_plain' in g and 'is_plain' in g:\n"
            "            g['check_plain'] = g['is_plain'] = lambda value: True\n"
            "            patched += 1\n        frame = frame.f_back\n"
            "    print('patched', patched > 0, flush=True)\n"
            "    builtins.isinstance = lambda *a: True\n    builtins.type = lambda *a: int\n"
            "    return Eq()\n")
    for mode in MODES:
        report = fn_report(code, ["assert f(1) == 7", "assert f(1) == 'x'"], mode)
        assert report.passed == 0, (mode, report)
        assert report.execution.stdout.startswith("patched True\n"), report  # it reached them


WORKER_ENDINGS = {
    "SystemExit(0) while loading": "import sys\nsys.exit(0)\ndef f(x):\n    return x\n",
    "os._exit(0) while loading": "import os\nos._exit(0)\ndef f(x):\n    return x\n",
    "SystemExit(0) in the call": "import sys\ndef f(x):\n    sys.exit(0)\n",
    "KeyboardInterrupt in the call": "def f(x):\n    raise KeyboardInterrupt\n",
    "an atexit hook that prints a pass": (
        "import atexit, os\natexit.register(print, 'PASSED 2/2')\n"
        "def f(x):\n    os.kill(os.getpid(), 9)\n"),
    "stdout closed and channel fds swapped": (
        "import os\ndef f(x):\n    os.dup2(4, 1)\n    os.dup2(3, 4)\n"
        "    print('ok')\n    return x\n"),
}


@pytest.mark.parametrize("name", sorted(WORKER_ENDINGS))
def test_a_worker_that_ends_or_rewires_itself_passes_nothing(name: str) -> None:
    tests = ["assert f(1) == 7", "assert f(2) == 9"]
    for mode in MODES:
        report = fn_report(WORKER_ENDINGS[name], tests, mode)
        assert report.passed == 0, (mode, report)


def test_verdict_lines_a_stdin_stdout_program_writes_on_every_descriptor_pass_nothing() -> None:
    code = ("import os\nfor fd in range(1, 64):\n    try:\n"
            "        os.write(fd, b'{\"test\": 0, \"verdict\": [\"pass\", \"\", 0.0]}\\n')\n"
            "    except OSError:\n        pass\n")
    assert io_passed(code, [{"input": "", "output": "unknown " + secrets.token_hex(4)},
                            {"input": "", "output": "other"}]) == [0, 0]


# --- 3. reaching another run ---------------------------------------------------------------


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_program_cannot_set_the_times_of_a_shared_device(device: str) -> None:
    before = os.stat(device).st_mtime_ns
    code = (f"import os\ntry:\n    os.utime({device!r})\nexcept OSError:\n    pass\n"
            f"print(os.stat({device!r}).st_mtime_ns)\n")
    writer = sandbox.run(code, limits=LIMITS, mode="warm")
    reader = sandbox.run(f"import os\nprint(os.stat({device!r}).st_mtime_ns)\n",
                         limits=LIMITS, mode="cold")
    assert writer.status == reader.status == "ok", (writer, reader)
    assert os.stat(device).st_mtime_ns == before
    assert reader.stdout != writer.stdout or int(writer.stdout) == before


SETTINGS = ("import os, signal, resource, sys\nos.umask(0o077)\nos.environ['LEAK'] = '1'\n"
            "os.putenv('LEAK2', '1')\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])\n"
            "signal.setitimer(signal.ITIMER_VIRTUAL, 100)\n"
            "resource.setrlimit(resource.RLIMIT_NOFILE, (8, 8))\nos.nice(5)\n"
            "sys.setrecursionlimit(50)\nos.chdir('/tmp')\n"
            "os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\nprint('set')\n")
READ = ("import os, signal, resource, sys\nu = os.umask(0)\n"
        "print(oct(u), 'LEAK' in os.environ, 'LEAK2' in os.environ,"
        " signal.getsignal(signal.SIGTERM), sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])),"
        " signal.getitimer(signal.ITIMER_VIRTUAL), resource.getrlimit(resource.RLIMIT_NOFILE),"
        " os.nice(0), sys.getrecursionlimit(), os.getcwd(), len(os.sched_getaffinity(0)))\n")


def test_process_settings_of_a_program_reach_no_later_run() -> None:
    honest = sandbox.run(READ, limits=LIMITS, mode="warm")
    assert honest.status == "ok", honest
    for _ in range(2):
        assert sandbox.run(SETTINGS, limits=LIMITS, mode="warm").stdout == "set\n"
        after = sandbox.run(READ, limits=LIMITS, mode="warm")
        assert seen(after) == seen(honest), (after, honest)


def test_settings_of_one_stdin_stdout_test_reach_no_later_test() -> None:
    read = READ.replace(", len(os.sched_getaffinity(0))", "")  # held warm: see above
    # test 2 is told by its input (h-sb12: a file test 1 writes is gone before test 2)
    code = ("import sys\nif sys.stdin.read() == 'check':\n" +
            "".join("    " + line + "\n" for line in read.splitlines()) +
            "else:\n" +
            "".join("    " + line + "\n" for line in SETTINGS.splitlines()))
    first = sandbox.run_tests(code, [{"input": "", "output": "set\n"},
                                     {"input": "check", "output": "-"}],
                              limits=LIMITS, mode="cold")
    expected = first.results[1].message.split("got ", 1)[1]
    assert first.results[0].passed, first
    for mode in MODES:
        report = sandbox.run_tests(code, [{"input": "", "output": "set\n"},
                                          {"input": "check", "output": "-"}], limits=LIMITS,
                                   mode=mode)
        assert report.results[1].message.split("got ", 1)[1] == expected, (mode, report)


def test_no_message_queue_folder_and_a_private_dev_shm_in_either_mode() -> None:
    """/dev/shm is the jail's own tmpfs (h-sb22: sem_open and shm_open work); no /dev/mqueue
    (mq_open is refused), /run, /proc, /sys or /var/tmp."""
    code = ("import os\nprint([os.path.exists(p) for p in ('/dev/shm', '/dev/mqueue', '/run',"
            " '/proc', '/sys', '/var/tmp')])\n")
    cold, warm = both(code)
    assert cold.stdout == warm.stdout == "[True, False, False, False, False, False]\n", \
        (cold, warm)


def test_an_abstract_socket_a_daemon_keeps_is_gone_for_the_next_run() -> None:
    listener = ("import os, socket, time\nif os.fork() == 0:\n    os.setsid()\n"
                "    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
                "    s.bind('\\0rtsb5-leak')\n    time.sleep(30)\n    os._exit(0)\n"
                "time.sleep(0.3)\nprint('bound')\n")
    probe = ("import socket\ns = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\ntry:\n"
             "    s.sendto(b'x', '\\0rtsb5-leak')\n    print('reached')\n"
             "except OSError as e:\n    print(type(e).__name__)\n")
    for _ in range(2):
        assert sandbox.run(listener, limits=LIMITS, mode="warm").stdout == "bound\n"
        after = sandbox.run(probe, limits=LIMITS, mode="warm")
        assert after.stdout in ("ConnectionRefusedError\n", "FileNotFoundError\n"), after


STALLERS = {
    "a tree nested past the server's recursion": (
        "import os\nos.chdir('/tmp')\nfor _ in range(1200):\n    os.mkdir('d')\n"
        "    os.chdir('d')\nprint('deep')\n"),
    "locked folders": (
        "import os\nfor top in ('/work', '/tmp'):\n    os.makedirs(top + '/a/b/c')\n"
        "    open(top + '/a/b/c/f', 'w').close()\n"
        "    for p in ('/a/b/c', '/a/b', '/a'):\n        os.chmod(top + p, 0)\nprint('locked')\n"),
    "a stopped process group and kill(-1)": (
        "import os, signal\nif os.fork() == 0:\n    os.kill(0, signal.SIGSTOP)\n"
        "for s in (signal.SIGSTOP, signal.SIGTERM):\n    try:\n        os.kill(-1, s)\n"
        "    except OSError:\n        pass\nprint('stopped')\n"),
    "thousands of files": (
        "import os\nfor top in ('/work', '/tmp'):\n    for i in range(1500):\n"
        "        open(f'{top}/f{i}', 'w').close()\nprint('many')\n"),
    "descriptors and fifos left": (
        "import os\nos.mkfifo('/tmp/fifo')\nfds = [os.open('/dev/null', os.O_RDONLY)"
        " for _ in range(40)]\nos.set_inheritable(fds[0], True)\nprint('fifo')\n"),
}


@pytest.mark.parametrize("name", sorted(STALLERS))
def test_a_program_cannot_stop_the_warm_server_for_the_next_sample(name: str) -> None:
    """After each, the next runs of every kind on the pool are judged as before."""
    sandbox.run(STALLERS[name], limits=LIMITS, mode="warm")
    after = sandbox.run("import os\nprint(os.listdir('/work'), os.listdir('/tmp'))\n",
                        limits=LIMITS, mode="warm")
    assert (after.status, after.stdout) == ("ok", "['main.py'] []\n"), after
    tests = fn_report("def f(x):\n    return x + 1\n", ["assert f(1) == 2", "assert f(1) == 3"],
                      "warm")
    assert [r.outcome for r in tests.results] == ["pass", "fail"], tests
    assert io_passed("print(int(input()) * 2)\n", [{"input": "4\n", "output": "8\n"}])[1] == 1


def test_a_stopped_worker_holds_its_run_to_a_timeout_only() -> None:
    code = "import os, signal\ndef f():\n    os.kill(os.getpid(), signal.SIGSTOP)\n"
    report = fn_report(code, ["assert f() is None"], "warm")
    assert report.results[0].outcome == "timeout", report
    after = fn_report("def f():\n    return 1\n", ["assert f() == 1"], "warm")
    assert after.passed == 1, after


# --- 4. exit and output forgery, and output a program loses --------------------------------

EXITS = {
    "SystemExit past a C long": (
        "print('42')\nimport sys\nsys.exit(2**64)\n",
        ("harness_program.exit_status reads SystemExit(2**64) as `code & 0xFF` = 0; python3 "
        "exits 255")),
    "SystemExit of an int subclass": (
        ("print('42')\nimport sys\nclass I(int):\n    def __and__(self, other):\n"
        "        return 0\nsys.exit(I(3))\n"),
        ("harness_program.exit_status calls the program's `__and__` on its exit code (0); "
        "python3 reads the int (3)")),
    "stdout that cannot be flushed at the end": (
        "print('42')\nimport os\nos.close(1)\n",
        ("harness_program.finish swallows a failed flush of sys.stdout and exits 0; python3 "
        "exits 120")),
    "a replaced stdout whose flush raises": (
        ("import sys\nsys.__stdout__.write('42\\n')\nsys.__stdout__.flush()\nclass W:\n"
        "    def write(self, s):\n        return len(s)\n    def flush(self):\n"
        "        raise OSError('full')\nsys.stdout = W()\n"),
        "harness_program.finish swallows the flush's OSError and exits 0; python3 exits 120"),
}


@pytest.mark.parametrize("name", sorted(EXITS))
def test_a_plain_run_ends_with_the_status_python_gives(name: str) -> None:
    cold, warm = both(EXITS[name][0])
    assert cold.status == "runtime_error", cold
    assert warm.status == cold.status, warm


@pytest.mark.parametrize("name", sorted(EXITS))
def test_a_stdin_stdout_test_fails_where_python_fails(name: str) -> None:
    """The test's process ends through run_main and finish in both modes: a program whose
    `python3 main.py` fails (cold plain run) must not pass with the output it printed."""
    code = EXITS[name][0]
    python = sandbox.run(code, limits=LIMITS, mode="cold")
    assert python.status == "runtime_error", python
    assert io_passed(code, [{"input": "", "output": python.stdout}]) == [0, 0]


FINAL_WHY = ("harness_program.finish ends with os._exit after flushing sys.stdout and "
             "sys.stderr only: what python3 writes at its end (objects finalized, other "
             "streams flushed on close) is lost")
FINAL_OUTPUT = {
    "an unflushed file over stdout": (
        "out = open(1, 'w', closefd=False)\nout.write('42\\n')\n", FINAL_WHY),
    "the original stdout after a replaced one": (
        "import io, sys\nsys.stdout = io.StringIO()\nsys.__stdout__.write('42\\n')\n",
        FINAL_WHY),
    "a finalizer of a global": (
        "class A:\n    def __del__(self):\n        print('42')\na = A()\n", FINAL_WHY),
    "a suspended generator's finally": (
        ("def g():\n    try:\n        yield 1\n    finally:\n        print('42')\n"
        "it = g()\nnext(it)\n"), FINAL_WHY),
}


@pytest.mark.parametrize("name", sorted(FINAL_OUTPUT))
def test_output_python_writes_at_its_end_reaches_a_plain_run(name: str) -> None:
    cold, warm = both(FINAL_OUTPUT[name][0])
    assert (cold.status, cold.stdout) == ("ok", "42\n"), cold
    assert warm.stdout == cold.stdout, warm


@pytest.mark.parametrize("name", sorted(FINAL_OUTPUT))
def test_output_python_writes_at_its_end_reaches_a_stdin_stdout_test(name: str) -> None:
    assert io_passed(FINAL_OUTPUT[name][0], [{"input": "", "output": "42\n"}]) == [1, 1]


HONEST_EXITS = {
    "exit()": "print('42')\nimport sys\nsys.exit()\n",
    "exit(0) in atexit": "import atexit, sys\natexit.register(lambda: sys.exit(0))\nprint('42')\n",
    "a thread joined at the end": (
        "import threading, time\ndef w():\n    time.sleep(0.2)\n    print('42')\n"
        "threading.Thread(target=w).start()\n"),
    "stdout replaced by a file over fd 1": (
        "import sys\nsys.stdout = open(1, 'w', closefd=False)\nprint('42')\n"),
    "weakref.finalize": "import weakref\nclass A: pass\na = A()\nweakref.finalize(a, print, '42')\n",
    "exit in a finally": "try:\n    print('42')\nfinally:\n    raise SystemExit(0)\n",
}


@pytest.mark.parametrize("name", sorted(HONEST_EXITS))
def test_an_honest_ending_keeps_its_verdict_in_both_modes(name: str) -> None:
    code = HONEST_EXITS[name]
    cold, warm = both(code)
    assert (cold.status, cold.stdout) == ("ok", "42\n"), cold
    assert (warm.status, warm.exit_code, warm.stdout) == ("ok", 0, "42\n"), warm
    assert io_passed(code, [{"input": "", "output": "42\n"}]) == [1, 1]


FAILING_EXITS = {
    "exit(1)": "print('42')\nraise SystemExit(1)\n",
    "exit text": "print('42')\nimport sys\nsys.exit('no')\n",
    "exit(-1)": "print('42')\nimport sys\nsys.exit(-1)\n",
    "exit(256 + 1)": "print('42')\nimport sys\nsys.exit(257)\n",
    "raise after output": "print('42')\nraise ValueError\n",
    "excepthook that swallows": (
        "import sys\nsys.excepthook = lambda *a: None\nprint('42')\nraise ValueError\n"),
    "SIGKILL of itself": "import os\nprint('42', flush=True)\nos.kill(os.getpid(), 9)\n",
}


@pytest.mark.parametrize("name", sorted(FAILING_EXITS))
def test_a_failing_ending_fails_its_stdin_stdout_test_in_both_modes(name: str) -> None:
    assert io_passed(FAILING_EXITS[name], [{"input": "", "output": "42\n"}]) == [0, 0]


# --- the code reward, warm and cold --------------------------------------------------------


def code_reward_values(monkeypatch: pytest.MonkeyPatch, completion: str,
                       reference: object) -> list[float | None]:
    from rewards import Sample
    from rewards.code import CodeReward

    values = []
    for warm in ("0", "1"):
        monkeypatch.setenv("SANDBOX_WARM", warm)
        [score] = CodeReward(time_limit_s=2.0).score([Sample(
            prompt="solve it", completion=f"```python\n{completion}```", reference=reference,
            domain="code")])
        values.append(score.value)
    return values


DOUBLE = {"input_output": json.dumps({"inputs": ["2\n"], "outputs": ["4\n"]})}
"""A stdin/stdout task: print twice the number read."""


def test_the_code_reward_scores_an_honest_function_alike(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    reference = {"language": "python", "entry_point": "f",
                 "public": ["assert f(2) == 4"], "hidden": ["assert f(5) == 10"]}
    assert code_reward_values(monkeypatch, "def f(n):\n    return 2 * n\n", reference) == \
        [1.0, 1.0]


def test_the_code_reward_scores_a_deep_recursion_alike(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    depth = deepest_call()
    reference = {"language": "python", "entry_point": "count",
                 "public": [f"assert count({depth}) == {depth}"], "hidden": []}
    values = code_reward_values(monkeypatch, DEPTH, reference)
    assert values[0] == 1.0 and values == [1.0, 1.0], values


def test_the_code_reward_fails_a_program_python_fails(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    program = "import sys\nprint(int(input()) * 2)\nsys.exit({})\n"
    failing = code_reward_values(monkeypatch, program.format(3), DOUBLE)
    assert failing[0] is not None and failing[0] < 1.0 and failing[1] == failing[0], failing
    assert code_reward_values(monkeypatch, program.format("2**64"), DOUBLE) == failing


def test_the_code_reward_scores_output_written_at_the_end(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    honest = code_reward_values(monkeypatch, "print(int(input()) * 2)\n", DOUBLE)
    assert honest == [1.0, 1.0], honest
    program = "out = open(1, 'w', closefd=False)\nout.write(str(int(input()) * 2) + '\\n')\n"
    assert sandbox.run(program, stdin="2\n", limits=LIMITS, mode="cold").stdout == "4\n"
    assert code_reward_values(monkeypatch, program, DOUBLE) == honest
