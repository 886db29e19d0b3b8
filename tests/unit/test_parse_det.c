/* parse_det (the determinism analysis) and parse_kpaths' deterministic fast
 * path.  The chains are worked out by hand from the definition in
 * parse_det.h on small grammars; the fast path is checked by what it
 * counts (sets and items it stood for, derived below from the grammar and
 * the text) and by giving exactly what the full Earley sets give (k-paths
 * for k = 1 .. 3, expansions, tree counts, items made) with the fast path
 * off (parse_options.no_fast_path).  Its agreement with the forest on every
 * sample and on random grammars is test_parse_kpaths.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "harness.h"
#include "parse/lookahead.h"
#include "parse/parse.h"
#include "parse/parse_det.h"
#include "base/strbuf.h"

static uint32_t rule_node(const struct loaded *l, const char *name)
{
    return l->graph->rule_node[grammar_find_rule(l->grammar, name)];
}

static uint32_t child(const struct loaded *l, uint32_t node, uint32_t i)
{
    return graph_children(l->graph, node)[i];
}

/* Chain `id` is exactly nodes[0 .. k) and leaf. */
static bool chain_is(const struct parse_det *d, uint32_t id, const uint32_t *nodes, uint32_t k,
                     uint32_t leaf)
{
    if (id == PARSE_DET_NONE)
        return false;
    uint32_t got_k, got_leaf;
    const uint32_t *got = parse_det_nodes(d, id, &got_k, &got_leaf);
    return got_k == k && got_leaf == leaf &&
           (k == 0 || memcmp(got, nodes, k * sizeof *nodes) == 0);
}

TEST(parse_det_chains_of_a_string_body)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := \"\\\"\" C* \"\\\"\";\nC := U | \"\\\\\" E;\n"
                                "U := [a-z];\nE := \"n\" | \"t\";\n",
                                &l)))
        return;
    struct lookahead la;
    lookahead_init(&la, l.graph);
    struct parse_det *d = parse_det_new(l.graph, &la);
    uint32_t q = child(&l, rule_node(&l, "S"), 1);
    uint32_t ref_c = child(&l, q, 0), alt_c = rule_node(&l, "C");
    uint32_t ref_u = child(&l, alt_c, 0), cls = rule_node(&l, "U");
    CHECK(l.graph->nodes[q].kind == NODE_QUANT && child(&l, ref_c, 0) == alt_c &&
          child(&l, ref_u, 0) == cls);
    /* 'a': C's reference, its alternation, U's reference (the escape's
     * sequence cannot start with 'a'), then [a-z]. */
    uint32_t a = parse_det_chain(d, ref_c, 'a');
    CHECK(chain_is(d, a, (uint32_t[]){ref_c, alt_c, ref_u}, 3, cls));
    CHECK_INT(parse_det_chain(d, ref_c, 'z'), a); /* the same chain, interned */
    CHECK_INT(parse_det_count(d), 1);
    /* '\\': the escape's sequence survives, which is not a unit node;
     * '"' and a character >= 128: nothing survives. */
    CHECK_INT(parse_det_chain(d, ref_c, '\\'), PARSE_DET_NONE);
    CHECK_INT(parse_det_chain(d, ref_c, '"'), PARSE_DET_NONE);
    CHECK_INT(parse_det_chain(d, ref_c, 0xE9), PARSE_DET_NONE);
    CHECK_INT(parse_det_count(d), 1);
    /* From the alternation: two unit nodes; from the class itself: none. */
    CHECK(chain_is(d, parse_det_chain(d, alt_c, 'q'), (uint32_t[]){alt_c, ref_u}, 2, cls));
    CHECK(chain_is(d, parse_det_chain(d, cls, 'q'), NULL, 0, cls));
    CHECK_INT(parse_det_chain(d, cls, 'Q'), PARSE_DET_NONE);
    CHECK_INT(parse_det_count(d), 3);
    /* What follows every node of the first chain: C's FIRST (a-z and the
     * backslash, as C repeats) and the closing quote. */
    CHECK(parse_det_followed_by(d, a, 'a') && parse_det_followed_by(d, a, '\\') &&
          parse_det_followed_by(d, a, '"'));
    CHECK(!parse_det_followed_by(d, a, '!') && !parse_det_followed_by(d, a, 0xE9));
    parse_det_free(d);
    lookahead_free(&la);
    test_unload(&l);
}

