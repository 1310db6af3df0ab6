/* cli_watch.h - a long job (a match, a rollout) on a thread of its own,
 * while the main thread shows its progress and takes SIGINT and SIGTERM for
 * it.
 *
 * The job's threads never see the two signals (a wait inside a player, a
 * remote one's read say, must not be cut short by them): the main thread
 * counts them, and its tick decides what a first and a second one mean (stop
 * cleanly, stop at once). They are counted from cli_signals_catch() on, so
 * that one sent while the job is being set up is not lost (a job started in
 * the background of a shell ignores SIGINT until then). */
#ifndef SHESH_CLI_WATCH_H
#define SHESH_CLI_WATCH_H

#include <stdbool.h>

#include "err.h"

/* Counts SIGINT and SIGTERM from now on, instead of dying of them. */
void cli_signals_catch(void);
/* Their default actions again. */
void cli_signals_release(void);
/* How many arrived since cli_signals_catch(). */
int cli_signals_seen(void);

typedef struct CliWatch {
    bool (*work)(void *ctx, Err *err); /* the job, on its own thread */
    /* On the main thread every `period` seconds while the job runs, with
     * the signals seen so far: where progress is shown and the job told to
     * stop. */
    void (*tick)(void *ctx, int signals);
    void *ctx;
    double period;
} CliWatch;

/* Runs the job to its end. False when it failed (err is the job's) or no
 * thread could be started for it. */
bool cli_watch_run(const CliWatch *w, Err *err);

#endif
