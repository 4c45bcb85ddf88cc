"""The caller's process stays light and clean: no sympy or math-verify imported there, no
SIGALRM handler, and worker processes gone when the caller exits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from rewards import Sample


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], check=False,
                          capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_fast_paths_do_not_import_sympy_in_the_caller():
    out = _python("""
        import sys
        from rewards import Sample
        from rewards.math import MathReward
        scores = MathReward().score([Sample("p", "\\\\boxed{\\\\dfrac{1}{2}}", reference="0.5"),
                                     Sample("p", "#### 1,234", reference="1234"),
                                     Sample("p", "\\\\boxed{2\\\\sqrt{3}}", reference="\\\\sqrt{12}")])
        print([s.value for s in scores], "sympy" in sys.modules, "math_verify" in sys.modules)
    """)
    assert out.split() == ["[1.0,", "1.0,", "1.0]", "False", "False"]


def test_workers_are_gone_after_the_caller_exits():
    out = _python("""
        from rewards import Sample
        from rewards.math import MathReward, shared_pool
        reward = MathReward(workers=2, timeout=30)
        done = reward.score([Sample("p", "\\\\boxed{\\\\sin^2 x+\\\\cos^2 x}", reference="1")])
        assert done[0].value == 1.0  # a trigonometric identity: a worker decides it
        print(*shared_pool(2).worker_pids(), shared_pool(2).zygote_pid())
    """)
    pids = [int(p) for p in out.split()]  # the workers and the zygote they were forked from
    assert len(pids) >= 2
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in pids)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as fh:  # a zombie waiting for init is gone for our purpose
        return fh.read().split()[2] != "Z"


def test_no_alarm_signal_in_the_caller(math_reward, monkeypatch):
    calls = []
    monkeypatch.setattr(signal, "alarm", lambda *a: calls.append(("alarm", a)))
    monkeypatch.setattr(signal, "setitimer", lambda *a: calls.append(("setitimer", a)))
    monkeypatch.setattr(signal, "signal", lambda *a: calls.append(("signal", a)))
    samples = [Sample("p", "\\boxed{(x+1)^2}", reference="x^2+2x+1"),
               Sample("p", "\\boxed{(x+1)^{2000}}", reference="(x+2)^{2000}")]
    scores = math_reward.score(samples)
    assert [s.reason for s in scores] == ["ok", "timeout"]
    assert calls == []
