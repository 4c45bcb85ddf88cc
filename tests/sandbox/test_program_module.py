"""An assert/check test's program runs in a real module, `solution`, registered in its
worker's `sys.modules` (`harness_program.program_module`), so pickle finds its functions
and classes by reference as it finds a host script's in `__main__`: Pool.map,
ProcessPoolExecutor and Queues of its own objects pass (red team sb21's ROOT_PICKLE). The
module is the worker's alone: whatever the program does to it or to sys.modules, the
verdict is the harness's. Spawn and forkserver children fail to unpickle the program's
functions, as a host script read from stdin fails, and start no harness launcher.

And /dev/shm's inodes are bounded by its size, not `disk_files` (red team sb21's
ROOT_SHM_INODES): 5000 live multiprocessing.Values pass, empty files stop at the bound, and
what they leave reaches no next run. Cold and warm alike."""

from __future__ import annotations

import dataclasses

import pytest
from sandbox_probes import PASS, SHORT, ok_stdout, outcomes

import sandbox
from sandbox import _warm
from sandbox._runner import Mode

MODES: tuple[Mode, ...] = ("cold", "warm")
pytestmark = pytest.mark.usefixtures("sandbox_ready")

LIMITS = dataclasses.replace(SHORT, memory_bytes=(256 << 20) + (121 << 20), wall_s=20.0,
                             cpu_s=10.0, test_wall_s=8.0)
"""test_redteam_round_sb21.py's limits: its warm pool."""

SQ = "import multiprocessing as mp, pickle, sys\ndef sq(x):\n    return x * x\n"


def results(code: str, tests: list[str] | str, mode: Mode, **kw: object
            ) -> list[tuple[str, str]]:
    report = sandbox.run_tests(code, tests, limits=LIMITS, mode=mode,
                               **kw)  # type: ignore[arg-type]
    return [(r.outcome, r.message) for r in report.results]


# --- the program's own objects pickle, in assert and check tests ------------------------------

OWN = {
    "a check(candidate) test of a Pool.map": (
        SQ + "def f(n):\n    with mp.Pool(2) as p:\n        return p.map(sq, range(n))\n",
        ("def check(candidate):\n    assert candidate(4) == [0, 1, 4, 9]\n"
         "    assert candidate(2) == [0, 1]\n"), "f"),
    "a class of the task's setup code through a Queue": (
        SQ + "def f(x):\n    q = mp.Queue()\n    q.put(Pair(x, x + 1))\n"
        "    p = q.get(timeout=5)\n    return [p.a, p.b]\n",
        "def check(candidate):\n    assert candidate(3) == [3, 4]\n", "f"),
    "a deep copy and a pickle of a nested class": (
        SQ + "import copy\nclass Outer:\n    class Inner:\n        def __init__(self, v):\n"
        "            self.v = v\n"
        "def f():\n    i = pickle.loads(pickle.dumps(Outer.Inner([1])))\n"
        "    return [i.v, copy.deepcopy(Outer.Inner(2)).v, type(i).__module__]\n",
        "def check(candidate):\n    assert candidate() == [[1], 2, 'solution']\n", "f"),
    "functions and classes named like standard-library modules": (
        SQ + "def heapq(x):\n    return -x\nclass json:\n    pass\n"
        "def f():\n    with mp.Pool(2) as p:\n        out = p.map(heapq, [1, 2])\n"
        "    return [out, type(pickle.loads(pickle.dumps(json()))).__qualname__]\n",
        "def check(candidate):\n    assert candidate() == [[-1, -2], 'json']\n", "f"),
}
SETUP = "class Pair:\n    def __init__(self, a, b):\n        self.a, self.b = a, b\n"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(OWN))
def test_the_programs_own_objects_pickle_in_a_check_test(name: str, mode: Mode) -> None:
    code, check, entry = OWN[name]
    assert results(code, check, mode, entry_point=entry, setup=SETUP) == [("pass", "")]


@pytest.mark.parametrize("mode", MODES)
def test_the_program_is_a_module_named_solution_its_main_block_unrun(mode: Mode) -> None:
    """`__name__` stays 'solution' (the guarded block of a script does not run under its
    tests, as before and as under HumanEval/MBPP/LiveCodeBench); `import solution` is the
    program itself; the worker's `__main__` has no file (a stdin script's)."""
    code = (SQ + "ran = False\nif __name__ == '__main__':\n    ran = True\n"
            "def f():\n    import solution, __main__\n"
            "    return [__name__, sq.__module__, solution.sq is sq, ran,"
            " hasattr(__main__, '__file__')]\n")
    want = "assert f() == ['solution', 'solution', True, False, False]"
    assert outcomes(code, [want, want], mode, limits=LIMITS) == [PASS, PASS]


# --- the verdict stays the harness's ----------------------------------------------------------

