"""Sessions: one jailed Python interpreter that keeps its globals, imports and files between
calls (`open_session`, `Session.run`, `Session.run_cell` as a notebook runs a cell), and
`Session.fork` into siblings that start from its state. Host side; the jail's side is
`_in_jail/session_server.py`.

Every session lives in a jail of its own, started as a warm server's is (`jail_argv` with
`persistent`: fresh namespaces, read-only system, size-capped tmpfs /work and /tmp, no
network, seccomp, the memory cgroup where the host has one, the program uid apart from the
server's), so nothing crosses sessions: not a file, a variable, a process, a signal or a
process count. Closing a session ends its jail and every process in it.

Budgets: each call runs at most `Limits.wall_s` (and what is left of the episode's
`episode_wall_s`). The session's CPU is `episode_cpu_s`: where a cgroup counts the jail's CPU
(`_cgroup.CpuMeter`), for all its processes together, those that exited and those a cell left
running included: the host's watcher (`_cpu_watch.py`) kills the jail once they spent it, the
call in progress ends `timeout`, and later calls answer `timeout` without running.
Elsewhere the jail's server counts what it reaped (every interpreter it killed and what a
reset killed with it: `RUSAGE_CHILDREN`, the kernel's count) and gives each fresh
interpreter what is left as its RLIMIT_CPU; with nothing left the session is spent as above
(its replies' `spent_s`, and the last words of one that ended idle, hand a replacement jail
or a fork's siblings what is left); the host's /proc backstop (`_cpu_watch.ProcMeter`)
stops the jail past `episode_cpu_s` + `BACKSTOP_S`, the children a living interpreter waits
for or leaves running included. A call that does not end in its time, or
kills its interpreter (the memory limit, a signal, `os._exit`), resets its session only: every
process of the jail is killed, /work and /tmp are emptied, a fresh interpreter starts, and the
next call's stderr begins with a line saying so (`RESET_NOTE`). A call whose output passes
`Limits.output_bytes` keeps its session: the output is cut (`truncated`, status
`output_limit`) and the rest drained.

`fork(n)` gives n siblings, each a session in a jail of its own, by replaying the cells this
session ran since its last reset in the same order, with the same seed: the siblings' state
is the parent's, the `random` module's state included (every session seeds `random` with
its seed; siblings share it: reseed in each for diverse draws). Why not an os.fork of the
live interpreter: its children share its uid, namespaces and cgroup, so they would share
/work and /tmp, the process count, the OOM killer, abstract sockets and signals, and whatever
the parent holds across a fork (MAP_SHARED memory, open pipes): a channel between siblings
that only nested user namespaces (which the jail's seccomp refuses) could close in part.
What a replay cannot reproduce: cells whose effect depends on the clock, os.urandom, the
string hash seed or outside input.
"""

from __future__ import annotations

import atexit
import json
import marshal
import os
import random
import select
import signal
import socket
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from sandbox._cgroup import CpuMeter, cgroup_v1, v2_cpu_meter
from sandbox._cpu_watch import CpuWatch, ProcMeter, jail_init
from sandbox._errors import ArgumentError, SandboxError
from sandbox._jail import (
    cgroup_v2_root,
    check_nsjail,
    memory_group,
    process_budget,
)
from sandbox._parallel import Cancel
from sandbox._spare import spares_enabled
from sandbox._types import Execution, Limits, Status
from sandbox._warm import max_pools, server_ended, start_jailed_server

__all__ = ["RESET_NOTE", "Cell", "Session", "SessionOptions", "max_sessions", "open_session"]

SERVER_BYTES = 48 << 20
"""Memory of a session's jail on top of `Limits.memory_bytes`: the server and slack (as a
warm server's `WARM_SERVER_BYTES`)."""
READY_S = 60.0
"""Seconds a session's jail may take to start."""
RESET_NOTE = ("[sandbox: the session was reset after the previous call's {why}: its "
              "variables, imports and files are gone]\n")
"""The first line of the stderr of the call after a reset."""
RESET_WHY = {"timeout": "time limit", "output": "output flood",
             "died": "crash (the memory limit, a signal or an exit of the interpreter)",
             "cpu": "episode CPU time (every process of the session together)"}
