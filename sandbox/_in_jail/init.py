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
test's process), and the uid of every warm program (`_jail.PROGRAM_UID`, the init's second
argument; the jail maps it beside the init's own, `jail_argv`'s `program_uid`).

Before the fork the init copies the run's inputs (the program's source and its input
files) from the staging folder INPUTS, the host's read-only bind that no program uid may
enter, into /work's tmpfs as files of its own uid, mode 0o644, in folders of mode 0o1777
(`take_inputs`, which a cold test harness shares): what a warm server's child writes
(`warm_server.write_inputs`), so the program, another uid, sees the same files, owner,
modes and refusals in both modes, and makes files of its own beside them as `python3
main.py` does. Where the copy fails (the host checked that the inputs fit the run's
/work: `_workspace.check_inputs_fit`) it writes `INPUTS_REPORT`, the nonce and the errno
as stderr's last bytes and exits `FAILED`, the program never started: `_runner.from_init`
raises it as the sandbox's failure. The copy runs under the jail's RLIMIT_NOFILE, the
program's plus `OWN_FILES`, and its RLIMIT_FSIZE, at least /work's size (`_runner.run`);
the child takes the program's own before the exec. Becoming the program, in the
child, in this order (`_program`; init.c the same, with the
same checks), any failure an exit with `NOT_STARTED` before the exec, never the program run
with the init's uid: `setsid`; SIGINT, SIGPIPE and SIGXFSZ to SIG_DFL; RLIMIT_NPROC (soft and
hard) lowered by `OWN_PROCESSES`, the jail's count of this init (`_runner.run` gives the jail
the program's processes plus these: the init needs the room to fork under its own uid,
which the program's count then no longer holds), RLIMIT_NOFILE by `OWN_FILES`, RLIMIT_FSIZE
set to the init's third argument (the program's, in bytes); no supplementary group; the real,
effective and saved gid, then uid, to PROGRAM_UID; every capability dropped (effective,
permitted and inheritable through capset, then the ambient set cleared, as the warm
server's `harness_wire.become_program`; the bounding set keeps what the jail's `--cap` left,
which without CAP_SETPCAP nothing can drop, and which no-new-privs, nsjail's, makes
unusable); the ids read back. So the program holds no capability and reads the
RLIMIT_NPROC `python3 main.py` and a warm run read, and it counts its own processes only. This process then reaps every process that ends (orphans included) until
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
jail. What the program can do to this process, its parent and of another uid: nothing. Signals,
prlimit, renice and affinity need the same uid or a capability, which the program has not
(EPERM: red team sb12, a hard RLIMIT_CPU of 0 set on its init SIGKILLed it at a later
tick); ptrace and process_vm_* are refused by the seccomp policy; /proc is not mounted.
This process keeps CAP_SETUID and CAP_SETGID (for its child) and CAP_KILL: its kill(-1) at
the end reaches the program's processes, another uid. Only a pid 1 runs anything: anywhere
else either init exits `FAILED` at once (its kill(-1) would reach every process it may
signal). The run's memory cgroup and its pids cap count this process too (the jail gets
`OWN_PROCESSES` more, as a cold stdin/stdout harness's does), the program's RLIMIT_NPROC
not.

Standard library only, builtin modules only (`posix`, `_signal`, `errno`), but for `ctypes` in the
child (capset and prctl have no builtin): every import is paid on every cold start that
uses this init (the C init where it was built).
"""

import errno
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
it cannot execute, or the program uid)."""
WORK = "/work"
"""The program's folder, where the init copies the inputs (`take_inputs`)."""
INPUTS = "/harness/inputs"
"""The staging folder: the host's folder of the run's inputs, bound read-only here, of the
jail's uid and mode 0o700 (no program uid reads it: `_workspace.workspace`). Mounted on an
empty folder of the staged harness folder (`_staging`), which a warm jail and a cold test
jail show empty: no new name in the jail's `/` that a warm program would not see."""
INPUTS_REPORT = b"\0sandbox-init: inputs "
"""Then the run's nonce, a space, the errno in decimal and a newline: the init could not copy
the inputs (`take_inputs`), exited FAILED, and the program never started."""
OWN_PROCESSES = 1
"""This init's processes, counted in the jail's RLIMIT_NPROC and pids cap
(`_runner.run`'s `extra_processes`), which its child takes off its RLIMIT_NPROC."""
OWN_FILES = 3
"""This init's descriptors beyond the program's, counted in the jail's RLIMIT_NOFILE
(`_runner.run` adds them) and taken off it by its child: fds 0 to 2 are the program's too,
the copy holds a folder and two files at most (`take_inputs`; init.c a directory stream and
two files; the target folder is the working directory, no descriptor), so `open_files=4` leaves the copy room."""


