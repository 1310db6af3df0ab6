/* child.c - a command as a child process on a socketpair (see child.h). */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#define KILL_GRACE 1.0 /* seconds between SIGTERM and SIGKILL */
#define KILL_WAIT 5.0  /* seconds to wait for a child to die of SIGKILL */

static void sleep_s(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&t, &t) < 0 && errno == EINTR) {
    }
}

/* The process's environment, for execve (unistd.h declares it only for
 * _GNU_SOURCE). */
extern char **environ;

/* In the child, between fork and exec: only async-signal-safe calls (the
 * referee has other threads, whose locks may be held), so argv and the
 * descriptor bound were made before the fork. */
static void exec_child(int end, char *const argv[], long max_fd, pid_t parent)
{
    setpgid(0, 0);
    /* The referee blocks SIGINT and SIGTERM in its threads and ignores
     * SIGPIPE; an exec keeps both, and an engine that cannot be stopped by
     * SIGTERM or dies of no SIGPIPE is not what its author tested. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    /* The referee killed outright (kill -9, a crash) must not leave the
     * engine running: the shell is told to stop, and an engine the shell
     * started sees the end of its input. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(127);
    /* The socket may itself be 0 or 1 (the referee started with them
     * closed): dup2 onto itself would keep its close-on-exec flag. */
    if (end < 3 && (end = fcntl(end, F_DUPFD, 3)) < 0)
        _exit(127);
    if (dup2(end, 0) < 0 || dup2(end, 1) < 0)
        _exit(127);
    /* No descriptor of ours: another engine's socket kept open here would
     * never see its end of input. */
    for (int fd = 3; fd < max_fd; fd++)
        close(fd);
    execve("/bin/sh", argv, environ);
    static const char msg[] = "cannot run /bin/sh\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(127);
}

bool child_start(Child *c, const char *command, Err *err)
{
    memset(c, 0, sizeof *c);
    c->fd = -1;
    char *cmd = strdup(command);
    if (!cmd)
        return err_set(err, "out of memory for a command");
    char *argv[] = {"sh", "-c", cmd, NULL};
    long max_fd = sysconf(_SC_OPEN_MAX);
    if (max_fd < 0 || max_fd > 65536)
        max_fd = 65536;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        free(cmd);
        return err_set(err, "cannot make a socketpair: %s", strerror(errno));
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        exec_child(sv[1], argv, max_fd, parent);
    free(cmd);
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return err_set(err, "cannot fork: %s", strerror(errno));
    }
    /* Also here: the group must exist before we may signal it, whichever
     * of the two runs first. */
    setpgid(pid, pid);
    close(sv[1]);
    c->pid = pid;
    c->fd = sv[0];
    return true;
}

bool child_exited(Child *c, double wait_s)
{
    if (c->pid <= 0 || c->reaped)
        return true;
    double deadline = clock_now() + wait_s;
    for (;;) {
        pid_t r = waitpid(c->pid, &c->status, WNOHANG);
        if (r == c->pid || (r < 0 && errno == ECHILD)) {
            c->reaped = true;
            return true;
        }
        if (clock_now() >= deadline)
            return false;
        sleep_s(0.005);
    }
}

void child_describe(const Child *c, char *out, size_t size)
{
    if (!c->reaped)
        snprintf(out, size, "running");
    else if (WIFEXITED(c->status))
        snprintf(out, size, "exit status %d", WEXITSTATUS(c->status));
    else if (WIFSIGNALED(c->status))
        snprintf(out, size, "killed by signal %d", WTERMSIG(c->status));
    else
        snprintf(out, size, "gone");
}

void child_stop(Child *c, double grace_s)
{
    if (c->fd >= 0) {
        close(c->fd); /* the end of its input: an engine may stop at that */
        c->fd = -1;
    }
    if (c->pid <= 0)
        return;
    if (!child_exited(c, grace_s)) {
        kill(-c->pid, SIGTERM);
        if (!child_exited(c, KILL_GRACE)) {
            kill(-c->pid, SIGKILL);
            /* A process stuck in the kernel (a dead NFS mount) outlives
             * even SIGKILL for a while: give up rather than hang the run. */
            child_exited(c, KILL_WAIT);
        }
    }
    /* The shell gone, what it started in its group may still run (an
     * engine that ignores the end of its input): the group goes too. The
     * group id is the shell's pid, not reused while any member lives. */
    kill(-c->pid, SIGKILL);
    c->pid = 0;
}
