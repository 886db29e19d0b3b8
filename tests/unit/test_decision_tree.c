/* decision_tree: a tree learned where the answer is known, the balanced
 * sample, and the metrics on a hand-computed confusion matrix. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo/decision_tree.h"
#include "harness.h"
#include "base/xalloc.h"

/* Rows: every combination of 4 binary features, twice (32 rows); row r has
 * feature f when bit f of (r % 16) is set. */
struct table {
    uint32_t row_start[33], cols[32 * 4];
    struct dt_data d;
    bool labels[32];
};

static void make_table(struct table *t, bool (*label)(unsigned bits))
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < 32; r++) {
        t->row_start[r] = n;
        for (uint32_t f = 0; f < 4; f++)
            if ((r % 16) >> f & 1)
                t->cols[n++] = f;
        t->labels[r] = label(r % 16);
    }
    t->row_start[32] = n;
    t->d = (struct dt_data){32, 4, t->row_start, t->cols};
}

static bool f1_and_f2(unsigned bits) { return (bits >> 1 & 1) && (bits >> 2 & 1); }

TEST(decision_tree_learns_a_conjunction_of_two_features)
{
    struct table t;
    make_table(&t, f1_and_f2);
    uint32_t rows[32];
    for (uint32_t i = 0; i < 32; i++)
        rows[i] = i;
    struct dt_params p = {DT_GINI, DT_DEFAULT_MAX_DEPTH, 2};
    for (int crit = 0; crit < 2; crit++) {
        p.criterion = crit ? DT_ENTROPY : DT_GINI;
        struct decision_tree tree;
        decision_tree_learn(&tree, &t.d, t.labels, rows, 32, &p);
        /* f1 and f2 gain the same at the root (Gini: 0.375 -> 0.25 either
         * way); the tie goes to the lower index, f1; then f2 splits the
         * present side.  Three leaves, five nodes, nothing else tested. */
        CHECK_INT(tree.nnodes, 5);
        CHECK_INT(tree.nodes[0].feature, 1);
        CHECK_INT(tree.nodes[0].npos, 8);
        CHECK_INT(tree.nodes[0].nneg, 24);
        struct dt_rule *rules;
        size_t n = decision_tree_rules(&tree, &rules);
        CHECK_INT(n, 1);
        if (n == 1) {
            CHECK_INT(rules[0].nconds, 2);
            CHECK_INT(rules[0].conds[0].feature, 1);
            CHECK(rules[0].conds[0].present);
            CHECK_INT(rules[0].conds[1].feature, 2);
            CHECK(rules[0].conds[1].present);
            CHECK_INT(tree.nodes[rules[0].leaf].npos, 8);
            CHECK_INT(tree.nodes[rules[0].leaf].nneg, 0);
        }
        for (uint32_t r = 0; r < 32; r++) {
            CHECK(decision_tree_predict(&tree, &t.d, r) == t.labels[r]);
            CHECK(n == 1 && dt_rule_matches(&rules[0], &t.d, r) == t.labels[r]);
        }
        dt_rules_free(rules, n);
        decision_tree_free(&tree);
    }
}

static bool f3_absent_and_f0(unsigned bits) { return !(bits >> 3 & 1) && (bits & 1); }

TEST(decision_tree_rules_carry_absent_features_and_depth_limits_trees)
{
    struct table t;
    make_table(&t, f3_absent_and_f0);
    uint32_t rows[32];
    for (uint32_t i = 0; i < 32; i++)
        rows[i] = i;
    struct dt_params p = {DT_GINI, 5, 2};
    struct decision_tree tree;
    decision_tree_learn(&tree, &t.d, t.labels, rows, 32, &p);
    struct dt_rule *rules;
    size_t n = decision_tree_rules(&tree, &rules);
    CHECK_INT(n, 1);
    if (n == 1) {
        CHECK_INT(rules[0].nconds, 2);
        bool f0_present = false, f3_absent = false;
        for (uint32_t i = 0; i < rules[0].nconds; i++) {
            f0_present |= rules[0].conds[i].feature == 0 && rules[0].conds[i].present;
            f3_absent |= rules[0].conds[i].feature == 3 && !rules[0].conds[i].present;
        }
        CHECK(f0_present && f3_absent);
    }
    dt_rules_free(rules, n);
    decision_tree_free(&tree);
    /* Depth 1: one test, two leaves. */
    p.max_depth = 1;
    decision_tree_learn(&tree, &t.d, t.labels, rows, 32, &p);
    CHECK_INT(tree.nnodes, 3);
    decision_tree_free(&tree);
    /* Depth 0: the root is a leaf (8 of 32 reach it: predicts not reached). */
    p.max_depth = 0;
    decision_tree_learn(&tree, &t.d, t.labels, rows, 32, &p);
    CHECK_INT(tree.nnodes, 1);
    CHECK(!decision_tree_predict(&tree, &t.d, 1));
    CHECK_INT(decision_tree_rules(&tree, &rules), 0);
    free(rules);
    decision_tree_free(&tree);
}

