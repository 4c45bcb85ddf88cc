"""Red team (rt26) of the import zygotes (issue #38, `SANDBOX_IMPORT_ZYGOTES=1`, off by
default) after merge 9f16ae4 (h-sb13: a program whose PEP 263 cookie is not utf-8 is never
keyed and runs cold, `_first_import.read_as_written`; with zygotes on the server's plain
child starts from run.py's top level, `harness_program.go_on`).

The rule under attack: a program's verdict, and everything it can observe, does not depend
on whether an earlier run made its zygote nor on what an earlier program did; a
zygote-served run = the server's own child = cold `python3 main.py`.

How. Every probe runs the same program warm three times on a fresh server with zygotes on
(`served`: the first run is the server's own child, which makes the zygote; the others are
the zygote's children) and, where cold is the reference, once cold. Classes: (A) the key
against what python3 reads (cookie spellings and places, BOMs, `\\r` and form feeds,
surrogates, compiler-only syntax errors, `\\N{}` escapes, imports that are not a leading
run of plain imports); (B) runs with files that shadow a module of the zygote's closure;
(C) state a program changes in the zygote's modules and the interpreter (sys.modules,
finders, hooks, caches, codecs, copyreg, abc, atexit, gc callbacks, signals, limits,
environment), read again by the next program of the same zygote; (D) verdicts through
zygote children (interrupts, aborts, segfaults, C-stack overflows, threads, atexit,
finalizers); (E) the run's memory budget through a zygote child (cgroup and rlimit hosts);
(F) the compiler's recursion limit, which depends on the frames below the compile; (G) the
key's cost on the host (deeply nested and huge sources, cookies of unknown codecs); (H) the
zygote's import against the next run: a zygote made after a run imports while the host
already sends the next one.

Open when written (strict xfails below, by root):
- `warm_server.keep_zygote` / `ImportZygote` / `zygote_main` (the worst): the server says
  `clean` while the zygote it just forked still imports (~0.1 s for a heavy key), with
  /work as its sys.path[0], and the next run's inputs land there meanwhile. The zygote
  imports the next run's module instead of the standard library's and runs it under the
  server's uid (CAP_SETUID, CAP_SETGID): a task file `string.pyc` (sourceless: it writes
  nothing, the server serves on) poisons every later run of that key, files or none
  (`builtins.rt26` set by another run, 10 of 10); a `string.py` writes /work/__pycache__,
  which the files' own program lists; a PROGRAM with no files that writes
  /work/string.pyc at its start has its code run as the server's uid (4 of 4; the new
  inode retires the server after the run, except where `PER_MOUNT_INODES` is off, Linux
  < 5.9). The same import, still going, eats ~5 MiB of the next run's memory.
- `_warm.WarmServer.execute` / `warm_server.ImportZygote` (memory, cgroup): a run's limit is
  the jail's usage + `memory_bytes`, and the zygote's import is in that usage: a
  zygote-served program has the import's memory (~6 MiB for dataclasses, decimal,
  fractions, typing) more than the server's own child. 59 MiB of 64 is `memory_limit` on
  the run that makes the zygote, `ok` once it is made.
- `warm_server.zygote_main` (memory, no cgroup): the zygote's child skips the import that the
  server's child does under the run's RLIMIT_AS: with 16 MiB of address space a program
  that imports decimal runs `ok` cold and zygote-served, but fails (ImportError: a shared
  object cannot be mapped) on the run that makes the zygote. And every warm child (zygote
  or not) holds 62-63 MiB of 1 MiB blocks under that 16 MiB limit, cold 0 (suspected: the
  probe threads of `warm_server.thread_id` leave glibc a 64 MiB malloc arena).
- `harness_program.print_exception` with `compile_as_cold` (key): a compiler-only
  SyntaxError (`nonlocal` at module level, `return` outside a function, 21 nested blocks)
  parses on the host, so the program is keyed; zygote-served, its traceback shows the
  harness frame `compile_as_cold` (the server's child and cold print the error alone).
- `warm_server.zygote_main` (the zygote's heap): `sys.getrefcount(None)` reads 4849 in the
  server's child and 4786 in a zygote's (sb9's id order has this root).
- `_first_import.read_as_written` (host cost): `tokenize.detect_encoding` looks up the
  cookie's codec on the host, and `encodings.search_function` caches every unknown name
  for good: each program with a new unknown cookie leaves its name (any length) in the
  host's `encodings._cache`, and a 10 MB name costs ~2 s of host CPU before any jail.
- (documented warm/cold) a warm program starts 4 frames deep (`Then`, run.py): its
  compile too, so the compiler's recursion limit (3 levels a frame) is 15 levels lower
  warm (2983 unary minuses compile, 2984 do not; cold 2998), and the deepest recursion is
  993 warm against 998 cold.

Held: every cookie spelling and place, BOMs, `\\r` lines, form feeds and vertical tabs
(sent cold or read alike), two cookies, surrogates, a NUL, `\\N{}`, non-leading or
computed imports, star imports, files that shadow typing's closure once the zygote is
made, every state change of (C) (each child's own), an assert run's compiler-only error,
the verdicts of (D), the compiler's limit and its RecursionError zygote-served = the
server's child, deep and huge sources (an exact verdict, equal to cold), a zygote child
held to 256 MiB of address space.
"""

