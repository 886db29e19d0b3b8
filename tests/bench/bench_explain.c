/* Explain and target benchmarks, on a subject-free setup: behaviour features
 * are made up from the k-paths of random inputs (each feature a formula over
 * two k-paths: A and B, A and not B, A or B), so the right answer is known.
 * With 1,000 training inputs and 300 such features: the time to read the
 * inputs and to learn every tree, accuracy/precision/recall on 1,000
 * independent test inputs (median and worst), and for targeted inputs the
 * fraction that reach their feature against as many random inputs.
 *
 * Then real programs nobody here wrote (tinyexpr, inih), built at bench
 * time from the checkouts KPATH_TINYEXPR and KPATH_INIH name (skipped,
 * saying so, without them; tests/bench/real_programs.sh builds and runs
 * them): per function feature, the tree's accuracy, precision and recall on
 * held-out inputs beside the majority baseline's and beside the best any
 * rule over the same k-path features could do (the held-out inputs grouped
 * by their k-path features, each group answered by its majority: an upper
 * bound, since it knows the held-out answers); then kpath target --run
 * against random inputs of the same size budget. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "explain/explain.h"
#include "gen/gen.h"
#include "grammar/grammar.h"
#include "run/results.h"
#include "gen/constrained.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define NFEATURES 300
#define NINPUTS 1000

struct formula {
    uint32_t a[2], alen, b[2], blen; /* k-paths of length 1 or 2 */
    int op;                          /* 0: A and B, 1: A and not B, 2: A or B */
};

struct tree_paths {
    struct kpath_set s1, s2;
};

static bool has(const struct tree_paths *tp, const uint32_t *p, uint32_t len)
{
    return kpath_set_contains(len == 1 ? &tp->s1 : &tp->s2, p);
}

static bool holds(const struct formula *f, const struct tree_paths *tp)
{
    bool a = has(tp, f->a, f->alen), b = has(tp, f->b, f->blen);
    return f->op == 0 ? a && b : f->op == 1 ? a && !b : a || b;
}

static void tree_paths_of(const struct derivation *t, struct kpath_space *sp, struct tree_paths *tp);

/* tree_paths_of the tree of gen->inputs[i]. */
static void gen_tree_paths_of(const struct generator *gen, size_t i, struct kpath_space *sp,
                              struct tree_paths *tp)
{
    struct derivation tree;
    gen_input_tree(gen, i, &tree);
    tree_paths_of(&tree, sp, tp);
    derivation_free(&tree);
}

static void tree_paths_of(const struct derivation *t, struct kpath_space *sp, struct tree_paths *tp)
{
    kpath_set_init(&tp->s1, &sp[0]);
    kpath_set_init(&tp->s2, &sp[1]);
    derivation_add_kpaths(t, &tp->s1);
    derivation_add_kpaths(t, &tp->s2);
}

static void tree_paths_free(struct tree_paths *tp)
{
    kpath_set_free(&tp->s1);
    kpath_set_free(&tp->s2);
}

static struct generator *random_inputs(const struct graph *g, uint64_t seed, uint32_t n)
{
    struct gen_options o;
    gen_options_default(&o);
    o.strategy = GEN_RANDOM;
    o.count = n;
    o.seed = seed;
    o.max_depth = 10;
    char *error;
    struct generator *gen = gen_new(g, &o, &error);
    gen_run(gen);
    return gen;
}

/* Write the inputs as files and a results file naming their features. */
static void write_set(const char *dir, const char *name, struct generator *gen,
                      struct tree_paths *tp, const struct formula *f, size_t nf)
{
    struct results r;
    results_init(&r);
    struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
    strbuf_addstr(&text, "{\"kpath_results\":1}\n");
    for (size_t i = 0; i < gen->ninputs; i++) {
        strbuf_reset(&path);
        strbuf_addf(&path, "%s/%s-%zu.txt", dir, name, i);
        FILE *out = fopen(strbuf_str(&path), "wb");
        fwrite(gen->inputs[i].text, 1, gen->inputs[i].len, out);
        fclose(out);
        struct run_record rec = {0};
        rec.input = xstrdup(strbuf_str(&path));
        rec.outcome = xstrdup("exit:0");
        rec.out.first_line = xstrdup("");
        rec.err.first_line = xstrdup("");
        rec.features = xcalloc(nf + 2, sizeof *rec.features);
        rec.features[rec.nfeatures++] = results_intern(&r, "exit:0");
        char fname[32];
        for (size_t j = 0; j < nf; j++)
            if (holds(&f[j], &tp[i])) {
                snprintf(fname, sizeof fname, "f%03zu", j);
                rec.features[rec.nfeatures++] = results_intern(&r, fname);
            }
        results_add(&r, &rec);
        results_format_record(&r, &r.records[r.nrecords - 1], &text);
    }
    strbuf_reset(&path);
    strbuf_addf(&path, "%s/%s.jsonl", dir, name);
    FILE *out = fopen(strbuf_str(&path), "wb");
    fwrite(text.data, 1, text.len, out);
    fclose(out);
    strbuf_free(&text);
    strbuf_free(&path);
    results_free(&r);
}