TEST(decision_tree_balanced_sample_keeps_the_small_class_and_draws_the_large)
{
    bool labels[20] = {0};
    uint32_t rows[20];
    for (uint32_t i = 0; i < 20; i++)
        rows[i] = i;
    labels[3] = labels[11] = labels[17] = true; /* 3 reached, 17 not */
    struct rng rng;
    rng_seed(&rng, 1);
    uint32_t n;
    uint32_t *s = dt_balanced_sample(labels, rows, 20, &rng, &n);
    CHECK_INT(n, 6);
    uint32_t pos = 0;
    for (uint32_t i = 0; i < n; i++) {
        pos += labels[s[i]];
        if (i)
            CHECK(s[i - 1] < s[i]); /* increasing, each row once */
    }
    CHECK_INT(pos, 3);
    /* The same seed draws the same sample; over many seeds every negative
     * row is drawn sometimes (uniform without replacement). */
    struct rng again;
    rng_seed(&again, 1);
    uint32_t n2;
    uint32_t *s2 = dt_balanced_sample(labels, rows, 20, &again, &n2);
    CHECK(n2 == n && memcmp(s, s2, n * sizeof *s) == 0);
    free(s);
    free(s2);
    unsigned drawn[20] = {0};
    for (uint64_t seed = 0; seed < 400; seed++) {
        rng_seed(&rng, seed);
        s = dt_balanced_sample(labels, rows, 20, &rng, &n);
        for (uint32_t i = 0; i < n; i++)
            drawn[s[i]]++;
        free(s);
    }
    for (uint32_t i = 0; i < 20; i++) {
        if (labels[i])
            CHECK_INT(drawn[i], 400);
        else
            CHECK(drawn[i] > 30 && drawn[i] < 120); /* expected 400 * 3/17 = 70.6 */
    }
    /* A sub-set of rows: positions refer to rows[], labels to row ids. */
    uint32_t some[4] = {3, 4, 5, 6};
    s = dt_balanced_sample(labels, some, 4, &rng, &n);
    CHECK_INT(n, 2);
    CHECK_INT(s[0] == 3 || s[1] == 3, 1);
    free(s);
}

TEST(decision_tree_metrics_on_a_hand_computed_confusion_matrix)
{
    struct dt_confusion c = {.tp = 3, .fp = 1, .tn = 5, .fn = 2};
    CHECK(fabs(dt_accuracy(&c) - 8.0 / 11.0) < 1e-12);
    CHECK(fabs(dt_precision(&c) - 0.75) < 1e-12);
    CHECK(fabs(dt_recall(&c) - 0.6) < 1e-12);
    struct dt_confusion none = {.tn = 4};
    CHECK(isnan(dt_precision(&none))); /* no positive prediction */
    CHECK(isnan(dt_recall(&none)));    /* no positive row */
    CHECK(fabs(dt_accuracy(&none) - 1.0) < 1e-12);
    struct dt_confusion empty = {0};
    CHECK(isnan(dt_accuracy(&empty)));
    double v[] = {0.5, NAN, 0.9, 0.7};
    CHECK(fabs(dt_median(v, 4) - 0.7) < 1e-12);
    double w[] = {1.0, 0.2, 0.4, 0.8};
    CHECK(fabs(dt_median(w, 4) - 0.6) < 1e-12);
    double x[] = {NAN};
    CHECK(isnan(dt_median(x, 1)));
}

/* Issue 32, item 1: two features split a class-balanced sample equally, but
 * every training row says one of them is the rule.  Rows 0-3 reach the
 * behaviour and have f0 and f1; rows 4-7 do not and have f0 (the broad
 * feature: "a binary + or -"); rows 8-11 have neither.  The sample is rows
 * 0-3 and 8-11, where f0 and f1 both separate perfectly (Gini 0.5 -> 0).
 * On all 12 rows f0's better side has precision 4/8 = 0.5 and f1's 4/4 = 1:
 * f1 must be chosen though its index is higher.  f2 is f1's twin (same
 * rows, same precision): then the caller's rank decides, not the index. */
TEST(decision_tree_ties_go_to_the_precision_on_every_training_row_then_the_rank)
{
    uint32_t row_start[13], cols[32], n = 0;
    bool labels[12];
    for (uint32_t r = 0; r < 12; r++) {
        row_start[r] = n;
        if (r < 8)
            cols[n++] = 0;
        if (r < 4) {
            cols[n++] = 1;
            cols[n++] = 2;
        }
        labels[r] = r < 4;
    }
    row_start[12] = n;
    struct dt_data d = {12, 3, row_start, cols};
    uint32_t sample[8] = {0, 1, 2, 3, 8, 9, 10, 11}, all[12];
    for (uint32_t i = 0; i < 12; i++)
        all[i] = i;
    struct dt_params p = {DT_GINI, DT_DEFAULT_MAX_DEPTH, 2};
    struct decision_tree tree;
    struct dt_tiebreak tb = {all, 12, NULL};
    decision_tree_learn_tb(&tree, &d, labels, sample, 8, &p, &tb);
    CHECK_INT(tree.nnodes, 3);
    CHECK_INT(tree.nodes[0].feature, 1); /* f1 ties f2 on everything: index */
    decision_tree_free(&tree);
    uint32_t rank[3] = {0, 2, 1}; /* the caller prefers f2 to f1 */
    tb.rank = rank;
    decision_tree_learn_tb(&tree, &d, labels, sample, 8, &p, &tb);
    CHECK_INT(tree.nodes[0].feature, 2);
    decision_tree_free(&tree);
    /* The rank never beats the data: even ranked first, f0 loses. */
    uint32_t rank0[3] = {0, 1, 1};
    tb.rank = rank0;
    decision_tree_learn_tb(&tree, &d, labels, sample, 8, &p, &tb);
    CHECK(tree.nodes[0].feature == 1 || tree.nodes[0].feature == 2);
    decision_tree_free(&tree);
    /* A tree cut at depth 0 predicts from the root's rows (4 of 8: not
     * reached); at depth 1 it is the split. */
    decision_tree_learn_tb(&tree, &d, labels, sample, 8, &p, &tb);
    CHECK(!decision_tree_predict_depth(&tree, &d, 0, 0));
    CHECK(decision_tree_predict_depth(&tree, &d, 0, 1));
    CHECK(!decision_tree_predict_depth(&tree, &d, 5, 1));
    decision_tree_free(&tree);
}
