/* cmd_run: `kpath run` — run inputs through a program under test, record
 * what each run did (src/run/campaign), merge shards of results (src/run/results)
 * and relate behaviour to k-paths (src/run/run_report).  The loop over the
 * campaign's steps is campaign_loop.c's, shared with the other commands that
 * run a program. */
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/campaign.h"
#include "cli.h"
#include "run/collect.h"
#include "run/collect_set.h"
#include "commands.h"
#include "campaign_loop.h"
#include "harness_cli.h"
#include "run_cli.h"
#include "base/json.h"
#include "base/number.h"
#include "run/oracle_check.h"
#include "run/results.h"
#include "run/run_report.h"
#include "base/samples.h"
#include "base/sha256.h"
#include "workspace/workspace.h"
#include "workspace/workspace_file.h"
#include "workspace/workspace_run.h"
#include "base/xalloc.h"

static int run(const struct cli_command *cmd, int argc, char **argv);

#define DEFAULT_RESULTS "kpath-run.jsonl"
#define DEFAULT_K 3

static const struct cli_option options[] = {
    {"jobs", 'j', "N", "run N inputs at once (default: the number of cores)"},
    {"timeout", 0, "SECONDS", "kill a run after SECONDS of wall-clock time (3 or 3s); "
                              "250ms, 2m for other units (default 10)"},
    {"max-memory", 0, "N", "address space of a run, and size of any file it writes; K, M, G "
                           "suffixes, 0 for no limit (default 4G)"},
    {"results", 0, "FILE", "the results file (default " DEFAULT_RESULTS ")"},
    {"resume", 0, NULL, "skip the inputs FILE already records"},
    {"shard", 0, "I/N", "run only the I-th of N parts of the inputs (positions p with "
                        "p mod N = I-1)"},
    {"keep-going", 0, NULL, "go on when the first runs all fail the same way"},
    {"gcov", 0, "BUILD_DIR", "collect the functions (fn:NAME) each run executed, for a program "
                             "built with --coverage whose .gcno files are below BUILD_DIR"},
    {"lines", 0, NULL, "with --gcov, also the lines (line:FILE:N)"},
    {"node-coverage", 0, NULL, "collect the functions a Node.js program ran (fn:NAME)"},
    {"features-cmd", 0, "CMD", "run `sh -c CMD` after each run; each line it prints is a feature "
                             "(repeatable)"},
    HARNESS_CLI_OPTIONS,
    {"merge", 0, NULL, "merge the results files given as arguments into --results FILE"},
    {"report", 0, "RESULTS", "report on a results file (GRAMMAR: the one it names)"},
    {"k", 'k', "K", "the report covers k = 1 .. K (default 3)"},
    {"seed", 0, "S", "seed of the report's random draws (default 1)"},
    {"quiet", 'q', NULL, "no per-input lines in the report"},
    {"max-input-size", 0, "N", "refuse inputs larger than N bytes; K, M, G suffixes "
                               "(default 16M)"},
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    {"json", 0, NULL, "print the report as JSON"},
    CLI_ANY_FILE_OPTION,
    {0},
};