CPU_SPENT = "sandbox: the session's episode CPU time is spent\n"
"""The stderr of a call that did not run because the session's CPU is spent (where a
cgroup counts it)."""
BACKSTOP_S = 2.0
"""Where no cgroup counts a session's CPU: CPU seconds past its allowance after which the
backstop (`_cpu_watch.ProcMeter`) stops the jail. The server's count and RLIMIT_CPU stop
the interpreters first (they may spend up to 2 s past it: the last grant's rounding up and
the SIGXCPU-to-SIGKILL second); the backstop stops what they miss: the children a living
interpreter waits for, and those it leaves running."""
IDLE_WORD = b"idle "
"""What a server that ended idle left on its control socket, then its count (`spent_s`):
`session_server.IDLE_WORD` (the jail's side imports nothing of the host's)."""
FLOOD_BYTES = 16 << 20
"""Output past `Limits.output_bytes` drained and dropped before a call is stopped (at least
16 times the cap): a long print keeps its session, an endless one does not."""
MAX_SESSIONS = 64
"""Sessions open at once in one process (`SANDBOX_MAX_SESSIONS` sets another number)."""
_CHUNK = 1 << 16

_open: weakref.WeakSet[Session] = weakref.WeakSet()
_open_lock = threading.Lock()


def max_sessions() -> int:
    try:
        return max(1, int(os.environ.get("SANDBOX_MAX_SESSIONS", MAX_SESSIONS)))
    except ValueError:
        return MAX_SESSIONS


@dataclass(frozen=True)
class SessionOptions:
    """What a session may spend, beyond each call's `Limits`."""

    episode_wall_s: float = 60.0
    """Wall-clock seconds of all the session's calls together; a call gets what is left."""
    episode_cpu_s: float | None = None
    """CPU seconds of the session (None: as `episode_wall_s`). Where a cgroup counts CPU:
    every process of the session together, those that exited included; past it the call in
    progress is stopped and later calls answer `timeout` without running. Elsewhere: the
    interpreters one after another (what the jail's server reaped), each under an
    RLIMIT_CPU of what is left; past it the interpreter is killed and the session reset,
    or spent when nothing is left; every process together past it + `BACKSTOP_S` (the
    host's /proc backstop) stops the jail."""
    idle_s: float = 600.0
    """Seconds the jail waits for a next call before it ends itself (a session never closed
    still ends)."""
    seed: int | None = None
    """The `random` module's seed in the interpreter (None: a random one). Siblings of a
    fork keep their parent's."""

    def __post_init__(self) -> None:
        for name in ("episode_wall_s", "idle_s", "episode_cpu_s"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, (int, float)) or value <= 0):
                raise ArgumentError(f"SessionOptions.{name} must be positive, got {value!r}")


