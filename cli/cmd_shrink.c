/* cmd_shrink: `kpath shrink` — make a failing input smaller while it keeps
 * failing: the reduction is src/suite/input_shrink's (tree edits over the
 * input's derivation tree, ddmin on characters when the grammar does not
 * parse it), every question it asks a run of the program, one at a time
 * (src/run/shrink_run, over a run_batch: timeout, memory limit, own
 * process group and directory), looped here until it ends or Ctrl-C. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/samples.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cli.h"
#include "commands.h"
#include "formats/grammar_write.h"
#include "campaign_loop.h"
#include "run/oracle_check.h"
#include "run/shrink_run.h"
#include "run_cli.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static void init_args(void *args);
static void free_args(void *args);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int shrink(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct shrink_args {
    const char **keep;      /* --keep values (owned array, strings in argv) */
    size_t nkeep;
    struct oracle_exits exits;
    const char *output;
    bool chars;
    struct run_cli rc;
};

static const struct cli_option options[] = {
    {"keep", 0, "BEHAVIOUR", "keep this behaviour instead of INPUT's outcome: an outcome "
                             "(exit:3, signal:SIGSEGV, timeout), a feature (fn:NAME with "
                             "--gcov, a --features-cmd line), or 'invalid' / 'valid' "
                             "(--valid-exit); repeatable, all must hold"},
    {"valid-exit", 0, "CODES", "with --keep invalid|valid: the exit codes that mean valid, "
                               "comma-separated (default 0)"},
    {"output", 'o', "FILE", "write the result to FILE (a temporary file beside it, renamed) "
                            "instead of stdout"},
    {"chars", 0, NULL, "reduce characters only (ddmin), even when GRAMMAR parses INPUT"},
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    {"timeout", 0, "SECONDS", "kill a run after SECONDS; 'NNNms' for milliseconds "
                              "(default 10)"},
    {"run-max-memory", 0, "N", "address space of a run; K, M, G suffixes, 0 for no limit "
                               "(default 4G)"},
    {"gcov", 0, "BUILD_DIR", "collect the functions (fn:NAME) each run executed, as kpath "
                             "run --gcov, for --keep fn:NAME"},
    {"lines", 0, NULL, "with --gcov, also the lines (line:FILE:N)"},
    {"node-coverage", 0, NULL, "collect the functions a Node.js program ran"},
    {"features-cmd", 0, "CMD", "each line `sh -c CMD` prints after a run is a feature "
                               "(repeatable)"},
    {"runs", 0, "DIR", "keep every input tried and DIR/results.jsonl in DIR (default: a "
                       "temporary directory, removed at the end)"},
    HARNESS_CLI_OPTIONS,
    CLI_GRAMMAR_SIZE_OPTION,
    {0},
};

