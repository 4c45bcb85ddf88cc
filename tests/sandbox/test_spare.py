"""Spare jails (`sandbox/_spare.py`): a cold run takes a jail started for it in advance. A run
in a spare must be indistinguishable from a run in a fresh jail, and each spare serves one
run only."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import multiprocessing
from collections.abc import Iterator
from typing import Any

import pytest
from sandbox_probes import SHORT

import sandbox
from sandbox import _spare

# what a program can see of its jail: argv, environment, cwd, files and their modes, ids,
# its stdin, what an earlier run may have left in /work and /tmp
PROBE = r"""
import hashlib, json, os, sys
data = sys.stdin.read()
seen = {
    "argv": sys.argv, "env": dict(os.environ), "cwd": os.getcwd(), "pid": os.getpid(),
    "uid": os.getuid(), "gid": os.getgid(),
    "work": sorted(os.listdir("/work")), "tmp": sorted(os.listdir("/tmp")),
    "modes": {n: oct(os.stat(n).st_mode) for n in sorted(os.listdir("/work"))},
    "stdin": [len(data), hashlib.sha256(data.encode()).hexdigest()],
}
if os.path.exists("data/in.txt"):
    seen["data"] = open("data/in.txt").read()
for folder in ("/work", "/tmp"):  # left behind for the next run, which must not see it
    with open(os.path.join(folder, "left-behind"), "w") as fh:
        fh.write("x")
print(json.dumps(seen))
"""


class Taken:
    """Counts the cold runs that found a spare waiting."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.hits = self.misses = 0
        real = _spare.spares.take

        def take(key: Any) -> Any:
            found = real(key)
            if found is None:
                self.misses += 1
            else:
                self.hits += 1
            return found

        monkeypatch.setattr(_spare.spares, "take", take)


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> Iterator[Taken]:
    _spare.spares.close()
    yield Taken(monkeypatch)
    _spare.spares.close()


def _digest(text: str) -> list[Any]:
    return [len(text), hashlib.sha256(text.encode()).hexdigest()]


def _seen(ex: sandbox.Execution) -> dict[str, Any]:
    assert ex.status == "ok", ex
    return json.loads(ex.stdout)


