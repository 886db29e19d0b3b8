/* Learning and inverting probabilities: the worked example of the samples
 * issue (arith.ebnf and the sample 1*(2+3)), the file round trip, and
 * generation from inverted probabilities. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support/load.h"
#include "gen/gen.h"
#include "harness.h"
#include "gen/learn.h"
#include "parse/parse.h"

static bool near(double a, double b)
{
    return fabs(a - b) < 0.0005;
}

/* The probabilities of the alternatives of rule `name`'s alternation. */
static const double *rule_probs(const struct graph *g, const double *probs, const char *name)
{
    uint32_t node = g->rule_node[grammar_find_rule(g->grammar, name)];
    return probs + g->nodes[node].first_child;
}

static bool learn_sample(const struct graph *g, const char *text, struct learned *l)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct forest *f = parse_text(g, "sample", text, strlen(text), NULL, &d);
    diag_list_free(&d);
    if (!f)
        return false;
    struct derivation t;
    bool ok = forest_first_tree(f, &t);
    bool infinite;
    learn_add_tree(l, &t, forest_count_trees(f, &infinite) > 1);
    derivation_free(&t);
    forest_free(f);
    return ok;
}

TEST(learn_arith_from_one_sample)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/arith.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    struct learned lr;
    learn_init(&lr, g);
    CHECK(learn_sample(g, "1*(2+3)", &lr));
    double *p = malloc(probability_table_size(g) * sizeof *p);
    learn_probabilities(&lr, p);
    /* Expr is reached 3 times (the whole input, 2+3, and 2): Term twice,
     * Expr "+" Term once. */
    const double *e = rule_probs(g, p, "Expr");
    CHECK(near(e[0], 2.0 / 3) && near(e[1], 1.0 / 3) && near(e[2], 0));
    /* Term 4 times (1*(2+3), 1, 2, 3): Factor 3, Term "*" Factor 1. */
    const double *t = rule_probs(g, p, "Term");
    CHECK(near(t[0], 0.75) && near(t[1], 0.25) && near(t[2], 0));
    /* Factor 4 times (1, (2+3), 2, 3): Int 3, "(" Expr ")" 1. */
    const double *f = rule_probs(g, p, "Factor");
    CHECK(near(f[0], 0.75) && near(f[1], 0) && near(f[2], 0) && near(f[3], 0.25));
    /* Int 3 times, always a single Digit (alternative 2). */
    const double *i = rule_probs(g, p, "Int");
    CHECK(near(i[0], 0) && near(i[1], 1));
    const double *d = rule_probs(g, p, "Digit");
    for (int k = 0; k < 10; k++)
        CHECK(near(d[k], k >= 1 && k <= 3 ? 1.0 / 3 : 0));

    /* Inverted: unseen alternatives share everything, seen ones get 0. */
    probabilities_invert(g, p, p);
    e = rule_probs(g, p, "Expr");
    CHECK(near(e[0], 0) && near(e[1], 0) && near(e[2], 1));
    t = rule_probs(g, p, "Term");
    CHECK(near(t[0], 0) && near(t[1], 0) && near(t[2], 1));
    f = rule_probs(g, p, "Factor");
    CHECK(near(f[0], 0) && near(f[1], 0.5) && near(f[2], 0.5) && near(f[3], 0));
    i = rule_probs(g, p, "Int");
    CHECK(near(i[0], 1) && near(i[1], 0));
    d = rule_probs(g, p, "Digit");
    for (int k = 0; k < 10; k++)
        CHECK(near(d[k], k >= 1 && k <= 3 ? 0 : 1.0 / 7));
    free(p);
    learn_free(&lr);
    test_unload(&l);
}

TEST(learn_inversion_of_seen_alternatives_uses_reciprocals)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := A | B | C;\nA := \"a\";\nB := \"b\";\nC := \"c\";\n", &l)))
        return;
    double *p = malloc(probability_table_size(l.graph) * sizeof *p);
    probabilities_from_grammar(l.graph, p);
    double *s = p + l.graph->nodes[0].first_child;
    s[0] = 0.5, s[1] = 0.25, s[2] = 0.25; /* weights 2, 4, 4 -> 0.2, 0.4, 0.4 */
    probabilities_invert(l.graph, p, p);
    CHECK(near(s[0], 0.2) && near(s[1], 0.4) && near(s[2], 0.4));
    s[0] = s[1] = s[2] = 1.0 / 3; /* uniform stays uniform */
    probabilities_invert(l.graph, p, p);
    CHECK(near(s[0], 1.0 / 3) && near(s[1], 1.0 / 3) && near(s[2], 1.0 / 3));
    free(p);
    test_unload(&l);
}

