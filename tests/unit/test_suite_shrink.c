/* suite_shrink and cover's last pass (issue 10, point 4): hand-worked
 * shrinkings of small suites, each edit kind on its own; and the default
 * suite (greedy, drop redundant, suite_min_run) at full coverage on every
 * bundled grammar for k = 1..3, checked from the trees afresh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "gen/gen.h"
#include "harness.h"
#include "gen/size_table.h"
#include "base/strbuf.h"
#include "suite/suite_min.h"
#include "suite/suite_shrink.h"
#include "suite/suite_split.h"

static struct generator *new_gen(const struct graph *g, uint32_t k)
{
    struct gen_options o;
    gen_options_default(&o);
    o.k = k;
    char *error = NULL;
    struct generator *gen = gen_new(g, &o, &error);
    CHECK(gen != NULL);
    free(error);
    return gen;
}

/* An input made from derivation_replay decisions (pre-order). */
static void make_input(const struct graph *g, const uint32_t *decisions, size_t n,
                       struct gen_input *in)
{
    memset(in, 0, sizeof *in);
    struct derivation t;
    derivation_init(&t, g, 0);
    size_t bad = 0;
    CHECK_INT(derivation_replay(&t, decisions, n, &bad), (long long)n);
    CHECK(derivation_complete(&t));
    derivation_pack(&t, &in->tree);
    struct strbuf sb = STRBUF_INIT;
    derivation_text(&t, &sb);
    in->text = strbuf_detach(&sb, &in->len);
    in->depth = derivation_depth(&t);
    derivation_free(&t);
}

/* Shrink the inputs given as decision lists (each ended by UINT32_MAX) and
 * compare the texts with `want`. */
static void check_shrink(const char *grammar, uint32_t k, const uint32_t *const *decisions,
                         size_t n, const char *const *want, uint64_t kept)
{
    struct loaded l;
    if (!CHECK(test_load_string(grammar, &l)))
        return;
    struct generator *gen = new_gen(l.graph, k);
    struct size_table *sizes = size_table_new(l.graph, gen->opts.max_depth);
    struct gen_input *in = calloc(n, sizeof *in);
    for (size_t i = 0; i < n; i++) {
        size_t m = 0;
        while (decisions[i][m] != UINT32_MAX)
            m++;
        make_input(l.graph, decisions[i], m, &in[i]);
    }
    struct suite_shrink_stats st;
    suite_shrink(gen, sizes, in, n, SUITE_SHRINK_BUDGET, &st);
    for (size_t i = 0; i < n; i++) {
        CHECK_STR(in[i].text, want[i]);
        /* The packed tree is the text's. */
        struct derivation t;
        derivation_unpack(&in[i].tree, l.graph, &t);
        struct strbuf sb = STRBUF_INIT;
        derivation_text(&t, &sb);
        CHECK_STR(strbuf_str(&sb), want[i]);
        CHECK_INT(in[i].len, strlen(want[i]));
        strbuf_free(&sb);
        derivation_free(&t);
        gen_input_free(&in[i]);
    }
    CHECK_INT(st.kept, kept);
    CHECK(!st.budget_spent);
    free(in);
    size_table_free(sizes);
    gen_free(gen);
    test_unload(&l);
}

#define END UINT32_MAX

/* start := S; S := "a" S | "b".  Ids: S_0, alt 1, cat 2, "b"_3, "a"_4,
 * S_5.  The 2-paths: S_0 and S_5 each to "a", S_5, "b" (6).  "aaab" holds
 * S_0->"a", S_0->S_5, S_5->"a", S_5->S_5, S_5->"b"; "b" holds S_0->"b".
 * Hoisting the alt below the first S_5 to the top gives "aab": the same five
 * (S_5->S_5 needs two a's, so "ab" would lose it).  Every other edit loses
 * a 2-path only "aaab" holds: "aab", "b"; one edit kept. */
