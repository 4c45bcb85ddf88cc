"""run / run_many: languages, files, stdin, and a status vocabulary where no failure is
reported as another (compile error, timeout, memory kill, sandbox failure, wrong answer)."""

from __future__ import annotations

import dataclasses
import os
import warnings

import pytest
from sandbox_probes import MODES, PROGRAM_UID, SHORT

import sandbox
from sandbox import _jail
from sandbox._in_jail.init import SIGNAL_REPORT

PROGRAMS = {
    "python": "a, b = map(int, input().split())\nprint(a * b)\n",
    "c": "#include <stdio.h>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a*b);}",
    "cpp": "#include <iostream>\nint main(){int a,b;std::cin>>a>>b;std::cout<<a*b<<\"\\n\";}",
    "javascript": ("const [a, b] = require('fs').readFileSync(0, 'utf8').split(' ').map(Number);"
                   "\nconsole.log(a * b);"),
    "bash": "read a b\necho $((a * b))\n",
}


@pytest.mark.parametrize("language", sorted(PROGRAMS))
def test_every_language_runs(language: str) -> None:
    ex = sandbox.run(PROGRAMS[language], language, stdin="6 7\n", limits=SHORT)
    assert (ex.status, ex.stdout, ex.exit_code) == ("ok", "42\n", 0), ex
    assert ex.wall_s > 0 and ex.peak_memory_bytes > 0


@pytest.mark.parametrize("mode", MODES)
def test_python_modes_agree(mode: str) -> None:
    code = ("import sys\nprint(sys.argv, sys.path[0], __name__, open('data/in.txt').read())\n"
            "print('err', file=sys.stderr)\nsys.exit(3)\n")
    ex = sandbox.run(code, files={"data/in.txt": "DATA"}, limits=SHORT, mode=mode)
    assert ex.status == "runtime_error" and ex.exit_code == 3, ex
    assert ex.stdout == "['main.py'] /work __main__ DATA\n" and ex.stderr == "err\n"


@pytest.mark.parametrize("mode", MODES)
def test_uncaught_exception_prints_a_normal_traceback(mode: str) -> None:
    ex = sandbox.run("def f():\n    1 / 0\nf()\n", limits=SHORT, mode=mode)
    assert ex.status == "runtime_error" and ex.exit_code == 1
    assert ex.stderr.startswith("Traceback (most recent call last):\n  File \"/work/main.py\"")
    assert "harness" not in ex.stderr and ex.stderr.endswith("ZeroDivisionError: division by zero\n")


def test_python_runs_warm_by_default() -> None:
    from sandbox import _warm

    assert _warm.use_warm(sandbox._languages.language_spec("python"), "auto")
    assert not _warm.use_warm(sandbox._languages.language_spec("c"), "auto")
    with pytest.raises(sandbox.ArgumentError, match="Python only"):
        sandbox.run("int main(){}", "c", mode="warm")


STATUS_CASES = {
    "ok": ("python", "print('fine')", SHORT),
    "wrong_answer_is_ok_status": ("python", "print(41)", SHORT),
    "runtime_error_exit": ("python", "raise SystemExit(2)", SHORT),
    "runtime_error_signal": ("c", "int main(){ int *p = 0; return *p; }", SHORT),
    "compile_error_c": ("c", "int main( { return 0; }", SHORT),
    "compile_error_cpp": ("cpp", "int main() { undefined_thing(); }", SHORT),
    "timeout_wall": ("python", "import time\ntime.sleep(30)", SHORT),
    "timeout_cpu": ("python", "while True:\n    pass",
                    dataclasses.replace(SHORT, cpu_s=1.0, wall_s=30.0)),
    "timeout_c": ("c", "int main(){ for(;;); }", SHORT),
    "memory_limit_python": ("python", "x = bytearray(1 << 30)", SHORT),
    "memory_limit_cpp": ("cpp", ("#include <vector>\nint main(){ std::vector<char> v(1ul << 31, 1);"
                                 " return v[5]; }"), SHORT),
    "memory_limit_javascript": ("javascript", ("let a = [];\nwhile (true) a.push(new Array(1e6)"
                                               ".fill(1.5));"), SHORT),
    "output_limit": ("bash", "while true; do echo yyyyyyyyyyyyyyyyyyyyyyyy; done", SHORT),
}
EXPECTED = {"ok": "ok", "wrong_answer_is_ok_status": "ok", "runtime_error_exit": "runtime_error",
            "runtime_error_signal": "runtime_error", "compile_error_c": "compile_error",
            "compile_error_cpp": "compile_error", "timeout_wall": "timeout",
            "timeout_cpu": "timeout", "timeout_c": "timeout",
            "memory_limit_python": "memory_limit", "memory_limit_cpp": "memory_limit",
            "memory_limit_javascript": "memory_limit", "output_limit": "output_limit"}