TEST(parse_det_refuses_what_is_not_one_chain)
{
    struct loaded l;
    /* Two alternatives match "a": not deterministic. */
    if (CHECK(test_load_string("S := X*;\nX := A | B;\nA := \"a\";\nB := \"a\";\n", &l))) {
        struct lookahead la;
        lookahead_init(&la, l.graph);
        struct parse_det *d = parse_det_new(l.graph, &la);
        uint32_t ref_x = child(&l, rule_node(&l, "S"), 0);
        CHECK_INT(parse_det_chain(d, ref_x, 'a'), PARSE_DET_NONE);
        CHECK_INT(parse_det_count(d), 0);
        parse_det_free(d);
        lookahead_free(&la);
        test_unload(&l);
    }
    /* Literals: a one-character one is a leaf of a chain, a longer one
     * starting with the character is not (it may or may not match). */
    if (CHECK(test_load_string("S := (\" \" | \"\\t\" | \"ab\")* \"x\";\n", &l))) {
        struct lookahead la;
        lookahead_init(&la, l.graph);
        struct parse_det *d = parse_det_new(l.graph, &la);
        uint32_t alt = child(&l, child(&l, rule_node(&l, "S"), 0), 0);
        CHECK(l.graph->nodes[alt].kind == NODE_ALT);
        CHECK(chain_is(d, parse_det_chain(d, alt, ' '), (uint32_t[]){alt}, 1, child(&l, alt, 0)));
        CHECK(chain_is(d, parse_det_chain(d, alt, '\t'), (uint32_t[]){alt}, 1, child(&l, alt, 1)));
        CHECK_INT(parse_det_chain(d, alt, 'a'), PARSE_DET_NONE);
        CHECK_INT(parse_det_chain(d, alt, 'x'), PARSE_DET_NONE);
        CHECK_INT(parse_det_count(d), 2);
        parse_det_free(d);
        lookahead_free(&la);
        test_unload(&l);
    }
    /* A nullable node on the way: its empty completion is another way on. */
    if (CHECK(test_load_string("S := N* \"x\";\nN := \"a\" | \"\";\n", &l))) {
        struct lookahead la;
        lookahead_init(&la, l.graph);
        struct parse_det *d = parse_det_new(l.graph, &la);
        uint32_t ref_n = child(&l, child(&l, rule_node(&l, "S"), 0), 0);
        CHECK(l.graph->nodes[ref_n].kind == NODE_REF);
        CHECK_INT(parse_det_chain(d, ref_n, 'a'), PARSE_DET_NONE);
        parse_det_free(d);
        lookahead_free(&la);
        test_unload(&l);
    }
    /* Characters >= 128 are asked without a memo, with the same answers. */
    if (CHECK(test_load_string("S := [^\"]* \"\\\"\";\n", &l))) {
        struct lookahead la;
        lookahead_init(&la, l.graph);
        struct parse_det *d = parse_det_new(l.graph, &la);
        uint32_t cls = child(&l, child(&l, rule_node(&l, "S"), 0), 0);
        uint32_t e = parse_det_chain(d, cls, 0xE9);
        CHECK(chain_is(d, e, NULL, 0, cls));
        CHECK_INT(parse_det_chain(d, cls, 0x4E2D), e);
        CHECK_INT(parse_det_chain(d, cls, 'e'), e);
        CHECK_INT(parse_det_chain(d, cls, '"'), PARSE_DET_NONE);
        parse_det_free(d);
        lookahead_free(&la);
        test_unload(&l);
    }
}

/* parse_kpaths with and without the fast path: the same k-paths (k = 1 ..
 * 3), expansions, trees and items made; *fast gets the statistics with it. */
