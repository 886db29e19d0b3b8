/* cmd_reduce: `kpath reduce` — the smallest subset of a suite that keeps all
 * of its k-path coverage (every k from 1 to K) and, with a results file, all
 * of the behaviour features its inputs reached.
 *
 * Every input is measured first (input_kpaths.h) and its items handed to
 * reduce.h; a single input that cannot be read or parsed stops the command
 * before anything is written, since its coverage would be unknown.  The
 * subset is copied as numbered files, re-read and checked against the hash
 * taken when it was measured, with manifest.json written last (outdir.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "explain_session.h"
#include "file_progress.h"
#include "parse/input_kpaths.h"
#include "base/ordered_pool.h"
#include "base/json.h"
#include "graph/kpath.h"
#include "base/outdir.h"
#include "base/number.h"
#include "suite/reduce.h"
#include "run/results.h"
#include "base/samples.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static void init_args(void *args);
static int reduce(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct reduce_cli {
    uint32_t k;
    const char *results;
    struct setcover_options sc;
    const char *outdir, *suffix;
    bool force, skip_invalid;
    uint32_t jobs;
    struct parse_options po;
};

static const struct reduce_cli defaults = {.k = 2,
                                           .po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT}};

_Static_assert(SETCOVER_DEFAULT_EXACT_LIMIT == 40, "help text: --exact-limit default");

static const struct cli_option options[] = {
    {"k", 'k', "K", "keep the k-paths for k = 1 .. K (default 2; 0 with --results: keep only "
                    "the behaviour features)"},
    {"results", 0, "FILE", "keep the behaviour features of FILE (kpath run's results) too"},
    {"exact-limit", 0, "N", "search exactly when at most N inputs are in play (default 40, 0: never)"},
    {"output", 'o', "DIR", "copy the subset to DIR/0001.txt, ... with DIR/manifest.json"},
    {"suffix", 0, "SUF", "with -o: file name suffix (default .txt)"},
    {"force", 0, NULL, "with -o: use a non-empty DIR, replacing its test cases"},
    CLI_PARSE_JOBS_OPTION,
    CLI_SKIP_INVALID_OPTION,
    CLI_SAMPLE_OPTIONS,
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    {"json", 0, NULL, "print the report (the manifest, with every input) as JSON"},
    {0},
};

const struct cli_command cmd_reduce_command = {
    .name = "reduce",
    .usage = "[options] GRAMMAR FILE|DIR... [--results FILE] [-o DIR]",
    .summary = "keep the fewest inputs that keep a suite's coverage",
    .description =
    "Choose the fewest of the given inputs, then the fewest bytes, that together\n"
    "cover every k-path (for every k from 1 to K) the whole suite covers and,\n"
    "with --results, every behaviour feature its runs reached.  FILE|DIR work as\n"
    "in kpath coverage; a results file refers to inputs by path, and an input\n"
    "found there by neither path nor content counts as reaching no feature.\n"
    "-k 0 with --results keeps behaviour alone: the fewest inputs that reach\n"
    "every feature, whatever k-paths they cover.  A results file recorded with\n"
    "another grammar (grammar_sha256) is warned about, as explain does.\n"
    "\n"
    "How: inputs that alone cover something are kept; greedy set cover adds\n"
    "the input covering the most that is still missing (ties: fewer bytes);\n"
    "inputs whose every item another kept input covers are dropped, largest\n"
    "first, and a kept input is swapped for a smaller one that covers what only\n"
    "it covers; then, when at most --exact-limit inputs are still in play (after\n"
    "dropping those another input beats on items and bytes), a branch and bound\n"
    "search finds the optimum within a million nodes.  The report gives a lower\n"
    "bound on the number of inputs any such subset needs, and how far the result\n"
    "is from it.\n"
    "\n"
    "Each kept input is listed with what only it covers within the subset (its\n"
    "marginal contribution; never empty: no kept input is redundant).  With\n"
    "-o DIR the subset is copied to DIR/0001.txt, ... in the order given, and\n"
    "DIR/manifest.json, written last, says where each file came from (path and\n"
    "SHA-256) and what only it covers.  Every file is written atomically; -o\n"
    "refuses a non-empty DIR unless --force.  An input that cannot be read or\n"
    "parsed is an error (exit status 2) and nothing is written: every such\n"
    "input is listed (FILE:LINE:COL), as kpath coverage lists them.  With\n"
    "--skip-invalid they are left out, listed as warnings, and the report and\n"
    "the manifest (\"left_out\") name them.  On a terminal, once the run has\n"
    "lasted a second, a line on stderr names the input being read and for how\n"
    "long.  With -j N, N threads parse the inputs; the result is that of -j 1.",
    .options = options,
    .needs = CLI_GRAPH | CLI_STDIN_ONCE,
    .args_size = sizeof defaults,
    .args_defaults = &defaults,
    .init_args = init_args,
    .on_option = on_option,
    .main = reduce,
    .takes_files = true,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct reduce_cli *a = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "k") == 0)
        return cli_parse_u32(cmd, "-k", value, 0, KPATH_MAX_K, &a->k) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "exact-limit") == 0)
        return cli_parse_u32(cmd, "--exact-limit", value, 0, SETCOVER_MAX_EXACT_LIMIT,
                             &a->sc.exact_limit) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "results") == 0) {
        a->results = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "output") == 0) {
        if (!*value)
            return cli_usage_error(cmd, "-o needs a directory name");
        a->outdir = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "suffix") == 0) {
        if (strchr(value, '/'))
            return cli_usage_error(cmd, "--suffix must not contain '/', not '%s'", value);
        a->suffix = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "force") == 0) {
        a->force = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "skip-invalid") == 0) {
        a->skip_invalid = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "jobs") == 0)
        return cli_parse_u32(cmd, "-j", value, 1, CLI_PARSE_JOBS_MAX, &a->jobs) ? CLI_CONTINUE
                                                                                : EXIT_USAGE;
    return cli_sample_option(cmd, name, value, &a->po);
}

/* Per input, beyond what reduce.h keeps. */
struct input_meta {
    char *path;                   /* owned; as expanded ("-" for stdin) */
    char sha256[SHA256_HEX_SIZE];
    char *stdin_text;             /* owned; only for "-", which cannot be re-read */
    size_t stdin_len;
    bool has_record;
};