@pytest.mark.parametrize("case", sorted(STATUS_CASES))
def test_status_vocabulary(case: str) -> None:
    language, code, limits = STATUS_CASES[case]
    ex = sandbox.run(code, language, limits=limits, mode="cold")
    assert ex.status == EXPECTED[case], ex
    if ex.status == "compile_error":
        assert "error" in ex.stderr and ex.exit_code != 0
    if case == "timeout_cpu":
        # The CPU limit (1 s), not the wall limit (30 s), ended it: a margin that holds on a
        # machine that gives the jail only a small share of a core.
        assert ex.cpu_s >= 0.5 and ex.wall_s < 25
    if case == "runtime_error_signal":
        assert ex.signal == 11 and ex.exit_code is None


@pytest.mark.parametrize("case", ["timeout_cpu", "timeout_wall", "memory_limit_python",
                                  "runtime_error_exit", "output_limit"])
def test_status_vocabulary_warm(case: str) -> None:
    language, code, limits = STATUS_CASES[case]
    if language != "python":
        code, language = "import sys\nwhile True:\n    sys.stdout.write('y' * 4096)\n", "python"
    assert sandbox.run(code, language, limits=limits, mode="warm").status == EXPECTED[case]


def test_missing_nsjail_raises_sandbox_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for fn in (_jail.nsjail_binary, _jail.check_nsjail):
        fn.cache_clear()
    monkeypatch.setenv("SANDBOX_NSJAIL", "/nonexistent/nsjail")
    try:
        with pytest.raises(sandbox.SandboxError, match="SANDBOX_NSJAIL"):
            sandbox.run("print(1)", mode="cold")
        with pytest.raises(sandbox.SandboxError):
            sandbox.run_many([{"code": "print(1)", "mode": "cold"}] * 2)
    finally:
        for fn in (_jail.nsjail_binary, _jail.check_nsjail):
            fn.cache_clear()


def test_jail_that_cannot_start_raises_naming_the_cause(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path) -> None:
    """An nsjail that fails (as it would without user namespaces) is a SandboxError naming
    nsjail's own complaint, never a silent unisolated run and never a program failure."""
    fake = tmp_path / "nsjail"
    fake.write_text("#!/bin/sh\necho '[E][2026] clone(flags=CLONE_NEWUSER) failed: "
                    "Operation not permitted' >&2\nexit 255\n")
    fake.chmod(0o755)
    for fn in (_jail.nsjail_binary, _jail.check_nsjail):
        fn.cache_clear()
    monkeypatch.setenv("SANDBOX_NSJAIL", str(fake))
    try:
        with pytest.raises(sandbox.SandboxError, match="user namespaces"):
            sandbox.run("print(1)", mode="cold")
    finally:
        for fn in (_jail.nsjail_binary, _jail.check_nsjail):
            fn.cache_clear()


def test_run_many_keeps_order_and_survives_bad_jobs() -> None:
    jobs = [{"code": f"print({i})", "limits": SHORT} for i in range(6)]
    jobs.insert(2, {"code": "x", "language": "cobol"})
    jobs.insert(4, {"code": "while True: pass", "limits": dataclasses.replace(SHORT, wall_s=1)})
    jobs.append({"code": PROGRAMS["c"], "language": "c", "stdin": "3 3", "limits": SHORT})
    results = sandbox.run_many(jobs, max_workers=2)
    assert [r.stdout.strip() for r in results if r.status == "ok"] == [
        "0", "1", "2", "3", "4", "5", "9"]
    assert results[2].status == "sandbox_error" and "cobol" in results[2].stderr
    assert results[4].status == "timeout"
    assert sandbox.run_many([]) == []


