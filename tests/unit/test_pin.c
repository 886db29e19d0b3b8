/* Pins: parsing, the k-paths under a pin, coverage in context (which differs
 * from plain coverage when a shared rule is covered in one context only), and
 * generation restricted to the pinned context. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "gen/gen.h"
#include "harness.h"
#include "parse/parse.h"
#include "graph/pin.h"

/* S := A "." A; A := D+; D := "0" | "1";
 * Nodes: 0 cat, 1 A, 2 ".", 3 A, 4 + (A's), 5 D, 6 | (D's), 7 "0", 8 "1".
 * 2-paths: A_1->D_5, A_3->D_5, D_5->"0"_7, D_5->"1"_8. */
/* The tree of gen->inputs[i], rebuilt from its packed form; valid until the
 * next call (one tree is kept for the whole run, so nothing leaks). */
static const struct derivation *input_tree(const struct generator *gen, size_t i)
{
    static struct derivation tree;
    derivation_free(&tree);
    gen_input_tree(gen, i, &tree);
    return &tree;
}

static const char *const numbers = "S := A \".\" A;\nA := D+;\nD := \"0\" | \"1\";\n";

static struct derivation tree_of(const struct graph *g, const char *text)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct forest *f = parse_text(g, "sample", text, strlen(text), NULL, &d);
    struct derivation t = {0};
    if (CHECK(f != NULL))
        CHECK(forest_first_tree(f, &t));
    forest_free(f);
    diag_list_free(&d);
    return t;
}

TEST(pin_parsing_and_errors)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct pin_set pins = PIN_SET_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(pin_set_add(&pins, l.graph, "UnaryExpr_15 AddExpr_36", &d));
    CHECK(pin_set_add(&pins, l.graph, "8 -> 22", &d)); /* ids, pasted arrows */
    CHECK_INT(pins.len, 2);
    CHECK_INT(pins.pins[0].len, 2);
    CHECK_INT(pins.pins[1].nodes[1], 22);
    struct strbuf sb = STRBUF_INIT;
    pin_format(l.graph, &pins.pins[0], &sb);
    CHECK_STR(strbuf_str(&sb), "UnaryExpr_15 AddExpr_36");
    strbuf_free(&sb);
    CHECK_INT(d.len, 0);
    /* AddExpr_0's successors are 2, 5, 7, 10 and 11: not 8. */
    CHECK(!pin_set_add(&pins, l.graph, "AddExpr_0 UnaryExpr_8", &d));
    CHECK(!pin_set_add(&pins, l.graph, "Nothing_3", &d));
    CHECK(!pin_set_add(&pins, l.graph, "|_1", &d));
    CHECK(!pin_set_add(&pins, l.graph, "  ", &d));
    CHECK_INT(pins.len, 2);
    if (CHECK_INT(d.len, 4)) {
        CHECK(strstr(d.items[0].message, "is not a path") != NULL);
        CHECK(strstr(d.items[1].message, "no node 'Nothing_3'") != NULL);
        CHECK(strstr(d.items[2].message, "synthetic") != NULL);
    }
    diag_list_free(&d);
    pin_set_free(&pins);
    test_unload(&l);
}

TEST(pin_paths_under_a_pin)
{
    struct loaded l;
    if (!CHECK(test_load_string(numbers, &l)))
        return;
    struct pin_set pins = PIN_SET_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(pin_set_add(&pins, l.graph, "A_3", &d));
    uint32_t p1[] = {1, 5}, p2[] = {3, 5}, p3[] = {5, 7}, p4[] = {5, 8};
    CHECK(!pin_set_covers_path(&pins, p1));
    CHECK(pin_set_covers_path(&pins, p2));
    CHECK(pin_set_covers_path(&pins, p3));
    CHECK(pin_set_covers_path(&pins, p4));
    diag_list_free(&d);
    pin_set_free(&pins);
    test_unload(&l);

    /* In expr.ebnf everything symbolic is below AddExpr_36 except the root
     * reference AddExpr_0: 38 of the 39 1-paths, 125 - 5 of the 2-paths. */
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    CHECK(pin_set_add(&pins, l.graph, "UnaryExpr_15 AddExpr_36", &d));
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 2);
    struct kpath_iter it;
    kpath_iter_init(&it, &sp);
    unsigned under = 0;
    while (kpath_iter_next(&it))
        under += pin_set_covers_path(&pins, it.path);
    kpath_iter_free(&it);
    CHECK_INT(under, 120);
    kpath_space_free(&sp);
    pin_set_free(&pins);
    test_unload(&l);
}

