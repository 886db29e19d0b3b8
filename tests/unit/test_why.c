/* why: each reason on a small grammar built to trigger it. */
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "harness.h"
#include "gen/learn.h"
#include "parse/parse.h"
#include "gen/size_table.h"
#include "explain/why.h"
#include "workspace/workspace.h"

static struct why_report explain(const struct graph *g, const uint32_t *path, uint32_t k,
                                 const struct why_options *o)
{
    struct why_report r;
    why_explain(g, path, k, o, &r);
    return r;
}

TEST(why_depth_and_the_smallest_input)
{
    /* S := A; A := B; B := C; C := "c" | "d" D; D := "x".  Nodes: 0 A, 1 B,
     * 2 C, 3 alt, 4 "c", 5 cat, 6 "d", 7 D, 8 "x".  C_2 -> D_7 needs the
     * references A, B, C and D: depth 4; the smallest input is "dx". */
    struct loaded l;
    if (!CHECK(test_load_string("S := A;\nA := B;\nB := C;\nC := \"c\" | \"d\" D;\nD := \"x\";\n", &l)))
        return;
    uint32_t path[] = {2, 7};
    struct why_options o = {.max_depth = 3};
    struct why_report r = explain(l.graph, path, 2, &o);
    CHECK_INT(r.needed_depth, 4);
    CHECK(r.too_deep);
    CHECK(!r.example_within_limit);
    CHECK_STR(r.example, "dx");
    CHECK_INT(r.example_depth, 4);
    CHECK_INT(r.nzeros, 0);
    CHECK(!r.start_needs_zero);
    CHECK(!r.outside_pins);
    why_report_free(&r);
    o.max_depth = 4;
    r = explain(l.graph, path, 2, &o);
    CHECK(!r.too_deep);
    CHECK(r.example_within_limit);
    CHECK_STR(r.example, "dx");
    why_report_free(&r);
    test_unload(&l);
}

TEST(why_alternatives_with_probability_zero)
{
    /* S := A; A := 100% "a" | 0% "b" B; B := "x".  Nodes: 0 A, 1 alt, 2 "a",
     * 3 cat, 4 "b", 5 B, 6 "x".  A_0 -> "b"_4 takes A's second alternative
     * (probability 0); B_5 -> "x"_6 is only reached through it. */
    struct loaded l;
    if (!CHECK(test_load_string("S := A;\nA := 100% \"a\" | 0% \"b\" B;\nB := \"x\";\n", &l)))
        return;
    struct why_options o = {.max_depth = 16};
    uint32_t first[] = {0, 4};
    struct why_report r = explain(l.graph, first, 2, &o);
    if (CHECK_INT(r.nzeros, 1)) {
        CHECK_INT(r.zeros[0].alt, 1);
        CHECK_INT(r.zeros[0].index, 1);
    }
    CHECK(!r.start_needs_zero);
    why_report_free(&r);
    uint32_t second[] = {5, 6};
    r = explain(l.graph, second, 2, &o);
    CHECK_INT(r.nzeros, 0);
    CHECK(r.start_needs_zero);
    CHECK_STR(r.example, "bx"); /* the generator itself is not bound by probabilities */
    why_report_free(&r);
    /* Learned probabilities in place of the grammar's: all nonzero. */
    double *p = malloc(probability_table_size(l.graph) * sizeof *p);
    probabilities_from_grammar(l.graph, p);
    p[l.graph->nodes[1].first_child + 1] = 0.5;
    o.probabilities = p;
    r = explain(l.graph, second, 2, &o);
    CHECK(!r.start_needs_zero);
    why_report_free(&r);
    free(p);
    test_unload(&l);
}

