/* Expansion coverage (fuzzingbook's), counted by hand on expr.ebnf. */
#include "../support/load.h"
#include "dtree.h"
#include "expansion.h"
#include "harness.h"

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
    struct dtree t;
    dtree_init(&t, l.graph, 0);
    CHECK(dtree_replay(&t, x_plus_42, 11, NULL) == 11 && dtree_complete(&t));
    struct expansion_set s;
    expansion_set_init(&s, l.graph);
    expansion_add_tree(&s, &t);
    CHECK_INT(s.count, 11);
    /* The same tree again adds nothing. */
    expansion_add_tree(&s, &t);
    CHECK_INT(s.count, 11);
    expansion_set_free(&s);
    dtree_free(&t);
    test_unload(&l);
}
