/* cmd_explain: `kpath explain` — which k-paths make a behaviour happen:
 * decision trees over the k-path features of the inputs of a results file,
 * shown as rules in the grammar's words, with their quality on a test set.
 * The session and options it shares with `kpath target` are
 * explain_session.h's. */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "explain_session.h"
#include "base/json.h"
#include "base/sha256.h"
#include "base/xalloc.h"

/* ---- kpath explain ------------------------------------------------------------ */

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static void init_args(void *args);
static void free_args(void *args);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int explain(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct explain_args {
    struct explain_options o;
    const char **features;
    size_t nfeatures;
    const char *test;
    uint32_t split; /* percent, 0: none */
};


static const struct cli_option options[] = {
    {"feature", 'f', "NAME|REGEX", "explain this behaviour feature, or those the regular "
                                   "expression matches (repeatable; default: all)"},
    {"test", 0, "RESULTS2", "measure accuracy, precision and recall on these inputs"},
    {"split", 0, "P", "hold out P% of the inputs (at random, seeded) to measure on"},
    EXPLAIN_CLI_OPTIONS,
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    {"json", 0, NULL, "print JSON instead of text"},
    {0},
};

const struct cli_command cmd_explain_command = {
    .name = "explain",
    .usage = "[options] GRAMMAR RESULTS",
    .summary = "learn which k-paths make a behaviour happen (decision trees)",
    .description =
    "Read a results file (written by kpath run: each input with the behaviour\n"
    "features it reached), parse each input with the grammar and learn, per\n"
    "behaviour feature, a decision tree (CART) over the input's k-path features:\n"
    "for every k-path of length 1..K, whether the input's derivation trees\n"
    "contain it.  A feature reached by some training inputs and not others is\n"
    "trainable; one reached by all or none is listed as such.  Trees are learned\n"
    "on a class-balanced sample (the larger class sub-sampled, seeded) or on\n"
    "every training input, and at most 1 to 8 tests deep: per feature, 5-fold\n"
    "cross-validation on the training inputs (seeded, stratified) chooses the\n"
    "most accurate (ties: shallower, then balanced) unless --balance,\n"
    "--no-balance or --max-depth fix them.  Splits of equal gain go to the\n"
    "k-path of the higher precision on every training input, then the more\n"
    "specific one (in fewer inputs), then the shorter k-path nearer the start\n"
    "rule, then the shorter pattern.  Each feature's\n"
    "report gives the tree's cross-validated accuracy beside the majority\n"
    "baseline's (always answering what most training inputs do); a feature\n"
    "whose tree does not beat it is \"not explained by input structure at\n"
    "k <= K\" and gets no rules.  Each root-to-leaf path that predicts\n"
    "\"reached\" is shown as a rule in the grammar's words, each k-path as\n"
    "kpath pattern shows it:\n"
    "  fn:mul  <=  contains  MultExpr * UnaryExpr   (4 inputs, precision 1.00)\n"
    "with its support (training inputs matching the rule) and precision (the\n"
    "fraction of them that reach the feature).  A rule matched by fewer than\n"
    "--min-reaching inputs that reach the feature (default 3), or of a precision\n"
    "below --min-precision (default 0.50), rests on too little evidence: it is\n"
    "shown with \"weak rule:\" and the numbers.  With --test or --split, the\n"
    "trees predict the test inputs and kpath reports accuracy (beside the\n"
    "majority baseline's), precision and recall per feature and their medians\n"
    "(- where undefined).\n"
    "\n"
    "A record's input path is taken as given, or else beside the results file.\n"
    "Inputs that cannot be read or parsed are skipped, with a warning, and so\n"
    "are inputs changed since they ran (SHA-256 not the record's input_sha256).\n"
    "--feature takes a feature's exact name or, when no feature has that name,\n"
    "a POSIX extended regular expression (unanchored: 'fn:.*mul' or '^exit:').",
    .options = options,
    .args_size = sizeof(struct explain_args),
    .init_args = init_args,
    .free_args = free_args,
    .on_option = on_option,
    .check = check,
    .main = explain,
    .takes_files = true,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct explain_args *a = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "feature") == 0) {
        a->features = xrealloc(a->features, (a->nfeatures + 1) * sizeof *a->features);
        a->features[a->nfeatures++] = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "test") == 0) {
        a->test = value;
        return CLI_CONTINUE;
    }
    if (strcmp(name, "split") == 0)
        return cli_parse_u32(cmd, "--split", value, 1, 99, &a->split) ? CLI_CONTINUE : EXIT_USAGE;
    return explain_cli_option(cmd, name, value, &a->o);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names selected by --feature (every feature without it), sorted; NULL
 * after a message when an argument matches nothing or is a bad expression. */
