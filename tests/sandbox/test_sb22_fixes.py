"""Probes of h-sb25's fixes of red team sb22's roots (tests/sandbox/test_redteam_round_sb22.py):
the caller's inputs alone are checked before a run, a program too large for the room they
leave is its own failure (cold = warm); a cold program and its children get exactly
file_size_bytes; warm inputs travel as a stream written file by file (they count once in
the run's memory); the staging tree and a spare's copy of it are walked by directory
descriptors, and a name no jail takes is one ArgumentError naming it, in both modes.
Open here (strict xfail): ROOT_BIND_PATH."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterator

import pytest
from sandbox_probes import MODES, SHORT
from test_init import argv_of

import sandbox
from sandbox import _runner, _spare
from sandbox._errors import ArgumentError
from sandbox._in_jail import harness_wire

ROOT_BIND_PATH = (
    "cold = warm, unclassified host error: a cold run that binds its inputs file by file "
    "(`run_tests`' cold harness, compiled languages: `workspace.binds`) asks nsjail to "
    "mount '/work/' + name from the host's '/dev/shm/sandbox-XXXXXXXX/in/' + name, which "
    "fails for a name near PATH_MAX that a cold `run` (the init copies it) and warm take: "
    "SandboxError ('Failed to mount mandatory point') where warm passes; right: the same "
    "outcome as warm (one staging bind copied in, or one ArgumentError in both modes)")

RUNS = ["c", "python", "warm"]
ROOMY = dataclasses.replace(SHORT, wall_s=10.0, cpu_s=10.0)


def _run(code: str, where: str, files: dict[str, str | bytes] | None,
         limits: sandbox.Limits, monkeypatch: pytest.MonkeyPatch) -> sandbox.Execution:
    """`code` cold under the init `where` ('c', 'python'), or warm."""
    if where == "warm":
        return sandbox.run(code, files=files, limits=limits, mode="warm")
    argv = argv_of(where)
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    return sandbox.run(code, files=files, limits=limits, mode="cold")


def _deep(total: int) -> str:
    """A name of `total` bytes: folders 'd' down to a file of f's."""
    chain = "d/" * ((total - 1) // 2)
    return chain + "f" * (total - len(chain))


# --- the program's size is its own (ROOT_CODE_COUNTED) ---------------------------------------

MIB = dataclasses.replace(SHORT, disk_bytes=1 << 20)
TWO_PAGES_LEFT: dict[str, str | bytes] = {"big": b"x" * ((1 << 20) - 2 * 4096)}


@pytest.mark.parametrize("where", RUNS)
def test_a_program_that_fills_the_room_left_runs(where: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Two pages left beside the inputs, a program of two pages: it runs, in every mode."""
    code = "print('fits')\n" + "#" * (2 * 4096 - 20) + "\n"
    assert 4096 < len(code) <= 2 * 4096
    out = _run(code, where, TWO_PAGES_LEFT, MIB, monkeypatch)
    assert (out.status, out.stdout) == ("ok", "fits\n"), out


@pytest.mark.parametrize("where", RUNS)
def test_a_program_one_page_past_the_room_is_its_runtime_error(
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    code = "print('long')\n" + "#" * (2 * 4096) + "\n"
    out = _run(code, where, TWO_PAGES_LEFT, MIB, monkeypatch)
    assert (out.status, out.exit_code, out.stdout) == ("runtime_error", None, ""), out
    assert out.stderr.startswith("sandbox: main.py takes 12288 bytes of /work, more than "
                                 "the 8192 bytes"), out


@pytest.mark.parametrize("mode", MODES)
def test_a_huge_program_without_inputs_is_its_own_failure(mode: sandbox.Mode) -> None:
    """Model output alone past /work's size never raises: no inputs, a program of 2 MiB
    under disk_bytes of 1 MiB is a runtime_error, run_tests' every test an error."""
    code = "print(1)\n" + "#" * (2 << 20) + "\n"
    assert sandbox.run(code, limits=MIB, mode=mode).status == "runtime_error"
    report = sandbox.run_tests(code, [{"input": "", "output": "1\n"}] * 2, limits=MIB,
                               mode=mode)
    assert [r.outcome for r in report.results] == ["error", "error"], report
    assert report.execution.status == "runtime_error", report


def test_a_compiled_program_past_the_room_is_its_compile_error() -> None:
    code = "int main(void) { return 0; }\n" + "//" + "x" * (2 << 20) + "\n"
    out = sandbox.run(code, "c", limits=MIB)
    assert (out.status, out.exit_code) == ("compile_error", None), out
    assert "main.c takes" in out.stderr, out


@pytest.mark.parametrize("mode", MODES)
def test_inputs_that_leave_no_page_are_still_the_callers_error(mode: sandbox.Mode) -> None:
    """The caller's inputs must leave the smallest program its page, whatever the program."""
    with pytest.raises(ArgumentError, match="input files take 1052672 bytes"):
        sandbox.run("", files={"big": b"x" * ((1 << 20) - 4096 + 1)}, limits=MIB, mode=mode)


# --- exactly file_size_bytes (ROOT_FSIZE_MIB) -----------------------------------------------

WRITES = (
    "import os, signal, subprocess, sys\nsignal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
    "def put(name, n):\n"
    "    with open(name, 'wb', buffering=0) as fh:\n"
    "        try:\n            return fh.write(b'z' * n)\n"
    "        except OSError as e:\n            return e.errno\n"
    "print(put('a', 9000), flush=True)\n"
    "if os.fork() == 0:\n    print(put('b', 9000), flush=True)\n    os._exit(0)\n"
    "os.wait()\n"
    "print(subprocess.run([sys.executable, '-c', 'import resource as r;"
    " print(r.getrlimit(r.RLIMIT_FSIZE))'], capture_output=True, text=True).stdout, end='')\n")


@pytest.mark.parametrize("where", RUNS)
def test_every_program_process_stops_at_an_unaligned_file_size(
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """file_size_bytes=5001 (no page, no MiB): the program, its forked child and a
    subprocess hold exactly it, cold (both inits) as warm."""
    out = _run(WRITES, where, {"a.in": "x"},
               dataclasses.replace(SHORT, file_size_bytes=5001), monkeypatch)
    assert (out.status, out.stdout) == ("ok", "5001\n5001\n(5001, 5001)\n"), out


# --- warm inputs count once (ROOT_WARM_INPUT_PEAK) --------------------------------------------

@pytest.mark.parametrize("where", RUNS)
def test_three_inputs_of_most_of_the_memory_leave_an_honest_program_room(
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three inputs of 12 MiB (36 MiB) under 64 MiB of memory: print runs in every mode."""
    files: dict[str, str | bytes] = {f"d{i}/big": bytes([65 + i]) * (12 << 20)
                                     for i in range(3)}
    limits = dataclasses.replace(SHORT, memory_bytes=64 << 20, disk_bytes=64 << 20,
                                 wall_s=5.0, cpu_s=5.0)
    code = "print([open(f'd{i}/big', 'rb').read(2) for i in range(3)])\n"
    out = _run(code, where, files, limits, monkeypatch)
    assert (out.status, out.stdout) == ("ok", "[b'AA', b'BB', b'CC']\n"), out


@pytest.mark.parametrize("mode", MODES)
def test_the_stream_keeps_names_contents_and_the_programs_text(mode: sandbox.Mode) -> None:
    """Empty inputs, non-ASCII names, a lone surrogate in an input (its bytes as the
    host's `as_bytes` writes them) and in the program's text: the same in both modes."""
    code = ("import os\n# \ud800\nprint(sorted(os.listdir('.')), os.path.getsize('empty'),"
            " open('日本/é', 'rb').read())\n")
    files: dict[str, str | bytes] = {"empty": b"", "日本/é": "a\ud800b"}
    out = sandbox.run(code, files=files, limits=SHORT, mode=mode)
    assert (out.status, out.exit_code, out.stdout) == ("runtime_error", 1, ""), out
    out = sandbox.run(code.replace("# \ud800\n", ""), files=files, limits=SHORT, mode=mode)
    assert (out.status, out.stdout) == \
        ("ok", "['empty', 'main.py', '日本'] 0 b'a\\xed\\xa0\\x80b'\n"), out


def test_pack_inputs_reads_back_record_by_record() -> None:
    stream = harness_wire.pack_inputs("print(1)", [("a/b", b"xy" * 70000), ("c", b"")])
    r, w = os.pipe()
    try:
        os.write(w, stream[:60000])
        head = harness_wire.read_exactly(r, harness_wire.INPUT_HEAD)
        assert (int.from_bytes(head[:4], "big"), int.from_bytes(head[4:], "big")) == (7, 8)
        assert harness_wire.read_exactly(r, 7 + 8) == b"main.pyprint(1)"
    finally:
        os.close(r)
        os.close(w)


# --- names by directory descriptors (ROOT_SPARE_PATH, ROOT_HOST_PUT_PATH) -------------------

@pytest.mark.parametrize("where", RUNS)
def test_the_longest_name_a_jail_takes_runs_in_every_mode(
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """/harness/inputs/NAME at 4095 bytes (PATH_MAX with its NUL): a name of 4079."""
    name = _deep(4079)
    out = _run(f"print(open({name!r}).read())", where, {name: "deep"}, ROOMY, monkeypatch)
    assert (out.status, out.stdout) == ("ok", "deep\n"), out


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", [_deep(4080), "a/" + "n" * 256, "n" * 256])
def test_a_name_no_jail_takes_is_one_argument_error(name: str, mode: sandbox.Mode) -> None:
    with pytest.raises(ArgumentError, match="file name too long"):
        sandbox.run("print(1)", files={name: "x"}, limits=ROOMY, mode=mode)


@pytest.mark.parametrize("where", RUNS)
def test_a_part_of_255_bytes_runs(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    name = "p" * 255 + "/" + "q" * 255
    out = _run(f"print(open({name!r}).read())", where, {name: "ok"}, ROOMY, monkeypatch)
    assert (out.status, out.stdout) == ("ok", "ok\n"), out


def _wide_deep() -> tuple[dict[str, str | bytes], str]:
    """The longest name, and at every 100th level a file, a folder sorted before 'd' and
    one after it (the copies go down and back up by `..` at every depth); the program
    that counts the files and reads some back."""
    name = _deep(4079)
    parts = name.split("/")
    files: dict[str, str | bytes] = {name: "deep", "z/side": "side"}
    for level in range(100, len(parts) - 1, 100):
        at = "/".join(parts[:level])
        files.update({f"{at}/at{level}": str(level), f"{at}/a{level}/x": "a",
                      f"{at}/s{level}/y/z": "s"})
    code = ("import os\nn, todo = 0, ['.']\nwhile todo:\n"
            "    for e in os.scandir(todo.pop()):\n"
            "        if e.is_dir():\n            todo.append(e.path)\n"
            "        else:\n            n += 1\n"
            f"print(n, open({name!r}).read(), open('z/side').read(),"
            f" open({'/'.join(parts[:1000]) + '/at1000'!r}).read(),"
            f" open({'/'.join(parts[:1900]) + '/s1900/y/z'!r}).read())\n")
    return files, code


@pytest.mark.parametrize("where", RUNS)
def test_a_deep_wide_tree_is_copied_whole(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    files, code = _wide_deep()
    out = _run(code, where, files, ROOMY, monkeypatch)
    assert (out.status, out.stdout) == ("ok", f"{len(files) + 1} deep side 1000 s\n"), out


@pytest.fixture
def spare_waiting(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A spare jail of the C init's shape waiting for the next run of ROOMY."""
    argv = argv_of("c")
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    _spare.spares.close()
    for _ in range(2):
        sandbox.run("print(1)", files={"a": "b"}, limits=ROOMY, mode="cold")
    deadline = time.monotonic() + 20
    while not _spare.spares.waiting and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _spare.spares.waiting
    yield
    _spare.spares.close()


def test_a_deep_wide_tree_goes_through_a_spare(spare_waiting: None) -> None:
    """The same tree through a spare's staging (its walk goes back up by `..`)."""
    files, code = _wide_deep()
    out = sandbox.run(code, files=files, limits=ROOMY, mode="cold")
    assert (out.status, out.stdout) == ("ok", f"{len(files) + 1} deep side 1000 s\n"), out


@pytest.mark.xfail(strict=True, reason=ROOT_BIND_PATH)
def test_cold_tests_take_the_longest_name_as_warm() -> None:
    name = _deep(4079)
    report = sandbox.run_tests(f"print(open({name!r}).read())",
                               [{"input": "", "output": "deep\n"}], files={name: "deep"},
                               mode="cold", limits=ROOMY)
    assert [r.outcome for r in report.results] == ["pass"], report