static double worst(const double *v, size_t n)
{
    double w = NAN;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]) && (isnan(w) || v[i] < w))
            w = v[i];
    return w;
}

static void bench_subject_free(const char *root, const char *rel)
{
    size_t len;
    char *src = bench_read(root, rel, &len);
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *gr = src ? grammar_load_string(rel, src, len, NULL, &d) : NULL;
    free(src);
    diag_list_free(&d);
    if (!gr)
        return;
    struct graph *g = graph_build(gr);
    struct kpath_space sp[2];
    kpath_space_init(&sp[0], g, 1);
    kpath_space_init(&sp[1], g, 2);
    char dir[] = "/tmp/kpath-bench-explain-XXXXXX";
    if (!mkdtemp(dir))
        return;

    struct generator *train = random_inputs(g, 11, NINPUTS), *test = random_inputs(g, 12, NINPUTS);
    struct tree_paths *tp_train = xcalloc(NINPUTS, sizeof *tp_train);
    struct tree_paths *tp_test = xcalloc(NINPUTS, sizeof *tp_test);
    for (size_t i = 0; i < NINPUTS; i++) {
        gen_tree_paths_of(train, i, sp, &tp_train[i]);
        gen_tree_paths_of(test, i, sp, &tp_test[i]);
    }
    /* Candidate k-paths: those in 10% .. 90% of the training inputs. */
    uint32_t (*cand)[3] = NULL; /* len, ids */
    size_t ncand = 0, cap = 0;
    for (uint32_t k = 1; k <= 2; k++) {
        struct kpath_iter it;
        kpath_iter_init(&it, &sp[k - 1]);
        while (kpath_iter_next(&it)) {
            size_t count = 0;
            for (size_t i = 0; i < NINPUTS; i++)
                count += has(&tp_train[i], it.path, k);
            if (count < NINPUTS / 10 || count > NINPUTS * 9 / 10)
                continue;
            cand = xgrow(cand, &cap, ncand + 1, sizeof *cand);
            cand[ncand][0] = k;
            cand[ncand][1] = it.path[0];
            cand[ncand][2] = k > 1 ? it.path[1] : 0;
            ncand++;
        }
        kpath_iter_free(&it);
    }
    if (ncand < 2) {
        printf("  %s: too few k-paths of middling frequency\n", rel);
        goto out;
    }
    struct rng rng;
    rng_seed(&rng, 5);
    struct formula f[NFEATURES];
    for (size_t j = 0; j < NFEATURES; j++) {
        size_t x = rng_below(&rng, ncand), y = rng_below(&rng, ncand);
        f[j] = (struct formula){{cand[x][1], cand[x][2]}, cand[x][0],
                                {cand[y][1], cand[y][2]}, cand[y][0], (int)(j % 3)};
    }
    write_set(dir, "train", train, tp_train, f, NFEATURES);
    write_set(dir, "test", test, tp_test, f, NFEATURES);

    struct explain_options o;
    explain_options_default(&o);
    char path[256];
    struct results rtrain, rtest;
    results_init(&rtrain);
    results_init(&rtest);
    snprintf(path, sizeof path, "%s/train.jsonl", dir);
    results_load(path, &rtrain, &d);
    snprintf(path, sizeof path, "%s/test.jsonl", dir);
    results_load(path, &rtest, &d);
    struct kpath_features kf;
    struct explain_inputs in, tin;
    double t0 = bench_now();
    snprintf(path, sizeof path, "%s/train.jsonl", dir);
    explain_inputs_train(g, &rtrain, path, &o, &kf, &in, &d);
    snprintf(path, sizeof path, "%s/test.jsonl", dir);
    double t_read = bench_now() - t0;
    explain_inputs_read(&kf, &rtest, path, &o, &tin, &d);
    uint32_t *rows = xcalloc(NINPUTS, sizeof *rows);
    for (uint32_t i = 0; i < in.data.nrows; i++)
        rows[i] = i;
    struct explain_result *res = xcalloc(NFEATURES, sizeof *res);
    double learn = 0;
    size_t trainable = 0;
    double acc[NFEATURES], prec[NFEATURES], rec[NFEATURES];
    for (size_t j = 0; j < NFEATURES; j++) {
        char name[32];
        snprintf(name, sizeof name, "f%03zu", j);
        bool *labels = explain_labels(&in, &rtrain, name);
        bool *tl = explain_labels(&tin, &rtest, name);
        t0 = bench_now();
        explain_learn(&in, labels, rows, in.data.nrows, name, &o, &res[j]);
        learn += bench_now() - t0;
        explain_evaluate(&res[j], &tin, tl, rows, tin.data.nrows);
        if (res[j].kind == EXPLAIN_TRAINABLE) {
            acc[trainable] = dt_accuracy(&res[j].test);
            prec[trainable] = dt_precision(&res[j].test);
            rec[trainable] = dt_recall(&res[j].test);
            trainable++;
        }
        free(labels);
        free(tl);
    }
    double wa = worst(acc, trainable), wp = worst(prec, trainable), wr = worst(rec, trainable);
    printf("  %-10s %u inputs (%u k-path features, k<=3): parse + features %.2f s; "
           "%zu trees (of %d features) %.3f s\n",
           rel, in.data.nrows, kf.n, t_read, trainable, NFEATURES, learn);
    printf("  %-10s test set of %u: accuracy median %.3f worst %.3f; precision %.3f / %.3f; "
           "recall %.3f / %.3f\n", "", tin.data.nrows, dt_median(acc, trainable), wa,
           dt_median(prec, trainable), wp, dt_median(rec, trainable), wr);

    /* Targeted against random inputs, for the first 30 trainable features
     * with a rule: 10 inputs each. */
    size_t targeted = 0, hit_t = 0, hit_r = 0, abs_t = 0, abs_r = 0, features = 0;
    double tt0 = bench_now();
    struct generator *rnd = random_inputs(g, 13, 10);
    struct tree_paths *tp_rnd = xcalloc(rnd->ninputs, sizeof *tp_rnd);
    for (size_t i = 0; i < rnd->ninputs; i++)
        gen_tree_paths_of(rnd, i, sp, &tp_rnd[i]);
    for (size_t j = 0; j < NFEATURES && features < 30; j++) {
        if (res[j].kind != EXPLAIN_TRAINABLE || !res[j].nrules)
            continue;
        features++;
        size_t made = 0, hits = 0;
        for (size_t r = 0; r < res[j].nrules && made < 10; r++) {
            const struct dt_rule *dr = &res[j].rules[r].rule;
            struct constrained_path req[8], pro[8];
            size_t nr = 0, np = 0;
            for (uint32_t c = 0; c < dr->nconds && c < 8; c++) {
                struct constrained_path p = {kf.len[dr->conds[c].feature],
                                        kpath_feature_path(&kf, dr->conds[c].feature)};
                if (dr->conds[c].present)
                    req[nr++] = p;
                else
                    pro[np++] = p;
            }
            struct constraints tc = {req, nr, pro, np};
            struct constrained_options to;
            constrained_options_default(&to);
            to.max_depth = 10;
            to.attempts = 50;
            struct diag_list conflicts = DIAG_LIST_INIT;
            struct constrained_gen *t = constrained_new(g, &tc, &to, &conflicts);
            diag_list_free(&conflicts);
            for (size_t n = made; t && n < 10 / res[j].nrules + made + 1 && made < 10; n++) {
                struct derivation tree;
                if (!constrained_next(t, &tree))
                    break;
                struct tree_paths tp;
                tree_paths_of(&tree, sp, &tp);
                hits += holds(&f[j], &tp);
                made++;
                tree_paths_free(&tp);
                derivation_free(&tree);
            }
            constrained_free(t);
        }
        size_t rhits = 0;
        for (size_t i = 0; i < rnd->ninputs; i++)
            rhits += holds(&f[j], &tp_rnd[i]);
        targeted += made;
        hit_t += hits;
        hit_r += rhits;
        abs_t += hits > 0;
        abs_r += rhits > 0;
    }
    printf("  %-10s targeted inputs for %zu features: %.1f%% reach their feature (relative), "
           "%zu/%zu features reached (absolute); 10 random inputs each: %.1f%%, %zu/%zu; %.2f s\n",
           "", features, targeted ? 100.0 * hit_t / targeted : 0.0, abs_t, features,
           features ? 100.0 * hit_r / (10.0 * features) : 0.0, abs_r, features,
           bench_now() - tt0);
    for (size_t i = 0; i < rnd->ninputs; i++)
        tree_paths_free(&tp_rnd[i]);
    free(tp_rnd);
    gen_free(rnd);
    for (size_t j = 0; j < NFEATURES; j++)
        explain_result_free(&res[j]);
    free(res);
    free(rows);
    explain_inputs_free(&in);
    explain_inputs_free(&tin);
    kpath_features_free(&kf);
    results_free(&rtrain);
    results_free(&rtest);
out:
    diag_list_free(&d);
    free(cand);
    for (size_t i = 0; i < NINPUTS; i++) {
        tree_paths_free(&tp_train[i]);
        tree_paths_free(&tp_test[i]);
    }
    free(tp_train);
    free(tp_test);
    gen_free(train);
    gen_free(test);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("  (could not remove %s)\n", dir);
    kpath_space_free(&sp[0]);
    kpath_space_free(&sp[1]);
    graph_free(g);
    grammar_free(gr);
}