static bool fast_and_full(const struct graph *g, const char *text, size_t len,
                          struct parse_stats *fast, uint64_t *trees)
{
    struct kpath_space sp[3];
    struct kpath_set sets[2][3];
    struct kpath_set *ptrs[2][3];
    struct expansion_set exp[2];
    struct parse_stats st[2];
    uint64_t tr[2] = {0, 0};
    bool inf[2] = {false, false}, got[2];
    for (uint32_t k = 1; k <= 3; k++)
        kpath_space_init(&sp[k - 1], g, k);
    for (int side = 0; side < 2; side++) {
        for (uint32_t k = 1; k <= 3; k++) {
            kpath_set_init(&sets[side][k - 1], &sp[k - 1]);
            ptrs[side][k - 1] = &sets[side][k - 1];
        }
        expansion_set_init(&exp[side], g);
        struct parse_options po = {.stats = &st[side], .no_fast_path = side == 1};
        struct diag_list d = DIAG_LIST_INIT;
        got[side] = parse_kpaths(g, "t", text, len, &po, ptrs[side], 3, &exp[side], &tr[side],
                                 &inf[side], &d);
        diag_list_free(&d);
    }
    bool ok = got[0] && got[1] && tr[0] == tr[1] && inf[0] == inf[1] &&
              exp[0].count == exp[1].count && st[0].items_made == st[1].items_made &&
              st[1].sets_skipped == 0 && st[1].items_skipped == 0;
    for (uint32_t k = 1; k <= 3; k++) {
        uint64_t n = sets[1][k - 1].size;
        kpath_set_union(&sets[1][k - 1], &sets[0][k - 1]);
        ok = ok && sets[0][k - 1].size == n && sets[1][k - 1].size == n && (k > 1 || n > 0);
    }
    for (uint32_t n = 0; ok && n < g->nnodes; n++) {
        uint32_t alternatives = g->nodes[n].kind == NODE_ALT ? g->nodes[n].nchildren : 1;
        for (uint32_t i = 0; i < alternatives; i++)
            ok = ok && expansion_has(&exp[0], n, i) == expansion_has(&exp[1], n, i);
    }
    if (!ok)
        fprintf(stderr, "  fast: %s, %llu trees, %zu items; full: %s, %llu trees, %zu items\n",
                got[0] ? "parsed" : "failed", (unsigned long long)tr[0], st[0].items_made,
                got[1] ? "parsed" : "failed", (unsigned long long)tr[1], st[1].items_made);
    *fast = st[0];
    *trees = tr[0];
    for (int side = 0; side < 2; side++) {
        for (uint32_t k = 1; k <= 3; k++)
            kpath_set_free(&sets[side][k - 1]);
        expansion_set_free(&exp[side]);
    }
    for (uint32_t k = 1; k <= 3; k++)
        kpath_space_free(&sp[k - 1]);
    return ok;
}

/* A JSON string of n letters, "aaa...a": set 1 (after the opening quote)
 * holds char*'s prediction X and the chain char -> alternation ->
 * unescaped -> class predicted from it, and one leaf pending.  Each of the
 * sets 2 .. n then consumes an 'a' the same way while the next character is
 * an 'a' too (it cannot follow char*, so char* does not complete): n - 1
 * sets stood for, 4 items each (char*'s item one further and the chain's
 * three predictions), of which the last set's 4 are written out.  Set n + 1
 * (before the closing quote) is built.  So the items built do not grow with
 * n: the same for 1,000 and 3,000 letters. */
TEST(parse_fast_path_engages_on_a_long_json_string)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    size_t built[2];
    size_t lengths[2] = {1000, 3000};
    for (int i = 0; i < 2; i++) {
        size_t n = lengths[i];
        char *text = malloc(n + 2);
        text[0] = text[n + 1] = '"';
        memset(text + 1, 'a', n);
        struct parse_stats st;
        uint64_t trees;
        CHECK(fast_and_full(l.graph, text, n + 2, &st, &trees));
        CHECK_INT(trees, 1);
        CHECK_INT(st.sets_skipped, n - 1);
        CHECK_INT(st.items_skipped, 4 * (n - 1) - 4);
        built[i] = st.items_made - st.items_skipped;
        free(text);
    }
    CHECK_INT(built[0], built[1]);
    test_unload(&l);
}

/* Determinism ends mid-input and comes back: 10 letters, an escape \n,
 * 10 letters.  After the opening quote, sets 2 .. 10 are stood for; the
 * backslash at 11 starts the escape's sequence (no unit chain), so sets 11
 * (the last letter before it), 12 and 13 are built; after the 'n', char*'s
 * item has advanced again and sets 14 .. 22 are stood for; the closing
 * quote at 23 completes char*.  18 in all. */
TEST(parse_fast_path_stops_and_resumes_at_an_escape)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    const char *text = "\"aaaaaaaaaa\\naaaaaaaaaa\"";
    struct parse_stats st;
    uint64_t trees;
    CHECK(fast_and_full(l.graph, text, strlen(text), &st, &trees));
    CHECK_INT(trees, 1);
    CHECK_INT(st.sets_skipped, 18);
    CHECK_INT(st.items_skipped, 18 * 4 - 2 * 4);
    test_unload(&l);
}

