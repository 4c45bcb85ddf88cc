"""Host-state probes shared by the sandbox tests (imported by conftest and the tests)."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import sandbox

JAIL_UID = 99999
PROGRAM_UID = 99998  # a warm server's programs
MODES = ["cold", "warm"]
SHORT = sandbox.Limits(wall_s=2.0, cpu_s=2.0, memory_bytes=256 << 20, processes=32,
                       disk_bytes=8 << 20, file_size_bytes=4 << 20, output_bytes=64 << 10,
                       test_wall_s=1.0)
"""Short limits for abuse tests, so the suite stays fast."""


def escaped_processes() -> list[str]:
    """Processes of the jail uids that no nsjail process contains: anything a program left
    behind outside its jail. (Live jails of other users of this machine are excluded.)"""
    parents, uids, names = {}, {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        pid = int(entry.name)
        parents[pid] = int(fields["PPid"])
        uids[pid] = int(fields["Uid"].split()[0])
        names[pid] = fields["Name"].strip()
    escaped = []
    for pid, uid in uids.items():
        if uid not in (JAIL_UID, PROGRAM_UID):
            continue
        ancestor, jailed = parents.get(pid, 0), False
        while ancestor > 1:
            if names.get(ancestor) == "nsjail":
                jailed = True
                break
            ancestor = parents.get(ancestor, 0)
        if not jailed:
            escaped.append(f"{pid} {names[pid]}")
    return escaped


class Host:
    """A canary file, a canary env secret and a loopback Redis probe, checked after a run."""

    def __init__(self, tmp: Path) -> None:
        self.token = secrets.token_hex(8)
        self.canary = tmp / f"canary-{self.token}.txt"
        self.canary.write_text(f"canary {self.token}\n")
        os.chmod(tmp, 0o755)
        os.chmod(self.canary, 0o644)
        self.canary_stat = self.canary.stat()

    def assert_unchanged(self) -> None:
        assert self.canary.read_text() == f"canary {self.token}\n"
        assert self.canary.stat().st_mtime_ns == self.canary_stat.st_mtime_ns
        assert escaped_processes() == []
        assert not redis_has(f"escape-{self.token}")


def redis_has(key: str) -> bool:
    """True when the host Redis (if any) has `key`; False when Redis is absent."""
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as conn:
            conn.sendall(f"EXISTS {key}\r\n".encode())
            return conn.recv(64).strip() == b":1"
    except OSError:
        return False


def burn(seconds: float, ignore_xcpu: bool = False) -> str:
    """A session cell that prints its RLIMIT_CPU, spins to `seconds` of its own CPU and
    prints what it reached (the second line is there only if it got that far)."""
    return ("import resource, signal, time\n"
            + ("signal.signal(signal.SIGXCPU, signal.SIG_IGN)\n" if ignore_xcpu else "")
            + "print(resource.getrlimit(resource.RLIMIT_CPU)[0], flush=True)\n"
            f"while time.process_time() < {seconds!r}:\n    pass\n"
            "print(round(time.process_time(), 3), flush=True)")


def reached(out: sandbox.Execution) -> float:
    """The CPU seconds a `burn` cell printed it reached (0 if it was stopped first)."""
    lines = out.stdout.split()
    return float(lines[1]) if len(lines) > 1 else 0.0


Outcome = tuple[str, str, bool]
"""(outcome, message, ran) of one test of `run_tests`."""
PASS: Outcome = ("pass", "", True)
DIED: Outcome = ("error", "the program died during the test: the program exited", True)


def outcomes(code: str, tests: list[Any], mode: sandbox.Mode,
             files: dict[str, str] | None = None, *, limits: sandbox.Limits
             ) -> list[tuple[str, str, bool]]:
    """(outcome, message, ran) of each test of `run_tests` on `code` (assert or stdin/stdout
    tests alike), in order."""
    report = sandbox.run_tests(code, tests, limits=limits, mode=mode, files=files)
    return [(r.outcome, r.message, r.ran) for r in report.results]


def ok_stdout(code: str, mode: sandbox.Mode, files: dict[str, str] | None = None, *,
              limits: sandbox.Limits) -> str:
    """The stdout of a plain run of `code`, which must end ok with nothing on stderr."""
    ex = sandbox.run(code, files=files, limits=limits, mode=mode)
    assert (ex.status, ex.exit_code, ex.stderr) == ("ok", 0, ""), ex
    return ex.stdout


def in_child(work: Callable[[], bool]) -> bool:
    """`work()` in a forked child (its uid or limits changed there alone): whether it
    returned true."""
    pid = os.fork()
    if pid == 0:
        ok = False
        with contextlib.suppress(BaseException):
            ok = work()
        os._exit(0 if ok else 1)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def raced_removal(make_swap: Callable[[str, str], Any], sub_mode: int,
                  root_mode: int = 0o755) -> tuple[int, bool, bool]:
    """As nobody (a folder's mode refuses only a non-root owner; skipped where not root):
    home/root/sub of `sub_mode` (root of `root_mode`) removed by `_cache.remove_tree` with
    `make_swap(outside, home)` as `_cache`'s `os` (a racer that swaps a folder for a link to
    `outside`, a 0o500 folder holding a file f, and sets `done`); (the outside folder's mode
    after, whether its file is there, whether the swap happened)."""
    from sandbox import _cache

    if os.getuid() != 0:
        pytest.skip("needs root to take another uid")
    home = tempfile.mkdtemp(prefix="race-")
    os.chmod(home, 0o755)
    os.chown(home, 65534, 65534)
    read, write = os.pipe()

    def work() -> bool:
        os.setgid(65534)
        os.setuid(65534)
        outside = os.path.join(home, "outside")
        os.mkdir(outside)
        Path(outside, "f").write_text("f")
        os.chmod(outside, 0o500)
        root = os.path.join(home, "root")
        os.makedirs(os.path.join(root, "sub", "deeper"))
        Path(root, "sub", "g").write_text("g")
        os.chmod(os.path.join(root, "sub"), sub_mode)
        os.chmod(root, root_mode)
        swap = make_swap(outside, home)
        vars(_cache)["os"] = swap
        try:
            _cache.remove_tree(root)
        finally:
            vars(_cache)["os"] = os
        mode = os.stat(outside).st_mode & 0o777
        there = int(os.path.exists(os.path.join(outside, "f")))
        os.write(write, f"{mode} {there} {int(swap.done)}".encode())
        return True

    try:
        assert in_child(work)
        os.close(write)
        mode, there, done = os.read(read, 64).split()
        return int(mode), there == b"1", done == b"1"
    finally:
        os.close(read)
        with contextlib.suppress(OSError):
            os.close(write)
        _cache.remove_tree(home)