/* Removing one pin keeps the others and their context, in order (issue 36:
 * pins removable one by one); removing the last leaves no restriction. */
TEST(pin_remove_one)
{
    struct loaded l;
    if (!CHECK(test_load_string(numbers, &l)))
        return;
    struct pin_set pins = PIN_SET_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(pin_set_add(&pins, l.graph, "A_1", &d));
    CHECK(pin_set_add(&pins, l.graph, "A_3", &d));
    CHECK(pin_set_add(&pins, l.graph, "\"0\"_7", &d));
    uint32_t p1[] = {1, 5}, p2[] = {3, 5}, p3[] = {5, 7};
    CHECK(!pin_set_remove(&pins, l.graph, 3));
    /* Without A_1: A_1's path is no longer under a pin; A_3's is, and so is
     * D_5 -> "0"_7 (below A_3). */
    CHECK(pin_set_remove(&pins, l.graph, 0));
    CHECK_INT(pins.len, 2);
    CHECK_INT(pins.pins[0].nodes[0], 3);
    CHECK_INT(pins.pins[1].nodes[0], 7);
    CHECK(!pin_set_covers_path(&pins, p1));
    CHECK(pin_set_covers_path(&pins, p2));
    CHECK(pin_set_covers_path(&pins, p3));
    /* Without A_3: only "0"_7 is pinned; D_5 is above it. */
    CHECK(pin_set_remove(&pins, l.graph, 0));
    CHECK(!pin_set_covers_path(&pins, p2));
    CHECK(!pin_set_covers_path(&pins, p3));
    CHECK(pin_set_remove(&pins, l.graph, 0));
    CHECK_INT(pins.len, 0);
    CHECK(pin_set_covers_path(&pins, p1));
    diag_list_free(&d);
    pin_set_free(&pins);
    test_unload(&l);
}

TEST(pin_coverage_in_context_differs_from_plain_coverage)
{
    struct loaded l;
    if (!CHECK(test_load_string(numbers, &l)))
        return;
    struct pin_set pins = PIN_SET_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(pin_set_add(&pins, l.graph, "A_3", &d));
    struct derivation t = tree_of(l.graph, "01.0");
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 2);
    struct kpath_set plain, in_context;
    kpath_set_init(&plain, &sp);
    kpath_set_init(&in_context, &sp);
    CHECK_INT(derivation_add_kpaths(&t, &plain), 4);
    /* Only what happens below the second A: A_3->D_5 and D_5->"0"_7; the
     * "1" occurs below the first A only. */
    CHECK_INT(pin_add_kpaths(&pins, &t, &in_context), 2);
    uint32_t one[] = {5, 8}, zero[] = {5, 7}, a3[] = {3, 5};
    CHECK(kpath_set_contains(&plain, one));
    CHECK(!kpath_set_contains(&in_context, one));
    CHECK(kpath_set_contains(&in_context, zero));
    CHECK(kpath_set_contains(&in_context, a3));
    /* k = 1: A_3, D_5 and "0"_7 occur in the context. */
    struct kpath_space sp1;
    kpath_space_init(&sp1, l.graph, 1);
    struct kpath_set one_paths;
    kpath_set_init(&one_paths, &sp1);
    CHECK_INT(pin_add_kpaths(&pins, &t, &one_paths), 3);
    kpath_set_free(&one_paths);
    kpath_space_free(&sp1);
    kpath_set_free(&plain);
    kpath_set_free(&in_context);
    kpath_space_free(&sp);
    derivation_free(&t);
    diag_list_free(&d);
    pin_set_free(&pins);
    test_unload(&l);
}

