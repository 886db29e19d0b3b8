/* parse_kpaths' summaries of a set: in the order its values were made, or
 * (when a derivation was added to a value already made, or values depend on
 * each other in a cycle) by strongly connected components.  The sets that
 * need the components are counted by hand from the grammar and the text;
 * the values are those of the forest either way (test_parse_kpaths.c). */
#include <string.h>

#include "../support/load.h"
#include "harness.h"
#include "parse/parse.h"

static bool stats_of(const struct graph *g, const char *text, struct parse_stats *st,
                     uint64_t *trees)
{
    struct parse_options po = {.stats = st, .no_fast_path = true};
    struct diag_list d = DIAG_LIST_INIT;
    bool infinite;
    bool ok = parse_kpaths(g, "t", text, strlen(text), &po, NULL, 0, NULL, trees, &infinite, &d);
    diag_list_free(&d);
    return ok;
}

/* An unambiguous grammar without empty cycles: every value of a set is
 * derived from what was made before it, so no set needs the components. */
TEST(parse_summary_unambiguous_sets_in_order)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    struct parse_stats st;
    uint64_t trees;
    CHECK(stats_of(l.graph, "{\"a\": [1, 2.5e3, \"x\\ny\", true, null], \"b\": {}}", &st, &trees));
    CHECK_INT(trees, 1);
    CHECK_INT(st.sets_by_components, 0);
    test_unload(&l);
}

/* S := S S | "a" on n a's: in set j, S(i, j) has j - i - 1 splits, so from
 * set 3 on S(0, j) (at least) gets a second derivation after it was made:
 * sets 3 .. n need the components, sets 0 .. 2 do not (every span there
 * has at most one split).  n - 2 sets for n >= 2; the trees are the
 * Catalan numbers C(n - 1): 1, 1, 2, 5, 14. */
TEST(parse_summary_ambiguous_sets_by_components)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := S S | \"a\";\n", &l)))
        return;
    static const char *texts[] = {"a", "aa", "aaa", "aaaa", "aaaaa"};
    static const size_t by_components[] = {0, 0, 1, 2, 3};
    static const uint64_t catalan[] = {1, 1, 2, 5, 14};
    for (size_t i = 0; i < 5; i++) {
        struct parse_stats st;
        uint64_t trees;
        CHECK(stats_of(l.graph, texts[i], &st, &trees));
        CHECK_INT(trees, catalan[i]);
        CHECK_INT(st.sets_by_components, by_components[i]);
    }
    test_unload(&l);
}

/* S := S | "a" on "a": S(0, 1) derives itself, a cycle in set 1 (and only
 * there: set 0 holds predictions), so one set needs the components, and the
 * trees are infinitely many. */
TEST(parse_summary_cycle_by_components)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := S | \"a\";\n", &l)))
        return;
    struct parse_stats st = {0};
    struct parse_options po = {.stats = &st, .no_fast_path = true};
    struct diag_list d = DIAG_LIST_INIT;
    uint64_t trees;
    bool infinite = false;
    CHECK(parse_kpaths(l.graph, "t", "a", 1, &po, NULL, 0, NULL, &trees, &infinite, &d));
    diag_list_free(&d);
    CHECK(infinite);
    CHECK_INT(st.sets_by_components, 1);
    test_unload(&l);
}
