/* ordered_pool: every job worked once, taken in order, by workers numbered
 * below the thread count, never more than ORDERED_POOL_AHEAD jobs per
 * thread ahead of the one taken; and all in the calling thread with one
 * thread. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "harness.h"
#include "base/ordered_pool.h"
#include "base/xalloc.h"

struct record {
    size_t n;
    unsigned threads;
    int *worked;          /* times each job was worked */
    unsigned *by;         /* the worker that did it */
    size_t *taken_order;  /* take's i, in calls */
    size_t ntaken;        /* jobs taken (read by workers under the lock) */
    size_t most_ahead;    /* the largest i - ntaken seen by work */
    size_t waited;        /* waiting calls, each for the job about to be taken */
    bool waiting_in_order;
    pthread_t caller;
    bool work_off_caller; /* some work ran outside the calling thread */
    size_t early;         /* jobs 1 .. threads * AHEAD - 1 worked */
    pthread_mutex_t lock;
    pthread_cond_t changed;
};

static void work(void *ctx, size_t i, unsigned worker, struct strbuf *scratch)
{
    struct record *r = ctx;
    strbuf_addch(scratch, 'x'); /* the worker's own: no lock */
    size_t bound = (size_t)r->threads * ORDERED_POOL_AHEAD;
    pthread_mutex_lock(&r->lock);
    /* Job 0 waits until the others have run ahead as far as they may, so
     * that the bound is reached whatever the scheduling (10 s at most: a
     * pool with a smaller bound fails the check below instead of hanging). */
    if (i == 0 && r->threads > 1) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 10;
        while (r->early < bound - 1)
            if (pthread_cond_timedwait(&r->changed, &r->lock, &until) != 0)
                break;
    }
    if (i >= 1 && i < bound) {
        r->early++;
        pthread_cond_broadcast(&r->changed);
    }
    r->worked[i]++;
    r->by[i] = worker;
    if (i >= r->ntaken && i - r->ntaken > r->most_ahead)
        r->most_ahead = i - r->ntaken;
    if (!pthread_equal(pthread_self(), r->caller))
        r->work_off_caller = true;
    pthread_mutex_unlock(&r->lock);
}

static void waiting(void *ctx, size_t i)
{
    struct record *r = ctx;
    r->waiting_in_order = r->waiting_in_order && i == r->waited;
    r->waited++;
}

static void take(void *ctx, size_t i)
{
    struct record *r = ctx;
    pthread_mutex_lock(&r->lock);
    r->taken_order[r->ntaken++] = i;
    pthread_mutex_unlock(&r->lock);
}

static void run_pool(struct record *r, size_t n, unsigned threads)
{
    *r = (struct record){.n = n, .threads = threads, .worked = xcalloc(n, sizeof(int)),
                         .by = xcalloc(n, sizeof(unsigned)),
                         .taken_order = xcalloc(n, sizeof(size_t)), .waiting_in_order = true,
                         .caller = pthread_self()};
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->changed, NULL);
    static const struct ordered_pool_ops ops = {work, waiting, take};
    ordered_pool_run(n, threads, &ops, r);
}

static void free_record(struct record *r)
{
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->changed);
    free(r->worked);
    free(r->by);
    free(r->taken_order);
}

TEST(ordered_pool_takes_in_order_and_bounds_the_run_ahead)
{
    struct record r;
    run_pool(&r, 200, 3);
    bool once = true, ordered = true, numbered = true;
    for (size_t i = 0; i < 200; i++) {
        once = once && r.worked[i] == 1;
        ordered = ordered && r.taken_order[i] == i;
        numbered = numbered && r.by[i] < 3;
    }
    CHECK(once);
    CHECK(ordered);
    CHECK(numbered);
    CHECK_INT(r.ntaken, 200);
    CHECK_INT(r.waited, 200);
    CHECK(r.waiting_in_order);
    CHECK(r.work_off_caller);
    /* While job 0 waits, the other two threads run ahead to the bound and
     * stop there: jobs 1 .. 3 * AHEAD - 1 (the bound is on the job a worker
     * starts, counted from the one taken). */
    CHECK(r.most_ahead <= 3 * ORDERED_POOL_AHEAD - 1);
    CHECK(r.most_ahead >= 3 * ORDERED_POOL_AHEAD - 1);
    free_record(&r);
}

TEST(ordered_pool_with_one_thread_runs_in_the_caller)
{
    struct record r;
    run_pool(&r, 5, 1);
    bool once = true, ordered = true;
    for (size_t i = 0; i < 5; i++) {
        once = once && r.worked[i] == 1 && r.by[i] == 0;
        ordered = ordered && r.taken_order[i] == i;
    }
    CHECK(once);
    CHECK(ordered);
    CHECK(!r.work_off_caller);
    CHECK(r.waiting_in_order);
    free_record(&r);
    run_pool(&r, 0, 4); /* no jobs: nothing is called */
    CHECK_INT(r.ntaken, 0);
    CHECK_INT(r.waited, 0);
    free_record(&r);
}
