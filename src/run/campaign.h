/* campaign: running a list of inputs through a program and recording what
 * each run did, as a step API (the CLI loops on campaign_step; a TUI can
 * slice it between keys).
 *
 * For each input: read it (size checked first), run the command on a copy
 * of it (runner.h), then let every collector (collect.h) add its features,
 * running its helper when it asks for one, and append the record to the
 * results file with one write (results.h) — so an interrupted campaign keeps
 * every finished record and nothing else.  Inputs are taken in the order
 * given; `--shard I/N` keeps the inputs whose position p (0-based) has
 * p mod N = I-1; `--resume` skips inputs the results file already records;
 * a path given twice runs once; the results file itself is never an input.
 *
 * Failing at once: when each of the first CAMPAIGN_EARLY runs fails the
 * same way — same outcome, same stderr — the campaign stops with a
 * diagnostic that shows the outcome and the first line of stderr, unless
 * keep_going is set; a run that cannot start at all stops it at once.  A
 * campaign whose every input has run is complete, however its runs ended
 * (failing alike then is a warning).
 *
 * Ownership: a campaign owns its runner, its results (the records already in
 * the file when resuming, then each new one) and the results file's
 * descriptor; the options' strings and collectors are borrowed and must
 * outlive it. */
#ifndef KPATH_CAMPAIGN_H
#define KPATH_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/collect.h"
#include "base/diag.h"
#include "run/results.h"
#include "run/runner.h"
#include "base/samples.h"

#define CAMPAIGN_EARLY 5

struct campaign_options {
    struct runner_options runner;
    char *const *argv;             /* the command; "{}" stands for the input's path */
    struct collector *collectors;  /* the outcome collector first */
    size_t ncollectors;
    const char *results_path;
    const struct results_header *header; /* of the results file */
    bool resume;                   /* skip inputs already recorded (else a file with
                                    * records is an error) */
    uint32_t shard_index;          /* 1-based; with shard_count 0 or 1: every input */
    uint32_t shard_count;
    size_t max_input_size;         /* bytes */
    bool keep_going;               /* run on after the first runs all failed alike */
};

struct campaign_progress {
    size_t total;    /* inputs this campaign runs (after shard and resume) */
    size_t done;     /* recorded by this campaign */
    size_t failed;   /* of them, outcome other than exit:0 */
    size_t skipped;  /* already recorded (resume) */
    size_t unreadable; /* inputs that could not be read (a warning each) */
    size_t escaped;  /* processes that left their run's process group (killed) */
    double elapsed_s;
    /* Where the time of the recorded runs went, summed over them: kpath's
     * work before each program started (run directory, input copy, fork),
     * the programs themselves (wall clock), and collection from a program's
     * end to its record (collectors, their helper runs, the record). */
    double start_ms, program_ms, collect_ms;
};

enum campaign_state { CAMPAIGN_RUNNING, CAMPAIGN_DONE, CAMPAIGN_FAILED };

struct campaign;

/* Open the results file and plan the runs.  NULL with diagnostics when the
 * results file cannot be used (another grammar or command, records without
 * resume, unwritable). */
struct campaign *campaign_open(const struct campaign_options *opts,
                               const struct sample_list *inputs, struct diag_list *diags);
/* Start what can start, wait at most wait_ms for a run to end and handle it.
 * Warnings (an unreadable input) and errors go to diags. */
enum campaign_state campaign_step(struct campaign *c, int wait_ms, struct diag_list *diags);
/* Kill every running child now (Ctrl-C); the records so far stay. */
void campaign_stop(struct campaign *c);
void campaign_get_progress(const struct campaign *c, struct campaign_progress *p);
/* Every record of the results file: those there before (resume) and new ones. */
const struct results *campaign_results(const struct campaign *c);
void campaign_free(struct campaign *c);

#endif
