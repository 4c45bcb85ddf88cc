"""Red team of the warm batch fast path (issue 39): libc's capset built once in the server,
a plain run compiled from its payload (not /work/main.py read back) into a `__main__` made
without an import, a verdict that no longer waits for the pid probe thread, payload and
stdin written into their pipes before the server gets their fds.

Two kinds of probes: a plain program reads as it does in a cold run (`python3 main.py`),
and nothing a program does (patched modules and builtins of its forked server image, files,
processes and threads it leaves, huge inputs it never reads, forged output) reaches the
verdict or output of a run after it on the same warm server, or beside it in a batch."""

from __future__ import annotations

import dataclasses

import pytest
from sandbox_probes import SHORT

import sandbox
from sandbox import _warm

FILES = {"data.txt": "d\n", "deep/a.txt": "a\n"}

SEMANTICS = {
    "names": "import sys\nprint(__file__, sys.argv, __name__, __package__, __spec__, __doc__)\n",
    # the interpreter gives __main__ the builtins module; exec() alone puts its dict there
    "builtins module": "print(type(__builtins__).__name__)\n__builtins__.print('via')\n",
    "script globals": "print(sorted(globals()), type(__loader__).__name__, __cached__,"
                      " __annotations__)\n",
    "traceback": "def f():\n    return 1/0\nf()\n",
    "own source": "src = open(__file__).read()\nprint(len(src), src.splitlines()[0])\n",
    "main module": "import __main__, sys\n"
                   "print(__main__.__dict__ is globals(), sys.modules['__main__'].__file__)\n",
    "written module": "open('helper.py', 'w').write('X = 41\\n')\nimport helper\n"
                      "print(helper.X + 1, helper.__file__)\n"
                      "try:\n    from . import helper as h\n"
                      "except ImportError as e:\n    print('ImportError', e)\n",
    "warning": "import warnings\nwarnings.warn('careful')\n",
    "getsource": "import inspect\ndef g():\n    return 2\nprint(inspect.getsource(g))\n",
    "pickle": "import pickle\nclass C: pass\nprint(type(pickle.loads(pickle.dumps(C()))))\n",
    "exit text": "import sys\nsys.exit('bye')\n",
    "coding cookie": "# -*- coding: latin-1 -*-\nprint('\u00e9', len('\u00e9'))\n",
    "frame": "import sys\nf = sys._getframe()\nprint(f.f_code.co_filename, f.f_code.co_name)\n",
    "main.py exists": "import os\nprint(os.path.exists('/work/main.py'), os.getcwd())\n",
    "orig argv": "import sys\nprint(sys.orig_argv, sys.executable)\n",
    # SIGINT and an unhandled KeyboardInterrupt as the interpreter has them (a warm child
    # inherited SIG_DFL from its server and ended with 1)
    "keyboard interrupt": "raise KeyboardInterrupt\n",
    "sigint": "import os, signal\nprint(signal.getsignal(signal.SIGINT))\n"
              "try:\n    os.kill(os.getpid(), signal.SIGINT)\n    import time; time.sleep(1)\n"
              "except KeyboardInterrupt:\n    print('caught')\n"
              "os.kill(os.getpid(), signal.SIGINT)\nimport time; time.sleep(1)\n",
    "interrupt main": "import _thread, time\n_thread.interrupt_main()\ntime.sleep(1)\n",
    # a folder of the task's files is the program's to write in, as in a cold jail
    "write beside inputs": "open('deep/out.txt', 'w').write('x')\n"
                           "print(open('deep/out.txt').read(), open('deep/a.txt').read())\n",
}


@pytest.mark.parametrize("name", sorted(SEMANTICS))
def test_a_plain_program_reads_as_in_a_cold_run(name: str) -> None:
    code = SEMANTICS[name]
    cold = sandbox.run(code, files=FILES, limits=SHORT, mode="cold")
    for _ in range(2):  # the first run of a server and a later one
        warm = sandbox.run(code, files=FILES, limits=SHORT, mode="warm")
        assert (warm.status, warm.exit_code, warm.stdout, warm.stderr) == \
            (cold.status, cold.exit_code, cold.stdout, cold.stderr), (warm, cold)