TEST(why_outside_pins_and_relative_to_inputs)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    struct pin_set pins = PIN_SET_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(pin_set_add(&pins, g, "UnaryExpr_15 AddExpr_36", &d));
    /* One input, "x+x": covers AddExpr_0 and "+"_10 as 1-paths, not "-"_11. */
    struct kpath_space spaces[3];
    struct kpath_set sets[3];
    struct kpath_set *set_ptrs[3];
    for (int j = 0; j < 3; j++) {
        kpath_space_init(&spaces[j], g, (uint32_t)j + 1);
        kpath_set_init(&sets[j], &spaces[j]);
        set_ptrs[j] = &sets[j];
    }
    struct forest *f = parse_text(g, "x+x", "x+x", 3, NULL, &d);
    if (CHECK(f != NULL))
        forest_add_kpaths_many(f, set_ptrs, 3);
    forest_free(f);
    struct why_input input = {"x+x", sets};
    struct why_options o = {.max_depth = 16, .pins = &pins, .inputs = &input, .ninputs = 1};
    /* AddExpr_0 -> "-"_11: outside the pin (AddExpr_0 is not below
     * AddExpr_36); prefix AddExpr_0 covered, no suffix. */
    uint32_t minus[] = {0, 11};
    struct why_report r = explain(g, minus, 2, &o);
    CHECK(r.outside_pins);
    CHECK_INT(r.covered_by, (long long)SIZE_MAX);
    CHECK_INT(r.prefix, 1);
    CHECK_INT(r.prefix_input, 0);
    CHECK_INT(r.suffix, 0);
    CHECK_STR(r.example, "x-x");
    why_report_free(&r);
    /* AddExpr_0 -> MultExpr_7 -> UnaryExpr_8: x+x derives it (the right
     * operand), so it is covered, by input 0. */
    uint32_t covered[] = {0, 7, 8};
    r = explain(g, covered, 3, &o);
    CHECK_INT(r.covered_by, 0);
    why_report_free(&r);
    /* UnaryExpr_8 -> DecDigits_22 -> DecDigit_42: "x+x" has UnaryExpr_8 (a
     * covered 1-prefix) but no digits, so no covered suffix. */
    uint32_t digits[] = {8, 22, 42};
    r = explain(g, digits, 3, &o);
    CHECK_INT(r.prefix, 1);
    CHECK_INT(r.suffix, 0);
    CHECK(!r.outside_pins);
    why_report_free(&r);
    for (int j = 0; j < 3; j++) {
        kpath_set_free(&sets[j]);
        kpath_space_free(&spaces[j]);
    }
    pin_set_free(&pins);
    diag_list_free(&d);
    test_unload(&l);
}

TEST(why_works_in_spaces_too_large_for_an_agenda)
{
    /* expr.ebnf has over a billion 13-paths: more than a generator's agenda
     * holds and more than a bitset.  AddExpr_0, eleven AddExpr_5, MultExpr_2:
     * twelve nested sums, so twelve operands; depth 12 + MultExpr_2,
     * UnaryExpr_8, Identifier_16 = 15. */
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    uint32_t path[13];
    path[0] = 0;
    for (int i = 1; i < 12; i++)
        path[i] = 5;
    path[12] = 2;
    struct why_options o = {.max_depth = 16};
    struct why_report r = explain(l.graph, path, 13, &o);
    CHECK_INT(r.needed_depth, 15);
    CHECK(!r.too_deep);
    CHECK_STR(r.example, "x+x+x+x+x+x+x+x+x+x+x+x");
    CHECK_INT(r.example_depth, 15);
    why_report_free(&r);
    test_unload(&l);
}

/* Issue 10.1: the smallest input is the one with the fewest characters, not
 * the shallowest.  start := S; S := X | Y; X := "a" ("b" ("c" ("d" T)));
 * Y := Z; Z := T; T := "t".  Nodes: 0 S, 1 alt, 2 X, 3 Y, 4 cat of X, 5 Z,
 * 6 "a", 7 cat, 8 T (in Z), 9 "b", 10 cat, 11 "t" (T's node), 12 "c", 13 cat,
 * 14 "d", 15 T (in X).  "t"_11 is in the 1-byte input "t" (references S, Y,
 * Z, T: depth 4) and in "abcdt" (S, X, T: depth 3). */
TEST(why_smallest_input_is_the_fewest_characters_within_the_depth)
{
    struct loaded l;
    if (!CHECK(test_load_string("start := S;\nS := X | Y;\n"
                                "X := \"a\" (\"b\" (\"c\" (\"d\" T)));\n"
                                "Y := Z;\nZ := T;\nT := \"t\";\n", &l)))
        return;
    uint32_t path[] = {11};
    struct why_options o = {.max_depth = 16};
    struct why_report r = explain(l.graph, path, 1, &o);
    CHECK_INT(r.needed_depth, 3);
    CHECK(r.example_within_limit);
    CHECK_STR(r.example, "t");
    CHECK_INT(r.example_depth, 4);
    /* Issue 10.6: the paper's derivation depth counts every node: S_0, |_1,
     * Y_3, Z_5, T_8, "t"_11. */
    CHECK_INT(r.example_derivation_depth, 6);
    CHECK(r.example_smallest); /* the smallest overall fits: proven */
    CHECK_INT(r.smallest_len, 1);
    why_report_free(&r);
    /* Depth 3 rules "t" out: the smallest within it is "abcdt", the only
     * way left.  The size table makes it exact (issue 10, point 1): proven
     * the smallest within the limit; "t" (1 byte, depth 4) is still
     * reported as the smallest overall. */
    o.max_depth = 3;
    r = explain(l.graph, path, 1, &o);
    CHECK(r.example_within_limit);
    CHECK_STR(r.example, "abcdt");
    CHECK_INT(r.example_depth, 3);
    /* S_0, |_1, X_2, ~_4, ~_7, ~_10, ~_13, T_15, "t"_11 */
    CHECK_INT(r.example_derivation_depth, 9);
    CHECK(r.example_smallest);
    CHECK_INT(r.smallest_len, 1);
    CHECK_INT(r.smallest_depth, 4);
    why_report_free(&r);
    test_unload(&l);
}

