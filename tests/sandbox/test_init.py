"""The cold Python run's init, both of them: compiled from `sandbox/_in_jail/init.c` at
staging (what cold runs use where the system has a C compiler) and `_in_jail/init.py` (the
fallback). One contract (init.py's docstring), so the same probes run against each: the
endings, forgeries and tampering of red team sb12 (`test_redteam_round_sb12.py`, there
against the init cold runs use), the program's view of its process, and the report's exact
bytes and the exit codes read straight from the jail."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from test_redteam_round_sb12 import (
    ENDINGS,
    FORGERIES,
    HELD_FORGERIES,
    LIMITS,
    TAMPER,
    host,
    seen,
)

import sandbox
from sandbox import _runner, _staging
from sandbox._in_jail.init import FAILED, NOT_STARTED, OWN_PROCESSES, SIGNAL_REPORT
from sandbox._jail import COLD_INIT_CAPABILITIES, JAIL_UID, PROGRAM_UID, jail_argv, run_jail
from sandbox._languages import language_spec
from sandbox._spare import SECRET
from sandbox._staging import IN_JAIL, init_unbuilt, staged_dir
from sandbox._workspace import workspace

INITS = ("c", "python")
UID = str(PROGRAM_UID)
"""The init's second argument: the uid its child takes."""
FSIZE = str(LIMITS.file_size_bytes)
"""Its third: the program's RLIMIT_FSIZE."""


def argv_of(init: str) -> tuple[str, ...]:
    """The init's argv prefix, skipping where the compiled one could not be built."""
    if init == "python":
        return _runner.PYTHON_INIT
    why = init_unbuilt(staged_dir())
    if why is not None:
        pytest.skip(f"no compiled init on this host (the Python init serves): {why}")
    return _runner.COMPILED_INIT


@pytest.fixture(params=INITS)
def init(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Cold runs of this test use the init named by the parameter."""
    argv = argv_of(request.param)
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    return str(request.param)


def cold(code: str) -> sandbox.Execution:
    return sandbox.run(code, limits=LIMITS, mode="cold")


# --- sb12's probes, against each init ---------------------------------------------------

@pytest.mark.parametrize("name", list(ENDINGS))
def test_an_ending_reads_as_python3s(init: str, name: str) -> None:
    assert seen(cold(ENDINGS[name])) == host(ENDINGS[name])


@pytest.mark.parametrize("name", list(FORGERIES))
def test_a_forged_report_reads_as_python3s_exit(init: str, name: str) -> None:
    ex = cold(FORGERIES[name])
    assert seen(ex) == host(FORGERIES[name])
    assert ex.status == "runtime_error"


@pytest.mark.parametrize("name", list(HELD_FORGERIES))
def test_what_is_not_the_inits_report_stays_the_programs(init: str, name: str) -> None:
    code, expected, status = HELD_FORGERIES[name]
    ex = cold(code)
    assert (ex.exit_code, ex.signal, ex.stdout, ex.stderr, ex.status) == (*expected, status)


@pytest.mark.parametrize("name", list(TAMPER))
def test_what_a_program_does_to_its_init_changes_no_verdict(init: str, name: str) -> None:
    code, expected = TAMPER[name]
    ex = cold(code)
    assert (ex.exit_code, ex.signal, ex.stdout, ex.status) == expected
    assert SIGNAL_REPORT.decode() not in ex.stderr


# --- the program's process ---------------------------------------------------------------

STATE = r"""
import os, resource, signal, sys
opened = []
for fd in range(256):
    try:
        os.fstat(fd)
        opened.append(fd)
    except OSError:
        pass
print(os.getpid(), os.getppid(), os.getsid(0) == os.getpid(), os.getpgid(0) == os.getpid())
print(sys.orig_argv, sorted(os.environ.items()), os.getcwd(), opened)
print([int(s) for s in sorted(signal.valid_signals()) if signal.getsignal(s) == signal.SIG_IGN],
      sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])),
      signal.getsignal(signal.SIGINT) is signal.default_int_handler)
print(sorted((n, resource.getrlimit(getattr(resource, n))) for n in dir(resource)
             if n.startswith('RLIMIT_')))