class _Jail:
    """One session's jail and the control socket to its server. Started ahead of its
    session where it can be (a spare, `_spares`): the server waits for its session's header
    (`begin`) before it does anything."""

    def __init__(self, limits: Limits, options: SessionOptions) -> None:
        check_nsjail()
        jail_limits = replace(limits, processes=4096, open_files=4096, file_size_bytes=1 << 40,
                              memory_bytes=limits.memory_bytes + SERVER_BYTES)
        self.group = memory_group(jail_limits.memory_bytes, cpu=True)
        cgroup = self.group is not None or bool(cgroup_v2_root())
        self.meter: CpuMeter | None = None
        """What counts the CPU of the jail's processes (None: rlimits bound each one)."""
        self.baseline = 0.0  # the meter when the session began (the jail's start excluded)
        self.backstop: ProcMeter | None = None
        """Without a meter: the jail's processes read in the host's /proc (`check_cpu`)."""
        self.allowance = float("inf")
        """CPU seconds past `baseline` after which the jail is stopped (`check_cpu`)."""
        self.cpu_spent = False
        self.reaped_s = 0.0
        """CPU seconds of the processes the jail's server reaped (every interpreter it killed
        and what a reset killed with it), as its last reply said: the kernel's count
        (RUSAGE_CHILDREN of the server, which no program can write); a server that ended
        idle reaped everything first and left its whole count (`last_words`)."""
        self.ended_idle = False
        """Its server ended itself, idle past `idle_s` (it said so: `last_words`)."""
        self._init = -1  # a pidfd of the jail's pid 1 (`check_cpu` kills it)
        self._init_lock = threading.Lock()
        processes, address_space = process_budget(limits, cgroup=cgroup)
        cpu = options.episode_cpu_s or options.episode_wall_s
        self.header = {
            "address_space": address_space, **_cpu_header(cpu),
            "file_size_bytes": limits.file_size_bytes, "open_files": limits.open_files,
            "processes": processes, "idle_s": options.idle_s}
        self.control, self.proc, self.log = start_jailed_server(
            "session-server", jail_limits, self.group, shm_bytes=limits.memory_bytes)

    def begin(self, seed: int, cpu_s: float | None = None) -> None:
        """Hand the server its session's header and wait until its interpreter is up;
        `cpu_s`: the episode CPU the session has left (None: a whole episode)."""
        header = {**self.header, "seed": seed, **({} if cpu_s is None else _cpu_header(cpu_s))}
        try:
            self.control.send(marshal.dumps(header))
            if not select.select([self.control], [], [], READY_S)[0]:
                raise SandboxError(f"a sandbox session did not start within {READY_S:g} s")
            if self.control.recv(64) != b"ready":
                raise self.died()
            self._meter_on()
        except (OSError, SandboxError) as exc:
            self.close()
            if isinstance(exc, SandboxError):
                raise
            raise SandboxError(f"a sandbox session could not start: {exc}") from exc

    def _meter_on(self) -> None:
        """Where a cgroup counts the jail's CPU (our cpuacct group, which nsjail joined
        before it started the jail, or the v2 group nsjail made for it): its meter, and a
        pidfd of the jail's pid 1, whose death ends every process of the jail. Elsewhere
        the backstop (`_cpu_watch.ProcMeter`, the host's /proc) where /proc can say it."""
        metered = (self.group is not None and self.group.cpu_path is not None) or \
            bool(cgroup_v2_root())
        init = jail_init(self.proc.pid)
        if init is None:
            if metered:
                raise SandboxError("cannot find the sandbox session's server process")
            return
        pidfd = os.pidfd_open(init)
        meter = None
        if metered:
            meter = self.group.cpu_meter() if self.group is not None else v2_cpu_meter(init)
        if meter is not None:
            self._init, self.meter, self.baseline = pidfd, meter, meter.seconds()
            return
        backstop = ProcMeter.open(init)
        if backstop is None:
            os.close(pidfd)
            return
        self._init, self.backstop, self.baseline = pidfd, backstop, backstop.seconds()

    def cpu_used(self) -> float:
        """CPU seconds the jail's processes spent since the session began (0 without a
        meter)."""
        return 0.0 if self.meter is None else self.meter.seconds() - self.baseline

    def over_allowance(self) -> bool:
        """Whether the jail's processes spent `allowance` (where no cgroup counts them:
        whether the backstop read `allowance` + `BACKSTOP_S`), or it is stopped already. A
        reading: it stops nothing (`check_cpu` does)."""
        if self.cpu_spent:
            return True
        if self.meter is not None:
            return self.cpu_used() >= self.allowance
        if self.backstop is not None:
            return self.backstop.seconds() - self.baseline >= self.allowance + BACKSTOP_S
        return False

    def check_cpu(self) -> bool:
        """Stop the jail once it is `over_allowance`; whether it is stopped."""
        if self.cpu_spent:
            return True
        if self.over_allowance():
            self.cpu_spent = True
            with self._init_lock:
                if self._init >= 0:
                    try:
                        signal.pidfd_send_signal(self._init, signal.SIGKILL)
                    except OSError:
                        pass
        return self.cpu_spent

    def last_words(self) -> None:
        """Read what a server that ended idle left on the control socket (no call is in
        progress, or it is the call's only answer): its count becomes `reaped_s`."""
        try:
            while select.select([self.control], [], [], 0)[0]:
                message = self.control.recv(1 << 16)
                if not message or not self.heard_idle(message):
                    return
        except (OSError, ValueError):  # (a closed socket)
            pass

    def heard_idle(self, message: bytes) -> bool:
        """Whether `message` is the idle server's last words (then taken)."""
        if not message.startswith(IDLE_WORD):
            return False
        self.ended_idle = True
        try:
            spent = float(message[len(IDLE_WORD):])
        except ValueError:
            return True
        if 0.0 <= spent < 1e9:
            self.reaped_s = max(self.reaped_s, spent)
        return True

    def died(self) -> SandboxError:
        return server_ended("the sandbox session's server ended", self.proc, self.log)

    def close(self) -> None:
        _watch.discard(self)
        with self._init_lock:
            if self._init >= 0:
                os.close(self._init)
                self._init = -1
        if self.meter is not None:
            self.meter.seconds()  # its last reading stays
            self.meter.close()
        if self.backstop is not None:
            self.backstop.seconds()  # (likewise; then its pidfd is let go)
            self.backstop.close()
        self.control.close()
        try:
            self.proc.wait(2)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.close()
        if self.group is not None:
            self.group.close()


def _cpu_header(cpu_s: float) -> dict[str, Any]:
    """The server's CPU budget: the episode's seconds over all its interpreters, and the
    first one's RLIMIT_CPU (whole seconds, rounded up)."""
    return {"episode_cpu_s": float(cpu_s), "cpu_s": max(1, int(cpu_s + 0.999))}