struct state {
    const struct cli_command *cmd;
    struct reduce_cli *a;
    const struct graph *graph;
    const char *grammar_path;
    const char *start_rule;
    struct kpath_space *spaces;   /* a->k */
    uint64_t *totals;             /* per k: |paths_k(G)| */
    struct results results;
    bool have_results;
    struct reduce red;
    struct input_meta *meta;
    size_t nmeta, meta_cap;
    struct setcover_result res;
    uint64_t bytes_given;
    char **left_out;              /* owned; --skip-invalid: inputs not measured */
    size_t nleft_out;
};

/* The record of an input: by path, else by content. */
static const struct run_record *find_record(const struct results *r, const char *path,
                                            const char *sha)
{
    const struct run_record *rec = results_find_input(r, path);
    for (size_t i = 0; !rec && i < r->nrecords; i++)
        if (strcmp(r->records[i].input_sha256, sha) == 0)
            rec = &r->records[i];
    return rec;
}

/* One input, measured by a worker of ordered_pool (its parse, into sets of
 * its own) and taken in the order of the list (into the reduction). */
struct input_job {
    const char *path;
    struct kpath_set *sets;       /* k of them; NULL when the input failed */
    char sha256[SHA256_HEX_SIZE];
    size_t len;
    char *stdin_text;             /* "-" only: it cannot be read again */
    struct diag_list diags;
};

struct measuring {
    struct state *s;
    struct input_job *jobs;
    struct diag_list *errs;
    size_t failed;
    struct file_progress progress;
};

static void measure_work(void *ctx, size_t i, unsigned worker, struct strbuf *text)
{
    struct measuring *ms = ctx;
    struct state *s = ms->s;
    struct input_job *job = &ms->jobs[i];
    (void)worker;
    uint32_t k = s->a->k;
    job->diags = (struct diag_list)DIAG_LIST_INIT;
    job->sets = xcalloc(k, sizeof *job->sets);
    struct kpath_set **ptrs = xcalloc(k, sizeof *ptrs);
    for (uint32_t j = 0; j < k; j++) {
        kpath_set_init(&job->sets[j], &s->spaces[j]);
        ptrs[j] = &job->sets[j];
    }
    bool ok = input_kpaths_file(s->graph, job->path, &s->a->po, ptrs, k, NULL, text, NULL,
                                &job->diags);
    free(ptrs);
    if (!ok) {
        for (uint32_t j = 0; j < k; j++)
            kpath_set_free(&job->sets[j]);
        free(job->sets);
        job->sets = NULL;
        return;
    }
    sha256_hex(text->data ? text->data : "", text->len, job->sha256);
    job->len = text->len;
    if (strcmp(job->path, "-") == 0) {
        job->stdin_text = xmalloc(text->len + 1);
        memcpy(job->stdin_text, text->data ? text->data : "", text->len);
    }
}