const struct cli_command cmd_run_command = {
    .name = "run",
    .usage = "[options] GRAMMAR INPUT|DIR... -- COMMAND [ARG...]\n"
             "       kpath run [options] --harness FILE.c|FILE.so GRAMMAR INPUT|DIR...\n"
             "       kpath run [options] WORKSPACE -- COMMAND [ARG...]\n"
             "       kpath run --report RESULTS [-k K] [GRAMMAR]\n"
             "       kpath run --merge --results OUT RESULTS...",
    .summary = "run inputs through a program and relate its behaviour to k-paths",
    .description =
    "Run COMMAND once per input, with the input on standard input, or as a file\n"
    "path where an argument is {} (a read-only copy: the suite is never touched).\n"
    "The command runs in an empty directory of its own: name the files it needs\n"
    "by absolute paths (a relative path to the command itself is fine).\n"
    "Each run has an empty directory (reused, emptied after each run) under\n"
    "$TMPDIR if set, else /dev/shm (a memory file system: no disk work per run)\n"
    "when it is writable, else /tmp; its own process group and session (no\n"
    "terminal), a timeout and a memory limit; at its end its whole process group\n"
    "is killed, and what left the group (setsid, a daemon) is killed too and\n"
    "reported.  If kpath itself is killed, its programs die with it.  Only the\n"
    "size, SHA-256 and first line of stdout and stderr are\n"
    "kept.  Each input's record (outcome, times, peak memory, streams, behaviour\n"
    "features) is appended to the results file as soon as it is known, so an\n"
    "interrupted run (Ctrl-C, a crash) keeps every finished record, and --resume\n"
    "goes on from there.  Features: the outcome (exit:N, signal:NAME, timeout)\n"
    "always; gcov functions and lines (--gcov, --lines); V8 functions\n"
    "(--node-coverage); the lines a --features-cmd prints (it runs in the run's\n"
    "directory with KPATH_RUN_DIR, KPATH_INPUT, KPATH_INPUT_FILE, KPATH_OUTCOME,\n"
    "KPATH_STDOUT_SHA256 and KPATH_STDERR_SHA256 set).\n"
    "\n"
    "With --harness, the program is a libFuzzer harness (a C file that defines\n"
    "LLVMFuzzerTestOneInput, as OSS-Fuzz's do): kpath builds it with clang's\n"
    "SanitizerCoverage and its own fork server (cached below $KPATH_HARNESS_CACHE,\n"
    "else ~/.cache/kpath/harness, by the SHA-256 of the sources and flags), or\n"
    "loads FILE.so built with -fsanitize-coverage=func,trace-pc-guard,pc-table.\n"
    "Each input, between --harness-prefix and --harness-suffix, is passed in\n"
    "memory to a forked child with its own session and process group, the\n"
    "timeout and the memory limit; its features are the functions it reached\n"
    "(fn:NAME), with --harness-edges its edges too.  With --in-process one child\n"
    "runs input after input (up to --in-process-runs, 1000), several times\n"
    "faster; a crash, exit or timeout ends it with that input's outcome and the\n"
    "next input gets a new child.  What the harness keeps from one input to\n"
    "the next (globals, caches, leaks) may change features and outcomes: that\n"
    "is the risk you accept.\n"
    "\n"
    "With a workspace file (saved by the explorer's :save) in place of GRAMMAR\n"
    "and no INPUTs, the workspace's grammar and inputs are run: the inputs are\n"
    "written first, in workspace order, as the suite RESULTS.inputs/ beside the\n"
    "results file (kpath-run.inputs/ by default; its numbered files replaced).\n"
    "\n"
    "At the end, and with --report: the outcome classes with the smallest input\n"
    "of each, per input its outcome and features, and per k the k-path coverage\n"
    "of the inputs, the correlation across inputs between their k-paths and\n"
    "their features, and the features a k-path suite drawn from the inputs\n"
    "reaches against as many random inputs.\n"
    "\n"
    "Exit status: 0 when every input ran (whatever the program did), 1 when the\n"
    "command failed the same way for each of the first 5 inputs (with more to\n"
    "run) or could not be run, 2 for bad usage, 130 when interrupted.",
    .options = options,
    .run = run,
};

