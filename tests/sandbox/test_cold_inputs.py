"""Probes of h-sb23: a cold Python run's inputs copied by its init (`init.take_inputs`, and
init.c's) from the staging folder, one read-only bind at `init.INPUTS` of the jail uid's
folder of mode 0o700, into /work's tmpfs, as a warm child writes them.

Against each init (C and Python): odd names, a 0-byte file, many files, deep folders, an
input larger than the program's RLIMIT_FSIZE, open_files=4 (the copy's descriptors are the
init's own), a program racing for its inputs, a staging folder that no program can read or
change (through a link of its own either), a spare jail of the shape serving runs of other
names. Inputs that cannot fit /work or the run's memory are a clear ArgumentError before
the run in both modes; a copy that fails in the jail anyway is a SandboxError naming the
errno, never a verdict; a staging folder holding what is no file or folder (a link) is
refused, never followed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from sandbox_probes import MODES, SHORT
from test_init import argv_of

import sandbox
from sandbox import _runner
from sandbox._errors import ArgumentError, SandboxError
from sandbox._in_jail import init as init_module
from sandbox._in_jail.init import FAILED, INPUTS, INPUTS_REPORT, OWN_PROCESSES
from sandbox._jail import JAIL_UID, PROGRAM_UID, run_jail
from sandbox._spare import SECRET
from sandbox._staging import IN_JAIL, staged_dir


@pytest.fixture(params=("c", "python"))
def init(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Cold runs of this test use the init named by the parameter."""
    argv = argv_of(request.param)
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    return str(request.param)


def both(code: str, files: dict[str, str | bytes],
         limits: sandbox.Limits = SHORT) -> list[tuple[str, str, str]]:
    """(status, stdout, stderr) cold, then warm."""
    outs = [sandbox.run(code, files=files, limits=limits, mode=mode) for mode in MODES]
    return [(out.status, out.stdout, out.stderr) for out in outs]


LISTING = (
    "import hashlib, os, resource\n"
    "found = []\n"
    "for folder, subs, names in os.walk('.'):\n"
    "    subs.sort()\n"
    "    st = os.stat(folder)\n"
    "    found.append((folder, st.st_uid, oct(st.st_mode)))\n"
    "    for n in sorted(names):\n"
    "        p = os.path.join(folder, n)\n"
    "        st = os.stat(p)\n"
    "        found.append((p, st.st_uid, oct(st.st_mode), st.st_size,"
    " hashlib.sha256(open(p, 'rb').read()).hexdigest()))\n"
    "print(sorted(map(repr, found)))\n"
    "print(resource.getrlimit(resource.RLIMIT_NOFILE), resource.getrlimit(resource.RLIMIT_FSIZE))\n"
)
"""Every file and folder of /work: owner, mode, size and a digest of its bytes; then the
program's open-files and file-size limits."""


def _same(files: dict[str, str | bytes], limits: sandbox.Limits = SHORT) -> None:
    cold, warm = both(LISTING, files, limits)
    assert cold[0] == "ok", cold
    assert cold == warm


CASES = {
    "odd bytes in names": {"sp ace/\u00e9\n\t.txt": "a", "x\udcff\udc80": b"b",
                           "-dash/.hidden": "c", "q'\"\\": "d"},
    "a 0-byte file": {"empty": "", "d/empty": b""},
    "300 files in 30 folders": {f"f{i % 30}/n{i}.txt": str(i) for i in range(300)},
    "a folder 120 deep": {"/".join(["d"] * 120) + "/in.txt": "x", "d/top": "t"},
    "names of 255 bytes": {"n" * 255 + "/" + "m" * 255: "x"},
}


@pytest.mark.parametrize("name", list(CASES))
def test_inputs_read_back_alike_cold_and_warm(init: str, name: str) -> None:
    _same(CASES[name])


def test_an_input_past_the_programs_file_size_limit_is_whole(init: str) -> None:
    """The init copies under RLIMIT_FSIZE of /work's size; the program gets its own (4 MiB)."""
    _same({"big": os.urandom(6 << 20)})


@pytest.mark.parametrize("open_files", [4, 5])
def test_deep_inputs_under_open_files_4(init: str, open_files: int) -> None:
    """The copy's directory stream and two files are the init's own descriptors: the
    program's limit reads as given, and every input is there, cold as warm."""
    limits = dataclasses.replace(SHORT, open_files=open_files)
    _same({"/".join(["d"] * 40) + "/in.txt": "x", "a/b/c.txt": "c", "top.txt": "t"}, limits)