from __future__ import annotations

import dataclasses
import encodings
import importlib.util
import marshal

import pytest
from test_redteam_round_sb5 import LIMITS
from test_redteam_round_sb9 import seen, xfails

import sandbox
from sandbox import _warm

pytestmark = pytest.mark.usefixtures("sandbox_ready")




def served(code: str, runs: int = 3, limits: sandbox.Limits = LIMITS,
           stdin: str = "") -> list[sandbox.Execution]:
    """`code` warm `runs` times on a fresh server: the first is the server's own child
    (it makes the zygote of its first import), the others the zygote's."""
    _warm.shutdown()
    return [sandbox.run(code, stdin=stdin, limits=limits, mode="warm") for _ in range(runs)]


def cold(code: str, limits: sandbox.Limits = LIMITS, stdin: str = "") -> sandbox.Execution:
    return sandbox.run(code, stdin=stdin, limits=limits, mode="cold")


# --- A. the key against what python3 reads ----------------------------------------------------

TAIL = "import typing\nimport sys\nprint(list(sys.modules)[-6:], 'encodings.latin_1' in sys.modules)\n"
HIDDEN = "#+AAo-print('hidden', 'typing' in __import__('sys').modules)\n"

KEYS = {
    "emacs utf_8": "# -*- coding: utf_8 -*-\n" + TAIL,
    "coding:utf8": "#coding:utf8\n" + TAIL,
    "coding=UTF8": "# coding=UTF8\n" + TAIL,
    "vim fileencoding latin-1": "# vim: set fileencoding=latin-1 :\n" + TAIL,
    "utf-7 after a shebang": "#!/usr/bin/env python3\n# coding: utf-7\n" + HIDDEN + TAIL,
    "utf-7 after a form feed line": "\f\n# -*- coding: utf-7 -*-\n" + HIDDEN + TAIL,
    "utf-7 after a form feed, same line": "\f# coding: utf-7\n" + HIDDEN + TAIL,
    "utf-7 on line 2 of carriage returns": ("#!x\r# coding: utf-7\r" + HIDDEN + TAIL).replace(
        "\n", "\r"),
    "utf-7 on line 3 (not a cookie)": "#\n#\n# coding: utf-7\n" + HIDDEN + TAIL,
    "utf-7 after code on line 1 (not a cookie)": "import typing  # coding: utf-7\n" + HIDDEN
    + TAIL,
    "utf-8 then latin-1": "# coding: utf-8\n# coding: latin-1\n" + TAIL,
    "an empty cookie, then utf-7": "# coding: # coding: utf-7\n" + HIDDEN + TAIL,
    "utf-8-sig cookie": "# coding: utf-8-sig\n" + TAIL,
    "utf-8 with a made-up suffix": "# coding: utf-8-rt26\n" + TAIL,
    "latin-1 with a made-up suffix": "# coding: latin-1-rt26\n" + TAIL,
    "uppercase CODING (not a cookie)": "# CODING: utf-7\n" + HIDDEN + TAIL,
    "a space before = (not a cookie)": "# coding = utf-7\n" + HIDDEN + TAIL,
    "a tab after the colon": "# coding:\tutf-7\n" + HIDDEN + TAIL,
    "a vertical tab before #": "\v# coding: utf-7\n" + HIDDEN + TAIL,
    "a NUL byte": "import typing\n#\0\nprint('ran')\n",
    "BOM and utf-8 cookie": "\ufeff# coding: utf-8\n" + TAIL,
    "BOM and latin-1 cookie": "\ufeff# coding: latin-1\n" + TAIL,
    "unknown codec": "# coding: rt26-no-such-codec\n" + TAIL,
    "rot13": "# coding: rot13\n" + TAIL,
    "a 100 kB first line": "#" + "x" * 100_000 + "\n" + TAIL,
    "a lone surrogate in a comment": "import typing\n# \udcff\nprint('ran')\n",
    "a lone surrogate under a utf-8 cookie": "# coding: utf-8\nimport typing\n# \udcff\n"
    "print('ran')\n",
    "nonlocal at module level (compiler only)": "import typing\nnonlocal x\n",
    "return outside a function (compiler only)": "import typing\nprint('ran')\nreturn 1\n",
    "too many statically nested blocks": "import typing\n"
    + "".join(" " * i + "for a in ():\n" for i in range(21)) + " " * 21 + "pass\n",
    "a \\N escape in the docstring": '"""\\N{BULLET}"""\nimport typing\nimport sys\n'
    "print(list(sys.modules), __doc__)\n",
    "a \\N escape in the code": "import typing\nimport sys\nx = '\\N{BULLET}'\n"
    "print(list(sys.modules), list(sys.path_importer_cache))\n",
    "from __future__ first": "from __future__ import annotations\n" + TAIL,
    "import in try": "try:\n    import typing\nexcept ImportError:\n    pass\n" + TAIL,
    "import in if": "if True:\n    import typing\n" + TAIL,
    "import a.b.c": "import collections.abc\n" + TAIL,
    "from a.b import": "from collections.abc import Sequence\n" + TAIL,
    "a relative import": "from . import typing\n" + TAIL,
    "a relative import of a key module": "from .typing import List\n" + TAIL,
    "__import__": "__import__('typing')\n" + TAIL,
    "importlib": "import importlib\nimportlib.import_module('typing')\n" + TAIL,
    "star import": "from typing import *\nimport sys\nprint(len(dir()), list(sys.modules)[-4:])\n",
    "star import of re then typing": "from re import *\nfrom typing import *\nimport sys\n"
    "print(sorted(dir())[:5], len(dir()), list(sys.modules)[-4:])\n",
    "a bytes docstring": "b'doc'\nimport typing\nimport sys\nprint(__doc__, list(sys.modules)[-3:])\n",
    "a docstring that is an f-string": "f'{__import__(\"sys\").modules.get(\"typing\")}'\n" + TAIL,
    "allowed then not allowed": "import typing, os\n" + TAIL,
    "every allowed module": "import bisect, collections, copy, dataclasses, decimal, enum, "
    "fractions, functools, heapq, itertools, math, operator, re, string, typing\n" + TAIL,
}