/* Under a pin the smallest way is not the shallowest (the grammar's comment
 * works the four ways out by hand): why's example and the input C adds
 * (workspace_cover_path) are the same smallest input in the pin's context,
 * at every depth limit. */
TEST(why_smallest_under_a_pin_is_what_c_adds)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws =
        workspace_new(harness_path("tests/grammars/ok/pinned-smallest.ebnf"), NULL, &d);
    if (!CHECK(ws != NULL))
        return;
    CHECK(workspace_set_k(ws, 1, &d));
    CHECK(workspace_pin(ws, "S_17", &d));
    uint32_t path[] = {6}; /* "t"_6 */
    /* limit: the smallest input within it ("pt" B Y depth 9; "aaapt" A Y
     * and "pxxxt" B X, both 5 bytes, depth 7; "aaapxxxt" A X depth 5) */
    const struct {
        uint32_t limit;
        size_t len;
    } cases[] = {{16, 2}, {9, 2}, {8, 5}, {7, 5}, {6, 8}, {5, 8}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        ws->gen_opts.max_depth = cases[c].limit;
        struct why_options o = {.max_depth = cases[c].limit, .pins = &ws->pins};
        struct why_report r = explain(ws->graph, path, 1, &o);
        CHECK(!r.outside_pins);
        CHECK(r.example_within_limit);
        CHECK_INT(r.example_len, cases[c].len);
        CHECK(r.example_depth <= cases[c].limit);
        /* proven the smallest at every limit: the size table's search is
         * exact (the 5-byte inputs are the smallest within 7 and 8, the
         * 8-byte one within 5 and 6); "pt" is the smallest overall */
        CHECK(r.example_smallest);
        CHECK_INT(r.smallest_len, 2);
        CHECK_INT(r.smallest_depth, 9);
        size_t before = ws->ninputs;
        CHECK(workspace_cover_path(ws, path, &d));
        if (CHECK_INT(ws->ninputs, before + 1) && r.example)
            CHECK_STR(ws->inputs[before].text, r.example);
        why_report_free(&r);
    }
    ws->gen_opts.max_depth = 16;
    /* the smallest, "pt", when the depth allows it */
    struct why_options o = {.max_depth = 16, .pins = &ws->pins};
    struct why_report r = explain(ws->graph, path, 1, &o);
    CHECK_STR(r.example, "pt");
    why_report_free(&r);
    /* depth 4: nothing fits; the example is the shallowest, said so, and C
     * refuses it (the detail pane does not offer it) */
    o.max_depth = 4;
    ws->gen_opts.max_depth = 4;
    r = explain(ws->graph, path, 1, &o);
    CHECK_INT(r.needed_depth, 5);
    CHECK(!r.example_within_limit);
    CHECK_STR(r.example, "aaapxxxt");
    why_report_free(&r);
    size_t before = ws->ninputs;
    CHECK(!workspace_cover_path(ws, path, &d));
    CHECK_INT(ws->ninputs, before);
    diag_list_free(&d);
    workspace_free(ws);
}

/* Issue 10, point 1: under a depth limit the smallest input is neither on
 * the smallest way nor on the shallowest one.  start := S; S := A | B | C;
 * A := D; D := E; E := T; B := "xy" M; M := T; C := "pqrst" T; T := "t".
 * "t"_15 lies on three ways: through A (references S A D E T: depth 5,
 * "t", 1 byte), through B (S B M T: depth 4, "xyt", 3 bytes) and through C
 * (S C T: depth 3, "pqrstt", 6 bytes).  Within depth 4 the smallest is
 * the middle one, "xyt"; the shallowest way would give "pqrstt". */
TEST(why_smallest_within_the_depth_is_the_middle_way)
{
    struct loaded l;
    if (!CHECK(test_load_string("start := S;\nS := A | B | C;\nA := D; D := E; E := T;\n"
                                "B := \"xy\" M; M := T;\nC := \"pqrst\" T;\nT := \"t\";\n",
                                &l)))
        return;
    uint32_t path[] = {15};
    const struct {
        uint32_t limit;
        const char *example;
        uint32_t depth;
    } cases[] = {{16, "t", 5}, {5, "t", 5}, {4, "xyt", 4}, {3, "pqrstt", 3}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct why_options o = {.max_depth = cases[c].limit};
        struct why_report r = explain(l.graph, path, 1, &o);
        CHECK(r.example_within_limit);
        CHECK_STR(r.example, cases[c].example);
        CHECK_INT(r.example_depth, cases[c].depth);
        CHECK(r.example_smallest);
        CHECK_INT(r.smallest_len, 1); /* "t", the smallest overall */
        why_report_free(&r);
    }
    test_unload(&l);
}

