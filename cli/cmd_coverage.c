/* cmd_coverage: `kpath coverage` — the k-path coverage of sample files.
 *
 * Each file is read (size checked first), parsed, and its k-paths for every
 * k from 1 to K are added (input_kpaths.h) to the file's own sets, which are
 * then added to the sets of the whole run.  With -j 1 files are processed one
 * at a time, so memory holds one parse, whatever the number of files.  A
 * file that cannot be read or parsed is recorded and the run goes on; the
 * failures are listed at the
 * end and make the exit status 2, so nothing is dropped silently.
 *
 * With -j N, N threads parse the files of an argument at once (each parse
 * has its own --max-memory budget); every file's k-paths go to its own sets,
 * and the main thread reports the files and adds them to the totals in the
 * order of the list (src/base/ordered_pool.h), so the output is the same as with -j 1.  Parsing shares
 * nothing but the read-only graph and spaces. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "graph/expansion.h"
#include "file_progress.h"
#include "commands.h"
#include "base/json.h"
#include "parse/input_kpaths.h"
#include "graph/kpath.h"
#include "base/number.h"
#include "base/ordered_pool.h"
#include "parse/parse.h"
#include "graph/pin.h"
#include "graph/skip_paths.h"
#include "base/samples.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int coverage(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct coverage_args {
    uint32_t k, jobs;
    bool uncovered, growth, csv, by_bytes, skip_invalid, skip_paths;
    struct parse_options po;
};

static const struct coverage_args defaults = {
    .k = 2, .jobs = 1, .po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT}};

_Static_assert(PARSE_DEFAULT_MAX_INPUT == 16u << 20, "help text: --max-input-size default");

static const struct cli_option options[] = {
    {"k", 'k', "K", "report k = 1 .. K (default 2)"},
    CLI_PARSE_JOBS_OPTION,
    {"uncovered", 0, NULL, "list the K-paths no sample covers on stdout (report to stderr)"},
    {"growth", 0, NULL, "after each sample, the coverage of it and all before it (the growth "
                        "curve)"},
    {"csv", 0, NULL, "with --growth: print the curve as CSV, from 0 samples on"},
    {"by-bytes", 0, NULL, "with --growth: each point at the bytes of the samples so far, not "
                          "their number"},
    {"skip-paths", 0, NULL, "with --uncovered: also the K-paths through an ANTLR import's "
                            "_skip rules (hidden by default)"},
    {"pin", 0, "PATH", "coverage in the context of PATH, of the k-paths under it (repeatable)"},
    CLI_SKIP_INVALID_OPTION,
    CLI_SAMPLE_OPTIONS,
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_TOKEN_OPTION,
    {"json", 0, NULL, "print JSON instead of text"},
    {0},
};

const struct cli_command cmd_coverage_command = {
    .name = "coverage",
    .usage = "[options] GRAMMAR FILE|DIR...",
    .summary = "measure the k-path coverage of sample files",
    .description =
    "Parse every sample and report, per file and for all of them together, the\n"
    "k-paths covered out of the grammar's k-paths, for every k from 1 to K\n"
    "(x.txt holding x+42, with grammars/expr.ebnf):\n"
    "  x.txt: k=1 12/39 (30.7%), k=2 12/125 (9.6%)\n"
    "  total (1 file): k=1 12/39 (30.7%), k=2 12/125 (9.6%)\n"
    "  expansion coverage: 11/31 (35.4%)\n"
    "A k-path counts when it occurs in any derivation tree of a sample (an\n"
    "ambiguous sample says how many trees it has).  Percentages are rounded\n"
    "down, so only full coverage reads 100.0%.  Expansion coverage counts the\n"
    "alternatives of every alternation, and each rule without alternatives,\n"
    "that some tree of some sample uses (fuzzingbook's expansion_coverage),\n"
    "out of all of them; it is of the whole grammar, also with --pin.\n"
    "\n"
    "A DIR stands for every regular file below it, in path order, except\n"
    "hidden ones and manifest.json (the description kpath gen -o writes beside\n"
    "a suite); '-' is standard input.  A sample that cannot be read, is larger\n"
    "than --max-input-size or does not parse is listed at the end, on stderr,\n"
    "with the parser's diagnostic (FILE:LINE:COL: error: no parse: ...); every\n"
    "other sample is still measured, and the exit status is 2 (0 with\n"
    "--skip-invalid, which lists them as warnings, left out).\n"
    "\n"
    "On a terminal each file's line is shown as soon as the file is done, and\n"
    "once the run has lasted a second a line on stderr names the file it waits\n"
    "for and for how long (some grammars take minutes on a few kilobytes).\n"
    "\n"
    "With --uncovered, stdout lists the K-paths no sample covers, one per line\n"
    "as kpath paths prints them, and the report goes to stderr.  Those through\n"
    "the _skip rule an ANTLR import adds (whitespace, comments) are left out\n"
    "by default, and a line on stderr counts them (--skip-paths lists them);\n"
    "the percentages stay over all K-paths.\n"
    "\n"
    "With --growth, each line is the coverage of the first N samples that\n"
    "parsed, in the order above (the TUI's growth plot, v in the inputs pane):\n"
    "  1 x.txt: k=1 12/39 (30.7%), k=2 12/125 (9.6%), expansions 11/31 (35.4%)\n"
    "--csv prints the same as CSV with a header row and a first row for no\n"
    "samples: samples,file,k1_covered,k1_total,...,expansions_covered,\n"
    "expansions_total.  The report of the whole run goes to stderr then.\n"
    "--by-bytes puts each point at the total bytes of the samples so far\n"
    "instead of their number, to compare suites by the bytes they write (the\n"
    "explorer's :compare per byte):\n"
    "  5 bytes x.txt: k=1 12/39 (30.7%), k=2 12/125 (9.6%), expansions ...\n"
    "and in CSV a first column bytes in place of samples.\n"
    "For a suite kpath gen wrote, DIR gives its files in the order they were\n"
    "made.",
    .options = options,
    .takes_files = true,
    .needs = CLI_PINS | CLI_STDIN_ONCE,
    .args_size = sizeof defaults,
    .args_defaults = &defaults,
    .on_option = on_option,
    .check = check,
    .main = coverage,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct coverage_args *a = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "k") == 0)
        return cli_parse_u32(cmd, "-k", value, 1, KPATH_MAX_K, &a->k) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "jobs") == 0)
        return cli_parse_u32(cmd, "-j", value, 1, CLI_PARSE_JOBS_MAX, &a->jobs) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "uncovered") == 0) {
        a->uncovered = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "skip-paths") == 0) {
        a->skip_paths = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "growth") == 0) {
        a->growth = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "csv") == 0) {
        a->csv = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "by-bytes") == 0) {
        a->by_bytes = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "skip-invalid") == 0) {
        a->skip_invalid = true;
        return CLI_CONTINUE;
    }
    return cli_sample_option(cmd, name, value, &a->po);
}

/* ---- formatting -------------------------------------------------------------- */

