/* collect: behaviour features of a run — the names of things a run did.
 *
 * One interface, one module per collector:
 *  - outcome (collect.c), always first: "exit:N", "signal:NAME", "timeout",
 *    "error:WHY";
 *  - gcov (collect_gcov.c): a program built with --coverage writes its
 *    counters under the run's directory (GCOV_PREFIX={run}/gcov,
 *    GCOV_PREFIX_STRIP=0), so parallel runs never mix; read with BUILD_DIR's
 *    .gcno files (gcov_data.h, no process per run; or, for a format it does
 *    not read, a helper run of `gcov --json-format --stdout` beside links
 *    to them), they give "fn:NAME" for every function that ran and, with
 *    lines, "line:FILE:N" for every line, as gcov reports them; functions
 *    that share a name (static functions of different files) are
 *    "fn:NAME@FILE:LINE" each;
 *  - node (collect_node.c): NODE_V8_COVERAGE={run}/v8; "fn:NAME" for every
 *    named function of a file: URL that ran;
 *  - harness (collect_harness.c): the functions ("fn:NAME") and edges a
 *    libFuzzer harness's run reached, which the runner reads from its fork
 *    server (runner_harness);
 *  - cmd (collect_cmd.c): `sh -c CMD` after each run, in the run's working
 *    directory, with KPATH_RUN_DIR, KPATH_INPUT, KPATH_INPUT_FILE,
 *    KPATH_OUTCOME, KPATH_STDOUT_SHA256, KPATH_STDERR_SHA256 in its
 *    environment; every non-empty line it prints is a feature.
 * A collector may add environment to the main run, may ask for one helper
 * run after it (run by the runner, with its limits, in the same run
 * directory), and then turns what it finds into features.
 *
 * Ownership: a collector owns its name and state; a collect_helper's arrays
 * belong to the caller, who frees them with collect_helper_free. */
#ifndef KPATH_COLLECT_H
#define KPATH_COLLECT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "run/runner.h"

/* A growable list of owned strings (features, argv, environment). */
struct str_list {
    char **items; /* owned; kept NULL-terminated */
    size_t len, cap;
};
void str_list_add(struct str_list *l, const char *s);
void str_list_addf(struct str_list *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void str_list_free(struct str_list *l);

/* What a collector sees of a finished main run. */
struct collect_run {
    const char *input;       /* the input's path as given to kpath */
    const char *input_name;  /* its base name: the copy is {run}/in/NAME */
    const char *outcome;     /* "exit:0", ... */
    const struct runner_result *result;
};

struct collector;

struct collector_ops {
    /* Add "NAME=VALUE" entries to the main run's environment ("{run}" is the
     * run directory).  NULL: none. */
    void (*env)(const struct collector *c, struct str_list *env);
    /* After the main run: fill argv (and env) of a helper run and return
     * true, or return false when none is needed.  NULL: never. */
    bool (*helper)(const struct collector *c, const struct collect_run *run,
                   struct str_list *argv, struct str_list *env);
    /* Add the run's features to `out`; `helper` is the helper run's result
     * (NULL when there was none).  False with a diagnostic when the
     * collector failed (a helper that did not exit 0, unreadable data). */
    bool (*collect)(const struct collector *c, const struct collect_run *run,
                    const struct runner_result *helper, struct str_list *out,
                    struct diag_list *diags);
    void (*free)(struct collector *c);
};

struct collector {
    const struct collector_ops *ops;
    char *name;  /* owned: its entry in the results header's "collect" */
    void *state; /* owned by the collector's module */
};

/* How much of a helper's stdout is kept (gcov's JSON for one run). */
#define COLLECT_HELPER_STDOUT_MAX ((size_t)256 << 20)

/* The constructors.  False with a diagnostic when the collector cannot work
 * (no .gcno file below BUILD_DIR or one unreadable, no node in PATH, no
 * gcov in PATH when gcov must be run). */
void collector_outcome(struct collector *c);
bool collector_gcov(struct collector *c, const char *build_dir, bool lines,
                    struct diag_list *diags);
/* The same features, always by a run of gcov after each run (today's way
 * before the reader; for comparisons and the benchmark). */
bool collector_gcov_spawn(struct collector *c, const char *build_dir, bool lines,
                          struct diag_list *diags);
bool collector_node(struct collector *c, struct diag_list *diags);
void collector_cmd(struct collector *c, const char *command);
void collector_harness(struct collector *c);
void collector_free(struct collector *c);

/* The files with names ending in `suffix` below `dir` (sorted; none when it
 * does not exist). */
void collect_files_below(const char *dir, const char *suffix, struct str_list *out);

#endif
