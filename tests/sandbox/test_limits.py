"""Bounds that hold for the run as a whole: memory over all of a program's processes (a
cgroup where the host has one, else rlimits that split the budget), binary size and the
binary cache's bytes on the host, and the file (inode) cap of the jail's tmpfs."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from sandbox_probes import MODES, SHORT

import sandbox
from sandbox import _cache, _cgroup, _jail, _spare

MiB = 1 << 20
CHILD_MIB = 100
FORKED = f"""
import os, sys, time
for _ in range(4):
    if os.fork() == 0:
        block = bytearray({CHILD_MIB} << 20)
        for i in range(0, len(block), 4096):  # touch every page: resident, not just reserved
            block[i] = 1
        os.write(1, b"held\\n")  # written by the child itself, while it holds the block
        time.sleep(1.0)
        os._exit(0)
for _ in range(4):
    os.wait()
"""
"""Four children holding 100 MiB each at the same time: 400 MiB if nothing bounds the run."""
FORK_LIMITS = dataclasses.replace(SHORT, memory_bytes=192 * MiB, wall_s=8.0, cpu_s=8.0)


def memory_cgroup() -> bool:
    return bool(_jail.cgroup_v2_root() or _cgroup.cgroup_v1())


def _held(ex: sandbox.Execution) -> int:
    return ex.stdout.count("held")


@pytest.mark.parametrize("mode", MODES)
def test_forked_children_share_one_memory_limit(mode: str) -> None:
    ex = sandbox.run(FORKED, limits=FORK_LIMITS, mode=mode)
    # Unbounded, all four hold 100 MiB at once (400 MiB). Bounded, the OOM killer takes
    # children as the total nears 192 MiB; a later child may get its block after an earlier
    # holder was killed, so the count of "held" lines is at most 3, never a proof of overlap.
    # (peak_memory_bytes is not checked: in warm mode it is the warm server's lifetime peak.)
    assert _held(ex) < 4, ex
    if memory_cgroup():
        assert ex.status == "memory_limit", ex
    else:  # rlimits: each of 4 processes may have 48 MiB, no child gets its block
        assert _held(ex) == 0 and ex.status in ("runtime_error", "memory_limit"), ex


@pytest.mark.parametrize("mode", MODES)
def test_without_cgroups_processes_share_the_memory_budget(mode: str, no_cgroup: None) -> None:
    ex = sandbox.run(FORKED, limits=FORK_LIMITS, mode=mode)
    # 4 processes of 48 MiB: every child fails its allocation, nothing more is held. (Four
    # children print their MemoryError tracebacks at once under a tight address-space limit:
    # a traceback can come out cut short, so the exit status is the check, not the text.)
    assert _held(ex) == 0 and ex.status in ("runtime_error", "memory_limit"), ex
    assert "bytearray" in ex.stderr, ex
    # the whole budget may go to fewer processes: two of 200 MiB, each holding 100 MiB
    two = dataclasses.replace(FORK_LIMITS, memory_bytes=400 * MiB, processes=2)
    code = FORKED.replace("range(4)", "range(1)")
    ex = sandbox.run(code, limits=two, mode=mode)
    assert ex.status == "ok" and _held(ex) == 1, ex


FITS = ("def fits(size):\n    try:\n        return len(bytearray(size)) > 0\n"
        "    except MemoryError:\n        return False\n"
        "print(fits(1 << 20), fits(8 << 20))\n")


@pytest.mark.parametrize("mode", MODES)
def test_without_cgroups_a_run_has_the_address_space_cold_has(mode: str,
                                                              no_cgroup: None) -> None:
    """16 MiB of address space (64 MiB over 4 processes), about 13.5 of it python3's own:
    1 MiB more fits, 8 do not, warm as cold. A warm child inherits the server's mappings,
    which its limit credits (`warm_server.own_address_space`); it held 62-63 MiB of 1 MiB
    blocks when the server's probe threads had glibc reserve a 64 MiB malloc arena that
    every child inherited and malloc grew into past RLIMIT_AS (sb11)."""
    limits = dataclasses.replace(SHORT, memory_bytes=64 * MiB, processes=4)
    runs = [sandbox.run(FITS, limits=limits, mode=mode) for _ in range(2)]
    assert [(r.status, r.stdout) for r in runs] == [("ok", "True False\n")] * 2, runs


@pytest.mark.parametrize(("memory_mib", "processes", "cgroup", "expected"), [
    (1024, 64, True, (64, 4096 * MiB)),  # a cgroup holds the total: RLIMIT_AS a backstop
    (1024, 64, False, (8, 128 * MiB)),  # defaults without cgroups: 8 processes of 128 MiB
    (1024, 2, False, (2, 512 * MiB)),  # fewer processes, each a bigger share
    (100, 64, False, (4, 25 * MiB)),  # never fewer than 4 (a harness, its zygote, a child)
    (100, 1, False, (1, 100 * MiB)),  # ... unless asked: one process gets it all
    (256, 32, False, (4, 64 * MiB)),
])
def test_process_budget(memory_mib: int, processes: int, cgroup: bool,
                        expected: tuple[int, int]) -> None:
    limits = sandbox.Limits(memory_bytes=memory_mib * MiB, processes=processes)
    count, each = _jail.process_budget(limits, cgroup=cgroup)
    assert (count, each) == expected
    if not cgroup:
        assert count * each <= limits.memory_bytes


def test_cgroup_v1_groups_are_removed_after_each_run() -> None:
    host = _cgroup.cgroup_v1()
    if host is None:
        pytest.skip("no writable cgroup v1 memory hierarchy on this host "
                    "(cgroup v2 or rlimits hold memory here)")
    parent = Path(host.memory_mount, host.memory_parent)
    _spare.spares.close()
    mine = f"sandbox-{os.getpid()}-"  # this process's groups (another test process may run)
    before = {p.name for p in parent.iterdir() if p.name.startswith(mine)}
    sandbox.run(FORKED, limits=FORK_LIMITS, mode="cold")
    sandbox.run("print(1)", limits=SHORT, mode="cold")
    # what is left is the groups of the spare jails waiting for the next runs (one per
    # shape and CPU at most), and they go with the spares
    waiting = sum(len(queue) for queue in _spare.spares.waiting.values())
    after = {p.name for p in parent.iterdir() if p.name.startswith(mine)}
    assert len(after - before) == waiting <= 2 * _spare.per_shape()
    _spare.spares.close()
    after = {p.name for p in parent.iterdir() if p.name.startswith(mine)}
    assert after - before == set()
    # a run group holds the limit and reports its OOM kills (the jail's own group is inside)
    with _cgroup.MemoryGroup(host, 64 * MiB) as group:
        assert Path(group.path, "memory.limit_in_bytes").read_text().strip() == str(64 * MiB)
        assert not group.oom_killed()
    assert not os.path.exists(group.path)
    # a group whose creator died without closing it (a forked worker's warm server) is swept
    dead = subprocess.Popen(["/bin/true"])
    dead.wait()
    stale = parent / f"sandbox-{dead.pid}-0123456789ab"
    stale.mkdir()
    _cgroup.sweep(host)
    assert not stale.exists()


def test_a_huge_initialized_array_is_a_compile_error_that_leaves_nothing_big() -> None:
    code = "char big[150 << 20] = {1};\nint main(void) { return big[5]; }\n"
    limits = dataclasses.replace(SHORT, binary_bytes=16 * MiB)
    ex = sandbox.run(code, "c", limits=limits)
    assert ex.status == "compile_error", ex
    assert "exceeds the binary size limit (16 MiB)" in ex.stderr
    root = _cache.cache_root()
    if root is not None and (root / "binaries").is_dir():
        assert all(p.stat().st_size <= _cache.MAX_CACHED_BINARY
                   for p in (root / "binaries").iterdir())
    shm = Path("/dev/shm")
    if shm.is_dir():  # where compile outputs are written: nothing of this size stays
        assert [p for p, size in _files_under(shm, "sandbox-*", depth=8)
                if size > 16 * MiB] == []


def _files_under(root: Path, pattern: str, depth: int) -> list[tuple[Path, int]]:
    """The files (and their sizes) at most `depth` levels under the folders `root/pattern`, walked with a
    list: a run beside this one may hold a task folder deeper than the recursion limit
    (`Path.glob("**")` recursed into one and raised RecursionError), and compile outputs
    lie near the top."""
    found: list[tuple[Path, int]] = []
    pending = [(p, 0) for p in root.glob(pattern)]
    while pending:
        path, level = pending.pop()
        try:
            if path.is_symlink():
                continue
            if path.is_file():
                found.append((path, path.stat().st_size))
            elif path.is_dir() and level < depth:
                pending.extend((child, level + 1) for child in path.iterdir())
        except OSError:  # removed meanwhile by the run that made it
            continue
    return found


def test_binary_cache_keeps_its_total_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    root = tempfile.mkdtemp(prefix="cache-test-")
    os.chmod(root, 0o755)
    monkeypatch.setenv("SANDBOX_CACHE_DIR", root)
    monkeypatch.setattr(_cache, "MAX_CACHE_BYTES", 10_000)
    monkeypatch.setattr(_cache, "MAX_CACHED_BINARY", 6_000)
    try:
        source = Path(root, "built")
        for i, size in enumerate([4_000, 4_000, 4_000, 7_000, 1_000]):
            source.write_bytes(b"x" * size)
            _cache.store_binary(f"key{i}", str(source))
            stored = Path(root, "binaries", f"key{i}")
            if stored.exists():  # each new one the most recently used
                os.utime(stored, (i, i))
        _cache.trim(Path(root, "binaries"))
        kept = {p.name: p.stat().st_size for p in Path(root, "binaries").iterdir()}
        assert kept == {"key4": 1_000, "key2": 4_000, "key1": 4_000}  # 7_000: never kept
        assert sum(kept.values()) <= 10_000
    finally:
        import shutil

        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("mode", MODES)
def test_the_work_dir_has_a_file_cap(mode: str) -> None:
    code = ("import os\nmade = 0\ntry:\n    while made < 100_000:\n"
            "        open(f'/work/f{made}', 'w').close()\n        made += 1\n"
            "except OSError as exc:\n    print(made, exc.errno)\n")
    ex = sandbox.run(code, limits=dataclasses.replace(SHORT, disk_files=300), mode=mode)
    assert ex.status == "ok", ex
    made, errno = map(int, ex.stdout.split())
    assert 250 <= made < 300 and errno == 28  # ENOSPC: out of inodes, not of bytes


RAISE_LIMITS = (
    "import resource\nfor kind, value in ((resource.RLIMIT_CPU, 100), "
    "(resource.RLIMIT_NOFILE, 128)):\n    try:\n"
    "        resource.setrlimit(kind, (value, value))\n        got = 'raised'\n"
    "    except (ValueError, OSError) as exc:\n        got = type(exc).__name__\n"
    "    print(got, resource.getrlimit(kind))\n"
)
"""Raise RLIMIT_CPU and RLIMIT_NOFILE to what a stdin/stdout harness holds for itself."""


@pytest.mark.parametrize("mode", MODES)
def test_a_stdin_test_has_the_programs_cpu_and_files_not_its_harnesss(mode: str) -> None:
    """Each stdin/stdout test's process reads the rlimits `python3 main.py` reads in a plain
    cold run, and cannot raise them to the harness's own (`_tests._io_harness_limits`: the
    jail's wall time and 64 descriptors): one CPU second, eight descriptors."""
    limits = dataclasses.replace(SHORT, cpu_s=1.0, open_files=8, wall_s=6.0)
    plain = sandbox.run(RAISE_LIMITS, limits=limits, mode="cold")
    assert (plain.status, plain.stdout) == (
        "ok", "ValueError (1, 1)\nValueError (8, 8)\n"), plain
    report = sandbox.run_tests(RAISE_LIMITS, [{"input": "", "output": plain.stdout}] * 2,
                               limits=limits, mode=mode)
    assert [(r.outcome, r.message) for r in report.results] == [("pass", "")] * 2, report


@pytest.mark.parametrize("mode", MODES)
def test_a_stdin_test_that_spins_is_killed_at_the_programs_cpu_limit(mode: str) -> None:
    """A test's process past `cpu_s` of CPU is SIGKILLed (RLIMIT_CPU, soft = hard, as a
    plain run's), not left running on the harness's larger CPU limit to its wall limit; the
    tests after it still run."""
    limits = dataclasses.replace(SHORT, cpu_s=1.0, wall_s=12.0, test_wall_s=5.0)
    code = "if input() == 'spin':\n    while True:\n        pass\nprint('ok')\n"
    report = sandbox.run_tests(code, [{"input": "spin\n", "output": "ok\n"},
                                      {"input": "a\n", "output": "ok\n"}],
                               limits=limits, mode=mode)
    assert [(r.outcome, r.message) for r in report.results] == [
        ("error", "killed by signal 9"), ("pass", "")], report