/* Totals are UINT64_MAX when saturated. */
#define SATURATED UINT64_MAX

/* "12.3": the percentage rounded down to tenths, so only full coverage reads 100.0. */
static void add_percent(struct strbuf *out, uint64_t covered, uint64_t total)
{
    uint64_t tenths;
    if (covered >= total && total != SATURATED)
        tenths = 1000;
    else if (total == 0)
        tenths = 1000;
    else if (covered <= UINT64_MAX / 1000)
        tenths = covered * 1000 / total;
    else
        tenths = (uint64_t)((long double)covered * 1000.0L / (long double)total);
    if (tenths >= 1000 && (covered < total || total == SATURATED))
        tenths = 999;
    strbuf_addf(out, "%" PRIu64 ".%" PRIu64, tenths / 10, tenths % 10);
}

static void add_total(struct strbuf *out, uint64_t total)
{
    number_add_count(out, total);
}

/* "k=1 11/39 (28.2%), k=2 12/125 (9.6%)" */
static void add_row(struct strbuf *out, const uint64_t *totals, const uint64_t *covered,
                    uint32_t k)
{
    for (uint32_t j = 0; j < k; j++) {
        strbuf_addf(out, "%sk=%u %" PRIu64 "/", j ? ", " : "", j + 1, covered[j]);
        add_total(out, totals[j]);
        strbuf_addstr(out, " (");
        add_percent(out, covered[j], totals[j]);
        strbuf_addstr(out, "%)");
    }
}