static char **select_features(const struct cli_command *cmd, const struct results *r,
                              const char **args, size_t nargs, size_t *n)
{
    bool *chosen = xcalloc(r->nfeatures + 1, sizeof *chosen);
    bool ok = true;
    for (size_t i = 0; ok && i < nargs; i++) {
        uint32_t exact = results_find_feature(r, args[i]);
        if (exact != UINT32_MAX) {
            chosen[exact] = true;
            continue;
        }
        regex_t re;
        int err = regcomp(&re, args[i], REG_EXTENDED | REG_NOSUB);
        if (err) {
            char msg[256];
            regerror(err, &re, msg, sizeof msg);
            fprintf(stderr, "kpath %s: --feature '%s' is no feature's name and not a regular "
                            "expression: %s\n", cmd->name, args[i], msg);
            ok = false;
            break;
        }
        bool any = false;
        for (uint32_t f = 0; f < r->nfeatures; f++)
            if (regexec(&re, r->features[f], 0, NULL, 0) == 0)
                any = chosen[f] = true;
        regfree(&re);
        if (!any) {
            fprintf(stderr, "kpath %s: no behaviour feature matches --feature '%s'\n", cmd->name,
                    args[i]);
            ok = false;
        }
    }
    char **names = NULL;
    *n = 0;
    if (ok) {
        names = xcalloc(r->nfeatures + 1, sizeof *names);
        for (uint32_t f = 0; f < r->nfeatures; f++)
            if (!nargs || chosen[f])
                names[(*n)++] = r->features[f];
        qsort(names, *n, sizeof *names, cmp_str);
    }
    free(chosen);
    return names;
}

static void add_number(struct strbuf *out, double v, bool json)
{
    if (isnan(v))
        strbuf_addstr(out, json ? "null" : "-");
    else
        strbuf_addf(out, "%.3f", v);
}

static void add_path_ids(struct strbuf *out, const struct kpath_features *kf, uint32_t f)
{
    strbuf_addch(out, '[');
    for (uint32_t i = 0; i < kf->len[f]; i++)
        strbuf_addf(out, "%s%u", i ? ", " : "", kpath_feature_path(kf, f)[i]);
    strbuf_addch(out, ']');
}

static const char *kind_name(enum explain_kind k)
{
    return k == EXPLAIN_TRAINABLE ? "trainable" : k == EXPLAIN_ALWAYS ? "always" : "never";
}

