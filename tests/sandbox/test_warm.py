"""The warm path's own plumbing, against a cold run where they must agree: standard streams
built once in the server, inputs and stdin past one pipe write, output around the read
chunk size and the cap, limits that differ run to run on one server, and compile()."""

from __future__ import annotations

import ast
import dataclasses

import pytest
from sandbox_probes import MODES, SHORT

import sandbox
from sandbox import _warm

STREAMS = """
import sys
for s in (sys.stdin, sys.stdout, sys.stderr):
    print(s.fileno(), s.encoding, s.errors, s.line_buffering, s.seekable(), s.isatty(),
          s.readable(), s.writable(), s.buffer.seekable())
print(repr(sys.stdin.read()))
sys.stdout.write("out"); sys.stderr.write("err")
"""


def test_standard_streams_are_pipes_as_in_a_cold_run() -> None:
    cold = sandbox.run(STREAMS, stdin="in\n", limits=SHORT, mode="cold")
    for _ in range(3):  # premade in the server: every run gets them unused
        warm = sandbox.run(STREAMS, stdin="in\n", limits=SHORT, mode="warm")
        assert (warm.status, warm.stdout, warm.stderr) == ("ok", cold.stdout, cold.stderr)
    assert "False False" in warm.stdout and warm.stdout.endswith("'in\\n'\nout")


WORKER_STREAMS = """
import sys
def streams():
    print("out", end="")
    print("err", file=sys.stderr, end="")
    return [(s.fileno(), s.encoding, s.line_buffering, s.seekable(), s.isatty(), s.readable(),
             s.writable(), s.read(3) if s.readable() else None) for s in
            (sys.stdin, sys.stdout, sys.stderr)]
"""


def test_a_workers_standard_streams_are_as_in_a_cold_run() -> None:
    """An assert/check worker's streams (premade in the warm server): as a cold worker
    makes them, stdin empty, stdout and stderr reaching the report."""
    tests = ["assert False, streams()"]
    cold = sandbox.run_tests(WORKER_STREAMS, tests, limits=SHORT, mode="cold")
    assert "[(0, 'UTF-8', False, True, False, True, False, '')" in cold.results[0].message, cold
    for _ in range(3):  # every run's worker gets them unused
        warm = sandbox.run_tests(WORKER_STREAMS, tests, limits=SHORT, mode="warm")
        assert warm.results[0].message == cold.results[0].message, (warm, cold)
        assert (warm.execution.stdout, warm.execution.stderr) == ("out", "err"), warm


@pytest.mark.parametrize("mode", MODES)
def test_large_inputs_stdin_and_program_arrive_whole(mode: str) -> None:
    blob = bytes(range(256)) * 1200  # 300 KiB: many pipe writes
    padding = "#" + "x" * 99 + "\n"
    code = (padding * 1000 + "import sys, hashlib\n"
            "data = sys.stdin.buffer.read()\n"
            "print(len(data), hashlib.sha256(data).hexdigest())\n"
            "raw = open('deep/er/blob.bin', 'rb').read()\n"
            "print(len(raw), hashlib.sha256(raw).hexdigest(), len(open(__file__).read()))\n")
    ex = sandbox.run(code, stdin=blob, files={"deep/er/blob.bin": blob}, limits=SHORT,
                     mode=mode)
    import hashlib

    digest = hashlib.sha256(blob).hexdigest()
    assert ex.status == "ok", ex
    assert ex.stdout == f"{len(blob)} {digest}\n{len(blob)} {digest} {len(code)}\n"


@pytest.mark.parametrize("mode", MODES)
def test_unread_stdin_does_not_hang_the_run(mode: str) -> None:
    ex = sandbox.run("print('done')", stdin=b"z" * (1 << 20), limits=SHORT, mode=mode)
    assert (ex.status, ex.stdout) == ("ok", "done\n"), ex


@pytest.mark.parametrize("size", [1, 65535, 65536, 65537, 3 * 65536])
@pytest.mark.parametrize("mode", MODES)
def test_output_around_the_read_chunk_is_whole(mode: str, size: int) -> None:
    code = f"import sys\nsys.stdout.buffer.write(b'o' * {size})\nsys.stderr.write('e' * {size})\n"
    ex = sandbox.run(code, limits=dataclasses.replace(SHORT, output_bytes=1 << 20), mode=mode)
    assert ex.status == "ok" and not ex.truncated, ex.status
    assert (len(ex.stdout_bytes), len(ex.stderr)) == (size, size)


@pytest.mark.parametrize("mode", MODES)
def test_output_past_the_cap_is_cut_and_reported(mode: str) -> None:
    limits = dataclasses.replace(SHORT, output_bytes=100_000)
    ex = sandbox.run("import sys\nsys.stdout.buffer.write(b'o' * 300_000)\n", limits=limits,
                     mode=mode)
    assert (ex.status, ex.truncated, len(ex.stdout_bytes)) == ("output_limit", True, 100_000)