def test_the_program_never_races_the_copy(init: str) -> None:
    """The program starts after the last byte is copied: a large input and many small ones
    read whole at its first instruction, every time."""
    big = os.urandom(3 << 20)
    files: dict[str, str | bytes] = {"big": big, **{f"s/{i}": str(i) for i in range(200)}}
    code = ("import hashlib, os\nbig = open('big', 'rb').read()\n"
            "print(hashlib.sha256(big).hexdigest(), len(os.listdir('s')), open('s/199').read())\n")
    want = f"{hashlib.sha256(big).hexdigest()} 200 199\n"
    for _ in range(3):
        out = sandbox.run(code, files=files, limits=SHORT, mode="cold")
        assert (out.status, out.stdout, out.stderr) == ("ok", want, ""), out


TRIES = ("os.listdir(I)", "open(I + '/main.py')", "os.listdir('link')",
         "open('link/main.py')", "os.chmod(I, 0o777)", "os.mkdir(I + '/x')",
         "os.rename(I, '/work/i')", "os.rmdir(I)", "os.open(I, os.O_RDONLY)",
         "os.unlink(I + '/main.py')", "os.utime(I)")
STAGING = (
    f"import os, errno\nI = {INPUTS!r}\nos.symlink(I, 'link')\n"
    "def tried(text):\n"
    "    try:\n        eval(text)\n        return 'done'\n"
    "    except OSError as e:\n        return errno.errorcode[e.errno]\n"
    f"for text in {TRIES!r}:\n"
    "    print(text, tried(text))\n"
    "st = os.stat(I)\nprint(st.st_uid, oct(st.st_mode))\n"
)


def test_no_program_reads_or_changes_the_staging_folder(init: str) -> None:
    out = sandbox.run(STAGING, files={"d/a.txt": "x"}, limits=SHORT, mode="cold")
    assert out.status == "ok", out
    lines = out.stdout.splitlines()
    assert lines[-1] == f"{JAIL_UID} 0o40700"
    for line in lines[:-1]:
        assert line.rsplit(" ", 1)[1] in ("EACCES", "EPERM", "EBUSY", "EROFS", "EXDEV"), line


def test_a_spare_of_the_shape_serves_runs_of_other_names() -> None:
    """The staging folder's names are no part of a spare's shape: each run sees its own
    inputs, none of the run before."""
    code = "import os\nprint(sorted(os.listdir('.')), sorted(os.listdir('d')))\n"
    for i in range(4):
        files = {f"d/f{i}": "x", f"g{i % 2}": "y"}
        out = sandbox.run(code, files=files, limits=SHORT, mode="cold")
        assert out.stdout == f"{['d', f'g{i % 2}', 'main.py']} {[f'f{i}']}\n", out


# --- inputs that do not fit ----------------------------------------------------------------