/* One CSV field: quoted when it holds a comma, a quote or a line break. */
static void add_csv_field(struct strbuf *out, const char *text)
{
    if (!strpbrk(text, ",\"\r\n")) {
        strbuf_addstr(out, text);
        return;
    }
    strbuf_addch(out, '"');
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            strbuf_addch(out, '"');
        strbuf_addch(out, *c);
    }
    strbuf_addch(out, '"');
}

/* ",12,39,12,125,11,31": covered and total per k, then the expansions. */
static void add_csv_counts(struct strbuf *out, const uint64_t *totals, const uint64_t *covered,
                           uint32_t k, uint64_t expansions, uint64_t expansions_total)
{
    for (uint32_t j = 0; j < k; j++)
        strbuf_addf(out, ",%" PRIu64 ",%" PRIu64, covered[j], totals[j]);
    strbuf_addf(out, ",%" PRIu64 ",%" PRIu64 "\n", expansions, expansions_total);
}

static void add_json_row(struct strbuf *out, const uint64_t *totals, const uint64_t *covered,
                         uint32_t k)
{
    strbuf_addstr(out, "[");
    for (uint32_t j = 0; j < k; j++)
        strbuf_addf(out, "%s{\"k\": %u, \"covered\": %" PRIu64 ", \"total\": %" PRIu64
                         ", \"saturated\": %s}",
                    j ? ", " : "", j + 1, covered[j], totals[j],
                    totals[j] == SATURATED ? "true" : "false");
    strbuf_addstr(out, "]");
}

enum { FLUSH_AT = 1 << 16 };

static bool flush(struct strbuf *out, FILE *to, bool force)
{
    if (!force && out->len < FLUSH_AT)
        return true;
    bool ok = to == stdout ? cli_write(out->data, out->len)
                           : fwrite(out->data, 1, out->len, to) == out->len;
    strbuf_reset(out);
    return ok;
}

/* ---- the run --------------------------------------------------------------- */

struct measure {
    const struct graph *graph;
    uint32_t k;
    struct kpath_space *spaces;   /* k of them, j = 1 .. k */
    struct kpath_set *totals;     /* k */
    uint64_t *covered;            /* k: the current file's counts */
    uint64_t *total;              /* k: the k-paths (under the pins), SATURATED */
    const struct pin_set *pins;   /* coverage in their context; empty: plain */
    size_t parsed;
    struct expansion_set expansions; /* of all files */
    uint64_t expansions_total;
};

static void measure_init(struct measure *m, const struct graph *g, uint32_t k,
                         const struct pin_set *pins)
{
    m->graph = g;
    m->k = k;
    m->pins = pins;
    m->total = xcalloc(k, sizeof *m->total);
    m->spaces = xcalloc(k, sizeof *m->spaces);
    m->totals = xcalloc(k, sizeof *m->totals);
    m->covered = xcalloc(k, sizeof *m->covered);
    m->parsed = 0;
    expansion_set_init(&m->expansions, g);
    m->expansions_total = expansion_total(g);
    for (uint32_t j = 0; j < k; j++) {
        kpath_space_init(&m->spaces[j], g, j + 1);
        kpath_set_init(&m->totals[j], &m->spaces[j]);
        m->total[j] = m->spaces[j].saturated ? SATURATED : pin_count_under(pins, &m->spaces[j]);
    }
}

static void measure_free(struct measure *m)
{
    for (uint32_t j = 0; j < m->k; j++) {
        kpath_set_free(&m->totals[j]);
        kpath_space_free(&m->spaces[j]);
    }
    free(m->spaces);
    free(m->totals);
    free(m->covered);
    free(m->total);
    expansion_set_free(&m->expansions);
}