COMPILER_ONLY = (
    "key (a compiler-only SyntaxError): the host's ast.parse accepts what only the "
    "compiler refuses, so the program is keyed, and a zygote's child compiles it in "
    "harness_program.compile_as_cold, a second harness frame that print_exception (which "
    "hides run_main's only) leaves in the traceback: stderr starts 'Traceback (most recent "
    "call last):\\n  File \"/harness/_in_jail/harness_program.py\", ... in compile_as_cold' "
    "on every run after the one that made the zygote (that one, and cold, print the "
    "SyntaxError alone)"
)
OPEN_KEYS = {
    "nonlocal at module level (compiler only)": COMPILER_ONLY,
    "return outside a function (compiler only)": COMPILER_ONLY,
    "too many statically nested blocks": COMPILER_ONLY,
}


@pytest.mark.parametrize("name", xfails(sorted(KEYS), OPEN_KEYS))
def test_a_keyed_program_reads_as_python3_reads_it(name: str, zygotes: None) -> None:
    code = KEYS[name]
    reference = cold(code)
    assert [seen(r) for r in served(code)] == [seen(reference)] * 3


def test_hidden_code_of_a_utf7_cookie_runs_cold_and_warm(zygotes: None) -> None:
    """The reference itself: python3 runs the comment a utf-7 cookie decodes, before any
    import (the host's parser skips it)."""
    ran = cold(KEYS["utf-7 after a shebang"])
    assert (ran.status, ran.stdout.splitlines()[0]) == ("ok", "hidden False"), ran


# --- B. files never meet a zygote ---------------------------------------------------------------

SHADOWS = {
    "enum.py": "X = 1\n",  # typing -> re -> enum
    "functools.py": "X = 2\n",
    "collections/__init__.py": "X = 3\n",
    "copyreg.py": "X = 4\n",  # imported at the start: the file never wins
    "data.txt": "x\n",
}

SHADOWED = (
    "import typing\nimport sys\nprint([getattr(sys.modules.get(m), '__file__', None) for m in"
    " ('enum', 'functools', 'collections', 'copyreg')])\n"
)


@pytest.mark.parametrize("name", sorted(SHADOWS))
def test_a_run_with_files_reads_its_files_after_a_zygote_exists(name: str, zygotes: None) -> None:
    made = served(SHADOWED, 2)
    assert [r.status for r in made] == ["ok", "ok"], made
    files = {name: SHADOWS[name]}
    reference = sandbox.run(SHADOWED, files=files, limits=LIMITS, mode="cold")
    warm = [sandbox.run(SHADOWED, files=files, limits=LIMITS, mode="warm") for _ in range(2)]
    assert [seen(r) for r in warm] == [seen(reference)] * 2


# --- C. what a program changes is its own: the next program of the zygote reads it afresh ---