const struct cli_command cmd_shrink_command = {
    .name = "shrink",
    .usage = "[options] GRAMMAR INPUT [-o FILE] -- COMMAND [ARG...]",
    .summary = "reduce a failing input to a smaller one that fails the same way",
    .description =
    "Run COMMAND on INPUT (as kpath run does: on standard input, or '{}' in the\n"
    "arguments stands for the input's path) and make INPUT smaller while the run\n"
    "keeps its behaviour: the same outcome as INPUT's (exit:3, signal:SIGSEGV,\n"
    "timeout), or what --keep names.\n"
    "\n"
    "With --harness FILE.c|FILE.so in place of -- COMMAND (and the other harness\n"
    "options, as kpath run's) the program is a libFuzzer harness, built once and\n"
    "run through its fork server (--in-process: one child for many inputs);\n"
    "--keep fn:NAME then names a function it reached.\n"
    "\n"
    "When GRAMMAR parses INPUT, the reduction works on its derivation tree, in\n"
    "passes over the tree top down, trying only edits that make the input\n"
    "shorter: a subtree replaced by the smallest subtree of its node; a subtree\n"
    "replaced by one of its own of the same node (a recursion made shorter) or\n"
    "of a node its node derives without other text (in Expr := Term | ..., a\n"
    "Term inside an Expr takes the Expr's place); repetitions and optional parts\n"
    "left out (all, then half, ..., then one at a time).  A pass skips the parts\n"
    "of a subtree that did not keep the behaviour when lifted; passes repeat\n"
    "until one that skips nothing keeps nothing, so no single such edit of the\n"
    "result keeps the behaviour.  When GRAMMAR does not parse INPUT (or with\n"
    "--chars), characters are left out by ddmin until no single one can go; if\n"
    "the grammar parses what is left, the tree reduction follows.\n"
    "\n"
    "No input is run twice: answers are kept by the input's SHA-256.  A summary\n"
    "goes to stderr (the sizes, the runs used, INPUT's own included, and the\n"
    "answers taken from the cache), then the result to stdout, its bytes exactly\n"
    "(no newline added), or to -o FILE (a temporary file renamed).  Exit status 1\n"
    "when INPUT's run does not show the behaviour (or exits 0 without --keep);\n"
    "130 when interrupted (Ctrl-C), after writing the smallest input so far.",
    .options = options,
    .takes_files = true,
    .needs = CLI_PROGRAM | CLI_GRAPH,
    .args_size = sizeof(struct shrink_args),
    .init_args = init_args,
    .free_args = free_args,
    .on_option = on_option,
    .check = check,
    .main = shrink,
};

static void init_args(void *args)
{
    struct shrink_args *a = args;
    run_cli_init(&a->rc);
    a->rc.keep_going = true; /* a failing input is the point */
    a->rc.runner.jobs = 1;
    a->exits.ok[0] = true;
}

static void free_args(void *args)
{
    struct shrink_args *a = args;
    free(a->keep);
    a->keep = NULL;
    run_cli_free(&a->rc);
}

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct shrink_args *a = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "keep") == 0) {
        if (!*value)
            return cli_usage_error(cmd, "--keep needs a behaviour, like signal:SIGSEGV");
        a->keep = xrealloc(a->keep, (a->nkeep + 1) * sizeof *a->keep);
        a->keep[a->nkeep++] = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "valid-exit") == 0)
        return oracle_exits_parse(value, &a->exits)
                   ? CLI_CONTINUE
                   : cli_usage_error(cmd, "--valid-exit takes exit codes 0..255 separated by "
                                          "commas, like 0,1, not '%s'", value);
    if (strcmp(name, "output") == 0) {
        if (!*value)
            return cli_usage_error(cmd, "-o needs a file name");
        a->output = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "chars") == 0) {
        a->chars = true;
        return CLI_CONTINUE;
    }
    int st = run_cli_option(cmd, name, value, &a->rc);
    return st == CLI_NOT_MINE ? cli_usage_error(cmd, "unknown option --%s", name) : st;
}

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    struct shrink_args *a = args;
    if (ctx->common.nfiles != 1)
        return cli_usage_error(cmd, "takes one INPUT after GRAMMAR, not %zu",
                               ctx->common.nfiles);
    if (a->rc.harness.file) {
        if (ctx->program)
            return cli_usage_error(cmd, "--harness FILE is the program: no -- COMMAND with it");
    } else if (!ctx->program || !ctx->nprogram) {
        return cli_usage_error(cmd, "missing -- COMMAND (the program that fails on INPUT) or "
                                    "--harness FILE");
    } else {
        run_cli_set_program(&a->rc, ctx->program, ctx->nprogram);
    }
    return run_cli_check(cmd, &a->rc, true);
}