static void measure_waiting(void *ctx, size_t i)
{
    struct measuring *ms = ctx;
    file_progress_file(&ms->progress, ms->jobs[i].path, samples_display_name(ms->jobs[i].path), i);
}

static void measure_take(void *ctx, size_t i)
{
    struct measuring *ms = ctx;
    struct state *s = ms->s;
    struct input_job *job = &ms->jobs[i];
    if (!job->sets) {
        ms->failed++;
        for (size_t d = 0; d < job->diags.len; d++) {
            const struct diag *e = &job->diags.items[d];
            if (e->severity == DIAG_ERROR)
                diag_add(ms->errs, e->severity, e->file, e->line, e->col, "%s", e->message);
        }
        diag_list_free(&job->diags);
        return;
    }
    diag_list_free(&job->diags);
    uint32_t k = s->a->k;
    s->meta = xgrow(s->meta, &s->meta_cap, s->nmeta + 1, sizeof *s->meta);
    struct input_meta *m = &s->meta[s->nmeta++];
    memset(m, 0, sizeof *m);
    m->path = xstrdup(job->path);
    memcpy(m->sha256, job->sha256, sizeof m->sha256);
    m->stdin_text = job->stdin_text;
    m->stdin_len = job->stdin_text ? job->len : 0;
    const struct run_record *rec =
        s->have_results ? find_record(&s->results, job->path, m->sha256) : NULL;
    m->has_record = rec != NULL;
    const struct kpath_set **ptrs = xcalloc(k, sizeof *ptrs);
    for (uint32_t j = 0; j < k; j++)
        ptrs[j] = &job->sets[j];
    reduce_add_input(&s->red, samples_display_name(job->path), job->len,
                     (const struct kpath_set *const *)ptrs, rec ? rec->features : NULL,
                     rec ? rec->nfeatures : 0);
    free(ptrs);
    s->bytes_given += job->len;
    for (uint32_t j = 0; j < k; j++)
        kpath_set_free(&job->sets[j]);
    free(job->sets);
    job->sets = NULL;
}

/* ---- the report ------------------------------------------------------------ */

static void add_item(const struct state *s, uint32_t item, struct strbuf *out)
{
    const struct reduce_item *it = &s->red.items[item];
    if (it->k == 0) {
        strbuf_addstr(out, "feature ");
        strbuf_addstr(out, s->results.features[it->ref]);
        return;
    }
    strbuf_addf(out, "k=%u ", it->k);
    const uint32_t *path = reduce_item_path(&s->red, item);
    for (uint32_t i = 0; i < it->k; i++) {
        if (i)
            strbuf_addstr(out, " -> ");
        graph_node_name(s->graph, path[i], out);
    }
}

/* "k=1 2, k=2 5, features 1" */
static void add_kinds(const struct state *s, const uint32_t *items, uint32_t n, struct strbuf *out)
{
    uint64_t *per = xcalloc((size_t)s->a->k + 1, sizeof *per);
    for (uint32_t i = 0; i < n; i++)
        per[s->red.items[items[i]].k]++;
    for (uint32_t j = 1; j <= s->a->k; j++)
        strbuf_addf(out, "%sk=%u %" PRIu64, j > 1 ? ", " : "", j, per[j]);
    if (s->have_results)
        strbuf_addf(out, ", features %" PRIu64, per[0]);
    free(per);
}

static double mean(uint64_t bytes, uint32_t n)
{
    return n ? (double)bytes / (double)n : 0.0;
}