CHANGES = {
    "sys.modules entries": "import typing\nimport sys\nprint(sys.modules.get('json'), "
    "sys.modules['re'].__name__)\nsys.modules['re'] = None\ndel sys.modules['typing']\n"
    "sys.modules['json'] = sys\n",
    "an import hook": "import typing\nimport sys\nprint(len(sys.meta_path), len(sys.path_hooks))"
    "\nclass Hook:\n    def find_spec(self, *a):\n        print('hooked', a[0])\n"
    "sys.meta_path.insert(0, Hook())\nimport json\nsys.path_hooks.insert(0, lambda p: None)\n",
    "sys.path and the importer cache": "import typing\nimport sys\nprint(sys.path, "
    "sorted(sys.path_importer_cache))\nsys.path_importer_cache.clear()\n"
    "sys.path.insert(0, '/tmp')\nsys.path_importer_cache['/work'] = None\n",
    "linecache": "import typing\nimport linecache\nprint(sorted(linecache.cache))\n"
    "linecache.cache['x'] = (1, None, ['y\\n'], 'x')\nlinecache.getline('/work/main.py', 1)\n",
    "warnings filters": "import typing\nimport warnings\nprint(len(warnings.filters), "
    "warnings.filters[:1])\nwarnings.simplefilter('error')\nwarnings.filterwarnings('ignore', 'x')\n",
    "typing's caches": "import typing\nprint(typing.List[int] is typing.List[int], "
    "[f.__self__.cache_info() for f in typing._cleanups if hasattr(f, '__self__')][:2])\n"
    "typing._cleanups.clear()\n",
    "functools caches": "import functools\nprint(functools._CacheInfo)\n"
    "functools._CacheInfo = None\nfunctools.WRAPPER_ASSIGNMENTS = ()\n",
    "a codec search function": "import typing\nimport codecs\ntry:\n"
    "    print(codecs.lookup('rt26').name)\nexcept LookupError:\n    print('none')\n"
    "codecs.register(lambda n: codecs.lookup('latin-1') if n == 'rt26' else None)\n"
    "codecs.lookup('rt26')\n",
    "copyreg": "import copy\nimport copyreg\nprint(len(copyreg.dispatch_table), "
    "copy.copy([1]))\ncopyreg.dispatch_table[list] = lambda x: (tuple, ((),))\n",
    "an abc registration": "import collections\nimport collections.abc\n"
    "print(issubclass(int, collections.abc.Sequence))\ncollections.abc.Sequence.register(int)\n",
    "atexit": "import typing\nimport atexit\natexit.register(print, 'bye')\nprint('hi')\n",
    "gc callbacks and thresholds": "import typing\nimport gc\nprint(len(gc.callbacks), "
    "gc.get_threshold(), gc.isenabled())\ngc.callbacks.append(lambda *a: print('gc'))\n"
    "gc.set_threshold(1)\ngc.disable()\n",
    "signal handlers": "import typing\nimport signal\nprint(signal.getsignal(signal.SIGTERM),"
    " signal.getsignal(signal.SIGINT))\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "signal.signal(signal.SIGINT, signal.SIG_IGN)\n",
    "recursion limit and switch interval": "import typing\nimport sys\n"
    "print(sys.getrecursionlimit(), sys.getswitchinterval(), sys.getdefaultencoding())\n"
    "sys.setrecursionlimit(60)\nsys.setswitchinterval(1.0)\n",
    "string.Template and decimal's defaults": "import string, decimal\n"
    "print(string.Template.delimiter, decimal.DefaultContext.prec)\n"
    "string.Template.delimiter = '#'\ndecimal.DefaultContext.prec = 5\n",
    "dataclasses and enum": "import dataclasses, enum\nprint(type(dataclasses.MISSING), "
    "list(enum.Flag.__members__))\ndataclasses.MISSING = 0\nenum.Enum.zz = 1\n",
    "builtins": "import typing\nimport builtins\nprint(hasattr(builtins, 'zz'), "
    "builtins.len('ab'))\nbuiltins.zz = 1\nbuiltins.len = lambda x: 0\n",
    "environment, folder and umask": "import typing\nimport os\n"
    "print(os.environ.get('RT26'), os.getcwd(), oct(os.umask(0o77)))\n"
    "os.environ['RT26'] = '1'\nos.putenv('RT27', '1')\nos.chdir('/tmp')\n",
    "the re cache and flags": "import re\nprint(len(re._cache), re.compile('a', re.I).flags)\n"
    "re._MAXCACHE = 0\nre.compile('b')\n",
    "a module the program writes, then imports": "import typing\nimport sys\n"
    "open('/work/helper.py', 'w').write('X = 5\\n')\nimport helper\nprint(helper.X, "
    "sorted(sys.path_importer_cache['/work']._path_cache))\n",
    "affinity and priority": "import typing\nimport os\nprint(sorted(os.sched_getaffinity(0)),"
    " os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0))\n"
    "os.sched_setaffinity(0, {0})\nos.setpriority(os.PRIO_PROCESS, 0, 10)\n",
    "rlimits": "import typing\nimport resource\nprint([resource.getrlimit(getattr(resource, n))"
    " for n in sorted(dir(resource)) if n.startswith('RLIMIT_')])\n"
    "resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))\n",
    "open descriptors": "import typing\nimport os\ndef is_open(fd):\n    try:\n"
    "        os.fstat(fd)\n        return True\n    except OSError:\n        return False\n"
    "print([fd for fd in range(1024) if is_open(fd)])\nf = open('/work/main.py')\n"
    "os.dup2(f.fileno(), 20)\n",
    "site imported late": "import typing\nimport sys\nimport site\nprint(sys.path, "
    "site.ENABLE_USER_SITE, sys.flags.no_site)\nsite.addsitedir('/tmp')\n",
    "sys.flags-like state": "import typing\nimport sys\nprint(sys.dont_write_bytecode, "
    "sys.argv, sys.orig_argv[-1], sys.executable)\nsys.dont_write_bytecode = True\n"
    "sys.argv.append('x')\n",
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_what_a_program_changes_the_next_one_does_not_see(name: str, zygotes: None) -> None:
    """Each run prints the state it found, then changes it: four warm runs of one key (the
    server's child, then three of the zygote's) print what python3 prints. (Its rlimits
    too since h-uid, a strict xfail before: the cold init, then the program's uid, was
    counted in RLIMIT_NPROC, one more cold.)"""
    code = CHANGES[name]
    reference = cold(code)
    assert reference.status == "ok", reference
    assert [seen(r) for r in served(code, 4)] == [seen(reference)] * 4


def test_an_assert_run_changing_typing_leaves_the_next_worker_fresh(zygotes: None) -> None:
    code = (
        "import typing\nimport sys\nSEEN = (hasattr(typing, 'zz'), 'json' in sys.modules)\n"
        "typing.zz = 1\nimport json\ndef f():\n    return SEEN\n"
    )
    tests = ["assert f() == (False, False)"] * 2
    reference = sandbox.run_tests(code, tests, limits=LIMITS, mode="cold")
    assert [r.outcome for r in reference.results] == ["pass", "pass"], reference
    _warm.shutdown()
    for _ in range(3):
        report = sandbox.run_tests(code, tests, limits=LIMITS, mode="warm")
        assert [r.outcome for r in report.results] == ["pass", "pass"], report


def test_a_compiler_only_error_in_an_assert_run_reads_as_cold(zygotes: None) -> None:
    code = "import typing\nnonlocal x\n"
    tests = ["assert True"]
    reference = sandbox.run_tests(code, tests, limits=LIMITS, mode="cold")
    want = [(r.outcome, r.message) for r in reference.results]
    message = ("SyntaxError while loading the program: SyntaxError: nonlocal declaration "
               "not allowed at module level")
    assert want == [("error", message)], reference
    _warm.shutdown()
    for _ in range(3):
        report = sandbox.run_tests(code, tests, limits=LIMITS, mode="warm")
        assert [(r.outcome, r.message) for r in report.results] == want


@pytest.mark.xfail(strict=True, reason=(
    "open: reaching another run (the zygote's heap): warm_server.zygote_main's own live "
    "objects, not the server's, hold references to the shared singletons: "
    "sys.getrefcount(None) reads 4849 in the server's child (the run that makes the "
    "zygote) and 4786 in every zygote child (and gc's generations differ with it); "
    "the id-order hole of sb9 has the same root"))
def test_the_refcount_of_none_does_not_depend_on_an_earlier_run(zygotes: None) -> None:
    code = "import typing\nimport sys\nprint(sys.getrefcount(None), sys.getrefcount(0))\n"
    runs = served(code)
    assert [r.stdout for r in runs] == [runs[0].stdout] * 3


# --- D. verdicts through zygote children ----------------------------------------------------------

VERDICTS = {
    "KeyboardInterrupt": "raise KeyboardInterrupt\n",
    "SIGINT to itself": "import os, signal\nos.kill(os.getpid(), signal.SIGINT)\n"
    "import time\ntime.sleep(1)\n",
    "os.abort": "import os\nprint('x', flush=True)\nos.abort()\n",
    "SystemExit with a message": "raise SystemExit('bad')\n",
    "sys.exit in atexit": "import atexit, sys\natexit.register(sys.exit, 3)\nprint('x')\n",
    "unflushed at os._exit": "import os\nprint('lost')\nos._exit(4)\n",
    "a segfault": "import ctypes\nctypes.string_at(0)\n",
    "the C stack": "import sys\nsys.setrecursionlimit(10 ** 7)\ndef f(n):\n    return f(n + 1)"
    "\nf(0)\n",
    "a thread left running": "import threading, time\nthreading.Thread(target=time.sleep, "
    "args=(0.2,)).start()\nprint('main done')\n",
    "a daemon thread at exit": "import threading, time\nthreading.Thread(target=time.sleep, "
    "args=(30,), daemon=True).start()\nprint('main done')\n",
    "stdout closed": "import sys\nprint('x')\nsys.stdout.close()\n",
    "a RecursionError": "def f():\n    f()\nf()\n",
    "a MemoryError caught": "try:\n    x = bytearray(1 << 44)\nexcept MemoryError:\n"
    "    print('caught')\n",
    "finalizers in the zygote's modules": "import re\nclass D:\n    def __init__(self, n):\n"
    "        self.n = n\n    def __del__(self):\n        print('del', self.n, flush=True)\n"
    "import typing\ntyping.zz = D('typing')\nre.zz = D('re')\nzz = D('main')\n",
    "a fork pool": "import multiprocessing as mp\nwith mp.get_context('fork').Pool(2) as p:\n"
    "    print(p.map(abs, [-1, -2, 3]))\n",
    "a spawn pool": "import multiprocessing as mp\ndef f(x):\n    return x * 2\n"
    "if __name__ == '__main__':\n    with mp.get_context('spawn').Pool(2) as p:\n"
    "        print(p.map(f, [1, 2]))\n",
    "python3 as a subprocess": "import subprocess, sys\nprint(subprocess.run([sys.executable, "
    "'-c', 'import sys; print(sys.path[0], len(sys.modules) > 5)'], capture_output=True, "
    "text=True).stdout, sys.executable, sys.orig_argv)\n",
    "stdin read": "import sys\nprint(sys.stdin.read()[::-1])\n",
}


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_a_verdict_through_a_zygote_child_is_the_servers_childs_and_colds(
    name: str, zygotes: None
) -> None:
    code = "from typing import List\n" + VERDICTS[name]
    limits = dataclasses.replace(LIMITS, cpu_s=1.0, wall_s=3.0)
    reference = cold(code, limits, stdin="abc")
    runs = served(code, 3, limits, stdin="abc")
    assert runs[0].status == reference.status, (runs[0], reference)
    assert [seen(r) for r in runs] == [seen(runs[0])] * 3


# --- E. the run's memory through a zygote child ---------------------------------------------------

HEAVY = "import dataclasses, decimal, fractions, typing\n"


@pytest.mark.xfail(strict=True, reason=(
    "open: resources (memory, cgroup): _warm.WarmServer.execute sets the run's limit to the "
    "jail's usage + memory_bytes, and the zygote's import (done before the server's `clean` "
    "since h-sb18: charged to no run) is in that usage: a zygote-served program has its "
    "import's memory (~6 MiB) on top of memory_bytes, which the server's own child and cold "
    "pay themselves (measured 62.2 against 55.5 MiB of 64): memory_limit on the run that "
    "makes the zygote, ok after"))
def test_a_programs_memory_does_not_depend_on_an_earlier_run_making_its_zygote(
    zygotes: None,
) -> None:
    limits = dataclasses.replace(LIMITS, memory_bytes=64 << 20)
    code = HEAVY + "x = b'x' * (59 << 20)\nprint(len(x))\n"
    runs = served(code, 3, limits)
    assert [r.status for r in runs] == [runs[0].status] * 3, [seen(r) for r in runs]


@pytest.fixture
def zygotes_without_cgroup(zygotes: None, no_cgroup: None) -> None:
    """Zygotes on a host without a usable cgroup: memory held by RLIMIT_AS per process."""


@pytest.mark.xfail(strict=True, reason=(
    "open: resources (memory, RLIMIT_AS): warm_server.own_address_space credits a run's "
    "child with what it inherits of the server and a zygote's child with its import "
    "(ZYGOTE_IMPORT), but a warm child still has ~1 MiB less room than cold (its "
    "allocator's arenas come full from the server: measured 2.3-2.4 against 3.5 MiB of "
    "64 KiB blocks at 16 MiB), and these imports leave cold less than 64 KiB: the server's "
    "own child (the run that makes the zygote) fails its import (MemoryError, or "
    "ImportError: a shared object cannot be mapped), cold and the zygote's children ok"))
def test_without_cgroups_a_programs_status_does_not_depend_on_its_zygote(
    zygotes_without_cgroup: None,
) -> None:
    limits = dataclasses.replace(LIMITS, memory_bytes=64 << 20)
    code = HEAVY + "print('ok')\n"
    reference = cold(code, limits)
    assert (reference.status, reference.stdout) == ("ok", "ok\n"), reference
    runs = served(code, 3, limits)
    assert [r.status for r in runs] == ["ok"] * 3, [seen(r) for r in runs]


def test_without_cgroups_a_zygote_child_holds_what_cold_holds(
    zygotes_without_cgroup: None,
) -> None:
    limits = dataclasses.replace(LIMITS, memory_bytes=64 << 20)
    code = (
        "import typing\nkeep = []\ntry:\n    while True:\n        keep.append(b'x' * (1 << 20))"
        "\nexcept MemoryError:\n    pass\nprint(len(keep))\n"
    )
    reference = cold(code, limits)
    assert (reference.status, reference.stdout) == ("ok", "0\n"), reference
    assert [r.stdout for r in served(code, 3, limits)] == [reference.stdout] * 3


def test_without_cgroups_a_zygote_child_is_held_to_the_address_space(
    zygotes_without_cgroup: None,
) -> None:
    """256 MiB of address space: a 200 MiB allocation fits once, not twice, in every mode."""
    limits = dataclasses.replace(LIMITS, memory_bytes=256 << 20, processes=1)
    code = "import typing\nx = b'x' * (200 << 20)\ny = b'y' * (200 << 20)\nprint('both')\n"
    reference = cold(code, limits)
    assert reference.status == "memory_limit", reference
    assert [r.status for r in served(code, 3, limits)] == ["memory_limit"] * 3


# --- F. the compiler's recursion limit: the frames below the compile ------------------------------

def minuses(n: int) -> str:
    """A program whose compile nests `n` unary minuses: the symbol table's recursion limit
    (3 levels a frame below the compile) decides whether it compiles."""
    return f"import typing\nx = 1\ny = {'-' * n}x\nprint('compiled')\n"


@pytest.mark.parametrize("n", [2983, 2984])
def test_the_compile_limit_is_the_servers_childs_zygote_served(n: int, zygotes: None) -> None:
    """At the warm boundary (2983 compile, 2984 do not): the zygote's child compiles in
    `compile_as_cold`, the server's in `run_main`: the same status either way."""
    runs = served(minuses(n))
    assert [r.status for r in runs] == [runs[0].status] * 3, [seen(r) for r in runs]
    assert runs[0].status == ("ok" if n == 2983 else "runtime_error"), runs[0]


def test_the_compilers_recursion_error_reads_as_the_servers_childs(zygotes: None) -> None:
    """Past the compiler's limit: the RecursionError 'during compilation' alone, as the
    server's child (and python3, past its own limit) print it."""
    runs = served(minuses(2984))
    assert runs[0].stderr.startswith("RecursionError: maximum recursion depth exceeded "
                                     "during compilation"), runs[0]
    assert [seen(r) for r in runs] == [seen(runs[0])] * 3


@pytest.mark.xfail(strict=True, reason=(
    "open (documented depth class): warm/cold frames: harness_program.run_main compiles "
    "the program 5 frames deep (run.py, child, program_main, run_main, compile_as_cold), "
    "python3 at the bottom: the compiler's recursion limit is 15 levels lower warm (2983) "
    "than cold (2998): 2990 unary minuses compile cold, RecursionError warm"))
def test_a_deep_expression_compiles_warm_as_cold(zygotes: None) -> None:
    code = minuses(2990)
    reference = cold(code)
    assert (reference.status, reference.stdout) == ("ok", "compiled\n"), reference
    assert [r.status for r in served(code)] == ["ok"] * 3


@pytest.mark.xfail(strict=True, reason=(
    "open (documented depth class): warm/cold frames: with zygotes on a plain program "
    "runs 4 frames above run.py's top level (harness_program.Then) in both warm kinds, "
    "python3 at the bottom: the deepest recursion is 993 warm against 998 cold"))
def test_the_deepest_recursion_is_colds(zygotes: None) -> None:
    code = (
        "import typing\ndef f(n):\n    try:\n        return f(n + 1)\n"
        "    except RecursionError:\n        return n\nprint(f(0))\n"
    )
    reference = cold(code)
    assert [r.stdout for r in served(code)] == [reference.stdout] * 3


# --- G. the key's cost on the host: an exact verdict, never an abstention ------------------------

DEEP = {
    "60k unary minuses": "import typing\n" + "-" * 60_000 + "1\n",
    "30k attribute chain": "import typing\nx" + ".b" * 30_000 + "\n",
    "20k subscripts": "import typing\nx" + "[0]" * 20_000 + "\n",
    "20k calls": "import typing\nf" + "()" * 20_000 + "\n",
    "5k conditional expressions": "import typing\nx = " + "1 if 1 else " * 5_000 + "1\n",
    "16k nots": "import typing\nx = " + "not " * 16_000 + "1\n",
    "100k nested parentheses": "import typing\nx = " + "(" * 100_000 + "1" + ")" * 100_000 + "\n",
    "a 2 MB comment": "import typing\n#" + "x" * 2_000_000 + "\nprint('ok')\n",
    "300k lines": "import typing\n" + "x = 1\n" * 300_000 + "print('ok')\n",
}


@pytest.mark.parametrize("name", sorted(DEEP))
def test_a_deep_or_huge_program_gets_colds_verdict(name: str, zygotes: None) -> None:
    code = DEEP[name]
    limits = dataclasses.replace(LIMITS, disk_bytes=32 << 20, file_size_bytes=16 << 20,
                                 output_bytes=4 << 20)
    reference = cold(code, limits)
    assert [seen(r) for r in served(code, 2, limits)] == [seen(reference)] * 2


def test_an_unknown_cookie_leaves_nothing_on_the_host(zygotes: None) -> None:
    for i in range(3):
        code = f"# coding: rt26{i}{'q' * 5_000}\nprint('x')\n"
        ran = sandbox.run(code, limits=LIMITS, mode="warm")
        assert (ran.status, ran.stdout) == ("runtime_error", ""), ran
        assert ran.stderr.startswith(f"SyntaxError: encoding problem: rt26{i}q"), ran
    assert [key for key in getattr(encodings, "_cache") if len(key) > 1000] == []  # noqa: B009


# --- H. the next run's files meet the zygote's import (a race) -----------------------------------

LATE = "import dataclasses, decimal, fractions, typing, bisect, string\n"
"""A key whose zygote imports for ~0.1 s, `string` last: the next run's inputs land in /work
(the zygote's sys.path[0]) meanwhile."""

POISON = (
    "import builtins\nbuiltins.rt26 = 'set by another run'\n"
    "exec(open('/usr/lib/python3.11/string.py').read())\n"
)

HOLDS_ITS_FILES = "import time, os\ntime.sleep(1)\nprint(sorted(os.listdir('/work')))\n"
"""The next run: its files stay in /work for a second while the zygote imports."""

# Held since h-sb18 (were strict xfails): the zygote imports from the standard library's
# folders only (warm_server.import_from_stdlib), and the server says `clean`, so takes the
# next run, only once the zygote's import is done (ImportZygote.ready).


def test_a_runs_files_never_reach_a_later_run_through_the_zygote(zygotes: None) -> None:
    code = LATE + "import builtins\nprint(getattr(builtins, 'rt26', None))\n"
    pyc = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(
        compile(POISON, "string.py", "exec"))
    later = []
    for _ in range(5):
        first = served(code, 1)[0]  # the server's child: the zygote is made after it
        assert (first.status, first.stdout) == ("ok", "None\n"), first
        files = sandbox.run(HOLDS_ITS_FILES, files={"string.pyc": pyc}, limits=LIMITS,
                            mode="warm")
        assert files.stdout == "['main.py', 'string.pyc']\n", files
        later += [sandbox.run(code, limits=LIMITS, mode="warm") for _ in range(2)]
    assert [(r.status, r.stdout) for r in later] == [("ok", "None\n")] * 10


def test_a_runs_folder_holds_only_its_files_after_a_zygote_is_made(zygotes: None) -> None:
    files = {"string.py": POISON}
    reference = sandbox.run(HOLDS_ITS_FILES, files=files, limits=LIMITS, mode="cold")
    assert (reference.status, reference.stdout) == ("ok", "['main.py', 'string.py']\n")
    seen_ = []
    for _ in range(5):
        first = served(LATE + "print('made')\n", 1)[0]
        assert (first.status, first.stdout) == ("ok", "made\n"), first
        seen_.append(sandbox.run(HOLDS_ITS_FILES, files=files, limits=LIMITS, mode="warm"))
    assert [(r.status, r.stdout) for r in seen_] == [(reference.status, reference.stdout)] * 5


WRITES_ITS_MODULE = r'''import sys, marshal, os, time
src = ("import os\nopen('/tmp/rt26', 'w').write(str(os.getuid()))\n"
       "exec(open('/usr/lib/python3.11/string.py').read())\n")
ext = sys.modules['_frozen_importlib_external']
code = ext.MAGIC_NUMBER + bytes(12) + marshal.dumps(compile(src, 'string.py', 'exec'))
open('/work/string.pyc', 'wb').write(code)
time.sleep(0.5)
try:
    print('ran as', open('/tmp/rt26').read(), 'me', os.getuid())
except OSError:
    print('absent')
'''
"""A program with no files: it writes a sourceless string.pyc into /work at once, then
looks for what that module would leave if something imported it."""


def test_a_programs_code_never_runs_in_a_zygote(zygotes: None) -> None:
    reference = cold(WRITES_ITS_MODULE)
    assert (reference.status, reference.stdout) == ("ok", "absent\n"), reference
    runs = []
    for _ in range(3):
        made = served(LATE + "print('made')\n", 1)[0]
        assert made.status == "ok", made
        runs.append(sandbox.run(WRITES_ITS_MODULE, limits=LIMITS, mode="warm"))
    assert [(r.status, r.stdout) for r in runs] == [("ok", "absent\n")] * 3


def test_a_runs_memory_does_not_depend_on_a_zygote_made_just_before(zygotes: None) -> None:
    limits = dataclasses.replace(LIMITS, memory_bytes=64 << 20)
    code = "import os\nx = b'x' * (60 << 20)\nprint(len(x))\n"  # not keyed
    steady = served("print('no zygote')\n", 1)[0]
    assert steady.status == "ok", steady
    alone = sandbox.run(code, limits=limits, mode="warm")
    assert (alone.status, alone.stdout) == ("ok", f"{60 << 20}\n"), alone
    after = []
    for _ in range(3):
        made = served(LATE + "print('made')\n", 1, limits)[0]
        assert made.status == "ok", made
        after.append(sandbox.run(code, limits=limits, mode="warm").status)
    assert after == ["ok"] * 3


def test_a_runs_files_without_a_zygote_being_made_stay_its_own(zygotes: None) -> None:
    """The same runs where the zygote exists already (made two runs before): its import is
    over, and neither the files' run nor a later one reads anything of the other."""
    code = LATE + "import builtins\nprint(getattr(builtins, 'rt26', None))\n"
    made = served(code, 2)
    assert [(r.status, r.stdout) for r in made] == [("ok", "None\n")] * 2, made
    for _ in range(2):
        files = sandbox.run(HOLDS_ITS_FILES, files={"string.py": POISON}, limits=LIMITS,
                            mode="warm")
        assert files.stdout == "['main.py', 'string.py']\n", files
        after = sandbox.run(code, limits=LIMITS, mode="warm")
        assert (after.status, after.stdout) == ("ok", "None\n"), after
