"""The init of a cold plain Python run's jail: its pid 1, so that the program is not.

This docstring is the contract of two inits: this module, and `init.c` beside it, the same
init in C, which `sandbox._staging` compiles with the system's C compiler when it stages
this folder (`/harness/init`) and cold runs use wherever it could be built
(`_runner.cold_init`): an exec instead of a second interpreter start per cold run. Its
report's bytes and exit codes are the constants below, handed to the compiler as defines.

A jail's pid 1 is no ordinary process: the kernel drops every signal with the default
action that a process of its own namespace (itself included) sends it, so
`os.kill(os.getpid(), SIGKILL)`, `raise_signal(SIGUSR1)` or a SIGSTOP to itself does
nothing; orphans reparent to it (its `os.wait` reaps grandchildren); nsjail sets its
parent-death signal; `getpid()` is 1 and `getppid()` 0. `python3 main.py` on a host, and a
warm run's forked child, is none of that. So nsjail execs this (`run.py init ARGV...`,
`_runner.run`), which forks, and the child execs ARGV (`python3 -E -s -S main.py`) as
nsjail would have: same argv, environment, folder, descriptors 0 to 2, rlimits, signal
dispositions (SIG_DFL, the interpreter's SIGPIPE and SIGXFSZ ignores undone), no
parent-death signal, a session of its own (as a warm run's child and a stdin/stdout
test's process). This process then reaps every process that ends (orphans included) until
the program has; the program's end is the run's end, as when it was pid 1: every other
process of the jail is SIGKILLed and reaped, and this process exits with the program's
status. An exit code is its own exit code. A signal death cannot be re-raised (pid 1 is
immune to its own signals), so it writes `SIGNAL_REPORT`, the run's nonce and the number
as the last bytes of stderr (no other process is left to write after it) and exits with
128 + the signal; `_runner.from_init` reads both back as that signal. The nonce is this
process's first argument, drawn by the host for the run and never passed on: the program
cannot read its parent's argv (no /proc, no ptrace), so a report it writes itself is its
own stderr and its exit 128 + N an exit code, as python3 main.py's (red team sb12).

Nothing is forwarded: nsjail ends a run (its time limit, the host's kill) by SIGKILLing
this pid 1 from outside the namespace, and the kernel then kills every process of the
jail. What the program can do to this process, its parent and of its uid: signals
(dropped, as to any pid 1: no handler is installed, SIGINT's is reset), ptrace and
process_vm_* (refused by the seccomp policy), /proc (not mounted), prlimit (its soft
RLIMIT_CPU is at least 1 s, which this process, asleep in waitpid, never spends, but a hard
limit of 0 SIGKILLs it at the next CPU-timer check that finds it on a CPU: a signal 9, a
failing run, never a pass; a lowered RLIMIT_AS or RLIMIT_NOFILE can make this module's last
steps fail, never the C init's, which allocates and opens nothing: it then exits with
`FAILED` after the kill, a failing run, never a pass), renice and affinity (slower, not
judged otherwise). Only a pid 1 runs anything: anywhere else either init exits `FAILED` at
once (its kill(-1) would reach every process of its uid). The run's process count and memory cgroup count this process too (the jail
gets one process more, as a cold stdin/stdout harness's does).

Standard library only, builtin modules only (`posix`, `_signal`): every import is paid on
every cold start.
"""

import posix

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
else:
    import _signal as signal

SIGNAL_REPORT = b"\0sandbox-init: signal "
"""Then the run's nonce, a space, the signal number in decimal and a newline: the report of
a signal death."""
FAILED = 70
"""This process's status where it could not tell the program's (EX_SOFTWARE)."""
NOT_STARTED = 127
"""The child's status where it could not become the program (as a shell's for a command
it cannot execute)."""


def main(argv: "list[str]") -> None:
    """`argv`: the run's nonce, then the program's argv. Run it as the jail's only program;
    exit with its status (see above)."""
    if posix.getpid() != 1:  # elsewhere its kill(-1) would reach every process of its uid
        posix._exit(FAILED)
    nonce, argv = argv[0].encode(), argv[1:]
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as pid 1: dropped, never a KeyboardInterrupt
    pid = posix.fork()
    if pid == 0:
        _program(argv)
    try:
        while True:
            ended, status = posix.waitpid(-1, 0)
            if ended == pid:
                break
    except BaseException:  # noqa: BLE001 (a MemoryError under a lowered RLIMIT_AS too)
        _end_the_rest()
        posix._exit(FAILED)
    _end_the_rest()
    if posix.WIFSIGNALED(status):
        number = posix.WTERMSIG(status)
        report = SIGNAL_REPORT + nonce + b" " + str(number).encode() + b"\n"
        try:
            posix.set_blocking(2, True)  # the program may have left the shared pipe non-blocking
            while report:
                report = report[posix.write(2, report):]
        except OSError:
            pass
        posix._exit(128 + number)
    posix._exit(posix.WEXITSTATUS(status) if posix.WIFEXITED(status) else FAILED)


def _program(argv: "list[str]") -> None:
    """In the child: become what nsjail would have started, then exec it."""
    try:
        posix.setsid()
        for number in (signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(number, signal.SIG_DFL)
        posix.execv(argv[0], argv)
    finally:
        posix._exit(NOT_STARTED)


def _end_the_rest() -> None:
    """SIGKILL every other process of the jail and reap them all."""
    while True:
        try:  # again before each wait: nothing forked meanwhile outlives the run
            posix.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        try:
            posix.waitpid(-1, 0)
        except ChildProcessError:
            return
        except OSError:
            continue
