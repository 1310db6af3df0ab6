/* cli_watch.c - a long job on its own thread, watched from the main one
 * (see cli_watch.h). */
#include "cli_watch.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

/* Written by the handler only: a signal handler can reach nothing else. */
static volatile sig_atomic_t signals_seen;

static void on_signal(int sig)
{
    (void)sig;
    signals_seen++;
}

void cli_signals_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void cli_signals_release(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

int cli_signals_seen(void)
{
    return signals_seen;
}

typedef struct Job {
    const CliWatch *w;
    bool ok;
    Err err;
    atomic_bool finished;
} Job;

static void *job_main(void *arg)
{
    Job *j = arg;
    j->ok = j->w->work(j->w->ctx, &j->err);
    atomic_store(&j->finished, true);
    return NULL;
}

bool cli_watch_run(const CliWatch *w, Err *err)
{
    /* Blocked while the thread is made: it and every thread it starts
     * inherit the mask. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    Job j = {w, false, {{0}}, false};
    pthread_t tid;
    bool started = pthread_create(&tid, NULL, job_main, &j) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!started)
        return err_set(err, "cannot start a thread");
    long ns = (long)(w->period * 1e9);
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    while (!atomic_load(&j.finished)) {
        nanosleep(&ts, NULL);
        w->tick(w->ctx, signals_seen);
    }
    pthread_join(tid, NULL);
    if (!j.ok)
        *err = j.err;
    return j.ok;
}
