"""Red team (rt33) of the cold Python run's C init: `sandbox/_in_jail/init.c`, compiled at
staging (`_staging.init_defines`, `_build_init`, the `init-unbuilt.txt` fallback to
`_in_jail/init.py`), chosen by `_runner.cold_init`, read back by `_runner.from_init`.

The rule under attack (init.py's docstring): a cold program's verdict (status, exit code,
signal, stdout, stderr) is what `python3 -E -s -S main.py` gives as a plain process on
this host (sb12's `host`), and warm equals cold; no program forges a better one or reaches
the init, the staged folder or a later run. Probes run against the C init (skipped where
it could not be built) and, where cheap, the Python init too (`either`
fixture); none repeats test_init, sb12, sb13 or sb14.

Attacked:
(A) report forgery in new shapes: the report split over two writes, without its NUL, a
    forged report then a real death, a forged report of each guessable shape (zeros,
    the test suite's nonce) as the exact tail with exit 128 + N for several N;
(B) endings: every signal 1 to 31 but SIGSTOP (sb14) sent to itself, SIGRTMIN and
    SIGRTMIN+5, cold against host; os._exit codes at the edges of the 0-255 range and of
    the init's own codes (70 FAILED, 127 NOT_STARTED, 128, 129, 191, 192);
(C) processes: a stopped child left behind, zombies never reaped, a child in a group of
    its own that stops that group, SIGTSTP/SIGTTIN/SIGTTOU to itself (an orphaned process
    group: discarded), exec of the staged init itself (not pid 1: exit 70, no report),
    under any argv[0]; stopped by a child then continued or SIGKILLed, a child subreaper,
    the main thread exiting alone (a thread's exit 3 is the status); the init's
    RLIMIT_SIGPENDING, NPROC, CORE and MSGQUEUE set to 0 before a death;
(D) descriptors: 0 to 2 dup'ed to /dev/null then a death, fd 2 set to send the init a
    SIGSTOP on I/O (F_SETOWN 1, F_SETSIG, O_ASYNC) around a full pipe, stdout and stderr
    in packet mode (O_DIRECT) then a death (cold and host), kill(-1, SIGSTOP) then exit 0 (the init and
    the warm server untouched, the next run served);
(E) the output cap the report raises (output_bytes + INIT_REPORT_BYTES): stdout at the cap
    then a signal, one byte past, stderr at the raised cap exactly then exit 0, either
    stream 1 or 100 bytes past the cap then a sleep (how the run is ended);
(F) the staged folder: writing, chmod, unlink, mkdir, rename in /harness from a run (read
    only: EACCES/EROFS), the init's bytes unchanged after; init_defines' escaping of every
    byte 0-255 compiled by cc back to the same bytes;
(G) spare jails (`SANDBOX_SPARE_JAILS`): a signal death and a split forgery through a spare.

Open when written, closed since by the lead (plain tests now):
- `_runner.run` + `_runner.from_init` (output flood, cold): the jail ran with both caps
  raised by INIT_REPORT_BYTES, so a program 1 to 43 bytes past output_bytes (stdout or
  stderr) was not ended at the cap: it ran on (here 1 s, up to its wall limit) and read
  its own exit 0 (status output_limit), where one further past read a run ended at the
  cap (exit None, signal None) and warm killed it at the cap. Now stdout's cap is
  output_bytes (`collect`'s `stderr_extra`: the report's room is stderr's only) and stderr
  past output_bytes once the report is off reads as a run ended at the cap.
- `_warm` (the client's read loop, `if not chunk or (event & select.POLLHUP and
  len(chunk) < _CHUNK)`) ended a stream at the first short read once the writer had hung
  up; a program that puts its stdout/stderr in packet mode (fcntl O_DIRECT) gets one
  packet (<= 4096 bytes) per read, so a 5000-byte write then SIGTERM read 4096 bytes warm
  in 4 of 6 runs (a false loss or a cut stderr, never a pass). Now a stream ends at an
  empty read only, as `_process.collect` reads it; the packet-mode probe asserts warm too.

Held: all the rest; every verdict equals python3 main.py's on this host (where a host
run is possible: not a stopped child left holding the host's pipe, not a prlimit on the
host's parent) and the warm mode's.

Not probed (racy, scheduler timing): a hard RLIMIT_CPU of 0 on the init (test_init's
RACY); a SIGSTOP/SIGCONT race between two children. Not reachable: RLIMIT_FSIZE 0 on the
init cannot raise SIGXFSZ on the report (fd 2 is a pipe, and pid 1 drops the kernel's
default-action SIGXFSZ), so that class reduces to sb12's "FSIZE rlimit 0 then die 15".
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator

import pytest
from test_init import INITS, argv_of
from test_redteam_round_sb12 import LIMITS, host, seen
from test_spare import Taken

import sandbox
from sandbox import _runner, _spare, _staging
from sandbox._in_jail import init as init_py
from sandbox._in_jail.init import FAILED, SIGNAL_REPORT
from sandbox._runner import Mode
from sandbox._staging import staged_dir

pytestmark = pytest.mark.usefixtures("sandbox_ready")

R = SIGNAL_REPORT
CAP = LIMITS.output_bytes


@pytest.fixture
def c_init(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cold runs of this test use the compiled init (skipped where it was not built)."""
    argv = argv_of("c")
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)