/* One file's parse: its own sets, filled by input_kpaths in any thread. */
struct file_job {
    const char *path;
    struct kpath_set *sets;  /* k, j = 1 .. k */
    struct expansion_set expansions; /* of every tree of the file */
    struct input_kpaths_info info;
    struct diag_list diags;
    size_t bytes;            /* the sample's size, once read */
    bool parsed;
};

static void job_run(const struct measure *m, const struct parse_options *po, struct file_job *job,
                    struct strbuf *text)
{
    job->sets = xcalloc(m->k, sizeof *job->sets);
    struct kpath_set **ptrs = xcalloc(m->k, sizeof *ptrs);
    for (uint32_t j = 0; j < m->k; j++) {
        kpath_set_init(&job->sets[j], &m->spaces[j]);
        ptrs[j] = &job->sets[j];
    }
    job->diags = (struct diag_list)DIAG_LIST_INIT;
    expansion_set_init(&job->expansions, m->graph);
    job->info.expansions = &job->expansions;
    job->parsed = input_kpaths_file(m->graph, job->path, po, ptrs, m->k, m->pins, text, &job->info,
                                    &job->diags);
    job->bytes = job->parsed ? text->len : 0;
    free(ptrs);
}

/* Take a finished job's counts into the totals, and free its sets (its
 * expansions stay for the report: job_done frees them). */
static void measure_take(struct measure *m, struct file_job *job)
{
    for (uint32_t j = 0; j < m->k; j++) {
        m->covered[j] = job->sets[j].size;
        kpath_set_union(&m->totals[j], &job->sets[j]);
        kpath_set_free(&job->sets[j]);
    }
    free(job->sets);
    job->sets = NULL;
    m->parsed += job->parsed;
    expansion_set_union(&m->expansions, &job->expansions);
}

/* The job is reported: its expansion set goes. */
static void job_done(struct file_job *job)
{
    expansion_set_free(&job->expansions);
}

/* "expansions": {"covered": 11, "total": 31} */
static void add_json_expansions(struct strbuf *out, uint64_t covered, uint64_t total)
{
    strbuf_addf(out, ", \"expansions\": {\"covered\": %" PRIu64 ", \"total\": %" PRIu64 "}",
                covered, total);
}

struct list_ctx {
    const struct kpath_set *covered;
    const struct skip_paths *skip; /* leave these out, or NULL */
    uint64_t hidden;               /* uncovered ones left out */
    const struct pin_set *pins; /* list only the k-paths under them */
    char **names;      /* per graph node, as printed */
    const char *sep;
    bool json, first, ok;
    struct strbuf *out;
};

static bool list_uncovered(struct list_ctx *c, const struct kpath_space *sp)
{
    struct kpath_iter it;
    kpath_iter_init(&it, sp);
    if (c->pins && c->pins->len)
        kpath_iter_restrict(&it, c->pins->below);
    while (c->ok && kpath_iter_next(&it)) {
        if (kpath_set_contains(c->covered, it.path))
            continue;
        if (c->skip && skip_paths_hides(c->skip, it.path, sp->k)) {
            c->hidden++;
            continue;
        }
        if (c->json)
            strbuf_addstr(c->out, c->first ? "\n    [" : ",\n    [");
        c->first = false;
        for (uint32_t i = 0; i < sp->k; i++) {
            if (i)
                strbuf_addstr(c->out, c->sep);
            strbuf_addstr(c->out, c->names[it.path[i]]);
        }
        strbuf_addstr(c->out, c->json ? "]" : "\n");
        c->ok = flush(c->out, stdout, false);
    }
    kpath_iter_free(&it);
    return c->ok;
}

