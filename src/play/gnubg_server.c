/* gnubg_server.c - gnubg as an external-player server, started and stopped
 * by process id (see gnubg_server.h).
 *
 * gnubg reads its settings and then `external 127.0.0.1:PORT` from a
 * command file on its standard input; `external` never returns, so the end
 * of that file does no harm. Its output goes to a log file rather than a
 * pipe: nobody has to drain it while the games run, and its last line says
 * why a start failed. It is ready when the log says "Waiting for a
 * connection". The port is one the kernel just handed out; should another
 * process take it first, gnubg cannot listen and exits, and the start is
 * tried again on a new port. */
#include "gnubg_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
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

#define START_TRIES 3
#define DEFAULT_START_TIMEOUT 20.0
#define STOP_GRACE 1.0 /* seconds between SIGTERM and SIGKILL */

struct GnubgServer {
    pid_t pid;
    bool reaped;
    char addr[32];
    char dir[64];  /* our temporary folder: the command file and the log */
    char cmd[96];
    char log[96];
};

static void sleep_s(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&t, &t) < 0 && errno == EINTR) {
    }
}

/* A loopback port nothing listens on right now. */
static int free_port(Err *err)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return err_set(err, "cannot make a socket: %s", strerror(errno)), -1;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = -1;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    else
        err_set(err, "cannot find a free loopback port: %s", strerror(errno));
    close(fd);
    return port;
}

static bool write_commands(const GnubgServer *g, const GnubgServerOptions *o, Err *err)
{
    FILE *f = fopen(g->cmd, "w");
    if (!f)
        return err_set(err, "cannot write %s: %s", g->cmd, strerror(errno));
    fprintf(f,
            "set cube use %s\n"
            "set jacoby %s\n"
            "set beavers %d\n"
            "set evaluation chequerplay evaluation plies %d\n"
            "set evaluation cubedecision evaluation plies %d\n"
            "external %s\n",
            o->cube ? "on" : "off", o->jacoby ? "on" : "off", o->beavers, o->plies, o->plies,
            g->addr);
    bool ok = fflush(f) == 0;
    ok = fclose(f) == 0 && ok;
    return ok ? true : err_set(err, "cannot write %s", g->cmd);
}

/* The child: its own process group, the command file as stdin, the log as
 * stdout and stderr, no descriptor of ours (a socket of another game kept
 * open in gnubg would never see its peer leave), then gnubg. */
static void exec_child(const GnubgServer *g, const char *binary, pid_t parent)
{
    setpgid(0, 0);
    /* If the referee dies without stopping it (kill -9, a crash), gnubg is
     * told to stop too instead of listening forever. The signal comes when
     * the thread that started it ends, which is never before its games. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(127); /* the referee died before prctl */
    int in = open(g->cmd, O_RDONLY);
    int out = open(g->log, O_WRONLY | O_APPEND);
    if (in < 0 || out < 0)
        _exit(127);
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = 3; fd < max; fd++)
        close(fd);
    execl(binary, binary, "-t", "-q", (char *)NULL);
    dprintf(2, "cannot run %s: %s\n", binary, strerror(errno));
    _exit(127);
}

/* The last non-empty line of the log (for error messages), and whether it
 * says gnubg listens. */
static bool read_log(const GnubgServer *g, char *last, size_t size)
{
    last[0] = '\0';
    FILE *f = fopen(g->log, "r");
    if (!f)
        return false;
    char line[512];
    bool listening = false;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "Waiting for a connection"))
            listening = true;
        line[strcspn(line, "\r\n")] = '\0';
        size_t n = strlen(line);
        if (n > 0) { /* cut to the caller's size: a message, not data */
            if (n >= size)
                n = size - 1;
            memcpy(last, line, n);
            last[n] = '\0';
        }
    }
    fclose(f);
    return listening;
}

typedef enum StartResult { START_OK, START_RETRY, START_FAILED } StartResult;