def main(argv: "list[str]") -> None:
    """`argv`: the run's nonce, the program uid, its RLIMIT_FSIZE, then the program's argv.
    Run it as the jail's only program; exit with its status (see above)."""
    if posix.getpid() != 1 or len(argv) < 3:  # elsewhere its kill(-1) reaches too much
        posix._exit(FAILED)
    nonce, uid, file_size, argv = argv[0].encode(), argv[1], argv[2], argv[3:]
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as pid 1: dropped, never a KeyboardInterrupt
    try:
        take_inputs(INPUTS, WORK)
    except OSError as exc:  # nothing of the program has run: the sandbox's failure
        _report(INPUTS_REPORT + nonce + b" " + str(exc.errno or 0).encode() + b"\n")
        posix._exit(FAILED)
    pid = posix.fork()
    if pid == 0:
        _program(uid, file_size, argv)
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
        _report(SIGNAL_REPORT + nonce + b" " + str(number).encode() + b"\n")
        posix._exit(128 + number)
    posix._exit(posix.WEXITSTATUS(status) if posix.WIFEXITED(status) else FAILED)


def _report(report: bytes) -> None:
    """Write `report` as stderr's last bytes (blocking), whatever fd 2 has become."""
    try:
        posix.set_blocking(2, True)  # the program may have left the shared pipe non-blocking
        while report:
            report = report[posix.write(2, report):]
    except OSError:
        pass


def _program(uid_text: str, file_size_text: str, argv: "list[str]") -> None:
    """In the child: become what nsjail would have started, under the program uid with no
    capability (the order and checks of the docstring), then exec it."""
    try:
        uid, file_size = int(uid_text), int(file_size_text)
        posix.setsid()
        for number in (signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(number, signal.SIG_DFL)
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
        resource.setrlimit(resource.RLIMIT_NPROC, (less_own(soft), less_own(hard)))
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (less_own(soft, OWN_FILES),
                                                    less_own(hard, OWN_FILES)))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
        posix.setgroups([])
        posix.setresgid(uid, uid, uid)
        posix.setresuid(uid, uid, uid)
        _drop_capabilities()
        if posix.getresuid() != (uid, uid, uid) or posix.getresgid() != (uid, uid, uid):
            raise OSError("the program uid did not hold")
        posix.execv(argv[0], argv)
    finally:
        posix._exit(NOT_STARTED)


def take_inputs(source: str = INPUTS, target: str = WORK) -> None:
    """Copy the run's input files, the program's source among them, from the staging
    folder `source` (INPUTS: the host's read-only bind, this uid's and mode 0o700, so no
    program can read it) into `target` (WORK) as files of this process's uid, mode 0o644,
    in folders of mode 0o1777, as a warm server writes them (`warm_server.write_inputs`):
    the program, another uid, reads them, makes files of its own beside them, and can
    neither write, remove nor replace one. Regular files and folders only, never a link
    followed (`O_NOFOLLOW`, `follow_symlinks=False`): anything else in the staging folder
    is the host's bug, an OSError EINVAL. Walked by a directory descriptor of the source
    and the working directory in the target, down by name and back up by `..` (before the
    program starts nothing else writes either tree), never by a path from the root: each
    step costs the same whatever the depth (by paths the copy's cost grew with the square
    of the depth: red team sb22). A list, not a recursion (a task folder may be deeper than
    Python's recursion limit); each folder's entries read whole before a file is opened:
    at most three descriptors at a time, the folder, the file copied and its copy
    (`OWN_FILES`). This init's (`main`); init.c's `take_inputs` the same. The working
    directory is `target` again at the end."""
    posix.chdir(target)
    here = posix.open(source, _FOLDER)
    try:
        pending = [_take_folder(here)]  # by level: the subfolders still to copy
        while pending:
            if pending[-1]:
                name = pending[-1].pop()
                below = posix.open(name, _FOLDER, dir_fd=here)
                posix.close(here)
                here = below
                posix.chdir(name)
                pending.append(_take_folder(here))
                continue
            pending.pop()
            if pending:
                above = posix.open("..", _FOLDER, dir_fd=here)
                posix.close(here)
                here = above
                posix.chdir("..")
    finally:
        posix.close(here)
        posix.chdir(target)


