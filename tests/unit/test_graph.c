/* Grammar graph: ids, kinds, labels and metrics of grammars/expr.ebnf, which
 * must reproduce the numbering of the k-path literature exactly. */
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "harness.h"

static const char *label(const struct graph *g, uint32_t id)
{
    static struct strbuf sb;
    strbuf_reset(&sb);
    graph_node_label(g, id, &sb);
    return strbuf_str(&sb);
}

TEST(graph_expr_symbolic_nodes_match_the_paper)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    static const struct {
        uint32_t id;
        const char *label;
    } expected[] = {
        {0, "AddExpr"}, {2, "MultExpr"}, {5, "AddExpr"}, {7, "MultExpr"}, {8, "UnaryExpr"},
        {10, "\"+\""}, {11, "\"-\""}, {13, "MultExpr"}, {15, "UnaryExpr"}, {16, "Identifier"},
        {22, "DecDigits"}, {23, "\"*\""}, {24, "\"/\""}, {25, "\"%\""}, {27, "\"+\""},
        {28, "UnaryExpr"}, {29, "\"-\""}, {30, "UnaryExpr"}, {31, "\"++\""}, {32, "UnaryExpr"},
        {33, "\"--\""}, {34, "UnaryExpr"}, {35, "\"(\""}, {36, "AddExpr"}, {37, "\")\""},
        {39, "\"x\""}, {40, "\"y\""}, {41, "\"z\""}, {42, "DecDigit"},
        {44, "\"0\""}, {45, "\"1\""}, {46, "\"2\""}, {47, "\"3\""}, {48, "\"4\""},
        {49, "\"5\""}, {50, "\"6\""}, {51, "\"7\""}, {52, "\"8\""}, {53, "\"9\""},
    };
    size_t n = sizeof expected / sizeof expected[0];
    CHECK_INT(n, 39);
    CHECK_INT(g->nnodes, 54);
    CHECK_INT(g->nsymbolic, 39);
    for (size_t i = 0; i < n; i++) {
        uint32_t id = expected[i].id;
        CHECK(node_kind_is_symbolic(g->nodes[id].kind));
        CHECK_STR(label(g, id), expected[i].label);
        CHECK_INT(g->symbolic[i], id);
    }
    /* The other 15 nodes are synthetic, with these labels. */
    static const struct {
        uint32_t id;
        const char *label;
    } synthetic[] = {{1, "|"}, {3, "~"}, {4, "|"}, {6, "|"}, {9, "~"}, {12, "|"}, {14, "|"},
                     {17, "~"}, {18, "~"}, {19, "~"}, {20, "~"}, {21, "~"}, {26, "|"},
                     {38, "+"}, {43, "|"}};
    for (size_t i = 0; i < sizeof synthetic / sizeof synthetic[0]; i++) {
        CHECK(!node_kind_is_symbolic(g->nodes[synthetic[i].id].kind));
        CHECK_STR(label(g, synthetic[i].id), synthetic[i].label);
    }
    test_unload(&l);
}

TEST(graph_expr_edges_and_sharing)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    /* AddExpr's right-hand side (1) is shared by the references 0, 5 and 36. */
    CHECK_INT(g->nodes[0].nchildren, 1);
    CHECK_INT(graph_children(g, 0)[0], 1);
    CHECK_INT(graph_children(g, 5)[0], 1);
    CHECK_INT(graph_children(g, 36)[0], 1);
    CHECK_INT(g->nodes[1].nparents, 3);
    CHECK_INT(graph_parents(g, 1)[0], 0);
    CHECK_INT(graph_parents(g, 1)[1], 5);
    CHECK_INT(graph_parents(g, 1)[2], 36);
    /* The cat of `AddExpr ("+" | "-") MultExpr` has the group as an alt node. */
    CHECK_INT(g->nodes[3].nchildren, 3);
    CHECK_INT(graph_children(g, 3)[0], 5);
    CHECK_INT(graph_children(g, 3)[1], 6);
    CHECK_INT(graph_children(g, 3)[2], 7);
    CHECK_INT(g->nodes[6].kind, NODE_ALT);
    /* UnaryExpr's alternation: Identifier, five cats, DecDigits. */
    CHECK_INT(g->nodes[12].nchildren, 7);
    CHECK_INT(graph_children(g, 12)[0], 16);
    CHECK_INT(graph_children(g, 12)[6], 22);
    /* The root's symbolic successors: AddExpr_0 -> MultExpr_2, AddExpr_5,
     * "+"_10, "-"_11, MultExpr_7, in id order. */
    static const uint32_t succ0[] = {2, 5, 7, 10, 11};
    CHECK_INT(g->nodes[0].nsucc, 5);
    for (int i = 0; i < 5; i++)
        CHECK_INT(graph_successors(g, 0)[i], succ0[i]);
    /* Literals have no successors. */
    CHECK_INT(g->nodes[10].nsucc, 0);
    CHECK_INT(g->rule_node[g->grammar->start], 0);
    test_unload(&l);
}

TEST(graph_expr_minimal_subtrees)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    /* Shortest derivation: AddExpr_0 MultExpr_2 UnaryExpr_8 Identifier_16 "x":
     * four references, nine tree nodes (0 1 2 4 8 12 16 26 39), one character. */
    CHECK_INT(g->nodes[0].min_depth, 4);
    CHECK_INT(g->nodes[0].min_size, 9);
    CHECK_INT(g->nodes[0].min_length, 1);
    CHECK_INT(g->nodes[16].min_depth, 1);
    CHECK_INT(g->nodes[8].min_depth, 2);
    /* DecDigits_22 -> + -> DecDigit_42 -> | -> "0": two references. */
    CHECK_INT(g->nodes[22].min_depth, 2);
    CHECK_INT(g->nodes[22].min_size, 5);
    /* "++" UnaryExpr: 2 + 1 characters. */
    CHECK_INT(g->nodes[19].min_length, 3);
    CHECK_INT(g->nodes[10].min_depth, 0);
    CHECK_INT(g->nodes[10].min_size, 1);
    test_unload(&l);
}