class Session:
    """A live interpreter in its own jail (see the module docstring). Use `open_session`;
    close it (or use it as a context manager): its jail ends with it."""

    def __init__(self, limits: Limits, options: SessionOptions, *, _seed: int | None = None,
                 _history: Sequence[str] = (), _seconds_left: float | None = None,
                 _cpu_left: float | None = None, _replay_counts: bool = False) -> None:
        self.limits = limits
        self.options = options
        seed = options.seed if _seed is None else _seed
        self.seed = random.getrandbits(63) if seed is None else seed
        self.seconds_left = options.episode_wall_s if _seconds_left is None else _seconds_left
        self.history: list[str] = []
        """The cells run since the last reset, in order (what a fork replays)."""
        self.resets = 0
        """How many times a call reset this session."""
        self._cpu_budget = ((options.episode_cpu_s or options.episode_wall_s)
                            if _cpu_left is None else _cpu_left)
        self._cpu_before = 0.0  # CPU of this session's earlier jails (see `_restart`)
        self._cpu_spent = False
        self._note = ""
        self._lock = threading.Lock()
        with _open_lock:
            if len(_open) >= max_sessions():
                raise SandboxError(f"{max_sessions()} sandbox sessions are open in this "
                                   "process: close one first (SANDBOX_MAX_SESSIONS sets the "
                                   "number)")
            _open.add(self)
        try:
            # `_replay_counts` (a sibling where no cgroup counts CPU): its server's count is
            # all there is, so its jail gets what its parent left, the replay's CPU counted
            self._jail: _Jail | None = _spares.take(
                limits, options, self.seed, _cpu_left if _replay_counts else None)
        except BaseException:
            with _open_lock:
                _open.discard(self)
            raise
        self._finalizer = weakref.finalize(self, _Jail.close, self._jail)
        self._last_jail = self._jail
        self._replay_s = options.episode_wall_s
        """Seconds the replay may still take: an episode's, which its parent's cells took at
        most (cells whose time depends on the clock would otherwise take more)."""
        # a replay may spend what its parent's cells did, an episode's CPU at most; then
        # the sibling has what is left of its parent's (the replay not counted)
        self._watch(self._jail, (options.episode_cpu_s or options.episode_wall_s)
                    if _history else self._cpu_budget)
        if _replay_counts and self._cpu_budget <= 0:
            self._spend()  # its parent's is spent: no replay, no call runs
        for code in _history:  # a sibling: the parent's cells, their output dropped
            if self.resets:  # past its time, or a cell the replay runs differently: reset,
                break  # never the later cells on a fresh interpreter (a state never had)
            self._run(code, replay=True)
        if _history and not self._cpu_spent:  # counted from here: the parent's left
            self._jail.baseline += self._jail.cpu_used()
            self._jail.allowance = self._cpu_budget

    def _watch(self, jail: _Jail, allowance: float) -> None:
        """Have the watcher stop `jail` past `allowance` CPU seconds (where a meter counts
        them); a session with nothing left is spent at once."""
        jail.allowance = allowance
        if jail.meter is None and jail.backstop is None:
            return
        _watch.add(jail)
        if allowance <= 0 and jail.meter is not None:
            jail.check_cpu()
            self._spend()

    def _spend(self) -> None:
        """The session's CPU is spent: its jail (stopped) ends, its state with it; later
        calls answer without running."""
        if not self._cpu_spent:
            self._cpu_spent = True
            self.resets += 1
            self.history.clear()
            self._finalizer()

    def cpu_seconds(self) -> float | None:
        """CPU seconds this session's processes spent together so far (those that exited
        included; a sibling's replay not counted), as the cgroup of its jail counts them;
        None where no cgroup counts CPU (then RLIMIT_CPU bounds each process alone)."""
        jail = self._last_jail
        if jail is None or jail.meter is None:
            return None
        return self._cpu_before + jail.cpu_used()

    def _cpu_left(self) -> tuple[float, bool]:
        """CPU seconds left of the episode, and whether a cgroup counted them. Without one:
        what the session's servers reaped (their replies' and last words' `spent_s`), or
        where more, what the host's /proc backstop read of the jail (the children a living
        interpreter waited for or left running); a living interpreter's own CPU since it
        started is in neither until the server reaps it at a reset, but its RLIMIT_CPU,
        what was left then, bounds it. Nothing is left of a jail past its allowance. A
        reading: the caller takes the last jail's last words and stops it first
        (`_settle_cpu`)."""
        if self._cpu_spent:
            return 0.0, self.cpu_seconds() is not None
        used = self.cpu_seconds()
        if used is not None:
            return self._cpu_budget - used, True
        jail = self._last_jail
        if jail is None:
            return self._cpu_budget - self._cpu_before, False
        if jail.over_allowance():  # the backstop stopped it, or will (between calls too)
            return 0.0, False
        spent = jail.reaped_s
        if jail.backstop is not None:
            spent = max(spent, jail.backstop.seconds() - jail.baseline)
        return self._cpu_budget - self._cpu_before - spent, False

    def _settle_cpu(self) -> None:
        """Bring the last jail's CPU count up to date before `_cpu_left` reads it: what a
        server that ended idle counted (`last_words`), and the backstop's stop of a jail
        past its allowance (`check_cpu`)."""
        jail = self._last_jail
        if self._cpu_spent or jail is None or jail.meter is not None:
            return
        jail.last_words()
        jail.check_cpu()

    @property
    def closed(self) -> bool:
        return self._jail is None

    def run(self, code: str, *, cancel: Cancel | None = None) -> Execution:
        """Run one cell in the session: its stdout, stderr and status. A cell that fails is
        data (an `Execution`); a session whose jail broke raises `SandboxError`. Once
        `cancel` is set (from another thread) the call is stopped: a timeout, the session
        reset."""
        return self._run(code, cancel=cancel).execution

    def run_cell(self, code: str, *, cancel: Cancel | None = None) -> Cell:
        """`run` as a notebook runs a cell: a last statement that is an expression is
        displayed (its repr, unless None: `Cell.display`), and an exception the cell raised
        is named (`Cell.error`)."""
        return self._run(code, cancel=cancel, display=True)

    def _run(self, code: str, *, cancel: Cancel | None = None, replay: bool = False,
             display: bool = False) -> Cell:
        """A call; `replay`: a sibling re-running its parent's cells (no episode time)."""
        if not isinstance(code, str):
            raise ArgumentError(f"code must be a str, not {type(code).__name__}")
        with self._lock:
            if self._jail is None:
                raise ArgumentError("this sandbox session is closed")
            if not replay and self.seconds_left <= 0:
                return Cell(Execution(status="timeout", stderr="sandbox: the session's "
                                      "episode time is spent\n"))
            jail = self._jail
            if self._cpu_spent or jail.check_cpu():  # (stopped between calls)
                if not self._cpu_spent:
                    self._spend()
                    self._note = RESET_NOTE.format(why=RESET_WHY["cpu"])
                note, self._note = self._note, ""
                return Cell(Execution(status="timeout", stderr=note + CPU_SPENT))
            wall_s = min(self.limits.wall_s, max(self._replay_s, 0.0) if replay
                         else self.seconds_left)  # 0: the server resets at once
            started = time.monotonic()
            try:
                result, out, err, shown, truncated = self._call(code, wall_s, cancel, display)
            except SandboxError:
                jail.last_words()
                if not jail.check_cpu() and jail.proc.poll() is None and not jail.ended_idle:
                    raise  # the jail is there and does not answer: broken infrastructure
                if not jail.cpu_spent:
                    return Cell(self._restart())
                # stopped past the episode's CPU before its server could answer
                result, out, err, shown, truncated = (
                    json.loads(_cpu_stopped(time.monotonic() - started)), b"", b"", b"",
                    False)
            if replay:
                self._replay_s -= result["wall_s"]
            else:
                self.seconds_left -= min(result["wall_s"], wall_s)
            note, self._note = self._note, ""
            spent_s = result.get("spent_s")
            if isinstance(spent_s, float) and 0.0 <= spent_s < 1e9:  # (the server's count)
                jail.reaped_s = spent_s
            # the cgroup's watcher stopped the jail during the call (its own answer may
            # have come first), or the server has no CPU left for a fresh interpreter
            if jail.check_cpu() or result["reset"] == "cpu":
                if result["reset"]:
                    result["reset"] = "cpu"
                self._spend()
                self._note = RESET_NOTE.format(why=RESET_WHY["cpu"])
            elif result["reset"]:
                self.resets += 1
                self.history.clear()
                self._note = RESET_NOTE.format(why=RESET_WHY[result["reset"]])
                # its server could not clean the jail and ended: a fresh one for the next call
                if result.get("retire") and not self._new_jail():
                    self._note = RESET_NOTE.format(why=RESET_WHY["cpu"])
            else:
                self.history.append(code)
            execution = _execution(result, out, err, truncated, note, self.limits.output_bytes)
            return _cell(execution, shown)

    def _restart(self) -> Execution:
        """The session's jail ended (idle past `idle_s`, or a server that retired because a
        cell left what it could not clean): a fresh jail, the session reset; this call did
        not run. A jail that cannot start raises SandboxError."""
        if not self._new_jail():
            return Execution(status="timeout", stderr=RESET_NOTE.format(why=RESET_WHY["cpu"])
                             + CPU_SPENT)
        self.resets += 1
        self.history.clear()
        self._note = ""
        return Execution(status="runtime_error", exit_code=None, stderr=RESET_NOTE.format(
            why="end (the session was idle too long, or its jail retired)")
            + "sandbox: this call did not run: run it again\n")

    def _new_jail(self) -> bool:
        """Close the session's jail and start a fresh one with what is left of the
        episode's CPU; False (the session spent) when nothing is left."""
        assert self._jail is not None
        self._jail.last_words()
        self._finalizer()
        # what the ended jail spent: its cgroup's count, else what its server reaped
        self._cpu_before += (self._jail.cpu_used() if self._jail.meter is not None
                             else self._jail.reaped_s)
        if self._cpu_before >= self._cpu_budget:
            self._spend()  # (its processes spent the rest before the jail ended)
            return False
        self._jail = self._last_jail = _spares.take(self.limits, self.options, self.seed,
                                                    self._cpu_budget - self._cpu_before)
        self._finalizer = weakref.finalize(self, _Jail.close, self._jail)
        self._watch(self._jail, self._cpu_budget - self._cpu_before)
        return True

    def _call(self, code: str, wall_s: float, cancel: Cancel | None, display: bool
              ) -> tuple[dict[str, Any], bytes, bytes, bytes, bool]:
        assert self._jail is not None
        jail = self._jail
        pay_r, pay_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        ours, theirs = [pay_w, out_r, err_r], [pay_r, out_w, err_w]
        if display:
            disp_r, disp_w = os.pipe()
            ours.append(disp_r)
            theirs.append(disp_w)
        try:
            socket.send_fds(jail.control, [marshal.dumps({"wall_s": wall_s})], theirs)
        except OSError as exc:
            for fd in ours:
                os.close(fd)
            raise jail.died() from exc
        finally:
            for fd in theirs:
                os.close(fd)
        payload = code.encode("utf-8", "surrogatepass")
        if cancel is not None:
            cancel.started()  # a call's own clock (`Cancel.after_s`) starts here
        try:
            return _collect(jail, payload, pay_w, ours[1:], wall_s, self.limits.output_bytes,
                            cancel)
        except OSError as exc:  # the server's end went away mid-call
            raise jail.died() from exc

    def fork(self, n: int) -> list[Session]:
        """`n` sibling sessions holding this session's state (its cells replayed in jails of
        their own, with its seed and what is left of its episode time)."""
        if not isinstance(n, int) or n < 1:
            raise ArgumentError(f"fork needs a positive number of siblings, got {n!r}")
        if self._jail is None:
            raise ArgumentError("this sandbox session is closed")
        _spares.want(self.limits, self.options, n)
        with self._lock:
            history = list(self.history)
            self._settle_cpu()
            cpu_left, metered = self._cpu_left()

        def sibling() -> Session:
            return Session(self.limits, self.options, _seed=self.seed, _history=history,
                           _seconds_left=self.seconds_left, _cpu_left=cpu_left,
                           _replay_counts=not metered)

        with ThreadPoolExecutor(min(n, 8)) as pool:  # jails start and replay side by side
            futures = [pool.submit(sibling) for _ in range(n)]
        siblings = [f.result() for f in futures if f.exception() is None]
        if len(siblings) < n:
            for made in siblings:
                made.close()
            raise next(error for f in futures if (error := f.exception()) is not None)
        return siblings

    def close(self) -> None:
        """End the session: its jail and every process in it."""
        with self._lock:
            if self._jail is None:
                return
            self._finalizer()
            self._jail = None
        with _open_lock:
            _open.discard(self)

    def __enter__(self) -> Session:  # noqa: PYI034  (Python 3.10 has no typing.Self)
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Spares:
    """Session jails started ahead, per shape (the limits and the options but the seed), so
    that opening or forking a session does not wait for nsjail and the interpreter to start:
    as many as the last fork of that shape asked for (at least 1, at most `MAX_SPARES`), for
    the `max_pools()` shapes used last; a spare unused for its `idle_s` ends itself."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ready: dict[tuple[Any, ...], list[_Jail]] = {}
        self.wanted: dict[tuple[Any, ...], int] = {}
        self.starting: dict[tuple[Any, ...], int] = {}

    @staticmethod
    def key(limits: Limits, options: SessionOptions) -> tuple[Any, ...]:
        # the host's cgroup set-up too: a spare made with a CPU group is not one without
        return (limits, options.episode_wall_s, options.episode_cpu_s, options.idle_s,
                cgroup_v2_root(), cgroup_v1())

    def take(self, limits: Limits, options: SessionOptions, seed: int,
             cpu_s: float | None = None) -> _Jail:
        key = self.key(limits, options)
        with self.lock:
            jails = self.ready.pop(key, [])
            self.ready[key] = jails  # most recently used last
            jail = jails.pop() if jails else None
        self.refill(limits, options)
        while jail is not None:
            if jail.proc.poll() is None:
                try:
                    jail.begin(seed, cpu_s)
                    return jail
                except SandboxError:
                    pass  # a spare that died meanwhile: the next, or a fresh jail
            else:
                jail.close()
            with self.lock:
                jail = jails.pop() if jails else None
        jail = _Jail(limits, options)
        jail.begin(seed, cpu_s)
        return jail

    def want(self, limits: Limits, options: SessionOptions, count: int) -> None:
        key = self.key(limits, options)
        with self.lock:
            self.wanted[key] = min(MAX_SPARES, max(count, self.wanted.get(key, 1)))

    def refill(self, limits: Limits, options: SessionOptions) -> None:
        """Start (in the background) the spares this shape lacks; evict old shapes."""
        if not spares_enabled():
            return
        key = self.key(limits, options)
        evicted: list[_Jail] = []
        with self.lock:
            self.ready.setdefault(key, [])
            while len(self.ready) > max_pools():
                old = next(iter(self.ready))
                evicted += self.ready.pop(old)
                self.wanted.pop(old, None)
            missing = self.wanted.get(key, 1) - len(self.ready[key]) - self.starting.get(key, 0)
            self.starting[key] = self.starting.get(key, 0) + max(missing, 0)
        for jail in evicted:
            jail.close()
        for _ in range(max(missing, 0)):
            threading.Thread(target=self._start, args=(key, limits, options),
                             daemon=True).start()

    def _start(self, key: tuple[Any, ...], limits: Limits, options: SessionOptions) -> None:
        try:
            jail = _Jail(limits, options)
        except (SandboxError, OSError):
            jail = None
        with self.lock:
            self.starting[key] -= 1
            if jail is not None and key in self.ready:
                self.ready[key].append(jail)
                jail = None
        if jail is not None:
            jail.close()

    def close(self) -> None:
        with self.lock:
            jails = [jail for spare in self.ready.values() for jail in spare]
            self.ready.clear()
        for jail in jails:
            jail.close()

    def forget(self) -> None:
        """In a forked copy of this process: the parent's spares are not ours."""
        self.lock = threading.Lock()
        for spare in self.ready.values():
            for jail in spare:
                jail.control.close()
        self.ready.clear()
        self.starting.clear()