print(os.getpriority(os.PRIO_PROCESS, 0), sorted(os.sched_getaffinity(0)), os.umask(0o22))
"""


def test_the_program_sees_the_same_process_under_both_inits(monkeypatch: pytest.MonkeyPatch,
                                                            ) -> None:
    """pid 2 of parent 1, a session and group of its own, python3's argv, the jail's
    environment, folder, descriptors 0 to 2 only, no signal ignored or blocked but python3's
    own SIGPIPE and SIGXFSZ (13, 25), SIGINT python3's handler (not ignored), and rlimits,
    priority, affinity and umask alike under both inits."""
    seen_by = {}
    for init in INITS:
        argv = argv_of(init)
        monkeypatch.setattr(_runner, "cold_init", lambda argv=argv: argv)
        ex = cold(STATE)
        assert ex.status == "ok", ex.stderr
        seen_by[init] = ex.stdout.splitlines()
    assert seen_by["c"] == seen_by["python"]
    lines = seen_by["python"]
    assert lines[0] == "2 1 True True"
    assert lines[1] == ("['/usr/bin/python3', '-E', '-s', '-S', 'main.py'] [('HOME', '/work'), "
                        "('LANG', 'C.UTF-8'), ('PATH', '/usr/bin:/bin'), ('TMPDIR', '/tmp')] "
                        "/work [0, 1, 2]")
    assert lines[2] == "[13, 25] [] True"


ORPHANS = {
    # program, then (exit, signal, stdout, status): the program's end is the run's
    "a grandchild is reaped by the init, never by the program's wait": (
        ("import os, time\nif os.fork() == 0:\n    if os.fork() == 0:\n        time.sleep(0.2)\n"
        "        os._exit(7)\n    os._exit(0)\nos.wait()\ntime.sleep(0.5)\n"
        "try:\n    os.wait()\nexcept ChildProcessError:\n    print('none')\n"),
        (0, None, "none\n", "ok")),
    "a child left sleeping ends with the program": (
        "import os, time\nif os.fork() == 0:\n    time.sleep(60)\n    os._exit(0)\nprint('x')\n",
        (0, None, "x\n", "ok")),
    "a child writing late writes nothing after the program": (
        ("import os, time\nif os.fork() == 0:\n    time.sleep(0.5)\n    os.write(1, b'late')\n"
        "    os._exit(0)\nprint('x')\n"), (0, None, "x\n", "ok")),
    "a child left behind, the program dies of SIGTERM": (
        ("import os, time\nif os.fork() == 0:\n    time.sleep(60)\n    os._exit(0)\n"
        "os.kill(os.getpid(), 15)\n"), (None, 15, "", "runtime_error")),
}


@pytest.mark.parametrize("name", list(ORPHANS))
def test_the_programs_end_is_the_runs(init: str, name: str) -> None:
    code, expected = ORPHANS[name]
    ex = cold(code)
    # a child left holding the run would read `timeout` (its 60 s sleep against 6 s)
    assert (ex.exit_code, ex.signal, ex.stdout, ex.status) == expected


# --- the program's uid, capabilities and reach: another uid than its init's ----------------

REACH = r"""
import ctypes, errno, os, resource
libc = ctypes.CDLL(None, use_errno=True)
header = (ctypes.c_uint32 * 2)(0x20080522, 0)
data = (ctypes.c_uint32 * 6)()
print(libc.capget(header, data), list(data))
print([libc.prctl(47, 1, c, 0, 0) for c in range(41)])  # PR_CAP_AMBIENT_IS_SET
print(libc.prctl(8, 0, 0, 0, 0), libc.prctl(39, 0, 0, 0, 0))  # keepcaps, no-new-privs
print(os.getresuid(), os.getresgid(), os.getgroups())
def tried(step):
    try:
        step()
    except OSError as exc:
        return errno.errorcode[exc.errno]
    return "done"
