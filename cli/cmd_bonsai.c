/* cmd_bonsai: `kpath bonsai` — grow a concise corpus along a lattice of
 * bounds (bonsai.h), report each lattice point and write the corpus. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/bonsai.h"
#include "cli.h"
#include "commands.h"
#include "base/json.h"
#include "base/number.h"
#include "base/outdir.h"
#include "run_cli.h"
#include "base/samples.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static void init_args(void *args);
static void free_args(void *args);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int bonsai(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct bonsai_cli {
    struct bonsai_options opts;
    const char *outdir, *suffix;
    bool force, run, prune;
    struct run_cli rc;
};

_Static_assert(BONSAI_DEFAULT_MAX_DEPTH == 10, "help text: --max-depth default");
_Static_assert(BONSAI_DEFAULT_MAX_REPETITIONS == 3, "help text: --max-repetitions default");
_Static_assert(BONSAI_DEFAULT_MAX_BYTES == 256, "help text: --max-bytes default");
_Static_assert(BONSAI_DEFAULT_RANDOM_COUNT == 10, "help text: --random default");
_Static_assert(BONSAI_DEFAULT_MUTATIONS == 10, "help text: --mutations default");
_Static_assert(BONSAI_SMALLEST_BYTES == 16, "help text: size axis");

static const struct cli_option options[] = {
    {"k", 'k', "K", "keep inputs that add j-paths for any j = 1 .. K (default 2)"},
    {"max-depth", 0, "D", "the depth axis: 1 .. D (default 10)"},
    {"max-repetitions", 0, "R", "the repetitions axis: 1 .. R (default 3)"},
    {"max-bytes", 0, "B", "the size axis: 16, 32, ... doubling, then B bytes (default 256)"},
    {"random", 0, "N", "random inputs per lattice point (default 10; 0: k-path strategy only)"},
    {"mutations", 0, "N", "mutants of the corpus of the points below, per lattice point "
                          "(default 10; 0: no seeds)"},
    {"seed", 0, "S", "seed of every random choice (default 1)"},
    {"output", 'o', "DIR", "write DIR/0001.txt, ... and DIR/manifest.json"},
    {"suffix", 0, "SUF", "with -o: file name suffix (default .txt)"},
    {"force", 0, NULL, "with -o: use a non-empty DIR, replacing its test cases"},
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    {"run", 0, NULL, "run the candidates through the command after '--': an input that "
                     "reaches a new behaviour feature adds coverage too"},
    {"features-only", 0, NULL, "with --run: keep inputs for the behaviour features they reach "
                               "only (k-paths still steer generation), the shortest per feature; "
                               "implies --prune"},
    {"prune", 0, NULL, "after the last point, drop the inputs others cover, the longest first"},
    RUN_CLI_OPTIONS,
    CLI_GRAMMAR_SIZE_OPTION,
    {0},
};

const struct cli_command cmd_bonsai_command = {
    .name = "bonsai",
    .usage = "[options] GRAMMAR [-o DIR] [--run -- COMMAND [ARG...]]",
    .summary = "grow a concise corpus, small bounds first (Bonsai fuzzing)",
    .description =
    "Grow a corpus that covers the grammar's k-paths with few, small inputs, in\n"
    "the manner of Bonsai fuzzing: generate under small bounds first and keep\n"
    "an input only when it adds coverage, then raise the bounds step by step.\n"
    "\n"
    "The bounds form a lattice: depth (reference nodes on a root-to-leaf path)\n"
    "1 .. D, repetitions of each quantifier 1 .. R, and the input's size in\n"
    "bytes 16, 32, 64, ... up to B.  Points are visited by increasing sum of\n"
    "their levels, so each comes after every point below it.  At each point the\n"
    "k-path strategy (its agenda without what the corpus covers already) and\n"
    "the random strategy (--random inputs) generate within the point's depth\n"
    "and repetitions, and the corpus of the points below seeds the point:\n"
    "--mutations mutants, each a kept input of a point below with one subtree\n"
    "of a rule replaced by another derivation of that rule (from the point's\n"
    "random inputs or the seeds).  Shortest first, an input is kept when it\n"
    "fits the point's size and depth and covers a j-path (any j from 1 to K)\n"
    "no kept input covers, counting every parse of its text as kpath coverage\n"
    "does.\n"
    "\n"
    "With --run -- COMMAND, every candidate that fits its point (and whose text\n"
    "no earlier point tried) is run as kpath run does, with its limits and\n"
    "feature collectors (--gcov, --node-coverage, --features-cmd), and an\n"
    "input that reaches a behaviour feature no kept input reaches is kept too.\n"
    "With --features-only, only features count (as coverage-guided fuzzing\n"
    "keeps inputs), and an input shorter than every kept input reaching one of\n"
    "its features is kept too; k-paths still steer the k-path strategy.\n"
    "\n"
    "With --prune (implied by --features-only), after the last point the inputs\n"
    "that others make redundant are dropped, the longest first: an input goes\n"
    "when every k-path (not with --features-only) and feature it covers is\n"
    "covered by another input still in the corpus.\n"
    "\n"
    "A report goes to stderr: each lattice point that kept inputs (how many,\n"
    "their bytes, the coverage reached), then the corpus's size and coverage.\n"
    "The corpus goes to stdout, one input a line, or with -o DIR to\n"
    "DIR/0001.txt, ... with DIR/manifest.json (written last) giving each file's\n"
    "lattice point and strategy (kpath, random or mutant).\n"
    "\n"
    "Refused up front (exit status 2, no DIR made): a D below the depth the\n"
    "smallest input needs, and a K whose K-paths are more than the k-path\n"
    "strategy's agenda holds (the message names the largest k that fits).",
    .options = options,
    .needs = CLI_PROGRAM | CLI_GRAPH,
    .args_size = sizeof(struct bonsai_cli),
    .init_args = init_args,
    .free_args = free_args,
    .on_option = on_option,
    .check = check,
    .main = bonsai,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct bonsai_cli *a = ctx;
    struct bonsai_options *o = &a->opts;
    const char *name = cmd->options[index].name;
    bool ok = true;
    if (strcmp(name, "k") == 0)
        ok = cli_parse_u32(cmd, "-k", value, 1, KPATH_MAX_K, &o->k);
    else if (strcmp(name, "max-depth") == 0)
        ok = cli_parse_u32(cmd, "--max-depth", value, 1, 1000, &o->max_depth);
    else if (strcmp(name, "max-repetitions") == 0)
        ok = cli_parse_u32(cmd, "--max-repetitions", value, 1, 1000, &o->max_repetitions);
    else if (strcmp(name, "max-bytes") == 0)
        ok = cli_parse_u32(cmd, "--max-bytes", value, 1, UINT32_MAX / 2, &o->max_bytes);
    else if (strcmp(name, "random") == 0)
        ok = cli_parse_u32(cmd, "--random", value, 0, 1000000, &o->random_count);
    else if (strcmp(name, "mutations") == 0)
        ok = cli_parse_u32(cmd, "--mutations", value, 0, 1000000, &o->mutations);
    else if (strcmp(name, "seed") == 0)
        ok = cli_parse_u64(cmd, "--seed", value, &o->seed);
    else if (strcmp(name, "run") == 0)
        a->run = true;
    else if (strcmp(name, "features-only") == 0)
        o->features_only = a->prune = true;
    else if (strcmp(name, "prune") == 0)
        a->prune = true;
    else if (strcmp(name, "output") == 0) {
        if (!*value)
            return cli_usage_error(cmd, "-o needs a directory name");
        a->outdir = value;
    } else if (strcmp(name, "suffix") == 0) {
        if (strchr(value, '/'))
            return cli_usage_error(cmd, "--suffix must not contain '/', not '%s'", value);
        a->suffix = value;
    } else if (strcmp(name, "force") == 0) {
        a->force = true;
    } else {
        return run_cli_option(cmd, name, value, &a->rc);
    }
    return ok ? CLI_CONTINUE : EXIT_USAGE;
}

static void add_coverage(struct strbuf *out, const struct bonsai *b, const uint64_t *covered)
{
    for (uint32_t j = 0; j < b->opts.k; j++) {
        strbuf_addf(out, "%sk=%u %" PRIu64 "/", j ? ", " : "", j + 1, covered[j]);
        number_add_count(out, b->spaces[j].total);
    }
}

/* Uncovered k-paths examined for the depth they need, at most. */
#define BONSAI_REACH_LIMIT 100000u