def test_unsafe_backend_warns_and_is_never_default() -> None:
    with pytest.warns(RuntimeWarning, match="WITHOUT ISOLATION"):
        ex = sandbox.run("import os\nprint(os.getuid())", backend="unsafe-subprocess",
                         limits=SHORT)
    assert ex.status == "ok" and ex.stdout.strip() == "0"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sandbox.run("import os\nprint(os.getuid())", limits=SHORT).stdout.strip() \
            == str(PROGRAM_UID)  # warm: the uid of a warm server's programs


def test_bad_arguments_raise_the_sandboxs_argument_error() -> None:
    """`ArgumentError`, which is still the `ValueError` that `run` always raised for them."""
    assert issubclass(sandbox.ArgumentError, ValueError)
    assert not issubclass(sandbox.ArgumentError, sandbox.SandboxError)  # not infrastructure
    with pytest.raises(sandbox.ArgumentError, match="unsupported language"):
        sandbox.run("x", "fortran")
    with pytest.raises(sandbox.ArgumentError, match="bad file name"):
        sandbox.run("x", files={"../escape": "x"})
    with pytest.raises(sandbox.ArgumentError, match="positive"):
        sandbox.Limits(wall_s=0)
    with pytest.raises(sandbox.ArgumentError, match="mode"):
        sandbox.run("x", mode="lukewarm")


def test_forked_process_gets_its_own_warm_servers() -> None:
    """After os.fork (Celery prefork, multiprocessing) parent and child both keep working:
    the child does not share the parent's warm servers."""
    assert sandbox.run("print('parent')", mode="warm", limits=SHORT).stdout == "parent\n"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            outs = [sandbox.run(f"print({i})", mode="warm", limits=SHORT).stdout
                    for i in range(3)]
            os.write(write, "".join(outs).encode())
        finally:
            os._exit(0)
    os.close(write)
    after = [sandbox.run(f"print({i + 10})", mode="warm", limits=SHORT).stdout
             for i in range(3)]
    os.waitpid(pid, 0)
    with os.fdopen(read) as fh:
        assert fh.read() == "0\n1\n2\n"
    assert after == ["10\n", "11\n", "12\n"]