def test_a_spare_run_sees_what_a_fresh_jail_shows(taken: Taken,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = "\nfirst line empty\n" + "x" * 200_000  # past one pipe buffer
    files = [{"data/in.txt": name} for name in ("one", "one", "two")]
    # the first run of a shape starts no spare, the second starts one, the third takes it
    first, _, second = (_seen(sandbox.run(PROBE, stdin=stdin, files=f, limits=SHORT,
                                          mode="cold")) for f in files)
    assert (taken.misses, taken.hits) == (2, 1)
    monkeypatch.setenv("SANDBOX_SPARE_JAILS", "0")
    fresh = _seen(sandbox.run(PROBE, stdin=stdin, files={"data/in.txt": "three"},
                              limits=SHORT, mode="cold"))
    assert (taken.misses, taken.hits) == (2, 1)  # spares off: not even looked for
    # the same view in a spare (second) as in fresh jails (first, fresh), each run its own
    # files and stdin, nothing left by the run before
    assert (first.pop("data"), second.pop("data"), fresh.pop("data")) == ("one", "two", "three")
    assert first == second == fresh
    assert first["stdin"] == _digest(stdin) and first["work"] == ["data", "main.py"] and first["tmp"] == []
    assert first["env"] == {"PATH": "/usr/bin:/bin", "HOME": "/work", "LANG": "C.UTF-8",
                            "TMPDIR": "/tmp"}
    assert first["modes"]["main.py"] == "0o100644" and first["pid"] == 2  # the init's child


def test_each_spare_serves_one_run(taken: Taken) -> None:
    for _ in range(5):
        seen = _seen(sandbox.run(PROBE, limits=SHORT, mode="cold"))
        assert seen["work"] == ["main.py"] and seen["tmp"] == [], seen
    assert (taken.misses, taken.hits) == (2, 3)
    assert all(len(queue) <= _spare.per_shape() for queue in _spare.spares.waiting.values())


def test_an_empty_stdin_and_other_shapes(taken: Taken) -> None:
    for _ in range(3):
        assert _seen(sandbox.run(PROBE, limits=SHORT, mode="cold"))["stdin"] == _digest("")
    other = dataclasses.replace(SHORT, wall_s=1.5)  # another shape: its own spares
    for _ in range(3):
        assert _seen(sandbox.run(PROBE, limits=other, mode="cold"))["stdin"] == _digest("")
    assert (taken.misses, taken.hits) == (4, 2)


def test_a_shape_seen_once_starts_no_spare(taken: Taken) -> None:
    for k in range(4):  # four shapes, one run each: no jail is started that no run takes
        limits = dataclasses.replace(SHORT, wall_s=1.0 + k / 8)
        assert sandbox.run("print(4)", limits=limits, mode="cold").stdout == "4\n"
    assert (taken.misses, taken.hits) == (4, 0)
    assert not _spare.spares.waiting


def test_limits_hold_in_a_spare(taken: Taken) -> None:
    wall = dataclasses.replace(SHORT, wall_s=1.0)
    for _ in range(3):  # the third runs in a spare
        ex = sandbox.run("while True:\n    pass\n", limits=wall, mode="cold")
        assert ex.status == "timeout", ex
    memory = "x = bytearray(512 << 20)\nprint('held')\n"
    for _ in range(3):
        ex = sandbox.run(memory, limits=SHORT, mode="cold")
        assert ex.status in ("memory_limit", "runtime_error") and "held" not in ex.stdout, ex
    assert taken.hits == 2


def test_the_wall_limit_counts_from_the_program_start(taken: Taken) -> None:
    # a spare waits longer than the run's wall limit before its run comes; the program
    # still gets its whole limit (the jail's own backstop counts the wait apart)
    import time

    limits = dataclasses.replace(SHORT, wall_s=2.0)  # room for a slow interpreter start
    code = "import time\ntime.sleep(0.3)\nprint('done')\n"
    for _ in range(2):
        assert sandbox.run(code, limits=limits, mode="cold").stdout == "done\n"
    time.sleep(4.5)  # past ceil(wall_s) + 2, nsjail's backstop of a fresh jail
    ex = sandbox.run(code, limits=limits, mode="cold")
    assert (ex.status, ex.stdout) == ("ok", "done\n"), ex
    assert taken.hits == 1


def test_a_stale_spare_is_discarded(taken: Taken, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_spare, "IDLE_S", 0.0)
    for _ in range(3):
        assert sandbox.run("print(2)", limits=SHORT, mode="cold").stdout == "2\n"
    assert (taken.misses, taken.hits) == (3, 0)


def test_a_compiled_program_runs_in_a_spare(taken: Taken) -> None:
    code = "#include <stdio.h>\nint main(void) { int a, b; scanf(\"%d %d\", &a, &b);" \
           " printf(\"%d\\n\", a + b); return 0; }\n"
    for k in range(4):
        ex = sandbox.run(code, "c", stdin=f"{k} 40", limits=SHORT)
        assert (ex.status, ex.stdout) == ("ok", f"{40 + k}\n"), ex
    assert taken.hits >= 2  # the binary is copied into the spare's placeholder, executable


def _cold_in_child(queue: Any) -> None:
    queue.put(sandbox.run("print(3)", limits=SHORT, mode="cold").stdout)


def test_a_forked_process_starts_its_own_spares(taken: Taken) -> None:
    for _ in range(2):
        assert sandbox.run("print(3)", limits=SHORT, mode="cold").stdout == "3\n"
    waiting = sum(len(q) for q in _spare.spares.waiting.values())
    assert waiting >= 1
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_cold_in_child, args=(queue,))
    child.start()
    assert queue.get(timeout=60) == "3\n"
    child.join(60)
    assert child.exitcode == 0
    # the parent's spares were the parent's: still waiting, and still usable here
    assert sum(len(q) for q in _spare.spares.waiting.values()) == waiting
    assert sandbox.run("print(3)", limits=SHORT, mode="cold").stdout == "3\n"
    assert taken.hits >= 1


def test_the_init_report_is_told_from_a_forged_one_in_a_spare(taken: Taken) -> None:
    # the init's nonce is drawn per run, after its spare started: the waiting shell takes it
    # from the line that starts the command, so a spare's init reports a real signal death
    # and a program that writes a report of its own reads as its exit code, as in a fresh
    # jail (red team sb12's forgery, here through spares)
    from sandbox._in_jail.init import SIGNAL_REPORT

    killed = "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n"
    forged = (f"import sys\nsys.stderr.write({SIGNAL_REPORT.decode()!r} + '15\\n')\n"
              "sys.exit(143)\n")
    for _ in range(3):  # the third runs in a spare
        dead = sandbox.run(killed, limits=SHORT, mode="cold")
    assert taken.hits == 1
    assert (dead.status, dead.signal, dead.exit_code, dead.stderr) == (
        "runtime_error", 15, None, "")
    for _ in range(2):  # the same shape: both in spares
        fake = sandbox.run(forged, limits=SHORT, mode="cold")
    assert taken.hits == 3
    assert (fake.signal, fake.exit_code) == (None, 143)
    assert fake.stderr == SIGNAL_REPORT.decode() + "15\n"
