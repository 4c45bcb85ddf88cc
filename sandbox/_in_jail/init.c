/* The init of a cold plain Python run's jail, in C: the same contract and behaviour as
 * init.py beside it, whose docstring is the one description of both (read it first), at
 * the cost of an exec instead of a second Python start per cold run.
 *
 * argv: the run's nonce, the program uid, its RLIMIT_FSIZE, then the program's argv. Only
 * as the jail's pid 1. It first copies the inputs from the staging folder into /work
 * (take_inputs; on a failure the inputs report, the nonce, ' ', the errno and '\n' on fd 2
 * and INIT_FAILED). The child takes a session of its own, resets SIGINT, SIGPIPE and SIGXFSZ to
 * SIG_DFL, lowers RLIMIT_NPROC by INIT_OWN_PROCESSES and RLIMIT_NOFILE by INIT_OWN_FILES,
 * sets RLIMIT_FSIZE, drops its supplementary groups,
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
    || !defined(INIT_OWN_PROCESSES) || !defined(INIT_OWN_FILES) || !defined(INIT_INPUTS) \
    || !defined(INIT_INPUTS_REPORT) || !defined(INIT_WORK)
#error "compile with init.py's constants as -D defines (sandbox/_staging.py, init_defines)"
#endif

static const char signal_report[] = INIT_SIGNAL_REPORT;
static const char inputs_report[] = INIT_INPUTS_REPORT;

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

/* Copy the file `name` of the folder `from_fd` into the new file `name` of the working
 * directory, mode 0644 whatever the umask (init.py's _copy); 0, or -1 with errno. Two
 * descriptors. */