TEST(graph_metrics_of_quantifiers_and_epsilon)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := A{3} B* C;\nA := \"ab\" | \"c\" A;\nB := \"x\";\n"
                                "C := \"\" | D;\nD := \"d\";\n", &l)))
        return;
    const struct graph *g = l.graph;
    /* A{3} takes three times the shortest A ("ab"), B* nothing, C epsilon. */
    CHECK_INT(g->nodes[0].min_length, 6);
    /* Depth: S's cat has A{3} -> A -> "ab": one reference on that path. */
    CHECK_INT(g->nodes[0].min_depth, 1);
    /* cat(1) + quant(1) + 3 * (ref, alt, lit) + quant(1) + ref C, alt, lit "". */
    CHECK_INT(g->nodes[0].min_size, 1 + 1 + 9 + 1 + 3);
    test_unload(&l);
}

TEST(graph_metrics_of_a_class_of_no_character)
{
    /* Ids: 0 alt; 1 "ab", 2 cat, 3 cat; 4 "c", 5 class, 6 "d", 7 quant *;
     * 8 class.  The class matches nothing, so a way through it never ends
     * (as the loader's productivity check counts it), and generators, which
     * follow these metrics, never take it; zero repetitions still do. */
    struct loaded l;
    if (!CHECK(test_load_string("S := \"ab\" | \"c\" [^\\x00-\\u{10FFFF}] "
                                "| \"d\" [^\\x00-\\u{10FFFF}]*;\n", &l)))
        return;
    const struct graph *g = l.graph;
    CHECK_INT(g->nnodes, 9);
    CHECK(g->nodes[5].min_size == METRIC_INFINITE);
    CHECK(g->nodes[5].min_length == METRIC_INFINITE);
    CHECK_INT(g->nodes[5].min_depth, UINT32_MAX);
    CHECK(g->nodes[2].min_size == METRIC_INFINITE);
    CHECK(g->nodes[8].min_size == METRIC_INFINITE);
    CHECK_INT(g->nodes[7].min_size, 1);
    CHECK_INT(g->nodes[3].min_length, 1);
    /* The root: the fewest nodes are "ab"'s (alt + leaf), the fewest
     * characters "d"'s. */
    CHECK_INT(g->nodes[0].min_size, 2);
    CHECK_INT(g->nodes[0].min_length, 1);
    test_unload(&l);
}

TEST(graph_distances)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    uint32_t *dist = malloc(g->nnodes * sizeof *dist);
    graph_distances_to(g, 10, dist);
    CHECK_INT(dist[10], 0);
    CHECK_INT(dist[6], 1);
    CHECK_INT(dist[3], 2);
    CHECK_INT(dist[1], 3);
    CHECK_INT(dist[0], 4);
    CHECK_INT(dist[5], 4);
    CHECK_INT(dist[36], 4);
    /* From UnaryExpr_8: 8 -> 12 -> 21 -> 36 -> 1 -> 3 -> 6 -> 10. */
    CHECK_INT(dist[8], 7);
    /* "x" cannot reach anything. */
    CHECK_INT(dist[39], UINT32_MAX);
    free(dist);
    test_unload(&l);
}

TEST(graph_node_names_parse_back)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    CHECK_INT(graph_parse_node_name(g, "AddExpr_0"), 0);
    CHECK_INT(graph_parse_node_name(g, "\"+\"_10"), 10);
    CHECK_INT(graph_parse_node_name(g, "12"), 12);
    CHECK_INT(graph_parse_node_name(g, "MultExpr_0"), NODE_NONE);
    CHECK_INT(graph_parse_node_name(g, "AddExpr_99"), NODE_NONE);
    CHECK_INT(graph_parse_node_name(g, "AddExpr"), NODE_NONE);
    for (uint32_t i = 0; i < g->nnodes; i++) {
        struct strbuf sb = STRBUF_INIT;
        graph_node_name(g, i, &sb);
        CHECK_INT(graph_parse_node_name(g, strbuf_str(&sb)), i);
        strbuf_free(&sb);
    }
    test_unload(&l);
}

TEST(graph_of_a_deep_rule_chain_builds_without_recursion)
{
    /* 100,000 rules in a chain and a 50,000-deep nested group. */
    enum { RULES = 100000 };
    struct strbuf text = STRBUF_INIT;
    for (uint32_t r = 0; r < RULES - 1; r++)
        strbuf_addf(&text, "R%u := \"a\" R%u | \"b\";\n", r, r + 1);
    strbuf_addf(&text, "R%u := ", RULES - 1);
    for (int i = 0; i < 50000; i++)
        strbuf_addstr(&text, "(\"c\" | ");
    strbuf_addstr(&text, "\"d\"");
    for (int i = 0; i < 50000; i++)
        strbuf_addstr(&text, ")");
    strbuf_addstr(&text, ";\n");
    struct loaded l;
    if (CHECK(test_load_string(strbuf_str(&text), &l))) {
        /* Each chain rule: alt, cat, "a", ref, "b" = 5 nodes; the last rule's
         * nested alternation: 50,000 alts and 50,001 literals. */
        CHECK_INT(l.graph->nnodes, (RULES - 1) * 5 + 50000 + 50001);
        CHECK_INT(l.graph->nodes[0].min_depth, 0);
        test_unload(&l);
    }
    strbuf_free(&text);
}
