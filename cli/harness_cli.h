/* harness_cli: the --harness options every command that runs a program
 * shares (kpath run, and through RUN_CLI_OPTIONS target and bonsai with
 * --run): a libFuzzer harness in place of "-- COMMAND", built once
 * (src/run/harness.h) and run through a fork server (runner_harness).
 *
 * Ownership: a harness_cli owns its --harness-source array (the strings
 * point into argv), the prefix and suffix bytes and the built program. */
#ifndef KPATH_CLI_HARNESS_CLI_H
#define KPATH_CLI_HARNESS_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"
#include "cli.h"
#include "run/harness.h"
#include "run/runner.h"

#define HARNESS_CLI_OPTIONS                                                                    \
    {"harness", 0, "FILE", "run a libFuzzer harness (FILE.c, built with clang, or FILE.so) "   \
                           "in place of -- COMMAND; features fn:NAME"},                        \
    {"harness-source", 0, "FILE", "with --harness: another C file to build with it "          \
                                  "(repeatable)"},                                             \
    {"harness-cflags", 0, "FLAGS", "with --harness: more compiler flags (-I DIR, -D ...), "    \
                                   "separated by spaces"},                                     \
    {"harness-prefix", 0, "BYTES", "with --harness: put BYTES (C escapes: \\n \\0 \\xHH) "     \
                                   "before every input"},                                      \
    {"harness-suffix", 0, "BYTES", "with --harness: put BYTES after every input"},            \
    {"harness-edges", 0, NULL, "with --harness: edges too (edge:NAME:K)"},                    \
    {"in-process", 0, NULL, "with --harness: run many inputs in one child, not a fork per "   \
                            "input (faster; what the harness keeps between inputs may "      \
                            "change features and outcomes: your risk)"},                     \
    {"in-process-runs", 0, "N", "with --in-process: a new child after N inputs (default "    \
                                "1000)"}

/* Inputs per child with --in-process unless --in-process-runs says otherwise. */
#define HARNESS_CLI_IN_PROCESS_RUNS 1000

struct harness_cli {
    const char *file;          /* --harness; NULL: none */
    const char **sources;      /* owned array */
    size_t nsources;
    const char *cflags;
    struct strbuf prefix, suffix;
    bool prefix_given, suffix_given, edges;
    bool in_process, in_process_runs_given;
    uint32_t in_process_runs; /* --in-process-runs, else HARNESS_CLI_IN_PROCESS_RUNS */
    struct harness_program program;
    struct runner_harness runner;
    char *command[3];          /* {"--harness", FILE, NULL}: the results header's command */
};

void harness_cli_init(struct harness_cli *h);
void harness_cli_free(struct harness_cli *h);
/* One of HARNESS_CLI_OPTIONS: CLI_CONTINUE, EXIT_USAGE after a message, or
 * CLI_NOT_MINE. */
int harness_cli_option(const struct cli_command *cmd, const char *name, const char *value,
                       struct harness_cli *h);
/* Usage checks once the options are read (the --harness-* options and
 * --in-process need --harness, --in-process-runs needs --in-process).  CLI_CONTINUE or EXIT_USAGE after a message. */
int harness_cli_check(const struct cli_command *cmd, const struct harness_cli *h);
/* Build the harness (or find it built) and point opts->harness at it.
 * EXIT_OK, or EXIT_USAGE after a message. */
int harness_cli_prepare(const struct cli_command *cmd, struct harness_cli *h,
                        struct runner_options *opts);

#endif
