/* diag.c - diagnostics through a bounded buffer and a writer thread (see
 * diag.h). */
#include "diag.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"

struct Diag {
    FILE *out;
    char prefix[64];
    size_t cap;
    pthread_mutex_t lock;
    pthread_cond_t wake; /* lines wait, or stopping */
    pthread_cond_t idle; /* the writer has written all and waits */
    Buf waiting;         /* lines not yet taken by the writer */
    unsigned long dropped, dropped_unsaid;
    bool stopping, done;
    pthread_t writer;
};

static void *writer_main(void *arg)
{
    Diag *d = arg;
    Buf taken;
    buf_init(&taken);
    pthread_mutex_lock(&d->lock);
    for (;;) {
        while (!d->waiting.len && !d->dropped_unsaid && !d->stopping) {
            pthread_cond_broadcast(&d->idle);
            pthread_cond_wait(&d->wake, &d->lock);
        }
        if (!d->waiting.len && !d->dropped_unsaid)
            break; /* stopping, and nothing left */
        /* Swap the buffers: the loop goes on queueing while this one
         * writes, however long the write blocks. */
        Buf t = taken;
        taken = d->waiting;
        d->waiting = t;
        buf_clear(&d->waiting);
        unsigned long lost = d->dropped_unsaid;
        d->dropped_unsaid = 0;
        pthread_mutex_unlock(&d->lock);
        if (d->out) {
            fwrite(taken.data, 1, taken.len, d->out);
            if (lost)
                fprintf(d->out, "%s%lu diagnostic line%s dropped: stderr was not read\n",
                        d->prefix, lost, lost == 1 ? "" : "s");
            fflush(d->out);
        }
        buf_clear(&taken);
        pthread_mutex_lock(&d->lock);
    }
    d->done = true;
    pthread_cond_broadcast(&d->idle);
    pthread_mutex_unlock(&d->lock);
    buf_free(&taken);
    return NULL;
}

Diag *diag_new(FILE *out, const char *prefix, size_t cap, Err *err)
{
    Diag *d = calloc(1, sizeof *d);
    if (!d) {
        err_set(err, "out of memory for the diagnostics");
        return NULL;
    }
    d->out = out;
    snprintf(d->prefix, sizeof d->prefix, "%s", prefix ? prefix : "");
    d->cap = cap ? cap : DIAG_BUFFER_MAX;
    buf_init(&d->waiting);
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->wake, NULL);
    pthread_cond_init(&d->idle, NULL);
    int rc = pthread_create(&d->writer, NULL, writer_main, d);
    if (rc != 0) {
        err_set(err, "cannot start the diagnostics' writer: %s", strerror(rc));
        pthread_cond_destroy(&d->idle);
        pthread_cond_destroy(&d->wake);
        pthread_mutex_destroy(&d->lock);
        free(d);
        return NULL;
    }
    return d;
}

void diag_say(Diag *d, const char *fmt, va_list ap)
{
    if (!d)
        return;
    char line[1024];
    int n = vsnprintf(line, sizeof line, fmt, ap);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    pthread_mutex_lock(&d->lock);
    if (d->waiting.len + strlen(d->prefix) + len + 1 > d->cap) {
        d->dropped++;
        d->dropped_unsaid++;
    } else {
        buf_puts(&d->waiting, d->prefix);
        buf_append(&d->waiting, line, len);
        buf_puts(&d->waiting, "\n");
    }
    pthread_cond_signal(&d->wake);
    pthread_mutex_unlock(&d->lock);
}

void diag_printf(Diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_say(d, fmt, ap);
    va_end(ap);
}

unsigned long diag_dropped(Diag *d)
{
    pthread_mutex_lock(&d->lock);
    unsigned long n = d->dropped;
    pthread_mutex_unlock(&d->lock);
    return n;
}

void diag_free(Diag *d, double timeout_s)
{
    if (!d)
        return;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long long ns = (long long)until.tv_nsec + (long long)(timeout_s * 1e9);
    until.tv_sec += (time_t)(ns / 1000000000LL);
    until.tv_nsec = (long)(ns % 1000000000LL);
    pthread_mutex_lock(&d->lock);
    d->stopping = true;
    pthread_cond_signal(&d->wake);
    int rc = 0;
    while (!d->done && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&d->idle, &d->lock, &until);
    bool done = d->done;
    pthread_mutex_unlock(&d->lock);
    if (!done) {
        /* Blocked on an output nobody reads: it holds d; the exit takes
         * both. */
        pthread_detach(d->writer);
        return;
    }
    pthread_join(d->writer, NULL);
    buf_free(&d->waiting);
    pthread_cond_destroy(&d->idle);
    pthread_cond_destroy(&d->wake);
    pthread_mutex_destroy(&d->lock);
    free(d);
}
