"""The cgroup v2 CPU path of a session (`sandbox/_cgroup.py`: `cgroup_v2_root`, `v2_group`,
`v2_cpu_meter`, `CpuMeter` on `cpu.stat`; `sandbox/_session.py`: `_Jail._meter_on`,
`_Jail.check_cpu`; `sandbox/_cpu_watch.py`: the watcher thread), run on any host: the
production functions read a temporary folder laid out as the host's cgroup v2 hierarchy
(`_cgroup.CGROUP_ROOT`) and as /proc's cgroup files (`_cgroup.PROC`), and the "jail" is a
real process that the budget decision kills. No machine speed enters: the CPU counts are
the numbers written into `cpu.stat`."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import _cgroup, _session
from sandbox._cpu_watch import CpuWatch

JAIL = "user.slice/rewards/NSJAIL.4242"
"""The group nsjail made for the jail (relative to the hierarchy's root)."""
OURS = "user.slice/rewards"
"""This process's own group, which holds the jail's."""


def cpu_stat(usage_usec: int, user_usec: int, system_usec: int) -> str:
    """A `cpu.stat` as Linux 5.x/6.x writes it."""
    return (f"usage_usec {usage_usec}\nuser_usec {user_usec}\nsystem_usec {system_usec}\n"
            "core_sched.force_idle_usec 0\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n"
            "nr_bursts 0\nburst_usec 0\n")


@pytest.fixture
def v2_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cgroup v2 hierarchy (memory and pids offered) with our group and the jail's, and a
    /proc whose `self` is in ours."""
    root = tmp_path / "cgroup"
    (root / JAIL).mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpuset cpu io memory hugetlb pids rdma misc\n")
    (root / OURS / "cpu.stat").write_text(cpu_stat(9_000_000, 8_000_000, 1_000_000))
    (root / JAIL / "cpu.stat").write_text(cpu_stat(0, 0, 0))
    proc = tmp_path / "proc"
    (proc / "self").mkdir(parents=True)
    (proc / "self" / "cgroup").write_text(f"0::/{OURS}\n")
    monkeypatch.delenv("SANDBOX_NO_CGROUP", raising=False)
    monkeypatch.setattr(_cgroup, "CGROUP_ROOT", str(root))
    monkeypatch.setattr(_cgroup, "PROC", str(proc))
    _cgroup.cgroup_v2_root.cache_clear()
    yield root
    _cgroup.cgroup_v2_root.cache_clear()  # (monkeypatch puts CGROUP_ROOT back after this)


def in_group(tmp_path: Path, pid: int, group: str, hybrid: bool = False) -> None:
    """Process `pid`'s cgroup file in the fake /proc: in `group` of the v2 hierarchy."""
    folder = tmp_path / "proc" / str(pid)
    folder.mkdir(exist_ok=True)
    v1 = "12:pids:/\n4:memory:/x\n1:name=systemd:/\n" if hybrid else ""
    (folder / "cgroup").write_text(f"{v1}0::/{group}\n")


def test_the_v2_hierarchy_is_found_only_with_memory_and_pids(v2_host: Path) -> None:
    assert _cgroup.cgroup_v2_root() == str(v2_host)
    (v2_host / "cgroup.controllers").write_text("cpuset cpu io memory\n")  # no pids
    _cgroup.cgroup_v2_root.cache_clear()
    assert _cgroup.cgroup_v2_root() is None


@pytest.mark.parametrize("hybrid", [False, True])
def test_the_jails_group_is_parsed_and_its_usage_usec_read(v2_host: Path, hybrid: bool
                                                          ) -> None:
    """`usage_usec` (user plus system, every process the group held) in seconds; never
    `user_usec` nor another line's number."""
    in_group(v2_host.parent, 4242, JAIL, hybrid)
    (v2_host / JAIL / "cpu.stat").write_text(cpu_stat(2_500_000, 2_000_000, 500_000))
    meter = _cgroup.v2_cpu_meter(4242)
    assert meter is not None and meter.path == str(v2_host / JAIL / "cpu.stat")
    try:
        assert meter.seconds() == pytest.approx(2.5)
        (v2_host / JAIL / "cpu.stat").write_text(cpu_stat(3_750_000, 3_000_000, 750_000))
        assert meter.seconds() == pytest.approx(3.75)  # read anew (pread at 0), not cached
        (v2_host / JAIL / "cpu.stat").write_text("")  # the group removed: its last reading
        assert meter.seconds() == pytest.approx(3.75)
        (v2_host / JAIL / "cpu.stat").write_text(cpu_stat(1_000_000, 1_000_000, 0))
        assert meter.seconds() == pytest.approx(3.75)  # a count never goes back
    finally:
        meter.close()
    assert meter.seconds() == pytest.approx(3.75)  # closed: its last reading stays


def test_our_own_group_the_root_or_none_is_never_a_jails(v2_host: Path) -> None:
    """A process in our own group (it would count this process too), in the root group, or
    with no v2 line gets no meter: the session then has none (rlimits bound it)."""
    in_group(v2_host.parent, 1, OURS)
    assert _cgroup.v2_cpu_meter(1) is None
    (v2_host.parent / "proc" / "1" / "cgroup").write_text("0::/\n")
    assert _cgroup.v2_cpu_meter(1) is None
    (v2_host.parent / "proc" / "1" / "cgroup").write_text("4:memory:/x\n")
    assert _cgroup.v2_cpu_meter(1) is None
    assert _cgroup.v2_cpu_meter(2) is None  # no such process


def jail_like(tmp_path: Path) -> tuple[_session._Jail, subprocess.Popen[bytes], int]:
    """A `_Jail` whose nsjail process is a shell and whose pid 1 is the shell's one child
    (a sleep), in the jail's v2 group, as `_Jail.__init__` leaves it before the session
    begins; then `_meter_on`, as `begin` calls it."""
    shell = subprocess.Popen(["/bin/sh", "-c", "sleep 120 & echo $!; wait"],
                             stdout=subprocess.PIPE)
    assert shell.stdout is not None
    init = int(shell.stdout.readline())
    in_group(tmp_path, init, JAIL)
    jail = object.__new__(_session._Jail)
    jail.group, jail.proc = None, shell  # (no v1 group: the v2 one counts)
    jail.meter, jail.baseline, jail.allowance = None, 0.0, float("inf")
    jail.cpu_spent, jail._init, jail._init_lock = False, -1, threading.Lock()
    jail._meter_on()
    return jail, shell, init


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rpartition(")")[2].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def test_the_budget_decision_stops_the_jail_past_its_allowance(v2_host: Path) -> None:
    """The session's CPU is the meter past its reading when the session began (the jail's
    start not counted); at the allowance the jail's pid 1 is SIGKILLed, not before."""
    (v2_host / JAIL / "cpu.stat").write_text(cpu_stat(400_000, 300_000, 100_000))
    jail, shell, init = jail_like(v2_host.parent)
    try:
        assert jail.meter is not None and jail.baseline == pytest.approx(0.4)
        jail.allowance = 2.0
        (v2_host / JAIL / "cpu.stat").write_text(cpu_stat(2_300_000, 2_000_000, 300_000))
        assert jail.cpu_used() == pytest.approx(1.9)
        assert not jail.check_cpu() and not gone(init)
        (v2_host / JAIL / "cpu.stat").write_text(cpu_stat(2_400_000, 2_100_000, 300_000))
        assert jail.check_cpu()  # 2.0 spent: stopped
        assert shell.wait(30) == 0  # its one child, the "jail", was killed: `wait` returns
        assert gone(init)
        assert jail.check_cpu() and jail.cpu_used() == pytest.approx(2.0)
    finally:
        os.close(jail._init)
        assert jail.meter is not None
        jail.meter.close()
        if shell.poll() is None:
            os.kill(init, signal.SIGKILL)
            shell.wait()


def test_reading_the_budget_stops_nothing(v2_host: Path) -> None:
    """`over_allowance` (what `Session._cpu_left` reads) says the jail is past its
    allowance and leaves it running; `check_cpu`, the check, stops it."""
    jail, shell, init = jail_like(v2_host.parent)
    try:
        jail.allowance = 1.0
        (v2_host / JAIL / "cpu.stat").write_text(cpu_stat(5_000_000, 4_000_000, 1_000_000))
        assert jail.over_allowance() and jail.over_allowance()
        assert not jail.cpu_spent and not gone(init) and shell.poll() is None
        assert jail.check_cpu()
        assert shell.wait(30) == 0 and gone(init)
    finally:
        os.close(jail._init)
        assert jail.meter is not None
        jail.meter.close()
        if shell.poll() is None:
            os.kill(init, signal.SIGKILL)
            shell.wait()


def test_the_watcher_thread_stops_a_jail_that_spends_between_calls(v2_host: Path) -> None:
    """The host's watcher (one thread, every CPU_POLL_S) reads the v2 meter and stops the
    jail once its count passes the allowance, with no call in progress."""
    jail, shell, init = jail_like(v2_host.parent)
    watch = CpuWatch()
    try:
        jail.allowance = 1.0
        watch.add(jail)
        time.sleep(0.5)  # several readings of an unchanged count: nothing stopped
        assert not jail.cpu_spent and not gone(init)
        (v2_host / JAIL / "cpu.stat").write_text(cpu_stat(1_000_001, 1_000_001, 0))
        assert shell.wait(30) == 0 and jail.cpu_spent and gone(init)
    finally:
        watch.discard(jail)
        os.close(jail._init)
        assert jail.meter is not None
        jail.meter.close()
        if shell.poll() is None:
            os.kill(init, signal.SIGKILL)
            shell.wait()