def test_warm_server_that_cannot_start_raises_naming_the_cause(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import tempfile
    from pathlib import Path

    from sandbox import _staging, _warm

    root = tempfile.mkdtemp(prefix="sandbox-test-")  # pytest's tmp_path is 0700 root-only
    os.chmod(root, 0o755)
    broken = Path(root) / "staged"
    shutil.copytree(_staging.staged_dir(), broken)
    launcher = broken / "run.py"
    launcher.write_text("raise SystemExit('launcher broken on purpose')\n" + launcher.read_text())
    monkeypatch.setattr(_warm, "staged_dir", lambda: str(broken))
    limits = dataclasses.replace(SHORT, disk_bytes=(8 << 20) + 4096)  # a pool of its own
    with pytest.raises(sandbox.SandboxError, match="launcher broken on purpose"):
        sandbox.run("print(1)", limits=limits, mode="warm")
    monkeypatch.undo()
    shutil.rmtree(root)
    assert sandbox.run("print(1)", limits=limits, mode="warm").stdout == "1\n"  # replaced


def test_cgroup_v2_limits_are_requested_when_the_host_has_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_jail, "cgroup_v2_root", lambda: "/sys/fs/cgroup")
    argv = _jail.jail_argv(["/bin/true"], SHORT)
    joined = " ".join(argv)
    assert "--use_cgroupv2 --cgroupv2_mount /sys/fs/cgroup" in joined
    assert f"--cgroup_mem_max {SHORT.memory_bytes}" in joined
    assert f"--cgroup_pids_max {SHORT.processes}" in joined
    assert "--cgroup_mem_swap_max 0" in joined
    # with cgroups RLIMIT_AS is only a loose backstop (4x), the cgroup holds memory
    assert argv[argv.index("--rlimit_as") + 1] == str(4 * SHORT.memory_bytes >> 20)
    from sandbox._classify import classify
    from sandbox._process import RawRun

    oom = RawRun(exit_code=None, signal=9, stdout=b"", stderr=b"", overflow=False,
                 timed_out=False, wall_s=0.3, cpu_s=0.2, peak_memory_bytes=0)
    assert classify(oom, SHORT, cgroup=True) == "memory_limit"
    # no jail's pid 1 is a program: with little CPU spent its own processes sent it
    assert classify(oom, SHORT, cgroup=False) == "runtime_error"
    spent = RawRun(exit_code=None, signal=9, stdout=b"", stderr=b"", overflow=False,
                   timed_out=False, wall_s=0.3, cpu_s=_jail.cpu_rlimit_s(SHORT),
                   peak_memory_bytes=0)
    assert classify(spent, SHORT, cgroup=True) == classify(spent, SHORT, cgroup=False) \
        == "timeout"  # the CPU rlimit's SIGKILL
    monkeypatch.setattr(_jail, "cgroup_v2_root", lambda: None)
    assert "--use_cgroupv2" not in _jail.jail_argv(["/bin/true"], SHORT)


def test_cgroup_v2_memory_kill_on_a_cgroup_v2_host() -> None:
    if _jail.cgroup_v2_root() is None:
        pytest.skip("this host has no cgroup v2 hierarchy with memory and pids controllers "
                    "(cgroup v1 here): rlimits carry the limits, tested everywhere else")
    ex = sandbox.run("chunks = []\nwhile True:\n    chunks.append(bytearray(16 << 20))\n",
                     limits=SHORT, mode="cold")
    assert ex.status == "memory_limit", ex
    bomb = sandbox.run("import os\nwhile True:\n    try:\n        os.fork()\n"
                       "    except OSError:\n        pass\n", limits=SHORT, mode="cold")
    assert bomb.status in ("timeout", "runtime_error")