static char **path_names(const struct graph *g, bool json)
{
    char **names = xcalloc((size_t)g->nnodes + 1, sizeof *names);
    struct strbuf name = STRBUF_INIT;
    for (uint32_t i = 0; i < g->nnodes; i++) {
        strbuf_reset(&name);
        graph_node_name(g, i, &name);
        if (json) {
            struct strbuf quoted = STRBUF_INIT;
            json_add_string(&quoted, name.data, name.len);
            names[i] = strbuf_detach(&quoted, NULL);
        } else {
            names[i] = xstrdup(strbuf_str(&name));
        }
    }
    strbuf_free(&name);
    return names;
}

static void add_plural(struct strbuf *out, size_t n, const char *what)
{
    strbuf_addf(out, "%zu %s%s", n, what, n == 1 ? "" : "s");
}

/* What the run carries from file to file. */
struct run {
    const struct graph *graph;
    bool json;
    bool growth, csv;         /* --growth: cumulative lines (--csv: as CSV) */
    bool by_bytes;            /* --by-bytes: growth points at bytes, not samples */
    uint64_t bytes;           /* of the samples parsed so far */
    uint64_t *cumulative;     /* k: the covered counts of all files so far */
    struct parse_options po;
    struct measure m;
    FILE *report_to;          /* stdout, or stderr when stdout has the uncovered list */
    struct strbuf out;        /* the report, flushed as it grows */
    struct strbuf line;
    struct diag_list failures;
    size_t attempted;         /* files, and arguments that could not be expanded */
    size_t entries;           /* files listed so far (in JSON) */
    uint32_t jobs;            /* files parsed at once */
    bool ok;                  /* no write error */
    /* On a terminal each file's line is shown when it is done (elsewhere the
     * report is written in large pieces), and the progress line says which
     * file the report waits for. */
    bool flush_each;
    struct file_progress progress;
};

/* Write the report so far when it is large, or after each file on a
 * terminal, with the progress line out of the way. */
static void report_flush(struct run *r)
{
    if (!r->flush_each && r->out.len < FLUSH_AT)
        return;
    file_progress_hold(&r->progress);
    r->ok = r->ok && flush(&r->out, r->report_to, true) && fflush(r->report_to) == 0;
    file_progress_release(&r->progress);
}

/* The report waits for `job` now. */
static void report_waits_for(struct run *r, const struct file_job *job)
{
    file_progress_file(&r->progress, job->path, samples_display_name(job->path), r->attempted);
}

static void add_failures(struct run *r, const struct diag_list *diags)
{
    for (size_t d = 0; d < diags->len; d++) {
        const struct diag *e = &diags->items[d];
        if (e->severity == DIAG_ERROR)
            diag_add(&r->failures, e->severity, e->file, e->line, e->col, "%s", e->message);
    }
}

/* --growth: the coverage of the samples parsed so far, `name` the last. */
static void add_growth_point(struct run *r, const char *name)
{
    const struct measure *m = &r->m;
    for (uint32_t j = 0; j < m->k; j++)
        r->cumulative[j] = m->totals[j].size;
    if (r->csv && r->by_bytes) {
        strbuf_addf(&r->out, "%" PRIu64 ",", r->bytes);
        add_csv_field(&r->out, name);
        add_csv_counts(&r->out, m->total, r->cumulative, m->k, m->expansions.count,
                       m->expansions_total);
    } else if (r->csv) {
        strbuf_addf(&r->out, "%zu,", m->parsed);
        add_csv_field(&r->out, name);
        add_csv_counts(&r->out, m->total, r->cumulative, m->k, m->expansions.count,
                       m->expansions_total);
    } else if (r->json) {
        strbuf_addf(&r->out, ", \"growth\": {\"samples\": %zu, ", m->parsed);
        if (r->by_bytes)
            strbuf_addf(&r->out, "\"bytes\": %" PRIu64 ", ", r->bytes);
        strbuf_addstr(&r->out, "\"coverage\": ");
        add_json_row(&r->out, m->total, r->cumulative, m->k);
        add_json_expansions(&r->out, m->expansions.count, m->expansions_total);
        strbuf_addstr(&r->out, "}}");
    } else {
        if (r->by_bytes)
            strbuf_addf(&r->out, "%" PRIu64 " bytes %s: ", r->bytes, name);
        else
            strbuf_addf(&r->out, "%zu %s: ", m->parsed, name);
        add_row(&r->out, m->total, r->cumulative, m->k);
        strbuf_addf(&r->out, ", expansions %" PRIu64 "/%" PRIu64 " (", m->expansions.count,
                    m->expansions_total);
        add_percent(&r->out, m->expansions.count, m->expansions_total);
        strbuf_addstr(&r->out, "%)\n");
    }
}

