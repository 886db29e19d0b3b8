/* The size budget holds for every strategy (issue 33, item 4): with
 * --max-size N no input's tree has more than N nodes, where the depth limit
 * does not force more (arith's smallest input, "0", needs 6 nodes and depth
 * 4, far below both limits here).  Until this test, `--strategy prob` with a
 * table from `learn --invert` went past it: inverting what 1*(2+3) uses gives
 * weight 0 to Int's non-recursive alternative (Digit), and once the budget
 * was spent prob took the smallest *positive* alternative, Digit Int, again
 * and again, until the depth limit stopped it. */
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "gen/gen.h"
#include "gen/learn.h"
#include "harness.h"
#include "parse/parse.h"

/* The largest tree of `count` inputs made with strategy s and budget max_size. */
static size_t largest_tree(const struct graph *g, enum gen_strategy s, enum gen_closeoff c,
                           uint32_t max_size, const double *probs)
{
    struct gen_options o;
    gen_options_default(&o);
    o.strategy = s;
    o.closeoff = c;
    o.k = 2;
    o.max_size = max_size;
    o.count = s == GEN_KPATH ? 0 : 40;
    o.probabilities = probs;
    char *error = NULL;
    struct generator *gen = gen_new(g, &o, &error);
    if (!CHECK(gen != NULL)) {
        free(error);
        return SIZE_MAX;
    }
    gen_run(gen);
    CHECK(gen->error == NULL);
    size_t largest = 0;
    CHECK(gen->ninputs > 0);
    for (size_t i = 0; i < gen->ninputs; i++) {
        struct derivation t;
        gen_input_tree(gen, i, &t);
        if (t.len > largest)
            largest = t.len;
        derivation_free(&t);
    }
    gen_free(gen);
    return largest;
}

/* The table `learn --invert` makes from one sample. */
static double *inverted_from(const struct graph *g, const char *sample)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    struct forest *f = parse_text(g, "s", sample, strlen(sample), &po, &diags);
    diag_list_free(&diags);
    CHECK(f != NULL);
    struct learned l;
    learn_init(&l, g);
    struct derivation t;
    CHECK(forest_first_tree(f, &t));
    learn_add_tree(&l, &t, false);
    derivation_free(&t);
    forest_free(f);
    size_t n = probability_table_size(g);
    double *p = calloc(n, sizeof *p), *inv = calloc(n, sizeof *inv);
    learn_probabilities(&l, p);
    probabilities_invert(g, p, inv);
    free(p);
    learn_free(&l);
    return inv;
}

TEST(gen_budget_prob_inverted)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/arith.ebnf", &l)))
        return;
    double *inv = inverted_from(l.graph, "1*(2+3)");
    CHECK(largest_tree(l.graph, GEN_PROB, GEN_CLOSE_SHORTEST, 20, inv) <= 20);
    CHECK(largest_tree(l.graph, GEN_PROB, GEN_CLOSE_SHORTEST, 60, inv) <= 60);
    /* The grammar's own weights too. */
    CHECK(largest_tree(l.graph, GEN_PROB, GEN_CLOSE_SHORTEST, 20, NULL) <= 20);
    free(inv);
    test_unload(&l);
}

TEST(gen_budget_random_coverage_kpath)
{
    const char *grammars[] = {"grammars/arith.ebnf", "grammars/expr.ebnf"};
    for (size_t i = 0; i < 2; i++) {
        struct loaded l;
        if (!CHECK(test_load_file(grammars[i], &l)))
            continue;
        CHECK(largest_tree(l.graph, GEN_RANDOM, GEN_CLOSE_SHORTEST, 20, NULL) <= 20);
        CHECK(largest_tree(l.graph, GEN_COVERAGE, GEN_CLOSE_SHORTEST, 20, NULL) <= 20);
        CHECK(largest_tree(l.graph, GEN_KPATH, GEN_CLOSE_RANDOM, 40, NULL) <= 40);
        CHECK(largest_tree(l.graph, GEN_KPATH, GEN_CLOSE_GREEDY, 40, NULL) <= 40);
        CHECK(largest_tree(l.graph, GEN_KPATH, GEN_CLOSE_SHORTEST, 40, NULL) <= 40);
        test_unload(&l);
    }
}