static int copy_file(int from_fd, const char *name)
{
    static char buffer[1 << 16];
    int in, out, saved;
    ssize_t got, put, done;

    in = openat(from_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0)
        return -1;
    out = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (out < 0) {
        saved = errno;
        close(in);
        errno = saved;
        return -1;
    }
    for (;;) {
        got = read(in, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        for (done = 0; done < got; done += put) {
            put = write(out, buffer + done, (size_t)(got - done));
            if (put < 0 && errno == EINTR)
                put = 0;
            else if (put <= 0) {
                got = -1;
                break;
            }
        }
        if (got < 0)
            break;
    }
    saved = errno;
    if (got == 0 && fchmod(out, 0644) == 0 && close(out) == 0) {
        close(in);
        return 0;
    }
    if (got == 0)
        saved = errno;
    close(out);
    close(in);
    errno = saved;
    return -1;
}

#define FOLDER_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* Copy the tree of the source folder `from` (a descriptor, this function's: closed here)
 * into the working directory, as init.py's take_inputs: regular files (copy_file) and
 * folders (mode 01777) only, no link followed, anything else EINVAL. Returns a descriptor
 * of `from`'s `..` (opened before `from` is closed; 0 for the `top` folder, whose `..` is
 * not the copy's), or -1 with errno. By descriptors and
 * the working directory, down by name and back up by `..` (before the program starts
 * nothing else writes either tree), never by a path from the root: each step costs the
 * same whatever the depth (red team sb22). One pass over the folder copies its files and
 * makes its subfolders (a directory stream and two files open); then each subfolder is
 * found by name, as the least name after the one done last, the stream closed before the
 * recursion (which gets the subfolder's descriptor alone): whatever the depth, at most
 * three descriptors (OWN_FILES) beside fds 0 to 2. */
static int take_inputs(int from, int top)
{
    static char next[NAME_MAX + 1]; /* a pass's least name so far: used before recursing */
    char done[NAME_MAX + 1] = "";   /* the subfolder this level copied last */
    int started = 0, saved = 0, below, back;
    DIR *dir;
    struct dirent *entry;
    struct stat info;

    dir = fdopendir(from);
    if (dir == NULL) {
        saved = errno;
        close(from);
        errno = saved;
        return -1;
    }
    errno = 0;
    while ((entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        if (fstatat(dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) < 0)
            saved = errno;
        else if (S_ISDIR(info.st_mode)) {
            if (mkdir(entry->d_name, 0700) < 0 || chmod(entry->d_name, 01777) < 0)
                saved = errno;
        } else if (!S_ISREG(info.st_mode))
            saved = EINVAL;
        else if (copy_file(dirfd(dir), entry->d_name) < 0)
            saved = errno;
        if (saved != 0)
            break;
        errno = 0;
    }
    if (saved == 0 && errno != 0)
        saved = errno;
    while (saved == 0) {
        rewinddir(dir);
        next[0] = '\0';
        while ((entry = readdir(dir)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0
                || (started && strcmp(entry->d_name, done) <= 0)
                || (next[0] != '\0' && strcmp(entry->d_name, next) >= 0))
                continue;
            if (fstatat(dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0
                && S_ISDIR(info.st_mode))
                memcpy(next, entry->d_name, strlen(entry->d_name) + 1);
        }
        if (next[0] == '\0') { /* every subfolder done: back up */
            back = top ? 0 : openat(dirfd(dir), "..", FOLDER_FLAGS);
            saved = errno;
            closedir(dir);
            errno = saved;
            return back;
        }
        memcpy(done, next, strlen(next) + 1);
        started = 1;
        below = openat(dirfd(dir), done, FOLDER_FLAGS);
        if (below < 0 || chdir(done) < 0) {
            saved = errno;
            if (below >= 0)
                close(below);
            break;
        }
        closedir(dir);
        back = take_inputs(below, 0);
        if (back < 0)
            return -1; /* errno is the failure's; nothing of this level is open */
        if (chdir("..") < 0) {
            saved = errno;
            close(back);
            errno = saved;
            return -1;
        }
        dir = fdopendir(back);
        if (dir == NULL) {
            saved = errno;
            close(back);
            errno = saved;
            return -1;
        }
    }
    closedir(dir);
    errno = saved;
    return -1;
}

/* An rlimit value less `own` of this init's (init.py's less_own); 0 where it holds none
 * for the program. */
static int less_own(rlim_t *limit, rlim_t own)
{
    if (*limit == RLIM_INFINITY)
        return 1;
    if (*limit <= own)
        return 0;
    *limit -= own;
    return 1;
}

/* The rlimit `kind`, soft and hard, less `own` (init.py's _program); 0 where it fails. */
static int lower(int kind, rlim_t own)
{
    struct rlimit limit;

    return getrlimit(kind, &limit) == 0 && less_own(&limit.rlim_cur, own)
           && less_own(&limit.rlim_max, own) && setrlimit(kind, &limit) == 0;
}

/* Take the program uid `uid` with no capability (init.py's _program and
 * _drop_capabilities, the same steps in the same order), RLIMIT_FSIZE `file_size`; 0 at
 * the first that fails. */
static int become_program(uid_t uid, rlim_t file_size)
{
    struct rlimit fsize;
    struct __user_cap_header_struct header;
    struct __user_cap_data_struct data[2];
    uid_t ruid, euid, suid;
    gid_t rgid, egid, sgid;

    fsize.rlim_cur = fsize.rlim_max = file_size;
    if (!lower(RLIMIT_NPROC, INIT_OWN_PROCESSES) || !lower(RLIMIT_NOFILE, INIT_OWN_FILES)
        || setrlimit(RLIMIT_FSIZE, &fsize) < 0)
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
static void program(const char *uid_text, const char *file_size_text, char **argv)
{
    static const int reset[] = {SIGINT, SIGPIPE, SIGXFSZ};
    struct sigaction dfl;
    size_t i;
    char *end;
    unsigned long uid;
    unsigned long long file_size;

    errno = 0;
    uid = strtoul(uid_text, &end, 10);
    if (errno != 0 || end == uid_text || *end != '\0' || uid != (uid_t)uid)
        _exit(INIT_NOT_STARTED);
    file_size = strtoull(file_size_text, &end, 10);
    if (errno != 0 || end == file_size_text || *end != '\0')
        _exit(INIT_NOT_STARTED);
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    if (argv[0] != NULL && setsid() >= 0) {
        for (i = 0; i < sizeof reset / sizeof reset[0]; i++)
            if (sigaction(reset[i], &dfl, NULL) < 0)
                _exit(INIT_NOT_STARTED);
        if (become_program((uid_t)uid, (rlim_t)file_size))
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

/* Report `head` (`head_length` bytes), `nonce`, ' ', `number` in decimal and '\n' as
 * stderr's last bytes (blocking). */
static void report(const char *head, size_t head_length, const char *nonce, int number)
{
    char tail[16]; /* " N\n", N at most 3 digits (a signal number or an errno) */
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
    parts[0].iov_base = (void *)head;
    parts[0].iov_len = head_length; /* the bytes hold a NUL: never strlen */
    parts[1].iov_base = (void *)nonce;
    parts[1].iov_len = strlen(nonce);
    parts[2].iov_base = tail;
    parts[2].iov_len = length;
    /* the program may have left the shared pipe non-blocking */
    flags = fcntl(2, F_GETFL);
    if (flags >= 0 && fcntl(2, F_SETFL, flags & ~O_NONBLOCK) >= 0)
        (void)write_all(2, parts, 3); /* a failed write (fd 2 closed, say) changes no status */
}

int main(int argc, char **argv)
{
    pid_t pid, ended;
    int status, inputs;

    /* only as a jail's pid 1: elsewhere its kill(-1) would reach every process of its uid */
    if (argc < 4 || getpid() != 1)
        return INIT_FAILED;
    /* the copy's target is the working directory, which is /work again after it */
    inputs = open(INIT_INPUTS, FOLDER_FLAGS);
    if (inputs < 0 || chdir(INIT_WORK) < 0 || take_inputs(inputs, 1) < 0
        || chdir(INIT_WORK) < 0) {
        report(inputs_report, sizeof inputs_report - 1, argv[1], errno);
        _exit(INIT_FAILED);
    }
    pid = fork();
    if (pid < 0)
        _exit(INIT_FAILED);
    if (pid == 0)
        program(argv[2], argv[3], argv + 4);
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
    if (WIFSIGNALED(status)) {
        report(signal_report, sizeof signal_report - 1, argv[1], WTERMSIG(status));
        _exit(128 + WTERMSIG(status));
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : INIT_FAILED);
}
