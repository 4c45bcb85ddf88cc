/* The init of a cold plain Python run's jail, in C: the same contract and behaviour as
 * init.py beside it, whose docstring is the one description of both (read it first), at
 * the cost of an exec instead of a second Python start per cold run.
 *
 * argv: the run's nonce, the program uid, then the program's argv. Only as the jail's
 * pid 1. The child takes a session of its own, resets SIGINT, SIGPIPE and SIGXFSZ to
 * SIG_DFL, lowers RLIMIT_NPROC by INIT_OWN_PROCESSES, drops its supplementary groups,
 * takes the program uid (gid, then uid, real, effective and saved), drops every
 * capability (capset, then the ambient set), checks the ids and execv's the program
 * (every other signal disposition and the signal mask as nsjail left them;
 * INIT_NOT_STARTED at the first step that fails, never the program under this
 * process's uid); this process reaps until the program has ended,
 * SIGKILLs every other process of the jail and reaps them, then exits with the program's
 * exit code, or for a signal death N writes INIT_SIGNAL_REPORT, the nonce, ' ', N in
 * decimal and '\n' to fd 2 (blocking) and exits 128 + N; INIT_FAILED where it cannot tell.
 *
 * The report's bytes and the exit codes are init.py's constants, never written here:
 * sandbox/_staging.py compiles this file with them as -D defines (`init_defines`), and it
 * does not compile without them. Plain C, libc and the kernel's capability header only,
 * no allocation (the report is written from its parts with writev), every syscall's
 * error handled. */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <grp.h>
#include <limits.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#if !defined(INIT_SIGNAL_REPORT) || !defined(INIT_FAILED) || !defined(INIT_NOT_STARTED) \
    || !defined(INIT_OWN_PROCESSES)
#error "compile with init.py's constants as -D defines (sandbox/_staging.py, init_defines)"
#endif

static const char signal_report[] = INIT_SIGNAL_REPORT;

/* SIGKILL every other process of the jail and reap them all (init.py's _end_the_rest). */
static void end_the_rest(void)
{
    for (;;) {
        kill(-1, SIGKILL); /* again before each wait: nothing forked meanwhile outlives the
                              run; an error (nothing left to signal) changes nothing */
        if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
            return;
    }
}

/* Every folder under `path` (`length` bytes of a PATH_MAX buffer) of this init's uid to
 * mode 01777, as a warm run's input folders are (init.py's open_folders); a folder that
 * cannot change is left. At most one directory stream is open at a time, whatever the
 * depth (the run's RLIMIT_NOFILE may leave the init 1 descriptor): each pass over a folder
 * finds the next subfolder by name (the least name after the one done last), closes the
 * folder, then opens that subfolder; so a folder of k subfolders is read k + 1 times. */
static void open_folders(char *path, size_t length)
{
    static char next[NAME_MAX + 1]; /* a pass's least name so far: used before recursing */
    char done[NAME_MAX + 1] = "";   /* the subfolder this level opened last */
    int started = 0;
    DIR *dir;
    struct dirent *entry;
    struct stat info;
    size_t n;

    for (;;) {
        dir = opendir(path);
        if (dir == NULL)
            return;
        next[0] = '\0';
        while ((entry = readdir(dir)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0
                || (started && strcmp(entry->d_name, done) <= 0)
                || (next[0] != '\0' && strcmp(entry->d_name, next) >= 0)
                || (entry->d_type != DT_DIR && entry->d_type != DT_UNKNOWN))
                continue;
            if (fstatat(dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0
                && S_ISDIR(info.st_mode) && info.st_uid == getuid())
                memcpy(next, entry->d_name, strlen(entry->d_name) + 1);
        }
        closedir(dir);
        n = strlen(next);
        if (n == 0)
            return;
        memcpy(done, next, n + 1);
        started = 1;
        if (length + 1 + n >= PATH_MAX)
            continue;
        path[length] = '/';
        memcpy(path + length + 1, done, n + 1);
        if (chmod(path, 01777) == 0)
            open_folders(path, length + 1 + n);
        path[length] = '\0';
    }
}

/* An RLIMIT_NPROC value less this init's processes (init.py's less_own); 0 where it
 * holds none for the program. */
static int less_own(rlim_t *limit)
{
    if (*limit == RLIM_INFINITY)
        return 1;
    if (*limit <= INIT_OWN_PROCESSES)
        return 0;
    *limit -= INIT_OWN_PROCESSES;
    return 1;
}

/* Take the program uid `uid` with no capability (init.py's _program and
 * _drop_capabilities, the same steps in the same order); 0 at the first that fails. */
static int become_program(uid_t uid)
{
    struct rlimit nproc;
    struct __user_cap_header_struct header;
    struct __user_cap_data_struct data[2];
    uid_t ruid, euid, suid;
    gid_t rgid, egid, sgid;

    if (getrlimit(RLIMIT_NPROC, &nproc) < 0 || !less_own(&nproc.rlim_cur)
        || !less_own(&nproc.rlim_max) || setrlimit(RLIMIT_NPROC, &nproc) < 0)
        return 0;
    if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 || setresuid(uid, uid, uid) < 0)
        return 0;
    memset(&header, 0, sizeof header);
    memset(data, 0, sizeof data); /* effective, permitted, inheritable: all empty */
    header.version = _LINUX_CAPABILITY_VERSION_3;
    header.pid = 0;
    if (syscall(SYS_capset, &header, data) < 0
        || prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0UL, 0UL, 0UL) < 0)
        return 0;
    if (getresuid(&ruid, &euid, &suid) < 0 || getresgid(&rgid, &egid, &sgid) < 0)
        return 0;
    return ruid == uid && euid == uid && suid == uid && rgid == uid && egid == uid
           && sgid == uid;
}