MAX_SPARES = 8
"""Spare jails kept for one shape of session at most."""
_spares = _Spares()
os.register_at_fork(after_in_child=_spares.forget)
_watch = CpuWatch()
os.register_at_fork(after_in_child=_watch.forget)
atexit.register(_spares.close)


def open_session(*, limits: Limits | None = None, options: SessionOptions | None = None
                 ) -> Session:
    """A new Python session in a jail of its own (see the module docstring)."""
    return Session(limits or Limits(wall_s=5.0, cpu_s=5.0, memory_bytes=512 << 20),
                   options or SessionOptions())


def _collect(jail: _Jail, payload: bytes, pay_w: int, streams: list[int], wall_s: float,
             output_bytes: int, cancel: Cancel | None
             ) -> tuple[dict[str, Any], bytes, bytes, bytes, bool]:
    """Feed the cell's code, read its `streams` (stdout, stderr and a notebook's display)
    up to `output_bytes` each (the rest drained and dropped) until the server's reply; then
    what is already in the pipes."""
    os.set_blocking(pay_w, False)
    view = memoryview(payload)
    outputs = {fd: bytearray() for fd in streams}
    truncated = False
    reply = None
    asked = flooded = False
    dropped = [0]  # bytes read past the cap
    flood = max(FLOOD_BYTES, 16 * output_bytes)
    began = time.monotonic()
    deadline = began + wall_s + 10  # the server keeps wall_s; this is for a hung one
    writing = True
    try:
        while reply is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SandboxError("the sandbox session's server stopped answering")
            watch = [jail.control.fileno(), *outputs]
            if cancel is not None and not asked:
                watch.append(cancel.fileno())
            ready_r, ready_w, _ = select.select(watch, [pay_w] if writing else [], [],
                                                min(left, 1.0))
            if ready_w:
                try:
                    view = view[os.write(pay_w, view):]
                except BlockingIOError:
                    pass
                except BrokenPipeError:
                    view = view[:0]
                if not view:
                    writing = False
                    os.close(pay_w)
            if cancel is not None and not asked and cancel.is_set():  # a cancelled call is a timeout
                asked = True
                jail.control.send(b"kill")
            for fd in ready_r:
                if fd in outputs:
                    truncated |= _read_into(fd, outputs, output_bytes, dropped)
            if dropped[0] > flood and not asked:  # a flood, not a long print: stop the cell
                asked = flooded = True
                jail.control.send(b"kill")
            if jail.control.fileno() in ready_r:
                reply = jail.control.recv(1 << 16)
                if jail.heard_idle(reply):  # it ended idle before it read this call
                    raise jail.died()
                if not reply and not jail.check_cpu():
                    raise jail.died()
                if not reply:  # stopped past the episode's CPU: what it wrote is kept
                    reply = _cpu_stopped(time.monotonic() - began)
        for fd in streams:  # what the cell wrote before it answered
            os.set_blocking(fd, False)
            for _ in range(256):
                try:
                    if not _read_into(fd, outputs, output_bytes, dropped, keep_going=True):
                        break
                except BlockingIOError:
                    break
            truncated |= len(outputs[fd]) >= output_bytes and _more(fd)
    finally:
        if writing:
            os.close(pay_w)
        for fd in outputs:
            os.close(fd)
    result = json.loads(reply)
    if flooded and result["reset"]:
        result["reset"] = "output"
    out, err, *shown = (bytes(outputs[fd]) for fd in streams)
    return result, out, err, shown[0] if shown else b"", truncated