def test_staged_harness_is_shared_and_only_trusted_when_ours(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-jail harness is staged once per content (processes that never run atexit,
    like forked pool workers, leave nothing behind), and a cache folder others could write
    to is never used (the harness decides verdicts)."""
    import shutil
    import tempfile

    from sandbox import _staging

    root = tempfile.mkdtemp(prefix="sandbox-cache-test-")
    os.chmod(root, 0o755)
    try:
        monkeypatch.setenv("SANDBOX_CACHE_DIR", os.path.join(root, "cache"))
        _staging.staged_dir.cache_clear()
        first = _staging.staged_dir()
        _staging.staged_dir.cache_clear()
        assert _staging.staged_dir() == first and first.startswith(root)
        assert os.path.isfile(os.path.join(first, "run.py"))
        os.chmod(os.path.join(root, "cache"), 0o777)  # now anyone could plant a harness
        _staging.staged_dir.cache_clear()
        private = _staging.staged_dir()
        assert not private.startswith(root) and os.path.isfile(os.path.join(private, "run.py"))
    finally:
        _staging.staged_dir.cache_clear()
        monkeypatch.undo()
        shutil.rmtree(root, ignore_errors=True)


def test_compiled_binaries_are_reused_by_content(monkeypatch: pytest.MonkeyPatch) -> None:
    """A program compiled once (say for its public tests) is not recompiled for its hidden
    tests; any change to the source or its input files is a new compilation."""
    import shutil
    import tempfile

    root = tempfile.mkdtemp(prefix="sandbox-cache-test-")
    os.chmod(root, 0o755)  # crossable by the jail's user, as /tmp is
    monkeypatch.setenv("SANDBOX_CACHE_DIR", os.path.join(root, "cache"))
    try:
        code = '#include "k.h"\n#include <stdio.h>\nint main(){ printf("%d\\n", K); }'
        first = sandbox.run(code, "c", files={"k.h": "#define K 1\n"}, limits=SHORT)
        binaries = os.path.join(root, "cache", "binaries")
        assert first.stdout == "1\n" and len(os.listdir(binaries)) == 1
        again = sandbox.run(code, "c", files={"k.h": "#define K 1\n"}, limits=SHORT)
        assert again.stdout == "1\n" and len(os.listdir(binaries)) == 1
        changed = sandbox.run(code, "c", files={"k.h": "#define K 2\n"}, limits=SHORT)
        assert changed.stdout == "2\n" and len(os.listdir(binaries)) == 2
        os.chmod(os.path.join(root, "cache"), 0o777)  # no longer ours alone: never used
        untrusted = sandbox.run(code, "c", files={"k.h": "#define K 3\n"}, limits=SHORT)
        assert untrusted.stdout == "3\n" and len(os.listdir(binaries)) == 2
    finally:
        monkeypatch.undo()
        shutil.rmtree(root, ignore_errors=True)


def test_a_jail_that_fails_to_mount_is_a_sandbox_error_not_a_timeout(tmp_path) -> None:
    """nsjail kills a child whose mounts failed (SIGKILL in its log): that is the sandbox
    failing, never the program's timeout or crash."""
    from sandbox._classify import to_execution
    from sandbox._process import run_process

    hidden = tmp_path / "private" / "f"  # pytest's tmp_path is 0700: the jail cannot reach it
    hidden.parent.mkdir()
    hidden.write_text("x")
    raw = run_process(_jail.jail_argv(["/bin/true"], SHORT, binds=[(str(hidden), "/work/f")]),
                      stdin=b"", wall_s=5, output_bytes=1000, with_jail_log=True)
    assert raw.jail_failed
    with pytest.raises(sandbox.SandboxError, match="mount"):
        to_execution(raw, SHORT)


@pytest.mark.parametrize(("exit_code", "stderr", "cap", "read"), [
    (0, b"e", 8, (0, None, b"e", False)),
    (3, b"e", 8, (3, None, b"e", False)),
    # a signal death: exit 128 + N and the init's report, which is taken off
    (139, b"e" + SIGNAL_REPORT + b"n0nce 11\n", 8, (None, 11, b"e", False)),
    # 128 + N without the report (or with another N) is an exit code
    (137, b"e" + SIGNAL_REPORT + b"n0nce 11\n", 64, (137, None, b"e" + SIGNAL_REPORT + b"n0nce 11\n", False)),
    (137, b"e", 8, (137, None, b"e", False)),
    # a report without the run's nonce is the program's own bytes (red team sb12: a program
    # that writes the report and exits 128 + N reads as python3 main.py does, exit 128 + N)
    (139, b"e" + SIGNAL_REPORT + b"11\n", 64, (139, None, b"e" + SIGNAL_REPORT + b"11\n", False)),
    (139, b"e" + SIGNAL_REPORT + b"other 11\n", 64,
     (139, None, b"e" + SIGNAL_REPORT + b"other 11\n", False)),
    # the cap holds for the program's own bytes: the report's room is not the program's;
    # past the cap the run reads as ended there (red team sb15), not by its own exit
    (0, b"x" * 9, 8, (None, None, b"x" * 8, True)),
    (134, b"x" * 8 + SIGNAL_REPORT + b"n0nce 6\n", 8, (None, 6, b"x" * 8, False)),
])
def test_the_init_report_reads_as_the_program_ended(exit_code: int, stderr: bytes, cap: int,
                                                    read: tuple[object, ...]) -> None:
    from sandbox._process import RawRun
    from sandbox._runner import from_init

    raw = from_init(RawRun(exit_code=exit_code, signal=None, stdout=b"", stderr=stderr,
                           overflow=False, timed_out=False, wall_s=0.1, cpu_s=0.1,
                           peak_memory_bytes=0), cap, "n0nce")
    assert (raw.exit_code, raw.signal, raw.stderr, raw.overflow) == read
