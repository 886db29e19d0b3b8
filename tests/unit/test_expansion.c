/* Expansion coverage (fuzzingbook's), counted by hand on expr.ebnf. */
#include "../support/load.h"
#include "graph/derivation.h"
#include "graph/expansion.h"
#include "grammar/grammar.h"
#include "harness.h"
#include "parse/parse.h"

/* Expr's only expansion 1; AddExpr 2 and its ("+" | "-") 2; MultExpr 2 and
 * its ("*" | "/" | "%") 3; UnaryExpr 7; DecDigits (a quantifier, no
 * alternation) 1; DecDigit 10; Identifier 3: 31.  The tree of x+42 (the
 * decisions of test_dtree.c) uses Expr's; AddExpr's both alternatives (the
 * sum, then MultExpr); "+"; MultExpr -> UnaryExpr (twice, one expansion);
 * UnaryExpr -> Identifier and -> DecDigits; Identifier -> "x"; DecDigits';
 * DecDigit -> "4" and -> "2": 1 + 2 + 1 + 1 + 2 + 1 + 1 + 2 = 11. */
TEST(expansion_coverage_of_x_plus_42)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    CHECK_INT(expansion_total(l.graph), 31);
    static const uint32_t x_plus_42[] = {1, 0, 0, 0, 0, 0, 0, 6, 2, 4, 2};
    struct derivation t;
    derivation_init(&t, l.graph, 0);
    CHECK(derivation_replay(&t, x_plus_42, 11, NULL) == 11 && derivation_complete(&t));
    struct expansion_set s;
    expansion_set_init(&s, l.graph);
    expansion_add_tree(&s, &t);
    CHECK_INT(s.count, 11);
    /* The same tree again adds nothing. */
    expansion_add_tree(&s, &t);
    CHECK_INT(s.count, 11);
    expansion_set_free(&s);
    derivation_free(&t);
    test_unload(&l);
}

/* Samples: the forest of x+42 (one tree) uses the same 11 expansions as the
 * tree above. */
TEST(expansion_coverage_of_a_parsed_sample)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    struct forest *f = parse_text(l.graph, "in", "x+42", 4, &po, &d);
    if (CHECK(f)) {
        struct expansion_set s;
        expansion_set_init(&s, l.graph);
        CHECK_INT(forest_add_expansions(f, &s), 11);
        CHECK_INT(forest_add_expansions(f, &s), 0);
        /* UnaryExpr's Identifier and DecDigits alternatives (2 and 7) are
         * used, its "(" AddExpr ")" (6) is not. */
        uint32_t unary = l.graph->rule_node[grammar_find_rule(l.grammar, "UnaryExpr")];
        CHECK(expansion_has(&s, unary, 0) && expansion_has(&s, unary, 6));
        CHECK(!expansion_has(&s, unary, 5));
        expansion_set_free(&s);
        forest_free(f);
    }
    diag_list_free(&d);
    test_unload(&l);
}

/* An ambiguous sample counts the expansions of every one of its trees: "a"
 * is S -> A -> "a" and S -> B -> "a", so S's two alternatives, A's and B's
 * only expansions: 4 of 6; "c" uses the other 2.  The union of two sets adds what
 * is new. */
TEST(expansion_coverage_of_every_tree)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := A | B | C; A := \"a\"; B := \"a\"; C := \"c\";", &l)))
        return;
    CHECK_INT(expansion_total(l.graph), 6);
    struct diag_list d = DIAG_LIST_INIT;
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    struct forest *a = parse_text(l.graph, "in", "a", 1, &po, &d);
    struct forest *c = parse_text(l.graph, "in", "c", 1, &po, &d);
    if (CHECK(a && c)) {
        struct expansion_set sa, sc;
        expansion_set_init(&sa, l.graph);
        expansion_set_init(&sc, l.graph);
        CHECK_INT(forest_add_expansions(a, &sa), 4);
        CHECK_INT(forest_add_expansions(c, &sc), 2);
        expansion_set_union(&sa, &sc);
        CHECK_INT(sa.count, 6);
        expansion_set_union(&sa, &sc);
        CHECK_INT(sa.count, 6);
        expansion_set_free(&sa);
        expansion_set_free(&sc);
    }
    forest_free(a);
    forest_free(c);
    diag_list_free(&d);
    test_unload(&l);
}