/* An ambiguous grammar: each "a" is an A or a B (two trees for one "a"),
 * "b" is one chain (the alternation, then the literal).  On 10 b's, an a,
 * 10 b's: sets 1 .. 9 are stood for (the 'a' at 10 has two ways on), sets
 * 10 and 11 are built (two leaves pending at 11), then 12 .. 20 are stood
 * for, the end of the input (21) is built.  The tree count (2) travels with
 * the quantifier's item through the sets stood for. */
TEST(parse_fast_path_falls_back_on_ambiguity)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (A | B | \"b\")*;\nA := \"a\";\nB := \"a\";\n", &l)))
        return;
    const char *text = "bbbbbbbbbbabbbbbbbbbb";
    struct parse_stats st;
    uint64_t trees;
    CHECK(fast_and_full(l.graph, text, strlen(text), &st, &trees));
    CHECK_INT(trees, 2);
    CHECK_INT(st.sets_skipped, 18);
    CHECK_INT(st.items_skipped, 18 * 2 - 2 * 2);
    /* Two parses alive all along (L's and R's letters): never one way on. */
    test_unload(&l);
    if (!CHECK(test_load_string("S := L | R;\nL := [a-z]* \"1\";\nR := [a-z]* \"2\";\n", &l)))
        return;
    CHECK(fast_and_full(l.graph, "abcdefghij2", 11, &st, &trees));
    CHECK_INT(trees, 1);
    CHECK_INT(st.sets_skipped, 0);
    test_unload(&l);
}

/* Values programs (parse_replay.c): a set in a known state with inputs never
 * seen is replayed, its values made by the transition's program, instead
 * of built.  S := ("a" C)*; C := "b" | "c" on "abacacacab": set 1 (leaf
 * "a", next 'b') and set 3 (next 'c') read the sequence's prediction; set
 * 2 (leaf "b") and set 4 (leaf "c") read C's alternation and reference,
 * the sequence's item (cat, 1) and the quantifier's (q, 0) and (q, 1): 4
 * transitions recorded.  Set 5 and 7 replay set 3; set 6 is in set 4's
 * state ((q, 2) and (q, 1) are alike), but (q, 2) holds the rounds "ab"
 * and "ac" where (q, 1) held "ab" only: new inputs, so its values are
 * computed (and remembered); set 8, (q, 3) holding what (q, 2) held,
 * replays them; set 9 replays set 1; set 10, the end, is built.  So 4
 * replayed and 1 computed (without programs set 6 would be built and
 * recorded: 4 replayed, 0 computed).  In "ababacabab" (the next test) set
 * 8 is the one computed. */
TEST(parse_states_compute_new_values_by_program)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (\"a\" C)*;\nC := \"b\" | \"c\";\n", &l)))
        return;
    struct parse_stats st;
    uint64_t trees;
    CHECK(fast_and_full(l.graph, "abacacacab", 10, &st, &trees));
    CHECK_INT(trees, 1);
    CHECK_INT(st.transitions, 4);
    CHECK_INT(st.sets_replayed, 4);
    CHECK_INT(st.sets_computed, 1);
    CHECK(fast_and_full(l.graph, "ababacabab", 10, &st, &trees));
    CHECK_INT(st.transitions, 5);
    CHECK_INT(st.sets_replayed, 3);
    CHECK_INT(st.sets_computed, 1);
    test_unload(&l);
    /* A computed set whose k-paths are its own: S := W*; W := "a" C ".";
     * C := "b" | "c" on "ab.ab.ac.ab.".  Sets 1 ("a", next 'b'), 2 ("b"),
     * 3 (".", reading (cat, 2), W's reference and (q, 0)), 6 (the same
     * with (q, 1)), 7 ("a", next 'c') and 8 ("c") are recorded: 6
     * transitions; 4, 5, 10 and 11 replay 1 and 2; set 9 is in set 6's
     * state with (cat, 2) holding C -> "c" where set 6's held C -> "b":
     * computed.  Its program extends W over its input: the 3-path W C "c"
     * is made there only (fast_and_full compares the k-paths). */
    if (!CHECK(test_load_string("S := W*;\nW := \"a\" C \".\";\nC := \"b\" | \"c\";\n", &l)))
        return;
    CHECK(fast_and_full(l.graph, "ab.ab.ac.ab.", 12, &st, &trees));
    CHECK_INT(trees, 1);
    CHECK_INT(st.transitions, 6);
    CHECK_INT(st.sets_replayed, 4);
    CHECK_INT(st.sets_computed, 1);
    test_unload(&l);
}