INTERRUPTED = {
    # h-sb17: Py_RunMain's exit_sigint after an unhandled KeyboardInterrupt: SIGINT back to
    # SIG_DFL (an ignore undone too), then kill(getpid(), SIGINT): python3 dies of it (a
    # host's subprocess reads returncode -2), where a warm child exited 130
    "unhandled": ("print('x')\nraise KeyboardInterrupt\n", 2, None),
    "ignored first": (("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                       "print('x')\nraise KeyboardInterrupt\n"), 2, None),
    # ...unless the program blocked SIGINT: the kill stays pending and python3 exits 130
    "blocked": (("import signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})\n"
                 "print('x')\nraise KeyboardInterrupt\n"), None, 130),
}


@pytest.mark.parametrize("name", sorted(INTERRUPTED))
def test_an_unhandled_keyboard_interrupt_ends_as_exit_sigint(name: str) -> None:
    code, signal_, exit_code = INTERRUPTED[name]
    for mode in ("cold", "warm", "warm"):
        ran = sandbox.run(code, limits=SHORT, mode=mode)
        assert (ran.status, ran.signal, ran.exit_code, ran.stdout) == \
            ("runtime_error", signal_, exit_code, "x\n"), (mode, ran)
        assert ran.stderr.endswith("\nKeyboardInterrupt\n"), (mode, ran)


def test_a_finalizer_signal_has_the_disposition_python_leaves() -> None:
    """h-sb17: `_PySignal_Fini` puts every signal with a Python handler back to SIG_DFL and
    keeps SIG_IGN: a finalizer sending itself SIGUSR2 (ignored) goes on, then SIGUSR1 (its
    handler set by the program) kills it, cold and warm (a warm child's handlers used to
    become a no-op: `after` printed, status ok)."""
    code = ("import os, signal\nsignal.signal(signal.SIGUSR1, lambda *a: print('handler'))\n"
            "signal.signal(signal.SIGUSR2, signal.SIG_IGN)\nclass A:\n"
            "    def __del__(self, k=os.kill, p=os.getpid(), w=os.write, s=signal):\n"
            "        k(p, s.SIGUSR2)\n        w(1, b'ignored\\n')\n"
            "        k(p, s.SIGUSR1)\n        w(1, b'after\\n')\na = A()\nprint('42')\n")
    for mode in ("cold", "warm", "warm"):
        ran = sandbox.run(code, limits=SHORT, mode=mode)
        assert (ran.status, ran.signal, ran.exit_code, ran.stdout) == \
            ("runtime_error", 10, None, "42\nignored\n"), (mode, ran)


def test_stdin_and_stdout_keep_bytes_that_are_not_utf8_as_in_a_cold_run() -> None:
    """`python3 main.py` in the jail's C locale reads and writes stdin and stdout with
    `surrogateescape`: a program echoing bytes that are not UTF-8 gives them back (the
    premade streams of a warm child, and a stdin/stdout test's, were strict: a crash)."""
    code = ("import sys\ndata = sys.stdin.read()\nprint(data[::-1], ascii(data))\n"
            "print('\\udcff')\n")
    stdin = b"ok\xff\xfe\n"
    cold = sandbox.run(code, stdin=stdin, limits=SHORT, mode="cold")
    assert cold.status == "ok", cold
    warm = sandbox.run(code, stdin=stdin, limits=SHORT, mode="warm")
    assert (warm.status, warm.stdout) == (cold.status, cold.stdout), (warm, cold)
    # a stdin/stdout test's process too (its output reaches the checker as text, the byte
    # that is not UTF-8 replaced); it crashed on the surrogate, warm and cold
    echo = "import sys\nprint(sys.stdin.read().strip() + '\\udcff')\n"
    for mode in ("cold", "warm"):
        report = sandbox.run_tests(echo, [{"input": "ab\n", "output": "ab\ufffd\n"}],
                                   limits=SHORT, mode=mode)
        assert report.passed == 1, (mode, report)


def test_stdin_stdout_tests_see_the_builtins_module_too() -> None:
    """A stdin/stdout test's process runs the program through the same `run_main`."""
    code = "__builtins__.print(int(input()) * 2)\n"
    for mode in ("cold", "warm"):
        report = sandbox.run_tests(code, [{"input": "21\n", "output": "42\n"}], limits=SHORT,
                                   mode=mode)
        assert report.passed == 1, (mode, report)


def test_a_function_test_can_catch_its_own_sigint_in_both_modes() -> None:
    code = ("import os, signal, time\ndef f():\n    try:\n"
            "        os.kill(os.getpid(), signal.SIGINT)\n        time.sleep(1)\n"
            "    except KeyboardInterrupt:\n        return str(signal.getsignal(signal.SIGINT))\n")
    for mode in ("cold", "warm"):
        test = "assert f() == str(__import__('signal').default_int_handler), f()"
        report = sandbox.run_tests(code, [test], limits=SHORT, mode=mode)
        assert report.passed == 1, (mode, report)


@pytest.mark.xfail(strict=True, reason="hole: a warm child runs the program 6 frames below "
                   "the server's entry (run.py, warm_server.main, harness_program.forked, "
                   "child, harness_program.program_main, run_main), so a recursion that fits the default "
                   "limit cold raises RecursionError warm: a forked child keeps its server's "
                   "frames (a fresh interpreter, a cold run, starts at the stack's bottom)")
def test_a_recursion_near_the_limit_fits_as_in_a_cold_run() -> None:
    code = ("import sys\ndef f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n"
            "print(f(sys.getrecursionlimit() - 4))\n")
    cold = sandbox.run(code, limits=SHORT, mode="cold")
    assert (cold.status, cold.stdout) == ("ok", "996\n"), cold
    warm = sandbox.run(code, limits=SHORT, mode="warm")
    assert (warm.status, warm.stdout) == (cold.status, cold.stdout), warm


SHADOWS = {
    "a module written before its import": (
        "open('re.py', 'w').write('print(\"mine\")\\n')\nimport re\nprint(re.__file__)\n",
        {}),
    "a task's file": ("import re\nprint(re.__file__)\n", {"re.py": "print('task')\n"}),
    "a package, and a module that imports it": (
        ("import os\nos.mkdir('collections')\n"
         "open('collections/__init__.py', 'w').write('X = 1\\n')\n"
         "import collections\nprint(collections.__file__)\n"
         "try:\n    import functools\n    print(functools.__file__)\n"
         "except Exception as e:\n    print(type(e).__name__)\n"), {}),
    "a module shadowed after one that imports it": (  # typing's `re` was imported first
        ("import typing\nopen('re.py', 'w').write('print(\"mine\")\\n')\nimport re\n"
         "print(re.__file__, typing.re is re if hasattr(typing, 're') else '-')\n"), {}),
    "an import through a dependency": (
        ("open('re.py', 'w').write('print(\"mine\")\\nX = 1\\n')\n"
         "try:\n    import typing\n    print('typing')\n"
         "except Exception as e:\n    print(type(e).__name__)\n"), {}),
    "a namespace folder does not shadow": (
        "import os\nos.mkdir('re')\nimport re\nprint(re.__file__)\n", {}),
    "the harness's own package": (
        ("try:\n    import _in_jail\n    print('found')\n"
         "except ImportError as e:\n    print(e)\n"), {}),
    "sys.path changed by the program": (
        ("import sys, os\nos.mkdir('lib')\nopen('lib/enum.py', 'w').write('Y = 2\\n')\n"
         "sys.path.insert(0, '/work/lib')\nimport enum\nprint(enum.__file__)\n"), {}),
    "a module none shadows": (
        ("import typing, re, collections.abc\n"
         "print(re.__file__, collections.abc.__name__, typing.List)\n"), {}),
}


@pytest.mark.parametrize("name", SHADOWS)
def test_a_written_module_shadows_a_standard_one_as_in_a_cold_run(name: str) -> None:
    """A warm program starts from a fresh interpreter's import system
    (`harness_program.as_cold`): every module it imports comes from the files, as cold."""
    code, files = SHADOWS[name]
    cold = sandbox.run(code, files=files, limits=SHORT, mode="cold")
    warm = sandbox.run(code, files=files, limits=SHORT, mode="warm")
    assert cold.status == "ok", cold
    assert (warm.status, warm.stdout) == (cold.status, cold.stdout), (warm, cold)


def test_a_module_shadowed_after_a_dependent_import_stays_the_standard_one() -> None:
    code = ("import functools\nopen('collections.py', 'w').write('X = 1\\n')\n"
            "import collections\nprint(collections.__file__)\n")
    cold = sandbox.run(code, limits=SHORT, mode="cold")
    warm = sandbox.run(code, limits=SHORT, mode="warm")
    assert cold.stdout.endswith("/collections/__init__.py\n"), cold  # the standard one
    assert warm.stdout == cold.stdout, warm


def test_a_program_cannot_remove_or_replace_its_inputs_as_in_a_cold_run() -> None:
    """Cold, /work/main.py and the task's files are mount points (EBUSY); warm they are
    files of the server's uid in sticky folders (`warm_server.write_inputs`), which the
    program's uid may neither unlink, rename nor replace (a stdin/stdout test's process
    reads main.py anew)."""
    code = ("import os\nopen('mine', 'w').write('x')\n"
            "for name in ('main.py', 'data.txt', 'deep/a.txt'):\n"
            "    for how in (os.unlink, lambda n: os.rename(n, 'moved'),\n"
            "                lambda n: os.replace('mine', n)):\n"
            "        try:\n            how(name)\n            print('gone', name)\n"
            "        except OSError:\n            pass\n"
            "print(open('main.py').read() == open(__file__).read(), open('data.txt').read(),"
            " open('deep/a.txt').read(), sorted(os.listdir('.')))\n")
    cold = sandbox.run(code, files=FILES, limits=SHORT, mode="cold")
    warm = sandbox.run(code, files=FILES, limits=SHORT, mode="warm")
    assert cold.stdout == "True d\n a\n ['data.txt', 'deep', 'main.py', 'mine']\n", cold
    assert warm.stdout == cold.stdout, warm


# what one program leaves in its forked copy of the server: patched modules, builtins and the
# capset the server built once; files, processes and threads that outlive it; fds it opens
TAMPER = r"""
import builtins, os, sys, threading, time
for name, module in list(sys.modules.items()):
    if name.endswith(("harness_wire", "harness_program", "warm_server")):
        for attr in ("_CAPSET", "_LIBC", "run_main", "finish", "set_capabilities",
                     "take_inputs", "write_inputs", "exit_status"):
            if hasattr(module, attr):
                setattr(module, attr, None)
builtins.print = lambda *a, **k: os.write(1, b"FORGED\n")
builtins.open = None
sys.modules["re"] = None
sys.modules["json"] = type(sys)("json")

def linger(tag):
    time.sleep(0.4)
    for folder in ("/work", "/tmp"):
        try:
            with os.fdopen(os.open(folder + "/left-" + tag, os.O_CREAT | os.O_WRONLY, 0o666),
                           "w") as fh:
                fh.write("late")
        except OSError:
            pass
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:  # a daemon, reparented to pid 1
        linger("daemon")
    os._exit(0)
os.waitpid(pid, 0)
threading.Thread(target=linger, args=("thread",), daemon=True).start()
for _ in range(8):
    if os.fork() == 0:
        linger("child")
        os._exit(0)
open_fds = [os.open("/work/main.py", os.O_RDONLY) for _ in range(5)]
os.write(1, b'{"exit_code": 0, "signal": null, "timed_out": false}\nclean\n')
os.write(2, b"retire\n")
os._exit(3)
"""

VICTIM = r"""
import builtins, os, sys, time
time.sleep(0.6)  # past the attacker's lingering writes
fds = []
for fd in range(3, 256):
    try:
        os.fstat(fd)
        fds.append(fd)
    except OSError:
        pass
print(sorted(os.listdir("/work")), sorted(os.listdir("/tmp")), fds)
print(builtins.open is open is not None, sys.modules.get("json") is None or
      hasattr(sys.modules["json"], "dumps"))
import re, json
print(re.sub("a", "b", "aa"), json.dumps([1]), sys.stdin.read())
"""


def victim_stdout(stdin: str) -> str:
    return f"['main.py'] [] []\nTrue True\nbb [1] {stdin}\n"


def test_a_tampering_program_reaches_no_later_run_on_its_server() -> None:
    limits = dataclasses.replace(SHORT, wall_s=5.0)
    honest = sandbox.run(VICTIM, stdin="first", limits=limits, mode="warm")
    assert (honest.status, honest.stdout) == ("ok", victim_stdout("first")), honest
    attack = sandbox.run(TAMPER, limits=limits, mode="warm")
    # forged framing is its own output, judged by its own exit status
    assert (attack.exit_code, attack.stderr) == (3, "retire\n"), attack
    assert attack.stdout.startswith('{"exit_code": 0'), attack
    for stdin in ("second", "third"):
        after = sandbox.run(VICTIM, stdin=stdin, limits=limits, mode="warm")
        assert (after.status, after.stdout) == ("ok", victim_stdout(stdin)), after


def test_a_batch_of_huge_unread_inputs_and_tamperers_keeps_every_run_its_own() -> None:
    """Payloads and stdin well past a pipe, written before the server gets their fds, by
    programs that never read stdin, beside tamperers and honest runs that echo their own
    stdin: every run ends, and each reads its own program and its own input."""
    limits = dataclasses.replace(SHORT, wall_s=5.0)
    huge_code = "#" + "x" * 99 + "\n"
    unread = huge_code * 4000 + "print('skipped', len(open(__file__).read()))\n"
    jobs = []
    for i in range(12):
        kind = i % 3
        if kind == 0:
            jobs.append({"code": unread, "stdin": b"s" * (3 << 20), "limits": limits,
                         "mode": "warm"})
        elif kind == 1:
            jobs.append({"code": TAMPER, "limits": limits, "mode": "warm"})
        else:
            jobs.append({"code": VICTIM + f"print('job {i}')\n", "stdin": f"job{i}" * 5000,
                         "limits": limits, "mode": "warm"})
    results = sandbox.run_many(jobs, max_workers=3)
    for i, ex in enumerate(results):
        kind = i % 3
        if kind == 0:
            assert (ex.status, ex.stdout) == ("ok", f"skipped {len(unread)}\n"), (i, ex)
        elif kind == 1:
            assert ex.exit_code == 3, (i, ex)
        else:
            assert (ex.status, ex.stdout) == \
                ("ok", victim_stdout(f"job{i}" * 5000) + f"job {i}\n"), (i, ex)


def test_servers_beside_a_tamperer_serve_on_and_stay_few() -> None:
    """The fast path's servers after tampering runs: each either served on clean or
    retired; a pool never holds more servers than its size."""
    limits = dataclasses.replace(SHORT, wall_s=5.0)
    sandbox.run_many([{"code": TAMPER, "limits": limits, "mode": "warm"}] * 4, max_workers=2)
    pool = _warm._pool(limits)
    assert len(pool.servers) <= pool.size
    after = sandbox.run(VICTIM, stdin="x", limits=limits, mode="warm")
    assert (after.status, after.stdout) == ("ok", victim_stdout("x")), after


def test_output_before_reading_a_huge_stdin_and_payload_ends_in_a_batch() -> None:
    """The host fills the payload and stdin pipes before the server gets their fds, then
    feeds the rest while it drains the output: a program that writes nearly its whole output
    cap before it reads any of stdin, its own text past a pipe, ends with all of it."""
    limits = dataclasses.replace(SHORT, wall_s=10.0, output_bytes=1 << 20)
    code = ("#" + "y" * 99 + "\n") * 2000 + (
        "import sys, hashlib\nsys.stdout.write('o' * 900000)\nsys.stdout.flush()\n"
        "data = sys.stdin.buffer.read()\nprint(len(data), hashlib.sha256(data).hexdigest())\n")
    import hashlib

    stdins = [bytes([i]) * (2 << 20) for i in range(4)]
    results = sandbox.run_many([{"code": code, "stdin": s, "limits": limits, "mode": "warm"}
                                for s in stdins], max_workers=2)
    for stdin, ex in zip(stdins, results):
        tail = f"{len(stdin)} {hashlib.sha256(stdin).hexdigest()}\n"
        assert (ex.status, ex.stdout) == ("ok", "o" * 900000 + tail), (ex.status, ex.stderr)
