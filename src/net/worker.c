/* worker.c - the thread pool (see worker.h): one mutex-protected FIFO of
 * jobs to run, one of jobs done, and an eventfd that wakes the owner. */
#include "worker.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

typedef struct JobList {
    WorkerJob *head, *tail;
} JobList;

/* One thread's own: the pool it serves and its state. */
typedef struct WorkerSlot {
    WorkerPool *pool;
    void *state;
} WorkerSlot;

struct WorkerPool {
    pthread_mutex_t lock;
    pthread_cond_t work;  /* a job was queued, or stopping */
    pthread_cond_t idle;  /* a thread ended */
    JobList todo, done;
    bool stopping;
    int nthreads;
    int running;          /* threads not yet ended */
    bool joined;
    int efd;
    pthread_t *threads;
    WorkerSlot *slots;
    WorkerThreadState per_thread; /* make == NULL: none */
    int nslots;
};

static void list_push(JobList *l, WorkerJob *j)
{
    j->next = NULL;
    if (l->tail)
        l->tail->next = j;
    else
        l->head = j;
    l->tail = j;
}

static WorkerJob *list_pop(JobList *l)
{
    WorkerJob *j = l->head;
    if (j) {
        l->head = j->next;
        if (!l->head)
            l->tail = NULL;
        j->next = NULL;
    }
    return j;
}

int worker_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

static void *worker_main(void *arg)
{
    WorkerSlot *slot = arg;
    WorkerPool *p = slot->pool;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        WorkerJob *j = list_pop(&p->todo);
        if (!j) {
            if (p->stopping)
                break;
            pthread_cond_wait(&p->work, &p->lock);
            continue;
        }
        pthread_mutex_unlock(&p->lock);
        j->run(j, slot->state);
        pthread_mutex_lock(&p->lock);
        bool was_empty = p->done.head == NULL;
        list_push(&p->done, j);
        /* One wake-up per batch: the owner collects the whole list. */
        if (was_empty) {
            uint64_t one = 1;
            ssize_t w = write(p->efd, &one, sizeof one);
            (void)w; /* cannot fail short of a counter overflow */
        }
    }
    p->running--;
    pthread_cond_broadcast(&p->idle);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

WorkerPool *worker_pool_new(int threads, const WorkerThreadState *per_thread, Err *err)
{
    if (threads < 1 || threads > 1024) {
        err_set(err, "thread count %d is outside 1..1024", threads);
        return NULL;
    }
    WorkerPool *p = calloc(1, sizeof *p);
    if (!p) {
        err_set(err, "out of memory for the thread pool");
        return NULL;
    }
    p->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    p->threads = calloc((size_t)threads, sizeof *p->threads);
    p->slots = calloc((size_t)threads, sizeof *p->slots);
    if (p->efd < 0 || !p->threads || !p->slots) {
        err_set(err, "cannot set up the thread pool: %s", strerror(errno));
        if (p->efd >= 0)
            close(p->efd);
        free(p->threads);
        free(p->slots);
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->idle, NULL);
    if (per_thread && per_thread->make)
        p->per_thread = *per_thread;
    p->nslots = threads;
    for (int i = 0; i < threads; i++) {
        p->slots[i].pool = p;
        if (p->per_thread.make &&
            !(p->slots[i].state = p->per_thread.make(p->per_thread.ctx, err))) {
            worker_pool_free(p);
            return NULL;
        }
    }
    for (int i = 0; i < threads; i++) {
        /* Counted before it starts, so a stop never misses a thread. */
        pthread_mutex_lock(&p->lock);
        p->running++;
        pthread_mutex_unlock(&p->lock);
        int rc = pthread_create(&p->threads[i], NULL, worker_main, &p->slots[i]);
        if (rc != 0) {
            pthread_mutex_lock(&p->lock);
            p->running--;
            pthread_mutex_unlock(&p->lock);
            err_set(err, "cannot start worker thread %d: %s", i + 1, strerror(rc));
            worker_pool_free(p);
            return NULL;
        }
        p->nthreads++;
    }
    return p;
}

void worker_pool_submit(WorkerPool *p, WorkerJob *job)
{
    pthread_mutex_lock(&p->lock);
    list_push(&p->todo, job);
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->lock);
}

int worker_pool_fd(const WorkerPool *p)
{
    return p->efd;
}

WorkerJob *worker_pool_collect(WorkerPool *p)
{
    uint64_t count;
    ssize_t r = read(p->efd, &count, sizeof count);
    (void)r; /* EAGAIN when already drained: nothing to do */
    pthread_mutex_lock(&p->lock);
    WorkerJob *j = p->done.head;
    p->done.head = p->done.tail = NULL;
    pthread_mutex_unlock(&p->lock);
    return j;
}

bool worker_pool_stop(WorkerPool *p, double timeout_s)
{
    if (p->joined)
        return true;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    if (timeout_s >= 0) {
        until.tv_sec += (time_t)timeout_s;
        until.tv_nsec += (long)((timeout_s - (double)(time_t)timeout_s) * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
    }
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_broadcast(&p->work);
    while (p->running > 0) {
        if (timeout_s < 0) {
            pthread_cond_wait(&p->idle, &p->lock);
        } else if (pthread_cond_timedwait(&p->idle, &p->lock, &until) == ETIMEDOUT) {
            break;
        }
    }
    bool all_ended = p->running == 0;
    pthread_mutex_unlock(&p->lock);
    if (!all_ended)
        return false;
    for (int i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    p->joined = true;
    return true;
}

void worker_pool_free(WorkerPool *p)
{
    if (!p)
        return;
    worker_pool_stop(p, -1);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->idle);
    close(p->efd);
    /* Every thread has ended: nobody uses a state any more. */
    for (int i = 0; p->per_thread.free && p->slots && i < p->nslots; i++)
        if (p->slots[i].state)
            p->per_thread.free(p->per_thread.ctx, p->slots[i].state);
    free(p->slots);
    free(p->threads);
    free(p);
}