struct run_args {
    struct runner_options runner;
    const char *results;
    bool results_given, resume, keep_going, lines, node, merge, quiet, json;
    uint32_t shard_index, shard_count;
    const char *gcov_dir;
    const char **features_cmds;
    size_t nfeatures_cmds;
    const char *report;
    uint32_t k;
    uint64_t seed;
    const char *start;
    struct parse_options po;
    struct harness_cli harness;
    const char **positional;
    size_t npositional;
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct run_args *a = ctx;
    const char *name = cmd->options[index].name;
    int st = cli_runner_option(cmd, name, value, "max-memory", &a->runner);
    if (st != CLI_NOT_MINE)
        return st;
    st = harness_cli_option(cmd, name, value, &a->harness);
    if (st != CLI_NOT_MINE)
        return st;
    if (strcmp(name, "results") == 0) {
        a->results = value;
        a->results_given = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "shard") == 0) {
        const char *slash = strchr(value, '/');
        char first[16];
        size_t n = slash ? (size_t)(slash - value) : 0;
        if (!slash || n == 0 || n >= sizeof first)
            return cli_usage_error(cmd, "--shard takes I/N, like 2/4, not '%s'", value);
        memcpy(first, value, n);
        first[n] = '\0';
        if (!number_parse_u32(first, &a->shard_index) ||
            !number_parse_u32(slash + 1, &a->shard_count) || a->shard_count == 0 ||
            a->shard_index == 0 || a->shard_index > a->shard_count)
            return cli_usage_error(cmd, "--shard takes I/N with 1 <= I <= N, not '%s'", value);
        return CLI_CONTINUE;
    }
    if (strcmp(name, "gcov") == 0) {
        a->gcov_dir = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "features-cmd") == 0) {
        a->features_cmds[a->nfeatures_cmds++] = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "report") == 0) {
        a->report = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "k") == 0)
        return cli_parse_u32(cmd, "-k", value, 1, 10, &a->k) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "seed") == 0)
        return cli_parse_u64(cmd, "--seed", value, &a->seed) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "start") == 0) {
        a->start = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "format") == 0)
        return cli_format_option(cmd, value);
    bool *flag = strcmp(name, "resume") == 0          ? &a->resume
                 : strcmp(name, "keep-going") == 0    ? &a->keep_going
                 : strcmp(name, "lines") == 0         ? &a->lines
                 : strcmp(name, "node-coverage") == 0 ? &a->node
                 : strcmp(name, "merge") == 0         ? &a->merge
                 : strcmp(name, "quiet") == 0         ? &a->quiet
                 : strcmp(name, "json") == 0          ? &a->json
                                                      : NULL;
    if (flag) {
        *flag = true;
        return CLI_CONTINUE;
    }
    return cli_sample_option(cmd, name, value, &a->po);
}

/* ---- output ---------------------------------------------------------------- */

static void print_diags(const struct cli_command *cmd, struct diag_list *diags)
{
    cli_print_diags(cmd, diags);
    diag_list_free(diags);
}


static void add_percent(struct strbuf *out, uint64_t covered, uint64_t total)
{
    if (total == UINT64_MAX)
        strbuf_addstr(out, "-");
    else
        strbuf_addf(out, "%.1f%%",
                    total ? floor((double)covered * 1000.0 / (double)total) / 10.0 : 100.0);
}

static const struct results *sorting;

static int compare_inputs(const void *a, const void *b)
{
    return strcmp(sorting->records[*(const size_t *)a].input,
                  sorting->records[*(const size_t *)b].input);
}

/* Records are appended in the order runs end; reports list them by path. */
static size_t *records_in_path_order(const struct results *r)
{
    size_t *order = xcalloc(r->nrecords + 1, sizeof *order);
    for (size_t i = 0; i < r->nrecords; i++)
        order[i] = i;
    sorting = r;
    qsort(order, r->nrecords, sizeof *order, compare_inputs);
    sorting = NULL;
    return order;
}

