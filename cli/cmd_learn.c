/* cmd_learn: `kpath learn` — rule probabilities from samples. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "file_progress.h"
#include "formats/grammar_write.h"
#include "gen/learn.h"
#include "base/ordered_pool.h"
#include "parse/parse.h"
#include "base/samples.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static int learn(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct learn_options {
    const char *output;
    bool invert, skip_invalid;
    uint32_t jobs;
    struct parse_options po;
};

static const struct learn_options defaults = {.po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT}};

static const struct cli_option options[] = {
    {"output", 'o', "OUT", "write the learned grammar to OUT (default: stdout)"},
    {"invert", 0, NULL, "write inverted probabilities: inputs unlike the samples"},
    CLI_PARSE_JOBS_OPTION,
    CLI_SKIP_INVALID_OPTION,
    CLI_SAMPLE_OPTIONS,
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    {0},
};

const struct cli_command cmd_learn_command = {
    "learn", "[options] GRAMMAR FILE|DIR...", "learn rule probabilities from sample inputs",
    "Parse every sample (directories are searched recursively; hidden files and\n"
    "manifest.json are skipped), count how often each alternative of each\n"
    "alternation is chosen in the derivation trees, and write GRAMMAR back with\n"
    "every alternative annotated with its probability (count / times the\n"
    "alternation was reached) as an N% prefix, and a '#:' comment per rule with\n"
    "the raw counts.  An alternation no sample reaches stays uniform ('never\n"
    "reached').  A quantifier gets the probability of one more repetition beyond\n"
    "its minimum (extra / (instances + extra), a geometric distribution with the\n"
    "samples' mean) as a line '#: repeat I P' above its rule.  An ambiguous\n"
    "sample counts with its first tree (at each ambiguity, the derivation\n"
    "completed first) and is reported.\n"
    "\n"
    "--invert writes inputs-from-hell probabilities: per alternation 1/p,\n"
    "normalized; alternatives no sample used share all the probability; a\n"
    "quantifier's P becomes 1 - P.  The output loads as a grammar and gives the\n"
    "same probabilities to 'kpath gen --strategy prob --probs OUT'.\n"
    "\n"
    "Samples that cannot be read or do not parse are reported at the end with\n"
    "their positions and make the exit status 2 (0 with --skip-invalid, which\n"
    "lists them as warnings, left out); the others are still learned from.\n"
    "With -j N, N threads parse the samples; the output is the same as with -j 1.\n"
    "On a terminal, once the run has lasted a second, a line on stderr names\n"
    "the sample being read and for how long.",
    options, NULL, true,
    .needs = CLI_GRAPH | CLI_STDIN_ONCE, .args_size = sizeof defaults,
    .args_defaults = &defaults,
    .on_option = on_option, .main = learn,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct learn_options *lo = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "output") == 0)
        lo->output = value;
    else if (strcmp(name, "invert") == 0)
        lo->invert = true;
    else if (strcmp(name, "skip-invalid") == 0)
        lo->skip_invalid = true;
    else if (strcmp(name, "jobs") == 0)
        return cli_parse_u32(cmd, "-j", value, 1, CLI_PARSE_JOBS_MAX, &lo->jobs) ? CLI_CONTINUE
                                                                                 : EXIT_USAGE;
    else
        return cli_sample_option(cmd, name, value, &lo->po);
    return CLI_CONTINUE;
}

/* One sample: parsed by a worker, which learns from its first tree into the
 * worker's own counts; reported (failures, ambiguity) in the order of the
 * list by the calling thread. */
struct sample_job {
    struct diag_list diags;
    bool learned, infinite;
    uint64_t trees;
};

struct sample_learning {
    const struct graph *graph;
    const struct parse_options *po;
    char *const *paths;
    struct sample_job *jobs;
    struct learned *partial; /* one per worker */
    struct diag_list *failures;
    size_t learned_from;
    struct file_progress progress;
};

static void learn_work(void *ctx, size_t i, unsigned worker, struct strbuf *text)
{
    struct sample_learning *sl = ctx;
    struct sample_job *job = &sl->jobs[i];
    const char *name = samples_display_name(sl->paths[i]);
    job->diags = (struct diag_list)DIAG_LIST_INIT;
    if (!samples_read(sl->paths[i], sl->po->max_input_size, text, &job->diags))
        return;
    struct forest *f = parse_text(sl->graph, name, text->data ? text->data : "", text->len, sl->po,
                                  &job->diags);
    if (!f)
        return;
    job->trees = forest_count_trees(f, &job->infinite);
    struct derivation t;
    if (forest_first_tree(f, &t)) {
        learn_add_tree(&sl->partial[worker], &t, job->trees > 1);
        job->learned = true;
    }
    derivation_free(&t);
    forest_free(f);
}