static void add_json_result(struct strbuf *out, const struct kpath_features *kf,
                            const struct explain_result *res, const struct explain_options *o)
{
    struct strbuf text = STRBUF_INIT;
    strbuf_addstr(out, "{\"name\": ");
    json_add_cstring(out, res->name);
    strbuf_addf(out, ", \"kind\": \"%s\", \"reached\": %u, \"not_reached\": %u", kind_name(res->kind),
                res->npos, res->nneg);
    if (res->kind == EXPLAIN_TRAINABLE) {
        strbuf_addf(out, ", \"explained\": %s, \"balanced\": %s, \"depth\": %u, \"folds\": %u, "
                         "\"cv_accuracy\": ", res->explained ? "true" : "false",
                    res->balanced ? "true" : "false", res->depth, res->folds);
        add_number(out, res->cv_accuracy, true);
        strbuf_addstr(out, ", \"baseline\": {\"answer\": ");
        strbuf_addstr(out, res->majority ? "true" : "false");
        strbuf_addstr(out, ", \"cv_accuracy\": ");
        add_number(out, res->cv_baseline, true);
        strbuf_addch(out, '}');
    }
    if (res->kind == EXPLAIN_TRAINABLE) {
        strbuf_addf(out, ", \"sample\": %u,\n     \"tree\": [", res->nsample);
        for (uint32_t i = 0; i < res->tree.nnodes; i++) {
            const struct dt_node *n = &res->tree.nodes[i];
            strbuf_addf(out, "%s{\"reached\": %u, \"not_reached\": %u", i ? ",\n       " : "\n       ",
                        n->npos, n->nneg);
            if (n->feature == DT_LEAF) {
                strbuf_addf(out, ", \"predicts\": %s}", dt_node_predicts(n) ? "true" : "false");
                continue;
            }
            strbuf_addstr(out, ", \"path\": ");
            add_path_ids(out, kf, n->feature);
            strbuf_addf(out, ", \"absent\": %u, \"present\": %u}", n->absent, n->present);
        }
        strbuf_addstr(out, "],\n     \"rules\": [");
        for (size_t r = 0; r < res->nrules; r++) {
            const struct explain_rule *er = &res->rules[r];
            strbuf_addstr(out, r ? ",\n       {\"conditions\": [" : "\n       {\"conditions\": [");
            for (uint32_t c = 0; c < er->rule.nconds; c++) {
                const struct dt_condition *cond = &er->rule.conds[c];
                strbuf_addf(out, "%s{\"present\": %s, \"path\": ", c ? ", " : "",
                            cond->present ? "true" : "false");
                add_path_ids(out, kf, cond->feature);
                strbuf_reset(&text);
                explain_render_path(kf, cond->feature, &text);
                strbuf_addstr(out, ", \"names\": ");
                json_add_cstring(out, strbuf_str(&text));
                strbuf_reset(&text);
                explain_render_pattern(kf, cond->feature, &text);
                strbuf_addstr(out, ", \"pattern\": ");
                json_add_cstring(out, strbuf_str(&text));
                strbuf_addch(out, '}');
            }
            strbuf_addf(out, "], \"support\": %u, \"reaching\": %u, \"precision\": ",
                        er->support, er->hits);
            add_number(out, er->support ? (double)er->hits / er->support : NAN, true);
            strbuf_addf(out, ", \"weak\": %s}", explain_rule_weak(er, o) ? "true" : "false");
        }
        strbuf_addstr(out, res->nrules ? "\n     ]" : "]");
    }
    if (res->tested) {
        const struct dt_confusion *c = &res->test;
        strbuf_addf(out, ",\n     \"test\": {\"tp\": %llu, \"fp\": %llu, \"tn\": %llu, \"fn\": %llu, "
                         "\"accuracy\": ", (unsigned long long)c->tp, (unsigned long long)c->fp,
                    (unsigned long long)c->tn, (unsigned long long)c->fn);
        add_number(out, dt_accuracy(c), true);
        strbuf_addstr(out, ", \"precision\": ");
        add_number(out, dt_precision(c), true);
        strbuf_addstr(out, ", \"recall\": ");
        add_number(out, dt_recall(c), true);
        strbuf_addstr(out, ", \"baseline_accuracy\": ");
        add_number(out, dt_accuracy(&res->test_baseline), true);
        strbuf_addch(out, '}');
    }
    strbuf_addch(out, '}');
    strbuf_free(&text);
}

static void add_text_result(struct strbuf *out, const struct kpath_features *kf,
                            const struct explain_result *res, const struct explain_options *o)
{
    if (!res->explained) {
        strbuf_addf(out, "%s  (reached by %u of %u training inputs)\n  ", res->name, res->npos,
                    res->npos + res->nneg);
        explain_render_verdict(res, o->k, out);
        strbuf_addch(out, '\n');
        return;
    }
    strbuf_addf(out, "%s  (reached by %u of %u training inputs; tree of %u nodes on %u)\n  ",
                res->name, res->npos, res->npos + res->nneg, res->tree.nnodes, res->nsample);
    explain_render_verdict(res, o->k, out);
    strbuf_addch(out, '\n');
    if (!res->nrules)
        strbuf_addstr(out, "  no rule predicts it\n");
    for (size_t r = 0; r < res->nrules; r++) {
        const struct explain_rule *er = &res->rules[r];
        strbuf_addf(out, "  %s  \xe2\x87\x90  ", res->name);
        explain_render_rule(kf, &er->rule, out);
        strbuf_addstr(out, "   ");
        explain_render_support(er, o, out);
        strbuf_addch(out, '\n');
        if (explain_rule_weak(er, o)) {
            strbuf_addstr(out, "    weak rule: ");
            explain_render_weakness(er, res->name, o, out);
            strbuf_addch(out, '\n');
        }
    }
}