static void add_method_text(const struct state *s, struct strbuf *out)
{
    const struct setcover_result *r = &s->res;
    strbuf_addf(out, "method: %u essential (alone cover something); greedy %u input%s "
                     "(%" PRIu64 " bytes); %u after dropping redundant ones and swapping in cheaper "
                     "ones (%" PRIu64 " bytes)",
                r->essential, r->greedy_count, plural_s(r->greedy_count), r->greedy_cost,
                r->pruned_count, r->pruned_cost);
    if (r->exact_tried)
        strbuf_addf(out, "; exact search over %u input%s in play: %s (%" PRIu64 " nodes)",
                    r->in_play, plural_s(r->in_play), r->optimal ? "optimal" : "node limit reached, best found",
                    r->nodes);
    else if (r->in_play)
        strbuf_addf(out, "; %u input%s in play, more than --exact-limit %u: no exact search",
                    r->in_play, plural_s(r->in_play), s->a->sc.exact_limit);
    strbuf_addstr(out, "\n");
    if (r->optimal)
        strbuf_addf(out, "optimal: %u input%s, and no subset of %u input%s has fewer bytes\n",
                    r->nchosen, plural_s(r->nchosen), r->nchosen, plural_s(r->nchosen));
    else if (r->lower_bound >= r->nchosen)
        strbuf_addf(out, "lower bound: %u input%s; the number is optimal (the bytes may not "
                         "be)\n", r->lower_bound, plural_s(r->lower_bound));
    else
        strbuf_addf(out, "lower bound: %u input%s; the result is at most %u above it\n",
                    r->lower_bound, plural_s(r->lower_bound), r->nchosen - r->lower_bound);
}

static void print_text(const struct state *s, struct strbuf *out)
{
    const struct setcover_result *r = &s->res;
    strbuf_addf(out, "kept %u of %u input%s: %" PRIu64 " of %" PRIu64 " bytes (mean %.1f)\n",
                r->nchosen, s->red.ninputs, plural_s(s->red.ninputs), r->cost, s->bytes_given, mean(r->cost, r->nchosen));
    for (uint32_t i = 0; i < r->nchosen; i++) {
        uint32_t c = r->chosen[i], nonly;
        uint32_t *only = reduce_only(&s->red, r->chosen, r->nchosen, c, &nonly);
        strbuf_addf(out, "  %s  %" PRIu64 " bytes, only it covers: ", s->red.inputs[c].name,
                    s->red.inputs[c].bytes);
        add_kinds(s, only, nonly, out);
        strbuf_addstr(out, "\n");
        free(only);
    }
    uint64_t *per = xcalloc((size_t)s->a->k + 1, sizeof *per);
    reduce_coverage(&s->red, r->chosen, r->nchosen, per);
    strbuf_addstr(out, "coverage kept:");
    for (uint32_t j = 1; j <= s->a->k; j++)
        strbuf_addf(out, "%s k=%u %" PRIu64 "/%" PRIu64, j > 1 ? "," : "", j, per[j],
                    s->totals[j - 1]);
    if (s->have_results)
        strbuf_addf(out, ", features %" PRIu64 " (of %" PRIu32 " in the results file)",
                    per[0], s->results.nfeatures);
    strbuf_addf(out, ": all of what the %u input%s\n", s->red.ninputs,
                s->red.ninputs == 1 ? " covers" : "s cover");
    if (s->nleft_out)
        strbuf_addf(out, "left out: %zu input%s that could not be read or parsed "
                         "(--skip-invalid; listed on stderr)\n",
                    s->nleft_out, plural_s(s->nleft_out));
    free(per);
    add_method_text(s, out);
}

