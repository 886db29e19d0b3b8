/* ordered_pool: see ordered_pool.h. */
#include "base/ordered_pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/xalloc.h"

struct pool {
    const struct ordered_pool_ops *ops;
    void *ctx;
    size_t n, next, taken, ahead;
    bool *done;
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a job done, or one taken */
};

struct worker {
    struct pool *pool;
    unsigned index;
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct pool *p = w->pool;
    struct strbuf scratch = STRBUF_INIT;
    pthread_mutex_lock(&p->lock);
    while (p->next < p->n) {
        size_t i = p->next++;
        while (i >= p->taken + p->ahead)
            pthread_cond_wait(&p->changed, &p->lock);
        pthread_mutex_unlock(&p->lock);
        p->ops->work(p->ctx, i, w->index, &scratch);
        pthread_mutex_lock(&p->lock);
        p->done[i] = true;
        pthread_cond_broadcast(&p->changed);
    }
    pthread_mutex_unlock(&p->lock);
    strbuf_free(&scratch);
    return NULL;
}

static void run_here(size_t n, const struct ordered_pool_ops *ops, void *ctx)
{
    struct strbuf scratch = STRBUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (ops->waiting)
            ops->waiting(ctx, i);
        ops->work(ctx, i, 0, &scratch);
        ops->take(ctx, i);
    }
    strbuf_free(&scratch);
}

void ordered_pool_run(size_t n, unsigned threads, const struct ordered_pool_ops *ops, void *ctx)
{
    if (threads <= 1 || n <= 1) {
        run_here(n, ops, ctx);
        return;
    }
    size_t nthreads = threads < n ? threads : n;
    struct pool p = {.ops = ops, .ctx = ctx, .n = n, .ahead = nthreads * ORDERED_POOL_AHEAD,
                     .done = xcalloc(n, sizeof(bool))};
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.changed, NULL);
    pthread_t *tids = xcalloc(nthreads, sizeof *tids);
    struct worker *workers = xcalloc(nthreads, sizeof *workers);
    size_t started = 0;
    for (; started < nthreads; started++) {
        workers[started] = (struct worker){&p, (unsigned)started};
        if (pthread_create(&tids[started], NULL, worker_main, &workers[started]) != 0)
            break;
    }
    if (started == 0) { /* no thread to be had */
        run_here(n, ops, ctx);
    } else {
        for (size_t i = 0; i < n; i++) {
            if (ops->waiting)
                ops->waiting(ctx, i);
            pthread_mutex_lock(&p.lock);
            while (!p.done[i])
                pthread_cond_wait(&p.changed, &p.lock);
            pthread_mutex_unlock(&p.lock);
            ops->take(ctx, i);
            pthread_mutex_lock(&p.lock);
            p.taken = i + 1;
            pthread_cond_broadcast(&p.changed);
            pthread_mutex_unlock(&p.lock);
        }
    }
    for (size_t t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    free(workers);
    free(tids);
    free(p.done);
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
}