/* Replaying sets (parse_replay.c, parse_states.h).  S := ("a" "b")* on (ab)^n: a
 * set j of an 'a' (odd j) reads one stack item, the sequence's prediction
 * (cat, 0) with the next character 'b'; a set of a 'b' (even j) reads the
 * sequence's item (cat, 1) and, as the sequence completes, the
 * quantifier's item above it: (q, 0) at set 2, (q, d) with d >= 1 after
 * (the same state: rounds past the minimum of * behave alike).  So sets 1,
 * 2 and 4 are recorded (3 transitions); every other set 3 .. 2n - 1 is
 * replayed: 2n - 4 of them (set 2n, the end, is always built), with the
 * same values, because the quantifier's summary after one round and after
 * d rounds of "ab" are the same set.  No set is a quantified unit chain, so
 * the fast path of fast_forward stands for none. */
TEST(parse_states_replay_a_repeated_sequence)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (\"a\" \"b\")*;\n", &l)))
        return;
    size_t lengths[2] = {3, 50};
    for (int i = 0; i < 2; i++) {
        size_t n = lengths[i];
        char *text = malloc(2 * n);
        for (size_t j = 0; j < n; j++)
            text[2 * j] = 'a', text[2 * j + 1] = 'b';
        struct parse_stats st;
        uint64_t trees;
        CHECK(fast_and_full(l.graph, text, 2 * n, &st, &trees));
        CHECK_INT(trees, 1);
        CHECK_INT(st.sets_skipped, 0);
        CHECK_INT(st.transitions, 3);
        CHECK_INT(st.sets_replayed, 2 * n - 4);
        free(text);
    }
    test_unload(&l);
}

/* The caches of the states' lookups (parse_replay.c's state_entry and the values
 * cache): the same grammar and text, counting the lookups that hashed.  A
 * set of an 'a' looks up its root level (leaf "a", next 'b', (cat, 0)) and,
 * its stack item being a prediction, the values of a transition without
 * inputs; a set of a 'b' its root (leaf "b", (cat, 1)), the level above it
 * ((q, d) as state_dot tells rounds apart) and the values of its inputs
 * (cat, 1) and (q, d) for d >= 1.  Each lookup hashes until it has once
 * been answered: set 1 hashes its root (not found: recorded), set 2 its
 * root (not found), set 3 its root and values (found, now cached), set 4
 * its root (found: cached) and level (q, 1) (not found: recorded), set 5
 * nothing, set 6 its level and values (found, cached), every later set
 * nothing: 8 for any n >= 4.  Without the caches every replayed set would
 * hash 2 or 3 times (n = 50: over 200). */
/* Parses (ab)^n both ways (fast_and_full) and checks what both tests below
 * expect of every n: 2n - 4 sets replayed, 8 lookups hashed. */
static void parse_ab_times(const struct graph *g, size_t n, struct parse_stats *st)
{
    char *text = malloc(2 * n);
    for (size_t j = 0; j < n; j++)
        text[2 * j] = 'a', text[2 * j + 1] = 'b';
    uint64_t trees;
    CHECK(fast_and_full(g, text, 2 * n, st, &trees));
    CHECK_INT(st->sets_replayed, 2 * n - 4);
    CHECK_INT(st->states_hashed, 8);
    free(text);
}

TEST(parse_states_cache_their_lookups)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (\"a\" \"b\")*;\n", &l)))
        return;
    struct parse_stats st;
    parse_ab_times(l.graph, 4, &st);
    parse_ab_times(l.graph, 50, &st);
    test_unload(&l);
}

/* The levels below a known state (parse_internal.h's struct next_level): the same
 * grammar and text.  Only a set of a 'b' reads a level below its root
 * state, the quantifier's item (q, d), whose key is (q, 0) at set 2 and (q,
 * 1) from set 4 on (state_dot).  Set 2's root is not known yet and set 4's
 * level is not (both are built and recorded), so nothing is remembered
 * below the root before set 6, which finds (q, 1) by the level cache and
 * remembers it; every later set of a 'b' before the end (8, 10, ..., 2n -
 * 2) finds it there: n - 4 levels for n >= 4, none for n = 4.  The hashed
 * lookups stay 8 (the memo answers only what the level cache would). */