static void format_report(const struct results *r, const struct run_report *rep, bool per_input,
                          struct strbuf *out)
{
    strbuf_addf(out, "runs: %zu\n", rep->runs);
    strbuf_addstr(out, "outcomes:\n");
    for (size_t i = 0; i < rep->nclasses; i++) {
        const struct run_report_class *cl = &rep->classes[i];
        strbuf_addf(out, "  %-16s %6zu", cl->outcome, cl->count);
        if (strcmp(cl->outcome, "exit:0") != 0)
            strbuf_addf(out, "   smallest: %s (%" PRIu64 " bytes)", cl->smallest,
                        cl->smallest_size);
        strbuf_addch(out, '\n');
    }
    strbuf_addf(out, "features reached: %zu\n", rep->features);
    if (per_input && r->nrecords) {
        strbuf_addstr(out, "per input (outcome, how many other features: their names):\n");
        size_t *order = records_in_path_order(r);
        for (size_t o = 0; o < r->nrecords; o++) {
            const struct run_record *rec = &r->records[order[o]];
            /* The features other than the outcome: counted and named alike, so
             * a run that reached nothing else (a crash loses its gcov counters)
             * reads "0:" rather than a count with no names after it. */
            uint32_t others = 0;
            for (uint32_t f = 0; f < rec->nfeatures; f++)
                others += strcmp(r->features[rec->features[f]], rec->outcome) != 0;
            strbuf_addf(out, "  %s  %s  %u:", rec->input, rec->outcome, others);
            const char **names = xcalloc(rec->nfeatures + 1, sizeof *names);
            uint32_t n = 0;
            for (uint32_t f = 0; f < rec->nfeatures; f++)
                names[n++] = r->features[rec->features[f]];
            for (uint32_t a = 1; a < n; a++)
                for (uint32_t b = a; b > 0 && strcmp(names[b - 1], names[b]) > 0; b--) {
                    const char *t = names[b];
                    names[b] = names[b - 1];
                    names[b - 1] = t;
                }
            uint32_t shown = 0;
            for (uint32_t f = 0; f < n; f++) {
                if (strcmp(names[f], rec->outcome) == 0)
                    continue;
                if (shown++ == 12) {
                    strbuf_addf(out, " ...");
                    break;
                }
                strbuf_addf(out, " %s", names[f]);
            }
            free(names);
            strbuf_addch(out, '\n');
        }
        free(order);
    }
    if (!rep->ks)
        return;
    strbuf_addf(out, "k-paths and behaviour (%zu input%s measured", rep->measured,
                rep->measured == 1 ? "" : "s");
    if (rep->not_measured)
        strbuf_addf(out, ", %zu not: missing, changed or not parsing", rep->not_measured);
    strbuf_addstr(out, "):\n");
    strbuf_addstr(out, "   k  k-paths covered        r(k-paths, features)"
                       "  suite  its features  random inputs' features\n");
    for (uint32_t j = 0; j < rep->K; j++) {
        const struct run_report_k *row = &rep->ks[j];
        struct strbuf cov = STRBUF_INIT;
        strbuf_addf(&cov, "%" PRIu64 "/", row->covered);
        number_add_count_compact(&cov, row->total);
        strbuf_addstr(&cov, " (");
        add_percent(&cov, row->covered, row->total);
        strbuf_addstr(&cov, ")");
        strbuf_addf(out, "  %2u  %-22s ", row->k, cov.data);
        strbuf_free(&cov);
        if (isnan(row->correlation))
            strbuf_addf(out, "%20s", "-");
        else
            strbuf_addf(out, "%20.2f", row->correlation);
        strbuf_addf(out, "  %5zu  %12zu  %23.1f\n", row->suite_size, row->suite_features,
                    row->random_features);
    }
}

/* The same report as one JSON object (see docs/program-under-test.md). */
static void format_report_json(const struct results *r, const struct run_report *rep,
                               bool per_input, struct strbuf *out)
{
    strbuf_addf(out, "{\"runs\": %zu, \"features\": %zu, \"outcomes\": [", rep->runs,
                rep->features);
    for (size_t i = 0; i < rep->nclasses; i++) {
        const struct run_report_class *cl = &rep->classes[i];
        strbuf_addstr(out, i ? ",\n    {\"outcome\": " : "\n    {\"outcome\": ");
        json_add_cstring(out, cl->outcome);
        strbuf_addf(out, ", \"count\": %zu, \"smallest\": ", cl->count);
        json_add_cstring(out, cl->smallest);
        strbuf_addf(out, ", \"smallest_size\": %" PRIu64 "}", cl->smallest_size);
    }
    strbuf_addstr(out, rep->nclasses ? "\n  ]" : "]");
    if (per_input) {
        strbuf_addstr(out, ",\n  \"inputs\": [");
        size_t *order = records_in_path_order(r);
        for (size_t i = 0; i < r->nrecords; i++) {
            struct strbuf line = STRBUF_INIT;
            results_format_record(r, &r->records[order[i]], &line);
            line.data[--line.len] = '\0'; /* the newline */
            strbuf_addstr(out, i ? ",\n    " : "\n    ");
            strbuf_add(out, line.data, line.len);
            strbuf_free(&line);
        }
        free(order);
        strbuf_addstr(out, r->nrecords ? "\n  ]" : "]");
    }
    if (rep->ks) {
        strbuf_addf(out, ",\n  \"measured\": %zu, \"not_measured\": %zu, \"k\": [",
                    rep->measured, rep->not_measured);
        for (uint32_t j = 0; j < rep->K; j++) {
            const struct run_report_k *row = &rep->ks[j];
            strbuf_addf(out, "%s{\"k\": %u, \"covered\": %" PRIu64 ", \"total\": %" PRIu64
                             ", \"saturated\": %s, \"correlation\": ",
                        j ? ",\n    " : "\n    ", row->k, row->covered, row->total,
                        row->total == UINT64_MAX ? "true" : "false");
            if (isnan(row->correlation))
                strbuf_addstr(out, "null");
            else
                strbuf_addf(out, "%.6f", row->correlation);
            strbuf_addf(out, ", \"suite\": %zu, \"suite_features\": %zu, "
                             "\"random_features\": %.3f}",
                        row->suite_size, row->suite_features, row->random_features);
        }
        strbuf_addstr(out, "\n  ]");
    }
    strbuf_addstr(out, "}\n");
}