TEST(pin_longer_pins_need_their_whole_ancestry)
{
    /* S := "a" B | "b" B; B := C; C := "c";  Nodes: 0 alt, 1 cat, 2 cat,
     * 3 "a", 4 B, 5 "b", 6 B, 7 C (B's right-hand side), 8 "c".  Pin B_4 C_7:
     * C below the B that follows "a". */
    struct loaded l;
    if (!CHECK(test_load_string("S := \"a\" B | \"b\" B;\nB := C;\nC := \"c\";\n", &l)))
        return;
    struct pin_set pins = PIN_SET_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(pin_set_add(&pins, l.graph, "B_4 C_7", &d));
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 1);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    struct derivation t = tree_of(l.graph, "bc");
    CHECK_INT(pin_add_kpaths(&pins, &t, &set), 0); /* C below B_6: not the context */
    derivation_free(&t);
    t = tree_of(l.graph, "ac");
    CHECK_INT(pin_add_kpaths(&pins, &t, &set), 2); /* C_7 and "c"_8 */
    derivation_free(&t);
    kpath_set_free(&set);
    kpath_space_free(&sp);
    diag_list_free(&d);
    pin_set_free(&pins);
    test_unload(&l);
}

TEST(pin_generation_covers_the_context)
{
    struct loaded l;
    if (!CHECK(test_load_string(numbers, &l)))
        return;
    struct pin_set pins = PIN_SET_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(pin_set_add(&pins, l.graph, "A_3", &d));
    struct gen_options o;
    gen_options_default(&o);
    o.pins = &pins;
    char *error;
    struct generator *gen = gen_new(l.graph, &o, &error);
    gen_run(gen);
    /* The agenda: the 3 2-paths under A_3, all covered in its context. */
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 2);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    for (size_t i = 0; i < gen->ninputs; i++)
        pin_add_kpaths(&pins, input_tree(gen, i), &set);
    CHECK_INT(set.size, 3);
    CHECK_INT(gen->nunreachable, 0);
    /* The "1" must appear after the "." somewhere. */
    bool one_after_dot = false;
    for (size_t i = 0; i < gen->ninputs; i++) {
        const char *dot = strchr(gen->inputs[i].text, '.');
        one_after_dot = one_after_dot || (dot && strchr(dot, '1'));
    }
    CHECK(one_after_dot);
    kpath_set_free(&set);
    kpath_space_free(&sp);
    gen_free(gen);
    pin_set_free(&pins);
    diag_list_free(&d);
    test_unload(&l);
}

TEST(pin_generation_in_expr_reaches_parenthesized_right_operands)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct pin_set pins = PIN_SET_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(pin_set_add(&pins, l.graph, "UnaryExpr_15 AddExpr_36", &d));
    for (int c = GEN_CLOSE_SHORTEST; c <= GEN_CLOSE_GREEDY; c++) {
        struct gen_options o;
        gen_options_default(&o);
        o.pins = &pins;
        o.closeoff = (enum gen_closeoff)c;
        char *error;
        struct generator *gen = gen_new(l.graph, &o, &error);
        gen_run(gen);
        struct kpath_space sp;
        kpath_space_init(&sp, l.graph, 2);
        struct kpath_set set;
        kpath_set_init(&set, &sp);
        bool all_in_context = true;
        for (size_t i = 0; i < gen->ninputs; i++) {
            pin_add_kpaths(&pins, input_tree(gen, i), &set);
            /* Every input has an operator of MultExpr followed by "(". */
            const char *s = gen->inputs[i].text;
            all_in_context = all_in_context && (strstr(s, "*(") || strstr(s, "/(") ||
                                                strstr(s, "%("));
        }
        CHECK(all_in_context);
        CHECK_INT(set.size, 120);
        CHECK_INT(gen->nunreachable, 0);
        kpath_set_free(&set);
        kpath_space_free(&sp);
        gen_free(gen);
    }
    pin_set_free(&pins);
    diag_list_free(&d);
    test_unload(&l);
}

