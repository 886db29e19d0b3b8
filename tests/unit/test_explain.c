/* explain: the k-path features of a results file's inputs (numbered by
 * length, then ids), the labels, the held-out split, and rules rendered in
 * the grammar's words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support/load.h"
#include "explain/explain.h"
#include "harness.h"
#include "base/xalloc.h"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

TEST(explain_features_are_the_kpaths_of_the_inputs_by_length_then_ids)
{
    struct loaded l;
    if (!test_load_file("grammars/expr.ebnf", &l))
        return;
    char dir[] = "/tmp/kpath-explain-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/x.txt", dir);
    write_text(path, "x");
    snprintf(path, sizeof path, "%s/y.txt", dir);
    write_text(path, "y");
    snprintf(path, sizeof path, "%s/bad.txt", dir);
    write_text(path, "x+");
    /* Inputs named relative to the results file, one of them unparsable. */
    snprintf(path, sizeof path, "%s/r.jsonl", dir);
    write_text(path, "{\"kpath_results\":1}\n"
                     "{\"input\":\"x.txt\",\"outcome\":\"exit:0\",\"features\":[\"exit:0\",\"fn:x\"]}\n"
                     "{\"input\":\"bad.txt\",\"outcome\":\"exit:1\",\"features\":[\"exit:1\"]}\n"
                     "{\"input\":\"y.txt\",\"outcome\":\"exit:0\",\"features\":[\"exit:0\"]}\n");
    struct results r;
    results_init(&r);
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK(results_load(path, &r, &diags));
    struct explain_options o;
    explain_options_default(&o);
    o.k = 2;
    struct kpath_features kf;
    struct explain_inputs in;
    explain_inputs_train(l.graph, &r, path, &o, &kf, &in, &diags);
    CHECK_INT(in.skipped, 1);
    CHECK_INT(diags.len, 1); /* bad.txt: a warning, not an error */
    CHECK(diags.len && diags.items[0].severity == DIAG_WARNING);
    CHECK_INT(in.data.nrows, 2);
    CHECK_INT(in.record[0], 0);
    CHECK_INT(in.record[1], 2);
    /* "x": AddExpr_0 MultExpr_2 UnaryExpr_8 Identifier_16 "x"_39, a chain:
     * five 1-paths and four 2-paths; "y" shares all but its last node, so
     * together six 1-paths and five 2-paths. */
    CHECK_INT(kf.n, 11);
    static const uint32_t one[6] = {0, 2, 8, 16, 39, 40};
    for (uint32_t f = 0; f < 6 && f < kf.n; f++) {
        CHECK_INT(kf.len[f], 1);
        CHECK_INT(kpath_feature_path(&kf, f)[0], one[f]);
    }
    for (uint32_t f = 6; f < kf.n; f++)
        CHECK_INT(kf.len[f], 2);
    /* 2-paths in lexicographic order: 0 2, 2 8, 8 16, 16 39, 16 40. */
    CHECK(kf.n == 11 && kpath_feature_path(&kf, 9)[1] == 39 && kpath_feature_path(&kf, 10)[1] == 40);
    CHECK_INT(in.row_start[1] - in.row_start[0], 9);
    CHECK(dt_row_has(&in.data, 0, 4) && !dt_row_has(&in.data, 0, 5));  /* "x"_39, not "y"_40 */
    CHECK(dt_row_has(&in.data, 1, 5) && !dt_row_has(&in.data, 1, 9));

    bool *labels = explain_labels(&in, &r, "fn:x");
    CHECK(labels[0] && !labels[1]);
    free(labels);
    labels = explain_labels(&in, &r, "exit:1"); /* only the skipped input has it */
    CHECK(!labels[0] && !labels[1]);
    uint32_t rows[2] = {0, 1};
    struct explain_result res;
    explain_learn(&in, labels, rows, 2, "exit:1", &o, &res);
    CHECK(res.kind == EXPLAIN_NEVER);
    explain_result_free(&res);
    free(labels);

    /* Rendering: present and absent k-paths as patterns, and a rule without
     * a condition. */
    struct dt_condition conds[2] = {{4, true}, {10, false}};
    struct dt_rule rule = {conds, 2, 0};
    struct strbuf out = STRBUF_INIT;
    explain_render_rule(&kf, &rule, &out);
    /* Identifier_16 -> "y"_40: UnaryExpr's alternative holding Identifier_16
     * is that reference alone, replaced by Identifier's alternative "y". */
    CHECK_STR(strbuf_str(&out), "contains  x  and  lacks  y");
    strbuf_reset(&out);
    explain_render_path(&kf, 10, &out);
    CHECK_STR(strbuf_str(&out), "Identifier_16 -> \"y\"_40");
    strbuf_reset(&out);
    struct dt_rule empty = {NULL, 0, 0};
    explain_render_rule(&kf, &empty, &out);
    CHECK_STR(strbuf_str(&out), "always");
    strbuf_free(&out);

    /* The same read in steps, one record each (the explorer's job): the
     * same rows and features; and a reader given up halfway leaks nothing. */
    struct kpath_features kf2;
    struct explain_inputs in2;
    struct diag_list d2 = DIAG_LIST_INIT;
    struct explain_reader *rd = explain_train_begin(l.graph, &r, path, &o, &kf2, &in2);
    size_t steps = 1, done = 0, total = 0;
    while (explain_reader_step(rd, 1, &d2))
        steps++;
    explain_reader_progress(rd, &done, &total);
    CHECK_INT(steps, 3);
    CHECK_INT(done, 3);
    CHECK_INT(total, 3);
    explain_train_finish(rd);
    CHECK_INT(in2.data.nrows, 2);
    CHECK_INT(in2.skipped, 1);
    CHECK_INT(d2.len, 1);
    CHECK_INT(kf2.n, kf.n);
    CHECK(in2.row_start[2] == in.row_start[2] &&
          memcmp(in2.cols, in.cols, in.row_start[2] * sizeof *in.cols) == 0);
    explain_inputs_free(&in2);
    kpath_features_free(&kf2);
    rd = explain_train_begin(l.graph, &r, path, &o, &kf2, &in2);
    CHECK(explain_reader_step(rd, 1, &d2));
    explain_reader_abort(rd);
    explain_inputs_free(&in2);
    kpath_features_free(&kf2);
    diag_list_free(&d2);

    explain_inputs_free(&in);
    kpath_features_free(&kf);
    results_free(&r);
    diag_list_free(&diags);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT(system(cmd), 0);
    test_unload(&l);
}