static void build_manifest(const struct state *s, char **names, struct strbuf *out)
{
    const struct setcover_result *r = &s->res;
    char hex[SHA256_HEX_SIZE];
    struct diag_list ignore = DIAG_LIST_INIT;
    bool hashed = sha256_file(s->grammar_path, hex, &ignore);
    diag_list_free(&ignore);
    strbuf_addstr(out, "{\n  \"tool\": \"kpath\",\n  \"version\": ");
    json_add_cstring(out, KPATH_VERSION);
    strbuf_addstr(out, ",\n  \"command\": \"reduce\",\n  \"grammar\": {\"path\": ");
    json_add_cstring(out, s->grammar_path);
    strbuf_addstr(out, ", \"sha256\": ");
    if (hashed)
        json_add_cstring(out, hex);
    else
        strbuf_addstr(out, "null");
    strbuf_addstr(out, ", \"start\": ");
    json_add_cstring(out, s->start_rule);
    strbuf_addf(out, "},\n  \"k\": %u,\n  \"results\": ", s->a->k);
    if (s->a->results)
        json_add_cstring(out, s->a->results);
    else
        strbuf_addstr(out, "null");
    strbuf_addstr(out, ",\n  \"left_out\": [");
    for (size_t i = 0; i < s->nleft_out; i++) {
        strbuf_addstr(out, i ? ", " : "");
        json_add_cstring(out, s->left_out[i]);
    }
    strbuf_addstr(out, "]");
    if (names) {
        strbuf_addstr(out, ",\n  \"suffix\": ");
        json_add_cstring(out, s->a->suffix);
    }
    strbuf_addstr(out, ",\n  \"files\": [");
    struct strbuf item = STRBUF_INIT;
    for (uint32_t i = 0; i < r->nchosen; i++) {
        uint32_t c = r->chosen[i], nonly;
        strbuf_addstr(out, i ? ",\n    {" : "\n    {");
        if (names) {
            strbuf_addstr(out, "\"name\": ");
            json_add_cstring(out, names[i]);
            strbuf_addstr(out, ", ");
        }
        strbuf_addstr(out, "\"source\": ");
        json_add_cstring(out, s->red.inputs[c].name);
        strbuf_addstr(out, ", \"sha256\": ");
        json_add_cstring(out, s->meta[c].sha256);
        strbuf_addf(out, ", \"size\": %" PRIu64 ", \"only\": [", s->red.inputs[c].bytes);
        uint32_t *only = reduce_only(&s->red, r->chosen, r->nchosen, c, &nonly);
        /* k = 1 .. K, then the features */
        bool first = true;
        for (uint32_t kind = 1; kind <= s->a->k + 1; kind++)
            for (uint32_t j = 0; j < nonly; j++) {
                if (s->red.items[only[j]].k != kind % (s->a->k + 1))
                    continue;
                strbuf_reset(&item);
                add_item(s, only[j], &item);
                strbuf_addstr(out, first ? "" : ", ");
                first = false;
                json_add_string(out, item.data, item.len);
            }
        free(only);
        strbuf_addstr(out, "]}");
    }
    strbuf_free(&item);
    strbuf_addstr(out, r->nchosen ? "\n  ],\n" : "],\n");
    strbuf_addf(out, "  \"summary\": {\n    \"inputs_given\": %u,\n    \"bytes_given\": %" PRIu64
                     ",\n    \"inputs\": %u,\n    \"total_bytes\": %" PRIu64
                     ",\n    \"mean_bytes\": %.1f,\n    \"coverage\": [",
                s->red.ninputs, s->bytes_given, r->nchosen, r->cost, mean(r->cost, r->nchosen));
    uint64_t *per = xcalloc((size_t)s->a->k + 1, sizeof *per);
    reduce_coverage(&s->red, r->chosen, r->nchosen, per);
    for (uint32_t j = 1; j <= s->a->k; j++)
        strbuf_addf(out, "%s{\"k\": %u, \"covered\": %" PRIu64 ", \"total\": %" PRIu64 "}",
                    j > 1 ? ", " : "", j, per[j], s->totals[j - 1]);
    strbuf_addstr(out, "],\n    \"features\": ");
    if (s->have_results)
        strbuf_addf(out, "%" PRIu64, per[0]);
    else
        strbuf_addstr(out, "null");
    free(per);
    strbuf_addf(out, ",\n    \"essential\": %u,\n    \"greedy\": {\"inputs\": %u, \"bytes\": %" PRIu64
                     "},\n    \"pruned\": {\"inputs\": %u, \"bytes\": %" PRIu64
                     "},\n    \"in_play\": %u,\n    \"exact_search\": %s,\n    \"nodes\": %" PRIu64
                     ",\n    \"optimal\": %s,\n    \"lower_bound\": %u\n  }\n}\n",
                r->essential, r->greedy_count, r->greedy_cost, r->pruned_count, r->pruned_cost,
                r->in_play, r->exact_tried ? "true" : "false", r->nodes,
                r->optimal ? "true" : "false", r->lower_bound);
}