static void print_report(const struct bonsai *b, const struct results *runs)
{
    struct strbuf s = STRBUF_INIT;
    strbuf_addf(&s, "bonsai: k=%u, lattice depth 1..%u x repetitions 1..%u x size up to %u "
                    "bytes: %u points, %u random inputs and %u mutants each, seed %" PRIu64
                    "\n",
                b->opts.k, b->opts.max_depth, b->opts.max_repetitions, b->opts.max_bytes,
                b->npoints, b->opts.random_count, b->opts.mutations, b->opts.seed);
    uint32_t productive = 0;
    uint64_t generated = 0;
    for (uint32_t i = 0; i < b->next; i++) {
        const struct bonsai_point *p = &b->points[i];
        generated += p->generated;
        if (!p->kept)
            continue;
        productive++;
        strbuf_addf(&s, "  depth %u, repetitions %u, <= %u bytes: kept %u of %u (%" PRIu64
                        " bytes); ",
                    p->depth, p->repetitions, p->max_bytes, p->kept, p->generated, p->kept_bytes);
        add_coverage(&s, b, p->covered);
        if (runs)
            strbuf_addf(&s, ", features %" PRIu64, p->features);
        strbuf_addch(&s, '\n');
    }
    strbuf_addf(&s, "%u of %u points kept inputs; %" PRIu64 " inputs generated\n", productive,
                b->next, generated);
    if (b->pruned)
        strbuf_addf(&s, "pruned: %zu inputs (%" PRIu64 " bytes) that others cover%s\n",
                    b->pruned, b->pruned_bytes, b->opts.features_only ? " (features only)" : "");
    strbuf_addf(&s, "corpus: %zu inputs, %" PRIu64 " bytes in total, %.1f bytes on average\n",
                b->ninputs, b->total_bytes,
                b->ninputs ? (double)b->total_bytes / (double)b->ninputs : 0.0);
    uint64_t *cov = xcalloc(b->opts.k, sizeof *cov);
    for (uint32_t j = 0; j < b->opts.k; j++)
        cov[j] = b->covered[j].size;
    strbuf_addstr(&s, "coverage: ");
    add_coverage(&s, b, cov);
    strbuf_addch(&s, '\n');
    if (runs) {
        strbuf_addf(&s, "behaviour features reached: %" PRIu64 " (", b->features);
        bool first = true;
        for (uint32_t f = 0; f < b->feature_slots; f++)
            if (b->feature_seen[f] && f < runs->nfeatures) {
                strbuf_addf(&s, "%s%s", first ? "" : " ", runs->features[f]);
                first = false;
            }
        strbuf_addstr(&s, ")\n");
    }
    free(cov);
    /* As cover does: what the depth axis left out of reach, and the depth
     * it needs, rather than a coverage short of 100% without a word. */
    struct bonsai_reach reach;
    char *error = NULL;
    if (!bonsai_out_of_reach(b, BONSAI_REACH_LIMIT, &reach, &error)) {
        strbuf_addf(&s, "out of reach: not measured (%s)\n", error);
        free(error);
    } else if (reach.out_of_reach || reach.in_no_tree) {
        strbuf_addf(&s, "out of reach: %" PRIu64 " of the %" PRIu64 " uncovered %u-paths",
                    reach.out_of_reach, reach.uncovered, b->opts.k);
        if (reach.examined < reach.uncovered)
            strbuf_addf(&s, " (of the first %" PRIu64 " examined)", reach.examined);
        if (reach.out_of_reach)
            strbuf_addf(&s, " need a tree deeper than --max-depth %u: the deepest needs depth "
                            "%u (--max-depth %u reaches them)", b->opts.max_depth,
                        reach.needed_depth, reach.needed_depth);
        else
            strbuf_addstr(&s, " need a deeper tree");
        if (reach.in_no_tree)
            strbuf_addf(&s, "; %" PRIu64 " are in no tree of the grammar", reach.in_no_tree);
        strbuf_addch(&s, '\n');
    }
    fputs(strbuf_str(&s), stderr);
    strbuf_free(&s);
}