TEST(suite_shrink_hoists_a_shorter_recursion)
{
    static const uint32_t aaab[] = {0, 0, 0, 1, END}, b[] = {1, END};
    const uint32_t *const d[] = {aaab, b};
    const char *const want[] = {"aab", "b"};
    check_shrink("start := S;\nS := \"a\" S | \"b\";\n", 2, d, 2, want, 1);
}

/* start := S; S := "a" S | "bb" | "c".  Ids: S_0, alt 1, cat 2, "bb"_3,
 * "c"_4, "a"_5, S_6.  1-paths: S_0, "bb", "c", "a", S_6.  Suite "abb"
 * (S_0, "a", S_6, "bb"), "c" (S_0, "c"), "bb" (S_0, "bb").  "abb" first
 * (longest): its alt and the alt below S_6 would lose "a" and S_6; the cat
 * "a" S_6 takes its smallest subtree "ac" ("bb" is still held by the third
 * input): kept.  "c" is the smallest input; "bb" cannot become "c" (the
 * only "bb" left).  "ac", "c", "bb": 5 bytes instead of 6. */
TEST(suite_shrink_replaces_a_subtree_by_its_smallest)
{
    static const uint32_t abb[] = {0, 1, END}, c[] = {2, END}, bb[] = {1, END};
    const uint32_t *const d[] = {abb, c, bb};
    const char *const want[] = {"ac", "c", "bb"};
    check_shrink("start := S;\nS := \"a\" S | \"bb\" | \"c\";\n", 1, d, 3, want, 1);
}

/* The smallest subtree keeps the characters of the subtree it replaces
 * (tree_edit keep_classes): start := "(" F ")"; F := [0-9]+ "." [0-9]+.
 * 1-paths: "(", F, the two classes, ".", ")".  "(12.34)": the root's
 * smallest subtree "(d.d)" holds every 1-path; its first class takes the
 * first character of the first class's instances, 1, the second 3:
 * "(1.3)" (with each class's first character, "(0.0)": every number of a
 * suite integral, what cJSON's compare_double never sees). */
TEST(suite_shrink_smallest_keeps_the_replaced_class_characters)
{
    static const uint32_t n[] = {2, '1', '2', 2, '3', '4', END};
    const uint32_t *const d[] = {n};
    const char *const want[] = {"(1.3)"};
    check_shrink("start := \"(\" F \")\";\nF := [0-9]+ \".\" [0-9]+;\n", 1, d, 1, want, 1);
}

/* start := "(" I* ")"; I := "a" | "b".  1-paths: "(", I, "a", "b", ")".
 * "(aab)": leaving out the last repetition loses "b"; the second "a" can
 * go ("(ab)"); then neither can: one edit kept. */
TEST(suite_shrink_leaves_out_repetitions)
{
    static const uint32_t aab[] = {3, 0, 0, 1, END};
    const uint32_t *const d[] = {aab};
    const char *const want[] = {"(ab)"};
    check_shrink("start := \"(\" I* \")\";\nI := \"a\" | \"b\";\n", 1, d, 1, want, 1);
}

/* A suite whose every k-path only one input holds stays as it is: "ab" and
 * "aab" with k = 3 in start := S; S := "a" S | "b".  "ab" holds the 3-path
 * S_0->S_5->"b" alone; "aab" holds S_0->S_5->"a", S_0->S_5->S_5 and
 * S_5->S_5->"b", none of them in "ab": no edit is kept. */
TEST(suite_shrink_keeps_what_only_one_input_holds)
{
    static const uint32_t ab[] = {0, 1, END}, aab[] = {0, 0, 1, END};
    const uint32_t *const d[] = {ab, aab};
    const char *const want[] = {"ab", "aab"};
    check_shrink("start := S;\nS := \"a\" S | \"b\";\n", 3, d, 2, want, 0);
}

/* Split the inputs given as decision lists (suite_split) and compare the
 * texts with `want` (nwant of them); `split`: inputs split. */
