/* cmd_target: `kpath target` — inputs for a behaviour: the "reached" rules of
 * a feature's decision tree (learned as kpath explain does) become
 * constraints, required and prohibited k-paths, and target.h generates inputs
 * that satisfy them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "explain_session.h"
#include "base/file_hint.h"
#include "graph/written.h"
#include "gen/gen.h"
#include "base/json.h"
#include "base/outdir.h"
#include "run_cli.h"
#include "gen/constrained.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static void init_args(void *args);
static void free_args(void *args);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int target(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct target_args {
    struct explain_options o;
    struct constrained_options t;
    const char *feature;
    uint32_t count;
    uint32_t max_size;  /* tree nodes of a targeted input; 0: no bound */
    const char *outdir;
    bool force, null, run;
    struct run_cli rc;
};

static const struct target_args defaults = {.count = 10};

static const struct cli_option options[] = {
    {"feature", 'f', "NAME", "the behaviour feature to generate inputs for (required)"},
    {"count", 'n', "N", "inputs to generate, shared round-robin by the rules (default 10)"},
    {"output", 'o', "DIR", "write each input to DIR/0001.txt, ... and DIR/manifest.json"},
    {"force", 0, NULL, "with -o: write into a DIR that is not empty (see kpath gen --help)"},
    {"null", '0', NULL, "end each input with a NUL instead of a newline"},
    {"gen-depth", 0, "D", "generated derivation trees at most D deep (default 16)"},
    {"max-repetitions", 0, "R", "cap for *, + and {n,} (default 3)"},
    {"attempts", 0, "A", "trees tried per input before a rule gives up (default 200)"},
    {"max-size", 0, "N", "targeted inputs of at most N tree nodes (default: no bound); the "
                         "random inputs of --run get the targeted ones' largest size"},
    EXPLAIN_CLI_OPTIONS,
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    {"run", 0, NULL, "run the inputs, and as many random ones, through the command after "
                     "'--' and compare how often each reaches the feature"},
    RUN_CLI_OPTIONS,
    {0},
};

const struct cli_command cmd_target_command = {
    .name = "target",
    .usage = "[options] --feature NAME GRAMMAR RESULTS\n"
             "       kpath target [options] --feature NAME GRAMMAR RESULTS --run -- CMD ...",
    .summary = "generate inputs that make a behaviour happen",
    .description =
    "Learn the decision tree of behaviour feature NAME from RESULTS as kpath\n"
    "explain does (same options), turn each rule predicting \"reached\" into a\n"
    "constraint (its k-paths present are required, those absent prohibited)\n"
    "and generate inputs that satisfy it: derivation trees are grown one slot\n"
    "at a time towards the required k-paths, and a choice that would complete\n"
    "a prohibited k-path (checked at its last element) is never taken.  Every\n"
    "input is checked by computing its k-paths.  A rule whose constraint cannot\n"
    "be satisfied is reported with the k-paths that conflict.  Some input of\n"
    "RESULTS must reach NAME (exact name): the tree is learned from them; a\n"
    "name no input reaches is an error (exit status 2, with a did-you-mean).\n"
    "A weak rule (see --min-reaching, --min-precision) is targeted all the\n"
    "same, with a warning and its numbers: its inputs may not reach NAME.\n"
    "\n"
    "Inputs go to stdout, one per line (-0: NUL-terminated), or with -o DIR\n"
    "to numbered files and a manifest.json naming each file's rule and\n"
    "constraint (written last, every file atomically).  The report goes to\n"
    "stderr.\n"
    "\n"
    "With --run -- COMMAND, the inputs are run through COMMAND as kpath run does\n"
    "(same containment and limits; --gcov, --node-coverage, --features-cmd say\n"
    "which features to collect, as for the RESULTS), together with as many\n"
    "random inputs from the grammar (the random strategy of kpath gen, same\n"
    "--seed, --gen-depth and --max-repetitions, and as size budget the tree\n"
    "nodes of the largest targeted input, so that both sets are of a size;\n"
    "the report gives each set's mean size in bytes), and the report gives the\n"
    "k-path paper's two measures for the feature, targeted against random: the\n"
    "relative coverage fraction (the share of the inputs whose run reaches it)\n"
    "and the absolute one (whether at least one does), and the share per rule.\n"
    "The files run and their results file stay in --runs DIR when given.\n"
    "\n"
    "Exit status 1 when no input could be generated or the runs failed.",
    .options = options,
    /* The session loads the grammar itself: no CLI_GRAMMAR. */
    .needs = CLI_PROGRAM,
    .args_size = sizeof defaults,
    .args_defaults = &defaults,
    .init_args = init_args,
    .free_args = free_args,
    .on_option = on_option,
    .check = check,
    .main = target,
    .takes_files = true,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct target_args *a = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "feature") == 0) {
        a->feature = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "count") == 0)
        return cli_parse_u32(cmd, "-n", value, 1, 1000000, &a->count) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "output") == 0) {
        a->outdir = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "force") == 0) {
        a->force = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "null") == 0) {
        a->null = true;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "run") == 0) {
        a->run = true;
        return CLI_CONTINUE;
    }
    int st = run_cli_option(cmd, name, value, &a->rc);
    if (st != CLI_NOT_MINE)
        return st;
    if (strcmp(name, "gen-depth") == 0)
        return cli_parse_u32(cmd, "--gen-depth", value, 1, 10000, &a->t.max_depth) ? CLI_CONTINUE
                                                                                   : EXIT_USAGE;
    if (strcmp(name, "max-repetitions") == 0)
        return cli_parse_u32(cmd, "--max-repetitions", value, 0, 1000, &a->t.max_repetitions)
                   ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "max-size") == 0)
        return cli_parse_u32(cmd, "--max-size", value, 1, UINT32_MAX, &a->max_size)
                   ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "attempts") == 0)
        return cli_parse_u32(cmd, "--attempts", value, 1, 1000000, &a->t.attempts)
                   ? CLI_CONTINUE : EXIT_USAGE;
    return explain_cli_option(cmd, name, value, &a->o);
}