static void build_manifest(const struct bonsai *b, const char *grammar, const char *start,
                           char **names, const char *suffix, struct strbuf *out)
{
    char hex[SHA256_HEX_SIZE];
    struct diag_list ignore = DIAG_LIST_INIT;
    bool hashed = sha256_file(grammar, hex, &ignore);
    diag_list_free(&ignore);
    strbuf_addstr(out, "{\n  \"tool\": \"kpath\",\n  \"version\": ");
    json_add_cstring(out, KPATH_VERSION);
    strbuf_addstr(out, ",\n  \"command\": \"bonsai\",\n  \"grammar\": {\"path\": ");
    json_add_cstring(out, grammar);
    strbuf_addstr(out, ", \"sha256\": ");
    if (hashed)
        json_add_cstring(out, hex);
    else
        strbuf_addstr(out, "null");
    strbuf_addstr(out, ", \"start\": ");
    json_add_cstring(out, start);
    strbuf_addf(out, "},\n  \"k\": %u,\n  \"max_depth\": %u,\n  \"max_repetitions\": %u,\n"
                     "  \"max_bytes\": %u,\n  \"random\": %u,\n  \"seed\": %" PRIu64
                     ",\n  \"features_only\": %s,\n  \"pruned\": %zu,\n  \"suffix\": ",
                b->opts.k, b->opts.max_depth, b->opts.max_repetitions, b->opts.max_bytes,
                b->opts.random_count, b->opts.seed, b->opts.features_only ? "true" : "false",
                b->pruned);
    json_add_cstring(out, suffix);
    strbuf_addstr(out, ",\n  \"files\": [");
    for (size_t i = 0; i < b->ninputs; i++) {
        const struct bonsai_input *in = &b->inputs[i];
        const struct bonsai_point *p = &b->points[in->point];
        strbuf_addstr(out, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        json_add_cstring(out, names[i]);
        strbuf_addf(out, ", \"size\": %zu, \"depth\": %u, \"strategy\": \"%s\", \"point\": "
                         "{\"depth\": %u, \"repetitions\": %u, \"max_bytes\": %u}, "
                         "\"new_paths\": %" PRIu64 ", \"new_features\": %u}",
                    in->len, in->depth, bonsai_origin_name(in->origin), p->depth,
                    p->repetitions, p->max_bytes, in->new_paths, in->new_features);
    }
    strbuf_addstr(out, b->ninputs ? "\n  ],\n" : "],\n");
    strbuf_addstr(out, "  \"points\": [");
    bool first = true;
    for (uint32_t i = 0; i < b->next; i++) {
        const struct bonsai_point *p = &b->points[i];
        strbuf_addf(out, "%s{\"depth\": %u, \"repetitions\": %u, \"max_bytes\": %u, "
                         "\"generated\": %u, \"kept\": %u, \"kept_bytes\": %" PRIu64
                         ", \"covered\": [",
                    first ? "\n    " : ",\n    ", p->depth, p->repetitions, p->max_bytes,
                    p->generated, p->kept, p->kept_bytes);
        first = false;
        for (uint32_t j = 0; j < b->opts.k; j++)
            strbuf_addf(out, j ? ", %" PRIu64 : "%" PRIu64, p->covered[j]);
        strbuf_addstr(out, "]}");
    }
    strbuf_addf(out, "\n  ],\n  \"summary\": {\"inputs\": %zu, \"total_bytes\": %" PRIu64
                     ", \"features\": %" PRIu64 ", \"covered\": [",
                b->ninputs, b->total_bytes, b->features);
    for (uint32_t j = 0; j < b->opts.k; j++)
        strbuf_addf(out, "%s{\"k\": %u, \"covered\": %" PRIu64 ", \"total\": %" PRIu64 "}",
                    j ? ", " : "", j + 1, b->covered[j].size, b->spaces[j].total);
    strbuf_addstr(out, "]}\n}\n");
}

static int write_corpus(const struct cli_command *cmd, const struct bonsai *b,
                        const struct bonsai_cli *a, const char *grammar, const char *start,
                        struct outdir *od)
{
    struct diag_list diags = DIAG_LIST_INIT;
    char **names = xcalloc(b->ninputs + 1, sizeof *names);
    for (size_t i = 0; i < b->ninputs; i++) {
        struct strbuf name = STRBUF_INIT;
        outdir_case_name(&name, i + 1, b->ninputs, a->suffix);
        names[i] = strbuf_detach(&name, NULL);
    }
    bool ok = true;
    for (size_t i = 0; ok && i < b->ninputs; i++)
        ok = outdir_write(od, names[i], b->inputs[i].text, b->inputs[i].len, &diags);
    if (ok) {
        struct strbuf m = STRBUF_INIT;
        build_manifest(b, grammar, start, names, a->suffix, &m);
        ok = outdir_write(od, SAMPLES_MANIFEST_NAME, m.data, m.len, &diags);
        strbuf_free(&m);
    }
    if (ok)
        ok = outdir_finish(od, a->suffix, &diags);
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    for (size_t i = 0; i < b->ninputs; i++)
        free(names[i]);
    free(names);
    if (!ok) {
        fprintf(stderr, "kpath bonsai: %zu file%s written to %s before the error; %s intact\n",
                od->written, od->written == 1 ? " was" : "s were", a->outdir,
                od->written == 1 ? "it is" : "they are");
        return EXIT_FAILURE_OTHER;
    }
    fprintf(stderr, "wrote %zu input file%s and manifest.json to %s\n", b->ninputs,
            b->ninputs == 1 ? "" : "s", a->outdir);
    return EXIT_OK;
}

/* --run: run the candidates of the point being visited that can be kept and
 * hand each its features (indices into the runs' results file, stable as it
 * only grows). */
static int run_candidates(const struct cli_command *cmd, struct bonsai *b,
                          struct run_batch *batch)
{
    size_t n = 0;
    for (size_t i = 0; i < b->ncands; i++)
        n += b->cands[i].fits;
    if (!n)
        return EXIT_OK;
    char **texts = xcalloc(n, sizeof *texts);
    size_t *lens = xcalloc(n, sizeof *lens), *which = xcalloc(n, sizeof *which);
    const char **paths = xcalloc(n, sizeof *paths);
    n = 0;
    for (size_t i = 0; i < b->ncands; i++)
        if (b->cands[i].fits) {
            texts[n] = b->cands[i].text;
            lens[n] = b->cands[i].len;
            which[n++] = i;
        }
    char label[32];
    snprintf(label, sizeof label, "point-%04u", b->next + 1);
    int status = run_cli_batch_run(cmd, batch, label, texts, lens, n, paths);
    for (size_t i = 0; status == EXIT_OK && i < n; i++) {
        const struct run_record *rec = run_batch_record(batch, paths[i]);
        if (rec)
            bonsai_set_features(b, which[i], rec->features, rec->nfeatures);
    }
    free(paths);
    free(which);
    free(lens);
    free(texts);
    return status;
}

static void init_args(void *args)
{
    struct bonsai_cli *a = args;
    bonsai_options_default(&a->opts);
    run_cli_init(&a->rc);
}

static void free_args(void *args)
{
    run_cli_free(&((struct bonsai_cli *)args)->rc);
}

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    struct bonsai_cli *a = args;
    run_cli_set_program(&a->rc, ctx->program, ctx->nprogram);
    if (!a->outdir && (a->suffix || a->force))
        return cli_usage_error(cmd, "%s needs -o DIR", a->suffix ? "--suffix" : "--force");
    if (a->opts.features_only && !a->run)
        return cli_usage_error(cmd, "--features-only needs --run");
    return run_cli_check(cmd, &a->rc, a->run);
}