/* Report a finished job (in the order of the list) and take it into the totals. */
static void report_file(struct run *r, struct file_job *job)
{
    const char *name = samples_display_name(job->path);
    struct diag_list diags = job->diags;
    struct input_kpaths_info info = job->info;
    bool parsed = job->parsed;
    measure_take(&r->m, job);
    if (r->json) {
        strbuf_addstr(&r->out, r->entries++ ? ",\n    {\"file\": " : "\n    {\"file\": ");
        json_add_cstring(&r->out, name);
    }
    r->attempted++;
    if (!parsed) {
        add_failures(r, &diags);
        if (r->json) {
            strbuf_reset(&r->line);
            if (diags.len)
                diag_format(&diags.items[0], &r->line);
            strbuf_addstr(&r->out, ", \"error\": ");
            json_add_cstring(&r->out, strbuf_str(&r->line));
            strbuf_addstr(&r->out, "}");
        }
        diag_list_free(&diags);
        job_done(job);
        report_flush(r);
        return;
    }
    diag_list_free(&diags);
    r->bytes += job->bytes;
    if (r->growth) {
        add_growth_point(r, name);
        job_done(job);
        report_flush(r);
        return;
    }
    bool infinite = info.infinite;
    uint64_t trees = info.trees;
    char count[FOREST_TREES_TEXT_SIZE];
    if (r->json) {
        if (infinite)
            strbuf_addstr(&r->out, ", \"trees\": null, \"infinite\": true");
        else if (trees == FOREST_TREES_SATURATED)
            strbuf_addstr(&r->out, ", \"trees\": null, \"infinite\": false, \"more_than_2_64\": true");
        else
            strbuf_addf(&r->out, ", \"trees\": %" PRIu64 ", \"infinite\": false", trees);
        strbuf_addstr(&r->out, ", \"coverage\": ");
        add_json_row(&r->out, r->m.total, r->m.covered, r->m.k);
        add_json_expansions(&r->out, job->expansions.count, r->m.expansions_total);
        strbuf_addstr(&r->out, "}");
    } else {
        strbuf_addf(&r->out, "%s: ", name);
        add_row(&r->out, r->m.total, r->m.covered, r->m.k);
        if (infinite)
            strbuf_addstr(&r->out, "; infinitely many parse trees");
        else if (trees > 1)
            strbuf_addf(&r->out, "; %s parse trees", forest_trees_text(trees, count));
        strbuf_addch(&r->out, '\n');
    }
    job_done(job);
    report_flush(r);
}

/* The files of one argument, parsed by ordered_pool and reported in order. */
struct argument_jobs {
    struct run *r;
    struct file_job *jobs;
};

static void pool_work(void *ctx, size_t i, unsigned worker, struct strbuf *text)
{
    struct argument_jobs *a = ctx;
    (void)worker;
    job_run(&a->r->m, &a->r->po, &a->jobs[i], text);
}

static void pool_waiting(void *ctx, size_t i)
{
    struct argument_jobs *a = ctx;
    report_waits_for(a->r, &a->jobs[i]);
}

static void pool_take(void *ctx, size_t i)
{
    struct argument_jobs *a = ctx;
    report_file(a->r, &a->jobs[i]);
}

/* Expand one argument and measure its files, so that the report and the
 * failures follow the order of the arguments. */
