/* Replays chained after replays (parse.c's struct chain_next): a set
 * replayed right after a replayed set first compares its stack with the
 * states met after that set's transition (by the transition, the leaf and
 * the next character) instead of walking the states' trie level by level,
 * and takes the values remembered there when its inputs are the same.  The
 * counts (parse_stats.sets_chained) are worked out by hand below; every
 * parse is also made with the chaining off (parse_options.no_chain) and
 * with every set built (no_fast_path), and all three must give the same
 * k-paths (k = 1 .. 3), expansions, tree counts and items made. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "harness.h"
#include "parse.h"

enum { CHAINED, UNCHAINED, BUILT, WAYS };

/* Parses text the three ways; true if they agree.  st gets the statistics
 * of each way. */
static bool three_ways(const struct graph *g, const char *text, size_t len,
                       struct parse_stats st[WAYS], uint64_t *trees)
{
    struct kpath_space sp[3];
    struct kpath_set sets[WAYS][3];
    struct kpath_set *ptrs[WAYS][3];
    struct expansion_set exp[WAYS];
    uint64_t tr[WAYS] = {0};
    bool inf[WAYS] = {false}, got[WAYS];
    for (uint32_t k = 1; k <= 3; k++)
        kpath_space_init(&sp[k - 1], g, k);
    for (int w = 0; w < WAYS; w++) {
        for (uint32_t k = 1; k <= 3; k++) {
            kpath_set_init(&sets[w][k - 1], &sp[k - 1]);
            ptrs[w][k - 1] = &sets[w][k - 1];
        }
        expansion_set_init(&exp[w], g);
        struct parse_options po = {.stats = &st[w], .no_chain = w == UNCHAINED,
                                   .no_fast_path = w == BUILT};
        struct diag_list d = DIAG_LIST_INIT;
        got[w] = parse_kpaths(g, "t", text, len, &po, ptrs[w], 3, &exp[w], &tr[w], &inf[w], &d);
        diag_list_free(&d);
    }
    bool ok = true;
    for (int w = 1; w < WAYS; w++) {
        ok = ok && got[0] && got[w] && tr[w] == tr[0] && inf[w] == inf[0] &&
             exp[w].count == exp[0].count && st[w].items_made == st[0].items_made;
        for (uint32_t k = 1; k <= 3; k++) {
            uint64_t n = sets[w][k - 1].size;
            kpath_set_union(&sets[w][k - 1], &sets[0][k - 1]);
            ok = ok && sets[0][k - 1].size == n && sets[w][k - 1].size == n && (k > 1 || n > 0);
        }
        for (uint32_t n = 0; ok && n < g->nnodes; n++) {
            uint32_t alternatives = g->nodes[n].kind == NODE_ALT ? g->nodes[n].nchildren : 1;
            for (uint32_t i = 0; i < alternatives; i++)
                ok = ok && expansion_has(&exp[0], n, i) == expansion_has(&exp[w], n, i);
        }
    }
    ok = ok && st[UNCHAINED].sets_chained == 0 && st[BUILT].sets_chained == 0;
    *trees = tr[0];
    for (int w = 0; w < WAYS; w++) {
        for (uint32_t k = 1; k <= 3; k++)
            kpath_set_free(&sets[w][k - 1]);
        expansion_set_free(&exp[w]);
    }
    for (uint32_t k = 1; k <= 3; k++)
        kpath_space_free(&sp[k - 1]);
    return ok;
}

/* S := ("a" "b")* on (ab)^n (test_parse_det.c has the states): transition
 * A for a set of an 'a' (sets 1, 3, 5, ...), B1 for a set of a 'b' with
 * the quantifier past its first round (sets 4, 6, 8, ...); set 2 and set
 * 4 are built, and set 2n, the end.  A replay chains from the set before
 * only when that set was replayed too: set 3 follows the built set 2 and
 * set 5 the built set 4; set 6 (A then B1) and set 7 (B1 then A) are the
 * first replays after a replay, each found by the walk and remembered
 * after A and after B1; from set 8 on every replay finds its state so:
 * sets 8 .. 2n - 1, 2n - 8 of them for n >= 4.  Their values are the same
 * every time (no inputs for A; for B1 the rounds so far, one value).  The
 * replays are the same in number with the chaining off (2n - 4).
 *
 * The levels below a known state (parse.c's struct next_level), with the
 * chaining off: only a set of a 'b' reads a level below its root state, the
 * quantifier's item (q, d), whose key is (q, 0) at set 2 and (q, 1) from
 * set 4 on (state_dot).  Set 2's root is not known yet and set 4's level is
 * not (both are built and recorded), so nothing is remembered below the
 * root before set 6, which finds (q, 1) by the level cache and remembers
 * it; every later set of a 'b' before the end (8, 10, ..., 2n - 2) finds it
 * there: n - 4 levels for n >= 4.  With the chaining on, none: those sets
 * are chained and walk no level.  The hashed lookups are 8 either way
 * (test_parse_det.c): the level memo and the chaining answer only what the
 * caches would. */