/* In the child: become what nsjail would have started, under the program uid `uid_text`,
 * then exec it (init.py's _program). */
static void program(const char *uid_text, char **argv)
{
    static const int reset[] = {SIGINT, SIGPIPE, SIGXFSZ};
    struct sigaction dfl;
    size_t i;
    char *end;
    unsigned long uid;

    errno = 0;
    uid = strtoul(uid_text, &end, 10);
    if (errno != 0 || end == uid_text || *end != '\0' || uid != (uid_t)uid)
        _exit(INIT_NOT_STARTED);
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    if (argv[0] != NULL && setsid() >= 0) {
        for (i = 0; i < sizeof reset / sizeof reset[0]; i++)
            if (sigaction(reset[i], &dfl, NULL) < 0)
                _exit(INIT_NOT_STARTED);
        if (become_program((uid_t)uid))
            execv(argv[0], argv);
    }
    _exit(INIT_NOT_STARTED);
}

/* Write every byte of `parts` to `fd`, retrying after a signal; 0, or -1 on an error. */
static int write_all(int fd, struct iovec *parts, int count)
{
    while (count > 0) {
        ssize_t written = writev(fd, parts, count);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return -1;
        while (count > 0 && (size_t)written >= parts->iov_len) {
            written -= (ssize_t)parts->iov_len;
            parts++;
            count--;
        }
        if (count > 0) {
            parts->iov_base = (char *)parts->iov_base + written;
            parts->iov_len -= (size_t)written;
        }
    }
    return 0;
}

/* Report the signal death `number` under `nonce` as stderr's last bytes, then exit. */
static void report_signal(const char *nonce, int number)
{
    char tail[16]; /* " N\n", N at most 3 digits (a signal number is below 128) */
    char digits[12];
    size_t n = 0, length = 0;
    unsigned value = (unsigned)number;
    struct iovec parts[3];
    int flags;

    do
        digits[n++] = (char)('0' + value % 10);
    while ((value /= 10) != 0 && n < sizeof digits);
    tail[length++] = ' ';
    while (n > 0)
        tail[length++] = digits[--n];
    tail[length++] = '\n';
    parts[0].iov_base = (void *)signal_report;
    parts[0].iov_len = sizeof signal_report - 1; /* the bytes hold a NUL: never strlen */
    parts[1].iov_base = (void *)nonce;
    parts[1].iov_len = strlen(nonce);
    parts[2].iov_base = tail;
    parts[2].iov_len = length;
    /* the program may have left the shared pipe non-blocking */
    flags = fcntl(2, F_GETFL);
    if (flags >= 0 && fcntl(2, F_SETFL, flags & ~O_NONBLOCK) >= 0)
        (void)write_all(2, parts, 3); /* a failed write (fd 2 closed, say) changes no status */
    _exit(128 + number);
}

int main(int argc, char **argv)
{
    static char work[PATH_MAX] = "/work";
    pid_t pid, ended;
    int status;

    /* only as a jail's pid 1: elsewhere its kill(-1) would reach every process of its uid */
    if (argc < 3 || getpid() != 1)
        return INIT_FAILED;
    open_folders(work, strlen(work));
    pid = fork();
    if (pid < 0)
        _exit(INIT_FAILED);
    if (pid == 0)
        program(argv[2], argv + 3);
    for (;;) {
        ended = waitpid(-1, &status, 0);
        if (ended == pid)
            break;
        if (ended < 0 && errno != EINTR) {
            end_the_rest();
            _exit(INIT_FAILED);
        }
    }
    end_the_rest();
    if (WIFSIGNALED(status))
        report_signal(argv[1], WTERMSIG(status));
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : INIT_FAILED);
}