parent = os.getppid()
print(tried(lambda: os.kill(parent, 0)), tried(lambda: os.kill(parent, 9)),
      tried(lambda: resource.prlimit(parent, resource.RLIMIT_CPU)),
      tried(lambda: resource.prlimit(parent, resource.RLIMIT_CPU, (0, 0))),
      tried(lambda: resource.prlimit(parent, resource.RLIMIT_NOFILE, (0, 0))),
      tried(lambda: os.setpriority(os.PRIO_PROCESS, parent, 19)),
      tried(lambda: os.setresuid(99999, 99999, 99999)), tried(lambda: os.setgroups([0])))
"""


def test_the_program_is_warms_uid_with_no_capability_and_no_reach(init: str) -> None:
    """A cold program is the warm one's uid (`_jail.PROGRAM_UID`), its init another one:
    it holds no capability (effective, permitted, inheritable, ambient), cannot take the
    init's uid back, and cannot signal, re-limit (not even read its limits) or renice its
    init (EPERM), as a warm program cannot its server."""
    ex = cold(REACH)
    assert ex.status == "ok", ex.stderr
    lines = ex.stdout.splitlines()
    assert lines[0] == "0 [0, 0, 0, 0, 0, 0]"
    assert lines[1] == str([0] * 41)
    assert lines[2] == "0 1"
    assert lines[3] == f"{(PROGRAM_UID,) * 3} {(PROGRAM_UID,) * 3} []"
    assert lines[4] == " ".join(["EPERM"] * 8)
    warm = sandbox.run(REACH, limits=LIMITS, mode="warm")
    assert warm.status == "ok", warm.stderr
    assert warm.stdout == ex.stdout


# --- the init's own bytes and codes, read from the jail ------------------------------------

def jailed(command: list[str], nonce: str = "0123456789abcdef") -> tuple[int | None, bytes]:
    """(exit code, stderr) of `command` run as a jail's pid 1 with the staged folder and
    an empty staging folder of inputs (`workspace`'s, without its files)."""
    with workspace("", language_spec("python"), {}) as box:
        os.unlink(os.path.join(box.staging, "main.py"))
        raw = run_jail(command, LIMITS, stdin=b"", output_bytes=1 << 16, spare=False,
                       binds=[(staged_dir(), IN_JAIL), box.staging_bind],
                       extra_processes=OWN_PROCESSES, program_uid=True, secret=nonce)
    return raw.exit_code, raw.stderr


@pytest.mark.parametrize("number", [1, 6, 9, 15, 64])
def test_a_signal_death_is_the_report_then_128_plus_n(init: str, number: int) -> None:
    argv = list(_runner.cold_init())
    exit_code, stderr = jailed([*argv, SECRET, UID, FSIZE, "/bin/sh", "-c", f"echo e >&2; kill -{number} $$"])
    assert exit_code == 128 + number
    assert stderr == b"e\n" + SIGNAL_REPORT + f"0123456789abcdef {number}\n".encode()


@pytest.mark.parametrize("code", [0, 3, 128, 137, 255])
def test_an_exit_code_is_passed_through(init: str, code: int) -> None:
    argv = list(_runner.cold_init())
    assert jailed([*argv, SECRET, UID, FSIZE, "/bin/sh", "-c", f"exit {code}"]) == (code, b"")


def test_a_program_that_cannot_start_exits_127(init: str) -> None:
    argv = list(_runner.cold_init())
    assert jailed([*argv, SECRET, UID, FSIZE, "/work/no-such-program"]) == (NOT_STARTED, b"")


def test_an_init_that_is_not_pid_1_does_nothing(init: str) -> None:
    """Only a jail's pid 1 runs the program (elsewhere its kill(-1) would reach every
    process of its uid): here the jail's pid 1 is a shell, the init its child."""
    argv = " ".join(_runner.cold_init())
    exit_code, stderr = jailed(["/bin/sh", "-c", f"{argv} n0nce {UID} {FSIZE} /bin/echo ran; echo $? >&2"])
    assert (exit_code, stderr) == (0, f"{FAILED}\n".encode())


# --- which init cold runs use ------------------------------------------------------------

@pytest.mark.skipif(shutil.which("cc") is None,
                    reason="no C compiler (cc) on PATH: cold runs use the Python init here")
def test_cold_runs_use_the_compiled_init_where_cc_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    assert init_unbuilt(staged_dir()) is None
    assert _runner.cold_init() == _runner.COMPILED_INIT == (f"{IN_JAIL}/init",)
    commands = []
    real = run_jail

    def recording(command: list[str], *args: object, **kwargs: object) -> object:
        commands.append(list(command))
        return real(command, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_runner, "run_jail", recording)
    assert cold("print(1)").stdout == "1\n"
    assert commands[0][:2] == [f"{IN_JAIL}/init", SECRET]


@pytest.mark.parametrize(("compiler", "why"), [(None, "no C compiler (cc) on PATH"),
                                               ("/bin/false", "/bin/false exited 1")])
def test_without_a_compiled_init_cold_runs_use_the_python_one(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        compiler: str | None, why: str) -> None:
    """No compiler, or a compile that fails: the staged folder says why, cold runs use the
    Python init, and one log line says so, once."""
    monkeypatch.setattr(_staging, "_compiler", lambda: compiler)
    with tempfile.TemporaryDirectory() as root:
        _staging._build(Path(_staging.__file__).parent / _staging.PACKAGE, root)
        assert init_unbuilt(root) is not None and init_unbuilt(root).startswith(why)  # type: ignore[union-attr]
        with caplog.at_level(logging.WARNING, logger="sandbox"):
            assert _runner._init_for(root) == _runner.PYTHON_INIT
            assert _runner._init_for(root) == _runner.PYTHON_INIT
        _runner._init_for.cache_clear()
    said = [r for r in caplog.records if "Python init" in r.getMessage()]
    assert len(said) == 1 and why in said[0].getMessage()


def test_a_staged_folder_mounted_noexec_gets_the_python_init(monkeypatch: pytest.MonkeyPatch,
                                                              ) -> None:
    """A compiled init the jail could not exec (its bind keeps the folder's noexec) is not
    used."""
    staged = staged_dir()
    if init_unbuilt(staged) is not None:
        pytest.skip(f"no compiled init on this host: {init_unbuilt(staged)}")
    real = os.statvfs(staged)

    class NoExec:
        f_flag = real.f_flag | os.ST_NOEXEC

    monkeypatch.setattr(os, "statvfs", lambda path: NoExec())
    assert "noexec" in (init_unbuilt(staged) or "")


def test_the_c_init_takes_the_report_and_codes_from_init_py() -> None:
    """One definition: the -D defines the C init is built with decode to init.py's bytes."""
    defines = dict(d.removeprefix("-D").split("=", 1) for d in _staging.init_defines())
    report = defines["INIT_SIGNAL_REPORT"].strip('"').encode().decode("unicode_escape")
    assert report.encode("latin-1") == SIGNAL_REPORT
    assert (int(defines["INIT_FAILED"]), int(defines["INIT_NOT_STARTED"])) == (FAILED, NOT_STARTED)
    source = (Path(_staging.__file__).parent / "_in_jail" / "init.c").read_text()
    assert "sandbox-init" not in source and " 70" not in source and "127" not in source


def test_a_cold_python_jail_maps_the_program_uid_and_keeps_only_the_inits_capabilities() -> None:
    """`jail_argv`'s `program_uid` (a cold Python run's jail, a spare of its shape too):
    PROGRAM_UID mapped beside the jail uid, CAP_SETUID, CAP_SETGID and CAP_KILL kept, no
    other; a jail without it maps and keeps nothing more."""
    def flags(argv: list[str], name: str) -> list[str]:
        return [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == name]

    argv = jail_argv(["/bin/true"], LIMITS, program_uid=True)
    assert flags(argv, "--user") == [f"{JAIL_UID}:{JAIL_UID}", f"{PROGRAM_UID}:{PROGRAM_UID}:1"]
    assert flags(argv, "--group") == [f"{JAIL_UID}:{JAIL_UID}", f"{PROGRAM_UID}:{PROGRAM_UID}:1"]
    assert sorted(flags(argv, "--cap")) == sorted(COLD_INIT_CAPABILITIES) \
        == ["CAP_KILL", "CAP_SETGID", "CAP_SETUID"]
    plain = jail_argv(["/bin/true"], LIMITS)
    assert (flags(plain, "--user"), flags(plain, "--cap")) == ([f"{JAIL_UID}:{JAIL_UID}"], [])