static void process_argument(struct run *r, const char *arg)
{
    struct sample_list files = SAMPLE_LIST_INIT;
    struct diag_list diags = DIAG_LIST_INIT;
    size_t errors = samples_expand(&arg, 1, cli_any_file(), &files, &diags);
    file_progress_hold(&r->progress);
    for (size_t i = 0; i < diags.len; i++) {
        if (diags.items[i].severity == DIAG_ERROR)
            continue;
        strbuf_reset(&r->line);
        diag_format(&diags.items[i], &r->line);
        fprintf(stderr, "%s\n", strbuf_str(&r->line));
    }
    file_progress_release(&r->progress);
    add_failures(r, &diags);
    r->attempted += errors;
    diag_list_free(&diags);
    struct file_job *jobs = xcalloc(files.len + 1, sizeof *jobs);
    for (size_t i = 0; i < files.len; i++)
        jobs[i].path = files.paths[i];
    static const struct ordered_pool_ops ops = {pool_work, pool_waiting, pool_take};
    struct argument_jobs a = {r, jobs};
    ordered_pool_run(files.len, r->jobs, &ops, &a);
    file_progress_file(&r->progress, NULL, NULL, r->attempted); /* the names go */
    free(jobs);
    sample_list_free(&files);
}

static void add_uncovered(struct run *r, uint32_t k, bool skip_paths)
{
    const struct kpath_space *sp = &r->m.spaces[k - 1];
    if (sp->saturated) {
        fprintf(stderr, "kpath coverage: the grammar has more than 2^64 %u-paths; too many "
                        "to list the uncovered ones\n", k);
        if (r->json)
            strbuf_addstr(&r->out, ",\n  \"uncovered\": null");
        return;
    }
    char **names = path_names(r->graph, r->json);
    struct skip_paths skip;
    skip_paths_init(&skip, r->graph);
    struct list_ctx lc = {.covered = &r->m.totals[k - 1], .names = names, .pins = r->m.pins,
                          .skip = skip.nhidden && !skip_paths ? &skip : NULL,
                          .sep = r->json ? ", " : " -> ", .json = r->json,
                          .first = true, .ok = r->ok, .out = &r->out};
    if (r->json)
        strbuf_addstr(&r->out, ",\n  \"uncovered\": [");
    r->ok = list_uncovered(&lc, sp);
    if (r->json)
        strbuf_addstr(&r->out, lc.first ? "]" : "\n  ]");
    if (lc.hidden)
        fprintf(stderr, "(%" PRIu64 " uncovered %u-path%s through _skip hidden; --skip-paths "
                        "lists them)\n", lc.hidden, k, lc.hidden == 1 ? "" : "s");
    skip_paths_free(&skip);
    for (uint32_t i = 0; i < r->graph->nnodes; i++)
        free(names[i]);
    free(names);
}

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    const struct coverage_args *a = args;
    if (a->csv && !a->growth)
        return cli_usage_error(cmd, "--csv prints the growth curve: use it with --growth");
    if (a->by_bytes && !a->growth)
        return cli_usage_error(cmd, "--by-bytes is an axis of the growth curve: use it with "
                                    "--growth");
    if (a->csv && ctx->common.json)
        return cli_usage_error(cmd, "--csv and --json exclude each other");
    if (a->csv && a->uncovered)
        return cli_usage_error(cmd, "--csv and --uncovered both print on stdout: choose one");
    return CLI_CONTINUE;
}