TEST(parse_chain_a_repeated_sequence)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (\"a\" \"b\")*;\n", &l)))
        return;
    size_t lengths[3] = {4, 5, 50};
    for (int i = 0; i < 3; i++) {
        size_t n = lengths[i];
        char *text = malloc(2 * n);
        for (size_t j = 0; j < n; j++)
            text[2 * j] = 'a', text[2 * j + 1] = 'b';
        struct parse_stats st[WAYS];
        uint64_t trees;
        CHECK(three_ways(l.graph, text, 2 * n, st, &trees));
        CHECK_INT(trees, 1);
        CHECK_INT(st[CHAINED].sets_chained, 2 * n - 8);
        CHECK_INT(st[CHAINED].sets_replayed, 2 * n - 4);
        CHECK_INT(st[UNCHAINED].sets_replayed, 2 * n - 4);
        CHECK_INT(st[CHAINED].levels_remembered, 0);
        CHECK_INT(st[UNCHAINED].levels_remembered, n - 4);
        CHECK_INT(st[CHAINED].states_hashed, 8);
        CHECK_INT(st[UNCHAINED].states_hashed, 8);
        free(text);
    }
    test_unload(&l);
}

/* A chained set takes the values remembered with its state only for the
 * same inputs.  S := ("a" C)*; C := "b" | "c" (test_parse_det.c has the
 * states: A for a set of an 'a' before a 'b', no inputs; B1 for a set of a
 * 'b' with the quantifier past its first round, whose inputs are the
 * values of (cat, 1) and of the quantifier's item, the rounds so far) on
 * "abababab" "ac" "ababab" (16 characters):
 *   sets 1, 2, 4 built; 3, 5 replay A after a built set; 6 replays B1
 *   after A (walked; remembered after A, with its values); 7 replays A
 *   after B1 (walked; remembered after B1); 8 replays B1 after A: chained,
 *   the same inputs as set 6 (rounds "ab" only), the values remembered;
 *   9 (an 'a' before 'c') and 10 (leaf 'c') built; 11 replays A after a
 *   built set; 12 is in B1's state after A: chained, but the rounds now
 *   hold "ac" too, so its inputs are new and its values are computed by
 *   B1's program, not taken from set 8's; 13 (A after B1), 14 (B1 after A,
 *   the inputs of set 12, whose values were remembered: found by their
 *   key) and 15 (A after B1) chained.  Chained: 8, 12, 13, 14, 15 = 5;
 *   replayed 3, 5, 6, 7, 8, 11, 13, 14, 15 = 9, computed 1 (set 12), the
 *   same with the chaining off.  Had set 12 taken set 8's values, the
 *   quantifier's summary would lack the round "ac" and the k-paths through
 *   "c" would be missing (three_ways compares them). */
TEST(parse_chain_values_need_the_same_inputs)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (\"a\" C)*;\nC := \"b\" | \"c\";\n", &l)))
        return;
    const char *text = "abababab" "ac" "ababab";
    struct parse_stats st[WAYS];
    uint64_t trees;
    CHECK(three_ways(l.graph, text, strlen(text), st, &trees));
    CHECK_INT(trees, 1);
    CHECK_INT(st[CHAINED].sets_chained, 5);
    CHECK_INT(st[CHAINED].sets_replayed, 9);
    CHECK_INT(st[CHAINED].sets_computed, 1);
    CHECK_INT(st[UNCHAINED].sets_replayed, 9);
    CHECK_INT(st[UNCHAINED].sets_computed, 1);
    CHECK_INT(st[CHAINED].transitions, 5);
    test_unload(&l);
}
