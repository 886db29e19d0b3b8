/* explain_session: what `kpath explain` and `kpath target` share: the options of
 * learning (k, tree depth, criterion, balance, seed, sample limits) and the
 * session that loads the grammar and a results file and reads its inputs as
 * k-path features. */
#ifndef KPATH_EXPLAIN_SESSION_H
#define KPATH_EXPLAIN_SESSION_H

#include "cli.h"
#include "explain/explain.h"
#include "grammar/grammar.h"
#include "run/results.h"

#define EXPLAIN_CLI_OPTIONS                                                              \
    {"k", 'k', "K", "features: the k-paths of length 1 .. K (default 3)"},               \
    {"max-depth", 0, "D", "decision trees at most D tests deep (default: chosen per "     \
                          "feature by cross-validation, 1 to 8)"},                       \
    {"criterion", 0, "C", "split by gini (the default) or entropy"},                     \
    {"balance", 0, NULL, "learn on a class-balanced sample (default: chosen per feature "  \
                         "by cross-validation)"},                                        \
    {"no-balance", 0, NULL, "learn on every training input, not a class-balanced sample"}, \
    {"seed", 0, "S", "seed of every random choice: sample, --split, generation (default 1)"}, \
    {"min-reaching", 0, "N", "a rule is weak when fewer than N of the training inputs "      \
                             "matching it reach the feature (default 3)"},                  \
    {"min-precision", 0, "P", "a rule is weak when its precision is below P, 0 to 1 "        \
                              "(default 0.50)"},                                            \
    CLI_SAMPLE_OPTIONS

/* Handle one of EXPLAIN_CLI_OPTIONS: CLI_CONTINUE, EXIT_USAGE after a message,
 * or CLI_NOT_MINE. */
int explain_cli_option(const struct cli_command *cmd, const char *name, const char *value,
                       struct explain_options *o);

struct explain_session {
    struct grammar *grammar;
    struct graph *graph;
    const char *results_path;
    struct results results;
    struct kpath_features kf;
    struct explain_inputs inputs;
};

/* Load the grammar and the results file and read the inputs (skipped inputs
 * are reported on stderr).  EXIT_OK, or the exit status after the messages. */
int explain_session_open(const struct cli_command *cmd, const char *grammar, const char *start,
                         const char *results_path, const struct explain_options *o,
                         struct explain_session *s);
void explain_session_close(struct explain_session *s);
/* Load a results file into r (diagnostics on stderr), with a warning when it
 * was recorded with another grammar than the file `grammar` (by hash).
 * EXIT_OK, or EXIT_USAGE when it cannot be read. */
int explain_session_load_results(const struct cli_command *cmd, const char *grammar,
                                 const char *path, struct results *r);

/* Print up to 10 diagnostics (the rest as a count) on stderr. */
void explain_cli_print_skipped(const struct cli_command *cmd, const struct diag_list *diags,
                               uint32_t skipped, const char *results_path);

#endif