def _cpu_stopped(wall_s: float) -> bytes:
    """The reply standing for a server that the CPU watcher stopped mid-call."""
    return json.dumps({"status": "cpu", "reset": "cpu", "wall_s": wall_s, "cpu_s": 0.0,
                       "maxrss": 0}).encode()


def _read_into(fd: int, outputs: dict[int, bytearray], cap: int, dropped: list[int],
               keep_going: bool = False) -> bool:
    """One read of `fd` into its buffer up to `cap`, counting in `dropped[0]` what did not
    fit: whether bytes were dropped (with `keep_going`: whether anything was read)."""
    chunk = os.read(fd, _CHUNK)
    buf = outputs[fd]
    room = cap - len(buf)
    buf += chunk[:max(room, 0)]
    dropped[0] += max(0, len(chunk) - max(room, 0))
    return bool(chunk) if keep_going else len(chunk) > room


def _more(fd: int) -> bool:
    try:
        return bool(os.read(fd, 1))
    except BlockingIOError:
        return False


@dataclass(frozen=True)
class Cell:
    """What a notebook's cell did (`Session.run_cell`)."""

    execution: Execution
    """Its stdout, stderr and status, as `Session.run` gives them."""
    display: str | None = None
    """The repr of the cell's last expression (None: no expression, or it was None)."""
    error: tuple[str, str] | None = None
    """(the exception's class name, its message) when the cell raised."""


