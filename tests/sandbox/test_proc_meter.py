"""The /proc backstop of a session without a cgroup (`sandbox/_cpu_watch.py`: `ProcMeter`),
run on any host with /proc/PID/task/TID/children: a real process tree stands for a jail
(its root for the jail's pid 1). No machine speed enters: each process spins to a count of
its own CPU (`time.process_time`, the kernel's), and the meter reads the kernel's counts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from sandbox._cpu_watch import ProcMeter

TREE = r"""
import os, sys, time
def spin(seconds):
    while time.process_time() < seconds:
        pass
child = os.fork()
if child == 0:  # spins, exits, and is waited for by the root: the root's cutime
    spin(0.4)
    os._exit(0)
os.waitpid(child, 0)
living = os.fork()
if living == 0:  # lives on, having waited for a grandchild that spun: its own cutime
    grandchild = os.fork()
    if grandchild == 0:
        spin(0.4)
        os._exit(0)
    os.waitpid(grandchild, 0)
    print("ready", flush=True)
    time.sleep(120)
    os._exit(0)
time.sleep(120)
"""


def test_it_counts_what_the_root_reaped_and_what_living_processes_waited_for() -> None:
    root = subprocess.Popen([sys.executable, "-c", TREE], stdout=subprocess.PIPE,
                            start_new_session=True)
    try:
        meter = ProcMeter.open(root.pid)
        if meter is None:
            pytest.skip("this kernel has no /proc/PID/task/TID/children")
        assert root.stdout is not None and root.stdout.readline() == b"ready\n"
        seconds = meter.seconds()
        # 0.8 s spun in all, each counted once (a double count would read 1.2 at least);
        # the root's own CPU (its start) is not the jail's processes'
        assert 0.75 <= seconds < 1.15, seconds
    finally:
        os.killpg(root.pid, signal.SIGKILL)  # the whole tree
        root.wait()
    assert meter.seconds() == seconds  # its root gone: the last reading stays