/* One rule's constraint and generator. */
struct target_rule {
    struct constrained_path *required, *prohibited; /* owned arrays; ids borrowed from kf */
    size_t nrequired, nprohibited;
    struct constrained_gen *gen;                    /* NULL when unsatisfiable */
    struct diag_list conflicts;
    uint32_t made;
    bool exhausted;
};

static void add_paths_json(struct strbuf *out, const struct constrained_path *p, size_t n)
{
    strbuf_addch(out, '[');
    for (size_t i = 0; i < n; i++) {
        strbuf_addstr(out, i ? ", [" : "[");
        for (uint32_t j = 0; j < p[i].len; j++)
            strbuf_addf(out, "%s%u", j ? ", " : "", p[i].ids[j]);
        strbuf_addch(out, ']');
    }
    strbuf_addch(out, ']');
}

static void add_path_names(struct strbuf *out, const struct graph *g, const struct constrained_path *p)
{
    for (uint32_t j = 0; j < p->len; j++) {
        if (j)
            strbuf_addstr(out, " -> ");
        graph_node_name(g, p->ids[j], out);
    }
}

struct made_input {
    char *text;
    size_t len;
    size_t rule;
    size_t nodes; /* of its derivation tree */
};

static int write_outdir(const struct cli_command *cmd, const struct target_args *a,
                        const struct cli_common *c, const struct explain_result *res,
                        const struct target_rule *rules, const struct made_input *made,
                        size_t nmade)
{
    struct outdir od;
    struct diag_list diags = DIAG_LIST_INIT;
    enum outdir_status st = outdir_open(&od, a->outdir, a->force, &diags);
    if (st != OUTDIR_OK) {
        cli_print_diags(cmd, &diags);
        diag_list_free(&diags);
        outdir_close(&od);
        return st == OUTDIR_REFUSED ? EXIT_USAGE : EXIT_FAILURE_OTHER;
    }
    struct strbuf name = STRBUF_INIT, manifest = STRBUF_INIT;
    bool ok = true;
    strbuf_addstr(&manifest, "{\"kpath_version\": \"" KPATH_VERSION "\", \"grammar\": ");
    json_add_cstring(&manifest, c->grammar);
    strbuf_addstr(&manifest, ", \"results\": ");
    json_add_cstring(&manifest, c->files[0]);
    strbuf_addstr(&manifest, ", \"feature\": ");
    json_add_cstring(&manifest, res->name);
    strbuf_addf(&manifest, ", \"seed\": %llu,\n \"rules\": [", (unsigned long long)a->o.seed);
    for (size_t r = 0; r < res->nrules; r++) {
        strbuf_addf(&manifest, "%s{\"support\": %u, \"hits\": %u, \"required\": ",
                    r ? ",\n   " : "\n   ", res->rules[r].support, res->rules[r].hits);
        add_paths_json(&manifest, rules[r].required, rules[r].nrequired);
        strbuf_addstr(&manifest, ", \"prohibited\": ");
        add_paths_json(&manifest, rules[r].prohibited, rules[r].nprohibited);
        strbuf_addf(&manifest, ", \"inputs\": %u, \"conflicts\": [", rules[r].made);
        for (size_t d = 0; d < rules[r].conflicts.len; d++) {
            strbuf_addstr(&manifest, d ? ", " : "");
            json_add_cstring(&manifest, rules[r].conflicts.items[d].message);
        }
        strbuf_addstr(&manifest, "]}");
    }
    strbuf_addstr(&manifest, "],\n \"files\": [");
    for (size_t i = 0; ok && i < nmade; i++) {
        strbuf_reset(&name);
        outdir_case_name(&name, i + 1, nmade, ".txt");
        ok = outdir_write(&od, strbuf_str(&name), made[i].text, made[i].len, &diags);
        strbuf_addstr(&manifest, i ? ",\n   {\"name\": " : "\n   {\"name\": ");
        json_add_cstring(&manifest, strbuf_str(&name));
        strbuf_addf(&manifest, ", \"rule\": %zu, \"size\": %zu}", made[i].rule + 1, made[i].len);
    }
    strbuf_addstr(&manifest, "]}\n");
    ok = ok && outdir_write(&od, "manifest.json", manifest.data, manifest.len, &diags) &&
         outdir_finish(&od, ".txt", &diags);
    if (!ok)
        fprintf(stderr, "kpath target: %zu file%s written before the error; they are intact\n",
                od.written, od.written == 1 ? "" : "s");
    else
        fprintf(stderr, "wrote %zu input file%s and manifest.json to %s\n", nmade,
                nmade == 1 ? "" : "s", a->outdir);
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    strbuf_free(&name);
    strbuf_free(&manifest);
    outdir_close(&od);
    return ok ? EXIT_OK : EXIT_FAILURE_OTHER;
}