static int coverage(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    const struct cli_common c = ctx->common;
    const struct graph *graph = ctx->graph;
    const struct coverage_args a = *(const struct coverage_args *)args;
    int status;
    struct run r = {.graph = graph, .json = c.json, .po = a.po, .ok = true, .jobs = a.jobs,
                    .growth = a.growth, .csv = a.csv, .by_bytes = a.by_bytes,
                    .report_to = a.uncovered && !c.json ? stderr : stdout};
    measure_init(&r.m, graph, a.k, &ctx->pins);
    r.cumulative = xcalloc(a.k, sizeof *r.cumulative);
    if (a.csv) {
        strbuf_addstr(&r.out, a.by_bytes ? "bytes,file" : "samples,file");
        for (uint32_t j = 1; j <= a.k; j++)
            strbuf_addf(&r.out, ",k%u_covered,k%u_total", j, j);
        strbuf_addstr(&r.out, ",expansions_covered,expansions_total\n0,");
        add_csv_counts(&r.out, r.m.total, r.cumulative, a.k, 0, r.m.expansions_total);
    }
    if (c.json) {
        strbuf_addstr(&r.out, "{\"grammar\": ");
        json_add_cstring(&r.out, c.grammar);
        strbuf_addf(&r.out, ", \"k\": %u, \"files\": [", a.k);
    }
    r.flush_each = isatty(fileno(r.report_to));
    file_progress_start(&r.progress, cmd->name);
    for (size_t i = 0; i < c.nfiles; i++)
        process_argument(&r, c.files[i]);
    file_progress_stop(&r.progress);

    size_t nfailed = r.attempted - r.m.parsed;
    if (a.csv) { /* stdout has the curve; the report goes to stderr */
        r.ok = r.ok && flush(&r.out, stdout, true);
        r.report_to = stderr;
    }
    for (uint32_t j = 0; j < a.k; j++)
        r.m.covered[j] = r.m.totals[j].size;
    if (c.json) {
        strbuf_addstr(&r.out, r.entries ? "\n  ],\n" : "],\n");
        strbuf_addf(&r.out, "  \"total\": {\"files\": %zu, \"parsed\": %zu, \"failed\": %zu, "
                            "\"coverage\": ", r.attempted, r.m.parsed, nfailed);
        add_json_row(&r.out, r.m.total, r.m.covered, a.k);
        add_json_expansions(&r.out, r.m.expansions.count, r.m.expansions_total);
        strbuf_addstr(&r.out, "},\n  \"failures\": [");
        for (size_t i = 0; i < r.failures.len; i++) {
            strbuf_reset(&r.line);
            diag_format(&r.failures.items[i], &r.line);
            strbuf_addstr(&r.out, i ? ",\n    " : "\n    ");
            json_add_cstring(&r.out, strbuf_str(&r.line));
        }
        strbuf_addstr(&r.out, r.failures.len ? "\n  ]" : "]");
    } else {
        strbuf_addstr(&r.out, "total (");
        if (nfailed)
            strbuf_addf(&r.out, "%zu of ", r.m.parsed);
        add_plural(&r.out, r.attempted, "file");
        if (nfailed)
            strbuf_addf(&r.out, "; %zu failed", nfailed);
        strbuf_addstr(&r.out, "): ");
        add_row(&r.out, r.m.total, r.m.covered, a.k);
        strbuf_addstr(&r.out, "\nexpansion coverage: ");
        strbuf_addf(&r.out, "%" PRIu64 "/%" PRIu64 " (", r.m.expansions.count,
                    r.m.expansions_total);
        add_percent(&r.out, r.m.expansions.count, r.m.expansions_total);
        strbuf_addstr(&r.out, "%)\n");
    }
    r.ok = r.ok && flush(&r.out, r.report_to, true);
    if (a.uncovered)
        add_uncovered(&r, a.k, a.skip_paths);
    if (c.json)
        strbuf_addstr(&r.out, "\n}\n");
    r.ok = r.ok && flush(&r.out, stdout, true);
    strbuf_free(&r.out);
    fflush(stdout);

    if (r.failures.len) {
        cli_print_input_failures(cmd, nfailed, r.attempted, "sample", "failed (not counted above)",
                                 a.skip_invalid, &r.failures);
    } else if (r.attempted == 0) {
        fprintf(stderr, "kpath coverage: error: no sample files to measure\n");
    }
    strbuf_free(&r.line);

    /* --skip-invalid: the failures are left out, unless nothing is left */
    bool failed = nfailed && (!a.skip_invalid || r.m.parsed == 0);
    status = !r.ok ? EXIT_FAILURE_OTHER : (failed || r.attempted == 0) ? EXIT_USAGE : EXIT_OK;
    diag_list_free(&r.failures);
    free(r.cumulative);
    measure_free(&r.m);
    return status;
}