static void check_split(const char *grammar, uint32_t k, const uint32_t *const *decisions,
                        size_t n, const char *const *want, size_t nwant, size_t split)
{
    struct loaded l;
    if (!CHECK(test_load_string(grammar, &l)))
        return;
    struct generator *gen = new_gen(l.graph, k);
    struct gen_input *in = calloc(n, sizeof *in);
    for (size_t i = 0; i < n; i++) {
        size_t m = 0;
        while (decisions[i][m] != UINT32_MAX)
            m++;
        make_input(l.graph, decisions[i], m, &in[i]);
    }
    CHECK_INT(suite_split(gen, &in, &n), split);
    if (CHECK_INT(n, nwant))
        for (size_t i = 0; i < n; i++) {
            CHECK_STR(in[i].text, want[i]);
            struct derivation t;
            derivation_unpack(&in[i].tree, l.graph, &t);
            struct strbuf sb = STRBUF_INIT;
            derivation_text(&t, &sb);
            CHECK_STR(strbuf_str(&sb), want[i]);
            strbuf_free(&sb);
            derivation_free(&t);
        }
    for (size_t i = 0; i < n; i++)
        gen_input_free(&in[i]);
    free(in);
    gen_free(gen);
    test_unload(&l);
}

/* start := L*; L := "a" | "bc".  1-paths: L, "a", "bc".  "abca" is all one
 * repetition: its parts "a", "bc", "a" are 4 bytes, as many as the input;
 * the second "a" holds nothing the first does not: "a", "bc".  With "a" in
 * the suite too, both "a" parts hold nothing of their own: "bc", "a". */
TEST(suite_split_splits_a_list_into_its_parts)
{
    static const char grammar[] = "start := L*;\nL := \"a\" | \"bc\";\n";
    static const uint32_t abca[] = {3, 0, 1, 0, END}, a[] = {1, 0, END};
    const uint32_t *const one[] = {abca};
    const char *const want_one[] = {"a", "bc"};
    check_split(grammar, 1, one, 1, want_one, 2, 1);
    const uint32_t *const two[] = {abca, a};
    const char *const want_two[] = {"bc", "a"};
    check_split(grammar, 1, two, 2, want_two, 2, 1);
}

/* A list with text around it is not split (every part would copy "[" and
 * "]"), nor one that needs two repetitions at least. */
TEST(suite_split_leaves_what_would_cost_bytes)
{
    static const uint32_t abc[] = {2, 0, 1, END};
    const uint32_t *const d[] = {abc};
    const char *const bracketed[] = {"[abc]"};
    check_split("start := \"[\" L* \"]\";\nL := \"a\" | \"bc\";\n", 1, d, 1, bracketed, 1,
                0);
    const char *const two[] = {"abc"};
    check_split("start := L{2,};\nL := \"a\" | \"bc\";\n", 1, d, 1, two, 1, 0);
}

static const char *const bundled[] = {
    "grammars/expr.ebnf", "grammars/digits.ebnf", "grammars/fsm.ebnf",
    "grammars/config.ebnf", "grammars/arith.ebnf", "grammars/json.ebnf",
    "grammars/csv.ebnf", "grammars/url.ebnf", "grammars/ini.ebnf",
};

/* The default suite of `kpath cover -k k` (greedy close-off, redundant
 * inputs dropped, then the last pass), or another close-off's suite. */
static struct generator *cover_packed(const struct graph *g, uint32_t k, enum gen_closeoff c,
                                      uint32_t pack_size, struct suite_min_report *rep)
{
    struct gen_options o;
    gen_options_default(&o);
    o.pack_size = pack_size;
    o.k = k;
    o.closeoff = c;
    o.drop_redundant = true;
    char *error = NULL;
    struct generator *gen = gen_new(g, &o, &error);
    free(error);
    if (!CHECK(gen != NULL))
        return NULL;
    gen_run(gen);
    suite_min_run(gen, rep);
    return gen;
}

/* The default packing bound (GEN_DEFAULT_PACK_SIZE). */
static struct generator *cover(const struct graph *g, uint32_t k, enum gen_closeoff c,
                               struct suite_min_report *rep)
{
    return cover_packed(g, k, c, GEN_DEFAULT_PACK_SIZE, rep);
}

static uint64_t suite_bytes(const struct generator *gen)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < gen->ninputs; i++)
        sum += gen->inputs[i].len;
    return sum;
}

