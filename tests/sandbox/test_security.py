"""Abuse attempts against the jail, each asserting containment AND an unchanged host
(`host` fixture: canary file untouched, no process escaped its jail, nothing written to the
host Redis). Every attack runs against cold jails and against the warm mode."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from sandbox_probes import JAIL_UID, MODES, PROGRAM_UID, SHORT, Host

UIDS = (JAIL_UID, PROGRAM_UID)  # a cold jail's program, a warm one's

import sandbox

DENIED = "DENIED"


@dataclass(frozen=True)
class Attack:
    code: str
    check: Callable[[sandbox.Execution, Host], None]
    limits: sandbox.Limits = field(default=SHORT)


def denied_all(n: int) -> Callable[[sandbox.Execution, Host], None]:
    def check(ex: sandbox.Execution, host: Host) -> None:
        assert ex.status == "ok", ex
        assert ex.stdout.count(DENIED) == n, ex.stdout
        assert "ALLOWED" not in ex.stdout, ex.stdout
    return check


def status_is(*statuses: str, max_wall: float = 4.0) -> Callable[[sandbox.Execution, Host], None]:
    def check(ex: sandbox.Execution, host: Host) -> None:
        assert ex.status in statuses, ex
        assert ex.wall_s < max_wall, ex
    return check


TRY = """
def attempt(label, fn):
    try:
        result = fn()
    except BaseException as exc:
        print("DENIED", label, type(exc).__name__)
    else:
        print("ALLOWED", label, repr(result)[:200])
"""

CTYPES = TRY + """
import ctypes, ctypes.util, errno
libc = ctypes.CDLL(None, use_errno=True)
def sys_call(label, nr, *args):
    ret = libc.syscall(nr, *[ctypes.c_long(a) for a in args])
    err = ctypes.get_errno()
    print(("DENIED" if ret == -1 and err in (errno.EPERM, errno.ENOSYS, errno.EACCES) else "ALLOWED"),
          label, ret, err)