static int print_report(const struct cli_command *cmd, const struct results *r,
                        const struct graph *g, const struct run_args *a)
{
    struct run_report rep;
    struct diag_list diags = DIAG_LIST_INIT;
    if (g)
        run_report_compute(r, g, a->k, &a->po, a->seed, &rep, &diags);
    else
        run_report_outcomes(r, &rep);
    print_diags(cmd, &diags);
    struct strbuf out = STRBUF_INIT;
    if (a->json)
        format_report_json(r, &rep, !a->quiet, &out);
    else
        format_report(r, &rep, !a->quiet, &out);
    bool ok = cli_write(out.data ? out.data : "", out.len);
    strbuf_free(&out);
    run_report_free(&rep);
    return ok ? EXIT_OK : EXIT_FAILURE_OTHER;
}

/* ---- the three forms ------------------------------------------------------- */

static int do_merge(const struct cli_command *cmd, const struct run_args *a)
{
    if (!a->results_given)
        return cli_usage_error(cmd, "--merge needs --results OUT (where the merge goes)");
    if (!a->npositional)
        return cli_usage_error(cmd, "--merge needs the results files to merge");
    struct diag_list diags = DIAG_LIST_INIT;
    bool ok = results_merge(a->positional, a->npositional, a->results, &diags);
    print_diags(cmd, &diags);
    if (ok)
        fprintf(stderr, "kpath run: merged %zu file%s into %s\n", a->npositional,
                a->npositional == 1 ? "" : "s", a->results);
    return ok ? EXIT_OK : EXIT_USAGE;
}

/* Load the grammar of a results file and check it is the one that ran. */
static int load_grammar_for(const struct cli_command *cmd, const char *path,
                            const struct results_header *h, const struct run_args *a,
                            struct grammar **g, struct graph **graph)
{
    struct diag_list diags = DIAG_LIST_INIT;
    char hex[SHA256_HEX_SIZE];
    if (!sha256_file(path, hex, &diags)) {
        print_diags(cmd, &diags);
        return EXIT_USAGE;
    }
    if (h && strcmp(hex, h->grammar_sha256) != 0) {
        fprintf(stderr, "kpath run: error: %s is not the grammar the results were made with "
                        "(its SHA-256 differs from the results' grammar_sha256)\n", path);
        return EXIT_USAGE;
    }
    /* The start rule the results were made with, unless --start says otherwise. */
    const char *start = a->start ? a->start : h && h->start && *h->start ? h->start : NULL;
    return cli_load(path, start, NULL, g, graph);
}

static int do_report(const struct cli_command *cmd, const struct run_args *a)
{
    if (a->npositional > 1)
        return cli_usage_error(cmd, "--report takes at most one GRAMMAR");
    struct results r;
    struct diag_list diags = DIAG_LIST_INIT;
    if (!results_load(a->report, &r, &diags)) {
        print_diags(cmd, &diags);
        return EXIT_USAGE;
    }
    print_diags(cmd, &diags);
    const char *gpath = a->npositional ? a->positional[0] : r.header.grammar;
    struct grammar *g = NULL;
    struct graph *graph = NULL;
    int status = load_grammar_for(cmd, gpath, &r.header, a, &g, &graph);
    if (status == EXIT_OK)
        status = print_report(cmd, &r, graph, a);
    graph_free(graph);
    grammar_free(g);
    results_free(&r);
    return status;
}

/* Whether any run of `r` recorded a feature whose name starts with
 * `prefix` (for --gcov: "fn:"). */