/* Never lose coverage: every default suite covers every k-path of the
 * bundled grammars (computed from the rebuilt trees), each input's text and
 * depth are its tree's, within the limits, and the pass never has more
 * inputs or bytes than greedy's suite. */
TEST(suite_min_default_suites_keep_full_coverage)
{
    for (size_t i = 0; i < sizeof bundled / sizeof bundled[0]; i++) {
        struct loaded l;
        if (!CHECK(test_load_file(bundled[i], &l)))
            continue;
        for (uint32_t k = 1; k <= 3; k++) {
            struct suite_min_report rep;
            struct generator *gen = cover(l.graph, k, GEN_CLOSE_GREEDY, &rep);
            if (!gen)
                continue;
            CHECK_INT(rep.outcome, SUITE_MIN_DONE);
            struct kpath_space sp;
            kpath_space_init(&sp, l.graph, k);
            struct kpath_set set;
            kpath_set_init(&set, &sp);
            for (size_t j = 0; j < gen->ninputs; j++) {
                struct derivation t;
                gen_input_tree(gen, j, &t);
                CHECK(derivation_complete(&t));
                derivation_add_kpaths(&t, &set);
                struct strbuf sb = STRBUF_INIT;
                derivation_text(&t, &sb);
                CHECK(sb.len == gen->inputs[j].len &&
                      memcmp(strbuf_str(&sb), gen->inputs[j].text, sb.len) == 0);
                CHECK_INT(derivation_depth(&t), gen->inputs[j].depth);
                CHECK(gen->inputs[j].depth <= GEN_DEFAULT_MAX_DEPTH);
                CHECK(t.len <= GEN_DEFAULT_MAX_SIZE);
                strbuf_free(&sb);
                derivation_free(&t);
            }
            if (!CHECK_INT(set.size, sp.total))
                fprintf(stderr, "  %s k=%u\n", bundled[i], k);
            CHECK_INT(gen->covered.size, sp.total);
            /* More inputs only where lists were split (suite_split.h). */
            CHECK(rep.unsplit_inputs <= rep.before_inputs);
            CHECK(rep.split || rep.after_inputs == rep.unsplit_inputs);
            CHECK(rep.after_bytes <= rep.before_bytes);
            CHECK_INT(rep.after_bytes, suite_bytes(gen));
            kpath_set_free(&set);
            kpath_space_free(&sp);
            gen_free(gen);
        }
        test_unload(&l);
    }
}

/* tests/grammars/ok/tight-candidates.ebnf, k = 2 (its comment works the
 * suite out): 3 inputs and 12 bytes, and no suite does better.  Inputs: an
 * input's A_0 takes one of its three alternatives, and the 2-paths from A_0
 * of each (A_0->A_2; A_0->"cc" and A_0->A_7; A_0->"zz") are held by no
 * other.  Bytes: a literal instance has one nearest symbolic ancestor, so
 * the six 2-paths A_0, A_2, A_7 -> "cc", "zz" need six literal instances
 * of 2 bytes.  (Before the shrinking: 4 inputs of 16 bytes.) */
TEST(suite_min_reaches_the_smallest_suite_of_tight_candidates)
{
    struct loaded l;
    if (!CHECK(test_load_file("tests/grammars/ok/tight-candidates.ebnf", &l)))
        return;
    struct suite_min_report rep;
    struct generator *gen = cover(l.graph, 2, GEN_CLOSE_GREEDY, &rep);
    if (gen) {
        CHECK_INT(gen->ninputs, 3);
        CHECK_INT(suite_bytes(gen), 12);
        CHECK_INT(gen->covered.size, 12);
    }
    gen_free(gen);
    test_unload(&l);
}

/* expr, k = 2: greedy packing unbounded (--pack-size 0, the default
 * before issue 33) has the fewest inputs any suite can have
 * and no more bytes than the shortest close-off's (54 inputs, 188 bytes;
 * before the shrinking the default had 6 inputs of 240 bytes).  At least 3
 * inputs: the root AddExpr_0 takes one alternative per input, and
 * AddExpr_0 -> MultExpr_2, -> "+"_10 and -> "-"_11 each need their own.  At
 * least 76 bytes: each of the 64 2-paths that end at a literal needs a
 * literal instance of its own (an instance has one nearest symbolic
 * ancestor), and their literals have 76 characters. */