@pytest.fixture(params=INITS)
def either(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Cold runs of this test use the init named by the parameter (test_init's `init`)."""
    argv = argv_of(request.param)
    monkeypatch.setattr(_runner, "cold_init", lambda: argv)
    return str(request.param)


def cold(code: str, limits: sandbox.Limits = LIMITS) -> sandbox.Execution:
    return sandbox.run(code, limits=limits, mode="cold")


def warm(code: str, limits: sandbox.Limits = LIMITS) -> sandbox.Execution:
    return sandbox.run(code, limits=limits, mode="warm")


def full(ex: sandbox.Execution) -> tuple[str, int | None, int | None, str, str]:
    return ex.status, ex.exit_code, ex.signal, ex.stdout, ex.stderr


# --- (A) report forgery, new shapes ------------------------------------------------------

FORGED = {
    # program, and (status, exit, signal, stdout, stderr) as python3 main.py ends
    "the report split over two writes, exit 137": (
        (f"import os\nos.write(2, {R[:5]!r})\nos.write(2, {R[5:]!r} + b'0123456789abcdef 9\\n')\n"
         "os._exit(137)\n"),
        ("runtime_error", 137, None, "", R.decode() + "0123456789abcdef 9\n")),
    "the report without its NUL, exit 137": (
        f"import os\nos.write(2, {R[1:]!r} + b'0123456789abcdef 9\\n')\nos._exit(137)\n",
        ("runtime_error", 137, None, "", R[1:].decode() + "0123456789abcdef 9\n")),
    "a forged report of 15, then a real SIGKILL": (
        f"import os\nos.write(2, {R!r} + b'0123456789abcdef 15\\n')\nos.kill(os.getpid(), 9)\n",
        ("runtime_error", None, 9, "", R.decode() + "0123456789abcdef 15\n")),
    "a nonce of zeros, report 1, exit 129": (
        f"import os\nos.write(2, {R!r} + b'0000000000000000 1\\n')\nos._exit(129)\n",
        ("runtime_error", 129, None, "", R.decode() + "0000000000000000 1\n")),
    "a nonce of zeros, report 64, exit 192": (
        f"import os\nos.write(2, {R!r} + b'0000000000000000 64\\n')\nos._exit(192)\n",
        ("runtime_error", 192, None, "", R.decode() + "0000000000000000 64\n")),
    "the nonce placeholder, report 9, exit 137": (
        f"import os\nos.write(2, {R!r} + b'{{secret}} 9\\n')\nos._exit(137)\n",
        ("runtime_error", 137, None, "", R.decode() + "{secret} 9\n")),
    "a report on stdout and stderr, then a real SIGTERM": (
        (f"import os\nfor fd in (1, 2):\n    os.write(fd, {R!r} + b'0123456789abcdef 9\\n')\n"
         "os.kill(os.getpid(), 15)\n"),
        ("runtime_error", None, 15, R.decode() + "0123456789abcdef 9\n",
         R.decode() + "0123456789abcdef 9\n")),
}


@pytest.mark.parametrize("name", list(FORGED))
def test_a_forged_report_is_the_programs_own_bytes(either: str, name: str) -> None:
    code, want = FORGED[name]
    ex = cold(code)
    assert seen(ex) == host(code) == want[1:4]
    assert full(ex) == want


@pytest.mark.parametrize("name", list(FORGED))
def test_a_forged_report_reads_alike_warm(name: str) -> None:
    code, want = FORGED[name]
    assert full(warm(code)) == want


# --- (B) endings -------------------------------------------------------------------------

SIGNALS = [s for s in range(1, 32) if s != signal.SIGSTOP] + [signal.SIGRTMIN,
                                                              signal.SIGRTMIN + 5]


@pytest.mark.parametrize("number", [int(s) for s in SIGNALS])
def test_every_signal_to_itself_reads_as_python3s(c_init: None, number: int) -> None:
    """Deaths (report then 128 + N, read back as N), and signals python3 survives:
    SIGCHLD, SIGCONT, SIGURG, SIGWINCH ignored by default, SIGTSTP, SIGTTIN, SIGTTOU
    discarded (a session leader's group is orphaned), SIGPIPE and SIGXFSZ default again."""
    code = f"import os\nprint('x', flush=True)\nos.kill(os.getpid(), {number})\nprint('y')\n"
    assert seen(cold(code)) == host(code)


@pytest.mark.parametrize("code", [1, 2, 69, FAILED, 71, 126, 127, 128, 129, 191, 192, 254, 255])
def test_an_exit_code_at_an_edge_reads_as_python3s(c_init: None, code: int) -> None:
    program = f"import os\nprint('x', flush=True)\nos._exit({code})\n"
    ex = cold(program)
    assert seen(ex) == host(program) == (code, None, "x\n")
    assert (ex.status, ex.stderr) == ("runtime_error", "")


# --- (C) processes -----------------------------------------------------------------------

PROCESSES = {
    # program, and (status, exit, signal, stdout, stderr) cold and warm
    "a stopped child left behind": (
        ("import os, signal\npid = os.fork()\nif pid == 0:\n"
         "    os.kill(os.getpid(), signal.SIGSTOP)\n    os._exit(0)\n"
         "os.waitpid(pid, os.WUNTRACED)\nprint('left')\n"),
        ("ok", 0, None, "left\n", "")),
    "twenty zombies never reaped": (
        "import os\nfor _ in range(20):\n    if os.fork() == 0:\n        os._exit(3)\nprint('z')\n",
        ("ok", 0, None, "z\n", "")),
    "a child in a group of its own stops that group": (
        ("import os, signal\npid = os.fork()\nif pid == 0:\n    os.setpgid(0, 0)\n"
         "    os.kill(0, signal.SIGSTOP)\n    os._exit(0)\nos.waitpid(pid, os.WUNTRACED)\n"
         "print('p')\n"),
        ("ok", 0, None, "p\n", "")),
    "a stopped child, then the program dies of SIGTERM": (
        ("import os, signal\npid = os.fork()\nif pid == 0:\n"
         "    os.kill(os.getpid(), signal.SIGSTOP)\n    os._exit(0)\n"
         "os.waitpid(pid, os.WUNTRACED)\nprint('s', flush=True)\nos.kill(os.getpid(), 15)\n"),
        ("runtime_error", None, 15, "s\n", "")),
    "SIGTSTP, SIGTTIN, SIGTTOU to its own group": (
        ("import os, signal\nfor s in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU):\n"
         "    os.killpg(0, s)\nprint('after')\n"),
        ("ok", 0, None, "after\n", "")),
    "setsid as a session leader fails": (
        "import os\ntry:\n    os.setsid()\nexcept OSError as e:\n    print(e.errno)\n",
        ("ok", 0, None, "1\n", "")),
    "exec of the staged init, which is no pid 1": (
        ("import os\nos.execv('/harness/init', "
         "['/harness/init', 'n0nce', '/bin/sh', '-c', 'kill -9 $$'])\n"),
        ("runtime_error", FAILED, None, "", "")),
    "exec of the staged init under another argv[0]": (
        ("import os\nos.execv('/harness/init', "
         "['1', '0123456789abcdef', '/bin/sh', '-c', 'kill -9 $$'])\n"),
        ("runtime_error", FAILED, None, "", "")),
}


@pytest.mark.parametrize("name", list(PROCESSES))
def test_what_a_program_does_with_processes_reads_alike(c_init: None, name: str) -> None:
    code, want = PROCESSES[name]
    assert [full(cold(code)), full(warm(code))] == [want, want]


STOP_GAMES = {
    # program, and (status, exit, signal, stdout, stderr): cold, warm and python3 main.py
    "stopped by its child, then continued": (
        ("import os, signal\nif os.fork() == 0:\n    os.kill(os.getppid(), signal.SIGSTOP)\n"
         "    os.kill(os.getppid(), signal.SIGCONT)\n    os._exit(0)\nos.wait()\nprint('after')\n"),
        ("ok", 0, None, "after\n", "")),
    "stopped by its child, then SIGKILLed": (
        ("import os, signal\nif os.fork() == 0:\n    os.kill(os.getppid(), signal.SIGSTOP)\n"
         "    os.kill(os.getppid(), signal.SIGKILL)\n    os._exit(0)\nos.wait()\nprint('after')\n"),
        ("runtime_error", None, 9, "", "")),
    "a child subreaper reaps its grandchild": (
        ("import ctypes, os\nctypes.CDLL(None).prctl(36, 1, 0, 0, 0)\nif os.fork() == 0:\n"
         "    if os.fork() == 0:\n        os._exit(7)\n    os._exit(0)\nos.wait()\n"
         "print(os.wait()[1] >> 8)\n"),
        ("ok", 0, None, "7\n", "")),
    "the main thread exits alone, a thread exits 3": (
        ("import ctypes, os, threading, time\ndef t():\n    time.sleep(0.3)\n"
         "    print('t', flush=True)\n    os._exit(3)\nthreading.Thread(target=t).start()\n"
         "ctypes.CDLL(None).syscall(60, 0)\n"),
        ("runtime_error", 3, None, "t\n", "")),
}


@pytest.mark.parametrize("name", list(STOP_GAMES))
def test_stop_and_reaping_games_read_as_python3s(c_init: None, name: str) -> None:
    code, want = STOP_GAMES[name]
    assert host(code) == want[1:4]
    assert [full(cold(code)), full(warm(code))] == [want, want]


INIT_LIMITS = ("import os, resource\nfor r in (resource.RLIMIT_SIGPENDING, resource.RLIMIT_NPROC,\n"
               "          resource.RLIMIT_CORE, resource.RLIMIT_MSGQUEUE):\n    try:\n"
               "        resource.prlimit(os.getppid(), r, (0, 0))\n    except OSError:\n"
               "        pass\nos.kill(os.getpid(), 15)\n")


def test_the_inits_other_rlimits_at_0_change_no_report(c_init: None) -> None:
    """Not run on the host: there the parent is this test process."""
    want = ("runtime_error", None, 15, "", "")
    assert [full(cold(INIT_LIMITS)), full(warm(INIT_LIMITS))] == [want, want]


# --- (D) descriptors ---------------------------------------------------------------------

SIGIO_STOP = (
    "import os, fcntl, signal\nfcntl.fcntl(2, fcntl.F_SETOWN, os.getppid())\n"
    "fcntl.fcntl(2, 10, int(signal.SIGSTOP))\n"  # F_SETSIG
    "fcntl.fcntl(2, fcntl.F_SETFL, fcntl.fcntl(2, fcntl.F_GETFL) | os.O_ASYNC)\n"
    "for _ in range(3):\n    os.write(2, b'e' * 70000)\nprint('x')\n")
BIG = dataclasses.replace(LIMITS, output_bytes=1 << 20)


def test_fd_2_set_to_signal_the_init_stops_nothing(c_init: None) -> None:
    """F_SETOWN(1) + F_SETSIG(SIGSTOP) + O_ASYNC on the shared stderr pipe, then writes
    past a full pipe: the init is not stopped (the run ends, ok), cold as warm."""
    want = ("ok", 0, None, "x\n", "e" * 210000)
    assert [full(cold(SIGIO_STOP, BIG)), full(warm(SIGIO_STOP, BIG))] == [want, want]


def test_fds_0_to_2_on_dev_null_then_a_death(either: str) -> None:
    """The report goes to the init's own fd 2, which the program's dup2 does not reach."""
    code = ("import os\nfd = os.open('/dev/null', os.O_RDWR)\nfor n in (0, 1, 2):\n"
            "    os.dup2(fd, n)\nos.kill(os.getpid(), 15)\n")
    assert full(cold(code)) == ("runtime_error", None, 15, "", "")


def test_stdout_and_stderr_in_packet_mode_then_a_death(either: str) -> None:
    """O_DIRECT on the shared pipes (packet mode): the init keeps the flag, the report is
    one packet of its own, every byte arrives, cold and warm (warm's reader once ended a
    stream at its first short read: see the module docstring)."""
    code = ("import os, fcntl\nfor fd in (1, 2):\n"
            "    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_DIRECT)\n"
            "os.write(2, b'e' * 5000)\nos.write(1, b'o' * 5000)\nos.kill(os.getpid(), 15)\n")
    want = ("runtime_error", None, 15, "o" * 5000, "e" * 5000)
    assert full(cold(code)) == want
    assert full(warm(code)) == want
    assert host(code) == want[1:4]


STOP_ALL = ("import os, signal, time\nif os.fork() == 0:\n    time.sleep(30)\n    os._exit(0)\n"
            "os.kill(-1, signal.SIGSTOP)\nprint('p')\n")


def test_kill_minus_1_sigstop_stops_no_init_and_no_server(c_init: None) -> None:
    """kill(-1, SIGSTOP) stops the program's child, never the init or the warm server:
    the run ends (its stopped child SIGKILLed), and the next run in each mode is served.
    Not run on the host (as root there it would stop every process)."""
    want = [("ok", 0, None, "p\n", ""), ("ok", 0, None, "1\n", "")]
    for run in (cold, warm):
        assert [full(run(STOP_ALL)), full(run("print(1)"))] == want


# --- (E) the cap the report raises ---------------------------------------------------------

def _flood(fd: int, size: int, then: str) -> str:
    return (f"import os\ndata = b'o' * {size}\nwhile data:\n"
            f"    data = data[os.write({fd}, data):]\n{then}\n")


def test_stdout_at_the_cap_then_a_signal(either: str) -> None:
    ex = cold(_flood(1, CAP, "os.kill(os.getpid(), 15)"))
    assert (ex.status, ex.signal, ex.truncated, len(ex.stdout_bytes), ex.stderr) == \
        ("runtime_error", 15, False, CAP, "")


def test_stdout_past_the_cap_then_a_signal_is_an_overflow(either: str) -> None:
    ex = cold(_flood(1, CAP + 1, "os.kill(os.getpid(), 15)"))
    assert (ex.status, ex.truncated, len(ex.stdout_bytes)) == ("output_limit", True, CAP)


def test_stderr_at_the_raised_cap_then_exit_0_is_an_overflow(either: str) -> None:
    ex = cold(_flood(2, CAP + _runner.INIT_REPORT_BYTES, "print('done')"))
    assert (ex.status, ex.truncated, len(ex.stderr)) == ("output_limit", True, CAP)


@pytest.mark.parametrize("fd", [1, 2])
def test_a_stream_far_past_the_cap_is_ended_there(c_init: None, fd: int) -> None:
    ex = cold(_flood(fd, CAP + 100, "import time\ntime.sleep(30)"))
    assert (ex.status, ex.exit_code, ex.signal, ex.truncated) == ("output_limit", None, None, True)


@pytest.mark.parametrize("fd", [1, 2])
def test_a_stream_just_past_the_cap_is_ended_there_too(c_init: None, fd: int) -> None:
    ex = cold(_flood(fd, CAP + 1, "import time\ntime.sleep(1)"))
    assert (ex.status, ex.exit_code, ex.signal, ex.truncated) == ("output_limit", None, None, True)


# --- (F) the staged folder ---------------------------------------------------------------

WRITE_HARNESS = (
    "import os\nout = []\nfor f in (lambda: open('/harness/init', 'r+b'),\n"
    "          lambda: os.chmod('/harness/init', 0o777),\n"
    "          lambda: os.unlink('/harness/init'),\n"
    "          lambda: os.mkdir('/harness/x'),\n"
    "          lambda: os.rename('/harness/init', '/harness/i2'),\n"
    "          lambda: open('/harness/_in_jail/init.py', 'a')):\n"
    "    try:\n        f()\n        out.append('done')\n"
    "    except OSError as e:\n        out.append(e.errno)\nprint(out)\n")


def test_no_run_changes_the_staged_init(c_init: None) -> None:
    path = os.path.join(staged_dir(), _staging.INIT_BINARY)
    with open(path, "rb") as fh:
        before = hashlib.sha256(fh.read()).hexdigest()
    listing = sorted(os.listdir(staged_dir()))
    want = ("ok", 0, None, "[13, 30, 30, 30, 30, 13]\n", "")
    assert [full(cold(WRITE_HARNESS)), full(warm(WRITE_HARNESS))] == [want, want]
    with open(path, "rb") as fh:
        assert hashlib.sha256(fh.read()).hexdigest() == before
    assert sorted(os.listdir(staged_dir())) == listing


PRINT_REPORT = (
    "#include <stdio.h>\nstatic const char r[] = INIT_SIGNAL_REPORT;\n"
    "int main(void) { fwrite(r, 1, sizeof r - 1, stdout); return INIT_FAILED; }\n")


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc) on PATH")
@pytest.mark.parametrize("report", [bytes(range(256)), b"??/??=??(\\\"'\n%s" + bytes(range(7))])
def test_init_defines_carry_every_byte(monkeypatch: pytest.MonkeyPatch, report: bytes) -> None:
    """Whatever init.py's report holds (NULs, quotes, backslashes, trigraphs under -std=c99,
    bytes past 127), the C init is built with exactly those bytes."""
    monkeypatch.setattr(init_py, "SIGNAL_REPORT", report)
    with tempfile.TemporaryDirectory() as folder:
        source, binary = os.path.join(folder, "r.c"), os.path.join(folder, "r")
        with open(source, "w") as fh:
            fh.write(PRINT_REPORT)
        command = _staging._init_command(source, binary, static=False)
        subprocess.run(command, check=True, capture_output=True, timeout=120)
        done = subprocess.run([binary], check=False, capture_output=True, timeout=30)
    assert (done.returncode, done.stdout) == (FAILED, report)


# --- (G) spare jails -----------------------------------------------------------------------

COLD_THRICE: tuple[Mode, ...] = ("cold", "cold", "cold")


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch, c_init: None) -> Iterator[Taken]:
    _spare.spares.close()
    yield Taken(monkeypatch)
    _spare.spares.close()


SPARED = {
    "a SIGABRT": ("import os\nprint('a', flush=True)\nos.abort()\n",
                  ("runtime_error", None, 6, "a\n", "")),
    "the report split over two writes, exit 137": FORGED["the report split over two writes, exit 137"],
}


@pytest.mark.parametrize("name", list(SPARED))
def test_an_ending_through_a_spare_reads_as_a_fresh_jails(taken: Taken, name: str) -> None:
    code, want = SPARED[name]
    runs = [sandbox.run(code, limits=LIMITS, mode=mode) for mode in COLD_THRICE]
    assert taken.hits == 1  # the third went through the spare the second started
    assert [full(r) for r in runs] == [want] * 3