static void add_metrics_table(struct strbuf *out, struct explain_result *res, size_t n,
                              const char *on, uint32_t ntest)
{
    size_t width = strlen("median");
    for (size_t i = 0; i < n; i++)
        if (res[i].kind == EXPLAIN_TRAINABLE && strlen(res[i].name) > width)
            width = strlen(res[i].name);
    strbuf_addf(out, "\nmetrics on %s (%u input%s), trainable features:\n", on, ntest,
                ntest == 1 ? "" : "s");
    strbuf_addf(out, "  %-*s  accuracy  baseline  precision  recall     TP     FP     TN     FN\n",
                (int)width, "feature");
    double *acc = xcalloc(n + 1, sizeof *acc), *prec = xcalloc(n + 1, sizeof *prec),
           *rec = xcalloc(n + 1, sizeof *rec), *base = xcalloc(n + 1, sizeof *base);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (res[i].kind != EXPLAIN_TRAINABLE)
            continue;
        const struct dt_confusion *c = &res[i].test;
        acc[m] = dt_accuracy(c);
        prec[m] = dt_precision(c);
        rec[m] = dt_recall(c);
        base[m] = dt_accuracy(&res[i].test_baseline);
        struct strbuf a = STRBUF_INIT, p = STRBUF_INIT, r = STRBUF_INIT, b = STRBUF_INIT;
        add_number(&a, acc[m], false);
        add_number(&p, prec[m], false);
        add_number(&r, rec[m], false);
        add_number(&b, base[m], false);
        strbuf_addf(out, "  %-*s  %-8s  %-8s  %-9s  %-6s  %5llu  %5llu  %5llu  %5llu%s\n", (int)width,
                    res[i].name, strbuf_str(&a), strbuf_str(&b), strbuf_str(&p), strbuf_str(&r),
                    (unsigned long long)c->tp, (unsigned long long)c->fp,
                    (unsigned long long)c->tn, (unsigned long long)c->fn,
                    res[i].explained ? "" : "  (not explained: the baseline's answers)");
        strbuf_free(&b);
        strbuf_free(&a);
        strbuf_free(&p);
        strbuf_free(&r);
        m++;
    }
    struct strbuf a = STRBUF_INIT, p = STRBUF_INIT, r = STRBUF_INIT, b = STRBUF_INIT;
    add_number(&a, dt_median(acc, m), false);
    add_number(&b, dt_median(base, m), false);
    add_number(&p, dt_median(prec, m), false);
    add_number(&r, dt_median(rec, m), false);
    strbuf_addf(out, "  %-*s  %-8s  %-8s  %-9s  %s\n", (int)width, "median", strbuf_str(&a),
                strbuf_str(&b), strbuf_str(&p), strbuf_str(&r));
    strbuf_free(&b);
    free(base);
    strbuf_free(&a);
    strbuf_free(&p);
    strbuf_free(&r);
    free(acc);
    free(prec);
    free(rec);
}

