/* run_cli: running generated inputs through a program for commands that make
 * inputs themselves (`kpath target --run`, `kpath bonsai --run`): the options
 * they share with `kpath run` (limits, feature collectors), and the batches
 * of src/run/run_batch.h (texts written to files and run through a
 * campaign) opened with those options and run by the CLI's loop
 * (campaign_loop.h: the same containment, timeouts and Ctrl-C handling as
 * kpath run).
 *
 * Ownership: a run_cli owns its --features-cmd array (the strings point into
 * argv). */
#ifndef KPATH_CLI_RUN_CLI_H
#define KPATH_CLI_RUN_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "harness_cli.h"
#include "run/results.h"
#include "run/run_batch.h"
#include "run/runner.h"

/* The options, for a command's option table (after its own). */
#define RUN_CLI_OPTIONS                                                                   \
    {"jobs", 'j', "N", "with --run: run N inputs at once (default: the number of cores)"}, \
    {"timeout", 0, "SECONDS", "with --run: kill a run after SECONDS (3 or 3s); 250ms, "    \
                              "2m for other units (default 10)"},                                \
    {"run-max-memory", 0, "N", "with --run: address space of a run; K, M, G suffixes, 0 "   \
                               "for no limit (default 4G)"},                               \
    {"gcov", 0, "BUILD_DIR", "with --run: collect the functions (fn:NAME) each run "        \
                             "executed, as kpath run --gcov"},                             \
    {"lines", 0, NULL, "with --gcov, also the lines (line:FILE:N)"},                       \
    {"node-coverage", 0, NULL, "with --run: collect the functions a Node.js program ran"},  \
    {"features-cmd", 0, "CMD", "with --run: each line `sh -c CMD` prints after a run is a " \
                               "feature (repeatable)"},                                    \
    {"keep-going", 0, NULL, "with --run: go on when the first runs all fail the same way"}, \
    {"runs", 0, "DIR", "with --run: keep the inputs run and DIR/results.jsonl in DIR "      \
                       "(default: a temporary directory, removed at the end)"},             \
    HARNESS_CLI_OPTIONS

struct run_cli {
    struct runner_options runner; /* -j, --timeout, --run-max-memory */
    const char *gcov_dir, *runs_dir;
    bool lines, node, keep_going;
    const char **features_cmds; /* owned array */
    size_t nfeatures_cmds;
    char **command;             /* after "--" (borrowed from argv); NULL: no --run */
    size_t ncommand;
    struct harness_cli harness; /* --harness: the program in place of "-- COMMAND" */
};

void run_cli_init(struct run_cli *r);
void run_cli_free(struct run_cli *r);
/* Handle one of RUN_CLI_OPTIONS: CLI_CONTINUE, EXIT_USAGE after a message,
 * or CLI_NOT_MINE. */
int run_cli_option(const struct cli_command *cmd, const char *name, const char *value,
                   struct run_cli *r);
/* The program to run: what follows the first "--" of the command line
 * (cli_context.program; NULL when there is no "--"). */
void run_cli_set_program(struct run_cli *r, char **program, size_t nprogram);
/* Usage checks once the options are read: --run needs "-- COMMAND" and the
 * other way round; run options need --run; the command must be one that can
 * be executed.  CLI_CONTINUE or EXIT_USAGE after a message. */
int run_cli_check(const struct cli_command *cmd, const struct run_cli *r, bool run);

struct campaign_progress;
/* After a campaign: "kpath NAME: R runs/s; per run: ..." (where the time
 * went, when runs were recorded and stderr is a terminal) and a warning for processes that escaped
 * their run's process group, on stderr. */
void run_cli_print_costs(const char *name, const struct campaign_progress *p);

/* A batch of run/run_batch.h with these options, the diagnostics printed:
 * NULL, with the exit status in *status, after a message. */
struct run_batch *run_cli_batch_open(const struct cli_command *cmd, const struct run_cli *r,
                                     const char *grammar, const char *start, int *status);
/* run_batch_start, then the campaign run to its end by the CLI's loop
 * (campaign_loop.h: progress, Ctrl-C), then run_batch_finish.  EXIT_OK,
 * 130 when interrupted, or another exit status after a message. */
int run_cli_batch_run(const struct cli_command *cmd, struct run_batch *b, const char *label,
                      char *const *texts, const size_t *lens, size_t n, const char **paths_out);

#endif