"""

ATTACKS: dict[str, Attack] = {
    "fork_bomb": Attack(
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
        status_is("timeout", "runtime_error")),
    "memory_bomb_single": Attack("x = bytearray(4 << 30)\nprint(len(x))\n",
                                 status_is("memory_limit")),
    "memory_bomb_growing": Attack(
        "chunks = []\nwhile True:\n    chunks.append(bytearray(16 << 20))\n",
        status_is("memory_limit")),
    "infinite_loop": Attack("while True:\n    pass\n", status_is("timeout")),
    "sleep_past_limit": Attack("import time\ntime.sleep(120)\n", status_is("timeout")),
    "sigterm_ignored": Attack(
        "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(120)\n",
        status_is("timeout")),
    "read_etc_shadow": Attack(TRY + "attempt('shadow', lambda: open('/etc/shadow').read())\n"
                              "attempt('passwd', lambda: open('/etc/passwd').read())\n",
                              denied_all(2)),
    "read_host_file": Attack(TRY + "attempt('canary', lambda: open('{canary}').read())\n"
                             "attempt('tmp', lambda: __import__('os').listdir('{canary_dir}'))\n",
                             denied_all(2)),
    "read_project_files": Attack(
        TRY + "attempt('pyproject', lambda: open('/work/main/pyproject.toml').read())\n"
        "attempt('sandbox', lambda: open('/work/main/sandbox/__init__.py').read())\n"
        "attempt('shared', lambda: __import__('os').listdir('/work/shared'))\n"
        "attempt('root', lambda: __import__('os').listdir('/root'))\n"
        "attempt('home', lambda: __import__('os').listdir('/home'))\n"
        "attempt('local', lambda: __import__('os').listdir('/usr/local'))\n",
        denied_all(6)),
    "read_host_proc": Attack(
        TRY + "attempt('proc', lambda: __import__('os').listdir('/proc'))\n"
        "attempt('pid1', lambda: open('/proc/1/cmdline').read())\n"
        "attempt('environ', lambda: open('/proc/1/environ').read())\n"
        "attempt('sys', lambda: __import__('os').listdir('/sys/fs/cgroup'))\n",
        denied_all(4)),
    "env_secrets": Attack("import os\nprint(sorted(os.environ.items()))\n",
                          lambda ex, host: _env_clean(ex, host)),
    "write_outside_workdir": Attack(
        TRY + "for path in ['/usr/bin/evil', '/evil', '/lib/evil', '/bin/evil', '/dev/evil',"
        " '{canary}']:\n"
        "    attempt(path, lambda: open(path, 'w').write('pwned'))\n",
        lambda ex, host: (denied_all(6)(ex, host), _no_host_file("/usr/bin/evil"))),
    "fill_the_disk": Attack(
        "import os\ntotal = 0\ntry:\n    with open('/work/fill', 'wb') as fh:\n"
        "        for i in range(10000):\n            fh.write(b'x' * (1 << 20))\n"
        "            fh.flush()\n            total += 1 << 20\nexcept OSError as exc:\n"
        "    print('stopped', type(exc).__name__, exc.errno)\n"
        "n = 0\ntry:\n    while True:\n"
        "        open(f'/tmp/f{n}', 'wb').write(b'y' * (1 << 20)); n += 1\n"
        "except OSError as exc:\n    print('tmp stopped', n)\nprint('total', total)\n",
        lambda ex, host: _disk_capped(ex)),
    "tcp_to_host_redis": Attack(
        TRY + "import socket\n"
        "def redis():\n    s = socket.create_connection(('127.0.0.1', 6379), timeout=1)\n"
        "    s.sendall(b'SET escape-{token} 1\\r\\n')\n    return s.recv(10)\n"
        "attempt('redis', redis)\n"
        "attempt('rabbit', lambda: socket.create_connection(('127.0.0.1', 5672), timeout=1))\n"
        "attempt('ipv6', lambda: socket.create_connection(('::1', 6379), timeout=1))\n",
        denied_all(3)),
    "tcp_udp_dns_internet": Attack(
        TRY + "import socket\n"
        "attempt('tcp', lambda: socket.create_connection(('1.1.1.1', 80), timeout=1))\n"
        "def udp():\n    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
        "    return s.sendto(b'x', ('8.8.8.8', 53))\n"
        "attempt('udp', udp)\n"
        "attempt('dns', lambda: socket.getaddrinfo('example.com', 80))\n",
        denied_all(3)),
    "network_interfaces": Attack(
        "import socket\nprint(sorted(name for _, name in socket.if_nameindex()))\n",
        lambda ex, host: (status_is("ok")(ex, host), _eq(ex.stdout.strip(), "['lo']"))),
    "kill_the_parent": Attack(
        "import os, signal\nfor pid in [os.getppid(), 1, -1, 0] + list(range(2, 300)):\n"
        "    try:\n        os.kill(pid, signal.SIGKILL) if pid not in (0, os.getpid()) else None\n"
        "    except OSError:\n        pass\nprint('survived')\n",
        lambda ex, host: _sentinel_alive()),
    "ptrace": Attack(
        CTYPES + "sys_call('traceme', 101, 0, 0, 0, 0)\nsys_call('attach1', 101, 16, 1, 0, 0)\n"
        "sys_call('attach_parent', 101, 16, __import__('os').getppid(), 0, 0)\n"
        "sys_call('process_vm_readv', 310, 1, 0, 0, 0, 0, 0)\n",
        denied_all(4)),
    "ctypes_raw_syscalls": Attack(
        CTYPES + "sys_call('unshare_user', 272, 0x10000000)\nsys_call('unshare_net', 272, 0x40000000)\n"
        "sys_call('setns', 308, 0, 0)\nsys_call('mount', 165, 0, 0, 0, 0, 0)\n"
        "sys_call('umount', 166, 0, 0)\nsys_call('keyctl', 250, 0, 0, 0, 0)\n"
        "sys_call('bpf', 321, 0, 0, 0)\nsys_call('perf_event_open', 298, 0, 0, 0, 0, 0)\n"
        "sys_call('clone3', 435, 0, 0)\nsys_call('clone_newns', 56, 0x00020000 | 17, 0, 0, 0, 0)\n"
        "sys_call('reboot', 169, 0, 0, 0, 0)\nsys_call('init_module', 175, 0, 0, 0)\n"
        "sys_call('chroot', 161, 0)\nsys_call('pivot_root', 155, 0, 0)\n"
        "sys_call('shmget', 29, 0, 4096, 0o1666)\nsys_call('settimeofday', 164, 0, 0)\n"
        "sys_call('io_uring_setup', 425, 8, 0)\nsys_call('kcmp', 312, 1, 1, 0, 0, 0)\n",
        denied_all(18)),
    "steal_file_descriptors": Attack(
        CTYPES + "import os\nfor target in (1, os.getppid() or 1):\n"
        "    pidfd = libc.syscall(434, target, 0)\n"
        "    for fd in range(5):\n        sys_call(f'getfd {target} {fd}', 438, pidfd, fd, 0)\n",
        denied_all(10)),
    "setrlimit_raise": Attack(
        TRY + "import resource\n"
        "for name in ['RLIMIT_AS', 'RLIMIT_CPU', 'RLIMIT_NPROC', 'RLIMIT_FSIZE', 'RLIMIT_NOFILE']:\n"
        "    kind = getattr(resource, name)\n"
        "    attempt(name, lambda: resource.setrlimit(kind, (resource.RLIM_INFINITY,) * 2))\n",
        denied_all(5)),
    "subprocess_and_system": Attack(
        "import os, subprocess\n"
        "os.system('cat /etc/shadow; echo uid=$(id -u 2>/dev/null || echo none)')\n"
        "r = subprocess.run(['/bin/sh', '-c', 'ls /root /home /work/main 2>&1; echo sh-ok'],"
        " capture_output=True, text=True)\nprint(r.stdout)\n"
        "print(subprocess.run(['/usr/bin/python3', '-c', 'import os; print(os.getuid())'],"
        " capture_output=True, text=True).stdout)\n",
        lambda ex, host: _subprocess_contained(ex)),
    "children_outlive_program": Attack(
        "import os, subprocess\n"
        "subprocess.Popen(['/bin/sleep', '30'], start_new_session=True)\n"
        "if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        "        import time\n        time.sleep(30)\n    os._exit(0)\nprint('parent exits')\n",
        lambda ex, host: (status_is("ok", max_wall=4)(ex, host), _settle())),
    "non_daemon_thread_outlives_main": Attack(
        "import threading, time\nthreading.Thread(target=time.sleep, args=(60,)).start()\n"
        "print('main done')\n",
        status_is("timeout")),
    "huge_stdout": Attack("import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n",
                          lambda ex, host: _capped(ex)),
    "huge_stderr": Attack("import sys\nwhile True:\n    sys.stderr.write('e' * 65536)\n",
                          lambda ex, host: _capped(ex)),
    "binary_output": Attack(
        "import sys\nsys.stdout.buffer.write(bytes(range(256)) * 4)\n",
        lambda ex, host: (_eq(ex.status, "ok"), _eq(ex.stdout_bytes, bytes(range(256)) * 4))),
    "symlink_tricks": Attack(
        TRY + "import os\nos.symlink('/etc/shadow', 's1')\nos.symlink('{canary}', 's2')\n"
        "os.symlink('/proc/1/root/etc/passwd', 's3')\nos.symlink('/work/main/pyproject.toml', 's4')\n"
        "for name in ['s1', 's2', 's3', 's4']:\n    attempt(name, lambda: open(name).read())\n"
        "os.symlink('../../../../..', 'up')\n"
        "print('ROOT', sorted(os.listdir('up')))\n",
        lambda ex, host: (denied_all(4)(ex, host), _jail_root(ex))),
    "leaked_file_descriptors": Attack(
        "import os\nopen_fds = []\nfor fd in range(1024):\n    try:\n        os.fstat(fd)\n"
        "        open_fds.append(fd)\n    except OSError:\n        pass\nprint(open_fds)\n",
        lambda ex, host: _eq(ex.stdout.strip(), "[0, 1, 2]")),
    "setuid_attempts": Attack(
        TRY + "import os\nprint('uid', os.getuid(), os.geteuid())\n"
        "attempt('setuid', lambda: os.setuid(0))\nattempt('setgid', lambda: os.setgid(0))\n"
        "attempt('setresuid', lambda: os.setresuid(0, 0, 0))\n"
        "attempt('chown', lambda: os.chown('/work/main.py', 0, 0))\n"
        "attempt('chroot', lambda: os.chroot('/tmp'))\n"
        "attempt('sethostname', lambda: __import__('socket').sethostname('x'))\n",
        lambda ex, host: (denied_all(6)(ex, host), _one_of(ex.stdout.splitlines()[0],
                                                           [f"uid {u} {u}" for u in UIDS]))),
    "devices": Attack(
        TRY + "import os\nprint('DEV', sorted(os.listdir('/dev')))\n"
        "attempt('sda', lambda: open('/dev/sda', 'rb').read(1))\n"
        "attempt('mem', lambda: open('/dev/mem', 'rb').read(1))\n"
        "attempt('docker', lambda: __import__('socket').socket(1).connect('/var/run/docker.sock'))\n",
        lambda ex, host: (denied_all(3)(ex, host),
                          _contains(ex.stdout, "DEV ['null', 'shm', 'urandom', 'zero']"))),
    "python_start_up_isolated": Attack(
        "import sys\nprint(sys.flags.no_site, sys.flags.no_user_site, sys.flags.ignore_environment,"
        " 'site' in sys.modules, [p for p in sys.path if 'site-packages' in p])\n",
        lambda ex, host: _eq(ex.stdout.strip(), "1 1 1 False []")),
    "hostname_and_identity": Attack(
        "import socket, os\nprint(socket.gethostname(), os.getuid(), os.getgid())\n",
        lambda ex, host: _one_of(ex.stdout.strip(), [f"sandbox {u} {u}" for u in UIDS])),
}


def _eq(actual: object, expected: object) -> None:
    assert actual == expected


def _one_of(actual: str, allowed: list[str]) -> None:
    assert actual in allowed, actual


def _contains(text: str, part: str) -> None:
    assert part in text, text


def _env_clean(ex: sandbox.Execution, host: Host) -> None:
    assert ex.status == "ok", ex
    assert host.token not in ex.stdout
    names = {item.split("'")[1] for item in ex.stdout.strip()[2:-2].split("), (")}
    assert names <= {"PATH", "HOME", "LANG", "TMPDIR", "LC_CTYPE"}, names


def _no_host_file(path: str) -> None:
    assert not os.path.exists(path)


def _disk_capped(ex: sandbox.Execution) -> None:
    assert ex.status == "ok", ex
    total = int(ex.stdout.split("total")[1])
    assert total <= SHORT.disk_bytes
    assert "stopped" in ex.stdout and "tmp stopped" in ex.stdout
    assert int(ex.stdout.split("tmp stopped")[1].split()[0]) <= SHORT.disk_bytes >> 20


def _capped(ex: sandbox.Execution) -> None:
    assert ex.status == "output_limit", ex
    assert ex.truncated
    assert len(ex.stdout_bytes) <= SHORT.output_bytes
    assert len(ex.stderr.encode()) <= SHORT.output_bytes
    assert ex.wall_s < 4


def _subprocess_contained(ex: sandbox.Execution) -> None:
    assert ex.status == "ok", ex
    assert "root:" not in ex.stdout
    assert any(f"uid={uid}" in ex.stdout for uid in UIDS), ex
    assert "sh-ok" in ex.stdout and ex.stdout.strip().splitlines()[-1] in map(str, UIDS)
    assert "pyproject" not in ex.stdout


def _settle() -> None:
    time.sleep(0.2)  # escaped processes (if any) would still be there: `host` checks


def _jail_root(ex: sandbox.Execution) -> None:
    root = ex.stdout.split("ROOT")[1]
    assert "'root'" not in root and "'home'" not in root and "'etc'" not in root, root


_SENTINEL: list[subprocess.Popen[bytes]] = []


def _sentinel_alive() -> None:
    assert _SENTINEL and _SENTINEL[-1].poll() is None


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_abuse_is_contained(name: str, mode: str, host: Host,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    attack = ATTACKS[name]
    monkeypatch.setenv("SANDBOX_TEST_SECRET", host.token)
    sentinel = subprocess.Popen(["sleep", "30"])  # a host process nobody in a jail may kill
    _SENTINEL.append(sentinel)
    code = (attack.code.replace("{canary}", str(host.canary))
            .replace("{canary_dir}", str(host.canary.parent)).replace("{token}", host.token))
    try:
        ex = sandbox.run(code, limits=attack.limits, mode=mode)
        attack.check(ex, host)
        assert sentinel.poll() is None
    finally:
        sentinel.kill()
        sentinel.wait()
        _SENTINEL.clear()
    # the host can still start processes (no fork-bomb or pid exhaustion leak)
    assert subprocess.run(["true"], check=False).returncode == 0


def test_suite_has_at_least_30_attacks() -> None:
    assert len(ATTACKS) >= 30


@pytest.mark.parametrize("mode", MODES)
def test_nothing_survives_into_the_next_run(mode: str, host: Host) -> None:
    """A run leaves files in /work and /tmp and a background process; the next runs (the warm
    pool reuses its servers) see none of it."""
    first = sandbox.run(
        "import os, subprocess\nopen('/work/secret', 'w').write('s')\n"
        "open('/tmp/secret', 'w').write('s')\n"
        "p = subprocess.Popen(['/bin/sleep', '30'], start_new_session=True)\nprint(p.pid)\n",
        limits=SHORT, mode=mode)
    assert first.status == "ok", first
    pid = int(first.stdout)
    for _ in range(3):
        later = sandbox.run(
            f"import os\nprint(sorted(os.listdir('/work')), sorted(os.listdir('/tmp')))\n"
            f"try:\n    os.kill({pid}, 0)\n    print('ALIVE')\nexcept OSError:\n    print('gone')\n",
            limits=SHORT, mode=mode)
        assert later.stdout.split("\n")[:2] == ["['main.py'] []", "gone"], later


def test_host_signals_never_reach_jail_from_kill_minus_one(host: Host) -> None:
    """kill(-1) inside a jail only reaches the jail: a host process of the same uid as the
    jail (the worst case) survives it."""
    victim = subprocess.Popen(["sleep", "30"], user=99999, group=99999)
    try:
        ex = sandbox.run("import os, signal\ntry:\n    os.kill(-1, signal.SIGKILL)\n"
                         "except ProcessLookupError:\n    pass\nprint('ok')\n",
                         limits=SHORT, mode="cold")
        assert ex.status == "ok", ex
        time.sleep(0.1)
        assert victim.poll() is None
    finally:
        victim.send_signal(signal.SIGKILL)
        victim.wait()


@pytest.mark.parametrize("mode", MODES)
def test_locked_down_leftovers_do_not_reach_the_next_run(mode: str, host: Host) -> None:
    """Folders made unreadable, symlinks, FIFOs and a read-only /work are all gone (or the
    warm server retires and is replaced) before the next program starts."""
    code = ("import os\nos.makedirs('/work/a/b/c')\nopen('/work/a/b/c/f', 'w').write('x')\n"
            "os.chmod('/work/a/b/c', 0)\nos.chmod('/work/a/b', 0)\nos.chmod('/work/a', 0o500)\n"
            "os.makedirs('/tmp/q')\nos.chmod('/tmp/q', 0)\nos.symlink('/work/a', '/work/link')\n"
            "os.mkfifo('/work/fifo')\nfor top in ('/work', '/tmp'):\n    try:\n"
            "        os.chmod(top, 0o500)\n"  # (warm: the server's folders, not the program's)
            "    except PermissionError:\n        pass\nprint('done')\n")
    for _ in range(3):
        assert sandbox.run(code, limits=SHORT, mode=mode).stdout == "done\n"
        after = sandbox.run("import os\nprint(os.listdir('/work'), os.listdir('/tmp'))\n"
                            "open('/tmp/w', 'w').write('ok')\n", limits=SHORT, mode=mode)
        assert (after.status, after.stdout) == ("ok", "['main.py'] []\n"), after