static int shrink(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    struct shrink_args *a = args;
    const char *path = ctx->common.files[0];
    struct diag_list diags = DIAG_LIST_INIT;
    struct strbuf input = STRBUF_INIT;
    if (!samples_read(path, PARSE_DEFAULT_MAX_INPUT, &input, &diags)) {
        cli_print_diags(cmd, &diags);
        diag_list_free(&diags);
        strbuf_free(&input);
        return EXIT_USAGE;
    }
    int status = EXIT_OK;
    struct run_batch *b = run_cli_batch_open(cmd, &a->rc, ctx->common.grammar, ctx->common.start,
                                             &status);
    if (!b) {
        strbuf_free(&input);
        return status;
    }
    struct shrink_run_options so = {.graph = ctx->graph, .chars = a->chars, .keep = a->keep,
                                    .nkeep = a->nkeep, .exits = a->exits};
    struct shrink_run *s = shrink_run_new(b, &so, strbuf_str(&input), input.len);
    /* Ctrl-C, SIGTERM, SIGHUP: the run under way is killed, and the
     * smallest input found so far is worth having. */
    cli_catch_interrupts(true);
    volatile sig_atomic_t *interrupted = cli_interrupt_flag();
    enum shrink_run_state st = SHRINK_RUN_RUNNING;
    while (st == SHRINK_RUN_RUNNING) {
        st = shrink_run_step(s, 100, &diags);
        cli_print_diags(cmd, &diags);
        diag_list_free(&diags);
        if (st == SHRINK_RUN_RUNNING && *interrupted) {
            shrink_run_stop(s);
            st = shrink_run_state(s);
        }
    }
    cli_catch_interrupts(false);
    struct strbuf kept = STRBUF_INIT;
    shrink_run_kept(s, &kept);
    if (st == SHRINK_RUN_FAILED || (st == SHRINK_RUN_STOPPED && !shrink_run_outcome(s))) {
        if (st == SHRINK_RUN_STOPPED)
            fprintf(stderr, "kpath shrink: interrupted (%s) before INPUT's run was recorded\n",
                    cli_interrupt_name());
        status = st == SHRINK_RUN_STOPPED ? 130 : EXIT_FAILURE_OTHER;
        goto done;
    }
    if (st == SHRINK_RUN_REFUSED) {
        if (!a->nkeep)
            fprintf(stderr, "kpath shrink: %s: the command exits 0 on it: nothing to keep "
                            "(--keep names a behaviour)\n", path);
        else
            fprintf(stderr, "kpath shrink: %s does not show the behaviour to keep (its outcome: "
                            "%s)\n", path, shrink_run_outcome(s));
        status = EXIT_FAILURE_OTHER;
        goto done;
    }
    if (st == SHRINK_RUN_STOPPED)
        status = 130;
    struct input_shrink_stats stats;
    shrink_run_get_stats(s, &stats);
    size_t len;
    const char *result = shrink_run_result(s, &len);
    fprintf(stderr, "kpath shrink: %s%zu -> %zu bytes, keeping %s; %zu runs (INPUT's "
                    "included), %zu answers from the cache; %s\n",
            status == 130 ? "interrupted, the smallest so far: " : "", input.len, len, kept.data,
            shrink_run_runs(s), stats.cached,
            stats.parsed && stats.chars ? "ddmin on characters, then the derivation tree"
            : stats.parsed              ? "over the derivation tree"
                                        : "ddmin on characters (GRAMMAR does not parse it)");
    if (a->rc.runs_dir)
        fprintf(stderr, "runs kept in %s (NNNNNN/, results.jsonl)\n", run_batch_dir(b));
    fflush(stderr);
    if (a->output) {
        if (!write_file_atomic(a->output, result, len, &diags)) {
            cli_print_diags(cmd, &diags);
            if (status == EXIT_OK)
                status = EXIT_FAILURE_OTHER;
        }
    } else if (!cli_write(result, len) && status == EXIT_OK) {
        status = EXIT_FAILURE_OTHER;
    }
done:
    strbuf_free(&kept);
    shrink_run_free(s);
    run_batch_close(b);
    strbuf_free(&input);
    diag_list_free(&diags);
    return status;
}
