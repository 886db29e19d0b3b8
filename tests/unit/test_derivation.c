/* Derivation trees: the x+42 example of the core issue, decisions, text,
 * depth, k-paths and a very deep tree. */
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "graph/derivation.h"
#include "harness.h"

/* Pre-order decisions for x+42 in expr.ebnf, worked out from the graph:
 * AddExpr's alt (1) takes the cat (alternative 1); inner AddExpr's alt takes
 * MultExpr (0); MultExpr's alt (4) UnaryExpr (0); UnaryExpr's alt (12)
 * Identifier (0); Identifier's alt (26) "x" (0); the operator alt (6) "+"
 * (0); MultExpr (0); UnaryExpr takes DecDigits (6); DecDigit+ repeats twice;
 * DecDigit's alt (43) "4" (4) then "2" (2). */
static const uint32_t x_plus_42[] = {1, 0, 0, 0, 0, 0, 0, 6, 2, 4, 2};

static bool build_x_plus_42(const struct graph *g, struct derivation *t)
{
    derivation_init(t, g, 0);
    long used = derivation_replay(t, x_plus_42, 11, NULL);
    return used == 11 && derivation_complete(t);
}

TEST(derivation_x_plus_42_text_and_depth)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct derivation t;
    CHECK(build_x_plus_42(l.graph, &t));
    struct strbuf text = STRBUF_INIT;
    derivation_text(&t, &text);
    CHECK_STR(strbuf_str(&text), "x+42");
    /* AddExpr_0 AddExpr_5 MultExpr_2 UnaryExpr_8 Identifier_16: 5 references. */
    CHECK_INT(derivation_depth(&t), 5);
    strbuf_free(&text);
    derivation_free(&t);
    test_unload(&l);
}

static bool append_path(const uint32_t *path, void *ctx)
{
    struct strbuf *out = ctx;
    strbuf_addf(out, "%u>%u ", path[0], path[1]);
    return true;
}

TEST(derivation_decisions_are_what_replay_takes)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct derivation t;
    CHECK(build_x_plus_42(l.graph, &t));
    size_t n;
    uint32_t *d = derivation_decisions(&t, &n);
    CHECK_INT(n, 11);
    CHECK(n == 11 && memcmp(d, x_plus_42, sizeof x_plus_42) == 0);
    /* The alt at instance 1 (AddExpr's |_1) took its second alternative. */
    CHECK_INT(derivation_decision(&t, 1), 1);
    free(d);
    derivation_free(&t);
    test_unload(&l);
}

TEST(derivation_x_plus_42_covers_exactly_the_twelve_2_paths)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct derivation t;
    CHECK(build_x_plus_42(l.graph, &t));
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 2);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    CHECK_INT(derivation_add_kpaths(&t, &set), 12);
    /* The twelve of the core issue, in lexicographic order of ids:
     * AddExpr_0->AddExpr_5, AddExpr_0->MultExpr_7, AddExpr_0->"+"_10,
     * MultExpr_2->UnaryExpr_8, MultExpr_7->UnaryExpr_8,
     * UnaryExpr_8->Identifier_16, UnaryExpr_8->DecDigits_22,
     * Identifier_16->"x"_39, DecDigits_22->DecDigit_42,
     * DecDigit_42->"2"_46, DecDigit_42->"4"_48, AddExpr_5->MultExpr_2. */
    struct strbuf got = STRBUF_INIT;
    kpath_set_foreach(&set, append_path, &got);
    CHECK_STR(strbuf_str(&got), "0>5 0>7 0>10 2>8 5>2 7>8 8>16 8>22 16>39 22>42 42>46 42>48 ");
    CHECK_INT(set.size, 12);
    strbuf_free(&got);
    /* 12 / 125 = 9.6% */
    CHECK(kpath_set_coverage(&set) > 0.0959 && kpath_set_coverage(&set) < 0.0961);
    /* Adding the same tree again adds nothing. */
    CHECK_INT(derivation_add_kpaths(&t, &set), 0);
    kpath_set_free(&set);
    kpath_space_free(&sp);
    derivation_free(&t);
    test_unload(&l);
}