TOO_LARGE = {
    "past disk_bytes": {"big": b"x" * ((8 << 20) + 1)},
    "past disk_bytes in pages": {f"f{i}": b"x" for i in range(2049)},
    "past disk_files": {f"f{i}": "" for i in range(4096)},
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(TOO_LARGE))
def test_inputs_that_cannot_fit_are_an_argument_error(name: str, mode: sandbox.Mode) -> None:
    with pytest.raises(ArgumentError, match="input files take"):
        sandbox.run("print(1)", files=TOO_LARGE[name], limits=SHORT, mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_tests_with_inputs_that_cannot_fit_are_an_argument_error(mode: sandbox.Mode) -> None:
    with pytest.raises(ArgumentError, match="input files take"):
        sandbox.run_tests("print(1)", [{"input": "", "output": "1"}], limits=SHORT, mode=mode,
                          files=TOO_LARGE["past disk_bytes"])


@pytest.mark.parametrize("mode", MODES)
def test_inputs_past_memory_bytes_are_an_argument_error(mode: sandbox.Mode) -> None:
    limits = dataclasses.replace(SHORT, memory_bytes=4 << 20)
    with pytest.raises(ArgumentError, match="memory_bytes"):
        sandbox.run("print(1)", files={"big": b"x" * (5 << 20)}, limits=limits, mode=mode)


def test_inputs_that_just_fit_run(init: str) -> None:
    """The check counts what tmpfs counts: 8 MiB less the program's page fits 8 MiB."""
    out = sandbox.run("import os\nprint(os.path.getsize('big'))", limits=SHORT, mode="cold",
                      files={"big": b"x" * ((8 << 20) - 4096)})
    assert (out.status, out.stdout) == ("ok", f"{(8 << 20) - 4096}\n"), out


def test_a_copy_that_fails_in_the_jail_is_the_sandboxs_failure(
        init: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the host's check (turned off here), /work full during the copy: a SandboxError
    with the errno (ENOSPC), never the program's verdict."""
    monkeypatch.setattr(_runner, "check_inputs_fit", lambda *args: None)
    monkeypatch.setattr(_runner, "program_too_large", lambda *args: None)
    with pytest.raises(SandboxError, match="errno 28"):
        sandbox.run("print(1)", files={"big": b"x" * (9 << 20)}, limits=SHORT, mode="cold")


def test_a_forged_inputs_report_is_the_programs_stderr(init: str) -> None:
    """The report carries the run's nonce, which no program knows: one it writes itself,
    then exit 70, stays its own runtime error."""
    code = ("import os, sys\n"
            f"os.write(2, {INPUTS_REPORT!r} + b'0123456789abcdef 28\\n')\nsys.exit({FAILED})\n")
    out = sandbox.run(code, limits=SHORT, mode="cold")
    assert (out.status, out.exit_code) == ("runtime_error", FAILED), out


def test_a_link_in_the_staging_folder_is_refused_never_followed(init: str) -> None:
    """Only the host writes the staging folder, and only files and folders; a link there
    (a host bug) ends the init before the program, EINVAL, its target untouched."""
    root = Path(tempfile.mkdtemp(prefix="sb23-"))
    root.chmod(0o755)  # as the workspace's: nsjail binds from inside the jail's namespace
    try:
        staging = root / "in"
        staging.mkdir(mode=0o700)
        os.chown(staging, JAIL_UID, JAIL_UID)
        (staging / "a.txt").write_text("a")
        os.symlink("/harness", staging / "link")
        nonce = "0123456789abcdef"
        raw = run_jail([*_runner.cold_init(), SECRET, str(PROGRAM_UID), str(4 << 20),
                        "/bin/echo", "ran"], SHORT, stdin=b"", output_bytes=1 << 16,
                       spare=False, binds=[(staged_dir(), IN_JAIL), (str(staging), INPUTS)],
                       extra_processes=OWN_PROCESSES, program_uid=True, secret=nonce)
        assert (raw.exit_code, raw.stdout) == (FAILED, b"")
        assert raw.stderr.endswith(INPUTS_REPORT + f"{nonce} 22\n".encode())
    finally:
        shutil.rmtree(root)


def test_the_python_copy_on_the_host_follows_no_link(tmp_path: Path) -> None:
    source, target, outside = tmp_path / "s", tmp_path / "t", tmp_path / "o"
    for folder in (source / "d", target, outside):
        folder.mkdir(parents=True)
    (source / "d" / "f").write_text("f")
    (outside / "g").write_text("g")
    os.symlink(outside, source / "d" / "z")
    with pytest.raises(OSError, match="not a file or folder"):
        init_module.take_inputs(str(source), str(target))
    assert (target / "d" / "f").read_text() == "f"
    assert oct((target / "d").stat().st_mode) == "0o41777"
    assert not (target / "d" / "z").exists()
    assert sorted(os.listdir(outside)) == ["g"]


# --- open --------------------------------------------------------------------------------

OPEN_HARNESS = (
    "warm/cold (run_tests), Verdicts lost: a cold test harness's inputs are still read-only "
    "binds (nsjail -R per file, its folders opened by init.open_folders), not the init's "
    "copy (init.take_inputs needs the harness's own RLIMIT_FSIZE, lowered in every program "
    "process, workers included): a write over an input reads EROFS cold, EACCES warm")


@pytest.mark.parametrize("mode", [
    pytest.param("cold", marks=pytest.mark.xfail(strict=True, reason=OPEN_HARNESS)), "warm"])
def test_a_test_harness_input_refuses_a_write_as_a_plain_runs(mode: sandbox.Mode) -> None:
    code = ("import errno\ntry:\n    open('d/a.txt', 'w')\nexcept OSError as e:\n"
            "    print(errno.errorcode[e.errno])\n")
    report = sandbox.run_tests(code, [{"input": "", "output": "EACCES\n"}], limits=SHORT,
                               mode=mode, files={"d/a.txt": "x"})
    assert [r.outcome for r in report.results] == ["pass"], report.results