TEST(parse_states_remember_the_levels_below_a_state)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (\"a\" \"b\")*;\n", &l)))
        return;
    size_t lengths[3] = {4, 5, 50};
    for (int i = 0; i < 3; i++) {
        struct parse_stats st;
        parse_ab_times(l.graph, lengths[i], &st);
        CHECK_INT(st.levels_remembered, lengths[i] - 4);
    }
    test_unload(&l);
}

/* A replay needs the values of the stack items it advances to be ones seen
 * before.  S := ("a" C)*; C := "b" | "c".  A set of an 'a' reads the
 * sequence's prediction only and depends on the next character (C's
 * alternative): one transition for 'b', one for 'c', no inputs.  A set of
 * a 'b' or 'c' reads C's alternation and reference (predictions, one after
 * the other), the sequence's item (cat, 1) and the quantifier's item: a
 * state per leaf and per (q, 0) or (q, d >= 1), whose inputs are the
 * values of (cat, 1) (always the one "a") and (q, d) (the rounds so far).
 *   "abababacab": sets 1, 2 (q, 0), 4 (q, 1) recorded; 3, 5, 9 replay set
 *   1; 6 replays set 4 (rounds "ab" twice: the same value as once); 7 ('a'
 *   before 'c') and 8 (leaf 'c') recorded: 5 transitions, 4 replayed.
 *   "ababacabab": 1, 2, 4, 5 ('a' before 'c'), 6 (leaf 'c') recorded; 3,
 *   7, 9 replayed; set 8 is in set 4's state, but (q, 3) holds rounds "ab"
 *   and "ac" where (q, 1) held "ab" only: new inputs, so it is built (and
 *   its values remembered): 5 transitions, 3 replayed. */
TEST(parse_states_replay_needs_the_same_inputs)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (\"a\" C)*;\nC := \"b\" | \"c\";\n", &l)))
        return;
    struct parse_stats st;
    uint64_t trees;
    CHECK(fast_and_full(l.graph, "abababacab", 10, &st, &trees));
    CHECK_INT(trees, 1);
    CHECK_INT(st.transitions, 5);
    CHECK_INT(st.sets_replayed, 4);
    CHECK(fast_and_full(l.graph, "ababacabab", 10, &st, &trees));
    CHECK_INT(st.transitions, 5);
    CHECK_INT(st.sets_replayed, 3);
    /* Without the fast path nothing is replayed or recorded. */
    struct parse_options po = {.stats = &st, .no_fast_path = true};
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(parse_kpaths(l.graph, "t", "ababacabab", 10, &po, NULL, 0, NULL, &trees, NULL, &d));
    CHECK_INT(st.sets_replayed, 0);
    CHECK_INT(st.transitions, 0);
    diag_list_free(&d);
    test_unload(&l);
}

/* Literals longer than one character read past the next character, so a
 * transition keeps which of them matched as its conditions.  S := (X ";")*;
 * X := "ab" | "ac" on "ab;ac;ab;ab;ab;ac;" (tokens t0 .. t5): the set of
 * the ';' after token i (set 3i + 3) predicts X with the next character 'a'
 * and tries both literals on the token after.  Its inputs are the values of
 * (cat, 1) (token i) and of the quantifier's item (the tokens before).
 * Recorded: set 2 (leaf "ab"), set 3 (';' with (q, 0): "ac" matched next),
 * set 5 (leaf "ac"), set 6 (';' with (q, 1): "ab" matched next).  Sets 8,
 * 11, 14 replay set 2 and set 17 set 5.  Set 9 is in set 6's state and "ab"
 * matches next, but its inputs are new (token "ab", rounds "ab" and "ac"):
 * built.  Set 12: the same state, conditions and inputs as set 9: replayed.
 * Set 15: the same again, but "ac" matches next, not "ab": built (a replay
 * would leave "ab" pending, as if t5 were "ab": counted here as a sixth
 * replay; the k-paths could not tell, "ab" having come before).  (Sets 3i + 1 have nothing:
 * the literals land one further.)  4 transitions, 5 sets replayed. */
TEST(parse_states_keep_literal_conditions)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (X \";\")*;\nX := \"ab\" | \"ac\";\n", &l)))
        return;
    struct parse_stats st;
    uint64_t trees;
    CHECK(fast_and_full(l.graph, "ab;ac;ab;ab;ab;ac;", 18, &st, &trees));
    CHECK_INT(trees, 1);
    CHECK_INT(st.transitions, 4);
    CHECK_INT(st.sets_replayed, 5);
    test_unload(&l);
}