static bool any_feature_with_prefix(const struct results *r, const char *prefix)
{
    size_t len = strlen(prefix);
    for (size_t i = 0; i < r->nrecords; i++)
        for (uint32_t f = 0; f < r->records[i].nfeatures; f++)
            if (strncmp(r->features[r->records[i].features[f]], prefix, len) == 0)
                return true;
    return false;
}

static int do_run(const struct cli_command *cmd, struct run_args *a, char **command,
                  size_t ncommand)
{
    if (!a->npositional)
        return cli_usage_error(cmd, "missing GRAMMAR");
    bool from_workspace = a->npositional == 1 && workspace_file_is(a->positional[0]);
    if (a->npositional < 2 && !from_workspace)
        return cli_usage_error(cmd, "missing INPUT|DIR... after GRAMMAR: name the inputs, or "
                                    "give a workspace file (saved with :save) in place of "
                                    "GRAMMAR to run the workspace's inputs");
    bool harness = a->harness.file != NULL;
    if (!ncommand && !harness)
        return cli_usage_error(cmd, "missing -- COMMAND after the inputs");
    if (ncommand && harness)
        return cli_usage_error(cmd, "--harness FILE is the program: no -- COMMAND with it");
    if (harness && (a->gcov_dir || a->node || a->nfeatures_cmds))
        return cli_usage_error(cmd, "--harness collects its own functions: not with --gcov, "
                                    "--node-coverage or --features-cmd");
    if (a->lines && !a->gcov_dir)
        return cli_usage_error(cmd, "--lines needs --gcov BUILD_DIR");
    for (size_t i = 1; i < a->npositional; i++)
        if (strcmp(a->positional[i], "-") == 0)
            return cli_usage_error(cmd, "inputs are files or directories; '-' (standard input) "
                                        "is not one");
    struct diag_list diags = DIAG_LIST_INIT;
    if (!harness && !runner_check_command(command[0], &diags)) {
        print_diags(cmd, &diags);
        return EXIT_USAGE;
    }
    if (harness) {
        int st = harness_cli_prepare(cmd, &a->harness, &a->runner);
        if (st != EXIT_OK)
            return st;
        command = a->harness.command;
        ncommand = 2;
    }
    /* A workspace file in place of GRAMMAR: its grammar, start rule and
     * inputs (written as a suite beside the results, workspace_run.h). */
    struct workspace *ws = NULL;
    struct sample_list inputs = SAMPLE_LIST_INIT;
    const char *grammar_path = a->positional[0];
    if (from_workspace) {
        ws = workspace_open(a->positional[0], &diags);
        char *dir = ws ? workspace_run_inputs_dir(a->results) : NULL;
        bool ok = ws && workspace_run_inputs(ws, dir, &inputs, &diags);
        print_diags(cmd, &diags);
        free(dir);
        if (!ok) {
            sample_list_free(&inputs);
            workspace_free(ws);
            return EXIT_USAGE;
        }
        grammar_path = ws->grammar_path;
        if (!a->start)
            a->start = ws->start;
    }
    struct grammar *g = NULL;
    struct graph *graph = NULL;
    int status = load_grammar_for(cmd, grammar_path, NULL, a, &g, &graph);
    if (status != EXIT_OK) {
        sample_list_free(&inputs);
        workspace_free(ws);
        return status;
    }

    if (!from_workspace &&
        samples_expand(a->positional + 1, a->npositional - 1, cli_any_file(), &inputs, &diags)) {
        print_diags(cmd, &diags);
        sample_list_free(&inputs);
        graph_free(graph);
        grammar_free(g);
        return EXIT_USAGE;
    }
    print_diags(cmd, &diags);

    /* The collectors, in the order the header lists them. */
    struct collector *cols;
    size_t ncols;
    struct collect_spec spec = {a->gcov_dir, a->lines, a->node, a->features_cmds, a->nfeatures_cmds,
                                harness};
    bool ok = collect_set_make(&spec, &cols, &ncols, &diags);

    struct results_header h = {.kpath_version = KPATH_VERSION, .grammar = (char *)grammar_path,
                               .start = (char *)a->start,
                               .command = command, .ncommand = (uint32_t)ncommand};
    char **collect_names = collect_set_names(cols, ncols);
    h.collect = collect_names;
    h.ncollect = (uint32_t)ncols;
    if (ok)
        ok = sha256_file(grammar_path, h.grammar_sha256, &diags);

    struct campaign *c = NULL;
    if (ok) {
        char **argv = xcalloc(ncommand + 1, sizeof *argv);
        memcpy(argv, command, ncommand * sizeof *argv);
        struct campaign_options co = {
            .runner = a->runner,
            .argv = argv, .collectors = cols, .ncollectors = ncols,
            .results_path = a->results, .header = &h, .resume = a->resume,
            .shard_index = a->shard_index, .shard_count = a->shard_count,
            .max_input_size = a->po.max_input_size, .keep_going = a->keep_going};
        c = campaign_open(&co, &inputs, &diags);
        print_diags(cmd, &diags);
        /* The campaign keeps the argv pointer: free it after the campaign. */
        if (c) {
            struct campaign_progress p;
            enum campaign_state st = cli_run_campaign(cmd, c, &p);
            run_cli_print_costs("run", &p);
            if (st == CAMPAIGN_RUNNING) {
                fprintf(stderr, "kpath run: interrupted (%s): %zu of %zu runs recorded in %s; "
                                "--resume goes on from there\n",
                        cli_interrupt_name(), p.done, p.total, a->results);
                status = 130;
            } else if (st == CAMPAIGN_FAILED) {
                status = EXIT_FAILURE_OTHER;
                fprintf(stderr, "kpath run: stopped: %zu of %zu runs recorded in %s\n", p.done,
                        p.total, a->results);
            } else {
                fprintf(stderr, "kpath run: %zu run%s recorded in %s", p.done,
                        p.done == 1 ? "" : "s", a->results);
                if (p.skipped)
                    fprintf(stderr, " (%zu already there, skipped)", p.skipped);
                if (p.unreadable)
                    fprintf(stderr, "; %zu input%s could not be read", p.unreadable,
                            p.unreadable == 1 ? "" : "s");
                fprintf(stderr, "\n");
                if (a->gcov_dir && !any_feature_with_prefix(campaign_results(c), "fn:"))
                    fprintf(stderr, "kpath run: warning: no run reached a function in gcov's "
                                    "counters under %s: is the program built with --coverage "
                                    "(gcc --coverage), and are its .gcno files there?\n",
                            a->gcov_dir);
                status = print_report(cmd, campaign_results(c), graph, a);
            }
            campaign_free(c);
        } else {
            status = EXIT_USAGE;
        }
        free(argv);
    } else {
        print_diags(cmd, &diags);
        status = EXIT_USAGE;
    }
    collect_set_free(cols, ncols);
    free(collect_names);
    sample_list_free(&inputs);
    graph_free(graph);
    grammar_free(g);
    workspace_free(ws);
    return status;
}