static void add_json_medians(struct strbuf *out, struct explain_result *res, size_t n)
{
    double *v[3];
    size_t m = 0;
    for (int j = 0; j < 3; j++)
        v[j] = xcalloc(n + 1, sizeof *v[j]);
    for (size_t i = 0; i < n; i++) {
        if (res[i].kind != EXPLAIN_TRAINABLE)
            continue;
        v[0][m] = dt_accuracy(&res[i].test);
        v[1][m] = dt_precision(&res[i].test);
        v[2][m] = dt_recall(&res[i].test);
        m++;
    }
    static const char *names[3] = {"accuracy", "precision", "recall"};
    strbuf_addstr(out, "{");
    for (int j = 0; j < 3; j++) {
        strbuf_addf(out, "%s\"%s\": ", j ? ", " : "", names[j]);
        add_number(out, dt_median(v[j], m), true);
        free(v[j]);
    }
    strbuf_addstr(out, "}");
}

static void add_name_list(struct strbuf *out, const char *title, struct explain_result *res,
                          size_t n, enum explain_kind kind)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (res[i].kind == kind)
            strbuf_addf(out, "%s%s", count++ ? ", " : title, res[i].name);
    if (count)
        strbuf_addch(out, '\n');
}

/* The session loads the grammar itself: no CLI_GRAMMAR. */
static int explain(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    struct explain_args *a = args;
    const struct cli_common *c = &ctx->common;
    struct explain_session s;
    int status = explain_session_open(cmd, c->grammar, c->start, c->files[0], &a->o, &s);
    struct results test_results;
    results_init(&test_results);
    struct explain_inputs test_inputs = {0};
    char **names = NULL;
    size_t nnames = 0;
    uint32_t *train = NULL, *test = NULL, ntrain = 0, ntest = 0;
    const struct explain_inputs *test_in = NULL;
    const struct results *test_r = NULL;
    if (status == EXIT_OK && !(names = select_features(cmd, &s.results, a->features,
                                                       a->nfeatures, &nnames)))
        status = EXIT_USAGE;
    if (status == EXIT_OK && a->test) {
        status = explain_session_load_results(cmd, c->grammar, a->test, &test_results);
        if (status == EXIT_OK) {
            struct diag_list diags = DIAG_LIST_INIT;
            explain_inputs_read(&s.kf, &test_results, a->test, &a->o, &test_inputs, &diags);
            explain_cli_print_skipped(cmd, &diags, test_inputs.skipped, a->test);
            diag_list_free(&diags);
            test_in = &test_inputs;
            test_r = &test_results;
            ntest = test_inputs.data.nrows;
            test = xcalloc(ntest + 1, sizeof *test);
            for (uint32_t i = 0; i < ntest; i++)
                test[i] = i;
        }
    }
    if (status != EXIT_OK)
        goto out;
    uint32_t nrows = s.inputs.data.nrows;
    if (a->split) {
        explain_split(nrows, a->split / 100.0, a->o.seed, &train, &ntrain, &test, &ntest);
        test_in = &s.inputs;
        test_r = &s.results;
    } else {
        ntrain = nrows;
        train = xcalloc(nrows + 1, sizeof *train);
        for (uint32_t i = 0; i < nrows; i++)
            train[i] = i;
    }

    struct explain_result *res = xcalloc(nnames + 1, sizeof *res);
    for (size_t i = 0; i < nnames; i++) {
        bool *labels = explain_labels(&s.inputs, &s.results, names[i]);
        explain_learn(&s.inputs, labels, train, ntrain, names[i], &a->o, &res[i]);
        if (test_in) {
            bool *tl = test_in == &s.inputs ? labels : explain_labels(test_in, test_r, names[i]);
            explain_evaluate(&res[i], test_in, tl, test, ntest);
            if (tl != labels)
                free(tl);
        }
        free(labels);
    }

    struct strbuf out = STRBUF_INIT;
    const char *test_name = a->test ? a->test : "the held-out inputs";
    if (c->json) {
        strbuf_addstr(&out, "{\"results\": ");
        json_add_cstring(&out, c->files[0]);
        strbuf_addf(&out, ", \"inputs\": %u, \"skipped\": %u, \"train\": %u, \"k\": %u, "
                          "\"kpath_features\": %u, \"criterion\": \"%s\", \"max_depth\": %u, "
                          "\"depth_auto\": %s, \"balanced\": %s, \"balance_auto\": %s, "
                          "\"seed\": %llu, \"min_reaching\": %u, "
                          "\"min_precision\": %u.%02u,\n  \"features\": [",
                    nrows, s.inputs.skipped, ntrain, a->o.k, s.kf.n,
                    dt_criterion_name(a->o.tree.criterion),
                    a->o.depth_auto ? EXPLAIN_MAX_AUTO_DEPTH : a->o.tree.max_depth,
                    a->o.depth_auto ? "true" : "false",
                    a->o.balance ? "true" : "false", a->o.balance_auto ? "true" : "false",
                    (unsigned long long)a->o.seed,
                    a->o.min_reaching, a->o.min_precision_pct / 100,
                    a->o.min_precision_pct % 100);
        for (size_t i = 0; i < nnames; i++) {
            strbuf_addstr(&out, i ? ",\n    " : "\n    ");
            add_json_result(&out, &s.kf, &res[i], &a->o);
        }
        strbuf_addstr(&out, nnames ? "\n  ],\n  \"test\": " : "],\n  \"test\": ");
        if (test_in) {
            strbuf_addstr(&out, "{\"on\": ");
            json_add_cstring(&out, a->test ? a->test : "split");
            strbuf_addf(&out, ", \"inputs\": %u, \"median\": ", ntest);
            add_json_medians(&out, res, nnames);
            strbuf_addstr(&out, "}\n}\n");
        } else {
            strbuf_addstr(&out, "null\n}\n");
        }
    } else {
        strbuf_addf(&out, "%u input%s of %s (%u skipped), %u for training; k-paths of length "
                          "1..%u: %u features\n",
                    nrows, nrows == 1 ? "" : "s", c->files[0], s.inputs.skipped, ntrain, a->o.k,
                    s.kf.n);
        strbuf_addf(&out, "trees: %s, ", dt_criterion_name(a->o.tree.criterion));
        if (a->o.depth_auto)
            strbuf_addf(&out, "depth 1..%u", EXPLAIN_MAX_AUTO_DEPTH);
        else
            strbuf_addf(&out, "max depth %u", a->o.tree.max_depth);
        strbuf_addf(&out, ", %s%s, seed %llu\n",
                    a->o.balance_auto ? "class-balanced samples or every training input"
                    : a->o.balance ? "class-balanced samples" : "every training input",
                    a->o.depth_auto || a->o.balance_auto ? " (chosen per feature by "
                                                           "cross-validation on the training "
                                                           "inputs)" : "",
                    (unsigned long long)a->o.seed);
        for (size_t i = 0; i < nnames; i++)
            if (res[i].kind == EXPLAIN_TRAINABLE) {
                strbuf_addch(&out, '\n');
                add_text_result(&out, &s.kf, &res[i], &a->o);
            }
        bool lists = false;
        for (size_t i = 0; i < nnames; i++)
            lists = lists || res[i].kind != EXPLAIN_TRAINABLE;
        if (lists)
            strbuf_addch(&out, '\n');
        add_name_list(&out, "reached by every training input: ", res, nnames, EXPLAIN_ALWAYS);
        add_name_list(&out, "reached by no training input: ", res, nnames, EXPLAIN_NEVER);
        if (test_in)
            add_metrics_table(&out, res, nnames, test_name, ntest);
    }
    if (!cli_write(strbuf_str(&out), out.len))
        status = EXIT_FAILURE_OTHER;
    strbuf_free(&out);
    for (size_t i = 0; i < nnames; i++)
        explain_result_free(&res[i]);
    free(res);
out:
    free(train);
    free(test);
    free(names);
    explain_inputs_free(&test_inputs);
    results_free(&test_results);
    explain_session_close(&s);
    return status;
}

static void init_args(void *args)
{
    explain_options_default(&((struct explain_args *)args)->o);
}

static void free_args(void *args)
{
    free(((struct explain_args *)args)->features);
}

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    const struct explain_args *a = args;
    if (ctx->common.nfiles != 1)
        return cli_usage_error(cmd, "expected GRAMMAR and one RESULTS file, got %zu files",
                               ctx->common.nfiles);
    if (a->test && a->split)
        return cli_usage_error(cmd, "--test and --split cannot be used together");
    return CLI_CONTINUE;
}
