/* ordered_pool: independent jobs 0 .. n-1 (the files of a corpus) done by up
 * to `threads` worker threads, each finished job handed back to the calling
 * thread in the order of the list, so that a report, totals and anything
 * learned come out exactly as a run on one thread makes them.
 *
 * The caller's `work(ctx, i, worker, scratch)` runs in a worker, for each job
 * once.  `worker` (0 .. threads-1) says which: state of its own (an
 * accumulator whose sums do not depend on the order of the jobs) needs no
 * lock; `scratch` is a buffer of the worker's own, kept from job to job.  It
 * must touch nothing another job's work writes.  `waiting(ctx, i)` (may be
 * NULL) runs in the calling thread when it starts waiting for job i, and
 * `take(ctx, i)` once job i is done, in the order i = 0, 1, ...: that is
 * where results are reported and merged.  With threads <= 1, n <= 1 or no
 * thread to be had, everything runs in the calling thread, job by job
 * (waiting, work as worker 0, take).
 *
 * Workers run ahead of the job taken by at most ORDERED_POOL_AHEAD jobs per
 * thread, so that one slow file does not leave every other file's result
 * waiting in memory at once. */
#ifndef KPATH_ORDERED_POOL_H
#define KPATH_ORDERED_POOL_H

#include <stddef.h>

#include "base/strbuf.h"

#define ORDERED_POOL_AHEAD 4

struct ordered_pool_ops {
    void (*work)(void *ctx, size_t i, unsigned worker, struct strbuf *scratch);
    void (*waiting)(void *ctx, size_t i);
    void (*take)(void *ctx, size_t i);
};

void ordered_pool_run(size_t n, unsigned threads, const struct ordered_pool_ops *ops, void *ctx);

#endif