static int run(const struct cli_command *cmd, int argc, char **argv)
{
    /* Everything after the first "--" is the command. */
    int split = cli_split_command(argc, argv);
    struct run_args a = {.results = DEFAULT_RESULTS,
                         .k = DEFAULT_K,
                         .seed = 1,
                         .po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT,
                                .max_memory = PARSE_DEFAULT_MAX_MEMORY}};
    runner_default_options(&a.runner);
    harness_cli_init(&a.harness);
    a.positional = xcalloc((size_t)argc + 1, sizeof *a.positional);
    a.features_cmds = xcalloc((size_t)argc + 1, sizeof *a.features_cmds);
    int status = cli_parse_positional(cmd, split, argv, a.positional, &a.npositional, on_option,
                                      &a);
    if (status == CLI_CONTINUE)
        status = harness_cli_check(cmd, &a.harness);
    if (status == CLI_CONTINUE) {
        size_t ncommand = split < argc ? (size_t)(argc - split - 1) : 0;
        if (a.merge && a.report)
            status = cli_usage_error(cmd, "--merge and --report are separate uses of kpath run");
        else if ((a.merge || a.report) && split < argc)
            status = cli_usage_error(cmd, "%s takes no command", a.merge ? "--merge" : "--report");
        else if (a.merge)
            status = do_merge(cmd, &a);
        else if (a.report)
            status = do_report(cmd, &a);
        else
            status = do_run(cmd, &a, argv + split + 1, ncommand);
    }
    free(a.positional);
    free(a.features_cmds);
    harness_cli_free(&a.harness);
    return status;
}
