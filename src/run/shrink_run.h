/* shrink_run: one input made smaller while a program's run of it keeps a
 * behaviour (`kpath shrink`, the explorer's shrink key): the search of
 * suite/input_shrink.h, each question it asks answered by a run of the
 * program through a run_batch (run_batch.h: timeout, memory limit, own
 * process group and directory), one run at a time, since each question
 * depends on the answer before.
 *
 * The input runs first: without `keep`, the behaviour kept is its own
 * outcome (an input that exits 0 is refused: nothing to keep); with
 * `keep`, every behaviour named must hold for it (else it is refused):
 * an outcome (exit:3, signal:SIGSEGV, timeout, error:...), 'valid' or
 * 'invalid' (the exit codes of `exits`), or a feature its run reached
 * (fn:NAME, a feature command's line).
 *
 * Step API: shrink_run_step starts the next run when none is under way
 * and waits at most wait_ms for it (the CLI loops on it, the explorer
 * slices it between keys); shrink_run_stop kills the run under way (its
 * process group) and ends the search with the smallest input so far.
 * Runs are counted when recorded: the input's own included, a stopped one
 * not.  Run i's text is DIR/NNNNNN/1.txt (NNNNNN = i, 000000 the input).
 *
 * Ownership: a shrink_run owns its search and its copy of the input; it
 * borrows the batch, the graph and the keep strings, which must outlive it. */
#ifndef KPATH_SHRINK_RUN_H
#define KPATH_SHRINK_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "graph/graph.h"
#include "run/oracle_check.h"
#include "run/run_batch.h"
#include "suite/input_shrink.h"

struct shrink_run_options {
    const struct graph *graph; /* NULL: characters only */
    bool chars;                /* ddmin on characters even when the graph parses it */
    const char *const *keep;   /* the behaviours to keep; none: the input's outcome */
    size_t nkeep;
    struct oracle_exits exits; /* for 'valid' and 'invalid' */
};

enum shrink_run_state {
    SHRINK_RUN_RUNNING,
    SHRINK_RUN_DONE,    /* the search is over: the result is 1-minimal */
    SHRINK_RUN_STOPPED, /* shrink_run_stop: the smallest so far */
    SHRINK_RUN_REFUSED, /* the input exits 0 (no keep) or does not show `keep` */
    SHRINK_RUN_FAILED,  /* a run could not be made or recorded (diagnostics) */
};

struct shrink_run;

struct shrink_run *shrink_run_new(struct run_batch *b, const struct shrink_run_options *o,
                                  const char *text, size_t len);
void shrink_run_free(struct shrink_run *s);
/* Start the next run when none is under way, wait at most wait_ms for
 * it, take its answer. */
enum shrink_run_state shrink_run_step(struct shrink_run *s, int wait_ms, struct diag_list *diags);
/* Kill the run under way; the state becomes SHRINK_RUN_STOPPED unless the
 * search was over already. */
void shrink_run_stop(struct shrink_run *s);
enum shrink_run_state shrink_run_state(const struct shrink_run *s);

/* Runs recorded so far (the input's own included). */
size_t shrink_run_runs(const struct shrink_run *s);
/* The smallest input so far that keeps the behaviour (the input itself
 * until the search starts; owned by s). */
const char *shrink_run_result(const struct shrink_run *s, size_t *len);
/* The input's own outcome (NULL until its run is recorded). */
const char *shrink_run_outcome(const struct shrink_run *s);
/* The behaviours kept, "a, b" (empty until the input's run is recorded). */
void shrink_run_kept(const struct shrink_run *s, struct strbuf *out);
/* The search's figures (zero until the input's run is recorded). */
void shrink_run_get_stats(const struct shrink_run *s, struct input_shrink_stats *out);

#endif