/* Issue 10, point 1: a side closed on the way must take its smallest
 * subtree within the depth left, not the smallest one overall.
 * start := S; S := T U; T := "t"; U := V | "long"; V := W | "mmmmmm";
 * W := "v".  "t"_4 needs U closed: "v" (U V W: depth 4 with S) is the
 * smallest, "tv"; within depth 3 V can only give "mmmmmm" (depth 3), so
 * "long" (depth 2) is the smallest: "tlong", 5 bytes, not "tmmmmmm". */
TEST(why_closes_sides_with_the_smallest_subtree_within_the_depth)
{
    struct loaded l;
    if (!CHECK(test_load_string("start := S;\nS := T U;\nT := \"t\";\nU := V | \"long\";\n"
                                "V := W | \"mmmmmm\";\nW := \"v\";\n",
                                &l)))
        return;
    uint32_t path[] = {4};
    struct why_options o = {.max_depth = 4};
    struct why_report r = explain(l.graph, path, 1, &o);
    CHECK_STR(r.example, "tv");
    CHECK_INT(r.example_depth, 4);
    why_report_free(&r);
    o.max_depth = 3;
    r = explain(l.graph, path, 1, &o);
    CHECK_STR(r.example, "tlong");
    CHECK_INT(r.example_depth, 2);
    CHECK(r.example_smallest);
    why_report_free(&r);
    test_unload(&l);
}

/* Issue 10, point 1, with a pin: the pinned context times the way.
 * start := "p" S | T; S := X | Y | Z; X := "xxxxx" T; Y := Y1; Y1 := Y2;
 * Y2 := T; Z := "zz" Z1; Z1 := T; T := "t".  Pinned at S_4, "t"_5 lies
 * under it through X (references S X T: depth 3, "pxxxxxt"), Y (S Y Y1 Y2
 * T: depth 5, "pt") and Z (S Z Z1 T: depth 4, "pzzt").  Within depth 4
 * the smallest in S's context is "pzzt" (without the pin it would be "t"). */
TEST(why_smallest_under_a_pin_within_the_depth_is_the_middle_way)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct loaded l;
    if (!CHECK(test_load_string("start := \"p\" S | T;\nS := X | Y | Z;\nX := \"xxxxx\" T;\n"
                                "Y := Y1; Y1 := Y2; Y2 := T;\nZ := \"zz\" Z1; Z1 := T;\n"
                                "T := \"t\";\n",
                                &l)))
        return;
    struct pin_set pins = PIN_SET_INIT;
    if (!CHECK(pin_set_add(&pins, l.graph, "S_4", &d)))
        goto out;
    uint32_t path[] = {5};
    const struct {
        uint32_t limit;
        const char *example;
    } cases[] = {{16, "pt"}, {5, "pt"}, {4, "pzzt"}, {3, "pxxxxxt"}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct why_options o = {.max_depth = cases[c].limit, .pins = &pins};
        struct why_report r = explain(l.graph, path, 1, &o);
        CHECK_STR(r.example, cases[c].example);
        CHECK(r.example_smallest);
        why_report_free(&r);
    }
    struct why_options o = {.max_depth = 4};
    struct why_report r = explain(l.graph, path, 1, &o);
    CHECK_STR(r.example, "t"); /* no pin */
    why_report_free(&r);
out:
    pin_set_free(&pins);
    diag_list_free(&d);
    test_unload(&l);
}

/* Without the size table (a grammar and limit too large for it: the seam
 * lowers the bound), the example within the limit is not proven the
 * smallest, and the smallest overall is given as a lower bound: the grammar
 * of why_smallest_within_the_depth_is_the_middle_way at depth 4 gets the
 * shallowest way's "pqrstt" and the lower bound "t" (1 byte, depth 5). */
TEST(why_without_the_size_table_says_not_proven)
{
    struct loaded l;
    if (!CHECK(test_load_string("start := S;\nS := A | B | C;\nA := D; D := E; E := T;\n"
                                "B := \"xy\" M; M := T;\nC := \"pqrst\" T;\nT := \"t\";\n",
                                &l)))
        return;
    uint64_t saved = size_table_max_entries;
    size_table_max_entries = 0;
    uint32_t path[] = {15};
    struct why_options o = {.max_depth = 4};
    struct why_report r = explain(l.graph, path, 1, &o);
    CHECK_STR(r.example, "pqrstt");
    CHECK(!r.example_smallest);
    CHECK_INT(r.smallest_len, 1);
    CHECK_INT(r.smallest_depth, 5);
    why_report_free(&r);
    size_table_max_entries = saved;
    test_unload(&l);
}