/* The feature's two measures over the runs of paths[0..n): how many reach it. */
static size_t count_reaching(const struct run_batch *b, const char *feature,
                             const char *const *paths, size_t n, const struct made_input *made,
                             size_t rule)
{
    const struct results *r = run_batch_results(b);
    uint32_t f = results_find_feature(r, feature);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        if (made && made[i].rule != rule)
            continue;
        const struct run_record *rec = run_batch_record(b, paths[i]);
        hits += f != UINT32_MAX && rec && results_record_has(r, rec, f);
    }
    return hits;
}

static void measure_row(const char *label, size_t hits, size_t n)
{
    fprintf(stderr, "  %-9s %4zu/%-4zu (%5.1f%%)   %s\n", label, hits, n,
            n ? 100.0 * (double)hits / (double)n : 0.0, hits ? "yes" : "no");
}

/* --run: run the targeted inputs and as many random ones; report how often
 * each set reaches the feature. */
static int run_and_measure(const struct cli_command *cmd, struct target_args *a,
                           const struct cli_common *c, const struct explain_session *s,
                           const struct explain_result *res, const struct made_input *made,
                           size_t nmade)
{
    struct gen_options go;
    gen_options_default(&go);
    go.strategy = GEN_RANDOM;
    go.count = (uint32_t)nmade;
    go.seed = a->o.seed;
    go.max_depth = a->t.max_depth;
    go.max_repetitions = a->t.max_repetitions;
    /* Like with like: random inputs within the targeted inputs' size (a
     * larger input reaches more code by its size alone). */
    size_t budget = 0;
    for (size_t i = 0; i < nmade; i++)
        if (made[i].nodes > budget)
            budget = made[i].nodes;
    if (budget && budget < go.max_size)
        go.max_size = (uint32_t)budget;
    char *error = NULL;
    struct generator *gen = gen_new(s->graph, &go, &error);
    if (!gen) {
        fprintf(stderr, "kpath target: cannot generate random inputs: %s\n", error);
        free(error);
        return EXIT_FAILURE_OTHER;
    }
    gen_run(gen);
    if (gen->error) {
        fprintf(stderr, "kpath target: cannot generate random inputs: %s\n", gen->error);
        gen_free(gen);
        return EXIT_FAILURE_OTHER;
    }
    size_t nrandom = gen->ninputs;
    char **texts = xcalloc(nmade + nrandom + 1, sizeof *texts);
    size_t *lens = xcalloc(nmade + nrandom + 1, sizeof *lens);
    const char **paths = xcalloc(nmade + nrandom + 1, sizeof *paths);
    for (size_t i = 0; i < nrandom; i++) {
        texts[i] = gen->inputs[i].text;
        lens[i] = gen->inputs[i].len;
    }
    for (size_t i = 0; i < nmade; i++) {
        texts[nrandom + i] = made[i].text;
        lens[nrandom + i] = made[i].len;
    }
    int status;
    struct run_batch *b = run_cli_batch_open(cmd, &a->rc, c->grammar, c->start, &status);
    if (b) {
        /* Said before the runs, which may take long: a feature the results'
         * collectors saw may be invisible to these runs' (--gcov left out). */
        const struct results_header *th = &s->results.header;
        struct strbuf ours = STRBUF_INIT, theirs = STRBUF_INIT;
        run_batch_collect_names(b, &ours);
        for (uint32_t i = 0; i < th->ncollect; i++)
            strbuf_addf(&theirs, "%s%s", i ? ", " : "", th->collect[i]);
        if (strcmp(strbuf_str(&ours), strbuf_str(&theirs)) != 0)
            fprintf(stderr,
                    "kpath target: warning: the runs of %s collected %s, these runs collect %s: "
                    "%s may not be seen as it was there (give --run the collection options "
                    "kpath run had: --gcov, --lines, --node-coverage, --features-cmd)\n",
                    c->files[0], strbuf_str(&theirs), strbuf_str(&ours), a->feature);
        strbuf_free(&ours);
        strbuf_free(&theirs);
        /* Random inputs first: they are the likelier to tell a misconfigured
         * command (every run failing alike) from inputs that all crash on
         * purpose, which targeting a crash makes. */
        status = run_cli_batch_run(cmd, b, "random", texts, lens, nrandom, paths);
        if (status == EXIT_OK)
            status = run_cli_batch_run(cmd, b, "targeted", texts + nrandom, lens + nrandom,
                                       nmade, paths + nrandom);
    }
    if (b && status == EXIT_OK) {
        size_t thits = count_reaching(b, a->feature, paths + nrandom, nmade, NULL, 0);
        size_t rhits = count_reaching(b, a->feature, paths, nrandom, NULL, 0);
        size_t tbytes = 0, rbytes = 0;
        for (size_t i = 0; i < nmade; i++)
            tbytes += made[i].len;
        for (size_t i = 0; i < nrandom; i++)
            rbytes += lens[i];
        fprintf(stderr, "%s, over %zu targeted (mean %.1f bytes) and %zu random inputs (mean "
                        "%.1f bytes; size budget %u tree nodes, the largest targeted input's) "
                        "run:\n"
                        "  inputs    relative coverage   absolute\n",
                a->feature, nmade, nmade ? (double)tbytes / (double)nmade : 0.0, nrandom,
                nrandom ? (double)rbytes / (double)nrandom : 0.0, go.max_size);
        measure_row("targeted", thits, nmade);
        measure_row("random", rhits, nrandom);
        for (size_t r = 0; r < res->nrules; r++) {
            size_t nr = 0;
            for (size_t i = 0; i < nmade; i++)
                nr += made[i].rule == r;
            if (!nr)
                continue;
            char label[32];
            snprintf(label, sizeof label, "rule %zu", r + 1);
            measure_row(label, count_reaching(b, a->feature, paths + nrandom, nmade, made, r),
                        nr);
        }
        if (a->rc.runs_dir)
            fprintf(stderr, "runs kept in %s (targeted/, random/, results.jsonl)\n",
                    run_batch_dir(b));
    }
    run_batch_close(b);
    free(paths);
    free(lens);
    free(texts);
    gen_free(gen);
    return status;
}