FORGERS = {
    "a fake module put in sys.modules['solution']": (
        "import sys, types\ndef f():\n    return 1\n"
        "fake = types.ModuleType('solution')\nfake.f = lambda: 2\n"
        "sys.modules['solution'] = fake\n"),
    "its own module's f replaced after load, at the first call": (
        "import sys\ndef right():\n    return 2\n"
        "def f():\n    sys.modules[__name__].f = right\n    globals()['f'] = right\n"
        "    return 1\n"),
    "sys.modules['solution'] removed": (
        "import sys\ndef f():\n    sys.modules.pop('solution', None)\n    return 1\n"),
    "itself registered as json, with a forging dumps": (
        "import sys\ndef dumps(x):\n    return '2'\ndef f():\n    return 1\n"
        "sys.modules['json'] = sys.modules[__name__]\n"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(FORGERS))
def test_what_the_program_does_to_its_module_forges_no_verdict(name: str, mode: Mode) -> None:
    """f returns 1 where the tests want 2: every test fails, whatever the program did to
    its module or to sys.modules (the harness calls the f it loaded, and its `json` is its
    own)."""
    tests = ["assert f() == 2", "assert f() == 2", "assert json.dumps(f()) == '2'"]
    assert [outcome for outcome, _ in results(FORGERS[name], tests, mode)] == ["fail"] * 3


@pytest.mark.parametrize("mode", MODES)
def test_assert_code_pickles_plain_data_not_program_objects(mode: Mode) -> None:
    """A test that pickles what the program returned: plain data round-trips; a program
    object (a handle to the worker's) is a TypeError, the same cold and warm (it was a
    RecursionError warm, another error cold)."""
    code = ("class P:\n    def __init__(self, x):\n        self.x = x\n"
            "def f():\n    return [1, (2, 'a')]\n")
    tests = ["import pickle\nassert pickle.loads(pickle.dumps(f())) == [1, (2, 'a')]",
             "import pickle\nassert pickle.loads(pickle.dumps(P(4))).x == 4",
             "import copy\nassert copy.copy(P(4)).x == 4"]
    got = results(code, tests, mode)
    assert got[0] == ("pass", "")
    for outcome, message in got[1:]:
        assert (outcome, message.split(":")[0]) == ("error", "TypeError"), got


START_METHODS = ("spawn", "forkserver")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("method", START_METHODS)
def test_spawn_and_forkserver_fail_as_a_stdin_script_and_start_no_harness(
    method: str, mode: Mode
) -> None:
    """A spawn or forkserver child cannot unpickle the program's own function (no module
    `solution` to import: exit code 1, as a host's `python3 - < script` fails on its
    `__main__` function), runs a standard-library target (exit code 0), and never starts the
    harness launcher (its `__main__` has no file to run)."""
    code = (SQ + "import os\n"
            f"def child(target):\n    p = mp.get_context('{method}').Process(target=target,"
            " args=(3,))\n    p.start()\n    p.join(20)\n    return p.exitcode\n"
            "def f():\n    return [child(sq), child(abs)]\n")
    report = sandbox.run_tests(code, ["assert f() == [1, 0]"], limits=LIMITS, mode=mode)
    assert [(r.outcome, r.message) for r in report.results] == [("pass", "")], report
    stderr = report.execution.stderr
    assert "No module named 'solution'" in stderr and "/harness/" not in stderr, stderr


@pytest.mark.parametrize("mode", MODES)
def test_fork_pools_pass_as_assert_tests(mode: Mode) -> None:
    code = (SQ + "def f(method):\n    with mp.get_context(method).Pool(2) as p:\n"
            "        return p.map(sq, range(4))\n")
    assert outcomes(code, ["assert f('fork') == [0, 1, 4, 9]"] * 2, mode,
                    limits=LIMITS) == [PASS, PASS]


# --- /dev/shm's inodes: its size, not disk_files ---------------------------------------------

FLOOD = ("import os\ni = 0\ntry:\n    while True:\n"
         "        open(f'/dev/shm/{i}', 'w').close()\n        i += 1\n"
         "except OSError as e:\n    print(e.errno, i, os.statvfs('/dev/shm').f_files)\n")
LISTING = ("import os\nv = os.statvfs('/dev/shm')\n"
           "print(sorted(os.listdir('/dev/shm')), v.f_bfree, v.f_ffree, v.f_files)\n")


def alive_servers() -> list[int]:
    return [server.proc.pid for server in _warm._pool(LIMITS).servers if server.alive()]


@pytest.mark.parametrize("mode", MODES)
def test_dev_shm_holds_five_thousand_semaphores(mode: Mode) -> None:
    code = ("import multiprocessing as mp\nvs = [mp.Value('i', i) for i in range(5000)]\n"
            "ls = [mp.Lock() for _ in range(2000)]\n"
            "print(sum(v.value for v in vs) == 4999 * 5000 // 2,"
            " all(x.acquire(False) for x in ls))\n")
    assert ok_stdout(code, mode, limits=LIMITS) == "True True\n"


@pytest.mark.parametrize("mode", MODES)
def test_empty_files_in_dev_shm_stop_at_its_bound_and_reach_no_next_run(mode: Mode) -> None:
    """Empty files stop with ENOSPC at one inode per two pages of the size (the root folder
    takes one); the next run finds /dev/shm fresh; a warm server that ran the flood
    retires (it made files: docs/sandbox.md, "What a run can leave")."""
    fresh = ok_stdout(LISTING, mode, limits=LIMITS)
    bound = LIMITS.memory_bytes // 8192
    assert fresh.startswith("[] ") and fresh.endswith(f" {bound}\n"), fresh
    before = alive_servers() if mode == "warm" else []
    assert ok_stdout(FLOOD, mode, limits=LIMITS) == f"28 {bound - 1} {bound}\n"
    if mode == "warm":
        assert not set(before) & set(alive_servers()), "the server that ran it is kept"
    assert ok_stdout(LISTING, mode, limits=LIMITS) == fresh