/* The rows of rows[0..n) of d sorted by their features (qsort context). */
static const struct dt_data *group_data;

static int cmp_row_features(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const struct dt_data *d = group_data;
    uint32_t i = d->row_start[x], j = d->row_start[y];
    uint32_t ie = d->row_start[x + 1], je = d->row_start[y + 1];
    for (; i < ie && j < je; i++, j++)
        if (d->cols[i] != d->cols[j])
            return d->cols[i] < d->cols[j] ? -1 : 1;
    return (i < ie) - (j < je);
}

/* The best any function of the k-path features does on the rows: each group
 * of rows with the same features answered by its majority. */
static struct dt_confusion best_possible(const struct dt_data *d, const bool *labels)
{
    struct dt_confusion c = {0};
    uint32_t *order = xcalloc(d->nrows + 1, sizeof *order);
    for (uint32_t i = 0; i < d->nrows; i++)
        order[i] = i;
    group_data = d;
    qsort(order, d->nrows, sizeof *order, cmp_row_features);
    for (uint32_t i = 0; i < d->nrows;) {
        uint32_t j = i, pos = 0;
        while (j < d->nrows && cmp_row_features(&order[i], &order[j]) == 0)
            pos += labels[order[j++]];
        uint32_t n = j - i;
        if (pos > n - pos) {
            c.tp += pos;
            c.fp += n - pos;
        } else {
            c.fn += pos;
            c.tn += n - pos;
        }
        i = j;
    }
    free(order);
    return c;
}

