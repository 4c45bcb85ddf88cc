/* The init of a cold plain Python run's jail, in C: the same contract and behaviour as
 * init.py beside it, whose docstring is the one description of both (read it first), at
 * the cost of an exec instead of a second Python start per cold run.
 *
 * argv: the run's nonce, then the program's argv. Only as the jail's pid 1. The child
 * takes a session of its own, resets SIGINT, SIGPIPE and SIGXFSZ to SIG_DFL and execv's
 * the program (every other signal disposition and the signal mask as nsjail left them;
 * INIT_NOT_STARTED if it cannot); this process reaps until the program has ended,
 * SIGKILLs every other process of the jail and reaps them, then exits with the program's
 * exit code, or for a signal death N writes INIT_SIGNAL_REPORT, the nonce, ' ', N in
 * decimal and '\n' to fd 2 (blocking) and exits 128 + N; INIT_FAILED where it cannot tell.
 *
 * The report's bytes and the exit codes are init.py's constants, never written here:
 * sandbox/_staging.py compiles this file with them as -D defines (`init_defines`), and it
 * does not compile without them. Plain C, libc only, no allocation (the report is
 * written from its parts with writev), every syscall's error handled: a program that
 * lowers this process's RLIMIT_AS or RLIMIT_NOFILE (prlimit, same uid) takes nothing it
 * needs. */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#if !defined(INIT_SIGNAL_REPORT) || !defined(INIT_FAILED) || !defined(INIT_NOT_STARTED)
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

/* In the child: become what nsjail would have started, then exec it (init.py's _program). */
static void program(char **argv)
{
    static const int reset[] = {SIGINT, SIGPIPE, SIGXFSZ};
    struct sigaction dfl;
    size_t i;

    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    if (argv[0] != NULL && setsid() >= 0) {
        for (i = 0; i < sizeof reset / sizeof reset[0]; i++)
            if (sigaction(reset[i], &dfl, NULL) < 0)
                _exit(INIT_NOT_STARTED);
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
    pid_t pid, ended;
    int status;

    /* only as a jail's pid 1: elsewhere its kill(-1) would reach every process of its uid */
    if (argc < 2 || getpid() != 1)
        return INIT_FAILED;
    pid = fork();
    if (pid < 0)
        _exit(INIT_FAILED);
    if (pid == 0)
        program(argv + 2);
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