/* Copy the subset and the manifest.  EXIT_OK or EXIT_FAILURE_OTHER. */
static int write_subset(struct state *s, struct outdir *od, struct diag_list *diags)
{
    const struct setcover_result *r = &s->res;
    char **names = xcalloc((size_t)r->nchosen + 1, sizeof *names);
    for (uint32_t i = 0; i < r->nchosen; i++) {
        struct strbuf name = STRBUF_INIT;
        outdir_case_name(&name, i + 1, r->nchosen, s->a->suffix);
        names[i] = strbuf_detach(&name, NULL);
    }
    bool ok = true;
    struct strbuf text = STRBUF_INIT;
    for (uint32_t i = 0; ok && i < r->nchosen; i++) {
        const struct input_meta *m = &s->meta[r->chosen[i]];
        const char *data;
        size_t len;
        if (m->stdin_text) {
            data = m->stdin_text;
            len = m->stdin_len;
        } else {
            if (!(ok = samples_read(m->path, s->a->po.max_input_size, &text, diags)))
                break;
            char hex[SHA256_HEX_SIZE];
            sha256_hex(text.data ? text.data : "", text.len, hex);
            if (strcmp(hex, m->sha256) != 0) {
                diag_add(diags, DIAG_ERROR, m->path, 0, 0, "changed since it was measured");
                ok = false;
                break;
            }
            data = text.data ? text.data : "";
            len = text.len;
        }
        ok = outdir_write(od, names[i], data, len, diags);
    }
    strbuf_free(&text);
    if (ok) {
        struct strbuf manifest = STRBUF_INIT;
        build_manifest(s, names, &manifest);
        ok = outdir_write(od, SAMPLES_MANIFEST_NAME, manifest.data, manifest.len, diags);
        strbuf_free(&manifest);
    }
    if (ok)
        ok = outdir_finish(od, s->a->suffix, diags);
    cli_print_diags(s->cmd, diags);
    for (uint32_t i = 0; i < r->nchosen; i++)
        free(names[i]);
    free(names);
    if (!ok) {
        fprintf(stderr, "kpath reduce: %zu file%s written to %s before the error; %s intact\n",
                od->written, od->written == 1 ? " was" : "s were", s->a->outdir,
                od->written == 1 ? "it is" : "they are");
        return EXIT_FAILURE_OTHER;
    }
    fprintf(stderr, "wrote %u input file%s and manifest.json to %s\n", r->nchosen,
            r->nchosen == 1 ? "" : "s", s->a->outdir);
    return EXIT_OK;
}

static void state_free(struct state *s)
{
    for (size_t i = 0; i < s->nleft_out; i++)
        free(s->left_out[i]);
    free(s->left_out);
    for (size_t i = 0; i < s->nmeta; i++) {
        free(s->meta[i].path);
        free(s->meta[i].stdin_text);
    }
    free(s->meta);
    setcover_result_free(&s->res);
    reduce_free(&s->red);
    results_free(&s->results);
    if (s->spaces)
        for (uint32_t j = 0; j < s->a->k; j++)
            kpath_space_free(&s->spaces[j]);
    free(s->spaces);
    free(s->totals);
}

