"""Red team round sb22 (rt46) on h-sb23's cold input copy: a cold Python run's inputs staged
in a host folder of the jail uid (0o700), bound read-only at `init.INPUTS`, copied by the
cold init (`init.c`'s and `init.py`'s `take_inputs`) into /work before it forks the program,
under RLIMIT_NOFILE and RLIMIT_FSIZE of its own that its child lowers to the program's;
`_workspace.check_inputs_fit`; spare jails that hard-link the run's tree into a staging
folder of their own (`_spare.Spare.fill_staging`).

81 probes: 69 held, 12 open (strict xfails) under 5 roots, all closed by h-sb25 (plain
tests now; its probes in test_sb22_fixes.py):
- ROOT_FSIZE_MIB (6): the cold program's RLIMIT_FSIZE is file_size_bytes rounded up to a
  MiB (1000 asked, 1 MiB granted: a cold program writes 5096 bytes where warm stops at 1000).
- ROOT_CODE_COUNTED (3): check_inputs_fit counts the program (model output) in what it
  refuses: a program one page past the room the inputs leave raises ArgumentError.
- ROOT_WARM_INPUT_PEAK (1): warm holds the payload twice in the run's memory while it writes
  the inputs: 32 MiB of inputs under 64 MiB end print(1) as memory_limit warm, ok cold.
- ROOT_SPARE_PATH (1): Spare.fill_staging's absolute host paths: a 4060-byte input name
  raises a raw OSError whenever a spare is waiting (ok without one, ok warm).
- ROOT_HOST_PUT_PATH (1): workspace._put's absolute host paths: a 4075-byte name raises a
  raw OSError cold, ok warm.
Held: the program's and its children's RLIMIT_NOFILE / RLIMIT_FSIZE (whole MiB) and
descriptors are exactly its own; no way from the program to the staging folder (O_PATH and
*at calls, links, renames, /proc, /dev/fd, mount, umount, unshare, open_by_handle_at);
no run spoils the inputs of the runs after it (spares' hard links), the host folders go
with the run; five forged inputs reports stay the program's exit 70; inodes and pages that
just fit run cold (both inits) as warm, one more is an ArgumentError in both modes; the
copies are the run's memory; 4000-byte names; the same /work (owners, modes, links,
blocks, statvfs, errnos) cold as warm.
Not probed (timing; h-sb25 walks by directory descriptors): the cold copy resolved absolute paths at every level (quadratic in
depth) inside the program's wall clock (the spare is released before the copy): on the 2-core
helper machine a 2000-deep input tree's print run took 1.6 s (C init) and 1.0 s (Python
init) cold against 0.3 s warm at load 9, and a 1950-deep one timed out at wall_s=2 cold
(C init) at load 13."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Iterator

import pytest
from sandbox_probes import MODES, SHORT, Host
from test_init import argv_of

import sandbox
from sandbox import _runner, _spare, _workspace
from sandbox._errors import ArgumentError
from sandbox._in_jail.init import FAILED, INPUTS, INPUTS_REPORT, SIGNAL_REPORT
from sandbox._jail import JAIL_UID, PROGRAM_UID

# --- roots of the holes (one per root) ------------------------------------------------------

ROOT_FSIZE_MIB = (
    "Resources / cold = warm: `_runner.run` passes the cold init `_mb(file_size_bytes) << 20` "
    "as the program's RLIMIT_FSIZE (nsjail's MiB rounding, kept although the init now sets "
    "the limit itself), so a cold program may write up to the next MiB (1000 bytes asked: "
    "1 MiB granted) where warm's `set_limit` gives exactly `file_size_bytes` and "
    "docs/sandbox.md says 'One file is at most file_size_bytes': the right limit is "
    "file_size_bytes exactly, in every program process, cold as warm")
ROOT_CODE_COUNTED = (
    "Verdicts lost by masking: `_workspace.check_inputs_fit` counts the program's own text "
    "(model output) in the bytes it refuses as ArgumentError, so a program one page longer "
    "than the room the task's inputs leave raises out of sandbox.run / run_tests (rewards "
    "pass ArgumentError through: no score) instead of being the program's verdict; the "
    "right outcome is a run that ends as the program's own failure (runtime_error, score 0), "
    "as warm's exit 70 before h-sb23: only inputs that cannot fit alone are the caller's error")
ROOT_WARM_INPUT_PEAK = (
    "cold = warm, Verdicts lost: `warm_server.take_inputs` holds the run's payload twice "
    "(`read_all`'s bytes and `marshal.loads`'s objects) in the run's memory while "
    "`write_inputs` puts a third copy in /work's tmpfs: inputs of 32 MiB under memory_bytes "
    "of 64 MiB end an honest print(1) as memory_limit warm, ok cold (C and Python init), "
    "although check_inputs_fit admitted them and docs/sandbox.md says the inputs count once "
    "('200 MiB of inputs under 256 MiB has about 56 MiB left'); right: ok as cold")
ROOT_SPARE_PATH = (
    "cold = warm, unclassified host error: `_spare.Spare.fill_staging` walks the spare's "
    "staging by absolute host paths ('/dev/shm/sandbox-spare-XXXXXXXX/staging/' + name, 11 "
    "bytes longer than the workspace's), so an input name the workspace wrote and the init "
    "copies (4060 bytes) raises a raw OSError ENAMETOOLONG out of sandbox.run whenever a "
    "spare is waiting (ok when none is: the verdict depends on spare timing); warm runs it; "
    "right: ok, as warm and as a run without a spare (walk by directory descriptors)")
ROOT_HOST_PUT_PATH = (
    "cold = warm, unclassified host error: `_workspace.workspace._put` and `_make_folders` "
    "write the staging tree by absolute host paths ('/dev/shm/sandbox-XXXXXXXX/in/' + name), "
    "so an input name of 4075 bytes, which warm's `write_inputs` writes as '/work/' + name "
    "and the init could copy as '/harness/inputs/' + name, raises a raw OSError "
    "ENAMETOOLONG out of a cold sandbox.run (neither ArgumentError nor SandboxError); right: "
    "ok as warm (by directory descriptors), or one ArgumentError in both modes")


@pytest.fixture(params=("c", "python"))
def init(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Cold runs of this test use the init named by the parameter."""
    argv = argv_of(request.param)
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    return str(request.param)


