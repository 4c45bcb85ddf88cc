"""Nothing a program does reaches another run (issue #26): in a warm server every program
runs under another uid than the server (pid 1 of the
jail, which forks every later run) and the long-lived harness that judges assert/check
runs, so it can neither signal, renice, reschedule, move nor re-limit them. Each attack is
made by a correct program against every other process it can find in its jail; the
attacker keeps its own verdicts (no abstention, no crash of the server) and an honest
program on the same server then passes, warm and cold, with and without cgroups."""

from __future__ import annotations

import ast
import dataclasses
import re

import pytest
from sandbox_probes import SHORT

import sandbox
from sandbox import _warm

ATTACKS = {
    # every limit lowered for good (the hard limit), or a soft one the server needs more of
    **{f"{name.lower()}": f"resource.prlimit(pid, resource.{name}, ({low}, {low}))"
       for name, low in (("RLIMIT_NOFILE", 12), ("RLIMIT_AS", 1 << 20), ("RLIMIT_FSIZE", 0),
                         ("RLIMIT_STACK", 1 << 16), ("RLIMIT_CPU", 1), ("RLIMIT_NPROC", 1),
                         ("RLIMIT_DATA", 1 << 20))},
    "soft_nofile": "resource.prlimit(pid, resource.RLIMIT_NOFILE, "
                   "(3, resource.prlimit(pid, resource.RLIMIT_NOFILE)[1]))",
    "soft_nproc": "resource.prlimit(pid, resource.RLIMIT_NPROC, "
                  "(1, resource.prlimit(pid, resource.RLIMIT_NPROC)[1]))",
    "nice": "os.setpriority(os.PRIO_PROCESS, pid, 19)",
    "sched_idle": "os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))",
    "nice_user": "os.setpriority(os.PRIO_USER, 99999, 19)",
    "nice_group": "os.setpriority(os.PRIO_PGRP, 0, 19)",
    "affinity": "os.sched_setaffinity(pid, {min(os.sched_getaffinity(0))})",
    **{name.lower(): f"os.kill(pid, signal.{name})" for name in (
        "SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGXCPU", "SIGSTOP", "SIGKILL")},
}
"""One step each, applied to every other process of the jail."""

ATTACK = """\
import os, resource, signal

def attack():
    found = []
    for pid in range(1, 1 << 15):  # every pid the jail's namespace can have handed out
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        except OSError:
            pass
        found.append(pid)
    for pid in found:
        for step in STEPS:
            try:
                step(pid)
            except OSError:
                pass
    return len(found)

STEPS = [{steps}]
"""


def attacker(kinds: list[str], *, plain: bool = False, io: bool = False) -> str:
    steps = ", ".join(f"lambda pid: {ATTACKS[kind]}" for kind in kinds)
    code = ATTACK.format(steps=steps)
    if plain:
        return code + "attack()\nprint('done')\n"
    if io:
        return code + "attack()\nprint(sum(map(int, input().split())))\n"
    return code + "def add(a, b):\n    attack()\n    return a + b\n"


ADD = "def add(a, b):\n    return a + b\n"
ADD_TESTS = [f"assert add({i}, 1) == {i + 1}" for i in range(4)]
IO_TESTS = [{"input": f"{i} 1\n", "output": f"{i + 1}\n"} for i in range(3)]
SUM = "print(sum(map(int, input().split())))\n"
# what the judging side of the server looks like, read by a test (which runs in the
# long-lived harness: the server's uid): pid 1's limits, priority, scheduler and affinity
STATE = ("import os, resource\n"
         "assert False, [resource.prlimit(1, getattr(resource, n)) for n in "
         "('RLIMIT_NOFILE', 'RLIMIT_AS', 'RLIMIT_FSIZE', 'RLIMIT_STACK', 'RLIMIT_CPU', "
         "'RLIMIT_NPROC')] + [os.getpriority(os.PRIO_PROCESS, 1), os.sched_getscheduler(1), "
         "sorted(os.sched_getaffinity(1)), os.getpriority(os.PRIO_PROCESS, 0), os.getpid()]")