TEST(suite_min_expr_k2_has_the_fewest_inputs_and_no_more_bytes_than_shortest)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct suite_min_report rep, none;
    struct generator *def = cover_packed(l.graph, 2, GEN_CLOSE_GREEDY, 0, &rep);
    struct generator *shortest = cover(l.graph, 2, GEN_CLOSE_SHORTEST, &none);
    /* The default, packing up to 60 tree nodes: more inputs, still every
     * 2-path (125) and no more bytes than shortest's. */
    struct generator *packed = cover(l.graph, 2, GEN_CLOSE_GREEDY, &rep);
    if (def && shortest && packed) {
        CHECK_INT(none.outcome, SUITE_MIN_OFF);
        CHECK(suite_bytes(def) <= suite_bytes(shortest));
        CHECK(suite_bytes(def) >= 76);
        CHECK_INT(def->ninputs, 3);
        CHECK(suite_bytes(packed) <= suite_bytes(shortest));
        CHECK(suite_bytes(packed) >= 76);
        CHECK_INT(packed->covered.size, 125);
        CHECK_INT(packed->space.total, 125);
    }
    gen_free(packed);
    gen_free(def);
    gen_free(shortest);
    test_unload(&l);
}

/* start := E; E := "x" | "y" | "(" E E ")".  Ids: E_0, alt 1, "x"_2,
 * "y"_3, cat 4, "("_5, E_6, E_7, ")"_8; 18 2-paths (E_0, E_6, E_7 each to
 * "x", "y", "(", E_6, E_7, ")").  Suite: "((xx)(xx))" (E_0 to "(", E_6,
 * E_7, ")"; E_6 and E_7 to "(", E_6, E_7, ")", "x"), "(yy)" (E_0 to "(",
 * E_6, E_7, ")"; E_6 and E_7 to "y"), "x" and "y" (E_0 to each).  Donors
 * shortest first: "y" and "x" hold E_0->"y" and E_0->"x" alone, and a
 * graft never keeps a donor's top (the host's root has the host's own
 * 2-paths), so they stay.  "(yy)": its alt in place of the host's alt below
 * its first E_6 ("(xx)") gives "((yy)(xx))", which still has E_6->"x" and
 * E_7->"x" (the second group) and now E_6->"y" and E_7->"y": the donor
 * goes.  3 inputs of 12 bytes instead of 4 of 16. */
TEST(suite_graft_moves_an_input_into_another)
{
    struct loaded l;
    if (!CHECK(test_load_string("start := E;\nE := \"x\" | \"y\" | \"(\" E E \")\";\n", &l)))
        return;
    struct generator *gen = new_gen(l.graph, 2);
    static const uint32_t h[] = {2, 2, 0, 0, 2, 0, 0}, b[] = {2, 1, 1}, x[] = {0}, y[] = {1};
    struct gen_input in[4];
    make_input(l.graph, h, 7, &in[0]);
    make_input(l.graph, b, 3, &in[1]);
    make_input(l.graph, x, 1, &in[2]);
    make_input(l.graph, y, 1, &in[3]);
    CHECK_STR(in[0].text, "((xx)(xx))");
    size_t n = 4;
    struct suite_shrink_stats st;
    suite_graft(gen, in, &n, SUITE_SHRINK_BUDGET, &st);
    CHECK_INT(st.kept, 1);
    if (CHECK_INT(n, 3)) {
        CHECK_STR(in[0].text, "((yy)(xx))");
        CHECK_INT(in[0].len, 10);
        CHECK_STR(in[1].text, "x");
        CHECK_STR(in[2].text, "y");
    }
    for (size_t i = 0; i < n; i++)
        gen_input_free(&in[i]);
    gen_free(gen);
    test_unload(&l);
}
