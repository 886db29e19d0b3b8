/* run_batch: texts made in memory (by a generator, a reducer) run through a
 * program in batches, each batch a campaign (campaign.h) over files written
 * for it, for the commands and the explorer's jobs that make inputs
 * themselves (kpath target, bonsai and shrink; the explorer's shrink key).
 *
 * A batch works in one directory of its own: runs_dir (made new or empty,
 * outdir.h) or a new temporary one, removed by run_batch_close.  Every
 * text becomes DIR/LABEL/NNNN.txt and every run a record of
 * DIR/results.jsonl, a results file `kpath run --report`, explain and reduce
 * read like any other.  Batches append to it (each text is a new file, so a
 * record is never replaced); from the second batch on a campaign never
 * stops early because its runs all fail alike.
 *
 * Step API, like the campaign's: run_batch_start writes a batch's texts and
 * opens its campaign, which the caller steps (campaign_step: the CLI in a
 * loop, the explorer a slice at a time) or stops (campaign_stop kills the
 * runs), then run_batch_finish closes it and reads every record again.
 * One batch at a time.
 *
 * Ownership: a run_batch owns its collectors, results header, copies of the
 * command's words, directory path, the campaign under way and the results
 * it loaded; the options' strings are copied. */
#ifndef KPATH_RUN_BATCH_H
#define KPATH_RUN_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "run/campaign.h"
#include "run/collect_set.h"
#include "run/results.h"
#include "run/runner.h"

struct run_batch_options {
    struct runner_options runner;
    char *const *argv;           /* the command ("{}": the input's path) */
    size_t nargv;
    struct collect_spec collect; /* the collectors beyond the outcome */
    const char *runs_dir;        /* NULL: a temporary directory */
    bool keep_going;             /* the first batch too runs on when its runs fail alike */
    const char *grammar;         /* the grammar file (hashed for the header) */
    const char *start;           /* the start rule given, or NULL */
};

struct run_batch;

/* Make the collectors and the working directory.  NULL with diagnostics
 * when a collector cannot work or the directory cannot be made. */
struct run_batch *run_batch_new(const struct run_batch_options *o, struct diag_list *diags);
/* Write texts[i] (lens[i] bytes) to DIR/LABEL/0001.txt, ... and open the
 * campaign that runs them (owned by the batch, until run_batch_finish).
 * paths_out (n entries, may be NULL) receives each file's path (owned by
 * the batch, valid until run_batch_close).  NULL with diagnostics. */
struct campaign *run_batch_start(struct run_batch *b, const char *label, char *const *texts,
                                 const size_t *lens, size_t n, const char **paths_out,
                                 struct diag_list *diags);
/* Close the campaign of run_batch_start (whatever its state: done, failed
 * or stopped) and read every record of the results file again.  False
 * with diagnostics when the file cannot be read. */
bool run_batch_finish(struct run_batch *b, struct diag_list *diags);
/* Every record read by the last run_batch_finish. */
const struct results *run_batch_results(const struct run_batch *b);
/* The record of a path run_batch_start gave, or NULL (not recorded). */
const struct run_record *run_batch_record(const struct run_batch *b, const char *path);
/* The working directory, its results file, and whether the directory is a
 * temporary one (removed at the end). */
const char *run_batch_dir(const struct run_batch *b);
const char *run_batch_results_path(const struct run_batch *b);
bool run_batch_temporary(const struct run_batch *b);
/* The collect list ("outcome, gcov"), for reports. */
void run_batch_collect_names(const struct run_batch *b, struct strbuf *out);
/* Stop a campaign under way (its runs are killed), remove the temporary
 * directory (not a runs_dir) and free everything. */
void run_batch_close(struct run_batch *b);

#endif