RUNS = ["c", "python", "warm"]


def _run(code: str, where: str, files: dict[str, str | bytes] | None = None,
         limits: sandbox.Limits = SHORT, monkeypatch: pytest.MonkeyPatch | None = None
         ) -> sandbox.Execution:
    """`code` cold under the init `where` ('c', 'python'), or warm."""
    if where == "warm":
        return sandbox.run(code, files=files, limits=limits, mode="warm")
    assert monkeypatch is not None
    argv = argv_of(where)
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    return sandbox.run(code, files=files, limits=limits, mode="cold")


# --- A. the init's own rlimits never reach the program -------------------------------------

LIMITS = (
    "import fcntl, os, resource, subprocess, sys\n"
    "def mine():\n"
    "    fds = []\n"
    "    for fd in range(3, 4096):\n"
    "        try:\n"
    "            fcntl.fcntl(fd, fcntl.F_GETFD)\n"
    "            fds.append(fd)\n"
    "        except OSError:\n"
    "            pass\n"
    "    return [resource.getrlimit(resource.RLIMIT_NOFILE),"
    " resource.getrlimit(resource.RLIMIT_FSIZE), fds]\n"
    "print(mine(), flush=True)\n"
    "r, w = os.pipe()\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.close(r)\n"
    "    os.write(w, repr(mine()).encode())\n"
    "    os._exit(0)\n"
    "os.close(w)\n"
    "os.waitpid(pid, 0)\n"
    "print(os.read(r, 4096).decode(), flush=True)\n"
    "os.close(r)\n"
    "print(subprocess.run([sys.executable, '-c', 'import resource as r; "
    "print([r.getrlimit(r.RLIMIT_NOFILE), r.getrlimit(r.RLIMIT_FSIZE)])'],"
    " capture_output=True, text=True).stdout, end='')\n")
"""The program's RLIMIT_NOFILE, RLIMIT_FSIZE and descriptors past 2; its forked child's
(the pipe it reports on is fds 3 and 4, one closed); a subprocess's limits."""