def test_limits_follow_each_run_on_one_server() -> None:
    """Runs with other rlimits share a pool (same disk and memory): each gets its own."""
    code = ("import resource\nprint(*(resource.getrlimit(getattr(resource, 'RLIMIT_' + k))"
            " for k in ('CPU', 'FSIZE', 'NOFILE')))\n")
    seen = []
    for cpu_s, files, size in [(1.0, 16, 1 << 20), (3.5, 48, 2 << 20), (1.0, 16, 1 << 20)]:
        limits = dataclasses.replace(SHORT, cpu_s=cpu_s, open_files=files, file_size_bytes=size)
        ex = sandbox.run(code, limits=limits, mode="warm")
        assert ex.status == "ok", ex
        seen.append(ex.stdout)
        cpu = max(1, int(cpu_s + 0.999))
        # soft and hard alike, as a cold jail's (nsjail --rlimit_cpu)
        assert ex.stdout == f"({cpu}, {cpu}) ({size}, {size}) ({files}, {files})\n"
    assert seen[0] == seen[2] != seen[1]
    assert len(_warm._pools) >= 1


@pytest.mark.parametrize("mode", MODES)
def test_compile_and_ast_work(mode: str) -> None:
    code = ("import ast\ntree = ast.parse('x = 1 + 2')\n"
            "exec(compile(tree, '<t>', 'exec'))\nprint(type(tree.body[0]).__name__, x)\n")
    ex = sandbox.run(code, limits=SHORT, mode=mode)
    assert (ex.status, ex.stdout) == ("ok", "Assign 3\n"), ex


def test_a_workers_program_reads_as_from_its_file_in_both_modes() -> None:
    """A warm worker loads the program from the text it has just written to /work/main.py,
    read as the file would be (universal newlines): CR and CRLF line ends, inside a string
    too, give what a cold worker reading the file gets."""
    code = ('S = """a\r\nb\rc"""\r\ndef f():\r\n'
            '    return [S, open("/work/main.py", "rb").read()[:9]]\r\n')
    cold = sandbox.run_tests(code, ["assert False, f()"], limits=SHORT, mode="cold")
    warm = sandbox.run_tests(code, ["assert False, f()"], limits=SHORT, mode="warm")
    assert "['a\\nb\\nc', b'S = \"\"\"a\\r'])" in cold.results[0].message, cold
    assert warm.results[0].message == cold.results[0].message, warm


IMPORT_SYSTEM = """
import sys
def import_system(own=()):
    finders = {key: None if finder is None else
               (type(finder).__name__, getattr(finder, "path", None),
                getattr(finder, "_path_mtime", None), len(getattr(finder, "_path_cache", ())))
               for key, finder in sys.path_importer_cache.items()}
    return repr((sorted(set(sys.modules) - set(own)), [getattr(f, "__qualname__", type(f).__name__)
                                       for f in sys.meta_path],
                 [getattr(h, "__qualname__", "") for h in sys.path_hooks], sys.path,
                 sorted(finders.items()),
                 [(s.name, s.encoding, s.errors) for s in (sys.stdin, sys.stdout, sys.stderr)]))
"""


def test_a_warm_program_frees_nothing_of_its_servers_imports() -> None:
    """`as_cold` takes the warm server's own modules out of a program's import system (the
    test below) without freeing them: the server holds them (`keep_imports`), so a child
    never writes to, and copies, the pages they are on. The harness's package, which only
    the import system refers to, is still in the program's memory (past `gc.freeze`)."""
    code = ("import gc, sys\ngc.unfreeze()\n"
            "print('_in_jail' in sys.modules, sum(type(o) is type(sys) and o.__name__ == "
            "'_in_jail' for o in gc.get_objects()))\n")
    for _ in range(2):
        warm = sandbox.run(code, limits=SHORT, mode="warm")
        assert (warm.status, warm.stdout) == ("ok", "False 1\n"), warm


def test_a_program_starts_from_a_cold_interpreters_import_system() -> None:
    """What a program finds of the import system at its start (the modules in sys.modules,
    sys.meta_path, sys.path_hooks, sys.path, each sys.path_importer_cache entry with its
    finder's state) is a fresh interpreter's, warm as cold (`harness_program.as_cold`): a
    plain program's, and an assert test's worker's (which names its streams as `open`
    makes them, cold and warm alike), but for the worker's module of the program itself,
    `solution` (`harness_program.program_module`), as a plain program's `__main__` is."""
    plain = IMPORT_SYSTEM + "print(import_system())\n"
    cold = sandbox.run(plain, limits=SHORT, mode="cold")
    assert cold.status == "ok" and "'collections'" not in cold.stdout, cold
    for _ in range(2):
        warm = sandbox.run(plain, limits=SHORT, mode="warm")
        assert (warm.status, warm.stdout) == ("ok", cold.stdout), warm
    started = ast.literal_eval(cold.stdout)[:5]
    test = (f"assert eval(import_system(['solution']))[:5] == {started!r}, import_system()\n"
            "assert 'solution' in eval(import_system())[0]")
    for mode in ("cold", "warm"):
        report = sandbox.run_tests(IMPORT_SYSTEM, [test], limits=SHORT, mode=mode)
        assert report.passed == 1, (mode, report)