def own(megabytes: int) -> sandbox.Limits:
    """Limits of a warm pool of their own (the pool key is disk, files and memory): served
    one run at a time, a LIFO pool hands every run to the same server."""
    return dataclasses.replace(SHORT, memory_bytes=(256 << 20) + (megabytes << 20),
                               wall_s=10.0, cpu_s=10.0, test_wall_s=5.0)


def server_state(limits: sandbox.Limits) -> tuple[str, list[int]]:
    """What pid 1 of the pool's server looks like from its harness, and which host
    processes the pool's servers are (a server replaced shows as another one)."""
    report = sandbox.run_tests(ADD, [STATE], limits=limits, mode="warm")
    found = re.search(r"\((\[.*\])\)$", report.results[0].message)
    assert found, report
    pool = _warm._pool(limits)
    return found.group(1), [server.proc.pid for server in pool.servers]


def honest_runs_pass(limits: sandbox.Limits, mode: str) -> None:
    report = sandbox.run_tests(ADD, ADD_TESTS, limits=limits, mode=mode)
    assert (report.passed, report.execution.status) == (4, "ok"), report
    report = sandbox.run_tests(SUM, IO_TESTS, limits=limits, mode=mode)
    assert (report.passed, report.execution.status) == (3, "ok"), report
    run = sandbox.run("print('ok')", limits=limits, mode=mode)
    assert (run.status, run.stdout) == ("ok", "ok\n"), run


def attack_then_honest(kinds: list[str], limits: sandbox.Limits, mode: str) -> None:
    before = server_state(limits) if mode == "warm" else None
    # an assert run, a stdin/stdout run and a plain run, each attacking every process
    report = sandbox.run_tests(attacker(kinds), ADD_TESTS, limits=limits, mode=mode)
    if mode == "warm":  # out of reach of everything: the attacker is judged as it is
        assert (report.passed, report.execution.status) == (4, "ok"), report
    # warm, a stdin/stdout run's harness and its zygote keep the server's uid too (issue
    # #35); in a cold jail an attack on the zygote spoils only the attacker's own verdicts,
    # never a pass it did not earn
    report = sandbox.run_tests(attacker(kinds, io=True), IO_TESTS, limits=limits, mode=mode)
    if mode == "warm":
        assert (report.passed, report.execution.status) == (3, "ok"), report
    assert report.passed <= 3 and len(report.results) == 3, report
    run = sandbox.run(attacker(kinds, plain=True), limits=limits, mode=mode)
    if mode == "warm":
        assert (run.status, run.stdout) == ("ok", "done\n"), run
    honest_runs_pass(limits, mode)
    if mode == "warm":  # the same server and harness, as they were
        assert server_state(limits) == before


@pytest.mark.parametrize("kind", sorted(ATTACKS))
def test_an_attack_on_the_judges_reaches_no_other_run(kind: str) -> None:
    attack_then_honest([kind], own(40), "warm")


def test_every_attack_at_once_in_a_cold_jail_reaches_no_other_run() -> None:
    attack_then_honest(sorted(ATTACKS), own(40), "cold")


@pytest.mark.parametrize("kind", sorted(ATTACKS))
def test_without_cgroups_an_attack_reaches_no_other_run(kind: str, no_cgroup: None) -> None:
    attack_then_honest([kind], own(41), "warm")


def test_without_cgroups_every_attack_at_once_in_a_cold_jail_reaches_no_other_run(
        no_cgroup: None) -> None:
    attack_then_honest(sorted(ATTACKS), own(41), "cold")


def test_a_program_interrupting_pid_1_is_judged_and_the_server_serves_on() -> None:
    """`os.kill(1, SIGINT)` used to end the warm server with a KeyboardInterrupt (and the
    attacker abstained): now it is refused, the program's own error."""
    limits = own(60)
    before = server_state(limits)
    run = sandbox.run("import os, signal\nos.kill(1, signal.SIGINT)\n", limits=limits,
                      mode="warm")
    assert run.status == "runtime_error" and "PermissionError" in run.stderr, run
    code = "import os, signal\ndef add(a, b):\n    os.kill(1, signal.SIGINT)\n    return a + b\n"
    report = sandbox.run_tests(code, ADD_TESTS, limits=limits, mode="warm")
    assert report.passed == 0 and report.execution.status == "runtime_error", report
    assert all("PermissionError" in r.message for r in report.results), report
    honest_runs_pass(limits, "warm")
    assert server_state(limits) == before