static void learn_waiting(void *ctx, size_t i)
{
    struct sample_learning *sl = ctx;
    file_progress_file(&sl->progress, sl->paths[i], samples_display_name(sl->paths[i]), i);
}

static void learn_take(void *ctx, size_t i)
{
    struct sample_learning *sl = ctx;
    struct sample_job *job = &sl->jobs[i];
    const char *name = samples_display_name(sl->paths[i]);
    for (size_t d = 0; d < job->diags.len; d++) {
        const struct diag *e = &job->diags.items[d];
        diag_add(sl->failures, e->severity, e->file, e->line, e->col, "%s", e->message);
    }
    diag_list_free(&job->diags);
    if (!job->learned)
        return;
    sl->learned_from++;
    if (job->trees > 1) {
        char count[FOREST_TREES_TEXT_SIZE];
        file_progress_hold(&sl->progress);
        if (job->infinite)
            fprintf(stderr, "%s: ambiguous (infinitely many trees); counted its first tree\n", name);
        else
            fprintf(stderr, "%s: ambiguous (%s trees); counted its first tree\n", name,
                    forest_trees_text(job->trees, count));
        file_progress_release(&sl->progress);
    }
}

static int learn(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    const struct cli_common c = ctx->common;
    const struct graph *graph = ctx->graph;
    struct learn_options lo = *(struct learn_options *)args;
    int status;
    struct diag_list failures = DIAG_LIST_INIT;
    struct sample_list files = SAMPLE_LIST_INIT;
    size_t not_found = samples_expand(c.files, c.nfiles, cli_any_file(), &files, &failures);
    struct learned lr;
    learn_init(&lr, graph);
    struct sample_learning sl = {.graph = graph, .po = &lo.po, .paths = files.paths,
                                 .jobs = xcalloc(files.len + 1, sizeof *sl.jobs),
                                 .failures = &failures};
    unsigned nworkers = lo.jobs > 1 ? lo.jobs : 1;
    sl.partial = xcalloc(nworkers, sizeof *sl.partial);
    for (unsigned w = 0; w < nworkers; w++)
        learn_init(&sl.partial[w], graph);
    file_progress_start(&sl.progress, cmd->name);
    static const struct ordered_pool_ops ops = {learn_work, learn_waiting, learn_take};
    ordered_pool_run(files.len, nworkers, &ops, &sl);
    file_progress_stop(&sl.progress);
    /* counts are sums: the workers' parts add up to the same table in any order */
    for (unsigned w = 0; w < nworkers; w++) {
        learn_merge(&lr, &sl.partial[w]);
        learn_free(&sl.partial[w]);
    }
    free(sl.partial);
    free(sl.jobs);
    size_t learned_from = sl.learned_from;
    double *probs = xmalloc(probability_table_size(graph) * sizeof *probs);
    learn_probabilities(&lr, probs);
    if (lo.invert)
        probabilities_invert(graph, probs, probs);
    struct strbuf out = STRBUF_INIT;
    probabilities_write(graph, probs, &lr, lo.invert, &out);
    struct diag_list write_errors = DIAG_LIST_INIT;
    /* --skip-invalid: the failures are left out, unless nothing is left */
    bool failed = failures.errors && (!lo.skip_invalid || learned_from == 0);
    if (lo.output && failed) {
        /* A failed command leaves OUT as it was (as every -o does). */
        fprintf(stderr, "kpath %s: %s not written: not every sample could be learned from\n",
                cmd->name, lo.output);
    } else if (lo.output) {
        if (write_file_atomic(lo.output, out.data, out.len, &write_errors))
            fprintf(stderr, "wrote %s: probabilities%s from %zu sample%s\n", lo.output,
                    lo.invert ? " inverted" : "", learned_from, learned_from == 1 ? "" : "s");
    } else {
        cli_write(out.data, out.len);
    }
    if (failures.len)
        cli_print_input_failures(cmd, failures.errors, files.len + not_found, "sample",
                                 "could not be learned from", lo.skip_invalid, &failures);
    cli_print_diags(cmd, &write_errors);
    status = write_errors.errors ? EXIT_FAILURE_OTHER : failed ? EXIT_USAGE : EXIT_OK;
    diag_list_free(&write_errors);
    diag_list_free(&failures);
    strbuf_free(&out);
    free(probs);
    learn_free(&lr);
    sample_list_free(&files);
    return status;
}
