/* run_report: relating the behaviour a results file records to the k-paths
 * of its inputs — the question of the k-path paper: does covering more input
 * structure cover more behaviour?
 *
 * For each record whose input is still there unchanged (same SHA-256) and
 * parses, its k-paths for k = 1..K are found (input_kpaths, as for `kpath
 * coverage`), and its behaviour is its set of features.  Per k:
 *  - covered: the k-paths of all those inputs together, out of the grammar's;
 *  - correlation: Pearson's r across the inputs between the number of
 *    k-paths of an input and the number of features of its run (NAN when
 *    fewer than two inputs or either number never varies);
 *  - suite: a k-path suite drawn from the inputs — greedily the input adding
 *    the most k-paths not covered yet, until every k-path they cover is —
 *    and the features its runs reach, against the mean over RUN_REPORT_DRAWS
 *    draws (seeded, src/base/rng) of as many inputs taken at random.
 * Inputs are taken in path order, so the report does not depend on the
 * order in which parallel runs ended, and a merge of shards reports as the
 * single run does.
 * Outcome classes (any grammar or none): how many runs ended each way, and
 * the smallest input (by size, then path) of each class.
 *
 * Ownership: a run_report owns its arrays; it refers to the results' input
 * paths, so the results must outlive it. */
#ifndef KPATH_RUN_REPORT_H
#define KPATH_RUN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/graph.h"
#include "parse/parse.h"
#include "run/results.h"

#define RUN_REPORT_DRAWS 100

struct run_report_class {
    const char *outcome;  /* borrowed from a record */
    size_t count;
    const char *smallest; /* the input, borrowed */
    uint64_t smallest_size;
};

struct run_report_k {
    uint32_t k;
    uint64_t total;          /* k-paths of the grammar; UINT64_MAX when saturated */
    uint64_t covered;
    double correlation;
    size_t suite_size;
    size_t suite_features;
    double random_features;
};

struct run_report {
    size_t runs;              /* records */
    size_t features;          /* distinct features reached by all runs */
    struct run_report_class *classes; /* exit:0 first, then by count, then name */
    size_t nclasses;
    size_t measured;          /* inputs parsed for the k-path part */
    size_t not_measured;      /* missing, changed, or not parsing (a warning each) */
    struct run_report_k *ks;  /* K of them; NULL without a grammar */
    uint32_t K;
};

/* Outcome classes only: no grammar needed. */
void run_report_outcomes(const struct results *r, struct run_report *out);
/* Everything; warnings for inputs that cannot be measured go to diags. */
void run_report_compute(const struct results *r, const struct graph *g, uint32_t K,
                        const struct parse_options *po, uint64_t seed, struct run_report *out,
                        struct diag_list *diags);
void run_report_free(struct run_report *rep);

/* The same in steps, for a caller that must stay responsive (the TUI): each
 * unit of work measures one input or does one k.  `out` is filled as the
 * job goes (the rows of k appear at the end) and stays the caller's: after
 * run_report_job_free, complete or not, run_report_free frees it.  The
 * results, graph and out must outlive the job. */
struct run_report_job;
struct run_report_job *run_report_begin(const struct results *r, const struct graph *g,
                                        uint32_t K, const struct parse_options *po,
                                        uint64_t seed, struct run_report *out);
/* Do up to max_units units; false when the report is complete. */
bool run_report_step(struct run_report_job *j, size_t max_units, struct diag_list *diags);
/* Units done and in all (inputs + K). */
void run_report_progress(const struct run_report_job *j, size_t *done, size_t *total);
void run_report_job_free(struct run_report_job *j);

/* Pearson's correlation coefficient of x and y; NAN when n < 2 or either
 * has no variance. */
double run_report_pearson(const double *x, const double *y, size_t n);

#endif