def test_programs_run_under_their_own_uid_and_the_judges_under_another() -> None:
    limits = own(61)
    code = "import os\ndef ids():\n    return [os.getresuid(), os.getresgid(), os.getgroups()]\n"
    report = sandbox.run_tests(code, ["import os\nassert False, [os.getresuid(), ids()]"],
                               limits=limits, mode="warm")
    found = re.search(r"\((\[.*\])\)$", report.results[0].message)
    assert found, report
    judge, program = ast.literal_eval(found.group(1))
    assert judge == (99999, 99999, 99999), report
    assert program == [(99998,) * 3, (99998,) * 3, []], report
    run = sandbox.run("import os\nprint(os.getresuid(), os.getppid())", limits=limits,
                      mode="warm")
    assert run.stdout == "(99998, 99998, 99998) 1\n", run


def test_a_program_cannot_take_back_the_judges_uid_or_capabilities() -> None:
    probe = ("import os\nfor step in (lambda: os.setresuid(99999, 99999, 99999),\n"
             "             lambda: os.setuid(99999), lambda: os.setgroups([99999])):\n"
             "    try:\n        step()\n        print('changed')\n"
             "    except PermissionError:\n        print('refused')\n"
             "import ctypes\nheader = (ctypes.c_uint32 * 2)(0x20080522, 0)\n"
             "data = (ctypes.c_uint32 * 6)()\n"
             "ctypes.CDLL(None).capget(header, data)\nprint(list(data))\n")
    run = sandbox.run(probe, limits=own(62), mode="warm")
    assert run.stdout.split("\n")[:4] == ["refused"] * 3 + ["[0, 0, 0, 0, 0, 0]"], run


def test_files_a_program_locks_up_are_removed_before_the_next_run() -> None:
    """A program's folders closed to all (mode 0, sticky) and files in the sticky /tmp are
    another uid's to the server: it empties them (CAP_FOWNER) and serves on."""
    limits = own(63)
    lock = ("import os\nfor top in ('/work', '/tmp'):\n"
            "    os.makedirs(f'{top}/a/b')\n    open(f'{top}/a/b/f', 'w').close()\n"
            "    open(f'{top}/g', 'w').close()\n"
            "    os.chmod(f'{top}/a/b', 0o1000)\n    os.chmod(f'{top}/a', 0)\n")
    assert sandbox.run(lock, limits=limits, mode="warm").status == "ok"
    run = sandbox.run("import os\nprint(sorted(os.listdir('/tmp')), "
                      "sorted(os.listdir('/work')))", limits=limits, mode="warm")
    assert run.stdout == "[] ['main.py']\n", run


def test_the_harness_side_of_a_warm_server_keeps_only_what_it_needs() -> None:
    """The long-lived harness keeps CAP_KILL alone (it kills the run's worker); the tests
    it runs cannot switch uid."""
    test = ("import ctypes, os\nheader = (ctypes.c_uint32 * 2)(0x20080522, 0)\n"
            "data = (ctypes.c_uint32 * 6)()\nctypes.CDLL(None).capget(header, data)\n"
            "assert False, list(data)")
    report = sandbox.run_tests(ADD, [test], limits=own(64), mode="warm")
    assert report.results[0].message.endswith(f"([{1 << 5}, {1 << 5}, {1 << 5}, 0, 0, 0])"), \
        report



def test_a_server_that_cannot_run_programs_out_of_its_reach_refuses_to_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A program uid the jail does not map (the switch fails): the server says so and
    exits before any run; nothing runs as the server's uid."""
    monkeypatch.setattr(_warm, "PROGRAM_UID", 12345)
    limits = own(65)
    with pytest.raises(sandbox.SandboxError, match="cannot run programs under uid 12345"):
        sandbox.run("print(1)", limits=limits, mode="warm")
    monkeypatch.undo()
    assert sandbox.run("print(1)", limits=limits, mode="warm").stdout == "1\n"