static int bonsai(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    const struct cli_common c = ctx->common;
    const struct grammar *g = ctx->grammar;
    const struct graph *graph = ctx->graph;
    struct bonsai_cli a = *(struct bonsai_cli *)args;
    int status = EXIT_OK;
    if (!a.suffix)
        a.suffix = ".txt";
    struct outdir od = {0};
    struct diag_list diags = DIAG_LIST_INIT;
    char *error = NULL;
    struct bonsai *b = NULL;
    struct run_batch *batch = NULL;
    b = bonsai_new(graph, &a.opts, &error);
    if (!b) {
        fprintf(stderr, "kpath bonsai: error: %s\n", error);
        status = EXIT_USAGE;
        goto done;
    }
    /* After bonsai_new's refusals: outdir_open creates DIR, and a refused
     * run leaves nothing new behind. */
    if (a.outdir) {
        enum outdir_status os = outdir_open(&od, a.outdir, a.force, &diags);
        if (os != OUTDIR_OK) {
            cli_print_diags(cmd, &diags);
            status = os == OUTDIR_REFUSED ? EXIT_USAGE : EXIT_FAILURE_OTHER;
            goto done;
        }
    }
    if (a.run) {
        batch = run_cli_batch_open(cmd, &a.rc, c.grammar, c.start, &status);
        if (!batch)
            goto done;
    }
    while (bonsai_begin_point(b)) {
        if (batch && (status = run_candidates(cmd, b, batch)) != EXIT_OK)
            break;
        if (!bonsai_end_point(b))
            break;
    }
    if (status != EXIT_OK)
        goto done;
    if (!b->error && a.prune)
        bonsai_prune(b);
    print_report(b, batch ? run_batch_results(batch) : NULL);
    if (batch && a.rc.runs_dir)
        fprintf(stderr, "runs kept in %s (point-NNNN/, results.jsonl)\n", run_batch_dir(batch));
    if (b->error) {
        fprintf(stderr, "kpath bonsai: error: %s\n", b->error);
        status = EXIT_FAILURE_OTHER;
    } else if (a.outdir) {
        status = write_corpus(cmd, b, &a, c.grammar, g->rules[grammar_user_start(g)].name, &od);
    } else {
        for (size_t i = 0; i < b->ninputs && status == EXIT_OK; i++)
            if (!cli_write(b->inputs[i].text, b->inputs[i].len) || !cli_write("\n", 1))
                status = EXIT_FAILURE_OTHER;
    }
done:
    run_batch_close(batch);
    free(error);
    bonsai_free(b);
    diag_list_free(&diags);
    outdir_close(&od);
    return status;
}