TEST(pin_forest_coverage_in_context_agrees_with_trees)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    static const char *const pin_texts[] = {"UnaryExpr_15 AddExpr_36", "Identifier_16",
                                            "AddExpr_0 MultExpr_7 UnaryExpr_8"};
    for (size_t p = 0; p < sizeof pin_texts / sizeof pin_texts[0]; p++) {
        struct pin_set pins = PIN_SET_INIT;
        struct diag_list d = DIAG_LIST_INIT;
        CHECK(pin_set_add(&pins, l.graph, pin_texts[p], &d));
        /* Random inputs, and a k-path suite for the pin (they reach its
         * context); with one parse tree, forest and tree agree exactly. */
        for (int strategy = GEN_KPATH; strategy <= GEN_RANDOM; strategy++) {
            struct gen_options o;
            gen_options_default(&o);
            o.strategy = (enum gen_strategy)strategy;
            o.k = 3;
            o.count = strategy == GEN_KPATH ? 0 : 40;
            o.pins = strategy == GEN_KPATH ? &pins : NULL;
            char *error;
            struct generator *gen = gen_new(l.graph, &o, &error);
            gen_run(gen);
            struct kpath_space sp[3];
            struct kpath_set from_trees[3], from_forests[3];
            struct kpath_set *ptrs[3];
            for (int j = 0; j < 3; j++) {
                kpath_space_init(&sp[j], l.graph, (uint32_t)j + 1);
                kpath_set_init(&from_trees[j], &sp[j]);
                kpath_set_init(&from_forests[j], &sp[j]);
                ptrs[j] = &from_forests[j];
            }
            for (size_t i = 0; i < gen->ninputs; i++) {
                struct forest *f = parse_text(l.graph, "in", gen->inputs[i].text,
                                              gen->inputs[i].len, NULL, &d);
                if (!CHECK(f != NULL))
                    continue;
                /* x*(++(x)) is ambiguous ("++" or "+" "+"): its forest holds
                 * more than the generated tree; check it contains it. */
                bool infinite;
                if (forest_count_trees(f, &infinite) > 1) {
                    struct kpath_set tree, forest;
                    kpath_set_init(&tree, &sp[2]);
                    kpath_set_init(&forest, &sp[2]);
                    struct kpath_set *fp = &forest;
                    pin_add_kpaths(&pins, input_tree(gen, i), &tree);
                    forest_add_kpaths_pinned(f, &fp, 1, &pins);
                    uint64_t before = forest.size;
                    kpath_set_union(&forest, &tree);
                    CHECK_INT(forest.size, before);
                    kpath_set_free(&tree);
                    kpath_set_free(&forest);
                } else {
                    for (int j = 0; j < 3; j++)
                        pin_add_kpaths(&pins, input_tree(gen, i), &from_trees[j]);
                    forest_add_kpaths_pinned(f, ptrs, 3, &pins);
                }
                forest_free(f);
            }
            for (int j = 0; j < 3; j++) {
                uint64_t trees = from_trees[j].size;
                CHECK_INT(from_forests[j].size, trees);
                kpath_set_union(&from_forests[j], &from_trees[j]);
                CHECK_INT(from_forests[j].size, trees);
                kpath_set_free(&from_trees[j]);
                kpath_set_free(&from_forests[j]);
                kpath_space_free(&sp[j]);
            }
            /* Under Identifier_16 no 3-path starts (Identifier -> "x" is two
             * levels): the suite is empty exactly when there is nothing to cover. */
            if (strategy == GEN_KPATH)
                CHECK((gen->ninputs > 0) == (pin_count_under(&pins, &gen->space) > 0));
            gen_free(gen);
        }
        diag_list_free(&d);
        pin_set_free(&pins);
    }
    test_unload(&l);
}