TEST(derivation_k_paths_of_length_1_and_3)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct derivation t;
    CHECK(build_x_plus_42(l.graph, &t));
    struct kpath_space sp;
    struct kpath_set set;
    /* 1-paths: the distinct symbolic nodes of the tree: 0 5 2 8 16 39 10 7
     * 22 42 48 46 = 12 (UnaryExpr_8 occurs twice). */
    kpath_space_init(&sp, l.graph, 1);
    kpath_set_init(&set, &sp);
    CHECK_INT(derivation_add_kpaths(&t, &set), 12);
    kpath_set_free(&set);
    kpath_space_free(&sp);
    /* 3-paths: one per symbolic instance with two symbolic ancestors:
     * 0>5>2, 5>2>8, 2>8>16, 8>16>39, 0>7>8, 7>8>22, 8>22>42, 22>42>48,
     * 22>42>46 = 9 distinct. */
    kpath_space_init(&sp, l.graph, 3);
    kpath_set_init(&set, &sp);
    CHECK_INT(derivation_add_kpaths(&t, &set), 9);
    uint32_t p[] = {8, 22, 42};
    CHECK(kpath_set_contains(&set, p));
    uint32_t q[] = {0, 10, 42};
    CHECK(!kpath_set_contains(&set, q));
    kpath_set_free(&set);
    kpath_space_free(&sp);
    derivation_free(&t);
    test_unload(&l);
}

TEST(derivation_rejects_invalid_decisions)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (\"a\" | \"b\") [0-9]{1,2};", &l)))
        return;
    const struct graph *g = l.graph;
    struct derivation t;
    derivation_init(&t, g, 0);
    /* Root: cat (no decision); then alt 0..1, quant 1..2, class a digit. */
    static const uint32_t bad_alt[] = {2};
    size_t bad_at = 99;
    CHECK_INT(derivation_replay(&t, bad_alt, 1, &bad_at), -1);
    CHECK_INT(bad_at, 0);
    derivation_free(&t);

    derivation_init(&t, g, 0);
    static const uint32_t bad_quant[] = {1, 3};
    CHECK_INT(derivation_replay(&t, bad_quant, 2, &bad_at), -1);
    CHECK_INT(bad_at, 1);
    derivation_free(&t);

    derivation_init(&t, g, 0);
    static const uint32_t bad_char[] = {1, 1, 'x'};
    CHECK_INT(derivation_replay(&t, bad_char, 3, &bad_at), -1);
    CHECK_INT(bad_at, 2);
    CHECK(!derivation_complete(&t));
    derivation_free(&t);

    derivation_init(&t, g, 0);
    static const uint32_t good[] = {1, 2, '4', '2'};
    CHECK_INT(derivation_replay(&t, good, 4, NULL), 4);
    CHECK(derivation_complete(&t));
    struct strbuf text = STRBUF_INIT;
    derivation_text(&t, &text);
    CHECK_STR(strbuf_str(&text), "b42");
    CHECK(!derivation_expand(&t, 0, 0)); /* already expanded */
    strbuf_free(&text);
    derivation_free(&t);
    test_unload(&l);
}

TEST(derivation_partial_trees_and_copies)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct derivation t, copy;
    derivation_init(&t, l.graph, 0);
    CHECK_INT(derivation_replay(&t, x_plus_42, 5, NULL), 5); /* up to "x" */
    CHECK(!derivation_complete(&t));
    derivation_copy(&copy, &t);
    CHECK_INT(derivation_replay(&copy, x_plus_42 + 5, 6, NULL), 6);
    CHECK(derivation_complete(&copy));
    CHECK(!derivation_complete(&t));
    struct strbuf text = STRBUF_INIT;
    derivation_text(&t, &text);
    CHECK_STR(strbuf_str(&text), "x");
    strbuf_free(&text);
    derivation_free(&copy);
    derivation_free(&t);
    test_unload(&l);
}

TEST(derivation_very_deep_trees_do_not_overflow_the_stack)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := \"(\" S \")\" | \"x\";", &l)))
        return;
    enum { DEPTH = 300000 };
    uint32_t *decisions = malloc((DEPTH + 1) * sizeof *decisions);
    for (int i = 0; i < DEPTH; i++)
        decisions[i] = 0;
    decisions[DEPTH] = 1;
    struct derivation t;
    derivation_init(&t, l.graph, 0);
    CHECK_INT(derivation_replay(&t, decisions, DEPTH + 1, NULL), DEPTH + 1);
    CHECK(derivation_complete(&t));
    CHECK_INT(derivation_depth(&t), DEPTH);
    struct strbuf text = STRBUF_INIT;
    derivation_text(&t, &text);
    CHECK_INT(text.len, 2 * DEPTH + 1);
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 3);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    /* Node ids: 0 alt, 1 cat, 2 "x", 3 "(", 4 S, 5 ")".  The 3-paths of
     * the tree: 4>4>4, 4>4>3, 4>4>5 and, at the bottom, 4>4>2. */
    CHECK_INT(derivation_add_kpaths(&t, &set), 4);
    kpath_set_free(&set);
    kpath_space_free(&sp);
    strbuf_free(&text);
    derivation_free(&t);
    free(decisions);
    test_unload(&l);
}