TEST(explain_split_holds_out_the_given_share_disjointly)
{
    uint32_t *train, *test, ntrain, ntest;
    explain_split(10, 0.25, 7, &train, &ntrain, &test, &ntest);
    CHECK_INT(ntest, 3); /* round(2.5) */
    CHECK_INT(ntrain, 7);
    bool seen[10] = {0};
    for (uint32_t i = 0; i < ntest; i++)
        seen[test[i]] = true;
    for (uint32_t i = 0; i < ntrain; i++) {
        CHECK(!seen[train[i]]);
        seen[train[i]] = true;
        if (i)
            CHECK(train[i - 1] < train[i]);
    }
    for (int i = 0; i < 10; i++)
        CHECK(seen[i]);
    free(train);
    free(test);
}

/* A rule is weak below either threshold (QA finding: a rule of precision 0.03
 * resting on one input was shown and targeted like any other); the text
 * names the failing measures with their options.  Values by hand. */
TEST(explain_weak_rules_say_why)
{
    struct explain_options o;
    explain_options_default(&o);
    CHECK_INT(o.min_reaching, 3);
    CHECK_INT(o.min_precision_pct, 50);
    struct explain_rule one = {.support = 5, .hits = 1};   /* 0.20, 1 reaching */
    struct explain_rule two = {.support = 4, .hits = 2};   /* 0.50: not below */
    struct explain_rule low = {.support = 10, .hits = 4};  /* 0.40, 4 reaching */
    struct explain_rule good = {.support = 3, .hits = 3};
    struct explain_rule none = {.support = 0, .hits = 0};
    CHECK(explain_rule_weak(&one, &o));
    CHECK(explain_rule_weak(&two, &o));
    CHECK(explain_rule_weak(&low, &o));
    CHECK(!explain_rule_weak(&good, &o));
    CHECK(explain_rule_weak(&none, &o));
    struct strbuf t = STRBUF_INIT;
    explain_render_weakness(&one, "exit:3", &o, &t);
    CHECK_STR(strbuf_str(&t), "only 1 input reaching exit:3 matches it (fewer than "
                              "--min-reaching 3); precision 0.20 (below --min-precision 0.50)");
    strbuf_reset(&t);
    explain_render_weakness(&two, "fn:add", &o, &t);
    CHECK_STR(strbuf_str(&t), "only 2 inputs reaching fn:add match it (fewer than "
                              "--min-reaching 3)");
    strbuf_reset(&t);
    explain_render_weakness(&low, "fn:add", &o, &t);
    CHECK_STR(strbuf_str(&t), "precision 0.40 (below --min-precision 0.50)");
    strbuf_reset(&t);
    explain_render_weakness(&good, "fn:add", &o, &t);
    CHECK_STR(strbuf_str(&t), "");
    strbuf_reset(&t);
    explain_render_support(&one, &o, &t);
    CHECK_STR(strbuf_str(&t), "(5 inputs, precision 0.20, weak)");
    strbuf_reset(&t);
    explain_render_support(&good, &o, &t);
    CHECK_STR(strbuf_str(&t), "(3 inputs, precision 1.00)");
    strbuf_reset(&t);
    explain_render_support(&none, &o, &t);
    CHECK_STR(strbuf_str(&t), "(0 inputs, precision -, weak)");
    /* the thresholds are the options': 0.40 is not below 0.40, 4 not below 4 */
    o.min_precision_pct = 40;
    o.min_reaching = 4;
    CHECK(!explain_rule_weak(&low, &o));
    o.min_precision_pct = 41;
    CHECK(explain_rule_weak(&low, &o));
    strbuf_reset(&t);
    explain_render_weakness(&low, "f", &o, &t);
    CHECK_STR(strbuf_str(&t), "precision 0.40 (below --min-precision 0.41)");
    strbuf_free(&t);
}