static char *write_temp(const char *text)
{
    char *path = strdup("/tmp/kpath-learn-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    size_t len = strlen(text);
    CHECK_INT(write(fd, text, len), (long long)len);
    close(fd);
    return path;
}

TEST(learn_written_file_loads_back_to_the_same_probabilities)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    struct learned lr;
    learn_init(&lr, g);
    CHECK(learn_sample(g, "{\"a\": [1, 2.5, \"xy\\n\"], \"b\": true}", &lr));
    CHECK(learn_sample(g, "[[], {}, null, -0]", &lr));
    size_t n = probability_table_size(g);
    double *learned = malloc(n * sizeof *learned), *back = malloc(n * sizeof *back);
    learn_probabilities(&lr, learned);
    for (int inverted = 0; inverted < 2; inverted++) {
        if (inverted)
            probabilities_invert(g, learned, learned);
        struct strbuf text = STRBUF_INIT;
        probabilities_write(g, learned, &lr, inverted, &text);
        char *path = write_temp(strbuf_str(&text));
        struct diag_list d = DIAG_LIST_INIT;
        CHECK(probabilities_read_file(g, path, back, &d));
        CHECK_INT(d.errors, 0);
        bool same = true;
        for (size_t i = 0; i < n; i++)
            if (fabs(learned[i] - back[i]) > 0.0005 * (fabs(learned[i]) > 1e-9 ? fabs(learned[i]) : 1))
                same = false;
        CHECK(same);
        /* The file is a grammar with the same graph. */
        struct loaded again;
        if (CHECK(test_load_file_absolute(path, &again))) {
            CHECK_INT(again.graph->nnodes, g->nnodes);
            test_unload(&again);
        }
        diag_list_free(&d);
        unlink(path);
        free(path);
        strbuf_free(&text);
    }
    /* ws* was learned: a quantifier's probability of one more repetition. */
    uint32_t ws = g->rule_node[grammar_find_rule(g->grammar, "ws")];
    CHECK_INT(g->nodes[ws].kind, NODE_QUANT);
    free(learned);
    free(back);
    learn_free(&lr);
    test_unload(&l);
}

TEST(learn_probability_files_must_match_the_grammar)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/arith.ebnf", &l)))
        return;
    char *path = write_temp("Expr := Term | Expr \"+\" Term;\nTerm := \"1\";\n");
    double *p = malloc(probability_table_size(l.graph) * sizeof *p);
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(!probabilities_read_file(l.graph, path, p, &d));
    CHECK(d.errors >= 2); /* Expr differs, Factor, Int, Digit missing... */
    bool differs = false;
    for (size_t i = 0; i < d.len; i++)
        differs = differs || strstr(d.items[i].message, "rule 'Expr' differs") != NULL;
    CHECK(differs);
    diag_list_free(&d);
    unlink(path);
    free(path);
    free(p);
    test_unload(&l);
}

TEST(learn_inverted_arith_generates_unlike_the_sample)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/arith.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    struct learned lr;
    learn_init(&lr, g);
    CHECK(learn_sample(g, "1*(2+3)", &lr));
    double *p = malloc(probability_table_size(g) * sizeof *p);
    learn_probabilities(&lr, p);
    probabilities_invert(g, p, p);
    struct gen_options o;
    gen_options_default(&o);
    o.strategy = GEN_PROB;
    o.count = 50;
    o.max_depth = 12;
    o.probabilities = p;
    char *error;
    struct generator *gen = gen_new(g, &o, &error);
    gen_run(gen);
    bool minus = false, slash = false;
    for (size_t i = 0; i < gen->ninputs; i++) {
        const char *s = gen->inputs[i].text;
        /* Only "-", "/", unary operators and the digits 0, 4 to 9. */
        CHECK(strpbrk(s, "*()123") == NULL);
        for (const char *c = s; *c; c++)
            if (*c == '+' && c > s && c[-1] >= '0' && c[-1] <= '9')
                CHECK(!"a binary + after a digit");
        minus = minus || strchr(s, '-');
        slash = slash || strchr(s, '/');
    }
    CHECK(minus && slash);
    gen_free(gen);
    free(p);
    learn_free(&lr);
    test_unload(&l);
}

/* Learning is counting: samples learned in two parts and merged give the
 * same counts, hence the same table, as all of them learned at once
 * (kpath learn -j). */
TEST(learn_merge_of_parts_is_learning_all)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/arith.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    static const char *const samples[] = {"1*(2+3)", "4", "(5)-6/7", "8+9+10*11"};
    struct learned all, part1, part2;
    learn_init(&all, g);
    learn_init(&part1, g);
    learn_init(&part2, g);
    for (size_t i = 0; i < 4; i++) {
        CHECK(learn_sample(g, samples[i], &all));
        CHECK(learn_sample(g, samples[i], i % 2 ? &part2 : &part1));
    }
    learn_merge(&part1, &part2);
    size_t edges = probability_table_size(g);
    CHECK_INT(part1.samples, 4);
    CHECK_INT(part1.samples, all.samples);
    CHECK_INT(part1.ambiguous, all.ambiguous);
    CHECK(memcmp(part1.edge_count, all.edge_count, edges * sizeof *all.edge_count) == 0);
    CHECK(memcmp(part1.node_count, all.node_count, (g->nnodes + 1) * sizeof *all.node_count) == 0);
    /* not trivially equal: each part alone differs from the whole */
    CHECK(memcmp(part2.edge_count, all.edge_count, edges * sizeof *all.edge_count) != 0);
    learn_free(&all);
    learn_free(&part1);
    learn_free(&part2);
    test_unload(&l);
}
