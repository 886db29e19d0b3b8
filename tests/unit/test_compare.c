/* Unit tests of gen/compare: by hand on growth.ebnf (five 1-paths: "a",
 * "b", B, "c", "d"), and the same options giving the same curves. */
#include <stdlib.h>

#include "gen/compare.h"
#include "harness.h"
#include "workspace/workspace.h"

TEST(compare_by_hand)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new(harness_path("tests/grammars/ok/growth.ebnf"), NULL, &d);
    CHECK_INT(d.errors, 0);
    diag_list_free(&d);
    if (!ws)
        return;
    struct gen_options o;
    gen_options_default(&o);
    o.k = 1;
    struct gen_compare c, again;
    char *error = NULL;
    CHECK(gen_compare_run(ws->graph, &o, 6, &c, &error));
    CHECK(gen_compare_run(ws->graph, &o, 6, &again, &error));
    CHECK_INT(c.total, 5);
    CHECK_INT(c.n, 6);
    /* the k-path strategy covers the five 1-paths in at most three inputs
     * ("a", "bc", "bd": no input holds more than three), then stops */
    CHECK(c.made[COMPARE_KPATH] <= 3);
    CHECK_INT(c.covered[COMPARE_KPATH][6], 5);
    for (int s = 0; s < COMPARE_NSTRATEGIES; s++) {
        CHECK_INT(c.covered[s][0], 0);
        for (size_t i = 1; i <= 6; i++) {
            /* an input of growth.ebnf holds "a" (one 1-path) or "b" B and
             * "c" or "d" (three): each adds at most three */
            CHECK(c.covered[s][i] >= c.covered[s][i - 1]);
            CHECK(c.covered[s][i] <= c.covered[s][i - 1] + 3);
            CHECK(c.covered[s][i] <= 5);
            CHECK_INT(c.covered[s][i], again.covered[s][i]);
        }
        CHECK_INT(c.made[s], again.made[s]);
    }
    CHECK_INT(c.made[COMPARE_RANDOM], 6);
    gen_compare_free(&c);
    gen_compare_free(&again);
    workspace_free(ws);
}

/* The bytes axis on growth.ebnf, whose inputs are "a" (1 byte), "bc" or
 * "bd" (2): it ends at the larger of the two strategies' bytes after n
 * inputs; the strategy with fewer goes on until it has as many or is done;
 * at b bytes a curve reads the inputs whose bytes add up to at most b. */
TEST(compare_bytes_axis)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new(harness_path("tests/grammars/ok/growth.ebnf"), NULL, &d);
    CHECK_INT(d.errors, 0);
    diag_list_free(&d);
    if (!ws)
        return;
    struct gen_options o;
    gen_options_default(&o);
    o.k = 1;
    struct gen_compare c;
    char *error = NULL;
    CHECK(gen_compare_run(ws->graph, &o, 6, &c, &error));
    uint64_t r6 = c.bytes[COMPARE_RANDOM][6], k6 = c.bytes[COMPARE_KPATH][6];
    CHECK_INT(c.span, r6 > k6 ? r6 : k6);
    /* six random inputs of 1 or 2 bytes; the k-path strategy's three or
     * fewer, done before 6 */
    CHECK(r6 >= 6 && r6 <= 12);
    CHECK(c.made[COMPARE_KPATH] <= 3);
    CHECK(c.made[COMPARE_RANDOM] >= 6);
    for (int s = 0; s < COMPARE_NSTRATEGIES; s++) {
        CHECK_INT(c.bytes[s][0], 0);
        for (size_t i = 1; i <= c.made[s]; i++) {
            uint64_t step = c.bytes[s][i] - c.bytes[s][i - 1];
            CHECK(step == 1 || step == 2);
        }
        CHECK_INT(gen_compare_at_bytes(&c, s, 0), 0);
        for (size_t i = 0; i <= c.made[s]; i++) {
            /* at an input's end its coverage; a byte short of the next
             * input's end, still the same */
            CHECK_INT(gen_compare_at_bytes(&c, s, c.bytes[s][i]), c.covered[s][i]);
            if (i < c.made[s])
                CHECK_INT(gen_compare_at_bytes(&c, s, c.bytes[s][i + 1] - 1), c.covered[s][i]);
        }
        CHECK_INT(gen_compare_at_input(&c, s, 6), c.covered[s][6]);
    }
    /* the random strategy, never done, reaches the span */
    CHECK(c.bytes[COMPARE_RANDOM][c.made[COMPARE_RANDOM]] >= c.span);
    gen_compare_free(&c);
    workspace_free(ws);
}