static void bench_real_program(const char *root, const char *name, const char *var,
                               uint32_t k)
{
    const char *src = getenv(var);
    if (!src || !*src) {
        printf("  %s: skipped (set %s to a checkout of %s; see docs/benchmarks.md)\n", name, var,
               name);
        return;
    }
    const char *kpath_env = getenv("KPATH");
    char kpath[512], dir[] = "/tmp/kpath-bench-real-XXXXXX", cmd[2048], gpath[256];
    snprintf(kpath, sizeof kpath, "%s", kpath_env && *kpath_env ? kpath_env : "");
    if (!*kpath)
        snprintf(kpath, sizeof kpath, "%s/build/kpath", root);
    if (!mkdtemp(dir))
        return;
    double t0 = bench_now();
    snprintf(cmd, sizeof cmd, "cd '%s' && sh tests/bench/real_programs.sh prep %s '%s' '%s' '%s' "
                              ">'%s/prep.out' 2>&1", root, name, src, dir, kpath, dir);
    int st = system(cmd);
    char line[256] = "";
    snprintf(gpath, sizeof gpath, "%s/prep.out", dir);
    FILE *f = fopen(gpath, "r");
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = 0;
        fclose(f);
    }
    line[strcspn(line, "\n")] = 0;
    if (st != 0) {
        printf("  %s: skipped (%s)\n", name, line);
        goto out;
    }
    double t_prep = bench_now() - t0;
    size_t len;
    char *text = bench_read(root, line, &len);
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *gr = text ? grammar_load_string(line, text, len, NULL, &d) : NULL;
    free(text);
    if (!gr) {
        printf("  %s: cannot load %s\n", name, line);
        diag_list_free(&d);
        goto out;
    }
    struct graph *g = graph_build(gr);
    struct explain_options o;
    explain_options_default(&o);
    o.k = k;
    struct results rtrain, rtest;
    results_init(&rtrain);
    results_init(&rtest);
    char ptrain[300], ptest[300];
    snprintf(ptrain, sizeof ptrain, "%s/train.jsonl", dir);
    snprintf(ptest, sizeof ptest, "%s/test.jsonl", dir);
    struct kpath_features kf;
    struct explain_inputs in, tin;
    memset(&kf, 0, sizeof kf);
    memset(&in, 0, sizeof in);
    memset(&tin, 0, sizeof tin);
    if (!results_load(ptrain, &rtrain, &d) || !results_load(ptest, &rtest, &d)) {
        printf("  %s: cannot read the results\n", name);
        goto done;
    }
    explain_inputs_train(g, &rtrain, ptrain, &o, &kf, &in, &d);
    explain_inputs_read(&kf, &rtest, ptest, &o, &tin, &d);
    printf("  %s (%s, k <= %u): %u training and %u held-out inputs (%u and %u skipped), "
           "%u k-path features; built and run in %.1f s\n", name, line, k, in.data.nrows,
           tin.data.nrows, in.skipped, tin.skipped, kf.n, t_prep);
    printf("    %-24s %8s  %-27s %-9s %-27s %s\n", "feature", "train", "tree acc/prec/rec",
           "baseline", "best possible acc/prec/rec", "verdict");
    uint32_t *rows = xcalloc(in.data.nrows + tin.data.nrows + 1, sizeof *rows);
    for (uint32_t i = 0; i < in.data.nrows || i < tin.data.nrows; i++)
        rows[i] = i;
    struct strbuf targets = STRBUF_INIT;
    size_t nt = 0;
    for (uint32_t fi = 0; fi < rtrain.nfeatures; fi++) {
        const char *fname = rtrain.features[fi];
        bool *labels = explain_labels(&in, &rtrain, fname);
        bool *tl = explain_labels(&tin, &rtest, fname);
        struct explain_result res;
        explain_learn(&in, labels, rows, in.data.nrows, fname, &o, &res);
        explain_evaluate(&res, &tin, tl, rows, tin.data.nrows);
        if (res.kind == EXPLAIN_TRAINABLE) {
            struct dt_confusion best = best_possible(&tin.data, tl);
            char tree[64], bestc[64];
            snprintf(tree, sizeof tree, "%.3f %.3f %.3f", dt_accuracy(&res.test),
                     dt_precision(&res.test), dt_recall(&res.test));
            snprintf(bestc, sizeof bestc, "%.3f %.3f %.3f", dt_accuracy(&best),
                     dt_precision(&best), dt_recall(&best));
            printf("    %-24s %4u/%-4u %-27s %-9.3f %-27s %s\n", fname, res.npos,
                   res.npos + res.nneg, tree, dt_accuracy(&res.test_baseline), bestc,
                   res.explained ? "explained" : "not explained");
            if (res.explained && res.nrules) {
                strbuf_addf(&targets, " '%s'", fname);
                nt++;
            }
        } else {
            printf("    %-24s %4u/%-4u %s\n", fname, res.npos, res.npos + res.nneg,
                   res.kind == EXPLAIN_ALWAYS ? "reached by every training input"
                                              : "reached by no training input");
        }
        explain_result_free(&res);
        free(labels);
        free(tl);
    }
    free(rows);
    if (nt) {
        printf("    kpath target --run per explained feature (20 targeted inputs against 20 "
               "random ones of their size budget):\n");
        fflush(stdout);
        snprintf(cmd, sizeof cmd, "cd '%s' && sh tests/bench/real_programs.sh target %s '%s' '%s'%s",
                 root, name, dir, kpath, strbuf_str(&targets));
        if (system(cmd) != 0)
            printf("    (target failed)\n");
    }
    strbuf_free(&targets);
done:
    explain_inputs_free(&in);
    explain_inputs_free(&tin);
    kpath_features_free(&kf);
    results_free(&rtrain);
    results_free(&rtest);
    diag_list_free(&d);
    graph_free(g);
    grammar_free(gr);
out:
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("  (could not remove %s)\n", dir);
}

void bench_explain(const char *root)
{
    printf("\nexplain and target (no subject: %d features, each a formula over two k-paths of "
           "random inputs; gini, depth 5, balanced, seed 1)\n", NFEATURES);
    bench_subject_free(root, "grammars/expr.ebnf");
    bench_subject_free(root, "grammars/json.ebnf");
    printf("\nexplain and target on real programs (built at bench time; held-out inputs)\n");
    bench_real_program(root, "tinyexpr", "KPATH_TINYEXPR", 3);
    bench_real_program(root, "inih", "KPATH_INIH", 3);
}