def _limits_seen(open_files: int, fsize: int) -> str:
    both = f"({open_files}, {open_files})", f"({fsize}, {fsize})"
    return (f"[{both[0]}, {both[1]}, []]\n[{both[0]}, {both[1]}, [4]]\n"
            f"[{both[0]}, {both[1]}]\n")


@pytest.mark.parametrize("where", RUNS)
@pytest.mark.parametrize("open_files", [16, 64])
def test_open_files_and_a_mib_file_size_are_the_programs_in_every_process(
        where: str, open_files: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """No descriptor of the copy is inherited; the jail's open_files + OWN_FILES and its
    RLIMIT_FSIZE of /work's size are the init's alone: the program, its forked child and a
    subprocess read exactly open_files and file_size_bytes (4 MiB, a whole MiB)."""
    out = _run(LIMITS, where, {"d/a.txt": "x", "big": b"y" * (5 << 20)},
               dataclasses.replace(SHORT, open_files=open_files), monkeypatch)
    assert (out.status, out.stdout, out.stderr) == \
        ("ok", _limits_seen(open_files, 4 << 20), ""), out


@pytest.mark.parametrize("fsize", [1000, 3 << 19])
def test_warm_file_size_is_exactly_file_size_bytes(fsize: int) -> None:
    out = _run(LIMITS, "warm", {"a": "x"}, dataclasses.replace(SHORT, file_size_bytes=fsize))
    assert (out.status, out.stdout) == ("ok", _limits_seen(64, fsize)), out


@pytest.mark.parametrize("fsize", [1000, 3 << 19])
def test_cold_file_size_is_exactly_file_size_bytes(init: str, fsize: int) -> None:
    out = sandbox.run(LIMITS, files={"a": "x"}, mode="cold",
                      limits=dataclasses.replace(SHORT, file_size_bytes=fsize))
    assert (out.status, out.stdout) == ("ok", _limits_seen(64, fsize)), out


WRITE_PAST = (
    "import errno, signal\nsignal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
    "def put(name, n):\n"
    "    try:\n"
    "        with open(name, 'wb', buffering=0) as fh:\n"
    "            return fh.write(b'z' * n)\n"
    "    except OSError as e:\n"
    "        return errno.errorcode[e.errno]\n"
    "print(put('exact', {size}), put('past', {size} + 1), put('d/past', {size} + 4096))\n")
"""A write of file_size_bytes, then of one byte more, then of a page more (in an input
folder): the second and third stop at the limit (a short write: the size written)."""


@pytest.mark.parametrize("where", RUNS)
def test_a_write_stops_at_a_whole_mib_file_size_cold_as_warm(
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    size = 1 << 20
    out = _run(WRITE_PAST.format(size=size), where, {"d/in": "x"},
               dataclasses.replace(SHORT, file_size_bytes=size), monkeypatch)
    assert (out.status, out.stdout) == ("ok", f"{size} {size} {size}\n"), out


def test_warm_write_stops_at_1000_bytes() -> None:
    out = _run(WRITE_PAST.format(size=1000), "warm", {"d/in": "x"},
               dataclasses.replace(SHORT, file_size_bytes=1000))
    assert (out.status, out.stdout) == ("ok", "1000 1000 1000\n"), out


def test_cold_write_stops_at_1000_bytes(init: str) -> None:
    out = sandbox.run(WRITE_PAST.format(size=1000), files={"d/in": "x"}, mode="cold",
                      limits=dataclasses.replace(SHORT, file_size_bytes=1000))
    assert (out.status, out.stdout) == ("ok", "1000 1000 1000\n"), out


def test_open_files_4_leaves_the_program_one_descriptor(init: str) -> None:
    """open_files=4: the copy had its own three; the program opens fd 3 and no fourth, its
    input copied whole beside 40 folders of depth."""
    code = ("import errno, os\nfd = os.open('in.txt', os.O_RDONLY)\n"
            "try:\n    os.open('in.txt', os.O_RDONLY)\nexcept OSError as e:\n"
            "    print(fd, errno.errorcode[e.errno], os.read(fd, 9))\n")
    files = {"in.txt": "all here", "/".join(["d"] * 40) + "/x": "x"}
    out = sandbox.run(code, files=files, mode="cold",
                      limits=dataclasses.replace(SHORT, open_files=4))
    assert (out.status, out.stdout) == ("ok", "3 EMFILE b'all here'\n"), out


# --- B. the staging folder, the host, and the next run --------------------------------------

REACH = r'''
import ctypes, errno, json, os
libc = ctypes.CDLL(None, use_errno=True)
I = "/harness/inputs"
out = {}
def t(key, f):
    try:
        out[key] = repr(f())
    except OSError as e:
        out[key] = errno.errorcode[e.errno]
t("stat", lambda: (os.stat(I).st_uid, oct(os.stat(I).st_mode)))
t("opath", lambda: os.open(I, os.O_PATH) > 2)
t("opath_list", lambda: os.listdir(os.open(I, os.O_PATH)))
t("opath_open", lambda: os.open("main.py", os.O_RDONLY, dir_fd=os.open(I, os.O_PATH)))
t("opath_stat", lambda: os.stat("main.py", dir_fd=os.open(I, os.O_PATH)).st_size)
t("link_at", lambda: os.link(I + "/main.py", "stolen"))
t("proc_self_fd", lambda: os.listdir("/proc/self/fd"))
t("proc_1", lambda: os.listdir("/proc/1"))
t("dev_fd", lambda: os.listdir("/dev/fd"))
t("chdir", lambda: os.chdir(I))
t("symlink_in", lambda: os.symlink("/work", I + "/w"))
t("rename_over", lambda: os.rename("main.py", I + "/main.py"))
def c(f):
    return errno.errorcode.get(ctypes.get_errno(), "?") if f() != 0 else "done"
t("mount", lambda: c(lambda: libc.mount(b"/work", I.encode(), None, 4096, None)))
t("unshare_user", lambda: c(lambda: libc.unshare(0x10000000)))
t("handle", lambda: c(lambda: libc.syscall(304, -100, b"/harness/inputs/main.py", 0, 0)))
t("umount", lambda: c(lambda: libc.umount2(I.encode(), 2)))
print(json.dumps(out, sort_keys=True))
'''
"""Every way found to the staging folder from the program: O_PATH and *at calls through it,
a link or rename into or out of it, /proc and /dev/fd, a mount over it, a user namespace, a
file handle (open_by_handle_at)."""
REACHED = {
    "chdir": "EACCES", "dev_fd": "ENOENT", "handle": "'EPERM'", "link_at": "EACCES",
    "mount": "'EPERM'", "umount": "'EPERM'", "opath": "True", "opath_list": "EBADF", "opath_open": "EACCES",
    "opath_stat": "EACCES", "proc_1": "ENOENT", "proc_self_fd": "ENOENT",
    "rename_over": "EACCES", "stat": f"({JAIL_UID}, '0o40700')", "symlink_in": "EACCES",
    "unshare_user": "'EPERM'"}


def test_no_way_reaches_the_staging_folder(init: str, host: Host) -> None:
    out = sandbox.run(REACH, files={"d/a.txt": "x"}, limits=SHORT, mode="cold")
    assert out.status == "ok", out
    assert json.loads(out.stdout) == REACHED


SPOIL = (
    "import os\n"
    "for path in ['main.py', 'd/a.txt', 'big', {I!r} + '/main.py', {I!r} + '/d/a.txt']:\n"
    "    for how in (lambda: open(path, 'r+b').write(b'SPOILED'),\n"
    "                lambda: open(path, 'ab').write(b'SPOILED'),\n"
    "                lambda: os.truncate(path, 0), lambda: os.chmod(path, 0o666),\n"
    "                lambda: os.unlink(path), lambda: os.rename('mine', path)):\n"
    "        open('mine', 'w').write('SPOILED')\n"
    "        try:\n"
    "            how()\n"
    "        except OSError:\n"
    "            pass\n"
    "import hashlib\n"
    "print(hashlib.sha256(open('big', 'rb').read()).hexdigest(), open('d/a.txt').read(),"
    " len(open('main.py').read()))\n").replace("{I!r}", repr(INPUTS))


def test_a_run_spoils_no_input_of_the_runs_after_it(init: str, host: Host) -> None:
    """Runs of one shape in turn (spares hard-link each run's tree): each tries every write
    on its inputs and on the staging folder, then reads them; the next run, served by a
    spare, reads the same bytes."""
    big = os.urandom(1 << 20)
    want = f"{hashlib.sha256(big).hexdigest()} same {len(SPOIL)}\n"
    files: dict[str, str | bytes] = {"big": big, "d/a.txt": "same"}
    for _ in range(4):
        out = sandbox.run(SPOIL, files=files, limits=SHORT, mode="cold")
        assert (out.status, out.stdout, out.stderr) == ("ok", want, ""), out
    assert files["big"] == big


def test_the_host_staging_folders_go_with_the_run(
        init: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workspace's staging folder and a spare's, holding hard links of it, are removed
    when the run ends; the host's copy of each input is its own file (one link) while the
    run's spare holds it."""
    roots: list[str] = []
    links: list[int] = []
    real_fill = _spare.Spare.fill_staging
    real_init = _workspace.workspace.__init__

    def fill(self: _spare.Spare, source: str) -> None:
        real_fill(self, source)
        assert self.staging is not None
        roots.append(self.root)
        links.append(os.stat(os.path.join(self.staging, "d", "a.txt")).st_nlink)

    def made(self: _workspace.workspace, *args: object, **kwargs: object) -> None:
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]
        roots.append(self.root)

    monkeypatch.setattr(_spare.Spare, "fill_staging", fill)
    monkeypatch.setattr(_workspace.workspace, "__init__", made)
    for _ in range(3):
        out = sandbox.run("print(open('d/a.txt').read())", files={"d/a.txt": "x"},
                          limits=SHORT, mode="cold")
        assert out.stdout == "x\n", out
    assert roots and all(not os.path.exists(root) for root in roots), roots
    assert set(links) <= {2}, links


# --- C. forged reports ----------------------------------------------------------------------

GUESS = "0123456789abcdef"


def _report(head: bytes, number: int) -> str:
    """The bytes of a report under the guessed nonce, as a Python literal."""
    return repr(head + f"{GUESS} {number}\n".encode())


FORGED = {
    "on stderr, exit 70": (
        f"import os\nos.write(2, {_report(INPUTS_REPORT, 28)})\nos._exit({FAILED})\n"),
    "in two writes, exit 70": (
        f"import os\nos.write(2, {INPUTS_REPORT!r})\n"
        f"os.write(2, {(GUESS + ' 5' + chr(10)).encode()!r})\nos._exit({FAILED})\n"),
    "by a child after the program's exit": (
        "import os, time\n"
        "if os.fork() == 0:\n    time.sleep(0.2)\n"
        f"    os.write(2, {_report(INPUTS_REPORT, 12)})\n"
        "    os._exit(0)\n"
        f"os._exit({FAILED})\n"),
    "with errno 0 and a signal report before it": (
        f"import os\nos.write(2, {_report(SIGNAL_REPORT, 9)})\n"
        f"os.write(2, {_report(INPUTS_REPORT, 0)})\n"
        f"raise SystemExit({FAILED})\n"),
    "on stdout, exit 70": (
        f"import os\nos.write(1, {_report(INPUTS_REPORT, 28)})\nos._exit({FAILED})\n"),
}


@pytest.mark.parametrize("name", list(FORGED))
def test_a_forged_inputs_report_is_the_programs_own_exit(init: str, name: str) -> None:
    """No program knows the nonce: what it writes, however, stays its own runtime error
    (exit 70), never the sandbox's failure (a SandboxError, which masks the sample)."""
    out = sandbox.run(FORGED[name], limits=SHORT, mode="cold")
    assert (out.status, out.exit_code) == ("runtime_error", FAILED), out


@pytest.mark.parametrize("where", RUNS)
def test_a_program_that_exits_70_reads_alike_cold_and_warm(
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    out = _run("import sys\nprint('x')\nsys.exit(70)\n", where, {"a": "b"},
               monkeypatch=monkeypatch)
    assert (out.status, out.exit_code, out.stdout, out.stderr) == \
        ("runtime_error", FAILED, "x\n", ""), out


@pytest.mark.parametrize("where", RUNS)
def test_a_write_past_the_file_size_fails_alike_cold_and_warm(
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its file size (python3 ignores SIGXFSZ): EFBIG, an OSError, exit 1."""
    code = "open('f', 'wb').write(b'x' * (2 << 20))\n"
    out = _run(code, where, {"a": "b"}, dataclasses.replace(SHORT, file_size_bytes=1 << 20),
               monkeypatch)
    assert (out.status, out.exit_code, out.stdout) == ("runtime_error", 1, ""), out
    assert out.stderr.endswith("OSError: [Errno 27] File too large\n"), out


# --- D. inputs that just fit, just do not, and what they cost --------------------------------

def _tree(files: int, folders: int) -> dict[str, str | bytes]:
    return {f"f{i % folders}/n{i}": "" for i in range(files)} if folders else \
        {f"n{i}": "" for i in range(files)}


@pytest.mark.parametrize("where", RUNS)
def test_inodes_that_just_fit_run(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """60 files in 4 folders, the source and /work's root: 66 inodes of disk_files=66."""
    code = "import os\nprint(sum(len(f) for _, _, f in os.walk('.')))\n"
    out = _run(code, where, _tree(60, 4), dataclasses.replace(SHORT, disk_files=66),
               monkeypatch)
    assert (out.status, out.stdout) == ("ok", "61\n"), out


@pytest.mark.parametrize("mode", MODES)
def test_one_inode_more_is_an_argument_error(mode: sandbox.Mode) -> None:
    with pytest.raises(ArgumentError, match="67 inodes"):
        sandbox.run("print(1)", files=_tree(61, 4), mode=mode,
                    limits=dataclasses.replace(SHORT, disk_files=66))


@pytest.mark.parametrize("where", RUNS)
def test_pages_that_just_fit_run(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """255 one-byte files and the source's page: 256 pages of disk_bytes=1 MiB."""
    files: dict[str, str | bytes] = {f"p{i}": "x" for i in range(255)}
    out = _run("import os\nprint(len(os.listdir('.')))\n", where, files,
               dataclasses.replace(SHORT, disk_bytes=1 << 20), monkeypatch)
    assert (out.status, out.stdout) == ("ok", "256\n"), out


@pytest.mark.parametrize("mode", MODES)
def test_one_page_more_is_an_argument_error(mode: sandbox.Mode) -> None:
    files: dict[str, str | bytes] = {f"p{i}": "x" for i in range(256)}
    with pytest.raises(ArgumentError, match="1052672 bytes"):
        sandbox.run("print(1)", files=files, mode=mode,
                    limits=dataclasses.replace(SHORT, disk_bytes=1 << 20))


LONG_PROGRAM = "print('long')\n" + "#" * 5000 + "\n"
"""A program of two pages: model output that the inputs below leave one page for."""
NEARLY_FULL: dict[str, str | bytes] = {"big": b"x" * ((1 << 20) - 4096)}


@pytest.mark.parametrize("mode", MODES)
def test_a_program_past_the_room_left_is_its_own_failure(mode: sandbox.Mode) -> None:
    out = sandbox.run(LONG_PROGRAM, files=NEARLY_FULL, mode=mode,
                      limits=dataclasses.replace(SHORT, disk_bytes=1 << 20))
    assert out.status == "runtime_error", out


def test_a_tested_program_past_the_room_left_is_its_own_failure() -> None:
    report = sandbox.run_tests(LONG_PROGRAM, [{"input": "", "output": "long\n"}],
                               files=NEARLY_FULL, mode="cold",
                               limits=dataclasses.replace(SHORT, disk_bytes=1 << 20))
    assert (len(report.results), sum(r.outcome == "pass" for r in report.results)) == (1, 0)


@pytest.mark.parametrize("where", RUNS)
def test_the_same_program_with_one_page_fits(where: str, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    out = _run("print('short')\n", where, NEARLY_FULL,
               dataclasses.replace(SHORT, disk_bytes=1 << 20), monkeypatch)
    assert (out.status, out.stdout) == ("ok", "short\n"), out


MEMORY = dataclasses.replace(SHORT, memory_bytes=64 << 20, disk_bytes=64 << 20, wall_s=5.0,
                             cpu_s=5.0)
INPUTS_32: dict[str, str | bytes] = {"big": b"y" * (32 << 20)}


@pytest.mark.parametrize("where", RUNS)
def test_inputs_of_half_the_memory_leave_an_honest_program_room(
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    out = _run("import os\nprint(os.path.getsize('big'))\n", where, INPUTS_32, MEMORY,
               monkeypatch)
    assert (out.status, out.stdout) == ("ok", f"{32 << 20}\n"), out


GROW = ("keep = []\nfor i in range({n}):\n    keep.append(bytearray(1 << 20))\n"
        "    keep[-1][::4096] = b'z' * len(keep[-1][::4096])\nprint('grew', {n})\n")


@pytest.mark.parametrize("inputs_mib", [0, 32])
def test_the_copies_are_the_runs_memory(init: str, inputs_mib: int) -> None:
    """The init writes the copies inside the run's memory group: 80 MiB more fit 96 MiB
    beside no inputs, not beside 32 MiB of them (warm has the same rule, with its own
    extra: ROOT_WARM_INPUT_PEAK)."""
    files: dict[str, str | bytes] = {"big": b"y" * (inputs_mib << 20)} if inputs_mib else {}
    limits = dataclasses.replace(MEMORY, memory_bytes=96 << 20, disk_bytes=96 << 20)
    out = sandbox.run(GROW.format(n=80), files=files, limits=limits, mode="cold")
    assert (out.status, out.stdout) == \
        (("ok", "grew 80\n") if not inputs_mib else ("memory_limit", "")), out


def _deep(total: int) -> str:
    """A name of `total` bytes: folders 'd' down to a file of f's."""
    chain = "d/" * ((total - 1) // 2)
    return chain + "f" * (total - len(chain))


@pytest.mark.parametrize("where", RUNS)
def test_a_name_of_4000_bytes_goes_cold_as_warm(where: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    name = _deep(4000)
    out = _run(f"print(open({name!r}).read())", where, {name: "deep"},
               dataclasses.replace(SHORT, wall_s=10.0, cpu_s=10.0), monkeypatch)
    assert (out.status, out.stdout) == ("ok", "deep\n"), out


@pytest.fixture
def spare_waiting(monkeypatch: pytest.MonkeyPatch) -> Iterator[sandbox.Limits]:
    """A spare jail of the C init's shape waiting (two runs of the shape, then up to 20 s)."""
    argv = argv_of("c")
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    _spare.spares.close()
    limits = dataclasses.replace(SHORT, wall_s=10.0, cpu_s=10.0)
    for _ in range(2):
        sandbox.run("print(1)", files={"a": "b"}, limits=limits, mode="cold")
    deadline = time.monotonic() + 20
    while not _spare.spares.waiting and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _spare.spares.waiting
    yield limits
    _spare.spares.close()


def test_warm_takes_a_name_of_4060_bytes() -> None:
    name = _deep(4060)
    out = sandbox.run(f"print(open({name!r}).read())", files={name: "deep"}, mode="warm",
                      limits=dataclasses.replace(SHORT, wall_s=10.0, cpu_s=10.0))
    assert (out.status, out.stdout) == ("ok", "deep\n"), out


def test_a_name_of_4060_bytes_goes_through_a_spare(spare_waiting: sandbox.Limits) -> None:
    name = _deep(4060)
    out = sandbox.run(f"print(open({name!r}).read())", files={name: "deep"}, mode="cold",
                      limits=spare_waiting)
    assert (out.status, out.stdout) == ("ok", "deep\n"), out


@pytest.mark.parametrize("where", RUNS)
def test_a_name_of_4075_bytes_goes_cold_as_warm(where: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    name = _deep(4075)
    out = _run(f"print(open({name!r}).read())", where, {name: "deep"},
               dataclasses.replace(SHORT, wall_s=10.0, cpu_s=10.0), monkeypatch)
    assert (out.status, out.stdout) == ("ok", "deep\n"), out


# --- E. honest programs: the same world cold as warm ----------------------------------------

WORLD = r'''
import json, os, time
m, d, w = os.stat("main.py"), os.stat("d/a.txt"), os.stat(".")
v = os.statvfs(".")
seen = {
    "nlink": [m.st_nlink, d.st_nlink, os.stat("d").st_nlink, w.st_nlink],
    "blocks": [m.st_blocks, d.st_blocks, d.st_size],
    "ids": [m.st_uid, m.st_gid, d.st_uid, d.st_gid, os.stat("d").st_uid, w.st_uid, w.st_gid],
    "modes": [oct(m.st_mode), oct(d.st_mode), oct(os.stat("d").st_mode), oct(w.st_mode)],
    "fresh": abs(time.time() - d.st_mtime) < 60 and d.st_mtime_ns == d.st_ctime_ns,
    "vfs": [v.f_bsize, v.f_blocks, v.f_bfree, v.f_files, v.f_ffree],
    "me": [os.getuid(), os.getgid(), os.getcwd(), os.access("d/a.txt", os.W_OK),
           os.access("d", os.W_OK)],
}
open("d/mine", "w").write("m")
os.rename("d/mine", "d/mine2")
os.link("d/mine2", "mine3")
with open("d/a.txt") as src, open("copy", "w") as dst:
    dst.write(src.read())
os.chmod("copy", 0o600)
seen["after"] = [sorted(os.listdir("d")), os.stat("copy").st_uid, oct(os.stat("copy").st_mode),
                 os.statvfs(".").f_ffree]
print(json.dumps(seen, sort_keys=True))
'''
WORLD_SEEN = {
    "after": [["a.txt", "mine2"], PROGRAM_UID, "0o100600", 4089],
    "blocks": [8, 16, 5000],
    "fresh": True,
    "ids": [JAIL_UID] * 7,
    "me": [PROGRAM_UID, PROGRAM_UID, "/work", False, True],
    "modes": ["0o100644", "0o100644", "0o41777", "0o41777"],
    "nlink": [1, 1, 2, 3],
    "vfs": [4096, 2048, 2045, 4096, 4092],
}


@pytest.mark.parametrize("where", RUNS)
def test_an_honest_program_sees_the_same_work_folder(where: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    out = _run(WORLD, where, {"d/a.txt": "x" * 5000}, monkeypatch=monkeypatch)
    assert (out.status, out.stderr) == ("ok", ""), out
    assert json.loads(out.stdout) == WORLD_SEEN


@pytest.mark.parametrize("where", RUNS)
def test_no_inputs_but_the_program(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    code = "import os\nprint(os.listdir('.'), os.path.getsize('main.py'))\n"
    out = _run(code, where, None, monkeypatch=monkeypatch)
    assert (out.status, out.stdout) == ("ok", f"['main.py'] {len(code)}\n"), out


ERRNOS = (
    "import errno, os\n"
    "def t(f):\n"
    "    try:\n        f()\n        return 'done'\n"
    "    except OSError as e:\n        return errno.errorcode[e.errno]\n"
    "print([t(f) for f in (lambda: open('e/b.bin', 'r+b'), lambda: os.truncate('e/b.bin', 1),\n"
    "      lambda: os.rmdir('e'), lambda: os.rename('e', 'e2'), lambda: os.mkdir('e/new'),\n"
    "      lambda: os.symlink('/etc/passwd', 'e/l'), lambda: os.mkfifo('e/fifo'),\n"
    "      lambda: os.utime('e/b.bin', (0, 0)), lambda: os.chown('e/b.bin', -1, -1),\n"
    "      lambda: os.setxattr('e/b.bin', 'user.x', b'1'), lambda: os.link('e/b.bin', 'x'))])\n")
WANT_ERRNOS = ("['EACCES', 'EACCES', 'EPERM', 'EPERM', 'done', 'done', 'done', 'EPERM', "
               "'done', 'EACCES', 'EPERM']\n")


@pytest.mark.parametrize("where", RUNS)
def test_a_binary_input_in_a_folder_refuses_alike(where: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A binary input in a folder of its own: the same errno for each change cold (both
    inits) and warm; the program makes what it may beside it."""
    out = _run(ERRNOS, where, {"e/b.bin": bytes(range(256)) * 4}, monkeypatch=monkeypatch)
    assert (out.status, out.stdout) == ("ok", WANT_ERRNOS), out