static int target(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    struct target_args *a = args;
    const struct cli_common *c = &ctx->common;
    struct explain_session s;
    int status = explain_session_open(cmd, c->grammar, c->start, c->files[0], &a->o, &s);
    if (status != EXIT_OK) {
        explain_session_close(&s);
        return status;
    }
    if (results_find_feature(&s.results, a->feature) == UINT32_MAX) {
        /* target learns from the inputs that reach the feature: say whether
         * the name is likely a typo, and where the reached ones are listed. */
        const char *close = file_hint_closest_name(a->feature, s.results.features,
                                                   s.results.nfeatures);
        fprintf(stderr, "kpath target: no input of %s reaches a feature called '%s'",
                c->files[0], a->feature);
        if (close)
            fprintf(stderr, " (did you mean '%s'?)", close);
        fprintf(stderr, ": target learns from the inputs that reach a feature, so some must "
                        "(`kpath explain %s %s` lists the %u features they reach)\n",
                c->grammar, c->files[0], (unsigned)s.results.nfeatures);
        explain_session_close(&s);
        return EXIT_USAGE;
    }
    uint32_t n = s.inputs.data.nrows;
    uint32_t *rows = xcalloc(n + 1, sizeof *rows);
    for (uint32_t i = 0; i < n; i++)
        rows[i] = i;
    bool *labels = explain_labels(&s.inputs, &s.results, a->feature);
    struct explain_result res;
    explain_learn(&s.inputs, labels, rows, n, a->feature, &a->o, &res);
    free(labels);
    free(rows);
    if (res.kind == EXPLAIN_TRAINABLE && !res.explained) {
        struct strbuf v = STRBUF_INIT;
        explain_render_verdict(&res, a->o.k, &v);
        fprintf(stderr, "kpath target: %s is %s; no rule to target\n", a->feature, strbuf_str(&v));
        strbuf_free(&v);
        explain_result_free(&res);
        explain_session_close(&s);
        return EXIT_USAGE;
    }
    if (res.kind != EXPLAIN_TRAINABLE || res.nrules == 0) {
        fprintf(stderr, "kpath target: %s is reached by %s of the %u parsed inputs: no rule "
                        "tells what leads there\n", a->feature,
                res.kind == EXPLAIN_ALWAYS ? "every one" : res.kind == EXPLAIN_NEVER ? "none"
                                                                                     : "some",
                n);
        explain_result_free(&res);
        explain_session_close(&s);
        return EXIT_USAGE;
    }

    struct strbuf line = STRBUF_INIT;
    struct target_rule *rules = xcalloc(res.nrules, sizeof *rules);
    size_t live = 0;
    fprintf(stderr, "%s: %zu rule%s from a tree of %u nodes (%s, max depth %u, %s, seed %llu)\n",
            a->feature, res.nrules, res.nrules == 1 ? "" : "s", res.tree.nnodes,
            dt_criterion_name(a->o.tree.criterion), res.depth,
            res.balanced ? "class-balanced" : "every input", (unsigned long long)a->o.seed);
    strbuf_reset(&line);
    explain_render_verdict(&res, a->o.k, &line);
    fprintf(stderr, "  %s\n", strbuf_str(&line));
    for (size_t r = 0; r < res.nrules; r++) {
        const struct dt_rule *dr = &res.rules[r].rule;
        struct target_rule *tr = &rules[r];
        tr->required = xcalloc(dr->nconds + 1, sizeof *tr->required);
        tr->prohibited = xcalloc(dr->nconds + 1, sizeof *tr->prohibited);
        for (uint32_t i = 0; i < dr->nconds; i++) {
            uint32_t f = dr->conds[i].feature;
            struct constrained_path p = {s.kf.len[f], kpath_feature_path(&s.kf, f)};
            if (dr->conds[i].present)
                tr->required[tr->nrequired++] = p;
            else
                tr->prohibited[tr->nprohibited++] = p;
        }
        struct constraints tc = {tr->required, tr->nrequired, tr->prohibited,
                                       tr->nprohibited};
        struct constrained_options to = a->t;
        to.seed = a->o.seed + r; /* each rule its own stream */
        tr->gen = constrained_new(s.graph, &tc, &to, &tr->conflicts);
        live += tr->gen != NULL;
        strbuf_reset(&line);
        explain_render_rule(&s.kf, dr, &line);
        strbuf_addstr(&line, "   ");
        explain_render_support(&res.rules[r], &a->o, &line);
        fprintf(stderr, "rule %zu: %s\n", r + 1, strbuf_str(&line));
        if (explain_rule_weak(&res.rules[r], &a->o)) {
            /* targeted all the same: more inputs like the one crash seen is
             * what target is for, but they may well not reach the feature */
            strbuf_reset(&line);
            explain_render_weakness(&res.rules[r], a->feature, &a->o, &line);
            fprintf(stderr, "  warning: a weak rule: %s; its inputs may not reach %s\n",
                    strbuf_str(&line), a->feature);
        }
        for (size_t i = 0; i < tr->nrequired + tr->nprohibited; i++) {
            bool req = i < tr->nrequired;
            strbuf_reset(&line);
            add_path_names(&line, s.graph,
                           req ? &tr->required[i] : &tr->prohibited[i - tr->nrequired]);
            fprintf(stderr, "  %s %s\n", req ? "requires  " : "prohibits ", strbuf_str(&line));
        }
        for (size_t d = 0; d < tr->conflicts.len; d++)
            fprintf(stderr, "  %s\n", tr->conflicts.items[d].message);
    }

    /* Round-robin over the rules that can still make inputs. */
    struct made_input *made = xcalloc(a->count + 1, sizeof *made);
    size_t nmade = 0;
    struct strbuf text = STRBUF_INIT;
    while (nmade < a->count && live) {
        for (size_t r = 0; r < res.nrules && nmade < a->count; r++) {
            struct target_rule *tr = &rules[r];
            if (!tr->gen || tr->exhausted)
                continue;
            struct derivation tree;
            bool got = constrained_next(tr->gen, &tree);
            /* --max-size: a larger tree counts as a failed attempt. */
            for (uint32_t tries = 0; got && a->max_size && tree.len > a->max_size; tries++) {
                derivation_free(&tree);
                got = tries + 1 < a->t.attempts && constrained_next(tr->gen, &tree);
            }
            if (!got) {
                tr->exhausted = true;
                live--;
                continue;
            }
            strbuf_reset(&text);
            made[nmade].nodes = tree.len;
            derivation_written_text(&tree, &text);
            derivation_free(&tree);
            made[nmade].rule = r;
            made[nmade].text = strbuf_detach(&text, &made[nmade].len);
            if (!made[nmade].text)
                made[nmade].text = xstrdup("");
            nmade++;
            tr->made++;
        }
    }
    for (size_t r = 0; r < res.nrules; r++)
        if (rules[r].gen)
            fprintf(stderr, "rule %zu: %u input%s%s\n", r + 1, rules[r].made,
                    rules[r].made == 1 ? "" : "s",
                    rules[r].exhausted ? " (no further input found: the search gave up)" : "");

    if (a->outdir) {
        status = write_outdir(cmd, a, c, &res, rules, made, nmade);
    } else {
        struct strbuf out = STRBUF_INIT;
        for (size_t i = 0; i < nmade; i++) {
            strbuf_add(&out, made[i].text, made[i].len);
            strbuf_addch(&out, a->null ? '\0' : '\n');
        }
        if (!cli_write(strbuf_str(&out), out.len))
            status = EXIT_FAILURE_OTHER;
        strbuf_free(&out);
    }
    if (status == EXIT_OK && nmade == 0) {
        fprintf(stderr, "kpath target: no input could be generated for %s\n", a->feature);
        status = EXIT_FAILURE_OTHER;
    }
    if (status == EXIT_OK && a->run)
        status = run_and_measure(cmd, a, c, &s, &res, made, nmade);
    for (size_t i = 0; i < nmade; i++)
        free(made[i].text);
    free(made);
    for (size_t r = 0; r < res.nrules; r++) {
        constrained_free(rules[r].gen);
        diag_list_free(&rules[r].conflicts);
        free(rules[r].required);
        free(rules[r].prohibited);
    }
    free(rules);
    strbuf_free(&text);
    strbuf_free(&line);
    explain_result_free(&res);
    explain_session_close(&s);
    return status;
}

static void init_args(void *args)
{
    struct target_args *a = args;
    explain_options_default(&a->o);
    constrained_options_default(&a->t);
    run_cli_init(&a->rc);
}

static void free_args(void *args)
{
    run_cli_free(&((struct target_args *)args)->rc);
}

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    struct target_args *a = args;
    const struct cli_common *c = &ctx->common;
    run_cli_set_program(&a->rc, ctx->program, ctx->nprogram);
    int status = run_cli_check(cmd, &a->rc, a->run);
    if (status != CLI_CONTINUE)
        return status;
    if (c->nfiles != 1)
        return cli_usage_error(cmd, "expected GRAMMAR and one RESULTS file, got %zu files",
                               c->nfiles);
    if (a->null && a->outdir)
        return cli_usage_error(cmd, "-0 and -o cannot be used together");
    if (!a->feature)
        return cli_usage_error(cmd, "--feature NAME is required");
    return CLI_CONTINUE;
}