def _cell(execution: Execution, shown: bytes) -> Cell:
    """The cell's display pipe read: a `D` record is the display, an `E` one the error."""
    text = shown[1:].decode(errors="replace")
    if shown.startswith(b"D"):
        return Cell(execution, display=text)
    if shown.startswith(b"E"):
        name, _, message = text.partition("\n")
        return Cell(execution, error=(name, message))
    return Cell(execution)


def _execution(result: dict[str, Any], out: bytes, err: bytes, truncated: bool, note: str,
               output_bytes: int) -> Execution:
    statuses: dict[str, Status] = {"ok": "ok", "error": "runtime_error",
                                   "memory": "memory_limit", "timeout": "timeout",
                                   "cpu": "timeout"}
    status = statuses.get(result["status"])
    if status is None:  # the interpreter died: SIGXCPU is its CPU limit (a time limit, as
        # `sandbox._classify` reads it), SIGKILL the memory limit's OOM kill
        status = ("timeout" if result.get("signal") == signal.SIGXCPU else
                  "memory_limit" if result.get("signal") == signal.SIGKILL else "runtime_error")
    if (truncated and status == "ok") or result["reset"] == "output":
        status = "output_limit"
    if result["reset"] == "cpu":
        status = "timeout"
    tail = {"": "", "timeout": "\nsandbox: the call ran past its time limit\n",
            "cpu": (f"\nsandbox: the interpreter ended ({_how(result)})"
                    if result.get("signal") or result.get("exit_code") is not None else "")
                   + "\nsandbox: the session's processes spent its episode CPU time "
                   "(episode_cpu_s): stopped\n",
            "output": "\nsandbox: the call's output passed its limit many times over: "
                      "stopped\n"}.get(result["reset"],
                                        f"\nsandbox: the interpreter ended ({_how(result)})\n")
    room = output_bytes - len(note.encode()) - len(tail.encode())  # notes within the cap
    stderr = note + err[:max(room, 0)].decode(errors="replace") + tail
    exit_code = result.get("exit_code") if result["reset"] else int(result["status"] != "ok")
    return Execution(status=status, exit_code=exit_code,
                     signal=result.get("signal"), stdout=out.decode(errors="replace"),
                     stderr=stderr, truncated=truncated, wall_s=result["wall_s"],
                     cpu_s=result["cpu_s"], peak_memory_bytes=result["maxrss"],
                     stdout_bytes=out)


def _how(result: dict[str, Any]) -> str:
    if result.get("signal"):
        return f"killed by signal {result['signal']}"
    return f"exit code {result.get('exit_code')}"