_FOLDER = posix.O_RDONLY | posix.O_DIRECTORY | posix.O_NOFOLLOW | posix.O_CLOEXEC


def _take_folder(source: int) -> "list[str]":
    """The files of the folder `source` (a descriptor) copied into the working directory,
    its subfolders made there (0o1777); their names."""
    folders = []
    for entry in list(posix.scandir(source)):
        if entry.is_dir(follow_symlinks=False):
            posix.mkdir(entry.name, 0o700)
            posix.chmod(entry.name, 0o1777)
            folders.append(entry.name)
        elif entry.is_file(follow_symlinks=False):
            _copy(source, entry.name)
        else:
            raise OSError(errno.EINVAL, "not a file or folder", entry.name)
    return folders


def _copy(source: int, name: str) -> None:
    """The bytes of `name` in the folder `source` into a new file `name` of the working
    directory, mode 0o644 whatever the umask."""
    reading = posix.open(name, posix.O_RDONLY | posix.O_NOFOLLOW | posix.O_CLOEXEC,
                         dir_fd=source)
    try:
        writing = posix.open(name, posix.O_WRONLY | posix.O_CREAT | posix.O_EXCL
                             | posix.O_NOFOLLOW | posix.O_CLOEXEC, 0o644)
        try:
            while posix.sendfile(writing, reading, None, 1 << 30):
                pass
            posix.fchmod(writing, 0o644)
        finally:
            posix.close(writing)
    finally:
        posix.close(reading)


def open_folders(path: str) -> None:
    """Every folder under `path` of this process's uid (those nsjail made for the input
    files' binds) to mode 0o1777, as a warm run's input folders are: the program, another
    uid, may make files there as `python3 main.py` may (a folder that cannot change is
    left). A cold test harness's before its first test (`harness.apart`), whose inputs are
    still binds (the init copies a plain run's: `take_inputs`). Walked with a list, not a
    recursion (a task folder may be deeper than Python's recursion limit), each folder's
    entries read whole before the next is opened (one descriptor at a time)."""
    folders = [path]
    while folders:
        try:
            entries = list(posix.scandir(folders.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if not entry.is_dir(follow_symlinks=False) or \
                        entry.stat(follow_symlinks=False).st_uid != posix.getuid():
                    continue
                posix.chmod(entry.path, 0o1777)
            except OSError:
                continue
            folders.append(entry.path)


def less_own(limit: int, own: int = OWN_PROCESSES) -> int:
    """An RLIMIT_NPROC value less `own` processes of ours, of another uid than the
    program's (this init's; a cold test harness's, `harness.entry`), which the jail's limit
    holds on top of the program's count (`process_budget`): the program's own count.
    Unlimited stays unlimited."""
    import resource

    if limit == resource.RLIM_INFINITY:
        return limit
    if limit <= own:
        raise OSError("RLIMIT_NPROC holds no process for the program")
    return limit - own


def _drop_capabilities() -> None:
    """Empty this process's effective, permitted and inheritable sets (capset), then its
    ambient set (prctl); raise OSError where the kernel refuses either."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()  # (effective, permitted, inheritable) x 2: all empty
    if libc.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")
    # PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL
    if libc.prctl(47, 4, ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_CAP_AMBIENT_CLEAR_ALL) failed")


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