static StartResult start_once(GnubgServer *g, const GnubgServerOptions *o, Err *err)
{
    int port = free_port(err);
    if (port < 0)
        return START_FAILED;
    snprintf(g->addr, sizeof g->addr, "127.0.0.1:%d", port);
    if (!write_commands(g, o, err))
        return START_FAILED;
    int log = open(g->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (log < 0) {
        err_set(err, "cannot write %s: %s", g->log, strerror(errno));
        return START_FAILED;
    }
    close(log);
    const char *binary = o->binary ? o->binary : GNUBG_DEFAULT_BINARY;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        err_set(err, "cannot start %s: %s", binary, strerror(errno));
        return START_FAILED;
    }
    if (pid == 0)
        exec_child(g, binary, parent);
    g->pid = pid;
    g->reaped = false;

    double timeout = o->start_timeout > 0 ? o->start_timeout : DEFAULT_START_TIMEOUT;
    double deadline = clock_now() + timeout;
    char last[256];
    for (;;) {
        if (read_log(g, last, sizeof last))
            return START_OK;
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            g->reaped = true;
            bool taken = strstr(last, "in use") != NULL;
            err_set(err, "%s exited before listening on %s%s%s", binary, g->addr,
                    last[0] ? ": " : "", last);
            return taken ? START_RETRY : START_FAILED;
        }
        if (clock_now() > deadline) {
            err_set(err, "%s was not listening on %s after %.0f s%s%s", binary, g->addr,
                    timeout, last[0] ? "; it said: " : "", last);
            return START_FAILED;
        }
        sleep_s(0.02);
    }
}

/* Kills and reaps the process if it still runs; leaves the files. */
static void stop_process(GnubgServer *g)
{
    if (g->pid <= 0 || g->reaped)
        return;
    kill(g->pid, SIGTERM);
    double deadline = clock_now() + STOP_GRACE;
    int status;
    while (waitpid(g->pid, &status, WNOHANG) != g->pid) {
        if (clock_now() > deadline) {
            kill(g->pid, SIGKILL);
            while (waitpid(g->pid, &status, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        sleep_s(0.01);
    }
    g->reaped = true;
}

GnubgServer *gnubg_server_start(const GnubgServerOptions *o, Err *err)
{
    if (o->plies < 0 || o->plies > 4) {
        err_set(err, "gnubg plies must be 0 to 4, not %d", o->plies);
        return NULL;
    }
    if (o->beavers < 0 || o->beavers > 15) {
        err_set(err, "gnubg beavers must be 0 to 15, not %d", o->beavers);
        return NULL;
    }
    GnubgServer *g = calloc(1, sizeof *g);
    if (!g) {
        err_set(err, "out of memory");
        return NULL;
    }
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !tmp[0] || strlen(tmp) > 32)
        tmp = "/tmp";
    snprintf(g->dir, sizeof g->dir, "%s/shesh-gnubg-XXXXXX", tmp);
    if (!mkdtemp(g->dir)) {
        err_set(err, "cannot make a folder in %s: %s", tmp, strerror(errno));
        free(g);
        return NULL;
    }
    snprintf(g->cmd, sizeof g->cmd, "%s/commands", g->dir);
    snprintf(g->log, sizeof g->log, "%s/output", g->dir);
    for (int i = 0; i < START_TRIES; i++) {
        StartResult r = start_once(g, o, err);
        if (r == START_OK)
            return g;
        stop_process(g);
        if (r == START_FAILED)
            break;
    }
    gnubg_server_stop(g);
    return NULL;
}

const char *gnubg_server_addr(const GnubgServer *g)
{
    return g->addr;
}

pid_t gnubg_server_pid(const GnubgServer *g)
{
    return g->pid;
}

bool gnubg_server_alive(GnubgServer *g)
{
    if (g->pid <= 0 || g->reaped)
        return false;
    int status;
    if (waitpid(g->pid, &status, WNOHANG) == g->pid)
        g->reaped = true;
    return !g->reaped;
}

void gnubg_server_stop(GnubgServer *g)
{
    if (!g)
        return;
    stop_process(g);
    unlink(g->cmd);
    unlink(g->log);
    rmdir(g->dir);
    free(g);
}