static int reduce_run(struct state *s, struct cli_common *c)
{
    const struct cli_command *cmd = s->cmd;
    struct reduce_cli *a = s->a;
    if (!a->outdir && (a->suffix || a->force))
        return cli_usage_error(cmd, "%s needs -o DIR", a->suffix ? "--suffix" : "--force");
    if (a->k == 0 && !a->results)
        return cli_usage_error(cmd, "-k 0 keeps only behaviour features: it needs --results FILE");
    if (!a->suffix)
        a->suffix = ".txt";

    struct diag_list diags = DIAG_LIST_INIT;
    if (a->results) {
        /* Loaded as explain loads it: a results file recorded with another
         * grammar is warned about (its inputs may parse differently). */
        if (explain_session_load_results(cmd, s->grammar_path, a->results, &s->results) != EXIT_OK)
            return EXIT_USAGE;
        s->have_results = true;
    }

    struct sample_list files = SAMPLE_LIST_INIT;
    struct diag_list failures = DIAG_LIST_INIT;
    size_t errors = samples_expand(c->files, c->nfiles, cli_any_file(), &files, &failures);
    for (size_t i = 0; i < failures.len; i++)
        if (failures.items[i].severity != DIAG_ERROR) {
            struct strbuf line = STRBUF_INIT;
            diag_format(&failures.items[i], &line);
            fprintf(stderr, "%s\n", strbuf_str(&line));
            strbuf_free(&line);
        }
    struct diag_list errs = DIAG_LIST_INIT;
    for (size_t i = 0; i < failures.len; i++)
        if (failures.items[i].severity == DIAG_ERROR) {
            const struct diag *e = &failures.items[i];
            diag_add(&errs, e->severity, e->file, e->line, e->col, "%s", e->message);
        }
    diag_list_free(&failures);
    struct measuring ms = {.s = s, .jobs = xcalloc(files.len + 1, sizeof *ms.jobs),
                           .errs = &errs, .failed = errors};
    for (size_t i = 0; i < files.len; i++)
        ms.jobs[i].path = files.paths[i];
    file_progress_start(&ms.progress, cmd->name);
    static const struct ordered_pool_ops ops = {measure_work, measure_waiting, measure_take};
    ordered_pool_run(files.len, a->jobs, &ops, &ms);
    file_progress_stop(&ms.progress);
    free(ms.jobs);
    size_t failed = ms.failed;
    size_t attempted = files.len + errors;
    sample_list_free(&files);
    int status = EXIT_OK;
    /* Refuse by default: reducing the others would drop these inputs (an
     * invalid input may be a test of its own) without a word. */
    bool go_on = failed && a->skip_invalid && s->red.ninputs > 0;
    if (failed)
        cli_print_input_failures(cmd, failed, attempted, "input",
                                 "could not be measured; nothing was reduced (--skip-invalid "
                                 "reduces the others)", go_on, &errs);
    if ((failed && !go_on) || attempted == 0) {
        if (failed && a->skip_invalid)
            fprintf(stderr, "kpath reduce: error: no input could be measured\n");
        else if (!failed)
            fprintf(stderr, "kpath reduce: error: no input files to reduce\n");
        diag_list_free(&errs);
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < errs.len; i++) {
        const char *file = errs.items[i].file;
        if (!file || (s->nleft_out && strcmp(s->left_out[s->nleft_out - 1], file) == 0))
            continue; /* one name per input */
        s->left_out = xrealloc(s->left_out, (s->nleft_out + 1) * sizeof *s->left_out);
        s->left_out[s->nleft_out++] = xstrdup(file);
    }
    diag_list_free(&errs);

    /* Refuse a bad directory before the set cover, but only once every
     * input was measured: outdir_open creates DIR, and a refused run leaves
     * nothing new behind. */
    struct outdir od = {0};
    if (a->outdir) {
        enum outdir_status os = outdir_open(&od, a->outdir, a->force, &diags);
        if (os != OUTDIR_OK) {
            cli_print_diags(cmd, &diags);
            diag_list_free(&diags);
            outdir_close(&od);
            return os == OUTDIR_REFUSED ? EXIT_USAGE : EXIT_FAILURE_OTHER;
        }
    }

    if (s->have_results) {
        size_t missing = 0;
        const char *first = NULL;
        for (size_t i = 0; i < s->nmeta; i++)
            if (!s->meta[i].has_record) {
                missing++;
                if (!first)
                    first = samples_display_name(s->meta[i].path);
            }
        if (missing)
            fprintf(stderr, "kpath reduce: warning: %zu input%s (%s%s) %s no record in %s, "
                            "by path or content; %s no features\n",
                    missing, missing == 1 ? "" : "s", first, missing > 1 ? ", ..." : "",
                    missing == 1 ? "has" : "have", a->results,
                    missing == 1 ? "it counts as reaching" : "they count as reaching");
    }

    reduce_solve(&s->red, &a->sc, &s->res);

    struct strbuf out = STRBUF_INIT;
    if (c->json)
        build_manifest(s, NULL, &out);
    else
        print_text(s, &out);
    if (!cli_write(out.data, out.len))
        status = EXIT_FAILURE_OTHER;
    strbuf_free(&out);
    fflush(stdout);
    if (a->outdir && status == EXIT_OK)
        status = write_subset(s, &od, &diags);
    diag_list_free(&diags);
    outdir_close(&od);
    return status;
}

static void init_args(void *args)
{
    setcover_options_default(&((struct reduce_cli *)args)->sc);
}

static int reduce(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    struct cli_common c = ctx->common;
    const struct grammar *g = ctx->grammar;
    const struct graph *graph = ctx->graph;
    struct reduce_cli a = *(struct reduce_cli *)args;
    int status;
    struct state s = {.cmd = cmd, .a = &a, .graph = graph, .grammar_path = c.grammar,
                      .start_rule = g->rules[grammar_user_start(g)].name};
    s.spaces = xcalloc(a.k, sizeof *s.spaces);
    s.totals = xcalloc(a.k, sizeof *s.totals);
    for (uint32_t j = 0; j < a.k; j++) {
        kpath_space_init(&s.spaces[j], graph, j + 1);
        s.totals[j] = s.spaces[j].total;
    }
    reduce_init(&s.red, a.k);
    results_init(&s.results);
    status = reduce_run(&s, &c);
    state_free(&s);
    return status;
}
